//! Layouts: functions from coordinates to offsets, `L = D ∘ S` (paper: 布局).
//!
//! A [`Layout`] is a shape `S` (positive integers) and a congruent stride `D`. It maps every
//! coordinate compatible with the shape (integer, ND, natural, or partially collapsed) to the inner
//! product of its natural coordinate with the stride. Integer coordinates use the colexicographic
//! order of the paper's formula (1); past the size, the last mode is not reduced (the extended domain).
//!
//! | notation | meaning |
//! |---|---|
//! | `12:1` | 12 consecutive offsets |
//! | `(4,8):(1,4)` | 4×8 column-major |
//! | `(4,8):(8,1)` | 4×8 row-major |
//! | `((2,2),(4,2)):((1,8),(2,16))` | the paper's Figure 3 layout: `L(22) = L(2,5) = L((0,1),(1,1)) = 26` |
//!
//! ```
//! use cute::{IntTuple, Layout};
//! let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
//! assert_eq!(l.eval(22).unwrap(), 26);
//! assert_eq!(l.eval_crd(&"(2,5)".parse().unwrap()).unwrap(), 26);
//! assert_eq!(l.eval_crd(&"((0,1),(1,1))".parse().unwrap()).unwrap(), 26);
//! assert_eq!((l.size(), l.cosize().unwrap(), l.rank(), l.depth()), (32, 32, 2, 2));
//! ```
//!
//! With [`crate::error`] this module is the one circle of the crate's modules (errors carry
//! layouts, and building a layout can fail). It also holds what that circle needs: the tuple
//! builder (`Builder`, `push_layout!`) whose checks name the operation in their error, the
//! operations of [`IntTuple`] that can fail, the stride arithmetic that can fail, and the types
//! [`Swizzle`](crate::Swizzle) and [`ComposedLayout`](crate::ComposedLayout) (their operations are
//! in [`crate::swizzle`]).

use crate::error::{add, mul, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::{IntTuple, Parts, Tree, CAPACITY, MAX_DEPTH};
use crate::stride::{
    clmul_checked, is_prefix, kind_of, path_code, ArithTuple, Code, PathLimit, Semimodule, Stride,
    Value, BINARY, INTEGER, MAX_BASIS_INDEX, MAX_PATH,
};

/// A CuTe layout `shape:stride`, stored without the heap (see [`CAPACITY`]).
///
/// Strides lie in one of the paper's semimodules ([`Semimodule`]): integers, coordinate bases
/// (`1@0`) or binary F2 values (`F9`). Each leaf keeps its stride value in `stride` and, in `basis`,
/// the code of the element it scales (`0` for integers and for every zero stride; see
/// [`crate::stride`]).
///
/// # Invariant
///
/// Every leaf of the shape is at least 1, and the product of all of them (the size `|L|`) fits in
/// `i64`. Every way of building a layout keeps it: the constructors and the parser check it
/// ([`ErrorKind::InvalidShape`], [`ErrorKind::Overflow`]), and every operation whose result could
/// be larger than its operands (concatenation, `append`, `select` of a mode twice, the products,
/// the divides, the complements, the inverses, `recast`) refuses a result whose size does not fit
/// with [`ErrorKind::Overflow`] ("the size of the shape"), named after the operation. That is why
/// [`Layout::size`] cannot fail. Strides are not bounded by it: offsets and the cosize are checked
/// where they are computed.
///
/// # Alignment
///
/// A layout starts on a 64-byte boundary (768 bytes in all): zeroing a result (`memset` with
/// 64-byte stores) then never splits a store across two cache lines. Unaligned, the time of an
/// operation depended on where the stack happened to start: `logical_product` measured 38–46 ns
/// from one process to the next, and 38.1–39.0 ns aligned (BENCHMARKS.md).
#[derive(Clone, Copy)]
#[repr(align(64))]
pub struct Layout {
    pub(crate) tree: Tree,
    pub(crate) shape: [i64; CAPACITY],
    pub(crate) stride: [i64; CAPACITY],
    pub(crate) basis: [Code; CAPACITY],
}

impl PartialEq for Layout {
    fn eq(&self, other: &Self) -> bool {
        self.const_eq(other)
    }
}
impl Eq for Layout {}

impl core::hash::Hash for Layout {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.shape().hash(state);
        self.stride().hash(state);
        self.basis[..self.tree.len()].hash(state);
    }
}

/// The layout whose every byte is zero (no leaves yet: not a valid layout until its tree is set),
/// the start of a result written in place. Being all zero, it is initialised with a `memset`.
pub(crate) const BLANK: Layout = Layout {
    tree: Tree::flat(0, false),
    shape: [0; CAPACITY],
    stride: [0; CAPACITY],
    basis: [0; CAPACITY],
};

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
pub const fn make_layout(shape: &IntTuple, stride: &IntTuple) -> Result<Layout, Error> {
    Layout::new(shape, stride)
}

