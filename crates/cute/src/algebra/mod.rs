//! The layout algebra (paper: 布局代数 “layout algebra”): every operation takes layouts and returns a
//! layout with a stated functional property, or an [`Error`](crate::Error) naming the violated
//! condition.
//!
//! One module per operation of the paper: [`coalesce`](mod@coalesce), [`composition`](mod@composition),
//! [`complement`](mod@complement), and the operations built from them.
//!
//! Three operations act mode by mode, each under its own name: [`composition_tiler`](crate::composition_tiler)
//! (CuTe C++'s by-mode composition `A ∘ ⟨B_0, B_1, …⟩`, in [`composition`](mod@composition)),
//! [`composition_mode`](mod@composition_mode) (PyCuTe's `composition_mode`: one mode of `A`
//! composed, the others kept), and `apply_tiler` (private: the divides and products applied at the
//! tiles of a tiler). `semimodule` (private) holds the complement and the inverses for coordinate
//! (`e_i`) and F2 strides, one integer problem per axis.

mod apply_tiler;
pub mod coalesce;
pub mod common;
pub mod complement;
pub mod composition;
pub mod composition_mode;
pub mod distribute;
pub mod divide;
mod f2_linear;
pub mod inverse;
pub mod layout_add;
mod left_inverse_search;
pub mod nullspace;
pub mod product;
pub mod recast;
mod semimodule;
