//! The kinds of the operation table: what an operation takes and gives ([`Kind`]), its
//! parameters ([`Param`]), and the typed values its entry point works on ([`Datum`]).
//!
//! A front end reads each argument by its parameter's kind (the command line from CuTe notation
//! with [`Kind::read`], the Python module from Python values), calls the operation's typed entry
//! point, and shows the [`Datum`] it gives (the command line prints it with `Display`).

use crate::{ComposedLayout, Error, ErrorKind, IntTuple, Layout, Op, PartialCoord, Swizzle, Tiler};

/// What an argument or a result of an operation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A layout `shape:stride`.
    Layout,
    /// A tiler: a layout, an int `n` (`make_layout(n)`), `_`, or `<...>` by mode.
    Tiler,
    /// A coalesce/filter profile such as `(_,1)`, read as the tiler `<_,1>`.
    Profile,
    /// An integer tuple: a shape, a stride, an order, a full coordinate.
    IntTuple,
    /// A partial coordinate: integers and `_` for a free mode.
    Coord,
    /// An integer.
    Int,
    /// A mode index: a non-negative integer.
    Mode,
    /// A recast scale: an integer `n` or a fraction `num/den`.
    Scale,
    /// A swizzled layout `Sw<b,m,s> o off o layout`.
    Composed,
    /// A layout, or else an integer tuple.
    LayoutOrTuple,
    /// A shape, or a layout standing for its shape.
    ShapeOrLayout,
    /// (result) true or false.
    Bool,
    /// (result) a value of a layout's codomain (an integer, a coordinate of `e_i` strides, an F2
    /// element).
    Value,
    /// (result) every value of a layout, in index order, printed `(v0,v1,...)`.
    Values,
    /// (result) a sorted set of offsets, printed `{a,b,...}`.
    Set,
    /// (result) a tensor over the counting accessor: a layout and the offset of its first
    /// element, printed `{offset} ∘ layout`.
    Counting,
    /// (result) a shape and a layout, printed `shape layout` (`make_layout_tv`'s tile and TV
    /// layout).
    ShapeAndLayout,
    /// (result) a swizzle `Sw<b,m,s>`.
    Swizzle,
    /// (result) a report in words.
    Text,
}

impl Kind {
    /// The kind's name in the table's listings (`cute ops --json`), in snake case.
    ///
    /// ```
    /// use cute::registry::Kind;
    /// assert_eq!(Kind::LayoutOrTuple.name(), "layout_or_tuple");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Layout => "layout",
            Kind::Tiler => "tiler",
            Kind::Profile => "profile",
            Kind::IntTuple => "int_tuple",
            Kind::Coord => "coord",
            Kind::Int => "int",
            Kind::Mode => "mode",
            Kind::Scale => "scale",
            Kind::Composed => "composed",
            Kind::LayoutOrTuple => "layout_or_tuple",
            Kind::ShapeOrLayout => "shape_or_layout",
            Kind::Bool => "bool",
            Kind::Value => "value",
            Kind::Values => "values",
            Kind::Set => "set",
            Kind::Counting => "counting",
            Kind::ShapeAndLayout => "shape_and_layout",
            Kind::Swizzle => "swizzle",
            Kind::Text => "text",
        }
    }

    /// Reads an argument of this kind from CuTe notation.
    ///
    /// ```
    /// use cute::registry::{Datum, Kind};
    /// let d = Kind::Layout.read("(4,8):(1,4)").unwrap();
    /// assert_eq!(d.to_string(), "(4,8):(1,4)");
    /// assert!(matches!(Kind::Scale.read("1/2").unwrap(), Datum::Scale(1, 2)));
    /// assert!(Kind::Bool.read("true").is_err()); // a result kind
    /// ```
    ///
    /// # Errors
    ///
    /// The reader's error (category `Syntax`, or the value's own errors, e.g. `InvalidShape`) when
    /// the text is not a value of this kind, and `Syntax` for a kind that is only a result.
    pub fn read(self, s: &str) -> Result<Datum, Error> {
        Ok(match self {
            Kind::Layout => Datum::Layout(super::layout(s)?),
            Kind::Tiler => Datum::Tiler(Box::new(super::tiler(s)?)),
            Kind::Profile => Datum::Tiler(Box::new(super::tiler(
                &s.replace('(', "<").replace(')', ">"),
            )?)),
            Kind::IntTuple => Datum::Tuple(super::tuple(s)?),
            Kind::Coord => Datum::Coord(s.parse()?),
            Kind::Int => Datum::Int(super::int(s)?),
            Kind::Mode => Datum::Int(mode_index(s)?),
            Kind::Scale => {
                let (n, d) = scale(s)?;
                Datum::Scale(n, d)
            }
            Kind::Composed => Datum::Composed(s.parse()?),
            Kind::LayoutOrTuple => match super::layout(s) {
                Ok(l) => Datum::Layout(l),
                Err(e) if s.contains(':') => return Err(e),
                Err(_) => Datum::Tuple(super::tuple(s)?),
            },
            Kind::ShapeOrLayout => {
                if s.contains(':') {
                    Datum::Tuple(super::layout(s)?.shape())
                } else {
                    Datum::Tuple(super::tuple(s)?)
                }
            }
            _ => return Err(syntax(0, "an argument kind (this kind is only a result)")),
        })
    }
}

