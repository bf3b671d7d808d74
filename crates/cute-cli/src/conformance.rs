//! `cute conformance FILE`: reads the conformance format (`crates/cute-cli/tests/data/README.md`) and prints
//! every case line back, in order, with the `expected` field replaced by the computed result or
//! `ERROR <Category>`. A summary goes to stderr. This output is the contract the project is checked
//! with: keep it stable.
//!
//! A file that is not in the format is refused before anything is computed, with one line naming
//! the first line that is wrong: every line is empty, a `#` comment, or a case
//! `op <TAB> args… <TAB> => <TAB> expected <TAB> source` with a non-empty `op` before the `=>`
//! field and an expected `ERROR <Category>` naming one of [`CATEGORIES`]. A line of only spaces
//! or tabs is refused (it is neither empty nor a case). Files larger than [`FILE_LIMIT`] are
//! refused (a device such as `/dev/zero` never ends).
//!
//! The summary line on stderr says how each case compares with the file's expected field, by the
//! rules of the set's `conformance_diff.py` ([`agreement`]):
//!
//! ```text
//! conformance: 3799 cases: 3573 identical, 171 refused with the expected category, 11 equal after normalisation, 44 differ
//! ```

use crate::ops::{quote, Outcome};
use std::io::{Read, Write};

/// The largest conformance file `cute conformance` reads: 64 MiB (the public set is about
/// 300 KB).
pub const FILE_LIMIT: u64 = 64 << 20;

/// The error categories an expected `ERROR <Category>` may name: those of the conformance set
/// (`Divisibility`, `NotInjective`, `OutOfRange`, `ProfileMismatch`, `Unsupported`) and the others
/// [`cute::Error::category`] returns.
pub const CATEGORIES: [&str; 9] = [
    "Divisibility",
    "NotInjective",
    "OutOfRange",
    "ProfileMismatch",
    "Unsupported",
    "InvalidShape",
    "Overflow",
    "Capacity",
    "Syntax",
];

/// Computes the `expected` field for one case line (`op`, its arguments).
pub fn compute(op: &str, args: &[&str]) -> String {
    match crate::ops::run(op, args) {
        Outcome::Value(v) => v,
        Outcome::Refused(e) | Outcome::BadArgument { error: e, .. } => {
            format!("ERROR {} {}", e.category(), e)
        }
        Outcome::Usage(m) => format!("ERROR Unsupported {m}"),
        Outcome::Symbolic(e) => format!("ERROR {} {}", e.category(), e),
    }
}

/// Checks that `text` is in the conformance format (see the module docs) and returns its number
/// of cases, or the first wrong line (counted from 1) and what is wrong with it.
///
/// ```
/// use cute_cli::conformance::check;
/// assert_eq!(check("# a comment\n\ncoalesce\t(2,4):(1,2)\t=>\t8:1\tcpp\n"), Ok(1));
/// assert_eq!(check("coalesce\t8:1\n").unwrap_err().0, 1);
/// assert_eq!(check("\n=>\n").unwrap_err().0, 2);
/// assert_eq!(check("\t\t\n").unwrap_err().0, 1);
/// assert_eq!(check("coalesce\t8:1\t=>\tERROR Bogus\tcpp\n").unwrap_err().0, 1);
/// ```
pub fn check(text: &str) -> Result<usize, (usize, String)> {
    let mut cases = 0;
    for (n, line) in text.lines().enumerate() {
        let wrong = |what: String| Err((n + 1, what));
        if line.is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if line.trim().is_empty() {
            return wrong(
                "a line of only spaces or tabs: a blank line must be empty, a case needs `op<TAB>args…<TAB>=><TAB>expected<TAB>source`"
                    .to_string(),
            );
        }
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.iter().position(|f| *f == "=>") {
            None => {
                return wrong(
                    "not a case: a case is `op<TAB>args…<TAB>=><TAB>expected<TAB>source` (no field `=>` found)"
                        .to_string(),
                )
            }
            Some(0) => return wrong("no operation before the field `=>`".to_string()),
            Some(_) if fields[0].trim().is_empty() => {
                return wrong("the operation field before `=>` is empty".to_string())
            }
            Some(k) => {
                if let Some(why) = fields.get(k + 1).and_then(|e| bad_error_field(e)) {
                    return wrong(why);
                }
                cases += 1;
            }
        }
    }
    Ok(cases)
}

/// Why an expected field `ERROR …` is wrong: no category, or one not in [`CATEGORIES`].
fn bad_error_field(expected: &str) -> Option<String> {
    let rest = match expected.strip_prefix("ERROR") {
        Some(r) if r.is_empty() || r.starts_with(' ') => r,
        _ => return None, // a value
    };
    let known = CATEGORIES.join(", ");
    match rest.split_whitespace().next() {
        None => Some(format!(
            "the expected `ERROR` names no category (one of {known})"
        )),
        Some(c) if CATEGORIES.contains(&c) => None,
        Some(c) => Some(format!(
            "the expected `ERROR {c}` names an unknown error category {} (the categories are {known})",
            quote(c)
        )),
    }
}

