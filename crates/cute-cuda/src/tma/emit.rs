//! CUDA C++ for TMA: the descriptor type, the mbarrier, the loads and stores of
//! `cp.async.bulk.tensor` and the proxy fence, as device functions; the TMA coordinates of a tile
//! written from the grid layout; and the tile-by-tile copy kernel `tma_copy`.
//!
//! NVRTC has no `cuda.h`: the descriptor is declared here as a 128-byte aligned struct of 128
//! bytes (`CUtensorMap`'s size and alignment in CUDA 13), passed by value as a
//! `const __grid_constant__` kernel parameter; the instructions take its generic address.

use crate::codegen::{coordinate_exprs, layout_eval_expr, swizzle_expr, Code};
use crate::error::GpuError;
use crate::tma::TmaCopy;

/// The name of the descriptor struct in the generated source.
pub const MAP_TYPE: &str = "CuteTensorMap";

/// Threads of the copy kernel.
pub const COPY_THREADS: u32 = 128;

/// `{%a, %a+1, …}`: the coordinate operands of a rank-`rank` instruction whose first coordinate
/// is operand `first`.
fn coord_operands(rank: usize, first: usize) -> String {
    let v: Vec<String> = (0..rank).map(|k| format!("%{}", first + k)).collect();
    format!("{{{}}}", v.join(", "))
}

fn coord_params(rank: usize) -> String {
    (0..rank).map(|k| format!(", int c{k}")).collect::<String>()
}

fn coord_inputs(rank: usize) -> String {
    (0..rank)
        .map(|k| format!(", \"r\"(c{k})"))
        .collect::<String>()
}

/// Declares the descriptor struct and the device functions of TMA and the mbarrier, with the
/// loads and stores of the given ranks (1 to 5):
/// `cute_mbar_init`, `cute_fence_mbar_init`, `cute_mbar_expect_tx`, `cute_mbar_arrive`, `cute_mbar_wait` (the
/// `try_wait.parity` loop), `cute_fence_proxy_async`, `cute_tma_load_{N}d`,
/// `cute_tma_store_{N}d`, `cute_bulk_commit`, `cute_bulk_wait_read0`, `cute_bulk_wait_read1` (at most
/// one bulk group still reading shared memory), `cute_bulk_wait0` (every bulk group complete).
///
/// ```
/// let mut c = cute_cuda::codegen::Code::new();
/// cute_cuda::tma::emit::emit_tma_prelude(&mut c, &[2]);
/// let src = c.finish();
/// assert!(src.contains("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"));
/// assert!(src.contains("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"));
/// ```
pub fn emit_tma_prelude(c: &mut Code, ranks: &[usize]) {
    c.line(format!(
        "struct __align__(128) {MAP_TYPE} {{ unsigned long long opaque[16]; }};"
    ));
    c.line("__device__ __forceinline__ void cute_mbar_init(unsigned bar, unsigned count) {");
    c.line("  asm volatile(\"mbarrier.init.shared::cta.b64 [%0], %1;\" :: \"r\"(bar), \"r\"(count) : \"memory\");");
    c.line("}");
    c.line("__device__ __forceinline__ void cute_fence_mbar_init() {");
    c.line("  asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\");");
    c.line("}");
    c.line("__device__ __forceinline__ void cute_mbar_expect_tx(unsigned bar, unsigned bytes) {");
    c.line("  asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\" :: \"r\"(bar), \"r\"(bytes) : \"memory\");");
    c.line("}");
    c.line("__device__ __forceinline__ void cute_mbar_arrive(unsigned bar) {");
    c.line(
        "  asm volatile(\"mbarrier.arrive.shared::cta.b64 _, [%0];\" :: \"r\"(bar) : \"memory\");",
    );
    c.line("}");
    c.line("__device__ __forceinline__ void cute_mbar_wait(unsigned bar, unsigned phase) {");
    c.line("  unsigned done = 0;");
    c.line("  while (!done) {");
    c.line("    asm volatile(\"{\\n.reg .pred p;\\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\\nselp.u32 %0, 1, 0, p;\\n}\" : \"=r\"(done) : \"r\"(bar), \"r\"(phase) : \"memory\");");
    c.line("  }");
    c.line("}");
    c.line("__device__ __forceinline__ void cute_fence_proxy_async() {");
    c.line("  asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");");
    c.line("}");
    c.line("__device__ __forceinline__ void cute_bulk_commit() {");
    c.line("  asm volatile(\"cp.async.bulk.commit_group;\" ::: \"memory\");");
    c.line("}");
    c.line("__device__ __forceinline__ void cute_bulk_wait_read0() {");
    c.line("  asm volatile(\"cp.async.bulk.wait_group.read 0;\" ::: \"memory\");");
    c.line("}");
    c.line("__device__ __forceinline__ void cute_bulk_wait_read1() {");
    c.line("  asm volatile(\"cp.async.bulk.wait_group.read 1;\" ::: \"memory\");");
    c.line("}");
    c.line("__device__ __forceinline__ void cute_bulk_wait0() {");
    c.line("  asm volatile(\"cp.async.bulk.wait_group 0;\" ::: \"memory\");");
    c.line("}");
    let mut ranks: Vec<usize> = ranks.to_vec();
    ranks.sort_unstable();
    ranks.dedup();
    for r in ranks {
        c.line(format!(
            "__device__ __forceinline__ void cute_tma_load_{r}d(unsigned dst, const {MAP_TYPE}* map, unsigned bar{}) {{",
            coord_params(r)
        ));
        c.line(format!(
            "  asm volatile(\"cp.async.bulk.tensor.{r}d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {}], [%2];\" :: \"r\"(dst), \"l\"(map), \"r\"(bar){} : \"memory\");",
            coord_operands(r, 3),
            coord_inputs(r)
        ));
        c.line("}");
        c.line(format!(
            "__device__ __forceinline__ void cute_tma_store_{r}d(const {MAP_TYPE}* map, unsigned src{}) {{",
            coord_params(r)
        ));
        c.line(format!(
            "  asm volatile(\"cp.async.bulk.tensor.{r}d.global.shared::cta.bulk_group [%0, {}], [%1];\" :: \"l\"(map), \"r\"(src){} : \"memory\");",
            coord_operands(r, 2),
            coord_inputs(r)
        ));
        c.line("}");
    }
}

