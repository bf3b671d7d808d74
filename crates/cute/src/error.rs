//! Errors: one type for every refusal of the algebra, the parser and evaluation.
//!
//! An [`Error`] names the operation ([`Op`]), the operands it was given (or the sub-operands of the
//! mode that failed), and an [`ErrorKind`] that carries the violated condition with its values.
//! Its `Display` is one line of plain words, e.g.
//!
//! ```text
//! composition (4,6,8):(2,3,5) ∘ 6:3: stride-divisibility condition (9) fails at mode 1 of the
//! coalesced left operand: stride 3 and prefix product 4 divide neither way; decided exactly, no
//! layout compatible with the right operand computes A∘B: along leaf 0 of B, A(B(c)) at c = 2·u is
//! a progression for u < 2 but not at u = 2, so every such layout has a mode boundary at c = 4,
//! which does not divide the extent 6
//! ```
//!
//! Every kind maps to one of the conformance categories through [`Error::category`].
//!
//! The message is written by the crate's one text writer (`fmt.rs`, which implements
//! [`Error::message`] and `Display`). An error carries its operands as values: this module imports
//! only the value types (`int_tuple`, `stride`, the type [`Layout`] and the type
//! [`ComposedLayout`](crate::ComposedLayout)), which import nothing above them, and every operation
//! that returns an error sits above this module.

use crate::int_tuple::IntTuple;
use crate::layout::repr::Layout;
use crate::stride::Semimodule;

/// The operation that failed. Printed with the paper's (and CuTe's) function name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[allow(missing_docs)]
pub enum Op {
    Parse,
    MakeLayout,
    Concatenation,
    Eval,
    Cosize,
    Idx2Crd,
    Crd2Idx,
    Crd2Crd,
    Get,
    Take,
    Select,
    Group,
    Unflatten,
    Coalesce,
    CoalesceZ,
    Filter,
    FilterZeros,
    Composition,
    CompositionMode,
    WithShape,
    Complement,
    RightInverse,
    LeftInverse,
    LogicalDivide,
    ZippedDivide,
    TiledDivide,
    FlatDivide,
    LogicalProduct,
    ZippedProduct,
    TiledProduct,
    FlatProduct,
    BlockedProduct,
    RakedProduct,
    TileToShape,
    MaxCommonLayout,
    MaxCommonVector,
    Nullspace,
    Upcast,
    Downcast,
    Recast,
    LayoutAdd,
    GreatestCommonDomain,
    DomainDistribute,
    MakeOrderedLayout,
    CompactColMajor,
    CompactRowMajor,
    Image,
    TilerToLayout,
    LinearForm,
    Tensor,
    Slice,
    Copy,
    Gemm,
    Partition,
    /// [`tv_partition`](crate::tv_partition) (and [`Tensor::partition_tv`](crate::Tensor::partition_tv)).
    ///
    /// ```
    /// use cute::Op;
    /// assert_eq!(Op::TvPartition.name(), "tv_partition");
    /// ```
    TvPartition,
    MakeLayoutTv,
    LocalTile,
    LocalPartition,
    Contains,
    Swizzle,
    BankConflicts,
    SwizzleSearch,
    /// An operation of a crate built on this one, by its name, e.g. cute-gemm's `contract`
    /// (the core names only its own operations).
    ///
    /// ```
    /// use cute::{Error, ErrorKind, Op};
    /// const CONTRACT: Op = Op::Named("contract");
    /// assert_eq!(CONTRACT.name(), "contract");
    /// let e = Error::new(CONTRACT, ErrorKind::Unsupported { what: "an example" });
    /// assert_eq!(e.to_string(), "contract: unsupported: an example");
    /// assert_eq!(e.op(), Op::Named("contract"));
    /// ```
    Named(&'static str),
}

impl Op {
    /// The function name as the paper and CuTe spell it.
    ///
    /// ```
    /// use cute::Op;
    /// assert_eq!(Op::LogicalDivide.name(), "logical_divide");
    /// assert_eq!(Op::RightInverse.name(), "right_inverse");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Op::Parse => "parse",
            Op::MakeLayout => "make_layout",
            Op::Concatenation => "concatenation",
            Op::Eval => "eval",
            Op::Cosize => "cosize",
            Op::Idx2Crd => "idx2crd",
            Op::Crd2Idx => "crd2idx",
            Op::Crd2Crd => "crd2crd",
            Op::Get => "get",
            Op::Take => "take",
            Op::Select => "select",
            Op::Group => "group",
            Op::Unflatten => "unflatten",
            Op::Coalesce => "coalesce",
            Op::CoalesceZ => "coalesce_z",
            Op::Filter => "filter",
            Op::FilterZeros => "filter_zeros",
            Op::Composition => "composition",
            Op::CompositionMode => "composition_mode",
            Op::WithShape => "with_shape",
            Op::Complement => "complement",
            Op::RightInverse => "right_inverse",
            Op::LeftInverse => "left_inverse",
            Op::LogicalDivide => "logical_divide",
            Op::ZippedDivide => "zipped_divide",
            Op::TiledDivide => "tiled_divide",
            Op::FlatDivide => "flat_divide",
            Op::LogicalProduct => "logical_product",
            Op::ZippedProduct => "zipped_product",
            Op::TiledProduct => "tiled_product",
            Op::FlatProduct => "flat_product",
            Op::BlockedProduct => "blocked_product",
            Op::RakedProduct => "raked_product",
            Op::TileToShape => "tile_to_shape",
            Op::MaxCommonLayout => "max_common_layout",
            Op::MaxCommonVector => "max_common_vector",
            Op::Nullspace => "nullspace",
            Op::Upcast => "upcast",
            Op::Downcast => "downcast",
            Op::Recast => "recast",
            Op::LayoutAdd => "layout_add",
            Op::GreatestCommonDomain => "greatest_common_domain",
            Op::DomainDistribute => "domain_distribute",
            Op::MakeOrderedLayout => "make_ordered_layout",
            Op::CompactColMajor => "compact_col_major",
            Op::CompactRowMajor => "compact_row_major",
            Op::Image => "image",
            Op::TilerToLayout => "tiler_to_layout",
            Op::LinearForm => "linear_form",
            Op::Tensor => "make_tensor",
            Op::Slice => "slice",
            Op::Copy => "copy",
            Op::Gemm => "gemm",
            Op::Partition => "partition",
            Op::TvPartition => "tv_partition",
            Op::MakeLayoutTv => "make_layout_tv",
            Op::LocalTile => "local_tile",
            Op::LocalPartition => "local_partition",
            Op::Contains => "contains",
            Op::Swizzle => "swizzle",
            Op::BankConflicts => "bank_conflicts",
            Op::SwizzleSearch => "swizzle_search",
            Op::Named(name) => name,
        }
    }

    /// The infix symbol of the paper for binary operations, if it has one.
    pub(crate) const fn symbol(self) -> Option<&'static str> {
        match self {
            Op::Composition | Op::CompositionMode => Some("∘"),
            Op::LogicalDivide => Some("⊘"),
            Op::LogicalProduct => Some("⊗"),
            _ => None,
        }
    }
}

