//! TikZ: the pictures of [`crate::svg`] as a standalone LaTeX document, in the form CuTe's
//! `print_latex` writes (a `tikzpicture` with `x={(0cm,-1cm)}, y={(1cm,0cm)}`, one node per cell,
//! indices along the top and the left), for papers.

use crate::grid::{DrawError, Grid};
use crate::svg::{grey, thread_colour, tv_owners};
use cute::Layout;

const HEADER: &str = "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";

fn rgb((r, g, b): (u8, u8, u8)) -> String {
    format!("{{rgb,255:red,{r};green,{g};blue,{b}}}")
}

fn frame(s: &mut String, rows: i64, cols: i64) {
    s.push_str(&format!(
        "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({rows},{cols});\n\n"
    ));
    for r in 0..rows {
        s.push_str(&format!(
            "\\node at ({r},-1) {{\\Large{{\\texttt{{{r}}}}}}};\n"
        ));
    }
    for c in 0..cols {
        s.push_str(&format!(
            "\\node at (-1,{c}) {{\\Large{{\\texttt{{{c}}}}}}};\n"
        ));
    }
    s.push_str("\\end{tikzpicture}\n\\end{document}\n");
}

/// The TikZ document of a layout: each cell filled with CuTe's grey of its offset and labelled
/// with it.
///
/// ```
/// let t = cute_draw::tikz::layout_tikz(&"(2,2):(1,2)".parse().unwrap()).unwrap();
/// assert!(t.contains("\\node[fill={rgb,255:red,255;green,255;blue,255}] at (0,0) {0};"));
/// assert!(t.contains("at (1,1) {3};"));
/// ```
pub fn layout_tikz(l: &Layout) -> Result<String, DrawError> {
    let g = Grid::new(l)?;
    let mut s = format!("% Layout: {l}\n{HEADER}");
    for r in 0..g.rows {
        for c in 0..g.cols {
            let v = g.at(r, c);
            s.push_str(&format!(
                "\\node[fill={}] at ({r},{c}) {{{v}}};\n",
                rgb(grey(v))
            ));
        }
    }
    frame(&mut s, g.rows, g.cols);
    Ok(s)
}

/// The TikZ document of a thread-value layout over a `rows × cols` tile (see
/// [`crate::svg::tv_layout_svg`]).
///
/// ```
/// let tv: cute::Layout = "(4,2):(2,1)".parse().unwrap();
/// let t = cute_draw::tikz::tv_layout_tikz(&tv, 2, 4).unwrap();
/// assert!(t.contains("at (0,0) {\\shortstack{T0 \\\\ V0}};"));
/// ```
pub fn tv_layout_tikz(tv: &Layout, rows: i64, cols: i64) -> Result<String, DrawError> {
    let owners = tv_owners(tv, rows, cols)?;
    let mut s = format!("% Layout: {tv}\n{HEADER}");
    for r in 0..rows {
        for c in 0..cols {
            if let Some((t, v, more)) = owners[(r + rows * c) as usize] {
                s.push_str(&format!(
                    "\\node[fill={}] at ({r},{c}) {{\\shortstack{{T{t}{} \\\\ V{v}}}}};\n",
                    rgb(thread_colour(t)),
                    if more { "+" } else { "" }
                ));
            }
        }
    }
    frame(&mut s, rows, cols);
    Ok(s)
}
