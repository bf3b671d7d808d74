//! `cute bench [--json] [--wall]`: times the benchmark set in-process.
//!
//! Every operand is parsed once, before timing. Each figure is the median, over [`SAMPLES`] samples,
//! of the time per call (each sample runs the call enough times to last at least [`SAMPLE_NS`]),
//! with the operands passed through [`black_box`] and the result left in place and then passed to
//! [`black_box`] by reference (so that it must be computed, but is not copied). Time is the calling
//! thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), so that a busy machine's preemptions do not count;
//! `--wall` uses the monotonic wall clock instead. `scripts/bench_pycute.py` times pycute with the
//! same clock. The evaluation figures are per element of `((4,8),(8,16)):((8,512),(1,32))` (4096
//! elements), each run writing every offset into a buffer:
//!
//! | key | what |
//! |---|---|
//! | `eval_index` | [`cute::IndexEvaluator::eval`] for every 1-D index `i` |
//! | `eval_natural` | [`cute::Offsets`] (natural-coordinate odometer) |
//! | `eval_hand_index` | hand-written div/mod from the index, extents known only at run time |
//! | `eval_hand_loops` | hand-written nested loops over the four leaf extents |
//! | `static_eval_index` | [`cute::StaticLayout::eval`] of the layout as a compile-time constant ([`EvalStatic`]) for every `i` |
//! | `eval_hand_const_index` | hand-written div/mod with constant extents: `i % 4`, `i / 4 % 8`, … |
//! | `static_eval_natural` | [`cute::StaticLayout::for_each_offset`] (constant loop nest) |
//! | `eval_hand_const_loops` | hand-written nested loops with constant extents and strides |
//! | `static_copy` | [`cute::static_copy`] of 4096 `f32` from [`EvalStatic`] into the compact [`CopyDst`] (per element) |
//! | `copy_hand_const` | the same copy as hand-written nested loops with constant extents and strides |
//!
//! The table ends with the ratios static / hand-written (the targets: at most 1.1 for the
//! index evaluation, 1.05 for the natural iteration and the copy).
//!
//! `scripts/bench_pycute.py` runs `cute bench --json` and compares with legacy pycute.

use cute::{static_copy, IndexEvaluator, IntTuple, Layout, StaticLayout, StaticTensor};
use std::hint::black_box;
use std::time::Instant;

/// Samples per figure (the median is reported).
pub const SAMPLES: usize = 41;

/// Minimum duration of one sample, in nanoseconds.
pub const SAMPLE_NS: u64 = 500_000;

/// The keys of the report, in order (the JSON keys of `cute bench --json`).
pub const KEYS: [&str; 18] = [
    "composition_tv",
    "composition_6_12",
    "logical_divide",
    "right_inverse",
    "complement",
    "logical_product",
    "blocked_product",
    "coalesce",
    "eval_index",
    "eval_natural",
    "eval_hand_index",
    "eval_hand_loops",
    "static_eval_index",
    "eval_hand_const_index",
    "static_eval_natural",
    "eval_hand_const_loops",
    "static_copy",
    "copy_hand_const",
];

/// The ratios of the report: `(static key, hand-written key, target)`, static / hand at most the
/// target.
pub const RATIOS: [(&str, &str, f64); 3] = [
    ("static_eval_index", "eval_hand_const_index", 1.1),
    ("static_eval_natural", "eval_hand_const_loops", 1.05),
    ("static_copy", "copy_hand_const", 1.05),
];

/// The layout of the evaluation benchmarks.
pub const EVAL_LAYOUT: &str = "((4,8),(8,16)):((8,512),(1,32))";

cute::static_layout! {
    /// [`EVAL_LAYOUT`] as a compile-time constant.
    pub EvalStatic = "((4,8),(8,16)):((8,512),(1,32))";
    /// The destination of the static copy: compact, column-major over the same shape.
    pub CopyDst = "((4,8),(8,16)):((1,4),(32,256))";
}

/// The clock of the measurements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// The calling thread's CPU time.
    ThreadCpu,
    /// The monotonic wall clock.
    Wall,
}

impl Clock {
    /// Nanoseconds since an arbitrary origin.
    pub fn now_ns(self) -> u64 {
        match self {
            Clock::ThreadCpu => {
                let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
                t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
            }
            Clock::Wall => {
                static ORIGIN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
                ORIGIN.get_or_init(Instant::now).elapsed().as_nanos() as u64
            }
        }
    }
}

