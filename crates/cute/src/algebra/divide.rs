//! Logical divide (paper: 逻辑除法) and its regroupings `zipped_divide`, `tiled_divide`,
//! `flat_divide`.
//!
//! `A ⊘ B = A ∘ (B, B*)` with `B* = complement(B, shape(coalesce(A)))`: the rank-2 layout whose first
//! mode ("tile") is `A ∘ B`, the elements of `A` that `B` points to, and whose second mode ("rest")
//! is `A ∘ B*`, the repetitions of that tile over the rest of `A`. Both modes are evaluated through
//! the composition, so every admissibility condition of [`composition`] and [`complement_to`]
//! applies, and the division is refused when they fail.
//!
//! The paper also requires `(B, B*)` onto `Z_|A|` (every element of `A` lands in the tile or
//! the rest), which CuTe C++ does not check: a tiler whose translates collide leaves holes no
//! complement fills (`(8,7):(1,2) ⊘ (2,3):(24,32)`: `B` shifted by 8 meets itself at 32, so the
//! offset 8 is in neither mode), and the division is refused (`NotOnto`, naming the smallest
//! offset missed) where C++ returns a layout that drops those elements. A tiler with negative
//! strides reaches below 0, so its complement is asked to cover `|A|` plus that reach (the paper's
//! "extend `B*`"): `8:1 ⊘ (2,2):(-1,4)` is `((2,2),(2,2)):((-1,4),(2,8))`, onto `Z_8`, where
//! C++'s `((2,2),2):((-1,4),2)` misses the offset 7.
//!
//! A by-mode [`Tiler`] divides mode `k` of `A` by tile `k` (`_` keeps the mode, an integer `n` is
//! `n:1`, a nested tiler recurses); the modes of `A` beyond the tiler's rank are kept. A tiler with
//! more modes than `A` is refused.
//!
//! The variants regroup the same function (CuTe's `tile_unzip`, a `zip2_by` guided by the tiler):
//! `zipped_divide` gathers the tile modes into mode 0 and the rest modes (followed by the modes of
//! `A` the tiler does not reach) into mode 1; `tiled_divide` then unpacks mode 1, and
//! `flat_divide` unpacks both. Because the regrouping splits each divided mode into its two
//! halves, a `_` tile over a mode of `A` that is an integer has nothing to split and is refused
//! (`OutOfRange`, as in CuTe).
//!
//! | `A` | tiler | operation | result |
//! |---|---|---|---|
//! | `24:3` | `8:3` | `logical_divide` | `(8,3):(9,3)` (S-LD-4) |
//! | `(6,2,2):(2,1,20)` | `8:3` | `logical_divide` | `((2,2,2),3):((6,1,20),2)` (S-LD-6) |
//! | `(8,16):(20,1)` | `<4:1,8:2>` | `logical_divide` | `((4,2),(8,2)):((20,80),(2,1))` (S-LD-10) |
//! | `(8,16):(20,1)` | `<4:1,8:2>` | `zipped_divide` | `((4,8),(2,2)):((20,2),(80,1))` (S-LD-11) |
//! | `(8,16):(20,1)` | `<4:1,8:2>` | `tiled_divide` | `((4,8),2,2):((20,2),80,1)` |
//! | `(8,16):(20,1)` | `<4:1,8:2>` | `flat_divide` | `(4,8,2,2):(20,2,80,1)` |
//! | `(16,8):(1,16)` | `<_,2:1>` | `logical_divide` | `(16,(2,4)):(1,(16,32))` |
//! | `(4,8):(8,1)` | `<_,8>` | `zipped_divide` | error: `_` over the integer mode `4:8` |
//! | `8:1` | `(2,2):(-1,4)` | `logical_divide` | `((2,2),(2,2)):((-1,4),(2,8))` |
//! | `(8,7):(1,2)` | `(2,3):(24,32)` | `logical_divide` | error: `(B, B*)` misses the offset 8 |
//!
//! ```
//! use cute::{logical_divide, zipped_divide, Layout, Tiler};
//! let a: Layout = "(8,16):(20,1)".parse().unwrap();
//! let t: Tiler = "<4:1,8:2>".parse().unwrap();
//! assert_eq!(logical_divide(&a, &t).unwrap().to_string(), "((4,2),(8,2)):((20,80),(2,1))");
//! assert_eq!(zipped_divide(&a, &t).unwrap().to_string(), "((4,8),(2,2)):((20,2),(80,1))");
//!
//! let a: Layout = "24:3".parse().unwrap();
//! let b: Layout = "8:3".parse().unwrap();
//! assert_eq!(logical_divide(&a, &Tiler::layout(b)).unwrap().to_string(), "(8,3):(9,3)");
//!
//! // (B, B*) must be onto Z_|A|
//! let a: Layout = "8:1".parse().unwrap();
//! let b: Layout = "(2,2):(-1,4)".parse().unwrap();
//! let r = logical_divide(&a, &Tiler::layout(b)).unwrap();
//! assert_eq!(r.to_string(), "((2,2),(2,2)):((-1,4),(2,8))");
//! let a: Layout = "(8,7):(1,2)".parse().unwrap();
//! let b: Layout = "(2,3):(24,32)".parse().unwrap();
//! let e = logical_divide(&a, &Tiler::layout(b)).unwrap_err();
//! assert!(e.to_string().ends_with("no coordinate reaches the offset 8"), "{e}");
//! ```
//!
//! [`composition`]: crate::composition
//! [`complement_to`]: crate::complement_to

