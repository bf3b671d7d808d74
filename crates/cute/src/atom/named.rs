//! The atoms by their CUTLASS names: what a front end (the CLI's `--tiled-mma`, Python's
//! `make_tiled_mma("SM80_...")`) reads from its user.

use super::copy::{cp_async, ldmatrix, stmatrix, universal_copy, CopyAtom, CpAsyncCache};
use super::dtype::DType;
use super::mma::{mma_sm80, wgmma, MmaAtom, WGMMA_ATOMS};
use super::sm100::{tmem_copy, TmemShape};

/// The MMA atoms' names, as an error message lists them (`N`: a multiple of 8 up to 256).
pub const MMA_ATOM_NAMES: &str = "SM80_16x8x16_F32F16F16F32_TN, SM80_16x8x16_F32BF16BF16F32_TN, \
     SM80_16x8x16_F16F16F16F16_TN, SM80_16x8x8_F32F16F16F32_TN, SM80_16x8x8_F32BF16BF16F32_TN, \
     SM80_16x8x8_F16F16F16F16_TN, SM80_16x8x8_F32TF32TF32F32_TN, and the wgmma atoms \
     SM90_64xNx16_{F32F16F16,F16F16F16,F32BF16BF16}_{SS,RS}, SM90_64xNx8_F32TF32TF32_{SS,RS}_TN \
     and SM90_64xNx32_{F32,F16}{E4M3,E5M2}{E4M3,E5M2}_{SS,RS}_TN (N: a multiple of 8 up to 256)";

/// The copy atoms' names, as an error message lists them.
pub const COPY_ATOM_NAMES: &str = "SM75_U32x{1,2,4}_LDSM_N, SM75_U16x{2,4,8}_LDSM_T, \
     SM90_U32x{1,2,4}_STSM_N, SM90_U16x{2,4,8}_STSM_T, SM80_CP_ASYNC_CACHEGLOBAL_16B, \
     SM80_CP_ASYNC_CACHEALWAYS[_ZFILL]<uintN_t> (N = 32, 64, 128), \
     SM80_CP_ASYNC_CACHEGLOBAL[_ZFILL]<uint128_t>, UniversalCopy<uintN_t> (N = 8, 16, 32, 64, \
     128) and the Blackwell SM100_TMEM_{LOAD,STORE}_32dp32b{1,2,...,128}x and \
     SM100_TMEM_{LOAD,STORE}_16dp256b{1,2,...,32}x";

/// The MMA atom CUTLASS calls `name` (`SM80_16x8x16_F32BF16BF16F32_TN`, or a `wgmma` atom with
/// its N written out, `SM90_64x128x16_F32BF16BF16_SS`, `SM90_64x64x32_F32E4M3E4M3_RS_TN`), or
/// `None` for any other name. The Blackwell `tcgen05.mma` atoms are not named here: CUTLASS's
/// names of them (`SM100_MMA_F16BF16_SS`) leave the shape and the types to template arguments,
/// which [`super::umma`] takes.
///
/// ```
/// use cute::atom::mma_atom_named;
/// let a = mma_atom_named("SM90_64x32x16_F32BF16BF16_SS").unwrap();
/// assert_eq!(a.shape_mnk, (64, 32, 16));
/// assert_eq!(mma_atom_named("SM90_64x256x32_F16E5M2E4M3_RS_TN").unwrap().shape_mnk, (64, 256, 32));
/// assert_eq!(mma_atom_named("SM80_16x8x8_F16F16F16F16_TN").unwrap().c_type, cute::atom::DType::F16);
/// assert!(mma_atom_named("SM90_64x012x16_F32BF16BF16_SS").is_none()); // not as CUTLASS writes it
/// assert!(mma_atom_named("SM75_U32x4_LDSM_N").is_none()); // a copy atom
/// ```
pub fn mma_atom_named(name: &str) -> Option<MmaAtom> {
    use DType::{Bf16, Tf32, F16, F32};
    if name.starts_with("SM80_") {
        let all = [
            (16, F16, F32),
            (16, Bf16, F32),
            (16, F16, F16),
            (8, F16, F32),
            (8, Bf16, F32),
            (8, F16, F16),
            (8, Tf32, F32),
        ];
        return all
            .into_iter()
            .filter_map(|(k, ab, c)| mma_sm80(k, ab, c).ok())
            .find(|a| a.name == name);
    }
    let rest = name.strip_prefix("SM90_64x")?;
    let (n, tail) = rest.split_once('x')?;
    // digits only, written as CUTLASS writes them (no sign, no leading zero)
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) || n.starts_with('0') {
        return None;
    }
    // the core names every N `SM90_64xNx..._...`
    let generic = format!("SM90_64xNx{tail}");
    let &(c, a, b, src, _) = WGMMA_ATOMS.iter().find(|w| w.4 == generic)?;
    wgmma(n.parse().ok()?, a, b, c, src).ok()
}

/// The copy atom CUTLASS calls `name` (`SM75_U16x8_LDSM_T`, `SM80_CP_ASYNC_CACHEGLOBAL_16B`,
/// `SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint64_t>`, `UniversalCopy<uint32_t>`,
/// `SM100_TMEM_LOAD_32dp32b8x`, ...), or `None` for any other name. The TMA atoms are not named
/// here: their bits are the box's, which [`super::tma`] takes.
///
/// ```
/// use cute::atom::copy_atom_named;
/// assert_eq!(copy_atom_named("SM75_U16x8_LDSM_T").unwrap().threads(), 32);
/// assert!(copy_atom_named("UniversalCopy<uint32_t>").is_some());
/// assert_eq!(copy_atom_named("SM80_CP_ASYNC_CACHEALWAYS<uint32_t>").unwrap().src.size(), 32);
/// assert_eq!(copy_atom_named("SM100_TMEM_STORE_16dp256b2x").unwrap().dst.size(), 32 * 8192);
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
    for zfill in [false, true] {
        for bytes in [4, 8, 16] {
            all.extend(cp_async(CpAsyncCache::Always, bytes, zfill).ok());
        }
        all.extend(cp_async(CpAsyncCache::Global, 16, zfill).ok());
    }
    for bits in [8, 16, 32, 64, 128] {
        all.extend(universal_copy(bits).ok());
    }
    if name.starts_with("SM100_TMEM_") {
        for store in [false, true] {
            for (shape, max) in [(TmemShape::Dp32b32, 128), (TmemShape::Dp16b256, 32)] {
                let mut num = 1;
                while num <= max {
                    all.extend(tmem_copy(shape, num, store).ok());
                    num *= 2;
                }
            }
        }
    }
    let wanted = match name {
        // the name `cute draw --atom` gives it (CUTLASS's type is SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>)
        "SM80_CP_ASYNC_CACHEGLOBAL_16B" => "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>",
        n => n,
    };
    all.into_iter().find(|a| a.name == wanted)
}
