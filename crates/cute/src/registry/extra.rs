//! The operations PyCuTe has and C++ lacks: coalesce_z, composition_mode, layout_add,
//! greatest_common_domain.

use super::{arg, int, layout, tiler, tuple, Answer, Fail};
use crate::{Error, ErrorKind, IntTuple, Op};

/// The operations of this area and their arguments.
pub(super) const OPS: &[(&str, &str)] = &[
    ("coalesce_z", "LAYOUT"),
    ("composition_mode", "LAYOUT MODE TILER"),
    ("layout_add", "LAYOUT LAYOUT"),
    ("greatest_common_domain", "SHAPE SHAPE"),
];

/// Runs `op` if it belongs to this area.
pub(super) fn run(op: &str, a: &[&str]) -> Option<Answer> {
    if !OPS.iter().any(|(n, _)| *n == op) {
        return None;
    }
    let r: Result<String, Fail> = match op {
        "coalesce_z" => arg(a, 0, layout).map(|l| crate::coalesce_z(&l).to_string()),
        "composition_mode" => (|| {
            let l = arg(a, 0, layout)?;
            let mode = arg(a, 1, mode_index)?;
            Ok(crate::composition_mode(&l, mode, &arg(a, 2, tiler)?)?.to_string())
        })(),
        "layout_add" => {
            (|| Ok(crate::layout_add(&arg(a, 0, layout)?, &arg(a, 1, layout)?)?.to_string()))()
        }
        "greatest_common_domain" => (|| {
            Ok(
                crate::greatest_common_domain(&arg(a, 0, shape_of)?, &arg(a, 1, shape_of)?)?
                    .to_string(),
            )
        })(),
        _ => return None,
    };
    Some(Ok(r))
}

/// A mode index: a non-negative integer.
fn mode_index(s: &str) -> Result<usize, Error> {
    usize::try_from(int(s)?).map_err(|_| {
        Error::new(
            Op::Parse,
            ErrorKind::Syntax {
                pos: 0,
                expected: "a non-negative mode index",
            },
        )
    })
}

/// A shape, or the shape of a layout (PyCuTe's `greatest_common_domain` takes either).
fn shape_of(s: &str) -> Result<IntTuple, Error> {
    if s.contains(':') {
        Ok(layout(s)?.shape())
    } else {
        tuple(s)
    }
}
