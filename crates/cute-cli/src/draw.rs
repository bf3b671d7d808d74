//! `cute show` and `cute draw`: pictures of layouts from `cute-draw`.

use crate::atoms::{self, Atom};
use cute::{ComposedLayout, Layout, PartialCoord, Tiler};
use cute_draw::{pictures, Scene};
use std::path::{Path, PathBuf};

fn parse(what: &str, k: usize, text: &str) -> Result<Layout, String> {
    crate::apps::lay(what, k, text)
}

/// When `cute show` colours its table (`--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Color {
    /// When stdout is a terminal and `NO_COLOR` is unset or empty.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// What `cute show` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShowAs {
    /// CuTe's `print_layout` table, character for character.
    Text,
    /// The same table with each cell's background CuTe's grey of its offset (ANSI escapes).
    Colour,
    /// `{"layout": L, "rows": [[offset, ...], ...]}`.
    Json,
}

/// `cute show LAYOUT`: CuTe's `print_layout` table (rank 2 as CuTe prints it, rank 1 as one row,
/// higher ranks folded into the columns), coloured or as JSON as `how` says.
pub fn show(layout: &str, how: ShowAs) -> Result<String, String> {
    let e = |e: cute_draw::DrawError| format!("error: show: {e}");
    // a swizzled layout `Sw<B,M,S> o OFF o L`, read as `draw` and `banks` read it
    let (title, g, t) = if is_composed(layout) {
        let c = parse_composed("show", layout)?;
        let g = cute_draw::Grid::composed(&c).map_err(e)?;
        let g = (0..g.rows)
            .map(|r| (0..g.cols).map(|k| g.at(r, k).to_string()).collect())
            .collect::<Vec<Vec<String>>>();
        let t = match how {
            ShowAs::Colour => cute_draw::table::print_composed_coloured(&c).map_err(e)?,
            _ => cute_draw::table::print_composed(&c).map_err(e)?,
        };
        (c.to_string(), g, t)
    } else {
        let l = parse("show", 1, layout)?;
        let g = cute_draw::table::cells(&l).map_err(e)?;
        let t = match how {
            ShowAs::Colour => cute_draw::table::print_layout_coloured(&l).map_err(e)?,
            _ => cute_draw::table::print_layout(&l).map_err(e)?,
        };
        (l.to_string(), g, t)
    };
    if how == ShowAs::Json {
        // numbers where every cell is one (integer and F2 strides), else strings in CuTe notation
        let numbers = g.iter().flatten().all(|x| x.parse::<i64>().is_ok());
        let rows: Vec<Vec<crate::json::Value>> = g
            .iter()
            .map(|row| {
                row.iter()
                    .map(|x| match x.parse::<i64>() {
                        Ok(n) if numbers => crate::json::Value::from(n),
                        _ => crate::json::Value::from(x.as_str()),
                    })
                    .collect()
            })
            .collect();
        let v = crate::json::json!({"layout": title, "rows": rows});
        return Ok(crate::json::line(&v));
    }
    Ok(t.trim_end_matches('\n').to_string())
}

/// Whether an argument is a swizzled layout `Sw<B,M,S> o OFF o L` rather than a layout.
pub fn is_composed(text: &str) -> bool {
    text.trim_start().starts_with("Sw<")
}

/// Reads argument 1 of `cmd` as a swizzled layout `Sw<B,M,S> o OFF o L`; `L` must have integer
/// strides (the swizzle acts on its offsets).
fn parse_composed(cmd: &str, text: &str) -> Result<ComposedLayout, String> {
    let c = text
        .parse::<ComposedLayout>()
        .map_err(|e| crate::diag::bad_argument(cmd, 1, text, &e))?;
    if !c.layout.is_integral() {
        return Err(format!(
            "error: {cmd}: {c}: a swizzle acts on offsets: its layout {} must have integer strides",
            c.layout
        ));
    }
    Ok(c)
}

