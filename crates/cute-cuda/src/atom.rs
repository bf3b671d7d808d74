//! Atoms: the GPU's tensor and copy instructions as CuTe layouts.
//!
//! An instruction is executed by a fixed group of threads, each holding a fixed set of values; the
//! paper's point is that the instruction *is* a pair of layouts. Every atom here is data: the
//! thread-value (TV) layouts of its operands, written in CuTe notation with the values CUTLASS
//! uses (the CUTLASS file and type each one comes from is named next to it), the PTX instruction it
//! stands for, and its element types.
//!
//! * **MMA atoms** ([`MmaAtom`]): `(thread, value) ↦ (m, k)`, `(n, k)` and `(m, n)` coordinates,
//!   each coordinate written as its colexicographic index in the atom's `(M, K)`, `(N, K)` and
//!   `(M, N)` tile (so `(m, k) ↦ m + M·k`).
//! * **Copy atoms** ([`CopyAtom`]): `(thread, bit)` ↦ bit of the logical data moved, for the source
//!   and the destination: the value with index `x` moves from the source thread and bit with
//!   `src(t, b) = x` to the destination thread and bit with `dst(t', b') = x`.
//! * **Shared-memory atoms** ([`gmma_smem_atom`]): the canonical layouts that `wgmma` and TMA read
//!   and write, as `Sw<B,M,S> ∘ layout` in elements.
//!
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

use cute::{upcast, ComposedLayout, Layout, Swizzle};

use crate::error::GpuError as Error;

/// The element types: those of the atoms (`F32`, `F16`, `Bf16`, `Tf32`) and the integer and
/// 64-bit types that COPY moves (a COPY moves bits: only the width matters to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// IEEE binary32.
    F32,
    /// IEEE binary16.
    F16,
    /// bfloat16.
    Bf16,
    /// TensorFloat-32 (stored in 32 bits).
    Tf32,
    /// IEEE binary64.
    F64,
    /// Signed 8-bit integer.
    I8,
    /// Unsigned 8-bit integer (also booleans and raw bytes).
    U8,
    /// Signed 16-bit integer.
    I16,
    /// Signed 32-bit integer.
    I32,
    /// Signed 64-bit integer.
    I64,
}

impl DType {
    /// Every element type, in the order of their names in [`DType::NAMES`].
    pub const ALL: [DType; 10] = [
        DType::F32,
        DType::F16,
        DType::Bf16,
        DType::Tf32,
        DType::F64,
        DType::I8,
        DType::U8,
        DType::I16,
        DType::I32,
        DType::I64,
    ];

    /// Bits per element as stored.
    pub const fn bits(self) -> i64 {
        match self {
            DType::F32 | DType::Tf32 | DType::I32 => 32,
            DType::F16 | DType::Bf16 | DType::I16 => 16,
            DType::F64 | DType::I64 => 64,
            DType::I8 | DType::U8 => 8,
        }
    }

    /// Bytes per element as stored.
    pub const fn bytes(self) -> i64 {
        self.bits() / 8
    }

    /// The name PTX uses in instruction types (`f32`, `f16`, `bf16`, `tf32`, `f64`, `s8`, `u8`,
    /// `s16`, `s32`, `s64`).
    pub const fn ptx(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F16 => "f16",
            DType::Bf16 => "bf16",
            DType::Tf32 => "tf32",
            DType::F64 => "f64",
            DType::I8 => "s8",
            DType::U8 => "u8",
            DType::I16 => "s16",
            DType::I32 => "s32",
            DType::I64 => "s64",
        }
    }

    /// The unsigned integer type of the same width in CUDA C++ (kernels move bits).
    ///
    /// ```
    /// use cute_cuda::atom::DType;
    /// assert_eq!(DType::Bf16.cuda_bits_type(), "unsigned short");
    /// assert_eq!(DType::I64.cuda_bits_type(), "unsigned long long");
    /// ```
    pub const fn cuda_bits_type(self) -> &'static str {
        match self.bits() {
            8 => "unsigned char",
            16 => "unsigned short",
            32 => "unsigned int",
            _ => "unsigned long long",
        }
    }

    /// The type named by `name`: the PTX name (`bf16`, `s32`, …) or the usual short names
    /// (`f32`, `float32`, `bfloat16`, `half`, `i8`, `int64`, `uint8`, `bool`, `f64`, `double`).
    ///
    /// ```
    /// use cute_cuda::atom::DType;
    /// assert_eq!(DType::parse("bfloat16"), Some(DType::Bf16));
    /// assert_eq!(DType::parse("int32"), Some(DType::I32));
    /// assert_eq!(DType::parse("complex64"), None);
    /// ```
    pub fn parse(name: &str) -> Option<DType> {
        Some(match name {
            "f32" | "float32" | "float" => DType::F32,
            "f16" | "float16" | "half" => DType::F16,
            "bf16" | "bfloat16" => DType::Bf16,
            "tf32" => DType::Tf32,
            "f64" | "float64" | "double" => DType::F64,
            "s8" | "i8" | "int8" => DType::I8,
            "u8" | "uint8" | "bool" | "byte" => DType::U8,
            "s16" | "i16" | "int16" => DType::I16,
            "s32" | "i32" | "int32" | "int" => DType::I32,
            "s64" | "i64" | "int64" | "long" => DType::I64,
            _ => return None,
        })
    }

    /// The names [`DType::parse`] knows, for error messages.
    pub const NAMES: &'static str = "f32, f16, bf16, tf32, f64, i8, u8, i16, i32, i64";
}

