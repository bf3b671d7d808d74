//! Unknown extents and the products of them that shapes and strides are made of.
//!
//! A [`Sym`] is a value known only at run time, with what is known about it: a divisor (`div`)
//! and a lower bound (`min`). Its admissible values are the positive multiples of `div` that are
//! at least `min`. A [`Mono`] is a product `num/den · M^a · N^b …` that is an integer for every
//! admissible value of its unknowns. Every question asked of them ([`Mono::divides`],
//! [`Mono::le`], [`Mono::equals`]) is answered for all admissible values at once, or not at all
//! ([`Tri::Depends`]).

use std::sync::atomic::{AtomicU64, Ordering};

/// Who an unknown is: a name (`M`, printed as given) or an anonymous `?` (each `?` of a text is
/// a different unknown).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SymId {
    /// A named unknown; the same name is the same value.
    Named(String),
    /// An anonymous unknown, by a number unique in this process.
    Anon(u64),
    /// `⌈m/c⌉` of a product `m` of unknowns and a static `c > 1` that does not divide it for
    /// every admissible value (the rest of a divide that does not divide, which CuTe pads): its
    /// value follows from the unknowns of `m`; everything else treats it as one more unknown,
    /// positive and at least `⌈least(m)/c⌉`, which holds for every admissible value.
    Ceil(Box<Mono>, i64),
}

static NEXT_ANON: AtomicU64 = AtomicU64::new(1);

/// An extent known only at run time: positive, divisible by `div`, at least `min`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym {
    /// Its identity.
    pub id: SymId,
    /// Every admissible value is a multiple of `div` (at least 1).
    pub div: i64,
    /// Every admissible value is at least `min` (at least 1).
    pub min: i64,
}

impl Sym {
    /// A named unknown `name{div=div,min=min}`.
    ///
    /// ```
    /// use cute::symbolic::Sym;
    /// let m = Sym::named("M", 16, 64);
    /// assert_eq!((m.div, m.min, m.least()), (16, 64, 64));
    /// assert_eq!(Sym::named("K", 8, 20).least(), 24);
    /// ```
    pub fn named(name: &str, div: i64, min: i64) -> Sym {
        Sym {
            id: SymId::Named(name.to_string()),
            div: div.max(1),
            min: min.max(1),
        }
    }

    /// A fresh anonymous unknown `?{div=div,min=min}`, different from every other.
    ///
    /// ```
    /// use cute::symbolic::Sym;
    /// assert_ne!(Sym::anonymous(1, 1), Sym::anonymous(1, 1));
    /// ```
    pub fn anonymous(div: i64, min: i64) -> Sym {
        Sym {
            id: SymId::Anon(NEXT_ANON.fetch_add(1, Ordering::Relaxed)),
            div: div.max(1),
            min: min.max(1),
        }
    }

    /// `⌈m/c⌉` for every admissible value: an integer when `m` is one, `m/c` when `c` divides
    /// `m` for every value, else the unknown [`SymId::Ceil`]. `None` for `c < 1` or a product
    /// that is not positive.
    ///
    /// ```
    /// use cute::symbolic::{Mono, Sym};
    /// let m = Mono::sym(Sym::named("M", 1, 1));
    /// assert_eq!(Sym::ceil(&m, 128).unwrap().to_string(), "⌈M/128⌉");
    /// let m16 = Mono::sym(Sym::named("M", 16, 1));
    /// assert_eq!(Sym::ceil(&m16, 8).unwrap().to_string(), "M{div=16}/8");
    /// assert_eq!(Sym::ceil(&Mono::int(200), 128).unwrap().to_string(), "2");
    /// assert_eq!(Sym::ceil(&m.mul_int(4).unwrap(), 8).unwrap().to_string(), "⌈M/2⌉");
    /// ```
    pub fn ceil(m: &Mono, c: i64) -> Option<Mono> {
        if c < 1 || m.num <= 0 {
            return None;
        }
        if let Some(v) = m.as_int() {
            return Some(Mono::int((v - 1) / c + 1));
        }
        // ⌈(a/d)/c⌉ = ⌈a/(d·c)⌉: the printed `⌈m/c⌉` has no division inside
        if m.den > 1 {
            return Sym::ceil(&m.mul_int(m.den)?, c.checked_mul(m.den)?);
        }
        let cm = Mono::int(c);
        if cm.divides(m) == Tri::Yes {
            return m.div_exact(&cm);
        }
        // ⌈g·m'/c⌉ = ⌈m'/(c/g)⌉ for g dividing c and m's coefficient
        let g = gcd(m.num, c);
        if g > 1 {
            if let Some(m2) = m.div_exact(&Mono::int(g)) {
                return Sym::ceil(&m2, c / g);
            }
        }
        let (n, d) = m.least()?;
        let least = (n + d * c as i128 - 1) / (d * c as i128);
        Some(Mono::sym(Sym {
            id: SymId::Ceil(Box::new(m.clone()), c),
            div: 1,
            min: i64::try_from(least.max(1)).ok()?,
        }))
    }

