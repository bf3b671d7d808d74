//! The command line polished for people (issue G): an example in every `--help` that runs, carets
//! under the offending characters of an argument, the exit codes documented and kept, `--json`
//! that parses, and `cute show` coloured only when asked or on a terminal. Everything runs
//! in-process through `cute_cli::cli::run` (what the binary runs).

use cute_cli::cli::{run, run_with, Console};
use std::path::{Path, PathBuf};

mod stderr_shape;

/// `cute args…`: (exit status, stdout, stderr).
fn cute(args: &[&str]) -> (u8, String, String) {
    cute_on(args, Console::default())
}

fn cute_on(args: &[&str], console: Console) -> (u8, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut v = vec!["cute"];
    v.extend_from_slice(args);
    let code = run_with(v, &mut out, &mut err, console);
    (
        code,
        String::from_utf8(out).expect("stdout is UTF-8"),
        String::from_utf8(err).expect("stderr is UTF-8"),
    )
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = cute(args);
    assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
    out
}

// ---------------------------------------------------------------- examples in every --help

/// The words of a shell command line: single and double quotes, up to the first `|`, `>` or `#`
/// outside quotes (a pipe, a redirection, a comment).
fn words(line: &str) -> Vec<String> {
    let (mut v, mut w, mut quote, mut in_word) = (Vec::new(), String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => w.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, '|' | '>' | '#') => break,
            (None, c) if c.is_whitespace() => {
                if in_word {
                    v.push(std::mem::take(&mut w));
                    in_word = false;
                }
            }
            (None, c) => {
                w.push(c);
                in_word = true;
            }
        }
    }
    assert!(quote.is_none(), "unbalanced quotes in {line:?}");
    if in_word {
        v.push(w);
    }
    v
}

