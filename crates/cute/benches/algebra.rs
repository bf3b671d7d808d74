//! Benchmarks of the benchmark set (the one `cute bench` times): the algebra on the paper's operands, and evaluation of
//! `((4,8),(8,16)):((8,512),(1,32))` against two hand-written baselines.
//!
//! `cargo bench -p cute --bench algebra`. (The operations run 10 000 times per sample: with divan's
//! automatic sample size a single slow first sample can leave it at 100, which inflates the
//! figures.) Operands are built once, outside the timed closures; the
//! operands pass through `black_box`, the results through `black_box` by reference. The same set is timed in-process by
//! `cute bench [--json]`, which `scripts/bench_pycute.py` compares with legacy pycute.

use cute::{IndexEvaluator, IntTuple, Layout};
use divan::black_box;

fn main() {
    divan::main();
}

fn layout(s: &str) -> Layout {
    s.parse().expect("benchmark operand")
}

/// Keeps a result alive without copying it: the result is computed in place and only its address
/// escapes (returning it from the closure would copy it, a ~1 KiB move, into divan's buffer).
#[inline(always)]
fn keep<T>(r: T) {
    black_box(&r);
}

/// The algebra on the benchmark set's operands.
mod algebra {
    use super::*;

    /// Paper, Table 4, RowMajor: `(8,8):(8,1) ∘ ((4,8),2):((16,1),8)`.
    #[divan::bench(sample_size = 10000)]
    fn composition_tv(bencher: divan::Bencher) {
        let a = layout("(8,8):(8,1)");
        let b = layout("((4,8),2):((16,1),8)");
        bencher.bench_local(|| keep(cute::composition(black_box(&a), black_box(&b))));
    }

    /// `(4,6,8,10):(2,3,5,7) ∘ 6:12`.
    #[divan::bench(sample_size = 10000)]
    fn composition_6_12(bencher: divan::Bencher) {
        let a = layout("(4,6,8,10):(2,3,5,7)");
        let b = layout("6:12");
        bencher.bench_local(|| keep(cute::composition(black_box(&a), black_box(&b))));
    }

    /// `complement((4,8):(1,8), 64)`.
    #[divan::bench(sample_size = 10000)]
    fn complement(bencher: divan::Bencher) {
        let a = layout("(4,8):(1,8)");
        let m = IntTuple::int(64);
        bencher.bench_local(|| keep(cute::complement_to(black_box(&a), black_box(&m))));
    }

    /// `coalesce(((2,(1,4)),(3,1)):((1,(7,2)),(8,0)))`.
    #[divan::bench(sample_size = 10000)]
    fn coalesce(bencher: divan::Bencher) {
        let a = layout("((2,(1,4)),(3,1)):((1,(7,2)),(8,0))");
        bencher.bench_local(|| keep(cute::coalesce(black_box(&a))));
    }

    /// `(8,16):(20,1) ⊘ <4:1,8:2>`.
    #[divan::bench(sample_size = 10000)]
    fn logical_divide(bencher: divan::Bencher) {
        let a = layout("(8,16):(20,1)");
        let t: cute::Tiler = "<4:1,8:2>".parse().unwrap();
        bencher.bench_local(|| keep(cute::logical_divide(black_box(&a), black_box(&t))));
    }

    /// `right_inverse(((2,2),(4,2)):((1,8),(2,16)))`.
    #[divan::bench(sample_size = 10000)]
    fn right_inverse(bencher: divan::Bencher) {
        let a = layout("((2,2),(4,2)):((1,8),(2,16))");
        bencher.bench_local(|| keep(cute::right_inverse(black_box(&a))));
    }

    /// `(3,4):(4,1) ⊗ (2,5):(1,2)`.
    #[divan::bench(sample_size = 10000)]
    fn logical_product(bencher: divan::Bencher) {
        let a = layout("(3,4):(4,1)");
        let t: cute::Tiler = "(2,5):(1,2)".parse().unwrap();
        bencher.bench_local(|| keep(cute::logical_product(black_box(&a), black_box(&t))));
    }

    /// `blocked_product((3,4):(4,1), (2,5):(1,2))`.
    #[divan::bench(sample_size = 10000)]
    fn blocked_product(bencher: divan::Bencher) {
        let a = layout("(3,4):(4,1)");
        let b = layout("(2,5):(1,2)");
        bencher.bench_local(|| keep(cute::blocked_product(black_box(&a), black_box(&b))));
    }
}

/// Building blocks of logical_divide and the products.
mod primitives {
    use super::*;

    /// `(8,16):(20,1) ∘ <4:1,8:2>`, the composition inside `logical_divide`.
    #[divan::bench(sample_size = 10000)]
    fn composition_tiler(bencher: divan::Bencher) {
        let a = layout("(8,16):(20,1)");
        let t: cute::Tiler = "<4:1,8:2>".parse().unwrap();
        bencher.bench_local(|| keep(cute::composition_tiler(black_box(&a), black_box(&t))));
    }

