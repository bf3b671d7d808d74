//! GEMM and GETT on the GPU, planned by the algebra: `C(m,n,l) = Σ_k A(m,k,l)·B(n,k,l)` for
//! layouts `A (M,K[,L])`, `B (N,K[,L])`, `C (M,N[,L])` whose modes may be hierarchical, so that a
//! tensor contraction runs as one GEMM over folded modes with no permuting copy (the paper's
//! GETT).
//!
//! The portable path (this module) is the SM80 pipeline: `cp.async` from global to shared memory
//! in several stages, `ldmatrix` into registers, `mma.sync m16n8k16`, and an epilogue that writes
//! any output layout. What the algebra derives:
//!
//! * **Vectors.** For each operand, the mode whose first leaf has stride 1 (M/N or K) is the
//!   contiguous one; the vector width is the largest `V ≤ 8` dividing that leaf, the extent and
//!   every other stride (16-byte `cp.async` when `V = 8`).
//! * **Shared memory.** The tile is stored with the contiguous mode contiguous (`(R,BK):(BK,1)`
//!   K-major or `(R,BK):(1,R)` MN-major), swizzled by the `Sw<B,M,S>` that
//!   [`cute::swizzle_search`] finds conflict-free for the `cp.async` writes and the `ldmatrix`
//!   reads.
//! * **Fragments.** Which shared-memory row each lane hands to `ldmatrix` is solved from the
//!   atoms: the `ldmatrix` destination layout must deliver, in each lane's registers, the
//!   elements the MMA atom's A (or B) layout assigns to that lane; the rows so found must be
//!   contiguous in the tile (K-major: plain `ldmatrix`; MN-major: `.trans`).
//! * **Epilogue.** Each accumulator's `(m, n)` comes from the MMA atom's C layout; its address
//!   from C's layout, predicated on the extents.
//! * **Offsets.** Every global offset is the operand's layout evaluated at the tile coordinate
//!   (hierarchical modes included), with shapes and strides folded as constants.

use cute::{gemm_modes, swizzle_search, ComposedLayout, Layout, Swizzle};

use crate::atom::{ldmatrix, mma_sm80_16x8x16, CopyAtom, DType, Major, MmaAtom};
use crate::codegen::{ceil_div, layout_eval_expr, pow2_dividing, swizzle_expr, Code};
use crate::error::GpuError;
use crate::partition::{warp_ab_partitions, warp_c_partition};
pub use crate::skeleton::GemmKernel;
use crate::skeleton::{self as sk};

/// CTA tile `(BM, BN, BK)` of the portable kernel.
pub const TILE: (i64, i64, i64) = (128, 128, 32);
pub use crate::partition::WARPS;
/// Pipeline stages.
pub const STAGES: i64 = 4;
/// Threads per block.
pub const GEMM_THREADS: i64 = 256;

/// How one operand is loaded and fed to the MMA.
#[derive(Clone, Debug)]
pub struct OperandPlan {
    /// `A` or `B`.
    pub name: &'static str,
    /// Row mode (M or N), K mode and batch mode of the operand.
    pub modes: (Layout, Layout, Layout),
    /// The contiguous mode in global and shared memory.
    pub major: Major,
    /// Elements per global load.
    pub vector: i64,
    /// The shared-memory tile `(R, BK)` before the swizzle.
    pub smem: Layout,
    /// The swizzle found by the bank-conflict search.
    pub swizzle: Swizzle,
    /// The `cp.async` write pattern of one warp `(thread, value) ↦ tile coordinate`.
    pub tv_load: Layout,
    /// The `ldmatrix` read pattern of one warp.
    pub tv_ldsm: Layout,
    /// The `ldmatrix` atom (x4, `.trans` for MN-major).
    pub ldsm: CopyAtom,
    /// Row and k of the 8-element row each lane hands to `ldmatrix`.
    pub lanes: Vec<(i64, i64)>,
}

/// A planned GPU GEMM (the portable kernel).
#[derive(Clone, Debug)]
pub struct GpuGemmPlan {
    /// The MMA atom.
    pub mma: MmaAtom,
    /// Operand A.
    pub a: OperandPlan,
    /// Operand B.
    pub b: OperandPlan,
    /// The problem and the launch.
    pub kernel: GemmKernel,
}

fn leaves(l: &Layout) -> Vec<(i64, i64)> {
    (0..l.leaf_count()).map(|k| l.leaf_at(k)).collect()
}