/// An operand recorded in an error, so that the message can name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[allow(missing_docs)]
#[allow(clippy::large_enum_variant)] // layouts are stored inline: no heap
pub enum Operand {
    #[default]
    None,
    Layout(Layout),
    Tuple(IntTuple),
    Int(i64),
    Composed(crate::swizzle::repr::ComposedLayout),
    Coord(crate::int_tuple::partial::PartialCoord),
}

/// Why no layout compatible with `B` computes `A ∘ B`: facts about the values `A(B(i))` that
/// anyone can check by evaluating `A` and `B` (see [`ErrorKind::NoLayout`]; decided by composition's exact decision, DESIGN.md "Composition decided exactly"). Along leaf `j` of `B`
/// (extent `s`, index weight `w`, the product of the extents of the leaves before it), write
/// `g(c) = A(B(c·w))` for `c < s`.
///
/// ```
/// use cute::{composition, CompositionWitness, ErrorKind, Layout};
/// let a: Layout = "(4,6,8):(2,3,5)".parse()?;
/// let e = composition(&a, &"6:3".parse()?).unwrap_err();
/// // (9) fails, and the values A(B(c)) = 0, 6, 7, 8, 9, 15 form no layout: the first mode ends at
/// // c = 2, the progression at c = 2·u departs at u = 2, a mode boundary at 4, which does not
/// // divide 6
/// assert!(matches!(
///     e.kind(),
///     ErrorKind::StrideDivisibility {
///         witness: Some(CompositionWitness::Boundary { leaf: 0, step: 2, run: 2, extent: 6 }),
///         ..
///     }
/// ));
/// # Ok::<(), cute::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompositionWitness {
    /// The forced mode boundaries of `g` are `Q_1 | Q_2 | … | Q_m = step` (each found as below),
    /// and `u ↦ g(step·u)` is a progression for `u < run` but `g(step·run) ≠ run·g(step)`: so
    /// `step·run` is a mode boundary of every layout computing `g`, and it does not divide
    /// `extent`.
    Boundary {
        /// The leaf of `B` (in leaf order).
        leaf: usize,
        /// `Q_m`, the last forced boundary (1 at the start).
        step: i64,
        /// The length of the progression `u ↦ g(step·u)`.
        run: i64,
        /// The extent `s` of the leaf.
        extent: i64,
    },
    /// `step` is a forced mode boundary of `g` (as in `Boundary`), `low < step`, `high` is a
    /// multiple of `step`, and `g(low + high) ≠ g(low) + g(high)`: every layout with a mode
    /// boundary at `step` adds the two.
    Carry {
        /// The leaf of `B` (in leaf order).
        leaf: usize,
        /// The forced boundary `Q_m`.
        step: i64,
        /// The coordinate below the boundary.
        low: i64,
        /// The multiple of the boundary.
        high: i64,
    },
    /// Every leaf alone is a layout, but at the index `index` of `B` the value `A(B(index))` is
    /// not the sum of the values of its leaf coordinates taken one at a time (every layout
    /// compatible with `B` adds them).
    Sum {
        /// The index `i < size(B)`.
        index: i64,
        /// `A(B(i))`.
        value: i64,
        /// `Σ_j A(B(c_j·w_j))` for the leaf coordinates `c_j` of `i`.
        sum: i64,
    },
}

