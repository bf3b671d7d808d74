//! The invariant of `Layout` (every shape leaf at least 1, their product in `i64`), on which the
//! infallible `Layout::size` rests: every operation either returns a layout that keeps it or
//! refuses. The property test runs the operations on layouts with large leaves, whose results
//! would often pass `i64`, and recomputes each result's size in `i128`; the regression tests are
//! the builders that used to return such layouts (before `size` became infallible they returned a
//! layout whose `size()` was an error).

use crate::gen::{profile, run, Prof};
use cute::registry::{self, Outcome};
use cute::{
    blocked_product, coalesce, coalesce_z, complement, complement_to, composition,
    composition_tiler, domain_distribute, filter, flat_divide, flat_product,
    greatest_common_domain, layout_add, left_inverse, logical_divide, logical_product,
    make_identity_layout, max_common_layout, nullspace, raked_product, recast, right_inverse,
    tile_to_shape, tiled_divide, tiled_product, upcast, with_shape, zipped_divide, zipped_product,
    Error, ErrorKind, IntTuple, Layout, Op, Tiler,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn tiler(s: &str) -> Tiler {
    s.parse().unwrap()
}

/// The invariant, checked in `i128`, and `size()` agreeing with it.
fn holds(what: &str, r: &Layout) -> Result<(), TestCaseError> {
    let mut p: i128 = 1;
    for i in 0..r.leaf_count() {
        let s = r.leaf_at(i).0;
        prop_assert!(s >= 1, "{what}: shape leaf {s} of {r}");
        p *= s as i128; // p ≤ 2^63 and s < 2^63 before: no overflow in i128
        prop_assert!(p <= i64::MAX as i128, "{what}: the size of {r} passes i64");
    }
    prop_assert_eq!(r.size() as i128, p, "{}: size of {}", what, r);
    Ok(())
}

/// A result: a layout that keeps the invariant, or a refusal (any category).
fn check(what: &str, r: Result<Layout, Error>) -> Result<(), TestCaseError> {
    match r {
        Ok(r) => holds(what, &r),
        Err(_) => Ok(()),
    }
}

/// The strides' semimodule of a generated layout.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Integer,
    /// Coordinate strides on axes `0..=k`.
    Coordinate(u8),
    Binary,
}

/// A layout with large leaves: its profile, shapes (their product capped so that it fits) and
/// strides (zero, compact, small, powers of two), in one semimodule.
#[derive(Clone, Debug)]
struct Big {
    prof: Prof,
    shape: Vec<i64>,
    stride: Vec<i64>,
    axis: Vec<u8>,
    kind: Kind,
}

impl Big {
    fn text(&self) -> String {
        let strides: Vec<String> = self
            .stride
            .iter()
            .zip(&self.axis)
            .map(|(&d, &a)| match self.kind {
                Kind::Integer => d.to_string(),
                Kind::Coordinate(_) if d == 0 => "0".to_string(),
                Kind::Coordinate(_) => format!("{d}@{a}"),
                Kind::Binary => format!("F{d}"),
            })
            .collect();
        let mut it = strides.iter();
        let d = self.prof.write('(', ')', &mut || {
            it.next().expect("a stride per leaf").clone()
        });
        format!("{}:{d}", self.prof.text(&self.shape))
    }

    fn layout(&self) -> Layout {
        let t = self.text();
        t.parse()
            .unwrap_or_else(|e| panic!("generated layout {t}: {e}"))
    }
}

/// A shape leaf: small, a power of two up to 2^62, near 2^31 or any value up to 2^40.
fn leaf() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => 1i64..=8,
        3 => (1u32..=62).prop_map(|k| 1i64 << k),
        1 => (1i64 << 31) - 3..=(1i64 << 31) + 3,
        1 => 1i64..=1 << 40,
    ]
}

/// A stride for a leaf whose exclusive prefix product (col-major stride) is `p`.
fn stride_of(choice: u8, p: i64, small: i64, k: u32) -> i64 {
    match choice {
        0 => 0,
        1 | 2 => p,
        3 => 1,
        4 => small,
        _ => 1i64 << k,
    }
}

