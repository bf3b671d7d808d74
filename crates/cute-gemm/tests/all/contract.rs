//! `contract` against a naive loop nest on random tensors of 2–6 modes, some permuted, some
//! sliced (strides padded) or reversed (negative strides).

use crate::util::*;
use cute::{Layout, Tensor};

/// A layout for a tensor with the given extents: a random order of the modes in memory, random
/// padding (a slice of a larger tensor) and random reversal of modes.
fn random_layout(
    rng: &mut Rng,
    extents: &[i64],
    permute: bool,
    slice: bool,
    reverse: bool,
) -> Layout {
    let n = extents.len();
    let mut order: Vec<usize> = (0..n).collect();
    if permute {
        for i in (1..n).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
    }
    let mut strides = vec![0i64; n];
    let mut next = 1i64;
    for &m in &order {
        strides[m] = next;
        let pad = if slice { rng.below(3) as i64 } else { 0 };
        next *= extents[m] + pad;
    }
    if reverse {
        for s in strides.iter_mut() {
            if rng.below(3) == 0 {
                *s = -*s;
            }
        }
    }
    Layout::flat(extents, &strides).unwrap()
}

/// `C[out] += Σ A[ta]·B[tb]` by the loop over every letter.
fn naive(
    spec: &str,
    ext: &dyn Fn(char) -> i64,
    a: (&[f64], usize, &Layout),
    b: (&[f64], usize, &Layout),
    c: (&mut [f64], usize, &Layout),
) {
    let (lhs, out) = spec.split_once("->").unwrap();
    let (ta, tb) = lhs.split_once(',').unwrap();
    let mut letters: Vec<char> = Vec::new();
    for ch in spec.chars().filter(|c| c.is_ascii_alphabetic()) {
        if !letters.contains(&ch) {
            letters.push(ch);
        }
    }
    let total: i64 = letters.iter().map(|&l| ext(l)).product();
    let off = |term: &str, l: &Layout, idx: &[i64]| -> i64 {
        term.chars()
            .enumerate()
            .map(|(m, ch)| {
                l.mode(m)
                    .unwrap()
                    .eval(idx[letters.iter().position(|&x| x == ch).unwrap()])
                    .unwrap()
            })
            .sum()
    };
    let mut idx = vec![0i64; letters.len()];
    for mut t in 0..total {
        for (i, &l) in letters.iter().enumerate() {
            idx[i] = t % ext(l);
            t /= ext(l);
        }
        let va = a.0[(a.1 as i64 + off(ta, a.2, &idx)) as usize];
        let vb = b.0[(b.1 as i64 + off(tb, b.2, &idx)) as usize];
        c.0[(c.1 as i64 + off(out, c.2, &idx)) as usize] += va * vb;
    }
}

/// Runs one contraction on random data (f32 and f64) and compares with the loop nest.
fn check(
    spec: &str,
    extents: &[(char, i64)],
    seed: u64,
    permute: bool,
    slice: bool,
    reverse: bool,
) {
    let mut rng = Rng::new(seed);
    let ext = |ch: char| extents.iter().find(|e| e.0 == ch).unwrap().1;
    let (lhs, out) = spec.split_once("->").unwrap();
    let (ta, tb) = lhs.split_once(',').unwrap();
    let mk = |rng: &mut Rng, term: &str| {
        let e: Vec<i64> = term.chars().map(ext).collect();
        if e.is_empty() {
            // a scalar: the one-element layout, with any stride
            return Layout::leaf(1, rng.below(3) as i64).unwrap();
        }
        random_layout(rng, &e, permute, slice, reverse)
    };
    let (la, lb, lc) = (mk(&mut rng, ta), mk(&mut rng, tb), mk(&mut rng, out));
    let ((ba, na), (bb, nb), (bc, nc)) = (extent(&la, 0), extent(&lb, 1), extent(&lc, 0));
    let (a, b, c0) = (
        random_vec(&mut rng, na),
        random_vec(&mut rng, nb),
        random_vec(&mut rng, nc),
    );
    let k: i64 = ta
        .chars()
        .filter(|&ch| !out.contains(ch))
        .map(ext)
        .product();
    let mut want = c0.clone();
    naive(
        spec,
        &ext,
        (&a, ba, &la),
        (&b, bb, &lb),
        (&mut want, bc, &lc),
    );
    let what = format!("{spec} A {la} B {lb} C {lc}");

    let mut c = c0.clone();
    {
        let t_a = Tensor::with_base(&a[..], ba, la).unwrap();
        let t_b = Tensor::with_base(&b[..], bb, lb).unwrap();
        let mut t_c = Tensor::with_base(&mut c[..], bc, lc).unwrap();
        cute_gemm::contract(spec, &t_a, &t_b, &mut t_c).unwrap();
    }
    assert_close(&c, &want, tol_f64(k), &format!("f64 {what}"));

    let f = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<f32>>();
    let (a32, b32, mut c32) = (f(&a), f(&b), f(&c0));
    {
        let t_a = Tensor::with_base(&a32[..], ba, la).unwrap();
        let t_b = Tensor::with_base(&b32[..], bb, lb).unwrap();
        let mut t_c = Tensor::with_base(&mut c32[..], bc, lc).unwrap();
        cute_gemm::contract(spec, &t_a, &t_b, &mut t_c).unwrap();
    }
    let got: Vec<f64> = c32.iter().map(|&x| x as f64).collect();
    assert_close(&got, &want, tol_f32(k), &format!("f32 {what}"));
}

