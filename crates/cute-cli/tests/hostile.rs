//! Every subcommand of `cute` and every operation of `cute ops`, run as a new user might: huge
//! extents, `i64` limits, malformed text, negative numbers, other notations, wrong arity. Each call
//! is the built binary in a subprocess, under a memory limit ([`MEMORY_KB`] of address space) and a
//! watchdog against hangs ([`HANG_WATCHDOG`], see there), and must keep the contract of
//! `cute --help`: exit status 0, 1 or 2 (never a panic, an abort or a signal); on failure nothing on
//! stdout and on stderr one line `error: …` naming the subcommand or operation run (under a parse
//! error possibly the argument and a caret line, exactly as `stderr_shape` checks); on success
//! nothing on stderr (but the summary line of `conformance` and `paper --json`).
//!
//! The subcommands come from the clap definition ([`cute_cli::cli::subcommands`]) and the
//! operations from the op table (`cute ops`), so a new one cannot escape: a new subcommand without
//! argument templates here, or an operation whose signature has a new kind of argument, fails the
//! test until it is given one.
//!
//! Nothing here measures speed: the work of each call is bounded by the capacity limits of the
//! algebra and the CLI (a call over them is refused with a `Capacity` error, which this test
//! checks like any other failure), not by a clock. The benchmarks (`cute bench`, BENCHMARKS.md)
//! hold the timings.

use std::ffi::OsString;
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod stderr_shape;

/// A watchdog, not a speed limit: a call still running after this long is taken to hang (a loop
/// that never ends), killed and reported, so that a hang fails the test instead of stalling it.
/// The slowest call of the set takes about a second in a debug build on an idle machine; the
/// watchdog is two orders of magnitude above that so that no load on a shared machine trips it.
const HANG_WATCHDOG: Duration = Duration::from_secs(300);
/// Address-space limit per call (`ulimit -v`, KiB): 2 GB.
const MEMORY_KB: u64 = 2_000_000;

/// The binary under test: this build's `cute`, or `$CUTE_HOSTILE_BIN` (to run the same calls
/// against another build).
fn binary() -> String {
    std::env::var("CUTE_HOSTILE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_cute").to_string())
}

/// Arguments a new user might try, in every position of every command.
fn hostile() -> Vec<String> {
    let mut v: Vec<String> = [
        // huge extents
        "1099511627776:1",
        "(1048576,1048576):(1,1048576)",
        "(1099511627776,1):(1,0)",
        "(32,1099511627776):(1,32)",
        "((32,4),1099511627776):((1,32),128)",
        "9223372036854775807:1",
        "(3037000500,3037000500):(1,3037000500)",
        "(2,2):(9223372036854775807,1)",
        "(2,2):(-9223372036854775808,1)",
        "4611686018427387904:-2",
        "(65536,65536):(65536,1)",
        "(65536,65536):(0,0)",
        "(1099511627776)",
        "(1048576,1048576)",
        "<1099511627776:1,_>",
        "<(1048576,1048576):(1,1048576),1099511627776>",
        // i64 limits and negative numbers
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775808",
        "-1",
        "0",
        "-4:1",
        "(4,-8):(1,4)",
        "(4,8):(-1,-4)",
        "(-1,2)",
        "-1/2",
        "1/0",
        "9223372036854775807/1",
        // malformed text
        "",
        "(1,2)x",
        "((((",
        ":",
        "=>",
        "\t",
        "4:1:2",
        "(4,8:(1,4)",
        "é",
        "\u{2028}",
        "<",
        "<_,<_,<_>>>",
        "_",
        "--",
        "-x",
        // other notations
        "Sw<3,3,3> o 0 o (8,64):(64,1)",
        "Sw<99,99,99> o 0 o 8:1",
        "Sw<3,3,3> o 9223372036854775807 o 1099511627776:1",
        "(8,8):(F1,F9)",
        "(1099511627776,2):(F1,F9)",
        "(4,3):(1@0,8@0)",
        "1099511627776:1@0",
        "tmem_32x32b.x9223372036854775807",
        "tmem_16x256b.x-1",
        "tmem_32x32b.x1099511627776",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push(format!("{}1{}", "(".repeat(70), ")".repeat(70)));
    v.push(format!("({})", vec!["2"; 33].join(",")));
    v.push(format!(
        "({}):({})",
        vec!["2"; 31].join(","),
        vec!["0"; 31].join(",")
    ));
    v.push("(".repeat(100_000));
    v
}

/// A valid-looking argument for a word of an operation's signature in `cute ops`.
fn default_for(word: &str) -> &'static str {
    match word
        .trim_matches(|c| c == '[' || c == ']')
        .trim_end_matches("...")
    {
        "LAYOUT" | "LAYOUT|TUPLE" | "SRC" | "DST" | "THR" | "VAL" | "TV" => "((4,8),2):((16,1),8)",
        "TILER" => "<2,4>",
        "SHAPE" | "TUPLE" => "(4,8)",
        "COORD" => "(1,2)",
        "STRIDE" => "(1,4)",
        "ORDER" => "(1,0)",
        "PROFILE" => "(_,1)",
        "INT" | "INDEX" | "THREAD" | "MODE" | "SCALE" => "1",
        "COTARGET" => "64",
        "COMPOSED" => "Sw<3,3,3> o 0 o (8,64):(64,1)",
        w => panic!(
            "`cute ops` lists an argument kind {w:?} that this test has no value for: add one"
        ),
    }
}

