//! `cute_algebra.SymLayout`: layouts whose extents are known only at run time (`?`,
//! `?{div=16}`, `M{div=16,min=64}`), from the core's [`cute::symbolic`]. Every operation returns
//! a layout right for every admissible value of the unknowns, or raises `LayoutError` with
//! category `Condition` naming the unknown and the run-time condition.

use cute::symbolic::{self, SymError, SymLayout};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::classes::PyLayout;
use crate::conv::layout_error;

fn raise(e: SymError) -> PyErr {
    layout_error(e.to_string(), e.category(), e.op)
}

/// A layout with extents known only at run time, in CuTe notation extended by unknowns: `?`
/// (each one a different value), `?{div=16}` (CuTe DSL's notation: divisible by 16), names `M`
/// (the same name is the same value), `M{div=16,min=64}`, products `192*M` and `M/8`.
/// `cute_algebra.symbolic.layout` builds one from Python values (sympy symbols included).
///
/// >>> from cute_algebra import SymLayout
/// >>> l = SymLayout("(192,?{div=8}):(1,192)")
/// >>> print(l.coalesce())
/// 192*?{div=8}:1
/// >>> print(SymLayout("(16,N):(1,16)").right_inverse())
/// 16*N:1
#[pyclass(frozen, module = "cute_algebra", name = "SymLayout")]
pub struct PySymLayout(pub SymLayout);

fn wrap(r: Result<SymLayout, SymError>) -> PyResult<PySymLayout> {
    r.map(PySymLayout).map_err(raise)
}

/// The right operand of a divide: a `SymLayout`, or text (a layout, or a tiler by mode
/// `<B0,B1,_>`).
#[derive(FromPyObject)]
pub enum Divisor<'py> {
    /// A symbolic layout.
    Layout(PyRef<'py, PySymLayout>),
    /// CuTe text.
    Text(String),
}

type ByLayout = fn(&SymLayout, &SymLayout) -> Result<SymLayout, SymError>;
type ByMode = fn(&SymLayout, &symbolic::SymTiler) -> Result<SymLayout, SymError>;

fn divide(
    a: &SymLayout,
    b: Divisor<'_>,
    by_layout: ByLayout,
    by_mode: ByMode,
) -> PyResult<PySymLayout> {
    match b {
        Divisor::Layout(l) => wrap(by_layout(a, &l.0)),
        Divisor::Text(t) if t.trim_start().starts_with('<') => {
            let t: symbolic::SymTiler = t.parse().map_err(raise)?;
            wrap(by_mode(a, &t))
        }
        Divisor::Text(t) => wrap(by_layout(a, &t.parse().map_err(raise)?)),
    }
}

#[pymethods]
impl PySymLayout {
    /// Reads a layout in CuTe notation with unknowns.
    ///
    /// >>> print(SymLayout("(4,M{div=8})"))
    /// (4,M{div=8}):(1,4)
    #[new]
    fn py_new(text: &str) -> PyResult<Self> {
        wrap(text.parse())
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    /// The constructor call that makes it again.
    ///
    /// >>> SymLayout("M:1")
    /// SymLayout('M:1')
    fn __repr__(&self) -> String {
        format!("SymLayout('{}')", self.0)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.downcast::<PySymLayout>() {
            Ok(o) => o.get().0.to_string() == self.0.to_string(),
            Err(_) => false,
        }
    }

    /// The size, the product of the shape's extents, as text.
    ///
    /// >>> SymLayout("(4,M):(1,4)").size()
    /// '4*M'
    fn size(&self) -> String {
        self.0.size().to_string()
    }

    /// `L(i)` at an index, `L(c)` or `L(c0, c1, ...)` at a coordinate: the offset, an `int`
    /// where it is known now, else its text, a sum of products of the unknowns. An index spreads
    /// over the modes (the last not reduced) only where it stays below each unknown extent it
    /// crosses for every admissible value; otherwise `LayoutError` (category `Condition`) names
    /// the bound.
    ///
    /// >>> SymLayout("(4,M):(M,1)")(3, 5)
    /// '5+3*M'
    /// >>> SymLayout("(4,M):(1,4)")(13)
    /// 13
    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<PyObject> {
        let arg = crate::conv::call_arg(args, "SymLayout")?;
        let c = crate::conv::tuple(&arg, "SymLayout coordinate")?;
        let o = symbolic::eval(&self.0, &c).map_err(raise)?;
        Ok(match o.as_int() {
            Some(v) => v.into_pyobject(py)?.into_any().unbind(),
            None => o.to_string().into_pyobject(py)?.into_any().unbind(),
        })
    }

    /// The unknowns as `(name, div, min)` (`name` is `None` for an anonymous `?`).
    ///
    /// >>> SymLayout("(M{div=8},?):(1,M)").unknowns()
    /// [('M', 8, 1), (None, 1, 1)]
    fn unknowns(&self) -> Vec<(Option<String>, i64, i64)> {
        self.0
            .unknowns()
            .into_iter()
            .map(|s| {
                let name = match s.id {
                    symbolic::SymId::Named(n) => Some(n),
                    symbolic::SymId::Anon(_) | symbolic::SymId::Ceil(..) => None,
                };
                (name, s.div, s.min)
            })
            .collect()
    }

    /// True when no extent or stride is unknown.
    ///
    /// >>> SymLayout("(4,8):(1,4)").is_static()
    /// True
    fn is_static(&self) -> bool {
        self.0.is_static()
    }

    /// The integer `Layout` for the named unknowns' values (`{"M": 64}`); anonymous unknowns
    /// cannot be named, so a layout with them is refused.
    ///
    /// >>> print(SymLayout("(192,M{div=8}):(1,192)").substitute({"M": 16}))
    /// (192,16):(1,192)
    fn substitute(&self, values: &Bound<'_, PyDict>) -> PyResult<PyLayout> {
        let mut table: Vec<(String, i64)> = Vec::new();
        for (k, v) in values.iter() {
            table.push((k.extract()?, v.extract()?));
        }
        for s in self.0.unknowns() {
            let known = match &s.id {
                symbolic::SymId::Named(n) => table.iter().any(|(k, _)| k == n),
                symbolic::SymId::Anon(_) | symbolic::SymId::Ceil(..) => false,
            };
            if !known {
                return Err(PyTypeError::new_err(format!(
                    "substitute: no value for an unknown of {}",
                    self.0
                )));
            }
        }
        let value = |s: &symbolic::Sym| match &s.id {
            symbolic::SymId::Named(n) => table
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| *v)
                .unwrap_or(0),
            symbolic::SymId::Anon(_) | symbolic::SymId::Ceil(..) => 0,
        };
        self.0.substitute(&value).map(PyLayout::wrap).map_err(raise)
    }

