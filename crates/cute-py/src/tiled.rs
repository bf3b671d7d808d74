//! CuTe's `TiledMMA` and `TiledCopy` (the core's [`cute::tiled`]): made from an atom's CUTLASS
//! name, their thread-value layouts and per-thread partitions, and their pictures as CuTe's
//! `print_latex` draws them (`_repr_svg_`, `_repr_png_` for notebooks, capped in size).

use cute::atom::{copy_atom_named, mma_atom_named, COPY_ATOM_NAMES, MMA_ATOM_NAMES};
use cute::tiled::{self, TiledCopy, TiledMma};
use cute::Layout;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::classes::PyLayout;
use crate::conv::{arg, seq, tiler_arg, tuple, tuple_py, OrRaise};
use crate::ops::{lay, with_offset};

/// The most cells a tiled value's `_repr_svg_` / `_repr_png_` draws (all panels together);
/// past it they return `None` and `svg()` draws the whole picture.
const REPR_MAX_CELLS: i64 = 16384;

/// A layout argument that may also be a shape (a tuple or int): its column-major layout, as
/// CuTe's `Layout<Shape<...>>`.
fn layout_or_shape(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Layout> {
    if obj.downcast::<PyLayout>().is_err() && seq(obj).is_some() {
        return cute::compact_col_major(&tuple(obj, what)?).py();
    }
    lay(obj, what)
}

fn draw_err(e: cute_draw::DrawError, what: &str) -> PyErr {
    match e {
        cute_draw::DrawError::Layout(e) => crate::conv::err(*e),
        other => PyValueError::new_err(format!("{what}: {other}")),
    }
}

/// The scene, or `None` past [`REPR_MAX_CELLS`] cells (all panels) or when it cannot be drawn.
fn capped(scene: Result<cute_draw::Scene, cute_draw::DrawError>) -> Option<cute_draw::Scene> {
    let s = scene.ok()?;
    let cells: i64 = s.panels.iter().map(|p| p.rows * p.cols).sum();
    (cells <= REPR_MAX_CELLS).then_some(s)
}

/// A scene's SVG for `_repr_svg_` (see [`capped`]).
fn repr_svg(scene: Result<cute_draw::Scene, cute_draw::DrawError>) -> Option<String> {
    capped(scene).map(|s| cute_draw::svg::scene_svg(&s))
}

/// A scene's PNG for `_repr_png_` (see [`capped`]), rendered without the GIL.
fn repr_png<'py>(
    py: Python<'py>,
    scene: Result<cute_draw::Scene, cute_draw::DrawError>,
) -> Option<Bound<'py, pyo3::types::PyBytes>> {
    let s = capped(scene)?;
    let png = py.allow_threads(|| cute_draw::png::render(&s)).ok()?;
    Some(pyo3::types::PyBytes::new(py, &png))
}

/// CuTe's `TiledMMA`: an MMA atom repeated over an atom layout, each mode of its tile permuted.
/// Made by [`make_tiled_mma`].
///
/// >>> from cute_algebra import make_tiled_mma
/// >>> make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
/// TiledMMA(SM80_16x8x16_F32F16F16F32_TN, thr_layout_vmnk=(32,2,2,1):(1,32,64,0), tile_shape=(32, 16, 16))
#[pyclass(name = "TiledMMA", module = "cute_algebra", frozen)]
// boxed: the core's values are over-aligned (64 bytes), more than Python's allocator gives
pub struct PyTiledMma(pub Box<TiledMma>);

