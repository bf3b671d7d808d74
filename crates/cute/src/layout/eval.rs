//! Evaluating a layout: `L(i)`, `L(c)`, the cosize, the image, and the walk over every offset.

use super::repr::Layout;
use crate::error::{add, mul, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::build::{parts, sub_tree};
use crate::int_tuple::{IntTuple, Tree, CAPACITY};
use crate::stride::{ArithTuple, Semimodule, Value};

impl Layout {
    /// `cosize(L) = 1 + Σ (s_i - 1)·|d_i|`, one past the largest offset reached in absolute value
    /// terms (CuTe's definition).
    ///
    /// ```
    /// use cute::{make_identity_layout, Layout};
    /// assert_eq!("(4,8):(8,1)".parse::<Layout>().unwrap().cosize().unwrap(), 32);
    /// assert_eq!("(2,4):(0,2)".parse::<Layout>().unwrap().cosize().unwrap(), 7);
    /// assert_eq!("4:-2".parse::<Layout>().unwrap().cosize().unwrap(), 7);
    /// let id = make_identity_layout(&"(4,6)".parse().unwrap()).unwrap();
    /// assert_eq!(id.cosize().unwrap_err().to_string(), "cosize (4,6):(1@0,1@1): this operation is defined for integer strides, and the layout has coordinate (E) strides");
    /// ```
    ///
    /// # Errors
    ///
    /// `Unsupported` (`NeedsIntegerStrides`) when a stride is not an integer; `Overflow` when the
    /// cosize does not fit in `i64`.
    pub const fn cosize(&self) -> Result<i64, Error> {
        tri!(self.require_integral(Op::Cosize));
        self.integral_cosize()
    }

    /// [`Layout::cosize`] of a layout the caller knows to be integral (the check skipped).
    pub(crate) const fn integral_cosize(&self) -> Result<i64, Error> {
        let mut c: i64 = 1;
        let mut i = 0;
        while i < self.tree.len() {
            // |d| of i64::MIN does not fit (`unsigned_abs() as i64` would give a negative cosize)
            let d = match self.stride[i].checked_abs() {
                Some(d) => d,
                None => {
                    return Err(Error::new(
                        Op::Cosize,
                        ErrorKind::Overflow {
                            what: "the absolute value of a stride",
                        },
                    ))
                }
            };
            let t = tri!(mul(Op::Cosize, self.shape[i] - 1, d));
            c = tri!(add(Op::Cosize, c, t));
            i += 1;
        }
        Ok(c)
    }

    /// `L(i)`: evaluation at the integer coordinate `i` (colexicographic, the last mode not reduced,
    /// floor division for negative `i`). Binary (F2) strides give the bits of the F2 value (the
    /// offset a swizzle produces); coordinate strides need [`Layout::eval_value`].
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.eval(5).unwrap(), 3); // 5 is the natural coordinate (1,0,1,0)
    /// assert_eq!(l.eval(31).unwrap(), 31);
    /// assert_eq!(l.eval(32).unwrap(), 32); // the last mode is not reduced
    /// ```
    ///
    /// # Errors
    ///
    /// `Unsupported` (`NeedsIntegerStrides`) for coordinate (`E`) strides, whose values are not
    /// integers ([`Layout::eval_value`] gives them); `Overflow` when the offset does not fit in
    /// `i64`.
    pub const fn eval(&self, i: i64) -> Result<i64, Error> {
        if !self.is_integral() {
            return match self.eval_value(i) {
                Ok(Value::F2(v)) => Ok(v as i64),
                Ok(_) => Err(Error::new(
                    Op::Eval,
                    ErrorKind::NeedsIntegerStrides {
                        found: Semimodule::Coordinate,
                    },
                )
                .with(Operand::Layout(*self), Operand::Int(i))),
                Err(e) => Err(e),
            };
        }
        match eval_leaves(&self.shape, &self.stride, 0, self.tree.len(), i) {
            Ok(v) => Ok(v),
            Err(e) => Err(e.or_with(Operand::Layout(*self), Operand::Int(i))),
        }
    }

    /// `L(c)`: evaluation at any admissible coordinate `c ≲ S` (integer, ND, natural or partially
    /// collapsed). Each integer entry of `c` is spread over its sub-shape colexicographically.
    /// Binary and coordinate strides as in [`Layout::eval`].
    ///
    /// ```
    /// use cute::{IntTuple, Layout};
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    /// assert_eq!(l.eval_crd(&"((1,1),(1,1))".parse().unwrap()).unwrap(), 27);
    /// assert_eq!(l.eval_crd(&"(3,5)".parse().unwrap()).unwrap(), 27);
    /// assert_eq!(l.eval_crd(&IntTuple::int(23)).unwrap(), 27);
    /// let e = l.eval_crd(&"(1,2,3)".parse().unwrap()).unwrap_err();
    /// assert_eq!(e.to_string(), "eval ((2,2),(4,2)):((1,8),(2,16)), (1,2,3): the coordinate is not weakly congruent to the shape (3 vs 2)");
    /// ```
    ///
    /// # Errors
    ///
    /// `ProfileMismatch` when `c` is not weakly congruent to the shape; otherwise as
    /// [`Layout::eval`] (`Unsupported` for coordinate strides, `Overflow`).
    pub const fn eval_crd(&self, c: &IntTuple) -> Result<i64, Error> {
        if !self.is_integral() {
            return match self.eval_crd_value(c) {
                Ok(Value::F2(v)) => Ok(v as i64),
                Ok(_) => Err(Error::new(
                    Op::Eval,
                    ErrorKind::NeedsIntegerStrides {
                        found: Semimodule::Coordinate,
                    },
                )
                .with(Operand::Layout(*self), Operand::Tuple(*c))),
                Err(e) => Err(e),
            };
        }
        tri!(self.check_crd(c));
        match crd_inner(&self.tree, &self.shape, &self.stride, c) {
            Ok(v) => Ok(v),
            Err(e) => Err(e.or_with(Operand::Layout(*self), Operand::Tuple(*c))),
        }
    }

    const fn check_crd(&self, c: &IntTuple) -> Result<(), Error> {
        if !c.weakly_congruent(&self.shape()) {
            return Err(Error::new(
                Op::Eval,
                ErrorKind::ProfileMismatch {
                    what: "the coordinate is not weakly congruent to the shape",
                    left: c.rank() as i64,
                    right: self.rank() as i64,
                },
            )
            .with(Operand::Layout(*self), Operand::Tuple(*c)));
        }
        Ok(())
    }

    /// `L(i)` in the layout's semimodule: an integer, an F2 value or an arithmetic tuple.
    ///
    /// ```
    /// use cute::{make_identity_layout, Value};
    /// let id = make_identity_layout(&"(4,6)".parse().unwrap()).unwrap();
    /// let v: Value = id.eval_value(5).unwrap();
    /// assert_eq!(v.to_string(), "(1,1)");
    /// ```
    ///
    /// # Errors
    ///
    /// `Overflow` when the value does not fit in `i64`; `Unsupported` for a negative coordinate
    /// entry times a binary (F2) stride (with `i < 0`).
    pub const fn eval_value(&self, i: i64) -> Result<Value, Error> {
        let mut crd = [0i64; CAPACITY];
        let n = self.tree.len();
        let mut rest = i;
        let mut k = 0;
        while k < n {
            if k + 1 == n {
                crd[k] = rest;
            } else {
                crd[k] = rest.rem_euclid(self.shape[k]);
                rest = rest.div_euclid(self.shape[k]);
            }
            k += 1;
        }
        match self.inner_product(&crd) {
            Ok(v) => Ok(v),
            Err(e) => Err(e.or_with(Operand::Layout(*self), Operand::Int(i))),
        }
    }

    /// `L(c)` in the layout's semimodule, for any admissible coordinate `c ≲ S`.
    ///
    /// ```
    /// use cute::make_identity_layout;
    /// let id = make_identity_layout(&"(4,(3,2))".parse().unwrap()).unwrap();
    /// let v = id.eval_crd_value(&"(3,4)".parse().unwrap()).unwrap();
    /// assert_eq!(v.to_string(), "(3,(1,1))");
    /// ```
    ///
    /// # Errors
    ///
    /// `ProfileMismatch` when `c` is not weakly congruent to the shape; `Overflow` when the value
    /// does not fit in `i64`; `Unsupported` for a negative coordinate entry times a binary (F2)
    /// stride.
    pub const fn eval_crd_value(&self, c: &IntTuple) -> Result<Value, Error> {
        tri!(self.check_crd(c));
        let mut crd = [0i64; CAPACITY];
        tri!(natural_leaves(&self.tree, &self.shape, 0, c, &mut crd));
        match self.inner_product(&crd) {
            Ok(v) => Ok(v),
            Err(e) => Err(e.or_with(Operand::Layout(*self), Operand::Tuple(*c))),
        }
    }

    /// `Σ c_k·d_k` over the leaves, in the layout's semimodule.
    pub(crate) const fn inner_product(&self, crd: &[i64; CAPACITY]) -> Result<Value, Error> {
        let n = self.tree.len();
        match self.semimodule() {
            Semimodule::Integer => {
                let mut acc: i64 = 0;
                let mut k = 0;
                while k < n {
                    acc = tri!(add(
                        Op::Eval,
                        acc,
                        tri!(mul(Op::Eval, crd[k], self.stride[k]))
                    ));
                    k += 1;
                }
                Ok(Value::Int(acc))
            }
            Semimodule::Binary => {
                let mut acc: u64 = 0;
                let mut k = 0;
                while k < n {
                    if self.stride[k] != 0 {
                        let t = tri!(self.stride_at(k).scale(crd[k], Op::Eval));
                        acc ^= t.value as u64;
                    }
                    k += 1;
                }
                Ok(Value::F2(acc))
            }
            Semimodule::Coordinate => {
                let mut acc = ArithTuple::ZERO;
                let mut k = 0;
                while k < n {
                    if self.basis[k] > 0 {
                        let v = tri!(mul(Op::Eval, crd[k], self.stride[k]));
                        acc = tri!(acc.add_term(v, self.basis[k], Op::Eval));
                    }
                    k += 1;
                }
                Ok(Value::Coord(acc))
            }
        }
    }

    /// The image `L(Z_|L|)`: every offset reached, sorted, without repetition. Fails with
    /// [`ErrorKind::Overflow`] when an offset may not fit in `i64` (the cosize does not), and with
    /// [`ErrorKind::Capacity`] for a domain of more than [`WALK_LIMIT`] points.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "(2,2):(4,1)".parse().unwrap();
    /// assert_eq!(l.image().unwrap(), vec![0, 1, 4, 5]);
    /// let bcast: Layout = "(2,3):(2,0)".parse().unwrap();
    /// assert_eq!(bcast.image().unwrap(), vec![0, 2]);
    /// ```
    ///
    /// # Errors
    ///
    /// `Capacity` for a domain of more than [`WALK_LIMIT`] points; `Overflow` when an offset may
    /// not fit in `i64`; `Unsupported` (`NeedsIntegerStrides`) for coordinate (`E`) strides.
    pub fn image(&self) -> Result<Vec<i64>, Error> {
        let n = self.size();
        check_walk(Op::Image, n).map_err(|e| e.with(Operand::Layout(*self), Operand::None))?;
        if matches!(self.semimodule(), Semimodule::Binary) {
            let mut out = (0..n)
                .map(|i| self.eval(i))
                .collect::<Result<Vec<_>, _>>()?;
            out.sort_unstable();
            out.dedup();
            return Ok(out);
        }
        self.require_integral(Op::Image)?;
        // every offset lies in (-cosize, cosize): then the wrapping walk below is exact
        self.cosize().map_err(|e| {
            e.retag(Op::Image)
                .or_with(Operand::Layout(*self), Operand::None)
        })?;
        let mut out = Vec::new();
        for_each_offset(self, |o| out.push(o));
        out.sort_unstable();
        out.dedup();
        let _ = n;
        Ok(out)
    }
}

