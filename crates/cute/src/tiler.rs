//! Tilers (paper: Tiler): a layout, or a hierarchical tuple of tiles applied by mode.
//!
//! A tile is a layout `S:D`, an integer `n` (CuTe's `make_layout(n)`: the layout `n:1`, and `1:0`
//! for `1`), or `_` (keep the mode whole).
//! Written `<4:1,8:2>`, `<2,_>` or `<<2,3>,4>`. A shape such as `(4,8)` used as a tiler means
//! `<4,8>`, as in CuTe: `(4,8) ≡ <4,8> ≡ <4:1,8:1>`.
//!
//! ```
//! use cute::{Layout, Tiler, composition_tiler};
//! let l: Layout = "(8,16):(20,1)".parse().unwrap();
//! let t: Tiler = "<4:1,8:2>".parse().unwrap();
//! assert_eq!(composition_tiler(&l, &t).unwrap().to_string(), "(4,8):(20,2)");
//! let s: Tiler = "(4,8)".parse().unwrap();
//! assert_eq!(composition_tiler(&l, &s).unwrap().to_string(), "(4,8):(20,1)");
//! ```

use crate::error::{tri, Error, ErrorKind, Op};
use crate::int_tuple::build::Builder;
use crate::int_tuple::{IntTuple, Tree};
use crate::layout::Layout;

/// The most tiles a [`Tiler`] can hold.
pub const MAX_TILES: usize = 8;

/// One tile of a [`Tiler`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)] // layouts are stored inline: no heap
pub enum Tile {
    /// `_`: the mode is kept whole.
    Whole,
    /// `n`: CuTe's `make_layout(n)`, the layout `n:1` (`1:0` for `1`).
    Int(i64),
    /// A layout.
    Layout(Layout),
}

impl Tile {
    /// The tile as a layout (CuTe's `make_layout(n)` for an integer: `n:1`, and `1:0` for `1`), or
    /// `None` for `_`.
    ///
    /// ```
    /// use cute::{Layout, Tile};
    /// assert_eq!(Tile::Int(4).layout().unwrap(), Some(Layout::leaf(4, 1).unwrap()));
    /// assert_eq!(Tile::Int(1).layout().unwrap(), Some(Layout::leaf(1, 0).unwrap()));
    /// assert_eq!(Tile::Whole.layout().unwrap(), None);
    /// ```
    ///
    /// # Errors
    ///
    /// `InvalidShape` for an integer tile below 1.
    pub const fn layout(&self) -> Result<Option<Layout>, Error> {
        match self {
            Tile::Whole => Ok(None),
            Tile::Int(n) => match int_tile(*n) {
                Ok(l) => Ok(Some(l)),
                Err(e) => Err(e),
            },
            Tile::Layout(l) => Ok(Some(*l)),
        }
    }
}

/// The layout of an integer tile `n`: CuTe's `make_layout(n)`, the compact column-major layout
/// `n:1`, whose mode of size 1 has the stride 0 (`1:0`, as [`compact_col_major`] gives; so that
/// `8:2 ∘ 1 = 1:0` and `8:2 ⊘ 1 = (1,8):(0,2)`, as CuTe C++ and the CuTe DSL print them).
///
/// [`compact_col_major`]: crate::compact_col_major
pub(crate) const fn int_tile(n: i64) -> Result<Layout, Error> {
    Layout::leaf(n, if n == 1 { 0 } else { 1 })
}

/// A layout or a by-mode tuple of tiles (see the [module docs](self)).
#[derive(Clone, Copy)]
pub struct Tiler {
    /// The nesting of the tiles: leaf `i` of the tree is `tiles[i]`. A leaf tree is a single tile.
    pub(crate) tree: Tree,
    pub(crate) tiles: [Tile; MAX_TILES],
}

impl PartialEq for Tiler {
    fn eq(&self, other: &Self) -> bool {
        self.tree.eq(&other.tree)
            && self.tiles[..self.tree.len()] == other.tiles[..other.tree.len()]
    }
}
impl Eq for Tiler {}

impl From<Layout> for Tiler {
    fn from(l: Layout) -> Self {
        Tiler::layout(l)
    }
}