/// What went wrong, with the offending values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The paper's stride-divisibility condition (9): the stride `d` of a leaf `s:d` of the right
    /// operand and the prefix product `S̄_mode` of the coalesced left operand divide neither way (and
    /// the leaf reaches past `S̄_mode`, so truncation cannot help).
    StrideDivisibility {
        /// `r` in `S̄_r`: the mode of the coalesced, flattened left operand whose prefix product fails.
        mode: usize,
        /// The stride `d` of the right operand's leaf.
        stride: i64,
        /// The prefix product `S̄_mode`.
        prefix: i64,
        /// Composition decided exactly: why no layout compatible with the right operand computes
        /// `A ∘ B` (`None` where the decision was not taken: binary strides, or past its bound).
        witness: Option<CompositionWitness>,
    },
    /// The paper's shape-divisibility condition (10): `⌈S̄_mode / d⌉ = divisor` does not divide the
    /// shape `s = rest` of the right operand's leaf.
    ShapeDivisibility {
        /// `r` in `S̄_r`.
        mode: usize,
        /// The shape `s` of the right operand's leaf.
        rest: i64,
        /// `⌈S̄_mode / d⌉`.
        divisor: i64,
        /// As for `StrideDivisibility`: why no layout computes `A ∘ B`, where decided.
        witness: Option<CompositionWitness>,
    },
    /// The distributivity condition (12) fails: adding the values of the leaves of the right operand
    /// carries across the mode boundary `S̄_mode = boundary` of the coalesced left operand, so the
    /// composition cannot be taken leaf by leaf (and `A ∘ B` is not the by-mode result).
    Distributivity {
        /// `r` in `S̄_r`: the mode of the coalesced left operand whose boundary is crossed.
        mode: usize,
        /// The prefix product `S̄_mode`.
        boundary: i64,
    },
    /// Composition decided exactly where the distributivity check (12) refuses (a bound that may
    /// see a carry where none happens): no layout compatible with the right operand `B` (each
    /// leaf of `B` split into an ordered factorisation of its extent) computes `A(B(i))` for every
    /// index `i`, for the reason the witness states. (Where (9) or (10) fails, the witness is
    /// carried by `StrideDivisibility` or `ShapeDivisibility`.)
    NoLayout {
        /// The checkable reason (indices and values of `A(B(·))`).
        witness: CompositionWitness,
    },
    /// A generic divisibility failure (upcast/downcast, left inverse chains, products).
    Divisibility {
        /// The mode concerned.
        mode: usize,
        /// The value that should be divisible.
        value: i64,
        /// The divisor.
        divisor: i64,
        /// Which condition, in words.
        what: &'static str,
    },
    /// A logical divide `A ⊘ B` needs `B★ = (B, B*)` onto `Z_|A|` (paper §5.5.2, "we require
    /// B★ ... onto Z_|A|"): no coordinate of `(B, B*)` reaches the offset `missing`. With a tiler
    /// whose modes collide with their own translates (`(2,3):(24,32)` meets itself shifted by 8),
    /// no complement can fill the hole; CuTe C++ returns a layout that leaves those elements of `A`
    /// out.
    NotOnto {
        /// The smallest offset in `[0, size)` that `(B, B*)` does not reach.
        missing: i64,
        /// `|A|`, the size of the interval `(B, B*)` must cover.
        size: i64,
    },
    /// `layout_add`: the coalesced operands have no common refinement of their domain, so no layout
    /// evaluates to their sum (PyCuTe refuses the same inputs).
    NoCommonRefinement {
        /// The size of the greatest common domain of the coalesced shapes.
        common: i64,
        /// The size of the operands.
        size: i64,
    },
    /// The operation needs an injective layout; two coordinates meet at the same offset.
    NotInjective {
        /// The stride that collides with the modes before it (in increasing-stride order).
        stride: i64,
        /// The extent covered by the modes before it.
        covered: i64,
    },
    /// The operation needs an injective layout (after dropping its stride-0 modes, for a
    /// complement); two distinct indices meet at the same offset.
    Collision {
        /// The smaller index.
        first: i64,
        /// The larger index.
        second: i64,
    },
    /// A mode index is out of range.
    OutOfRange {
        /// The index asked for.
        index: usize,
        /// The rank available.
        rank: usize,
    },
    /// A `_` of a tiler keeps an integer mode of `A` whole, where a zipped or tiled form needs
    /// the mode split into a tile and a rest (CuTe: `get<1>` of an integer). Category
    /// `OutOfRange`, as CuTe's "Index out of range".
    WholeModeUnzip {
        /// The size of the mode kept whole.
        size: i64,
    },
    /// Ranks, profiles or sizes do not fit together.
    ProfileMismatch {
        /// What does not match, in words.
        what: &'static str,
        /// The first value compared.
        left: i64,
        /// The second value compared.
        right: i64,
    },
    /// The value cannot be represented with this stride kind.
    Unsupported {
        /// In words.
        what: &'static str,
    },
    /// Strides of different semimodules meet in one layout (the paper's `(4:2, 3:e_0)`).
    MixedSemimodules {
        /// The semimodule of the first nonzero stride.
        left: Semimodule,
        /// The semimodule of the stride that does not fit.
        right: Semimodule,
    },
    /// The operation is defined here for integer strides only.
    NeedsIntegerStrides {
        /// The semimodule of the operand's strides.
        found: Semimodule,
    },
    /// Composition with binary (F2) strides: scaling a mode by the right operand's stride `scale`
    /// is carry-less, and it equals integer scaling only when `c·scale` has no carries for every
    /// coordinate `c < extent` of the result's mode.
    BinaryCarry {
        /// The leaf of the right operand.
        mode: usize,
        /// The integer factor applied to the binary stride.
        scale: i64,
        /// The extent of the result's mode.
        extent: i64,
    },
    /// Composition with binary (F2) strides: two leaves of the right operand add offsets in one
    /// mode of the left operand whose bits overlap, so their integer sum carries and differs from
    /// the XOR that the result computes.
    BinaryOverlap {
        /// The later of the two leaves of the right operand.
        leaf: usize,
        /// The bits the earlier leaves may set in that mode.
        used: u64,
        /// The bits this leaf may set.
        span: u64,
    },
    /// An integer coordinate lies outside the domain `Z_size` of the (sub-)layout it indexes.
    NotInDomain {
        /// The coordinate.
        coord: i64,
        /// The size of the domain.
        size: i64,
    },
    /// The layout sends an index to a negative offset, which lies outside the domain `Z_n` of every
    /// layout (so no layout can be evaluated there, e.g. by a left inverse).
    ///
    /// ```
    /// use cute::{left_inverse, ErrorKind, Layout};
    /// let e = left_inverse(&"(3,2):(2,-1)".parse::<Layout>().unwrap()).unwrap_err();
    /// assert_eq!(*e.kind(), ErrorKind::NegativeOffset { index: 3, offset: -1 });
    /// assert_eq!(e.category(), "OutOfRange");
    /// ```
    NegativeOffset {
        /// The index.
        index: i64,
        /// Its (negative) offset.
        offset: i64,
    },
    /// `contract`: a letter of the spec is no GETT mode (repeated within its term, a diagonal; or
    /// in one term only). Category `Unsupported`.
    ///
    /// ```
    /// use cute::{Error, ErrorKind, Op};
    /// let e = Error::new(
    ///     Op::Named("contract"),
    ///     ErrorKind::ContractLetter { letter: b'x', term: 0, position: 2, what: "it occurs in no other term" },
    /// );
    /// assert_eq!(e.to_string(), "contract: unsupported: letter 'x' at position 2 of term A: it occurs in no other term");
    /// assert_eq!(e.category(), "Unsupported");
    /// ```
    ContractLetter {
        /// The letter (an ASCII letter).
        letter: u8,
        /// Its term: 0 for A, 1 for B, 2 for C (the output).
        term: u8,
        /// Its position in the term.
        position: usize,
        /// The rule it breaks, in words.
        what: &'static str,
    },
    /// `contract`: one letter names modes of different sizes in two tensors. Category
    /// `ProfileMismatch`.
    ///
    /// ```
    /// use cute::{Error, ErrorKind, Op};
    /// let e = Error::new(
    ///     Op::Named("contract"),
    ///     ErrorKind::ContractSizes { letter: b'k', term: 0, size: 3, other_term: 1, other_size: 4 },
    /// );
    /// assert_eq!(e.to_string(), "contract: letter 'k' names a mode of size 3 in A and a mode of size 4 in B");
    /// assert_eq!(e.category(), "ProfileMismatch");
    /// ```
    ContractSizes {
        /// The letter (an ASCII letter).
        letter: u8,
        /// The first term that has it: 0 for A, 1 for B, 2 for C.
        term: u8,
        /// The size of its mode there.
        size: i64,
        /// A later term where its mode has another size.
        other_term: u8,
        /// That size.
        other_size: i64,
    },
    /// A tensor's layout reaches offsets outside its storage.
    OutOfStorage {
        /// The storage index of the smallest offset.
        first: i64,
        /// The storage index of the largest offset.
        last: i64,
        /// The length of the storage.
        len: i64,
    },
    /// A shape entry is not a positive integer.
    InvalidShape {
        /// The offending entry.
        value: i64,
    },
    /// Shape and stride are not congruent (the paper requires `S ~ D`).
    NotCongruent {
        /// Where the reader found the stride's structure leaving the shape's: the byte offset of
        /// the stride's first token that does not match, and what it is, in words (`None` when
        /// the two were not read from one text).
        at: Option<(usize, &'static str)>,
    },
    /// An intermediate value does not fit in an `i64`.
    Overflow {
        /// What overflowed, in words.
        what: &'static str,
    },
    /// The value has more leaves or deeper nesting than this build's fixed capacity.
    Capacity {
        /// What exceeded the capacity.
        what: &'static str,
        /// The limit.
        limit: usize,
    },
    /// The text does not follow CuTe notation.
    Syntax {
        /// Byte offset in the input.
        pos: usize,
        /// What was expected there.
        expected: &'static str,
    },
    /// `Sw<b,m,s>` is not a swizzle (CuTe's `Swizzle` needs `b, m ≥ 0` and `|s| ≥ b`; here also
    /// `b + m + |s| ≤ 63`, so that the masks fit in an `i64`).
    InvalidSwizzle {
        /// The number of bits `B`.
        b: i64,
        /// The base `M`.
        m: i64,
        /// The shift `S`.
        s: i64,
    },
    /// A shared-memory access width `V·B` that the bank model does not serve (4, 8 or 16 bytes), or
    /// an element size `B` or vector length `V` that is not positive.
    AccessWidth {
        /// The element size `B` in bytes.
        elem_bytes: i64,
        /// The number of values `V` per access.
        vector: i64,
    },
    /// One thread's access of an instruction is not a single aligned vector access of shared
    /// memory (or reaches outside the shared-memory layout).
    VectorAccess {
        /// The thread (0..32).
        thread: i64,
        /// The instruction.
        instruction: i64,
        /// The offending value: an element offset or a tile coordinate, as `what` says.
        value: i64,
        /// What is wrong, in words.
        what: &'static str,
    },
}

