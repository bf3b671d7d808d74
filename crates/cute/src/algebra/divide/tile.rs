//! `A ⊘ B` for one layout tile `B`: `A ∘ (B, complement(B, shape(coalesce(A))))`, with the check
//! that `(B, B*)` is onto `Z_|A|` (see the [parent module](super)). The by-mode driver
//! ([`apply_tiler`](crate::algebra::apply_tiler)) applies it at the tiles of a tiler.

use crate::algebra::coalesce::coalesce;
use crate::algebra::complement::integer::complement_to_build;
use crate::algebra::composition::{compose_build, scaled};
use crate::error::{Error, ErrorKind, Op, Operand, Step};
use crate::int_tuple::CAPACITY;
use crate::layout::BLANK;
use crate::layout::{concat_pair_build, Layout};
use crate::stride::Code;

/// [`divide_build`]'s fast path for `A` one leaf `s:d` (whose basis code is `code`), given by its
/// parts so that a mode of a layout divided by mode need not be copied out first.
pub(crate) const fn divide_leaf_build(
    s: i64,
    d: i64,
    code: Code,
    b: &Layout,
    err: &mut Result<(), Error>,
) -> Layout {
    let n = match cover_target(s, b) {
        Some(n) => n,
        None => {
            reach_overflow(err);
            return BLANK;
        }
    };
    // (whether `(B, B*)` is known to be onto its span, so that the walk of `onto_gap` is not
    // needed)
    let mut tiles = false;
    let rest = complement_to_build(b, &[n], false, &mut tiles, err);
    if let Err(e) = *err {
        *err = Err(e
            .with(
                Operand::Layout(leaf_layout(s, d, code)),
                Operand::Layout(*b),
            )
            .in_step(Step::DivideComplement(n)));
        return rest;
    }
    let mut out = concat_pair_build(b, &rest, err);
    if err.is_err() {
        return out;
    }
    // Onto `[0, n)`: known when `(B, B*)` tiles `[0, |B|·|B*|)` (the complement reaches its
    // cotarget), else checked on the two parts (borrowing `out` would keep it from being built in
    // place).
    if !tiles {
        if let Some(kind) = onto_gap(b, &rest, s) {
            fail_onto(err, kind, &leaf_layout(s, d, code), b);
            return out;
        }
    }
    let mut used: u64 = 0;
    let mut i = 0;
    while i < out.tree.len() {
        if out.stride[i] != 0 {
            (out.stride[i], out.basis[i]) = match scaled(
                out.stride[i],
                d,
                code,
                out.shape[i],
                i,
                core::slice::from_mut(&mut used),
                0,
            ) {
                Ok(v) => v,
                Err(e) => {
                    *err = Err(e
                        .with(
                            Operand::Layout(leaf_layout(s, d, code)),
                            Operand::Layout(*b),
                        )
                        .in_step(Step::DivideCompose));
                    return out;
                }
            };
        }
        i += 1;
    }
    out
}

/// The layout `s:d` with the basis code `code` (for the operands of an error).
#[cold]
const fn leaf_layout(s: i64, d: i64, code: Code) -> Layout {
    let mut l = Layout::TRIVIAL;
    l.shape[0] = s;
    l.stride[0] = d;
    l.basis[0] = code;
    l
}

/// `A ⊘ B = A ∘ (B, complement(B, shape(coalesce(A))))` for a layout tile `B`, or the error
/// (with the operands `A` and `B`) in `err`. Each step is built in place: the complement, the
/// concatenation `(B, B*)`, and the composition straight into the return place.
///
/// Fast path, `A` one leaf `s:d` (a mode of a layout divided by mode, typically): the cotarget
/// `shape(coalesce(A))` is `s` (also for `s = 1`, as `coalesce(1:d) = 1:0`), and `A ∘ X` is `X`
/// with its strides multiplied by `d` (see `compose_leaf_a_build`), so the concatenation is
/// built in the return place and its strides are scaled there, with the errors of the
/// composition (an overflowing product, in leaf order).
pub(crate) const fn divide_build(a: &Layout, b: &Layout, err: &mut Result<(), Error>) -> Layout {
    if a.tree.len() == 1 {
        return divide_leaf_build(a.shape[0], a.stride[0], a.basis[0], b, err);
    }
    let target = coalesce(a);
    let size = a.size();
    let n = match cover_target(size, b) {
        Some(n) => n,
        None => {
            reach_overflow(err);
            return BLANK;
        }
    };
    let mut tiles = false; // (as in `divide_leaf_build`)
    let rest = if n == size {
        complement_to_build(
            b,
            target.shape.split_at(target.tree.len()).0,
            false,
            &mut tiles,
            err,
        )
    } else {
        // (a tiler reaching below 0: the cotarget `|A| + below`, see `cover_target`)
        complement_to_build(b, &[n], false, &mut tiles, err)
    };
    if let Err(e) = *err {
        *err = Err(e
            .with(Operand::Layout(*a), Operand::Layout(*b))
            .in_step(Step::DivideComplement(n)));
        return rest;
    }
    let bb = concat_pair_build(b, &rest, err);
    if err.is_err() {
        return bb;
    }
    // (onto `[0, |A|)`: as in `divide_leaf_build`)
    if !tiles {
        if let Some(kind) = onto_gap(b, &rest, size) {
            fail_onto(err, kind, a, b);
            return bb;
        }
    }
    let out = compose_build(a, &bb, err);
    if let Err(e) = *err {
        *err = Err(e
            .with(Operand::Layout(*a), Operand::Layout(*b))
            .in_step(Step::DivideCompose));
    }
    out
}

