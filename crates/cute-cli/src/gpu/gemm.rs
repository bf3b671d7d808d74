//! The GEMM checks and benchmarks of `cute gpu`: random operands, poisoned C, the planned
//! kernel (the Hopper `wgmma` one or the portable `mma.sync` one, chosen by the caller), C
//! compared with an fp64 reference; with `bench`, the rate.

use cute::Layout;
use cute_cuda::atom::DType;
use cute_cuda::cases::{GemmCase, Rng};
use cute_cuda::device::{Arg, Gpu};
use cute_cuda::GpuError;

use super::copy::helper_source;
use super::Row;

/// The poison written into C before a GEMM: a NaN pattern no result has.
const POISON: u32 = 0xFFFF_FFFF;

fn decode(t: DType, bits: u16) -> f64 {
    match t {
        DType::Bf16 => f32::from_bits((bits as u32) << 16) as f64,
        _ => {
            let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
            let e = ((bits >> 10) & 0x1F) as i32;
            let f = (bits & 0x3FF) as f64;
            let mag = match e {
                0 => f * 2f64.powi(-24),
                31 => f64::NAN,
                _ => (1.0 + f / 1024.0) * 2f64.powi(e - 15),
            };
            sign * mag
        }
    }
}

fn offsets(l: &Layout) -> Result<Vec<i64>, GpuError> {
    let n = l.size();
    (0..n).map(|i| Ok(l.eval(i)?)).collect()
}

/// Which GEMM kernel a run plans: the portable `mma.sync` one, the Hopper `wgmma` one that loads
/// by `cp.async`, or the Hopper one fed by TMA (warp-specialised, persistent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GemmPath {
    /// `mma.sync` (any architecture from sm_80).
    MmaSync,
    /// `wgmma`, operands by `cp.async`.
    Wgmma,
    /// `wgmma`, operands by TMA, warp-specialised and persistent, one CTA per cluster: the
    /// library's Hopper kernel.
    Tma,
    /// As `Tma`, in clusters of two CTAs sharing B where the row tiles pair up (measured at the
    /// rate of one CTA per cluster on an H100, not faster: kept as a benchmark row).
    TmaCluster2,
    /// As `Tma` with the tile's width given (one of [`cute_cuda::tma_gemm::TILE_WIDTHS`]) rather
    /// than chosen: every width checked on every case, and timed.
    TmaTile(i64),
    /// As `Tma` with every tile whole (no stream-K split of the last wave): timed beside it.
    TmaDataParallel,
    /// As `Tma` with the last, partial wave split along K where the model would not split it
    /// (checks of the split kernel on small problems); not applicable where `Tma` splits.
    TmaStreamK,
}

impl GemmPath {
    /// Every path, fastest first.
    pub const ALL: [GemmPath; 4] = [
        GemmPath::Tma,
        GemmPath::TmaCluster2,
        GemmPath::Wgmma,
        GemmPath::MmaSync,
    ];

    /// The paths `cute gpu` checks on every GEMM case: the TMA kernel at each tile width (the
    /// chosen one is one of them), with its last wave split along K where the chosen plan does
    /// not split it, in clusters of two, and the `cp.async` and portable kernels.
    pub const CHECKED: [GemmPath; 7] = [
        GemmPath::TmaTile(256),
        GemmPath::TmaTile(128),
        GemmPath::TmaTile(64),
        GemmPath::TmaStreamK,
        GemmPath::TmaCluster2,
        GemmPath::Wgmma,
        GemmPath::MmaSync,
    ];

    /// The paths `cute gpu --only perf` times: [`Self::ALL`] and every tile width (the cost
    /// model of [`cute_cuda::tma_gemm::tile_widths`] is measured by them).
    pub const TIMED: [GemmPath; 8] = [
        GemmPath::Tma,
        GemmPath::TmaDataParallel,
        GemmPath::TmaTile(256),
        GemmPath::TmaTile(128),
        GemmPath::TmaTile(64),
        GemmPath::TmaCluster2,
        GemmPath::Wgmma,
        GemmPath::MmaSync,
    ];