/// The largest domain that the functions listing or walking every point of a layout accept
/// ([`Layout::image`], [`ComposedLayout::values`](crate::ComposedLayout::values),
/// [`ComposedLayout::image`](crate::ComposedLayout::image),
/// [`ComposedLayout::cosize`](crate::ComposedLayout::cosize)): 2^26 points (a 512 MiB list of
/// offsets). Beyond it they fail with [`ErrorKind::Capacity`] instead of allocating without bound
/// or looping for hours.
///
/// ```
/// use cute::{Layout, WALK_LIMIT};
/// let big: Layout = "(8192,8192,2):(1,8192,0)".parse().unwrap(); // 2^27 points
/// assert!(big.size() > WALK_LIMIT);
/// let e = big.image().unwrap_err();
/// assert_eq!(e.category(), "Capacity");
/// assert!(e.to_string().starts_with("image (8192,8192,2):(1,8192,0): capacity exceeded"));
/// ```
pub const WALK_LIMIT: i64 = 1 << 26;

/// `Ok` when a walk over `n` points stays within [`WALK_LIMIT`], else the `Capacity` error of `op`.
pub(crate) const fn check_walk(op: Op, n: i64) -> Result<(), Error> {
    if n > WALK_LIMIT {
        return Err(Error::new(
            op,
            ErrorKind::Capacity {
                what: "points of a domain walked one by one",
                limit: WALK_LIMIT as usize,
            },
        ));
    }
    Ok(())
}

