//! The `cute` command in-process: [`run`] takes the argument vector and two writers and returns
//! the exit status, without touching the process (no `std::process::exit`, no global stdout), so
//! that tests and the `cli` fuzz target drive exactly what the binary runs.
//!
//! ```text
//! cute eval LAYOUT [COORD]        evaluate a layout (all offsets, or at one coordinate)
//! cute OP ARG...                  any operation of the algebra, e.g. `cute composition '(8,8):(8,1)' '((4,8),2):((16,1),8)'`
//! cute conformance FILE           run a conformance file, print the computed lines
//! cute ops                        list the operations
//! cute paper [--json]             reproduce the paper's worked examples (exit code 1 if one disagrees)
//! cute paper --gallery DIR        write the paper's figures, reconstructed, as SVG, PNG and index.html
//! cute bench [--json] [--wall]    time the benchmark set in-process (median ns per call)
//! cute banks SMEM TV --elem-bytes B --vector V [--json] [--addresses]   shared-memory bank conflicts
//! cute swizzle-search SMEM TV [TV ...] --elem-bytes B --vector V [--json]   the cheapest swizzle
//! cute partition DATA TV [--thread T]    which elements each thread owns (DATA ∘ TV, sliced)
//! cute vector-width SRC DST              the maximal common vector, its coordinates, the copy plan
//! cute contains DATA INSTRUCTION         does DATA hold every offset of INSTRUCTION, and where
//! cute show LAYOUT                        CuTe's print_layout table
//! cute draw LAYOUT [-o FILE.svg|.png|.tex] [--tv R C [--thread T]] [--banks] [--access TV] [--slice C] [--op OP --with B]
//! cute draw --atom NAME [--thread T] [-o FILE]   an MMA or copy atom as a picture
//! cute playground [--port N] [--no-open]   the layout playground in the browser, on localhost
//! ```
//!
//! Exit status: 0 with the value on stdout; 1 when an argument is not CuTe notation or the algebra
//! refuses it (a violated condition, an `i64` overflow, a capacity exceeded), or a conformance file
//! is not in the format; 2 for a bad invocation (unknown operation, wrong number of arguments,
//! unknown option, a file that cannot be read). Every failure prints exactly one line on stderr,
//! `error: <op> <operands>: <condition>` (the operation or subcommand first), and nothing on
//! stdout. Positional arguments may start with `-` when they are numbers (`cute eval 4:1 -1`).

use crate::{apps, banks, bench, conformance, draw, ops, paper, playground};