/// Declares the device functions a cluster of CTAs needs: `cute_tma_load_mc_{N}d` (a TMA load
/// multicast to the CTAs of `mask`, each receiving the box at the same shared-memory offset and
/// the bytes on its mbarrier at the same offset), `cute_mbar_arrive_cta` (an arrival on the
/// mbarrier at the same offset in CTA `cta` of the cluster, with the default release at CTA scope,
/// as CUTLASS's `ClusterBarrier::arrive`: what it orders, the reads of a stage by `wgmma`, are
/// complete before it (`wgmma.wait_group`), and a release at cluster scope fences every arrival,
/// which Nsight Compute showed as `membar` stalls at half the GEMM's rate) and `cute_cluster_sync`
/// (every thread of the cluster). Needs [`emit_tma_prelude`] before it.
///
/// ```
/// let mut c = cute_cuda::codegen::Code::new();
/// cute_cuda::tma::emit::emit_cluster_prelude(&mut c, &[2]);
/// let src = c.finish();
/// assert!(src.contains(".multicast::cluster"));
/// assert!(src.contains("mapa.shared::cluster.u32"));
/// // the remote arrival releases at CTA scope (a cluster-scope release fences every arrival)
/// assert!(src.contains("mbarrier.arrive.shared::cluster.b64 _, [remote]"));
/// assert!(!src.contains("release.cluster"));
/// ```
pub fn emit_cluster_prelude(c: &mut Code, ranks: &[usize]) {
    let mut ranks: Vec<usize> = ranks.to_vec();
    ranks.sort_unstable();
    ranks.dedup();
    for r in ranks {
        c.line(format!(
            "__device__ __forceinline__ void cute_tma_load_mc_{r}d(unsigned dst, const {MAP_TYPE}* map, unsigned bar, unsigned short mask{}) {{",
            coord_params(r)
        ));
        c.line(format!(
            "  asm volatile(\"cp.async.bulk.tensor.{r}d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {}], [%2], %3;\" :: \"r\"(dst), \"l\"(map), \"r\"(bar), \"h\"(mask){} : \"memory\");",
            coord_operands(r, 4),
            coord_inputs(r)
        ));
        c.line("}");
    }
    c.line("__device__ __forceinline__ void cute_mbar_arrive_cta(unsigned bar, unsigned cta) {");
    c.line("  asm volatile(\"{\\n.reg .b32 remote;\\nmapa.shared::cluster.u32 remote, %0, %1;\\nmbarrier.arrive.shared::cluster.b64 _, [remote];\\n}\" :: \"r\"(bar), \"r\"(cta) : \"memory\");");
    c.line("}");
    c.line("__device__ __forceinline__ void cute_cluster_sync() {");
    c.line("  asm volatile(\"barrier.cluster.arrive.release;\\nbarrier.cluster.wait.acquire;\" ::: \"memory\");");
    c.line("}");
}

