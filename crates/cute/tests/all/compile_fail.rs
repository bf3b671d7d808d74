//! Inadmissible operations on constants fail compilation with the algebra's one-line message:
//! each file under `tests/compile_fail/` must fail to compile with exactly the stderr beside it
//! (the message names the operation, the operands and the violated condition).
//!
//! Regenerate the expected stderr after an intended change with `TRYBUILD=overwrite cargo test -p
//! cute --release --test all compile_fail` and review the diff.

#[test]
fn inadmissible_constants_fail_to_compile_with_the_message() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/compile_fail/*.rs");
}
