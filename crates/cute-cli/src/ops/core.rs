//! Layouts, coordinates, coalesce, composition and complement.

use super::{arity, int, layout, tiler, tuple, Answer};
use cute::{Error, Tiler};

/// The operations of this area and their arguments.
pub(crate) const OPS: &[(&str, &str)] = &[
    ("coalesce", "LAYOUT"),
    ("coalesce_profile", "LAYOUT PROFILE"),
    ("filter", "LAYOUT"),
    ("filter_zeros", "LAYOUT"),
    ("composition", "LAYOUT TILER"),
    ("with_shape", "LAYOUT SHAPE"),
    ("complement", "LAYOUT [COTARGET]"),
    ("eval_all", "LAYOUT"),
    ("eval_int", "LAYOUT INT"),
    ("eval_crd", "LAYOUT COORD"),
    ("tiler_to_layout", "TILER"),
    ("linear_form", "LAYOUT"),
    ("make_identity_layout", "SHAPE"),
    ("f2_layout", "COMPOSED"),
    ("swizzle_of", "LAYOUT"),
    ("idx2crd", "COORD SHAPE"),
    ("crd2idx", "COORD SHAPE [STRIDE]"),
    ("make_ordered_layout", "SHAPE ORDER"),
    ("compact_col_major", "SHAPE"),
    ("compact_row_major", "SHAPE"),
];

/// Runs `op` if it belongs to this area.
pub(crate) fn run(op: &str, a: &[&str]) -> Option<Answer> {
    let r: Result<String, Error> = match op {
        "coalesce" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            layout(a[0]).map(|l| cute::coalesce(&l).to_string())
        }
        "coalesce_profile" => {
            if let Err(u) = arity(a, 2, 2, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::coalesce_profile(&layout(a[0])?, &profile(a[1])?)?.to_string()))()
        }
        "filter" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            layout(a[0]).map(|l| cute::filter(&l).to_string())
        }
        "filter_zeros" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            layout(a[0]).map(|l| cute::filter_zeros(&l).to_string())
        }
        "composition" => {
            if let Err(u) = arity(a, 2, 2, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::composition_tiler(&layout(a[0])?, &tiler(a[1])?)?.to_string()))()
        }
        "with_shape" => {
            if let Err(u) = arity(a, 2, 2, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::with_shape(&layout(a[0])?, &tuple(a[1])?)?.to_string()))()
        }
        "complement" => {
            if let Err(u) = arity(a, 1, 2, op) {
                return Some(Err(u));
            }
            (|| {
                let l = layout(a[0])?;
                Ok(if a.len() == 1 {
                    cute::complement(&l)?
                } else {
                    cute::complement_to(&l, &tuple(a[1])?)?
                }
                .to_string())
            })()
        }
        "eval_all" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| {
                let l = layout(a[0])?;
                let n = l.size()?;
                if n > super::EVAL_ALL_LIMIT {
                    return Err(Error::new(
                        cute::Op::Eval,
                        cute::ErrorKind::Capacity {
                            what: "the size of a layout whose offsets eval_all lists",
                            limit: super::EVAL_ALL_LIMIT as usize,
                        },
                    )
                    .with(cute::Operand::Layout(l), cute::Operand::None));
                }
                let mut out = String::from("(");
                for i in 0..n {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&l.eval_value(i)?.to_string());
                }
                out.push(')');
                Ok(out)
            })()
        }
        "eval_int" => {
            if let Err(u) = arity(a, 2, 2, op) {
                return Some(Err(u));
            }
            (|| Ok(layout(a[0])?.eval_value(int(a[1])?)?.to_string()))()
        }
        "eval_crd" => {
            if let Err(u) = arity(a, 2, 2, op) {
                return Some(Err(u));
            }
            (|| Ok(layout(a[0])?.eval_crd_value(&tuple(a[1])?)?.to_string()))()
        }
        "f2_layout" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| {
                let c: cute::ComposedLayout = a[0].parse()?;
                Ok(c.to_f2_layout()?.to_string())
            })()
        }
        "swizzle_of" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::Swizzle::from_f2_layout(&layout(a[0])?)?.to_string()))()
        }
        "make_identity_layout" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::make_identity_layout(&tuple(a[0])?)?.to_string()))()
        }
        "linear_form" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::linear_form(&layout(a[0])?)?.to_string()))()
        }
        "tiler_to_layout" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| Ok(super::tiler(a[0])?.tiler_to_layout()?.to_string()))()
        }
        "idx2crd" => {
            if let Err(u) = arity(a, 2, 2, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::idx2crd(&tuple(a[0])?, &tuple(a[1])?)?.to_string()))()
        }
        "crd2idx" => {
            if let Err(u) = arity(a, 2, 3, op) {
                return Some(Err(u));
            }
            (|| {
                let c = tuple(a[0])?;
                let s = tuple(a[1])?;
                Ok(if a.len() == 3 {
                    cute::crd2idx(&c, &s, &tuple(a[2])?)?
                } else {
                    cute::crd2idx_compact(&c, &s)?
                }
                .to_string())
            })()
        }
        "make_ordered_layout" => {
            if let Err(u) = arity(a, 2, 2, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::make_ordered_layout(&tuple(a[0])?, &tuple(a[1])?)?.to_string()))()
        }
        "compact_col_major" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::compact_col_major(&tuple(a[0])?)?.to_string()))()
        }
        "compact_row_major" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::compact_row_major(&tuple(a[0])?)?.to_string()))()
        }
        _ => return None,
    };
    Some(Ok(r))
}

/// A coalesce/filter profile such as `(_,1)` (PyCuTe's `(None, 1)`), read as the tiler `<_,1>`.
fn profile(s: &str) -> Result<Tiler, Error> {
    tiler(&s.replace('(', "<").replace(')', ">"))
}