impl Layout {
    /// The trivial layout `1:0`.
    pub const TRIVIAL: Layout = Layout {
        tree: Tree::LEAF,
        shape: one_then_zeros(),
        stride: [0; CAPACITY],
        basis: [0; CAPACITY],
    };

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
    pub const fn new(shape: &IntTuple, stride: &IntTuple) -> Result<Layout, Error> {
        if !shape.tree.eq(&stride.tree) {
            return Err(Error::new(Op::MakeLayout, ErrorKind::NotCongruent)
                .with(Operand::Tuple(*shape), Operand::Tuple(*stride)));
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

    /// The semimodule of the strides: the one every nonzero stride lies in (integers when all
    /// strides are zero).
    ///
    /// ```
    /// use cute::{make_identity_layout, Layout, Semimodule};
    /// let l: Layout = "(4,8):(1,4)".parse().unwrap();
    /// assert_eq!(l.semimodule(), Semimodule::Integer);
    /// let id = make_identity_layout(&"(4,6)".parse().unwrap()).unwrap();
    /// assert_eq!(id.semimodule(), Semimodule::Coordinate);
    /// ```
    pub const fn semimodule(&self) -> Semimodule {
        let mut binary_zero = false;
        let mut i = 0;
        while i < self.tree.len() {
            if self.stride[i] != 0 {
                return kind_of(self.basis[i]);
            }
            if self.basis[i] == BINARY {
                binary_zero = true;
            }
            i += 1;
        }
        if binary_zero {
            Semimodule::Binary
        } else {
            Semimodule::Integer
        }
    }

    /// True when every stride is an integer.
    ///
    /// ```
    /// use cute::{make_identity_layout, Layout};
    /// let l: Layout = "(4,8):(1,4)".parse().unwrap();
    /// assert!(l.is_integral());
    /// let id = make_identity_layout(&"(4,6)".parse().unwrap()).unwrap();
    /// assert!(!id.is_integral());
    /// ```
    #[inline]
    pub const fn is_integral(&self) -> bool {
        let mut i = 0;
        while i < self.tree.len() {
            if self.basis[i] != INTEGER {
                return false;
            }
            i += 1;
        }
        true
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

    /// Stride of leaf `i` of the flattened layout.
    ///
    /// ```
    /// use cute::{make_identity_layout, Stride};
    /// let id = make_identity_layout(&"(4,6)".parse().unwrap()).unwrap();
    /// assert_eq!(id.stride_at(1), Stride::basis(1, &[1]).unwrap());
    /// assert_eq!(id.stride_at(1).to_string(), "1@1");
    /// ```
    pub const fn stride_at(&self, i: usize) -> Stride {
        Stride::from_code(self.stride[i], self.basis[i])
    }

    /// `==` usable in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, Layout};
    /// const A: Layout = unwrap(Layout::parse_const("(4,8):(1,4)"));
    /// const B: Layout = unwrap(Layout::flat(&[4, 8], &[1, 4]));
    /// const SAME: bool = A.const_eq(&B);
    /// assert!(SAME);
    /// ```
    pub const fn const_eq(&self, other: &Layout) -> bool {
        if !self.tree.eq(&other.tree) {
            return false;
        }
        let mut i = 0;
        while i < self.tree.len() {
            if self.shape[i] != other.shape[i]
                || self.stride[i] != other.stride[i]
                || self.basis[i] != other.basis[i]
            {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The shape `S`.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.shape().to_string(), "((2,2),(4,2))");
    /// ```
    pub const fn shape(&self) -> IntTuple {
        IntTuple::from_parts(self.tree, self.shape)
    }

    /// The stride `D` (its values; for coordinate and binary strides see [`Layout::stride_at`]).
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.stride().to_string(), "((1,8),(2,16))");
    /// ```
    pub const fn stride(&self) -> IntTuple {
        IntTuple::from_parts(self.tree, self.stride)
    }

    /// Number of leaves (modes of the flattened layout).
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.leaf_count(), 4);
    /// ```
    pub const fn leaf_count(&self) -> usize {
        self.tree.len()
    }

    /// Leaf `i` of the flattened layout as `(shape, stride)`.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.leaf_at(2), (4, 2));
    /// ```
    pub const fn leaf_at(&self, i: usize) -> (i64, i64) {
        (self.shape[i], self.stride[i])
    }

    /// True when the shape is an integer (rank 1, depth 0).
    ///
    /// ```
    /// use cute::Layout;
    /// assert!("8:2".parse::<Layout>().unwrap().is_leaf());
    /// assert!(!"(8):(2)".parse::<Layout>().unwrap().is_leaf());
    /// ```
    pub const fn is_leaf(&self) -> bool {
        self.tree.is_leaf()
    }

    /// `rank(L) = rank(S)`.
    ///
    /// ```
    /// use cute::Layout;
    /// assert_eq!("((2,2),(4,2)):((1,8),(2,16))".parse::<Layout>().unwrap().rank(), 2);
    /// assert_eq!("(4,8,2):(1,4,32)".parse::<Layout>().unwrap().rank(), 3);
    /// assert_eq!("12:1".parse::<Layout>().unwrap().rank(), 1);
    /// ```
    pub const fn rank(&self) -> usize {
        self.tree.rank()
    }

    /// `depth(L) = depth(S)`.
    ///
    /// ```
    /// use cute::Layout;
    /// assert_eq!("((2,2),(4,2)):((1,8),(2,16))".parse::<Layout>().unwrap().depth(), 2);
    /// assert_eq!("(4,8):(1,4)".parse::<Layout>().unwrap().depth(), 1);
    /// assert_eq!("12:1".parse::<Layout>().unwrap().depth(), 0);
    /// ```
    pub const fn depth(&self) -> usize {
        self.tree.depth()
    }

    /// `|L| = |S|`, the size of the domain: the product of the leaves of the shape.
    ///
    /// It cannot fail: every layout keeps the invariant documented on [`Layout`] (each shape leaf
    /// at least 1, their product in `i64`), so a size that would not fit is refused where the
    /// layout is built (with [`ErrorKind::Overflow`]), never here. (An arbitrary [`IntTuple`]
    /// has no such bound: [`IntTuple::size`] stays fallible.)
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.size(), 32);
    /// // 2^62 points fit; twice that many do not, and the concatenation says so
    /// let big: Layout = "4611686018427387904:1".parse().unwrap();
    /// assert_eq!(big.size(), 1 << 62);
    /// let e = Layout::concat(&[big, "2:0".parse().unwrap()]).unwrap_err();
    /// assert_eq!(e.category(), "Overflow");
    /// assert_eq!(e.op(), cute::Op::Concatenation);
    /// ```
    pub const fn size(&self) -> i64 {
        // `self.shape().size()`, without copying the shape into an `IntTuple`; no leaf is below
        // 1 and their product fits (the invariant), so no step overflows.
        let mut p: i64 = 1;
        let mut i = 0;
        while i < self.tree.len() {
            p *= self.shape[i];
            i += 1;
        }
        p
    }

    /// `cosize(L) = 1 + Σ (s_i - 1)·|d_i|`, one past the largest offset reached in absolute value
    /// terms (CuTe's definition).
    ///
    /// ```
    /// use cute::{make_identity_layout, Layout};
    /// assert_eq!("(4,8):(8,1)".parse::<Layout>().unwrap().cosize().unwrap(), 32);
    /// assert_eq!("(2,4):(0,2)".parse::<Layout>().unwrap().cosize().unwrap(), 7);
    /// assert_eq!("4:-2".parse::<Layout>().unwrap().cosize().unwrap(), 7);
    /// let id = make_identity_layout(&"(4,6)".parse().unwrap()).unwrap();
    /// assert_eq!(id.cosize().unwrap_err().to_string(), "cosize (4,6):(1@0,1@1): this operation is defined for integer strides, and the layout has coordinate (E) strides");
    /// ```
    pub const fn cosize(&self) -> Result<i64, Error> {
        tri!(self.require_integral(Op::Cosize));
        self.integral_cosize()
    }

    /// [`Layout::cosize`] of a layout the caller knows to be integral (the check skipped).
    pub(crate) const fn integral_cosize(&self) -> Result<i64, Error> {
        let mut c: i64 = 1;
        let mut i = 0;
        while i < self.tree.len() {
            // |d| of i64::MIN does not fit (`unsigned_abs() as i64` would give a negative cosize)
            let d = match self.stride[i].checked_abs() {
                Some(d) => d,
                None => {
                    return Err(Error::new(
                        Op::Cosize,
                        ErrorKind::Overflow {
                            what: "the absolute value of a stride",
                        },
                    ))
                }
            };
            let t = tri!(mul(Op::Cosize, self.shape[i] - 1, d));
            c = tri!(add(Op::Cosize, c, t));
            i += 1;
        }
        Ok(c)
    }

    /// `L_k = S_k : D_k`, the `k`-th mode (`get<k>`). Mode 0 of a rank-1 integer layout is itself.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.mode(1).unwrap().to_string(), "(4,2):(2,16)");
    /// assert_eq!(l.mode(2).unwrap_err().to_string(), "get ((2,2),(4,2)):((1,8),(2,16)): mode index 2 is out of range for rank 2");
    /// ```
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
    pub const fn concat(modes: &[Layout]) -> Result<Layout, Error> {
        // Built in the return place (see `algebra::coalesce::coalesce_into`).
        let mut err = Ok(());
        let mut r = Ok(concat_build(modes, &mut err));
        if let Err(e) = err {
            r = Err(e);
        }
        r
    }

    /// `L(i)`: evaluation at the integer coordinate `i` (colexicographic, the last mode not reduced,
    /// floor division for negative `i`). Binary (F2) strides give the bits of the F2 value (the
    /// offset a swizzle produces); coordinate strides need [`Layout::eval_value`].
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.eval(5).unwrap(), 3); // 5 is the natural coordinate (1,0,1,0)
    /// assert_eq!(l.eval(31).unwrap(), 31);
    /// assert_eq!(l.eval(32).unwrap(), 32); // the last mode is not reduced
    /// ```
    pub const fn eval(&self, i: i64) -> Result<i64, Error> {
        if !self.is_integral() {
            return match self.eval_value(i) {
                Ok(Value::F2(v)) => Ok(v as i64),
                Ok(_) => Err(Error::new(
                    Op::Eval,
                    ErrorKind::NeedsIntegerStrides {
                        found: Semimodule::Coordinate,
                    },
                )
                .with(Operand::Layout(*self), Operand::Int(i))),
                Err(e) => Err(e),
            };
        }
        match eval_leaves(&self.shape, &self.stride, 0, self.tree.len(), i) {
            Ok(v) => Ok(v),
            Err(e) => Err(e.or_with(Operand::Layout(*self), Operand::Int(i))),
        }
    }

    /// `L(c)`: evaluation at any admissible coordinate `c ≲ S` (integer, ND, natural or partially
    /// collapsed). Each integer entry of `c` is spread over its sub-shape colexicographically.
    /// Binary and coordinate strides as in [`Layout::eval`].
    ///
    /// ```
    /// use cute::{IntTuple, Layout};
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.eval_crd(&"((1,1),(1,1))".parse().unwrap()).unwrap(), 27);
    /// assert_eq!(l.eval_crd(&"(3,5)".parse().unwrap()).unwrap(), 27);
    /// assert_eq!(l.eval_crd(&IntTuple::int(23)).unwrap(), 27);
    /// let e = l.eval_crd(&"(1,2,3)".parse().unwrap()).unwrap_err();
    /// assert_eq!(e.to_string(), "eval ((2,2),(4,2)):((1,8),(2,16)), (1,2,3): the coordinate is not weakly congruent to the shape (3 vs 2)");
    /// ```
    pub const fn eval_crd(&self, c: &IntTuple) -> Result<i64, Error> {
        if !self.is_integral() {
            return match self.eval_crd_value(c) {
                Ok(Value::F2(v)) => Ok(v as i64),
                Ok(_) => Err(Error::new(
                    Op::Eval,
                    ErrorKind::NeedsIntegerStrides {
                        found: Semimodule::Coordinate,
                    },
                )
                .with(Operand::Layout(*self), Operand::Tuple(*c))),
                Err(e) => Err(e),
            };
        }
        tri!(self.check_crd(c));
        match crd_inner(&self.tree, &self.shape, &self.stride, c) {
            Ok(v) => Ok(v),
            Err(e) => Err(e.or_with(Operand::Layout(*self), Operand::Tuple(*c))),
        }
    }

