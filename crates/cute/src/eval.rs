//! Fast run-time evaluation of a layout: precomputed division for integer coordinates, and an
//! odometer over the natural coordinate.
//!
//! [`Layout::eval`] is exact and overflow-checked, but divides by every shape entry with the
//! hardware divider and walks the whole profile on each call. For hot loops this module offers two
//! precomputed forms, both built once from a layout (its coalesced form, which evaluates the same at
//! every integer):
//!
//! | type | what | cost per element |
//! |---|---|---|
//! | [`IndexEvaluator`] | `L(i)` for an integer `i` | a multiply-high and a shift per mode (a mask and a shift when every shape is a power of two) |
//! | [`Offsets`] | `L(0), L(1), …, L(|L|-1)` in order | an addition (a carry every row) |
//! | [`FastDiv`] | `n / d`, `n % d` for a fixed `d` | a multiply-high and a shift |
//!
//! With `L = ((4,8),(8,16)):((8,512),(1,32))` (coalesced: the four leaves, all powers of two):
//!
//! | `i` | `L(i)` |
//! |---|---|
//! | `0` | `0` |
//! | `1` | `8` |
//! | `4` | `512` |
//! | `32` | `1` |
//! | `4095` | `7*512 + 3*8 + 7 + 15*32 = 4095` |
//!
//! ```
//! use cute::{IndexEvaluator, Layout};
//! let l: Layout = "((4,8),(8,16)):((8,512),(1,32))".parse().unwrap();
//! let ev = IndexEvaluator::new(&l).unwrap();
//! assert_eq!(ev.eval(32), 1);
//! assert_eq!(ev.eval(4095), l.eval(4095).unwrap());
//! // The natural-coordinate iteration yields the same offsets in the same order.
//! assert!(l.offsets().unwrap().eq((0..4096).map(|i| ev.eval(i))));
//! // Extended domain: past the size the last mode keeps counting.
//! assert_eq!(ev.eval(4096), l.eval(4096).unwrap());
//! ```
//!
//! ## Exactness
//!
//! The arithmetic here wraps instead of reporting overflow: whenever [`Layout::eval`] returns
//! `Ok(v)` (the true offset fits in an `i64`), [`IndexEvaluator::eval`] returns the same `v`, for
//! every integer `i`: in `0..|L|`, in the extended domain `i ≥ |L|`, and for negative `i` (floor
//! division, taken on a separate, slower path). [`Offsets`] yields `L(i)` for `i` in `0..|L|` under
//! the same condition. When the true offset does not fit, the result is that offset modulo `2^64`.

use crate::algebra::coalesce::coalesce_leaves;
use crate::error::{Error, Op};
use crate::int_tuple::CAPACITY;
use crate::layout::Layout;

/// Division by a fixed positive divisor `d` by multiplication (Granlund and Montgomery, "Division by
/// invariant integers using multiplication", 1994): for every numerator `0 ≤ n < 2^63`,
/// `n / d = ⌊m·n / 2^(63+l)⌋` with `l = ⌈log2 d⌉` and `m = ⌈2^(63+l) / d⌉ < 2^64`.
///
/// ```
/// use cute::eval::FastDiv;
/// let seven = FastDiv::new(7);
/// assert_eq!(seven.div_rem(100), (14, 2));
/// assert_eq!(seven.div_rem(i64::MAX as u64), ((i64::MAX / 7) as u64, (i64::MAX % 7) as u64));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastDiv {
    d: u64,
    m: u64,
    l: u32,
}

impl FastDiv {
    /// The divider for `d`. Contract: `1 ≤ d ≤ i64::MAX` (panics otherwise).
    ///
    /// ```
    /// use cute::eval::FastDiv;
    /// let d = FastDiv::new(12);
    /// assert_eq!(d.div_rem(100), (8, 4));
    /// ```
    pub const fn new(d: i64) -> FastDiv {
        assert!(d >= 1, "FastDiv needs a positive divisor");
        let d = d as u64;
        let l = if d == 1 {
            0
        } else {
            64 - (d - 1).leading_zeros()
        };
        // 2^(63+l) ≤ 2^126 fits in u128; the quotient is below 2^64 because d > 2^(l-1).
        let p = 1u128 << (63 + l);
        let m = (p - 1) / d as u128 + 1; // ⌈p / d⌉
        FastDiv { d, m: m as u64, l }
    }

