//! The Hopper GEMM fed by TMA: warp-specialised and persistent.
//!
//! One producer warpgroup and two consumer warpgroups per CTA (384 threads). The producer's first
//! thread walks the CTA's tiles and, for every `BK`-deep block of each, waits until a pipeline
//! stage is free, announces the stage's bytes on its "full" mbarrier and issues the TMA loads
//! (`cp.async.bulk.tensor`) of A's and B's boxes into the stage; the consumers wait on "full",
//! multiply the stage with `wgmma m64n{BN}k16` (each warpgroup 64 rows of the `BM × BN` tile),
//! and hand the stage back on its "empty" mbarrier once the next block's MMAs are issued. The
//! producer gives its registers to the consumers (`setmaxnreg`). The tile is `128 × BN × 64`, `BN`
//! chosen per problem ([`tile_widths`]: 256, or 128 or 64 where fewer waves of narrower tiles or
//! less padding of N pay), with as many stages as shared memory holds. The CTAs stay resident
//! (one per SM) and take tiles `blockIdx.x, blockIdx.x + gridDim.x, …` of the tile order, a
//! layout with coordinate strides, `((G,TN),TM/G,L):((1@0,1@1),G@0,1@2)` ([`tile_order`]): tile
//! index ↦ `(tm, tn, l)`, `G` row tiles side by side (L2 reuse of B's columns); where the last
//! round of tiles would leave SMs idle, its tiles are split along K among all the CTAs
//! ([`StreamK`]).
//! A 16-bit C leaves through shared memory and TMA stores while the next tile's MMAs run: a
//! tile's values are packed in pairs when its last MMAs complete, and box `k` of them is stored
//! after the next tile's block `k` is issued.
//!
//! What the algebra derives: each operand's TMA descriptor ([`make_tma_copy`]) from its global
//! layout `(rows, K, L)` (hierarchical modes become several TMA dimensions), the box from the
//! canonical shared-memory atom of `wgmma` ([`crate::wgmma`]'s operand tile), the box
//! coordinates of every load from the copy's tile grid (a layout with `e_i` strides), the
//! `wgmma` descriptors from the shared-memory layouts, each accumulator's `(m, n)` from the
//! atom's C layout. A K-major operand is one box of `R × 64` per stage; an MN-major one is `R / 64`
//! boxes of `64 × 64` (a 128-byte swizzled row holds 64 elements), placed where the canonical
//! MN-major tile puts its 64-column blocks. Ragged edges are TMA's zero fill (A's rows past M and
//! B's past N are never stored; K past the end multiplies zeros).

use cute::{ComposedLayout, Layout};

use crate::atom::{DType, Major, MmaAtom};

mod epilogue;
mod order;
mod stream_k;
use crate::codegen::{ceil_div, coordinate_exprs, grid_index_type, Code};
use crate::error::GpuError;
use crate::gemm::GemmKernel;
use crate::skeleton::{self as sk};
use crate::tma::emit::{coord_exprs, emit_cluster_prelude, emit_tma_prelude, MAP_TYPE};
use crate::tma::{make_tma_copy, TmaCopy};
use crate::wgmma::{
    emit_c_tables, emit_epilogue, emit_hopper_comments, emit_mma_kblock, hopper_base, operand,
    OperandSpec, WgOperand, WG_TILE,
};
pub use epilogue::{c_box, CStaging};
use epilogue::{
    c_box_bytes, c_store_copy, emit_pack, emit_store_box, emit_tma_store_epilogue, BoxValues,
    CStore,
};
pub use order::tile_order;
pub use stream_k::{Portion, StreamK};

/// The most pipeline stages a plan takes (each `(BM + BN) · BK` elements: 48 KiB for 16-bit types
/// and `BN = 256`, so that four fit beside C's staging boxes; 32 KiB for `BN = 128`, six; 24 KiB for
/// `BN = 64`, eight).
pub const MAX_STAGES: i64 = 8;

/// The widths `BN` of the CTA tile a plan may take, widest first.
pub const TILE_WIDTHS: [i64; 3] = [256, 128, 64];

/// The relative time per tile column of each width of [`TILE_WIDTHS`] (tenths), the cost model of
/// [`tile_widths`]: measured on an H100, bf16 8192³ with every width forced (`cute gpu --only
/// perf`, the epilogue overlapped): 816, 698 and 390 TFLOP/s. A narrower tile loads more operand
/// bytes per multiply-add and runs its epilogue more often; where memory bounds the problem the
/// widths differ less (the paper's GETT at q = 256: 482, 457, 387), so the model leans to wide
/// tiles.
const COLUMN_COST: [i64; 3] = [10, 12, 21];
/// The most k-blocks a tile may have for the overlapped epilogue to store the previous tile's
/// boxes after a k-block's wait and stage release rather than before the wait: there the
/// producer refills the stage sooner. Measured on an H100 (2026-12-07, two builds alternately in
/// one process each, six rounds, `scripts/gpu_device_run.sh build-ab`): 16 k-blocks (the
/// paper's GETT, K = 1024) gained 2.5 to 3.1 % at q1024 and −0.2 to 2.4 % at q256 (one round
/// of six lost 5 %); 128 k-blocks (bf16 8192³) lost 0.4 to 1.2 %. The bound between is a
/// choice, not a measurement.
const STORE_AFTER_RELEASE: i64 = 32;
/// Threads per CTA: the producer warpgroup and two consumer warpgroups.
pub const TMA_THREADS: i64 = 384;
/// Registers the producer keeps (`setmaxnreg.dec`) and the consumers take (`setmaxnreg.inc`):
/// `128 · 40 + 256 · 232 <= 65536`.
pub const REGS: (i64, i64) = (40, 232);

