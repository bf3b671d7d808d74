//! Composition decided exactly, for integer layouts where the paper's sufficient conditions (9),
//! (10) or (12) refuse: is there a layout `R` compatible with `B` (each leaf of `B` split into an
//! ordered factorisation of its extent) with `R(i) = A(B(i))` for every `i < size(B)`? The answer
//! is `R`, or a [`CompositionWitness`] that anyone can check by evaluating `A(B(·))` at the
//! indices it names. DESIGN.md ("Composition decided exactly") gives the argument.
//!
//! * **Leaves.** A layout compatible with `B` is the sum of one layout `R_j` per leaf `s_j:d_j`
//!   of `B`, and `R_j(c) = R(c·e_j)` (the other coordinates 0), so `R_j` must be the function
//!   `g_j(c) = A(c·d_j)` on `[0, s_j)`. A function on `[0, s)` is a layout of some factorisation of
//!   `s` exactly when it is one of its unique coalesced factorisation, found greedily: the first
//!   mode ends at the first `t` where `g(t) ≠ t·g(1)`, then the same on `u ↦ g(t·u)`, and so on
//!   (for a coalesced layout these are its mode boundaries, because adjacent modes do not merge).
//!   So the boundaries `Q_1 | Q_2 | …` are forced: a boundary that does not divide `s`, or a point
//!   `x < Q_m`, `y` a multiple of `Q_m`, with `g(x + y) ≠ g(x) + g(y)`, proves that no `R_j`
//!   exists.
//! * **Across leaves.** With every `g_j` a layout, `R` is forced (the `g_j` in `B`'s profile), and
//!   it is the answer exactly when `A(B(i)) = Σ_j g_j(c_j)` for every index `i` with leaf
//!   coordinates `c_j`; an index where the two differ is the witness. When no sum of leaf offsets
//!   carries across a mode boundary of the coalesced `A` the equality holds everywhere (`A` is
//!   `D_0·x + Σ_r E_r·⌊x/S̄_r⌋` there); otherwise every index is checked, within [`BOUND`].
//!
//! Past [`BOUND`] evaluations the question is left undecided and the paper's condition that failed
//! is reported as before. Only entered when the admissible path refuses.

use super::super::coalesce::{coalesce_leaves, Flat};
use crate::error::{CompositionWitness, Error, ErrorKind, Op};
use crate::int_tuple::build::open_bracket;
use crate::int_tuple::CAPACITY;
use crate::layout::{Layout, BLANK};

/// The most evaluations of `A(B(·))` the exact decision spends before giving up (undecided).
pub(crate) const BOUND: i64 = 1 << 20;

/// The coalesced `A` (last mode unbounded) and its evaluation on the extended domain.
struct Left {
    f: Flat,
}

impl Left {
    /// `A(x)` for `x ≥ 0` (the last mode unbounded), in `i128`.
    const fn eval(&self, x: i128) -> i128 {
        let mut x = x;
        let mut v: i128 = 0;
        let mut r = 0;
        while r + 1 < self.f.n {
            let s = self.f.s[r] as i128;
            v += (x % s) * self.f.d[r] as i128;
            x /= s;
            r += 1;
        }
        if self.f.n > 0 {
            v += x * self.f.d[self.f.n - 1] as i128;
        }
        v
    }
}

/// The coalesced factorisation of one leaf's function `g`: modes `s[k]:e[k]`, `k < n`.
struct Leaf {
    n: usize,
    s: [i64; CAPACITY],
    e: [i128; CAPACITY],
}

impl Leaf {
    /// The layout's value at `c`.
    const fn eval(&self, c: i64) -> i128 {
        let mut c = c;
        let mut v: i128 = 0;
        let mut k = 0;
        while k < self.n {
            v += (c % self.s[k]) as i128 * self.e[k];
            c /= self.s[k];
            k += 1;
        }
        v
    }
}

/// What the exact decision found.
#[allow(clippy::large_enum_variant)] // layouts are stored inline: no heap
pub(crate) enum Decision {
    /// The layout `R`.
    Layout(Layout),
    /// No layout exists, for this reason.
    No(CompositionWitness),
    /// Not decided (negative strides in `B`, past [`BOUND`], or an answer that would not fit: a
    /// stride past `i64`, more leaves than a layout holds).
    Undecided,
}

