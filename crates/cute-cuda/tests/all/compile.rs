//! Every generated kernel compiles with NVRTC for sm_90a, where NVRTC is present (CI installs it
//! from the `nvidia-cuda-nvrtc` wheel); elsewhere the test says that it checked nothing.

use cute_cuda::atom::{self, DType};
use cute_cuda::compile::{ptx, ARCH};
use cute_cuda::copy::plan_copy;
use cute_cuda::gemm::plan_gemm;
use cute_cuda::{cases as run, verify, GpuError};

fn compile_ptx(src: &str, name: &str) -> Result<String, GpuError> {
    ptx(src, name, ARCH)
}

fn nvrtc_present() -> bool {
    match compile_ptx("extern \"C\" __global__ void k() {}", "k") {
        Ok(_) => true,
        Err(GpuError::NoDriver(m)) => {
            eprintln!("NVRTC not present, generated sources not compiled: {m}");
            if std::env::var_os("CUTE_REQUIRE_NVRTC").is_some() {
                panic!("CUTE_REQUIRE_NVRTC is set but NVRTC is missing: {m}");
            }
            false
        }
        Err(e) => panic!("{e}"),
    }
}

fn compiles(src: &str, name: &str) {
    if let Err(e) = compile_ptx(src, name) {
        panic!("{e}\n{src}");
    }
}

#[test]
fn copy_kernels_compile() {
    if !nvrtc_present() {
        return;
    }
    let mut cases = Vec::new();
    for t in [DType::F32, DType::Bf16] {
        cases.extend(run::table2_cases(t).unwrap());
    }
    cases.extend(run::permutation_cases(1, 1).unwrap());
    cases.extend(run::bandwidth_cases().unwrap());
    for c in &cases {
        let p = plan_copy(&c.src, &c.dst, c.dtype).unwrap();
        compiles(&p.source, &p.name);
    }
}

#[test]
fn gemm_kernels_compile() {
    if !nvrtc_present() {
        return;
    }
    for (m, n, k) in [(256, 256, 64), (301, 203, 77), (300, 200, 100)] {
        for ta in ['N', 'T'] {
            for tb in ['N', 'T'] {
                let (a, b, c) = crate::gemm::blas(m, n, k, ta, tb);
                for ct in [DType::F32, DType::Bf16] {
                    let p = plan_gemm(&a, &b, &c, DType::Bf16, ct).unwrap();
                    let ptx = compile_ptx(&p.kernel.source, &p.kernel.name)
                        .unwrap_or_else(|e| panic!("{e}\n{}", p.kernel.source));
                    assert!(ptx.contains("mma.sync.aligned.m16n8k16"));
                    assert!(ptx.contains("ldmatrix.sync.aligned.m8n8.x4"));
                }
            }
        }
    }
}

#[test]
fn atom_checks_compile() {
    if !nvrtc_present() {
        return;
    }
    let mut checks = vec![
        verify::mma_check(&atom::mma_sm80_16x8x16(DType::Bf16).unwrap(), 1, false).unwrap(),
        verify::mma_check(&atom::mma_sm80_16x8x16(DType::F16).unwrap(), 1, false).unwrap(),
        verify::mma_check(&atom::mma_sm80_16x8x8_tf32().unwrap(), 1, false).unwrap(),
        verify::cp_async_check(&atom::cp_async_16b().unwrap(), 1, false).unwrap(),
        verify::mma_check(
            &atom::mma_sm80(8, DType::F16, DType::F32).unwrap(),
            1,
            false,
        )
        .unwrap(),
        verify::mma_check(
            &atom::mma_sm80(8, DType::Bf16, DType::F32).unwrap(),
            1,
            true,
        )
        .unwrap(),
        verify::mma_check(
            &atom::mma_sm80(8, DType::F16, DType::F16).unwrap(),
            1,
            false,
        )
        .unwrap(),
        verify::mma_check(
            &atom::mma_sm80(16, DType::F16, DType::F16).unwrap(),
            1,
            false,
        )
        .unwrap(),
        verify::wgmma_check(
            &atom::wgmma_64xnx16(64, DType::Bf16).unwrap(),
            atom::GmmaSwizzle::B128,
            1,
            false,
        )
        .unwrap(),
        verify::wgmma_check(
            &atom::wgmma_64xnx16(64, DType::Bf16).unwrap(),
            atom::GmmaSwizzle::None,
            1,
            false,
        )
        .unwrap(),
    ];
    // every wgmma of the catalogue (the 24 dense floating-point ones, A from shared memory or registers)
    let types = [
        DType::F16,
        DType::Bf16,
        DType::Tf32,
        DType::E4m3,
        DType::E5m2,
    ];
    let mut wgmmas = 0;
    for c in [DType::F32, DType::F16] {
        for ab in types {
            for b in types {
                for src in [cute::atom::GmmaA::SS, cute::atom::GmmaA::RS] {
                    if let Ok(a) = cute::atom::wgmma(64, ab, b, c, src) {
                        checks.push(
                            verify::wgmma_check(&a, atom::GmmaSwizzle::B128, 1, true).unwrap(),
                        );
                        wgmmas += 1;
                    }
                }
            }
        }
    }
    assert_eq!(wgmmas, 24);
    for (cache, bytes, zfill) in [
        (atom::CpAsyncCache::Always, 4, false),
        (atom::CpAsyncCache::Always, 8, false),
        (atom::CpAsyncCache::Always, 16, true),
        (atom::CpAsyncCache::Global, 16, true),
    ] {
        let a = atom::cp_async(cache, bytes, zfill).unwrap();
        checks.push(verify::cp_async_check(&a, 1, true).unwrap());
    }
    for num in [1, 2, 4] {
        for trans in [false, true] {
            checks.push(
                verify::ldmatrix_check(&atom::ldmatrix(num, trans).unwrap(), num, trans, false)
                    .unwrap(),
            );
            checks.push(
                verify::stmatrix_check(&atom::stmatrix(num, trans).unwrap(), num, false).unwrap(),
            );
        }
    }
    for c in checks {
        compiles(&c.source, "atom_check");
        // the CUBIN too: the assembler reads the inline PTX of the instructions under test
        if let Err(e) = cute_cuda::compile::cubin(&c.source, "atom_check", ARCH) {
            panic!("{}: {e}", c.name);
        }
    }
}

