//! Coalesce, composition and complement of symbolic layouts: each step of the integer
//! construction is taken only when its condition holds for every admissible value of the
//! unknowns; otherwise the operation refuses and names the condition.

use super::error::{Reason, SymError};
use super::expr::{Mono, Sym, Tri};
use super::layout::{unify, SymLayout, SymStride, Tree};

/// The operation and its operands, for refusals (printed only when one is made).
pub(crate) struct Ctx {
    pub(crate) op: &'static str,
    operands: Vec<SymLayout>,
    /// Text that follows the operands (a tiler by mode).
    tail: String,
    /// The form asked for (CuTe's by default).
    pub(crate) form: Form,
}

/// Which of the equivalent answers an operation returns: CuTe's (the default: the fewest modes
/// it can prove, and an inverse that matches the integer library's at every admissible value)
/// or PyCuTe's (the paper's Python package with sympy leaves). Every form is the same function
/// for every admissible value of the unknowns; the forms differ in how modes are grouped and,
/// for `right_inverse`, in how much of the domain the inverse covers.
///
/// ```
/// use cute::symbolic::{coalesce_with, Form, SymLayout};
/// let l: SymLayout = "(4,N):(1,4)".parse().unwrap();
/// let apart = Form { static_apart: true, ..Form::default() };
/// assert_eq!(coalesce_with(&l, Form::default()).unwrap().to_string(), "4*N:1");
/// assert_eq!(coalesce_with(&l, apart).unwrap().to_string(), "(4,N):(1,4)");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Form {
    /// Never merge a static extent above 1 with one that has unknowns (PyCuTe's coalesce keeps
    /// `4` out of `4*N`); two static or two symbolic extents still merge.
    pub static_apart: bool,
    /// `coalesce`: keep a last mode of size 1 (its stride is the step the layout's extended
    /// domain continues with, as the paper's `coalesce_z`).
    pub keep_last: bool,
    /// `right_inverse`: where whether a stride continues the chain depends on the unknowns, stop
    /// the chain there instead of refusing. The answer is then the largest inverse of the chained
    /// form that is a right inverse for every admissible value at once (`N:X` gives `1:0`,
    /// though at `X = 1` the integer library's answer is `N:1`).
    pub uniform: bool,
}

impl Ctx {
    pub(crate) fn new(op: &'static str, operands: &[&SymLayout]) -> Ctx {
        Ctx {
            op,
            operands: operands.iter().map(|l| (*l).clone()).collect(),
            tail: String::new(),
            form: Form::default(),
        }
    }
    /// The same context asking for `form`.
    pub(crate) fn in_form(mut self, form: Form) -> Ctx {
        self.form = form;
        self
    }
    /// Whether two extents may merge in this form (PyCuTe's keeps static and symbolic apart;
    /// a size-1 mode buries nothing).
    pub(crate) fn may_merge(&self, a: &Mono, b: &Mono) -> bool {
        !self.form.static_apart || a.is_static() == b.is_static() || a.is_one() || b.is_one()
    }
    /// An operation whose operands are followed by `tail` (a tiler).
    pub(crate) fn with_tail(op: &'static str, a: &SymLayout, tail: String) -> Ctx {
        Ctx {
            op,
            operands: vec![a.clone()],
            tail,
            form: Form::default(),
        }
    }
    /// The operands as printed in a refusal.
    pub(crate) fn operands(&self) -> String {
        let sep = if self.op == "composition" {
            " ∘ "
        } else {
            " "
        };
        let mut parts: Vec<String> = self.operands.iter().map(|l| l.to_string()).collect();
        if !self.tail.is_empty() {
            parts.push(self.tail.clone());
        }
        parts.join(sep)
    }
    pub(crate) fn fail(&self, reason: Reason) -> SymError {
        SymError::new(self.op, self.operands(), reason)
    }
    /// The answer depends on the unknowns of `about`: it needs `condition`.
    pub(crate) fn needs(&self, about: &[&Mono], condition: String) -> SymError {
        let unknown = about
            .iter()
            .flat_map(|m| m.unknowns())
            .map(Sym::text)
            .next()
            .unwrap_or_else(|| "an extent".into());
        self.fail(Reason::Needs { unknown, condition })
    }
    /// Whether the extent `s` is above 1 for every admissible value (`false` when it is 1); an
    /// error when that depends on an unknown (a size-1 mode changes the integer construction).
    pub(crate) fn above_one(&self, s: &Mono) -> Result<bool, SymError> {
        match s.le(&Mono::int(1)) {
            Tri::Yes => Ok(false),
            Tri::No => Ok(true),
            Tri::Depends => Err(self.needs(
                &[s],
                format!("{s} > 1 (declare a lower bound, e.g. {{min=2}})"),
            )),
        }
    }
    pub(crate) fn unsupported(&self, what: &str) -> SymError {
        self.fail(Reason::Unsupported(what.into()))
    }
    pub(crate) fn mul(&self, a: &Mono, b: &Mono) -> Result<Mono, SymError> {
        a.mul(b).ok_or_else(|| self.fail(Reason::Overflow))
    }
    pub(crate) fn div(&self, a: &Mono, b: &Mono) -> Result<Mono, SymError> {
        a.div_exact(b).ok_or_else(|| self.fail(Reason::Overflow))
    }
    pub(crate) fn scale(&self, d: &SymStride, k: &Mono) -> Result<SymStride, SymError> {
        Ok(SymStride {
            m: self.mul(&d.m, k)?,
            axis: d.axis,
        })
    }
}

