//! Right and left inverse (paper: 右逆 “right inverse” `L‡`, 左逆 “left inverse” `L†`): layouts from
//! offsets back to coordinates.
//!
//! * The **right inverse** `R = L‡` is an injective layout into `Z_|L|` with `L(R(k)) = k` for
//!   every `k < |R|` (paper eq. (13) over `Z`), as large as possible.
//!   - Strides all non-negative: CuTe's result. `L` is coalesced, its modes are taken in
//!     increasing stride order, and a mode joins the chain exactly when its stride equals the
//!     extent covered so far (`1`, then `s₀·d₀`, ...). Each chained mode `s:d` contributes the mode
//!     `s : S̄` of the result, where `S̄` is the prefix product of the shapes before it in `L`, i.e.
//!     the weight of that mode's coordinate in `L`'s integer domain. The result is coalesced. For
//!     an injective `L` this is the largest right inverse: offset 1 has the unit-stride mode
//!     `s₀:1` as its only preimage, and the offset `s₀` is reached only by a mode of stride `s₀`
//!     (every other stride is above `s₀` or would meet the first mode), and so on up the chain.
//!     For a non-injective `L` it is CuTe's value, a right inverse that may be smaller than the
//!     largest (`(4,3):(1,3)` gives `4:1`; `(3,3):(1,4)` is larger): kept, so that the C++ text is
//!     matched wherever C++ answers correctly.
//!   - Some stride negative (C++ then returns `1:0` or a short chain): modes are added while the
//!     next offset `P` (the size so far) has a coordinate `u` inside the room that the modes before
//!     left in `L`'s domain (found by an exact bounded search); the mode is the longest
//!     run `r:idx(u)` with `(r−1)·u` still inside the room, so that the coordinates of the result's
//!     modes add without carry and `L(R(k)) = k` holds by linearity. For `(3,2):(2,-1)` the
//!     coordinate of 1 is `(1,1)` (index 4), then that of 2 is `(1,0)` (index 1): `(2,2):(4,1)`.
//!     For an injective `L` the coordinates are forced and the result was the largest right inverse
//!     in every case the property tests tried (brute force over every prefix of `L⁻¹`); this is
//!     checked, not proven. For a non-injective `L` the first coordinate in the search order is
//!     taken (a choice; the result is a right inverse, not always the largest).
//! * The **left inverse** `R = L†` satisfies `L(R(L(k))) = L(k)` for every `k < |L|`.
//!   - A mode of size above 1 with a negative stride `d` sends the index `S̄` of its unit
//!     coordinate to the offset `d < 0`, outside the domain `Z_n` of every layout, so no layout is
//!     a left inverse: a `NegativeOffset` error naming that index and offset. (C++ answers
//!     `(-1,4):(0,1)` for `4:-1`, a shape with a negative extent evaluated with truncating
//!     division: see COMPARE.md.)
//!   - Non-zero strides `d₀ < d₁ < …` of `coalesce(L)` that each divide the next: CuTe's result,
//!     the gaps as modes, `(d₀, d₁/d₀, …, d_m/d_{m-1}, s_m) : (0, S̄₀, …, S̄_m)`, coalesced.
//!   - Otherwise (C++'s "Left inverse divisibility condition" fails) a **mixed-radix** left inverse
//!     `(ρ₀, …, ρ_{m−1}, T) : (e₀, …, e_m)`: each radix must be carry-free over the image, i.e.
//!     `Σ (s_j − 1)·(d_j mod ρ) < ρ` for what is left of the strides `d_j` (then the digits of
//!     `L(c)` are `Σ c_j·v_j` with `v_j` the digits of `d_j`, the last digit unbounded), and the
//!     digit strides solve `Σ_k v_{j,k}·e_k = S̄_j` for every mode `j` over the integers (exact:
//!     column Hermite form). Then `R(L(c)) = Σ c_j·S̄_j`, the index of `c`. **Choice**: the radix
//!     sequences are tried by increasing length and then increasing radices, so the result has the
//!     fewest modes, then the smallest radices; the unknowns the system leaves free are 0; `T`
//!     covers the largest offset. `(2,2):(3,2)` gives `(2,3):(-1,2)` (the digits of 3 in radix 2
//!     are `(1,1)`, of 2 `(0,1)`: `e₁ = 2`, `e₀ + e₁ = 1`). The search is bounded (2^14 radices).
//!     When no sequence works (which needs an injective `L`: `R(L(c)) = c` forces it), the
//!     search over every mixed radix, digits allowed to carry, follows
//!     (`left_inverse_search.rs`: the maximal chains of divisors up to the largest offset, each
//!     system solved exactly; `(2,2):(3,5)` gives `(2,4,2):(0,1,3)`). Only where that search is
//!     exhausted too (no layout `R` has `R(L(k)) = k`: "decided exactly"), stops at its bounds, or
//!     does not apply (two indices of `L` meet) is the refusal CuTe's `Divisibility` error, its
//!     text saying which.
//!
//! For an injective `L` the left inverse is exact. For a non-injective `L` with a divisible chain
//! CuTe returns the same formula, which satisfies the law for some layouts and not for others;
//! where it would not, this crate returns a `NotInjective` error instead of a wrong layout (see
//! [`left_inverse`] for the exact criterion).
//!
//! | `L` | `L‡` | `L†` |
//! |---|---|---|
//! | `(4,8):(1,4)` | `32:1` | `32:1` |
//! | `(4,8):(8,1)` | `(8,4):(4,1)` | `(8,4):(4,1)` |
//! | `(3,7,5):(5,15,1)` | `(5,21):(21,1)` | `(5,21):(21,1)` |
//! | `(4,8):(1,5)` | `4:1` | `(5,8):(1,4)` |
//! | `(4,(4,2)):(4,(1,16))` | `(4,4,2):(4,1,16)` | `(4,4,2):(4,1,16)` |
//! | `((2,2),(4,2)):((1,8),(2,16))` | `(2,4,2,2):(1,4,2,16)` | `(2,4,2,2):(1,4,2,16)` |
//! | `((2,2),(2,4)):((0,1),(0,2))` | `(2,4):(2,8)` | `(2,4):(2,8)` |
//! | `((2,2),(2,4)):((0,2),(0,4))` | `1:0` | `(2,2,4):(0,2,8)` |
//! | `(2,(6,8)):(24,(16,6))` | `1:0` | error: 6 does not divide 16 (two indices meet) |
//! | `(3,2,2):(1,2,8)` | `1:0` | error: not injective (CuTe returns `(2,4,2):(1,3,6)`, wrong at `L(3)`) |
//! | `(2,2):(3,2)` (interleaved) | `1:0` | `(2,3):(-1,2)` |
//! | `(2,5):(22,7)` | `1:0` | `(7,8):(-5,2)` |
//! | `(3,2):(13,5)` | `1:0` | `(4,8):(4,-1)` (radix 4 is no stride) |
//! | `(3,2):(2,-1)` | `(2,2):(4,1)` | error: index 3 goes to the negative offset -1 |
//! | `4:-1` | `1:0` | error: index 1 goes to the negative offset -1 |
//!
//! (The paper's Tables 5 and 6 print `(2,2):(4,8)` for `((2,2),(2,4)):((0,1),(0,2))`; that value
//! violates both laws, and `(2,4):(2,8)` is correct: `cute paper` shows them as errata T5.7 and T6.8.)
//!
//! ```
//! use cute::{left_inverse, right_inverse, Layout};
//! let l: Layout = "(4,8):(8,1)".parse().unwrap();
//! let r = right_inverse(&l).unwrap();
//! assert_eq!(r.to_string(), "(8,4):(4,1)");
//! for k in 0..r.size() {
//!     assert_eq!(l.eval(r.eval(k).unwrap()).unwrap(), k);
//! }
//! let l: Layout = "(4,8):(1,5)".parse().unwrap();
//! assert_eq!(left_inverse(&l).unwrap().to_string(), "(5,8):(1,4)");
//! let l: Layout = "(3,2,2):(1,2,8)".parse().unwrap();
//! assert_eq!(left_inverse(&l).unwrap_err().category(), "NotInjective");
//! // negative and interleaved strides
//! let l: Layout = "(3,2):(2,-1)".parse().unwrap();
//! assert_eq!(right_inverse(&l).unwrap().to_string(), "(2,2):(4,1)");
//! let l: Layout = "(2,2):(3,2)".parse().unwrap();
//! let r = left_inverse(&l).unwrap();
//! assert_eq!(r.to_string(), "(2,3):(-1,2)");
//! for k in 0..4 {
//!     assert_eq!(r.eval(l.eval(k).unwrap()).unwrap(), k);
//! }
//! ```

