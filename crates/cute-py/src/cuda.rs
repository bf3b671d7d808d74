//! The native half of `cute_algebra.cuda`: the GPU library of `cute-cuda` on tensors described
//! by the Python side (address, shape, strides in elements, element type, device, and the buffer
//! the tensor lies in), zero copy, launched on the caller's stream with the GIL released.
//!
//! The Python side (`python/cute_algebra/cuda.py`) reads those descriptions from PyTorch tensors
//! directly, from `__cuda_array_interface__`, or from a DLPack capsule ([`dlpack_desc`]), allocates
//! results in the caller's framework, and names the framework's current stream. Errors:
//! a request the library refuses is a `ValueError` (its message names the operation, the
//! operands and the violated condition); a layout the algebra refuses, `LayoutError`; a machine
//! without a usable GPU or a failing driver, `cute_algebra.cuda.CudaError` (a `RuntimeError`).

use cute::Layout;
use cute_cuda::atom::DType;
use cute_cuda::{DeviceBuffer, DeviceTensor, Gpu, GpuError, Plan, Stream};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};

pyo3::create_exception!(
    cute_algebra,
    CudaError,
    PyRuntimeError,
    "No usable CUDA GPU (no driver, no NVRTC, no device), or the driver or NVRTC failed.\n\n\
     The message says which call failed and why. Requests that the library refuses (sizes, \
     types, bounds, overlaps) raise `ValueError` instead."
);

/// A tensor as the Python side describes it: the address of its element 0, its shape and its
/// strides in elements, the element type's name, the device, and the buffer `[base, base +
/// nbytes)` that every element must lie in.
type Desc = (u64, Vec<i64>, Vec<i64>, String, usize, u64, u64);

/// What a DLPack capsule tells: `(ptr, shape, strides, dtype, device)`.
type DlpackDesc = (u64, Vec<i64>, Vec<i64>, String, usize);

pub(crate) fn to_py(op: &str, e: GpuError) -> PyErr {
    match e {
        GpuError::Invalid { .. } | GpuError::Unsupported { .. } => {
            PyValueError::new_err(e.to_string())
        }
        GpuError::Layout(le) => crate::conv::err(*le),
        GpuError::NoDriver(_) | GpuError::Driver { .. } | GpuError::Mismatch { .. } => {
            CudaError::new_err(format!("{op}: {e}"))
        }
        other => CudaError::new_err(format!("{op}: {other}")),
    }
}

pub(crate) fn dtype(op: &str, what: &str, name: &str) -> PyResult<DType> {
    DType::parse(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{op}: {what} has element type {name}, which the GPU kernels do not move \
             (supported: {})",
            DType::NAMES
        ))
    })
}

/// The buffer of a description (borrowed: the Python side keeps the tensor alive for the call).
fn buffer(d: &Desc) -> DeviceBuffer {
    // SAFETY: the Python caller passes the storage of a live CUDA tensor of device `d.4` and
    // holds a reference to it until the call returns; work queued on the caller's stream is
    // ordered with the framework's own use of that memory (the framework's contract for its
    // current stream).
    unsafe { DeviceBuffer::from_raw(d.5, d.6 as usize, d.4) }
}

fn tensor<'a>(op: &str, what: &str, buf: &'a DeviceBuffer, d: &Desc) -> PyResult<DeviceTensor<'a>> {
    let (ptr, shape, strides, name, ..) = d;
    let t = dtype(op, what, name)?;
    if shape.len() != strides.len() {
        return Err(PyValueError::new_err(format!(
            "{op}: {what} has {} extents and {} strides",
            shape.len(),
            strides.len()
        )));
    }
    let layout = if shape.is_empty() {
        Layout::leaf(1, 0)
    } else {
        Layout::flat(shape, strides)
    }
    .map_err(crate::conv::err)?;
    let e = t.bytes() as u64;
    let rel = ptr.wrapping_sub(buf.ptr());
    if *ptr < buf.ptr() || rel % e != 0 {
        return Err(PyValueError::new_err(format!(
            "{op}: {what} starts at {ptr:#x}, not at a whole {t} element of its buffer at {:#x}",
            buf.ptr()
        )));
    }
    DeviceTensor::with_offset(buf, (rel / e) as i64, layout, t)
        .map_err(|err| PyValueError::new_err(format!("{op}: {what}: {err}")))
}

