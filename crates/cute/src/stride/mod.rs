//! Strides from the paper's integer semimodules (整数半模 “integer semimodules”): integers `Z`,
//! coordinate bases `e_i` (arithmetic tuples, `Z^S`), and binary strides `F2` (XOR addition,
//! carry-less scaling).
//!
//! A layout's codomain is any semimodule over the integers: a set with an addition and a scaling
//! by integer coordinates. Every stride of one layout lies in the same semimodule (zero lies in
//! all of them); the paper's concatenation `(4:2, 3:e_0)` of an integer and a coordinate stride is
//! refused.
//!
//! | semimodule | stride | printed | `c · d` | `d + d'` |
//! |---|---|---|---|---|
//! | integers `Z` | `3` | `3` | `c·3` | integer sum |
//! | coordinates `Z^S` | `3·e_1`, `e_(0,1)` | `3@1`, `1@1@0` | scales the coefficient | per coordinate |
//! | binary `F2[x]` | `f_5` | `F5` | carry-less product `c ⊗ 5` | XOR |
//!
//! A scaled basis `v@p_k@…@p_1` is `v·E(p_1,…,p_k)`: the path is printed innermost first, so
//! `1@1@0` is the unit at top mode 0, sub-mode 1 (CuTe's `E<0,1>`).
//!
//! ```
//! use cute::{Layout, Value};
//! // the paper's identity layout I_(4,6) = (4,6):(e0,e1)
//! let id: Layout = "(4,6):(1@0,1@1)".parse().unwrap();
//! assert_eq!(id.eval_value(9).unwrap().to_string(), "(1,2)");
//! // a swizzle as binary strides: f9 = x^3 + 1
//! let sw: Layout = "(8,8):(F1,F9)".parse().unwrap();
//! assert_eq!(sw.eval_value(9).unwrap(), Value::F2(1 ^ 9));
//! ```
//!
//! This file is part of the base layer (it imports only `CAPACITY`): the types and their parts
//! that cannot fail. The arithmetic that can fail (`Stride::f2`, `Stride::basis`, `Stride::scale`,
//! `Value::add`) is in the submodule `ops`, above the errors; printing in `fmt.rs`.

use crate::int_tuple::CAPACITY;

pub(crate) mod ops;

/// Which semimodule a stride (or a layout's codomain) belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Semimodule {
    /// The integers: ordinary strides.
    Integer,
    /// Arithmetic tuples `Z^S`: scaled coordinate bases `v·e_i` (`v@i`).
    Coordinate,
    /// Polynomials over `F2`: binary strides `f_k` (`Fk`), XOR addition, carry-less scaling.
    Binary,
}

impl Semimodule {
    /// The paper's name.
    ///
    /// ```
    /// use cute::Semimodule;
    /// assert_eq!(Semimodule::Integer.name(), "integer");
    /// assert_eq!(Semimodule::Binary.name(), "binary (F2)");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Semimodule::Integer => "integer",
            Semimodule::Coordinate => "coordinate (E)",
            Semimodule::Binary => "binary (F2)",
        }
    }
}

/// The deepest basis path `E(p_1,…,p_k)` a coordinate stride may have.
pub const MAX_PATH: usize = 5;
/// The largest index of a basis path entry.
pub const MAX_BASIS_INDEX: usize = 62;

/// A basis code, as stored next to each stride value (see [`INTEGER`]).
pub(crate) type Code = i32;

/// The code of the stride kind stored next to each stride value: `0` for integers (and for every
/// zero stride), [`BINARY`] for F2, and a positive packed path for coordinate bases.
pub(crate) const INTEGER: Code = 0;
pub(crate) const BINARY: Code = -1;

/// One stride: a value and the semimodule element it scales.
///
/// Zero is canonical (`Stride::ZERO` in every semimodule). Construct with [`Stride::int`],
/// [`Stride::f2`] or [`Stride::basis`]; print and parse as CuTe does.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stride {
    pub(crate) value: i64,
    pub(crate) code: Code,
}

impl Stride {
    /// The zero of every semimodule.
    pub const ZERO: Stride = Stride { value: 0, code: 0 };

    /// The integer stride `v`.
    ///
    /// ```
    /// use cute::Stride;
    /// assert_eq!(Stride::int(3).to_string(), "3");
    /// assert_eq!(Stride::int(3).value(), 3);
    /// ```
    pub const fn int(v: i64) -> Stride {
        Stride { value: v, code: 0 }
    }

    /// `(value, code)` with zero made canonical.
    pub(crate) const fn from_code(value: i64, code: Code) -> Stride {
        if value == 0 && code != BINARY {
            Stride::ZERO
        } else {
            Stride { value, code }
        }
    }

    /// The value: the integer, the coefficient of the basis, or the bits of the binary stride.
    ///
    /// ```
    /// use cute::Stride;
    /// assert_eq!(Stride::basis(3, &[1]).unwrap().value(), 3);
    /// assert_eq!(Stride::f2(9).unwrap().value(), 9);
    /// ```
    pub const fn value(&self) -> i64 {
        self.value
    }

