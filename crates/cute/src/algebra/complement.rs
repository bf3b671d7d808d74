//! Complement (paper: 补集): the layout of the offsets a layout does not reach.
//!
//! The complement `L*` is weakly congruent to the codomain (15), disjoint from the image of `L` on
//! the whole extended domain of `L*` (16), and ordered (17). It is built from the modes of
//! `filter(L)` sorted by stride: each stride `d_k` leaves a gap `d_k / c` before it, where `c` is the
//! extent covered so far (`c ← d_k·s_k`). A stride inside the covered extent means `L` is not
//! injective.
//!
//! Without a cotarget the paper's form is returned: the gaps followed by a trailing size-1 mode whose
//! stride is the next value of the extended domain (`complement((4,8):(1,8)) = (2,1):(4,64)`; CuTe C++
//! prints the image-only form `2:4`, which fails (16) past its size). With a cotarget (an integer or
//! a shape) the result is CuTe's: the gaps and then enough repetitions of the covered extent to reach
//! the cotarget; when `L` is not a divisible chain and the result cannot reach the cotarget, the
//! complement does not exist and an error is returned.
//!
//! | `L` | cotarget | `L*` |
//! |---|---|---|
//! | `(4,8):(1,4)` | — | `1:32` |
//! | `(4,8):(1,8)` | — | `(2,1):(4,64)` |
//! | `((2,2),(2,4)):((0,2),(0,4))` | — | `(2,1):(1,16)` |
//! | `8:3` | `24` | `3:1` |
//! | `(4,8):(1,8)` | `64` | `2:4` |
//! | `(2,4):(3,8)` | `64` | error: `(L, L*)` reaches only 62 |
//!
//! ```
//! use cute::{complement, complement_to, Layout, IntTuple};
//! let l: Layout = "(4,8):(1,8)".parse().unwrap();
//! assert_eq!(complement(&l).unwrap().to_string(), "(2,1):(4,64)");
//! let l: Layout = "8:3".parse().unwrap();
//! assert_eq!(complement_to(&l, &IntTuple::int(24)).unwrap().to_string(), "3:1");
//! ```

use super::coalesce::{coalesce_into_int, set_coalesced_tree, BLANK};
use super::composition::div_rem;
use crate::error::{add, attempt, mul, Error, ErrorKind, Op, Operand};
use crate::int_tuple::{IntTuple, CAPACITY};
use crate::layout::Layout;

/// The gaps of `filter(L)`, computed in the place arrays `$s`, `$d` (zero on entry): the modes
/// `(d_k / c, c)` before each stride in increasing order (stable: leftmost first on ties).
/// Evaluates to `Ok((count, c))` with `c` the extent covered at the end, or the error.
///
/// A macro so that the result layout can be the place written (see
/// [`coalesce_into`](super::coalesce::coalesce_into)).
macro_rules! gaps {
    ($a:expr, $s:expr, $d:expr) => {
        'gaps: {
            let a: &Layout = $a;
            // (integer strides: the callers check)
            let n = coalesce_into_int!(a.tree.len(), a.shape, a.stride, false, true, $s, $d);
            // Stable insertion sort by stride. The mode being inserted is held in registers and
            // the larger ones are shifted up one by one: swapping neighbours instead lets the
            // compiler swap two shapes with one 16-byte load, which cannot be forwarded from
            // the two 8-byte stores that just wrote them and waits for them to reach the cache.
            let mut i = 1;
            while i < n {
                let (s, d) = ($s[i], $d[i]);
                let mut j = i;
                while j > 0 && $d[j - 1] > d {
                    $s[j] = $s[j - 1];
                    $d[j] = $d[j - 1];
                    j -= 1;
                }
                if j < i {
                    $s[j] = s;
                    $d[j] = d;
                }
                i += 1;
            }
            let mut cur: i64 = 1;
            let mut w = 0; // gaps written so far (w <= k: compaction in place)
            let mut k = 0;
            while k < n {
                let (s, d) = ($s[k], $d[k]);
                if d < 0 {
                    break 'gaps Err(Error::new(
                        Op::Complement,
                        ErrorKind::Unsupported {
                            what: "negative strides in a complement",
                        },
                    ));
                }
                let gap = div_rem(d, cur).0;
                if gap == 0 {
                    break 'gaps Err(Error::new(
                        Op::Complement,
                        ErrorKind::NotInjective {
                            stride: d,
                            covered: cur,
                        },
                    ));
                }
                // A gap of 1 is a size-1 mode, which the final coalesce drops: leaving it out keeps
                // room for the trailing mode.
                if gap > 1 {
                    $s[w] = gap;
                    $d[w] = cur;
                    w += 1;
                }
                cur = match mul(Op::Complement, d, s) {
                    Ok(v) => v,
                    Err(e) => break 'gaps Err(e),
                };
                k += 1;
            }
            while w < n {
                $s[w] = 0;
                $d[w] = 0;
                w += 1;
            }
            let mut g = 0;
            while g < n && $s[g] != 0 {
                g += 1;
            }
            if g >= CAPACITY {
                break 'gaps Err(Error::new(
                    Op::Complement,
                    ErrorKind::Capacity {
                        what: "number of modes of a complement",
                        limit: CAPACITY,
                    },
                ));
            }
            Ok((g, cur))
        }
    };
}

