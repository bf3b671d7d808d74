//! Operands beside the result: the pictures of an operation's layout arguments next to the
//! picture of its value, with colours that link the cells of one to the cells of the other, and a
//! legend that says what the colours mean.
//!
//! Each cell of a panel carries three labels — its **value** (the layout's offset there, or its
//! F2 or coordinate value), its **index** (the colexicographic 1-D coordinate `i = r + rows·c`)
//! and its **coordinate** (the natural, hierarchical coordinate of `i` in the layout's shape) —
//! so that the page can switch what the cells show without asking again.
//!
//! The links are computed with the algebra itself, on *compact stand-ins* of the operands: the
//! compact column-major layout `C_A` of `A`'s shape maps each index to itself, so the value of
//! `op(C_A, B)` at result index `i` is the index of `A` that result cell `i` reads (for
//! composition and the divides: both are `A ∘ D` for a layout `D` that depends only on `A`'s
//! shape). For the products, `op(C_A, C_B)` at `i` is `a + size(A)·k`: cell `i` is a copy of
//! `A`'s cell `a` in tile `k`, which `B`'s cell `k` places. A link that does not check out (an
//! operation the stand-ins do not reproduce) falls back to CuTe's greys by value.
//!
//! | operation | colours |
//! |---|---|
//! | `composition(A, B)` | result cell `i`, `B`'s cell `i` and `A`'s cell `B(i)` share colour `i` |
//! | `logical/zipped/tiled/flat_divide(A, T)` | every cell by the tile it falls in, in `A` and in the result; cells of a partial tile past the end of `A` white and dashed |
//! | `logical/zipped/tiled/flat/blocked/raked_product(A, B)` | tile `k` of the result and `B`'s cell `k` share colour `k` |
//! | `right_inverse(A)` | result cell `i` and `A`'s cell `R(i)` share colour `i` |
//! | `left_inverse(A)` | `A`'s cell `i` and result cell `A(i)` share colour `i` |
//! | `slice(A, c)` | result cell `j` and the cell of `A` it comes from share colour `j`; the others white |
//! | `complement(A, M)` | `A` is copy 0 of the pattern; result cell `j` marks where copy `j` starts |
//! | anything else | CuTe's 8-level grey by value: equal offsets, equal greys |
//!
//! A swizzled argument `Sw<B,M,S> o off o L` is shown twice, before (`off + L`) and after the
//! swizzle, the cells the swizzle moved outlined.

use crate::cells::INLINE_SVG_CELLS;
use crate::json::{self, json};
use cute::registry::{self, Outcome};
use cute::{ComposedLayout, IntTuple, Layout};
use std::collections::HashMap;

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
    /// let p = cute_wasm::figure::FigPanel::of("A", &"(2,3):(3,1)".parse().unwrap()).unwrap();
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
        let fill: Vec<u32> = self
            .fill
            .iter()
            .map(|&(r, g, b)| (r as u32) << 16 | (g as u32) << 8 | b as u32)
            .collect();
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
/// use cute_wasm::figure::link_colour;
/// assert_ne!(link_colour(0), link_colour(1));
/// assert!((0..64).all(|k| { let (r, g, b) = link_colour(k); !(r == g && g == b) }));
/// ```
pub fn link_colour(k: i64) -> (u8, u8, u8) {
    let h = (k.rem_euclid(1 << 20) as f64 * 0.618_033_988_75).fract();
    // lightness alternates a little by k so that two close hues still differ
    let (s, l) = (0.70, if k.rem_euclid(2) == 0 { 0.80 } else { 0.70 });
    let q = l + s - l * s;
    let p = 2.0 * l - q;
    let channel = |t: f64| {
        let t = t.rem_euclid(1.0);
        let v = if t < 1.0 / 6.0 {
            p + (q - p) * 6.0 * t
        } else if t < 0.5 {
            q
        } else if t < 2.0 / 3.0 {
            p + (q - p) * (2.0 / 3.0 - t) * 6.0
        } else {
            p
        };
        (v * 255.0).round() as u8
    };
    (channel(h + 1.0 / 3.0), channel(h), channel(h - 1.0 / 3.0))
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
                    "fill": f.map(|(r, g, b)| (r as u32) << 16 | (g as u32) << 8 | b as u32),
                    "text": t,
                })
            })
            .collect();
        json!({ "panels": panels, "legend": legend })
    }
}

const GREYS: &str =
    "cells filled with CuTe's 8-level grey by value: equal offsets, equal greys, in every picture";

/// A layout argument as a picture: a plain layout, or a swizzled one before and after.
enum Operand {
    Plain(Layout),
    Swizzled(ComposedLayout),
}