#[test]
fn paper_example_stupr_qtru_stqp() {
    let e = [('s', 3), ('t', 4), ('u', 5), ('p', 6), ('r', 7), ('q', 8)];
    check("stupr,qtru->stqp", &e, 1, false, false, false);
    check("stupr,qtru->stqp", &e, 2, true, false, false);
    check("stupr,qtru->stqp", &e, 3, true, true, false);
    check("stupr,qtru->stqp", &e, 4, true, true, true);
}

#[test]
fn matrix_products() {
    let e = [('m', 33), ('n', 17), ('k', 20)];
    for (i, spec) in ["mk,kn->mn", "km,kn->mn", "mk,nk->nm", "kn,mk->mn"]
        .iter()
        .enumerate()
    {
        check(spec, &e, 10 + i as u64, false, false, false);
        check(spec, &e, 20 + i as u64, true, true, true);
    }
}

#[test]
fn batched_and_outer_products() {
    // batch only, an outer product (no reduction), an inner product per row, 6-mode tensors
    check(
        "bmk,bkn->bmn",
        &[('b', 3), ('m', 9), ('k', 11), ('n', 5)],
        30,
        true,
        true,
        true,
    );
    check("m,n->mn", &[('m', 13), ('n', 7)], 31, false, false, true);
    check("ik,ik->i", &[('i', 6), ('k', 50)], 32, true, true, false);
    check(
        "abcdef,cdefgh->abgh",
        &[
            ('a', 2),
            ('b', 3),
            ('c', 3),
            ('d', 2),
            ('e', 4),
            ('f', 2),
            ('g', 3),
            ('h', 2),
        ],
        33,
        true,
        true,
        true,
    );
    check(
        "abcxyz,bcuvxy->auvz",
        &[
            ('a', 3),
            ('b', 2),
            ('c', 3),
            ('x', 2),
            ('y', 3),
            ('z', 2),
            ('u', 2),
            ('v', 3),
        ],
        34,
        true,
        false,
        true,
    );
}

#[test]
fn random_specs() {
    // random classifications of 2..=6 letters per tensor
    let pool: Vec<char> = "abcdefghijkl".chars().collect();
    for seed in 0..24u64 {
        let mut rng = Rng::new(100 + seed);
        let (mut ta, mut tb, mut tc) = (String::new(), String::new(), String::new());
        let mut extents = Vec::new();
        let nletters = 3 + rng.below(4) as usize;
        for &ch in pool.iter().take(nletters) {
            match rng.below(4) {
                0 => {
                    ta.push(ch);
                    tc.push(ch);
                } // row
                1 => {
                    tb.push(ch);
                    tc.push(ch);
                } // column
                2 => {
                    ta.push(ch);
                    tb.push(ch);
                } // reduction
                _ => {
                    ta.push(ch);
                    tb.push(ch);
                    tc.push(ch);
                } // batch
            }
            extents.push((ch, 1 + rng.below(5) as i64));
        }
        if ta.len() < 2 || tb.len() < 2 || tc.is_empty() {
            continue;
        }
        // shuffle each term's letter order
        let shuffle = |rng: &mut Rng, t: &str| {
            let mut v: Vec<char> = t.chars().collect();
            for i in (1..v.len()).rev() {
                v.swap(i, rng.below(i as u64 + 1) as usize);
            }
            v.into_iter().collect::<String>()
        };
        let spec = format!(
            "{},{}->{}",
            shuffle(&mut rng, &ta),
            shuffle(&mut rng, &tb),
            shuffle(&mut rng, &tc)
        );
        check(
            &spec,
            &extents,
            200 + seed,
            true,
            seed % 2 == 0,
            seed % 3 == 0,
        );
    }
}

