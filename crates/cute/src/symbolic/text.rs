//! Reading and printing symbolic layouts in CuTe notation with unknowns.
//!
//! ```text
//! layout  := tree(shape) ':' tree(stride) | tree(shape)   (no stride: compact column-major)
//! tree(x) := x | '(' tree(x) (',' tree(x))* ')'
//! shape   := product
//! stride  := product ('@' nat)?
//! product := factor ('*' factor)* ('/' nat)?
//! factor  := int | '?' facts? | '?' nat facts? | name facts? | '⌈' factor ('*' factor)* '/' nat '⌉'
//!                                                                 name := [A-Za-z_][A-Za-z0-9_]*
//! facts   := '{' fact (',' fact)* '}'                             fact := ('div' | 'min') '=' nat
//! ```
//! Each bare `?` is a new unknown; `?3` and names are the same unknown wherever they occur, and
//! carry their facts where they first occur.

use super::error::{Reason, SymError};
use super::expr::{Mono, Sym, SymId};
use super::layout::{SymLayout, SymStride, Tree};
use core::fmt;
use core::str::FromStr;
use std::collections::HashMap;

/// How deep a text may nest (as the integer reader).
const MAX_NEST: usize = 64;

struct Reader<'a> {
    s: &'a [u8],
    pos: usize,
    /// Each name's unknown and whether its facts were written.
    names: HashMap<String, (Sym, bool)>,
}

type Res<T> = Result<T, (usize, String)>;

