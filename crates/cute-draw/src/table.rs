//! CuTe C++'s `print_layout` console table.
//!
//! The format, as CuTe prints it: the layout on the first line; a header of column indices; for
//! every row a separator `+---…` and the row `%2d  | v | v |`, each cell `idx_width` characters
//! wide where `idx_width` is the number of decimal digits of the cosize plus 2; a final separator.
//! Layouts with F2 or coordinate strides, which C++'s `print_layout` does not print, print their
//! values as the pictures label them.

use crate::grid::{DrawError, Grid};
use cute::Layout;

fn digits(x: i64) -> usize {
    x.unsigned_abs().to_string().len()
}

/// The `print_layout` table of `l` (see the [module](self) documentation). Rank-2 layouts print
/// exactly as CuTe C++ prints them; a rank-1 layout prints as one row; higher ranks fold modes 1..
/// into the columns and say so on a second line. A layout with F2 strides prints its values (the
/// integers of their bits), one with coordinate strides its coordinates as CuTe prints an identity
/// tensor's, `(1,3)`; their cells are as wide as the longest value and two spaces ([`cells`]).
///
/// ```
/// let l: cute::Layout = "(2,2):(1,2)".parse().unwrap();
/// assert_eq!(
///     cute_draw::table::print_layout(&l).unwrap(),
///     "(2,2):(1,2)\n      0   1 \n    +---+---+\n 0  | 0 | 2 |\n    +---+---+\n 1  | 1 | 3 |\n    +---+---+\n"
/// );
/// let l: cute::Layout = "(2,2):(1@0,1@1)".parse().unwrap();
/// let t = cute_draw::table::print_layout(&l).unwrap();
/// assert_eq!(t.lines().nth(3), Some(" 0  | (0,0) | (0,1) |"));
/// ```
pub fn print_layout(l: &Layout) -> Result<String, DrawError> {
    table(l, false)
}

/// [`print_layout`] for a terminal: each cell (the text between two `|`) on the background of
/// CuTe's grey of its offset ([`crate::pictures::grey`], the palette of the pictures), in black
/// on the light greys and white on the dark ones, with ANSI 24-bit colour escapes. Without the
/// escapes it is [`print_layout`], character for character.
///
/// ```
/// let l: cute::Layout = "(1,2):(1,1)".parse().unwrap();
/// let t = cute_draw::table::print_layout_coloured(&l).unwrap();
/// assert!(t.contains("|\x1b[48;2;255;255;255;38;2;0;0;0m 0 \x1b[0m|\x1b[48;2;153;153;153;38;2;0;0;0m 1 \x1b[0m|"));
/// ```
pub fn print_layout_coloured(l: &Layout) -> Result<String, DrawError> {
    table(l, true)
}

/// The `print_layout` table of a swizzled layout `Sw<B,M,S> o OFF o L`: the rows and columns
/// of `L`, each cell the composed layout's value there (as CuTe prints a `ComposedLayout`).
///
/// ```
/// let c: cute::ComposedLayout = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse().unwrap();
/// let t = cute_draw::table::print_composed(&c).unwrap();
/// assert_eq!(t.lines().next(), Some("Sw<1,0,1> o 0 o (2,2):(2,1)"));
/// assert_eq!(t.lines().nth(5), Some(" 1  | 3 | 2 |"));
/// ```
pub fn print_composed(c: &cute::ComposedLayout) -> Result<String, DrawError> {
    render(&c.to_string(), &c.layout, &Grid::composed(c)?, false)
}

/// [`print_composed`] for a terminal, coloured as [`print_layout_coloured`].
pub fn print_composed_coloured(c: &cute::ComposedLayout) -> Result<String, DrawError> {
    render(&c.to_string(), &c.layout, &Grid::composed(c)?, true)
}

