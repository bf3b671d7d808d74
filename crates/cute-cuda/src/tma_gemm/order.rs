//! The persistent kernel's tile order: a layout from the tile index to the tile's coordinates
//! `(tm, tn, l)` (coordinate strides `e_0, e_1, e_2`), which CTA `b` of a grid of `G` walks at
//! `b, b + G, b + 2G, …`. The tiles of one wave, `0..G`, then `G..2G`, …, run at the same time,
//! so the order decides which operand tiles share the L2 and which addresses reach the DRAM
//! together.
//!
//! The order groups `g` row tiles side by side, `((g,TN),TM/g,L):((1@0,1@1),g@0,1@2)`: a wave
//! reads a few row tiles of A and every column tile of B, one batch at a time, so each B tile
//! in L2 serves `g` row tiles and each A tile every column tile. Putting batches innermost where
//! an operand interleaves them (the paper's GETT, whose batch `t` lies between A's `s` and `u`)
//! was measured and lost 6–10 %, for reasons not yet profiled (DESIGN.md, BENCHMARKS.md).

use cute::Layout;

use crate::error::GpuError;

/// The largest divisor of `tm` that is at most 8: the row tiles of one group of the tile order.
fn group(tm: i64) -> i64 {
    (1..=8.min(tm)).rev().find(|g| tm % g == 0).unwrap_or(1)
}

/// The tile order of `tm × tn` tiles (`tm` row tiles, pairs of them with clusters of two) in
/// `l` batches: `((g,tn),tm/g,l):((1@0,1@1),g@0,1@2)`, `g` the largest divisor of `tm` up to 8.
///
/// ```
/// use cute_cuda::tma_gemm::tile_order;
/// let o = tile_order(32, 4, 16).unwrap();
/// assert_eq!(o.to_string(), "((8,4),4,16):((1@0,1@1),8@0,1@2)");
/// assert_eq!(o.size(), 32 * 4 * 16);
/// assert!(tile_order(0, 4, 16).is_err());
/// ```
///
/// # Errors
///
/// [`GpuError::Invalid`] where an extent is not positive.
pub fn tile_order(tm: i64, tn: i64, l: i64) -> Result<Layout, GpuError> {
    if tm < 1 || tn < 1 || l < 1 {
        return Err(GpuError::invalid(
            "tile order",
            format!("{tm} x {tn} tiles in {l} batches: the extents must be positive"),
        ));
    }
    let g = group(tm);
    Ok(format!("(({g},{tn}),{},{l}):((1@0,1@1),{g}@0,1@2)", tm / g).parse()?)
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

    /// Every order visits every tile exactly once, and its first `g · tn` tiles are the first
    /// `g` row tiles of batch 0 at every column tile (a group).
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
            let o = tile_order(tm, tn, l).unwrap();
            let g = group(tm);
            assert_eq!(o.size(), tm * tn * l);
            let mut seen = vec![false; (tm * tn * l) as usize];
            for i in 0..o.size() {
                let [a, b, c] = coords(&o, i);
                assert!(a < tm && b < tn && c < l, "{o} {i}");
                let k = ((c * tn + b) * tm + a) as usize;
                assert!(!seen[k], "{o}: tile {a},{b},{c} twice");
                seen[k] = true;
                if i < g * tn {
                    assert_eq!([a, b, c], [i % g, i / g, 0], "{o} {i}");
                }
            }
            assert!(seen.into_iter().all(|s| s));
        }
    }

    #[test]
    fn refuses_an_empty_grid() {
        for (tm, tn, l) in [(0, 4, 6), (4, 0, 6), (4, 4, 0), (-1, 4, 6)] {
            let e = tile_order(tm, tn, l).unwrap_err().to_string();
            assert!(
                e.contains("tile order") && e.contains("must be positive"),
                "{e}"
            );
        }
    }
}