/// Appends the mode `$s0:$d0` after the `$n` gaps in `$out` and coalesces the `$n + 1` modes in
/// place (each result mode is written at or before the modes it is read from), zeroing the slots
/// freed; sets the tree (CuTe's printed form). Evaluates to the number of modes.
macro_rules! finish_gaps {
    ($out:ident, $n:expr, $s0:expr, $d0:expr, $keep_last:expr) => {{
        let n: usize = $n;
        $out.shape[n] = $s0;
        $out.stride[n] = $d0;
        let m = coalesce_into_int!(
            n + 1,
            $out.shape,
            $out.stride,
            $keep_last,
            false,
            $out.shape,
            $out.stride
        );
        let mut k = m;
        while k <= n {
            $out.shape[k] = 0;
            $out.stride[k] = 0;
            k += 1;
        }
        set_coalesced_tree!($out, m);
        // The zero bracket counts are written too: a complement is often read right away (a
        // divide concatenates it), and a byte that only the initial `memset` wrote cannot be
        // forwarded to that read, which then waits for the whole `memset` to reach the cache.
        let leaves = $out.tree.len();
        if leaves == 1 {
            $out.tree.open[0] = 0;
            $out.tree.close[0] = 0;
        }
        let mut k = 1;
        while k < leaves {
            $out.tree.open[k] = 0;
            $out.tree.close[k - 1] = 0;
            k += 1;
        }
        m
    }};
}

/// `complement(L)` in the paper's form (see the module docs).
pub const fn complement(a: &Layout) -> Result<Layout, Error> {
    if !a.is_integral() {
        return super::codomain::complement_semimodule(a);
    }
    // `r` is the only value returned and is never borrowed, so it is the return place, and the
    // layout is built straight into it (see `coalesce_into`).
    let mut err = Ok(());
    let mut r = Ok(complement_build(a, &mut err));
    if let Err(e) = err {
        r = Err(e.or_with(Operand::Layout(*a), Operand::None));
    }
    r
}

/// `complement(L)`, or on failure the error in `err`: the gaps, then `1:c`, coalesced. The result
/// is written only through the fields of `out` (see `coalesce_into`).
const fn complement_build(a: &Layout, err: &mut Result<(), Error>) -> Layout {
    let mut out = BLANK;
    let (n, cur) = attempt!(err, out, gaps!(a, out.shape, out.stride));
    finish_gaps!(out, n, 1, cur, true);
    out
}