/// Coalesces flat modes: drops size-1 modes and merges `s0:d0, s1:d1` where `d1 = s0·d0` for
/// every admissible value (modes that merge only for some values stay apart: the same function).
pub(crate) fn coalesce_modes(
    ctx: &Ctx,
    modes: Vec<(Mono, SymStride)>,
) -> Result<Vec<(Mono, SymStride)>, SymError> {
    coalesce_keeping(ctx, modes, false)
}

/// As [`coalesce_modes`]; with `keep_last`, a last mode of size 1 stays (its stride is the one
/// the layout's extended domain continues with, which composition uses past the size).
pub(crate) fn coalesce_keeping(
    ctx: &Ctx,
    modes: Vec<(Mono, SymStride)>,
    keep_last: bool,
) -> Result<Vec<(Mono, SymStride)>, SymError> {
    let mut out: Vec<(Mono, SymStride)> = Vec::new();
    let n = modes.len();
    for (k, (s, d)) in modes.into_iter().enumerate() {
        if s.is_one() && !(keep_last && k + 1 == n) {
            continue;
        }
        if let Some((ps, pd)) = out.last_mut() {
            if pd.axis == d.axis
                && ctx.may_merge(ps, &s)
                && ctx.mul(ps, &pd.m)?.equals(&d.m) == Tri::Yes
            {
                *ps = ctx.mul(ps, &s)?;
                continue;
            }
        }
        out.push((s, d));
    }
    Ok(out)
}

/// `coalesce(L)`: the same function on the same domain with the fewest modes this can prove.
///
/// # Errors
///
/// Only on overflow of a product.
///
/// ```
/// use cute::symbolic::{coalesce, SymLayout};
/// let l: SymLayout = "(192,?{div=8}):(1,192)".parse().unwrap(); // CUTLASS #3469
/// assert_eq!(coalesce(&l).unwrap().to_string(), "192*?{div=8}:1");
/// let l: SymLayout = "(M,(2,N)):(1,(M,2*M))".parse().unwrap();
/// assert_eq!(coalesce(&l).unwrap().to_string(), "2*M*N:1");
/// ```
pub fn coalesce(l: &SymLayout) -> Result<SymLayout, SymError> {
    coalesce_with(l, Form::default())
}

/// `coalesce(L)` in the form `form` (its `static_apart` and `keep_last`): the same function on
/// the same domain (and, with `keep_last`, on the extended domain past the size).
///
/// # Errors
///
/// Only on overflow of a product.
///
/// ```
/// use cute::symbolic::{coalesce_with, Form, SymLayout};
/// let pycute = Form { static_apart: true, ..Form::default() };
/// let l: SymLayout = "(N,M,4):(1,N,N*M)".parse().unwrap();
/// assert_eq!(coalesce_with(&l, pycute).unwrap().to_string(), "(M*N,4):(1,M*N)");
/// let z = Form { keep_last: true, ..pycute };
/// let l: SymLayout = "(2,N,1):(1,2,0)".parse().unwrap();
/// assert_eq!(coalesce_with(&l, z).unwrap().to_string(), "(2,N,1):(1,2,0)");
/// ```
pub fn coalesce_with(l: &SymLayout, form: Form) -> Result<SymLayout, SymError> {
    let ctx = Ctx::new("coalesce", &[l]).in_form(form);
    Ok(SymLayout::from_modes(coalesce_keeping(
        &ctx,
        l.flat(),
        form.keep_last,
    )?))
}