fn syntax(pos: usize, expected: &'static str) -> Error {
    Error::new(Op::Parse, ErrorKind::Syntax { pos, expected })
}

/// A mode index: a non-negative integer.
fn mode_index(s: &str) -> Result<i64, Error> {
    let v = super::int(s)?;
    if v < 0 {
        return Err(syntax(0, "a non-negative mode index"));
    }
    Ok(v)
}

/// A recast scale: an integer `n` or a fraction `num/den` (PyCuTe's `Fraction`).
fn scale(s: &str) -> Result<(i64, i64), Error> {
    match s.split_once('/') {
        None => Ok((super::int(s)?, 1)),
        Some((n, d)) => {
            let at = n.len() + 1; // the denominator's first byte
            let n = super::int(n)?;
            let d = super::int(d).map_err(|e| super::shifted(e, at))?;
            if d == 0 {
                return Err(syntax(at, "a non-zero denominator"));
            }
            Ok((n, d))
        }
    }
}

/// How many arguments a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// Exactly one.
    One,
    /// None or one (the last parameters only).
    Optional,
    /// One or more (the last parameter only).
    Many,
    /// Any number, none included (the last parameter only).
    Any,
}

impl Arity {
    /// The arity's name in the table's listings: `one`, `optional`, `many` or `any`.
    ///
    /// ```
    /// assert_eq!(cute::registry::Arity::Optional.name(), "optional");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Arity::One => "one",
            Arity::Optional => "optional",
            Arity::Many => "many",
            Arity::Any => "any",
        }
    }
}

/// A parameter of an operation.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// Its name (the Python module's keyword), e.g. `tiler`.
    pub name: &'static str,
    /// Its word in `cute ops`, e.g. `TILER`.
    pub word: &'static str,
    /// What it takes.
    pub kind: Kind,
    /// How many arguments it takes.
    pub arity: Arity,
}

impl Param {
    /// A parameter taking exactly one argument.
    ///
    /// ```
    /// use cute::registry::{Kind, Param};
    /// assert_eq!(Param::one("tiler", "TILER", Kind::Tiler).word, "TILER");
    /// ```
    pub const fn one(name: &'static str, word: &'static str, kind: Kind) -> Param {
        Param {
            name,
            word,
            kind,
            arity: Arity::One,
        }
    }

    /// A parameter that may be left out.
    ///
    /// ```
    /// use cute::registry::{Arity, Kind, Param};
    /// assert_eq!(Param::optional("cotarget", "COTARGET", Kind::IntTuple).arity, Arity::Optional);
    /// ```
    pub const fn optional(name: &'static str, word: &'static str, kind: Kind) -> Param {
        Param {
            arity: Arity::Optional,
            ..Param::one(name, word, kind)
        }
    }

    /// A parameter taking one or more arguments.
    ///
    /// ```
    /// use cute::registry::{Arity, Kind, Param};
    /// assert_eq!(Param::many("layouts", "LAYOUT", Kind::Layout).arity, Arity::Many);
    /// ```
    pub const fn many(name: &'static str, word: &'static str, kind: Kind) -> Param {
        Param {
            arity: Arity::Many,
            ..Param::one(name, word, kind)
        }
    }

    /// A parameter taking any number of arguments.
    ///
    /// ```
    /// use cute::registry::{Arity, Kind, Param};
    /// assert_eq!(Param::any("index", "INDEX", Kind::Int).arity, Arity::Any);
    /// ```
    pub const fn any(name: &'static str, word: &'static str, kind: Kind) -> Param {
        Param {
            arity: Arity::Any,
            ..Param::one(name, word, kind)
        }
    }

    /// The parameter as `cute ops` lists it: `WORD`, `[WORD]`, `WORD...` or `[WORD...]`.
    ///
    /// ```
    /// use cute::registry::{Kind, Param};
    /// assert_eq!(Param::any("index", "INDEX", Kind::Int).usage(), "[INDEX...]");
    /// ```
    pub fn usage(&self) -> String {
        match self.arity {
            Arity::One => self.word.to_string(),
            Arity::Optional => format!("[{}]", self.word),
            Arity::Many => format!("{}...", self.word),
            Arity::Any => format!("[{}...]", self.word),
        }
    }
}