/// The contiguous mode of an operand `(R, K, L)` and its vector width.
pub(crate) fn contiguity(
    r: &Layout,
    k: &Layout,
    l: &Layout,
    ext_r: i64,
    ext_k: i64,
    lo: i64,
    align: i64,
) -> (Major, i64) {
    let first = |x: &Layout| leaves(x).into_iter().find(|&(s, _)| s > 1);
    let strides_except = |skip: (usize, usize)| -> Vec<i64> {
        let mut v = Vec::new();
        for (mi, x) in [r, k, l].iter().enumerate() {
            for (li, (s, d)) in leaves(x).into_iter().enumerate() {
                if s > 1 && (mi, li) != skip {
                    v.push(d);
                }
            }
        }
        v
    };
    let idx = |x: &Layout| leaves(x).iter().position(|&(s, _)| s > 1).unwrap_or(0);
    for (major, x, mi, ext) in [(Major::K, k, 1usize, ext_k), (Major::MN, r, 0usize, ext_r)] {
        if let Some((s, 1)) = first(x) {
            let mut xs = strides_except((mi, idx(x)));
            xs.extend([s, ext, lo, align]);
            return (major, pow2_dividing(8, &xs));
        }
    }
    (Major::K, 1)
}

/// The lanes' `ldmatrix` rows: for lane `s`, the tile coordinate `(row, k)` of the first of the 8
/// elements it addresses, solved from the `ldmatrix` atom and `frag(t, j, h)`, the tile coordinate
/// the MMA wants in half `h` of register `j` of lane `t`. Fails when the rows so found are not
/// contiguous along the expected mode.
fn solve_lanes(
    atom: &CopyAtom,
    regs: i64,
    major: Major,
    frag: impl Fn(i64, i64, i64) -> Result<(i64, i64), GpuError>,
) -> Result<Vec<(i64, i64)>, GpuError> {
    // where each logical element sits on the source side: (lane, position)
    let mut at = std::collections::HashMap::new();
    for s in 0..32 {
        for x in 0..8 {
            at.entry(atom.src_bit(s, 16 * x)? / 16).or_insert((s, x));
        }
    }
    let mut rows = vec![[None; 8]; 32];
    for t in 0..32 {
        for j in 0..regs {
            for h in 0..2 {
                let e = atom.dst_bit(t, 32 * j + 16 * h)? / 16;
                let &(s, x) = at.get(&e).ok_or_else(|| {
                    GpuError::unsupported(
                        "gemm plan",
                        format!("{}: element {e} has no source", atom.name),
                    )
                })?;
                rows[s as usize][x as usize] = Some(frag(t, j, h)?);
            }
        }
    }
    let mut out = Vec::new();
    for (s, row) in rows.iter().enumerate() {
        let Some((r0, k0)) = row[0] else {
            return Err(GpuError::unsupported(
                "gemm plan",
                format!("{}: lane {s} unused", atom.name),
            ));
        };
        for (x, e) in row.iter().enumerate() {
            let want = match major {
                Major::K => (r0, k0 + x as i64),
                Major::MN => (r0 + x as i64, k0),
            };
            if *e != Some(want) {
                return Err(GpuError::unsupported(
                    "gemm plan",
                    format!(
                        "{} does not deliver the MMA fragment: lane {s} position {x} holds {e:?}, contiguity needs {want:?}",
                        atom.name
                    ),
                ));
            }
        }
        out.push((r0, k0));
    }
    Ok(out)
}

/// A table of 32 lane values as a layout `(2,2,2,2,2):(Δ0,…,Δ4)` (each lane bit adds a fixed
/// amount), coalesced; fails when the table is not of that form.
fn lanes_as_layout(vals: &[i64]) -> Result<Layout, GpuError> {
    let base = vals[0];
    let d: Vec<i64> = (0..5).map(|b| vals[1 << b] - base).collect();
    for (s, &v) in vals.iter().enumerate() {
        let want: i64 = base
            + (0..5)
                .filter(|b| s >> b & 1 == 1)
                .map(|b| d[b])
                .sum::<i64>();
        if v != want {
            return Err(GpuError::unsupported(
                "gemm plan",
                "ldmatrix lanes are not a layout of the lane bits",
            ));
        }
    }
    let l: Layout =
        format!("(2,2,2,2,2):({},{},{},{},{})", d[0], d[1], d[2], d[3], d[4]).parse()?;
    Ok(cute::coalesce(&l))
}

