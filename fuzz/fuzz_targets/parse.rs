//! Arbitrary bytes parsed as an `IntTuple`, a `Layout` and a `Tiler`.
//!
//! Checks, besides "no panic, no hang":
//! * round trip: whatever parses prints without spaces, and the printed text parses back to the
//!   same value (and prints the same text again);
//! * differential: an independent reference reader of the CuTe grammar (recursive, on the heap,
//!   exact in `i128`) accepts exactly what `cute` accepts, up to the documented limits
//!   (`CAPACITY` leaves, `MAX_DEPTH` nesting, `i64` values, positive shapes whose size fits in
//!   `i64`), and gives the same printed text: a wrong answer can't pass silently;
//! * the `const` parsers give the same results as `FromStr`;
//! * every error prints as one line.
#![no_main]

use cute::{IntTuple, Layout, Tiler, CAPACITY, MAX_DEPTH};
use libfuzzer_sys::fuzz_target;

/// A value read by the reference reader.
enum Node {
    Int(i128),
    /// A stride leaf (only in the stride of a layout): a binary stride `F<bits>`.
    F2(i128),
    /// A scaled basis `v@i@j…`, indices as written (innermost first).
    Basis(i128, Vec<i128>),
    Tup(Vec<Node>),
}

/// Why the reference reader refused, or what limit of `cute` a readable text exceeds.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// Not CuTe notation.
    Syntax,
    /// CuTe notation, but beyond `cute`'s documented limits (leaves, depth, i64, shape rules).
    Limit,
}

struct Reader<'a> {
    s: &'a [u8],
    p: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.p < self.s.len() && b" \t\n\r".contains(&self.s[self.p]) {
            self.p += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.p).copied()
    }
    fn starts_int(&self) -> bool {
        match self.peek() {
            Some(c) if c.is_ascii_digit() || c == b'-' => true,
            Some(b'_') => {
                matches!(self.s.get(self.p + 1), Some(c) if c.is_ascii_digit() || *c == b'-')
            }
            _ => false,
        }
    }
    fn int(&mut self) -> Result<i128, Verdict> {
        if self.peek() == Some(b'_') {
            self.p += 1;
        }
        let neg = self.peek() == Some(b'-');
        if neg {
            self.p += 1;
        }
        if !matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            return Err(Verdict::Syntax);
        }
        let mut v: i128 = 0;
        while let Some(c) = self.peek().filter(u8::is_ascii_digit) {
            // saturate far outside i64: only "fits in i64" matters
            v = (v * 10 + (c - b'0') as i128).min(1 << 80);
            self.p += 1;
        }
        Ok(if neg { -v } else { v })
    }
    /// Digits right at the cursor (no sign, no marker, no space).
    fn digits(&mut self) -> Result<i128, Verdict> {
        if !matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            return Err(Verdict::Syntax);
        }
        self.int()
    }
    /// node := int | '(' node (',' node)* ')'; with `strides`, a leaf may also be `F<digits>` or
    /// `int('@'digits)+`.
    fn node(&mut self, depth: usize) -> Result<Node, Verdict> {
        self.node_of(depth, false)
    }
    fn node_of(&mut self, depth: usize, strides: bool) -> Result<Node, Verdict> {
        self.ws();
        if self.peek() == Some(b'(') {
            if depth >= 200 {
                // far past MAX_DEPTH; stop recursing (the rest need not be read)
                return Err(Verdict::Limit);
            }
            self.p += 1;
            let mut items = vec![];
            loop {
                items.push(self.node_of(depth + 1, strides)?);
                self.ws();
                match self.peek() {
                    Some(b',') => self.p += 1,
                    Some(b')') => {
                        self.p += 1;
                        return Ok(Node::Tup(items));
                    }
                    _ => return Err(Verdict::Syntax),
                }
            }
        }
        if strides && self.peek() == Some(b'F') {
            self.p += 1;
            return self.digits().map(Node::F2);
        }
        if !self.starts_int() {
            return Err(Verdict::Syntax);
        }
        let v = self.int()?;
        if !strides || self.peek() != Some(b'@') {
            return Ok(Node::Int(v));
        }
        let mut path = vec![];
        while self.peek() == Some(b'@') {
            self.p += 1;
            path.push(self.digits()?);
        }
        Ok(Node::Basis(v, path))
    }
    fn end(&mut self) -> Result<(), Verdict> {
        self.ws();
        if self.p == self.s.len() {
            Ok(())
        } else {
            Err(Verdict::Syntax)
        }
    }
}

