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

use crate::error::{mul, tri, Error, ErrorKind, Op, Operand};

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
    const EMPTY: Tree = Tree {
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
        if self.is_leaf() {
            return if k == 0 { Some((0, 1)) } else { None };
        }
        let mut m = 0;
        let mut d: usize = 0;
        let mut i = 0;
        let mut lo = usize::MAX;
        while i < self.len() {
            if i == 0 || d == 1 {
                if m == k {
                    lo = i;
                } else if m > k {
                    // the mode after `k` starts here (`m > k` rather than `m == k + 1`: `k` may be
                    // `usize::MAX`)
                    return Some((lo, i));
                }
                m += 1;
            }
            d += self.open[i] as usize;
            d -= self.close[i] as usize;
            i += 1;
        }
        if lo == usize::MAX {
            None
        } else {
            Some((lo, self.len()))
        }
    }

    /// The leaf index of mode `k` when that mode is a single leaf (an integer, not a tuple).
    pub(crate) const fn single_leaf(&self, k: usize) -> Option<usize> {
        match self.mode_range(k) {
            Some((lo, hi)) if hi == lo + 1 && self.open[lo] == self.mode_adjust(lo, hi).0 => {
                Some(lo)
            }
            _ => None,
        }
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

/// Builds a hierarchical value (a tuple, or a shape and stride together) leaf by leaf.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Builder {
    pub(crate) tree: Tree,
    pub(crate) a: [i64; CAPACITY],
    pub(crate) b: [i64; CAPACITY],
    /// The basis codes of the strides `b` when building a layout (see [`crate::stride`]).
    pub(crate) c: [crate::stride::Code; CAPACITY],
    pending: u8,
    depth: u8,
}

impl Builder {
    pub(crate) const fn new() -> Builder {
        Builder {
            tree: Tree::EMPTY,
            a: [0; CAPACITY],
            b: [0; CAPACITY],
            c: [0; CAPACITY],
            pending: 0,
            depth: 0,
        }
    }

    #[inline]
    pub(crate) const fn len(&self) -> usize {
        self.tree.n as usize
    }

    pub(crate) const fn open(&mut self, op: Op) -> Result<(), Error> {
        if self.depth as usize >= MAX_DEPTH {
            return Err(Error::new(
                op,
                ErrorKind::Capacity {
                    what: "nesting depth",
                    limit: MAX_DEPTH,
                },
            ));
        }
        self.pending += 1;
        self.depth += 1;
        Ok(())
    }

    pub(crate) const fn close(&mut self, op: Op) -> Result<(), Error> {
        if self.pending > 0 || self.tree.n == 0 {
            return Err(Error::new(
                op,
                ErrorKind::Unsupported {
                    what: "empty tuples",
                },
            ));
        }
        self.depth -= 1;
        self.tree.close[self.tree.n as usize - 1] += 1;
        Ok(())
    }

    #[inline]
    pub(crate) const fn push(&mut self, op: Op, a: i64, b: i64) -> Result<(), Error> {
        let n = self.tree.n as usize;
        if n >= CAPACITY {
            return Err(Error::new(
                op,
                ErrorKind::Capacity {
                    what: "number of leaves",
                    limit: CAPACITY,
                },
            ));
        }
        self.tree.open[n] = self.pending;
        self.pending = 0;
        self.a[n] = a;
        self.b[n] = b;
        self.c[n] = 0;
        self.tree.n += 1;
        Ok(())
    }

    /// Appends the whole layout `l` (shape, stride and basis codes) as one node.
    pub(crate) const fn push_layout_node(
        &mut self,
        op: Op,
        l: &crate::layout::Layout,
    ) -> Result<(), Error> {
        let first = self.tree.n as usize;
        tri!(self.push_node(op, &l.tree, &l.shape, &l.stride, 0, l.tree.len(), (0, 0)));
        let mut i = 0;
        while i < l.tree.len() {
            self.c[first + i] = l.basis[i];
            i += 1;
        }
        Ok(())
    }