#[test]
fn wgmma_kernels_compile() {
    if !nvrtc_present() {
        return;
    }
    let mut cases: Vec<run::GemmCase> = run::gemm_cases().unwrap();
    cases.extend(run::gemm_bench_cases().unwrap());
    let mut planned = 0;
    for c in &cases {
        let Ok(p) = cute_cuda::wgmma::plan_gemm_wgmma(&c.a, &c.b, &c.c, c.ab, c.c_type) else {
            continue;
        };
        planned += 1;
        let ptx = compile_ptx(&p.kernel.source, &p.kernel.name)
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", c.name, p.kernel.source));
        assert!(
            ptx.contains("wgmma.mma_async.sync.aligned.m64n256k16"),
            "{}",
            c.name
        );
    }
    // NT/TN/NN/TT at multiples of 8, the GETT, the batched case and both benchmarks
    assert!(planned >= 12, "{planned}");
}

#[test]
fn tma_gemm_kernels_compile() {
    if !nvrtc_present() {
        return;
    }
    let mut cases: Vec<run::GemmCase> = run::gemm_cases().unwrap();
    cases.extend(run::gemm_bench_cases().unwrap());
    let mut planned = Vec::new();
    let mut split = Vec::new();
    let mut forced_split = 0;
    // one CTA per cluster at every tile width; clusters of two at the chosen width
    let widths = cute_cuda::tma_gemm::TILE_WIDTHS.map(|bn| (1, Some(bn)));
    for (c, (cluster, width)) in cases
        .iter()
        .flat_map(|c| widths.into_iter().chain([(2, None)]).map(move |w| (c, w)))
    {
        let p = match width {
            Some(bn) => cute_cuda::tma_gemm::plan_gemm_tma_tile(
                &c.a,
                &c.b,
                &c.c,
                c.ab,
                c.c_type,
                [8, 8],
                132,
                cluster,
                bn,
            ),
            None => cute_cuda::tma_gemm::plan_gemm_tma_in(
                &c.a,
                &c.b,
                &c.c,
                c.ab,
                c.c_type,
                [8, 8],
                132,
                cluster,
            ),
        };
        let Ok(p) = p else {
            continue;
        };
        // the plan, and with one CTA per cluster, its last wave split where the model would not
        // (on the heap: a plan is large for a debug build's stack)
        let mut plans = vec![(Box::new(p), false)];
        if plans[0].0.stream_k.is_none() {
            if let Ok(f) = plans[0].0.as_ref().clone().split_last_wave(132) {
                if f.stream_k.is_some() {
                    plans.push((Box::new(f), true));
                }
            }
        }
        for (p, is_forced) in plans {
            let bn = p.tile.1;
            if is_forced {
                forced_split += 1;
            } else {
                planned.push(format!("{} cluster {cluster} n{bn}", c.name));
            }
            if p.stream_k.is_some() && !is_forced {
                split.push(format!("{} n{bn}", c.name));
            }
            let ptx = compile_ptx(&p.kernel.source, &p.kernel.name)
                .unwrap_or_else(|e| panic!("{}: {e}\n{}", c.name, p.kernel.source));
            assert!(
                ptx.contains(&format!("wgmma.mma_async.sync.aligned.m64n{bn}k16")),
                "{} n{bn}",
                c.name
            );
            for want in [
                "cp.async.bulk.tensor",
                "mbarrier.try_wait.parity",
                "setmaxnreg.inc.sync.aligned.u32 232",
                "setmaxnreg.dec.sync.aligned.u32 40",
            ] {
                assert!(ptx.contains(want), "{}: {want}", c.name);
            }
            // clusters of two share B's tile by multicast and release stages across the cluster, each
            // arrival a CTA-scope release (a cluster-scope one fenced every arrival: half the rate)
            let shared =
                ptx.contains(".multicast::cluster") && ptx.contains("mapa.shared::cluster");
            assert_eq!(shared, cluster == 2, "{} cluster {cluster}", c.name);
            assert!(
                !ptx.contains("release.cluster.shared"),
                "{} cluster {cluster}",
                c.name
            );
            // the last partial wave split along K (one CTA per cluster, where it pays): the partial
            // sums through the workspace, each flag raised by a release and read by an acquire at
            // GPU scope
            assert_eq!(p.stream_k.is_some(), p.kernel.workspace > 0, "{}", c.name);
            assert!(p.stream_k.is_none() || cluster == 1);
            // a split tile's part starts past k-block 0: the stage before its first is released by
            // the previous item, not again (an extra arrival on "empty" hung the first build)
            if p.stream_k.is_some() {
                assert!(
                    p.kernel
                        .source
                        .contains("if ((kt - k0) > 0 && t == 0) cute_mbar_arrive"),
                    "{}",
                    c.name
                );
            }
            assert_eq!(
                ptx.contains("st.release.gpu.global.u32")
                    && ptx.contains("ld.acquire.gpu.global.u32"),
                p.stream_k.is_some(),
                "{} n{bn}",
                c.name
            );
            // every MMA's scale-d is the run-time predicate (zero for a tile's first), none constant
            assert!(!ptx.contains("setp.ne.b32 p, 1, 0"), "{}", c.name);
            // a 16-bit C stored by TMA overlaps its epilogue with the next tile's MMAs (its boxes
            // stored from the packed values inside the k-loop); where a tile has one box, the
            // staging buffers alternate by tile
            assert_eq!(
                p.kernel.source.contains("x[k] = pk[v >> 1];"),
                p.overlap(),
                "{}",
                c.name
            );
            if p.c_store.is_some() {
                let one_box = bn == cute_cuda::tma_gemm::c_box(c.c_type).1;
                assert_eq!(
                    p.kernel.source.contains("((ch + etile) & 1)"),
                    one_box,
                    "{} n{bn}",
                    c.name
                );
            }
            // a 16-bit C stored by TMA is staged by stmatrix, free of bank conflicts
            if let Some(cs) = &p.c_store {
                let st = p.c_staging.as_ref();
                assert_eq!(st.is_some(), c.c_type.bytes() == 2, "{}", c.name);
                if let Some(st) = st {
                    assert_eq!(st.wavefronts.0, st.wavefronts.1, "{}: {st:?}", c.name);
                    assert!(ptx.contains("stmatrix.sync.aligned.m8n8.x4"), "{}", c.name);
                    assert!(ptx.contains("cp.async.bulk.tensor") && ptx.contains("bulk_group"));
                    assert!(!cs.smem.swizzle.is_identity(), "{}: {}", c.name, cs.smem);
                }
            }
        }
    }
    // NT/TN/NN/TT at multiples of 8 (f16 and bf16), the GETT, the batched case, both benchmarks,
    // each with one CTA per cluster at the three widths and, where the row tiles pair up, two
    assert!(planned.len() >= 72, "{}: {planned:?}", planned.len());
    eprintln!(
        "stream-K: {} of {} plans: {split:?}; {forced_split} more split where it would not pay",
        split.len(),
        planned.len()
    );
    // the 8192³ benchmark split by the model at each width; every other case with a partial
    // last wave split by force
    assert!(split.len() >= 3, "{split:?}");
    assert!(forced_split >= 60, "{forced_split}");
    for bn in cute_cuda::tma_gemm::TILE_WIDTHS {
        let at = planned
            .iter()
            .filter(|p| p.ends_with(&format!("cluster 1 n{bn}")));
        assert!(at.count() >= 20, "n{bn}: {planned:?}");
    }
}

