//! The checks and benchmarks behind `cute gpu`: every atom on the hardware, COPY on fresh random
//! data with poisoned outputs, and COPY bandwidth against a device-to-device copy of the same
//! bytes measured in the same run.

use cute::Layout;

use crate::atom::{self, DType};
use crate::codegen::{layout_eval_expr, Code};
use crate::copy::{plan_copy, GpuCopyPlan};
use crate::device::{Arg, Gpu};
use crate::error::GpuError;
use crate::verify;

/// A small deterministic generator (SplitMix64) for test data.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A value in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A nonzero integer in `-4..=4`.
    pub fn small_nonzero(&mut self) -> i32 {
        let x = (self.below(8) as i32) - 4;
        if x >= 0 {
            x + 1
        } else {
            x
        }
    }
}

/// One COPY case: a source and a destination layout and the element type.
#[derive(Clone, Debug)]
pub struct CopyCase {
    /// The case's name.
    pub name: String,
    /// Source layout.
    pub src: Layout,
    /// Destination layout.
    pub dst: Layout,
    /// Element type.
    pub dtype: DType,
    /// For permutations: the row-major shape and the permutation (`out = x.permute(perm)`), so
    /// that PyTorch can run the same case.
    pub permute: Option<(Vec<i64>, Vec<usize>)>,
}

/// The row-major (C order) layout of `shape`.
fn row_major(shape: &[i64]) -> Vec<i64> {
    let mut st = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        st[i] = st[i + 1] * shape[i + 1];
    }
    st
}

fn flat_layout(shape: &[i64], stride: &[i64]) -> Result<Layout, GpuError> {
    let s: Vec<String> = shape.iter().map(|x| x.to_string()).collect();
    let d: Vec<String> = stride.iter().map(|x| x.to_string()).collect();
    Ok(format!("({}):({})", s.join(","), d.join(",")).parse()?)
}

/// The case `out = x.permute(perm).contiguous()` for a row-major `x` of `shape`; `negate` reverses
/// the source's mode `i` (a negative stride) for each `i` in it.
pub fn permute_case(
    name: &str,
    shape: &[i64],
    perm: &[usize],
    dtype: DType,
    negate: &[usize],
) -> Result<CopyCase, GpuError> {
    let st = row_major(shape);
    let out_shape: Vec<i64> = perm.iter().map(|&p| shape[p]).collect();
    let mut src_st: Vec<i64> = perm.iter().map(|&p| st[p]).collect();
    for &i in negate {
        src_st[i] = -src_st[i];
    }
    Ok(CopyCase {
        name: name.to_string(),
        src: flat_layout(&out_shape, &src_st)?,
        dst: flat_layout(&out_shape, &row_major(&out_shape))?,
        dtype,
        permute: if negate.is_empty() {
            Some((shape.to_vec(), perm.to_vec()))
        } else {
            None
        },
    })
}

/// The rows of the paper's Table 2, and each with negated strides.
pub fn table2_cases(dtype: DType) -> Result<Vec<CopyCase>, GpuError> {
    let rows = [
        ("T2.1 1-D array", "8:1", "8:1"),
        ("T2.2 N-D array", "(8,2,3):(1,16,32)", "(8,2,3):(1,16,32)"),
        ("T2.3 gather", "(2,3,2):(42,1,128)", "12:1"),
        ("T2.4 scatter", "12:1", "(2,3,2):(42,1,128)"),
        ("T2.5 broadcast", "7:0", "7:1"),
        ("T2.6 constant", "7:0", "7:0"),
        ("T2.7 transpose", "(8,3):(1,8)", "(8,3):(3,1)"),
        (
            "T2.8 tensor transpose",
            "(8,(3,5)):(1,(57,8))",
            "(8,15):(1,8)",
        ),
    ];
    let mut v = Vec::new();
    for (name, s, d) in rows {
        let (src, dst): (Layout, Layout) = (s.parse()?, d.parse()?);
        v.push(CopyCase {
            name: format!("{name} {dtype}"),
            src,
            dst,
            dtype,
            permute: None,
        });
        v.push(CopyCase {
            name: format!("{name} {dtype} negated"),
            src: negated(&src)?,
            dst: negated(&dst)?,
            dtype,
            permute: None,
        });
    }
    Ok(v)
}

/// Every stride negated.
fn negated(l: &Layout) -> Result<Layout, GpuError> {
    let s = l.to_string();
    let (shape, stride) = s.split_once(':').unwrap_or((&s, "1"));
    let mut out = String::new();
    let mut num = String::new();
    for ch in stride.chars() {
        if ch.is_ascii_digit() {
            num.push(ch);
        } else {
            if !num.is_empty() {
                if num != "0" {
                    out.push('-');
                }
                out.push_str(&num);
                num.clear();
            }
            if ch != '-' {
                out.push(ch);
            }
        }
    }
    if !num.is_empty() {
        if num != "0" {
            out.push('-');
        }
        out.push_str(&num);
    }
    Ok(format!("{shape}:{out}").parse()?)
}

