//! Composition `R = A ∘ B` (paper: 复合), with every admissibility condition of the paper.
//!
//! `R` is compatible with `B` (`B ⪯ R`) and `R(c) = A(B(c))` for every coordinate `c` of `B`. The
//! algorithm is the paper's: `A` is coalesced (keeping its extended-domain behaviour), each leaf
//! `s:d` of `B` is composed by the base case (8) under the stride-divisibility condition (9) and the
//! shape-divisibility condition (10), with the truncation that resolves "apparent violations", and
//! the results are distributed over `B`'s profile (11) when the distributivity condition (12)
//! holds: no carry between the modes of `A` when the leaves of `B` are added.
//!
//! | `A` | `B` | `A ∘ B` |
//! |---|---|---|
//! | `7:11` | `3:4` | `3:44` |
//! | `7:11` | `(3,5):(6,3)` | `(3,5):(66,33)` |
//! | `(4,6,8,10):(2,3,5,7)` | `6:12` | `(2,3):(9,5)` |
//! | `(4,2,8):(3,12,97)` | `3:3` | `3:9` (apparent violation) |
//! | `(4,6,8):(2,3,5)` | `6:3` | error: stride divisibility (9) |
//! | `(4,6,8):(2,3,5)` | `6:1` | error: shape divisibility (10) |
//! | `(8,8):(8,1)` | `((4,8),2):((16,1),8)` | `((4,8),2):((2,8),1)` |
//! | `(8,16):(20,1)` | `<4:1,8:2>` | `(4,8):(20,2)` |
//!
//! ```
//! use cute::{composition, Layout};
//! let a: Layout = "(4,2,8):(3,12,97)".parse().unwrap();
//! let b: Layout = "3:3".parse().unwrap();
//! assert_eq!(composition(&a, &b).unwrap().to_string(), "3:9");
//!
//! let a: Layout = "(4,6,8):(2,3,5)".parse().unwrap();
//! let b: Layout = "6:3".parse().unwrap();
//! let err = composition(&a, &b).unwrap_err();
//! assert_eq!(err.category(), "Divisibility");
//! assert!(err.to_string().contains("stride 3 and prefix product 4 divide neither way"));
//! ```

use super::coalesce::{coalesce_flat, Flat};
use crate::error::{mul, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::{Builder, IntTuple};
use crate::layout::{compact_col_major, Layout};
use crate::tiler::{Tile, Tiler};

/// `A ∘ B` for layouts (see the module docs).
pub const fn composition(a: &Layout, b: &Layout) -> Result<Layout, Error> {
    match compose(a, b) {
        Ok(r) => Ok(r),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::Layout(*b))),
    }
}

const fn compose(a: &Layout, b: &Layout) -> Result<Layout, Error> {
    let af = coalesce_flat(&Flat::of(a), true);
    let bf = Flat::of(b);
    tri!(check_distributive(&af, &bf));
    let mut out = Builder::new();
    let mut i = 0;
    while i < bf.n {
        let mut k = 0;
        while k < b.tree.open[i] {
            tri!(out.open(Op::Composition));
            k += 1;
        }
        let node = tri!(compose_leaf(&af, bf.s[i], bf.d[i]));
        tri!(push_flat_node(&mut out, &node));
        let mut k = 0;
        while k < b.tree.close[i] {
            tri!(out.close(Op::Composition));
            k += 1;
        }
        i += 1;
    }
    Ok(Layout::from_valid(tri!(out.finish(Op::Composition))))
}

/// Pushes `f` as one node: a leaf for one mode, a parenthesised flat tuple otherwise.
pub(crate) const fn push_flat_node(out: &mut Builder, f: &Flat) -> Result<(), Error> {
    if f.n == 1 {
        return out.push(Op::Composition, f.s[0], f.d[0]);
    }
    tri!(out.open(Op::Composition));
    let mut j = 0;
    while j < f.n {
        tri!(out.push(Op::Composition, f.s[j], f.d[j]));
        j += 1;
    }
    out.close(Op::Composition)
}

