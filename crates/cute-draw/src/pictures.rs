//! The pictures, as [`Scene`]s: a layout coloured by offset or by shared-memory bank, a
//! thread-value layout, an MMA atom (A, B and C around each other), a copy atom (source next to
//! destination), a tiled MMA and a tiled copy as `print_latex` draws them (the same pictures over
//! the tiled values' thread-value layouts), a swizzled tile with its conflicting accesses marked, a
//! slice highlighted inside its layout, and a layout coloured tile by tile (products and divides).
//!
//! Every function takes layouts: which instruction or operation they come from is the caller's
//! business (the `cute` command keeps a small table of atoms; the paper gallery computes products
//! and divides with the core crate).

mod banks;
mod thread_value;
mod tiled;
mod tiles;

pub use banks::{bank_colour, bank_of, banks, swizzle_conflicts, ConflictPicture};
pub(crate) use thread_value::check_panels;
pub use thread_value::{
    align_titles, copy, mma, tv_cell_owners, tv_layout, tv_owners, tv_shape, Owner,
};
pub use tiled::{copy_tile, tiled_copy, tiled_mma};
pub use tiles::{divide, divide_tiles, tiles, DivideTiles};

use crate::grid::{DrawError, Grid, MAX_CELLS};
use crate::scene::{Cell, Mark, Panel, Rgb, Scene};
use cute::{ComposedLayout, Layout, PartialCoord};

/// CuTe's 8-level grey for offset `i` (`TikzColor_BWx8`: `black!00`, `black!40`, `black!20`,
/// `black!60`, `black!10`, `black!50`, `black!30`, `black!70` by `i mod 8`), as an RGB value.
///
/// ```
/// assert_eq!(cute_draw::pictures::grey(0), (255, 255, 255));
/// assert_eq!(cute_draw::pictures::grey(3), (102, 102, 102));
/// assert_eq!(cute_draw::pictures::grey(8), (255, 255, 255));
/// ```
pub fn grey(i: i64) -> Rgb {
    const BLACK_PERCENT: [u32; 8] = [0, 40, 20, 60, 10, 50, 30, 70];
    let p = BLACK_PERCENT[i.rem_euclid(8) as usize];
    let v = (255 * (100 - p) / 100) as u8;
    (v, v, v)
}

/// CuTe's thread colours (`TikzColor_TV`, by thread mod 8), as RGB values.
///
/// ```
/// assert_eq!(cute_draw::pictures::thread_colour(0), (175, 175, 255));
/// assert_eq!(cute_draw::pictures::thread_colour(9), (175, 255, 175));
/// ```
pub fn thread_colour(t: i64) -> Rgb {
    const MAP: [Rgb; 8] = [
        (175, 175, 255),
        (175, 255, 175),
        (255, 255, 175),
        (255, 175, 175),
        (210, 210, 255),
        (210, 255, 210),
        (255, 255, 210),
        (255, 210, 210),
    ];
    MAP[t.rem_euclid(8) as usize]
}

/// The colour of tile `i` in pictures of products and divides: 12 distinct light colours, by
/// `i mod 12`.
///
/// ```
/// use cute_draw::pictures::tile_colour;
/// assert_ne!(tile_colour(0), tile_colour(1));
/// assert_eq!(tile_colour(12), tile_colour(0));
/// ```
pub fn tile_colour(i: i64) -> Rgb {
    const MAP: [Rgb; 12] = [
        (141, 211, 199),
        (255, 255, 179),
        (190, 186, 218),
        (251, 128, 114),
        (128, 177, 211),
        (253, 180, 98),
        (179, 222, 105),
        (252, 205, 229),
        (217, 217, 217),
        (188, 128, 189),
        (204, 235, 197),
        (255, 237, 111),
    ];
    MAP[i.rem_euclid(12) as usize]
}

/// The layout of a swizzled layout without a swizzle or an offset (`Sw<0,0,0> o 0 o L` is `L`).
fn plain(c: &ComposedLayout) -> Option<Layout> {
    (c.swizzle.is_identity() && c.offset == 0).then_some(c.layout)
}

fn title_of(c: &ComposedLayout) -> String {
    match plain(c) {
        Some(l) => l.to_string(),
        None => c.to_string(),
    }
}

/// A layout: each cell labelled with its offset and filled with [`grey`].
///
/// ```
/// let s = cute_draw::pictures::layout(&"(4,8):(1,4)".parse().unwrap()).unwrap();
/// assert_eq!(s.panels[0].cell(1, 2).label, vec!["9".to_string()]);
/// ```
///
/// A layout with F2 strides (a swizzle written as a layout) is drawn by its values, which are
/// offsets too (XOR-linear): each cell labelled with the value as an integer and filled with
/// [`grey`] of it. A layout with coordinate strides (`1@0`, an identity tensor's layout) is drawn
/// with the coordinate in each cell, `(1,3)` as CuTe prints an identity tensor, filled with
/// [`tile_colour`] of the coordinate's colexicographic index in the box of all its values (equal
/// values, equal colours).
///
/// ```
/// let s = cute_draw::pictures::layout(&"(4,8):(F1,F5)".parse().unwrap()).unwrap();
/// assert_eq!(s.panels[0].cell(1, 1).label, vec!["4".to_string()]); // 1 xor 5
/// let s = cute_draw::pictures::layout(&"(4,8):(1@0,1@1)".parse().unwrap()).unwrap();
/// assert_eq!(s.panels[0].cell(1, 3).label, vec!["(1,3)".to_string()]);
/// ```
pub fn layout(l: &Layout) -> Result<Scene, DrawError> {
    if !l.is_integral() {
        return value_layout(l);
    }
    let g = Grid::latex(l)?;
    Ok(grid_scene(&noted(l.to_string(), l), &g, |v| {
        Cell::text(grey(v), v.to_string())
    }))
}

