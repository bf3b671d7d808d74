//! Tensors over numpy arrays (or any object with `__array_interface__`): element access, COPY,
//! GEMM and `contract`, on the array's memory without copies, the GIL released during the work.
//!
//! A tensor is `(array, layout, offset)`, passed as that 3-tuple: the element at coordinate `c`
//! lies `offset + layout(c)` elements from the array's data pointer. The memory an array may reach is the span of its own
//! elements (from its lowest to its highest addressed element, whatever its strides, negative
//! included): one allocation. Every access is checked against that span by the core crate
//! ([`cute::Tensor::with_base`]), so a layout can never reach outside it.

use cute::{Error, ErrorKind, Layout, Op, Operand, Tensor};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::conv::{self, int, kind_of, layout_arg, OrRaise};

/// The element types the tensor functions support.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dtype {
    F32,
    F64,
    I32,
    I64,
    F16,
    BF16,
    I8,
    U8,
    I16,
}

impl Dtype {
    fn size(self) -> usize {
        match self {
            Dtype::I8 | Dtype::U8 => 1,
            Dtype::F16 | Dtype::BF16 | Dtype::I16 => 2,
            Dtype::F32 | Dtype::I32 => 4,
            Dtype::F64 | Dtype::I64 => 8,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Dtype::F32 => "float32",
            Dtype::F64 => "float64",
            Dtype::I32 => "int32",
            Dtype::I64 => "int64",
            Dtype::F16 => "float16",
            Dtype::BF16 => "bfloat16",
            Dtype::I8 => "int8",
            Dtype::U8 => "uint8",
            Dtype::I16 => "int16",
        }
    }

    /// The element type of an `__array_interface__` type string (native byte order; `|` for
    /// one-byte types), bfloat16 (`ml_dtypes`, a 2-byte void type to numpy) by the dtype's name.
    fn of(typestr: &str, obj: &Bound<'_, PyAny>) -> Option<Dtype> {
        let (order, code) = typestr.split_at_checked(1)?;
        if !matches!(order, "<" | "=" | "|") {
            return None;
        }
        Some(match code {
            "f4" => Dtype::F32,
            "f8" => Dtype::F64,
            "i4" => Dtype::I32,
            "i8" => Dtype::I64,
            "f2" => Dtype::F16,
            "i1" => Dtype::I8,
            "u1" => Dtype::U8,
            "i2" => Dtype::I16,
            "V2" => {
                let name = obj.getattr("dtype").and_then(|d| d.getattr("name")).ok()?;
                if name.extract::<String>().ok()? == "bfloat16" {
                    Dtype::BF16
                } else {
                    return None;
                }
            }
            _ => return None,
        })
    }
}

/// Runs `$body` with `$t` the Rust type of the element type `$d` (`half::f16` and `half::bf16`
/// for float16 and bfloat16).
macro_rules! by_dtype {
    ($d:expr, $t:ident => $body:expr) => {
        by_dtype!(@arms $d, $t, $body;
            F32 f32, F64 f64, I32 i32, I64 i64, F16 half::f16, BF16 half::bf16, I8 i8, U8 u8,
            I16 i16)
    };
    (@arms $d:expr, $t:ident, $body:expr; $($v:ident $ty:ty),*) => {
        match $d {
            $(Dtype::$v => {
                type $t = $ty;
                $body
            })*
        }
    };
}

/// The memory span of an array: its lowest addressed element, the number of elements up to its
/// highest, and where its data pointer lies in that span.
struct View {
    /// Address of the lowest element.
    lo: usize,
    /// Elements in the span.
    len: usize,
    /// Index of the data pointer in the span.
    base: usize,
    dtype: Dtype,
    writable: bool,
}

impl View {
    fn end(&self) -> usize {
        self.lo + self.len * self.dtype.size()
    }
    fn overlaps(&self, o: &View) -> bool {
        self.len > 0 && o.len > 0 && self.lo < o.end() && o.lo < self.end()
    }
}

