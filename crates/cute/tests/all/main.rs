//! The one integration-test binary.