/// Random permutations of 2-D to 6-D tensors with ragged extents, some with negative strides, in
/// f32, bf16 and f16.
pub fn permutation_cases(seed: u64, per_rank: usize) -> Result<Vec<CopyCase>, GpuError> {
    let mut rng = Rng::new(seed);
    let mut v = Vec::new();
    for dtype in [DType::F32, DType::Bf16, DType::F16] {
        for rank in 2..=6usize {
            for j in 0..per_rank {
                // about 2^20 elements, extents not multiples of the tile
                let target = 1i64 << 20;
                let mut shape = Vec::new();
                let mut left = target;
                for i in 0..rank {
                    let rem = (rank - i) as u32;
                    let base = (left as f64).powf(1.0 / rem as f64).round() as i64;
                    let e = (base + rng.below(7) as i64 - 3).max(2);
                    shape.push(e);
                    left = (left / e).max(2);
                }
                let mut perm: Vec<usize> = (0..rank).collect();
                for i in (1..rank).rev() {
                    let k = rng.below(i as u64 + 1) as usize;
                    perm.swap(i, k);
                }
                if perm.iter().enumerate().all(|(i, &p)| i == p) {
                    perm.swap(0, rank - 1);
                }
                let negate: Vec<usize> = if j % 2 == 1 {
                    vec![rng.below(rank as u64) as usize]
                } else {
                    vec![]
                };
                let name = format!(
                    "{rank}-D {shape:?} perm {perm:?}{} {dtype}",
                    if negate.is_empty() { "" } else { " negated" }
                );
                v.push(permute_case(&name, &shape, &perm, dtype, &negate)?);
            }
        }
    }
    Ok(v)
}

/// The bandwidth cases: ≥ 1 GiB 2-D transposes and 3-D to 6-D permutations, in f32 and bf16.
pub fn bandwidth_cases() -> Result<Vec<CopyCase>, GpuError> {
    let mut v = Vec::new();
    for dtype in [DType::F32, DType::Bf16] {
        let k = if dtype == DType::F32 { 1 } else { 2 }; // same bytes
        let cases: [(&str, Vec<i64>, Vec<usize>); 6] = [
            ("2-D transpose", vec![16384, 16384 * k], vec![1, 0]),
            ("3-D (0,2,1)", vec![256, 1024, 1024 * k], vec![0, 2, 1]),
            (
                "4-D (0,1,3,2)",
                vec![64, 64, 256, 256 * k],
                vec![0, 1, 3, 2],
            ),
            (
                "4-D (3,2,1,0)",
                vec![64, 64, 256, 256 * k],
                vec![3, 2, 1, 0],
            ),
            (
                "5-D (4,1,2,3,0)",
                vec![16, 32, 32, 64, 256 * k],
                vec![4, 1, 2, 3, 0],
            ),
            (
                "6-D (5,4,3,2,1,0)",
                vec![16, 16, 16, 16, 64, 64 * k],
                vec![5, 4, 3, 2, 1, 0],
            ),
        ];
        for (name, shape, perm) in cases {
            v.push(permute_case(
                &format!("{name} {shape:?} {dtype}"),
                &shape,
                &perm,
                dtype,
                &[],
            )?);
        }
    }
    Ok(v)
}

/// One line of the result table.
#[derive(Clone, Debug)]
pub struct Row {
    /// `atom`, `copy`, `bandwidth`.
    pub group: &'static str,
    /// What was run.
    pub name: String,
    /// `ok`, or `FAIL: …`.
    pub status: String,
    /// Further figures (`GB/s`, ratios, kernel kind).
    pub detail: String,
    /// Numbers for the JSON output.
    pub numbers: Vec<(&'static str, f64)>,
}

impl Row {
    fn new(group: &'static str, name: impl Into<String>, status: Result<String, GpuError>) -> Row {
        let (status, detail) = match status {
            Ok(d) => ("ok".to_string(), d),
            Err(e) => (format!("FAIL: {e}"), String::new()),
        };
        Row {
            group,
            name: name.into(),
            status,
            detail,
            numbers: Vec::new(),
        }
    }
}

/// Runs every atom check on the hardware, and each perturbed check, which must fail.
pub fn run_atoms(gpu: &Gpu) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut checks: Vec<(Result<verify::AtomCheck, GpuError>, bool)> = Vec::new();
    for perturb in [false, true] {
        for t in [DType::F16, DType::Bf16] {
            checks.push((
                atom::mma_sm80_16x8x16(t).and_then(|a| verify::mma_check(&a, 7, perturb)),
                perturb,
            ));
        }
        checks.push((
            atom::mma_sm80_16x8x8_tf32().and_then(|a| verify::mma_check(&a, 8, perturb)),
            perturb,
        ));
        for (t, sw) in [
            (DType::F16, atom::GmmaSwizzle::B128),
            (DType::Bf16, atom::GmmaSwizzle::B128),
            (DType::Bf16, atom::GmmaSwizzle::B64),
            (DType::Bf16, atom::GmmaSwizzle::B32),
            (DType::Bf16, atom::GmmaSwizzle::None),
        ] {
            checks.push((
                atom::wgmma_64xnx16(64, t).and_then(|a| verify::wgmma_check(&a, sw, 10, perturb)),
                perturb,
            ));
        }
        for num in [1, 2, 4] {
            for trans in [false, true] {
                checks.push((
                    atom::ldmatrix(num, trans)
                        .and_then(|a| verify::ldmatrix_check(&a, num, trans, perturb)),
                    perturb,
                ));
                checks.push((
                    atom::stmatrix(num, trans)
                        .and_then(|a| verify::stmatrix_check(&a, num, perturb)),
                    perturb,
                ));
            }
        }
        checks.push((
            atom::cp_async_16b().and_then(|a| verify::cp_async_check(&a, 9, perturb)),
            perturb,
        ));
    }
    for (check, perturbed) in checks {
        let row = match check {
            Err(e) => Row::new("atom", "?", Err(e)),
            Ok(c) => {
                let r = run_check(gpu, &c);
                let status = match (r, perturbed) {
                    (Ok((n, None)), false) => Ok(format!("{n} values agree with the layouts")),
                    (Ok((_, Some(d))), false) => Err(GpuError::Mismatch {
                        check: c.name.clone(),
                        detail: d,
                    }),
                    (Ok((_, Some(d))), true) => Ok(format!("detected as expected ({d})")),
                    (Ok((n, None)), true) => Err(GpuError::Mismatch {
                        check: c.name.clone(),
                        detail: format!("a perturbed layout still agreed on all {n} values"),
                    }),
                    (Err(e), _) => Err(e),
                };
                Row::new("atom", c.name.clone(), status)
            }
        };
        rows.push(row);
    }
    rows
}

