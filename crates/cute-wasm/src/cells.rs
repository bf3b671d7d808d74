//! Pictures as cells for the page to paint on a canvas, when an SVG would be too slow to show.
//!
//! Chromium lays out an inline SVG of a 64 × 64 layout (4096 cells, 4096 text labels) in 100 ms
//! and more on a 2-core machine (BENCHMARKS.md), past the playground's 50 ms budget for an
//! operation and its redraw. Pictures of more than [`INLINE_SVG_CELLS`] cells therefore go to the
//! page as their cells — the same grid, fills, labels and outlines as the SVG, the cells of
//! `cute-draw`'s own picture ([`Cells::panel`]) — and the page paints them on a canvas with the SVG's
//! geometry ([`cute_draw::svg::CELL`]); the SVG itself is one request away (`…:svg`).

use crate::colour::rgb_number;
use crate::json;
use cute::Layout;
#[cfg(test)]
use cute_draw::svg::thread_colour;
use cute_draw::DrawError;

/// Pictures with at most this many cells are sent as SVG and shown inline.
pub const INLINE_SVG_CELLS: i64 = 1024;

/// How a cell is outlined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outline {
    /// A thin black line (every cell).
    Plain,
    /// A thick black line (an access of the bank view).
    Strong,
    /// A thick red line (a conflicting access).
    Red,
    /// A thick black line inset in the cell (a highlighted thread, as `cute-draw` outlines it).
    Thread,
}

/// A picture's cells: row `r`, column `c` at index `r * cols + c`.
pub struct Cells {
    /// The title above the grid.
    pub title: String,
    /// Rows.
    pub rows: i64,
    /// Columns.
    pub cols: i64,
    /// Fill colours.
    pub fill: Vec<(u8, u8, u8)>,
    /// Labels, one line per `\n`-separated part (empty: none).
    pub label: Vec<String>,
    /// Outlines.
    pub outline: Vec<Outline>,
}

impl Cells {
    /// A layout's cells as `cute_draw::svg::layout_svg` draws them: its offsets on CuTe's greys.
    ///
    /// ```
    /// let c = cute_wasm::cells::Cells::layout(&"(2,3):(3,1)".parse().unwrap()).unwrap();
    /// assert_eq!((c.rows, c.cols, c.label[1].as_str()), (2, 3, "1"));
    /// ```
    pub fn layout(l: &Layout) -> Result<Cells, DrawError> {
        Ok(Cells::panel(&cute_draw::pictures::layout(l)?.panels[0]))
    }

    /// A thread-value layout's cells as `cute_draw::svg::tv_layout_svg` draws them.
    pub fn tv(
        tv: &Layout,
        rows: i64,
        cols: i64,
        highlight: Option<i64>,
    ) -> Result<Cells, DrawError> {
        Ok(Cells::panel(
            &cute_draw::pictures::tv_layout(tv, rows, cols, highlight)?.panels[0],
        ))
    }

    /// The cells of a panel of `cute-draw`: the same fills and labels, outlined cells red.
    pub fn panel(p: &cute_draw::Panel) -> Cells {
        Cells {
            title: p.title.clone(),
            rows: p.rows,
            cols: p.cols,
            fill: p.cells.iter().map(|c| c.fill).collect(),
            label: p.cells.iter().map(|c| c.label.join("\n")).collect(),
            outline: p
                .cells
                .iter()
                .map(|c| match c.mark {
                    cute_draw::Mark::Plain => Outline::Plain,
                    cute_draw::Mark::Outline => Outline::Thread,
                    _ => Outline::Red,
                })
                .collect(),
        }
    }

