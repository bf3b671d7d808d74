//! Errors on an argument that is not CuTe notation: the argument echoed under the error line with
//! carets under the offending characters (counted in characters, control characters escaped, a
//! long argument cut around the error), and errors without a position kept to one line.

mod in_process;
mod stderr_shape;

use in_process::cute;

// ---------------------------------------------------------------- carets

/// The stderr of a failing call, checked against the documented shape.
fn error(args: &[&str], code: u8) -> String {
    let (c, out, err) = cute(args);
    assert_eq!((c, out.as_str()), (code, ""), "{args:?}: {err}");
    stderr_shape::check(&err).unwrap_or_else(|why| panic!("{args:?}: {why}"));
    err
}

/// The echo and caret lines under the error of `args` (which must have them).
fn pointer(args: &[&str]) -> (String, String) {
    let err = error(args, 1);
    let l: Vec<&str> = err.lines().collect();
    assert_eq!(l.len(), 3, "{args:?}: no pointer: {err}");
    (l[1].to_string(), l[2].to_string())
}

/// The character under the (first) caret, or `None` one column past the echo.
fn under(echo: &str, carets: &str) -> Option<char> {
    let col = carets.find('^').unwrap();
    echo.chars().nth(col)
}

#[test]
fn carets_sit_under_the_offending_character() {
    // (arguments, the character the caret must be under: None = just after the text, the width)
    let cases: &[(&[&str], Option<char>, usize)] = &[
        // trailing garbage
        (&["eval", "(4,8):(1,4)", "(1,2)x"], Some('x'), 1),
        (&["eval", "4:1:2"], Some(':'), 1),
        // a bad character in the middle
        (&["eval", "(4,8):(1,4)", "(1,?)"], Some('?'), 1),
        (&["eval", "(4,8:(1,4)"], Some(':'), 1),
        (
            &["composition", "(8,8):(8,1)", "((4,8),2):((16,#),8)"],
            Some('#'),
            1,
        ),
        // unbalanced parentheses: one too many, one missing (the input ends early)
        (&["eval", "(4,8):(1,4))"], Some(')'), 1),
        (&["eval", "(4,8):(1,4"], None, 1),
        (&["composition", "(8,8):(8,1)", "((4,8),2"], None, 1),
        // an integer literal that does not fit in i64: carets under all of it
        (&["eval", "(2,99999999999999999999):(1,2)"], Some('9'), 20),
        (&["eval", "1:-9223372036854775809"], Some('-'), 20),
        // subcommands
        (
            &["partition", "(8,8):(8,1)", "((4,8),2):((16,1),8)x"],
            Some('x'),
            1,
        ),
        (&["show", "(2,3):(3,1;"], Some(';'), 1),
        (&["contains", "(8,8)(8,1)", "(4):(1)"], Some('('), 1),
        (
            &["vector-width", "(4,8):(1,4)", "(4,8):(8 1)"],
            Some('1'),
            1,
        ),
        (
            &[
                "banks",
                "(8,64):(64,1)",
                "((8,4),(8,2)):((1,64),(8,256)",
                "--elem-bytes",
                "2",
                "--vector",
                "8",
            ],
            None,
            1,
        ),
        (&["draw", "(6,12):(12,1)", "--slice", "(_,3]"], Some(']'), 1),
        // a part of an argument read on its own: the byte is still the argument's
        (&["recast", "(4,8):(1,4)", "3/x"], Some('x'), 1),
        (&["recast", "(4,8):(1,4)", "3/0"], Some('0'), 1),
        (
            &["contains", "(64,256):(16384,1)", "tmem_32x32b.x2)"],
            Some(')'),
            1,
        ),
    ];
    for (args, want, width) in cases {
        let (echo, carets) = pointer(args);
        let got = under(&echo, &carets);
        assert_eq!(got, *want, "{args:?}:\n{echo}\n{carets}");
        if want.is_none() {
            assert_eq!(carets.find('^').unwrap(), echo.chars().count(), "{args:?}");
        }
        assert_eq!(
            carets.matches('^').count(),
            *width,
            "{args:?}:\n{echo}\n{carets}"
        );
    }
}