fn run_check(gpu: &Gpu, c: &verify::AtomCheck) -> Result<(usize, Option<String>), GpuError> {
    let k = gpu.compile(&c.source, "atom_check")?;
    let input = gpu.upload(&c.input)?;
    let out = gpu.upload(&vec![0xDEAD_BEEFu32; c.output_len])?;
    gpu.launch(
        &k,
        1,
        c.threads,
        0,
        &[Arg::Ptr(gpu.ptr(&input, 0)), Arg::Ptr(gpu.ptr(&out, 0))],
    )?;
    gpu.sync()?;
    let host = gpu.download(&out)?;
    Ok(c.compare(&host))
}

/// The poison written into destinations before a COPY: a NaN pattern no source value has.
pub const POISON: u32 = 0xFFFF_FFFF;

/// The fill, poison and check kernels for one element type.
fn helper_source(dtype: DType) -> String {
    let et = dtype.cuda_bits_type();
    let mut c = Code::new();
    c.line("__device__ unsigned int hash32(unsigned long long x) { x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33; return (unsigned int)x; }");
    // finite values, never the poison: a random sign, a small exponent, random mantissa
    let value = match dtype {
        DType::F32 | DType::Tf32 => "(h & 0x807FFFFFu) | 0x3F000000u",
        DType::Bf16 => "((h >> 16) & 0x807Fu) | 0x3F00u",
        DType::F16 => "((h >> 16) & 0x83FFu) | 0x3800u",
    };
    c.line(format!("extern \"C\" __global__ void fill_random({et}* p, long long n, unsigned long long seed) {{"));
    c.line("  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {");
    c.line("    unsigned int h = hash32(seed * 0x9E3779B97F4A7C15ULL + (unsigned long long)i);");
    c.line(format!("    p[i] = ({et})({value});"));
    c.line("  }");
    c.line("}");
    c.line(format!(
        "extern \"C\" __global__ void fill_poison({et}* p, long long n) {{"
    ));
    c.line("  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)");
    c.line(format!("    p[i] = ({et})0xFFFFFFFFu;"));
    c.line("}");
    c.line(format!("extern \"C\" __global__ void count_poison(const {et}* p, long long n, unsigned long long* count) {{"));
    c.line("  unsigned long long k = 0;");
    c.line("  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)");
    c.line(format!("    k += p[i] == ({et})0xFFFFFFFFu;"));
    c.line("  atomicAdd(count, k);");
    c.line("}");
    c.finish()
}

/// The reference check: `dst(i) == src(i)` for every `i`, the layouts evaluated directly.
fn check_source(case: &GpuCopyPlan) -> String {
    let et = case.dtype.cuda_bits_type();
    let mut c = Code::new();
    c.line(format!(
        "// reference check of COPY {} -> {}",
        case.src, case.dst
    ));
    c.line(format!("extern \"C\" __global__ void check_copy(const {et}* src, const {et}* dst, long long n, unsigned long long* bad) {{"));
    c.line("  unsigned long long k = 0;");
    c.line("  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {");
    c.line(format!(
        "    k += src[{} + ({})] != dst[{} + ({})];",
        layout_eval_expr(&case.src, "i"),
        -case.src_range.0,
        layout_eval_expr(&case.dst, "i"),
        -case.dst_range.0
    ));
    c.line("  }");
    c.line("  atomicAdd(bad, k);");
    c.line("}");
    c.finish()
}

