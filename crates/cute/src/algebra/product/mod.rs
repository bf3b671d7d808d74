//! Logical product (paper: 逻辑乘积 “logical product”) and its variants: `zipped_product`,
//! `tiled_product`, `flat_product`, the rank-sensitive `blocked_product` and `raked_product`, and
//! `tile_to_shape`.
//!
//! `A ⊗ B = (A, A* ∘ B)` with `A* = complement(A, size(A)·cosize(B))`: the rank-2 layout whose first
//! mode is the tile `A` and whose second mode places one translated copy of `A` at every element of
//! `B` ("replace every element of `B` by a unique translate of `A`"). The complement is composed
//! through its extended domain, so every condition of [`composition`] and [`complement_to`] applies
//! and the product is refused when they fail.
//!
//! A by-mode [`Tiler`] multiplies mode `k` of `A` by tile `k` (`_` keeps the mode, `n` is `make_layout(n)`,
//! nested tilers recurse); the modes of `A` beyond the tiler are kept. `zipped_product`,
//! `tiled_product` and `flat_product` regroup that result exactly as the divides do (see
//! [`divide`](super::divide)).
//!
//! `blocked_product(A, B)` and `raked_product(A, B)` pad both layouts with `1:0` modes to the larger
//! rank `R`, take the layout product `(A, A* ∘ B)` and zip its two modes: mode `k` of the result is
//! `(A_k, (A*∘B)_k)` (blocked: each tile stays contiguous) or `((A*∘B)_k, A_k)` (raked: the tiles
//! are interleaved). When `R = 1` and `A` is an integer layout the zip is the 1-tuple of the pair.
//! `tile_to_shape(A, S)` repeats `A` (padded to the rank of `S`) in column-major order until the
//! mode sizes of `S` are reached: `blocked_product(A, compact_col_major(S / A))`.
//!
//! | operation | result |
//! |---|---|
//! | `logical_product((3,4):(4,1), (2,5):(1,2))` | `((3,4),(2,5)):((4,1),(12,24))` (S-LP-2) |
//! | `logical_product((4,8):(20,2), (3,2):(2,1))` | `((4,8),(3,2)):((20,2),(80,1))` (S-LP-4) |
//! | `blocked_product((3,4):(4,1), (2,5):(1,2))` | `((3,2),(4,5)):((4,12),(1,24))` (S-LP-5, Figure 10) |
//! | `raked_product((3,4):(4,1), (2,5):(1,2))` | `((2,3),(5,4)):((12,4),(24,1))` (S-LP-6, Figure 11) |
//! | `tiled_product((2,3):(3,1), (2,4):(4,1))` | `((2,3),2,4):((3,1),24,6)` |
//! | `tile_to_shape((2,4):(4,1), (4,8))` | `((2,2),(4,2)):((4,8),(1,16))` |
//! | `logical_product((2,2):(3,2), 3:1)` | `((2,2),3):((3,2),6)` (strides that interleave: `A* = 1:6`) |
//! | `logical_product((4,8):(1,5), 2:1)` | `((4,8),2):((1,5),40)` (Table 7: `A* = 1:40`) |
//! | `logical_product(4:2, 3:1)` | error: `A* = complement(4:2) = (2,1):(1,8)` cannot be composed with `3:1` |
//!
//! ```
//! use cute::{blocked_product, logical_product, raked_product, Layout, Tiler};
//! let a: Layout = "(3,4):(4,1)".parse().unwrap();
//! let b: Layout = "(2,5):(1,2)".parse().unwrap();
//! assert_eq!(
//!     logical_product(&a, &Tiler::layout(b)).unwrap().to_string(),
//!     "((3,4),(2,5)):((4,1),(12,24))"
//! );
//! assert_eq!(blocked_product(&a, &b).unwrap().to_string(), "((3,2),(4,5)):((4,12),(1,24))");
//! assert_eq!(raked_product(&a, &b).unwrap().to_string(), "((2,3),(5,4)):((12,4),(24,1))");
//! ```
//!
//! [`composition`]: crate::composition
//! [`complement_to`]: crate::complement_to