/// One leaf `s:d` (integer stride `d ≥ 0`) of the right operand composed with the flat modes
/// `a` of the left operand (the last one extending without bound).
fn compose_leaf(
    ctx: &Ctx,
    a: &[(Mono, SymStride)],
    s: &Mono,
    d: &Mono,
) -> Result<Vec<(Mono, SymStride)>, SymError> {
    if d.is_zero() {
        return Ok(vec![(s.clone(), SymStride::int(Mono::int(0)))]);
    }
    if d.num < 0 {
        return Err(ctx.unsupported("a negative stride in the right operand"));
    }
    let mut out = Vec::new();
    let (mut rest_shape, mut rest_stride) = (s.clone(), d.clone());
    let (last, body) = a
        .split_last()
        .ok_or_else(|| ctx.unsupported("an empty layout"))?;
    for (ai, ei) in body {
        if rest_shape.is_one() {
            break;
        }
        if ai.divides(&rest_stride) == Tri::Yes {
            rest_stride = ctx.div(&rest_stride, ai)?;
            continue;
        }
        if rest_stride.divides(ai) != Tri::Yes {
            if ai.as_int().is_some() && rest_stride.as_int().is_some() {
                return Err(static_fails(
                    ctx,
                    "stride-divisibility condition (9)",
                    ai,
                    &rest_stride,
                ));
            }
            return Err(ctx.needs(
                &[ai, &rest_stride],
                format!(
                    "{} (the stride-divisibility condition (9))",
                    one_another(ai, &rest_stride)
                ),
            ));
        }
        let q = ctx.div(ai, &rest_stride)?;
        let stride = ctx.scale(ei, &rest_stride)?;
        if rest_shape.divides(&q) == Tri::Yes {
            out.push((rest_shape.clone(), stride));
            rest_shape = Mono::int(1);
            break;
        }
        if q.divides(&rest_shape) != Tri::Yes {
            if q.as_int().is_some() && rest_shape.as_int().is_some() {
                return Err(static_fails(
                    ctx,
                    "shape-divisibility condition (10)",
                    &q,
                    &rest_shape,
                ));
            }
            return Err(ctx.needs(
                &[&q, &rest_shape],
                format!(
                    "{} (the shape-divisibility condition (10))",
                    one_another(&q, &rest_shape)
                ),
            ));
        }
        rest_shape = ctx.div(&rest_shape, &q)?;
        out.push((q, stride));
        rest_stride = Mono::int(1);
    }
    if !rest_shape.is_one() || out.is_empty() {
        out.push((rest_shape, ctx.scale(&last.1, &rest_stride)?));
    }
    Ok(out)
}

/// The condition that `a` and `b` divide one another, in words: `M divisible by 8 or dividing
/// 8` when one side is an integer.
/// A condition between two integers that fails: no run-time value decides it, and the exact
/// decision that may still answer (DESIGN.md, "Composition decided exactly") runs on integer
/// layouts only.
fn static_fails(ctx: &Ctx, condition: &str, a: &Mono, b: &Mono) -> SymError {
    ctx.unsupported(&format!(
        "the {condition} fails ({a} and {b} divide neither way) at every value, and the exact \
         decision that can answer beyond it is made for integer layouts only"
    ))
}

fn one_another(a: &Mono, b: &Mono) -> String {
    let (x, y) = if a.as_int().is_some() { (b, a) } else { (a, b) };
    if y.as_int().is_some() {
        format!("{x} divisible by {y} or dividing {y}")
    } else {
        format!("{x} and {y} to divide one another")
    }
}

/// Checks that the leaves `(s, d)` of the right operand, sorted by stride, are nested blocks
/// (`s_k·d_k` divides `d_{k+1}`), so that the left operand adds their offsets without carries
/// (left distributivity (12)).
fn check_nested(ctx: &Ctx, leaves: &[(Mono, Mono)]) -> Result<(), SymError> {
    let mut v: Vec<&(Mono, Mono)> = leaves
        .iter()
        .filter(|(s, d)| !s.is_one() && !d.is_zero())
        .collect();
    sort_by_stride(ctx, &mut v, |x| &x.1)?;
    for w in v.windows(2) {
        let extent = ctx.mul(&w[0].0, &w[0].1)?;
        if extent.divides(&w[1].1) != Tri::Yes {
            return Err(ctx.needs(
                &[&extent, &w[1].1],
                format!(
                    "{} divisible by {extent} (the right operand's modes must not overlap for \
                     distributivity (12))",
                    w[1].1
                ),
            ));
        }
    }
    Ok(())
}