    /// The divisor.
    ///
    /// ```
    /// use cute::eval::FastDiv;
    /// assert_eq!(FastDiv::new(12).divisor(), 12);
    /// ```
    #[inline]
    pub const fn divisor(&self) -> u64 {
        self.d
    }

    /// True when the divisor is a power of two (the division is a shift).
    ///
    /// ```
    /// use cute::eval::FastDiv;
    /// assert!(FastDiv::new(8).is_pow2());
    /// assert!(!FastDiv::new(12).is_pow2());
    /// ```
    #[inline]
    pub const fn is_pow2(&self) -> bool {
        self.d.is_power_of_two()
    }

    /// `n / d`. Contract: `n < 2^63` (every non-negative `i64`); larger `n` give wrong quotients.
    ///
    /// ```
    /// use cute::eval::FastDiv;
    /// assert_eq!(FastDiv::new(7).div(100), 14);
    /// assert_eq!(FastDiv::new(7).div(i64::MAX as u64), (i64::MAX / 7) as u64);
    /// ```
    #[inline(always)]
    pub const fn div(&self, n: u64) -> u64 {
        let p = self.m as u128 * n as u128;
        // p < 2^127, so p >> 63 fits in 64 bits; then the remaining l ≤ 63 bits.
        ((p >> 63) as u64) >> self.l
    }

    /// `(n / d, n % d)`. Contract: `n < 2^63`.
    ///
    /// ```
    /// use cute::eval::FastDiv;
    /// assert_eq!(FastDiv::new(7).div_rem(100), (14, 2));
    /// ```
    #[inline(always)]
    pub const fn div_rem(&self, n: u64) -> (u64, u64) {
        let q = self.div(n);
        (q, n - q * self.d)
    }
}

/// A layout prepared for evaluation at integer coordinates: `L(i)` without hardware division.
///
/// Built once from a layout (its coalesced form: the same function on every integer); each mode but
/// the last keeps a [`FastDiv`], or a mask and a shift when every such shape is a power of two. The
/// last mode is not reduced, as in the extended domain of [`Layout::eval`]. See the
/// [module docs](self) for the exactness contract.
#[derive(Clone, Copy, Debug)]
pub struct IndexEvaluator {
    /// Number of modes of the coalesced layout (at least 1).
    n: usize,
    /// Every divided shape is a power of two.
    pow2: bool,
    size: i64,
    div: [FastDiv; CAPACITY],
    /// `shape - 1` (the mask) and `log2 shape` for the power-of-two path.
    mask: [u64; CAPACITY],
    shift: [u32; CAPACITY],
    stride: [i64; CAPACITY],
    /// The modes for the negative path.
    shape: [i64; CAPACITY],
}

impl IndexEvaluator {
    /// Prepares `l` for [`eval`](Self::eval). Integer strides only (the evaluator adds integers);
    /// other layouts give [`ErrorKind::NeedsIntegerStrides`](crate::ErrorKind::NeedsIntegerStrides).
    ///
    /// ```
    /// use cute::{make_identity_layout, IndexEvaluator, Layout};
    /// let ev = IndexEvaluator::new(&"(4,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(ev.eval(5), 9);
    /// let id = make_identity_layout(&"(4,6)".parse().unwrap()).unwrap();
    /// assert_eq!(IndexEvaluator::new(&id).unwrap_err().to_string(), "eval (4,6):(1@0,1@1): this operation is defined for integer strides, and the layout has coordinate (E) strides");
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NeedsIntegerStrides`](crate::ErrorKind::NeedsIntegerStrides) for a layout with
    /// coordinate or binary strides.
    pub const fn new(l: &Layout) -> Result<IndexEvaluator, Error> {
        if let Err(e) = l.require_integral(Op::Eval) {
            return Err(e);
        }
        // keep_last: the last mode is unbounded, so the coalesced form agrees on all integers.
        let f = coalesce_leaves(l, true);
        let mut ev = IndexEvaluator {
            n: f.n,
            pow2: true,
            size: 1,
            div: [FastDiv {
                d: 1,
                m: 1 << 63,
                l: 0,
            }; CAPACITY],
            mask: [0; CAPACITY],
            shift: [0; CAPACITY],
            stride: f.d,
            shape: f.s,
        };
        let mut k = 0;
        while k < f.n {
            let s = f.s[k];
            // The size of a valid layout fits in i64, so does every partial product.
            ev.size *= s;
            if k + 1 < f.n {
                ev.div[k] = FastDiv::new(s);
                if s.count_ones() == 1 {
                    ev.mask[k] = s as u64 - 1;
                    ev.shift[k] = s.trailing_zeros();
                } else {
                    ev.pow2 = false;
                }
            }
            k += 1;
        }
        Ok(ev)
    }

    /// `|L|`.
    ///
    /// ```
    /// use cute::{IndexEvaluator, Layout};
    /// let ev = IndexEvaluator::new(&"((2,2),(4,2)):((1,8),(2,16))".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(ev.size(), 32);
    /// ```
    #[inline]
    pub const fn size(&self) -> i64 {
        self.size
    }

