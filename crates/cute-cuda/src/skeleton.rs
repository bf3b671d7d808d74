//! The skeleton shared by the three GEMM emitters ([`crate::gemm`]'s `mma.sync` kernel,
//! [`crate::wgmma`]'s `wgmma` kernel fed by `cp.async`, [`crate::tma_gemm`]'s warp-specialised
//! TMA kernel): the launch description every plan carries ([`GemmKernel`]) and the pieces of
//! source and of `describe` text that every kernel writes alike — the header comments, the
//! signature, the index typedef and shared-memory setup, the grouped tile order, the start of the
//! epilogue. Each emitter writes only what is its own (its loads and its MMA main loop) between
//! them. Nothing here depends on an emitter, so that every emitter may depend on it.

use cute::Layout;

use crate::atom::{DType, Major};
use crate::codegen::{ceil_div, emit_tile_order, index_type, layout_eval_expr, Code};

/// What every GEMM kernel plan shares: the problem (extents, the operands' modes and offset
/// ranges, C's type, each operand's contiguous mode and vector) and the launch (grid, block,
/// shared memory, the generated source).
#[derive(Clone, Debug)]
pub struct GemmKernel {
    /// `(M, N, K, L)`.
    pub extents: (i64, i64, i64, i64),
    /// The modes of A `(M, K, L)`, B `(N, K, L)` and C `(M, N, L)`.
    pub modes: [(Layout, Layout, Layout); 3],
    /// C's element type (`F32`, or the operands' type).
    pub c_type: DType,
    /// Offset ranges of A, B, C.
    pub ranges: [(i64, i64); 3],
    /// The contiguous mode and vector width of A and of B.
    pub majors: [(Major, i64); 2],
    /// Launch: blocks along x (tiles) and y (batch).
    pub grid: (u32, u32),
    /// Threads per block.
    pub block: u32,
    /// Dynamic shared memory per block.
    pub smem_bytes: u32,
    /// The kernel's name.
    pub name: String,
    /// The CUDA C++ source.
    pub source: String,
    /// The TMA copies whose descriptors a launch encodes and passes by value: A's and B's first,
    /// in place of their addresses, then C's where the kernel may store C by TMA (passed after
    /// `beta` with its flag, C's address kept for the stores from registers); empty for kernels
    /// that take addresses.
    pub tma: Vec<crate::tma::TmaCopy>,
    /// CTAs per cluster (the kernel's `__cluster_dims__`; 1 without clusters). A persistent
    /// kernel of clusters launches no more clusters than the GPU holds at once
    /// ([`crate::device::Gpu::resident_grid`]).
    pub cluster: u32,
    /// Bytes of scratch memory a launch passes after the other arguments, with the launch's
    /// epoch ([`crate::device::Gpu::workspace_args`]): the partial sums and flags of a stream-K
    /// schedule ([`crate::tma_gemm::StreamK`]); 0 where the kernel takes none.
    pub workspace: u64,
}

impl GemmKernel {
    /// Floating-point operations: `2·M·N·K·L`.
    ///
    /// ```
    /// use cute_cuda::{atom::DType, gemm::plan_gemm};
    /// let a = "(256,64):(64,1)".parse().unwrap();
    /// let b = "(128,64):(64,1)".parse().unwrap();
    /// let c = "(256,128):(1,256)".parse().unwrap();
    /// let p = plan_gemm(&a, &b, &c, DType::F16, DType::F32).unwrap();
    /// assert_eq!(p.kernel.flops(), 2.0 * 256.0 * 128.0 * 64.0);
    /// ```
    pub fn flops(&self) -> f64 {
        let (m, n, k, l) = self.extents;
        2.0 * m as f64 * n as f64 * k as f64 * l as f64
    }
}

/// The C++ type C's pointer points to.
pub(crate) fn c_pointee(c_type: DType) -> &'static str {
    if c_type == DType::F32 {
        "float"
    } else {
        "unsigned short"
    }
}

/// The operands of a kernel that takes A's and B's addresses (16-bit elements), as the
/// signature's first two parameters `ga`, `gb`.
pub(crate) const POINTER_OPERANDS: &str =
    "const unsigned short* __restrict__ ga, const unsigned short* __restrict__ gb";

