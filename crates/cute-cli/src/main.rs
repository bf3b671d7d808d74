//! `cute`: the CuTe layout algebra from the command line.
//!
//! ```text
//! cute eval LAYOUT [COORD]        evaluate a layout (all offsets, or at one coordinate)
//! cute OP ARG...                  any operation of the algebra, e.g. `cute composition '(8,8):(8,1)' '((4,8),2):((16,1),8)'`
//! cute conformance FILE           run a conformance file, print the computed lines
//! cute ops                        list the operations
//! cute paper [--json]             reproduce the paper's worked examples (exit code 1 if one disagrees)
//! cute bench [--json] [--wall]    time the benchmark set in-process (median ns per call)
//! cute banks SMEM TV --elem-bytes B --vector V [--json] [--addresses]   shared-memory bank conflicts
//! cute swizzle-search SMEM TV [TV ...] --elem-bytes B --vector V [--json]   the cheapest swizzle
//! cute partition DATA TV [--thread T]    which elements each thread owns (DATA ∘ TV, sliced)
//! cute vector-width SRC DST              the maximal common vector, its coordinates, the copy plan
//! cute contains DATA INSTRUCTION         does DATA hold every offset of INSTRUCTION, and where
//! ```
//!
//! Exit status: 0 with the value on stdout; 1 when an argument is not CuTe notation or the algebra
//! refuses it (a violated condition, an `i64` overflow, a capacity exceeded); 2 for a bad
//! invocation (unknown operation, wrong number of arguments, unknown option). Every failure prints
//! exactly one line on stderr, `error: <op> <operands>: <condition>`, and nothing on stdout.
#![forbid(unsafe_code)]

use cute_cli::{apps, banks, bench, conformance, ops, paper};

use clap::error::ErrorKind as ClapKind;
use clap::{Parser, Subcommand};
use std::io::Write;
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
    /// Reproduces every worked example of the paper: id, what it computes, the paper's value, the
    /// computed value and ✓, ✗ or erratum. Exits with 1 if any example disagrees.
    Paper {
        /// Print one JSON object per example (id, section, op, args, paper, computed, status).
        #[arg(long)]
        json: bool,
    },
    /// Times the benchmark set in-process: median ns per call (per element for `eval_*`).
    Bench {
        /// Prints one JSON object (keys as in `cute_cli::bench::KEYS`, `null` when unavailable).
        #[arg(long)]
        json: bool,
        /// Measures wall-clock time instead of the thread's CPU time.
        #[arg(long)]
        wall: bool,
    },
    /// Shared-memory bank conflicts: the wavefronts per instruction of the warp access pattern TV
    /// on the shared-memory layout SMEM (32 banks of 4 bytes; 8- and 16-byte accesses in 2 and 4
    /// phases).
    Banks {
        /// Tile coordinate -> element offset: a layout `(8,64):(64,1)` or a composed layout
        /// `Sw<3,3,3> o 0 o (8,64):(64,1)`.
        smem: String,
        /// (thread, value) -> tile coordinate; mode 0 is the 32 threads of the warp.
        tv: String,
        /// Bytes per element (B).
        #[arg(long, allow_negative_numbers = true)]
        elem_bytes: i64,
        /// Values per access (V); V·B must be 4, 8 or 16 bytes.
        #[arg(long, allow_negative_numbers = true)]
        vector: i64,
        /// Prints `{"instructions": n, "wavefronts": [...], "ideal": [...]}`.
        #[arg(long)]
        json: bool,
        /// Also lists the byte address of every thread's access per instruction (JSON key
        /// `addresses`).
        #[arg(long)]
        addresses: bool,
    },
    /// The cheapest swizzle Sw<B,M,S> of SMEM that makes every access pattern TV conflict-free, or
    /// the best found when none exists.
    SwizzleSearch {
        /// Tile coordinate -> element offset (a layout, or a composed layout with no swizzle).
        smem: String,
        /// One or more access patterns, (thread, value) -> tile coordinate.
        #[arg(required = true)]
        tv: Vec<String>,
        /// Bytes per element (B).
        #[arg(long, allow_negative_numbers = true)]
        elem_bytes: i64,
        /// Values per access (V); V·B must be 4, 8 or 16 bytes.
        #[arg(long, allow_negative_numbers = true)]
        vector: i64,
        /// Prints `{"swizzle": ..., "layout": ..., "wavefronts": [[...], ...], "conflict_free": ...}`.
        #[arg(long)]
        json: bool,
    },
    /// Which elements each thread owns: DATA ∘ TV sliced by thread (paper, Table 4).
    Partition {
        /// The data layout, e.g. `(8,8):(8,1)`.
        data: String,
        /// (thread, value) -> coordinate of DATA, e.g. `((4,8),2):((16,1),8)`.
        tv: String,
        /// Only this thread.
        #[arg(long, allow_negative_numbers = true)]
        thread: Option<i64>,
    },
    /// How many elements SRC and DST can move together (the maximal common vector, paper eq. (14)),
    /// at which coordinates, and the loop nest `copy` runs.
    VectorWidth {
        /// The source layout.
        src: String,
        /// The destination layout.
        dst: String,
    },
    /// Whether DATA contains every offset INSTRUCTION touches, and at which coordinates (left
    /// inverse). INSTRUCTION is a layout or tmem_32x32b[.xN] / tmem_16x256b[.xN].
    Contains {
        /// The data layout, e.g. `(128,256):(16384,1)`.
        data: String,
        /// The instruction's (coordinate -> offset) layout or a TMEM instruction name.
        instruction: String,
    },
    /// Any operation of the algebra by its CuTe name: `cute OP ARG...` (see `cute ops`).
    #[command(external_subcommand)]
    Op(Vec<String>),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
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
            report(op, &args)
        }
        Cmd::Conformance { file } => conformance::run(&file),
        Cmd::Paper { json } => paper::main(json),
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
        Cmd::Banks {
            smem,
            tv,
            elem_bytes,
            vector,
            json,
            addresses,
        } => emit(banks::banks(
            &smem, &tv, elem_bytes, vector, json, addresses,
        )),
        Cmd::SwizzleSearch {
            smem,
            tv,
            elem_bytes,
            vector,
            json,
        } => emit(banks::search(&smem, &tv, elem_bytes, vector, json)),
        Cmd::Partition { data, tv, thread } => emit(apps::partition(&data, &tv, thread)),
        Cmd::VectorWidth { src, dst } => emit(apps::vector_width(&src, &dst)),
        Cmd::Contains { data, instruction } => emit(apps::contains(&data, &instruction)),
        Cmd::Ops => {
            let lines: Vec<String> = ops::all_ops()
                .map(|(name, sig)| format!("{name} {sig}"))
                .collect();
            print(&lines.join("\n"))
        }
        Cmd::Op(v) => {
            let args: Vec<&str> = v[1..].iter().map(String::as_str).collect();
            report(&v[0], &args)
        }
    }
}

