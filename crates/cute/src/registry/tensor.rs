//! Slicing, partitioning and admissibility: slice, slice_offset, dice, tv_partition,
//! make_layout_tv, local_tile, local_partition, copy_plan (containment is the `cute contains`
//! report).
//!
//! A slice or partition prints as the paper writes a tensor over the counting accessor:
//! `{offset} ∘ layout`.

use super::{arg, int, layout, tiler, Answer, Fail};
use crate::{Error, Layout, PartialCoord};

/// The operations of this area and their arguments.
pub(super) const OPS: &[(&str, &str)] = &[
    ("slice", "LAYOUT COORD"),
    ("slice_offset", "LAYOUT COORD"),
    ("dice", "LAYOUT COORD"),
    ("tv_partition", "LAYOUT TV THREAD"),
    ("make_layout_tv", "THR VAL"),
    ("local_tile", "LAYOUT TILER COORD"),
    ("local_partition", "LAYOUT THR INDEX"),
    ("copy_plan", "SRC DST"),
];

pub(crate) fn coord(s: &str) -> Result<PartialCoord, Error> {
    s.parse()
}

/// `{offset} ∘ layout`, a tensor over the counting accessor.
///
/// ```
/// use cute::registry::tensor::counting;
/// assert_eq!(counting(("(4,8):(1,4)".parse().unwrap(), 5)), "{5} ∘ (4,8):(1,4)");
/// ```
pub fn counting((l, off): (Layout, i64)) -> String {
    format!("{{{off}}} ∘ {l}")
}

/// An instruction's access layout: a layout, or a TMEM instruction name `tmem_32x32b[.xN]`,
/// `tmem_16x256b[.xN]`.
///
/// ```
/// use cute::registry::tensor::instruction;
/// use cute::tmem_32x32b;
/// assert_eq!(instruction("tmem_32x32b.x2").unwrap(), tmem_32x32b(2).unwrap());
/// assert_eq!(instruction("(32,4):(1,32)").unwrap().to_string(), "(32,4):(1,32)");
/// ```
///
/// # Errors
///
/// The parse errors of a layout, or for a TMEM name a suffix that is not `.xN` with `N` an integer,
/// and the errors of [`tmem_32x32b`](crate::tmem_32x32b) and [`tmem_16x256b`](crate::tmem_16x256b)
/// for `N`.
pub fn instruction(s: &str) -> Result<Layout, Error> {
    for (name, f) in [
        (
            "tmem_32x32b",
            crate::tmem_32x32b as fn(i64) -> Result<Layout, Error>,
        ),
        ("tmem_16x256b", crate::tmem_16x256b),
    ] {
        if let Some(rest) = s.strip_prefix(name) {
            let n = match rest.strip_prefix(".x") {
                Some(n) => int(n).map_err(|e| super::shifted(e, name.len() + 2))?,
                None if rest.is_empty() => 1,
                None => break,
            };
            return f(n);
        }
    }
    layout(s)
}

/// Runs `op` if it belongs to this area.
pub(super) fn run(op: &str, a: &[&str]) -> Option<Answer> {
    Some(Ok(eval(op, a)?))
}

/// The value of `op` on `a` (`None` for an operation of another area).
fn eval(op: &str, a: &[&str]) -> Option<Result<String, Fail>> {
    let r = || -> Result<String, Fail> {
        Ok(match op {
            "slice" => crate::slice(&arg(a, 0, layout)?, &arg(a, 1, coord)?)?.to_string(),
            "slice_offset" => {
                // the offset in the layout's semimodule (an arithmetic tuple for e_i strides)
                crate::slice_and_value(&arg(a, 0, layout)?, &arg(a, 1, coord)?)?
                    .1
                    .to_string()
            }
            "dice" => crate::dice(&arg(a, 0, layout)?, &arg(a, 1, coord)?)?.to_string(),
            "tv_partition" => counting(crate::tv_partition(
                &arg(a, 0, layout)?,
                &arg(a, 1, layout)?,
                arg(a, 2, int)?,
            )?),
            "make_layout_tv" => {
                let (tiler, tv) = crate::make_layout_tv(&arg(a, 0, layout)?, &arg(a, 1, layout)?)?;
                format!("{tiler} {tv}")
            }
            "local_tile" => counting(crate::local_tile(
                &arg(a, 0, layout)?,
                &arg(a, 1, tiler)?,
                &arg(a, 2, coord)?,
            )?),
            "local_partition" => counting(crate::local_partition(
                &arg(a, 0, layout)?,
                &arg(a, 1, layout)?,
                arg(a, 2, int)?,
            )?),
            // copy_plan
            _ => {
                let (s, d) = (arg(a, 0, layout)?, arg(a, 1, layout)?);
                match crate::copy_plan(&s, &d)? {
                    None => "reference loop".to_string(),
                    Some(p) => plan_text(&p),
                }
            }
        })
    };
    OPS.iter().any(|(n, _)| *n == op).then(r)
}

/// `vector V, loops (n:src_stride:dst_stride, ...)`, innermost first.
///
/// ```
/// use cute::{copy_plan, registry::tensor::plan_text, Layout};
/// let src: Layout = "(4,8):(1,4)".parse().unwrap();
/// let dst: Layout = "(4,8):(1,8)".parse().unwrap();
/// let plan = copy_plan(&src, &dst).unwrap().unwrap();
/// assert_eq!(plan_text(&plan), "vector 4, loops (8:4:8)");
/// ```
pub fn plan_text(p: &crate::CopyPlan) -> String {
    let loops: Vec<String> = p
        .modes
        .iter()
        .map(|m| format!("{}:{}:{}", m.n, m.src_stride, m.dst_stride))
        .collect();
    format!("vector {}, loops ({})", p.vector, loops.join(","))
}
