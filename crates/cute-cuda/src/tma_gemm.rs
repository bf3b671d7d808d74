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
//! (one per SM) and take tiles `blockIdx.x, blockIdx.x + gridDim.x, …` of the tile order, a layout with
//! coordinate strides, `((G,TN),TM/G,L):((1@0,1@1),G@0,1@2)`: tile index ↦ `(tm, tn, l)`, `G`
//! row tiles side by side (L2 reuse of B's columns). A 16-bit C leaves through shared memory and
//! TMA stores while the next tile's MMAs run: a tile's values are packed in pairs when its last
//! MMAs complete, and box `k` of them is stored after the next tile's block `k` is issued.
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

use cute::{bank_conflicts, ComposedLayout, Layout, Swizzle};

use crate::atom::{DType, Major, MmaAtom};
use crate::codegen::{ceil_div, coordinate_exprs, layout_eval_expr, swizzle_expr, Code};
use crate::error::GpuError;
use crate::gemm::GemmKernel;
use crate::partition::warpgroup_c_partition;
use crate::skeleton::{self as sk};
use crate::tma::emit::{coord_exprs, emit_cluster_prelude, emit_tma_prelude, MAP_TYPE};
use crate::tma::{make_tma_copy, TmaCopy};
use crate::wgmma::{
    emit_c_tables, emit_epilogue, emit_hopper_comments, emit_mma_kblock, hopper_base, operand,
    OperandSpec, WgOperand, WG_TILE,
};

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
/// Threads per CTA: the producer warpgroup and two consumer warpgroups.
pub const TMA_THREADS: i64 = 384;
/// Registers the producer keeps (`setmaxnreg.dec`) and the consumers take (`setmaxnreg.inc`):
/// `128 · 40 + 256 · 232 <= 65536`.
pub const REGS: (i64, i64) = (40, 232);

/// The box of C of element type `t` one consumer warpgroup stores at a time through shared
/// memory (rows of its 64, columns of the tile's `BN`), double-buffered per warpgroup: 64 × 64
/// for 16-bit types (8 KiB: four synchronised rounds per tile), 64 × 32 for f32 (8 KiB; 64 columns
/// would not fit beside the pipeline's stages).
///
/// ```
/// use cute_cuda::{atom::DType, tma_gemm::c_box};
/// assert_eq!((c_box(DType::Bf16), c_box(DType::F32)), ((64, 64), (64, 32)));
/// ```
pub fn c_box(t: DType) -> (i64, i64) {
    if t.bytes() == 2 {
        (64, 64)
    } else {
        (64, 32)
    }
}
/// Bytes of one staging box of C ([`c_box`] elements of `t`).
fn c_box_bytes(t: DType) -> i64 {
    let (rb, cb) = c_box(t);
    rb * cb * t.bytes()
}

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
    /// Whether a tile's TMA-store epilogue overlaps the next tile's MMAs (with `stmatrix`
    /// staging): its values packed in pairs of C's type, one box stored after each of the next
    /// tile's first k-blocks is issued, the rest after its last.
    pub overlap: bool,
    /// The tile order: tile index ↦ `(tm, tn, l)` (coordinate strides); with clusters of 2,
    /// cluster tile index ↦ `(pair of row tiles, tn, l)`.
    pub order: Layout,
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

/// The epilogue's `stmatrix` writes of a 16-bit C into its staging box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CStaging {
    /// `stmatrix.sync.aligned.m8n8.x4.trans` (C's rows contiguous: each 8 × 8 matrix is stored
    /// transposed, a column of 8 rows per address) or without `.trans` (C's columns contiguous).
    pub trans: bool,
    /// Shared-memory wavefronts of one warp's two `stmatrix.x4` (32 columns of the box) with the
    /// chosen swizzle, and the ideal (4 per instruction).
    pub wavefronts: (u64, u64),
}

