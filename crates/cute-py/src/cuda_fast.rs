//! The fast path of `cute_algebra.cuda.matmul` and `contract` on PyTorch tensors: the plans
//! already made, kept under their operands' description, found and launched in one native call.
//!
//! A description is what the plan depends on and nothing else: the operation and its spec, and
//! for each tensor its shape, strides, element type, device and the alignment of its address
//! (`ptr & 15`); for an output that the call allocates, the element type asked for. Reading it
//! takes five attribute reads per tensor (`get_device`, `shape`, `stride`, `dtype`, `data_ptr`);
//! the key is built, hashed and looked up here, and the plan launched with the GIL released, so
//! that a remembered call costs the host little more than the launch itself (the Python version
//! of this path spent 3 µs of a 6 µs call on the key).
//!
//! Only tensors of exactly the tensor type given (`torch.Tensor`) on a GPU (`get_device() >= 0`)
//! and element types of exactly the dtype type given (`torch.dtype`, whose instances live as long
//! as the process: their addresses identify them) take this path; anything else returns `None`
//! and the caller takes the checked path, which raises the clear error. A hit re-checks at launch
//! what may differ between tensors of one description (alignment of the start, overlap of the
//! output with the inputs: [`cute_cuda::Gpu::launch_plan_raw`]).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};

use crate::cuda::CudaPlan;

/// A multiply-rotate hash of the description's words (the standard SipHash spends more time on
/// the forty-odd words of a key than the lookup is worth; the keys are not attacker-chosen).
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

type Words = BuildHasherDefault<WordHasher>;

/// A remembered plan and how to allocate its output.
struct Entry {
    plan: PyObject,
    /// The output's shape, and `{"dtype": ..., "device": ...}` for the allocator.
    shape: PyObject,
    kwargs: Py<PyDict>,
    /// The element types whose addresses the key holds, kept alive with it.
    _dtypes: Vec<PyObject>,
}

#[derive(Default)]
struct Table {
    by_spec: HashMap<String, HashMap<Vec<i64>, Entry, Words>, Words>,
    len: usize,
}

/// What [`GemmPlans::describe`] reads of one call: the key, the operands' device and addresses.
struct Call {
    key: Vec<i64>,
    device: i64,
    ptrs: [u64; 3],
    dtypes: Vec<PyObject>,
}

/// The remembered GEMM and contraction plans of `cute_algebra.cuda`, by their operands'
/// description (module docs); made once, when the first PyTorch tensor is seen.
#[pyclass(module = "cute_algebra._native._cuda", frozen)]
pub struct GemmPlans {
    tensor: Py<PyType>,
    dtype: Py<PyType>,
    empty: PyObject,
    raw_stream: PyObject,
    max: usize,
    table: Mutex<Table>,
}

impl GemmPlans {
    /// One tensor's words of the key; `None` when it may not take the fast path.
    fn tensor_words(
        &self,
        x: &Bound<'_, PyAny>,
        key: &mut Vec<i64>,
        dtypes: Option<&mut Vec<PyObject>>,
    ) -> Option<(i64, u64)> {
        let py = x.py();
        if !x.get_type().is(&self.tensor) {
            return None;
        }
        let dev: i64 = x
            .call_method0(intern!(py, "get_device"))
            .ok()?
            .extract()
            .ok()?;
        if dev < 0 {
            return None; // on the CPU or without storage: its address is never read
        }
        let shape = x.getattr(intern!(py, "shape")).ok()?;
        let shape = shape.downcast::<PyTuple>().ok()?;
        let stride = x.call_method0(intern!(py, "stride")).ok()?;
        let stride = stride.downcast::<PyTuple>().ok()?;
        if shape.len() != stride.len() {
            return None;
        }
        key.push(shape.len() as i64);
        for s in shape.iter().chain(stride.iter()) {
            key.push(s.extract().ok()?);
        }
        let dtype = x.getattr(intern!(py, "dtype")).ok()?;
        key.push(self.dtype_word(&dtype)?);
        if let Some(dtypes) = dtypes {
            dtypes.push(dtype.unbind());
        }
        let ptr: u64 = x
            .call_method0(intern!(py, "data_ptr"))
            .ok()?
            .extract()
            .ok()?;
        key.extend([dev, (ptr & 15) as i64]);
        Some((dev, ptr))
    }

