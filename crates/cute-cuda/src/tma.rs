//! The TMA (Tensor Memory Accelerator) copy atom of Hopper, derived from layouts: the parameters
//! of `cuTensorMapEncodeTiled` and the coordinates each CTA passes, from a global tensor's layout,
//! the CTA tile that one instruction moves and the shared-memory layout of that tile.
//!
//! The derivation follows CUTLASS's `make_tma_copy` (`cute/atom/copy_traits_sm90_tma.hpp`,
//! `construct_tma_gbasis` and `make_tma_copy_desc`), written here from its semantics:
//!
//! 1. The tile splits each top mode of the global layout over that mode's leaves (colexicographic,
//!    as `logical_divide` does): a leaf of extent `S_j` gets the box `b_j`. The tile's flattened
//!    leaves `(b_j)` are the domain of the shared-memory layout.
//! 2. The shared-memory layout's non-swizzled part is inverted (`right_inverse`) and composed with
//!    the tile's coordinate layout (the identity of the tile, strides `e_j`), then coalesced:
//!    `smem offset ↦ tile coordinate`. Its modes, in order, are the TMA's box dimensions: TMA
//!    writes the box packed, dimension 0 fastest. Every mode must be a whole tile leaf with unit
//!    coefficient (CuTe's `smem_rank` test), so that one box holds the tile.
//! 3. Each box dimension takes its global leaf's extent and stride; the global leaves the tile
//!    does not cover follow as box-1 dimensions; neighbouring dimensions that address contiguous
//!    memory are merged (CuTe's `coalesce_256` and its grouping of trailing modes). Size-1 leaves
//!    and stride-0 leaves give no dimension.
//! 4. The tiles form a grid whose every leaf steps one TMA coordinate: the grid is a layout with
//!    coordinate strides `v·e_k` ([`TmaCopy::grid`]); the paper's point that the TMA consumes
//!    coordinates, not addresses.
//! 5. The swizzle is read off the shared-memory layout's `Sw<B,M,S>` (on element offsets, as
//!    [`crate::atom::gmma_smem_atom`] writes it): on byte addresses it must be `Sw<B,4,3>`, the
//!    modes none, 32B, 64B and 128B for `B` = 0..3; then every element of the tile is checked to
//!    sit where TMA writes it (the packed box, swizzled).
//!
//! Every request TMA cannot serve in one instruction is refused with the operands and the
//! violated condition: a non-contiguous innermost box dimension, strides that are not positive
//! multiples of 16 bytes, a box over 256, a rank over 5, a swizzle TMA does not have, a
//! shared-memory layout that is not the box in TMA's order.
//!
//! ```
//! use cute_cuda::atom::{gmma_smem_atom, DType, GmmaSwizzle, Major};
//! use cute_cuda::tma::{make_tma_copy, TmaSwizzle};
//! // a 300 x 1000 bf16 matrix, K (the second mode) contiguous; tiles of 64 x 64
//! let global = "(300,1000):(1000,1)".parse().unwrap();
//! let atom = gmma_smem_atom(Major::K, GmmaSwizzle::B128, 16).unwrap(); // Sw<3,3,3> o (8,64):(64,1)
//! let smem = cute::ComposedLayout::new(atom.swizzle, 0, "(64,64):(64,1)".parse().unwrap());
//! let tma = make_tma_copy(&global, &[64, 64], &smem, DType::Bf16).unwrap();
//! assert_eq!(tma.global_dims(), vec![1000, 300]); // K first: TMA's dimension 0 is contiguous
//! assert_eq!(tma.global_strides_bytes(), vec![2000]);
//! assert_eq!(tma.box_dims(), vec![64, 64]);
//! assert_eq!(tma.swizzle, TmaSwizzle::B128);
//! // 5 x 16 tiles; tile (m, k) starts at TMA coordinates (64 k, 64 m)
//! assert_eq!(tma.grid.to_string(), "(5,16):(64@1,64@0)");
//! assert_eq!(tma.coord(7).unwrap(), vec![64, 128]);
//! ```

pub mod emit;
pub mod run;

use cute::{coalesce, composition, make_identity_layout, right_inverse, ComposedLayout};
use cute::{IntTuple, Layout, Semimodule, Stride};

