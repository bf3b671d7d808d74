//! The geometry of layouts' domains and images that the algorithms share: the common refinement
//! of several flat layouts of one size, the mixed-radix injectivity criterion, and a mixed-radix
//! walker over a loop nest.
//!
//! * **Common refinement** ([`refine`]). Layouts of the same size `N` are functions on `Z_N`; each
//!   flat layout cuts `Z_N` into its leaves (colexicographically: leaf 0 fastest). Splitting every
//!   leaf where another layout's leaf ends (a leaf `s:d` split after `e | s` points becomes
//!   `(e, s/e):(d, e·d)`) gives modes that are leaves of all of them at once: *joint modes*, each
//!   with one stride per layout. Composing each layout with the same layout of the domain does
//!   not change it, so a loop nest over the joint modes visits every index once and evaluates every
//!   layout by additions. When a boundary of one layout does not fall on a divisor of the other's
//!   current leaf (`(2,3)` against `(3,2)`), there is no common refinement past that point; the
//!   refinement stops there and says where ([`Refinement::rest`]). COPY (`copy_modes`), static
//!   COPY and the GEMM planner of `cute-gemm` are built on it.
//! * **Mixed-radix criterion** ([`mixed_radix_injective`]): sorted by `|stride|`, when each stride
//!   exceeds the largest offset distance the smaller modes reach, no two coordinates meet. It is
//!   sufficient, not necessary (`(3,2):(2,3)` is injective and fails it).
//! * **Injectivity** ([`check_injective`]): whether a layout sends two indices of its domain to
//!   one offset, exact for every integral layout: a stride-0 leaf, then the mixed-radix criterion,
//!   then an exact bounded search for two coordinates that meet (`find_collision`, which the
//!   complement uses too); [`check_injective_exhaustive`] sorts the offsets where the search gives
//!   up. The one test of the crate and of the crates built on it (GEMM's output, `static_gemm`,
//!   `cute-gemm`).
//! * **Walker** ([`Odometer`]): the coordinate of a loop nest, mode 0 fastest, with the offsets of
//!   `M` layouts kept up to date by one addition per step (and one subtraction per carry).
//!
//! ```
//! use cute::geometry::{check_injective, mixed_radix_injective, refine, Odometer};
//! use cute::{layout, Op};
//! // (4,6):(1,4) against (6,4):(4,1): the first leaf 4 does not divide the other's 6
//! let r = refine([&[4, 6], &[6, 4]], [&[1, 4], &[4, 1]]);
//! assert!(!r.is_complete() && r.is_empty());
//! // (4,6):(1,4) against (2,12):(12,1): joint modes (2,2,6) with a stride in each
//! let r = refine([&[4, 6], &[2, 12]], [&[1, 4], &[12, 1]]);
//! assert!(r.is_complete());
//! assert_eq!(r.len(), 3);
//! assert_eq!((r.extent(0), r.strides(0)), (2, [1, 12]));
//! assert_eq!((r.extent(1), r.strides(1)), (2, [2, 1]));
//! assert_eq!((r.extent(2), r.strides(2)), (6, [4, 2]));
//! assert_eq!(mixed_radix_injective(&[2, 2], &[1, 2]), Ok(()));
//! assert_eq!(mixed_radix_injective(&[2, 2], &[1, 1]), Err((1, 1)));
//! // (3,2):(2,3) fails the criterion (stride 3 inside the reach 4 of 3:2) and is injective
//! // (offsets 0, 2, 4, 3, 5, 7)
//! assert_eq!(mixed_radix_injective(&[3, 2], &[2, 3]), Err((3, 4)));
//! assert_eq!(check_injective(&layout!("(3,2):(2,3)"), Op::Gemm), Ok(()));
//! let mut w = Odometer::new(&[2, 3], [&[1, 10]]);
//! let mut seen = vec![];
//! loop {
//!     seen.push(w.offsets()[0]);
//!     if !w.step() { break; }
//! }
//! assert_eq!(seen, [0, 1, 10, 11, 20, 21]);
//! ```

use crate::arith::floor_div_wide as floor_div;
use crate::error::{Error, ErrorKind, Op, Operand};
use crate::int_tuple::CAPACITY;
use crate::layout::Layout;

/// The most operands of one [`refine`].
pub const MAX_OPERANDS: usize = 3;

/// The most joint modes of one [`refine`]: each joint mode ends a leaf of at least one operand.
pub const MAX_JOINT: usize = MAX_OPERANDS * CAPACITY;

/// Where a refinement stopped in one operand: the leaf it was in, the extent left of that leaf,
/// and the stride of what is left (the leaf's stride times the extent already taken).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// The index of the leaf (in the operand's list with its size-1 leaves), the list's length
    /// when the operand is used up.
    pub leaf: usize,
    /// The extent of the leaf not yet taken (`1` when the operand is used up).
    pub extent: i64,
    /// The stride of the part not yet taken.
    pub stride: i64,
}

