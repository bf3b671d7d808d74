//! Parsing CuTe notation, as `const fn`s over bytes (no recursion on the nesting, so deep input
//! gives an error instead of a stack overflow).
//!
//! ```text
//! layout   := node ':' snode             (4,8):(1,4)   12:1   ((2,2),3):((24,2),8)
//! node     := int | '(' node (',' node)* ')'
//! snode    := stride | '(' snode (',' snode)* ')'
//! stride   := int | int ('@' nat)+ | 'F' nat  3   1@0   3@1@0 (= 3·E(0,1))   F9
//! tiler    := '<' titem (',' titem)* '>' | layout | node
//! titem    := layout | node | '_' | tiler
//! ```
//! Spaces are allowed between tokens. A static marker `_` directly before a digit (`_4`, CuTe's
//! printing of `Int<4>`) is accepted and ignored.

use crate::error::{tri, Error, ErrorKind, Op};
use crate::int_tuple::build::Builder;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::stride::ops::encode_path;
use crate::stride::{Code, BINARY, MAX_BASIS_INDEX, MAX_PATH};
use crate::tiler::{Tile, Tiler, MAX_TILES};

const fn syntax(pos: usize, expected: &'static str) -> Error {
    Error::new(Op::Parse, ErrorKind::Syntax { pos, expected })
}

const fn is_space(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\n' || c == b'\r'
}

pub(crate) const fn skip_ws(s: &[u8], mut pos: usize) -> usize {
    while pos < s.len() && is_space(s[pos]) {
        pos += 1;
    }
    pos
}

/// True when `s[pos..]` starts an integer (optionally with a static marker `_` or a sign).
const fn starts_int(s: &[u8], pos: usize) -> bool {
    if pos >= s.len() {
        return false;
    }
    let c = s[pos];
    if c.is_ascii_digit() || c == b'-' {
        return true;
    }
    c == b'_' && pos + 1 < s.len() && (s[pos + 1].is_ascii_digit() || s[pos + 1] == b'-')
}

/// Parses an `i64` at `pos`; returns the value and the position after it.
pub(crate) const fn int(s: &[u8], pos: usize) -> Result<(i64, usize), Error> {
    let mut p = skip_ws(s, pos);
    if p < s.len() && s[p] == b'_' {
        p += 1;
    }
    let mut neg = false;
    if p < s.len() && s[p] == b'-' {
        neg = true;
        p += 1;
    }
    if p >= s.len() || !s[p].is_ascii_digit() {
        return Err(syntax(p, "an integer"));
    }
    let mut v: i64 = 0;
    while p < s.len() && s[p].is_ascii_digit() {
        let d = (s[p] - b'0') as i64;
        // accumulate negatively so that i64::MIN parses
        v = match v.checked_mul(10) {
            Some(x) => match x.checked_sub(d) {
                Some(y) => y,
                None => {
                    return Err(Error::new(
                        Op::Parse,
                        ErrorKind::Overflow {
                            what: "an integer literal",
                        },
                    ))
                }
            },
            None => {
                return Err(Error::new(
                    Op::Parse,
                    ErrorKind::Overflow {
                        what: "an integer literal",
                    },
                ))
            }
        };
        p += 1;
    }
    if !neg {
        v = match v.checked_neg() {
            Some(x) => x,
            None => {
                return Err(Error::new(
                    Op::Parse,
                    ErrorKind::Overflow {
                        what: "an integer literal",
                    },
                ))
            }
        };
    }
    Ok((v, p))
}

/// Parses one node (an integer or a parenthesised tuple) into a fresh builder's `a` array.
pub(crate) const fn node(s: &[u8], pos: usize) -> Result<(Builder, usize), Error> {
    node_of(s, pos, false)
}

/// Parses a stride leaf after its integer value `v` (at `pos`): `@i@j…` makes it a scaled basis.
/// Returns the basis code and the position after the leaf.
const fn basis_suffix(s: &[u8], pos: usize) -> Result<(Code, usize), Error> {
    let mut path = [0usize; MAX_PATH];
    let mut n = 0;
    let mut p = pos;
    while p < s.len() && s[p] == b'@' {
        p += 1;
        if p >= s.len() || !s[p].is_ascii_digit() {
            return Err(syntax(p, "a basis index after '@'"));
        }
        let (v, q) = tri!(int(s, p));
        if n >= MAX_PATH {
            return Err(Error::new(
                Op::Parse,
                ErrorKind::Capacity {
                    what: "depth of a basis path E(p_1,…,p_k)",
                    limit: MAX_PATH,
                },
            ));
        }
        if v < 0 || v > MAX_BASIS_INDEX as i64 {
            return Err(Error::new(
                Op::Parse,
                ErrorKind::Capacity {
                    what: "index of a basis element e_i",
                    limit: MAX_BASIS_INDEX,
                },
            ));
        }
        path[n] = v as usize;
        n += 1;
        p = q;
    }
    if n == 0 {
        return Ok((0, p));
    }
    // printed innermost first: reverse into outermost-first order
    let mut rev = [0usize; MAX_PATH];
    let mut i = 0;
    while i < n {
        rev[i] = path[n - 1 - i];
        i += 1;
    }
    let code = tri!(encode_path(rev.split_at(n).0));
    Ok((code, p))
}

