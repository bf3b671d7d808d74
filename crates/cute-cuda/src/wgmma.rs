//! The Hopper GEMM/GETT: operands staged by `cp.async` into the canonical 128-byte-swizzled
//! shared-memory layouts of `wgmma` ([`gmma_smem_atom`] tiled over the CTA tile), multiplied by
//! `wgmma.mma_async m64nNk16` from shared-memory descriptors, accumulated in registers as the
//! atom's C layout says, written through C's layout.
//!
//! What the algebra derives, as in [`crate::gemm`]: each operand's contiguous mode and vector
//! width from its layout, every global offset from the operand's (hierarchical) modes, each
//! accumulator's `(m, n)` from [`wgmma_64xnx16`]'s C layout. The shared-memory tile of an operand
//! is the canonical atom tiled to `(R, 64)`:
//!
//! * K-major: `Sw<3,3,3> o (R,64):(64,1)` — 8-row groups 1024 bytes apart (the descriptor's SBO);
//! * MN-major: `Sw<3,3,3> o ((64,R/64),(8,8)):((1,4096),(64,512))` — 64-element column blocks
//!   8192 bytes apart (LBO), 8-row k groups 1024 bytes apart (SBO);
//!
//! and the descriptor fields are read off those layouts' strides.

use cute::{ComposedLayout, Layout, Swizzle};

use crate::atom::{gmma_smem_atom, wgmma_64xnx16, DType, GmmaSwizzle, Major, MmaAtom};
use crate::codegen::{ceil_div, layout_eval_expr, swizzle_expr, Code};
use crate::error::GpuError;
use crate::gemm::{contiguity, emit_store, emit_store_pair, GemmKernel};
use crate::partition::{warpgroup_c_partition, warpgroup_origins};
use crate::skeleton::{self as sk};

/// CTA tile `(BM, BN, BK)`: two consumer warpgroups of `64 × BN` each.
pub const WG_TILE: (i64, i64, i64) = (128, 256, 64);
/// Pipeline stages.
pub const WG_STAGES: i64 = 4;
/// Threads per block (two warpgroups).
pub const WG_THREADS: i64 = 256;

/// One operand of the Hopper kernel.
#[derive(Clone, Debug)]
pub struct WgOperand {
    /// `A` or `B`.
    pub name: &'static str,
    /// Row mode, K mode and batch mode.
    pub modes: (Layout, Layout, Layout),
    /// Contiguous mode.
    pub major: Major,
    /// Elements per `cp.async`.
    pub vector: i64,
    /// The canonical atom (elements).
    pub atom: ComposedLayout,
    /// The tile `(R, BK)` in shared memory: the atom tiled, before the swizzle.
    pub smem: Layout,
    /// The swizzle (the atom's).
    pub swizzle: Swizzle,
    /// Descriptor: leading byte offset.
    pub lbo: i64,
    /// Descriptor: stride byte offset.
    pub sbo: i64,
    /// Bytes to advance the descriptor per `k16` step.
    pub k_step_bytes: i64,
    /// Bytes from the first consumer warpgroup's descriptor to the second's (A: 64 rows down;
    /// B: 0, both read the whole tile).
    pub wg_step_bytes: i64,
}

/// A planned Hopper GEMM.
#[derive(Clone, Debug)]
pub struct WgGemmPlan {
    /// The atom `m64n{BN}k16`.
    pub mma: MmaAtom,
    /// A.
    pub a: WgOperand,
    /// B.
    pub b: WgOperand,
    /// The problem and the launch.
    pub kernel: GemmKernel,
}

/// What a Hopper planner knows of one operand before planning it: its name, its modes
/// `(rows, K, L)`, the tile's rows `rows`, the CTA tile `(BM, BN)` it is part of, the extents
/// `(rows, K)` of the problem, its smallest offset `lo`, its alignment `align` (elements) and its
/// type `t`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OperandSpec {
    pub name: &'static str,
    pub modes: (Layout, Layout, Layout),
    pub rows: i64,
    pub tile: (i64, i64),
    pub ext: (i64, i64),
    pub lo: i64,
    pub align: i64,
    pub t: DType,
}

