//! The operation registry: every operation of the algebra by its CuTe name, in one typed table
//! ([`operations`]). Each entry ([`Operation`]) carries its name, its parameters (name, kind,
//! arity), the kind of its result, a one-line summary, a worked example and its typed entry point.
//! Every front end is derived from the table: `cute OP ARG...` and `cute ops`, `cute conformance`,
//! the paper tour, the playground's wasm module, the fuzz targets, and the Python module's
//! functions and stubs. Adding an operation is adding an entry (and its tests).
//!
//! Each area of the algebra has its own file with its entries (`OPS`). [`run`] finds the
//! operation, checks the number of arguments against its parameters ([`Operation::arity`]), reads
//! each argument by its parameter's [`Kind`] and calls the entry point.
//!
//! ```
//! use cute::registry::{find, run, Outcome};
//! let op = find("logical_divide").unwrap();
//! assert_eq!((op.signature(), op.arity()), ("LAYOUT TILER".to_string(), (2, 2)));
//! match run("logical_divide", &["(8,16):(20,1)", "<4:1,8:2>"]) {
//!     Outcome::Value(v) => assert_eq!(v, "((4,2),(8,2)):((20,80),(2,1))"),
//!     _ => unreachable!(),
//! }
//! assert!(matches!(run("logical_divide", &["8:1"]), Outcome::Usage(_)));
//! ```

mod basic;
mod divide;
mod inverse;
pub mod kind;
mod pycute_only;
mod structure;
mod symbolic;
pub mod tensor;

pub use kind::{Args, Arity, Datum, Kind, Param};

use crate::{Error, IntTuple, Layout, Tiler};

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
    /// The refusal of an operation on layouts with run-time extents (see
    /// [`symbolic`](crate::symbolic)): category `Condition` when the answer depends on an
    /// unknown's value.
    Symbolic(Box<crate::symbolic::SymError>),
}

impl Outcome {
    /// The error of a refusal or of an unreadable argument.
    ///
    /// ```
    /// use cute::registry::{run, Outcome};
    /// let o = run("eval_crd", &["(4,8):(1,4)", "(1,2)x"]);
    /// assert!(matches!(o, Outcome::BadArgument { index: 1, .. }));
    /// assert_eq!(o.error().unwrap().category(), "Syntax");
    /// assert!(run("coalesce", &["(2,4):(1,2)"]).error().is_none());
    /// ```
    pub fn error(&self) -> Option<&Error> {
        match self {
            Outcome::Refused(e) | Outcome::BadArgument { error: e, .. } => Some(e),
            Outcome::Value(_) | Outcome::Usage(_) | Outcome::Symbolic(_) => None,
        }
    }

    /// The conformance category of a refusal (of the algebra, the reader or a symbolic
    /// operation), `None` for a value or a usage message.
    ///
    /// ```
    /// use cute::registry::run;
    /// assert_eq!(run("composition", &["(4,6,8):(2,3,5)", "6:3"]).category(), Some("Divisibility"));
    /// assert_eq!(run("coalesce", &["(2,4):(1,2)"]).category(), None);
    /// ```
    pub fn category(&self) -> Option<&'static str> {
        match self {
            Outcome::Symbolic(e) => Some(e.category()),
            o => o.error().map(Error::category),
        }
    }
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
            crate::Op::Parse,
            crate::ErrorKind::Syntax {
                pos: 0,
                expected: "an integer",
            },
        )),
    }
}

/// `e`, the reader's error on the text that starts at byte `at` of an argument, as an error on the
/// whole argument: a syntax error's position moved by `at` (so that it names the byte of the
/// argument, as every other reader's error does).
pub(crate) fn shifted(e: Error, at: usize) -> Error {
    match *e.kind() {
        crate::ErrorKind::Syntax { pos, expected } if e.op() == crate::Op::Parse => Error::new(
            crate::Op::Parse,
            crate::ErrorKind::Syntax {
                pos: pos.saturating_add(at),
                expected,
            },
        ),
        crate::ErrorKind::NotCongruent {
            at: Some((pos, what)),
        } if e.op() == crate::Op::Parse => Error::new(
            crate::Op::Parse,
            crate::ErrorKind::NotCongruent {
                at: Some((pos.saturating_add(at), what)),
            },
        ),
        _ => e,
    }
}