pub(crate) fn gpu(op: &str, device: usize) -> PyResult<std::sync::Arc<Gpu>> {
    Gpu::shared(device).map_err(|e| to_py(op, e))
}

/// Whether a GPU can be used, and if not, why: `(True, "NVIDIA H200 (sm_90a)")` or `(False,
/// "no CUDA device: ...")`.
#[pyfunction]
fn cuda_probe(device: usize) -> (bool, String) {
    match Gpu::shared(device) {
        Ok(g) => (true, format!("{} ({})", g.name, g.arch)),
        Err(e) => (false, e.to_string()),
    }
}

/// A plan of `cute_cuda`, ready to launch again on tensors of the description it was made for
/// (layouts, element types, alignment): the Python side keeps it under that description and
/// launches it with three or four integers, with no planning and no layout checks.
#[pyclass(module = "cute_algebra._native._cuda", frozen)]
pub struct CudaPlan {
    gpu: std::sync::Arc<Gpu>,
    plan: Plan,
}

#[pymethods]
impl CudaPlan {
    /// How the plan runs (`transpose 64x64 v4`, `wgmma 128x256x64`, ...).
    #[getter]
    fn kind(&self) -> &str {
        self.plan.kind()
    }

    /// Launches a COPY plan on the source and destination whose element 0 lie at `src` and `dst`.
    ///
    /// The caller (the Python side) passes the addresses of live tensors whose shapes, strides,
    /// element types and address alignment are those the plan was made for, so that every
    /// offset the plan's layouts reach lies in their storage.
    fn copy(&self, py: Python<'_>, src: u64, dst: u64, stream: u64) -> PyResult<()> {
        self.launch(py, &[src, dst], 1.0, 0.0, stream)
    }

    /// Launches a GEMM or contraction plan on A, B and C (element 0 of each), as [`Self::copy`].
    #[allow(clippy::too_many_arguments)]
    fn gemm(
        &self,
        py: Python<'_>,
        a: u64,
        b: u64,
        c: u64,
        alpha: f32,
        beta: f32,
        stream: u64,
    ) -> PyResult<()> {
        self.launch(py, &[a, b, c], alpha, beta, stream)
    }

    fn __repr__(&self) -> String {
        format!("{:?}", self.plan)
    }
}

impl CudaPlan {
    fn launch(
        &self,
        py: Python<'_>,
        origins: &[u64],
        alpha: f32,
        beta: f32,
        stream: u64,
    ) -> PyResult<()> {
        // SAFETY: the Python side calls this only with the element-0 addresses of live tensors
        // of the description the plan was made for (checked against their storage then); the
        // framework keeps them alive and orders their reuse after work on its current stream.
        py.allow_threads(|| unsafe {
            self.gpu
                .launch_plan_raw(&self.plan, origins, alpha, beta, Stream::Raw(stream))
        })
        .map(|_| ())
        .map_err(|e| to_py("launch", e))
    }
}

/// `dst[c] = src[c]` for every coordinate `c`; returns the plan, to launch again on tensors of
/// the same description.
#[pyfunction]
#[pyo3(signature = (src, dst, stream))]
fn cuda_copy(py: Python<'_>, src: Desc, dst: Desc, stream: u64) -> PyResult<CudaPlan> {
    const OP: &str = "copy";
    if src.4 != dst.4 {
        return Err(PyValueError::new_err(format!(
            "{OP}: the source is on device {}, the destination on device {}",
            src.4, dst.4
        )));
    }
    let g = gpu(OP, dst.4)?;
    let (sb, db) = (buffer(&src), buffer(&dst));
    let (s, d) = (
        tensor(OP, "the source", &sb, &src)?,
        tensor(OP, "the destination", &db, &dst)?,
    );
    let plan = py
        .allow_threads(|| {
            let plan = g.plan_copy(&s, &d)?;
            g.launch_plan(&plan, &[&s, &d], 1.0, 0.0, Stream::Raw(stream))?;
            Ok(plan)
        })
        .map_err(|e| to_py(OP, e))?;
    Ok(CudaPlan { gpu: g, plan })
}

