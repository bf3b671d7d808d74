//! The tuple builder: hierarchical values (tuples, layouts) built leaf by leaf, with the checks
//! (capacity, nesting depth, empty tuples) that name the operation in their error, and the tuple
//! surgery shared by [`IntTuple`](crate::IntTuple) and [`Layout`](crate::Layout) ([`parts`]).

use crate::error::{tri, Error, ErrorKind, Op};
use crate::int_tuple::{Tree, CAPACITY, MAX_DEPTH};

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

/// Tuple manipulations shared by [`IntTuple`] and [`Layout`](crate::Layout): they rearrange the
/// profile and carry the leaf arrays along.
pub(crate) mod parts {
    use super::Builder;
    use crate::error::{tri, Error, ErrorKind, Op};
    use crate::int_tuple::{Parts, Tree, CAPACITY};

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

/// Top-level mode `k` of the tree `t`: the index of its first leaf and its own nesting.
pub(crate) const fn sub_tree(t: &Tree, k: usize, op: Op) -> Result<(usize, Tree), Error> {
    let lo = match t.mode_range(k) {
        Some(x) => x.0,
        None => {
            return Err(Error::new(
                op,
                ErrorKind::OutOfRange {
                    index: k,
                    rank: t.rank(),
                },
            ))
        }
    };
    let zeros = [0; CAPACITY];
    let (sub, _, _) = tri!(parts::get(t, &zeros, &zeros, k));
    Ok((lo, sub))
}
