//! GEMM plans: majorness and vectors from the layouts, the swizzles, the ldmatrix lanes solved
//! from the atoms, GETT by folding, refusals.

use cute::Layout;
use cute_cuda::atom::{DType, Major};
use cute_cuda::gemm::{plan_gemm, GpuGemmPlan};
use cute_cuda::tma_gemm::plan_gemm_tma;
use cute_cuda::wgmma::plan_gemm_wgmma;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

/// BLAS-style layouts `(A, B, C)` (`ta`/`tb` = `N` or `T`), from the runner's cases.
pub fn blas(m: i64, n: i64, k: i64, ta: char, tb: char) -> (Layout, Layout, Layout) {
    let c = cute_cuda::cases::blas_case(m, n, k, ta, tb, DType::Bf16, DType::F32).unwrap();
    (c.a, c.b, c.c)
}

fn plan(a: &Layout, b: &Layout, c: &Layout) -> GpuGemmPlan {
    plan_gemm(a, b, c, DType::Bf16, DType::F32).unwrap()
}

#[test]
fn majorness_from_the_layouts() {
    for (ta, tb, ma, mb) in [
        ('N', 'N', Major::MN, Major::K),
        ('N', 'T', Major::MN, Major::MN),
        ('T', 'N', Major::K, Major::K),
        ('T', 'T', Major::K, Major::MN),
    ] {
        let (a, b, c) = blas(512, 256, 128, ta, tb);
        let p = plan(&a, &b, &c);
        assert_eq!((p.a.major, p.b.major), (ma, mb), "{ta}{tb}");
        assert_eq!((p.a.vector, p.b.vector), (8, 8));
        // both access patterns conflict-free with the chosen swizzle
        for o in [&p.a, &p.b] {
            let sw = cute::ComposedLayout::new(o.swizzle, 0, o.smem);
            for tv in [&o.tv_load, &o.tv_ldsm] {
                let r = cute::bank_conflicts(&sw, tv, 2, 8).unwrap();
                assert!(r.is_conflict_free(), "{ta}{tb} {} {tv}: {r:?}", o.name);
            }
        }
    }
}

#[test]
fn ragged_extents_narrow_the_vector() {
    // K = 100: a multiple of 4, not of 8
    let (a, b, c) = blas(300, 200, 100, 'T', 'N');
    let p = plan(&a, &b, &c);
    assert_eq!((p.a.vector, p.b.vector), (4, 4));
    let (a, b, c) = blas(301, 203, 77, 'N', 'T');
    let p = plan(&a, &b, &c);
    assert_eq!((p.a.vector, p.b.vector), (1, 1));
    assert_eq!(p.kernel.grid, (3 * 2, 1));
}

#[test]
fn lanes_solved_from_the_atoms() {
    let (a, b, c) = blas(256, 256, 64, 'T', 'N');
    let p = plan(&a, &b, &c);
    // K-major A through ldmatrix.x4: lane s addresses row s % 16 at k = 8 (s / 16)
    let want: Vec<(i64, i64)> = (0..32).map(|s| (s % 16, 8 * (s / 16))).collect();
    assert_eq!(p.a.lanes, want);
    // K-major B: lanes 0-7 n 0-7 k 0; 8-15 n 0-7 k 8; 16-23 n 8-15 k 0; 24-31 n 8-15 k 8
    let want: Vec<(i64, i64)> = (0..32)
        .map(|s| (s % 8 + 8 * (s / 16), 8 * ((s / 8) % 2)))
        .collect();
    assert_eq!(p.b.lanes, want);
    assert_eq!(p.a.ldsm.name, "SM75_U32x4_LDSM_N");
    let (a, b, c) = blas(256, 256, 64, 'N', 'T');
    let p = plan(&a, &b, &c);
    assert_eq!(p.a.ldsm.name, "SM75_U16x8_LDSM_T");
}

