//! Copy atoms: copy instructions as `(thread, bit)` layouts of the source and the destination.

use super::{lay, unsupported};
use crate::algebra::recast::upcast;
use crate::error::Error;
use crate::layout::Layout;

/// A copy instruction as layouts: `(thread, bit) ↦ bit` of the data moved, on the source and on the
/// destination side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyAtom {
    /// CUTLASS's name (`SM75_U32x4_LDSM_N`).
    pub name: &'static str,
    /// The PTX instruction.
    pub ptx: &'static str,
    /// Logical thread index ↦ thread index.
    pub thr_id: Layout,
    /// `(source thread, bit) ↦ bit`.
    pub src: Layout,
    /// `(destination thread, bit) ↦ bit`.
    pub dst: Layout,
    /// The reference side, CUTLASS's `RefLayout`: the layout (the source's or the destination's)
    /// by which a tiled copy's thread-value layout is read; the register side of the instruction.
    pub reference: Layout,
}

impl CopyAtom {
    /// Threads that execute one instruction.
    ///
    /// ```
    /// use cute::atom::{cp_async_16b, ldmatrix};
    /// assert_eq!((ldmatrix(4, false).unwrap().threads(), cp_async_16b().unwrap().threads()), (32, 1));
    /// ```
    pub fn threads(&self) -> i64 {
        self.thr_id.size()
    }

    /// The bit of the moved data that source thread `t` holds at its bit `b`.
    ///
    /// ```
    /// use cute::atom::ldmatrix;
    /// // lane 1 supplies the address of row 1: its 16-byte row starts at bit 128
    /// assert_eq!(ldmatrix(4, false).unwrap().src_bit(1, 0).unwrap(), 128);
    /// ```
    ///
    /// # Errors
    ///
    /// `NotInDomain` when `(t, b)` is outside the atom's `(threads, bits)`.
    pub fn src_bit(&self, t: i64, b: i64) -> Result<i64, Error> {
        self.src.eval(t + self.threads() * b)
    }

    /// The bit of the moved data that destination thread `t` holds at its bit `b`.
    ///
    /// ```
    /// use cute::atom::ldmatrix;
    /// // lane 1 receives elements 2 and 3 of row 0 of the first matrix
    /// assert_eq!(ldmatrix(4, false).unwrap().dst_bit(1, 0).unwrap(), 32);
    /// ```
    ///
    /// # Errors
    ///
    /// `NotInDomain` when `(t, b)` is outside the atom's `(threads, bits)`.
    pub fn dst_bit(&self, t: i64, b: i64) -> Result<i64, Error> {
        self.dst.eval(t + self.threads() * b)
    }

    /// Bits per thread on the source and on the destination side.
    ///
    /// ```
    /// use cute::atom::ldmatrix;
    /// assert_eq!(ldmatrix(2, false).unwrap().bits_per_thread(), (128, 64));
    /// ```
    pub fn bits_per_thread(&self) -> (i64, i64) {
        let t = self.threads();
        (self.src.size() / t, self.dst.size() / t)
    }

    /// The source and destination layouts in elements of `bits` bits (`upcast`), as CuTe's
    /// `Copy_Atom<Op, T>` uses them.
    ///
    /// ```
    /// use cute::atom::ldmatrix;
    /// let (s, d) = ldmatrix(4, false).unwrap().in_elements(16).unwrap();
    /// assert_eq!(s.to_string(), "(32,8):(8,1)");
    /// assert_eq!(d.to_string(), "(32,(2,4)):(2,(1,64))");
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`upcast`] (a `bits` that does not divide the layouts' strides and shapes).
    pub fn in_elements(&self, bits: i64) -> Result<(Layout, Layout), Error> {
        Ok((upcast(&self.src, bits)?, upcast(&self.dst, bits)?))
    }
}

