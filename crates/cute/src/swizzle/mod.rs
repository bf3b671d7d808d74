//! Swizzles: CuTe's `Swizzle<B,M,S>` functor on offsets, and composed layouts
//! `Sw<B,M,S> o offset o L`.
//!
//! A swizzle XORs `B` bits of an offset into `B` other bits, `S` positions away; the `M` lowest bits
//! are never touched (they address the elements of one vector). With
//!
//! ```text
//! yyy = (2^B - 1) << (M + max(0, S))      the bits that are read
//! zzz = (2^B - 1) << (M - min(0, S))      the bits that are flipped
//! Sw(o) = o ^ ((o & yyy) >> S)            (a negative S shifts left)
//! ```
//!
//! For `|S| ≥ B` the two masks do not overlap, so `Sw` is an involution (`Sw(Sw(o)) = o`) and a
//! bijection of every block `[k·2^n, (k+1)·2^n)` with `n = M + B + |S|`. Shared-memory tiles use
//! swizzles to spread the rows of a column access over the 32 banks ([`crate::banks`]).
//!
//! | swizzle | `yyy` | `zzz` | `Sw(1)` | `Sw(8)` | `Sw(64)` | `Sw(72)` | `Sw(100)` | `Sw(511)` |
//! |---|---|---|---|---|---|---|---|---|
//! | `Sw<0,4,3>` (identity) | `0` | `0` | 1 | 8 | 64 | 72 | 100 | 511 |
//! | `Sw<1,0,1>` | `0b10` | `0b1` | 1 | 8 | 64 | 72 | 100 | 510 |
//! | `Sw<2,0,2>` | `0b1100` | `0b11` | 1 | 10 | 64 | 74 | 101 | 508 |
//! | `Sw<3,2,3>` | `0b111_00000` | `0b111_00` | 1 | 8 | 72 | 64 | 104 | 483 |
//! | `Sw<3,3,3>` | `0b111_000000` | `0b111_000` | 1 | 8 | 72 | 64 | 108 | 455 |
//! | `Sw<3,4,3>` | `0b111_0000000` | `0b111_0000` | 1 | 8 | 64 | 72 | 100 | 463 |
//! | `Sw<2,4,-3>` | `0b11_0000` | `0b11_0000000` | 1 | 8 | 64 | 72 | 356 | 127 |
//!
//! (Computed with CuTe C++'s `Swizzle<B,M,S>{}(o)`; the test suite checks a larger table.)
//!
//! A [`ComposedLayout`] is CuTe's `ComposedLayout<Swizzle, Offset, Layout>`: `x ↦ Sw(offset + L(x))`,
//! printed as CuTe C++ prints it without the static markers `_`, e.g. the swizzled 8×64 fp16 tile
//! of CUTLASS's SM80 GEMMs:
//!
//! ```
//! use cute::{ComposedLayout, Layout, Swizzle};
//! let sw: Swizzle = "Sw<3,3,3>".parse().unwrap();
//! assert_eq!((sw.apply(64), sw.apply(72), sw.apply(511)), (72, 64, 455));
//! let l: Layout = "(8,64):(64,1)".parse().unwrap();
//! let c = ComposedLayout::new(sw, 0, l);
//! assert_eq!(c.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
//! assert_eq!(c.eval(1).unwrap(), 72); // row 1, column 0: 64, its 16-byte chunk moved by 1
//! let back: ComposedLayout = "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)".parse().unwrap();
//! assert_eq!(back, c);
//! ```

