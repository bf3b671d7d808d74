//! The `cute` binary on bad input: every failure exits non-zero (never 101, a panic) with one
//! line on stderr that names the problem (and, under a parse error, the argument with carets:
//! `stderr_shape`), and nothing on stdout. And a few good answers.

use std::process::{Command, Output};

mod binary;
mod stderr_shape;

use binary::cute;

/// Runs `cute args`, checks the failure contract, and returns the stderr line.
fn fails(args: &[&str], needles: &[&str]) -> String {
    let o = cute(args);
    let err = String::from_utf8(o.stderr).unwrap();
    let shown: Vec<String> = args.iter().map(|a| a.chars().take(60).collect()).collect();
    let code = o.status.code();
    assert!(
        code.is_some() && code != Some(0) && code != Some(101),
        "{shown:?}: exit {code:?}, stderr {err:?}"
    );
    assert!(o.stdout.is_empty(), "{shown:?}: stdout {:?}", o.stdout);
    if let Err(why) = stderr_shape::check(&err) {
        panic!("{shown:?}: {why}");
    }
    assert!(!err.contains("panicked"), "{err:?}");
    assert!(err.len() < 1000, "{shown:?}: stderr {} bytes", err.len());
    for n in needles {
        assert!(err.contains(n), "{shown:?}: {err:?} lacks {n:?}");
    }
    err
}

fn prints(args: &[&str], want: &str) {
    let o = cute(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {:?}", o);
    assert!(o.stderr.is_empty(), "{args:?}: {:?}", o.stderr);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!("{want}\n"),
        "{args:?}"
    );
}

#[test]
fn good_answers() {
    prints(&["eval", "((2,2),(4,2)):((1,8),(2,16))", "22"], "26");
    prints(&["eval", "((2,2),(4,2)):((1,8),(2,16))", "(2,5)"], "26");
    prints(&["eval", "(2,3):(3,1)"], "(0,3,1,4,2,5)");
    prints(
        &["composition", "(8,8):(8,1)", "((4,8),2):((16,1),8)"],
        "((4,8),2):((2,8),1)",
    );
    prints(&["complement", "(4,8):(1,8)"], "(2,1):(4,64)");
    prints(&["crd2idx", "(1,2)", "(6,1)"], "13");
}

#[test]
fn malformed_text() {
    fails(
        &["eval", "(4,8:(1,4)"],
        &["eval", "argument 1", "(4,8:(1,4)", "byte"],
    );
    fails(&["eval", "(4,8):(1,4"], &["byte 10", "expected"]);
    fails(&["eval", "4:1:2"], &["byte 3"]);
    fails(&["eval", "(4,8):(1,4)", "(1,x)"], &["argument 2"]);
    fails(&["eval", "()"], &["empty"]);
    fails(&["eval", "abc"], &["argument 1", "expected"]);
    fails(
        &["composition", "(8,8):(8,1)", "((4,8),2"],
        &["composition", "argument 2"],
    );
    fails(&["eval", "(4,8):(1,4,2)"], &["congruent"]);
    fails(&["eval", "(0,8):(1,4)"], &["positive", "0"]);
    // control characters are escaped, so the message stays on one line
    fails(&["eval", "(4,\n8):(1,\r4)x\n"], &["\\n"]);
    fails(&["eval", "\u{2028}"], &["\\u{2028}"]);
}

#[test]
fn empty_input() {
    fails(&["eval", ""], &["argument 1", "``", "expected"]);
    fails(&["composition", "", ""], &["argument 1"]);
    fails(&[], &["no operation"]);
    fails(&[""], &["unknown operation"]);
}

