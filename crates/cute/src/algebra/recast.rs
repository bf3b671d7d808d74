//! Upcast, downcast and recast: a layout of elements re-expressed in elements of another size.
//!
//! All three act leaf by leaf and keep the profile of the layout.
//!
//! * `upcast(L, n)` (CuTe C++ `upcast<n>`): `n` old elements become one new element. A leaf `s:d`
//!   with `d = 0` is kept; otherwise `|d|` and `n` must divide one another (else a divisibility
//!   error), and the leaf becomes `⌈s / ⌈n/|d|⌉⌉ : sign(d)·⌈|d|/n⌉`: a unit-stride leaf shrinks, a
//!   larger stride is divided.
//! * `downcast(L, n)` (CuTe C++ `downcast<n>`): one old element becomes `n` new ones. `L` must have
//!   a leaf of stride 1 ("Downcast requires adjacent elements", a divisibility error); leaves of
//!   stride ±1 get shape `s·n`, the others stride `d·n`.
//! * `recast(L, num/den)` (PyCuTe `recast(L, scale)`): the new element is `scale = num/den` old
//!   elements (`scale = 8` packs, `scale = 1/2` unpacks). A leaf with `d = 0` is kept; with `d = 1`
//!   it becomes `⌈s/scale⌉ : 1`; otherwise `d` and `scale` must divide one another (as rationals:
//!   `d/scale` or `scale/d` an integer, else a divisibility error), the shape is divided (rounding
//!   up) by `scale/d` when that is an integer and the stride becomes `d/scale` when that is an
//!   integer, else `1`. A negative stride `d` is treated as `−|d|`: the rule applies to `|d|` and
//!   the sign is kept (PyCuTe does not define that case; this matches `upcast`).
//!
//! | call | result |
//! |---|---|
//! | `upcast((8,4,4):(4,1,96), 2)` | `(8,2,4):(2,1,48)` |
//! | `upcast((2,8):(1,4), 2)` | `(1,8):(1,2)` |
//! | `upcast(4:3, 2)` | error: 2 and 3 divide neither way |
//! | `downcast((4,4):(4,1), 2)` | `(4,8):(8,1)` |
//! | `recast((4,4):(4,1), 4)` | `(4,1):(1,1)` |
//! | `recast(24:2, 4)` | `12:1` |
//! | `recast((5,4):(1,5), 1/2)` | `(10,4):(1,10)` |
//!
//! ```
//! use cute::{downcast, recast, upcast, Layout};
//! let l: Layout = "(8,4,4):(4,1,96)".parse().unwrap();
//! assert_eq!(upcast(&l, 2).unwrap().to_string(), "(8,2,4):(2,1,48)");
//! let l: Layout = "(4,4):(4,1)".parse().unwrap();
//! assert_eq!(downcast(&l, 2).unwrap().to_string(), "(4,8):(8,1)");
//! let l: Layout = "(5,4):(1,5)".parse().unwrap();
//! assert_eq!(recast(&l, 1, 2).unwrap().to_string(), "(10,4):(1,10)");
//! ```

use crate::arith::ceil_div;
use crate::error::{mul, tri, Error, ErrorKind, Op, Operand};
use crate::layout::Layout;

const fn nonpositive_factor(op: Op) -> Error {
    Error::new(
        op,
        ErrorKind::Unsupported {
            what: "a scale factor that is not a positive integer or fraction",
        },
    )
}

/// `upcast<n>(L)`: `n` elements become one (see the module docs).
///
/// ```
/// use cute::{upcast, Layout};
/// let l: Layout = "(2,8):(1,4)".parse().unwrap();
/// assert_eq!(upcast(&l, 2).unwrap().to_string(), "(1,8):(1,2)");
/// let e = upcast(&"4:3".parse().unwrap(), 2).unwrap_err();
/// assert_eq!(e.to_string(), "upcast 4:3, 2: upcast divisibility condition (the stride and the factor must divide one another) at mode 0: 2 does not divide 3");
/// ```
///
/// # Errors
///
/// Fails with a divisibility error when a non-zero stride and `n` divide neither way, and for `n <
/// 1`.
pub const fn upcast(a: &Layout, n: i64) -> Result<Layout, Error> {
    if let Err(e) = a.require_integral(crate::error::Op::Upcast) {
        return Err(e);
    }

    match upcast_impl(a, n) {
        Ok(r) => Ok(r),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::Int(n))),
    }
}

