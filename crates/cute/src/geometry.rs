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
//!   sufficient, not necessary (`(2,2):(3,2)` is injective and fails it).
//! * **Walker** ([`Odometer`]): the coordinate of a loop nest, mode 0 fastest, with the offsets of
//!   `M` layouts kept up to date by one addition per step (and one subtraction per carry).
//!
//! ```
//! use cute::geometry::{mixed_radix_injective, refine, Odometer};
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
//! let mut w = Odometer::new(&[2, 3], [&[1, 10]]);
//! let mut seen = vec![];
//! loop {
//!     seen.push(w.offsets()[0]);
//!     if !w.step() { break; }
//! }
//! assert_eq!(seen, [0, 1, 10, 11, 20, 21]);
//! ```

use crate::int_tuple::CAPACITY;

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