/// `cute eval` of a swizzled layout `Sw<B,M,S> o OFF o L`: its value at `coord` (an index or a
/// coordinate of `L`), or all its values in index order, as text or as `cute eval --json` writes
/// them.
///
/// ```
/// let v = cute_cli::draw::eval_composed("Sw<1,0,1> o 0 o (2,2):(2,1)", None, false).unwrap();
/// assert_eq!(v, "(0,3,1,2)");
/// let v = cute_cli::draw::eval_composed("Sw<1,0,1> o 0 o (2,2):(2,1)", Some("(1,1)"), false);
/// assert_eq!(v.unwrap(), "2");
/// ```
pub fn eval_composed(layout: &str, coord: Option<&str>, json: bool) -> Result<String, String> {
    let c = parse_composed("eval", layout)?;
    let fail = |e: cute::Error| format!("error: eval: {e}");
    match coord {
        Some(text) => {
            let crd: cute::IntTuple = text
                .parse()
                .map_err(|e| crate::diag::bad_argument("eval", 2, text, &e))?;
            let v = match crd.as_int() {
                Some(i) => c.eval(i),
                None => c.eval_crd(&crd),
            }
            .map_err(fail)?;
            Ok(if json {
                crate::json::line(
                    &crate::json::json!({"layout": layout, "coord": text, "value": v}),
                )
            } else {
                v.to_string()
            })
        }
        None => {
            let n = c.size();
            if n > cute::registry::EVAL_ALL_LIMIT {
                return Err(format!(
                    "error: eval: {c} has {n} values, more than the {} that eval lists",
                    cute::registry::EVAL_ALL_LIMIT
                ));
            }
            let values = c.values().map_err(fail)?;
            Ok(if json {
                crate::json::line(&crate::json::json!({"layout": layout, "values": values}))
            } else {
                let v: Vec<String> = values.iter().map(i64::to_string).collect();
                format!("({})", v.join(","))
            })
        }
    }
}

/// The picture formats of `cute draw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// SVG.
    Svg,
    /// A standalone TikZ (LaTeX) document.
    Tikz,
    /// PNG (only with `-o FILE`).
    Png,
}

impl Format {
    /// The format a file name asks for by its extension (`.svg`, `.png`, `.tex`), if any.
    pub fn from_path(p: &Path) -> Option<Format> {
        match p.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "svg" => Some(Format::Svg),
            "png" => Some(Format::Png),
            "tex" => Some(Format::Tikz),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Tikz => "tikz",
            Format::Png => "png",
        }
    }
}

/// The products and divides `cute draw LAYOUT --op OP --with B` colours tile by tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum TileOp {
    /// `logical_product(A, B)`: one column per copy of A.
    LogicalProduct,
    /// `blocked_product(A, B)`: A's copies as blocks.
    BlockedProduct,
    /// `raked_product(A, B)`: A's copies interleaved.
    RakedProduct,
    /// `zipped_divide(A, T)` (and `logical_divide`): A's cells coloured by the tile of T.
    Divide,
}