/// Median nanoseconds per call of `f` on `clock`.
pub fn time_ns<R>(clock: Clock, mut f: impl FnMut() -> R) -> f64 {
    let mut run = |iters: u64| {
        let t = clock.now_ns();
        for _ in 0..iters {
            let r = f();
            black_box(&r);
        }
        clock.now_ns().saturating_sub(t)
    };
    let mut iters: u64 = 1;
    while run(iters) < SAMPLE_NS {
        iters *= 2;
    }
    let mut v: Vec<f64> = (0..SAMPLES)
        .map(|_| run(iters) as f64 / iters as f64)
        .collect();
    v.sort_by(f64::total_cmp);
    v[SAMPLES / 2]
}

fn layout(s: &str) -> Layout {
    s.parse().expect("benchmark operand")
}

/// Hand-written baseline: `L(i)` by division and remainder, the four leaf extents known only at run
/// time.
#[inline]
pub fn hand_index(i: u64, s: &[u64; 4], d: &[i64; 4]) -> i64 {
    let (c0, r) = (i % s[0], i / s[0]);
    let (c1, r) = (r % s[1], r / s[1]);
    let (c2, c3) = (r % s[2], r / s[2]);
    c0 as i64 * d[0] + c1 as i64 * d[1] + c2 as i64 * d[2] + c3 as i64 * d[3]
}

/// Fills `out[i] = L(i)` with [`hand_index`]. (The four `fill_*` functions are not inlined, so
/// that each is compiled on its own, whatever the code around the call.)
#[inline(never)]
pub fn fill_hand_index(out: &mut [i64], s: &[u64; 4], d: &[i64; 4]) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = hand_index(i as u64, s, d);
    }
}

/// Hand-written baseline: nested loops over the four leaf extents (run time), innermost first.
#[inline(never)]
pub fn fill_hand_loops(out: &mut [i64], s: &[i64; 4], d: &[i64; 4]) {
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
}

/// Fills `out[i] = L(i)` with the precomputed evaluator.
#[inline(never)]
pub fn fill_eval_index(out: &mut [i64], ev: &IndexEvaluator) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = ev.eval(i as i64);
    }
}

/// Fills `out` with the offsets of `l` by natural-coordinate iteration.
#[inline(never)]
pub fn fill_eval_natural(out: &mut [i64], l: &Layout) {
    let mut j = 0;
    l.offsets().expect("integer strides").for_each(|o| {
        out[j] = o;
        j += 1;
    });
}

/// Fills `out[i] = L(i)` through the static layout (`i` from 0; `out` at most 4096 long).
#[inline(never)]
pub fn fill_static_index(out: &mut [i64]) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = EvalStatic::eval(i);
    }
}

/// Hand-written baseline: `L(i)` by division and remainder with the constant extents.
#[inline(never)]
pub fn fill_hand_const_index(out: &mut [i64]) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = (i % 4) as i64 * 8
            + (i / 4 % 8) as i64 * 512
            + (i / 32 % 8) as i64
            + (i / 256) as i64 * 32;
    }
}

/// Fills `out` with the offsets of the static layout by its natural iteration.
#[inline(never)]
pub fn fill_static_natural(out: &mut [i64]) {
    let mut j = 0;
    EvalStatic::for_each_offset(|o| {
        out[j] = o;
        j += 1;
    });
}

/// Hand-written baseline: nested loops with the constant extents and strides, innermost first.
#[inline(never)]
pub fn fill_hand_const_loops(out: &mut [i64]) {
    let mut j = 0;
    for c3 in 0..16 {
        for c2 in 0..8 {
            for c1 in 0..8 {
                for c0 in 0..4 {
                    out[j] = c0 * 8 + c1 * 512 + c2 + c3 * 32;
                    j += 1;
                }
            }
        }
    }
}

/// The static COPY from [`EvalStatic`] into [`CopyDst`].
#[inline(never)]
pub fn copy_static(
    src: &StaticTensor<EvalStatic, &[f32]>,
    dst: &mut StaticTensor<CopyDst, &mut [f32]>,
) {
    static_copy(src, dst);
}

