//! Stream-K: the persistent schedule's last, partial wave of tiles split along K among all the
//! CTAs, so that no multiprocessor idles while a few finish whole tiles.
//!
//! With `T` tiles on `G` CTAs, the first `D = ⌊T / G⌋ · G` tiles run whole ("data-parallel"), `D / G`
//! per CTA. The `r = T − D` tiles left hold `S = r · KT` k-blocks; unit `u < U` (CTA `u`) takes
//! the k-blocks `[⌊u·S/U⌋, ⌊(u+1)·S/U⌋)` of them in order, at most one tile's worth
//! (`U ≥ r`), so its range meets one or two tiles. The part of a tile that ends it (its last
//! k-block) is its **owner**: it adds the partial sums of the tile's earlier parts and runs the
//! epilogue. Every other part is a **contribution**: its accumulators go to the unit's slot of a
//! workspace in global memory and a flag is raised. A unit works its contribution first and its
//! owned part second, so an owner waits only at the very end of its work, and only for units of
//! lower index, which wrote their contribution first: no unit waits on a unit that waits.
//!
//! The flags hold the launch's epoch (a number each launch on the workspace raises), so the
//! workspace is never cleared between launches. A unit writes at most one contribution, so the
//! workspace holds one `BM × BN` f32 slot per unit ([`StreamK::workspace_bytes`]). The flags come
//! first, at the same place for every schedule ([`StreamK::FLAG_BYTES`]): a schedule of other
//! tiles or units launched before on the stream leaves partial sums only in the slots, never
//! where a flag is read.

use super::{source, TmaGemmPlan};
use crate::codegen::{ceil_div, Code};
use crate::error::GpuError;

/// The cost of one part of a split tile (its partial sums written by a contribution and read by
/// the owner, and the wait between), in tenths of one k-block's MMAs: a 128 × BN f32 tile is
/// `2 · BN` bytes per row and a k-block `2 · 64 · BN` flops per row, so the ratio holds for
/// every width. Measured (H100, 2026-12-06, each against the kernel with every tile whole in
/// one process): the q1024 GETT, 68 tiles of 16 k-blocks cut into 3 parts over 132 CTAs, ran
/// 3.7 % slower split, so its split wave took about 25.5 k-blocks where the longest unit had
/// 9: 5.5 per part. (Every CTA moves its 128 KiB at once, so the L2's bandwidth, not one
/// SM's, sets the time: 132 × 128 KiB written and read at about 5.5 TB/s is 6 µs, 8 k-blocks
/// of 0.7 µs.) bf16 8192³ (3 parts of 66 k-blocks) gained 2.4 and 4.3 % and 8000³ 1.0 %,
/// both still split at this cost; 4096³ and the q1024 GETTs no longer are.
const PARTIAL_COST: i64 = 55;

/// A stream-K schedule (see the module's text): the whole tiles, the split ones and the units
/// that share them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamK {
    /// Tiles run whole, `D / G` per CTA (a multiple of the CTAs, `G`).
    pub dp_tiles: i64,
    /// The CTAs, `G`.
    pub ctas: i64,
    /// Tiles split along K (`r`), the last ones of the order.
    pub tiles: i64,
    /// Units sharing their k-blocks (`U`, `r ≤ U ≤ G`): CTAs `0 .. U`.
    pub units: i64,
    /// k-blocks of one tile, `KT`.
    pub kt: i64,
}

/// One unit's part of one split tile: the tile (its index in the tile order) and its k-blocks
/// `[k.0, k.1)`; the owner's part is the one with `k.1 = KT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Portion {
    /// The tile's index in the tile order (`D + j` for split tile `j`).
    pub tile: i64,
    /// Its k-blocks `[k.0, k.1)`.
    pub k: (i64, i64),
}

