//! The left inverse of an integer layout, as one entry point for the other stride kinds: the
//! coordinate (`e_i`) axes and the binary layouts that are not linear over GF(2) reduce to it.

use crate::error::{Error, Operand};
use crate::layout::Layout;

/// [`left_inverse`](super::left_inverse) of a layout with integer strides (the caller checks
/// them): CuTe's chain, then the exact search over mixed radices; the errors name `a`.
pub(crate) const fn left_inverse_integral(a: &Layout) -> Result<Layout, Error> {
    match super::left_inverse_impl(a) {
        Ok(l) => Ok(l),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::None)),
    }
}