    const fn check_crd(&self, c: &IntTuple) -> Result<(), Error> {
        if !c.weakly_congruent(&self.shape()) {
            return Err(Error::new(
                Op::Eval,
                ErrorKind::ProfileMismatch {
                    what: "the coordinate is not weakly congruent to the shape",
                    left: c.rank() as i64,
                    right: self.rank() as i64,
                },
            )
            .with(Operand::Layout(*self), Operand::Tuple(*c)));
        }
        Ok(())
    }

    /// `L(i)` in the layout's semimodule: an integer, an F2 value or an arithmetic tuple.
    ///
    /// ```
    /// use cute::{make_identity_layout, Value};
    /// let id = make_identity_layout(&"(4,6)".parse().unwrap()).unwrap();
    /// let v: Value = id.eval_value(5).unwrap();
    /// assert_eq!(v.to_string(), "(1,1)");
    /// ```
    pub const fn eval_value(&self, i: i64) -> Result<Value, Error> {
        let mut crd = [0i64; CAPACITY];
        let n = self.tree.len();
        let mut rest = i;
        let mut k = 0;
        while k < n {
            if k + 1 == n {
                crd[k] = rest;
            } else {
                crd[k] = rest.rem_euclid(self.shape[k]);
                rest = rest.div_euclid(self.shape[k]);
            }
            k += 1;
        }
        match self.inner_product(&crd) {
            Ok(v) => Ok(v),
            Err(e) => Err(e.or_with(Operand::Layout(*self), Operand::Int(i))),
        }
    }

