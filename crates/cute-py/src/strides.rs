//! The stride classes `E` (a coordinate basis element) and `F2` (a binary stride).

use cute::{Op, Stride};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::classes::{PyE, PyF2};
use crate::conv::{self, err, int, OrRaise};
use crate::types::{hash_of, same_value};

#[pymethods]
impl PyE {
    #[new]
    #[pyo3(signature = (*path))]
    fn new(path: &Bound<'_, PyTuple>) -> PyResult<Self> {
        let p = path
            .iter()
            .map(|x| {
                let v = int(&x, "E(path)")?;
                usize::try_from(v).map_err(|_| {
                    err(cute::Error::new(
                        Op::MakeLayout,
                        cute::ErrorKind::Unsupported {
                            what: "a negative basis index in E(...)",
                        },
                    ))
                })
            })
            .collect::<PyResult<Vec<usize>>>()?;
        if p.is_empty() {
            return Err(PyTypeError::new_err(
                "E(path): expected at least one basis index, got none",
            ));
        }
        Stride::basis(1, &p).py().map(PyE)
    }

    /// The coefficient `v`.
    ///
    /// >>> from cute_algebra import E
    /// >>> (3 * E(1)).value
    /// 3
    #[getter]
    fn value(&self) -> i64 {
        self.0.value()
    }

    /// The basis path `(p1, …, pk)`.
    ///
    /// >>> from cute_algebra import E
    /// >>> E(0, 2).path
    /// (0, 2)
    #[getter]
    fn path<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let (p, n) = self.0.path();
        PyTuple::new(py, p[..n].iter().copied())
    }

    /// `v·E(path)` (for pickling).
    #[staticmethod]
    #[pyo3(signature = (value, *path))]
    fn _scaled(value: i64, path: &Bound<'_, PyTuple>) -> PyResult<PyObject> {
        let py = path.py();
        let e = PyE::new(path)?;
        let s = e.0.scale(value, Op::MakeLayout).py()?;
        conv::stride_py(py, s)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(PyObject, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let (p, n) = slf.get().0.path();
        let mut args: Vec<i64> = vec![slf.get().0.value()];
        args.extend(p[..n].iter().map(|&x| x as i64));
        Ok((
            py.get_type::<PyE>().getattr("_scaled")?.unbind(),
            PyTuple::new(py, args)?,
        ))
    }

    fn __mul__(&self, c: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let py = c.py();
        let Ok(c) = int(c, "E * c") else {
            return Ok(py.NotImplemented());
        };
        let s = self.0.scale(c, Op::MakeLayout).py()?;
        conv::stride_py(py, s)
    }

    fn __rmul__(&self, c: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        self.__mul__(c)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        same_value(other, &self.0, |o: &PyE| &o.0)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.0)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        let (p, n) = self.0.path();
        let path: Vec<String> = p[..n].iter().map(|x| x.to_string()).collect();
        let e = format!("E({})", path.join(","));
        if self.0.value() == 1 {
            e
        } else {
            format!("{}*{e}", self.0.value())
        }
    }
}

#[pymethods]
impl PyF2 {
    #[new]
    fn new(bits: &Bound<'_, PyAny>) -> PyResult<Self> {
        let b = int(bits, "F2(bits)")?;
        let b = u64::try_from(b).map_err(|_| {
            err(cute::Error::new(
                Op::MakeLayout,
                cute::ErrorKind::Unsupported {
                    what: "negative bits in F2(...)",
                },
            ))
        })?;
        Stride::f2(b).py().map(PyF2)
    }

    /// The coefficient bits.
    ///
    /// >>> from cute_algebra import F2
    /// >>> F2(9).bits
    /// 9
    #[getter]
    fn bits(&self) -> i64 {
        self.0.value()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        same_value(other, &self.0, |o: &PyF2| &o.0)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.0)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("F2({})", self.0.value())
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(PyObject, (i64,))> {
        let py = slf.py();
        Ok((
            py.get_type::<PyF2>().into_any().unbind(),
            (slf.get().0.value(),),
        ))
    }
}