/// Runs every case of the conformance file at `path`, writing the computed lines to `out` and the
/// summary (or the one-line error) to `err`; returns the exit status: 0, 1 for a file that is not
/// in the format (too large, not UTF-8, a wrong line: nothing is written to `out` then), 2 when it
/// cannot be read.
pub fn run(path: &std::path::Path, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let shown = quote(&path.display().to_string());
    let mut bytes = Vec::new();
    let read =
        std::fs::File::open(path).and_then(|f| f.take(FILE_LIMIT + 1).read_to_end(&mut bytes));
    if let Err(e) = read {
        let _ = writeln!(err, "error: conformance: cannot read {shown}: {e}");
        return 2;
    }
    if bytes.len() as u64 > FILE_LIMIT {
        let _ = writeln!(
            err,
            "error: conformance {shown}: the file is larger than {FILE_LIMIT} bytes, the most a conformance file may hold"
        );
        return 1;
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
            let _ = writeln!(
                err,
                "error: conformance {shown}: line {line} is not UTF-8 (byte {at} of the file)"
            );
            return 1;
        }
    };
    if let Err((line, what)) = check(&text) {
        let _ = writeln!(err, "error: conformance {shown}: line {line}: {what}");
        return 1;
    }
    let mut w = std::io::BufWriter::new(out);
    let mut cases = 0usize;
    // identical, refused with the expected category, equal after normalisation, differ
    let mut count = [0usize; 4];
    // a `# cpp prints …` comment makes the case after it strict (see `agreement`)
    let mut strict = false;
    for line in text.lines() {
        if line.is_empty() {
            continue;
        }
        if line.trim_start().starts_with('#') {
            strict = line.trim_start().starts_with("# cpp prints");
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        // `check` found `=>` after a non-empty operation on every case line
        let Some(k) = fields.iter().position(|f| *f == "=>").filter(|&k| k > 0) else {
            continue;
        };
        cases += 1;
        let got = compute(fields[0], &fields[1..k]);
        let a = match fields.get(k + 1) {
            Some(e) => agreement(e, &got, strict),
            None => Agreement::Differs,
        };
        count[a as usize] += 1;
        strict = false;
        let mut rec: Vec<&str> = fields[..=k].to_vec();
        rec.push(&got);
        rec.extend_from_slice(&fields[(k + 2).min(fields.len())..]);
        if let Err(e) = writeln!(w, "{}", rec.join("\t")) {
            return write_failed(err, &e);
        }
    }
    if let Err(e) = w.flush() {
        return write_failed(err, &e);
    }
    let [identical, refused, normalised, differ] = count;
    let _ = writeln!(
        err,
        "conformance: {cases} cases: {identical} identical, {refused} refused with the expected category, {normalised} equal after normalisation, {differ} differ"
    );
    0
}

/// Exit status 1 for an output that cannot be written; a closed pipe (`… | head`) says nothing.
fn write_failed(err: &mut dyn Write, e: &std::io::Error) -> u8 {
    if e.kind() != std::io::ErrorKind::BrokenPipe {
        let _ = writeln!(err, "error: conformance: cannot write the result: {e}");
    }
    1
}

/// How a computed value compares with a case's expected field, by the rules of the conformance
/// set's `conformance_diff.py` (its README, section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// The same text.
    Identical = 0,
    /// Both refusals, of the same category (`ERROR Divisibility` expected, `ERROR Divisibility
    /// composition …` computed).
    SameRefusal = 1,
    /// Equal after the documented normalisation: whitespace and CuTe's static markers (`_4`)
    /// ignored, `,)` read as `)`, `None` as `_`, and the stride of a size-1 mode not compared
    /// (except in a strict case: a paper-form complement, after a `# cpp prints` comment).
    Normalised = 2,
    /// Anything else.
    Differs = 3,
}

/// How `got` compares with `expected` (see [`Agreement`]); `strict` compares the strides of
/// size-1 modes too.
///
/// ```
/// use cute_cli::conformance::{agreement, Agreement};
/// assert_eq!(agreement("(4,8):(1,4)", "(4,8):(1,4)", false), Agreement::Identical);
/// assert_eq!(agreement("ERROR Divisibility", "ERROR Divisibility composition …", false), Agreement::SameRefusal);
/// assert_eq!(agreement("(_4,_8):(_1,_4)", "(4,8):(1,4)", false), Agreement::Normalised);
/// assert_eq!(agreement("((4,4),1):((4,1),0)", "((4,4),1):((4,1),16)", false), Agreement::Normalised);
/// assert_eq!(agreement("(2,1):(4,64)", "(2,1):(4,0)", true), Agreement::Differs);
/// assert_eq!(agreement("ERROR Divisibility", "ERROR NotInjective x", false), Agreement::Differs);
/// ```
pub fn agreement(expected: &str, got: &str, strict: bool) -> Agreement {
    if expected == got {
        Agreement::Identical
    } else if same(expected, got, strict) {
        if expected.trim().starts_with("ERROR") {
            Agreement::SameRefusal
        } else {
            Agreement::Normalised
        }
    } else {
        Agreement::Differs
    }
}