use crate::atom::DType;
use crate::error::GpuError;

const OP: &str = "tma copy";

/// The largest box extent of one TMA dimension.
pub const MAX_BOX: i64 = 256;
/// The largest rank of a TMA tensor.
pub const MAX_RANK: usize = 5;

/// The shared-memory swizzle modes of TMA (`CUtensorMapSwizzle`): `Sw<B,4,3>` on byte addresses
/// for `B` = 0 (none), 1, 2, 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaSwizzle {
    /// No swizzle.
    None,
    /// 32-byte swizzle, `Sw<1,4,3>` on bytes.
    B32,
    /// 64-byte swizzle, `Sw<2,4,3>` on bytes.
    B64,
    /// 128-byte swizzle, `Sw<3,4,3>` on bytes.
    B128,
}

impl TmaSwizzle {
    /// The XOR bits `B` of `Sw<B,4,3>` on byte addresses.
    pub const fn bits(self) -> i64 {
        match self {
            TmaSwizzle::None => 0,
            TmaSwizzle::B32 => 1,
            TmaSwizzle::B64 => 2,
            TmaSwizzle::B128 => 3,
        }
    }

    /// The span in bytes that the innermost box dimension may not exceed (the 16-byte unit
    /// times `2^B`); 0 for no swizzle (no limit but the box's).
    pub const fn span_bytes(self) -> i64 {
        match self {
            TmaSwizzle::None => 0,
            s => 16 << s.bits(),
        }
    }

    /// The value of `CUtensorMapSwizzle` (`CU_TENSOR_MAP_SWIZZLE_NONE` = 0 … `_128B` = 3).
    pub const fn driver_code(self) -> u32 {
        self.bits() as u32
    }

    /// `Sw<B,4,3>` on byte addresses (the identity for [`TmaSwizzle::None`]).
    ///
    /// ```
    /// use cute_cuda::tma::TmaSwizzle;
    /// assert_eq!(TmaSwizzle::B128.byte_swizzle().apply(0x80), 0x90);
    /// assert_eq!(TmaSwizzle::None.byte_swizzle().apply(0x80), 0x80);
    /// ```
    pub fn byte_swizzle(self) -> cute::Swizzle {
        // B <= 3, M = 4, S = 3 is always a valid swizzle
        cute::Swizzle::new(self.bits(), 4, 3).unwrap_or_else(|_| unreachable_swizzle())
    }

    /// The shared-memory alignment in bytes the pattern needs to be the same on every tile: the
    /// period of the swizzle (`2^(B+M+S)`), at least TMA's 128 bytes.
    pub const fn smem_align(self) -> i64 {
        match self {
            TmaSwizzle::None => 128,
            s => 1 << (s.bits() + 7),
        }
    }
}

#[cold]
fn unreachable_swizzle() -> cute::Swizzle {
    // Sw<0,4,3> is the identity and always constructible
    cute::Swizzle::new(0, 4, 3).unwrap_or_else(|_| panic!("the identity swizzle"))
}

/// One dimension of a TMA tensor: its extent in the global tensor, its stride, its box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TmaDim {
    /// `globalDim[k]`: the extent of the dimension in the global tensor, in elements.
    pub global_dim: i64,
    /// The stride in elements (1 for dimension 0).
    pub global_stride: i64,
    /// `boxDim[k]`: the extent of the box.
    pub box_dim: i64,
}

/// A TMA copy derived from layouts: the descriptor's parameters and the coordinates of each tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmaCopy {
    /// The element type.
    pub dtype: DType,
    /// The global tensor's layout (elements).
    pub global: Layout,
    /// The tile: its extent along each top mode of `global`.
    pub tile: Vec<i64>,
    /// The tile's shared-memory layout (element offsets, domain: the tile colexicographically).
    pub smem: ComposedLayout,
    /// The dimensions, dimension 0 the contiguous one.
    pub dims: Vec<TmaDim>,
    /// The swizzle mode.
    pub swizzle: TmaSwizzle,
    /// Tile index ↦ the TMA coordinates of the tile's first element: a layout with coordinate
    /// strides `v@k` (`v·e_k`), one leaf per leaf of the grid of tiles, colexicographic over the
    /// top modes of `global` (tile index `i` is `blockIdx.x` in [`emit::tma_copy_kernel`]).
    pub grid: Layout,
}

