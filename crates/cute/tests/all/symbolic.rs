//! Symbolic extents (`?`, `?{div=d}`, `M{div=d,min=m}`): every operation on random mixed
//! static/unknown layouts, checked at many admissible values of the unknowns against the
//! integer library (or the operation's definition), plus the CUTLASS issues #3469-#3471.

use cute::symbolic::{self, Sym, SymLayout};
use cute::Layout;

/// A small deterministic generator (xorshift64*), so that the test needs no seed handling.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len())]
    }
}

/// The unknowns of one case: two named ones with random facts.
pub(crate) fn facts(r: &mut Rng) -> [String; 2] {
    let f = |r: &mut Rng| {
        let div = [1, 2, 4, 8, 16][r.below(5)];
        match r.below(3) {
            0 if div > 1 => format!("{{div={div}}}"),
            1 => format!("{{div={div},min={}}}", [2, 8, 16][r.below(3)]),
            _ => String::new(),
        }
    };
    [format!("M{}", f(r)), format!("N{}", f(r))]
}

/// A shape leaf: an integer, a named unknown or an anonymous one.
fn shape_leaf(r: &mut Rng, names: &[String; 2]) -> String {
    match r.below(8) {
        0 => names[0].clone(),
        1 => names[1].clone(),
        2 => format!("?{{div={}}}", [2, 4, 8][r.below(3)]),
        3 => "?".into(),
        _ => r.pick(&["1", "2", "3", "4", "8", "2", "4"]).into(),
    }
}

/// A random layout text: 1..=3 modes, possibly nested, with compact (in a random order, from
/// a base of 1, 2 or 3) or random strides.
pub(crate) fn layout_text(r: &mut Rng, names: &[String; 2]) -> String {
    let n = 1 + r.below(3);
    let shapes: Vec<String> = (0..n).map(|_| shape_leaf(r, names)).collect();
    let bare = |s: &str| s.split('{').next().unwrap_or(s).to_string();
    let mut strides = vec![String::new(); n];
    if r.below(3) > 0 {
        // compact in a random order of the modes
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, r.below(i + 1));
        }
        // from a base above 1 at times, so that a gap lies below the modes: `(N,N):(2,2*N)`
        let base = r.pick(&["1", "1", "2", "3"]);
        let mut acc: Vec<String> = if base == "1" {
            Vec::new()
        } else {
            vec![base.into()]
        };
        for &i in &order {
            strides[i] = if acc.is_empty() {
                "1".into()
            } else {
                acc.join("*")
            };
            let s = bare(&shapes[i]);
            if s.starts_with('?') {
                // an anonymous extent cannot be named again: a random stride instead
                acc.push(r.pick(&["8", "16"]).into());
            } else {
                acc.push(s);
            }
        }
    } else {
        for s in strides.iter_mut() {
            *s = r.pick(&["0", "1", "2", "4", "8", "16", "M", "2*M"]).into();
        }
    }
    // a named unknown's facts only at its first occurrence (the reader accepts any)
    if n == 1 {
        format!("{}:{}", shapes[0], strides[0])
    } else if n == 3 && r.below(2) == 0 {
        format!(
            "({},({},{})):({},({},{}))",
            shapes[0], shapes[1], shapes[2], strides[0], strides[1], strides[2]
        )
    } else {
        format!("({}):({})", shapes.join(","), strides.join(","))
    }
}

/// Admissible values for every unknown, from `seed`: a name takes one value in all operands,
/// admissible for the facts of all its occurrences (as the operations read them).
pub(crate) fn values(seed: u64, inputs: &[&SymLayout]) -> impl Fn(&Sym) -> i64 {
    let mut table: Vec<Sym> = Vec::new();
    for l in inputs {
        for s in l.unknowns() {
            match table.iter_mut().find(|t| t.id == s.id) {
                Some(t) => {
                    let (mut a, mut b) = (t.div, s.div);
                    while b != 0 {
                        (a, b) = (b, a % b);
                    }
                    t.div = t.div / a * s.div;
                    t.min = t.min.max(s.min);
                }
                None => table.push(s),
            }
        }
    }
    // each unknown's value, drawn once
    let drawn: Vec<(cute::symbolic::SymId, i64)> = table
        .iter()
        .map(|s| {
            let mut h = seed ^ 0x9E37_79B9_7F4A_7C15;
            for b in format!("{:?}", s.id).bytes() {
                h = (h ^ b as u64).wrapping_mul(0x100_0000_01B3);
            }
            let k = (h >> 7) % 4; // least, and a few multiples above it
            (s.id.clone(), s.least() + k as i64 * s.div)
        })
        .collect();
    move |s: &Sym| {
        drawn
            .iter()
            .find(|(id, _)| *id == s.id)
            .map_or(s.least(), |(_, v)| *v)
    }
}

