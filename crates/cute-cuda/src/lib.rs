//! # cute-cuda — GPU kernels planned by the CuTe layout algebra, as a library
//!
//! The paper "CuTe Layout Representation and Algebra" exists because GPU tensor instructions
//! dictate layouts that must be propagated correctly and fast. This crate takes the algebra of the
//! `cute` crate to the GPU, for any caller's tensors:
//!
//! * [`api`]: COPY between any two layouts, GEMM and einsum-style contractions ([`Gpu::copy`],
//!   [`Gpu::gemm`], [`Gpu::contract`]) on [`tensor::DeviceTensor`]s, launched on the caller's
//!   stream, each plan compiled once; a [`Plan`] ([`Gpu::plan_copy`], [`Gpu::plan_contract`])
//!   made once and launched per call ([`Gpu::launch_plan`]) with no planning and no layout checks;
//! * [`tensor`]: device memory, owned or borrowed from another library, viewed through a layout
//!   and checked against its buffer;
//! * [`device`]: a device's context, kernel launches and the caches; [`compile`]: NVRTC to PTX
//!   and CUBIN; [`cache`]: the in-memory and on-disk caches of compiled kernels;
//! * planning and code generation: [`copy`] (COPY: tiles, thread-value layouts, vectors, swizzle,
//!   predication), [`gemm`] (the portable `mma.sync` GEMM/GETT), [`wgmma`] (the Hopper GEMM),
//!   [`codegen`] (CUDA C++ whose every index expression is written from a layout);
//! * [`atom`]: the MMA and copy instructions (`mma.sync`, `wgmma`, `ldmatrix`, `stmatrix`,
//!   `cp.async`) and the canonical shared-memory layouts of `wgmma`/TMA, as CuTe layouts;
//!   [`verify`]: kernels that record which thread holds which element of each atom;
//! * [`tma`]: the TMA copy atom derived from layouts: the `cuTensorMapEncodeTiled` parameters
//!   and the tiles' coordinates (a layout with coordinate strides) from a global layout, a tile
//!   and the tile's shared-memory layout; the CUDA source of TMA loads and stores; a checked
//!   tile-by-tile copy on the device;
//! * [`cases`]: the checks' and benchmarks' cases, which `cute gpu` runs.
//!
//! The CUDA driver and NVRTC are loaded when first used: this crate builds and its CPU tests run on
//! a machine without CUDA, and every GPU entry point returns [`GpuError::NoDriver`] there instead
//! of failing otherwise.
//!
//! ```
//! use cute_cuda::{atom::DType, copy::plan_copy};
//! let src = "(64,64,32):(1,64,4096)".parse().unwrap();  // (i,j,k), i fastest
//! let dst = "(64,64,32):(2048,32,1)".parse().unwrap();  // k fastest
//! let plan = plan_copy(&src, &dst, DType::Bf16).unwrap();
//! println!("{}", plan.describe());
//! ```

pub mod api;
pub mod atom;
pub mod cache;
pub mod cases;
pub mod codegen;
pub mod compile;
pub mod copy;
pub mod device;
pub mod error;
pub mod gemm;
pub mod kernel;
pub mod partition;
mod plans;
mod skeleton;
pub mod tensor;
pub mod tma;
pub mod tma_gemm;
pub mod verify;
pub mod wgmma;
mod workspace;

pub use api::{Launched, Plan};
pub use device::{Gpu, Stream};
pub use error::GpuError;
pub use tensor::{DeviceBuffer, DeviceTensor};
