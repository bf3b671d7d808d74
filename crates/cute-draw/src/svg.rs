//! SVG pictures: a layout's cells labelled with its offsets, and a thread-value layout's cells
//! labelled `T#`/`V#`, each laid out as CuTe's `print_latex` draws them (row `m` downwards, column
//! `n` to the right, indices along the top and the left).

use crate::grid::{DrawError, Grid};
use cute::Layout;

/// Cell edge in SVG units.
pub const CELL: i64 = 40;

/// CuTe's 8-level grey for offset `i` (`TikzColor_BWx8`: `black!00`, `black!40`, `black!20`,
/// `black!60`, `black!10`, `black!50`, `black!30`, `black!70` by `i mod 8`), as an RGB value.
///
/// ```
/// assert_eq!(cute_draw::svg::grey(0), (255, 255, 255));
/// assert_eq!(cute_draw::svg::grey(3), (102, 102, 102));
/// assert_eq!(cute_draw::svg::grey(8), (255, 255, 255));
/// ```
pub fn grey(i: i64) -> (u8, u8, u8) {
    const BLACK_PERCENT: [u32; 8] = [0, 40, 20, 60, 10, 50, 30, 70];
    let p = BLACK_PERCENT[i.rem_euclid(8) as usize];
    let v = (255 * (100 - p) / 100) as u8;
    (v, v, v)
}