/// Distinct destination offsets (the elements a COPY must write).
fn image_size(plan: &GpuCopyPlan) -> Result<i64, GpuError> {
    if !plan.modes.is_empty() || plan.src.size() <= 1 {
        return Ok(plan.dst.size());
    }
    let mut img = plan.dst.image()?;
    img.sort_unstable();
    img.dedup();
    Ok(img.len() as i64)
}

/// Runs one COPY case: random source, poisoned destination, the planned kernel, the reference
/// check and the count of untouched elements; with `bench`, the bandwidth against a
/// device-to-device copy of the same bytes. Returns the row.
pub fn run_copy(gpu: &Gpu, case: &CopyCase, seed: u64, bench: bool) -> Row {
    let mut row = Row::new("copy", case.name.clone(), Ok(String::new()));
    if bench {
        row.group = "bandwidth";
    }
    match run_copy_inner(gpu, case, seed, bench, &mut row) {
        Ok(d) => row.detail = d,
        Err(e) => row.status = format!("FAIL: {e}"),
    }
    row
}

fn run_copy_inner(
    gpu: &Gpu,
    case: &CopyCase,
    seed: u64,
    bench: bool,
    row: &mut Row,
) -> Result<String, GpuError> {
    let plan = plan_copy(&case.src, &case.dst, case.dtype)?;
    let et = case.dtype;
    let n = plan.src.size();
    let (sl, dl) = (plan.src_len() as usize, plan.dst_len() as usize);
    let helpers = helper_source(et);
    let fill = gpu.compile(&helpers, "fill_random")?;
    let poison = gpu.compile(&helpers, "fill_poison")?;
    let count = gpu.compile(&helpers, "count_poison")?;
    let check = gpu.compile(&check_source(&plan), "check_copy")?;
    let kernel = gpu.compile(&plan.source, &plan.name)?;
    let grid = (gpu.sm_count as u32) * 8;
    macro_rules! buffers {
        ($t:ty) => {{
            let src = gpu.zeros::<$t>(sl)?;
            let dst = gpu.zeros::<$t>(dl)?;
            (gpu.ptr(&src, 0), gpu.ptr(&dst, 0), src, dst)
        }};
    }
    let counter = gpu.zeros::<u64>(2)?;
    let (ps, pd, _keep) = match et.bytes() {
        4 => {
            let (a, b, s, d) = buffers!(u32);
            (a, b, (Some((s, d)), None))
        }
        _ => {
            let (a, b, s, d) = buffers!(u16);
            (a, b, (None, Some((s, d))))
        }
    };
    gpu.launch(
        &fill,
        grid,
        256,
        0,
        &[Arg::Ptr(ps), Arg::I64(sl as i64), Arg::U64(seed)],
    )?;
    gpu.launch(&poison, grid, 256, 0, &[Arg::Ptr(pd), Arg::I64(dl as i64)])?;
    gpu.launch(
        &kernel,
        plan.grid,
        plan.block,
        plan.smem_bytes,
        &[Arg::Ptr(ps), Arg::Ptr(pd)],
    )?;
    gpu.sync()?;
    let c0 = gpu.ptr(&counter, 0);
    let c1 = c0 + 8;
    gpu.launch(
        &check,
        grid,
        256,
        0,
        &[Arg::Ptr(ps), Arg::Ptr(pd), Arg::I64(n), Arg::Ptr(c0)],
    )?;
    gpu.launch(
        &count,
        grid,
        256,
        0,
        &[Arg::Ptr(pd), Arg::I64(dl as i64), Arg::Ptr(c1)],
    )?;
    let counts = gpu.download(&counter)?;
    let written = image_size(&plan)?;
    if counts[0] != 0 {
        return Err(GpuError::Mismatch {
            check: case.name.clone(),
            detail: format!("{} of {n} elements differ from the reference", counts[0]),
        });
    }
    let untouched_expected = dl as i64 - written;
    if counts[1] as i64 != untouched_expected {
        return Err(GpuError::Mismatch {
            check: case.name.clone(),
            detail: format!(
                "{} destination elements still poisoned, expected {untouched_expected} (elements outside the image written, or inside not written)",
                counts[1]
            ),
        });
    }
    // small cases: the host compares too, through the layouts on the CPU
    if n <= 1 << 16 {
        let mismatch = match &_keep {
            (Some((s, d)), _) => host_compare(&plan, &gpu.download(s)?, &gpu.download(d)?)?,
            (_, Some((s, d))) => host_compare(&plan, &gpu.download(s)?, &gpu.download(d)?)?,
            _ => None,
        };
        if let Some(m) = mismatch {
            return Err(GpuError::Mismatch {
                check: case.name.clone(),
                detail: m,
            });
        }
    }
    let kind = match &plan.kernel {
        crate::copy::CopyKernel::Direct { vector } => format!("direct v{vector}"),
        crate::copy::CopyKernel::Transpose {
            tile,
            vector,
            swizzle,
            ..
        } => {
            format!("transpose {}x{} v{vector} {swizzle}", tile.0, tile.1)
        }
        crate::copy::CopyKernel::Generic => "generic".to_string(),
    };
    if !bench {
        return Ok(format!("{n} elements, {kind}"));
    }
    // bandwidth: the kernel against a device-to-device copy of the same bytes, same run
    let bytes = plan.bytes_moved() as f64;
    let t_kernel = gpu.time_ms(3, 20, || {
        gpu.launch(
            &kernel,
            plan.grid,
            plan.block,
            plan.smem_bytes,
            &[Arg::Ptr(ps), Arg::Ptr(pd)],
        )
    })?;
    let t_d2d = match &_keep {
        (Some((s, _)), _) => {
            let mut tmp = gpu.zeros::<u32>(n as usize)?;
            let s2 = gpu.zeros::<u32>(n as usize)?;
            let _ = s;
            gpu.time_ms(3, 20, || gpu.copy_d2d(&s2, &mut tmp))?
        }
        _ => {
            let mut tmp = gpu.zeros::<u16>(n as usize)?;
            let s2 = gpu.zeros::<u16>(n as usize)?;
            gpu.time_ms(3, 20, || gpu.copy_d2d(&s2, &mut tmp))?
        }
    };
    let gbs = bytes / t_kernel / 1e6;
    let gbs_d2d = bytes / t_d2d / 1e6;
    row.numbers = vec![
        ("kernel_ms", t_kernel),
        ("d2d_ms", t_d2d),
        ("gbs", gbs),
        ("d2d_gbs", gbs_d2d),
        ("ratio_d2d", gbs / gbs_d2d),
    ];
    Ok(format!(
        "{kind}: {gbs:.0} GB/s, D2D {gbs_d2d:.0} GB/s, {:.1}% of D2D",
        100.0 * gbs / gbs_d2d
    ))
}