/// One call: the name it must mention when it fails, and its arguments.
struct Call {
    name: String,
    args: Vec<String>,
}

/// `cute name args…` (for a subcommand, `args` starts with its name).
fn call(name: &str, args: &[&str]) -> Call {
    Call {
        name: name.to_string(),
        args: args.iter().map(|s| s.to_string()).collect(),
    }
}

/// `cute op args…`.
fn op_call(op: &str, args: &[&str]) -> Call {
    let mut v = vec![op];
    v.extend_from_slice(args);
    call(op, &v)
}

/// The operations and signatures `cute ops` prints.
fn ops_table() -> Vec<(String, Vec<String>)> {
    let o = Command::new(binary()).arg("ops").output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    let table: Vec<(String, Vec<String>)> = text
        .lines()
        .map(|l| {
            let mut w = l.split_whitespace().map(str::to_string);
            let name = w.next().unwrap();
            (name, w.collect())
        })
        .collect();
    let lib: Vec<&str> = cute_cli::ops::operations().map(|o| o.name).collect();
    let listed: Vec<&str> = table.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        listed, lib,
        "`cute ops` and cute_cli::ops::operations() differ"
    );
    table
}

/// Every operation: the wrong number of arguments, each hostile value at each position (the
/// others valid), and each hostile value at every position.
fn op_calls(h: &[String]) -> Vec<Call> {
    let mut calls = Vec::new();
    for (name, sig) in ops_table() {
        let variadic = sig.iter().any(|w| w.ends_with("..."));
        let mut base: Vec<&str> = sig.iter().map(|w| default_for(w)).collect();
        if variadic {
            base.push(base[base.len() - 1]);
        }
        let required = sig.iter().filter(|w| !w.starts_with('[')).count();
        if required > 0 {
            calls.push(op_call(&name, &base[..required - 1]));
        }
        if !variadic {
            let mut more = base.clone();
            more.push("4:1");
            calls.push(op_call(&name, &more));
        }
        for k in 0..base.len() {
            for x in h {
                let mut a = base.clone();
                a[k] = x;
                calls.push(op_call(&name, &a));
            }
        }
        for x in h {
            calls.push(op_call(&name, &vec![x.as_str(); base.len()]));
        }
        // `--json` anywhere after the name
        let mut json = base.clone();
        json.push("--json");
        calls.push(op_call(&name, &json));
        json.rotate_right(1);
        calls.push(op_call(&name, &json));
        if let Some(x) = h.first() {
            json[1] = x.as_str();
            calls.push(op_call(&name, &json));
        }
    }
    calls
}

