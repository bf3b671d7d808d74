//! Slice, complement and left inverse of coordinate (`e_i`) and binary (F2) layouts, checked by
//! their definitions: every answer by the law it must satisfy, every refusal by brute force (a
//! claimed collision is two indices with one value; a refusal of an F2 layout whose extents are
//! powers of two is always a true collision, since there the question is linear over GF(2)).

use cute::{
    complement, complement_to, left_inverse, slice, slice_and_value, ErrorKind, IntTuple, Layout,
    PartialCoord, Value,
};
use proptest::prelude::*;
use std::collections::HashSet;

fn layout(shapes: &[i64], strides: &[String]) -> Layout {
    let s: Vec<String> = shapes.iter().map(|x| x.to_string()).collect();
    format!("({}):({})", s.join(","), strides.join(","))
        .parse()
        .unwrap()
}

/// The indices of `l` whose coordinates on the stride-0 leaves are 0 (the domain of the laws).
fn law_indices(shapes: &[i64], zero: &[bool]) -> Vec<i64> {
    let size: i64 = shapes.iter().product();
    (0..size)
        .filter(|&i| {
            let mut x = i;
            shapes.iter().zip(zero).all(|(&s, &z)| {
                let c = x % s;
                x /= s;
                !z || c == 0
            })
        })
        .collect()
}

/// Two indices among `idx` with one value under `f`, if any.
fn collision<K: std::hash::Hash + Eq + Clone>(
    idx: &[i64],
    f: impl Fn(i64) -> K,
) -> Option<(i64, i64)> {
    let mut seen = std::collections::HashMap::new();
    for &i in idx {
        if let Some(&j) = seen.get(&f(i)) {
            return Some((j, i));
        }
        seen.insert(f(i), i);
    }
    None
}

/// A refusal that claims two indices meet must name two distinct indices of `l` with one value.
fn check_collision_claim(l: &Layout, e: &cute::Error, value: impl Fn(i64) -> String) {
    if let ErrorKind::Collision { first, second } = *e.kind() {
        assert!(
            first != second && first >= 0 && second < l.size(),
            "{l}: {e}"
        );
        assert_eq!(value(first), value(second), "{l}: {e}");
    }
}

fn f2_value(l: &Layout, i: i64) -> i64 {
    l.eval(i).unwrap()
}

fn check_f2_left_inverse(shapes: &[i64], strides: &[i64]) {
    let st: Vec<String> = strides.iter().map(|d| format!("F{d}")).collect();
    let l = layout(shapes, &st);
    let zero: Vec<bool> = strides.iter().map(|&d| d == 0).collect();
    let idx = law_indices(shapes, &zero);
    let pow2 = shapes.iter().all(|s| s.count_ones() == 1);
    match left_inverse(&l) {
        Ok(r) => {
            for &i in &idx {
                assert_eq!(r.eval(f2_value(&l, i)).unwrap(), i, "{l} -> {r} at {i}");
            }
        }
        Err(e) => {
            check_collision_claim(&l, &e, |i| f2_value(&l, i).to_string());
            let meet = collision(&idx, |i| f2_value(&l, i));
            if pow2 {
                // linear over GF(2): a left inverse exists iff the law's domain is injective
                assert!(meet.is_some(), "{l}: refused ({e}) though injective");
                assert_eq!(e.category(), "NotInjective", "{l}: {e}");
            } else {
                // small layouts: a collision is found by evaluation, so a refusal of another kind
                // means the layout is injective
                assert_eq!(e.category() == "NotInjective", meet.is_some(), "{l}: {e}");
            }
        }
    }
}