/// A typed value of the table: an argument read by its kind, or an operation's result.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // short-lived; the layouts are the common case
pub enum Datum {
    /// A layout.
    Layout(Layout),
    /// A tiler (boxed: it holds up to eight layouts, and every value of the enum would be as
    /// large).
    Tiler(Box<Tiler>),
    /// An integer tuple.
    Tuple(IntTuple),
    /// A partial coordinate.
    Coord(PartialCoord),
    /// An integer.
    Int(i64),
    /// A scale `num/den`.
    Scale(i64, i64),
    /// A swizzled layout.
    Composed(ComposedLayout),
    /// A truth value.
    Bool(bool),
    /// A value of a layout's codomain.
    Value(crate::Value),
    /// Every value of a layout, in index order.
    Values(Vec<crate::Value>),
    /// A sorted set of offsets.
    Set(Vec<i64>),
    /// A layout and the offset of its first element.
    Counting(Layout, i64),
    /// A shape and a layout.
    ShapeAndLayout(IntTuple, Layout),
    /// A swizzle.
    Swizzle(Swizzle),
    /// A report in words.
    Text(String),
}

impl core::fmt::Display for Datum {
    /// CuTe notation, as `cute OP ARG...` prints a result.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Datum::Layout(l) => write!(f, "{l}"),
            Datum::Tiler(t) => write!(f, "{t}"),
            Datum::Tuple(t) => write!(f, "{t}"),
            Datum::Coord(c) => write!(f, "{c}"),
            Datum::Int(v) => write!(f, "{v}"),
            Datum::Scale(n, 1) => write!(f, "{n}"),
            Datum::Scale(n, d) => write!(f, "{n}/{d}"),
            Datum::Composed(c) => write!(f, "{c}"),
            Datum::Bool(b) => write!(f, "{b}"),
            Datum::Value(v) => write!(f, "{v}"),
            Datum::Values(vs) => {
                f.write_str("(")?;
                for (i, v) in vs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(")")
            }
            Datum::Set(s) => {
                f.write_str("{")?;
                for (i, v) in s.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("}")
            }
            Datum::Counting(l, off) => write!(f, "{{{off}}} ∘ {l}"),
            Datum::ShapeAndLayout(s, l) => write!(f, "{s} {l}"),
            Datum::Swizzle(s) => write!(f, "{s}"),
            Datum::Text(t) => f.write_str(t),
        }
    }
}

/// The error of an entry point given a value of another kind than its parameter's (a front end's
/// mistake: every front end reads arguments by their parameters' kinds).
pub(super) fn not_a(expected: &'static str) -> Error {
    syntax(0, expected)
}

/// The arguments of an entry point, by position: typed access that never panics.
pub trait Args {
    /// Argument `k`, if given.
    fn opt(&self, k: usize) -> Option<&Datum>;
    /// Argument `k` as a layout.
    ///
    /// # Errors
    ///
    /// `Syntax` when argument `k` is missing or not a layout.
    fn layout(&self, k: usize) -> Result<&Layout, Error> {
        match self.opt(k) {
            Some(Datum::Layout(l)) => Ok(l),
            _ => Err(not_a("a layout")),
        }
    }
    /// Argument `k` as a tiler.
    ///
    /// # Errors
    ///
    /// `Syntax` when argument `k` is missing or not a tiler.
    fn tiler(&self, k: usize) -> Result<&Tiler, Error> {
        match self.opt(k) {
            Some(Datum::Tiler(t)) => Ok(t),
            _ => Err(not_a("a tiler")),
        }
    }
    /// Argument `k` as an integer tuple.
    ///
    /// # Errors
    ///
    /// `Syntax` when argument `k` is missing or not an integer tuple.
    fn tuple(&self, k: usize) -> Result<&IntTuple, Error> {
        match self.opt(k) {
            Some(Datum::Tuple(t)) => Ok(t),
            _ => Err(not_a("an integer tuple")),
        }
    }
    /// Argument `k` as a partial coordinate.
    ///
    /// # Errors
    ///
    /// `Syntax` when argument `k` is missing or not a coordinate.
    fn coord(&self, k: usize) -> Result<&PartialCoord, Error> {
        match self.opt(k) {
            Some(Datum::Coord(c)) => Ok(c),
            _ => Err(not_a("a coordinate")),
        }
    }
    /// Argument `k` as an integer.
    ///
    /// # Errors
    ///
    /// `Syntax` when argument `k` is missing or not an integer.
    fn int(&self, k: usize) -> Result<i64, Error> {
        match self.opt(k) {
            Some(Datum::Int(v)) => Ok(*v),
            _ => Err(not_a("an integer")),
        }
    }
}

impl Args for [Datum] {
    fn opt(&self, k: usize) -> Option<&Datum> {
        self.get(k)
    }
}
