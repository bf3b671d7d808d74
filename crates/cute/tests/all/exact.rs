//! Composition decided exactly: on random integer pairs (many of which fail the paper's conditions
//! (9), (10) or (12)) every answer `R` satisfies `R(i) = A(B(i))` for every index and refines the
//! shape of `B`; every refusal carries a witness, checked here by evaluating `A(B(·))` at the
//! indices it names; and a brute force over the ordered factorisations of the extents of `B`
//! agrees on which pairs have an answer. The products built on composition are checked the same way.

use cute::{
    compact_col_major, complement_to, composition, logical_product, with_shape, CompositionWitness,
    Error, ErrorKind, IntTuple, Layout, Tiler,
};
use proptest::prelude::*;

fn ev(l: &Layout, i: i64) -> i64 {
    l.eval(i).unwrap()
}

/// `(extent, index weight)` of each leaf of `b`, in leaf order.
fn leaf_weights(b: &Layout) -> Vec<(i64, i64)> {
    let mut w = 1;
    (0..b.leaf_count())
        .map(|j| {
            let s = b.leaf_at(j).0;
            let r = (s, w);
            w *= s;
            r
        })
        .collect()
}

/// `A(B(i))`.
fn f(a: &Layout, b: &Layout, i: i64) -> i64 {
    ev(a, ev(b, i))
}

/// The ordered factorisations of `s` into factors of at least 2 (none for `s = 1`).
fn factorisations(s: i64) -> Vec<Vec<i64>> {
    if s == 1 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for t in 2..=s {
        if s % t == 0 {
            for mut rest in factorisations(s / t) {
                rest.insert(0, t);
                out.push(rest);
            }
        }
    }
    out
}

/// Brute force: whether some layout compatible with `B` computes `A(B(i))` for every `i`. Leaf by
/// leaf, some ordered factorisation of its extent (strides read off at the unit coordinates) must
/// give `g_j(c) = A(B(c·w_j))`; then `A(B(i))` must be the sum of the leaves' values.
fn exists_brute(a: &Layout, b: &Layout) -> bool {
    let lw = leaf_weights(b);
    for &(s, w) in &lw {
        let g = |c: i64| f(a, b, c * w);
        let ok = factorisations(s).into_iter().any(|fac| {
            let mut strides = Vec::new();
            let mut p = 1;
            for &t in &fac {
                strides.push(g(p));
                p *= t;
            }
            (0..s).all(|c| {
                let (mut c2, mut v) = (c, 0);
                for (k, &t) in fac.iter().enumerate() {
                    v += (c2 % t) * strides[k];
                    c2 /= t;
                }
                v == g(c)
            })
        });
        if !ok {
            return false;
        }
    }
    (0..b.size()).all(|i| {
        let sum: i64 = lw.iter().map(|&(s, w)| f(a, b, (i / w) % s * w)).sum();
        sum == f(a, b, i)
    })
}

/// The forced mode boundaries of `g` on `[0, s)`: each next one ends the progression
/// `u ↦ g(Q·u)` at its first departure (capped at the extent).
fn forced_boundaries(g: &dyn Fn(i64) -> i64, s: i64) -> Vec<i64> {
    let mut q = vec![1];
    let mut step = 1;
    while step < s {
        let m = s / step;
        let e = g(step);
        let mut t = 2;
        while t < m && g(step * t) == t * e {
            t += 1;
        }
        let t = t.min(m);
        if m % t != 0 {
            break;
        }
        step *= t;
        q.push(step);
    }
    q
}

/// Checks a witness against `A(B(·))`, by the facts it states.
fn check_witness(a: &Layout, b: &Layout, w: &CompositionWitness) -> Result<(), String> {
    let lw = leaf_weights(b);
    let leaf_g = |leaf: usize| {
        let (s, wt) = lw[leaf];
        (s, move |c: i64| f(a, b, c * wt))
    };
    match *w {
        CompositionWitness::Boundary {
            leaf,
            step,
            run,
            extent,
        } => {
            let (s, g) = leaf_g(leaf);
            if s != extent {
                return Err(format!("extent {extent} is not that of leaf {leaf} ({s})"));
            }
            if !forced_boundaries(&g, s).contains(&step) {
                return Err(format!("{step} is not a forced boundary"));
            }
            let e = g(step);
            if !(1..run).all(|u| g(step * u) == u * e) {
                return Err("not a progression before the run".into());
            }
            if step * run >= s || g(step * run) == run * e {
                return Err("no departure at the end of the run".into());
            }
            if (s / step) % run == 0 {
                return Err("the boundary divides the extent".into());
            }
            Ok(())
        }
        CompositionWitness::Carry {
            leaf,
            step,
            low,
            high,
        } => {
            let (s, g) = leaf_g(leaf);
            if !forced_boundaries(&g, s).contains(&step) {
                return Err(format!("{step} is not a forced boundary"));
            }
            if !(0..step).contains(&low) || high % step != 0 || low + high >= s {
                return Err("coordinates out of place".into());
            }
            if g(low + high) == g(low) + g(high) {
                return Err("the values add up".into());
            }
            Ok(())
        }
        CompositionWitness::Sum { index, value, sum } => {
            if !(0..b.size()).contains(&index) {
                return Err("index out of range".into());
            }
            let v = f(a, b, index);
            let s: i64 = lw.iter().map(|&(s, w)| f(a, b, (index / w) % s * w)).sum();
            if v != value || s != sum || v == s {
                return Err(format!("values {v}, {s} against {value}, {sum}"));
            }
            Ok(())
        }
        _ => Err("unknown witness".into()),
    }
}