/// The planning every Hopper kernel (this module's and [`crate::tma_gemm`]'s) starts with: the
/// portable kernel's plan of the same problem (the algebra's checks, the modes, the offset
/// ranges), the `wgmma m64n{bn}k16` atom of `ab`, and A's and B's [`OperandSpec`]s for tiles of
/// `WG_TILE.0 × bn` ([`WG_TILE`]'s `BN` or a narrower one). Fails as
/// [`crate::gemm::plan_gemm_aligned`] and [`wgmma_64xnx16`].
pub(crate) fn hopper_base(
    (a, b, c): (&Layout, &Layout, &Layout),
    ab: DType,
    c_type: DType,
    align: [i64; 2],
    bn: i64,
) -> Result<(GemmKernel, MmaAtom, [OperandSpec; 2]), GpuError> {
    let base = crate::gemm::plan_gemm_aligned(a, b, c, ab, c_type, align)?;
    let (m, n, k, _) = base.kernel.extents;
    let bm = WG_TILE.0;
    let mma = wgmma_64xnx16(bn, ab)?;
    let spec = |name, modes, rows, ext, i: usize| OperandSpec {
        name,
        modes,
        rows,
        tile: (bm, bn),
        ext,
        lo: base.kernel.ranges[i].0,
        align: align[i],
        t: ab,
    };
    let specs = [
        spec("A", base.a.modes, bm, (m, k), 0),
        spec("B", base.b.modes, bn, (n, k), 1),
    ];
    Ok((base.kernel, mma, specs))
}

/// Plans operand `spec` of the `cp.async`-fed Hopper kernel: its contiguous mode and vector,
/// the canonical 128-byte-swizzled shared-memory atom and tile, and the descriptors' strides.
pub(crate) fn operand(spec: OperandSpec) -> Result<WgOperand, GpuError> {
    let OperandSpec {
        name,
        modes,
        rows,
        tile,
        ext,
        lo,
        align,
        t,
    } = spec;
    let (major, vector) = contiguity(&modes.0, &modes.1, &modes.2, ext.0, ext.1, lo, align);
    let atom = gmma_smem_atom(major, GmmaSwizzle::B128, t.bits())?;
    let e = t.bytes();
    let bk = WG_TILE.2;
    // the atom tiled over (rows, BK): K-major rows of 64 elements; MN-major 64x8 atoms, k groups
    // innermost
    let (smem, lbo, sbo): (Layout, i64, i64) = match major {
        Major::K => (
            format!("({rows},{bk}):({bk},1)").parse()?,
            16, // unused for swizzled K-major layouts (CUTLASS writes 1 in 16-byte units)
            8 * bk * e,
        ),
        Major::MN => (
            format!(
                "((64,{}),(8,{})):((1,{}),(64,512))",
                rows / 64,
                bk / 8,
                64 * bk
            )
            .parse()?,
            64 * bk * e,
            512 * e,
        ),
    };
    // where the consumers' descriptors start: the k16 slices and the second warpgroup's
    // partition of the CTA's TiledMMA, placed by the shared-memory tile
    let (k_step, row64) = {
        let (k_slice, wg1) = warpgroup_origins(name, t, tile)?;
        let at = |(r, k): (i64, i64)| -> Result<i64, GpuError> { Ok(smem.eval(r + rows * k)? * e) };
        (at(k_slice)?, at(wg1)?)
    };
    // the tile must be the atom repeated: its first 8 rows/columns are the atom's layout
    let check = atom.layout;
    for i in 0..check.size() {
        let (r, k) = match major {
            Major::K => (i % 8, i / 8),
            Major::MN => (i % 64, i / 64),
        };
        let idx = r + rows * k;
        if smem.eval(idx)? != check.eval(i)? {
            return Err(GpuError::unsupported(
                "wgmma plan",
                format!("{smem} does not start with the atom {atom}"),
            ));
        }
    }
    Ok(WgOperand {
        name,
        modes,
        major,
        vector,
        atom,
        smem,
        swizzle: atom.swizzle,
        lbo,
        sbo,
        k_step_bytes: k_step,
        wg_step_bytes: row64,
    })
}