/// The common refinement of `K` flat layouts (see the [module docs](self)): the joint modes, mode
/// 0 fastest, and where it stopped.
#[derive(Clone, Copy, Debug)]
pub struct Refinement<const K: usize> {
    n: usize,
    extent: [i64; MAX_JOINT],
    stride: [[i64; K]; MAX_JOINT],
    rest: [Cursor; K],
}

impl<const K: usize> Refinement<K> {
    /// The number of joint modes.
    ///
    /// ```
    /// use cute::geometry::refine;
    /// // (4,6):(1,4) against (2,12):(12,1): joint modes (2,2,6)
    /// let r = refine([&[4, 6], &[2, 12]], [&[1, 4], &[12, 1]]);
    /// assert_eq!(r.len(), 3);
    /// ```
    pub const fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no joint modes (the layouts have size 1, or the first leaves do not
    /// refine).
    ///
    /// ```
    /// use cute::geometry::refine;
    /// // (4,6) against (6,4): the first leaf 4 does not divide the other's 6
    /// let r = refine([&[4, 6], &[6, 4]], [&[1, 4], &[4, 1]]);
    /// assert!(r.is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The extent of joint mode `k`.
    ///
    /// ```
    /// use cute::geometry::refine;
    /// let r = refine([&[4, 6], &[2, 12]], [&[1, 4], &[12, 1]]);
    /// assert_eq!((r.extent(0), r.extent(1), r.extent(2)), (2, 2, 6));
    /// ```
    pub const fn extent(&self, k: usize) -> i64 {
        self.extent[k]
    }

    /// The strides of joint mode `k`, one per operand.
    ///
    /// ```
    /// use cute::geometry::refine;
    /// let r = refine([&[4, 6], &[2, 12]], [&[1, 4], &[12, 1]]);
    /// assert_eq!((r.strides(0), r.strides(1), r.strides(2)), ([1, 12], [2, 1], [4, 2]));
    /// ```
    pub const fn strides(&self, k: usize) -> [i64; K] {
        self.stride[k]
    }

    /// Where the refinement stopped, per operand.
    ///
    /// ```
    /// use cute::geometry::refine;
    /// let r = refine([&[4, 6], &[6, 4]], [&[1, 4], &[4, 1]]);
    /// let [a, b] = r.rest();
    /// assert_eq!((a.leaf, a.extent, a.stride), (0, 4, 1));
    /// assert_eq!((b.leaf, b.extent, b.stride), (0, 6, 4));
    /// ```
    pub const fn rest(&self) -> [Cursor; K] {
        self.rest
    }

    /// Whether every operand was used up: the joint modes are then a refinement of all of them.
    ///
    /// ```
    /// use cute::geometry::refine;
    /// assert!(refine([&[4, 6], &[2, 12]], [&[1, 4], &[12, 1]]).is_complete());
    /// assert!(!refine([&[2, 3], &[3, 2]], [&[1, 2], &[1, 3]]).is_complete());
    /// ```
    pub const fn is_complete(&self) -> bool {
        let mut k = 0;
        while k < K {
            if self.rest[k].extent != 1 {
                return false;
            }
            k += 1;
        }
        true
    }
}

/// The next leaf of an operand with an extent other than 1, from leaf `i` on: its index, extent and
/// stride, or the end (`len`, 1, 0).
const fn next_leaf(shape: &[i64], stride: &[i64], mut i: usize) -> Cursor {
    while i < shape.len() && shape[i] == 1 {
        i += 1;
    }
    if i < shape.len() {
        Cursor {
            leaf: i,
            extent: shape[i],
            stride: stride[i],
        }
    } else {
        Cursor {
            leaf: shape.len(),
            extent: 1,
            stride: 0,
        }
    }
}

/// The common refinement of the flat layouts `shapes[k]:strides[k]` (leaves of extent 1 take no
/// part), as far as it exists (see the [module docs](self)). Each joint mode's extent is the
/// smallest extent left in the operands' current leaves, which must divide all of them; the
/// refinement stops where it does not, where a stride would overflow, or where one operand is used
/// up before another (layouts of different sizes).
///
/// Panics (at compile time in `const` context) when `K` exceeds [`MAX_OPERANDS`] or a pair of
/// `shapes[k]`, `strides[k]` differ in length.
///
/// ```
/// use cute::geometry::refine;
/// // 8:1 against (2,4):(4,1): joint modes 2 and 4
/// let r = refine([&[8], &[2, 4]], [&[1], &[4, 1]]);
/// assert!(r.is_complete());
/// assert_eq!((r.extent(0), r.strides(0)), (2, [1, 4]));
/// assert_eq!((r.extent(1), r.strides(1)), (4, [2, 1]));
/// ```
pub const fn refine<const K: usize>(shapes: [&[i64]; K], strides: [&[i64]; K]) -> Refinement<K> {
    assert!(K <= MAX_OPERANDS, "refine: at most MAX_OPERANDS operands");
    let mut cur = [Cursor {
        leaf: 0,
        extent: 1,
        stride: 0,
    }; K];
    let mut k = 0;
    while k < K {
        assert!(
            shapes[k].len() == strides[k].len(),
            "refine: shape and stride lists of one operand differ in length"
        );
        cur[k] = next_leaf(shapes[k], strides[k], 0);
        k += 1;
    }
    let mut out = Refinement {
        n: 0,
        extent: [0; MAX_JOINT],
        stride: [[0; K]; MAX_JOINT],
        rest: cur,
    };
    loop {
        // the smallest extent left; every operand used up ends the refinement
        let mut e = i64::MAX;
        let mut live = 0;
        let mut k = 0;
        while k < K {
            if cur[k].extent > 1 {
                live += 1;
                if cur[k].extent < e {
                    e = cur[k].extent;
                }
            }
            k += 1;
        }
        if live == 0 || live < K || out.n == MAX_JOINT {
            // done, or one operand used up before another
            out.rest = cur;
            return out;
        }
        let mut k = 0;
        while k < K {
            if cur[k].extent % e != 0 {
                out.rest = cur;
                return out;
            }
            k += 1;
        }
        // the joint mode, then each operand's leaf shortened by it (or the next leaf)
        let mut next = cur;
        let mut k = 0;
        while k < K {
            out.stride[out.n][k] = cur[k].stride;
            if cur[k].extent == e {
                next[k] = next_leaf(shapes[k], strides[k], cur[k].leaf + 1);
            } else {
                match cur[k].stride.checked_mul(e) {
                    Some(d) => {
                        next[k] = Cursor {
                            leaf: cur[k].leaf,
                            extent: cur[k].extent / e,
                            stride: d,
                        }
                    }
                    None => {
                        out.rest = cur;
                        return out;
                    }
                }
            }
            k += 1;
        }
        out.extent[out.n] = e;
        out.n += 1;
        cur = next;
    }
}

/// The mixed-radix criterion on modes `extent[i]:stride[i]` (see the [module docs](self)):
/// `Ok(())` when, sorted by `|stride|`, each stride exceeds the reach `Σ (e−1)·|d|` of the smaller
/// ones (then the layout is injective); otherwise `Err((stride, reach))` for the first stride that
/// does not (also for a zero stride, and a reach that overflows counts as reached). Modes of extent
/// 1 take no part.
///
/// Panics when the two lists differ in length or have more than [`MAX_JOINT`] modes.
///
/// ```
/// use cute::geometry::mixed_radix_injective;
/// assert_eq!(mixed_radix_injective(&[4, 8], &[8, 1]), Ok(()));
/// // stride 2 does not exceed the reach 3 of the mode 4:1
/// assert_eq!(mixed_radix_injective(&[4, 2], &[1, 2]), Err((2, 3)));
/// ```
///
/// # Errors
///
/// `Err((stride, reach))` for the first stride, in order of `|stride|`, that does not exceed the
/// reach of the smaller ones (not an error of the algebra: the caller builds its own).
pub const fn mixed_radix_injective(extent: &[i64], stride: &[i64]) -> Result<(), (i64, i64)> {
    assert!(extent.len() == stride.len() && extent.len() <= MAX_JOINT);
    let (mut e, mut d) = ([0i64; MAX_JOINT], [0u64; MAX_JOINT]);
    let mut n = 0;
    let mut i = 0;
    while i < extent.len() {
        if extent[i] != 1 {
            // insertion sort by |stride|, stable
            let (ei, di) = (extent[i], stride[i].unsigned_abs());
            let mut j = n;
            while j > 0 && d[j - 1] > di {
                e[j] = e[j - 1];
                d[j] = d[j - 1];
                j -= 1;
            }
            e[j] = ei;
            d[j] = di;
            n += 1;
        }
        i += 1;
    }
    let mut reach: u64 = 0;
    let mut i = 0;
    while i < n {
        if d[i] <= reach || d[i] == 0 {
            return Err((signed(d[i]), signed(reach)));
        }
        reach = match d[i].checked_mul((e[i] - 1) as u64) {
            Some(x) => match x.checked_add(reach) {
                Some(r) => r,
                None => u64::MAX,
            },
            None => u64::MAX,
        };
        i += 1;
    }
    Ok(())
}

/// `x` as an `i64`, saturated.
const fn signed(x: u64) -> i64 {
    if x > i64::MAX as u64 {
        i64::MAX
    } else {
        x as i64
    }
}

/// Whether the integral layout `l` is injective on its domain `Z_|l|`: `Ok(())` when no two
/// indices reach one offset, otherwise an [`ErrorKind::Collision`] of `op` naming two that do
/// (the smaller first) and the layout. Exact for every integral layout, decided cheapest first:
///
/// 1. a leaf of size greater than 1 with stride 0 is a collision: indices 0 and that leaf's weight
///    in the index (the product of the shapes of the leaves before it);
/// 2. the [mixed-radix criterion](mixed_radix_injective) proves most layouts injective at once;
/// 3. otherwise (strides that interleave, such as `(3,2):(2,3)`, or overlap) an exact search for two
///    coordinates that meet, bounded at 2^22 steps: past the bound it fails with `Unsupported`,
///    never with a wrong answer ([`check_injective_exhaustive`] then sorts the offsets instead).
///
/// Negative strides count by their magnitude (`s:-d` reaches the offsets of `s:d` reflected).
///
/// ```
/// use cute::geometry::check_injective;
/// use cute::{layout, ErrorKind, Op};
/// assert_eq!(check_injective(&layout!("(4,8):(8,1)"), Op::Gemm), Ok(()));
/// // interleaved, injective: offsets 0, 2, 4, 3, 5, 7
/// assert_eq!(check_injective(&layout!("(3,2):(2,3)"), Op::Gemm), Ok(()));
/// // a broadcast column: indices 0 and 2 (the weight of leaf 1) both reach offset 0
/// let e = check_injective(&layout!("(2,2):(1,0)"), Op::Gemm).unwrap_err();
/// assert_eq!(*e.kind(), ErrorKind::Collision { first: 0, second: 2 });
/// assert_eq!(
///     e.to_string(),
///     "gemm (2,2):(1,0): the layout is not injective: indices 0 and 2 reach the same offset"
/// );
/// // overlapping strides: coordinates (2,0) and (0,1), indices 2 and 4, both reach offset 2
/// let e = check_injective(&layout!("(4,2):(1,2)"), Op::Gemm).unwrap_err();
/// assert_eq!(*e.kind(), ErrorKind::Collision { first: 2, second: 4 });
/// // a negative stride counts by its magnitude: (3,2):(2,-3) takes 0, 2, 4, -3, -1, 1
/// assert_eq!(check_injective(&layout!("(3,2):(2,-3)"), Op::Gemm), Ok(()));
/// ```
///
/// # Errors
///
/// Fails with [`ErrorKind::NeedsIntegerStrides`] for a layout whose strides are not all integers.
/// `const`: `static_gemm` checks its output with it at compile time.
pub const fn check_injective(l: &Layout, op: Op) -> Result<(), Error> {
    match collision(l, op) {
        Ok(None) => Ok(()),
        Ok(Some((first, second))) => Err(collided(l, op, first, second)),
        Err(e) => Err(e.or_with(Operand::Layout(*l), Operand::None)),
    }
}

/// [`check_injective`] that never gives up on an integral layout: where the bounded search passes
/// its bound, every offset is computed and sorted (the indices named are then the two smallest at
/// the smallest offset reached twice). For the runtime callers (`gemm`, `cute-gemm`), which must
/// not refuse an injective layout; the time and memory are those of the layout's size.
///
/// ```
/// use cute::geometry::check_injective_exhaustive;
/// use cute::{layout, ErrorKind, Op};
/// assert_eq!(check_injective_exhaustive(&layout!("(3,2):(2,3)"), Op::Gemm), Ok(()));
/// let e = check_injective_exhaustive(&layout!("(4,4):(1,2)"), Op::Gemm).unwrap_err();
/// assert_eq!(e.category(), "NotInjective");
/// assert!(matches!(e.kind(), ErrorKind::Collision { .. }));
/// ```
///
/// # Errors
///
/// [`ErrorKind::Collision`] (category `NotInjective`, naming the two smallest indices that meet)
/// when `l` is not injective, tagged with `op`; the errors of [`check_injective`] other than its
/// search bound.
pub fn check_injective_exhaustive(l: &Layout, op: Op) -> Result<(), Error> {
    match collision(l, op) {
        Ok(None) => Ok(()),
        Ok(Some((first, second))) => Err(collided(l, op, first, second)),
        // the search's bound (the only `Unsupported` of an integral layout): sort the offsets
        Err(e) if matches!(e.kind, ErrorKind::Unsupported { .. }) => match sorted_collision(l, op)?
        {
            None => Ok(()),
            Some((first, second)) => Err(collided(l, op, first, second)),
        },
        Err(e) => Err(e.or_with(Operand::Layout(*l), Operand::None)),
    }
}

/// The [`ErrorKind::Collision`] of `op` on `l` for the indices `first < second`.
const fn collided(l: &Layout, op: Op, first: i64, second: i64) -> Error {
    Error::new(op, ErrorKind::Collision { first, second }).with(Operand::Layout(*l), Operand::None)
}

/// Two indices of `l` that meet (see [`check_injective`]), `None` when there are none, or the error
/// (strides that are not integers, the search's bound).
const fn collision(l: &Layout, op: Op) -> Result<Option<(i64, i64)>, Error> {
    if let Err(e) = l.require_integral(op) {
        return Err(e);
    }
    let n = l.tree.len();
    // a broadcast leaf: indices 0 and its weight reach offset 0
    let mut weight: i64 = 1;
    let mut i = 0;
    while i < n {
        if l.shape[i] > 1 && l.stride[i] == 0 {
            return Ok(Some((0, weight)));
        }
        weight *= l.shape[i]; // (a prefix of the size, which fits)
        i += 1;
    }
    if mixed_radix_injective(l.shape.split_at(n).0, l.stride.split_at(n).0).is_ok() {
        return Ok(None);
    }
    find_collision(l, op)
}

/// Two indices of the integral layout `l` at one offset, by sorting all its offsets: the two
/// smallest indices at the smallest offset reached twice, or `None`.
fn sorted_collision(l: &Layout, op: Op) -> Result<Option<(i64, i64)>, Error> {
    // every offset fits when the cosize does (|offset| ≤ Σ (s−1)·|d|): the walker's additions are
    // exact
    l.integral_cosize()
        .map_err(|e| e.retag(op).or_with(Operand::Layout(*l), Operand::None))?;
    let n = l.tree.len();
    let mut w = Odometer::new(&l.shape[..n], [&l.stride[..n]]);
    let mut offsets: Vec<(i64, i64)> = Vec::with_capacity(l.size() as usize);
    let mut index = 0;
    loop {
        offsets.push((w.offsets()[0], index));
        index += 1;
        if !w.step() {
            break;
        }
    }
    offsets.sort_unstable();
    Ok(offsets
        .windows(2)
        .find(|p| p[0].0 == p[1].0)
        .map(|p| (p[0].1, p[1].1)))
}

/// The bound on the search of [`find_collision`], in visited coefficient choices.
const SEARCH_STEPS: u64 = 1 << 22;

/// Two distinct indices `first < second` of the integral layout `a` that reach the same offset, or
/// `None` when `a` without its stride-0 modes is injective (the complement's question, asked of
/// `filter(L)`; [`check_injective`] asks it after ruling out stride-0 leaves).
///
/// Two coordinates `x ≠ y` meet iff `Σ e_i·d_i = 0` for `e = x − y`, `|e_i| < s_i`, not all zero,
/// over the modes with a nonzero stride. The coefficients are chosen from the largest `|d_i|`
/// down, each within the window that the smaller modes can still bring back to zero (a chain of
/// strides leaves only `e_i = 0`, so the search visits interleaved modes alone), and `e` and `−e`
/// are not both tried. Exact; fails with `Unsupported` of `op` (never a wrong answer) past
/// [`SEARCH_STEPS`] choices.
pub(crate) const fn find_collision(a: &Layout, op: Op) -> Result<Option<(i64, i64)>, Error> {
    // The modes with a nonzero stride: shape, |stride|, sign, weight in the index.
    let (mut s, mut d, mut neg, mut w) = (
        [0i128; CAPACITY],
        [0i128; CAPACITY],
        [false; CAPACITY],
        [0i128; CAPACITY],
    );
    let mut m = 0;
    let mut pp: i128 = 1;
    let mut i = 0;
    while i < a.tree.len() {
        let (si, di) = (a.shape[i] as i128, a.stride[i] as i128);
        if si > 1 && di != 0 {
            s[m] = si;
            d[m] = if di < 0 { -di } else { di };
            neg[m] = di < 0;
            w[m] = pp;
            m += 1;
        }
        pp *= si; // a layout's size fits in an i64
        i += 1;
    }
    // Sort by decreasing |d| (insertion sort, carrying the other arrays).
    let mut i = 1;
    while i < m {
        let mut j = i;
        while j > 0 && d[j - 1] < d[j] {
            let (ts, td, tn, tw) = (s[j], d[j], neg[j], w[j]);
            s[j] = s[j - 1];
            d[j] = d[j - 1];
            neg[j] = neg[j - 1];
            w[j] = w[j - 1];
            s[j - 1] = ts;
            d[j - 1] = td;
            neg[j - 1] = tn;
            w[j - 1] = tw;
            j -= 1;
        }
        i += 1;
    }
    // below[k]: the largest |Σ_{j>k} e_j·d_j|.
    let mut below = [0i128; CAPACITY];
    let mut k = m;
    let mut acc: i128 = 0;
    while k > 0 {
        k -= 1;
        below[k] = acc;
        acc += (s[k] - 1) * d[k];
    }
    if m < 2 {
        return Ok(None);
    }
    // Depth-first over e_0, e_1, ...: `p[k]` the partial sum before level k, `hi[k]` the last
    // coefficient of the window at level k.
    let mut e = [0i128; CAPACITY];
    let mut hi = [0i128; CAPACITY];
    let mut p = [0i128; CAPACITY];
    let mut nz = [false; CAPACITY]; // a nonzero coefficient before level k
    let mut steps: u64 = 0;
    let mut k = 0;
    let mut enter = true; // entering level k (else: advance e[k])
    loop {
        if enter {
            // window: |p + e·d| ≤ below[k], |e| < s, e ≥ 0 while all before are zero
            let lo_w = floor_div(-below[k] - p[k] + d[k] - 1, d[k]); // ⌈(−b − p)/d⌉
            let hi_w = floor_div(below[k] - p[k], d[k]);
            let mut lo = if lo_w > -(s[k] - 1) {
                lo_w
            } else {
                -(s[k] - 1)
            };
            if !nz[k] && lo < 0 {
                lo = 0;
            }
            hi[k] = if hi_w < s[k] - 1 { hi_w } else { s[k] - 1 };
            e[k] = lo;
        } else {
            e[k] += 1;
        }
        steps += 1;
        if steps > SEARCH_STEPS {
            return Err(Error::new(
                op,
                ErrorKind::Unsupported {
                    what:
                        "deciding whether interleaved modes are injective (the search is bounded \
                           at 2^22 steps)",
                },
            ));
        }
        if e[k] > hi[k] {
            // window exhausted: back to the level above
            if k == 0 {
                return Ok(None);
            }
            k -= 1;
            enter = false;
            continue;
        }
        let q = p[k] + e[k] * d[k];
        if k + 1 == m {
            if q == 0 && (nz[k] || e[k] != 0) {
                break;
            }
            enter = false;
            continue;
        }
        p[k + 1] = q;
        nz[k + 1] = nz[k] || e[k] != 0;
        k += 1;
        enter = true;
    }
    // e is a solution: x − y = e (signs folded back), x and y its positive and negative parts.
    let (mut x, mut y) = (0i128, 0i128);
    let mut j = 0;
    while j < m {
        let c = if neg[j] { -e[j] } else { e[j] };
        if c > 0 {
            x += c * w[j];
        } else {
            y -= c * w[j];
        }
        j += 1;
    }
    // (the zero-stride modes contribute nothing: x and y are indices of `a` itself)
    let (first, second) = if x < y { (x, y) } else { (y, x) };
    Ok(Some((first as i64, second as i64)))
}

/// A mixed-radix walker: the coordinate of a loop nest over `extent` (mode 0 fastest) and the
/// offsets of `M` layouts with those extents, kept up to date by one addition per step (wrapping
/// arithmetic: the caller's layouts fit, so the offsets do).
#[derive(Clone, Debug)]
pub struct Odometer<'a, const M: usize> {
    extent: &'a [i64],
    stride: [&'a [i64]; M],
    crd: [i64; MAX_JOINT],
    offset: [i64; M],
}

impl<'a, const M: usize> Odometer<'a, M> {
    /// The walker at coordinate 0 over `extent`, whose layouts have the strides `stride[m]`.
    ///
    /// Panics when a stride list is shorter than `extent`, or `extent` has more than
    /// [`MAX_JOINT`] modes.
    ///
    /// ```
    /// use cute::geometry::Odometer;
    /// // the loop nest (2,3) and two layouts on it, (2,3):(1,10) and (2,3):(3,1)
    /// let w = Odometer::new(&[2, 3], [&[1, 10], &[3, 1]]);
    /// assert_eq!(w.offsets(), [0, 0]);
    /// ```
    pub fn new(extent: &'a [i64], stride: [&'a [i64]; M]) -> Self {
        assert!(extent.len() <= MAX_JOINT && stride.iter().all(|s| s.len() >= extent.len()));
        Odometer {
            extent,
            stride,
            crd: [0; MAX_JOINT],
            offset: [0; M],
        }
    }