/// Calls `f` with `L(i)` for every `i` in `0..|L|`, in order, by incrementing the natural
/// coordinate (no division).
///
/// ```
/// use cute::{layout::for_each_offset, Layout};
/// let l: Layout = "(2,3):(3,1)".parse().unwrap();
/// let mut offsets = Vec::new();
/// for_each_offset(&l, |o| offsets.push(o));
/// assert_eq!(offsets, vec![0, 3, 1, 4, 2, 5]);
/// ```
pub fn for_each_offset(l: &Layout, mut f: impl FnMut(i64)) {
    let n = l.leaf_count();
    let mut crd = [0i64; CAPACITY];
    let mut off: i64 = 0;
    loop {
        f(off);
        let mut k = 0;
        loop {
            if k == n {
                return;
            }
            crd[k] += 1;
            off = off.wrapping_add(l.stride[k]);
            if crd[k] < l.shape[k] {
                break;
            }
            off = off.wrapping_sub(l.stride[k].wrapping_mul(l.shape[k]));
            crd[k] = 0;
            k += 1;
        }
    }
}

/// Evaluates leaves `[lo,hi)` as a flat colexicographic layout at the integer `i`, the last leaf
/// absorbing the quotient.
pub(crate) const fn eval_leaves(
    shape: &[i64; CAPACITY],
    stride: &[i64; CAPACITY],
    lo: usize,
    hi: usize,
    i: i64,
) -> Result<i64, Error> {
    let mut rest = i;
    let mut acc: i64 = 0;
    let mut k = lo;
    while k < hi {
        let c = if k + 1 == hi {
            rest
        } else {
            let c = rest.rem_euclid(shape[k]);
            rest = rest.div_euclid(shape[k]);
            c
        };
        acc = tri!(add(Op::Eval, acc, tri!(mul(Op::Eval, c, stride[k]))));
        k += 1;
    }
    Ok(acc)
}

