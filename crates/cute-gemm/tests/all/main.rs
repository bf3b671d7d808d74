//! Integration tests of cute-gemm: Table 3 through `cute::gemm` and `cute_gemm::gemm`, `contract`
//! against a loop nest, `conv2d` against the direct convolution, and the errors.

mod contract;
mod conv;
mod errors;
mod table3;
mod util;
