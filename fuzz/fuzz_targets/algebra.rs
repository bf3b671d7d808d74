//! Structured fuzzing of the algebra: the bytes are a recipe for small, valid layouts (random
//! nesting, shapes mostly 1..8, strides random, compact, ordered or scaled, now and then negative
//! or near `i64::MAX`), tilers, shapes and coordinates, so that the algebra sees well-formed input
//! most of the time rather than parse errors.
//!
//! Every `Ok` result is checked against its defining law by brute force, with an independent
//! reference evaluation in `i128` (so an overflow can't hide a wrong value); an `Err` must be a
//! one-line message. Then every operation of `cute::registry::operations()` (including those added
//! later) is run on arguments built from its signature.
#![no_main]

use cute::registry::{self as ops, Outcome};
use cute::{IntTuple, Layout, Tiler};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;

/// Brute-force checks run only when the domain has at most this many points.
const BRUTE: i128 = 1024;

struct Src<'a> {
    d: &'a [u8],
    p: usize,
}

impl Src<'_> {
    fn u8(&mut self) -> u8 {
        let b = self.d.get(self.p).copied().unwrap_or(0);
        self.p += 1;
        b
    }
    fn i64(&mut self) -> i64 {
        let mut v = 0u64;
        for _ in 0..8 {
            v = (v << 8) | self.u8() as u64;
        }
        v as i64
    }
    fn shape_val(&mut self) -> i64 {
        let b = self.u8();
        match b {
            0..=223 => 1 + (b % 8) as i64,
            224..=247 => 1 << (b % 24),
            _ => (self.i64() & i64::MAX).max(1),
        }
    }
    fn stride_val(&mut self) -> i64 {
        let b = self.u8();
        match b {
            0..=159 => (b % 17) as i64,
            160..=199 => 1 << (b % 16),
            200..=231 => -1 - (b % 8) as i64,
            _ => self.i64(),
        }
    }
}

/// A nesting profile.
enum P {
    Leaf,
    Tup(Vec<P>),
}

fn gen_profile(s: &mut Src, depth: usize, budget: &mut usize) -> P {
    let b = s.u8();
    let leaf = if depth == 0 {
        b.is_multiple_of(4)
    } else {
        !b.is_multiple_of(3)
    };
    if leaf || depth >= 3 || *budget <= 1 {
        *budget = budget.saturating_sub(1);
        return P::Leaf;
    }
    let n = 1 + (s.u8() % 3) as usize;
    P::Tup((0..n).map(|_| gen_profile(s, depth + 1, budget)).collect())
}

fn leaf_count(p: &P) -> usize {
    match p {
        P::Leaf => 1,
        P::Tup(v) => v.iter().map(leaf_count).sum(),
    }
}

/// `p` printed with the leaves `vals` (in order); `_` for `None`.
fn print_with(p: &P, vals: &mut impl Iterator<Item = String>, out: &mut String) {
    match p {
        P::Leaf => out.push_str(&vals.next().unwrap()),
        P::Tup(v) => {
            out.push('(');
            for (i, x) in v.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                print_with(x, vals, out);
            }
            out.push(')');
        }
    }
}

fn text(p: &P, vals: &[i64]) -> String {
    let mut out = String::new();
    print_with(p, &mut vals.iter().map(|v| v.to_string()), &mut out);
    out
}

/// A random valid-looking layout (it may still overflow and be refused by the parser).
fn gen_layout(s: &mut Src, max_leaves: usize) -> Option<Layout> {
    let b = s.u8();
    let p = if b >= 240 {
        // now and then a wide flat layout, up to the capacity
        P::Tup(
            (0..=(b as usize % cute::CAPACITY))
                .map(|_| P::Leaf)
                .collect(),
        )
    } else {
        let mut budget = 1 + (b as usize % max_leaves);
        gen_profile(s, 0, &mut budget)
    };
    let n = leaf_count(&p);
    let shape: Vec<i64> = (0..n).map(|_| s.shape_val()).collect();
    let stride: Vec<i64> = match s.u8() % 5 {
        0 | 1 => (0..n).map(|_| s.stride_val()).collect(),
        2 => compact_in_order(&shape, &(0..n).map(|_| s.u8()).collect::<Vec<_>>(), 1),
        3 => {
            let k = 1 + (s.u8() % 4) as i64;
            let mut d = compact_in_order(&shape, &(0..n).map(|_| s.u8()).collect::<Vec<_>>(), k);
            for x in d.iter_mut() {
                if s.u8().is_multiple_of(5) {
                    *x = 0;
                }
            }
            d
        }
        _ => compact_in_order(&shape, &(0..n as u8).collect::<Vec<_>>(), 1),
    };
    let t = format!("{}:{}", text(&p, &shape), text(&p, &stride));
    t.parse().ok()
}