    /// The least admissible value: the least multiple of `div` that is at least `min`.
    ///
    /// ```
    /// use cute::symbolic::Sym;
    /// assert_eq!(Sym::anonymous(8, 1).least(), 8);
    /// ```
    pub fn least(&self) -> i64 {
        let k = (self.min - 1) / self.div + 1; // ⌈min/div⌉, min ≥ 1
        k.max(1).saturating_mul(self.div)
    }

    /// True when `v` is an admissible value.
    ///
    /// ```
    /// use cute::symbolic::Sym;
    /// let m = Sym::named("M", 16, 64);
    /// assert!(m.admits(80) && !m.admits(48) && !m.admits(72));
    /// ```
    pub fn admits(&self, v: i64) -> bool {
        v >= 1 && v >= self.min && v % self.div == 0
    }

    /// The name as printed (without the facts); `None` for an anonymous unknown.
    pub(crate) fn name(&self) -> Option<&str> {
        match &self.id {
            SymId::Named(n) => Some(n),
            SymId::Anon(_) | SymId::Ceil(..) => None,
        }
    }

    /// The text of the unknown with its facts (`M{div=8}`, `?{div=8}`, `⌈M/128⌉`).
    pub(crate) fn text(&self) -> String {
        if let SymId::Ceil(m, c) = &self.id {
            return format!("⌈{m}/{c}⌉");
        }
        format!("{}{}", self.name().unwrap_or("?"), self.facts())
    }

    /// The facts as printed: `{div=16,min=64}`, or nothing when none is known.
    pub(crate) fn facts(&self) -> String {
        let mut parts = Vec::new();
        if self.div > 1 {
            parts.push(format!("div={}", self.div));
        }
        if self.min > 1 {
            parts.push(format!("min={}", self.min));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("{{{}}}", parts.join(","))
        }
    }
}

/// An answer for every admissible value of the unknowns at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tri {
    /// True for every admissible value.
    Yes,
    /// False for every admissible value.
    No,
    /// True for some admissible values and false for others (or not decided).
    Depends,
}

/// A product `num/den · Π sym^exp`, an integer for every admissible value of its unknowns.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mono {
    pub(crate) num: i64,
    pub(crate) den: i64,
    /// Sorted by identity, exponents at least 1.
    pub(crate) syms: Vec<(Sym, u32)>,
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

impl Mono {
    /// The integer `v`.
    ///
    /// ```
    /// use cute::symbolic::Mono;
    /// assert_eq!(Mono::int(12).as_int(), Some(12));
    /// ```
    pub fn int(v: i64) -> Mono {
        Mono {
            num: v,
            den: 1,
            syms: Vec::new(),
        }
    }

    /// The unknown `s` itself.
    ///
    /// ```
    /// use cute::symbolic::{Mono, Sym};
    /// assert!(Mono::sym(Sym::named("M", 1, 1)).as_int().is_none());
    /// ```
    pub fn sym(s: Sym) -> Mono {
        Mono {
            num: 1,
            den: 1,
            syms: vec![(s, 1)],
        }
    }

    /// The value when it is an integer known now.
    ///
    /// ```
    /// use cute::symbolic::Mono;
    /// assert_eq!(Mono::int(-3).as_int(), Some(-3));
    /// ```
    pub fn as_int(&self) -> Option<i64> {
        if self.syms.is_empty() && self.den == 1 {
            Some(self.num)
        } else {
            None
        }
    }

    /// True when no unknown occurs in it (a rational number).
    pub(crate) fn is_static(&self) -> bool {
        self.syms.is_empty()
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.num == 0
    }

    pub(crate) fn is_one(&self) -> bool {
        self.as_int() == Some(1)
    }

    /// The unknowns it depends on.
    pub(crate) fn unknowns(&self) -> impl Iterator<Item = &Sym> {
        self.syms.iter().map(|(s, _)| s)
    }

    /// The unknowns whose values decide it: those of a `⌈m/c⌉` are the ones of `m`.
    pub(crate) fn base_unknowns(&self) -> Vec<Sym> {
        let mut out = Vec::new();
        for (s, _) in &self.syms {
            match &s.id {
                SymId::Ceil(m, _) => out.extend(m.base_unknowns()),
                _ => out.push(s.clone()),
            }
        }
        out
    }