/// The base case (8): `A ∘ s:d` for a coalesced, flat `A` whose last mode is unbounded. Returns the
/// result modes in CuTe's printed form (one mode, or several).
pub(crate) const fn compose_leaf(a: &Flat, s: i64, d: i64) -> Result<Flat, Error> {
    let mut out = Flat::EMPTY;
    if d == 0 {
        out.push(s, 0);
        return Ok(out);
    }
    let n = a.n;
    if n <= 1 {
        let da = if n == 1 { a.d[0] } else { 0 };
        out.push(s, tri!(mul(Op::Composition, d, da)));
        return Ok(out);
    }
    if d < 0 && s > 1 {
        return Err(Error::new(
            Op::Composition,
            ErrorKind::Unsupported {
                what: "a negative stride on the right of a composition whose left operand has several modes",
            },
        ));
    }
    let mut rest_shape = s;
    let mut rest_stride = d;
    let mut r = 0;
    while r + 1 < n {
        let cs = a.s[r];
        if rest_shape == 1 {
            // Nothing left to place (a size-1 leaf, or every point placed): only the stride is walked
            // on to the last mode. CuTe C++ and PyCuTe still refuse a stride that passes a mode
            // boundary without dividing it; after a placement the stride is 1 and always passes.
            if rest_stride % cs != 0 && rest_stride > cs {
                return Err(Error::new(
                    Op::Composition,
                    ErrorKind::StrideDivisibility {
                        mode: r + 1,
                        stride: d,
                        prefix: prefix_product(a, r + 1),
                    },
                ));
            }
            rest_stride = ceil_div(rest_stride, cs);
        } else if rest_stride % cs == 0 {
            // The mode is divided out entirely.
            rest_stride /= cs;
        } else if cs % rest_stride == 0 {
            let next_shape = cs / rest_stride;
            let new_shape = if next_shape < rest_shape {
                next_shape
            } else {
                rest_shape
            };
            if rest_shape % new_shape != 0 {
                // ⌈S̄_{r+1}/d⌉ = (s / rest_shape) · next_shape does not divide s.
                return Err(Error::new(
                    Op::Composition,
                    ErrorKind::ShapeDivisibility {
                        mode: r + 1,
                        rest: s,
                        divisor: (s / rest_shape).saturating_mul(next_shape),
                    },
                ));
            }
            out.push(new_shape, tri!(mul(Op::Composition, rest_stride, a.d[r])));
            rest_shape /= new_shape;
            rest_stride = 1;
        } else if rest_stride < cs && (rest_shape - 1) as i128 * (rest_stride as i128) < cs as i128
        {
            // Truncation: every remaining point lies inside this mode, the later modes do not
            // contribute, and the divisibility condition does not apply to them.
            out.push(rest_shape, tri!(mul(Op::Composition, rest_stride, a.d[r])));
            rest_shape = 1;
            rest_stride = 1;
        } else {
            return Err(Error::new(
                Op::Composition,
                ErrorKind::StrideDivisibility {
                    mode: r + 1,
                    stride: d,
                    prefix: prefix_product(a, r + 1),
                },
            ));
        }
        r += 1;
    }
    let last = tri!(mul(Op::Composition, rest_stride, a.d[n - 1]));
    if out.n == 0 || rest_shape != 1 {
        out.push(rest_shape, last);
    }
    Ok(out)
}

/// `(a + b - 1) / b` (`⌈a / b⌉` for `a ≥ 0`, `b ≥ 1`), computed in `i128` so that it cannot
/// overflow; the quotient fits in `i64`.
const fn ceil_div(a: i64, b: i64) -> i64 {
    ((a as i128 + b as i128 - 1) / b as i128) as i64
}

/// `S̄_k`, the product of the first `k` mode shapes of `a` (saturating; only used in messages and
/// comparisons against values that fit).
const fn prefix_product(a: &Flat, k: usize) -> i64 {
    let mut p: i64 = 1;
    let mut i = 0;
    while i < k {
        p = p.saturating_mul(a.s[i]);
        i += 1;
    }
    p
}