/// Compact strides (times `k`) assigned in increasing `key` order, saturating.
fn compact_in_order(shape: &[i64], key: &[u8], k: i64) -> Vec<i64> {
    let mut idx: Vec<usize> = (0..shape.len()).collect();
    idx.sort_by_key(|&i| key[i]);
    let mut d = vec![0; shape.len()];
    let mut p = k;
    for i in idx {
        d[i] = p;
        p = p.saturating_mul(shape[i]);
    }
    d
}

fn gen_shape(s: &mut Src) -> (String, IntTuple) {
    let mut budget = 1 + (s.u8() as usize % 5);
    let p = gen_profile(s, 0, &mut budget);
    let vals: Vec<i64> = (0..leaf_count(&p)).map(|_| s.shape_val()).collect();
    let t = text(&p, &vals);
    let v = t.parse().unwrap();
    (t, v)
}

/// Reference evaluation (the paper's formula, colexicographic, last mode extended), exact.
fn ev(l: &Layout, i: i128) -> Option<i128> {
    let n = l.leaf_count();
    let mut rest = i;
    let mut acc: i128 = 0;
    for k in 0..n {
        let (s, d) = l.leaf_at(k);
        let c = if k + 1 == n {
            rest
        } else {
            let c = rest.rem_euclid(s as i128);
            rest = rest.div_euclid(s as i128);
            c
        };
        acc = acc.checked_add(c.checked_mul(d as i128)?)?;
    }
    Some(acc)
}

fn size(l: &Layout) -> i128 {
    l.size() as i128
}

/// The storage span of an integer layout, `(base, len)`, when it is small.
fn span(l: &Layout) -> Option<(usize, usize)> {
    if !l.is_integral() {
        return None;
    }
    let (mut lo, mut hi) = (0i128, 0i128);
    for k in 0..l.leaf_count() {
        let (n, d) = l.leaf_at(k);
        let reach = (n as i128 - 1) * d as i128;
        if reach < 0 {
            lo += reach;
        } else {
            hi += reach;
        }
    }
    (hi - lo < 1 << 16).then(|| ((-lo) as usize, (hi - lo + 1) as usize))
}

/// `copy(src, dst)` equals `copy_generic(src, dst)` on the whole destination storage.
fn check_copy(src: &Layout, dst: &Layout) {
    if size(src) > BRUTE {
        return;
    }
    let (Some((bs, ls)), Some((bd, ld))) = (span(src), span(dst)) else {
        return;
    };
    let a: Vec<u32> = (0..ls as u32)
        .map(|k| k.wrapping_mul(2_654_435_761))
        .collect();
    let mut want = vec![7u32; ld];
    let mut got = want.clone();
    let s = cute::Tensor::with_base(&a[..], bs, *src).expect("the span fits");
    let r1 = cute::copy_generic(
        &s,
        &mut cute::Tensor::with_base(&mut want[..], bd, *dst).expect("the span fits"),
    );
    let r2 = cute::copy(
        &s,
        &mut cute::Tensor::with_base(&mut got[..], bd, *dst).expect("the span fits"),
    );
    match (r1, r2) {
        (Ok(()), Ok(())) => assert_eq!(got, want, "copy {src} -> {dst}"),
        (Err(e1), Err(e2)) => {
            assert_eq!(e1, e2);
            one_line(&e1);
        }
        (x, y) => panic!("copy {src} -> {dst}: reference {x:?}, planned {y:?}"),
    }
}

fn one_line(e: &cute::Error) {
    let m = e.to_string();
    assert!(!m.is_empty() && !m.contains('\n'), "{m:?}");
}