/// The contraction `spec` of `a` and `b` into `c`: `c = alpha·Σ a·b + beta·c`; returns the plan,
/// to launch again on tensors of the same description.
#[pyfunction]
#[pyo3(signature = (spec, a, b, c, alpha, beta, stream))]
#[allow(clippy::too_many_arguments)]
fn cuda_contract(
    py: Python<'_>,
    spec: &str,
    a: Desc,
    b: Desc,
    c: Desc,
    alpha: f32,
    beta: f32,
    stream: u64,
) -> PyResult<CudaPlan> {
    const OP: &str = "contract";
    if a.4 != c.4 || b.4 != c.4 {
        return Err(PyValueError::new_err(format!(
            "{OP}: operands on devices {}, {} and {}: all three must be on one device",
            a.4, b.4, c.4
        )));
    }
    let g = gpu(OP, c.4)?;
    let (ab, bb, cb) = (buffer(&a), buffer(&b), buffer(&c));
    let (ta, tb, tc) = (
        tensor(OP, "A", &ab, &a)?,
        tensor(OP, "B", &bb, &b)?,
        tensor(OP, "the output", &cb, &c)?,
    );
    let plan = py
        .allow_threads(|| {
            let plan = g.plan_contract(spec, &ta, &tb, &tc)?;
            g.launch_plan(&plan, &[&ta, &tb, &tc], alpha, beta, Stream::Raw(stream))?;
            Ok(plan)
        })
        .map_err(|e| to_py(OP, e))?;
    Ok(CudaPlan { gpu: g, plan })
}