fn view(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<View> {
    let ai = obj.getattr("__array_interface__").map_err(|_| {
        PyTypeError::new_err(format!(
            "{what}: expected a numpy array (an object with __array_interface__), got {}",
            kind_of(obj)
        ))
    })?;
    let ai = ai.downcast::<PyDict>()?;
    let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
        ai.get_item(k)?
            .ok_or_else(|| PyTypeError::new_err(format!("{what}: __array_interface__ has no {k}")))
    };
    let typestr: String = get("typestr")?.extract()?;
    let dtype = Dtype::of(&typestr, obj).ok_or_else(|| {
        PyTypeError::new_err(format!(
            "{what}: unsupported element type {typestr:?} (float32, float64, float16, bfloat16 \
             (ml_dtypes), int64, int32, int16, int8, uint8, in native byte order)"
        ))
    })?;
    let data = get("data")?;
    let data = data.downcast::<PyTuple>()?;
    let ptr: usize = data.get_item(0)?.extract()?;
    let readonly: bool = data.get_item(1)?.extract()?;
    let shape: Vec<i64> = get("shape")?.extract()?;
    let isz = dtype.size() as i64;
    if !ptr.is_multiple_of(dtype.size()) {
        return Err(PyValueError::new_err(format!(
            "{what}: the array's data is not aligned to its {isz}-byte elements"
        )));
    }
    let strides: Vec<i64> = match ai.get_item("strides")? {
        Some(s) if !s.is_none() => s.extract()?,
        _ => {
            // C-contiguous
            let mut st = vec![0; shape.len()];
            let mut acc = isz;
            for k in (0..shape.len()).rev() {
                st[k] = acc;
                acc *= shape[k].max(1);
            }
            st
        }
    };
    if shape.contains(&0) {
        return Ok(View {
            lo: ptr,
            len: 0,
            base: 0,
            dtype,
            writable: !readonly,
        });
    }
    let (mut lo, mut hi) = (0i64, 0i64);
    for (&n, &s) in shape.iter().zip(&strides) {
        if s % isz != 0 {
            return Err(PyValueError::new_err(format!(
                "{what}: a stride of {s} bytes is not a multiple of the element size {isz}"
            )));
        }
        let ext = (n - 1).checked_mul(s).ok_or_else(|| {
            PyValueError::new_err(format!("{what}: the array's extent overflows"))
        })?;
        if ext < 0 {
            lo += ext;
        } else {
            hi += ext;
        }
    }
    Ok(View {
        lo: (ptr as i64 + lo) as usize,
        len: ((hi - lo) / isz + 1) as usize,
        base: (-lo / isz) as usize,
        dtype,
        writable: !readonly,
    })
}

/// The layout of a numpy array: its shape with its strides in elements (`1:0` for a 0-d array).
///
/// >>> import numpy as np
/// >>> from cute_algebra import array_layout
/// >>> array_layout(np.zeros((4, 8))), array_layout(np.zeros((4, 8))[:, ::-2])
/// (Layout((4,8),(8,1)), Layout((4,4),(8,-2)))
#[pyfunction]
pub fn array_layout(array: &Bound<'_, PyAny>) -> PyResult<crate::classes::PyLayout> {
    let v = view(array, "array_layout")?;
    let shape: Vec<i64> = array.getattr("shape")?.extract()?;
    let strides: Vec<i64> = array.getattr("strides")?.extract()?;
    let isz = v.dtype.size() as i64;
    let l = match shape.len() {
        0 => Layout::leaf(1, 0),
        _ => {
            let d: Vec<i64> = strides.iter().map(|s| s / isz).collect();
            Layout::flat(&shape, &d)
        }
    }
    .py()?;
    // a 1-d array is the layout n:d, not the 1-tuple (n):(d)
    let l = if l.rank() == 1 && !l.is_leaf() {
        l.mode(0).py()?
    } else {
        l
    };
    Ok(crate::classes::PyLayout::wrap(l))
}