/// The TMA coordinates of the tile whose index is the expression `tile`, one expression per
/// dimension, each written from the grid layout: dimension `k` is `grid` with every stride
/// `v@k` read as `v` and every other stride as 0.
///
/// ```
/// use cute_cuda::{atom::DType, tma::{emit::coord_exprs, make_tma_copy}};
/// let g = "(256,100):(1,256)".parse().unwrap();
/// let smem = cute::ComposedLayout::new(cute::Swizzle::new(0, 4, 3).unwrap(), 0,
///     "(64,8):(1,64)".parse().unwrap());
/// let tma = make_tma_copy(&g, &[64, 8], &smem, DType::F32).unwrap();
/// assert_eq!(coord_exprs(&tma, "t").unwrap(), vec!["(((t) % 4) * 64)", "(((t) / 4) * 8)"]);
/// ```
///
/// # Errors
///
/// Only a layout error of the grid (none for a grid [`crate::tma::make_tma_copy`] made).
pub fn coord_exprs(copy: &TmaCopy, tile: &str) -> Result<Vec<String>, GpuError> {
    coordinate_exprs(&copy.grid, copy.rank(), tile)
}

/// A generated TMA kernel and its launch.
#[derive(Clone, Debug)]
pub struct TmaKernel {
    /// The CUDA C++ source.
    pub source: String,
    /// The kernel's name.
    pub name: String,
    /// Blocks: one per tile.
    pub grid: u32,
    /// Threads per block.
    pub threads: u32,
    /// Dynamic shared memory in bytes (the box and the alignment slack).
    pub smem_bytes: u32,
}

/// The tile-by-tile copy `tma_copy(src, dst, probe)`: block `t` loads tile `t` of the tensor of
/// `src` into shared memory by TMA (an mbarrier with the box's transaction bytes), writes the tile
/// read through the shared-memory layout to `probe[t · N .. (t+1) · N]` (tile element `i` at
/// `probe[t · N + i]`: the host checks with it that the data sits where the layout says), then
/// stores the tile to the tensor of `dst` by TMA. `src` and `dst` are descriptors of `copy` over
/// two buffers of the same layout.
///
/// ```
/// use cute_cuda::{atom::DType, tma::{emit::tma_copy_kernel, make_tma_copy}};
/// let g = "(256,100):(1,256)".parse().unwrap();
/// let smem = cute::ComposedLayout::new(cute::Swizzle::new(0, 4, 3).unwrap(), 0,
///     "(64,8):(1,64)".parse().unwrap());
/// let k = tma_copy_kernel(&make_tma_copy(&g, &[64, 8], &smem, DType::F32).unwrap()).unwrap();
/// assert_eq!(k.grid, 4 * 13);
/// assert!(k.source.contains("cute_tma_load_2d(base, &src, bar, c0, c1);"));
/// ```
///
/// # Errors
///
/// A grid over 2^31 - 1 tiles.
pub fn tma_copy_kernel(copy: &TmaCopy) -> Result<TmaKernel, GpuError> {
    copy_kernel(copy, false)
}

