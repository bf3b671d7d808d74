//! `cute draw --tiled-mma ATOM` and `cute draw --tiled-copy ATOM`: a tiled MMA or tiled copy of
//! the core crate ([`cute::tiled`]) built from the command's flags and drawn as CuTe's
//! `print_latex` draws it ([`cute_draw::pictures::tiled_mma`], [`cute_draw::pictures::tiled_copy`]).
//!
//! The atoms are those of `cute draw --atom` (the same CUTLASS names, `cute draw --atom list`), read
//! here as the core's [`cute::atom`] values, plus `UniversalCopy<uintN_t>` for a copy.

use cute::atom::{
    copy_atom_named, mma_atom_named, CopyAtom, MmaAtom, COPY_ATOM_NAMES, MMA_ATOM_NAMES,
};
use cute::tiled::{make_tiled_copy, make_tiled_copy_a, make_tiled_copy_b, make_tiled_copy_c};
use cute::tiled::{make_tiled_mma, TiledCopy, TiledMma};
use cute::{IntTuple, Layout, Tiler};
use cute_draw::{pictures, Scene};

fn err(m: impl std::fmt::Display) -> String {
    format!("error: draw: {m}")
}

fn quote(s: &str) -> String {
    crate::ops::quote(s)
}

/// The operand of a tiled MMA that a tiled copy moves (`make_tiled_copy_A/B/C`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Operand {
    /// A, the `(M, K)` tile.
    A,
    /// B, the `(N, K)` tile.
    B,
    /// C, the `(M, N)` tile.
    C,
}

/// The core's MMA atom called `name` (an MMA name of `cute draw --atom list`), or `None`
/// ([`cute::atom::mma_atom_named`]).
///
/// ```
/// let a = cute_cli::draw_tiled::mma_atom("SM90_64x32x16_F32BF16BF16_SS").unwrap();
/// assert_eq!(a.shape_mnk, (64, 32, 16));
/// assert!(cute_cli::draw_tiled::mma_atom("SM75_U32x4_LDSM_N").is_none());
/// ```
pub fn mma_atom(name: &str) -> Option<MmaAtom> {
    mma_atom_named(name)
}

/// The core's copy atom called `name` (a copy name of `cute draw --atom list`, or
/// `UniversalCopy<uintN_t>` for N = 8, 16, 32, 64, 128), or `None`
/// ([`cute::atom::copy_atom_named`]).
///
/// ```
/// let a = cute_cli::draw_tiled::copy_atom("SM75_U16x8_LDSM_T").unwrap();
/// assert_eq!(a.threads(), 32);
/// assert!(cute_cli::draw_tiled::copy_atom("SM80_16x8x16_F32F16F16F32_TN").is_none());
/// ```
pub fn copy_atom(name: &str) -> Option<CopyAtom> {
    copy_atom_named(name)
}

fn no_mma(name: &str) -> String {
    err(format!(
        "--tiled-mma {}: no such MMA atom; the MMA atoms are {MMA_ATOM_NAMES}",
        quote(name)
    ))
}

/// Reads the value of `flag` as a layout; a shape alone (no `:`) is its column-major layout, as
/// CuTe's `Layout<Shape<...>>`.
fn layout_or_shape(flag: &str, text: &str) -> Result<Layout, String> {
    let bad = |e: cute::Error| {
        let line = err(format!("{flag} {}: {e}", quote(text)));
        crate::diag::with_pointer(line, text, &e)
    };
    if text.contains(':') {
        return text.parse::<Layout>().map_err(bad);
    }
    let shape: IntTuple = text.parse().map_err(bad)?;
    cute::compact_col_major(&shape).map_err(|e| err(format!("{flag} {}: {e}", quote(text))))
}

/// The tiled MMA of `--tiled-mma NAME [--atom-layout L] [--permutation P]`: the atom layout a
/// layout or a shape (`(2,2)` is `(2,2):(1,2)`, padded to rank 3), the permutation a by-mode tiler
/// (default `<_,_,_>`).
///
/// ```
/// let t = cute_cli::draw_tiled::tiled_mma("SM80_16x8x16_F32F16F16F32_TN", Some("(2,2)"), None).unwrap();
/// assert_eq!(t.tile_shape(), (32, 16, 16));
/// let e = cute_cli::draw_tiled::tiled_mma("SM80_16x8x16_F32F16F16F32_TN", Some("(2,2)"), Some("<16,_,_>"));
/// assert!(e.unwrap_err().contains("multiple of the atom extent"));
/// ```
pub fn tiled_mma(
    name: &str,
    atom_layout: Option<&str>,
    permutation: Option<&str>,
) -> Result<TiledMma, String> {
    let atom = mma_atom(name).ok_or_else(|| no_mma(name))?;
    let layout = match atom_layout {
        Some(t) => layout_or_shape("--atom-layout", t)?,
        None => Layout::leaf(1, 0).map_err(err)?,
    };
    let perm_text = permutation.unwrap_or("<_,_,_>");
    let perm: Tiler = perm_text.parse().map_err(|e| {
        let line = err(format!("--permutation {}: {e}", quote(perm_text)));
        crate::diag::with_pointer(line, perm_text, &e)
    })?;
    // a tile of the permutation is a mode of the drawn tile: one past the picture's cell limit
    // cannot be drawn, and is refused before make_tiled_mma visits each of its elements
    for i in 0..perm.tile_count() {
        if let Ok(Some(l)) = perm.tile(i).layout() {
            if l.size() > cute_draw::grid::MAX_CELLS {
                return Err(err(format!(
                    "--permutation {perm}: the tile {l} has {} elements, more than the {} cells a picture draws",
                    l.size(),
                    cute_draw::grid::MAX_CELLS
                )));
            }
        }
    }
    make_tiled_mma(&atom, &layout, &perm).map_err(|e| {
        err(format!(
            "--tiled-mma {name} --atom-layout {layout} --permutation {perm}: {e}"
        ))
    })
}