/// A raw span that may cross `allow_threads` (the array object is kept alive by the caller).
#[derive(Clone, Copy)]
struct Span {
    lo: usize,
    len: usize,
}
// SAFETY: the span is only read or written inside `allow_threads` while the caller holds
// references to the arrays, which keep their memory alive; Python code cannot run meanwhile in
// this thread, and the module documents that arrays must not be resized concurrently.
unsafe impl Send for Span {}

/// The storage index of the tensor's offset 0 in the array's span.
fn base_of(v: &View, offset: i64, l: &Layout) -> PyResult<usize> {
    let b = (v.base as i64).checked_add(offset).unwrap_or(-1);
    if b < 0 || b as usize >= v.len.max(1) {
        return Err(conv::err(
            Error::new(
                Op::Tensor,
                ErrorKind::OutOfStorage {
                    first: b,
                    last: b,
                    len: v.len as i64,
                },
            )
            .with(Operand::Layout(*l), Operand::Int(offset)),
        ));
    }
    Ok(b as usize)
}

/// One tensor argument: the array's span, the layout, the base.
struct Arg {
    view: View,
    layout: Layout,
    base: usize,
}

/// A tensor argument: the tuple `(array, layout, offset)`.
fn arg(tensor: &Bound<'_, PyAny>, what: &str) -> PyResult<Arg> {
    let parts = tensor
        .downcast::<PyTuple>()
        .ok()
        .filter(|t| t.len() == 3)
        .ok_or_else(|| {
            PyTypeError::new_err(format!(
                "{what}: expected a tensor as the tuple (array, layout, offset), got {}",
                kind_of(tensor)
            ))
        })?;
    let view = view(&parts.get_item(0)?, what)?;
    let layout = layout_arg(&parts.get_item(1)?, what)?;
    let offset = int(&parts.get_item(2)?, what)?;
    let base = base_of(&view, offset, &layout)?;
    Ok(Arg { view, layout, base })
}

impl Arg {
    fn span(&self) -> Span {
        Span {
            lo: self.view.lo,
            len: self.view.len,
        }
    }
}

/// `&[T]` over a span.
///
/// # Safety
/// The span must be live memory of `len` elements of `T`, not written meanwhile.
unsafe fn slice<'a, T>(s: Span) -> &'a [T] {
    if s.len == 0 {
        return &[];
    }
    // SAFETY: the caller's contract
    unsafe { std::slice::from_raw_parts(s.lo as *const T, s.len) }
}

/// `&mut [T]` over a span.
///
/// # Safety
/// The span must be live, writable memory of `len` elements of `T`, not otherwise referenced.
unsafe fn slice_mut<'a, T>(s: Span) -> &'a mut [T] {
    if s.len == 0 {
        return &mut [];
    }
    // SAFETY: the caller's contract
    unsafe { std::slice::from_raw_parts_mut(s.lo as *mut T, s.len) }
}

fn check_writable(a: &Arg, what: &str) -> PyResult<()> {
    if !a.view.writable {
        return Err(PyValueError::new_err(format!(
            "{what}: the destination array is read-only"
        )));
    }
    Ok(())
}

fn same_dtype(a: &Arg, b: &Arg, what: &str) -> PyResult<()> {
    if a.view.dtype != b.view.dtype {
        return Err(PyTypeError::new_err(format!(
            "{what}: element types differ ({} and {})",
            a.view.dtype.name(),
            b.view.dtype.name()
        )));
    }
    Ok(())
}

/// Reads one element of the tensor `(array, layout, offset)` at an index or coordinate.
///
/// >>> import numpy as np
/// >>> from cute_algebra import Layout, tensor_get
/// >>> a = np.arange(12.0).reshape(3, 4)
/// >>> tensor_get((a, Layout((4, 3), (1, 4)), 0), (1, 2))
/// 9.0
#[pyfunction]
pub fn tensor_get(
    py: Python<'_>,
    tensor: &Bound<'_, PyAny>,
    coord: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    let a = arg(tensor, "tensor_get")?;
    let o = element_offset(&a, coord)?;
    let sp = a.span();
    // SAFETY: the span is the array's own memory (kept alive by `array`), read only here
    unsafe { Ok(by_dtype!(a.view.dtype, T => slice::<T>(sp)[o].to_py(py)?)) }
}

