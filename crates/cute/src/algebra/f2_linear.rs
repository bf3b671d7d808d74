//! Left inverse and complement of binary (F2) layouts by linear algebra over GF(2).
//!
//! When every extent of a binary layout `L` is a power of two, the bits of an index are the bits of
//! its coordinates side by side, and `L` is a GF(2)-linear map from the index bits to the value
//! bits: the index bit `t` (bit `j` of the coordinate of a leaf `2^k : f_d` whose weight is `2^w`,
//! `t = w + j`) maps to the column `d << j`. Gaussian elimination of these columns decides
//! everything exactly:
//!
//! * `L` is injective iff the columns are independent; otherwise a combination of columns that
//!   XORs to zero is an index `i ≠ 0` with `L(i) = L(0) = 0`, the witness of the refusal.
//! * A left inverse (`R(L(i)) = i`) is the linear map that sends each pivot bit of the reduced
//!   echelon form to the combination of index bits that produced its row, and every other value bit
//!   to 0: the layout `(2,…,2)` over the value bits with those F2 strides, coalesced.
//! * A complement is a basis completion: the value bits that are not pivots, each `2 : f_(2^b)`,
//!   then the trailing size-1 mode `1 : f_(2^m)` past the `m` value bits the columns span (the
//!   paper's form, as for integer strides). `(L, L*)` is then a bijection onto `[0, 2^m)` and, with
//!   the trailing mode's extended domain, onto every value.
//!
//! Leaves with stride 0 are left out (as in the integer left inverse and complement: the law is
//! asked of the other coordinates).
//!
//! | `L` | operation | result |
//! |---|---|---|
//! | `(4,4):(F1,F5)` | `left_inverse` | `(4,4):(F1,F5)` |
//! | `(2,2):(F1,F4)` | `complement` | `(2,1):(F2,F8)` |
//! | `(2,2):(F1,F4)` | `complement_to` 32 | `(2,4):(F2,F8)` |
//! | `(2,2):(F3,F3)` | `left_inverse` | error: indices 0 and 3 meet |

use super::coalesce::{coalesce_z, Flat};
use crate::error::{Error, ErrorKind, Op};
use crate::int_tuple::CAPACITY;
use crate::layout::Layout;
use crate::stride::BINARY;

/// The reduced row echelon form of the columns of a binary layout.
struct Echelon {
    /// The number of rows.
    r: usize,
    /// Each row's value bits (its pivot is its top bit; no other row has a bit there).
    w: [u64; 64],
    /// Each row's combination of index bits (the index whose value is the row).
    c: [u64; 64],
    /// The pivot bit of each row.
    p: [u32; 64],
    /// The OR of every column: the value bits the layout reaches.
    span: u64,
    /// What the elimination found: [`Found::Independent`] columns (reduced above), a kernel index,
    /// or an extent that is not a power of two.
    found: Found,
}

/// What the elimination found.
#[derive(Clone, Copy)]
enum Found {
    /// Independent columns, reduced.
    Independent,
    /// A nonzero index that the layout sends to 0 (as it sends index 0).
    Kernel(i64),
    /// An extent that is not a power of two: the layout is not linear over GF(2).
    NotLinear,
}

/// The extent `s` as `log2(s)`, or `None` when it is not a power of two.
const fn log2(s: i64) -> Option<u32> {
    if s > 0 && s & (s - 1) == 0 {
        Some(s.trailing_zeros())
    } else {
        None
    }
}

/// The elimination of the columns of the binary layout `a`; the [`ErrorKind::Overflow`] of `op` when
/// a column does not fit in 64 bits.
const fn eliminate(a: &Layout, op: Op) -> Result<Echelon, Error> {
    let mut e = Echelon {
        r: 0,
        w: [0; 64],
        c: [0; 64],
        p: [0; 64],
        span: 0,
        found: Found::Independent,
    };
    let mut weight: u32 = 0;
    let mut i = 0;
    while i < a.tree.len() {
        let Some(k) = log2(a.shape[i]) else {
            e.found = Found::NotLinear;
            return Ok(e);
        };
        let d = a.stride[i] as u64;
        let mut j = 0;
        while j < k {
            if d != 0 {
                if d.leading_zeros() < j {
                    return Err(Error::new(
                        op,
                        ErrorKind::Overflow {
                            what: "a binary stride shifted by a coordinate bit",
                        },
                    ));
                }
                let mut x = d << j;
                e.span |= x;
                let mut comb: u64 = 1 << (weight + j);
                let mut q = 0;
                while q < e.r {
                    if x & (1 << e.p[q]) != 0 {
                        x ^= e.w[q];
                        comb ^= e.c[q];
                    }
                    q += 1;
                }
                if x == 0 {
                    e.found = Found::Kernel(comb as i64);
                    return Ok(e);
                }
                let top = 63 - x.leading_zeros();
                let mut q = 0;
                while q < e.r {
                    if e.w[q] & (1 << top) != 0 {
                        e.w[q] ^= x;
                        e.c[q] ^= comb;
                    }
                    q += 1;
                }
                e.w[e.r] = x;
                e.c[e.r] = comb;
                e.p[e.r] = top;
                e.r += 1;
            }
            j += 1;
        }
        weight += k;
        i += 1;
    }
    Ok(e)
}

