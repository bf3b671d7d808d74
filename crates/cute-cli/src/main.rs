//! `cute`: the CuTe layout algebra from the command line.
//!
//! ```text
//! cute eval LAYOUT [COORD]        evaluate a layout (all offsets, or at one coordinate)
//! cute OP ARG...                  any operation of the algebra, e.g. `cute composition '(8,8):(8,1)' '((4,8),2):((16,1),8)'`
//! cute conformance FILE           run a conformance file, print the computed lines
//! cute ops                        list the operations
//! cute bench [--json] [--wall]    time the benchmark set in-process (median ns per call)
//! ```
#![forbid(unsafe_code)]

use cute_cli::{bench, conformance, ops};

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "cute",
    version,
    about = "CuTe layout algebra: evaluate, compose, divide, invert layouts in CuTe notation"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Evaluates LAYOUT at COORD, or lists all its offsets.
    Eval {
        /// A layout in CuTe notation, e.g. `((2,2),(4,2)):((1,8),(2,16))`.
        layout: String,
        /// An integer, ND, natural or partial coordinate, e.g. `22`, `(2,5)`, `((0,1),(1,1))`.
        coord: Option<String>,
    },
    /// Runs every case of a conformance file and prints each case line with the computed result.
    Conformance {
        /// A file in the format of shared/conformance/README.md.
        file: std::path::PathBuf,
    },
    /// Lists the operations and their arguments.
    Ops,
    /// Times the benchmark set in-process: median ns per call (per element for `eval_*`).
    Bench {
        /// Prints one JSON object (keys as in `cute_cli::bench::KEYS`, `null` when unavailable).
        #[arg(long)]
        json: bool,
        /// Measures wall-clock time instead of the thread's CPU time.
        #[arg(long)]
        wall: bool,
    },
    /// Any operation of the algebra by its CuTe name: `cute OP ARG...` (see `cute ops`).
    #[command(external_subcommand)]
    Op(Vec<String>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Eval { layout, coord } => {
            let op = if coord.is_some() {
                "eval_crd"
            } else {
                "eval_all"
            };
            let mut args = vec![layout.as_str()];
            if let Some(c) = &coord {
                args.push(c.as_str());
            }
            report(ops::run(op, &args))
        }
        Cmd::Conformance { file } => conformance::run(&file),
        Cmd::Bench { json, wall } => {
            let clock = if wall {
                bench::Clock::Wall
            } else {
                bench::Clock::ThreadCpu
            };
            let figures = bench::measure(clock);
            if json {
                println!("{}", bench::to_json(&figures));
            } else {
                print!("{}", bench::to_table(&figures));
            }
            ExitCode::SUCCESS
        }
        Cmd::Ops => {
            for (name, sig) in ops::all_ops() {
                println!("{name} {sig}");
            }
            ExitCode::SUCCESS
        }
        Cmd::Op(v) => {
            let args: Vec<&str> = v[1..].iter().map(String::as_str).collect();
            report(ops::run(&v[0], &args))
        }
    }
}

fn report(o: ops::Outcome) -> ExitCode {
    match o {
        ops::Outcome::Value(v) => {
            println!("{v}");
            ExitCode::SUCCESS
        }
        ops::Outcome::Refused(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
        ops::Outcome::Usage(m) => {
            eprintln!("error: {m}");
            ExitCode::from(2)
        }
    }
}
