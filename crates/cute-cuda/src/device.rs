//! The GPU: a device's context, its compiled kernels (cached in memory and on disk), buffers and
//! launches, through `cudarc` with the CUDA driver and NVRTC loaded at run time.
//!
//! [`Gpu::shared`] opens a device once per process (the driver's primary context, the one CUDA's
//! runtime and therefore PyTorch, CuPy and JAX use) and returns the same [`Gpu`] to every caller.
//! It first checks that the driver and NVRTC can be loaded and returns [`GpuError::NoDriver`]
//! otherwise, so that a machine without CUDA gets an error, never a panic. Kernels launch on the
//! stream the caller names ([`Stream`]), so they order with other libraries' work on that stream
//! without a device synchronisation. This module and [`crate::compile`] hold the crate's `unsafe`
//! code.
//!
//! ```
//! match cute_cuda::device::Gpu::shared(0) {
//!     Ok(gpu) => println!("{} ({})", gpu.name, gpu.arch),
//!     Err(e) => println!("{e}"), // e.g. "no CUDA device: the CUDA driver library ... not found"
//! }
//! ```

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use cudarc::driver::sys::{CUdevice_attribute, CUevent_flags, CUfunction_attribute};
use cudarc::driver::{
    CudaContext, CudaSlice, CudaStream, DevicePtr, DeviceRepr, PushKernelArg, ValidAsZeroBits,
};

use crate::cache::{CacheConfig, DiskCache, KernelKey, Lru};
use crate::compile::{arch_for, cubin, nvrtc_version};
use crate::error::GpuError;
pub use crate::kernel::{Arg, Kernel};
use crate::plans::{PlanKey, Prepared};
use crate::workspace::{workspace_key, Workspaces};

/// A CUDA stream named by its raw handle (`CUstream`), as other libraries give it (PyTorch:
/// `torch.cuda.current_stream().cuda_stream`; CuPy: `cupy.cuda.get_current_stream().ptr`).
/// [`Stream::LEGACY`] (0) is the legacy default stream; [`Stream::OWN`] is the [`Gpu`]'s own
/// stream (the context's default stream).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stream {
    /// The [`Gpu`]'s own stream.
    Own,
    /// A stream owned by the caller, by its handle; the caller keeps it alive while work is queued.
    Raw(u64),
}

impl Stream {
    /// The [`Gpu`]'s own stream.
    pub const OWN: Stream = Stream::Own;
    /// The legacy default stream (handle 0).
    pub const LEGACY: Stream = Stream::Raw(0);
}

/// What the kernel caches did since the device was opened.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CacheStats {
    /// Kernels found loaded in memory.
    pub memory_hits: u64,
    /// Kernels loaded from the disk cache (no NVRTC).
    pub disk_hits: u64,
    /// Kernels compiled by NVRTC.
    pub compiles: u64,
    /// Milliseconds spent in NVRTC, in all.
    pub compile_ms: f64,
    /// Milliseconds of the last NVRTC compilation.
    pub last_compile_ms: f64,
    /// Plans found in the library's plan cache ([`crate::api`]).
    pub plan_hits: u64,
    /// Plans made.
    pub plans: u64,
}

/// An open GPU: its primary context, its own stream, its caches.
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// The device's ordinal.
    pub ordinal: usize,
    /// The device's name.
    pub name: String,
    /// Streaming multiprocessors.
    pub sm_count: i32,
    /// Compute capability.
    pub capability: (i32, i32),
    /// The NVRTC target of its kernels ([`arch_for`]).
    pub arch: String,
    /// NVRTC's version.
    pub nvrtc: (i32, i32),
    config: CacheConfig,
    disk: Option<DiskCache>,
    kernels: Mutex<Lru<(String, String), Arc<Kernel>>>,
    pub(crate) plans: Mutex<Lru<PlanKey, Arc<Prepared>>>,
    stats: Mutex<CacheStats>,
    workspaces: Workspaces<CudaSlice<u8>>,
}

/// Raises `k`'s dynamic shared-memory limit to `smem` once (past 48 KiB a launch needs it), so
/// that later launches make no driver call for it.
fn allow_smem(k: &Kernel, smem: u32) -> Result<(), GpuError> {
    use std::sync::atomic::Ordering::Relaxed;
    if smem > k.smem_allowed.load(Relaxed) {
        k.func
            .set_attribute(
                CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                smem as i32,
            )
            .map_err(|e| GpuError::driver("cuFuncSetAttribute", e))?;
        k.smem_allowed.fetch_max(smem, Relaxed);
    }
    Ok(())
}

