//! The library behind the `cute` command: the command itself, in-process ([`cli::run`]), the
//! textual operation dispatcher shared by `cute OP`, `cute conformance` and `cute paper`, the
//! conformance runner and the paper tour ([`paper`]).
#![forbid(unsafe_code)]
#![allow(clippy::result_large_err)] // cute::Error is a large plain value, see DESIGN.md

pub mod apps;
pub mod atoms;
pub mod banks;
pub mod bench;
pub mod cli;
pub mod conformance;
pub mod diag;
pub mod draw;
pub mod gpu;
pub mod json;
/// The operation registry of the core crate ([`cute::registry`]), under the name the command line
/// has always used.
pub use cute::registry as ops;
pub mod paper;
pub mod playground;