    /// `complement((4,8):(1,8))`, the paper's form.
    #[divan::bench(sample_size = 10000)]
    fn complement_paper(bencher: divan::Bencher) {
        let a = layout("(4,8):(1,8)");
        bencher.bench_local(|| keep(cute::complement(black_box(&a))));
    }

    /// `get<1>(((2,2),(4,2)):((1,8),(2,16)))`.
    #[divan::bench(sample_size = 10000)]
    fn mode(bencher: divan::Bencher) {
        let a = layout("((2,2),(4,2)):((1,8),(2,16))");
        bencher.bench_local(|| keep(black_box(&a).mode(1)));
    }

    /// Mode 1 of the tiler `<4:1,8:2>`.
    #[divan::bench(sample_size = 10000)]
    fn tiler_mode(bencher: divan::Bencher) {
        let t: cute::Tiler = "<4:1,8:2>".parse().unwrap();
        bencher.bench_local(|| keep(black_box(&t).mode(1)));
    }

    /// `(4:1, (2,1):(4,64))`.
    #[divan::bench(sample_size = 10000)]
    fn concat(bencher: divan::Bencher) {
        let modes = [layout("4:1"), layout("(2,1):(4,64)")];
        bencher.bench_local(|| keep(Layout::concat(black_box(&modes))));
    }
}

/// Evaluation of every element of `((4,8),(8,16)):((8,512),(1,32))` (4096 elements, each written
/// into a buffer); compare the four with each other (items = elements).
mod eval {
    use super::*;

    const LAYOUT: &str = "((4,8),(8,16)):((8,512),(1,32))";
    const SHAPE: [i64; 4] = [4, 8, 8, 16];
    const STRIDE: [i64; 4] = [8, 512, 1, 32];
    const N: usize = 4096;

    /// [`IndexEvaluator::eval`] from the 1-D index.
    #[divan::bench]
    fn eval_index(bencher: divan::Bencher) {
        let ev = IndexEvaluator::new(&layout(LAYOUT)).unwrap();
        let mut buf = vec![0i64; N];
        bencher
            .counter(divan::counter::ItemsCount::new(N))
            .bench_local(|| {
                let ev = black_box(&ev);
                for (i, o) in black_box(&mut buf).iter_mut().enumerate() {
                    *o = ev.eval(i as i64);
                }
            });
    }

    /// [`Layout::offsets`]: natural-coordinate iteration.
    #[divan::bench]
    fn eval_natural(bencher: divan::Bencher) {
        let l = layout(LAYOUT);
        let mut buf = vec![0i64; N];
        bencher
            .counter(divan::counter::ItemsCount::new(N))
            .bench_local(|| {
                let out = black_box(&mut buf);
                let mut j = 0;
                black_box(&l).offsets().unwrap().for_each(|o| {
                    out[j] = o;
                    j += 1;
                });
            });
    }

    /// Baseline: hand-written div/mod from the index, extents known at run time.
    #[divan::bench]
    fn eval_hand_index(bencher: divan::Bencher) {
        let s = SHAPE.map(|x| x as u64);
        let mut buf = vec![0i64; N];
        bencher
            .counter(divan::counter::ItemsCount::new(N))
            .bench_local(|| {
                let (s, d) = (black_box(&s), black_box(&STRIDE));
                for (i, o) in black_box(&mut buf).iter_mut().enumerate() {
                    let i = i as u64;
                    let (c0, r) = (i % s[0], i / s[0]);
                    let (c1, r) = (r % s[1], r / s[1]);
                    let (c2, c3) = (r % s[2], r / s[2]);
                    *o = c0 as i64 * d[0] + c1 as i64 * d[1] + c2 as i64 * d[2] + c3 as i64 * d[3];
                }
            });
    }

    /// Baseline: hand-written nested loops over the four leaf extents (run time).
    #[divan::bench]
    fn eval_hand_loops(bencher: divan::Bencher) {
        let mut buf = vec![0i64; N];
        bencher
            .counter(divan::counter::ItemsCount::new(N))
            .bench_local(|| {
                let (s, d) = (black_box(&SHAPE), black_box(&STRIDE));
                let out = black_box(&mut buf);
                let mut j = 0;
                for c3 in 0..s[3] {
                    for c2 in 0..s[2] {
                        for c1 in 0..s[1] {
                            for c0 in 0..s[0] {
                                out[j] = c0 * d[0] + c1 * d[1] + c2 * d[2] + c3 * d[3];
                                j += 1;
                            }
                        }
                    }
                }
            });
    }
}
