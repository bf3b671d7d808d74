//! Tensors (`A ∘ L`) and the generic COPY: construction checks the storage once, element access
//! follows the layout at every coordinate kind, and `copy` is `dst(i) = src(i)` for the rows of the
//! paper's Table 2 and for random layouts (against a loop written with the layouts' `eval`).

use super::gen::*;
use cute::{copy, IntTuple, Layout, Tensor};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

#[test]
fn storage_is_checked_once_when_the_tensor_is_made() {
    let data: Vec<i32> = (0..32).collect();
    assert!(Tensor::new(&data[..], l("(4,8):(8,1)")).is_ok());
    let e = Tensor::new(&data[..], l("(4,8):(8,2)")).unwrap_err();
    assert_eq!(e.category(), "OutOfRange");
    assert!(e.to_string().contains("outside a storage of 32"), "{e}");
    // negative strides reach below the base
    assert!(Tensor::new(&data[..], l("4:-1")).is_err());
    let t = Tensor::with_base(&data[..], 3, l("4:-1")).unwrap();
    assert_eq!(t.iter().copied().collect::<Vec<_>>(), vec![3, 2, 1, 0]);
    // coordinate strides are not offsets
    assert_eq!(
        Tensor::new(&data[..], l("(4,8):(1@0,1@1)"))
            .unwrap_err()
            .category(),
        "Unsupported"
    );
}

#[test]
fn element_access_at_every_coordinate_kind() {
    let data: Vec<i64> = (0..64).collect();
    let lay = l("((2,2),(4,2)):((1,8),(2,16))");
    let t = Tensor::new(&data[..], lay).unwrap();
    assert_eq!(t.get(22), Some(&26));
    for c in ["(2,5)", "((0,1),(1,1))", "22"] {
        assert_eq!(t.get_crd(&c.parse::<IntTuple>().unwrap()), Some(&26), "{c}");
    }
    // outside the domain: nothing
    assert_eq!(t.get(32), None);
    assert_eq!(t.get(-1), None);
    for c in ["(4,0)", "(0,8)", "((2,0),0)", "32", "(1,2,3)"] {
        assert_eq!(t.get_crd(&c.parse::<IntTuple>().unwrap()), None, "{c}");
    }
    // writes through a mutable view land where the layout says
    let mut buf = vec![0i64; 64];
    let mut m = Tensor::new(&mut buf[..], lay).unwrap();
    *m.get_mut(22).unwrap() = 7;
    assert_eq!(buf[26], 7);
}

/// The paper's Table 2 rows (COPY with different layouts), each against the reference loop.
#[test]
fn copy_table_2_rows() {
    for (src, dst) in [
        ("8:1", "8:1"),                   // 1-D array
        ("(4,8):(1,4)", "(4,8):(8,1)"),   // transpose
        ("8:3", "8:1"),                   // gather
        ("8:1", "8:3"),                   // scatter
        ("7:0", "7:1"),                   // broadcast
        ("(8,4):(4,1)", "(4,8):(1,4)"),   // reshape
        ("(4,8):(-8,1)", "(4,8):(1,4)"),  // negative strides (base below)
        ("((2,4),8):((1,16),2)", "64:1"), // hierarchical
    ] {
        let (ls, ld) = (l(src), l(dst));
        let base_s = if src.contains('-') { 24 } else { 0 };
        let a: Vec<i64> = (0..64).map(|k| 1000 + k).collect();
        let mut b = vec![-1i64; 64];
        let s = Tensor::with_base(&a[..], base_s, ls).unwrap();
        let mut d = Tensor::new(&mut b[..], ld).unwrap();
        copy(&s, &mut d).unwrap();
        let mut want = vec![-1i64; 64];
        for i in 0..ls.size() {
            let from = (base_s as i64 + ls.eval(i).unwrap()) as usize;
            want[ld.eval(i).unwrap() as usize] = a[from];
        }
        assert_eq!(b, want, "{src} -> {dst}");
    }
    // the precondition: equal domain sizes
    let a = [0; 8];
    let mut b = [0; 8];
    let e = copy(
        &Tensor::new(&a[..], l("8:1")).unwrap(),
        &mut Tensor::new(&mut b[..], l("4:1")).unwrap(),
    )
    .unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
}

