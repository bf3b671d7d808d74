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

/// Tuple manipulations shared by [`IntTuple`](crate::IntTuple) and [`Layout`](crate::Layout):
/// they rearrange the profile and carry the leaf arrays along. Each is a [`Plan`] of the result's
/// top-level entries, carried out by the one [`rebuild`].
pub(crate) mod parts {
    use super::Builder;
    use crate::error::{tri, Error, ErrorKind, Op};
    use crate::int_tuple::{Parts, Tree, CAPACITY};

    type V = [i64; CAPACITY];

    /// The top-level entries of a rebuilt tuple, in order: each is a mode of the source `t` or
    /// the inserted node `x`; `Group` also brackets its entries `lo..hi` into one.
    #[derive(Clone, Copy)]
    enum Plan<'a> {
        /// Modes `lo..hi` of `t`.
        Range(usize, usize),
        /// The listed modes of `t` (a mode may repeat).
        Select(&'a [usize]),
        /// Every mode of `t`, modes `lo..hi` bracketed into one.
        Group(usize, usize),
        /// Every mode of `t`, with `x` placed before mode `pos` (`pos = rank`: after the last).
        Insert(usize),
        /// Every mode of `t`, mode `pos` replaced by `x`.
        Replace(usize),
        /// Every mode of `t`, last first.
        Reverse,
    }

    /// One entry of a [`Plan`].
    #[derive(Clone, Copy)]
    enum Entry {
        /// Mode `k` of the source.
        Mode(usize),
        /// The inserted node.
        Node,
    }

    impl Plan<'_> {
        /// The number of entries, for a source of rank `r`.
        const fn len(&self, r: usize) -> usize {
            match *self {
                Plan::Range(lo, hi) => hi - lo,
                Plan::Select(idx) => idx.len(),
                Plan::Insert(_) => r + 1,
                Plan::Group(..) | Plan::Replace(_) | Plan::Reverse => r,
            }
        }

        /// Entry `j`, for a source of rank `r`.
        const fn entry(&self, j: usize, r: usize) -> Entry {
            match *self {
                Plan::Range(lo, _) => Entry::Mode(lo + j),
                Plan::Select(idx) => Entry::Mode(idx[j]),
                Plan::Group(..) => Entry::Mode(j),
                Plan::Insert(pos) => {
                    if j < pos {
                        Entry::Mode(j)
                    } else if j == pos {
                        Entry::Node
                    } else {
                        Entry::Mode(j - 1)
                    }
                }
                Plan::Replace(pos) => {
                    if j == pos {
                        Entry::Node
                    } else {
                        Entry::Mode(j)
                    }
                }
                Plan::Reverse => Entry::Mode(r - 1 - j),
            }
        }
    }

    /// The tuple `(e_0, e_1, …)` of the entries of `plan`: a mode of `t` (values from `a`, `b`) or
    /// the node `x`, with a `Group`'s entries bracketed; every check and error of the builder is
    /// that of `op`.
    #[allow(clippy::too_many_arguments)]
    const fn rebuild(
        op: Op,
        plan: Plan,
        t: &Tree,
        a: &V,
        b: &V,
        xt: &Tree,
        xa: &V,
        xb: &V,
    ) -> Result<Parts, Error> {
        let r = t.rank();
        let (glo, ghi) = match plan {
            Plan::Group(lo, hi) => (lo, hi),
            _ => (usize::MAX, usize::MAX),
        };
        let mut bl = Builder::new();
        tri!(bl.open(op));
        let n = plan.len(r);
        let mut j = 0;
        while j < n {
            if j == glo {
                tri!(bl.open(op));
            }
            match plan.entry(j, r) {
                Entry::Mode(k) => tri!(bl.push_mode(op, t, a, b, k)),
                Entry::Node => tri!(bl.push_node(op, xt, xa, xb, 0, xt.len(), (0, 0))),
            }
            if j + 1 == ghi {
                tri!(bl.close(op));
            }
            j += 1;
        }
        tri!(bl.close(op));
        bl.finish(op)
    }

    /// [`rebuild`] of a plan without an inserted node.
    const fn rebuild_modes(op: Op, plan: Plan, t: &Tree, a: &V, b: &V) -> Result<Parts, Error> {
        rebuild(op, plan, t, a, b, &Tree::EMPTY, a, b)
    }

    /// [`rebuild_modes`] of a plan over the modes `lo..hi`; the `OutOfRange` of `op` (naming `hi`)
    /// when that range is empty or passes the rank.
    const fn rebuild_range(
        op: Op,
        plan: Plan,
        t: &Tree,
        a: &V,
        b: &V,
        lo: usize,
        hi: usize,
    ) -> Result<Parts, Error> {
        let r = t.rank();
        if lo >= hi || hi > r {
            return Err(Error::new(op, ErrorKind::OutOfRange { index: hi, rank: r }));
        }
        rebuild_modes(op, plan, t, a, b)
    }

    pub(crate) const fn get(t: &Tree, a: &V, b: &V, k: usize) -> Result<Parts, Error> {
        let mut bl = Builder::new();
        tri!(bl.push_mode(Op::Get, t, a, b, k));
        bl.finish(Op::Get)
    }

    pub(crate) const fn take(t: &Tree, a: &V, b: &V, lo: usize, hi: usize) -> Result<Parts, Error> {
        rebuild_range(Op::Take, Plan::Range(lo, hi), t, a, b, lo, hi)
    }

    pub(crate) const fn select(t: &Tree, a: &V, b: &V, idx: &[usize]) -> Result<Parts, Error> {
        rebuild_modes(Op::Select, Plan::Select(idx), t, a, b)
    }

    pub(crate) const fn group(
        t: &Tree,
        a: &V,
        b: &V,
        lo: usize,
        hi: usize,
    ) -> Result<Parts, Error> {
        rebuild_range(Op::Group, Plan::Group(lo, hi), t, a, b, lo, hi)
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
        rebuild(Op::MakeLayout, Plan::Insert(pos), t, a, b, xt, xa, xb)
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
        rebuild(Op::MakeLayout, Plan::Replace(pos), t, a, b, xt, xa, xb)
    }

    pub(crate) const fn reverse(t: &Tree, a: &V, b: &V) -> Result<Parts, Error> {
        if t.is_leaf() {
            return Ok((*t, *a, *b));
        }
        rebuild_modes(Op::MakeLayout, Plan::Reverse, t, a, b)
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
