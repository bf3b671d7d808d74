//! Pointing at the offending characters of an argument that is not CuTe notation.
//!
//! A failure of `cute` prints one line, `error: <op> <operands>: <condition>`. When the reason is
//! that an argument (or an option's value) could not be read and the reader's error says where
//! (a syntax error at a byte, or an integer literal that does not fit in `i64`), two lines follow:
//! the argument, indented by two spaces (control characters escaped as in the first line, and cut
//! around the error with `…` when it is longer than [`ECHO_LIMIT`] characters), and a line of two
//! spaces, then spaces and one or more `^` under the offending characters. A `^` one column after
//! the echoed text means that the input ended where more was expected.
//!
//! ```text
//! error: eval: argument 2 `(1,2)x`: parse: at byte 5: expected the end of the input
//!   (1,2)x
//!        ^
//! ```

use crate::ops::push_escaped;
use cute::{Error, ErrorKind, Op};
use std::ops::Range;

/// The longest echo of an argument, in characters (`…` marks included).
pub const ECHO_LIMIT: usize = 72;

/// The indentation of the echo and of the caret line.
pub const INDENT: &str = "  ";

/// The bytes of `text` that the reader's error `e` blames, if it says: the character at a syntax
/// error's position (an empty range at the end of the input) or where a stride leaves its
/// shape's structure, or the first integer literal of
/// `text` (its sign included) that does not fit in `i64` for an overflow of the reader.
///
/// ```
/// use cute_cli::diag::span;
/// let e = "(1,2)x".parse::<cute::Layout>().unwrap_err();
/// assert_eq!(span("(1,2)x", &e), Some(5..6));
/// let e = "(2,99999999999999999999):(1,2)".parse::<cute::Layout>().unwrap_err();
/// assert_eq!(span("(2,99999999999999999999):(1,2)", &e), Some(3..23));
/// let e = "(2,3):(1,2,3)".parse::<cute::Layout>().unwrap_err();
/// assert_eq!(span("(2,3):(1,2,3)", &e), Some(10..11));
/// ```
pub fn span(text: &str, e: &Error) -> Option<Range<usize>> {
    if e.op() != Op::Parse {
        return None;
    }
    match *e.kind() {
        ErrorKind::Syntax { pos, .. } | ErrorKind::NotCongruent { at: Some((pos, _)) } => {
            Some(char_at(text, pos))
        }
        ErrorKind::Overflow { .. } => overflowing_literal(text),
        _ => None,
    }
}

/// The bytes of the character of `text` at byte `pos` (rounded down to a character boundary),
/// or the empty range at the end of the input.
///
/// ```
/// assert_eq!(cute_cli::diag::char_at("(4,⌈M/2⌉)", 4), 3..6);
/// assert_eq!(cute_cli::diag::char_at("(4,8", 9), 4..4);
/// ```
pub fn char_at(text: &str, pos: usize) -> Range<usize> {
    let mut p = pos.min(text.len());
    while !text.is_char_boundary(p) {
        p -= 1;
    }
    let width = text[p..].chars().next().map_or(0, char::len_utf8);
    p..p + width
}

/// The first run of decimal digits (with a `-` directly before it) that is not an `i64`.
fn overflowing_literal(text: &str) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
        let mut end = i;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
        if text[start..end].parse::<i64>().is_err() {
            return Some(start..end);
        }
        i = end;
    }
    None
}

/// The two lines under an error line that point at bytes `span` of `text`: the echo and the
/// carets, each with its line break (see the [module](self) documentation).
///
/// ```
/// assert_eq!(cute_cli::diag::pointer("(4,8:(1,4)", 4..5), "  (4,8:(1,4)\n      ^\n");
/// assert_eq!(cute_cli::diag::pointer("(8,8):(8,1", 10..10), "  (8,8):(8,1\n            ^\n");
/// ```
pub fn pointer(text: &str, span: Range<usize>) -> String {
    // the escaped text, character by character, with the byte each came from
    let mut shown: Vec<(usize, char)> = Vec::new();
    for (at, c) in text.char_indices() {
        let mut e = String::new();
        push_escaped(&mut e, c);
        shown.extend(e.chars().map(|x| (at, x)));
    }
    let first = shown
        .iter()
        .position(|&(at, _)| at >= span.start)
        .unwrap_or(shown.len());
    let last = shown
        .iter()
        .rposition(|&(at, _)| at < span.end)
        .filter(|&l| l >= first)
        .map_or(first + 1, |l| l + 1);
    // the window of at most ECHO_LIMIT characters, starting a little before the span
    let (mut from, mut to) = (0, shown.len());
    if shown.len() > ECHO_LIMIT {
        let room = ECHO_LIMIT - 2; // for the two `…`
        from = first
            .saturating_sub(room / 4)
            .min(shown.len().saturating_sub(room));
        to = (from + room).min(shown.len());
    }
    let mut echo = String::from(INDENT);
    let mut col = 0; // the column of shown[from] in the echo
    if from > 0 {
        echo.push('…');
        col = 1;
    }
    echo.extend(shown[from..to].iter().map(|&(_, c)| c));
    if to < shown.len() {
        echo.push('…');
    }
    let start = col + first - from;
    let end = col + last.min(to.max(first + 1)) - from;
    format!(
        "{echo}\n{INDENT}{}{}\n",
        " ".repeat(start),
        "^".repeat(end - start)
    )
}

/// `line` (an error line without its line break) and, when `e` says where reading `text` failed,
/// the echo and caret lines under it; the result has no final line break.
pub fn with_pointer(line: String, text: &str, e: &Error) -> String {
    match span(text, e) {
        Some(s) => {
            let p = pointer(text, s);
            format!("{line}\n{}", p.trim_end_matches('\n'))
        }
        None => line,
    }
}

/// The message for argument `k` (from 1) of `cmd` that could not be read: the error line
/// `error: {cmd}: argument {k} `text`: {e}` and the pointer lines under it.
pub fn bad_argument(cmd: &str, k: usize, text: &str, e: &Error) -> String {
    let line = format!(
        "error: {cmd}: argument {k} {}: {e}",
        crate::ops::quote(text)
    );
    with_pointer(line, text, e)
}
