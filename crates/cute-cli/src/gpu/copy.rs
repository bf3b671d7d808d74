//! The COPY checks and bandwidth benchmarks of `cute gpu`, through the library's public path
//! ([`Gpu::copy`] on [`DeviceTensor`]s): random source, poisoned destination, a reference check
//! kernel that evaluates both layouts at every index, a count of the destination elements left
//! untouched, and on small cases a host comparison; with `bench`, the bandwidth against the
//! driver's device-to-device copy of the same bytes, measured in the same run.

use cute_cuda::atom::DType;
use cute_cuda::cases::CopyCase;
use cute_cuda::codegen::{layout_eval_expr, Code};
use cute_cuda::copy::offset_range;
use cute_cuda::device::{Arg, Gpu, Stream};
use cute_cuda::{DeviceBuffer, DeviceTensor, GpuError};

use super::Row;

/// The head of a grid-stride loop over `i` in `0..n`, indented for a kernel's body.
const GRID_STRIDE_LOOP: &str = "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)";

/// The fill, poison and check kernels for elements of `dtype` (moved as unsigned integers of its
/// width). Random values are finite and never the poison (all ones, a NaN pattern).
pub(super) fn helper_source(dtype: DType) -> String {
    let et = dtype.cuda_bits_type();
    let mut c = Code::new();
    c.line("__device__ unsigned int hash32(unsigned long long x) { x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33; return (unsigned int)x; }");
    // floats: a random sign, a small exponent, random mantissa; integers: random bits with the
    // top bit clear
    let value = match dtype {
        DType::F32 | DType::Tf32 => "(h & 0x807FFFFFu) | 0x3F000000u",
        DType::Bf16 => "((h >> 16) & 0x807Fu) | 0x3F00u",
        DType::F16 => "((h >> 16) & 0x83FFu) | 0x3800u",
        DType::F64 => "(((unsigned long long)(h & 0x800FFFFFu) | 0x3FE00000ull) << 32) | hash32(i)",
        // the 8-bit floats: top bit clear, so never the all-ones poison (a NaN in e4m3)
        DType::I8 | DType::U8 | DType::E4m3 | DType::E5m2 => "h & 0x7Fu",
        DType::I16 => "h & 0x7FFFu",
        DType::I32 => "h & 0x7FFFFFFFu",
        DType::I64 => "((unsigned long long)(h >> 1) << 32) | hash32(i)",
    };
    c.line(format!("extern \"C\" __global__ void fill_random({et}* p, long long n, unsigned long long seed) {{"));
    c.line(format!("{GRID_STRIDE_LOOP} {{"));
    c.line("    unsigned int h = hash32(seed * 0x9E3779B97F4A7C15ULL + (unsigned long long)i);");
    c.line(format!("    p[i] = ({et})({value});"));
    c.line("  }");
    c.line("}");
    c.line(format!(
        "extern \"C\" __global__ void fill_poison({et}* p, long long n) {{"
    ));
    c.line(GRID_STRIDE_LOOP);
    c.line(format!("    p[i] = ({et})~0ull;"));
    c.line("}");
    c.line(format!("extern \"C\" __global__ void count_poison(const {et}* p, long long n, unsigned long long* count) {{"));
    c.line("  unsigned long long k = 0;");
    c.line(GRID_STRIDE_LOOP);
    c.line(format!("    k += p[i] == ({et})~0ull;"));
    c.line("  atomicAdd(count, k);");
    c.line("}");
    c.finish()
}

/// The reference check: `dst(i) == src(i)` for every `i`, the layouts evaluated directly, the
/// pointers at each layout's smallest offset.
fn check_source(case: &CopyCase, src_lo: i64, dst_lo: i64) -> String {
    let et = case.dtype.cuda_bits_type();
    let mut c = Code::new();
    c.line(format!(
        "// reference check of COPY {} -> {}",
        case.src, case.dst
    ));
    c.line(format!("extern \"C\" __global__ void check_copy(const {et}* src, const {et}* dst, long long n, unsigned long long* bad) {{"));
    c.line("  unsigned long long k = 0;");
    c.line(format!("{GRID_STRIDE_LOOP} {{"));
    c.line(format!(
        "    k += src[{} + ({})] != dst[{} + ({})];",
        layout_eval_expr(&case.src, "i"),
        -src_lo,
        layout_eval_expr(&case.dst, "i"),
        -dst_lo
    ));
    c.line("  }");
    c.line("  atomicAdd(bad, k);");
    c.line("}");
    c.finish()
}

/// Distinct destination offsets (the elements a COPY must write).
fn image_size(case: &CopyCase) -> Result<i64, GpuError> {
    if cute::copy_modes(&case.src, &case.dst)?.is_some() || case.src.size() <= 1 {
        return Ok(case.dst.size());
    }
    let mut img = case.dst.image()?;
    img.sort_unstable();
    img.dedup();
    Ok(img.len() as i64)
}

