//! Fast evaluation (`cute::eval`): `IndexEvaluator` and `Offsets` against `Layout::eval`, and
//! `FastDiv` against the hardware division. Exhaustive on small layouts, property tests on random
//! hierarchical ones.

use cute::eval::FastDiv;
use cute::{IndexEvaluator, Layout};
use proptest::prelude::*;

fn layout(s: &str) -> Layout {
    s.parse().unwrap()
}

/// Every check of this file for one layout: the evaluator at `i` in a window around the domain
/// (negative, in range, extended), and the natural iteration through `next`, `fold` and a mix.
fn check_layout(l: &Layout) {
    let ev = IndexEvaluator::new(l).unwrap();
    let size = l.size();
    assert_eq!(ev.size(), size, "{l}");
    let reference: Vec<i64> = (0..size).map(|i| l.eval(i).unwrap()).collect();
    for i in -2 * size - 3..3 * size + 3 {
        if let Ok(v) = l.eval(i) {
            assert_eq!(ev.eval(i), v, "{l} at {i}");
        }
    }
    // Natural-coordinate iteration, through `next` and through `fold`.
    let it = l.offsets().unwrap();
    assert_eq!(it.len() as i64, size, "{l}");
    assert_eq!(it.clone().collect::<Vec<_>>(), reference, "{l} (next)");
    let mut folded = Vec::new();
    it.clone().for_each(|o| folded.push(o));
    assert_eq!(folded, reference, "{l} (fold)");
    // Part by `next`, the rest by `fold`, at every split (a few for larger layouts).
    let n = reference.len();
    let splits: Vec<usize> = if n <= 40 {
        (0..=n).collect()
    } else {
        vec![0, 1, 3, n / 2, n - 1, n]
    };
    for k in splits {
        let mut it = l.offsets().unwrap();
        let mut got: Vec<i64> = it.by_ref().take(k).collect();
        assert_eq!(it.len(), reference.len() - k, "{l} split {k}");
        it.for_each(|o| got.push(o));
        assert_eq!(got, reference, "{l} split {k}");
    }
    // Past the end: fused.
    let mut it = l.offsets().unwrap();
    it.by_ref().for_each(drop);
    assert_eq!(it.next(), None);
}

#[test]
fn paper_figure_3_layout() {
    // EXAMPLES.md: the paper's Figure 3 layout, L(22) = L(2,5) = L((0,1),(1,1)) = 26.
    let l = layout("((2,2),(4,2)):((1,8),(2,16))");
    let ev = l.evaluator().unwrap();
    assert_eq!(ev.eval(22), 26);
    assert_eq!(l.offsets().unwrap().nth(22), Some(26));
    check_layout(&l);
}

#[test]
fn benchmark_layout() {
    // The benchmark set's evaluation layout: every shape a power of two, so the shift-and-mask path.
    let l = layout("((4,8),(8,16)):((8,512),(1,32))");
    let ev = l.evaluator().unwrap();
    assert_eq!(
        [0, 1, 4, 32, 4095].map(|i| ev.eval(i)),
        [0, 8, 512, 1, 4095]
    );
    // The extended domain: the last mode keeps counting.
    assert_eq!(ev.eval(4096), 16 * 32);
    assert_eq!(ev.eval(4096), l.eval(4096).unwrap());
    check_layout(&l);
}

#[test]
fn table_4_layouts() {
    // The paper's Table 4 data layouts and their compositions with the TV layout.
    for s in [
        "(8,8):(1,8)",
        "(8,8):(8,1)",
        "(8,8):(1,9)",
        "((4,2),(2,4)):((2,16),(1,8))",
        "((4,8),2):((16,1),8)",
        "((4,8),2):((2,8),1)",
        "((4,8),2):((18,1),9)",
        "((4,(4,2)),2):((8,(2,16)),1)",
    ] {
        check_layout(&layout(s));
    }
}

