//! The operations PyCuTe has and C++ lacks: coalesce_z, composition_mode, layout_add,
//! greatest_common_domain.

use super::{arg, arity, int, layout, tiler, tuple, Answer, Fail};
use cute::{Error, ErrorKind, IntTuple, Op};

/// The operations of this area and their arguments.
pub(crate) const OPS: &[(&str, &str)] = &[
    ("coalesce_z", "LAYOUT"),
    ("composition_mode", "LAYOUT MODE TILER"),
    ("layout_add", "LAYOUT LAYOUT"),
    ("greatest_common_domain", "SHAPE SHAPE"),
];

/// Runs `op` if it belongs to this area.
pub(crate) fn run(op: &str, a: &[&str]) -> Option<Answer> {
    let (lo, hi) = match op {
        "coalesce_z" => (1, 1),
        "composition_mode" => (3, 3),
        "layout_add" | "greatest_common_domain" => (2, 2),
        _ => return None,
    };
    if let Err(u) = arity(a, lo, hi, op) {
        return Some(Err(u));
    }
    let r: Result<String, Fail> = match op {
        "coalesce_z" => arg(a, 0, layout).map(|l| cute::coalesce_z(&l).to_string()),
        "composition_mode" => (|| {
            let l = arg(a, 0, layout)?;
            let mode = arg(a, 1, mode_index)?;
            Ok(cute::composition_mode(&l, mode, &arg(a, 2, tiler)?)?.to_string())
        })(),
        "layout_add" => {
            (|| Ok(cute::layout_add(&arg(a, 0, layout)?, &arg(a, 1, layout)?)?.to_string()))()
        }
        "greatest_common_domain" => (|| {
            Ok(
                cute::greatest_common_domain(&arg(a, 0, shape_of)?, &arg(a, 1, shape_of)?)?
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
