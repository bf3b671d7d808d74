//! The persistent kernel's tile order: a layout from the tile index to the tile's coordinates
//! `(tm, tn, l)` (coordinate strides `e_0, e_1, e_2`), which CTA `b` of a grid of `G` walks at
//! `b, b + G, b + 2G, …`. The tiles of one wave, `0..G`, then `G..2G`, …, run at the same time,
//! so the order decides which operand tiles share the L2 and which addresses reach the DRAM
//! together.
//!
//! The plan's order groups `g` row tiles side by side, `((g,TN),TM/g,L):((1@0,1@1),g@0,1@2)`:
//! a wave reads a few row tiles of A and every column tile of B, one batch at a time. Where an
//! operand interleaves its batches in memory (the paper's GETT `stupr,qtru->stqp`, whose batch
//! `t` lies between A's contiguous `s` and its `u`), one batch's tile is a row of short pieces
//! (128 bytes of every 2 KiB there) and a wave touches one piece of each; the variant
//! [`tile_order`] with `lb > 1` puts `lb` batches innermost,
//! `(lb,(g,TN),TM/g,L/lb):(1@2,(1@0,1@1),g@0,lb@2)`, so that CTAs running together read
//! neighbouring pieces ([`batch_run`] chooses `lb`).

use cute::Layout;

use super::TmaGemmPlan;
use crate::codegen::ceil_div;
use crate::error::GpuError;

/// The largest divisor of `tm` that is at most 8: the row tiles of one group of the tile order.
pub(super) fn group(tm: i64) -> i64 {
    (1..=8.min(tm)).rev().find(|g| tm % g == 0).unwrap_or(1)
}

/// The tile grid `(TM, TN)` of an `m × n` problem in tiles of `tile = (BM, BN)`: row tiles (pairs
/// of them with clusters of two) and column tiles, what the tile order walks in each batch.
pub(super) fn tile_grid(m: i64, n: i64, tile: (i64, i64), cluster: i64) -> (i64, i64) {
    (ceil_div(m, tile.0) / cluster.max(1), ceil_div(n, tile.1))
}

/// The tile order of `tm × tn` tiles (`tm` row tiles, pairs of them with clusters of two) in
/// `l` batches, with `lb` batches innermost (1: one batch at a time).
///
/// ```
/// use cute_cuda::tma_gemm::tile_order;
/// let o = tile_order(32, 4, 16, 1).unwrap();
/// assert_eq!(o.to_string(), "((8,4),4,16):((1@0,1@1),8@0,1@2)");
/// let o = tile_order(32, 4, 16, 4).unwrap();
/// assert_eq!(o.to_string(), "(4,(8,4),4,4):(1@2,(1@0,1@1),8@0,4@2)");
/// assert_eq!(o.size(), 32 * 4 * 16);
/// assert!(tile_order(32, 4, 16, 3).is_err()); // 3 does not divide 16
/// ```
///
/// # Errors
///
/// [`GpuError::Invalid`] where `lb` is not a positive divisor of `l` or an extent is not
/// positive.
pub fn tile_order(tm: i64, tn: i64, l: i64, lb: i64) -> Result<Layout, GpuError> {
    if tm < 1 || tn < 1 || l < 1 || lb < 1 || l % lb != 0 {
        return Err(GpuError::invalid(
            "tile order",
            format!(
                "{tm} x {tn} tiles in {l} batches, {lb} innermost: the extents must be positive \
                 and {lb} must divide {l}"
            ),
        ));
    }
    let g = group(tm);
    let order = if lb == 1 {
        format!("(({g},{tn}),{},{l}):((1@0,1@1),{g}@0,1@2)", tm / g)
    } else {
        format!(
            "({lb},({g},{tn}),{},{}):(1@2,(1@0,1@1),{g}@0,{lb}@2)",
            tm / g,
            l / lb
        )
    };
    Ok(order.parse()?)
}