    /// `L(c)` in the layout's semimodule, for any admissible coordinate `c ≲ S`.
    ///
    /// ```
    /// use cute::make_identity_layout;
    /// let id = make_identity_layout(&"(4,(3,2))".parse().unwrap()).unwrap();
    /// let v = id.eval_crd_value(&"(3,4)".parse().unwrap()).unwrap();
    /// assert_eq!(v.to_string(), "(3,(1,1))");
    /// ```
    pub const fn eval_crd_value(&self, c: &IntTuple) -> Result<Value, Error> {
        tri!(self.check_crd(c));
        let mut crd = [0i64; CAPACITY];
        tri!(natural_leaves(&self.tree, &self.shape, 0, c, &mut crd));
        match self.inner_product(&crd) {
            Ok(v) => Ok(v),
            Err(e) => Err(e.or_with(Operand::Layout(*self), Operand::Tuple(*c))),
        }
    }

    /// `Σ c_k·d_k` over the leaves, in the layout's semimodule.
    pub(crate) const fn inner_product(&self, crd: &[i64; CAPACITY]) -> Result<Value, Error> {
        let n = self.tree.len();
        match self.semimodule() {
            Semimodule::Integer => {
                let mut acc: i64 = 0;
                let mut k = 0;
                while k < n {
                    acc = tri!(add(
                        Op::Eval,
                        acc,
                        tri!(mul(Op::Eval, crd[k], self.stride[k]))
                    ));
                    k += 1;
                }
                Ok(Value::Int(acc))
            }
            Semimodule::Binary => {
                let mut acc: u64 = 0;
                let mut k = 0;
                while k < n {
                    if self.stride[k] != 0 {
                        let t = tri!(self.stride_at(k).scale(crd[k], Op::Eval));
                        acc ^= t.value as u64;
                    }
                    k += 1;
                }
                Ok(Value::F2(acc))
            }
            Semimodule::Coordinate => {
                let mut acc = ArithTuple::ZERO;
                let mut k = 0;
                while k < n {
                    if self.basis[k] > 0 {
                        let v = tri!(mul(Op::Eval, crd[k], self.stride[k]));
                        acc = tri!(acc.add_term(v, self.basis[k], Op::Eval));
                    }
                    k += 1;
                }
                Ok(Value::Coord(acc))
            }
        }
    }

    /// The image `L(Z_|L|)`: every offset reached, sorted, without repetition. Fails with
    /// [`ErrorKind::Overflow`] when an offset may not fit in `i64` (the cosize does not), and with
    /// [`ErrorKind::Capacity`] for a domain of more than [`WALK_LIMIT`] points.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "(2,2):(4,1)".parse().unwrap();
    /// assert_eq!(l.image().unwrap(), vec![0, 1, 4, 5]);
    /// let bcast: Layout = "(2,3):(2,0)".parse().unwrap();
    /// assert_eq!(bcast.image().unwrap(), vec![0, 2]);
    /// ```
    pub fn image(&self) -> Result<Vec<i64>, Error> {
        let n = self.size();
        check_walk(Op::Image, n).map_err(|e| e.with(Operand::Layout(*self), Operand::None))?;
        if matches!(self.semimodule(), Semimodule::Binary) {
            let mut out = (0..n)
                .map(|i| self.eval(i))
                .collect::<Result<Vec<_>, _>>()?;
            out.sort_unstable();
            out.dedup();
            return Ok(out);
        }
        self.require_integral(Op::Image)?;
        // every offset lies in (-cosize, cosize): then the wrapping walk below is exact
        self.cosize().map_err(|e| {
            e.retag(Op::Image)
                .or_with(Operand::Layout(*self), Operand::None)
        })?;
        let mut out = Vec::new();
        for_each_offset(self, |o| out.push(o));
        out.sort_unstable();
        out.dedup();
        let _ = n;
        Ok(out)
    }
}

/// The largest domain that the functions listing or walking every point of a layout accept
/// ([`Layout::image`], [`ComposedLayout::values`](crate::ComposedLayout::values),
/// [`ComposedLayout::image`](crate::ComposedLayout::image),
/// [`ComposedLayout::cosize`](crate::ComposedLayout::cosize)): 2^26 points (a 512 MiB list of
/// offsets). Beyond it they fail with [`ErrorKind::Capacity`] instead of allocating without bound
/// or looping for hours.
///
/// ```
/// use cute::{Layout, WALK_LIMIT};
/// let big: Layout = "(8192,8192,2):(1,8192,0)".parse().unwrap(); // 2^27 points
/// assert!(big.size() > WALK_LIMIT);
/// let e = big.image().unwrap_err();
/// assert_eq!(e.category(), "Capacity");
/// assert!(e.to_string().starts_with("image (8192,8192,2):(1,8192,0): capacity exceeded"));
/// ```
pub const WALK_LIMIT: i64 = 1 << 26;