/// A copy (a `Tiler` is `Copy`): so that the tiling methods, which take `impl Into<Tiler>`, take
/// a `&Tiler` as the free functions do.
///
/// ```
/// use cute::{logical_divide, Layout, Tiler};
/// let a: Layout = "(8,16):(20,1)".parse()?;
/// let t: Tiler = "<4:1,8:2>".parse()?;
/// assert_eq!(a.logical_divide(&t)?, logical_divide(&a, &t)?);
/// # Ok::<(), cute::Error>(())
/// ```
impl From<&Tiler> for Tiler {
    fn from(t: &Tiler) -> Self {
        *t
    }
}

impl Tiler {
    /// The tiler that is the single layout `l`.
    ///
    /// ```
    /// use cute::{Layout, Tiler};
    /// let t = Tiler::layout("(4,2):(1,8)".parse::<Layout>().unwrap());
    /// assert!(t.is_single());
    /// assert_eq!(t.to_string(), "(4,2):(1,8)");
    /// ```
    pub const fn layout(l: Layout) -> Tiler {
        let mut tiles = [Tile::Whole; MAX_TILES];
        tiles[0] = Tile::Layout(l);
        Tiler {
            tree: Tree::LEAF,
            tiles,
        }
    }

    /// The by-mode tiler `<t0,t1,...>` of single tiles.
    ///
    /// ```
    /// use cute::{Tile, Tiler};
    /// let t = Tiler::tiles(&[Tile::Int(4), Tile::Whole]).unwrap();
    /// assert_eq!(t, "<4,_>".parse().unwrap());
    /// assert_eq!(Tiler::tiles(&[]).unwrap_err().to_string(), "parse: unsupported: empty tilers");
    /// ```
    ///
    /// # Errors
    ///
    /// `Unsupported` for an empty list, `Capacity` for more tiles than a tiler holds.
    pub const fn tiles(tiles: &[Tile]) -> Result<Tiler, Error> {
        if tiles.is_empty() {
            return Err(Error::new(
                Op::Parse,
                ErrorKind::Unsupported {
                    what: "empty tilers",
                },
            ));
        }
        if tiles.len() > MAX_TILES {
            return Err(Error::new(
                Op::Parse,
                ErrorKind::Capacity {
                    what: "number of tiles",
                    limit: MAX_TILES,
                },
            ));
        }
        let mut out = [Tile::Whole; MAX_TILES];
        let mut i = 0;
        while i < tiles.len() {
            out[i] = tiles[i];
            i += 1;
        }
        Ok(Tiler {
            tree: Tree::flat(tiles.len(), true),
            tiles: out,
        })
    }

    /// A shape used as a tiler: every leaf `n` becomes the integer tile `n` (`make_layout(n)`),
    /// nesting kept (`(4,8)` is `<4,8>`).
    ///
    /// ```
    /// use cute::{Tile, Tiler};
    /// let t = Tiler::from_shape(&"(4,8)".parse().unwrap()).unwrap();
    /// assert_eq!(t, "<4,8>".parse().unwrap());
    /// assert_eq!(t.tile(1), Tile::Int(8));
    /// ```
    ///
    /// # Errors
    ///
    /// `Capacity` for more leaves than a tiler holds.
    pub const fn from_shape(shape: &IntTuple) -> Result<Tiler, Error> {
        if shape.tree.len() > MAX_TILES {
            return Err(Error::new(
                Op::Parse,
                ErrorKind::Capacity {
                    what: "number of tiles",
                    limit: MAX_TILES,
                },
            ));
        }
        let mut tiles = [Tile::Whole; MAX_TILES];
        let mut i = 0;
        while i < shape.tree.len() {
            tiles[i] = Tile::Int(shape.val[i]);
            i += 1;
        }
        Ok(Tiler {
            tree: shape.tree,
            tiles,
        })
    }

    /// True when the tiler is a single layout, integer or `_` (not a by-mode tuple).
    ///
    /// ```
    /// use cute::Tiler;
    /// assert!("8:2".parse::<Tiler>().unwrap().is_single());
    /// assert!(!"<4,_>".parse::<Tiler>().unwrap().is_single());
    /// ```
    pub const fn is_single(&self) -> bool {
        self.tree.is_leaf()
    }

