//! `cute` run in-process through `cute_cli::cli::run_with` (what the binary runs), for the tests
//! that check its output text.
#![allow(dead_code)] // each test file uses some of these

use cute_cli::cli::{run_with, Console};

/// `cute args…`: (exit status, stdout, stderr).
pub fn cute(args: &[&str]) -> (u8, String, String) {
    cute_on(args, Console::default())
}

/// [`cute`] with `console` saying whether stdout is a terminal and whether `NO_COLOR` is set.
pub fn cute_on(args: &[&str], console: Console) -> (u8, String, String) {
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

/// The stdout of `cute args…`, which must succeed with nothing on stderr.
pub fn ok(args: &[&str]) -> String {
    let (code, out, err) = cute(args);
    assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
    out
}
