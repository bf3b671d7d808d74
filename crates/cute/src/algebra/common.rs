//! Maximal common vectors of two layouts (paper: 应用：向量化示例, the vectorization example of the
//! right inverse).
//!
//! For layouts `A` and `B`, the largest `K` such that `A` and `B` agree on the coordinates of the
//! first `K` offsets is the size of the identity head of `A ∘ B‡`: when
//! `coalesce(A ∘ B‡) = (K:1, …)`, then `A(B‡(k)) = k = B(B‡(k))` for `k < K`. Those coordinates are
//! `⌊B‡⌋_K = B‡ ∘ K:1` (paper eq. (14)). CuTe C++ returns them as `max_common_layout(A, B)` and `K`
//! as `max_common_vector(A, B)` (`1:0` and `1` when the head is not a unit-stride mode).
//!
//! Where `A ∘ B‡` is not admissible, CuTe C++ either refuses (a static assertion) or, through its
//! weak stride-divisibility check, computes a wrong composition. Where C++ refuses, so does this
//! crate (a divisibility error). Where it computes, `K` is still well defined as the first `k` with
//! `A(B‡(k)) ≠ k`; it is then found by a bounded scan (see [`SCAN_LIMIT`]), and a divisibility error
//! is returned only when the scan cannot decide.
//!
//! | `A` | `B` | `max_common_vector` | `max_common_layout` |
//! |---|---|---|---|
//! | `(4,8):(1,4)` | `8:1` | `8` | `8:1` |
//! | `(8,8):(8,1)` | `(8,8):(8,1)` | `64` | `(8,8):(8,1)` |
//! | `(2,2,4):(1,8,2)` | `(2,2,4):(1,8,2)` | `16` | `(2,4,2):(1,4,2)` |
//! | `(4,4):(4,1)` | `4:1` | `1` | `1:0` |
//! | `(4,8,4):(32,1,8)` | `(4,2):(2,1)` | `2` | `2:4` |
//! | `(8,2):(6,3)` | `(6,6):(3,1)` | `1` | `1:0` (`A ∘ B‡` is not admissible) |
//!
//! ```
//! use cute::{max_common_layout, max_common_vector, Layout};
//! let a: Layout = "(2,2,4):(1,8,2)".parse().unwrap();
//! assert_eq!(max_common_vector(&a, &a).unwrap(), 16);
//! let r = max_common_layout(&a, &a).unwrap();
//! assert_eq!(r.to_string(), "(2,4,2):(1,4,2)");
//! for i in 0..16 {
//!     assert_eq!(a.eval(r.eval(i).unwrap()).unwrap(), i);
//! }
//! ```

use super::coalesce::{coalesce, coalesce_flat, Flat};
use super::composition::composition;
use super::inverse::right_inverse;
use crate::error::{tri, Error, Op, Operand};
use crate::layout::Layout;

/// How far [`max_common_vector`] scans `A(B‡(k)) = k` when `A ∘ B‡` is not admissible.
pub const SCAN_LIMIT: i64 = 1 << 16;

/// `B‡` and the size `K` of the unit-stride head of `coalesce(A ∘ B‡)` (`0` when there is none).
///
/// When `A ∘ B‡` is not admissible and C++ refuses it too, its error is returned. Otherwise the head
/// is still well defined by the paper: `K` is the first
/// `k` with `A(B‡(k)) ≠ k` (this is what the head of an admissible composition is, see the module
/// docs). It is then found by scanning `k` up to [`SCAN_LIMIT`]; past that, the composition's
/// divisibility error is returned.
const fn common_head(a: &Layout, b: &Layout, op: Op) -> Result<(Layout, i64), Error> {
    let inv_b = match right_inverse(b) {
        Ok(r) => r,
        Err(e) => return Err(e.retag(op)),
    };
    let ab = match composition(a, &inv_b) {
        Ok(r) => r,
        Err(e) => {
            if !cpp_composition_compiles(a, &inv_b) {
                return Err(e.retag(op));
            }
            let k = match first_miss(a, &inv_b) {
                Ok(Some(k)) => k,
                Ok(None) => return Err(e.retag(op)),
                Err(e) => return Err(e.retag(op)),
            };
            return Ok((inv_b, if k > 1 { k } else { 0 }));
        }
    };
    let common = coalesce(&ab);
    let (s, d) = common.leaf_at(0);
    Ok((inv_b, if d == 1 { s } else { 0 }))
}

/// Whether static CuTe C++ compiles `composition(A, B)` for integer layouts: its "weak" stride and
/// shape divisibility assertions, which are laxer than the paper's conditions (CUTLASS issue
/// #3177: it accepts a stride smaller than a mode it does not divide and then computes a wrong
/// layout). Mirrored so that `max_common_*` refuses exactly where C++ refuses.
const fn cpp_composition_compiles(a: &Layout, b: &Layout) -> bool {
    let f = coalesce_flat(&Flat::of(a), true);
    if f.n <= 1 {
        return true;
    }
    let mut j = 0;
    while j < b.leaf_count() {
        let (mut rest_shape, mut rest_stride) = b.leaf_at(j);
        j += 1;
        if rest_stride == 0 {
            continue;
        }
        let mut r = 0;
        while r + 1 < f.n {
            let cs = f.s[r];
            if rest_stride % cs != 0 && rest_stride >= cs {
                return false;
            }
            let m = rest_stride.unsigned_abs() as i64;
            let next_shape = (cs + m - 1) / m;
            let next_stride = (m + cs - 1) / cs * if rest_stride < 0 { -1 } else { 1 };
            if next_shape != 1 && rest_shape != 1 {
                let new_shape = if next_shape < rest_shape {
                    next_shape
                } else {
                    rest_shape
                };
                if rest_shape % new_shape != 0 {
                    return false;
                }
                rest_shape /= new_shape;
            }
            rest_stride = next_stride;
            r += 1;
        }
    }
    true
}

