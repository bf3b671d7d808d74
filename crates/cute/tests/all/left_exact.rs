//! Left inverse of injective integer layouts where CuTe's chain fails: every answer `R` undoes
//! `L` on its image (`R(L(k)) = k`), and every refusal says that it was decided exactly, which is
//! checked here independently: over every chain of divisors `Π_1 | Π_2 | …` up to the largest
//! offset `X` (not only the maximal ones the crate walks), the system
//! `α·x_k + Σ_i β_i·⌊x_k/Π_i⌋ = k` has no integer solution (lattice membership by an integer
//! echelon form written here). Every layout `R` is such a sum on `[0, X]`, so none exists.

use cute::{left_inverse, Layout};
use proptest::prelude::*;

fn ev(l: &Layout, i: i64) -> i64 {
    l.eval(i).unwrap()
}

fn offsets(l: &Layout) -> Vec<i64> {
    (0..l.size()).map(|k| ev(l, k)).collect()
}

fn injective(l: &Layout) -> bool {
    let mut seen = std::collections::HashSet::new();
    offsets(l).into_iter().all(|x| seen.insert(x))
}

fn undoes(l: &Layout, r: &Layout) -> bool {
    (0..l.size()).all(|k| ev(r, ev(l, k)) == k)
}

fn flat(m: &[(i64, i64)]) -> Layout {
    let s: Vec<String> = m.iter().map(|x| x.0.to_string()).collect();
    let d: Vec<String> = m.iter().map(|x| x.1.to_string()).collect();
    format!("({}):({})", s.join(","), d.join(","))
        .parse()
        .unwrap()
}

/// Every chain of divisors `1 < Π_1 < Π_2 < …` (each dividing the next) with `Π ≤ x`.
fn chains(x: i64) -> Vec<Vec<i64>> {
    fn walk(x: i64, cur: &mut Vec<i64>, out: &mut Vec<Vec<i64>>) {
        out.push(cur.clone());
        let last = *cur.last().unwrap_or(&1);
        let mut p = last * 2;
        while p <= x {
            if p % last == 0 {
                cur.push(p);
                walk(x, cur, out);
                cur.pop();
            }
            p += last;
        }
    }
    let mut out = Vec::new();
    walk(x, &mut Vec::new(), &mut out);
    out
}

/// Whether `b` lies in the lattice spanned by `cols` (vectors of the same length): the columns
/// are brought to echelon form row by row (Euclid's algorithm on the entries of each row) and `b`
/// reduced against each pivot.
fn in_lattice(mut rest: Vec<Vec<i128>>, mut b: Vec<i128>) -> bool {
    for i in 0..b.len() {
        let mut pivot: Option<Vec<i128>> = None;
        let mut others = Vec::new();
        for c in rest {
            if c[i] == 0 {
                others.push(c);
                continue;
            }
            match pivot.take() {
                None => pivot = Some(c),
                Some(mut p) => {
                    let mut c = c;
                    while c[i] != 0 {
                        let q = p[i] / c[i];
                        for (pv, cv) in p.iter_mut().zip(&c) {
                            *pv -= q * cv;
                        }
                        std::mem::swap(&mut p, &mut c);
                    }
                    pivot = Some(p);
                    others.push(c);
                }
            }
        }
        rest = others;
        match pivot {
            Some(p) => {
                if b[i] % p[i] != 0 {
                    return false;
                }
                let q = b[i] / p[i];
                for (bv, pv) in b.iter_mut().zip(&p) {
                    *bv -= q * pv;
                }
            }
            None if b[i] != 0 => return false,
            None => {}
        }
    }
    true
}

/// Whether some layout `R` has `R(L(k)) = k` for every `k < |L|`, by every chain of divisors.
fn left_inverse_exists(l: &Layout) -> bool {
    let xs = offsets(l);
    let top = *xs.iter().max().unwrap();
    chains(top).into_iter().any(|chain| {
        let mut cols = vec![xs.iter().map(|&x| x as i128).collect::<Vec<_>>()];
        for p in &chain {
            cols.push(xs.iter().map(|&x| (x / p) as i128).collect());
        }
        in_lattice(cols, (0..xs.len() as i128).collect())
    })
}

/// An answer undoes `L` (and then one exists); a refusal says it was decided exactly, and none
/// exists.
fn check(l: &Layout) -> Result<bool, String> {
    match left_inverse(l) {
        Ok(r) => {
            if !undoes(l, &r) {
                return Err(format!("{l} -> {r} does not undo it"));
            }
            Ok(true)
        }
        Err(e) => {
            if !e.to_string().contains("decided exactly") {
                return Err(format!("{l} refused without deciding: {e}"));
            }
            if left_inverse_exists(l) {
                return Err(format!("{l} refused although a left inverse exists: {e}"));
            }
            Ok(false)
        }
    }
}

#[test]
fn carrying_left_inverses() {
    // the carry-free radix finds none for these; a mixed radix whose digits carry does
    for (l, want) in [
        ("(2,2):(3,5)", "(2,4,2):(0,1,3)"),
        ("(2,3):(2,3)", "(2,3,2):(1,1,4)"),
        ("(8,3):(8,5)", "(2,2,2,16):(8,15,0,1)"),
    ] {
        let l: Layout = l.parse().unwrap();
        let r = left_inverse(&l).unwrap();
        assert_eq!(r.to_string(), want);
        assert!(undoes(&l, &r), "{l} -> {r}");
        assert!(left_inverse_exists(&l));
    }
    // and for this one no layout undoes it
    let l: Layout = "(3,3):(2,3)".parse().unwrap();
    assert_eq!(check(&l), Ok(false));
}

#[test]
fn independent_check_agrees_on_chains() {
    // 12: 2, 3, 4, 6, 12 below it; chains by divisibility
    let c = chains(12);
    assert!(c.contains(&vec![2, 4, 12]) && c.contains(&vec![3, 6, 12]) && c.contains(&vec![]));
    assert!(!c.iter().any(|ch| ch.windows(2).any(|w| w[1] % w[0] != 0)));
    assert!(in_lattice(vec![vec![2, 4], vec![3, 5]], vec![1, 1]));
    assert!(!in_lattice(vec![vec![2, 4]], vec![1, 2]));
}

/// Every injective two-mode layout of a small grid: answered and undone, or refused and none exists;
/// both occur.
#[test]
fn small_grid_decided_exactly() {
    let (mut answered, mut refused) = (0, 0);
    for s0 in 2..=3 {
        for s1 in 2..=3 {
            for d0 in 1..=9 {
                for d1 in 1..=9 {
                    let l = flat(&[(s0, d0), (s1, d1)]);
                    if !injective(&l) {
                        continue;
                    }
                    match check(&l) {
                        Ok(true) => answered += 1,
                        Ok(false) => refused += 1,
                        Err(e) => panic!("{e}"),
                    }
                }
            }
        }
    }
    assert!(
        answered > 200 && refused > 0,
        "{answered} answered, {refused} refused"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random injective layouts of up to three modes.
    #[test]
    fn injective_layouts_decided_exactly(m in prop::collection::vec((1..=4i64, 1..=12i64), 1..=3)) {
        let l = flat(&m);
        prop_assume!(injective(&l));
        if let Err(e) = check(&l) {
            return Err(TestCaseError::fail(e));
        }
    }
}
