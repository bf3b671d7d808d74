//! COPY on the GPU, planned by the algebra: `dst(c) = src(c)` for every coordinate `c` of two
//! layouts of equal size, any rank, any integer strides (negative ones too).
//!
//! The plan:
//!
//! 1. **Joint modes.** Both layouts are refined to common leaves and jointly coalesced
//!    ([`cute::copy_modes`]), sorted by destination stride. Mode 0 is then the destination's
//!    fastest mode.
//! 2. **Kernel.** When the source's fastest mode is mode 0 as well (or no mode has source stride
//!    1), a **direct** kernel moves vectors along mode 0. When the source is fastest in another mode
//!    `k` (a transpose, or a permutation of any rank), a **transposing** kernel stages `T × T`
//!    tiles of modes 0 and `k` through shared memory: thread-value layouts read the source in
//!    vectors along `k` and write the destination in vectors along 0, each thread transposing a
//!    `V × V` block in registers. The shared-memory tile is `Sw ∘ (T,T):(1,T)` with the swizzle
//!    `Sw` found by [`cute::swizzle_search`] for the two access patterns, so both are
//!    conflict-free. The remaining modes enumerate the tiles (block index).
//! 3. **Vectors.** The vector width `V` is the largest power of two with `V·bytes ≤ 16` that
//!    divides the vector mode's extent, every other stride and both base offsets: then every
//!    vector access is one aligned instruction (the paper's max_common_vector, limited by
//!    alignment).
//! 4. **Edges.** Ragged extents are handled by predicating each vector on the identity tensor of
//!    the tile: coordinate `< extent` in modes 0 and `k`.
//! 5. **Code.** Every index expression is generated from these layouts with their shapes, strides
//!    and swizzle as constants, so the compiler folds the divisions into multiplications.
//!
//! Layouts whose leaves have no common refinement use the **generic** kernel: each element
//! evaluates `src(i)` and `dst(i)` (the paper's generic COPY loop, one thread per element).
//!
//! ```
//! use cute::Layout;
//! use cute_cuda::atom::DType;
//! use cute_cuda::copy::{plan_copy, CopyKernel};
//! let src: Layout = "(4096,4096):(4096,1)".parse().unwrap(); // row-major
//! let dst: Layout = "(4096,4096):(1,4096)".parse().unwrap(); // column-major
//! let plan = plan_copy(&src, &dst, DType::F32).unwrap();
//! assert!(matches!(plan.kernel, CopyKernel::Transpose { tile: (64, 64), vector: 4, .. }));
//! assert!(plan.source.contains("__global__"));
//! ```

use cute::{copy_modes, swizzle_search, CopyMode, Layout, Swizzle};

use crate::atom::DType;
use crate::codegen::{
    ceil_div, index_type, layout_eval_expr, pow2_dividing, swizzle_expr, vector_type, Code,
};
use crate::error::GpuError;

/// Threads per block of the COPY kernels.
pub const COPY_THREADS: i64 = 256;
/// Vectors each thread of the direct kernel moves.
pub const DIRECT_UNROLL: i64 = 4;
/// The smallest extent of both tile modes for which the transposing kernel is used.
pub const MIN_TRANSPOSE_EXTENT: i64 = 8;
/// The most elements for which a destination that is not injective is checked by enumeration.
pub const NONINJECTIVE_CHECK_LIMIT: i64 = 1 << 22;
/// The static shared memory a kernel may declare (48 KiB on every architecture; more needs
/// dynamic shared memory and an opt-in), which bounds the transpose's tile.
pub const STATIC_SMEM_BYTES: i64 = 48 * 1024;