/// `complement(L, M)` for a cotarget `M` that is an integer or a shape (CuTe's form, see the module
/// docs). Fails with a divisibility error when the complement cannot cover `M`.
pub const fn complement_to(a: &Layout, cotarget: &IntTuple) -> Result<Layout, Error> {
    if !a.is_integral() {
        return super::codomain::complement_to_semimodule(a, cotarget);
    }
    let mut err = Ok(());
    let leaves = cotarget.val.split_at(cotarget.tree.len()).0;
    let mut r = Ok(complement_to_build(a, leaves, false, &mut err));
    if let Err(e) = err {
        r = Err(e.or_with(Operand::Layout(*a), Operand::Tuple(*cotarget)));
    }
    r
}

/// `complement(L, M)`, or on failure the error in `err` (see [`complement_build`]), for the
/// cotarget given by its leaves (a shape's leaves, or one integer): only they matter.
pub(crate) const fn complement_to_build(
    a: &Layout,
    cotarget: &[i64],
    extended: bool,
    err: &mut Result<(), Error>,
) -> Layout {
    let mut out = BLANK;
    if let Err(e) = a.require_integral(Op::Complement) {
        *err = Err(e);
        return out;
    }
    let mut target: i64 = 1; // the cotarget's size (`IntTuple::size`)
    let mut i = 0;
    while i < cotarget.len() {
        if cotarget[i] < 1 {
            *err = Err(Error::new(
                Op::Complement,
                ErrorKind::InvalidShape { value: cotarget[i] },
            ));
            return out;
        }
        i += 1;
    }
    let mut i = 0;
    while i < cotarget.len() {
        target = attempt!(err, out, mul(Op::MakeLayout, target, cotarget[i]));
        i += 1;
    }
    let (n, cur) = attempt!(err, out, gaps!(a, out.shape, out.stride));
    // rest = ceil_div(cotarget, cur), folded over the leaves of the cotarget, then its product.
    let mut rest_shape: i64 = 1;
    let mut r = cur;
    let mut i = 0;
    while i < cotarget.len() {
        let c = cotarget[i];
        rest_shape = attempt!(err, out, mul(Op::Complement, rest_shape, ceil_div(c, r)));
        r = ceil_div(r, c);
        i += 1;
    }
    // With `extended`, a rest of size 1 keeps its stride `cur` (the paper's trailing mode): the
    // complement is then also right past its size, where a composition (a product's `A* ∘ B`)
    // evaluates it. C++'s form drops it, which only agrees on `Z_|L*|`.
    let rest_stride = if rest_shape == 1 && !extended { 0 } else { cur };
    finish_gaps!(out, n, rest_shape, rest_stride, extended);
    // The concatenation (L, L*) must reach the cotarget. (`cosize` of the result, read through its
    // fields: see `coalesce_into`.)
    let a_cosize = attempt!(err, out, a.cosize());
    let mut out_cosize: i64 = 1;
    let mut k = 0;
    while k < out.tree.len() {
        let t = attempt!(
            err,
            out,
            mul(
                Op::Eval,
                out.shape[k] - 1,
                out.stride[k].unsigned_abs() as i64
            )
        );
        out_cosize = attempt!(err, out, add(Op::Eval, out_cosize, t));
        k += 1;
    }
    // (saturating: a sum past i64::MAX certainly reaches the cotarget)
    let covered = a_cosize.saturating_add(out_cosize - 1);
    if covered < target {
        *err = Err(Error::new(
            Op::Complement,
            ErrorKind::CannotCover {
                reached: covered,
                cotarget: target,
            },
        ));
    }
    out
}

/// `⌈a / b⌉` for `a, b ≥ 1`, without overflow; the division skipped where [`div_rem`] can.
const fn ceil_div(a: i64, b: i64) -> i64 {
    let (q, r) = div_rem(a, b);
    q + if r != 0 { 1 } else { 0 }
}