/// The exact decision for integer layouts `a`, `b` (see the module docs).
pub(crate) const fn decide(a: &Layout, b: &Layout) -> Decision {
    let left = Left {
        f: coalesce_leaves(a, true),
    };
    let bn = b.tree.len();
    // B must take non-negative values only (A is defined on them), and the work must be bounded.
    let mut work: i64 = 0;
    let mut j = 0;
    while j < bn {
        if b.shape[j] > 1 && b.stride[j] < 0 {
            return Decision::Undecided;
        }
        work = work.saturating_add(b.shape[j]);
        j += 1;
    }
    if work > BOUND {
        return Decision::Undecided;
    }
    // The values are computed in `i128`: with offsets of B below 2^62 and strides of A below
    // 2^50, a value of A (at most 32 terms) and a sum of at most 32 values stay below 2^124.
    let mut j = 0;
    while j < bn {
        if (b.shape[j] as i128 - 1) * b.stride[j] as i128 >= 1i128 << 62 {
            return Decision::Undecided;
        }
        j += 1;
    }
    let mut r = 0;
    while r < left.f.n {
        if left.f.d[r].unsigned_abs() >= 1u64 << 50 {
            return Decision::Undecided;
        }
        r += 1;
    }
    // Each leaf's coalesced factorisation.
    let mut leaves = [const {
        Leaf {
            n: 0,
            s: [0; CAPACITY],
            e: [0; CAPACITY],
        }
    }; CAPACITY];
    let mut total: usize = 0;
    let mut j = 0;
    while j < bn {
        match factor_leaf(&left, b.shape[j], b.stride[j], j) {
            Ok(l) => {
                total += if l.n == 0 { 1 } else { l.n };
                leaves[j] = l;
            }
            Err(e) => return verdict(e),
        }
        j += 1;
    }
    if total > CAPACITY {
        return Decision::Undecided;
    }
    match check_sum(&left, b, &leaves) {
        Sum::Holds => {}
        Sum::Fails(index, value, sum) => {
            let (value, sum) = match (fit(value), fit(sum)) {
                (Some(v), Some(s)) => (v, s),
                _ => return Decision::Undecided,
            };
            return Decision::No(CompositionWitness::Sum { index, value, sum });
        }
        Sum::Undecided => return Decision::Undecided,
    }
    match build(b, &leaves) {
        Ok(l) => Decision::Layout(l),
        Err(_) => Decision::Undecided,
    }
}

/// The decision for an error of [`factor_leaf`]: its witness, or undecided (an answer that does
/// not fit).
const fn verdict(e: Error) -> Decision {
    match *e.kind() {
        ErrorKind::NoLayout { witness } => Decision::No(witness),
        _ => Decision::Undecided,
    }
}

const fn no_layout(witness: CompositionWitness) -> Error {
    Error::new(Op::Composition, ErrorKind::NoLayout { witness })
}

const fn overflow() -> Error {
    Error::new(
        Op::Composition,
        ErrorKind::Overflow {
            what: "a stride of the composition",
        },
    )
}

const fn fit(v: i128) -> Option<i64> {
    if v >= i64::MIN as i128 && v <= i64::MAX as i128 {
        Some(v as i64)
    } else {
        None
    }
}

/// `g(c) = A(c·d)`.
const fn g(left: &Left, c: i64, d: i64) -> i128 {
    left.eval(c as i128 * d as i128)
}

/// The coalesced factorisation of `g(c) = A(c·d)` on `[0, s)` (leaf `leaf` of `B`), or the
/// `NoLayout` error with the witness that none exists.
const fn factor_leaf(left: &Left, s: i64, d: i64, leaf: usize) -> Result<Leaf, Error> {
    let mut out = Leaf {
        n: 0,
        s: [0; CAPACITY],
        e: [0; CAPACITY],
    };
    // the forced boundaries, for the carry witness
    let mut q = [0i64; CAPACITY + 1];
    q[0] = 1;
    let mut step: i64 = 1;
    while step < s {
        let m = s / step;
        let e = g(left, step, d);
        let mut t: i64 = 2;
        while t < m && g(left, step * t, d) == t as i128 * e {
            t += 1;
        }
        if t >= m {
            t = m;
        }
        if m % t != 0 {
            return Err(no_layout(CompositionWitness::Boundary {
                leaf,
                step,
                run: t,
                extent: s,
            }));
        }
        if out.n == CAPACITY {
            return Err(Error::new(
                Op::Composition,
                ErrorKind::Capacity {
                    what: "number of leaves",
                    limit: CAPACITY,
                },
            ));
        }
        out.s[out.n] = t;
        out.e[out.n] = e;
        out.n += 1;
        step *= t;
        q[out.n] = step;
    }
    // The candidate must be g everywhere; the first point where it is not gives the carry.
    let mut c: i64 = 1;
    while c < s {
        if g(left, c, d) != out.eval(c) {
            // the largest forced boundary at or below c
            let mut k = out.n;
            while q[k] > c {
                k -= 1;
            }
            let low = c % q[k];
            return Err(no_layout(CompositionWitness::Carry {
                leaf,
                step: q[k],
                low,
                high: c - low,
            }));
        }
        c += 1;
    }
    let mut k = 0;
    while k < out.n {
        if fit(out.e[k]).is_none() {
            return Err(overflow());
        }
        k += 1;
    }
    Ok(out)
}

/// The check across leaves.
enum Sum {
    Holds,
    /// An index, `A(B(i))`, and the sum of the leaves' values.
    Fails(i64, i128, i128),
    Undecided,
}