fn err(what: String) -> GpuError {
    GpuError::unsupported(OP, what)
}

/// A leaf of the global layout with its part of the tile.
#[derive(Clone, Copy, Debug)]
struct Leaf {
    extent: i64,
    stride: i64,
    tile: i64,
    mode: usize,
}

/// Splits `tile[i]` over the leaves of top mode `i` of `global` (size-1 leaves left out unless
/// the box lies on them).
fn split_tile(global: &Layout, tile: &[i64]) -> Result<Vec<Leaf>, GpuError> {
    let mut leaves = Vec::new();
    for (i, &t) in tile.iter().enumerate() {
        let m = global.mode(i)?;
        let ls: Vec<(i64, i64)> = (0..m.leaf_count())
            .map(|k| m.leaf_at(k))
            .filter(|&(s, _)| s > 1)
            .collect();
        if ls.is_empty() {
            if t > 1 {
                leaves.push(Leaf {
                    extent: 1,
                    stride: m.leaf_at(0).1,
                    tile: t,
                    mode: i,
                });
            }
            continue;
        }
        let mut rem = t;
        for (k, &(s, d)) in ls.iter().enumerate() {
            let last = k + 1 == ls.len();
            let b = if last || rem == 1 {
                rem
            } else if rem >= s && rem % s == 0 {
                s
            } else if rem < s && s % rem == 0 {
                rem
            } else {
                return Err(err(format!(
                    "the tile extent {t} of mode {i} of {global} does not fit its leaf {s}:{d}: \
                     below the mode's last leaf a tile must cover whole leaves or divide one, \
                     else tiles would straddle two leaves"
                )));
            };
            rem /= b;
            leaves.push(Leaf {
                extent: s,
                stride: d,
                tile: b,
                mode: i,
            });
        }
    }
    Ok(leaves)
}

/// A dimension while being derived: the global leaf, its box, and the coordinate coefficients
/// of each grid leaf.
#[derive(Clone, Debug)]
struct Dim {
    d: TmaDim,
    coef: Vec<i64>,
}