/// Inner product of a weakly congruent coordinate with the sub-layout `t`.
const fn crd_inner(
    t: &Tree,
    shape: &[i64; CAPACITY],
    stride: &[i64; CAPACITY],
    c: &IntTuple,
) -> Result<i64, Error> {
    if c.is_int() {
        return eval_leaves(shape, stride, 0, t.len(), c.val[0]);
    }
    let r = t.rank();
    let mut acc: i64 = 0;
    let mut k = 0;
    while k < r {
        let (tt, ts, td) = tri!(parts::get(t, shape, stride, k));
        let ck = tri!(c.get(k));
        acc = tri!(add(Op::Eval, acc, tri!(crd_inner(&tt, &ts, &td, &ck))));
        k += 1;
    }
    Ok(acc)
}

/// Spreads the weakly congruent coordinate `c` over the leaves of the sub-tree `t` (leaves start
/// at `base` of `shape`), writing the natural coordinate of every leaf into `out`.
const fn natural_leaves(
    t: &Tree,
    shape: &[i64; CAPACITY],
    base: usize,
    c: &IntTuple,
    out: &mut [i64; CAPACITY],
) -> Result<(), Error> {
    if c.is_int() {
        let n = t.len();
        let mut rest = c.val[0];
        let mut k = 0;
        while k < n {
            if k + 1 == n {
                out[base + k] = rest;
            } else {
                out[base + k] = rest.rem_euclid(shape[base + k]);
                rest = rest.div_euclid(shape[base + k]);
            }
            k += 1;
        }
        return Ok(());
    }
    let r = t.rank();
    let mut k = 0;
    while k < r {
        let (lo, sub) = tri!(sub_tree(t, k, Op::Eval));
        let ck = tri!(c.get(k));
        tri!(natural_leaves(&sub, shape, base + lo, &ck, out));
        k += 1;
    }
    Ok(())
}
