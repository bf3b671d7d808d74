//! CuTe C++'s `print_layout` console table.
//!
//! The format, as CuTe prints it: the layout on the first line; a header of column indices; for
//! every row a separator `+---…` and the row `%2d  | v | v |`, each cell `idx_width` characters
//! wide where `idx_width` is the number of decimal digits of the cosize plus 2; a final separator.

use crate::grid::{DrawError, Grid};
use cute::Layout;

fn digits(x: i64) -> usize {
    x.unsigned_abs().to_string().len()
}

/// The `print_layout` table of `l` (see the [module](self) documentation). Rank-2 layouts print
/// exactly as CuTe C++ prints them; a rank-1 layout prints as one row; higher ranks fold modes 1..
/// into the columns and say so on a second line.
///
/// ```
/// let l: cute::Layout = "(2,2):(1,2)".parse().unwrap();
/// assert_eq!(
///     cute_draw::table::print_layout(&l).unwrap(),
///     "(2,2):(1,2)\n      0   1 \n    +---+---+\n 0  | 0 | 2 |\n    +---+---+\n 1  | 1 | 3 |\n    +---+---+\n"
/// );
/// ```
pub fn print_layout(l: &Layout) -> Result<String, DrawError> {
    let g = Grid::new(l)?;
    let w = digits(g.cosize()) + 2;
    let mut s = format!("{l}\n");
    if l.rank() > 2 {
        s += &format!(
            "(modes 1..{} folded into the columns, colexicographically)\n",
            l.rank() - 1
        );
    }
    s += "    ";
    for c in 0..g.cols {
        s += &format!("  {:>1$} ", c, w - 2);
    }
    s += "\n";
    let sep = format!(
        "    {}+\n",
        format!("+{}", "-".repeat(w)).repeat(g.cols as usize)
    );
    for r in 0..g.rows {
        s += &sep;
        s += &format!("{r:>2}  ");
        for c in 0..g.cols {
            s += &format!("| {:>1$} ", g.at(r, c), w - 2);
        }
        s += "|\n";
    }
    s += &sep;
    Ok(s)
}