/// The distributivity condition (12): adding the values of the leaves of `B` must not carry across a
/// mode boundary of `A` (the boundaries are the prefix products `S̄_r`, `r ≥ 1`, of the coalesced
/// `A`). For each boundary `P`, the largest residues `max_c (c·d_i mod P)` of the leaves must sum to
/// less than `P`.
const fn check_distributive(a: &Flat, b: &Flat) -> Result<(), Error> {
    // Count the leaves of B that move at all.
    let mut moving = 0;
    let mut i = 0;
    while i < b.n {
        if b.s[i] > 1 && b.d[i] != 0 {
            moving += 1;
        }
        i += 1;
    }
    if moving < 2 || a.n < 2 {
        return Ok(());
    }
    let mut p: i64 = 1;
    let mut r = 0;
    while r + 1 < a.n {
        p = match p.checked_mul(a.s[r]) {
            Some(x) => x,
            None => return Ok(()), // boundaries beyond i64 are never reached
        };
        let mut sum: i64 = 0;
        let mut i = 0;
        while i < b.n {
            let (s, d) = (b.s[i], b.d[i]);
            if s > 1 && d != 0 {
                let m = max_residue(s, d, p);
                sum = match sum.checked_add(m) {
                    Some(x) => x,
                    None => i64::MAX,
                };
            }
            i += 1;
        }
        if sum >= p {
            return Err(Error::new(
                Op::Composition,
                ErrorKind::Distributivity {
                    mode: r + 1,
                    boundary: p,
                },
            ));
        }
        r += 1;
    }
    Ok(())
}

/// `max over 0 ≤ c < s of (c·d mod p)` for `d > 0` (an upper bound when `d` and `p` are not in a
/// divisibility relation and the progression wraps, which admissible leaves never do).
const fn max_residue(s: i64, d: i64, p: i64) -> i64 {
    let d = d.unsigned_abs() as i64;
    if d % p == 0 {
        return 0;
    }
    match (s - 1).checked_mul(d) {
        Some(m) if m < p => m,
        _ => p - gcd(d, p),
    }
}

pub(crate) const fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    if a < 0 {
        -a
    } else {
        a
    }
}

/// `A ∘ T` for a tiler: a layout tile composes as a layout; a by-mode tiler composes mode `k` of `A`
/// with tile `k` (`_` keeps the mode, an integer `n` means `n:1`, a nested tiler recurses), and the
/// modes of `A` beyond the tiler's rank are dropped.
pub const fn composition_tiler(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    match compose_tiler(a, t) {
        Ok(r) => Ok(r),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::None)),
    }
}

const fn compose_tiler(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    if let Some(tile) = t.single() {
        return match tile {
            Tile::Whole => Ok(*a),
            Tile::Int(n) => composition(a, &tri!(Layout::leaf(n, 1))),
            Tile::Layout(l) => composition(a, &l),
        };
    }
    let tr = t.rank();
    let ar = a.rank();
    if tr > ar {
        return Err(Error::new(
            Op::Composition,
            ErrorKind::ProfileMismatch {
                what: "the tiler has more modes than the layout",
                left: tr as i64,
                right: ar as i64,
            },
        ));
    }
    let mut out = Builder::new();
    tri!(out.open(Op::Composition));
    let mut k = 0;
    while k < tr {
        let r = tri!(composition_tiler(&tri!(a.mode(k)), &tri!(t.mode(k))));
        tri!(out.push_node(
            Op::Composition,
            &r.tree,
            &r.shape,
            &r.stride,
            0,
            r.tree.len(),
            (0, 0)
        ));
        k += 1;
    }
    tri!(out.close(Op::Composition));
    Ok(Layout::from_valid(tri!(out.finish(Op::Composition))))
}

/// `A.with_shape(S) = A ∘ make_layout(S)`: `A` reshaped to the (compatible-size) shape `S`.
pub const fn with_shape(a: &Layout, shape: &IntTuple) -> Result<Layout, Error> {
    let b = match compact_col_major(shape) {
        Ok(b) => b,
        Err(e) => {
            return Err(e
                .retag(Op::WithShape)
                .or_with(Operand::Layout(*a), Operand::Tuple(*shape)))
        }
    };
    match compose(a, &b) {
        Ok(r) => Ok(r),
        Err(e) => Err(e
            .retag(Op::WithShape)
            .or_with(Operand::Layout(*a), Operand::Tuple(*shape))),
    }
}
