//! Text built in `const` context: the one writer behind `Display` and behind compile-time errors.
//!
//! A [`Text`] is a fixed buffer of [`TEXT_CAPACITY`] bytes that `const fn`s append to. Every
//! printed form of this crate (layouts, tuples, tilers, swizzles, partial coordinates, errors) is
//! written by a `const fn` into a `Text`; `Display` prints that text, and [`Error::panic`] panics
//! with it, so a refused operation on constants fails compilation with the same one-line message
//! that it returns at run time:
//!
//! ```compile_fail
//! use cute::{composition, layout, unwrap};
//! const R: cute::Layout = unwrap(composition(&layout!("(4,6,8):(2,3,5)"), &layout!("6:3")));
//! // error[E0080]: evaluation panicked: composition (4,6,8):(2,3,5) ∘ 6:3: stride-divisibility
//! // condition (9) fails at mode 1 of the coalesced left operand: stride 3 and prefix product 4
//! // divide neither way; decided exactly, no layout compatible with the right operand computes
//! // A∘B: along leaf 0 of B, ...
//! ```
//!
//! Text that does not fit ends with `…`.
//!
//! [`Error::panic`]: crate::Error::panic

/// The capacity of a [`Text`] in bytes (enough for two layouts of 32 leaves with 19-digit values).
pub const TEXT_CAPACITY: usize = 4096;

/// A string built by `const fn`s in a fixed buffer.
#[derive(Clone)]
pub struct Text {
    buf: [u8; TEXT_CAPACITY],
    len: usize,
    full: bool,
}

/// Bytes kept free for the `…` that marks truncated text.
const ELLIPSIS: &str = "…";

impl Text {
    /// The empty text.
    ///
    /// ```
    /// use cute::Text;
    /// let t = Text::new();
    /// assert_eq!(t.as_str(), "");
    /// assert!(!t.is_truncated());
    /// ```
    pub const fn new() -> Text {
        Text {
            buf: [0; TEXT_CAPACITY],
            len: 0,
            full: false,
        }
    }

    /// Appends `s` whole, or nothing and marks the text truncated when it does not fit.
    ///
    /// ```
    /// use cute::Text;
    /// let mut t = Text::new();
    /// t.push_str("(4,8)");
    /// t.push_str(":(1,4)");
    /// assert_eq!(t.as_str(), "(4,8):(1,4)");
    /// ```
    pub const fn push_str(&mut self, s: &str) {
        let b = s.as_bytes();
        if self.full || self.len + b.len() > TEXT_CAPACITY - ELLIPSIS.len() {
            self.truncate();
            return;
        }
        let mut i = 0;
        while i < b.len() {
            self.buf[self.len + i] = b[i];
            i += 1;
        }
        self.len += b.len();
    }

    /// Appends one ASCII character.
    ///
    /// ```
    /// use cute::Text;
    /// let mut t = Text::new();
    /// t.push_ascii(b'<');
    /// t.push_ascii(b'_');
    /// t.push_ascii(b'>');
    /// assert_eq!(t.as_str(), "<_>");
    /// ```
    pub const fn push_ascii(&mut self, c: u8) {
        let one = [c];
        match core::str::from_utf8(&one) {
            Ok(s) => self.push_str(s),
            Err(_) => self.truncate(),
        }
    }

    /// Appends an integer in decimal.
    ///
    /// ```
    /// use cute::Text;
    /// let mut t = Text::new();
    /// t.push_i64(-12);
    /// t.push_str(",");
    /// t.push_i64(i64::MIN);
    /// assert_eq!(t.as_str(), "-12,-9223372036854775808");
    /// ```
    pub const fn push_i64(&mut self, v: i64) {
        if v < 0 {
            self.push_ascii(b'-');
        }
        self.push_u64(v.unsigned_abs());
    }

    /// Appends an unsigned integer in decimal.
    ///
    /// ```
    /// use cute::Text;
    /// let mut t = Text::new();
    /// t.push_u64(u64::MAX);
    /// assert_eq!(t.as_str(), "18446744073709551615");
    /// ```
    pub const fn push_u64(&mut self, v: u64) {
        let mut digits = [0u8; 20];
        let (mut n, mut x) = (0, v);
        loop {
            digits[19 - n] = b'0' + (x % 10) as u8;
            n += 1;
            x /= 10;
            if x == 0 {
                break;
            }
        }
        self.push_digits(&digits, 20 - n);
    }

    /// Appends `0b` and the binary digits of `v` (Rust's `{:#b}`).
    ///
    /// ```
    /// use cute::Text;
    /// let mut t = Text::new();
    /// t.push_bin(5);
    /// assert_eq!(t.as_str(), format!("{:#b}", 5)); // "0b101"
    /// ```
    pub const fn push_bin(&mut self, v: u64) {
        self.push_str("0b");
        let mut digits = [0u8; 64];
        let (mut n, mut x) = (0, v);
        loop {
            digits[63 - n] = b'0' + (x & 1) as u8;
            n += 1;
            x >>= 1;
            if x == 0 {
                break;
            }
        }
        self.push_digits(&digits, 64 - n);
    }

