//! Right and left inverse, nullspace, max common vector/layout, domain_distribute,
//! upcast/downcast/recast.

use super::{arity, int, layout, tuple, Answer};
use cute::{Error, ErrorKind, Op};

/// The operations of this area and their arguments.
pub(crate) const OPS: &[(&str, &str)] = &[
    ("right_inverse", "LAYOUT"),
    ("left_inverse", "LAYOUT"),
    ("nullspace", "LAYOUT"),
    ("max_common_layout", "LAYOUT LAYOUT"),
    ("max_common_vector", "LAYOUT LAYOUT"),
    ("domain_distribute", "SHAPE INT"),
    ("upcast", "LAYOUT INT"),
    ("downcast", "LAYOUT INT"),
    ("recast", "LAYOUT SCALE"),
];

/// Runs `op` if it belongs to this area.
pub(crate) fn run(op: &str, a: &[&str]) -> Option<Answer> {
    let (lo, hi) = match op {
        "right_inverse" | "left_inverse" | "nullspace" => (1, 1),
        "max_common_layout" | "max_common_vector" | "domain_distribute" | "upcast" | "downcast"
        | "recast" => (2, 2),
        _ => return None,
    };
    if let Err(u) = arity(a, lo, hi, op) {
        return Some(Err(u));
    }
    let r: Result<String, Error> = (|| {
        Ok(match op {
            "right_inverse" => cute::right_inverse(&layout(a[0])?)?.to_string(),
            "left_inverse" => cute::left_inverse(&layout(a[0])?)?.to_string(),
            "nullspace" => cute::nullspace(&layout(a[0])?)?.to_string(),
            "max_common_layout" => {
                cute::max_common_layout(&layout(a[0])?, &layout(a[1])?)?.to_string()
            }
            "max_common_vector" => {
                cute::max_common_vector(&layout(a[0])?, &layout(a[1])?)?.to_string()
            }
            "domain_distribute" => cute::domain_distribute(&tuple(a[0])?, int(a[1])?)?.to_string(),
            "upcast" => cute::upcast(&layout(a[0])?, int(a[1])?)?.to_string(),
            "downcast" => cute::downcast(&layout(a[0])?, int(a[1])?)?.to_string(),
            "recast" => {
                let (num, den) = scale(a[1])?;
                cute::recast(&layout(a[0])?, num, den)?.to_string()
            }
            _ => unreachable!("filtered above"),
        })
    })();
    Some(Ok(r))
}

/// A recast scale: an integer `n` or a fraction `num/den` (PyCuTe's `Fraction`).
fn scale(s: &str) -> Result<(i64, i64), Error> {
    match s.split_once('/') {
        None => Ok((int(s)?, 1)),
        Some((n, d)) => {
            let (n, d) = (int(n)?, int(d)?);
            if d == 0 {
                return Err(Error::new(
                    Op::Parse,
                    ErrorKind::Syntax {
                        pos: s.len(),
                        expected: "a non-zero denominator",
                    },
                ));
            }
            Ok((n, d))
        }
    }
}