/// `cute`'s evaluation agrees with the reference wherever it answers; it refuses only on overflow.
fn check_eval(l: &Layout, i: i64) {
    match l.eval(i) {
        Ok(v) => assert_eq!(Some(v as i128), ev(l, i as i128), "{l}({i})"),
        Err(e) => {
            one_line(&e);
            assert!(
                matches!(e.kind(), cute::ErrorKind::Overflow { .. }),
                "{l}({i}) refused: {e}"
            );
        }
    }
}

fn same_function(a: &Layout, b: &Layout, what: &str) {
    assert_eq!(size(a), size(b), "{what}: {a} vs {b}: sizes");
    if size(a) <= BRUTE {
        for i in 0..size(a) {
            assert_eq!(ev(a, i), ev(b, i), "{what}: {a} vs {b} at {i}");
        }
    }
}

fn image(l: &Layout) -> Option<BTreeSet<i128>> {
    if size(l) > BRUTE {
        return None;
    }
    (0..size(l)).map(|i| ev(l, i)).collect()
}

/// The strides of `filter(a)` sorted increasingly form a divisible chain (each stride is a
/// multiple of the extent of the modes below it): then the complement is exact.
fn divisible_chain(a: &Layout) -> bool {
    let f = cute::filter(a);
    let mut m: Vec<(i64, i64)> = (0..f.leaf_count())
        .map(|k| f.leaf_at(k))
        .filter(|&(s, d)| s > 1 && d != 0)
        .collect();
    m.sort_by_key(|&(_, d)| d);
    let mut cur: i128 = 1;
    for (s, d) in m {
        if d <= 0 || (d as i128) % cur != 0 {
            return false;
        }
        cur = d as i128 * s as i128;
    }
    true
}

/// The complement `c` of `a`: `(filter(a), c)` injective, `c`'s moving strides increasing; with a
/// divisible chain its image is exactly `[0, size)` and it reaches `target` (cosize or cotarget).
fn check_complement(a: &Layout, c: &Layout, target: i128) {
    let f = cute::filter(a);
    let mut last = 0i64;
    for k in 0..c.leaf_count() {
        let (s, d) = c.leaf_at(k);
        if s > 1 {
            assert!(d > last, "complement {a} = {c}: strides not increasing");
            last = d;
        }
    }
    let n = size(&f) * size(c);
    if n > BRUTE {
        return;
    }
    let mut seen = BTreeSet::new();
    for j in 0..size(c) {
        for i in 0..size(&f) {
            let v = ev(&f, i).unwrap() + ev(c, j).unwrap();
            assert!(
                seen.insert(v),
                "complement {a} = {c}: (A, C) not injective at {v}"
            );
        }
    }
    if divisible_chain(a) {
        assert_eq!(
            seen.iter().next_back().copied(),
            Some(n - 1),
            "complement {a} = {c}: (A, C) not compact"
        );
        assert!(n >= target, "complement {a} = {c}: reaches {n} < {target}");
    }
}

fn check_composition(a: &Layout, b: &Layout, r: &Layout) {
    assert!(
        b.shape().compatible(&r.shape()),
        "{a} o {b} = {r}: shape of B not compatible with the result"
    );
    if size(b) <= BRUTE {
        for i in 0..size(b) {
            let want = ev(b, i).and_then(|x| ev(a, x));
            assert_eq!(ev(r, i), want, "{a} o {b} = {r} at {i}");
        }
    }
}

/// Arguments for an operation from its signature (`LAYOUT TILER`, `LAYOUT [COTARGET]`, ...).
fn args_for(sig: &str, s: &mut Src, v: &Vals) -> Vec<String> {
    let mut out = vec![];
    let mut layouts = 0;
    for tok in sig.split_whitespace() {
        let optional = tok.starts_with('[');
        let name = tok.trim_matches(|c| c == '[' || c == ']');
        if optional && s.u8().is_multiple_of(2) {
            break;
        }
        let b = s.u8();
        out.push(match name {
            "LAYOUT" => {
                layouts += 1;
                if layouts == 1 {
                    v.a.clone()
                } else {
                    v.b.clone()
                }
            }
            "TILER" => [&v.tiler, &v.b, &v.shape][b as usize % 3].clone(),
            "SHAPE" => [&v.a_shape, &v.shape][b as usize % 2].clone(),
            "STRIDE" => v.a_stride.clone(),
            "COORD" => [&v.coord, &v.int][b as usize % 2].clone(),
            "PROFILE" => v.profile.clone(),
            "ORDER" => v.order.clone(),
            "COTARGET" => [&v.shape, &v.int][b as usize % 2].clone(),
            _ => [&v.int, &v.a, &v.b, &v.shape][b as usize % 4].clone(),
        });
    }
    out
}

