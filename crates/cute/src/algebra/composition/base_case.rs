//! The base case (8) of composition, `A ∘ s:d` for one leaf `s:d` of the right operand, with the
//! stride-divisibility (9) and shape-divisibility (10) conditions and the truncation that resolves
//! apparent violations; and the scaling of a stride of `A` by an integer (carry-less for binary
//! strides).

use crate::arith::{ceil_div, div_rem};
use crate::error::{mul, tri, Error, ErrorKind, Op};
use crate::int_tuple::CAPACITY;
use crate::layout::Layout;
use crate::stride::{merges, BINARY, INTEGER};

use super::super::coalesce::Flat;

/// `k · d` for the stride `d` (basis code `code`) of `A` scaled by the integer `k` read off the
/// right operand, for a result mode of extent `extent` (leaf `leaf` of the right operand): the
/// integer product, or for binary strides the carry-less one.
///
/// Over F2 the result adds what integer composition adds, so two conditions make it exact. Within
/// the leaf, `c·k` must have no carries for every `c < extent` (no two copies of `k` shifted by `t`
/// overlap for a `t` with `1 + 2^t < extent`). Across leaves, the offsets that different leaves of
/// `B` give one mode of `A` are added, so their bits must be disjoint: `used` holds the bits that
/// the earlier leaves may set in this mode of `A` (`k << t` for each `2^t < extent`), and an
/// overlap is refused. Both are exact: an overlapping bit is reached by some coordinate.
#[inline(always)]
pub(crate) const fn scaled(
    k: i64,
    d: i64,
    code: crate::stride::Code,
    extent: i64,
    leaf: usize,
    used: &mut [u64],
    slot: usize,
) -> Result<(i64, crate::stride::Code), Error> {
    if d == 0 || k == 0 {
        // the zero of F2 stays binary (`F0`), as in PyCuTe
        return Ok((0, if code == BINARY { code } else { 0 }));
    }
    if code == BINARY {
        return scaled_binary(k, d, extent, leaf, used, slot);
    }
    Ok((tri!(mul(Op::Composition, k, d)), code))
}

/// [`scaled`] for a binary stride `d` (nonzero, as `k`): the carry-less product, with the checks
/// that make it exact.
const fn scaled_binary(
    k: i64,
    d: i64,
    extent: i64,
    leaf: usize,
    used: &mut [u64],
    slot: usize,
) -> Result<(i64, crate::stride::Code), Error> {
    if k < 0 {
        return Err(Error::new(
            Op::Composition,
            ErrorKind::Unsupported {
                what: "a negative coordinate times a binary (F2) stride",
            },
        ));
    }
    let mut t = 1;
    while t < 62 && (1i64 << t) + 1 < extent {
        if k & (k << t) != 0 {
            return Err(Error::new(
                Op::Composition,
                ErrorKind::BinaryCarry {
                    mode: leaf,
                    scale: k,
                    extent,
                },
            ));
        }
        t += 1;
    }
    let v = tri!(crate::stride::ops::clmul(
        Op::Composition,
        d as u64,
        k as u64
    ));
    // the bits this leaf may set in the mode: `k << t` for every `2^t < extent`
    let mut span: u64 = 0;
    let mut t = 0;
    while t < 63 && (1i64 << t) < extent {
        span |= (k as u64) << t;
        t += 1;
    }
    if used[slot] & span != 0 {
        return Err(Error::new(
            Op::Composition,
            ErrorKind::BinaryOverlap {
                leaf,
                used: used[slot],
                span,
            },
        ));
    }
    used[slot] |= span;
    Ok((v as i64, BINARY))
}

/// The modes of a flat layout, borrowed (a [`Flat`], or the leaves of a layout), and what the
/// base case needs to know of their strides.
#[derive(Clone, Copy)]
pub(super) struct Modes<'a> {
    pub(super) n: usize,
    pub(super) s: &'a [i64; CAPACITY],
    pub(super) d: &'a [i64; CAPACITY],
    pub(super) b: &'a [crate::stride::Code; CAPACITY],
    /// Every stride is an integer.
    pub(super) integral: bool,
    /// Some stride is binary (F2).
    pub(super) binary: bool,
}