    /// The cells as an SVG in the geometry and classes of `cute_draw::svg` (`rect.cell` with
    /// `data-row`/`data-col`, `text.label`); outlined cells also get the class `access` (strong)
    /// or `conflict` (red). For the bank view, which `cute-draw` does not draw yet.
    pub fn to_svg(&self) -> String {
        use std::fmt::Write;
        const CELL: i64 = cute_draw::svg::CELL;
        let (w, h) = ((self.cols + 1) * CELL, (self.rows + 1) * CELL + 20);
        let mut out = String::with_capacity(self.label.len() * 200 + 512);
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"monospace\" font-size=\"12\" text-anchor=\"middle\" dominant-baseline=\"central\">"
        );
        let title = escape(&self.title);
        let _ = writeln!(out, "<title>{title}</title>");
        // a title wider than the picture is squeezed to its width
        let chars = self.title.chars().count() as f64;
        let fit = if chars * cute_draw::scene::CHAR_W > (w - 8) as f64 {
            format!(
                " textLength=\"{}\" lengthAdjust=\"spacingAndGlyphs\"",
                w - 8
            )
        } else {
            String::new()
        };
        let _ = writeln!(out, "<text x=\"{}\" y=\"10\"{fit}>{title}</text>", w / 2);
        let (x0, y0) = (CELL, CELL + 20);
        for c in 0..self.cols {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" class=\"col\">{c}</text>",
                x0 + c * CELL + CELL / 2,
                y0 - CELL / 2
            );
        }
        for r in 0..self.rows {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" class=\"row\">{r}</text>",
                x0 - CELL / 2,
                y0 + r * CELL + CELL / 2
            );
            for c in 0..self.cols {
                let k = (r * self.cols + c) as usize;
                let (x, y) = (x0 + c * CELL, y0 + r * CELL);
                let (fr, fg, fb) = self.fill[k];
                let (class, stroke, width) = match self.outline[k] {
                    Outline::Plain => ("cell", "#000000", 1),
                    Outline::Strong => ("cell access", "#000000", 3),
                    Outline::Red => ("cell conflict", "#d00000", 3),
                    Outline::Thread => ("cell outline", "#000000", 4),
                };
                let _ = writeln!(
                    out,
                    "<rect class=\"{class}\" data-row=\"{r}\" data-col=\"{c}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"#{fr:02x}{fg:02x}{fb:02x}\" stroke=\"{stroke}\" stroke-width=\"{width}\"/>"
                );
                let lines: Vec<&str> = self.label[k]
                    .split('\n')
                    .filter(|l| !l.is_empty())
                    .collect();
                let n = lines.len() as i64;
                for (i, line) in lines.iter().enumerate() {
                    let dy = (2 * i as i64 - (n - 1)) * 7;
                    let _ = writeln!(
                        out,
                        "<text class=\"label\" x=\"{}\" y=\"{}\">{}</text>",
                        x + CELL / 2,
                        y + CELL / 2 + dy,
                        escape(line)
                    );
                }
            }
        }
        out.push_str("</svg>\n");
        out
    }

    /// The cells as one JSON object: `title`, `rows`, `cols`, `fill` (`0xRRGGBB` numbers),
    /// `label` (strings, lines separated by `\n`), `outline` (0 plain, 1 strong, 2 red, 3 a
    /// highlighted thread).
    pub fn to_value(&self) -> json::Value {
        let fill: Vec<u32> = self.fill.iter().map(|&c| rgb_number(c)).collect();
        let outline: Vec<u8> = self
            .outline
            .iter()
            .map(|o| match o {
                Outline::Plain => 0,
                Outline::Strong => 1,
                Outline::Red => 2,
                Outline::Thread => 3,
            })
            .collect();
        json::json!({
            "title": self.title,
            "rows": self.rows,
            "cols": self.cols,
            "fill": fill,
            "label": self.label,
            "outline": outline,
        })
    }

    /// [`Cells::to_value`] printed (compact).
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells carry what the SVG of cute-draw shows: same count, labels and fills.
    #[test]
    fn cells_match_the_svg() {
        let l: Layout = "((4,8),2):((2,8),1)".parse().unwrap();
        let c = Cells::layout(&l).unwrap();
        let svg = cute_draw::svg::layout_svg(&l).unwrap();
        assert_eq!(
            svg.matches("class=\"cell\"").count() as i64,
            c.rows * c.cols
        );
        for (k, lab) in c.label.iter().enumerate() {
            let (r, col) = (k as i64 / c.cols, k as i64 % c.cols);
            let (fr, fg, fb) = c.fill[k];
            let rect = format!("data-row=\"{r}\" data-col=\"{col}\"");
            let at = svg.find(&rect).unwrap();
            let tail = &svg[at..];
            let line = tail.split('\n').next().unwrap();
            assert!(
                line.contains(&format!("fill=\"#{fr:02x}{fg:02x}{fb:02x}\"")),
                "{line}"
            );
            let text_at = tail.find("<text").unwrap();
            assert!(tail[text_at..].starts_with("<text class=\"label\""));
            assert!(tail[text_at..].contains(&format!(">{lab}</text>")));
        }
        // a title wider than the picture is squeezed to fit it; a short one is left alone
        let mut small = Cells::layout(&"(2,2):(1,2)".parse().unwrap()).unwrap();
        assert!(!small.to_svg().contains("textLength"));
        small.title = "x".repeat(100);
        assert!(small.to_svg().contains("textLength=\"112\""));
        let tv: Layout = "((4,8),(2,2)):((32,1),(16,8))".parse().unwrap();
        let c = Cells::tv(&tv, 16, 8, Some(5)).unwrap();
        assert_eq!(
            c.outline.iter().filter(|&&o| o == Outline::Thread).count(),
            4
        );
        assert_eq!(c.label[0], "T0\nV0");
        assert_eq!(c.fill[0], thread_colour(0));
        assert!(c.to_json().starts_with(r#"{"title":"((4,8),(2,2)):((32,1),(16,8)) over 16x8","rows":16,"cols":8,"fill":[11513855,"#));
    }
}
