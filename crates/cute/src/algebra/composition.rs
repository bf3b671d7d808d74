//! Composition `R = A ∘ B` (paper: 复合 “composition”), with every admissibility condition of the
//! paper.
//!
//! `R` is compatible with `B` (`B ⪯ R`) and `R(c) = A(B(c))` for every coordinate `c` of `B`. The
//! algorithm is the paper's: `A` is coalesced (keeping its extended-domain behaviour), each leaf
//! `s:d` of `B` is composed by the base case (8) under the stride-divisibility condition (9) and the
//! shape-divisibility condition (10), with the truncation that resolves "apparent violations", and
//! the results are distributed over `B`'s profile (11) when the distributivity condition (12)
//! holds: no carry between the modes of `A` when the leaves of `B` are added.
//!
//! | `A` | `B` | `A ∘ B` |
//! |---|---|---|
//! | `7:11` | `3:4` | `3:44` |
//! | `7:11` | `(3,5):(6,3)` | `(3,5):(66,33)` |
//! | `(4,6,8,10):(2,3,5,7)` | `6:12` | `(2,3):(9,5)` |
//! | `(4,2,8):(3,12,97)` | `3:3` | `3:9` (apparent violation) |
//! | `(4,6,8):(2,3,5)` | `6:3` | error: stride divisibility (9) |
//! | `(4,6,8):(2,3,5)` | `6:1` | error: shape divisibility (10) |
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

use super::coalesce::{coalesce_leaves, Flat};
use crate::arith::{ceil_div, div_rem, gcd};
use crate::error::{attempt, mul, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::build::open_bracket;
use crate::int_tuple::{IntTuple, CAPACITY};
use crate::layout::push_layout;
use crate::layout::BLANK;
use crate::layout::{check_size, compact_col_major, mode_of_leaves, Layout};
use crate::stride::{merges, BINARY, INTEGER};
use crate::tiler::{mode_of_tiles, Tile, Tiler};

/// `A ∘ B` for layouts (see the module docs).
///
/// `B` may have coordinate strides (a coordinate layout, the paper's `(4,8):(e0,e1)`): then each
/// leaf `s:v·e_p` of `B` selects within mode `p` of `A`, and the result is the composition of
/// `A_p` with the leaves of `B` on that axis, placed where those leaves are in `B`. So
/// `A ∘ (4,8):(1@0,1@1) = A ∘ <4,8>`.
///
/// The right operand is a layout. For a tiler — a by-mode tuple of tiles such as `<4:1,8:2>`, or
/// a [`Tiler`] from any source — call [`composition_tiler`]; the method [`Layout::compose`] takes
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
/// The paper's conditions, each naming the mode where it fails: `StrideDivisibility` (9),
/// `ShapeDivisibility` (10), and `Distributivity` (12) for a right operand with coordinate
/// strides; `BinaryCarry` or `BinaryOverlap` when binary (F2) strides would need a carry;
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
/// assert_eq!(e.to_string(), "composition (4,6,8):(2,3,5) ∘ 6:1: shape-divisibility condition (10) fails at mode 1 of the coalesced left operand: ⌈S\u{304}_1/d⌉ = 4 does not divide the shape 6");
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
        attempt!(err, out, check_distributive(&af, &b.shape, &b.stride, bn));
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
            return out;
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
                return out;
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

/// `k · d` for the stride `d` (basis code `code`) of `A` scaled by the integer `k` read off the
/// right operand, for a result mode of extent `extent` (leaf `leaf` of the right operand): the
/// integer product, or for binary strides the carry-less one.
///
/// Over F2 the result adds what integer composition adds, so two conditions make it exact. Within
/// the leaf, `c·k` must have no carries for every `c < extent` (no two copies of `k` shifted by `t`
/// overlap for a `t` with `1 + 2^t < extent`). Across leaves, the offsets that different leaves of
/// `B` give one mode of `A` are added, so their bits must be disjoint: `used` holds the bits that
/// the earlier leaves may set in this mode of `A` (`k << t` for each `2^t < extent`), and an
/// overlap is refused. Both are exact: an overlapping bit is reached by some coordinate.
#[inline(always)]
pub(crate) const fn scaled(
    k: i64,
    d: i64,
    code: crate::stride::Code,
    extent: i64,
    leaf: usize,
    used: &mut [u64],
    slot: usize,
) -> Result<(i64, crate::stride::Code), Error> {
    if d == 0 || k == 0 {
        // the zero of F2 stays binary (`F0`), as in PyCuTe
        return Ok((0, if code == BINARY { code } else { 0 }));
    }
    if code == BINARY {
        return scaled_binary(k, d, extent, leaf, used, slot);
    }
    Ok((tri!(mul(Op::Composition, k, d)), code))
}

/// [`scaled`] for a binary stride `d` (nonzero, as `k`): the carry-less product, with the checks
/// that make it exact.
const fn scaled_binary(
    k: i64,
    d: i64,
    extent: i64,
    leaf: usize,
    used: &mut [u64],
    slot: usize,
) -> Result<(i64, crate::stride::Code), Error> {
    if k < 0 {
        return Err(Error::new(
            Op::Composition,
            ErrorKind::Unsupported {
                what: "a negative coordinate times a binary (F2) stride",
            },
        ));
    }
    let mut t = 1;
    while t < 62 && (1i64 << t) + 1 < extent {
        if k & (k << t) != 0 {
            return Err(Error::new(
                Op::Composition,
                ErrorKind::BinaryCarry {
                    mode: leaf,
                    scale: k,
                    extent,
                },
            ));
        }
        t += 1;
    }
    let v = tri!(crate::stride::ops::clmul(
        Op::Composition,
        d as u64,
        k as u64
    ));
    // the bits this leaf may set in the mode: `k << t` for every `2^t < extent`
    let mut span: u64 = 0;
    let mut t = 0;
    while t < 63 && (1i64 << t) < extent {
        span |= (k as u64) << t;
        t += 1;
    }
    if used[slot] & span != 0 {
        return Err(Error::new(
            Op::Composition,
            ErrorKind::BinaryOverlap {
                leaf,
                used: used[slot],
                span,
            },
        ));
    }
    used[slot] |= span;
    Ok((v as i64, BINARY))
}

/// The modes of a flat layout, borrowed (a [`Flat`], or the leaves of a layout), and what the
/// base case needs to know of their strides.
#[derive(Clone, Copy)]
struct Modes<'a> {
    n: usize,
    s: &'a [i64; CAPACITY],
    d: &'a [i64; CAPACITY],
    b: &'a [crate::stride::Code; CAPACITY],
    /// Every stride is an integer.
    integral: bool,
    /// Some stride is binary (F2).
    binary: bool,
}

