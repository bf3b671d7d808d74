//! The library behind the `cute` command: the textual operation dispatcher shared by `cute OP`,
//! `cute conformance` and `cute paper`, the conformance runner and the paper tour ([`paper`]).
#![forbid(unsafe_code)]

pub mod conformance;
pub mod ops;
pub mod paper;
