//! The module functions written by hand: the operations of the core's table whose Python form
//! differs from the table's (`table::HAND_KEPT` lists each with the reason; every other table
//! operation is made by `table.rs`), and `product`, `product_each`, `prefix_product`.

use cute::{Error, ErrorKind, Layout, Op, Operand};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::classes::{PyComposedLayout, PyLayout, PySwizzle};
use crate::conv::{self, err, int, kind_of, layout_arg, seq, tiler_arg, tuple, tuple_py, OrRaise};

pub(crate) type L = PyResult<PyLayout>;

/// A layout with the offset of its first element, as Python gets it.
pub(crate) fn with_offset(r: Result<(Layout, i64), Error>) -> PyResult<(PyLayout, i64)> {
    let (l, o) = r.py()?;
    Ok((PyLayout::wrap(l), o))
}

pub(crate) fn lay(obj: &Bound<'_, PyAny>, op: &str) -> PyResult<Layout> {
    layout_arg(obj, op)
}

/// The size of a layout, a composed layout, or a shape (the product of its leaves).
///
/// >>> from cute_algebra import Layout, size
/// >>> size(Layout((4, 8))), size((2, (3, 4))), size(7)
/// (32, 24, 7)
#[pyfunction]
pub fn size(x: &Bound<'_, PyAny>) -> PyResult<i64> {
    if let Ok(l) = x.downcast::<PyLayout>() {
        return Ok(l.get().0.size());
    }
    if let Ok(c) = x.downcast::<PyComposedLayout>() {
        return Ok(c.get().0.size());
    }
    tuple(x, "size")?.size().py()
}

/// The size of a layout's codomain.
///
/// >>> from cute_algebra import Layout, cosize
/// >>> cosize(Layout((4, 8), (1, 8)))
/// 60
#[pyfunction]
pub fn cosize(x: &Bound<'_, PyAny>) -> PyResult<i64> {
    if let Ok(c) = x.downcast::<PyComposedLayout>() {
        return c.get().0.cosize().py();
    }
    lay(x, "cosize")?.cosize().py()
}

/// The number of top-level modes of a layout or a tuple (1 for an int).
///
/// >>> from cute_algebra import Layout, rank
/// >>> rank(Layout((4, (2, 3)))), rank((1, 2, 3)), rank(5)
/// (2, 3, 1)
#[pyfunction]
pub fn rank(x: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(l) = x.downcast::<PyLayout>() {
        return Ok(l.get().0.rank());
    }
    Ok(tuple(x, "rank")?.rank())
}

/// The nesting depth of a layout's shape or of a tuple (0 for an int).
///
/// >>> from cute_algebra import Layout, depth
/// >>> depth(Layout((4, (2, 3)))), depth((1, 2)), depth(5)
/// (2, 1, 0)
#[pyfunction]
pub fn depth(x: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(l) = x.downcast::<PyLayout>() {
        return Ok(l.get().0.depth());
    }
    Ok(tuple(x, "depth")?.depth())
}

/// The shape of a layout.
///
/// >>> from cute_algebra import Layout, shape
/// >>> shape(Layout((4, (2, 3))))
/// (4, (2, 3))
#[pyfunction]
pub fn shape(py: Python<'_>, l: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    if let Ok(pl) = l.downcast::<PyLayout>() {
        return pl.get().shape_py(py);
    }
    tuple_py(py, &lay(l, "shape")?.shape())
}

/// The stride of a layout.
///
/// >>> from cute_algebra import Layout, stride
/// >>> stride(Layout((4, (2, 3))))
/// (1, (4, 8))
#[pyfunction]
pub fn stride(py: Python<'_>, l: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    if let Ok(pl) = l.downcast::<PyLayout>() {
        return pl.get().stride_py(py);
    }
    conv::layout_stride_py(py, &lay(l, "stride")?)
}