/// Plans the Hopper GEMM `C = A·B` for `A (M,K[,L])`, `B (N,K[,L])`, `C (M,N[,L])`, operands of
/// `ab` (F16 or Bf16), C of `c_type` (F32 or `ab`). Fails as [`crate::gemm::plan_gemm`]; also
/// when an operand's contiguous leaf does not allow 16-byte vectors (the portable kernel then
/// serves).
pub fn plan_gemm_wgmma(
    a: &Layout,
    b: &Layout,
    c: &Layout,
    ab: DType,
    c_type: DType,
) -> Result<WgGemmPlan, GpuError> {
    plan_gemm_wgmma_aligned(a, b, c, ab, c_type, [8, 8])
}

/// [`plan_gemm_wgmma`] for operands aligned to `align` elements at their smallest offsets (see
/// [`crate::gemm::plan_gemm_aligned`]); fails when an operand's alignment is under 16 bytes.
pub fn plan_gemm_wgmma_aligned(
    a: &Layout,
    b: &Layout,
    c: &Layout,
    ab: DType,
    c_type: DType,
    align: [i64; 2],
) -> Result<WgGemmPlan, GpuError> {
    // the checks and modes shared with the portable kernel
    let (base, mma, [sa, sb]) = hopper_base((a, b, c), ab, c_type, align, WG_TILE.1)?;
    let (m, n, _, l) = base.extents;
    let (bm, bn, bk) = WG_TILE;
    let pa = operand(sa)?;
    let pb = operand(sb)?;
    for o in [&pa, &pb] {
        if o.vector != 8 {
            return Err(GpuError::unsupported(
                "wgmma plan",
                format!("{}: 16-byte vectors need a unit-stride leaf, extent and strides divisible by 8 (vector {})", o.name, o.vector),
            ));
        }
    }
    let tiles = ceil_div(m, bm).saturating_mul(ceil_div(n, bn));
    let kernel = GemmKernel {
        majors: [(pa.major, pa.vector), (pb.major, pb.vector)],
        grid: (tiles as u32, l as u32),
        block: WG_THREADS as u32,
        // one extra KiB to align the tiles to the 1024-byte swizzle period
        smem_bytes: (WG_STAGES * (bm + bn) * bk * ab.bytes() + 1024) as u32,
        name: "cute_gemm_wgmma".into(),
        source: String::new(),
        c_type,
        ..base
    };
    let mut p = WgGemmPlan {
        mma,
        a: pa,
        b: pb,
        kernel,
    };
    p.kernel.source = source(&p)?;
    Ok(p)
}