impl StreamK {
    /// The schedule of `tiles` tiles of `kt` k-blocks on `ctas` persistent CTAs, or None where
    /// the tiles fill their waves or splitting would not pay. The model, in tenths of a
    /// k-block: the last wave takes `10·KT` whole; split among `U` units it takes the longest
    /// unit's k-blocks plus `PARTIAL_COST` for its contribution and for each partial sum its
    /// owner reads (at most the parts a tile may be cut into, less one). `U` is chosen between
    /// `r` and `G` for the least time.
    ///
    /// ```
    /// use cute_cuda::tma_gemm::StreamK;
    /// // bf16 8192³: 2048 tiles of 128 × 256, 128 k-blocks each, on 132 SMs: 15 waves, and 68
    /// // tiles (8704 k-blocks) shared by all 132 CTAs, 65 or 66 each
    /// let s = StreamK::plan(2048, 132, 128).unwrap();
    /// assert_eq!((s.dp_tiles, s.tiles, s.units), (1980, 68, 132));
    /// assert!(StreamK::plan(2112, 132, 128).is_none()); // 16 full waves
    /// assert!(StreamK::plan(128, 132, 32).is_none()); // 128 tiles on 132 SMs: nothing to gain
    /// ```
    pub fn plan(tiles: i64, ctas: i64, kt: i64) -> Option<StreamK> {
        Self::forced(tiles, ctas, kt).filter(|s| s.cost(s.units) < 10 * kt)
    }

    /// As [`StreamK::plan`], but split whether or not the model says that it pays (where the
    /// last wave is partial and its tiles have two k-blocks or more): for checks of the split
    /// kernel on small problems.
    ///
    /// ```
    /// use cute_cuda::tma_gemm::StreamK;
    /// // 36 tiles of 16 k-blocks: not worth splitting, but possible
    /// assert!(StreamK::plan(36, 132, 16).is_none());
    /// let s = StreamK::forced(36, 132, 16).unwrap();
    /// assert_eq!((s.dp_tiles, s.tiles), (0, 36));
    /// assert!(StreamK::forced(132, 132, 16).is_none()); // one full wave
    /// ```
    pub fn forced(tiles: i64, ctas: i64, kt: i64) -> Option<StreamK> {
        if !(2..=Self::MAX_UNITS).contains(&ctas) || tiles < 1 || kt < 2 {
            return None;
        }
        let r = tiles % ctas;
        if r == 0 {
            return None;
        }
        let s = r.checked_mul(kt)?;
        let mut k = StreamK {
            dp_tiles: tiles - r,
            ctas,
            tiles: r,
            units: r,
            kt,
        };
        k.units = (r..=ctas)
            .filter(|&u| s / u >= 1)
            .min_by_key(|&u| (k.cost(u), -u))?;
        Some(k)
    }

    /// The model's time of the split wave on `u` units, in tenths of a k-block: the longest
    /// unit's k-blocks and [`PARTIAL_COST`] for each part a tile may be cut into.
    fn cost(&self, u: i64) -> i64 {
        let (s, kt) = (self.iters(), self.kt);
        let longest = (s + u - 1) / u;
        let shortest = s / u;
        // a tile's parts: the first may be a unit's tail, the rest whole units' ranges
        let parts = (kt - 1 + shortest - 1) / shortest.max(1) + 1;
        10 * longest + PARTIAL_COST * parts
    }

    /// The CTAs a launch takes: all `G` where some tiles run whole, else the `U` units.
    ///
    /// ```
    /// use cute_cuda::tma_gemm::StreamK;
    /// assert_eq!(StreamK::plan(2048, 132, 128).unwrap().grid(), 132);
    /// let f = StreamK::forced(36, 132, 16).unwrap(); // one partial wave: no tile runs whole
    /// assert_eq!(f.grid(), f.units);
    /// ```
    pub fn grid(&self) -> i64 {
        if self.dp_tiles > 0 {
            self.ctas
        } else {
            self.units
        }
    }

    /// k-blocks of the split tiles, `S = r · KT`.
    pub fn iters(&self) -> i64 {
        self.tiles * self.kt
    }

