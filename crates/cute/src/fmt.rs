//! Printing in CuTe notation (`Display`) and parsing (`FromStr`); the two round-trip.
//!
//! Every printed form of the crate is written here, by `const fn`s into a [`Text`]: tuples,
//! layouts, tilers, partial coordinates, strides and values, swizzles and composed layouts, and the
//! one-line message of an [`Error`] ([`Error::message`] and its `Display`). The
//! types are defined below this module; their printing is implemented here, above the parser
//! that `FromStr` calls.
//!
//! | value | printed |
//! |---|---|
//! | integer layout | `12:1` |
//! | rank-1 tuple layout | `(8):(1)` |
//! | hierarchical layout | `((2,2),(4,2)):((1,8),(2,16))` |
//! | tiler | `<4:1,8:2>`, `<2,_>` |
//!
//! ```
//! use cute::{Layout, Tiler};
//! for text in ["12:1", "(8):(1)", "((2,2),(4,2)):((1,8),(2,16))"] {
//!     let l: Layout = text.parse().unwrap();
//!     assert_eq!(l.to_string(), text);
//! }
//! let l: Layout = " ( 4 , 8 ) : ( 1 , 4 ) ".parse().unwrap();
//! assert_eq!(l.to_string(), "(4,8):(1,4)");
//! let t: Tiler = "<4:1, _, 3>".parse().unwrap();
//! assert_eq!(t.to_string(), "<4:1,_,3>");
//! ```

use crate::error::{Error, ErrorKind, Operand, Step};
use crate::int_tuple::{IntTuple, Tree, CAPACITY};
use crate::layout::Layout;
use crate::slice::PartialCoord;
use crate::stride::{
    decode_path, path_head, path_tail, ArithTuple, Code, Stride, Value, BINARY, INTEGER,
};
use crate::swizzle::{ComposedLayout, Swizzle};
use crate::text::Text;
use crate::tiler::{Tile, Tiler};
use core::fmt;
use core::str::FromStr;

/// What the leaves of a tree are, for [`push_tree`].
#[derive(Clone, Copy)]
enum Leaves<'a> {
    Ints(&'a [i64; CAPACITY]),
    Strides(&'a Layout),
    Tiles(&'a Tiler),
    Partial(&'a PartialCoord),
}

/// Writes the leaves with the nesting `tree`, brackets `lb`/`rb`, commas between leaves.
const fn push_tree(t: &mut Text, tree: &Tree, lb: &str, rb: &str, leaves: Leaves<'_>) {
    let mut i = 0;
    while i < tree.len() {
        if i > 0 {
            t.push_str(",");
        }
        let mut k = 0;
        while k < tree.open[i] {
            t.push_str(lb);
            k += 1;
        }
        match leaves {
            Leaves::Ints(v) => t.push_i64(v[i]),
            Leaves::Strides(l) => push_stride(t, l.stride[i], l.basis[i]),
            Leaves::Tiles(x) => push_tile(t, &x.tiles[i]),
            Leaves::Partial(c) => {
                if (c.free >> i) & 1 == 1 {
                    t.push_str("_");
                } else {
                    t.push_i64(c.tuple.val[i]);
                }
            }
        }
        let mut k = 0;
        while k < tree.close[i] {
            t.push_str(rb);
            k += 1;
        }
        i += 1;
    }
}

/// Writes a hierarchical tuple: `(2,(4,1),-1)`.
pub(crate) const fn push_int_tuple(t: &mut Text, x: &IntTuple) {
    push_tree(t, &x.tree, "(", ")", Leaves::Ints(&x.val));
}

/// Writes a layout: `((2,2),(4,2)):((1,8),(2,16))`.
pub(crate) const fn push_layout(t: &mut Text, l: &Layout) {
    push_tree(t, &l.tree, "(", ")", Leaves::Ints(&l.shape));
    t.push_str(":");
    push_tree(t, &l.tree, "(", ")", Leaves::Strides(l));
}

const fn push_tile(t: &mut Text, x: &Tile) {
    match x {
        Tile::Whole => t.push_str("_"),
        Tile::Int(n) => t.push_i64(*n),
        Tile::Layout(l) => push_layout(t, l),
    }
}

/// Writes a tiler: `<4:1,8:2>`, `<2,_>`.
pub(crate) const fn push_tiler(t: &mut Text, x: &Tiler) {
    push_tree(t, &x.tree, "<", ">", Leaves::Tiles(x));
}

/// Writes a partial coordinate: `(2,_)`, `((_,1),_)`.
pub(crate) const fn push_partial(t: &mut Text, c: &PartialCoord) {
    push_tree(t, &c.tuple.tree, "(", ")", Leaves::Partial(c));
}

impl IntTuple {
    /// The printed form (`Display`), built in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, IntTuple, Text};
    /// const S: IntTuple = unwrap(IntTuple::parse_const("((2,2),(4,2))"));
    /// const T: Text = S.text();
    /// assert_eq!(T.as_str(), "((2,2),(4,2))");
    /// ```
    pub const fn text(&self) -> Text {
        let mut t = Text::new();
        push_int_tuple(&mut t, self);
        t
    }
}

impl Layout {
    /// The printed form (`Display`), built in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, Layout, Text};
    /// const L: Layout = unwrap(Layout::flat(&[4, 8], &[8, 1]));
    /// const T: Text = L.text();
    /// assert_eq!(T.as_str(), "(4,8):(8,1)");
    /// ```
    pub const fn text(&self) -> Text {
        let mut t = Text::new();
        push_layout(&mut t, self);
        t
    }
}

impl Tiler {
    /// The printed form (`Display`), built in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, Text, Tiler};
    /// const TL: Tiler = unwrap(Tiler::parse_const("<4:1,_>"));
    /// const T: Text = TL.text();
    /// assert_eq!(T.as_str(), "<4:1,_>");
    /// ```
    pub const fn text(&self) -> Text {
        let mut t = Text::new();
        push_tiler(&mut t, self);
        t
    }
}

/// `Display` through the `const` writer.
macro_rules! display_via_text {
    ($($ty:ty => $push:path),* $(,)?) => {$(
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut t = Text::new();
                $push(&mut t, self);
                f.write_str(t.as_str())
            }
        }
    )*};
}
display_via_text!(
    IntTuple => push_int_tuple,
    Layout => push_layout,
    Tiler => push_tiler,
    Tile => push_tile,
    PartialCoord => push_partial,
);

impl FromStr for IntTuple {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        crate::parse::int_tuple(s.as_bytes())
    }
}