/// The largest layout size `eval_all` lists (2^16 offsets): beyond it `eval_all` refuses with an
/// error of category `Capacity` instead of printing (or spending minutes on) billions of offsets.
pub const EVAL_ALL_LIMIT: i64 = 1 << 16;

/// At most this many characters of an argument are quoted back in an error message.
const QUOTE_LIMIT: usize = 40;

/// `s` quoted for a one-line message: control characters escaped, cut after 40
/// characters (with the full length in bytes).
///
/// ```
/// use cute::registry::quote;
/// assert_eq!(quote("(4,8):(1,4)"), "`(4,8):(1,4)`");
/// assert_eq!(quote("a\nb"), "`a\\nb`");
/// assert_eq!(quote(&"x".repeat(50)), format!("`{}…` (50 bytes)", "x".repeat(40)));
/// ```
pub fn quote(s: &str) -> String {
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
///
/// ```
/// use cute::registry::push_escaped;
/// let mut s = String::new();
/// for c in "a\tb\u{2028}".chars() {
///     push_escaped(&mut s, c);
/// }
/// assert_eq!(s, "a\\tb\\u{2028}");
/// ```
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
///
/// ```
/// use cute::registry::{error_line, run};
/// let args = ["(4,6,8):(2,3,5)", "6:3"];
/// let o = run("composition", &args);
/// assert_eq!(error_line("composition", &args, &o).unwrap(), "error: composition (4,6,8):(2,3,5) ∘ 6:3: stride-divisibility condition (9) fails at mode 1 of the coalesced left operand: stride 3 and prefix product 4 divide neither way; decided exactly, no layout compatible with the right operand computes A∘B: along leaf 0 of B, A(B(c)) at c = 2·u is a progression for u < 2 but not at u = 2, so every such layout has a mode boundary at c = 4, which does not divide the extent 6");
/// assert_eq!(error_line("coalesce", &["12:1"], &run("coalesce", &["12:1"])), None);
/// ```
pub fn error_line(op: &str, args: &[&str], o: &Outcome) -> Option<String> {
    let mut name = String::new();
    op.chars().for_each(|c| push_escaped(&mut name, c));
    match o {
        Outcome::Value(_) => None,
        Outcome::Usage(m) => Some(format!("error: {m}")),
        Outcome::Symbolic(e) => Some(match &e.reason {
            // an argument the reader of unknown extents could not read, said as the integer
            // reader says it
            crate::symbolic::Reason::Syntax { pos, expected } if !e.operands.is_empty() => {
                format!(
                    "error: {name}: {}: parse: at byte {pos}: expected {expected}",
                    e.operands
                )
            }
            // named after the operation asked for where the refusal is an inner one's
            _ if e.op != op => format!("error: {name}: {e}"),
            _ => format!("error: {e}"),
        }),
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
                (crate::Operand::None, Some((inner, condition))) => {
                    let quoted: Vec<String> = args.iter().map(|a| quote(a)).collect();
                    format!("error: {prefix}{inner} {}: {condition}", quoted.join(" "))
                }
                _ => format!("error: {prefix}{text}"),
            })
        }
    }
}

/// The areas of the algebra, each with its table of operations.
const AREAS: [&[Operation]; 6] = [
    basic::OPS,
    inverse::OPS,
    divide::OPS,
    pycute_only::OPS,
    structure::OPS,
    tensor::OPS,
];

/// An operation's typed entry point: its value on arguments read by its parameters' kinds.
pub type Entry = fn(&[Datum]) -> Result<Datum, Error>;

/// A worked example of an operation: arguments in CuTe notation and the value `cute OP ARG...`
/// prints for them (the registry's tests run every example).
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The arguments.
    pub args: &'static [&'static str],
    /// The printed value.
    pub value: &'static str,
}