pub(crate) mod tile;

use super::apply_tiler::{apply_tiler_build, entry_error, zipped_entry, Apply};
use crate::error::{attempt, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::build::open_bracket;
use crate::int_tuple::{IntTuple, Tree, CAPACITY};
use crate::layout::push_layout;
use crate::layout::BLANK;
use crate::layout::{check_size, compact_col_major, Layout};
use crate::tiler::Tiler;
use tile::grid_build;

/// `A ⊗ B` for a layout `A` and a tiler (see the [module docs](self)): `(A, complement(A,
/// size(A)·cosize(B)) ∘ B)` for a layout tile, applied by mode for a by-mode tiler (`_` keeps the
/// mode, `n` means `make_layout(n)`, modes of `A` beyond the tiler are kept).
///
/// A `const fn`, so it takes a `&Tiler` (a layout `b` as `&Tiler::layout(b)`); the method
/// [`Layout::logical_product`] takes a `Layout`, a `&Layout`, a `Tiler` or a `&Tiler`.
///
/// ```
/// use cute::{logical_product, Layout, Tiler};
/// let a: Layout = "(2,2):(3,2)".parse().unwrap(); // image {0,3,2,5}: injective, not a chain
/// let b: Layout = "3:1".parse().unwrap();
/// assert_eq!(logical_product(&a, &Tiler::layout(b)).unwrap().to_string(), "((2,2),3):((3,2),6)");
/// ```
///
/// For coordinate strides (`A` with codomain `Z^S`) the second mode is PyCuTe's
/// `complement(A) ∘ B`, the paper's complement without a cotarget (it extends along the last axis
/// of the codomain): `(2,2):(1@0,1@1) ⊗ 3:1 = ((2,2),3):((1@0,1@1),2@1)`. Binary strides have no
/// ordered complement and are refused.
///
/// # Errors
///
/// Fails when the composition is inadmissible (`Divisibility`), when `A` without its stride-0 modes
/// is not injective (`NotInjective`, naming two indices that meet), or when the tiler has more
/// modes than `A` (`ProfileMismatch`). Any order and sign of the strides of `A` is accepted (see
/// [`complement`](crate::complement)).
pub const fn logical_product(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    // Built in the return place (see `coalesce_into`).
    let mut err = Ok(());
    let mut r = Ok(apply_tiler_build(a, t, Apply::Product, &mut err));
    if let Err(e) = err {
        r = Err(entry_error(e, Op::LogicalProduct, a, t));
    }
    r
}

/// `zipped_product(A, T)`: [`logical_product`] regrouped as `((tiles...), (products..., extra
/// modes...))`, of rank 2. A `_` of the tiler over an integer mode of `A` is refused (`OutOfRange`).
///
/// A `const fn`, so it takes a `&Tiler` (a layout `b` as `&Tiler::layout(b)`); the method
/// [`Layout::zipped_product`] takes a `Layout`, a `&Layout`, a `Tiler` or a `&Tiler`.
///
/// ```
/// use cute::{zipped_product, Layout, Tiler};
/// let a: Layout = "(4,8):(20,2)".parse().unwrap();
/// let t = Tiler::layout("(3,2):(2,1)".parse().unwrap());
/// assert_eq!(zipped_product(&a, &t).unwrap().to_string(), "((4,8),(3,2)):((20,2),(80,1))");
/// ```
///
/// # Errors
///
/// As [`logical_product`], and `OutOfRange` when a `_` of the tiler stands over an integer mode of
/// `A`.
pub const fn zipped_product(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    zipped_entry(a, t, Apply::Product, None, Op::ZippedProduct)
}

/// `tiled_product(A, T)`: [`zipped_product`] with its second mode unpacked (kept whole when it has
/// rank 1).
///
/// A `const fn`, so it takes a `&Tiler` (a layout `b` as `&Tiler::layout(b)`); the method
/// [`Layout::tiled_product`] takes a `Layout`, a `&Layout`, a `Tiler` or a `&Tiler`.
///
/// ```
/// use cute::{tiled_product, Layout, Tiler};
/// let a: Layout = "(4,8):(20,2)".parse().unwrap();
/// let t = Tiler::layout("(3,2):(2,1)".parse().unwrap());
/// assert_eq!(tiled_product(&a, &t).unwrap().to_string(), "((4,8),3,2):((20,2),80,1)");
/// ```
///
/// # Errors
///
/// As [`zipped_product`].
pub const fn tiled_product(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    zipped_entry(a, t, Apply::Product, Some(false), Op::TiledProduct)
}

/// `flat_product(A, T)`: [`zipped_product`] with both modes unpacked (a mode of rank 1 is kept
/// whole).
///
/// A `const fn`, so it takes a `&Tiler` (a layout `b` as `&Tiler::layout(b)`); the method
/// [`Layout::flat_product`] takes a `Layout`, a `&Layout`, a `Tiler` or a `&Tiler`.
///
/// ```
/// use cute::{flat_product, Layout, Tiler};
/// let a: Layout = "(4,8):(20,2)".parse().unwrap();
/// let t = Tiler::layout("(3,2):(2,1)".parse().unwrap());
/// assert_eq!(flat_product(&a, &t).unwrap().to_string(), "(4,8,3,2):(20,2,80,1)");
/// ```
///
/// # Errors
///
/// As [`zipped_product`].
pub const fn flat_product(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    zipped_entry(a, t, Apply::Product, Some(true), Op::FlatProduct)
}

/// `blocked_product(A, B)`: `A` and `B` padded with `1:0` modes to the larger rank, then the modes
/// of `(A, A* ∘ B)` zipped as `((A_0, (A*∘B)_0), (A_1, (A*∘B)_1), ...)`. The result has the larger
/// rank; each block is a contiguous translate of `A`.
///
/// ```
/// use cute::{blocked_product, Layout};
/// let a: Layout = "(3,4):(4,1)".parse().unwrap();
/// let b: Layout = "(2,5):(1,2)".parse().unwrap();
/// assert_eq!(blocked_product(&a, &b).unwrap().to_string(), "((3,2),(4,5)):((4,12),(1,24))");
/// let e = blocked_product(&"(4):(1)".parse().unwrap(), &"2:1".parse().unwrap()).unwrap_err();
/// assert_eq!(e.to_string(), "blocked_product (4):(1), 2:1: the tile and the grid of the product cannot be zipped: a tuple against an integer layout (depths) (1 vs 0)");
/// ```
///
/// # Errors
///
/// Fails as [`logical_product`] does, and with `ProfileMismatch` when the two zipped modes do not
/// have the same rank (CuTe's "Mismatched Ranks", e.g. `A = (4):(1)`, `B = 2:1`).
pub const fn blocked_product(a: &Layout, b: &Layout) -> Result<Layout, Error> {
    // Built in the return place (see `coalesce_into`).
    let mut err = Ok(());
    let mut r = Ok(rank_product_build(a, b, false, &mut err));
    if let Err(e) = err {
        r = Err(e
            .retag(Op::BlockedProduct)
            .with(Operand::Layout(*a), Operand::Layout(*b)));
    }
    r
}

/// `raked_product(A, B)`: as [`blocked_product`], but zipped the other way round,
/// `(((A*∘B)_0, A_0), ((A*∘B)_1, A_1), ...)`, so that the copies of `A` are interleaved.
///
/// ```
/// use cute::{raked_product, Layout};
/// let a: Layout = "(3,4):(4,1)".parse().unwrap();
/// let b: Layout = "(2,5):(1,2)".parse().unwrap();
/// assert_eq!(raked_product(&a, &b).unwrap().to_string(), "((2,3),(5,4)):((12,4),(24,1))");
/// ```
///
/// # Errors
///
/// As [`blocked_product`].
pub const fn raked_product(a: &Layout, b: &Layout) -> Result<Layout, Error> {
    let mut err = Ok(());
    let mut r = Ok(rank_product_build(a, b, true, &mut err));
    if let Err(e) = err {
        r = Err(e
            .retag(Op::RakedProduct)
            .with(Operand::Layout(*a), Operand::Layout(*b)));
    }
    r
}

/// `tile_to_shape(A, S)`: repeats `A` in column-major tile order until it has the mode sizes of
/// `S`: with `A` padded to `R = rank(S)` modes, `blocked_product(A, compact_col_major(P))` where
/// `P_k = size(S_k) / size(A_k)`.
///
/// ```
/// use cute::{tile_to_shape, Layout};
/// let a: Layout = "(2,2):(1,2)".parse().unwrap();
/// let r = tile_to_shape(&a, &"(4,6)".parse().unwrap()).unwrap();
/// assert_eq!(r.to_string(), "((2,2),(2,3)):((1,4),(2,8))");
/// let e = tile_to_shape(&a, &"(3,6)".parse().unwrap()).unwrap_err();
/// assert_eq!(e.to_string(), "tile_to_shape (2,2):(1,2), (3,6): the block's mode size does not divide the target shape's at mode 0: 2 does not divide 3");
/// // a target entry that is not positive is named as written
/// let e = tile_to_shape(&a, &"(-4,4)".parse().unwrap()).unwrap_err();
/// assert_eq!(e.to_string(), "tile_to_shape (2,2):(1,2), (-4,4): shape entries must be positive integers, found -4");
/// ```
///
/// # Errors
///
/// Fails with `InvalidShape` when an entry of `S` is not positive, `ProfileMismatch` when
/// `rank(A) > rank(S)` and with `Divisibility` when a mode size of `A` does not divide the
/// corresponding mode size of `S`.
pub const fn tile_to_shape(a: &Layout, shape: &IntTuple) -> Result<Layout, Error> {
    match tile_to_shape_impl(a, shape) {
        Ok(r) => Ok(r),
        Err(e) => Err(e
            .retag(Op::TileToShape)
            .with(Operand::Layout(*a), Operand::Tuple(*shape))),
    }
}

/// `A` and `B` padded to the larger rank, their grid, then the zip (raked: grid first), or the error
/// (without operands) in `err`. A layout already of that rank is used as it is, not copied.
const fn rank_product_build(
    a: &Layout,
    b: &Layout,
    raked: bool,
    err: &mut Result<(), Error>,
) -> Layout {
    let (ra, rb) = (a.rank(), b.rank());
    let r = if ra > rb { ra } else { rb };
    let (padded_a, padded_b);
    let pa = if ra < r {
        padded_a = match a.pad_to_rank(r) {
            Ok(l) => l,
            Err(e) => {
                *err = Err(e);
                return BLANK;
            }
        };
        &padded_a
    } else {
        a
    };
    let pb = if rb < r {
        padded_b = match b.pad_to_rank(r) {
            Ok(l) => l,
            Err(e) => {
                *err = Err(e);
                return BLANK;
            }
        };
        &padded_b
    } else {
        b
    };
    let g = grid_build(pa, pb, err);
    if err.is_err() {
        return g;
    }
    if raked {
        zip_build(&g, pa, err)
    } else {
        zip_build(pa, &g, err)
    }
}

/// [`rank_product_build`] as a `Result`.
const fn rank_product(a: &Layout, b: &Layout, raked: bool) -> Result<Layout, Error> {
    let mut err = Ok(());
    let mut r = Ok(rank_product_build(a, b, raked, &mut err));
    if let Err(e) = err {
        r = Err(e);
    }
    r
}

/// CuTe's `zip(L0, L1)` of two layouts, `((L0_0, L1_0), (L0_1, L1_1), ...)` for equal ranks and the
/// 1-tuple `((L0, L1))` when `L0` is an integer layout, or the error in `err`. The modes are
/// appended straight from the operands with the checks and errors of building through
/// [`Builder`](crate::int_tuple::build::Builder) (written only through the fields of `out`).
const fn zip_build(l0: &Layout, l1: &Layout, err: &mut Result<(), Error>) -> Layout {
    let mut out = BLANK;
    if l0.is_leaf() {
        let pair = attempt!(err, out, Layout::concat(&[*l0, *l1]));
        return attempt!(err, out, Layout::concat(&[pair]));
    }
    let r = l0.rank();
    if l1.is_leaf() {
        *err = Err(Error::new(
            Op::BlockedProduct,
            ErrorKind::ProfileMismatch {
                what: "the tile and the grid of the product cannot be zipped: a tuple against an \
                       integer layout (depths)",
                left: l0.depth() as i64,
                right: 0,
            },
        ));
        return out;
    }
    if l1.rank() != r {
        *err = Err(Error::new(
            Op::BlockedProduct,
            ErrorKind::ProfileMismatch {
                what: "the tile and the grid of the product have mismatched ranks",
                left: r as i64,
                right: l1.rank() as i64,
            },
        ));
        return out;
    }
    let op = Op::BlockedProduct;
    let (mut n, mut pending, mut depth): (usize, u8, usize) = (0, 0, 0);
    attempt!(err, out, open_bracket(op, &mut pending, &mut depth));
    // (the modes of both, walked side by side: `lo0`, `lo1` start mode `k`)
    let (mut lo0, mut lo1) = (0, 0);
    let mut k = 0;
    while k < r {
        let (hi0, hi1) = (l0.tree.mode_end(lo0), l1.tree.mode_end(lo1));
        attempt!(err, out, open_bracket(op, &mut pending, &mut depth));
        push_layout!(op, out, err, n, pending, depth, l0, mode lo0..hi0);
        push_layout!(op, out, err, n, pending, depth, l1, mode lo1..hi1);
        // The closing bracket (`Builder::close`; never empty, nothing pending).
        out.tree.close[n - 1] += 1;
        depth -= 1;
        (lo0, lo1) = (hi0, hi1);
        k += 1;
    }
    out.tree.close[n - 1] += 1;
    out.tree.n = n as u8;
    // `|l0|·|l1|` (the tile and its grid)
    check_size!(op, out, err, n);
    out
}

const fn tile_to_shape_impl(a: &Layout, shape: &IntTuple) -> Result<Layout, Error> {
    // the target's own entries first, so that a bad one is named as written (not as the quotient
    // of its mode by the block's)
    let mut j = 0;
    while j < shape.leaf_count() {
        let value = shape.leaf(j);
        if value < 1 {
            return Err(Error::new(
                Op::TileToShape,
                ErrorKind::InvalidShape { value },
            ));
        }
        j += 1;
    }
    let r = shape.rank();
    if a.rank() > r {
        return Err(Error::new(
            Op::TileToShape,
            ErrorKind::ProfileMismatch {
                what: "the layout has more modes than the target shape",
                left: a.rank() as i64,
                right: r as i64,
            },
        ));
    }
    let pa = tri!(a.pad_to_rank(r));
    // product_each of both (always a tuple, as in CuTe), then the quotient mode by mode.
    let mut q = [0i64; CAPACITY];
    let mut k = 0;
    while k < r {
        let target = tri!(tri!(shape.get(k)).size());
        let block = tri!(pa.mode(k)).size();
        if target % block != 0 {
            return Err(Error::new(
                Op::TileToShape,
                ErrorKind::Divisibility {
                    mode: k,
                    value: target,
                    divisor: block,
                    what: "the block's mode size does not divide the target shape's",
                },
            ));
        }
        q[k] = target / block;
        k += 1;
    }
    let grid_shape = IntTuple::from_parts(Tree::flat(r, true), q);
    let order = tri!(compact_col_major(&grid_shape));
    rank_product(&pa, &order, false)
}