    /// Unit `u`'s parts in the order it works them: first the one that does not end its tile
    /// (its contribution, if any), then the one that does (the tile it owns, if any).
    ///
    /// ```
    /// use cute_cuda::tma_gemm::{Portion, StreamK};
    /// // the paper's GETT at q = 1024 (2048 tiles of 16 k-blocks), its last 68 tiles over all
    /// // 132 CTAs (a schedule the model rejects: 3 parts of 8 or 9 k-blocks cost more than 16)
    /// let s = StreamK { dp_tiles: 1980, ctas: 132, tiles: 68, units: 132, kt: 16 };
    /// assert!(StreamK::plan(2048, 132, 16).is_none());
    /// // unit 1 has k-blocks 8 .. 16: the end of tile 0, which it owns
    /// assert_eq!(s.portions(1), [None, Some(Portion { tile: 1980, k: (8, 16) })]);
    /// // unit 2 has 16 .. 24: the first half of tile 1, a contribution to unit 3's
    /// assert_eq!(s.portions(2), [Some(Portion { tile: 1981, k: (0, 8) }), None]);
    /// assert_eq!(s.first_unit(1), 2);
    /// ```
    pub fn portions(&self, u: i64) -> [Option<Portion>; 2] {
        let (kt, s) = (self.kt, self.iters());
        if u < 0 || u >= self.units {
            return [None, None];
        }
        let (lo, hi) = (u * s / self.units, (u + 1) * s / self.units);
        let (j0, j1) = (lo / kt, (hi - 1) / kt);
        let part = |j: i64, k: (i64, i64)| {
            Some(Portion {
                tile: self.dp_tiles + j,
                k,
            })
        };
        if j1 > j0 {
            [part(j1, (0, hi - j1 * kt)), part(j0, (lo - j0 * kt, kt))]
        } else if hi - j0 * kt < kt {
            [part(j0, (lo - j0 * kt, hi - j0 * kt)), None]
        } else {
            [None, part(j0, (lo - j0 * kt, kt))]
        }
    }

    /// The unit holding split tile `j`'s first k-block: its owner adds the contributions of
    /// units `first_unit(j) ..` up to itself.
    pub fn first_unit(&self, j: i64) -> i64 {
        let s = self.iters();
        ((j * self.kt + 1) * self.units + s - 1) / s - 1
    }

    /// The most units a schedule takes (more CTAs than this are never split).
    pub const MAX_UNITS: i64 = 1024;

    /// Bytes of the flags at the start of the workspace: one `u32` per unit and consumer
    /// warpgroup, room for [`StreamK::MAX_UNITS`] units (the slots follow).
    pub const FLAG_BYTES: u64 = (Self::MAX_UNITS * 2 * 4) as u64;

    /// Bytes of the workspace a launch needs for tiles `BN` wide (two consumer warpgroups of 64
    /// rows): the flags ([`StreamK::FLAG_BYTES`]), then one f32 slot of `128 × BN` per unit.
    ///
    /// ```
    /// use cute_cuda::tma_gemm::StreamK;
    /// let s = StreamK::plan(2048, 132, 128).unwrap();
    /// assert_eq!(s.workspace_bytes(256), 8192 + 132 * 128 * 256 * 4);
    /// ```
    pub fn workspace_bytes(&self, bn: i64) -> u64 {
        Self::workspace_bytes_of(self.units, bn)
    }

    /// Bytes of the workspace of `units` units and tiles `bn` wide: the most a GPU's schedules
    /// take with one unit per SM and the widest tiles.
    ///
    /// ```
    /// use cute_cuda::tma_gemm::StreamK;
    /// let s = StreamK::plan(2048, 132, 128).unwrap();
    /// assert_eq!(StreamK::workspace_bytes_of(132, 256), s.workspace_bytes(256));
    /// ```
    pub fn workspace_bytes_of(units: i64, bn: i64) -> u64 {
        Self::FLAG_BYTES + (units * 2 * 64 * bn * 4) as u64
    }

