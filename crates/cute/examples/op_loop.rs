//! Calls one operation of the benchmark set (the operands of `cute bench` and
//! `scripts/bench_pycute.py`) in a loop, for profilers that count rather than time.
//!
//! ```sh
//! cargo build --release -p cute --example op_loop
//! target/release/examples/op_loop complement 10000000            # prints ns per call
//! # instructions per call: the difference of two runs, so that start-up cancels out
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/op_loop complement 1000
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/op_loop complement 21000
//! perf record target/release/examples/op_loop composition_6_12 30000000
//! ```
//!
//! Operations: composition_tv, composition_6_12, logical_divide, right_inverse, complement,
//! logical_product, blocked_product, coalesce.

// The operations return the crate's `Result<Layout, Error>` (errors carry their operands), as the
// crate itself allows.
#![allow(clippy::result_large_err)]

use std::hint::black_box;
use std::process::ExitCode;

use cute::{IntTuple, Layout, Tiler};

fn layout(s: &str) -> Layout {
    s.parse().expect("a benchmark operand")
}

/// Runs `f` `n` times, keeping each result alive, and returns the mean ns per call.
fn run<R>(n: u64, mut f: impl FnMut() -> R) -> f64 {
    let t = std::time::Instant::now();
    for _ in 0..n {
        let r = f();
        black_box(&r);
    }
    t.elapsed().as_nanos() as f64 / n as f64
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(op), n) = (args.next(), args.next()) else {
        eprintln!("usage: op_loop OPERATION [CALLS]");
        return ExitCode::from(2);
    };
    let n: u64 = match n.map(|s| s.parse()) {
        None => 10_000_000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("op_loop: CALLS: {e}");
            return ExitCode::from(2);
        }
    };
    let ns = match op.as_str() {
        "composition_tv" => {
            let (a, b) = (layout("(8,8):(8,1)"), layout("((4,8),2):((16,1),8)"));
            run(n, || cute::composition(black_box(&a), black_box(&b)))
        }
        "composition_6_12" => {
            let (a, b) = (layout("(4,6,8,10):(2,3,5,7)"), layout("6:12"));
            run(n, || cute::composition(black_box(&a), black_box(&b)))
        }
        "logical_divide" => {
            let a = layout("(8,16):(20,1)");
            let t: Tiler = "<4:1,8:2>".parse().expect("a tiler");
            run(n, || cute::logical_divide(black_box(&a), black_box(&t)))
        }
        "right_inverse" => {
            let a = layout("((2,2),(4,2)):((1,8),(2,16))");
            run(n, || cute::right_inverse(black_box(&a)))
        }
        "complement" => {
            let (a, m) = (layout("(4,8):(1,8)"), IntTuple::int(64));
            run(n, || cute::complement_to(black_box(&a), black_box(&m)))
        }
        "logical_product" => {
            let (a, b) = (layout("(3,4):(4,1)"), Tiler::layout(layout("(2,5):(1,2)")));
            run(n, || cute::logical_product(black_box(&a), black_box(&b)))
        }
        "blocked_product" => {
            let (a, b) = (layout("(3,4):(4,1)"), layout("(2,5):(1,2)"));
            run(n, || cute::blocked_product(black_box(&a), black_box(&b)))
        }
        "coalesce" => {
            let a = layout("((2,(1,4)),(3,1)):((1,(7,2)),(8,0))");
            run(n, || cute::coalesce(black_box(&a)))
        }
        _ => {
            eprintln!("op_loop: unknown operation {op:?}");
            return ExitCode::from(2);
        }
    };
    println!("{op}: {ns:.2} ns per call");
    ExitCode::SUCCESS
}
