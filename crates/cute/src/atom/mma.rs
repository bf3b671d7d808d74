//! MMA atoms: `D = A·B + C` instructions as thread-value layouts of A, B and C.

use super::{lay, unsupported, DType};
use crate::error::Error;
use crate::layout::Layout;

/// A matrix-multiply-accumulate instruction `D = A·B + C` as layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MmaAtom {
    /// CUTLASS's name of the operation (`SM80_16x8x16_F32BF16BF16F32_TN`).
    pub name: &'static str,
    /// The PTX instruction.
    pub ptx: &'static str,
    /// `(M, N, K)`.
    pub shape_mnk: (i64, i64, i64),
    /// The element type of A (and of B, but in the fp8 atoms that mix e4m3 and e5m2).
    pub ab_type: DType,
    /// The element type of B.
    pub b_type: DType,
    /// The element type of C and D.
    pub c_type: DType,
    /// Logical thread index ↦ thread index in the group that executes the instruction.
    pub thr_id: Layout,
    /// `(thread, value) ↦ (m, k)` of A.
    pub a: Layout,
    /// `(thread, value) ↦ (n, k)` of B.
    pub b: Layout,
    /// `(thread, value) ↦ (m, n)` of C and D.
    pub c: Layout,
}

impl MmaAtom {
    /// Threads that execute one instruction.
    ///
    /// ```
    /// use cute::atom::{wgmma_64xnx16, DType};
    /// assert_eq!(wgmma_64xnx16(64, DType::F16).unwrap().threads(), 128);
    /// ```
    pub fn threads(&self) -> i64 {
        self.thr_id.size()
    }

    fn coord(l: &Layout, rows: i64, t: i64, v: i64) -> Result<(i64, i64), Error> {
        let threads = l.mode(0)?.size();
        let idx = l.eval(t + threads * v)?;
        Ok((idx % rows, idx / rows))
    }

    /// The `(m, k)` coordinate of A that thread `t` holds as its value `v`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// // lane 5 = group 1, thread-in-group 1: a0 is A(1, 2)
    /// assert_eq!(mma_sm80_16x8x16(DType::F16).unwrap().a_coord(5, 0).unwrap(), (1, 2));
    /// ```
    ///
    /// # Errors
    ///
    /// `NotInDomain` when `(t, v)` is outside the atom's `(threads, values)`.
    pub fn a_coord(&self, t: i64, v: i64) -> Result<(i64, i64), Error> {
        Self::coord(&self.a, self.shape_mnk.0, t, v)
    }

    /// The `(n, k)` coordinate of B that thread `t` holds as its value `v`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// assert_eq!(mma_sm80_16x8x16(DType::F16).unwrap().b_coord(5, 1).unwrap(), (1, 3));
    /// ```
    ///
    /// # Errors
    ///
    /// `NotInDomain` when `(t, v)` is outside the atom's `(threads, values)`.
    pub fn b_coord(&self, t: i64, v: i64) -> Result<(i64, i64), Error> {
        Self::coord(&self.b, self.shape_mnk.1, t, v)
    }

    /// The `(m, n)` coordinate of C that thread `t` holds as its value `v`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// assert_eq!(mma_sm80_16x8x16(DType::F16).unwrap().c_coord(5, 2).unwrap(), (9, 2));
    /// ```
    ///
    /// # Errors
    ///
    /// `NotInDomain` when `(t, v)` is outside the atom's `(threads, values)`.
    pub fn c_coord(&self, t: i64, v: i64) -> Result<(i64, i64), Error> {
        Self::coord(&self.c, self.shape_mnk.0, t, v)
    }

    /// Values per thread of A, B and C.
    ///
    /// ```
    /// use cute::atom::mma_sm80_16x8x8_tf32;
    /// assert_eq!(mma_sm80_16x8x8_tf32().unwrap().values(), (4, 2, 4));
    /// ```
    pub fn values(&self) -> (i64, i64, i64) {
        let per = |l: &Layout| l.size() / self.threads();
        (per(&self.a), per(&self.b), per(&self.c))
    }
}

