//! The `cute` command in-process: [`run`] takes the argument vector and two writers and returns
//! the exit status, without touching the process (no `std::process::exit`, no global stdout), so
//! that tests and the `cli` fuzz target drive exactly what the binary runs.
//!
//! ```text
//! cute eval LAYOUT [COORD] [--json]   evaluate a layout (all offsets, or at one coordinate)
//! cute OP ARG... [--json]         any operation of the algebra, e.g. `cute composition '(8,8):(8,1)' '((4,8),2):((16,1),8)'`
//! cute conformance FILE           run a conformance file, print the computed lines
//! cute ops [--json]               list the operations
//! cute paper [--json]             reproduce the paper's worked examples (exit code 1 if one disagrees)
//! cute paper --gallery DIR        write the paper's figures, reconstructed, as SVG, PNG and index.html
//! cute bench [--json] [--wall]    time the benchmark set in-process (median ns per call)
//! cute banks SMEM TV --elem-bytes B --vector V [--json] [--addresses]   shared-memory bank conflicts
//! cute swizzle-search SMEM TV [TV ...] --elem-bytes B --vector V [--json]   the cheapest swizzle
//! cute partition DATA TV [--thread T] [--json]   which elements each thread owns (DATA ∘ TV, sliced)
//! cute vector-width SRC DST [--json]     the maximal common vector, its coordinates, the copy plan
//! cute contains DATA INSTRUCTION [--json]   does DATA hold every offset of INSTRUCTION, and where
//! cute show LAYOUT [--json] [--color auto|always|never]   CuTe's print_layout table
//! cute draw LAYOUT [-o FILE.svg|.png|.tex] [--tv R C [--thread T]] [--banks] [--access TV] [--slice C] [--op OP --with B]
//! cute draw --atom NAME [--thread T] [-o FILE]   an MMA or copy atom as a picture
//! cute draw --tiled-mma ATOM [--atom-layout L] [--permutation P] [--thread T] [-o FILE]   a TiledMMA
//! cute draw --tiled-copy ATOM (--thr L --val L | --operand a|b|c --tiled-mma ATOM ...) [--elem-bytes B]   a TiledCopy
//! cute playground [--port N] [--no-open]   the layout playground in the browser, on localhost
//! ```
//!
//! Exit status (also in `cute --help`): 0 with the value on stdout; 1 when an argument is not CuTe
//! notation or the algebra refuses it (a violated condition, an `i64` overflow, a capacity
//! exceeded), a conformance file is not in the format, or `cute paper` finds a disagreement; 2 for
//! a bad invocation (unknown operation, wrong number of arguments, unknown option, a file that
//! cannot be read). Every failure prints nothing on stdout and, on stderr, first one line
//! `error: <op> <operands>: <condition>` (the operation or subcommand first). When an argument or
//! an option's value could not be read and the reader says where (a syntax error, an integer
//! literal that does not fit in `i64`), exactly two more lines follow: the argument indented by
//! two spaces, and under it `^` (or `^^^` over a span) at the offending characters, one column
//! past the text when the input ended too early ([`crate::diag`]):
//!
//! ```text
//! error: eval: argument 2 `(1,2)x`: parse: at byte 5: expected the end of the input
//!   (1,2)x
//!        ^
//! ```
//!
//! Every other failure prints the one line only. Positional arguments may start with `-` when
//! they are numbers (`cute eval 4:1 -1`).
//!
//! `--json` prints one JSON value on stdout instead of the text (errors stay on stderr as above,
//! with the same exit status); for an operation `cute OP ARG... --json`, the flag may stand
//! anywhere after OP (no CuTe notation starts with `--`). The keys:
//!
//! ```text
//! cute OP ARG... --json          {"op": OP, "args": [ARG, ...], "value": "<CuTe notation>"}
//! cute eval LAYOUT COORD --json  {"layout": L, "coord": C, "value": V}
//! cute eval LAYOUT --json        {"layout": L, "values": [V, ...]}   (index order; V a number, or for
//!                                coordinate or binary strides a string in CuTe notation, "0" too)
//! cute ops --json                [{"name": N, "signature": S, "min_args": n, "max_args": m|null,
//!                                   "params": [{"name", "word", "kind", "arity"}, ...],
//!                                   "result": KIND, "doc": D, "example": {"args", "value"}}, ...]
//!                                 (the operation table; scripts/gen_native_stub.py reads it)
//! cute partition --json          {"data", "tv", "composition", "threads": [{"thread", "tensor", "offset", "values", "offsets": [...]}]}
//! cute vector-width --json       {"src", "dst", "max_common_vector", "max_common_layout", "coordinates": [...]|null,
//!                                 "src_offsets": [...]|null, "dst_offsets": [...]|null, "copy": PLAN|null, "copy_note": TEXT|null}
//! cute contains --json           {"data", "instruction", "left_inverse", "contained", "missing": {"coordinate", "offset"}|null,
//!                                 "coordinates_layout": L|null, "coordinates": [...]|null}
//! cute show --json               {"layout": L, "rows": [[offset, ...], ...]}   (the table's cells, row by row;
//!                                strings in CuTe notation for coordinate strides)
//! cute paper/bench/banks/swizzle-search --json   as each subcommand's --help says
//! ```
//!
//! `cute show` colours each cell's background with CuTe's 8-level grey of its offset (the
//! palette of the pictures, [`cute_draw::pictures::grey`]) when `--color always`, or with
//! `--color auto` (the default) when stdout is a terminal and `NO_COLOR` is unset or empty; the
//! text is the same with the colour escapes removed. [`run`] never colours under `auto` (its
//! writer is not known to be a terminal); the binary calls [`run_with`] with [`Console::detect`].

