//! Printing in CuTe notation (`Display`) and parsing (`FromStr`); the two round-trip.
//!
//! | value | printed |
//! |---|---|
//! | integer layout | `12:1` |
//! | rank-1 tuple layout | `(8):(1)` |
//! | hierarchical layout | `((2,2),(4,2)):((1,8),(2,16))` |
//! | tiler | `<4:1,8:2>`, `<2,_>` |
//!
//! ```
//! use cute::{Layout, Tiler};
//! for text in ["12:1", "(8):(1)", "((2,2),(4,2)):((1,8),(2,16))"] {
//!     let l: Layout = text.parse().unwrap();
//!     assert_eq!(l.to_string(), text);
//! }
//! let l: Layout = " ( 4 , 8 ) : ( 1 , 4 ) ".parse().unwrap();
//! assert_eq!(l.to_string(), "(4,8):(1,4)");
//! let t: Tiler = "<4:1, _, 3>".parse().unwrap();
//! assert_eq!(t.to_string(), "<4:1,_,3>");
//! ```

use crate::error::Error;
use crate::int_tuple::{IntTuple, Tree, CAPACITY};
use crate::layout::Layout;
use crate::tiler::{Tile, Tiler};
use core::fmt;
use core::str::FromStr;

/// Writes the leaves `vals` with the nesting `t`, brackets `lb`/`rb`, each leaf by `leaf`.
fn write_tree(
    f: &mut fmt::Formatter<'_>,
    t: &Tree,
    lb: char,
    rb: char,
    mut leaf: impl FnMut(&mut fmt::Formatter<'_>, usize) -> fmt::Result,
) -> fmt::Result {
    use fmt::Write;
    for i in 0..t.len() {
        if i > 0 {
            f.write_char(',')?;
        }
        for _ in 0..t.open[i] {
            f.write_char(lb)?;
        }
        leaf(f, i)?;
        for _ in 0..t.close[i] {
            f.write_char(rb)?;
        }
    }
    Ok(())
}

fn write_vals(f: &mut fmt::Formatter<'_>, t: &Tree, vals: &[i64; CAPACITY]) -> fmt::Result {
    write_tree(f, t, '(', ')', |f, i| write!(f, "{}", vals[i]))
}

impl fmt::Display for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_vals(f, &self.tree, &self.val)
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_vals(f, &self.tree, &self.shape)?;
        f.write_str(":")?;
        write_tree(f, &self.tree, '(', ')', |f, i| {
            crate::stride::write_stride(f, self.stride[i], self.basis[i])
        })
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tile::Whole => f.write_str("_"),
            Tile::Int(n) => write!(f, "{n}"),
            Tile::Layout(l) => write!(f, "{l}"),
        }
    }
}

impl fmt::Display for Tiler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_tree(f, &self.tree, '<', '>', |f, i| {
            write!(f, "{}", self.tiles[i])
        })
    }
}

impl FromStr for IntTuple {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        crate::parse::int_tuple(s.as_bytes())
    }
}

impl FromStr for Layout {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        crate::parse::layout(s.as_bytes())
    }
}

impl FromStr for Tiler {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        crate::parse::tiler(s.as_bytes())
    }
}

/// `Debug` prints the CuTe notation too, so that test failures read like the paper.
macro_rules! debug_as_display {
    ($($t:ty),*) => {$(
        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!(stringify!($t), "({})"), self)
            }
        }
    )*};
}
debug_as_display!(IntTuple, Layout, Tiler);