/// A layout whose values are not integers (F2 or coordinate strides), as [`layout`] says.
fn value_layout(l: &Layout) -> Result<Scene, DrawError> {
    let v = value_labels(l, true)?;
    let longest = v
        .labels
        .iter()
        .map(|s| s.chars().count() as i64)
        .max()
        .unwrap_or(1);
    let panel = Panel::new(noted(l.to_string(), l), v.rows, v.cols, |r, c| {
        let i = (r + v.rows * c) as usize;
        Cell::text(v.fills[i], v.labels[i].clone())
    });
    let w = panel.cell_w.max(8 * longest + 8);
    Ok(Scene::single(panel.with_cell_width(w)))
}

/// The values of a layout on its grid as labels with their fills: what [`layout`] draws and
/// [`crate::table::print_layout`] prints for a layout whose strides are not integers.
pub(crate) struct ValueLabels {
    /// Rows: the size of mode 0 (for a rank-1 layout, its size when `column`, else 1).
    pub rows: i64,
    /// Columns: the product of the sizes of the other modes.
    pub cols: i64,
    /// The label of each cell, in index order (`r + rows·c`).
    pub labels: Vec<String>,
    /// The fill of each cell, in index order.
    pub fills: Vec<Rgb>,
}

/// [`ValueLabels`] of `l`: an F2 value (or an integer) as the integer of its bits on [`grey`] of
/// it; a coordinate `(1,3)` as CuTe prints an identity tensor, on [`tile_colour`] of its
/// colexicographic index in the box of all the values (equal values, equal colours); a coordinate
/// with nested positions in CuTe notation on white. A rank-1 layout is one column when `column`
/// (as pictures draw it), else one row (as tables print it).
pub(crate) fn value_labels(l: &Layout, column: bool) -> Result<ValueLabels, DrawError> {
    let n = l.size();
    if n > MAX_CELLS {
        return Err(DrawError::TooLarge {
            layout: l.to_string(),
            cells: n,
        });
    }
    let rows = match (l.rank(), column) {
        (1, true) => n,
        (1, false) => 1,
        _ => l.mode(0)?.size(),
    };
    let cols = n / rows.max(1);
    let mut values = Vec::with_capacity(n as usize);
    for i in 0..n {
        values.push(l.eval_value(i)?);
    }
    // coordinates: the positions (flat paths) they span and the extent of each
    let mut extent: Vec<i64> = Vec::new();
    let mut flat = true;
    for v in &values {
        if let cute::Value::Coord(t) = v {
            for k in 0..t.terms() {
                let (c, path, depth) = t.term(k);
                if depth != 1 {
                    flat = false;
                    continue;
                }
                if extent.len() <= path[0] {
                    extent.resize(path[0] + 1, 1);
                }
                extent[path[0]] = extent[path[0]].max(c.saturating_add(1));
            }
        }
    }
    let cell = |v: &cute::Value| -> (Rgb, String) {
        match v {
            cute::Value::Int(x) => (grey(*x), x.to_string()),
            cute::Value::F2(bits) => {
                let x = *bits as i64;
                (grey(x), x.to_string())
            }
            cute::Value::Coord(t) if flat => {
                let parts: Vec<i64> = (0..extent.len()).map(|k| t.get(&[k])).collect();
                let mut index = 0i64;
                for (k, &x) in parts.iter().enumerate().rev() {
                    index = index.saturating_mul(extent[k]).saturating_add(x);
                }
                let text: Vec<String> = parts.iter().map(i64::to_string).collect();
                let label = if parts.len() == 1 {
                    text[0].clone()
                } else {
                    format!("({})", text.join(","))
                };
                (tile_colour(index), label)
            }
            other => ((255, 255, 255), other.to_string()),
        }
    };
    let (fills, labels) = values.iter().map(cell).unzip();
    Ok(ValueLabels {
        rows,
        cols,
        labels,
        fills,
    })
}

/// `title`, and for a layout of rank 3 or more the note that its modes 1.. are folded into the
/// columns ([`Grid::fold_note`]).
fn noted(title: String, l: &Layout) -> String {
    match Grid::fold_note(l) {
        Some(note) => format!("{title} ({note})"),
        None => title,
    }
}

fn grid_scene(title: &str, g: &Grid, cell: impl Fn(i64) -> Cell) -> Scene {
    Scene::single(Panel::new(title, g.rows, g.cols, |r, c| cell(g.at(r, c))))
}

