//! The TMA GEMM's epilogue: C's box of a warpgroup, its staging in shared memory (`stmatrix`
//! into a swizzle chosen by the bank-conflict analysis, or one value per store for f32) and its
//! TMA store, box by box; for a 16-bit C, overlapped with the next tile's MMAs from values packed
//! in pairs ([`super::TmaGemmPlan::overlap`]).

use cute::{bank_conflicts, ComposedLayout, Layout, Swizzle};

use crate::atom::{DType, MmaAtom};
use crate::codegen::{ceil_div, grid_index_type, layout_eval_expr, swizzle_expr, Code};
use crate::error::GpuError;
use crate::gemm::GemmKernel;
use crate::partition::warpgroup_c_partition;
use crate::tma::emit::coord_exprs;
use crate::tma::{make_tma_copy, TmaCopy};

/// What the epilogue's emitters read of a plan that stores C by TMA: the problem and C's type
/// (`kernel`), the CTA tile `(BM, BN)`, C's TMA copy of one box and how the box is staged.
pub(super) struct CStore<'a> {
    pub kernel: &'a GemmKernel,
    pub tile: (i64, i64),
    pub copy: &'a TmaCopy,
    pub staging: Option<&'a CStaging>,
}

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
pub(super) fn c_box_bytes(t: DType) -> i64 {
    let (rb, cb) = c_box(t);
    rb * cb * t.bytes()
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
pub(super) fn c_store_copy(
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

/// Where one staging box of the TMA-store epilogue takes its values and its tile from.
pub(super) enum BoxValues {
    /// This tile's accumulators `d` (times `alpha`), tile `(tm, tn, l)`, box `ch` (a variable:
    /// the unrolled loop's).
    Accumulators,
    /// The previous tile's values packed in pairs (`pk`, scaled when packed), tile
    /// `(ptm, ptn, pl)`, this box.
    Packed(i64),
}

/// The epilogue through shared memory, after the tile's MMAs: the warpgroup's `64 × BN`
/// accumulators in `boxes` boxes of [`c_box`], each stored as [`emit_store_box`] says.
pub(super) fn emit_tma_store_epilogue(
    c: &mut Code,
    st: &CStore,
    boxes: i64,
) -> Result<(), GpuError> {
    c.line(format!(
        "        #pragma unroll\n        for (int ch = 0; ch < {boxes}; ++ch) {{"
    ));
    emit_store_box(c, st, &BoxValues::Accumulators)?;
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
pub(super) fn emit_store_box(
    c: &mut Code,
    st: &CStore,
    values: &BoxValues,
) -> Result<(), GpuError> {
    let (m, n, _, batches) = st.kernel.extents;
    let t = st.kernel.c_type;
    let cs = st.copy;
    let (rb, cb) = c_box(t);
    let box_bytes = c_box_bytes(t);
    let (bm, bn) = st.tile;
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
    match st.staging {
        Some(staging) => emit_stmatrix_staging(c, staging, &cs.smem, t, cb, packed)?,
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
    let (ty, sfx) = grid_index_type(&[grid_rows, grid_cols, batches]);
    c.line(format!(
        "            const {ty} tq = ({ty})box_r + {grid_rows}{sfx} * (({ty})box_c + {grid_cols}{sfx} * ({ty}){l});"
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
/// lower half, `d[2i + 1]` in its upper), for an epilogue that overlaps the next tile. With
/// `alpha == 1` (the usual case) the products are skipped: `x * 1.0f` is `x` for every `x`
/// (no flush to zero is compiled), and the tensor cores wait for this between two tiles.
pub(super) fn emit_pack(c: &mut Code, t: DType, vals: i64) {
    // cvt.rn.{t}x2.f32 d, a, b puts a in the upper half, b in the lower
    let pack = |scale: &str| {
        format!(
            "#pragma unroll\n          for (int i = 0; i < {}; ++i) asm(\"cvt.rn.{}x2.f32 %0, %1, %2;\" : \"=r\"(pk[i]) : \"f\"({scale}d[2 * i + 1]), \"f\"({scale}d[2 * i]));",
            vals / 2,
            t.ptx()
        )
    };
    c.line("        if (alpha == 1.0f) {");
    c.line(format!("          {}", pack("")));
    c.line("        } else {");
    c.line(format!("          {}", pack("alpha * ")));
    c.line("        }");
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
