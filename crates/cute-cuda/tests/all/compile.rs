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
    for (c, cluster) in cases.iter().flat_map(|c| [(c, 1), (c, 2)]) {
        let Ok(p) = cute_cuda::tma_gemm::plan_gemm_tma_in(
            &c.a,
            &c.b,
            &c.c,
            c.ab,
            c.c_type,
            [8, 8],
            132,
            cluster,
        ) else {
            continue;
        };
        planned.push(format!("{} cluster {cluster}", c.name));
        let ptx = compile_ptx(&p.kernel.source, &p.kernel.name)
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", c.name, p.kernel.source));
        for want in [
            "wgmma.mma_async.sync.aligned.m64n256k16",
            "cp.async.bulk.tensor",
            "mbarrier.try_wait.parity",
            "setmaxnreg.inc.sync.aligned.u32 232",
            "setmaxnreg.dec.sync.aligned.u32 40",
        ] {
            assert!(ptx.contains(want), "{}: {want}", c.name);
        }
        // clusters of two share B's tile by multicast and release stages across the cluster
        let shared = ptx.contains(".multicast::cluster") && ptx.contains("mapa.shared::cluster");
        assert_eq!(shared, cluster == 2, "{} cluster {cluster}", c.name);
    }
    // NT/TN/NN/TT at multiples of 8 (f16 and bf16), the GETT, the batched case, both benchmarks,
    // each with one CTA per cluster and, where the row tiles pair up, two
    assert!(planned.len() >= 24, "{planned:?}");
}
