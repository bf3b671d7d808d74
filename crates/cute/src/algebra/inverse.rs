//! Right and left inverse (paper: 右逆 `L‡`, 左逆 `L†`): layouts from offsets back to coordinates.
//!
//! * The **right inverse** `R = L‡` is injective and satisfies `L(R(k)) = k` for every `k < |R|`
//!   (paper eq. (13) over `Z`). The result is CuTe's: `L` is coalesced, its modes are taken in
//!   increasing stride order, and a mode joins the chain exactly when its stride equals the extent
//!   covered so far (`1`, then `s₀·d₀`, ...). Each chained mode `s:d` contributes the mode
//!   `s : S̄` of the result, where `S̄` is the prefix product of the shapes before it in `L`, i.e. the
//!   weight of that mode's coordinate in `L`'s integer domain. The result is coalesced.
//! * The **left inverse** `R = L†` satisfies `L(R(L(k))) = L(k)` for every `k < |L|`. The result is
//!   CuTe's: the non-zero strides `d₀ < d₁ < …` of `coalesce(L)` must each divide the next (else a
//!   divisibility error, C++'s "Left inverse divisibility condition"); the gaps become modes of the
//!   result, `(d₀, d₁/d₀, …, d_m/d_{m-1}, s_m) : (0, S̄₀, …, S̄_m)`, which is then coalesced.
//!
//! For an injective `L` the left inverse is exact. For a non-injective `L` CuTe returns the same
//! formula, which satisfies the law for some layouts and not for others; where it would not, this
//! crate returns a `NotInjective` error instead of a wrong layout (see [`left_inverse`] for the
//! exact criterion).
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
//! | `(2,(6,8)):(24,(16,6))` | `1:0` | error: 6 does not divide 16 |
//! | `(3,2,2):(1,2,8)` | `1:0` | error: not injective (CuTe returns `(2,4,2):(1,3,6)`, wrong at `L(3)`) |
//!
//! (The paper's Tables 5 and 6 print `(2,2):(4,8)` for `((2,2),(2,4)):((0,1),(0,2))`; that value
//! violates both laws, and `(2,4):(2,8)` is correct: `cute paper` shows them as errata T5.7 and T6.8.)
//!
//! ```
//! use cute::{left_inverse, right_inverse, Layout};
//! let l: Layout = "(4,8):(8,1)".parse().unwrap();
//! let r = right_inverse(&l).unwrap();
//! assert_eq!(r.to_string(), "(8,4):(4,1)");
//! for k in 0..r.size().unwrap() {
//!     assert_eq!(l.eval(r.eval(k).unwrap()).unwrap(), k);
//! }
//! let l: Layout = "(4,8):(1,5)".parse().unwrap();
//! assert_eq!(left_inverse(&l).unwrap().to_string(), "(5,8):(1,4)");
//! let l: Layout = "(3,2,2):(1,2,8)".parse().unwrap();
//! assert_eq!(left_inverse(&l).unwrap_err().category(), "NotInjective");
//! ```

