//! [`SymLayout`]: a layout whose shape leaves and strides may be products of unknowns.

use super::error::{Reason, SymError};
use super::expr::{Mono, Sym, SymId};
use crate::Layout;
use std::collections::HashMap;

/// A nested tuple of leaves: a shape or a stride.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tree<T> {
    /// A leaf.
    Leaf(T),
    /// A tuple of modes.
    Node(Vec<Tree<T>>),
}

impl<T> Tree<T> {
    /// The leaves, left to right.
    pub(crate) fn leaves(&self) -> Vec<&T> {
        let mut out = Vec::new();
        fn walk<'a, T>(t: &'a Tree<T>, out: &mut Vec<&'a T>) {
            match t {
                Tree::Leaf(x) => out.push(x),
                Tree::Node(v) => v.iter().for_each(|c| walk(c, out)),
            }
        }
        walk(self, &mut out);
        out
    }

    /// The same structure with every leaf mapped by `f`.
    pub(crate) fn map<U, E>(&self, f: &mut impl FnMut(&T) -> Result<U, E>) -> Result<Tree<U>, E> {
        Ok(match self {
            Tree::Leaf(x) => Tree::Leaf(f(x)?),
            Tree::Node(v) => Tree::Node(v.iter().map(|c| c.map(f)).collect::<Result<_, E>>()?),
        })
    }

    /// The top-level modes (a leaf is its own single mode).
    pub(crate) fn modes(&self) -> Vec<&Tree<T>> {
        match self {
            Tree::Leaf(_) => vec![self],
            Tree::Node(v) => v.iter().collect(),
        }
    }
}

/// A stride leaf: a product, times the basis vector `E(axis)` when `axis` is given (`8@1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymStride {
    /// The coefficient.
    pub m: Mono,
    /// The axis of a basis stride `m@axis`, `None` for an integer stride.
    pub axis: Option<u32>,
}

impl SymStride {
    pub(crate) fn int(m: Mono) -> SymStride {
        SymStride { m, axis: None }
    }
}

/// A layout `shape:stride` whose leaves may be unknown at build time: each shape leaf a
/// positive product of integers and unknowns ([`Mono`]), each stride such a product (possibly
/// times a basis vector `E(i)`, written `k@i`).
///
/// It parses and prints CuTe notation extended by unknowns: `?` (each one a different value),
/// `?{div=16}` (divisible by 16, CuTe DSL's notation), names `M` (the same name is the same
/// value), `M{div=16,min=64}`, and products `192*M`, `M/8`.
///
/// ```
/// use cute::symbolic::SymLayout;
/// let l: SymLayout = "(192,?{div=8}):(1,192)".parse().unwrap();
/// assert_eq!(l.to_string(), "(192,?{div=8}):(1,192)");
/// assert_eq!(l.size().to_string(), "192*?{div=8}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymLayout {
    /// The shape.
    pub shape: Tree<Mono>,
    /// The stride, congruent with the shape.
    pub stride: Tree<SymStride>,
}

impl SymLayout {
    /// A layout of one mode `s:d`.
    pub(crate) fn leaf(s: Mono, d: SymStride) -> SymLayout {
        SymLayout {
            shape: Tree::Leaf(s),
            stride: Tree::Leaf(d),
        }
    }

    /// The layout of the flat modes `(s0,s1,…):(d0,d1,…)`; one mode is printed bare, none is `1:0`.
    pub(crate) fn from_modes(mut modes: Vec<(Mono, SymStride)>) -> SymLayout {
        match modes.len() {
            0 => SymLayout::leaf(Mono::int(1), SymStride::int(Mono::int(0))),
            1 => {
                let (s, d) = modes.remove(0);
                SymLayout::leaf(s, d)
            }
            _ => {
                let (s, d): (Vec<_>, Vec<_>) = modes
                    .into_iter()
                    .map(|(s, d)| (Tree::Leaf(s), Tree::Leaf(d)))
                    .unzip();
                SymLayout {
                    shape: Tree::Node(s),
                    stride: Tree::Node(d),
                }
            }
        }
    }

    /// The layout whose modes are `parts` (concatenation `(A,B,…)`).
    pub(crate) fn tuple(parts: Vec<SymLayout>) -> SymLayout {
        let (s, d): (Vec<_>, Vec<_>) = parts.into_iter().map(|l| (l.shape, l.stride)).unzip();
        SymLayout {
            shape: Tree::Node(s),
            stride: Tree::Node(d),
        }
    }

    /// True for a single mode `s:d` (not a tuple).
    pub(crate) fn is_leaf(&self) -> bool {
        matches!(self.shape, Tree::Leaf(_))
    }

    /// The top-level modes as layouts.
    pub(crate) fn modes(&self) -> Vec<SymLayout> {
        self.shape
            .modes()
            .into_iter()
            .zip(self.stride.modes())
            .map(|(s, d)| SymLayout {
                shape: s.clone(),
                stride: d.clone(),
            })
            .collect()
    }

    /// The number of top-level modes (1 for a leaf).
    ///
    /// ```
    /// use cute::symbolic::SymLayout;
    /// assert_eq!("((4,M),8):((1,4),?)".parse::<SymLayout>().unwrap().rank(), 2);
    /// assert_eq!("M:1".parse::<SymLayout>().unwrap().rank(), 1);
    /// ```
    pub fn rank(&self) -> usize {
        self.shape.modes().len()
    }

    /// The flattened leaves `(shape, stride)`.
    pub(crate) fn flat(&self) -> Vec<(Mono, SymStride)> {
        self.shape
            .leaves()
            .into_iter()
            .cloned()
            .zip(self.stride.leaves().into_iter().cloned())
            .collect()
    }