/// The kernel a COPY plan chose.
#[allow(clippy::large_enum_variant)] // plans are made once per kernel
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopyKernel {
    /// Vectors of `vector` elements along mode 0, contiguous in source and destination (`vector`
    /// may be 1: strided elements).
    Direct {
        /// Elements per access.
        vector: i64,
    },
    /// Tiles of `tile × tile` elements of modes 0 and `src_mode` through shared memory.
    Transpose {
        /// The joint mode in which the source is contiguous.
        src_mode: usize,
        /// Tile extents along modes 0 and `src_mode`, in elements.
        tile: (i64, i64),
        /// Elements per access, in global and shared memory.
        vector: i64,
        /// The swizzle of the shared-memory tile, from the bank-conflict search.
        swizzle: Swizzle,
        /// The shared-memory tile layout (coordinate `(i0, ik)` ↦ element), before the swizzle.
        smem: Layout,
        /// The thread-value layout of the shared-memory writes (one warp).
        tv_write: Layout,
        /// The thread-value layout of the shared-memory reads (one warp).
        tv_read: Layout,
    },
    /// One element per thread: `dst(i) = src(i)` with both layouts evaluated.
    Generic,
}

/// A planned GPU COPY: the derived plan and the CUDA C++ that runs it.
#[derive(Clone, Debug)]
pub struct GpuCopyPlan {
    /// The source layout.
    pub src: Layout,
    /// The destination layout.
    pub dst: Layout,
    /// The element type.
    pub dtype: DType,
    /// The joint modes (empty for the generic kernel).
    pub modes: Vec<CopyMode>,
    /// The kernel.
    pub kernel: CopyKernel,
    /// Smallest and largest source offset.
    pub src_range: (i64, i64),
    /// Smallest and largest destination offset.
    pub dst_range: (i64, i64),
    /// Blocks of the launch.
    pub grid: u32,
    /// Threads per block.
    pub block: u32,
    /// Dynamic shared memory per block, in bytes.
    pub smem_bytes: u32,
    /// The kernel's name in `source`.
    pub name: String,
    /// The CUDA C++ source.
    pub source: String,
}

/// The smallest and largest offset of a layout with integer strides; an error when either
/// overflows `i64`.
///
/// ```
/// use cute_cuda::copy::offset_range;
/// assert_eq!(offset_range(&"(4,8):(-8,1)".parse().unwrap()).unwrap(), (-24, 7));
/// let huge = "(2,2):(4611686018427387904,4611686018427387904)".parse().unwrap();
/// assert!(offset_range(&huge).is_err());
/// ```
pub fn offset_range(l: &Layout) -> Result<(i64, i64), GpuError> {
    let overflow = || GpuError::unsupported("copy plan", format!("{l}: offsets overflow i64"));
    let (mut lo, mut hi) = (0i64, 0i64);
    for k in 0..l.leaf_count() {
        let (s, d) = l.leaf_at(k);
        let reach = (s - 1).checked_mul(d).ok_or_else(overflow)?;
        if reach < 0 {
            lo = lo.checked_add(reach).ok_or_else(overflow)?;
        } else {
            hi = hi.checked_add(reach).ok_or_else(overflow)?;
        }
    }
    Ok((lo, hi))
}

/// The bytes that offsets `r` (from [`offset_range`]) of `l`, elements of `dtype`, span; an
/// error of `op` naming `the {what} {l}` when they are more than an `i64` counts (no buffer of a
/// 64-bit address space holds them).
pub(crate) fn byte_span(
    op: &'static str,
    what: &str,
    l: &Layout,
    r: (i64, i64),
    dtype: DType,
) -> Result<i64, GpuError> {
    r.1.checked_sub(r.0)
        .and_then(|d| d.checked_add(1))
        .and_then(|d| d.checked_mul(dtype.bytes()))
        .ok_or_else(|| {
            GpuError::unsupported(
                op,
                format!(
                    "the {what} {l} reaches offsets {}..={} of {dtype}: more bytes than an \
                     address space holds",
                    r.0, r.1
                ),
            )
        })
}

