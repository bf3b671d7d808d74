//! A compiled and loaded kernel, and the arguments a launch passes it (below the device, so that
//! the plan cache can hold kernels without knowing the device).

use std::sync::atomic::AtomicU32;

use cudarc::driver::CudaFunction;

/// A compiled and loaded kernel.
pub struct Kernel {
    pub(crate) func: CudaFunction,
    /// The kernel's name.
    pub name: String,
    /// Registers per thread.
    pub registers: i32,
    /// Local memory (stack frame and spills) per thread, in bytes.
    pub local_bytes: i32,
    /// The dynamic shared memory the kernel has been allowed (raised once, past 48 KiB, by its
    /// first launch that needs it), so that later launches make no driver call for it.
    pub(crate) smem_allowed: AtomicU32,
}

/// A kernel argument.
#[derive(Clone, Copy, Debug)]
pub enum Arg {
    /// A device address.
    Ptr(u64),
    /// A 32-bit integer.
    I32(i32),
    /// A 64-bit integer.
    I64(i64),
    /// A 64-bit unsigned integer.
    U64(u64),
    /// A 32-bit float.
    F32(f32),
    /// A TMA descriptor by value (`CUtensorMap`'s 128 bytes, a `__grid_constant__` parameter).
    Map([u64; 16]),
}