use crate::{apps, banks, bench, conformance, draw, json, ops, paper, playground};

use clap::error::ErrorKind as ClapKind;
use clap::{CommandFactory, Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;

#[derive(Parser)]
#[command(
    name = "cute",
    version,
    // the help as written, never rewrapped to the terminal: the same text whether or not another
    // crate of the build turns on clap's `wrap_help` (divan does, in `cargo test --workspace`),
    // so that every example stays one line to copy
    term_width = 0,
    about = "CuTe layout algebra: evaluate, compose, divide, invert layouts in CuTe notation",
    after_help = "Operations: `cute OP ARG...` runs any operation of the algebra by its CuTe name on \
arguments in CuTe notation (`cute ops` lists them with their arguments); `--json` anywhere after \
OP prints {\"op\", \"args\", \"value\"}.

Examples:
  cute composition '(8,8):(8,1)' '((4,8),2):((16,1),8)'
  cute logical_divide '(8,16):(20,1)' '<4:1,8:2>'
  cute complement '(4,8):(1,8)' --json
  cute eval '((2,2),(4,2)):((1,8),(2,16))' 22
  cute show '(2,3):(3,1)'
  cute ops

Exit status:
  0  success: the value on stdout
  1  refused: an argument is not CuTe notation, the algebra refuses (a violated condition, an i64
     overflow, a capacity exceeded), a conformance file is not in the format, or `cute paper`
     finds a disagreement
  2  bad invocation: unknown operation or option, wrong number of arguments, a file that cannot
     be read
A failure prints `error: ...` on stderr (and, for an argument that is not CuTe notation, the
argument with `^` under the offending characters) and nothing on stdout."
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

// The one access of each thread in `cute banks` and `cute swizzle-search` (no doc comment: clap
// would take it for the subcommand's description).
#[derive(clap::Args)]
struct AccessArgs {
    /// Bytes per element (B).
    #[arg(long, allow_negative_numbers = true)]
    elem_bytes: i64,
    /// Values per access (V); V·B must be 4, 8 or 16 bytes.
    #[arg(long, allow_negative_numbers = true)]
    vector: i64,
}

#[derive(Subcommand)]
enum Cmd {
    /// Evaluates LAYOUT at COORD, or lists all its offsets.
    #[command(after_help = "Examples:
  cute eval '((2,2),(4,2)):((1,8),(2,16))' 22
  cute eval '((2,2),(4,2)):((1,8),(2,16))' '(2,5)'
  cute eval '(2,3):(3,1)'
  cute eval '(4,8):(1,4)' '(1,2)' --json")]
    Eval {
        /// A layout in CuTe notation, e.g. `((2,2),(4,2)):((1,8),(2,16))`, or a swizzled layout
        /// `Sw<B,M,S> o OFF o L` (as `draw` and `banks` read it).
        #[arg(allow_negative_numbers = true)]
        layout: String,
        /// An integer, ND, natural or partial coordinate, e.g. `22`, `(2,5)`, `((0,1),(1,1))`.
        #[arg(allow_negative_numbers = true)]
        coord: Option<String>,
        /// Prints `{"layout", "coord", "value"}`, or `{"layout", "values": [...]}` without COORD.
        #[arg(long)]
        json: bool,
    },
    /// Runs every case of a conformance file and prints each case line with the computed result.
    #[command(after_help = "Examples:
  cute conformance crates/cute-cli/tests/data/cases.tsv
  cute conformance crates/cute-cli/tests/data/cutlass_unit.tsv | head -3")]
    Conformance {
        /// A file in the conformance format (crates/cute-cli/tests/data/README.md): one case a line,
        /// `op<TAB>args…<TAB>=><TAB>expected<TAB>source`.
        file: std::path::PathBuf,
    },
    /// Lists the operations and their arguments.
    #[command(after_help = "Examples:
  cute ops
  cute ops --json")]
    Ops {
        /// Prints `[{"name", "signature", "min_args", "max_args"}, ...]` (`max_args` null: no bound).
        #[arg(long)]
        json: bool,
    },
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
    #[command(after_help = "Examples:
  cute bench
  cute bench --json
  cute bench --wall")]
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
    #[command(after_help = "Examples:
  cute banks '(8,64):(64,1)' '((8,4),(8,2)):((1,64),(8,256))' --elem-bytes 2 --vector 8
  cute banks 'Sw<3,3,3> o 0 o (8,64):(64,1)' '((8,4),(8,2)):((1,64),(8,256))' --elem-bytes 2 --vector 8 --json
  cute banks '(32,32):(32,1)' '(32,1):(32,1)' --elem-bytes 4 --vector 1 --addresses")]
    Banks {
        /// Tile coordinate -> element offset: a layout `(8,64):(64,1)` or a composed layout
        /// `Sw<3,3,3> o 0 o (8,64):(64,1)`.
        #[arg(allow_negative_numbers = true)]
        smem: String,
        /// (thread, value) -> tile coordinate; mode 0 is the 32 threads of the warp.
        #[arg(allow_negative_numbers = true)]
        tv: String,
        #[command(flatten)]
        access: AccessArgs,
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
    #[command(after_help = "Examples:
  cute swizzle-search '(8,64):(64,1)' '((8,4),(8,2)):((64,1),(8,4))' '((8,4),(8,2)):((1,64),(8,256))' --elem-bytes 2 --vector 8
  cute swizzle-search '(32,32):(32,1)' '(32,1):(32,1)' --elem-bytes 4 --vector 1 --json")]
    SwizzleSearch {
        /// Tile coordinate -> element offset (a layout, or a composed layout with no swizzle).
        #[arg(allow_negative_numbers = true)]
        smem: String,
        /// One or more access patterns, (thread, value) -> tile coordinate.
        #[arg(required = true, allow_negative_numbers = true)]
        tv: Vec<String>,
        #[command(flatten)]
        access: AccessArgs,
        /// Prints `{"swizzle": ..., "layout": ..., "wavefronts": [[...], ...], "conflict_free": ...}`.
        #[arg(long)]
        json: bool,
    },
    /// Which elements each thread owns: DATA ∘ TV sliced by thread (paper, Table 4).
    #[command(after_help = "Examples:
  cute partition '(8,8):(8,1)' '((4,8),2):((16,1),8)' --thread 5
  cute partition '(8,8):(8,1)' '((4,8),2):((16,1),8)'
  cute partition '(8,8):(8,1)' '((4,8),2):((16,1),8)' --thread 5 --json")]
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
        /// Prints `{"data", "tv", "composition", "threads": [{"thread", "tensor", "offset",
        /// "values", "offsets"}, ...]}`.
        #[arg(long)]
        json: bool,
    },
    /// How many elements SRC and DST can move together (the maximal common vector, paper eq. (14)),
    /// at which coordinates, and the loop nest `copy` runs.
    #[command(after_help = "Examples:
  cute vector-width '((2,2),(2,2)):((4,1),(8,2))' '((2,2),(2,2)):((8,1),(4,2))'
  cute vector-width '(4,8):(1,4)' '(4,8):(8,1)'
  cute vector-width '(8,4):(4,1)' '(8,4):(4,1)' --json")]
    VectorWidth {
        /// The source layout.
        #[arg(allow_negative_numbers = true)]
        src: String,
        /// The destination layout.
        #[arg(allow_negative_numbers = true)]
        dst: String,
        /// Prints `{"src", "dst", "max_common_vector", "max_common_layout", "coordinates",
        /// "src_offsets", "dst_offsets", "copy", "copy_note"}` (lists null when not listed).
        #[arg(long)]
        json: bool,
    },
    /// Whether DATA contains every offset INSTRUCTION touches, and at which coordinates (left
    /// inverse). INSTRUCTION is a layout or tmem_32x32b[.xN] / tmem_16x256b[.xN].
    #[command(after_help = "Examples:
  cute contains '(8,8):(8,1)' '(4):(1)'
  cute contains '((16,4),256):((16384,524288),1)' tmem_32x32b
  cute contains '(128,256):(16384,1)' '(4,2):(16384,1)' --json")]
    Contains {
        /// The data layout, e.g. `(128,256):(16384,1)`.
        #[arg(allow_negative_numbers = true)]
        data: String,
        /// The instruction's (coordinate -> offset) layout or a TMEM instruction name.
        #[arg(allow_negative_numbers = true)]
        instruction: String,
        /// Prints `{"data", "instruction", "left_inverse", "contained", "missing",
        /// "coordinates_layout", "coordinates"}`.
        #[arg(long)]
        json: bool,
    },
    /// CuTe C++'s `print_layout` table of LAYOUT (rank 1 as one row, higher ranks with modes 1..
    /// folded into the columns; F2 strides print their values, coordinate strides their
    /// coordinates `(i,j)`). On a terminal each cell's background is CuTe's grey of its offset
    /// (see --color).
    #[command(after_help = "Examples:
  cute show '(4,8):(1,4)'
  cute show '(2,3):(3,1)' --color always
  cute show '(2,(2,2)):(4,(1,2))'
  cute show '(2,3):(3,1)' --json")]
    Show {
        /// A layout with integer strides, or a swizzled layout `Sw<B,M,S> o OFF o L`.
        #[arg(allow_negative_numbers = true)]
        layout: String,
        /// Prints `{"layout": L, "rows": [[offset, ...], ...]}`: the table's cells, row by row.
        #[arg(long)]
        json: bool,
        /// Colour the cells (ANSI escapes): `auto` when stdout is a terminal and NO_COLOR is
        /// unset or empty.
        #[arg(long, value_enum, value_name = "WHEN", default_value_t = draw::Color::Auto)]
        color: draw::Color,
    },
    /// LAYOUT as a picture: SVG or TikZ on stdout, or SVG, PNG or TikZ in a file (-o, the format from
    /// the extension). Cells show offsets in CuTe's 8 greys; --tv draws a thread-value layout
    /// (T#/V#), --banks colours by shared-memory bank, --access marks the bank conflicts of a warp's
    /// accesses, --slice outlines a slice, --op colours a product's or divide's tiles, --atom draws
    /// an MMA atom (A, B, C as CuTe's print_latex) or a copy atom (source, destination),
    /// --tiled-mma a TiledMMA (the atom over --atom-layout, with --permutation) and --tiled-copy a
    /// TiledCopy (over --thr and --val, or over --operand of --tiled-mma) as print_latex draws them.
    /// Each picture takes its own flags (and --format, -o): any other is refused. A picture has at
    /// most 262144 cells, all its panels together.
    #[command(after_help = "Examples:
  cute draw '(4,8):(1,4)' -o layout.png
  cute draw '((4,8),(2,2)):((32,1),(16,8))' --tv 16 8 --thread 5 -o c.svg
  cute draw 'Sw<3,3,3> o 0 o (8,64):(64,1)' --banks --elem-bytes 2 -o banks.png
  cute draw '(8,64):(64,1)' --access '((8,4),(8,2)):((1,64),(8,256))' --elem-bytes 2 --vector 8 -o conflicts.svg
  cute draw '(6,12):(12,1)' --slice '(_,3)' -o slice.svg
  cute draw '(3,4):(4,1)' --op blocked_product --with '(2,5):(1,2)' -o blocked.png
  cute draw '(8,16):(20,1)' --op divide --with '<4:1,8:2>' -o divide.png
  cute draw --atom SM80_16x8x16_F32F16F16F32_TN --thread 0 -o mma.tex
  cute draw --atom list
  cute draw --tiled-mma SM80_16x8x16_F32F16F16F32_TN --atom-layout '(2,2)' --permutation '<32,(8,2,2):(1,16,8),16>' -o tiled_mma.png
  cute draw --tiled-mma SM90_64x64x16_F32F16F16_SS --atom-layout '(2,1)' --thread 130 -o wgmma.svg
  cute draw --tiled-copy SM75_U32x4_LDSM_N --operand a --tiled-mma SM80_16x8x16_F32F16F16F32_TN --atom-layout '(2,2)' -o ldmatrix_a.png
  cute draw --tiled-copy SM80_CP_ASYNC_CACHEGLOBAL_16B --thr '(16,8):(8,1)' --val '(1,8)' -o cp_async.tex")]
    Draw(draw::DrawArgs),
    /// Serves the layout playground on 127.0.0.1 (the page and the WebAssembly module are in the
    /// binary) until stopped: type layouts, pick an operation, see the value and its picture with
    /// the operands beside it in linking colours (a legend says what they mean), the cells
    /// labelled by value, index or coordinate; TV layouts (hover a cell to isolate its thread,
    /// click to keep it), swizzles before and after, bank conflicts, and a help panel; the link
    /// reproduces the state. Example: `cute playground --port 0 --no-open`.
    #[command(after_help = "Examples:
  cute playground                   # opens http://127.0.0.1:8000/ in the browser
  cute playground --port 0 --no-open")]
    Playground {
        /// The port (0: any free port; the address is printed).
        #[arg(long, default_value_t = 8000)]
        port: u16,
        /// Do not open the page in the desktop's browser.
        #[arg(long)]
        no_open: bool,
    },
    /// The GPU kernels the algebra plans (needs a CUDA GPU, the driver and NVRTC; `--plan` needs
    /// none): with no subcommand, every check and benchmark (atoms, COPY, GEMM, rates) as a table;
    /// `copy` and `contract` run one request of yours. Exit status 3 when no GPU can be used.
    #[command(after_help = "Examples:
  cute gpu --plan
  cute gpu --only copy --json copy.json
  cute gpu copy '(4096,4096):(4096,1)' '(4096,4096):(1,4096)' --dtype bf16
  cute gpu contract 'stupr,qtru->stqp' --sizes s=64,t=16,u=64,p=64,r=16,q=256")]
    Gpu(crate::gpu::GpuArgs),
    /// Any operation of the algebra by its CuTe name: `cute OP ARG...` (see `cute ops`).
    #[command(external_subcommand)]
    Op(Vec<String>),
}

/// The subcommands of `cute` that clap defines (`eval`, `conformance`, …, `contains`); every
/// other first argument is an operation of [`ops::operations`].
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

/// What `cute` knows of where its output goes, for `--color auto`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Console {
    /// Standard output is a terminal.
    pub stdout_is_terminal: bool,
    /// `NO_COLOR` is set to a non-empty value (<https://no-color.org>).
    pub no_color: bool,
}

