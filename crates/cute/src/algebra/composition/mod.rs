//! Composition `R = A ∘ B` (paper: 复合 “composition”), with every admissibility condition of the
//! paper.
//!
//! `R` is compatible with `B` (`B ⪯ R`) and `R(c) = A(B(c))` for every coordinate `c` of `B`. The
//! algorithm is the paper's: `A` is coalesced (keeping its extended-domain behaviour), each leaf
//! `s:d` of `B` is composed by the base case (8) under the stride-divisibility condition (9) and the
//! shape-divisibility condition (10), with the truncation that resolves "apparent violations", and
//! the results are distributed over `B`'s profile (11) when the distributivity condition (12)
//! holds: no carry between the modes of `A` when the leaves of `B` are added. These conditions are
//! sufficient only: where one fails, an exact decision (`exact.rs`, DESIGN.md "Composition decided
//! exactly") answers with the layout compatible with `B` that computes `A(B(i))` if there is one,
//! and otherwise refuses with a [`CompositionWitness`](crate::CompositionWitness) that anyone can check.
//!
//! | `A` | `B` | `A ∘ B` |
//! |---|---|---|
//! | `7:11` | `3:4` | `3:44` |
//! | `7:11` | `(3,5):(6,3)` | `(3,5):(66,33)` |
//! | `(4,6,8,10):(2,3,5,7)` | `6:12` | `(2,3):(9,5)` |
//! | `(4,2,8):(3,12,97)` | `3:3` | `3:9` (apparent violation) |
//! | `(4,6,8):(2,3,5)` | `6:3` | error: stride divisibility (9), and no layout exists |
//! | `(4,6,8):(2,3,5)` | `6:1` | error: shape divisibility (10), and no layout exists |
//! | `(4,4):(12,3)` | `4:6` | `(2,2):(27,9)` ((9) fails, decided exactly) |
//! | `(8,8):(8,1)` | `((4,8),2):((16,1),8)` | `((4,8),2):((2,8),1)` |
//! | `(8,16):(20,1)` | `<4:1,8:2>` | `(4,8):(20,2)` |
//!
//! ```
//! use cute::{composition, Layout};
//! let a: Layout = "(4,2,8):(3,12,97)".parse().unwrap();
//! let b: Layout = "3:3".parse().unwrap();
//! assert_eq!(composition(&a, &b).unwrap().to_string(), "3:9");
//!
//! let a: Layout = "(4,6,8):(2,3,5)".parse().unwrap();
//! let b: Layout = "6:3".parse().unwrap();
//! let err = composition(&a, &b).unwrap_err();
//! assert_eq!(err.category(), "Divisibility");
//! assert!(err.to_string().contains("stride 3 and prefix product 4 divide neither way"));
//! ```

mod base_case;
mod distributivity;
mod exact;
mod tiler;

pub(crate) use base_case::scaled;
use base_case::{BaseCase, Modes};
use distributivity::check_distributive;
pub use tiler::{composition_tiler, with_shape};