use super::coalesce::{coalesce_flat, set_coalesced_tree, Flat};
use crate::arith::{ceil_div_wide as ceil_div, floor_div_wide as floor_div};
use crate::error::{add, mul, tri, Error, ErrorKind, Op, Operand};
use crate::geometry::find_collision;
use crate::int_tuple::CAPACITY;
use crate::layout::Layout;
use crate::layout::BLANK;
use crate::stride::INTEGER;

use super::left_inverse_search::{ext_gcd, search, Search};

pub(crate) mod integral;

/// The indices of the `n` modes with strides `d` in increasing stride order, exactly as CuTe orders
/// them: CuTe sorts with an exchange sort (swap `a[i]`, `a[j]` for `i < j` whenever `a[j] < a[i]`),
/// which is not stable, and the order of equal strides decides which of them joins a chain.
///
/// The indices are bytes (`CAPACITY` fits): the array is zeroed before use, and a smaller one is
/// zeroed faster.
pub(crate) const fn stride_order(n: usize, d: &[i64; CAPACITY]) -> [u8; CAPACITY] {
    let mut idx = [0u8; CAPACITY];
    let mut i = 0;
    while i < n {
        idx[i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n {
            if d[idx[j] as usize] < d[idx[i] as usize] {
                let t = idx[i];
                idx[i] = idx[j];
                idx[j] = t;
            }
            j += 1;
        }
        i += 1;
    }
    idx
}

/// Writes the exclusive prefix products `S̄_i = s_0·…·s_{i-1}` of the `n` shapes `s` to `pp` (an
/// out-parameter rather than a returned array, which would be copied out of the `Result`).
pub(crate) const fn prefix_products(
    n: usize,
    s: &[i64; CAPACITY],
    op: Op,
    pp: &mut [i64; CAPACITY],
) -> Result<(), Error> {
    let mut p: i64 = 1;
    let mut i = 0;
    while i < n {
        pp[i] = p;
        p = tri!(mul(op, p, s[i]));
        i += 1;
    }
    Ok(())
}

/// Appends `s:d` to `f` unless `s == 1` (size-1 modes are dropped by the final coalesce anyway),
/// failing when `f` is full.
const fn push_mode(f: &mut Flat, op: Op, s: i64, d: i64) -> Result<(), Error> {
    if s == 1 {
        return Ok(());
    }
    if f.n == CAPACITY {
        return Err(Error::new(
            op,
            ErrorKind::Capacity {
                what: "number of modes of the result",
                limit: CAPACITY,
            },
        ));
    }
    f.push(s, d);
    Ok(())
}

/// `right_inverse(L)`: a right inverse `R`, with `L(R(k)) = k` for every `k < |R|` and `R` into
/// `Z_|L|`: CuTe's largest chained one when no stride is negative (`1:0` when `L` does not reach
/// offset 1 from 0 by a unit stride), else the carry-free construction of the
/// [module docs](self). For an injective `L` it is the largest right inverse (see there).
///
/// ```
/// use cute::{right_inverse, Layout};
/// let l: Layout = "(3,2):(2,-1)".parse().unwrap();
/// let r = right_inverse(&l).unwrap();
/// assert_eq!(r.to_string(), "(2,2):(4,1)");
/// for k in 0..4 {
///     assert_eq!(l.eval(r.eval(k).unwrap()).unwrap(), k);
/// }
/// ```
///
/// With integer strides it fails only where the coordinate search of the negative-stride
/// construction passes its bound (`Unsupported`, 2^22 steps), never for a chain. The law holds
/// for every layout (the intermediate products cannot overflow, being bounded by `|L|`). Proof for
/// the chain: the chained modes
/// `s_j:d_j` of `coalesce(L)` have `d_0 = 1` and `d_{j+1} = s_j·d_j`, so they are a compact
/// column-major layout of `Z_|R|` in the stride order. `R(k)` writes the mixed-radix digits of `k`
/// as coordinates of those modes (weight `S̄_i` in `L`'s domain, all other coordinates 0), so
/// `R(k) < |L|` and `L(R(k)) = Σ digit_j·d_j = k`. Negative and zero strides never join the chain.
///
/// # Errors
///
/// With integer strides, only `Unsupported` where the coordinate search of the negative-stride
/// construction passes its bound (2^22 steps); never for a chain. With coordinate or binary
/// strides, the errors of the semimodule's construction (`Unsupported` where PyCuTe's gap extent is
/// not an integer).
pub const fn right_inverse(a: &Layout) -> Result<Layout, Error> {
    // The scratch arrays of the chain sized to the layout: zeroing them is a large part of the
    // cost.
    if a.tree.len() <= SMALL {
        right_inverse_sized::<SMALL>(a)
    } else {
        right_inverse_sized::<CAPACITY>(a)
    }
}

/// [`right_inverse`] for a layout of at most `N` leaves (`N ≤ CAPACITY`).
const fn right_inverse_sized<const N: usize>(a: &Layout) -> Result<Layout, Error> {
    // Built in the return place (see `coalesce_into`); the layouts outside the chain's reach go to
    // their own constructions.
    let mut chain = true;
    let mut r = Ok(right_inverse_chain::<N>(a, &mut chain));
    if !chain {
        r = right_inverse_other(a);
    }
    r
}

/// The number of leaves up to which [`right_inverse`] uses small scratch arrays.
const SMALL: usize = 8;

/// `right_inverse(L)` for a layout with a coordinate or binary stride, or with a negative stride
/// on a mode of size above 1: the constructions of the [module docs](self).
#[cold]
const fn right_inverse_other(a: &Layout) -> Result<Layout, Error> {
    if !a.is_integral() {
        return super::semimodule::right_inverse_semimodule(a);
    }
    match right_inverse_signed(a) {
        Ok(l) => Ok(l),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::None)),
    }
}