fn print(n: &Node, out: &mut String) {
    match n {
        Node::Int(v) => out.push_str(&v.to_string()),
        Node::F2(v) => out.push_str(&format!("F{v}")),
        // a zero basis is the zero stride
        Node::Basis(0, _) => out.push('0'),
        Node::Basis(v, path) => {
            out.push_str(&v.to_string());
            for i in path {
                out.push_str(&format!("@{i}"));
            }
        }
        Node::Tup(items) => {
            out.push('(');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                print(x, out);
            }
            out.push(')');
        }
    }
}

fn leaves(n: &Node, out: &mut Vec<i128>) {
    match n {
        Node::Int(v) | Node::F2(v) | Node::Basis(v, _) => out.push(*v),
        Node::Tup(items) => items.iter().for_each(|x| leaves(x, out)),
    }
}

fn depth(n: &Node) -> usize {
    match n {
        Node::Int(_) | Node::F2(_) | Node::Basis(..) => 0,
        Node::Tup(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
    }
}

fn congruent(a: &Node, b: &Node) -> bool {
    match (a, b) {
        (Node::Int(_), Node::Int(_) | Node::F2(_) | Node::Basis(..)) => true,
        (Node::Tup(x), Node::Tup(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| congruent(a, b))
        }
        _ => false,
    }
}

/// Reference reading of a whole text as an `IntTuple`: its printed form, or why not.
fn ref_tuple(s: &[u8]) -> Result<String, Verdict> {
    let mut r = Reader { s, p: 0 };
    let n = r.node(0)?;
    r.end()?;
    within_limits(&n)?;
    let mut out = String::new();
    print(&n, &mut out);
    Ok(out)
}

fn within_limits(n: &Node) -> Result<(), Verdict> {
    let mut v = vec![];
    leaves(n, &mut v);
    if v.len() > CAPACITY || depth(n) > MAX_DEPTH || v.iter().any(|x| i64::try_from(*x).is_err()) {
        return Err(Verdict::Limit);
    }
    Ok(())
}

/// The documented rules for stride leaves: binary values are nonnegative (checked by the grammar)
/// and fit in `i64`; a basis path has at most `cute::stride::MAX_PATH` entries, each at most
/// `cute::stride::MAX_BASIS_INDEX`; the nonzero strides lie in one semimodule, and the binary zero
/// `F0` meets coordinate strides but not nonzero integers.
fn semimodules(n: &Node) -> Result<(), Verdict> {
    fn walk(n: &Node, kinds: &mut Vec<u8>, f0: &mut bool) -> Result<(), Verdict> {
        match n {
            Node::Tup(items) => items.iter().try_for_each(|x| walk(x, kinds, f0)),
            Node::Int(0) => Ok(()),
            Node::Int(_) => {
                kinds.push(0);
                Ok(())
            }
            Node::F2(0) => {
                *f0 = true;
                Ok(())
            }
            Node::F2(_) => {
                kinds.push(1);
                Ok(())
            }
            Node::Basis(v, path) => {
                if path.len() > cute::stride::MAX_PATH
                    || path
                        .iter()
                        .any(|i| *i > cute::stride::MAX_BASIS_INDEX as i128)
                {
                    return Err(Verdict::Limit);
                }
                if *v != 0 {
                    kinds.push(2);
                }
                Ok(())
            }
        }
    }
    let (mut kinds, mut f0) = (vec![], false);
    walk(n, &mut kinds, &mut f0)?;
    let first = kinds.first().copied();
    if kinds.iter().any(|k| Some(*k) != first) || (f0 && first == Some(0)) {
        return Err(Verdict::Limit);
    }
    Ok(())
}

/// Reference reading of a whole text as a `Layout`.
fn ref_layout(s: &[u8]) -> Result<String, Verdict> {
    let mut r = Reader { s, p: 0 };
    let shape = r.node(0)?;
    r.ws();
    if r.peek() != Some(b':') {
        return Err(Verdict::Syntax);
    }
    r.p += 1;
    let stride = r.node_of(0, true)?;
    r.end()?;
    within_limits(&shape)?;
    within_limits(&stride)?;
    semimodules(&stride)?;
    if !congruent(&shape, &stride) {
        return Err(Verdict::Limit);
    }
    let mut sv = vec![];
    leaves(&shape, &mut sv);
    let mut size: i128 = 1;
    for x in sv {
        if x < 1 {
            return Err(Verdict::Limit);
        }
        size = size.saturating_mul(x);
        if i64::try_from(size).is_err() {
            return Err(Verdict::Limit);
        }
    }
    let mut out = String::new();
    print(&shape, &mut out);
    out.push(':');
    print(&stride, &mut out);
    Ok(out)
}

fn one_line(e: &cute::Error) {
    let m = e.to_string();
    assert!(
        !m.is_empty() && !m.contains('\n'),
        "error message not one line: {m:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text: &str = &text;

    // IntTuple
    let t = text.parse::<IntTuple>();
    assert_eq!(t, IntTuple::parse_const(text));
    match (&t, ref_tuple(text.as_bytes())) {
        (Ok(v), Ok(printed)) => {
            assert_eq!(
                v.to_string(),
                printed,
                "IntTuple printed differently from the reference"
            );
            let back: IntTuple = printed.parse().expect("printed IntTuple must parse");
            assert_eq!(&back, v, "IntTuple round trip");
            assert_eq!(back.to_string(), printed);
            assert_eq!(v.leaf_count(), v.leaves().len());
            assert!(v.depth() <= MAX_DEPTH && v.leaf_count() <= CAPACITY);
        }
        (Ok(v), Err(why)) => panic!("cute accepted {text:?} as {v} but the reference says {why:?}"),
        (Err(e), Ok(p)) => panic!("cute refused {text:?} ({e}) but the reference reads {p}"),
        (Err(e), Err(_)) => one_line(e),
    }

    // Layout
    let l = text.parse::<Layout>();
    assert_eq!(l, Layout::parse_const(text));
    match (&l, ref_layout(text.as_bytes())) {
        (Ok(v), Ok(printed)) => {
            assert_eq!(
                v.to_string(),
                printed,
                "Layout printed differently from the reference"
            );
            let back: Layout = printed.parse().expect("printed Layout must parse");
            assert_eq!(&back, v, "Layout round trip");
            assert_eq!(back.to_string(), printed);
            let size = v.size();
            assert!(size >= 1);
            if let Ok(c) = v.cosize() {
                assert!(c >= 1, "cosize {c} of {v} below 1");
            }
            // the shape, the stride and the layout itself read back as tuples/tilers
            assert_eq!(
                v.shape().to_string().parse::<IntTuple>().unwrap(),
                v.shape()
            );
            assert_eq!(
                v.stride().to_string().parse::<IntTuple>().unwrap(),
                v.stride()
            );
            let as_tiler: Tiler = printed.parse().expect("a layout is a tiler");
            assert_eq!(as_tiler.to_string(), printed);
        }
        (Ok(v), Err(why)) => panic!("cute accepted {text:?} as {v} but the reference says {why:?}"),
        (Err(e), Ok(p)) => panic!("cute refused {text:?} ({e}) but the reference reads {p}"),
        (Err(e), Err(_)) => one_line(e),
    }

    // Tiler: round trip
    let tl = text.parse::<Tiler>();
    assert_eq!(tl, Tiler::parse_const(text));
    match &tl {
        Ok(v) => {
            let printed = v.to_string();
            assert!(!printed.contains(char::is_whitespace));
            let back: Tiler = printed.parse().expect("printed Tiler must parse");
            assert_eq!(&back, v, "Tiler round trip of {printed}");
            assert_eq!(back.to_string(), printed);
            for i in 0..v.tile_count() {
                if let cute::Tile::Int(n) = v.tile(i) {
                    assert!(n >= 1, "integer tile {n} below 1");
                }
            }
        }
        Err(e) => one_line(e),
    }
});