/// `ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`: CUTLASS `SM75_U32x{1,2,4}_LDSM_N` and
/// `SM75_U16x{2,4,8}_LDSM_T` (`cute/atom/copy_traits_sm75.hpp`). Each of the first `8·num` threads
/// supplies the address of one 16-byte row; each thread receives `num` 32-bit registers.
///
/// # Errors
///
/// `Unsupported` for `num` other than 1, 2 and 4.
///
/// ```
/// use cute::atom::ldmatrix;
/// let a = ldmatrix(1, true).unwrap();
/// assert_eq!(a.name, "SM75_U16x2_LDSM_T");
/// assert_eq!(a.dst.to_string(), "((4,8),(16,2)):((256,16),(1,128))");
/// ```
pub fn ldmatrix(num: i64, trans: bool) -> Result<CopyAtom, Error> {
    let src = match num {
        1 => "((8,4),128):((128,0),1)",
        2 => "((16,2),128):((128,0),1)",
        4 => "(32,128):(128,1)",
        _ => return Err(unsupported("ldmatrix", "ldmatrix moves 1, 2 or 4 matrices")),
    };
    let (name, ptx, dst) = match (num, trans) {
        (1, false) => (
            "SM75_U32x1_LDSM_N",
            "ldmatrix.sync.aligned.m8n8.x1.shared.b16",
            "(32,32):(32,1)",
        ),
        (2, false) => (
            "SM75_U32x2_LDSM_N",
            "ldmatrix.sync.aligned.m8n8.x2.shared.b16",
            "(32,(32,2)):(32,(1,1024))",
        ),
        (4, false) => (
            "SM75_U32x4_LDSM_N",
            "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
            "(32,(32,4)):(32,(1,1024))",
        ),
        (1, true) => (
            "SM75_U16x2_LDSM_T",
            "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16",
            "((4,8),(16,2)):((256,16),(1,128))",
        ),
        (2, true) => (
            "SM75_U16x4_LDSM_T",
            "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16",
            "((4,8),(16,2,2)):((256,16),(1,128,1024))",
        ),
        _ => (
            "SM75_U16x8_LDSM_T",
            "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
            "((4,8),(16,2,4)):((256,16),(1,128,1024))",
        ),
    };
    let dst = lay(dst)?;
    Ok(CopyAtom {
        name,
        ptx,
        thr_id: lay("32:1")?,
        src: lay(src)?,
        dst,
        reference: dst,
    })
}

/// `stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16` (SM90): CUTLASS
/// `SM90_U32x{1,2,4}_STSM_N` and `SM90_U16x{2,4,8}_STSM_T` (`cute/atom/copy_traits_sm90.hpp`), the
/// mirror of [`ldmatrix`]: source and destination exchanged.
///
/// ```
/// use cute::atom::{ldmatrix, stmatrix};
/// let (l, s) = (ldmatrix(2, false).unwrap(), stmatrix(2, false).unwrap());
/// assert_eq!((s.src, s.dst), (l.dst, l.src));
/// ```
///
/// # Errors
///
/// `Unsupported` for `num` other than 1, 2 and 4.
pub fn stmatrix(num: i64, trans: bool) -> Result<CopyAtom, Error> {
    let l = ldmatrix(num, trans)?;
    let (name, ptx) = match (num, trans) {
        (1, false) => (
            "SM90_U32x1_STSM_N",
            "stmatrix.sync.aligned.m8n8.x1.shared.b16",
        ),
        (2, false) => (
            "SM90_U32x2_STSM_N",
            "stmatrix.sync.aligned.m8n8.x2.shared.b16",
        ),
        (4, false) => (
            "SM90_U32x4_STSM_N",
            "stmatrix.sync.aligned.m8n8.x4.shared.b16",
        ),
        (1, true) => (
            "SM90_U16x2_STSM_T",
            "stmatrix.sync.aligned.m8n8.x1.trans.shared.b16",
        ),
        (2, true) => (
            "SM90_U16x4_STSM_T",
            "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16",
        ),
        _ => (
            "SM90_U16x8_STSM_T",
            "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
        ),
    };
    Ok(CopyAtom {
        name,
        ptx,
        thr_id: l.thr_id,
        src: l.dst,
        dst: l.src,
        reference: l.dst,
    })
}

