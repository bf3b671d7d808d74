//! # cute-wasm — the engine of the layout playground
//!
//! `cute playground` serves one page that runs the CuTe core and `cute-draw` in the browser,
//! compiled to WebAssembly from this crate (`scripts/build-playground.sh`). Everything the page
//! asks goes through one entry point, [`handle`]: a request of text fields separated by line
//! breaks, the first naming what to do, and an answer that is one JSON object.
//!
//! | request | answer |
//! |---|---|
//! | `ops` | `{"ops": [{"name", "signature", "min", "max"}]}` (`max` null: no bound) |
//! | `run`, OP, ARG... | `{"value", "table", "svg", "figure"}`: any operation of [`cute::registry`]; `make_layout_tv` adds `tv`, its TV picture |
//! | `draw`, LAYOUT | `{"value", "table", "svg"}` |
//! | `tv`, TV, ROWS, COLS, THREAD | `{"svg"}`: a thread-value layout over a ROWS × COLS tile |
//! | `banks`, SMEM, TV, B, V, J | `{"instructions", "wavefronts", "ideal", "search", "svg", …}` |
//! | `tiled`, `mma`/`copy`, ATOM, L1, L2, BITS, THREAD | `{"svg", "title", "threads"}`: a TiledMMA or TiledCopy ([`tiled_view`]) |
//!
//! The `figure` of `run` (when the value is a layout of at most [`cells::INLINE_SVG_CELLS`]
//! cells) holds the operands' pictures beside the result's, with linking colours and a legend,
//! every cell with its value, index and coordinate ([`figure`]).
//!
//! A value that is not a layout (or has no offsets to draw) comes with a `note` instead of the
//! table and picture. A picture of more than [`cells::INLINE_SVG_CELLS`] cells comes as `cells`
//! instead of `svg`, for the page to paint on a canvas (see [`cells`] for why); the request's
//! name with `:svg` appended (`run:svg`) asks for the SVG whatever the size.
//!
//! A failure is `{"error": {"message", "arg", "start", "end", "category"}}`: the one-line message
//! of the command line (`error: op: argument 1 …`), and when an argument could not be read, its
//! index `arg` (from 0, counting the fields after OP for `run`, after the request's name
//! otherwise) and the span `start..end` that caused it, in characters (Unicode scalar values) of
//! that argument: the character where the parser stopped ([`cute::ErrorKind::Syntax`]'s byte
//! position), or the whole argument for other errors.
//!
//! ```
//! let a = cute_wasm::handle("run\ncomposition\n(8,8):(8,1)\n((4,8),2):((16,1),8)");
//! assert!(a.starts_with(r#"{"value":"((4,8),2):((2,8),1)""#));
//! let e = cute_wasm::handle("run\ncoalesce\n(2,4):(1,2");
//! assert!(e.contains(r#""arg":0,"start":10,"end":10"#));
//! ```
//!
//! The WebAssembly module exports three functions and its memory, so that the page needs no
//! generated glue: `cute_request(len)` makes room for a request of `len` bytes of UTF-8 and
//! returns where to write it, `cute_answer()` handles it and returns the length of the answer, and
//! `cute_answer_ptr()` where the answer lies. No `unsafe` code: the buffers are owned here and
//! only their addresses leave.

#![allow(clippy::result_large_err)] // cute::Error is a large plain value, see DESIGN.md

pub mod banks_view;
pub mod cells;
pub mod colour;
pub mod figure;
pub mod json;
pub mod links;
pub mod panel;
pub mod tiled_view;

use cute::registry::{self, Outcome};
use cute::{Error, ErrorKind, Layout};
use cute_draw::DrawError;
use json::json;
use std::cell::RefCell;

/// The largest request [`handle`] reads (1 MiB): longer ones are refused with a message.
pub const MAX_REQUEST: usize = 1 << 20;

