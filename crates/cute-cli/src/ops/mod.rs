//! The operations reachable from the command line, by their CuTe names, on textual arguments.
//! Shared by `cute OP ARG...`, `cute conformance` and `cute paper`.
//!
//! Each area of the algebra has its own file with a `run(op, args)` that answers `None` for names it
//! does not know; [`run`] asks each in turn.

mod core;
mod divide;
mod extra;
mod inverse;

use cute::{Error, IntTuple, Layout, Tiler};

/// What running an operation gave: its printed value, or why it failed.
pub enum Outcome {
    /// The value, printed in CuTe notation.
    Value(String),
    /// The algebra refused (category and one-line reason).
    Refused(Box<Error>),
    /// The arguments could not be read or the operation is unknown.
    Usage(String),
}

/// An area's answer: `Err(usage)` for wrong arguments, else the algebra's result.
pub(crate) type Answer = Result<Result<String, Error>, Outcome>;

pub(crate) fn layout(s: &str) -> Result<Layout, Error> {
    s.parse()
}
pub(crate) fn tuple(s: &str) -> Result<IntTuple, Error> {
    s.parse()
}
pub(crate) fn tiler(s: &str) -> Result<Tiler, Error> {
    s.parse()
}
pub(crate) fn int(s: &str) -> Result<i64, Error> {
    let t: IntTuple = s.parse()?;
    match t.as_int() {
        Some(v) => Ok(v),
        None => Err(Error::new(
            cute::Op::Parse,
            cute::ErrorKind::Syntax {
                pos: 0,
                expected: "an integer",
            },
        )),
    }
}

/// Checks the number of arguments of `op` against its signature in [`all_ops`].
pub(crate) fn arity(args: &[&str], lo: usize, hi: usize, op: &str) -> Result<(), Outcome> {
    if args.len() < lo || args.len() > hi {
        let sig = all_ops()
            .find(|(n, _)| *n == op)
            .map(|(_, s)| *s)
            .unwrap_or("");
        return Err(Outcome::Usage(format!(
            "{op} takes {sig} ({} given)",
            args.len()
        )));
    }
    Ok(())
}

/// Runs `op` on `args`.
pub fn run(op: &str, args: &[&str]) -> Outcome {
    let answer = core::run(op, args)
        .or_else(|| inverse::run(op, args))
        .or_else(|| divide::run(op, args))
        .or_else(|| extra::run(op, args))
        .unwrap_or_else(|| {
            Err(Outcome::Usage(format!(
                "unknown operation `{op}` (see `cute ops`)"
            )))
        });
    match answer {
        Ok(Ok(v)) => Outcome::Value(v),
        Ok(Err(e)) => Outcome::Refused(Box::new(e)),
        Err(o) => o,
    }
}

/// Every operation `run` knows with its argument list, for `cute ops` and usage messages.
pub fn all_ops() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    core::OPS
        .iter()
        .chain(inverse::OPS)
        .chain(divide::OPS)
        .chain(extra::OPS)
}