/// Everything `cute draw` was asked.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct DrawArgs {
    /// A layout, or a swizzled layout `Sw<B,M,S> o OFF o L` (drawn alone, with --banks or with
    /// --access; --tv, --slice and --op take a plain layout). Layouts with F2 strides are drawn by
    /// their values (offsets), with coordinate strides by their coordinates.
    #[arg(allow_negative_numbers = true)]
    pub layout: Option<String>,
    /// Draw a thread-value layout over a tile of ROWS x COLS: mode 0 the threads, the other modes
    /// the values (a rank-1 layout: threads of one value each, as print_latex pads it). A cell of
    /// several owners shows the first in (thread, value) order, as print_latex draws it, and +N.
    #[arg(long, num_args = 2, value_names = ["ROWS", "COLS"], allow_negative_numbers = true)]
    pub tv: Option<Vec<i64>>,
    /// Outline this thread's cells (with --tv or --atom).
    #[arg(long, allow_negative_numbers = true)]
    pub thread: Option<i64>,
    /// The picture's format (default: from the extension of -o, else svg).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Write the picture to FILE (.svg, .png or .tex) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Colour the cells by shared-memory bank (needs --elem-bytes).
    #[arg(long)]
    pub banks: bool,
    /// Bytes per element, for --banks and --access (and --tiled-copy, default 2).
    #[arg(long, allow_negative_numbers = true)]
    pub elem_bytes: Option<i64>,
    /// A warp's access pattern, (thread, value) -> tile coordinate: one panel per instruction,
    /// the tile by bank with the thread that reads each cell and the wavefront that serves it, the
    /// accesses that wait for a later wavefront marked (needs --elem-bytes and --vector). Every
    /// panel is the whole tile: all of them together may have 262144 cells (a pattern of more
    /// instructions is refused; `cute banks` counts the wavefronts of any).
    #[arg(long, allow_negative_numbers = true)]
    pub access: Option<String>,
    /// Values per access (V), for --access; V·B must be 4, 8 or 16 bytes.
    #[arg(long, allow_negative_numbers = true)]
    pub vector: Option<i64>,
    /// Outline the cells of the slice at this partial coordinate, e.g. `(_,3)` or `(2,_)`.
    #[arg(long, allow_negative_numbers = true)]
    pub slice: Option<String>,
    /// Colour the tiles of a product or divide of LAYOUT by --with.
    #[arg(long, value_enum)]
    pub op: Option<TileOp>,
    /// The second operand of --op: a layout (products) or a tiler (divide).
    #[arg(long, allow_negative_numbers = true)]
    pub with: Option<String>,
    /// Draw a GPU atom by CUTLASS's name (`list` lists them).
    #[arg(long)]
    pub atom: Option<String>,
    /// Draw a tiled MMA of this MMA atom (C, with A to its left and B above, as CuTe's
    /// print_latex(TiledMMA)); with --tiled-copy, the MMA whose --operand the copy moves.
    #[arg(long, value_name = "ATOM")]
    pub tiled_mma: Option<String>,
    /// The atoms of --tiled-mma: a layout or a shape `(M,N,K) ↦ atom` (`(2,2)` is `(2,2,1):(1,2,0)`).
    #[arg(long, value_name = "LAYOUT", allow_negative_numbers = true)]
    pub atom_layout: Option<String>,
    /// The permutation of --tiled-mma's tile, a tiler `<M,N,K>` (e.g. `<32,(8,2,2):(1,16,8),16>`).
    #[arg(long, value_name = "TILER", allow_negative_numbers = true)]
    pub permutation: Option<String>,
    /// Draw a tiled copy of this copy atom (source beside destination, as CuTe's
    /// print_latex(TiledCopy)), over --thr and --val or over --operand of --tiled-mma; elements
    /// of --elem-bytes bytes (default 2).
    #[arg(long, value_name = "ATOM")]
    pub tiled_copy: Option<String>,
    /// The thread layout of --tiled-copy: a layout or a shape `(m,n) ↦ thread`.
    #[arg(long, value_name = "LAYOUT", allow_negative_numbers = true)]
    pub thr: Option<String>,
    /// The value layout of --tiled-copy: a layout or a shape `(m,n) ↦ value`.
    #[arg(long, value_name = "LAYOUT", allow_negative_numbers = true)]
    pub val: Option<String>,
    /// Tile --tiled-copy over this operand of --tiled-mma (make_tiled_copy_A, _B or _C).
    #[arg(long, value_enum)]
    pub operand: Option<crate::draw_tiled::Operand>,
}

fn err(m: impl std::fmt::Display) -> String {
    format!("error: draw: {m}")
}

fn fail(e: cute_draw::DrawError) -> String {
    err(e)
}

/// A refusal of the picture of `flag`, which names it (`--op divide: …`).
fn fail_in(flag: &str) -> impl Fn(cute_draw::DrawError) -> String + '_ {
    move |e| err(format!("{flag}: {e}"))
}

/// The smem argument: a layout, or a swizzled layout `Sw<B,M,S> o OFF o L`.
fn parse_smem(text: &str) -> Result<ComposedLayout, String> {
    if is_composed(text) {
        parse_composed("draw", text)
    } else {
        let l = parse("draw", 1, text)?;
        let id = cute::Swizzle::new(0, 0, 0).map_err(err)?;
        Ok(ComposedLayout::new(id, 0, l))
    }
}

/// LAYOUT for a picture that takes a plain layout (`--tv`, `--slice`, `--op`): a swizzled layout
/// is refused, naming the flag.
fn plain_layout(flag: &str, text: &str) -> Result<Layout, String> {
    if is_composed(text) {
        return Err(err(format!(
            "{flag} takes a layout, not the swizzled layout {}: a swizzled layout is drawn alone, with --banks or with --access",
            crate::ops::quote(text)
        )));
    }
    parse("draw", 1, text)
}