/// The negative control of [`tma_copy_kernel`]: the same kernel with tile elements 0 and 1
/// exchanged when the probe reads the tile, so that a host check that accepts it checks nothing.
///
/// ```
/// use cute_cuda::{atom::DType, tma::{emit::tma_copy_kernel_perturbed, make_tma_copy}};
/// let g = "(256,100):(1,256)".parse().unwrap();
/// let smem = cute::ComposedLayout::new(cute::Swizzle::new(0, 4, 3).unwrap(), 0,
///     "(64,8):(1,64)".parse().unwrap());
/// let k = tma_copy_kernel_perturbed(&make_tma_copy(&g, &[64, 8], &smem, DType::F32).unwrap());
/// assert!(k.unwrap().source.contains("i < 2 ? 1 - i : i"));
/// ```
///
/// # Errors
///
/// As [`tma_copy_kernel`].
pub fn tma_copy_kernel_perturbed(copy: &TmaCopy) -> Result<TmaKernel, GpuError> {
    copy_kernel(copy, true)
}

fn copy_kernel(copy: &TmaCopy, perturb: bool) -> Result<TmaKernel, GpuError> {
    let tiles = copy.tiles();
    if tiles > i32::MAX as i64 {
        return Err(GpuError::unsupported(
            "tma copy kernel",
            format!("{tiles} tiles of {} exceed one block per tile", copy.global),
        ));
    }
    let r = copy.rank();
    let n = copy.box_elems();
    let t = copy.dtype.cuda_bits_type();
    let align = copy.swizzle.smem_align();
    let mut c = Code::new();
    c.line(format!("// {}", copy.describe()));
    emit_tma_prelude(&mut c, &[r]);
    c.line(format!(
        "extern \"C\" __global__ void __launch_bounds__({COPY_THREADS}) tma_copy(const __grid_constant__ {MAP_TYPE} src, const __grid_constant__ {MAP_TYPE} dst, {t}* __restrict__ probe) {{"
    ));
    c.line("  extern __shared__ __align__(128) unsigned char smem_raw[];");
    c.line("  __shared__ __align__(8) unsigned long long mbar;");
    c.line("  const unsigned raw = (unsigned)__cvta_generic_to_shared(smem_raw);");
    c.line(format!(
        "  const unsigned base = (raw + {}u) & ~{}u;",
        align - 1,
        align - 1
    ));
    c.line(format!(
        "  const {t}* tile = (const {t}*)(smem_raw + (base - raw));"
    ));
    c.line("  const unsigned bar = (unsigned)__cvta_generic_to_shared(&mbar);");
    c.line("  const int t = blockIdx.x;");
    let coords = coord_exprs(copy, "t")?;
    for (k, e) in coords.iter().enumerate() {
        c.line(format!("  const int c{k} = {e};"));
    }
    let args: String = (0..r).map(|k| format!(", c{k}")).collect();
    c.line("  if (threadIdx.x == 0) { cute_mbar_init(bar, 1); cute_fence_mbar_init(); }");
    c.line("  __syncthreads();");
    c.line("  if (threadIdx.x == 0) {");
    c.line(format!(
        "    cute_mbar_expect_tx(bar, {}u);",
        copy.box_bytes()
    ));
    c.line(format!("    cute_tma_load_{r}d(base, &src, bar{args});"));
    c.line("  }");
    c.line("  cute_mbar_wait(bar, 0);");
    c.line("  // the tile read through its shared-memory layout, in the tile's own order");
    let s_of_j = swizzle_expr(
        &copy.smem.swizzle,
        &layout_eval_expr(&copy.smem.layout, "j"),
    );
    let j = if perturb { "i < 2 ? 1 - i : i" } else { "i" };
    c.line(format!(
        "  for (int i = threadIdx.x; i < {n}; i += {COPY_THREADS}) {{ const int j = {j}; probe[(long long)t * {n} + i] = tile[{s_of_j}]; }}"
    ));
    c.line(
        "  // shared memory seen by the generic proxy before the async proxy (the store) reads it",
    );
    c.line("  cute_fence_proxy_async();");
    c.line("  __syncthreads();");
    c.line("  if (threadIdx.x == 0) {");
    c.line(format!("    cute_tma_store_{r}d(&dst, base{args});"));
    c.line("    cute_bulk_commit();");
    c.line("    cute_bulk_wait_read0();");
    c.line("  }");
    c.line("}");
    Ok(TmaKernel {
        source: c.finish(),
        name: "tma_copy".to_string(),
        grid: tiles as u32,
        threads: COPY_THREADS,
        smem_bytes: (copy.box_bytes() + align) as u32,
    })
}
