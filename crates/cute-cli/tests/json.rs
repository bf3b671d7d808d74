//! `--json`: every answer is one line that a JSON reader accepts (`serde_json`, and below a
//! strict RFC 8259 reader written here, so that the writer is checked by a second
//! implementation), with the documented keys in order and the values of the text output; text
//! given by the user (tabs, newlines, quotes) comes back unchanged.

use cute_cli::cli::Console;
use serde_json::Value;

mod in_process;
mod json_reader;

use json_reader::{parse_json, J};

use in_process::{cute, cute_on, ok};

fn serde_line(args: &[&str]) -> (String, Value) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = cute_cli::cli::run(
        std::iter::once("cute").chain(args.iter().copied()),
        &mut out,
        &mut err,
    );
    assert_eq!(code, 0, "{args:?}: {}", String::from_utf8_lossy(&err));
    let text = String::from_utf8(out).unwrap();
    let line = text.trim_end_matches('\n');
    assert!(!line.contains('\n'), "{args:?}: more than one line: {text}");
    let v = serde_json::from_str(line).unwrap_or_else(|e| panic!("{args:?}: {e}: {line}"));
    (line.to_string(), v)
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

/// The keys of each operation that `cute ops --json` lists, in order.
const OP_KEYS: [&str; 8] = [
    "name",
    "signature",
    "min_args",
    "max_args",
    "params",
    "result",
    "doc",
    "example",
];

#[test]
fn user_text_round_trips() {
    let arg = "\t8 : 1\n";
    let (line, v) = serde_line(&["coalesce", arg, "--json"]);
    assert_eq!(
        line,
        r#"{"op": "coalesce", "args": ["\t8 : 1\n"], "value": "8:1"}"#
    );
    assert_eq!(v["args"][0], arg);
    let (_, v) = serde_line(&["eval", "(4,8):(1,4)\n", "(1,\t2)", "--json"]);
    assert_eq!(keys(&v), ["layout", "coord", "value"]);
    assert_eq!(v["layout"], "(4,8):(1,4)\n");
    assert_eq!(v["coord"], "(1,\t2)");
    assert_eq!(v["value"], 9);
}

/// The keys of `cute vector-width --json`, in order.
const VECTOR_WIDTH_KEYS: [&str; 9] = [
    "src",
    "dst",
    "max_common_vector",
    "max_common_layout",
    "coordinates",
    "src_offsets",
    "dst_offsets",
    "copy",
    "copy_note",
];

#[test]
fn every_subcommand_answers_its_keys_in_order() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["complement", "(4,8):(1,8)", "--json"],
            &["op", "args", "value"],
        ),
        (&["eval", "(2,2):(1,2)", "--json"], &["layout", "values"]),
        (
            &[
                "partition",
                "(8,8):(8,1)",
                "((4,8),2):((16,1),8)",
                "--thread",
                "5",
                "--json",
            ],
            &["data", "tv", "composition", "threads"],
        ),
        (
            &["vector-width", "(8,8):(1,8)", "(4,8):(1,8)", "--json"],
            &VECTOR_WIDTH_KEYS,
        ),
        (
            &["contains", "(8,8):(1,8)", "(4,2):(1,100)", "--json"],
            &[
                "data",
                "instruction",
                "left_inverse",
                "contained",
                "missing",
                "coordinates_layout",
                "coordinates",
            ],
        ),
        (&["show", "(2,3):(3,1)", "--json"], &["layout", "rows"]),
        (
            &[
                "banks",
                "(8,64):(64,1)",
                "((8,4),(8,2)):((1,64),(8,256))",
                "--elem-bytes",
                "2",
                "--vector",
                "8",
                "--json",
                "--addresses",
            ],
            &["instructions", "wavefronts", "ideal", "addresses"],
        ),
        (
            &[
                "swizzle-search",
                "(32,32):(32,1)",
                "(32,1):(32,1)",
                "--elem-bytes",
                "4",
                "--vector",
                "1",
                "--json",
            ],
            &["swizzle", "layout", "wavefronts", "conflict_free"],
        ),
    ];
    for (args, want) in cases {
        let (_, v) = serde_line(args);
        assert_eq!(keys(&v), *want, "{args:?}");
    }
    let (_, v) = serde_line(&[
        "partition",
        "(8,8):(8,1)",
        "((4,8),2):((16,1),8)",
        "--thread",
        "5",
        "--json",
    ]);
    assert_eq!(
        keys(&v["threads"][0]),
        ["thread", "tensor", "offset", "values", "offsets"]
    );
    assert_eq!(v["threads"][0]["offsets"], serde_json::json!([10, 11]));
    let (_, v) = serde_line(&["contains", "(8,8):(1,8)", "(4,2):(1,100)", "--json"]);
    assert_eq!(
        v["missing"],
        serde_json::json!({"coordinate": 4, "offset": 100})
    );
    let (_, v) = serde_line(&["ops", "--json"]);
    let ops = v.as_array().unwrap();
    assert!(!ops.is_empty());
    for o in ops {
        assert_eq!(keys(o), OP_KEYS);
    }
}

