//! Blackwell (SM100) atoms: `tcgen05.mma` (UMMA), whose accumulator lives in tensor memory
//! (TMEM), and the `tcgen05.ld`/`tcgen05.st` copies between TMEM and registers.
//!
//! These are layouts only, checked against CUTLASS's traits (`cute/atom/mma_traits_sm100.hpp`,
//! `cute/atom/copy_traits_sm100.hpp`) on the CPU: there is no Blackwell GPU here, so none of them
//! has run on hardware, and `cute-cuda` plans no kernel with them.

use super::copy::CopyAtom;
use super::dtype::DType;
use super::mma::MmaAtom;
use super::{lay, unsupported};
use crate::error::Error;
use crate::layout::Layout;

/// Where a `tcgen05.mma` reads A: shared memory through a descriptor (`SS`) or tensor memory
/// (`TS`). B is always read from shared memory, and C/D live in tensor memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UmmaA {
    /// A and B from shared memory (CUTLASS's `SM100_MMA_..._SS`).
    SS,
    /// A from tensor memory (`SM100_MMA_..._TS`).
    TS,
}

/// `tcgen05.mma.cta_group::1.kind::{f16,tf32,f8f6f4}` (SM100): CUTLASS `SM100_MMA_F16BF16_SS`,
/// `SM100_MMA_TF32_SS`, `SM100_MMA_F8F6F4_SS` and their `_TS` variants
/// (`cute/atom/mma_traits_sm100.hpp`), an `m × n` tile of C with `K = 256 / bits(a)`. One thread
/// issues the instruction for the CTA, so `ThrID = 1:1` and every operand is the whole tile:
/// A `(1,(M,K)):(0,(1,M))`, B `(1,(N,K)):(0,(1,N))`, C `(1,(M,N)):(0,(1,M))`.
///
/// The types of the three kinds: f16 or bf16 operands of one width into f32 or f16
/// (`kind::f16`); tf32 into f32 (`kind::tf32`); e4m3 or e5m2 into f32 or f16 (`kind::f8f6f4`).
/// The shapes of one CTA: `M` 64 or 128; `N` a multiple of 8 (M = 64) or of 16 (M = 128) from
/// 8 or 16 to 256.
///
/// Not run on hardware (no Blackwell GPU here): checked against CUTLASS's traits only.
///
/// # Errors
///
/// `Unsupported` for another shape or another combination of types.
///
/// ```
/// use cute::atom::{umma, DType, UmmaA};
/// let a = umma(128, 256, DType::Bf16, DType::Bf16, DType::F32, UmmaA::SS).unwrap();
/// assert_eq!((a.name, a.shape_mnk), ("SM100_MMA_F16BF16_SS", (128, 256, 16)));
/// assert_eq!(a.c.to_string(), "(1,(128,256)):(0,(1,128))");
/// assert_eq!(umma(64, 64, DType::E4m3, DType::E5m2, DType::F16, UmmaA::TS).unwrap().shape_mnk.2, 32);
/// assert!(umma(128, 8, DType::F16, DType::F16, DType::F32, UmmaA::SS).is_err()); // M = 128: N % 16
/// ```
pub fn umma(m: i64, n: i64, a: DType, b: DType, c: DType, src: UmmaA) -> Result<MmaAtom, Error> {
    use DType::{Bf16, E4m3, E5m2, Tf32, F16, F32};
    let step = match m {
        64 => 8,
        128 => 16,
        _ => {
            return Err(unsupported(
                "umma",
                "tcgen05.mma of one CTA has M = 64 or M = 128",
            ))
        }
    };
    if n < step || n > 256 || n % step != 0 {
        return Err(unsupported(
            "umma",
            "tcgen05.mma has N a multiple of 8 in 8..=256 (M = 64) or of 16 in 16..=256 (M = 128)",
        ));
    }
    let kind = match (a, b, c) {
        (F16 | Bf16, F16 | Bf16, F32 | F16) if a == b => "f16",
        (Tf32, Tf32, F32) => "tf32",
        (E4m3 | E5m2, E4m3 | E5m2, F32 | F16) => "f8f6f4",
        _ => {
            return Err(unsupported(
                "umma",
                "tcgen05.mma takes f16 x f16 or bf16 x bf16 into f32 or f16, tf32 x tf32 into \
                 f32, and e4m3/e5m2 x e4m3/e5m2 into f32 or f16",
            ))
        }
    };
    let (name, ptx) = match (kind, src) {
        ("f16", UmmaA::SS) => ("SM100_MMA_F16BF16_SS", "tcgen05.mma.cta_group::1.kind::f16"),
        ("f16", UmmaA::TS) => ("SM100_MMA_F16BF16_TS", "tcgen05.mma.cta_group::1.kind::f16"),
        ("tf32", UmmaA::SS) => ("SM100_MMA_TF32_SS", "tcgen05.mma.cta_group::1.kind::tf32"),
        ("tf32", UmmaA::TS) => ("SM100_MMA_TF32_TS", "tcgen05.mma.cta_group::1.kind::tf32"),
        (_, UmmaA::SS) => (
            "SM100_MMA_F8F6F4_SS",
            "tcgen05.mma.cta_group::1.kind::f8f6f4",
        ),
        (_, UmmaA::TS) => (
            "SM100_MMA_F8F6F4_TS",
            "tcgen05.mma.cta_group::1.kind::f8f6f4",
        ),
    };
    let k = 256 / a.bits();
    // (1,(rows,cols)):(0,(1,rows)): the thread mode, then the tile column-major
    let tile = |rows: i64, cols: i64| -> Result<Layout, Error> {
        lay(&format!("(1,({rows},{cols})):(0,(1,{rows}))"))
    };
    Ok(MmaAtom {
        name,
        ptx,
        shape_mnk: (m, n, k),
        ab_type: a,
        b_type: b,
        c_type: c,
        thr_id: lay("1:1")?,
        a: tile(m, k)?,
        b: tile(n, k)?,
        c: tile(m, n)?,
    })
}

