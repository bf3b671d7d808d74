//! `--json`: every answer is one line that a JSON reader accepts, with the documented keys in
//! order, and text given by the user (tabs, newlines, quotes) comes back unchanged.

use serde_json::Value;

fn json(args: &[&str]) -> (String, Value) {
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

#[test]
fn user_text_round_trips() {
    let arg = "\t8 : 1\n";
    let (line, v) = json(&["coalesce", arg, "--json"]);
    assert_eq!(
        line,
        r#"{"op": "coalesce", "args": ["\t8 : 1\n"], "value": "8:1"}"#
    );
    assert_eq!(v["args"][0], arg);
    let (_, v) = json(&["eval", "(4,8):(1,4)\n", "(1,\t2)", "--json"]);
    assert_eq!(keys(&v), ["layout", "coord", "value"]);
    assert_eq!(v["layout"], "(4,8):(1,4)\n");
    assert_eq!(v["coord"], "(1,\t2)");
    assert_eq!(v["value"], 9);
}

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
            &[
                "src",
                "dst",
                "max_common_vector",
                "max_common_layout",
                "coordinates",
                "src_offsets",
                "dst_offsets",
                "copy",
                "copy_note",
            ],
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
        let (_, v) = json(args);
        assert_eq!(keys(&v), *want, "{args:?}");
    }
    let (_, v) = json(&[
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
    let (_, v) = json(&["contains", "(8,8):(1,8)", "(4,2):(1,100)", "--json"]);
    assert_eq!(
        v["missing"],
        serde_json::json!({"coordinate": 4, "offset": 100})
    );
    let (_, v) = json(&["ops", "--json"]);
    let ops = v.as_array().unwrap();
    assert!(!ops.is_empty());
    for o in ops {
        assert_eq!(keys(o), ["name", "signature", "min_args", "max_args"]);
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
