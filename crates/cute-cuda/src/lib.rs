//! # cute-cuda — GPU kernels planned by the CuTe layout algebra
//!
//! The paper "CuTe Layout Representation and Algebra" exists because GPU tensor instructions
//! dictate layouts that must be propagated correctly and fast. This crate takes the algebra of the
//! `cute` crate to the GPU:
//!
//! * [`atom`]: the MMA and copy instructions (`mma.sync`, `wgmma`, `ldmatrix`, `stmatrix`,
//!   `cp.async`) and the canonical shared-memory layouts of `wgmma`/TMA, as CuTe layouts;
//! * [`copy`]: COPY between any two layouts, its kernel (tiles, thread-value layouts, vectors,
//!   swizzle, predication) derived by the algebra;
//! * [`codegen`]: CUDA C++ whose every index expression is written from a layout;
//! * [`device`]: NVRTC compilation and launches through `cudarc`, loaded dynamically: this crate
//!   builds and its CPU tests run on a machine without CUDA, and every GPU entry point returns
//!   [`GpuError::NoDriver`] there instead of failing otherwise;
//! * [`verify`]: kernels that record which thread holds which element of each atom, compared with
//!   the atom's layouts;
//! * [`run`]: the checks and benchmarks behind `cute gpu`.
//!
//! ```
//! use cute_cuda::{atom::DType, copy::plan_copy};
//! let src = "(64,64,32):(1,64,4096)".parse().unwrap();  // (i,j,k), i fastest
//! let dst = "(64,64,32):(2048,32,1)".parse().unwrap();  // k fastest
//! let plan = plan_copy(&src, &dst, DType::Bf16).unwrap();
//! println!("{}", plan.describe());
//! ```

pub mod atom;
pub mod codegen;
pub mod copy;
pub mod device;
pub mod error;
pub mod gemm;
pub mod run;
pub mod verify;
pub mod wgmma;

pub use error::GpuError;
