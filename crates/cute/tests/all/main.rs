//! The one integration-test binary of the core crate: one module per area.

mod basics;
mod consts;
mod divide;
mod gen;
mod inverse;
mod laws;
mod pyops;
mod regress;
