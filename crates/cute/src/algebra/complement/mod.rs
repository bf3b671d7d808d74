//! Complement (paper: 补集 “complement set”): the layout of the offsets a layout does not reach.
//!
//! The complement `L*` is weakly congruent to the codomain (15), disjoint from the image of `L` on
//! the whole extended domain of `L*` (16), and ordered (17). Conditions (15)-(17) admit many
//! complements (`1:32` and `1:64` both complement `(4,8):(1,4)`); the one returned here fills the
//! holes of the image as the divisible-chain construction does, and always keeps the copies of `L`
//! disjoint: `(L, L*)` is injective on `Z(filter(L))` × the extended domain of `L*`, which (16)
//! implies but does not require, and which a product `(A, A* ∘ B)` needs to be injective.
//!
//! **Construction**, for every layout whose `filter` is injective (any order of strides; a stride
//! `-d` counts as `d`, since the mode `s:-d` reaches the offsets of `s:d` shifted by `-(s-1)·d`, and
//! a shift of `L` changes neither (16) nor the injectivity of `(L, L*)`). The modes of `filter(L)`,
//! sorted by stride, are cut into *groups*: a mode starts a new group when its stride is at least
//! the extent `e` of the group before it, and joins that group otherwise (its stride falls inside:
//! the strides interleave). A group has the gcd `g` of its strides and the extent
//! `e = Σ (s-1)·d + g` (`d·s` for a single mode); a group whose gcd falls below the extent of the
//! group before it takes that group in too. Before each group the complement gets the gap
//! `⌊g / e_prev⌋ : e_prev` (`e_prev = 1` before the first), and after the last the trailing mode
//! `1 : e_last`. Everything before a group lies in `[0, e_prev)`, so with its gap in `[0, g)`;
//! the group's offsets are multiples of `g` and distinct: each translate is disjoint, and the
//! whole block lies in `[0, e)`. A chain of single-mode groups is the divisible-chain
//! construction of CuTe and of the paper (then `(L, L*)` is a bijection onto an interval when each
//! stride is a multiple of the extent before it). Inside an interleaved group only the residues
//! modulo its gcd are filled (by the gap before it): a choice, made so that the rule stays one pass
//! and exact, not a proof that no complement fills more. Whether an interleaved group is injective is
//! decided by an exact bounded search (`find_collision`, in [`geometry`](crate::geometry)); a
//! layout whose `filter` is not injective is refused with two indices that meet.
//!
//! Without a cotarget the paper's form is returned: the gaps followed by the trailing size-1 mode
//! whose stride is the next value of the extended domain (`complement((4,8):(1,8)) = (2,1):(4,64)`;
//! CuTe C++ prints the image-only form `2:4`, which fails (16) past its size). With a cotarget (an
//! integer or a shape) the result is CuTe's: the gaps and then enough repetitions of the last extent
//! to reach the cotarget (`cosize((L, L*)) ≥ |M|`); where CuTe's count falls short (strides that
//! are not a divisible chain) the repetitions go on until it is reached.
//!
//! | `L` | cotarget | `L*` |
//! |---|---|---|
//! | `(4,8):(1,4)` | — | `1:32` |
//! | `(4,8):(1,8)` | — | `(2,1):(4,64)` |
//! | `((2,2),(2,4)):((0,2),(0,4))` | — | `(2,1):(1,16)` |
//! | `(2,2):(3,2)` (interleaved) | — | `1:6` |
//! | `(2,5):(44,16)` (interleaved, gcd 4) | — | `(4,1):(1,112)` |
//! | `(2,2,8):(3,2,100)` | — | `(16,1):(6,800)` |
//! | `(3,2):(2,-1)` | — | `1:6` |
//! | `8:3` | `24` | `3:1` |
//! | `(4,8):(1,8)` | `64` | `2:4` |
//! | `(2,5):(44,16)` | `10` | `4:1` |
//! | `(2,4):(3,8)` | `64` | `(3,3):(1,32)` (CuTe: `(3,2):(1,32)`, short of 64) |
//! | `(2,2):(1,1)` | — | error: indices 1 and 2 reach the same offset |
//!
//! ```
//! use cute::{complement, complement_to, Layout, IntTuple};
//! let l: Layout = "(4,8):(1,8)".parse().unwrap();
//! assert_eq!(complement(&l).unwrap().to_string(), "(2,1):(4,64)");
//! let l: Layout = "8:3".parse().unwrap();
//! assert_eq!(complement_to(&l, &IntTuple::int(24)).unwrap().to_string(), "3:1");
//! // interleaved strides: the image {0,3,2,5} is injective
//! let l: Layout = "(2,2):(3,2)".parse().unwrap();
//! assert_eq!(complement(&l).unwrap().to_string(), "1:6");
//! let l: Layout = "(2,5):(44,16)".parse().unwrap();
//! assert_eq!(complement_to(&l, &IntTuple::int(10)).unwrap().to_string(), "4:1");
//! let l: Layout = "(2,2):(1,1)".parse().unwrap();
//! assert_eq!(complement(&l).unwrap_err().category(), "NotInjective");
//! ```

