//! Building layouts: `make_layout` and the checked constructors, the identity layout, the compact
//! and ordered layouts, and the checks of the strides' semimodule.

use super::build::checked_size;
use super::repr::Layout;
use crate::error::{mul, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::build::sub_tree;
use crate::int_tuple::{IntTuple, Parts, Tree, CAPACITY};
use crate::stride::ops::encode_path;
use crate::stride::{kind_of, Code, Semimodule, Stride, BINARY, INTEGER, MAX_PATH};

/// `make_layout(shape, stride)`: the layout `shape:stride`. The two must be congruent and every
/// shape entry positive.
///
/// ```
/// use cute::{make_layout, IntTuple};
/// let shape: IntTuple = "(4,8)".parse().unwrap();
/// let stride: IntTuple = "(8,1)".parse().unwrap();
/// let l = make_layout(&shape, &stride).unwrap();
/// assert_eq!(l.to_string(), "(4,8):(8,1)");
/// assert_eq!(l.eval(5).unwrap(), 9); // index 5 is the coordinate (1,1)
/// ```
///
/// # Errors
///
/// As [`Layout::new`]: `ProfileMismatch` when the shape and the stride are not congruent,
/// `InvalidShape` for a shape entry below 1, `Overflow` when the size does not fit in `i64`.
pub const fn make_layout(shape: &IntTuple, stride: &IntTuple) -> Result<Layout, Error> {
    Layout::new(shape, stride)
}

impl Layout {
    /// `shape:stride`, checking congruence, positive shapes and that the size fits in `i64`.
    ///
    /// ```
    /// use cute::{IntTuple, Layout};
    /// let shape: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// let stride: IntTuple = "((1,8),(2,16))".parse().unwrap();
    /// let l = Layout::new(&shape, &stride).unwrap();
    /// assert_eq!(l.to_string(), "((2,2),(4,2)):((1,8),(2,16))");
    /// let e = Layout::new(&shape, &"(1,2)".parse().unwrap()).unwrap_err();
    /// assert_eq!(e.to_string(), "make_layout ((2,2),(4,2)), (1,2): shape and stride are not congruent (S ~ D fails)");
    /// ```
    ///
    /// # Errors
    ///
    /// `ProfileMismatch` (`NotCongruent`) when the shape and the stride are not congruent;
    /// `InvalidShape` for a shape entry below 1; `Overflow` when the size does not fit in `i64`.
    pub const fn new(shape: &IntTuple, stride: &IntTuple) -> Result<Layout, Error> {
        if !shape.tree.eq(&stride.tree) {
            return Err(
                Error::new(Op::MakeLayout, ErrorKind::NotCongruent { at: None })
                    .with(Operand::Tuple(*shape), Operand::Tuple(*stride)),
            );
        }
        Layout::from_parts((shape.tree, shape.val, stride.val), Op::MakeLayout)
    }

    /// The rank-1, depth-0 layout `s:d`.
    ///
    /// ```
    /// use cute::Layout;
    /// let l = Layout::leaf(8, 2).unwrap();
    /// assert_eq!(l.to_string(), "8:2");
    /// assert_eq!(l.eval(3).unwrap(), 6);
    /// let e = Layout::leaf(0, 1).unwrap_err();
    /// assert_eq!(e.to_string(), "make_layout: shape entries must be positive integers, found 0");
    /// ```
    ///
    /// # Errors
    ///
    /// `InvalidShape` for `s < 1`.
    pub const fn leaf(s: i64, d: i64) -> Result<Layout, Error> {
        let mut shape = [0; CAPACITY];
        let mut stride = [0; CAPACITY];
        shape[0] = s;
        stride[0] = d;
        Layout::from_parts((Tree::LEAF, shape, stride), Op::MakeLayout)
    }

    /// The flat layout `(s0,s1,...):(d0,d1,...)` (a single pair gives the 1-tuple form `(s0):(d0)`).
    ///
    /// ```
    /// use cute::Layout;
    /// assert_eq!(Layout::flat(&[2, 4], &[4, 1]).unwrap().to_string(), "(2,4):(4,1)");
    /// assert_eq!(Layout::flat(&[8], &[1]).unwrap().to_string(), "(8):(1)");
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`IntTuple::flat`] for either slice (`Unsupported` when empty, `Capacity` past
    /// [`CAPACITY`] entries); `ProfileMismatch` when the slices differ in length; `InvalidShape`
    /// for a shape entry below 1; `Overflow` when the size does not fit in `i64`.
    pub const fn flat(shape: &[i64], stride: &[i64]) -> Result<Layout, Error> {
        let s = tri!(IntTuple::flat(shape));
        let d = tri!(IntTuple::flat(stride));
        Layout::new(&s, &d)
    }

    /// Builds a layout from parts, validating the shape (the invariant of [`Layout`]).
    pub(crate) const fn from_parts(p: Parts, op: Op) -> Result<Layout, Error> {
        let (tree, shape, stride) = p;
        let mut i = 0;
        while i < tree.len() {
            if shape[i] < 1 {
                return Err(Error::new(op, ErrorKind::InvalidShape { value: shape[i] }));
            }
            i += 1;
        }
        tri!(checked_size(&shape, tree.len(), op));
        Ok(Layout {
            tree,
            shape,
            stride,
            basis: [0; CAPACITY],
        })
    }

    /// [`Layout::from_parts`] with the basis codes of the strides (checked to lie in one
    /// semimodule, zero made canonical).
    pub(crate) const fn from_parts_basis(
        p: Parts,
        basis: [Code; CAPACITY],
        op: Op,
    ) -> Result<Layout, Error> {
        let mut l = tri!(Layout::from_parts(p, op));
        l.basis = basis;
        tri!(l.normalize_basis(op));
        Ok(l)
    }

    /// Makes the basis code of every zero stride `0` and checks that the nonzero strides lie in
    /// one semimodule (the paper refuses `(4:2, 3:e_0)`).
    pub(crate) const fn normalize_basis(&mut self, op: Op) -> Result<(), Error> {
        let mut first: Code = INTEGER;
        let mut seen = false;
        let mut binary_zero = false;
        let mut i = 0;
        while i < self.tree.len() {
            if self.stride[i] == 0 {
                // the zero of F2 keeps its kind (it prints `F0`); any other zero is plain `0`
                if self.basis[i] == BINARY {
                    binary_zero = true;
                } else {
                    self.basis[i] = 0;
                }
            } else if !seen {
                first = self.basis[i];
                seen = true;
            } else if !same_kind(first, self.basis[i]) {
                return Err(Error::new(
                    op,
                    ErrorKind::MixedSemimodules {
                        left: kind_of(first),
                        right: kind_of(self.basis[i]),
                    },
                ));
            }
            i += 1;
        }
        if binary_zero && seen && first == INTEGER {
            return Err(Error::new(
                op,
                ErrorKind::MixedSemimodules {
                    left: Semimodule::Integer,
                    right: Semimodule::Binary,
                },
            ));
        }
        Ok(())
    }

    /// Builds from parts known to be valid (shapes positive, size in range: the caller's proof of
    /// the invariant of [`Layout`]), integer strides.
    pub(crate) const fn from_valid(p: Parts) -> Layout {
        Layout {
            tree: p.0,
            shape: p.1,
            stride: p.2,
            basis: [0; CAPACITY],
        }
    }

    /// `shape:stride` from a shape and one [`Stride`] per leaf (all from one semimodule).
    ///
    /// ```
    /// use cute::{make_identity_layout, IntTuple, Layout, Stride};
    /// let shape: IntTuple = "(4,6)".parse().unwrap();
    /// let strides = [Stride::basis(1, &[0]).unwrap(), Stride::basis(1, &[1]).unwrap()];
    /// let l = Layout::from_strides(&shape, &strides).unwrap();
    /// assert_eq!(l.to_string(), "(4,6):(1@0,1@1)");
    /// assert_eq!(l, make_identity_layout(&shape).unwrap());
    /// ```
    ///
    /// # Errors
    ///
    /// `ProfileMismatch` unless there is one stride per leaf of the shape; `Unsupported`
    /// (`MixedSemimodules`) when the nonzero strides come from different semimodules;
    /// `InvalidShape` for a shape entry below 1; `Overflow` when the size does not fit in `i64`.
    pub fn from_strides(shape: &IntTuple, strides: &[Stride]) -> Result<Layout, Error> {
        let n = shape.tree.len();
        if strides.len() != n {
            return Err(Error::new(
                Op::MakeLayout,
                ErrorKind::ProfileMismatch {
                    what: "one stride per leaf of the shape is needed",
                    left: strides.len() as i64,
                    right: n as i64,
                },
            )
            .with(Operand::Tuple(*shape), Operand::None));
        }
        let mut stride = [0; CAPACITY];
        let mut basis = [0; CAPACITY];
        for (i, d) in strides.iter().enumerate() {
            stride[i] = d.value;
            basis[i] = d.code;
        }
        Layout::from_parts_basis((shape.tree, shape.val, stride), basis, Op::MakeLayout)
    }

    /// Fails with [`ErrorKind::NeedsIntegerStrides`] unless every stride is an integer.
    #[inline]
    pub(crate) const fn require_integral(&self, op: Op) -> Result<(), Error> {
        if self.is_integral() {
            Ok(())
        } else {
            Err(self.needs_integer_strides(op))
        }
    }

    /// The error of [`require_integral`](Layout::require_integral), for a layout with a stride
    /// that is not an integer. (Out of line: hot paths test [`is_integral`](Layout::is_integral)
    /// and build the error only when it fails.)
    #[cold]
    pub(crate) const fn needs_integer_strides(&self, op: Op) -> Error {
        Error::new(
            op,
            ErrorKind::NeedsIntegerStrides {
                found: self.semimodule(),
            },
        )
        .with(Operand::Layout(*self), Operand::None)
    }
}

/// `make_identity_layout(S)`: the layout that maps every coordinate of `S` to itself, as an
/// arithmetic tuple: each leaf of `S` gets the unit basis `e_p` of its position `p` (CuTe's
/// `make_layout(S, make_basis_like(S))`). An integer shape `n` gives `n:1`.
///
/// | `S` | identity layout |
/// |---|---|
/// | `(4,6)` | `(4,6):(1@0,1@1)` |
/// | `(4,(3,2))` | `(4,(3,2)):(1@0,(1@0@1,1@1@1))` |
///
/// (The paper's `(4,(3,2)):(e0,(e1,3e1))` is also an identity of `Z_(4,6)`, built by hand: it
/// folds the two sub-modes back into one coordinate.)
///
/// ```
/// use cute::make_identity_layout;
/// let id = make_identity_layout(&"(4,(3,2))".parse().unwrap()).unwrap();
/// assert_eq!(id.to_string(), "(4,(3,2)):(1@0,(1@0@1,1@1@1))");
/// assert_eq!(id.eval_value(7).unwrap().to_string(), "(3,(1,0))");
/// ```
///
/// # Errors
///
/// `InvalidShape` for a shape entry below 1; `Overflow` when the size does not fit in `i64`;
/// `Capacity` when a leaf's path is deeper than a basis stride can name.
pub const fn make_identity_layout(shape: &IntTuple) -> Result<Layout, Error> {
    let n = shape.tree.len();
    let mut stride = [0i64; CAPACITY];
    let mut basis = [0 as Code; CAPACITY];
    if shape.tree.is_leaf() {
        stride[0] = 1;
        return Layout::from_parts((shape.tree, shape.val, stride), Op::MakeLayout);
    }
    let codes = tri!(leaf_paths(&shape.tree, Op::MakeLayout));
    let mut i = 0;
    while i < n {
        stride[i] = 1;
        basis[i] = codes[i];
        i += 1;
    }
    Layout::from_parts_basis((shape.tree, shape.val, stride), basis, Op::MakeLayout)
}

/// The basis code of each leaf's position in the tree `t` (its path of mode indices, outermost
/// first): the `e_p` that the identity of a shape, or `tiler_to_layout`, puts there.
pub(crate) const fn leaf_paths(t: &Tree, op: Op) -> Result<[Code; CAPACITY], Error> {
    let mut out = [0 as Code; CAPACITY];
    // the path of the current leaf: `idx[..depth]`, outermost first
    let mut idx = [0usize; MAX_PATH + 1];
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        let mut k = 0;
        while k < t.open[i] {
            if depth >= MAX_PATH {
                return Err(Error::new(
                    op,
                    ErrorKind::Capacity {
                        what: "depth of a basis path E(p_1,…,p_k)",
                        limit: MAX_PATH,
                    },
                ));
            }
            idx[depth] = 0;
            depth += 1;
            k += 1;
        }
        out[i] = tri!(encode_path(idx.split_at(depth).0));
        depth -= t.close[i] as usize;
        if depth > 0 {
            idx[depth - 1] += 1;
        }
        i += 1;
    }
    Ok(out)
}

