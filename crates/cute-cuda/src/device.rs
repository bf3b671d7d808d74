//! The GPU: NVRTC compilation, buffers and launches, through `cudarc` with the CUDA driver and
//! NVRTC loaded at run time.
//!
//! [`Gpu::open`] first checks that both libraries can be loaded and returns
//! [`GpuError::NoDriver`] otherwise, so that a machine without CUDA gets an error, never a panic.
//! This module holds the crate's only `unsafe` code: kernel launches, whose arguments the callers
//! build from the plans that size them.
//!
//! ```
//! match cute_cuda::device::Gpu::open() {
//!     Ok(gpu) => println!("{}", gpu.name),
//!     Err(e) => println!("{e}"), // e.g. "no CUDA device: the CUDA driver library ... not found"
//! }
//! ```

use std::sync::Arc;

use cudarc::driver::sys::{CUdevice_attribute, CUevent_flags, CUfunction_attribute};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, DevicePtr, DeviceRepr, PushKernelArg,
    ValidAsZeroBits,
};
use cudarc::nvrtc::{compile_ptx_with_opts, CompileError, CompileOptions};

use crate::error::GpuError;

/// An open GPU (device 0) with one stream.
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// The device's name.
    pub name: String,
    /// Streaming multiprocessors.
    pub sm_count: i32,
    /// Compute capability.
    pub capability: (i32, i32),
}

/// A compiled kernel.
pub struct Kernel {
    func: CudaFunction,
    /// The kernel's name.
    pub name: String,
    /// Registers per thread.
    pub registers: i32,
    /// Local memory (stack frame and spills) per thread, in bytes.
    pub local_bytes: i32,
    /// The PTX NVRTC produced.
    pub ptx: String,
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
}

/// Compiles `source` to PTX with NVRTC for [`ARCH`]; needs NVRTC but no driver or device (the
/// CPU tests use it to check that generated kernels compile). A compilation error carries NVRTC's
/// log; a missing library is [`GpuError::NoDriver`].
pub fn compile_ptx(source: &str, name: &str) -> Result<String, GpuError> {
    Ok(nvrtc(source, name)?.to_src())
}

fn nvrtc(source: &str, name: &str) -> Result<cudarc::nvrtc::Ptx, GpuError> {
    // SAFETY: only loads the shared library to see whether it is there.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err(GpuError::NoDriver(
            "the NVRTC library (libnvrtc.so) was not found; add its folder to LD_LIBRARY_PATH"
                .into(),
        ));
    }
    let opts = CompileOptions {
        arch: Some(ARCH),
        options: vec!["-std=c++17".into(), "-default-device".into()],
        ..Default::default()
    };
    compile_ptx_with_opts(source, opts).map_err(|e| match e {
        CompileError::CompileError { log, .. } => GpuError::Driver {
            op: "nvrtcCompileProgram",
            message: format!("{name}: {}", log.to_string_lossy()),
        },
        other => GpuError::driver("nvrtc", other),
    })
}

/// The architecture NVRTC compiles for: Hopper with its architecture-specific features (`wgmma`,
/// `setmaxnreg`).
pub const ARCH: &str = "sm_90a";

