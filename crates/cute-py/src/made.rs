//! The layouts most recently built from given tuples, found again by the identity of those
//! tuples: `Layout(shape, stride)` called again with the very same tuple objects (a loop over a
//! constant, a tiler kept in a variable) returns the layout it built before instead of walking
//! the tuples again.
//!
//! Sound because only exact tuples of exact ints are remembered (the constructor's fast path
//! walked them: immutable all the way down) and each entry holds a reference to both tuples, so
//! their addresses cannot be reused by other objects while the entry lives; and because a
//! `Layout` is immutable (frozen, no attributes), so one object may stand for every call.

use std::cell::RefCell;

use pyo3::prelude::*;

use crate::classes::PyLayout;

/// The number of entries (a power of two): a direct-mapped table indexed by the addresses.
const SLOTS: usize = 64;

/// One remembered construction: the shape and stride objects given, and the layout built.
struct Entry {
    shape: PyObject,
    stride: PyObject,
    layout: Py<PyLayout>,
}

thread_local! {
    static TABLE: RefCell<Vec<Option<Entry>>> = RefCell::new((0..SLOTS).map(|_| None).collect());
}

/// The slot of a pair of addresses.
fn slot(shape: &Bound<'_, PyAny>, stride: &Bound<'_, PyAny>) -> usize {
    let a = shape.as_ptr() as usize;
    let b = stride.as_ptr() as usize;
    // objects are 16-byte aligned: drop the low bits, mix the two addresses
    ((a >> 4) ^ (b >> 4).rotate_left(7)).wrapping_mul(0x9E37_79B9) % SLOTS
}

/// The layout built before from these very `shape` and `stride` objects, if it is remembered.
pub fn recall(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    stride: &Bound<'_, PyAny>,
) -> Option<Py<PyLayout>> {
    let k = slot(shape, stride);
    TABLE
        .try_with(|t| {
            let t = t.try_borrow().ok()?;
            let e = t[k].as_ref()?;
            (e.shape.as_ptr() == shape.as_ptr() && e.stride.as_ptr() == stride.as_ptr())
                .then(|| e.layout.clone_ref(py))
        })
        .ok()
        .flatten()
}

/// Remembers that `layout` was built from `shape` and `stride`, which must be exact tuples (or
/// ints) of exact ints, replacing what the slot held.
pub fn remember(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    stride: &Bound<'_, PyAny>,
    layout: &Py<PyLayout>,
) {
    let k = slot(shape, stride);
    let entry = Entry {
        shape: shape.clone().unbind(),
        stride: stride.clone().unbind(),
        layout: layout.clone_ref(py),
    };
    // the entry replaced is dropped after the table is released (its layout's drop runs Rust
    // code only, but keep the borrow short all the same)
    let old = TABLE
        .try_with(|t| t.try_borrow_mut().ok().map(|mut t| t[k].replace(entry)))
        .ok()
        .flatten();
    drop(old);
}