/// `mma.sync.aligned.m16n8k{K}.row.col.{c}.{ab}.{ab}.{c}` (SM80, also on SM90): the warp-level
/// MMA atoms of CUTLASS's `cute/atom/mma_traits_sm80.hpp`, by `K`, the operands' type `ab` and
/// the accumulator's `c`:
///
/// | `K` | `ab` | `c` | CUTLASS | A | B |
/// |---|---|---|---|---|---|
/// | 16 | f16, bf16 | f32 | `SM80_16x8x16_F32F16F16F32_TN`, `..._F32BF16BF16F32_TN` | `((4,8),(2,2,2)):((32,1),(16,8,128))` | `((4,8),(2,2)):((16,1),(8,64))` |
/// | 16 | f16 | f16 | `SM80_16x8x16_F16F16F16F16_TN` | as above | as above |
/// | 8 | f16, bf16 | f32 | `SM80_16x8x8_F32F16F16F32_TN`, `..._F32BF16BF16F32_TN` | `SM80_16x8_Row` `((4,8),(2,2)):((32,1),(16,8))` | `SM80_8x8_Row` `((4,8),2):((16,1),8)` |
/// | 8 | f16 | f16 | `SM80_16x8x8_F16F16F16F16_TN` | as above | as above |
/// | 8 | tf32 | f32 | `SM80_16x8x8_F32TF32TF32F32_TN` | `((4,8),(2,2)):((16,1),(8,64))` | `((4,8),2):((8,1),32)` |
///
/// C is `SM80_16x8_Row`, `((4,8),(2,2)):((32,1),(16,8))`, for every one (an f16 accumulator packs
/// two values in a register; the layout is of values).
///
/// # Errors
///
/// `Unsupported` for any other `(K, ab, c)`: CUTLASS has no such `mma.sync` atom.
///
/// ```
/// use cute::atom::{mma_sm80, DType};
/// let a = mma_sm80(8, DType::Bf16, DType::F32).unwrap();
/// assert_eq!((a.name, a.b.to_string().as_str()), ("SM80_16x8x8_F32BF16BF16F32_TN", "((4,8),2):((16,1),8)"));
/// let h = mma_sm80(16, DType::F16, DType::F16).unwrap();
/// assert_eq!(h.ptx, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
/// assert!(mma_sm80(16, DType::Bf16, DType::Bf16).is_err()); // no bf16 accumulator
/// ```
pub fn mma_sm80(k: i64, ab: DType, c: DType) -> Result<MmaAtom, Error> {
    use DType::{Bf16, Tf32, F16, F32};
    let (name, ptx) =
        match (k, ab, c) {
            (16, F16, F32) => (
                "SM80_16x8x16_F32F16F16F32_TN",
                "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            ),
            (16, Bf16, F32) => (
                "SM80_16x8x16_F32BF16BF16F32_TN",
                "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
            ),
            (16, F16, F16) => (
                "SM80_16x8x16_F16F16F16F16_TN",
                "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16",
            ),
            (8, F16, F32) => (
                "SM80_16x8x8_F32F16F16F32_TN",
                "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32",
            ),
            (8, Bf16, F32) => (
                "SM80_16x8x8_F32BF16BF16F32_TN",
                "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32",
            ),
            (8, F16, F16) => (
                "SM80_16x8x8_F16F16F16F16_TN",
                "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16",
            ),
            (8, Tf32, F32) => (
                "SM80_16x8x8_F32TF32TF32F32_TN",
                "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
            ),
            _ => return Err(unsupported(
                "mma_sm80",
                "mma.sync m16n8kK takes K = 16 with f16 or bf16 operands, or K = 8 with f16, bf16 \
                 or tf32 operands; the accumulator is f32, or f16 for f16 operands",
            )),
        };
    let (a, b) = match (k, ab) {
        (16, _) => (
            "((4,8),(2,2,2)):((32,1),(16,8,128))",
            "((4,8),(2,2)):((16,1),(8,64))",
        ),
        (_, Tf32) => ("((4,8),(2,2)):((16,1),(8,64))", "((4,8),2):((8,1),32)"),
        _ => ("((4,8),(2,2)):((32,1),(16,8))", "((4,8),2):((16,1),8)"),
    };
    Ok(MmaAtom {
        name,
        ptx,
        shape_mnk: (16, 8, k),
        ab_type: ab,
        b_type: ab,
        c_type: c,
        thr_id: lay("32:1")?,
        a: lay(a)?,
        b: lay(b)?,
        c: lay("((4,8),(2,2)):((32,1),(16,8))")?,
    })
}

/// `mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}.{bf16,f16}.f32`: [`mma_sm80`] with `K = 16`
/// and an f32 accumulator, CUTLASS `MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>` and
/// `..._F32BF16BF16F32_TN`.
///
/// # Errors
///
/// `Unsupported` for element types other than `F16` and `Bf16`.
///
/// ```
/// use cute::atom::{mma_sm80_16x8x16, DType};
/// let a = mma_sm80_16x8x16(DType::F16).unwrap();
/// assert_eq!(a.a.to_string(), "((4,8),(2,2,2)):((32,1),(16,8,128))");
/// assert_eq!(a.values(), (8, 4, 4));
/// ```
pub fn mma_sm80_16x8x16(ab: DType) -> Result<MmaAtom, Error> {
    if !matches!(ab, DType::F16 | DType::Bf16) {
        return Err(unsupported(
            "mma_sm80_16x8x16",
            "m16n8k16 takes f16 or bf16 operands",
        ));
    }
    mma_sm80(16, ab, DType::F32)
}

/// `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`: [`mma_sm80`] with tf32 operands, CUTLASS
/// `MMA_Traits<SM80_16x8x8_F32TF32TF32F32_TN>`.
///
/// ```
/// use cute::atom::mma_sm80_16x8x8_tf32;
/// let a = mma_sm80_16x8x8_tf32().unwrap();
/// assert_eq!(a.b.to_string(), "((4,8),2):((8,1),32)");
/// ```
///
/// # Errors
///
/// None in practice: the layouts are constants (a parse error would be a bug here).
pub fn mma_sm80_16x8x8_tf32() -> Result<MmaAtom, Error> {
    mma_sm80(8, DType::Tf32, DType::F32)
}

/// Which mode of an operand tile is contiguous in memory: for A `(M, K)` and B `(N, K)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Major {
    /// M (or N) contiguous: "MN-major", BLAS's N for A.
    MN,
    /// K contiguous: "K-major", BLAS's T for A.
    K,
}