#[test]
fn degenerate_layouts() {
    for s in [
        "1:0",
        "1:7",
        "5:0",
        "(1,1):(3,4)",
        "(1,(1,1)):(0,(5,6))",
        "(3,1):(2,9)",
        "7:-3",
        "(2,3):(-1,5)",
        "(3,(1,4)):(0,(9,-2))",
        "(2,2,2):(0,0,0)",
    ] {
        check_layout(&layout(s));
    }
}

#[test]
fn exhaustive_small_flat_layouts() {
    // Every flat layout of rank ≤ 3 with shapes 1..=4 and strides -2..=6 (and as integer layouts).
    let shapes = 1..=4i64;
    let strides = -2..=6i64;
    for s0 in shapes.clone() {
        for d0 in strides.clone() {
            check_layout(&Layout::leaf(s0, d0).unwrap());
            for s1 in shapes.clone() {
                for d1 in strides.clone() {
                    check_layout(&Layout::flat(&[s0, s1], &[d0, d1]).unwrap());
                    for (s2, d2) in [(3, 1), (2, 5), (1, 4), (4, -1)] {
                        check_layout(&Layout::flat(&[s0, s1, s2], &[d0, d1, d2]).unwrap());
                    }
                }
            }
        }
    }
}

#[test]
fn extreme_values() {
    // Large shapes and strides: the evaluator agrees wherever `Layout::eval` does not overflow.
    for s in [
        "(3,1000000007):(1,3)",
        "(1000000007,3):(5,1)",
        "(4611686018427387904,1):(1,0)",
        "(2,4611686018427387903):(4611686018427387903,1)",
        "(9223372036854775807):(1)",
        "(3,3074457345618258602):(1,3)",
    ] {
        let l = layout(s);
        let ev = l.evaluator().unwrap();
        let size = l.size();
        for i in [
            0,
            1,
            2,
            3,
            4,
            5,
            size / 2,
            size - 2,
            size - 1,
            size,
            i64::MAX,
            -1,
            i64::MIN,
        ] {
            if let Ok(v) = l.eval(i) {
                assert_eq!(ev.eval(i), v, "{s} at {i}");
            }
        }
    }
}

#[test]
fn fast_division_exhaustive_small() {
    for d in 1..=300i64 {
        let f = FastDiv::new(d);
        assert_eq!(f.divisor(), d as u64);
        assert_eq!(f.is_pow2(), d.count_ones() == 1);
        for n in 0..=3000u64 {
            assert_eq!(f.div_rem(n), (n / d as u64, n % d as u64), "{n} / {d}");
        }
        for n in [
            i64::MAX as u64,
            i64::MAX as u64 - 1,
            (i64::MAX as u64 / d as u64) * d as u64,
        ] {
            assert_eq!(f.div_rem(n), (n / d as u64, n % d as u64), "{n} / {d}");
        }
    }
}

#[test]
fn fast_division_edges() {
    let big = [
        i64::MAX,
        i64::MAX - 1,
        1 << 62,
        (1 << 62) + 1,
        (1 << 62) - 1,
        (1 << 32) + 1,
        1 << 32,
        (1 << 32) - 1,
        3_037_000_499,
    ];
    for d in big {
        let f = FastDiv::new(d);
        for n in big
            .iter()
            .map(|&x| x as u64)
            .chain([0, 1, d as u64 - 1, d as u64])
        {
            assert_eq!(f.div_rem(n), (n / d as u64, n % d as u64), "{n} / {d}");
        }
    }
}

/// A random hierarchical layout of up to about 8 leaves, shapes 1..=5, strides -4..=40.
fn arb_layout() -> impl Strategy<Value = Layout> {
    let leaf = (1i64..=5, -4i64..=40).prop_map(|(s, d)| (s.to_string(), d.to_string()));
    let tree = leaf.prop_recursive(3, 8, 3, |inner| {
        prop::collection::vec(inner, 1..=3).prop_map(|v| {
            let (s, d): (Vec<String>, Vec<String>) = v.into_iter().unzip();
            (format!("({})", s.join(",")), format!("({})", d.join(",")))
        })
    });
    tree.prop_map(|(s, d)| format!("{s}:{d}").parse::<Layout>().unwrap())
}

