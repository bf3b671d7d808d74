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
    /// Argument `index` (from 0) is not CuTe notation, or not the kind of value the operation
    /// takes there (the reader's error).
    BadArgument {
        /// The position of the argument, from 0.
        index: usize,
        /// Why it could not be read.
        error: Box<Error>,
    },
    /// Wrong number of arguments, or the operation is unknown.
    Usage(String),
}

impl Outcome {
    /// The error of a refusal or of an unreadable argument.
    ///
    /// ```
    /// use cute_cli::ops::{run, Outcome};
    /// let o = run("eval_crd", &["(4,8):(1,4)", "(1,2)x"]);
    /// assert!(matches!(o, Outcome::BadArgument { index: 1, .. }));
    /// assert_eq!(o.error().unwrap().category(), "Syntax");
    /// assert!(run("coalesce", &["(2,4):(1,2)"]).error().is_none());
    /// ```
    pub fn error(&self) -> Option<&Error> {
        match self {
            Outcome::Refused(e) | Outcome::BadArgument { error: e, .. } => Some(e),
            Outcome::Value(_) | Outcome::Usage(_) => None,
        }
    }
}

/// Why an area's operation gave no value: argument `k` could not be read, or the algebra refused.
pub(crate) enum Fail {
    /// Argument `k` (from 0) and the reader's error.
    Arg(usize, Error),
    /// The algebra's refusal.
    Alg(Error),
}

impl From<Error> for Fail {
    fn from(e: Error) -> Fail {
        Fail::Alg(e)
    }
}

/// An area's answer: `Err(usage)` for wrong arguments, else the value or why there is none.
pub(crate) type Answer = Result<Result<String, Fail>, Outcome>;

/// Reads argument `k` of `a` with `read`; a failure records which argument it was.
pub(crate) fn arg<T>(
    a: &[&str],
    k: usize,
    read: impl FnOnce(&str) -> Result<T, Error>,
) -> Result<T, Fail> {
    read(a[k]).map_err(|e| Fail::Arg(k, e))
}

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
/// cannot be read it names the argument (its position, the text quoted with control characters
/// escaped and cut after 40 characters) and the byte where reading stopped. When the algebra's
/// error names another operation than `op` (one `op` is built from), `op` comes first:
/// `error: zipped_divide: composition A ∘ B: …`.
/// Never contains a line break.
pub fn error_line(op: &str, args: &[&str], o: &Outcome) -> Option<String> {
    let mut name = String::new();
    op.chars().for_each(|c| push_escaped(&mut name, c));
    match o {
        Outcome::Value(_) => None,
        Outcome::Usage(m) => Some(format!("error: {m}")),
        Outcome::BadArgument { index, error } => Some(match args.get(*index) {
            Some(a) => format!(
                "error: {name}: argument {} {}: {error}",
                index + 1,
                quote(a)
            ),
            None => format!("error: {name}: {error}"),
        }),
        Outcome::Refused(e) => {
            let text = e.to_string();
            let prefix = if e.op().name() == op {
                String::new()
            } else {
                format!("{name}: ")
            };
            Some(match (e.lhs(), text.split_once(": ")) {
                // an error that records no operands: name the arguments as given
                (cute::Operand::None, Some((inner, condition))) => {
                    let quoted: Vec<String> = args.iter().map(|a| quote(a)).collect();
                    format!("error: {prefix}{inner} {}: {condition}", quoted.join(" "))
                }
                _ => format!("error: {prefix}{text}"),
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
        Ok(Err(Fail::Alg(e))) => Outcome::Refused(Box::new(e)),
        Ok(Err(Fail::Arg(index, e))) => Outcome::BadArgument {
            index,
            error: Box::new(e),
        },
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
