//! COPY through the algebra against plain Rust baselines (the targets in BENCHMARKS.md):
//!
//! * `copy_64mib`: 16 Mi `f32` (64 MiB) between two layouts whose common contiguous vector is 4096
//!   elements (`(4096,4096):(1,4096)` into `(4096,(64,64)):(1,(262144,4096))`, the columns
//!   reordered in blocks), and between identical layouts (one run of 16 Mi), against
//!   `copy_from_slice` of the same bytes; `generic` is the reference loop on the first pair;
//! * `transpose_4096`: `(4096,4096):(1,4096)` into `(4096,4096):(4096,1)` (a 64 MiB transpose)
//!   through `copy`, whose plan blocks it 32×32, against a hand-written cache-blocked transpose
//!   (32×32 blocks, safe indexing) and the reference loop.
//!
//! `cargo bench -p cute --bench tensor`. Each sample is one copy; buffers are allocated and
//! touched once, before the first timing, and shared by all the benchmarks.

use cute::{copy, copy_generic, Layout, Tensor};
use divan::black_box;

fn main() {
    divan::main();
}

const N: usize = 4096;

fn layout(s: &str) -> Layout {
    s.parse().expect("benchmark operand")
}

/// One source and one destination buffer shared by every benchmark, so that all of them run on
/// the same (already faulted-in) pages: separate allocations measured up to 1.5× apart on this
/// machine for the same copy, depending on how the kernel backed them.
static BUFFERS: std::sync::Mutex<Option<(Vec<f32>, Vec<f32>)>> = std::sync::Mutex::new(None);

fn with_buffers(f: impl FnOnce(&[f32], &mut [f32])) {
    let mut g = BUFFERS.lock().unwrap_or_else(|e| e.into_inner());
    let (a, b) = g.get_or_insert_with(|| {
        let a: Vec<f32> = (0..N * N).map(|k| k as f32).collect();
        (a, vec![1.0; N * N])
    });
    f(a, b)
}

mod copy_64mib {
    use super::*;

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn copy_from_slice(bencher: divan::Bencher) {
        with_buffers(|a, b| bencher.bench_local(|| b.copy_from_slice(black_box(a))));
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn cute_copy_same_layout(bencher: divan::Bencher) {
        with_buffers(|a, b| {
            let l = layout("(4096,4096):(1,4096)");
            let src = Tensor::new(a, l).unwrap();
            let mut dst = Tensor::new(b, l).unwrap();
            bencher.bench_local(|| copy(black_box(&src), &mut dst).unwrap());
        });
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn cute_copy_vector_4096(bencher: divan::Bencher) {
        with_buffers(|a, b| {
            let src = Tensor::new(a, layout("(4096,4096):(1,4096)")).unwrap();
            let mut dst = Tensor::new(b, layout("(4096,(64,64)):(1,(262144,4096))")).unwrap();
            bencher.bench_local(|| copy(black_box(&src), &mut dst).unwrap());
        });
    }

    #[divan::bench(sample_count = 5, sample_size = 1)]
    fn generic_vector_4096(bencher: divan::Bencher) {
        with_buffers(|a, b| {
            let src = Tensor::new(a, layout("(4096,4096):(1,4096)")).unwrap();
            let mut dst = Tensor::new(b, layout("(4096,(64,64)):(1,(262144,4096))")).unwrap();
            bencher.bench_local(|| copy_generic(black_box(&src), &mut dst).unwrap());
        });
    }
}

mod transpose_4096 {
    use super::*;

    /// The hand-written baseline: 32×32 blocks, the inner loop writing a destination row.
    #[inline(never)]
    fn hand_blocked(a: &[f32], b: &mut [f32]) {
        const B: usize = 32;
        for bi in (0..N).step_by(B) {
            for bj in (0..N).step_by(B) {
                for i in bi..bi + B {
                    for j in bj..bj + B {
                        // a is column-major (i + N·j), b row-major (N·i + j)
                        b[N * i + j] = a[i + N * j];
                    }
                }
            }
        }
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn hand_blocked_32(bencher: divan::Bencher) {
        with_buffers(|a, b| bencher.bench_local(|| hand_blocked(black_box(a), b)));
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn cute_copy(bencher: divan::Bencher) {
        with_buffers(|a, b| {
            let src = Tensor::new(a, layout("(4096,4096):(1,4096)")).unwrap();
            let mut dst = Tensor::new(b, layout("(4096,4096):(4096,1)")).unwrap();
            bencher.bench_local(|| copy(black_box(&src), &mut dst).unwrap());
        });
    }

    #[divan::bench(sample_count = 5, sample_size = 1)]
    fn generic(bencher: divan::Bencher) {
        with_buffers(|a, b| {
            let src = Tensor::new(a, layout("(4096,4096):(1,4096)")).unwrap();
            let mut dst = Tensor::new(b, layout("(4096,4096):(4096,1)")).unwrap();
            bencher.bench_local(|| copy_generic(black_box(&src), &mut dst).unwrap());
        });
    }
}