    /// `coalesce(L)`: the same function with the fewest modes this can prove (CUTLASS #3469).
    /// `static_apart=True` keeps a static extent above 1 out of a product with unknowns (the
    /// paper's PyCuTe: `(4,N):(1,4)` stays); `keep_last=True` keeps a last size-1 mode whose
    /// step does not continue the layout (the paper's `coalesce_z`, exact past the size).
    ///
    /// >>> print(SymLayout("(192,?):(1,192)").coalesce())
    /// 192*?:1
    /// >>> print(SymLayout("(4,N):(1,4)").coalesce(static_apart=True))
    /// (4,N):(1,4)
    #[pyo3(signature = (static_apart=false, keep_last=false))]
    fn coalesce(&self, static_apart: bool, keep_last: bool) -> PyResult<Self> {
        let form = symbolic::Form {
            static_apart,
            keep_last,
            ..Default::default()
        };
        wrap(symbolic::coalesce_with(&self.0, form))
    }

    /// `self ∘ b`, valid for every admissible value (CUTLASS #3470), or `LayoutError`
    /// (category `Condition`) naming the run-time condition.
    ///
    /// >>> a = SymLayout("(4096,8192):(1,4096)")
    /// >>> print(a.composition(SymLayout("(32,N,8,128):(1@0,8@1,1@1,32@0)")))
    /// (32,N,8,128):(1,32768,4096,32)
    fn composition(&self, b: &PySymLayout) -> PyResult<Self> {
        wrap(symbolic::composition(&self.0, &b.0))
    }

    /// `complement(L, cotarget)`; the cotarget is a `SymLayout` whose size is used, or `None`.
    ///
    /// >>> print(SymLayout("4:1").complement(SymLayout("M{div=4}:1")))
    /// M{div=4}/4:4
    #[pyo3(signature = (cotarget=None))]
    fn complement(&self, cotarget: Option<&PySymLayout>) -> PyResult<Self> {
        let m = cotarget.map(|c| c.0.size());
        wrap(symbolic::complement(&self.0, m.as_ref()))
    }

    /// `right_inverse(L)` (CUTLASS #3471). `uniform=True` stops the chain where its continuation
    /// depends on an unknown (the largest inverse that is one for every admissible value at
    /// once) instead of refusing; `static_apart=True` as in `coalesce`.
    ///
    /// >>> print(SymLayout("(16,N):(1,16)").right_inverse())
    /// 16*N:1
    /// >>> print(SymLayout("N:X").right_inverse(uniform=True))
    /// 1:0
    #[pyo3(signature = (static_apart=false, uniform=false))]
    fn right_inverse(&self, static_apart: bool, uniform: bool) -> PyResult<Self> {
        let form = symbolic::Form {
            static_apart,
            uniform,
            ..Default::default()
        };
        wrap(symbolic::right_inverse_with(&self.0, form))
    }

    /// `left_inverse(L)`.
    ///
    /// >>> print(SymLayout("(4,M{min=2}):(M,1)").left_inverse())
    /// (M{min=2},4):(4,1)
    fn left_inverse(&self) -> PyResult<Self> {
        wrap(symbolic::left_inverse(&self.0))
    }

