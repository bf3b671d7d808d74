//! Evaluating a layout with unknown extents at a coordinate: `L(c) = Σ c_i·d_i` over the
//! natural coordinate of `c`, a sum of products of the unknowns ([`SymOffset`]).
//!
//! As for integer layouts ([`Layout::eval_crd`](crate::Layout::eval_crd)), an integer entry
//! of `c` at a tuple mode is spread over that mode colexicographically with its last sub-mode
//! not reduced, and the entries of a natural coordinate are taken as given (CuTe's `crd2idx`).
//! Spreading divides by extents: where an extent is unknown, the quotient and remainder are
//! known only when the entry is below the extent for every admissible value; otherwise the
//! evaluation names that condition.

use super::error::{Reason, SymError};
use super::expr::{Mono, Tri};
use super::layout::{SymLayout, SymStride, Tree};
use super::ops::Ctx;
use crate::IntTuple;

/// An offset of a layout with unknown extents: a sum of products of the unknowns (like terms
/// merged, no zero term), printed `5+4*M`.
///
/// ```
/// use cute::symbolic::{eval, SymLayout};
/// let l: SymLayout = "(4,M):(M,1)".parse().unwrap();
/// let o = eval(&l, &"(3,5)".parse().unwrap()).unwrap();
/// assert_eq!(o.to_string(), "5+3*M");
/// assert_eq!(o.as_int(), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymOffset {
    pub(crate) terms: Vec<Mono>,
}

impl SymOffset {
    /// The offset when it is an integer known now.
    ///
    /// ```
    /// use cute::symbolic::{eval, SymLayout};
    /// let l: SymLayout = "(4,M):(1,4)".parse().unwrap();
    /// assert_eq!(eval(&l, &"(3,0)".parse().unwrap()).unwrap().as_int(), Some(3));
    /// ```
    pub fn as_int(&self) -> Option<i64> {
        match self.terms.as_slice() {
            [] => Some(0),
            [m] => m.as_int(),
            _ => None,
        }
    }

    /// The terms, the static one first, each product of unknowns once.
    ///
    /// ```
    /// use cute::symbolic::{eval, SymLayout};
    /// let l: SymLayout = "(2,M,N):(M,1,M*N)".parse().unwrap();
    /// let o = eval(&l, &"(1,3,2)".parse().unwrap()).unwrap();
    /// let t: Vec<String> = o.terms().iter().map(|m| m.to_string()).collect();
    /// assert_eq!(t, ["3", "M", "2*M*N"]);
    /// ```
    pub fn terms(&self) -> &[Mono] {
        &self.terms
    }

    /// The integer offset for the unknowns' values given by `value` (the offset of
    /// [`SymLayout::substitute`]'s layout), `None` on overflow or an inadmissible value.
    ///
    /// ```
    /// use cute::symbolic::{eval, SymLayout};
    /// let l: SymLayout = "(4,M):(M,1)".parse().unwrap();
    /// let o = eval(&l, &"(3,5)".parse().unwrap()).unwrap();
    /// assert_eq!(o.substitute(&|_| 16), Some(53));
    /// ```
    pub fn substitute(&self, value: &dyn Fn(&super::Sym) -> i64) -> Option<i64> {
        self.terms
            .iter()
            .try_fold(0i64, |acc, m| acc.checked_add(m.eval(value)?))
    }

    /// Adds `m`, merging it with the term of the same unknowns; `None` on overflow.
    fn add(&mut self, m: Mono) -> Option<()> {
        if m.is_zero() {
            return Some(());
        }
        match self.terms.iter().position(|t| t.syms == m.syms) {
            Some(i) => {
                let sum = self.terms[i].add_like(&m)?;
                if sum.is_zero() {
                    self.terms.remove(i);
                } else {
                    self.terms[i] = sum;
                }
            }
            None => {
                self.terms.push(m);
                // the static term first, then by the unknowns (a stable print)
                self.terms
                    .sort_by(|a, b| (!a.is_static(), &a.syms).cmp(&(!b.is_static(), &b.syms)));
            }
        }
        Some(())
    }
}

