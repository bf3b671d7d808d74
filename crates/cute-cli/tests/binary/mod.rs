//! `cute` run as the built binary (its own process), for the tests of its exit status and streams;
//! a test file that uses [`fails`] also declares `mod stderr_shape;`.
#![allow(dead_code)] // each test file uses some of these

use std::process::{Command, Output};

/// Runs the `cute` binary with `args`.
pub fn cute(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(args)
        .output()
        .expect("run cute")
}

/// Runs `cute args`, expects success with nothing on stderr, returns stdout.
pub fn ok(args: &[&str]) -> String {
    let o = cute(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {o:?}");
    assert!(o.stderr.is_empty(), "{args:?}: {o:?}");
    String::from_utf8(o.stdout).unwrap()
}

/// Runs `cute args`, expects a failure with status `code`, nothing on stdout, and an error on
/// stderr (one line, and for a parse error the argument with carets: `stderr_shape`) containing
/// every needle; returns stderr.
pub fn fails(args: &[&str], code: i32, needles: &[&str]) -> String {
    let o = cute(args);
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: {:?}", o.stdout);
    if let Err(why) = crate::stderr_shape::check(&err) {
        panic!("{args:?}: {why}");
    }
    for n in needles {
        assert!(err.contains(n), "{args:?}: {err:?} lacks {n:?}");
    }
    err
}
