//! The operations PyCuTe has and C++ lacks: `coalesce_z`, `composition_mode`, `layout_add`,
//! `greatest_common_domain`. Worked examples (PyCuTe's docstrings and conformance values) and
//! property tests of their defining laws (strategies in `gen.rs`).

use super::gen::*;
use cute::{
    coalesce, coalesce_z, composition, composition_mode, composition_tiler, greatest_common_domain,
    layout_add, IntTuple, Layout, Tiler,
};
use proptest::prelude::*;
use std::cell::Cell;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}
fn t(s: &str) -> IntTuple {
    s.parse().unwrap()
}
fn tl(s: &str) -> Tiler {
    s.parse().unwrap()
}

// ---------------------------------------------------------------------------------------------
// Worked examples

#[test]
fn coalesce_z_examples() {
    // PyCuTe docstring: coalesce_z((2,1,6,1):(1,7,8,0)) = (2,6,1):(1,8,0); coalesce drops the 1
    assert_eq!(coalesce_z(&l("(2,1,6,1):(1,7,8,0)")), l("(2,6,1):(1,8,0)"));
    assert_eq!(coalesce(&l("(2,1,6,1):(1,7,8,0)")), l("(2,6):(1,8)"));
    // conformance values
    assert_eq!(coalesce_z(&l("((3,1)):((5,4))")), l("(3,1):(5,4)"));
    assert_eq!(coalesce_z(&l("(5,(5,1)):(1,(5,1))")), l("(25,1):(1,1)"));
    assert_eq!(coalesce_z(&l("(8,1):(1,8)")), l("8:1")); // the size-1 mode continues 8:1
    assert_eq!(coalesce_z(&l("(1):(1)")), l("1:1"));
    assert_eq!(coalesce_z(&l("(2,6,8):(6,0,0)")), l("(2,48):(6,0)"));
    assert_eq!(
        coalesce_z(&l("((8,1,4),(3),1):((3,1,24),(1),96)")),
        l("(32,3,1):(3,1,96)")
    );
    // the kept mode matters past the size: A(4) = 8
    let a = l("(4,1):(1,8)");
    assert_eq!(coalesce_z(&a).eval(4).unwrap(), 8);
    assert_eq!(coalesce(&a).eval(4).unwrap(), 4);
}

#[test]
fn composition_mode_examples() {
    // PyCuTe docstring: composition[1]((4,6):(1,4), 3:2) = (4,3):(1,8)
    let r = composition_mode(&l("(4,6):(1,4)"), 1, &tl("3:2")).unwrap();
    assert_eq!(r, l("(4,3):(1,8)"));
    // conformance values
    let cases = [
        (
            "(2,(4,1,2),1):(4,(1,1,8),1)",
            1,
            "(2,(2)):(2,(1))",
            "(2,(2,(2)),1):(4,(2,(1)),1)",
        ),
        (
            "(8,(6)):(6,(1))",
            0,
            "(2,(4)):(4,(1))",
            "((2,(4)),(6)):((24,(6)),(1))",
        ),
        (
            "((3,2,3),4,2):((2,18,6),36,1)",
            0,
            "(3,6):(6,1)",
            "((3,(3,2)),4,2):((6,(2,18)),36,1)",
        ),
        ("((4)):((1))", 0, "(2,2):(2,1)", "((2,2)):((2,1))"),
        ("(3,4):(4,1)", 1, "2:1", "(3,2):(4,1)"),
    ];
    for (a, m, b, want) in cases {
        assert_eq!(
            composition_mode(&l(a), m, &tl(b)).unwrap().to_string(),
            want,
            "{a} {m} {b}"
        );
    }
    let e = composition_mode(&l("((3,6),(1)):((6,1),(6))"), 0, &tl("(3,(2)):(2,(1))"));
    assert_eq!(e.unwrap_err().category(), "Divisibility");
    // mode 0 of an integer layout is the layout; PyCuTe rebuilds a 1-tuple
    assert_eq!(
        composition_mode(&l("8:1"), 0, &tl("4:2")).unwrap(),
        l("(4):(2)")
    );
    // by-mode tilers keep the modes beyond the tiler (PyCuTe), unlike composition_tiler (C++)
    let a = l("(4,(6,5)):(1,(4,24))");
    assert_eq!(
        composition_mode(&a, 1, &tl("<3:2>")).unwrap(),
        l("(4,(3,5)):(1,(8,24))")
    );
    assert_eq!(
        composition_tiler(&a.mode(1).unwrap(), &tl("<3:2>")).unwrap(),
        l("(3):(8)")
    );
    assert_eq!(composition_mode(&a, 1, &tl("_")).unwrap(), a);
    let e = composition_mode(&a, 2, &tl("2:1")).unwrap_err();
    assert_eq!(e.category(), "OutOfRange");
    let e = composition_mode(&a, 0, &tl("<2,2>")).unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
}