pub(crate) mod integer;

use crate::error::Error;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// `complement(L)` in the paper's form (see the module docs), for every integer layout whose
/// `filter` is injective, whatever the order and sign of its strides.
///
/// ```
/// use cute::{complement, Layout};
/// let l: Layout = "(4,8):(1,8)".parse().unwrap();
/// assert_eq!(complement(&l).unwrap().to_string(), "(2,1):(4,64)"); // Table 7
/// let l: Layout = "(4,8):(1,4)".parse().unwrap();
/// assert_eq!(complement(&l).unwrap().to_string(), "1:32");
/// let e = complement(&"(2,2):(1,1)".parse().unwrap()).unwrap_err();
/// assert_eq!(e.to_string(), "complement (2,2):(1,1): the layout is not injective: indices 1 and 2 reach the same offset");
/// // binary strides with power-of-two extents: a basis completion over GF(2)
/// let l: Layout = "(2,2):(F1,F4)".parse().unwrap();
/// assert_eq!(complement(&l).unwrap().to_string(), "(2,1):(F2,F8)");
/// ```
///
/// Coordinate strides: one integer complement per axis. Binary strides: where every extent is a
/// power of two, the value bits that the reduced echelon form of the layout's columns does not
/// pivot on, then the trailing size-1 mode, so `(L, L*)` is a bijection onto `[0, 2^m)`; a binary
/// layout with another extent and at most 1024 indices gets the trailing mode alone (disjoint by
/// (16), after checking injectivity by evaluation).
///
/// # Errors
///
/// Fails when `filter(L)` is not injective (`NotInjective`, naming two indices that meet), on
/// overflow, or when the injectivity search of interleaved strides passes its bound
/// (`Unsupported`); binary strides with an extent that is not a power of two past 1024 indices
/// (`Unsupported`).
pub const fn complement(a: &Layout) -> Result<Layout, Error> {
    if !a.is_integral() {
        return super::semimodule::complement_semimodule(a);
    }
    integer::complement_integral(a)
}

/// `complement(L, M)` for a cotarget `M` that is an integer or a shape (CuTe's form, see the module
/// docs): `(L, L*)` reaches `|M|`.
///
/// ```
/// use cute::{complement_to, IntTuple, Layout};
/// let l: Layout = "4:1".parse().unwrap();
/// assert_eq!(complement_to(&l, &IntTuple::int(8)).unwrap().to_string(), "2:4");
/// let l: Layout = "8:3".parse().unwrap();
/// assert_eq!(complement_to(&l, &IntTuple::int(24)).unwrap().to_string(), "3:1");
/// // binary strides: the value bits below 32 that the layout does not span
/// let l: Layout = "(2,2):(F1,F4)".parse().unwrap();
/// assert_eq!(complement_to(&l, &IntTuple::int(32)).unwrap().to_string(), "(2,4):(F2,F8)");
/// ```
///
/// # Errors
///
/// Fails when `filter(L)` is not injective (`NotInjective`, naming two indices that meet), on
/// overflow, or when the injectivity search of interleaved strides passes its bound
/// (`Unsupported`); for binary strides, a shape as the cotarget or an extent that is not a power
/// of two (`Unsupported`).
pub const fn complement_to(a: &Layout, cotarget: &IntTuple) -> Result<Layout, Error> {
    if !a.is_integral() {
        return super::semimodule::complement_to_semimodule(a, cotarget);
    }
    integer::complement_to_integral(a, cotarget)
}