/// The word naming an operand's contiguous mode in `describe` texts: `K` or `MN`.
pub(crate) fn major_word(major: Major) -> &'static str {
    if major == Major::K {
        "K"
    } else {
        "MN"
    }
}

/// The kernel's first comment line: `// {title} A {M mode}x{K mode}  B …  C …: (M,N,K,L) = …,
/// {ab} -> {C type}`, with A's and B's `(rows, K, L)` modes `a` and `b` and C's modes and the
/// extents from `kernel`.
pub(crate) fn emit_header(
    c: &mut Code,
    title: &str,
    a: &(Layout, Layout, Layout),
    b: &(Layout, Layout, Layout),
    ab: DType,
    kernel: &GemmKernel,
) {
    c.line(format!(
        "// {title} A {}x{}  B {}x{}  C {}x{}: (M,N,K,L) = {:?}, {ab} -> {}",
        a.0, a.1, b.0, b.1, kernel.modes[2].0, kernel.modes[2].1, kernel.extents, kernel.c_type
    ));
}

/// The comment line `// MMA {name} {detail}` naming the kernel's MMA atom.
pub(crate) fn emit_mma_comment(c: &mut Code, name: &str, detail: &str) {
    c.line(format!("// MMA {name} {detail}"));
}

/// One comment line per operand, `// {name}: {major:?}-major, {detail}`, in the order given (A,
/// then B).
pub(crate) fn emit_operand_comments(c: &mut Code, operands: [(&str, Major, String); 2]) {
    for (name, major, detail) in operands {
        c.line(format!("// {name}: {major:?}-major, {detail}"));
    }
}

/// How a kernel begins: what [`emit_kernel_entry`] writes from.
pub(crate) struct KernelEntry<'a> {
    /// CTAs per cluster: above 1 the kernel is declared `__cluster_dims__(cluster, 1, 1)`.
    pub cluster: i64,
    /// The arguments of `__launch_bounds__` (`"256"`, `"256, 1"`).
    pub bounds: &'a str,
    /// The parameters that carry A and B ([`POINTER_OPERANDS`], or TMA maps).
    pub operands: &'a str,
    /// The alignment of the dynamic shared memory `smem`, in bytes.
    pub smem_align: i64,
    /// `smem`'s element type.
    pub smem_elem: &'a str,
    /// Whether `smem_a` is `smem`'s shared address rounded up to `smem_align` (the declared
    /// alignment is then not relied on), or the address itself.
    pub round_smem: bool,
    /// The expression of the byte offset of B's tiles (`smem_b`) past A's (`smem_a`).
    pub b_offset: &'a str,
    /// Parameters after `beta` (`", …"`, or empty).
    pub trailing: &'a str,
}

/// The kernel's signature `extern "C" __global__ void … {name}({operands}, {C}* gc, alpha,
/// beta{trailing}) {`, then the index type `idx` (32 or 64 bits, as the extents and `kernel`'s
/// offset ranges need), the dynamic shared memory `smem` and the shared addresses `smem_a` and
/// `smem_b` of the operands' stages. The caller closes the body.
pub(crate) fn emit_kernel_entry(c: &mut Code, e: &KernelEntry, kernel: &GemmKernel) {
    let (m, n, k, _) = kernel.extents;
    let cluster_dims = if e.cluster > 1 {
        format!("__cluster_dims__({}, 1, 1) ", e.cluster)
    } else {
        String::new()
    };
    c.line(format!(
        "extern \"C\" __global__ void {cluster_dims}__launch_bounds__({}) {}({}, {}* __restrict__ gc, const float alpha, const float beta{}) {{",
        e.bounds,
        kernel.name,
        e.operands,
        c_pointee(kernel.c_type),
        e.trailing
    ));
    c.line(format!(
        "  typedef {} idx;",
        index_type(m.max(n).max(k), &kernel.ranges)
    ));
    c.line(format!(
        "  extern __shared__ __align__({}) {} smem[];",
        e.smem_align, e.smem_elem
    ));
    if e.round_smem {
        let mask = e.smem_align - 1;
        c.line(format!(
            "  const unsigned smem_a = ((unsigned)__cvta_generic_to_shared(smem) + {mask}u) & ~{mask}u;"
        ));
    } else {
        c.line("  const unsigned smem_a = (unsigned)__cvta_generic_to_shared(smem);");
    }
    c.line(format!(
        "  const unsigned smem_b = smem_a + {};",
        e.b_offset
    ));
}