    /// The single tile when [`is_single`](Tiler::is_single).
    ///
    /// ```
    /// use cute::{Layout, Tile, Tiler};
    /// let l: Layout = "8:2".parse().unwrap();
    /// assert_eq!(Tiler::layout(l).single(), Some(Tile::Layout(l)));
    /// assert_eq!("<4,_>".parse::<Tiler>().unwrap().single(), None);
    /// ```
    pub const fn single(&self) -> Option<Tile> {
        if self.tree.is_leaf() {
            Some(self.tiles[0])
        } else {
            None
        }
    }

    /// Number of top-level modes of a by-mode tiler (1 for a single tile).
    ///
    /// ```
    /// use cute::Tiler;
    /// assert_eq!("<4:1,8:2>".parse::<Tiler>().unwrap().rank(), 2);
    /// assert_eq!("8:2".parse::<Tiler>().unwrap().rank(), 1);
    /// ```
    pub const fn rank(&self) -> usize {
        self.tree.rank()
    }

    /// The `k`-th mode of a by-mode tiler: a single tile or a nested tiler.
    ///
    /// ```
    /// use cute::Tiler;
    /// let t: Tiler = "<4:1,8:2>".parse().unwrap();
    /// assert_eq!(t.mode(1).unwrap().to_string(), "8:2");
    /// assert_eq!(t.mode(2).unwrap_err().to_string(), "get: mode index 2 is out of range for rank 2");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` when `k` is not below the tiler's rank.
    pub const fn mode(&self, k: usize) -> Result<Tiler, Error> {
        // `r` is the only value returned and is never borrowed: it is the return place, and the
        // mode is written straight into it (a tiler is several KiB: see
        // `algebra::coalesce::coalesce_into`).
        let mut err = Ok(());
        let mut r = Ok(mode_build(self, k, &mut err));
        if let Err(e) = err {
            r = Err(e);
        }
        r
    }

    /// Tile `i` in leaf order.
    ///
    /// ```
    /// use cute::{Layout, Tile, Tiler};
    /// let t: Tiler = "<4:1,_>".parse().unwrap();
    /// assert_eq!(t.tile(0), Tile::Layout(Layout::leaf(4, 1).unwrap()));
    /// assert_eq!(t.tile(1), Tile::Whole);
    /// ```
    pub const fn tile(&self, i: usize) -> Tile {
        self.tiles[i]
    }

    /// Number of tiles (leaves).
    ///
    /// ```
    /// use cute::Tiler;
    /// assert_eq!("<4:1,8:2,_>".parse::<Tiler>().unwrap().tile_count(), 3);
    /// ```
    pub const fn tile_count(&self) -> usize {
        self.tree.len()
    }

    /// The tiles as a layout with the tiler's nesting (CuTe `make_layout(tiler)`): by-mode tiles are
    /// concatenated, so `<4:1,8:2>` becomes `(4,8):(1,2)`. `_` tiles are refused.
    ///
    /// ```
    /// use cute::Tiler;
    /// let t: Tiler = "<4:1,8:2>".parse().unwrap();
    /// assert_eq!(t.to_layout().unwrap().to_string(), "(4,8):(1,2)");
    /// let e = "<4,_>".parse::<Tiler>().unwrap().to_layout().unwrap_err();
    /// assert_eq!(e.to_string(), "make_layout: unsupported: a whole-mode tile `_` as a layout");
    /// ```
    ///
    /// # Errors
    ///
    /// `Unsupported` for a `_` tile; a capacity error when the tiles together have more leaves than
    /// a layout holds.
    pub const fn to_layout(&self) -> Result<Layout, Error> {
        if self.tree.is_leaf() {
            return match tri!(self.tiles[0].layout()) {
                Some(l) => Ok(l),
                None => Err(Error::new(
                    Op::MakeLayout,
                    ErrorKind::Unsupported {
                        what: "a whole-mode tile `_` as a layout",
                    },
                )),
            };
        }
        let mut b = Builder::new();
        let mut i = 0;
        while i < self.tree.len() {
            let mut k = 0;
            while k < self.tree.open[i] {
                tri!(b.open(Op::MakeLayout));
                k += 1;
            }
            let l = match tri!(self.tiles[i].layout()) {
                Some(l) => l,
                None => {
                    return Err(Error::new(
                        Op::MakeLayout,
                        ErrorKind::Unsupported {
                            what: "a whole-mode tile `_` as a layout",
                        },
                    ))
                }
            };
            tri!(b.push_layout_node(Op::MakeLayout, &l));
            let mut k = 0;
            while k < self.tree.close[i] {
                tri!(b.close(Op::MakeLayout));
                k += 1;
            }
            i += 1;
        }
        b.finish_layout(Op::MakeLayout)
    }