/// `r` refines the shape of `b`: the same top-level rank, and the leaves of `r` group in order
/// into products equal to the extents of the leaves of `b`.
fn refines(r: &Layout, b: &Layout) -> bool {
    if (!b.is_leaf() && r.rank() != b.rank()) || r.size() != b.size() {
        return false;
    }
    let mut k = 0;
    for j in 0..b.leaf_count() {
        let s = b.leaf_at(j).0;
        let mut p = 1;
        let mut took = 0;
        while k < r.leaf_count() && (took == 0 || p < s) {
            p *= r.leaf_at(k).0;
            k += 1;
            took += 1;
        }
        if p != s {
            return false;
        }
    }
    k == r.leaf_count()
}

/// What a composition answer must satisfy, for `A ∘ B` (`a`, `b`) with the given outcome: an
/// answer computes `A(B(i))` and refines `B`; a refusal of the exact decision carries a witness
/// that checks; and the brute force agrees on existence.
fn check_outcome(a: &Layout, b: &Layout, got: &Result<Layout, Error>) -> Result<(), String> {
    let exists = exists_brute(a, b);
    match got {
        Ok(r) => {
            if !exists {
                return Err(format!("answered {r} where the brute force finds none"));
            }
            if !refines(r, b) {
                return Err(format!("{r} does not refine {b}"));
            }
            if let Some(i) = (0..b.size()).find(|&i| ev(r, i) != f(a, b, i)) {
                return Err(format!("{r} wrong at {i}"));
            }
            Ok(())
        }
        Err(e) => match witness_of(e) {
            Some(w) => {
                if exists {
                    return Err(format!(
                        "refused ({e}) where the brute force finds a layout"
                    ));
                }
                check_witness(a, b, &w).map_err(|m| format!("{e}: witness fails: {m}"))
            }
            None => Err(format!("refused without a witness: {e}")),
        },
    }
}

/// The witness of a refusal of the exact decision: carried by the failed condition (9) or (10),
/// or by `NoLayout` where the distributivity check (12) refused.
fn witness_of(e: &Error) -> Option<CompositionWitness> {
    match *e.kind() {
        ErrorKind::NoLayout { witness } => Some(witness),
        ErrorKind::StrideDivisibility { witness, .. }
        | ErrorKind::ShapeDivisibility { witness, .. } => witness,
        _ => None,
    }
}

fn flat(shapes: &[i64], strides: &[i64]) -> Layout {
    let j = |v: &[i64]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!("({}):({})", j(shapes), j(strides)).parse().unwrap()
}

/// A flat integer layout of 1..=`n` modes, extents 1..=`s`, strides 0..=`d`.
fn flat_layout(n: usize, s: i64, d: i64) -> impl Strategy<Value = Layout> {
    prop::collection::vec((1..=s, 0..=d), 1..=n).prop_map(|m| {
        let (s, d): (Vec<i64>, Vec<i64>) = m.into_iter().unzip();
        flat(&s, &d)
    })
}

/// A right operand: flat, or with its first two leaves grouped (`((s0,s1),s2):((d0,d1),d2)`).
fn right_operand() -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec((1..=8i64, 0..=40i64), 1..=3),
        any::<bool>(),
    )
        .prop_map(|(m, nest)| {
            let (s, d): (Vec<i64>, Vec<i64>) = m.into_iter().unzip();
            if nest && s.len() == 3 {
                format!(
                    "(({},{}),{}):(({},{}),{})",
                    s[0], s[1], s[2], d[0], d[1], d[2]
                )
                .parse()
                .unwrap()
            } else {
                flat(&s, &d)
            }
        })
}