impl FromStr for Layout {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        crate::parse::layout(s.as_bytes())
    }
}

impl FromStr for Tiler {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        crate::parse::tiler(s.as_bytes())
    }
}

/// `Debug` prints the CuTe notation too, so that test failures read like the paper.
macro_rules! debug_as_display {
    ($($t:ty),*) => {$(
        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!(stringify!($t), "({})"), self)
            }
        }
    )*};
}
debug_as_display!(IntTuple, Layout, Tiler);

// Errors: the one-line message of an `Error`, written by the same `const` writer.

impl Operand {
    /// Writes the operand as it is printed, in `const` context.
    pub(crate) const fn push(&self, t: &mut Text) {
        match self {
            Operand::None => {}
            Operand::Layout(l) => push_layout(t, l),
            Operand::Tuple(x) => push_int_tuple(t, x),
            Operand::Int(i) => t.push_i64(*i),
            Operand::Composed(c) => c.push(t),
            Operand::Coord(c) => push_partial(t, c),
        }
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut t = Text::new();
        self.push(&mut t);
        f.write_str(t.as_str())
    }
}

impl Error {
    /// The one-line message (the `Display` form), built in `const` context: the operation, the
    /// operands and the violated condition.
    ///
    /// ```
    /// use cute::{composition, unwrap, Error, Layout, Text};
    /// const A: Layout = unwrap(Layout::parse_const("(4,6,8):(2,3,5)"));
    /// const B: Layout = unwrap(Layout::parse_const("6:3"));
    /// const E: Error = match composition(&A, &B) {
    ///     Ok(_) => panic!("admissible"),
    ///     Err(e) => e,
    /// };
    /// const M: Text = E.message();
    /// assert_eq!(M.as_str(), E.to_string());
    /// ```
    pub const fn message(&self) -> Text {
        let mut t = Text::new();
        self.push(&mut t);
        t
    }

