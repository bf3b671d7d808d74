//! The operations reachable from the command line, by their CuTe names, on textual arguments.
//! Shared by `cute OP ARG...`, `cute conformance` and `cute paper`.
//!
//! Each area of the algebra has its own file with a `run(op, args)` that answers `None` for names it
//! does not know; [`run`] asks each in turn.

mod core;
mod divide;
mod extra;
mod inverse;
mod structure;
pub(crate) mod tensor;

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

/// The largest layout size `eval_all` lists (2^16 offsets): beyond it `eval_all` refuses with an
/// error of category `Capacity` instead of printing (or spending minutes on) billions of offsets.
pub const EVAL_ALL_LIMIT: i64 = 1 << 16;

/// At most this many characters of an argument are quoted back in an error message.
const QUOTE_LIMIT: usize = 40;

/// `s` quoted for a one-line message: control characters escaped, cut after [`QUOTE_LIMIT`]
/// characters (with the full length in bytes).
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::from("`");
    for (n, c) in s.chars().enumerate() {
        if n == QUOTE_LIMIT {
            out.push_str(&format!("…` ({} bytes)", s.len()));
            return out;
        }
        push_escaped(&mut out, c);
    }
    out.push('`');
    out
}

/// Appends `c`, escaped (`\n`, `\u{2028}`) when it is a control character or a line or paragraph
/// separator, so that the text stays on one line.
pub fn push_escaped(out: &mut String, c: char) {
    if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

/// The one-line message `cute OP ARG...` prints on stderr when `run(op, args)` gave `o`: `None`
/// for a value. It names the operation, the operands and the violated condition; for text that
/// cannot be read it names the argument (quoted, control characters escaped, cut after 40
/// characters) and the byte where reading stopped.
/// Never contains a line break.
pub fn error_line(op: &str, args: &[&str], o: &Outcome) -> Option<String> {
    match o {
        Outcome::Value(_) => None,
        Outcome::Usage(m) => Some(format!("error: {m}")),
        Outcome::Refused(e) if e.op() == cute::Op::Parse => {
            let culprit = args.iter().position(|a| {
                [
                    layout(a).err(),
                    tuple(a).err(),
                    tiler(a).err(),
                    int(a).err(),
                ]
                .contains(&Some(**e))
            });
            Some(match culprit {
                Some(k) => format!("error: {op}: argument {} {}: {e}", k + 1, quote(args[k])),
                None => format!("error: {op}: {e}"),
            })
        }
        Outcome::Refused(e) => {
            let text = e.to_string();
            Some(match (e.lhs(), text.split_once(": ")) {
                // an error that records no operands: name the arguments as given
                (cute::Operand::None, Some((name, condition))) => {
                    let quoted: Vec<String> = args.iter().map(|a| quote(a)).collect();
                    format!("error: {name} {}: {condition}", quoted.join(" "))
                }
                _ => format!("error: {text}"),
            })
        }
    }
}

/// Runs `op` on `args`.
pub fn run(op: &str, args: &[&str]) -> Outcome {
    let answer = core::run(op, args)
        .or_else(|| inverse::run(op, args))
        .or_else(|| divide::run(op, args))
        .or_else(|| extra::run(op, args))
        .or_else(|| structure::run(op, args))
        .or_else(|| tensor::run(op, args))
        .unwrap_or_else(|| {
            Err(Outcome::Usage(format!(
                "unknown operation {} (see `cute ops`)",
                quote(op)
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
        .chain(structure::OPS)
        .chain(tensor::OPS)
}