/// The storage index of one element, checked against the span.
fn element_offset(a: &Arg, coord: &Bound<'_, PyAny>) -> PyResult<usize> {
    let off = if conv::seq(coord).is_some() {
        a.layout
            .eval_crd(&conv::tuple(coord, "tensor coordinate")?)
            .py()?
    } else {
        a.layout.eval(int(coord, "tensor index")?).py()?
    };
    let i = (a.base as i64).checked_add(off).unwrap_or(-1);
    if i < 0 || i as usize >= a.view.len {
        return Err(conv::err(
            Error::new(
                Op::Tensor,
                ErrorKind::OutOfStorage {
                    first: i,
                    last: i,
                    len: a.view.len as i64,
                },
            )
            .with(Operand::Layout(a.layout), Operand::None),
        ));
    }
    Ok(i as usize)
}

/// Writes one element of the tensor `(array, layout, offset)` at an index or coordinate.
///
/// >>> import numpy as np
/// >>> from cute_algebra import Layout, tensor_set
/// >>> a = np.zeros((3, 4))
/// >>> tensor_set((a, Layout((4, 3), (1, 4)), 0), (1, 2), 5.0); float(a[2, 1])
/// 5.0
#[pyfunction]
pub fn tensor_set(
    tensor: &Bound<'_, PyAny>,
    coord: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let a = arg(tensor, "tensor_set")?;
    check_writable(&a, "tensor_set")?;
    let o = element_offset(&a, coord)?;
    let sp = a.span();
    by_dtype!(a.view.dtype, T => store::<T>(sp, o, value))
}

/// An element type's conversions to and from Python values: floats (float16 and bfloat16
/// through `float`, rounded to nearest) and ints (out of range: `OverflowError`).
trait Elem: Sized + Copy {
    fn to_py(self, py: Python<'_>) -> PyResult<PyObject>;
    fn from_py(v: &Bound<'_, PyAny>) -> PyResult<Self>;
}

macro_rules! elem_extract {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            fn to_py(self, py: Python<'_>) -> PyResult<PyObject> {
                Ok(self.into_pyobject(py)?.into_any().unbind())
            }
            fn from_py(v: &Bound<'_, PyAny>) -> PyResult<Self> {
                v.extract()
            }
        }
    )*};
}
elem_extract!(f32, f64, i8, u8, i16, i32, i64);

macro_rules! elem_half {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            fn to_py(self, py: Python<'_>) -> PyResult<PyObject> {
                Ok(self.to_f64().into_pyobject(py)?.into_any().unbind())
            }
            fn from_py(v: &Bound<'_, PyAny>) -> PyResult<Self> {
                Ok(<$t>::from_f64(v.extract::<f64>()?))
            }
        }
    )*};
}
elem_half!(half::f16, half::bf16);

/// Writes `value`, converted to `T`, at index `o` of a writable array's span (`o` checked).
fn store<T: Elem>(sp: Span, o: usize, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let v = T::from_py(value)?;
    // SAFETY: the span is the array's own writable memory (the caller checked the flag and the
    // index), alive while the caller holds the array; no other reference to it is live
    unsafe { slice_mut::<T>(sp)[o] = v }
    Ok(())
}

