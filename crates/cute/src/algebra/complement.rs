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

use super::coalesce::{coalesce_flat, Flat};
use crate::error::{mul, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::{IntTuple, CAPACITY};
use crate::layout::Layout;

/// The gaps of `filter(L)`: the modes `(d_k / c, c)` before each stride in increasing order, and the
/// extent `c` covered at the end.
const fn gaps(a: &Layout) -> Result<(Flat, i64), Error> {
    let f = coalesce_flat(&Flat::of(&super::coalesce::filter_zeros(a)), false);
    let mut done = [false; CAPACITY];
    let mut out = Flat::EMPTY;
    let mut cur: i64 = 1;
    let mut count = 0;
    while count < f.n {
        // the smallest remaining stride (leftmost on ties)
        let mut best = usize::MAX;
        let mut i = 0;
        while i < f.n {
            if !done[i] && (best == usize::MAX || f.d[i] < f.d[best]) {
                best = i;
            }
            i += 1;
        }
        done[best] = true;
        let (s, d) = (f.s[best], f.d[best]);
        if d < 0 {
            return Err(Error::new(
                Op::Complement,
                ErrorKind::Unsupported {
                    what: "negative strides in a complement",
                },
            ));
        }
        let gap = d / cur;
        if gap == 0 {
            return Err(Error::new(
                Op::Complement,
                ErrorKind::NotInjective {
                    stride: d,
                    covered: cur,
                },
            ));
        }
        // A gap of 1 is a size-1 mode, which the final coalesce drops: leaving it out keeps room
        // for the trailing mode (32 modes with gaps of 2 or more overflow `cur`).
        if gap > 1 {
            out.push(gap, cur);
        }
        cur = tri!(mul(Op::Complement, d, s));
        count += 1;
    }
    Ok((out, cur))
}

/// `⌈a / b⌉` for `a, b ≥ 1`, without overflow.
const fn ceil_div(a: i64, b: i64) -> i64 {
    a / b + if a % b != 0 { 1 } else { 0 }
}

/// Fails with [`ErrorKind::Capacity`] when `g` has no room for the trailing mode.
const fn room_for_one_more(g: &Flat) -> Result<(), Error> {
    if g.n >= CAPACITY {
        return Err(Error::new(
            Op::Complement,
            ErrorKind::Capacity {
                what: "number of modes of a complement",
                limit: CAPACITY,
            },
        ));
    }
    Ok(())
}

/// `complement(L)` in the paper's form (see the module docs).
pub const fn complement(a: &Layout) -> Result<Layout, Error> {
    let (mut g, cur) = match gaps(a) {
        Ok(x) => x,
        Err(e) => return Err(e.or_with(Operand::Layout(*a), Operand::None)),
    };
    tri!(room_for_one_more(&g));
    g.push(1, cur);
    Ok(coalesce_flat(&g, true).to_layout())
}

/// `complement(L, M)` for a cotarget `M` that is an integer or a shape (CuTe's form, see the module
/// docs). Fails with a divisibility error when the complement cannot cover `M`.
pub const fn complement_to(a: &Layout, cotarget: &IntTuple) -> Result<Layout, Error> {
    match complement_to_impl(a, cotarget) {
        Ok(r) => Ok(r),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::Tuple(*cotarget))),
    }
}

const fn complement_to_impl(a: &Layout, cotarget: &IntTuple) -> Result<Layout, Error> {
    let mut i = 0;
    while i < cotarget.leaf_count() {
        if cotarget.leaf(i) < 1 {
            return Err(Error::new(
                Op::Complement,
                ErrorKind::InvalidShape {
                    value: cotarget.leaf(i),
                },
            ));
        }
        i += 1;
    }
    let target = tri!(cotarget.size());
    let (mut g, cur) = tri!(gaps(a));
    // rest = ceil_div(cotarget, cur), folded over the leaves of the cotarget, then its product.
    let mut rest_shape: i64 = 1;
    let mut r = cur;
    let mut i = 0;
    while i < cotarget.leaf_count() {
        let c = cotarget.leaf(i);
        rest_shape = tri!(mul(Op::Complement, rest_shape, ceil_div(c, r)));
        r = ceil_div(r, c);
        i += 1;
    }
    tri!(room_for_one_more(&g));
    g.push(rest_shape, if rest_shape == 1 { 0 } else { cur });
    let out = coalesce_flat(&g, false).to_layout();
    // The concatenation (L, L*) must reach the cotarget.
    // (saturating: a sum past i64::MAX certainly reaches the cotarget)
    let covered = tri!(a.cosize()).saturating_add(tri!(out.cosize()) - 1);
    if covered < target {
        return Err(Error::new(
            Op::Complement,
            ErrorKind::CannotCover {
                reached: covered,
                cotarget: target,
            },
        ));
    }
    Ok(out)
}