/// [`eliminate`] for an operation that needs `a` injective: `None` when `a` is not linear over
/// GF(2), the [`ErrorKind::Collision`] of `op` between index 0 and a nonzero index that `a` also
/// sends to 0, else the reduced columns.
const fn eliminate_injective(a: &Layout, op: Op) -> Option<Result<Echelon, Error>> {
    let e = match eliminate(a, op) {
        Ok(e) => e,
        Err(err) => return Some(Err(err)),
    };
    match e.found {
        Found::Independent => Some(Ok(e)),
        Found::Kernel(i) => Some(Err(Error::new(
            op,
            ErrorKind::Collision {
                first: 0,
                second: i,
            },
        ))),
        Found::NotLinear => None,
    }
}

/// Appends `2 : f_d` (`d = 0` an integer zero) to `f`, merged into the mode before it where the two
/// coalesce; the [`ErrorKind::Capacity`] of `op` past [`CAPACITY`] modes.
const fn push_bit(f: &mut Flat, d: u64, op: Op) -> Result<(), Error> {
    if f.n > 0 {
        let (s, pd) = (f.s[f.n - 1], f.d[f.n - 1] as u64);
        let shift = s.trailing_zeros();
        if (pd == 0 && d == 0)
            || (pd != 0 && shift < 64 && pd.leading_zeros() >= shift && pd << shift == d)
        {
            f.s[f.n - 1] = s * 2;
            return Ok(());
        }
    }
    if f.n >= CAPACITY {
        return Err(Error::new(
            op,
            ErrorKind::Capacity {
                what: "number of modes of the result",
                limit: CAPACITY,
            },
        ));
    }
    f.push_basis(2, d as i64, if d == 0 { 0 } else { BINARY });
    Ok(())
}

/// The number of value bits in `span` (one past its top bit).
const fn bits(span: u64) -> u32 {
    64 - span.leading_zeros()
}

/// The GF(2) left inverse of the binary layout `a` (see the module docs): `None` when an extent is
/// not a power of two (the layout is not linear over GF(2)), else the layout `R` with `R(L(i)) = i`
/// for every index whose stride-0 coordinates are 0, or a [`ErrorKind::Collision`] of two indices
/// that `L` sends to the same value (then no left inverse exists).
pub(crate) const fn left_inverse_f2(a: &Layout) -> Option<Result<Layout, Error>> {
    let op = Op::LeftInverse;
    let e = match eliminate_injective(a, op) {
        Some(Ok(e)) => e,
        Some(Err(err)) => return Some(Err(err)),
        None => return None,
    };
    let m = bits(e.span);
    if m > 62 {
        // the domain of R, the values below 2^m, passes i64
        return Some(Err(Error::new(
            op,
            ErrorKind::Overflow {
                what: "the size of the left inverse",
            },
        )));
    }
    let mut f = Flat::EMPTY;
    let mut b = 0;
    while b < m {
        let mut d: u64 = 0;
        let mut q = 0;
        while q < e.r {
            if e.p[q] == b {
                d = e.c[q];
            }
            q += 1;
        }
        if let Err(err) = push_bit(&mut f, d, op) {
            return Some(Err(err));
        }
        b += 1;
    }
    if f.n == 0 {
        return Some(Ok(Layout::TRIVIAL));
    }
    Some(Ok(coalesce_z(&f.to_layout())))
}

/// The GF(2) complement of the binary layout `a` (see the module docs): `None` when an extent is not
/// a power of two, else the value bits that are not pivots and the trailing size-1 mode, or a
/// [`ErrorKind::Collision`] when the nonzero-stride leaves of `a` are not injective. With a
/// cotarget `to` (a number of values), the value bits that are not pivots below the larger of the
/// layout's span and `⌈log2 to⌉`, without the trailing mode (CuTe's form with a cotarget: `(L, C)`
/// is then a bijection onto `[0, 2^t)`, at least `to` values).
pub(crate) const fn complement_f2(a: &Layout, to: Option<i64>) -> Option<Result<Layout, Error>> {
    let op = Op::Complement;
    let e = match eliminate_injective(a, op) {
        Some(Ok(e)) => e,
        Some(Err(err)) => return Some(Err(err)),
        None => return None,
    };
    let mut m = bits(e.span);
    if let Some(to) = to {
        let t = if to <= 1 { 0 } else { bits((to - 1) as u64) };
        if t > m {
            m = t;
        }
    }
    if m > 62 {
        // the trailing stride 2^m passes i64
        return Some(Err(Error::new(
            op,
            ErrorKind::Overflow {
                what: "the trailing stride of the complement",
            },
        )));
    }
    let mut pivots: u64 = 0;
    let mut q = 0;
    while q < e.r {
        pivots |= 1 << e.p[q];
        q += 1;
    }
    let mut f = Flat::EMPTY;
    let mut b = 0;
    while b < m {
        if pivots & (1 << b) == 0 {
            if let Err(err) = push_bit(&mut f, 1 << b, op) {
                return Some(Err(err));
            }
        }
        b += 1;
    }
    if f.n >= CAPACITY {
        return Some(Err(Error::new(
            op,
            ErrorKind::Capacity {
                what: "number of modes of the result",
                limit: CAPACITY,
            },
        )));
    }
    if to.is_some() {
        if f.n == 0 {
            return Some(Ok(Layout::TRIVIAL));
        }
        return Some(Ok(coalesce_z(&f.to_layout())));
    }
    f.push_basis(1, 1 << m, BINARY);
    Some(Ok(coalesce_z(&f.to_layout())))
}