/// Plans the GPU COPY of `src` into `dst` for elements of `dtype`, both buffers 16-byte aligned
/// at their smallest offsets.
///
/// Fails when the layouts are not of integer strides, their sizes differ, an offset overflows, or
/// the destination is not injective where two of its equal offsets would receive different source
/// elements (a parallel COPY's result would then depend on the order of the writes).
pub fn plan_copy(src: &Layout, dst: &Layout, dtype: DType) -> Result<GpuCopyPlan, GpuError> {
    let full = 16 / dtype.bytes();
    plan_copy_aligned(src, dst, dtype, (full, full))
}

/// [`plan_copy`] for buffers aligned, at their smallest offsets, to `align.0` (source) and
/// `align.1` (destination) elements (powers of two): no vector access is wider than that.
///
/// ```
/// use cute_cuda::{atom::DType, copy::{plan_copy_aligned, CopyKernel}};
/// let l = "(1024,64):(1,1024)".parse().unwrap();
/// let p = plan_copy_aligned(&l, &l, DType::F32, (4, 2)).unwrap();
/// assert_eq!(p.kernel, CopyKernel::Direct { vector: 2 });
/// ```
pub fn plan_copy_aligned(
    src: &Layout,
    dst: &Layout,
    dtype: DType,
    align: (i64, i64),
) -> Result<GpuCopyPlan, GpuError> {
    let src_range = offset_range(src)?;
    let dst_range = offset_range(dst)?;
    for (what, l, r) in [("source", src, src_range), ("destination", dst, dst_range)] {
        byte_span("copy plan", what, l, r, dtype)?;
    }
    let n = src.size();
    let name = "cute_copy".to_string();
    let modes = match copy_modes(src, dst)? {
        Some(m) => m,
        None => {
            check_writes_agree(src, dst, n)?;
            let (grid, source) = generic_source(&name, src, dst, dtype, src_range, dst_range)?;
            return Ok(GpuCopyPlan {
                src: *src,
                dst: *dst,
                dtype,
                modes: Vec::new(),
                kernel: CopyKernel::Generic,
                src_range,
                dst_range,
                grid,
                block: COPY_THREADS as u32,
                smem_bytes: 0,
                name,
                source,
            });
        }
    };
    let mut plan = GpuCopyPlan {
        src: *src,
        dst: *dst,
        dtype,
        modes: modes.clone(),
        kernel: CopyKernel::Generic,
        src_range,
        dst_range,
        grid: 1,
        block: COPY_THREADS as u32,
        smem_bytes: 0,
        name,
        source: String::new(),
    };
    let max_v = 16 / dtype.bytes();
    // the source's fastest mode: smallest nonzero |stride|
    let k = (0..modes.len())
        .filter(|&i| modes[i].src_stride != 0)
        .min_by_key(|&i| (modes[i].src_stride.unsigned_abs(), i));
    let transposing = match (modes.first(), k) {
        (Some(m0), Some(k)) => {
            k != 0
                && m0.dst_stride == 1
                && modes[k].src_stride == 1
                && m0.n >= MIN_TRANSPOSE_EXTENT
                && modes[k].n >= MIN_TRANSPOSE_EXTENT
        }
        _ => false,
    };
    if transposing {
        let k = k.unwrap_or(0);
        // the vector must divide both tile modes, every other stride and the base offsets
        let mut xs = vec![
            modes[0].n,
            modes[k].n,
            // divisibility by powers of two survives wrapping negation (of i64::MIN too)
            src_range.0.wrapping_neg(),
            dst_range.0.wrapping_neg(),
            align.0,
            align.1,
        ];
        for (i, m) in modes.iter().enumerate() {
            if i != 0 {
                xs.push(m.dst_stride);
            }
            if i != k {
                xs.push(m.src_stride);
            }
        }
        let mut v = pow2_dividing(max_v, &xs);
        // the tile (at most COPY_THREADS blocks of V×V elements) lives in static shared memory,
        // which holds 48 KiB: 1-byte elements in 16-wide vectors would need 64 KiB
        while v > 1 && COPY_THREADS * v * v * dtype.bytes() > STATIC_SMEM_BYTES {
            v /= 2;
        }
        transpose_plan(&mut plan, k, v)?;
    } else {
        let v = match modes.first() {
            Some(m0) if m0.src_stride == 1 && m0.dst_stride == 1 => {
                let mut xs = vec![
                    m0.n,
                    src_range.0.wrapping_neg(),
                    dst_range.0.wrapping_neg(),
                    align.0,
                    align.1,
                ];
                for m in &modes[1..] {
                    xs.push(m.src_stride);
                    xs.push(m.dst_stride);
                }
                pow2_dividing(max_v, &xs)
            }
            _ => 1,
        };
        direct_plan(&mut plan, v)?;
    }
    Ok(plan)
}

