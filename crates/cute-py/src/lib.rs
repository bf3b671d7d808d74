//! # cute-py — the CuTe layout algebra as the Python module `cute_algebra`
//!
//! PyO3 bindings (stable ABI, Python ≥ 3.10, whose limited API has the fast call protocol) of
//! the core crate `cute`: layouts, the algebra under CuTe's names, swizzles, bank-conflict
//! analysis and the swizzle search. The Python package
//! (`python/cute_algebra`) re-exports this extension module (`cute_algebra._native`) and adds
//! `cute_algebra.pycute`, a drop-in for NVIDIA's legacy `pycute`.
//!
//! Build with maturin (`scripts/test-python.sh` builds it and runs the pytest suite). Every
//! failure of the algebra is raised as `cute_algebra.LayoutError` (a `ValueError`) with the core
//! crate's one-line message and its category; wrong kinds of arguments raise `TypeError`.

// The core's errors are plain `Copy` values carrying their operands (see the `cute` crate).
#![allow(clippy::result_large_err)]

mod classes;
mod conv;
mod cuda;
mod cuda_array;
mod made;
mod ops;
mod partition;
mod strides;
mod swizzles;
mod symbolic;
mod table;
mod tensor;
mod tiled;
mod types;

use pyo3::prelude::*;

pub use conv::LayoutError;

/// The extension module `cute_algebra._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // the package's version (Cargo's, which maturin also gives the wheel); not in `__all__`
    m.setattr("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("LayoutError", py.get_type::<LayoutError>())?;
    let gpu = cuda::register(m)?;
    gpu.add_class::<cuda_array::DeviceArray>()?;
    m.add_class::<classes::PyLayout>()?;
    m.add_class::<classes::PyE>()?;
    m.add_class::<classes::PyF2>()?;
    m.add_class::<classes::PySwizzle>()?;
    m.add_class::<classes::PyComposedLayout>()?;
    m.add_class::<tiled::PyTiledMma>()?;
    m.add_class::<tiled::PyTiledCopy>()?;
    m.add_function(wrap_pyfunction!(tiled::make_tiled_mma, m)?)?;
    m.add_function(wrap_pyfunction!(tiled::make_tiled_copy, m)?)?;
    m.add_function(wrap_pyfunction!(tiled::make_tiled_copy_a, m)?)?;
    m.add_function(wrap_pyfunction!(tiled::make_tiled_copy_b, m)?)?;
    m.add_function(wrap_pyfunction!(tiled::make_tiled_copy_c, m)?)?;
    m.add_function(wrap_pyfunction!(tiled::tv_layout_svg, m)?)?;
    m.add_class::<symbolic::PySymLayout>()?;
    m.add_class::<swizzles::PyBankReport>()?;
    m.add_class::<swizzles::PySwizzleSearch>()?;
    // every operation of the core's table (table.rs), but those whose Python form differs
    table::register(m)?;
    // the table's operations written by hand (table::HAND_KEPT says why), then the functions
    // that are Python's only
    m.add_function(wrap_pyfunction!(ops::size, m)?)?;
    m.add_function(wrap_pyfunction!(ops::cosize, m)?)?;
    m.add_function(wrap_pyfunction!(ops::rank, m)?)?;
    m.add_function(wrap_pyfunction!(ops::depth, m)?)?;
    m.add_function(wrap_pyfunction!(ops::shape, m)?)?;
    m.add_function(wrap_pyfunction!(ops::stride, m)?)?;
    m.add_function(wrap_pyfunction!(ops::flatten, m)?)?;
    m.add_function(wrap_pyfunction!(ops::make_layout, m)?)?;
    m.add_function(wrap_pyfunction!(ops::coalesce, m)?)?;
    m.add_function(wrap_pyfunction!(ops::filter, m)?)?;
    m.add_function(wrap_pyfunction!(ops::composition, m)?)?;
    m.add_function(wrap_pyfunction!(ops::recast, m)?)?;
    m.add_function(wrap_pyfunction!(ops::complement, m)?)?;
    m.add_function(wrap_pyfunction!(ops::right_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(ops::logical_divide, m)?)?;
    m.add_function(wrap_pyfunction!(ops::logical_product, m)?)?;
    m.add_function(wrap_pyfunction!(ops::blocked_product, m)?)?;
    m.add_function(wrap_pyfunction!(ops::product, m)?)?;
    m.add_function(wrap_pyfunction!(ops::product_each, m)?)?;
    m.add_function(wrap_pyfunction!(ops::prefix_product, m)?)?;
    m.add_function(wrap_pyfunction!(ops::image, m)?)?;
    m.add_function(wrap_pyfunction!(partition::slice_and_offset, m)?)?;
    m.add_function(wrap_pyfunction!(partition::thread_coord, m)?)?;
    m.add_function(wrap_pyfunction!(partition::bank_conflicts, m)?)?;
    m.add_function(wrap_pyfunction!(partition::swizzle_search, m)?)?;
    m.add_function(wrap_pyfunction!(partition::tmem_32x32b, m)?)?;
    m.add_function(wrap_pyfunction!(partition::tmem_16x256b, m)?)?;
    m.add_function(wrap_pyfunction!(partition::print_layout, m)?)?;
    m.add_function(wrap_pyfunction!(partition::layout_svg, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::array_layout, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::tensor_get, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::tensor_set, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::tensor_copy, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::tensor_gemm, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::tensor_contract, m)?)?;
    Ok(())
}