/// Runs one COPY case (see the module's documentation) and returns its row.
pub fn run_copy(gpu: &std::sync::Arc<Gpu>, case: &CopyCase, seed: u64, bench: bool) -> Row {
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
    gpu: &std::sync::Arc<Gpu>,
    case: &CopyCase,
    seed: u64,
    bench: bool,
    row: &mut Row,
) -> Result<String, GpuError> {
    let et = case.dtype;
    let e = et.bytes() as usize;
    let n = case.src.size();
    let ((slo, shi), (dlo, dhi)) = (offset_range(&case.src)?, offset_range(&case.dst)?);
    let (sl, dl) = ((shi - slo + 1) as usize, (dhi - dlo + 1) as usize);
    let helpers = helper_source(et);
    let fill = gpu.compile(&helpers, "fill_random")?;
    let poison = gpu.compile(&helpers, "fill_poison")?;
    let count = gpu.compile(&helpers, "count_poison")?;
    let check = gpu.compile(&check_source(case, slo, dlo), "check_copy")?;
    let grid = (gpu.sm_count as u32) * 8;
    let src_buf = DeviceBuffer::zeroed(gpu, sl * e)?;
    let dst_buf = DeviceBuffer::zeroed(gpu, dl * e)?;
    // each layout's smallest offset at the start of its buffer
    let src = DeviceTensor::with_offset(&src_buf, -slo, case.src, et)?;
    let dst = DeviceTensor::with_offset(&dst_buf, -dlo, case.dst, et)?;
    let counter = DeviceBuffer::zeroed(gpu, 16)?;
    let (ps, pd) = (src_buf.ptr(), dst_buf.ptr());
    gpu.launch(
        &fill,
        grid,
        256,
        0,
        &[Arg::Ptr(ps), Arg::I64(sl as i64), Arg::U64(seed)],
    )?;
    gpu.launch(&poison, grid, 256, 0, &[Arg::Ptr(pd), Arg::I64(dl as i64)])?;
    let launched = gpu.copy(&src, &dst, Stream::OWN)?;
    let c0 = counter.ptr();
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
        &[Arg::Ptr(pd), Arg::I64(dl as i64), Arg::Ptr(c0 + 8)],
    )?;
    let counts: Vec<u64> = counter.read(gpu)?;
    if counts[0] != 0 {
        return Err(GpuError::Mismatch {
            check: case.name.clone(),
            detail: format!("{} of {n} elements differ from the reference", counts[0]),
        });
    }
    let untouched_expected = dl as i64 - image_size(case)?;
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
        let (hs, hd): (Vec<u8>, Vec<u8>) = (src_buf.read(gpu)?, dst_buf.read(gpu)?);
        for i in 0..n {
            let s = (case.src.eval(i)? - slo) as usize * e;
            let d = (case.dst.eval(i)? - dlo) as usize * e;
            if hs[s..s + e] != hd[d..d + e] {
                return Err(GpuError::Mismatch {
                    check: case.name.clone(),
                    detail: format!(
                        "element {i}: dst bytes {:?}, src bytes {:?}",
                        &hd[d..d + e],
                        &hs[s..s + e]
                    ),
                });
            }
        }
    }
    // the plan again: from the plan cache, and refused (before any launch) on an address less
    // aligned than it was made for
    let plan = gpu.plan_copy(&src, &dst)?;
    if !plan.cached() {
        return Err(GpuError::Mismatch {
            check: case.name.clone(),
            detail: "planning the same tensors again did not hit the plan cache".into(),
        });
    }
    if n <= 1 << 16 && plan.align_bytes(1).is_some_and(|a| a > e as u64) {
        // the destination one element further into a larger buffer: less aligned
        let shifted_buf = DeviceBuffer::zeroed(gpu, (dl + 1) * e)?;
        let shifted = DeviceTensor::with_offset(&shifted_buf, 1 - dlo, case.dst, et)?;
        let r = gpu.launch_plan(&plan, &[&src, &shifted], 1.0, 0.0, Stream::OWN);
        if !matches!(r, Err(GpuError::Invalid { .. })) {
            return Err(GpuError::Mismatch {
                check: case.name.clone(),
                detail: format!("a misaligned launch of the plan was not refused: {r:?}"),
            });
        }
    }
    let kind = launched.kind;
    if !bench {
        return Ok(format!("{n} elements, {kind}"));
    }
    // bandwidth: the kernel against a device-to-device copy of the same bytes, same run
    let bytes = 2.0 * n as f64 * e as f64;
    let t_kernel = gpu.time_ms(3, 20, || gpu.copy(&src, &dst, Stream::OWN).map(|_| ()))?;
    let (a, b) = (
        DeviceBuffer::zeroed(gpu, n as usize * e)?,
        DeviceBuffer::zeroed(gpu, n as usize * e)?,
    );
    let t_d2d = gpu.time_ms(3, 20, || b.copy_from(gpu, &a, n as usize * e, Stream::OWN))?;
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
