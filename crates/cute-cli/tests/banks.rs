//! `cute banks` and `cute swizzle-search`: the JSON contracts on the standard tiles, the text
//! tables, and bad input (exit status 1 or 2, one error line on stderr, and the carets under a
//! parse error; nothing on stdout).

mod binary;
mod stderr_shape;

use binary::fails;

/// Runs `cute args`, expects success, returns stdout without its final newline.
fn ok(args: &[&str]) -> String {
    let out = binary::ok(args);
    assert!(out.ends_with('\n'));
    out.trim_end_matches('\n').to_string()
}

const TILE: &str = "(8,64):(64,1)";
const SWIZZLED: &str = "Sw<3,3,3> o 0 o (8,64):(64,1)";
const ROWS: &str = "((8,4),(8,2)):((64,1),(8,4))";
const LDMATRIX: &str = "((8,4),(8,2)):((1,64),(8,256))";
const FP16: [&str; 4] = ["--elem-bytes", "2", "--vector", "8"];

fn with<'a>(args: &[&'a str], tail: &[&'a str]) -> Vec<&'a str> {
    args.iter().chain(tail).copied().collect()
}

#[test]
fn banks_json() {
    let json = |smem, tv| ok(&with(&["banks", smem, tv, "--json"], &FP16));
    assert_eq!(
        json(TILE, ROWS),
        r#"{"instructions": 2, "wavefronts": [4, 4], "ideal": [4, 4]}"#
    );
    assert_eq!(
        json(TILE, LDMATRIX),
        r#"{"instructions": 2, "wavefronts": [32, 32], "ideal": [4, 4]}"#
    );
    assert_eq!(
        json(SWIZZLED, LDMATRIX),
        r#"{"instructions": 2, "wavefronts": [4, 4], "ideal": [4, 4]}"#
    );
    // a 32x32 fp32 column read: 32 rows in one bank, one instruction per column
    assert_eq!(
        ok(&[
            "banks",
            "(32,32):(32,1)",
            "(32,32):(1,32)",
            "--elem-bytes",
            "4",
            "--vector",
            "1",
            "--json"
        ]),
        format!(
            r#"{{"instructions": 32, "wavefronts": [{}], "ideal": [{}]}}"#,
            ["32"; 32].join(", "),
            ["1"; 32].join(", ")
        )
    );
}

#[test]
fn banks_addresses() {
    let out = ok(&with(
        &["banks", TILE, ROWS, "--json", "--addresses"],
        &FP16,
    ));
    let (head, addrs) = out.split_once(", \"addresses\": ").unwrap();
    assert_eq!(
        head,
        r#"{"instructions": 2, "wavefronts": [4, 4], "ideal": [4, 4]"#
    );
    let rows: Vec<String> = (0..2)
        .map(|j| {
            let a: Vec<String> = (0..32)
                .map(|t| ((t / 8 + 4 * j) * 128 + (t % 8) * 16).to_string())
                .collect();
            format!("[{}]", a.join(", "))
        })
        .collect();
    assert_eq!(addrs, format!("[{}]}}", rows.join(", ")));
}

#[test]
fn banks_text() {
    let out = ok(&with(&["banks", TILE, LDMATRIX], &FP16));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "SMEM  (8,64):(64,1)");
    assert_eq!(
        lines[2],
        "access: 8 × 2 bytes = 16 bytes per thread, 4 phases of 8 threads"
    );
    assert_eq!(
        lines[3].split_whitespace().collect::<Vec<_>>(),
        ["instruction", "wavefronts", "ideal", "ratio"]
    );
    assert_eq!(
        lines[4].split_whitespace().collect::<Vec<_>>(),
        ["0", "32", "4", "8.00×"]
    );
    assert_eq!(
        lines[6].split_whitespace().collect::<Vec<_>>(),
        ["total", "64", "8", "8.00×"]
    );
    assert_eq!(
        lines[7],
        "bank conflicts: 56 wavefronts more than the ideal 8"
    );
    let out = ok(&with(&["banks", SWIZZLED, LDMATRIX], &FP16));
    assert!(
        out.ends_with("conflict-free: every instruction reaches the ideal"),
        "{out}"
    );
}

#[test]
fn search_json_standard_tiles() {
    let search = |smem: &str, tvs: &[&str], b: &str, v: &str| {
        let mut args = vec!["swizzle-search", smem];
        args.extend(tvs);
        args.extend(["--elem-bytes", b, "--vector", v, "--json"]);
        ok(&args)
    };
    // (a) fp16, 64 wide: CUTLASS's Swizzle<3,3,3>
    assert_eq!(
        search(TILE, &[ROWS, LDMATRIX], "2", "8"),
        r#"{"swizzle": "Sw<3,3,3>", "layout": "Sw<3,3,3> o 0 o (8,64):(64,1)", "wavefronts": [[4, 4], [4, 4]], "conflict_free": true}"#
    );
    // (b) fp32, 128-byte rows, 16-byte stores and reads
    assert_eq!(
        search(
            "(8,32):(32,1)",
            &[
                "((8,4),(4,2)):((32,1),(8,4))",
                "((8,4),(4,2)):((1,32),(8,128))"
            ],
            "4",
            "4"
        ),
        r#"{"swizzle": "Sw<3,2,3>", "layout": "Sw<3,2,3> o 0 o (8,32):(32,1)", "wavefronts": [[4, 4], [4, 4]], "conflict_free": true}"#
    );
    // (c) int8, 128-byte rows
    assert_eq!(
        search(
            "(8,128):(128,1)",
            &[
                "((8,4),(16,2)):((128,1),(8,4))",
                "((8,4),(16,2)):((1,128),(8,512))"
            ],
            "1",
            "16"
        ),
        r#"{"swizzle": "Sw<3,4,3>", "layout": "Sw<3,4,3> o 0 o (8,128):(128,1)", "wavefronts": [[4, 4], [4, 4]], "conflict_free": true}"#
    );
    // no swizzle needed
    assert_eq!(
        search(TILE, &[ROWS], "2", "8"),
        r#"{"swizzle": "Sw<0,0,0>", "layout": "Sw<0,0,0> o 0 o (8,64):(64,1)", "wavefronts": [[4, 4]], "conflict_free": true}"#
    );
    // none exists: rows 0-7 and rows 0, 8, ..., 56 of a chunk column need two different fields
    assert_eq!(
        search(
            "(64,32):(32,1)",
            &[
                "((8,4),(4,2)):((1,256),(64,1024))",
                "((8,4),(4,2)):((8,256),(64,1024))"
            ],
            "4",
            "4"
        ),
        r#"{"swizzle": "Sw<3,2,4>", "layout": "Sw<3,2,4> o 0 o (64,32):(32,1)", "wavefronts": [[8, 8], [16, 16]], "conflict_free": false}"#
    );
}

