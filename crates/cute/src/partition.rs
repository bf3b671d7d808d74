//! Partitioning (paper: 通用分区 “general partitioning”): compose with a pattern, then slice by an
//! index.
//!
//! CuTe splits a tile of data among threads (or a tensor among blocks) in two steps: a *composition*
//! that permutes and reshapes the data's coordinates into `(who, what)` modes, decided at compile
//! time, and a *slice* by `who`, decided at run time. Every function here returns the sub-layout and
//! the offset that the slice absorbed; [`Tensor`](crate::Tensor) has the same operations on views.
//!
//! | function | composition | slice |
//! |---|---|---|
//! | [`tv_partition`] | `data ∘ TV`, TV: `(thread, value) → coordinate of the tile` | `(thread, _)` |
//! | [`local_tile`] | `zipped_divide(data, tiler)`: `((tile), (rest))` | `(_, coord)`: the tile at `coord` |
//! | [`local_partition`] | `zipped_divide(data, shape(thr))` | `(coord of thread, _)`: a thread's elements of every tile |
//! | [`make_layout_tv`] | builds `TV` from a thread layout and a value layout (CuTe DSL) | |
//!
//! The paper's Table 4: the Ampere FP64 MMA's C-fragment pattern `((4,8),2):((16,1),8)` applied to
//! a row-major 8×8 tile gives every thread its two values:
//!
//! ```
//! use cute::{tv_partition, Layout};
//! let data: Layout = "(8,8):(8,1)".parse().unwrap();
//! let tv: Layout = "((4,8),2):((16,1),8)".parse().unwrap();
//! // thread 5 = (1,1) in the (4,8) thread grid
//! let (values, offset) = tv_partition(&data, &tv, 5).unwrap();
//! assert_eq!((values.to_string(), offset), ("(2):(1)".to_string(), 10));
//! ```

use crate::algebra::composition::composition;
use crate::algebra::divide::zipped_divide;
use crate::algebra::inverse::right_inverse;
use crate::algebra::product::raked_product;
use crate::error::{Error, ErrorKind, Op, Operand};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::slice::{slice_and_offset, PartialCoord};
use crate::tiler::Tiler;

