//! The GEMM kernels' partitions read off CuTe's TiledMMA: which accumulators, fragments and
//! shared-memory slices each thread, warp and warpgroup owns, from `get_layoutA/B/C_TV` of the
//! tiled MMA each kernel is (eight warps of `mma.sync 16×8×16`, two warpgroups of
//! `wgmma m64nNk16`), each checked against the loops the kernel runs.

use cute::tiled::{make_tiled_mma, TiledMma};
use cute::Layout;

use crate::atom::{wgmma_64xnx16, DType, MmaAtom};
use crate::error::GpuError;

/// A tile coordinate `(row, column)` (`(m, n)`, `(m, k)` or `(n, k)`).
pub type Coord2 = (i64, i64);
/// Each `(thread, value)`'s tile coordinate, thread-major.
pub type Coords = Vec<Coord2>;

/// Warps of the portable kernel's CTA along M and N (warp tile 64 × 32 of its 128 × 128 tile).
pub const WARPS: (i64, i64) = (2, 4);

/// Each `(thread, value)` of a tiled MMA's C partition as its `(m, n)` in the C tile, read off
/// `get_layoutC_TV` (an index `m + M·n`), thread-major: entry `t·V + v`.
pub(crate) fn c_coords(tiled: &TiledMma) -> Result<Coords, GpuError> {
    tv_coords(
        &tiled.get_layout_c_tv()?,
        tiled.size(),
        tiled.tile_shape().0,
    )
}

/// Each `(thread, value)` of a TV layout over `threads` threads as its `(row, column)` in a tile
/// of `rows` rows (the layout's value an index `row + rows·column`), thread-major.
fn tv_coords(tv: &Layout, threads: i64, rows: i64) -> Result<Coords, GpuError> {
    let vals = tv.size() / threads;
    let mut out = Vec::with_capacity(tv.size() as usize);
    for t in 0..threads {
        for v in 0..vals {
            let i = tv.eval(t + threads * v)?;
            out.push((i % rows, i / rows));
        }
    }
    Ok(out)
}

/// The atoms per warp `(mi, ni)` of a `bm × bn` tile over [`WARPS`] warps.
fn warp_atoms(mma: &MmaAtom, (bm, bn): (i64, i64)) -> Result<(i64, i64), GpuError> {
    let (am, an, _) = mma.shape_mnk;
    let (w0, w1) = WARPS;
    let (mi, ni) = (bm / (am * w0), bn / (an * w1));
    if mi * am * w0 != bm || ni * an * w1 != bn || mi < 1 || ni < 1 {
        return Err(GpuError::unsupported(
            "mma.sync plan",
            format!("a {bm} x {bn} tile is no whole number of {am} x {an} atoms per warp"),
        ));
    }
    Ok((mi, ni))
}

/// The CTA's TiledMMA of [`warp_c_partition`]: the atom over [`WARPS`] warps
/// (`(2,4,1):(1,2,0)`), `mi × ni` atoms per warp, permuted so that each warp's atoms are
/// contiguous.
fn warp_tiled_mma(mma: &MmaAtom, (mi, ni): (i64, i64)) -> Result<TiledMma, GpuError> {
    let (am, an, _) = mma.shape_mnk;
    let (w0, w1) = WARPS;
    Ok(make_tiled_mma(
        mma,
        &format!("({w0},{w1},1):(1,{w0},0)").parse()?,
        &format!(
            "<({am},{w0},{mi}):(1,{},{am}),({an},{w1},{ni}):(1,{},{an}),_>",
            am * mi,
            an * ni
        )
        .parse()?,
    )?)
}