    /// An element type's word: its address, for instances of the dtype type only.
    fn dtype_word(&self, d: &Bound<'_, PyAny>) -> Option<i64> {
        d.get_type().is(&self.dtype).then(|| d.as_ptr() as i64)
    }

    /// The description of one call (module docs); `None` when it may not take the fast path.
    /// With `keep`, the element types the key names are kept in the result (to remember it).
    fn describe(
        &self,
        op: &str,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        out: Option<&Bound<'_, PyAny>>,
        out_dtype: Option<&Bound<'_, PyAny>>,
        keep: bool,
    ) -> PyResult<Option<Call>> {
        let op_word = match op {
            "matmul" => 0,
            "contract" => 1,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "GemmPlans: operation '{op}'; the plans kept are of 'matmul' and 'contract'"
                )))
            }
        };
        let mut key = Vec::with_capacity(48);
        let mut dtypes = Vec::new();
        key.push(op_word);
        let Some((dev, pa)) = self.tensor_words(a, &mut key, keep.then_some(&mut dtypes)) else {
            return Ok(None);
        };
        let Some((_, pb)) = self.tensor_words(b, &mut key, keep.then_some(&mut dtypes)) else {
            return Ok(None);
        };
        let pc = match out {
            Some(out) => match self.tensor_words(out, &mut key, keep.then_some(&mut dtypes)) {
                Some((_, pc)) => pc,
                None => return Ok(None),
            },
            None => {
                match out_dtype {
                    None => key.extend([-1, 0]),
                    Some(d) => match self.dtype_word(d) {
                        Some(w) => {
                            key.extend([-1, w]);
                            if keep {
                                dtypes.push(d.clone().unbind());
                            }
                        }
                        None => return Ok(None),
                    },
                }
                0
            }
        };
        Ok(Some(Call {
            key,
            device: dev,
            ptrs: [pa, pb, pc],
            dtypes,
        }))
    }

    /// The remembered plan of a description, and its output's shape and allocator arguments.
    fn find(
        &self,
        py: Python<'_>,
        spec: &str,
        key: &[i64],
    ) -> Option<(PyObject, PyObject, Py<PyDict>)> {
        let table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        let e = table.by_spec.get(spec)?.get(key)?;
        Some((
            e.plan.clone_ref(py),
            e.shape.clone_ref(py),
            e.kwargs.clone_ref(py),
        ))
    }
}

#[pymethods]
impl GemmPlans {
    /// The plans of calls on tensors of type `tensor` (exactly; `torch.Tensor`) with element
    /// types of type `dtype` (`torch.dtype`); `empty(shape, dtype=, device=)` allocates an
    /// output, `raw_stream(device)` names the device's current stream; at most `max` plans
    /// (when full, all are forgotten).
    #[new]
    fn new(
        tensor: Bound<'_, PyType>,
        dtype: Bound<'_, PyType>,
        empty: PyObject,
        raw_stream: PyObject,
        max: usize,
    ) -> Self {
        GemmPlans {
            tensor: tensor.unbind(),
            dtype: dtype.unbind(),
            empty,
            raw_stream,
            max: max.max(1),
            table: Mutex::new(Table::default()),
        }
    }

