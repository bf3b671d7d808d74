//! The README's examples run as tests. Every `$ cute …` line of the `sh` blocks of "Using it" is
//! run with this build's `cute`, in a fresh directory:
//!
//! * a command followed by output lines must print exactly those lines (on stdout, or on stderr
//!   for a refusal, which must then exit with status 1);
//! * a command that writes a file (`> FILE`, `-o FILE`, `--gallery DIR`) must succeed and leave
//!   that file (a non-empty one; for a directory, its `index.html`);
//! * a command shown without output must succeed and print something on stdout (`FILE`, the
//!   placeholder of `cute conformance FILE`, is the project's case file);
//! * `cute playground` is the one line not run: it serves until stopped (its own tests start it
//!   in `cli.rs` and `scripts/test-playground.py`).
//! * an `sh` block with no `$ cute` line (an installation step, `pip install ./crates/cute-py`)
//!   holds no example and is not run.
//!
//! The README's Rust block is a doc test of `cute-cli` (`src/lib.rs`, `#[cfg(doctest)]`).

use std::path::{Path, PathBuf};
use std::process::Command;

const README: &str = include_str!("../../../README.md");

/// One example: the command's words (after `cute`) and the lines printed below it.
struct Example {
    line: String,
    words: Vec<String>,
    shown: Vec<String>,
}

/// The words of a shell command line: whitespace-separated, `'…'` quoted, `#` starting a comment.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted, mut in_word) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                in_word = true;
            }
            c if quoted => cur.push(c),
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    assert!(!quoted, "unbalanced quote in the README: {line}");
    if in_word {
        out.push(cur);
    }
    out
}

/// The examples of the `sh` blocks of the section "Using it".
fn examples() -> Vec<Example> {
    let start = README
        .find("\n## Using it\n")
        .expect("README has \"Using it\"");
    let section = &README[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let mut out: Vec<Example> = Vec::new();
    let mut in_sh = false;
    // whether this block has shown a `$ cute` command yet: the lines of a block without one (an
    // installation step such as `pip install ...`) are not the output of an example
    let mut command_in_block = false;
    let mut pending = String::new();
    for line in section.lines() {
        if !in_sh {
            in_sh = line == "```sh";
            command_in_block = false;
            continue;
        }
        if line == "```" {
            in_sh = false;
            continue;
        }
        if !pending.is_empty() || line.starts_with("$ ") {
            // `\` at the end continues the command on the next line
            let text = line.strip_prefix("$ ").unwrap_or(line);
            match text.strip_suffix('\\') {
                Some(head) => pending.push_str(head),
                None => {
                    pending.push_str(text);
                    let w = words(&pending);
                    assert_eq!(w.first().map(String::as_str), Some("cute"), "{pending}");
                    command_in_block = true;
                    out.push(Example {
                        line: std::mem::take(&mut pending),
                        words: w[1..].to_vec(),
                        shown: Vec::new(),
                    });
                }
            }
        } else if command_in_block {
            let e = out.last_mut().expect("a command was shown in this block");
            e.shown.push(line.to_string());
        }
    }
    assert!(!in_sh && pending.is_empty(), "an unclosed block or command");
    out
}

/// The file a command writes, if any: the target of `>`, `-o` or `--gallery`.
fn written(words: &[String]) -> Option<(usize, String)> {
    words
        .iter()
        .position(|w| w == ">" || w == "-o" || w == "--gallery")
        .map(|k| (k, words[k + 1].clone()))
}

fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("cute-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(dir: &Path, words: &[String]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(words)
        .current_dir(dir)
        .output()
        .expect("run cute")
}

#[test]
fn the_readme_commands_print_what_it_shows() {
    let dir = scratch();
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cases.tsv");
    let (mut compared, mut files, mut listed, mut skipped) = (0, 0, 0, Vec::new());
    for e in examples() {
        let mut w = e.words.clone();
        if w.first().map(String::as_str) == Some("playground") {
            skipped.push(e.words.clone());
            continue;
        }
        if w.first().map(String::as_str) == Some("conformance") {
            for a in &mut w[1..] {
                if a == "FILE" {
                    *a = cases.to_str().unwrap().to_string();
                }
            }
        }
        if let Some((k, path)) = written(&w) {
            assert!(
                e.shown.is_empty(),
                "{}: output shown for a command that writes a file",
                e.line
            );
            let target = dir.join(&path);
            let redirect = w[k] == ">";
            if redirect {
                w.truncate(k);
            }
            let o = run(&dir, &w);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}: {}",
                e.line,
                String::from_utf8_lossy(&o.stderr)
            );
            if redirect {
                std::fs::write(&target, &o.stdout).unwrap();
            }
            let check = if w.iter().any(|x| x == "--gallery") {
                target.join("index.html")
            } else {
                target
            };
            let len = std::fs::metadata(&check).map(|m| m.len()).unwrap_or(0);
            assert!(len > 0, "{}: no file {}", e.line, check.display());
            files += 1;
            continue;
        }
        let o = run(&dir, &w);
        let (out, err) = (
            String::from_utf8(o.stdout).unwrap(),
            String::from_utf8(o.stderr).unwrap(),
        );
        if e.shown.is_empty() {
            assert_eq!(o.status.code(), Some(0), "{}: {err}", e.line);
            assert!(!out.trim().is_empty(), "{}: nothing printed", e.line);
            listed += 1;
            continue;
        }
        let want = format!("{}\n", e.shown.join("\n"));
        if o.status.code() == Some(0) {
            assert_eq!(out, want, "{}", e.line);
            assert!(err.is_empty(), "{}: {err}", e.line);
        } else {
            assert_eq!(o.status.code(), Some(1), "{}: {err}", e.line);
            assert_eq!(err, want, "{}", e.line);
            assert!(out.is_empty(), "{}: {out}", e.line);
        }
        compared += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    // the README's examples as of this test: a new one is run by the rules above, and these
    // counts say that none was lost to a parsing mistake
    assert_eq!(
        (compared, files, listed),
        (16, 10, 4),
        "compared, files written, listed"
    );
    assert_eq!(skipped, [["playground"]], "lines not run");
}

#[test]
fn shell_words() {
    assert_eq!(
        words("cute eval '(4,8):(1,4)' 22   # comment"),
        ["cute", "eval", "(4,8):(1,4)", "22"]
    );
    assert_eq!(words("cute show 'a b'#x"), ["cute", "show", "a b#x"]);
    assert_eq!(
        words("cute draw x > f.svg"),
        ["cute", "draw", "x", ">", "f.svg"]
    );
}