/// `compact_col_major(S)` (CuTe `make_layout(S)`, `LayoutLeft`): strides are the exclusive prefix
/// products of the shape; size-1 modes get stride 0, as in CuTe.
///
/// ```
/// use cute::compact_col_major;
/// let l = compact_col_major(&"(2,(3,4))".parse().unwrap()).unwrap();
/// assert_eq!(l.to_string(), "(2,(3,4)):(1,(2,6))");
/// let l = compact_col_major(&"(2,1,4)".parse().unwrap()).unwrap();
/// assert_eq!(l.to_string(), "(2,1,4):(1,0,2)");
/// ```
///
/// # Errors
///
/// `InvalidShape` for a shape entry below 1; `Overflow` when the size does not fit in `i64`.
pub const fn compact_col_major(shape: &IntTuple) -> Result<Layout, Error> {
    let mut stride = [0; CAPACITY];
    let mut p: i64 = 1;
    let mut i = 0;
    while i < shape.tree.len() {
        stride[i] = if shape.val[i] == 1 { 0 } else { p };
        p = tri!(mul(Op::CompactColMajor, p, shape.val[i]));
        i += 1;
    }
    Layout::from_parts((shape.tree, shape.val, stride), Op::CompactColMajor)
}

/// `compact_row_major(S)` (CuTe `LayoutRight`): strides are the exclusive suffix products.
///
/// ```
/// use cute::compact_row_major;
/// let l = compact_row_major(&"(2,3,4)".parse().unwrap()).unwrap();
/// assert_eq!(l.to_string(), "(2,3,4):(12,4,1)");
/// ```
///
/// # Errors
///
/// `InvalidShape` for a shape entry below 1; `Overflow` when the size does not fit in `i64`.
pub const fn compact_row_major(shape: &IntTuple) -> Result<Layout, Error> {
    let mut stride = [0; CAPACITY];
    let mut p: i64 = 1;
    let mut i = shape.tree.len();
    while i > 0 {
        i -= 1;
        stride[i] = if shape.val[i] == 1 { 0 } else { p };
        p = tri!(mul(Op::CompactRowMajor, p, shape.val[i]));
    }
    Layout::from_parts((shape.tree, shape.val, stride), Op::CompactRowMajor)
}