/// CuTe's chained `right_inverse(L)` for an integral `L` without negative strides; otherwise
/// `chain` is set to `false` (and the layout returned is meaningless). It cannot fail: every
/// product formed is at most `|L|`, which fits in `i64` (the invariant of [`Layout`]).
///
/// One pass over the leaves checks the strides, coalesces `L` into the modes `s_i:d_i` (CuTe's
/// rule, as `coalesce_into_int`) and records the weight `S̄_i` of each mode (the product of the
/// shapes before it). The modes are then put in CuTe's stride order one exchange-sort pass at a
/// time, the chain walked as each comes into place, and the walk stops at the first stride past
/// the extent covered: the rest of the order cannot join. Each chained mode `s_i:S̄_i` is written
/// straight into the result, merged with the previous one where it starts at its end (the final
/// coalesce of the result, done as it is built). The result is written only through its fields
/// (see `coalesce_into`), and the function is never inlined: inlined into the generic caller, its
/// result was built in a local and copied out.
///
/// Contract: `L` has at most `N` leaves (the scratch arrays hold its coalesced modes).
#[inline(never)]
const fn right_inverse_chain<const N: usize>(a: &Layout, chain: &mut bool) -> Layout {
    let mut out = BLANK;
    // coalesce(L): shapes, strides and weights, in three arrays rather than a `Flat`: they are
    // zeroed inline, a `Flat` by a call to `memset`.
    let (mut s, mut d, mut w) = ([0i64; N], [0i64; N], [0i64; N]);
    let mut n = 0; // modes of coalesce(L)
    let mut weight: i64 = 1; // the product of the shapes of the leaves so far
    let mut i = 0;
    while i < a.tree.len() {
        let (si, di) = (a.shape[i], a.stride[i]);
        if a.basis[i] != INTEGER || (si != 1 && di < 0) {
            *chain = false;
            return out;
        }
        // A size-1 leaf disappears; `s_{n-1}:d_{n-1}` absorbs a leaf that starts at its end.
        if si != 1 {
            if n > 0 && matches!(s[n - 1].checked_mul(d[n - 1]), Some(x) if x == di) {
                s[n - 1] *= si;
            } else {
                s[n] = si;
                d[n] = di;
                w[n] = weight;
                n += 1;
            }
            weight *= si;
        }
        i += 1;
    }
    let mut m = 0; // modes of the result
    let mut end: i64 = 0; // the end `s·d` of the last mode of the result (0: none, weights are ≥ 1)
    let mut cur: i64 = 1; // the extent covered by the chain
    let mut k = 0;
    while k < n {
        // Pass k of CuTe's exchange sort (see `stride_order`): swap modes k and j whenever
        // `d_j < d_k`, which brings the k-th mode of its order to place k.
        let mut j = k + 1;
        while j < n {
            if d[j] < d[k] {
                (s[k], s[j]) = (s[j], s[k]);
                (d[k], d[j]) = (d[j], d[k]);
                (w[k], w[j]) = (w[j], w[k]);
            }
            j += 1;
        }
        if d[k] > cur {
            // Every stride after this one is larger still, and `cur` changes only when a mode
            // joins: none can.
            break;
        }
        if d[k] == cur {
            // The mode s_k:S̄_k, merged into the previous one where that ends at S̄_k (the
            // coalesce rule; s_k ≥ 2, so the result has no size-1 mode).
            if end == w[k] {
                out.shape[m - 1] *= s[k];
            } else {
                out.shape[m] = s[k];
                out.stride[m] = w[k];
                m += 1;
            }
            end = w[k] * s[k];
            cur *= s[k];
        }
        k += 1;
    }
    set_coalesced_tree!(out, m);
    out
}