#[test]
fn greatest_common_domain_examples() {
    // PyCuTe docstring
    let cases = [
        ("(10)", "(10)", "(10):(1)"),
        ("(16,3)", "(16,3)", "(16,3):(1,16)"),
        ("(5,3,4)", "(10,6)", "(5,2):(1,30)"),
        ("(6,35)", "(15,14)", "(3,7):(1,30)"),
        ("(5,3)", "(3,5)", "(1):(0)"),
        // conformance values
        ("(2,6,5)", "(6,3)", "(2,3):(1,2)"),
        ("((4,6,4))", "(5,4)", "(1):(0)"),
        ("((2),(4,2,1))", "(4,(6,3))", "(2,2,2):(1,2,4)"),
        ("((3,2,4))", "((3,8),6)", "(3,2,4):(1,3,6)"),
    ];
    for (a, b, want) in cases {
        assert_eq!(
            greatest_common_domain(&t(a), &t(b)).unwrap().to_string(),
            want,
            "{a} {b}"
        );
        assert_eq!(
            greatest_common_domain(&t(b), &t(a)).unwrap().to_string(),
            want,
            "{b} {a}"
        );
    }
    let e = greatest_common_domain(&t("(5,0)"), &t("(3,5)")).unwrap_err();
    assert_eq!(e.category(), "InvalidShape");
}

#[test]
fn layout_add_examples() {
    // PyCuTe docstring
    let cases = [
        ("12:1", "12:1", "12:2"),
        ("5:0", "5:1", "5:1"),
        ("(4,3):(1,4)", "(4,3):(3,1)", "(4,3):(4,5)"),
        ("(5,3,4):(1,5,15)", "(10,6):(1,10)", "60:2"),
        // conformance values
        (
            "((2,5),3):((15,1),5)",
            "((2,5),3):((1,2),10)",
            "(2,15):(16,3)",
        ),
        ("(3,3,(2)):(6,2,(1))", "18:1", "(3,3,2):(7,5,10)"),
        (
            "((3,2,2),4,(3)):((48,1,24),6,(2))",
            "144:2",
            "(3,2,2,4,3):(50,7,36,30,98)",
        ),
    ];
    for (a, b, want) in cases {
        assert_eq!(
            layout_add(&l(a), &l(b)).unwrap().to_string(),
            want,
            "{a} {b}"
        );
        assert_eq!(
            layout_add(&l(b), &l(a)).unwrap().to_string(),
            want,
            "{b} {a}"
        );
    }
    assert_eq!(layout_add(&l("(1):(1)"), &l("(1):(12)")).unwrap(), l("1:0"));
    let e = layout_add(&l("4:1"), &l("8:1")).unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
    let e = layout_add(&l("(2,3):(1,10)"), &l("(3,2):(1,10)")).unwrap_err();
    assert_eq!(e.category(), "Divisibility");
    assert!(e.to_string().contains("no common refinement"), "{e}");
    // the sums 0,2,12,21,31,33 are no layout
    assert!(!representable(&[0, 2, 12, 21, 31, 33]));
}

// ---------------------------------------------------------------------------------------------
// Laws