/// One operation of the registry: an entry of the table.
#[derive(Clone, Copy)]
pub struct Operation {
    /// Its CuTe name, e.g. `logical_divide`.
    pub name: &'static str,
    /// Its parameters, in order: only the last ones may be optional, and only the last one may
    /// take several arguments.
    pub params: &'static [Param],
    /// What it gives.
    pub result: Kind,
    /// What it does, in one line.
    pub doc: &'static str,
    /// A worked example.
    pub example: Example,
    /// Its typed entry point.
    pub entry: Entry,
}

impl core::fmt::Debug for Operation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} {}", self.name, self.signature())
    }
}

impl Operation {
    /// Its arguments as `cute ops` lists them: one word each (`LAYOUT`, `TILER`, `LAYOUT|TUPLE`
    /// for either), `[X]` when it may be left out, `X...` for one or more, `[X...]` for any
    /// number.
    ///
    /// ```
    /// use cute::registry::find;
    /// assert_eq!(find("crd2idx").unwrap().signature(), "COORD SHAPE [STRIDE]");
    /// assert_eq!(find("get").unwrap().signature(), "LAYOUT|TUPLE [INDEX...]");
    /// ```
    pub fn signature(&self) -> String {
        let words: Vec<String> = self.params.iter().map(Param::usage).collect();
        words.join(" ")
    }

    /// The least and the most number of arguments (`usize::MAX`: no bound).
    ///
    /// ```
    /// use cute::registry::find;
    /// assert_eq!(find("complement").unwrap().arity(), (1, 2));
    /// assert_eq!(find("make_layout").unwrap().arity(), (1, usize::MAX));
    /// assert_eq!(find("get").unwrap().arity(), (1, usize::MAX));
    /// ```
    pub fn arity(&self) -> (usize, usize) {
        let (mut lo, mut hi) = (0usize, 0usize);
        for p in self.params {
            match p.arity {
                Arity::One => (lo, hi) = (lo + 1, hi.saturating_add(1)),
                Arity::Optional => hi = hi.saturating_add(1),
                Arity::Many => (lo, hi) = (lo + 1, usize::MAX),
                Arity::Any => hi = usize::MAX,
            }
        }
        (lo, hi)
    }

    /// The parameter that argument `k` (from 0) is read for: the `k`-th, or the last one when it
    /// takes several arguments.
    ///
    /// ```
    /// use cute::registry::find;
    /// let get = find("get").unwrap();
    /// assert_eq!((get.param(0).unwrap().name, get.param(5).unwrap().name), ("x", "index"));
    /// assert!(find("coalesce").unwrap().param(1).is_none());
    /// ```
    pub fn param(&self, k: usize) -> Option<&'static Param> {
        let params = self.params;
        params.get(k).or_else(|| {
            params
                .last()
                .filter(|p| matches!(p.arity, Arity::Many | Arity::Any))
        })
    }

    /// Runs the operation on `args` in CuTe notation (as [`run`] does): each argument read by its
    /// parameter's kind, then the entry point.
    ///
    /// ```
    /// use cute::registry::{find, Outcome};
    /// let op = find("coalesce").unwrap();
    /// let o = op.run(&["(2,(1,6)):(1,(6,2))"]);
    /// assert!(matches!(o, Outcome::Value(v) if v == "12:1"));
    /// ```
    pub fn run(&self, args: &[&str]) -> Outcome {
        let (lo, hi) = self.arity();
        if args.len() < lo || args.len() > hi {
            return Outcome::Usage(format!(
                "{} takes {} ({} given)",
                self.name,
                self.signature(),
                args.len()
            ));
        }
        // an argument that reads only as a layout with run-time extents goes to the symbolic
        // operations (`symbolic::fallback`); every other outcome stands
        let out = (|| {
            let mut values = Vec::with_capacity(args.len());
            for (index, a) in args.iter().enumerate() {
                let read = match self.param(index) {
                    Some(p) => p.kind.read(a),
                    None => Err(Error::new(
                        crate::Op::Parse,
                        crate::ErrorKind::Syntax {
                            pos: 0,
                            expected: "no further argument",
                        },
                    )),
                };
                match read {
                    Ok(v) => values.push(v),
                    Err(e) => {
                        return Outcome::BadArgument {
                            index,
                            error: Box::new(e),
                        }
                    }
                }
            }
            match (self.entry)(&values) {
                Ok(v) => Outcome::Value(v.to_string()),
                Err(e) => Outcome::Refused(Box::new(e)),
            }
        })();
        // whether the unreadable argument is one where a layout is read
        let layout_at = |k: usize| {
            self.param(k).is_some_and(|p| {
                matches!(
                    p.kind,
                    Kind::Layout | Kind::Tiler | Kind::LayoutOrTuple | Kind::ShapeOrLayout
                )
            })
        };
        symbolic::fallback(self.name, args, out, &layout_at)
    }
}

