//! The module functions: every operation of the core crate under its CuTe name.

use cute::{Error, ErrorKind, IntTuple, Layout, Op, Operand};
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

/// Replaces stride-0 modes by size 1, keeping the shape's profile.
///
/// >>> from cute_algebra import Layout, filter_zeros
/// >>> filter_zeros(Layout((4, 2), (1, 0)))
/// Layout((4,1),(1,0))
#[pyfunction]
pub fn filter_zeros(layout: &Bound<'_, PyAny>) -> L {
    Ok(PyLayout::wrap(cute::filter_zeros(&lay(
        layout,
        "filter_zeros",
    )?)))
}

/// PyCuTe's coalesce that also drops stride-0 modes from the coalesced form.
///
/// >>> from cute_algebra import Layout, coalesce_z
/// >>> coalesce_z(Layout((2, 1, 6, 1), (1, 7, 8, 0)))
/// Layout((2,6,1),(1,8,0))
#[pyfunction]
pub fn coalesce_z(layout: &Bound<'_, PyAny>) -> L {
    Ok(PyLayout::wrap(cute::coalesce_z(&lay(
        layout,
        "coalesce_z",
    )?)))
}

/// Functional composition `A ∘ B` (`R(c) = A(B(c))`). `B` is a tiler: a layout, an int `n`
/// (`n:1`), or a tuple applied by mode with `None` to keep a mode. `A` may also be a `Swizzle`
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

/// `A` reshaped to `shape`: `composition(A, make_layout(shape))`.
///
/// >>> from cute_algebra import Layout, with_shape
/// >>> with_shape(Layout(24, 2), (4, 6))
/// Layout((4,6),(2,8))
#[pyfunction]
pub fn with_shape(layout: &Bound<'_, PyAny>, shape: &Bound<'_, PyAny>) -> L {
    cute::with_shape(
        &lay(layout, "with_shape")?,
        &tuple(shape, "with_shape shape")?,
    )
    .py()
    .map(PyLayout::wrap)
}

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