impl Gpu {
    /// Opens device 0. Fails with [`GpuError::NoDriver`] when the CUDA driver or NVRTC cannot be
    /// loaded or no device is present.
    pub fn open() -> Result<Gpu, GpuError> {
        // SAFETY: only loads the shared library (dlopen) to see whether it is there; no symbol of
        // it is called.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(GpuError::NoDriver(
                "the CUDA driver library (libcuda.so) was not found".into(),
            ));
        }
        // SAFETY: as above, for NVRTC.
        if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
            return Err(GpuError::NoDriver(
                "the NVRTC library (libnvrtc.so) was not found; add its folder to LD_LIBRARY_PATH"
                    .into(),
            ));
        }
        let count = CudaContext::device_count().map_err(|e| GpuError::NoDriver(e.to_string()))?;
        if count < 1 {
            return Err(GpuError::NoDriver("the driver reports no device".into()));
        }
        let ctx = CudaContext::new(0).map_err(|e| GpuError::NoDriver(e.to_string()))?;
        let stream = ctx.default_stream();
        let name = ctx
            .name()
            .map_err(|e| GpuError::driver("cuDeviceGetName", e))?;
        let sm_count = ctx
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(|e| GpuError::driver("cuDeviceGetAttribute", e))?;
        let capability = ctx
            .compute_capability()
            .map_err(|e| GpuError::driver("cuDeviceGetAttribute", e))?;
        Ok(Gpu {
            ctx,
            stream,
            name,
            sm_count,
            capability,
        })
    }

    /// Compiles `source` with NVRTC for [`ARCH`] and loads the kernel `name`. A compilation error
    /// carries NVRTC's log.
    pub fn compile(&self, source: &str, name: &str) -> Result<Kernel, GpuError> {
        let ptx = nvrtc(source, name)?;
        let text = ptx.to_src();
        let module = self
            .ctx
            .load_module(ptx)
            .map_err(|e| GpuError::driver("cuModuleLoadData", e))?;
        let func = module
            .load_function(name)
            .map_err(|e| GpuError::driver("cuModuleGetFunction", e))?;
        let registers = func.num_regs().unwrap_or(-1);
        let local_bytes = func.local_size_bytes().unwrap_or(-1);
        Ok(Kernel {
            func,
            name: name.to_string(),
            registers,
            local_bytes,
            ptx: text,
        })
    }

    /// A device buffer of `n` zeros.
    pub fn zeros<T: DeviceRepr + ValidAsZeroBits>(
        &self,
        n: usize,
    ) -> Result<CudaSlice<T>, GpuError> {
        self.stream
            .alloc_zeros::<T>(n.max(1))
            .map_err(|e| GpuError::driver("cuMemAlloc", e))
    }

    /// A device copy of `host`.
    pub fn upload<T: DeviceRepr>(&self, host: &[T]) -> Result<CudaSlice<T>, GpuError> {
        self.stream
            .clone_htod(host)
            .map_err(|e| GpuError::driver("cuMemcpyHtoD", e))
    }

    /// A host copy of `dev`.
    pub fn download<T: DeviceRepr + Default + Clone>(
        &self,
        dev: &CudaSlice<T>,
    ) -> Result<Vec<T>, GpuError> {
        let v = self
            .stream
            .clone_dtoh(dev)
            .map_err(|e| GpuError::driver("cuMemcpyDtoH", e))?;
        self.sync()?;
        Ok(v)
    }

    /// The device address of element `offset` of `buf` (`offset` may be at most its length).
    pub fn ptr<T>(&self, buf: &CudaSlice<T>, offset: usize) -> u64 {
        let (p, _guard) = buf.device_ptr(&self.stream);
        p + (offset * core::mem::size_of::<T>()) as u64
    }

    /// `dst = src` for `bytes` bytes, device to device (the bandwidth reference).
    pub fn copy_d2d<T: DeviceRepr>(
        &self,
        src: &CudaSlice<T>,
        dst: &mut CudaSlice<T>,
    ) -> Result<(), GpuError> {
        self.stream
            .memcpy_dtod(src, dst)
            .map_err(|e| GpuError::driver("cuMemcpyDtoD", e))
    }

    /// Launches `k` on `grid × block` threads with `smem` bytes of dynamic shared memory.
    ///
    /// The caller guarantees that the arguments match the kernel's parameters and that every
    /// address the kernel computes from them lies in a live buffer: the kernels of this crate are
    /// generated together with the plans that size their buffers.
    pub fn launch(
        &self,
        k: &Kernel,
        grid: u32,
        block: u32,
        smem: u32,
        args: &[Arg],
    ) -> Result<(), GpuError> {
        self.launch_grid(k, (grid, 1), block, smem, args)
    }

    /// [`Gpu::launch`] on a two-dimensional grid `(x, y)`.
    pub fn launch_grid(
        &self,
        k: &Kernel,
        grid: (u32, u32),
        block: u32,
        smem: u32,
        args: &[Arg],
    ) -> Result<(), GpuError> {
        if smem > 48 * 1024 {
            k.func
                .set_attribute(
                    CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    smem as i32,
                )
                .map_err(|e| GpuError::driver("cuFuncSetAttribute", e))?;
        }
        let mut b = self.stream.launch_builder(&k.func);
        for a in args {
            match a {
                Arg::Ptr(p) | Arg::U64(p) => b.arg(p),
                Arg::I32(x) => b.arg(x),
                Arg::I64(x) => b.arg(x),
            };
        }
        let cfg = cudarc::driver::LaunchConfig {
            grid_dim: (grid.0, grid.1, 1),
            block_dim: (block, 1, 1),
            shared_mem_bytes: smem,
        };
        // SAFETY: see the contract above; the argument list is built from the same plan as the
        // kernel's source, and every buffer outlives the launch (the callers synchronize before
        // dropping them).
        unsafe { b.launch(cfg) }.map_err(|e| GpuError::driver("cuLaunchKernel", e))?;
        Ok(())
    }

    /// Waits for the stream and reports an asynchronous error of a kernel.
    pub fn sync(&self) -> Result<(), GpuError> {
        self.stream
            .synchronize()
            .map_err(|e| GpuError::driver("cuStreamSynchronize", e))
    }

    /// The median time in milliseconds of `reps` runs of `f`, each timed by CUDA events, after
    /// `warmup` untimed runs.
    pub fn time_ms(
        &self,
        warmup: usize,
        reps: usize,
        mut f: impl FnMut() -> Result<(), GpuError>,
    ) -> Result<f64, GpuError> {
        for _ in 0..warmup {
            f()?;
        }
        self.sync()?;
        let ev = |_: ()| {
            self.ctx
                .new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
                .map_err(|e| GpuError::driver("cuEventCreate", e))
        };
        let mut times = Vec::with_capacity(reps);
        for _ in 0..reps.max(1) {
            let (a, b) = (ev(())?, ev(())?);
            a.record(&self.stream)
                .map_err(|e| GpuError::driver("cuEventRecord", e))?;
            f()?;
            b.record(&self.stream)
                .map_err(|e| GpuError::driver("cuEventRecord", e))?;
            b.synchronize()
                .map_err(|e| GpuError::driver("cuEventSynchronize", e))?;
            times.push(
                a.elapsed_ms(&b)
                    .map_err(|e| GpuError::driver("cuEventElapsedTime", e))? as f64,
            );
        }
        times.sort_by(|x, y| x.total_cmp(y));
        Ok(times[times.len() / 2])
    }
}