/// `left_inverse(L)`: CuTe's left inverse `R`, with `L(R(L(k))) = L(k)` for every `k < |L|`
/// (evaluated as everywhere in this crate: past its size, a layout extends its last mode).
///
/// Where the non-zero strides of `coalesce(L)` do not each divide the next, the mixed-radix
/// construction of the [module docs](self) answers instead of C++'s error.
///
/// Coordinate (`e_i`) strides: PyCuTe's gaps per axis, else the integer left inverse of each axis's
/// projection (its coefficients, 0 on the other modes), whose results add up. Binary (F2) strides:
/// PyCuTe's gaps, else, where every extent is a power of two, Gaussian elimination over GF(2) (a
/// left inverse exists iff the layout is injective; otherwise two indices that meet are named).
///
/// ```
/// use cute::{left_inverse, Layout};
/// let l: Layout = "(2,5):(22,7)".parse().unwrap();
/// let r = left_inverse(&l).unwrap();
/// assert_eq!(r.to_string(), "(7,8):(-5,2)");
/// for k in 0..10 {
///     assert_eq!(r.eval(l.eval(k).unwrap()).unwrap(), k);
/// }
/// let l: Layout = "4:-1".parse().unwrap();
/// assert_eq!(left_inverse(&l).unwrap_err().category(), "OutOfRange");
/// // binary strides, decided over GF(2): (4,4):(F1,F5) is its own inverse
/// let l: Layout = "(4,4):(F1,F5)".parse().unwrap();
/// assert_eq!(left_inverse(&l).unwrap().to_string(), "(4,4):(F1,F5)");
/// let l: Layout = "(2,2):(F3,F3)".parse().unwrap();
/// assert_eq!(left_inverse(&l).unwrap_err().category(), "NotInjective");
/// ```
///
/// **Criterion for non-injective layouts** (exact, and cheap enough for `const`). Let the non-zero
/// strides of `C = coalesce(L)` in CuTe's order be `d_0 ≤ … ≤ d_m` with shapes `s_j`, and
/// `r_j = d_{j+1}/d_j`. For an offset `x = Σ c_j·d_j` of the image, `R(x)` puts the mixed-radix
/// digits `e_j` of `x` (radices `r_0, …, r_{m-1}`, the top digit unbounded) as the coordinates of
/// those modes, so `L(R(x)) = x` whenever every digit fits its mode, `e_j < s_j`, except for the
/// last mode of `L`'s extended domain, which takes any value. Digits are sums `c_j + carry_j`
/// reduced mod `r_j`; the carries into mode `j` range over all of `[0, K_j]` with `K_0 = 0` and
/// `K_{j+1} = ⌊(s_j − 1 + K_j)/r_j⌋`, so the largest digit is `min(r_j − 1, s_j − 1 + K_j)` (and
/// `s_m − 1 + K_m` at the top) and the condition is checked in one pass. It is sufficient by the
/// argument above (which also covers the chain condition `d_{j+1} ≥ s_j·d_j`, where all carries
/// vanish); that it is also necessary, i.e. an oversized digit always breaks the law, was confirmed
/// against brute force on over a million random layouts, and the property tests check it again.
/// "Extends" is decided on `L` itself: a trailing size-1 mode of `L` that does not merge with the
/// mode before it (CuTe's `coalesce` drops it) leaves no mode of `C` unbounded.
///
/// # Errors
///
/// * `NegativeOffset` (category `OutOfRange`) when a mode of size above 1 has a negative stride:
///   the index named goes to a negative offset, in no layout's domain;
/// * `Divisibility` when a non-zero stride of `coalesce(L)` is not a multiple of the next smaller
///   one (C++: "Left inverse divisibility condition") and the mixed-radix construction finds no
///   radix (its text says why: none exists, the search stopped at its bound, or `L` is not
///   injective);
/// * `NotInjective` when `L` is not injective and CuTe's formula would violate the law;
/// * `Overflow` when the result's size would not fit in `i64` (`(2,2):(1,2^62)`);
/// * for coordinate strides, `Divisibility` naming the user's leaf when the integer left inverse of
///   an axis's projection is refused (its text says whether that was decided exactly), and
///   `NotInjective` with two indices that meet; for binary strides, `NotInjective` with two indices
///   that meet, and `Unsupported` (saying what was searched) for a layout with an extent that is
///   not a power of two where no construction applies.
pub const fn left_inverse(a: &Layout) -> Result<Layout, Error> {
    if !a.is_integral() {
        return super::semimodule::left_inverse_semimodule(a);
    }
    integral::left_inverse_integral(a)
}