/// Derives the TMA copy of the tile `tile` (its extent along each top mode of `global`) from the
/// global tensor `global` (integer strides, in elements; hierarchical modes allowed) into the
/// shared-memory layout `smem` (element offsets over the tile, colexicographic; a swizzled
/// canonical atom tiled over the tile, or an unswizzled layout with the identity swizzle), for
/// elements of `dtype`. CuTe's `make_tma_copy(SM90_TMA_LOAD, gtensor, slayout, cta_tiler)` with
/// one CTA; the same descriptor serves TMA stores (`SM90_TMA_STORE`).
///
/// Partial tiles at the ends of a mode are allowed: TMA fills what lies outside the tensor with
/// zeros when it loads and skips it when it stores.
///
/// # Errors
///
/// [`GpuError::Unsupported`] (operation `tma copy`) naming the operands and the violated
/// condition when: `global` has non-integer strides; `tile` does not have one extent per top mode,
/// an extent is below 1, or a tile would straddle two leaves of a hierarchical mode; `smem` does not have the
/// tile's size, has an offset, or is not a bijection onto `0..size`; a shared-memory mode covers
/// a global leaf only in part (one box cannot write the tile); the innermost box dimension is not
/// contiguous in global memory; a global stride is not a positive multiple of 16 bytes (or reaches
/// 2^40 bytes); a box extent is over 256; the rank is over 5; a global extent exceeds the 32-bit
/// coordinates; the swizzle is not `Sw<B,4,3>` on bytes; the innermost box is not a multiple of
/// 16 bytes or exceeds the swizzle's span; or some element of the tile is not where
/// TMA writes it.
///
/// ```
/// use cute_cuda::{atom::DType, tma::make_tma_copy};
/// // a column-major 128 x 96 f32 matrix with leading dimension 132, tiles of 32 x 8, unswizzled
/// let global = "(128,96):(1,132)".parse().unwrap();
/// let smem = cute::ComposedLayout::new(cute::Swizzle::new(0, 4, 3).unwrap(), 0,
///     "(32,8):(1,32)".parse().unwrap());
/// let tma = make_tma_copy(&global, &[32, 8], &smem, DType::F32).unwrap();
/// assert_eq!(tma.global_strides_bytes(), vec![528]);
/// // a leading dimension of 130 floats is 520 bytes: not a multiple of 16
/// let bad = "(128,96):(1,130)".parse().unwrap();
/// assert!(make_tma_copy(&bad, &[32, 8], &smem, DType::F32).is_err());
/// ```
pub fn make_tma_copy(
    global: &Layout,
    tile: &[i64],
    smem: &ComposedLayout,
    dtype: DType,
) -> Result<TmaCopy, GpuError> {
    if !global.is_integral() {
        return Err(err(format!(
            "the global layout {global} must have integer strides (elements)"
        )));
    }
    if tile.len() != global.rank() || tile.iter().any(|&t| t < 1) {
        return Err(err(format!(
            "the tile {tile:?} must give an extent >= 1 for each of the {} top modes of {global}",
            global.rank()
        )));
    }
    let n: i64 = tile.iter().product();
    if smem.layout.size() != n {
        return Err(err(format!(
            "the shared-memory layout {smem} has {} elements, the tile {tile:?} {n}",
            smem.layout.size()
        )));
    }
    if smem.offset != 0 {
        return Err(err(format!(
            "the shared-memory layout {smem} has the offset {}; TMA writes from the tile's start",
            smem.offset
        )));
    }
    let swizzle = swizzle_mode(smem, dtype)?;
    let leaves = split_tile(global, tile)?;
    // the tile's leaves: the domain of the shared-memory layout
    let tiled: Vec<usize> = (0..leaves.len()).filter(|&j| leaves[j].tile > 1).collect();
    if tiled.is_empty() {
        return Err(err(format!(
            "the tile {tile:?} of {global} is one element; TMA's innermost box must span a \
             multiple of 16 bytes"
        )));
    }
    let tile_shape = IntTuple::flat(&tiled.iter().map(|&j| leaves[j].tile).collect::<Vec<_>>())?;
    let order = smem_order(&tile_shape, smem, &tiled, &leaves)?;
    // the grid of tiles: leaves of extent > 1, colexicographic over the modes
    let grid_leaves: Vec<(usize, i64)> = leaves
        .iter()
        .enumerate()
        .map(|(j, l)| (j, crate::codegen::ceil_div(l.extent, l.tile)))
        .filter(|&(_, g)| g > 1)
        .collect();
    let coef_of = |j: usize| -> Vec<i64> {
        grid_leaves
            .iter()
            .map(|&(l, _)| if l == j { leaves[j].tile } else { 0 })
            .collect()
    };
    let mut dims: Vec<Dim> = order
        .iter()
        .map(|&j| Dim {
            d: TmaDim {
                global_dim: leaves[j].extent,
                global_stride: leaves[j].stride,
                box_dim: leaves[j].tile,
            },
            coef: coef_of(j),
        })
        .collect();
    if dims[0].d.global_stride != 1 {
        let l = leaves[order[0]];
        return Err(err(format!(
            "the innermost box dimension (the fastest mode of the shared-memory layout {smem}, \
             leaf {}:{} of mode {} of {global}) is not contiguous in global memory: TMA's \
             dimension 0 must have stride 1",
            l.extent, l.stride, l.mode
        )));
    }
    for (j, l) in leaves.iter().enumerate() {
        if l.tile == 1 && l.stride != 0 {
            dims.push(Dim {
                d: TmaDim {
                    global_dim: l.extent,
                    global_stride: l.stride,
                    box_dim: 1,
                },
                coef: coef_of(j),
            });
        }
    }
    let dims = merge(dims);
    let tma_dims: Vec<TmaDim> = dims.iter().map(|d| d.d).collect();
    check_dims(global, tile, &tma_dims, dtype, swizzle)?;
    let grid_shape: Vec<i64> = grid_leaves.iter().map(|&(_, g)| g).collect();
    let mut strides = Vec::with_capacity(grid_shape.len());
    for l in 0..grid_leaves.len() {
        let mut s = Stride::ZERO;
        for (k, d) in dims.iter().enumerate() {
            if d.coef[l] != 0 {
                s = Stride::basis(d.coef[l], &[k])?;
            }
        }
        strides.push(s);
    }
    let grid = if grid_shape.is_empty() {
        Layout::leaf(1, 0)?
    } else {
        Layout::from_strides(&IntTuple::flat(&grid_shape)?, &strides)?
    };
    let copy = TmaCopy {
        dtype,
        global: *global,
        tile: tile.to_vec(),
        smem: *smem,
        dims: tma_dims,
        swizzle,
        grid,
    };
    copy.check_smem(&tiled, &leaves, &order)?;
    Ok(copy)
}