#[test]
fn accumulates_into_c() {
    // contract adds to C: running it twice doubles the contribution
    let a = [1.0f64, 2.0, 3.0, 4.0];
    let b = [5.0f64, 6.0];
    let mut c = [1.0f64, 1.0];
    let ta = Tensor::new(&a[..], "(2,2):(2,1)".parse::<Layout>().unwrap()).unwrap();
    let tb = Tensor::new(&b[..], "2:1".parse::<Layout>().unwrap()).unwrap();
    let mut tc = Tensor::new(&mut c[..], "2:1".parse::<Layout>().unwrap()).unwrap();
    cute_gemm::contract("mk,k->m", &ta, &tb, &mut tc).unwrap();
    cute_gemm::contract("mk,k->m", &ta, &tb, &mut tc).unwrap();
    assert_eq!(c, [1.0 + 2.0 * 17.0, 1.0 + 2.0 * 39.0]);
}

#[test]
fn plan_of_the_paper_example() {
    // row-major numpy tensors of the benchmark: M = (s,p), N = q, K = (u,r), L = t
    let (s, t, u, p, r, q) = (16, 4, 64, 48, 32, 128);
    let la = Layout::flat(&[s, t, u, p, r], &[t * u * p * r, u * p * r, p * r, r, 1]).unwrap();
    let lb = Layout::flat(&[q, t, r, u], &[t * r * u, r * u, u, 1]).unwrap();
    let lc = Layout::flat(&[s, t, q, p], &[t * q * p, q * p, p, 1]).unwrap();
    let m = cute_gemm::contract_modes("stupr,qtru->stqp", &la, &lb, &lc).unwrap();
    assert_eq!(
        (
            m.rows.clone(),
            m.cols.clone(),
            m.reduction.clone(),
            m.batch.clone()
        ),
        (vec!['s', 'p'], vec!['q'], vec!['u', 'r'], vec!['t'])
    );
    let plan = cute_gemm::plan_gemm(&m.a, &m.b, &m.c).unwrap();
    // k: u, the longest sub-mode with a unit stride in an operand (B's; r is A's, and shorter):
    // longer k panels per kernel call (measured 3.4× faster than k = r, BENCHMARKS.md)
    assert_eq!(plan.kernel(), (48, 128, 64));
    assert_eq!(plan.calls(), s * t * r);
}

#[test]
fn beta_scales_or_overwrites_c_and_errors_leave_c_untouched() {
    let a = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0]; // 2×3 row-major
    let b = [1.0f64, 10.0, 100.0];
    let ta = Tensor::new(&a[..], Layout::flat(&[2, 3], &[3, 1]).unwrap()).unwrap();
    let tb = Tensor::new(&b[..], Layout::flat(&[3], &[1]).unwrap()).unwrap();
    let ab = [321.0, 654.0];
    for (beta, old, want) in [
        (0.0, [f64::NAN, f64::INFINITY], ab),
        (1.0, [1.0, 2.0], [ab[0] + 1.0, ab[1] + 2.0]),
        (2.0, [1.0, 2.0], [ab[0] + 2.0, ab[1] + 4.0]),
        (-0.5, [4.0, 8.0], [ab[0] - 2.0, ab[1] - 4.0]),
    ] {
        let mut c = old;
        let mut tc = Tensor::new(&mut c[..], Layout::flat(&[2], &[1]).unwrap()).unwrap();
        cute_gemm::contract_beta("mk,k->m", &ta, &tb, beta, &mut tc).unwrap();
        assert_eq!(c, want, "beta {beta}");
    }
    // a C that is not injective is refused before it is scaled
    let mut c = [5.0f64, 7.0];
    let mut tc = Tensor::new(&mut c[..], Layout::flat(&[2], &[0]).unwrap()).unwrap();
    let e = cute_gemm::contract_beta("mk,k->m", &ta, &tb, 0.0, &mut tc).unwrap_err();
    assert_eq!(e.category(), "NotInjective");
    assert_eq!(c, [5.0, 7.0]);
    // integers take the reference loop, with the same β
    let ai = [1i64, 2, 3, 4, 5, 6];
    let bi = [1i64, 10, 100];
    let mut ci = [1i64, 1];
    cute_gemm::contract_beta(
        "mk,k->m",
        &Tensor::new(&ai[..], Layout::flat(&[2, 3], &[3, 1]).unwrap()).unwrap(),
        &Tensor::new(&bi[..], Layout::flat(&[3], &[1]).unwrap()).unwrap(),
        3,
        &mut Tensor::new(&mut ci[..], Layout::flat(&[2], &[1]).unwrap()).unwrap(),
    )
    .unwrap();
    assert_eq!(ci, [324, 657]);
}