/// Sorts `v` by the positive key, each comparison decided for every admissible value.
pub(crate) fn sort_by_stride<T>(
    ctx: &Ctx,
    v: &mut [T],
    key: impl Fn(&T) -> &Mono,
) -> Result<(), SymError> {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 {
            let (a, b) = (key(&v[j - 1]), key(&v[j]));
            if a.le(b) == Tri::Yes {
                break;
            }
            if b.le(a) != Tri::Yes {
                return Err(ctx.needs(&[a, b], format!("an order between {a} and {b}")));
            }
            v.swap(j - 1, j);
            j -= 1;
        }
    }
    Ok(())
}

/// B's leaves `(extent, stride)` that address one part of A: the whole of A (`None`) or its mode
/// `j` (basis strides `k@j`).
type Group = (Option<u32>, Vec<(Mono, Mono)>);

/// `A ∘ B`, with B's shape: `(A ∘ B)(i) = A(B(i))` for every admissible value of the unknowns.
/// Basis strides `k@j` of B address mode `j` of A (CUTLASS #3470).
///
/// # Errors
///
/// `Condition` where a divisibility condition of the paper ((9), (10), (12)) holds for some
/// values of an unknown and not others (naming it and the condition); `Unsupported` for negative
/// strides of B or a basis stride beyond A's rank; `Divisibility` where it fails for all.
///
/// ```
/// use cute::symbolic::{composition, SymLayout};
/// let a: SymLayout = "(4096,8192):(1,4096)".parse().unwrap();
/// let b: SymLayout = "(32,N,8,128):(1@0,8@1,1@1,32@0)".parse().unwrap(); // CUTLASS #3470
/// assert_eq!(composition(&a, &b).unwrap().to_string(), "(32,N,8,128):(1,32768,4096,32)");
/// let a: SymLayout = "(8,M):(M,1)".parse().unwrap();
/// let b: SymLayout = "4:2".parse().unwrap();
/// assert_eq!(composition(&a, &b).unwrap().to_string(), "4:2*M");
/// let b: SymLayout = "16:1".parse().unwrap();
/// assert_eq!(composition(&a, &b).unwrap().to_string(), "(8,2):(M,1)");
/// let e = composition(&"(M,4):(1,2*M)".parse().unwrap(), &"3:2".parse().unwrap()).unwrap_err();
/// assert_eq!(e.category(), "Condition");
/// ```
pub fn composition(a: &SymLayout, b: &SymLayout) -> Result<SymLayout, SymError> {
    let ctx = Ctx::new("composition", &[a, b]);
    let u = unify(&[a, b]).map_err(|r| ctx.fail(r))?;
    let (a, b) = (&u[0], &u[1]);
    let leaves = b.flat();
    let a_flat = coalesce_keeping(&ctx, a.flat(), true)?;
    // group B's leaves by the part of A they address
    let mut groups: Vec<Group> = Vec::new();
    for (s, d) in &leaves {
        match groups.iter_mut().find(|g| g.0 == d.axis) {
            Some(g) => g.1.push((s.clone(), d.m.clone())),
            None => groups.push((d.axis, vec![(s.clone(), d.m.clone())])),
        }
    }
    if groups.len() > 1 && groups.iter().any(|g| g.0.is_none()) {
        return Err(ctx.unsupported("a right operand mixing integer and basis strides"));
    }
    let part = |axis: Option<u32>| -> Result<Vec<(Mono, SymStride)>, SymError> {
        match axis {
            None => Ok(a_flat.clone()),
            Some(j) => {
                let modes = a.modes();
                let m = modes.get(j as usize).ok_or_else(|| {
                    ctx.unsupported("a basis stride of the right operand beyond the left's rank")
                })?;
                coalesce_keeping(&ctx, m.flat(), true)
            }
        }
    };
    for (axis, g) in &groups {
        if part(*axis)?.len() > 1 {
            check_nested(&ctx, g)?;
        }
    }
    let mut results = Vec::with_capacity(leaves.len());
    for (s, d) in &leaves {
        let pa = part(d.axis)?;
        let r = if pa.len() == 1 {
            vec![(s.clone(), ctx.scale(&pa[0].1, &d.m)?)]
        } else {
            compose_leaf(&ctx, &pa, s, &d.m)?
        };
        results.push(r);
    }
    let mut it = results.into_iter();
    let shape_tree = rebuild(&b.shape, &mut it);
    Ok(shape_tree)
}