/// The TMA swizzle mode of `smem`'s swizzle (on element offsets of `dtype`).
fn swizzle_mode(smem: &ComposedLayout, dtype: DType) -> Result<TmaSwizzle, GpuError> {
    let sw = smem.swizzle;
    if sw.is_identity() {
        return Ok(TmaSwizzle::None);
    }
    let log_bytes = dtype.bytes().trailing_zeros() as i64;
    let (b, m, s) = (sw.bits(), sw.base() + log_bytes, sw.shift());
    match (b, m, s) {
        (1, 4, 3) => Ok(TmaSwizzle::B32),
        (2, 4, 3) => Ok(TmaSwizzle::B64),
        (3, 4, 3) => Ok(TmaSwizzle::B128),
        _ => Err(err(format!(
            "the swizzle {sw} of the shared-memory layout {smem} is Sw<{b},{m},{s}> on the byte \
             addresses of {dtype}; TMA swizzles only as Sw<1,4,3>, Sw<2,4,3> or Sw<3,4,3> (32, 64, \
             128 bytes)"
        ))),
    }
}

/// The tile leaves in the order the shared-memory layout stores them: `coalesce(identity ∘
/// right_inverse(smem))`, each mode a whole tile leaf with unit coefficient.
fn smem_order(
    tile_shape: &IntTuple,
    smem: &ComposedLayout,
    tiled: &[usize],
    leaves: &[Leaf],
) -> Result<Vec<usize>, GpuError> {
    let n = smem.layout.size();
    let inv = right_inverse(&smem.layout)?;
    if inv.size() != n {
        return Err(err(format!(
            "the shared-memory layout {smem} is not a bijection onto 0..{n} (its right inverse \
             {inv} covers 0..{})",
            inv.size()
        )));
    }
    let id = make_identity_layout(tile_shape)?;
    let s2c = coalesce(&composition(&id, &inv)?);
    let mut order = Vec::new();
    for k in 0..s2c.leaf_count() {
        let (ext, _) = s2c.leaf_at(k);
        if ext == 1 {
            continue;
        }
        let st = s2c.stride_at(k);
        let (path, depth) = st.path();
        let ok = st.semimodule() == Some(Semimodule::Coordinate) && depth == 1 && st.value() == 1;
        let j = path[0];
        if !ok || j >= tiled.len() || ext != leaves[tiled[j]].tile || order.contains(&tiled[j]) {
            return Err(err(format!(
                "the shared-memory layout {smem} visits the tile {tile_shape} as {s2c} (shared \
                 offset ↦ tile coordinate): its mode {ext}:{st} is not one whole tile leaf, so \
                 one TMA box cannot write the tile"
            )));
        }
        order.push(tiled[j]);
    }
    Ok(order)
}