/// Answers a request (see the [crate] documentation): always one JSON object, never a
/// panic.
pub fn handle(request: &str) -> String {
    if request.len() > MAX_REQUEST {
        return failure(
            format!(
                "error: the request has {} bytes, more than the limit of {MAX_REQUEST}",
                request.len()
            ),
            None,
            None,
        );
    }
    let mut fields = request.split('\n');
    let first = fields.next().unwrap_or("");
    let args: Vec<&str> = fields.collect();
    // `NAME:svg`: the picture as SVG whatever its size
    let (name, svg) = match first.strip_suffix(":svg") {
        Some(n) => (n, true),
        None => (first, false),
    };
    match name {
        "ops" => ops(),
        "run" => run(&args, svg),
        "draw" => draw(&args, svg),
        "tv" => tv(&args, svg),
        "banks" => banks_view::banks(&args, svg),
        "tiled" => tiled_view::tiled(&args),
        _ => failure(
            format!(
                "error: unknown request {} (ops, run, draw, tv, banks, tiled)",
                registry::quote(first)
            ),
            None,
            None,
        ),
    }
}

/// `{"ops": [...]}`: every operation of the registry with its signature and arity.
fn ops() -> String {
    let items: Vec<json::Value> = registry::operations()
        .map(|o| {
            let (lo, hi) = o.arity();
            json!({
                "name": o.name,
                "signature": o.signature(),
                "min": lo,
                "max": (hi != usize::MAX).then_some(hi),
            })
        })
        .collect();
    json!({ "ops": items }).to_string()
}

/// Where an argument that could not be read went wrong: `(start, end)` in characters of `text`.
/// A syntax error marks the character at its byte position (an empty span at the end when the
/// text ended too soon); any other error marks the whole argument.
///
/// ```
/// let e: cute::Error = "(4,8):(1,4".parse::<cute::Layout>().unwrap_err();
/// assert_eq!(cute_wasm::span("(4,8):(1,4", &e), (10, 10));
/// let e: cute::Error = "(4,8)x(1,4)".parse::<cute::Layout>().unwrap_err();
/// assert_eq!(cute_wasm::span("(4,8)x(1,4)", &e), (5, 6));
/// let e: cute::Error = "(0,8):(1,4)".parse::<cute::Layout>().unwrap_err();
/// assert_eq!(cute_wasm::span("(0,8):(1,4)", &e), (0, 11));
/// let e: cute::Error = "(4,8):(1,4,2)".parse::<cute::Layout>().unwrap_err();
/// assert_eq!(cute_wasm::span("(4,8):(1,4,2)", &e), (10, 11));
/// ```
pub fn span(text: &str, e: &Error) -> (usize, usize) {
    let chars = text.chars().count();
    match *e.kind() {
        ErrorKind::Syntax { pos, .. } | ErrorKind::NotCongruent { at: Some((pos, _)) } => {
            // the character that contains byte `pos` (positions past the end mark the end)
            let mut start = chars;
            for (k, (b, c)) in text.char_indices().enumerate() {
                if pos < b + c.len_utf8() {
                    start = k;
                    break;
                }
            }
            (start, (start + 1).min(chars))
        }
        _ => (0, chars),
    }
}

/// The answer for a failure: the message, and for an argument that could not be read its index
/// and the error (whose span is marked).
fn failure(message: String, arg: Option<(usize, &str)>, error: Option<&Error>) -> String {
    let (index, start, end) = match (arg, error) {
        (Some((k, text)), Some(e)) => {
            let (s, t) = span(text, e);
            (Some(k), Some(s), Some(t))
        }
        (Some((k, text)), None) => (Some(k), Some(0), Some(text.chars().count())),
        _ => (None, None, None),
    };
    json!({
        "error": {
            "message": message,
            "arg": index,
            "start": start,
            "end": end,
            "category": error.map(Error::category),
        }
    })
    .to_string()
}

/// The picture field of an answer: `("svg", …)` for a picture of at most
/// [`INLINE_SVG_CELLS`](cells::INLINE_SVG_CELLS) cells or when `svg` asks for it, else
/// `("cells", …)` for the page to paint (see [`cells`]).
pub(crate) fn picture_field(c: &cells::Cells, svg: bool) -> (&'static str, json::Value) {
    if svg || c.rows * c.cols <= cells::INLINE_SVG_CELLS {
        ("svg", json!(c.to_svg()))
    } else {
        ("cells", c.to_value())
    }
}

/// A layout's picture field: `cute_draw::svg::layout_svg`, or its cells.
fn layout_picture(l: &Layout, svg: bool) -> Result<(&'static str, json::Value), DrawError> {
    if svg || l.size() <= cells::INLINE_SVG_CELLS {
        Ok(("svg", json!(cute_draw::svg::layout_svg(l)?)))
    } else {
        Ok(("cells", cells::Cells::layout(l)?.to_value()))
    }
}