/// The error of every fallible function of this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error {
    pub(crate) op: Op,
    pub(crate) kind: ErrorKind,
    pub(crate) lhs: Operand,
    pub(crate) rhs: Operand,
    pub(crate) mode: ModePath,
    pub(crate) step: Step,
}

/// The step of an operation built from others in which the error arose, where that step's
/// operands are not the operation's own (which the error records): the message names the step and
/// writes the violated condition with the step's names, `A*` for the complement of `A` in a
/// product, `B★ = (B, B*)` in a divide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The operation on the operands recorded.
    Whole,
    /// `A* = complement(A)` of a product `A ⊗ B`: the paper's complement, which the product
    /// composes on its extended domain (its values there are those of CuTe's `complement(A,
    /// size(A)·cosize(B))` kept to its trailing mode).
    ProductComplement,
    /// `A* ∘ B`, the second mode of a product, with `A*` as in `ProductComplement`.
    ProductGrid,
    /// `B*`, the complement of the tile `B` of a divide onto `Z_n`.
    DivideComplement(i64),
    /// `A ∘ B★`, `B★ = (B, B*)`, the composition of a divide.
    DivideCompose,
}

/// Where, in an operation applied mode by mode (a tiler's composition, divide or product), the
/// failing piece lies: the mode indices from the outermost in (`[1, 0]` is mode 0 of mode 1).
/// Kept small (an `Error` is returned by value everywhere): the outermost [`ModePath::CAP`]
/// indices, and whether the path went deeper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ModePath {
    n: u8,
    deeper: bool,
    idx: [u8; ModePath::CAP],
}

