//! The conformance cases of a file with their line numbers, and the comparison rules of the
//! set's `conformance_diff.py` (`cute_cli::conformance::same`), shared by the tests that run
//! conformance data (tests/conformance.rs, tests/cutlass_unit.rs).

/// The comparison of conformance_diff.py (in the library, where `cute conformance` uses it for
/// its summary).
pub use cute_cli::conformance::same;

pub struct Case {
    pub line: usize,
    pub op: String,
    pub args: Vec<String>,
    pub expected: String,
    pub strict: bool,
}

/// The cases of a conformance file, with their line numbers; a `# cpp prints` comment makes the
/// case after it strict.
pub fn parse_cases(text: &str) -> Vec<Case> {
    let mut out = vec![];
    let mut strict = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if line.trim_start().starts_with('#') {
            strict = line.trim_start().starts_with("# cpp prints");
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let k = f
            .iter()
            .position(|x| *x == "=>")
            .expect("every case has =>");
        out.push(Case {
            line: n + 1,
            op: f[0].to_string(),
            args: f[1..k].iter().map(|s| s.to_string()).collect(),
            expected: f[k + 1].to_string(),
            strict,
        });
        strict = false;
    }
    out
}