fn check_f2_complement(shapes: &[i64], strides: &[i64]) {
    let st: Vec<String> = strides.iter().map(|d| format!("F{d}")).collect();
    let l = layout(shapes, &st);
    let zero: Vec<bool> = strides.iter().map(|&d| d == 0).collect();
    let idx = law_indices(shapes, &zero);
    let pow2 = shapes.iter().all(|s| s.count_ones() == 1);
    match complement(&l) {
        Ok(c) => {
            // (L, C) is injective on the law's domain times the extended domain of C (twice its
            // size), and onto [0, |filter L|·|C|) on its domain
            let n = idx.len() as i64 * c.size();
            let mut seen = HashSet::new();
            for j in 0..2 * c.size() {
                for &i in &idx {
                    let v = f2_value(&l, i) ^ c.eval(j).unwrap();
                    assert!(seen.insert(v), "{l}, complement {c}: {v} twice");
                    // onto an interval where the layout is linear over GF(2)
                    if j < c.size() && pow2 {
                        assert!(v < n, "{l}, complement {c}: {v} past {n}");
                    }
                }
            }
        }
        Err(e) => {
            check_collision_claim(&l, &e, |i| f2_value(&l, i).to_string());
            // every small layout is decided: refused only when two indices meet
            assert!(
                collision(&idx, |i| f2_value(&l, i)).is_some(),
                "{l}: complement refused ({e}) though injective"
            );
        }
    }
}

fn check_f2_complement_to(shapes: &[i64], strides: &[i64], to: i64) {
    let st: Vec<String> = strides.iter().map(|d| format!("F{d}")).collect();
    let l = layout(shapes, &st);
    let zero: Vec<bool> = strides.iter().map(|&d| d == 0).collect();
    let idx = law_indices(shapes, &zero);
    let pow2 = shapes.iter().all(|s| s.count_ones() == 1);
    match complement_to(&l, &IntTuple::int(to)) {
        Ok(c) => {
            // (L, C) is a bijection onto [0, |filter L|·|C|), at least `to` values
            let n = idx.len() as i64 * c.size();
            assert!(n >= to, "{l}, complement to {to}: {c} reaches {n}");
            let mut seen = HashSet::new();
            for j in 0..c.size() {
                for &i in &idx {
                    let v = f2_value(&l, i) ^ c.eval(j).unwrap();
                    assert!(
                        seen.insert(v) && v < n,
                        "{l}, complement to {to}: {c} at {v}"
                    );
                }
            }
        }
        Err(e) => {
            check_collision_claim(&l, &e, |i| f2_value(&l, i).to_string());
            if pow2 {
                assert!(
                    collision(&idx, |i| f2_value(&l, i)).is_some(),
                    "{l}: complement to {to} refused ({e}) though injective"
                );
            }
        }
    }
}

/// The entries of a value: the bits of an F2 value (one entry, combined by XOR), or the
/// coefficients on axes `0..axes` of a coordinate value (combined by +).
fn entries(v: &Value, axes: usize) -> Vec<i64> {
    match v {
        // zero is canonical (an integer) in every semimodule
        Value::Int(0) => vec![0; axes],
        Value::Int(x) => vec![*x],
        Value::F2(x) => vec![*x as i64],
        Value::Coord(t) => (0..axes).map(|k| t.get(&[k])).collect(),
    }
}

/// `slice` of a flat layout at a partial coordinate (`None` for `_`), checked by its definition:
/// `L(c) = offset + S(j)` for every free coordinate `j` (XOR for F2).
fn check_slice(l: &Layout, shapes: &[i64], fixed: &[Option<i64>], axes: usize, binary: bool) {
    let ent: Vec<String> = fixed
        .iter()
        .map(|f| f.map_or("_".to_string(), |x| x.to_string()))
        .collect();
    let c: PartialCoord = format!("({})", ent.join(",")).parse().unwrap();
    let (sub, off) = slice_and_value(l, &c).unwrap();
    assert_eq!(slice(l, &c).unwrap(), sub);
    let off = entries(&off, axes);
    let free: Vec<i64> = shapes
        .iter()
        .zip(fixed)
        .filter(|(_, f)| f.is_none())
        .map(|(&s, _)| s)
        .collect();
    assert_eq!(
        sub.size(),
        free.iter().product::<i64>(),
        "{l} at {c}: {sub}"
    );
    for j in 0..sub.size() {
        let (mut x, mut i, mut w) = (j, 0i64, 1i64);
        for (&s, f) in shapes.iter().zip(fixed) {
            let k = match f {
                Some(k) => *k,
                None => {
                    let k = x % s;
                    x /= s;
                    k
                }
            };
            i += k * w;
            w *= s;
        }
        let whole = entries(&l.eval_value(i).unwrap(), axes);
        let part = entries(&sub.eval_value(j).unwrap(), axes);
        let sum: Vec<i64> = part
            .iter()
            .zip(&off)
            .map(|(a, b)| if binary { a ^ b } else { a + b })
            .collect();
        assert_eq!(whole, sum, "{l} at {c}: {sub} + offset, free index {j}");
    }
}