/// The first `k ≥ 1` with `A(B‡(k)) ≠ k`, or `|B‡|` when there is none; `None` when the scan
/// passes [`SCAN_LIMIT`] without deciding.
const fn first_miss(a: &Layout, inv_b: &Layout) -> Result<Option<i64>, Error> {
    let n = inv_b.size();
    let mut k: i64 = 1;
    while k < n {
        if k > SCAN_LIMIT {
            return Ok(None);
        }
        if tri!(a.eval(tri!(inv_b.eval(k)))) != k {
            return Ok(Some(k));
        }
        k += 1;
    }
    Ok(Some(n))
}

/// `max_common_vector(A, B)`: the largest `K` with `A(B‡(k)) = k` for all `k < K`, read off the
/// unit-stride head of `coalesce(A ∘ B‡)`; `1` when there is none (CuTe C++ semantics). Then
/// `A(R(k)) = k = B(R(k))` for `R = max_common_layout(A, B)` and every `k < K`.
///
/// ```
/// use cute::{max_common_vector, Layout};
/// let col: Layout = "(4,8):(1,4)".parse().unwrap();
/// let row: Layout = "(4,8):(8,1)".parse().unwrap();
/// let padded: Layout = "(4,8):(1,5)".parse().unwrap();
/// assert_eq!(max_common_vector(&col, &col).unwrap(), 32);
/// assert_eq!(max_common_vector(&col, &padded).unwrap(), 4); // one column at a time
/// assert_eq!(max_common_vector(&col, &row).unwrap(), 1);
/// ```
///
/// # Errors
///
/// Fails (with the composition's divisibility error) only where `A ∘ B‡` is not admissible and the
/// scan up to [`SCAN_LIMIT`] cannot decide.
pub const fn max_common_vector(a: &Layout, b: &Layout) -> Result<i64, Error> {
    if let Err(e) = a.require_integral(crate::error::Op::MaxCommonVector) {
        return Err(e);
    }
    if let Err(e) = b.require_integral(crate::error::Op::MaxCommonVector) {
        return Err(e);
    }

    match common_head(a, b, Op::MaxCommonVector) {
        Ok((_, k)) => Ok(if k == 0 { 1 } else { k }),
        Err(e) => Err(e.with(Operand::Layout(*a), Operand::Layout(*b))),
    }
}

/// `max_common_layout(A, B)`: the layout `R = B‡ ∘ K:1` of the coordinates of the first `K`
/// offsets, `K = max_common_vector(A, B)`, with `A(R(k)) = k` and `B(R(k)) = k` for every `k < |R|`;
/// `1:0` when the head of `coalesce(A ∘ B‡)` is not a unit-stride mode (CuTe C++ semantics).
///
/// ```
/// use cute::{max_common_layout, Layout};
/// let col: Layout = "(4,8):(1,4)".parse().unwrap();
/// let padded: Layout = "(4,8):(1,5)".parse().unwrap();
/// let row: Layout = "(4,8):(8,1)".parse().unwrap();
/// assert_eq!(max_common_layout(&col, &padded).unwrap().to_string(), "4:1");
/// assert_eq!(max_common_layout(&col, &row).unwrap().to_string(), "1:0");
/// ```
///
/// # Errors
///
/// Fails (with a divisibility error) where `A ∘ B‡` is not admissible and the scan up to
/// [`SCAN_LIMIT`] cannot decide, or where `B‡ ∘ K:1` is not admissible.
pub const fn max_common_layout(a: &Layout, b: &Layout) -> Result<Layout, Error> {
    if let Err(e) = a.require_integral(crate::error::Op::MaxCommonLayout) {
        return Err(e);
    }
    if let Err(e) = b.require_integral(crate::error::Op::MaxCommonLayout) {
        return Err(e);
    }

    match max_common_layout_impl(a, b) {
        Ok(r) => Ok(r),
        Err(e) => Err(e.with(Operand::Layout(*a), Operand::Layout(*b))),
    }
}

const fn max_common_layout_impl(a: &Layout, b: &Layout) -> Result<Layout, Error> {
    let op = Op::MaxCommonLayout;
    let (inv_b, k) = tri!(common_head(a, b, op));
    if k == 0 {
        return Ok(Layout::TRIVIAL);
    }
    let head = tri!(Layout::leaf(k, 1));
    match composition(&inv_b, &head) {
        Ok(r) => Ok(r),
        Err(e) => Err(e.retag(op)),
    }
}