fn emit_loads(
    c: &mut Code,
    o: &WgOperand,
    rows: i64,
    ext: (i64, i64),
    base: i64,
    stage_bytes: i64,
) {
    let bk = WG_TILE.2;
    let v = o.vector;
    let passes = rows * bk / v / WG_THREADS;
    let x = o.name.to_lowercase();
    let (per_line, rr, kk) = match o.major {
        Major::K => (bk / v, "q_ / PL", "(q_ % PL) * V"),
        Major::MN => (rows / v, "(q_ % PL) * V", "q_ / PL"),
    };
    let rr = rr
        .replace("PL", &per_line.to_string())
        .replace('V', &v.to_string());
    let kk = kk
        .replace("PL", &per_line.to_string())
        .replace('V', &v.to_string());
    c.line(format!(
        "  // {}: {:?}-major, vector {v}, smem {} o {}",
        o.name, o.major, o.swizzle, o.smem
    ));
    c.line(format!(
        "  idx {x}_row_off[{passes}]; bool {x}_row_ok[{passes}];"
    ));
    c.line(format!(
        "  #pragma unroll\n  for (int i_ = 0; i_ < {passes}; ++i_) {{"
    ));
    c.line(format!(
        "    const int q_ = threadIdx.x + i_ * {WG_THREADS}; const idx r_ = {} + {rr};",
        if o.name == "A" { "m0" } else { "n0" }
    ));
    c.line(format!("    {x}_row_ok[i_] = r_ < {};", ext.0));
    c.line(format!(
        "    {x}_row_off[i_] = {base} + {} + {};",
        layout_eval_expr(&o.modes.0, "r_"),
        layout_eval_expr(&o.modes.2, "(idx)blockIdx.y")
    ));
    c.line("  }");
    c.line(format!("  #define LOAD_{}(st, kt) do {{ \\", o.name));
    c.line(
        "    _Pragma(\"unroll\") for (int i_ = 0; i_ < PASSES; ++i_) { \\"
            .replace("PASSES", &passes.to_string()),
    );
    c.line(format!(
        "      const int q_ = threadIdx.x + i_ * {WG_THREADS}; \\"
    ));
    c.line(format!("      const int rr_ = {rr}, kk_ = {kk}; \\"));
    c.line(format!("      const idx kg_ = (idx)(kt) * {bk} + kk_; \\"));
    c.line(format!(
        "      const bool ok_ = {x}_row_ok[i_] && kg_ < {}; \\",
        ext.1
    ));
    c.line(format!(
        "      const idx go_ = ok_ ? {x}_row_off[i_] + {} : 0; \\",
        layout_eval_expr(&o.modes.1, "kg_")
    ));
    c.line(format!(
        "      const unsigned so_ = smem_{x} + (st) * {stage_bytes} + {} * 2; \\",
        swizzle_expr(
            &o.swizzle,
            &layout_eval_expr(&o.smem, &format!("(rr_ + {rows} * kk_)"))
        )
    ));
    c.line(format!(
        "      asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16, %2;\" :: \"r\"(so_), \"l\"(g{x} + go_), \"r\"(ok_ ? 16 : 0) : \"memory\"); \\"
    ));
    c.line("    } \\");
    c.line("  } while (0)");
}

fn desc_expr(o: &WgOperand, addr: &str) -> String {
    format!(
        "((unsigned long long)((({addr}) & 0x3FFFF) >> 4) | ((unsigned long long){} << 16) | ((unsigned long long){} << 32) | ((unsigned long long){} << 62))",
        o.lbo >> 4,
        o.sbo >> 4,
        GmmaSwizzle::B128.descriptor_code()
    )
}