/// `Ok` when a walk over `n` points stays within [`WALK_LIMIT`], else the `Capacity` error of `op`.
pub(crate) const fn check_walk(op: Op, n: i64) -> Result<(), Error> {
    if n > WALK_LIMIT {
        return Err(Error::new(
            op,
            ErrorKind::Capacity {
                what: "points of a domain walked one by one",
                limit: WALK_LIMIT as usize,
            },
        ));
    }
    Ok(())
}

/// Calls `f` with `L(i)` for every `i` in `0..|L|`, in order, by incrementing the natural
/// coordinate (no division).
///
/// ```
/// use cute::{layout::for_each_offset, Layout};
/// let l: Layout = "(2,3):(3,1)".parse().unwrap();
/// let mut offsets = Vec::new();
/// for_each_offset(&l, |o| offsets.push(o));
/// assert_eq!(offsets, vec![0, 3, 1, 4, 2, 5]);
/// ```
pub fn for_each_offset(l: &Layout, mut f: impl FnMut(i64)) {
    let n = l.leaf_count();
    let mut crd = [0i64; CAPACITY];
    let mut off: i64 = 0;
    loop {
        f(off);
        let mut k = 0;
        loop {
            if k == n {
                return;
            }
            crd[k] += 1;
            off = off.wrapping_add(l.stride[k]);
            if crd[k] < l.shape[k] {
                break;
            }
            off = off.wrapping_sub(l.stride[k].wrapping_mul(l.shape[k]));
            crd[k] = 0;
            k += 1;
        }
    }
}

/// Mode `k` of `l` (what `parts::get` builds: the leaves of the mode with its own outer brackets
/// removed), or the error in `err`. Written only through the fields of `out`.
pub(crate) const fn mode_build(l: &Layout, k: usize, err: &mut Result<(), Error>) -> Layout {
    match l.tree.mode_range(k) {
        Some((lo, hi)) => mode_of_leaves(l, lo, hi),
        None => {
            *err = Err(Error::new(
                Op::Get,
                ErrorKind::OutOfRange {
                    index: k,
                    rank: l.tree.rank(),
                },
            ));
            BLANK
        }
    }
}

/// The top-level mode of `l` whose leaves are `[lo, hi)`, as [`Tree::mode_end`] walks them (a
/// caller walking the modes in order has the range already): [`mode_build`] without the search.
pub(crate) const fn mode_of_leaves(l: &Layout, lo: usize, hi: usize) -> Layout {
    let mut out = BLANK;
    let adj = l.tree.mode_adjust(lo, hi);
    let mut i = lo;
    while i < hi {
        out.shape[i - lo] = l.shape[i];
        out.stride[i - lo] = l.stride[i];
        out.basis[i - lo] = l.basis[i];
        out.tree.open[i - lo] = l.tree.open[i];
        out.tree.close[i - lo] = l.tree.close[i];
        i += 1;
    }
    out.tree.open[0] -= adj.0;
    out.tree.close[hi - lo - 1] -= adj.1;
    out.tree.n = (hi - lo) as u8;
    out
}

/// `(L0, L1, ...)`, or the error in `err`, with the checks and errors of building it through
/// the `Builder`. Written only through the fields of `out`.
const fn concat_build(modes: &[Layout], err: &mut Result<(), Error>) -> Layout {
    let mut out = BLANK;
    let (mut n, mut pending, mut depth): (usize, u8, usize) = (0, 0, 0);
    if let Err(e) = open_bracket(Op::Concatenation, &mut pending, &mut depth) {
        *err = Err(e);
        return out;
    }
    let mut k = 0;
    while k < modes.len() {
        push_layout!(Op::Concatenation, out, err, n, pending, depth, &modes[k]);
        k += 1;
    }
    if pending > 0 || n == 0 {
        *err = Err(Error::new(
            Op::Concatenation,
            ErrorKind::Unsupported {
                what: "empty tuples",
            },
        ));
        return out;
    }
    out.tree.close[n - 1] += 1;
    out.tree.n = n as u8;
    // the sizes of the modes multiply
    check_size!(Op::Concatenation, out, err, n);
    // (checked on the operands: borrowing `out` would keep it from being built in place)
    let mut k = 1;
    while k < modes.len() {
        let mut j = 0;
        while j < k {
            if let Err(e) = compatible(&modes[j], &modes[k]) {
                *err = Err(e);
                return out;
            }
            j += 1;
        }
        k += 1;
    }
    out
}

/// `(x, y)`, [`Layout::concat`] of two layouts without first copying them into an array, or the
/// error in `err` (the same checks and errors as [`concat_build`]). Written only through the
/// fields of `out`.
pub(crate) const fn concat_pair_build(
    x: &Layout,
    y: &Layout,
    err: &mut Result<(), Error>,
) -> Layout {
    let mut out = BLANK;
    let (mut n, mut pending, mut depth): (usize, u8, usize) = (0, 0, 0);
    if let Err(e) = open_bracket(Op::Concatenation, &mut pending, &mut depth) {
        *err = Err(e);
        return out;
    }
    push_layout!(Op::Concatenation, out, err, n, pending, depth, x);
    push_layout!(Op::Concatenation, out, err, n, pending, depth, y);
    // Never empty, nothing pending: a layout has at least one leaf.
    out.tree.close[n - 1] += 1;
    out.tree.n = n as u8;
    // `|x|·|y|`
    check_size!(Op::Concatenation, out, err, n);
    // (checked on the operands: borrowing `out` would keep it from being built in place)
    if let Err(e) = compatible(x, y) {
        *err = Err(e);
    }
    out
}