/// The staging of a 16-bit C for its TMA store (64 × 64 boxes): `stmatrix.trans` into 128-byte
/// swizzled columns where C's rows are contiguous, `stmatrix` into 128-byte swizzled rows where its
/// columns are, the swizzles those the bank-conflict analysis finds conflict-free (an unswizzled
/// box takes 8 times the ideal wavefronts); f32 is staged one value per store.
#[test]
fn tma_gemm_c_staging_by_bank_analysis() {
    let a: cute::Layout = "(1024,512):(512,1)".parse().unwrap();
    let b: cute::Layout = "(768,512):(512,1)".parse().unwrap();
    for (c, trans, swizzle) in [
        ("(1024,768):(1,1024)", true, "Sw<3,3,3>"),
        ("(1024,768):(768,1)", false, "Sw<3,3,3>"),
    ] {
        let c: cute::Layout = c.parse().unwrap();
        let p =
            cute_cuda::tma_gemm::plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132)
                .unwrap();
        let st = p.c_staging.clone().unwrap();
        assert_eq!((st.trans, st.wavefronts), (trans, (8, 8)), "{c}");
        assert_eq!(p.c_store.unwrap().smem.swizzle.to_string(), swizzle, "{c}");
        let want = if trans {
            "m8n8.x4.trans.shared.b16"
        } else {
            "m8n8.x4.shared.b16"
        };
        assert!(p.kernel.source.contains(want), "{c}");
        let f32 =
            cute_cuda::tma_gemm::plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::F32, [8, 8], 132)
                .unwrap();
        assert!(f32.c_store.is_some() && f32.c_staging.is_none(), "{c}");
        assert!(!f32.kernel.source.contains("stmatrix"), "{c}");
    }
    // the unswizzled boxes' wavefronts, for the record of why a swizzle is needed
    let col: cute::Layout = "((8,2,2),(8,2)):((64,8,512),(1,1024))".parse().unwrap();
    let row: cute::Layout = "((8,2,2),(8,2)):((1,8,512),(64,1024))".parse().unwrap();
    let plain_col: cute::Layout = "(64,64):(1,64)".parse().unwrap();
    let plain_row: cute::Layout = "(64,64):(64,1)".parse().unwrap();
    assert_eq!(
        cute::bank_conflicts(&plain_col, &col, 2, 8)
            .unwrap()
            .total(),
        64
    );
    assert_eq!(
        cute::bank_conflicts(&plain_row, &row, 2, 8)
            .unwrap()
            .total(),
        64
    );
}