#[test]
fn paper_rows_are_one_object_per_line() {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    cute_cli::cli::run(["cute", "paper", "--json"], &mut out, &mut err);
    let text = String::from_utf8(out).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(
            keys(&v)[..8],
            ["id", "section", "what", "op", "args", "paper", "computed", "status"]
        );
        n += 1;
    }
    assert!(n > 100, "{n} rows");
}

// ---------------------------------------------------------------- --json

/// Runs `args`, expects exit 0 and one JSON value on one line.
fn json(args: &[&str]) -> J {
    let out = ok(args);
    assert!(
        out.ends_with('\n') && out.lines().count() == 1,
        "{args:?}: {out}"
    );
    parse_json(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

#[test]
fn the_json_reader_is_strict() {
    assert_eq!(
        parse_json(" [1, -2.5e3, \"a\\u0041\", true, null] ")
            .unwrap()
            .arr()
            .len(),
        5
    );
    for bad in [
        "",
        "[1,]",
        "{\"a\" 1}",
        "01",
        "\"a",
        "[1] x",
        "{\"a\":1,\"a\":2}",
        "\"\u{1}\"",
        "-",
        "1.",
    ] {
        assert!(parse_json(bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn operations_print_json_with_the_flag_anywhere_after_the_name() {
    let (l, t) = ("(8,8):(8,1)", "((4,8),2):((16,1),8)");
    for args in [
        ["composition", l, t, "--json"],
        ["composition", "--json", l, t],
        ["composition", l, "--json", t],
    ] {
        let v = json(&args);
        assert_eq!(v.keys(), ["op", "args", "value"]);
        assert_eq!(v.get("op").s(), "composition");
        assert_eq!(
            v.get("args").arr().iter().map(J::s).collect::<Vec<_>>(),
            [l, t]
        );
        assert_eq!(v.get("value").s(), ok(&["composition", l, t]).trim_end());
    }
    // a text with quotes and backslashes stays valid JSON; errors stay on stderr
    let (code, out, err) = cute(&["composition", "\"\\", "2:1", "--json"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.starts_with("error: composition: argument 1"), "{err}");
    let v = json(&["right_inverse", "(4,(4,2)):(1@1,(1@0,6@1))", "--json"]);
    assert_eq!(v.get("value").s(), "(4,4):(4,1)");
}

#[test]
fn eval_json() {
    let l = "((2,2),(4,2)):((1,8),(2,16))";
    let v = json(&["eval", l, "22", "--json"]);
    assert_eq!(v.keys(), ["layout", "coord", "value"]);
    assert_eq!(
        (v.get("layout").s(), v.get("coord").s(), v.get("value").n()),
        (l, "22", 26)
    );
    let v = json(&["eval", "(2,3):(3,1)", "--json"]);
    assert_eq!(v.keys(), ["layout", "values"]);
    assert_eq!(v.get("values").ints(), [0, 3, 1, 4, 2, 5]);
    // coordinate strides: every value in CuTe notation, as a string (its 0 too); binary strides
    // the same
    let v = json(&["eval", "(2,2):(1@0,1@1)", "--json"]);
    assert_eq!(
        v.get("values").arr(),
        [
            J::Str("0".into()),
            J::Str("1@0".into()),
            J::Str("1@1".into()),
            J::Str("(1,1)".into())
        ]
    );
    assert_eq!(json(&["eval", "1:0", "--json"]).get("values").ints(), [0]);
    let v = json(&["eval", "(2,2):(1@0,1@1)", "0", "--json"]);
    assert_eq!(v.get("value"), &J::Str("0".into()));
    let v = json(&["eval", "(2,2):(F1,F2)", "--json"]);
    let all = v.get("values").arr();
    assert_eq!(all.len(), 4);
    assert!(all.iter().all(|x| matches!(x, J::Str(_))), "{all:?}");
}

#[test]
fn ops_json_lists_every_operation() {
    let v = json(&["ops", "--json"]);
    let text = ok(&["ops"]);
    assert_eq!(v.arr().len(), text.lines().count());
    for (item, line) in v.arr().iter().zip(text.lines()) {
        assert_eq!(item.keys(), OP_KEYS);
        assert_eq!(
            format!("{} {}", item.get("name").s(), item.get("signature").s()),
            line
        );
        let lo = item.get("min_args").n();
        assert!(lo >= 1);
        match item.get("max_args") {
            J::Null => assert!(item.get("signature").s().contains("...")),
            m => assert!(m.n() >= lo),
        }
    }
    let c = v
        .arr()
        .iter()
        .find(|o| o.get("name").s() == "complement")
        .unwrap();
    assert_eq!((c.get("min_args").n(), c.get("max_args").n()), (1, 2));
}

#[test]
fn partition_json() {
    let (d, tv) = ("(8,8):(8,1)", "((4,8),2):((16,1),8)");
    let v = json(&["partition", d, tv, "--thread", "5", "--json"]);
    assert_eq!(v.keys(), ["data", "tv", "composition", "threads"]);
    assert_eq!(v.get("composition").s(), "((4,8),2):((2,8),1)");
    let th = v.get("threads").arr();
    assert_eq!(th.len(), 1);
    assert_eq!(
        th[0].keys(),
        ["thread", "tensor", "offset", "values", "offsets"]
    );
    assert_eq!((th[0].get("thread").n(), th[0].get("offset").n()), (5, 10));
    assert_eq!(th[0].get("tensor").s(), "{10} ∘ (2):(1)");
    assert_eq!(th[0].get("offsets").ints(), [10, 11]);
    // all threads: the same rows as the text
    let all = json(&["partition", d, tv, "--json"]);
    let text = ok(&["partition", d, tv]);
    let rows: Vec<&str> = text.lines().skip(2).collect();
    assert_eq!(all.get("threads").arr().len(), rows.len());
    for (t, row) in all.get("threads").arr().iter().zip(rows) {
        let offs: Vec<String> = t.get("offsets").ints().iter().map(i64::to_string).collect();
        assert_eq!(
            format!(
                "{}  {}  {}",
                t.get("thread").n(),
                t.get("tensor").s(),
                offs.join(",")
            ),
            row
        );
    }
}

#[test]
fn vector_width_json() {
    let (s, d) = ("((2,2),(2,2)):((4,1),(8,2))", "((2,2),(2,2)):((8,1),(4,2))");
    let v = json(&["vector-width", s, d, "--json"]);
    assert_eq!(v.keys(), VECTOR_WIDTH_KEYS);
    assert_eq!(v.get("max_common_vector").n(), 4);
    assert_eq!(v.get("max_common_layout").s(), "(2,2):(2,8)");
    assert_eq!(v.get("coordinates").ints(), [0, 2, 8, 10]);
    assert_eq!(v.get("src_offsets").ints(), [0, 1, 2, 3]);
    assert_eq!(v.get("dst_offsets").ints(), [0, 1, 2, 3]);
    assert_eq!(v.get("copy").s(), "vector 4, loops (2:8:4,2:4:8)");
    assert_eq!(v.get("copy_note"), &J::Null);
    // sizes that differ: no plan, and why
    let v = json(&["vector-width", "(4,8):(1,4)", "(4,4):(1,4)", "--json"]);
    assert_eq!(v.get("copy"), &J::Null);
    assert_eq!(v.get("copy_note").s(), "none (the sizes differ)");
    assert!(ok(&["vector-width", "(4,8):(1,4)", "(4,4):(1,4)"])
        .ends_with("copy: none (the sizes differ)\n"));
}

#[test]
fn contains_json() {
    let v = json(&[
        "contains",
        "((16,4),256):((16384,524288),1)",
        "tmem_32x32b",
        "--json",
    ]);
    assert_eq!(
        v.keys(),
        [
            "data",
            "instruction",
            "left_inverse",
            "contained",
            "missing",
            "coordinates_layout",
            "coordinates"
        ]
    );
    assert_eq!(v.get("contained"), &J::Bool(false));
    assert_eq!(
        (
            v.get("missing").get("coordinate").n(),
            v.get("missing").get("offset").n()
        ),
        (16, 262144)
    );
    assert_eq!(v.get("left_inverse").s(), "(16384,32,4):(64,1,16)");
    let v = json(&["contains", "(8,8):(8,1)", "(4):(1)", "--json"]);
    assert_eq!(
        (v.get("contained"), v.get("missing")),
        (&J::Bool(true), &J::Null)
    );
    assert_eq!(v.get("coordinates_layout").s(), "(4):(8)");
}

#[test]
fn show_json_has_the_tables_rows() {
    let v = json(&["show", "(2,3):(3,1)", "--json"]);
    assert_eq!(v.keys(), ["layout", "rows"]);
    let rows: Vec<Vec<i64>> = v.get("rows").arr().iter().map(J::ints).collect();
    assert_eq!(rows, [vec![0, 1, 2], vec![3, 4, 5]]);
    // rank 1: one row; rank 3: modes 1.. folded into the columns, as the table
    let r1: Vec<Vec<i64>> = json(&["show", "4:2", "--json"])
        .get("rows")
        .arr()
        .iter()
        .map(J::ints)
        .collect();
    assert_eq!(r1, [vec![0, 2, 4, 6]]);
    let r3: Vec<Vec<i64>> = json(&["show", "(2,(2,2)):(4,(1,2))", "--json"])
        .get("rows")
        .arr()
        .iter()
        .map(J::ints)
        .collect();
    assert_eq!(r3, [vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
    // JSON is never coloured
    let tty = Console {
        stdout_is_terminal: true,
        no_color: false,
    };
    let (_, out, _) = cute_on(&["show", "(2,3):(3,1)", "--json", "--color", "always"], tty);
    assert!(!out.contains('\x1b'));
}