const fn left_inverse_impl(a: &Layout) -> Result<Layout, Error> {
    let op = Op::LeftInverse;
    let mut c = coalesce_flat(&Flat::of(a), false);
    if c.n == 0 {
        // Every mode has size 1: the layout is 1:0.
        c.push(1, 0);
    }
    let mut pp = [0i64; CAPACITY];
    tri!(prefix_products(c.n, &c.s, op, &mut pp));
    let order = stride_order(c.n, &c.d);
    // A negative stride anywhere refuses first (the offset is outside every domain), whatever
    // the order of the strides.
    let mut i = 0;
    while i < c.n {
        if c.d[i] < 0 {
            return Err(Error::new(
                op,
                ErrorKind::NegativeOffset {
                    index: pp[i],
                    offset: c.d[i],
                },
            ));
        }
        i += 1;
    }

    // CuTe's formula: the gaps between the sorted non-zero strides, then the last shape.
    let mut out = Flat::EMPTY;
    let mut covered: i64 = 1; // size(result_shape) = the previous stride
    let mut pending: i64 = 0; // the stride of the mode whose shape comes next
    let mut k = 0;
    while k < c.n {
        let i = order[k] as usize;
        let d = c.d[i];
        if d != 0 {
            if d % covered != 0 {
                // Not CuTe's chain: the mixed-radix construction, else CuTe's error.
                // A mixed-radix left inverse gives R(L(c)) = c, so L must be injective (stride-0
                // modes aside): two indices that meet skip the search.
                let meet = matches!(find_collision(a, Op::LeftInverse), Ok(Some(_)));
                let bounded = !meet
                    && match tri!(left_inverse_radix(&c, &pp)) {
                        Radix::Found(r) => return Ok(r),
                        Radix::None => false,
                        Radix::Bounded => true,
                    };
                // then every mixed radix, the digits allowed to carry
                let exhausted = !meet
                    && match search(&c) {
                        Search::Found(r) => return Ok(r),
                        Search::None => true,
                        Search::Bounded => false,
                    };
                let injective = !meet;
                return Err(Error::new(
                    op,
                    ErrorKind::Divisibility {
                        mode: i,
                        value: d,
                        divisor: covered,
                        what: if exhausted {
                            "left inverse divisibility condition (CuTe's construction needs the \
                             sorted strides of the coalesced layout to divide each other); decided \
                             exactly: every mixed radix up to the largest offset was searched, and \
                             no layout R has R(L(k)) = k for every index k"
                        } else if injective && bounded {
                            "left inverse divisibility condition (CuTe's construction needs the \
                             sorted strides of the coalesced layout to divide each other; the \
                             search for a carry-free mixed radix with an integer solution, bounded \
                             at 2^14 radices, found none, and the search over every mixed radix \
                             stopped at its bounds)"
                        } else if injective {
                            "left inverse divisibility condition (CuTe's construction needs the \
                             sorted strides of the coalesced layout to divide each other, no \
                             carry-free mixed radix has an integer solution, and the search over \
                             every mixed radix stopped at its bounds)"
                        } else {
                            "left inverse divisibility condition (CuTe's construction needs the \
                             sorted strides of the coalesced layout to divide each other; the \
                             construction for other strides needs an injective layout, and two \
                             indices of this one meet)"
                        },
                    },
                ));
            }
            tri!(push_mode(&mut out, op, d / covered, pending));
            covered = d;
            pending = pp[i];
        }
        k += 1;
    }
    tri!(push_mode(
        &mut out,
        op,
        c.s[order[c.n - 1] as usize],
        pending
    ));

    // The law, for layouts where CuTe's formula can fail.
    let extends = coalesce_flat(&Flat::of(a), true).n == c.n;
    tri!(check_left_law(&c, &order, extends));
    // The size of the result, `d_max·s`, can pass i64 where the cosize of L does not
    // (`(2,2):(1,2^62)`).
    let mut size: i64 = 1;
    let mut k = 0;
    while k < out.n {
        size = match size.checked_mul(out.s[k]) {
            Some(v) => v,
            None => {
                return Err(Error::new(
                    op,
                    ErrorKind::Overflow {
                        what: "the size of the left inverse",
                    },
                ))
            }
        };
        k += 1;
    }
    Ok(coalesce_flat(&out, false).to_layout())
}