fn big() -> impl Strategy<Value = Big> {
    (profile(4, 2), 0u8..8).prop_flat_map(|(prof, kind)| {
        let n = prof.leaves();
        (
            Just(prof),
            proptest::collection::vec(leaf(), n),
            proptest::collection::vec((0u8..6, 1i64..=16, 0u32..=40, 0u8..=1), n),
            Just(kind),
        )
            .prop_map(|(prof, raw, strides, kind)| {
                let kind = match kind {
                    0..=4 => Kind::Integer,
                    5 | 6 => Kind::Coordinate(1),
                    _ => Kind::Binary,
                };
                // cap each leaf so that the product fits: the operand is a valid layout
                let (mut shape, mut stride, mut axis) = (vec![], vec![], vec![]);
                let mut p: i64 = 1;
                for (s, (c, small, k, a)) in raw.into_iter().zip(strides) {
                    let s = s.min(i64::MAX / p).max(1);
                    let d = match kind {
                        // F2 strides: powers of two keep the F2 layout a swizzle-like one
                        Kind::Binary => 1i64 << k.min(40),
                        _ => stride_of(c, p, small, k),
                    };
                    shape.push(s);
                    stride.push(d);
                    axis.push(match kind {
                        Kind::Coordinate(m) => a.min(m),
                        _ => 0,
                    });
                    p *= s;
                }
                Big {
                    prof,
                    shape,
                    stride,
                    axis,
                    kind,
                }
            })
    })
}

/// The by-mode tiler `<B_0,B_1,...>` of the modes of `b` (the single tile `b` for an integer
/// layout).
fn by_mode(b: &Layout) -> Tiler {
    if b.is_leaf() {
        return Tiler::layout(*b);
    }
    let tiles: Vec<String> = (0..b.rank())
        .map(|k| b.mode(k).unwrap().to_string())
        .collect();
    tiler(&format!("<{}>", tiles.join(",")))
}

/// Every operation of the algebra that returns a layout, on `a` and `b`.
fn all_operations(a: &Layout, b: &Layout, k: i64) -> Result<(), TestCaseError> {
    let (tb, tm) = (Tiler::layout(*b), by_mode(b));
    let (sa, sb) = (a.shape(), b.shape());
    check("concat", Layout::concat(&[*a, *b]))?;
    check("concat3", Layout::concat(&[*a, *b, *a]))?;
    check("append", a.append(b))?;
    check("prepend", a.prepend(b))?;
    check("replace", a.replace(0, b))?;
    check("select", a.select(&[0, 0, a.rank() - 1, 0]))?;
    check("take", a.take(0, a.rank()))?;
    check("group", a.group(0, a.rank()))?;
    check("reverse", a.reverse())?;
    check("pad_to_rank", a.pad_to_rank(4))?;
    check("get", a.get(&[0, 0]))?;
    check("unflatten", a.flatten().unflatten(&sa))?;
    holds("flatten", &a.flatten())?;
    holds("coalesce", &coalesce(a))?;
    holds("coalesce_z", &coalesce_z(a))?;
    holds("filter", &filter(a))?;
    holds("filter_zeros", &cute::filter_zeros(a))?;
    check("composition", composition(a, b))?;
    check("composition by tile", composition_tiler(a, &tb))?;
    check("composition by mode", composition_tiler(a, &tm))?;
    check("composition_mode", cute::composition_mode(a, 0, &tb))?;
    check("with_shape", with_shape(a, &sb))?;
    check("complement", complement(a))?;
    check("complement_to", complement_to(a, &sb))?;
    check("complement_to k", complement_to(a, &IntTuple::int(k)))?;
    check("right_inverse", right_inverse(a))?;
    check("left_inverse", left_inverse(a))?;
    check("nullspace", nullspace(a))?;
    for (name, f) in [
        ("logical_divide", logical_divide as fn(&Layout, &Tiler) -> _),
        ("zipped_divide", zipped_divide),
        ("tiled_divide", tiled_divide),
        ("flat_divide", flat_divide),
        ("logical_product", logical_product),
        ("zipped_product", zipped_product),
        ("tiled_product", tiled_product),
        ("flat_product", flat_product),
    ] {
        check(name, f(a, &tb))?;
        check(name, f(a, &tm))?;
    }
    check("blocked_product", blocked_product(a, b))?;
    check("raked_product", raked_product(a, b))?;
    check("tile_to_shape", tile_to_shape(a, &sb))?;
    check("layout_add", layout_add(a, b))?;
    check("max_common_layout", max_common_layout(a, b))?;
    check("greatest_common_domain", greatest_common_domain(&sa, &sb))?;
    check("domain_distribute", domain_distribute(&sa, k))?;
    check("make_identity_layout", make_identity_layout(&sa))?;
    check("compact_col_major", cute::compact_col_major(&sa))?;
    check("compact_row_major", cute::compact_row_major(&sa))?;
    check("upcast", upcast(a, k))?;
    check("downcast", cute::downcast(a, k))?;
    check("recast", recast(a, k, 3))?;
    check("recast", recast(a, 2, k))?;
    check("tiler_to_layout", tm.tiler_to_layout())?;
    check("tiler to_layout", tm.to_layout())?;
    Ok(())
}

