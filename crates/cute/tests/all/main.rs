//! The one integration-test binary.
mod eval;