use super::coalesce::coalesce;
use super::complement::complement_to_build;
use super::composition::{compose_build, scaled, single_tile_mode};
use crate::error::{attempt, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::CAPACITY;
use crate::layout::BLANK;
use crate::layout::{check_size, concat_pair_build, mode_build, Layout};
use crate::layout::{open_bracket, push_layout, Builder};
use crate::stride::Code;
use crate::tiler::{Tile, Tiler};

/// Which base operation a by-mode traversal applies at the tiles.
#[derive(Clone, Copy)]
pub(crate) enum Apply {
    /// `A ⊘ B`.
    Divide,
    /// `A ⊗ B`.
    Product,
}

/// `A ⊘ B` for a layout `A` and a tiler (see the [module docs](self)): `A ∘ (B, complement(B,
/// shape(coalesce(A))))` for a layout tile, applied by mode for a by-mode tiler (`_` keeps the mode,
/// `n` means `n:1`, modes of `A` beyond the tiler are kept).
///
/// Fails when a composition or complement condition fails or `(B, B*)` is not onto `Z_|A|`
/// (`Divisibility`), or when the tiler has
/// more modes than `A` (`ProfileMismatch`).
///
/// ```
/// use cute::{logical_divide, Layout, Tiler};
/// let a: Layout = "(6,2,2):(2,1,20)".parse().unwrap();
/// let t: Tiler = "8:3".parse().unwrap();
/// assert_eq!(logical_divide(&a, &t).unwrap().to_string(), "((2,2,2),3):((6,1,20),2)");
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1,8:2>".parse().unwrap();
/// assert_eq!(logical_divide(&a, &t).unwrap().to_string(), "((4,2),(8,2)):((20,80),(2,1))");
/// ```
pub const fn logical_divide(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    // Built in the return place (see `coalesce_into`).
    let mut err = Ok(());
    let mut r = Ok(by_mode_build(a, t, Apply::Divide, &mut err));
    if let Err(e) = err {
        r = Err(entry_error(e, Op::LogicalDivide, a, t));
    }
    r
}

/// `zipped_divide(A, T)`: [`logical_divide`] regrouped as `((tiles...), (rests..., extra modes...))`,
/// always of rank 2. Mode 0 is `A ∘ T` (by mode), mode 1 iterates over the tiles.
///
/// Fails as [`logical_divide`] does, and with `OutOfRange` when a `_` of the tiler stands over a mode
/// of `A` that is an integer (there is no tile/rest pair to split), or `ProfileMismatch` when it
/// stands over a mode of rank other than 2.
///
/// ```
/// use cute::{zipped_divide, Layout, Tiler};
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1,8:2>".parse().unwrap();
/// // a 2x2 grid of 4x8 tiles (Figure 12): mode 0 is a tile, mode 1 picks the tile
/// assert_eq!(zipped_divide(&a, &t).unwrap().to_string(), "((4,8),(2,2)):((20,2),(80,1))");
/// ```
pub const fn zipped_divide(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    match zipped(a, t, Apply::Divide) {
        Ok(r) => Ok(r),
        Err(e) => Err(entry_error(e, Op::ZippedDivide, a, t)),
    }
}

/// `tiled_divide(A, T)`: [`zipped_divide`] with its second mode unpacked, `((tiles...), rest...)`.
/// A second mode of rank 1 is kept as it is.
///
/// ```
/// use cute::{tiled_divide, Layout, Tiler};
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1,8:2>".parse().unwrap();
/// assert_eq!(tiled_divide(&a, &t).unwrap().to_string(), "((4,8),2,2):((20,2),80,1)");
/// ```
pub const fn tiled_divide(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    match zipped(a, t, Apply::Divide) {
        Ok(z) => match unpack(&z, false) {
            Ok(r) => Ok(r),
            Err(e) => Err(entry_error(e, Op::TiledDivide, a, t)),
        },
        Err(e) => Err(entry_error(e, Op::TiledDivide, a, t)),
    }
}

/// `flat_divide(A, T)`: [`zipped_divide`] with both modes unpacked, `(tiles..., rest...)`. A mode
/// of rank 1 is kept as it is.
///
/// ```
/// use cute::{flat_divide, Layout, Tiler};
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1,8:2>".parse().unwrap();
/// assert_eq!(flat_divide(&a, &t).unwrap().to_string(), "(4,8,2,2):(20,2,80,1)");
/// ```
pub const fn flat_divide(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    match zipped(a, t, Apply::Divide) {
        Ok(z) => match unpack(&z, true) {
            Ok(r) => Ok(r),
            Err(e) => Err(entry_error(e, Op::FlatDivide, a, t)),
        },
        Err(e) => Err(entry_error(e, Op::FlatDivide, a, t)),
    }
}

/// [`divide_build`]'s fast path for `A` one leaf `s:d` (whose basis code is `code`), given by its
/// parts so that a mode of a layout divided by mode need not be copied out first.
const fn divide_leaf_build(
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
    let rest = complement_to_build(b, &[n], false, err);
    if let Err(e) = *err {
        *err = Err(e.with(
            Operand::Layout(leaf_layout(s, d, code)),
            Operand::Layout(*b),
        ));
        return rest;
    }
    let mut out = concat_pair_build(b, &rest, err);
    if err.is_err() {
        return out;
    }
    if let Some(kind) = onto_gap(&out, s) {
        fail_onto(err, kind, &leaf_layout(s, d, code), b);
        return out;
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
                    *err = Err(e.with(
                        Operand::Layout(leaf_layout(s, d, code)),
                        Operand::Layout(*b),
                    ));
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
/// with its strides multiplied by `d` (see `compose_one_mode_build`), so the concatenation is
/// built in the return place and its strides are scaled there, with the errors of the
/// composition (an overflowing product, in leaf order).
const fn divide_build(a: &Layout, b: &Layout, err: &mut Result<(), Error>) -> Layout {
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
    let rest = if n == size {
        complement_to_build(b, target.shape.split_at(target.tree.len()).0, false, err)
    } else {
        // (a tiler reaching below 0: the cotarget `|A| + below`, see `cover_target`)
        complement_to_build(b, &[n], false, err)
    };
    if let Err(e) = *err {
        *err = Err(e.with(Operand::Layout(*a), Operand::Layout(*b)));
        return rest;
    }
    let bb = concat_pair_build(b, &rest, err);
    if err.is_err() {
        return bb;
    }
    if let Some(kind) = onto_gap(&bb, size) {
        fail_onto(err, kind, a, b);
        return bb;
    }
    let out = compose_build(a, &bb, err);
    if let Err(e) = *err {
        *err = Err(e.with(Operand::Layout(*a), Operand::Layout(*b)));
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
/// `bb` is injective on its modes of nonzero stride (the complement checks `B` and fills only
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
#[inline]
const fn onto_gap(bb: &Layout, n: i64) -> Option<ErrorKind> {
    let len = bb.tree.len();
    // The shift m ≤ 0 (in i128: it may pass i64), only when a stride is negative.
    let mut shift: i128 = 0;
    let mut i = 0;
    while i < len {
        if bb.stride[i] < 0 {
            shift += (bb.shape[i] as i128 - 1) * bb.stride[i] as i128;
        }
        i += 1;
    }
    // The prefix [0, P) that the chain from stride 1 reaches: repeatedly the mode of stride ±P
    // (one at most: two would meet), until the window [−m, −m + n) fits. No sorting and no
    // arrays: a tiler and its complement have a handful of modes, and this runs on every divide.
    // `P` divides the product of the shapes, which fits in an i64.
    let top = n as i128 - shift;
    let mut p: i64 = 1;
    let mut used: u64 = 0;
    'grow: loop {
        if top <= p as i128 {
            return None;
        }
        let mut i = 0;
        while i < len {
            let (si, di) = (bb.shape[i], bb.stride[i]);
            if used & (1 << i) == 0 && si > 1 && (di == p || di == -p) {
                used |= 1 << i;
                p *= si;
                continue 'grow;
            }
            i += 1;
        }
        break;
    }
    if shift == 0 {
        return Some(ErrorKind::NotOnto {
            missing: p,
            size: n,
        });
    }
    walk_gap(bb, n)
}

/// [`onto_gap`] for negative strides and a window past the prefix: the image walked (at most
/// [`ONTO_WALK`] points), the smallest offset of `[0, n)` missed.
#[cold]
#[inline(never)]
const fn walk_gap(bb: &Layout, n: i64) -> Option<ErrorKind> {
    let (len, n128) = (bb.tree.len(), n as i128);
    let mut points: i128 = 1;
    let mut i = 0;
    while i < len {
        if bb.stride[i] != 0 {
            points *= bb.shape[i] as i128;
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
            let (sm, dm) = (bb.shape[m] as i128, bb.stride[m] as i128);
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

/// Applies `f` (divide or product) at the tiles of `t`, by mode: a layout tile applies it to the
/// whole (sub-)layout, `n` applies it with `n:1`, `_` keeps the (sub-)layout, and a by-mode tiler
/// applies tile `k` to mode `k`, keeping the modes of `a` beyond the tiler's rank.
pub(crate) const fn by_mode(a: &Layout, t: &Tiler, f: Apply) -> Result<Layout, Error> {
    let mut err = Ok(());
    let mut r = Ok(by_mode_build(a, t, f, &mut err));
    if let Err(e) = err {
        r = Err(e);
    }
    r
}

/// `f` applied with the single tile `tile` to `a`, or the error in `err`.
const fn tile_build(a: &Layout, tile: &Tile, f: Apply, err: &mut Result<(), Error>) -> Layout {
    let leaf;
    let b = match tile {
        Tile::Whole => return *a,
        Tile::Int(n) => {
            leaf = match Layout::leaf(*n, 1) {
                Ok(l) => l,
                Err(e) => {
                    *err = Err(e);
                    return *a;
                }
            };
            &leaf
        }
        Tile::Layout(l) => l,
    };
    match f {
        Apply::Divide => divide_build(a, b, err),
        Apply::Product => super::product::product_build(a, b, err),
    }
}

/// [`by_mode`], or the error in `err`, written in place: each mode of `a` is taken without a copy
/// into a `Result`, a mode of the tiler that is one tile is applied without building the
/// sub-tiler (a `Tiler` is several KiB), and the results are appended with the checks and errors
/// of building through [`Builder`].
pub(crate) const fn by_mode_build(
    a: &Layout,
    t: &Tiler,
    f: Apply,
    err: &mut Result<(), Error>,
) -> Layout {
    if t.tree.is_leaf() {
        return tile_build(a, &t.tiles[0], f, err);
    }
    let mut out = BLANK;
    let tr = t.rank();
    let ar = a.rank();
    if tr > ar {
        *err = Err(Error::new(
            Op::LogicalDivide,
            ErrorKind::ProfileMismatch {
                what: "the tiler has more modes than the layout",
                left: tr as i64,
                right: ar as i64,
            },
        )
        .with(Operand::Layout(*a), Operand::None));
        return out;
    }
    let (mut n, mut pending, mut depth): (usize, u8, usize) = (0, 0, 0);
    attempt!(
        err,
        out,
        open_bracket(Op::LogicalDivide, &mut pending, &mut depth)
    );
    let mut k = 0;
    while k < ar {
        // A leaf mode divided by a layout tile: the leaf is read in place, not copied out.
        if let (Some(lo), Some(j), Apply::Divide) =
            (single_tile_mode(t, k), a.tree.single_leaf(k), f)
        {
            if let Tile::Layout(b) = &t.tiles[lo] {
                let r = divide_leaf_build(a.shape[j], a.stride[j], a.basis[j], b, err);
                if err.is_err() {
                    return out;
                }
                push_layout!(Op::LogicalDivide, out, err, n, pending, depth, &r);
                k += 1;
                continue;
            }
        }
        let m = mode_build(a, k, err);
        if let Err(e) = *err {
            *err = Err(e.or_with(Operand::Layout(*a), Operand::None));
            return out;
        }
        if k < tr {
            let r = match single_tile_mode(t, k) {
                Some(lo) => tile_build(&m, &t.tiles[lo], f, err),
                None => by_mode_build(&m, &attempt!(err, out, t.mode(k)), f, err),
            };
            if err.is_err() {
                return out;
            }
            push_layout!(Op::LogicalDivide, out, err, n, pending, depth, &r);
        } else {
            push_layout!(Op::LogicalDivide, out, err, n, pending, depth, &m);
        }
        k += 1;
    }
    // The closing bracket (`Builder::close`; never empty, nothing pending: every mode has a leaf).
    out.tree.close[n - 1] += 1;
    out.tree.n = n as u8;
    // The modes' results (a product's grows by its tile's size) multiply.
    check_size!(Op::LogicalDivide, out, err, n);
    out
}

/// `tile_unzip(by_mode(A, T), T)`: the rank-2 zipped form.
pub(crate) const fn zipped(a: &Layout, t: &Tiler, f: Apply) -> Result<Layout, Error> {
    let r = tri!(by_mode(a, t, f));
    let (x, y) = tri!(zip2_by(&r, t));
    Layout::concat(&[x, y])
}

/// CuTe's `zip2_by(L, guide)`: where the guide is a single tile, `L` must have rank 2 and is split
/// into its two modes; where it is a by-mode tiler, the modes are split recursively and gathered
/// into `((firsts...), (seconds..., modes of L beyond the guide...))`.
pub(crate) const fn zip2_by(l: &Layout, g: &Tiler) -> Result<(Layout, Layout), Error> {
    if g.is_single() {
        if l.is_leaf() {
            // CuTe: `get<1>` of an integer, "Index out of range".
            return Err(Error::new(
                Op::LogicalDivide,
                ErrorKind::OutOfRange { index: 1, rank: 1 },
            )
            .with(Operand::Layout(*l), Operand::None));
        }
        if l.rank() != 2 {
            return Err(Error::new(
                Op::LogicalDivide,
                ErrorKind::ProfileMismatch {
                    what: "a mode under a single tile must have rank 2 to be unzipped",
                    left: l.rank() as i64,
                    right: 2,
                },
            )
            .with(Operand::Layout(*l), Operand::None));
        }
        return Ok((tri!(l.mode(0)), tri!(l.mode(1))));
    }
    let gr = g.rank();
    let lr = l.rank();
    if l.is_leaf() || lr < gr {
        return Err(Error::new(
            Op::LogicalDivide,
            ErrorKind::ProfileMismatch {
                what: "the tiler has more modes than the layout it unzips",
                left: gr as i64,
                right: lr as i64,
            },
        )
        .with(Operand::Layout(*l), Operand::None));
    }
    let mut bx = Builder::new();
    let mut by = Builder::new();
    tri!(bx.open(Op::LogicalDivide));
    tri!(by.open(Op::LogicalDivide));
    let mut k = 0;
    while k < lr {
        let m = tri!(l.mode(k));
        if k < gr {
            let (x, y) = tri!(zip2_by(&m, &tri!(g.mode(k))));
            tri!(push_node(&mut bx, &x));
            tri!(push_node(&mut by, &y));
        } else {
            tri!(push_node(&mut by, &m));
        }
        k += 1;
    }
    tri!(bx.close(Op::LogicalDivide));
    tri!(by.close(Op::LogicalDivide));
    Ok((
        tri!(bx.finish_layout(Op::LogicalDivide)),
        tri!(by.finish_layout(Op::LogicalDivide)),
    ))
}

/// CuTe's `result(_, repeat<R1>(_))` (and, with `both`, `result(repeat<R0>(_), repeat<R1>(_))`) on
/// a rank-2 layout: the second (and first) mode is replaced by its top-level modes, unless it has
/// rank 1, which keeps it whole.
pub(crate) const fn unpack(z: &Layout, both: bool) -> Result<Layout, Error> {
    let mut out = Builder::new();
    tri!(out.open(Op::LogicalDivide));
    let mut k = 0;
    while k < 2 {
        let m = tri!(z.mode(k));
        let r = m.rank();
        if (k == 1 || both) && r > 1 {
            let mut j = 0;
            while j < r {
                tri!(push_node(&mut out, &tri!(m.mode(j))));
                j += 1;
            }
        } else {
            tri!(push_node(&mut out, &m));
        }
        k += 1;
    }
    tri!(out.close(Op::LogicalDivide));
    out.finish_layout(Op::LogicalDivide)
}

/// Appends the layout `l` as one node of `b` (for results built through a [`Builder`]).
const fn push_node(b: &mut Builder, l: &Layout) -> Result<(), Error> {
    b.push_layout_node(Op::LogicalDivide, l)
}

/// The error of a public entry point: named after `op`, with the operands of the failing mode if
/// they were recorded, else `A` and the tiler (when it is a single layout or integer).
pub(crate) const fn entry_error(e: Error, op: Op, a: &Layout, t: &Tiler) -> Error {
    let rhs = match t.single() {
        Some(Tile::Layout(l)) => Operand::Layout(l),
        Some(Tile::Int(n)) => Operand::Int(n),
        _ => Operand::None,
    };
    e.retag(op).or_with(Operand::Layout(*a), rhs)
}