fn operand_plan(
    name: &'static str,
    modes: (Layout, Layout, Layout),
    rows: i64,
    ext: (i64, i64),
    lo: i64,
    align: i64,
    mma: &MmaAtom,
) -> Result<OperandPlan, GpuError> {
    let (_, _, bk) = TILE;
    let (major, vector) = contiguity(&modes.0, &modes.1, &modes.2, ext.0, ext.1, lo, align);
    let trans = major == Major::MN;
    let ldsm = ldmatrix(4, trans)?;
    // the registers of one x4: A's four registers; B's two n8 tiles of two registers each
    // warp 0's fragments in the CTA's TiledMMA (whose partition every warp follows at its
    // offset, checked there): A's four registers; B's first two N atoms of two registers each
    let (bm, bn, _) = TILE;
    let (part_a, part_b) = warp_ab_partitions(mma, (bm, bn))?;
    let (va, vb) = (
        part_a.len() / GEMM_THREADS as usize,
        part_b.len() / GEMM_THREADS as usize,
    );
    let per_b = (vb / (bn / (mma.shape_mnk.1 * WARPS.1)) as usize) as i64;
    let lanes = if name == "A" {
        solve_lanes(&ldsm, 4, major, |t, j, h| {
            Ok(part_a[t as usize * va + (2 * j + h) as usize])
        })?
    } else {
        solve_lanes(&ldsm, 4, major, |t, j, h| {
            Ok(part_b[t as usize * vb + (2 * (j % 2) + h + per_b * (j / 2)) as usize])
        })?
    };
    // shared memory: tile coordinate index r + R·k
    let smem: Layout = match major {
        Major::K => format!("({rows},{bk}):({bk},1)"),
        Major::MN => format!("({rows},{bk}):(1,{rows})"),
    }
    .parse()?;
    // cp.async writes of warp 0 and ldmatrix reads, as thread-value layouts of tile coordinates
    let per_line = match major {
        Major::K => bk / vector,
        Major::MN => rows / vector,
    };
    let tv_load: Layout = match major {
        Major::K if per_line < 32 => format!(
            "(({per_line},{}),{vector}):(({},1),{rows})",
            32 / per_line,
            rows * vector
        ),
        Major::K => format!("(32,{vector}):({},{rows})", rows * vector),
        Major::MN if per_line < 32 => format!(
            "(({per_line},{}),{vector}):(({vector},{rows}),1)",
            32 / per_line
        ),
        Major::MN => format!("(32,{vector}):({vector},1)"),
    }
    .parse()?;
    let lane_idx: Vec<i64> = lanes.iter().map(|&(r, k)| r + rows * k).collect();
    let thr = lanes_as_layout(&lane_idx)?;
    let val: Layout = match major {
        Major::K => format!("8:{rows}"),
        Major::MN => "8:1".to_string(),
    }
    .parse()?;
    let tv_ldsm = Layout::concat(&[thr, val])?;
    let swizzle = if vector == 8 {
        swizzle_search(&smem, &[tv_load, tv_ldsm], 2, 8)?.swizzle
    } else {
        // the loads are narrower than ldmatrix's rows: search for the reads
        swizzle_search(&smem, &[tv_ldsm], 2, 8)?.swizzle
    };
    Ok(OperandPlan {
        name,
        modes,
        major,
        vector,
        smem,
        swizzle,
        tv_load,
        tv_ldsm,
        ldsm,
        lanes,
    })
}

/// Plans the GEMM `C = α·A·B + β·C` (the kernel takes `α` and `β` as arguments; with `β = 0`
/// C is not read) for `A (M,K[,L])`, `B (N,K[,L])`, `C (M,N[,L])` with operands of `ab` (F16 or
/// Bf16) and C of `c_type` (F32 or `ab`), the operands' buffers 16-byte aligned at their smallest
/// offsets.
///
/// Fails when the layouts do not form a GEMM (the algebra's preconditions), the strides are not
/// integers, C is not injective on its image (checked by the joint-mode criterion), the batch
/// exceeds 65535, or the types are not supported.
pub fn plan_gemm(
    a: &Layout,
    b: &Layout,
    c: &Layout,
    ab: DType,
    c_type: DType,
) -> Result<GpuGemmPlan, GpuError> {
    plan_gemm_aligned(a, b, c, ab, c_type, [8, 8])
}

