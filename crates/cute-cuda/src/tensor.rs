//! Device tensors: memory on the GPU ([`DeviceBuffer`], owned or borrowed from another library)
//! viewed through a CuTe [`Layout`] over elements of a [`DType`] ([`DeviceTensor`]).
//!
//! A [`DeviceTensor`] is checked once, when it is made: integer strides, every offset the layout
//! reaches inside the buffer, the address aligned to the element. The operations of
//! [`crate::api`] then need no further bounds checks, and a tensor of another library (a raw
//! device pointer and a length, as DLPack or `__cuda_array_interface__` give them) is as safe to
//! pass as one allocated here.
//!
//! ```no_run
//! use cute_cuda::{atom::DType, device::Gpu, tensor::{DeviceBuffer, DeviceTensor}};
//! let gpu = Gpu::shared(0)?;
//! let data: Vec<f32> = (0..32).map(|x| x as f32).collect();
//! let buf = DeviceBuffer::from_host(&gpu, &data)?;
//! let t = DeviceTensor::new(&buf, "(4,8):(8,1)".parse()?, DType::F32)?; // row-major 4x8
//! assert_eq!(t.layout().to_string(), "(4,8):(8,1)");
//! // a view that reaches past the buffer is refused when it is made
//! assert!(DeviceTensor::new(&buf, "(4,9):(9,1)".parse()?, DType::F32).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;

use cute::Layout;

use crate::atom::DType;
use crate::copy::offset_range;
use crate::device::Gpu;
use crate::error::GpuError;

/// Plain values that move between host and device as bytes.
pub trait Element: Copy + Default + sealed::Sealed {}

mod sealed {
    pub trait Sealed {}
}

macro_rules! elements {
    ($($t:ty),*) => {$(impl sealed::Sealed for $t {} impl Element for $t {})*};
}
elements!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// Memory on a device: an address and a length in bytes. Owned (allocated here, freed when
/// dropped) or borrowed (memory of another library, which keeps it alive).
pub struct DeviceBuffer {
    ptr: u64,
    bytes: usize,
    device: usize,
    owner: Option<Arc<Gpu>>,
}

impl core::fmt::Debug for DeviceBuffer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "DeviceBuffer {{ ptr: {:#x}, bytes: {}, device: {}, owned: {} }}",
            self.ptr,
            self.bytes,
            self.device,
            self.owner.is_some()
        )
    }
}

impl DeviceBuffer {
    /// `bytes` bytes of zeros on `gpu`.
    pub fn zeroed(gpu: &Arc<Gpu>, bytes: usize) -> Result<DeviceBuffer, GpuError> {
        gpu.bind()?;
        // SAFETY: the context is current; a plain allocation of at least one byte.
        let ptr = unsafe { cudarc::driver::result::malloc_sync(bytes.max(1)) }
            .map_err(|e| GpuError::driver("cuMemAlloc", e))?;
        let buf = DeviceBuffer {
            ptr,
            bytes,
            device: gpu.ordinal,
            owner: Some(gpu.clone()),
        };
        // SAFETY: `ptr` holds `bytes` bytes.
        unsafe { cudarc::driver::result::memset_d8_sync(ptr, 0, bytes.max(1)) }
            .map_err(|e| GpuError::driver("cuMemsetD8", e))?;
        Ok(buf)
    }

    /// A device copy of `host`.
    pub fn from_host<T: Element>(gpu: &Arc<Gpu>, host: &[T]) -> Result<DeviceBuffer, GpuError> {
        let buf = DeviceBuffer::zeroed(gpu, core::mem::size_of_val(host))?;
        buf.write(host)?;
        Ok(buf)
    }

    /// The memory `ptr .. ptr + bytes` of device `device`, owned by someone else (PyTorch, CuPy,
    /// JAX, a CUDA allocation of the caller's).
    ///
    /// # Safety
    ///
    /// The range must be device memory of that device's primary context (or reachable from it),
    /// and stay allocated while this buffer, or any tensor over it, is used and while work that
    /// uses it is queued.
    pub unsafe fn from_raw(ptr: u64, bytes: usize, device: usize) -> DeviceBuffer {
        DeviceBuffer {
            ptr,
            bytes,
            device,
            owner: None,
        }
    }