impl ModePath {
    /// The most indices kept (tilers nest deeper only by wrapping single tiles in brackets).
    pub(crate) const CAP: usize = 14;

    /// No mode: the error concerns the operands as given.
    pub(crate) const EMPTY: ModePath = ModePath {
        n: 0,
        deeper: false,
        idx: [0; ModePath::CAP],
    };

    /// The indices kept, outermost first.
    pub(crate) const fn indices(&self) -> &[u8] {
        self.idx.split_at(self.n as usize).0
    }

    /// Whether the path went deeper than the indices kept.
    pub(crate) const fn deeper(&self) -> bool {
        self.deeper
    }

    /// The path with `k` put outside: the innermost index is dropped when all are in use.
    const fn prepend(mut self, k: u8) -> ModePath {
        let mut j = self.n as usize;
        if j == ModePath::CAP {
            self.deeper = true;
            j -= 1;
        } else {
            self.n += 1;
        }
        while j > 0 {
            self.idx[j] = self.idx[j - 1];
            j -= 1;
        }
        self.idx[0] = k;
        self
    }
}

impl Error {
    /// A new error for `op` with no operands recorded yet.
    ///
    /// ```
    /// use cute::{Error, ErrorKind, Op};
    /// let e = Error::new(Op::Composition, ErrorKind::Unsupported { what: "an example" });
    /// assert_eq!(e.to_string(), "composition: unsupported: an example");
    /// ```
    pub const fn new(op: Op, kind: ErrorKind) -> Error {
        Error {
            op,
            kind,
            lhs: Operand::None,
            rhs: Operand::None,
            mode: ModePath::EMPTY,
            step: Step::Whole,
        }
    }