/// Hand-written baseline: the same copy, nested loops with constant extents and strides (both
/// slices cut to their 4096 elements first, as one writes it to let the optimiser drop the
/// bounds checks).
#[inline(never)]
pub fn copy_hand_const(src: &[f32], dst: &mut [f32]) {
    let (src, dst) = (&src[..4096], &mut dst[..4096]);
    for c3 in 0..16 {
        for c2 in 0..8 {
            for c1 in 0..8 {
                for c0 in 0..4 {
                    dst[c0 + c1 * 4 + c2 * 32 + c3 * 256] = src[c0 * 8 + c1 * 512 + c2 + c3 * 32];
                }
            }
        }
    }
}

/// Measures the whole set: `(key, median ns)` in the order of [`KEYS`], `None` for an operation that
/// is not in this build.
pub fn measure(clock: Clock) -> Vec<(&'static str, Option<f64>)> {
    // Operands, built once.
    let tv_a = layout("(8,8):(8,1)");
    let tv_b = layout("((4,8),2):((16,1),8)");
    let c_a = layout("(4,6,8,10):(2,3,5,7)");
    let c_b = layout("6:12");
    let cmp_a = layout("(4,8):(1,8)");
    let cmp_m = IntTuple::int(64);
    let co_a = layout("((2,(1,4)),(3,1)):((1,(7,2)),(8,0))");
    let ld_a = layout("(8,16):(20,1)");
    let ld_t: cute::Tiler = "<4:1,8:2>".parse().expect("tiler");
    let ri_a = layout("((2,2),(4,2)):((1,8),(2,16))");
    let lp_a = layout("(3,4):(4,1)");
    let lp_b = layout("(2,5):(1,2)");
    let lp_t = cute::Tiler::layout(lp_b);
    let ev_l = layout(EVAL_LAYOUT);
    let ev = IndexEvaluator::new(&ev_l).expect("integer strides");
    let n = ev_l.size() as usize;
    let (hs, hd): ([i64; 4], [i64; 4]) = ([4, 8, 8, 16], [8, 512, 1, 32]);
    let hu = hs.map(|x| x as u64);
    let mut buf = vec![0i64; n];
    let per = |t: f64| t / n as f64;
    // Check that the four evaluations agree before timing them.
    let mut check = vec![0i64; n];
    fill_eval_index(&mut check, &ev);
    fill_eval_natural(&mut buf, &ev_l);
    assert_eq!(check, buf, "eval_natural disagrees with eval_index");
    fill_hand_index(&mut buf, &hu, &hd);
    assert_eq!(check, buf, "eval_hand_index disagrees with eval_index");
    fill_hand_loops(&mut buf, &hs, &hd);
    assert_eq!(check, buf, "eval_hand_loops disagrees with eval_index");
    assert!((0..n as i64).all(|i| ev_l.eval(i) == Ok(check[i as usize])));
    assert_eq!(EvalStatic::LAYOUT, ev_l, "EvalStatic is not EVAL_LAYOUT");
    fill_static_index(&mut buf);
    assert_eq!(check, buf, "static_eval_index disagrees with eval_index");
    fill_hand_const_index(&mut buf);
    assert_eq!(
        check, buf,
        "eval_hand_const_index disagrees with eval_index"
    );
    fill_static_natural(&mut buf);
    assert_eq!(check, buf, "static_eval_natural disagrees with eval_index");
    fill_hand_const_loops(&mut buf);
    assert_eq!(
        check, buf,
        "eval_hand_const_loops disagrees with eval_index"
    );
    // The copy operands: source data, a destination buffer, and the two static tensors.
    let src_data: Vec<f32> = (0..n).map(|x| x as f32).collect();
    let mut dst_data = vec![0f32; n];
    let mut dst_hand = vec![0f32; n];
    copy_hand_const(&src_data, &mut dst_hand);
    {
        let src = StaticTensor::<EvalStatic, _>::new(&src_data[..]).expect("4096 elements");
        let mut dst = StaticTensor::<CopyDst, _>::new(&mut dst_data[..]).expect("4096 elements");
        copy_static(&src, &mut dst);
    }
    assert_eq!(
        dst_data, dst_hand,
        "static_copy disagrees with copy_hand_const"
    );
    assert!((0..n).all(|i| dst_hand[i] == check[i] as f32));

    KEYS.iter()
        .map(|&key| {
            let t = match key {
                "composition_tv" => Some(time_ns(clock, || {
                    cute::composition(black_box(&tv_a), black_box(&tv_b))
                })),
                "composition_6_12" => Some(time_ns(clock, || {
                    cute::composition(black_box(&c_a), black_box(&c_b))
                })),
                "complement" => Some(time_ns(clock, || {
                    cute::complement_to(black_box(&cmp_a), black_box(&cmp_m))
                })),
                "coalesce" => Some(time_ns(clock, || cute::coalesce(black_box(&co_a)))),
                "logical_divide" => Some(time_ns(clock, || {
                    cute::logical_divide(black_box(&ld_a), black_box(&ld_t))
                })),
                "right_inverse" => Some(time_ns(clock, || cute::right_inverse(black_box(&ri_a)))),
                "logical_product" => Some(time_ns(clock, || {
                    cute::logical_product(black_box(&lp_a), black_box(&lp_t))
                })),
                "blocked_product" => Some(time_ns(clock, || {
                    cute::blocked_product(black_box(&lp_a), black_box(&lp_b))
                })),
                "eval_index" => Some(per(time_ns(clock, || {
                    fill_eval_index(black_box(&mut buf), black_box(&ev))
                }))),
                "eval_natural" => Some(per(time_ns(clock, || {
                    fill_eval_natural(black_box(&mut buf), black_box(&ev_l))
                }))),
                "eval_hand_index" => Some(per(time_ns(clock, || {
                    fill_hand_index(black_box(&mut buf), black_box(&hu), black_box(&hd))
                }))),
                "eval_hand_loops" => Some(per(time_ns(clock, || {
                    fill_hand_loops(black_box(&mut buf), black_box(&hs), black_box(&hd))
                }))),
                "static_eval_index" => Some(per(time_ns(clock, || {
                    fill_static_index(black_box(&mut buf))
                }))),
                "eval_hand_const_index" => Some(per(time_ns(clock, || {
                    fill_hand_const_index(black_box(&mut buf))
                }))),
                "static_eval_natural" => Some(per(time_ns(clock, || {
                    fill_static_natural(black_box(&mut buf))
                }))),
                "eval_hand_const_loops" => Some(per(time_ns(clock, || {
                    fill_hand_const_loops(black_box(&mut buf))
                }))),
                "static_copy" => {
                    let src = StaticTensor::<EvalStatic, _>::new(&src_data[..]).expect("size");
                    let mut dst = StaticTensor::<CopyDst, _>::new(&mut dst_data[..]).expect("size");
                    Some(per(time_ns(clock, || {
                        copy_static(black_box(&src), black_box(&mut dst))
                    })))
                }
                "copy_hand_const" => Some(per(time_ns(clock, || {
                    copy_hand_const(black_box(&src_data), black_box(&mut dst_data))
                }))),
                _ => None,
            };
            (key, t)
        })
        .collect()
}