/// `L(c)`: the offset of the layout `l` with unknown extents at the coordinate `c` (an integer
/// index, or a natural or partially collapsed coordinate weakly congruent with the shape).
///
/// ```
/// use cute::symbolic::{eval, SymLayout};
/// let l: SymLayout = "(4,(M,2)):(1,(4,4*M))".parse().unwrap();
/// assert_eq!(eval(&l, &"(1,(2,1))".parse().unwrap()).unwrap().to_string(), "9+4*M");
/// // an index spreads over the modes: 13 = (1,3), the last mode not reduced
/// assert_eq!(eval(&"(4,M):(1,4)".parse().unwrap(), &"13".parse().unwrap()).unwrap().to_string(), "13");
/// // ... but across an unknown extent only where the index is below it for every value
/// let e = eval(&"(M,4):(1,M)".parse().unwrap(), &"13".parse().unwrap()).unwrap_err();
/// assert_eq!(e.category(), "Condition");
/// assert!(e.to_string().contains("needs M > 13"), "{e}");
/// let ok = eval(&"(M{min=16},4):(1,M)".parse().unwrap(), &"13".parse().unwrap()).unwrap();
/// assert_eq!(ok.to_string(), "13");
/// ```
///
/// # Errors
///
/// `Condition` where spreading an integer entry over an unknown extent depends on its value;
/// `Divisibility` (the integer algebra's refusal) for a coordinate not weakly congruent with the
/// shape; `Unsupported` for coordinate (`E`) strides, and for a negative entry spread over an
/// unknown extent (its floor division depends on the value); `Overflow` past 64 bits.
pub fn eval(l: &SymLayout, c: &IntTuple) -> Result<SymOffset, SymError> {
    let ctx = Ctx::with_tail("eval", l, c.to_string());
    let mut out = SymOffset { terms: Vec::new() };
    walk(&ctx, &l.shape, &l.stride, c, &mut out)?;
    Ok(out)
}

/// Adds `L(c)` of the sub-layout `shape:stride` to `out`.
fn walk(
    ctx: &Ctx,
    shape: &Tree<Mono>,
    stride: &Tree<SymStride>,
    c: &IntTuple,
    out: &mut SymOffset,
) -> Result<(), SymError> {
    match (shape, stride, c.as_int()) {
        (Tree::Leaf(_), Tree::Leaf(d), Some(v)) => {
            if d.axis.is_some() {
                return Err(ctx.fail(Reason::Unsupported(
                    "coordinate (E) strides (their offsets are coordinates, not integers)".into(),
                )));
            }
            let term = d.m.mul_int(v).ok_or_else(|| ctx.fail(Reason::Overflow))?;
            out.add(term).ok_or_else(|| ctx.fail(Reason::Overflow))
        }
        (Tree::Node(ss), Tree::Node(ds), Some(v)) => {
            // spread v over the modes, the last not reduced
            let mut rest = v;
            for (k, (s, d)) in ss.iter().zip(ds).enumerate() {
                let ck = if k + 1 == ss.len() {
                    rest
                } else {
                    let (q, r) = spread(ctx, &size(ctx, s)?, rest)?;
                    rest = q;
                    r
                };
                walk(ctx, s, d, &IntTuple::int(ck), out)?;
            }
            Ok(())
        }
        (Tree::Node(ss), Tree::Node(ds), None) if ss.len() == c.rank() => {
            for (k, (s, d)) in ss.iter().zip(ds).enumerate() {
                let ck = c
                    .get(k)
                    .map_err(|e| ctx.fail(Reason::Static(e.to_string())))?;
                walk(ctx, s, d, &ck, out)?;
            }
            Ok(())
        }
        _ => Err(ctx.fail(Reason::Static(format!(
            "the coordinate {c} is not weakly congruent with the shape {}",
            shape_text(shape)
        )))),
    }
}

/// `(v div s, v mod s)` for the extent `s`: floor division where `s` is an integer, and where it
/// has unknowns, `(0, v)` when `0 <= v < s` for every admissible value.
fn spread(ctx: &Ctx, s: &Mono, v: i64) -> Result<(i64, i64), SymError> {
    if let Some(n) = s.as_int() {
        return Ok((v.div_euclid(n), v.rem_euclid(n)));
    }
    if v == 0 {
        return Ok((0, 0));
    }
    if v < 0 {
        return Err(ctx.fail(Reason::Unsupported(format!(
            "the negative index {v} spread over the unknown extent {s} (its floor division \
             depends on the value)"
        ))));
    }
    let above = v.checked_add(1).map_or(Tri::No, |w| Mono::int(w).le(s));
    match above {
        Tri::Yes => Ok((0, v)),
        _ => Err(ctx.needs(
            &[s],
            format!("{s} > {v} (the index {v} within the extent {s})"),
        )),
    }
}

/// The size of a sub-shape.
fn size(ctx: &Ctx, s: &Tree<Mono>) -> Result<Mono, SymError> {
    s.leaves()
        .into_iter()
        .try_fold(Mono::int(1), |acc, x| acc.mul(x))
        .ok_or_else(|| ctx.fail(Reason::Overflow))
}

/// A sub-shape as printed.
fn shape_text(s: &Tree<Mono>) -> String {
    match s {
        Tree::Leaf(m) => m.to_string(),
        Tree::Node(v) => format!(
            "({})",
            v.iter().map(shape_text).collect::<Vec<_>>().join(",")
        ),
    }
}