/// The value of `flag` read as a layout; an error names the flag (with the pointer lines).
fn flag_layout(flag: &str, text: &str) -> Result<Layout, String> {
    text.parse().map_err(|e: cute::Error| {
        let line = err(format!("{flag} {}: {e}", crate::ops::quote(text)));
        crate::diag::with_pointer(line, text, &e)
    })
}

fn plain(c: &ComposedLayout) -> Option<Layout> {
    (c.swizzle.is_identity() && c.offset == 0).then_some(c.layout)
}

/// Every flag of `cute draw` (LAYOUT too) with whether it was given, in the order of the help.
fn given(a: &DrawArgs) -> [(&'static str, bool); 20] {
    [
        ("LAYOUT", a.layout.is_some()),
        ("--tv", a.tv.is_some()),
        ("--thread", a.thread.is_some()),
        ("--format", a.format.is_some()),
        ("-o", a.output.is_some()),
        ("--banks", a.banks),
        ("--elem-bytes", a.elem_bytes.is_some()),
        ("--access", a.access.is_some()),
        ("--vector", a.vector.is_some()),
        ("--slice", a.slice.is_some()),
        ("--op", a.op.is_some()),
        ("--with", a.with.is_some()),
        ("--atom", a.atom.is_some()),
        ("--tiled-mma", a.tiled_mma.is_some()),
        ("--atom-layout", a.atom_layout.is_some()),
        ("--permutation", a.permutation.is_some()),
        ("--tiled-copy", a.tiled_copy.is_some()),
        ("--thr", a.thr.is_some()),
        ("--val", a.val.is_some()),
        ("--operand", a.operand.is_some()),
    ]
}

/// Refuses every flag given that the picture of `picture` does not take (`allowed`, the picture's
/// own flag included), rather than ignore it.
fn only(a: &DrawArgs, picture: &str, allowed: &[&str]) -> Result<(), String> {
    match given(a)
        .iter()
        .find(|(flag, on)| *on && !allowed.contains(flag))
    {
        Some((flag, _)) => Err(err(format!(
            "{flag} does not belong to {picture}: give one picture's flags"
        ))),
        None => Ok(()),
    }
}

/// The scene `cute draw` was asked for.
pub fn scene(a: &DrawArgs) -> Result<Scene, String> {
    let conflicting = |flag: &str, with: &[(&str, bool)]| -> Result<(), String> {
        match with.iter().find(|(_, on)| *on) {
            Some((other, _)) => Err(err(format!(
                "{flag} and {other} draw different pictures: give one"
            ))),
            None => Ok(()),
        }
    };
    let needs = |flag: &str, v: bool, what: &str| -> Result<(), String> {
        if v {
            Ok(())
        } else {
            Err(err(format!("{flag} needs {what}")))
        }
    };
    const OUT: [&str; 2] = ["--format", "-o"];
    if a.tiled_mma.is_some() || a.tiled_copy.is_some() {
        return tiled_scene(a);
    }
    for (flag, on, what) in [
        ("--atom-layout", a.atom_layout.is_some(), "--tiled-mma ATOM"),
        ("--permutation", a.permutation.is_some(), "--tiled-mma ATOM"),
        ("--thr", a.thr.is_some(), "--tiled-copy ATOM"),
        ("--val", a.val.is_some(), "--tiled-copy ATOM"),
        ("--operand", a.operand.is_some(), "--tiled-copy ATOM"),
    ] {
        if on {
            return Err(err(format!("{flag} belongs to {what}: give it with that")));
        }
    }
    if let Some(name) = &a.atom {
        if a.layout.is_some() {
            return Err(err("--atom draws an atom: give no LAYOUT with it"));
        }
        conflicting(
            "--atom",
            &[
                ("--tv", a.tv.is_some()),
                ("--banks", a.banks),
                ("--access", a.access.is_some()),
                ("--slice", a.slice.is_some()),
                ("--op", a.op.is_some()),
            ],
        )?;
        only(a, "--atom", &["--atom", "--thread", OUT[0], OUT[1]])?;
        return atom_scene(name, a.thread);
    }
    let Some(text) = a.layout.as_deref() else {
        return Err(err(
            "give a LAYOUT, or --atom NAME (`cute draw --atom list` lists the atoms)",
        ));
    };
    if a.thread.is_some() && a.tv.is_none() {
        return Err(err(
            "--thread outlines a thread of a TV layout: it needs --tv ROWS COLS",
        ));
    }
    if a.with.is_some() && a.op.is_none() {
        return Err(err(
            "--with gives the second operand of --op: it needs --op",
        ));
    }
    if (a.elem_bytes.is_some() || a.vector.is_some()) && !a.banks && a.access.is_none() {
        return Err(err(
            "--elem-bytes and --vector belong to --banks or --access",
        ));
    }
    if let Some(tv) = &a.tv {
        conflicting(
            "--tv",
            &[
                ("--banks", a.banks),
                ("--access", a.access.is_some()),
                ("--slice", a.slice.is_some()),
                ("--op", a.op.is_some()),
            ],
        )?;
        only(a, "--tv", &["LAYOUT", "--tv", "--thread", OUT[0], OUT[1]])?;
        let &[rows, cols] = tv.as_slice() else {
            return Err(err(format!(
                "--tv takes two numbers, ROWS and COLS, not {}",
                tv.len()
            )));
        };
        let l = plain_layout("--tv", text)?;
        check_thread(a.thread, &l, "the TV layout")?;
        return pictures::tv_layout(&l, rows, cols, a.thread).map_err(fail);
    }
    if let Some(acc) = &a.access {
        conflicting(
            "--access",
            &[("--slice", a.slice.is_some()), ("--op", a.op.is_some())],
        )?;
        if a.banks {
            return Err(err(
                "--access colours its cells by bank already: give --access or --banks, not both",
            ));
        }
        only(
            a,
            "--access",
            &[
                "LAYOUT",
                "--access",
                "--elem-bytes",
                "--vector",
                OUT[0],
                OUT[1],
            ],
        )?;
        let smem = parse_smem(text)?;
        let tv = flag_layout("--access", acc)?;
        needs("--access", a.elem_bytes.is_some(), "--elem-bytes B")?;
        needs("--access", a.vector.is_some(), "--vector V")?;
        let (b, v) = (a.elem_bytes.unwrap_or(0), a.vector.unwrap_or(0));
        return pictures::swizzle_conflicts(&smem, &tv, b, v)
            .map(|p| p.scene)
            .map_err(|e| match e {
                cute_draw::DrawError::TooManyCells { .. } => err(format!(
                    "--access: {e}; `cute banks` counts the wavefronts without a picture"
                )),
                e => fail(e),
            });
    }
    if a.banks {
        conflicting(
            "--banks",
            &[("--slice", a.slice.is_some()), ("--op", a.op.is_some())],
        )?;
        only(
            a,
            "--banks",
            &["LAYOUT", "--banks", "--elem-bytes", OUT[0], OUT[1]],
        )?;
        let smem = parse_smem(text)?;
        needs("--banks", a.elem_bytes.is_some(), "--elem-bytes B")?;
        return pictures::banks(&smem, a.elem_bytes.unwrap_or(0)).map_err(fail);
    }
    if let Some(c) = &a.slice {
        conflicting("--slice", &[("--op", a.op.is_some())])?;
        only(a, "--slice", &["LAYOUT", "--slice", OUT[0], OUT[1]])?;
        let l = plain_layout("--slice", text)?;
        let pc: PartialCoord = c.parse().map_err(|e| {
            let line = err(format!("--slice {}: {e}", crate::ops::quote(c)));
            crate::diag::with_pointer(line, c, &e)
        })?;
        return pictures::slice(&l, &pc).map_err(fail);
    }
    if let Some(op) = a.op {
        only(a, "--op", &["LAYOUT", "--op", "--with", OUT[0], OUT[1]])?;
        let l = plain_layout("--op", text)?;
        let Some(w) = &a.with else {
            return Err(err("--op needs its second operand: --with B"));
        };
        return tile_scene(op, &l, w);
    }
    only(a, "a layout's picture", &["LAYOUT", OUT[0], OUT[1]])?;
    let smem = parse_smem(text)?;
    match plain(&smem) {
        Some(l) => pictures::layout(&l).map_err(fail),
        None => {
            // a swizzled layout by offset: CuTe's greys of the swizzled offsets
            pictures::composed(&smem).map_err(fail)
        }
    }
}

/// The size of mode 0 and of the rest (rank 1: the whole layout and 1).
fn split2(l: &Layout) -> Result<(i64, i64), cute::Error> {
    let n = l.size();
    let r0 = if l.rank() == 1 { n } else { l.mode(0)?.size() };
    Ok((r0, if r0 == 0 { 0 } else { n / r0 }))
}

/// Products and divides, each tile coloured (the paper's Figures 10–12).
pub fn tile_scene(op: TileOp, a: &Layout, with: &str) -> Result<Scene, String> {
    let algebra = |e: cute::Error| format!("error: draw: {e}");
    let flag = format!("--op {}", op_name(op));
    match op {
        TileOp::Divide => {
            let t: Tiler = with.parse().map_err(|e| {
                let line = err(format!("--with {}: {e}", crate::ops::quote(with)));
                crate::diag::with_pointer(line, with, &e)
            })?;
            pictures::divide(a, &t).map_err(fail_in(&flag))
        }
        _ => {
            let b = flag_layout("--with", with)?;
            if op != TileOp::LogicalProduct && (a.rank() != 2 || b.rank() != 2) {
                return Err(err(format!(
                    "{flag}: the tiles are coloured for rank-2 A and B, not ranks {} and {}",
                    a.rank(),
                    b.rank()
                )));
            }
            let (r, title) = match op {
                TileOp::LogicalProduct => {
                    (cute::logical_product(a, &Tiler::from(b)), "logical_product")
                }
                TileOp::BlockedProduct => (cute::blocked_product(a, &b), "blocked_product"),
                _ => (cute::raked_product(a, &b), "raked_product"),
            };
            let r = r.map_err(algebra)?;
            let am = split2(a).map_err(algebra)?;
            let bm = split2(&b).map_err(algebra)?;
            let title = format!("{title}({a}, {b}) = {r}");
            pictures::tiles(&title, &r, |i, j| product_tile(op, am, bm, i, j))
                .map_err(fail_in(&flag))
        }
    }
}

/// The name of `op` as `--op` takes it.
fn op_name(op: TileOp) -> &'static str {
    match op {
        TileOp::LogicalProduct => "logical_product",
        TileOp::BlockedProduct => "blocked_product",
        TileOp::RakedProduct => "raked_product",
        TileOp::Divide => "divide",
    }
}