    /// The layout built: shapes `a`, strides `b`, basis codes `c` (checked to lie in one
    /// semimodule).
    pub(crate) const fn finish_layout(self, op: Op) -> Result<crate::layout::Layout, Error> {
        let c = self.c;
        let p = tri!(self.finish(op));
        // the leaves come from valid layouts: only their product (the nodes' sizes multiply) and
        // the codes need a look
        tri!(crate::layout::checked_size(&p.1, p.0.len(), op));
        let mut l = crate::layout::Layout::from_valid(p);
        let mut i = 0;
        while i < l.tree.len() {
            if c[i] != 0 {
                l.basis = c;
                tri!(l.normalize_basis(op));
                break;
            }
            i += 1;
        }
        Ok(l)
    }

    /// Appends leaves `[lo,hi)` of `t` (values from `a`, `b`) as one node, after removing `adj.0`
    /// opening brackets of the first leaf and `adj.1` closing brackets of the last.
    #[allow(clippy::too_many_arguments)]
    pub(crate) const fn push_node(
        &mut self,
        op: Op,
        t: &Tree,
        a: &[i64; CAPACITY],
        b: &[i64; CAPACITY],
        lo: usize,
        hi: usize,
        adj: (u8, u8),
    ) -> Result<(), Error> {
        let mut i = lo;
        while i < hi {
            let mut o = t.open[i];
            if i == lo {
                o -= adj.0;
            }
            let mut k = 0;
            while k < o {
                tri!(self.open(op));
                k += 1;
            }
            tri!(self.push(op, a[i], b[i]));
            let mut c = t.close[i];
            if i + 1 == hi {
                c -= adj.1;
            }
            let mut k = 0;
            while k < c {
                tri!(self.close(op));
                k += 1;
            }
            i += 1;
        }
        Ok(())
    }

    /// Appends top-level mode `k` of `t` as one node.
    pub(crate) const fn push_mode(
        &mut self,
        op: Op,
        t: &Tree,
        a: &[i64; CAPACITY],
        b: &[i64; CAPACITY],
        k: usize,
    ) -> Result<(), Error> {
        match t.mode_range(k) {
            Some((lo, hi)) => self.push_node(op, t, a, b, lo, hi, t.mode_adjust(lo, hi)),
            None => Err(Error::new(
                op,
                ErrorKind::OutOfRange {
                    index: k,
                    rank: t.rank(),
                },
            )),
        }
    }

    pub(crate) const fn finish(
        self,
        op: Op,
    ) -> Result<(Tree, [i64; CAPACITY], [i64; CAPACITY]), Error> {
        if self.depth != 0 || self.pending != 0 || self.tree.n == 0 {
            return Err(Error::new(
                op,
                ErrorKind::Unsupported {
                    what: "empty or unbalanced tuples",
                },
            ));
        }
        Ok((self.tree, self.a, self.b))
    }
}

/// [`Builder::open`] on separate counters, for results written in place (see
/// `algebra::coalesce::coalesce_into`): fails past [`MAX_DEPTH`].
pub(crate) const fn open_bracket(op: Op, pending: &mut u8, depth: &mut usize) -> Result<(), Error> {
    if *depth >= MAX_DEPTH {
        return Err(Error::new(
            op,
            ErrorKind::Capacity {
                what: "nesting depth",
                limit: MAX_DEPTH,
            },
        ));
    }
    *pending += 1;
    *depth += 1;
    Ok(())
}