/// CuTe's `make_tiled_mma(atom, atom_layout, permutation)`: the MMA atom called `atom` (its
/// CUTLASS name, e.g. `"SM80_16x8x16_F32F16F16F32_TN"` or `"SM90_64x128x16_F32BF16BF16_SS"`)
/// repeated over `atom_layout` (a Layout, or a shape for its column-major layout; padded to rank
/// 3), with the tile's modes permuted by `permutation` (a by-mode tiler such as `(32, None,
/// None)`; `None`: no permutation).
///
/// >>> from cute_algebra import make_tiled_mma
/// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
/// >>> mma.size, mma.tile_shape, mma.thr_layout_vmnk
/// (128, (32, 16, 16), Layout((32,2,2,1),(1,32,64,0)))
/// >>> mma.get_layoutC_TV()
/// Layout(((4,8,2,2),((2,2),(1,1))),((64,1,16,256),((32,8),(0,0))))
#[pyfunction]
#[pyo3(signature = (atom, atom_layout=None, permutation=None))]
pub fn make_tiled_mma(
    atom: &str,
    atom_layout: Option<&Bound<'_, PyAny>>,
    permutation: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTiledMma> {
    let a = mma_atom_named(atom).ok_or_else(|| {
        PyValueError::new_err(format!(
            "make_tiled_mma: no MMA atom is called {atom:?}; the MMA atoms are {MMA_ATOM_NAMES}"
        ))
    })?;
    let layout = match atom_layout {
        Some(l) => layout_or_shape(l, "make_tiled_mma atom_layout")?,
        None => Layout::leaf(1, 0).py()?,
    };
    let perm = match permutation {
        Some(p) => tiler_arg(p, "make_tiled_mma permutation")?,
        None => "<_,_,_>".parse().py()?,
    };
    tiled::make_tiled_mma(&a, &layout, &perm)
        .py()
        .map(|t| PyTiledMma(Box::new(t)))
}

#[pymethods]
impl PyTiledMma {
    /// The number of threads.
    ///
    /// >>> from cute_algebra import make_tiled_mma
    /// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    /// >>> mma.size
    /// 128
    #[getter]
    fn size(&self) -> i64 {
        self.0.size()
    }

    /// The tile `(M, N, K)` one step of the tiled MMA computes.
    ///
    /// >>> from cute_algebra import make_tiled_mma
    /// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    /// >>> mma.tile_shape
    /// (32, 16, 16)
    #[getter]
    fn tile_shape(&self) -> (i64, i64, i64) {
        self.0.tile_shape()
    }

    /// The atom's CUTLASS name.
    ///
    /// >>> from cute_algebra import make_tiled_mma
    /// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    /// >>> mma.atom
    /// 'SM80_16x8x16_F32F16F16F32_TN'
    #[getter]
    fn atom(&self) -> String {
        self.0.atom().name.to_string()
    }

    /// `(thread in atom, atom along M, N, K) ↦ thread index`.
    ///
    /// >>> from cute_algebra import make_tiled_mma
    /// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    /// >>> mma.thr_layout_vmnk
    /// Layout((32,2,2,1),(1,32,64,0))
    #[getter]
    fn thr_layout_vmnk(&self) -> PyLayout {
        PyLayout::wrap(self.0.thr_layout_vmnk())
    }

    /// `(thread, value) ↦ (m, k)` of A, as the index `m + M·k` (CuTe's `get_layoutA_TV`).
    ///
    /// >>> from cute_algebra import make_tiled_mma
    /// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    /// >>> print(mma.get_layoutA_TV())
    /// ((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))
    #[allow(non_snake_case)]
    fn get_layoutA_TV(&self) -> PyResult<PyLayout> {
        self.0.get_layout_a_tv().py().map(PyLayout::wrap)
    }

    /// `(thread, value) ↦ (n, k)` of B, as the index `n + N·k` (CuTe's `get_layoutB_TV`).
    ///
    /// >>> from cute_algebra import make_tiled_mma
    /// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    /// >>> print(mma.get_layoutB_TV())
    /// ((4,8,2,2),((2,2),(1,1))):((32,1,0,8),((16,128),(0,0)))
    #[allow(non_snake_case)]
    fn get_layoutB_TV(&self) -> PyResult<PyLayout> {
        self.0.get_layout_b_tv().py().map(PyLayout::wrap)
    }

    /// `(thread, value) ↦ (m, n)` of C, as the index `m + M·n` (CuTe's `get_layoutC_TV`).
    ///
    /// >>> from cute_algebra import make_tiled_mma
    /// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    /// >>> print(mma.get_layoutC_TV())
    /// ((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))
    #[allow(non_snake_case)]
    fn get_layoutC_TV(&self) -> PyResult<PyLayout> {
        self.0.get_layout_c_tv().py().map(PyLayout::wrap)
    }

    /// Thread `thread`'s part of a C tile `c` (a layout of `(M, N)` or bigger): its values'
    /// layout and the offset of its first (`get_slice(thread).partition_C(c)`).
    ///
    /// >>> from cute_algebra import Layout, make_tiled_mma
    /// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    /// >>> mma.partition_C(5, Layout((32, 16), (16, 1)))
    /// (Layout(((2,2),1,1),((1,128),0,0)), 18)
    #[allow(non_snake_case)]
    fn partition_C(
        &self,
        #[pyo3(from_py_with = "arg::thread")] thread: i64,
        c: &Bound<'_, PyAny>,
    ) -> PyResult<(PyLayout, i64)> {
        let t = self.0.thr_slice(thread).py()?;
        with_offset(t.partition_c(&lay(c, "partition_C")?))
    }

    /// Thread `thread`'s part of an A tile (`get_slice(thread).partition_A(a)`).
    ///
    /// >>> from cute_algebra import Layout, make_tiled_mma
    /// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    /// >>> mma.partition_A(5, Layout((32, 16), (16, 1)))
    /// (Layout(((2,2,2),1,1),((1,128,8),0,0)), 18)
    #[allow(non_snake_case)]
    fn partition_A(
        &self,
        #[pyo3(from_py_with = "arg::thread")] thread: i64,
        a: &Bound<'_, PyAny>,
    ) -> PyResult<(PyLayout, i64)> {
        let t = self.0.thr_slice(thread).py()?;
        with_offset(t.partition_a(&lay(a, "partition_A")?))
    }

    /// Thread `thread`'s part of a B tile (`get_slice(thread).partition_B(b)`).
    ///
    /// >>> from cute_algebra import Layout, make_tiled_mma
    /// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    /// >>> mma.partition_B(5, Layout((16, 16), (16, 1)))
    /// (Layout(((2,2),1,1),((1,8),0,0)), 18)
    #[allow(non_snake_case)]
    fn partition_B(
        &self,
        #[pyo3(from_py_with = "arg::thread")] thread: i64,
        b: &Bound<'_, PyAny>,
    ) -> PyResult<(PyLayout, i64)> {
        let t = self.0.thr_slice(thread).py()?;
        with_offset(t.partition_b(&lay(b, "partition_B")?))
    }

    /// The picture CuTe's `print_latex(TiledMMA)` draws, as SVG: C with A to its left and B
    /// above, each cell its thread and value; `highlight` outlines one thread's cells.
    ///
    /// >>> from cute_algebra import make_tiled_mma
    /// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    /// >>> mma.svg(highlight=5).count('data-mark="outline"')
    /// 16
    #[pyo3(signature = (highlight=None))]
    fn svg(
        &self,
        #[pyo3(from_py_with = "arg::highlight")] highlight: Option<i64>,
    ) -> PyResult<String> {
        let s = cute_draw::pictures::tiled_mma(&self.0, highlight)
            .map_err(|e| draw_err(e, "TiledMMA.svg"))?;
        Ok(cute_draw::svg::scene_svg(&s))
    }

    /// [`Self::svg`] for notebooks; `None` past 16384 cells (`svg()` draws any size).
    ///
    /// >>> from cute_algebra import make_tiled_mma
    /// >>> s = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))._repr_svg_()
    /// >>> s.startswith("<svg"), "T32" in s
    /// (True, True)
    fn _repr_svg_(&self) -> Option<String> {
        repr_svg(cute_draw::pictures::tiled_mma(&self.0, None))
    }

    /// The same picture as PNG bytes; `None` past 16384 cells.
    fn _repr_png_<'py>(&self, py: Python<'py>) -> Option<Bound<'py, pyo3::types::PyBytes>> {
        repr_png(py, cute_draw::pictures::tiled_mma(&self.0, None))
    }

    fn __repr__(&self) -> String {
        format!(
            "TiledMMA({}, thr_layout_vmnk={}, tile_shape={:?})",
            self.0.atom().name,
            self.0.thr_layout_vmnk(),
            self.0.tile_shape()
        )
    }
}

