//! Nullspace (kernel) of a layout: the coordinates that a layout maps to offset 0.
//!
//! `nullspace(L)` is the compact layout `K` that enumerates the integer coordinates of `L` whose
//! only non-zero entries sit on the stride-0 leaves of `L`: its modes are those leaves, in order,
//! each with the column-major weight `S̄_i` (the prefix product of all the shapes of `L` before it).
//! So `L(K(i)) = 0` for every `i < |K|`, `K` is injective, and `|K|` is the product of the stride-0
//! extents. Without stride-0 leaves the result is `1:0` (CuTe C++ semantics: a single leaf prints
//! as an integer layout, several as a flat tuple; a size-1 leaf gets weight 0, as in CuTe's compact
//! layouts).
//!
//! | `L` | `nullspace(L)` |
//! |---|---|
//! | `(2,4,6):(1,2,0)` | `6:8` |
//! | `((2,1),(2,8)):((3,8),(1,0))` | `8:4` |
//! | `(3,5,1):(0,1,0)` | `(3,1):(1,0)` |
//! | `(4,8):(1,4)` | `1:0` |
//!
//! ```
//! use cute::{nullspace, Layout};
//! let l: Layout = "(2,4,6):(1,2,0)".parse().unwrap();
//! let k = nullspace(&l).unwrap();
//! assert_eq!(k.to_string(), "6:8");
//! for i in 0..6 {
//!     assert_eq!(l.eval(k.eval(i).unwrap()).unwrap(), 0);
//! }
//! ```

use super::coalesce::Flat;
use crate::error::{mul, tri, Error, Op, Operand};
use crate::layout::Layout;

/// `nullspace(L)`: the compact layout of the stride-0 leaves of `L` (see the module docs).
///
/// ```
/// use cute::{nullspace, Layout};
/// let l: Layout = "((2,1),(2,8)):((3,8),(1,0))".parse().unwrap();
/// assert_eq!(nullspace(&l).unwrap().to_string(), "8:4");
/// let l: Layout = "(4,8):(1,4)".parse().unwrap();
/// assert_eq!(nullspace(&l).unwrap().to_string(), "1:0"); // injective: only 0 maps to 0
/// ```
///
/// # Errors
///
/// Fails only on overflow of the prefix products, which cannot happen for a layout whose size fits
/// in `i64` (every layout built by this crate).
pub const fn nullspace(a: &Layout) -> Result<Layout, Error> {
    match nullspace_flat(a) {
        Ok(f) => Ok(f.to_layout()),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::None)),
    }
}

const fn nullspace_flat(a: &Layout) -> Result<Flat, Error> {
    let f = Flat::of(a);
    // CuTe C++ gives a size-1 leaf weight 0; for coordinate and binary strides the reference is
    // PyCuTe, which keeps its prefix product.
    let integral = a.is_integral();
    let mut out = Flat::EMPTY;
    let mut p: i64 = 1;
    let mut i = 0;
    while i < f.n {
        if f.d[i] == 0 {
            out.push(f.s[i], if f.s[i] == 1 && integral { 0 } else { p });
        }
        p = tri!(mul(Op::Nullspace, p, f.s[i]));
        i += 1;
    }
    Ok(out)
}