use crate::error::{add, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::IntTuple;
use crate::layout::{check_walk, for_each_offset, Layout};
use core::str::FromStr;

pub(crate) mod repr;
pub use repr::{ComposedLayout, Swizzle};

impl Swizzle {
    /// `Sw<0,0,0>`: no bit is moved.
    pub const IDENTITY: Swizzle = Swizzle { b: 0, m: 0, s: 0 };

    /// `Sw<b,m,s>`. CuTe's conditions: `b ≥ 0`, `m ≥ 0`, `|s| ≥ b`; here also `b + m + |s| ≤ 63`
    /// (the masks fit in an `i64`).
    ///
    /// ```
    /// use cute::Swizzle;
    /// let sw = Swizzle::new(3, 3, 3).unwrap();
    /// assert_eq!(sw.to_string(), "Sw<3,3,3>");
    /// assert_eq!(Swizzle::new(3, 0, 2).unwrap_err().to_string(), "swizzle: Sw<3,0,2> is not a swizzle: B and M must be non-negative, |S| at least B, and B+M+|S| at most 63");
    /// ```
    ///
    /// # Errors
    ///
    /// Fails with [`ErrorKind::InvalidSwizzle`] otherwise.
    pub const fn new(b: i64, m: i64, s: i64) -> Result<Swizzle, Error> {
        let ok = b >= 0
            && m >= 0
            && s >= -63
            && s <= 63
            && b <= 63
            && m <= 63
            && s.abs() >= b
            && b + m + s.abs() <= 63;
        if !ok {
            return Err(Error::new(
                Op::Swizzle,
                ErrorKind::InvalidSwizzle { b, m, s },
            ));
        }
        Ok(Swizzle {
            b: b as u8,
            m: m as u8,
            s: s as i8,
        })
    }

    /// `B`: the number of bits XORed.
    ///
    /// ```
    /// use cute::Swizzle;
    /// let sw: Swizzle = "Sw<2,4,-3>".parse().unwrap();
    /// assert_eq!(sw.bits(), 2);
    /// ```
    pub const fn bits(&self) -> i64 {
        self.b as i64
    }

    /// `M`: the number of lowest bits left alone.
    ///
    /// ```
    /// use cute::Swizzle;
    /// let sw: Swizzle = "Sw<2,4,-3>".parse().unwrap();
    /// assert_eq!(sw.base(), 4);
    /// ```
    pub const fn base(&self) -> i64 {
        self.m as i64
    }

    /// `S`: the distance from the read bits down to the flipped bits (negative: up).
    ///
    /// ```
    /// use cute::Swizzle;
    /// let sw: Swizzle = "Sw<2,4,-3>".parse().unwrap();
    /// assert_eq!(sw.shift(), -3);
    /// ```
    pub const fn shift(&self) -> i64 {
        self.s as i64
    }

    /// True when no bit is moved (`B = 0`).
    ///
    /// ```
    /// use cute::Swizzle;
    /// assert!("Sw<0,4,3>".parse::<Swizzle>().unwrap().is_identity());
    /// assert!(!"Sw<3,3,3>".parse::<Swizzle>().unwrap().is_identity());
    /// ```
    pub const fn is_identity(&self) -> bool {
        self.b == 0
    }

    /// `yyy`: the bits read, `(2^B - 1) << (M + max(0, S))`.
    ///
    /// ```
    /// use cute::Swizzle;
    /// assert_eq!("Sw<3,2,3>".parse::<Swizzle>().unwrap().yyy_mask(), 0b111_00000);
    /// assert_eq!("Sw<2,4,-3>".parse::<Swizzle>().unwrap().yyy_mask(), 0b11_0000);
    /// ```
    pub const fn yyy_mask(&self) -> i64 {
        let up = if self.s > 0 { self.s as u32 } else { 0 };
        ((1i64 << self.b) - 1) << (self.m as u32 + up)
    }

    /// `zzz`: the bits flipped, `(2^B - 1) << (M - min(0, S))`.
    ///
    /// ```
    /// use cute::Swizzle;
    /// assert_eq!("Sw<3,2,3>".parse::<Swizzle>().unwrap().zzz_mask(), 0b111_00);
    /// assert_eq!("Sw<2,4,-3>".parse::<Swizzle>().unwrap().zzz_mask(), 0b11_0000000);
    /// ```
    pub const fn zzz_mask(&self) -> i64 {
        let up = if self.s < 0 { (-self.s) as u32 } else { 0 };
        ((1i64 << self.b) - 1) << (self.m as u32 + up)
    }

    /// `n = M + B + |S|`: the swizzle is a bijection of every block `[k·2^n, (k+1)·2^n)` (and
    /// changes only the bits below `n`).
    ///
    /// ```
    /// use cute::Swizzle;
    /// let sw: Swizzle = "Sw<3,3,3>".parse().unwrap();
    /// assert_eq!(sw.block_bits(), 9); // a bijection of every block of 512 offsets
    /// ```
    pub const fn block_bits(&self) -> i64 {
        self.m as i64 + self.b as i64 + (self.s as i64).abs()
    }

    /// `Sw(o) = o ^ ((o & yyy) >> S)`, a left shift for negative `S`. Defined for every `i64`
    /// (two's complement bits, as CuTe's `int`), never overflows.
    ///
    /// ```
    /// use cute::Swizzle;
    /// let sw: Swizzle = "Sw<2,0,2>".parse().unwrap();
    /// assert_eq!((sw.apply(8), sw.apply(100), sw.apply(511)), (10, 101, 508));
    /// assert_eq!(sw.apply(sw.apply(100)), 100); // an involution
    /// ```
    pub const fn apply(&self, o: i64) -> i64 {
        let y = o & self.yyy_mask(); // non-negative, below 2^62
        if self.s >= 0 {
            o ^ (y >> self.s as u32)
        } else {
            o ^ (y << (-self.s) as u32)
        }
    }

    /// The composed layout `Sw o 0 o l` (CuTe's `composition(Swizzle, Layout)`).
    ///
    /// ```
    /// use cute::{Layout, Swizzle};
    /// let sw: Swizzle = "Sw<3,3,3>".parse().unwrap();
    /// let c = sw.compose(&"(8,64):(64,1)".parse::<Layout>().unwrap());
    /// assert_eq!(c.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
    /// assert_eq!(c.eval(1).unwrap(), 72);
    /// ```
    pub const fn compose(&self, l: &Layout) -> ComposedLayout {
        ComposedLayout::new(*self, 0, *l)
    }

    /// Parses `Sw<B,M,S>` (spaces allowed between tokens), usable in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, Swizzle};
    /// const SW: Swizzle = unwrap(Swizzle::parse_const("Sw<3,3,3>"));
    /// assert_eq!(SW.apply(64), 72);
    /// assert_eq!(Swizzle::parse_const("Sw<3,3>").unwrap_err().to_string(), "parse: at byte 6: expected `,`");
    /// ```
    ///
    /// # Errors
    ///
    /// `Syntax` for text that is not `Sw<B,M,S>`, and the errors of [`Swizzle::new`] for its
    /// parameters.
    pub const fn parse_const(text: &str) -> Result<Swizzle, Error> {
        let s = text.as_bytes();
        let (sw, pos) = tri!(swizzle_at(s, 0));
        tri!(expect_end(s, pos));
        Ok(sw)
    }
}

impl ComposedLayout {
    /// `swizzle o offset o layout`.
    ///
    /// ```
    /// use cute::{ComposedLayout, Layout, Swizzle};
    /// let sw = Swizzle::new(1, 0, 1).unwrap();
    /// let c = ComposedLayout::new(sw, 0, "4:1".parse::<Layout>().unwrap());
    /// assert_eq!(c.to_string(), "Sw<1,0,1> o 0 o 4:1");
    /// assert_eq!(c.values().unwrap(), vec![0, 1, 3, 2]);
    /// ```
    pub const fn new(swizzle: Swizzle, offset: i64, layout: Layout) -> ComposedLayout {
        ComposedLayout {
            swizzle,
            offset,
            layout,
        }
    }

    /// The size of the domain, the layout's [`Layout::size`] (which cannot fail).
    ///
    /// ```
    /// use cute::{ComposedLayout, Layout, Swizzle};
    /// let l: Layout = "(8,8):(8,1)".parse().unwrap();
    /// assert_eq!(ComposedLayout::new(Swizzle::new(3, 0, 3).unwrap(), 0, l).size(), 64);
    /// ```
    pub const fn size(&self) -> i64 {
        self.layout.size()
    }

    /// `Sw(offset + L(i))` at the integer coordinate `i` (the layout's [`Layout::eval`]).
    ///
    /// ```
    /// use cute::ComposedLayout;
    /// let c: ComposedLayout = "Sw<1,0,1> o 4 o 4:1".parse().unwrap();
    /// assert_eq!((c.eval(0).unwrap(), c.eval(2).unwrap(), c.eval(3).unwrap()), (4, 7, 6));
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`Layout::eval`] at `i`, and `Overflow` when `offset + L(i)` does not fit in
    /// `i64`.
    pub const fn eval(&self, i: i64) -> Result<i64, Error> {
        let v = match self.layout.eval(i) {
            Ok(v) => v,
            Err(e) => return Err(e.with(Operand::Composed(*self), Operand::Int(i))),
        };
        match add(Op::Eval, self.offset, v) {
            Ok(o) => Ok(self.swizzle.apply(o)),
            Err(e) => Err(e.with(Operand::Composed(*self), Operand::Int(i))),
        }
    }

    /// `Sw(offset + L(c))` at any admissible coordinate `c` ([`Layout::eval_crd`]).
    ///
    /// ```
    /// use cute::ComposedLayout;
    /// let c: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse().unwrap();
    /// assert_eq!(c.eval_crd(&"(1,0)".parse().unwrap()).unwrap(), 72);
    /// assert_eq!(c.eval_crd(&"(1,8)".parse().unwrap()).unwrap(), 64);
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`Layout::eval_crd`] at `c`, and `Overflow` when `offset + L(c)` does not fit
    /// in `i64`.
    pub const fn eval_crd(&self, c: &IntTuple) -> Result<i64, Error> {
        let v = match self.layout.eval_crd(c) {
            Ok(v) => v,
            Err(e) => return Err(e.with(Operand::Composed(*self), Operand::Tuple(*c))),
        };
        match add(Op::Eval, self.offset, v) {
            Ok(o) => Ok(self.swizzle.apply(o)),
            Err(e) => Err(e.with(Operand::Composed(*self), Operand::Tuple(*c))),
        }
    }

    /// Every value on the domain, in order: `Sw(offset + L(i))` for `i` in `0..size`. Costs
    /// `O(size)` time and memory; a `Capacity` error beyond [`WALK_LIMIT`](crate::WALK_LIMIT) points.
    ///
    /// ```
    /// use cute::ComposedLayout;
    /// let c: ComposedLayout = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse().unwrap();
    /// assert_eq!(c.values().unwrap(), vec![0, 3, 1, 2]);
    /// ```
    ///
    /// # Errors
    ///
    /// `Capacity` when the domain has more than [`WALK_LIMIT`](crate::WALK_LIMIT) points; a refusal
    /// when the layout does not have integer strides.
    pub fn values(&self) -> Result<Vec<i64>, Error> {
        self.checked(Op::Image)?;
        let mut out = Vec::new();
        for_each_offset(&self.layout, |v| {
            out.push(self.swizzle.apply(self.offset.wrapping_add(v)))
        });
        Ok(out)
    }

    /// The image: every value reached, sorted, without repetition (`O(size)`).
    ///
    /// ```
    /// use cute::ComposedLayout;
    /// let c: ComposedLayout = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse().unwrap();
    /// assert_eq!(c.image().unwrap(), vec![0, 1, 2, 3]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`ComposedLayout::values`].
    pub fn image(&self) -> Result<Vec<i64>, Error> {
        let mut v = self.values()?;
        v.sort_unstable();
        v.dedup();
        Ok(v)
    }

    /// `max Sw(offset + L(i)) + 1` over the domain (the extent of memory it reaches, for
    /// non-negative values), computed by walking the domain (`O(size)`; a `Capacity` error beyond
    /// [`WALK_LIMIT`](crate::WALK_LIMIT) points).
    ///
    /// ```
    /// use cute::ComposedLayout;
    /// let c: ComposedLayout = "Sw<1,0,1> o 0 o 2:2".parse().unwrap();
    /// assert_eq!(c.values().unwrap(), vec![0, 3]);
    /// assert_eq!(c.cosize().unwrap(), 4); // the layout 2:2 alone reaches only 3
    /// ```
    ///
    /// # Errors
    ///
    /// As [`ComposedLayout::values`], and `Overflow` when the largest value plus one does not fit
    /// in `i64`.
    pub fn cosize(&self) -> Result<i64, Error> {
        self.checked(Op::Cosize)?;
        let mut hi = i64::MIN;
        for_each_offset(&self.layout, |v| {
            hi = hi.max(self.swizzle.apply(self.offset.wrapping_add(v)))
        });
        add(Op::Cosize, hi, 1).map_err(|e| e.with(Operand::Composed(*self), Operand::None))
    }

    /// Checks, for the walk of `op` over the domain, that it has at most [`WALK_LIMIT`](crate::WALK_LIMIT) points and
    /// that `offset + L(i)` fits in an `i64` on all of them (then the wrapping walks above are
    /// exact).
    fn checked(&self, op: Op) -> Result<(), Error> {
        let tag = |e: Error| e.retag(op).with(Operand::Composed(*self), Operand::None);
        check_walk(op, self.layout.size()).map_err(tag)?;
        let c = self.layout.cosize().map_err(tag)?;
        // every L(i) lies in (-c, c)
        add(op, self.offset.abs(), c).map_err(tag)?;
        Ok(())
    }

    /// Parses `Sw<B,M,S> o offset o L` (CuTe's printing; static markers `_` and spaces accepted),
    /// usable in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, ComposedLayout};
    /// const C: ComposedLayout = unwrap(ComposedLayout::parse_const("Sw<3,3,3> o 0 o (8,64):(64,1)"));
    /// assert_eq!(C.eval(1).unwrap(), 72);
    /// let e = ComposedLayout::parse_const("Sw<3,3,3> o (8,64):(64,1)").unwrap_err();
    /// assert_eq!(e.to_string(), "parse: at byte 12: expected an integer");
    /// ```
    ///
    /// # Errors
    ///
    /// `Syntax` for text that is not `Sw<B,M,S> o offset o L`, and the errors of [`Swizzle::new`]
    /// and of the layout's parser.
    pub const fn parse_const(text: &str) -> Result<ComposedLayout, Error> {
        let s = text.as_bytes();
        let (sw, pos) = tri!(swizzle_at(s, 0));
        let pos = tri!(expect_o(s, pos));
        let (offset, pos) = tri!(crate::parse::int(s, pos));
        let pos = tri!(expect_o(s, pos));
        let (layout, pos) = tri!(crate::parse::layout_at(s, pos));
        tri!(expect_end(s, pos));
        Ok(ComposedLayout::new(sw, offset, layout))
    }
}