/// The widths `N` that `wgmma.mma_async.m64nNk16` accepts: multiples of 8 up to 256.
///
/// ```
/// use cute::atom::wgmma_n_valid;
/// assert!(wgmma_n_valid(136) && !wgmma_n_valid(260) && !wgmma_n_valid(12));
/// ```
pub const fn wgmma_n_valid(n: i64) -> bool {
    n >= 8 && n <= 256 && n % 8 == 0
}

/// Where a `wgmma` reads A: shared memory through a descriptor (`SS`: every thread of the
/// warpgroup sees the whole tile) or the registers of the warpgroup's threads (`RS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GmmaA {
    /// A and B from shared memory (CUTLASS's `..._SS` atoms).
    SS,
    /// A from registers, B from shared memory (`..._RS`).
    RS,
}

/// The dense floating-point `wgmma` atoms of CUTLASS, `(c, a, b, where A is read, name)` with `N`
/// written `N` (its integer and sparse `wgmma` atoms are not in the catalogue).
pub(crate) const WGMMA_ATOMS: [(DType, DType, DType, GmmaA, &str); 24] = {
    use DType::{Bf16, E4m3, E5m2, Tf32, F16, F32};
    use GmmaA::{RS, SS};
    [
        (F32, F16, F16, SS, "SM90_64xNx16_F32F16F16_SS"),
        (F32, F16, F16, RS, "SM90_64xNx16_F32F16F16_RS"),
        (F16, F16, F16, SS, "SM90_64xNx16_F16F16F16_SS"),
        (F16, F16, F16, RS, "SM90_64xNx16_F16F16F16_RS"),
        (F32, Bf16, Bf16, SS, "SM90_64xNx16_F32BF16BF16_SS"),
        (F32, Bf16, Bf16, RS, "SM90_64xNx16_F32BF16BF16_RS"),
        (F32, Tf32, Tf32, SS, "SM90_64xNx8_F32TF32TF32_SS_TN"),
        (F32, Tf32, Tf32, RS, "SM90_64xNx8_F32TF32TF32_RS_TN"),
        (F32, E4m3, E4m3, SS, "SM90_64xNx32_F32E4M3E4M3_SS_TN"),
        (F32, E4m3, E4m3, RS, "SM90_64xNx32_F32E4M3E4M3_RS_TN"),
        (F32, E4m3, E5m2, SS, "SM90_64xNx32_F32E4M3E5M2_SS_TN"),
        (F32, E4m3, E5m2, RS, "SM90_64xNx32_F32E4M3E5M2_RS_TN"),
        (F32, E5m2, E4m3, SS, "SM90_64xNx32_F32E5M2E4M3_SS_TN"),
        (F32, E5m2, E4m3, RS, "SM90_64xNx32_F32E5M2E4M3_RS_TN"),
        (F32, E5m2, E5m2, SS, "SM90_64xNx32_F32E5M2E5M2_SS_TN"),
        (F32, E5m2, E5m2, RS, "SM90_64xNx32_F32E5M2E5M2_RS_TN"),
        (F16, E4m3, E4m3, SS, "SM90_64xNx32_F16E4M3E4M3_SS_TN"),
        (F16, E4m3, E4m3, RS, "SM90_64xNx32_F16E4M3E4M3_RS_TN"),
        (F16, E4m3, E5m2, SS, "SM90_64xNx32_F16E4M3E5M2_SS_TN"),
        (F16, E4m3, E5m2, RS, "SM90_64xNx32_F16E4M3E5M2_RS_TN"),
        (F16, E5m2, E4m3, SS, "SM90_64xNx32_F16E5M2E4M3_SS_TN"),
        (F16, E5m2, E4m3, RS, "SM90_64xNx32_F16E5M2E4M3_RS_TN"),
        (F16, E5m2, E5m2, SS, "SM90_64xNx32_F16E5M2E5M2_SS_TN"),
        (F16, E5m2, E5m2, RS, "SM90_64xNx32_F16E5M2E5M2_RS_TN"),
    ]
};