/// What the caches of device `device` did: a dict of counts and milliseconds.
#[pyfunction]
fn cuda_stats(py: Python<'_>, device: usize) -> PyResult<Bound<'_, PyDict>> {
    let g = gpu("stats", device)?;
    let s = g.stats();
    let d = PyDict::new(py);
    d.set_item("memory_hits", s.memory_hits)?;
    d.set_item("disk_hits", s.disk_hits)?;
    d.set_item("compiles", s.compiles)?;
    d.set_item("compile_ms", s.compile_ms)?;
    d.set_item("last_compile_ms", s.last_compile_ms)?;
    d.set_item("plan_hits", s.plan_hits)?;
    d.set_item("plans", s.plans)?;
    d.set_item(
        "disk_dir",
        g.cache_config()
            .disk_dir
            .as_ref()
            .map(|p| p.display().to_string()),
    )?;
    Ok(d)
}

/// Drops the kernels and plans device `device` holds in memory (the disk cache stays): the next
/// call plans again and loads its kernel from disk.
#[pyfunction]
fn cuda_clear_memory_caches(device: usize) -> PyResult<()> {
    gpu("clear caches", device)?.clear_memory_caches();
    Ok(())
}

#[repr(C)]
pub(crate) struct DLDevice {
    pub(crate) device_type: i32,
    pub(crate) device_id: i32,
}

#[repr(C)]
pub(crate) struct DLDataType {
    pub(crate) code: u8,
    pub(crate) bits: u8,
    pub(crate) lanes: u16,
}

#[repr(C)]
pub(crate) struct DLTensor {
    pub(crate) data: *mut std::ffi::c_void,
    pub(crate) device: DLDevice,
    pub(crate) ndim: i32,
    pub(crate) dtype: DLDataType,
    pub(crate) shape: *const i64,
    pub(crate) strides: *const i64,
    pub(crate) byte_offset: u64,
}

/// The description `(ptr, shape, strides, dtype, device)` of a DLPack capsule (`"dltensor"`, as
/// `x.__dlpack__()` returns it) of a CUDA tensor. The capsule is only read: it stays unconsumed,
/// and its producer frees it.
#[pyfunction]
fn dlpack_desc(capsule: &Bound<'_, PyCapsule>) -> PyResult<DlpackDesc> {
    let name = capsule.name()?;
    if name.map(|n| n.to_bytes()) != Some(b"dltensor".as_slice()) {
        return Err(PyValueError::new_err(
            "cute_algebra.cuda: expected an unconsumed DLPack capsule named \"dltensor\"",
        ));
    }
    // SAFETY: a capsule named "dltensor" holds a DLManagedTensor, whose first member is the
    // DLTensor; it lives as long as the capsule, which the caller holds.
    let t = unsafe { &*(capsule.pointer() as *const DLTensor) };
    const CUDA: i32 = 2;
    const CUDA_MANAGED: i32 = 13;
    if t.device.device_type != CUDA && t.device.device_type != CUDA_MANAGED {
        return Err(PyValueError::new_err(format!(
            "cute_algebra.cuda: the tensor lies on DLPack device type {}, not on a CUDA device",
            t.device.device_type
        )));
    }
    if t.device.device_id < 0 {
        return Err(PyValueError::new_err(format!(
            "cute_algebra.cuda: the tensor names CUDA device {}, not a device number (0 or more)",
            t.device.device_id
        )));
    }
    if t.dtype.lanes != 1 || !(0..=64).contains(&t.ndim) {
        return Err(PyValueError::new_err(format!(
            "cute_algebra.cuda: a DLPack tensor of {} lanes and {} dimensions",
            t.dtype.lanes, t.ndim
        )));
    }
    let name = match (t.dtype.code, t.dtype.bits) {
        (2, 32) => "f32",
        (2, 16) => "f16",
        (2, 64) => "f64",
        (4, 16) => "bf16",
        (0, 8) => "i8",
        (0, 16) => "i16",
        (0, 32) => "i32",
        (0, 64) => "i64",
        (1, 8) | (6, 8) => "u8",
        // DLPack 1.1's kDLFloat8_e4m3fn and kDLFloat8_e5m2
        (10, 8) => "e4m3",
        (12, 8) => "e5m2",
        (code, bits) => {
            return Err(PyValueError::new_err(format!(
                "cute_algebra.cuda: DLPack element type code {code} of {bits} bits is not moved \
                 by the GPU kernels"
            )))
        }
    };
    let n = t.ndim as usize;
    // SAFETY: DLPack's shape has `ndim` entries; strides, when present, too.
    let shape: Vec<i64> = (0..n).map(|i| unsafe { *t.shape.add(i) }).collect();
    let strides: Vec<i64> = if t.strides.is_null() || n == 0 {
        // compact row-major
        let mut st = vec![1i64; n];
        for i in (0..n.saturating_sub(1)).rev() {
            st[i] = st[i + 1].saturating_mul(shape[i + 1]);
        }
        st
    } else {
        // SAFETY: as above.
        (0..n).map(|i| unsafe { *t.strides.add(i) }).collect()
    };
    let ptr = (t.data as u64).wrapping_add(t.byte_offset);
    Ok((
        ptr,
        shape,
        strides,
        name.to_string(),
        t.device.device_id as usize,
    ))
}

/// Registers the native half of `cute_algebra.cuda` as the submodule `_native._cuda` (kept out of
/// the top-level namespace, which `from ._native import *` fills).
/// Returns the submodule, to which the classes above this module ([`crate::cuda_array`]) are
/// added.
pub fn register<'py>(parent: &Bound<'py, PyModule>) -> PyResult<Bound<'py, PyModule>> {
    let m = PyModule::new(parent.py(), "_cuda")?;
    m.add("CudaError", m.py().get_type::<CudaError>())?;
    m.add_class::<CudaPlan>()?;
    m.add_function(wrap_pyfunction!(cuda_probe, &m)?)?;
    m.add_function(wrap_pyfunction!(cuda_copy, &m)?)?;
    m.add_function(wrap_pyfunction!(cuda_contract, &m)?)?;
    m.add_function(wrap_pyfunction!(cuda_stats, &m)?)?;
    m.add_function(wrap_pyfunction!(cuda_clear_memory_caches, &m)?)?;
    m.add_function(wrap_pyfunction!(dlpack_desc, &m)?)?;
    parent.setattr("_cuda", &m)?;
    Ok(m)
}