    /// The offsets at the current coordinate.
    ///
    /// ```
    /// use cute::geometry::Odometer;
    /// let mut w = Odometer::new(&[2, 3], [&[1, 10], &[3, 1]]);
    /// w.step();
    /// w.step();
    /// assert_eq!(w.offsets(), [10, 1]); // coordinate (0,1)
    /// ```
    #[inline(always)]
    pub fn offsets(&self) -> [i64; M] {
        self.offset
    }

    /// Moves to the next coordinate; `false` (and back at 0) after the last.
    ///
    /// ```
    /// use cute::geometry::Odometer;
    /// let mut w = Odometer::new(&[2, 3], [&[3, 1]]);
    /// let mut seen = vec![w.offsets()[0]];
    /// while w.step() {
    ///     seen.push(w.offsets()[0]);
    /// }
    /// assert_eq!(seen, [0, 3, 1, 4, 2, 5]);
    /// ```
    #[inline(always)]
    pub fn step(&mut self) -> bool {
        let mut k = 0;
        while k < self.extent.len() {
            self.crd[k] += 1;
            if self.crd[k] < self.extent[k] {
                for m in 0..M {
                    self.offset[m] = self.offset[m].wrapping_add(self.stride[m][k]);
                }
                return true;
            }
            // back to 0 in mode k: subtract (e_k − 1)·d_k
            for m in 0..M {
                let back = (self.extent[k] - 1).wrapping_mul(self.stride[m][k]);
                self.offset[m] = self.offset[m].wrapping_sub(back);
            }
            self.crd[k] = 0;
            k += 1;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::{check_injective, check_injective_exhaustive};
    use crate::error::{ErrorKind, Op, Operand};
    use crate::layout::Layout;

    /// Every offset of `l`, index by index.
    fn offsets(l: &Layout) -> Vec<i64> {
        (0..l.size()).map(|i| l.eval(i).unwrap()).collect()
    }

    /// By brute force: the two smallest indices at the smallest offset reached twice (the pair
    /// [`check_injective_exhaustive`] names when it sorts), or `None` when `l` is injective.
    fn brute(l: &Layout) -> Option<(i64, i64)> {
        let mut o: Vec<(i64, i64)> = offsets(l).into_iter().zip(0..).collect();
        o.sort_unstable();
        o.windows(2)
            .find(|w| w[0].0 == w[1].0)
            .map(|w| (w[0].1, w[1].1))
    }

    /// The index weight of the first leaf of size > 1 with stride 0, if any.
    fn broadcast(l: &Layout) -> Option<i64> {
        let mut w = 1;
        for k in 0..l.leaf_count() {
            let (s, d) = l.leaf_at(k);
            if s > 1 && d == 0 {
                return Some(w);
            }
            w *= s;
        }
        None
    }

    /// `check_injective` and `check_injective_exhaustive` on `l` against brute force; returns
    /// whether the bounded search gave up.
    fn agree(l: &Layout) -> bool {
        let want = brute(l);
        let fast = check_injective(l, Op::Gemm);
        let exact = check_injective_exhaustive(l, Op::Gemm);
        let gave_up = matches!(&fast, Err(e) if matches!(e.kind(), ErrorKind::Unsupported { .. }));
        if gave_up {
            assert_eq!(fast.unwrap_err().lhs(), &Operand::Layout(*l), "{l}");
        } else {
            assert_eq!(fast, exact, "{l}: the two checks differ");
        }
        match (want, exact) {
            (None, Ok(())) => {}
            (Some(_), Err(e)) => {
                let ErrorKind::Collision { first, second } = *e.kind() else {
                    panic!("{l}: {e}");
                };
                assert_eq!(e.op(), Op::Gemm);
                assert_eq!(e.lhs(), &Operand::Layout(*l), "{l}");
                assert_eq!(e.category(), "NotInjective");
                assert!(
                    0 <= first && first < second && second < l.size(),
                    "{l}: {e}"
                );
                assert_eq!(l.eval(first), l.eval(second), "{l}: {e}");
                if let Some(w) = broadcast(l) {
                    assert_eq!((first, second), (0, w), "{l}: a broadcast leaf");
                }
                if gave_up {
                    assert_eq!(Some((first, second)), want, "{l}: the sort's pair");
                }
            }
            (want, got) => panic!("{l}: brute force {want:?}, check_injective_exhaustive {got:?}"),
        }
        gave_up
    }

    /// A small deterministic generator (xorshift64*).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: u64) -> i64 {
            (self.next() % n) as i64
        }
    }

