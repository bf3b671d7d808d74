//! Atoms: the GPU's tensor and copy instructions as CuTe layouts.
//!
//! The data (thread-value layouts, shapes, PTX names, element types, shared-memory atoms) lives in
//! the core crate, [`cute::atom`], where the tiled MMAs and copies ([`cute::tiled`]) and the
//! pictures reach it; this module re-exports it with this crate's error type, for the kernels.
//! Every layout is checked in the tests against CUTLASS's printed values and against the fragment
//! formulas of the PTX ISA, and on the GPU by [`crate::verify`].
//!
//! ```
//! use cute_cuda::atom::{mma_sm80_16x8x16, DType};
//! let atom = mma_sm80_16x8x16(DType::Bf16).unwrap();
//! assert_eq!(atom.c.to_string(), "((4,8),(2,2)):((32,1),(16,8))");
//! // thread 5 holds C(m, n) = C(1, 2) as its value 0
//! assert_eq!(atom.c_coord(5, 0).unwrap(), (1, 2));
//! ```

pub use cute::atom::{wgmma_n_valid, CopyAtom, CpAsyncCache, DType, GmmaSwizzle, Major, MmaAtom};

use cute::{ComposedLayout, Layout, Swizzle};

use crate::error::GpuError as Error;

/// [`cute::atom::mma_sm80`]: `mma.sync.aligned.m16n8k{K}` by `K`, operand and accumulator type.
///
/// ```
/// use cute_cuda::atom::{mma_sm80, DType};
/// assert_eq!(mma_sm80(8, DType::F16, DType::F16).unwrap().name, "SM80_16x8x8_F16F16F16F16_TN");
/// ```
pub fn mma_sm80(k: i64, ab: DType, c: DType) -> Result<MmaAtom, Error> {
    Ok(cute::atom::mma_sm80(k, ab, c)?)
}

/// [`cute::atom::cp_async`]: `cp.async.{ca,cg}` of 4, 8 or 16 bytes, with or without zero fill.
///
/// ```
/// use cute_cuda::atom::{cp_async, CpAsyncCache};
/// assert_eq!(cp_async(CpAsyncCache::Always, 4, false).unwrap().src.to_string(), "(1,32):(0,1)");
/// ```
pub fn cp_async(cache: CpAsyncCache, bytes: i64, zfill: bool) -> Result<CopyAtom, Error> {
    Ok(cute::atom::cp_async(cache, bytes, zfill)?)
}

/// [`cute::atom::mma_sm80_16x8x16`]: `mma.sync.aligned.m16n8k16` with f16 or bf16 operands.
///
/// ```
/// use cute_cuda::atom::{mma_sm80_16x8x16, DType};
/// let a = mma_sm80_16x8x16(DType::F16).unwrap();
/// assert_eq!(a.a.to_string(), "((4,8),(2,2,2)):((32,1),(16,8,128))");
/// assert_eq!(a.values(), (8, 4, 4));
/// ```
pub fn mma_sm80_16x8x16(ab: DType) -> Result<MmaAtom, Error> {
    Ok(cute::atom::mma_sm80_16x8x16(ab)?)
}

/// [`cute::atom::mma_sm80_16x8x8_tf32`]: `mma.sync.aligned.m16n8k8` with tf32 operands.
///
/// ```
/// use cute_cuda::atom::mma_sm80_16x8x8_tf32;
/// let a = mma_sm80_16x8x8_tf32().unwrap();
/// assert_eq!(a.b.to_string(), "((4,8),2):((8,1),32)");
/// ```
pub fn mma_sm80_16x8x8_tf32() -> Result<MmaAtom, Error> {
    Ok(cute::atom::mma_sm80_16x8x8_tf32()?)
}

/// [`cute::atom::wgmma_64xnx16`]: `wgmma.mma_async.m64nNk16` with A and B in shared memory.
///
/// ```
/// use cute_cuda::atom::{wgmma_64xnx16, DType};
/// let a = wgmma_64xnx16(128, DType::Bf16).unwrap();
/// assert_eq!(a.c.to_string(), "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))");
/// assert_eq!(a.a.to_string(), "(128,(64,16)):(0,(1,64))");
/// ```
pub fn wgmma_64xnx16(n: i64, ab: DType) -> Result<MmaAtom, Error> {
    Ok(cute::atom::wgmma_64xnx16(n, ab)?)
}

/// [`cute::atom::ldmatrix`]: `ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`.
///
/// ```
/// use cute_cuda::atom::ldmatrix;
/// let a = ldmatrix(1, true).unwrap();
/// assert_eq!(a.name, "SM75_U16x2_LDSM_T");
/// assert_eq!(a.dst.to_string(), "((4,8),(16,2)):((256,16),(1,128))");
/// ```
pub fn ldmatrix(num: i64, trans: bool) -> Result<CopyAtom, Error> {
    Ok(cute::atom::ldmatrix(num, trans)?)
}

/// [`cute::atom::stmatrix`]: `stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`.
///
/// ```
/// use cute_cuda::atom::{ldmatrix, stmatrix};
/// let (l, s) = (ldmatrix(2, false).unwrap(), stmatrix(2, false).unwrap());
/// assert_eq!((s.src, s.dst), (l.dst, l.src));
/// ```
pub fn stmatrix(num: i64, trans: bool) -> Result<CopyAtom, Error> {
    Ok(cute::atom::stmatrix(num, trans)?)
}

/// [`cute::atom::cp_async_16b`]: `cp.async.cg.shared.global [dst], [src], 16`.
///
/// ```
/// use cute_cuda::atom::cp_async_16b;
/// assert_eq!(cp_async_16b().unwrap().src.to_string(), "(1,128):(0,1)");
/// ```
pub fn cp_async_16b() -> Result<CopyAtom, Error> {
    Ok(cute::atom::cp_async_16b()?)
}

/// [`cute::atom::gmma_smem_atom_bits`]: the canonical `wgmma`/TMA shared-memory atom in bits.
pub fn gmma_smem_atom_bits(major: Major, sw: GmmaSwizzle) -> Result<(Swizzle, Layout), Error> {
    Ok(cute::atom::gmma_smem_atom_bits(major, sw)?)
}

/// [`cute::atom::gmma_smem_atom`]: the canonical `wgmma`/TMA shared-memory atom in elements.
///
/// ```
/// use cute_cuda::atom::{gmma_smem_atom, GmmaSwizzle, Major};
/// let a = gmma_smem_atom(Major::K, GmmaSwizzle::B128, 16).unwrap();
/// assert_eq!(a.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
/// let m = gmma_smem_atom(Major::MN, GmmaSwizzle::B64, 32).unwrap();
/// assert_eq!(m.to_string(), "Sw<2,2,3> o 0 o (16,8):(1,16)");
/// ```
pub fn gmma_smem_atom(
    major: Major,
    sw: GmmaSwizzle,
    elem_bits: i64,
) -> Result<ComposedLayout, Error> {
    Ok(cute::atom::gmma_smem_atom(major, sw, elem_bits)?)
}