#[test]
fn search_text() {
    let out = ok(&with(&["swizzle-search", TILE, ROWS, LDMATRIX], &FP16));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "swizzle  Sw<3,3,3>");
    assert_eq!(lines[1], "layout   Sw<3,3,3> o 0 o (8,64):(64,1)");
    assert!(lines[2].starts_with("conflict-free"), "{out}");
    assert_eq!(
        lines[4],
        "pattern 2  ((8,4),(8,2)):((1,64),(8,256)): wavefronts [4, 4] ideal [4, 4]"
    );
    let out = ok(&[
        "swizzle-search",
        "(64,32):(32,1)",
        "((8,4),(4,2)):((1,256),(64,1024))",
        "((8,4),(4,2)):((8,256),(64,1024))",
        "--elem-bytes",
        "4",
        "--vector",
        "4",
    ]);
    assert!(out.contains("none exists"), "{out}");
    assert!(out.contains("the best found, Sw<3,2,4>, needs 48 wavefronts against the ideal 16"));
}

#[test]
fn bad_input() {
    // a 16-thread thread mode
    fails(
        &with(&["banks", TILE, "(16,16):(1,64)"], &FP16),
        1,
        &["bank_conflicts", "(16,16):(1,64)", "size 32", "(16 vs 32)"],
    );
    fails(
        &with(&["swizzle-search", TILE, ROWS, "(16,16):(1,64)"], &FP16),
        1,
        &["swizzle_search", "size 32"],
    );
    // access widths that are not 4, 8 or 16 bytes
    for (b, v) in [
        ("2", "3"),
        ("4", "8"),
        ("2", "0"),
        ("2", "-8"),
        ("1", "1"),
        ("-2", "-2"),
    ] {
        let (bi, vi): (i64, i64) = (b.parse().unwrap(), v.parse().unwrap());
        // the message states the product only when both factors are positive: -2·-2 = 4 bytes
        // is no 4-byte access
        let why = if bi > 0 && vi > 0 {
            format!("V·B = {v}·{b} = {} bytes must be 4, 8 or 16 bytes", bi * vi)
        } else {
            format!("B = {b} bytes and the vector length V = {v} must be positive")
        };
        fails(
            &["banks", TILE, ROWS, "--elem-bytes", b, "--vector", v],
            1,
            &["banks: bank_conflicts", &why],
        );
        fails(
            &[
                "swizzle-search",
                TILE,
                ROWS,
                "--elem-bytes",
                b,
                "--vector",
                v,
            ],
            1,
            &["swizzle-search: swizzle_search", &why],
        );
    }
    // a column of 8 halves is not one vector access
    fails(
        &with(&["banks", TILE, "(32,(8,2)):(8,(1,256))"], &FP16),
        1,
        &["thread 0, instruction 0", "not consecutive"],
    );
    // text that is not CuTe notation
    fails(
        &with(&["banks", "(8,64):(64,1", ROWS], &FP16),
        1,
        &["banks: argument 1", "byte 12"],
    );
    fails(
        &with(&["banks", "Sw<3,3> o 0 o (8,64):(64,1)", ROWS], &FP16),
        1,
        &["argument 1", "byte 6"],
    );
    fails(
        &with(&["banks", "Sw<3,3,2> o 0 o (8,64):(64,1)", ROWS], &FP16),
        1,
        &["argument 1", "Sw<3,3,2> is not a swizzle"],
    );
    fails(
        &with(&["swizzle-search", TILE, ROWS, "((8,4),x)"], &FP16),
        1,
        &["swizzle-search: argument 3"],
    );
    // the search starts from an unswizzled layout
    fails(
        &with(&["swizzle-search", SWIZZLED, ROWS], &FP16),
        1,
        &["already swizzled"],
    );
    // invocation errors: no TV, no width, a width that is not a number
    fails(&with(&["banks", TILE], &FP16), 2, &["<TV>"]);
    fails(&with(&["swizzle-search", TILE], &FP16), 2, &["<TV>"]);
    fails(
        &["banks", TILE, ROWS, "--vector", "8"],
        2,
        &["--elem-bytes"],
    );
    fails(
        &["banks", TILE, ROWS, "--elem-bytes", "two", "--vector", "8"],
        2,
        &["two"],
    );
}