/// The shape of a `tcgen05.ld`/`tcgen05.st`: each of a warp's 32 threads reaches one TMEM lane
/// (`32dp32b`: 32 data paths × 32 bits) or a warp covers 16 lanes × 256 bits (`16dp256b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmemShape {
    /// `.32x32b`: thread `t` reads lane `t`, 32 bits per repetition.
    Dp32b32,
    /// `.16x256b`: 16 lanes of 256 bits per repetition, four threads to a lane.
    Dp16b256,
}

/// `tcgen05.ld.sync.aligned.{32x32b,16x256b}.x{num}.b32` and its `tcgen05.st` mirror (SM100):
/// CUTLASS `SM100_TMEM_LOAD_32dp32b{num}x`, `SM100_TMEM_LOAD_16dp256b{num}x` and the
/// `SM100_TMEM_STORE_...` atoms (`cute/atom/copy_traits_sm100.hpp`), as `(thread, bit)` layouts
/// of a warp (`ThrID = 32:1`). The TMEM side is `(32, bits):(0,1)` (the warp gives one address)
/// and is the reference; the register side is `(32, 32·num):(32·num, 1)` for `32dp32b` and
/// `((4,8),(64,2,num)):((64,256·num),(1,2048·num,256))` for `16dp256b` (without the last mode when
/// `num` is 1). A store exchanges the two sides; its reference stays the TMEM side.
///
/// `num` is a power of two: 1 to 128 for `32dp32b`, 1 to 32 for `16dp256b`. Not run on hardware
/// (no Blackwell GPU here): checked against CUTLASS's traits only.
///
/// # Errors
///
/// `Unsupported` for another `num`.
///
/// ```
/// use cute::atom::{tmem_copy, TmemShape};
/// let ld = tmem_copy(TmemShape::Dp16b256, 4, false).unwrap();
/// assert_eq!(ld.name, "SM100_TMEM_LOAD_16dp256b4x");
/// assert_eq!(ld.dst.to_string(), "((4,8),(64,2,4)):((64,1024),(1,8192,256))");
/// let st = tmem_copy(TmemShape::Dp32b32, 2, true).unwrap();
/// assert_eq!((st.src.to_string().as_str(), st.reference), ("(32,64):(64,1)", st.dst));
/// ```
pub fn tmem_copy(shape: TmemShape, num: i64, store: bool) -> Result<CopyAtom, Error> {
    let max = match shape {
        TmemShape::Dp32b32 => 128,
        TmemShape::Dp16b256 => 32,
    };
    if num < 1 || num > max || num & (num - 1) != 0 {
        return Err(unsupported(
            "tmem_copy",
            "tcgen05.ld/st repeats a power of two: 1 to 128 times for 32x32b, 1 to 32 for 16x256b",
        ));
    }
    let (tmem, regs) = match shape {
        TmemShape::Dp32b32 => (
            Layout::flat(&[32, 1024 * num], &[0, 1])?,
            Layout::flat(&[32, 32 * num], &[32 * num, 1])?,
        ),
        TmemShape::Dp16b256 => (
            Layout::flat(&[32, 4096 * num], &[0, 1])?,
            if num == 1 {
                lay("((4,8),(64,2)):((64,256),(1,2048))")?
            } else {
                lay(&format!(
                    "((4,8),(64,2,{num})):((64,{}),(1,{},256))",
                    256 * num,
                    2048 * num
                ))?
            },
        ),
    };
    let (name, ptx) = tmem_names(shape, num, store);
    let (src, dst) = if store { (regs, tmem) } else { (tmem, regs) };
    Ok(CopyAtom {
        name,
        ptx,
        thr_id: lay("32:1")?,
        src,
        dst,
        reference: tmem,
    })
}