    /// True for the zero stride.
    ///
    /// ```
    /// use cute::Stride;
    /// assert!(Stride::int(0).is_zero());
    /// assert_eq!(Stride::basis(0, &[1]).unwrap(), Stride::ZERO);
    /// assert!(!Stride::int(2).is_zero());
    /// ```
    pub const fn is_zero(&self) -> bool {
        self.value == 0
    }

    /// The semimodule of a nonzero stride; `None` for zero, which lies in all of them.
    ///
    /// ```
    /// use cute::{Semimodule, Stride};
    /// assert_eq!(Stride::f2(5).unwrap().semimodule(), Some(Semimodule::Binary));
    /// assert_eq!(Stride::basis(1, &[0]).unwrap().semimodule(), Some(Semimodule::Coordinate));
    /// assert_eq!(Stride::int(0).semimodule(), None); // zero lies in every semimodule
    /// ```
    pub const fn semimodule(&self) -> Option<Semimodule> {
        if self.value == 0 {
            None
        } else {
            Some(kind_of(self.code))
        }
    }

    /// The basis path `(p_1, …, p_k)` of a coordinate stride, outermost first (empty otherwise),
    /// with its length.
    ///
    /// ```
    /// use cute::Stride;
    /// let (p, k) = Stride::basis(1, &[0, 1]).unwrap().path();
    /// assert_eq!(&p[..k], &[0, 1]);
    /// assert_eq!(Stride::int(4).path().1, 0);
    /// ```
    pub const fn path(&self) -> ([usize; MAX_PATH], usize) {
        decode_path(self.code)
    }

    /// Same stride, `const`.
    ///
    /// ```
    /// use cute::Stride;
    /// const SAME: bool = Stride::int(0).const_eq(&Stride::ZERO);
    /// assert!(SAME);
    /// ```
    pub const fn const_eq(&self, other: &Stride) -> bool {
        self.value == other.value && self.code == other.code
    }
}

/// The coalescing rule on raw parts: the mode `s0:d0` (basis code `b0`) followed by `d1` (code
/// `b1`) merge when `s0·d0 = d1` in the strides' semimodule (over F2, `s0` a power of two).
#[inline]
pub(crate) const fn merges(s0: i64, d0: i64, b0: Code, d1: i64, b1: Code) -> bool {
    if b0 == INTEGER && b1 == INTEGER {
        // the common case first (it includes `d0 = d1 = 0`)
        return matches!(s0.checked_mul(d0), Some(x) if x == d1);
    }
    if d0 == 0 && d1 == 0 {
        return true;
    }
    if b0 != b1 {
        return false;
    }
    if b0 == BINARY {
        if s0 <= 0 || s0 & (s0 - 1) != 0 {
            return false;
        }
        return match clmul_checked(d0 as u64, s0 as u64) {
            Some(x) => x == d1 as u64,
            None => false,
        };
    }
    matches!(s0.checked_mul(d0), Some(x) if x == d1)
}

/// The semimodule of a nonzero stride with this code.
pub(crate) const fn kind_of(code: Code) -> Semimodule {
    if code == INTEGER {
        Semimodule::Integer
    } else if code == BINARY {
        Semimodule::Binary
    } else {
        Semimodule::Coordinate
    }
}

/// Why a basis path has no code: it is deeper than [`MAX_PATH`], or an index exceeds
/// [`MAX_BASIS_INDEX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PathLimit {
    Depth,
    Index,
}

/// Packs a basis path (outermost first) into a positive code: entry `j` (plus one) in bits
/// `6j..6j+6`.
pub(crate) const fn path_code(path: &[usize]) -> Result<Code, PathLimit> {
    if path.is_empty() || path.len() > MAX_PATH {
        return Err(PathLimit::Depth);
    }
    let mut code: Code = 0;
    let mut j = 0;
    while j < path.len() {
        if path[j] > MAX_BASIS_INDEX {
            return Err(PathLimit::Index);
        }
        code |= ((path[j] + 1) as Code) << (6 * j);
        j += 1;
    }
    Ok(code)
}

/// The path of a code (empty for integer and binary codes).
pub(crate) const fn decode_path(code: Code) -> ([usize; MAX_PATH], usize) {
    let mut out = [0usize; MAX_PATH];
    if code <= 0 {
        return (out, 0);
    }
    let mut n = 0;
    while n < MAX_PATH {
        let d = (code >> (6 * n)) & 63;
        if d == 0 {
            break;
        }
        out[n] = (d - 1) as usize;
        n += 1;
    }
    (out, n)
}

/// The code of the path with its outermost entry removed (`0` when nothing is left).
pub(crate) const fn path_tail(code: Code) -> Code {
    code >> 6
}