/// The size the complement of the tiler `b` must cover in a divide of a layout of size `n`: `n`
/// plus how far below 0 the offsets of `b` reach, `below = −Σ (s−1)·d` over its modes of negative
/// stride; `None` when that passes `i64`.
///
/// The image of `b` is that of its absolute strides shifted down by `below`, so the copies of
/// `(b, gaps)` that reach `n` from 0 up must reach `n + below` in the unshifted count (the paper
/// extends `B*` until `(B, B*)` is onto `Z_|A|`). `(2,2):(-1,4)` reaches 1 below 0, so
/// `8:1 ⊘ (2,2):(-1,4)` takes the complement `(2,2):(2,8)` up to 9, not CuTe's `2:2` which misses
/// the offset 7.
#[inline]
const fn cover_target(n: i64, b: &Layout) -> Option<i64> {
    let mut t = n as i128;
    let mut i = 0;
    while i < b.tree.len() {
        if b.stride[i] < 0 {
            // (each term below 2^126, and the shape's product fits in an i64: no overflow)
            t -= (b.shape[i] as i128 - 1) * b.stride[i] as i128;
        }
        i += 1;
    }
    if t > i64::MAX as i128 {
        None
    } else {
        Some(t as i64)
    }
}

/// The error of a tiler whose reach below 0, added to `|A|`, passes `i64`. (Out of line, as
/// [`fail_onto`].)
#[cold]
#[inline(never)]
const fn reach_overflow(err: &mut Result<(), Error>) {
    *err = Err(Error::new(
        Op::LogicalDivide,
        ErrorKind::Overflow {
            what: "the size the complement must cover (|A| plus the tiler's reach below 0)",
        },
    ));
}

/// The error of `A ⊘ B` when `(B, B*)` is not onto `Z_|A|`, written into `err` out of line: an
/// `Error` carries its operands (two layouts), and building it inside the divide would enlarge
/// the hot path's stack frame.
#[cold]
#[inline(never)]
const fn fail_onto(err: &mut Result<(), Error>, kind: ErrorKind, a: &Layout, b: &Layout) {
    *err = Err(Error::new(Op::LogicalDivide, kind).with(Operand::Layout(*a), Operand::Layout(*b)));
}

/// The most points [`onto_gap`] walks when negative strides leave the answer open.
const ONTO_WALK: i128 = 1 << 16;