/// Whether `A(B(i)) = Σ_j g_j(c_j)` for every index `i` of `B`.
const fn check_sum(left: &Left, b: &Layout, leaves: &[Leaf; CAPACITY]) -> Sum {
    let bn = b.tree.len();
    let mut moving = 0;
    let mut j = 0;
    while j < bn {
        if b.shape[j] > 1 && b.stride[j] != 0 {
            moving += 1;
        }
        j += 1;
    }
    if moving < 2 || left.f.n < 2 {
        return Sum::Holds;
    }
    // No carry across any boundary S̄_r: then A is additive over the leaves.
    let mut carry_at: usize = 0; // a boundary with a carry (0: none)
    let mut p: i128 = 1;
    let mut r = 0;
    while r + 1 < left.f.n {
        p *= left.f.s[r] as i128;
        let mut sum: i128 = 0;
        let mut j = 0;
        while j < bn {
            sum += max_residue(b.shape[j], b.stride[j], p).0;
            j += 1;
        }
        if sum >= p {
            carry_at = r + 1;
            break;
        }
        r += 1;
    }
    if carry_at == 0 {
        return Sum::Holds;
    }
    // The index whose leaf coordinates each reach the largest residue at that boundary: it
    // carries there, and is usually the witness.
    let mut p: i128 = 1;
    let mut r = 0;
    while r < carry_at {
        p *= left.f.s[r] as i128;
        r += 1;
    }
    let mut index: i64 = 0;
    let mut weight: i64 = 1;
    let mut x: i128 = 0;
    let mut sum: i128 = 0;
    let mut j = 0;
    while j < bn {
        let c = max_residue(b.shape[j], b.stride[j], p).1;
        index += c * weight;
        weight *= b.shape[j];
        x += c as i128 * b.stride[j] as i128;
        sum += leaves[j].eval(c);
        j += 1;
    }
    let value = left.eval(x);
    if value != sum {
        return Sum::Fails(index, value, sum);
    }
    // Every index, within the bound.
    let size = b.size();
    if size > BOUND {
        return Sum::Undecided;
    }
    let mut c = [0i64; CAPACITY];
    let mut part = [0i128; CAPACITY];
    let mut x: i128 = 0;
    let mut sum: i128 = 0;
    let mut i: i64 = 0;
    while i < size {
        let value = left.eval(x);
        if value != sum {
            return Sum::Fails(i, value, sum);
        }
        // the next index, counting colexicographically
        let mut j = 0;
        while j < bn {
            sum -= part[j];
            x -= c[j] as i128 * b.stride[j] as i128;
            c[j] += 1;
            if c[j] < b.shape[j] {
                part[j] = leaves[j].eval(c[j]);
                sum += part[j];
                x += c[j] as i128 * b.stride[j] as i128;
                break;
            }
            c[j] = 0;
            part[j] = 0;
            j += 1;
        }
        i += 1;
    }
    Sum::Holds
}

/// `max over c < s of (c·d mod p)` and a `c` reaching it (`d ≥ 0`), by enumeration (the caller
/// bounds the sum of the extents).
const fn max_residue(s: i64, d: i64, p: i128) -> (i128, i64) {
    let (mut best, mut at) = (0i128, 0i64);
    if d == 0 {
        return (0, 0);
    }
    let mut c = 1;
    while c < s {
        let v = (c as i128 * d as i128) % p;
        if v > best {
            best = v;
            at = c;
        }
        c += 1;
    }
    (best, at)
}

/// The result: each leaf of `B` replaced by its factorisation (a leaf for one mode, a flat tuple
/// otherwise), in `B`'s profile.
const fn build(b: &Layout, leaves: &[Leaf; CAPACITY]) -> Result<Layout, Error> {
    let op = Op::Composition;
    let mut out = BLANK;
    let mut n: usize = 0;
    let mut pending: u8 = 0;
    let mut depth: usize = 0;
    let mut j = 0;
    while j < b.tree.len() {
        let mut k = 0;
        while k < b.tree.open[j] {
            if let Err(e) = open_bracket(op, &mut pending, &mut depth) {
                return Err(e);
            }
            k += 1;
        }
        let l = &leaves[j];
        let c = if l.n == 0 { 1 } else { l.n };
        if c > 1 {
            if let Err(e) = open_bracket(op, &mut pending, &mut depth) {
                return Err(e);
            }
        }
        if l.n == 0 {
            // a leaf of extent 1: the single point 0
            out.shape[n] = 1;
            out.stride[n] = 0;
        } else {
            let mut k = 0;
            while k < l.n {
                out.shape[n + k] = l.s[k];
                out.stride[n + k] = l.e[k] as i64;
                k += 1;
            }
        }
        out.tree.open[n] = pending;
        pending = 0;
        n += c;
        let closes = b.tree.close[j] + if c > 1 { 1 } else { 0 };
        out.tree.close[n - 1] = closes;
        depth -= closes as usize;
        j += 1;
    }
    out.tree.n = n as u8;
    Ok(out)
}