/// `make_ordered_layout(S, order)`: a compact layout whose modes get increasing strides in the order
/// of `order` (weakly congruent to `S`; ties keep the left-to-right order). Size-1 modes get stride 0.
///
/// `make_ordered_layout((2,2,2,2), (0,2,3,1)) = (2,2,2,2):(1,4,8,2)`.
///
/// ```
/// use cute::make_ordered_layout;
/// let shape = "(2,2,2,2)".parse().unwrap();
/// let l = make_ordered_layout(&shape, &"(0,2,3,1)".parse().unwrap()).unwrap();
/// assert_eq!(l.to_string(), "(2,2,2,2):(1,4,8,2)");
/// ```
///
/// # Errors
///
/// `ProfileMismatch` when `order` is not weakly congruent to `shape`; `InvalidShape` for a shape
/// entry below 1; `Overflow` when the size does not fit in `i64`.
pub const fn make_ordered_layout(shape: &IntTuple, order: &IntTuple) -> Result<Layout, Error> {
    if !order.weakly_congruent(shape) {
        return Err(Error::new(
            Op::MakeOrderedLayout,
            ErrorKind::ProfileMismatch {
                what: "the order is not weakly congruent to the shape",
                left: order.rank() as i64,
                right: shape.rank() as i64,
            },
        )
        .with(Operand::Tuple(*shape), Operand::Tuple(*order)));
    }
    // Key of every leaf of the shape: the order value of the order leaf that covers it.
    let n = shape.tree.len();
    let mut key = [0i64; CAPACITY];
    tri!(spread_keys(&shape.tree, order, 0, &mut key));
    let mut stride = [0; CAPACITY];
    let mut done = [false; CAPACITY];
    let mut p: i64 = 1;
    let mut count = 0;
    while count < n {
        // the not-yet-assigned leaf with the smallest key, leftmost on ties
        let mut best = usize::MAX;
        let mut i = 0;
        while i < n {
            if !done[i] && (best == usize::MAX || key[i] < key[best]) {
                best = i;
            }
            i += 1;
        }
        done[best] = true;
        stride[best] = if shape.val[best] == 1 { 0 } else { p };
        p = tri!(mul(Op::MakeOrderedLayout, p, shape.val[best]));
        count += 1;
    }
    Layout::from_parts((shape.tree, shape.val, stride), Op::MakeOrderedLayout)
}

/// Writes `order`'s leaf value into `key` for every leaf of the sub-tree `t` (starting at leaf
/// `base`), where `order` is weakly congruent to `t`.
const fn spread_keys(
    t: &Tree,
    order: &IntTuple,
    base: usize,
    key: &mut [i64; CAPACITY],
) -> Result<(), Error> {
    if order.is_int() {
        let mut i = 0;
        while i < t.len() {
            key[base + i] = order.val[0];
            i += 1;
        }
        return Ok(());
    }
    let r = t.rank();
    let mut k = 0;
    while k < r {
        let (lo, sub) = tri!(sub_tree(t, k, Op::MakeOrderedLayout));
        let ok = tri!(order.get(k));
        tri!(spread_keys(&sub, &ok, base + lo, key));
        k += 1;
    }
    Ok(())
}

/// True when two basis codes lie in the same semimodule (every coordinate basis lies in `Z^S`).
pub(crate) const fn same_kind(a: Code, b: Code) -> bool {
    (a == INTEGER && b == INTEGER) || (a == BINARY && b == BINARY) || (a > 0 && b > 0)
}