/// A destination that is not provably injective is accepted only when every repeated offset
/// receives one source offset (e.g. a constant written from a broadcast), checked by enumeration.
fn check_writes_agree(src: &Layout, dst: &Layout, n: i64) -> Result<(), GpuError> {
    // an injective destination receives each element once (decided without enumerating)
    if cute::geometry::check_injective(dst, cute::Op::Copy).is_ok() {
        return Ok(());
    }
    if n > NONINJECTIVE_CHECK_LIMIT {
        return Err(GpuError::unsupported(
            "copy plan",
            format!(
                "{src} → {dst}: the leaves have no common refinement and the destination is not \
                 shown injective; with {n} elements (over {NONINJECTIVE_CHECK_LIMIT}) its writes \
                 are not enumerated"
            ),
        ));
    }
    let mut seen = std::collections::HashMap::with_capacity(n as usize);
    for i in 0..n {
        let (s, d) = (src.eval(i)?, dst.eval(i)?);
        if let Some(&s0) = seen.get(&d) {
            if s0 != s {
                return Err(GpuError::unsupported(
                    "copy plan",
                    format!(
                        "{src} → {dst}: destination offset {d} receives source offsets {s0} and \
                         {s}; the result of a parallel COPY would depend on the order of writes"
                    ),
                ));
            }
        } else {
            seen.insert(d, s);
        }
    }
    Ok(())
}