/// How `--tiled-copy` is tiled: over `--thr`/`--val` layouts, or over an operand of a tiled MMA.
#[derive(Clone, Debug)]
pub enum CopyTiling<'a> {
    /// `make_tiled_copy(atom, thr, val)`: the layouts' text.
    ThrVal(&'a str, &'a str),
    /// `make_tiled_copy_A/B/C(atom, mma)`.
    Operand(Operand, &'a TiledMma),
}

/// The tiled copy of `--tiled-copy NAME` in elements of `elem_bits` bits, tiled as `how` says.
///
/// ```
/// use cute_cli::draw_tiled::{tiled_copy, CopyTiling};
/// let c = tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", 16, CopyTiling::ThrVal("(16,8):(8,1)", "(1,8)")).unwrap();
/// assert_eq!(c.tiler().to_string(), "(16,64)");
/// ```
pub fn tiled_copy(name: &str, elem_bits: i64, how: CopyTiling<'_>) -> Result<TiledCopy, String> {
    let atom = copy_atom(name).ok_or_else(|| {
        err(format!(
            "--tiled-copy {}: no such copy atom; the copy atoms are {COPY_ATOM_NAMES}",
            quote(name)
        ))
    })?;
    match how {
        CopyTiling::ThrVal(thr, val) => {
            let (t, v) = (
                layout_or_shape("--thr", thr)?,
                layout_or_shape("--val", val)?,
            );
            make_tiled_copy(&atom, elem_bits, &t, &v).map_err(|e| {
                err(format!(
                    "--tiled-copy {name} --thr {t} --val {v} ({elem_bits}-bit elements): {e}"
                ))
            })
        }
        CopyTiling::Operand(op, mma) => {
            let made = match op {
                Operand::A => make_tiled_copy_a(&atom, elem_bits, mma),
                Operand::B => make_tiled_copy_b(&atom, elem_bits, mma),
                Operand::C => make_tiled_copy_c(&atom, elem_bits, mma),
            };
            made.map_err(|e| {
                err(format!(
                    "--tiled-copy {name} --operand {op:?} of the tiled MMA of {} over {} ({elem_bits}-bit elements): {e}",
                    mma.atom().name,
                    mma.thr_layout_vmnk()
                ))
            })
        }
    }
}

/// Refuses a `--thread` that is not one of the `threads` threads of `what`.
fn check_thread(highlight: Option<i64>, threads: i64, what: &str) -> Result<(), String> {
    match highlight {
        Some(t) if !(0..threads).contains(&t) => Err(err(format!(
            "--thread {t}: {what} has {threads} threads, 0 to {}",
            threads - 1
        ))),
        _ => Ok(()),
    }
}

/// The picture of a tiled MMA, thread `highlight` outlined; a refusal of the picture names
/// `given`, the flags it was made of.
///
/// ```
/// let t = cute_cli::draw_tiled::tiled_mma("SM80_16x8x16_F32F16F16F32_TN", Some("(4,1)"), None).unwrap();
/// let given = "--tiled-mma SM80_16x8x16_F32F16F16F32_TN --atom-layout (4,1)";
/// assert_eq!(cute_cli::draw_tiled::mma_scene(&t, Some(127), given).unwrap().panels.len(), 3);
/// let e = cute_cli::draw_tiled::mma_scene(&t, Some(128), given).unwrap_err();
/// assert!(e.contains("--thread 128: the tiled MMA of SM80_16x8x16_F32F16F16F32_TN over (32,4,1,1):(1,32,0,0) has 128 threads, 0 to 127"), "{e}");
/// ```
pub fn mma_scene(t: &TiledMma, highlight: Option<i64>, given: &str) -> Result<Scene, String> {
    let what = format!(
        "the tiled MMA of {} over {}",
        t.atom().name,
        t.thr_layout_vmnk()
    );
    check_thread(highlight, t.size(), &what)?;
    pictures::tiled_mma(t, highlight).map_err(|e| err(format!("{given}: {e}")))
}

/// The picture of a tiled copy, thread `highlight` outlined; a refusal of the picture names
/// `given`, the flags it was made of.
///
/// ```
/// use cute_cli::draw_tiled::{copy_scene, tiled_copy, CopyTiling};
/// let c = tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", 16, CopyTiling::ThrVal("(16,8):(8,1)", "(1,8)")).unwrap();
/// let given = "--tiled-copy SM80_CP_ASYNC_CACHEGLOBAL_16B --thr (16,8):(8,1) --val (1,8)";
/// let s = copy_scene(&c, Some(9), given).unwrap();
/// // element (1, 9): thread 9 (row 1, the second group of 8 columns), value 1, on both sides
/// assert_eq!(s.panels[1].cell(1, 9).label, vec!["T9".to_string(), "V1".to_string()]);
/// assert!(copy_scene(&c, Some(128), given).unwrap_err().contains("has 128 threads, 0 to 127"));
/// ```
pub fn copy_scene(t: &TiledCopy, highlight: Option<i64>, given: &str) -> Result<Scene, String> {
    let what = format!("the tiled copy of {} over {}", t.atom().name, t.layout_tv());
    check_thread(highlight, t.size(), &what)?;
    pictures::tiled_copy(t, highlight).map_err(|e| err(format!("{given}: {e}")))
}
