//! Domain distribution: spread a number of elements over the modes of a shape.
//!
//! `domain_distribute(S, n)` (CuTe C++) takes, mode by mode in column-major order over the leaves of
//! `S`, the largest part of the remaining count `n` that divides the leaf: `g_i = gcd(s_i, n_i)`,
//! `n_{i+1} = n_i / g_i`. The result is `coalesce(g : S̄)`, where `S̄` are the compact column-major
//! strides of `S`: an ordered, injective layout into the domain of `make_layout(S)` whose size
//! divides `n` (it is `n` unless the shape cannot absorb all of it), so that `S` can be divided by
//! it.
//!
//! | `S` | `n` | result |
//! |---|---|---|
//! | `(15,14)` | `6` | `(3,2):(1,15)` |
//! | `(192,(8,8))` | `1024` | `(64,16):(1,192)` |
//! | `(6,(4,8))` | `256` | `(2,32):(1,6)` |
//! | `(128,2)` | `512` | `256:1` |
//!
//! ```
//! use cute::{domain_distribute, IntTuple};
//! let s: IntTuple = "(15,14)".parse().unwrap();
//! assert_eq!(domain_distribute(&s, 6).unwrap().to_string(), "(3,2):(1,15)");
//! ```

use super::coalesce::{coalesce_flat, Flat};
use crate::arith::gcd;
use crate::error::{mul, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::IntTuple;

/// `domain_distribute(S, n)` for a shape `S` and a count `n ≥ 1` (see the module docs).
///
/// ```
/// use cute::{domain_distribute, IntTuple};
/// let s: IntTuple = "(192,(8,8))".parse().unwrap();
/// assert_eq!(domain_distribute(&s, 1024).unwrap().to_string(), "(64,16):(1,192)");
/// let s: IntTuple = "(128,2)".parse().unwrap();
/// assert_eq!(domain_distribute(&s, 512).unwrap().to_string(), "256:1");
/// assert_eq!(domain_distribute(&s, 0).unwrap_err().to_string(), "domain_distribute (128,2), 0: shape entries must be positive integers, found 0");
/// ```
///
/// # Errors
///
/// Fails with `InvalidShape` when `n < 1` or `S` has a non-positive entry.
pub const fn domain_distribute(shape: &IntTuple, n: i64) -> Result<crate::layout::Layout, Error> {
    match distribute_flat(shape, n) {
        Ok(f) => Ok(coalesce_flat(&f, false).to_layout()),
        Err(e) => Err(e.or_with(Operand::Tuple(*shape), Operand::Int(n))),
    }
}

const fn distribute_flat(shape: &IntTuple, n: i64) -> Result<Flat, Error> {
    let op = Op::DomainDistribute;
    if n < 1 {
        return Err(Error::new(op, ErrorKind::InvalidShape { value: n }));
    }
    let mut out = Flat::EMPTY;
    let mut rest = n;
    let mut p: i64 = 1;
    let mut i = 0;
    while i < shape.leaf_count() {
        let s = shape.leaf(i);
        if s < 1 {
            return Err(Error::new(op, ErrorKind::InvalidShape { value: s }));
        }
        let g = gcd(s, rest);
        out.push(g, if s == 1 { 0 } else { p });
        rest /= g;
        p = tri!(mul(op, p, s));
        i += 1;
    }
    Ok(out)
}