/// `L(i)` of a coordinate layout as a coordinate (for evaluating a left inverse there).
fn e_value(l: &Layout, i: i64) -> String {
    l.eval_value(i).unwrap().to_string()
}

fn check_e_left_inverse(shapes: &[i64], strides: &[(i64, usize)]) {
    let st: Vec<String> = strides.iter().map(|&(v, k)| format!("{v}@{k}")).collect();
    let l = layout(shapes, &st);
    let zero: Vec<bool> = strides.iter().map(|&(d, _)| d == 0).collect();
    let idx = law_indices(shapes, &zero);
    let rank = strides
        .iter()
        .filter(|&&(d, _)| d != 0)
        .map(|&(_, k)| k + 1)
        .max()
        .unwrap_or(0);
    let injective = collision(&idx, |i| e_value(&l, i)).is_none();
    match left_inverse(&l) {
        Ok(r) => {
            for &i in &idx {
                let v = e_value(&l, i);
                let got = match (l.eval_value(i).unwrap(), rank) {
                    (_, 0) => r.eval(0).unwrap(),
                    (Value::Coord(t), n) => {
                        let x: Vec<String> = (0..n).map(|k| t.get(&[k]).to_string()).collect();
                        let c: IntTuple = format!("({})", x.join(",")).parse().unwrap();
                        r.eval_crd(&c).unwrap()
                    }
                    (v, _) => panic!("{l}: value {v}"),
                };
                if injective {
                    assert_eq!(got, i, "{l} -> {r} at {i} ({v})");
                } else {
                    // PyCuTe's answer for a layout that is not injective: L ∘ R ∘ L = L
                    assert_eq!(e_value(&l, got), v, "{l} -> {r} at {i}");
                }
            }
        }
        Err(e) => {
            check_collision_claim(&l, &e, |i| e_value(&l, i));
            if let ErrorKind::Divisibility { mode, value, .. } = *e.kind() {
                // the mode named is a leaf of the user's layout with that coefficient
                assert_eq!(strides[mode].0, value, "{l}: {e}");
            }
            if e.category() == "NotInjective" {
                assert!(collision(&idx, |i| e_value(&l, i)).is_some(), "{l}: {e}");
            } else {
                // the refusal is the integer problem of one axis: its projection (the axis's
                // coefficients, 0 on every other mode) is an injective integer layout that the
                // integer left inverse refuses too
                let axes: HashSet<usize> = strides.iter().map(|&(_, k)| k).collect();
                let refused = axes.iter().any(|&k| {
                    let d: Vec<String> = strides
                        .iter()
                        .map(|&(d, a)| if a == k { d } else { 0 }.to_string())
                        .collect();
                    left_inverse(&layout(shapes, &d)).is_err()
                });
                assert!(
                    refused,
                    "{l}: refused ({e}) though every axis has an integer answer"
                );
            }
        }
    }
}

fn check_e_complement(shapes: &[i64], strides: &[(i64, usize)]) {
    let st: Vec<String> = strides.iter().map(|&(v, k)| format!("{v}@{k}")).collect();
    let l = layout(shapes, &st);
    let zero: Vec<bool> = strides.iter().map(|&(d, _)| d == 0).collect();
    let idx = law_indices(shapes, &zero);
    match complement(&l) {
        Ok(c) => {
            // (16): the image of L and the translates by C over its extended domain are disjoint
            let mut seen = HashSet::new();
            for j in 0..2 * c.size() {
                let cj = entries(&c.eval_value(j).unwrap(), 2);
                for &i in &idx {
                    let li = entries(&l.eval_value(i).unwrap(), 2);
                    let v: Vec<i64> = li.iter().zip(&cj).map(|(a, b)| a + b).collect();
                    assert!(seen.insert(v.clone()), "{l}, complement {c}: {v:?} twice");
                }
            }
        }
        Err(e) => {
            check_collision_claim(&l, &e, |i| e_value(&l, i));
            assert!(
                collision(&idx, |i| e_value(&l, i)).is_some(),
                "{l}: complement refused ({e}) though injective"
            );
        }
    }
}

