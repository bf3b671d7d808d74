//! The integer-stride conformance set evaluated by the compiler and at run time with the same
//! `const fn`s, with identical results.
//!
//! `eval_case` reads one line of `tests/data/cases.tsv` (the operation and its arguments in CuTe
//! notation) and runs it through the core crate's `const fn`s; `fingerprint` prints the result (the
//! value, or the error's one-line message) with the `const` text writer and hashes it. `CONST`
//! holds the fingerprints of every integer-stride case computed while compiling this test; the test
//! computes them again at run time by calling the same functions, and compares. It also checks that
//! the printed text equals what `cute`'s dispatcher prints for the case, which the conformance test
//! compares with the oracles' expected values: so the compile-time results are the oracles' results.
#![allow(long_running_const_eval)] // the whole set is evaluated in one constant
#![allow(clippy::result_large_err)] // cute::Error is a large plain value (DESIGN.md)

use cute::{
    blocked_product, coalesce, coalesce_profile, coalesce_z, complement, complement_to,
    composition_mode, composition_tiler, crd2idx, crd2idx_compact, domain_distribute, downcast,
    filter, filter_zeros, flat_divide, flat_product, greatest_common_domain, idx2crd, layout_add,
    left_inverse, logical_divide, logical_product, make_ordered_layout, max_common_layout,
    max_common_vector, nullspace, raked_product, recast, right_inverse, tile_to_shape,
    tiled_divide, tiled_product, upcast, with_shape, zipped_divide, zipped_product, Error,
    ErrorKind, IntTuple, Layout, Op, Text, Tiler,
};
use cute_cli::ops::{self, Outcome};

const CASES: &str = include_str!("data/cases.tsv");

/// The result of a case: a layout, a tuple or an integer (plain values, as the crate keeps them).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[allow(clippy::large_enum_variant)]
enum V {
    L(Layout),
    T(IntTuple),
    I(i64),
    /// `eval_all`: every offset of the layout, in order.
    All(Layout),
}

/// `a == b` for strings, in `const` context.
const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn contains(s: &str, c: u8) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == c {
            return true;
        }
        i += 1;
    }
    false
}

/// `s[from..to]`.
const fn sub(s: &str, from: usize, to: usize) -> &str {
    let b = s.as_bytes().split_at(to).0.split_at(from).1;
    match core::str::from_utf8(b) {
        Ok(x) => x,
        Err(_) => "",
    }
}

/// The tab-separated fields of a line (at most 8), and how many.
const fn fields(line: &str) -> ([&str; 8], usize) {
    let mut out = [""; 8];
    let (b, mut n, mut start, mut i) = (line.as_bytes(), 0, 0, 0);
    while i <= b.len() && n < 8 {
        if i == b.len() || b[i] == b'\t' {
            out[n] = sub(line, start, i);
            n += 1;
            start = i + 1;
        }
        i += 1;
    }
    (out, n)
}

/// The operation and its arguments: the fields before `=>`.
const fn args(line: &str) -> (&str, [&str; 4], usize) {
    let (f, n) = fields(line);
    let mut a = [""; 4];
    let mut k = 1;
    while k < n && !eq(f[k], "=>") && k <= 4 {
        a[k - 1] = f[k];
        k += 1;
    }
    (f[0], a, k - 1)
}

/// Whether a line is an integer-stride case this test evaluates: no coordinate (`@`) or binary
/// (`F`) strides, no fractional scale, and an operation of the table below.
const fn in_scope(line: &str) -> bool {
    let b = line.as_bytes();
    if b.is_empty() || b[0] == b'#' {
        return false;
    }
    let (op, a, n) = args(line);
    let mut k = 0;
    while k < n {
        if contains(a[k], b'@') || contains(a[k], b'F') || contains(a[k], b'/') {
            return false;
        }
        k += 1;
    }
    let known = [
        "coalesce",
        "coalesce_profile",
        "coalesce_z",
        "filter",
        "filter_zeros",
        "composition",
        "with_shape",
        "complement",
        "eval_int",
        "eval_crd",
        "idx2crd",
        "crd2idx",
        "make_ordered_layout",
        "compact_col_major",
        "compact_row_major",
        "tiler_to_layout",
        "right_inverse",
        "left_inverse",
        "nullspace",
        "max_common_layout",
        "max_common_vector",
        "domain_distribute",
        "upcast",
        "downcast",
        "recast",
        "logical_divide",
        "zipped_divide",
        "tiled_divide",
        "flat_divide",
        "logical_product",
        "zipped_product",
        "tiled_product",
        "flat_product",
        "blocked_product",
        "raked_product",
        "tile_to_shape",
        "layout_add",
        "greatest_common_domain",
        "composition_mode",
        "eval_all",
    ];
    let mut i = 0;
    while i < known.len() {
        if eq(op, known[i]) {
            return true;
        }
        i += 1;
    }
    false
}

macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}

const fn lay(s: &str) -> Result<Layout, Error> {
    Layout::parse_const(s)
}
const fn tup(s: &str) -> Result<IntTuple, Error> {
    IntTuple::parse_const(s)
}
const fn til(s: &str) -> Result<Tiler, Error> {
    Tiler::parse_const(s)
}
const fn int(s: &str) -> Result<i64, Error> {
    match tup(s) {
        Ok(t) => match t.as_int() {
            Some(v) => Ok(v),
            None => Err(Error::new(
                Op::Parse,
                ErrorKind::Syntax {
                    pos: 0,
                    expected: "an integer",
                },
            )),
        },
        Err(e) => Err(e),
    }
}

/// A coalesce profile `(_,1)` read as the tiler `<_,1>` (as `cute`'s dispatcher reads it).
const fn profile(s: &str) -> Result<Tiler, Error> {
    let mut buf = [0u8; 256];
    let b = s.as_bytes();
    if b.len() > buf.len() {
        return til(s);
    }
    let mut i = 0;
    while i < b.len() {
        buf[i] = match b[i] {
            b'(' => b'<',
            b')' => b'>',
            c => c,
        };
        i += 1;
    }
    match core::str::from_utf8(buf.split_at(b.len()).0) {
        Ok(t) => til(t),
        Err(_) => til(s),
    }
}

/// A shape, or the shape of a layout.
const fn shape_of(s: &str) -> Result<IntTuple, Error> {
    if contains(s, b':') {
        Ok(tri!(lay(s)).shape())
    } else {
        tup(s)
    }
}

const fn l(r: Result<Layout, Error>) -> Result<V, Error> {
    match r {
        Ok(x) => Ok(V::L(x)),
        Err(e) => Err(e),
    }
}

