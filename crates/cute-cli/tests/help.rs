//! The help texts: an example in every `--help` that runs as written, the top-level help's account
//! of operations, and the exit codes documented (in `cute --help` and the README) and kept.

use std::path::{Path, PathBuf};

mod in_process;

use in_process::{cute, ok};

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
    let d = std::env::temp_dir().join(format!("cute-help-{}-{name}", std::process::id()));
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
                if w[k - 1] == "-o" || w[k - 1] == "--gallery" || w[k - 1] == "--json" {
                    let name = Path::new(&w[k]).file_name().unwrap().to_owned();
                    w[k] = dir.join(name).to_string_lossy().into_owned();
                } else if w[k].starts_with("crates/") {
                    w[k] = root.join(&w[k]).to_string_lossy().into_owned();
                }
            }
            let args: Vec<&str> = w[1..].iter().map(String::as_str).collect();
            let (code, out, err) = cute(&args);
            if sub == "gpu" && code == 3 {
                // exit 3 is the documented answer of a machine without a CUDA device;
                // the examples that plan without one must still run
                assert!(
                    err.contains("no CUDA device"),
                    "{line}: exit 3, stderr {err}"
                );
                assert!(
                    !args.contains(&"--plan"),
                    "{line} plans without a device, yet exited 3"
                );
                ran += 1;
                continue;
            }
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
