//! Right and left inverse, nullspace, max common vector/layout, domain_distribute,
//! upcast/downcast/recast.

use super::{arg, int, layout, tuple, Answer, Fail};
use crate::{Error, ErrorKind, Op};

/// The operations of this area and their arguments.
pub(super) const OPS: &[(&str, &str)] = &[
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
pub(super) fn run(op: &str, a: &[&str]) -> Option<Answer> {
    if !OPS.iter().any(|(n, _)| *n == op) {
        return None;
    }
    let r: Result<String, Fail> = (|| {
        Ok(match op {
            "right_inverse" => crate::right_inverse(&arg(a, 0, layout)?)?.to_string(),
            "left_inverse" => crate::left_inverse(&arg(a, 0, layout)?)?.to_string(),
            "nullspace" => crate::nullspace(&arg(a, 0, layout)?)?.to_string(),
            "max_common_layout" => {
                crate::max_common_layout(&arg(a, 0, layout)?, &arg(a, 1, layout)?)?.to_string()
            }
            "max_common_vector" => {
                crate::max_common_vector(&arg(a, 0, layout)?, &arg(a, 1, layout)?)?.to_string()
            }
            "domain_distribute" => {
                crate::domain_distribute(&arg(a, 0, tuple)?, arg(a, 1, int)?)?.to_string()
            }
            "upcast" => crate::upcast(&arg(a, 0, layout)?, arg(a, 1, int)?)?.to_string(),
            "downcast" => crate::downcast(&arg(a, 0, layout)?, arg(a, 1, int)?)?.to_string(),
            "recast" => {
                let (num, den) = arg(a, 1, scale)?;
                crate::recast(&arg(a, 0, layout)?, num, den)?.to_string()
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
            let at = n.len() + 1; // the denominator's first byte
            let (n, d) = (int(n)?, int(d).map_err(|e| super::shifted(e, at))?);
            if d == 0 {
                return Err(Error::new(
                    Op::Parse,
                    ErrorKind::Syntax {
                        pos: at,
                        expected: "a non-zero denominator",
                    },
                ));
            }
            Ok((n, d))
        }
    }
}