fn source(p: &WgGemmPlan) -> Result<String, GpuError> {
    let (bm, bn, bk) = WG_TILE;
    let (m, n, k, _) = p.kernel.extents;
    let ab = p.mma.ab_type;
    let e = ab.bytes();
    let (sa, sb) = (bm * bk * e, bn * bk * e);
    let mut c = Code::new();
    let modes = [&p.a.modes, &p.b.modes];
    emit_hopper_comments(
        &mut c,
        "Hopper GEMM",
        &p.kernel,
        &p.mma,
        modes,
        &[],
        [&p.a, &p.b].map(|o| {
            let detail = format!(
                "smem {} o {} (atom {}), descriptor LBO {} SBO {}",
                o.swizzle, o.smem, o.atom, o.lbo, o.sbo
            );
            (o.name, o.major, detail)
        }),
    );
    emit_c_tables(&mut c, &p.mma, bn)?;
    let vals = 64 * bn / 128;
    let entry = sk::KernelEntry {
        cluster: 1,
        bounds: &format!("{WG_THREADS}, 1"),
        operands: sk::POINTER_OPERANDS,
        smem_align: 1024,
        smem_elem: "unsigned short",
        round_smem: true,
        b_offset: &(WG_STAGES * sa).to_string(),
        trailing: "",
    };
    sk::emit_kernel_entry(&mut c, &entry, &p.kernel);
    sk::emit_grouped_tile_order(&mut c, &p.kernel, (bm, bn));
    emit_loads(&mut c, &p.a, bm, (m, k), -p.kernel.ranges[0].0, sa);
    emit_loads(&mut c, &p.b, bn, (n, k), -p.kernel.ranges[1].0, sb);
    let kt_total = ceil_div(k, bk);
    let ahead = WG_STAGES - 2;
    sk::emit_cp_async_prologue(&mut c, kt_total, ahead);
    c.line("  const int wg = threadIdx.x / 128, t = threadIdx.x % 128;");
    c.line(format!("  float d[{vals}];"));
    c.line(format!(
        "  #pragma unroll\n  for (int v = 0; v < {vals}; ++v) d[v] = 0.0f;"
    ));
    c.line("  for (int kt = 0; kt < KT; ++kt) {");
    sk::emit_cp_async_wait(&mut c, ahead - 1);
    c.line("    asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");");
    c.line("    __syncthreads();");
    sk::emit_cp_async_refill(&mut c, ahead, WG_STAGES);
    c.line(format!(
        "    const unsigned a_base = smem_a + st * {sa} + wg * {};",
        p.a.wg_step_bytes
    ));
    c.line(format!("    const unsigned b_base = smem_b + st * {sb};"));
    emit_mma_kblock(&mut c, &p.a, &p.b, ab, bn, ("a_base", "b_base"), None);
    c.line("    asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");");
    c.line("    asm volatile(\"wgmma.wait_group.sync.aligned 1;\" ::: \"memory\");");
    c.line("  }");
    c.line("  asm volatile(\"wgmma.wait_group.sync.aligned 0;\" ::: \"memory\");");
    c.line("  asm volatile(\"cp.async.wait_group 0;\" ::: \"memory\");");
    emit_epilogue(&mut c, &p.kernel, bn, "(idx)blockIdx.y", "wg");
    c.line("}");
    Ok(c.finish())
}

/// The comment lines that open a Hopper kernel of plan `p` (a [`WgGemmPlan`]'s or a
/// [`crate::tma_gemm::TmaGemmPlan`]'s parts): the header titled `title` ([`sk::emit_header`]), the
/// MMA line `// MMA {name} m64n{BN}k16: C {C layout}` and the operands' lines of `operands`
/// ([`sk::emit_operand_comments`]); `extra` lines go between the MMA's and the operands'.
pub(crate) fn emit_hopper_comments(
    c: &mut Code,
    title: &str,
    kernel: &GemmKernel,
    mma: &MmaAtom,
    modes: [&(Layout, Layout, Layout); 2],
    extra: &[String],
    operands: [(&str, Major, String); 2],
) {
    sk::emit_header(c, title, modes[0], modes[1], mma.ab_type, kernel);
    sk::emit_mma_comment(
        c,
        mma.name,
        &format!("m64n{}k16: C {}", mma.shape_mnk.1, mma.c),
    );
    for line in extra {
        c.line(line);
    }
    sk::emit_operand_comments(c, operands);
}