/// The subcommands of the clap definition, each with its own templates.
fn subcommand_calls(h: &[String], files: &[String]) -> Vec<Call> {
    let mut calls = Vec::new();
    let numbers = [
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775808",
        "-1",
        "0",
        "-2",
        "2",
        "x",
        "",
    ];
    // files that `draw -o` and `paper --gallery` write go next to the conformance files
    let dir = std::path::Path::new(&files[0])
        .parent()
        .expect("the files' folder")
        .to_path_buf();
    let out = |name: &str| dir.join(name).to_string_lossy().into_owned();
    for sub in cute_cli::cli::subcommands() {
        let s = sub.as_str();
        let mut add = |a: Vec<&str>| {
            let mut v = vec![s];
            v.extend(a);
            calls.push(call(s, &v));
        };
        add(vec!["--frobnicate"]);
        match s {
            "eval" => {
                add(vec![]);
                add(vec!["(4,8):(1,4)", "(1,2)", "3"]);
                for x in h {
                    add(vec![x]);
                    add(vec!["(4,8):(1,4)", x]);
                    add(vec![x, "(1,2)"]);
                    add(vec![x, x]);
                    add(vec![x, "--json"]);
                    add(vec!["(4,8):(1,4)", x, "--json"]);
                }
            }
            "conformance" => {
                add(vec![]);
                add(vec!["a", "b"]);
                for f in ["/nonexistent/cases.tsv", "/", "/dev/null", "/dev/zero"] {
                    add(vec![f]);
                }
                for f in files {
                    add(vec![f]);
                }
            }
            "ops" => {
                add(vec!["extra"]);
                add(vec!["--json"]);
                add(vec!["--json", "extra"]);
            }
            "paper" => {
                add(vec![]);
                add(vec!["--json"]);
                add(vec!["extra"]);
                add(vec!["--json", "--json"]);
                add(vec!["--gallery"]);
                add(vec!["--gallery", ""]);
                add(vec!["--gallery", "/dev/null/gallery"]);
                add(vec!["--gallery", &out("gallery"), "--json"]);
                add(vec!["--gallery", &out("gallery")]);
                add(vec!["--gallery", &files[0]]);
            }
            "bench" => {
                // a real run takes seconds (tests/bench.rs measures it); here only bad invocations
                add(vec!["extra"]);
                add(vec!["--json", "-1"]);
                add(vec!["--wall=3"]);
            }
            "banks" | "swizzle-search" => {
                let (smem, tv) = ("(8,64):(64,1)", "(32,8):(8,1)");
                add(vec![smem, tv]);
                add(vec![smem, tv, "--elem-bytes", "2"]);
                add(vec![smem, "--elem-bytes", "2", "--vector", "8"]);
                for x in h {
                    add(vec![x, tv, "--elem-bytes", "2", "--vector", "8"]);
                    add(vec![smem, x, "--elem-bytes", "2", "--vector", "8"]);
                    add(vec![x, x, "--elem-bytes", "4", "--vector", "4"]);
                }
                for b in numbers {
                    for v in numbers {
                        add(vec![smem, tv, "--elem-bytes", b, "--vector", v]);
                    }
                }
                if s == "swizzle-search" {
                    for x in h.iter().take(12) {
                        add(vec![smem, tv, x, x, "--elem-bytes", "2", "--vector", "8"]);
                    }
                } else {
                    add(vec![
                        smem,
                        tv,
                        "--elem-bytes",
                        "2",
                        "--vector",
                        "8",
                        "--addresses",
                    ]);
                    for x in h.iter().take(12) {
                        add(vec![
                            x,
                            x,
                            "--elem-bytes",
                            "2",
                            "--vector",
                            "8",
                            "--addresses",
                            "--json",
                        ]);
                    }
                }
            }
            "partition" => {
                let (d, tv) = ("(8,8):(8,1)", "((4,8),2):((16,1),8)");
                add(vec![d]);
                add(vec![d, tv, "extra"]);
                for x in h {
                    add(vec![x, tv]);
                    add(vec![d, x]);
                    add(vec![x, x]);
                    add(vec![x, x, "--thread", "0"]);
                    add(vec![d, x, "--json"]);
                }
                add(vec![d, tv, "--json"]);
                for t in numbers {
                    add(vec![d, tv, "--thread", t]);
                    add(vec![
                        "(1048576,1048576):(1,1048576)",
                        "(1099511627776,1):(1,0)",
                        "--thread",
                        t,
                    ]);
                }
            }
            "vector-width" | "contains" => {
                let (a, b) = ("(4,4):(1,4)", "((2,2),4):((1,8),2)");
                add(vec![a]);
                add(vec![a, b, "extra"]);
                for x in h {
                    add(vec![x, b]);
                    add(vec![a, x]);
                    add(vec![x, x]);
                    add(vec![x, x, "--json"]);
                }
                add(vec![a, b, "--json"]);
            }
            "show" => {
                add(vec![]);
                add(vec!["(4,4):(1,4)", "extra"]);
                add(vec!["(4,4):(1,4)", "--color", "sometimes"]);
                add(vec!["(4,4):(1,4)", "--color"]);
                for x in h {
                    add(vec![x]);
                    add(vec![x, "--json"]);
                    add(vec![x, "--color", "always"]);
                }
            }
            "draw" => {
                let tv = "((4,8),(2,2)):((32,1),(16,8))";
                let ldm = "((8,4),(8,2)):((1,64),(8,256))";
                let (l8, smem) = ("(8,8):(8,1)", "(8,64):(64,1)");
                let (png, svg, tex) = (out("d.png"), out("d.svg"), out("d.tex"));
                add(vec![]);
                add(vec![tv, "--tv", "16"]);
                add(vec![tv, "--format", "png"]);
                add(vec![tv, "--format", "jpeg"]);
                add(vec![tv, "-o", ""]);
                add(vec![tv, "-o", "/dev/null/x.svg"]);
                add(vec![tv, "-o", &out("d.jpg")]);
                add(vec![tv, "-o", &out("")]);
                add(vec![tv, "-o", &png, "--format", "tikz"]);
                add(vec![tv, "--tv", "16", "8", "--thread", "5", "-o", &png]);
                add(vec![tv, "--tv", "16", "8", "-o", &tex]);
                add(vec![l8, "--banks", "--elem-bytes", "4", "-o", &svg]);
                add(vec![
                    l8,
                    "--banks",
                    "--access",
                    ldm,
                    "--elem-bytes",
                    "2",
                    "--vector",
                    "8",
                ]);
                add(vec![l8, "--op", "frobnicate", "--with", "2:1"]);
                add(vec![
                    l8, "--slice", "(_,1)", "--op", "divide", "--with", "<2,2>",
                ]);
                add(vec!["--atom"]);
                add(vec!["--atom", "list", "-o", &svg]);
                add(vec![
                    "--atom",
                    "SM75_U16x8_LDSM_T",
                    "--thread",
                    "3",
                    "-o",
                    &png,
                ]);
                add(vec!["--atom", "SM90_64x256x16_F32F16F16_SS", "-o", &tex]);
                let (sm80, ldsm) = ("SM80_16x8x16_F32F16F16F32_TN", "SM75_U32x4_LDSM_N");
                let cp = "SM80_CP_ASYNC_CACHEGLOBAL_16B";
                add(vec!["--tiled-mma"]);
                add(vec![
                    "--tiled-mma",
                    sm80,
                    "--atom-layout",
                    "(2,2)",
                    "-o",
                    &png,
                ]);
                add(vec!["--tiled-mma", sm80, "--atom-layout", "(2,2,2,2)"]);
                add(vec![
                    "--tiled-mma",
                    sm80,
                    "--permutation",
                    "<16,_,_>",
                    "--atom-layout",
                    "(2,1)",
                ]);
                add(vec![
                    "--tiled-mma",
                    sm80,
                    "--permutation",
                    "<32,(4,4):(1,8),16>",
                    "--atom-layout",
                    "(2,2)",
                ]);
                add(vec!["--tiled-mma", sm80, "--permutation", "(2,2)"]);
                for big in [
                    "<1099511627776:1,_,_>",
                    "<_,(1048576,1048576):(1,1048576),_>",
                    "<4294967296,_,_>",
                ] {
                    add(vec!["--tiled-mma", sm80, "--permutation", big]);
                }
                add(vec![
                    "--tiled-mma",
                    "SM90_64x256x16_F32F16F16_SS",
                    "--atom-layout",
                    "(4,4)",
                    "-o",
                    &png,
                ]);
                add(vec![
                    "--tiled-mma",
                    "SM90_64x256x16_F32F16F16_SS",
                    "--atom-layout",
                    "(2,1)",
                    "-o",
                    &tex,
                ]);
                add(vec!["--tiled-mma", sm80, "--atom", sm80]);
                add(vec!["--tiled-mma", sm80, "--thr", "(32,1)"]);
                add(vec!["--atom-layout", "(2,2)"]);
                add(vec!["--permutation", "<_,_,_>", "--atom", sm80]);
                add(vec!["--tiled-copy", ldsm]);
                add(vec!["--tiled-copy", ldsm, "--operand", "a"]);
                add(vec![
                    "--tiled-copy",
                    ldsm,
                    "--operand",
                    "d",
                    "--tiled-mma",
                    sm80,
                ]);
                add(vec!["--tiled-copy", ldsm, "--tiled-mma", sm80]);
                add(vec!["--tiled-copy", ldsm, "--thr", "(32,1)"]);
                add(vec![
                    "--tiled-copy",
                    ldsm,
                    "--thr",
                    "(32,1)",
                    "--val",
                    "(1,8)",
                    "--operand",
                    "a",
                    "--tiled-mma",
                    sm80,
                ]);
                add(vec![
                    "--tiled-copy",
                    ldsm,
                    "--thr",
                    "(32,1)",
                    "--val",
                    "(1,3)",
                ]);
                add(vec![
                    "--tiled-copy",
                    ldsm,
                    "--operand",
                    "b",
                    "--tiled-mma",
                    sm80,
                    "--atom-layout",
                    "(2,2)",
                    "-o",
                    &svg,
                ]);
                add(vec![
                    "--tiled-copy",
                    cp,
                    "--thr",
                    "(16,8):(8,1)",
                    "--val",
                    "(1,8)",
                    "-o",
                    &tex,
                ]);
                add(vec![
                    "--tiled-copy",
                    cp,
                    "--thr",
                    "(2,2):(1,1)",
                    "--val",
                    "(1,8)",
                ]);
                add(vec![tv, "--tiled-copy", cp]);
                for x in h {
                    add(vec![x]);
                    add(vec![x, "--format", "tikz"]);
                    add(vec![x, "-o", &png]);
                    add(vec![x, "--tv", "16", "8"]);
                    add(vec![tv, "--tv", x, "8"]);
                    add(vec!["--atom", x]);
                    add(vec!["--tiled-mma", x]);
                    add(vec![
                        "--tiled-mma",
                        "SM80_16x8x16_F32F16F16F32_TN",
                        "--atom-layout",
                        x,
                    ]);
                    add(vec![
                        "--tiled-mma",
                        "SM80_16x8x16_F32F16F16F32_TN",
                        "--permutation",
                        x,
                    ]);
                    add(vec!["--tiled-copy", x, "--thr", "(32,1)", "--val", "(1,8)"]);
                    add(vec![
                        "--tiled-copy",
                        "UniversalCopy<uint32_t>",
                        "--thr",
                        x,
                        "--val",
                        "(1,2)",
                    ]);
                    add(vec![
                        "--tiled-copy",
                        "UniversalCopy<uint32_t>",
                        "--thr",
                        "(4,8)",
                        "--val",
                        x,
                    ]);
                    add(vec![x, "--atom", "SM80_16x8x16_F32F16F16F32_TN"]);
                    add(vec![x, "--banks", "--elem-bytes", "2"]);
                    add(vec![
                        x,
                        "--access",
                        ldm,
                        "--elem-bytes",
                        "2",
                        "--vector",
                        "8",
                    ]);
                    add(vec![
                        smem,
                        "--access",
                        x,
                        "--elem-bytes",
                        "2",
                        "--vector",
                        "8",
                    ]);
                    add(vec![l8, "--slice", x]);
                    add(vec![x, "--slice", "(_,1)"]);
                    add(vec![x, "--op", "divide", "--with", "<2,2>"]);
                    add(vec![l8, "--op", "divide", "--with", x]);
                    add(vec![l8, "--op", "blocked_product", "--with", x]);
                    add(vec![x, "--op", "raked_product", "--with", "(2,2):(1,2)"]);
                    add(vec![x, "--op", "logical_product", "--with", "(2,2):(1,2)"]);
                }
                for t in numbers {
                    add(vec![tv, "--tv", t, t]);
                    add(vec![tv, "--tv", "16", "8", "--thread", t]);
                    add(vec![l8, "--banks", "--elem-bytes", t]);
                    add(vec![
                        smem,
                        "--access",
                        ldm,
                        "--elem-bytes",
                        t,
                        "--vector",
                        t,
                    ]);
                    add(vec![
                        "--atom",
                        "SM80_16x8x16_F32F16F16F32_TN",
                        "--thread",
                        t,
                    ]);
                    add(vec!["--atom", &format!("SM90_64x{t}x16_F32F16F16_SS")]);
                    add(vec!["--tiled-mma", &format!("SM90_64x{t}x16_F32F16F16_SS")]);
                    add(vec![
                        "--tiled-mma",
                        "SM80_16x8x16_F32F16F16F32_TN",
                        "--thread",
                        t,
                    ]);
                    add(vec![
                        "--tiled-copy",
                        "SM75_U32x4_LDSM_N",
                        "--thr",
                        "(32,1)",
                        "--val",
                        "(1,8)",
                        "--elem-bytes",
                        t,
                        "--thread",
                        t,
                    ]);
                }
            }
            "playground" => {
                // a valid invocation serves until stopped (scripts/test-playground.py drives
                // it); here only invocations that must fail at once
                add(vec!["extra"]);
                add(vec!["--port"]);
                add(vec!["--no-open=3"]);
                for p in numbers.iter().copied().chain(h.iter().map(String::as_str)) {
                    if p.parse::<u16>().is_err() {
                        add(vec!["--port", p, "--no-open"]);
                    }
                }
            }
            "gpu" => {
                // plans need no device; runs end in exit 3 on a machine without one
                let (a, b) = ("(4,4):(1,4)", "(4,4):(4,1)");
                add(vec!["--plan"]);
                add(vec!["--only", "frobnicate"]);
                add(vec!["--only"]);
                add(vec!["copy"]);
                add(vec!["copy", a]);
                add(vec!["copy", a, b, "--dtype", "c64"]);
                add(vec!["copy", a, "(4,3):(1,4)", "--plan"]);
                add(vec!["copy", a, b, "--plan"]);
                add(vec!["contract", "mk,kn->mn"]);
                add(vec![
                    "contract",
                    "mk,kn->mn",
                    "--sizes",
                    "m=0,n=4,k=4",
                    "--plan",
                ]);
                add(vec![
                    "contract",
                    "mk,kn",
                    "--sizes",
                    "m=4,n=4,k=4",
                    "--plan",
                ]);
                add(vec![
                    "contract",
                    "mk,kn->mn",
                    "--sizes",
                    "m=4,n=4",
                    "--plan",
                ]);
                add(vec![
                    "contract",
                    "mk,kn->mn",
                    "--sizes",
                    "m=4,n=4,k=4",
                    "--dtype",
                    "f32",
                ]);
                for x in h {
                    add(vec!["copy", x, a, "--plan"]);
                    add(vec!["copy", a, x, "--plan"]);
                    add(vec!["copy", x, x, "--plan"]);
                    add(vec!["contract", x, "--sizes", "m=4,n=4,k=4", "--plan"]);
                    add(vec!["contract", "mk,kn->mn", "--sizes", x, "--plan"]);
                }
                for t in numbers {
                    let sz = format!("m={t},n=64,k=64");
                    add(vec!["contract", "mk,kn->mn", "--sizes", &sz, "--plan"]);
                    add(vec!["copy", a, b, "--dtype", t, "--plan"]);
                }
            }
            other => panic!("subcommand `{other}` has no hostile-argument templates: add them"),
        }
    }
    calls
}