/// CuTe's `TiledCopy`: a copy atom over a thread-value layout of a tile. Made by
/// [`make_tiled_copy`] or `make_tiled_copy_A/B/C`.
///
/// >>> from cute_algebra import Layout, make_tiled_copy
/// >>> make_tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", Layout((16, 8), (8, 1)), (1, 8), 16)
/// TiledCopy(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, tiler=(16,64), layout_tv=((8,16),8):((128,1),16))
#[pyclass(name = "TiledCopy", module = "cute_algebra", frozen)]
pub struct PyTiledCopy(pub Box<TiledCopy>);

fn copy_atom(name: &str, op: &str) -> PyResult<cute::atom::CopyAtom> {
    copy_atom_named(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{op}: no copy atom is called {name:?}; the copy atoms are {COPY_ATOM_NAMES}"
        ))
    })
}

/// CuTe's `make_tiled_copy(atom, thr_layout, val_layout)` for elements of `elem_bits` bits: the
/// copy atom called `atom` (e.g. `"SM80_CP_ASYNC_CACHEGLOBAL_16B"`, `"SM75_U32x4_LDSM_N"`,
/// `"UniversalCopy<uint32_t>"`), threads laid out by `thr` and each thread's values by `val`
/// (Layouts, or shapes for their column-major layouts).
///
/// >>> from cute_algebra import Layout, make_tiled_copy
/// >>> c = make_tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", Layout((16, 8), (8, 1)), (1, 8), 16)
/// >>> c.tiler, c.layout_tv
/// ((16, 64), Layout(((8,16),8),((128,1),16)))
#[pyfunction]
#[pyo3(signature = (atom, thr, val, elem_bits=16))]
pub fn make_tiled_copy(
    atom: &str,
    thr: &Bound<'_, PyAny>,
    val: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = "arg::elem_bits")] elem_bits: i64,
) -> PyResult<PyTiledCopy> {
    let a = copy_atom(atom, "make_tiled_copy")?;
    let (t, v) = (
        layout_or_shape(thr, "make_tiled_copy thr")?,
        layout_or_shape(val, "make_tiled_copy val")?,
    );
    tiled::make_tiled_copy(&a, elem_bits, &t, &v)
        .py()
        .map(|t| PyTiledCopy(Box::new(t)))
}

