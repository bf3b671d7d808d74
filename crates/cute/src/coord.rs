//! Coordinates: the colexicographic bijections `idx2crd` and `crd2idx` of the paper's formulas (1)
//! and (2), and `crd2crd` between compatible shapes.
//!
//! | call | result |
//! |---|---|
//! | `idx2crd(22, (4,8))` | `(2,5)` |
//! | `idx2crd(22, ((2,2),(4,2)))` | `((0,1),(1,1))` |
//! | `idx2crd(36, (5,4))` | `(1,7)` (out of bounds: the last mode is not reduced) |
//! | `crd2idx((2,5), (4,8))` | `22` |
//!
//! ```
//! use cute::{idx2crd, crd2idx, IntTuple};
//! let t = |s: &str| s.parse::<IntTuple>().unwrap();
//! assert_eq!(idx2crd(&t("22"), &t("((2,2),(4,2))")).unwrap(), t("((0,1),(1,1))"));
//! assert_eq!(idx2crd(&t("36"), &t("(5,4)")).unwrap(), t("(1,7)"));
//! assert_eq!(crd2idx(&t("(2,5)"), &t("(4,8)"), &t("(1,4)")).unwrap(), 22);
//! ```

use crate::error::{tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::{IntTuple, CAPACITY};
use crate::layout::Layout;

/// `idx2crd(c, S)`: the natural coordinate (congruent to `S`) of the coordinate `c ≲ S` (every entry
/// of `S` positive, else an error of kind [`ErrorKind::InvalidShape`]). Integer
/// entries of `c` are spread colexicographically over their sub-shape; the last leaf absorbs what is
/// left, so coordinates past the size come out of bounds in the last mode (floor division for
/// negative entries).
///
/// ```
/// use cute::{idx2crd, IntTuple};
/// let shape: IntTuple = "(2,(3,4))".parse().unwrap();
/// assert_eq!(idx2crd(&IntTuple::int(5), &shape).unwrap().to_string(), "(1,(2,0))");
/// assert_eq!(idx2crd(&"(1,5)".parse().unwrap(), &shape).unwrap().to_string(), "(1,(2,1))");
/// let e = idx2crd(&"(1,2,3)".parse().unwrap(), &shape).unwrap_err();
/// assert_eq!(e.to_string(), "idx2crd (1,2,3), (2,(3,4)): the coordinate is not weakly congruent to the shape (3 vs 2)");
/// ```
///
/// # Errors
///
/// `ProfileMismatch` when `c` is not weakly congruent to `S`; `InvalidShape` for an entry of `S`
/// below 1.
pub const fn idx2crd(c: &IntTuple, shape: &IntTuple) -> Result<IntTuple, Error> {
    if !c.weakly_congruent(shape) {
        return Err(Error::new(
            Op::Idx2Crd,
            ErrorKind::ProfileMismatch {
                what: "the coordinate is not weakly congruent to the shape",
                left: c.rank() as i64,
                right: shape.rank() as i64,
            },
        )
        .with(Operand::Tuple(*c), Operand::Tuple(*shape)));
    }
    // A shape entry below 1 has no coordinates (and 0 would divide by zero below).
    let mut k = 0;
    while k < shape.tree.len() {
        if shape.val[k] < 1 {
            return Err(Error::new(
                Op::Idx2Crd,
                ErrorKind::InvalidShape {
                    value: shape.val[k],
                },
            )
            .with(Operand::Tuple(*c), Operand::Tuple(*shape)));
        }
        k += 1;
    }
    let mut out = [0i64; CAPACITY];
    tri!(spread(c, shape, 0, &mut out));
    Ok(IntTuple::from_parts(shape.tree, out))
}

/// Writes the natural coordinate of `c` in the sub-shape `s` (whose first leaf is leaf `base` of the
/// whole shape) into `out`.
const fn spread(
    c: &IntTuple,
    s: &IntTuple,
    base: usize,
    out: &mut [i64; CAPACITY],
) -> Result<(), Error> {
    if c.is_int() {
        let n = s.tree.len();
        let mut rest = c.val[0];
        let mut i = 0;
        while i < n {
            if i + 1 == n {
                out[base + i] = rest;
            } else {
                out[base + i] = rest.rem_euclid(s.val[i]);
                rest = rest.div_euclid(s.val[i]);
            }
            i += 1;
        }
        return Ok(());
    }
    // (mode `k` starts at leaf `lo`, the modes walked in order)
    let (r, mut lo) = (s.rank(), 0);
    let mut k = 0;
    while k < r {
        tri!(spread(&tri!(c.get(k)), &tri!(s.get(k)), base + lo, out));
        lo = s.tree.mode_end(lo);
        k += 1;
    }
    Ok(())
}

/// `crd2idx(c, S, D)`: the inner product of the coordinate `c ≲ S` (refined to `S`) with the stride
/// `D ~ S`. With `D` the compact column-major stride this is the paper's formula (2).
///
/// ```
/// use cute::{crd2idx, IntTuple};
/// let (s, d): (IntTuple, IntTuple) = ("(4,8)".parse().unwrap(), "(8,1)".parse().unwrap());
/// assert_eq!(crd2idx(&"(1,2)".parse().unwrap(), &s, &d).unwrap(), 10);
/// let s: IntTuple = "((2,2),(4,2))".parse().unwrap();
/// let d: IntTuple = "((1,8),(2,16))".parse().unwrap();
/// assert_eq!(crd2idx(&IntTuple::int(23), &s, &d).unwrap(), 27);
/// ```
///
/// # Errors
///
/// The errors of [`Layout::new`] for `S` and `D` (not congruent, an entry of `S` below 1), and of
/// [`Layout::eval_crd`] for `c` (not weakly congruent to `S`, `Overflow`).
pub const fn crd2idx(c: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> Result<i64, Error> {
    let l = match Layout::new(shape, stride) {
        Ok(l) => l,
        Err(e) => return Err(e.retag(Op::Crd2Idx)),
    };
    match l.eval_crd(c) {
        Ok(v) => Ok(v),
        Err(e) => Err(e.retag(Op::Crd2Idx)),
    }
}

/// `crd2idx(c, S)` (CuTe's two-argument `crd2idx`): the integer coordinate of `c`, the inner product
/// of `c` (refined to `S`) with the exclusive prefix products of `S`. Unlike
/// [`compact_col_major`](crate::compact_col_major), a size-1 mode keeps its prefix product as its stride, so that this is the
/// inverse of [`idx2crd`] on the whole extended domain: `crd2idx((1,2), (6,1)) = 13`, as in CuTe.
///
/// ```
/// use cute::crd2idx_compact;
/// let c = "(1,2)".parse().unwrap();
/// assert_eq!(crd2idx_compact(&c, &"(6,1)".parse().unwrap()).unwrap(), 13);
/// let c = "(1,(2,0))".parse().unwrap();
/// assert_eq!(crd2idx_compact(&c, &"(2,(3,4))".parse().unwrap()).unwrap(), 5);
/// ```
///
/// # Errors
///
/// `Overflow` when a prefix product of `S` does not fit in `i64`, and the errors of [`crd2idx`].
pub const fn crd2idx_compact(c: &IntTuple, shape: &IntTuple) -> Result<i64, Error> {
    let stride = match shape.prefix_product() {
        Ok(d) => d,
        Err(e) => {
            return Err(e
                .retag(Op::Crd2Idx)
                .or_with(Operand::Tuple(*c), Operand::Tuple(*shape)))
        }
    };
    match crd2idx(c, shape, &stride) {
        Ok(v) => Ok(v),
        Err(e) => Err(e.or_with(Operand::Tuple(*c), Operand::Tuple(*shape))),
    }
}

/// `crd2crd(c, S, T)`: the coordinate `c` of shape `S` as a coordinate of the compatible shape `T`
/// (mode by mode where both are tuples, through the integer coordinate otherwise).
///
/// ```
/// use cute::{crd2crd, IntTuple};
/// let src: IntTuple = "(2,(3,4))".parse().unwrap();
/// let dst: IntTuple = "(2,12)".parse().unwrap();
/// let c = crd2crd(&"(1,(2,1))".parse().unwrap(), &src, &dst).unwrap();
/// assert_eq!(c.to_string(), "(1,5)");
/// let c = crd2crd(&IntTuple::int(5), &"24".parse().unwrap(), &src).unwrap();
/// assert_eq!(c.to_string(), "(1,(2,0))");
/// ```
///
/// # Errors
///
/// `ProfileMismatch` when `c`, `S` and `T` are tuples of different ranks, and the errors of
/// [`crd2idx_compact`] and [`idx2crd`] on the way through the integer coordinate.
pub const fn crd2crd(c: &IntTuple, src: &IntTuple, dst: &IntTuple) -> Result<IntTuple, Error> {
    if !c.is_int() && !dst.is_int() {
        let r = c.rank();
        if r != src.rank() || r != dst.rank() {
            return Err(Error::new(
                Op::Crd2Crd,
                ErrorKind::ProfileMismatch {
                    what: "ranks differ",
                    left: src.rank() as i64,
                    right: dst.rank() as i64,
                },
            )
            .with(Operand::Tuple(*src), Operand::Tuple(*dst)));
        }
        let mut modes = [IntTuple::int(0); CAPACITY];
        let mut k = 0;
        while k < r {
            modes[k] = tri!(crd2crd(
                &tri!(c.get(k)),
                &tri!(src.get(k)),
                &tri!(dst.get(k))
            ));
            k += 1;
        }
        let (m, _) = modes.split_at(r);
        return IntTuple::tuple(m);
    }
    let i = tri!(crd2idx_compact(c, src));
    idx2crd(&IntTuple::int(i), dst)
}
