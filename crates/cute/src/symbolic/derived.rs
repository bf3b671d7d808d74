//! Divides and products of symbolic layouts, built from composition and complement as the paper
//! defines them.

use super::error::{Reason, SymError};
use super::expr::Mono;
use super::layout::{unify, SymLayout, SymStride};
use super::ops::{complement_in, composition, Ctx};
use std::collections::BTreeMap;

/// `(tile, rest)` of `A ⊘ B = A ∘ (B, B*)` with `B*` the complement of B in `|A|`.
pub(crate) fn divide_parts(
    ctx: &Ctx,
    a: &SymLayout,
    b: &SymLayout,
) -> Result<(SymLayout, SymLayout), SymError> {
    let u = unify(&[a, b]).map_err(|r| ctx.fail(r))?;
    let (a, b) = (&u[0], &u[1]);
    let c = complement_in(ctx, b, Some(&a.size()))?;
    let whole =
        composition(a, &SymLayout::tuple(vec![b.clone(), c])).map_err(|e| rename(ctx, e))?;
    let mut m = whole.modes();
    let rest = m.pop().unwrap_or_else(|| SymLayout::from_modes(vec![]));
    let tile = m.pop().unwrap_or_else(|| SymLayout::from_modes(vec![]));
    Ok((tile, rest))
}

/// An error of an inner step, reported under the outer operation.
fn rename(ctx: &Ctx, mut e: SymError) -> SymError {
    e.op = ctx.op;
    e.operands = ctx.operands();
    e
}

fn modes_or_self(l: &SymLayout) -> Vec<SymLayout> {
    l.modes()
}