/// The left inverse `R` of `L`: `L(R(L(i))) = L(i)` for every `i < size(L)`, so `R(L(i)) = i`
/// exactly when `L` is injective. A non-injective `L` is accepted where CuTe's construction still
/// satisfies that law (`R` then picks one of the coordinates that share an offset, as across a
/// stride-0 mode) and refused (`LayoutError`, category `NotInjective` or `Divisibility`)
/// otherwise; a negative stride is refused (`OutOfRange`).
///
/// >>> from cute_algebra import Layout, left_inverse
/// >>> left_inverse(Layout((4, 8), (8, 1)))
/// Layout((8,4),(4,1))
/// >>> L = Layout((4, 2), (1, 0)); R = left_inverse(L)
/// >>> all(L(R(L(i))) == L(i) for i in range(8)), R(L(5)) == 5
/// (True, False)
#[pyfunction]
pub fn left_inverse(layout: &Bound<'_, PyAny>) -> L {
    cute::left_inverse(&lay(layout, "left_inverse")?)
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
    /// Zipped divide: the tiles gathered in mode 0, the rest in mode 1.
    ///
    /// >>> from cute_algebra import Layout, zipped_divide
    /// >>> zipped_divide(Layout((8, 16), (20, 1)), (Layout(4, 1), Layout(8, 2)))
    /// Layout(((4,8),(2,2)),((20,2),(80,1)))
    zipped_divide,
    cute::zipped_divide
);
by_tiler!(
    /// Tiled divide: the tile in mode 0, each rest mode a mode of its own.
    ///
    /// >>> from cute_algebra import Layout, tiled_divide
    /// >>> tiled_divide(Layout((8, 16), (20, 1)), (4, 8))
    /// Layout(((4,8),2,2),((20,1),80,8))
    tiled_divide,
    cute::tiled_divide
);
by_tiler!(
    /// Flat divide: the tile's modes, then the rest's modes, all at the top level.
    ///
    /// >>> from cute_algebra import Layout, flat_divide
    /// >>> flat_divide(Layout((8, 16), (20, 1)), (4, 8))
    /// Layout((4,8,2,2),(20,1,80,8))
    flat_divide,
    cute::flat_divide
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
by_tiler!(
    /// Zipped product: `A` in mode 0, the repetition in mode 1 (by mode for a tuple tiler).
    ///
    /// >>> from cute_algebra import Layout, zipped_product
    /// >>> zipped_product(Layout((2, 5), (5, 1)), (Layout(3, 1), Layout(4, 1)))
    /// Layout(((2,5),(3,4)),((5,1),(1,5)))
    zipped_product,
    cute::zipped_product
);
by_tiler!(
    /// Tiled product: `A` in mode 0, each repetition mode a mode of its own.
    ///
    /// >>> from cute_algebra import Layout, tiled_product
    /// >>> tiled_product(Layout((2, 5), (5, 1)), (Layout(3, 1), Layout(4, 1)))
    /// Layout(((2,5),3,4),((5,1),1,5))
    tiled_product,
    cute::tiled_product
);
by_tiler!(
    /// Flat product: every mode of `A` and of the repetition at the top level.
    ///
    /// >>> from cute_algebra import Layout, flat_product
    /// >>> flat_product(Layout((2, 5), (5, 1)), (Layout(3, 1), Layout(4, 1)))
    /// Layout((2,5,3,4),(5,1,1,5))
    flat_product,
    cute::flat_product
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

/// Raked product: `A`'s elements interleaved with the repetition, mode by mode.
///
/// >>> from cute_algebra import Layout, raked_product
/// >>> raked_product(Layout((2, 5), (5, 1)), Layout((3, 4), (1, 3)))
/// Layout(((3,2),(4,5)),((10,5),(30,1)))
#[pyfunction]
pub fn raked_product(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> L {
    cute::raked_product(&lay(a, "raked_product")?, &lay(b, "raked_product")?)
        .py()
        .map(PyLayout::wrap)
}

/// Repeats a block layout until it covers `shape`.
///
/// >>> from cute_algebra import Layout, tile_to_shape
/// >>> tile_to_shape(Layout((2, 2), (1, 2)), (4, 6))
/// Layout(((2,2),(2,3)),((1,4),(2,8)))
#[pyfunction]
pub fn tile_to_shape(layout: &Bound<'_, PyAny>, shape: &Bound<'_, PyAny>) -> L {
    cute::tile_to_shape(
        &lay(layout, "tile_to_shape")?,
        &tuple(shape, "tile_to_shape shape")?,
    )
    .py()
    .map(PyLayout::wrap)
}

/// The number of elements that both layouts map contiguously (vectorization width).
///
/// >>> from cute_algebra import Layout, max_common_vector
/// >>> max_common_vector(Layout((4, 8), (1, 4)), Layout((4, 8), (1, 8)))
/// 4
#[pyfunction]
pub fn max_common_vector(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<i64> {
    cute::max_common_vector(&lay(a, "max_common_vector")?, &lay(b, "max_common_vector")?).py()
}

/// The layout of the largest common contiguous part of two layouts' coordinates.
///
/// >>> from cute_algebra import Layout, max_common_layout
/// >>> max_common_layout(Layout((4, 8), (1, 4)), Layout((4, 8), (1, 8)))
/// Layout(4,1)
#[pyfunction]
pub fn max_common_layout(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> L {
    cute::max_common_layout(&lay(a, "max_common_layout")?, &lay(b, "max_common_layout")?)
        .py()
        .map(PyLayout::wrap)
}

/// The kernel of a layout: the coordinates it maps to 0, as a layout into `L`'s domain.
///
/// >>> from cute_algebra import Layout, nullspace
/// >>> nullspace(Layout((4, 2, 3), (1, 0, 4)))
/// Layout(2,4)
#[pyfunction]
pub fn nullspace(layout: &Bound<'_, PyAny>) -> L {
    cute::nullspace(&lay(layout, "nullspace")?)
        .py()
        .map(PyLayout::wrap)
}

/// Distributes `n` elements over a shape from the left.
///
/// >>> from cute_algebra import domain_distribute
/// >>> domain_distribute((4, 8), 8)
/// Layout(8,1)
#[pyfunction]
pub fn domain_distribute(shape: &Bound<'_, PyAny>, n: &Bound<'_, PyAny>) -> L {
    cute::domain_distribute(
        &tuple(shape, "domain_distribute shape")?,
        int(n, "domain_distribute n")?,
    )
    .py()
    .map(PyLayout::wrap)
}

/// The layout for elements `n` times wider.
///
/// >>> from cute_algebra import Layout, upcast
/// >>> upcast(Layout((4, 8), (1, 4)), 2)
/// Layout((2,8),(1,2))
#[pyfunction]
pub fn upcast(layout: &Bound<'_, PyAny>, n: &Bound<'_, PyAny>) -> L {
    cute::upcast(&lay(layout, "upcast")?, int(n, "upcast n")?)
        .py()
        .map(PyLayout::wrap)
}

/// The layout for elements `n` times narrower.
///
/// >>> from cute_algebra import Layout, downcast
/// >>> downcast(Layout((4, 8), (1, 4)), 2)
/// Layout((8,8),(1,8))
#[pyfunction]
pub fn downcast(layout: &Bound<'_, PyAny>, n: &Bound<'_, PyAny>) -> L {
    cute::downcast(&lay(layout, "downcast")?, int(n, "downcast n")?)
        .py()
        .map(PyLayout::wrap)
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

/// PyCuTe's `composition` of one mode: mode `mode` of `L` composed with the tiler.
///
/// >>> from cute_algebra import Layout, composition_mode
/// >>> composition_mode(Layout((4, 8), (1, 4)), 1, Layout(4, 2))
/// Layout((4,4),(1,8))
#[pyfunction]
pub fn composition_mode(layout: &Bound<'_, PyAny>, mode: usize, tiler: &Bound<'_, PyAny>) -> L {
    cute::composition_mode(
        &lay(layout, "composition_mode")?,
        mode,
        &tiler_arg(tiler, "composition_mode")?,
    )
    .py()
    .map(PyLayout::wrap)
}

/// PyCuTe's layout sum: `(A + B)(c) = A(c) + B(c)` over a common domain.
///
/// >>> from cute_algebra import Layout, layout_add
/// >>> layout_add(Layout((4, 8), (1, 0)), Layout((4, 8), (0, 4)))
/// Layout(32,1)
#[pyfunction]
pub fn layout_add(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> L {
    cute::layout_add(&lay(a, "layout_add")?, &lay(b, "layout_add")?)
        .py()
        .map(PyLayout::wrap)
}

fn shape_of(x: &Bound<'_, PyAny>, what: &str) -> PyResult<IntTuple> {
    if let Ok(l) = x.downcast::<PyLayout>() {
        return Ok(l.get().0.shape());
    }
    tuple(x, what)
}

/// PyCuTe's greatest common domain of two shapes (or layouts' shapes).
///
/// >>> from cute_algebra import greatest_common_domain
/// >>> greatest_common_domain((4, 6), (8, 3))
/// Layout((4,2,3),(1,4,8))
#[pyfunction]
pub fn greatest_common_domain(s: &Bound<'_, PyAny>, t: &Bound<'_, PyAny>) -> L {
    cute::greatest_common_domain(
        &shape_of(s, "greatest_common_domain")?,
        &shape_of(t, "greatest_common_domain")?,
    )
    .py()
    .map(PyLayout::wrap)
}

/// The identity layout of a shape: `(s0,s1,…):(E(0),E(1),…)`.
///
/// >>> from cute_algebra import make_identity_layout
/// >>> L = make_identity_layout((4, 6))
/// >>> str(L), L(9)
/// ('(4,6):(1@0,1@1)', (1, 2))
#[pyfunction]
pub fn make_identity_layout(shape: &Bound<'_, PyAny>) -> L {
    cute::make_identity_layout(&tuple(shape, "make_identity_layout")?)
        .py()
        .map(PyLayout::wrap)
}

/// The compact column-major layout of a shape.
///
/// >>> from cute_algebra import compact_col_major
/// >>> compact_col_major((4, (2, 3)))
/// Layout((4,(2,3)),(1,(4,8)))
#[pyfunction]
pub fn compact_col_major(shape: &Bound<'_, PyAny>) -> L {
    cute::compact_col_major(&tuple(shape, "compact_col_major")?)
        .py()
        .map(PyLayout::wrap)
}

/// The compact row-major layout of a shape.
///
/// >>> from cute_algebra import compact_row_major
/// >>> compact_row_major((4, (2, 3)))
/// Layout((4,(2,3)),(6,(3,1)))
#[pyfunction]
pub fn compact_row_major(shape: &Bound<'_, PyAny>) -> L {
    cute::compact_row_major(&tuple(shape, "compact_row_major")?)
        .py()
        .map(PyLayout::wrap)
}

/// The compact layout whose modes increase in stride in the given order.
///
/// >>> from cute_algebra import make_ordered_layout
/// >>> make_ordered_layout((4, 8, 2), (1, 2, 0))
/// Layout((4,8,2),(2,8,1))
#[pyfunction]
pub fn make_ordered_layout(shape: &Bound<'_, PyAny>, order: &Bound<'_, PyAny>) -> L {
    cute::make_ordered_layout(
        &tuple(shape, "make_ordered_layout shape")?,
        &tuple(order, "make_ordered_layout order")?,
    )
    .py()
    .map(PyLayout::wrap)
}

/// The coordinate of an index (or of a coarser coordinate) in a shape, colexicographic.
///
/// >>> from cute_algebra import idx2crd
/// >>> idx2crd(9, (4, 8)), idx2crd((9, 1), ((2, 5), 8))
/// ((1, 2), ((1, 4), 1))
#[pyfunction]
pub fn idx2crd(
    py: Python<'_>,
    idx: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    let r = cute::idx2crd(
        &tuple(idx, "idx2crd index")?,
        &tuple(shape, "idx2crd shape")?,
    )
    .py()?;
    tuple_py(py, &r)
}

/// The index of a coordinate: with `stride`, the inner product; without, colexicographic in
/// `shape`.
///
/// >>> from cute_algebra import crd2idx
/// >>> crd2idx((1, 2), (4, 8)), crd2idx((1, 2), (4, 8), (8, 1))
/// (9, 10)
#[pyfunction]
#[pyo3(signature = (crd, shape, stride=None))]
pub fn crd2idx(
    crd: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
) -> PyResult<i64> {
    let c = tuple(crd, "crd2idx coordinate")?;
    let s = tuple(shape, "crd2idx shape")?;
    match stride {
        None => cute::crd2idx_compact(&c, &s),
        Some(d) => cute::crd2idx(&c, &s, &tuple(d, "crd2idx stride")?),
    }
    .py()
}

/// A coordinate of shape `src` as a coordinate of the compatible shape `dst`.
///
/// >>> from cute_algebra import crd2crd
/// >>> crd2crd((1, 2), (4, 8), 32)
/// 9
#[pyfunction]
pub fn crd2crd(
    py: Python<'_>,
    crd: &Bound<'_, PyAny>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    let r = cute::crd2crd(
        &tuple(crd, "crd2crd coordinate")?,
        &tuple(src, "crd2crd source shape")?,
        &tuple(dst, "crd2crd target shape")?,
    )
    .py()?;
    tuple_py(py, &r)
}

/// True when two tuples have the same profile.
///
/// >>> from cute_algebra import congruent
/// >>> congruent((1, (2, 3)), (4, (5, 6))), congruent((1, 2), 3)
/// (True, False)
#[pyfunction]
pub fn congruent(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(tuple(a, "congruent")?.congruent(&tuple(b, "congruent")?))
}

/// True when `a`'s profile is a coarsening of `b`'s (an int matches anything).
///
/// >>> from cute_algebra import weakly_congruent
/// >>> weakly_congruent(1, (2, 3)), weakly_congruent((1, 2), 3)
/// (True, False)
#[pyfunction]
pub fn weakly_congruent(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(tuple(a, "weakly_congruent")?.weakly_congruent(&tuple(b, "weakly_congruent")?))
}

/// True when every coordinate of shape `a` is a coordinate of shape `b` (sizes agree mode by
/// mode).
///
/// >>> from cute_algebra import compatible
/// >>> compatible(24, (4, 6)), compatible((4, 6), 24)
/// (True, False)
#[pyfunction]
pub fn compatible(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(tuple(a, "compatible")?.compatible(&tuple(b, "compatible")?))
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