/// Merges neighbouring dimensions that address contiguous memory: `k` and `k+1` when
/// `stride_{k+1} = stride_k · dim_k` and either the box covers all of `k` (the merged box stays
/// within 256) or both boxes are 1. The coordinates follow: `c = c_k + dim_k · c_{k+1}`.
fn merge(dims: Vec<Dim>) -> Vec<Dim> {
    let mut out: Vec<Dim> = Vec::with_capacity(dims.len());
    for d in dims {
        if let Some(p) = out.last_mut() {
            let contiguous =
                p.d.global_stride.checked_mul(p.d.global_dim) == Some(d.d.global_stride);
            let full = p.d.box_dim == p.d.global_dim && p.d.box_dim * d.d.box_dim <= MAX_BOX;
            let ones = p.d.box_dim == 1 && d.d.box_dim == 1;
            let fits =
                p.d.global_dim
                    .checked_mul(d.d.global_dim)
                    .is_some_and(|x| x <= i32::MAX as i64);
            if contiguous && (full || ones) && fits {
                for (c, e) in p.coef.iter_mut().zip(&d.coef) {
                    *c += p.d.global_dim * e;
                }
                p.d.box_dim *= d.d.box_dim;
                p.d.global_dim *= d.d.global_dim;
                continue;
            }
        }
        out.push(d);
    }
    out
}

fn check_dims(
    global: &Layout,
    tile: &[i64],
    dims: &[TmaDim],
    dtype: DType,
    swizzle: TmaSwizzle,
) -> Result<(), GpuError> {
    let e = dtype.bytes();
    let what = || format!("{global} tiled by {tile:?}");
    if dims.len() > MAX_RANK {
        return Err(err(format!(
            "{} needs {} TMA dimensions (extents {:?}); TMA has at most {MAX_RANK}",
            what(),
            dims.len(),
            dims.iter().map(|d| d.global_dim).collect::<Vec<_>>()
        )));
    }
    for (k, d) in dims.iter().enumerate() {
        if d.box_dim > MAX_BOX {
            return Err(err(format!(
                "{}: box dimension {k} has extent {} over TMA's {MAX_BOX}",
                what(),
                d.box_dim
            )));
        }
        if d.global_dim > i32::MAX as i64 {
            return Err(err(format!(
                "{}: dimension {k} has extent {}, past TMA's 32-bit signed coordinates",
                what(),
                d.global_dim
            )));
        }
        if k > 0 {
            let bytes = d.global_stride.checked_mul(e).unwrap_or(i64::MAX);
            if d.global_stride <= 0 || bytes % 16 != 0 || bytes >= 1 << 40 {
                return Err(err(format!(
                    "{}: dimension {k} (extent {}) has the stride {} elements = {bytes} bytes of \
                     {dtype}; TMA's strides must be positive multiples of 16 bytes below 2^40",
                    what(),
                    d.global_dim,
                    d.global_stride
                )));
            }
        }
    }
    let inner = dims[0].box_dim * e;
    if inner % 16 != 0 {
        return Err(err(format!(
            "{}: the innermost box dimension spans {inner} bytes of {dtype}; TMA (interleave \
             none) needs a multiple of 16 bytes",
            what()
        )));
    }
    if swizzle != TmaSwizzle::None && inner > swizzle.span_bytes() {
        return Err(err(format!(
            "{}: the innermost box dimension spans {inner} bytes of {dtype}, over the {} bytes \
             of the swizzle {swizzle:?}",
            what(),
            swizzle.span_bytes()
        )));
    }
    Ok(())
}

impl TmaCopy {
    /// The rank of the TMA tensor (`tensorRank`).
    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// `globalDim`, dimension 0 first.
    pub fn global_dims(&self) -> Vec<u64> {
        self.dims.iter().map(|d| d.global_dim as u64).collect()
    }

    /// `globalStrides`: the strides in bytes of dimensions 1.. (dimension 0 is contiguous).
    pub fn global_strides_bytes(&self) -> Vec<u64> {
        self.dims[1..]
            .iter()
            .map(|d| (d.global_stride * self.dtype.bytes()) as u64)
            .collect()
    }

    /// `boxDim`.
    pub fn box_dims(&self) -> Vec<u32> {
        self.dims.iter().map(|d| d.box_dim as u32).collect()
    }

    /// `elementStrides`: 1 in every dimension (the box is dense).
    pub fn element_strides(&self) -> Vec<u32> {
        vec![1; self.dims.len()]
    }

    /// Elements in the box (= in the tile).
    pub fn box_elems(&self) -> i64 {
        self.dims.iter().map(|d| d.box_dim).product()
    }