/// The most indices [`left_inverse_small`] evaluates.
const SMALL: i64 = 1 << 10;

/// Whether the coordinates of index `i` on the stride-0 leaves of `a` are all 0 (the indices the
/// laws are asked of).
const fn on_law_domain(a: &Layout, mut i: i64) -> bool {
    let mut k = 0;
    while k < a.tree.len() {
        let s = a.shape[k];
        if a.stride[k] == 0 && i % s != 0 {
            return false;
        }
        i /= s;
        k += 1;
    }
    true
}

/// The left inverse of a small binary layout that is not linear over GF(2) (an extent is not a
/// power of two), by evaluation: `None` past [`SMALL`] indices or where no candidate was found; a
/// [`ErrorKind::Collision`] of two indices of the law's domain with one value (then no left inverse
/// exists); or the integer left inverse of the same strides read as integers, returned only where
/// `R(L(i)) = i` was checked at every index of the law's domain.
pub(crate) const fn left_inverse_small(a: &Layout) -> Option<Result<Layout, Error>> {
    let op = Op::LeftInverse;
    let n = a.size();
    if n > SMALL {
        return None;
    }
    let mut vals = [0i64; SMALL as usize];
    if let Err(e) = small_values(a, &mut vals, op) {
        return Some(Err(e));
    }
    // the strides read as integers
    let mut int = *a;
    let mut k = 0;
    while k < int.tree.len() {
        int.basis[k] = 0;
        k += 1;
    }
    let Ok(r) = super::inverse::integral::left_inverse_integral(&int) else {
        return None;
    };
    let mut i = 0;
    while i < n {
        if on_law_domain(a, i) && !matches!(r.eval(vals[i as usize]), Ok(x) if x == i) {
            return None;
        }
        i += 1;
    }
    Some(Ok(r))
}

/// The values of the small binary layout `a` (at most [`SMALL`] indices) into `vals`; a
/// [`ErrorKind::Collision`] of `op` when two indices of the law's domain share a value.
const fn small_values(a: &Layout, vals: &mut [i64; SMALL as usize], op: Op) -> Result<(), Error> {
    let n = a.size();
    let mut i = 0;
    while i < n {
        vals[i as usize] = match a.eval(i) {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        i += 1;
    }
    let mut i = 0;
    while i < n {
        if on_law_domain(a, i) {
            let mut j = i + 1;
            while j < n {
                if on_law_domain(a, j) && vals[i as usize] == vals[j as usize] {
                    return Err(Error::new(
                        op,
                        ErrorKind::Collision {
                            first: i,
                            second: j,
                        },
                    ));
                }
                j += 1;
            }
        }
        i += 1;
    }
    Ok(())
}

/// The complement of a small binary layout that is not linear over GF(2): `None` past [`SMALL`]
/// indices; a [`ErrorKind::Collision`] when two indices of the law's domain meet; else the trailing
/// mode alone, `1 : f_(2^m)` past the `m` value bits that `L` reaches, whose extended domain is
/// disjoint from the image of `L` (16) (no basis completion exists where the layout is not linear,
/// so the image is not filled).
pub(crate) const fn complement_small(a: &Layout) -> Option<Result<Layout, Error>> {
    let op = Op::Complement;
    let n = a.size();
    if n > SMALL {
        return None;
    }
    let mut vals = [0i64; SMALL as usize];
    if let Err(e) = small_values(a, &mut vals, op) {
        return Some(Err(e));
    }
    let mut span: u64 = 0;
    let mut i = 0;
    while i < n {
        span |= vals[i as usize] as u64;
        i += 1;
    }
    let m = bits(span);
    if m > 62 {
        return None;
    }
    let mut f = Flat::EMPTY;
    f.push_basis(1, 1 << m, BINARY);
    Some(Ok(f.to_layout()))
}

/// `R(L(i)) = i` at every index of the law's domain of the binary layout `a` (false past [`SMALL`]
/// indices or on any error).
pub(crate) const fn satisfies_left_law(a: &Layout, r: &Layout) -> bool {
    let n = a.size();
    if n > SMALL {
        return false;
    }
    let mut i = 0;
    while i < n {
        if on_law_domain(a, i) {
            let ok = match a.eval(i) {
                Ok(v) => matches!(r.eval(v), Ok(x) if x == i),
                Err(_) => false,
            };
            if !ok {
                return false;
            }
        }
        i += 1;
    }
    true
}