/// Flattens a layout (every leaf its own mode) or a tuple.
///
/// >>> from cute_algebra import Layout, flatten
/// >>> flatten(Layout((4, (2, 3)))), flatten(((1, 2), (3, (4,))))
/// (Layout((4,2,3),(1,4,8)), (1, 2, 3, 4))
#[pyfunction]
pub fn flatten(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    if let Ok(l) = x.downcast::<PyLayout>() {
        return Ok(Py::new(py, PyLayout::wrap(l.get().0.flatten()))?.into_any());
    }
    tuple_py(py, &tuple(x, "flatten")?.flatten())
}

/// `make_layout(shape, stride=None)`: the layout `shape:stride`, compact column-major without a
/// stride (as the CuTe DSL's `cute.make_layout` and `Layout(shape, stride)`). Given layouts
/// instead (`make_layout(A, B, ...)`, or one list or tuple of layouts), their concatenation, each
/// one mode of the result (CuTe C++'s `make_layout(layouts...)`).
///
/// >>> from cute_algebra import Layout, make_layout
/// >>> make_layout((4, 8)), make_layout((4, 8), (8, 1)), make_layout(((2, 2), 3), stride=((1, 8), 2))
/// (Layout((4,8),(1,4)), Layout((4,8),(8,1)), Layout(((2,2),3),((1,8),2)))
/// >>> make_layout(Layout(4, 1), Layout((2, 3), (4, 8)))
/// Layout((4,(2,3)),(1,(4,8)))
#[pyfunction]
#[pyo3(signature = (shape, stride=None, *layouts))]
pub fn make_layout(
    shape: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
    layouts: &Bound<'_, PyTuple>,
) -> L {
    let is_layout = |x: &Bound<'_, PyAny>| x.downcast::<PyLayout>().is_ok();
    // layouts: their concatenation
    let mut items: Vec<Bound<'_, PyAny>> = Vec::new();
    if is_layout(shape) {
        items.push(shape.clone());
        items.extend(stride.cloned());
        items.extend(layouts.iter());
    } else if stride.is_none() && layouts.is_empty() {
        if let Some(v) = seq(shape).filter(|v| !v.is_empty() && v.iter().all(is_layout)) {
            items = v;
        }
    }
    if !items.is_empty() {
        let ls = items
            .iter()
            .map(|x| {
                if is_layout(x) {
                    lay(x, "make_layout")
                } else {
                    Err(PyTypeError::new_err(format!(
                        "make_layout: expected layouts only after a first Layout, got {}",
                        kind_of(x)
                    )))
                }
            })
            .collect::<PyResult<Vec<_>>>()?;
        return Layout::concat(&ls).py().map(PyLayout::wrap);
    }
    if !layouts.is_empty() {
        return Err(PyTypeError::new_err(format!(
            "make_layout: expected (shape, stride=None) or layouts, got {} positional arguments",
            2 + layouts.len()
        )));
    }
    conv::make_layout(shape, stride).map(PyLayout::wrap)
}

/// Coalesce: the shortest flat layout with the same function, or, with a profile (a tuple of
/// `None` / ints), coalescing only the modes the profile names.
///
/// >>> from cute_algebra import Layout, coalesce
/// >>> coalesce(Layout((2, (1, 6)), (1, (6, 2))))
/// Layout(12,1)
/// >>> coalesce(Layout(((2, 2), (2, 2)), ((1, 2), (4, 8))), (None, 1))
/// Layout(((2,2),4),((1,2),4))
#[pyfunction]
#[pyo3(signature = (layout, profile=None))]
pub fn coalesce(layout: &Bound<'_, PyAny>, profile: Option<&Bound<'_, PyAny>>) -> L {
    let l = lay(layout, "coalesce")?;
    match profile {
        None => Ok(PyLayout::wrap(cute::coalesce(&l))),
        Some(p) => cute::coalesce_profile(&l, &tiler_arg(p, "coalesce profile")?)
            .py()
            .map(PyLayout::wrap),
    }
}