/// The brackets of a nested list and the words of their errors: `(`…`)` around the modes of a
/// tuple, `<`…`>` around the tiles of a tiler.
struct Group {
    open: u8,
    close: u8,
    /// The `Unsupported` of an empty group.
    empty: &'static str,
    /// What may follow an item.
    after: &'static str,
}

const TUPLE: Group = Group {
    open: b'(',
    close: b')',
    empty: "empty tuples `()`",
    after: "',' or ')'",
};

const TILER: Group = Group {
    open: b'<',
    close: b'>',
    empty: "empty tilers `<>`",
    after: "',' or '>'",
};

/// At the opening bracket `s[p]` of `g`: opens a group in `b` (one level deeper) and returns the
/// position after the bracket; an empty group is an error.
const fn open_group(
    s: &[u8],
    p: usize,
    b: &mut Builder,
    depth: &mut usize,
    g: &Group,
) -> Result<usize, Error> {
    tri!(b.open(Op::Parse));
    *depth += 1;
    let q = skip_ws(s, p + 1);
    if q < s.len() && s[q] == g.close {
        return Err(Error::new(
            Op::Parse,
            ErrorKind::Unsupported { what: g.empty },
        ));
    }
    Ok(p + 1)
}

/// After an item at `p`: any number of closing brackets of `g`, then a ',' (the position after it
/// is returned) or, once `depth` is 0, the end of the list (the position where it ends).
const fn after_item(
    s: &[u8],
    mut p: usize,
    b: &mut Builder,
    depth: &mut usize,
    g: &Group,
) -> Result<usize, Error> {
    loop {
        if *depth == 0 {
            return Ok(p);
        }
        p = skip_ws(s, p);
        if p < s.len() && s[p] == g.close {
            tri!(b.close(Op::Parse));
            *depth -= 1;
            p += 1;
            continue;
        }
        if p < s.len() && s[p] == b',' {
            return Ok(p + 1);
        }
        return Err(syntax(p, g.after));
    }
}

/// [`node`], where with `strides` a leaf may also be a binary stride `F9` or a scaled basis `3@1@0`;
/// their basis codes go to the builder's `b` array.
pub(crate) const fn node_of(
    s: &[u8],
    pos: usize,
    strides: bool,
) -> Result<(Builder, usize), Error> {
    let mut b = Builder::new();
    let mut p = skip_ws(s, pos);
    let mut depth = 0usize;
    loop {
        p = skip_ws(s, p);
        // expecting a value
        if p >= s.len() {
            return Err(syntax(p, "an integer or '('"));
        }
        if s[p] == TUPLE.open {
            p = tri!(open_group(s, p, &mut b, &mut depth, &TUPLE));
            continue;
        }
        if strides && s[p] == b'F' {
            p += 1;
            if p >= s.len() || !s[p].is_ascii_digit() {
                return Err(syntax(p, "the bits of a binary stride after 'F'"));
            }
            let (v, q) = tri!(int(s, p));
            tri!(b.push(Op::Parse, v, BINARY as i64));
            p = q;
        } else {
            if !starts_int(s, p) {
                return Err(syntax(
                    p,
                    if strides {
                        "an integer, a stride such as 1@0 or F9, or '('"
                    } else {
                        "an integer or '('"
                    },
                ));
            }
            let (v, q) = tri!(int(s, p));
            let (code, q) = if strides {
                tri!(basis_suffix(s, q))
            } else {
                (0, q)
            };
            tri!(b.push(Op::Parse, v, if v == 0 { 0 } else { code as i64 }));
            p = q;
        }
        p = tri!(after_item(s, p, &mut b, &mut depth, &TUPLE));
        if depth == 0 {
            return Ok((b, p));
        }
    }
}

const fn expect_end(s: &[u8], pos: usize) -> Result<(), Error> {
    let p = skip_ws(s, pos);
    if p != s.len() {
        return Err(syntax(p, "the end of the input"));
    }
    Ok(())
}

/// Parses a whole input as an [`IntTuple`].
pub(crate) const fn int_tuple(s: &[u8]) -> Result<IntTuple, Error> {
    let (b, p) = tri!(node(s, 0));
    tri!(expect_end(s, p));
    let (tree, val, _) = tri!(b.finish(Op::Parse));
    Ok(IntTuple::from_parts(tree, val))
}