pub(crate) const LIMIT: i64 = 1 << 9;

/// The first offsets of `l` (at most `LIMIT`, so that the test stays quick).
fn offsets(l: &Layout) -> Option<Vec<i64>> {
    (0..l.size().min(LIMIT)).map(|i| l.eval(i).ok()).collect()
}

/// Whether `l` maps distinct indices to distinct offsets (checked up to 2^16 indices; a larger
/// layout counts as injective, so that the check it guards stays strict).
fn injective(l: &Layout) -> bool {
    let n = l.size();
    if n > 1 << 16 {
        return true;
    }
    let mut seen: Vec<i64> = (0..n).filter_map(|i| l.eval(i).ok()).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len() as i64 == n
}

fn mode_sizes(l: &Layout) -> Vec<i64> {
    l.shape_modes_sizes()
}

trait Sizes {
    fn shape_modes_sizes(&self) -> Vec<i64>;
}

impl Sizes for Layout {
    fn shape_modes_sizes(&self) -> Vec<i64> {
        (0..self.rank())
            .map(|i| self.mode(i).map(|m| m.size()).unwrap_or(0))
            .collect()
    }
}

/// `l(k)` on the extended domain (the last mode not reduced) of a flat layout; `None` for a
/// nested one.
fn extended(l: &Layout, mut k: i64) -> Option<i64> {
    let n = l.rank().max(1);
    let mut total = 0;
    for j in 0..n {
        let m = if l.rank() == 0 { *l } else { l.mode(j).ok()? };
        let d: i64 = m.stride().to_string().parse().ok()?;
        let c = if j + 1 == n { k } else { k % m.size() };
        total += c * d;
        k /= m.size().max(1);
    }
    Some(total)
}

/// A check of an answer (substituted) against the inputs (substituted).
type CheckFn = dyn Fn(&[Layout], &Layout) -> Result<(), String>;

#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    answered: usize,
    refused: usize,
    /// refusals by category (Condition, Unsupported, …)
    categories: std::collections::BTreeMap<&'static str, usize>,
    points: usize,
}