    /// Records the operands (replacing any recorded before).
    ///
    /// ```
    /// use cute::{Error, ErrorKind, Layout, Op, Operand};
    /// let a: Layout = "4:1".parse().unwrap();
    /// let e = Error::new(Op::Composition, ErrorKind::Unsupported { what: "an example" })
    ///     .with(Operand::Layout(a), Operand::None);
    /// assert_eq!(e.to_string(), "composition 4:1: unsupported: an example");
    /// ```
    pub const fn with(mut self, lhs: Operand, rhs: Operand) -> Error {
        self.lhs = lhs;
        self.rhs = rhs;
        self
    }

    /// Records the operands only if none were recorded yet.
    pub(crate) const fn or_with(self, lhs: Operand, rhs: Operand) -> Error {
        match self.lhs {
            Operand::None => self.with(lhs, rhs),
            _ => self,
        }
    }

    /// Records that the error arose in mode `k` of an operation applied mode by mode, outside the
    /// modes recorded so far (callers unwind from the innermost mode out). The operands stay the
    /// pieces that failed; the message names the path (`at mode (1,0)`).
    pub(crate) const fn in_mode(mut self, k: usize) -> Error {
        // (a mode index is below a layout's capacity of leaves, 32)
        self.mode = self.mode.prepend(k as u8);
        self
    }

