//! `cute conformance FILE`: reads the conformance format (`crates/cute-cli/tests/data/README.md`) and prints
//! every case line back, in order, with the `expected` field replaced by the computed result or
//! `ERROR <Category>`. A summary goes to stderr. This output is the contract the project is checked
//! with: keep it stable.
//!
//! A file that is not in the format is refused before anything is computed, with one line naming
//! the first line that is wrong: every line is blank, a `#` comment, or a case
//! `op <TAB> args… <TAB> => <TAB> expected <TAB> source` with a non-empty `op` before the `=>`
//! field. Files larger than [`FILE_LIMIT`] are refused (a device such as `/dev/zero` never ends).

use crate::ops::{quote, Outcome};
use std::io::{Read, Write};

/// The largest conformance file `cute conformance` reads: 64 MiB (the public set is about
/// 300 KB).
pub const FILE_LIMIT: u64 = 64 << 20;

/// Computes the `expected` field for one case line (`op`, its arguments).
pub fn compute(op: &str, args: &[&str]) -> String {
    match crate::ops::run(op, args) {
        Outcome::Value(v) => v,
        Outcome::Refused(e) | Outcome::BadArgument { error: e, .. } => {
            format!("ERROR {} {}", e.category(), e)
        }
        Outcome::Usage(m) => format!("ERROR Unsupported {m}"),
    }
}

/// Checks that `text` is in the conformance format (see the module docs) and returns its number
/// of cases, or the first wrong line (counted from 1) and what is wrong with it.
///
/// ```
/// use cute_cli::conformance::check;
/// assert_eq!(check("# a comment\ncoalesce\t(2,4):(1,2)\t=>\t8:1\tcpp\n"), Ok(1));
/// assert_eq!(check("coalesce\t8:1\n").unwrap_err().0, 1);
/// assert_eq!(check("\n=>\n").unwrap_err(), (2, "no operation before the field `=>`"));
/// ```
pub fn check(text: &str) -> Result<usize, (usize, &'static str)> {
    let mut cases = 0;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        match line.split('\t').position(|f| f == "=>") {
            None => {
                return Err((
                    n + 1,
                    "not a case: a case is `op<TAB>args…<TAB>=><TAB>expected<TAB>source` (no field `=>` found)",
                ))
            }
            Some(0) => return Err((n + 1, "no operation before the field `=>`")),
            Some(_) if line.split('\t').next().is_some_and(|op| op.trim().is_empty()) => {
                return Err((n + 1, "the operation field before `=>` is empty"))
            }
            Some(_) => cases += 1,
        }
    }
    Ok(cases)
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
    let (mut cases, mut matched, mut errors) = (0usize, 0usize, 0usize);
    for line in text.lines() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        // `check` found `=>` after a non-empty operation on every case line
        let Some(k) = fields.iter().position(|f| *f == "=>").filter(|&k| k > 0) else {
            continue;
        };
        cases += 1;
        let got = compute(fields[0], &fields[1..k]);
        if got.starts_with("ERROR") {
            errors += 1;
        }
        if fields.get(k + 1).is_some_and(|e| same(e, &got)) {
            matched += 1;
        }
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
    let _ = writeln!(err, "conformance: {cases} cases, {errors} errors returned, {matched} identical to the file's expected text");
    0
}

/// Exit status 1 for an output that cannot be written; a closed pipe (`… | head`) says nothing.
fn write_failed(err: &mut dyn Write, e: &std::io::Error) -> u8 {
    if e.kind() != std::io::ErrorKind::BrokenPipe {
        let _ = writeln!(err, "error: conformance: cannot write the result: {e}");
    }
    1
}

/// Textual equality (ERROR lines by category), a quick summary only; `conformance_diff.py` is the
/// judge.
fn same(expected: &str, got: &str) -> bool {
    if expected.starts_with("ERROR") || got.starts_with("ERROR") {
        let cat = |s: &str| {
            s.split_whitespace()
                .nth(1)
                .map(|w| w.trim_matches(|c: char| !c.is_alphabetic()).to_string())
        };
        return expected.starts_with("ERROR")
            && got.starts_with("ERROR")
            && cat(expected) == cat(got);
    }
    expected == got
}