impl Reader<'_> {
    fn ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.pos).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn fail<T>(&self, what: &str) -> Res<T> {
        Err((self.pos, what.to_string()))
    }
    fn nat(&mut self) -> Res<i64> {
        self.ws();
        let start = self.pos;
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        if start == self.pos {
            return self.fail("a number");
        }
        let t = core::str::from_utf8(&self.s[start..self.pos]).unwrap_or("");
        t.parse()
            .map_err(|_| (start, "a number that fits in 64 bits".into()))
    }
    fn facts(&mut self) -> Res<Option<(i64, i64)>> {
        if !self.eat(b'{') {
            return Ok(None);
        }
        let (mut div, mut min) = (1, 1);
        let mut seen = [false; 2];
        loop {
            self.ws();
            let rest = &self.s[self.pos..];
            let key = if rest.starts_with(b"div") {
                0
            } else if rest.starts_with(b"min") {
                1
            } else {
                return self.fail("`div` or `min`");
            };
            if seen[key] {
                return self.fail(if key == 0 {
                    "`min` or `}` (`div` is given once)"
                } else {
                    "`div` or `}` (`min` is given once)"
                });
            }
            seen[key] = true;
            self.pos += 3;
            if !self.eat(b'=') {
                return self.fail("`=`");
            }
            let at = self.pos;
            let v = self.nat()?;
            if v < 1 {
                return Err((at, "a positive number".into()));
            }
            if key == 0 {
                div = v;
            } else {
                min = v;
            }
            if self.eat(b'}') {
                return Ok(Some((div, min)));
            }
            if !self.eat(b',') {
                return self.fail("`,` or `}`");
            }
        }
    }
    fn named(&mut self, name: String, at: usize) -> Res<Sym> {
        let facts = self.facts()?;
        match (self.names.get_mut(&name), facts) {
            (Some((s, _)), None) => Ok(s.clone()),
            (Some((s, true)), Some((d, m))) if s.div == d.max(1) && s.min == m.max(1) => {
                Ok(s.clone())
            }
            (Some((s, true)), Some(_)) => Err((
                at,
                format!(
                    "no facts, or those given first for `{name}` ({{div={},min={}}})",
                    s.div, s.min
                ),
            )),
            (Some((s, false)), Some((d, m))) => {
                // facts written at a later occurrence: they hold for all of them
                *s = Sym::named(&name, d, m);
                Ok(s.clone())
            }
            (None, f) => {
                let (d, m) = f.unwrap_or((1, 1));
                let s = Sym::named(&name, d, m);
                self.names.insert(name, (s.clone(), f.is_some()));
                Ok(s)
            }
        }
    }
    fn factor(&mut self) -> Res<Mono> {
        let c = self.peek();
        let at = self.pos;
        match c {
            Some(b'?') => {
                self.pos += 1;
                if self.pos < self.s.len() && self.s[self.pos].is_ascii_digit() {
                    let n = self.nat()?;
                    Ok(Mono::sym(self.named(format!("?{n}"), at)?))
                } else {
                    let (d, m) = self.facts()?.unwrap_or((1, 1));
                    Ok(Mono::sym(Sym::anonymous(d, m)))
                }
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' && !self.digit_after() => {
                let start = self.pos;
                while self.pos < self.s.len()
                    && (self.s[self.pos].is_ascii_alphanumeric() || self.s[self.pos] == b'_')
                {
                    self.pos += 1;
                }
                let name = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
                // `_` is CuTe's underscore and `F9` a binary stride: neither names an unknown
                if name == "_" {
                    return Err((at, "an unknown's name, not `_` (CuTe's underscore)".into()));
                }
                if name.len() > 1
                    && name.starts_with('F')
                    && name[1..].bytes().all(|b| b.is_ascii_digit())
                {
                    return Err((
                        at,
                        format!("an unknown's name, not `{name}` (a binary stride: F2 strides do not mix with unknowns)"),
                    ));
                }
                Ok(Mono::sym(self.named(name, at)?))
            }
            Some(c) if c.is_ascii_digit() || c == b'-' || c == b'_' => {
                if c == b'_' {
                    self.pos += 1; // CuTe's static marker `_4`
                }
                let neg = self.eat(b'-');
                // `-M`, `-?`: the negated factor (a negative stride over an unknown)
                if neg && self.s.get(self.pos).is_some_and(|c| !c.is_ascii_digit()) {
                    return self
                        .factor()?
                        .mul_int(-1)
                        .ok_or((at, "a product that fits in 64 bits".into()));
                }
                let v = self.nat()?;
                Ok(Mono::int(if neg { -v } else { v }))
            }
            _ if self.s[self.pos..].starts_with("⌈".as_bytes()) => {
                self.pos += "⌈".len();
                let m = self.factors()?;
                if !self.eat(b'/') {
                    return self.fail("`/` in `⌈m/c⌉`");
                }
                let c = self.nat()?;
                self.ws();
                if !self.s[self.pos..].starts_with("⌉".as_bytes()) {
                    return self.fail("`⌉`");
                }
                self.pos += "⌉".len();
                Sym::ceil(&m, c).ok_or((at, "a positive product over a positive number".into()))
            }
            _ => self.fail("an integer, `?`, a name or `⌈m/c⌉`"),
        }
    }
    fn digit_after(&self) -> bool {
        self.s
            .get(self.pos + 1)
            .is_some_and(|c| c.is_ascii_digit() || *c == b'-')
    }
    /// `f * f * …`: factors multiplied (no division).
    fn factors(&mut self) -> Res<Mono> {
        let at = self.pos;
        let mut m = self.factor()?;
        while self.eat(b'*') {
            let f = self.factor()?;
            m = m
                .mul(&f)
                .ok_or((at, "a product that fits in 64 bits".to_string()))?;
        }
        Ok(m)
    }
    fn product(&mut self) -> Res<Mono> {
        let at = self.pos;
        let mut m = self.factors()?;
        if self.eat(b'/') {
            let d = self.nat()?;
            m = (d > 0)
                .then(|| m.div_exact(&Mono::int(d)))
                .flatten()
                .ok_or((
                    at,
                    format!("a product divisible by {d} for every admissible value"),
                ))?;
        }
        Ok(m)
    }
    fn tree<T>(&mut self, depth: usize, leaf: &mut dyn FnMut(&mut Self) -> Res<T>) -> Res<Tree<T>> {
        if depth > MAX_NEST {
            return self.fail("less nesting");
        }
        if self.eat(b'(') {
            let mut v = vec![self.tree(depth + 1, leaf)?];
            while self.eat(b',') {
                v.push(self.tree(depth + 1, leaf)?);
            }
            if !self.eat(b')') {
                return self.fail("`,` or `)`");
            }
            Ok(Tree::Node(v))
        } else {
            Ok(Tree::Leaf(leaf(self)?))
        }
    }
}

fn congruent<A, B>(a: &Tree<A>, b: &Tree<B>) -> bool {
    match (a, b) {
        (Tree::Leaf(_), Tree::Leaf(_)) => true,
        (Tree::Node(x), Tree::Node(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| congruent(p, q))
        }
        _ => false,
    }
}