/// The answer for a value: the value, and when it is a layout with offsets to draw its
/// `print_layout` table and its picture; else a note saying why there is no picture.
fn value_answer(value: &str, svg: bool) -> String {
    json::object(value_fields(value, svg)).to_string()
}

/// The fields of [`value_answer`].
fn value_fields(value: &str, svg: bool) -> Vec<(&'static str, json::Value)> {
    let mut fields = vec![("value", json!(value))];
    match value.parse::<Layout>() {
        Err(_) => fields.push(("note", json!("the value is not a layout: no picture"))),
        Ok(l) => match (cute_draw::table::print_layout(&l), layout_picture(&l, svg)) {
            (Ok(t), Ok(p)) => {
                fields.push(("table", json!(t)));
                fields.push(p);
            }
            // a table that cannot be printed (past the cell limit the picture has its own note)
            (Err(e), Ok(p)) => {
                fields.push(("note", json!(format!("no table: {e}"))));
                fields.push(p);
            }
            (_, Err(e)) => fields.push(("note", json!(format!("no picture: {e}")))),
        },
    }
    fields
}

/// `run`, OP, ARG...: the registry's operation, its value and the value's picture.
fn run(a: &[&str], svg: bool) -> String {
    let Some((op, args)) = a.split_first() else {
        return failure("error: run: no operation given".into(), None, None);
    };
    let o = registry::run(op, args);
    let line = registry::error_line(op, args, &o);
    match (o, line) {
        (Outcome::Value(v), _) => {
            let mut fields = value_fields(&v, svg);
            if let Some(f) = figure::figure(op, args, &v) {
                fields.push(("figure", f.to_value()));
            } else if *op == "make_layout_tv" {
                if let Some((f, tv)) = figure::tv_figure(args, &v) {
                    fields.retain(|(k, _)| *k != "note"); // the value has a picture after all
                    fields.push(("figure", f.to_value()));
                    fields.push(("tv", json!(tv)));
                }
            }
            json::object(fields).to_string()
        }
        (Outcome::BadArgument { index, error }, line) => failure(
            line.unwrap_or_else(|| format!("error: {op}: {error}")),
            args.get(index).map(|t| (index, *t)),
            Some(&error),
        ),
        (Outcome::Refused(error), line) => failure(
            line.unwrap_or_else(|| format!("error: {op}: {error}")),
            None,
            Some(&error),
        ),
        (Outcome::Usage(m), _) => failure(format!("error: {m}"), None, None),
        (Outcome::Symbolic(e), line) => {
            failure(line.unwrap_or_else(|| format!("error: {e}")), None, None)
        }
    }
}

/// Reads argument `k` of a request as a layout.
pub(crate) fn layout_arg(request: &str, a: &[&str], k: usize) -> Result<Layout, String> {
    let text = a.get(k).copied().unwrap_or("");
    text.parse::<Layout>().map_err(|e| {
        failure(
            format!(
                "error: {request}: argument {} {}: {e}",
                k + 1,
                registry::quote(text)
            ),
            Some((k, text)),
            Some(&e),
        )
    })
}

/// Reads argument `k` of a request as an integer in `lo..=hi`; an empty field is `None`.
pub(crate) fn int_arg(
    request: &str,
    a: &[&str],
    k: usize,
    what: &str,
    (lo, hi): (i64, i64),
) -> Result<Option<i64>, String> {
    let text = a.get(k).copied().unwrap_or("");
    if text.trim().is_empty() {
        return Ok(None);
    }
    match text.trim().parse::<i64>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(Some(v)),
        _ => Err(failure(
            format!(
                "error: {request}: argument {} {}: {what} must be an integer from {lo} to {hi}",
                k + 1,
                registry::quote(text)
            ),
            Some((k, text)),
            None,
        )),
    }
}

/// Like [`int_arg`], for a field that must be given.
pub(crate) fn required_int(
    request: &str,
    a: &[&str],
    k: usize,
    what: &str,
    range: (i64, i64),
) -> Result<i64, String> {
    int_arg(request, a, k, what, range)?.ok_or_else(|| {
        failure(
            format!("error: {request}: argument {}: {what} is missing", k + 1),
            Some((k, "")),
            None,
        )
    })
}

