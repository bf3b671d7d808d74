//! Hierarchical integer tuples (the paper's `HTuple(Z)`): shapes, strides and coordinates.
//!
//! An [`IntTuple`] is either an integer or a tuple of `IntTuple`s: `31`, `(16,32)`, `(2,(4,1),-1)`,
//! `((4,6),(3,(2,2),8))`. It is stored without the heap: the leaves in order, and for each leaf the
//! number of parentheses that open right before it and close right after it. That encoding
//! determines the nesting uniquely (empty tuples are not representable and are refused by the
//! parser), is `Copy`, and lets every operation here be a `const fn`.
//!
//! | operation | example | result |
//! |---|---|---|
//! | [`rank`](IntTuple::rank) | `(2,(4,1),-1)` | `3` |
//! | [`depth`](IntTuple::depth) | `((4,6),(3,(2,2),8))` | `3` |
//! | [`size`](IntTuple::size) | `(2,(3,4))` | `24` |
//! | [`prefix_product`](IntTuple::prefix_product) | `(2,(3,4))` | `(1,(2,6))` |
//! | [`flatten`](IntTuple::flatten) | `(2,(3,4))` | `(2,3,4)` |
//! | [`congruent`](IntTuple::congruent) | `(4,(2,4))` ~ `(7,(3,2))` | `true` |
//! | [`weakly_congruent`](IntTuple::weakly_congruent) | `30` ≲ `(2,15)` | `true` |
//! | [`compatible`](IntTuple::compatible) | `(6,5)` ⪯ `((3,2),5)` | `true` |
//!
//! ```
//! use cute::IntTuple;
//! let s: IntTuple = "(2,(3,4))".parse().unwrap();
//! assert_eq!(s.rank(), 2);
//! assert_eq!(s.depth(), 2);
//! assert_eq!(s.size().unwrap(), 24);
//! assert_eq!(s.prefix_product().unwrap().to_string(), "(1,(2,6))");
//! assert_eq!(s.flatten().to_string(), "(2,3,4)");
//! ```
//!
//! This file is the base of the crate: it imports nothing. It defines the type and the accessors
//! that cannot fail. Its two submodules sit above [`crate::error`]: `ops` (the operations that can
//! fail: their errors name the operation and the operand) and `build` (the tuple builder and the
//! tuple surgery shared with [`Layout`](crate::Layout)). Parsing is in the parser.

pub(crate) mod build;
mod ops;

/// The most leaves an [`IntTuple`], a [`Layout`](crate::Layout) or a tile of a
/// [`Tiler`](crate::Tiler) can hold. Larger values are refused with an error of category `Capacity`.
pub const CAPACITY: usize = 32;

/// The deepest nesting accepted.
pub const MAX_DEPTH: usize = 64;

/// The nesting structure (the paper's *profile*) of a hierarchical tuple with `n` leaves.
///
/// `open[i]` parentheses open immediately before leaf `i` and `close[i]` close immediately after it.
/// Slots at and beyond `n` are always zero.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tree {
    pub(crate) n: u8,
    pub(crate) open: [u8; CAPACITY],
    pub(crate) close: [u8; CAPACITY],
}

impl Tree {
    pub(crate) const LEAF: Tree = Tree {
        n: 1,
        open: [0; CAPACITY],
        close: [0; CAPACITY],
    };
    pub(crate) const EMPTY: Tree = Tree {
        n: 0,
        open: [0; CAPACITY],
        close: [0; CAPACITY],
    };

    #[inline]
    pub(crate) const fn len(&self) -> usize {
        self.n as usize
    }

    /// True when this is a single integer (depth 0).
    #[inline]
    pub(crate) const fn is_leaf(&self) -> bool {
        self.n == 1 && self.open[0] == 0
    }

    pub(crate) const fn depth(&self) -> usize {
        let mut d: usize = 0;
        let mut max: usize = 0;
        let mut i = 0;
        while i < self.len() {
            d += self.open[i] as usize;
            if d > max {
                max = d;
            }
            d -= self.close[i] as usize;
            i += 1;
        }
        max
    }

    /// Number of top-level modes (1 for an integer).
    pub(crate) const fn rank(&self) -> usize {
        if self.is_leaf() {
            return 1;
        }
        let mut r = 0;
        let mut d: usize = 0;
        let mut i = 0;
        while i < self.len() {
            if i == 0 || d == 1 {
                r += 1;
            }
            d += self.open[i] as usize;
            d -= self.close[i] as usize;
            i += 1;
        }
        r
    }

