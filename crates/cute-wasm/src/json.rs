//! A minimal JSON writer: the answers of [`crate::handle`] are objects of strings, integers,
//! booleans, `null` and arrays of those.

use std::fmt::Write;

/// `s` as a JSON string literal (quotes, backslashes and control characters escaped; the line
/// and paragraph separators too, so that the text is also a valid JavaScript literal).
///
/// ```
/// assert_eq!(cute_wasm::json::string("a\"b\\c\n"), r#""a\"b\\c\n""#);
/// ```
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An optional string: the literal, or `null`.
pub fn opt_string(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_string(), string)
}

/// An array of numbers.
pub fn numbers<T: std::fmt::Display>(v: &[T]) -> String {
    let items: Vec<String> = v.iter().map(T::to_string).collect();
    format!("[{}]", items.join(","))
}

/// An object from `(key, already-encoded value)` pairs, in order.
pub fn object(fields: &[(&str, String)]) -> String {
    let items: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", string(k)))
        .collect();
    format!("{{{}}}", items.join(","))
}