    fn normalized(mut self) -> Mono {
        if self.num == 0 {
            return Mono::int(0);
        }
        let g = gcd(self.num, self.den);
        self.num /= g;
        self.den /= g;
        self.syms.retain(|(_, e)| *e > 0);
        self.syms.sort_by(|a, b| a.0.id.cmp(&b.0.id));
        self
    }

    /// The product, `None` on overflow.
    pub(crate) fn mul(&self, o: &Mono) -> Option<Mono> {
        let g1 = gcd(self.num, o.den).max(1);
        let g2 = gcd(o.num, self.den).max(1);
        let num = (self.num / g1).checked_mul(o.num / g2)?;
        let den = (self.den / g2).checked_mul(o.den / g1)?;
        let mut syms = self.syms.clone();
        for (s, e) in &o.syms {
            match syms.iter_mut().find(|(t, _)| t.id == s.id) {
                Some((_, f)) => *f += e,
                None => syms.push((s.clone(), *e)),
            }
        }
        Some(Mono { num, den, syms }.normalized())
    }

    /// `self + o` for two products of the same unknowns; `None` when they differ or on
    /// overflow.
    pub(crate) fn add_like(&self, o: &Mono) -> Option<Mono> {
        if self.syms != o.syms {
            return None;
        }
        let g = gcd(self.den, o.den).max(1);
        let den = (self.den / g).checked_mul(o.den)?;
        let num = self
            .num
            .checked_mul(o.den / g)?
            .checked_add(o.num.checked_mul(self.den / g)?)?;
        Some(
            Mono {
                num,
                den,
                syms: self.syms.clone(),
            }
            .normalized(),
        )
    }

    /// `self / o` when it is an integer for every admissible value ([`Mono::divides`] said Yes).
    pub(crate) fn div_exact(&self, o: &Mono) -> Option<Mono> {
        let (num, den, syms) = self.quotient(o)?;
        let m = Mono { num, den, syms }.normalized();
        m.is_integral().then_some(m)
    }

    /// `self / o` as (numerator, denominator, unknowns), `None` when an unknown of `o` is not
    /// one of `self` (or on overflow).
    #[allow(clippy::type_complexity)]
    fn quotient(&self, o: &Mono) -> Option<(i64, i64, Vec<(Sym, u32)>)> {
        if o.num == 0 {
            return None;
        }
        let mut syms = self.syms.clone();
        for (s, e) in &o.syms {
            let slot = syms.iter_mut().find(|(t, _)| t.id == s.id)?;
            if slot.1 < *e {
                return None;
            }
            slot.1 -= e;
        }
        let mut num = (self.num as i128) * (o.den as i128);
        let mut den = (self.den as i128) * (o.num as i128);
        if den < 0 {
            (num, den) = (-num, -den);
        }
        let g = gcd128(num, den);
        Some((
            i64::try_from(num / g).ok()?,
            i64::try_from(den / g).ok()?,
            syms,
        ))
    }

    /// True when it is an integer for every admissible value: `den` divides `num · Π div^exp`.
    fn is_integral(&self) -> bool {
        let mut rest = self.den as i128;
        rest /= gcd128(rest, self.num as i128);
        for (s, e) in &self.syms {
            for _ in 0..*e {
                if rest == 1 {
                    break;
                }
                rest /= gcd128(rest, s.div as i128);
            }
        }
        rest == 1
    }

    /// Does `self` divide `o` for every admissible value?
    ///
    /// ```
    /// use cute::symbolic::{Mono, Sym, Tri};
    /// let m = Mono::sym(Sym::named("M", 16, 1));
    /// assert_eq!(Mono::int(8).divides(&m), Tri::Yes);
    /// assert_eq!(Mono::int(32).divides(&m), Tri::Depends);
    /// assert_eq!(Mono::int(3).divides(&Mono::int(8)), Tri::No);
    /// ```
    pub fn divides(&self, o: &Mono) -> Tri {
        if o.is_zero() {
            return Tri::Yes;
        }
        if self.is_zero() {
            return Tri::No;
        }
        match o.quotient(self) {
            Some((num, den, syms)) => {
                let q = Mono { num, den, syms };
                if q.is_integral() {
                    Tri::Yes
                } else if q.syms.is_empty() {
                    Tri::No
                } else {
                    Tri::Depends
                }
            }
            None if self.syms.is_empty() && o.syms.is_empty() => Tri::No,
            None => Tri::Depends,
        }
    }