fn host_compare<T: PartialEq + Copy + core::fmt::Debug>(
    plan: &GpuCopyPlan,
    src: &[T],
    dst: &[T],
) -> Result<Option<String>, GpuError> {
    let n = plan.src.size();
    for i in 0..n {
        let s = (plan.src.eval(i)? - plan.src_range.0) as usize;
        let d = (plan.dst.eval(i)? - plan.dst_range.0) as usize;
        if src[s] != dst[d] {
            return Ok(Some(format!(
                "element {i}: dst[{d}] = {:?}, src[{s}] = {:?}",
                dst[d], src[s]
            )));
        }
    }
    Ok(None)
}

/// What `cute gpu` runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Run the ≥ 1 GiB bandwidth cases.
    pub bandwidth: bool,
    /// Random permutation cases per rank and type.
    pub per_rank: usize,
    /// Seed of the random data.
    pub seed: u64,
    /// Run only this group (`atoms`, `copy`, `gemm`, `perf`, `bandwidth`); all when `None`.
    pub only: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            bandwidth: true,
            per_rank: 4,
            seed: 2026,
            only: None,
        }
    }
}

/// Every check and benchmark: atoms, Table 2, permutations, bandwidth.
pub fn run_all(gpu: &Gpu, opts: &Options) -> Vec<Row> {
    let want = |g: &str| opts.only.as_deref().is_none_or(|o| o == g);
    let mut rows = if want("atoms") {
        run_atoms(gpu)
    } else {
        Vec::new()
    };
    let mut cases = Vec::new();
    for t in [DType::F32, DType::Bf16, DType::F16] {
        match table2_cases(t) {
            Ok(c) => cases.extend(c),
            Err(e) => rows.push(Row::new("copy", "Table 2", Err(e))),
        }
    }
    match permutation_cases(opts.seed, opts.per_rank) {
        Ok(c) => cases.extend(c),
        Err(e) => rows.push(Row::new("copy", "permutations", Err(e))),
    }
    for (i, c) in cases.iter().enumerate() {
        if want("copy") {
            rows.push(run_copy(gpu, c, opts.seed + i as u64, false));
        }
    }
    match gemm_cases().map(|c| if want("gemm") { c } else { Vec::new() }) {
        Ok(cs) => {
            for (i, c) in cs.iter().enumerate() {
                rows.push(run_gemm(
                    gpu,
                    c,
                    opts.seed + 500 + i as u64,
                    None,
                    false,
                    false,
                ));
                if crate::wgmma::plan_gemm_wgmma(&c.a, &c.b, &c.c, c.ab, c.c_type).is_ok() {
                    rows.push(run_gemm(
                        gpu,
                        c,
                        opts.seed + 600 + i as u64,
                        None,
                        false,
                        true,
                    ));
                }
            }
        }
        Err(e) => rows.push(Row::new("gemm", "cases", Err(e))),
    }
    if opts.bandwidth && want("perf") {
        match gemm_bench_cases() {
            Ok(cs) => {
                for (i, c) in cs.iter().enumerate() {
                    for hopper in [true, false] {
                        let seed = opts.seed + 700 + i as u64;
                        rows.push(run_gemm(gpu, c, seed, Some(2048), true, hopper));
                    }
                }
            }
            Err(e) => rows.push(Row::new("gemm-perf", "cases", Err(e))),
        }
    }
    if opts.bandwidth && want("bandwidth") {
        match bandwidth_cases() {
            Ok(cs) => {
                for (i, c) in cs.iter().enumerate() {
                    rows.push(run_copy(gpu, c, opts.seed + 1000 + i as u64, true));
                }
            }
            Err(e) => rows.push(Row::new("bandwidth", "cases", Err(e))),
        }
    }
    rows
}

