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
//! let o = run("eval_crd", &["(4,M):(M,1)", "(3,5)"]);
//! assert!(matches!(o, Outcome::Value(v) if v == "5+3*M"));
//! let o = run("composition", &["(M,4):(1,2*M)", "2:8"]);
//! assert_eq!(o.category(), Some("Condition"));
//! ```

use super::Outcome;
use crate::symbolic::{self, SymError, SymLayout};

/// The operations answered on symbolic layouts (all arguments layouts but the coordinate of
/// `slice`, `dice` and `eval_crd`; `complement` may take a cotarget, `size`/`cosize` give a
/// product, `eval_crd` a sum of products).
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
    "eval_crd",
];

/// `out`, the integer registry's outcome, unless it could not read an argument that reads as a
/// symbolic layout with unknowns: then the symbolic operation's outcome. Where neither reader
/// can read an argument, the error that helps is the one that read further (or the symbolic
/// reader's where the text has a `?`); an operation answered on integer layouts only says so
/// where it reads a layout (`layout_at`, by argument index).
pub(super) fn fallback(
    op: &'static str,
    args: &[&str],
    out: Outcome,
    layout_at: &dyn Fn(usize) -> bool,
) -> Outcome {
    let Outcome::BadArgument { index, .. } = &out else {
        return out;
    };
    if !OPS.contains(&op) {
        return match args.get(*index) {
            Some(a)
                // (a bare word such as `abc` is more likely a typo than an unknown)
                if layout_at(*index)
                    && a.contains([':', '(', '?', '{'])
                    && a.parse::<SymLayout>().is_ok_and(|l| !l.is_static()) =>
            {
                let ops = OPS.join(", ");
                let why = if op == "eval_all" {
                    "eval_all lists the offsets of a layout of known size; with unknown extents, \
                     evaluate at a coordinate (eval_crd)"
                        .to_string()
                } else {
                    format!(
                        "{op} takes integer layouts only (the operations on unknown extents: {ops})"
                    )
                };
                Outcome::Symbolic(Box::new(SymError::new(
                    op,
                    format!("argument {} {}", index + 1, super::quote(a)),
                    symbolic::Reason::Unsupported(why),
                )))
            }
            _ => out,
        };
    }
    if let [a, t] = args {
        if t.trim_start().starts_with('<') && (op.ends_with("_divide") || op == "composition") {
            return by_mode(op, a, t, out);
        }
        if t.trim_start().starts_with('<') {
            // a tiler elsewhere (the products) is read by the integer reader only
            return match a.parse::<SymLayout>() {
                Ok(l) if !l.is_static() => Outcome::Symbolic(Box::new(SymError::new(
                    op,
                    format!("{l} {t}"),
                    symbolic::Reason::Unsupported(format!(
                        "{op} by a tiler `<…>` (with unknown extents, composition and the \
                         divides take tilers; {op} takes a layout)"
                    )),
                ))),
                _ => out,
            };
        }
        if op == "slice" || op == "dice" {
            return sliced(op, a, t, out);
        }
        if op == "eval_crd" {
            return evaluated(a, t, out);
        }
    }
    let mut layouts = Vec::with_capacity(args.len());
    for (k, a) in args.iter().enumerate() {
        match a.parse::<SymLayout>() {
            Ok(l) => layouts.push(l),
            Err(e) => return unreadable(op, k, a, e, out),
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

/// Argument `k` (`a`) of `op` reads neither as integer nor as symbolic CuTe notation: the
/// symbolic reader's error `e` where it read further than the integer reader (past the argument
/// the integer reader stopped at, or further into the same one), or where the text has a `?`
/// (which marks a run-time extent), else the integer outcome `out`.
fn unreadable(op: &'static str, k: usize, a: &str, mut e: SymError, out: Outcome) -> Outcome {
    let sym_pos = match e.reason {
        symbolic::Reason::Syntax { pos, .. } => pos,
        _ => usize::MAX,
    };
    let further = match &out {
        Outcome::BadArgument { index, .. } if *index < k => true,
        // further than the name the integer reader stopped at: `M{div=0}:1` (the facts are at
        // fault), not `Sw<3,3,3> o …` (a word that is no unknown's name)
        Outcome::BadArgument { index, error } if *index == k => match error.kind() {
            crate::ErrorKind::Syntax { pos, .. } => {
                let name = a.as_bytes()[(*pos).min(a.len())..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                    .count();
                sym_pos > pos + name
            }
            _ => false,
        },
        _ => false,
    };
    if further || a.contains('?') {
        e.op = op;
        e.operands = format!("argument {} {}", k + 1, super::quote(a));
        return Outcome::Symbolic(Box::new(e));
    }
    out
}

/// A composition or a divide by a tiler by mode `<B0,B1,…>`.
fn by_mode(op: &'static str, a: &str, t: &str, out: Outcome) -> Outcome {
    let a = match a.parse::<SymLayout>() {
        Ok(a) => a,
        Err(e) => return unreadable(op, 0, a, e, out),
    };
    let t = match t.parse::<symbolic::SymTiler>() {
        Ok(t) => t,
        Err(e) => return unreadable(op, 1, t, e, out),
    };
    if a.is_static() && t.0.iter().flatten().all(SymLayout::is_static) {
        return out;
    }
    let r = match op {
        "logical_divide" => symbolic::logical_divide_by_mode(&a, &t),
        "zipped_divide" => symbolic::zipped_divide_by_mode(&a, &t),
        "tiled_divide" => symbolic::tiled_divide_by_mode(&a, &t),
        "composition" => symbolic::composition_by_mode(&a, &t),
        _ => symbolic::flat_divide_by_mode(&a, &t),
    };
    match r {
        Ok(v) => Outcome::Value(v.to_string()),
        Err(e) => Outcome::Symbolic(Box::new(e)),
    }
}

/// `slice` or `dice` of a symbolic layout by a partial coordinate.
fn sliced(op: &'static str, a: &str, c: &str, out: Outcome) -> Outcome {
    let a = match a.parse::<SymLayout>() {
        Ok(a) => a,
        Err(e) => return unreadable(op, 0, a, e, out),
    };
    if a.is_static() {
        return out;
    }
    let c = match c.parse::<crate::PartialCoord>() {
        Ok(c) => c,
        // the layout reads with unknowns: the coordinate is the argument at fault
        Err(error) => {
            return Outcome::BadArgument {
                index: 1,
                error: Box::new(error),
            }
        }
    };
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

/// `eval_crd` of a symbolic layout at a coordinate: a sum of products of the unknowns.
fn evaluated(a: &str, c: &str, out: Outcome) -> Outcome {
    let a = match a.parse::<SymLayout>() {
        Ok(a) => a,
        Err(e) => return unreadable("eval_crd", 0, a, e, out),
    };
    if a.is_static() {
        return out;
    }
    let c = match c.parse::<crate::IntTuple>() {
        Ok(c) => c,
        // the layout reads with unknowns: the coordinate is the argument at fault
        Err(error) => {
            return Outcome::BadArgument {
                index: 1,
                error: Box::new(error),
            }
        }
    };
    match symbolic::eval(&a, &c) {
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