#[test]
fn witnesses_and_answers_on_known_pairs() {
    let lay = |s: &str| s.parse::<Layout>().unwrap();
    // (9) fails, and no layout exists: the progression of A(B(c)) breaks at 4, which does not
    // divide 6
    let (a, b) = (lay("(4,6,8):(2,3,5)"), lay("6:3"));
    let got = composition(&a, &b);
    assert!(matches!(
        got.as_ref().unwrap_err().kind(),
        ErrorKind::StrideDivisibility {
            witness: Some(CompositionWitness::Boundary { .. }),
            ..
        }
    ));
    check_outcome(&a, &b, &got).unwrap();
    // (12) reported a carry that does not happen: the answer exists
    let (a, b) = (lay("(5,2):(3,24)"), lay("(2,2):(1,6)"));
    let got = composition(&a, &b);
    assert_eq!(got.as_ref().unwrap().to_string(), "(2,2):(3,27)");
    check_outcome(&a, &b, &got).unwrap();
    // (9) fails, yet a layout computes it: A(B(c)) for c < 4 is 0, 27, 9, 36
    let (a, b) = (lay("(4,4):(12,3)"), lay("4:6"));
    let got = composition(&a, &b);
    assert_eq!(got.as_ref().unwrap().to_string(), "(2,2):(27,9)");
    check_outcome(&a, &b, &got).unwrap();
    // a refusal across leaves: each leaf alone is a layout, their sum is not A∘B
    let (a, b) = (lay("(2,2):(8,32)"), lay("(2,16):(1,1)"));
    let got = composition(&a, &b);
    assert!(matches!(
        got.as_ref().unwrap_err().kind(),
        ErrorKind::NoLayout {
            witness: CompositionWitness::Sum { .. }
        }
    ));
    check_outcome(&a, &b, &got).unwrap();
    // the message says what was decided and why
    let e = composition(&lay("(4,6,8):(2,3,5)"), &lay("6:3")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "composition (4,6,8):(2,3,5) ∘ 6:3: stride-divisibility condition (9) fails at mode 1 of \
         the coalesced left operand: stride 3 and prefix product 4 divide neither way; decided \
         exactly, no layout compatible with the right operand computes A∘B: along leaf 0 of B, \
         A(B(c)) at c = 2·u is a progression for u < 2 but not at u = 2, so every such layout has \
         a mode boundary at c = 4, which does not divide the extent 6"
    );
    let e = composition(&lay("(2,2):(8,32)"), &lay("(2,16):(1,1)")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "composition (2,2):(8,32) ∘ (2,16):(1,1): no layout compatible with the right operand \
         computes A∘B (decided exactly, where the distributivity check (12) refuses): each leaf of \
         B alone gives a layout, but at index 3 A(B(i)) = 32 while the values at its leaf \
         coordinates taken one at a time add up to 16 (every layout compatible with B adds them)"
    );
}

#[test]
fn small_grid_decided_exactly() {
    let mut kinds = [0usize; 4]; // Boundary, Carry, Sum, answers where C++'s (9)/(10)/(12) refuse
    let mut pairs = Vec::new();
    for (s0, s1) in [(2, 3), (3, 2), (4, 2), (2, 4), (3, 4), (4, 3)] {
        for d0 in 1..=6 {
            for d1 in [1, 2, 3, 5, 8, 12, 13] {
                let a = flat(&[s0, s1], &[d0, d1]);
                for s in 2..=6 {
                    for d in 1..=7 {
                        pairs.push((a, flat(&[s], &[d])));
                    }
                }
                for (t0, t1, e0, e1) in [(2, 2, 1, 3), (3, 2, 2, 5), (2, 3, 3, 1), (2, 2, 5, 2)] {
                    pairs.push((a, flat(&[t0, t1], &[e0, e1])));
                }
            }
        }
    }
    for (a, b) in &pairs {
        let got = composition(a, b);
        check_outcome(a, b, &got).unwrap_or_else(|e| panic!("{a} ∘ {b}: {e}"));
        match &got {
            Err(e) => match witness_of(e) {
                Some(CompositionWitness::Boundary { .. }) => kinds[0] += 1,
                Some(CompositionWitness::Carry { .. }) => kinds[1] += 1,
                Some(CompositionWitness::Sum { .. }) => kinds[2] += 1,
                _ => {}
            },
            Ok(_) => {
                // beyond the paper's conditions: the leaf's stride and the first extent of A
                // divide neither way, and the leaf reaches past it
                let (s0, _) = a.leaf_at(0);
                if (0..b.leaf_count()).any(|j| {
                    let (s, d) = b.leaf_at(j);
                    d % s0 != 0 && s0 % d != 0 && (s - 1) * d >= s0
                }) {
                    kinds[3] += 1;
                }
            }
        }
    }
    assert!(
        kinds.iter().all(|&k| k > 0),
        "{kinds:?} of {} pairs",
        pairs.len()
    );
}