/// [`plan_gemm`] for operands whose buffers, at their smallest offsets, are aligned to
/// `align[0]` (A) and `align[1]` (B) elements (powers of two): no vector load is wider than the
/// alignment allows.
///
/// ```
/// use cute_cuda::{atom::DType, gemm::plan_gemm_aligned};
/// let a = "(256,64):(64,1)".parse().unwrap();
/// let b = "(128,64):(64,1)".parse().unwrap();
/// let c = "(256,128):(1,256)".parse().unwrap();
/// let p = plan_gemm_aligned(&a, &b, &c, DType::F16, DType::F32, [2, 8]).unwrap();
/// assert_eq!((p.a.vector, p.b.vector), (2, 8));
/// ```
pub fn plan_gemm_aligned(
    a: &Layout,
    b: &Layout,
    c: &Layout,
    ab: DType,
    c_type: DType,
    align: [i64; 2],
) -> Result<GpuGemmPlan, GpuError> {
    if !matches!(ab, DType::F16 | DType::Bf16) {
        return Err(GpuError::unsupported(
            "gemm plan",
            format!("operands of {ab}: the GEMM kernels take f16 or bf16 operands"),
        ));
    }
    let gm = gemm_modes(a, b, c)?;
    let (m, n, k, l) = gm.extents;
    if c_type != DType::F32 && c_type != ab {
        return Err(GpuError::unsupported(
            "gemm plan",
            format!("C of {c_type} with operands of {ab}"),
        ));
    }
    for x in [a, b, c] {
        if !x.is_integral() {
            return Err(GpuError::unsupported(
                "gemm plan",
                format!("{x}: offsets need integer strides"),
            ));
        }
    }
    if l > 65535 {
        return Err(GpuError::unsupported(
            "gemm plan",
            format!("batch L = {l} exceeds 65535 (grid y)"),
        ));
    }
    // C must be written once per element: its flattened leaves must be injective
    if cute::copy_modes(c, c)?.is_none() {
        return Err(GpuError::unsupported(
            "gemm plan",
            format!("{c}: C is not injective; a parallel GEMM would race on its elements"),
        ));
    }
    let mma = mma_sm80_16x8x16(ab)?;
    let ranges = [
        crate::copy::offset_range(a)?,
        crate::copy::offset_range(b)?,
        crate::copy::offset_range(c)?,
    ];
    for ((what, l, t), r) in [("A", a, ab), ("B", b, ab), ("C", c, c_type)]
        .into_iter()
        .zip(ranges)
    {
        crate::copy::byte_span("gemm plan", what, l, r, t)?;
    }
    let [(a_m, a_k, a_l), (b_n, b_k, b_l), (c_m, c_n, c_l)] = gm.layouts;
    let (bm, bn, _) = TILE;
    let pa = operand_plan(
        "A",
        (a_m, a_k, a_l),
        bm,
        (m, k),
        ranges[0].0,
        align[0],
        &mma,
    )?;
    let pb = operand_plan(
        "B",
        (b_n, b_k, b_l),
        bn,
        (n, k),
        ranges[1].0,
        align[1],
        &mma,
    )?;
    let tiles = ceil_div(m, bm).saturating_mul(ceil_div(n, bn));
    if tiles > i32::MAX as i64 {
        return Err(GpuError::unsupported(
            "gemm plan",
            "too many tiles for one launch",
        ));
    }
    let kernel = GemmKernel {
        extents: (m, n, k, l),
        modes: [pa.modes, pb.modes, (c_m, c_n, c_l)],
        c_type,
        ranges,
        majors: [(pa.major, pa.vector), (pb.major, pb.vector)],
        grid: (tiles as u32, l as u32),
        block: GEMM_THREADS as u32,
        smem_bytes: (STAGES * (bm + bn) * TILE.2 * ab.bytes()) as u32,
        name: "cute_gemm".into(),
        source: String::new(),
        tma: Vec::new(),
        cluster: 1,
        workspace: 0,
    };
    let mut plan = GpuGemmPlan {
        mma,
        a: pa,
        b: pb,
        kernel,
    };
    plan.kernel.source = gemm_source(&plan)?;
    Ok(plan)
}

