//! TikZ: the pictures of [`crate::pictures`] as a standalone LaTeX document, in the form CuTe's
//! `print_latex` writes (a `tikzpicture` with `x={(0cm,-1cm)}, y={(1cm,0cm)}`, one node per cell,
//! indices along the top and the left), for papers. Every scene renders with [`Scene::tikz`].

use crate::grid::DrawError;
use crate::pictures;
#[cfg(doc)]
use crate::scene::Scene;
use cute::Layout;

/// The TikZ document of a layout: each cell filled with CuTe's grey of its offset and labelled
/// with it.
///
/// ```
/// let t = cute_draw::tikz::layout_tikz(&"(2,2):(1,2)".parse().unwrap()).unwrap();
/// assert!(t.contains("\\node[fill={rgb,255:red,255;green,255;blue,255}] at (0,0) {0};"));
/// assert!(t.contains("at (1,1) {3};"));
/// ```
pub fn layout_tikz(l: &Layout) -> Result<String, DrawError> {
    Ok(pictures::layout(l)?.tikz())
}

/// The TikZ document of a thread-value layout over a `rows × cols` tile (see
/// [`crate::pictures::tv_layout`]).
///
/// ```
/// let tv: cute::Layout = "(4,2):(2,1)".parse().unwrap();
/// let t = cute_draw::tikz::tv_layout_tikz(&tv, 2, 4).unwrap();
/// assert!(t.contains("at (0,0) {\\shortstack{T0 \\\\ V0}};"));
/// ```
pub fn tv_layout_tikz(tv: &Layout, rows: i64, cols: i64) -> Result<String, DrawError> {
    Ok(pictures::tv_layout(tv, rows, cols, None)?.tikz())
}
