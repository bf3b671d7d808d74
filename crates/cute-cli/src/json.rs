//! The `--json` outputs of `cute`: every one is a [`serde_json::Value`] built with [`json!`] (keys
//! in the order written) and printed by [`line()`], so that strings are escaped by one writer,
//! `serde_json`, the same one the playground's engine (`cute-wasm`) uses.

use serde_json::ser::{Formatter, Serializer};
pub use serde_json::{json, Map, Value};
use std::io;

/// `serde_json`'s compact form with a space after each `,` and `:` — one line, as `cute` prints
/// its JSON answers: `{"a": 1, "b": [2, 3]}`.
struct Spaced;

impl Formatter for Spaced {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        separate(w, first)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        separate(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

/// `, ` before every element of an array or object but the first.
fn separate<W: ?Sized + io::Write>(w: &mut W, first: bool) -> io::Result<()> {
    if first {
        Ok(())
    } else {
        w.write_all(b", ")
    }
}

/// `v` on one line, a space after each `,` and `:` (the form of every `--json` answer of `cute`
/// but the paper's rows, see [`compact`]).
///
/// ```
/// use cute_cli::json::{json, line};
/// assert_eq!(line(&json!({"a": "x\"y\n", "b": [1, -2], "c": null})),
///            r#"{"a": "x\"y\n", "b": [1, -2], "c": null}"#);
/// ```
pub fn line(v: &Value) -> String {
    let mut out = Vec::new();
    let mut ser = Serializer::with_formatter(&mut out, Spaced);
    serde::Serialize::serialize(v, &mut ser).expect("a Value always serialises");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// `v` on one line without spaces (`cute paper --json`, one object per line).
///
/// ```
/// use cute_cli::json::{compact, json};
/// assert_eq!(compact(&json!({"a": [1, 2]})), r#"{"a":[1,2]}"#);
/// ```
pub fn compact(v: &Value) -> String {
    v.to_string()
}

/// A value printed in CuTe notation: a JSON number when it is an `i64`, else a string.
///
/// ```
/// use cute_cli::json::{json, value};
/// assert_eq!(value("-26"), json!(-26));
/// assert_eq!(value("(1,1)"), json!("(1,1)"));
/// ```
pub fn value(v: &str) -> Value {
    match v.parse::<i64>() {
        Ok(n) => Value::from(n),
        Err(_) => Value::from(v),
    }
}

/// A value printed with `Display` (a layout, a tensor) as a JSON string.
///
/// ```
/// let l: cute::Layout = "(2,3):(3,1)".parse().unwrap();
/// assert_eq!(cute_cli::json::text(&l), cute_cli::json::json!("(2,3):(3,1)"));
/// ```
pub fn text(v: &dyn std::fmt::Display) -> Value {
    Value::String(v.to_string())
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