    const fn push(&self, t: &mut Text) {
        t.push_str(self.op.name());
        let path = self.mode.indices();
        if !path.is_empty() {
            t.push_str(" at mode ");
            if path.len() > 1 || self.mode.deeper() {
                t.push_str("(");
            }
            let mut i = 0;
            while i < path.len() {
                if i > 0 {
                    t.push_str(",");
                }
                t.push_u64(path[i] as u64);
                i += 1;
            }
            if self.mode.deeper() {
                t.push_str(",…");
            }
            if path.len() > 1 || self.mode.deeper() {
                t.push_str(")");
            }
            if !matches!(self.lhs, Operand::None) {
                t.push_str(":");
            }
        }
        match (&self.lhs, &self.rhs, self.op.symbol()) {
            (Operand::None, _, _) => {}
            (l, Operand::None, _) => {
                t.push_str(" ");
                l.push(t);
            }
            (l, r, Some(sym)) => {
                t.push_str(" ");
                l.push(t);
                t.push_str(" ");
                t.push_str(sym);
                t.push_str(" ");
                r.push(t);
            }
            (l, r, None) => {
                t.push_str(" ");
                l.push(t);
                t.push_str(", ");
                r.push(t);
            }
        }
        t.push_str(": ");
        let names = Names::of(self.step);
        match self.step {
            Step::Whole => {}
            Step::ProductComplement => t.push_str("in A* = complement(A): "),
            Step::ProductGrid => t.push_str("in the second mode A* ∘ B, A* = complement(A): "),
            Step::DivideComplement(n) => {
                t.push_str("in B*, the complement of B onto Z_");
                t.push_i64(n);
                t.push_str(": ");
            }
            Step::DivideCompose => t.push_str("in A ∘ B★, B★ = (B, B*): "),
        }
        self.kind.push(t, &names);
    }
}

/// The names an error's condition uses for the operands of the step that failed (see [`Step`]):
/// `A ∘ B` itself, or `A* ∘ B` in a product, `A ∘ B★` in a divide.
struct Names {
    /// The left operand of the composition, in `A(B(c))`.
    a: &'static str,
    /// The right operand of the composition.
    b: &'static str,
    /// The left operand in words, after `the coalesced`.
    left: &'static str,
    /// The left operand in words.
    left_whole: &'static str,
    /// The right operand in words.
    right: &'static str,
    /// The layout that must be injective.
    subject: &'static str,
}

impl Names {
    const fn of(step: Step) -> Names {
        let mut n = Names {
            a: "A",
            b: "B",
            left: "left operand",
            left_whole: "the left operand",
            right: "the right operand",
            subject: "the layout",
        };
        match step {
            Step::Whole => {}
            Step::ProductComplement => n.subject = "A",
            Step::ProductGrid => {
                (n.a, n.left, n.left_whole, n.right) = ("A*", "A*", "A*", "B");
            }
            Step::DivideComplement(_) => n.subject = "B",
            Step::DivideCompose => {
                (n.b, n.left, n.left_whole, n.right) = ("B★", "A", "A", "B★");
            }
        }
        n
    }
}

/// Appends the pieces in order: string literals and `i64`/`u64`/`usize` values (`{}`), or binary
/// values (`bin(x)`).
macro_rules! put {
    ($t:ident; $($piece:tt)*) => {{ put!(@ $t; $($piece)*) }};
    (@ $t:ident;) => {{}};
    (@ $t:ident; bin($e:expr) $(, $($rest:tt)*)?) => {{
        $t.push_bin($e);
        put!(@ $t; $($($rest)*)?)
    }};
    (@ $t:ident; $s:literal $(, $($rest:tt)*)?) => {{
        $t.push_str($s);
        put!(@ $t; $($($rest)*)?)
    }};
    (@ $t:ident; str($e:expr) $(, $($rest:tt)*)?) => {{
        $t.push_str($e);
        put!(@ $t; $($($rest)*)?)
    }};
    (@ $t:ident; $e:expr $(, $($rest:tt)*)?) => {{
        $t.push_i64($e as i64);
        put!(@ $t; $($($rest)*)?)
    }};
}

/// The name of a `contract` term: `A`, `B` or `C` (the output).
const fn term_name(term: u8) -> &'static str {
    match term {
        0 => "A",
        1 => "B",
        _ => "C (the output)",
    }
}

/// The exact decision's verdict after a failed condition (9) or (10), where it was taken.
const fn push_decided(t: &mut Text, witness: Option<crate::CompositionWitness>, n: &Names) {
    if let Some(w) = witness {
        put!(t; "; decided exactly, no layout compatible with ", str(n.right), " computes ",
            str(n.a), "∘", str(n.b), ": ");
        push_witness(t, &w, n);
    }
}