const fn syntax(pos: usize, expected: &'static str) -> Error {
    Error::new(Op::Parse, ErrorKind::Syntax { pos, expected })
}

const fn expect_end(s: &[u8], pos: usize) -> Result<(), Error> {
    let p = crate::parse::skip_ws(s, pos);
    if p < s.len() {
        return Err(syntax(p, "the end of the input"));
    }
    Ok(())
}

/// Skips `o` between spaces (the composition sign of CuTe's printing).
const fn expect_o(s: &[u8], pos: usize) -> Result<usize, Error> {
    let p = crate::parse::skip_ws(s, pos);
    if p >= s.len() || s[p] != b'o' {
        return Err(syntax(p, "` o ` (composition)"));
    }
    Ok(p + 1)
}

/// Parses `Sw<B,M,S>` at `pos`; returns it and the position after `>`.
const fn swizzle_at(s: &[u8], pos: usize) -> Result<(Swizzle, usize), Error> {
    let p = crate::parse::skip_ws(s, pos);
    if p + 3 > s.len() || s[p] != b'S' || s[p + 1] != b'w' || s[p + 2] != b'<' {
        return Err(syntax(p, "`Sw<`"));
    }
    let (b, p) = tri!(crate::parse::int(s, p + 3));
    let p = tri!(expect_byte(s, p, b','));
    let (m, p) = tri!(crate::parse::int(s, p));
    let p = tri!(expect_byte(s, p, b','));
    let (sh, p) = tri!(crate::parse::int(s, p));
    let p = tri!(expect_byte(s, p, b'>'));
    match Swizzle::new(b, m, sh) {
        Ok(sw) => Ok((sw, p)),
        Err(e) => Err(e),
    }
}