/// The plans `cute gpu --plan` prints: the atoms and the COPY plans of the benchmark cases, with
/// no GPU.
pub fn plan_report() -> Result<String, GpuError> {
    let mut s = String::new();
    s += "# atoms\n";
    let mmas = [
        atom::mma_sm80_16x8x16(DType::F16)?,
        atom::mma_sm80_16x8x16(DType::Bf16)?,
        atom::mma_sm80_16x8x8_tf32()?,
        atom::wgmma_64xnx16(128, DType::Bf16)?,
    ];
    for a in &mmas {
        s += &format!(
            "{} ({}) MNK {:?}\n  ThrID {}\n  A {}\n  B {}\n  C {}\n",
            a.name, a.ptx, a.shape_mnk, a.thr_id, a.a, a.b, a.c
        );
    }
    for num in [1, 2, 4] {
        for trans in [false, true] {
            for a in [atom::ldmatrix(num, trans)?, atom::stmatrix(num, trans)?] {
                s += &format!("{} ({})\n  src {}\n  dst {}\n", a.name, a.ptx, a.src, a.dst);
            }
        }
    }
    let cp = atom::cp_async_16b()?;
    s += &format!(
        "{} ({})\n  src {}\n  dst {}\n",
        cp.name, cp.ptx, cp.src, cp.dst
    );
    for major in [atom::Major::K, atom::Major::MN] {
        for sw in atom::GmmaSwizzle::ALL {
            s += &format!(
                "smem atom {major:?}-major {sw:?} bf16: {}\n",
                atom::gmma_smem_atom(major, sw, 16)?
            );
        }
    }
    s += "\n# COPY plans\n";
    for t in [DType::F32] {
        for c in table2_cases(t)?.iter().step_by(2) {
            s += &plan_copy(&c.src, &c.dst, c.dtype)?.describe();
            s += "\n";
        }
    }
    for c in bandwidth_cases()? {
        s += &format!("{}\n", c.name);
        s += &plan_copy(&c.src, &c.dst, c.dtype)?.describe();
        s += "\n";
    }
    Ok(s)
}

/// The rows as a text table.
pub fn table(rows: &[Row]) -> String {
    let mut s = String::new();
    let w = rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(4)
        .min(60);
    for r in rows {
        s += &format!(
            "{:<9} {:<w$} {:<6} {}\n",
            r.group,
            r.name,
            if r.status == "ok" { "ok" } else { &r.status },
            r.detail
        );
    }
    let bad = rows.iter().filter(|r| r.status != "ok").count();
    s += &format!("{} passed, {} failed\n", rows.len() - bad, bad);
    s
}

/// The rows as JSON (an array of objects).
pub fn json(rows: &[Row]) -> String {
    let esc = |x: &str| x.replace('\\', "\\\\").replace('"', "\\\"");
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            let nums: Vec<String> = r
                .numbers
                .iter()
                .map(|(k, v)| format!("\"{k}\": {v:.6}"))
                .collect();
            format!(
                "{{\"group\": \"{}\", \"name\": \"{}\", \"status\": \"{}\", \"detail\": \"{}\"{}{}}}",
                r.group,
                esc(&r.name),
                esc(&r.status),
                esc(&r.detail),
                if nums.is_empty() { "" } else { ", " },
                nums.join(", ")
            )
        })
        .collect();
    format!("[\n{}\n]\n", items.join(",\n"))
}

/// The permutation cases as JSON for the PyTorch script: `[{"name", "shape", "perm", "dtype"}]`.
pub fn torch_cases_json() -> Result<String, GpuError> {
    let items: Vec<String> = bandwidth_cases()?
        .iter()
        .filter_map(|c| {
            c.permute.as_ref().map(|(shape, perm)| {
                format!(
                    "{{\"kind\": \"permute\", \"name\": \"{}\", \"shape\": {shape:?}, \"perm\": {perm:?}, \"dtype\": \"{}\"}}",
                    c.name, c.dtype
                )
            })
        })
        .collect();
    let mut items = items;
    for c in gemm_bench_cases()? {
        items.push(format!(
            "{{\"kind\": \"{}\", \"name\": \"{}\", \"a\": \"{}\", \"b\": \"{}\", \"c\": \"{}\"}}",
            if c.name.starts_with("GETT") {
                "gett"
            } else {
                "matmul"
            },
            c.name,
            c.a,
            c.b,
            c.c
        ));
    }
    Ok(format!("[\n{}\n]\n", items.join(",\n")))
}

