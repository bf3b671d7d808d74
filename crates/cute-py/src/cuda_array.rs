//! `cute_algebra.cuda.DeviceArray`: device memory allocated here and handed to any framework
//! through DLPack (`__dlpack__`, `__dlpack_device__`) or `__cuda_array_interface__`, zero copy.
//! The results of `cute_algebra.cuda` for a framework whose allocator the module does not call
//! (JAX and any other DLPack consumer: `jax.numpy.from_dlpack(array)`) are made here.
//!
//! The memory lives as long as the `DeviceArray` or any tensor imported from it: each exported
//! DLPack tensor holds a reference to the buffer, released by the consumer's call of its deleter
//! (or by the capsule's destructor when no consumer took it).

use std::ffi::{c_void, CStr};
use std::sync::Arc;

use cute_cuda::atom::DType;
use cute_cuda::{DeviceBuffer, Gpu, Stream};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::cuda::{dtype, gpu, to_py, DLDataType, DLDevice, DLTensor};

/// DLPack's owner of a [`DLTensor`]: the tensor, the producer's context and its deleter.
#[repr(C)]
struct DLManagedTensor {
    dl_tensor: DLTensor,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

/// What an exported tensor keeps alive: the buffer and the shape and strides its [`DLTensor`]
/// points at.
struct Exported {
    _buffer: Arc<DeviceBuffer>,
    shape: Vec<i64>,
    strides: Vec<i64>,
}

const DLTENSOR: &CStr = c"dltensor";

unsafe extern "C" fn dl_deleter(t: *mut DLManagedTensor) {
    if t.is_null() {
        return;
    }
    // SAFETY: `t` and its context were made by `Box::into_raw` in `__dlpack__`, and DLPack calls
    // the deleter once.
    unsafe {
        drop(Box::from_raw((*t).manager_ctx as *mut Exported));
        drop(Box::from_raw(t));
    }
}

unsafe extern "C" fn capsule_destructor(capsule: *mut pyo3::ffi::PyObject) {
    // SAFETY: called by Python with the capsule; a consumer that took the tensor renamed the
    // capsule ("used_dltensor") and owns the deleter call, so only an untaken tensor is freed here.
    unsafe {
        if pyo3::ffi::PyCapsule_IsValid(capsule, DLTENSOR.as_ptr()) == 1 {
            let t =
                pyo3::ffi::PyCapsule_GetPointer(capsule, DLTENSOR.as_ptr()) as *mut DLManagedTensor;
            dl_deleter(t);
        }
    }
}

/// Device memory of `shape` (row-major) and an element type, made by `cute_algebra.cuda`.
#[pyclass(module = "cute_algebra.cuda", frozen)]
pub struct DeviceArray {
    gpu: Arc<Gpu>,
    buffer: Arc<DeviceBuffer>,
    shape: Vec<i64>,
    strides: Vec<i64>,
    dtype: DType,
}

fn dl_dtype(t: DType) -> DLDataType {
    let (code, bits) = match t {
        DType::F32 | DType::Tf32 => (2, 32),
        DType::F16 => (2, 16),
        DType::F64 => (2, 64),
        DType::Bf16 => (4, 16),
        DType::I8 => (0, 8),
        DType::I16 => (0, 16),
        DType::I32 => (0, 32),
        DType::I64 => (0, 64),
        DType::U8 => (1, 8),
        // DLPack 1.1's kDLFloat8_e4m3fn and kDLFloat8_e5m2
        DType::E4m3 => (10, 8),
        DType::E5m2 => (12, 8),
    };
    DLDataType {
        code,
        bits,
        lanes: 1,
    }
}

fn typestr(t: DType) -> &'static str {
    match t {
        DType::F32 | DType::Tf32 => "<f4",
        DType::F16 => "<f2",
        DType::F64 => "<f8",
        DType::Bf16 => "<V2",
        DType::I8 => "|i1",
        DType::I16 => "<i2",
        DType::I32 => "<i4",
        DType::I64 => "<i8",
        DType::U8 => "|u1",
        // NumPy has no 8-bit float: a raw byte, as bf16 is two
        DType::E4m3 | DType::E5m2 => "|V1",
    }
}