    fn lay(s: &str) -> Layout {
        s.parse().unwrap()
    }

    #[test]
    fn named_cases() {
        let ok = [
            "(2,2):(3,2)",
            "(3,2):(2,3)",
            "(2,3):(3,2)",
            "(3,3):(3,2)",
            "(3,2):(2,-3)",
            "(4,8):(8,1)",
            "1:0",
            "(1,4):(0,-1)",
        ];
        for s in ok {
            assert_eq!(check_injective(&lay(s), Op::Gemm), Ok(()), "{s}");
            assert!(!agree(&lay(s)));
        }
        let meet = [
            ("(2,2):(1,0)", (0, 2)),
            ("(1,3):(5,0)", (0, 1)),
            ("(2,1,3):(1,0,0)", (0, 2)),
            ("(4,2):(1,2)", (2, 4)),
            ("(2,2):(1,-1)", (0, 3)),
            ("(3,3):(2,4)", (2, 3)),
            ("((2,2),2):((1,0),4)", (0, 2)),
        ];
        for (s, (first, second)) in meet {
            let e = check_injective(&lay(s), Op::Copy).unwrap_err();
            assert_eq!(*e.kind(), ErrorKind::Collision { first, second }, "{s}");
            assert_eq!(
                e.to_string(),
                format!(
                    "copy {s}: the layout is not injective: indices {first} and {second} reach \
                     the same offset"
                )
            );
            assert!(!agree(&lay(s)));
        }
    }