#[test]
fn i64_overflow() {
    fails(
        &["eval", "99999999999999999999:1"],
        &["overflow", "integer literal"],
    );
    fails(&["eval", "1:-9223372036854775809"], &["overflow"]);
    fails(&["idx2crd", "99999999999999999999", "(2,2)"], &["overflow"]);
    // each entry fits, the size does not
    fails(
        &["eval", "(4294967296,4294967296):(1,1)"],
        &["overflow", "size"],
    );
    fails(
        &["compact_col_major", "(4294967296,4294967296)"],
        &["overflow"],
    );
    // offsets past i64
    fails(
        &["eval", "(2,2):(1,9223372036854775807)", "3"],
        &["overflow"],
    );
    fails(
        &["complement", "(2,2):(1,9223372036854775807)"],
        &["overflow"],
    );
}

#[test]
fn deep_nesting() {
    let deep = format!("{}1{}", "(".repeat(1000), ")".repeat(1000));
    fails(
        &["eval", &format!("{deep}:{deep}")],
        &["nesting depth", "64"],
    );
    fails(&["idx2crd", "3", &deep], &["nesting depth"]);
    fails(
        &["composition", "4:1", &format!("<{}>", "<".repeat(999))],
        &["argument 2"],
    );
    // unbalanced
    fails(&["eval", &"(".repeat(1000)], &["argument 1"]);
}

#[test]
fn huge_input() {
    let digits = "7".repeat(100_000);
    fails(&["eval", &digits], &["overflow", "(100000 bytes)"]);
    let many = format!("({}1)", "1,".repeat(50_000));
    fails(&["idx2crd", "3", &many], &["capacity", "leaves"]);
    let spaces = format!("{}4:1{}", " ".repeat(50_000), " ".repeat(50_000));
    prints(&["eval", &spaces, "3"], "3");
    // a valid layout too large to list
    fails(
        &["eval", "(1073741824,1073741824):(1,1073741824)"],
        &["eval_all", "65536"],
    );
    prints(
        &["eval", "(1073741824,1073741824):(1,1073741824)", "(5,7)"],
        "7516192773",
    );
}

#[test]
fn unknown_op_and_arity() {
    fails(&["frobnicate", "4:1"], &["unknown operation", "frobnicate"]);
    fails(
        &["composition", "4:1"],
        &["composition", "LAYOUT TILER", "1 given"],
    );
    fails(&["composition", "4:1", "2:1", "3:1"], &["3 given"]);
    fails(&["coalesce"], &["0 given"]);
    fails(&["eval"], &["LAYOUT"]);
    fails(&["eval", "4:1", "2", "3"], &["unexpected argument"]);
    fails(&["--frobnicate"], &["unexpected argument"]);
    fails(&["conformance"], &["FILE"]);
    fails(&["conformance", "/nonexistent/cases.tsv"], &["cannot read"]);
}

#[test]
fn algebra_refusals_name_operation_operands_and_condition() {
    let e = fails(&["composition", "(4,6,8):(2,3,5)", "6:3"], &["composition"]);
    assert!(
        e.contains("(4,6,8):(2,3,5)") && e.contains("6:3") && e.contains("divisib"),
        "{e}"
    );
    fails(
        &["complement", "(2,2):(1,1)"],
        &["complement", "(2,2):(1,1)", "injective"],
    );
    fails(
        &["idx2crd", "9", "(2,0,4,6)"],
        &["idx2crd", "(2,0,4,6)", "positive"],
    );
}

#[test]
fn help_and_version_are_normal() {
    let o = cute(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.lines().count() > 3 && out.contains("Usage"), "{out}");
    let o = cute(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8(o.stdout).unwrap().starts_with("cute "));
}

#[cfg(unix)]
#[test]
fn invalid_utf8_arguments() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    for args in [
        vec![OsStr::new("eval"), OsStr::from_bytes(b"(2,\xff):(1,2)")],
        vec![OsStr::from_bytes(b"\xff"), OsStr::new("4:1")],
        vec![
            OsStr::new("composition"),
            OsStr::from_bytes(b"\xfe"),
            OsStr::new("2:1"),
        ],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_cute"))
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(o.stdout.is_empty());
        assert_eq!(err.lines().count(), 1, "{err:?}");
        assert!(
            err.starts_with("error: ") && err.contains("UTF-8"),
            "{err:?}"
        );
    }
}