    /// `tiler_to_layout(T)`: the layout that acts as the tiler under composition (the paper's
    /// `(4,8) ≡ <4,8> ≡ (4,8):(e0,e1)`). A single tile is itself (`n` is PyCuTe's `n:1`, also
    /// `1:1`); in a tuple of tiles,
    /// the tile at path `p` has its strides scaled by the basis `e_p`, so that it selects within
    /// mode `p` of the composed layout: `<4,<2,3>>` gives `(4,(2,3)):(1@0,(1@0@1,1@1@1))`.
    ///
    /// ```
    /// use cute::Tiler;
    /// let t: Tiler = "(4,(2,3),8)".parse().unwrap();
    /// assert_eq!(t.tiler_to_layout().unwrap().to_string(), "(4,(2,3),8):(1@0,(1@0@1,1@1@1),1@2)");
    /// ```
    ///
    /// # Errors
    ///
    /// `Unsupported` for a `_` tile, and (for a tuple of tiles) for a tile without integer strides;
    /// a capacity error as [`Tiler::to_layout`].
    pub const fn tiler_to_layout(&self) -> Result<Layout, Error> {
        if self.tree.is_leaf() {
            if let Tile::Int(n) = self.tiles[0] {
                return Layout::leaf(n, 1);
            }
            return self.to_layout();
        }
        let codes = tri!(crate::layout::leaf_paths(&self.tree, Op::TilerToLayout));
        let mut b = Builder::new();
        let mut i = 0;
        while i < self.tree.len() {
            let mut k = 0;
            while k < self.tree.open[i] {
                tri!(b.open(Op::TilerToLayout));
                k += 1;
            }
            // (PyCuTe's `n:1` for an integer tile, also for 1: its stride becomes `e_p`)
            let l = match self.tiles[i] {
                Tile::Int(n) => tri!(Layout::leaf(n, 1)),
                Tile::Layout(l) => l,
                Tile::Whole => {
                    return Err(Error::new(
                        Op::TilerToLayout,
                        ErrorKind::Unsupported {
                            what: "a whole-mode tile `_` as a layout",
                        },
                    ))
                }
            };
            tri!(l.require_integral(Op::TilerToLayout));
            let first = b.len();
            tri!(b.push_layout_node(Op::TilerToLayout, &l));
            let mut j = first;
            while j < b.len() {
                b.c[j] = if b.b[j] == 0 { 0 } else { codes[i] };
                j += 1;
            }
            let mut k = 0;
            while k < self.tree.close[i] {
                tri!(b.close(Op::TilerToLayout));
                k += 1;
            }
            i += 1;
        }
        b.finish_layout(Op::TilerToLayout)
    }
}

/// Mode `k` of `t` (the tiles of the mode with its own outer brackets removed), or the error in
/// `err`. Written only through the fields of `out`.
const fn mode_build(t: &Tiler, k: usize, err: &mut Result<(), Error>) -> Tiler {
    match t.tree.mode_range(k) {
        Some((lo, hi)) => mode_of_tiles(t, lo, hi),
        None => {
            *err = Err(Error::new(
                Op::Get,
                ErrorKind::OutOfRange {
                    index: k,
                    rank: t.rank(),
                },
            ));
            Tiler {
                tree: Tree::flat(0, false),
                tiles: [Tile::Whole; MAX_TILES],
            }
        }
    }
}

/// The top-level mode of `t` whose tiles are `[lo, hi)`, as
/// [`Tree::mode_end`](crate::int_tuple::Tree::mode_end) walks them: [`mode_build`] without the
/// search.
pub(crate) const fn mode_of_tiles(t: &Tiler, lo: usize, hi: usize) -> Tiler {
    let mut out = Tiler {
        tree: t.tree.mode_tree(lo, hi),
        tiles: [Tile::Whole; MAX_TILES],
    };
    let mut i = lo;
    while i < hi {
        out.tiles[i - lo] = t.tiles[i];
        i += 1;
    }
    out
}