const fn expect_byte(s: &[u8], pos: usize, c: u8) -> Result<usize, Error> {
    let p = crate::parse::skip_ws(s, pos);
    if p >= s.len() || s[p] != c {
        return Err(syntax(
            p,
            match c {
                b',' => "`,`",
                _ => "`>`",
            },
        ));
    }
    Ok(p + 1)
}

impl Swizzle {
    /// The swizzle on the domain `[0, 2^n)` as a layout with binary (F2) strides: a swizzle is
    /// linear over F2 (`Sw(x ⊕ y) = Sw(x) ⊕ Sw(y)`), so bit `j` of the index contributes the stride
    /// `f_{Sw(2^j)}`; the `n` one-bit modes are then coalesced. `Sw<3,0,3>` on 64 elements is the
    /// paper's `(8,8):(F1,F9)`.
    ///
    /// ```
    /// use cute::Swizzle;
    /// let sw: Swizzle = "Sw<3,0,3>".parse().unwrap();
    /// assert_eq!(sw.to_f2_layout(6).unwrap().to_string(), "(8,8):(F1,F9)");
    /// let back = Swizzle::from_f2_layout(&"(8,8):(F1,F9)".parse().unwrap()).unwrap();
    /// assert_eq!(back.to_string(), "Sw<3,0,3>");
    /// ```
    ///
    /// # Errors
    ///
    /// `Capacity` when `n` is 0 or more than the index bits a layout holds.
    pub fn to_f2_layout(&self, n: u32) -> Result<Layout, Error> {
        if n == 0 || n as usize > crate::CAPACITY || n > 62 {
            return Err(Error::new(
                Op::Swizzle,
                ErrorKind::Capacity {
                    what: "number of index bits of a swizzle's F2 layout",
                    limit: crate::CAPACITY,
                },
            ));
        }
        let shape = IntTuple::flat(&vec![2; n as usize])?;
        let strides = (0..n)
            .map(|j| crate::Stride::f2(self.apply(1i64 << j) as u64))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(crate::coalesce(&Layout::from_strides(&shape, &strides)?))
    }

