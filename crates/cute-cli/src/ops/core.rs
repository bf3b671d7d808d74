//! Layouts, coordinates, coalesce, composition and complement.

use super::{arg, arity, int, layout, tiler, tuple, Answer, Fail};
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
    let r: Result<String, Fail> = match op {
        "coalesce" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            arg(a, 0, layout).map(|l| cute::coalesce(&l).to_string())
        }
        "coalesce_profile" => {
            if let Err(u) = arity(a, 2, 2, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::coalesce_profile(&arg(a, 0, layout)?, &arg(a, 1, profile)?)?.to_string()))(
            )
        }
        "filter" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            arg(a, 0, layout).map(|l| cute::filter(&l).to_string())
        }
        "filter_zeros" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            arg(a, 0, layout).map(|l| cute::filter_zeros(&l).to_string())
        }
        "composition" => {
            if let Err(u) = arity(a, 2, 2, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::composition_tiler(&arg(a, 0, layout)?, &arg(a, 1, tiler)?)?.to_string()))()
        }
        "with_shape" => {
            if let Err(u) = arity(a, 2, 2, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::with_shape(&arg(a, 0, layout)?, &arg(a, 1, tuple)?)?.to_string()))()
        }
        "complement" => {
            if let Err(u) = arity(a, 1, 2, op) {
                return Some(Err(u));
            }
            (|| {
                let l = arg(a, 0, layout)?;
                Ok(if a.len() == 1 {
                    cute::complement(&l)?
                } else {
                    cute::complement_to(&l, &arg(a, 1, tuple)?)?
                }
                .to_string())
            })()
        }
        "eval_all" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| {
                let l = arg(a, 0, layout)?;
                let n = l.size()?;
                if n > super::EVAL_ALL_LIMIT {
                    return Err(Error::new(
                        cute::Op::Eval,
                        cute::ErrorKind::Capacity {
                            what: "the size of a layout whose offsets eval_all lists",
                            limit: super::EVAL_ALL_LIMIT as usize,
                        },
                    )
                    .with(cute::Operand::Layout(l), cute::Operand::None)
                    .into());
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
            (|| Ok(arg(a, 0, layout)?.eval_value(arg(a, 1, int)?)?.to_string()))()
        }
        "eval_crd" => {
            if let Err(u) = arity(a, 2, 2, op) {
                return Some(Err(u));
            }
            (|| {
                Ok(arg(a, 0, layout)?
                    .eval_crd_value(&arg(a, 1, tuple)?)?
                    .to_string())
            })()
        }
        "f2_layout" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| {
                let c = arg(a, 0, str::parse::<cute::ComposedLayout>)?;
                Ok(c.to_f2_layout()?.to_string())
            })()
        }
        "swizzle_of" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::Swizzle::from_f2_layout(&arg(a, 0, layout)?)?.to_string()))()
        }
        "make_identity_layout" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::make_identity_layout(&arg(a, 0, tuple)?)?.to_string()))()
        }
        "linear_form" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::linear_form(&arg(a, 0, layout)?)?.to_string()))()
        }
        "tiler_to_layout" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| Ok(super::arg(a, 0, tiler)?.tiler_to_layout()?.to_string()))()
        }
        "idx2crd" => {
            if let Err(u) = arity(a, 2, 2, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::idx2crd(&arg(a, 0, tuple)?, &arg(a, 1, tuple)?)?.to_string()))()
        }
        "crd2idx" => {
            if let Err(u) = arity(a, 2, 3, op) {
                return Some(Err(u));
            }
            (|| {
                let c = arg(a, 0, tuple)?;
                let s = arg(a, 1, tuple)?;
                Ok(if a.len() == 3 {
                    cute::crd2idx(&c, &s, &arg(a, 2, tuple)?)?
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
            (|| Ok(cute::make_ordered_layout(&arg(a, 0, tuple)?, &arg(a, 1, tuple)?)?.to_string()))(
            )
        }
        "compact_col_major" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::compact_col_major(&arg(a, 0, tuple)?)?.to_string()))()
        }
        "compact_row_major" => {
            if let Err(u) = arity(a, 1, 1, op) {
                return Some(Err(u));
            }
            (|| Ok(cute::compact_row_major(&arg(a, 0, tuple)?)?.to_string()))()
        }
        _ => return None,
    };
    Some(Ok(r))
}

/// A coalesce/filter profile such as `(_,1)` (PyCuTe's `(None, 1)`), read as the tiler `<_,1>`.
fn profile(s: &str) -> Result<Tiler, Error> {
    tiler(&s.replace('(', "<").replace(')', ">"))
}