/// Why no layout compatible with `B` computes `A ∘ B`, in words (see
/// [`CompositionWitness`](crate::CompositionWitness)).
const fn push_witness(t: &mut Text, w: &crate::CompositionWitness, n: &Names) {
    let (a, b) = (n.a, n.b);
    match *w {
        crate::CompositionWitness::Boundary {
            leaf,
            step,
            run,
            extent,
        } => put!(t;
            "along leaf ", leaf, " of ", str(b), ", ", str(a), "(", str(b), "(c)) at c = ", step,
            "·u is a progression for u < ", run, " but not at u = ", run,
            ", so every such layout has a mode boundary at c = ", step.saturating_mul(run),
            ", which does not divide the extent ", extent),
        crate::CompositionWitness::Carry {
            leaf,
            step,
            low,
            high,
        } => put!(t;
            "along leaf ", leaf, " of ", str(b), ", every such layout has a mode boundary at c = ",
            step, ", so ", str(a), "(", str(b), "(c)) at c = ", low, " and c = ", high,
            " would add up to its value at c = ", low.saturating_add(high), ", and they do not"),
        crate::CompositionWitness::Sum { index, value, sum } => put!(t;
            "each leaf of ", str(b), " alone gives a layout, but at index ", index, " ", str(a), "(",
            str(b), "(i)) = ", value,
            " while the values at its leaf coordinates taken one at a time add up to ", sum,
            " (every layout compatible with ", str(b), " adds them)"),
    }
}