/// How `cp.async` caches what it moves: in L1 and L2 (`.ca`, CUTLASS's `CACHEALWAYS`: 4, 8 or
/// 16 bytes) or in L2 only (`.cg`, `CACHEGLOBAL`: 16 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CpAsyncCache {
    /// `cp.async.ca`: cached at every level.
    Always,
    /// `cp.async.cg`: cached in L2 only.
    Global,
}

/// `cp.async.{ca,cg}.shared.global [dst], [src], BYTES[, src_size]` (SM80): CUTLASS
/// `SM80_CP_ASYNC_CACHEALWAYS<T>`, `SM80_CP_ASYNC_CACHEGLOBAL<T>` and their `_ZFILL` variants
/// (`cute/atom/copy_traits_sm80.hpp`), `T` the unsigned type of `bytes`: one thread moves
/// `8·bytes` bits, `(1,bits):(0,1)` on both sides and as the reference. The zero-fill variant
/// takes a predicate: where it is false the source size is 0 and the destination is written with
/// zeros (the layouts are the same).
///
/// # Errors
///
/// `Unsupported` for `bytes` other than 4, 8 and 16 (`.ca`) or 16 (`.cg`).
///
/// ```
/// use cute::atom::{cp_async, CpAsyncCache};
/// let a = cp_async(CpAsyncCache::Always, 8, true).unwrap();
/// assert_eq!((a.name, a.ptx), ("SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint64_t>", "cp.async.ca.shared.global"));
/// assert_eq!(a.src.to_string(), "(1,64):(0,1)");
/// assert!(cp_async(CpAsyncCache::Global, 8, false).is_err()); // .cg moves 16 bytes only
/// ```
pub fn cp_async(cache: CpAsyncCache, bytes: i64, zfill: bool) -> Result<CopyAtom, Error> {
    use CpAsyncCache::{Always, Global};
    let (name, ptx) = match (cache, bytes, zfill) {
        (Always, 4, false) => (
            "SM80_CP_ASYNC_CACHEALWAYS<uint32_t>",
            "cp.async.ca.shared.global",
        ),
        (Always, 8, false) => (
            "SM80_CP_ASYNC_CACHEALWAYS<uint64_t>",
            "cp.async.ca.shared.global",
        ),
        (Always, 16, false) => (
            "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>",
            "cp.async.ca.shared.global",
        ),
        (Always, 4, true) => (
            "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint32_t>",
            "cp.async.ca.shared.global",
        ),
        (Always, 8, true) => (
            "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint64_t>",
            "cp.async.ca.shared.global",
        ),
        (Always, 16, true) => (
            "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>",
            "cp.async.ca.shared.global",
        ),
        (Global, 16, false) => (
            "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>",
            "cp.async.cg.shared.global",
        ),
        (Global, 16, true) => (
            "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>",
            "cp.async.cg.shared.global",
        ),
        _ => {
            return Err(unsupported(
                "cp_async",
                "cp.async.ca moves 4, 8 or 16 bytes and cp.async.cg 16",
            ))
        }
    };
    let one = Layout::flat(&[1, 8 * bytes], &[0, 1])?;
    Ok(CopyAtom {
        name,
        ptx,
        thr_id: lay("1:1")?,
        src: one,
        dst: one,
        reference: one,
    })
}

