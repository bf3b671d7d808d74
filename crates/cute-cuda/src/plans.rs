//! The library's plan cache entries: what a plan depends on (its key) and what a launch needs
//! (its kernel and launch shape). The cache itself is the device's ([`crate::device::Gpu`]).

use std::sync::{Arc, Mutex};

use cute::Layout;

use crate::atom::DType;
use crate::kernel::{Arg, Kernel};
use crate::tma::TmaCopy;

/// What a plan depends on: the key of the device's plan cache.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PlanKey {
    Copy(Box<CopyKey>),
    Gemm(Box<GemmKey>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CopyKey {
    pub(crate) src: Layout,
    pub(crate) dst: Layout,
    pub(crate) dtype: DType,
    pub(crate) align: (i64, i64),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct GemmKey {
    pub(crate) a: Layout,
    pub(crate) b: Layout,
    pub(crate) c: Layout,
    pub(crate) ab: DType,
    pub(crate) c_type: DType,
    pub(crate) align: [i64; 2],
}

/// What planning gives before compiling: the kernel's source and name, the launch shape, how the
/// plan runs, and the TMA copies whose descriptors each launch encodes.
pub(crate) struct Planned {
    pub(crate) source: String,
    pub(crate) name: String,
    pub(crate) grid: (u32, u32),
    pub(crate) block: u32,
    pub(crate) smem: u32,
    pub(crate) kind: String,
    pub(crate) tma: Vec<TmaCopy>,
    /// CTAs per cluster (1 without clusters).
    pub(crate) cluster: u32,
    /// Bytes of workspace each launch passes ([`crate::gemm::GemmKernel::workspace`]).
    pub(crate) workspace: u64,
}

/// The addresses of A, B and C and the launch arguments encoded for them: A's and B's TMA
/// descriptors, and C's descriptor with its flag (None where the kernel stores C from registers
/// only).
pub(crate) type EncodedMaps = ([u64; 3], ([[u64; 16]; 2], Option<[Arg; 2]>));

/// A plan ready to launch: its kernel and launch shape.
pub(crate) struct Prepared {
    pub(crate) kernel: Arc<Kernel>,
    pub(crate) grid: (u32, u32),
    pub(crate) block: u32,
    pub(crate) smem: u32,
    /// How the plan runs (`wgmma 128x256x64`, `transpose 64x64 v4`, …).
    pub(crate) kind: String,
    /// The TMA copies of A and B, and C's where the kernel stores it by TMA (empty: the kernel
    /// takes addresses).
    pub(crate) tma: Vec<TmaCopy>,
    /// The descriptors of the last launch and the addresses of A, B and C they were encoded for,
    /// so that repeated launches on the same memory encode nothing.
    pub(crate) maps: Mutex<Option<EncodedMaps>>,
    /// Bytes of workspace each launch passes ([`crate::gemm::GemmKernel::workspace`]).
    pub(crate) workspace: u64,
}