    /// `L(i)`: equal to [`Layout::eval`]`(i)` whenever that is `Ok`, for every `i` (see the
    /// [module docs](self)).
    ///
    /// ```
    /// use cute::{IndexEvaluator, Layout};
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// let ev = IndexEvaluator::new(&l).unwrap();
    /// assert_eq!(ev.eval(22), 26); // the paper's L(22)
    /// assert_eq!(ev.eval(40), l.eval(40).unwrap()); // past the size, as Layout::eval
    /// ```
    #[inline]
    pub fn eval(&self, i: i64) -> i64 {
        if i < 0 {
            return self.eval_negative(i);
        }
        let last = self.n - 1;
        let mut rest = i as u64;
        let mut acc: i64 = 0;
        if self.pow2 {
            let modes = self.mask[..last]
                .iter()
                .zip(&self.shift[..last])
                .zip(&self.stride[..last]);
            for ((&mask, &shift), &d) in modes {
                acc = acc.wrapping_add(((rest & mask) as i64).wrapping_mul(d));
                rest >>= shift;
            }
        } else {
            for (div, &d) in self.div[..last].iter().zip(&self.stride[..last]) {
                let (q, r) = div.div_rem(rest);
                acc = acc.wrapping_add((r as i64).wrapping_mul(d));
                rest = q;
            }
        }
        acc.wrapping_add((rest as i64).wrapping_mul(self.stride[last]))
    }

    /// Floor division for negative coordinates, as [`Layout::eval`] does.
    #[cold]
    fn eval_negative(&self, i: i64) -> i64 {
        let last = self.n - 1;
        let mut rest = i;
        let mut acc: i64 = 0;
        for k in 0..last {
            let s = self.shape[k];
            acc = acc.wrapping_add(rest.rem_euclid(s).wrapping_mul(self.stride[k]));
            rest = rest.div_euclid(s);
        }
        acc.wrapping_add(rest.wrapping_mul(self.stride[last]))
    }
}

/// The offsets `L(0), L(1), …, L(|L|-1)` in order, by an odometer over the natural coordinate of the
/// coalesced layout: one addition per element and a carry at the end of each row, no division.
///
/// [`Iterator::fold`] (hence `for_each`, `sum`, `count`, …) runs each row as a tight inner loop.
/// See the [module docs](self) for the exactness contract.
#[derive(Clone, Debug)]
pub struct Offsets {
    n: usize,
    /// The modes of the coalesced layout, padded with `1:0`.
    shape: [i64; CAPACITY],
    stride: [i64; CAPACITY],
    /// `shape·stride` (wrapping): what a carry out of a mode subtracts.
    back: [i64; CAPACITY],
    crd: [i64; CAPACITY],
    off: i64,
    left: u64,
}