/// `m0` and `n0` of a block's `bm × bn` tile of C, the tiles visited in groups of tile rows
/// ([`emit_tile_order`] over `⌈M/bm⌉ × ⌈N/bn⌉` tiles of `kernel`'s extents).
pub(crate) fn emit_grouped_tile_order(c: &mut Code, kernel: &GemmKernel, (bm, bn): (i64, i64)) {
    let (m, n, _, _) = kernel.extents;
    emit_tile_order(c, ceil_div(m, bm), ceil_div(n, bn), bm, bn);
}

/// The epilogue's first line: `c_base`, the offset in `gc` of batch `l` (an `idx` expression)
/// of C, through C's batch mode and past its smallest offset.
pub(crate) fn emit_c_base(c: &mut Code, kernel: &GemmKernel, l: &str) {
    c.line(format!(
        "  const idx c_base = {} + {};",
        -kernel.ranges[2].0,
        layout_eval_expr(&kernel.modes[2].2, l)
    ));
}

/// A plan's `describe` text: the line `gemm{variant} (M,N,K,L) = …, {ab} -> {C type}, tile …,
/// {stages} stages, {threads} threads`, then `body` (the kernel's own lines, each starting with
/// two spaces and ending with a newline), then `  launch {launch}, {bytes} bytes of shared
/// memory` (no newline).
pub(crate) fn describe_gemm(
    variant: &str,
    ab: &str,
    tile: (i64, i64, i64),
    stages: i64,
    kernel: &GemmKernel,
    body: &str,
    launch: &str,
) -> String {
    format!(
        "gemm{variant} (M,N,K,L) = {:?}, {ab} -> {}, tile {tile:?}, {stages} stages, {} threads\n{body}  launch {launch}, {} bytes of shared memory",
        kernel.extents, kernel.c_type, kernel.block, kernel.smem_bytes
    )
}

/// The launch of a grid of blocks in `describe` texts: `{x} x {y} blocks`.
pub(crate) fn blocks(kernel: &GemmKernel) -> String {
    format!("{} x {} blocks", kernel.grid.0, kernel.grid.1)
}

/// The start of a `cp.async` pipeline over `KT = kt_total` blocks of K whose stages the macros
/// `LOAD_A(stage, kt)` and `LOAD_B(stage, kt)` fill: `KT`, then the loads of the first `ahead`
/// blocks into stages `0 .. ahead`, one commit group each (empty past `KT`, so that the group
/// count stays the same for every K).
pub(crate) fn emit_cp_async_prologue(c: &mut Code, kt_total: i64, ahead: i64) {
    c.line(format!("  const int KT = {kt_total};"));
    c.line("  #pragma unroll");
    c.line(format!("  for (int s = 0; s < {ahead}; ++s) {{ if (s < KT) {{ LOAD_A(s, s); LOAD_B(s, s); }} asm volatile(\"cp.async.commit_group;\" ::: \"memory\"); }}"));
}

/// Inside the main loop over `kt`: the wait until at most `pending` commit groups are in flight
/// (block `kt`'s loads landed, with [`emit_cp_async_prologue`]'s `ahead` the wait leaves
/// `ahead - 1`).
pub(crate) fn emit_cp_async_wait(c: &mut Code, pending: i64) {
    c.line(format!(
        "    asm volatile(\"cp.async.wait_group {pending};\" ::: \"memory\");"
    ));
}

/// Inside the main loop over `kt`, after the barrier that frees the stage read `ahead` blocks
/// ago: the loads of block `kt + ahead` into its stage of `stages` (one commit group, empty past
/// `KT`), then `st`, the stage of block `kt`.
pub(crate) fn emit_cp_async_refill(c: &mut Code, ahead: i64, stages: i64) {
    c.line(format!("    {{ const int nk = kt + {ahead}; if (nk < KT) {{ LOAD_A(nk % {stages}, nk); LOAD_B(nk % {stages}, nk); }} asm volatile(\"cp.async.commit_group;\" ::: \"memory\"); }}"));
    c.line(format!("    const int st = kt % {stages};"));
}
