//! Tiled atoms as CuTe's `print_latex` draws them: a `TiledMMA` (C with A to its left and B above,
//! every cell holding the thread and value that own it) and a `TiledCopy` (the source tile beside
//! the destination tile). Both are the single-atom pictures ([`super::mma`], [`super::copy`]) drawn
//! from the tiled value's thread-value layouts, so a tiled value of one atom draws as the atom does.

use super::thread_value::{copy, mma};
use crate::grid::DrawError;
use crate::scene::Scene;
use cute::tiled::{TiledCopy, TiledMma};

/// Refuses a highlighted thread outside `0..threads`, naming the picture.
fn check_highlight(what: &str, highlight: Option<i64>, threads: i64) -> Result<(), DrawError> {
    match highlight {
        Some(t) if !(0..threads).contains(&t) => Err(DrawError::Argument(format!(
            "{what}: thread {t} is not one of its {threads} threads, 0 to {}",
            threads - 1
        ))),
        _ => Ok(()),
    }
}

/// A `TiledMMA` as CuTe's `print_latex(TiledMMA)` draws it: the `M × N` tile of C at the bottom
/// right, the `M × K` tile of A to its left and the `K × N` tile of B (transposed) above it, with
/// `(M, N, K)` the tiled MMA's [`TiledMma::tile_shape`]; each cell holds the thread (an index of
/// the whole tiled MMA, `0..size`) and value that own it, from
/// [`TiledMma::get_layout_c_tv`], [`TiledMma::get_layout_a_tv`] and [`TiledMma::get_layout_b_tv`].
/// A cell of A is owned by every thread of the atoms along N (and B along M): the cell shows the
/// first owner in `(thread, value)` order, as `print_latex` does, with `+N` for the others and all
/// of them in `data-threads`. Thread `highlight` is outlined in all three. Panels: 0 = B, 1 = A,
/// 2 = C.
///
/// ```
/// use cute::atom::{mma_sm80_16x8x16, DType};
/// use cute::tiled::make_tiled_mma;
/// let atom = mma_sm80_16x8x16(DType::F16)?;
/// let t = make_tiled_mma(&atom, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
/// let s = cute_draw::pictures::tiled_mma(&t, Some(32)).unwrap();
/// // C is 32 x 16: rows 16.. belong to the second atom along M, threads 32..63
/// assert_eq!((s.panels[2].rows, s.panels[2].cols), (32, 16));
/// assert_eq!(s.panels[2].cell(16, 0).label, vec!["T32".to_string(), "V0".to_string()]);
/// // A(0, 0) is held by thread 0 and by thread 64 (the atom to its right along N)
/// assert_eq!(s.panels[1].cell(0, 0).label, vec!["T0+1".to_string(), "V0".to_string()]);
/// # Ok::<(), cute::Error>(())
/// ```
///
/// # Errors
///
/// [`DrawError::Argument`] when `highlight` is not a thread of the tiled MMA; the errors of the
/// thread-value layouts and of [`super::mma`] (a tile past the cell limit).
pub fn tiled_mma(t: &TiledMma, highlight: Option<i64>) -> Result<Scene, DrawError> {
    let (m, n, k) = t.atom().shape_mnk;
    // wgmma's atoms are named for every N at once (`SM90_64xNx16_...`): the picture names its N
    let atom = t
        .atom()
        .name
        .replace(&format!("{m}xNx{k}"), &format!("{m}x{n}x{k}"));
    let name = format!("TiledMMA of {atom} over threads {}", t.thr_layout_vmnk());
    check_highlight(&name, highlight, t.size())?;
    let (a, b, c) = (
        t.get_layout_a_tv()?,
        t.get_layout_b_tv()?,
        t.get_layout_c_tv_every_k()?,
    );
    mma(&name, &a, &b, &c, t.tile_shape(), highlight)
}

/// The `(rows, cols)` of a tiled copy's tile: the sizes of the two modes of its tiler.
///
/// ```
/// use cute::atom::cp_async_16b;
/// use cute::tiled::make_tiled_copy;
/// let c = make_tiled_copy(&cp_async_16b()?, 16, &"(16,8):(8,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
/// assert_eq!(cute_draw::pictures::copy_tile(&c).unwrap(), (16, 64));
/// # Ok::<(), cute::Error>(())
/// ```
///
/// # Errors
///
/// [`DrawError::Argument`] when the tiler does not have rank 2 (or 1: one row).
pub fn copy_tile(t: &TiledCopy) -> Result<(i64, i64), DrawError> {
    let tiler = t.tiler();
    let each = tiler.product_each()?;
    match each.rank() {
        0 => Ok((1, each.size()?)),
        1 => Ok((1, each.get(0)?.size()?)),
        2 => Ok((each.get(0)?.size()?, each.get(1)?.size()?)),
        r => Err(DrawError::Argument(format!(
            "TiledCopy of {} over the tile {tiler}: the tile has rank {r}; a picture draws rank 2",
            t.atom().name
        ))),
    }
}

/// A `TiledCopy` as CuTe's `print_latex(TiledCopy)` draws it: the source tile beside the
/// destination tile (both the copy's tile, [`copy_tile`]), each cell holding the thread and value
/// that own it on that side, from [`TiledCopy::get_layout_s_tv`] and
/// [`TiledCopy::get_layout_d_tv`]; thread `highlight` is outlined on both sides. Panels:
/// 0 = source, 1 = destination.
///
/// ```
/// use cute::atom::{ldmatrix, mma_sm80_16x8x16, DType};
/// use cute::tiled::{make_tiled_copy_a, make_tiled_mma};
/// let m = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
/// let c = make_tiled_copy_a(&ldmatrix(4, false)?, 16, &m)?;
/// let s = cute_draw::pictures::tiled_copy(&c, None).unwrap();
/// // ldmatrix: thread 1 gives the address of row 1; it receives A(0, 2) and A(0, 3) as values 0
/// // and 1; thread 65 (the same place in the atom along N, which reads the same A) does too
/// assert_eq!(s.panels[0].cell(1, 0).label, vec!["T1+1".to_string(), "V0".to_string()]);
/// assert_eq!(s.panels[1].cell(0, 3).label, vec!["T1+1".to_string(), "V1".to_string()]);
/// assert_eq!(s.panels[1].cell(0, 3).attrs[0].1, "1 65");
/// # Ok::<(), cute::Error>(())
/// ```
///
/// # Errors
///
/// [`DrawError::Argument`] when `highlight` is not a thread of the copy or the tile is not of rank
/// 2; the errors of the thread-value layouts and of [`super::copy`].
pub fn tiled_copy(t: &TiledCopy, highlight: Option<i64>) -> Result<Scene, DrawError> {
    let (rows, cols) = copy_tile(t)?;
    let name = format!(
        "TiledCopy of {} ({}-bit elements) over a {rows} x {cols} tile, threads and values {}",
        t.atom().name,
        t.elem_bits(),
        t.layout_tv()
    );
    check_highlight(&name, highlight, t.size())?;
    let (s, d) = (t.get_layout_s_tv()?, t.get_layout_d_tv()?);
    copy(&name, &s, &d, rows, cols, highlight)
}