/// `cp.async.cg.shared.global [dst], [src], 16`: [`cp_async`] of 16 bytes cached in L2, CUTLASS
/// `SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>`: one thread moves 128 bits, `(1,128):(0,1)` on both
/// sides.
///
/// ```
/// use cute::atom::cp_async_16b;
/// assert_eq!(cp_async_16b().unwrap().src.to_string(), "(1,128):(0,1)");
/// ```
///
/// # Errors
///
/// None in practice: the layouts are constants.
pub fn cp_async_16b() -> Result<CopyAtom, Error> {
    cp_async(CpAsyncCache::Global, 16, false)
}

/// The Tensor Memory Accelerator's bulk tensor copies (SM90), CUTLASS `SM90_TMA_LOAD` and
/// `SM90_TMA_STORE` (`cute/atom/copy_traits_sm90_tma.hpp`): one thread issues the instruction,
/// which moves a whole box of `bits` bits between global and shared memory, `(1,bits):(0,1)` on
/// both sides and as the reference (`NumBitsPerTMA`: the box's bits). The box, its strides and
/// its swizzle are the descriptor's (the crate `cute-cuda` derives them from the layouts);
/// the copy takes coordinates, not addresses, which is what a coordinate tensor (`e_i` strides)
/// gives.
///
/// # Errors
///
/// `Unsupported` for `bits` that are not a positive multiple of 128 (a box is whole 16-byte
/// units).
///
/// ```
/// use cute::atom::tma;
/// // a 64 x 64 box of bf16
/// let load = tma(false, 64 * 64 * 16).unwrap();
/// assert_eq!((load.name, load.src.to_string().as_str()), ("SM90_TMA_LOAD", "(1,65536):(0,1)"));
/// assert_eq!(tma(true, 128).unwrap().ptx, "cp.async.bulk.tensor.global.shared::cta.bulk_group");
/// ```
pub fn tma(store: bool, bits: i64) -> Result<CopyAtom, Error> {
    if bits <= 0 || bits % 128 != 0 {
        return Err(unsupported(
            "tma",
            "a TMA box moves a positive multiple of 128 bits (whole 16-byte units)",
        ));
    }
    let (name, ptx) = if store {
        (
            "SM90_TMA_STORE",
            "cp.async.bulk.tensor.global.shared::cta.bulk_group",
        )
    } else {
        (
            "SM90_TMA_LOAD",
            "cp.async.bulk.tensor.shared::cluster.global.mbarrier::complete_tx::bytes",
        )
    };
    let one = Layout::flat(&[1, bits], &[0, 1])?;
    Ok(CopyAtom {
        name,
        ptx,
        thr_id: lay("1:1")?,
        src: one,
        dst: one,
        reference: one,
    })
}

/// A plain load or store of `bits` bits by one thread: CUTLASS `UniversalCopy<uint{bits}_t>`
/// (`cute/atom/copy_traits.hpp`), `(1,bits):(0,1)` on both sides.
///
/// ```
/// use cute::atom::universal_copy;
/// let a = universal_copy(64).unwrap();
/// assert_eq!((a.name, a.dst.to_string().as_str()), ("UniversalCopy<uint64_t>", "(1,64):(0,1)"));
/// assert!(universal_copy(24).is_err());
/// ```
///
/// # Errors
///
/// `Unsupported` for `bits` other than 8, 16, 32, 64 and 128.
pub fn universal_copy(bits: i64) -> Result<CopyAtom, Error> {
    let name = match bits {
        8 => "UniversalCopy<uint8_t>",
        16 => "UniversalCopy<uint16_t>",
        32 => "UniversalCopy<uint32_t>",
        64 => "UniversalCopy<uint64_t>",
        128 => "UniversalCopy<uint128_t>",
        _ => {
            return Err(unsupported(
                "universal_copy",
                "a universal copy moves 8, 16, 32, 64 or 128 bits",
            ))
        }
    };
    let one = Layout::flat(&[1, bits], &[0, 1])?;
    Ok(CopyAtom {
        name,
        ptx: "ld/st",
        thr_id: lay("1:1")?,
        src: one,
        dst: one,
        reference: one,
    })
}