/// One `BK`-deep block of `wgmma m64n{bn}k16` from the stage at shared addresses `a_base` and
/// `b_base` (expressions), accumulating into `d`: the fence, then `BK / 16` MMAs, each reading its
/// k16 slice through descriptors advanced by the operands' `k_step_bytes` (not committed).
/// `accumulate`: `None`, every MMA adds to `d`; `Some(e)`, an expression of the loop's `ks` (an
/// `int`, nonzero where the MMA adds to `d`) for the MMA's scale-d operand: zero writes `A·B`
/// alone, so that a tile's first MMA needs no zeroed accumulators.
pub(crate) fn emit_mma_kblock(
    c: &mut Code,
    a: &WgOperand,
    b: &WgOperand,
    ab: DType,
    bn: i64,
    (a_base, b_base): (&str, &str),
    accumulate: Option<&str>,
) {
    let bk = WG_TILE.2;
    let vals = 64 * bn / 128;
    let ta = if a.major == Major::MN { 1 } else { 0 };
    let tb = if b.major == Major::MN { 1 } else { 0 };
    let regs: Vec<String> = (0..vals).map(|i| format!("%{i}")).collect();
    let outs: Vec<String> = (0..vals).map(|i| format!("\"+f\"(d[{i}])")).collect();
    c.line("    asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");");
    c.line(format!(
        "    #pragma unroll\n    for (int ks = 0; ks < {}; ++ks) {{",
        bk / 16
    ));
    c.line(format!(
        "      const unsigned long long da = {};",
        desc_expr(a, &format!("{a_base} + ks * {}", a.k_step_bytes))
    ));
    c.line(format!(
        "      const unsigned long long db = {};",
        desc_expr(b, &format!("{b_base} + ks * {}", b.k_step_bytes))
    ));
    // the scale-d predicate: a constant, or the `accumulate` operand after A and B's descriptors
    let (scale, scale_in) = match accumulate {
        None => ("1".to_string(), String::new()),
        Some(e) => (format!("%{}", vals + 2), format!(", \"r\"((int)({e}))")),
    };
    c.line(format!(
        "      asm volatile(\"{{\\n.reg .pred p;\\nsetp.ne.b32 p, {scale}, 0;\\nwgmma.mma_async.sync.aligned.m64n{bn}k16.f32.{}.{} {{{}}}, %{}, %{}, p, 1, 1, {ta}, {tb};\\n}}\" : {} : \"l\"(da), \"l\"(db){scale_in});",
        ab.ptx(),
        ab.ptx(),
        regs.join(","),
        vals,
        vals + 1,
        outs.join(", ")
    ));
    c.line("    }");
}

/// The accumulator tables `C_ROW[t]`, `C_COL[t]` of the consumer warpgroups: thread `t`'s first
/// value's `(m, n)` within its warpgroup's 64 rows, read off the TiledMMA of two warpgroups
/// ([`warpgroup_c_partition`]), after checking that the other values follow the `m64nNk16`
/// pattern (value `v` at `(row + 8·(v/2 % 2), col + (v % 2) + 8·(v/4))`) and that warpgroup `w`
/// holds the rows `64·w ..` of the same pattern, which [`emit_epilogue`] relies on.
pub(crate) fn emit_c_tables(c: &mut Code, mma: &MmaAtom, bn: i64) -> Result<(), GpuError> {
    let vals = (64 * bn / 128) as usize;
    let part = warpgroup_c_partition(mma, bn, 2)?;
    let first = |t: usize| part[t * vals];
    for t in 0..256usize {
        let (m0, n0) = first(t % 128);
        for v in 0..vals {
            let want = (
                m0 + 64 * (t as i64 / 128) + 8 * ((v as i64 / 2) % 2),
                n0 + (v as i64 % 2) + 8 * (v as i64 / 4),
            );
            if part[t * vals + v] != want {
                return Err(GpuError::unsupported(
                    "wgmma plan",
                    "the C partition of the two warpgroups is not the m64nNk16 pattern",
                ));
            }
        }
    }
    let row_tab: Vec<String> = (0..128).map(|t| first(t).0.to_string()).collect();
    let col_tab: Vec<String> = (0..128).map(|t| first(t).1.to_string()).collect();
    c.line(format!(
        "__constant__ int C_ROW[128] = {{{}}};",
        row_tab.join(",")
    ));
    c.line(format!(
        "__constant__ int C_COL[128] = {{{}}};",
        col_tab.join(",")
    ));
    Ok(())
}