/// Conformance files a new user might feed: not the format, odd lines, hostile cases.
fn conformance_files(dir: &std::path::Path, h: &[String]) -> Vec<String> {
    let mut texts: Vec<Vec<u8>> = [
        "=>\n",
        "\t=>\n",
        "hello\n",
        "coalesce\t8:1\n",
        "# only a comment\n",
        "",
        "coalesce\t(2,4):(1,2)\t=>\n",
        "coalesce\t(2,4):(1,2)\t=>\t8:1\tcpp\nnot a case\n",
        "frobnicate\t1\t=>\tx\tcpp\n",
        "\r\n\r\ncoalesce\t8:1\t=>\t8:1\tcpp\r\n",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    texts.push(b"coalesce\t(2,\xff):(1,2)\t=>\tx\tcpp\n".to_vec());
    let mut cases = String::new();
    for op in [
        "eval_all",
        "image",
        "composition",
        "complement",
        "max_common_layout",
    ] {
        for x in h.iter().take(20) {
            if !x.contains(['\t', '\n']) {
                cases.push_str(&format!("{op}\t{x}\t{x}\t=>\tx\tcpp\n"));
                cases.push_str(&format!("{op}\t{x}\t=>\tx\tcpp\n"));
            }
        }
    }
    texts.push(cases.into_bytes());
    texts
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let p = dir.join(format!("hostile-{k}.tsv"));
            std::fs::write(&p, t).unwrap();
            p.to_str().unwrap().to_string()
        })
        .collect()
}