/// The report as one JSON object (`null` for an operation not in this build).
pub fn to_json(figures: &[(&str, Option<f64>)]) -> String {
    let mut o = crate::json::Map::new();
    for (k, v) in figures {
        // nanoseconds to three decimals, as the table prints them to two
        let ns = v.map(|ns| (ns * 1000.0).round() / 1000.0);
        o.insert((*k).to_string(), crate::json::json!(ns));
    }
    crate::json::line(&crate::json::Value::Object(o))
}

/// The report as a table.
pub fn to_table(figures: &[(&str, Option<f64>)]) -> String {
    let mut s = String::from("operation               ns/call\n");
    for (k, v) in figures {
        match v {
            Some(ns) => s.push_str(&format!("{k:<22} {ns:>10.2}\n")),
            None => s.push_str(&format!("{k:<22} {:>10}\n", "n/a")),
        }
    }
    let get = |key: &str| {
        figures
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, v)| *v)
    };
    s.push_str("\nstatic / hand-written                          ratio  target\n");
    for (a, b, target) in RATIOS {
        match (get(a), get(b)) {
            (Some(x), Some(y)) => {
                let r = x / y;
                let ok = if r <= target { "ok" } else { "MISSED" };
                s.push_str(&format!(
                    "{:<44} {r:>7.3}  <= {target} {ok}\n",
                    format!("{a} / {b}")
                ));
            }
            _ => s.push_str(&format!("{:<44} {:>7}\n", format!("{a} / {b}"), "n/a")),
        }
    }
    s
}