    /// The cheapest `Sw<B,M,S>` (fewest bits, then smallest `M`, then smallest `|S|`) that agrees
    /// with the binary-strided layout `l` on its whole domain, which must be `[0, 2^n)` with every
    /// extent a power of two (then `l` is F2-linear in the index bits).
    ///
    /// ```
    /// use cute::{Layout, Swizzle};
    /// let l: Layout = "(4,4):(F1,F5)".parse().unwrap(); // the paper's Table 1 swizzle
    /// assert_eq!(Swizzle::from_f2_layout(&l).unwrap().to_string(), "Sw<2,0,2>");
    /// let e = Swizzle::from_f2_layout(&"(4,4):(F1,F6)".parse().unwrap()).unwrap_err();
    /// assert_eq!(e.to_string(), "swizzle (4,4):(F1,F6): unsupported: no Swizzle<B,M,S> agrees with this F2 layout on every index bit");
    /// ```
    ///
    /// # Errors
    ///
    /// Fails when no swizzle is equivalent.
    pub fn from_f2_layout(l: &Layout) -> Result<Swizzle, Error> {
        let err = |what: &'static str| {
            Error::new(Op::Swizzle, ErrorKind::Unsupported { what })
                .with(Operand::Layout(*l), Operand::None)
        };
        if !matches!(
            l.semimodule(),
            crate::Semimodule::Binary | crate::Semimodule::Integer
        ) {
            return Err(err("a swizzle from a layout with coordinate strides"));
        }
        if (0..l.leaf_count()).any(|k| l.leaf_at(k).0.count_ones() != 1) {
            return Err(err(
                "a swizzle from an F2 layout whose extents are not powers of two",
            ));
        }
        let size = l.size();
        let n = size.trailing_zeros() as i64;
        let images = (0..n)
            .map(|j| l.eval(1i64 << j))
            .collect::<Result<Vec<_>, _>>()?;
        for b in 0..=n {
            for m in 0..=n {
                for a in 0..=n {
                    for s in [a, -a] {
                        let Ok(sw) = Swizzle::new(b, m, s) else {
                            continue;
                        };
                        if (0..n).all(|j| sw.apply(1i64 << j) == images[j as usize]) {
                            return Ok(sw);
                        }
                    }
                }
            }
        }
        Err(err(
            "no Swizzle<B,M,S> agrees with this F2 layout on every index bit",
        ))
    }
}

