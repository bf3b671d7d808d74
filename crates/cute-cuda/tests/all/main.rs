//! CPU tests of cute-cuda: atoms against CUTLASS's values and the PTX ISA's fragment formulas,
//! COPY plans, generated source snapshots, and the error path without a GPU.
mod api;
mod atoms;
mod compile;
mod copy;
mod gemm;
mod stream_k;
mod tma;