/// Every operation, on pairs of layouts with large leaves (in every semimodule): each result
/// keeps the invariant, its size recomputed in `i128`.
#[test]
fn every_result_keeps_the_size_invariant() {
    let k = prop_oneof![Just(1i64), Just(2), Just(4), 1i64..=1 << 40];
    run(3000, (big(), big(), k), |(a, b, k)| {
        let (la, lb) = (a.layout(), b.layout());
        holds("operand", &la)?;
        all_operations(&la, &lb, k)?;
        // an operand against itself reaches the products' worst case
        all_operations(&la, &la, k)
    });
}

/// The same through the registry (every operation by its CuTe name, as the command line runs
/// it): whatever prints as a layout parses back, so its size fits.
#[test]
fn every_printed_layout_parses_back() {
    run(400, (big(), big()), |(a, b)| {
        let (ta, tb) = (a.text(), b.text());
        let tm = by_mode(&b.layout()).to_string();
        let shape = b.layout().shape().to_string();
        for op in registry::operations() {
            let args: Vec<&str> = match op.signature().as_str() {
                "LAYOUT" => vec![&ta],
                "LAYOUT LAYOUT" => vec![&ta, &tb],
                "LAYOUT TILER" => vec![&ta, &tm],
                "LAYOUT SHAPE" | "LAYOUT [COTARGET]" => vec![&ta, &shape],
                "LAYOUT..." => vec![&ta, &tb, &ta],
                "TILER" => vec![&tm],
                _ => continue,
            };
            if let Outcome::Value(v) = registry::run(op.name, &args) {
                if v.contains(':') && !v.contains(['{', '∘', ' ']) {
                    if let Err(e) = v.parse::<Layout>() {
                        prop_assert!(
                            !matches!(e.kind(), ErrorKind::Overflow { .. }),
                            "{} {:?} printed {} whose size passes i64",
                            op.name,
                            args,
                            v
                        );
                    }
                }
            }
        }
        Ok(())
    });
}

/// The error of a size that passes `i64`, named after `op`.
fn assert_size_overflow(r: Result<Layout, Error>, op: Op) {
    match r {
        Ok(r) => panic!("{op:?}: {r} (size beyond i64) was returned"),
        Err(e) => {
            assert!(
                matches!(
                    e.kind(),
                    ErrorKind::Overflow {
                        what: "the size of the shape"
                    }
                ),
                "{op:?}: {e}"
            );
            assert_eq!(e.op(), op, "{e}");
            assert!(!e.to_string().contains('\n'));
        }
    }
}

const P62: &str = "4611686018427387904"; // 2^62
const P32: &str = "4294967296"; // 2^32
const P31: &str = "2147483648"; // 2^31

/// Concatenation put together the leaves of valid layouts without looking at their product:
/// `(2^62:1, 2:0)` was returned, its size 2^63.
#[test]
fn concatenation_refuses_a_size_beyond_i64() {
    let big = l(&format!("{P62}:1"));
    assert_size_overflow(Layout::concat(&[big, l("2:0")]), Op::Concatenation);
    assert_size_overflow(
        Layout::concat(&[l("2:0"), big, l("1:0")]),
        Op::Concatenation,
    );
    // at the boundary: 2^62 · 1 and (2^62 - 1) · 2 + … fit
    assert_eq!(Layout::concat(&[big, l("1:0")]).unwrap().size(), 1 << 62);
    let m = l(&format!("{}:1", (1i64 << 62) - 1));
    assert_eq!(
        Layout::concat(&[m, l("2:0")]).unwrap().size(),
        ((1i64 << 62) - 1) * 2
    );
    // make_layout by concatenation, through the registry
    let o = registry::run("make_layout", &[&format!("{P62}:1"), "2:0"]);
    assert_eq!(o.error().unwrap().category(), "Overflow");
}

