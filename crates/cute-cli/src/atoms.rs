//! The GPU atoms that `cute draw --atom NAME` draws, as layout data only.
//!
//! The MMA atoms are the core's catalogue ([`cute::atom`], CUTLASS's `MMA_Traits`); the copy atoms
//! carry, beside their `Copy_Traits` layouts (a test checks them against `cute::atom`), the tile
//! of 16-bit elements that their pictures draw.

use cute::Layout;

/// An MMA atom: `(thread, value) ↦` coordinate index of A (`m + M·k`), B (`n + N·k`) and C
/// (`m + M·n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mma {
    /// CUTLASS's name.
    pub name: String,
    /// `(M, N, K)`.
    pub mnk: (i64, i64, i64),
    /// The A layout.
    pub a: Layout,
    /// The B layout.
    pub b: Layout,
    /// The C layout.
    pub c: Layout,
}

/// A copy atom drawn in 16-bit elements over a tile of `rows × cols`: `(thread, bit) ↦ bit` on
/// each side, and the map from an element of the moved data to its tile coordinate index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copy {
    /// CUTLASS's name.
    pub name: String,
    /// `(source thread, bit) ↦ bit`.
    pub src_bits: Layout,
    /// `(destination thread, bit) ↦ bit`.
    pub dst_bits: Layout,
    /// Tile rows.
    pub rows: i64,
    /// Tile columns.
    pub cols: i64,
    /// Element of the moved data ↦ tile coordinate index (`row + rows·col`).
    pub tile: Layout,
}

/// The bits of an element in the copy pictures.
pub const COPY_ELEMENT_BITS: i64 = 16;

impl Copy {
    /// The source and destination `(thread, value) ↦` tile coordinate index, in 16-bit elements:
    /// `tile ∘ upcast(bits, 16)`.
    pub fn tile_layouts(&self) -> Result<(Layout, Layout), cute::Error> {
        let s = cute::upcast(&self.src_bits, COPY_ELEMENT_BITS)?;
        let d = cute::upcast(&self.dst_bits, COPY_ELEMENT_BITS)?;
        Ok((
            cute::composition(&self.tile, &s)?,
            cute::composition(&self.tile, &d)?,
        ))
    }
}

/// An atom: MMA or copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    /// A matrix multiply-accumulate.
    Mma(Mma),
    /// A copy.
    Copy(Copy),
}

// every string of this table is valid CuTe notation (the tests resolve every name)
fn lay(s: &str) -> Option<Layout> {
    s.parse().ok()
}

/// ldmatrix/stmatrix move `num` 8×8 matrices of 16-bit elements: the data is `8·num` rows of 8
/// elements (element `8·row + col`), drawn as a `8·num × 8` tile.
fn ld_st(name: &str, num: i64, src: &str, dst: &str) -> Option<Atom> {
    let rows = 8 * num;
    Some(Atom::Copy(Copy {
        name: name.to_string(),
        src_bits: lay(src)?,
        dst_bits: lay(dst)?,
        rows,
        cols: 8,
        tile: lay(&format!("(8,{rows}):({rows},1)"))?,
    }))
}

