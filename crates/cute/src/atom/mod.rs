//! Atoms: the GPU's tensor and copy instructions as CuTe layouts (data only: no CUDA).
//!
//! An instruction is executed by a fixed group of threads, each holding a fixed set of values; the
//! paper's point is that the instruction *is* a pair of layouts. Every atom here is data: the
//! thread-value (TV) layouts of its operands, written in CuTe notation with the values CUTLASS
//! uses (the CUTLASS file and type each one comes from is named next to it), the PTX instruction it
//! stands for, and its element types. The tiled MMAs and copies of [`crate::tiled`] are built from
//! them; the crate `cute-cuda` turns them into kernels.
//!
//! * **MMA atoms** ([`MmaAtom`], [`mma`]): `(thread, value) ↦ (m, k)`, `(n, k)` and `(m, n)`
//!   coordinates, each coordinate written as its colexicographic index in the atom's `(M, K)`,
//!   `(N, K)` and `(M, N)` tile (so `(m, k) ↦ m + M·k`).
//! * **Copy atoms** ([`CopyAtom`], [`copy`]): `(thread, bit)` ↦ bit of the logical data moved, for
//!   the source and the destination: the value with index `x` moves from the source thread and bit
//!   with `src(t, b) = x` to the destination thread and bit with `dst(t', b') = x`.
//! * **Shared-memory atoms** ([`gmma_smem_atom`], [`smem`]): the canonical layouts that `wgmma` and
//!   TMA read and write, as `Sw<B,M,S> ∘ layout` in elements.
//!
//! The catalogue: `mma.sync` m16n8k16 and m16n8k8 of f16, bf16 and tf32 with f32 or f16
//! accumulators ([`mma_sm80`]); CUTLASS's dense floating-point `wgmma`, A from shared memory or
//! registers, f16/bf16/tf32/e4m3/e5m2 into f32 or f16 ([`wgmma`]); `ldmatrix`, `stmatrix`,
//! `cp.async` of 4 to 16 bytes with and without zero fill ([`cp_async`]), plain loads and stores,
//! and the TMA's bulk tensor copies ([`tma`]). The Blackwell atoms, `tcgen05.mma` ([`umma`]) and
//! the TMEM copies ([`tmem_copy`]), are layouts checked against CUTLASS's traits on the CPU only:
//! there is no Blackwell GPU here ([`sm100`]).
//!
//! ```
//! use cute::atom::{mma_sm80_16x8x16, DType};
//! let atom = mma_sm80_16x8x16(DType::Bf16).unwrap();
//! assert_eq!(atom.c.to_string(), "((4,8),(2,2)):((32,1),(16,8))");
//! // thread 5 holds C(m, n) = C(1, 2) as its value 0
//! assert_eq!(atom.c_coord(5, 0).unwrap(), (1, 2));
//! ```

pub mod copy;
pub mod dtype;
pub mod mma;
pub mod named;
pub mod sm100;
pub mod smem;

pub use copy::{
    cp_async, cp_async_16b, ldmatrix, stmatrix, tma, universal_copy, CopyAtom, CpAsyncCache,
};
pub use dtype::DType;
pub use mma::{
    mma_sm80, mma_sm80_16x8x16, mma_sm80_16x8x8_tf32, wgmma, wgmma_64xnx16, wgmma_n_valid, GmmaA,
    Major, MmaAtom,
};
pub use named::{copy_atom_named, mma_atom_named, COPY_ATOM_NAMES, MMA_ATOM_NAMES};
pub use sm100::{tmem_copy, umma, TmemShape, UmmaA};
pub use smem::{gmma_smem_atom, gmma_smem_atom_bits, GmmaSwizzle};

use crate::error::{Error, ErrorKind, Op};
use crate::layout::Layout;

/// A layout written in CuTe notation by this module (always valid: the tests parse every one).
pub(crate) fn lay(s: &str) -> Result<Layout, Error> {
    s.parse::<Layout>()
}

/// An `Unsupported` error of the atom constructor `op`.
pub(crate) const fn unsupported(op: &'static str, what: &'static str) -> Error {
    Error::new(Op::Named(op), ErrorKind::Unsupported { what })
}