/// The structure operations moved leaves without a check: `select` may take a mode twice, and
/// `append`, `prepend` and `replace` bring in another layout's leaves.
#[test]
fn structure_operations_refuse_a_size_beyond_i64() {
    let a = l(&format!("({P32},2):(1,0)"));
    assert_eq!(a.select(&[0, 1]).unwrap().size(), 1 << 33);
    assert_size_overflow(a.select(&[0, 0]), Op::Select);
    let big = l(&format!("{P62}:1"));
    assert_size_overflow(a.append(&big), Op::Concatenation);
    assert_size_overflow(a.prepend(&big), Op::Concatenation);
    assert_size_overflow(a.replace(1, &a), Op::Concatenation);
    assert_eq!(a.replace(1, &l("3:0")).unwrap().size(), 3 << 32);
}

/// Products: `A ⊗ B` has size `|A|·|B|`, and its cotarget `|A|·cosize(B)` can fit where that does
/// not (`cosize(4:0) = 1`).
#[test]
fn products_refuse_a_size_beyond_i64() {
    let a = l(&format!("{P62}:1"));
    let b = l("4:0");
    let t = Tiler::layout(b);
    assert_size_overflow(logical_product(&a, &t), Op::LogicalProduct);
    assert_size_overflow(zipped_product(&a, &t), Op::ZippedProduct);
    assert_size_overflow(blocked_product(&a, &b), Op::BlockedProduct);
    assert_size_overflow(raked_product(&a, &b), Op::RakedProduct);
    // by mode: each mode's product fits, all of them together do not
    let a2 = l(&format!("({P31},{P31}):(1,{P31})"));
    let r = logical_product(&a2.mode(0).unwrap(), &t).unwrap();
    assert_eq!(r.size(), 1 << 33);
    assert_size_overflow(
        logical_product(&a2, &tiler("<4:0,4:0>")),
        Op::LogicalProduct,
    );
    // blocked and raked products zip the tile with its grid
    assert_size_overflow(blocked_product(&a2, &l("(2,2):(0,0)")), Op::BlockedProduct);
    assert_size_overflow(raked_product(&a2, &l("(2,2):(0,0)")), Op::RakedProduct);
}

/// Composition with a by-mode tiler: each tile reaches past its mode of `A` (the last mode is
/// unbounded), and the tiles' sizes multiply.
#[test]
fn composition_by_mode_refuses_a_size_beyond_i64() {
    let a = l("(2,2):(1,2)");
    let t = tiler("<1099511627776:1,1099511627776:1>"); // 2^40 each
    assert_eq!(
        composition(&l("2:1"), &l("1099511627776:1"))
            .unwrap()
            .size(),
        1 << 40
    );
    assert_size_overflow(composition_tiler(&a, &t), Op::Composition);
}

/// A tiler's layout concatenates its tiles.
#[test]
fn tiler_to_layout_refuses_a_size_beyond_i64() {
    let t = tiler("<1099511627776:1,1099511627776:1>");
    assert_size_overflow(t.tiler_to_layout(), Op::TilerToLayout);
    assert_size_overflow(t.to_layout(), Op::MakeLayout);
}

/// The left inverse of coordinate strides (PyCuTe's gaps, then the last extent) could pass
/// `i64` as the integer one can (`(2,2):(1,2^62)`, refused there): `(2,2):(1@0,2^62@0)` gives the
/// gap 2^62 and the extent 2.
#[test]
fn coordinate_left_inverse_refuses_a_size_beyond_i64() {
    let e = left_inverse(&l("(2,2):(1,4611686018427387904)")).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Overflow { .. }), "{e}");
    let a = l(&format!("(2,2):(1@0,{P62}@0)"));
    assert_size_overflow(left_inverse(&a), Op::LeftInverse);
    // a small one still inverts
    let ok = left_inverse(&l("(2,4):(1@0,2@0)")).unwrap();
    assert_eq!(ok.size(), 8);
}