fn no_driver_check() -> Result<(), GpuError> {
    // SAFETY: only loads the shared library (dlopen) to see whether it is there; no symbol of it
    // is called.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err(GpuError::NoDriver(
            "the CUDA driver library (libcuda.so) was not found".into(),
        ));
    }
    nvrtc_version().map(|_| ())
}

static DEVICES: OnceLock<Mutex<HashMap<usize, Arc<Gpu>>>> = OnceLock::new();

impl Gpu {
    /// Device `ordinal`, opened once per process with the caches of
    /// [`CacheConfig::from_env`]; later calls return the same [`Gpu`]. Fails with
    /// [`GpuError::NoDriver`] when the CUDA driver or NVRTC cannot be loaded or the device does
    /// not exist.
    pub fn shared(ordinal: usize) -> Result<Arc<Gpu>, GpuError> {
        let map = DEVICES.get_or_init(|| Mutex::new(HashMap::new()));
        let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(g) = map.get(&ordinal) {
            return Ok(g.clone());
        }
        let g = Arc::new(Gpu::open_with(ordinal, CacheConfig::from_env())?);
        map.insert(ordinal, g.clone());
        Ok(g)
    }

    /// Device 0 ([`Gpu::shared`]).
    pub fn open() -> Result<Arc<Gpu>, GpuError> {
        Gpu::shared(0)
    }

    /// Opens device `ordinal` with the given caches: a [`Gpu`] of its own (its own caches) on the
    /// device's primary context.
    pub fn open_with(ordinal: usize, config: CacheConfig) -> Result<Gpu, GpuError> {
        no_driver_check()?;
        let nvrtc = nvrtc_version()?;
        let count = CudaContext::device_count().map_err(|e| GpuError::NoDriver(e.to_string()))?;
        if count < 1 {
            return Err(GpuError::NoDriver("the driver reports no device".into()));
        }
        if ordinal >= count as usize {
            return Err(GpuError::unsupported(
                "open device",
                format!("device {ordinal} does not exist (the driver reports {count})"),
            ));
        }
        let ctx = CudaContext::new(ordinal).map_err(|e| GpuError::NoDriver(e.to_string()))?;
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
        let disk = config
            .disk_dir
            .clone()
            .map(|d| DiskCache::new(d, config.disk_bytes));
        Ok(Gpu {
            ctx,
            stream,
            ordinal,
            name,
            sm_count,
            capability,
            arch: arch_for(capability),
            nvrtc,
            kernels: Mutex::new(Lru::new(config.memory_entries)),
            plans: Mutex::new(Lru::new(config.memory_entries)),
            config,
            disk,
            stats: Mutex::new(CacheStats::default()),
            workspaces: Workspaces::default(),
        })
    }

    /// Makes the device's context current on this thread.
    pub(crate) fn bind(&self) -> Result<(), GpuError> {
        self.ctx
            .bind_to_thread()
            .map_err(|e| GpuError::driver("cuCtxSetCurrent", e))
    }

    /// The caches' configuration.
    pub fn cache_config(&self) -> &CacheConfig {
        &self.config
    }