/// Emits the loads of one operand's tile into stage `st` for k-tile `kt` (C++ expressions).
fn emit_loads(c: &mut Code, p: &OperandPlan, rows: i64, ext: (i64, i64), base: i64) {
    let (_, _, bk) = TILE;
    let v = p.vector;
    let vectors = rows * bk / v;
    let passes = vectors / GEMM_THREADS;
    let x = p.name.to_lowercase();
    let (rl, kl) = (&p.modes.0, &p.modes.1);
    c.line(format!(
        "  // {} tile: {rows}x{bk}, {:?}-major, vector {v}, smem {} o {}",
        p.name, p.major, p.swizzle, p.smem
    ));
    c.line(format!("  #define LOAD_{}(st, kt) do {{ \\", p.name));
    c.line("    const idx k0_ = (idx)(kt) * BK; \\");
    c.line(
        "    _Pragma(\"unroll\") for (int i_ = 0; i_ < PASSES_X; ++i_) { \\"
            .replace("PASSES_X", &passes.to_string()),
    );
    c.line(format!(
        "      const int q_ = threadIdx.x + i_ * {GEMM_THREADS}; \\"
    ));
    match p.major {
        Major::K => {
            c.line(format!(
                "      const int kk_ = (q_ % {}) * {v}, rr_ = q_ / {}; \\",
                bk / v,
                bk / v
            ));
        }
        Major::MN => {
            c.line(format!(
                "      const int rr_ = (q_ % {}) * {v}, kk_ = q_ / {}; \\",
                rows / v,
                rows / v
            ));
        }
    }
    c.line(format!(
        "      const bool ok_ = {x}_row_ok[i_] && k0_ + kk_ < {}; \\",
        ext.1
    ));
    c.line(format!(
        "      const idx go_ = ok_ ? {x}_row_off[i_] + {} : 0; \\",
        layout_eval_expr(kl, "(k0_ + kk_)")
    ));
    let plain = match p.major {
        Major::K => format!("rr_ * {bk} + kk_"),
        Major::MN => format!("kk_ * {rows} + rr_"),
    };
    c.line(format!(
        "      const unsigned so_ = smem_{x} + ((st) * {} + {}) * 2; \\",
        rows * bk,
        swizzle_expr(&p.swizzle, &plain)
    ));
    match v {
        8 | 4 | 2 => {
            let (kind, bytes) = if v == 8 { ("cg", 16) } else { ("ca", 2 * v) };
            c.line(format!(
                "      asm volatile(\"cp.async.{kind}.shared.global [%0], [%1], {bytes}, %2;\" :: \"r\"(so_), \"l\"(g{x} + go_), \"r\"(ok_ ? {bytes} : 0) : \"memory\"); \\"
            ));
        }
        _ => {
            c.line(format!(
                "      const unsigned short val_ = ok_ ? g{x}[go_] : (unsigned short)0; \\"
            ));
            c.line("      asm volatile(\"st.shared.u16 [%0], %1;\" :: \"r\"(so_), \"h\"(val_) : \"memory\"); \\");
        }
    }
    c.line("    } \\");
    c.line("  } while (0)");
    // the row part of each pass's global offset: constant over the K loop
    c.line(format!(
        "  idx {x}_row_off[{passes}]; bool {x}_row_ok[{passes}];"
    ));
    c.line(format!(
        "  #pragma unroll\n  for (int i_ = 0; i_ < {passes}; ++i_) {{"
    ));
    c.line(format!(
        "    const int q_ = threadIdx.x + i_ * {GEMM_THREADS};"
    ));
    match p.major {
        Major::K => c.line(format!("    const int rr_ = q_ / {};", bk / v)),
        Major::MN => c.line(format!("    const int rr_ = (q_ % {}) * {v};", rows / v)),
    }
    let r0 = if p.name == "A" { "m0" } else { "n0" };
    c.line(format!("    const idx r_ = {r0} + rr_;"));
    c.line(format!("    {x}_row_ok[i_] = r_ < {};", ext.0));
    c.line(format!(
        "    {x}_row_off[i_] = {base} + {} + {};",
        layout_eval_expr(rl, "r_"),
        layout_eval_expr(&p.modes.2, "(idx)blockIdx.y")
    ));
    c.line("  }");
}