    /// True when no leaf depends on an unknown.
    ///
    /// ```
    /// use cute::symbolic::SymLayout;
    /// assert!("(4,8):(1,4)".parse::<SymLayout>().unwrap().is_static());
    /// assert!(!"(4,M):(1,4)".parse::<SymLayout>().unwrap().is_static());
    /// ```
    pub fn is_static(&self) -> bool {
        self.unknowns().is_empty()
    }

    /// The unknowns it depends on, each once, in order of appearance.
    ///
    /// ```
    /// use cute::symbolic::SymLayout;
    /// let l: SymLayout = "(M{div=8},N,M):(1,M,?)".parse().unwrap();
    /// assert_eq!(l.unknowns().len(), 3);
    /// ```
    pub fn unknowns(&self) -> Vec<Sym> {
        let mut out: Vec<Sym> = Vec::new();
        let strides = self.stride.leaves();
        let monos = self
            .shape
            .leaves()
            .into_iter()
            .chain(strides.into_iter().map(|d| &d.m));
        for m in monos {
            for s in m.base_unknowns() {
                if !out.iter().any(|t| t.id == s.id) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// The size, the product of the shape's leaves.
    ///
    /// # Errors
    ///
    /// None in practice: a product beyond 64 bits is refused when the layout is built.
    ///
    /// ```
    /// use cute::symbolic::SymLayout;
    /// let l: SymLayout = "(4,M,2):(1,4,?)".parse().unwrap();
    /// assert_eq!(l.size().to_string(), "8*M");
    /// ```
    pub fn size(&self) -> Mono {
        self.shape
            .leaves()
            .into_iter()
            .try_fold(Mono::int(1), |acc, s| acc.mul(s))
            .unwrap_or(Mono::int(0))
    }

    /// The integer layout for the unknowns' values given by `value` (CuTe's layout at run time).
    ///
    /// # Errors
    ///
    /// A value that is not admissible for its unknown, an extent or stride beyond 64 bits
    /// (`Overflow`), or a layout the integer library refuses (e.g. a size beyond 64 bits).
    ///
    /// ```
    /// use cute::symbolic::SymLayout;
    /// let l: SymLayout = "(192,M{div=8}):(1,192)".parse().unwrap();
    /// assert_eq!(l.substitute(&|_| 16).unwrap().to_string(), "(192,16):(1,192)");
    /// assert!(l.substitute(&|_| 12).is_err());
    /// let big: SymLayout = "M:M*M*M*M*M*M*M".parse().unwrap();
    /// assert_eq!(big.substitute(&|_| 1024).unwrap_err().category(), "Overflow");
    /// ```
    pub fn substitute(&self, value: &dyn Fn(&Sym) -> i64) -> Result<Layout, SymError> {
        let fail = |why: String| SymError::new("substitute", self.to_string(), Reason::Static(why));
        for s in self.unknowns() {
            if !s.admits(value(&s)) {
                return Err(fail(format!(
                    "{} is not an admissible value of {}",
                    value(&s),
                    s.text()
                )));
            }
        }
        let mut overflow = false;
        let text = self.print_with(&mut |m: &Mono| match m.eval(value) {
            Some(v) => v.to_string(),
            None => {
                overflow = true;
                String::new()
            }
        });
        if overflow {
            return Err(SymError::new(
                "substitute",
                self.to_string(),
                Reason::Overflow,
            ));
        }
        text.parse::<Layout>().map_err(|e| fail(e.to_string()))
    }

    /// Replaces every named unknown by the one of `table` with the same name.
    pub(crate) fn rename(&self, table: &HashMap<SymId, Sym>) -> SymLayout {
        fn fix(m: &Mono, table: &HashMap<SymId, Sym>) -> Mono {
            let mut out = m.clone();
            for (s, _) in out.syms.iter_mut() {
                if let Some(t) = table.get(&s.id) {
                    *s = t.clone();
                } else if let SymId::Ceil(base, c) = &s.id {
                    // the same ⌈m/c⌉ of the renamed m (its lower bound still holds)
                    s.id = SymId::Ceil(Box::new(fix(base, table)), *c);
                }
            }
            out
        }
        let fix = |m: &Mono| fix(m, table);
        SymLayout {
            shape: self
                .shape
                .map(&mut |m| Ok::<_, ()>(fix(m)))
                .unwrap_or_else(|_| self.shape.clone()),
            stride: self
                .stride
                .map(&mut |d| {
                    Ok::<_, ()>(SymStride {
                        m: fix(&d.m),
                        axis: d.axis,
                    })
                })
                .unwrap_or_else(|_| self.stride.clone()),
        }
    }
}

/// `a` and `b` with every named unknown that occurs in both carrying the facts of both (the
/// same name is the same run-time value: divisible by both divisors, at least both bounds).
pub(crate) fn unify(layouts: &[&SymLayout]) -> Result<Vec<SymLayout>, Reason> {
    let mut table: HashMap<SymId, Sym> = HashMap::new();
    for l in layouts {
        for s in l.unknowns() {
            if let SymId::Named(_) = s.id {
                let e = table.entry(s.id.clone()).or_insert_with(|| s.clone());
                let g = gcd(e.div, s.div);
                e.div = (e.div / g).checked_mul(s.div).ok_or(Reason::Overflow)?;
                e.min = e.min.max(s.min);
            }
        }
    }
    Ok(layouts.iter().map(|l| l.rename(&table)).collect())
}

pub(crate) fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}