/// B's shape tree with each leaf replaced by the next result (a leaf for one mode, a tuple
/// otherwise).
fn rebuild(t: &Tree<Mono>, it: &mut impl Iterator<Item = Vec<(Mono, SymStride)>>) -> SymLayout {
    match t {
        Tree::Leaf(_) => SymLayout::from_modes(it.next().unwrap_or_default()),
        Tree::Node(v) => SymLayout::tuple(v.iter().map(|c| rebuild(c, it)).collect()),
    }
}

/// `complement(L, M)`: the offsets below `M` that `L` does not reach, as a layout (CuTe's and
/// the paper's divisible-chain construction); without `M`, the paper's form ending in a size-1
/// mode at the extent of `L`.
///
/// # Errors
///
/// `Condition` where the order of two strides, or a divisibility of the chain, depends on an
/// unknown; `Unsupported` for basis or negative strides.
///
/// ```
/// use cute::symbolic::{complement, Mono, SymLayout};
/// let l: SymLayout = "(4,M):(1,4)".parse().unwrap();
/// assert_eq!(complement(&l, None).unwrap().to_string(), "1:4*M");
/// let l: SymLayout = "4:M{div=4}".parse().unwrap();
/// assert_eq!(complement(&l, None).unwrap().to_string(), "(M{div=4},1):(1,4*M)");
/// ```
pub fn complement(l: &SymLayout, cotarget: Option<&Mono>) -> Result<SymLayout, SymError> {
    let ctx = Ctx::new("complement", &[l]);
    complement_in(&ctx, l, cotarget)
}

pub(crate) fn complement_in(
    ctx: &Ctx,
    l: &SymLayout,
    cotarget: Option<&Mono>,
) -> Result<SymLayout, SymError> {
    let mut modes: Vec<(Mono, Mono)> = Vec::new();
    for (s, d) in l.flat() {
        if d.axis.is_some() {
            return Err(ctx.unsupported("basis strides"));
        }
        if d.m.is_zero() || s.is_one() {
            continue;
        }
        if d.m.num < 0 {
            return Err(ctx.unsupported("negative strides"));
        }
        modes.push((s, d.m));
    }
    sort_by_stride(ctx, &mut modes, |x| &x.1)?;
    // A mode of extent 1 adds nothing; one that may be 1 only splits the gaps around it in two
    // (the same function), except at the top: the last gap is there only if a mode above it is
    // more than 1 (`(N,N):(2,2*N)` has the gap 2 for N > 1 and none for N = 1).
    let mut cur = Mono::int(1);
    let mut out = Vec::new();
    let mut above_gap: Option<Mono> = None; // the product of the extents above the last gap
    for (s, d) in &modes {
        if cur.divides(d) != Tri::Yes {
            return Err(ctx.needs(
                &[d, &cur],
                format!("{d} divisible by {cur} (the strides must form a divisible chain)"),
            ));
        }
        let gap = ctx.div(d, &cur)?;
        if !gap.is_one() {
            out.push((gap, SymStride::int(cur.clone())));
            above_gap = Some(s.clone());
        } else if let Some(p) = &above_gap {
            above_gap = Some(ctx.mul(p, s)?);
        }
        cur = ctx.mul(s, d)?;
    }
    let top_may_vanish = |ctx: &Ctx| -> Result<(), SymError> {
        match &above_gap {
            Some(p) => ctx.above_one(p).map(|_| ()),
            None => Ok(()),
        }
    };
    match cotarget {
        None => {
            top_may_vanish(ctx)?;
            out.push((Mono::int(1), SymStride::int(cur)))
        }
        Some(m) => {
            if cur.divides(m) == Tri::Yes {
                let q = ctx.div(m, &cur)?;
                if !q.is_one() {
                    out.push((q, SymStride::int(cur)));
                }
            } else if m.le(&cur) == Tri::Yes {
                // the chain passes the cotarget: no trailing mode takes the gaps in
                top_may_vanish(ctx)?;
            } else if let (Some(c), false) = (cur.as_int(), m.is_static()) {
                // CuTe pads: the rest is ⌈m/c⌉ (1, a mode that adds nothing, where m ≤ c)
                top_may_vanish(ctx)?;
                let q = Sym::ceil(m, c).ok_or_else(|| ctx.fail(Reason::Overflow))?;
                out.push((q, SymStride::int(cur)));
            } else {
                return Err(ctx.needs(
                    &[m, &cur],
                    format!("{m} divisible by {cur} or at most {cur}"),
                ));
            }
            let out = coalesce_modes(ctx, out)?;
            return Ok(SymLayout::from_modes(out));
        }
    }
    Ok(SymLayout::from_modes(out))
}