impl<'a> Modes<'a> {
    const fn of(f: &'a Flat) -> Modes<'a> {
        let (mut integral, mut binary) = (true, false);
        let mut i = 0;
        while i < f.n {
            integral &= f.b[i] == INTEGER;
            binary |= f.b[i] == BINARY;
            i += 1;
        }
        Modes {
            n: f.n,
            s: &f.s,
            d: &f.d,
            b: &f.b,
            integral,
            binary,
        }
    }

    /// The leaves of `l` when they already are the result of coalescing with the last mode kept
    /// (`coalesce_leaves(l, true)`): no size-1 mode before the last, and no adjacent pair that
    /// merges. `None` otherwise.
    #[inline(always)]
    const fn coalesced(l: &'a Layout) -> Option<Modes<'a>> {
        let n = l.tree.len();
        // integer strides, the common case: one pass that reads only shapes and strides
        if l.is_integral() {
            let mut i = 0;
            while i + 1 < n {
                let (s, d) = (l.shape[i], l.stride[i]);
                if s == 1 || matches!(s.checked_mul(d), Some(x) if x == l.stride[i + 1]) {
                    return None;
                }
                i += 1;
            }
            return Some(Modes {
                n,
                s: &l.shape,
                d: &l.stride,
                b: &l.basis,
                integral: true,
                binary: false,
            });
        }
        let mut binary = false;
        let mut i = 0;
        while i < n {
            let code = l.basis[i];
            binary |= code == BINARY;
            if i + 1 < n
                && (l.shape[i] == 1
                    || merges(
                        l.shape[i],
                        l.stride[i],
                        code,
                        l.stride[i + 1],
                        l.basis[i + 1],
                    ))
            {
                return None;
            }
            i += 1;
        }
        Some(Modes {
            n,
            s: &l.shape,
            d: &l.stride,
            b: &l.basis,
            integral: false,
            binary,
        })
    }
}

/// One mode of a result: its shape, its stride and the stride's basis code.
type Mode = (i64, (i64, crate::stride::Code));

/// The base case (8), `A ∘ s:d`, for a coalesced, flat `A` whose last mode is unbounded: a walk
/// over the modes of `A` that yields the modes of the result one at a time (CuTe's printed form:
/// one mode, or several; at most `a.n`), so that the caller writes each straight where it belongs.
struct BaseCase {
    /// The leaf `s:d` of `B`, and its index among `B`'s leaves.
    s: i64,
    d: i64,
    leaf: usize,
    /// What is left to place: `rest_shape` points, `rest_stride` apart in units of mode `r`.
    rest_shape: i64,
    rest_stride: i64,
    /// The next mode of `A` to visit.
    r: usize,
    /// Whether a mode has been yielded.
    yielded: bool,
    /// Whether the walk is over.
    done: bool,
}

impl BaseCase {
    /// The walk for the leaf `s:d` (leaf `leaf` of `B`), refusing a negative stride where `A` has
    /// several modes.
    #[inline(always)]
    const fn new(a: &Modes, s: i64, d: i64, leaf: usize) -> Result<BaseCase, Error> {
        if d < 0 && s > 1 && a.n > 1 {
            return Err(Error::new(
                Op::Composition,
                ErrorKind::Unsupported {
                    what: "a negative stride on the right of a composition whose left operand has several modes",
                },
            ));
        }
        Ok(BaseCase {
            s,
            d,
            leaf,
            rest_shape: s,
            rest_stride: d,
            r: 0,
            yielded: false,
            done: false,
        })
    }

    /// The next mode of `A ∘ s:d`, `None` when there is none left, or the condition (9) or (10)
    /// that fails.
    #[inline(always)]
    const fn next(&mut self, a: &Modes, used: &mut [u64]) -> Result<Option<Mode>, Error> {
        if self.done {
            return Ok(None);
        }
        let (s, d, n) = (self.s, self.d, a.n);
        if d == 0 || n <= 1 {
            // one mode: `s:0`, or `s:(d·d_A)` for a one-mode `A`
            self.done = true;
            if d == 0 {
                return Ok(Some((s, (0, 0))));
            }
            let (da, code) = if n == 1 { (a.d[0], a.b[0]) } else { (0, 0) };
            return Ok(Some((s, tri!(scaled(d, da, code, s, self.leaf, used, 0)))));
        }
        while self.r + 1 < n {
            let r = self.r;
            self.r += 1;
            let cs = a.s[r];
            // Here `cs ≥ 1`, and `rest_shape > 1` implies `rest_stride > 0` (so `div_rem` applies).
            if self.rest_shape == 1 {
                // Nothing left to place (a size-1 leaf, or every point placed): only the stride is
                // walked on to the last mode. CuTe C++ and PyCuTe still refuse a stride that passes
                // a mode boundary without dividing it; after a placement the stride is 1 and always
                // passes (and stays 1).
                if self.rest_stride != 1 {
                    if self.rest_stride % cs != 0 && self.rest_stride > cs {
                        return Err(stride_divisibility(a, r, d));
                    }
                    self.rest_stride = ceil_div(self.rest_stride, cs);
                }
                continue;
            }
            if self.rest_stride >= cs {
                // The stride passes the mode: it must divide it out entirely (9).
                let (q, rem) = div_rem(self.rest_stride, cs);
                if rem != 0 {
                    return Err(stride_divisibility(a, r, d));
                }
                self.rest_stride = q;
                continue;
            }
            // The stride lies inside the mode: the points that fit in it are placed.
            let (next_shape, rem) = div_rem(cs, self.rest_stride);
            if rem == 0 {
                let new_shape = if next_shape < self.rest_shape {
                    next_shape
                } else {
                    self.rest_shape
                };
                let (rest_q, rest_r) = div_rem(self.rest_shape, new_shape);
                if rest_r != 0 {
                    // ⌈S̄_{r+1}/d⌉ = (s / rest_shape) · next_shape does not divide s.
                    return Err(shape_divisibility(r, s, self.rest_shape, next_shape));
                }
                let v = tri!(scaled(
                    self.rest_stride,
                    a.d[r],
                    a.b[r],
                    new_shape,
                    self.leaf,
                    used,
                    r
                ));
                self.rest_shape = rest_q;
                self.rest_stride = 1;
                self.yielded = true;
                return Ok(Some((new_shape, v)));
            }
            if (self.rest_shape - 1) as i128 * (self.rest_stride as i128) < cs as i128 {
                // Truncation: every remaining point lies inside this mode, the later modes do not
                // contribute, and the divisibility condition does not apply to them.
                let shape = self.rest_shape;
                let v = tri!(scaled(
                    self.rest_stride,
                    a.d[r],
                    a.b[r],
                    shape,
                    self.leaf,
                    used,
                    r
                ));
                self.rest_shape = 1;
                self.rest_stride = 1;
                self.yielded = true;
                return Ok(Some((shape, v)));
            }
            return Err(stride_divisibility(a, r, d));
        }
        // the last mode, unbounded: what is left, unless every point was placed before
        self.done = true;
        if self.yielded && self.rest_shape == 1 {
            return Ok(None);
        }
        let last = tri!(scaled(
            self.rest_stride,
            a.d[n - 1],
            a.b[n - 1],
            self.rest_shape,
            self.leaf,
            used,
            n - 1
        ));
        Ok(Some((self.rest_shape, last)))
    }
}

/// The stride-divisibility condition (9) failing for the stride `d` of `B` at mode `r + 1` of the
/// coalesced `A`. (Out of line, as every error of the base case: an `Error` carries two layouts,
/// and building one inline would enlarge the hot path's stack frame.)
#[cold]
#[inline(never)]
const fn stride_divisibility(a: &Modes, r: usize, d: i64) -> Error {
    Error::new(
        Op::Composition,
        ErrorKind::StrideDivisibility {
            mode: r + 1,
            stride: d,
            prefix: prefix_product(a, r + 1),
        },
    )
}

/// The shape-divisibility condition (10) failing for the leaf of size `s` at mode `r + 1`, with
/// `rest` points left and `next` the extent the mode leaves them: `⌈S̄_{r+1}/d⌉ =
/// (s / rest)·next` does not divide `s`.
#[cold]
#[inline(never)]
const fn shape_divisibility(r: usize, s: i64, rest: i64, next: i64) -> Error {
    Error::new(
        Op::Composition,
        ErrorKind::ShapeDivisibility {
            mode: r + 1,
            rest: s,
            divisor: (s / rest).saturating_mul(next),
        },
    )
}

/// `S̄_k`, the product of the first `k` mode shapes of `a` (saturating; only used in messages and
/// comparisons against values that fit).
const fn prefix_product(a: &Modes, k: usize) -> i64 {
    let mut p: i64 = 1;
    let mut i = 0;
    while i < k {
        p = p.saturating_mul(a.s[i]);
        i += 1;
    }
    p
}

/// The distributivity condition (12): adding the values of the leaves of `B` must not carry across a
/// mode boundary of `A` (the boundaries are the prefix products `S̄_r`, `r ≥ 1`, of the coalesced
/// `A`). For each boundary `P`, the largest residues `max_c (c·d_i mod P)` of the leaves must sum to
/// less than `P`.
const fn check_distributive(
    a: &Modes,
    bs: &[i64; CAPACITY],
    bd: &[i64; CAPACITY],
    bn: usize,
) -> Result<(), Error> {
    // Count the leaves of B that move at all.
    let mut moving = 0;
    let mut i = 0;
    while i < bn {
        if bs[i] > 1 && bd[i] != 0 {
            moving += 1;
        }
        i += 1;
    }
    if moving < 2 || a.n < 2 {
        return Ok(());
    }
    let mut p: i64 = 1;
    let mut r = 0;
    while r + 1 < a.n {
        p = match p.checked_mul(a.s[r]) {
            Some(x) => x,
            None => return Ok(()), // boundaries beyond i64 are never reached
        };
        let mut sum: i64 = 0;
        let mut i = 0;
        while i < bn {
            let (s, d) = (bs[i], bd[i]);
            if s > 1 && d != 0 {
                let m = max_residue(s, d, p);
                sum = match sum.checked_add(m) {
                    Some(x) => x,
                    None => i64::MAX,
                };
            }
            i += 1;
        }
        if sum >= p {
            return Err(Error::new(
                Op::Composition,
                ErrorKind::Distributivity {
                    mode: r + 1,
                    boundary: p,
                },
            ));
        }
        r += 1;
    }
    Ok(())
}

/// `max over 0 ≤ c < s of (c·d mod p)` for `d > 0` (an upper bound when `d` and `p` are not in a
/// divisibility relation and the progression wraps, which admissible leaves never do).
const fn max_residue(s: i64, d: i64, p: i64) -> i64 {
    let d = d.unsigned_abs() as i64;
    if d % p == 0 {
        return 0;
    }
    match (s - 1).checked_mul(d) {
        Some(m) if m < p => m,
        _ => p - gcd(d, p),
    }
}

/// `A ∘ T` for a tiler: a layout tile composes as a layout; a by-mode tiler composes mode `k` of `A`
/// with tile `k` (`_` keeps the mode, an integer `n` means `n:1`, a nested tiler recurses), and the
/// modes of `A` beyond the tiler's rank are dropped.
///
/// ```
/// use cute::{composition_tiler, Layout, Tiler};
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1,8:2>".parse().unwrap();
/// assert_eq!(composition_tiler(&a, &t).unwrap().to_string(), "(4,8):(20,2)");
/// let t: Tiler = "<4,8>".parse().unwrap();
/// assert_eq!(composition_tiler(&a, &t).unwrap().to_string(), "(4,8):(20,1)");
/// ```
///
/// A `const fn`, so it takes a `&Tiler` (pass a layout as `&Tiler::layout(b)`); the method
/// [`Layout::compose`] takes a `Layout`, a `&Layout`, a `Tiler` or a `&Tiler`. For two layouts,
/// [`composition`].
///
/// # Errors
///
/// As [`composition`] for each tile, and `ProfileMismatch` when the tiler has more modes than `A`.
pub const fn composition_tiler(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    // Built in the return place, as in `composition`.
    let mut err = Ok(());
    let mut r = Ok(compose_tiler_build(a, t, &mut err));
    if let Err(e) = err {
        r = Err(e.or_with(Operand::Layout(*a), Operand::None));
    }
    r
}

/// `A ∘ T` for a single tile `T`, or the error (with the operands `composition` records) in `err`:
/// `_` keeps `A`, an integer `n` is `n:1`.
const fn compose_tile_build(a: &Layout, tile: &Tile, err: &mut Result<(), Error>) -> Layout {
    match tile {
        Tile::Whole => *a,
        Tile::Int(n) => {
            let leaf = match Layout::leaf(*n, 1) {
                Ok(l) => l,
                Err(e) => {
                    *err = Err(e);
                    return *a;
                }
            };
            let out = compose_build(a, &leaf, err);
            if let Err(e) = *err {
                *err = Err(e.or_with(Operand::Layout(*a), Operand::Layout(leaf)));
            }
            out
        }
        Tile::Layout(l) => {
            let out = compose_build(a, l, err);
            if let Err(e) = *err {
                *err = Err(e.or_with(Operand::Layout(*a), Operand::Layout(*l)));
            }
            out
        }
    }
}

/// `A ∘ T` for a tiler, or the error in `err` (operands of the mode that failed attached). The
/// result (the concatenation of the modes' results) is written only through the fields of `out`,
/// as in [`compose_build`]; each mode of `A` is taken without a copy, and a single tile is used
/// without building the sub-tiler.
const fn compose_tiler_build(a: &Layout, t: &Tiler, err: &mut Result<(), Error>) -> Layout {
    if t.tree.is_leaf() {
        return compose_tile_build(a, &t.tiles[0], err);
    }
    let mut out = BLANK;
    let tr = t.rank();
    let ar = a.rank();
    if tr > ar {
        *err = Err(Error::new(
            Op::Composition,
            ErrorKind::ProfileMismatch {
                what: "the tiler has more modes than the layout",
                left: tr as i64,
                right: ar as i64,
            },
        ));
        return out;
    }
    let mut n: usize = 0; // leaves written
    let mut pending: u8 = 0; // brackets opened before the next leaf
    let mut depth: usize = 0;
    attempt!(
        err,
        out,
        open_bracket(Op::Composition, &mut pending, &mut depth)
    );
    // (the leaves of mode `k` of `a`, `[lo_a, hi_a)`, and the tiles of mode `k` of `t`,
    // `[lo_t, hi_t)`, found walking the modes in order)
    let (mut lo_a, mut lo_t) = (0, 0);
    let mut k = 0;
    while k < tr {
        let (hi_a, hi_t) = (a.tree.mode_end(lo_a), t.tree.mode_end(lo_t));
        let ak = mode_of_leaves(a, lo_a, hi_a);
        let tile = if t.tree.is_leaf_mode(lo_t, hi_t) {
            Some(lo_t)
        } else {
            None
        };
        match tile {
            // `composition_tiler(A_k, T_k)` for a single tile, without building the tiler `T_k`.
            Some(lo) => {
                if let Tile::Whole = t.tiles[lo] {
                    push_layout!(Op::Composition, out, err, n, pending, depth, &ak);
                } else {
                    let r = compose_tile_build(&ak, &t.tiles[lo], err);
                    if let Err(e) = *err {
                        *err = Err(e.or_with(Operand::Layout(ak), Operand::None));
                        return out;
                    }
                    push_layout!(Op::Composition, out, err, n, pending, depth, &r);
                }
            }
            None => {
                let tk = mode_of_tiles(t, lo_t, hi_t);
                let r = attempt!(err, out, composition_tiler(&ak, &tk));
                push_layout!(Op::Composition, out, err, n, pending, depth, &r);
            }
        }
        (lo_a, lo_t) = (hi_a, hi_t);
        k += 1;
    }
    // The closing bracket of the concatenation (never empty: every mode has a leaf).
    out.tree.close[n - 1] += 1;
    depth -= 1;
    if depth != 0 || pending != 0 {
        *err = Err(Error::new(
            Op::Composition,
            ErrorKind::Unsupported {
                what: "empty or unbalanced tuples",
            },
        ));
        return out;
    }
    out.tree.n = n as u8;
    // Each mode's result has its tile's size, and tiles reach past their mode of `A` (its last
    // mode is unbounded): the sizes multiply, and their product must fit.
    check_size!(Op::Composition, out, err, n);
    out
}

/// `A.with_shape(S) = A ∘ make_layout(S)`: `A` reshaped to the (compatible-size) shape `S`.
///
/// ```
/// use cute::{with_shape, Layout};
/// let a: Layout = "32:1".parse().unwrap();
/// assert_eq!(with_shape(&a, &"(4,8)".parse().unwrap()).unwrap().to_string(), "(4,8):(1,4)");
/// let a: Layout = "(4,8):(8,1)".parse().unwrap();
/// let r = with_shape(&a, &"(8,4)".parse().unwrap()).unwrap();
/// assert_eq!(r.to_string(), "((4,2),4):((8,1),2)");
/// ```
///
/// # Errors
///
/// `InvalidShape` for an entry of `S` below 1, `Overflow` when its size does not fit in `i64`, and
/// every error of [`composition`] of `A` with the compact column-major layout of `S` (a shape whose
/// modes do not divide those of `A` fails the shape-divisibility condition (10)).
pub const fn with_shape(a: &Layout, shape: &IntTuple) -> Result<Layout, Error> {
    let b = match compact_col_major(shape) {
        Ok(b) => b,
        Err(e) => {
            return Err(e
                .retag(Op::WithShape)
                .or_with(Operand::Layout(*a), Operand::Tuple(*shape)))
        }
    };
    match compose(a, &b) {
        Ok(r) => Ok(r),
        Err(e) => Err(e
            .retag(Op::WithShape)
            .or_with(Operand::Layout(*a), Operand::Tuple(*shape))),
    }
}
