//! Arbitrary bytes through the textual dispatcher `cute::registry::run`, as `cute OP ARG...` and
//! `cute conformance` use it.
//!
//! Input: fields separated by TAB (the conformance file's separator, so its case lines are seeds):
//! `selector<TAB>arg1[<TAB>arg2[<TAB>arg3[<TAB>arg4]]]`. The selector picks the operation among
//! `cute::registry::operations()` — every operation the dispatcher knows, including those added later —
//! by name when it is one, else by a hash of its bytes; it is also run as an operation name of its
//! own (the unknown-operation path). 1 to 4 arguments (4 exercises the arity check).
//!
//! Checks, besides "no panic, no hang": every value and every error is one line; the one-line CLI
//! message is produced for every failure; the conformance runner's `compute` agrees with `run`.
#![no_main]

use cute::registry::{self as ops, Outcome};
use libfuzzer_sys::fuzz_target;

fn check(op: &str, args: &[&str]) {
    let o = ops::run(op, args);
    match &o {
        Outcome::Value(v) => {
            assert!(
                !v.is_empty() && !v.contains('\n'),
                "{op}: value not one line: {v:?}"
            );
            assert!(ops::error_line(op, args, &o).is_none());
        }
        Outcome::Refused(_)
        | Outcome::BadArgument { .. }
        | Outcome::Usage(_)
        | Outcome::Symbolic(_) => {
            let line = ops::error_line(op, args, &o).expect("a failure has a message");
            assert!(line.starts_with("error: "), "{line:?}");
            assert!(
                !line.contains(['\n', '\r', '\u{2028}', '\u{2029}']),
                "{op}: message not one line: {line:?}"
            );
        }
    }
    let c = cute_cli::conformance::compute(op, args);
    match &o {
        Outcome::Value(v) => assert_eq!(&c, v),
        _ => assert!(c.starts_with("ERROR ") && !c.contains('\n'), "{c:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut fields = text.split('\t');
    let selector = fields.next().unwrap_or("");
    let args: Vec<&str> = fields.take(4).collect();
    if args.is_empty() {
        return;
    }
    let all: Vec<&str> = ops::operations().map(|o| o.name).collect();
    let op = if all.contains(&selector) {
        selector
    } else {
        let h = selector
            .bytes()
            .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize));
        all[h % all.len()]
    };
    check(op, &args);
    if op != selector {
        check(selector, &args);
    }
});