impl core::fmt::Display for DType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.ptx())
    }
}

/// A matrix-multiply-accumulate instruction `D = A·B + C` as layouts.
#[derive(Clone, Debug, PartialEq, Eq)]
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

fn lay(s: &str) -> Result<Layout, Error> {
    Ok(s.parse::<Layout>()?)
}

impl MmaAtom {
    /// Threads that execute one instruction.
    pub fn threads(&self) -> i64 {
        self.thr_id.size()
    }

    fn coord(l: &Layout, rows: i64, t: i64, v: i64) -> Result<(i64, i64), Error> {
        let threads = l.mode(0)?.size();
        let idx = l.eval(t + threads * v)?;
        Ok((idx % rows, idx / rows))
    }

    /// The `(m, k)` coordinate of A that thread `t` holds as its value `v`.
    pub fn a_coord(&self, t: i64, v: i64) -> Result<(i64, i64), Error> {
        Self::coord(&self.a, self.shape_mnk.0, t, v)
    }

    /// The `(n, k)` coordinate of B that thread `t` holds as its value `v`.
    pub fn b_coord(&self, t: i64, v: i64) -> Result<(i64, i64), Error> {
        Self::coord(&self.b, self.shape_mnk.1, t, v)
    }

    /// The `(m, n)` coordinate of C that thread `t` holds as its value `v`.
    pub fn c_coord(&self, t: i64, v: i64) -> Result<(i64, i64), Error> {
        Self::coord(&self.c, self.shape_mnk.0, t, v)
    }

    /// Values per thread of A, B and C.
    pub fn values(&self) -> (i64, i64, i64) {
        let per = |l: &Layout| l.size() / self.threads();
        (per(&self.a), per(&self.b), per(&self.c))
    }
}

/// `mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}.{bf16,f16}.f32` (SM80, used on SM90):
/// CUTLASS `MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>` and `..._F32BF16BF16F32_TN`
/// (`cute/atom/mma_traits_sm80.hpp`).
///
/// Fails for element types other than `F16` and `Bf16`.
///
/// ```
/// use cute_cuda::atom::{mma_sm80_16x8x16, DType};
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
        _ => return Err(unsupported("m16n8k16 takes f16 or bf16 operands")),
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
/// use cute_cuda::atom::mma_sm80_16x8x8_tf32;
/// let a = mma_sm80_16x8x8_tf32().unwrap();
/// assert_eq!(a.b.to_string(), "((4,8),2):((8,1),32)");
/// ```
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
pub const fn wgmma_n_valid(n: i64) -> bool {
    n >= 8 && n <= 256 && n % 8 == 0
}