/// The A and B partitions of the CTA's TiledMMA ([`warp_c_partition`]'s) for one `k16` slice:
/// thread `t`'s value `v` ↦ `(m, k)` in the `bm × 16` tile of A and `(n, k)` in the `bn × 16`
/// tile of B, read off `get_layoutA_TV` / `get_layoutB_TV` (thread-major). Checked against what
/// the kernel loads: thread `t` of warp `w` holds A at `(wr + 16·i + m_a, k_a)` and B at
/// `(wc + 8·j + n_a, k_b)` for the atom's values, M atoms `i < mi` (after the atom's values), N
/// atoms `j < ni`; so the `ldmatrix` lanes solved from warp 0's values serve every warp at its
/// offset.
///
/// ```
/// use cute_cuda::{atom::DType, partition::warp_ab_partitions};
/// let atom = cute::atom::mma_sm80_16x8x16(DType::Bf16).unwrap();
/// let (a, b) = warp_ab_partitions(&atom, (128, 128)).unwrap();
/// assert_eq!((a.len(), b.len()), (256 * 32, 256 * 16)); // 4 atoms of 8 values; 4 of 4
/// assert_eq!(a[0], atom.a_coord(0, 0).unwrap());
/// let (n, k) = atom.b_coord(8, 0).unwrap();
/// assert_eq!(b[8 * 16 + 4], (n + 8, k)); // thread 8's first value of its second N atom
/// ```
///
/// # Errors
///
/// As [`warp_c_partition`].
pub fn warp_ab_partitions(
    mma: &MmaAtom,
    (bm, bn): (i64, i64),
) -> Result<(Coords, Coords), GpuError> {
    let (am, an, _) = mma.shape_mnk;
    let (w0, w1) = WARPS;
    let (mi, ni) = warp_atoms(mma, (bm, bn))?;
    let tiled = warp_tiled_mma(mma, (mi, ni))?;
    let threads = tiled.size();
    let a = tv_coords(&tiled.get_layout_a_tv()?, threads, bm)?;
    let b = tv_coords(&tiled.get_layout_b_tv()?, threads, bn)?;
    // operand by operand: its atoms along its rows (`mi` of A, `ni` of B), each warp's offset
    for (name, part, atoms, step) in [("A", &a, mi, am), ("B", &b, ni, an)] {
        let vals = part.len() as i64 / threads;
        let per = vals / atoms;
        for t in 0..threads {
            let (w, lane) = (t / 32, t % 32);
            let origin = if name == "A" {
                (w % w0) * (bm / w0)
            } else {
                (w / w0) * (bn / w1)
            };
            for v in 0..vals {
                let (x, i) = (v % per, v / per);
                let (r, k) = if name == "A" {
                    mma.a_coord(lane, x)?
                } else {
                    mma.b_coord(lane, x)?
                };
                if part[(t * vals + v) as usize] != (origin + step * i + r, k) {
                    return Err(GpuError::unsupported(
                        "mma.sync plan",
                        format!("thread {t}'s {name} value {v} of the TiledMMA is not where the kernel's ldmatrix loads put it"),
                    ));
                }
            }
        }
    }
    Ok((a, b))
}

/// The CTA's warps as CuTe's TiledMMA: the `16 × 8 × 16` atom over [`WARPS`] warps
/// (`(2,4,1):(1,2,0)`), permuted so that each warp owns a contiguous `bm/2 × bn/4` block
/// (`<(16,2,mi):(1,16·mi,16), (8,4,ni):(1,8·ni,8), _>`), and its C partition read off
/// `get_layoutC_TV`: thread `t`'s value `v` ↦ `(m, n)` in the `bm × bn` tile (thread-major).
/// Checked against what the kernel computes: thread `t` of warp `w` holds `(wr + 16·i + m_a,
/// wc + 8·j + n_a)` for the atom's value `(m_a, n_a)` of lane `t % 32`, `wr = (w % 2)·bm/2`,
/// `wc = (w / 2)·bn/4`, atoms `i < mi`, `j < ni`, in that order.
///
/// ```
/// use cute_cuda::{atom::DType, partition::warp_c_partition};
/// let atom = cute::atom::mma_sm80_16x8x16(DType::Bf16).unwrap();
/// let c = warp_c_partition(&atom, (128, 128)).unwrap();
/// assert_eq!(c.len(), 128 * 128);
/// assert_eq!(c[0], (0, 0));
/// assert_eq!(c[32 * 64], (64, 0)); // warp 1: the lower half of the rows
/// ```
///
/// # Errors
///
/// `Unsupported` when the tile is not a whole number of atoms per warp, or the TiledMMA's
/// partition differs from the kernel's loops.
pub fn warp_c_partition(mma: &MmaAtom, (bm, bn): (i64, i64)) -> Result<Vec<(i64, i64)>, GpuError> {
    let (am, an, _) = mma.shape_mnk;
    let (w0, w1) = WARPS;
    let (mi, ni) = warp_atoms(mma, (bm, bn))?;
    let tiled = warp_tiled_mma(mma, (mi, ni))?;
    let out = c_coords(&tiled)?;
    let (threads, vals) = (tiled.size(), bm * bn / tiled.size());
    // the kernel's loops: value (a, i, j) of the atom's values, then the M atoms, then the N atoms
    for t in 0..threads {
        let (w, lane) = (t / 32, t % 32);
        let (wr, wc) = ((w % w0) * (bm / w0), (w / w0) * (bn / w1));
        for v in 0..vals {
            let (a, i, j) = (v % 4, (v / 4) % mi, v / (4 * mi));
            let (ma, na) = mma.c_coord(lane, a)?;
            if out[(t * vals + v) as usize] != (wr + am * i + ma, wc + an * j + na) {
                return Err(GpuError::unsupported(
                    "mma.sync plan",
                    format!("thread {t}'s value {v} of the TiledMMA is not where the kernel's warp loops put it"),
                ));
            }
        }
    }
    Ok(out)
}