/// The epilogue of a warpgroup holding `d`, its `64 × bn` accumulators (the [`emit_c_tables`]
/// pattern) of the tile at `(m0, n0)`: each value scaled by `alpha`, plus `beta` times C's old
/// value, written through C's layout (`kernel.modes[2]`), batch coordinate `l`, the warpgroup's
/// rows starting at `m0 + 64·wg`; rows and columns past the problem skipped.
pub(crate) fn emit_epilogue(c: &mut Code, kernel: &GemmKernel, bn: i64, l: &str, wg: &str) {
    let (m, n) = (kernel.extents.0, kernel.extents.1);
    let (c_m, c_n, _) = &kernel.modes[2];
    sk::emit_c_base(c, kernel, l);
    c.line(format!("  const idx r0 = m0 + {wg} * 64 + C_ROW[t];"));
    c.line("  const idx col0 = n0 + C_COL[t];");
    c.line(format!("  idx ro[2]; bool rok[2];\n  #pragma unroll\n  for (int h = 0; h < 2; ++h) {{ const idx r = r0 + 8 * h; rok[h] = r < {m}; ro[h] = rok[h] ? c_base + {} : 0; }}", layout_eval_expr(c_m, "r")));
    c.line(format!(
        "  #pragma unroll\n  for (int j = 0; j < {}; ++j) {{",
        bn / 8
    ));
    // the two columns of a pair are adjacent in memory where C's column mode starts with a
    // unit-stride leaf of even extent (or that leaf is the whole mode): one store of both when
    // both are inside N and the address is aligned to the pair, else one store each
    let leaves: Vec<(i64, i64)> = (0..c_n.leaf_count())
        .map(|k| c_n.leaf_at(k))
        .filter(|&(s, _)| s > 1)
        .collect();
    let paired = matches!(leaves.first(), Some(&(s, 1)) if s % 2 == 0 || leaves.len() == 1);
    if paired {
        c.line("    const idx cp = col0 + 8 * j;");
        c.line(format!(
            "    const idx cpo = {};",
            layout_eval_expr(c_n, "cp")
        ));
    }
    c.line("    #pragma unroll\n    for (int h = 0; h < 2; ++h) if (rok[h]) {");
    if paired {
        c.line(format!(
            "      if ((cp & 1) == 0 && cp + 1 < {n} && ((size_t)(gc + ro[h] + cpo) & {}) == 0) {{",
            2 * kernel.c_type.bytes() - 1
        ));
        emit_store_pair(
            c,
            kernel.c_type,
            "gc + ro[h] + cpo",
            ("d[4 * j + 2 * h]", "d[4 * j + 2 * h + 1]"),
            "        ",
        );
        c.line("        continue;");
        c.line("      }");
    }
    c.line("      #pragma unroll\n      for (int w = 0; w < 2; ++w) {");
    c.line("        const idx cc = col0 + 8 * j + w;");
    c.line(format!("        if (cc < {n}) {{"));
    c.line(format!(
        "          const idx co = {};",
        layout_eval_expr(c_n, "cc")
    ));
    c.line("          const float x = d[4 * j + 2 * h + w];");
    emit_store(c, kernel.c_type, "gc[ro[h] + co]", "x", "          ");
    c.line("        }");
    c.line("      }");
    c.line("    }");
    c.line("  }");
}

impl WgGemmPlan {
    /// The plan in a few lines.
    pub fn describe(&self) -> String {
        let mut s = format!("  MMA {} C {}\n", self.mma.ptx, self.mma.c);
        for o in [&self.a, &self.b] {
            s += &format!(
                "  {}: {}-major, vector {}, atom {}, smem {} o {}, LBO {} SBO {}\n",
                o.name,
                sk::major_word(o.major),
                o.vector,
                o.atom,
                o.swizzle,
                o.smem,
                o.lbo,
                o.sbo
            );
        }
        let ab = self.mma.ab_type.to_string();
        let launch = sk::blocks(&self.kernel);
        sk::describe_gemm(
            " (Hopper)",
            &ab,
            WG_TILE,
            WG_STAGES,
            &self.kernel,
            &s,
            &launch,
        )
    }
}