/// `copy` on random layouts of equal size (the destination made injective by a compact layout of
/// a shuffled shape): equals the reference loop, element for element.
#[test]
fn copy_random_layouts() {
    let ran = std::cell::Cell::new(0u32);
    run(256, (layout(), any_seed()), |(src, seed)| {
        let n = src.size();
        if n > 4096 || src.cosize().unwrap() > 1 << 16 || src.image().unwrap()[0] < 0 {
            return Ok(());
        }
        let mut rng = Rng(seed);
        let mut modes: Vec<i64> = (0..src.leaf_count()).map(|k| src.leaf_at(k).0).collect();
        rng.shuffle(&mut modes);
        let dst = cute::compact_row_major(&IntTuple::flat(&modes).unwrap()).unwrap();
        let a: Vec<u32> = (0..src.cosize().unwrap() as u32)
            .map(|k| k * 7 + 1)
            .collect();
        let mut b = vec![0u32; n as usize];
        copy(
            &Tensor::new(&a[..], src).unwrap(),
            &mut Tensor::new(&mut b[..], dst).unwrap(),
        )
        .unwrap();
        for i in 0..n {
            let want = a[src.eval(i).unwrap() as usize];
            proptest::prop_assert_eq!(b[dst.eval(i).unwrap() as usize], want, "{} -> {}", src, dst);
        }
        ran.set(ran.get() + 1);
        Ok(())
    });
    assert!(ran.get() > 200, "only {} layouts copied", ran.get());
}

fn any_seed() -> impl proptest::strategy::Strategy<Value = u64> {
    proptest::prelude::any::<u64>()
}

/// The optimised `copy` and the reference loop agree on random pairs of equal-size layouts: any
/// strides (repeated offsets, broadcasts, non-injective destinations that fall back to the
/// reference loop, negative strides through a base), compared on the whole destination storage.
#[test]
fn optimised_copy_equals_the_reference_loop() {
    let planned = std::cell::Cell::new(0u32);
    run(
        600,
        (equal_size_pair(), any_seed()),
        |((src, dst), seed)| {
            let mut rng = Rng(seed);
            // flip some strides negative, compensated by the base
            let flip = |l: &Layout, rng: &mut Rng| -> (Layout, usize) {
                let (mut sh, mut st) = (Vec::new(), Vec::new());
                let mut base = 0i64;
                for k in 0..l.leaf_count() {
                    let (s, d) = l.leaf_at(k);
                    let neg = rng.below(4) == 0;
                    sh.push(s);
                    st.push(if neg { -d } else { d });
                    if neg {
                        base += d * (s - 1);
                    }
                }
                let flat = Layout::flat(&sh, &st).unwrap();
                (flat.unflatten(&l.shape()).unwrap(), base as usize)
            };
            let (src, sb) = flip(&src, &mut rng);
            let (dst, db) = flip(&dst, &mut rng);
            let span = |l: &Layout, _b: usize| {
                1 + (0..l.leaf_count())
                    .map(|k| {
                        let (s, d) = l.leaf_at(k);
                        (d.abs() * (s - 1)) as usize
                    })
                    .sum::<usize>()
            };
            let a: Vec<u32> = (0..span(&src, sb) as u32).map(|k| 3 * k + 1).collect();
            let mut want = vec![0u32; span(&dst, db)];
            let mut got = want.clone();
            let s = Tensor::with_base(&a[..], sb, src).unwrap();
            cute::copy_generic(&s, &mut Tensor::with_base(&mut want[..], db, dst).unwrap())
                .unwrap();
            copy(&s, &mut Tensor::with_base(&mut got[..], db, dst).unwrap()).unwrap();
            proptest::prop_assert_eq!(&got, &want, "{} -> {}", src, dst);
            if cute::copy_plan(&src, &dst).unwrap().is_some() {
                planned.set(planned.get() + 1);
            }
            Ok(())
        },
    );
    assert!(planned.get() > 100, "only {} pairs planned", planned.get());
}

/// The plan's common vector is the paper's maximal common vector (eq. (14)) for layouts whose
/// offsets start at 0 and whose destination is injective.
#[test]
fn plan_vector_is_the_max_common_vector() {
    let compared = std::cell::Cell::new(0u32);
    run(600, equal_size_pair(), |(src, dst)| {
        let Some(plan) = cute::copy_plan(&src, &dst).unwrap() else {
            return Ok(());
        };
        let Ok(k) = cute::max_common_vector(&src, &dst) else {
            return Ok(());
        };
        proptest::prop_assert_eq!(plan.vector, k, "{} -> {}", src, dst);
        compared.set(compared.get() + 1);
        Ok(())
    });
    assert!(
        compared.get() > 100,
        "only {} pairs compared",
        compared.get()
    );
}