fn copy_typed<T: Copy + Send>(src: &Arg, dst: &Arg, py: Python<'_>) -> PyResult<()> {
    let (ss, ds) = (src.span(), dst.span());
    let (sl, sb, dl, db) = (src.layout, src.base, dst.layout, dst.base);
    let overlap = src.view.overlaps(&dst.view);
    py.allow_threads(move || {
        // SAFETY: both spans are the arrays' memory, alive while the caller holds the arrays;
        // when they overlap the source is read into a private buffer first, so the mutable
        // slice is the only reference to its memory while it is written
        unsafe {
            if overlap {
                let tmp: Vec<T> = slice::<T>(ss).to_vec();
                let s = Tensor::with_base(&tmp[..], sb, sl)?;
                let mut d = Tensor::with_base(slice_mut::<T>(ds), db, dl)?;
                cute::copy(&s, &mut d)
            } else {
                let s = Tensor::with_base(slice::<T>(ss), sb, sl)?;
                let mut d = Tensor::with_base(slice_mut::<T>(ds), db, dl)?;
                cute::copy(&s, &mut d)
            }
        }
    })
    .py()
}

/// COPY: `dst(i) = src(i)` for every index of the destination layout; each tensor is
/// `(array, layout, offset)` over a numpy array, any strides. The GIL is released meanwhile.
///
/// >>> import numpy as np
/// >>> from cute_algebra import Layout, tensor_copy
/// >>> a, b = np.arange(6.0).reshape(2, 3), np.zeros((3, 2))
/// >>> tensor_copy((a, Layout((2, 3), (3, 1)), 0), (b, Layout((2, 3), (1, 2)), 0)); b.tolist()
/// [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
#[pyfunction]
pub fn tensor_copy(py: Python<'_>, src: &Bound<'_, PyAny>, dst: &Bound<'_, PyAny>) -> PyResult<()> {
    let s = arg(src, "copy source")?;
    let d = arg(dst, "copy destination")?;
    same_dtype(&s, &d, "copy")?;
    check_writable(&d, "copy")?;
    by_dtype!(s.view.dtype, T => copy_typed::<T>(&s, &d, py))
}

/// What a GEMM-like call does with its three tensors.
enum Kind {
    Gemm,
    Contract(String, Option<f64>),
}

