//! Right and left inverses of symbolic layouts (CUTLASS #3471).

use super::error::SymError;
use super::expr::{Mono, Tri};
use super::layout::{SymLayout, SymStride};
use super::ops::{coalesce_modes, complement_in, sort_by_stride, Ctx};

/// The chain of `l`'s modes that starts at stride 1 and continues where each stride is the
/// extent of the one before: `(shape, stride, stride in l's domain)`.
fn chain(ctx: &Ctx, l: &SymLayout) -> Result<Vec<(Mono, SymStride)>, SymError> {
    let flat = coalesce_modes(ctx, l.flat())?;
    let mut modes: Vec<(Mono, Mono, Mono)> = Vec::new();
    let mut prefix = Mono::int(1);
    for (s, d) in flat {
        if d.axis.is_some() {
            return Err(ctx.unsupported("basis strides"));
        }
        if !d.m.is_zero() && ctx.above_one(&s)? {
            if d.m.num < 0 {
                return Err(ctx.unsupported("negative strides"));
            }
            modes.push((s.clone(), d.m.clone(), prefix.clone()));
        }
        prefix = ctx.mul(&prefix, &s)?;
    }
    sort_by_stride(ctx, &mut modes, |x| &x.1)?;
    let mut cur = Mono::int(1);
    let mut out = Vec::new();
    for (s, d, r) in modes {
        match cur.equals(&d) {
            Tri::Yes => {
                cur = ctx.mul(&s, &d)?;
                out.push((s, SymStride::int(r)));
            }
            Tri::No => break,
            Tri::Depends => {
                return Err(ctx.needs(
                    &[&d, &cur],
                    format!("to know whether {d} equals {cur} (it decides the inverse's size)"),
                ))
            }
        }
    }
    coalesce_modes(ctx, out)
}

/// `right_inverse(L)`: the largest `R` of CuTe's chained form with `L(R(k)) = k` for every
/// `k < |R|` and every admissible value of the unknowns.
///
/// # Errors
///
/// `Condition` where the order of strides, or whether a stride continues the chain, depends on
/// an unknown; `Unsupported` for negative or basis strides.
///
/// ```
/// use cute::symbolic::{right_inverse, SymLayout};
/// let l: SymLayout = "(16,N):(1,16)".parse().unwrap(); // CUTLASS #3471
/// assert_eq!(right_inverse(&l).unwrap().to_string(), "16*N:1");
/// let l: SymLayout = "(M,4):(4,1)".parse().unwrap();
/// assert_eq!(right_inverse(&l).unwrap().to_string(), "(4,M):(M,1)");
/// ```
pub fn right_inverse(l: &SymLayout) -> Result<SymLayout, SymError> {
    let ctx = Ctx::new("right_inverse", &[l]);
    Ok(SymLayout::from_modes(chain(&ctx, l)?))
}

/// `left_inverse(L)`: `R` with `R(L(i)) = i` for every `i < |L|` and every admissible value of
/// the unknowns, built as the right inverse of `(L, L*)` (PyCuTe's construction).
///
/// # Errors
///
/// As [`complement`](super::complement) (the strides must form a divisible chain) and
/// [`right_inverse`].
///
/// ```
/// use cute::symbolic::{left_inverse, SymLayout};
/// let l: SymLayout = "(4,M):(M{div=4},1)".parse().unwrap();
/// assert_eq!(left_inverse(&l).unwrap().to_string(), "(M{div=4},4):(4,1)");
/// ```
pub fn left_inverse(l: &SymLayout) -> Result<SymLayout, SymError> {
    let ctx = Ctx::new("left_inverse", &[l]);
    for (s, d) in l.flat() {
        if d.m.is_zero() && !s.is_one() {
            // a stride-0 mode of extent above 1 repeats offsets: no left inverse
            return Err(ctx.needs(
                &[&s],
                format!("{s} = 1 (a mode of stride 0 makes the layout non-injective otherwise)"),
            ));
        }
    }
    let c = complement_in(&ctx, l, None)?;
    let both = SymLayout::tuple(vec![l.clone(), c]);
    Ok(SymLayout::from_modes(chain(&ctx, &both)?))
}
