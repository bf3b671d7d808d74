//! Integer helpers of the algebra that need nothing else of the crate (the bottom of the module
//! layering): division with remainder without the hardware divider where it can be avoided, the
//! rounded-up quotient, the quotients rounded down and up for any signs (on `i128`, for the
//! searches over coefficient windows), and the greatest common divisor.
//!
//! The overflow-checked `add` and `mul`, which name the operation in their error, live with the
//! errors (`crate::error`).

/// `(a / b, a % b)` for `a ≥ 0`, `b > 0`, avoiding the hardware divider (tens of cycles, and the
/// base case divides several times per mode) when `b` is a power of two or the quotient is below 8.
#[inline(always)]
pub(crate) const fn div_rem(a: i64, b: i64) -> (i64, i64) {
    if a < b {
        (0, a)
    } else if b & (b - 1) == 0 {
        (a >> b.trailing_zeros(), a & (b - 1))
    } else if a >> 3 < b {
        // 1 ≤ a / b < 8: a few subtractions.
        let (mut q, mut r) = (1, a - b);
        while r >= b {
            r -= b;
            q += 1;
        }
        (q, r)
    } else {
        (a / b, a % b)
    }
}

/// `⌈a / b⌉` for `a ≥ 0`, `b ≥ 1`, without overflow; the division skipped where [`div_rem`] can.
pub(crate) const fn ceil_div(a: i64, b: i64) -> i64 {
    let (q, r) = div_rem(a, b);
    q + if r != 0 { 1 } else { 0 }
}

/// `⌊a / b⌋` for `b ≠ 0`, any signs (rounded toward −∞; `i128` so that the windows of the
/// complement's and the inverses' searches, sums of `i64` bounds, cannot overflow).
pub(crate) const fn floor_div_wide(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `⌈a / b⌉` for `b ≠ 0`, any signs (rounded toward +∞), on `i128` as [`floor_div_wide`].
pub(crate) const fn ceil_div_wide(a: i128, b: i128) -> i128 {
    -floor_div_wide(-a, b)
}

/// The greatest common divisor, non-negative (`gcd(0, 0) = 0`).
pub(crate) const fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    if a < 0 {
        -a
    } else {
        a
    }
}
