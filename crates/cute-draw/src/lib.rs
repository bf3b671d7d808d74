//! # cute-draw — pictures of CuTe layouts, without LaTeX
//!
//! People understand layouts by looking at them; the paper's figures are pictures of layouts.
//! This crate draws them natively and exactly:
//!
//! * [`table`]: CuTe C++'s `print_layout` console table, character for character, for rank-2
//!   layouts; rank 1 as one row; higher ranks with modes 1.. folded into the columns (the
//!   pictures draw rank 1 as one column, as CuTe's `print_latex` does);
//! * [`svg`]: SVG of a layout (cells labelled with offsets, filled with CuTe's 8-level grey by
//!   offset) and of a thread-value layout (`T#`/`V#` in each cell, coloured by thread, one thread
//!   highlighted on request);
//! * [`tikz`]: the same pictures as TikZ, as CuTe's `print_latex` writes them;
//! * [`pictures`]: every picture as a [`scene::Scene`] of panels of cells — layouts by offset or
//!   by bank, layouts with F2 or coordinate strides by value, TV layouts (every owner of a cell
//!   counted), MMA and copy atoms, tiled MMAs and tiled copies (as `print_latex` draws a
//!   `TiledMMA` and a `TiledCopy`), a warp's shared-memory accesses per instruction (thread and
//!   wavefront of each cell read), slices, products and divides tile by tile (partial tiles where
//!   the tiler does not divide the shape) — rendered by [`scene::Scene::svg`],
//!   [`scene::Scene::tikz`] and [`png::render`] (resvg with the font shipped in this crate, so
//!   images are identical on machines without fonts).
//!
//! ```
//! let l: cute::Layout = "(2,3):(3,1)".parse().unwrap();
//! let t = cute_draw::table::print_layout(&l).unwrap();
//! assert_eq!(t.lines().next(), Some("(2,3):(3,1)"));
//! assert_eq!(t.lines().nth(3), Some(" 0  | 0 | 1 | 2 |"));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod grid;
pub mod pictures;
pub mod png;
pub mod scene;
pub mod svg;
pub mod table;
pub mod tikz;

pub use grid::{DrawError, Grid};
pub use scene::{Cell, Mark, Panel, Scene};
