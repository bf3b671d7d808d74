//! The atoms by their CUTLASS names: what a front end (the CLI's `--tiled-mma`, Python's
//! `make_tiled_mma("SM80_...")`) reads from its user.

use super::copy::{cp_async_16b, ldmatrix, stmatrix, universal_copy, CopyAtom};
use super::dtype::DType;
use super::mma::{mma_sm80_16x8x16, mma_sm80_16x8x8_tf32, wgmma_64xnx16, MmaAtom};

/// The MMA atoms' names, as an error message lists them (`N`: a multiple of 8 up to 256).
pub const MMA_ATOM_NAMES: &str = "SM80_16x8x16_F32F16F16F32_TN, SM80_16x8x16_F32BF16BF16F32_TN, \
     SM80_16x8x8_F32TF32TF32F32_TN, SM90_64xNx16_F32F16F16_SS and SM90_64xNx16_F32BF16BF16_SS \
     (N: a multiple of 8 up to 256)";

/// The copy atoms' names, as an error message lists them.
pub const COPY_ATOM_NAMES: &str = "SM75_U32x{1,2,4}_LDSM_N, SM75_U16x{2,4,8}_LDSM_T, \
     SM90_U32x{1,2,4}_STSM_N, SM90_U16x{2,4,8}_STSM_T, SM80_CP_ASYNC_CACHEGLOBAL_16B and \
     UniversalCopy<uintN_t> (N = 8, 16, 32, 64, 128)";

/// The MMA atom CUTLASS calls `name` (`SM80_16x8x16_F32BF16BF16F32_TN`, or a `wgmma` atom with
/// its N written out, `SM90_64x128x16_F32BF16BF16_SS`), or `None` for any other name.
///
/// ```
/// use cute::atom::mma_atom_named;
/// let a = mma_atom_named("SM90_64x32x16_F32BF16BF16_SS").unwrap();
/// assert_eq!(a.shape_mnk, (64, 32, 16));
/// assert!(mma_atom_named("SM90_64x012x16_F32BF16BF16_SS").is_none()); // not as CUTLASS writes it
/// assert!(mma_atom_named("SM75_U32x4_LDSM_N").is_none()); // a copy atom
/// ```
pub fn mma_atom_named(name: &str) -> Option<MmaAtom> {
    let atom = match name {
        "SM80_16x8x16_F32F16F16F32_TN" => mma_sm80_16x8x16(DType::F16),
        "SM80_16x8x16_F32BF16BF16F32_TN" => mma_sm80_16x8x16(DType::Bf16),
        "SM80_16x8x8_F32TF32TF32F32_TN" => mma_sm80_16x8x8_tf32(),
        _ => {
            let rest = name.strip_prefix("SM90_64x")?;
            let (n, ty) = rest.split_once("x16_")?;
            let ab = match ty {
                "F32F16F16_SS" => DType::F16,
                "F32BF16BF16_SS" => DType::Bf16,
                _ => return None,
            };
            // digits only, written as CUTLASS writes them (no sign, no leading zero)
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) || n.starts_with('0') {
                return None;
            }
            // the core names every N `SM90_64xNx16_...`
            return wgmma_64xnx16(n.parse().ok()?, ab).ok();
        }
    };
    atom.ok().filter(|a| a.name == name)
}

/// The copy atom CUTLASS calls `name` (`SM75_U16x8_LDSM_T`, `SM80_CP_ASYNC_CACHEGLOBAL_16B`,
/// `UniversalCopy<uint32_t>`, ...), or `None` for any other name.
///
/// ```
/// use cute::atom::copy_atom_named;
/// assert_eq!(copy_atom_named("SM75_U16x8_LDSM_T").unwrap().threads(), 32);
/// assert!(copy_atom_named("UniversalCopy<uint32_t>").is_some());
/// assert!(copy_atom_named("SM80_16x8x16_F32F16F16F32_TN").is_none()); // an MMA atom
/// ```
pub fn copy_atom_named(name: &str) -> Option<CopyAtom> {
    let mut all: Vec<CopyAtom> = Vec::new();
    for trans in [false, true] {
        for num in [1, 2, 4] {
            all.extend(ldmatrix(num, trans).ok());
            all.extend(stmatrix(num, trans).ok());
        }
    }
    all.extend(cp_async_16b().ok());
    for bits in [8, 16, 32, 64, 128] {
        all.extend(universal_copy(bits).ok());
    }
    let wanted = match name {
        // the name `cute draw --atom` gives it (CUTLASS's type is SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>)
        "SM80_CP_ASYNC_CACHEGLOBAL_16B" => "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>",
        n => n,
    };
    all.into_iter().find(|a| a.name == wanted)
}