/// The texts the CLI arguments are built from.
struct Vals {
    a: String,
    b: String,
    a_shape: String,
    a_stride: String,
    shape: String,
    tiler: String,
    coord: String,
    int: String,
    profile: String,
    order: String,
}

fuzz_target!(|data: &[u8]| {
    let s = &mut Src { d: data, p: 0 };
    let Some(a) = gen_layout(s, 6) else { return };
    let Some(b) = gen_layout(s, 4) else { return };
    let (shape_text, shape) = gen_shape(s);

    // evaluation
    for i in 0..size(&a).min(16) as i64 {
        check_eval(&a, i);
    }
    check_eval(&a, s.i64());
    check_eval(&a, -((s.u8() as i64) + 1));

    // coordinates
    let sa = a.shape();
    let i = match s.u8() % 3 {
        0 => (s.u8() as i64) % size(&a).min(1 << 20) as i64,
        1 => s.i64(),
        _ => -(s.u8() as i64),
    };
    match cute::idx2crd(&IntTuple::int(i), &sa) {
        Ok(c) => {
            assert!(c.congruent(&sa), "idx2crd({i}, {sa}) = {c}");
            if (0..size(&a)).contains(&(i as i128)) {
                for k in 0..c.leaf_count() {
                    assert!(
                        (0..sa.leaf(k)).contains(&c.leaf(k)),
                        "idx2crd({i}, {sa}) = {c}"
                    );
                }
            }
            match cute::crd2idx_compact(&c, &sa) {
                Ok(j) => assert_eq!(j, i, "crd2idx(idx2crd({i}, {sa}) = {c})"),
                Err(e) => one_line(&e),
            }
            match (a.eval_crd(&c), a.eval(i)) {
                (Ok(x), Ok(y)) => assert_eq!(x, y, "{a} at {c} vs {i}"),
                (Ok(x), Err(_)) => assert_eq!(Some(x as i128), ev(&a, i as i128)),
                (Err(e), _) => one_line(&e),
            }
            match cute::crd2idx(&c, &sa, &a.stride()) {
                Ok(x) => assert_eq!(Some(x as i128), ev(&a, i as i128), "crd2idx {c} {a}"),
                Err(e) => one_line(&e),
            }
        }
        Err(e) => one_line(&e),
    }
    // idx2crd against any tuple as a shape, zeros and negatives included: no panic
    let wild: IntTuple = IntTuple::flat(&[s.stride_val(), s.stride_val()]).unwrap();
    if let Err(e) = cute::idx2crd(&IntTuple::int(s.i64()), &wild) {
        one_line(&e);
    }

    // COPY: the planned copy equals the reference loop, into `b` (when the sizes agree), into a
    // compact layout of `a`'s shape, and into `a` itself (often not injective)
    check_copy(&a, &a);
    if let Ok(m) = cute::compact_row_major(&a.shape()) {
        check_copy(&a, &m);
        check_copy(&m, &a);
    }
    if size(&a) == size(&b) {
        check_copy(&a, &b);
    }

    // coalesce, filter
    let c = cute::coalesce(&a);
    assert!(c.depth() <= 1, "coalesce({a}) = {c}");
    same_function(&a, &c, "coalesce");
    let f = cute::filter(&a);
    assert!(f.depth() <= 1, "filter({a}) = {f}");
    if let (Some(x), Some(y)) = (image(&a), image(&f)) {
        assert_eq!(x, y, "filter({a}) = {f}: image");
    }
    let z = cute::filter_zeros(&a);
    assert!(z.shape().congruent(&a.shape()), "filter_zeros({a}) = {z}");
    for k in 0..a.leaf_count() {
        let ((s0, d0), (s1, d1)) = (a.leaf_at(k), z.leaf_at(k));
        assert_eq!(d0, d1);
        assert_eq!(s1, if d0 == 0 { 1 } else { s0 }, "filter_zeros({a}) = {z}");
    }

    // composition
    match cute::composition(&a, &b) {
        Ok(r) => check_composition(&a, &b, &r),
        Err(e) => one_line(&e),
    }
    match cute::with_shape(&a, &shape) {
        Ok(r) => match cute::compact_col_major(&shape) {
            Ok(m) => check_composition(&a, &m, &r),
            Err(e) => panic!("with_shape({a}, {shape}) = {r} but compact_col_major fails: {e}"),
        },
        Err(e) => one_line(&e),
    }
    // a by-mode tiler: `_`, an integer or a layout per mode
    let tr = 1 + (s.u8() as usize % (a.rank() + 1));
    let mut items = vec![];
    for _ in 0..tr {
        items.push(match s.u8() % 3 {
            0 => "_".to_string(),
            1 => (1 + s.u8() % 8).to_string(),
            _ => gen_layout(s, 3).map_or("_".to_string(), |l| l.to_string()),
        });
    }
    let tiler_text = format!("<{}>", items.join(","));
    if let Ok(t) = tiler_text.parse::<Tiler>() {
        match cute::composition_tiler(&a, &t) {
            Ok(r) => {
                assert!(tr <= a.rank() && r.rank() == tr, "{a} o {t} = {r}: rank");
                for k in 0..tr {
                    let (am, rm) = (a.mode(k).unwrap(), r.mode(k).unwrap());
                    match t.mode(k).unwrap().single().unwrap() {
                        cute::Tile::Whole => assert_eq!(am, rm, "{a} o {t} = {r}: mode {k}"),
                        cute::Tile::Int(n) => {
                            check_composition(&am, &Layout::leaf(n, 1).unwrap(), &rm)
                        }
                        cute::Tile::Layout(l) => check_composition(&am, &l, &rm),
                    }
                }
            }
            Err(e) => one_line(&e),
        }
    }

    // complement
    match cute::complement(&a) {
        Ok(c) => check_complement(&a, &c, a.cosize().map_or(0, |x| x as i128)),
        Err(e) => one_line(&e),
    }
    match cute::complement_to(&a, &shape) {
        Ok(c) => check_complement(&a, &c, shape.size().unwrap_or(0) as i128),
        Err(e) => one_line(&e),
    }

    // compact layouts
    match cute::compact_col_major(&shape) {
        Ok(m) => {
            if size(&m) <= BRUTE {
                for i in 0..size(&m) {
                    assert_eq!(ev(&m, i), Some(i), "compact_col_major({shape}) = {m}");
                }
            }
        }
        Err(e) => one_line(&e),
    }
    let order_vals: Vec<i64> = (0..shape.leaf_count())
        .map(|_| (s.u8() % 4) as i64)
        .collect();
    let order = IntTuple::from_str_checked(&shape, &order_vals);
    for m in [
        cute::compact_row_major(&shape),
        cute::make_ordered_layout(&shape, &order),
    ] {
        match m {
            Ok(m) => {
                if let Some(img) = image(&m) {
                    assert_eq!(img, (0..size(&m)).collect(), "{m} is not a bijection");
                }
            }
            Err(e) => one_line(&e),
        }
    }

    // by-mode coalesce with a profile of `_` and `1`
    let profile: Vec<&str> = (0..a.rank())
        .map(|_| if s.u8().is_multiple_of(2) { "_" } else { "1" })
        .collect();
    let profile_text = format!("({})", profile.join(","));
    // (more than MAX_TILES modes: no tiler)
    let profile_tiler = format!("<{}>", profile.join(",")).parse::<Tiler>();
    match profile_tiler.and_then(|t| cute::coalesce_profile(&a, &t)) {
        Ok(r) => {
            same_function(&a, &r, "coalesce_profile");
            if !a.is_leaf() {
                for (k, p) in profile.iter().enumerate() {
                    if *p == "_" {
                        assert_eq!(a.mode(k).unwrap(), r.mode(k).unwrap(), "coalesce_profile");
                    }
                }
            }
        }
        Err(e) => one_line(&e),
    }

    // every operation of the dispatcher on arguments from its signature
    let v = Vals {
        a: a.to_string(),
        b: b.to_string(),
        a_shape: a.shape().to_string(),
        a_stride: a.stride().to_string(),
        shape: shape_text,
        tiler: tiler_text,
        coord: match cute::idx2crd(&IntTuple::int(i), &sa) {
            Ok(c) => c.to_string(),
            Err(_) => i.to_string(),
        },
        int: ((s.u8() as i64) - 2).to_string(),
        profile: profile_text,
        order: order.to_string(),
    };
    // the same layout with coordinate or binary strides: laws, then (half the time) every op on it
    let v = semimodule_step(s, &a, &b, v);
    for o in ops::operations() {
        let (op, sig) = (o.name, o.signature());
        let args = args_for(&sig, s, &v);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = ops::run(op, &args);
        match &o {
            Outcome::Value(x) => assert!(!x.contains('\n')),
            _ => {
                let line = ops::error_line(op, &args, &o).unwrap();
                assert!(!line.contains('\n'), "{line:?}");
            }
        }
    }
});