const fn upcast_impl(a: &Layout, n: i64) -> Result<Layout, Error> {
    let op = Op::Upcast;
    if n < 1 {
        return Err(nonpositive_factor(op));
    }
    let mut out = *a;
    let mut i = 0;
    while i < a.tree.len() {
        let (s, d) = (a.shape[i], a.stride[i]);
        if d != 0 {
            let m = d.unsigned_abs();
            let nu = n as u64;
            if !m.is_multiple_of(nu) && !nu.is_multiple_of(m) {
                return Err(Error::new(
                    op,
                    ErrorKind::Divisibility {
                        mode: i,
                        value: if m > nu { d } else { n },
                        divisor: if m > nu { n } else { d },
                        what: "upcast divisibility condition (the stride and the factor must \
                               divide one another)",
                    },
                ));
            }
            // |d| ≤ 2^63 and n ≥ 1: `shrink` fits in i64, and so does `stride` except for
            // d = i64::MIN with n = 1, where |d| / 1 = 2^63 and the signed result is d itself.
            let shrink = nu.div_ceil(m) as i64;
            let stride = m.div_ceil(nu);
            out.shape[i] = ceil_div(s, shrink);
            out.stride[i] = if d < 0 {
                // 2^63 reinterpreted is i64::MIN, whose negation wraps to itself, as wanted.
                (stride as i64).wrapping_neg()
            } else {
                stride as i64
            };
        }
        i += 1;
    }
    Ok(out)
}

/// `downcast<n>(L)`: one element becomes `n` (see the module docs).
///
/// ```
/// use cute::{downcast, Layout};
/// let l: Layout = "(8,4,4):(4,1,96)".parse().unwrap();
/// assert_eq!(downcast(&l, 2).unwrap().to_string(), "(8,8,4):(8,1,192)");
/// let e = downcast(&"4:2".parse().unwrap(), 2).unwrap_err();
/// assert_eq!(e.to_string(), "downcast 4:2, 2: downcast requires adjacent elements: no leaf has stride 1, the smallest stride is at mode 0: 2 does not divide 1");
/// ```
///
/// # Errors
///
/// Fails with a divisibility error when no leaf has stride 1, for `n < 1`, and on overflow.
pub const fn downcast(a: &Layout, n: i64) -> Result<Layout, Error> {
    if let Err(e) = a.require_integral(crate::error::Op::Downcast) {
        return Err(e);
    }

    match downcast_impl(a, n) {
        Ok(r) => Ok(r),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::Int(n))),
    }
}

const fn downcast_impl(a: &Layout, n: i64) -> Result<Layout, Error> {
    let op = Op::Downcast;
    if n < 1 {
        return Err(nonpositive_factor(op));
    }
    let len = a.tree.len();
    // The leaf with the smallest non-zero |stride| (the first one on ties), for the message.
    let mut best = 0;
    let mut i = 0;
    while i < len {
        let m = a.stride[i].unsigned_abs();
        let b = a.stride[best].unsigned_abs();
        if a.stride[i] == 1 {
            best = i;
            break;
        }
        if m != 0 && (b == 0 || m < b) {
            best = i;
        }
        i += 1;
    }
    if a.stride[best] != 1 {
        return Err(Error::new(
            op,
            ErrorKind::Divisibility {
                mode: best,
                value: 1,
                divisor: a.stride[best],
                what: "downcast requires adjacent elements: no leaf has stride 1, the smallest \
                       stride is",
            },
        ));
    }
    let mut out = *a;
    let mut i = 0;
    while i < len {
        let (s, d) = (a.shape[i], a.stride[i]);
        if d == 1 || d == -1 {
            out.shape[i] = tri!(mul(op, s, n));
        } else {
            out.stride[i] = tri!(mul(op, d, n));
        }
        i += 1;
    }
    // The size grew by n per unit-stride leaf: validate it.
    Layout::from_parts((out.tree, out.shape, out.stride), op)
}

