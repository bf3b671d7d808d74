//! Layouts, coordinates, coalesce, composition and complement.

use super::{arg, int, layout, tiler, tuple, Answer, Fail};
use crate::{Error, Tiler};

/// The operations of this area and their arguments.
pub(super) const OPS: &[(&str, &str)] = &[
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
pub(super) fn run(op: &str, a: &[&str]) -> Option<Answer> {
    let r: Result<String, Fail> = match op {
        "coalesce" => arg(a, 0, layout).map(|l| crate::coalesce(&l).to_string()),
        "coalesce_profile" => {
            (|| Ok(crate::coalesce_profile(&arg(a, 0, layout)?, &arg(a, 1, profile)?)?.to_string()))(
            )
        }
        "filter" => arg(a, 0, layout).map(|l| crate::filter(&l).to_string()),
        "filter_zeros" => arg(a, 0, layout).map(|l| crate::filter_zeros(&l).to_string()),
        "composition" => {
            (|| Ok(crate::composition_tiler(&arg(a, 0, layout)?, &arg(a, 1, tiler)?)?.to_string()))(
            )
        }
        "with_shape" => {
            (|| Ok(crate::with_shape(&arg(a, 0, layout)?, &arg(a, 1, tuple)?)?.to_string()))()
        }
        "complement" => (|| {
            let l = arg(a, 0, layout)?;
            Ok(if a.len() == 1 {
                crate::complement(&l)?
            } else {
                crate::complement_to(&l, &arg(a, 1, tuple)?)?
            }
            .to_string())
        })(),
        "eval_all" => (|| {
            let l = arg(a, 0, layout)?;
            let n = l.size();
            if n > super::EVAL_ALL_LIMIT {
                return Err(Error::new(
                    crate::Op::Eval,
                    crate::ErrorKind::Capacity {
                        what: "the size of a layout whose offsets eval_all lists",
                        limit: super::EVAL_ALL_LIMIT as usize,
                    },
                )
                .with(crate::Operand::Layout(l), crate::Operand::None)
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
        })(),
        "eval_int" => (|| Ok(arg(a, 0, layout)?.eval_value(arg(a, 1, int)?)?.to_string()))(),
        "eval_crd" => (|| {
            Ok(arg(a, 0, layout)?
                .eval_crd_value(&arg(a, 1, tuple)?)?
                .to_string())
        })(),
        "f2_layout" => (|| {
            let c = arg(a, 0, str::parse::<crate::ComposedLayout>)?;
            Ok(c.to_f2_layout()?.to_string())
        })(),
        "swizzle_of" => (|| Ok(crate::Swizzle::from_f2_layout(&arg(a, 0, layout)?)?.to_string()))(),
        "make_identity_layout" => {
            (|| Ok(crate::make_identity_layout(&arg(a, 0, tuple)?)?.to_string()))()
        }
        "linear_form" => (|| Ok(crate::linear_form(&arg(a, 0, layout)?)?.to_string()))(),
        "tiler_to_layout" => (|| Ok(super::arg(a, 0, tiler)?.tiler_to_layout()?.to_string()))(),
        "idx2crd" => (|| Ok(crate::idx2crd(&arg(a, 0, tuple)?, &arg(a, 1, tuple)?)?.to_string()))(),
        "crd2idx" => (|| {
            let c = arg(a, 0, tuple)?;
            let s = arg(a, 1, tuple)?;
            Ok(if a.len() == 3 {
                crate::crd2idx(&c, &s, &arg(a, 2, tuple)?)?
            } else {
                crate::crd2idx_compact(&c, &s)?
            }
            .to_string())
        })(),
        "make_ordered_layout" => {
            (|| Ok(crate::make_ordered_layout(&arg(a, 0, tuple)?, &arg(a, 1, tuple)?)?.to_string()))(
            )
        }
        "compact_col_major" => (|| Ok(crate::compact_col_major(&arg(a, 0, tuple)?)?.to_string()))(),
        "compact_row_major" => (|| Ok(crate::compact_row_major(&arg(a, 0, tuple)?)?.to_string()))(),
        _ => return None,
    };
    Some(Ok(r))
}

/// A coalesce/filter profile such as `(_,1)` (PyCuTe's `(None, 1)`), read as the tiler `<_,1>`.
fn profile(s: &str) -> Result<Tiler, Error> {
    tiler(&s.replace('(', "<").replace(')', ">"))
}