/// The consumer warpgroups of a CTA as CuTe's TiledMMA: the `m64n{bn}k16` atom repeated over
/// `wgs` warpgroups along M (`make_tiled_mma(atom, (wgs,1,1):(1,0,0))`), and its C partition
/// read off `get_layoutC_TV`: thread `t`'s value `v` ↦ `(m, n)` in the `64·wgs × bn` tile, as
/// `[(m, n); threads·vals]` (thread-major).
///
/// ```
/// use cute_cuda::{atom::DType, partition::warpgroup_c_partition};
/// let atom = cute::atom::wgmma_64xnx16(256, DType::Bf16).unwrap();
/// let c = warpgroup_c_partition(&atom, 256, 2).unwrap();
/// assert_eq!(c.len(), 256 * 128);
/// assert_eq!(c[128 * 128], (64, 0)); // the second warpgroup starts 64 rows down
/// ```
///
/// # Errors
///
/// `Unsupported` when the tiled MMA cannot be made (an `atom` of another width than `bn`).
pub fn warpgroup_c_partition(
    mma: &MmaAtom,
    bn: i64,
    wgs: i64,
) -> Result<Vec<(i64, i64)>, GpuError> {
    let tiled = make_tiled_mma(
        mma,
        &format!("({wgs},1,1):(1,0,0)").parse()?,
        &"<_,_,_>".parse()?,
    )?;
    let (tm, tn, _) = tiled.tile_shape();
    if tn != bn || tm != 64 * wgs {
        return Err(GpuError::unsupported(
            "wgmma plan",
            format!(
                "the tiled MMA's C tile is {tm} x {tn}, not {} x {bn}",
                64 * wgs
            ),
        ));
    }
    c_coords(&tiled)
}

/// Where the consumers' `wgmma` descriptors of operand `name` (`A` or `B`, `(rows, k)` tile
/// coordinates) start, read off the CTA's TiledMMA ([`warpgroup_c_partition`]'s, two warpgroups
/// of `m64n{bn}k16` over a `bm × bn` tile): the first value of the second `k16` slice (the tiled MMA's K tile), and
/// the first value of the second warpgroup's partition (`get_layoutA_TV` / `get_layoutB_TV` at
/// thread 128): A's 64 rows down, B's the same tile (both warpgroups read all of B).
///
/// ```
/// use cute_cuda::{atom::DType, partition::warpgroup_origins};
/// assert_eq!(warpgroup_origins("A", DType::Bf16, (128, 256)).unwrap(), ((0, 16), (64, 0)));
/// assert_eq!(warpgroup_origins("B", DType::Bf16, (128, 256)).unwrap(), ((0, 16), (0, 0)));
/// ```
///
/// # Errors
///
/// `Unsupported` when the tiled MMA cannot be made for `t`.
pub fn warpgroup_origins(
    name: &str,
    t: DType,
    (bm, bn): (i64, i64),
) -> Result<(Coord2, Coord2), GpuError> {
    let tiled = make_tiled_mma(
        &wgmma_64xnx16(bn, t)?,
        &format!("({},1,1):(1,0,0)", bm / 64).parse()?,
        &"<_,_,_>".parse()?,
    )?;
    let (tv, rows) = if name == "A" {
        (tiled.get_layout_a_tv()?, bm)
    } else {
        (tiled.get_layout_b_tv()?, bn)
    };
    let tk = tiled.tile_shape().2;
    let i = tv.eval(128)?;
    Ok(((0, tk), (i % rows, i / rows)))
}
