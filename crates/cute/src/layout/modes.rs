//! Mode surgery on layouts: `get`, `take`, `select`, `group`, `append`, `replace`, `flatten`,
//! `concat`, … (the tuple rebuilders of [`parts`] on the shape, the strides and the basis codes).

use super::build::{checked_size, concat_build, mode_build};
use super::repr::Layout;
use crate::error::{tri, Error, Op, Operand};
use crate::int_tuple::build::parts;
use crate::int_tuple::{IntTuple, Parts, Tree, CAPACITY};
use crate::stride::Code;

impl Layout {
    /// `L_k = S_k : D_k`, the `k`-th mode (`get<k>`). Mode 0 of a rank-1 integer layout is itself.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.mode(1).unwrap().to_string(), "(4,2):(2,16)");
    /// assert_eq!(l.mode(2).unwrap_err().to_string(), "get ((2,2),(4,2)):((1,8),(2,16)): mode index 2 is out of range for rank 2");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` when `k` is not below the rank (a rank-1 integer layout has mode 0 only).
    pub const fn mode(&self, k: usize) -> Result<Layout, Error> {
        // `r` is the only value returned and is never borrowed: it is the return place, and the
        // mode is written straight into it (see `algebra::coalesce::coalesce_into`).
        let mut err = Ok(());
        let mut r = Ok(mode_build(self, k, &mut err));
        if let Err(e) = err {
            r = Err(e.or_with(Operand::Layout(*self), Operand::None));
        }
        r
    }

    /// The sub-layout at a path of mode indices: `get(&[i, j])` is `mode(i).mode(j)`.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.get(&[1, 0]).unwrap().to_string(), "4:2");
    /// assert_eq!(l.get(&[]).unwrap(), l);
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` when an index of the path is not below the rank of the mode it indexes.
    pub const fn get(&self, path: &[usize]) -> Result<Layout, Error> {
        let mut cur = *self;
        let mut i = 0;
        while i < path.len() {
            cur = tri!(cur.mode(path[i]));
            i += 1;
        }
        Ok(cur)
    }

    /// `flatten(L)`: depth at most 1, same leaves.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.flatten().to_string(), "(2,2,4,2):(1,8,2,16)");
    /// ```
    pub const fn flatten(&self) -> Layout {
        if self.tree.is_leaf() {
            return *self;
        }
        Layout {
            tree: Tree::flat(self.tree.len(), true),
            shape: self.shape,
            stride: self.stride,
            basis: self.basis,
        }
    }

    /// `unflatten(L, profile)`: the leaves of `L` nested as `profile`.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "(2,2,4,2):(1,8,2,16)".parse().unwrap();
    /// let u = l.unflatten(&"((0,0),(0,0))".parse().unwrap()).unwrap();
    /// assert_eq!(u.to_string(), "((2,2),(4,2)):((1,8),(2,16))");
    /// ```
    ///
    /// # Errors
    ///
    /// `ProfileMismatch` when `profile` has another number of leaves than `L`.
    pub const fn unflatten(&self, profile: &IntTuple) -> Result<Layout, Error> {
        let s = tri!(self.shape().unflatten(profile));
        Ok(Layout {
            tree: s.tree,
            shape: self.shape,
            stride: self.stride,
            basis: self.basis,
        })
    }

    /// `take<b,e>(L)`.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "(4,8,2):(1,4,32)".parse().unwrap();
    /// assert_eq!(l.take(0, 2).unwrap().to_string(), "(4,8):(1,4)");
    /// assert_eq!(l.take(1, 3).unwrap().to_string(), "(8,2):(4,32)");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` unless `b < e <= rank`.
    pub const fn take(&self, b: usize, e: usize) -> Result<Layout, Error> {
        self.wrap(
            Op::Take,
            parts::take(&self.tree, &self.shape, &self.stride, b, e),
            parts::take(&self.tree, &wide(&self.basis), &wide(&self.basis), b, e),
        )
    }