#[test]
fn structure_queries() {
    let l = "((2,2),(4,2)):((1,8),(2,16))";
    prints(&["size", l], "32");
    prints(&["size", "(2,(3,4))"], "24");
    prints(&["cosize", "(4,8):(1,5)"], "39");
    prints(&["rank", l], "2");
    prints(&["depth", l], "2");
    prints(&["shape", l], "((2,2),(4,2))");
    prints(&["stride", l], "((1,8),(2,16))");
    prints(&["flatten", l], "(2,2,4,2):(1,8,2,16)");
    prints(&["get", l, "1", "0"], "4:2");
    prints(&["image", "(2,4):(0,2)"], "{0,2,4,6}");
    prints(&["make_layout", "(2,2):(1,8)", "(4,2):(2,16)"], l);
    prints(&["congruent", "(4,(2,4))", "(7,(3,2))"], "true");
    prints(&["weakly_congruent", "(2,3,5)", "(2,3)"], "false");
    prints(&["compatible", "(6,5)", "((3,2),5)"], "true");
    prints(
        &["crd2crd", "(2,5)", "(4,8)", "((2,2),(4,2))"],
        "((0,1),(1,1))",
    );
    fails(&["get", l, "5"], &["out of range"]);
    fails(&["image", "(1024,1024,1024):(1,1,1)"], &["capacity"]);
}

#[test]
fn semimodule_strides_from_the_command_line() {
    prints(
        &["right_inverse", "(4,(4,2)):(1@1,(1@0,6@1))"],
        "(4,4):(4,1)",
    );
    prints(
        &["composition", "(8,8):(F1,F9)", "((4,8),2):((16,1),8)"],
        "((4,8),2):((F18,F1),F9)",
    );
    prints(&["eval_int", "(4,3):(1@0,8@0)", "9"], "17@0");
    prints(
        &["make_identity_layout", "(4,(3,2))"],
        "(4,(3,2)):(1@0,(1@0@1,1@1@1))",
    );
    prints(
        &["f2_layout", "Sw<3,3,3> o 0 o (8,64):(64,1)"],
        "(8,64):(F72,F1)",
    );
    prints(&["swizzle_of", "(8,8):(F1,F9)"], "Sw<3,0,3>");
    fails(
        &["make_layout", "4:2", "3:1@0"],
        &["different semimodules", "integer", "coordinate"],
    );
    fails(
        &["composition", "4:F1", "(2,2):(1,1)"],
        &["binary (F2)", "carries"],
    );
}