/// Runs one call under the limits; `Err` describes a broken contract.
fn check(c: &Call) -> Result<(), String> {
    let shown: Vec<String> = c
        .args
        .iter()
        .map(|a| a.chars().take(50).collect())
        .collect();
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_KB} && exec \"$0\" \"$@\""))
        .arg(binary())
        .args(c.args.iter().map(OsString::from))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{shown:?}: cannot start: {e}"))?;
    // read both pipes on threads, so that a large output cannot block the child
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = so.read_to_end(&mut v);
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = se.read_to_end(&mut v);
        v
    });
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if start.elapsed() > HANG_WATCHDOG {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{shown:?}: hangs: still running after {HANG_WATCHDOG:?} (the watchdog), killed"
            ));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let out = out_t.join().unwrap();
    let err = String::from_utf8_lossy(&err_t.join().unwrap()).into_owned();
    let code = status.code();
    if err.contains("panicked") || err.contains("memory allocation") {
        return Err(format!("{shown:?}: exit {code:?}, stderr {err:?}"));
    }
    match code {
        Some(0) => {
            let summary = matches!(
                c.args.first().map(String::as_str),
                Some("conformance" | "paper")
            );
            let quiet = err.is_empty() || (summary && err.lines().count() == 1);
            if !quiet {
                return Err(format!("{shown:?}: exit 0 with stderr {err:?}"));
            }
            if out.len() > 8 << 20 {
                return Err(format!("{shown:?}: {} bytes on stdout", out.len()));
            }
        }
        // the documented answer of `cute gpu` on a machine without a CUDA device
        Some(3) if c.name == "gpu" && err.contains("no CUDA device") && out.is_empty() => {}
        Some(1 | 2) => {
            if !out.is_empty() {
                return Err(format!(
                    "{shown:?}: exit {code:?} with stdout {:?}",
                    String::from_utf8_lossy(&out[..out.len().min(200)])
                ));
            }
            if let Err(why) = stderr_shape::check(&err) {
                return Err(format!("{shown:?}: exit {code:?}: {why}"));
            }
            if !err.contains(c.name.as_str()) {
                return Err(format!(
                    "{shown:?}: the error does not name `{}`: {err:?}",
                    c.name
                ));
            }
            if err.len() > 2000 {
                return Err(format!("{shown:?}: a {}-byte error line", err.len()));
            }
        }
        _ => {
            return Err(format!(
                "{shown:?}: exit {code:?} (status {status}), stderr {err:?}"
            ))
        }
    }
    Ok(())
}

#[test]
fn every_subcommand_survives_hostile_arguments() {
    let h = hostile();
    let dir = std::env::temp_dir().join(format!("cute-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files = conformance_files(&dir, &h);
    let mut calls = subcommand_calls(&h, &files);
    let n_sub = cute_cli::cli::subcommands().len();
    let n_ops = cute_cli::ops::operations().count();
    calls.extend(op_calls(&h));

    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(c) = calls.get(k) else { break };
                if let Err(e) = check(c) {
                    failures.lock().unwrap().push(e);
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let failures = failures.into_inner().unwrap();
    eprintln!(
        "hostile: {} calls ({n_sub} subcommands, {n_ops} operations)",
        calls.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} calls broke the contract:\n{}",
        failures.len(),
        calls.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