    /// Records that the error arose in the step `step` of the operation (kept when the operands are
    /// recorded afterwards, which are the operation's).
    pub(crate) const fn in_step(mut self, step: Step) -> Error {
        self.step = step;
        self
    }

    /// The modes, outermost first, in which an operation applied mode by mode (a tiler's
    /// composition, divide or product) failed; empty when the operands as given failed. The
    /// operands ([`lhs`](Error::lhs), [`rhs`](Error::rhs)) are then that mode's pieces.
    ///
    /// ```
    /// use cute::{logical_divide, Layout, Operand, Tiler};
    /// let a: Layout = "((2,2),6):((1,8),4)".parse()?;
    /// let e = logical_divide(&a, &"<3:1,4:1>".parse::<Tiler>()?).unwrap_err();
    /// assert_eq!(e.mode_path(), &[0]);
    /// assert_eq!(e.lhs(), &Operand::Layout("(2,2):(1,8)".parse()?));
    /// assert!(e.to_string().starts_with("logical_divide at mode 0: (2,2):(1,8) ⊘ 3:1: "));
    /// # Ok::<(), cute::Error>(())
    /// ```
    pub const fn mode_path(&self) -> &[u8] {
        self.mode.indices()
    }

    /// Replaces the operation name only if it is `from` (used when an operation is built from another).
    pub(crate) const fn retag(mut self, op: Op) -> Error {
        self.op = op;
        self
    }

    /// The operation that failed.
    ///
    /// ```
    /// use cute::{composition, Layout, Op};
    /// let a: Layout = "(4,6,8):(2,3,5)".parse().unwrap();
    /// let e = composition(&a, &"6:3".parse().unwrap()).unwrap_err();
    /// assert_eq!(e.op(), Op::Composition);
    /// ```
    pub const fn op(&self) -> Op {
        self.op
    }

    /// The violated condition with its values.
    ///
    /// ```
    /// use cute::{composition, ErrorKind, Layout};
    /// let a: Layout = "(4,6,8):(2,3,5)".parse().unwrap();
    /// let e = composition(&a, &"6:3".parse().unwrap()).unwrap_err();
    /// assert!(matches!(e.kind(), ErrorKind::StrideDivisibility { .. }));
    /// ```
    pub const fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The left (or only) operand.
    ///
    /// ```
    /// use cute::{composition, Layout, Operand};
    /// let a: Layout = "(4,6,8):(2,3,5)".parse().unwrap();
    /// let e = composition(&a, &"6:3".parse().unwrap()).unwrap_err();
    /// assert_eq!(e.lhs(), &Operand::Layout(a));
    /// ```
    pub const fn lhs(&self) -> &Operand {
        &self.lhs
    }

    /// The right operand.
    ///
    /// ```
    /// use cute::{composition, Layout, Operand};
    /// let a: Layout = "(4,6,8):(2,3,5)".parse().unwrap();
    /// let b: Layout = "6:3".parse().unwrap();
    /// let e = composition(&a, &b).unwrap_err();
    /// assert_eq!(e.rhs(), &Operand::Layout(b));
    /// ```
    pub const fn rhs(&self) -> &Operand {
        &self.rhs
    }

