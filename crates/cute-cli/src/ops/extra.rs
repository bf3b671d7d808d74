//! The operations PyCuTe has and C++ lacks: coalesce_z, composition_mode, layout_add,
//! greatest_common_domain.

use super::{arity, int, layout, tiler, tuple, Answer};
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
    let r: Result<String, Error> = match op {
        "coalesce_z" => layout(a[0]).map(|l| cute::coalesce_z(&l).to_string()),
        "composition_mode" => (|| {
            let l = layout(a[0])?;
            let mode = mode_index(a[1])?;
            Ok(cute::composition_mode(&l, mode, &tiler(a[2])?)?.to_string())
        })(),
        "layout_add" => (|| Ok(cute::layout_add(&layout(a[0])?, &layout(a[1])?)?.to_string()))(),
        "greatest_common_domain" => {
            (|| Ok(cute::greatest_common_domain(&shape_of(a[0])?, &shape_of(a[1])?)?.to_string()))()
        }
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