/// One warp's `stmatrix.x4` accesses to C's `rb × cb` staging box (element coordinates
/// `r + rb·c`) over 32 columns (two instructions of 16): thread `lane` gives the address of row
/// `lane % 8` of matrix `lane / 8`, matrix `k` covering rows `8·(k % 2) ..` and columns
/// `8·(k / 2) ..` of the warp's 16 rows, `8` consecutive elements per address (along the rows
/// with `.trans`, along the columns without).
fn stmatrix_pattern(trans: bool, rb: i64) -> Result<Layout, GpuError> {
    let text = if trans {
        format!("((8,2,2),(8,2)):(({rb},8,{}),(1,{}))", 8 * rb, 16 * rb)
    } else {
        format!("((8,2,2),(8,2)):((1,8,{}),({rb},{}))", 8 * rb, 16 * rb)
    };
    Ok(text.parse()?)
}

/// Whether the accumulators of a warpgroup (the [`emit_c_tables`] pattern) are `stmatrix`'s
/// fragments: thread `t` starting at row `16·(t / 32) + (t % 32) / 4`, column `2·(t % 4)` of the
/// warpgroup's 64 rows, so that its values `4j + 2h + {0, 1}` are the two elements thread `t % 32`
/// holds of the 8 × 8 matrix at rows `16·(t / 32) + 8h`, columns `8j`.
fn stmatrix_fragments(mma: &MmaAtom, bn: i64) -> bool {
    let vals = (64 * bn / 128) as usize;
    match warpgroup_c_partition(mma, bn, 2) {
        Ok(part) => (0..128usize).all(|t| {
            let t64 = t as i64;
            part[t * vals] == (16 * (t64 / 32) + (t64 % 32) / 4, 2 * (t64 % 4))
        }),
        Err(_) => false,
    }
}

/// C's TMA store of one [`c_box`] box and how the epilogue writes the staging box, or None where
/// C is no TMA tensor (a stride that is no multiple of 16 bytes, more than 5 dimensions, a
/// negative stride) or its box would not be one leaf of the rows and one of the columns (the
/// boxes verified on hardware). The staging box is C's own order, the contiguous mode innermost;
/// a 16-bit C is written by `stmatrix`, swizzled by the cheapest of TMA's swizzles (none, 32, 64,
/// 128 bytes) under which its accesses are free of bank conflicts (the fewest wavefronts where
/// none is), an f32 C one value per store, unswizzled.
fn c_store_copy(
    kernel: &GemmKernel,
    mma: &MmaAtom,
    bm: i64,
    bn: i64,
) -> Option<(TmaCopy, Option<CStaging>)> {
    let (m, n, _, _) = kernel.extents;
    let (cm, cn, cl) = &kernel.modes[2];
    let (rb, cb) = c_box(kernel.c_type);
    if kernel.ranges[2].0 < 0 || bm % rb != 0 || bn % cb != 0 || cb % 16 != 0 {
        return None;
    }
    let global = Layout::concat(&[*cm, *cn, *cl]).ok()?;
    let unit = |l: &Layout| {
        (0..l.leaf_count()).any(|k| {
            let (extent, stride) = l.leaf_at(k);
            extent > 1 && stride == 1
        })
    };
    let trans = unit(cm);
    let box_layout: Layout = if trans {
        format!("({rb},{cb}):(1,{rb})")
    } else {
        format!("({rb},{cb}):({cb},1)")
    }
    .parse()
    .ok()?;
    let boxes = ceil_div(m, rb) * ceil_div(n, cb) * cl.size();
    let copy_with = |sw: Swizzle| {
        let smem = ComposedLayout::new(sw, 0, box_layout);
        let copy = make_tma_copy(&global, &[rb, cb, 1], &smem, kernel.c_type).ok()?;
        let spread = copy.dims.iter().filter(|d| d.box_dim > 1).count();
        (copy.tiles() == boxes && spread == 2).then_some((copy, smem))
    };
    let identity = Swizzle::new(0, 4, 3).ok()?;
    if kernel.c_type.bytes() != 2 || !stmatrix_fragments(mma, bn) {
        return copy_with(identity).map(|(copy, _)| (copy, None));
    }
    let pattern = stmatrix_pattern(trans, rb).ok()?;
    // (wavefronts, ideal, copy) of the cheapest candidate with the fewest wavefronts
    let mut best: Option<(u64, u64, TmaCopy)> = None;
    for b in 0..=3 {
        let sw = if b == 0 {
            identity
        } else {
            Swizzle::new(b, 3, 3).ok()?
        };
        let Some((copy, smem)) = copy_with(sw) else {
            continue;
        };
        let Ok(report) = bank_conflicts(&smem, &pattern, 2, 8) else {
            continue;
        };
        let (w, ideal) = (report.total(), report.ideal_total());
        if best.as_ref().is_none_or(|x| w < x.0) {
            best = Some((w, ideal, copy));
        }
        if w == ideal {
            break;
        }
    }
    best.map(|(w, ideal, copy)| {
        (
            copy,
            Some(CStaging {
                trans,
                wavefronts: (w, ideal),
            }),
        )
    })
}

