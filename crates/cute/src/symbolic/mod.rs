//! Layouts with extents known only at run time: `?`, `?{div=16}` (CuTe DSL's notation), named
//! unknowns `M`, `M{div=16,min=64}`.
//!
//! CuTe DSL carries run-time extents as `?{div=N}` and then fails to coalesce, compose or invert
//! them (CUTLASS #3469, #3470, #3471); CuTe C++ with run-time integers skips the paper's checks.
//! Here every operation on a [`SymLayout`] either returns a layout that is right for **every**
//! admissible value of the unknowns (each a positive multiple of its `div`, at least its `min`),
//! or refuses with a [`SymError`] that names the unknown and the run-time condition the answer
//! depends on (category `Condition`), or says that the case is not handled symbolically
//! (`Unsupported`). A step of the integer construction is taken only where its condition is
//! proven from the known divisors and bounds; there is no guessing.
//!
//! ```
//! use cute::symbolic::{coalesce, composition, right_inverse, SymLayout};
//! let l: SymLayout = "(192,?{div=8}):(1,192)".parse().unwrap();
//! assert_eq!(coalesce(&l).unwrap().to_string(), "192*?{div=8}:1"); // CUTLASS #3469
//! let l: SymLayout = "(16,N):(1,16)".parse().unwrap();
//! assert_eq!(right_inverse(&l).unwrap().to_string(), "16*N:1"); // CUTLASS #3471
//! let a: SymLayout = "(M,4):(1,2*M)".parse().unwrap();
//! let e = composition(&a, &"2:8".parse().unwrap()).unwrap_err();
//! assert_eq!(e.category(), "Condition");
//! assert!(e.to_string().contains("needs M divisible by 8 or dividing 8"), "{e}");
//! let a: SymLayout = "(M{div=16},4):(1,2*M)".parse().unwrap();
//! assert_eq!(composition(&a, &"2:8".parse().unwrap()).unwrap().to_string(), "2:8");
//! ```

mod derived;
mod error;
mod eval;
mod expr;
mod inverse;
mod layout;
mod ops;
mod slicing;
mod text;
mod tiler;

pub use derived::{
    blocked_product, flat_divide, flat_product, logical_divide, logical_product, raked_product,
    tiled_divide, tiled_product, zipped_divide, zipped_product,
};
pub use error::{Reason, SymError};
pub use eval::{eval, SymOffset};
pub use expr::{Mono, Sym, SymId, Tri};
pub use inverse::{left_inverse, right_inverse, right_inverse_with};
pub use layout::{SymLayout, SymStride, Tree};
pub use ops::{coalesce, coalesce_with, complement, composition, Form};
pub use slicing::{dice, slice};
pub use tiler::{
    composition_by_mode, flat_divide_by_mode, logical_divide_by_mode, tiled_divide_by_mode,
    zipped_divide_by_mode, SymTiler,
};

/// `cosize(L) = L(|L|-1) + 1` when it is a single product of the extents (compact layouts),
/// else `None`.
///
/// ```
/// use cute::symbolic::{cosize, SymLayout};
/// let l: SymLayout = "(4,M):(1,4)".parse().unwrap();
/// assert_eq!(cosize(&l).unwrap().to_string(), "4*M");
/// assert!(cosize(&"(4,M):(1,8)".parse().unwrap()).is_none());
/// ```
pub fn cosize(l: &SymLayout) -> Option<Mono> {
    derived::cosize_mono(l)
}