/// The criterion of [`left_inverse`]: fails with `NotInjective` when some offset of the image has a
/// mixed-radix digit that overflows its mode (see there). `c` is the coalesced layout, `order` its
/// stride order (strides already known to be non-negative and a divisible chain), `extends` whether
/// the last mode of `c` is unbounded in `L`'s extended domain.
const fn check_left_law(c: &Flat, order: &[u8; CAPACITY], extends: bool) -> Result<(), Error> {
    let op = Op::LeftInverse;
    // The non-zero modes in order.
    let mut nz = [0usize; CAPACITY];
    let mut m = 0;
    let mut k = 0;
    while k < c.n {
        if c.d[order[k] as usize] != 0 {
            nz[m] = order[k] as usize;
            m += 1;
        }
        k += 1;
    }
    let mut carry: i64 = 0; // the largest carry into mode t
    let mut t = 0;
    while t < m {
        let i = nz[t];
        let s = c.s[i];
        let reach = tri!(add(op, s - 1, carry));
        let top = if t + 1 < m {
            let r = c.d[nz[t + 1]] / c.d[i];
            carry = reach / r;
            if reach < r - 1 {
                reach
            } else {
                r - 1
            }
        } else {
            reach
        };
        let unbounded = extends && i + 1 == c.n;
        if top >= s && !unbounded {
            return Err(overlap_error(c, &nz, m));
        }
        t += 1;
    }
    Ok(())
}

/// The `NotInjective` error naming the first overlap of the sorted non-zero modes: the stride
/// `d_{t+1}` that falls inside the extent `1 + Σ_{j≤t} (s_j − 1)·d_j` reached before it.
const fn overlap_error(c: &Flat, nz: &[usize; CAPACITY], m: usize) -> Error {
    let mut reached: i64 = 1;
    let mut t = 0;
    while t < m {
        let i = nz[t];
        reached = reached.saturating_add((c.s[i] - 1).saturating_mul(c.d[i]));
        if t + 1 < m && c.d[nz[t + 1]] < reached {
            return Error::new(
                Op::LeftInverse,
                ErrorKind::NotInjective {
                    stride: c.d[nz[t + 1]],
                    covered: reached,
                },
            );
        }
        t += 1;
    }
    // Unreachable when the criterion failed (an oversized digit needs a carry, and the first carry
    // needs an overlap); kept total for safety.
    Error::new(
        Op::LeftInverse,
        ErrorKind::NotInjective {
            stride: 0,
            covered: reached,
        },
    )
}

/// The bound on the searches of [`preimage`] for one right inverse, in visited coefficient
/// choices.
const PREIMAGE_STEPS: u64 = 1 << 22;

/// A coordinate `u` over the modes of `c` with `0 ≤ u_i ≤ room_i` and `Σ u_i·d_i = target`: the
/// first one met when the coefficients are chosen from the largest `|d_i|` down, smallest first,
/// each within the window the remaining modes can still bring to `target`; `None` when there is
/// none. Exact; fails with `Unsupported` (never a wrong answer) once `steps` passes
/// [`PREIMAGE_STEPS`].
const fn preimage(
    c: &Flat,
    room: &[i64; CAPACITY],
    target: i64,
    steps: &mut u64,
) -> Result<Option<[i64; CAPACITY]>, Error> {
    // The modes that can move: nonzero stride and room left, by decreasing |d|.
    let mut ix = [0usize; CAPACITY];
    let mut m = 0;
    let mut i = 0;
    while i < c.n {
        if c.d[i] != 0 && room[i] > 0 {
            let mut j = m;
            while j > 0 && c.d[ix[j - 1]].unsigned_abs() < c.d[i].unsigned_abs() {
                ix[j] = ix[j - 1];
                j -= 1;
            }
            ix[j] = i;
            m += 1;
        }
        i += 1;
    }
    if m == 0 {
        return Ok(None);
    }
    // [lo_rest[k], hi_rest[k]]: the sums the modes after level k can reach.
    let (mut lo_rest, mut hi_rest) = ([0i128; CAPACITY], [0i128; CAPACITY]);
    let (mut lo, mut hi) = (0i128, 0i128);
    let mut k = m;
    while k > 0 {
        k -= 1;
        lo_rest[k] = lo;
        hi_rest[k] = hi;
        let reach = room[ix[k]] as i128 * c.d[ix[k]] as i128;
        if reach < 0 {
            lo += reach;
        } else {
            hi += reach;
        }
    }
    let t = target as i128;
    let mut u = [0i128; CAPACITY];
    let mut last = [0i128; CAPACITY];
    let mut p = [0i128; CAPACITY]; // the partial sum before level k
    let mut k = 0;
    let mut enter = true;
    loop {
        if enter {
            // u·d ∈ [t − p − hi_rest, t − p − lo_rest], 0 ≤ u ≤ room
            let d = c.d[ix[k]] as i128;
            let (a, b) = (t - p[k] - hi_rest[k], t - p[k] - lo_rest[k]);
            let (mut first, mut end) = if d > 0 {
                (ceil_div(a, d), floor_div(b, d))
            } else {
                (ceil_div(b, d), floor_div(a, d))
            };
            if first < 0 {
                first = 0;
            }
            if end > room[ix[k]] as i128 {
                end = room[ix[k]] as i128;
            }
            u[k] = first;
            last[k] = end;
        } else {
            u[k] += 1;
        }
        *steps += 1;
        if *steps > PREIMAGE_STEPS {
            return Err(Error::new(
                Op::RightInverse,
                ErrorKind::Unsupported {
                    what: "finding the coordinate of an offset (the search is bounded at 2^22 \
                           steps)",
                },
            ));
        }
        if u[k] > last[k] {
            if k == 0 {
                return Ok(None);
            }
            k -= 1;
            enter = false;
            continue;
        }
        let q = p[k] + u[k] * c.d[ix[k]] as i128;
        if k + 1 == m {
            if q == t {
                break;
            }
            enter = false;
            continue;
        }
        p[k + 1] = q;
        k += 1;
        enter = true;
    }
    let mut out = [0i64; CAPACITY];
    let mut j = 0;
    while j < m {
        out[ix[j]] = u[j] as i64;
        j += 1;
    }
    Ok(Some(out))
}