/// `R = coalesce_z(A)`: `|R| = |A|`, `depth(R) ≤ 1`, `R(i) = A(i)` for every integer `0 ≤ i <
/// 2|A| + 8` (the extended domain, not only `Z_|A|`), and `R` is `coalesce(A)` plus possibly one
/// trailing size-1 mode: dropping a trailing size-1 leaf of `R` (when `R` has several) leaves the
/// shape of `coalesce(A)` and its strides (size-1 strides aside).
#[test]
fn coalesce_z_is_equivalent_on_the_extended_domain() {
    run(512, prop_oneof![layout(), pow2_layout()], |a| {
        let r = coalesce_z(&a);
        let n = a.size();
        prop_assert_eq!(r.size(), n);
        prop_assert!(r.depth() <= 1);
        for i in 0..2 * n + 8 {
            prop_assert_eq!(eval_oracle(&r, i), eval_oracle(&a, i), "{} at {}", r, i);
        }
        let mut m: Vec<(i64, i64)> = (0..r.leaf_count()).map(|k| r.leaf_at(k)).collect();
        if m.len() > 1 && m.last().unwrap().0 == 1 {
            m.pop();
        }
        let c = coalesce(&a);
        let cm: Vec<(i64, i64)> = (0..c.leaf_count()).map(|k| c.leaf_at(k)).collect();
        prop_assert_eq!(m.len(), cm.len(), "{} vs {}", r, c);
        for (x, y) in m.iter().zip(cm.iter()) {
            prop_assert_eq!(x.0, y.0);
            if x.0 != 1 {
                prop_assert_eq!(x.1, y.1);
            }
        }
        Ok(())
    });
}

/// `R = composition_mode(A, i, B)`: for `i < rank(A)`, `R_j = A_j` for every `j ≠ i` and `R_i =
/// composition(A_i, B)` (so `B ⪯ R_i` and `R_i(k) = A_i(B(k))` for `k < |B|`), failing exactly when
/// that composition fails; for `i ≥ rank(A)` the error is `OutOfRange` (a mode index out of range).
#[test]
fn composition_mode_composes_one_mode() {
    let ok = Cell::new(0u32);
    run(
        512,
        (
            prop_oneof![layout(), pow2_layout()],
            0..4usize,
            prop_oneof![
                pow2_layout(),
                gen_layout_with(3, 2, 1..=8, 0..=8).prop_map(|g| g.layout())
            ],
        ),
        |(a, i, b)| {
            let r = composition_mode(&a, i, &Tiler::layout(b));
            if i >= a.rank() {
                prop_assert_eq!(r.unwrap_err().category(), "OutOfRange");
                return Ok(());
            }
            let ai = a.mode(i).unwrap();
            match (r, composition(&ai, &b)) {
                (Ok(r), Ok(ri)) => {
                    ok.set(ok.get() + 1);
                    prop_assert_eq!(r.rank(), a.rank());
                    prop_assert!(!r.is_leaf());
                    for j in 0..a.rank() {
                        let want = if j == i { ri } else { a.mode(j).unwrap() };
                        prop_assert_eq!(r.mode(j).unwrap(), want, "mode {}", j);
                    }
                    prop_assert!(b.shape().compatible(&ri.shape()));
                    for k in 0..b.size() {
                        let want = eval_oracle(&ai, eval_oracle(&b, k));
                        prop_assert_eq!(eval_oracle(&ri, k), want);
                    }
                }
                (Err(e), Err(f)) => prop_assert_eq!(e.category(), f.category()),
                (r, ri) => prop_assert!(false, "{:?} vs {:?}", r, ri),
            }
            Ok(())
        },
    );
    assert!(ok.get() > 100);
}