/// The compositions of the conformance set (crates/cute-cli/tests/data/cases.tsv) that CuTe C++
/// and/or PyCuTe refuse and that are answered here: each answer is `A ∘ B` value by value.
#[test]
fn conformance_refusals_answered() {
    let cases = [
        ("(5,4,3,6):(8,3,32,4)", "1:16", "1:0"),
        ("(8,1):(12,1)", "8:12", "(2,4):(49,3)"),
        ("(8,6,3):(16,6,3)", "(4,2):(12,3)", "((2,2),2):((70,18),48)"),
        ("(4,4):(24,32)", "6:6", "(2,3):(80,96)"),
        ("(5,5,3,8):(16,1,4,5)", "(8,4):(0,6)", "(8,4):(0,17)"),
        ("(8,2,4):(4,0,8)", "(2,4):(5,24)", "(2,(2,2)):(20,(8,24))"),
        (
            "(2,(5,1),3):(5,(16,24),32)",
            "(2,1):(24,32)",
            "(2,1):(96,0)",
        ),
        ("(2,5,5):(5,0,1)", "(2,2):(32,3)", "(2,2):(3,5)"),
        ("(2,4):(8,8)", "(5,6):(32,5)", "(5,(2,3)):(128,(24,40))"),
        (
            "((1,8),(2,8)):((16,0),(32,4))",
            "(8,3):(24,2)",
            "((2,4),3):((36,12),0)",
        ),
        ("(4,4):(12,3)", "4:6", "(2,2):(27,9)"),
    ];
    for (a, b, want) in cases {
        let (a, b): (Layout, Layout) = (a.parse().unwrap(), b.parse().unwrap());
        let got = composition(&a, &b);
        assert_eq!(
            got.as_ref().map(|r| r.to_string()).ok().as_deref(),
            Some(want),
            "{a} ∘ {b}"
        );
        check_outcome(&a, &b, &got).unwrap_or_else(|e| panic!("{a} ∘ {b}: {e}"));
    }
}

#[test]
fn brute_force_enumerates_factorisations() {
    assert_eq!(factorisations(1), vec![Vec::<i64>::new()]);
    assert_eq!(
        factorisations(8),
        vec![vec![2, 2, 2], vec![2, 4], vec![4, 2], vec![8]]
    );
    assert_eq!(factorisations(6).len(), 3);
}

/// The same flows into the products: `logical_product(A, B) = (A, A* ∘ B)` where the admissible
/// path refuses; an answer is checked mode by mode, a refusal's witness against `A*` and `B`.
#[test]
fn products_decide_through_composition() {
    let lay = |s: &str| s.parse::<Layout>().unwrap();
    let (a, b) = (lay("(2,2):(4,1)"), lay("3:1"));
    let got = logical_product(&a, &Tiler::layout(b));
    let e = got.unwrap_err();
    let witness = witness_of(&e).unwrap_or_else(|| panic!("{e}"));
    // A* = complement of A up to size(A)·cosize(B)
    let cotarget: IntTuple = (a.size() * 3).to_string().parse().unwrap();
    let c = complement_to(&a, &cotarget).unwrap();
    check_witness(&c, &b, &witness).unwrap();
    assert!(!exists_brute(&c, &b));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    /// Every pair: answers computed exactly, refusals witnessed, existence as the brute force says.
    #[test]
    fn composition_decided_exactly(a in flat_layout(3, 8, 40), b in right_operand()) {
        let got = composition(&a, &b);
        if let Err(e) = check_outcome(&a, &b, &got) {
            return Err(TestCaseError::fail(format!("{a} ∘ {b}: {e}")));
        }
    }

    /// The same with left operands of more modes and smaller strides (more boundaries).
    #[test]
    fn composition_decided_exactly_many_modes(a in flat_layout(4, 5, 12), b in right_operand()) {
        let got = composition(&a, &b);
        if let Err(e) = check_outcome(&a, &b, &got) {
            return Err(TestCaseError::fail(format!("{a} ∘ {b}: {e}")));
        }
    }

    /// `with_shape(A, S) = A ∘ compact_col_major(S)` decides the same way.
    #[test]
    fn with_shape_decided_exactly(a in flat_layout(3, 6, 30), shape in prop::collection::vec(1..=6i64, 1..=3)) {
        let text = format!("({})", shape.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(","));
        let s: IntTuple = text.parse().unwrap();
        let b = compact_col_major(&s).unwrap();
        let got = with_shape(&a, &s);
        if let Err(e) = check_outcome(&a, &b, &got) {
            return Err(TestCaseError::fail(format!("{a}.with_shape({s}): {e}")));
        }
    }
}