    /// Every flat layout of rank 1 to 3 with shapes 1..=4 and strides -4..=4.
    #[test]
    fn every_small_flat_layout() {
        let mut count = 0;
        for rank in 1..=3u32 {
            for code in 0..(4 * 9i64).pow(rank) {
                let (mut c, mut shape, mut stride) = (code, vec![], vec![]);
                for _ in 0..rank {
                    shape.push(c % 4 + 1);
                    stride.push((c / 4) % 9 - 4);
                    c /= 36;
                }
                agree(&Layout::flat(&shape, &stride).unwrap());
                count += 1;
            }
        }
        assert_eq!(count, 36 + 36 * 36 + 36 * 36 * 36);
    }

    /// Random layouts of up to six leaves, some nested, with strides that often interleave (small
    /// multiples of a few bases), negative and zero strides included.
    #[test]
    fn random_layouts() {
        let mut r = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut meet, mut interleaved) = (0, 0);
        for _ in 0..20_000 {
            let n = 1 + r.below(6) as usize;
            let base = [1, 2, 3, 5, 7][r.below(5) as usize];
            let (mut shape, mut stride) = (vec![], vec![]);
            for _ in 0..n {
                shape.push(1 + r.below(4));
                let d = match r.below(8) {
                    0 => 0,
                    1..=4 => base * (1 + r.below(8)),
                    _ => 1 + r.below(24),
                };
                stride.push(if r.below(4) == 0 { -d } else { d });
            }
            let leaves: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
            let strides: Vec<String> = stride.iter().map(|d| d.to_string()).collect();
            // nest the first two leaves now and then
            let text = if n >= 3 && r.below(2) == 0 {
                format!(
                    "(({}),{}):(({}),{})",
                    leaves[..2].join(","),
                    leaves[2..].join(","),
                    strides[..2].join(","),
                    strides[2..].join(",")
                )
            } else {
                format!("({}):({})", leaves.join(","), strides.join(","))
            };
            let l = lay(&text);
            agree(&l);
            if brute(&l).is_some() {
                meet += 1;
            } else if super::mixed_radix_injective(&shape, &stride).is_err() {
                interleaved += 1;
            }
        }
        // both answers are common, and injective layouts that the criterion cannot prove too
        assert!(meet > 2_000 && interleaved > 500, "{meet} {interleaved}");
    }

    /// A layout whose modes have distinct subset sums but nearly equal strides (Conway and Guy's
    /// sequence): injective, and the search gives up; the exhaustive check sorts its offsets.
    #[test]
    fn past_the_search_bound() {
        let u = [
            0i64, 1, 2, 4, 7, 13, 24, 44, 84, 161, 309, 594, 1164, 2284, 4484, 8807, 17305,
        ];
        let d: Vec<i64> = (0..16).map(|i| u[16] - u[i]).collect();
        let l = Layout::flat(&[2; 16], &d).unwrap();
        let e = check_injective(&l, Op::Gemm).unwrap_err();
        assert_eq!(e.category(), "Unsupported");
        assert_eq!(e.lhs(), &Operand::Layout(l));
        assert!(agree(&l));
        assert_eq!(check_injective_exhaustive(&l, Op::Gemm), Ok(()));
        // 17 strides of the sequence with the largest replaced by the sum of the two smallest:
        // the search gives up in the subtree without the largest, the sort finds the pair
        let u17 = 34301;
        let mut d: Vec<i64> = u.iter().map(|x| u17 - x).collect();
        d[0] = d[15] + d[16];
        let l = Layout::flat(&[2; 17], &d).unwrap();
        assert!(agree(&l));
        let e = check_injective_exhaustive(&l, Op::Gemm).unwrap_err();
        assert_eq!(
            *e.kind(),
            ErrorKind::Collision {
                first: 1,
                second: 98304
            }
        );
    }

    #[test]
    fn strides_that_are_not_integers() {
        let id = crate::make_identity_layout(&"(4,6)".parse().unwrap()).unwrap();
        for r in [
            check_injective(&id, Op::Gemm),
            check_injective_exhaustive(&id, Op::Gemm),
        ] {
            let e = r.unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::NeedsIntegerStrides { .. }),
                "{e}"
            );
        }
    }

    #[test]
    fn in_const_context() {
        const { assert!(check_injective(&crate::layout!("(3,2):(2,3)"), Op::Gemm).is_ok()) };
        const { assert!(check_injective(&crate::layout!("(4,2):(1,2)"), Op::Gemm).is_err()) };
    }
}
