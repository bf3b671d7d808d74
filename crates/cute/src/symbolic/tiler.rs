//! Tilers by mode, `<B0,B1,_>`, for the divides of symbolic layouts: mode `i` of A is divided by
//! `Bi` (`_` keeps it whole), the modes past the tiler stay.

use super::derived::divide_parts;
use super::error::{Reason, SymError};
use super::layout::{unify, SymLayout};
use super::ops::Ctx;
use core::fmt;
use core::str::FromStr;

/// A tiler by mode `<B0,B1,…>`: one symbolic layout per mode of the divided layout, `None` for
/// `_` (the mode is kept whole).
///
/// ```
/// use cute::symbolic::SymTiler;
/// let t: SymTiler = "<128:1, _, M{div=8}:1>".parse().unwrap();
/// assert_eq!(t.to_string(), "<128:1,_,M{div=8}:1>");
/// assert!("<4:1".parse::<SymTiler>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymTiler(pub Vec<Option<SymLayout>>);

impl FromStr for SymTiler {
    type Err = SymError;

    /// Reads `<item,item,…>`, each item a symbolic layout or `_`.
    ///
    /// # Errors
    ///
    /// Text that is not such a tiler (category `Syntax`); a nested tiler is `Unsupported`.
    ///
    /// ```
    /// use cute::symbolic::SymTiler;
    /// assert_eq!("<4:1,_>".parse::<SymTiler>().unwrap().0.len(), 2);
    /// ```
    fn from_str(text: &str) -> Result<SymTiler, SymError> {
        let syntax = |pos: usize, expected: &str| {
            SymError::new(
                "parse",
                String::new(),
                Reason::Syntax {
                    pos,
                    expected: expected.into(),
                },
            )
        };
        let t = text.trim_end();
        let start = text.len() - text.trim_start().len();
        let inner = t
            .trim_start()
            .strip_prefix('<')
            .and_then(|r| r.strip_suffix('>'))
            .ok_or_else(|| syntax(start, "a tiler `<…>`"))?;
        let mut items = Vec::new();
        let (mut depth, mut from) = (0i32, 0usize);
        let base = start + 1;
        let bytes = inner.as_bytes();
        for k in 0..=bytes.len() {
            match bytes.get(k) {
                Some(b'(' | b'{') => depth += 1,
                Some(b')' | b'}') => depth -= 1,
                Some(b'<') => {
                    return Err(SymError::new(
                        "parse",
                        String::new(),
                        Reason::Unsupported(
                            "a tiler nested in a tiler (with unknown extents, each tile is a \
                             layout or `_`)"
                                .into(),
                        ),
                    ))
                }
                Some(b'>') => return Err(syntax(base + k, "a layout or `_`")),
                Some(b',') if depth == 0 => {}
                None => {}
                Some(_) => continue,
            }
            if matches!(bytes.get(k), Some(b'(' | b'{' | b')' | b'}')) {
                continue;
            }
            let item = &inner[from..k];
            items.push(if item.trim() == "_" {
                None
            } else {
                Some(item.parse::<SymLayout>().map_err(|mut e| {
                    if let Reason::Syntax { pos, .. } = &mut e.reason {
                        *pos += base + from;
                    }
                    e
                })?)
            });
            from = k + 1;
        }
        Ok(SymTiler(items))
    }
}

impl fmt::Display for SymTiler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = self
            .0
            .iter()
            .map(|b| {
                b.as_ref()
                    .map_or_else(|| "_".to_string(), |l| l.to_string())
            })
            .collect();
        write!(f, "<{}>", items.join(","))
    }
}

/// The parts of a divide by mode: for each tiled mode `(tile, rest)` (`None` for `_`: the mode
/// whole), and the modes past the tiler.
type ByMode = (
    Vec<Result<(SymLayout, SymLayout), SymLayout>>,
    Vec<SymLayout>,
);

/// The modes of `A` and the tiles of `T`, unified (one fact per name), each tile beside its mode
/// (`None` for `_`); a tiler with more modes than `A` is refused.
type Unified = (Vec<SymLayout>, Vec<Option<SymLayout>>);

fn unified(ctx: &Ctx, a: &SymLayout, t: &SymTiler) -> Result<Unified, SymError> {
    let mut all: Vec<&SymLayout> = vec![a];
    all.extend(t.0.iter().flatten());
    let u = unify(&all).map_err(|r| ctx.fail(r))?;
    let modes = u[0].modes();
    if t.0.len() > modes.len() {
        return Err(ctx.fail(Reason::Static(format!(
            "the tiler has {} modes, the layout {}",
            t.0.len(),
            modes.len()
        ))));
    }
    let mut bs = u[1..].iter();
    let tiles =
        t.0.iter()
            .map(|b| b.as_ref().and_then(|_| bs.next().cloned()))
            .collect();
    Ok((modes, tiles))
}