fn operand(text: &str) -> Option<Operand> {
    if let Ok(l) = text.parse::<Layout>() {
        return Some(Operand::Plain(l));
    }
    text.parse::<ComposedLayout>().ok().map(Operand::Swizzled)
}

/// The panels `before` (`off + L`) and `after` (`Sw ∘ off ∘ L`) of a swizzled layout, the cells
/// whose value the swizzle changed marked [`MARK_MOVED`] in `after`.
///
/// ```
/// let c: cute::ComposedLayout = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse().unwrap();
/// let [b, a] = cute_wasm::figure::swizzle_panels(&c).unwrap();
/// assert_eq!(b.value, ["0", "1", "2", "3"]);
/// assert_eq!(a.value, ["0", "1", "3", "2"]);
/// assert_eq!(a.mark, [0, 0, 1, 1]);
/// ```
pub fn swizzle_panels(c: &ComposedLayout) -> Option<[FigPanel; 2]> {
    let mut before = FigPanel::of("before", &c.layout)?;
    let mut after = before.clone();
    after.role = "after";
    before.title = if c.offset == 0 {
        format!("before: {}", c.layout)
    } else {
        format!("before: {} + {}", c.offset, c.layout)
    };
    after.title = format!("after: {c}");
    for k in 0..before.index.len() {
        let i = before.index[k];
        let b = c.layout.eval(i).ok()?.checked_add(c.offset)?;
        let a = c.eval(i).ok()?;
        before.value[k] = b.to_string();
        before.fill[k] = cute_draw::pictures::grey(b);
        after.value[k] = a.to_string();
        after.fill[k] = cute_draw::pictures::grey(a);
        after.mark[k] = if a != b { MARK_MOVED } else { MARK_NONE };
    }
    Some([before, after])
}

/// The bits `[lo, hi)` a contiguous mask covers.
fn bit_range(mask: i64) -> (u32, u32) {
    let lo = mask.trailing_zeros().min(63);
    (lo, lo + mask.count_ones())
}

/// The value at each index of the layout that `op` gives on `args` (`None` when the operation
/// refuses or its value is not an integer layout).
fn values_of(op: &str, args: &[&str]) -> Option<Vec<i64>> {
    let Outcome::Value(v) = registry::run(op, args) else {
        return None;
    };
    let l: Layout = v.parse().ok()?;
    if !l.is_integral() || l.size() > INLINE_SVG_CELLS {
        return None;
    }
    (0..l.size()).map(|i| l.eval(i).ok()).collect()
}

fn compact(l: &Layout) -> Option<String> {
    Some(cute::compact_col_major(&l.shape()).ok()?.to_string())
}

/// A stand-in for `A` that tells which coordinate of `A` an operation's result reads, even past
/// the end of a mode: `A`'s shape with the strides `d_l = Π_{k<l} (s_k + room)` of its leaves
/// `s_l`, so that a coordinate up to `s_l + room − 1` (a partial tile's padding, which lands in
/// the last leaf of a mode) still decodes. `room` is at least the result's size.
struct Padded {
    sizes: Vec<i64>,
    strides: Vec<i64>,
    text: String,
}

impl Padded {
    fn new(a: &Layout, room: i64) -> Option<Padded> {
        let shape = a.shape();
        let sizes: Vec<i64> = shape.leaves().to_vec();
        let mut strides = Vec::with_capacity(sizes.len());
        let mut d: i64 = 1;
        for &s in &sizes {
            strides.push(d);
            d = d.checked_mul(s.checked_add(room)?)?;
        }
        let stride = IntTuple::flat(&strides).ok()?.unflatten(&shape).ok()?;
        let text = Layout::new(&shape, &stride).ok()?.to_string();
        Some(Padded {
            sizes,
            strides,
            text,
        })
    }

    /// The index of `A` that value `v` of the stand-in stands for; `None` past `A`'s end.
    fn decode(&self, v: i64) -> Option<i64> {
        let (mut index, mut scale) = (0, 1);
        let last = self.sizes.len().checked_sub(1)?;
        for (l, (&s, &d)) in self.sizes.iter().zip(&self.strides).enumerate() {
            let c = if l == last {
                v / d
            } else {
                (v / d) % self.strides[l + 1].checked_div(d)?
            };
            if c >= s || c < 0 {
                return None;
            }
            index += c * scale;
            scale *= s;
        }
        Some(index)
    }

    /// For each index of `op(stand-in, b)`, the index of `A` it reads (`None`: past `A`'s end).
    fn sources(&self, op: &str, b: &str) -> Option<Vec<Option<i64>>> {
        let v = values_of(op, &[&self.text, b])?;
        Some(v.into_iter().map(|x| self.decode(x)).collect())
    }
}