/// Every operation of the registry, area by area.
///
/// ```
/// assert!(cute::registry::operations().any(|o| o.name == "right_inverse"));
/// ```
pub fn operations() -> impl Iterator<Item = Operation> {
    AREAS.iter().flat_map(|ops| ops.iter().copied())
}

/// The operation named `name`, if there is one.
///
/// ```
/// use cute::registry::find;
/// assert_eq!(find("logical_divide").unwrap().signature(), "LAYOUT TILER");
/// assert!(find("no_such_operation").is_none());
/// ```
pub fn find(name: &str) -> Option<Operation> {
    operations().find(|o| o.name == name)
}

/// Runs `op` on `args`: its value, the algebra's refusal, the argument that could not be read,
/// or a usage message (wrong number of arguments, unknown operation).
///
/// ```
/// use cute::registry::{run, Outcome};
/// assert!(matches!(run("right_inverse", &["(4,8):(8,1)"]), Outcome::Value(v) if v == "(8,4):(4,1)"));
/// let Outcome::Usage(u) = run("no_such_operation", &[]) else { unreachable!() };
/// assert_eq!(u, "unknown operation `no_such_operation` (see `cute ops`)");
/// ```
pub fn run(op: &str, args: &[&str]) -> Outcome {
    match find(op) {
        Some(o) => o.run(args),
        None => Outcome::Usage(format!("unknown operation {} (see `cute ops`)", quote(op))),
    }
}

#[cfg(test)]
mod tests {
    use super::{operations, Arity, Outcome};

    #[test]
    fn every_operation_runs_its_example() {
        for op in operations() {
            match op.run(op.example.args) {
                Outcome::Value(v) => assert_eq!(v, op.example.value, "{op:?}"),
                o => panic!(
                    "{op:?} on its example: {:?}",
                    o.error().map(|e| e.to_string())
                ),
            }
        }
    }

    #[test]
    fn parameters_are_well_formed() {
        for op in operations() {
            let n = op.params.len();
            assert!(n >= 1 && !op.doc.is_empty(), "{op:?}");
            for (k, p) in op.params.iter().enumerate() {
                assert!(!p.name.is_empty() && !p.word.is_empty(), "{op:?}");
                match p.arity {
                    Arity::One => assert!(
                        op.params[..k].iter().all(|q| q.arity == Arity::One),
                        "{op:?}: a required parameter after an optional one"
                    ),
                    Arity::Optional => {}
                    Arity::Many | Arity::Any => assert_eq!(k + 1, n, "{op:?}: not last"),
                }
                // every parameter's kind can be read from text
                assert!(
                    !matches!(
                        p.kind.read("4:1"),
                        Err(e) if e.to_string().contains("only a result")
                    ),
                    "{op:?}: parameter {} of a result kind",
                    p.name
                );
            }
        }
    }

    #[test]
    fn every_operation_checks_its_number_of_arguments() {
        for op in operations() {
            let (lo, hi) = op.arity();
            assert!(lo >= 1 && lo <= hi, "{op:?}: arity ({lo}, {hi})");
            let args = vec!["4:1"; lo];
            if let Outcome::Usage(m) = op.run(&args) {
                panic!("{op:?} on {args:?}: usage message {m:?}");
            }
            if hi != usize::MAX {
                let more = vec!["4:1"; hi + 1];
                assert!(
                    matches!(op.run(&more), Outcome::Usage(_)),
                    "{op:?} accepts {} arguments",
                    hi + 1
                );
            }
        }
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<&str> = operations().map(|o| o.name).collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n);
    }
}