/// CuTe's `make_tiled_copy_A(atom, mma)`: the copy whose threads and values are those of the
/// tiled MMA's A operand.
///
/// >>> from cute_algebra import make_tiled_copy_A, make_tiled_mma
/// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
/// >>> make_tiled_copy_A("SM75_U32x4_LDSM_N", mma).tiler
/// (32, 16)
#[pyfunction(name = "make_tiled_copy_A")]
#[pyo3(signature = (atom, mma, elem_bits=16))]
pub fn make_tiled_copy_a(
    atom: &str,
    mma: &PyTiledMma,
    #[pyo3(from_py_with = "arg::elem_bits")] elem_bits: i64,
) -> PyResult<PyTiledCopy> {
    let a = copy_atom(atom, "make_tiled_copy_A")?;
    tiled::make_tiled_copy_a(&a, elem_bits, &mma.0)
        .py()
        .map(|t| PyTiledCopy(Box::new(t)))
}

/// CuTe's `make_tiled_copy_B(atom, mma)`: the B operand's threads and values.
///
/// >>> from cute_algebra import make_tiled_copy_B, make_tiled_mma
/// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
/// >>> make_tiled_copy_B("SM75_U32x2_LDSM_N", mma).tiler
/// (16, 16)
#[pyfunction(name = "make_tiled_copy_B")]
#[pyo3(signature = (atom, mma, elem_bits=16))]
pub fn make_tiled_copy_b(
    atom: &str,
    mma: &PyTiledMma,
    #[pyo3(from_py_with = "arg::elem_bits")] elem_bits: i64,
) -> PyResult<PyTiledCopy> {
    let a = copy_atom(atom, "make_tiled_copy_B")?;
    tiled::make_tiled_copy_b(&a, elem_bits, &mma.0)
        .py()
        .map(|t| PyTiledCopy(Box::new(t)))
}

