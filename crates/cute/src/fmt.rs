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
use crate::slice::PartialCoord;
use crate::text::Text;
use crate::tiler::{Tile, Tiler};
use core::fmt;
use core::str::FromStr;

/// What the leaves of a tree are, for [`push_tree`].
#[derive(Clone, Copy)]
enum Leaves<'a> {
    Ints(&'a [i64; CAPACITY]),
    Strides(&'a Layout),
    Tiles(&'a Tiler),
    Partial(&'a PartialCoord),
}

/// Writes the leaves with the nesting `tree`, brackets `lb`/`rb`, commas between leaves.
const fn push_tree(t: &mut Text, tree: &Tree, lb: &str, rb: &str, leaves: Leaves<'_>) {
    let mut i = 0;
    while i < tree.len() {
        if i > 0 {
            t.push_str(",");
        }
        let mut k = 0;
        while k < tree.open[i] {
            t.push_str(lb);
            k += 1;
        }
        match leaves {
            Leaves::Ints(v) => t.push_i64(v[i]),
            Leaves::Strides(l) => crate::stride::push_stride(t, l.stride[i], l.basis[i]),
            Leaves::Tiles(x) => push_tile(t, &x.tiles[i]),
            Leaves::Partial(c) => {
                if (c.free >> i) & 1 == 1 {
                    t.push_str("_");
                } else {
                    t.push_i64(c.tuple.val[i]);
                }
            }
        }
        let mut k = 0;
        while k < tree.close[i] {
            t.push_str(rb);
            k += 1;
        }
        i += 1;
    }
}

/// Writes a hierarchical tuple: `(2,(4,1),-1)`.
pub(crate) const fn push_int_tuple(t: &mut Text, x: &IntTuple) {
    push_tree(t, &x.tree, "(", ")", Leaves::Ints(&x.val));
}

/// Writes a layout: `((2,2),(4,2)):((1,8),(2,16))`.
pub(crate) const fn push_layout(t: &mut Text, l: &Layout) {
    push_tree(t, &l.tree, "(", ")", Leaves::Ints(&l.shape));
    t.push_str(":");
    push_tree(t, &l.tree, "(", ")", Leaves::Strides(l));
}

const fn push_tile(t: &mut Text, x: &Tile) {
    match x {
        Tile::Whole => t.push_str("_"),
        Tile::Int(n) => t.push_i64(*n),
        Tile::Layout(l) => push_layout(t, l),
    }
}

/// Writes a tiler: `<4:1,8:2>`, `<2,_>`.
pub(crate) const fn push_tiler(t: &mut Text, x: &Tiler) {
    push_tree(t, &x.tree, "<", ">", Leaves::Tiles(x));
}

/// Writes a partial coordinate: `(2,_)`, `((_,1),_)`.
pub(crate) const fn push_partial(t: &mut Text, c: &PartialCoord) {
    push_tree(t, &c.tuple.tree, "(", ")", Leaves::Partial(c));
}

impl IntTuple {
    /// The printed form (`Display`), built in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, IntTuple, Text};
    /// const S: IntTuple = unwrap(IntTuple::parse_const("((2,2),(4,2))"));
    /// const T: Text = S.text();
    /// assert_eq!(T.as_str(), "((2,2),(4,2))");
    /// ```
    pub const fn text(&self) -> Text {
        let mut t = Text::new();
        push_int_tuple(&mut t, self);
        t
    }
}

impl Layout {
    /// The printed form (`Display`), built in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, Layout, Text};
    /// const L: Layout = unwrap(Layout::flat(&[4, 8], &[8, 1]));
    /// const T: Text = L.text();
    /// assert_eq!(T.as_str(), "(4,8):(8,1)");
    /// ```
    pub const fn text(&self) -> Text {
        let mut t = Text::new();
        push_layout(&mut t, self);
        t
    }
}

impl Tiler {
    /// The printed form (`Display`), built in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, Text, Tiler};
    /// const TL: Tiler = unwrap(Tiler::parse_const("<4:1,_>"));
    /// const T: Text = TL.text();
    /// assert_eq!(T.as_str(), "<4:1,_>");
    /// ```
    pub const fn text(&self) -> Text {
        let mut t = Text::new();
        push_tiler(&mut t, self);
        t
    }
}

/// `Display` through the `const` writer.
macro_rules! display_via_text {
    ($($ty:ty => $push:path),* $(,)?) => {$(
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut t = Text::new();
                $push(&mut t, self);
                f.write_str(t.as_str())
            }
        }
    )*};
}
display_via_text!(
    IntTuple => push_int_tuple,
    Layout => push_layout,
    Tiler => push_tiler,
    Tile => push_tile,
    PartialCoord => push_partial,
);

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