fn gemm_typed<T>(a: &Arg, b: &Arg, c: &Arg, kind: Kind, py: Python<'_>) -> PyResult<()>
where
    T: cute_gemm::Element + Send + FromF64,
{
    let (sa, sb, sc) = (a.span(), b.span(), c.span());
    let (la, ba, lb, bb, lc, bc) = (a.layout, a.base, b.layout, b.base, c.layout, c.base);
    let (oa, ob) = (a.view.overlaps(&c.view), b.view.overlaps(&c.view));
    py.allow_threads(move || {
        // SAFETY: the spans are the arrays' memory, alive while the caller holds the arrays; an
        // input that overlaps the output is read into a private buffer first, so the mutable
        // slice of C is the only reference to its memory while it is written
        unsafe {
            let ta_buf: Option<Vec<T>> = oa.then(|| slice::<T>(sa).to_vec());
            let tb_buf: Option<Vec<T>> = ob.then(|| slice::<T>(sb).to_vec());
            let ta_items: &[T] = ta_buf.as_deref().unwrap_or_else(|| slice::<T>(sa));
            let tb_items: &[T] = tb_buf.as_deref().unwrap_or_else(|| slice::<T>(sb));
            let ta = Tensor::with_base(ta_items, ba, la)?;
            let tb = Tensor::with_base(tb_items, bb, lb)?;
            let mut tc = Tensor::with_base(slice_mut::<T>(sc), bc, lc)?;
            match kind {
                Kind::Gemm => cute_gemm::gemm(&ta, &tb, &mut tc),
                Kind::Contract(spec, None) => cute_gemm::contract(&spec, &ta, &tb, &mut tc),
                Kind::Contract(spec, Some(beta)) => {
                    cute_gemm::contract_beta(&spec, &ta, &tb, T::from_f64(beta), &mut tc)
                }
            }
        }
    })
    .py()
}

/// Conversion of β to the element type.
pub trait FromF64 {
    /// `x` as this type (truncated for integers).
    fn from_f64(x: f64) -> Self;
}
macro_rules! from_f64 {
    ($($t:ty),*) => {$(
        impl FromF64 for $t {
            fn from_f64(x: f64) -> Self {
                x as $t
            }
        }
    )*};
}
from_f64!(f32, f64, i8, u8, i16, i32, i64);

/// Checks the three tensors of a GEMM-like call and runs it on their element type.
fn dispatch(
    py: Python<'_>,
    [a, b, c]: [&Bound<'_, PyAny>; 3],
    kind: Kind,
    what: &str,
) -> PyResult<()> {
    let (a, b, c) = (&arg(a, what)?, &arg(b, what)?, &arg(c, what)?);
    same_dtype(a, b, what)?;
    same_dtype(a, c, what)?;
    check_writable(c, what)?;
    match a.view.dtype {
        Dtype::F32 => gemm_typed::<f32>(a, b, c, kind, py),
        Dtype::F64 => gemm_typed::<f64>(a, b, c, kind, py),
        Dtype::I32 => gemm_typed::<i32>(a, b, c, kind, py),
        Dtype::I64 => gemm_typed::<i64>(a, b, c, kind, py),
        Dtype::I16 => gemm_typed::<i16>(a, b, c, kind, py),
        Dtype::I8 => gemm_typed::<i8>(a, b, c, kind, py),
        Dtype::U8 => gemm_typed::<u8>(a, b, c, kind, py),
        Dtype::F16 | Dtype::BF16 => Err(PyTypeError::new_err(format!(
            "{what}: {} tensors are not multiplied here (cute-gemm multiplies float32, float64 \
             and integers); convert with .astype(numpy.float32)",
            a.view.dtype.name()
        ))),
    }
}

/// GEMM: `C(m,n,l) += Σ_k A(m,k,l)·B(n,k,l)` over tensors `(array, layout, offset)` with
/// layouts `(M,K[,L])`, `(N,K[,L])`, `(M,N[,L])` (the paper's Table 3; modes may be hierarchical),
/// by the blocked kernel of cute-gemm (float32/float64) with the GIL released.
///
/// >>> import numpy as np
/// >>> from cute_algebra import Layout, tensor_gemm
/// >>> a, b, c = np.ones((2, 3)), np.ones((2, 3)), np.zeros((2, 2))
/// >>> tensor_gemm((a, Layout((2, 3), (3, 1)), 0), (b, Layout((2, 3), (3, 1)), 0),
/// ...             (c, Layout((2, 2), (2, 1)), 0)); c.tolist()
/// [[3.0, 3.0], [3.0, 3.0]]
#[pyfunction]
pub fn tensor_gemm(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    c: &Bound<'_, PyAny>,
) -> PyResult<()> {
    dispatch(py, [a, b, c], Kind::Gemm, "gemm")
}

/// The einsum-style GETT `C[out] = Σ A[first]·B[second] + β·C[out]` (`beta=None`: accumulate,
/// `β = 1`) over tensors `(array, layout, offset)`; each letter names one top-level mode. Runs
/// cute-gemm's `contract` with the GIL released.
///
/// >>> import numpy as np
/// >>> from cute_algebra import Layout, tensor_contract
/// >>> a, b, c = np.arange(6.0).reshape(2, 3), np.ones(3), np.zeros(2)
/// >>> tensor_contract("mk,k->m", (a, Layout((2, 3), (3, 1)), 0), (b, Layout(3, 1), 0),
/// ...                 (c, Layout(2, 1), 0), 0.0); c.tolist()
/// [3.0, 12.0]
#[pyfunction]
#[pyo3(signature = (spec, a, b, c, beta=None))]
pub fn tensor_contract(
    py: Python<'_>,
    spec: &str,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    c: &Bound<'_, PyAny>,
    beta: Option<f64>,
) -> PyResult<()> {
    dispatch(
        py,
        [a, b, c],
        // spaces are allowed anywhere (`"mk, kn -> mn"`), as numpy.einsum allows them
        Kind::Contract(spec.split_whitespace().collect(), beta),
        "contract",
    )
}