    /// The conformance category of this error: `Divisibility`, `NotInjective`, `OutOfRange`,
    /// `ProfileMismatch`, `Unsupported`, or (outside the conformance set) `Overflow`, `Capacity`,
    /// `Syntax`, `InvalidShape`.
    ///
    /// ```
    /// use cute::{complement, composition, Layout};
    /// let a: Layout = "(4,6,8):(2,3,5)".parse().unwrap();
    /// assert_eq!(composition(&a, &"6:3".parse().unwrap()).unwrap_err().category(), "Divisibility");
    /// let overlap: Layout = "(2,2):(1,1)".parse().unwrap();
    /// assert_eq!(complement(&overlap).unwrap_err().category(), "NotInjective");
    /// ```
    pub const fn category(&self) -> &'static str {
        match self.kind {
            ErrorKind::StrideDivisibility { .. }
            | ErrorKind::ShapeDivisibility { .. }
            | ErrorKind::Distributivity { .. }
            | ErrorKind::NoLayout { .. }
            | ErrorKind::Divisibility { .. }
            | ErrorKind::NotOnto { .. }
            | ErrorKind::NoCommonRefinement { .. }
            | ErrorKind::BinaryCarry { .. }
            | ErrorKind::BinaryOverlap { .. } => "Divisibility",
            ErrorKind::NotInjective { .. } | ErrorKind::Collision { .. } => "NotInjective",
            ErrorKind::OutOfRange { .. }
            | ErrorKind::WholeModeUnzip { .. }
            | ErrorKind::OutOfStorage { .. }
            | ErrorKind::NotInDomain { .. }
            | ErrorKind::NegativeOffset { .. } => "OutOfRange",
            ErrorKind::ProfileMismatch { .. }
            | ErrorKind::NotCongruent { .. }
            | ErrorKind::ContractSizes { .. } => "ProfileMismatch",
            ErrorKind::Unsupported { .. }
            | ErrorKind::ContractLetter { .. }
            | ErrorKind::MixedSemimodules { .. }
            | ErrorKind::NeedsIntegerStrides { .. } => "Unsupported",
            ErrorKind::InvalidShape { .. } => "InvalidShape",
            ErrorKind::Overflow { .. } => "Overflow",
            ErrorKind::Capacity { .. } => "Capacity",
            ErrorKind::Syntax { .. } => "Syntax",
            ErrorKind::InvalidSwizzle { .. } => "InvalidShape",
            ErrorKind::AccessWidth { .. } | ErrorKind::VectorAccess { .. } => "Unsupported",
        }
    }
}

impl Error {
    /// Panics with [`Error::message`]. In `const` context this is a compile error whose text is
    /// the message, e.g. `error[E0080]: evaluation panicked: composition (4,6,8):(2,3,5) ∘ 6:3:
    /// stride-divisibility condition (9) fails ...`.
    ///
    /// ```
    /// use cute::{composition, Layout};
    /// let a: Layout = "(4,6,8):(2,3,5)".parse().unwrap();
    /// let e = composition(&a, &"6:3".parse().unwrap()).unwrap_err();
    /// let p = std::panic::catch_unwind(|| e.panic()).unwrap_err();
    /// assert_eq!(p.downcast_ref::<String>().unwrap(), &e.to_string());
    /// ```
    pub const fn panic(&self) -> ! {
        let t = self.message();
        panic!("{}", t.as_str())
    }
}

/// The value of `r`, or a panic with the error's message: in `const` context, a compile error
/// that names the operation, the operands and the violated condition.
///
/// ```
/// use cute::{composition, layout, unwrap, Layout};
/// const R: Layout = unwrap(composition(&layout!("(8,8):(8,1)"), &layout!("((4,8),2):((16,1),8)")));
/// assert_eq!(R.to_string(), "((4,8),2):((2,8),1)");
/// ```
pub const fn unwrap<T: Copy>(r: Result<T, Error>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => e.panic(),
    }
}

impl std::error::Error for Error {}

/// `?` for `const fn`: unwraps an `Ok` or returns the `Err`.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}
pub(crate) use tri;

/// `?` for the `*_build` functions, which build a result in place (see
/// `algebra::coalesce::coalesce_into`) and report failure through `err: &mut Result<(), Error>`:
/// unwraps an `Ok`, or records the `Err` in `$err` and returns `$out` (then meaningless).
macro_rules! attempt {
    ($err:ident, $out:ident, $e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => {
                *$err = Err(e);
                return $out;
            }
        }
    };
}
pub(crate) use attempt;

/// Overflow-checked arithmetic for `const fn`, failing with [`ErrorKind::Overflow`].
pub(crate) const fn mul(op: Op, a: i64, b: i64) -> Result<i64, Error> {
    match a.checked_mul(b) {
        Some(v) => Ok(v),
        None => Err(Error::new(op, ErrorKind::Overflow { what: "a product" })),
    }
}

/// Overflow-checked addition for `const fn`.
pub(crate) const fn add(op: Op, a: i64, b: i64) -> Result<i64, Error> {
    match a.checked_add(b) {
        Some(v) => Ok(v),
        None => Err(Error::new(op, ErrorKind::Overflow { what: "a sum" })),
    }
}