/// The product of the shape leaves `shape[..n]` (each at least 1), or, when it does not fit in
/// `i64`, the [`ErrorKind::Overflow`] of `op` ("the size of the shape"): the check behind the
/// invariant of [`Layout`], for a builder that puts together leaves of valid layouts.
pub(crate) const fn checked_size(shape: &[i64; CAPACITY], n: usize, op: Op) -> Result<i64, Error> {
    let mut p: i64 = 1;
    let mut i = 0;
    while i < n {
        p = match p.checked_mul(shape[i]) {
            Some(x) => x,
            None => return Err(size_overflow(op)),
        };
        i += 1;
    }
    Ok(p)
}

/// The error of a layout whose size would not fit in `i64`.
#[cold]
pub(crate) const fn size_overflow(op: Op) -> Error {
    Error::new(
        op,
        ErrorKind::Overflow {
            what: "the size of the shape",
        },
    )
}

/// [`checked_size`] of the first `$n` leaves of a layout `$out` written in place: on overflow sets
/// `*$err` to the error of `$op` and returns `$out` from the enclosing function. A macro so that
/// `$out` is read through its fields, never borrowed (see `algebra::coalesce::coalesce_into`).
macro_rules! check_size {
    ($op:expr, $out:ident, $err:ident, $n:expr) => {{
        let n: usize = $n;
        let mut p: i64 = 1;
        let mut i = 0;
        while i < n {
            p = match p.checked_mul($out.shape[i]) {
                Some(x) => x,
                None => {
                    *$err = Err($crate::layout::size_overflow($op));
                    return $out;
                }
            };
            i += 1;
        }
    }};
}
pub(crate) use check_size;

const fn one_then_zeros() -> [i64; CAPACITY] {
    let mut a = [0; CAPACITY];
    a[0] = 1;
    a
}

/// Evaluates leaves `[lo,hi)` as a flat colexicographic layout at the integer `i`, the last leaf
/// absorbing the quotient.
pub(crate) const fn eval_leaves(
    shape: &[i64; CAPACITY],
    stride: &[i64; CAPACITY],
    lo: usize,
    hi: usize,
    i: i64,
) -> Result<i64, Error> {
    let mut rest = i;
    let mut acc: i64 = 0;
    let mut k = lo;
    while k < hi {
        let c = if k + 1 == hi {
            rest
        } else {
            let c = rest.rem_euclid(shape[k]);
            rest = rest.div_euclid(shape[k]);
            c
        };
        acc = tri!(add(Op::Eval, acc, tri!(mul(Op::Eval, c, stride[k]))));
        k += 1;
    }
    Ok(acc)
}

