//! `cute draw --thread T` outlines a thread that exists: with `--tv` a thread of the TV layout's
//! mode 0, with `--atom` a thread of the atom; any other is refused with one line naming the
//! option, the layout and the range, as `cute partition --thread` refuses it.

use std::process::Command;

mod stderr_shape;

/// Exit status and stderr of `cute args`; stdout must be empty on failure.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(args)
        .output()
        .expect("run cute");
    let err = String::from_utf8(o.stderr).unwrap();
    if o.status.code() != Some(0) {
        assert!(o.stdout.is_empty(), "{args:?}: stdout on failure");
        if let Err(why) = stderr_shape::check(&err) {
            panic!("{args:?}: {why}");
        }
    } else {
        assert!(!o.stdout.is_empty(), "{args:?}: no picture");
    }
    (o.status.code(), err)
}

const TV: &str = "((4,8),(2,2)):((32,1),(16,8))";

#[test]
fn a_thread_outside_the_tv_layout_is_refused() {
    for t in ["99", "32", "-1"] {
        let (code, err) = run(&["draw", TV, "--tv", "16", "8", &format!("--thread={t}")]);
        assert_eq!(code, Some(1), "{t}: {err}");
        assert_eq!(
            err,
            format!("error: draw: --thread {t}: the TV layout {TV} has 32 threads, 0 to 31\n")
        );
    }
    for t in ["0", "31"] {
        assert_eq!(
            run(&["draw", TV, "--tv", "16", "8", "--thread", t]).0,
            Some(0),
            "{t}"
        );
    }
    // the same thread is refused by partition
    let (code, err) = run(&["partition", "(16,8):(1,16)", TV, "--thread", "99"]);
    assert_eq!(code, Some(1), "{err}");
}

#[test]
fn a_thread_outside_the_atom_is_refused() {
    let (code, err) = run(&[
        "draw",
        "--atom",
        "SM80_16x8x16_F32F16F16F32_TN",
        "--thread",
        "32",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.starts_with(
            "error: draw: --thread 32: the atom SM80_16x8x16_F32F16F16F32_TN, whose C layout "
        ) && err.ends_with(" has 32 threads, 0 to 31\n"),
        "{err}"
    );
    assert_eq!(
        run(&[
            "draw",
            "--atom",
            "SM80_16x8x16_F32F16F16F32_TN",
            "--thread",
            "31"
        ])
        .0,
        Some(0)
    );
    let (code, err) = run(&["draw", "--atom", "SM75_U32x4_LDSM_N", "--thread", "32"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("whose source layout") && err.contains("has 32 threads"),
        "{err}"
    );
}
