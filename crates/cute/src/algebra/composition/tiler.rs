//! Composition with a tiler (`A ∘ ⟨B_0, B_1, …⟩`, mode by mode) and `with_shape`.

use super::{compose, compose_build};
use crate::error::{attempt, Error, ErrorKind, Op, Operand};
use crate::int_tuple::build::open_bracket;
use crate::int_tuple::IntTuple;
use crate::layout::push_layout;
use crate::layout::BLANK;
use crate::layout::{check_size, compact_col_major, mode_of_leaves, Layout};
use crate::tiler::{int_tile, mode_of_tiles, Tile, Tiler};

/// `A ∘ T` for a tiler: a layout tile composes as a layout; a by-mode tiler composes mode `k` of `A`
/// with tile `k` (`_` keeps the mode, an integer `n` means `make_layout(n)`, a nested tiler recurses), and the
/// modes of `A` beyond the tiler's rank are dropped.
///
/// ```
/// use cute::{composition_tiler, Layout, Tiler};
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1,8:2>".parse().unwrap();
/// assert_eq!(composition_tiler(&a, &t).unwrap().to_string(), "(4,8):(20,2)");
/// let t: Tiler = "<4,8>".parse().unwrap();
/// assert_eq!(composition_tiler(&a, &t).unwrap().to_string(), "(4,8):(20,1)");
/// ```
///
/// A `const fn`, so it takes a `&Tiler` (pass a layout as `&Tiler::layout(b)`); the method
/// [`Layout::compose`] takes a `Layout`, a `&Layout`, a `Tiler` or a `&Tiler`. For two layouts,
/// [`composition`](super::composition).
///
/// # Errors
///
/// As [`composition`](super::composition) for each tile, and `ProfileMismatch` when the tiler has more modes than `A`.
pub const fn composition_tiler(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    // Built in the return place, as in `composition`.
    let mut err = Ok(());
    let mut r = Ok(compose_tiler_build(a, t, &mut err));
    if let Err(e) = err {
        r = Err(e.or_with(Operand::Layout(*a), Operand::None));
    }
    r
}

/// `A ∘ T` for a single tile `T`, or the error (with the operands `composition` records) in `err`:
/// `_` keeps `A`, an integer `n` is `make_layout(n)`.
const fn compose_tile_build(a: &Layout, tile: &Tile, err: &mut Result<(), Error>) -> Layout {
    match tile {
        Tile::Whole => *a,
        Tile::Int(n) => {
            let leaf = match int_tile(*n) {
                Ok(l) => l,
                Err(e) => {
                    *err = Err(e);
                    return *a;
                }
            };
            let out = compose_build(a, &leaf, err);
            if let Err(e) = *err {
                *err = Err(e.or_with(Operand::Layout(*a), Operand::Layout(leaf)));
            }
            out
        }
        Tile::Layout(l) => {
            let out = compose_build(a, l, err);
            if let Err(e) = *err {
                *err = Err(e.or_with(Operand::Layout(*a), Operand::Layout(*l)));
            }
            out
        }
    }
}

/// `A ∘ T` for a tiler, or the error in `err` (operands of the mode that failed attached, and its
/// [path](Error::mode_path)). The
/// result (the concatenation of the modes' results) is written only through the fields of `out`,
/// as in [`compose_build`]; each mode of `A` is taken without a copy, and a single tile is used
/// without building the sub-tiler.
const fn compose_tiler_build(a: &Layout, t: &Tiler, err: &mut Result<(), Error>) -> Layout {
    if t.tree.is_leaf() {
        return compose_tile_build(a, &t.tiles[0], err);
    }
    let mut out = BLANK;
    let tr = t.rank();
    let ar = a.rank();
    if tr > ar {
        *err = Err(Error::new(
            Op::Composition,
            ErrorKind::ProfileMismatch {
                what: "the tiler has more modes than the layout",
                left: tr as i64,
                right: ar as i64,
            },
        ));
        return out;
    }
    let mut n: usize = 0; // leaves written
    let mut pending: u8 = 0; // brackets opened before the next leaf
    let mut depth: usize = 0;
    attempt!(
        err,
        out,
        open_bracket(Op::Composition, &mut pending, &mut depth)
    );
    // (the leaves of mode `k` of `a`, `[lo_a, hi_a)`, and the tiles of mode `k` of `t`,
    // `[lo_t, hi_t)`, found walking the modes in order)
    let (mut lo_a, mut lo_t) = (0, 0);
    let mut k = 0;
    while k < tr {
        let (hi_a, hi_t) = (a.tree.mode_end(lo_a), t.tree.mode_end(lo_t));
        let ak = mode_of_leaves(a, lo_a, hi_a);
        let tile = if t.tree.is_leaf_mode(lo_t, hi_t) {
            Some(lo_t)
        } else {
            None
        };
        match tile {
            // `composition_tiler(A_k, T_k)` for a single tile, without building the tiler `T_k`.
            Some(lo) => {
                if let Tile::Whole = t.tiles[lo] {
                    push_layout!(Op::Composition, out, err, n, pending, depth, &ak);
                } else {
                    let r = compose_tile_build(&ak, &t.tiles[lo], err);
                    if let Err(e) = *err {
                        *err = Err(e.or_with(Operand::Layout(ak), Operand::None).in_mode(k));
                        return out;
                    }
                    push_layout!(Op::Composition, out, err, n, pending, depth, &r);
                }
            }
            None => {
                let tk = mode_of_tiles(t, lo_t, hi_t);
                let r = match composition_tiler(&ak, &tk) {
                    Ok(r) => r,
                    Err(e) => {
                        *err = Err(e.in_mode(k));
                        return out;
                    }
                };
                push_layout!(Op::Composition, out, err, n, pending, depth, &r);
            }
        }
        (lo_a, lo_t) = (hi_a, hi_t);
        k += 1;
    }
    // The closing bracket of the concatenation (never empty: every mode has a leaf).
    out.tree.close[n - 1] += 1;
    depth -= 1;
    if depth != 0 || pending != 0 {
        *err = Err(Error::new(
            Op::Composition,
            ErrorKind::Unsupported {
                what: "empty or unbalanced tuples",
            },
        ));
        return out;
    }
    out.tree.n = n as u8;
    // Each mode's result has its tile's size, and tiles reach past their mode of `A` (its last
    // mode is unbounded): the sizes multiply, and their product must fit.
    check_size!(Op::Composition, out, err, n);
    out
}

/// `A.with_shape(S) = A ∘ make_layout(S)`: `A` reshaped to the (compatible-size) shape `S`.
///
/// ```
/// use cute::{with_shape, Layout};
/// let a: Layout = "32:1".parse().unwrap();
/// assert_eq!(with_shape(&a, &"(4,8)".parse().unwrap()).unwrap().to_string(), "(4,8):(1,4)");
/// let a: Layout = "(4,8):(8,1)".parse().unwrap();
/// let r = with_shape(&a, &"(8,4)".parse().unwrap()).unwrap();
/// assert_eq!(r.to_string(), "((4,2),4):((8,1),2)");
/// ```
///
/// # Errors
///
/// `InvalidShape` for an entry of `S` below 1, `Overflow` when its size does not fit in `i64`, and
/// every error of [`composition`](super::composition) of `A` with the compact column-major layout of `S` (a shape whose
/// modes do not divide those of `A` fails the shape-divisibility condition (10)).
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