macro_rules! divide {
    ($(#[$doc:meta])* $name:ident, $op:literal, |$t:ident, $r:ident| $body:expr) => {
        $(#[$doc])*
        pub fn $name(a: &SymLayout, b: &SymLayout) -> Result<SymLayout, SymError> {
            let ctx = Ctx::new($op, &[a, b]);
            let ($t, $r) = divide_parts(&ctx, a, b)?;
            Ok($body)
        }
    };
}

divide!(
    /// `logical_divide(A, B) = A ∘ (B, B*)`: `(tile, rest)`, for every admissible value.
    ///
    /// # Errors
    ///
    /// As [`composition`] and [`complement`](super::complement), under this operation's name.
    ///
    /// ```
    /// use cute::symbolic::{logical_divide, SymLayout};
    /// let a: SymLayout = "(M{div=16},N):(1,M)".parse().unwrap();
    /// let b: SymLayout = "16:1".parse().unwrap();
    /// assert_eq!(logical_divide(&a, &b).unwrap().to_string(), "(16,M{div=16}*N/16):(1,16)");
    /// let a: SymLayout = "(M{div=16},N):(1,2*M)".parse().unwrap();
    /// assert_eq!(logical_divide(&a, &b).unwrap().to_string(), "(16,(M{div=16}/16,N)):(1,(16,2*M))");
    /// ```
    logical_divide, "logical_divide", |t, r| SymLayout::tuple(vec![t, r])
);
divide!(
    /// `zipped_divide(A, B)`: `(tile, rest)` (for a layout B the same as [`logical_divide`]).
    ///
    /// # Errors
    ///
    /// As [`logical_divide`].
    ///
    /// ```
    /// use cute::symbolic::{zipped_divide, SymLayout};
    /// let a: SymLayout = "M{div=8}:1".parse().unwrap();
    /// let z = zipped_divide(&a, &"8:1".parse().unwrap()).unwrap();
    /// assert_eq!(z.to_string(), "(8,M{div=8}/8):(1,8)");
    /// ```
    zipped_divide, "zipped_divide", |t, r| SymLayout::tuple(vec![t, r])
);
divide!(
    /// `tiled_divide(A, B)`: `(tile, rest0, rest1, …)`.
    ///
    /// # Errors
    ///
    /// As [`logical_divide`].
    ///
    /// ```
    /// use cute::symbolic::{tiled_divide, SymLayout};
    /// let a: SymLayout = "(M{div=8},N):(1,2*M)".parse().unwrap();
    /// let z = tiled_divide(&a, &"8:1".parse().unwrap()).unwrap();
    /// assert_eq!(z.to_string(), "(8,M{div=8}/8,N):(1,8,2*M)");
    /// ```
    tiled_divide, "tiled_divide", |t, r| {
        let mut v = vec![t];
        v.extend(modes_or_self(&r));
        SymLayout::tuple(v)
    }
);
divide!(
    /// `flat_divide(A, B)`: `(tile0, tile1, …, rest0, rest1, …)`.
    ///
    /// # Errors
    ///
    /// As [`logical_divide`].
    ///
    /// ```
    /// use cute::symbolic::{flat_divide, SymLayout};
    /// let a: SymLayout = "(M{div=8},N):(1,2*M)".parse().unwrap();
    /// let z = flat_divide(&a, &"(2,4):(1,2)".parse().unwrap()).unwrap();
    /// assert_eq!(z.to_string(), "(2,4,M{div=8}/8,N):(1,2,8,2*M)");
    /// ```
    flat_divide, "flat_divide", |t, r| {
        let mut v = modes_or_self(&t);
        v.extend(modes_or_self(&r));
        SymLayout::tuple(v)
    }
);

/// `cosize(L) = L(|L| - 1) + 1 = Σ (s_i - 1)·d_i + 1` as one product, when its terms cancel to
/// one (compact layouts do), else `None`.
pub(crate) fn cosize_mono(l: &SymLayout) -> Option<Mono> {
    // sum of terms keyed by their unknowns, with rational coefficients
    type Key = Vec<(super::expr::SymId, u32)>;
    let mut terms: BTreeMap<Key, (i128, i128, Mono)> = BTreeMap::new();
    let mut add = |m: &Mono, sign: i128| {
        let key: Key = m.syms.iter().map(|(s, e)| (s.id.clone(), *e)).collect();
        let e = terms.entry(key).or_insert((
            0,
            1,
            Mono {
                num: 1,
                den: 1,
                syms: m.syms.clone(),
            },
        ));
        let (n, d) = (
            e.0 * m.den as i128 + sign * m.num as i128 * e.1,
            e.1 * m.den as i128,
        );
        let g = gcd(n, d);
        *e = (n / g, d / g, e.2.clone());
    };
    for (s, d) in l.flat() {
        if d.axis.is_some() || d.m.num < 0 {
            return None;
        }
        add(&s.mul(&d.m)?, 1);
        add(&d.m, -1);
    }
    add(&Mono::int(1), 1);
    let live: Vec<_> = terms.into_values().filter(|t| t.0 != 0).collect();
    if live.len() != 1 {
        return None;
    }
    let (n, d, base) = &live[0];
    let m = Mono {
        num: i64::try_from(*n).ok()?,
        den: i64::try_from(*d).ok()?,
        syms: Vec::new(),
    };
    base.mul(&m)
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// `(A, A* ∘ B)` with `A*` the complement of A in `|A|·cosize(B)`.
fn product_parts(
    ctx: &Ctx,
    a: &SymLayout,
    b: &SymLayout,
) -> Result<(SymLayout, SymLayout), SymError> {
    let u = unify(&[a, b]).map_err(|r| ctx.fail(r))?;
    let (a, b) = (&u[0], &u[1]);
    let cos = cosize_mono(b).ok_or_else(|| {
        ctx.unsupported("the right operand's cosize is not a single product of its extents")
    })?;
    let m = ctx.mul(&a.size(), &cos)?;
    let c = complement_in(ctx, a, Some(&m))?;
    let cb = composition(&c, b).map_err(|e| rename(ctx, e))?;
    Ok((a.clone(), cb))
}

/// `logical_product(A, B) = (A, A* ∘ B)`, for every admissible value.
///
/// # Errors
///
/// As [`composition`] and [`complement`](super::complement); `Unsupported` where `cosize(B)` is
/// not a single product.
///
/// ```
/// use cute::symbolic::{logical_product, SymLayout};
/// let a: SymLayout = "(2,2):(1,2)".parse().unwrap();
/// let b: SymLayout = "N:1".parse().unwrap();
/// assert_eq!(logical_product(&a, &b).unwrap().to_string(), "((2,2),N):((1,2),4)");
/// ```
pub fn logical_product(a: &SymLayout, b: &SymLayout) -> Result<SymLayout, SymError> {
    let ctx = Ctx::new("logical_product", &[a, b]);
    let (x, y) = product_parts(&ctx, a, b)?;
    Ok(SymLayout::tuple(vec![x, y]))
}

/// `zipped_product(A, B)`: `(A, A* ∘ B)` (for a layout B the same as [`logical_product`]).
///
/// # Errors
///
/// As [`logical_product`].
///
/// ```
/// use cute::symbolic::{zipped_product, SymLayout};
/// let a: SymLayout = "(2,2):(1,2)".parse().unwrap();
/// let z = zipped_product(&a, &"(3,N):(1,3)".parse().unwrap()).unwrap();
/// assert_eq!(z.to_string(), "((2,2),(3,N)):((1,2),(4,12))");
/// ```
pub fn zipped_product(a: &SymLayout, b: &SymLayout) -> Result<SymLayout, SymError> {
    let ctx = Ctx::new("zipped_product", &[a, b]);
    let (x, y) = product_parts(&ctx, a, b)?;
    Ok(SymLayout::tuple(vec![x, y]))
}

/// `tiled_product(A, B)`: `(A, (A* ∘ B)_0, (A* ∘ B)_1, …)`.
///
/// # Errors
///
/// As [`logical_product`].
///
/// ```
/// use cute::symbolic::{tiled_product, SymLayout};
/// let a: SymLayout = "(2,2):(1,2)".parse().unwrap();
/// let z = tiled_product(&a, &"(3,N):(1,3)".parse().unwrap()).unwrap();
/// assert_eq!(z.to_string(), "((2,2),3,N):((1,2),4,12)");
/// ```
pub fn tiled_product(a: &SymLayout, b: &SymLayout) -> Result<SymLayout, SymError> {
    let ctx = Ctx::new("tiled_product", &[a, b]);
    let (x, y) = product_parts(&ctx, a, b)?;
    let mut v = vec![x];
    v.extend(y.modes());
    Ok(SymLayout::tuple(v))
}

/// `flat_product(A, B)`: `(A_0, A_1, …, (A* ∘ B)_0, (A* ∘ B)_1, …)`.
///
/// # Errors
///
/// As [`logical_product`].
///
/// ```
/// use cute::symbolic::{flat_product, SymLayout};
/// let a: SymLayout = "(2,2):(1,2)".parse().unwrap();
/// let z = flat_product(&a, &"(3,N):(1,3)".parse().unwrap()).unwrap();
/// assert_eq!(z.to_string(), "(2,2,3,N):(1,2,4,12)");
/// ```
pub fn flat_product(a: &SymLayout, b: &SymLayout) -> Result<SymLayout, SymError> {
    let ctx = Ctx::new("flat_product", &[a, b]);
    let (x, y) = product_parts(&ctx, a, b)?;
    let mut v = x.modes();
    v.extend(y.modes());
    Ok(SymLayout::tuple(v))
}

/// Pads `l`'s top-level modes with `1:0` to `n` modes (a layout of rank `n` as it is, a single
/// mode too, as CuTe's `append<R>`).
fn padded(l: &SymLayout, n: usize) -> SymLayout {
    let mut m = l.modes();
    if m.len() == n {
        return l.clone();
    }
    while m.len() < n {
        m.push(SymLayout::leaf(Mono::int(1), SymStride::int(Mono::int(0))));
    }
    SymLayout::tuple(m)
}

fn rank_product(
    op: &'static str,
    a: &SymLayout,
    b: &SymLayout,
    block_first: bool,
) -> Result<SymLayout, SymError> {
    let ctx = Ctx::new(op, &[a, b]);
    let n = a.modes().len().max(b.modes().len());
    let (x, y) = product_parts(&ctx, &padded(a, n), &padded(b, n))?;
    // CuTe's zip(l0, l1): the 1-tuple `((l0, l1))` for a single mode l0, else mode by mode
    let (l0, l1) = if block_first { (x, y) } else { (y, x) };
    if l0.is_leaf() {
        return Ok(SymLayout::tuple(vec![SymLayout::tuple(vec![l0, l1])]));
    }
    let (m0, m1) = (l0.modes(), l1.modes());
    if l1.is_leaf() || m0.len() != m1.len() {
        return Err(ctx.fail(Reason::Static(format!(
            "the tile and the grid of the product cannot be zipped: {} against {}",
            l0, l1
        ))));
    }
    let pairs = m0
        .into_iter()
        .zip(m1)
        .map(|(p, q)| SymLayout::tuple(vec![p, q]))
        .collect();
    Ok(SymLayout::tuple(pairs))
}

/// `blocked_product(A, B)`: mode `i` is `(A_i, (A* ∘ B)_i)`, each block of A repeated as B says.
///
/// # Errors
///
/// As [`logical_product`].
///
/// ```
/// use cute::symbolic::{blocked_product, SymLayout};
/// let a: SymLayout = "(2,2):(1,2)".parse().unwrap();
/// let b: SymLayout = "(M,N):(1,M)".parse().unwrap();
/// assert_eq!(blocked_product(&a, &b).unwrap().to_string(), "((2,M),(2,N)):((1,4),(2,4*M))");
/// ```
pub fn blocked_product(a: &SymLayout, b: &SymLayout) -> Result<SymLayout, SymError> {
    rank_product("blocked_product", a, b, true)
}

/// `raked_product(A, B)`: mode `i` is `((A* ∘ B)_i, A_i)`, the blocks of A interleaved.
///
/// # Errors
///
/// As [`logical_product`].
///
/// ```
/// use cute::symbolic::{raked_product, SymLayout};
/// let a: SymLayout = "(2,2):(1,2)".parse().unwrap();
/// let b: SymLayout = "(M,N):(1,M)".parse().unwrap();
/// assert_eq!(raked_product(&a, &b).unwrap().to_string(), "((M,2),(N,2)):((4,1),(4*M,2))");
/// ```
pub fn raked_product(a: &SymLayout, b: &SymLayout) -> Result<SymLayout, SymError> {
    rank_product("raked_product", a, b, false)
}