fn direct_plan(plan: &mut GpuCopyPlan, v: i64) -> Result<(), GpuError> {
    let modes = &plan.modes;
    let n: i64 = modes.iter().map(|m| m.n).product::<i64>().max(1);
    let q = n / v; // vectors
    let per_block = COPY_THREADS * DIRECT_UNROLL;
    let grid = ceil_div(q, per_block);
    if grid > i32::MAX as i64 {
        return Err(GpuError::unsupported(
            "copy plan",
            "too many blocks for one launch",
        ));
    }
    let it = index_type(n, &[plan.src_range, plan.dst_range]);
    let e = plan.dtype;
    let vt = vector_type(v * e.bytes())?;
    let mut c = Code::new();
    c.line(format!(
        "// COPY {} -> {} ({e}): direct, vector {v}, joint modes {}",
        plan.src,
        plan.dst,
        modes_text(modes)
    ));
    c.line(format!(
        "extern \"C\" __global__ void __launch_bounds__({COPY_THREADS}) {}(const {vt}* __restrict__ src_v, {vt}* __restrict__ dst_v) {{",
        plan.name
    ));
    c.line(format!("  typedef {it} idx;"));
    c.line(format!(
        "  const idx j0 = (idx)blockIdx.x * {per_block} + threadIdx.x;"
    ));
    c.line(format!(
        "  {vt} r[{DIRECT_UNROLL}]; idx so[{DIRECT_UNROLL}], dof[{DIRECT_UNROLL}];"
    ));
    c.line("#pragma unroll");
    c.line(format!("  for (int u = 0; u < {DIRECT_UNROLL}; ++u) {{"));
    c.line(format!("    idx j = j0 + u * {COPY_THREADS};"));
    c.line("    so[u] = 0; dof[u] = 0;");
    c.line(format!("    if (j < (idx){q}) {{"));
    // mode 0 in vectors, then the others: j = c0 + n0/v * (c1 + n1 * (...))
    let mut rest = "j".to_string();
    for (i, m) in modes.iter().enumerate() {
        let ext = if i == 0 { m.n / v } else { m.n };
        let last = i + 1 == modes.len();
        let coord = if last {
            rest.clone()
        } else {
            format!("({rest}) % {ext}")
        };
        c.line(format!("      {{ idx c = {coord};"));
        let (ss, ds) = if i == 0 {
            (m.src_stride * v, m.dst_stride * v)
        } else {
            (m.src_stride, m.dst_stride)
        };
        c.line(format!(
            "        so[u] += c * ({ss}); dof[u] += c * ({ds}); }}"
        ));
        if !last {
            c.line(format!("      idx q{i} = ({rest}) / {ext};"));
            rest = format!("q{i}");
        }
    }
    // the base offsets make every offset non-negative; pointers are passed at offset 0
    c.line(format!(
        "      r[u] = src_v[(so[u] + ({})) / {v}];",
        -plan.src_range.0
    ));
    c.line("    }");
    c.line("  }");
    c.line("#pragma unroll");
    c.line(format!("  for (int u = 0; u < {DIRECT_UNROLL}; ++u) {{"));
    c.line(format!(
        "    if (j0 + u * {COPY_THREADS} < (idx){q}) dst_v[(dof[u] + ({})) / {v}] = r[u];",
        -plan.dst_range.0
    ));
    c.line("  }");
    c.line("}");
    plan.kernel = CopyKernel::Direct { vector: v };
    plan.grid = grid.max(1) as u32;
    plan.source = c.finish();
    Ok(())
}

