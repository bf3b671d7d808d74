//! The distributivity condition (12) of composition: the leaves of the right operand, added,
//! must not carry across a mode boundary of the coalesced left operand.

use super::base_case::Modes;
use crate::arith::gcd;
use crate::error::{Error, ErrorKind, Op};
use crate::int_tuple::CAPACITY;

/// The distributivity condition (12): adding the values of the leaves of `B` must not carry across a
/// mode boundary of `A` (the boundaries are the prefix products `S̄_r`, `r ≥ 1`, of the coalesced
/// `A`). For each boundary `P`, the largest residues `max_c (c·d_i mod P)` of the leaves must sum to
/// less than `P`.
pub(super) const fn check_distributive(
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