/// Slicing, partitioning, vector width and containment from the command line.
#[test]
fn tensor_questions() {
    prints(&["slice", "(4,8):(1,4)", "(2,_)"], "(8):(4)");
    prints(&["slice_offset", "(4,8):(1,4)", "(2,_)"], "2");
    prints(&["dice", "((2,3),4):((1,2),6)", "((_,1),_)"], "(3):(2)");
    prints(
        &["tv_partition", "(8,8):(8,1)", "((4,8),2):((16,1),8)", "5"],
        "{10} ∘ (2):(1)",
    );
    prints(
        &["make_layout_tv", "(4,32):(32,1)", "(4,4):(4,1)"],
        "(16,128) ((32,4),(4,4)):((64,4),(16,1))",
    );
    prints(
        &["local_tile", "(64,128):(1,64)", "<32:1,64:1>", "(1,1)"],
        "{4128} ∘ (32,64):(1,64)",
    );
    prints(
        &["local_partition", "(16,64):(1,16)", "(2,16):(1,2)", "3"],
        "{17} ∘ (8,4):(2,256)",
    );
    prints(
        &["contains", "(64,256):(16384,1)", "tmem_32x32b.x2"],
        "instruction ((32,4),2):((16384,524288),1)\nleft inverse (16384,64):(64,1)\ncontained: no — instruction coordinate 64 touches offset 1048576, which (64,256):(16384,1) does not reach",
    );
    prints(
        &["copy_plan", "(64,64):(1,64)", "(64,64):(64,1)"],
        "vector 1, loops (32:64:1,32:1:64,2:2048:32,2:32:2048)",
    );
    prints(&["copy_plan", "7:0", "7:0"], "reference loop");
    prints(
        &["partition", "(8,8):(8,1)", "((4,8),2):((16,1),8)", "--thread", "31"],
        "(8,8):(8,1) ∘ ((4,8),2):((16,1),8) = ((4,8),2):((2,8),1)\nthread  tensor  offsets\n31  {62} ∘ (2):(1)  62,63",
    );
    prints(
        &["vector-width", "(4,4):(1,4)", "((2,2),4):((1,8),2)"],
        "max_common_vector = 2\nmax_common_layout = 2:1 (coordinates 0,1)\nsrc offsets 0,1\ndst offsets 0,1\ncopy: vector 2, loops (4:4:2,2:2:8)",
    );
    prints(
        &["contains", "((16,4),256):((16384,524288),1)", "tmem_16x256b"],
        "instruction (((4,8),4),(2,2,1)):(((2,16384),524288),(1,131072,8))\nleft inverse (16384,32,4):(64,1,16)\ncontained: yes\ncoordinates (((4,8),4),(2,2,1)):(((128,1),16),(64,8,16)) (A† ∘ T)",
    );
    fails(
        &["slice", "(4,8):(1,4)", "(9,_)"],
        &["outside the domain Z_4"],
    );
    fails(
        &[
            "partition",
            "(8,8):(8,1)",
            "((4,8),2):((16,1),8)",
            "--thread",
            "32",
        ],
        &["outside the domain Z_32"],
    );
    fails(
        &["contains", "(4,8):(1@0,1@1)", "2:1"],
        &["contains", "integer"],
    );
    prints(
        &["vector-width", "8:1", "(4,2):(1,8)"],
        "max_common_vector = 4\nmax_common_layout = 4:1 (coordinates 0,1,2,3)\nsrc offsets 0,1,2,3\ndst offsets 0,1,2,3\ncopy: vector 4, loops (2:4:8)",
    );
    fails(&["vector-width", "8:1", "(4,"], &["(4,"]);
    fails(&["copy_plan", "8:1", "4:1"], &["same size"]);
}