/// The TMA kernel indexes its tile grids (the loads' boxes, C's stored boxes) in 32 bits where
/// every index fits in 31, and in 64 where one does not: a plan of 2^44 elements of A (planning
/// allocates nothing) takes 64-bit indices for A's loads, and both kinds compile.
#[test]
fn tma_tile_grid_indices_widen_past_31_bits() {
    use cute_cuda::tma_gemm::plan_gemm_tma;
    // (M, N, K, L) with A's boxes `M/128 · K/64 · L`: 2^24 for L = 1, 2^31 for L = 128
    let (m, n, k) = (1i64 << 21, 256i64, 1i64 << 16);
    for (l, wide) in [(1i64, false), (128, true)] {
        let a = format!("({m},{k},{l}):(1,{m},{})", m * k).parse().unwrap();
        let b = format!("({n},{k},{l}):({k},1,{})", n * k).parse().unwrap();
        let c = format!("({m},{n},{l}):(1,{m},{})", m * n).parse().unwrap();
        let p = plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132).unwrap();
        let src = &p.kernel.source;
        // A's grid needs 64 bits at L = 128; B's (`N/256 · K/64 · L`, 2^17) never does
        assert_eq!(src.contains("const long long tq"), wide, "L = {l}");
        assert!(src.contains("const unsigned tq"), "L = {l}");
        if nvrtc_present() {
            compiles(src, &p.kernel.name);
        }
    }
}

/// The overlapped epilogue stores the previous tile's boxes after the k-block's stage release
/// where a tile has at most 32 k-blocks (K <= 2048 at BK = 64), before the k-block's wait
/// otherwise; both kernels compile.
#[test]
fn tma_previous_tile_stored_after_the_release_on_short_reductions() {
    use cute_cuda::tma_gemm::plan_gemm_tma;
    for (k, late) in [(1024i64, true), (2048, true), (2112, false), (8192, false)] {
        let a = format!("(4096,{k}):(1,4096)").parse().unwrap();
        let b = format!("(4096,{k}):({k},1)").parse().unwrap();
        let c = "(4096,4096):(1,4096)".parse().unwrap();
        let p = plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132).unwrap();
        assert!(p.overlap(), "K = {k}");
        let src = &p.kernel.source;
        let at = |needle: &str| {
            src.find(needle)
                .unwrap_or_else(|| panic!("K = {k}: no {needle:?}"))
        };
        // in the k-block loop: the first box store, the wait for the previous block and its release
        let store = at("if (pend) {");
        let wait = at("wgmma.wait_group.sync.aligned 1;");
        let release = at("cute_mbar_arrive(empty");
        assert!(wait < release, "K = {k}");
        assert_eq!(store > release, late, "K = {k}");
        assert_eq!(store < wait, !late, "K = {k}");
        if nvrtc_present() {
            compiles(src, &p.kernel.name);
        }
    }
}
