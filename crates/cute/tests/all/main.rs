//! The one integration-test binary of the core crate: one module per area.
#![allow(clippy::result_large_err)] // cute::Error is a large plain value (see DESIGN.md)

mod admissibility;
mod api;
mod atoms;
mod banks;
mod basics;
mod compile_fail;
mod complement;
mod consts;
mod divide;
mod eval;
mod exact;
mod gen;
mod invariant;
mod inverse;
mod kinds;
mod laws;
mod left_exact;
mod linear;
mod partition;
mod pyops;
mod regress;
mod semimodule;
mod static_tensor;
mod swizzle;
mod swizzle_f2;
mod symbolic;
mod symbolic_eval;
mod tensor;
mod tiled;