    /// The device address of the first byte.
    pub fn ptr(&self) -> u64 {
        self.ptr
    }

    /// The length in bytes.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The device's ordinal.
    pub fn device(&self) -> usize {
        self.device
    }

    /// Whether the buffer was allocated here (and is freed when dropped).
    pub fn is_owned(&self) -> bool {
        self.owner.is_some()
    }

    fn check_len<T>(&self, n: usize, op: &'static str) -> Result<(), GpuError> {
        let want = n * core::mem::size_of::<T>();
        if want > self.bytes {
            return Err(GpuError::invalid(
                op,
                format!(
                    "{want} bytes do not fit a buffer of {} bytes at {:#x}",
                    self.bytes, self.ptr
                ),
            ));
        }
        Ok(())
    }

    /// Writes `host` at the start of the buffer (synchronously).
    pub fn write<T: Element>(&self, host: &[T]) -> Result<(), GpuError> {
        self.check_len::<T>(host.len(), "write buffer")?;
        if host.is_empty() {
            return Ok(());
        }
        // SAFETY: the buffer holds at least `size_of_val(host)` bytes (checked above).
        unsafe { cudarc::driver::result::memcpy_htod_sync(self.ptr, host) }
            .map_err(|e| GpuError::driver("cuMemcpyHtoD", e))
    }

    /// The buffer's bytes as elements of `T` (as many as fit), read synchronously after the
    /// device's queued work.
    pub fn read<T: Element>(&self, gpu: &Gpu) -> Result<Vec<T>, GpuError> {
        gpu.sync_device()?;
        let n = self.bytes / core::mem::size_of::<T>();
        let mut out = vec![T::default(); n];
        if n > 0 {
            // SAFETY: `out` has room for `n` elements, the buffer holds at least as many bytes.
            unsafe { cudarc::driver::result::memcpy_dtoh_sync(&mut out, self.ptr) }
                .map_err(|e| GpuError::driver("cuMemcpyDtoH", e))?;
        }
        Ok(out)
    }
}

impl DeviceBuffer {
    /// Copies the first `bytes` bytes of `src` into this buffer on `stream`, as the driver's
    /// device-to-device copy does (the bandwidth reference of the COPY benchmarks).
    ///
    /// # Errors
    ///
    /// [`GpuError::Invalid`] when either buffer is shorter than `bytes` or lies on another device.
    pub fn copy_from(
        &self,
        gpu: &Gpu,
        src: &DeviceBuffer,
        bytes: usize,
        stream: crate::device::Stream,
    ) -> Result<(), GpuError> {
        if bytes > self.bytes || bytes > src.bytes {
            return Err(GpuError::invalid(
                "device copy",
                format!(
                    "{bytes} bytes from a buffer of {} into one of {}",
                    src.bytes, self.bytes
                ),
            ));
        }
        if self.device != gpu.ordinal || src.device != gpu.ordinal {
            return Err(GpuError::invalid(
                "device copy",
                format!(
                    "buffers on devices {} and {}, the copy runs on device {}",
                    src.device, self.device, gpu.ordinal
                ),
            ));
        }
        gpu.bind()?;
        // SAFETY: both ranges hold `bytes` bytes of live device memory (checked above and by the
        // buffers' contracts).
        unsafe {
            cudarc::driver::result::memcpy_dtod_async(
                self.ptr,
                src.ptr,
                bytes,
                gpu.raw_stream(stream),
            )
        }
        .map_err(|e| GpuError::driver("cuMemcpyDtoDAsync", e))
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        if let Some(gpu) = &self.owner {
            if gpu.bind().is_ok() {
                // SAFETY: allocated by `zeroed` and freed only here; cuMemFree waits for the
                // work that uses it.
                let _ = unsafe { cudarc::driver::result::free_sync(self.ptr) };
            }
        }
    }
}

/// A tensor on the device: `layout` over elements of `dtype` in `buffer`, the layout's offset 0
/// at element `offset` of the buffer (negative strides reach below it).
#[derive(Clone, Copy, Debug)]
pub struct DeviceTensor<'a> {
    buffer: &'a DeviceBuffer,
    offset: i64,
    layout: Layout,
    dtype: DType,
    range: (i64, i64),
}