fn transpose_plan(plan: &mut GpuCopyPlan, k: usize, v: i64) -> Result<(), GpuError> {
    let modes = plan.modes.clone();
    let e = plan.dtype;
    // the tile's destination-contiguous side: mode 0, joined (while it is short of a full tile)
    // by the modes that continue it in the destination (destination stride = the extent so
    // far); in the source these rows are a hierarchical layout
    let mut row_modes = vec![0usize];
    let mut n0 = modes[0].n;
    while n0 < 16 * v {
        let next = (1..modes.len())
            .find(|&j| j != k && !row_modes.contains(&j) && modes[j].dst_stride == n0);
        match next {
            Some(j) if n0.checked_mul(modes[j].n).is_some() => {
                row_modes.push(j);
                n0 *= modes[j].n;
            }
            _ => break,
        }
    }
    let row_src: Layout = {
        let ns: Vec<String> = row_modes.iter().map(|&j| modes[j].n.to_string()).collect();
        let ss: Vec<String> = row_modes
            .iter()
            .map(|&j| modes[j].src_stride.to_string())
            .collect();
        format!("({}):({})", ns.join(","), ss.join(",")).parse()?
    };
    let nk = modes[k].n;
    // the tile: q0 vectors along mode 0 by qk along mode k, one V×V block per thread, at most
    // 256 threads; square (16×16) unless a mode is short, when the tile narrows to it and grows
    // along the other
    let blocks_per_tile = COPY_THREADS;
    let mut q0 = 16;
    while q0 > 1 && (q0 / 2) * v >= n0 {
        q0 /= 2;
    }
    if q0 == 16 {
        while q0 < blocks_per_tile / 2 && (blocks_per_tile / q0 / 2) * v >= nk {
            q0 *= 2;
        }
    }
    // along k, no more blocks than the mode needs (a short mode gets a smaller block of
    // threads), but at least one warp
    let mut qk = blocks_per_tile / q0;
    while qk > 1 && (qk / 2) * v >= nk && q0 * (qk / 2) >= 32 {
        qk /= 2;
    }
    let threads = q0 * qk;
    let (tile0, tilek) = (q0 * v, qk * v);
    // shared-memory tile: coordinate (i0, ik) ↦ i0 + T0·ik (the destination's order)
    let smem: Layout = format!("({tile0},{tilek}):(1,{tile0})").parse()?;
    // writes: thread t owns the V×V block (bs = t % qk along k, bd = t / qk along 0) and writes,
    // for each c < V, the V elements i0 = bd·V + v of row ik = bs·V + c
    let tv_write: Layout = if qk >= 32 {
        format!("(32,({v},{v})):({},(1,{tile0}))", v * tile0)
    } else {
        format!(
            "(({qk},{}),({v},{v})):(({},{v}),(1,{tile0}))",
            32 / qk,
            v * tile0
        )
    }
    .parse()?;
    // reads: thread t reads the V elements i0 = (t % q0)·V + v of row ik = t / q0
    let tv_read: Layout = if q0 >= 32 {
        format!("(32,{v}):({v},1)")
    } else {
        format!("(({q0},{}),{v}):(({v},{tile0}),1)", 32 / q0)
    }
    .parse()?;
    // the bank model covers 4-, 8- and 16-byte accesses; narrower ones (2-byte scalars) keep the
    // tile unswizzled
    let sw = if v * e.bytes() >= 4 {
        swizzle_search(&smem, &[tv_write, tv_read], e.bytes(), v)?.swizzle
    } else {
        Swizzle::IDENTITY
    };
    let (t0, tk) = (ceil_div(n0, tile0), ceil_div(nk, tilek));
    let others: Vec<(usize, CopyMode)> = modes
        .iter()
        .copied()
        .enumerate()
        .filter(|&(i, _)| i != k && !row_modes.contains(&i))
        .collect();
    let blocks: i64 = t0 * tk * others.iter().map(|(_, m)| m.n).product::<i64>();
    if blocks > i32::MAX as i64 {
        return Err(GpuError::unsupported(
            "copy plan",
            "too many tiles for one launch",
        ));
    }
    let n: i64 = modes.iter().map(|m| m.n).product();
    let it = index_type(n, &[plan.src_range, plan.dst_range]);
    let vt = vector_type(v * e.bytes())?;
    let et = e.cuda_bits_type();
    let b = modes[k].dst_stride;
    let mut c = Code::new();
    c.line(format!(
        "// COPY {} -> {} ({e}): transpose of joint modes 0 and {k} in {tile0}x{tilek} tiles, vector {v}, smem {sw} o {smem}",
        plan.src, plan.dst
    ));
    c.line(format!("// joint modes {}", modes_text(&modes)));
    c.line(format!(
        "// tile rows: joint modes {row_modes:?}, source layout {row_src}"
    ));
    c.line(format!("// smem writes {tv_write}, reads {tv_read}"));
    c.line(format!(
        "extern \"C\" __global__ void __launch_bounds__({threads}) {}(const {et}* __restrict__ src, {et}* __restrict__ dst) {{",
        plan.name
    ));
    c.line(format!("  typedef {it} idx;"));
    c.line(format!(
        "  __shared__ __align__(16) {et} sm[{}];",
        tile0 * tilek
    ));
    c.line("  const int t = threadIdx.x;");
    // block index -> (tile along 0, tile along k, other coordinates)
    c.line("  idx b = blockIdx.x;");
    // block order: the tiles along 0 and k and the other modes, by destination stride, so that
    // neighbouring blocks write neighbouring destination rows
    c.line(format!(
        "  idx so = {}, dof = {}, g0 = 0, gk = 0;",
        -plan.src_range.0, -plan.dst_range.0
    ));
    let mut dims: Vec<(i64, String)> = vec![
        (tile0, format!("g0 = (b % {t0}) * {tile0}; b /= {t0};")),
        (
            b.saturating_mul(tilek).saturating_abs(),
            format!("gk = (b % {tk}) * {tilek}; b /= {tk};"),
        ),
    ];
    for (_, m) in others.iter() {
        dims.push((
            m.dst_stride.saturating_abs(),
            format!(
                "so += (b % {}) * ({}); dof += (b % {}) * ({}); b /= {};",
                m.n, m.src_stride, m.n, m.dst_stride, m.n
            ),
        ));
    }
    dims.sort_by_key(|d| d.0);
    for (_, line) in dims {
        c.line(format!("  {line}"));
    }
    c.line(format!("  so += gk; dof += g0 + gk * ({b});"));
    // load: V vectors along k from rows i0 = bd·V + r
    c.line(format!("  const int bs = t % {qk}, bd = t / {qk};"));
    c.line(format!("  __align__(16) {et} w[{v}][{v}];"));
    c.line(format!(
        "  const bool okk = gk + bs * {v} < {nk};  // identity-tensor predicate, mode {k}"
    ));
    c.line("#pragma unroll");
    c.line(format!("  for (int r = 0; r < {v}; ++r) {{"));
    c.line(format!("    const int i0 = bd * {v} + r;"));
    c.line(format!("    {vt} x = {{}};"));
    c.line(format!(
        "    if (okk && g0 + i0 < {n0}) x = *(const {vt}*)(src + so + {} + bs * {v});",
        layout_eval_expr(&row_src, "(g0 + i0)")
    ));
    c.line(format!("    const {et}* xe = (const {et}*)&x;"));
    c.line("#pragma unroll");
    c.line(format!(
        "    for (int cc = 0; cc < {v}; ++cc) w[cc][r] = xe[cc];"
    ));
    c.line("  }");
    // write V vectors into smem: row ik = bs·V + cc, columns i0 = bd·V ..
    c.line("#pragma unroll");
    c.line(format!("  for (int cc = 0; cc < {v}; ++cc) {{"));
    c.line(format!(
        "    const int o = bd * {v} + (bs * {v} + cc) * {tile0};"
    ));
    c.line(format!(
        "    *({vt}*)(sm + {}) = *(const {vt}*)w[cc];",
        swizzle_expr(&sw, "o")
    ));
    c.line("  }");
    c.line("  __syncthreads();");
    // store: V passes, each a row ik = t / q0 + pass·(256 / q0), vector i0 = (t % q0)·V
    c.line(format!("  const int c0 = (t % {q0}) * {v};"));
    c.line(format!(
        "  const bool ok0 = g0 + c0 < {n0};  // identity-tensor predicate, mode 0"
    ));
    c.line("#pragma unroll");
    c.line(format!("  for (int p = 0; p < {v}; ++p) {{"));
    c.line(format!("    const int ik = t / {q0} + p * {qk};"));
    c.line(format!("    const int o = c0 + ik * {tile0};"));
    c.line(format!(
        "    if (ok0 && gk + ik < {nk}) *({vt}*)(dst + dof + c0 + (idx)ik * ({b})) = *(const {vt}*)(sm + {});",
        swizzle_expr(&sw, "o")
    ));
    c.line("  }");
    c.line("}");
    plan.kernel = CopyKernel::Transpose {
        src_mode: k,
        tile: (tile0, tilek),
        vector: v,
        swizzle: sw,
        smem,
        tv_write,
        tv_read,
    };
    plan.grid = blocks.max(1) as u32;
    plan.block = threads as u32;
    plan.smem_bytes = 0;
    plan.source = c.finish();
    Ok(())
}