    /// The address of unit `u`'s slot for warpgroup `cw` (C expressions), as `float4*`.
    fn slot(u: &str, bn: i64) -> String {
        format!(
            "(float4*)(sk_ws + {} + (size_t)({u} * 2 + cw) * {})",
            Self::FLAG_BYTES / 4,
            64 * bn
        )
    }

    /// The address of unit `u`'s flag for warpgroup `cw` (C expressions).
    fn flag(u: &str) -> String {
        format!("(unsigned*)sk_ws + {u} * 2 + cw")
    }

    /// The device functions of the schedule: `cute_sk_portion(u, which, w, k0, k1)`, unit `u`'s
    /// part `which` (0: its contribution, 1: its owned part) as [`StreamK::portions`] gives it,
    /// false where there is none; `cute_sk_first(j)`, [`StreamK::first_unit`].
    pub(super) fn emit_functions(&self, c: &mut Code) {
        let (d, s, u, kt) = (self.dp_tiles, self.iters(), self.units, self.kt);
        c.line(format!(
            "// stream-K: tiles {d}.. split along K, {s} k-blocks over {u} units (see the planner)"
        ));
        c.line("__device__ __forceinline__ bool cute_sk_portion(int u, int which, int& w, int& k0, int& k1) {");
        c.line(format!(
            "  const long long lo = (long long)u * {s}LL / {u}, hi = (long long)(u + 1) * {s}LL / {u};"
        ));
        c.line(format!(
            "  const long long j0 = lo / {kt}, j1 = (hi - 1) / {kt};"
        ));
        c.line("  long long j;");
        c.line(format!(
            "  if (which == 0) {{\n    if (j1 > j0) {{ j = j1; k0 = 0; k1 = (int)(hi - j1 * {kt}); }}\n    else if (hi - j0 * {kt} < {kt}) {{ j = j0; k0 = (int)(lo - j0 * {kt}); k1 = (int)(hi - j0 * {kt}); }}\n    else return false;\n  }} else {{\n    if (j1 > j0 || hi - j0 * {kt} == {kt}) {{ j = j0; k0 = (int)(lo - j0 * {kt}); k1 = {kt}; }}\n    else return false;\n  }}"
        ));
        c.line(format!("  w = (int)({d} + j);\n  return true;\n}}"));
        c.line(format!(
            "__device__ __forceinline__ int cute_sk_first(int j) {{ return (int)((((long long)j * {kt} + 1) * {u} + {}LL) / {s}LL) - 1; }}",
            s - 1
        ));
    }

    /// A contribution's leaving: warpgroup `cw`'s accumulators `d` (`vals` per thread) into unit
    /// `cid`'s slot, thread-interleaved by four (coalesced), made visible at GPU scope, then the
    /// flag raised to the epoch by one thread (a release after the warpgroup's barrier).
    pub(super) fn emit_contribution(&self, c: &mut Code, bn: i64, vals: i64) {
        c.line(format!("        float4* sk_p = {};", Self::slot("cid", bn)));
        c.line(format!(
            "        #pragma unroll\n        for (int i = 0; i < {}; ++i) __stcg(sk_p + i * 128 + t, make_float4(d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]));",
            vals / 4
        ));
        c.line("        __threadfence();");
        c.line("        asm volatile(\"bar.sync %0, 128;\" :: \"r\"(1 + cw) : \"memory\");");
        c.line(format!("        if (t == 0) asm volatile(\"st.release.gpu.global.u32 [%0], %1;\" :: \"l\"({}), \"r\"(sk_epoch) : \"memory\");", Self::flag("cid")));
    }