use clap::error::ErrorKind as ClapKind;
use clap::{CommandFactory, Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;

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
        #[arg(allow_negative_numbers = true)]
        layout: String,
        /// An integer, ND, natural or partial coordinate, e.g. `22`, `(2,5)`, `((0,1),(1,1))`.
        #[arg(allow_negative_numbers = true)]
        coord: Option<String>,
    },
    /// Runs every case of a conformance file and prints each case line with the computed result.
    Conformance {
        /// A file in the conformance format (crates/cute-cli/tests/data/README.md): one case a line,
        /// `op<TAB>args…<TAB>=><TAB>expected<TAB>source`.
        file: std::path::PathBuf,
    },
    /// Lists the operations and their arguments.
    Ops,
    /// Reproduces every worked example of the paper: id, what it computes, the paper's value, the
    /// computed value and ✓, ✗ or erratum. Exits with 1 if any example disagrees.
    #[command(after_help = "Examples:
  cute paper
  cute paper --json | head -3
  cute paper --gallery figures/   # then open figures/index.html")]
    Paper {
        /// Print one JSON object per example (id, section, op, args, paper, computed, status).
        #[arg(long)]
        json: bool,
        /// Instead of the tour, write the paper's figures reconstructed from the algebra to DIR
        /// (SVG, PNG and index.html with each figure next to its caption).
        #[arg(long, value_name = "DIR", conflicts_with = "json")]
        gallery: Option<std::path::PathBuf>,
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
        #[arg(allow_negative_numbers = true)]
        smem: String,
        /// (thread, value) -> tile coordinate; mode 0 is the 32 threads of the warp.
        #[arg(allow_negative_numbers = true)]
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
        #[arg(allow_negative_numbers = true)]
        smem: String,
        /// One or more access patterns, (thread, value) -> tile coordinate.
        #[arg(required = true, allow_negative_numbers = true)]
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
        #[arg(allow_negative_numbers = true)]
        data: String,
        /// (thread, value) -> coordinate of DATA, e.g. `((4,8),2):((16,1),8)`.
        #[arg(allow_negative_numbers = true)]
        tv: String,
        /// Only this thread.
        #[arg(long, allow_negative_numbers = true)]
        thread: Option<i64>,
    },
    /// How many elements SRC and DST can move together (the maximal common vector, paper eq. (14)),
    /// at which coordinates, and the loop nest `copy` runs.
    VectorWidth {
        /// The source layout.
        #[arg(allow_negative_numbers = true)]
        src: String,
        /// The destination layout.
        #[arg(allow_negative_numbers = true)]
        dst: String,
    },
    /// Whether DATA contains every offset INSTRUCTION touches, and at which coordinates (left
    /// inverse). INSTRUCTION is a layout or tmem_32x32b[.xN] / tmem_16x256b[.xN].
    Contains {
        /// The data layout, e.g. `(128,256):(16384,1)`.
        #[arg(allow_negative_numbers = true)]
        data: String,
        /// The instruction's (coordinate -> offset) layout or a TMEM instruction name.
        #[arg(allow_negative_numbers = true)]
        instruction: String,
    },
    /// CuTe C++'s `print_layout` table of LAYOUT (rank 1 as one row, higher ranks with modes 1..
    /// folded into the columns). Example: `cute show '(4,8):(1,4)'`.
    Show {
        /// A layout with integer strides.
        #[arg(allow_negative_numbers = true)]
        layout: String,
    },
    /// LAYOUT as a picture: SVG or TikZ on stdout, or SVG, PNG or TikZ in a file (-o, the format from
    /// the extension). Cells show offsets in CuTe's 8 greys; --tv draws a thread-value layout
    /// (T#/V#), --banks colours by shared-memory bank, --access marks the bank conflicts of a warp's
    /// accesses, --slice outlines a slice, --op colours a product's or divide's tiles, --atom draws
    /// an MMA atom (A, B, C as CuTe's print_latex) or a copy atom (source, destination).
    #[command(after_help = "Examples:
  cute draw '(4,8):(1,4)' -o layout.png
  cute draw '((4,8),(2,2)):((32,1),(16,8))' --tv 16 8 --thread 5 -o c.svg
  cute draw 'Sw<3,3,3> o 0 o (8,64):(64,1)' --banks --elem-bytes 2 -o banks.png
  cute draw '(8,64):(64,1)' --access '((8,4),(8,2)):((1,64),(8,256))' --elem-bytes 2 --vector 8 -o conflicts.svg
  cute draw '(6,12):(12,1)' --slice '(_,3)' -o slice.svg
  cute draw '(3,4):(4,1)' --op blocked_product --with '(2,5):(1,2)' -o blocked.png
  cute draw '(8,16):(20,1)' --op divide --with '<4:1,8:2>' -o divide.png
  cute draw --atom SM80_16x8x16_F32F16F16F32_TN --thread 0 -o mma.tex
  cute draw --atom list")]
    Draw(draw::DrawArgs),
    /// Serves the layout playground on 127.0.0.1 (the page and the WebAssembly module are in the
    /// binary) until stopped: type layouts, pick an operation, see the value, its picture, bank
    /// conflicts and TV layouts; the link reproduces the state. Example: `cute playground --port 0
    /// --no-open`.
    Playground {
        /// The port (0: any free port; the address is printed).
        #[arg(long, default_value_t = 8000)]
        port: u16,
        /// Do not open the page in the desktop's browser.
        #[arg(long)]
        no_open: bool,
    },
    /// Any operation of the algebra by its CuTe name: `cute OP ARG...` (see `cute ops`).
    #[command(external_subcommand)]
    Op(Vec<String>),
}

/// The subcommands of `cute` that clap defines (`eval`, `conformance`, …, `contains`); every
/// other first argument is an operation of [`ops::all_ops`].
///
/// ```
/// let names = cute_cli::cli::subcommands();
/// assert!(names.contains(&"partition".to_string()) && names.contains(&"eval".to_string()));
/// ```
pub fn subcommands() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|n| n != "help")
        .collect()
}