/// `recast(L, num/den)`: PyCuTe's recast to elements of `num/den` old elements (see the module
/// docs).
///
/// ```
/// use cute::{recast, Layout};
/// let l: Layout = "24:2".parse().unwrap();
/// assert_eq!(recast(&l, 4, 1).unwrap().to_string(), "12:1");
/// let l: Layout = "(4,4):(4,1)".parse().unwrap();
/// assert_eq!(recast(&l, 4, 1).unwrap().to_string(), "(4,1):(1,1)");
/// ```
///
/// # Errors
///
/// Fails with a divisibility error when a stride other than 0 and 1 and the scale divide neither
/// way, for a non-positive `num` or `den`, and on overflow.
pub const fn recast(a: &Layout, num: i64, den: i64) -> Result<Layout, Error> {
    if !a.is_integral() {
        // Only the zero of F2 recasts (PyCuTe keeps `F0`; any other binary or coordinate stride
        // has no unit to rescale by there): as the zero layout, the codes put back.
        let mut zero = *a;
        let mut i = 0;
        while i < zero.tree.len() {
            if zero.stride[i] != 0 {
                return match a.require_integral(crate::error::Op::Recast) {
                    Err(e) => Err(e),
                    Ok(()) => Ok(*a),
                };
            }
            zero.basis[i] = 0;
            i += 1;
        }
        let mut r = match recast_impl(&zero, num, den) {
            Ok(r) => r,
            Err(e) => return Err(e.or_with(Operand::Layout(*a), Operand::None)),
        };
        let mut i = 0;
        while i < r.tree.len() {
            r.basis[i] = crate::stride::BINARY;
            i += 1;
        }
        return Ok(r);
    }

    match recast_impl(a, num, den) {
        Ok(r) => Ok(r),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::None)),
    }
}

const fn recast_impl(a: &Layout, num: i64, den: i64) -> Result<Layout, Error> {
    let op = Op::Recast;
    if num < 1 || den < 1 {
        return Err(nonpositive_factor(op));
    }
    let g = crate::arith::gcd(num, den);
    let (num, den) = (num / g, den / g);
    let mut out = *a;
    let mut i = 0;
    while i < a.tree.len() {
        let (s, d) = (a.shape[i], a.stride[i]);
        if d == 1 || d == -1 {
            // ⌈s / (num/den)⌉ = ⌈s·den / num⌉
            out.shape[i] = ceil_div(tri!(mul(op, s, den)), num);
        } else if d != 0 {
            let m = if d < 0 { -(d as i128) } else { d as i128 } * den as i128;
            // d/scale = |d|·den/num, scale/d = num/(|d|·den)
            let d_over = m % num as i128 == 0;
            let over_d = (num as i128) % m == 0;
            if !d_over && !over_d {
                return Err(Error::new(
                    op,
                    ErrorKind::Divisibility {
                        mode: i,
                        value: d,
                        divisor: num,
                        what: "recast divisibility condition (the stride and the scale must \
                               divide one another)",
                    },
                ));
            }
            if over_d {
                out.shape[i] = ceil_div(s, (num as i128 / m) as i64);
            }
            let q = if d_over { m / num as i128 } else { 1 };
            if q > i64::MAX as i128 {
                return Err(Error::new(
                    op,
                    ErrorKind::Overflow {
                        what: "a recast stride",
                    },
                ));
            }
            out.stride[i] = if d < 0 { -(q as i64) } else { q as i64 };
        }
        i += 1;
    }
    Layout::from_parts((out.tree, out.shape, out.stride), op)
}
