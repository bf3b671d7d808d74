//! `A ⊗ B` for one layout tile `B`: `(A, complement(A, size(A)·cosize(B)) ∘ B)` (see the [parent
//! module](super)). The by-mode driver ([`apply_tiler`](crate::algebra::apply_tiler)) applies it at the
//! tiles of a tiler; the blocked and raked products build on its second mode.

use crate::algebra::complement::integer::complement_to_build;
use crate::algebra::composition::compose_build;
use crate::error::{mul, tri, Error, Op, Operand, Step};
use crate::layout::{concat_pair_build, Layout, BLANK};

/// `A ⊗ B = (A, complement(A, size(A)·cosize(B)) ∘ B)` for a layout `B`, or the error (with the
/// operands `A` and `B`) in `err`; the grid and the concatenation are built in place.
pub(crate) const fn product_build(a: &Layout, b: &Layout, err: &mut Result<(), Error>) -> Layout {
    let g = grid_build(a, b, err);
    if let Err(e) = *err {
        *err = Err(e.with(Operand::Layout(*a), Operand::Layout(*b)));
        return g;
    }
    concat_pair_build(a, &g, err)
}

/// The second mode of `A ⊗ B`, `complement(A, size(A)·cosize(B)) ∘ B`, or the error (without
/// operands) in `err`.
pub(crate) const fn grid_build(a: &Layout, b: &Layout, err: &mut Result<(), Error>) -> Layout {
    if !a.is_integral() && matches!(a.semimodule(), crate::stride::Semimodule::Coordinate) {
        // a coordinate codomain has no cosize to reach: PyCuTe's `complement(A) ∘ B`, with the
        // paper's complement (per axis, its trailing mode unbounded)
        let c = match crate::algebra::complement::complement(a) {
            Ok(c) => c,
            Err(e) => {
                *err = Err(e.in_step(Step::ProductComplement));
                return BLANK;
            }
        };
        let g = compose_build(&c, b, err);
        in_step(err, Step::ProductGrid);
        return g;
    }
    let n = match size_times_cosize(a, b) {
        Ok(n) => n,
        Err(e) => {
            *err = Err(e);
            return BLANK;
        }
    };
    let c = complement_to_build(a, &[n], true, &mut false, err);
    if err.is_err() {
        in_step(err, Step::ProductComplement);
        return c;
    }
    let g = compose_build(&c, b, err);
    in_step(err, Step::ProductGrid);
    g
}

/// Marks the error in `err`, if any, as one of the step `step`.
const fn in_step(err: &mut Result<(), Error>, step: Step) {
    if let Err(e) = *err {
        *err = Err(e.in_step(step));
    }
}

/// `size(A)·cosize(B)`, the cotarget of the complement in `A ⊗ B`.
const fn size_times_cosize(a: &Layout, b: &Layout) -> Result<i64, Error> {
    mul(Op::LogicalProduct, a.size(), tri!(b.cosize()))
}