/// CuTe's `make_tiled_copy_C(atom, mma)`: the C operand's threads and values.
///
/// >>> from cute_algebra import make_tiled_copy_C, make_tiled_mma
/// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
/// >>> make_tiled_copy_C("UniversalCopy<uint32_t>", mma, 32).tiler
/// (32, 16)
#[pyfunction(name = "make_tiled_copy_C")]
#[pyo3(signature = (atom, mma, elem_bits=16))]
pub fn make_tiled_copy_c(
    atom: &str,
    mma: &PyTiledMma,
    #[pyo3(from_py_with = "arg::elem_bits")] elem_bits: i64,
) -> PyResult<PyTiledCopy> {
    let a = copy_atom(atom, "make_tiled_copy_C")?;
    tiled::make_tiled_copy_c(&a, elem_bits, &mma.0)
        .py()
        .map(|t| PyTiledCopy(Box::new(t)))
}

#[pymethods]
impl PyTiledCopy {
    /// The number of threads.
    ///
    /// >>> from cute_algebra import Layout, make_tiled_copy
    /// >>> c = make_tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", Layout((16, 8), (8, 1)), (1, 8), 16)
    /// >>> c.size
    /// 128
    #[getter]
    fn size(&self) -> i64 {
        self.0.size()
    }

    /// The atom's CUTLASS name.
    ///
    /// >>> from cute_algebra import Layout, make_tiled_copy
    /// >>> c = make_tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", Layout((16, 8), (8, 1)), (1, 8), 16)
    /// >>> c.atom
    /// 'SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>'
    #[getter]
    fn atom(&self) -> String {
        self.0.atom().name.to_string()
    }

    /// The tile one step of the copy moves (`Tiler_MN`).
    ///
    /// >>> from cute_algebra import Layout, make_tiled_copy
    /// >>> c = make_tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", Layout((16, 8), (8, 1)), (1, 8), 16)
    /// >>> c.tiler
    /// (16, 64)
    #[getter]
    fn tiler(&self, py: Python<'_>) -> PyResult<PyObject> {
        tuple_py(py, &self.0.tiler())
    }

    /// `(thread, value) ↦` index in the tile (`TiledLayout_TV`).
    ///
    /// >>> from cute_algebra import Layout, make_tiled_copy
    /// >>> c = make_tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", Layout((16, 8), (8, 1)), (1, 8), 16)
    /// >>> print(c.layout_tv)
    /// ((8,16),8):((128,1),16)
    #[getter]
    fn layout_tv(&self) -> PyLayout {
        PyLayout::wrap(self.0.layout_tv())
    }

    /// The source's `(thread, value) ↦` index in the tile (CuTe's `get_layoutS_TV`).
    ///
    /// >>> from cute_algebra import Layout, make_tiled_copy
    /// >>> c = make_tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", Layout((16, 8), (8, 1)), (1, 8), 16)
    /// >>> print(c.get_layoutS_TV())
    /// ((8,16),(8,1)):((128,1),(16,0))
    #[allow(non_snake_case)]
    fn get_layoutS_TV(&self) -> PyResult<PyLayout> {
        self.0.get_layout_s_tv().py().map(PyLayout::wrap)
    }

    /// The destination's `(thread, value) ↦` index in the tile (CuTe's `get_layoutD_TV`).
    ///
    /// >>> from cute_algebra import Layout, make_tiled_copy
    /// >>> c = make_tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", Layout((16, 8), (8, 1)), (1, 8), 16)
    /// >>> print(c.get_layoutD_TV())
    /// ((8,16),(8,1)):((128,1),(16,0))
    #[allow(non_snake_case)]
    fn get_layoutD_TV(&self) -> PyResult<PyLayout> {
        self.0.get_layout_d_tv().py().map(PyLayout::wrap)
    }

    /// Thread `thread`'s part of a source tile (`get_slice(thread).partition_S(s)`).
    ///
    /// >>> from cute_algebra import Layout, make_tiled_copy
    /// >>> c = make_tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", Layout((16, 8), (8, 1)), (1, 8), 16)
    /// >>> c.partition_S(1, Layout((16, 64), (64, 1)))
    /// (Layout(((8,1),1,1),((1,0),0,0)), 8)
    #[allow(non_snake_case)]
    fn partition_S(
        &self,
        #[pyo3(from_py_with = "arg::thread")] thread: i64,
        s: &Bound<'_, PyAny>,
    ) -> PyResult<(PyLayout, i64)> {
        let t = self.0.thr_slice(thread).py()?;
        with_offset(t.partition_s(&lay(s, "partition_S")?))
    }