/// The generic kernel: one element per thread, both layouts evaluated from their leaves.
fn generic_source(
    name: &str,
    src: &Layout,
    dst: &Layout,
    dtype: DType,
    src_range: (i64, i64),
    dst_range: (i64, i64),
) -> Result<(u32, String), GpuError> {
    let n = src.size();
    let grid = ceil_div(n, COPY_THREADS);
    if grid > i32::MAX as i64 {
        return Err(GpuError::unsupported(
            "copy plan",
            "too many blocks for one launch",
        ));
    }
    let it = index_type(n, &[src_range, dst_range]);
    let et = dtype.cuda_bits_type();
    let mut c = Code::new();
    c.line(format!(
        "// COPY {src} -> {dst} ({dtype}): generic, one element per thread"
    ));
    c.line(format!(
        "extern \"C\" __global__ void __launch_bounds__({COPY_THREADS}) {name}(const {et}* __restrict__ src, {et}* __restrict__ dst) {{"
    ));
    c.line(format!("  typedef {it} idx;"));
    c.line(format!(
        "  const idx i = (idx)blockIdx.x * {COPY_THREADS} + threadIdx.x;"
    ));
    c.line(format!("  if (i >= {n}) return;"));
    c.line(format!(
        "  dst[{} + ({})] = src[{} + ({})];",
        crate::codegen::layout_eval_expr(dst, "i"),
        -dst_range.0,
        crate::codegen::layout_eval_expr(src, "i"),
        -src_range.0
    ));
    c.line("}");
    Ok((grid.max(1) as u32, c.finish()))
}

