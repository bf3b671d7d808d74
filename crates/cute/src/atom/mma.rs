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
    /// The element type of A and B.
    pub ab_type: DType,
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

/// `mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}.{bf16,f16}.f32` (SM80, used on SM90):
/// CUTLASS `MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>` and `..._F32BF16BF16F32_TN`
/// (`cute/atom/mma_traits_sm80.hpp`).
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
    let (name, ptx) = match ab {
        DType::F16 => (
            "SM80_16x8x16_F32F16F16F32_TN",
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
        ),
        DType::Bf16 => (
            "SM80_16x8x16_F32BF16BF16F32_TN",
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
        ),
        _ => {
            return Err(unsupported(
                "mma_sm80_16x8x16",
                "m16n8k16 takes f16 or bf16 operands",
            ))
        }
    };
    Ok(MmaAtom {
        name,
        ptx,
        shape_mnk: (16, 8, 16),
        ab_type: ab,
        c_type: DType::F32,
        thr_id: lay("32:1")?,
        a: lay("((4,8),(2,2,2)):((32,1),(16,8,128))")?,
        b: lay("((4,8),(2,2)):((16,1),(8,64))")?,
        c: lay("((4,8),(2,2)):((32,1),(16,8))")?,
    })
}

/// `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`: CUTLASS
/// `MMA_Traits<SM80_16x8x8_F32TF32TF32F32_TN>` (`cute/atom/mma_traits_sm80.hpp`).
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
    Ok(MmaAtom {
        name: "SM80_16x8x8_F32TF32TF32F32_TN",
        ptx: "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
        shape_mnk: (16, 8, 8),
        ab_type: DType::Tf32,
        c_type: DType::F32,
        thr_id: lay("32:1")?,
        a: lay("((4,8),(2,2)):((16,1),(8,64))")?,
        b: lay("((4,8),2):((8,1),32)")?,
        c: lay("((4,8),(2,2)):((32,1),(16,8))")?,
    })
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

/// `wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}.{bf16,f16}` with A and B read from shared
/// memory and C/D in registers: CUTLASS `MMA_Traits<SM90_64xNx16_F32BF16BF16_SS>` and
/// `..._F32F16F16_SS` (`cute/atom/mma_traits_sm90_gmma.hpp`): `ThrID = 128:1` (a warpgroup),
/// A and B as `ABLayout<M,K> = (128,(M,K)):(0,(1,M))` (every thread sees the whole tile, which the
/// shared-memory descriptor addresses) and C as `CLayout_64xN`.
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
    if !wgmma_n_valid(n) {
        return Err(unsupported(
            "wgmma_64xnx16",
            "wgmma m64nNk16 needs N a multiple of 8 in 8..=256",
        ));
    }
    let (name, ptx) = match ab {
        DType::F16 => (
            "SM90_64xNx16_F32F16F16_SS",
            "wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16",
        ),
        DType::Bf16 => (
            "SM90_64xNx16_F32BF16BF16_SS",
            "wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16",
        ),
        _ => {
            return Err(unsupported(
                "wgmma_64xnx16",
                "wgmma m64nNk16 takes f16 or bf16 operands",
            ))
        }
    };
    Ok(MmaAtom {
        name,
        ptx,
        shape_mnk: (64, n, 16),
        ab_type: ab,
        c_type: DType::F32,
        thr_id: lay("128:1")?,
        a: lay("(128,(64,16)):(0,(1,64))")?,
        b: lay(&format!("(128,({n},16)):(0,(1,{n}))"))?,
        c: lay(&format!(
            "((4,8,4),(2,2,{})):((128,1,16),(64,8,512))",
            n / 8
        ))?,
    })
}