impl<'a> DeviceTensor<'a> {
    /// `layout` over elements of `dtype` at the start of `buffer`.
    ///
    /// # Errors
    ///
    /// As [`DeviceTensor::with_offset`].
    pub fn new(
        buffer: &'a DeviceBuffer,
        layout: Layout,
        dtype: DType,
    ) -> Result<DeviceTensor<'a>, GpuError> {
        DeviceTensor::with_offset(buffer, 0, layout, dtype)
    }

    /// `layout` over elements of `dtype` in `buffer`, its offset 0 at element `offset`.
    ///
    /// # Errors
    ///
    /// [`GpuError::Invalid`] when a stride is not an integer, the buffer's address is not a
    /// multiple of the element's size, an offset overflows, or an offset the layout reaches lies
    /// outside the buffer (the message names the layout, the reached range and the buffer).
    pub fn with_offset(
        buffer: &'a DeviceBuffer,
        offset: i64,
        layout: Layout,
        dtype: DType,
    ) -> Result<DeviceTensor<'a>, GpuError> {
        const OP: &str = "device tensor";
        if !layout.is_integral() {
            return Err(GpuError::invalid(
                OP,
                format!("{layout}: a tensor's offsets need integer strides"),
            ));
        }
        let e = dtype.bytes();
        if !buffer.ptr.is_multiple_of(e as u64) {
            return Err(GpuError::invalid(
                OP,
                format!(
                    "the buffer's address {:#x} is not a multiple of the {dtype} element size {e}",
                    buffer.ptr
                ),
            ));
        }
        let (lo, hi) = offset_range(&layout)
            .map_err(|_| GpuError::invalid(OP, format!("{layout}: its offsets overflow i64")))?;
        let elems = buffer.bytes as i64 / e;
        let first = offset.checked_add(lo);
        let last = offset.checked_add(hi);
        match (first, last) {
            (Some(f), Some(l)) if f >= 0 && l < elems => Ok(DeviceTensor {
                buffer,
                offset,
                layout,
                dtype,
                range: (lo, hi),
            }),
            _ => Err(GpuError::invalid(
                OP,
                format!(
                    "{layout} at element offset {offset} reaches elements {}..={} of a buffer of \
                     {elems} {dtype} elements ({} bytes): every offset must lie in the buffer",
                    offset as i128 + lo as i128,
                    offset as i128 + hi as i128,
                    buffer.bytes
                ),
            )),
        }
    }

    /// The same elements through another layout (e.g. folded modes), checked as
    /// [`DeviceTensor::with_offset`] checks.
    pub fn relayout(&self, layout: Layout) -> Result<DeviceTensor<'a>, GpuError> {
        DeviceTensor::with_offset(self.buffer, self.offset, layout, self.dtype)
    }

    /// The layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The buffer.
    pub fn buffer(&self) -> &'a DeviceBuffer {
        self.buffer
    }

    /// The element of the buffer at which the layout's offset 0 sits.
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// The smallest and largest offset the layout reaches (relative to its offset 0).
    pub fn range(&self) -> (i64, i64) {
        self.range
    }

    /// The device address of the smallest offset the tensor reaches: what a kernel is given.
    pub(crate) fn base_address(&self) -> u64 {
        self.buffer.ptr + ((self.offset + self.range.0) * self.dtype.bytes()) as u64
    }

    /// The alignment of [`Self::base_address`] in elements: the largest power of two that divides
    /// it in elements, at most 16 bytes' worth.
    pub(crate) fn align_elems(&self) -> i64 {
        let e = self.dtype.bytes();
        let mut a = 16 / e;
        while a > 1 && !(self.base_address() / e as u64).is_multiple_of(a as u64) {
            a /= 2;
        }
        a
    }

    /// The byte range `[start, end)` the tensor reaches.
    pub(crate) fn byte_span(&self) -> (u64, u64) {
        let e = self.dtype.bytes();
        let start = self.base_address();
        (
            start,
            start + ((self.range.1 - self.range.0 + 1) * e) as u64,
        )
    }
}