use super::coalesce::{coalesce_flat, coalesce_into_int, set_coalesced_tree, Flat, BLANK};
use crate::error::{add, attempt, mul, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::CAPACITY;
use crate::layout::Layout;

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

/// `right_inverse(L)`: CuTe's largest chained right inverse `R`, with `L(R(k)) = k` for every
/// `k < |R|` (`1:0` when `L` does not reach offset 1 from 0 by a unit stride).
///
/// The law holds for every layout, so this never fails for a layout built by this crate (the
/// intermediate products cannot overflow, being bounded by `|L|`). Proof: the chained modes
/// `s_j:d_j` of `coalesce(L)` have `d_0 = 1` and `d_{j+1} = s_j·d_j`, so they are a compact
/// column-major layout of `Z_|R|` in the stride order. `R(k)` writes the mixed-radix digits of `k`
/// as coordinates of those modes (weight `S̄_i` in `L`'s domain, all other coordinates 0), so
/// `R(k) < |L|` and `L(R(k)) = Σ digit_j·d_j = k`. Negative and zero strides never join the chain.
pub const fn right_inverse(a: &Layout) -> Result<Layout, Error> {
    if !a.is_integral() {
        return super::codomain::right_inverse_semimodule(a);
    }
    // Built in the return place (see `coalesce_into`).
    let mut err = Ok(());
    let mut r = Ok(right_inverse_build(a, &mut err));
    if let Err(e) = err {
        r = Err(e.or_with(Operand::Layout(*a), Operand::None));
    }
    r
}

/// `right_inverse(L)`, or on failure the error in `err`. The chained modes are written straight
/// into the result, which is then coalesced in place; the result is written only through its
/// fields (see `coalesce_into`).
const fn right_inverse_build(a: &Layout, err: &mut Result<(), Error>) -> Layout {
    let op = Op::RightInverse;
    let mut out = BLANK;
    // coalesce(L), in two arrays rather than a `Flat`: they are zeroed inline, a `Flat` by a call
    // to `memset`, which costs more than the rest of the inverse.
    let (mut cs, mut cd) = ([0i64; CAPACITY], [0i64; CAPACITY]);
    let cn = coalesce_into_int!(a.tree.len(), a.shape, a.stride, false, false, cs, cd);
    let mut pp = [0i64; CAPACITY];
    attempt!(err, out, prefix_products(cn, &cs, op, &mut pp));
    let order = stride_order(cn, &cd);
    let mut m = 0; // modes written
    let mut cur: i64 = 1;
    let mut k = 0;
    while k < cn {
        let i = order[k] as usize;
        if cd[i] == cur {
            // `push_mode`: a size-1 mode is left out (the coalesce would drop it); its capacity
            // check cannot fail here, there being at most `cn` chained modes.
            if cs[i] != 1 {
                out.shape[m] = cs[i];
                out.stride[m] = pp[i];
                m += 1;
            }
            cur = attempt!(err, out, mul(op, cs[i], cd[i]));
        }
        k += 1;
    }
    let n = coalesce_into_int!(m, out.shape, out.stride, false, false, out.shape, out.stride);
    while m > n {
        m -= 1;
        out.shape[m] = 0;
        out.stride[m] = 0;
    }
    set_coalesced_tree!(out, n);
    out
}

/// `left_inverse(L)`: CuTe's left inverse `R`, with `L(R(L(k))) = L(k)` for every `k < |L|`
/// (evaluated as everywhere in this crate: past its size, a layout extends its last mode).
///
/// Errors:
/// * `Divisibility` when a non-zero stride of `coalesce(L)` is not a multiple of the next smaller
///   one (C++: "Left inverse divisibility condition");
/// * `NotInjective` when `L` is not injective and CuTe's formula would violate the law;
/// * `Unsupported` for negative strides (CuTe's formula would produce a negative shape).
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
pub const fn left_inverse(a: &Layout) -> Result<Layout, Error> {
    if !a.is_integral() {
        return super::codomain::left_inverse_semimodule(a);
    }
    match left_inverse_impl(a) {
        Ok(l) => Ok(l),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::None)),
    }
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

    // CuTe's formula: the gaps between the sorted non-zero strides, then the last shape.
    let mut out = Flat::EMPTY;
    let mut covered: i64 = 1; // size(result_shape) = the previous stride
    let mut pending: i64 = 0; // the stride of the mode whose shape comes next
    let mut k = 0;
    while k < c.n {
        let i = order[k] as usize;
        let d = c.d[i];
        if d < 0 {
            return Err(Error::new(
                op,
                ErrorKind::Unsupported {
                    what: "negative strides in a left inverse",
                },
            ));
        }
        if d != 0 {
            if d % covered != 0 {
                return Err(Error::new(
                    op,
                    ErrorKind::Divisibility {
                        mode: i,
                        value: d,
                        divisor: covered,
                        what: "left inverse divisibility condition (the sorted strides of the \
                               coalesced layout must each divide the next)",
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
