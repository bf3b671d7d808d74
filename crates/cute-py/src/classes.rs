//! The Python classes' values (the structs behind `Layout`, `E`, `F2`, `Swizzle` and
//! `ComposedLayout`), below the conversions that read them (`conv`) and the methods that use
//! those conversions (`types`), so that neither imports the other in a circle.

use std::cell::RefCell;
use std::mem::ManuallyDrop;
use std::sync::OnceLock;

use cute::{ComposedLayout, Layout, Stride, Swizzle};
use pyo3::prelude::*;

/// A CuTe layout `shape:stride`: a function from coordinates (or indices) to offsets.
///
/// `Layout(shape, stride=None)` takes nested tuples of ints (a shape) and a congruent stride;
/// strides may be ints, scaled coordinate bases `E(i)` or binary polynomials `F2(bits)`, all of one
/// kind. Without a stride the layout is compact column-major.
///
/// >>> from cute_algebra import Layout
/// >>> L = Layout((4, 8), (1, 4))
/// >>> L(5), L((1, 1)), L(1, 1)
/// (5, 5, 5)
/// >>> str(L), L
/// ('(4,8):(1,4)', Layout((4,8),(1,4)))
/// >>> Layout(((2, 2), 3))
/// Layout(((2,2),3),((1,2),4))
///
/// The layout is boxed: a `cute::Layout` is aligned to 64 bytes, and a Python object's memory
/// only to 16 (PyO3 does not realign a class's contents).
///
/// The Python values of the shape and the stride are made once, on first use (or taken from the
/// constructor's arguments when those are plain tuples of ints, which are immutable), and kept.
#[pyclass(frozen, module = "cute_algebra", name = "Layout")]
pub struct PyLayout(pub LBox, pub(crate) Cached);

/// The Python values of a layout's shape and stride: the constructor's arguments when it was
/// given plain tuples, or made once on first use.
#[derive(Default)]
pub struct Cached {
    pub(crate) given: Option<(PyObject, PyObject)>,
    pub(crate) shape: OnceLock<PyObject>,
    pub(crate) stride: OnceLock<PyObject>,
}

/// A boxed layout (aligned to 64 bytes, as `cute::Layout` is) whose allocation goes back to a
/// small per-thread pool when it is dropped, and comes from there when one is boxed: an aligned
/// allocation costs more than the operations on small layouts.
pub struct LBox(ManuallyDrop<Box<Layout>>);

thread_local! {
    // boxes, not layouts: a box is handed out and taken back whole, its layout never moved
    #[allow(clippy::vec_box)]
    static POOL: RefCell<Vec<Box<Layout>>> = const { RefCell::new(Vec::new()) };
}

/// The most boxes a thread's pool keeps.
const POOL_MAX: usize = 256;

impl LBox {
    /// `l` in a box, from the pool when it has one.
    pub fn new(l: Layout) -> LBox {
        let b = POOL
            .try_with(|p| p.borrow_mut().pop())
            .ok()
            .flatten()
            .map(|mut b| {
                *b = l;
                b
            })
            .unwrap_or_else(|| Box::new(l));
        LBox(ManuallyDrop::new(b))
    }
}

/// A valid layout to allocate a box with (then overwritten).
const TRIVIAL: Layout = cute::layout!("1:0");

impl LBox {
    /// A box whose layout `fill` writes (from the pool when it has one); `None` when `fill`
    /// refuses (returns `false`).
    pub fn build(fill: impl FnOnce(&mut Layout) -> bool) -> Option<LBox> {
        let mut b = POOL
            .try_with(|p| p.borrow_mut().pop())
            .ok()
            .flatten()
            .unwrap_or_else(|| Box::new(TRIVIAL));
        if fill(&mut b) {
            Some(LBox(ManuallyDrop::new(b)))
        } else {
            drop(LBox(ManuallyDrop::new(b))); // back to the pool
            None
        }
    }
}

impl std::ops::Deref for LBox {
    type Target = Layout;
    fn deref(&self) -> &Layout {
        &self.0
    }
}

impl Drop for LBox {
    fn drop(&mut self) {
        // SAFETY: the box is taken once, here, and `self.0` is not used after
        let b = unsafe { ManuallyDrop::take(&mut self.0) };
        let _ = POOL.try_with(|p| {
            if let Ok(mut p) = p.try_borrow_mut() {
                if p.len() < POOL_MAX {
                    p.push(b);
                }
            }
        });
    }
}

/// A scaled coordinate basis stride `v·E(p1, …, pk)` (CuTe's `E<p1,…,pk>`, printed `v@pk@…@p1`).
///
/// >>> from cute_algebra import E, Layout
/// >>> str(E(1)), str(3 * E(0)), repr(2 * E(0, 1))
/// ('1@1', '3@0', '2*E(0,1)')
/// >>> Layout((4, 6), (E(0), E(1)))(9)
/// (1, 2)
#[pyclass(frozen, module = "cute_algebra", name = "E")]
#[derive(Clone, Copy)]
pub struct PyE(pub Stride);

/// A binary stride: the polynomial over F2 whose coefficients are the bits of `bits` (CuTe
/// notation `F<bits>`). Layouts with F2 strides add offsets by XOR.
///
/// >>> from cute_algebra import F2, Layout
/// >>> L = Layout((8, 8), (F2(1), F2(9)))
/// >>> str(L), L(9)
/// ('(8,8):(F1,F9)', 8)
#[pyclass(frozen, module = "cute_algebra", name = "F2")]
#[derive(Clone, Copy)]
pub struct PyF2(pub Stride);

/// The swizzle functor `Sw<B,M,S>`: XORs the `B` bits at `M + max(0,S)` into the bits at
/// `M - min(0,S)`.
///
/// >>> from cute_algebra import Swizzle
/// >>> sw = Swizzle(3, 4, 3)
/// >>> str(sw), sw, sw(0b1010000000)
/// ('Sw<3,4,3>', Swizzle(3,4,3), 720)
#[pyclass(frozen, module = "cute_algebra", name = "Swizzle")]
#[derive(Clone)]
pub struct PySwizzle(pub Swizzle);

/// `Sw ∘ offset ∘ L`: a swizzled layout, `C(c) = Sw(offset + L(c))`.
///
/// >>> from cute_algebra import ComposedLayout, Swizzle, Layout
/// >>> C = ComposedLayout(Swizzle(3, 0, 3), 0, Layout((8, 8), (8, 1)))
/// >>> str(C), C(9), C((1, 1)), C.size()
/// ('Sw<3,0,3> o 0 o (8,8):(8,1)', 8, 8, 64)
///
/// Boxed, as [`PyLayout`]'s layout.
#[pyclass(frozen, module = "cute_algebra", name = "ComposedLayout")]
#[derive(Clone)]
pub struct PyComposedLayout(pub Box<ComposedLayout>);

impl PyComposedLayout {
    /// The Python object's contents for `c`.
    pub fn wrap(c: ComposedLayout) -> PyComposedLayout {
        PyComposedLayout(Box::new(c))
    }
}