/// `slice((thread, _), data ∘ tv)`: the values of one thread of the thread-value layout `tv`
/// (`(thread, value) → coordinate of data`), as a layout of the values and the offset of the
/// thread's first value. `tv` must have rank 2 (else a `ProfileMismatch` error) and
/// `0 ≤ thread < size<0>(tv)` (else an `OutOfRange` error); both errors name `tv_partition` and
/// both layouts.
///
/// ```
/// use cute::{tv_partition, Layout, Op};
/// let data: Layout = "(8,8):(8,1)".parse().unwrap();
/// let tv: Layout = "((4,8),2):((16,1),8)".parse().unwrap();
/// let (vals, off) = tv_partition(&data, &tv, 1).unwrap();
/// assert_eq!((vals.to_string(), off), ("(2):(1)".to_string(), 2));
/// let e = tv_partition(&data, &tv, 32).unwrap_err();
/// assert_eq!((e.op(), e.category()), (Op::TvPartition, "OutOfRange"));
/// // thread 31's four values reach coordinate 79 of the 64
/// let tv4: Layout = "((4,8),4):((16,1),8)".parse().unwrap();
/// let e = tv_partition(&data, &tv4, 31).unwrap_err();
/// assert!(e.to_string().ends_with("coordinate 79 is outside the domain Z_64"), "{e}");
/// ```
///
/// # Errors
///
/// `ProfileMismatch` when `tv` does not have rank 2; `NotInDomain` (category `OutOfRange`) when
/// `thread` is not in `0..size<0>(tv)`, or when one of the thread's values maps to a coordinate
/// outside `data`'s domain `Z_size(data)` (integer `tv`); the errors of [`composition`] of
/// `data` with `tv`.
pub fn tv_partition(data: &Layout, tv: &Layout, thread: i64) -> Result<(Layout, i64), Error> {
    if tv.rank() != 2 {
        return Err(Error::new(
            Op::TvPartition,
            ErrorKind::ProfileMismatch {
                what: "a thread-value layout has rank 2, (thread, value)",
                left: tv.rank() as i64,
                right: 2,
            },
        )
        .with(Operand::Layout(*data), Operand::Layout(*tv)));
    }
    let threads = tv.mode(0)?.size();
    if !(0..threads).contains(&thread) {
        return Err(Error::new(
            Op::TvPartition,
            ErrorKind::NotInDomain {
                coord: thread,
                size: threads,
            },
        )
        .with(Operand::Layout(*data), Operand::Layout(*tv)));
    }
    let c = PartialCoord::tuple(&[
        PartialCoord::fixed(&IntTuple::int(thread)),
        PartialCoord::FREE,
    ])?;
    let with = |e: Error| e.or_with(Operand::Layout(*data), Operand::Layout(*tv));
    if tv.is_integral() {
        // the thread's coordinates of `data` lie in its domain (`data ∘ tv` would otherwise
        // extend `data` past its last coordinate: offsets of no element)
        let (vals, first) = slice_and_offset(tv, &c).map_err(with)?;
        let (mut lo, mut hi) = (first, first);
        for k in 0..vals.leaf_count() {
            let (s, d) = vals.leaf_at(k);
            let reach = crate::error::mul(Op::TvPartition, s - 1, d).map_err(with)?;
            let end = if reach < 0 { &mut lo } else { &mut hi };
            *end = crate::error::add(Op::TvPartition, *end, reach).map_err(with)?;
        }
        let size = data.size();
        if lo < 0 || hi >= size {
            let coord = if lo < 0 { lo } else { hi };
            return Err(with(Error::new(
                Op::TvPartition,
                ErrorKind::NotInDomain { coord, size },
            )));
        }
    }
    let r = composition(data, tv)?;
    slice_and_offset(&r, &c).map_err(with)
}

/// CuTe DSL's `make_layout_tv(thr, val)`: the tile shape `(M, N)` and the thread-value layout of
/// the tile in which thread `t` (at `thr`'s coordinate of index `t`) owns a `val`-shaped block of
/// values, the blocks of all threads raked together: `layout_mn = raked_product(thr, val)`,
/// `tv = right_inverse(layout_mn) ∘ (size(thr), size(val)):(1, size(thr))`, `tiler = product_each(
/// shape(layout_mn))`. The defining law: `layout_mn(tv(t, v)) = t + size(thr)·v`.
///
/// ```
/// use cute::{make_layout_tv, raked_product, Layout};
/// let thr: Layout = "(2,2):(1,2)".parse().unwrap(); // 4 threads
/// let val: Layout = "(2,1):(1,0)".parse().unwrap(); // 2 values each
/// let (tiler, tv) = make_layout_tv(&thr, &val).unwrap();
/// assert_eq!((tiler.to_string(), tv.to_string()), ("(4,2)".to_string(), "(4,2):(2,1)".to_string()));
/// let mn = raked_product(&thr, &val).unwrap();
/// for i in 0..8 {
///     assert_eq!(mn.eval(tv.eval(i).unwrap()).unwrap(), i); // layout_mn(tv(t, v)) = t + 4·v
/// }
/// ```
///
/// # Errors
///
/// The errors of [`raked_product`] and
/// [`right_inverse`]; `ProfileMismatch` when `raked_product(thr, val)` is not
/// a bijection onto its size (its right inverse is smaller); the errors of the final composition.
pub fn make_layout_tv(thr: &Layout, val: &Layout) -> Result<(IntTuple, Layout), Error> {
    let with = |e: Error| e.or_with(Operand::Layout(*thr), Operand::Layout(*val));
    let mn = raked_product(thr, val).map_err(with)?;
    let (nt, nv) = (thr.size(), val.size());
    let tmp = Layout::flat(&[nt, nv], &[1, nt])?;
    let inv = right_inverse(&mn).map_err(with)?;
    if inv.size() != mn.size() {
        return Err(Error::new(
            Op::MakeLayoutTv,
            ErrorKind::ProfileMismatch {
                what: "raked_product(thr, val) must be a bijection onto its size to be inverted; its right inverse covers",
                left: inv.size(),
                right: mn.size(),
            },
        )
        .with(Operand::Layout(*thr), Operand::Layout(*val)));
    }
    let tv = composition(&inv, &tmp).map_err(with)?;
    Ok((mn.shape().product_each()?, tv))
}