/// Help and version print as clap writes them (exit 0); every other invocation error becomes one
/// line on stderr (exit 2) instead of clap's multi-line usage text.
fn usage_error(e: clap::Error) -> ExitCode {
    match e.kind() {
        ClapKind::DisplayHelp | ClapKind::DisplayVersion => e.exit(),
        ClapKind::DisplayHelpOnMissingArgumentOrSubcommand | ClapKind::MissingSubcommand => {
            eprintln!("error: no operation given (see `cute --help` and `cute ops`)");
        }
        _ => {
            // clap's message is its first paragraph (the lines before the usage text).
            let text = e.render().to_string();
            let words: Vec<&str> = text
                .lines()
                .map(str::trim)
                .skip_while(|l| l.is_empty())
                .take_while(|l| !l.is_empty())
                .collect();
            let joined = words.join(" ");
            let reason = joined.strip_prefix("error: ").unwrap_or(&joined);
            let mut line = String::new();
            reason.chars().for_each(|c| ops::push_escaped(&mut line, c));
            if line.is_empty() {
                line.push_str("invalid invocation");
            }
            eprintln!("error: {line} (see `cute --help`)");
        }
    }
    ExitCode::from(2)
}

fn report(op: &str, args: &[&str]) -> ExitCode {
    let o = ops::run(op, args);
    match (ops::error_line(op, args, &o), o) {
        (None, ops::Outcome::Value(v)) => print(&v),
        (line, o) => {
            eprintln!("{}", line.unwrap_or_else(|| "error: no value".to_string()));
            match o {
                ops::Outcome::Refused(_) => ExitCode::from(1),
                _ => ExitCode::from(2),
            }
        }
    }
}

/// Prints a command's text, or its one-line error on stderr with exit status 1.
fn emit(r: Result<String, String>) -> ExitCode {
    match r {
        Ok(text) => print(&text),
        Err(line) => {
            eprintln!("{line}");
            ExitCode::from(1)
        }
    }
}

/// Prints `text` and a newline on stdout; a closed or failing stdout (e.g. `cute eval … | head`)
/// gives exit status 1 and one line on stderr instead of a panic.
fn print(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: cannot write the result: {e}");
            ExitCode::from(1)
        }
    }
}