/// One case through the core crate's `const fn`s (the arguments read as `cute`'s dispatcher
/// reads them).
const fn eval_case(line: &str) -> Result<V, Error> {
    let (op, a, n) = args(line);
    if eq(op, "eval_all") {
        let x = tri!(lay(a[0]));
        // every offset must exist (the printer below evaluates them; a size is at least 1)
        tri!(x.eval(x.size() - 1));
        Ok(V::All(x))
    } else if eq(op, "coalesce") {
        Ok(V::L(coalesce(&tri!(lay(a[0])))))
    } else if eq(op, "coalesce_z") {
        Ok(V::L(coalesce_z(&tri!(lay(a[0])))))
    } else if eq(op, "filter") {
        Ok(V::L(filter(&tri!(lay(a[0])))))
    } else if eq(op, "filter_zeros") {
        Ok(V::L(filter_zeros(&tri!(lay(a[0])))))
    } else if eq(op, "coalesce_profile") {
        l(coalesce_profile(&tri!(lay(a[0])), &tri!(profile(a[1]))))
    } else if eq(op, "composition") {
        l(composition_tiler(&tri!(lay(a[0])), &tri!(til(a[1]))))
    } else if eq(op, "with_shape") {
        l(with_shape(&tri!(lay(a[0])), &tri!(tup(a[1]))))
    } else if eq(op, "complement") {
        if n == 1 {
            l(complement(&tri!(lay(a[0]))))
        } else {
            l(complement_to(&tri!(lay(a[0])), &tri!(tup(a[1]))))
        }
    } else if eq(op, "eval_int") {
        match tri!(lay(a[0])).eval(tri!(int(a[1]))) {
            Ok(v) => Ok(V::I(v)),
            Err(e) => Err(e),
        }
    } else if eq(op, "eval_crd") {
        match tri!(lay(a[0])).eval_crd(&tri!(tup(a[1]))) {
            Ok(v) => Ok(V::I(v)),
            Err(e) => Err(e),
        }
    } else if eq(op, "idx2crd") {
        match idx2crd(&tri!(tup(a[0])), &tri!(tup(a[1]))) {
            Ok(t) => Ok(V::T(t)),
            Err(e) => Err(e),
        }
    } else if eq(op, "crd2idx") {
        let r = if n == 3 {
            crd2idx(&tri!(tup(a[0])), &tri!(tup(a[1])), &tri!(tup(a[2])))
        } else {
            crd2idx_compact(&tri!(tup(a[0])), &tri!(tup(a[1])))
        };
        match r {
            Ok(v) => Ok(V::I(v)),
            Err(e) => Err(e),
        }
    } else if eq(op, "make_ordered_layout") {
        l(make_ordered_layout(&tri!(tup(a[0])), &tri!(tup(a[1]))))
    } else if eq(op, "compact_col_major") {
        l(cute::compact_col_major(&tri!(tup(a[0]))))
    } else if eq(op, "compact_row_major") {
        l(cute::compact_row_major(&tri!(tup(a[0]))))
    } else if eq(op, "tiler_to_layout") {
        l(tri!(til(a[0])).tiler_to_layout())
    } else if eq(op, "right_inverse") {
        l(right_inverse(&tri!(lay(a[0]))))
    } else if eq(op, "left_inverse") {
        l(left_inverse(&tri!(lay(a[0]))))
    } else if eq(op, "nullspace") {
        l(nullspace(&tri!(lay(a[0]))))
    } else if eq(op, "max_common_layout") {
        l(max_common_layout(&tri!(lay(a[0])), &tri!(lay(a[1]))))
    } else if eq(op, "max_common_vector") {
        match max_common_vector(&tri!(lay(a[0])), &tri!(lay(a[1]))) {
            Ok(v) => Ok(V::I(v)),
            Err(e) => Err(e),
        }
    } else if eq(op, "domain_distribute") {
        l(domain_distribute(&tri!(tup(a[0])), tri!(int(a[1]))))
    } else if eq(op, "upcast") {
        l(upcast(&tri!(lay(a[0])), tri!(int(a[1]))))
    } else if eq(op, "downcast") {
        l(downcast(&tri!(lay(a[0])), tri!(int(a[1]))))
    } else if eq(op, "recast") {
        l(recast(&tri!(lay(a[0])), tri!(int(a[1])), 1))
    } else if eq(op, "logical_divide") {
        l(logical_divide(&tri!(lay(a[0])), &tri!(til(a[1]))))
    } else if eq(op, "zipped_divide") {
        l(zipped_divide(&tri!(lay(a[0])), &tri!(til(a[1]))))
    } else if eq(op, "tiled_divide") {
        l(tiled_divide(&tri!(lay(a[0])), &tri!(til(a[1]))))
    } else if eq(op, "flat_divide") {
        l(flat_divide(&tri!(lay(a[0])), &tri!(til(a[1]))))
    } else if eq(op, "logical_product") {
        l(logical_product(&tri!(lay(a[0])), &tri!(til(a[1]))))
    } else if eq(op, "zipped_product") {
        l(zipped_product(&tri!(lay(a[0])), &tri!(til(a[1]))))
    } else if eq(op, "tiled_product") {
        l(tiled_product(&tri!(lay(a[0])), &tri!(til(a[1]))))
    } else if eq(op, "flat_product") {
        l(flat_product(&tri!(lay(a[0])), &tri!(til(a[1]))))
    } else if eq(op, "blocked_product") {
        l(blocked_product(&tri!(lay(a[0])), &tri!(lay(a[1]))))
    } else if eq(op, "raked_product") {
        l(raked_product(&tri!(lay(a[0])), &tri!(lay(a[1]))))
    } else if eq(op, "tile_to_shape") {
        l(tile_to_shape(&tri!(lay(a[0])), &tri!(tup(a[1]))))
    } else if eq(op, "layout_add") {
        l(layout_add(&tri!(lay(a[0])), &tri!(lay(a[1]))))
    } else if eq(op, "greatest_common_domain") {
        l(greatest_common_domain(
            &tri!(shape_of(a[0])),
            &tri!(shape_of(a[1])),
        ))
    } else if eq(op, "composition_mode") {
        let m = tri!(int(a[1]));
        if m < 0 {
            return Err(Error::new(
                Op::Parse,
                ErrorKind::Syntax {
                    pos: 0,
                    expected: "a non-negative mode index",
                },
            ));
        }
        l(composition_mode(
            &tri!(lay(a[0])),
            m as usize,
            &tri!(til(a[2])),
        ))
    } else {
        Err(Error::new(
            Op::Parse,
            ErrorKind::Unsupported {
                what: "an operation this test does not evaluate",
            },
        ))
    }
}