fn gemm_source(p: &GpuGemmPlan) -> Result<String, GpuError> {
    let (bm, bn, bk) = TILE;
    let (m, n, k, _) = p.kernel.extents;
    let mut c = Code::new();
    sk::emit_header(
        &mut c,
        "GEMM",
        &p.a.modes,
        &p.b.modes,
        p.mma.ab_type,
        &p.kernel,
    );
    let mma = format!("A {} B {} C {}", p.mma.a, p.mma.b, p.mma.c);
    sk::emit_mma_comment(&mut c, p.mma.name, &mma);
    sk::emit_operand_comments(
        &mut c,
        [&p.a, &p.b].map(|o| {
            let detail = format!(
                "vector {}, smem {} o {}, loads {}, ldmatrix {} {}",
                o.vector, o.swizzle, o.smem, o.tv_load, o.ldsm.name, o.tv_ldsm
            );
            (o.name, o.major, detail)
        }),
    );
    let lane_tab = |name: &str, xs: Vec<i64>| {
        let s: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
        format!("__constant__ int {name}[32] = {{{}}};", s.join(","))
    };
    // lane offsets in the plain tile index (r·BK + k or k·R + r) of each operand
    for (o, rows) in [(&p.a, bm), (&p.b, bn)] {
        let offs: Vec<i64> = o
            .lanes
            .iter()
            .map(|&(r, kk)| match o.major {
                Major::K => r * bk + kk,
                Major::MN => kk * rows + r,
            })
            .collect();
        c.line(lane_tab(&format!("LANE_{}", o.name), offs));
    }
    c.line(format!("#define BK {bk}"));
    // the accumulators' (m, n) per lane and value: warp 0's first atom of the CTA's TiledMMA
    // (whose partition the kernel's warp offsets and atom loops follow, checked there)
    let part = warp_c_partition(&p.mma, (bm, bn))?;
    let vals = (bm * bn / GEMM_THREADS) as usize;
    let (cm, cn): (Vec<i64>, Vec<i64>) = (0..32)
        .flat_map(|t| (0..4).map(move |v| (t, v)))
        .map(|(t, v)| part[t * vals + v])
        .unzip();
    let tab = |name: &str, xs: &[i64]| {
        let s: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
        format!("__constant__ int {name}[128] = {{{}}};", s.join(","))
    };
    c.line(tab("CM", &cm));
    c.line(tab("CN", &cn));
    let entry = sk::KernelEntry {
        cluster: 1,
        bounds: &GEMM_THREADS.to_string(),
        operands: sk::POINTER_OPERANDS,
        smem_align: 128,
        smem_elem: "unsigned short",
        round_smem: false,
        b_offset: &format!("{} * 2", STAGES * bm * bk),
        trailing: "",
    };
    sk::emit_kernel_entry(&mut c, &entry, &p.kernel);
    // tile order: groups of 8 tile rows along M for L2 reuse
    sk::emit_grouped_tile_order(&mut c, &p.kernel, (bm, bn));
    emit_loads(&mut c, &p.a, bm, (m, k), -p.kernel.ranges[0].0);
    emit_loads(&mut c, &p.b, bn, (n, k), -p.kernel.ranges[1].0);
    let kt_total = ceil_div(k, bk);
    sk::emit_cp_async_prologue(&mut c, kt_total, STAGES - 1);
    let (wm, wn) = (bm / WARPS.0, bn / WARPS.1);
    let (mi, ni) = (wm / 16, wn / 8);
    c.line("  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;");
    c.line(format!(
        "  const int wr = (warp % {}) * {wm}, wc = (warp / {}) * {wn};",
        WARPS.0, WARPS.0
    ));
    c.line("  const int lane_a = LANE_A[lane], lane_b = LANE_B[lane];");
    c.line(format!("  float acc[{mi}][{ni}][4];"));
    c.line(format!("  #pragma unroll\n  for (int i = 0; i < {mi}; ++i)\n  #pragma unroll\n  for (int j = 0; j < {ni}; ++j)\n  #pragma unroll\n  for (int v = 0; v < 4; ++v) acc[i][j][v] = 0.0f;"));
    c.line("  for (int kt = 0; kt < KT; ++kt) {");
    sk::emit_cp_async_wait(&mut c, STAGES - 2);
    c.line("    __syncthreads();");
    sk::emit_cp_async_refill(&mut c, STAGES - 1, STAGES);
    c.line(format!(
        "    #pragma unroll\n    for (int ks = 0; ks < {}; ++ks) {{",
        bk / 16
    ));
    c.line(format!("      unsigned af[{mi}][4], bf[{ni}][2];"));
    // A fragments: m-tile i at rows wr + 16 i, k = 16 ks
    let off = |o: &OperandPlan, rows: i64, r: &str, kk: &str| match o.major {
        Major::K => format!("({r}) * {bk} + ({kk})"),
        Major::MN => format!("({kk}) * {rows} + ({r})"),
    };
    let ldsm = |o: &OperandPlan| {
        format!(
            "ldmatrix.sync.aligned.m8n8.x4{}.shared.b16 {{%0,%1,%2,%3}}, [%4];",
            if o.major == Major::MN { ".trans" } else { "" }
        )
    };
    c.line(format!(
        "      #pragma unroll\n      for (int i = 0; i < {mi}; ++i) {{"
    ));
    c.line(format!(
        "        const int o = lane_a + {};",
        off(&p.a, bm, "wr + 16 * i", "16 * ks")
    ));
    c.line(format!(
        "        const unsigned ad = smem_a + (st * {} + {}) * 2;",
        bm * bk,
        swizzle_expr(&p.a.swizzle, "o")
    ));
    c.line(format!(
        "        asm volatile(\"{}\" : \"=r\"(af[i][0]), \"=r\"(af[i][1]), \"=r\"(af[i][2]), \"=r\"(af[i][3]) : \"r\"(ad));",
        ldsm(&p.a)
    ));
    c.line("      }");
    c.line(format!(
        "      #pragma unroll\n      for (int j = 0; j < {}; ++j) {{",
        ni / 2
    ));
    c.line(format!(
        "        const int o = lane_b + {};",
        off(&p.b, bn, "wc + 16 * j", "16 * ks")
    ));
    c.line(format!(
        "        const unsigned ad = smem_b + (st * {} + {}) * 2;",
        bn * bk,
        swizzle_expr(&p.b.swizzle, "o")
    ));
    c.line(format!(
        "        asm volatile(\"{}\" : \"=r\"(bf[2 * j][0]), \"=r\"(bf[2 * j][1]), \"=r\"(bf[2 * j + 1][0]), \"=r\"(bf[2 * j + 1][1]) : \"r\"(ad));",
        ldsm(&p.b)
    ));
    c.line("      }");
    c.line(format!("      #pragma unroll\n      for (int i = 0; i < {mi}; ++i)\n      #pragma unroll\n      for (int j = 0; j < {ni}; ++j)"));
    c.line(format!(
        "        asm volatile(\"{} {{%0,%1,%2,%3}}, {{%4,%5,%6,%7}}, {{%8,%9}}, {{%0,%1,%2,%3}};\" : \"+f\"(acc[i][j][0]), \"+f\"(acc[i][j][1]), \"+f\"(acc[i][j][2]), \"+f\"(acc[i][j][3]) : \"r\"(af[i][0]), \"r\"(af[i][1]), \"r\"(af[i][2]), \"r\"(af[i][3]), \"r\"(bf[j][0]), \"r\"(bf[j][1]));",
        p.mma.ptx
    ));
    c.line("    }");
    c.line("  }");
    c.line("  asm volatile(\"cp.async.wait_group 0;\" ::: \"memory\");");
    // epilogue: accumulator v of (i, j) sits at the C layout's (m, n) of (lane, v)
    let (c_m, c_n, _) = &p.kernel.modes[2];
    sk::emit_c_base(&mut c, &p.kernel, "(idx)blockIdx.y");
    c.line(format!("  #pragma unroll\n  for (int i = 0; i < {mi}; ++i)\n  #pragma unroll\n  for (int j = 0; j < {ni}; ++j)\n  #pragma unroll\n  for (int v = 0; v < 4; ++v) {{"));
    c.line("    const idx mm = m0 + wr + 16 * i + CM[lane * 4 + v];");
    c.line("    const idx nn = n0 + wc + 8 * j + CN[lane * 4 + v];");
    c.line(format!("    if (mm < {m} && nn < {n}) {{"));
    c.line(format!(
        "      const idx o = c_base + {} + {};",
        layout_eval_expr(c_m, "mm"),
        layout_eval_expr(c_n, "nn")
    ));
    emit_store(&mut c, p.kernel.c_type, "gc[o]", "acc[i][j][v]", "      ");
    c.line("    }");
    c.line("  }");
    c.line("}");
    Ok(c.finish())
}