const DIVIDES: [&str; 4] = [
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
];
const PRODUCTS: [&str; 6] = [
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
];

/// The figure of `op` on `args` whose value is `result`, or `None` when the result is not a
/// layout of at most [`INLINE_SVG_CELLS`] cells.
///
/// ```
/// let f = cute_wasm::figure::figure("composition", &["(8,8):(8,1)", "(4,2):(2,1)"], "(4,2):(16,8)").unwrap();
/// let roles: Vec<&str> = f.panels.iter().map(|p| p.role).collect();
/// assert_eq!(roles, ["A", "B", "result"]);
/// // result cell 1 (index 1) and B's cell of index 1 share a colour
/// let (a, b, r) = (&f.panels[0], &f.panels[1], &f.panels[2]);
/// assert_eq!(r.fill[r.cell_of(1).unwrap()], b.fill[b.cell_of(1).unwrap()]);
/// // ... and so does A's cell at index B(1) = 2
/// assert_eq!(r.fill[r.cell_of(1).unwrap()], a.fill[a.cell_of(2).unwrap()]);
/// ```
pub fn figure(op: &str, args: &[&str], result: &str) -> Option<Figure> {
    let r: Layout = result.parse().ok()?;
    let mut res = FigPanel::of("result", &r)?;
    res.title = format!("result: {r}");
    let mut panels = Vec::new();
    let mut legend = Vec::new();
    // the layout arguments, A and B by position
    let mut plain: Vec<Option<FigPanel>> = Vec::new();
    for (k, text) in args.iter().enumerate() {
        // A, B, then C, D, ... for operations of more arguments (make_layout)
        const ROLES: [&str; 8] = ["A", "B", "C", "D", "E", "F", "G", "H"];
        let role = ROLES.get(k).copied().unwrap_or("arg");
        match operand(text) {
            Some(Operand::Plain(l)) => {
                let p = FigPanel::of(role, &l).map(|mut p| {
                    p.title = format!("{role}: {l}");
                    p
                });
                if p.is_none() && l.size() > INLINE_SVG_CELLS {
                    legend.push((
                        None,
                        format!(
                            "{role} ({} cells) is too large to draw beside the result",
                            l.size()
                        ),
                    ));
                }
                plain.push(p);
            }
            Some(Operand::Swizzled(c)) => {
                plain.push(None);
                if let Some([b, a]) = swizzle_panels(&c) {
                    panels.push(b);
                    panels.push(a);
                    legend.push((
                        None,
                        format!(
                            "{c}: the layout's offsets before the swizzle and after it; outlined: the offsets the swizzle moved (bits [{}, {}) XORed into bits [{}, {}))",
                            bit_range(c.swizzle.yyy_mask()).0,
                            bit_range(c.swizzle.yyy_mask()).1,
                            bit_range(c.swizzle.zzz_mask()).0,
                            bit_range(c.swizzle.zzz_mask()).1
                        ),
                    ));
                }
            }
            None => plain.push(None),
        }
    }
    let a_layout = args.first().and_then(|t| t.parse::<Layout>().ok());
    let linked = match (&a_layout, plain.first().cloned().flatten()) {
        (Some(a), Some(mut pa)) => link(
            op,
            args,
            a,
            &mut pa,
            plain.get(1).cloned().flatten(),
            &mut res,
        )
        .map(|(pb, text)| (pa, pb, text)),
        _ => None,
    };
    match linked {
        Some((pa, pb, text)) => {
            panels.push(pa);
            panels.extend(pb);
            legend.splice(0..0, text);
        }
        None => {
            panels.extend(plain.into_iter().flatten());
            legend.insert(0, (None, GREYS.to_string()));
        }
    }
    panels.push(res);
    Some(Figure { panels, legend })
}