/// One GEMM case.
#[derive(Clone, Debug)]
pub struct GemmCase {
    /// The case's name.
    pub name: String,
    /// `A (M,K[,L])`.
    pub a: Layout,
    /// `B (N,K[,L])`.
    pub b: Layout,
    /// `C (M,N[,L])`.
    pub c: Layout,
    /// Operand type.
    pub ab: DType,
    /// Output type.
    pub c_type: DType,
}

/// BLAS-style GEMM layouts: `ta`/`tb` are `N` or `T` (A `M×K`, B `K×N`, column-major when `N`),
/// C column-major.
pub fn blas_case(
    m: i64,
    n: i64,
    k: i64,
    ta: char,
    tb: char,
    ab: DType,
    c_type: DType,
) -> Result<GemmCase, GpuError> {
    let a = if ta == 'N' {
        format!("({m},{k}):(1,{m})")
    } else {
        format!("({m},{k}):({k},1)")
    };
    let b = if tb == 'N' {
        format!("({n},{k}):({k},1)")
    } else {
        format!("({n},{k}):(1,{n})")
    };
    Ok(GemmCase {
        name: format!("{ta}{tb} {m}x{n}x{k} {ab}->{c_type}"),
        a: a.parse()?,
        b: b.parse()?,
        c: format!("({m},{n}):(1,{m})").parse()?,
        ab,
        c_type,
    })
}

/// The paper's GETT `C_stqp = A_stupr B_qtru`, every tensor column-major in its index order,
/// folded to `(M,N,K,L) = ((s,p), q, (u,r), t)`.
pub fn gett_case(
    s: i64,
    t: i64,
    u: i64,
    p: i64,
    r: i64,
    q: i64,
    ab: DType,
) -> Result<GemmCase, GpuError> {
    let (a1, a2, a3, a4) = (s, s * t, s * t * u, s * t * u * p); // strides of t, u, p, r in A
    let (b1, b2, b3) = (q, q * t, q * t * r); // t, r, u in B
    let (c1, c2, c3) = (s, s * t, s * t * q); // t, q, p in C
    Ok(GemmCase {
        name: format!("GETT stupr,qtru->stqp s{s} t{t} u{u} p{p} r{r} q{q} {ab}"),
        a: format!("(({s},{p}),({u},{r}),{t}):((1,{a3}),({a2},{a4}),{a1})").parse()?,
        b: format!("({q},({u},{r}),{t}):(1,({b3},{b2}),{b1})").parse()?,
        c: format!("(({s},{p}),{q},{t}):((1,{c3}),{c2},{c1})").parse()?,
        ab,
        c_type: ab,
    })
}

/// The GEMM correctness cases: NT, TN, NN, TT in bf16 and f16, multiples of the tile and ragged,
/// the paper's GETT and a 4-D batched case.
pub fn gemm_cases() -> Result<Vec<GemmCase>, GpuError> {
    let mut v = Vec::new();
    for ab in [DType::Bf16, DType::F16] {
        for (m, n, k) in [
            (256, 384, 128),
            (301, 203, 77),
            (300, 200, 100),
            (296, 200, 136),
        ] {
            for ta in ['N', 'T'] {
                for tb in ['N', 'T'] {
                    let ct = if (m + ta as i64) % 2 == 0 {
                        DType::F32
                    } else {
                        ab
                    };
                    v.push(blas_case(m, n, k, ta, tb, ab, ct)?);
                }
            }
        }
        v.push(gett_case(16, 4, 32, 8, 8, 48, ab)?);
    }
    // 4-D batched: C_mnbh = Σ_k A_mkbh B_nkbh with the batch (b,h) folded into L
    let (m, n, k, b, h) = (192i64, 160i64, 96i64, 3i64, 5i64);
    v.push(GemmCase {
        name: format!("batched 4-D m{m} n{n} k{k} (b,h)=({b},{h}) bf16"),
        a: format!("({m},{k},({b},{h})):({k},1,({},{}))", m * k, m * k * b).parse()?,
        b: format!("({n},{k},({b},{h})):(1,{n},({},{}))", n * k, n * k * b).parse()?,
        c: format!("({m},{n},({b},{h})):({n},1,({},{}))", m * n, m * n * b).parse()?,
        ab: DType::Bf16,
        c_type: DType::F32,
    });
    Ok(v)
}

/// The GEMM performance cases: 8192³ bf16 (A row-major, B row-major `K×N`, as `torch.matmul`)
/// and the paper's GETT at 3.4·10¹⁰ flops.
pub fn gemm_bench_cases() -> Result<Vec<GemmCase>, GpuError> {
    let n = 8192;
    Ok(vec![
        GemmCase {
            name: format!("matmul {n}^3 bf16"),
            a: format!("({n},{n}):({n},1)").parse()?,
            b: format!("({n},{n}):(1,{n})").parse()?,
            c: format!("({n},{n}):({n},1)").parse()?,
            ab: DType::Bf16,
            c_type: DType::Bf16,
        },
        gett_case(64, 16, 64, 64, 16, 256, DType::Bf16)?,
    ])
}

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