    /// The row and file name of the path.
    pub fn name(self) -> &'static str {
        match self {
            GemmPath::MmaSync => "mma.sync",
            GemmPath::Wgmma => "wgmma",
            GemmPath::Tma => "wgmma-tma",
            GemmPath::TmaCluster2 => "wgmma-tma-2cta",
            GemmPath::TmaDataParallel => "wgmma-tma-dp",
            GemmPath::TmaStreamK => "wgmma-tma-sk",
            GemmPath::TmaTile(256) => "wgmma-tma-n256",
            GemmPath::TmaTile(128) => "wgmma-tma-n128",
            GemmPath::TmaTile(64) => "wgmma-tma-n64",
            GemmPath::TmaTile(_) => "wgmma-tma-n?",
        }
    }

    /// The Hopper path that plans `case` best (TMA, else `cp.async`), or None.
    pub fn best_hopper(case: &GemmCase, sms: u32) -> Option<GemmPath> {
        [GemmPath::Tma, GemmPath::Wgmma]
            .into_iter()
            .find(|&p| gemm_launch(case, p, sms).is_ok())
    }
}

/// Runs one GEMM case: random operands, poisoned C, the kernel of `path`; C compared with an fp64
/// reference (every element, or `sample` random elements when given); with `bench`, the rate.
pub fn run_gemm(
    gpu: &std::sync::Arc<Gpu>,
    case: &GemmCase,
    seed: u64,
    sample: Option<usize>,
    bench: bool,
    path: GemmPath,
) -> Row {
    let name = format!("{} {}", path.name(), case.name);
    let mut row = Row::new(
        if bench { "gemm-perf" } else { "gemm" },
        name,
        Ok(String::new()),
    );
    match run_gemm_inner(gpu, case, seed, sample, bench, path, &mut row) {
        Ok(d) => row.detail = d,
        Err(e) => row.status = format!("FAIL: {e}"),
    }
    row
}

/// The kernel of `path`'s plan of `case` on a GPU of `sms` multiprocessors.
pub(super) fn gemm_launch(
    case: &GemmCase,
    path: GemmPath,
    sms: u32,
) -> Result<cute_cuda::gemm::GemmKernel, GpuError> {
    let (a, b, c) = (&case.a, &case.b, &case.c);
    Ok(match path {
        GemmPath::Tma => {
            cute_cuda::tma_gemm::plan_gemm_tma(a, b, c, case.ab, case.c_type, [8, 8], sms)?.kernel
        }
        GemmPath::TmaCluster2 => {
            cute_cuda::tma_gemm::plan_gemm_tma_in(a, b, c, case.ab, case.c_type, [8, 8], sms, 2)?
                .kernel
        }
        GemmPath::TmaStreamK => {
            let p = cute_cuda::tma_gemm::plan_gemm_tma(a, b, c, case.ab, case.c_type, [8, 8], sms)?;
            if p.stream_k.is_some() {
                return Err(GpuError::unsupported(
                    "gemm check",
                    "the chosen plan splits its last wave already (path wgmma-tma)",
                ));
            }
            let p = p.split_last_wave(sms)?;
            if p.stream_k.is_none() {
                return Err(GpuError::unsupported(
                    "gemm check",
                    "no partial last wave of two or more k-blocks to split",
                ));
            }
            p.kernel
        }
        GemmPath::TmaDataParallel => {
            cute_cuda::tma_gemm::plan_gemm_tma(a, b, c, case.ab, case.c_type, [8, 8], sms)?
                .data_parallel()?
                .kernel
        }
        GemmPath::TmaTile(bn) => {
            cute_cuda::tma_gemm::plan_gemm_tma_tile(
                a,
                b,
                c,
                case.ab,
                case.c_type,
                [8, 8],
                sms,
                1,
                bn,
            )?
            .kernel
        }
        GemmPath::Wgmma => cute_cuda::wgmma::plan_gemm_wgmma(a, b, c, case.ab, case.c_type)?.kernel,
        GemmPath::MmaSync => cute_cuda::gemm::plan_gemm(a, b, c, case.ab, case.c_type)?.kernel,
    })
}