/// The texts of the cells of [`print_layout`]'s table of `l`, row by row: offsets for integer
/// and F2 strides, coordinates in CuTe notation for coordinate strides.
///
/// ```
/// let l: cute::Layout = "(2,2):(1@0,1@1)".parse().unwrap();
/// assert_eq!(cute_draw::table::cells(&l).unwrap(), [["(0,0)", "(0,1)"], ["(1,0)", "(1,1)"]]);
/// let l: cute::Layout = "(2,2):(F1,F3)".parse().unwrap();
/// assert_eq!(cute_draw::table::cells(&l).unwrap(), [["0", "3"], ["1", "2"]]);
/// ```
pub fn cells(l: &Layout) -> Result<Vec<Vec<String>>, DrawError> {
    if l.is_integral() {
        let g = Grid::new(l)?;
        return Ok((0..g.rows)
            .map(|r| (0..g.cols).map(|c| g.at(r, c).to_string()).collect())
            .collect());
    }
    let v = crate::pictures::value_labels(l, false)?;
    Ok((0..v.rows)
        .map(|r| {
            (0..v.cols)
                .map(|c| v.labels[(r + v.rows * c) as usize].clone())
                .collect()
        })
        .collect())
}

/// The start of a cell on `fill` coloured as [`print_layout_coloured`] says.
fn paint((r, g, b): crate::scene::Rgb) -> String {
    let ink = if u32::from(r) + u32::from(g) + u32::from(b) >= 3 * 128 {
        0
    } else {
        255
    };
    format!("\x1b[48;2;{r};{g};{b};38;2;{ink};{ink};{ink}m")
}

fn table(l: &Layout, colour: bool) -> Result<String, DrawError> {
    if l.is_integral() {
        return render(&l.to_string(), l, &Grid::new(l)?, colour);
    }
    // F2 or coordinate values: labelled as the pictures label them, each cell as wide as the
    // longest label and two spaces
    let v = crate::pictures::value_labels(l, false)?;
    let w = v
        .labels
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(1)
        + 2;
    let at = |r: i64, c: i64| {
        let i = (r + v.rows * c) as usize;
        (v.labels[i].as_str(), v.fills[i])
    };
    Ok(lines(&l.to_string(), l, (v.rows, v.cols), w, at, colour))
}

fn render(title: &str, l: &Layout, g: &Grid, colour: bool) -> Result<String, DrawError> {
    let w = digits(g.cosize()) + 2;
    let labels: Vec<String> = g.values.iter().map(i64::to_string).collect();
    let at = |r: i64, c: i64| {
        let v = g.at(r, c);
        (
            labels[(r * g.cols + c) as usize].as_str(),
            crate::pictures::grey(v),
        )
    };
    Ok(lines(title, l, (g.rows, g.cols), w, at, colour))
}

/// The table: `title`, the fold note, the column header, and each row of cells `w` characters
/// wide, `at(r, c)` giving a cell's text (right-aligned) and its background when `colour`.
///
/// CuTe sizes the cells by the cosize and the row labels as `%2d`; a cell text longer than that
/// (a negative offset below `-(cosize)`'s digits), a column index longer than it, or a row index
/// of three digits or more would stick out of its column, so the cells widen to the longest text
/// and column index and the row labels to the longest row index. Every table CuTe prints aligned
/// prints as CuTe prints it.
fn lines<'a>(
    title: &str,
    l: &Layout,
    (rows, cols): (i64, i64),
    w: usize,
    at: impl Fn(i64, i64) -> (&'a str, crate::scene::Rgb),
    colour: bool,
) -> String {
    let mut w = w.max(digits(cols - 1) + 2);
    for r in 0..rows {
        for c in 0..cols {
            w = w.max(at(r, c).0.chars().count() + 2);
        }
    }
    let lw = digits(rows - 1).max(2);
    let margin = " ".repeat(lw + 2);
    let mut s = format!("{title}\n");
    if let Some(note) = Grid::fold_note(l) {
        s += &format!("({note})\n");
    }
    s += &margin;
    for c in 0..cols {
        s += &format!("  {:>1$} ", c, w - 2);
    }
    s += "\n";
    let sep = format!(
        "{margin}{}+\n",
        format!("+{}", "-".repeat(w)).repeat(cols as usize)
    );
    for r in 0..rows {
        s += &sep;
        s += &format!("{r:>lw$}  ");
        for c in 0..cols {
            let (text, fill) = at(r, c);
            if colour {
                s += &format!("|{} {text:>pad$} \x1b[0m", paint(fill), pad = w - 2);
            } else {
                s += &format!("| {text:>pad$} ", pad = w - 2);
            }
        }
        s += "|\n";
    }
    s += &sep;
    s
}