    const fn push_digits(&mut self, digits: &[u8], from: usize) {
        match core::str::from_utf8(digits.split_at(from).1) {
            Ok(s) => self.push_str(s),
            Err(_) => self.truncate(),
        }
    }

    const fn truncate(&mut self) {
        if self.full {
            return;
        }
        self.full = true;
        let e = ELLIPSIS.as_bytes();
        let mut i = 0;
        while i < e.len() {
            self.buf[self.len + i] = e[i];
            i += 1;
        }
        self.len += e.len();
    }

    /// True when some text did not fit (it then ends with `…`).
    ///
    /// ```
    /// use cute::{Text, TEXT_CAPACITY};
    /// let mut t = Text::new();
    /// for _ in 0..TEXT_CAPACITY {
    ///     t.push_str("x");
    /// }
    /// assert!(t.is_truncated());
    /// assert!(t.as_str().ends_with('…'));
    /// ```
    pub const fn is_truncated(&self) -> bool {
        self.full
    }

    /// The text.
    ///
    /// ```
    /// use cute::{IntTuple, Text};
    /// let mut t = Text::new();
    /// t.push_str("shape ");
    /// t.push_str(IntTuple::int(8).text().as_str());
    /// assert_eq!(t.as_str(), "shape 8");
    /// ```
    pub const fn as_str(&self) -> &str {
        // only whole `&str`s are appended, so the bytes are valid UTF-8
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "",
        }
    }
}

impl Default for Text {
    fn default() -> Text {
        Text::new()
    }
}

impl core::fmt::Debug for Text {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl core::fmt::Display for Text {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Panics with `what("literal"): message` for a literal that does not parse: in `const` context
/// (the [`layout!`](macro@crate::layout) family of macros) a compile error that quotes the literal.
///
/// ```
/// use cute::{text::literal_panic, Layout};
/// let e = Layout::parse_const("(4,8):(1,4").unwrap_err();
/// let p = std::panic::catch_unwind(|| literal_panic("layout", "(4,8):(1,4", &e)).unwrap_err();
/// assert_eq!(p.downcast_ref::<String>().unwrap(), "layout!(\"(4,8):(1,4\"): parse: at byte 10: expected ',' or ')'");
/// ```
pub const fn literal_panic(what: &str, literal: &str, e: &crate::Error) -> ! {
    let mut t = Text::new();
    t.push_str(what);
    t.push_str("!(\"");
    t.push_str(literal);
    t.push_str("\"): ");
    let m = e.message();
    t.push_str(m.as_str());
    panic!("{}", t.as_str())
}

/// A [`Layout`](crate::Layout) written in CuTe notation, parsed by the compiler: a syntax error is
/// a compile error quoting the literal.
///
/// ```
/// use cute::{layout, Layout};
/// const TV: Layout = layout!("((4,8),2):((16,1),8)");
/// assert_eq!(TV.size(), 64);
/// ```
///
/// ```compile_fail
/// const BAD: cute::Layout = cute::layout!("(4,8):(1,4,2)"); // shape and stride not congruent
/// ```
#[macro_export]
macro_rules! layout {
    ($s:literal) => {{
        const L: $crate::Layout = match $crate::Layout::parse_const($s) {
            Ok(l) => l,
            Err(e) => $crate::text::literal_panic("layout", $s, &e),
        };
        L
    }};
}

/// A [`Tiler`](crate::Tiler) written in CuTe notation (`<4:1,8:2>`, `<2,_>`), parsed by the
/// compiler.
///
/// ```
/// use cute::{layout, logical_divide, tiler, unwrap, Layout};
/// const D: Layout = unwrap(logical_divide(&layout!("(8,16):(20,1)"), &tiler!("<4:1,8:2>")));
/// assert_eq!(D.to_string(), "((4,2),(8,2)):((20,80),(2,1))");
/// ```
#[macro_export]
macro_rules! tiler {
    ($s:literal) => {{
        const T: $crate::Tiler = match $crate::Tiler::parse_const($s) {
            Ok(t) => t,
            Err(e) => $crate::text::literal_panic("tiler", $s, &e),
        };
        T
    }};
}

/// An [`IntTuple`](crate::IntTuple) (a shape, a stride or a coordinate) written in CuTe notation,
/// parsed by the compiler.
///
/// ```
/// use cute::{int_tuple, IntTuple};
/// const S: IntTuple = int_tuple!("((4,8),(8,16))");
/// assert_eq!(S.size().unwrap(), 4096);
/// ```
#[macro_export]
macro_rules! int_tuple {
    ($s:literal) => {{
        const X: $crate::IntTuple = match $crate::IntTuple::parse_const($s) {
            Ok(x) => x,
            Err(e) => $crate::text::literal_panic("int_tuple", $s, &e),
        };
        X
    }};
}