/// Runs `cute` with the argument vector `args` (the program name first, as in
/// `std::env::args_os()`), writing the result to `out` and diagnostics to `err`; returns the exit
/// status (see the module docs).
///
/// ```
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let code = cute_cli::cli::run(["cute", "eval", "(4,8):(1,4)", "(1,2)"], &mut out, &mut err);
/// assert_eq!((code, out, err), (0, b"9\n".to_vec(), Vec::new()));
///
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let code = cute_cli::cli::run(["cute", "eval", "(4,8):(1,4)", "(1,2)x"], &mut out, &mut err);
/// assert_eq!(code, 1);
/// assert!(String::from_utf8(err).unwrap().starts_with("error: eval: argument 2 `(1,2)x`"));
/// ```
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e, &args, out, err),
    };
    match cli.cmd {
        Cmd::Eval { layout, coord } => {
            let (op, a) = match &coord {
                Some(c) => ("eval_crd", vec![layout.as_str(), c.as_str()]),
                None => ("eval_all", vec![layout.as_str()]),
            };
            report("eval", op, &a, out, err)
        }
        Cmd::Conformance { file } => conformance::run(&file, out, err),
        Cmd::Paper {
            gallery: Some(dir), ..
        } => emit(paper::gallery::write(&dir), out, err),
        Cmd::Paper { json, .. } => {
            let (text, summary, code) = paper::report(json);
            let c = print(text.strip_suffix('\n').unwrap_or(&text), out, err);
            if let Some(s) = summary {
                let _ = writeln!(err, "{s}");
            }
            c.max(code)
        }
        Cmd::Bench { json, wall } => {
            let clock = if wall {
                bench::Clock::Wall
            } else {
                bench::Clock::ThreadCpu
            };
            let figures = bench::measure(clock);
            if json {
                print(&bench::to_json(&figures), out, err)
            } else {
                let table = bench::to_table(&figures);
                print(table.strip_suffix('\n').unwrap_or(&table), out, err)
            }
        }
        Cmd::Banks {
            smem,
            tv,
            elem_bytes,
            vector,
            json,
            addresses,
        } => emit(
            banks::banks(&smem, &tv, elem_bytes, vector, json, addresses),
            out,
            err,
        ),
        Cmd::SwizzleSearch {
            smem,
            tv,
            elem_bytes,
            vector,
            json,
        } => emit(
            banks::search(&smem, &tv, elem_bytes, vector, json),
            out,
            err,
        ),
        Cmd::Partition { data, tv, thread } => emit(apps::partition(&data, &tv, thread), out, err),
        Cmd::VectorWidth { src, dst } => emit(apps::vector_width(&src, &dst), out, err),
        Cmd::Contains { data, instruction } => emit(apps::contains(&data, &instruction), out, err),
        Cmd::Show { layout } => emit(draw::show(&layout), out, err),
        Cmd::Draw(a) => emit(draw::draw(&a), out, err),
        Cmd::Playground { port, no_open } => emit(
            playground::serve(port, !no_open, out).map(|()| String::new()),
            out,
            err,
        ),
        Cmd::Ops => {
            let lines: Vec<String> = ops::all_ops()
                .map(|(name, sig)| format!("{name} {sig}"))
                .collect();
            print(&lines.join("\n"), out, err)
        }
        Cmd::Op(v) => {
            let args: Vec<&str> = v[1..].iter().map(String::as_str).collect();
            report(&v[0], &v[0], &args, out, err)
        }
    }
}

/// The longest invocation error (in characters) before it is cut with `…`.
const USAGE_LINE_LIMIT: usize = 240;

/// Help and version print as clap writes them (exit 0); every other invocation error becomes one
/// line on stderr (exit 2) instead of clap's multi-line usage text, naming the subcommand when
/// there is one.
fn usage_error(e: &clap::Error, args: &[OsString], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match e.kind() {
        ClapKind::DisplayHelp | ClapKind::DisplayVersion => {
            let text = e.render().to_string();
            return print(text.strip_suffix('\n').unwrap_or(&text), out, err);
        }
        ClapKind::DisplayHelpOnMissingArgumentOrSubcommand | ClapKind::MissingSubcommand => {
            let _ = writeln!(
                err,
                "error: no operation given (see `cute --help` and `cute ops`)"
            );
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
            // an argument echoed by clap may be arbitrarily long: one line stays readable
            if line.chars().count() > USAGE_LINE_LIMIT {
                line = line.chars().take(USAGE_LINE_LIMIT).collect::<String>() + "…";
            }
            // the subcommand, when the first argument that is not an option names one
            let sub = args
                .iter()
                .skip(1)
                .filter_map(|a| a.to_str())
                .find(|a| !a.starts_with('-'))
                .filter(|a| subcommands().iter().any(|n| n == a));
            let _ = match sub {
                Some(s) => writeln!(err, "error: {s}: {line} (see `cute {s} --help`)"),
                None => writeln!(err, "error: {line} (see `cute --help`)"),
            };
        }
    }
    2
}

/// Runs the operation `op` of `cute name` and prints its value or its one-line error.
fn report(name: &str, op: &str, args: &[&str], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let o = ops::run(op, args);
    match (ops::error_line(name, args, &o), o) {
        (None, ops::Outcome::Value(v)) => print(&v, out, err),
        (line, o) => {
            let _ = writeln!(
                err,
                "{}",
                line.unwrap_or_else(|| "error: no value".to_string())
            );
            match o {
                ops::Outcome::Usage(_) => 2,
                _ => 1,
            }
        }
    }
}

/// Prints a command's text, or its one-line error on stderr with exit status 1.
fn emit(r: Result<String, String>, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match r {
        Ok(text) => print(&text, out, err),
        Err(line) => {
            let _ = writeln!(err, "{line}");
            1
        }
    }
}

/// Prints `text` and a newline on `out`; a closed or failing output (e.g. `cute eval … | head`)
/// gives exit status 1 (and one line on `err` unless the pipe was closed) instead of a panic.
fn print(text: &str, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match writeln!(out, "{text}").and_then(|_| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 1,
        Err(e) => {
            let _ = writeln!(err, "error: cannot write the result: {e}");
            1
        }
    }
}
