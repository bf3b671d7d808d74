//! SVG pictures of a layout and of a thread-value layout, laid out as CuTe's `print_latex` draws
//! them (row `m` downwards, column `n` to the right, indices along the top and the left). The
//! other pictures are in [`crate::pictures`]; every one renders with [`Scene::svg`].

use crate::grid::DrawError;
use crate::pictures;
use crate::scene::Scene;
use cute::Layout;

pub use crate::pictures::{grey, thread_colour, Owner};
pub use crate::scene::CELL;

/// The SVG of a layout: one cell per coordinate (rows: mode 0; columns: the other modes, folded
/// colexicographically), labelled with its offset and filled with [`grey`] of the offset.
///
/// ```
/// let svg = cute_draw::svg::layout_svg(&"(4,8):(1,4)".parse().unwrap()).unwrap();
/// assert_eq!(svg.matches("class=\"cell\"").count(), 32);
/// assert!(svg.contains(">31</text>"));
/// ```
pub fn layout_svg(l: &Layout) -> Result<String, DrawError> {
    Ok(pictures::layout(l)?.svg())
}

/// The SVG of a thread-value layout over a `rows × cols` tile ([`pictures::tv_layout`]).
///
/// ```
/// // the C layout of mma.sync m16n8k16: 16 x 8, thread 5 outlined
/// let tv: cute::Layout = "((4,8),(2,2)):((32,1),(16,8))".parse().unwrap();
/// let svg = cute_draw::svg::tv_layout_svg(&tv, 16, 8, Some(5)).unwrap();
/// assert_eq!(svg.matches("class=\"cell\"").count(), 128);
/// assert_eq!(svg.matches("data-mark=\"outline\"").count(), 4);
/// assert!(svg.contains(">T5</text>"));
/// ```
pub fn tv_layout_svg(
    tv: &Layout,
    rows: i64,
    cols: i64,
    highlight: Option<i64>,
) -> Result<String, DrawError> {
    Ok(pictures::tv_layout(tv, rows, cols, highlight)?.svg())
}

/// For each coordinate of the `rows × cols` tile, its [`Owner`] under `tv`.
pub fn tv_owners(tv: &Layout, rows: i64, cols: i64) -> Result<Vec<Owner>, DrawError> {
    let n = rows
        .checked_mul(cols)
        .filter(|_| rows >= 1 && cols >= 1)
        .ok_or_else(|| {
            DrawError::Argument(format!(
            "tile {rows} x {cols}: the rows and columns must be positive and their product an i64"
        ))
        })?;
    pictures::tv_owners(tv, n)
}

/// The SVG of any [`Scene`] (a shorthand for [`Scene::svg`]).
pub fn scene_svg(s: &Scene) -> String {
    s.svg()
}