    /// Thread `thread`'s part of a destination tile (`get_slice(thread).partition_D(d)`).
    ///
    /// >>> from cute_algebra import Layout, make_tiled_copy
    /// >>> c = make_tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", Layout((16, 8), (8, 1)), (1, 8), 16)
    /// >>> c.partition_D(1, Layout((16, 64), (64, 1)))
    /// (Layout(((8,1),1,1),((1,0),0,0)), 8)
    #[allow(non_snake_case)]
    fn partition_D(
        &self,
        #[pyo3(from_py_with = "arg::thread")] thread: i64,
        d: &Bound<'_, PyAny>,
    ) -> PyResult<(PyLayout, i64)> {
        let t = self.0.thr_slice(thread).py()?;
        with_offset(t.partition_d(&lay(d, "partition_D")?))
    }

    /// CuTe's `retile(frag)`: a thread's fragment of another partitioning viewed in this copy's
    /// values.
    ///
    /// >>> from cute_algebra import Layout, make_tiled_copy_A, make_tiled_mma
    /// >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    /// >>> ldsm = make_tiled_copy_A("SM75_U32x4_LDSM_N", mma)
    /// >>> ldsm.retile(Layout(((2, 2, 2), 2, 2), ((1, 2, 4), 8, 16)))
    /// Layout(((8,1),2,2),((1,0),8,16))
    fn retile(&self, frag: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
        self.0
            .retile(&lay(frag, "retile")?)
            .py()
            .map(PyLayout::wrap)
    }

    /// The picture CuTe's `print_latex(TiledCopy)` draws, as SVG: the source tile beside the
    /// destination tile, each cell its thread and value; `highlight` outlines one thread's cells.
    ///
    /// >>> from cute_algebra import Layout, make_tiled_copy
    /// >>> c = make_tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", Layout((16, 8), (8, 1)), (1, 8), 16)
    /// >>> c.svg(highlight=3).count('data-mark="outline"')
    /// 16
    #[pyo3(signature = (highlight=None))]
    fn svg(
        &self,
        #[pyo3(from_py_with = "arg::highlight")] highlight: Option<i64>,
    ) -> PyResult<String> {
        let s = cute_draw::pictures::tiled_copy(&self.0, highlight)
            .map_err(|e| draw_err(e, "TiledCopy.svg"))?;
        Ok(cute_draw::svg::scene_svg(&s))
    }

    /// [`Self::svg`] for notebooks; `None` past 16384 cells.
    fn _repr_svg_(&self) -> Option<String> {
        repr_svg(cute_draw::pictures::tiled_copy(&self.0, None))
    }

    /// The same picture as PNG bytes; `None` past 16384 cells.
    fn _repr_png_<'py>(&self, py: Python<'py>) -> Option<Bound<'py, pyo3::types::PyBytes>> {
        repr_png(py, cute_draw::pictures::tiled_copy(&self.0, None))
    }

    fn __repr__(&self) -> String {
        format!(
            "TiledCopy({}, tiler={}, layout_tv={})",
            self.0.atom().name,
            self.0.tiler(),
            self.0.layout_tv()
        )
    }
}

/// The picture of a thread-value layout `tv` over a tile of `shape` (rows, cols): each cell the
/// thread and value that own it, as CuTe's `print_latex(layout_tv)` draws (SVG).
///
/// >>> from cute_algebra import Layout, tv_layout_svg
/// >>> s = tv_layout_svg(Layout(((4, 8), 2), ((16, 1), 8)), (8, 8), highlight=5)
/// >>> s.startswith("<svg"), ">T31</text>" in s, s.count('data-mark="outline"')
/// (True, True, 2)
#[pyfunction]
#[pyo3(signature = (tv, shape, highlight=None))]
pub fn tv_layout_svg(
    tv: &Bound<'_, PyAny>,
    shape: (i64, i64),
    #[pyo3(from_py_with = "arg::highlight")] highlight: Option<i64>,
) -> PyResult<String> {
    cute_draw::svg::tv_layout_svg(&lay(tv, "tv_layout_svg")?, shape.0, shape.1, highlight)
        .map_err(|e| draw_err(e, "tv_layout_svg"))
}