impl Console {
    /// The process's console: whether stdout is a terminal, and `NO_COLOR`.
    pub fn detect() -> Console {
        use std::io::IsTerminal;
        Console {
            stdout_is_terminal: std::io::stdout().is_terminal(),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        }
    }

    /// Whether `cute show` colours under `choice`.
    pub fn colour(self, choice: draw::Color) -> bool {
        match choice {
            draw::Color::Always => true,
            draw::Color::Never => false,
            draw::Color::Auto => self.stdout_is_terminal && !self.no_color,
        }
    }
}

/// Runs `cute` with the argument vector `args` (the program name first, as in
/// `std::env::args_os()`), writing the result to `out` and diagnostics to `err`; returns the exit
/// status (see the module docs). `out` is taken not to be a terminal (`--color auto` does not
/// colour); see [`run_with`].
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
    run_with(args, out, err, Console::default())
}

/// [`run`], with `console` telling whether `out` is a terminal and whether `NO_COLOR` is set (what
/// the binary passes: [`Console::detect`]).
///
/// ```
/// use cute_cli::cli::{run_with, Console};
/// let tty = Console { stdout_is_terminal: true, no_color: false };
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// assert_eq!(run_with(["cute", "show", "2:1"], &mut out, &mut err, tty), 0);
/// assert!(String::from_utf8(out).unwrap().contains("\x1b[48;2;255;255;255;38;2;0;0;0m 0 "));
/// ```
pub fn run_with<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write, console: Console) -> u8
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
        Cmd::Eval {
            layout,
            coord,
            json,
        } if draw::is_composed(&layout) => emit(
            draw::eval_composed(&layout, coord.as_deref(), json),
            out,
            err,
        ),
        Cmd::Eval {
            layout,
            coord,
            json,
        } => {
            let (op, a) = match &coord {
                Some(c) => ("eval_crd", vec![layout.as_str(), c.as_str()]),
                None => ("eval_all", vec![layout.as_str()]),
            };
            let shape = if json { Json::Eval } else { Json::No };
            report("eval", op, &a, shape, out, err)
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
            access: AccessArgs { elem_bytes, vector },
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
            access: AccessArgs { elem_bytes, vector },
            json,
        } => emit(
            banks::search(&smem, &tv, elem_bytes, vector, json),
            out,
            err,
        ),
        Cmd::Partition {
            data,
            tv,
            thread,
            json,
        } => emit(apps::partition(&data, &tv, thread, json), out, err),
        Cmd::VectorWidth { src, dst, json } => emit(apps::vector_width(&src, &dst, json), out, err),
        Cmd::Contains {
            data,
            instruction,
            json,
        } => emit(apps::contains(&data, &instruction, json), out, err),
        Cmd::Show {
            layout,
            json,
            color,
        } => {
            let style = if json {
                draw::ShowAs::Json
            } else if console.colour(color) {
                draw::ShowAs::Colour
            } else {
                draw::ShowAs::Text
            };
            emit(draw::show(&layout, style), out, err)
        }
        Cmd::Draw(a) => emit(draw::draw(&a), out, err),
        Cmd::Gpu(a) => {
            let o = crate::gpu::run(&a);
            let c = if o.out.is_empty() {
                0
            } else {
                print(&o.out, out, err)
            };
            if let Some(line) = o.err {
                let _ = writeln!(err, "{line}");
            }
            c.max(o.code)
        }
        Cmd::Playground { port, no_open } => emit(
            playground::serve(port, !no_open, out).map(|()| String::new()),
            out,
            err,
        ),
        Cmd::Ops { json: false } => {
            let lines: Vec<String> = ops::operations()
                .map(|o| format!("{} {}", o.name, o.signature()))
                .collect();
            print(&lines.join("\n"), out, err)
        }
        Cmd::Ops { json: true } => {
            let items: Vec<json::Value> = ops::operations()
                .map(|o| {
                    let (lo, hi) = o.arity();
                    json::json!({
                        "name": o.name,
                        "signature": o.signature(),
                        "min_args": lo,
                        "max_args": (hi != usize::MAX).then_some(hi),
                        "params": o.params.iter().map(|p| json::json!({
                            "name": p.name,
                            "word": p.word,
                            "kind": p.kind.name(),
                            "arity": p.arity.name(),
                        })).collect::<Vec<_>>(),
                        "result": o.result.name(),
                        "doc": o.doc,
                        "example": {"args": o.example.args, "value": o.example.value},
                    })
                })
                .collect();
            print(&json::line(&json::Value::from(items)), out, err)
        }
        Cmd::Op(v) => {
            // `--json` anywhere after the operation's name (no CuTe notation starts with `--`)
            let json = v[1..].iter().any(|a| a == "--json");
            let args: Vec<&str> = v[1..]
                .iter()
                .map(String::as_str)
                .filter(|a| *a != "--json")
                .collect();
            let shape = if json { Json::Op } else { Json::No };
            report(&v[0], &v[0], &args, shape, out, err)
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

/// How [`report`] prints a value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Json {
    /// As text.
    No,
    /// `{"op", "args", "value"}`.
    Op,
    /// `cute eval --json`: `{"layout", "coord", "value"}` or `{"layout", "values"}`.
    Eval,
}