/// Which copy of A cell `(i, j)` of a product's grid belongs to, for A of mode sizes `(a0, a1)`
/// and B of `(b0, b1)`: logical_product `(A, B')` has one column per copy; blocked_product
/// `((a0,b0),(a1,b1))` has copy `(i/a0, j/a1)`; raked_product `((b0,a0),(b1,a1))` copy
/// `(i mod b0, j mod b1)`; copy `(x, y)` is numbered `x + b0·y`.
///
/// ```
/// use cute_cli::draw::{product_tile, TileOp};
/// assert_eq!(product_tile(TileOp::BlockedProduct, (3, 4), (2, 5), 4, 9), 1 + 2 * 2);
/// assert_eq!(product_tile(TileOp::RakedProduct, (3, 4), (2, 5), 4, 9), 2 * 4);
/// ```
pub fn product_tile(op: TileOp, (a0, a1): (i64, i64), (b0, b1): (i64, i64), i: i64, j: i64) -> i64 {
    let (a0, a1, b0, b1) = (a0.max(1), a1.max(1), b0.max(1), b1.max(1));
    match op {
        TileOp::LogicalProduct => j,
        TileOp::BlockedProduct => i / a0 + b0 * (j / a1),
        _ => i % b0 + b0 * (j % b1),
    }
}