/// β is applied once per element of C even when the plan splits K into several kernel calls per
/// piece of C (outer reduction loops) and when small pieces are spread over threads: with β = 0
/// C's old values (NaN here) are never read, with β = 2 they count twice, exactly once.
#[test]
fn beta_once_per_element_with_outer_reduction_loops() {
    let l = |s: &str| s.parse::<Layout>().unwrap();
    let at = |l: &Layout, i: i64, j: i64| {
        l.eval_crd(&cute::IntTuple::flat(&[i, j]).unwrap()).unwrap() as usize
    };
    // K = (4,3) whose two sub-modes merge in neither operand (A: 8·4 ≠ 100, B: 6·4 ≠ 50), and
    // M = (8,5) whose sub-modes do not merge in C: outer loops over K and over M
    let la = l("((8,5),(4,3)):((1,1000),(8,100))");
    let lb = l("(6,(4,3)):(1,(6,50))");
    let lc = l("((8,5),6):((1,64),8)");
    let m = cute_gemm::contract_modes("mk,nk->mn", &la, &lb, &lc).unwrap();
    let plan = cute_gemm::plan_gemm(&m.a, &m.b, &m.c).unwrap();
    let loops = plan.outer_loops();
    assert!(loops.iter().any(|l| l.0 == cute_gemm::Mode::K), "{loops:?}");
    assert!(loops.iter().any(|l| l.0 == cute_gemm::Mode::M), "{loops:?}");
    let mut rng = Rng::new(41);
    let a: Vec<f64> = random_ints(&mut rng, 5000)
        .into_iter()
        .map(|x| x as f64)
        .collect();
    let b: Vec<f64> = random_ints(&mut rng, 200)
        .into_iter()
        .map(|x| x as f64)
        .collect();
    let ta = Tensor::new(&a[..], la).unwrap();
    let tb = Tensor::new(&b[..], lb).unwrap();
    // the sum by the loop over every coordinate
    let mut ab = vec![0.0f64; 64 * 5];
    for i in 0..40 {
        for j in 0..6 {
            for k in 0..12 {
                ab[at(&lc, i, j)] += a[at(&la, i, k)] * b[at(&lb, j, k)];
            }
        }
    }
    for (beta, old) in [(0.0, f64::NAN), (2.0, 3.0), (1.0, -1.0)] {
        let mut c = vec![old; 64 * 5];
        let mut tc = Tensor::new(&mut c[..], lc).unwrap();
        cute_gemm::contract_beta("mk,nk->mn", &ta, &tb, beta, &mut tc).unwrap();
        for i in 0..40 {
            for j in 0..6 {
                let o = at(&lc, i, j);
                let want = ab[o] + if beta == 0.0 { 0.0 } else { beta * old };
                assert_eq!(c[o], want, "beta {beta} at ({i},{j})");
            }
        }
    }
}

/// Terms with no letters name scalars (their tensors are one element, `1:d`): a dot product, a
/// full contraction of matrices, a scalar times a vector on either side, a product of scalars.
#[test]
fn scalar_terms() {
    check("k,k->", &[('k', 37)], 40, false, false, true);
    check("ij,ij->", &[('i', 6), ('j', 9)], 41, true, true, true);
    check(",i->i", &[('i', 11)], 42, false, true, true);
    check("i,->i", &[('i', 11)], 43, false, true, true);
    check(",->", &[], 44, false, false, false);
    check("bk,bk->b", &[('b', 5), ('k', 8)], 45, true, true, true);
    // a scalar's tensor of two elements, or of two modes: the term's mismatch, naming the tensor
    let (x, y) = ([1.0f64; 4], [0.0f64; 4]);
    let v = Tensor::new(&x[..], "4:1".parse::<Layout>().unwrap()).unwrap();
    for (c, what) in [("2:1", "(size vs 1)"), ("(1,1):(1,1)", "(rank vs 1)")] {
        let mut out = y;
        let mut tc = Tensor::new(&mut out[..], c.parse::<Layout>().unwrap()).unwrap();
        let e = cute_gemm::contract("k,k->", &v, &v, &mut tc).unwrap_err();
        assert_eq!(e.category(), "ProfileMismatch", "{e}");
        assert!(e.to_string().contains(what), "{e}");
        assert!(e.to_string().contains(c), "{e}");
        assert_eq!(out, y, "C untouched on an error");
    }
}
