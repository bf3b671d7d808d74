//! The few pieces of JSON the `--json` outputs are made of (no dependency: the values are strings,
//! integers, booleans, `null`, arrays and objects written by hand).

use std::fmt::Write;

/// A JSON string literal: `"`, `\` and control characters escaped.
///
/// ```
/// assert_eq!(cute_cli::json::string("a\"b\\c\n"), r#""a\"b\\c\u000a""#);
/// ```
pub fn string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A value printed in CuTe notation: a JSON number when it is an `i64`, else a string.
///
/// ```
/// assert_eq!(cute_cli::json::value("-26"), "-26");
/// assert_eq!(cute_cli::json::value("(1,1)"), "\"(1,1)\"");
/// ```
pub fn value(v: &str) -> String {
    match v.parse::<i64>() {
        Ok(n) => n.to_string(),
        Err(_) => string(v),
    }
}

/// The top-level items of a tuple printed in CuTe notation, `(a,(b,c),d)` → `a`, `(b,c)`, `d`;
/// anything else is one item.
///
/// ```
/// assert_eq!(cute_cli::json::tuple_items("(0,(1,1),2)"), ["0", "(1,1)", "2"]);
/// assert_eq!(cute_cli::json::tuple_items("7"), ["7"]);
/// ```
pub fn tuple_items(t: &str) -> Vec<&str> {
    let Some(inner) = t.strip_prefix('(').and_then(|x| x.strip_suffix(')')) else {
        return vec![t];
    };
    let (mut items, mut depth, mut start) = (Vec::new(), 0i64, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        if depth < 0 {
            // `(a)(b)`: not one tuple
            return vec![t];
        }
    }
    items.push(&inner[start..]);
    items
}

/// A JSON array of integers.
///
/// ```
/// assert_eq!(cute_cli::json::ints(&[0, -1, 2]), "[0, -1, 2]");
/// ```
pub fn ints(v: &[i64]) -> String {
    let s: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("[{}]", s.join(", "))
}