/// The right inverse of an integral layout with a negative stride (see the module docs): modes are
/// added while the offset `P` (the size so far) has a coordinate `u` within the room the modes
/// before left in `L`'s domain; the mode takes the longest run `r` with `(r−1)·u` within that room.
const fn right_inverse_signed(a: &Layout) -> Result<Layout, Error> {
    let op = Op::RightInverse;
    let c = coalesce_flat(&Flat::of(a), false);
    let mut w = [0i64; CAPACITY];
    tri!(prefix_products(c.n, &c.s, op, &mut w));
    let mut room = [0i64; CAPACITY];
    let mut i = 0;
    while i < c.n {
        room[i] = c.s[i] - 1;
        i += 1;
    }
    let mut out = Flat::EMPTY;
    let mut p: i64 = 1;
    let mut steps: u64 = 0; // shared by the searches: one bound for the whole inverse
    while let Some(u) = tri!(preimage(&c, &room, p, &mut steps)) {
        // the longest run: (r − 1)·u ≤ room (u ≠ 0, as P ≠ 0; u ≤ room, so r ≥ 2)
        let mut r = i64::MAX;
        let mut e: i64 = 0; // the index of coordinate u: below |L|
        let mut i = 0;
        while i < c.n {
            if u[i] > 0 {
                let q = room[i] / u[i] + 1;
                if q < r {
                    r = q;
                }
                e += u[i] * w[i];
            }
            i += 1;
        }
        tri!(push_mode(&mut out, op, r, e));
        let mut i = 0;
        while i < c.n {
            room[i] -= (r - 1) * u[i];
            i += 1;
        }
        p = tri!(mul(op, p, r));
    }
    Ok(coalesce_flat(&out, false).to_layout())
}

/// An `n × m` integer matrix of at most `CAPACITY` rows and columns.
type Matrix = [[i128; CAPACITY]; CAPACITY];

/// Whether `x` fits in an `i64`.
const fn fits(x: i128) -> bool {
    x as i64 as i128 == x
}

const fn overflow() -> Error {
    Error::new(
        Op::LeftInverse,
        ErrorKind::Overflow {
            what: "an entry of the mixed-radix system",
        },
    )
}

/// `a·x + b·y`, overflow-checked.
const fn lin(a: i128, x: i128, b: i128, y: i128) -> Result<i128, Error> {
    match (a.checked_mul(x), b.checked_mul(y)) {
        (Some(p), Some(q)) => match p.checked_add(q) {
            Some(v) => Ok(v),
            None => Err(overflow()),
        },
        _ => Err(overflow()),
    }
}

/// An integer solution `e` of `V·e = w` (`n` equations, `m` unknowns), or `None` when there is
/// none. Exact: unimodular column operations (`V·U` in column echelon form, the Hermite form up to
/// the reduction of the entries left of each pivot) and forward substitution; `e = U·y` with the
/// unknowns that no pivot fixes set to 0.
const fn solve_integer(
    v: &mut Matrix,
    n: usize,
    m: usize,
    w: &[i128; CAPACITY],
) -> Result<Option<[i128; CAPACITY]>, Error> {
    let mut u: Matrix = [[0; CAPACITY]; CAPACITY];
    let mut j = 0;
    while j < m {
        u[j][j] = 1;
        j += 1;
    }
    const NONE: usize = usize::MAX;
    let mut pivot = [NONE; CAPACITY];
    let mut pc = 0;
    let mut i = 0;
    while i < n && pc < m {
        let mut j = pc + 1;
        while j < m {
            let (a, b) = (v[i][pc], v[i][j]);
            if b != 0 {
                // columns (pc, j) ← (pc, j)·[[x, −b/g], [y, a/g]] (determinant 1)
                let (g, x, y) = ext_gcd(a, b);
                let (bg, ag) = (b / g, a / g);
                let mut r = 0;
                while r < n {
                    let (p, q) = (v[r][pc], v[r][j]);
                    v[r][pc] = tri!(lin(x, p, y, q));
                    v[r][j] = tri!(lin(-bg, p, ag, q));
                    r += 1;
                }
                let mut r = 0;
                while r < m {
                    let (p, q) = (u[r][pc], u[r][j]);
                    u[r][pc] = tri!(lin(x, p, y, q));
                    u[r][j] = tri!(lin(-bg, p, ag, q));
                    r += 1;
                }
            }
            j += 1;
        }
        if v[i][pc] != 0 {
            pivot[i] = pc;
            pc += 1;
        }
        i += 1;
    }
    // Row i has nonzero entries only left of its pivot (or of `pc` at its turn), all fixed by the
    // rows before it.
    let mut y = [0i128; CAPACITY];
    let mut i = 0;
    while i < n {
        let end = if pivot[i] == NONE { m } else { pivot[i] };
        let mut acc: i128 = 0;
        let mut j = 0;
        while j < end {
            acc = tri!(lin(1, acc, v[i][j], y[j]));
            j += 1;
        }
        let rest = tri!(lin(1, w[i], -1, acc));
        if pivot[i] == NONE {
            if rest != 0 {
                return Ok(None);
            }
        } else {
            let p = v[i][pivot[i]];
            if rest % p != 0 {
                return Ok(None);
            }
            y[pivot[i]] = rest / p;
        }
        i += 1;
    }
    let mut e = [0i128; CAPACITY];
    let mut r = 0;
    while r < m {
        let mut j = 0;
        while j < m {
            e[r] = tri!(lin(1, e[r], u[r][j], y[j]));
            j += 1;
        }
        r += 1;
    }
    Ok(Some(e))
}