#[test]
fn repros_answer() {
    let cases = ["(4,4):(F1,F5)", "2:F3", "(8,8):(F9,F1)"];
    for s in cases {
        let l: Layout = s.parse().unwrap();
        let r = left_inverse(&l).unwrap();
        for i in 0..l.size() {
            assert_eq!(r.eval(l.eval(i).unwrap()).unwrap(), i, "{l} -> {r}");
        }
    }
    let l: Layout = "(2,2):(F1,F4)".parse().unwrap();
    assert_eq!(complement(&l).unwrap().to_string(), "(2,1):(F2,F8)");
    check_e_left_inverse(&[2, 2], &[(3, 0), (2, 0)]);
    let l: Layout = "(2,2):(3@0,2@0)".parse().unwrap();
    assert!(left_inverse(&l).is_ok());
    let l: Layout = "(2,2):(F1,F4)".parse().unwrap();
    assert_eq!(
        complement_to(&l, &IntTuple::int(32)).unwrap().to_string(),
        "(2,4):(F2,F8)"
    );
    let id: Layout = "(4,8):(1@0,1@1)".parse().unwrap();
    let c: PartialCoord = "(_,3)".parse().unwrap();
    assert_eq!(slice(&id, &c).unwrap().to_string(), "(4):(1@0)");
    // refused by the exact integer left inverse of the axis (4,3):(6,4), named at the user's leaf
    check_e_left_inverse(&[4, 3], &[(6, 0), (4, 0)]);
    let l: Layout = "(4,3):(6@0,4@0)".parse().unwrap();
    let e = left_inverse(&l).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Divisibility {
                mode: 0,
                value: 6,
                divisor: 4,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("decided exactly"), "{e}");
    let l: Layout = "(2,2):(F3,F3)".parse().unwrap();
    let e = left_inverse(&l).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Collision {
                first: 0,
                second: 3
            }
        ),
        "{e}"
    );
}

fn f2_mode() -> impl Strategy<Value = (i64, i64)> {
    (
        prop_oneof![4 => Just(1i64), 8 => Just(2), 6 => Just(4), 3 => Just(8), 1 => Just(3)],
        0i64..32,
    )
}

fn e_mode() -> impl Strategy<Value = (i64, (i64, usize))> {
    (1i64..5, (0i64..7, 0usize..2))
}

/// A partial coordinate entry for a mode of extent `s`: `_`, or a value below `s`.
fn entry(s: i64) -> impl Strategy<Value = Option<i64>> {
    prop_oneof![Just(None), (0..s).prop_map(Some)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn f2_left_inverse_and_complement(modes in prop::collection::vec(f2_mode(), 1..4)) {
        let (s, d): (Vec<i64>, Vec<i64>) = modes.into_iter().unzip();
        check_f2_left_inverse(&s, &d);
        check_f2_complement(&s, &d);
        for to in [1, 8, 64] {
            check_f2_complement_to(&s, &d, to);
        }
    }

    #[test]
    fn f2_slice(
        (modes, fixed) in prop::collection::vec(f2_mode(), 1..4).prop_flat_map(|m| {
            let e: Vec<_> = m.iter().map(|&(s, _)| entry(s)).collect();
            (Just(m), e)
        })
    ) {
        let (s, d): (Vec<i64>, Vec<i64>) = modes.into_iter().unzip();
        let st: Vec<String> = d.iter().map(|d| format!("F{d}")).collect();
        check_slice(&layout(&s, &st), &s, &fixed, 1, true);
    }

    #[test]
    fn e_slice(
        (modes, fixed) in prop::collection::vec(e_mode(), 1..4).prop_flat_map(|m| {
            let e: Vec<_> = m.iter().map(|&(s, _)| entry(s)).collect();
            (Just(m), e)
        })
    ) {
        let (s, d): (Vec<i64>, Vec<(i64, usize)>) = modes.into_iter().unzip();
        let st: Vec<String> = d.iter().map(|&(v, k)| format!("{v}@{k}")).collect();
        check_slice(&layout(&s, &st), &s, &fixed, 2, false);
    }

    #[test]
    fn e_left_inverse(modes in prop::collection::vec(e_mode(), 1..4)) {
        let (s, d): (Vec<i64>, Vec<(i64, usize)>) = modes.into_iter().unzip();
        check_e_left_inverse(&s, &d);
        check_e_complement(&s, &d);
    }
}