/// Column-major strides for `shape`: the prefix products, and 0 for an extent known to be 1 (as
/// the integer `compact_col_major` and CuTe's static `make_layout` give).
fn compact(shape: &Tree<Mono>, acc: &mut Mono) -> Option<Tree<SymStride>> {
    Some(match shape {
        Tree::Leaf(s) if s.is_one() => Tree::Leaf(SymStride::int(Mono::int(0))),
        Tree::Leaf(s) => {
            let d = acc.clone();
            *acc = acc.mul(s)?;
            Tree::Leaf(SymStride::int(d))
        }
        Tree::Node(v) => Tree::Node(v.iter().map(|c| compact(c, acc)).collect::<Option<_>>()?),
    })
}

impl FromStr for SymLayout {
    type Err = SymError;

    /// Reads `shape:stride` in CuTe notation with unknowns (see [`SymLayout`]); without a
    /// stride, column-major.
    ///
    /// # Errors
    ///
    /// Text that is not such a layout (category `Syntax`): the byte and what was expected.
    ///
    /// ```
    /// use cute::symbolic::SymLayout;
    /// let l: SymLayout = "(M{div=16,min=64},8):(8,1)".parse().unwrap();
    /// assert_eq!(l.to_string(), "(M{div=16,min=64},8):(8,1)");
    /// assert_eq!("(4,?)".parse::<SymLayout>().unwrap().to_string(), "(4,?):(1,4)");
    /// assert!("(4,0):(1,4)".parse::<SymLayout>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<SymLayout, SymError> {
        let mut r = Reader {
            s: text.as_bytes(),
            pos: 0,
            names: HashMap::new(),
        };
        let syntax = |(pos, expected): (usize, String)| {
            SymError::new("parse", String::new(), Reason::Syntax { pos, expected })
        };
        let shape_at = r.pos;
        let shape = r.tree(0, &mut |r| r.product()).map_err(syntax)?;
        for s in shape.leaves() {
            if s.num <= 0 {
                return Err(syntax((shape_at, "positive shape leaves".into())));
            }
        }
        let stride = if r.eat(b':') {
            let stride_at = r.pos;
            let d = r
                .tree(0, &mut |r| {
                    let m = r.product()?;
                    let axis = if r.eat(b'@') {
                        Some(
                            u32::try_from(r.nat()?)
                                .map_err(|_| (r.pos, "a small axis".to_string()))?,
                        )
                    } else {
                        None
                    };
                    Ok(SymStride { m, axis })
                })
                .map_err(syntax)?;
            if !congruent(&shape, &d) {
                // where the stride leaves the shape's structure, as the integer reader says
                let (pos, what) = crate::parse::incongruence(r.s, shape_at, stride_at)
                    .unwrap_or((r.pos, "the stride's structure differs from the shape's"));
                return Err(syntax((
                    pos,
                    format!("a stride congruent with the shape: {what}"),
                )));
            }
            d
        } else {
            compact(&shape, &mut Mono::int(1))
                .ok_or_else(|| syntax((r.pos, "a size that fits in 64 bits".into())))?
        };
        r.ws();
        if r.pos != text.len() {
            return Err(syntax((r.pos, "the end of the layout".into())));
        }
        let table = r
            .names
            .into_values()
            .map(|(s, _)| (s.id.clone(), s))
            .collect();
        Ok(SymLayout { shape, stride }.rename(&table))
    }
}

/// Prints a product: `192*M*?{div=8}/4`; `names` gives each unknown's text and whether its
/// facts were printed already.
fn mono_text(m: &Mono, names: &mut Namer) -> String {
    if m.syms.is_empty() {
        return m.num.to_string();
    }
    let mut out = match m.num {
        1 => String::new(),
        -1 => "-".into(),
        k => format!("{k}*"),
    };
    // factors in an order that depends only on their printed names (so that the text reads
    // back to the same text): names first, then `?k`, then bare `?`
    let mut factors: Vec<String> = Vec::new();
    for (s, e) in &m.syms {
        for _ in 0..*e {
            factors.push(names.text(s));
        }
    }
    let key = |t: &String| {
        let base: String = t.chars().take_while(|c| *c != '{').collect();
        let k = base
            .strip_prefix('?')
            .map(|n| n.parse::<u64>().unwrap_or(u64::MAX));
        (k.is_some(), k, base)
    };
    factors.sort_by_key(key); // stable: a repeated unknown keeps its facts on the first
    out.push_str(&factors.join("*"));
    if m.den != 1 {
        out.push_str(&format!("/{}", m.den));
    }
    out
}

