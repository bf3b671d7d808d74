//! Arbitrary argument vectors through the whole command line, in-process: `cute_cli::cli::run`,
//! which is all the `cute` binary does (clap's parsing, the subcommands, the exit status, the
//! error lines).
//!
//! Input: arguments separated by NUL bytes (no argument of a real command line contains one). The
//! first names what runs: a subcommand of the clap definition (`cute_cli::cli::subcommands()`) or
//! an operation of `cute::registry::operations()` when it is one, else one picked by a hash of its
//! bytes, or (for one hash value in `n + 1`) the text itself, so that unknown operations and
//! option-like first arguments are driven too. The other fields follow as they are.
//! `conformance` gets a file instead: the input after its first field, written to a temporary
//! file whose path is the argument. `bench` and `paper` are skipped (they take no argument but
//! flags and run for tens of milliseconds to seconds), and so is `playground` (it serves until
//! stopped).
//!
//! Checks, besides "no panic, no hang, no huge allocation" (libFuzzer's `-timeout` and
//! `-rss_limit_mb`): the exit status is 0, 1 or 2; a failure writes nothing to stdout and on
//! stderr one line `error: …`, naming the subcommand or operation when one was given, followed,
//! for a parse error only, by exactly two lines: the argument indented by two spaces and a line of
//! `^` whose positions lie within the echoed text (or one `^` just after it, for input that ended
//! early), the shape `crates/cute-cli/tests/stderr_shape` checks; a success writes nothing to
//! stderr (but the summary line of `conformance`). Half of the inputs also get `--json` (at the
//! end, or first after an operation's name), whose output must then be one line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

#[path = "../../crates/cute-cli/tests/stderr_shape/mod.rs"]
mod stderr_shape;

/// The subcommands that take `--json` (and print one line with it).
const JSON: [&str; 8] = [
    "eval",
    "ops",
    "partition",
    "vector-width",
    "contains",
    "show",
    "banks",
    "swizzle-search",
];

/// The subcommands and operations, in a fixed order.
fn names() -> &'static Vec<String> {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut v = cute_cli::cli::subcommands();
        v.extend(cute::registry::operations().map(|o| o.name.to_string()));
        v
    })
}

/// The temporary conformance file of this process.
fn case_file() -> &'static std::path::PathBuf {
    static FILE: OnceLock<std::path::PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        std::env::temp_dir().join(format!("cute-fuzz-cli-{}.tsv", std::process::id()))
    })
}

fuzz_target!(|data: &[u8]| {
    let mut fields = data.split(|&b| b == 0);
    let first = String::from_utf8_lossy(fields.next().unwrap_or(b"")).into_owned();
    let all = names();
    let name = if all.contains(&first) {
        first.clone()
    } else {
        let h = first
            .bytes()
            .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize));
        match all.get(h % (all.len() + 1)) {
            Some(n) => n.clone(),
            None => first.clone(),
        }
    };
    if name == "bench" || name == "paper" || name == "playground" {
        return;
    }
    let mut args: Vec<String> = vec!["cute".to_string(), name.clone()];
    if name == "conformance" {
        let rest = data.get(first.len() + 1..).unwrap_or(&[]);
        if std::fs::write(case_file(), rest).is_err() {
            return;
        }
        args.push(case_file().to_string_lossy().into_owned());
    } else {
        args.extend(
            fields
                .take(8)
                .map(|f| String::from_utf8_lossy(f).into_owned()),
        );
    }
    // `--json` for one input in two (chosen by the input's length)
    let json =
        data.len() % 2 == 1 && (JSON.contains(&name.as_str()) || !names_subcommand(&name));
    if json {
        if data.len() % 4 == 1 && !names_subcommand(&name) {
            args.insert(2, "--json".to_string());
        } else {
            args.push("--json".to_string());
        }
    }
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = cute_cli::cli::run(&args, &mut out, &mut err);
    let err = String::from_utf8(err).expect("stderr is UTF-8");
    match code {
        0 => {
            let summary = name == "conformance" && err.starts_with("conformance: ");
            assert!(
                err.is_empty() || (summary && err.lines().count() == 1),
                "{args:?}: exit 0 with stderr {err:?}"
            );
            if json {
                let out = String::from_utf8_lossy(&out);
                // a help request (`-h` may start a cluster of short options: `-h109`) prints the
                // help whatever else was asked; anything else is one line of JSON
                if out.contains("\nUsage: cute") {
                    assert!(asks_for_help(&args), "{args:?}: help printed unasked: {out:?}");
                } else {
                    assert!(
                        out.ends_with('\n') && out.lines().count() == 1,
                        "{args:?}: --json output not one line: {out:?}"
                    );
                }
            }
        }
        1 | 2 => {
            assert!(out.is_empty(), "{args:?}: exit {code} with stdout");
            if let Err(why) = stderr_shape::check(&err) {
                panic!("{args:?}: exit {code}: {why}");
            }
            // help and version are exit 0; every error names what ran when it is known (an
            // empty or option-like name is clap's business: `cute --frobnicate`)
            if all.contains(&name) {
                assert!(
                    err.contains(name.as_str()),
                    "{args:?}: the error does not name {name:?}: {err:?}"
                );
            }
        }
        c => panic!("{args:?}: exit status {c}"),
    }
});

/// Whether an argument before `--` asks clap for help: `--help`, or a cluster of short options
/// (`-h`, `-h109`) that is not a negative number.
fn asks_for_help(args: &[String]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| a.as_str() != "--")
        .any(|a| {
            a == "--help"
                || (a.starts_with('-')
                    && !a.starts_with("--")
                    && a.contains('h')
                    && !a[1..].starts_with(|c: char| c.is_ascii_digit()))
        })
}

/// Whether `name` is a subcommand of the clap definition (not an operation).
fn names_subcommand(name: &str) -> bool {
    static SUBS: OnceLock<Vec<String>> = OnceLock::new();
    SUBS.get_or_init(cute_cli::cli::subcommands)
        .iter()
        .any(|s| s == name)
}