/// The epilogue's store of one accumulator `x` (a `float` expression) into the element `dst`
/// of C: `dst = α·x + β·dst`, C read only when `β ≠ 0` (so that a C of NaNs is overwritten when
/// `β = 0`, as BLAS does), rounded to C's type. Shared by every GEMM kernel.
pub(crate) fn emit_store(c: &mut Code, c_type: DType, dst: &str, x: &str, indent: &str) {
    c.line(format!("{indent}float y = alpha * ({x});"));
    match c_type {
        DType::F32 => {
            c.line(format!("{indent}if (beta != 0.0f) y += beta * {dst};"));
            c.line(format!("{indent}{dst} = y;"));
        }
        t => {
            let widen = match t {
                DType::Bf16 => format!("old = __uint_as_float((unsigned){dst} << 16);"),
                _ => format!("asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(old) : \"h\"({dst}));"),
            };
            c.line(format!(
                "{indent}if (beta != 0.0f) {{ float old; {widen} y += beta * old; }}"
            ));
            c.line(format!(
                "{indent}{{ unsigned short cvt_bits; asm(\"cvt.rn.{}.f32 %0, %1;\" : \"=h\"(cvt_bits) : \"f\"(y)); {dst} = cvt_bits; }}",
                t.ptx()
            ));
        }
    }
}