/// The CUTLASS name of the `wgmma` atom of `(c, a, b)` reading A from `src` (its `N` written
/// `N`), or `None` where CUTLASS has none.
fn wgmma_name(c: DType, a: DType, b: DType, src: GmmaA) -> Option<&'static str> {
    WGMMA_ATOMS
        .iter()
        .find(|w| (w.0, w.1, w.2, w.3) == (c, a, b, src))
        .map(|w| w.4)
}

/// The PTX instruction of `(c, a, b)`: `wgmma.mma_async.sync.aligned.m64nNk{K}.{c}.{a}.{b}`
/// (the same for A in registers).
fn wgmma_ptx(c: DType, a: DType, b: DType) -> Option<&'static str> {
    use DType::{Bf16, E4m3, E5m2, Tf32, F16, F32};
    Some(match (c, a, b) {
        (F32, F16, F16) => "wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16",
        (F16, F16, F16) => "wgmma.mma_async.sync.aligned.m64nNk16.f16.f16.f16",
        (F32, Bf16, Bf16) => "wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16",
        (F32, Tf32, Tf32) => "wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32",
        (F32, E4m3, E4m3) => "wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e4m3",
        (F32, E4m3, E5m2) => "wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e5m2",
        (F32, E5m2, E4m3) => "wgmma.mma_async.sync.aligned.m64nNk32.f32.e5m2.e4m3",
        (F32, E5m2, E5m2) => "wgmma.mma_async.sync.aligned.m64nNk32.f32.e5m2.e5m2",
        (F16, E4m3, E4m3) => "wgmma.mma_async.sync.aligned.m64nNk32.f16.e4m3.e4m3",
        (F16, E4m3, E5m2) => "wgmma.mma_async.sync.aligned.m64nNk32.f16.e4m3.e5m2",
        (F16, E5m2, E4m3) => "wgmma.mma_async.sync.aligned.m64nNk32.f16.e5m2.e4m3",
        (F16, E5m2, E5m2) => "wgmma.mma_async.sync.aligned.m64nNk32.f16.e5m2.e5m2",
        _ => return None,
    })
}