/// The bound on the radix search of [`left_inverse_radix`], in radices tried.
const RADIX_STEPS: u32 = 1 << 14;

/// What the radix search of [`left_inverse_radix`] ended with.
#[allow(clippy::large_enum_variant)] // layouts are stored inline: no heap
enum Radix {
    /// A left inverse.
    Found(Layout),
    /// No radix sequence works (every one was tried).
    None,
    /// No radix sequence tried within [`RADIX_STEPS`] works.
    Bounded,
}

/// The mixed-radix left inverse of a coalesced layout `c` with non-negative strides that are not a
/// divisible chain (`pp`: the prefix products of its shapes); see the module docs. Radix sequences
/// `ρ_0, ρ_1, …` are tried by increasing length, each radix from 2 up to the largest stride left
/// (so the first found has the fewest digits, then the smallest radices); a radix must be
/// carry-free over the image (`Σ (s_j − 1)·(d_j mod ρ) < ρ` for the strides `d_j` left), and the
/// strides left after the last go to the unbounded top digit. The digit strides `e` then solve
/// `V·e = S̄` over the integers, or the sequence is rejected.
const fn left_inverse_radix(c: &Flat, pp: &[i64; CAPACITY]) -> Result<Radix, Error> {
    let op = Op::LeftInverse;
    // The modes with a nonzero stride: shape, stride, weight in L's index.
    let (mut s, mut w) = ([0i128; CAPACITY], [0i128; CAPACITY]);
    // rem[k][j]: what is left of stride j before digit k
    let mut rem: Matrix = [[0; CAPACITY]; CAPACITY];
    let mut n = 0;
    let mut top: i128 = 0; // the largest offset
    let mut i = 0;
    while i < c.n {
        if c.d[i] != 0 {
            s[n] = c.s[i] as i128;
            rem[0][n] = c.d[i] as i128;
            w[n] = pp[i] as i128;
            top += (s[n] - 1) * rem[0][n];
            n += 1;
        }
        i += 1;
    }
    let mut v: Matrix = [[0; CAPACITY]; CAPACITY]; // v[j][k]: digit k of stride j
    let mut radix = [1i128; CAPACITY]; // the radix tried at each level
    let mut steps: u32 = 0;
    let mut limit = 0; // the number of digits below the top one
    let mut deeper = true; // some sequence of this length leaves a stride ≥ 2
    let (found, m) = 'search: loop {
        if !deeper || limit + 1 >= CAPACITY {
            return Ok(Radix::None);
        }
        deeper = false;
        let mut k = 0;
        loop {
            steps += 1;
            if steps > RADIX_STEPS {
                return Ok(Radix::Bounded);
            }
            if k == limit {
                // a full sequence: the strides left go to the top digit
                let mut sys = v;
                let mut j = 0;
                while j < n {
                    sys[j][k] = rem[k][j];
                    if rem[k][j] >= 2 {
                        deeper = true;
                    }
                    j += 1;
                }
                if let Some(e) = tri!(solve_integer(&mut sys, n, k + 1, &w)) {
                    break 'search (e, k);
                }
                if k == 0 {
                    break;
                }
                k -= 1;
                continue;
            }
            // the next radix at level k
            radix[k] += 1;
            let mut most: i128 = 0;
            let mut j = 0;
            while j < n {
                if rem[k][j] > most {
                    most = rem[k][j];
                }
                j += 1;
            }
            if radix[k] > most {
                radix[k] = 1;
                if k == 0 {
                    break;
                }
                k -= 1;
                continue;
            }
            let rho = radix[k];
            let mut carry: i128 = 0;
            let mut j = 0;
            while j < n {
                carry += (s[j] - 1) * (rem[k][j] % rho);
                j += 1;
            }
            if carry >= rho {
                continue;
            }
            let mut j = 0;
            while j < n {
                v[j][k] = rem[k][j] % rho;
                rem[k + 1][j] = rem[k][j] / rho;
                j += 1;
            }
            k += 1;
        }
        limit += 1;
    };
    let mut span: i128 = 1; // the product of the radices, at most the largest stride
    let mut k = 0;
    while k < m {
        span *= radix[k];
        k += 1;
    }
    let mut out = Flat::EMPTY;
    let mut p = 0;
    while p <= m {
        let size = if p < m { radix[p] } else { top / span + 1 };
        if !fits(found[p]) || !fits(span * (top / span + 1)) {
            return Err(overflow());
        }
        tri!(push_mode(&mut out, op, size as i64, found[p] as i64));
        p += 1;
    }
    Ok(Radix::Found(coalesce_flat(&out, false).to_layout()))
}
