//! The left inverse of a coordinate axis where PyCuTe's gaps fail: the integer left inverse of the
//! axis's *projection* (the axis's coefficients on its modes, 0 on every other mode), whose indices
//! are those of the whole layout, so the axes' results add up. Its refusals say what was decided
//! and name the user's leaf.

use super::Axis;
use crate::algebra::coalesce::Flat;
use crate::error::{mul, tri, Error, ErrorKind, Op};
use crate::int_tuple::CAPACITY;
use crate::layout::Layout;

/// The left inverse of one coordinate axis where PyCuTe's gaps fail (`e`, its error): the integer
/// [`left_inverse`](super::inverse::left_inverse) (exact: CuTe's chain, then every mixed radix) of
/// the axis's *projection*, the integer layout over the whole domain whose strides are the axis's
/// coefficients on its modes and 0 on every other mode (here: the axis's modes in the order of the
/// domain, the weights between them filled by stride-0 modes). Its indices are the indices of the
/// whole layout, so `R(A(i)) = i` for every index whose coordinates off the axis are 0, and the
/// axes' results add up. A refusal of the projection is the refusal of the axis; only the gap
/// construction's refusals (`Divisibility`, `NotInjective`) are retried, any other error stands.
pub(super) const fn left_axis_integer(ax: &Axis, e: Error) -> Result<Layout, Error> {
    if !matches!(
        e.kind(),
        ErrorKind::Divisibility { .. } | ErrorKind::NotInjective { .. }
    ) {
        return Err(e);
    }
    // the modes in the order of the domain (increasing weights)
    let mut ax = *ax;
    let mut i = 1;
    while i < ax.n {
        let mut j = i;
        while j > 0 && ax.p[j - 1] > ax.p[j] {
            let (s, d, p) = (ax.s[j], ax.d[j], ax.p[j]);
            ax.s[j] = ax.s[j - 1];
            ax.d[j] = ax.d[j - 1];
            ax.p[j] = ax.p[j - 1];
            ax.s[j - 1] = s;
            ax.d[j - 1] = d;
            ax.p[j - 1] = p;
            j -= 1;
        }
        i += 1;
    }
    let mut f = Flat::EMPTY;
    let mut weight: i64 = 1;
    let mut i = 0;
    while i < ax.n {
        if ax.s[i] != 1 {
            if f.n + 2 > CAPACITY {
                return Err(e);
            }
            if ax.p[i] > weight {
                f.push(ax.p[i] / weight, 0);
            }
            f.push(ax.s[i], ax.d[i]);
            weight = tri!(mul(Op::LeftInverse, ax.p[i], ax.s[i]));
        }
        i += 1;
    }
    if f.n == 0 {
        return Err(e);
    }
    let a = f.to_layout();
    // the law R(L(i)) = i needs an injective projection (the integer left inverse also answers
    // some layouts that are not, with the weaker law L(R(L(i))) = L(i))
    match crate::geometry::find_collision(&a, Op::LeftInverse) {
        Ok(Some((first, second))) => {
            return Err(Error::new(
                Op::LeftInverse,
                ErrorKind::Collision { first, second },
            ))
        }
        Ok(None) => {}
        Err(err) => return Err(Error::new(err.op(), *err.kind())),
    }
    match crate::algebra::inverse::integral::left_inverse_integral(&a) {
        Ok(r) => Ok(r),
        Err(err) => match *err.kind() {
            // named by the user's leaf in `left_inverse_semimodule`
            ErrorKind::Divisibility {
                value,
                divisor,
                what,
                ..
            } => Err(Error::new(
                Op::LeftInverse,
                ErrorKind::Divisibility {
                    mode: usize::MAX,
                    value,
                    divisor,
                    what: if contains(what.as_bytes(), b"decided exactly") {
                        PROJECTION_REFUSED
                    } else {
                        PROJECTION_BOUNDED
                    },
                },
            )),
            k => Err(Error::new(err.op(), k)),
        },
    }
}

/// The reason of a coordinate left inverse refused by the integer left inverse of an axis.
const PROJECTION_REFUSED: &str = "left inverse of coordinate strides: the integer left inverse of \
    one axis's projection (its coefficients, 0 on the other modes) was decided exactly over every \
    mixed radix, and none exists (only left inverses that add one integer layout per axis are \
    searched); the divisibility that CuTe's chain needs fails";

/// As [`PROJECTION_REFUSED`], where the integer search stopped at its bounds.
const PROJECTION_BOUNDED: &str = "left inverse of coordinate strides: the integer left inverse of \
    one axis's projection (its coefficients, 0 on the other modes) found none before its search \
    over mixed radices stopped at its bounds (only left inverses that add one integer layout per \
    axis are searched); the divisibility that CuTe's chain needs fails";

/// Whether `needle` occurs in `hay`.
const fn contains(hay: &[u8], needle: &[u8]) -> bool {
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        let mut j = 0;
        while j < needle.len() && hay[i + j] == needle[j] {
            j += 1;
        }
        if j == needle.len() {
            return true;
        }
        i += 1;
    }
    false
}

/// A refusal of [`left_axis_integer`] with the mode named as the first leaf of `a` whose coefficient
/// is the value that fails (the leaf of the user's layout, not of the axis's projection).
pub(super) const fn name_leaf(e: Error, a: &Layout) -> Error {
    let ErrorKind::Divisibility {
        mode: usize::MAX,
        value,
        divisor,
        what,
    } = *e.kind()
    else {
        return e;
    };
    let mut mode = 0;
    let mut i = 0;
    while i < a.tree.len() {
        if a.basis[i] > 0 && a.stride[i] == value {
            mode = i;
            break;
        }
        i += 1;
    }
    Error::new(
        e.op(),
        ErrorKind::Divisibility {
            mode,
            value,
            divisor,
            what,
        },
    )
}