/// [`emit_store`] of two accumulators `(x0, x1)` into the adjacent elements at `ptr` and
/// `ptr + 1` (a `c_pointee` pointer aligned to the pair) as one 8-byte (`f32`) or 4-byte
/// (`f16`/`bf16`, converted by one `cvt.rn.{type}x2.f32`) store: the same values, half the stores.
pub(crate) fn emit_store_pair(
    c: &mut Code,
    c_type: DType,
    ptr: &str,
    (x0, x1): (&str, &str),
    indent: &str,
) {
    c.line(format!(
        "{indent}float y0 = alpha * ({x0}), y1 = alpha * ({x1});"
    ));
    match c_type {
        DType::F32 => {
            c.line(format!("{indent}float2* pp = (float2*)({ptr});"));
            c.line(format!(
                "{indent}if (beta != 0.0f) {{ const float2 o = *pp; y0 += beta * o.x; y1 += beta * o.y; }}"
            ));
            c.line(format!("{indent}*pp = make_float2(y0, y1);"));
        }
        t => {
            c.line(format!("{indent}unsigned* pp = (unsigned*)({ptr});"));
            let widen = match t {
                DType::Bf16 => "o0 = __uint_as_float(o << 16); o1 = __uint_as_float(o & 0xffff0000u);"
                    .to_string(),
                _ => "asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(o0) : \"h\"((unsigned short)(o & 0xffffu))); \
                      asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(o1) : \"h\"((unsigned short)(o >> 16)));"
                    .to_string(),
            };
            c.line(format!(
                "{indent}if (beta != 0.0f) {{ const unsigned o = *pp; float o0, o1; {widen} y0 += beta * o0; y1 += beta * o1; }}"
            ));
            // cvt.rn.{t}x2.f32 d, a, b puts a in the upper half, b in the lower
            c.line(format!(
                "{indent}{{ unsigned bits; asm(\"cvt.rn.{}x2.f32 %0, %1, %2;\" : \"=r\"(bits) : \"f\"(y1), \"f\"(y0)); *pp = bits; }}",
                t.ptx()
            ));
        }
    }
}

impl GpuGemmPlan {
    /// The plan in a few lines.
    ///
    /// ```
    /// use cute_cuda::{atom::DType, gemm::plan_gemm};
    /// let a = "(256,64):(64,1)".parse().unwrap(); // A (M,K), K-major ("T")
    /// let b = "(256,64):(1,256)".parse().unwrap(); // B (N,K), N-major ("N")
    /// let c = "(256,256):(1,256)".parse().unwrap();
    /// let p = plan_gemm(&a, &b, &c, DType::Bf16, DType::F32).unwrap();
    /// assert!(p.describe().contains("A: K-major, vector 8"));
    /// assert!(p.describe().contains("B: MN-major, vector 8"));
    /// ```
    pub fn describe(&self) -> String {
        let mut s = format!("  MMA {} ({})\n", self.mma.name, self.mma.ptx);
        for o in [&self.a, &self.b] {
            s += &format!(
                "  {}: {}-major, vector {}, modes {} / {} / {}\n     smem {} o 0 o {}\n     cp.async TV {}\n     {} TV {}\n",
                o.name,
                sk::major_word(o.major),
                o.vector,
                o.modes.0,
                o.modes.1,
                o.modes.2,
                o.swizzle,
                o.smem,
                o.tv_load,
                o.ldsm.name,
                o.tv_ldsm
            );
        }
        s += &format!(
            "  C: modes {} / {} / {}, {} accumulators per thread\n",
            self.kernel.modes[2].0,
            self.kernel.modes[2].1,
            self.kernel.modes[2].2,
            (TILE.0 / WARPS.0) * (TILE.1 / WARPS.1) / 32,
        );
        let ab = format!("{} x {}", self.mma.ab_type, self.mma.ab_type);
        let launch = sk::blocks(&self.kernel);
        sk::describe_gemm("", &ab, TILE, STAGES, &self.kernel, &s, &launch)
    }

    /// The smem layouts of A and B as composed layouts.
    pub fn smem_layouts(&self) -> [ComposedLayout; 2] {
        [
            ComposedLayout::new(self.a.swizzle, 0, self.a.smem),
            ComposedLayout::new(self.b.swizzle, 0, self.b.smem),
        ]
    }
}
