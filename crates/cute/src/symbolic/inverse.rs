//! Right and left inverses of symbolic layouts (CUTLASS #3471).

use super::error::SymError;
use super::expr::{Mono, Tri};
use super::layout::{SymLayout, SymStride};
use super::ops::{coalesce_modes, complement_in, Ctx, Form};

/// The chain of `l`'s modes that starts at stride 1 and continues where a stride is the extent
/// reached so far (CuTe's construction: at each step the first mode, in order, whose stride
/// equals it), as `(shape, stride in l's domain)`. In the `uniform` form a mode whose stride
/// equals the extent reached only for some admissible values does not continue the chain, nor
/// does a mode that merges with the one before it only for some (the integer construction
/// coalesces first: at those values the merged mode hides its stride).
fn chain(ctx: &Ctx, l: &SymLayout) -> Result<Vec<(Mono, SymStride)>, SymError> {
    let flat = coalesce_strict(ctx, l.flat())?;
    let mut modes: Vec<Option<(Mono, Mono, Mono)>> = Vec::new();
    let mut merges = Vec::new(); // whether mode k merges with mode k - 1 for some values
    let mut prefix = Mono::int(1);
    for (s, d, may_merge) in flat {
        if d.axis.is_some() {
            return Err(ctx.unsupported("basis strides"));
        }
        if d.m.num < 0 {
            return Err(ctx.unsupported("negative strides"));
        }
        modes.push(Some((s.clone(), d.m.clone(), prefix.clone())));
        merges.push(may_merge);
        prefix = ctx.mul(&prefix, &s)?;
    }
    let mut cur = Mono::int(1);
    let mut out = Vec::new();
    loop {
        let mut found = None;
        for (k, slot) in modes.iter().enumerate() {
            let Some((s, d, _)) = slot else { continue };
            match cur.equals(d) {
                Tri::Yes if found.is_some() => {
                    // two modes at the same stride: which continues the chain best is the
                    // integer library's search, not done here
                    return Err(ctx.unsupported(
                        "two modes with the same stride (a layout that is not injective)",
                    ));
                }
                Tri::Yes => found = Some(k),
                Tri::No => {}
                Tri::Depends if ctx.form.uniform => {}
                Tri::Depends => {
                    let (s, d) = (s.clone(), d.clone());
                    return Err(ctx.needs(
                        &[&d, &cur, &s],
                        format!("to know whether {d} equals {cur} (it decides the inverse)"),
                    ));
                }
            }
        }
        let Some((s, d, r)) = found.filter(|&k| !merges[k]).and_then(|k| modes[k].take()) else {
            break;
        };
        cur = ctx.mul(&s, &d)?;
        out.push((s, SymStride::int(r)));
    }
    coalesce_modes(ctx, out)
}

/// Coalesces like [`coalesce_modes`], refusing where whether two modes merge depends on an
/// unknown: the inverse's construction reads the merged modes. In the `uniform` form such modes
/// stay apart, the later one marked (`true`): the chain stops before it, for every admissible
/// value.
fn coalesce_strict(
    ctx: &Ctx,
    modes: Vec<(Mono, SymStride)>,
) -> Result<Vec<(Mono, SymStride, bool)>, SymError> {
    let mut out: Vec<(Mono, SymStride, bool)> = Vec::new();
    for (s, d) in modes {
        if s.is_one() {
            continue; // (a mode that may be 1 stays: found by its stride or skipped, as if dropped)
        }
        let mut may_merge = false;
        if let Some((ps, pd, _)) = out.last_mut() {
            let next = ctx.mul(ps, &pd.m)?;
            match (
                pd.axis == d.axis && ctx.may_merge(ps, &s),
                next.equals(&d.m),
            ) {
                (true, Tri::Yes) => {
                    *ps = ctx.mul(ps, &s)?;
                    continue;
                }
                (true, Tri::Depends) if !ctx.form.uniform => {
                    return Err(ctx.needs(
                        &[&next, &d.m],
                        format!("to know whether {} equals {next} (modes merge then)", d.m),
                    ))
                }
                (true, Tri::Depends) => may_merge = true,
                _ => {}
            }
        }
        out.push((s, d, may_merge));
    }
    Ok(out)
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
    right_inverse_with(l, Form::default())
}

/// `right_inverse(L)` in the form `form`: with `uniform`, the largest `R` of the chained form
/// with `L(R(k)) = k` for every `k < |R|` and every admissible value at once (no refusal where
/// the chain's continuation depends on an unknown: it stops there); with `static_apart`, static
/// extents and extents with unknowns stay in separate modes (PyCuTe's form).
///
/// # Errors
///
/// As [`right_inverse`]; with `uniform`, only `Unsupported` (negative or basis strides, two
/// modes at one stride) and overflow.
///
/// ```
/// use cute::symbolic::{right_inverse_with, Form, SymLayout};
/// let pycute = Form { static_apart: true, uniform: true, ..Form::default() };
/// let l: SymLayout = "(N,4):(1,N)".parse().unwrap();
/// assert_eq!(right_inverse_with(&l, pycute).unwrap().to_string(), "(N,4):(1,N)");
/// let l: SymLayout = "N:X".parse().unwrap(); // X may be 1 or not: only 0 maps back for all X
/// assert_eq!(right_inverse_with(&l, pycute).unwrap().to_string(), "1:0");
/// ```
pub fn right_inverse_with(l: &SymLayout, form: Form) -> Result<SymLayout, SymError> {
    let ctx = Ctx::new("right_inverse", &[l]).in_form(form);
    Ok(SymLayout::from_modes(chain(&ctx, l)?))
}

/// `left_inverse(L)`: `R` with `R(L(i)) = i` for every `i < |L|` and every admissible value of
/// the unknowns, built as the right inverse of `(L, L*)` (PyCuTe's construction). Offsets that
/// `L` does not reach go where the complement sends them (`4:2` gives `(2,4):(4,1)`); the
/// integer [`left_inverse`](crate::left_inverse) follows C++ there, stride 0 (`(2,4):(0,1)`).
/// Both are left inverses; they differ only off `L`'s image.
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
            if s.as_int().is_some() {
                return Err(ctx.fail(super::error::Reason::Static(format!(
                    "the layout is not injective: a mode of extent {s} and stride 0 repeats \
                     offsets, so no R has R(L(i)) = i for every i"
                ))));
            }
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