/// CuTe's thread colours (`TikzColor_TV`, by thread mod 8), as RGB values.
///
/// ```
/// assert_eq!(cute_draw::svg::thread_colour(0), (175, 175, 255));
/// assert_eq!(cute_draw::svg::thread_colour(9), (175, 255, 175));
/// ```
pub fn thread_colour(t: i64) -> (u8, u8, u8) {
    const MAP: [(u8, u8, u8); 8] = [
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

fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// One cell: its fill, its label lines and whether it is outlined.
struct Cell {
    fill: (u8, u8, u8),
    label: Vec<String>,
    outline: bool,
}

fn picture(title: &str, rows: i64, cols: i64, cell: impl Fn(i64, i64) -> Cell) -> String {
    let (w, h) = ((cols + 1) * CELL, (rows + 1) * CELL + 20);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"monospace\" font-size=\"12\" text-anchor=\"middle\" dominant-baseline=\"central\">\n"
    );
    s += &format!("<title>{}</title>\n", escape(title));
    s += &format!("<text x=\"{}\" y=\"10\">{}</text>\n", w / 2, escape(title));
    let (x0, y0) = (CELL, CELL + 20);
    for c in 0..cols {
        s += &format!(
            "<text x=\"{}\" y=\"{}\" class=\"col\">{c}</text>\n",
            x0 + c * CELL + CELL / 2,
            y0 - CELL / 2
        );
    }
    for r in 0..rows {
        s += &format!(
            "<text x=\"{}\" y=\"{}\" class=\"row\">{r}</text>\n",
            x0 - CELL / 2,
            y0 + r * CELL + CELL / 2
        );
        for c in 0..cols {
            let k = cell(r, c);
            let (x, y) = (x0 + c * CELL, y0 + r * CELL);
            s += &format!(
                "<rect class=\"cell\" data-row=\"{r}\" data-col=\"{c}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>\n",
                hex(k.fill),
                if k.outline { "#d00000" } else { "#000000" },
                if k.outline { 3 } else { 1 }
            );
            let n = k.label.len() as i64;
            for (i, line) in k.label.iter().enumerate() {
                let dy = (2 * i as i64 - (n - 1)) * 7;
                s += &format!(
                    "<text class=\"label\" x=\"{}\" y=\"{}\">{}</text>\n",
                    x + CELL / 2,
                    y + CELL / 2 + dy,
                    escape(line)
                );
            }
        }
    }
    s += "</svg>\n";
    s
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The SVG of a layout: one cell per coordinate (rows: mode 0; columns: the other modes, folded
/// colexicographically), labelled with its offset and filled with [`grey`] of the offset.
///
/// ```
/// let svg = cute_draw::svg::layout_svg(&"(4,8):(1,4)".parse().unwrap()).unwrap();
/// assert_eq!(svg.matches("class=\"cell\"").count(), 32);
/// assert!(svg.contains(">31</text>"));
/// ```
pub fn layout_svg(l: &Layout) -> Result<String, DrawError> {
    let g = Grid::new(l)?;
    Ok(picture(&l.to_string(), g.rows, g.cols, |r, c| {
        let v = g.at(r, c);
        Cell {
            fill: grey(v),
            label: vec![v.to_string()],
            outline: false,
        }
    }))
}

/// The SVG of a thread-value layout `tv: (thread, value) ↦ coordinate` of an `rows × cols`
/// tile (coordinate index `m + rows·n`): each cell holds the thread and value that own it,
/// coloured by [`thread_colour`]; the cells of `highlight` are outlined. A cell owned by no
/// thread stays white; a cell owned by several shows the first owner and a `+`.
///
/// ```
/// // the C layout of mma.sync m16n8k16: 16 x 8, thread 5 outlined
/// let tv: cute::Layout = "((4,8),(2,2)):((32,1),(16,8))".parse().unwrap();
/// let svg = cute_draw::svg::tv_layout_svg(&tv, 16, 8, Some(5)).unwrap();
/// assert_eq!(svg.matches("class=\"cell\"").count(), 128);
/// assert_eq!(svg.matches("stroke=\"#d00000\"").count(), 4);
/// assert!(svg.contains(">T5</text>"));
/// ```
pub fn tv_layout_svg(
    tv: &Layout,
    rows: i64,
    cols: i64,
    highlight: Option<i64>,
) -> Result<String, DrawError> {
    let owners = tv_owners(tv, rows, cols)?;
    let title = format!("{tv} over {rows}x{cols}");
    Ok(picture(&title, rows, cols, |r, c| {
        match &owners[(r + rows * c) as usize] {
            Some((t, v, more)) => Cell {
                fill: thread_colour(*t),
                label: vec![
                    format!("T{t}{}", if *more { "+" } else { "" }),
                    format!("V{v}"),
                ],
                outline: highlight == Some(*t),
            },
            None => Cell {
                fill: (255, 255, 255),
                label: Vec::new(),
                outline: false,
            },
        }
    }))
}

/// Who owns a cell of a thread-value layout's tile: the first `(thread, value)` that maps to it
/// and whether another does too; `None` when no thread does.
pub type Owner = Option<(i64, i64, bool)>;

/// For each coordinate of the `rows × cols` tile, its [`Owner`] under `tv`.
pub fn tv_owners(tv: &Layout, rows: i64, cols: i64) -> Result<Vec<Owner>, DrawError> {
    let n = rows * cols;
    if n > crate::grid::MAX_CELLS {
        return Err(DrawError::TooLarge {
            layout: tv.to_string(),
            cells: n,
        });
    }
    let threads = tv.mode(0)?.size()?;
    let size = tv.size()?;
    // every (thread, value) is visited once: bounded like the cells (a tile's TV layout may
    // repeat each cell a few times, not without bound)
    if size > 8 * crate::grid::MAX_CELLS {
        return Err(DrawError::TooLarge {
            layout: tv.to_string(),
            cells: size,
        });
    }
    let mut owners: Vec<Owner> = vec![None; n as usize];
    for i in 0..size {
        let x = tv.eval(i)?;
        if !(0..n).contains(&x) {
            return Err(DrawError::OutsideTile {
                layout: tv.to_string(),
                index: i,
                coordinate: x,
                cells: n,
            });
        }
        let (t, v) = (i % threads, i / threads);
        match &mut owners[x as usize] {
            Some((_, _, more)) => *more = true,
            slot @ None => *slot = Some((t, v, false)),
        }
    }
    Ok(owners)
}