/// Names unknowns while printing one layout: facts at the first occurrence only; an anonymous
/// unknown that occurs more than once is printed `?1`, `?2`, … (read back as one unknown).
struct Namer {
    count: HashMap<SymId, usize>,
    seen: HashMap<SymId, String>,
    next: usize,
}

impl Namer {
    fn text(&mut self, s: &Sym) -> String {
        if let SymId::Ceil(m, c) = &s.id {
            return format!("⌈{}/{c}⌉", mono_text(m, self));
        }
        if let Some(n) = self.seen.get(&s.id) {
            return n.clone();
        }
        let base = match (&s.id, self.count.get(&s.id).copied().unwrap_or(0)) {
            (SymId::Named(n), _) => n.clone(),
            (SymId::Anon(_), c) if c > 1 => loop {
                self.next += 1;
                let name = format!("?{}", self.next);
                if !self.count.contains_key(&SymId::Named(name.clone())) {
                    break name; // not a name the layout already uses
                }
            },
            _ => "?".into(),
        };
        if !matches!(s.id, SymId::Anon(_)) || base != "?" {
            self.seen.insert(s.id.clone(), base.clone());
        }
        format!("{base}{}", s.facts())
    }
}

/// How often each unknown occurs in `m` (inside a `⌈m/c⌉` too).
fn count_unknowns(m: &Mono, count: &mut HashMap<SymId, usize>) {
    for (s, e) in &m.syms {
        match &s.id {
            SymId::Ceil(b, _) => {
                for _ in 0..*e {
                    count_unknowns(b, count);
                }
            }
            id => *count.entry(id.clone()).or_default() += *e as usize,
        }
    }
}

fn tree_text<T>(t: &Tree<T>, leaf: &mut dyn FnMut(&T) -> String) -> String {
    match t {
        Tree::Leaf(x) => leaf(x),
        Tree::Node(v) => {
            let parts: Vec<String> = v.iter().map(|c| tree_text(c, leaf)).collect();
            format!("({})", parts.join(","))
        }
    }
}

impl SymLayout {
    /// The text with every product printed by `f` (basis strides as `k@i`).
    pub(crate) fn print_with(&self, f: &mut dyn FnMut(&Mono) -> String) -> String {
        let s = tree_text(&self.shape, &mut |m| f(m));
        let d = tree_text(&self.stride, &mut |d: &SymStride| match d.axis {
            Some(a) => format!("{}@{a}", f(&d.m)),
            None => f(&d.m),
        });
        format!("{s}:{d}")
    }
}

impl fmt::Display for SymLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut count: HashMap<SymId, usize> = HashMap::new();
        self.print_with(&mut |m: &Mono| {
            count_unknowns(m, &mut count);
            String::new()
        });
        let mut namer = Namer {
            count,
            seen: HashMap::new(),
            next: 0,
        };
        f.write_str(&self.print_with(&mut |m| mono_text(m, &mut namer)))
    }
}

impl fmt::Display for Mono {
    /// `192*M{div=8}`, `?`, `12`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut count: HashMap<SymId, usize> = HashMap::new();
        count_unknowns(self, &mut count);
        let mut namer = Namer {
            count,
            seen: HashMap::new(),
            next: 0,
        };
        f.write_str(&mono_text(self, &mut namer))
    }
}

impl fmt::Display for super::eval::SymOffset {
    /// `0`, `13`, `5+3*M`, `-2+4*M`: the terms joined by their signs (the static one first), an
    /// anonymous unknown that occurs more than once printed `?1` at each occurrence.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return f.write_str("0");
        }
        let mut count: HashMap<SymId, usize> = HashMap::new();
        for m in &self.terms {
            count_unknowns(m, &mut count);
        }
        let mut namer = Namer {
            count,
            seen: HashMap::new(),
            next: 0,
        };
        for (k, m) in self.terms.iter().enumerate() {
            let t = mono_text(m, &mut namer);
            if k > 0 && !t.starts_with('-') {
                f.write_str("+")?;
            }
            f.write_str(&t)?;
        }
        Ok(())
    }
}
