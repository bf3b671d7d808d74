//! Slicing symbolic layouts by a partial coordinate (`_` marks a free entry): `slice` keeps the
//! sub-layouts of the free entries, `dice` those of the fixed ones. Neither computes with the
//! extents; a fixed entry `v` is only checked to lie in its mode's domain (`v < size`) for every
//! admissible value of the unknowns, or the operation names the condition.

use super::error::{Reason, SymError};
use super::expr::{Mono, Tri};
use super::layout::SymLayout;
use super::ops::Ctx;
use crate::PartialCoord;

/// Walks `c` over `l`, pushing the free sub-layouts to `keep` and the fixed ones to `drop`.
fn walk(
    ctx: &Ctx,
    l: &SymLayout,
    c: &PartialCoord,
    keep: &mut Vec<SymLayout>,
    drop: &mut Vec<SymLayout>,
) -> Result<(), SymError> {
    if c.is_leaf() {
        if c.is_free() {
            keep.push(l.clone());
            return Ok(());
        }
        let v = c.tuple.as_int().unwrap_or(0);
        let n = l.size();
        let inside = match v.checked_add(1) {
            Some(w) if v >= 0 => Mono::int(w).le(&n),
            _ => Tri::No,
        };
        match inside {
            Tri::Yes => {}
            Tri::No => {
                return Err(ctx.fail(Reason::Static(format!(
                    "coordinate {v} is outside the domain Z_{n} for every value"
                ))))
            }
            Tri::Depends => {
                return Err(ctx.needs(
                    &[&n],
                    format!("{n} > {v} (coordinate {v} in the domain Z_{n})"),
                ))
            }
        }
        drop.push(l.clone());
        return Ok(());
    }
    let modes = l.modes();
    if l.is_leaf() {
        return Err(ctx.fail(Reason::Static(format!(
            "a tuple entry of the slicing coordinate (rank {}) meets the single mode {l}, where \
             an integer or `_` goes",
            c.rank()
        ))));
    }
    if modes.len() != c.rank() {
        return Err(ctx.fail(Reason::Static(format!(
            "a tuple entry of the slicing coordinate (rank {}) must meet a mode of the same rank \
             (rank {})",
            c.rank(),
            if l.is_leaf() { 1 } else { modes.len() }
        ))));
    }
    for (k, m) in modes.iter().enumerate() {
        let ck = c
            .get(k)
            .map_err(|e| ctx.fail(Reason::Static(e.to_string())))?;
        walk(ctx, m, &ck, keep, drop)?;
    }
    Ok(())
}

/// The free and the fixed parts, each joined as the integer `slice` and `dice` join them: none
/// is `1:0`, one under a top-level leaf coordinate is that layout, else the tuple of the parts.
fn split(op: &'static str, l: &SymLayout, c: &PartialCoord) -> Result<[SymLayout; 2], SymError> {
    let ctx = Ctx::with_tail(op, l, c.to_string());
    let (mut keep, mut drop) = (Vec::new(), Vec::new());
    walk(&ctx, l, c, &mut keep, &mut drop)?;
    let join = |mut v: Vec<SymLayout>| match v.len() {
        0 => SymLayout::from_modes(Vec::new()),
        1 if c.is_leaf() => v.remove(0),
        _ => SymLayout::tuple(v),
    };
    Ok([join(keep), join(drop)])
}

/// `slice(c, L)`: the sub-layouts of the modes where `c` is `_`, in order (`1:0` when nothing is
/// free), as the integer [`slice`](crate::slice()) gives at every admissible value.
///
/// # Errors
///
/// `Condition` where a fixed entry lies in its mode's domain only for some values (naming the
/// extent and the bound); `Divisibility` (the integer algebra's refusal, for every value) for a
/// fixed entry outside the domain or a coordinate not congruent to the layout.
///
/// ```
/// use cute::symbolic::{slice, SymLayout};
/// let l: SymLayout = "((2,M),(4,N)):((1,2),(2*M,8*M))".parse().unwrap();
/// assert_eq!(slice(&l, &"(1,_)".parse().unwrap()).unwrap().to_string(), "((4,N)):((2*M,8*M))");
/// assert_eq!(slice(&l, &"((_,0),(3,_))".parse().unwrap()).unwrap().to_string(), "(2,N):(1,8*M)");
/// let e = slice(&l, &"((_,3),_)".parse().unwrap()).unwrap_err();
/// assert!(e.to_string().contains("needs M > 3"), "{e}");
/// let l: SymLayout = "(8,M{min=4}):(1,8)".parse().unwrap();
/// assert_eq!(slice(&l, &"(_,3)".parse().unwrap()).unwrap().to_string(), "(8):(1)");
/// ```
pub fn slice(l: &SymLayout, c: &PartialCoord) -> Result<SymLayout, SymError> {
    let [keep, _] = split("slice", l, c)?;
    Ok(keep)
}

/// `dice(c, L)`: the sub-layouts of the modes where `c` is an integer, in order (`1:0` when every
/// entry is free), as the integer [`dice`](crate::dice()) gives at every admissible value.
///
/// # Errors
///
/// As [`slice()`].
///
/// ```
/// use cute::symbolic::{dice, SymLayout};
/// let l: SymLayout = "(4,M,2):(1,4,4*M)".parse().unwrap();
/// assert_eq!(dice(&l, &"(1,_,0)".parse().unwrap()).unwrap().to_string(), "(4,2):(1,4*M)");
/// ```
pub fn dice(l: &SymLayout, c: &PartialCoord) -> Result<SymLayout, SymError> {
    let [_, drop] = split("dice", l, c)?;
    Ok(drop)
}