/// The most dynamic shared memory a CTA may take on sm_90 (227 KiB).
const SMEM_MAX: i64 = 232_448;

/// One operand's loads: the TMA copy of one box and how many boxes make a stage's tile.
#[derive(Clone, Debug)]
pub struct TmaOperand {
    /// The `wgmma` side: shared-memory tile, descriptor fields.
    pub wg: WgOperand,
    /// The TMA copy of one box (`tile` along the operand's `(rows, K, L)` modes).
    pub copy: TmaCopy,
    /// Boxes per stage along the rows (1 for K-major, `R / 64` for MN-major).
    pub pieces: i64,
    /// Bytes of one box.
    pub box_bytes: i64,
}

/// A planned warp-specialised TMA GEMM.
#[derive(Clone, Debug)]
pub struct TmaGemmPlan {
    /// The atom `m64n{BN}k16`.
    pub mma: MmaAtom,
    /// The CTA tile `(BM, BN, BK)`: `(128, BN, 64)`, `BN` one of [`TILE_WIDTHS`].
    pub tile: (i64, i64, i64),
    /// Pipeline stages: as many as shared memory holds beside C's staging boxes, at most
    /// [`MAX_STAGES`].
    pub stages: i64,
    /// A.
    pub a: TmaOperand,
    /// B.
    pub b: TmaOperand,
    /// CTAs per cluster along M (1 or 2): the two CTAs of a pair of row tiles share B's tile,
    /// each loading half of it and multicasting it to both.
    pub cluster: i64,
    /// The TMA store of C's boxes of [`c_box`] from shared memory (the epilogue's path when the
    /// kernel is given C's descriptor and `beta = 0`), or None where C is no TMA tensor: then every
    /// epilogue stores from registers.
    pub c_store: Option<TmaCopy>,
    /// How the epilogue writes C's staging boxes (with [`Self::c_store`]): by `stmatrix` (16-bit
    /// C, the swizzle chosen by the bank-conflict analysis of its accesses) or one value per
    /// store (`None`: f32 C).
    pub c_staging: Option<CStaging>,
    /// The tile order: tile index ↦ `(tm, tn, l)` (coordinate strides); with clusters of 2,
    /// cluster tile index ↦ `(pair of row tiles, tn, l)`.
    pub order: Layout,
    /// The last, partial wave of tiles split along K among all the CTAs (one CTA per cluster,
    /// where it pays: [`StreamK::plan`]); the kernel then takes a workspace of
    /// `kernel.workspace` bytes.
    pub stream_k: Option<StreamK>,
    /// The problem and the launch (`grid.0` CTAs, each looping over tiles; `tma` holds the two
    /// copies whose descriptors a launch encodes).
    pub kernel: GemmKernel,
}

fn tma_operand(spec: OperandSpec, box_rows: i64) -> Result<TmaOperand, GpuError> {
    let wg = operand(spec)?;
    let OperandSpec {
        name,
        modes,
        rows,
        ext,
        t,
        ..
    } = spec;
    let bk = WG_TILE.2;
    let global = Layout::concat(&[modes.0, modes.1, modes.2])?;
    let (tile, smem, pieces): (Vec<i64>, Layout, i64) = match wg.major {
        Major::K => (
            vec![box_rows, bk, 1],
            format!("({box_rows},{bk}):({bk},1)").parse()?,
            rows / box_rows,
        ),
        Major::MN => (
            vec![64, bk, 1],
            format!("(64,{bk}):(1,64)").parse()?,
            rows / 64,
        ),
    };
    let smem = ComposedLayout::new(wg.swizzle, 0, smem);
    let copy = make_tma_copy(&global, &tile, &smem, t)?;
    // the kernel numbers the boxes as the copy's tile grid does: rows in boxes, then K in
    // blocks, then the batch
    let boxes = ceil_div(ext.0, tile[0]) * ceil_div(ext.1, bk) * modes.2.size();
    if copy.tiles() != boxes {
        return Err(GpuError::unsupported(
            "tma gemm plan",
            format!(
                "{name}: the TMA tile grid {} is not {} x {} x {} boxes",
                copy.grid,
                ceil_div(ext.0, tile[0]),
                ceil_div(ext.1, bk),
                modes.2.size()
            ),
        ));
    }
    // only the boxes verified on hardware: the innermost row fills the 128-byte swizzle span and
    // the box is one leaf of the rows and one of K (a GETT box of 16 of one leaf and 4 of the
    // next under the swizzle, with K over two leaves, computed wrong products on an H100, and
    // the TMA atom cases of such boxes faulted: until understood, such operands take the kernel
    // that loads by cp.async)
    let spread = copy.dims.iter().filter(|d| d.box_dim > 1).count();
    if copy.dims[0].box_dim * t.bytes() != 128 || spread > 2 {
        return Err(GpuError::unsupported(
            "tma gemm plan",
            format!(
                "{name}: the box {:?} of {} is not one 128-byte swizzled row per leaf of the \
                 rows and of K (the boxes verified on hardware)",
                copy.box_dims(),
                copy.global
            ),
        ));
    }
    let box_bytes = copy.box_bytes();
    Ok(TmaOperand {
        wg,
        copy,
        pieces,
        box_bytes,
    })
}