    /// Is `self ≤ o` for every admissible value (both positive)?
    ///
    /// ```
    /// use cute::symbolic::{Mono, Sym, Tri};
    /// let m = Mono::sym(Sym::named("M", 1, 64));
    /// assert_eq!(Mono::int(64).le(&m), Tri::Yes);
    /// assert_eq!(m.le(&Mono::int(63)), Tri::No);
    /// assert_eq!(Mono::int(65).le(&m), Tri::Depends);
    /// ```
    pub fn le(&self, o: &Mono) -> Tri {
        if let (Some(a), Some(b)) = (self.as_int(), o.as_int()) {
            return if a <= b { Tri::Yes } else { Tri::No };
        }
        match (self.num > 0, o.num > 0) {
            (false, true) => return Tri::Yes, // self ≤ 0 < o
            (true, false) => return Tri::No,
            (false, false) => return Tri::Depends,
            (true, true) => {}
        }
        // o / self = q · rest with rest ≥ least(rest): self ≤ o for all iff q · least ≥ 1
        if let Some((n, d)) = ratio_least(o, self) {
            if n >= d {
                return Tri::Yes;
            }
        }
        // self / o = q · rest: self > o for all iff q · least > 1
        if let Some((n, d)) = ratio_least(self, o) {
            if n > d {
                return Tri::No;
            }
        }
        Tri::Depends
    }

    /// Is `self = o` for every admissible value?
    ///
    /// ```
    /// use cute::symbolic::{Mono, Sym, Tri};
    /// let m = Mono::sym(Sym::named("M", 1, 1));
    /// assert_eq!(m.equals(&m), Tri::Yes);
    /// assert_eq!(m.equals(&Mono::int(4)), Tri::Depends);
    /// assert_eq!(m.mul_int(2).unwrap().equals(&m), Tri::No);
    /// assert_eq!(m.mul_int(4).unwrap().equals(&Mono::int(1)), Tri::No);
    /// ```
    pub fn equals(&self, o: &Mono) -> Tri {
        if self == o {
            return Tri::Yes;
        }
        let same_unknowns = self.syms.len() == o.syms.len()
            && self
                .syms
                .iter()
                .zip(&o.syms)
                .all(|(a, b)| a.0.id == b.0.id && a.1 == b.1);
        // a product of positive unknowns is never 0; with the same unknowns, different
        // coefficients never meet; otherwise one side may always be the larger
        let apart = same_unknowns
            || self.is_zero()
            || o.is_zero()
            || self.le(o) == Tri::No
            || o.le(self) == Tri::No;
        if apart {
            Tri::No
        } else {
            Tri::Depends
        }
    }

    /// `self · k`, `None` on overflow.
    ///
    /// ```
    /// use cute::symbolic::Mono;
    /// assert_eq!(Mono::int(3).mul_int(4).unwrap().as_int(), Some(12));
    /// ```
    pub fn mul_int(&self, k: i64) -> Option<Mono> {
        self.mul(&Mono::int(k))
    }

    /// The value for the unknowns' values given by `value`, `None` on overflow or when the
    /// value is not an integer (an inadmissible value).
    pub(crate) fn eval(&self, value: &dyn Fn(&Sym) -> i64) -> Option<i64> {
        let mut n = self.num as i128;
        for (s, e) in &self.syms {
            let v = match &s.id {
                SymId::Ceil(m, c) => {
                    let x = m.eval(value)?;
                    if x < 1 {
                        return None;
                    }
                    (x - 1) / c + 1
                }
                _ => value(s),
            };
            for _ in 0..*e {
                n = n.checked_mul(v as i128)?;
                if n.abs() > (i64::MAX as i128) * (self.den as i128) {
                    return None;
                }
            }
        }
        if n % (self.den as i128) != 0 {
            return None;
        }
        i64::try_from(n / self.den as i128).ok()
    }

    /// The least value over admissible values of its unknowns, as `(numerator, denominator)`
    /// (positive products only), `None` past 128 bits.
    pub(crate) fn least(&self) -> Option<(i128, i128)> {
        let mut v = self.num as i128;
        for (s, e) in &self.syms {
            for _ in 0..*e {
                v = v.checked_mul(s.least() as i128)?;
            }
        }
        Some((v, self.den as i128))
    }
}

fn gcd128(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// `a / b` at its least, when every unknown of `b` is one of `a` (the quotient grows with its
/// unknowns), else `None`.
fn ratio_least(a: &Mono, b: &Mono) -> Option<(i128, i128)> {
    let (num, den, syms) = a.quotient(b)?;
    Mono { num, den, syms }.least()
}