/// CuTe's `get_flat_coord(index)` of a thread layout: the coordinate of each top-level mode of
/// `thr` for `index`, found through the strides (`c_leaf = (index / stride) mod shape`, a leaf of
/// stride 0 at 0), each mode's leaves folded into one integer coordinate (colexicographically).
/// For a compact `thr` this is the coordinate at which `thr` takes the value `index`.
///
/// ```
/// use cute::{thread_coord, Layout};
/// let thr: Layout = "(4,8):(8,1)".parse().unwrap(); // 32 threads, row-major
/// assert_eq!(thread_coord(&thr, 9).unwrap().to_string(), "(1,1)");
/// assert_eq!(thread_coord(&thr, 10).unwrap().to_string(), "(1,2)");
/// // the one quotient that does not fit in an i64 is an error, not a panic
/// assert!(thread_coord(&"2:-1".parse().unwrap(), i64::MIN).is_err());
/// ```
///
/// # Errors
///
/// `Unsupported` (`NeedsIntegerStrides`) when `thr` does not have integer strides.
pub fn thread_coord(thr: &Layout, index: i64) -> Result<IntTuple, Error> {
    thr.require_integral(Op::LocalPartition)?;
    // every product below divides the size, which fits in an i64 (the invariant of `Layout`)
    let mut modes = Vec::with_capacity(thr.rank());
    for k in 0..thr.rank() {
        let m = if thr.is_leaf() { *thr } else { thr.mode(k)? };
        let (mut c, mut scale) = (0i64, 1i64);
        for j in 0..m.leaf_count() {
            let (s, d) = m.leaf_at(j);
            // `index / d` overflows only for `i64::MIN / -1`
            let x = match index.checked_div_euclid(d) {
                _ if d == 0 => 0,
                Some(q) => q.rem_euclid(s),
                None => {
                    return Err(Error::new(
                        Op::LocalPartition,
                        ErrorKind::Overflow {
                            what: "the thread index divided by a stride",
                        },
                    )
                    .with(Operand::Layout(*thr), Operand::None))
                }
            };
            c += x * scale;
            scale *= s;
        }
        modes.push(IntTuple::int(c));
    }
    if modes.len() == 1 {
        return Ok(modes[0]);
    }
    IntTuple::tuple(&modes)
}

/// `local_tile(data, tiler, coord)` (CuTe's `inner_partition`): the tile of `zipped_divide(data,
/// tiler)` at tile coordinate `coord` (a coordinate of the rest mode; a tuple shorter than that
/// mode's rank leaves the trailing modes free), as its layout and the offset of its first element.
///
/// ```
/// use cute::{local_tile, Layout, PartialCoord, Tiler};
/// let data: Layout = "(8,16):(20,1)".parse().unwrap();
/// let tiler: Tiler = "<4:1,8:2>".parse().unwrap();
/// let (tile, off) = local_tile(&data, &tiler, &"(1,0)".parse::<PartialCoord>().unwrap()).unwrap();
/// assert_eq!((tile.to_string(), off), ("(4,8):(20,2)".to_string(), 80));
/// ```
///
/// # Errors
///
/// The errors of [`zipped_divide`] of `data` by `tiler`, and of slicing at
/// `coord` (an entry outside its mode, `OutOfRange`; a tuple against a mode of another rank,
/// `ProfileMismatch`).
pub fn local_tile(
    data: &Layout,
    tiler: &Tiler,
    coord: &PartialCoord,
) -> Result<(Layout, i64), Error> {
    let z = zipped_divide(data, tiler)?;
    let (tile, rest) = (z.mode(0)?, z.mode(1)?);
    let c = PartialCoord::tuple(&[free_for(&tile), pad_free(coord, &rest)?])?;
    slice_and_offset(&z, &c).map_err(|e| e.or_with(Operand::Layout(*data), Operand::Coord(*coord)))
}

