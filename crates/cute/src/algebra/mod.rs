//! The layout algebra (paper: 布局代数 “layout algebra”): every operation takes layouts and returns a
//! layout with a stated functional property, or an [`Error`](crate::Error) naming the violated
//! condition.
//!
//! One module per operation of the paper: [`coalesce`](mod@coalesce), [`composition`](mod@composition),
//! [`complement`](mod@complement), and the operations built from them.

mod by_mode;
pub mod coalesce;
mod codomain;
pub mod common;
pub mod complement;
pub mod composition;
pub mod composition_mode;
pub mod distribute;
pub mod divide;
pub mod inverse;
pub mod layout_add;
pub mod nullspace;
pub mod product;
pub mod recast;