#[test]
fn gett_by_folding() {
    // C_stqp = A_stupr B_qtru, every tensor column-major in its index order (s fastest in A and
    // C, q fastest in B): (M,N,K,L) = ((s,p), q, (u,r), t)
    let (s, t, u, p, r, q) = (64i64, 4i64, 32i64, 16i64, 8i64, 96i64);
    let a_str = [1, s, s * t, s * t * u, s * t * u * p]; // s t u p r
    let b_str = [1, q, q * t, q * t * r]; // q t r u
    let c_str = [1, s, s * t, s * t * q]; // s t q p
    let a = l(&format!(
        "(({s},{p}),({u},{r}),{t}):(({},{}),({},{}),{})",
        a_str[0], a_str[3], a_str[2], a_str[4], a_str[1]
    ));
    let b = l(&format!(
        "({q},({u},{r}),{t}):({},({},{}),{})",
        b_str[0], b_str[3], b_str[2], b_str[1]
    ));
    let c = l(&format!(
        "(({s},{p}),{q},{t}):(({},{}),{},{})",
        c_str[0], c_str[3], c_str[2], c_str[1]
    ));
    let plan = plan_gemm(&a, &b, &c, DType::Bf16, DType::Bf16).unwrap();
    assert_eq!(plan.kernel.extents, (s * p, q, u * r, t));
    assert_eq!((plan.a.major, plan.b.major), (Major::MN, Major::MN));
    assert_eq!(plan.kernel.grid.1, t as u32);
    assert!(plan.kernel.source.contains("cvt.rn.bf16.f32"));
}

#[test]
fn refusals() {
    let (a, b, _) = blas(64, 64, 64, 'T', 'N');
    // C not injective
    let e = plan_gemm(&a, &b, &l("(64,64):(1,0)"), DType::Bf16, DType::F32).unwrap_err();
    assert!(e.to_string().contains("not injective"), "{e}");
    // extents disagree: the algebra's precondition
    let e = plan_gemm(&a, &b, &l("(32,64):(1,32)"), DType::Bf16, DType::F32).unwrap_err();
    assert!(e.to_string().contains("precondition M"), "{e}");
    // types
    assert!(plan_gemm(&a, &b, &l("(64,64):(1,64)"), DType::F32, DType::F32).is_err());
    assert!(plan_gemm(&a, &b, &l("(64,64):(1,64)"), DType::Bf16, DType::F16).is_err());
    // offsets that fit an i64 but whose bytes do not: refused by every planner, naming the operand
    let far = l("(64,64):(1,144115188075855872)");
    let c = l("(64,64):(1,64)");
    for e in [
        plan_gemm(&far, &b, &c, DType::Bf16, DType::F32).unwrap_err(),
        plan_gemm_wgmma(&far, &b, &c, DType::Bf16, DType::F32).unwrap_err(),
        plan_gemm_tma(&far, &b, &c, DType::Bf16, DType::F32, [8, 8], 132).unwrap_err(),
    ] {
        assert_eq!(
            e.to_string(),
            "gemm plan: the A (64,64):(1,144115188075855872) reaches offsets \
             0..=9079256848778919999 of bf16: more bytes than an address space holds",
        );
    }
}

/// Every check and benchmark case either plans on the cp.async wgmma kernel or is refused as
/// unsupported (never another error); the portable kernel plans every one.
#[test]
fn wgmma_plans() {
    let mut planned = 0;
    for c in cute_cuda::cases::gemm_cases()
        .unwrap()
        .iter()
        .chain(cute_cuda::cases::gemm_bench_cases().unwrap().iter())
    {
        match cute_cuda::wgmma::plan_gemm_wgmma(&c.a, &c.b, &c.c, c.ab, c.c_type) {
            Ok(p) => {
                assert!(p.describe().contains("wgmma"), "{}", c.name);
                planned += 1;
            }
            Err(e) => assert!(
                matches!(e, cute_cuda::GpuError::Unsupported { .. }),
                "{}: {e:?}",
                c.name
            ),
        }
        plan_gemm(&c.a, &c.b, &c.c, c.ab, c.c_type)
            .unwrap_or_else(|e| panic!("{}: the portable kernel: {e}", c.name));
    }
    // NT/TN/NN/TT at multiples of 8, the GETTs, the batched cases and the benchmarks
    assert!(planned >= 12, "{planned}");
}