/// How many batches to put innermost in the tile order of `plan` on `ctas` CTAs (clusters): 1
/// unless an operand interleaves its batches, else the largest divisor `lb` of the first batch
/// mode's extent such that
/// - the `lb` batches' pieces lie side by side in every operand that interleaves: for each
///   operand whose first batch stride `s` is smaller than the stride of one of its row, column
///   or reduction modes, `lb · s` stays within the next larger stride of that operand;
/// - a wave still holds whole groups of the order: `lb · g · TN <= ctas` (`g` row tiles), so
///   that the tiles sharing an operand tile in L2 run together, as in the order with one batch.
///
/// ```
/// use cute_cuda::{atom::DType, tma_gemm::{batch_run, plan_gemm_tma}};
/// // the paper's GETT stupr,qtru->stqp at q = 1024, folded: t (16) is the batch; A's t stride
/// // is 64 (between s, stride 1, and u, stride 1024)
/// let a = "((64,64),(64,16),16):((1,65536),(1024,4194304),64)".parse().unwrap();
/// let b = "(1024,(64,16),16):(1,(262144,16384),1024)".parse().unwrap();
/// let c = "((64,64),1024,16):((1,1048576),1024,64)".parse().unwrap();
/// let p = plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132).unwrap();
/// // 16 batches side by side, but a group is 8 x 4 tiles: 4 groups of batches fill 132 CTAs
/// assert_eq!(batch_run(&p, 132), 4);
/// // batches outermost (a batched GEMM): one at a time
/// let a = "(4096,1024,16):(1024,1,4194304)".parse().unwrap();
/// let b = "(1024,1024,16):(1024,1,1048576)".parse().unwrap();
/// let c = "(4096,1024,16):(1,4096,4194304)".parse().unwrap();
/// let p = plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132).unwrap();
/// assert_eq!(batch_run(&p, 132), 1);
/// ```
pub fn batch_run(plan: &TmaGemmPlan, ctas: i64) -> i64 {
    let kernel = &plan.kernel;
    let (m, n, _, l) = kernel.extents;
    let first = kernel.modes[2].2.leaf_at(0).0;
    if l <= 1 || first <= 1 {
        return 1;
    }
    let mut run = first;
    let mut interleaved = false;
    for (p, q, lm) in &kernel.modes {
        let s = lm.leaf_at(0).1.abs();
        if s == 0 {
            continue; // a broadcast operand: every batch reads the same tile
        }
        let leaves = [p, q, lm].into_iter().enumerate().flat_map(|(i, x)| {
            (0..x.leaf_count()).filter_map(move |j| {
                let (e, st) = x.leaf_at(j);
                (e > 1 && !(i == 2 && j == 0)).then_some((i, st.abs()))
            })
        });
        let mut next = None::<i64>;
        let mut inside = false;
        for (i, st) in leaves {
            if st > s {
                inside |= i < 2;
                next = Some(next.map_or(st, |x| x.min(st)));
            }
        }
        if let (true, Some(next)) = (inside, next) {
            interleaved = true;
            run = run.min((next / s).max(1));
        }
    }
    if !interleaved {
        return 1;
    }
    let (tm, tn) = tile_grid(m, n, (plan.tile.0, plan.tile.1), plan.cluster);
    let per_group = group(tm.max(1)) * tn;
    let fit = ctas / per_group.max(1);
    (1..=run.min(fit))
        .rev()
        .find(|d| first % d == 0)
        .unwrap_or(1)
}

/// A plan's tile order changed (for benchmarks and checks of the order).
impl TmaGemmPlan {
    /// The plan with `lb` batches innermost in its tile order ([`tile_order`]); the kernel is
    /// written again, its stream-K split (if any) unchanged (it depends only on the number of
    /// tiles).
    ///
    /// ```
    /// use cute_cuda::{atom::DType, tma_gemm::plan_gemm_tma};
    /// let a = "((64,64),(64,16),16):((1,65536),(1024,4194304),64)".parse().unwrap();
    /// let b = "(256,(64,16),16):(1,(65536,4096),256)".parse().unwrap();
    /// let c = "((64,64),256,16):((1,262144),1024,64)".parse().unwrap();
    /// let p = plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132).unwrap();
    /// let bi = p.clone().batch_inner(16).unwrap();
    /// assert_eq!(bi.order.to_string(), "(16,(8,1),4,1):(1@2,(1@0,1@1),8@0,16@2)");
    /// assert_ne!(bi.kernel.source, p.kernel.source);
    /// assert!(p.batch_inner(5).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// As [`tile_order`]: `lb` must divide the number of batches.
    pub fn batch_inner(mut self, lb: i64) -> Result<TmaGemmPlan, GpuError> {
        let (m, n, _, l) = self.kernel.extents;
        let (tm, tn) = tile_grid(m, n, (self.tile.0, self.tile.1), self.cluster);
        self.order = tile_order(tm, tn, l, lb)?;
        self.kernel.source = super::source(&self)?;
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The coordinates `(tm, tn, l)` of tile index `i` of an order (coordinate strides).
    fn coords(o: &Layout, mut i: i64) -> [i64; 3] {
        let mut at = [0; 3];
        for j in 0..o.leaf_count() {
            let e = o.leaf_at(j).0;
            let s = o.stride_at(j);
            let (path, depth) = s.path();
            assert_eq!(depth, 1, "{o}");
            at[path[0]] += (i % e) * s.value();
            i /= e;
        }
        at
    }

    /// Every order visits every tile exactly once; with `lb` batches innermost, the tiles
    /// `0..lb` are one tile's `lb` batches.
    #[test]
    fn every_tile_once() {
        for (tm, tn, l) in [
            (32, 4, 16),
            (32, 1, 16),
            (7, 3, 6),
            (1, 1, 1),
            (12, 5, 8),
            (9, 2, 4),
        ] {
            for lb in (1..=l).filter(|d| l % d == 0) {
                let o = tile_order(tm, tn, l, lb).unwrap();
                assert_eq!(o.size(), tm * tn * l);
                let mut seen = vec![false; (tm * tn * l) as usize];
                for i in 0..o.size() {
                    let [a, b, c] = coords(&o, i);
                    assert!(a < tm && b < tn && c < l, "{o} {i}");
                    let k = ((c * tn + b) * tm + a) as usize;
                    assert!(!seen[k], "{o}: tile {a},{b},{c} twice");
                    seen[k] = true;
                    if i < lb {
                        assert_eq!([a, b, c], [0, 0, i], "{o}");
                    }
                }
                assert!(seen.into_iter().all(|s| s));
            }
        }
    }

    #[test]
    fn refuses_a_batch_count_that_does_not_divide() {
        let e = tile_order(4, 4, 6, 4).unwrap_err().to_string();
        assert!(
            e.contains("tile order") && e.contains("4 must divide 6"),
            "{e}"
        );
        assert!(tile_order(0, 4, 6, 1).is_err());
    }
}
