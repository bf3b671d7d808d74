//! Queries and rearrangements of tuples and layouts (paper §4): size, cosize, rank, depth, shape,
//! stride, modes, flatten, image, concatenation, and the relations between shapes (congruence, weak
//! congruence, compatibility) and `crd2crd`.

use super::{arg, int, layout, tuple, Answer, Fail};
use crate::{Error, Layout};

/// The operations of this area and their arguments.
pub(super) const OPS: &[(&str, &str)] = &[
    ("size", "LAYOUT|TUPLE"),
    ("cosize", "LAYOUT"),
    ("rank", "LAYOUT|TUPLE"),
    ("depth", "LAYOUT|TUPLE"),
    ("shape", "LAYOUT"),
    ("stride", "LAYOUT"),
    ("flatten", "LAYOUT|TUPLE"),
    ("get", "LAYOUT|TUPLE [INDEX...]"),
    ("image", "LAYOUT"),
    ("make_layout", "LAYOUT... (concatenation)"),
    ("congruent", "TUPLE TUPLE"),
    ("weakly_congruent", "TUPLE TUPLE"),
    ("compatible", "TUPLE TUPLE"),
    ("crd2crd", "COORD SHAPE SHAPE"),
];

/// A layout argument, or else a tuple argument.
#[allow(clippy::large_enum_variant)] // short-lived, on the stack
enum Either {
    L(Layout),
    T(crate::IntTuple),
}

fn either(s: &str) -> Result<Either, Error> {
    match layout(s) {
        Ok(l) => Ok(Either::L(l)),
        Err(e) if s.contains(':') => Err(e),
        Err(_) => tuple(s).map(Either::T),
    }
}

/// Runs `op` if it belongs to this area.
pub(super) fn run(op: &str, a: &[&str]) -> Option<Answer> {
    if !OPS.iter().any(|(n, _)| *n == op) {
        return None;
    }
    let yes_no = |b: bool| if b { "true" } else { "false" }.to_string();
    let r: Result<String, Fail> = (|| {
        Ok(match op {
            "size" => match arg(a, 0, either)? {
                Either::L(l) => l.size().to_string(),
                Either::T(t) => t.size()?.to_string(),
            },
            "cosize" => arg(a, 0, layout)?.cosize()?.to_string(),
            "rank" => match arg(a, 0, either)? {
                Either::L(l) => l.rank().to_string(),
                Either::T(t) => t.rank().to_string(),
            },
            "depth" => match arg(a, 0, either)? {
                Either::L(l) => l.depth().to_string(),
                Either::T(t) => t.depth().to_string(),
            },
            "shape" => arg(a, 0, layout)?.shape().to_string(),
            "stride" => arg(a, 0, layout)?.stride().to_string(),
            "flatten" => match arg(a, 0, either)? {
                Either::L(l) => l.flatten().to_string(),
                Either::T(t) => t.flatten().to_string(),
            },
            "get" => {
                let path: Vec<usize> = (1..a.len())
                    .map(|k| arg(a, k, int).map(|v| usize::try_from(v).unwrap_or(usize::MAX)))
                    .collect::<Result<_, _>>()?;
                match arg(a, 0, either)? {
                    Either::L(l) => l.get(&path)?.to_string(),
                    Either::T(t) => t.get_path(&path)?.to_string(),
                }
            }
            "image" => {
                let l = arg(a, 0, layout)?;
                if l.size() > super::EVAL_ALL_LIMIT {
                    return Err(Error::new(
                        crate::Op::Image,
                        crate::ErrorKind::Capacity {
                            what: "the size of a layout whose image is listed",
                            limit: super::EVAL_ALL_LIMIT as usize,
                        },
                    )
                    .with(crate::Operand::Layout(l), crate::Operand::None)
                    .into());
                }
                let img = l.image()?;
                let items: Vec<String> = img.iter().map(i64::to_string).collect();
                format!("{{{}}}", items.join(","))
            }
            "make_layout" => {
                let ls: Vec<Layout> = (0..a.len())
                    .map(|k| arg(a, k, layout))
                    .collect::<Result<_, _>>()?;
                Layout::concat(&ls)?.to_string()
            }
            "congruent" => yes_no(arg(a, 0, tuple)?.congruent(&arg(a, 1, tuple)?)),
            "weakly_congruent" => yes_no(arg(a, 0, tuple)?.weakly_congruent(&arg(a, 1, tuple)?)),
            "compatible" => yes_no(arg(a, 0, tuple)?.compatible(&arg(a, 1, tuple)?)),
            "crd2crd" => {
                crate::crd2crd(&arg(a, 0, tuple)?, &arg(a, 1, tuple)?, &arg(a, 2, tuple)?)?
                    .to_string()
            }
            _ => unreachable!("OPS and this match list the same operations"),
        })
    })();
    Some(Ok(r))
}
