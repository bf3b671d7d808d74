//! Times `cute_gemm::contract` on the shapes of `scripts/bench_contract.py` (which also times
//! numpy.einsum in the same run), and the reference loop against the fast path on a small GEMM.
//!
//! Prints `RESULT <name> <seconds> <GFLOP/s>` lines (the best of several runs).
//!
//! Run: `cargo run --release -p cute-gemm --example bench_contract`

use cute::{Layout, Tensor};
use std::time::Instant;

/// The best wall time of `reps` runs of `f` (after one warm-up run).
fn best(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Row-major (numpy C-order) layout of the extents.
fn row_major(e: &[i64]) -> Layout {
    let mut d = vec![0i64; e.len()];
    let mut next = 1;
    for i in (0..e.len()).rev() {
        d[i] = next;
        next *= e[i];
    }
    Layout::flat(e, &d).unwrap()
}

fn data(n: i64) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7919) % 1013) as f32 / 1013.0 - 0.5)
        .collect()
}

fn bench(name: &str, spec: &str, ea: &[i64], eb: &[i64], ec: &[i64], flops: f64, reps: usize) {
    let (la, lb, lc) = (row_major(ea), row_major(eb), row_major(ec));
    let (a, b) = (data(la.size()), data(lb.size()));
    let mut c = vec![0f32; lc.size() as usize];
    let ta = Tensor::new(&a[..], la).unwrap();
    let tb = Tensor::new(&b[..], lb).unwrap();
    let mut tc = Tensor::new(&mut c[..], lc).unwrap();
    let t = best(reps, || {
        cute_gemm::contract(spec, &ta, &tb, &mut tc).unwrap()
    });
    println!("RESULT {name} {t:.6} {:.1}", flops / t / 1e9);
}

fn main() {
    let n = 2048;
    // numpy: einsum("mk,kn->mn", A, B) with C-order A (M,K), B (K,N): A is (M,K):(K,1), B is
    // (K,N):(N,1), C (M,N):(N,1). `contract` folds B's modes into the paper's (N,K):(1,N).
    bench(
        "mk,kn->mn",
        "mk,kn->mn",
        &[n, n],
        &[n, n],
        &[n, n],
        2.0 * (n * n * n) as f64,
        5,
    );
    // the paper's C_stqp = A_stupr B_qtru
    let (s, t, u, p, r, q) = (16, 4, 64, 48, 32, 128);
    let flops = 2.0 * (s * t * u * p * r * q) as f64;
    bench(
        "stupr,qtru->stqp",
        "stupr,qtru->stqp",
        &[s, t, u, p, r],
        &[q, t, r, u],
        &[s, t, q, p],
        flops,
        5,
    );

    // the reference loop against the fast path, a small f32 GEMM (paper convention, NT)
    let m = 128i64;
    let l = Layout::flat(&[m, m], &[1, m]).unwrap();
    let (a, b) = (data(m * m), data(m * m));
    let mut c = vec![0f32; (m * m) as usize];
    let ta = Tensor::new(&a[..], l).unwrap();
    let tb = Tensor::new(&b[..], l).unwrap();
    let mut tc = Tensor::new(&mut c[..], l).unwrap();
    let fl = 2.0 * (m * m * m) as f64;
    let tr = best(3, || cute::gemm(&ta, &tb, &mut tc).unwrap());
    println!("RESULT reference-gemm-128 {tr:.6} {:.2}", fl / tr / 1e9);
    let tf = best(20, || cute_gemm::gemm(&ta, &tb, &mut tc).unwrap());
    println!("RESULT fast-gemm-128 {tf:.6} {:.2}", fl / tf / 1e9);
}