#[pymethods]
impl DeviceArray {
    /// `DeviceArray(shape, dtype, device=0)`: zeroed device memory of `shape` (row-major) and
    /// element type `dtype` (`"f32"`, `"bf16"`, ...).
    #[new]
    #[pyo3(signature = (shape, dtype, device = 0))]
    fn new(shape: Vec<i64>, dtype: &str, device: usize) -> PyResult<DeviceArray> {
        const OP: &str = "DeviceArray";
        let t = self::dtype(OP, "the array", dtype)?;
        if let Some(s) = shape.iter().find(|&&s| s < 0) {
            return Err(PyValueError::new_err(format!(
                "{OP}: shape {shape:?} has the negative extent {s}"
            )));
        }
        let n = shape
            .iter()
            .try_fold(1i64, |acc, &s| acc.checked_mul(s))
            .and_then(|n| n.checked_mul(t.bytes()))
            .filter(|&b| b <= isize::MAX as i64)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{OP}: shape {shape:?} of {t} overflows the address space"
                ))
            })?;
        let mut strides = vec![1i64; shape.len()];
        for i in (0..shape.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * shape[i + 1].max(1);
        }
        let g = gpu(OP, device)?;
        let buffer = DeviceBuffer::zeroed(&g, n as usize).map_err(|e| to_py(OP, e))?;
        Ok(DeviceArray {
            gpu: g,
            buffer: Arc::new(buffer),
            shape,
            strides,
            dtype: t,
        })
    }

    /// The shape.
    #[getter]
    fn shape(&self) -> Vec<i64> {
        self.shape.clone()
    }

    /// The element type's name (`"f32"`, `"bf16"`, ...).
    #[getter]
    fn dtype(&self) -> String {
        self.dtype.to_string()
    }

    /// The device address of element 0.
    #[getter]
    fn ptr(&self) -> u64 {
        self.buffer.ptr()
    }

    /// `(2, device)`: a CUDA device, as DLPack numbers it.
    fn __dlpack_device__(&self) -> (i32, i32) {
        (2, self.buffer.device() as i32)
    }

    /// A DLPack capsule of the array. The memory was written on the legacy default stream; for
    /// a consumer's `stream` other than that one (1, or None), the stream is waited for first.
    #[pyo3(signature = (*, stream = None, max_version = None, dl_device = None, copy = None))]
    fn __dlpack__(
        &self,
        py: Python<'_>,
        stream: Option<i64>,
        max_version: Option<(i32, i32)>,
        dl_device: Option<(i32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<PyObject> {
        let _ = max_version; // this producer exports DLPack 0.x capsules, which every consumer takes
        if let Some(d) = dl_device {
            if d != self.__dlpack_device__() {
                return Err(PyValueError::new_err(format!(
                    "__dlpack__: the array lies on DLPack device {:?}, {d:?} was asked for",
                    self.__dlpack_device__()
                )));
            }
        }
        if copy == Some(true) {
            return Err(PyValueError::new_err(
                "__dlpack__: copy=True is not supported; the array is shared, never copied",
            ));
        }
        if !matches!(stream, None | Some(1)) {
            // SAFETY: 0 is the legacy default stream.
            py.allow_threads(|| unsafe { self.gpu.wait_stream(Stream::LEGACY) })
                .map_err(|e| to_py("__dlpack__", e))?;
        }
        let ctx = Box::new(Exported {
            _buffer: self.buffer.clone(),
            shape: self.shape.clone(),
            strides: self.strides.clone(),
        });
        let managed = Box::new(DLManagedTensor {
            dl_tensor: DLTensor {
                data: self.buffer.ptr() as *mut c_void,
                device: DLDevice {
                    device_type: 2,
                    device_id: self.buffer.device() as i32,
                },
                ndim: self.shape.len() as i32,
                dtype: dl_dtype(self.dtype),
                shape: ctx.shape.as_ptr(),
                strides: ctx.strides.as_ptr(),
                byte_offset: 0,
            },
            manager_ctx: Box::into_raw(ctx) as *mut c_void,
            deleter: Some(dl_deleter),
        });
        let raw = Box::into_raw(managed);
        // SAFETY: a capsule over the managed tensor, named as DLPack requires; the destructor
        // frees it unless a consumer took it.
        unsafe {
            let cap = pyo3::ffi::PyCapsule_New(
                raw as *mut c_void,
                DLTENSOR.as_ptr(),
                Some(capsule_destructor),
            );
            if cap.is_null() {
                dl_deleter(raw);
                return Err(PyErr::fetch(py));
            }
            Ok(PyObject::from_owned_ptr(py, cap))
        }
    }

    /// The array through `__cuda_array_interface__` (version 3; written on the legacy default
    /// stream, which the interface's `stream` entry names as 1).
    #[getter]
    fn __cuda_array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("shape", pyo3::types::PyTuple::new(py, &self.shape)?)?;
        d.set_item("typestr", typestr(self.dtype))?;
        d.set_item("data", (self.buffer.ptr(), false))?;
        d.set_item("version", 3)?;
        d.set_item("strides", py.None())?;
        d.set_item("stream", 1)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "DeviceArray(shape={:?}, dtype={}, device={})",
            self.shape,
            self.dtype,
            self.buffer.device()
        )
    }
}