/// Inner product of a weakly congruent coordinate with the sub-layout `t`.
const fn crd_inner(
    t: &Tree,
    shape: &[i64; CAPACITY],
    stride: &[i64; CAPACITY],
    c: &IntTuple,
) -> Result<i64, Error> {
    if c.is_int() {
        return eval_leaves(shape, stride, 0, t.len(), c.val[0]);
    }
    let r = t.rank();
    let mut acc: i64 = 0;
    let mut k = 0;
    while k < r {
        let (tt, ts, td) = tri!(parts::get(t, shape, stride, k));
        let ck = tri!(c.get(k));
        acc = tri!(add(Op::Eval, acc, tri!(crd_inner(&tt, &ts, &td, &ck))));
        k += 1;
    }
    Ok(acc)
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

/// Spreads the weakly congruent coordinate `c` over the leaves of the sub-tree `t` (leaves start
/// at `base` of `shape`), writing the natural coordinate of every leaf into `out`.
const fn natural_leaves(
    t: &Tree,
    shape: &[i64; CAPACITY],
    base: usize,
    c: &IntTuple,
    out: &mut [i64; CAPACITY],
) -> Result<(), Error> {
    if c.is_int() {
        let n = t.len();
        let mut rest = c.val[0];
        let mut k = 0;
        while k < n {
            if k + 1 == n {
                out[base + k] = rest;
            } else {
                out[base + k] = rest.rem_euclid(shape[base + k]);
                rest = rest.div_euclid(shape[base + k]);
            }
            k += 1;
        }
        return Ok(());
    }
    let r = t.rank();
    let mut k = 0;
    while k < r {
        let (lo, sub) = tri!(sub_tree(t, k, Op::Eval));
        let ck = tri!(c.get(k));
        tri!(natural_leaves(&sub, shape, base + lo, &ck, out));
        k += 1;
    }
    Ok(())
}

/// True when two basis codes lie in the same semimodule (every coordinate basis lies in `Z^S`).
pub(crate) const fn same_kind(a: Code, b: Code) -> bool {
    (a == INTEGER && b == INTEGER) || (a == BINARY && b == BINARY) || (a > 0 && b > 0)
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

/// Whether the strides of `x` and `y` may meet in one layout: the same semimodule, or one side all
/// zero (F2's zero `F0` also meets coordinate strides, as in PyCuTe, but not integer ones).
#[inline(always)]
pub(crate) const fn compatible(x: &Layout, y: &Layout) -> Result<(), Error> {
    if x.is_integral() && y.is_integral() {
        return Ok(());
    }
    compatible_semimodules(x, y)
}

/// [`compatible`] for layouts of which one has a stride that is not an integer.
#[cold]
const fn compatible_semimodules(x: &Layout, y: &Layout) -> Result<(), Error> {
    let (kx, ky) = (x.semimodule(), y.semimodule());
    let (zx, zy) = (!has_nonzero(x), !has_nonzero(y));
    let ok = match (kx, ky) {
        (Semimodule::Integer, Semimodule::Integer)
        | (Semimodule::Binary, Semimodule::Binary)
        | (Semimodule::Coordinate, Semimodule::Coordinate) => true,
        // an all-zero integer side meets anything
        (Semimodule::Integer, _) => zx,
        (_, Semimodule::Integer) => zy,
        // F2's zero meets coordinate strides
        (Semimodule::Binary, Semimodule::Coordinate) => zx,
        (Semimodule::Coordinate, Semimodule::Binary) => zy,
    };
    if ok {
        Ok(())
    } else {
        Err(Error::new(
            Op::Concatenation,
            ErrorKind::MixedSemimodules {
                left: kx,
                right: ky,
            },
        ))
    }
}

/// True when some stride of `l` is not zero.
const fn has_nonzero(l: &Layout) -> bool {
    let mut i = 0;
    while i < l.tree.len() {
        if l.stride[i] != 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// Top-level mode `k` of the tree `t`: the index of its first leaf and its own nesting.
const fn sub_tree(t: &Tree, k: usize, op: Op) -> Result<(usize, Tree), Error> {
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

// The tuple builder: hierarchical values (tuples, layouts) built leaf by leaf, with the checks
// (capacity, nesting depth, empty tuples) that name the operation in their error.

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
    pub(crate) const fn push_layout_node(&mut self, op: Op, l: &Layout) -> Result<(), Error> {
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
    pub(crate) const fn finish_layout(self, op: Op) -> Result<Layout, Error> {
        let c = self.c;
        let p = tri!(self.finish(op));
        // the leaves come from valid layouts: only their product (the nodes' sizes multiply) and
        // the codes need a look
        tri!(checked_size(&p.1, p.0.len(), op));
        let mut l = Layout::from_valid(p);
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

/// [`Builder::push_node`] of a whole valid layout `$r` (or, with `mode lo..hi`,
/// [`Builder::push_mode`] of its top-level mode of leaves `[lo, hi)`, as
/// [`Tree::mode_end`](crate::int_tuple::Tree::mode_end) walks them) on a layout `$out` written in
/// place (counters `$n` leaves, `$pending` brackets, `$depth`), with the same checks and errors
/// (nesting depth, number of leaves, for `$op`); on failure sets `*$err` and returns `$out` from
/// the enclosing function. A macro so that `$out` is written through its fields, never borrowed
/// (see `algebra::coalesce::coalesce_into`).
macro_rules! push_layout {
    ($op:expr, $out:ident, $err:ident, $n:ident, $pending:ident, $depth:ident, $r:expr) => {{
        let r: &$crate::layout::Layout = $r;
        $crate::layout::push_layout!(
            @leaves $op, $out, $err, $n, $pending, $depth, r, 0, r.tree.len(), (0, 0)
        );
    }};
    ($op:expr, $out:ident, $err:ident, $n:ident, $pending:ident, $depth:ident, $r:expr, mode $lo:ident..$hi:ident) => {{
        let r: &$crate::layout::Layout = $r;
        let (lo, hi): (usize, usize) = ($lo, $hi);
        let adj = r.tree.mode_adjust(lo, hi);
        $crate::layout::push_layout!(
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
                if let Err(e) = $crate::layout::open_bracket($op, &mut $pending, &mut $depth) {
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

/// The fallible operations of [`IntTuple`] (the type and its infallible accessors are in
/// [`int_tuple`](mod@crate::int_tuple), below the errors).
impl IntTuple {
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
            s = tri!(add(Op::MakeLayout, s, self.val[i]));
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
}

/// The types of swizzles and composed layouts, defined here (a composed layout holds a layout, and
/// the errors record it as an operand) and exported as [`crate::swizzle::Swizzle`] and
/// [`crate::swizzle::ComposedLayout`], where their operations are.
pub(crate) mod swizzled {
    use super::Layout;

    /// CuTe's `Swizzle<B,M,S>`: `o ↦ o ^ ((o & yyy) >> S)` (see the [module](crate::swizzle) documentation).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Swizzle {
        pub(crate) b: u8,
        pub(crate) m: u8,
        pub(crate) s: i8,
    }

    /// A swizzle, an offset and a layout: CuTe's `ComposedLayout`, `x ↦ Sw(offset + L(x))`.
    ///
    /// Its domain is the layout's; it prints as `Sw<B,M,S> o offset o L`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct ComposedLayout {
        /// The swizzle applied last.
        pub swizzle: Swizzle,
        /// The offset added to the layout's value before the swizzle.
        pub offset: i64,
        /// The layout applied first.
        pub layout: Layout,
    }
}

// Stride arithmetic that can fail: it names the operation in its error, so it sits here, above
// the errors; the stride types and their infallible parts are in `crate::stride`, below them.

/// [`path_code`]: packs a basis path (outermost first) into a positive code, failing past the
/// capacity of a code.
pub(crate) const fn encode_path(path: &[usize]) -> Result<Code, Error> {
    match path_code(path) {
        Ok(code) => Ok(code),
        Err(PathLimit::Depth) => Err(Error::new(
            Op::Parse,
            ErrorKind::Capacity {
                what: "depth of a basis path E(p_1,…,p_k)",
                limit: MAX_PATH,
            },
        )),
        Err(PathLimit::Index) => Err(Error::new(
            Op::Parse,
            ErrorKind::Capacity {
                what: "index of a basis element e_i",
                limit: MAX_BASIS_INDEX,
            },
        )),
    }
}

/// Carry-less product of two polynomials over F2 ([`clmul_checked`]), failing when the degree
/// reaches 63.
pub(crate) const fn clmul(op: Op, a: u64, b: u64) -> Result<u64, Error> {
    match clmul_checked(a, b) {
        Some(r) => Ok(r),
        None => Err(Error::new(
            op,
            ErrorKind::Overflow {
                what: "a carry-less (F2) product",
            },
        )),
    }
}

impl Stride {
    /// The binary stride `f_bits` (`F<bits>`): the polynomial over F2 whose coefficients are the
    /// bits of `bits`. Fails for `bits >= 2^63`.
    ///
    /// ```
    /// use cute::Stride;
    /// assert_eq!(Stride::f2(9).unwrap().to_string(), "F9");
    /// assert_eq!(Stride::f2(1 << 63).unwrap_err().to_string(), "make_layout: integer overflow: a binary stride does not fit in i64");
    /// ```
    pub const fn f2(bits: u64) -> Result<Stride, Error> {
        if bits > i64::MAX as u64 {
            return Err(Error::new(
                Op::MakeLayout,
                ErrorKind::Overflow {
                    what: "a binary stride",
                },
            ));
        }
        Ok(Stride::from_code(bits as i64, BINARY))
    }

    /// The scaled basis `v·E(path)` (`path` outermost first; `v@path[k-1]@…@path[0]` in print).
    ///
    /// ```
    /// use cute::Stride;
    /// assert_eq!(Stride::basis(3, &[1]).unwrap().to_string(), "3@1");
    /// assert_eq!(Stride::basis(1, &[0, 1]).unwrap().to_string(), "1@1@0"); // CuTe's E<0,1>
    /// ```
    pub const fn basis(v: i64, path: &[usize]) -> Result<Stride, Error> {
        let code = tri!(encode_path(path));
        Ok(Stride::from_code(v, code))
    }

    /// `c · d`: scaling by an integer coordinate (carry-less for binary strides).
    ///
    /// ```
    /// use cute::{Op, Stride};
    /// assert_eq!(Stride::int(4).scale(3, Op::Eval).unwrap(), Stride::int(12));
    /// // carry-less: (x + 1)·(x + 1) = x^2 + 1 over F2
    /// assert_eq!(Stride::f2(3).unwrap().scale(3, Op::Eval).unwrap().to_string(), "F5");
    /// ```
    pub const fn scale(self, c: i64, op: Op) -> Result<Stride, Error> {
        if self.code == BINARY {
            if c < 0 {
                return Err(Error::new(
                    op,
                    ErrorKind::Unsupported {
                        what: "a negative coordinate times a binary (F2) stride",
                    },
                ));
            }
            let v = tri!(clmul(op, self.value as u64, c as u64));
            return Ok(Stride::from_code(v as i64, BINARY));
        }
        match self.value.checked_mul(c) {
            Some(v) => Ok(Stride::from_code(v, self.code)),
            None => Err(Error::new(
                op,
                ErrorKind::Overflow {
                    what: "a scaled stride",
                },
            )),
        }
    }
}

impl Value {
    /// `self + other` in their semimodule: integer addition (overflow-checked), XOR for F2 values,
    /// term-wise addition for arithmetic tuples. The integer `0` is the zero of every semimodule;
    /// other mixes are refused (`Unsupported`).
    ///
    /// ```
    /// use cute::{Op, Value};
    /// assert_eq!(Value::Int(2).add(Value::Int(3), Op::Eval).unwrap(), Value::Int(5));
    /// assert_eq!(Value::F2(5).add(Value::F2(3), Op::Eval).unwrap(), Value::F2(6)); // XOR
    /// let e = Value::Int(1).add(Value::F2(1), Op::Eval).unwrap_err();
    /// assert_eq!(e.to_string(), "eval: unsupported: adding values of different semimodules");
    /// ```
    pub const fn add(self, other: Value, op: Op) -> Result<Value, Error> {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => match a.checked_add(b) {
                Some(v) => Ok(Value::Int(v)),
                None => Err(Error::new(op, ErrorKind::Overflow { what: "an offset" })),
            },
            (Value::F2(a), Value::F2(b)) => Ok(Value::F2(a ^ b)),
            (Value::Coord(mut a), Value::Coord(b)) => {
                let mut i = 0;
                while i < b.n as usize {
                    a = match a.add_term(b.val[i], b.code[i], op) {
                        Ok(t) => t,
                        Err(e) => return Err(e),
                    };
                    i += 1;
                }
                Ok(Value::Coord(a))
            }
            (Value::Int(0), v) | (v, Value::Int(0)) => Ok(v),
            _ => Err(Error::new(
                op,
                ErrorKind::Unsupported {
                    what: "adding values of different semimodules",
                },
            )),
        }
    }
}

impl ArithTuple {
    /// Adds `v·E(code)`.
    pub(crate) const fn add_term(
        mut self,
        v: i64,
        code: Code,
        op: Op,
    ) -> Result<ArithTuple, Error> {
        let n = self.n as usize;
        let mut i = 0;
        while i < n && self.code[i] < code {
            i += 1;
        }
        if i < n && self.code[i] == code {
            let s = match self.val[i].checked_add(v) {
                Some(s) => s,
                None => {
                    return Err(Error::new(
                        op,
                        ErrorKind::Overflow {
                            what: "a coordinate of an arithmetic tuple",
                        },
                    ))
                }
            };
            self.val[i] = s;
            return Ok(self);
        }
        // a basis and a basis below it (`e_0` and `e_(0,0)`) cannot be added: the coordinates
        // have different depths
        let mut k = 0;
        while k < n {
            if is_prefix(self.code[k], code) || is_prefix(code, self.code[k]) {
                return Err(Error::new(
                    op,
                    ErrorKind::Unsupported {
                        what: "adding coordinate bases of different depths at one position",
                    },
                ));
            }
            k += 1;
        }
        if n >= CAPACITY {
            return Err(Error::new(
                op,
                ErrorKind::Capacity {
                    what: "terms of an arithmetic tuple",
                    limit: CAPACITY,
                },
            ));
        }
        let mut k = n;
        while k > i {
            self.code[k] = self.code[k - 1];
            self.val[k] = self.val[k - 1];
            k -= 1;
        }
        self.code[i] = code;
        self.val[i] = v;
        self.n += 1;
        Ok(self)
    }
}