/// Filter: coalesce after dropping stride-0 and size-1 modes (with a profile: by mode).
///
/// Spelled `filter_` (as PyCuTe spells it), so that `from cute_algebra import *` keeps Python's
/// builtin `filter`.
///
/// >>> from cute_algebra import Layout, filter_
/// >>> filter_(Layout((4, 2, 3), (1, 0, 4)))
/// Layout(12,1)
#[pyfunction(name = "filter_")]
#[pyo3(signature = (layout, profile=None))]
pub fn filter(layout: &Bound<'_, PyAny>, profile: Option<&Bound<'_, PyAny>>) -> L {
    let l = lay(layout, "filter")?;
    match profile {
        None => Ok(PyLayout::wrap(cute::filter(&l))),
        Some(p) => cute::filter_profile(&l, &tiler_arg(p, "filter profile")?)
            .py()
            .map(PyLayout::wrap),
    }
}

/// Functional composition `A ∘ B` (`R(c) = A(B(c))`). `B` is a tiler: a layout, an int `n`
/// (CuTe's `make_layout(n)`: `n:1`, and `1:0` for 1), or a tuple applied by mode with `None` to
/// keep a mode. `A` may also be a `Swizzle`
/// (giving a `ComposedLayout`) or a `ComposedLayout`.
///
/// >>> from cute_algebra import Layout, composition
/// >>> composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))
/// Layout(((2,2),3),((24,2),8))
/// >>> composition(Layout((8, 16), (20, 1)), (Layout(4, 1), Layout(8, 2)))
/// Layout((4,8),(20,2))
#[pyfunction]
pub fn composition(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    if let Ok(sw) = a.downcast::<PySwizzle>() {
        let l = lay(b, "composition")?;
        return Ok(Py::new(
            py,
            PyComposedLayout::wrap(cute::ComposedLayout::new(sw.get().0, 0, l)),
        )?
        .into_any());
    }
    if let Ok(c) = a.downcast::<PyComposedLayout>() {
        let c = *c.get().0;
        let inner = if b.is_none() {
            c.layout
        } else {
            cute::composition_tiler(&c.layout, &tiler_arg(b, "composition")?).py()?
        };
        return Ok(Py::new(
            py,
            PyComposedLayout::wrap(cute::ComposedLayout::new(c.swizzle, c.offset, inner)),
        )?
        .into_any());
    }
    let a = lay(a, "composition")?;
    let r = if b.is_none() {
        a
    } else if let Ok(bl) = b.downcast::<PyLayout>() {
        cute::composition(&a, &bl.get().0).py()?
    } else {
        cute::composition_tiler(&a, &tiler_arg(b, "composition")?).py()?
    };
    Ok(Py::new(py, PyLayout::wrap(r))?.into_any())
}

/// The layout for a change of element size by `num/den` (new size / old size).
///
/// >>> from cute_algebra import Layout, recast
/// >>> recast(Layout((4, 8), (1, 4)), 2), recast(Layout((4, 8), (1, 4)), 1, 2)
/// (Layout((2,8),(1,2)), Layout((8,8),(1,8)))
#[pyfunction]
#[pyo3(signature = (layout, num, den=None))]
pub fn recast(
    layout: &Bound<'_, PyAny>,
    num: &Bound<'_, PyAny>,
    den: Option<&Bound<'_, PyAny>>,
) -> L {
    let d = match den {
        None => 1,
        Some(d) => int(d, "recast den")?,
    };
    cute::recast(&lay(layout, "recast")?, int(num, "recast num")?, d)
        .py()
        .map(PyLayout::wrap)
}

/// The product of the leaves of a tuple.
///
/// >>> from cute_algebra import product
/// >>> product(((2, 3), 4))
/// 24
#[pyfunction]
pub fn product(t: &Bound<'_, PyAny>) -> PyResult<i64> {
    tuple(t, "product")?.product().py()
}

/// The product of each top-level mode.
///
/// >>> from cute_algebra import product_each
/// >>> product_each(((2, 3), 4))
/// (6, 4)
#[pyfunction]
pub fn product_each(py: Python<'_>, t: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    tuple_py(py, &tuple(t, "product_each")?.product_each().py()?)
}

/// The exclusive prefix products of the leaves, nested as the tuple.
///
/// >>> from cute_algebra import prefix_product
/// >>> prefix_product(((2, 3), 4))
/// ((1, 2), 6)
#[pyfunction]
pub fn prefix_product(py: Python<'_>, t: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    tuple_py(py, &tuple(t, "prefix_product")?.prefix_product().py()?)
}