/// The CUTLASS name and the PTX of a TMEM copy ([`tmem_copy`] has checked `num`).
fn tmem_names(shape: TmemShape, num: i64, store: bool) -> (&'static str, &'static str) {
    use TmemShape::{Dp16b256, Dp32b32};
    const LD32: [&str; 8] = [
        "SM100_TMEM_LOAD_32dp32b1x",
        "SM100_TMEM_LOAD_32dp32b2x",
        "SM100_TMEM_LOAD_32dp32b4x",
        "SM100_TMEM_LOAD_32dp32b8x",
        "SM100_TMEM_LOAD_32dp32b16x",
        "SM100_TMEM_LOAD_32dp32b32x",
        "SM100_TMEM_LOAD_32dp32b64x",
        "SM100_TMEM_LOAD_32dp32b128x",
    ];
    const ST32: [&str; 8] = [
        "SM100_TMEM_STORE_32dp32b1x",
        "SM100_TMEM_STORE_32dp32b2x",
        "SM100_TMEM_STORE_32dp32b4x",
        "SM100_TMEM_STORE_32dp32b8x",
        "SM100_TMEM_STORE_32dp32b16x",
        "SM100_TMEM_STORE_32dp32b32x",
        "SM100_TMEM_STORE_32dp32b64x",
        "SM100_TMEM_STORE_32dp32b128x",
    ];
    const LD16: [&str; 6] = [
        "SM100_TMEM_LOAD_16dp256b1x",
        "SM100_TMEM_LOAD_16dp256b2x",
        "SM100_TMEM_LOAD_16dp256b4x",
        "SM100_TMEM_LOAD_16dp256b8x",
        "SM100_TMEM_LOAD_16dp256b16x",
        "SM100_TMEM_LOAD_16dp256b32x",
    ];
    const ST16: [&str; 6] = [
        "SM100_TMEM_STORE_16dp256b1x",
        "SM100_TMEM_STORE_16dp256b2x",
        "SM100_TMEM_STORE_16dp256b4x",
        "SM100_TMEM_STORE_16dp256b8x",
        "SM100_TMEM_STORE_16dp256b16x",
        "SM100_TMEM_STORE_16dp256b32x",
    ];
    let i = num.trailing_zeros() as usize;
    match (shape, store) {
        (Dp32b32, false) => (LD32[i], "tcgen05.ld.sync.aligned.32x32b.b32"),
        (Dp32b32, true) => (ST32[i], "tcgen05.st.sync.aligned.32x32b.b32"),
        (Dp16b256, false) => (LD16[i], "tcgen05.ld.sync.aligned.16x256b.b32"),
        (Dp16b256, true) => (ST16[i], "tcgen05.st.sync.aligned.16x256b.b32"),
    }
}