/// Runs one GEMM case: random operands, poisoned C, the planned kernel; C compared with an fp64
/// reference (every element, or `sample` random elements when given); with `bench`, the rate.
pub fn run_gemm(
    gpu: &Gpu,
    case: &GemmCase,
    seed: u64,
    sample: Option<usize>,
    bench: bool,
    hopper: bool,
) -> Row {
    let name = format!(
        "{} {}",
        if hopper { "wgmma" } else { "mma.sync" },
        case.name
    );
    let mut row = Row::new(
        if bench { "gemm-perf" } else { "gemm" },
        name,
        Ok(String::new()),
    );
    match run_gemm_inner(gpu, case, seed, sample, bench, hopper, &mut row) {
        Ok(d) => row.detail = d,
        Err(e) => row.status = format!("FAIL: {e}"),
    }
    row
}

/// The kernel of the Hopper or the portable GEMM plan of `case`.
fn gemm_launch(case: &GemmCase, hopper: bool) -> Result<crate::gemm::GemmKernel, GpuError> {
    Ok(if hopper {
        crate::wgmma::plan_gemm_wgmma(&case.a, &case.b, &case.c, case.ab, case.c_type)?.kernel
    } else {
        crate::gemm::plan_gemm(&case.a, &case.b, &case.c, case.ab, case.c_type)?.kernel
    })
}

#[allow(clippy::too_many_arguments)]
fn run_gemm_inner(
    gpu: &Gpu,
    case: &GemmCase,
    seed: u64,
    sample: Option<usize>,
    bench: bool,
    hopper: bool,
    row: &mut Row,
) -> Result<String, GpuError> {
    let p = gemm_launch(case, hopper)?;
    let kernel = gpu.compile(&p.source, &p.name)?;
    let len = |r: (i64, i64)| (r.1 - r.0 + 1) as usize;
    let (la, lb, lc) = (len(p.ranges[0]), len(p.ranges[1]), len(p.ranges[2]));
    let helpers16 = helper_source(case.ab);
    let fill = gpu.compile(&helpers16, "fill_random")?;
    let a = gpu.zeros::<u16>(la)?;
    let b = gpu.zeros::<u16>(lb)?;
    let grid = (gpu.sm_count as u32) * 8;
    gpu.launch(
        &fill,
        grid,
        256,
        0,
        &[
            Arg::Ptr(gpu.ptr(&a, 0)),
            Arg::I64(la as i64),
            Arg::U64(seed),
        ],
    )?;
    gpu.launch(
        &fill,
        grid,
        256,
        0,
        &[
            Arg::Ptr(gpu.ptr(&b, 0)),
            Arg::I64(lb as i64),
            Arg::U64(seed ^ 0x5555),
        ],
    )?;
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
    let args = [
        Arg::Ptr(gpu.ptr(&a, 0)),
        Arg::Ptr(gpu.ptr(&b, 0)),
        Arg::Ptr(pc),
    ];
    gpu.launch_grid(&kernel, p.grid, p.block, p.smem_bytes, &args)?;
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
        if p.majors[0].0 == crate::atom::Major::K {
            "K"
        } else {
            "MN"
        },
        p.majors[0].1,
        if p.majors[1].0 == crate::atom::Major::K {
            "K"
        } else {
            "MN"
        },
        p.majors[1].1
    );
    if !bench {
        return Ok(checked);
    }
    let t = gpu.time_ms(3, 20, || {
        gpu.launch_grid(&kernel, p.grid, p.block, p.smem_bytes, &args)
    })?;
    let tflops = p.flops() / t / 1e9;
    row.numbers = vec![
        ("ms", t),
        ("tflops", tflops),
        ("registers", kernel.registers as f64),
        ("local_bytes", kernel.local_bytes as f64),
    ];
    Ok(format!(
        "{tflops:.0} TFLOP/s ({t:.3} ms), {} registers, {} B local; {checked}",
        kernel.registers, kernel.local_bytes
    ))
}

/// Writes the PTX of the GEMM benchmark kernels (`wgmma_*.ptx`, `mma_sync_*.ptx`) into `dir`.
pub fn emit_ptx(dir: &std::path::Path) -> Result<Vec<std::path::PathBuf>, GpuError> {
    std::fs::create_dir_all(dir).map_err(|e| GpuError::driver("create_dir_all", e))?;
    let mut out = Vec::new();
    for (i, c) in gemm_bench_cases()?.iter().enumerate() {
        for hopper in [true, false] {
            let p = gemm_launch(c, hopper)?;
            let ptx = crate::device::compile_ptx(&p.source, &p.name)?;
            let f = dir.join(format!(
                "{}_{i}.ptx",
                if hopper { "wgmma" } else { "mma_sync" }
            ));
            std::fs::write(&f, ptx).map_err(|e| GpuError::driver("write", e))?;
            out.push(f);
        }
    }
    Ok(out)
}