    /// An owner's gathering: for each unit from the tile's first up to this one, one thread
    /// waits (acquire) until the unit's flag for warpgroup `cw` holds the epoch, the warpgroup
    /// meets at its barrier, and every thread adds the slot's values to its accumulators.
    pub(super) fn emit_gather(&self, c: &mut Code, bn: i64, vals: i64) {
        c.line(format!(
            "        for (int v = cute_sk_first(w - {}); v < cid; ++v) {{",
            self.dp_tiles
        ));
        c.line(format!("          if (t == 0) {{ const unsigned* f = {}; unsigned x; do {{ asm volatile(\"ld.acquire.gpu.global.u32 %0, [%1];\" : \"=r\"(x) : \"l\"(f) : \"memory\"); }} while (x != sk_epoch); }}", Self::flag("v")));
        c.line("          asm volatile(\"bar.sync %0, 128;\" :: \"r\"(1 + cw) : \"memory\");");
        c.line(format!(
            "          const float4* sk_p = {};",
            Self::slot("v", bn)
        ));
        c.line(format!(
            "          #pragma unroll\n          for (int i = 0; i < {}; ++i) {{ const float4 x = __ldcg(sk_p + i * 128 + t); d[4 * i] += x.x; d[4 * i + 1] += x.y; d[4 * i + 2] += x.z; d[4 * i + 3] += x.w; }}",
            vals / 4
        ));
        c.line("        }");
    }
}

/// A plan's choice of stream-K, undone or forced (for benchmarks and checks).
impl TmaGemmPlan {
    /// The plan with every tile run whole by one CTA (no [`StreamK`] split of the last wave):
    /// for benchmarks that measure what the split gains.
    ///
    /// ```
    /// use cute_cuda::{atom::DType, tma_gemm::plan_gemm_tma};
    /// let a = "(8192,8192):(8192,1)".parse().unwrap();
    /// let b = "(8192,8192):(8192,1)".parse().unwrap();
    /// let c = "(8192,8192):(1,8192)".parse().unwrap();
    /// let p = plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132).unwrap();
    /// assert_eq!(p.stream_k.map(|s| s.tiles), Some(68)); // 2048 tiles: 15 waves and 68
    /// assert!(p.kernel.workspace > 0 && p.kernel.source.contains("cute_sk_portion"));
    /// let dp = p.data_parallel().unwrap();
    /// assert!(dp.stream_k.is_none() && dp.kernel.workspace == 0);
    /// assert!(!dp.kernel.source.contains("cute_sk_portion"));
    /// assert_eq!(dp.kernel.grid, (132, 1));
    /// ```
    ///
    /// # Errors
    ///
    /// Only where the source cannot be written again (a bug).
    pub fn data_parallel(mut self) -> Result<TmaGemmPlan, GpuError> {
        if let Some(s) = self.stream_k.take() {
            self.kernel.grid.0 = (s.dp_tiles + s.tiles).min(s.ctas) as u32;
            self.kernel.workspace = 0;
            self.kernel.source = source(&self)?;
        }
        Ok(self)
    }