impl Offsets {
    /// The offsets of `l` in the order of its integer coordinates. Integer strides only, as
    /// [`IndexEvaluator::new`].
    ///
    /// ```
    /// use cute::{Layout, Offsets};
    /// let it = Offsets::new(&"(2,3):(3,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(it.len(), 6);
    /// assert_eq!(it.collect::<Vec<_>>(), vec![0, 3, 1, 4, 2, 5]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`IndexEvaluator::new`].
    pub const fn new(l: &Layout) -> Result<Offsets, Error> {
        if let Err(e) = l.require_integral(Op::Eval) {
            return Err(e);
        }
        let f = coalesce_leaves(l, false);
        let mut it = Offsets {
            n: f.n,
            shape: f.s,
            stride: f.d,
            back: [0; CAPACITY],
            crd: [0; CAPACITY],
            off: 0,
            left: 1,
        };
        if f.n == 0 {
            // Every mode had size 1: the single offset 0.
            it.n = 1;
        }
        let mut k = 0;
        while k < CAPACITY {
            if k >= f.n {
                // Padding: `1:0` modes, so that `fold` can treat modes 0 and 1 as present.
                it.shape[k] = 1;
                it.stride[k] = 0;
            }
            it.back[k] = it.shape[k].wrapping_mul(it.stride[k]);
            if k < it.n {
                it.left *= it.shape[k] as u64;
            }
            k += 1;
        }
        Ok(it)
    }

    /// Moves the coordinate one step on from mode `k` (there must be a next element).
    #[inline(always)]
    fn carry(&mut self, mut k: usize) {
        loop {
            self.crd[k] += 1;
            self.off = self.off.wrapping_add(self.stride[k]);
            if self.crd[k] < self.shape[k] {
                return;
            }
            self.off = self.off.wrapping_sub(self.back[k]);
            self.crd[k] = 0;
            k += 1;
        }
    }
}

impl Iterator for Offsets {
    type Item = i64;

    #[inline]
    fn next(&mut self) -> Option<i64> {
        if self.left == 0 {
            return None;
        }
        let o = self.off;
        self.left -= 1;
        if self.left > 0 {
            self.carry(0);
        }
        Some(o)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.left).unwrap_or(usize::MAX);
        (n, usize::try_from(self.left).ok())
    }

    #[inline]
    fn fold<B, F: FnMut(B, i64) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        // Step to the start of a plane (modes 0 and 1) one element at a time.
        while self.left > 0 && (self.crd[0] != 0 || self.crd[1] != 0) {
            acc = f(acc, self.off);
            self.left -= 1;
            if self.left > 0 {
                self.carry(0);
            }
        }
        // Whole planes as two tight loops (the padding modes past `n` are `1:0`).
        let (s0, d0, s1, d1) = (self.shape[0], self.stride[0], self.shape[1], self.stride[1]);
        let plane = (s0 * s1) as u64;
        while self.left > 0 {
            let base = self.off;
            for c1 in 0..s1 {
                let row = base.wrapping_add(c1.wrapping_mul(d1));
                for c0 in 0..s0 {
                    acc = f(acc, row.wrapping_add(c0.wrapping_mul(d0)));
                }
            }
            self.left -= plane;
            if self.left == 0 {
                break;
            }
            self.carry(2);
        }
        acc
    }
}

impl ExactSizeIterator for Offsets {}

impl core::iter::FusedIterator for Offsets {}

impl Layout {
    /// The precomputed evaluator of this layout at integer coordinates ([`IndexEvaluator`]).
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// let ev = l.evaluator().unwrap();
    /// assert!((0..32).all(|i| ev.eval(i) == l.eval(i).unwrap()));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`IndexEvaluator::new`].
    pub const fn evaluator(&self) -> Result<IndexEvaluator, Error> {
        IndexEvaluator::new(self)
    }

    /// `L(0), …, L(|L|-1)` in order, by natural-coordinate iteration ([`Offsets`]).
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "(4,8):(8,1)".parse().unwrap();
    /// assert_eq!(l.offsets().unwrap().take(5).collect::<Vec<_>>(), vec![0, 8, 16, 24, 1]);
    /// assert_eq!(l.offsets().unwrap().sum::<i64>(), (0..32).sum::<i64>());
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Offsets::new`].
    pub const fn offsets(&self) -> Result<Offsets, Error> {
        Offsets::new(self)
    }
}