    /// Launches the remembered plan of the call `op(spec, a, b, out, alpha, beta, out_dtype)`
    /// (`op` is `"matmul"` or `"contract"`; `out` None: a new output of the remembered shape and
    /// `out_dtype`) on the device's current stream, and returns the output; `None` when the call
    /// has no remembered plan or may not take the fast path (the caller then plans it, checks
    /// it and raises its errors). A launch the plan refuses raises (as `CudaPlan.gemm`).
    #[pyo3(signature = (op, spec, a, b, out, alpha, beta, out_dtype))]
    #[allow(clippy::too_many_arguments)]
    fn launch(
        &self,
        py: Python<'_>,
        op: &str,
        spec: Option<&str>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        out: Option<&Bound<'_, PyAny>>,
        alpha: &Bound<'_, PyAny>,
        beta: &Bound<'_, PyAny>,
        out_dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<PyObject>> {
        let (Ok(alpha), Ok(beta)) = (alpha.extract::<f64>(), beta.extract::<f64>()) else {
            return Ok(None);
        };
        if out.is_none() && beta != 0.0 {
            return Ok(None); // the checked path says why
        }
        let Some(call) = self.describe(op, a, b, out, out_dtype, false)? else {
            return Ok(None);
        };
        let Some((plan, shape, kwargs)) = self.find(py, spec.unwrap_or(""), &call.key) else {
            return Ok(None);
        };
        let mut ptrs = call.ptrs;
        let out = match out {
            Some(out) => out.clone(),
            None => {
                let out = self.empty.bind(py).call((shape,), Some(kwargs.bind(py)))?;
                ptrs[2] = out.call_method0(intern!(py, "data_ptr"))?.extract()?;
                if ptrs[2] & 15 != 0 {
                    return Ok(None); // an allocator's odd address: plan for it
                }
                out
            }
        };
        let stream: u64 = self.raw_stream.bind(py).call1((call.device,))?.extract()?;
        let plan = plan.bind(py);
        match plan.downcast::<CudaPlan>() {
            Ok(p) => p
                .get()
                .launch(py, &ptrs, alpha as f32, beta as f32, stream)?,
            // a stand-in plan (the tests without a GPU)
            Err(_) => {
                plan.call_method1(
                    intern!(py, "gemm"),
                    (ptrs[0], ptrs[1], ptrs[2], alpha, beta, stream),
                )?;
            }
        }
        Ok(Some(out.unbind()))
    }

    /// Remembers `plan` for the call `op(spec, a, b, out, ..., out_dtype)` just made, whose
    /// output is `result` (`out` itself, or the tensor the call allocated); returns whether the
    /// call may take the fast path (else nothing is kept).
    #[pyo3(signature = (op, spec, a, b, out, out_dtype, plan, result))]
    #[allow(clippy::too_many_arguments)]
    fn remember(
        &self,
        py: Python<'_>,
        op: &str,
        spec: Option<&str>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        out: Option<&Bound<'_, PyAny>>,
        out_dtype: Option<&Bound<'_, PyAny>>,
        plan: PyObject,
        result: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let Some(call) = self.describe(op, a, b, out, out_dtype, true)? else {
            return Ok(false);
        };
        let shape = result.getattr(intern!(py, "shape"))?;
        let kwargs = PyDict::new(py);
        kwargs.set_item(intern!(py, "dtype"), result.getattr(intern!(py, "dtype"))?)?;
        kwargs.set_item(
            intern!(py, "device"),
            result.getattr(intern!(py, "device"))?,
        )?;
        let entry = Entry {
            plan,
            shape: shape.unbind(),
            kwargs: kwargs.unbind(),
            _dtypes: call.dtypes,
        };
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        if table.len >= self.max {
            *table = Table::default();
        }
        let fresh = table
            .by_spec
            .entry(spec.unwrap_or("").to_owned())
            .or_default()
            .insert(call.key, entry)
            .is_none();
        table.len += usize::from(fresh);
        Ok(true)
    }

    /// The remembered plan of the call described as in [`GemmPlans::launch`], or None.
    #[pyo3(signature = (op, spec, a, b, out=None, out_dtype=None))]
    #[allow(clippy::too_many_arguments)]
    fn lookup(
        &self,
        py: Python<'_>,
        op: &str,
        spec: Option<&str>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        out: Option<&Bound<'_, PyAny>>,
        out_dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<PyObject>> {
        Ok(self
            .describe(op, a, b, out, out_dtype, false)?
            .and_then(|call| self.find(py, spec.unwrap_or(""), &call.key))
            .map(|(plan, ..)| plan))
    }

    /// Forgets every plan.
    fn clear(&self) {
        *self.table.lock().unwrap_or_else(|e| e.into_inner()) = Table::default();
    }

    fn __len__(&self) -> usize {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).len
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "GemmPlans({} plans of {} tensors, at most {})",
            self.__len__(),
            self.tensor
                .bind(py)
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default(),
            self.max
        )
    }
}