/// `draw`, LAYOUT: the layout's table and picture.
fn draw(a: &[&str], svg: bool) -> String {
    match layout_arg("draw", a, 0) {
        Ok(l) => value_answer(&l.to_string(), svg),
        Err(e) => e,
    }
}

/// The largest tile side of the TV view.
const MAX_SIDE: i64 = 4096;

/// `tv`, TV, ROWS, COLS, THREAD: the thread-value layout's picture, one thread outlined (THREAD
/// may be empty).
fn tv(a: &[&str], svg: bool) -> String {
    let r = (|| {
        let l = layout_arg("tv", a, 0)?;
        let rows = required_int("tv", a, 1, "the tile's rows", (1, MAX_SIDE))?;
        let cols = required_int("tv", a, 2, "the tile's columns", (1, MAX_SIDE))?;
        // a thread of the layout (mode 0 of (thread, value)), as `cute partition` requires
        let threads = l
            .mode(0)
            .map_err(|e| {
                failure(
                    format!("error: tv: {e}"),
                    Some((0, a.first().copied().unwrap_or(""))),
                    Some(&e),
                )
            })?
            .size();
        let thread = int_arg("tv", a, 3, "the highlighted thread", (0, threads - 1))?;
        let fail = |e: DrawError| failure(format!("error: tv: {e}"), None, None);
        if svg || rows * cols <= cells::INLINE_SVG_CELLS {
            let s = cute_draw::svg::tv_layout_svg(&l, rows, cols, thread).map_err(fail)?;
            Ok(("svg", json!(s)))
        } else {
            let c = cells::Cells::tv(&l, rows, cols, thread).map_err(fail)?;
            Ok(("cells", c.to_value()))
        }
    })();
    match r {
        Ok(picture) => json::object(vec![picture]).to_string(),
        Err(e) => e,
    }
}

thread_local! {
    static REQUEST: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Makes room for a request of `len` bytes (UTF-8) and returns the address to write it to.
#[no_mangle]
pub extern "C" fn cute_request(len: usize) -> *mut u8 {
    REQUEST.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.resize(len, 0);
        b.as_mut_ptr()
    })
}

/// Answers the request written after [`cute_request`] (see [`handle`]) and returns the length in
/// bytes of the answer, which [`cute_answer_ptr`] locates. Invalid UTF-8 is replaced, not refused.
#[no_mangle]
pub extern "C" fn cute_answer() -> usize {
    let request = REQUEST.with(|b| String::from_utf8_lossy(&b.borrow()).into_owned());
    let answer = handle(&request).into_bytes();
    let n = answer.len();
    ANSWER.with(|b| *b.borrow_mut() = answer);
    n
}

/// The address of the last answer.
#[no_mangle]
pub extern "C" fn cute_answer_ptr() -> *const u8 {
    ANSWER.with(|b| b.borrow().as_ptr())
}

#[cfg(test)]
mod tests {
    use super::handle;