/// Plans the warp-specialised TMA GEMM `C = A·B` for `A (M,K[,L])`, `B (N,K[,L])`, `C (M,N[,L])`
/// on a GPU of `sms` multiprocessors (the persistent grid), operands of `ab` (F16 or Bf16)
/// aligned to `align` elements, C of `c_type` (F32 or `ab`), one CTA per cluster (clusters of two
/// sharing B: [`plan_gemm_tma_in`]).
///
/// ```
/// use cute_cuda::{atom::DType, tma_gemm::plan_gemm_tma};
/// let a = "(1024,512):(512,1)".parse().unwrap(); // K-major
/// let b = "(768,512):(1,768)".parse().unwrap(); // N-major
/// let c = "(1024,768):(768,1)".parse().unwrap();
/// let p = plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::F32, [8, 8], 132).unwrap();
/// // one wave at every width: the narrowest tile, B's 64 columns one box of the N-major tile
/// assert_eq!((p.tile, p.cluster, p.a.pieces, p.b.pieces), ((128, 64, 64), 1, 1, 1));
/// assert_eq!(p.kernel.grid, (96, 1)); // 8 x 12 tiles of 128 x 64
/// let p2 = cute_cuda::tma_gemm::plan_gemm_tma_in(&a, &b, &c, DType::Bf16, DType::F32, [8, 8], 132, 2).unwrap();
/// // pairs of row tiles; B's one box of a 64-wide tile does not split between two CTAs: 128
/// assert_eq!(p2.tile.1, 128);
/// assert_eq!(p2.order.to_string(), "((4,6),1,1):((1@0,1@1),4@0,1@2)");
/// ```
///
/// # Errors
///
/// As [`plan_gemm_tma_in`].
pub fn plan_gemm_tma(
    a: &Layout,
    b: &Layout,
    c: &Layout,
    ab: DType,
    c_type: DType,
    align: [i64; 2],
    sms: u32,
) -> Result<TmaGemmPlan, GpuError> {
    // one CTA per cluster: clusters of two ran at half the rate while their consumers released
    // each stage with a cluster-scope release (a fence per arrival); with the CTA-scope arrival
    // they match one CTA per cluster (H100, 8192^3: 800 against 816 TFLOP/s; GETT q256 483
    // against 484) but do not beat it, so one CTA stays the default
    plan_gemm_tma_in(a, b, c, ab, c_type, align, sms, 1)
}

/// The widths of [`TILE_WIDTHS`] ranked for the problem `m × n` (`l` batches) on `sms`
/// multiprocessors in clusters of `cluster` CTAs, best first: each width is predicted to take
/// `waves · BN · cost(BN)`, `waves` the rounds of tiles the persistent grid runs (its tiles over
/// its clusters, rounded up) and `cost` the relative time per tile column (`COLUMN_COST`). Wide
/// tiles win where the waves are equal; a narrow one where N would be mostly padding or where
/// narrow tiles fill the last wave better. Ties go to the wider tile.
///
/// ```
/// use cute_cuda::tma_gemm::tile_widths;
/// // 2048 tiles of 128 × 256 in 16 waves; 4096 of 128 × 128 in 32
/// assert_eq!(tile_widths(8192, 8192, 1, 132, 1)[0], 256);
/// // 128 tiles of 128 × 128 (or of 128 × 256, half padding) in one wave; of 128 × 64 in two
/// assert_eq!(tile_widths(16384, 128, 1, 132, 1)[0], 128);
/// // one wave at every width: the narrowest, 96 CTAs rather than 24
/// assert_eq!(tile_widths(1024, 768, 1, 132, 1), vec![64, 128, 256]);
/// assert_eq!(tile_widths(4096, 256, 16, 132, 1)[0], 256); // the paper's GETT at q = 256
/// ```
pub fn tile_widths(m: i64, n: i64, l: i64, sms: u32, cluster: i64) -> Vec<i64> {
    let bm = WG_TILE.0;
    let clusters = (sms as i64 / cluster.max(1)).max(1);
    let rows = ceil_div(m, bm * cluster.max(1)).max(1);
    let mut ranked: Vec<(i64, i64)> = TILE_WIDTHS
        .iter()
        .zip(COLUMN_COST)
        .map(|(&bn, cost)| {
            let tiles = rows.saturating_mul(ceil_div(n, bn)).saturating_mul(l);
            let waves = ceil_div(tiles, clusters);
            (waves.saturating_mul(bn * cost), bn)
        })
        .collect();
    // the stable sort keeps the wider of equal predictions first
    ranked.sort_by_key(|&(t, _)| t);
    ranked.into_iter().map(|(_, bn)| bn).collect()
}

