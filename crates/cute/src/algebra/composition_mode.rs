//! Composition of one mode (PyCuTe's `composition[i](A, B)`): `A` with its mode `i` replaced by
//! `A_i ∘ B`, every other mode kept.
//!
//! This is the by-mode composition `A ∘ ⟨_, …, _, B⟩` (with `B` in position `i`) under PyCuTe's
//! convention that the modes of `A` beyond the tiler are **kept** (CuTe C++'s by-mode composition
//! drops them, see [`composition_tiler`](crate::composition_tiler)). The same convention applies
//! inside `B` when `B` is itself a by-mode tiler.
//!
//! | `A` | mode | `B` | result |
//! |---|---|---|---|
//! | `(4,6):(1,4)` | 1 | `3:2` | `(4,3):(1,8)` (PyCuTe docstring) |
//! | `(3,4):(4,1)` | 1 | `2:1` | `(3,2):(4,1)` |
//! | `(8,(6)):(6,(1))` | 0 | `(2,(4)):(4,(1))` | `((2,(4)),(6)):((24,(6)),(1))` |
//! | `((3,2,3),4,2):((2,18,6),36,1)` | 0 | `(3,6):(6,1)` | `((3,(3,2)),4,2):((6,(2,18)),36,1)` |
//! | `8:1` (an integer shape) | 0 | `4:2` | `(4):(2)` (mode 0 of an integer layout is the layout) |
//! | `((3,6),(1)):((6,1),(6))` | 0 | `(3,(2)):(2,(1))` | error: divisibility |
//!
//! ```
//! use cute::{composition_mode, Layout, Tiler};
//! let a: Layout = "(4,6):(1,4)".parse().unwrap();
//! let b: Tiler = "3:2".parse().unwrap();
//! assert_eq!(composition_mode(&a, 1, &b).unwrap().to_string(), "(4,3):(1,8)");
//! ```

use super::composition::composition;
use crate::error::{tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::build::Builder;
use crate::layout::Layout;
use crate::tiler::{int_tile, Tile, Tiler};

/// `composition[mode](A, T)`: `A` with its top-level mode `mode` replaced by `A_mode ∘ T` (see the
/// module docs). `T` may be a layout, an integer `n` (`make_layout(n)`), `_` (the mode is kept) or a by-mode
/// tiler, which keeps the modes of `A_mode` beyond its rank.
///
/// Contract: on success `R_j = A_j` for `j ≠ mode`, `T`'s profile refines `R_mode`'s domain and
/// `R_mode(c) = A_mode(T(c))` for every coordinate `c` of `T`. When `A` has an integer shape, its
/// only mode is `A` itself and the result is the 1-tuple `(A ∘ T)` (as in PyCuTe, which rebuilds
/// the modes into a tuple).
///
/// # Errors
///
/// `OutOfRange` when `mode ≥ rank(A)`; `ProfileMismatch` when a by-mode tiler has more modes
/// than the mode it is applied to; the errors of [`composition`] (divisibility) otherwise. Every
/// error is named `composition_mode` (with the composed mode and tiler as its operands where the
/// inner composition failed).
///
/// ```
/// use cute::{composition_mode, Layout, Tiler};
/// let a: Layout = "(3,4):(4,1)".parse().unwrap();
/// let b: Tiler = "2:1".parse().unwrap();
/// assert_eq!(composition_mode(&a, 1, &b).unwrap().to_string(), "(3,2):(4,1)");
/// assert_eq!(composition_mode(&a, 2, &b).unwrap_err().to_string(), "composition_mode (3,4):(4,1): mode index 2 is out of range for rank 2");
/// ```
pub const fn composition_mode(a: &Layout, mode: usize, t: &Tiler) -> Result<Layout, Error> {
    match compose_mode(a, mode, t) {
        Ok(r) => Ok(r),
        // every error, those of the inner compositions included, names `composition_mode`
        Err(e) => Err(e
            .retag(Op::CompositionMode)
            .or_with(Operand::Layout(*a), Operand::None)),
    }
}

const fn compose_mode(a: &Layout, mode: usize, t: &Tiler) -> Result<Layout, Error> {
    let ar = a.rank();
    if mode >= ar {
        return Err(Error::new(
            Op::CompositionMode,
            ErrorKind::OutOfRange {
                index: mode,
                rank: ar,
            },
        ));
    }
    let r = tri!(compose_keep(&tri!(a.mode(mode)), t));
    // PyCuTe keeps the mode structure: an integer-shape `A` gives the 1-tuple `(A ∘ T)`.
    let out = if a.is_leaf() {
        Layout::concat(&[r])
    } else {
        a.replace(mode, &r)
    };
    match out {
        Ok(l) => Ok(l),
        Err(e) => Err(e.retag(Op::CompositionMode)),
    }
}

/// PyCuTe's `A ∘ T` for a tiler: by mode, the modes of `A` beyond the tiler kept.
const fn compose_keep(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    if let Some(tile) = t.single() {
        return match tile {
            Tile::Whole => Ok(*a),
            Tile::Int(n) => composition(a, &tri!(int_tile(n))),
            Tile::Layout(l) => composition(a, &l),
        };
    }
    let tr = t.rank();
    let ar = a.rank();
    if tr > ar {
        return Err(Error::new(
            Op::CompositionMode,
            ErrorKind::ProfileMismatch {
                what: "the tiler has more modes than the layout",
                left: tr as i64,
                right: ar as i64,
            },
        ));
    }
    let mut out = Builder::new();
    tri!(out.open(Op::CompositionMode));
    let mut k = 0;
    while k < ar {
        let m = tri!(a.mode(k));
        let r = if k < tr {
            tri!(compose_keep(&m, &tri!(t.mode(k))))
        } else {
            m
        };
        tri!(push_layout(&mut out, &r));
        k += 1;
    }
    tri!(out.close(Op::CompositionMode));
    out.finish_layout(Op::CompositionMode)
}

const fn push_layout(out: &mut Builder, l: &Layout) -> Result<(), Error> {
    out.push_layout_node(Op::CompositionMode, l)
}
