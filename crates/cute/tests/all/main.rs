//! The one integration-test binary.

mod regress;