/// `wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}.{bf16,f16}` with A and B read from shared
/// memory and C/D in registers: CUTLASS `MMA_Traits<SM90_64xNx16_F32BF16BF16_SS>` and
/// `..._F32F16F16_SS` (`cute/atom/mma_traits_sm90_gmma.hpp`): `ThrID = 128:1` (a warpgroup),
/// A and B as `ABLayout<M,K> = (128,(M,K)):(0,(1,M))` (every thread sees the whole tile, which the
/// shared-memory descriptor addresses) and C as `CLayout_64xN`.
///
/// Fails for an `n` that is not a multiple of 8 in `8..=256`, and for types other than `F16` and
/// `Bf16`.
///
/// ```
/// use cute_cuda::atom::{wgmma_64xnx16, DType};
/// let a = wgmma_64xnx16(128, DType::Bf16).unwrap();
/// assert_eq!(a.c.to_string(), "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))");
/// assert_eq!(a.a.to_string(), "(128,(64,16)):(0,(1,64))");
/// ```
pub fn wgmma_64xnx16(n: i64, ab: DType) -> Result<MmaAtom, Error> {
    if !wgmma_n_valid(n) {
        return Err(unsupported(
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
        _ => return Err(unsupported("wgmma m64nNk16 takes f16 or bf16 operands")),
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

/// A copy instruction as layouts: `(thread, bit) ↦ bit` of the data moved, on the source and on the
/// destination side.
#[derive(Clone, Debug, PartialEq, Eq)]
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
}

impl CopyAtom {
    /// Threads that execute one instruction.
    pub fn threads(&self) -> i64 {
        self.thr_id.size()
    }

    /// The bit of the moved data that source thread `t` holds at its bit `b`.
    pub fn src_bit(&self, t: i64, b: i64) -> Result<i64, Error> {
        Ok(self.src.eval(t + self.threads() * b)?)
    }

    /// The bit of the moved data that destination thread `t` holds at its bit `b`.
    pub fn dst_bit(&self, t: i64, b: i64) -> Result<i64, Error> {
        Ok(self.dst.eval(t + self.threads() * b)?)
    }

    /// Bits per thread on the source and on the destination side.
    pub fn bits_per_thread(&self) -> (i64, i64) {
        let t = self.threads();
        (self.src.size() / t, self.dst.size() / t)
    }

    /// The source and destination layouts in elements of `bits` bits (`upcast`), as CuTe's
    /// `Copy_Atom<Op, T>` uses them.
    ///
    /// ```
    /// use cute_cuda::atom::ldmatrix;
    /// let (s, d) = ldmatrix(4, false).unwrap().in_elements(16).unwrap();
    /// assert_eq!(s.to_string(), "(32,8):(8,1)");
    /// assert_eq!(d.to_string(), "(32,(2,4)):(2,(1,64))");
    /// ```
    pub fn in_elements(&self, bits: i64) -> Result<(Layout, Layout), Error> {
        Ok((upcast(&self.src, bits)?, upcast(&self.dst, bits)?))
    }
}

/// `ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`: CUTLASS `SM75_U32x{1,2,4}_LDSM_N` and
/// `SM75_U16x{2,4,8}_LDSM_T` (`cute/atom/copy_traits_sm75.hpp`). Each of the first `8·num` threads
/// supplies the address of one 16-byte row; each thread receives `num` 32-bit registers.
///
/// Fails for `num` other than 1, 2 and 4.
///
/// ```
/// use cute_cuda::atom::ldmatrix;
/// let a = ldmatrix(1, true).unwrap();
/// assert_eq!(a.name, "SM75_U16x2_LDSM_T");
/// assert_eq!(a.dst.to_string(), "((4,8),(16,2)):((256,16),(1,128))");
/// ```
pub fn ldmatrix(num: i64, trans: bool) -> Result<CopyAtom, Error> {
    let src = match num {
        1 => "((8,4),128):((128,0),1)",
        2 => "((16,2),128):((128,0),1)",
        4 => "(32,128):(128,1)",
        _ => return Err(unsupported("ldmatrix moves 1, 2 or 4 matrices")),
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
    Ok(CopyAtom {
        name,
        ptx,
        thr_id: lay("32:1")?,
        src: lay(src)?,
        dst: lay(dst)?,
    })
}

/// `stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16` (SM90): CUTLASS
/// `SM90_U32x{1,2,4}_STSM_N` and `SM90_U16x{2,4,8}_STSM_T` (`cute/atom/copy_traits_sm90.hpp`), the
/// mirror of [`ldmatrix`]: source and destination exchanged.
///
/// ```
/// use cute_cuda::atom::{ldmatrix, stmatrix};
/// let (l, s) = (ldmatrix(2, false).unwrap(), stmatrix(2, false).unwrap());
/// assert_eq!((s.src, s.dst), (l.dst, l.src));
/// ```
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
    })
}

/// `cp.async.cg.shared.global [dst], [src], 16`: CUTLASS
/// `SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>` (`cute/atom/copy_traits_sm80.hpp`): one thread moves 128
/// bits, `(1,128):(0,1)` on both sides.
///
/// ```
/// use cute_cuda::atom::cp_async_16b;
/// assert_eq!(cp_async_16b().unwrap().src.to_string(), "(1,128):(0,1)");
/// ```
pub fn cp_async_16b() -> Result<CopyAtom, Error> {
    Ok(CopyAtom {
        name: "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>",
        ptx: "cp.async.cg.shared.global",
        thr_id: lay("1:1")?,
        src: lay("(1,128):(0,1)")?,
        dst: lay("(1,128):(0,1)")?,
    })
}

/// The swizzle modes of the `wgmma` shared-memory descriptor and of TMA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GmmaSwizzle {
    /// No swizzle ("interleave"): 16-byte rows of 8-row core matrices.
    None,
    /// 32-byte swizzle.
    B32,
    /// 64-byte swizzle.
    B64,
    /// 128-byte swizzle.
    B128,
}