    /// `select<i...>(L)`.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "(4,8,2):(1,4,32)".parse().unwrap();
    /// assert_eq!(l.select(&[2, 0]).unwrap().to_string(), "(2,4):(32,1)");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` when an index is not below the rank; `Unsupported` for an empty list;
    /// `Capacity` past [`CAPACITY`](crate::CAPACITY) leaves and `Overflow` when the size does not
    /// fit in `i64` (a mode may be taken twice).
    pub const fn select(&self, idx: &[usize]) -> Result<Layout, Error> {
        self.wrap(
            Op::Select,
            parts::select(&self.tree, &self.shape, &self.stride, idx),
            parts::select(&self.tree, &wide(&self.basis), &wide(&self.basis), idx),
        )
    }

    /// `group<b,e>(L)`.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "(4,8,2):(1,4,32)".parse().unwrap();
    /// assert_eq!(l.group(0, 2).unwrap().to_string(), "((4,8),2):((1,4),32)");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` unless `b < e <= rank`; `Capacity` when the new level of parentheses would nest
    /// deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    pub const fn group(&self, b: usize, e: usize) -> Result<Layout, Error> {
        self.wrap(
            Op::Group,
            parts::group(&self.tree, &self.shape, &self.stride, b, e),
            parts::group(&self.tree, &wide(&self.basis), &wide(&self.basis), b, e),
        )
    }

    /// `append(L, x)`: `x` as a new last mode.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "(4,8):(1,4)".parse().unwrap();
    /// let x: Layout = "2:32".parse().unwrap();
    /// assert_eq!(l.append(&x).unwrap().to_string(), "(4,8,2):(1,4,32)");
    /// ```
    ///
    /// # Errors
    ///
    /// `Capacity` when the result would have more than [`CAPACITY`](crate::CAPACITY) leaves or nest
    /// deeper than [`MAX_DEPTH`](crate::MAX_DEPTH) levels; `Overflow` when the size does not fit in
    /// `i64`; `Unsupported` (`MixedSemimodules`) when `x`'s strides come from another semimodule
    /// than `L`'s.
    pub const fn append(&self, x: &Layout) -> Result<Layout, Error> {
        self.insert(self.rank(), x)
    }

    /// `prepend(L, x)`: `x` as a new first mode.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "(4,8):(1,4)".parse().unwrap();
    /// let x: Layout = "2:32".parse().unwrap();
    /// assert_eq!(l.prepend(&x).unwrap().to_string(), "(2,4,8):(32,1,4)");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`append`](Layout::append).
    pub const fn prepend(&self, x: &Layout) -> Result<Layout, Error> {
        self.insert(0, x)
    }

    /// `x` as a new mode at position `k` (shape, stride and basis codes moved alike).
    const fn insert(&self, k: usize, x: &Layout) -> Result<Layout, Error> {
        let (b, xb) = (wide(&self.basis), wide(&x.basis));
        self.wrap(
            Op::Concatenation,
            parts::insert(
                &self.tree,
                &self.shape,
                &self.stride,
                k,
                &x.tree,
                &x.shape,
                &x.stride,
            ),
            parts::insert(&self.tree, &b, &b, k, &x.tree, &xb, &xb),
        )
    }

    /// `replace<k>(L, x)`.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "(4,8):(1,4)".parse().unwrap();
    /// let x: Layout = "(2,4):(4,8)".parse().unwrap();
    /// assert_eq!(l.replace(1, &x).unwrap().to_string(), "(4,(2,4)):(1,(4,8))");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` when `k` is not below the rank; otherwise as [`append`](Layout::append)
    /// (`Capacity`, `Overflow`, `Unsupported` for strides of another semimodule).
    pub const fn replace(&self, k: usize, x: &Layout) -> Result<Layout, Error> {
        self.wrap(
            Op::Concatenation,
            parts::replace(
                &self.tree,
                &self.shape,
                &self.stride,
                k,
                &x.tree,
                &x.shape,
                &x.stride,
            ),
            parts::replace(
                &self.tree,
                &wide(&self.basis),
                &wide(&self.basis),
                k,
                &x.tree,
                &wide(&x.basis),
                &wide(&x.basis),
            ),
        )
    }

    /// The modes in reverse order.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "(4,8):(1,4)".parse().unwrap();
    /// assert_eq!(l.reverse().unwrap().to_string(), "(8,4):(4,1)");
    /// ```
    ///
    /// # Errors
    ///
    /// None for a valid layout: the result has the same leaves and the same depth (the `Result` is
    /// that of the tuple rebuilder that the other mode operations share).
    pub const fn reverse(&self) -> Result<Layout, Error> {
        self.wrap(
            Op::MakeLayout,
            parts::reverse(&self.tree, &self.shape, &self.stride),
            parts::reverse(&self.tree, &wide(&self.basis), &wide(&self.basis)),
        )
    }

    /// CuTe's `append<R>(L)`: pads `L` with `1:0` modes up to rank `r` (an integer layout becomes a
    /// tuple first). Unchanged when `rank(L) >= r`.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "8:1".parse().unwrap();
    /// assert_eq!(l.pad_to_rank(3).unwrap().to_string(), "(8,1,1):(1,0,0)");
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`append`](Layout::append) of `1:0`: `Capacity` when the padded layout would have
    /// more than [`CAPACITY`](crate::CAPACITY) leaves.
    pub const fn pad_to_rank(&self, r: usize) -> Result<Layout, Error> {
        let mut out = *self;
        while out.rank() < r {
            out = tri!(out.append(&Layout::TRIVIAL));
        }
        Ok(out)
    }

    /// The layout of the structure operation `op`'s result `p`, whose basis codes `b` were moved
    /// the same way (the same operation applied to the codes). The leaves come from valid layouts,
    /// but `select` may take a mode twice and `append`/`replace` bring another layout's leaves:
    /// the size is checked (the invariant of [`Layout`]).
    const fn wrap(
        &self,
        op: Op,
        p: Result<Parts, Error>,
        b: Result<Parts, Error>,
    ) -> Result<Layout, Error> {
        match (p, b) {
            (Ok(p), Ok(b)) => {
                if let Err(e) = checked_size(&p.1, p.0.len(), op) {
                    return Err(e.or_with(Operand::Layout(*self), Operand::None));
                }
                let mut l = Layout::from_valid(p);
                l.basis = narrow(&b.1);
                // `append`/`replace` may bring strides of another semimodule
                match l.normalize_basis(Op::Concatenation) {
                    Ok(()) => Ok(l),
                    Err(e) => Err(e.or_with(Operand::Layout(*self), Operand::None)),
                }
            }
            (Err(e), _) | (_, Err(e)) => Err(e.or_with(Operand::Layout(*self), Operand::None)),
        }
    }

    /// Concatenation `(L0, L1, ...)` (paper eq. (4)): the layout whose modes are the given layouts.
    ///
    /// ```
    /// use cute::Layout;
    /// let a: Layout = "4:1".parse().unwrap();
    /// let b: Layout = "(2,4):(4,8)".parse().unwrap();
    /// assert_eq!(Layout::concat(&[a, b]).unwrap().to_string(), "(4,(2,4)):(1,(4,8))");
    /// ```
    ///
    /// # Errors
    ///
    /// `Unsupported` for no modes (there is no empty layout) and (`MixedSemimodules`) for modes
    /// whose strides come from different semimodules; `Capacity` when the result would have more
    /// than [`CAPACITY`](crate::CAPACITY) leaves or nest deeper than
    /// [`MAX_DEPTH`](crate::MAX_DEPTH) levels; `Overflow` when the size does not fit in `i64`.
    pub const fn concat(modes: &[Layout]) -> Result<Layout, Error> {
        // Built in the return place (see `algebra::coalesce::coalesce_into`).
        let mut err = Ok(());
        let mut r = Ok(concat_build(modes, &mut err));
        if let Err(e) = err {
            r = Err(e);
        }
        r
    }
}

/// Basis codes as `i64`s, for the structure operations of [`parts`] (which move the leaves of two
/// `i64` arrays).
const fn wide(c: &[Code; CAPACITY]) -> [i64; CAPACITY] {
    let mut out = [0i64; CAPACITY];
    let mut i = 0;
    while i < CAPACITY {
        out[i] = c[i] as i64;
        i += 1;
    }
    out
}

/// The inverse of [`wide`] (every value came from a [`Code`]).
pub(crate) const fn narrow(c: &[i64; CAPACITY]) -> [Code; CAPACITY] {
    let mut out = [0 as Code; CAPACITY];
    let mut i = 0;
    while i < CAPACITY {
        out[i] = c[i] as Code;
        i += 1;
    }
    out
}