/// Checks `sym` (the symbolic answer) at admissible values against `reference` (the integer
/// answer or definition) for 6 substitutions.
fn check_points(
    what: &str,
    inputs: &[&SymLayout],
    sym: &SymLayout,
    t: &mut Tally,
    check: &CheckFn,
) {
    for seed in 0..6u64 {
        let v = values(seed.wrapping_mul(7919) + 1, inputs);
        let ins: Result<Vec<Layout>, _> = inputs.iter().map(|l| l.substitute(&v)).collect();
        let Ok(ins) = ins else { continue };
        let Ok(out) = sym.substitute(&v) else {
            panic!("{what} {inputs:?}: the answer {sym} does not substitute")
        };
        if let Err(m) = check(&ins, &out) {
            let texts: Vec<String> = ins.iter().map(|l| l.to_string()).collect();
            panic!(
                "{what} {} -> {sym}: at {texts:?} gives {out}: {m}",
                inputs
                    .iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        t.points += 1;
    }
}

fn same_function(a: &Layout, b: &Layout) -> Result<(), String> {
    if a.size() != b.size() {
        return Err(format!("sizes {} and {}", a.size(), b.size()));
    }
    match (offsets(a), offsets(b)) {
        (Some(x), Some(y)) if x != y => Err(format!("offsets {x:?} and {y:?}")),
        _ => Ok(()),
    }
}

fn same_as_static(
    got: &Layout,
    want: Result<Layout, cute::Error>,
    modes: bool,
) -> Result<(), String> {
    let want = want.map_err(|e| format!("the integer library refuses: {e}"))?;
    same_function(got, &want)?;
    if modes && mode_sizes(got) != mode_sizes(&want) {
        return Err(format!("mode sizes differ from {want}"));
    }
    Ok(())
}

#[test]
fn operations_agree_with_the_integer_library_at_admissible_values() {
    // CUTE_SYMBOLIC_SEED=<n> runs another sample (for longer sweeps by hand)
    let seed = std::env::var("CUTE_SYMBOLIC_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .map_or(0x5EED_CAFE_F00D_1234, |s| {
            s.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
        });
    let mut r = Rng(seed);
    let mut t = Tally::default();
    let pycute = symbolic::Form {
        static_apart: true,
        ..Default::default()
    };
    let pycute_z = symbolic::Form {
        keep_last: true,
        ..pycute
    };
    let pycute_inv = symbolic::Form {
        uniform: true,
        ..pycute
    };
    for _ in 0..3000 {
        let names = facts(&mut r);
        let (ta, tb) = (layout_text(&mut r, &names), layout_text(&mut r, &names));
        let (Ok(a), Ok(b)) = (ta.parse::<SymLayout>(), tb.parse::<SymLayout>()) else {
            panic!("generated text does not parse: {ta} {tb}")
        };
        // the printed form reads back to the same layout
        assert_eq!(
            a.to_string().parse::<SymLayout>().unwrap().to_string(),
            a.to_string()
        );
        t.cases += 1;
        type Op = (
            &'static str,
            Result<SymLayout, symbolic::SymError>,
            Box<CheckFn>,
        );
        let ops: Vec<Op> = vec![
            (
                "coalesce",
                symbolic::coalesce(&a),
                Box::new(|i, o| same_as_static(o, Ok(cute::coalesce(&i[0])), false)),
            ),
            (
                "composition",
                symbolic::composition(&a, &b),
                Box::new(|i, o| {
                    // the definition: R(k) = A(B(k)) on B's domain, with B's mode sizes
                    if o.size() != i[1].size()
                        || (!i[1].is_leaf() && mode_sizes(o) != mode_sizes(&i[1]))
                    {
                        return Err("not B's shape".into());
                    }
                    for k in 0..i[1].size().min(LIMIT) {
                        let x = i[1].eval(k).map_err(|e| e.to_string())?;
                        if x >= i[0].size() {
                            continue; // past A's domain: no value to compare
                        }
                        if o.eval(k).ok() != i[0].eval(x).ok() {
                            return Err(format!("differs from A(B({k}))"));
                        }
                    }
                    Ok(())
                }),
            ),
            (
                "complement",
                symbolic::complement(&a, None),
                Box::new(|i, o| same_as_static(o, cute::complement(&i[0]), false)),
            ),
            (
                "right_inverse",
                symbolic::right_inverse(&a),
                Box::new(|i, o| {
                    let want = cute::right_inverse(&i[0]).map_err(|e| e.to_string())?;
                    if want.size() != o.size() {
                        return Err(format!("size differs from {want}"));
                    }
                    for k in 0..o.size().min(LIMIT) {
                        if i[0].eval(o.eval(k).unwrap()).ok() != Some(k) {
                            return Err(format!("L(R({k})) != {k}"));
                        }
                    }
                    Ok(())
                }),
            ),
            (
                "left_inverse",
                symbolic::left_inverse(&a),
                Box::new(|i, o| {
                    for k in 0..i[0].size().min(LIMIT) {
                        if o.eval(i[0].eval(k).unwrap()).ok() != Some(k) {
                            return Err(format!("R(L({k})) != {k}"));
                        }
                    }
                    Ok(())
                }),
            ),
            (
                "logical_divide",
                symbolic::logical_divide(&a, &b),
                Box::new(|i, o| same_as_static(o, cute::logical_divide(&i[0], &i[1].into()), true)),
            ),
            (
                "zipped_divide",
                symbolic::zipped_divide(&a, &b),
                Box::new(|i, o| same_as_static(o, cute::zipped_divide(&i[0], &i[1].into()), true)),
            ),
            (
                "tiled_divide",
                symbolic::tiled_divide(&a, &b),
                Box::new(|i, o| same_as_static(o, cute::tiled_divide(&i[0], &i[1].into()), false)),
            ),
            (
                "flat_divide",
                symbolic::flat_divide(&a, &b),
                Box::new(|i, o| same_as_static(o, cute::flat_divide(&i[0], &i[1].into()), false)),
            ),
            (
                "logical_product",
                symbolic::logical_product(&a, &b),
                Box::new(|i, o| {
                    same_as_static(o, cute::logical_product(&i[0], &i[1].into()), true)
                }),
            ),
            (
                "zipped_product",
                symbolic::zipped_product(&a, &b),
                Box::new(|i, o| same_as_static(o, cute::zipped_product(&i[0], &i[1].into()), true)),
            ),
            (
                "tiled_product",
                symbolic::tiled_product(&a, &b),
                Box::new(|i, o| same_as_static(o, cute::tiled_product(&i[0], &i[1].into()), false)),
            ),
            (
                "flat_product",
                symbolic::flat_product(&a, &b),
                Box::new(|i, o| same_as_static(o, cute::flat_product(&i[0], &i[1].into()), false)),
            ),
            (
                "blocked_product",
                symbolic::blocked_product(&a, &b),
                Box::new(|i, o| match cute::blocked_product(&i[0], &i[1]) {
                    // where the integer library cannot zip the modes, the rank-wise answer
                    // is checked through its parts (the logical product) only
                    Err(_) => Ok(()),
                    w => same_as_static(o, w, false),
                }),
            ),
            (
                "raked_product",
                symbolic::raked_product(&a, &b),
                Box::new(|i, o| match cute::raked_product(&i[0], &i[1]) {
                    Err(_) => Ok(()),
                    w => same_as_static(o, w, false),
                }),
            ),
            (
                "coalesce (PyCuTe's form)",
                symbolic::coalesce_with(&a, pycute),
                Box::new(|i, o| same_as_static(o, Ok(cute::coalesce(&i[0])), false)),
            ),
            (
                "coalesce_z (PyCuTe's form)",
                symbolic::coalesce_with(&a, pycute_z),
                Box::new(|i, o| {
                    // the same function as the integer coalesce_z, past the size too
                    same_as_static(o, Ok(cute::coalesce_z(&i[0])), false)?;
                    let z = cute::coalesce_z(&i[0]);
                    for k in i[0].size()..i[0].size() + 8 {
                        if extended(o, k) != extended(&z, k) {
                            return Err(format!("differs from {z} at {k}, past the size"));
                        }
                    }
                    Ok(())
                }),
            ),
            (
                "right_inverse (PyCuTe's form)",
                symbolic::right_inverse_with(&a, pycute_inv),
                Box::new(|i, o| {
                    // a right inverse at every value, never larger than the integer library's
                    // where that is the largest right inverse: for an injective layout (where
                    // two modes share a stride, the constructions may pick different ones)
                    let want = cute::right_inverse(&i[0]).map_err(|e| e.to_string())?;
                    if o.size() > want.size() && injective(&i[0]) {
                        return Err(format!("larger than {want}"));
                    }
                    for k in 0..o.size().min(LIMIT) {
                        if i[0].eval(o.eval(k).unwrap()).ok() != Some(k) {
                            return Err(format!("L(R({k})) != {k}"));
                        }
                    }
                    Ok(())
                }),
            ),
        ];
        for (name, res, check) in ops {
            match res {
                Ok(l) => {
                    t.answered += 1;
                    // the answer's text reads back to the same text
                    let text = l.to_string();
                    assert_eq!(text.parse::<SymLayout>().map(|r| r.to_string()), Ok(text));
                    check_points(name, &[&a, &b], &l, &mut t, &*check);
                }
                Err(e) => {
                    t.refused += 1;
                    *t.categories.entry(e.category()).or_default() += 1;
                    let line = e.to_string();
                    assert!(!line.contains('\n'), "{line}");
                    assert!(
                        ["Condition", "Unsupported", "Overflow", "Divisibility"]
                            .contains(&e.category()),
                        "{line}"
                    );
                }
            }
        }
    }
    eprintln!("symbolic: {t:?}");
    assert!(t.answered > 10_000 && t.points > 50_000, "{t:?}");
}

#[test]
fn pycute_forms_of_coalesce_and_right_inverse() {
    // the answers the paper's PyCuTe tests ask of sympy leaves (test_coalesce.py,
    // test_coalesce_z.py, test_inverse_right.py): static extents stay out of symbolic products
    let p = |s: &str| s.parse::<SymLayout>().unwrap();
    let apart = symbolic::Form {
        static_apart: true,
        ..Default::default()
    };
    let z = symbolic::Form {
        keep_last: true,
        ..apart
    };
    let inv = symbolic::Form {
        uniform: true,
        ..apart
    };
    let co = |l: &str, f| symbolic::coalesce_with(&p(l), f).unwrap().to_string();
    let ri = |l: &str| {
        symbolic::right_inverse_with(&p(l), inv)
            .unwrap()
            .to_string()
    };
    assert_eq!(co("(2,4):(X,2*X)", apart), "8:X");
    assert_eq!(co("(2,3,4):(X,2*X,6*X)", apart), "24:X");
    assert_eq!(co("(2,4):(X,3*X)", apart), "(2,4):(X,3*X)");
    for f in [apart, z] {
        assert_eq!(co("(4,N):(1,4)", f), "(4,N):(1,4)");
        assert_eq!(co("(N,4):(1,N)", f), "(N,4):(1,N)");
        assert_eq!(co("(N,M):(1,N)", f), "M*N:1");
        assert_eq!(co("(N,M):(X,Y)", f), "(N,M):(X,Y)");
        assert_eq!(co("(1,N):(X,Y)", f), "N:Y");
    }
    // CuTe's form merges them: the same function
    assert_eq!(co("(4,N):(1,4)", Default::default()), "4*N:1");
    // coalesce_z keeps a last size-1 mode whose step does not continue the layout
    assert_eq!(co("(2,1,6,1):(1,7,8,0)", z), "(2,6,1):(1,8,0)");
    assert_eq!(co("(N,1):(1,N)", z), "N:1");
    assert_eq!(co("(N,1):(1,0)", z), "(N,1):(1,0)");
    assert_eq!(
        co(
            "(M,1):(1,M)",
            symbolic::Form {
                keep_last: true,
                ..Default::default()
            }
        ),
        "M:1"
    );
    assert_eq!(ri("N:1"), "N:1");
    assert_eq!(ri("(4,N):(1,4)"), "(4,N):(1,4)");
    assert_eq!(ri("(N,M):(1,N)"), "M*N:1");
    assert_eq!(ri("(N,4):(1,N)"), "(N,4):(1,N)");
    // whether X is 1 decides the integer answer: for every X, only 0 maps back
    assert_eq!(ri("N:X"), "1:0");
    assert_eq!(ri("(M,N):(DM,DN)"), "1:0");
    assert_eq!(ri("(M,N):(1,K)"), "M:1");
    // CuTe's form refuses there, naming the condition
    let e = symbolic::right_inverse(&p("N:X")).unwrap_err();
    assert_eq!(e.category(), "Condition");
    assert!(e.to_string().contains("whether X equals 1"), "{e}");
    // at each value the uniform inverse is a right inverse, and where CuTe's form answers the
    // two have one size
    for (l, n) in [("N:X", 1), ("(M,N):(1,K)", 3), ("(4,N):(1,4)", 5)] {
        let r = symbolic::right_inverse_with(&p(l), inv).unwrap();
        let v = |_: &Sym| n;
        let (ls, rs) = (p(l).substitute(&v).unwrap(), r.substitute(&v).unwrap());
        for k in 0..rs.size() {
            assert_eq!(ls.eval(rs.eval(k).unwrap()).unwrap(), k, "{l} at {n}");
        }
        if let Ok(c) = symbolic::right_inverse(&p(l)) {
            assert_eq!(c.size().to_string(), r.size().to_string(), "{l}");
        }
    }
}

#[test]
fn cutlass_issues() {
    let p = |s: &str| s.parse::<SymLayout>().unwrap();
    // #3469: a dynamic extent after a static one coalesces to one mode
    assert_eq!(
        symbolic::coalesce(&p("(192,?):(1,192)"))
            .unwrap()
            .to_string(),
        "192*?:1"
    );
    let c = symbolic::coalesce(&p("(192,?{div=192}):(1,192)")).unwrap();
    assert_eq!(c.to_string(), "192*?{div=192}:1");
    let f = symbolic::composition(&c, &p("(256,192):(1,256)")).unwrap();
    assert_eq!(f.to_string(), "(256,192):(1,256)");
    // #3470: a right operand with a dynamic extent and basis strides
    let a = p("(4096,8192):(1,4096)");
    let b = p("(32,?{div=8},8,128):(1@0,8@1,1@1,32@0)");
    assert_eq!(
        symbolic::composition(&a, &b).unwrap().to_string(),
        "(32,?{div=8},8,128):(1,32768,4096,32)"
    );
    // #3471: right_inverse of (16,N):(1,16), PyCuTe's sympy answer coalesced
    assert_eq!(
        symbolic::right_inverse(&p("(16,N):(1,16)"))
            .unwrap()
            .to_string(),
        "16*N:1"
    );
    // a refusal names the unknown and the run-time condition
    let e = symbolic::composition(&p("(M,4):(1,2*M)"), &p("2:8")).unwrap_err();
    assert_eq!(e.category(), "Condition");
    assert!(
        e.to_string()
            .contains("of M: needs M divisible by 8 or dividing 8"),
        "{e}"
    );
}

#[test]
fn divides_and_compositions_by_mode_agree_with_the_integer_library() {
    use cute::symbolic::SymTiler;
    let mut r = Rng(0x0DD_BA11_5EED_0001);
    let (mut answered, mut points, mut nested) = (0usize, 0usize, 0usize);
    for _ in 0..4000 {
        let names = facts(&mut r);
        let ta = layout_text(&mut r, &names);
        let a: SymLayout = ta.parse().unwrap();
        let modes = a.rank();
        let n = 1 + r.below(modes);
        let logical = r.below(2) == 0;
        let items: Vec<String> = (0..n)
            .map(|_| {
                if logical && r.below(4) == 0 {
                    "_".to_string()
                } else {
                    let t = layout_text(&mut r, &names);
                    // one mode per item: a flat layout of the item's leaves
                    if t.starts_with('(') && t.contains("),") {
                        "4:1".to_string()
                    } else {
                        t
                    }
                }
            })
            .collect();
        let tt = format!("<{}>", items.join(","));
        let Ok(t) = tt.parse::<SymTiler>() else {
            continue; // an item that is a tuple of modes: not a tiler item here
        };
        let which = r.below(4);
        let res = match (logical, which) {
            (true, 0 | 1) => symbolic::logical_divide_by_mode(&a, &t),
            (true, _) => symbolic::composition_by_mode(&a, &t),
            (false, 0) => symbolic::zipped_divide_by_mode(&a, &t),
            (false, 1) => symbolic::tiled_divide_by_mode(&a, &t),
            _ => symbolic::flat_divide_by_mode(&a, &t),
        };
        let Ok(got) = res else { continue };
        answered += 1;
        let mut inputs: Vec<&SymLayout> = vec![&a];
        inputs.extend(t.0.iter().flatten());
        for seed in 0..8u64 {
            let v = values(seed * 31 + 5, &inputs);
            let Ok(sa) = a.substitute(&v) else { continue };
            let subs: Vec<String> =
                t.0.iter()
                    .map(|b| {
                        b.as_ref()
                            .map_or("_".into(), |l| l.substitute(&v).unwrap().to_string())
                    })
                    .collect();
            let st: cute::Tiler = format!("<{}>", subs.join(",")).parse().unwrap();
            let want = match (logical, which) {
                (true, 0 | 1) => cute::logical_divide(&sa, &st),
                (true, _) => cute::composition_tiler(&sa, &st),
                (false, 0) => cute::zipped_divide(&sa, &st),
                (false, 1) => cute::tiled_divide(&sa, &st),
                _ => cute::flat_divide(&sa, &st),
            };
            let out = got.substitute(&v).unwrap();
            // the same function, and the same top-level nesting (CuTe's `((4),(4))` for one
            // tile), where no extent is 1 at these values (a mode that may be 1 stays, which the
            // integer library drops; deeper, modes that merge only at some values stay apart)
            let nesting = |l: &Layout| {
                (0..l.rank())
                    .map(|k| l.mode(k).map(|m| m.is_leaf()))
                    .collect::<Vec<_>>()
            };
            let ones = out
                .shape()
                .to_string()
                .split(['(', ')', ','])
                .any(|x| x == "1");
            let want = want.inspect(|w| {
                if !ones {
                    assert_eq!(
                        nesting(&out),
                        nesting(w),
                        "{a} {t} -> {got}: at {sa} {st}: {w}"
                    );
                    nested += 1;
                }
            });
            if let Err(m) = same_as_static(&out, want, true) {
                panic!("{a} {t} -> {got}: at {sa} {st} gives {out}: {m}");
            }
            points += 1;
        }
    }
    eprintln!("symbolic by mode: {answered} answered, {points} points, {nested} nestings compared");
    assert!(
        answered > 300 && points > 2000 && nested > 1000,
        "{answered} {points} {nested}"
    );
}

#[test]
fn random_text_is_refused_or_read_never_a_panic() {
    const ALPHABET: &[u8] = b"?M{}div=min,()*:/@0123456789_<>- N";
    let mut r = Rng(0xFEED_FACE_0000_0001);
    let mut read = 0;
    for _ in 0..20_000 {
        let n = 1 + r.below(24);
        let text: String = (0..n)
            .map(|_| ALPHABET[r.below(ALPHABET.len())] as char)
            .collect();
        if let Ok(l) = text.parse::<SymLayout>() {
            read += 1;
            let _ = symbolic::coalesce(&l);
            let _ = symbolic::right_inverse(&l);
            let _ = symbolic::complement(&l, None);
            let _ = symbolic::composition(&l, &l);
            let _ = symbolic::logical_product(&l, &l);
        }
        let _ = text.parse::<cute::symbolic::SymTiler>();
        for op in ["coalesce", "composition", "zipped_divide", "size"] {
            let args: Vec<&str> = if op == "composition" || op == "zipped_divide" {
                vec!["(M{div=8},4):(1,M)", &text]
            } else {
                vec![&text]
            };
            if let Some(line) =
                cute::registry::error_line(op, &args, &cute::registry::run(op, &args))
            {
                assert!(!line.contains('\n'), "{line}");
            }
        }
    }
    assert!(read > 100, "{read}");
}

/// A random partial coordinate over the structure of `l`: per mode `_`, a small integer (maybe
/// outside the domain) or, for a tuple mode, a coordinate of its own.
pub(crate) fn coord_text(r: &mut Rng, l: &Layout, top: bool) -> String {
    let pick = |r: &mut Rng| match r.below(3) {
        0 => "_".to_string(),
        _ => r.below(6).to_string(),
    };
    if l.is_leaf() && !top {
        return pick(r);
    }
    if !top && r.below(3) == 0 {
        return pick(r);
    }
    if l.is_leaf() {
        return if r.below(2) == 0 {
            pick(r)
        } else {
            format!("({})", pick(r))
        };
    }
    let parts: Vec<String> = (0..l.rank())
        .map(|k| coord_text(r, &l.mode(k).unwrap(), false))
        .collect();
    format!("({})", parts.join(","))
}

#[test]
fn slice_and_dice_agree_with_the_integer_library_at_admissible_values() {
    let mut r = Rng(0x0005_11CE_D1CE);
    let (mut answered, mut refused, mut points) = (0, 0, 0);
    for _ in 0..3000 {
        let names = facts(&mut r);
        let text = layout_text(&mut r, &names);
        let a: SymLayout = text.parse().unwrap();
        let Ok(probe) = a.substitute(&values(0, &[&a])) else {
            continue;
        };
        let ct = coord_text(&mut r, &probe, true);
        let Ok(c) = ct.parse::<cute::PartialCoord>() else {
            continue;
        };
        type IntOp = fn(&Layout, &cute::PartialCoord) -> Result<Layout, cute::Error>;
        let ops: [(&str, _, IntOp); 2] = [
            ("slice", symbolic::slice(&a, &c), cute::slice),
            ("dice", symbolic::dice(&a, &c), cute::dice),
        ];
        for (name, got, int_op) in ops {
            for seed in 0..6u64 {
                let v = values(seed.wrapping_mul(7919) + 1, &[&a]);
                let Ok(al) = a.substitute(&v) else { continue };
                let want = int_op(&al, &c);
                match &got {
                    Ok(s) => {
                        let s = s.substitute(&v).unwrap();
                        let want = want.unwrap_or_else(|e| {
                            panic!(
                                "{name} {a} {c}: {s} at {al}, where the integer one refuses: {e}"
                            )
                        });
                        assert_eq!(s.to_string(), want.to_string(), "{name} {a} {c} at {al}");
                        points += 1;
                    }
                    // a refusal for every value: the integer library refuses at each one
                    Err(e) if e.category() == "Divisibility" => {
                        assert!(want.is_err(), "{name} {a} {c}: {e}, but at {al}: {want:?}")
                    }
                    Err(e) => assert_eq!(e.category(), "Condition", "{e}"),
                }
            }
            match got {
                Ok(_) => answered += 1,
                Err(_) => refused += 1,
            }
        }
    }
    eprintln!("slice/dice: {answered} answered, {refused} refused, {points} points");
    assert!(answered > 2000 && refused > 100 && points > 10_000);
}

#[test]
fn slice_names_the_condition_on_an_unknown_extent() {
    let l: SymLayout = "(4,M{min=2},N):(1,4,4*M)".parse().unwrap();
    let c = |s: &str| s.parse::<cute::PartialCoord>().unwrap();
    assert_eq!(
        symbolic::slice(&l, &c("(2,1,_)")).unwrap().to_string(),
        "(N):(4*M{min=2})"
    );
    let e = symbolic::slice(&l, &c("(2,2,_)")).unwrap_err();
    assert_eq!(e.category(), "Condition");
    assert!(e.to_string().contains("needs M{min=2} > 2"), "{e}");
    let e = symbolic::dice(&l, &c("(4,_,_)")).unwrap_err();
    assert_eq!(e.category(), "Divisibility");
    assert!(e.to_string().contains("outside the domain Z_4"), "{e}");
    let e = symbolic::slice(&l, &c("(_,_)")).unwrap_err();
    assert!(e.to_string().contains("same rank"), "{e}");
}

#[test]
fn a_divide_that_does_not_divide_pads_with_a_ceil_extent() {
    // CuTe pads the rest of a divide: ⌈M/128⌉ tiles, the last one partly outside M (the integer
    // library: zipped_divide(200:1, 128:1) = (128,2):(1,128)); checked at every M up to 300
    let p = |s: &str| s.parse::<SymLayout>().unwrap();
    let a = p("(M,N):(DM,DN)");
    let t: symbolic::SymTiler = "<128:1,512:1>".parse().unwrap();
    let z = symbolic::zipped_divide_by_mode(&a, &t).unwrap();
    assert_eq!(
        z.to_string(),
        "((128,512),(⌈M/128⌉,⌈N/512⌉)):((DM,DN),(128*DM,512*DN))"
    );
    // the text reads back to the same layout
    assert_eq!(
        z.to_string().parse::<SymLayout>().unwrap().to_string(),
        z.to_string()
    );
    let cases = [
        ("M:1", "128:1"),
        ("(M,4):(1,M)", "8:1"),
        ("(4,M):(1,4)", "8:1"),
        ("(M,N):(1,M)", "(8,4):(1,8)"),
        ("M:3", "(4,2):(2,1)"),
    ];
    for (l, b) in cases {
        let (l, b) = (p(l), p(b));
        for (name, got) in [
            ("logical_divide", symbolic::logical_divide(&l, &b)),
            ("zipped_divide", symbolic::zipped_divide(&l, &b)),
        ] {
            let got = got.unwrap_or_else(|e| panic!("{name} {l} {b}: {e}"));
            for v in 1..=300 {
                let val = |_: &Sym| v;
                let (li, bi) = (l.substitute(&val).unwrap(), b.substitute(&val).unwrap());
                let want = if name == "logical_divide" {
                    cute::logical_divide(&li, &bi.into())
                } else {
                    cute::zipped_divide(&li, &bi.into())
                };
                let g = got.substitute(&val).unwrap();
                same_as_static(&g, want, true)
                    .unwrap_or_else(|e| panic!("{name} {l} {b} -> {got} at {v}: {g}: {e}"));
            }
        }
    }
}

#[test]
fn a_complement_whose_modes_may_all_be_one_is_refused() {
    // At N = 1, (N,N):(2,2*N) is (1,1):(2,2), whose complement is 1:1, not (2,1):(1,2): the
    // gap 2 is there only where a mode above it is more than 1.
    let l: SymLayout = "(N,N):(2,2*N)".parse().unwrap();
    let e = symbolic::complement(&l, None).unwrap_err();
    assert_eq!(e.category(), "Condition");
    assert!(e.to_string().contains("needs N*N > 1"), "{e}");
    assert!(e.to_string().contains("{min=2}"), "{e}");
    let l: SymLayout = "(N{min=2},N):(2,2*N)".parse().unwrap();
    let c = symbolic::complement(&l, None).unwrap();
    assert_eq!(c.to_string(), "(2,1):(1,2*N{min=2}*N)");
    for n in [2, 3, 8] {
        let at: Layout = format!("({n},{n}):(2,{})", 2 * n).parse().unwrap();
        let want = cute::complement(&at).unwrap();
        let got = c.substitute(&|_| n).unwrap();
        assert_eq!(offsets(&got), offsets(&want), "N = {n}");
    }
}

#[test]
fn the_reader_of_unknowns_refuses_underscore_and_binary_strides() {
    for (text, says) in [
        ("M{min=2}:F4", "not `F4`"),
        ("(4,F2):(1,M)", "not `F2`"),
        ("(_,4):(1,M)", "not `_`"),
        ("_:1", "not `_`"),
    ] {
        let e = text.parse::<SymLayout>().unwrap_err();
        assert_eq!(e.category(), "Syntax", "{text}");
        assert!(e.to_string().contains(says), "{text}: {e}");
    }
    // names that only look alike stay names
    for text in ["Fx:1", "F:1", "_M:1", "(M,F4x):(1,M)"] {
        assert!(text.parse::<SymLayout>().is_ok(), "{text}");
    }
}

#[test]
fn the_uniform_right_inverse_stops_where_modes_may_merge() {
    // At M = 4 the integer construction coalesces (2,8):(4,8) into 16:4, hiding stride 8: the
    // chain of every admissible value stops after 8:1.
    let l: SymLayout = "(8,(2,8)):(1,(M,8))".parse().unwrap();
    let uniform = symbolic::Form {
        uniform: true,
        ..Default::default()
    };
    let r = symbolic::right_inverse_with(&l, uniform).unwrap();
    assert_eq!(r.to_string(), "8:1");
}

#[test]
fn the_registry_reports_the_reader_that_read_further() {
    use cute::registry::{run, Outcome};
    let sym = |op: &str, args: &[&str]| match run(op, args) {
        Outcome::Symbolic(e) => e.to_string(),
        _ => panic!("{op} {args:?}: not a symbolic outcome"),
    };
    // the integer reader stops at the unknown; the reader of unknowns at the real fault
    let e = sym("coalesce", &["M{div=0}:1"]);
    assert_eq!(
        e,
        "coalesce argument 1 `M{div=0}:1`: expected a positive number at byte 6"
    );
    let e = sym("coalesce", &["(M{div=8},M{div=4}):(1,M)"]);
    assert!(
        e.contains("those given first for `M` ({div=8,min=1}) at byte 10"),
        "{e}"
    );
    let e = sym("logical_divide", &["(M,8):(1,M)", "<4:1,x{div=0}:1>"]);
    assert!(e.starts_with("logical_divide argument 2 "), "{e}");
    // an operation on integer layouts only says so
    let e = sym("filter", &["(M,4):(1,M)"]);
    assert!(e.contains("filter takes integer layouts only"), "{e}");
    // a plain syntax error stays the integer reader's; a bad coordinate is the coordinate's
    assert!(matches!(
        run("coalesce", &["(4,8):(1,4"]),
        Outcome::BadArgument { index: 0, .. }
    ));
    let o = run("slice", &["(4,M,2):(1,4,4*M)", "(1,x)"]);
    assert!(matches!(o, Outcome::BadArgument { index: 1, .. }));
    // the hint names the fact that decides the condition
    let e = sym("slice", &["(4,M,2):(1,4,4*M)", "(1,3,_)"]);
    assert!(
        e.contains("needs M > 3") && e.contains("e.g. {min=4}"),
        "{e}"
    );
}