    /// Bytes that one load delivers (the mbarrier's transaction count): the whole box, also for
    /// a partial tile (TMA fills what lies outside the tensor).
    pub fn box_bytes(&self) -> i64 {
        self.box_elems() * self.dtype.bytes()
    }

    /// Tiles in the grid.
    pub fn tiles(&self) -> i64 {
        self.grid.size()
    }

    /// The TMA coordinates of tile `t` (`grid(t)`), dimension 0 first.
    ///
    /// # Errors
    ///
    /// `t` outside `0..tiles()`.
    pub fn coord(&self, t: i64) -> Result<Vec<i64>, GpuError> {
        if t < 0 || t >= self.tiles() {
            return Err(GpuError::invalid(
                OP,
                format!("tile {t} outside the grid {} of {}", self.grid, self.global),
            ));
        }
        let v = self.grid.eval_value(t)?;
        Ok((0..self.rank())
            .map(|k| match &v {
                cute::Value::Coord(a) => a.get(&[k]),
                _ => 0,
            })
            .collect())
    }

    /// What one TMA load of tile `t` puts in shared memory, as TMA defines it from the
    /// descriptor: entry `s` is the global element offset that lands at shared element offset `s`,
    /// or `None` where TMA fills a zero (outside the tensor). A model of the hardware for the
    /// host checks.
    ///
    /// # Errors
    ///
    /// `t` outside the grid.
    pub fn simulate_load(&self, t: i64) -> Result<Vec<Option<i64>>, GpuError> {
        let c = self.coord(t)?;
        let n = self.box_elems();
        let e = self.dtype.bytes();
        let sw = self.swizzle.byte_swizzle();
        let mut out = vec![None; n as usize];
        for p in 0..n {
            let (mut rest, mut off, mut inside) = (p, 0i64, true);
            for (k, d) in self.dims.iter().enumerate() {
                let x = c[k] + rest % d.box_dim;
                rest /= d.box_dim;
                inside &= x < d.global_dim;
                off += x * d.global_stride;
            }
            let s = sw.apply(p * e) / e;
            out[s as usize] = if inside { Some(off) } else { None };
        }
        Ok(out)
    }

    /// Checks that every element of the tile sits where TMA writes it: tile element `i` (the
    /// tile's leaves colexicographic) is at packed box position `p` (the box dimensions in
    /// shared-memory order), which TMA stores at byte `Sw(p · bytes)`; `smem(i) · bytes` must be
    /// that byte.
    fn check_smem(
        &self,
        tiled: &[usize],
        leaves: &[Leaf],
        order: &[usize],
    ) -> Result<(), GpuError> {
        let e = self.dtype.bytes();
        let sw = self.swizzle.byte_swizzle();
        // the packed stride of each tile leaf
        let mut packed = vec![0i64; leaves.len()];
        let mut p = 1;
        for &j in order {
            packed[j] = p;
            p *= leaves[j].tile;
        }
        for i in 0..self.smem.layout.size() {
            let (mut rest, mut pos) = (i, 0);
            for &j in tiled {
                pos += (rest % leaves[j].tile) * packed[j];
                rest /= leaves[j].tile;
            }
            let want = sw.apply(pos * e);
            let have = self.smem.eval(i)? * e;
            if want != have {
                return Err(err(format!(
                    "the shared-memory layout {} is not the box {:?} in the order TMA writes it \
                     with swizzle {:?}: tile element {i} is at byte {have}, TMA writes it at byte \
                     {want}",
                    self.smem,
                    self.box_dims(),
                    self.swizzle
                )));
            }
        }
        Ok(())
    }

    /// One line per parameter of `cuTensorMapEncodeTiled`, and the grid.
    pub fn describe(&self) -> String {
        format!(
            "TMA {} {} tile {:?} smem {}: rank {}, globalDim {:?}, globalStrides {:?} B, boxDim \
             {:?}, elementStrides {:?}, swizzle {:?}, interleave none; tile coordinates {}",
            self.dtype,
            self.global,
            self.tile,
            self.smem,
            self.rank(),
            self.global_dims(),
            self.global_strides_bytes(),
            self.box_dims(),
            self.element_strides(),
            self.swizzle,
            self.grid
        )
    }
}
