//! Tiled atoms: an MMA or copy atom repeated over threads and values to cover a tile, as CuTe's
//! `TiledMMA` and `TiledCopy` (`cute/atom/mma_atom.hpp`, `cute/atom/copy_atom.hpp`).
//!
//! Both are values built from the atoms of [`crate::atom`] by the layout algebra alone:
//!
//! * [`TiledMma`] ([`make_tiled_mma`]): the atom tiled over an *atom layout* of `(M, N, K)` atom
//!   positions, each mode of the tile optionally reordered by a *permutation* tiler. Its
//!   thread-value layouts [`TiledMma::get_layout_a_tv`] (and `b`, `c`) map `(thread, value)` to the
//!   colexicographic index of the `(M, K)`, `(N, K)` and `(M, N)` tile; [`TiledMma::thr_slice`]
//!   gives one thread's [`ThrMma::partition_a`] (and `b`, `c`) of a data layout.
//! * [`TiledCopy`] ([`make_tiled_copy`], [`make_tiled_copy_a`], [`make_tiled_copy_b`],
//!   [`make_tiled_copy_c`]): a thread-value layout of a tile and the tile's shape (the *tiler*);
//!   [`TiledCopy::get_layout_s_tv`] and [`TiledCopy::get_layout_d_tv`] say which element of the tile
//!   each thread's value is on the source and the destination side, [`ThrCopy::partition_s`] and
//!   [`ThrCopy::partition_d`] split a data layout, [`TiledCopy::retile`] reorders an MMA fragment
//!   into the copy's value order.
//!
//! Every value is checked against the CuTe DSL (tests/data/tiled_oracle.json, written by
//! scripts/tiled_oracle.py).
//!
//! ```
//! use cute::atom::{ldmatrix, mma_sm80_16x8x16, DType};
//! use cute::tiled::{make_tiled_copy_a, make_tiled_mma};
//! use cute::{Layout, Tiler};
//! let atom = mma_sm80_16x8x16(DType::F16)?;
//! let mma = make_tiled_mma(&atom, &"(2,2,1):(1,2,0)".parse::<Layout>()?, &"<_,_,_>".parse::<Tiler>()?)?;
//! assert_eq!(mma.tile_shape(), (32, 16, 16));
//! let copy = make_tiled_copy_a(&ldmatrix(4, false)?, 16, &mma)?;
//! assert_eq!(copy.get_layout_s_tv()?.to_string(), "((16,2,2,2),(8,1)):((1,256,16,0),(32,0))");
//! # Ok::<(), cute::Error>(())
//! ```

pub mod tiled_copy;
pub mod tiled_mma;

pub use tiled_copy::{
    make_tiled_copy, make_tiled_copy_a, make_tiled_copy_b, make_tiled_copy_c, ThrCopy, TiledCopy,
};
pub use tiled_mma::{make_tiled_mma, ThrMma, TiledMma};

use crate::error::{Error, ErrorKind, Op};
use crate::layout::Layout;
use crate::slice::PartialCoord;

/// `L.compose(x, _)`: mode 0 of the rank-2 `l` composed with `x`, mode 1 kept.
pub(crate) fn compose_mode0(l: &Layout, x: &Layout) -> Result<Layout, Error> {
    let m0 = crate::algebra::composition::composition(&l.mode(0)?, x)?;
    Layout::concat(&[m0, l.mode(1)?])
}

/// `n` free coordinates `(_,_,...)` (`_` for `n = 1`... as a tuple of one `_`).
pub(crate) fn frees(n: usize) -> Result<PartialCoord, Error> {
    let v = vec![PartialCoord::FREE; n];
    PartialCoord::tuple(&v)
}

/// An error of the tiled operation `op` that breaks the divisibility CuTe assumes.
pub(crate) fn not_divisible(op: &'static str, what: &'static str, a: i64, b: i64) -> Error {
    Error::new(
        Op::Named(op),
        ErrorKind::ProfileMismatch {
            what,
            left: a,
            right: b,
        },
    )
}

/// The `NotInDomain` of `thr_slice` (naming the thread layout `layout`) when `thread` is not in
/// `0..size`.
pub(crate) fn check_thread(thread: i64, size: i64, layout: &Layout) -> Result<(), Error> {
    if !(0..size).contains(&thread) {
        return Err(Error::new(
            Op::Named("thr_slice"),
            ErrorKind::NotInDomain {
                coord: thread,
                size,
            },
        )
        .with(
            crate::error::Operand::Layout(*layout),
            crate::error::Operand::None,
        ));
    }
    Ok(())
}

/// Refuses a data layout that the tiles of `op` do not cover exactly: the size of each mode `k`
/// of `data` (for `k` below `tile.len()` and `data`'s rank) must be a multiple of `tile[k]`.
/// Otherwise the divisions extend the data's last mode past its end and hand threads offsets of
/// no element (CuTe does so; the CuTe DSL pads the rest with stride 0, giving other threads the
/// same elements).
pub(crate) fn check_covered(op: &'static str, data: &Layout, tile: &[i64]) -> Result<(), Error> {
    for (k, &t) in tile.iter().enumerate().take(data.rank()) {
        let n = data.mode(k)?.size();
        if t > 0 && n % t != 0 {
            return Err(not_divisible(
                op,
                "the data's extent in each tiled mode must be a multiple of the tile's (a partial tile would give threads offsets past the data): data extent, tile extent",
                n,
                t,
            )
            .with(crate::error::Operand::Layout(*data), crate::error::Operand::None));
        }
    }
    Ok(())
}