/// `wgmma.mma_async.sync.aligned.m64nNk{K}.{c}.{a}.{b}` (SM90): the warpgroup MMA atoms of
/// CUTLASS's `cute/atom/mma_traits_sm90_gmma.hpp`, `K = 256 / bits(a)` (16 for f16 and bf16, 8
/// for tf32, 32 for e4m3 and e5m2), A read as `src` says:
///
/// * `ThrID = 128:1`, a warpgroup;
/// * A from shared memory (`SS`): `ABLayout<64,K> = (128,(64,K)):(0,(1,64))`, every thread sees
///   the whole tile, which the descriptor addresses; A from registers (`RS`): CUTLASS's
///   `ALayout_64x{K}`, `((4,8,4),(2,2)):((64,1,16),(8,256))` for 32-bit types,
///   `((4,8,4),(2,2,2)):((128,1,16),(64,8,512))` for 16-bit ones and
///   `((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))` for 8-bit ones;
/// * B always from shared memory, `ABLayout<N,K>`;
/// * C `CLayout_64xN = ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))` (an f16 accumulator packs two
///   values in a register; the layout is of values).
///
/// The floating-point types CUTLASS has (its integer and sparse `wgmma` atoms are not here):
/// f16 × f16 into f32 or f16; bf16 × bf16 and tf32 × tf32 into f32; e4m3 or e5m2 × e4m3 or e5m2
/// into f32 or f16 (the tf32 and fp8 atoms read K-major tiles only, CUTLASS's `_TN`).
///
/// # Errors
///
/// `Unsupported` for an `n` that is not a multiple of 8 in `8..=256`, and for types CUTLASS has
/// no `wgmma` atom of.
///
/// ```
/// use cute::atom::{wgmma, DType, GmmaA};
/// let rs = wgmma(64, DType::Bf16, DType::Bf16, DType::F32, GmmaA::RS).unwrap();
/// assert_eq!(rs.name, "SM90_64xNx16_F32BF16BF16_RS");
/// assert_eq!(rs.a.to_string(), "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))");
/// let f8 = wgmma(128, DType::E4m3, DType::E5m2, DType::F16, GmmaA::SS).unwrap();
/// assert_eq!((f8.shape_mnk, f8.b_type), ((64, 128, 32), DType::E5m2));
/// assert_eq!(f8.ptx, "wgmma.mma_async.sync.aligned.m64nNk32.f16.e4m3.e5m2");
/// assert!(wgmma(64, DType::Bf16, DType::Bf16, DType::F16, GmmaA::SS).is_err());
/// ```
pub fn wgmma(n: i64, a: DType, b: DType, c: DType, src: GmmaA) -> Result<MmaAtom, Error> {
    if !wgmma_n_valid(n) {
        return Err(unsupported(
            "wgmma",
            "wgmma m64nNk needs N a multiple of 8 in 8..=256",
        ));
    }
    let (Some(name), Some(ptx)) = (wgmma_name(c, a, b, src), wgmma_ptx(c, a, b)) else {
        return Err(unsupported(
            "wgmma",
            "wgmma takes f16 x f16 into f32 or f16, bf16 x bf16 or tf32 x tf32 into f32, and \
             e4m3/e5m2 x e4m3/e5m2 into f32 or f16",
        ));
    };
    let k = 256 / a.bits();
    let a_layout = match (src, a.bits()) {
        (GmmaA::SS, _) => format!("(128,(64,{k})):(0,(1,64))"),
        (GmmaA::RS, 32) => "((4,8,4),(2,2)):((64,1,16),(8,256))".to_string(),
        (GmmaA::RS, 16) => "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))".to_string(),
        (GmmaA::RS, _) => "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))".to_string(),
    };
    Ok(MmaAtom {
        name,
        ptx,
        shape_mnk: (64, n, k),
        ab_type: a,
        b_type: b,
        c_type: c,
        thr_id: lay("128:1")?,
        a: lay(&a_layout)?,
        b: lay(&format!("(128,({n},{k})):(0,(1,{n}))"))?,
        c: lay(&format!(
            "((4,8,4),(2,2,{})):((128,1,16),(64,8,512))",
            n / 8
        ))?,
    })
}

/// `wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}.{bf16,f16}` with A and B read from shared
/// memory: [`wgmma`] with an f32 accumulator and `SS`, CUTLASS `MMA_Traits<SM90_64xNx16_F32BF16BF16_SS>`
/// and `..._F32F16F16_SS`.
///
/// # Errors
///
/// `Unsupported` for an `n` that is not a multiple of 8 in `8..=256`, and for types other than
/// `F16` and `Bf16`.
///
/// ```
/// use cute::atom::{wgmma_64xnx16, DType};
/// let a = wgmma_64xnx16(128, DType::Bf16).unwrap();
/// assert_eq!(a.c.to_string(), "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))");
/// assert_eq!(a.a.to_string(), "(128,(64,16)):(0,(1,64))");
/// ```
pub fn wgmma_64xnx16(n: i64, ab: DType) -> Result<MmaAtom, Error> {
    if !matches!(ab, DType::F16 | DType::Bf16) {
        return Err(unsupported(
            "wgmma_64xnx16",
            "wgmma m64nNk16 takes f16 or bf16 operands",
        ));
    }
    if !wgmma_n_valid(n) {
        return Err(unsupported(
            "wgmma_64xnx16",
            "wgmma m64nNk16 needs N a multiple of 8 in 8..=256",
        ));
    }
    wgmma(n, ab, ab, DType::F32, GmmaA::SS)
}