/// Parses `shape:stride` at `pos`.
pub(crate) const fn layout_at(s: &[u8], pos: usize) -> Result<(Layout, usize), Error> {
    let (sb, p) = tri!(node(s, pos));
    let p = skip_ws(s, p);
    if p >= s.len() || s[p] != b':' {
        return Err(syntax(p, "':' between shape and stride"));
    }
    layout_rest(s, sb, pos, p + 1)
}

/// The token of a well-formed node at `pos` (after white space): `(`, `)`, `,` or a leaf (`L`,
/// the run of characters up to the next bracket, comma or `:` outside braces, so that the facts
/// `{div=16,min=64}` of an unknown extent stay in its leaf), its position and the position after
/// it.
const fn token(s: &[u8], pos: usize) -> (u8, usize, usize) {
    let p = skip_ws(s, pos);
    if p >= s.len() {
        return (0, p, p);
    }
    match s[p] {
        b'(' | b')' | b',' => (s[p], p, p + 1),
        _ => {
            let (mut q, mut braces) = (p, 0usize);
            while q < s.len() && (braces > 0 || !matches!(s[q], b'(' | b')' | b',' | b':')) {
                match s[q] {
                    b'{' => braces += 1,
                    b'}' => braces = braces.saturating_sub(1),
                    _ => {}
                }
                q += 1;
            }
            (b'L', p, q)
        }
    }
}

/// Where the stride at `d` leaves the structure of the shape at `sh` (both read already, by this
/// reader or by the reader of unknown extents): the stride's first token that differs from the
/// shape's, and what it is in words.
pub(crate) const fn incongruence(s: &[u8], sh: usize, d: usize) -> Option<(usize, &'static str)> {
    let (mut p, mut q, mut depth) = (sh, d, 0usize);
    loop {
        let (a, _, pa) = token(s, p);
        let (b, at, qb) = token(s, q);
        if a != b {
            return Some((
                at,
                match (a, b) {
                    (b')', b',') => "the stride's tuple has more modes than the shape's",
                    (b',', b')') => "the stride's tuple has fewer modes than the shape's",
                    (b'L', b'(') => "the stride has a tuple where the shape has an integer",
                    (b'(', b'L') => "the stride has an integer where the shape has a tuple",
                    _ => "the stride's structure differs from the shape's here",
                },
            ));
        }
        match a {
            b'(' => depth += 1,
            b')' => depth -= 1,
            0 => return None,
            _ => {}
        }
        if depth == 0 && a != b',' {
            return None;
        }
        p = pa;
        q = qb;
    }
}

/// Given a parsed shape (read from `sh`), parses the stride after the ':' at `pos`.
const fn layout_rest(
    s: &[u8],
    shape: Builder,
    sh: usize,
    pos: usize,
) -> Result<(Layout, usize), Error> {
    let (db, p) = tri!(node_of(s, pos, true));
    let (st, sv, _) = tri!(shape.finish(Op::Parse));
    let (dt, dv, codes) = tri!(db.finish(Op::Parse));
    if !st.eq(&dt) {
        return Err(Error::new(
            Op::Parse,
            ErrorKind::NotCongruent {
                at: incongruence(s, sh, pos),
            },
        ));
    }
    let l = tri!(Layout::from_parts_basis(
        (st, sv, dv),
        crate::layout::narrow(&codes),
        Op::Parse
    ));
    Ok((l, p))
}

/// Parses a whole input as a [`Layout`].
pub(crate) const fn layout(s: &[u8]) -> Result<Layout, Error> {
    let (l, p) = tri!(layout_at(s, 0));
    tri!(expect_end(s, p));
    Ok(l)
}

/// Parses a tiler item that starts with a node: a layout `S:D`, or a shape used as a tiler. Pushes
/// the tiles into `tb`/`tiles`.
const fn tiler_node(
    s: &[u8],
    pos: usize,
    tb: &mut Builder,
    tiles: &mut [Tile; MAX_TILES],
) -> Result<usize, Error> {
    let (nb, p) = tri!(node(s, pos));
    let q = skip_ws(s, p);
    if q < s.len() && s[q] == b':' {
        let (l, r) = tri!(layout_rest(s, nb, pos, q + 1));
        tri!(push_tile(tb, tiles, Tile::Layout(l)));
        return Ok(r);
    }
    // a shape used as a (nested) tiler of integer tiles
    let (t, v, _) = tri!(nb.finish(Op::Parse));
    let mut i = 0;
    while i < t.len() {
        let mut k = 0;
        while k < t.open[i] {
            tri!(tb.open(Op::Parse));
            k += 1;
        }
        if v[i] < 1 {
            return Err(Error::new(
                Op::Parse,
                ErrorKind::InvalidShape { value: v[i] },
            ));
        }
        tri!(push_tile(tb, tiles, Tile::Int(v[i])));
        let mut k = 0;
        while k < t.close[i] {
            tri!(tb.close(Op::Parse));
            k += 1;
        }
        i += 1;
    }
    Ok(p)
}