/// The set of offsets a layout reaches, sorted.
///
/// >>> from cute_algebra import Layout, image
/// >>> image(Layout((2, 3), (3, 0)))
/// [0, 3]
#[pyfunction]
pub fn image(layout: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let l = lay(layout, "image")?;
    if l.size() > 1 << 24 {
        return Err(err(Error::new(
            Op::Image,
            ErrorKind::Capacity {
                what: "the size of a layout whose image is listed",
                limit: 1 << 24,
            },
        )
        .with(Operand::Layout(l), Operand::None)));
    }
    l.image().py()
}

// Fast paths: table operations that `scripts/bench_python.py` times against legacy pycute, kept
// as direct PyO3 functions (the fast call protocol, no intermediate `Datum`) because the generic
// dispatcher of table.rs costs them several hundred nanoseconds a call (measured: logical_divide
// 2.1 us through the dispatcher), which breaks the benchmark's 20x target. They take exactly the
// table's parameters (tests/test_generated.py checks it).

/// The complement of `L` (up to `cotarget`, an int or a shape; by default `cosize(L)`): the
/// layout of the offsets `L` does not reach, ordered.
///
/// >>> from cute_algebra import Layout, complement
/// >>> complement(Layout(4, 2), 24)
/// Layout((2,3),(1,8))
#[pyfunction]
#[pyo3(signature = (layout, cotarget=None))]
pub fn complement(layout: &Bound<'_, PyAny>, cotarget: Option<&Bound<'_, PyAny>>) -> L {
    let l = lay(layout, "complement")?;
    match cotarget {
        None => cute::complement(&l),
        Some(c) => cute::complement_to(&l, &tuple(c, "complement cotarget")?),
    }
    .py()
    .map(PyLayout::wrap)
}

/// The right inverse `R` with `L(R(i)) = i` of the largest size.
///
/// >>> from cute_algebra import Layout, right_inverse
/// >>> right_inverse(Layout((4, 8), (8, 1)))
/// Layout((8,4),(4,1))
#[pyfunction]
pub fn right_inverse(layout: &Bound<'_, PyAny>) -> L {
    cute::right_inverse(&lay(layout, "right_inverse")?)
        .py()
        .map(PyLayout::wrap)
}

macro_rules! by_tiler {
    ($(#[$doc:meta])* $name:ident, $f:path) => {
        $(#[$doc])*
        #[pyfunction]
        pub fn $name(layout: &Bound<'_, PyAny>, tiler: &Bound<'_, PyAny>) -> L {
            let op = stringify!($name);
            $f(&lay(layout, op)?, &tiler_arg(tiler, op)?).py().map(PyLayout::wrap)
        }
    };
}

by_tiler!(
    /// Logical divide `A ⊘ B = A ∘ (B, B*)`: splits each mode into the tile and the rest.
    ///
    /// >>> from cute_algebra import Layout, logical_divide
    /// >>> logical_divide(Layout((8, 16), (20, 1)), (Layout(4, 1), Layout(8, 2)))
    /// Layout(((4,2),(8,2)),((20,80),(2,1)))
    logical_divide,
    cute::logical_divide
);
by_tiler!(
    /// Logical product `A ⊗ B = (A, A* ∘ B)`: `A` repeated as `B` says.
    ///
    /// >>> from cute_algebra import Layout, logical_product
    /// >>> logical_product(Layout((2, 2), (4, 1)), Layout(6, 1))
    /// Layout(((2,2),(2,3)),((4,1),(2,8)))
    logical_product,
    cute::logical_product
);
/// Blocked product: `A` as the block, laid out as `B` says, mode by mode.
///
/// >>> from cute_algebra import Layout, blocked_product
/// >>> blocked_product(Layout((2, 5), (5, 1)), Layout((3, 4), (1, 3)))
/// Layout(((2,3),(5,4)),((5,10),(1,30)))
#[pyfunction]
pub fn blocked_product(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> L {
    cute::blocked_product(&lay(a, "blocked_product")?, &lay(b, "blocked_product")?)
        .py()
        .map(PyLayout::wrap)
}
