//! Operations on layouts with run-time extents (`?`, `?{div=16}`, `M{div=16,min=64}`, see
//! [`symbolic`](crate::symbolic)): where an argument is not integer CuTe notation but reads as a
//! symbolic layout, the operation runs on [`SymLayout`]s. Its value is printed as usual; a
//! refusal is an [`Outcome::Symbolic`] (category `Condition` when the answer depends on a
//! run-time value, naming the unknown and the condition).
//!
//! ```
//! use cute::registry::{run, Outcome};
//! assert!(matches!(run("coalesce", &["(192,?):(1,192)"]), Outcome::Value(v) if v == "192*?:1"));
//! assert!(matches!(run("right_inverse", &["(16,N):(1,16)"]), Outcome::Value(v) if v == "16*N:1"));
//! let o = run("zipped_divide", &["(M{div=128},N{div=64}):(1,M)", "<128:1,64:1>"]);
//! assert!(matches!(o, Outcome::Value(v) if v == "((128,64),(M{div=128}/128,N{div=64}/64)):((1,M),(128,64*M))"));
//! let o = run("slice", &["(4,M,2):(1,4,4*M)", "(1,_,_)"]);
//! assert!(matches!(o, Outcome::Value(v) if v == "(M,2):(4,4*M)"));
//! let o = run("composition", &["(M,4):(1,2*M)", "2:8"]);
//! assert_eq!(o.category(), Some("Condition"));
//! ```

use super::Outcome;
use crate::symbolic::{self, SymError, SymLayout};

/// The operations answered on symbolic layouts (all arguments layouts but the coordinate of
/// `slice` and `dice`; `complement` may take a cotarget, `size`/`cosize` give a product).
const OPS: &[&str] = &[
    "coalesce",
    "composition",
    "complement",
    "right_inverse",
    "left_inverse",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
    "size",
    "cosize",
    "slice",
    "dice",
];

/// `out`, the integer registry's outcome, unless it could not read an argument that reads as a
/// symbolic layout with unknowns: then the symbolic operation's outcome.
pub(super) fn fallback(op: &str, args: &[&str], out: Outcome) -> Outcome {
    if !matches!(out, Outcome::BadArgument { .. }) || !OPS.contains(&op) {
        return out;
    }
    if let [a, t] = args {
        if t.trim_start().starts_with('<') && op.ends_with("_divide") {
            return by_mode(op, a, t, out);
        }
        if op == "slice" || op == "dice" {
            return sliced(op, a, t, out);
        }
    }
    let mut layouts = Vec::with_capacity(args.len());
    for (k, a) in args.iter().enumerate() {
        match a.parse::<SymLayout>() {
            Ok(l) => layouts.push(l),
            // `?` marks a run-time extent: the symbolic reader's error is the one that helps
            Err(mut e) if a.contains('?') => {
                e.operands = format!("argument {} {}", k + 1, super::quote(a));
                return Outcome::Symbolic(Box::new(e));
            }
            Err(_) => return out,
        }
    }
    if layouts.iter().all(SymLayout::is_static) {
        return out;
    }
    match run(op, &layouts) {
        Ok(v) => Outcome::Value(v),
        Err(e) => Outcome::Symbolic(Box::new(e)),
    }
}

/// A divide by a tiler by mode `<B0,B1,…>`.
fn by_mode(op: &str, a: &str, t: &str, out: Outcome) -> Outcome {
    let (Ok(a), Ok(t)) = (a.parse::<SymLayout>(), t.parse::<symbolic::SymTiler>()) else {
        return out;
    };
    if a.is_static() && t.0.iter().flatten().all(SymLayout::is_static) {
        return out;
    }
    let r = match op {
        "logical_divide" => symbolic::logical_divide_by_mode(&a, &t),
        "zipped_divide" => symbolic::zipped_divide_by_mode(&a, &t),
        "tiled_divide" => symbolic::tiled_divide_by_mode(&a, &t),
        _ => symbolic::flat_divide_by_mode(&a, &t),
    };
    match r {
        Ok(v) => Outcome::Value(v.to_string()),
        Err(e) => Outcome::Symbolic(Box::new(e)),
    }
}

/// `slice` or `dice` of a symbolic layout by a partial coordinate.
fn sliced(op: &str, a: &str, c: &str, out: Outcome) -> Outcome {
    let (Ok(a), Ok(c)) = (a.parse::<SymLayout>(), c.parse::<crate::PartialCoord>()) else {
        return out;
    };
    if a.is_static() {
        return out;
    }
    let r = if op == "slice" {
        symbolic::slice(&a, &c)
    } else {
        symbolic::dice(&a, &c)
    };
    match r {
        Ok(v) => Outcome::Value(v.to_string()),
        Err(e) => Outcome::Symbolic(Box::new(e)),
    }
}

fn run(op: &str, l: &[SymLayout]) -> Result<String, SymError> {
    let two = |f: fn(&SymLayout, &SymLayout) -> Result<SymLayout, SymError>| {
        f(&l[0], &l[1]).map(|r| r.to_string())
    };
    match (op, l.len()) {
        ("coalesce", 1) => symbolic::coalesce(&l[0]).map(|r| r.to_string()),
        ("composition", 2) => two(symbolic::composition),
        ("complement", 1) => symbolic::complement(&l[0], None).map(|r| r.to_string()),
        ("complement", 2) => symbolic::complement(&l[0], Some(&l[1].size())).map(|r| r.to_string()),
        ("right_inverse", 1) => symbolic::right_inverse(&l[0]).map(|r| r.to_string()),
        ("left_inverse", 1) => symbolic::left_inverse(&l[0]).map(|r| r.to_string()),
        ("logical_divide", 2) => two(symbolic::logical_divide),
        ("zipped_divide", 2) => two(symbolic::zipped_divide),
        ("tiled_divide", 2) => two(symbolic::tiled_divide),
        ("flat_divide", 2) => two(symbolic::flat_divide),
        ("logical_product", 2) => two(symbolic::logical_product),
        ("zipped_product", 2) => two(symbolic::zipped_product),
        ("tiled_product", 2) => two(symbolic::tiled_product),
        ("flat_product", 2) => two(symbolic::flat_product),
        ("blocked_product", 2) => two(symbolic::blocked_product),
        ("raked_product", 2) => two(symbolic::raked_product),
        ("size", 1) => Ok(l[0].size().to_string()),
        ("cosize", 1) => symbolic::cosize(&l[0])
            .map(|m| m.to_string())
            .ok_or_else(|| SymError {
                op: "cosize",
                operands: l[0].to_string(),
                reason: symbolic::Reason::Unsupported(
                    "a cosize that is not a single product of the extents".into(),
                ),
            }),
        _ => Err(SymError {
            op: "registry",
            operands: String::new(),
            reason: symbolic::Reason::Unsupported(format!(
                "{op} with {} symbolic arguments",
                l.len()
            )),
        }),
    }
}