#[test]
fn the_pointer_lines_exactly() {
    assert_eq!(
        error(&["eval", "(4,8):(1,4)", "(1,2)x"], 1),
        "error: eval: argument 2 `(1,2)x`: parse: at byte 5: expected the end of the input\n  (1,2)x\n       ^\n"
    );
    assert_eq!(
        error(&["eval", "99999999999999999999:1"], 1),
        "error: eval: argument 1 `99999999999999999999:1`: parse: integer overflow: an integer literal does not fit in i64\n  99999999999999999999:1\n  ^^^^^^^^^^^^^^^^^^^^\n"
    );
    // an empty argument: the caret just after nothing
    assert!(error(&["eval", ""], 1).ends_with("\n  \n  ^\n"));
    // a stride that leaves its shape's structure: the caret where it leaves it
    assert_eq!(
        error(&["eval", "(4,8):(1,4,2)"], 1),
        "error: eval: argument 1 `(4,8):(1,4,2)`: parse: shape and stride are not congruent (S ~ D fails): at byte 10, the stride's tuple has more modes than the shape's\n  (4,8):(1,4,2)\n            ^\n"
    );
}

#[test]
fn the_pointer_counts_characters_and_escapes() {
    // a multi-byte character before the error counts as one column
    let (echo, carets) = pointer(&["eval", "(4,8):(1,4)", "(é,2)"]);
    assert_eq!(
        (echo.as_str(), under(&echo, &carets)),
        ("  (é,2)", Some('é'))
    );
    // a control character is shown escaped, as in the first line, and the caret follows it
    let (echo, carets) = pointer(&["eval", "(4,\n8):(1,4)x"]);
    assert_eq!(echo, "  (4,\\n8):(1,4)x");
    assert_eq!(under(&echo, &carets), Some('x'));
    let (echo, carets) = pointer(&["eval", "(4,8):(1,4)\u{7}"]);
    assert_eq!(
        (echo.as_str(), carets.as_str()),
        ("  (4,8):(1,4)\\u{7}", "             ^^^^^")
    );
}

#[test]
fn a_long_argument_is_cut_around_the_error() {
    // spaces between tokens make a long argument within the parser's capacity; the error near the
    // end, in the middle, and at the start
    let pad = " ".repeat(400);
    for (long, want, cut_before, cut_after) in [
        (format!("(4,{pad}8):(1,4)x"), Some('x'), true, false),
        (format!("(4,{pad}8):(1,{pad}4"), None, true, false),
        (format!("(4,{pad}8?{pad}):(1,4)"), Some('?'), true, true),
        (format!("(4,;{pad}8):(1,4)"), Some(';'), false, true),
    ] {
        let err = error(&["eval", &long], 1);
        let l: Vec<&str> = err.lines().collect();
        assert_eq!(l.len(), 3, "{err}");
        let n = l[1].chars().count() - 2;
        assert!(
            n <= cute_cli::diag::ECHO_LIMIT,
            "echo of {n} characters: {err}"
        );
        assert_eq!(l[1].starts_with("  …"), cut_before, "{err}");
        assert_eq!(l[1].ends_with('…'), cut_after, "{err}");
        assert_eq!(under(l[1], l[2]), want, "{err}");
        // and the character is the one at the byte the first line names
        let byte: usize = l[0]
            .split("at byte ")
            .nth(1)
            .unwrap()
            .split(':')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(long[byte..].chars().next(), want, "{err}");
        assert!(err.len() < 1000);
    }
}

#[test]
fn errors_without_a_position_stay_one_line() {
    for (args, code) in [
        (&["composition", "(4,6,8):(2,3,5)", "6:3"][..], 1),
        (&["eval", "(0,8):(1,4)"][..], 1),
        (&["frobnicate", "4:1"][..], 2),
        (&["composition", "4:1"][..], 2),
        (&["show", "--color", "sometimes", "4:1"][..], 2),
    ] {
        let err = error(args, code);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn the_shape_checker_refuses_what_the_contract_does_not_allow() {
    use stderr_shape::check;
    assert_eq!(check("error: a\n"), Ok(1));
    assert_eq!(check("error: x: parse: at byte 1: y\n  ab\n   ^\n"), Ok(3));
    assert_eq!(check("error: x: parse: at byte 2: y\n  ab\n    ^\n"), Ok(3));
    for bad in [
        "",
        "error: a",
        "warning: a\n",
        "error: a\nb\n",
        "error: x: parse: y\n  ab\n     ^\n", // two columns past the end
        "error: x: parse: y\n  ab\n    ^^\n", // a span past the end
        "error: x: parse: y\n  ab\n  ^x\n",   // not only carets
        "error: x: parse: y\n  ab\n  \n",     // no caret
        "error: x: parse: y\n ab\n  ^\n",     // the echo not indented by two
        "error: x: overflow\n  ab\n  ^\n",    // a pointer under a non-parse error
        "error: x: parse: y\n  ab\n  ^\nmore\n",
    ] {
        assert!(check(bad).is_err(), "{bad:?} accepted");
    }
}