#[test]
fn copy_plans_of_table_2_and_a_transpose() {
    let plan = |s: &str, d: &str| cute::copy_plan(&l(s), &l(d)).unwrap();
    // N-D array: one run of 16 (modes 8 and 2 merge), then 3 runs
    let p = plan("(8,2,3):(1,16,32)", "(8,2,3):(1,16,32)").unwrap();
    assert_eq!(p.vector, 8);
    // tensor transpose: runs of 8
    assert_eq!(
        plan("(8,(3,5)):(1,(57,8))", "(8,15):(1,8)").unwrap().vector,
        8
    );
    // a 64×64 transpose is blocked 32×32
    let p = plan("(64,64):(1,64)", "(64,64):(64,1)").unwrap();
    assert_eq!(p.vector, 1);
    assert_eq!(
        p.modes
            .iter()
            .map(|m| (m.n, m.src_stride, m.dst_stride))
            .collect::<Vec<_>>(),
        [(32, 64, 1), (32, 1, 64), (2, 2048, 32), (2, 32, 2048)]
    );
    // a constant destination is not injective: the reference loop runs
    assert_eq!(plan("7:0", "7:0"), None);
}

/// Every row of the paper's Table 2 on random data, as given and with each layout's strides
/// negated (the base moved to the other end), through `copy` and against a naive loop written
/// with explicit index arithmetic per row.
#[test]
fn table_2_rows_on_random_data_with_negative_strides() {
    type Want = fn(usize) -> (usize, usize); // i -> (src offset, dst offset) of the unflipped row
    let rows: [(&str, &str, usize, Want); 8] = [
        ("8:1", "8:1", 8, |i| (i, i)),
        ("(8,2,3):(1,16,32)", "(8,2,3):(1,16,32)", 48, |i| {
            let o = i % 8 + 16 * ((i / 8) % 2) + 32 * (i / 16);
            (o, o)
        }),
        ("(2,3,2):(42,1,128)", "12:1", 12, |i| {
            (42 * (i % 2) + (i / 2) % 3 + 128 * (i / 6), i)
        }),
        ("12:1", "(2,3,2):(42,1,128)", 12, |i| {
            (i, 42 * (i % 2) + (i / 2) % 3 + 128 * (i / 6))
        }),
        ("7:0", "7:1", 7, |i| (0, i)),
        ("7:0", "7:0", 7, |_| (0, 0)),
        ("(8,3):(1,8)", "(8,3):(3,1)", 24, |i| {
            (i % 8 + 8 * (i / 8), 3 * (i % 8) + i / 8)
        }),
        ("(8,(3,5)):(1,(57,8))", "(8,15):(1,8)", 120, |i| {
            (i % 8 + 57 * ((i / 8) % 3) + 8 * (i / 24), i)
        }),
    ];
    let mut rng = Rng(0x7ab1e2);
    let negate = |l: &Layout| -> (Layout, usize) {
        let (sh, st): (Vec<i64>, Vec<i64>) = (0..l.leaf_count()).map(|k| l.leaf_at(k)).unzip();
        let neg: Vec<i64> = st.iter().map(|d| -d).collect();
        let base: i64 = sh.iter().zip(&st).map(|(s, d)| d * (s - 1)).sum();
        let flat = Layout::flat(&sh, &neg).unwrap();
        (flat.unflatten(&l.shape()).unwrap(), base as usize)
    };
    for (src, dst, n, want) in rows {
        for (flip_src, flip_dst) in [(false, false), (true, false), (false, true), (true, true)] {
            let (ls, ld) = (l(src), l(dst));
            let (ls2, bs) = if flip_src { negate(&ls) } else { (ls, 0) };
            let (ld2, bd) = if flip_dst { negate(&ld) } else { (ld, 0) };
            let a: Vec<u64> = (0..ls.cosize().unwrap()).map(|_| rng.next()).collect();
            let mut b = vec![0u64; ld.cosize().unwrap() as usize];
            copy(
                &Tensor::with_base(&a[..], bs, ls2).unwrap(),
                &mut Tensor::with_base(&mut b[..], bd, ld2).unwrap(),
            )
            .unwrap();
            // a negated layout visits the offsets of the original mirrored: o -> base - o
            let mirror = |o: usize, flip: bool, base: usize| if flip { base - o } else { o };
            let mut expect = vec![0u64; b.len()];
            for i in 0..n {
                let (so, dof) = want(i);
                expect[mirror(dof, flip_dst, bd)] = a[mirror(so, flip_src, bs)];
            }
            assert_eq!(
                b, expect,
                "{src} -> {dst} (flipped src {flip_src}, dst {flip_dst})"
            );
        }
    }
}