#[allow(clippy::too_many_arguments)]
fn run_gemm_inner(
    gpu: &std::sync::Arc<Gpu>,
    case: &GemmCase,
    seed: u64,
    sample: Option<usize>,
    bench: bool,
    path: GemmPath,
    row: &mut Row,
) -> Result<String, GpuError> {
    let p = gemm_launch(case, path, gpu.sm_count.max(1) as u32)?;
    let kernel = gpu.compile(&p.source, &p.name)?;
    let launch = gpu.resident_grid(&kernel, p.grid, p.block, p.smem_bytes, p.cluster)?;
    let len = |r: (i64, i64)| (r.1 - r.0 + 1) as usize;
    let (la, lb, lc) = (len(p.ranges[0]), len(p.ranges[1]), len(p.ranges[2]));
    let helpers16 = helper_source(case.ab);
    let fill = gpu.compile(&helpers16, "fill_random")?;
    let a = gpu.zeros::<u16>(la)?;
    let b = gpu.zeros::<u16>(lb)?;
    let grid = (gpu.sm_count as u32) * 8;
    for (buf, len, s) in [(&a, la, seed), (&b, lb, seed ^ 0x5555)] {
        let args = [Arg::Ptr(gpu.ptr(buf, 0)), Arg::I64(len as i64), Arg::U64(s)];
        gpu.launch(&fill, grid, 256, 0, &args)?;
    }
    let wide = case.c_type == DType::F32;
    let c32 = if wide {
        Some(gpu.upload(&vec![POISON; lc])?)
    } else {
        None
    };
    let c16 = if wide {
        None
    } else {
        Some(gpu.upload(&vec![0xFFFFu16; lc])?)
    };
    let pc = match (&c32, &c16) {
        (Some(c), _) => gpu.ptr(c, 0),
        (_, Some(c)) => gpu.ptr(c, 0),
        _ => 0,
    };
    // C = alpha·A·B + 0·C: the poison is never read. The checks of the 128-wide TMA tile take
    // alpha = -0.5 (exact in every type), the others and every timing 1: both branches of the
    // epilogue's packing (which skips the products where alpha is 1) on every case
    let alpha = if !bench && path == GemmPath::TmaTile(128) {
        -0.5
    } else {
        1.0
    };
    let args = cute_cuda::tma::run::gemm_args(
        &p.tma,
        [gpu.ptr(&a, 0), gpu.ptr(&b, 0), pc],
        alpha as f32,
        0.0,
    )?;
    // each launch with the workspace's next epoch (a stream-K schedule's), where it takes one
    let run = || -> Result<(), GpuError> {
        let mut args = args.clone();
        args.extend(gpu.workspace_args(cute_cuda::Stream::OWN, p.workspace)?);
        gpu.launch_grid(&kernel, launch, p.block, p.smem_bytes, &args)
    };
    run()?;
    gpu.sync()?;
    // C back as f64
    let out: Vec<f64> = match (&c32, &c16) {
        (Some(c), _) => gpu
            .download(c)?
            .into_iter()
            .map(|x| f32::from_bits(x) as f64)
            .collect(),
        (_, Some(c)) => gpu
            .download(c)?
            .into_iter()
            .map(|x| decode(case.c_type, x))
            .collect(),
        _ => Vec::new(),
    };
    let ha: Vec<f64> = gpu
        .download(&a)?
        .into_iter()
        .map(|x| decode(case.ab, x))
        .collect();
    let hb: Vec<f64> = gpu
        .download(&b)?
        .into_iter()
        .map(|x| decode(case.ab, x))
        .collect();
    let (m, n, k, l) = p.extents;
    let (am, ak, al) = (
        offsets(&p.modes[0].0)?,
        offsets(&p.modes[0].1)?,
        offsets(&p.modes[0].2)?,
    );
    let (bn, bk, bl) = (
        offsets(&p.modes[1].0)?,
        offsets(&p.modes[1].1)?,
        offsets(&p.modes[1].2)?,
    );
    let (cm, cn, cl) = (
        offsets(&p.modes[2].0)?,
        offsets(&p.modes[2].1)?,
        offsets(&p.modes[2].2)?,
    );
    let (a0, b0, c0) = (-p.ranges[0].0, -p.ranges[1].0, -p.ranges[2].0);
    // every element of C written (no poison left in its image)
    let mut unwritten = 0u64;
    for li in 0..l {
        for ni in 0..n {
            for mi in 0..m {
                let o = (c0 + cm[mi as usize] + cn[ni as usize] + cl[li as usize]) as usize;
                if !out[o].is_finite() {
                    unwritten += 1;
                }
            }
        }
    }
    if unwritten != 0 {
        return Err(GpuError::Mismatch {
            check: case.name.clone(),
            detail: format!("{unwritten} elements of C not written (still poison) or not finite"),
        });
    }
    let mut rng = Rng::new(seed ^ 0xABCD);
    let points: Vec<(i64, i64, i64)> = match sample {
        Some(s) => (0..s)
            .map(|_| {
                (
                    rng.below(m as u64) as i64,
                    rng.below(n as u64) as i64,
                    rng.below(l as u64) as i64,
                )
            })
            .collect(),
        None => {
            let mut v = Vec::with_capacity((m * n * l) as usize);
            for li in 0..l {
                for ni in 0..n {
                    for mi in 0..m {
                        v.push((mi, ni, li));
                    }
                }
            }
            v
        }
    };
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for &(mi, ni, li) in &points {
        let (mi, ni, li) = (mi as usize, ni as usize, li as usize);
        let mut s = 0.0;
        for kk in 0..k as usize {
            s += ha[(a0 + am[mi] + ak[kk] + al[li]) as usize]
                * hb[(b0 + bn[ni] + bk[kk] + bl[li]) as usize];
        }
        let s = alpha * s;
        let o = out[(c0 + cm[mi] + cn[ni] + cl[li]) as usize];
        num += (o - s) * (o - s);
        den += s * s;
    }
    let rel = (num / den.max(f64::MIN_POSITIVE)).sqrt();
    let tol = if wide { 1e-5 } else { 1e-2 };
    if rel.is_nan() || rel > tol {
        return Err(GpuError::Mismatch {
            check: case.name.clone(),
            detail: format!(
                "relative error {rel:.3e} over {} elements exceeds {tol:.0e}",
                points.len()
            ),
        });
    }
    let checked = format!(
        "{} of C checked, rel. error {rel:.2e}; {}-major A v{}, {}-major B v{}",
        points.len(),
        if p.majors[0].0 == cute_cuda::atom::Major::K {
            "K"
        } else {
            "MN"
        },
        p.majors[0].1,
        if p.majors[1].0 == cute_cuda::atom::Major::K {
            "K"
        } else {
            "MN"
        },
        p.majors[1].1
    );
    let checked = if p.workspace > 0 {
        checked + "; stream-K"
    } else {
        checked
    };
    let checked = if alpha != 1.0 {
        format!("{checked}; alpha {alpha}")
    } else {
        checked
    };
    if !bench {
        return Ok(checked);
    }
    let t = gpu.time_ms(3, 20, run)?;
    let tflops = p.flops() / t / 1e9;
    row.numbers = vec![
        ("ms", t),
        ("tflops", tflops),
        ("registers", kernel.registers as f64),
        ("local_bytes", kernel.local_bytes as f64),
        ("ctas", launch.0 as f64 * launch.1 as f64),
    ];
    // the CTAs launched (a persistent grid capped at what the GPU holds, clusters included)
    Ok(format!(
        "{tflops:.0} TFLOP/s ({t:.3} ms), {} registers, {} B local, {} CTAs in clusters of {}; {checked}",
        kernel.registers,
        kernel.local_bytes,
        launch.0 * launch.1,
        p.cluster.max(1)
    ))
}