/// The largest divisor of `tm` that is at most 8: the row tiles of one group of the tile order.
fn group(tm: i64) -> i64 {
    (1..=8.min(tm)).rev().find(|g| tm % g == 0).unwrap_or(1)
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
    let (tm, tn) = (ceil_div(m, bm) / cluster, ceil_div(n, bn));
    let g = group(tm);
    let order: Layout = format!("(({g},{tn}),{},{l}):((1@0,1@1),{g}@0,1@2)", tm / g).parse()?;
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
    let kernel = GemmKernel {
        majors: [(pa.wg.major, pa.wg.vector), (pb.wg.major, pb.wg.vector)],
        grid: (
            (tiles.min((sms as i64 / cluster).max(1)) * cluster) as u32,
            1,
        ),
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
        overlap: c_staging.is_some(),
        c_store,
        c_staging,
        order,
        kernel,
    };
    p.kernel.source = source(&p)?;
    Ok(p)
}

/// The loads of operand `o`'s boxes of tile row `tr` (`tm` or `tn`) into stage `s`: all of them,
/// or with `multicast` (a cluster of that many CTAs sharing the tile) this CTA's share,
/// multicast to every CTA of the cluster.
#[allow(clippy::too_many_arguments)]
fn emit_operand_loads(
    c: &mut Code,
    o: &TmaOperand,
    tr: &str,
    rows_total: i64,
    kt_total: i64,
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
    c.line(format!(
        "            const long long q = (long long){tr} * {} + j;",
        o.pieces
    ));
    c.line(format!("            if (q < {grid_rows}) {{"));
    c.line(format!(
        "              const long long tq = q + {grid_rows}LL * (kt + {kt_total}LL * l);"
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
    // with C's descriptor (and `c_tma` set by the launch where C's address suits it)
    let c_params = if p.c_store.is_some() {
        format!(", const __grid_constant__ {MAP_TYPE} map_c, const int c_tma")
    } else {
        String::new()
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
    c.line(format!(
        "      for (int w = cid; w < {tiles}; w += clusters) {{"
    ));
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
    c.line(
        "        for (int kt = 0; kt < KT_TOTAL; ++kt, ++it) {"
            .replace("KT_TOTAL", &kt_total.to_string()),
    );
    c.line(format!(
        "          const int s = it % {stages}; const unsigned ph = (it / {stages}) & 1;"
    ));
    c.line("          cute_mbar_wait(empty + 8 * s, ph ^ 1);");
    c.line("          cute_mbar_expect_tx(full + 8 * s, bytes);");
    emit_operand_loads(&mut c, &p.a, "tm", m, kt_total, "smem_a", sa, 1)?;
    emit_operand_loads(&mut c, &p.b, "tn", n, kt_total, "smem_b", sb, cl)?;
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
    let boxes = p
        .c_store
        .as_ref()
        .map_or(0, |_| bn / c_box(p.kernel.c_type).1);
    if p.c_store.is_some() {
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
    if p.overlap {
        // the previous tile's values, packed, and its coordinates: stored during this tile
        c.line(format!(
            "    unsigned pk[{}]; int ptm = 0, ptn = 0, pl = 0; bool pend = false;",
            vals / 2
        ));
    }
    c.line(format!(
        "    for (int w = cid; w < {tiles}; w += clusters) {{"
    ));
    c.line(format!("      {tile_of}"));
    c.line(format!(
        "      const idx m0 = (idx)tm * {bm}, n0 = (idx)tn * {bn};"
    ));
    // the tile's first MMA writes `d` (scale-d 0) rather than adding to zeroed registers: every
    // extent of a layout is positive, so K >= 1 and every tile runs at least one k-block
    c.line(format!("      float d[{vals}];"));
    c.line(format!(
        "      for (int kt = 0; kt < {kt_total}; ++kt, ++it) {{"
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
        Some("kt | ks"),
    );
    for line in body.finish().lines() {
        c.line(format!("    {line}"));
    }
    c.line("        asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");");
    if let (true, Some(cs)) = (p.overlap, &p.c_store) {
        // while this block's MMAs run, box `kt` of the previous tile
        c.line("        if (pend) {");
        for ch in 0..boxes.min(kt_total) {
            c.line(format!(
                "          {}if (kt == {ch}) {{",
                if ch > 0 { "else " } else { "" }
            ));
            emit_store_box(&mut c, p, cs, &BoxValues::Packed(ch))?;
            c.line("          }");
        }
        c.line("        }");
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
    c.line(format!("        {}", release("kt > 0 && ")));
    c.line("      }");
    c.line("      asm volatile(\"wgmma.wait_group.sync.aligned 0;\" ::: \"memory\");");
    c.line(format!("      {}", release("")));
    let mut epi = Code::new();
    emit_epilogue(&mut epi, &p.kernel, bn, "(idx)l", "cw");
    match &p.c_store {
        Some(cs) if p.overlap => {
            c.line("      if (c_tma != 0 && beta == 0.0f) {");
            // the previous tile's boxes not yet stored (K shorter than its boxes), then this
            // tile's values packed for the next
            if kt_total < boxes {
                c.line("        if (pend) {");
                for ch in kt_total..boxes {
                    emit_store_box(&mut c, p, cs, &BoxValues::Packed(ch))?;
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
        Some(cs) => {
            c.line("      if (c_tma != 0 && beta == 0.0f) {");
            emit_tma_store_epilogue(&mut c, p, cs, boxes)?;
            c.line("      } else {");
        }
        None => c.line("      {"),
    }
    for line in epi.finish().lines() {
        c.line(format!("    {line}"));
    }
    c.line("      }");
    c.line("    }");
    if let (true, Some(cs)) = (p.overlap, &p.c_store) {
        // the last tile's boxes
        c.line("    if (pend) {");
        for ch in 0..boxes {
            emit_store_box(&mut c, p, cs, &BoxValues::Packed(ch))?;
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

/// Where one staging box of the TMA-store epilogue takes its values and its tile from.
enum BoxValues {
    /// This tile's accumulators `d` (times `alpha`), tile `(tm, tn, l)`, box `ch` (a variable:
    /// the unrolled loop's).
    Accumulators,
    /// The previous tile's values packed in pairs (`pk`, scaled when packed), tile
    /// `(ptm, ptn, pl)`, this box.
    Packed(i64),
}

/// The epilogue through shared memory, after the tile's MMAs: the warpgroup's `64 × BN`
/// accumulators in `boxes` boxes of [`c_box`], each stored as [`emit_store_box`] says.
fn emit_tma_store_epilogue(
    c: &mut Code,
    p: &TmaGemmPlan,
    cs: &TmaCopy,
    boxes: i64,
) -> Result<(), GpuError> {
    c.line(format!(
        "        #pragma unroll\n        for (int ch = 0; ch < {boxes}; ++ch) {{"
    ));
    emit_store_box(c, p, cs, &BoxValues::Accumulators)?;
    c.line("        }");
    if boxes % 2 == 1 {
        c.line("        ++etile;");
    }
    Ok(())
}

/// One box of the epilogue: the values (times `alpha`) written into one of the warpgroup's two
/// staging boxes at the offsets of the copy's shared-memory layout, then stored by one thread's
/// TMA store at the box's coordinates (read off the copy's tile grid, a layout with `e_i`
/// strides), asynchronously, one barrier per box: before it, the storing thread waits until the
/// previous box's store has read its buffer, which the next box reuses. The buffers alternate
/// by box (and by tile where a tile has one box). TMA clips what lies outside C (ragged edges).
fn emit_store_box(
    c: &mut Code,
    p: &TmaGemmPlan,
    cs: &TmaCopy,
    values: &BoxValues,
) -> Result<(), GpuError> {
    let (m, n, _, _) = p.kernel.extents;
    let t = p.kernel.c_type;
    let (rb, cb) = c_box(t);
    let box_bytes = c_box_bytes(t);
    let (bm, bn, _) = p.tile;
    let boxes = bn / cb;
    let grid_rows = ceil_div(m, rb);
    let grid_cols = ceil_div(n, cb);
    let (tm, tn, l) = match values {
        BoxValues::Accumulators => ("tm", "tn", "l"),
        BoxValues::Packed(ch) => {
            c.line(format!("          {{ const int ch = {ch};"));
            ("ptm", "ptn", "pl")
        }
    };
    let parity = if boxes % 2 == 1 {
        "((ch + etile) & 1)"
    } else {
        "(ch & 1)"
    };
    c.line(format!(
        "          const unsigned buf = cbuf + {parity} * {box_bytes};"
    ));
    // `buf` is free: the store that last read it, issued two boxes ago (this tile's or the
    // previous one's), had read it before the previous box's barrier
    let packed = matches!(values, BoxValues::Packed(_));
    match &p.c_staging {
        Some(st) => emit_stmatrix_staging(c, st, &cs.smem, t, cb, packed)?,
        None => emit_scalar_staging(c, &cs.smem, t, cb),
    }
    // the writes visible to the async proxy; the storing thread waits until the previous box's
    // store has read the other buffer (which the next box writes); then one barrier: the whole
    // box written, the other buffer free, and one thread stores this box
    c.line("          cute_fence_proxy_async();");
    c.line("          if (t == 0) cute_bulk_wait_read0();");
    c.line("          asm volatile(\"bar.sync %0, 128;\" :: \"r\"(1 + cw) : \"memory\");");
    // a box wholly past C's rows or columns is not stored (its index would run into the next
    // column or batch of the tile grid); a box partly past them is clipped by TMA
    c.line(format!(
        "          const int box_r = {tm} * {} + cw, box_c = {tn} * {boxes} + ch;",
        bm / rb,
    ));
    c.line(format!(
        "          if (t == 0 && box_r < {grid_rows} && box_c < {grid_cols}) {{"
    ));
    c.line(format!(
        "            const long long tq = (long long)box_r + {grid_rows}LL * ((long long)box_c + {grid_cols}LL * {l});"
    ));
    let coords = coord_exprs(cs, "tq")?;
    let args: Vec<String> = coords.iter().map(|x| format!("(int){x}")).collect();
    c.line(format!(
        "            cute_tma_store_{}d(&map_c, buf, {});",
        cs.rank(),
        args.join(", ")
    ));
    c.line("            cute_bulk_commit();");
    c.line("          }");
    if packed {
        c.line("          }");
    }
    Ok(())
}

/// The tile's accumulators times `alpha`, packed in pairs of `t` (`pk[i]` holds `d[2i]` in its
/// lower half, `d[2i + 1]` in its upper), for an epilogue that overlaps the next tile.
fn emit_pack(c: &mut Code, t: DType, vals: i64) {
    // cvt.rn.{t}x2.f32 d, a, b puts a in the upper half, b in the lower
    c.line(format!(
        "        #pragma unroll\n        for (int i = 0; i < {}; ++i) asm(\"cvt.rn.{}x2.f32 %0, %1, %2;\" : \"=r\"(pk[i]) : \"f\"(alpha * d[2 * i + 1]), \"f\"(alpha * d[2 * i]));",
        vals / 2,
        t.ptx()
    ));
}

/// The staging box's shared address of element `(r, cc)` (expressions): C's box layout, then
/// its swizzle, in bytes of `t` past `buf`.
fn staging_address(smem: &ComposedLayout, t: DType, r: &str, cc: &str) -> String {
    let (rb, _) = c_box(t);
    let offset = layout_eval_expr(&smem.layout, &format!("({r} + {rb} * ({cc}))"));
    format!(
        "buf + (unsigned)({}) * {}u",
        swizzle_expr(&smem.swizzle, &offset),
        t.bytes()
    )
}

/// The warpgroup's accumulators of the box's `cb` columns (`ch`-th box of the tile) into the
/// staging buffer `buf`, one value (times `alpha`) per store.
fn emit_scalar_staging(c: &mut Code, smem: &ComposedLayout, t: DType, cb: i64) {
    c.line(format!(
        "          #pragma unroll\n          for (int jj = 0; jj < {}; ++jj) {{",
        cb / 8
    ));
    c.line(format!("            const int j = ch * {} + jj;", cb / 8));
    c.line("            #pragma unroll\n            for (int h = 0; h < 2; ++h) {");
    c.line("              #pragma unroll\n              for (int w = 0; w < 2; ++w) {");
    c.line("                const int r = C_ROW[t] + 8 * h, cc = C_COL[t] + 8 * jj + w;");
    c.line(format!(
        "                const unsigned at = {};",
        staging_address(smem, t, "r", "cc")
    ));
    c.line("                const float y = alpha * d[4 * j + 2 * h + w];");
    match t {
        DType::F32 => c.line(
            "                asm volatile(\"st.shared.f32 [%0], %1;\" :: \"r\"(at), \"f\"(y) : \"memory\");",
        ),
        _ => c.line(format!(
            "                {{ unsigned short bits; asm(\"cvt.rn.{}.f32 %0, %1;\" : \"=h\"(bits) : \"f\"(y)); asm volatile(\"st.shared.b16 [%0], %1;\" :: \"r\"(at), \"h\"(bits) : \"memory\"); }}",
            t.ptx()
        )),
    }
    c.line("              }");
    c.line("            }");
    c.line("          }");
}

/// The warpgroup's accumulators of the box's `cb` columns into the staging buffer `buf` by
/// `stmatrix.x4`, 16 columns per instruction: matrix `k` of an instruction is rows `8·(k % 2)`
/// and columns `8·(k / 2)` of the warp's 16 rows and the instruction's 16 columns, its fragment
/// the values `4j + 2h + {0, 1}` (`j` the column block, `h = k % 2`) converted in pairs by
/// `cvt.rn.{t}x2.f32` (or, `packed`, read from `pk`, converted already), its rows' addresses
/// given by threads `8k .. 8k + 7` ([`CStaging`]).
fn emit_stmatrix_staging(
    c: &mut Code,
    st: &CStaging,
    smem: &ComposedLayout,
    t: DType,
    cb: i64,
    packed: bool,
) -> Result<(), GpuError> {
    let atom = crate::atom::stmatrix(4, st.trans)?;
    c.line(format!(
        "          // {} ({}): {} wavefronts per warp and 32 columns, ideal {}",
        atom.ptx, atom.name, st.wavefronts.0, st.wavefronts.1
    ));
    c.line("          const int lane = t & 31, mk = lane >> 3, q = lane & 7;");
    c.line(format!(
        "          #pragma unroll\n          for (int jp = 0; jp < {}; ++jp) {{",
        cb / 16
    ));
    // the element this thread's address points at: row q of matrix mk
    let (r, cc) = if st.trans {
        (
            "16 * (t >> 5) + 8 * (mk & 1)",
            "16 * jp + 8 * (mk >> 1) + q",
        )
    } else {
        (
            "16 * (t >> 5) + 8 * (mk & 1) + q",
            "16 * jp + 8 * (mk >> 1)",
        )
    };
    c.line(format!(
        "            const unsigned at = {};",
        staging_address(smem, t, r, cc)
    ));
    c.line(format!(
        "            const int j = ch * {} + 2 * jp;",
        cb / 8
    ));
    c.line("            unsigned x[4];");
    c.line("            #pragma unroll\n            for (int k = 0; k < 4; ++k) {");
    c.line("              const int v = 4 * (j + (k >> 1)) + 2 * (k & 1);");
    if packed {
        c.line("              x[k] = pk[v >> 1];");
    } else {
        // cvt.rn.{t}x2.f32 d, a, b puts a in the upper half, b in the lower
        c.line(format!(
            "              asm(\"cvt.rn.{}x2.f32 %0, %1, %2;\" : \"=r\"(x[k]) : \"f\"(alpha * d[v + 1]), \"f\"(alpha * d[v]));",
            t.ptx()
        ));
    }
    c.line("            }");
    c.line(format!(
        "            asm volatile(\"{} [%0], {{%1, %2, %3, %4}};\" :: \"r\"(at), \"r\"(x[0]), \"r\"(x[1]), \"r\"(x[2]), \"r\"(x[3]) : \"memory\");",
        atom.ptx
    ));
    c.line("          }");
    Ok(())
}

impl TmaGemmPlan {
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