    /// The leaf range `[lo, hi)` of top-level mode `k`, or `None` when `k >= rank`.
    pub(crate) const fn mode_range(&self, k: usize) -> Option<(usize, usize)> {
        let mut lo = 0;
        let mut m = 0;
        while lo < self.len() {
            let hi = self.mode_end(lo);
            if m == k {
                return Some((lo, hi));
            }
            (lo, m) = (hi, m + 1);
        }
        None
    }

    /// The end (one past the last leaf) of the top-level mode that starts at leaf `lo`, where `lo`
    /// is `0` or the end of the mode before: a caller that walks the modes in order this way makes
    /// one pass in all, where [`mode_range`](Tree::mode_range) walks from the start for each mode.
    pub(crate) const fn mode_end(&self, lo: usize) -> usize {
        if self.is_leaf() {
            return 1;
        }
        // the depth before leaf `lo`: inside the outer bracket, which opens before leaf 0
        let mut d: usize = if lo == 0 { 0 } else { 1 };
        let mut i = lo;
        while i < self.len() {
            d += self.open[i] as usize;
            d -= self.close[i] as usize;
            i += 1;
            if d <= 1 {
                return i;
            }
        }
        i
    }

    /// Whether the top-level mode of leaves `[lo, hi)` is a single leaf (an integer, not a tuple).
    #[inline]
    pub(crate) const fn is_leaf_mode(&self, lo: usize, hi: usize) -> bool {
        hi == lo + 1 && self.open[lo] == self.mode_adjust(lo, hi).0
    }

    /// Adjustments `(first_open, last_close)` to subtract from leaf `lo`'s opens and leaf `hi-1`'s
    /// closes to get the own brackets of the top-level mode `[lo,hi)`.
    pub(crate) const fn mode_adjust(&self, lo: usize, hi: usize) -> (u8, u8) {
        if self.is_leaf() {
            return (0, 0);
        }
        (
            if lo == 0 { 1 } else { 0 },
            if hi == self.len() { 1 } else { 0 },
        )
    }

    /// The own nesting of the top-level mode whose leaves are `[lo, hi)` (as
    /// [`mode_end`](Tree::mode_end) walks them), as a tree of its own.
    pub(crate) const fn mode_tree(&self, lo: usize, hi: usize) -> Tree {
        let mut out = Tree::EMPTY;
        let adj = self.mode_adjust(lo, hi);
        let mut i = lo;
        while i < hi {
            out.open[i - lo] = self.open[i];
            out.close[i - lo] = self.close[i];
            i += 1;
        }
        out.open[0] -= adj.0;
        out.close[hi - lo - 1] -= adj.1;
        out.n = (hi - lo) as u8;
        out
    }

