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
    if !plan.modes.is_empty() || plan.src.size()? <= 1 {
        return Ok(plan.dst.size()?);
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
    let n = plan.src.size()?;
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
            format!("transpose {tile}x{tile} v{vector} {swizzle}")
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
    let n = plan.src.size()?;
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
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Run the ≥ 1 GiB bandwidth cases.
    pub bandwidth: bool,
    /// Random permutation cases per rank and type.
    pub per_rank: usize,
    /// Seed of the random data.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            bandwidth: true,
            per_rank: 4,
            seed: 2026,
        }
    }
}

/// Every check and benchmark: atoms, Table 2, permutations, bandwidth.
pub fn run_all(gpu: &Gpu, opts: &Options) -> Vec<Row> {
    let mut rows = run_atoms(gpu);
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
        rows.push(run_copy(gpu, c, opts.seed + i as u64, false));
    }
    if opts.bandwidth {
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
                    "{{\"name\": \"{}\", \"shape\": {shape:?}, \"perm\": {perm:?}, \"dtype\": \"{}\"}}",
                    c.name, c.dtype
                )
            })
        })
        .collect();
    Ok(format!("[\n{}\n]\n", items.join(",\n")))
}