/// [`Builder::push_node`] of a whole valid layout `$r` (or, with `mode $k`, [`Builder::push_mode`]
/// of its top-level mode `$k`) on a layout `$out` written in place (counters `$n` leaves,
/// `$pending` brackets, `$depth`), with the same checks and errors (nesting depth, number of
/// leaves, for `$op`); on failure sets `*$err` and returns `$out` from the enclosing function. A
/// macro so that `$out` is written through its fields, never borrowed (see
/// `algebra::coalesce::coalesce_into`).
macro_rules! push_layout {
    ($op:expr, $out:ident, $err:ident, $n:ident, $pending:ident, $depth:ident, $r:expr) => {{
        let r: &$crate::layout::Layout = $r;
        $crate::int_tuple::push_layout!(
            @leaves $op, $out, $err, $n, $pending, $depth, r, 0, r.tree.len(), (0, 0)
        );
    }};
    ($op:expr, $out:ident, $err:ident, $n:ident, $pending:ident, $depth:ident, $r:expr, mode $k:expr) => {{
        let r: &$crate::layout::Layout = $r;
        let k: usize = $k;
        let (lo, hi) = match r.tree.mode_range(k) {
            Some(x) => x,
            None => {
                *$err = Err($crate::error::Error::new(
                    $op,
                    $crate::error::ErrorKind::OutOfRange {
                        index: k,
                        rank: r.tree.rank(),
                    },
                ));
                return $out;
            }
        };
        let adj = r.tree.mode_adjust(lo, hi);
        $crate::int_tuple::push_layout!(
            @leaves $op, $out, $err, $n, $pending, $depth, r, lo, hi, adj
        );
    }};
    // Leaves `[lo, hi)` of `r` as one node, `adj.0` opening brackets of the first and `adj.1`
    // closing brackets of the last left out.
    (@leaves $op:expr, $out:ident, $err:ident, $n:ident, $pending:ident, $depth:ident,
     $r:ident, $lo:expr, $hi:expr, $adj:expr) => {{
        let (lo, hi, adj): (usize, usize, (u8, u8)) = ($lo, $hi, $adj);
        let mut i = lo;
        while i < hi {
            let opens = $r.tree.open[i] - if i == lo { adj.0 } else { 0 };
            let mut o = 0;
            while o < opens {
                if let Err(e) = $crate::int_tuple::open_bracket($op, &mut $pending, &mut $depth) {
                    *$err = Err(e);
                    return $out;
                }
                o += 1;
            }
            if $n >= $crate::int_tuple::CAPACITY {
                *$err = Err($crate::error::Error::new(
                    $op,
                    $crate::error::ErrorKind::Capacity {
                        what: "number of leaves",
                        limit: $crate::int_tuple::CAPACITY,
                    },
                ));
                return $out;
            }
            $out.tree.open[$n] = $pending;
            $pending = 0;
            $out.shape[$n] = $r.shape[i];
            $out.stride[$n] = $r.stride[i];
            $out.basis[$n] = $r.basis[i];
            $n += 1;
            let closes = $r.tree.close[i] - if i + 1 == hi { adj.1 } else { 0 };
            // `=`, not `+=`: the leaf is new, and its byte, which only the initial `memset` of
            // `$out` wrote, would be read back before that wide store has reached the cache
            // (a load it cannot be forwarded to, which waits).
            $out.tree.close[$n - 1] = closes;
            $depth -= closes as usize;
            i += 1;
        }
    }};
}
pub(crate) use push_layout;

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

    /// The flat tuple `(v0,v1,...)` of the given integers. A single integer gives the 1-tuple `(v0)`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!(IntTuple::flat(&[2, 3, 4]).unwrap().to_string(), "(2,3,4)");
    /// assert_eq!(IntTuple::flat(&[5]).unwrap().to_string(), "(5)");
    /// ```
    pub const fn flat(vals: &[i64]) -> Result<IntTuple, Error> {
        if vals.is_empty() {
            return Err(Error::new(
                Op::MakeLayout,
                ErrorKind::Unsupported {
                    what: "empty tuples",
                },
            ));
        }
        if vals.len() > CAPACITY {
            return Err(Error::new(
                Op::MakeLayout,
                ErrorKind::Capacity {
                    what: "number of leaves",
                    limit: CAPACITY,
                },
            ));
        }
        let mut val = [0; CAPACITY];
        let mut i = 0;
        while i < vals.len() {
            val[i] = vals[i];
            i += 1;
        }
        Ok(IntTuple {
            tree: Tree::flat(vals.len(), true),
            val,
        })
    }

    /// The tuple of the given modes, `(m0,m1,...)`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let inner = IntTuple::flat(&[3, 4]).unwrap();
    /// let t = IntTuple::tuple(&[IntTuple::int(2), inner]).unwrap();
    /// assert_eq!(t.to_string(), "(2,(3,4))");
    /// ```
    pub const fn tuple(modes: &[IntTuple]) -> Result<IntTuple, Error> {
        let mut b = Builder::new();
        tri!(b.open(Op::MakeLayout));
        let mut i = 0;
        while i < modes.len() {
            let m = &modes[i];
            tri!(b.push_node(
                Op::MakeLayout,
                &m.tree,
                &m.val,
                &m.val,
                0,
                m.tree.len(),
                (0, 0)
            ));
            i += 1;
        }
        tri!(b.close(Op::MakeLayout));
        let (tree, val, _) = tri!(b.finish(Op::MakeLayout));
        Ok(IntTuple { tree, val })
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

    /// `|X|`: the product of all leaves (the size of a shape). Fails on overflow.
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!("((2,2),(4,2))".parse::<IntTuple>().unwrap().size().unwrap(), 32);
    /// let huge: IntTuple = "(4294967296,4294967296)".parse().unwrap();
    /// assert_eq!(huge.size().unwrap_err().to_string(), "make_layout: integer overflow: a product does not fit in i64");
    /// ```
    pub const fn size(&self) -> Result<i64, Error> {
        let mut p: i64 = 1;
        let mut i = 0;
        while i < self.tree.len() {
            p = tri!(mul(Op::MakeLayout, p, self.val[i]));
            i += 1;
        }
        Ok(p)
    }

    /// Alias of [`size`](IntTuple::size): CuTe's `product`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!("(2,(3,4))".parse::<IntTuple>().unwrap().product().unwrap(), 24);
    /// ```
    pub const fn product(&self) -> Result<i64, Error> {
        self.size()
    }

    /// The sum of all leaves (CuTe's `sum`).
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!("(2,(3,4))".parse::<IntTuple>().unwrap().sum().unwrap(), 9);
    /// ```
    pub const fn sum(&self) -> Result<i64, Error> {
        let mut s: i64 = 0;
        let mut i = 0;
        while i < self.tree.len() {
            s = tri!(crate::error::add(Op::MakeLayout, s, self.val[i]));
            i += 1;
        }
        Ok(s)
    }

    /// CuTe's `product_each`: the size of every top-level mode, as a flat tuple (an integer for an
    /// integer).
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert_eq!(x.product_each().unwrap().to_string(), "(4,8)");
    /// assert_eq!(IntTuple::int(8).product_each().unwrap().to_string(), "8");
    /// ```
    pub const fn product_each(&self) -> Result<IntTuple, Error> {
        if self.is_int() {
            return Ok(*self);
        }
        let r = self.rank();
        let mut out = IntTuple {
            tree: Tree::flat(r, true),
            val: [0; CAPACITY],
        };
        let mut k = 0;
        while k < r {
            out.val[k] = tri!(tri!(self.get(k)).size());
            k += 1;
        }
        Ok(out)
    }

    /// `prefix_product(X)`: the exclusive prefix product over the leaves, with X's profile. This is the
    /// compact column-major stride of the shape X: `(2,(3,4))` gives `(1,(2,6))`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(x.prefix_product().unwrap().to_string(), "(1,(2,6))");
    /// ```
    pub const fn prefix_product(&self) -> Result<IntTuple, Error> {
        let mut out = *self;
        let mut p: i64 = 1;
        let mut i = 0;
        while i < self.tree.len() {
            out.val[i] = p;
            p = tri!(mul(Op::MakeLayout, p, self.val[i]));
            i += 1;
        }
        Ok(out)
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

    /// `P ≲ S`: `P` is an integer, or both are tuples of equal rank with weakly congruent entries.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let s: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert!("(1,2)".parse::<IntTuple>().unwrap().weakly_congruent(&s));
    /// assert!(IntTuple::int(8).weakly_congruent(&s));
    /// assert!(!"(1,2,3)".parse::<IntTuple>().unwrap().weakly_congruent(&s));
    /// ```
    pub const fn weakly_congruent(&self, other: &IntTuple) -> bool {
        self.relates(other, false)
    }

    /// `P ⪯ S` (compatibility): `P` is an integer equal to `|S|`, or both are tuples of equal rank with
    /// compatible entries.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let s: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert!("(4,8)".parse::<IntTuple>().unwrap().compatible(&s));
    /// assert!(IntTuple::int(32).compatible(&s));
    /// assert!(!"(8,4)".parse::<IntTuple>().unwrap().compatible(&s));
    /// ```
    pub const fn compatible(&self, other: &IntTuple) -> bool {
        self.relates(other, true)
    }

    /// The two partial orders share their recursion; they differ only where `P` is an integer: weak
    /// congruence accepts any integer, compatibility one equal to `|S|`.
    const fn relates(&self, other: &IntTuple, sizes_equal: bool) -> bool {
        if self.is_int() {
            return !sizes_equal
                || match other.size() {
                    Ok(s) => s == self.val[0],
                    Err(_) => false,
                };
        }
        if other.is_int() {
            return false;
        }
        let r = self.rank();
        if r != other.rank() {
            return false;
        }
        let mut k = 0;
        while k < r {
            match (self.get(k), other.get(k)) {
                (Ok(a), Ok(b)) => {
                    if !a.relates(&b, sizes_equal) {
                        return false;
                    }
                }
                _ => return false,
            }
            k += 1;
        }
        true
    }

    /// `get<k>(X)`: the `k`-th top-level entry. `get<0>` of an integer is the integer itself.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert_eq!(x.get(1).unwrap().to_string(), "(4,2)");
    /// assert_eq!(x.get(2).unwrap_err().to_string(), "get ((2,2),(4,2)): mode index 2 is out of range for rank 2");
    /// ```
    pub const fn get(&self, k: usize) -> Result<IntTuple, Error> {
        Self::wrap(parts::get(&self.tree, &self.val, &self.val, k), self)
    }

    /// Follows a path of mode indices: `get_path(&[i, j])` is `get<j>(get<i>(X))`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert_eq!(x.get_path(&[1, 0]).unwrap().to_string(), "4");
    /// ```
    pub const fn get_path(&self, path: &[usize]) -> Result<IntTuple, Error> {
        let mut cur = *self;
        let mut i = 0;
        while i < path.len() {
            cur = tri!(cur.get(path[i]));
            i += 1;
        }
        Ok(cur)
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

    /// `unflatten(flat, profile)`: gives the leaves of `self` (which must have as many leaves as
    /// `profile`) the nesting of `profile`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(2,2,4,2)".parse().unwrap();
    /// let profile: IntTuple = "((0,0),(0,0))".parse().unwrap();
    /// assert_eq!(x.unflatten(&profile).unwrap().to_string(), "((2,2),(4,2))");
    /// let e = "(2,3)".parse::<IntTuple>().unwrap().unflatten(&profile).unwrap_err();
    /// assert_eq!(e.to_string(), "unflatten (2,3), ((0,0),(0,0)): unflatten needs as many leaves as the profile (2 vs 4)");
    /// ```
    pub const fn unflatten(&self, profile: &IntTuple) -> Result<IntTuple, Error> {
        if self.tree.len() != profile.tree.len() {
            return Err(Error::new(
                Op::Unflatten,
                ErrorKind::ProfileMismatch {
                    what: "unflatten needs as many leaves as the profile",
                    left: self.tree.len() as i64,
                    right: profile.tree.len() as i64,
                },
            )
            .with(Operand::Tuple(*self), Operand::Tuple(*profile)));
        }
        Ok(IntTuple {
            tree: profile.tree,
            val: self.val,
        })
    }

    /// `take<b,e>(X)`: the tuple of entries `[b, e)`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(4,8,2)".parse().unwrap();
    /// assert_eq!(x.take(1, 3).unwrap().to_string(), "(8,2)");
    /// ```
    pub const fn take(&self, b: usize, e: usize) -> Result<IntTuple, Error> {
        Self::wrap(parts::take(&self.tree, &self.val, &self.val, b, e), self)
    }

    /// `select<i...>(X)`: the tuple of the listed entries.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(4,8,2)".parse().unwrap();
    /// assert_eq!(x.select(&[2, 0]).unwrap().to_string(), "(2,4)");
    /// ```
    pub const fn select(&self, idx: &[usize]) -> Result<IntTuple, Error> {
        Self::wrap(parts::select(&self.tree, &self.val, &self.val, idx), self)
    }

    /// `group<b,e>(X)`: replaces entries `[b, e)` by one entry holding them as a tuple.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(4,8,2)".parse().unwrap();
    /// assert_eq!(x.group(0, 2).unwrap().to_string(), "((4,8),2)");
    /// ```
    pub const fn group(&self, b: usize, e: usize) -> Result<IntTuple, Error> {
        Self::wrap(parts::group(&self.tree, &self.val, &self.val, b, e), self)
    }

    /// `append(X, x)`: `X` with `x` as a new last entry (an integer `X` becomes `(X, x)`).
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(4,8)".parse().unwrap();
    /// assert_eq!(x.append(&IntTuple::int(2)).unwrap().to_string(), "(4,8,2)");
    /// assert_eq!(IntTuple::int(8).append(&IntTuple::int(2)).unwrap().to_string(), "(8,2)");
    /// ```
    pub const fn append(&self, x: &IntTuple) -> Result<IntTuple, Error> {
        let p = parts::insert(
            &self.tree,
            &self.val,
            &self.val,
            self.rank(),
            &x.tree,
            &x.val,
            &x.val,
        );
        Self::wrap(p, self)
    }

    /// `prepend(X, x)`: `X` with `x` as a new first entry.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(4,8)".parse().unwrap();
    /// assert_eq!(x.prepend(&IntTuple::int(2)).unwrap().to_string(), "(2,4,8)");
    /// ```
    pub const fn prepend(&self, x: &IntTuple) -> Result<IntTuple, Error> {
        Self::wrap(
            parts::insert(&self.tree, &self.val, &self.val, 0, &x.tree, &x.val, &x.val),
            self,
        )
    }

    /// `replace<k>(X, x)`: `X` with entry `k` replaced by `x`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(4,8)".parse().unwrap();
    /// let y: IntTuple = "(2,2)".parse().unwrap();
    /// assert_eq!(x.replace(0, &y).unwrap().to_string(), "((2,2),8)");
    /// ```
    pub const fn replace(&self, k: usize, x: &IntTuple) -> Result<IntTuple, Error> {
        Self::wrap(
            parts::replace(&self.tree, &self.val, &self.val, k, &x.tree, &x.val, &x.val),
            self,
        )
    }

    /// `reverse(X)`: the top-level entries in reverse order (an integer is its own reverse).
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!("(4,8,2)".parse::<IntTuple>().unwrap().reverse().unwrap().to_string(), "(2,8,4)");
    /// assert_eq!(IntTuple::int(8).reverse().unwrap().to_string(), "8");
    /// ```
    pub const fn reverse(&self) -> Result<IntTuple, Error> {
        Self::wrap(parts::reverse(&self.tree, &self.val, &self.val), self)
    }

    const fn wrap(p: Result<Parts, Error>, arg: &IntTuple) -> Result<IntTuple, Error> {
        match p {
            Ok((tree, val, _)) => Ok(IntTuple { tree, val }),
            Err(e) => Err(e.or_with(Operand::Tuple(*arg), Operand::None)),
        }
    }

    /// Parses CuTe notation (`12`, `(4,8)`, `((2,2),(4,2))`), usable in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, IntTuple};
    /// const S: IntTuple = unwrap(IntTuple::parse_const("((2,2),(4,2))"));
    /// assert_eq!(S.leaf_count(), 4);
    /// assert_eq!(IntTuple::parse_const("(2,)").unwrap_err().to_string(), "parse: at byte 3: expected an integer or '('");
    /// ```
    pub const fn parse_const(text: &str) -> Result<IntTuple, Error> {
        crate::parse::int_tuple(text.as_bytes())
    }
}

/// A hierarchical value split into its profile and up to two leaf arrays (shape and stride for a
/// layout; the same array twice for a tuple).
pub(crate) type Parts = (Tree, [i64; CAPACITY], [i64; CAPACITY]);

/// Tuple manipulations shared by [`IntTuple`] and [`Layout`](crate::Layout): they rearrange the
/// profile and carry the leaf arrays along.
pub(crate) mod parts {
    use super::{Builder, Parts, Tree, CAPACITY};
    use crate::error::{tri, Error, ErrorKind, Op};

    type V = [i64; CAPACITY];

    pub(crate) const fn get(t: &Tree, a: &V, b: &V, k: usize) -> Result<Parts, Error> {
        let mut bl = Builder::new();
        tri!(bl.push_mode(Op::Get, t, a, b, k));
        bl.finish(Op::Get)
    }

    pub(crate) const fn take(t: &Tree, a: &V, b: &V, lo: usize, hi: usize) -> Result<Parts, Error> {
        let r = t.rank();
        if lo >= hi || hi > r {
            return Err(Error::new(
                Op::Take,
                ErrorKind::OutOfRange { index: hi, rank: r },
            ));
        }
        let mut bl = Builder::new();
        tri!(bl.open(Op::Take));
        let mut k = lo;
        while k < hi {
            tri!(bl.push_mode(Op::Take, t, a, b, k));
            k += 1;
        }
        tri!(bl.close(Op::Take));
        bl.finish(Op::Take)
    }

    pub(crate) const fn select(t: &Tree, a: &V, b: &V, idx: &[usize]) -> Result<Parts, Error> {
        let mut bl = Builder::new();
        tri!(bl.open(Op::Select));
        let mut i = 0;
        while i < idx.len() {
            tri!(bl.push_mode(Op::Select, t, a, b, idx[i]));
            i += 1;
        }
        tri!(bl.close(Op::Select));
        bl.finish(Op::Select)
    }

    pub(crate) const fn group(
        t: &Tree,
        a: &V,
        b: &V,
        lo: usize,
        hi: usize,
    ) -> Result<Parts, Error> {
        let r = t.rank();
        if lo >= hi || hi > r {
            return Err(Error::new(
                Op::Group,
                ErrorKind::OutOfRange { index: hi, rank: r },
            ));
        }
        let mut bl = Builder::new();
        tri!(bl.open(Op::Group));
        let mut k = 0;
        while k < r {
            if k == lo {
                tri!(bl.open(Op::Group));
            }
            tri!(bl.push_mode(Op::Group, t, a, b, k));
            if k + 1 == hi {
                tri!(bl.close(Op::Group));
            }
            k += 1;
        }
        tri!(bl.close(Op::Group));
        bl.finish(Op::Group)
    }

    /// Inserts the node `x` as the new entry `pos` (`0..=rank`).
    pub(crate) const fn insert(
        t: &Tree,
        a: &V,
        b: &V,
        pos: usize,
        xt: &Tree,
        xa: &V,
        xb: &V,
    ) -> Result<Parts, Error> {
        let r = t.rank();
        let mut bl = Builder::new();
        tri!(bl.open(Op::MakeLayout));
        let mut k = 0;
        while k <= r {
            if k == pos {
                tri!(bl.push_node(Op::MakeLayout, xt, xa, xb, 0, xt.len(), (0, 0)));
            }
            if k < r {
                tri!(bl.push_mode(Op::MakeLayout, t, a, b, k));
            }
            k += 1;
        }
        tri!(bl.close(Op::MakeLayout));
        bl.finish(Op::MakeLayout)
    }

    pub(crate) const fn replace(
        t: &Tree,
        a: &V,
        b: &V,
        pos: usize,
        xt: &Tree,
        xa: &V,
        xb: &V,
    ) -> Result<Parts, Error> {
        let r = t.rank();
        if pos >= r {
            return Err(Error::new(
                Op::Get,
                ErrorKind::OutOfRange {
                    index: pos,
                    rank: r,
                },
            ));
        }
        if t.is_leaf() {
            return Ok((*xt, *xa, *xb));
        }
        let mut bl = Builder::new();
        tri!(bl.open(Op::MakeLayout));
        let mut k = 0;
        while k < r {
            if k == pos {
                tri!(bl.push_node(Op::MakeLayout, xt, xa, xb, 0, xt.len(), (0, 0)));
            } else {
                tri!(bl.push_mode(Op::MakeLayout, t, a, b, k));
            }
            k += 1;
        }
        tri!(bl.close(Op::MakeLayout));
        bl.finish(Op::MakeLayout)
    }

    pub(crate) const fn reverse(t: &Tree, a: &V, b: &V) -> Result<Parts, Error> {
        if t.is_leaf() {
            return Ok((*t, *a, *b));
        }
        let mut bl = Builder::new();
        tri!(bl.open(Op::MakeLayout));
        let mut k = t.rank();
        while k > 0 {
            k -= 1;
            tri!(bl.push_mode(Op::MakeLayout, t, a, b, k));
        }
        tri!(bl.close(Op::MakeLayout));
        bl.finish(Op::MakeLayout)
    }
}
