//! # cute-gemm — fast GEMM, GETT and CONV over CuTe layouts
//!
//! The paper's Table 3 writes every dense linear-algebra contraction as one GEMM over layouts:
//! A `(M,K)`, B `(N,K)`, C `(M,N)` (and a batch mode L), where each mode may be hierarchical. The
//! core crate [`cute`] has the reference loop ([`cute::gemm`]); this crate runs the same contract
//! through a blocked, SIMD, multithreaded CPU kernel (the `gemm` crate) and builds the layouts of
//! the two applications of the table:
//!
//! | function | what |
//! |---|---|
//! | [`gemm()`](crate::gemm()) | `C(m,n,l) += Σ_k A(m,k,l)·B(n,k,l)` for hierarchical layouts, `f32`/`f64` fast |
//! | [`plan_gemm`], [`GemmPlan`] | how a GEMM over layouts is cut into kernel calls |
//! | [`contract`] | einsum-style GETT, `"stupr,qtru->stqp"`, by folding modes into `(M,N,K,L)` |
//! | [`contract_beta`] | the same with BLAS's β: `C = A·B + β·C` (`β = 0`: einsum's overwrite) |
//! | [`im2col`], [`conv2d`] | 2-D convolution as a GEMM over the im2col layout of the input |
//!
//! ## How the layouts are used
//!
//! * **Joint coalescing** ([`plan_gemm`]): each mode is [`cute::coalesce`]d in each operand, the
//!   operands' leaves are refined to a common sequence, and sub-modes that are one stride in every
//!   operand that carries the mode are merged. A row-major `mk,kn->mn` becomes one kernel call; a
//!   GETT whose folded modes do not merge becomes a loop of kernel calls.
//! * **Folding** ([`contract`]): a GETT's modes are grouped into `((M…),(K…),(L…))` etc. by
//!   [`cute::Layout::concat`] — a new layout over the same storage, no copy.
//! * **im2col** ([`im2col`]): the convolution's `B` operand `((N,P,Q),(C,R,S))` is a layout over
//!   the input tensor (strides `(x_n, σ_h·x_h, σ_w·x_w)` and `(x_c, δ_h·x_h, δ_w·x_w)`); with
//!   padding the border is predicated with the coordinate layout (strides `1@i`, see
//!   [`cute::make_identity_layout`]).
//!
//! ## Features
//!
//! * Negative and zero strides (broadcasts) in A and B, any nesting of modes.
//! * Every refusal is a [`cute::Error`] naming the operation (`gemm`, `contract`, `conv`), the
//!   operands and the violated condition; a C that is not injective is refused.
//! * The only `unsafe` code is the call of the `gemm` crate's raw-pointer entry point, in one
//!   private module with its safety argument (bounds asserted per kernel call).
//!
//! ## Example
//!
//! ```
//! use cute::{Layout, Tensor};
//! // C_mn += Σ_k A_mk B_kn with row-major 2×3 A, 3×2 B, 2×2 C
//! let a = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0];
//! let b = [1.0f64, 0.0, 0.0, 1.0, 1.0, 1.0];
//! let mut c = [0.0f64; 4];
//! let ta = Tensor::new(&a[..], "(2,3):(3,1)".parse::<Layout>().unwrap()).unwrap();
//! let tb = Tensor::new(&b[..], "(3,2):(2,1)".parse::<Layout>().unwrap()).unwrap();
//! let mut tc = Tensor::new(&mut c[..], "(2,2):(2,1)".parse::<Layout>().unwrap()).unwrap();
//! cute_gemm::contract("mk,kn->mn", &ta, &tb, &mut tc).unwrap();
//! assert_eq!(c, [4.0, 5.0, 10.0, 11.0]);
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(missing_docs)]
#![allow(clippy::result_large_err)]

mod contract;
mod conv;
mod gemm;
mod kernel;
mod plan;

pub use contract::{contract, contract_beta, contract_modes, ContractModes};
pub use conv::{conv2d, im2col, ConvParams, Im2col};
pub use gemm::{gemm, Element};
pub use plan::{plan_gemm, GemmPlan, Joint, Mode};

/// The operation that this crate's [`contract`] and [`contract_beta`] name in their errors
/// (`cute::Op::Named("contract")`: the core's `Op` names only the core's own operations).
///
/// ```
/// use cute::{Layout, Tensor};
/// let t = Tensor::new([0.0f32; 4], "(2,2):(1,2)".parse::<Layout>().unwrap()).unwrap();
/// let mut c = Tensor::new([0.0f32; 4], "(2,2):(1,2)".parse::<Layout>().unwrap()).unwrap();
/// let e = cute_gemm::contract("mk,kn>mn", &t, &t, &mut c).unwrap_err();
/// assert_eq!(e.op(), cute_gemm::CONTRACT);
/// assert_eq!(e.op().name(), "contract");
/// ```
pub const CONTRACT: cute::Op = cute::Op::Named("contract");

/// The operation that this crate's [`conv2d`] and [`im2col`] name in their errors
/// (`cute::Op::Named("conv")`).
pub const CONV: cute::Op = cute::Op::Named("conv");