/// The example lines of a help text: the lines `  cute …` after `Examples:`, up to a blank line.
fn examples(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Examples:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cute-polish-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn every_help_has_examples_and_each_runs() {
    let dir = scratch("examples");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut helps = vec![(String::new(), ok(&["--help"]))];
    for sub in cute_cli::cli::subcommands() {
        let h = ok(&[sub.as_str(), "--help"]);
        helps.push((sub, h));
    }
    let mut ran = 0;
    for (sub, help) in &helps {
        let lines = examples(help);
        assert!(!lines.is_empty(), "`cute {sub} --help` has no Examples");
        for line in lines {
            let mut w = words(&line);
            assert_eq!(w[0], "cute", "{line}");
            if !sub.is_empty() {
                assert_eq!(
                    &w[1], sub,
                    "an example of `{sub}` runs another command: {line}"
                );
            }
            if sub == "playground" {
                continue; // it serves until stopped
            }
            // files go to a scratch folder; paths in the repository are taken from its root
            for k in 1..w.len() {
                if w[k - 1] == "-o" || w[k - 1] == "--gallery" {
                    let name = Path::new(&w[k]).file_name().unwrap().to_owned();
                    w[k] = dir.join(name).to_string_lossy().into_owned();
                } else if w[k].starts_with("crates/") {
                    w[k] = root.join(&w[k]).to_string_lossy().into_owned();
                }
            }
            let args: Vec<&str> = w[1..].iter().map(String::as_str).collect();
            let (code, out, err) = cute(&args);
            assert_eq!(code, 0, "{line}: exit {code}, stderr {err}");
            assert!(!out.is_empty(), "{line}: nothing on stdout");
            ran += 1;
        }
    }
    // the top level and every subcommand but playground run at least one
    assert!(ran >= helps.len(), "only {ran} examples ran");
    assert!(dir.join("mma.tex").exists() && dir.join("layout.png").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_top_level_help_explains_operations() {
    let help = ok(&["--help"]);
    assert!(help.contains("cute OP ARG..."), "{help}");
    let ex = examples(&help);
    assert!(
        ex.iter().any(|l| l.starts_with("cute composition ")),
        "{ex:?}"
    );
    assert!(ex.iter().any(|l| l == "cute ops"), "{ex:?}");
}

#[test]
fn the_example_reader_reads_shell_words() {
    assert_eq!(
        words("cute draw '(4,8):(1,4)' -o \"a b.png\"   # a comment"),
        ["cute", "draw", "(4,8):(1,4)", "-o", "a b.png"]
    );
    assert_eq!(
        words("cute paper --json | head -3"),
        ["cute", "paper", "--json"]
    );
    assert_eq!(words("cute eval '' 3"), ["cute", "eval", "", "3"]);
    assert_eq!(
        examples("x\nExamples:\n  cute a\n  cute b\n\nmore"),
        ["cute a", "cute b"]
    );
}

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
        (&["eval", "(4,8):(1,4,2)"][..], 1),
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

// ---------------------------------------------------------------- exit codes

#[test]
fn exit_codes_are_documented_and_kept() {
    let help = ok(&["--help"]);
    let doc: Vec<&str> = help
        .lines()
        .skip_while(|l| l.trim() != "Exit status:")
        .collect();
    assert!(doc.len() > 3, "no `Exit status:` in cute --help:\n{help}");
    for (code, word) in [("0", "success"), ("1", "refused"), ("2", "bad invocation")] {
        assert!(
            doc.iter()
                .any(|l| l.trim_start().starts_with(&format!("{code}  {word}"))),
            "exit status {code} ({word}) not listed:\n{help}"
        );
    }
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    assert!(
        readme.contains("Exit status"),
        "README.md does not document the exit status"
    );
    for code in ["`0`", "`1`", "`2`"] {
        assert!(
            readme.contains(code),
            "README.md does not list exit status {code}"
        );
    }
    // representative commands
    let status = |a: &[&str]| cute(a).0;
    assert_eq!(status(&["eval", "(4,8):(1,4)", "3"]), 0);
    assert_eq!(status(&["ops"]), 0);
    assert_eq!(status(&["eval", "(4,8):(1,4)", "(1,2)x"]), 1); // not notation
    assert_eq!(status(&["composition", "(4,6,8):(2,3,5)", "6:3"]), 1); // refused
    assert_eq!(status(&["eval", "99999999999999999999:1"]), 1); // overflow
    assert_eq!(status(&["show", "(4,8):(1,4)x", "--json"]), 1);
    assert_eq!(status(&["frobnicate", "4:1"]), 2); // unknown operation
    assert_eq!(status(&["composition", "4:1"]), 2); // wrong number of arguments
    assert_eq!(status(&["eval", "--frobnicate"]), 2); // unknown option
    assert_eq!(status(&["composition", "4:1", "2:1", "--json", "3:1"]), 2);
    assert_eq!(status(&["conformance", "/nonexistent/cases.tsv"]), 2); // unreadable file
}

// ---------------------------------------------------------------- --json

/// A JSON value, read by the small reader below.
#[derive(Debug, PartialEq)]
enum J {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    fn get(&self, k: &str) -> &J {
        match self {
            J::Obj(m) => {
                &m.iter()
                    .find(|(x, _)| x == k)
                    .unwrap_or_else(|| panic!("no key {k} in {self:?}"))
                    .1
            }
            _ => panic!("not an object: {self:?}"),
        }
    }
    fn keys(&self) -> Vec<&str> {
        match self {
            J::Obj(m) => m.iter().map(|(k, _)| k.as_str()).collect(),
            _ => panic!("not an object: {self:?}"),
        }
    }
    fn arr(&self) -> &[J] {
        match self {
            J::Arr(v) => v,
            _ => panic!("not an array: {self:?}"),
        }
    }
    fn s(&self) -> &str {
        match self {
            J::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }
    fn n(&self) -> i64 {
        match self {
            J::Num(s) => s.parse().unwrap(),
            _ => panic!("not a number: {self:?}"),
        }
    }
    fn ints(&self) -> Vec<i64> {
        self.arr().iter().map(J::n).collect()
    }
}

/// Reads JSON (RFC 8259): the whole text is one value with optional white space around.
fn parse_json(t: &str) -> Result<J, String> {
    let c: Vec<char> = t.chars().collect();
    let mut i = 0;
    let v = jvalue(&c, &mut i)?;
    ws(&c, &mut i);
    if i != c.len() {
        return Err(format!("trailing text at {i}"));
    }
    Ok(v)
}

fn ws(c: &[char], i: &mut usize) {
    while matches!(c.get(*i), Some(' ' | '\t' | '\n' | '\r')) {
        *i += 1;
    }
}

fn jvalue(c: &[char], i: &mut usize) -> Result<J, String> {
    ws(c, i);
    match c.get(*i) {
        Some('{') => {
            *i += 1;
            let mut m: Vec<(String, J)> = Vec::new();
            ws(c, i);
            if c.get(*i) == Some(&'}') {
                *i += 1;
                return Ok(J::Obj(m));
            }
            loop {
                ws(c, i);
                let k = jstring(c, i)?;
                ws(c, i);
                if c.get(*i) != Some(&':') {
                    return Err(format!("expected ':' at {i}"));
                }
                *i += 1;
                let v = jvalue(c, i)?;
                if m.iter().any(|(x, _)| *x == k) {
                    return Err(format!("duplicate key {k}"));
                }
                m.push((k, v));
                ws(c, i);
                match c.get(*i) {
                    Some(',') => *i += 1,
                    Some('}') => {
                        *i += 1;
                        return Ok(J::Obj(m));
                    }
                    _ => return Err(format!("bad object at {i}")),
                }
            }
        }
        Some('[') => {
            *i += 1;
            let mut v = Vec::new();
            ws(c, i);
            if c.get(*i) == Some(&']') {
                *i += 1;
                return Ok(J::Arr(v));
            }
            loop {
                v.push(jvalue(c, i)?);
                ws(c, i);
                match c.get(*i) {
                    Some(',') => *i += 1,
                    Some(']') => {
                        *i += 1;
                        return Ok(J::Arr(v));
                    }
                    _ => return Err(format!("bad array at {i}")),
                }
            }
        }
        Some('"') => jstring(c, i).map(J::Str),
        Some('-' | '0'..='9') => {
            let start = *i;
            if c[*i] == '-' {
                *i += 1;
            }
            let digits = |i: &mut usize| {
                let s = *i;
                while c.get(*i).is_some_and(char::is_ascii_digit) {
                    *i += 1;
                }
                *i - s
            };
            let int_start = *i;
            let n = digits(i);
            if n == 0 || (n > 1 && c[int_start] == '0') {
                return Err(format!("bad number at {start}"));
            }
            if c.get(*i) == Some(&'.') {
                *i += 1;
                if digits(i) == 0 {
                    return Err(format!("bad fraction at {start}"));
                }
            }
            if matches!(c.get(*i), Some('e' | 'E')) {
                *i += 1;
                if matches!(c.get(*i), Some('+' | '-')) {
                    *i += 1;
                }
                if digits(i) == 0 {
                    return Err(format!("bad exponent at {start}"));
                }
            }
            Ok(J::Num(c[start..*i].iter().collect()))
        }
        Some(_) => {
            for (lit, v) in [
                ("true", J::Bool(true)),
                ("false", J::Bool(false)),
                ("null", J::Null),
            ] {
                if c[*i..].iter().take(lit.len()).copied().eq(lit.chars()) {
                    *i += lit.len();
                    return Ok(v);
                }
            }
            Err(format!("unexpected character at {i}"))
        }
        None => Err("unexpected end".into()),
    }
}

fn jstring(c: &[char], i: &mut usize) -> Result<String, String> {
    if c.get(*i) != Some(&'"') {
        return Err(format!("expected a string at {i}"));
    }
    *i += 1;
    let mut s = String::new();
    loop {
        match c.get(*i) {
            Some('"') => {
                *i += 1;
                return Ok(s);
            }
            Some('\\') => {
                let e = *c.get(*i + 1).ok_or("bad escape")?;
                *i += 2;
                match e {
                    '"' | '\\' | '/' => s.push(e),
                    'n' => s.push('\n'),
                    't' => s.push('\t'),
                    'r' => s.push('\r'),
                    'b' => s.push('\u{8}'),
                    'f' => s.push('\u{c}'),
                    'u' => {
                        let h: String = c.get(*i..*i + 4).ok_or("bad \\u")?.iter().collect();
                        let n = u32::from_str_radix(&h, 16).map_err(|e| e.to_string())?;
                        s.push(char::from_u32(n).ok_or("bad code point")?);
                        *i += 4;
                    }
                    _ => return Err(format!("bad escape at {i}")),
                }
            }
            Some(ch) if (*ch as u32) < 0x20 => return Err(format!("raw control character at {i}")),
            Some(ch) => {
                s.push(*ch);
                *i += 1;
            }
            None => return Err("unterminated string".into()),
        }
    }
}

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
    // coordinate strides: values in CuTe notation
    let v = json(&["eval", "(2,2):(1@0,1@1)", "--json"]);
    assert_eq!(
        v.get("values").arr(),
        [
            J::Num("0".into()),
            J::Str("1@0".into()),
            J::Str("1@1".into()),
            J::Str("(1,1)".into())
        ]
    );
    assert_eq!(json(&["eval", "1:0", "--json"]).get("values").ints(), [0]);
}

#[test]
fn ops_json_lists_every_operation() {
    let v = json(&["ops", "--json"]);
    let text = ok(&["ops"]);
    assert_eq!(v.arr().len(), text.lines().count());
    for (item, line) in v.arr().iter().zip(text.lines()) {
        assert_eq!(item.keys(), ["name", "signature", "min_args", "max_args"]);
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
    assert_eq!(
        v.keys(),
        [
            "src",
            "dst",
            "max_common_vector",
            "max_common_layout",
            "coordinates",
            "src_offsets",
            "dst_offsets",
            "copy",
            "copy_note"
        ]
    );
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

// ---------------------------------------------------------------- colour

const PLAIN: &str = "(2,3):(3,1)\n      0   1   2 \n    +---+---+---+\n 0  | 0 | 1 | 2 |\n    +---+---+---+\n 1  | 3 | 4 | 5 |\n    +---+---+---+\n";

/// `s` without its ANSI escapes (`ESC [ … m`).
fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\x1b' {
            assert_eq!(it.next(), Some('['));
            for d in it.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn show_color_always_snapshot() {
    let got = ok(&["show", "(2,3):(3,1)", "--color", "always"]);
    let cell = |bg: u8, ink: u8, v: u8| {
        format!("\x1b[48;2;{bg};{bg};{bg};38;2;{ink};{ink};{ink}m {v} \x1b[0m")
    };
    let want = format!(
        "(2,3):(3,1)\n      0   1   2 \n    +---+---+---+\n 0  |{}|{}|{}|\n    +---+---+---+\n 1  |{}|{}|{}|\n    +---+---+---+\n",
        cell(255, 0, 0),
        cell(153, 0, 1),
        cell(204, 0, 2),
        cell(102, 255, 3),
        cell(229, 0, 4),
        cell(127, 255, 5),
    );
    assert_eq!(got, want);
    assert_eq!(strip_ansi(&got), PLAIN);
    // the greys are the pictures' palette
    for v in 0..16 {
        let (g, _, _) = cute_draw::pictures::grey(v);
        let big = ok(&["show", "16:1", "--color", "always"]);
        assert!(big.contains(&format!("\x1b[48;2;{g};{g};{g};")), "{v}");
    }
    // wider cells keep the same text
    let wide = ok(&["show", "(4,8):(1,4)", "--color", "always"]);
    assert_eq!(strip_ansi(&wide), ok(&["show", "(4,8):(1,4)"]));
}

#[test]
fn colour_only_on_a_terminal_without_no_color() {
    let tty = Console {
        stdout_is_terminal: true,
        no_color: false,
    };
    let tty_no_color = Console {
        stdout_is_terminal: true,
        no_color: true,
    };
    let pipe = Console {
        stdout_is_terminal: false,
        no_color: false,
    };
    let coloured = ok(&["show", "(2,3):(3,1)", "--color", "always"]);
    for (console, args, want) in [
        (tty, &["show", "(2,3):(3,1)"][..], coloured.as_str()),
        (
            tty,
            &["show", "(2,3):(3,1)", "--color", "auto"][..],
            &coloured,
        ),
        (tty, &["show", "(2,3):(3,1)", "--color", "never"][..], PLAIN),
        (tty_no_color, &["show", "(2,3):(3,1)"][..], PLAIN),
        (
            tty_no_color,
            &["show", "(2,3):(3,1)", "--color", "always"][..],
            &coloured,
        ),
        (pipe, &["show", "(2,3):(3,1)"][..], PLAIN),
        (
            pipe,
            &["show", "(2,3):(3,1)", "--color", "always"][..],
            &coloured,
        ),
    ] {
        let (code, out, err) = cute_on(args, console);
        assert_eq!((code, err.as_str()), (0, ""), "{console:?} {args:?}");
        assert_eq!(out, want, "{console:?} {args:?}");
    }
    // `run` (no console) never colours under auto
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(run(["cute", "show", "(2,3):(3,1)"], &mut out, &mut err), 0);
    assert_eq!(String::from_utf8(out).unwrap(), PLAIN);
}