/// Colours `a`, `b` and `res` by the operation's link; `None` when there is none to draw (the
/// greys stay). Returns the `B` panel to show and the legend.
fn link(
    op: &str,
    args: &[&str],
    a: &Layout,
    pa: &mut FigPanel,
    pb: Option<FigPanel>,
    res: &mut FigPanel,
) -> Option<(Option<FigPanel>, Legend)> {
    let ca = compact(a)?;
    let n = res.index.len();
    let white = (255, 255, 255);
    if op == "composition" && args.len() == 2 {
        // result cell i reads A at index src[i]
        let src = Padded::new(a, n as i64)?.sources(op, args[1])?;
        if src.len() != n {
            return None;
        }
        pa.fill.iter_mut().for_each(|f| *f = white);
        let mut pb = pb;
        // B's cells are linked by index only when B is one layout (a tuple of tilers composes
        // mode by mode)
        if args[1]
            .parse::<cute::Tiler>()
            .ok()
            .is_some_and(|t| !t.is_single())
        {
            pb = None;
        }
        let mut outside = false;
        for (i, &s) in src.iter().enumerate() {
            let colour = link_colour(i as i64);
            let k = res.cell_of(i as i64)?;
            res.fill[k] = colour;
            if s.is_none() {
                res.mark[k] = MARK_OUTSIDE;
                outside = true;
            }
            if let Some(k) = s.and_then(|s| pa.cell_of(s)) {
                if pa.fill[k] == white {
                    pa.fill[k] = colour;
                }
            }
            if let Some(b) = pb.as_mut() {
                if b.index.len() == n {
                    let k = b.cell_of(i as i64)?;
                    b.fill[k] = colour;
                }
            }
        }
        let b_line = if pb.as_ref().is_some_and(|b| b.index.len() == n) {
            "colour i: the result's cell of index i, B's cell of index i and A's cell of index B(i): R(i) = A(B(i))"
        } else {
            "colour i: the result's cell of index i and the cell of A that it reads"
        };
        let mut legend = vec![
            (Some(link_colour(0)), b_line.to_string()),
            (
                Some(white),
                "white: a cell of A that the result does not read".to_string(),
            ),
        ];
        if outside {
            legend.push((
                None,
                "dashed: a result cell that reads past the end of A".to_string(),
            ));
        }
        return Some((pb, legend));
    }
    if DIVIDES.contains(&op) && args.len() == 2 {
        let pad = Padded::new(a, n as i64)?;
        let src = pad.sources(op, args[1])?;
        let Outcome::Value(z) = registry::run("zipped_divide", &[&pad.text, args[1]]) else {
            return None;
        };
        let z: Layout = z.parse().ok()?;
        let tile = z.mode(0).ok()?.size().max(1);
        let mut tile_of: HashMap<i64, i64> = HashMap::new();
        for j in 0..z.size() {
            if let Some(s) = pad.decode(z.eval(j).ok()?) {
                tile_of.entry(s).or_insert(j / tile);
            }
        }
        if src.len() != n {
            return None;
        }
        let mut partial = false;
        for k in 0..pa.index.len() {
            pa.fill[k] = link_colour(*tile_of.get(&pa.index[k])?);
        }
        for (i, &s) in src.iter().enumerate() {
            let k = res.cell_of(i as i64)?;
            match s {
                None => {
                    res.fill[k] = white;
                    res.mark[k] = MARK_OUTSIDE;
                    partial = true;
                }
                Some(s) => res.fill[k] = link_colour(*tile_of.get(&s)?),
            }
        }
        let mut legend = vec![(
            Some(link_colour(0)),
            format!(
                "colour k: tile k of the divide (tiles of {tile} cells, {} of them), in A and in the result",
                (z.size() / tile)
            ),
        )];
        if partial {
            legend.push((
                Some(white),
                "white, dashed: a cell of a partial tile past the end of A (the tiler does not divide A's shape)".to_string(),
            ));
        }
        if pb.is_some() {
            legend.push((
                None,
                "B: the tiler, one tile's shape, in CuTe's greys".to_string(),
            ));
        }
        return Some((pb, legend));
    }
    if PRODUCTS.contains(&op) && args.len() == 2 {
        let b: Layout = args[1].parse().ok()?;
        let cb = compact(&b)?;
        let v = values_of(op, &[&ca, &cb])?;
        let (sa, sb) = (a.size(), b.size());
        if v.len() != n || (n as i64) != sa.checked_mul(sb)? {
            return None;
        }
        // every (a, k) once: a bijection onto A × B
        let mut seen = vec![false; n];
        for &x in &v {
            if !(0..n as i64).contains(&x) || std::mem::replace(&mut seen[x as usize], true) {
                return None;
            }
        }
        for (i, &x) in v.iter().enumerate() {
            let k = res.cell_of(i as i64)?;
            res.fill[k] = link_colour(x / sa);
        }
        let mut pb = pb?;
        for k in 0..pb.index.len() {
            pb.fill[k] = link_colour(pb.index[k]);
        }
        let legend = vec![
            (
                Some(link_colour(0)),
                "colour k: tile k of the result, a copy of A placed by B's cell of index k"
                    .to_string(),
            ),
            (None, "A: the tile, in CuTe's greys".to_string()),
        ];
        return Some((Some(pb), legend));
    }
    if op == "slice" && args.len() == 2 {
        // result cell j is A's cell of index slice_offset(C_A, c) + slice(C_A, c)(j)
        let offset = |l: &str| match registry::run("slice_offset", &[l, args[1]]) {
            Outcome::Value(v) => v.parse::<i64>().ok(),
            _ => None,
        };
        let base = offset(&ca)?;
        let src = values_of(op, &[&ca, args[1]])?;
        if src.len() != n {
            return None;
        }
        pa.fill.iter_mut().for_each(|f| *f = white);
        for (j, &s) in src.iter().enumerate() {
            let colour = link_colour(j as i64);
            let k = res.cell_of(j as i64)?;
            res.fill[k] = colour;
            let c = pa.cell_of(base.checked_add(s)?)?;
            pa.fill[c] = colour;
        }
        let off = offset(args[0]).map_or(String::new(), |o| {
            format!(" (the result's offsets are relative to slice_offset = {o}, as CuTe's slice leaves it out)")
        });
        let legend = vec![
            (
                Some(link_colour(0)),
                format!("colour j: the result's cell of index j and the cell of A it comes from: the slice keeps A's modes marked _ at the given coordinate{off}"),
            ),
            (Some(white), "white: a cell of A outside the slice".to_string()),
        ];
        return Some((pb, legend));
    }
    if op == "right_inverse" && args.len() == 1 {
        // A(R(i)) = i: result cell i and A's cell of index R(i)
        pa.fill.iter_mut().for_each(|f| *f = white);
        for i in 0..n as i64 {
            let colour = link_colour(i);
            let k = res.cell_of(i)?;
            res.fill[k] = colour;
            let s = res.value[k].parse::<i64>().ok()?;
            let c = pa.cell_of(s)?;
            pa.fill[c] = colour;
        }
        let legend = vec![(
            Some(link_colour(0)),
            "colour i: the result's cell of index i and A's cell of index R(i), where A(R(i)) = i"
                .to_string(),
        )];
        return Some((pb, legend));
    }
    if op == "left_inverse" && args.len() == 1 {
        // L(A(i)) = i: A's cell i and the result's cell of index A(i)
        res.fill.iter_mut().for_each(|f| *f = white);
        for k in 0..pa.index.len() {
            let i = pa.index[k];
            let colour = link_colour(i);
            pa.fill[k] = colour;
            let o = pa.value[k].parse::<i64>().ok()?;
            if let Some(c) = res.cell_of(o) {
                res.fill[c] = colour;
            }
        }
        let legend = vec![
            (
                Some(link_colour(0)),
                "colour i: A's cell of index i and the result's cell of index A(i), where L(A(i)) = i".to_string(),
            ),
            (Some(white), "white: an index of the result that A does not reach".to_string()),
        ];
        return Some((pb, legend));
    }
    if op == "complement" {
        pa.fill.iter_mut().for_each(|f| *f = link_colour(0));
        for i in 0..n as i64 {
            let k = res.cell_of(i)?;
            res.fill[k] = link_colour(i);
        }
        let legend = vec![
            (
                Some(link_colour(0)),
                "colour j: the complement's cell of index j, the offset where copy j of A's pattern starts; A itself is copy 0".to_string(),
            ),
            (
                None,
                "(A, complement) is injective: the copies of A's offsets placed at the complement's offsets do not overlap".to_string(),
            ),
        ];
        return Some((pb, legend));
    }
    None
}