/// The nonzero terms of a value (an arithmetic tuple also records zero coordinates it spans,
/// which coalescing may drop with a size-1 mode; and the zero of every semimodule is `0`).
fn norm(v: cute::Value) -> String {
    match v {
        cute::Value::F2(0) => "0".to_string(),
        cute::Value::Coord(t) => {
            let mut terms: Vec<String> = (0..t.terms())
                .map(|i| t.term(i))
                .filter(|x| x.0 != 0)
                .map(|(c, p, n)| format!("{c}@{:?}", &p[..n]))
                .collect();
            terms.sort();
            if terms.is_empty() {
                "0".to_string()
            } else {
                terms.join("+")
            }
        }
        other => other.to_string(),
    }
}

/// Rebuilds `a` with coordinate (E) or binary (F2) strides, checks the composition and coalesce
/// laws on it by brute force, and half the time hands it to the all-ops loop as `A`.
fn semimodule_step(s: &mut Src, a: &Layout, b: &Layout, mut v: Vals) -> Vals {
    let kind = s.u8();
    let strides: Option<Vec<cute::Stride>> = (0..a.leaf_count())
        .map(|i| {
            let d = a.leaf_at(i).1;
            let sel = s.u8();
            if kind % 2 == 0 {
                cute::Stride::f2((d as u64) & 0xffff).ok()
            } else if sel % 3 == 2 {
                cute::Stride::basis(d, &[2, (sel as usize / 3) % 2]).ok()
            } else {
                cute::Stride::basis(d, &[(sel % 3) as usize]).ok()
            }
        })
        .collect();
    let Some(strides) = strides else { return v };
    let Ok(x) = Layout::from_strides(&a.shape(), &strides) else {
        return v;
    };
    let text = x.to_string();
    assert_eq!(text.parse::<Layout>().unwrap(), x, "{text}");
    let n = size(&x).min(BRUTE) as i64;
    let c = cute::coalesce(&x);
    for i in 0..n {
        if let (Ok(p), Ok(q)) = (x.eval_value(i), c.eval_value(i)) {
            assert_eq!(norm(p), norm(q), "coalesce({x}) = {c} at {i}");
        }
    }
    match cute::composition(&x, b) {
        Ok(r) if size(b) <= BRUTE => {
            for i in 0..size(b) as i64 {
                let (Ok(bi), Ok(ri)) = (b.eval(i), r.eval_value(i)) else {
                    continue;
                };
                if let Ok(want) = x.eval_value(bi) {
                    assert_eq!(norm(ri), norm(want), "{x} ∘ {b} = {r} at {i}");
                }
            }
        }
        Ok(_) => {}
        Err(e) => one_line(&e),
    }
    if let Ok(r) = cute::right_inverse(&x) {
        if matches!(x.semimodule(), cute::Semimodule::Binary) && size(&r) <= BRUTE {
            for k in 0..size(&r) as i64 {
                let ri = r.eval(k).unwrap();
                assert_eq!(x.eval(ri).unwrap(), k, "right_inverse({x}) = {r} at {k}");
            }
        }
    }
    if kind % 4 < 2 {
        v.a = text;
    }
    v
}

/// `IntTuple` helpers for the target.
trait FromVals {
    fn from_str_checked(profile: &IntTuple, vals: &[i64]) -> IntTuple;
}

impl FromVals for IntTuple {
    /// The tuple with `profile`'s nesting and the leaves `vals`.
    fn from_str_checked(profile: &IntTuple, vals: &[i64]) -> IntTuple {
        IntTuple::flat(vals).unwrap().unflatten(profile).unwrap()
    }
}