/// The comparison of `conformance_diff.py`: errors by category, values by exact text after
/// normalisation and, failing that, by structure with the strides of size-1 modes not compared
/// (unless `strict`).
///
/// ```
/// use cute_cli::conformance::same;
/// assert!(same("(_4,_8):(_1,_4)", "(4, 8):(1, 4)", false));
/// assert!(!same("(4,8):(1,4)", "((4),8):((1),4)", false)); // shapes are compared exactly
/// assert!(!same("ERROR Divisibility", "2:4", false));
/// ```
pub fn same(expected: &str, actual: &str, strict: bool) -> bool {
    let (e, a) = (expected.trim(), actual.trim());
    if e.starts_with("ERROR") || a.starts_with("ERROR") {
        return e.starts_with("ERROR") && a.starts_with("ERROR") && category(e) == category(a);
    }
    let (e, a) = (normalise(e), normalise(a));
    if e == a {
        return true;
    }
    let (mut i, mut j) = (0, 0);
    match (parse(e.as_bytes(), &mut i), parse(a.as_bytes(), &mut j)) {
        (Some(x), Some(y)) if i == e.len() && j == a.len() => same_tree(&x, &y, strict),
        _ => false,
    }
}

/// A value of the conformance grammar, for structural comparison.
#[derive(Debug, PartialEq)]
enum Node {
    Leaf(String),
    Tup(Vec<Node>),
    Lay(Box<Node>, Box<Node>),
    Tiler(Vec<Node>),
}

fn parse(t: &[u8], i: &mut usize) -> Option<Node> {
    if t.get(*i) == Some(&b'<') {
        *i += 1;
        let mut items = vec![];
        while t.get(*i)? != &b'>' {
            items.push(parse(t, i)?);
            if t.get(*i) == Some(&b',') {
                *i += 1;
            }
        }
        *i += 1;
        return Some(Node::Tiler(items));
    }
    let n = node(t, i)?;
    if t.get(*i) == Some(&b':') {
        *i += 1;
        let d = node(t, i)?;
        return Some(Node::Lay(Box::new(n), Box::new(d)));
    }
    Some(n)
}

fn node(t: &[u8], i: &mut usize) -> Option<Node> {
    if t.get(*i) == Some(&b'(') {
        *i += 1;
        let mut items = vec![];
        while t.get(*i)? != &b')' {
            items.push(node(t, i)?);
            if t.get(*i) == Some(&b',') {
                *i += 1;
            }
        }
        *i += 1;
        return Some(Node::Tup(items));
    }
    let j = *i;
    while *i < t.len() && !b"(),:<>".contains(&t[*i]) {
        *i += 1;
    }
    Some(Node::Leaf(String::from_utf8_lossy(&t[j..*i]).into_owned()))
}

/// Whitespace removed, static markers (`_` directly before a digit or `-`) dropped, `,)` read as
/// `)` and `None` as `_`.
fn normalise(s: &str) -> String {
    let s: String = s.split_whitespace().collect();
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    for (k, &c) in b.iter().enumerate() {
        if c == b'_'
            && b.get(k + 1)
                .is_some_and(|n| n.is_ascii_digit() || *n == b'-')
        {
            continue;
        }
        out.push(c);
    }
    String::from_utf8_lossy(&out)
        .replace(",)", ")")
        .replace("None", "_")
}

fn strides_match(shape: &Node, e: &Node, a: &Node, strict: bool) -> bool {
    match shape {
        Node::Leaf(s) => {
            e == a || (!strict && s == "1" && matches!((e, a), (Node::Leaf(_), Node::Leaf(_))))
        }
        Node::Tup(ss) => match (e, a) {
            (Node::Tup(es), Node::Tup(as_)) => {
                es.len() == ss.len()
                    && as_.len() == ss.len()
                    && ss
                        .iter()
                        .zip(es)
                        .zip(as_)
                        .all(|((s, x), y)| strides_match(s, x, y, strict))
            }
            _ => false,
        },
        _ => false,
    }
}

fn same_tree(e: &Node, a: &Node, strict: bool) -> bool {
    match (e, a) {
        (Node::Leaf(x), Node::Leaf(y)) => x == y,
        (Node::Lay(es, ed), Node::Lay(as_, ad)) => es == as_ && strides_match(es, ed, ad, strict),
        (Node::Tup(x), Node::Tup(y)) | (Node::Tiler(x), Node::Tiler(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_tree(p, q, strict))
        }
        _ => false,
    }
}

/// The category of an `ERROR …` text: the letters of its second word.
fn category(s: &str) -> String {
    s.split_whitespace()
        .nth(1)
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .collect()
}