/// Runs `cute args` with `stdin` as its standard input, under a 1 GB address-space limit
/// (`ulimit -v`) and a watchdog against hangs (`timeout 300`: a call that has not ended after five
/// minutes is taken to loop forever and killed, so that the test fails instead of stalling; not a
/// speed limit — these calls take milliseconds).
fn cute_limited(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new("timeout")
        .args(["300", "sh", "-c", "ulimit -v 1000000 && exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_cute"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run cute");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// `cute args` (stdin `stdin`) fails with exit status `code`, nothing on stdout and exactly the
/// lines `want` on stderr.
fn fails_with(args: &[&str], stdin: &[u8], code: i32, want: &str) {
    let o = cute_limited(args, stdin);
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: {:?}", o.stdout);
    assert_eq!(err, format!("{want}\n"), "{args:?}");
}

/// `cute args` succeeds within the limits and prints `want`.
fn prints_limited(args: &[&str], want: &str) {
    let o = cute_limited(args, b"");
    assert_eq!(o.status.code(), Some(0), "{args:?}: {o:?}");
    assert!(o.stderr.is_empty(), "{args:?}: {:?}", o.stderr);
    assert_eq!(String::from_utf8(o.stdout).unwrap(), format!("{want}\n"));
}

/// The boundary cases a new user found, each now bounded and answered with one
/// line naming the operation, the operands and the violated condition.
#[test]
fn regression_conformance_text_that_is_not_a_case_file() {
    // panicked (slice index out of range)
    fails_with(
        &["conformance", "/dev/stdin"],
        b"=>\n",
        1,
        "error: conformance `/dev/stdin`: line 1: no operation before the field `=>`",
    );
    // any text was accepted with exit status 0
    fails_with(
        &["conformance", "/dev/stdin"],
        b"# fine\n\nhello\n",
        1,
        "error: conformance `/dev/stdin`: line 3: not a case: a case is `op<TAB>args…<TAB>=><TAB>expected<TAB>source` (no field `=>` found)",
    );
    fails_with(
        &["conformance", "/dev/stdin"],
        b"coalesce\t8:1\t=>\t8:1\tcpp\n \t=>\n",
        1,
        "error: conformance `/dev/stdin`: line 2: the operation field before `=>` is empty",
    );
    fails_with(
        &["conformance", "/dev/stdin"],
        b"coalesce\t8:1\t=>\t8:1\tcpp\n\xff\n",
        1,
        "error: conformance `/dev/stdin`: line 2 is not UTF-8 (byte 24 of the file)",
    );
    // a file that never ends is read up to the limit, not into all memory
    fails_with(
        &["conformance", "/dev/zero"],
        b"",
        1,
        "error: conformance `/dev/zero`: the file is larger than 67108864 bytes, the most a conformance file may hold",
    );
    // a good file still runs, comments and blank lines skipped
    let o = cute_limited(
        &["conformance", "/dev/stdin"],
        b"# c\n\ncoalesce\t(2,4):(1,2)\t=>\t8:1\tcpp\n",
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "coalesce\t(2,4):(1,2)\t=>\t8:1\tcpp\n"
    );
}

#[test]
fn regression_vector_width_of_huge_layouts_is_bounded() {
    // grew past 4 GB listing 2^40 coordinates; now within 1 GB and 10 s
    for l in ["1099511627776:1", "(1048576,1048576):(1,1048576)"] {
        prints_limited(
            &["vector-width", l, l],
            "max_common_vector = 1099511627776\nmax_common_layout = 1099511627776:1 (coordinates not listed: more than 65536)\nsrc offsets not listed: more than 65536\ndst offsets not listed: more than 65536\ncopy: vector 1099511627776, loops ()",
        );
    }
    // small ones are still listed
    prints_limited(
        &["vector-width", "8:1", "(4,2):(1,8)"],
        "max_common_vector = 4\nmax_common_layout = 4:1 (coordinates 0,1,2,3)\nsrc offsets 0,1,2,3\ndst offsets 0,1,2,3\ncopy: vector 4, loops (2:4:8)",
    );
}

#[test]
fn regression_partition_is_bounded_and_checks_the_thread() {
    let (data, tv) = ("(1048576,1048576):(1,1048576)", "(1099511627776,1):(1,0)");
    // looped over 2^40 threads
    fails_with(
        &["partition", data, tv],
        b"",
        1,
        "error: partition (1048576,1048576):(1,1048576), (1099511627776,1):(1,0): capacity exceeded: the elements listed for all threads of TV; pick one thread with --thread (this build supports at most 65536)",
    );
    // one thread of it is cheap
    prints_limited(
        &["partition", data, tv, "--thread", "5"],
        "(1048576,1048576):(1,1048576) ∘ (1099511627776,1):(1,0) = (1099511627776,1):(1,0)\nthread  tensor  offsets\n5  {5} ∘ (1):(0)  5",
    );
    // exited 0 with an empty table (`x..x+1` wrapped)
    for t in ["9223372036854775807", "-1", "-9223372036854775808", "32"] {
        fails_with(
            &["partition", "(8,8):(8,1)", "((4,8),2):((16,1),8)", "--thread", t],
            b"",
            1,
            &format!("error: partition: tv_partition (8,8):(8,1), ((4,8),2):((16,1),8): coordinate {t} is outside the domain Z_32"),
        );
    }
    // the error is the library's tv_partition's, named so
    let d: cute::Layout = "(8,8):(8,1)".parse().unwrap();
    let t: cute::Layout = "((4,8),2):((16,1),8)".parse().unwrap();
    let e = cute::tv_partition(&d, &t, i64::MAX).unwrap_err();
    assert_eq!(e.op(), cute::Op::TvPartition);
    assert_eq!(e.category(), "OutOfRange");
}

#[test]
fn regression_eval_names_the_argument_that_does_not_parse() {
    // blamed argument 1 for argument 2's parse error
    fails_with(
        &["eval", "(4,8):(1,4)", "(1,2)x"],
        b"",
        1,
        "error: eval: argument 2 `(1,2)x`: parse: at byte 5: expected the end of the input\n  (1,2)x\n       ^",
    );
    fails_with(
        &["eval", "(4,8):(1,4)x", "(1,2)"],
        b"",
        1,
        "error: eval: argument 1 `(4,8):(1,4)x`: parse: at byte 11: expected the end of the input\n  (4,8):(1,4)x\n             ^",
    );
    fails_with(
        &["eval_crd", "(4,8):(1,4)", "(1,2)x"],
        b"",
        1,
        "error: eval_crd: argument 2 `(1,2)x`: parse: at byte 5: expected the end of the input\n  (1,2)x\n       ^",
    );
    // the same text as a layout and as a coordinate: the argument that was read is named
    fails_with(
        &["complement", "(4,8):(1,4)", "(4,8):(1,4)"],
        b"",
        1,
        "error: complement: argument 2 `(4,8):(1,4)`: parse: at byte 5: expected the end of the input\n  (4,8):(1,4)\n       ^",
    );
}

#[test]
fn regression_negative_numbers_are_arguments_not_flags() {
    // were `unexpected argument '-1' found`; C++ evaluates a negative index with truncating
    // division: idx2crd(-1, (4,8)) = (-1, 0), so (4,8):(1,4) gives -1
    prints_limited(&["eval", "(4,8):(1,4)", "-1"], "-1");
    prints_limited(
        &["eval", "4:1", "-9223372036854775808"],
        "-9223372036854775808",
    );
    prints_limited(&["eval_int", "4:1", "-3"], "-3");
    prints_limited(&["crd2idx", "-1", "(4,8)"], "-1");
    // a real unknown flag is still an invocation error, naming the subcommand
    fails_with(
        &["eval", "4:1", "-x"],
        b"",
        2,
        "error: eval: unexpected argument '-x' found (see `cute eval --help`)",
    );
}

#[test]
fn regression_errors_name_the_operation_run() {
    // labelled `eval`
    fails_with(
        &["cosize", "(2,2):(9223372036854775807,1)"],
        b"",
        1,
        "error: cosize `(2,2):(9223372036854775807,1)`: integer overflow: a sum does not fit in i64",
    );
    fails_with(
        &["cosize", "(2,2):(-9223372036854775808,1)"],
        b"",
        1,
        "error: cosize `(2,2):(-9223372036854775808,1)`: integer overflow: the absolute value of a stride does not fit in i64",
    );
    // labelled `compact_major`
    fails_with(
        &["compact_row_major", "(4611686018427387904,4)"],
        b"",
        1,
        "error: compact_row_major `(4611686018427387904,4)`: integer overflow: a product does not fit in i64",
    );
    fails_with(
        &["compact_col_major", "(4611686018427387904,4)"],
        b"",
        1,
        "error: compact_col_major `(4611686018427387904,4)`: integer overflow: a product does not fit in i64",
    );
    // labelled `composition`
    fails_with(
        &["composition_mode", "((5,4,2)):((8,1,4))", "0", "(4,2):(1,4)"],
        b"",
        1,
        "error: composition_mode (5,4,2):(8,1,4) ∘ (4,2):(1,4): no layout compatible with the right operand computes A∘B (decided exactly, where the distributivity check (12) refuses): each leaf of B alone gives a layout, but at index 7 A(B(i)) = 17 while the values at its leaf coordinates taken one at a time add up to 56 (every layout compatible with B adds them)",
    );
    fails_with(
        &["composition_mode", "(4,8):(1,4)", "5", "2:1"],
        b"",
        1,
        "error: composition_mode (4,8):(1,4): mode index 5 is out of range for rank 2",
    );
    // an error of an operation another is built from names the one run first
    let e = fails(&["image", "(8192,8192,2):(1,8192,0)"], &["error: image "]);
    assert!(e.contains("capacity exceeded"), "{e}");
}

#[test]
fn regression_bank_check_with_negative_sizes() {
    // printed `V·B = -2·-2 bytes must be 4, 8 or 16 bytes`, although -2·-2 = 4
    fails_with(
        &[
            "banks",
            "(8,64):(64,1)",
            "(32,8):(8,1)",
            "--elem-bytes",
            "-2",
            "--vector",
            "-2",
        ],
        b"",
        1,
        "error: banks: bank_conflicts (8,64):(64,1), (32,8):(8,1): the element size B = -2 bytes and the vector length V = -2 must be positive",
    );
    fails_with(
        &[
            "swizzle-search",
            "(8,64):(64,1)",
            "(32,8):(8,1)",
            "--elem-bytes",
            "-1",
            "--vector",
            "-4",
        ],
        b"",
        1,
        "error: swizzle-search: swizzle_search (8,64):(64,1): the element size B = -1 bytes and the vector length V = -4 must be positive",
    );
}

#[test]
fn regression_show_sizes_cells_by_an_offset_of_i64_max() {
    // the fuzz target `cli` (debug assertions): `Grid::cosize` added 1 to the largest offset,
    // i64::MAX, and overflowed; the cells are as wide as 2^63's 19 digits
    let row = "    +---------------------+---------------------+";
    prints(
        &["show", "--color", "never", "(2,2):(9223372036854775807,0)"],
        &[
            "(2,2):(9223372036854775807,0)",
            "                        0                     1 ",
            row,
            " 0  |                   0 |                   0 |",
            row,
            " 1  | 9223372036854775807 | 9223372036854775807 |",
            row,
        ]
        .join("\n"),
    );
}

#[test]
fn regression_show_aligns_negative_offsets_wide_column_indices_and_long_row_indices() {
    // CuTe sizes cells by the cosize (here 1: 3 characters), which leaves `-12` sticking out of
    // its column; the cells widen to the longest offset, the minus sign included
    let row = "    +-----+";
    prints(
        &["show", "--color", "never", "(4,1):(-4,0)"],
        &[
            "(4,1):(-4,0)",
            "        0 ",
            row,
            " 0  |   0 |",
            row,
            " 1  |  -4 |",
            row,
            " 2  |  -8 |",
            row,
            " 3  | -12 |",
            row,
        ]
        .join("\n"),
    );
    // column indices longer than the cosize's digits widen the cells
    let sep = format!("    {}+", "+----".repeat(12));
    let head: String = (0..12).map(|c| format!("  {c:>2} ")).collect();
    let cells = "|  0 ".repeat(12);
    prints(
        &["show", "--color", "never", "(1,12):(0,0)"],
        &[
            "(1,12):(0,0)".to_string(),
            format!("    {head}"),
            sep.clone(),
            format!(" 0  {cells}|"),
            sep,
        ]
        .join("\n"),
    );
    // row indices of three digits widen the row labels (CuTe's `%2d`)
    let out = cute(&["show", "--color", "never", "(101,1):(1,0)"]);
    let table = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        &lines[..4],
        [
            "(101,1):(1,0)",
            "         0 ",
            "     +-----+",
            "  0  |   0 |"
        ]
    );
    assert_eq!(&lines[lines.len() - 2..], ["100  | 100 |", "     +-----+"]);
    // what CuTe aligns prints as CuTe prints it: -1 fits the cosize's two digits
    let sep = "    +----+----+----+----+";
    prints(
        &["show", "--color", "never", "(2,4):(-1,4)"],
        &[
            "(2,4):(-1,4)",
            "       0    1    2    3 ",
            sep,
            " 0  |  0 |  4 |  8 | 12 |",
            sep,
            " 1  | -1 |  3 |  7 | 11 |",
            sep,
        ]
        .join("\n"),
    );
}