fn by_mode(ctx: &Ctx, a: &SymLayout, t: &SymTiler) -> Result<ByMode, SymError> {
    let (modes, tiles) = unified(ctx, a, t)?;
    let mut parts = Vec::new();
    for (m, b) in modes.iter().zip(&tiles) {
        parts.push(match b {
            Some(b) => Ok(divide_parts(ctx, m, b)?),
            None => Err(m.clone()),
        });
    }
    Ok((parts, modes[tiles.len()..].to_vec()))
}

fn ctx_for(op: &'static str, a: &SymLayout, t: &SymTiler) -> Ctx {
    Ctx::with_tail(op, a, t.to_string())
}

/// `composition(A, <B0,B1,…>)`: mode `i` of A composed with `Bi` (`_` keeps it); the modes of A
/// past the tiler are dropped, as in CuTe.
///
/// # Errors
///
/// As [`composition`](super::composition) for each mode, the mode named (`at mode 1`); a tiler
/// with more modes than A.
///
/// ```
/// use cute::symbolic::{composition_by_mode, SymLayout, SymTiler};
/// let a: SymLayout = "(8,M,2):(1,8,8*M)".parse().unwrap();
/// let t: SymTiler = "<4:2,_>".parse().unwrap();
/// assert_eq!(composition_by_mode(&a, &t).unwrap().to_string(), "(4,M):(2,8)");
/// let a: SymLayout = "(4,(2,M)):(1,(4,16))".parse().unwrap();
/// let e = composition_by_mode(&a, &"<_,3:1>".parse().unwrap()).unwrap_err();
/// assert!(e.to_string().contains("at mode 1: (2,M):(4,16) ∘ 3:1: "), "{e}");
/// ```
pub fn composition_by_mode(a: &SymLayout, t: &SymTiler) -> Result<SymLayout, SymError> {
    let ctx = ctx_for("composition", a, t);
    let (modes, tiles) = unified(&ctx, a, t)?;
    let mut out = Vec::new();
    for (k, (m, b)) in modes.iter().zip(&tiles).enumerate() {
        out.push(match b {
            Some(b) => super::composition(m, b).map_err(|e| {
                SymError::new(
                    ctx.op,
                    format!("{} at mode {k}: {}", ctx.operands(), e.operands),
                    e.reason,
                )
            })?,
            None => m.clone(),
        });
    }
    Ok(SymLayout::tuple(out))
}

/// `logical_divide(A, <B0,B1,…>)`: mode `i` of A divided by `Bi` (`_` keeps it), the other
/// modes kept.
///
/// # Errors
///
/// As [`logical_divide`](super::logical_divide) for each mode; a tiler with more modes than A.
///
/// ```
/// use cute::symbolic::{logical_divide_by_mode, SymLayout, SymTiler};
/// let a: SymLayout = "(M{div=128},N{div=64}):(1,M)".parse().unwrap();
/// let t: SymTiler = "<128:1,64:1>".parse().unwrap();
/// assert_eq!(
///     logical_divide_by_mode(&a, &t).unwrap().to_string(),
///     "((128,M{div=128}/128),(64,N{div=64}/64)):((1,128),(M,64*M))"
/// );
/// ```
pub fn logical_divide_by_mode(a: &SymLayout, t: &SymTiler) -> Result<SymLayout, SymError> {
    let ctx = ctx_for("logical_divide", a, t);
    let (parts, rest) = by_mode(&ctx, a, t)?;
    let mut out: Vec<SymLayout> = parts
        .into_iter()
        .map(|p| match p {
            Ok((tile, r)) => SymLayout::tuple(vec![tile, r]),
            Err(whole) => whole,
        })
        .collect();
    out.extend(rest);
    Ok(SymLayout::tuple(out))
}

/// The tiles and the rests of a divide by mode without `_` (zipped, tiled, flat).
fn tiles_and_rests(
    op: &'static str,
    a: &SymLayout,
    t: &SymTiler,
) -> Result<(Vec<SymLayout>, Vec<SymLayout>), SymError> {
    let ctx = ctx_for(op, a, t);
    let (parts, more) = by_mode(&ctx, a, t)?;
    let (mut tiles, mut rests) = (Vec::new(), Vec::new());
    for p in parts {
        let (tile, rest) =
            p.map_err(|_| ctx.unsupported("`_` in the tiler of a zipped, tiled or flat divide"))?;
        tiles.push(tile);
        rests.push(rest);
    }
    rests.extend(more);
    Ok((tiles, rests))
}

