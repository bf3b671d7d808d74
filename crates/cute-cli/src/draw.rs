//! `cute show` and `cute draw`: pictures of layouts from `cute-draw`.

use cute::Layout;

fn parse(what: &str, text: &str) -> Result<Layout, String> {
    crate::apps::lay(what, 1, text)
}

/// `cute show LAYOUT`: CuTe's `print_layout` table (rank 2 as CuTe prints it, rank 1 as one row,
/// higher ranks folded into the columns).
pub fn show(layout: &str) -> Result<String, String> {
    let l = parse("show", layout)?;
    let t = cute_draw::table::print_layout(&l).map_err(|e| format!("error: show: {e}"))?;
    Ok(t.trim_end_matches('\n').to_string())
}

/// The picture formats of `cute draw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// SVG.
    Svg,
    /// A standalone TikZ (LaTeX) document.
    Tikz,
}

/// `cute draw LAYOUT [--tv ROWS COLS] [--thread T] [--format svg|tikz]`: the picture as text. With
/// `--tv`, LAYOUT is a thread-value layout over a `ROWS × COLS` tile; `--thread` outlines one
/// thread's cells (SVG).
pub fn draw(
    layout: &str,
    tv: Option<&[i64]>,
    thread: Option<i64>,
    format: Format,
) -> Result<String, String> {
    let l = parse("draw", layout)?;
    let fail = |e: cute_draw::DrawError| format!("error: draw: {e}");
    let text = match tv {
        None => match format {
            Format::Svg => cute_draw::svg::layout_svg(&l).map_err(fail)?,
            Format::Tikz => cute_draw::tikz::layout_tikz(&l).map_err(fail)?,
        },
        Some(&[rows, cols]) => {
            if rows < 1 || cols < 1 || rows.checked_mul(cols).is_none() {
                return Err(format!(
                    "error: draw: --tv {rows} {cols}: the tile's rows and columns must be positive and their product an i64"
                ));
            }
            match format {
                Format::Svg => {
                    cute_draw::svg::tv_layout_svg(&l, rows, cols, thread).map_err(fail)?
                }
                Format::Tikz => cute_draw::tikz::tv_layout_tikz(&l, rows, cols).map_err(fail)?,
            }
        }
        Some(other) => {
            return Err(format!(
                "error: draw: --tv takes two numbers, ROWS and COLS, not {}",
                other.len()
            ))
        }
    };
    Ok(text.trim_end_matches('\n').to_string())
}