const fn push_tile(tb: &mut Builder, tiles: &mut [Tile; MAX_TILES], t: Tile) -> Result<(), Error> {
    let n = tb.len();
    if n >= MAX_TILES {
        return Err(Error::new(
            Op::Parse,
            ErrorKind::Capacity {
                what: "number of tiles",
                limit: MAX_TILES,
            },
        ));
    }
    tiles[n] = t;
    tb.push(Op::Parse, n as i64, 0)
}

/// Parses a whole input as a [`Tiler`]: `<...>`, a layout, or a shape.
pub(crate) const fn tiler(s: &[u8]) -> Result<Tiler, Error> {
    let mut tb = Builder::new();
    let mut tiles = [Tile::Whole; MAX_TILES];
    let mut p = skip_ws(s, 0);
    let mut depth = 0usize;
    loop {
        p = skip_ws(s, p);
        if p >= s.len() {
            return Err(syntax(p, "a tile: a layout, an integer, '_' or '<'"));
        }
        if s[p] == TILER.open {
            p = tri!(open_group(s, p, &mut tb, &mut depth, &TILER));
            continue;
        }
        if s[p] == b'_' && !starts_int(s, p) {
            tri!(push_tile(&mut tb, &mut tiles, Tile::Whole));
            p += 1;
        } else {
            p = tri!(tiler_node(s, p, &mut tb, &mut tiles));
        }
        p = tri!(after_item(s, p, &mut tb, &mut depth, &TILER));
        if depth == 0 {
            tri!(expect_end(s, p));
            let (tree, _, _) = tri!(tb.finish(Op::Parse));
            return Ok(Tiler { tree, tiles });
        }
    }
}

// `parse_const` of the parsed types: the parser is above them.

impl IntTuple {
    /// Parses CuTe notation (`12`, `(4,8)`, `((2,2),(4,2))`), usable in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, IntTuple};
    /// const S: IntTuple = unwrap(IntTuple::parse_const("((2,2),(4,2))"));
    /// assert_eq!(S.leaf_count(), 4);
    /// assert_eq!(IntTuple::parse_const("(2,)").unwrap_err().to_string(), "parse: at byte 3: expected an integer or '('");
    /// ```
    ///
    /// # Errors
    ///
    /// `Syntax` (naming the byte where the text stops being CuTe notation), `Overflow` for an
    /// integer that does not fit in `i64`, `Capacity` past [`CAPACITY`](crate::CAPACITY) leaves or
    /// the nesting limit.
    pub const fn parse_const(text: &str) -> Result<IntTuple, Error> {
        int_tuple(text.as_bytes())
    }
}

impl Layout {
    /// Parses CuTe notation (`(4,8):(1,4)`, `12:1`), usable in `const` context.
    ///
    /// ```
    /// use cute::Layout;
    /// const L: Layout = match Layout::parse_const("(4,8):(1,4)") {
    ///     Ok(l) => l,
    ///     Err(_) => panic!("not a layout"),
    /// };
    /// assert_eq!(L.rank(), 2);
    /// let e = Layout::parse_const("(4,8):(1,4").unwrap_err();
    /// assert_eq!(e.to_string(), "parse: at byte 10: expected ',' or ')'");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`IntTuple::parse_const`] for the shape and the stride, and the errors of [`Layout::new`]
    /// (`InvalidShape` for a shape entry below 1, a stride not congruent to the shape).
    pub const fn parse_const(text: &str) -> Result<Layout, Error> {
        layout(text.as_bytes())
    }
}

impl Tiler {
    /// Parses a tiler (`<4:1,8:2>`, `<2,_>`, a layout, or a shape), usable in `const` context.
    ///
    /// ```
    /// use cute::{unwrap, Tiler};
    /// const T: Tiler = unwrap(Tiler::parse_const("<4:1,8:2>"));
    /// assert_eq!(T.rank(), 2);
    /// assert_eq!(Tiler::parse_const("<4:1,").unwrap_err().to_string(), "parse: at byte 5: expected a tile: a layout, an integer, '_' or '<'");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Layout::parse_const`], and `Capacity` past the tiler's number of tiles.
    pub const fn parse_const(text: &str) -> Result<Tiler, Error> {
        tiler(text.as_bytes())
    }
}