impl GmmaSwizzle {
    /// Bytes per swizzled row (16 for no swizzle).
    pub const fn row_bytes(self) -> i64 {
        match self {
            GmmaSwizzle::None => 16,
            GmmaSwizzle::B32 => 32,
            GmmaSwizzle::B64 => 64,
            GmmaSwizzle::B128 => 128,
        }
    }

    /// The XOR bits `B` of the swizzle `Sw<B,4,3>` on byte addresses.
    pub const fn bits(self) -> i64 {
        match self {
            GmmaSwizzle::None => 0,
            GmmaSwizzle::B32 => 1,
            GmmaSwizzle::B64 => 2,
            GmmaSwizzle::B128 => 3,
        }
    }

    /// The `layout_type` field of the `wgmma` matrix descriptor (bits 62–63).
    pub const fn descriptor_code(self) -> u64 {
        match self {
            GmmaSwizzle::None => 0,
            GmmaSwizzle::B128 => 1,
            GmmaSwizzle::B64 => 2,
            GmmaSwizzle::B32 => 3,
        }
    }

    /// Every mode, smallest first.
    pub const ALL: [GmmaSwizzle; 4] = [
        GmmaSwizzle::None,
        GmmaSwizzle::B32,
        GmmaSwizzle::B64,
        GmmaSwizzle::B128,
    ];
}

/// The canonical shared-memory layout atom of `wgmma` and TMA, in **bits**, as CUTLASS writes it
/// (`GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom_Bits`, `cute/atom/mma_traits_sm90_gmma.hpp`):
/// K-major `Sw<B,4,3> ∘ (8, W):(W, 1)` and MN-major `Sw<B,4,3> ∘ (W, 8):(1, W)` with `W` the row
/// width in bits, where the swizzle acts on the **byte** address (CUTLASS applies it to the
/// pointer; the layout of bits is the row-major `8 × W` or column-major `W × 8` tile).
///
/// Returns the swizzle (on byte addresses) and the layout in bits.
pub fn gmma_smem_atom_bits(major: Major, sw: GmmaSwizzle) -> Result<(Swizzle, Layout), Error> {
    let w = sw.row_bytes() * 8;
    let l = match major {
        Major::K => lay(&format!("(8,{w}):({w},1)"))?,
        Major::MN => lay(&format!("({w},8):(1,{w})"))?,
    };
    Ok((Swizzle::new(sw.bits(), 4, 3)?, l))
}

/// The canonical shared-memory layout atom of `wgmma` and TMA in **elements** of `elem_bits` bits:
/// `upcast` of [`gmma_smem_atom_bits`]'s layout, with the byte swizzle `Sw<B,4,3>` rewritten on
/// element offsets as `Sw<B, 4 - log2(bytes), 3>` (the same XOR of byte-address bits 4–6 with bits
/// 7–9). For 16-bit elements and 128-byte rows, K-major: `Sw<3,3,3> o 0 o (8,64):(64,1)`.
///
/// Fails for element sizes other than 8, 16 and 32 bits.
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
    let log_bytes = match elem_bits {
        8 => 0,
        16 => 1,
        32 => 2,
        _ => {
            return Err(unsupported(
                "wgmma shared-memory atoms take 8-, 16- or 32-bit elements",
            ))
        }
    };
    let (_, bits) = gmma_smem_atom_bits(major, sw)?;
    let l = upcast(&bits, elem_bits)?;
    Ok(ComposedLayout::new(
        Swizzle::new(sw.bits(), 4 - log_bytes, 3)?,
        0,
        l,
    ))
}

fn unsupported(what: &'static str) -> Error {
    Error::unsupported("atom", what)
}