    pub(crate) const fn eq(&self, other: &Tree) -> bool {
        if self.n != other.n {
            return false;
        }
        let mut i = 0;
        while i < self.len() {
            if self.open[i] != other.open[i] || self.close[i] != other.close[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The flat tree with `n` leaves: an integer when `n == 1 && !tuple`, else `(a,b,...)`.
    pub(crate) const fn flat(n: usize, tuple: bool) -> Tree {
        let mut t = Tree::EMPTY;
        t.n = n as u8;
        if tuple && n > 0 {
            t.open[0] = 1;
            t.close[n - 1] = 1;
        }
        t
    }
}

/// A hierarchical tuple of integers: the paper's `HTuple(Z)`. Used for shapes, strides and coordinates.
#[derive(Clone, Copy)]
pub struct IntTuple {
    pub(crate) tree: Tree,
    pub(crate) val: [i64; CAPACITY],
}

impl PartialEq for IntTuple {
    fn eq(&self, other: &Self) -> bool {
        self.const_eq(other)
    }
}
impl Eq for IntTuple {}

impl core::hash::Hash for IntTuple {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        let n = self.tree.len();
        self.tree.open[..n].hash(state);
        self.tree.close[..n].hash(state);
        self.val[..n].hash(state);
    }
}

impl From<i64> for IntTuple {
    fn from(v: i64) -> Self {
        IntTuple::int(v)
    }
}

impl IntTuple {
    /// The integer `v` (rank 1, depth 0).
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x = IntTuple::int(6);
    /// assert_eq!(x.to_string(), "6");
    /// assert!(x.is_int());
    /// ```
    pub const fn int(v: i64) -> IntTuple {
        let mut val = [0; CAPACITY];
        val[0] = v;
        IntTuple {
            tree: Tree::LEAF,
            val,
        }
    }

    pub(crate) const fn from_parts(tree: Tree, val: [i64; CAPACITY]) -> IntTuple {
        IntTuple { tree, val }
    }

    /// `==` usable in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, IntTuple};
    /// const A: IntTuple = unwrap(IntTuple::parse_const("(2,3)"));
    /// const B: IntTuple = unwrap(IntTuple::flat(&[2, 3]));
    /// const SAME: bool = A.const_eq(&B);
    /// assert!(SAME);
    /// ```
    pub const fn const_eq(&self, other: &IntTuple) -> bool {
        if !self.tree.eq(&other.tree) {
            return false;
        }
        let mut i = 0;
        while i < self.tree.len() {
            if self.val[i] != other.val[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// True for an integer, false for a tuple (even a 1-tuple `(x)`).
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert!("8".parse::<IntTuple>().unwrap().is_int());
    /// assert!(!"(8)".parse::<IntTuple>().unwrap().is_int());
    /// ```
    pub const fn is_int(&self) -> bool {
        self.tree.is_leaf()
    }

    /// The value of an integer, `None` for a tuple.
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!("8".parse::<IntTuple>().unwrap().as_int(), Some(8));
    /// assert_eq!("(8)".parse::<IntTuple>().unwrap().as_int(), None);
    /// ```
    pub const fn as_int(&self) -> Option<i64> {
        if self.is_int() {
            Some(self.val[0])
        } else {
            None
        }
    }

    /// Number of leaves (integers) in the tuple.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert_eq!(x.leaf_count(), 4);
    /// ```
    pub const fn leaf_count(&self) -> usize {
        self.tree.len()
    }

    /// The leaves in order (the values of [`flatten`](IntTuple::flatten)).
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert_eq!(x.leaves(), &[2, 2, 4, 2]);
    /// ```
    pub fn leaves(&self) -> &[i64] {
        &self.val[..self.tree.len()]
    }

    /// Leaf `i` in order, `const`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert_eq!(x.leaf(2), 4);
    /// ```
    pub const fn leaf(&self, i: usize) -> i64 {
        self.val[i]
    }

    /// `rank(X)`: the tuple length, or 1 for an integer.
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!("((2,2),(4,2))".parse::<IntTuple>().unwrap().rank(), 2);
    /// assert_eq!("8".parse::<IntTuple>().unwrap().rank(), 1);
    /// ```
    pub const fn rank(&self) -> usize {
        self.tree.rank()
    }

    /// `depth(X)`: 0 for an integer, `1 + max depth of the entries` for a tuple.
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!("((2,2),(4,2))".parse::<IntTuple>().unwrap().depth(), 2);
    /// assert_eq!("(4,8)".parse::<IntTuple>().unwrap().depth(), 1);
    /// assert_eq!("8".parse::<IntTuple>().unwrap().depth(), 0);
    /// ```
    pub const fn depth(&self) -> usize {
        self.tree.depth()
    }

    /// `P ~ S`: same profile (both integers, or tuples of equal rank with congruent entries).
    ///
    /// ```
    /// use cute::IntTuple;
    /// let s: IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert!(s.congruent(&"(1,(2,6))".parse().unwrap()));
    /// assert!(!s.congruent(&"(6,4)".parse().unwrap()));
    /// ```
    pub const fn congruent(&self, other: &IntTuple) -> bool {
        self.tree.eq(&other.tree)
    }

    /// `flatten(X)`: the leaves as a flat tuple; an integer stays an integer.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert_eq!(x.flatten().to_string(), "(2,2,4,2)");
    /// assert_eq!(IntTuple::int(8).flatten().to_string(), "8");
    /// ```
    pub const fn flatten(&self) -> IntTuple {
        if self.is_int() {
            return *self;
        }
        IntTuple {
            tree: Tree::flat(self.tree.len(), true),
            val: self.val,
        }
    }
}

/// A hierarchical value split into its profile and up to two leaf arrays (shape and stride for a
/// layout; the same array twice for a tuple).
pub(crate) type Parts = (Tree, [i64; CAPACITY], [i64; CAPACITY]);

/// The type of slicing's partial coordinates, defined here (below the errors, which record it as
/// an operand) and exported as [`crate::slice::PartialCoord`], where its operations are.
pub(crate) mod partial {
    use super::IntTuple;

    /// A coordinate whose entries are integers or the free marker `_` (CuTe's `Underscore`), e.g.
    /// `(2,_)`, `((_,1),_)`, `_`.
    #[derive(Clone, Copy, PartialEq, Eq, Hash)]
    pub struct PartialCoord {
        /// The coordinate with `0` in the free entries.
        pub(crate) tuple: IntTuple,
        /// Bit `k` set when leaf `k` is `_`.
        pub(crate) free: u32,
    }
}
