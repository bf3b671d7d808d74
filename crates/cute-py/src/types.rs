//! The Python class `Layout`, and the helpers the value classes share.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use cute::Layout;
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PySlice, PyTuple};

use crate::classes::{Cached, LBox, PyLayout};
use crate::conv::{self, has_none, int, OrRaise};
use crate::made;

pub(crate) fn hash_of<T: Hash>(x: &T) -> u64 {
    let mut h = DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

/// `__eq__` of the value classes: `other` is a `T` whose wrapped value (`inner`) equals `mine`.
pub(crate) fn same_value<T, V>(other: &Bound<'_, PyAny>, mine: &V, inner: fn(&T) -> &V) -> bool
where
    T: pyo3::PyClass<Frozen = pyo3::pyclass::boolean_struct::True> + Sync,
    V: PartialEq,
{
    other
        .downcast::<T>()
        .map(|o| inner(o.get()) == mine)
        .unwrap_or(false)
}

/// The index `k` of a sequence of length `n`, negative from the end.
pub(crate) fn index(k: isize, n: usize, what: &str) -> PyResult<usize> {
    let i = if k < 0 { k + n as isize } else { k };
    if i < 0 || i as usize >= n {
        return Err(PyIndexError::new_err(format!(
            "{what}: mode index {k} out of range for rank {n}"
        )));
    }
    Ok(i as usize)
}

/// The value in `cell`, made by `make` the first time (a race between threads makes it twice and
/// keeps one).
pub(crate) fn cached(
    py: Python<'_>,
    cell: &OnceLock<PyObject>,
    make: impl FnOnce() -> PyResult<PyObject>,
) -> PyResult<PyObject> {
    if let Some(x) = cell.get() {
        return Ok(x.clone_ref(py));
    }
    let x = make()?;
    Ok(cell.get_or_init(|| x).clone_ref(py))
}

impl Clone for PyLayout {
    fn clone(&self) -> PyLayout {
        PyLayout::wrap(*self.0)
    }
}

impl PyLayout {
    /// The Python object's contents for `l`.
    pub fn wrap(l: Layout) -> PyLayout {
        PyLayout(LBox::new(l), Cached::default())
    }

    /// The shape as a Python value (made once).
    pub fn shape_py(&self, py: Python<'_>) -> PyResult<PyObject> {
        if let Some((s, _)) = &self.1.given {
            return Ok(s.clone_ref(py));
        }
        cached(py, &self.1.shape, || conv::layout_shape_py(py, &self.0))
    }

    /// The stride as a Python value (made once).
    pub fn stride_py(&self, py: Python<'_>) -> PyResult<PyObject> {
        if let Some((_, d)) = &self.1.given {
            return Ok(d.clone_ref(py));
        }
        cached(py, &self.1.stride, || conv::layout_stride_py(py, &self.0))
    }
}

/// Wraps a layout as a Python object.
pub fn new_layout(py: Python<'_>, l: Layout) -> PyResult<Py<PyLayout>> {
    Py::new(py, PyLayout::wrap(l))
}

/// The Python expression that rebuilds `l` (`Layout(shape,stride)`).
pub fn layout_repr(l: &Layout) -> String {
    Python::with_gil(|py| -> PyResult<String> {
        let shape = conv::tuple_py(py, &l.shape())?;
        let stride = conv::layout_stride_py(py, l)?;
        Ok(format!(
            "Layout({},{})",
            compact_repr(shape.bind(py))?,
            compact_repr(stride.bind(py))?
        ))
    })
    .unwrap_or_else(|_| format!("Layout.parse({:?})", l.to_string()))
}

/// `repr` of a nested tuple without spaces (`(2,(3,4))`, `(4,)` for a 1-tuple).
fn compact_repr(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(t) = obj.downcast::<PyTuple>() {
        let items = t
            .iter()
            .map(|x| compact_repr(&x))
            .collect::<PyResult<Vec<_>>>()?;
        if items.len() == 1 {
            return Ok(format!("({},)", items[0]));
        }
        return Ok(format!("({})", items.join(",")));
    }
    Ok(obj.repr()?.to_string())
}

/// True when `a` and `b` are the same function on the same domain: equal shapes, and equal
/// strides at every leaf of size above 1 (a leaf of size 1 only ever takes coordinate 0).
pub fn same_function(a: &Layout, b: &Layout) -> bool {
    if a == b {
        return true;
    }
    a.leaf_count() == b.leaf_count()
        && a.shape() == b.shape()
        && (0..a.leaf_count()).all(|j| a.leaf_at(j).0 == 1 || a.stride_at(j) == b.stride_at(j))
}

/// The most cells `Layout._repr_svg_` draws one by one.
const SVG_MAX_CELLS: i64 = 4096;

/// A small picture that stands for a layout too large to draw cell by cell.
fn summary_svg(l: &Layout) -> String {
    let text: String = l
        .to_string()
        .chars()
        .map(|c| match c {
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '&' => "&amp;".to_string(),
            c => c.to_string(),
        })
        .collect();
    let width = 16 + 8 * text.chars().count().max(48);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"56\" \
         font-family=\"monospace\" font-size=\"13\">\
         <rect x=\"0.5\" y=\"0.5\" width=\"{w}\" height=\"55\" fill=\"#f4f4f4\" stroke=\"#888\"/>\
         <text x=\"8\" y=\"22\">{text}</text>\
         <text x=\"8\" y=\"44\" fill=\"#555\">{size} cells, over the {max} drawn one by one \
         (layout_svg draws them all)</text></svg>",
        w = width - 1,
        size = l.size(),
        max = SVG_MAX_CELLS,
    )
}

#[pymethods]
impl PyLayout {
    #[new]
    #[pyo3(signature = (shape, stride=None))]
    fn new(
        py: Python<'_>,
        shape: &Bound<'_, PyAny>,
        stride: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<Self>> {
        if let Some(d) = stride {
            if let Some(me) = made::recall(py, shape, d) {
                return Ok(me);
            }
            // plain ints in exact tuples (the common case): one walk of each argument, the
            // layout written straight into its box; anything else takes the general path,
            // which also raises every error
            let (mut s, mut t) = (conv::Leaves::new(), conv::Leaves::new());
            let built = if s.walk(shape, 0) && t.walk(d, 0) && s.same_nesting(&t) {
                let n = s.n;
                LBox::build(|l| {
                    l.assign_leaves(&s.open[..n], &s.close[..n], &s.val[..n], &t.val[..n])
                        .is_ok()
                })
            } else {
                None
            };
            if let Some(b) = built {
                // the arguments are exact tuples of exact ints: immutable, kept as they are
                let me = Py::new(
                    py,
                    PyLayout(
                        b,
                        Cached {
                            given: Some((shape.clone().unbind(), d.clone().unbind())),
                            ..Cached::default()
                        },
                    ),
                )?;
                made::remember(py, shape, d, &me);
                return Ok(me);
            }
        }
        Py::new(py, conv::make_layout(shape, stride).map(PyLayout::wrap)?)
    }

    /// Reads a layout in CuTe notation.
    ///
    /// >>> from cute_algebra import Layout
    /// >>> Layout.parse("((2,2),8):((1,16),2)")
    /// Layout(((2,2),8),((1,16),2))
    /// >>> Layout.parse("(4,6):(1@0,1@1)")(5)
    /// (1, 1)
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        text.parse::<Layout>().py().map(PyLayout::wrap)
    }

    /// The shape, as an int or a nested tuple of ints.
    ///
    /// >>> from cute_algebra import Layout
    /// >>> Layout((4, (2, 3)), (1, (4, 8))).shape
    /// (4, (2, 3))
    #[getter]
    fn shape(&self, py: Python<'_>) -> PyResult<PyObject> {
        self.shape_py(py)
    }

    /// The stride, nested as the shape; leaves are ints, `E` or `F2` values.
    ///
    /// >>> from cute_algebra import Layout
    /// >>> Layout((4, (2, 3)), (1, (4, 8))).stride
    /// (1, (4, 8))
    #[getter]
    fn stride(&self, py: Python<'_>) -> PyResult<PyObject> {
        self.stride_py(py)
    }

    /// The size of the domain, `size(shape)`.
    ///
    /// >>> from cute_algebra import Layout
    /// >>> Layout((4, 8), (8, 1)).size()
    /// 32
    fn size(&self) -> i64 {
        self.0.size()
    }

    /// The size of the codomain: `L(size - 1) + 1` for non-negative strides, in general one past
    /// the largest offset.
    ///
    /// >>> from cute_algebra import Layout
    /// >>> Layout((4, 8), (1, 8)).cosize()
    /// 60
    fn cosize(&self) -> PyResult<i64> {
        self.0.cosize().py()
    }

    /// The number of top-level modes (1 for an integer shape).
    ///
    /// >>> from cute_algebra import Layout
    /// >>> Layout((4, (2, 3))).rank(), Layout(8).rank()
    /// (2, 1)
    fn rank(&self) -> usize {
        self.0.rank()
    }

    /// The nesting depth of the shape (0 for an integer).
    ///
    /// >>> from cute_algebra import Layout
    /// >>> Layout((4, (2, 3))).depth(), Layout(8).depth()
    /// (2, 0)
    fn depth(&self) -> usize {
        self.0.depth()
    }

    /// The layout with a flat shape (every leaf its own mode).
    ///
    /// >>> from cute_algebra import Layout
    /// >>> Layout((4, (2, 3)), (1, (4, 8))).flatten()
    /// Layout((4,2,3),(1,4,8))
    fn flatten(&self) -> PyLayout {
        PyLayout::wrap(self.0.flatten())
    }

    /// Evaluates the layout: `L(i)` at an index, `L(c)` or `L(c0, c1, ...)` at a coordinate. A
    /// coordinate containing `None` slices instead (CuTe's `_`) and returns the sub-layout of the
    /// free modes.
    ///
    /// >>> from cute_algebra import Layout
    /// >>> L = Layout((4, 8), (1, 4))
    /// >>> L(9), L((1, 2)), L(2, None)
    /// (9, 9, Layout((8,),(4,)))
    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<PyObject> {
        let arg = conv::call_arg(args, "Layout")?;
        // the common cases without allocating: an int index, a coordinate of plain ints
        if arg.is_exact_instance_of::<PyInt>() {
            if let Ok(i) = arg.extract::<i64>() {
                return conv::value_py(py, &self.0.eval_value(i).py()?);
            }
        }
        let mut c = conv::Leaves::new();
        if c.walk(&arg, 0) {
            let n = c.n;
            if let Some(v) = self.0.eval_leaves(&c.open[..n], &c.close[..n], &c.val[..n]) {
                return Ok(v.into_pyobject(py)?.into_any().unbind());
            }
            if let Ok(t) = c.tuple() {
                return conv::value_py(py, &self.0.eval_crd_value(&t).py()?);
            }
        }
        if has_none(&arg) {
            let c = conv::partial_coord(&arg, "Layout slice")?;
            let l = cute::slice(&self.0, &c).py()?;
            return Ok(new_layout(py, l)?.into_any());
        }
        let v = if conv::seq(&arg).is_some() {
            let c = conv::tuple(&arg, "Layout coordinate")?;
            self.0.eval_crd_value(&c).py()?
        } else {
            let i = int(&arg, "Layout index").map_err(|e| {
                if e.is_instance_of::<PyTypeError>(py) {
                    PyTypeError::new_err(format!(
                        "Layout(...): expected an index, a coordinate tuple or None, got {}",
                        conv::kind_of(&arg)
                    ))
                } else {
                    e
                }
            })?;
            self.0.eval_value(i).py()?
        };
        conv::value_py(py, &v)
    }

    /// Mode `k` (negative from the end), or the modes of a slice `L[b:e]`.
    ///
    /// >>> from cute_algebra import Layout
    /// >>> L = Layout((4, (2, 3)), (1, (4, 8)))
    /// >>> L[1], L[-1][0], L[0:1]
    /// (Layout((2,3),(4,8)), Layout(2,4), Layout((4,),(1,)))
    fn __getitem__(&self, py: Python<'_>, k: &Bound<'_, PyAny>) -> PyResult<Py<PyLayout>> {
        let n = self.0.rank();
        if let Ok(s) = k.downcast::<PySlice>() {
            let ix = s.indices(n as isize)?;
            if ix.step != 1 {
                return Err(PyIndexError::new_err(format!(
                    "Layout[b:e]: only step 1 is supported, got step {}",
                    ix.step
                )));
            }
            let (b, e) = (ix.start as usize, (ix.stop.max(ix.start)) as usize);
            return new_layout(py, self.0.take(b, e).py()?);
        }
        let k: isize = int(k, "Layout[k]")? as isize;
        let i = index(k, n, "Layout[k]")?;
        new_layout(py, self.0.mode(i).py()?)
    }

    fn __len__(&self) -> usize {
        self.0.rank()
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<PyObject> {
        let modes = (0..self.0.rank())
            .map(|k| self.0.mode(k).py().and_then(|l| new_layout(py, l)))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, modes)?
            .into_any()
            .call_method0("__iter__")?
            .unbind())
    }

    /// Layouts are equal as functions on the same domain: the same shape, and the same value at
    /// every coordinate. So the stride of a size-1 mode does not matter (`1:0 == 1:1`, as
    /// `coalesce` gives `1:0` where `composition` may give `1:1`); `str` still shows it.
    ///
    /// >>> from cute_algebra import Layout
    /// >>> Layout(1, 0) == Layout(1, 1), Layout((4, 1), (1, 0)) == Layout((4, 1), (1, 9))
    /// (True, True)
    /// >>> Layout(4, 1) == Layout((4,), (1,)), Layout(4, 1) == Layout(4, 2)
    /// (False, False)
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyObject {
        let py = other.py();
        match other.downcast::<PyLayout>() {
            Ok(o) => same_function(&self.0, &o.get().0)
                .into_pyobject(py)
                .map(|b| b.to_owned().into_any().unbind())
                .unwrap_or_else(|_| py.NotImplemented()),
            Err(_) => py.NotImplemented(),
        }
    }

    fn __hash__(&self) -> u64 {
        // consistent with `__eq__`: the strides of size-1 leaves are left out
        let l = &*self.0;
        let mut h = DefaultHasher::new();
        l.shape().hash(&mut h);
        for j in 0..l.leaf_count() {
            if l.leaf_at(j).0 != 1 {
                l.stride_at(j).hash(&mut h);
            }
        }
        h.finish()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        layout_repr(&self.0)
    }

    /// The picture of the layout as SVG (notebook display): one cell per coordinate up to
    /// `SVG_MAX_CELLS` (4096) cells; past that a small summary picture (the layout and its size;
    /// `layout_svg` draws every cell); `None` when it cannot be drawn.
    ///
    /// >>> from cute_algebra import Layout
    /// >>> Layout((4, 8), (1, 4))._repr_svg_().count('class="cell"')
    /// 32
    /// >>> big = Layout((64, 64, 64))._repr_svg_()
    /// >>> len(big) < 1000, "262144 cells" in big
    /// (True, True)
    fn _repr_svg_(&self) -> Option<String> {
        if self.0.size() > SVG_MAX_CELLS {
            return Some(summary_svg(&self.0));
        }
        cute_draw::svg::layout_svg(&self.0).ok()
    }

    /// The picture as PNG bytes, for Jupyter (the same cells as [`Self::_repr_svg_`], rasterised
    /// with the labels when they are large enough to read); `None` past the cells drawn one by
    /// one, where the SVG summary stands for the layout.
    ///
    /// >>> from cute_algebra import Layout
    /// >>> png = Layout((4, 8), (1, 4))._repr_png_()
    /// >>> png[1:4], Layout((64, 64, 64))._repr_png_()
    /// (b'PNG', None)
    fn _repr_png_<'py>(&self, py: Python<'py>) -> Option<Bound<'py, pyo3::types::PyBytes>> {
        if self.0.size() > SVG_MAX_CELLS {
            return None;
        }
        let scene = cute_draw::pictures::layout(&self.0).ok()?;
        let png = py.allow_threads(|| cute_draw::png::render(&scene)).ok()?;
        Some(pyo3::types::PyBytes::new(py, &png))
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(PyObject, (PyObject, PyObject))> {
        let py = slf.py();
        let me = slf.get();
        Ok((
            py.get_type::<PyLayout>().into_any().unbind(),
            (me.shape_py(py)?, me.stride_py(py)?),
        ))
    }
}
