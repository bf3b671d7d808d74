//! The module functions on slicing and partitioning (slices, tiles, thread-value layouts), on
//! shared-memory banks and tensor memory, and the drawing functions.

use cute::Layout;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::classes::{PyComposedLayout, PyLayout, PySwizzle};
use crate::conv::{arg, err, kind_of, partial_coord, seq, smem_arg, tuple_py, OrRaise};
use crate::ops::{lay, with_offset, L};
use crate::swizzles::{PyBankReport, PySwizzleSearch};

/// `(slice(L, c), L(fixed part of c))`.
///
/// >>> from cute_algebra import Layout, slice_and_offset
/// >>> slice_and_offset(Layout((4, 8), (1, 4)), (None, 3))
/// (Layout((4,),(1,)), 12)
#[pyfunction]
pub fn slice_and_offset(
    layout: &Bound<'_, PyAny>,
    coord: &Bound<'_, PyAny>,
) -> PyResult<(PyLayout, i64)> {
    with_offset(cute::slice_and_offset(
        &lay(layout, "slice_and_offset")?,
        &partial_coord(coord, "slice_and_offset")?,
    ))
}

/// The coordinate of thread `index` in a thread layout.
///
/// >>> from cute_algebra import Layout, thread_coord
/// >>> thread_coord(Layout((4, 8), (8, 1)), 9)
/// (1, 1)
#[pyfunction]
pub fn thread_coord(
    py: Python<'_>,
    thr: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = "arg::index")] index: i64,
) -> PyResult<PyObject> {
    tuple_py(
        py,
        &cute::thread_coord(&lay(thr, "thread_coord")?, index).py()?,
    )
}

/// Shared-memory bank conflicts of one warp-wide access pattern: `smem` (a `Layout` or a
/// `ComposedLayout`) maps coordinates to element offsets, `tv` maps (thread, value) to
/// coordinates (thread mode of size 32), each access moves `vector` elements of `elem_bytes`.
///
/// >>> from cute_algebra import Layout, bank_conflicts
/// >>> smem = Layout((32, 32), (32, 1))
/// >>> r = bank_conflicts(smem, Layout((32, 1), (1, 0)), 4, 1)   # a column: 32-way
/// >>> r.total, r.ideal_total, r.conflict_free
/// (32, 1, False)
#[pyfunction]
#[pyo3(signature = (smem, tv, elem_bytes, vector=1))]
pub fn bank_conflicts(
    smem: &Bound<'_, PyAny>,
    tv: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = "arg::elem_bytes")] elem_bytes: i64,
    #[pyo3(from_py_with = "arg::vector")] vector: i64,
) -> PyResult<PyBankReport> {
    let tv = lay(tv, "bank_conflicts")?;
    let smem = smem_arg(smem, "bank_conflicts")?;
    let r = cute::bank_conflicts(smem.as_dyn(), &tv, elem_bytes, vector).py()?;
    Ok(PyBankReport::from(&r))
}

/// Searches `Sw<B,M,S>` for the swizzle that makes every access pattern conflict-free (or, if
/// none does, has the fewest wavefronts).
///
/// >>> from cute_algebra import Layout, swizzle_search
/// >>> s = swizzle_search(Layout((32, 32), (32, 1)), [Layout((32, 1), (1, 0))], 4, 1)
/// >>> s.conflict_free, str(s.swizzle)
/// (True, 'Sw<5,0,5>')
#[pyfunction]
#[pyo3(signature = (smem, patterns, elem_bytes, vector=1))]
pub fn swizzle_search(
    py: Python<'_>,
    smem: &Bound<'_, PyAny>,
    patterns: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = "arg::elem_bytes")] elem_bytes: i64,
    #[pyo3(from_py_with = "arg::vector")] vector: i64,
) -> PyResult<PySwizzleSearch> {
    let pats: Vec<Layout> = match seq(patterns) {
        Some(v) => v
            .iter()
            .map(|x| lay(x, "swizzle_search pattern"))
            .collect::<PyResult<_>>()?,
        None => vec![lay(patterns, "swizzle_search pattern").map_err(|_| {
            PyTypeError::new_err(format!(
                "swizzle_search: patterns must be a Layout or a list of Layouts, got {}",
                kind_of(patterns)
            ))
        })?],
    };
    let smem = smem_arg(smem, "swizzle_search")?;
    let s = cute::swizzle_search(smem.as_dyn(), &pats, elem_bytes, vector).py()?;
    Ok(PySwizzleSearch {
        swizzle: PySwizzle(s.swizzle),
        layout: PyComposedLayout::wrap(s.layout),
        reports: s
            .reports
            .iter()
            .map(|r| Py::new(py, PyBankReport::from(r)))
            .collect::<PyResult<_>>()?,
        conflict_free: s.conflict_free,
        tried: s.tried,
    })
}

/// The TMEM layout of the `tcgen05.ld/st .32x32b` access for `n` columns.
///
/// >>> from cute_algebra import tmem_32x32b
/// >>> tmem_32x32b(4).size()
/// 512
#[pyfunction]
pub fn tmem_32x32b(#[pyo3(from_py_with = "arg::n")] n: i64) -> L {
    cute::tmem_32x32b(n).py().map(PyLayout::wrap)
}

/// The TMEM layout of the `tcgen05.ld/st .16x256b` access for `n` repetitions.
///
/// >>> from cute_algebra import tmem_16x256b
/// >>> tmem_16x256b(1).size() > 0
/// True
#[pyfunction]
pub fn tmem_16x256b(#[pyo3(from_py_with = "arg::n")] n: i64) -> L {
    cute::tmem_16x256b(n).py().map(PyLayout::wrap)
}

fn draw_err(e: cute_draw::DrawError, what: &str) -> PyErr {
    match e {
        cute_draw::DrawError::Layout(e) => err(*e),
        other => pyo3::exceptions::PyValueError::new_err(format!("{what}: {other}")),
    }
}

/// The layout as CuTe C++'s `print_layout` table (offsets by coordinate).
///
/// >>> from cute_algebra import Layout, print_layout
/// >>> print(print_layout(Layout((2, 2), (1, 2))), end="")
/// (2,2):(1,2)
///       0   1
///     +---+---+
///  0  | 0 | 2 |
///     +---+---+
///  1  | 1 | 3 |
///     +---+---+
#[pyfunction]
pub fn print_layout(layout: &Bound<'_, PyAny>) -> PyResult<String> {
    cute_draw::table::print_layout(&lay(layout, "print_layout")?)
        .map_err(|e| draw_err(e, "print_layout"))
}

/// The layout as an SVG picture (one cell per coordinate, labelled with its offset).
///
/// >>> from cute_algebra import Layout, layout_svg
/// >>> layout_svg(Layout((4, 8), (1, 4))).startswith("<svg")
/// True
#[pyfunction]
pub fn layout_svg(layout: &Bound<'_, PyAny>) -> PyResult<String> {
    cute_draw::svg::layout_svg(&lay(layout, "layout_svg")?).map_err(|e| draw_err(e, "layout_svg"))
}