/// The printed result: the value, or `error: ` and the error's one-line message.
const fn text(r: &Result<V, Error>) -> Text {
    match r {
        Ok(V::L(x)) => x.text(),
        Ok(V::T(x)) => x.text(),
        Ok(V::I(x)) => {
            let mut t = Text::new();
            t.push_i64(*x);
            t
        }
        Ok(V::All(x)) => {
            let mut t = Text::new();
            t.push_str("(");
            let n = x.size();
            let mut i = 0;
            while i < n {
                if i > 0 {
                    t.push_str(",");
                }
                match x.eval(i) {
                    Ok(v) => t.push_i64(v),
                    Err(_) => t.push_str("?"),
                }
                i += 1;
            }
            t.push_str(")");
            t
        }
        Err(e) => {
            let mut t = Text::new();
            t.push_str("error: ");
            t.push_str(e.message().as_str());
            t
        }
    }
}

/// FNV-1a of the printed result.
const fn fingerprint(line: &str) -> u64 {
    let t = text(&eval_case(line));
    let b = t.as_str().as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < b.len() {
        h = (h ^ b[i] as u64).wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    h
}

/// The lines of `s` (without the newline), in order: the `k`-th line in scope starts at
/// `starts[k]`.
const fn next_line(s: &str, from: usize) -> (usize, usize) {
    let b = s.as_bytes();
    let mut i = from;
    while i < b.len() && b[i] != b'\n' {
        i += 1;
    }
    (from, i)
}

const fn count(s: &str) -> usize {
    let (mut n, mut at) = (0, 0);
    while at < s.len() {
        let (a, b) = next_line(s, at);
        if in_scope(sub(s, a, b)) {
            n += 1;
        }
        at = b + 1;
    }
    n
}

/// The number of integer-stride cases.
const N: usize = count(CASES);

/// Their fingerprints, computed by the compiler (a `static` initialised by constant evaluation).
static CONST: [u64; N] = {
    let mut out = [0u64; N];
    let (mut k, mut at) = (0, 0);
    while at < CASES.len() {
        let (a, b) = next_line(CASES, at);
        let line = sub(CASES, a, b);
        if in_scope(line) {
            out[k] = fingerprint(line);
            k += 1;
        }
        at = b + 1;
    }
    out
};

fn scope_lines() -> Vec<&'static str> {
    CASES.lines().filter(|l| in_scope(l)).collect()
}

#[test]
fn compile_time_and_run_time_results_are_identical() {
    let lines = scope_lines();
    assert_eq!(lines.len(), N);
    // (3068 before the two left_inverse cases C++ refuses, now answered, became `# removed` lines)
    const { assert!(N >= 3066, "fewer integer-stride cases than the set has") };
    let mut values = 0;
    for (k, line) in lines.iter().enumerate() {
        // the same functions at run time
        let r = eval_case(line);
        assert_eq!(fingerprint(line), CONST[k], "{line}");
        values += r.is_ok() as usize;
    }
    assert!(values > 2000, "only {values} cases give a value");
    println!(
        "{N} integer-stride cases, {values} with a value, identical at compile time and run time"
    );
}

#[test]
fn the_printed_results_are_what_cute_prints() {
    for line in scope_lines() {
        let r = eval_case(line);
        let (op, a, n) = args(line);
        let got = text(&r);
        let want = match ops::run(op, &a[..n]) {
            Outcome::Value(v) => v,
            Outcome::Refused(e) | Outcome::BadArgument { error: e, .. } => format!("error: {e}"),
            Outcome::Symbolic(e) => format!("error: {e}"),
            Outcome::Usage(u) => panic!("{line}: usage {u}"),
        };
        if got.is_truncated() {
            // a result longer than a `Text` (a long `eval_all`): its beginning
            let head = got.as_str().trim_end_matches('…');
            assert!(want.starts_with(head), "{line}");
        } else {
            assert_eq!(got.as_str(), want, "{line}");
        }
    }
}