/// The tile of the tiler `t` that each cell of `a` falls in (cell index `m + rows·n`): the rest
/// coordinate of `zipped_divide` ([`cute_draw::pictures::divide_tiles`], which leaves out the
/// padding of a tiler that does not divide the shape, so partial tiles stay partial).
pub fn divide_tiles(a: &Layout, t: &Tiler) -> Result<Vec<i64>, cute_draw::DrawError> {
    Ok(pictures::divide_tiles(a, t)?.tile)
}

/// Refuses a `--thread` that is not a thread of `tv` (mode 0 of a `(thread, value)` layout, a
/// rank-1 layout all threads, as the picture labels them: [`pictures::tv_shape`]), as `cute
/// partition` does: `what` names the layout in the message.
fn check_thread(thread: Option<i64>, tv: &Layout, what: &str) -> Result<(), String> {
    let Some(t) = thread else { return Ok(()) };
    let (threads, _) =
        pictures::tv_shape(tv).map_err(|e| format!("error: draw: --thread {t}: {e}"))?;
    if (0..threads).contains(&t) {
        Ok(())
    } else {
        Err(err(format!(
            "--thread {t}: {what} {tv} has {threads} threads, 0 to {}",
            threads - 1
        )))
    }
}

/// `--tiled-mma` and `--tiled-copy`: the flags checked, the tiled value built and drawn.
fn tiled_scene(a: &DrawArgs) -> Result<Scene, String> {
    use crate::draw_tiled::{self as dt, CopyTiling};
    let what = if a.tiled_copy.is_some() {
        "--tiled-copy"
    } else {
        "--tiled-mma"
    };
    if a.layout.is_some() {
        return Err(err(format!(
            "{what} draws a tiled atom: give no LAYOUT with it"
        )));
    }
    let mut others = vec![
        ("--atom", a.atom.is_some()),
        ("--tv", a.tv.is_some()),
        ("--banks", a.banks),
        ("--access", a.access.is_some()),
        ("--slice", a.slice.is_some()),
        ("--op", a.op.is_some()),
        ("--with", a.with.is_some()),
        ("--vector", a.vector.is_some()),
    ];
    if a.tiled_copy.is_none() {
        others.extend([
            ("--elem-bytes", a.elem_bytes.is_some()),
            ("--thr", a.thr.is_some()),
            ("--val", a.val.is_some()),
            ("--operand", a.operand.is_some()),
        ]);
    }
    if let Some((flag, _)) = others.iter().find(|(_, on)| *on) {
        return Err(err(format!(
            "{flag} does not belong to {what}: give one picture's flags"
        )));
    }
    let mma = match &a.tiled_mma {
        Some(name) => Some(dt::tiled_mma(
            name,
            a.atom_layout.as_deref(),
            a.permutation.as_deref(),
        )?),
        None => {
            if a.atom_layout.is_some() || a.permutation.is_some() {
                return Err(err(
                    "--atom-layout and --permutation belong to --tiled-mma ATOM: give it with them",
                ));
            }
            None
        }
    };
    // what the user gave, for the refusals of the picture
    let operand = a.operand.map(|op| format!("{op:?}").to_lowercase());
    let mut flags = Vec::new();
    for (flag, v) in [
        ("--tiled-copy", a.tiled_copy.as_deref()),
        ("--thr", a.thr.as_deref()),
        ("--val", a.val.as_deref()),
        ("--operand", operand.as_deref()),
        ("--tiled-mma", a.tiled_mma.as_deref()),
        ("--atom-layout", a.atom_layout.as_deref()),
        ("--permutation", a.permutation.as_deref()),
    ] {
        if let Some(v) = v {
            flags.push(format!("{flag} {v}"));
        }
    }
    let given = flags.join(" ");
    let Some(copy) = &a.tiled_copy else {
        let Some(m) = &mma else {
            return Err(err("--tiled-mma needs an MMA atom"));
        };
        return dt::mma_scene(m, a.thread, &given);
    };
    let bits = match a.elem_bytes {
        None => 16,
        Some(b) if (1..=16).contains(&b) => 8 * b,
        Some(b) => {
            return Err(err(format!(
                "--elem-bytes {b}: an element of a tiled copy has 1 to 16 bytes"
            )))
        }
    };
    let how = match (a.thr.as_deref(), a.val.as_deref(), a.operand, mma.as_ref()) {
        (Some(t), Some(v), None, None) => CopyTiling::ThrVal(t, v),
        (None, None, Some(op), Some(m)) => CopyTiling::Operand(op, m),
        (None, None, Some(_), None) => {
            return Err(err(
                "--operand tiles the copy over an operand of a tiled MMA: it needs --tiled-mma ATOM",
            ))
        }
        (None, None, None, Some(_)) => {
            return Err(err(
                "--tiled-copy with --tiled-mma needs --operand a, b or c (the operand it moves)",
            ))
        }
        (t, v, None, None) if t.is_none() || v.is_none() => {
            return Err(err(
                "--tiled-copy needs --thr LAYOUT and --val LAYOUT, or --operand with --tiled-mma",
            ))
        }
        _ => {
            return Err(err(
                "--tiled-copy is tiled over --thr and --val, or over --operand of --tiled-mma: give one",
            ))
        }
    };
    let c = dt::tiled_copy(copy, bits, how)?;
    dt::copy_scene(&c, a.thread, &given)
}

