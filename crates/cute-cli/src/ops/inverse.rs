//! Right and left inverse, nullspace, max common vector/layout, domain_distribute,
//! upcast/downcast/recast.

use super::{arg, arity, int, layout, tuple, Answer, Fail};
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
    let r: Result<String, Fail> = (|| {
        Ok(match op {
            "right_inverse" => cute::right_inverse(&arg(a, 0, layout)?)?.to_string(),
            "left_inverse" => cute::left_inverse(&arg(a, 0, layout)?)?.to_string(),
            "nullspace" => cute::nullspace(&arg(a, 0, layout)?)?.to_string(),
            "max_common_layout" => {
                cute::max_common_layout(&arg(a, 0, layout)?, &arg(a, 1, layout)?)?.to_string()
            }
            "max_common_vector" => {
                cute::max_common_vector(&arg(a, 0, layout)?, &arg(a, 1, layout)?)?.to_string()
            }
            "domain_distribute" => {
                cute::domain_distribute(&arg(a, 0, tuple)?, arg(a, 1, int)?)?.to_string()
            }
            "upcast" => cute::upcast(&arg(a, 0, layout)?, arg(a, 1, int)?)?.to_string(),
            "downcast" => cute::downcast(&arg(a, 0, layout)?, arg(a, 1, int)?)?.to_string(),
            "recast" => {
                let (num, den) = arg(a, 1, scale)?;
                cute::recast(&arg(a, 0, layout)?, num, den)?.to_string()
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