/// `zipped_divide(A, <B0,…>)`: `((tile0, tile1, …), (rest0, rest1, …, other modes))`, the form
/// `local_tile` indexes.
///
/// # Errors
///
/// As [`logical_divide_by_mode`]; `_` in the tiler is `Unsupported`.
///
/// ```
/// use cute::symbolic::{zipped_divide_by_mode, SymLayout, SymTiler};
/// let a: SymLayout = "(M{div=128},N{div=64}):(1,M)".parse().unwrap();
/// let t: SymTiler = "<128:1,64:1>".parse().unwrap();
/// assert_eq!(
///     zipped_divide_by_mode(&a, &t).unwrap().to_string(),
///     "((128,64),(M{div=128}/128,N{div=64}/64)):((1,M),(128,64*M))"
/// );
/// ```
pub fn zipped_divide_by_mode(a: &SymLayout, t: &SymTiler) -> Result<SymLayout, SymError> {
    let (tiles, rests) = tiles_and_rests("zipped_divide", a, t)?;
    Ok(SymLayout::tuple(vec![
        SymLayout::tuple(tiles),
        SymLayout::tuple(rests),
    ]))
}

/// `tiled_divide(A, <B0,…>)`: `((tile0, tile1, …), rest0, rest1, …, other modes)`.
///
/// # Errors
///
/// As [`zipped_divide_by_mode`].
///
/// ```
/// use cute::symbolic::{tiled_divide_by_mode, SymLayout, SymTiler};
/// let a: SymLayout = "(M{div=8},N):(1,M)".parse().unwrap();
/// let t: SymTiler = "<8:1>".parse().unwrap();
/// assert_eq!(
///     tiled_divide_by_mode(&a, &t).unwrap().to_string(),
///     "((8),M{div=8}/8,N):((1),8,M)"
/// );
/// let a: SymLayout = "M{div=8}:1".parse().unwrap(); // one rest: kept whole, as in CuTe C++
/// assert_eq!(tiled_divide_by_mode(&a, &t).unwrap().to_string(), "((8),(M{div=8}/8)):((1),(8))");
/// ```
pub fn tiled_divide_by_mode(a: &SymLayout, t: &SymTiler) -> Result<SymLayout, SymError> {
    let (tiles, rests) = tiles_and_rests("tiled_divide", a, t)?;
    let mut out = vec![SymLayout::tuple(tiles)];
    out.extend(spliced(rests));
    Ok(SymLayout::tuple(out))
}

/// `flat_divide(A, <B0,…>)`: `(tile0, tile1, …, rest0, rest1, …, other modes)`, where a single
/// tile or a single rest stays a rank-1 tuple (`((8),M/8,N)`), as in CuTe C++.
///
/// # Errors
///
/// As [`zipped_divide_by_mode`].
///
/// ```
/// use cute::symbolic::{flat_divide_by_mode, SymLayout, SymTiler};
/// let a: SymLayout = "(M{div=8},N):(1,M)".parse().unwrap();
/// let t: SymTiler = "<8:1>".parse().unwrap();
/// assert_eq!(flat_divide_by_mode(&a, &t).unwrap().to_string(), "((8),M{div=8}/8,N):((1),8,M)");
/// let t: SymTiler = "<8:1,2:1>".parse().unwrap();
/// assert_eq!(flat_divide_by_mode(&a, &t).unwrap().to_string(), "(8,2,M{div=8}/8,⌈N/2⌉):(1,M,8,2*M)");
/// let t: SymTiler = "<8:1,2:1>".parse().unwrap();
/// assert_eq!(flat_divide_by_mode(&a, &t).unwrap().to_string(), "(8,2,M{div=8}/8,⌈N/2⌉):(1,M,8,2*M)");
/// ```
pub fn flat_divide_by_mode(a: &SymLayout, t: &SymTiler) -> Result<SymLayout, SymError> {
    let (tiles, rests) = tiles_and_rests("flat_divide", a, t)?;
    let mut out = spliced(tiles);
    out.extend(spliced(rests));
    Ok(SymLayout::tuple(out))
}

/// The modes of `(m0, m1, …)` put into an enclosing tuple, as CuTe C++'s slice by
/// `repeat<R>(_)` puts them: each mode on its own, but a single mode stays one tuple `(m0)`
/// (`repeat<1>(_)` is `_` itself, which keeps the whole rank-1 mode), so `tiled_divide(16:1,
/// <4>)` is `((4),(4))`. (CuTe DSL 4.8.1 and PyCuTe give `((4),4)`; COMPARE.md.)
fn spliced(modes: Vec<SymLayout>) -> Vec<SymLayout> {
    if modes.len() == 1 {
        vec![SymLayout::tuple(modes)]
    } else {
        modes
    }
}