    /// `logical_divide(self, b)`.
    ///
    /// >>> print(SymLayout("(M{div=16},N):(1,2*M)").logical_divide(SymLayout("16:1")))
    /// (16,(M{div=16}/16,N)):(1,(16,2*M))
    fn logical_divide(&self, b: Divisor<'_>) -> PyResult<Self> {
        divide(
            &self.0,
            b,
            symbolic::logical_divide,
            symbolic::logical_divide_by_mode,
        )
    }

    /// `zipped_divide(self, b)`; `b` a `SymLayout`, or text: a layout or a tiler by mode.
    ///
    /// >>> print(SymLayout("(M{div=128},N):(1,M)").zipped_divide("<128:1,_>"))
    /// Traceback (most recent call last):
    ///   ...
    /// cute_algebra.LayoutError: zipped_divide (M{div=128},N):(1,M) <128:1,_>: unsupported for unknown extents: `_` in the tiler of a zipped, tiled or flat divide
    /// >>> print(SymLayout("(M{div=128},N{div=64}):(1,M)").zipped_divide("<128:1,64:1>"))
    /// ((128,64),(M{div=128}/128,N{div=64}/64)):((1,M),(128,64*M))
    /// >>> print(SymLayout("M{div=8}:1").zipped_divide(SymLayout("8:1")))
    /// (8,M{div=8}/8):(1,8)
    fn zipped_divide(&self, b: Divisor<'_>) -> PyResult<Self> {
        divide(
            &self.0,
            b,
            symbolic::zipped_divide,
            symbolic::zipped_divide_by_mode,
        )
    }

    /// `tiled_divide(self, b)`.
    ///
    /// >>> print(SymLayout("(M{div=8},N):(1,2*M)").tiled_divide(SymLayout("8:1")))
    /// (8,M{div=8}/8,N):(1,8,2*M)
    fn tiled_divide(&self, b: Divisor<'_>) -> PyResult<Self> {
        divide(
            &self.0,
            b,
            symbolic::tiled_divide,
            symbolic::tiled_divide_by_mode,
        )
    }

    /// `flat_divide(self, b)`.
    ///
    /// >>> print(SymLayout("(M{div=8},N):(1,2*M)").flat_divide(SymLayout("(2,4):(1,2)")))
    /// (2,4,M{div=8}/8,N):(1,2,8,2*M)
    fn flat_divide(&self, b: Divisor<'_>) -> PyResult<Self> {
        divide(
            &self.0,
            b,
            symbolic::flat_divide,
            symbolic::flat_divide_by_mode,
        )
    }

    /// `logical_product(self, b)`.
    ///
    /// >>> print(SymLayout("(2,2):(1,2)").logical_product(SymLayout("N:1")))
    /// ((2,2),N):((1,2),4)
    fn logical_product(&self, b: &PySymLayout) -> PyResult<Self> {
        wrap(symbolic::logical_product(&self.0, &b.0))
    }

    /// `zipped_product(self, b)`.
    ///
    /// >>> print(SymLayout("(2,2):(1,2)").zipped_product(SymLayout("(3,N):(1,3)")))
    /// ((2,2),(3,N)):((1,2),(4,12))
    fn zipped_product(&self, b: &PySymLayout) -> PyResult<Self> {
        wrap(symbolic::zipped_product(&self.0, &b.0))
    }

    /// `tiled_product(self, b)`.
    ///
    /// >>> print(SymLayout("(2,2):(1,2)").tiled_product(SymLayout("(3,N):(1,3)")))
    /// ((2,2),3,N):((1,2),4,12)
    fn tiled_product(&self, b: &PySymLayout) -> PyResult<Self> {
        wrap(symbolic::tiled_product(&self.0, &b.0))
    }

    /// `flat_product(self, b)`.
    ///
    /// >>> print(SymLayout("(2,2):(1,2)").flat_product(SymLayout("(3,N):(1,3)")))
    /// (2,2,3,N):(1,2,4,12)
    fn flat_product(&self, b: &PySymLayout) -> PyResult<Self> {
        wrap(symbolic::flat_product(&self.0, &b.0))
    }

    /// `blocked_product(self, b)`.
    ///
    /// >>> print(SymLayout("(2,2):(1,2)").blocked_product(SymLayout("(M,N):(1,M)")))
    /// ((2,M),(2,N)):((1,4),(2,4*M))
    fn blocked_product(&self, b: &PySymLayout) -> PyResult<Self> {
        wrap(symbolic::blocked_product(&self.0, &b.0))
    }

    /// `raked_product(self, b)`.
    ///
    /// >>> print(SymLayout("(2,2):(1,2)").raked_product(SymLayout("(M,N):(1,M)")))
    /// ((M,2),(N,2)):((4,1),(4*M,2))
    fn raked_product(&self, b: &PySymLayout) -> PyResult<Self> {
        wrap(symbolic::raked_product(&self.0, &b.0))
    }

    /// Pickling: the text.
    ///
    /// >>> import pickle; print(pickle.loads(pickle.dumps(SymLayout("M{div=8}:1"))))
    /// M{div=8}:1
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let ty = py.get_type::<PySymLayout>().into_any();
        let args = PyTuple::new(py, [slf.get().0.to_string()])?;
        Ok((ty, args))
    }
}