impl ErrorKind {
    /// Writes the violated condition, in `const` context, naming the operands as `n` says.
    const fn push(&self, t: &mut Text, n: &Names) {
        match *self {
            ErrorKind::StrideDivisibility {
                mode,
                stride,
                prefix,
                witness,
            } => {
                put!(t;
                    "stride-divisibility condition (9) fails at mode ", mode,
                    " of the coalesced ", str(n.left), ": stride ", stride, " and prefix product ",
                    prefix, " divide neither way");
                push_decided(t, witness, n);
            }
            ErrorKind::ShapeDivisibility {
                mode,
                rest,
                divisor,
                witness,
            } => {
                put!(t;
                    "shape-divisibility condition (10) fails at mode ", mode,
                    " of the coalesced ", str(n.left), ": ⌈S̄_", mode, "/d⌉ = ", divisor,
                    " does not divide the shape ", rest);
                push_decided(t, witness, n);
            }
            ErrorKind::Distributivity { mode, boundary } => put!(t;
                "distributivity condition (12) fails at mode ", mode,
                " of the coalesced ", str(n.left), ": the leaves of ", str(n.right),
                " add up past the prefix product ", boundary, " (a carry), so ", str(n.a), "∘",
                str(n.b), " is not their by-mode composition"),
            ErrorKind::NoLayout { witness } => {
                put!(t; "no layout compatible with ", str(n.right), " computes ", str(n.a), "∘",
                    str(n.b), " (decided exactly, where the distributivity check (12) refuses): ");
                push_witness(t, &witness, n);
            }
            ErrorKind::Divisibility {
                mode,
                value,
                divisor,
                what,
            } => put!(t;
                str(what), " at mode ", mode, ": ", divisor, " does not divide ", value),
            ErrorKind::NotOnto { missing, size } => put!(t;
                "(B, B*) is not onto Z_", size, " as the divide requires: no coordinate reaches the offset ",
                missing),
            ErrorKind::NoCommonRefinement { common, size } => put!(t;
                "the coalesced shapes have no common refinement: their greatest common domain has size ",
                common, ", not ", size),
            ErrorKind::NotInjective { stride, covered } => put!(t;
                str(n.subject), " is not injective: stride ", stride,
                " falls inside the extent ", covered, " already covered by the smaller strides"),
            ErrorKind::Collision { first, second } => put!(t;
                str(n.subject), " is not injective: indices ", first, " and ", second,
                " reach the same offset"),
            ErrorKind::OutOfRange { index, rank } => put!(t;
                "mode index ", index, " is out of range for rank ", rank),
            ErrorKind::WholeModeUnzip { size } => put!(t;
                "a `_` of the tiler keeps a mode of size ", size,
                " whole, and an integer mode has no tile and rest to unzip (give that mode a tile, e.g. ",
                size, ":1)"),
            ErrorKind::ProfileMismatch { what, left, right } => put!(t;
                str(what), " (", left, " vs ", right, ")"),
            ErrorKind::Unsupported { what } => put!(t; "unsupported: ", str(what)),
            ErrorKind::MixedSemimodules { left, right } => put!(t;
                "strides of different semimodules cannot meet in one layout: ", str(left.name()),
                " and ", str(right.name())),
            ErrorKind::NeedsIntegerStrides { found } => put!(t;
                "this operation is defined for integer strides, and the layout has ",
                str(found.name()), " strides"),
            ErrorKind::BinaryCarry {
                mode,
                scale,
                extent,
            } => put!(t;
                "binary (F2) strides at leaf ", mode, " of ", str(n.right), ": c·", scale,
                " carries for some c < ", extent,
                ", so the carry-less scaling of the composed stride differs from ", str(n.a), "(",
                str(n.b), "(c))"),
            ErrorKind::BinaryOverlap { leaf, used, span } => put!(t;
                "binary (F2) strides: leaf ", leaf, " of ", str(n.right), " adds offsets with bits ",
                bin(span), " in a mode of ", str(n.left_whole), " where earlier leaves add bits ",
                bin(used),
                "; the integer sum carries, so the XOR of the composed strides differs from ",
                str(n.a), "(", str(n.b), "(c))"),
            ErrorKind::NotInDomain { coord, size } => put!(t;
                "coordinate ", coord, " is outside the domain Z_", size),
            ErrorKind::ContractLetter {
                letter,
                term,
                position,
                what,
            } => {
                t.push_str("unsupported: letter '");
                t.push_ascii(letter);
                put!(t; "' at position ", position, " of term ", str(term_name(term)), ": ", str(what))
            }
            ErrorKind::ContractSizes {
                letter,
                term,
                size,
                other_term,
                other_size,
            } => {
                t.push_str("letter '");
                t.push_ascii(letter);
                put!(t; "' names a mode of size ", size, " in ", str(term_name(term)),
                    " and a mode of size ", other_size, " in ", str(term_name(other_term)))
            }
            ErrorKind::NegativeOffset { index, offset } => put!(t;
                "index ", index, " goes to the negative offset ", offset,
                ", outside the domain Z_n of every layout"),
            ErrorKind::OutOfStorage { first, last, len } => put!(t;
                "the layout reaches storage indices ", first, " to ", last,
                ", outside a storage of ", len, " elements"),
            ErrorKind::InvalidShape { value } => put!(t;
                "shape entries must be positive integers, found ", value),
            ErrorKind::NotCongruent { at } => {
                put!(t; "shape and stride are not congruent (S ~ D fails)");
                if let Some((pos, what)) = at {
                    put!(t; ": at byte ", pos, ", ", str(what));
                }
            }
            ErrorKind::Overflow { what } => put!(t;
                "integer overflow: ", str(what), " does not fit in i64"),
            ErrorKind::Capacity { what, limit } => put!(t;
                "capacity exceeded: ", str(what), " (this build supports at most ", limit, ")"),
            ErrorKind::Syntax { pos, expected } => put!(t;
                "at byte ", pos, ": expected ", str(expected)),
            ErrorKind::InvalidSwizzle { b, m, s } => put!(t;
                "Sw<", b, ",", m, ",", s,
                "> is not a swizzle: B and M must be non-negative, |S| at least B, and B+M+|S| at most 63"),
            ErrorKind::AccessWidth { elem_bytes, vector } => {
                if elem_bytes <= 0 || vector <= 0 {
                    put!(t;
                        "the element size B = ", elem_bytes, " bytes and the vector length V = ",
                        vector, " must be positive")
                } else if let Some(w) = elem_bytes.checked_mul(vector) {
                    put!(t;
                        "the access width V·B = ", vector, "·", elem_bytes, " = ", w,
                        " bytes must be 4, 8 or 16 bytes")
                } else {
                    put!(t;
                        "the access width V·B = ", vector, "·", elem_bytes,
                        " bytes overflows i64; it must be 4, 8 or 16 bytes")
                }
            }
            ErrorKind::VectorAccess {
                thread,
                instruction,
                value,
                what,
            } => put!(t;
                "thread ", thread, ", instruction ", instruction, ": ", str(what), " (", value, ")"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message().as_str())
    }
}

// Strides and values.

/// Writes a stride leaf as CuTe prints it: `0`, `5`, `F9` (binary), `3@1@0` (coordinate basis).
pub(crate) const fn push_stride(t: &mut Text, value: i64, code: Code) {
    if value == 0 && code != BINARY {
        t.push_str("0");
    } else if code == INTEGER {
        t.push_i64(value);
    } else if code == BINARY {
        t.push_str("F");
        t.push_i64(value);
    } else {
        push_basis(t, value, code);
    }
}

/// `v@p_k@…@p_1`: the coefficient and the path of a coordinate basis, innermost first.
const fn push_basis(t: &mut Text, value: i64, code: Code) {
    let (p, n) = decode_path(code);
    t.push_i64(value);
    let mut j = n;
    while j > 0 {
        j -= 1;
        t.push_str("@");
        t.push_u64(p[j] as u64);
    }
}

fn write_basis(f: &mut fmt::Formatter<'_>, value: i64, code: Code) -> fmt::Result {
    let mut t = Text::new();
    push_basis(&mut t, value, code);
    f.write_str(t.as_str())
}

impl fmt::Display for Stride {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut t = Text::new();
        push_stride(&mut t, self.value, self.code);
        f.write_str(t.as_str())
    }
}