    /// What the caches did so far.
    pub fn stats(&self) -> CacheStats {
        *self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn count(&self, f: impl FnOnce(&mut CacheStats)) {
        f(&mut self.stats.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// Drops the kernels and plans held in memory (the disk cache stays).
    pub fn clear_memory_caches(&self) {
        self.kernels
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        self.plans.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// The kernel `name` of `source` for this device: from memory, else from the disk cache, else
    /// compiled by NVRTC (and stored in both). A compilation error carries NVRTC's log.
    pub fn compile(&self, source: &str, name: &str) -> Result<Arc<Kernel>, GpuError> {
        let mem_key = (source.to_string(), name.to_string());
        if let Some(k) = self.in_memory(&mem_key) {
            self.count(|s| s.memory_hits += 1);
            return Ok(k);
        }
        let image = self.image(source, name)?;
        self.keep(mem_key, image)
    }

    /// Compiles those of `kernels` (source and name) that memory does not hold, up to `threads`
    /// at once (NVRTC runs on the host's cores; the caller chooses how many), and loads them, so
    /// that [`Gpu::compile`] then finds each in memory: at most as many as the memory cache
    /// holds, none where it is off. One that does not compile is left for [`Gpu::compile`] to
    /// report. Returns how many were loaded.
    ///
    /// # Errors
    ///
    /// The driver's, where a compiled image cannot be loaded.
    pub fn precompile(
        &self,
        kernels: &[(String, String)],
        threads: usize,
    ) -> Result<usize, GpuError> {
        // no more than memory holds (none where the memory cache is off): the rest would be
        // compiled only to be dropped
        let mut todo: Vec<&(String, String)> = Vec::new();
        for k in kernels {
            if todo.len() < self.config.memory_entries
                && !todo.contains(&k)
                && self.in_memory(k).is_none()
            {
                todo.push(k);
            }
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let images: Vec<(usize, Vec<u8>)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads.clamp(1, todo.len().max(1)))
                .map(|_| {
                    scope.spawn(|| {
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some((source, name)) = todo.get(i) else {
                                return done;
                            };
                            if let Ok(image) = self.image(source, name) {
                                done.push((i, image));
                            }
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap_or_default())
                .collect()
        });
        let loaded = images.len();
        for (i, image) in images {
            self.keep(todo[i].clone(), image)?;
        }
        Ok(loaded)
    }

    fn in_memory(&self, key: &(String, String)) -> Option<Arc<Kernel>> {
        self.kernels
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .cloned()
    }

    /// The CUBIN of kernel `name` of `source`: from the disk cache, else compiled by NVRTC (and
    /// stored there).
    fn image(&self, source: &str, name: &str) -> Result<Vec<u8>, GpuError> {
        let key: Option<KernelKey> = self
            .disk
            .as_ref()
            .map(|_| DiskCache::key(source, name, &self.arch, self.nvrtc));
        let cached = match (&self.disk, &key) {
            (Some(d), Some(k)) => d.load(k),
            _ => None,
        };
        Ok(match cached {
            Some(bin) => {
                self.count(|s| s.disk_hits += 1);
                bin
            }
            None => {
                let t = Instant::now();
                let bin = cubin(source, name, &self.arch)?;
                let ms = t.elapsed().as_secs_f64() * 1e3;
                self.count(|s| {
                    s.compiles += 1;
                    s.compile_ms += ms;
                    s.last_compile_ms = ms;
                });
                if let (Some(d), Some(k)) = (&self.disk, &key) {
                    // a cache that cannot be written costs the next process a compilation only
                    let _ = d.store(k, &bin);
                }
                bin
            }
        })
    }

    /// `image` loaded as kernel `key.1` and held in memory under `key`.
    fn keep(&self, key: (String, String), image: Vec<u8>) -> Result<Arc<Kernel>, GpuError> {
        let kernel = Arc::new(self.load(image, &key.1)?);
        self.kernels
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, kernel.clone());
        Ok(kernel)
    }

    fn load(&self, image: Vec<u8>, name: &str) -> Result<Kernel, GpuError> {
        let module = self
            .ctx
            .load_module(cudarc::nvrtc::Ptx::from_binary(image))
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
            smem_allowed: std::sync::atomic::AtomicU32::new(48 * 1024),
        })
    }

    /// A device buffer of `n` zeros on the [`Gpu`]'s own stream.
    pub fn zeros<T: DeviceRepr + ValidAsZeroBits>(
        &self,
        n: usize,
    ) -> Result<CudaSlice<T>, GpuError> {
        self.stream
            .alloc_zeros::<T>(n.max(1))
            .map_err(|e| GpuError::driver("cuMemAlloc", e))
    }

    /// The trailing arguments of a launch on `stream` of a kernel that takes `bytes` bytes of
    /// workspace ([`crate::gemm::GemmKernel::workspace`]): the address of the stream's
    /// workspace and the launch's epoch; none where `bytes` is 0. The workspace is zeroed once,
    /// when made (at least one stream-K schedule's worth on this device), and kept.
    ///
    /// # Errors
    ///
    /// The driver's, where the buffer cannot be made.
    pub fn workspace_args(&self, stream: Stream, bytes: u64) -> Result<Vec<Arg>, GpuError> {
        if bytes == 0 {
            return Ok(Vec::new());
        }
        let handle = match stream {
            Stream::Own => None,
            Stream::Raw(h) => Some(h),
        };
        // the largest a schedule on this device takes: one slot per SM, the widest tiles
        let widest = crate::tma_gemm::TILE_WIDTHS
            .into_iter()
            .max()
            .unwrap_or(256);
        let floor =
            crate::tma_gemm::StreamK::workspace_bytes_of(self.sm_count.max(1) as i64, widest);
        let (ptr, epoch) = self.workspaces.take(
            workspace_key(handle),
            bytes,
            floor,
            |n| {
                let b = self.zeros::<u8>(n as usize)?;
                // zeroed before any launch on another stream reads it
                self.stream
                    .synchronize()
                    .map_err(|e| GpuError::driver("cuStreamSynchronize", e))?;
                Ok(b)
            },
            |b| self.ptr(b, 0),
        )?;
        Ok(vec![Arg::Ptr(ptr), Arg::I32(epoch as i32)])
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

    /// Launches `k` on `grid` blocks of `block` threads on the [`Gpu`]'s own stream with `smem`
    /// bytes of dynamic shared memory.
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
        self.launch_on(Stream::Own, k, (grid, 1), block, smem, args)
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
        self.launch_on(Stream::Own, k, grid, block, smem, args)
    }

    /// Launches `k` on `stream` (the contract of [`Gpu::launch`]).
    pub fn launch_on(
        &self,
        stream: Stream,
        k: &Kernel,
        grid: (u32, u32),
        block: u32,
        smem: u32,
        args: &[Arg],
    ) -> Result<(), GpuError> {
        allow_smem(k, smem)?;
        let borrowed;
        let s: &Arc<CudaStream> = match stream {
            Stream::Own => &self.stream,
            Stream::Raw(h) => {
                // SAFETY: the caller names a stream of this device's primary context and keeps
                // it alive while the launch is queued (the contract of `Stream::Raw`); the
                // wrapper does not destroy it.
                borrowed = unsafe {
                    self.ctx
                        .wrap_borrowed_stream(h as usize as cudarc::driver::sys::CUstream)
                };
                &borrowed
            }
        };
        if args.iter().any(|a| matches!(a, Arg::Map(_))) {
            return self.launch_raw(s, k, grid, block, smem, args);
        }
        let mut b = s.launch_builder(&k.func);
        for a in args {
            match a {
                Arg::Ptr(p) | Arg::U64(p) => b.arg(p),
                Arg::I32(x) => b.arg(x),
                Arg::I64(x) => b.arg(x),
                Arg::F32(x) => b.arg(x),
                Arg::Map(_) => unreachable!("launched through launch_raw"),
            };
        }
        let cfg = cudarc::driver::LaunchConfig {
            grid_dim: (grid.0, grid.1, 1),
            block_dim: (block, 1, 1),
            shared_mem_bytes: smem,
        };
        // SAFETY: see the contract above; the argument list is built from the same plan as the
        // kernel's source.
        unsafe { b.launch(cfg) }.map_err(|e| GpuError::driver("cuLaunchKernel", e))?;
        Ok(())
    }

    /// [`Gpu::launch_on`] through `cuLaunchKernel` with a parameter array, for arguments the
    /// launch builder cannot carry (TMA descriptors by value).
    fn launch_raw(
        &self,
        s: &Arc<CudaStream>,
        k: &Kernel,
        grid: (u32, u32),
        block: u32,
        smem: u32,
        args: &[Arg],
    ) -> Result<(), GpuError> {
        self.bind()?;
        // every argument in storage of its own type (descriptors 64-byte aligned, as
        // `CUtensorMap`), alive until the driver has copied them
        let mut maps: Vec<cudarc::driver::sys::CUtensorMap> = Vec::new();
        let mut words: Vec<u64> = Vec::new();
        let mut floats: Vec<f32> = Vec::new();
        let mut ints: Vec<i32> = Vec::new();
        for a in args {
            match *a {
                Arg::Map(m) => maps.push(cudarc::driver::sys::CUtensorMap { opaque: m }),
                Arg::Ptr(p) | Arg::U64(p) => words.push(p),
                Arg::I64(x) => words.push(x as u64),
                Arg::F32(x) => floats.push(x),
                Arg::I32(x) => ints.push(x),
            }
        }
        let (mut im, mut iw, mut i_f, mut ii) = (0, 0, 0, 0);
        let mut params: Vec<*mut core::ffi::c_void> = Vec::with_capacity(args.len());
        for a in args {
            let p: *mut core::ffi::c_void = match a {
                Arg::Map(_) => {
                    im += 1;
                    &mut maps[im - 1] as *mut _ as *mut _
                }
                Arg::Ptr(_) | Arg::U64(_) | Arg::I64(_) => {
                    iw += 1;
                    &mut words[iw - 1] as *mut u64 as *mut _
                }
                Arg::F32(_) => {
                    i_f += 1;
                    &mut floats[i_f - 1] as *mut f32 as *mut _
                }
                Arg::I32(_) => {
                    ii += 1;
                    &mut ints[ii - 1] as *mut i32 as *mut _
                }
            };
            params.push(p);
        }
        // SAFETY: the contract of `launch_on` (the arguments are the kernel's, in order, built
        // from the same plan as its source); each parameter points into a vector that outlives
        // the call and is not resized after the pointers are taken.
        unsafe {
            cudarc::driver::result::launch_kernel(
                k.func.cu_function(),
                (grid.0, grid.1, 1),
                (block, 1, 1),
                smem,
                s.cu_stream(),
                &mut params,
            )
        }
        .map_err(|e| GpuError::driver("cuLaunchKernel", e))
    }

    /// The grid of a persistent kernel of clusters of `cluster` CTAs, capped at the clusters the
    /// GPU holds at once (`cuOccupancyMaxActiveClusters`: clusters live within one GPC, so fewer
    /// than `SMs / cluster` may fit, and a cluster left over would wait for a whole other to
    /// finish); `grid` itself without clusters.
    ///
    /// # Errors
    ///
    /// The driver's; [`GpuError::Unsupported`] when not one cluster of `k` fits.
    pub fn resident_grid(
        &self,
        k: &Kernel,
        grid: (u32, u32),
        block: u32,
        smem: u32,
        cluster: u32,
    ) -> Result<(u32, u32), GpuError> {
        if cluster <= 1 {
            return Ok(grid);
        }
        self.bind()?;
        allow_smem(k, smem)?;
        let config = cudarc::driver::sys::CUlaunchConfig {
            gridDimX: grid.0,
            gridDimY: grid.1,
            gridDimZ: 1,
            blockDimX: block,
            blockDimY: 1,
            blockDimZ: 1,
            sharedMemBytes: smem,
            hStream: core::ptr::null_mut(),
            attrs: core::ptr::null_mut(),
            numAttrs: 0,
        };
        let mut n: core::ffi::c_int = 0;
        // SAFETY: `n` and `config` are valid for the call; the function is a loaded kernel whose
        // cluster dimensions are compiled in, so no attribute is needed.
        unsafe {
            cudarc::driver::sys::cuOccupancyMaxActiveClusters(&mut n, k.func.cu_function(), &config)
        }
        .result()
        .map_err(|e| GpuError::driver("cuOccupancyMaxActiveClusters", e))?;
        if n < 1 {
            return Err(GpuError::unsupported(
                "launch",
                format!("no cluster of {cluster} CTAs of {} fits on the GPU", k.name),
            ));
        }
        Ok((grid.0.min(n as u32 * cluster), grid.1))
    }

    /// The raw handle of `stream`.
    pub(crate) fn raw_stream(&self, stream: Stream) -> cudarc::driver::sys::CUstream {
        match stream {
            Stream::Own => self.stream.cu_stream(),
            Stream::Raw(h) => h as usize as cudarc::driver::sys::CUstream,
        }
    }

    /// Waits for the work queued on `stream` (the [`Gpu`]'s own, or a caller's by its handle).
    ///
    /// # Errors
    ///
    /// The driver's, among them an asynchronous error of a kernel queued there.
    ///
    /// # Safety
    ///
    /// A [`Stream::Raw`] handle must name a live stream of this device's primary context (or be
    /// 0, the legacy default stream).
    pub unsafe fn wait_stream(&self, stream: Stream) -> Result<(), GpuError> {
        self.bind()?;
        // SAFETY: the caller's contract above.
        unsafe { cudarc::driver::result::stream::synchronize(self.raw_stream(stream)) }
            .map_err(|e| GpuError::driver("cuStreamSynchronize", e))
    }

    /// Waits for the [`Gpu`]'s own stream and reports an asynchronous error of a kernel.
    pub fn sync(&self) -> Result<(), GpuError> {
        self.stream
            .synchronize()
            .map_err(|e| GpuError::driver("cuStreamSynchronize", e))
    }

    /// Waits for every stream of the device (the primary context) and reports an asynchronous
    /// error.
    pub fn sync_device(&self) -> Result<(), GpuError> {
        self.ctx
            .synchronize()
            .map_err(|e| GpuError::driver("cuCtxSynchronize", e))
    }

    /// The median time in milliseconds of `reps` runs of `f`, each timed by CUDA events on the
    /// [`Gpu`]'s own stream, after `warmup` untimed runs.
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