/// [`plan_gemm_tma`] with clusters of `cluster` CTAs (1, or 2 sharing B's tile), the tile's width
/// chosen by [`tile_widths`]: the first width that plans.
///
/// ```
/// use cute_cuda::{atom::DType, tma_gemm::plan_gemm_tma_in};
/// let a = "(4096,4096):(4096,1)".parse().unwrap();
/// let b = "(4096,4096):(1,4096)".parse().unwrap();
/// let c = "(4096,4096):(4096,1)".parse().unwrap();
/// let p = plan_gemm_tma_in(&a, &b, &c, DType::Bf16, DType::F32, [8, 8], 132, 1).unwrap();
/// assert_eq!((p.tile, p.stages, p.kernel.grid), ((128, 256, 64), 4, (132, 1)));
/// assert_eq!(p.order.to_string(), "((8,16),4,1):((1@0,1@1),8@0,1@2)");
/// // 4000 rows make 32 row tiles, but 4100 make 33: no pairs
/// let a33 = "(4100,4096):(4096,1)".parse().unwrap();
/// let c33 = "(4100,4096):(4096,1)".parse().unwrap();
/// assert!(plan_gemm_tma_in(&a33, &b, &c33, DType::Bf16, DType::F32, [8, 8], 132, 2).is_err());
/// // 128 columns: tiles 128 wide (no padding, one wave) with six stages
/// let a = "(16384,512):(512,1)".parse().unwrap();
/// let b = "(128,512):(1,128)".parse().unwrap();
/// let c = "(16384,128):(128,1)".parse().unwrap();
/// let p = plan_gemm_tma_in(&a, &b, &c, DType::Bf16, DType::F32, [8, 8], 132, 1).unwrap();
/// assert_eq!((p.tile, p.stages, p.kernel.grid), ((128, 128, 64), 6, (128, 1)));
/// ```
///
/// # Errors
///
/// As [`plan_gemm_tma_tile`] for the first of the ranked widths.
#[allow(clippy::too_many_arguments)]
pub fn plan_gemm_tma_in(
    a: &Layout,
    b: &Layout,
    c: &Layout,
    ab: DType,
    c_type: DType,
    align: [i64; 2],
    sms: u32,
    cluster: i64,
) -> Result<TmaGemmPlan, GpuError> {
    let base = crate::gemm::plan_gemm_aligned(a, b, c, ab, c_type, align)?;
    let (m, n, _, l) = base.kernel.extents;
    let mut first = None;
    for bn in tile_widths(m, n, l, sms, cluster) {
        match plan_gemm_tma_tile(a, b, c, ab, c_type, align, sms, cluster, bn) {
            Ok(p) => return Ok(p),
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    Err(first.expect("TILE_WIDTHS is not empty"))
}

/// [`plan_gemm_tma_in`] with the tile's width `bn` given (one of [`TILE_WIDTHS`]): for
/// benchmarks and for checks of every width.
///
/// ```
/// use cute_cuda::{atom::DType, tma_gemm::plan_gemm_tma_tile};
/// let a = "(1024,512):(512,1)".parse().unwrap();
/// let b = "(768,512):(1,768)".parse().unwrap();
/// let c = "(1024,768):(768,1)".parse().unwrap();
/// let p = plan_gemm_tma_tile(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132, 1, 256).unwrap();
/// assert_eq!((p.tile, p.stages, p.kernel.grid), ((128, 256, 64), 4, (24, 1)));
/// assert_eq!(p.b.pieces, 4); // B N-major: four 64-column boxes per stage
/// let p = plan_gemm_tma_tile(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132, 1, 64).unwrap();
/// assert_eq!((p.tile, p.stages, p.kernel.grid), ((128, 64, 64), 8, (96, 1)));
/// assert_eq!(p.mma.shape_mnk, (64, 64, 16));
/// assert!(plan_gemm_tma_tile(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132, 1, 96).is_err());
/// ```
///
/// # Errors
///
/// As [`crate::wgmma::plan_gemm_wgmma_aligned`]; also when an operand is not a TMA tensor
/// ([`make_tma_copy`]'s conditions: at most 5 dimensions after merging, strides of whole 16-byte
/// units, a box the tile's modes can express) or its box is not one verified on hardware; a
/// `cluster` other than 1 or 2, or 2 with an odd number of row tiles; a `bn` not in
/// [`TILE_WIDTHS`].
#[allow(clippy::too_many_arguments)]
pub fn plan_gemm_tma_tile(
    a: &Layout,
    b: &Layout,
    c: &Layout,
    ab: DType,
    c_type: DType,
    align: [i64; 2],
    sms: u32,
    cluster: i64,
    bn: i64,
) -> Result<TmaGemmPlan, GpuError> {
    if !TILE_WIDTHS.contains(&bn) {
        return Err(GpuError::invalid(
            "tma gemm plan",
            format!("a tile {bn} wide; the widths are {TILE_WIDTHS:?}"),
        ));
    }
    let (base, mma, [sa, sb]) = hopper_base((a, b, c), ab, c_type, align, bn)?;
    let (m, n, _, l) = base.extents;
    let (bm, bk) = (WG_TILE.0, WG_TILE.2);
    if cluster != 1 && cluster != 2 {
        return Err(GpuError::invalid(
            "tma gemm plan",
            format!("clusters of {cluster} CTAs; 1 or 2"),
        ));
    }
    if cluster == 2 && ceil_div(m, bm) % 2 != 0 {
        return Err(GpuError::unsupported(
            "tma gemm plan",
            format!("{} row tiles of {bm} do not pair up", ceil_div(m, bm)),
        ));
    }
    let pa = tma_operand(sa, bm)?;
    let pb = tma_operand(sb, bn / cluster)?;
    for o in [&pa, &pb] {
        if o.wg.vector != 8 || base.ranges[if o.wg.name == "A" { 0 } else { 1 }].0 < 0 {
            return Err(GpuError::unsupported(
                "tma gemm plan",
                format!(
                    "{}: TMA needs a unit-stride leaf, 16-byte aligned, and no negative stride",
                    o.wg.name
                ),
            ));
        }
    }
    if pb.pieces % cluster != 0 {
        return Err(GpuError::unsupported(
            "tma gemm plan",
            format!(
                "B's {} boxes do not split between {cluster} CTAs",
                pb.pieces
            ),
        ));
    }
    // row tiles (pairs of them with clusters of two) and column tiles
    let (tm, tn) = (ceil_div(m, bm) / cluster, ceil_div(n, bn));
    let order = tile_order(tm, tn, l)?;
    let tiles = tm.saturating_mul(tn).saturating_mul(l);
    if tiles > i32::MAX as i64 {
        return Err(GpuError::unsupported(
            "tma gemm plan",
            format!("{tiles} tiles: more than 2^31 - 1"),
        ));
    }
    // C's staging boxes (two per consumer warpgroup) where C is a TMA tensor, then as many
    // stages (and their two mbarriers) as the rest of shared memory holds
    let (c_store, c_staging) = match c_store_copy(&base, &mma, bm, bn) {
        Some((copy, staging)) => (Some(copy), staging),
        None => (None, None),
    };
    let c_bytes = if c_store.is_some() {
        4 * c_box_bytes(c_type)
    } else {
        0
    };
    let stage_bytes = (bm + bn) * bk * ab.bytes();
    let stages = (SMEM_MAX - 1024 - c_bytes) / (stage_bytes + 16);
    let stages = stages.min(MAX_STAGES);
    if stages < 2 {
        return Err(GpuError::unsupported(
            "tma gemm plan",
            format!("{stages} stage(s) of {stage_bytes} bytes fit in shared memory"),
        ));
    }
    let smem = stages * (stage_bytes + 16) + 1024 + c_bytes;
    let mut tma = vec![pa.copy.clone(), pb.copy.clone()];
    tma.extend(c_store.clone());
    // one CTA per SM (per cluster of SMs); with one CTA per cluster, the last partial wave
    // split along K where that pays
    let ctas = (sms as i64 / cluster).max(1);
    let stream_k = if cluster == 1 {
        StreamK::plan(tiles, ctas, ceil_div(base.extents.2, bk))
    } else {
        None
    };
    let grid = stream_k.map_or(tiles.min(ctas), |s| s.grid());
    let kernel = GemmKernel {
        majors: [(pa.wg.major, pa.wg.vector), (pb.wg.major, pb.wg.vector)],
        grid: ((grid * cluster) as u32, 1),
        workspace: stream_k.map_or(0, |s| s.workspace_bytes(bn)),
        block: TMA_THREADS as u32,
        smem_bytes: smem as u32,
        name: "cute_gemm_tma_ws".into(),
        source: String::new(),
        c_type,
        tma,
        cluster: cluster as u32,
        ..base
    };
    let mut p = TmaGemmPlan {
        mma,
        tile: (bm, bn, bk),
        stages,
        a: pa,
        b: pb,
        cluster,
        c_store,
        c_staging,
        order,
        stream_k,
        kernel,
    };
    p.kernel.source = source(&p)?;
    Ok(p)
}

/// The loads of operand `o`'s boxes of tile row `tr` (`tm` or `tn`) into stage `s`: all of them,
/// or with `multicast` (a cluster of that many CTAs sharing the tile) this CTA's share,
/// multicast to every CTA of the cluster; `l` batches.
#[allow(clippy::too_many_arguments)]
fn emit_operand_loads(
    c: &mut Code,
    o: &TmaOperand,
    tr: &str,
    rows_total: i64,
    kt_total: i64,
    l: i64,
    smem: &str,
    stage_bytes: i64,
    multicast: i64,
) -> Result<(), GpuError> {
    let x = o.wg.name.to_lowercase();
    // the copy's tile grid counts boxes: rows in boxes of `rows / pieces`, K in blocks, then L
    let box_rows = o.copy.tile[0];
    let grid_rows = ceil_div(rows_total, box_rows);
    let rank = o.copy.rank();
    let share = o.pieces / multicast;
    let (first, load) = if multicast > 1 {
        (
            format!("(int)crank * {share}"),
            format!(
                "cute_tma_load_mc_{rank}d({smem} + s * {stage_bytes} + j * {}, &map_{x}, full + 8 * s, (unsigned short){}",
                o.box_bytes,
                (1u32 << multicast) - 1
            ),
        )
    } else {
        (
            "0".to_string(),
            format!(
                "cute_tma_load_{rank}d({smem} + s * {stage_bytes} + j * {}, &map_{x}, full + 8 * s",
                o.box_bytes
            ),
        )
    };
    c.line(format!(
        "          for (int j = {first}; j < {first} + {share}; ++j) {{"
    ));
    let (ty, sfx) = grid_index_type(&[grid_rows, kt_total, l]);
    c.line(format!(
        "            const {ty} q = ({ty}){tr} * {} + j;",
        o.pieces
    ));
    c.line(format!("            if (q < {grid_rows}) {{"));
    c.line(format!(
        "              const {ty} tq = q + {grid_rows}{sfx} * (kt + {kt_total}{sfx} * l);"
    ));
    let coords = coord_exprs(&o.copy, "tq")?;
    let args: Vec<String> = coords.iter().map(|e| format!("(int){e}")).collect();
    c.line(format!("              {load}, {});", args.join(", ")));
    c.line("            }");
    c.line("          }");
    Ok(())
}

fn source(p: &TmaGemmPlan) -> Result<String, GpuError> {
    let (bm, bn, bk) = p.tile;
    let stages = p.stages;
    let (m, n, k, l) = p.kernel.extents;
    let ab = p.mma.ab_type;
    let e = ab.bytes();
    let (sa, sb) = (bm * bk * e, bn * bk * e);
    let (tm, tn) = (ceil_div(m, bm), ceil_div(n, bn));
    let kt_total = ceil_div(k, bk);
    let cl = p.cluster;
    // tiles of the order: one per cluster (a pair of row tiles with clusters of 2)
    let tiles = tm / cl * tn * l;
    let vals = 64 * bn / 128;
    let mut c = Code::new();
    let operands = [&p.a, &p.b].map(|o| {
        let detail = format!(
            "smem {} o {}, descriptor LBO {} SBO {}; {} box(es) per stage: {}",
            o.wg.swizzle,
            o.wg.smem,
            o.wg.lbo,
            o.wg.sbo,
            o.pieces,
            o.copy.describe()
        );
        (o.wg.name, o.wg.major, detail)
    });
    emit_hopper_comments(
        &mut c,
        "Hopper GEMM, TMA and warp-specialised, persistent:",
        &p.kernel,
        &p.mma,
        [&p.a.wg.modes, &p.b.wg.modes],
        &[format!("// tile order {}", p.order)],
        operands,
    );
    let rank_a = p.a.copy.rank();
    let rank_b = p.b.copy.rank();
    let mut ranks = vec![rank_a, rank_b];
    ranks.extend(p.c_store.as_ref().map(|x| x.rank()));
    emit_tma_prelude(&mut c, &ranks);
    if cl > 1 {
        emit_cluster_prelude(&mut c, &[rank_b]);
    }
    emit_c_tables(&mut c, &p.mma, bn)?;
    if let Some(s) = &p.stream_k {
        s.emit_functions(&mut c);
    }
    // with C's descriptor (and `c_tma` set by the launch where C's address suits it)
    let mut c_params = if p.c_store.is_some() {
        format!(", const __grid_constant__ {MAP_TYPE} map_c, const int c_tma")
    } else {
        String::new()
    };
    if p.stream_k.is_some() {
        c_params += ", float* __restrict__ sk_ws, const unsigned sk_epoch";
    }
    // the work items: each tile of the CTA whole, or with stream-K its whole tiles, then its
    // two parts of split tiles (k-blocks `k0 .. k1`); `rel` the k-block within the item
    let (items, k_first, k_end, rel) = match &p.stream_k {
        Some(s) => {
            let ndp = s.dp_tiles / s.ctas;
            (
                format!(
                    "for (int item = 0; item < {}; ++item) {{\n        int w = cid + item * {}, k0 = 0, k1 = {kt_total};\n        if (item >= {ndp} && (cid >= {} || !cute_sk_portion(cid, item - {ndp}, w, k0, k1))) continue;",
                    ndp + 2,
                    s.ctas,
                    s.units
                ),
                "k0".to_string(),
                "k1".to_string(),
                "(kt - k0)",
            )
        }
        None => (
            format!("for (int w = cid; w < {tiles}; w += clusters) {{"),
            "0".to_string(),
            kt_total.to_string(),
            "kt",
        ),
    };
    let entry = sk::KernelEntry {
        cluster: cl,
        bounds: &format!("{TMA_THREADS}, 1"),
        operands: &format!(
            "const __grid_constant__ {MAP_TYPE} map_a, const __grid_constant__ {MAP_TYPE} map_b"
        ),
        smem_align: 1024,
        smem_elem: "unsigned char",
        round_smem: true,
        b_offset: &(stages * sa).to_string(),
        trailing: &c_params,
    };
    sk::emit_kernel_entry(&mut c, &entry, &p.kernel);
    // C's staging boxes (two per consumer warpgroup) after the stages, then the mbarriers
    let c_staging = if p.c_store.is_some() {
        4 * c_box_bytes(p.kernel.c_type)
    } else {
        0
    };
    c.line(format!(
        "  const unsigned smem_c = smem_b + {};",
        stages * sb
    ));
    c.line(format!(
        "  const unsigned full = smem_c + {c_staging}, empty = full + {};",
        8 * stages
    ));
    c.line("  const int wg = threadIdx.x / 128, t = threadIdx.x % 128;");
    // the CTA's rank in its cluster, the cluster's index and the number of clusters
    c.line("  unsigned crank = 0;");
    if cl > 1 {
        c.line("  asm volatile(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(crank));");
    }
    c.line(format!(
        "  const int cid = blockIdx.x / {cl}, clusters = gridDim.x / {cl};"
    ));
    // "empty" counts one arrival per consumer warpgroup of every CTA whose loads write the stage
    c.line("  if (threadIdx.x == 0) {");
    c.line(format!(
        "    for (int s = 0; s < {stages}; ++s) {{ cute_mbar_init(full + 8 * s, 1); cute_mbar_init(empty + 8 * s, {}); }}",
        2 * cl
    ));
    c.line("    cute_fence_mbar_init();");
    c.line("  }");
    if cl > 1 {
        c.line("  cute_cluster_sync();");
    } else {
        c.line("  __syncthreads();");
    }
    let order = coordinate_exprs(&p.order, 3, "w")?;
    let tile_of = format!(
        "const int tm = ({}) * {cl} + (int)crank, tn = {}, l = {};",
        order[0], order[1], order[2]
    );
    // the producer
    c.line("  if (wg == 0) {");
    c.line(format!(
        "    asm volatile(\"setmaxnreg.dec.sync.aligned.u32 {};\" ::: \"memory\");",
        REGS.0
    ));
    c.line("    if (t == 0) {");
    c.line("      int it = 0;");
    c.line(format!("      {}", items.replace("\n  ", "\n    ")));
    c.line(format!("        {tile_of}"));
    let count = |o: &TmaOperand, tr: &str, total: i64| {
        let grid_rows = ceil_div(total, o.copy.tile[0]);
        format!(
            "(unsigned)min({}, {grid_rows} - {tr} * {}) * {}u",
            o.pieces, o.pieces, o.box_bytes
        )
    };
    c.line(format!(
        "        const unsigned bytes = {} + {};",
        count(&p.a, "tm", m),
        count(&p.b, "tn", n)
    ));
    c.line(format!(
        "        for (int kt = {k_first}; kt < {k_end}; ++kt, ++it) {{"
    ));
    c.line(format!(
        "          const int s = it % {stages}; const unsigned ph = (it / {stages}) & 1;"
    ));
    c.line("          cute_mbar_wait(empty + 8 * s, ph ^ 1);");
    c.line("          cute_mbar_expect_tx(full + 8 * s, bytes);");
    emit_operand_loads(&mut c, &p.a, "tm", m, kt_total, l, "smem_a", sa, 1)?;
    emit_operand_loads(&mut c, &p.b, "tn", n, kt_total, l, "smem_b", sb, cl)?;
    c.line("        }");
    c.line("      }");
    c.line("    }");
    c.line("  } else {");
    // the consumers
    c.line(format!(
        "    asm volatile(\"setmaxnreg.inc.sync.aligned.u32 {};\" ::: \"memory\");",
        REGS.1
    ));
    c.line("    const int cw = wg - 1;");
    c.line("    int it = 0;");
    // C's TMA store and the boxes of a warpgroup's tile, where C is stored by TMA
    let c_store = p.c_store.as_ref().map(|copy| CStore {
        kernel: &p.kernel,
        tile: (bm, bn),
        copy,
        staging: p.c_staging.as_ref(),
    });
    let boxes = c_store
        .as_ref()
        .map_or(0, |_| bn / c_box(p.kernel.c_type).1);
    if c_store.is_some() {
        // the tiles whose boxes were stored: with one box per tile, its staging buffer alternates
        // by tile (the store of the previous tile's box may still be reading the other)
        if boxes % 2 == 1 {
            c.line("    int etile = 0;");
        }
        c.line(format!(
            "    const unsigned cbuf = smem_c + cw * {};",
            2 * c_box_bytes(p.kernel.c_type)
        ));
    }
    if p.overlap() {
        // the previous tile's values, packed, and its coordinates: stored during this tile
        c.line(format!(
            "    unsigned pk[{}]; int ptm = 0, ptn = 0, pl = 0; bool pend = false;",
            vals / 2
        ));
    }
    c.line(format!("    {}", items.replace("\n  ", "\n")));
    c.line(format!("      {tile_of}"));
    c.line(format!(
        "      const idx m0 = (idx)tm * {bm}, n0 = (idx)tn * {bn};"
    ));
    // the tile's first MMA writes `d` (scale-d 0) rather than adding to zeroed registers: every
    // extent of a layout is positive, so K >= 1 and every tile runs at least one k-block
    c.line(format!("      float d[{vals}];"));
    c.line(format!(
        "      for (int kt = {k_first}; kt < {k_end}; ++kt, ++it) {{"
    ));
    c.line(format!(
        "        const int s = it % {stages}; const unsigned ph = (it / {stages}) & 1;"
    ));
    c.line("        cute_mbar_wait(full + 8 * s, ph);");
    c.line(format!(
        "        const unsigned a_base = smem_a + s * {sa} + cw * {};",
        p.a.wg.wg_step_bytes
    ));
    c.line(format!(
        "        const unsigned b_base = smem_b + s * {sb};"
    ));
    let mut body = Code::new();
    emit_mma_kblock(
        &mut body,
        &p.a.wg,
        &p.b.wg,
        ab,
        bn,
        ("a_base", "b_base"),
        Some(&format!("{rel} | ks")),
    );
    for line in body.finish().lines() {
        c.line(format!("    {line}"));
    }
    c.line("        asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");");
    // while this block's MMAs run, box `kt` of the previous tile: before the previous block's
    // wait, or after its stage's release where tiles are short ([`STORE_AFTER_RELEASE`])
    let store_late = kt_total <= STORE_AFTER_RELEASE;
    let store_pending = |c: &mut Code| -> Result<(), GpuError> {
        if let (true, Some(store)) = (p.overlap(), &c_store) {
            c.line("        if (pend) {");
            for ch in 0..boxes.min(kt_total) {
                c.line(format!(
                    "          {}if ({rel} == {ch}) {{",
                    if ch > 0 { "else " } else { "" }
                ));
                emit_store_box(c, store, &BoxValues::Packed(ch))?;
                c.line("          }");
            }
            c.line("        }");
        }
        Ok(())
    };
    if !store_late {
        store_pending(&mut c)?;
    }
    c.line("        asm volatile(\"wgmma.wait_group.sync.aligned 1;\" ::: \"memory\");");
    // the previous block's MMAs are done: its stage is free
    // the stage is released to every CTA whose loads write it (this one, and with clusters the
    // peers whose multicast of B lands here): thread `r` of the warpgroup arrives on CTA `r`'s
    // barrier, the arrivals of one instruction in parallel lanes
    let release = |cond: &str| {
        let bar = format!("empty + 8 * ((it + {}) % {stages})", stages - 1);
        if cl > 1 {
            format!("if ({cond}t < {cl}) cute_mbar_arrive_cta({bar}, (unsigned)t);")
        } else {
            format!("if ({cond}t == 0) cute_mbar_arrive({bar});")
        }
    };
    c.line(format!("        {}", release(&format!("{rel} > 0 && "))));
    if store_late {
        store_pending(&mut c)?;
    }
    c.line("      }");
    c.line("      asm volatile(\"wgmma.wait_group.sync.aligned 0;\" ::: \"memory\");");
    c.line(format!("      {}", release("")));
    if let Some(s) = &p.stream_k {
        if let (true, Some(store)) = (p.overlap(), &c_store) {
            // the previous tile's boxes not yet stored (this item shorter than its boxes)
            c.line("      if (pend) {");
            for ch in 0..boxes {
                c.line(format!("        if (k1 - k0 <= {ch}) {{"));
                emit_store_box(&mut c, store, &BoxValues::Packed(ch))?;
                c.line("        }");
            }
            c.line("      }");
        }
        // a contribution to a split tile: its partial sums to the workspace for the owner
        c.line(format!("      if (k1 < {kt_total}) {{"));
        if p.overlap() {
            // every box of the previous tile is stored: nothing pending, and the next tile's
            // single box (if so) takes the other buffer
            let bump = if boxes % 2 == 1 { " ++etile;" } else { "" };
            c.line(format!("        if (pend) {{{bump} pend = false; }}"));
        }
        s.emit_contribution(&mut c, bn, vals);
        c.line("        continue;");
        c.line("      }");
        // the owner of a split tile: the earlier parts' sums added
        c.line("      if (k0 > 0) {");
        s.emit_gather(&mut c, bn, vals);
        c.line("      }");
    }
    let mut epi = Code::new();
    emit_epilogue(&mut epi, &p.kernel, bn, "(idx)l", "cw");
    match &c_store {
        Some(store) if p.overlap() => {
            c.line("      if (c_tma != 0 && beta == 0.0f) {");
            // the previous tile's boxes not yet stored (K shorter than its boxes), then this
            // tile's values packed for the next
            if kt_total < boxes && p.stream_k.is_none() {
                c.line("        if (pend) {");
                for ch in kt_total..boxes {
                    emit_store_box(&mut c, store, &BoxValues::Packed(ch))?;
                }
                c.line("        }");
            }
            if boxes % 2 == 1 {
                c.line("        etile += pend ? 1 : 0;");
            }
            emit_pack(&mut c, p.kernel.c_type, vals);
            c.line("        ptm = tm; ptn = tn; pl = l; pend = true;");
            c.line("      } else {");
        }
        Some(store) => {
            c.line("      if (c_tma != 0 && beta == 0.0f) {");
            emit_tma_store_epilogue(&mut c, store, boxes)?;
            c.line("      } else {");
        }
        None => c.line("      {"),
    }
    for line in epi.finish().lines() {
        c.line(format!("    {line}"));
    }
    c.line("      }");
    c.line("    }");
    if let (true, Some(store)) = (p.overlap(), &c_store) {
        // the last tile's boxes
        c.line("    if (pend) {");
        for ch in 0..boxes {
            emit_store_box(&mut c, store, &BoxValues::Packed(ch))?;
        }
        c.line("    }");
    }
    if p.c_store.is_some() {
        // every store of C complete before the CTA leaves
        c.line("    if (t == 0) cute_bulk_wait0();");
    }
    c.line("  }");
    if cl > 1 {
        // no CTA leaves while a peer may still multicast into it or arrive on its barriers
        c.line("  cute_cluster_sync();");
    }
    c.line("}");
    Ok(c.finish())
}

impl TmaGemmPlan {
    /// Whether a tile's TMA-store epilogue overlaps the next tile's MMAs: where C is staged by
    /// `stmatrix` (16-bit C), its values packed in pairs of C's type, one box stored after each
    /// of the next tile's first k-blocks is issued, the rest after its last.
    ///
    /// ```
    /// use cute_cuda::{atom::DType, tma_gemm::plan_gemm_tma};
    /// let a = "(512,256):(256,1)".parse().unwrap();
    /// let b = "(512,256):(256,1)".parse().unwrap();
    /// let c = "(512,512):(1,512)".parse().unwrap();
    /// let bf16 = plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132).unwrap();
    /// let f32 = plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::F32, [8, 8], 132).unwrap();
    /// assert!(bf16.overlap() && !f32.overlap());
    /// ```
    pub fn overlap(&self) -> bool {
        self.c_staging.is_some()
    }

    /// The plan in a few lines.
    ///
    /// ```
    /// use cute_cuda::{atom::DType, tma_gemm::plan_gemm_tma};
    /// let a = "(512,256):(256,1)".parse().unwrap();
    /// let b = "(512,256):(256,1)".parse().unwrap();
    /// let c = "(512,512):(1,512)".parse().unwrap();
    /// let p = plan_gemm_tma(&a, &b, &c, DType::F16, DType::F16, [8, 8], 132).unwrap();
    /// assert!(p.describe().contains("warp-specialised"));
    /// ```
    pub fn describe(&self) -> String {
        let mut s = format!(
            "  MMA {} C {}\n  tile order {}\n",
            self.mma.ptx, self.mma.c, self.order
        );
        for o in [&self.a, &self.b] {
            s += &format!(
                "  {}: {}-major, smem {} o {}, LBO {} SBO {}, {} box(es) per stage; {}\n",
                o.wg.name,
                sk::major_word(o.wg.major),
                o.wg.swizzle,
                o.wg.smem,
                o.wg.lbo,
                o.wg.sbo,
                o.pieces,
                o.copy.describe()
            );
        }
        sk::describe_gemm(
            " (Hopper, TMA, warp-specialised, persistent)",
            &self.mma.ab_type.to_string(),
            self.tile,
            self.stages,
            &self.kernel,
            &s,
            &format!("{} persistent CTAs", self.kernel.grid.0),
        )
    }
}