use super::coalesce::{coalesce_leaves, Flat};
use crate::error::{attempt, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::build::open_bracket;
use crate::int_tuple::CAPACITY;
use crate::layout::{Layout, BLANK};

/// `A ∘ B` for layouts (see the module docs).
///
/// `B` may have coordinate strides (a coordinate layout, the paper's `(4,8):(e0,e1)`): then each
/// leaf `s:v·e_p` of `B` selects within mode `p` of `A`, and the result is the composition of
/// `A_p` with the leaves of `B` on that axis, placed where those leaves are in `B`. So
/// `A ∘ (4,8):(1@0,1@1) = A ∘ <4,8>`.
///
/// The right operand is a layout. For a tiler — a by-mode tuple of tiles such as `<4:1,8:2>`, or
/// a [`Tiler`](crate::Tiler) from any source — call [`composition_tiler`]; the method [`Layout::compose`] takes
/// either (a `Layout`, a `&Layout`, a `Tiler` or a `&Tiler`). Both free functions are `const fn`,
/// which is why they take fixed types (a `const fn` cannot convert its arguments with `Into`):
///
/// ```
/// use cute::{composition, composition_tiler, Layout, Tiler};
/// let a: Layout = "(8,16):(20,1)".parse()?;
/// let b: Layout = "(4,2):(1,8)".parse()?;
/// let t: Tiler = "<4:1,8:2>".parse()?;
/// assert_eq!(composition(&a, &b)?.to_string(), "(4,2):(20,1)"); // layout ∘ layout
/// assert_eq!(composition_tiler(&a, &t)?.to_string(), "(4,8):(20,2)"); // layout ∘ tiler, by mode
/// assert_eq!(a.compose(&b)?, composition(&a, &b)?); // the method takes either
/// assert_eq!(a.compose(&t)?, composition_tiler(&a, &t)?);
/// # Ok::<(), cute::Error>(())
/// ```
///
/// # Errors
///
/// The paper's conditions, each naming the mode where it fails, where no layout compatible with
/// `B` computes `A ∘ B` (decided exactly, see [`CompositionWitness`](crate::CompositionWitness); a pair that fails the
/// conditions but has such a layout is answered): `StrideDivisibility` (9) and
/// `ShapeDivisibility` (10) carrying the witness, `NoLayout` where the check of (12) refused, and
/// `Distributivity` (12) or the conditions without a witness where the decision is not taken
/// (binary strides, past its bound); `BinaryCarry` or `BinaryOverlap` when binary (F2) strides would need a carry;
/// `Unsupported` or `NeedsIntegerStrides` for a mix of strides it does not compose; `Overflow`
/// (`i64`) and `Capacity` (a result with more leaves than a layout holds).
///
/// ```
/// use cute::{composition, Layout};
/// let a: Layout = "7:11".parse().unwrap();
/// let b: Layout = "(3,5):(6,3)".parse().unwrap();
/// assert_eq!(composition(&a, &b).unwrap().to_string(), "(3,5):(66,33)");
/// let a: Layout = "(4,6,8):(2,3,5)".parse().unwrap();
/// let e = composition(&a, &"6:1".parse().unwrap()).unwrap_err();
/// assert_eq!(e.to_string(), "composition (4,6,8):(2,3,5) ∘ 6:1: shape-divisibility condition (10) fails at mode 1 of the coalesced left operand: ⌈S\u{304}_1/d⌉ = 4 does not divide the shape 6; decided exactly, no layout compatible with the right operand computes A∘B: along leaf 0 of B, A(B(c)) at c = 1·u is a progression for u < 4 but not at u = 4, so every such layout has a mode boundary at c = 4, which does not divide the extent 6");
/// ```
pub const fn composition(a: &Layout, b: &Layout) -> Result<Layout, Error> {
    // `r` is the only value returned and is never borrowed, so it is the return place, and the
    // layout is built straight into it (see `compose_build`).
    let mut err = Ok(());
    let mut r = Ok(compose_build(a, b, &mut err));
    if let Err(e) = err {
        r = Err(e.or_with(Operand::Layout(*a), Operand::Layout(*b)));
    }
    r
}

/// `A ∘ B` for a right operand with coordinate strides (see [`composition`]): the leaves of `B`
/// on each axis `p` are composed together with `A_p` (so that their sum is checked against the
/// modes of `A_p`, the distributivity condition), and each leaf's result takes its place in `B`.
const fn compose_coordinate(a: &Layout, b: &Layout) -> Result<Layout, Error> {
    let n = b.tree.len();
    // the distinct axes, in order of first appearance, and each leaf's axis and rank on it
    let mut codes = [0 as crate::stride::Code; CAPACITY];
    let mut axis_of = [usize::MAX; CAPACITY];
    let mut rank_on = [0usize; CAPACITY];
    let mut count = [0usize; CAPACITY];
    let mut m = 0;
    let mut j = 0;
    while j < n {
        if b.stride[j] != 0 {
            let mut k = 0;
            while k < m && codes[k] != b.basis[j] {
                k += 1;
            }
            if k == m {
                codes[m] = b.basis[j];
                m += 1;
            }
            axis_of[j] = k;
            rank_on[j] = count[k];
            count[k] += 1;
        }
        j += 1;
    }
    let mut parts = [Layout::TRIVIAL; CAPACITY];
    let mut k = 0;
    while k < m {
        let (path, len) = crate::stride::decode_path(codes[k]);
        let ak = tri!(a.get(path.split_at(len).0));
        // the leaves on this axis, as a flat tuple (one mode per leaf)
        let mut f = super::coalesce::Flat::EMPTY;
        let mut j = 0;
        while j < n {
            if axis_of[j] == k {
                f.push(b.shape[j], b.stride[j]);
            }
            j += 1;
        }
        let mut bk = f.to_layout();
        if f.n == 1 {
            bk = tri!(Layout::concat(&[bk]));
        }
        parts[k] = tri!(compose(&ak, &bk));
        k += 1;
    }
    let mut out = crate::int_tuple::build::Builder::new();
    let mut j = 0;
    while j < n {
        let mut o = 0;
        while o < b.tree.open[j] {
            tri!(out.open(Op::Composition));
            o += 1;
        }
        let node = if axis_of[j] == usize::MAX {
            tri!(Layout::leaf(b.shape[j], 0))
        } else {
            tri!(parts[axis_of[j]].mode(rank_on[j]))
        };
        tri!(out.push_layout_node(Op::Composition, &node));
        let mut c = 0;
        while c < b.tree.close[j] {
            tri!(out.close(Op::Composition));
            c += 1;
        }
        j += 1;
    }
    out.finish_layout(Op::Composition)
}

const fn compose(a: &Layout, b: &Layout) -> Result<Layout, Error> {
    let mut err = Ok(());
    let mut r = Ok(compose_build(a, b, &mut err));
    if let Err(e) = err {
        r = Err(e);
    }
    r
}

/// Runs the base case for the leaf `s:d` (leaf `leaf` of `B`) and writes the modes it yields into
/// `out` from slot `on` on (counted past the capacity, but not written there); evaluates to the
/// walk's error, or `Ok(())`. A macro so that `out` is written through its fields, never borrowed
/// (see [`compose_build`]).
macro_rules! base_case_into {
    ($out:ident, $on:ident, $af:expr, $used:expr, $s:expr, $d:expr, $leaf:expr) => {
        match BaseCase::new($af, $s, $d, $leaf) {
            Ok(mut walk) => loop {
                match walk.next($af, $used) {
                    Ok(Some((s, (d, code)))) => {
                        if $on < CAPACITY {
                            $out.shape[$on] = s;
                            $out.stride[$on] = d;
                            $out.basis[$on] = code;
                        }
                        $on += 1;
                    }
                    Ok(None) => break Ok(()),
                    Err(e) => break Err(e),
                }
            },
            Err(e) => Err(e),
        }
    };
}

/// `A ∘ B`, or on failure the error in `err` (the layout returned is then meaningless). Each leaf
/// of `B` is composed by the base case ([`BaseCase`], whose modes are written into the result as
/// they come) and appended as one node (a leaf for one mode, a parenthesised flat tuple
/// otherwise), its brackets copied from `B`, with the checks of `Builder`. The result is written
/// only through the fields of `out`, never borrowed, so that it is built in the return place
/// instead of being copied there (a copy right after the writes costs more than the whole
/// composition). Fast paths: a one-leaf `A` ([`compose_leaf_a_build`]), and a one-leaf `B`,
/// which is the base case itself.
pub(crate) const fn compose_build(a: &Layout, b: &Layout, err: &mut Result<(), Error>) -> Layout {
    if !b.is_integral() {
        let r = match b.semimodule() {
            crate::stride::Semimodule::Coordinate => compose_coordinate(a, b),
            found => Err(Error::new(
                Op::Composition,
                ErrorKind::NeedsIntegerStrides { found },
            )),
        };
        return match r {
            Ok(l) => l,
            Err(e) => {
                *err = Err(e.or_with(Operand::Layout(*a), Operand::Layout(*b)));
                *a
            }
        };
    }
    if a.tree.len() == 1 {
        return compose_leaf_a_build(a.stride[0], a.basis[0], b, err);
    }
    let mut out = BLANK;
    // The coalesced A (extended-domain form): A itself when it is already coalesced.
    let coalesced: Flat;
    let af = match Modes::coalesced(a) {
        Some(m) => m,
        None => {
            coalesced = coalesce_leaves(a, true);
            Modes::of(&coalesced)
        }
    };
    let bn = b.tree.len();
    if bn > 1 && af.n > 1 {
        // (one leaf of B, or one mode of A, has no carry to check)
        if let Err(e) = check_distributive(&af, &b.shape, &b.stride, bn) {
            *err = Err(e);
            return refused(a, b, err);
        }
    }
    // per mode of coalesced A, the bits its offsets may take from the leaves of B so far (binary
    // strides only: there the leaves' contributions must not overlap, see `scaled`; the other
    // paths get an empty slice and no zeroing)
    let mut store: [u64; CAPACITY];
    let used: &mut [u64] = if af.binary {
        store = [0; CAPACITY];
        &mut store
    } else {
        &mut []
    };
    if b.tree.is_leaf() && af.integral {
        // `B = s:d`, one leaf: `A ∘ B` is the base case itself, a leaf or a flat tuple (of at most
        // `a.n` modes, so within the capacity)
        let mut c = 0;
        if let Err(e) = base_case_into!(out, c, &af, used, b.shape[0], b.stride[0], 0) {
            *err = Err(e);
            return refused(a, b, err);
        }
        if c > 1 {
            out.tree.open[0] = 1;
            out.tree.close[c - 1] = 1;
        }
        out.tree.n = c as u8;
        return out;
    }
    let mut n: usize = 0; // leaves written
    let mut pending: u8 = 0; // brackets opened before the next leaf
    let mut depth: usize = 0;
    let mut i = 0;
    while i < bn {
        let mut k = 0;
        while k < b.tree.open[i] {
            attempt!(
                err,
                out,
                open_bracket(Op::Composition, &mut pending, &mut depth)
            );
            k += 1;
        }
        // The modes of the leaf composed, written in place from slot `n` as the base case yields
        // them (counted past the capacity, which is checked once the leaf is complete, so that
        // its own errors come first). `out` is written only through its fields, see above.
        let mut on = n;
        let leaf = base_case_into!(out, on, &af, used, b.shape[i], b.stride[i], i);
        let mut c = on - n;
        if let Err(e) = leaf {
            // A size-1 leaf is the single point `A(0) = 0` whatever its stride: PyCuTe, the
            // reference for coordinate and binary strides, takes it as `1:A(d)` even where `d`
            // crosses a mode of `A` without dividing it; CuTe C++ refuses that for integers.
            if b.shape[i] == 1 && !af.integral {
                // the modes written before the error are dropped (slots past `n` stay zero)
                while on > n + 1 {
                    on -= 1;
                    if on < CAPACITY {
                        out.shape[on] = 0;
                        out.stride[on] = 0;
                        out.basis[on] = 0;
                    }
                }
                if n < CAPACITY {
                    out.shape[n] = 1;
                    out.stride[n] = 0;
                    out.basis[n] = 0;
                }
                c = 1;
            } else {
                *err = Err(e);
                return refused(a, b, err);
            }
        }
        // The leaf's result as one node: a leaf, or a parenthesised flat tuple.
        if c > 1 {
            attempt!(
                err,
                out,
                open_bracket(Op::Composition, &mut pending, &mut depth)
            );
        }
        if n + c > CAPACITY {
            *err = Err(Error::new(
                Op::Composition,
                ErrorKind::Capacity {
                    what: "number of leaves",
                    limit: CAPACITY,
                },
            ));
            return out;
        }
        out.tree.open[n] = pending;
        pending = 0;
        n += c;
        // Closing brackets: the node's own, then those of B's leaf (never empty: c ≥ 1).
        let closes = b.tree.close[i] + if c > 1 { 1 } else { 0 };
        out.tree.close[n - 1] = closes; // a new leaf: `=`, not `+=` (see `push_layout`)
        depth -= closes as usize;
        i += 1;
    }
    if depth != 0 || pending != 0 || n == 0 {
        *err = Err(Error::new(
            Op::Composition,
            ErrorKind::Unsupported {
                what: "empty or unbalanced tuples",
            },
        ));
        return out;
    }
    out.tree.n = n as u8;
    out
}

/// The admissible path of [`compose_build`] refused with the error in `err`: for integer layouts
/// whose refusal is one of the paper's sufficient conditions (9), (10), (12), the exact decision
/// ([`exact`](mod@exact)) answers with the layout (and clears `err`), or with a `NoLayout` error
/// and its witness, or leaves the error where it cannot decide. Out of line and reading the error
/// in place, so that the admissible path's frame is unchanged.
#[cold]
#[inline(never)]
const fn refused(a: &Layout, b: &Layout, err: &mut Result<(), Error>) -> Layout {
    let e = match err {
        Err(e) => e,
        Ok(()) => return BLANK,
    };
    let decidable = a.is_integral()
        && b.is_integral()
        && matches!(
            e.kind(),
            ErrorKind::StrideDivisibility { .. }
                | ErrorKind::ShapeDivisibility { .. }
                | ErrorKind::Distributivity { .. }
        );
    if !decidable {
        return BLANK;
    }
    match exact::decide(a, b) {
        exact::Decision::Layout(r) => {
            *err = Ok(());
            r
        }
        exact::Decision::No(w) => {
            // (9) and (10) do fail: the refusal keeps its condition and gains the witness; the
            // check of (12) is a bound that can see a carry where none happens, so its refusal is
            // replaced by the witness.
            match &mut e.kind {
                ErrorKind::StrideDivisibility { witness, .. }
                | ErrorKind::ShapeDivisibility { witness, .. } => *witness = Some(w),
                _ => *e = Error::new(Op::Composition, ErrorKind::NoLayout { witness: w }),
            }
            BLANK
        }
        exact::Decision::Undecided => BLANK,
    }
}

/// [`compose_build`] when `A` is one leaf `s_A:d_A` (so is its coalesced form, whose last mode is
/// unbounded): the base case (8) maps each leaf `s:d` of `B` to the single mode `s:(d·d_A)` (`s:0`
/// for `d = 0`), so `A ∘ B` is `B` with its strides multiplied by `d_A` (the distributivity
/// condition is empty: one mode has no boundary). `B`'s profile is valid, so only an overflowing
/// product can fail, in leaf order as in the general loop. The common case of the products and
/// divides, whose complements and modes are often one leaf.
const fn compose_leaf_a_build(
    da: i64,
    code: crate::stride::Code,
    b: &Layout,
    err: &mut Result<(), Error>,
) -> Layout {
    // (zeroed and written leaf by leaf: cheaper than copying all of `b`, whose arrays are mostly
    // empty)
    let mut out = BLANK;
    out.tree = b.tree;
    let mut used: u64 = 0;
    let mut i = 0;
    while i < b.tree.len() {
        out.shape[i] = b.shape[i];
        out.stride[i] = b.stride[i];
        out.basis[i] = b.basis[i];
        if b.stride[i] != 0 {
            let (v, c) = attempt!(
                err,
                out,
                scaled(
                    b.stride[i],
                    da,
                    code,
                    b.shape[i],
                    i,
                    core::slice::from_mut(&mut used),
                    0
                )
            );
            out.stride[i] = v;
            out.basis[i] = c;
        }
        i += 1;
    }
    out
}