    #[test]
    fn every_operation_is_listed_with_its_arity() {
        let a = handle("ops");
        let n = cute::registry::operations().count();
        assert_eq!(a.matches("\"name\":").count(), n);
        assert!(
            a.contains(r#"{"name":"complement","signature":"LAYOUT [COTARGET]","min":1,"max":2}"#)
        );
        assert!(a.contains(r#""name":"make_layout","signature":"#));
        assert!(a.contains(r#""min":1,"max":null"#));
    }

    #[test]
    fn failures_are_answers_not_panics() {
        let unknown = handle("frobnicate\nx");
        assert!(unknown.starts_with(r#"{"error":{"message":"error: unknown request `frobnicate`"#));
        let usage = handle("run\ncomposition\n8:1");
        assert!(
            usage.contains(r#""message":"error: composition takes"#),
            "{usage}"
        );
        assert!(usage.contains(r#""arg":null"#));
        assert!(handle("run").contains("no operation given"));
        let big = format!("run\ncoalesce\n{}", "(".repeat(super::MAX_REQUEST));
        assert!(handle(&big).contains("more than the limit"));
        // a multi-byte character before the error: the span counts characters, not bytes
        let e = handle("run\ncoalesce\n(4,8):(1,4)\u{e9}");
        assert!(e.contains(r#""arg":0,"start":11,"end":12"#), "{e}");
        let t = handle("tv\n((4,8),(2,2)):((32,1),(16,8))\n16\n0\n");
        assert!(t.contains(r#""arg":2,"start":0,"end":1"#), "{t}");
        let t = handle("tv\n((4,8),(2,2)):((32,1),(16,8))\n4\n4\n");
        assert!(t.contains("outside the tile"), "{t}");
        // a thread the TV layout does not have is refused, its field marked
        let t = handle("tv\n((4,8),(2,2)):((32,1),(16,8))\n16\n8\n99");
        assert!(
            t.contains("argument 4 `99`: the highlighted thread must be an integer from 0 to 31"),
            "{t}"
        );
        assert!(t.contains(r#""arg":3,"start":0,"end":2"#), "{t}");
        assert!(handle("tv\n((4,8),(2,2)):((32,1),(16,8))\n16\n8\n31").starts_with(r#"{"svg":"#));
    }

    #[test]
    fn values_come_with_their_picture_or_a_note() {
        let v = handle("run\nsize\n(4,8):(1,4)");
        assert!(v.starts_with(r#"{"value":"32","note":"#), "{v}");
        let small = handle("draw\n(32,32):(1,32)");
        assert!(small.contains(r#""svg":"<svg"#) && !small.contains(r#""cells":"#));
        let large = handle("draw\n(32,33):(1,32)");
        assert!(large.contains(r#""cells":{"title":"(32,33):(1,32)","rows":32,"cols":33"#));
        assert!(!large.contains(r#""svg":"#));
        let forced = handle("draw:svg\n(32,33):(1,32)");
        assert_eq!(forced.matches("class=\\\"cell\\\"").count(), 32 * 33);
        // F2 and coordinate layouts come with their table and picture, both by value
        let f2 = handle("draw\n(4,8):(F1,F5)");
        assert!(
            f2.contains(r#"| 27 |\n"#) && f2.contains(r#""svg":"<svg"#) && !f2.contains("note"),
            "{f2}"
        );
        let id = handle("draw\n(4,8):(1@0,1@1)");
        assert!(
            id.contains(">(1,3)</text>") && id.contains("| (1,3) |"),
            "{id}"
        );
        let tv = handle("tv\n((4,8),(2,2)):((32,1),(16,8))\n16\n8\n5");
        assert_eq!(tv.matches("data-mark=\\\"outline\\\"").count(), 4);
    }

    #[test]
    fn operations_come_with_their_operands_beside_the_result() {
        let a = handle("run\ncomposition\n(8,8):(8,1)\n(4,2):(2,1)");
        let v: serde_json::Value = serde_json::from_str(&a).unwrap();
        let roles: Vec<&str> = v["figure"]["panels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["role"].as_str().unwrap())
            .collect();
        assert_eq!(roles, ["A", "B", "result"]);
        let result = &v["figure"]["panels"][2];
        assert_eq!(result["value"][1], "8"); // row 0, column 1: index 4, offset 8
        assert_eq!(result["index"][1], 4);
        assert_eq!(result["coord"][1], "(0,1)");
        assert!(v["figure"]["legend"][0]["text"]
            .as_str()
            .unwrap()
            .contains("R(i) = A(B(i))"));
        // a picture too large to draw inline has no figure; an error none either
        assert!(!handle("run\ncoalesce\n(64,64):(64,1)").contains("\"figure\""));
        assert!(!handle("run\ncoalesce\n(4,8):(1,4").contains("\"figure\""));
        // a value that is not a layout neither
        assert!(!handle("run\nsize\n(4,8):(1,4)").contains("\"figure\""));
        // a TV layout: thr and val beside its picture over the tile
        let a = handle("run\nmake_layout_tv\n(4,8):(8,1)\n(2,2):(2,1)");
        let v: serde_json::Value = serde_json::from_str(&a).unwrap();
        assert_eq!(v["figure"]["panels"][0]["role"], "thr");
        let tv = v["tv"].as_str().unwrap();
        assert_eq!(tv.matches("data-threads=").count(), 128);
        assert!(v.get("note").is_none(), "{a}");
    }
}