/// The figure and the TV picture of `make_layout_tv(thr, val)`, whose value is `TILE TV`: the
/// thread and value layouts beside the TV layout drawn over its tile (`cute_draw`'s TV picture,
/// whose cells list their threads for the page to isolate one). `None` when the value is not of
/// that form or the tile has more than [`INLINE_SVG_CELLS`] cells.
///
/// ```
/// let (f, svg) = cute_wasm::figure::tv_figure(&["(4,8):(8,1)", "(2,2):(2,1)"], "(8,16) ((8,4),(2,2)):((16,2),(8,1))").unwrap();
/// let roles: Vec<&str> = f.panels.iter().map(|p| p.role).collect();
/// assert_eq!(roles, ["thr", "val"]);
/// assert_eq!(svg.matches("class=\"cell\"").count(), 128);
/// ```
pub fn tv_figure(args: &[&str], value: &str) -> Option<(Figure, String)> {
    let (tile, tv) = value.split_once(' ')?;
    let tile: IntTuple = tile.parse().ok()?;
    let tv: Layout = tv.parse().ok()?;
    if tile.rank() != 2 {
        return None;
    }
    let (rows, cols) = (
        tile.get(0).ok()?.size().ok()?,
        tile.get(1).ok()?.size().ok()?,
    );
    if rows.checked_mul(cols)? > INLINE_SVG_CELLS {
        return None;
    }
    let svg = cute_draw::svg::tv_layout_svg(&tv, rows, cols, None).ok()?;
    let mut panels = Vec::new();
    for (role, text) in ["thr", "val"].into_iter().zip(args) {
        if let Ok(l) = text.parse::<Layout>() {
            if let Some(mut p) = FigPanel::of(role, &l) {
                p.title = format!("{role}: {l}");
                panels.push(p);
            }
        }
    }
    let legend = vec![
        (None, GREYS.to_string()),
        (
            Some(cute_draw::pictures::thread_colour(0)),
            format!("the TV layout {tv} over its {rows}x{cols} tile: each cell holds the thread T and value V that own it, coloured by thread (CuTe's colours); hover a cell to isolate its thread, click to keep it"),
        ),
    ];
    Some((Figure { panels, legend }, svg))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill_at(p: &FigPanel, i: i64) -> (u8, u8, u8) {
        p.fill[p.cell_of(i).unwrap()]
    }

    /// Composition: for every index i of the result, R(i) = A(B(i)) and the three cells share
    /// a colour, different from the colour of any other index (up to the palette's period).
    #[test]
    fn composition_links_result_b_and_a() {
        let (a, b) = ("(8,8):(8,1)", "((4,8),2):((16,1),8)");
        let f = figure("composition", &[a, b], "((4,8),2):((2,8),1)").unwrap();
        let (pa, pb, pr) = (&f.panels[0], &f.panels[1], &f.panels[2]);
        let al: Layout = a.parse().unwrap();
        let bl: Layout = b.parse().unwrap();
        let rl: Layout = "((4,8),2):((2,8),1)".parse().unwrap();
        for i in 0..rl.size() {
            let bi = bl.eval(i).unwrap();
            assert_eq!(rl.eval(i).unwrap(), al.eval(bi).unwrap());
            assert_eq!(fill_at(pr, i), link_colour(i));
            assert_eq!(fill_at(pb, i), link_colour(i));
            assert_eq!(fill_at(pa, bi), link_colour(i));
        }
    }

    /// A divide that does not divide: `(12,32):(32,1)` by `(5,8)` — the issue's repro. Every
    /// tile has 40 cells of A or of padding, every cell of A has the colour of its tile in both
    /// pictures, and padded cells are marked outside.
    #[test]
    fn divides_colour_by_tile_with_partial_tiles() {
        let (a, t) = ("(12,32):(32,1)", "(5,8)");
        for op in DIVIDES {
            let Outcome::Value(v) = registry::run(op, &[a, t]) else {
                panic!("{op}")
            };
            let f = figure(op, &[a, t], &v).unwrap();
            let pa = &f.panels[0];
            let pr = f.panels.last().unwrap();
            let al: Layout = a.parse().unwrap();
            // tile of A's cell (m, n): (m / 5) + 3 (n / 8) — zipped_divide's rest is colex
            for m in 0..12 {
                for n in 0..32 {
                    let i = m + 12 * n;
                    assert_eq!(
                        fill_at(pa, i),
                        link_colour(m / 5 + 3 * (n / 8)),
                        "{op} A({m},{n})"
                    );
                }
            }
            // every result cell inside A has the tile colour of the A cell with its offset
            let by_offset: HashMap<i64, (u8, u8, u8)> = (0..al.size())
                .map(|i| (al.eval(i).unwrap(), fill_at(pa, i)))
                .collect();
            let outside = pr.mark.iter().filter(|&&m| m == MARK_OUTSIDE).count();
            // 3 row-tiles of 5 (15 rows) x 4 column-tiles of 8: 15·32 − 12·32 = 96 padded cells
            assert_eq!(outside, 96, "{op}");
            for k in 0..pr.value.len() {
                if pr.mark[k] != MARK_OUTSIDE {
                    let o: i64 = pr.value[k].parse().unwrap();
                    assert_eq!(pr.fill[k], by_offset[&o], "{op} cell {k}");
                }
            }
            assert!(f.legend.iter().any(|(_, t)| t.contains("partial tile")));
        }
    }

    /// Products: tile k of the result is coloured as B's cell k, and holds A's offsets shifted.
    #[test]
    fn products_colour_tiles_as_b() {
        let (a, b) = ("(2,2):(1,2)", "(2,3):(3,1)");
        for op in PRODUCTS {
            let Outcome::Value(v) = registry::run(op, &[a, b]) else {
                panic!("{op}")
            };
            let f = figure(op, &[a, b], &v).unwrap();
            let (pb, pr) = (&f.panels[1], &f.panels[2]);
            assert_eq!(pb.role, "B");
            for k in 0..6 {
                assert_eq!(fill_at(pb, k), link_colour(k));
                // tile k holds 4 cells
                let count = pr.fill.iter().filter(|&&c| c == link_colour(k)).count();
                assert_eq!(count, 4, "{op} tile {k}");
            }
        }
        // logical_product: result index a + 4k is tile k
        let f = figure("logical_product", &[a, b], "((2,2),(2,3)):((1,2),(12,4))").unwrap();
        let pr = &f.panels[2];
        for i in 0..24 {
            assert_eq!(fill_at(pr, i), link_colour(i / 4));
        }
    }

    #[test]
    fn inverses_link_through_the_definition() {
        let a = "(4,8):(8,1)";
        let Outcome::Value(r) = registry::run("right_inverse", &[a]) else {
            panic!()
        };
        let f = figure("right_inverse", &[a], &r).unwrap();
        let (pa, pr) = (&f.panels[0], &f.panels[1]);
        let al: Layout = a.parse().unwrap();
        let rl: Layout = r.parse().unwrap();
        for i in 0..rl.size() {
            let s = rl.eval(i).unwrap();
            assert_eq!(al.eval(s).unwrap(), i);
            assert_eq!(fill_at(pa, s), fill_at(pr, i));
            assert_eq!(fill_at(pr, i), link_colour(i));
        }
        let Outcome::Value(l) = registry::run("left_inverse", &[a]) else {
            panic!()
        };
        let f = figure("left_inverse", &[a], &l).unwrap();
        let (pa, pr) = (&f.panels[0], &f.panels[1]);
        for i in 0..al.size() {
            assert_eq!(fill_at(pa, i), link_colour(i));
            assert_eq!(fill_at(pr, al.eval(i).unwrap()), link_colour(i));
        }
    }

    /// For every rank-2 `A` of shape `(m, n)` (m, n ≤ 7, column- and row-major) and tiler
    /// `(t0, t1)` (≤ 4, dividing or not), recomputed from the definition of a by-mode divide:
    /// A's cell `(r, c)` is in tile `r / t0 + ⌈m / t0⌉ · (c / t1)`, and the result has
    /// `⌈m/t0⌉·t0 · ⌈n/t1⌉·t1 − m·n` cells of padding.
    #[test]
    fn divides_by_mode_agree_with_the_definition() {
        for (m, n) in (1..=7).flat_map(|m| (1..=7).map(move |n| (m, n))) {
            for (t0, t1) in (1..=4).flat_map(|a| (1..=4).map(move |b| (a, b))) {
                for a in [format!("({m},{n}):(1,{m})"), format!("({m},{n}):({n},1)")] {
                    let t = format!("({t0},{t1})");
                    let Outcome::Value(v) = registry::run("logical_divide", &[&a, &t]) else {
                        panic!("{a} / {t}")
                    };
                    let Some(f) = figure("logical_divide", &[&a, &t], &v) else {
                        continue; // a result of more than INLINE_SVG_CELLS cells
                    };
                    let pa = &f.panels[0];
                    let pr = f.panels.last().unwrap();
                    let rows = (m + t0 - 1) / t0;
                    for r in 0..m {
                        for c in 0..n {
                            let tile = r / t0 + rows * (c / t1);
                            assert_eq!(
                                fill_at(pa, r + m * c),
                                link_colour(tile),
                                "{a} / {t} at ({r},{c})"
                            );
                        }
                    }
                    let padding = rows * t0 * ((n + t1 - 1) / t1) * t1 - m * n;
                    let outside = pr.mark.iter().filter(|&&k| k == MARK_OUTSIDE).count() as i64;
                    assert_eq!(outside, padding, "{a} / {t}");
                    assert_eq!(pr.index.len() as i64 - outside, m * n, "{a} / {t}");
                }
            }
        }
    }

    /// Every operation on a few operands of every kind answers without a panic, and a figure's
    /// panels have as many labels of each kind as cells.
    #[test]
    fn every_operation_answers_with_a_well_formed_figure() {
        let args = [
            "(4,8):(1,4)",
            "(3,5):(5,1)",
            "((2,2),3):((1,6),2)",
            "8:2",
            "(5,8)",
            "(4,4):(F1,F5)",
            "(4,8):(1@0,1@1)",
            "Sw<2,0,2> o 0 o (4,4):(4,1)",
            "(2,2):(0,1)",
            "4",
        ];
        for op in registry::operations() {
            let (lo, hi) = op.arity();
            if lo > 2 {
                continue;
            }
            for x in args {
                for y in args {
                    let a: Vec<&str> = if lo <= 1 && hi >= 1 && y == args[0] {
                        vec![x]
                    } else if hi >= 2 {
                        vec![x, y]
                    } else {
                        continue;
                    };
                    let mut request = format!("run\n{}", op.name);
                    for t in &a {
                        request.push('\n');
                        request.push_str(t);
                    }
                    let answer: serde_json::Value = serde_json::from_str(&crate::handle(&request))
                        .unwrap_or_else(|e| panic!("{request:?}: {e}"));
                    for p in answer["figure"]["panels"].as_array().into_iter().flatten() {
                        let cells =
                            (p["rows"].as_i64().unwrap() * p["cols"].as_i64().unwrap()) as usize;
                        for key in ["value", "index", "coord", "fill", "mark"] {
                            assert_eq!(
                                p[key].as_array().unwrap().len(),
                                cells,
                                "{request:?} {key}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn slices_colour_the_cells_of_a_they_keep() {
        let (a, c) = ("((2,2),8):((1,16),2)", "((1,_),_)");
        let Outcome::Value(r) = registry::run("slice", &[a, c]) else {
            panic!()
        };
        let f = figure("slice", &[a, c], &r).unwrap();
        let (pa, pr) = (&f.panels[0], &f.panels[1]);
        // the slice ((1,_),_): A's cells of mode-0 coordinate (1, m) and column n, i.e. index
        // 1 + 2m + 4n, are result cell m + 2n
        for m in 0..2 {
            for n in 0..8 {
                assert_eq!(fill_at(pa, 1 + 2 * m + 4 * n), link_colour(m + 2 * n));
                assert_eq!(fill_at(pr, m + 2 * n), link_colour(m + 2 * n));
                assert_eq!(fill_at(pa, 2 * m + 4 * n), (255, 255, 255));
            }
        }
        assert!(f.legend[0].1.contains("slice_offset = 1"), "{:?}", f.legend);
    }

    #[test]
    fn complement_colours_each_copy_of_a() {
        let a = "(2,2):(1,6)";
        let Outcome::Value(r) = registry::run("complement", &[a, "24"]) else {
            panic!()
        };
        let f = figure("complement", &[a, "24"], &r).unwrap();
        let (pa, pr) = (&f.panels[0], &f.panels[1]);
        assert!(pa.fill.iter().all(|&c| c == link_colour(0)));
        let al: Layout = a.parse().unwrap();
        let rl: Layout = r.parse().unwrap();
        let mut seen = std::collections::HashSet::new();
        for j in 0..rl.size() {
            assert_eq!(fill_at(pr, j), link_colour(j));
            // copy j of A's offsets, at R(j), overlaps no other copy
            for i in 0..al.size() {
                assert!(seen.insert(al.eval(i).unwrap() + rl.eval(j).unwrap()));
            }
        }
    }

    #[test]
    fn other_operations_keep_the_greys_and_swizzles_show_before_and_after() {
        let f = figure("coalesce", &["(4,8):(8,1)"], "(4,8):(8,1)").unwrap();
        assert_eq!(f.panels.len(), 2);
        assert_eq!(f.panels[1].fill[1], cute_draw::pictures::grey(1));
        assert!(f.legend[0].1.contains("grey"));
        let sw = "Sw<3,3,3> o 0 o (8,64):(64,1)";
        let Outcome::Value(v) = registry::run("f2_layout", &[sw]) else {
            panic!()
        };
        let f = figure("f2_layout", &[sw], &v).unwrap();
        let roles: Vec<&str> = f.panels.iter().map(|p| p.role).collect();
        assert_eq!(roles, ["before", "after", "result"]);
        assert!(
            f.legend
                .iter()
                .any(|(_, t)| t.contains("bits [6, 9) XORed into bits [3, 6)")),
            "{:?}",
            f.legend
        );
        let c: ComposedLayout = sw.parse().unwrap();
        let (b, a) = (&f.panels[0], &f.panels[1]);
        for k in 0..512 {
            let i = b.index[k];
            assert_eq!(b.value[k], c.layout.eval(i).unwrap().to_string());
            assert_eq!(a.value[k], c.eval(i).unwrap().to_string());
            assert_eq!(a.mark[k] == MARK_MOVED, a.value[k] != b.value[k]);
        }
        // row 0 is not moved (its row bits are 0); row 1's 8-element chunks are XORed with 1
        assert_eq!(a.value[64..72].join(","), "72,73,74,75,76,77,78,79");
        // a result too large for the figure gives none; a value that is not a layout neither
        assert!(figure("coalesce", &["(64,64):(64,1)"], "(64,64):(64,1)").is_none());
        assert!(figure("size", &["(4,8):(1,4)"], "32").is_none());
        let f = figure("make_layout", &["4:1", "2:4", "3:8"], "(4,2,3):(1,4,8)").unwrap();
        let roles: Vec<&str> = f.panels.iter().map(|p| p.role).collect();
        assert_eq!(roles, ["A", "B", "C", "result"]);
    }
}
