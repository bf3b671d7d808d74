//! Applying a tiler (the divides' and the products' by-mode driver): it applies `A ⊘ B`
//! ([`divide::tile`](super::divide::tile)) or `A ⊗ B` ([`product::tile`](super::product::tile)) at
//! the tiles of a tiler, mode by mode, and regroups the result (`zipped`, `unpack`) for the
//! `zipped_`, `tiled_` and `flat_` forms.

use super::divide::tile::{divide_build, divide_leaf_build};
use super::product::tile::product_build;
use crate::error::{attempt, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::build::{open_bracket, Builder};
use crate::layout::push_layout;
use crate::layout::BLANK;
use crate::layout::{check_size, mode_of_leaves, Layout};
use crate::tiler::{int_tile, mode_of_tiles, Tile, Tiler};

/// Which base operation a by-mode traversal applies at the tiles.
#[derive(Clone, Copy)]
pub(crate) enum Apply {
    /// `A ⊘ B`.
    Divide,
    /// `A ⊗ B`.
    Product,
}

/// Applies `f` (divide or product) at the tiles of `t`, by mode: a layout tile applies it to the
/// whole (sub-)layout, `n` applies it with `make_layout(n)`, `_` keeps the (sub-)layout, and a by-mode tiler
/// applies tile `k` to mode `k`, keeping the modes of `a` beyond the tiler's rank.
pub(crate) const fn apply_tiler(a: &Layout, t: &Tiler, f: Apply) -> Result<Layout, Error> {
    let mut err = Ok(());
    let mut r = Ok(apply_tiler_build(a, t, f, &mut err));
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
            leaf = match int_tile(*n) {
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
        Apply::Product => product_build(a, b, err),
    }
}

/// [`apply_tiler`], or the error in `err`, written in place: each mode of `a` is taken without a copy
/// into a `Result`, a mode of the tiler that is one tile is applied without building the
/// sub-tiler (a `Tiler` is several KiB), and the results are appended with the checks and errors
/// of building through [`Builder`].
pub(crate) const fn apply_tiler_build(
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
    // the leaves of mode `k` of `a`, `[lo_a, hi_a)`, and the tiles of mode `k` of `t`,
    // `[lo_t, hi_t)`, found walking the modes in order
    let (mut lo_a, mut lo_t) = (0, 0);
    let mut k = 0;
    while k < ar {
        let hi_a = a.tree.mode_end(lo_a);
        let hi_t = if k < tr { t.tree.mode_end(lo_t) } else { lo_t };
        let tile = if k < tr && t.tree.is_leaf_mode(lo_t, hi_t) {
            Some(lo_t)
        } else {
            None
        };
        // A leaf mode divided by a layout tile: the leaf is read in place, not copied out.
        if let (Some(lo), true, Apply::Divide) = (tile, a.tree.is_leaf_mode(lo_a, hi_a), f) {
            if let Tile::Layout(b) = &t.tiles[lo] {
                let r = divide_leaf_build(a.shape[lo_a], a.stride[lo_a], a.basis[lo_a], b, err);
                if let Err(e) = *err {
                    *err = Err(e.in_mode(k));
                    return out;
                }
                push_layout!(Op::LogicalDivide, out, err, n, pending, depth, &r);
                (lo_a, lo_t) = (hi_a, hi_t);
                k += 1;
                continue;
            }
        }
        let m = mode_of_leaves(a, lo_a, hi_a);
        if k < tr {
            let r = match tile {
                Some(lo) => tile_build(&m, &t.tiles[lo], f, err),
                None => apply_tiler_build(&m, &mode_of_tiles(t, lo_t, hi_t), f, err),
            };
            if let Err(e) = *err {
                *err = Err(e.in_mode(k));
                return out;
            }
            push_layout!(Op::LogicalDivide, out, err, n, pending, depth, &r);
        } else {
            push_layout!(Op::LogicalDivide, out, err, n, pending, depth, &m);
        }
        (lo_a, lo_t) = (hi_a, hi_t);
        k += 1;
    }
    // The closing bracket (`Builder::close`; never empty, nothing pending: every mode has a leaf).
    out.tree.close[n - 1] += 1;
    out.tree.n = n as u8;
    // The modes' results (a product's grows by its tile's size) multiply.
    check_size!(Op::LogicalDivide, out, err, n);
    out
}

/// `tile_unzip(apply_tiler(A, T), T)`: the rank-2 zipped form.
pub(crate) const fn zipped(a: &Layout, t: &Tiler, f: Apply) -> Result<Layout, Error> {
    let r = tri!(apply_tiler(a, t, f));
    let (x, y) = tri!(zip2_by(&r, t));
    Layout::concat(&[x, y])
}

/// CuTe's `zip2_by(L, guide)`: where the guide is a single tile, `L` must have rank 2 and is split
/// into its two modes; where it is a by-mode tiler, the modes are split recursively and gathered
/// into `((firsts...), (seconds..., modes of L beyond the guide...))`.
pub(crate) const fn zip2_by(l: &Layout, g: &Tiler) -> Result<(Layout, Layout), Error> {
    if g.is_single() {
        if l.is_leaf() {
            // CuTe: `get<1>` of an integer, "Index out of range"; a `_` leaves a mode an
            // integer (a layout tile always splits its mode in two), and the message then names
            // that mode (of `A`, kept whole) and where it is
            if matches!(g.single(), Some(Tile::Whole)) {
                return Err(Error::new(
                    Op::LogicalDivide,
                    ErrorKind::WholeModeUnzip { size: l.size() },
                )
                .with(Operand::Layout(*l), Operand::None));
            }
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
            let (x, y) = match zip2_by(&m, &tri!(g.mode(k))) {
                Ok(v) => v,
                Err(e) => return Err(e.in_mode(k)),
            };
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

/// A public zipped, tiled or flat divide or product: [`zipped`], then with `Some(both)` [`unpack`];
/// an error as the entry point `op`'s ([`entry_error`]).
pub(crate) const fn zipped_entry(
    a: &Layout,
    t: &Tiler,
    f: Apply,
    unpacked: Option<bool>,
    op: Op,
) -> Result<Layout, Error> {
    let r = match (zipped(a, t, f), unpacked) {
        (Ok(z), Some(both)) => unpack(&z, both),
        (r, _) => r,
    };
    match r {
        Ok(r) => Ok(r),
        Err(e) => Err(entry_error(e, op, a, t)),
    }
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
