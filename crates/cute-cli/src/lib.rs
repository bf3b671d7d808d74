//! The library behind the `cute` command: the textual operation dispatcher shared by `cute OP`,
//! `cute conformance` and `cute paper`, and the conformance runner.
#![forbid(unsafe_code)]

pub mod bench;
pub mod conformance;
pub mod ops;