/// The outermost entry of a coordinate code.
pub(crate) const fn path_head(code: Code) -> usize {
    ((code & 63) - 1) as usize
}

/// Carry-less product of two polynomials over F2; `None` when the degree reaches 63.
pub(crate) const fn clmul_checked(a: u64, b: u64) -> Option<u64> {
    if a == 0 || b == 0 {
        return Some(0);
    }
    let deg = (63 - a.leading_zeros()) + (63 - b.leading_zeros());
    if deg >= 63 {
        return None;
    }
    let mut r: u64 = 0;
    let mut x = b;
    let mut k = 0;
    while x != 0 {
        if x & 1 == 1 {
            r ^= a << k;
        }
        x >>= 1;
        k += 1;
    }
    Some(r)
}

/// The value of a layout at a coordinate: an integer, a binary (F2) value, or an arithmetic tuple
/// (a sum of scaled coordinate bases).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[allow(clippy::large_enum_variant)] // stored inline: no heap, like every value of this crate
pub enum Value {
    /// An integer offset.
    Int(i64),
    /// A polynomial over F2, as its bits.
    F2(u64),
    /// An element of `Z^S`.
    Coord(ArithTuple),
}

impl Value {}

/// An element of the arithmetic-tuple semimodule `Z^S`: a finite sum of scaled bases
/// `Σ v_k·E(path_k)`, kept as its terms sorted by path code. A term whose coefficient is zero is
/// kept too: it records the positions the value spans (PyCuTe's evaluation keeps them, and prints
/// `(18,3,0)` for `18·e_0 + 3·e_1 + 0·e_2`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ArithTuple {
    pub(crate) n: u8,
    pub(crate) code: [Code; CAPACITY],
    pub(crate) val: [i64; CAPACITY],
}

impl ArithTuple {
    /// The zero tuple.
    pub const ZERO: ArithTuple = ArithTuple {
        n: 0,
        code: [0; CAPACITY],
        val: [0; CAPACITY],
    };

    /// The number of terms (positions spanned, zero coefficients included).
    ///
    /// ```
    /// use cute::{Layout, Value};
    /// let id: Layout = "(4,6):(1@0,1@1)".parse().unwrap();
    /// let Value::Coord(t) = id.eval_value(9).unwrap() else { unreachable!() };
    /// assert_eq!(t.to_string(), "(1,2)");
    /// assert_eq!(t.terms(), 2);
    /// ```
    pub const fn terms(&self) -> usize {
        self.n as usize
    }

    /// True when every coefficient is zero.
    ///
    /// ```
    /// use cute::{Layout, Value};
    /// let id: Layout = "(4,6):(1@0,1@1)".parse().unwrap();
    /// let Value::Coord(t) = id.eval_value(0).unwrap() else { unreachable!() };
    /// assert!(t.is_zero());
    /// let Value::Coord(t) = id.eval_value(9).unwrap() else { unreachable!() };
    /// assert!(!t.is_zero());
    /// ```
    pub const fn is_zero(&self) -> bool {
        let mut i = 0;
        while i < self.n as usize {
            if self.val[i] != 0 {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Term `i` as `(coefficient, path, path length)`, path outermost first.
    ///
    /// ```
    /// use cute::{Layout, Value};
    /// let id: Layout = "(4,6):(1@0,1@1)".parse().unwrap();
    /// let Value::Coord(t) = id.eval_value(9).unwrap() else { unreachable!() };
    /// let (coef, path, k) = t.term(1);
    /// assert_eq!((coef, &path[..k]), (2, &[1][..]));
    /// ```
    pub const fn term(&self, i: usize) -> (i64, [usize; MAX_PATH], usize) {
        let (p, k) = decode_path(self.code[i]);
        (self.val[i], p, k)
    }

    /// The coordinate at a path (outermost first); `0` where no term lies.
    ///
    /// ```
    /// use cute::{Layout, Value};
    /// let id: Layout = "(4,6):(1@0,1@1)".parse().unwrap();
    /// let Value::Coord(t) = id.eval_value(9).unwrap() else { unreachable!() };
    /// assert_eq!((t.get(&[0]), t.get(&[1]), t.get(&[2])), (1, 2, 0));
    /// ```
    pub const fn get(&self, path: &[usize]) -> i64 {
        let code = match path_code(path) {
            Ok(c) => c,
            Err(_) => return 0,
        };
        let mut i = 0;
        while i < self.n as usize {
            if self.code[i] == code {
                return self.val[i];
            }
            i += 1;
        }
        0
    }
}

/// True when path `a` is a proper prefix of path `b` (codes of coordinate bases).
pub(crate) const fn is_prefix(a: Code, b: Code) -> bool {
    let (pa, na) = decode_path(a);
    let (pb, nb) = decode_path(b);
    if na >= nb {
        return false;
    }
    let mut i = 0;
    while i < na {
        if pa[i] != pb[i] {
            return false;
        }
        i += 1;
    }
    true
}