impl fmt::Debug for Stride {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Stride({self})")
    }
}

/// Prints a value of `Z^S` as the conformance grammar does: `0` when every coefficient is zero,
/// `v@p_k@…@p_1` for a single nonzero term, and otherwise the plain tuple of its coordinates
/// (PyCuTe's `as_tuple`), nested positions as nested tuples and absent ones as `0`:
/// `17·e_1 + 4·e_(2,0)` prints `(0,17,(4))`.
fn write_terms(f: &mut fmt::Formatter<'_>, terms: &[(i64, Code)]) -> fmt::Result {
    let nonzero: Vec<&(i64, Code)> = terms.iter().filter(|t| t.0 != 0).collect();
    match nonzero.as_slice() {
        [] => f.write_str("0"),
        [(v, code)] if *code > 0 => write_basis(f, *v, *code),
        [(v, _)] => write!(f, "{v}"),
        _ => write_coords(f, terms),
    }
}

/// The coordinates of the terms (codes relative to the current position, all nonzero) as a tuple.
fn write_coords(f: &mut fmt::Formatter<'_>, terms: &[(i64, Code)]) -> fmt::Result {
    let top = terms.iter().map(|&(_, c)| path_head(c)).max().unwrap_or(0);
    f.write_str("(")?;
    for j in 0..=top {
        if j > 0 {
            f.write_str(",")?;
        }
        let sub: Vec<(i64, Code)> = terms
            .iter()
            .filter(|&&(_, c)| path_head(c) == j)
            .map(|&(v, c)| (v, path_tail(c)))
            .collect();
        match sub.as_slice() {
            [] => f.write_str("0")?,
            [(v, 0)] => write!(f, "{v}")?,
            s => write_coords(f, s)?,
        }
    }
    f.write_str(")")
}

impl fmt::Display for ArithTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let terms: Vec<(i64, Code)> = (0..self.n as usize)
            .map(|i| (self.val[i], self.code[i]))
            .collect();
        write_terms(f, &terms)
    }
}

impl fmt::Debug for ArithTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ArithTuple({self})")
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::F2(v) => write!(f, "F{v}"),
            Value::Coord(t) => write!(f, "{t}"),
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Value({self})")
    }
}

// Swizzles and composed layouts.

impl Swizzle {
    /// Writes `Sw<B,M,S>` (the `Display` form) in `const` context.
    pub(crate) const fn push(&self, t: &mut Text) {
        t.push_str("Sw<");
        t.push_i64(self.b as i64);
        t.push_str(",");
        t.push_i64(self.m as i64);
        t.push_str(",");
        t.push_i64(self.s as i64);
        t.push_str(">");
    }
}

impl ComposedLayout {
    /// Writes `Sw<B,M,S> o offset o layout` (the `Display` form) in `const` context.
    pub(crate) const fn push(&self, t: &mut Text) {
        self.swizzle.push(t);
        t.push_str(" o ");
        t.push_i64(self.offset);
        t.push_str(" o ");
        push_layout(t, &self.layout);
    }
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut t = Text::new();
        self.push(&mut t);
        f.write_str(t.as_str())
    }
}

impl fmt::Display for ComposedLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut t = Text::new();
        self.push(&mut t);
        f.write_str(t.as_str())
    }
}