impl ComposedLayout {
    /// `Sw ∘ L` (offset 0) as one layout with binary strides: the swizzle's F2 layout over the
    /// bits that `L` reaches, composed with `L` (the carry-less composition checks that `L`'s
    /// strides scale it exactly).
    ///
    /// ```
    /// use cute::ComposedLayout;
    /// let c: ComposedLayout = "Sw<3,0,3> o 0 o (8,8):(1,8)".parse().unwrap();
    /// assert_eq!(c.to_f2_layout().unwrap().to_string(), "(8,8):(F1,F9)");
    /// let c: ComposedLayout = "Sw<3,0,3> o 0 o (8,8):(8,1)".parse().unwrap();
    /// assert_eq!(c.to_f2_layout().unwrap().to_string(), "(8,8):(F9,F1)");
    /// ```
    ///
    /// # Errors
    ///
    /// `Unsupported` for a nonzero offset; the errors of the layout's cosize and of
    /// [`Swizzle::to_f2_layout`]; the errors of the carry-less composition when `L`'s strides do
    /// not scale the swizzle's F2 layout exactly.
    pub fn to_f2_layout(&self) -> Result<Layout, Error> {
        if self.offset != 0 {
            return Err(Error::new(
                Op::Swizzle,
                ErrorKind::Unsupported {
                    what: "an F2 layout of a composed layout with a nonzero offset",
                },
            )
            .with(Operand::Composed(*self), Operand::None));
        }
        let c = self.layout.cosize()?;
        let bits = (64 - (c.max(2) - 1).leading_zeros()).max(self.swizzle.block_bits() as u32);
        let sw = self.swizzle.to_f2_layout(bits)?;
        crate::composition(&sw, &self.layout)
    }
}

impl FromStr for Swizzle {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Swizzle::parse_const(s)
    }
}

impl FromStr for ComposedLayout {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        ComposedLayout::parse_const(s)
    }
}
