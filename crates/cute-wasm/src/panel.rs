//! One picture of an operation's figure ([`crate::figure`]): a layout on its grid, each cell with
//! its value, index and coordinate, a fill and a mark; the figure's panels and legend; the colours
//! that link cells across panels.

use crate::cells::INLINE_SVG_CELLS;
use crate::colour::rgb_number;
use crate::json::{self, json};
use cute::{IntTuple, Layout};

/// A cell mark: none.
pub const MARK_NONE: u8 = 0;
/// A cell mark: a thick outline (a value the swizzle moved).
pub const MARK_MOVED: u8 = 1;
/// A cell mark: dashed and white (a cell of a partial tile past the end of the divided layout).
pub const MARK_OUTSIDE: u8 = 2;

/// One picture of the figure: a layout on its grid, every cell's three labels, fill and mark.
#[derive(Clone, Debug)]
pub struct FigPanel {
    /// What the panel is: `A`, `B`, `result`, `before`, `after`.
    pub role: &'static str,
    /// The title above the grid.
    pub title: String,
    /// Rows (mode 0's size; a rank-1 layout is one column, as CuTe's `print_latex` draws it).
    pub rows: i64,
    /// Columns (the other modes, folded colexicographically).
    pub cols: i64,
    /// The layout's value at each cell, row-major (`r·cols + c`).
    pub value: Vec<String>,
    /// The colexicographic index of each cell, `r + rows·c`.
    pub index: Vec<i64>,
    /// The natural coordinate of each cell's index in the layout's shape.
    pub coord: Vec<String>,
    /// Fill colours.
    pub fill: Vec<(u8, u8, u8)>,
    /// Marks ([`MARK_NONE`], [`MARK_MOVED`], [`MARK_OUTSIDE`]).
    pub mark: Vec<u8>,
}

impl FigPanel {
    /// The panel of `l`, its cells filled with CuTe's greys by value (white where the value is
    /// not an integer: a coordinate). `None` when `l` has more than [`INLINE_SVG_CELLS`] cells
    /// or a value cannot be computed.
    ///
    /// ```
    /// let p = cute_wasm::panel::FigPanel::of("A", &"(2,3):(3,1)".parse().unwrap()).unwrap();
    /// assert_eq!((p.rows, p.cols), (2, 3));
    /// assert_eq!(p.value[1], "1"); // row 0, column 1: index 2, offset 1
    /// assert_eq!((p.index[1], p.coord[1].as_str()), (2, "(0,1)"));
    /// ```
    pub fn of(role: &'static str, l: &Layout) -> Option<FigPanel> {
        let n = l.size();
        if !(1..=INLINE_SVG_CELLS).contains(&n) {
            return None;
        }
        let rows = if l.rank() <= 1 {
            n
        } else {
            l.mode(0).ok()?.size().max(1)
        };
        let cols = n / rows;
        let shape = l.shape();
        let mut p = FigPanel {
            role,
            title: l.to_string(),
            rows,
            cols,
            value: Vec::with_capacity(n as usize),
            index: Vec::with_capacity(n as usize),
            coord: Vec::with_capacity(n as usize),
            fill: Vec::with_capacity(n as usize),
            mark: vec![MARK_NONE; n as usize],
        };
        for r in 0..rows {
            for c in 0..cols {
                let i = r + rows * c;
                let v = l.eval_value(i).ok()?.to_string();
                p.fill.push(grey_of(&v));
                p.value.push(v);
                p.index.push(i);
                p.coord
                    .push(cute::idx2crd(&IntTuple::int(i), &shape).ok()?.to_string());
            }
        }
        Some(p)
    }

    /// The cell (row-major position) of index `i`.
    pub fn cell_of(&self, i: i64) -> Option<usize> {
        if !(0..self.rows * self.cols).contains(&i) {
            return None;
        }
        Some(((i % self.rows) * self.cols + i / self.rows) as usize)
    }

    /// The panel as JSON: `role`, `title`, `rows`, `cols`, `value`, `index`, `coord`, `fill`
    /// (`0xRRGGBB` numbers) and `mark`, row-major.
    pub fn to_value(&self) -> json::Value {
        let fill: Vec<u32> = self.fill.iter().map(|&c| rgb_number(c)).collect();
        json!({
            "role": self.role,
            "title": self.title,
            "rows": self.rows,
            "cols": self.cols,
            "value": self.value,
            "index": self.index,
            "coord": self.coord,
            "fill": fill,
            "mark": self.mark,
        })
    }
}

/// CuTe's grey for a value that is an integer (an F2 value `F5` counts as 5), else white.
fn grey_of(v: &str) -> (u8, u8, u8) {
    match v.trim_start_matches('F').parse::<i64>() {
        Ok(x) => cute_draw::pictures::grey(x),
        Err(_) => (255, 255, 255),
    }
}

/// The colour linking class `k`: light hues a golden angle apart, so that neighbouring classes
/// differ and no class is grey (the greys mean "by value").
///
/// ```
/// use cute_wasm::panel::link_colour;
/// assert_ne!(link_colour(0), link_colour(1));
/// assert!((0..64).all(|k| { let (r, g, b) = link_colour(k); !(r == g && g == b) }));
/// ```
pub fn link_colour(k: i64) -> (u8, u8, u8) {
    let h = (k.rem_euclid(1 << 20) as f64 * 0.618_033_988_75).fract();
    // lightness alternates a little by k so that two close hues still differ
    let (s, l) = (0.70, if k.rem_euclid(2) == 0 { 0.80 } else { 0.70 });
    crate::colour::hsl(h, s, l)
}

/// The figure of an operation: the panels (operands first, the result last) and the legend's
/// sentences, each with the colour it explains (`None`: a sentence without a swatch).
pub struct Figure {
    /// Operands, then the result.
    pub panels: Vec<FigPanel>,
    /// The legend.
    pub legend: Legend,
}

/// A legend: sentences, each with the colour it explains (`None`: no swatch).
pub type Legend = Vec<(Option<(u8, u8, u8)>, String)>;

impl Figure {
    /// As JSON: `{"panels": [...], "legend": [{"fill", "text"}]}`.
    pub fn to_value(&self) -> json::Value {
        let panels: Vec<json::Value> = self.panels.iter().map(FigPanel::to_value).collect();
        let legend: Vec<json::Value> = self
            .legend
            .iter()
            .map(|(f, t)| {
                json!({
                    "fill": f.map(rgb_number),
                    "text": t,
                })
            })
            .collect();
        json!({ "panels": panels, "legend": legend })
    }
}

pub(crate) const GREYS: &str =
    "cells filled with CuTe's 8-level grey by value: equal offsets, equal greys, in every picture";