/// The joint modes as `n:src/dst` items.
pub fn modes_text(modes: &[CopyMode]) -> String {
    let items: Vec<String> = modes
        .iter()
        .map(|m| format!("{}:{}/{}", m.n, m.src_stride, m.dst_stride))
        .collect();
    format!("[{}]", items.join(", "))
}

impl GpuCopyPlan {
    /// The plan in a few lines: kernel, modes, tile, vector, swizzle, launch.
    ///
    /// ```
    /// use cute_cuda::{atom::DType, copy::plan_copy};
    /// let p = plan_copy(&"(8,3):(1,8)".parse().unwrap(), &"(8,3):(3,1)".parse().unwrap(), DType::F32)
    ///     .unwrap();
    /// assert!(p.describe().contains("joint modes [3:8/1, 8:1/3]"));
    /// ```
    pub fn describe(&self) -> String {
        let mut s = format!(
            "copy {} -> {} ({})\n  joint modes {}\n",
            self.src,
            self.dst,
            self.dtype,
            modes_text(&self.modes)
        );
        match &self.kernel {
            CopyKernel::Direct { vector } => {
                s += &format!("  kernel direct, vector {vector} elements\n");
            }
            CopyKernel::Transpose {
                src_mode,
                tile,
                vector,
                swizzle,
                smem,
                tv_write,
                tv_read,
            } => {
                s += &format!(
                    "  kernel transpose of modes 0 and {src_mode}, tile {}x{}, vector {vector}\n  smem {swizzle} o 0 o {smem}\n  smem writes TV {tv_write}\n  smem reads TV {tv_read}\n",
                    tile.0, tile.1
                );
            }
            CopyKernel::Generic => s += "  kernel generic (no common refinement)\n",
        }
        s += &format!(
            "  launch {} blocks x {} threads, src offsets {}..={}, dst offsets {}..={}",
            self.grid,
            self.block,
            self.src_range.0,
            self.src_range.1,
            self.dst_range.0,
            self.dst_range.1
        );
        s
    }

    /// Elements in the source buffer the kernel reads (`max - min + 1` offsets).
    pub fn src_len(&self) -> i64 {
        self.src_range.1 - self.src_range.0 + 1
    }

    /// Elements in the destination buffer the kernel writes.
    pub fn dst_len(&self) -> i64 {
        self.dst_range.1 - self.dst_range.0 + 1
    }

    /// Bytes moved (read plus written), as a copy of `size` elements counts them.
    pub fn bytes_moved(&self) -> i64 {
        2 * self.src.size() * self.dtype.bytes()
    }
}