impl<'a> Modes<'a> {
    pub(super) const fn of(f: &'a Flat) -> Modes<'a> {
        let (mut integral, mut binary) = (true, false);
        let mut i = 0;
        while i < f.n {
            integral &= f.b[i] == INTEGER;
            binary |= f.b[i] == BINARY;
            i += 1;
        }
        Modes {
            n: f.n,
            s: &f.s,
            d: &f.d,
            b: &f.b,
            integral,
            binary,
        }
    }

    /// The leaves of `l` when they already are the result of coalescing with the last mode kept
    /// (`coalesce_leaves(l, true)`): no size-1 mode before the last, and no adjacent pair that
    /// merges. `None` otherwise.
    #[inline(always)]
    pub(super) const fn coalesced(l: &'a Layout) -> Option<Modes<'a>> {
        let n = l.tree.len();
        // integer strides, the common case: one pass that reads only shapes and strides
        if l.is_integral() {
            let mut i = 0;
            while i + 1 < n {
                let (s, d) = (l.shape[i], l.stride[i]);
                if s == 1 || matches!(s.checked_mul(d), Some(x) if x == l.stride[i + 1]) {
                    return None;
                }
                i += 1;
            }
            return Some(Modes {
                n,
                s: &l.shape,
                d: &l.stride,
                b: &l.basis,
                integral: true,
                binary: false,
            });
        }
        let mut binary = false;
        let mut i = 0;
        while i < n {
            let code = l.basis[i];
            binary |= code == BINARY;
            if i + 1 < n
                && (l.shape[i] == 1
                    || merges(
                        l.shape[i],
                        l.stride[i],
                        code,
                        l.stride[i + 1],
                        l.basis[i + 1],
                    ))
            {
                return None;
            }
            i += 1;
        }
        Some(Modes {
            n,
            s: &l.shape,
            d: &l.stride,
            b: &l.basis,
            integral: false,
            binary,
        })
    }
}

/// One mode of a result: its shape, its stride and the stride's basis code.
type Mode = (i64, (i64, crate::stride::Code));

/// The base case (8), `A ∘ s:d`, for a coalesced, flat `A` whose last mode is unbounded: a walk
/// over the modes of `A` that yields the modes of the result one at a time (CuTe's printed form:
/// one mode, or several; at most `a.n`), so that the caller writes each straight where it belongs.
pub(super) struct BaseCase {
    /// The leaf `s:d` of `B`, and its index among `B`'s leaves.
    s: i64,
    d: i64,
    leaf: usize,
    /// What is left to place: `rest_shape` points, `rest_stride` apart in units of mode `r`.
    rest_shape: i64,
    rest_stride: i64,
    /// The next mode of `A` to visit.
    r: usize,
    /// Whether a mode has been yielded.
    yielded: bool,
    /// Whether the walk is over.
    done: bool,
}

impl BaseCase {
    /// The walk for the leaf `s:d` (leaf `leaf` of `B`), refusing a negative stride where `A` has
    /// several modes.
    #[inline(always)]
    pub(super) const fn new(a: &Modes, s: i64, d: i64, leaf: usize) -> Result<BaseCase, Error> {
        if d < 0 && s > 1 && a.n > 1 {
            return Err(Error::new(
                Op::Composition,
                ErrorKind::Unsupported {
                    what: "a negative stride on the right of a composition whose left operand has several modes",
                },
            ));
        }
        Ok(BaseCase {
            s,
            d,
            leaf,
            rest_shape: s,
            rest_stride: d,
            r: 0,
            yielded: false,
            done: false,
        })
    }

    /// The next mode of `A ∘ s:d`, `None` when there is none left, or the condition (9) or (10)
    /// that fails.
    #[inline(always)]
    pub(super) const fn next(
        &mut self,
        a: &Modes,
        used: &mut [u64],
    ) -> Result<Option<Mode>, Error> {
        if self.done {
            return Ok(None);
        }
        let (s, d, n) = (self.s, self.d, a.n);
        if d == 0 || n <= 1 {
            // one mode: `s:0`, or `s:(d·d_A)` for a one-mode `A`
            self.done = true;
            if d == 0 {
                return Ok(Some((s, (0, 0))));
            }
            let (da, code) = if n == 1 { (a.d[0], a.b[0]) } else { (0, 0) };
            return Ok(Some((s, tri!(scaled(d, da, code, s, self.leaf, used, 0)))));
        }
        while self.r + 1 < n {
            let r = self.r;
            self.r += 1;
            let cs = a.s[r];
            // Here `cs ≥ 1`, and `rest_shape > 1` implies `rest_stride > 0` (so `div_rem` applies).
            if self.rest_shape == 1 {
                // Nothing left to place (a size-1 leaf, or every point placed): only the stride is
                // walked on to the last mode. CuTe C++ and PyCuTe still refuse a stride that passes
                // a mode boundary without dividing it; after a placement the stride is 1 and always
                // passes (and stays 1).
                if self.rest_stride != 1 {
                    if self.rest_stride % cs != 0 && self.rest_stride > cs {
                        return Err(stride_divisibility(a, r, d));
                    }
                    self.rest_stride = ceil_div(self.rest_stride, cs);
                }
                continue;
            }
            if self.rest_stride >= cs {
                // The stride passes the mode: it must divide it out entirely (9).
                let (q, rem) = div_rem(self.rest_stride, cs);
                if rem != 0 {
                    return Err(stride_divisibility(a, r, d));
                }
                self.rest_stride = q;
                continue;
            }
            // The stride lies inside the mode: the points that fit in it are placed.
            let (next_shape, rem) = div_rem(cs, self.rest_stride);
            if rem == 0 {
                let new_shape = if next_shape < self.rest_shape {
                    next_shape
                } else {
                    self.rest_shape
                };
                let (rest_q, rest_r) = div_rem(self.rest_shape, new_shape);
                if rest_r != 0 {
                    // ⌈S̄_{r+1}/d⌉ = (s / rest_shape) · next_shape does not divide s.
                    return Err(shape_divisibility(r, s, self.rest_shape, next_shape));
                }
                let v = tri!(scaled(
                    self.rest_stride,
                    a.d[r],
                    a.b[r],
                    new_shape,
                    self.leaf,
                    used,
                    r
                ));
                self.rest_shape = rest_q;
                self.rest_stride = 1;
                self.yielded = true;
                return Ok(Some((new_shape, v)));
            }
            if (self.rest_shape - 1) as i128 * (self.rest_stride as i128) < cs as i128 {
                // Truncation: every remaining point lies inside this mode, the later modes do not
                // contribute, and the divisibility condition does not apply to them.
                let shape = self.rest_shape;
                let v = tri!(scaled(
                    self.rest_stride,
                    a.d[r],
                    a.b[r],
                    shape,
                    self.leaf,
                    used,
                    r
                ));
                self.rest_shape = 1;
                self.rest_stride = 1;
                self.yielded = true;
                return Ok(Some((shape, v)));
            }
            return Err(stride_divisibility(a, r, d));
        }
        // the last mode, unbounded: what is left, unless every point was placed before
        self.done = true;
        if self.yielded && self.rest_shape == 1 {
            return Ok(None);
        }
        let last = tri!(scaled(
            self.rest_stride,
            a.d[n - 1],
            a.b[n - 1],
            self.rest_shape,
            self.leaf,
            used,
            n - 1
        ));
        Ok(Some((self.rest_shape, last)))
    }
}

/// The stride-divisibility condition (9) failing for the stride `d` of `B` at mode `r + 1` of the
/// coalesced `A`. (Out of line, as every error of the base case: an `Error` carries two layouts,
/// and building one inline would enlarge the hot path's stack frame.)
#[cold]
#[inline(never)]
const fn stride_divisibility(a: &Modes, r: usize, d: i64) -> Error {
    Error::new(
        Op::Composition,
        ErrorKind::StrideDivisibility {
            mode: r + 1,
            stride: d,
            prefix: prefix_product(a, r + 1),
            witness: None,
        },
    )
}

/// The shape-divisibility condition (10) failing for the leaf of size `s` at mode `r + 1`, with
/// `rest` points left and `next` the extent the mode leaves them: `⌈S̄_{r+1}/d⌉ =
/// (s / rest)·next` does not divide `s`.
#[cold]
#[inline(never)]
const fn shape_divisibility(r: usize, s: i64, rest: i64, next: i64) -> Error {
    Error::new(
        Op::Composition,
        ErrorKind::ShapeDivisibility {
            mode: r + 1,
            rest: s,
            divisor: (s / rest).saturating_mul(next),
            witness: None,
        },
    )
}

/// `S̄_k`, the product of the first `k` mode shapes of `a` (saturating; only used in messages and
/// comparisons against values that fit).
const fn prefix_product(a: &Modes, k: usize) -> i64 {
    let mut p: i64 = 1;
    let mut i = 0;
    while i < k {
        p = p.saturating_mul(a.s[i]);
        i += 1;
    }
    p
}