/// `R = layout_add(A, B)` for layouts of equal size: `|R| = |A|`, `depth(R) ≤ 1`, `R(i) = A(i) +
/// B(i)` for every `i < |A|`; symmetric (`layout_add(B, A)` gives the same layout, or an error of
/// the same category); a refusal is `Divisibility` and the sums `A(i) + B(i)` are then no layout
/// at all (searched over every ordered factorisation of `|A|`). Layouts of different sizes are
/// refused with `ProfileMismatch`.
#[test]
fn layout_add_adds_pointwise_or_no_layout_can() {
    let (ok, refused) = (Cell::new(0u32), Cell::new(0u32));
    run(1024, equal_size_pair(), |(a, b)| {
        let n = a.size();
        let sums: Vec<i64> = (0..n)
            .map(|i| eval_oracle(&a, i) + eval_oracle(&b, i))
            .collect();
        let r = layout_add(&a, &b);
        let rs = layout_add(&b, &a);
        match (&r, &rs) {
            (Ok(x), Ok(y)) => prop_assert_eq!(x, y),
            (Err(x), Err(y)) => prop_assert_eq!(x.category(), y.category()),
            _ => prop_assert!(false, "not symmetric: {:?} vs {:?}", r, rs),
        }
        match r {
            Ok(r) => {
                ok.set(ok.get() + 1);
                prop_assert_eq!(r.size(), n);
                prop_assert!(r.depth() <= 1);
                prop_assert_eq!(values(&r), sums);
            }
            Err(e) => {
                refused.set(refused.get() + 1);
                prop_assert_eq!(e.category(), "Divisibility");
                prop_assert!(!representable(&sums), "{} + {} refused: {:?}", a, b, sums);
            }
        }
        let twice = Layout::concat(&[a, Layout::leaf(2, 0).unwrap()]).unwrap();
        prop_assert_eq!(
            layout_add(&twice, &b).unwrap_err().category(),
            "ProfileMismatch"
        );
        Ok(())
    });
    assert!(
        ok.get() > 200 && refused.get() > 20,
        "ok {} refused {}",
        ok.get(),
        refused.get()
    );
}

/// `G = greatest_common_domain(S, T)`: symmetric; a flat tuple (`depth(G) = 1`); `|G|` divides
/// `gcd(|S|, |T|)`; its modes lie in increasing, non-overlapping order (`d_k·g_k ≤ d_{k+1}`); the
/// compositions `compact(S) ∘ G` and `compact(T) ∘ G` are admissible (PyCuTe's post-condition);
/// and when `|G| = |S| = |T|`, `G` is a bijection from `Z_|G|` onto `[0, |G|)` (a common
/// refinement of both shapes).
#[test]
fn greatest_common_domain_is_a_common_in_order_factorisation() {
    let full = Cell::new(0u32);
    let shapes = equal_size_pair().prop_map(|(a, b)| (a.shape(), b.shape()));
    let any_shapes = (
        gen_layout_with(MAX_LEAVES, MAX_DEPTH, 1..=8, 0..=0),
        gen_layout_with(MAX_LEAVES, MAX_DEPTH, 1..=8, 0..=0),
    )
        .prop_map(|(a, b)| (a.shape(), b.shape()));
    run(512, prop_oneof![shapes, any_shapes], |(s, u)| {
        let g = greatest_common_domain(&s, &u).unwrap();
        prop_assert_eq!(greatest_common_domain(&u, &s).unwrap(), g);
        prop_assert_eq!(g.depth(), 1);
        let (ns, nu, ng) = (s.size().unwrap(), u.size().unwrap(), g.size());
        let gcd = {
            let (mut x, mut y) = (ns, nu);
            while y != 0 {
                (x, y) = (y, x % y);
            }
            x
        };
        prop_assert_eq!(gcd % ng, 0);
        let m: Vec<(i64, i64)> = (0..g.leaf_count()).map(|k| g.leaf_at(k)).collect();
        for w in m.windows(2) {
            prop_assert!(w[0].0 * w[0].1 <= w[1].1, "{}", g);
        }
        for x in [&s, &u] {
            let c = cute::compact_col_major(x).unwrap();
            let r = composition(&c, &g);
            prop_assert!(r.is_ok(), "compact({}) ∘ {}: {:?}", x, g, r);
        }
        if ng == ns && ng == nu {
            full.set(full.get() + 1);
            let mut v = values(&g);
            v.sort_unstable();
            prop_assert_eq!(v, (0..ng).collect::<Vec<_>>());
        }
        Ok(())
    });
    assert!(full.get() > 50);
}