proptest! {
    /// `IndexEvaluator::eval(i) == L(i)` wherever `L(i)` is defined: in range, extended, negative.
    #[test]
    fn evaluator_is_eval(l in arb_layout(), i in -100_000i64..100_000) {
        if let Ok(v) = l.eval(i) {
            prop_assert_eq!(l.evaluator().unwrap().eval(i), v);
        }
    }

    /// Huge coordinates of the extended domain (the last mode absorbs the quotient).
    #[test]
    fn evaluator_is_eval_far(l in arb_layout(), i in any::<i64>()) {
        if let Ok(v) = l.eval(i) {
            prop_assert_eq!(l.evaluator().unwrap().eval(i), v);
        }
    }

    /// Natural iteration yields `L(0), …, L(|L|-1)`, through `next` and `fold`.
    #[test]
    fn offsets_are_eval(l in arb_layout(), split in 0usize..200) {
        let size = l.size();
        let reference: Vec<i64> = (0..size).map(|i| l.eval(i).unwrap()).collect();
        prop_assert_eq!(l.offsets().unwrap().collect::<Vec<_>>(), reference.clone());
        let mut it = l.offsets().unwrap();
        let mut got: Vec<i64> = it.by_ref().take(split).collect();
        it.for_each(|o| got.push(o));
        prop_assert_eq!(got, reference);
    }

    /// `FastDiv` is the division for every divisor and numerator of its contract.
    #[test]
    fn fast_division(d in 1i64..=i64::MAX, n in 0u64..=i64::MAX as u64) {
        prop_assert_eq!(FastDiv::new(d).div_rem(n), (n / d as u64, n % d as u64));
    }

    /// Small divisors against large numerators.
    #[test]
    fn fast_division_small_divisors(d in 1i64..5000, n in 0u64..=i64::MAX as u64) {
        prop_assert_eq!(FastDiv::new(d).div_rem(n), (n / d as u64, n % d as u64));
    }
}

/// The operations rewritten for speed still evaluate at compile time (same code, `const`).
#[test]
fn algebra_and_evaluator_in_const_context() {
    const fn ok(r: Result<Layout, cute::Error>) -> Layout {
        match r {
            Ok(l) => l,
            Err(_) => panic!("refused"),
        }
    }
    const A: Layout = ok(Layout::parse_const("(8,8):(8,1)"));
    const B: Layout = ok(Layout::parse_const("((4,8),2):((16,1),8)"));
    const R: Layout = ok(cute::composition(&A, &B));
    const C: Layout = ok(cute::complement_to(
        &ok(Layout::parse_const("(4,8):(1,8)")),
        &cute::IntTuple::int(64),
    ));
    const P: Layout = ok(cute::complement(&ok(Layout::parse_const("(4,8):(1,8)"))));
    const K: Layout = cute::coalesce(&ok(Layout::parse_const(
        "((2,(1,4)),(3,1)):((1,(7,2)),(8,0))",
    )));
    const T: Layout = ok(cute::composition_tiler(
        &ok(Layout::parse_const("(8,16):(20,1)")),
        &match cute::Tiler::parse_const("<4:1,8:2>") {
            Ok(t) => t,
            Err(_) => panic!("tiler"),
        },
    ));
    const M: Layout = ok(B.mode(0));
    const J: Layout = ok(Layout::concat(&[A, M]));
    const EV: IndexEvaluator = match IndexEvaluator::new(&R) {
        Ok(e) => e,
        Err(_) => panic!("integer strides"),
    };
    assert_eq!(R.to_string(), "((4,8),2):((2,8),1)");
    assert_eq!(C.to_string(), "2:4");
    assert_eq!(P.to_string(), "(2,1):(4,64)");
    assert_eq!(K.to_string(), "24:1");
    assert_eq!(T.to_string(), "(4,8):(20,2)");
    assert_eq!(M.to_string(), "(4,8):(16,1)");
    assert_eq!(J.to_string(), "((8,8),(4,8)):((8,1),(16,1))");
    assert_eq!(EV.eval(5), R.eval(5).unwrap());
}