/// The names `--atom` accepts, in the order `cute draw --atom list` prints them; `SM90_64xNx*`
/// stands for every N that wgmma accepts (multiples of 8 up to 256).
pub const NAMES: [&str; 44] = [
    "SM80_16x8x16_F32F16F16F32_TN",
    "SM80_16x8x16_F32BF16BF16F32_TN",
    "SM80_16x8x16_F16F16F16F16_TN",
    "SM80_16x8x8_F32F16F16F32_TN",
    "SM80_16x8x8_F32BF16BF16F32_TN",
    "SM80_16x8x8_F16F16F16F16_TN",
    "SM80_16x8x8_F32TF32TF32F32_TN",
    "SM90_64xNx16_F32F16F16_SS",
    "SM90_64xNx16_F32F16F16_RS",
    "SM90_64xNx16_F16F16F16_SS",
    "SM90_64xNx16_F16F16F16_RS",
    "SM90_64xNx16_F32BF16BF16_SS",
    "SM90_64xNx16_F32BF16BF16_RS",
    "SM90_64xNx8_F32TF32TF32_SS_TN",
    "SM90_64xNx8_F32TF32TF32_RS_TN",
    "SM90_64xNx32_F32E4M3E4M3_SS_TN",
    "SM90_64xNx32_F32E4M3E4M3_RS_TN",
    "SM90_64xNx32_F32E4M3E5M2_SS_TN",
    "SM90_64xNx32_F32E4M3E5M2_RS_TN",
    "SM90_64xNx32_F32E5M2E4M3_SS_TN",
    "SM90_64xNx32_F32E5M2E4M3_RS_TN",
    "SM90_64xNx32_F32E5M2E5M2_SS_TN",
    "SM90_64xNx32_F32E5M2E5M2_RS_TN",
    "SM90_64xNx32_F16E4M3E4M3_SS_TN",
    "SM90_64xNx32_F16E4M3E4M3_RS_TN",
    "SM90_64xNx32_F16E4M3E5M2_SS_TN",
    "SM90_64xNx32_F16E4M3E5M2_RS_TN",
    "SM90_64xNx32_F16E5M2E4M3_SS_TN",
    "SM90_64xNx32_F16E5M2E4M3_RS_TN",
    "SM90_64xNx32_F16E5M2E5M2_SS_TN",
    "SM90_64xNx32_F16E5M2E5M2_RS_TN",
    "SM75_U32x1_LDSM_N",
    "SM75_U32x2_LDSM_N",
    "SM75_U32x4_LDSM_N",
    "SM75_U16x2_LDSM_T",
    "SM75_U16x4_LDSM_T",
    "SM75_U16x8_LDSM_T",
    "SM90_U32x1_STSM_N",
    "SM90_U32x2_STSM_N",
    "SM90_U32x4_STSM_N",
    "SM90_U16x2_STSM_T",
    "SM90_U16x4_STSM_T",
    "SM90_U16x8_STSM_T",
    "SM80_CP_ASYNC_CACHEGLOBAL_16B",
];

/// The atom called `name` (one of [`NAMES`], with N a number for wgmma), or `None`.
///
/// ```
/// use cute_cli::atoms::{atom, Atom};
/// let Some(Atom::Mma(m)) = atom("SM90_64x128x16_F32BF16BF16_SS") else { panic!() };
/// assert_eq!(m.c.to_string(), "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))");
/// assert!(atom("SM90_64x100x16_F32BF16BF16_SS").is_none());
/// ```
pub fn atom(name: &str) -> Option<Atom> {
    let ldsm = |n: i64, t: bool| -> (&'static str, &'static str) {
        let src = match n {
            1 => "((8,4),128):((128,0),1)",
            2 => "((16,2),128):((128,0),1)",
            _ => "(32,128):(128,1)",
        };
        let dst = match (n, t) {
            (1, false) => "(32,32):(32,1)",
            (2, false) => "(32,(32,2)):(32,(1,1024))",
            (4, false) => "(32,(32,4)):(32,(1,1024))",
            (1, true) => "((4,8),(16,2)):((256,16),(1,128))",
            (2, true) => "((4,8),(16,2,2)):((256,16),(1,128,1024))",
            _ => "((4,8),(16,2,4)):((256,16),(1,128,1024))",
        };
        (src, dst)
    };
    let x = |n: i64, t: bool, load: bool| {
        let (s, d) = ldsm(n, t);
        if load {
            ld_st(name, n, s, d)
        } else {
            ld_st(name, n, d, s)
        }
    };
    match name {
        "SM75_U32x1_LDSM_N" => x(1, false, true),
        "SM75_U32x2_LDSM_N" => x(2, false, true),
        "SM75_U32x4_LDSM_N" => x(4, false, true),
        "SM75_U16x2_LDSM_T" => x(1, true, true),
        "SM75_U16x4_LDSM_T" => x(2, true, true),
        "SM75_U16x8_LDSM_T" => x(4, true, true),
        "SM90_U32x1_STSM_N" => x(1, false, false),
        "SM90_U32x2_STSM_N" => x(2, false, false),
        "SM90_U32x4_STSM_N" => x(4, false, false),
        "SM90_U16x2_STSM_T" => x(1, true, false),
        "SM90_U16x4_STSM_T" => x(2, true, false),
        "SM90_U16x8_STSM_T" => x(4, true, false),
        "SM80_CP_ASYNC_CACHEGLOBAL_16B" => Some(Atom::Copy(Copy {
            name: name.to_string(),
            src_bits: lay("(1,128):(0,1)")?,
            dst_bits: lay("(1,128):(0,1)")?,
            rows: 1,
            cols: 8,
            tile: lay("8:1")?,
        })),
        // the MMA atoms: the core's catalogue (`cute::atom`), by CUTLASS's name
        _ => {
            let m = cute::atom::mma_atom_named(name)?;
            Some(Atom::Mma(Mma {
                name: name.to_string(),
                mnk: m.shape_mnk,
                a: m.a,
                b: m.b,
                c: m.c,
            }))
        }
    }
}
