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
pub mod draw_tiled;
pub mod gpu;
pub mod json;
/// The operation registry of the core crate ([`cute::registry`]), under the name the command line
/// has always used.
pub use cute::registry as ops;
pub mod paper;
pub mod playground;

/// The README's Rust example, compiled and run as a doc test of this crate (`cargo test -p
/// cute-cli --doc`); its `sh` examples are run by `tests/readme.rs`.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeRustExample;