fn atom_scene(name: &str, thread: Option<i64>) -> Result<Scene, String> {
    let Some(atom) = atoms::atom(name) else {
        return Err(err(format!(
            "--atom {}: no such atom; the atoms are {} (N: a multiple of 8 up to 256)",
            crate::ops::quote(name),
            atoms::NAMES.join(", ")
        )));
    };
    match atom {
        Atom::Mma(m) => {
            check_thread(
                thread,
                &m.c,
                &format!("the atom {}, whose C layout", m.name),
            )?;
            pictures::mma(&m.name, &m.a, &m.b, &m.c, m.mnk, thread).map_err(fail)
        }
        Atom::Copy(c) => {
            let (s, d) = c.tile_layouts().map_err(|e| format!("error: draw: {e}"))?;
            check_thread(
                thread,
                &s,
                &format!("the atom {}, whose source layout", c.name),
            )?;
            let title = format!("{} (16-bit elements, {} x {} tile)", c.name, c.rows, c.cols);
            pictures::copy(&title, &s, &d, c.rows, c.cols, thread).map_err(fail)
        }
    }
}

/// `cute draw …`: the picture as text on stdout (SVG or TikZ), or written to `-o FILE` (SVG, PNG
/// or TikZ by the extension, or `--format`), then a line saying what was written.
pub fn draw(a: &DrawArgs) -> Result<String, String> {
    if a.atom.as_deref() == Some("list") {
        if let Some((flag, _)) = given(a).iter().find(|(f, on)| *on && *f != "--atom") {
            return Err(err(format!(
                "--atom list prints the names of the atoms: it takes no other flag, not {flag}"
            )));
        }
        return Ok(format!(
            "{}\n(SM90_64xNx16: N a multiple of 8 up to 256, e.g. SM90_64x128x16_F32F16F16_SS)",
            atoms::NAMES.join("\n")
        ));
    }
    let from_ext = match &a.output {
        Some(p) => Some(Format::from_path(p).ok_or_else(|| {
            err(format!(
                "-o {}: the file name must end in .svg, .png or .tex",
                crate::ops::quote(&p.to_string_lossy())
            ))
        })?),
        None => None,
    };
    let format = match (a.format, from_ext) {
        (Some(f), Some(e)) if f != e => {
            return Err(err(format!(
                "--format {} disagrees with the extension of -o (a {} file)",
                f.name(),
                e.name()
            )))
        }
        (f, e) => f.or(e).unwrap_or(Format::Svg),
    };
    if format == Format::Png && a.output.is_none() {
        return Err(err("--format png writes a binary image: give -o FILE.png"));
    }
    let s = scene(a)?;
    let bytes = match format {
        Format::Svg => s.svg().into_bytes(),
        Format::Tikz => s.tikz().into_bytes(),
        Format::Png => cute_draw::png::render(&s).map_err(fail)?,
    };
    match &a.output {
        None => Ok(String::from_utf8_lossy(&bytes)
            .trim_end_matches('\n')
            .to_string()),
        Some(p) => {
            std::fs::write(p, &bytes).map_err(|e| {
                err(format!(
                    "-o {}: cannot write: {e}",
                    crate::ops::quote(&p.to_string_lossy())
                ))
            })?;
            Ok(format!(
                "wrote {} ({}, {} cells, {} bytes)",
                p.display(),
                format.name(),
                s.cells(),
                bytes.len()
            ))
        }
    }
}