/// `local_partition(data, thr, index)` (CuTe's `outer_partition` with the thread's coordinate):
/// `zipped_divide(data, product_each(shape(thr)))`, sliced at the tile mode by
/// [`thread_coord`]`(thr, index)`: the elements that thread `index` owns in every tile, one mode
/// per mode of the rest.
///
/// ```
/// use cute::{local_partition, Layout};
/// let data: Layout = "(8,8):(8,1)".parse().unwrap();
/// let thr: Layout = "(2,2):(1,2)".parse().unwrap(); // 2x2 threads
/// let (mine, off) = local_partition(&data, &thr, 3).unwrap(); // (1,1) of every 2x2 tile
/// assert_eq!((mine.to_string(), off), ("(4,4):(16,2)".to_string(), 9));
/// assert_eq!(local_partition(&data, &thr, 4).unwrap_err().to_string(), "local_partition (8,8):(8,1), (2,2):(1,2): coordinate 4 is outside the domain Z_4");
/// ```
///
/// # Errors
///
/// `NotInDomain` (category `OutOfRange`) when `index` is not in `0..size(thr)`; the errors of
/// [`zipped_divide`] of `data` by the shape of `thr`, and of
/// [`thread_coord`].
pub fn local_partition(data: &Layout, thr: &Layout, index: i64) -> Result<(Layout, i64), Error> {
    let n = thr.size();
    if !(0..n).contains(&index) {
        return Err(Error::new(
            Op::LocalPartition,
            ErrorKind::NotInDomain {
                coord: index,
                size: n,
            },
        )
        .with(Operand::Layout(*data), Operand::Layout(*thr)));
    }
    let shape = thr.shape().product_each()?;
    let tiler = Tiler::from_shape(&shape)?;
    let z = zipped_divide(data, &tiler)?;
    let crd = thread_coord(thr, index)?;
    let rest = z.mode(1)?;
    let c = PartialCoord::tuple(&[PartialCoord::fixed(&crd), free_for(&rest)])?;
    slice_and_offset(&z, &c).map_err(|e| e.or_with(Operand::Layout(*data), Operand::Layout(*thr)))
}

/// `_` for every top-level mode of `l` (so that slicing keeps the modes separate).
fn free_for(l: &Layout) -> PartialCoord {
    if l.is_leaf() || l.rank() == 1 {
        return PartialCoord::FREE;
    }
    PartialCoord::tuple(&vec![PartialCoord::FREE; l.rank()]).unwrap_or(PartialCoord::FREE)
}

/// `coord`, padded with `_` up to the rank of `l` when it is a shorter tuple (an integer or `_`
/// indexes the whole mode).
fn pad_free(coord: &PartialCoord, l: &Layout) -> Result<PartialCoord, Error> {
    let r = if l.is_leaf() { 1 } else { l.rank() };
    if coord.is_leaf() || coord.rank() >= r {
        return Ok(*coord);
    }
    let mut modes: Vec<PartialCoord> = (0..coord.rank())
        .map(|k| coord.get(k))
        .collect::<Result<_, _>>()?;
    modes.resize(r, PartialCoord::FREE);
    PartialCoord::tuple(&modes)
}