    /// The plan with its last, partial wave split along K among the CTAs of a GPU of `sms`
    /// multiprocessors whether or not that pays ([`StreamK::forced`]): checks of the split
    /// kernel on problems too small for [`StreamK::plan`] to choose it. Unchanged where it
    /// already splits, with clusters of two, where the waves are full, or with one k-block.
    ///
    /// ```
    /// use cute_cuda::{atom::DType, tma_gemm::plan_gemm_tma};
    /// let a = "(768,1024):(1024,1)".parse().unwrap();
    /// let b = "(1536,1024):(1024,1)".parse().unwrap();
    /// let c = "(768,1536):(1,768)".parse().unwrap();
    /// let p = plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132).unwrap();
    /// assert!(p.stream_k.is_none()); // one partial wave of 16 k-blocks: splitting would not pay
    /// let s = p.split_last_wave(132).unwrap();
    /// let tiles = s.order.size(); // one partial wave, every tile split
    /// assert_eq!(s.stream_k.map(|k| (k.dp_tiles, k.tiles)), Some((0, tiles)));
    /// assert!(s.kernel.workspace > 0 && s.kernel.source.contains("cute_sk_portion"));
    /// ```
    ///
    /// # Errors
    ///
    /// Only where the source cannot be written again (a bug).
    pub fn split_last_wave(mut self, sms: u32) -> Result<TmaGemmPlan, GpuError> {
        if self.stream_k.is_some() || self.cluster != 1 {
            return Ok(self);
        }
        let kt = ceil_div(self.kernel.extents.2, self.tile.2);
        if let Some(s) = StreamK::forced(self.order.size(), sms as i64, kt) {
            self.kernel.grid.0 = s.grid() as u32;
            self.kernel.workspace = s.workspace_bytes(self.tile.1);
            self.stream_k = Some(s);
            self.kernel.source = source(&self)?;
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every k-block of every split tile is worked exactly once; each tile has one owner part
    /// (the one ending at `KT`), whose earlier parts come from the units `first_unit .. owner`,
    /// each of which contributes exactly that one part; a unit contributes at most once.
    fn check(s: &StreamK) {
        let kt = s.kt;
        let mut seen = vec![0u32; (s.tiles * kt) as usize];
        let mut owner = vec![None; s.tiles as usize];
        let mut contributed = vec![None; s.units as usize];
        for u in 0..s.units {
            let [c, o] = s.portions(u);
            if let Some(c) = c {
                assert!(c.k.1 < kt && c.k.0 < c.k.1, "{s:?} unit {u}: {c:?}");
                contributed[u as usize] = Some(c.tile);
            }
            if let Some(o) = o {
                assert!(o.k.1 == kt && o.k.0 < kt);
                let j = (o.tile - s.dp_tiles) as usize;
                assert!(owner[j].replace((u, o.k.0)).is_none(), "two owners of {j}");
            }
            for p in [c, o].into_iter().flatten() {
                let j = p.tile - s.dp_tiles;
                for k in p.k.0..p.k.1 {
                    seen[(j * kt + k) as usize] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&x| x == 1), "{s:?}: coverage {seen:?}");
        for (j, o) in owner.iter().enumerate() {
            let (u, k0) = o.unwrap_or_else(|| panic!("{s:?}: tile {j} has no owner"));
            let first = s.first_unit(j as i64);
            assert_eq!(first == u, k0 == 0, "{s:?} tile {j}");
            for v in first..u {
                assert_eq!(contributed[v as usize], Some(s.dp_tiles + j as i64));
            }
        }
    }

    #[test]
    fn schedules_cover_every_k_block_once() {
        let mut planned = 0;
        for ctas in [2, 3, 7, 16, 114, 132] {
            for kt in [2, 3, 5, 16, 31, 64, 125, 128] {
                for tiles in (1..3 * ctas).step_by(1 + ctas as usize / 9) {
                    if let Some(s) = StreamK::plan(tiles, ctas, kt) {
                        assert!(s.units >= s.tiles && s.units <= ctas);
                        assert_eq!(s.dp_tiles % ctas, 0);
                        check(&s);
                        planned += 1;
                    }
                }
            }
        }
        assert!(planned > 100, "{planned} schedules");
        // forced: every unit count for a few shapes, paying or not
        for (r, kt) in [(1, 2), (5, 7), (68, 16), (13, 128)] {
            for units in r..=132 {
                if r * kt / units >= 1 {
                    check(&StreamK {
                        dp_tiles: 132,
                        ctas: 132,
                        tiles: r,
                        units,
                        kt,
                    });
                }
            }
        }
    }

    #[test]
    fn only_a_partial_last_wave_that_pays_is_split() {
        assert!(StreamK::plan(264, 132, 64).is_none());
        assert!(StreamK::plan(133, 132, 1).is_none());
        // 8000³: 2016 tiles, 36 split of 125 k-blocks
        let s = StreamK::plan(2016, 132, 125).unwrap();
        assert_eq!((s.dp_tiles, s.tiles), (1980, 36));
        // a wave all but full: 131 of 132 tiles, nothing to gain
        assert!(StreamK::plan(131, 132, 16).is_none());
    }
}
