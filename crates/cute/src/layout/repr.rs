//! The type [`Layout`]: its representation, equality, hashing and the accessors that cannot fail.
//!
//! Below [`crate::error`] (an error carries layouts as operands): nothing here returns an error.
//! Building a layout and the operations that can fail are in the other modules of
//! [`layout`](mod@crate::layout), above the errors.

use crate::int_tuple::{IntTuple, Tree, CAPACITY};
use crate::stride::{kind_of, Code, Semimodule, Stride, BINARY, INTEGER};

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
/// [`ErrorKind::InvalidShape`]: crate::ErrorKind::InvalidShape
/// [`ErrorKind::Overflow`]: crate::ErrorKind::Overflow
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

impl Layout {
    /// The trivial layout `1:0`.
    pub const TRIVIAL: Layout = Layout {
        tree: Tree::LEAF,
        shape: one_then_zeros(),
        stride: [0; CAPACITY],
        basis: [0; CAPACITY],
    };

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
    /// [`ErrorKind::Overflow`]: crate::ErrorKind::Overflow
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
}

const fn one_then_zeros() -> [i64; CAPACITY] {
    let mut a = [0; CAPACITY];
    a[0] = 1;
    a
}