/// A swizzled layout `Sw<B,M,S> o OFF o L` by offset: the rows and columns of `L`, each cell
/// the composed layout's offset there, filled with [`grey`] of it (as [`layout`] draws `L`).
///
/// ```
/// let c: cute::ComposedLayout = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse().unwrap();
/// let s = cute_draw::pictures::composed(&c).unwrap();
/// assert_eq!(s.panels[0].cell(1, 0).label, vec!["3".to_string()]);
/// ```
pub fn composed(c: &ComposedLayout) -> Result<Scene, DrawError> {
    let g = Grid::composed_latex(c)?;
    Ok(grid_scene(&noted(title_of(c), &c.layout), &g, |v| {
        Cell::text(grey(v), v.to_string())
    }))
}

/// The coordinate indices (colexicographic, `m + rows·n` for rank 2) of the cells of `l` that the
/// partial coordinate `c` selects: the image of the slice of `l`'s compact column-major layout
/// (a bijection from coordinates to indices), so the answer comes from the algebra's `slice`.
///
/// ```
/// let l: cute::Layout = "(4,3):(3,1)".parse().unwrap();
/// let cells = cute_draw::pictures::slice_cells(&l, &"(_,1)".parse().unwrap()).unwrap();
/// assert_eq!(cells, vec![4, 5, 6, 7]);
/// ```
pub fn slice_cells(l: &Layout, c: &PartialCoord) -> Result<Vec<i64>, DrawError> {
    let index = cute::compact_col_major(&l.shape())?;
    let (s, off) = cute::slice_and_offset(&index, c)?;
    let n = s.size();
    if n > MAX_CELLS {
        return Err(DrawError::TooLarge {
            layout: s.to_string(),
            cells: n,
        });
    }
    let mut v = Vec::with_capacity(n as usize);
    for j in 0..n {
        v.push(off + s.eval(j)?);
    }
    v.sort_unstable();
    Ok(v)
}

/// A layout with the cells of a slice outlined: `l` as in [`layout`], the cells that `c` selects
/// ([`slice_cells`]) outlined; the title names the slice's layout and offset. A layout with F2 or
/// coordinate strides is labelled by its values as [`layout`] labels it, and the offset is a value
/// too (a coordinate for coordinate strides).
///
/// ```
/// let l: cute::Layout = "(4,3):(3,1)".parse().unwrap();
/// let s = cute_draw::pictures::slice(&l, &"(2,_)".parse().unwrap()).unwrap();
/// assert_eq!(s.panels[0].cells.iter().filter(|c| c.mark == cute_draw::scene::Mark::Outline).count(), 3);
/// let id: cute::Layout = "(4,3):(1@0,1@1)".parse().unwrap();
/// let s = cute_draw::pictures::slice(&id, &"(_,1)".parse().unwrap()).unwrap();
/// assert_eq!(s.panels[0].cell(2, 1).label, vec!["(2,1)".to_string()]);
/// assert!(s.panels[0].title.ends_with("sliced at (_,1): 1@1 + (4):(1@0)"), "{}", s.panels[0].title);
/// ```
pub fn slice(l: &Layout, c: &PartialCoord) -> Result<Scene, DrawError> {
    // the labels and fills of the cells in index order (`r + rows·c`), and the slice of `l`
    // itself first, so that a refusal names `l` (not its index layout)
    let (rows, cols, labels, fills, title) = if l.is_integral() {
        let g = Grid::latex(l)?;
        let (s, off) = cute::slice_and_offset(l, c)?;
        let mut labels = vec![String::new(); g.values.len()];
        let mut fills = vec![(0, 0, 0); g.values.len()];
        for r in 0..g.rows {
            for k in 0..g.cols {
                let v = g.at(r, k);
                labels[(r + g.rows * k) as usize] = v.to_string();
                fills[(r + g.rows * k) as usize] = grey(v);
            }
        }
        (
            g.rows,
            g.cols,
            labels,
            fills,
            format!("{l} sliced at {c}: {off} + {s}"),
        )
    } else {
        let v = value_labels(l, true)?;
        let (s, off) = cute::slice_and_value(l, c)?;
        let title = format!("{l} sliced at {c}: {off} + {s}");
        (v.rows, v.cols, v.labels, v.fills, title)
    };
    let cells = slice_cells(l, c)?;
    let mut on = vec![false; (rows * cols) as usize];
    for &i in &cells {
        on[i as usize] = true;
    }
    let longest = labels.iter().map(|s| s.chars().count() as i64).max();
    let panel = Panel::new(noted(title, l), rows, cols, |r, col| {
        let i = (r + rows * col) as usize;
        Cell {
            fill: if on[i] { (255, 210, 160) } else { fills[i] },
            label: vec![labels[i].clone()],
            mark: if on[i] { Mark::Outline } else { Mark::Plain },
            attrs: Vec::new(),
        }
    });
    // labels wider than a cell (coordinates) widen the cells, as `layout` does
    let w = if l.is_integral() {
        panel.cell_w
    } else {
        panel.cell_w.max(8 * longest.unwrap_or(1) + 8)
    };
    Ok(Scene::single(panel.with_cell_width(w)))
}