/// Runs the operation `op` of `cute name` and prints its value, or its error line (and, for an
/// argument that could not be read, the argument with carets under the offending characters).
fn report(
    name: &str,
    op: &str,
    args: &[&str],
    shape: Json,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let o = ops::run(op, args);
    match (ops::error_line(name, args, &o), o) {
        (None, ops::Outcome::Value(v)) => {
            let text = match shape {
                Json::No => v,
                Json::Op => json::line(&json::json!({"op": op, "args": args, "value": v})),
                Json::Eval => {
                    // every value of one layout has one JSON type: a number for integer strides,
                    // a string in CuTe notation for coordinate or binary strides (their 0 too)
                    let integral = args
                        .first()
                        .and_then(|l| l.parse::<cute::Layout>().ok())
                        .is_some_and(|l| l.is_integral());
                    let value = |x: &str| {
                        if integral {
                            json::value(x)
                        } else {
                            json::Value::from(x)
                        }
                    };
                    match args {
                        [l, c] => json::line(&json::json!({
                            "layout": l,
                            "coord": c,
                            "value": value(&v),
                        })),
                        _ => {
                            let vs: Vec<json::Value> =
                                json::tuple_items(&v).into_iter().map(value).collect();
                            json::line(&json::json!({
                                "layout": args.first().copied().unwrap_or(""),
                                "values": vs,
                            }))
                        }
                    }
                }
            };
            print(&text, out, err)
        }
        (line, o) => {
            let mut line = line.unwrap_or_else(|| "error: no value".to_string());
            match &o {
                ops::Outcome::BadArgument { index, error } => {
                    if let Some(text) = args.get(*index) {
                        line = crate::diag::with_pointer(line, text, error);
                    }
                }
                // an argument that the reader of unknown extents could not read either
                ops::Outcome::Symbolic(e) => {
                    if let cute::symbolic::Reason::Syntax { pos, .. } = e.reason {
                        let named = |(k, a): &(usize, &&str)| {
                            e.operands == format!("argument {} {}", k + 1, ops::quote(a))
                        };
                        if let Some((_, text)) = args.iter().enumerate().find(|x| named(x)) {
                            let at = crate::diag::char_at(text, pos);
                            let p = crate::diag::pointer(text, at);
                            line = format!("{line}\n{}", p.trim_end_matches('\n'));
                        }
                    }
                }
                _ => {}
            }
            let _ = writeln!(err, "{line}");
            match o {
                ops::Outcome::Usage(_) => 2,
                _ => 1,
            }
        }
    }
}

/// Prints a command's text, or its error on stderr (one line, and the pointer lines of
/// [`crate::diag`] under a parse error) with exit status 1.
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