/// The paper's requirement on `A ⊘ B` (§5.5.2): `B★ = (B, B*)` is onto `Z_n`, `n = |A|`. `None`
/// when every offset of `[0, n)` is reached; otherwise `NotOnto` with the smallest offset
/// missed, or `Unsupported` when negative strides leave the question open past [`ONTO_WALK`]
/// points.
///
/// `B★` is injective on its modes of nonzero stride (the complement checks `B` and fills only
/// the holes of its image). With non-negative strides, sorted by stride: the modes from stride
/// 1 on that each begin where the ones before end (`d = P`, then `P ← P·s`) reach exactly
/// `[0, P)`; the next stride `d` is larger than `P` (a smaller one would meet those offsets), and
/// every offset reached with a nonzero coordinate in it or in a later mode is at least `d`, so
/// `P` is the smallest offset missed. A mode `s:−d` reaches the offsets of `s:d` shifted by
/// `−(s−1)·d`, so with negative strides the image is that of the absolute strides shifted by
/// `m = Σ (s−1)·d` over the negative modes, and `[0, n)` is covered when `[−m, −m + n)` lies in
/// `[0, P)`; other cases are decided by walking the image.
///
/// ```text
/// (8,3):(3,1)        onto Z_24 (the chain 1, 3 reaches [0, 24))
/// ((2,3),8):((24,32),1)   not onto Z_56: 8 is missed (8 + 24 = 32 meets the mode of stride 32)
/// ```
///
/// Answered small (`None`, or the reason as an [`ErrorKind`]) so that the caller's hot path
/// carries no `Error`.
///
/// `B★` is given by its two parts `x = B` and `y = B*` (its leaves are those of `x`, then those of
/// `y`), so that the caller need not borrow the concatenation it builds in place.
#[inline]
const fn onto_gap(x: &Layout, y: &Layout, n: i64) -> Option<ErrorKind> {
    // The shift m ≤ 0 (in i128: it may pass i64), only when a stride is negative.
    let shift = below(x) + below(y);
    // The prefix [0, P) that the chain from stride 1 reaches: repeatedly the mode of stride ±P
    // (one at most: two would meet), until the window [−m, −m + n) fits. No sorting and no
    // arrays: a tiler and its complement have a handful of modes, and this runs on every divide.
    // `P` divides the product of the shapes, which fits in an i64.
    let top = n as i128 - shift;
    let mut p: i64 = 1;
    let (mut used_x, mut used_y): (u64, u64) = (0, 0);
    while top > p as i128 {
        let mut s = take_stride(x, p, &mut used_x);
        if s == 0 {
            s = take_stride(y, p, &mut used_y);
        }
        if s == 0 {
            if shift == 0 {
                return Some(ErrorKind::NotOnto {
                    missing: p,
                    size: n,
                });
            }
            return walk_gap(x, y, n);
        }
        p *= s;
    }
    None
}

/// `Σ (s−1)·d` over the modes of `l` of negative stride (`0` when there is none).
#[inline(always)]
const fn below(l: &Layout) -> i128 {
    let mut m: i128 = 0;
    let mut i = 0;
    while i < l.tree.len() {
        if l.stride[i] < 0 {
            m += (l.shape[i] as i128 - 1) * l.stride[i] as i128;
        }
        i += 1;
    }
    m
}

/// The shape of the first mode of `l` not in `used`, of shape above 1 and stride `±p`, which is
/// then added to `used`; `0` when there is none.
#[inline(always)]
const fn take_stride(l: &Layout, p: i64, used: &mut u64) -> i64 {
    let mut i = 0;
    while i < l.tree.len() {
        let (si, di) = (l.shape[i], l.stride[i]);
        if *used & (1 << i) == 0 && si > 1 && (di == p || di == -p) {
            *used |= 1 << i;
            return si;
        }
        i += 1;
    }
    0
}

/// Leaf `i` (shape, stride) of the concatenation `(x, y)`.
#[inline(always)]
const fn pair_leaf(x: &Layout, y: &Layout, i: usize) -> (i64, i64) {
    let xn = x.tree.len();
    if i < xn {
        (x.shape[i], x.stride[i])
    } else {
        (y.shape[i - xn], y.stride[i - xn])
    }
}

/// [`onto_gap`] for negative strides and a window past the prefix: the image walked (at most
/// [`ONTO_WALK`] points), the smallest offset of `[0, n)` missed.
#[cold]
#[inline(never)]
const fn walk_gap(x: &Layout, y: &Layout, n: i64) -> Option<ErrorKind> {
    let (len, n128) = (x.tree.len() + y.tree.len(), n as i128);
    let mut points: i128 = 1;
    let mut i = 0;
    while i < len {
        let (si, di) = pair_leaf(x, y, i);
        if di != 0 {
            points *= si as i128;
        }
        i += 1;
    }
    if points > ONTO_WALK || n128 > ONTO_WALK {
        return Some(ErrorKind::Unsupported {
            what: "deciding whether (B, B*) is onto Z_|A| for a tiler with negative strides past 2^16 points",
        });
    }
    let mut seen = [0u64; (ONTO_WALK / 64) as usize];
    let mut c = [0i128; CAPACITY];
    let mut off: i128 = 0;
    loop {
        if off >= 0 && off < n128 {
            seen[(off / 64) as usize] |= 1 << (off % 64);
        }
        // the next coordinate (the order does not matter), the offset kept in step
        let mut m = 0;
        while m < len {
            let (sm, dm) = pair_leaf(x, y, m);
            let (sm, dm) = (sm as i128, dm as i128);
            if sm > 1 && dm != 0 {
                if c[m] + 1 < sm {
                    c[m] += 1;
                    off += dm;
                    break;
                }
                off -= c[m] * dm;
                c[m] = 0;
            }
            m += 1;
        }
        if m == len {
            break;
        }
    }
    let mut x = 0;
    while x < n {
        if seen[(x / 64) as usize] & (1 << (x % 64)) == 0 {
            return Some(ErrorKind::NotOnto {
                missing: x,
                size: n,
            });
        }
        x += 1;
    }
    None
}
