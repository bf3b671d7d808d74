//! The one integration-test binary.

mod divide;
