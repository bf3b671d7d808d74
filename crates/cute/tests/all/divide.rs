//! Logical divide and product with their variants: the paper's worked examples (EXAMPLES.md
//! S-LD-1..11, S-LP-1..6, Figures 10-12), refusals, and property tests stating the definitions.

use cute::{
    blocked_product, coalesce, compact_col_major, complement, complement_to, composition,
    composition_tiler, flat_divide, flat_product, logical_divide, logical_product, raked_product,
    tile_to_shape, tiled_divide, tiled_product, zipped_divide, zipped_product, IntTuple, Layout,
    Tiler,
};
use proptest::prelude::*;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}
fn t(s: &str) -> Tiler {
    s.parse().unwrap()
}
fn tup(s: &str) -> IntTuple {
    s.parse().unwrap()
}

// ---------------------------------------------------------------------------------------------
// The paper's worked examples
// ---------------------------------------------------------------------------------------------

#[test]
fn s_ld_1_to_5_one_dimensional_divide() {
    // S-LD-1: every third element of 24:3.
    assert_eq!(
        composition(&l("24:3"), &l("8:3")).unwrap().to_string(),
        "8:9"
    );
    // S-LD-3: the elements 8:3 does not reach.
    assert_eq!(
        complement_to(&l("8:3"), &IntTuple::int(24))
            .unwrap()
            .to_string(),
        "3:1"
    );
    // S-LD-4 = S-LD-5: 24:3 ⊘ 8:3 = 24:3 ∘ (8,3):(3,1).
    let r = logical_divide(&l("24:3"), &t("8:3")).unwrap();
    assert_eq!(r.to_string(), "(8,3):(9,3)");
    assert_eq!(r, composition(&l("24:3"), &l("(8,3):(3,1)")).unwrap());
    // The tile is S-LD-1.
    assert_eq!(r.mode(0).unwrap().to_string(), "8:9");
}

#[test]
fn s_ld_2_6_7_multi_mode_divide() {
    let a = l("(6,2,2):(2,1,20)");
    // S-LD-2
    assert_eq!(
        composition(&a, &l("8:3")).unwrap().to_string(),
        "(2,2,2):(6,1,20)"
    );
    // S-LD-6 = S-LD-7
    let r = logical_divide(&a, &t("8:3")).unwrap();
    assert_eq!(r.to_string(), "((2,2,2),3):((6,1,20),2)");
    assert_eq!(r, composition(&a, &l("(8,3):(3,1)")).unwrap());
}

#[test]
fn s_ld_8_to_11_by_mode_divide_and_figure_12() {
    // S-LD-8, S-LD-9: the completed tiles (4,2):(1,4) and (8,2):(2,1).
    assert_eq!(
        complement_to(&l("4:1"), &IntTuple::int(8))
            .unwrap()
            .to_string(),
        "2:4"
    );
    assert_eq!(
        complement_to(&l("8:2"), &IntTuple::int(16))
            .unwrap()
            .to_string(),
        "2:1"
    );
    let a = l("(8,16):(20,1)");
    let tiler = t("<4:1,8:2>");
    // S-LD-10
    let r = logical_divide(&a, &tiler).unwrap();
    assert_eq!(r.to_string(), "((4,2),(8,2)):((20,80),(2,1))");
    assert_eq!(
        r,
        composition_tiler(&a, &t("<(4,2):(1,4),(8,2):(2,1)>")).unwrap()
    );
    // S-LD-11 (Figure 12): a 2x2 grid of 4x8 tiles.
    let z = zipped_divide(&a, &tiler).unwrap();
    assert_eq!(z.to_string(), "((4,8),(2,2)):((20,2),(80,1))");
    let tile = z.mode(0).unwrap();
    assert_eq!(tile, composition_tiler(&a, &tiler).unwrap());
    let grid = z.mode(1).unwrap();
    assert_eq!(grid.shape().to_string(), "(2,2)");
    // Every tile is the first one translated by the grid offset, and the four tiles partition the
    // 4x8·2x2 = 128 elements of A that the tiler reaches, each exactly once.
    let mut seen = std::collections::BTreeSet::new();
    for g in 0..grid.size() {
        for i in 0..tile.size() {
            let v = z.eval_crd(&IntTuple::tuple(&[i.into(), g.into()]).unwrap());
            assert_eq!(v.unwrap(), tile.eval(i).unwrap() + grid.eval(g).unwrap());
            assert!(seen.insert(v.unwrap()));
        }
    }
    // The variants.
    assert_eq!(
        tiled_divide(&a, &tiler).unwrap().to_string(),
        "((4,8),2,2):((20,2),80,1)"
    );
    assert_eq!(
        flat_divide(&a, &tiler).unwrap().to_string(),
        "(4,8,2,2):(20,2,80,1)"
    );
}

#[test]
fn s_lp_1_to_4_logical_product() {
    // S-LP-1: the paper's complement, and the one the product uses (cotarget size(A)·cosize(B)).
    let a = l("(3,4):(4,1)");
    let b = l("(2,5):(1,2)");
    assert_eq!(complement(&a).unwrap().to_string(), "1:12");
    assert_eq!(
        complement_to(&a, &IntTuple::int(120)).unwrap().to_string(),
        "10:12"
    );
    // S-LP-1b
    assert_eq!(
        composition(&l("1:12"), &b).unwrap().to_string(),
        "(2,5):(12,24)"
    );
    // S-LP-2
    assert_eq!(
        logical_product(&a, &Tiler::layout(b)).unwrap().to_string(),
        "((3,4),(2,5)):((4,1),(12,24))"
    );
    // S-LP-3, S-LP-3b: the composition needs the extended domain of the complement.
    let a = l("(4,8):(20,2)");
    let b = l("(3,2):(2,1)");
    assert_eq!(complement(&a).unwrap().to_string(), "(2,1):(1,80)");
    assert_eq!(
        complement_to(&a, &IntTuple::int(192)).unwrap().to_string(),
        "(2,3):(1,80)"
    );
    assert_eq!(
        composition(&l("(2,1):(1,80)"), &b).unwrap().to_string(),
        "(3,2):(80,1)"
    );
    // S-LP-4
    assert_eq!(
        logical_product(&a, &Tiler::layout(b)).unwrap().to_string(),
        "((4,8),(3,2)):((20,2),(80,1))"
    );
}

/// Checks that `r` is a `rows x cols` grid of `3x4` blocks where block `(bi, bj)` is `a`
/// translated, the block coordinate being mode `block` of each pair (0: blocked, 1: raked).
fn check_blocks(r: &Layout, a: &Layout, grid: &Layout, block_first: bool) {
    let (a0, a1) = (a.mode(0).unwrap(), a.mode(1).unwrap());
    let (g0, g1) = (grid.mode(0).unwrap(), grid.mode(1).unwrap());
    for i in 0..a0.size() {
        for j in 0..a1.size() {
            for bi in 0..g0.size() {
                for bj in 0..g1.size() {
                    let pair = |x: i64, y: i64| -> IntTuple {
                        let (p, q) = if block_first { (x, y) } else { (y, x) };
                        IntTuple::tuple(&[p.into(), q.into()]).unwrap()
                    };
                    let c = IntTuple::tuple(&[pair(i, bi), pair(j, bj)]).unwrap();
                    let want = a.eval_crd(&IntTuple::tuple(&[i.into(), j.into()]).unwrap());
                    let off = grid.eval_crd(&IntTuple::tuple(&[bi.into(), bj.into()]).unwrap());
                    assert_eq!(r.eval_crd(&c).unwrap(), want.unwrap() + off.unwrap());
                }
            }
        }
    }
}

#[test]
fn s_lp_5_blocked_product_figure_10() {
    let a = l("(3,4):(4,1)");
    let b = l("(2,5):(1,2)");
    let r = blocked_product(&a, &b).unwrap();
    assert_eq!(r.to_string(), "((3,2),(4,5)):((4,12),(1,24))");
    // A 6x20 layout of 3x4 blocks, each a translate of the row-major tile, bijective onto 0..120.
    assert_eq!(r.shape().product_each().unwrap().to_string(), "(6,20)");
    let grid = logical_product(&a, &Tiler::layout(b))
        .unwrap()
        .mode(1)
        .unwrap();
    check_blocks(&r, &a, &grid, true);
    assert_eq!(r.image().unwrap(), (0..120).collect::<Vec<_>>());
}

#[test]
fn s_lp_6_raked_product_figure_11() {
    let a = l("(3,4):(4,1)");
    let b = l("(2,5):(1,2)");
    let r = raked_product(&a, &b).unwrap();
    assert_eq!(r.to_string(), "((2,3),(5,4)):((12,4),(24,1))");
    let grid = logical_product(&a, &Tiler::layout(b))
        .unwrap()
        .mode(1)
        .unwrap();
    check_blocks(&r, &a, &grid, false);
    assert_eq!(r.image().unwrap(), (0..120).collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------------------------
// CuTe forms and refusals
// ---------------------------------------------------------------------------------------------

#[test]
fn by_mode_tilers_keep_extra_modes_and_whole_modes() {
    // `_` keeps the mode, modes beyond the tiler are kept.
    assert_eq!(
        logical_divide(&l("(16,8):(1,16)"), &t("<_,2:1>"))
            .unwrap()
            .to_string(),
        "(16,(2,4)):(1,(16,32))"
    );
    assert_eq!(
        logical_divide(&l("(16,8,32):(1,512,16)"), &t("<4:1>"))
            .unwrap()
            .to_string(),
        "((4,4),8,32):((1,4),512,16)"
    );
    // An integer layout under a rank-1 tiler becomes a 1-tuple.
    assert_eq!(
        tiled_divide(&l("16:1"), &t("<4>")).unwrap().to_string(),
        "((4),(4)):((1),(4))"
    );
    // A shape used as a tiler is a by-mode tiler of n:1 tiles.
    assert_eq!(
        zipped_divide(&l("(16,4):(4,1)"), &t("(2,8)"))
            .unwrap()
            .to_string(),
        "((2,8),(8,1)):((4,1),(8,0))"
    );
    // Nested tilers recurse; `_` over a rank-2 mode splits it.
    assert_eq!(
        tiled_divide(&l("((4,4),4):((1,4),16)"), &t("<<2,2>>"))
            .unwrap()
            .to_string(),
        "(((2,2)),(2,2),4):(((1,4)),(2,8),16)"
    );
    assert_eq!(
        flat_divide(&l("(4,(16,8)):(128,(1,16))"), &t("<(4,4):(1,4),_>"))
            .unwrap()
            .to_string(),
        "((4,4),16,1,8):((128,512),1,0,16)"
    );
    // Products: extra modes kept as well.
    assert_eq!(
        zipped_product(&l("(4,4):(1,4)"), &t("<2>"))
            .unwrap()
            .to_string(),
        "((4),(2,4)):((1),(4,4))"
    );
    assert_eq!(
        tiled_product(&l("(2,3):(3,1)"), &t("(2,4):(4,1)"))
            .unwrap()
            .to_string(),
        "((2,3),2,4):((3,1),24,6)"
    );
    assert_eq!(
        flat_product(&l("(3,2):(2,1)"), &t("(4,3):(1,4)"))
            .unwrap()
            .to_string(),
        "(3,2,4,3):(2,1,6,24)"
    );
}

#[test]
fn rank_sensitive_products_pad_to_the_larger_rank() {
    assert_eq!(
        blocked_product(&l("4:1"), &l("(2,3):(1,2)"))
            .unwrap()
            .to_string(),
        "((4,2),(1,3)):((1,4),(0,8))"
    );
    // Rank 1 with an integer tile: the zip is a 1-tuple of the pair.
    assert_eq!(
        blocked_product(&l("4:1"), &l("2:1")).unwrap().to_string(),
        "((4,2)):((1,4))"
    );
    assert_eq!(
        raked_product(&l("4:1"), &l("2:1")).unwrap().to_string(),
        "((2,4)):((4,1))"
    );
    // A 1-tuple tile against an integer grid has mismatched ranks (CuTe does not compile it).
    let e = blocked_product(&l("(4):(1)"), &l("2:1")).unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
    assert!(e.to_string().starts_with("blocked_product"), "{e}");
}

#[test]
fn tile_to_shape_examples() {
    assert_eq!(
        tile_to_shape(&l("(2,4):(4,1)"), &tup("(4,8)"))
            .unwrap()
            .to_string(),
        "((2,2),(4,2)):((4,8),(1,16))"
    );
    assert_eq!(
        tile_to_shape(&l("(2,2):(2,1)"), &tup("(2,2)"))
            .unwrap()
            .to_string(),
        "((2,1),(2,1)):((2,0),(1,0))"
    );
    // An integer block is padded; an integer target is a rank-1 target (product_each wraps it).
    assert_eq!(
        tile_to_shape(&l("4:1"), &tup("(8,4)")).unwrap().to_string(),
        "((4,2),(1,4)):((1,4),(0,8))"
    );
    assert_eq!(
        tile_to_shape(&l("4:1"), &tup("8")).unwrap().to_string(),
        "((4,(2))):((1,(4)))"
    );
    // Nested modes are tiled by their sizes.
    assert_eq!(
        tile_to_shape(&l("((2,2),4):((1,8),2)"), &tup("(8,(4,2))"))
            .unwrap()
            .to_string(),
        "(((2,2),2),(4,2)):(((1,8),16),(2,32))"
    );
    let e = tile_to_shape(&l("(4,3):(3,1)"), &tup("(2,6)")).unwrap_err();
    assert_eq!(e.category(), "Divisibility");
    assert!(
        e.to_string()
            .starts_with("tile_to_shape (4,3):(3,1), (2,6)"),
        "{e}"
    );
    let e = tile_to_shape(&l("(2,8):(3,12)"), &tup("12")).unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
}

#[test]
fn refusals_name_the_operation_operands_and_condition() {
    // Too many modes in the tiler.
    let e = logical_divide(&l("(4,4):(1,4)"), &t("<2,2,2>")).unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
    assert!(
        e.to_string().starts_with("logical_divide (4,4):(1,4)"),
        "{e}"
    );
    let e = logical_product(&l("6:4"), &t("<2,2>")).unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
    // `_` over an integer mode cannot be unzipped.
    for f in [zipped_divide, tiled_divide, flat_divide] {
        let e = f(&l("(4,8):(8,1)"), &t("<_,8>")).unwrap_err();
        assert_eq!(e.category(), "OutOfRange", "{e}");
        // the mode kept whole is named, with where it is
        assert_eq!(e.mode_path(), &[0]);
        assert!(
            e.to_string()
                .contains(" at mode 0: 4:8: a `_` of the tiler keeps a mode of size 4 whole"),
            "{e}"
        );
    }
    let e = tiled_product(&l("(4,(8,2)):(8,(1,64))"), &t("<2,<_,2>>")).unwrap_err();
    assert_eq!(e.mode_path(), &[1, 0]);
    assert!(
        e.to_string()
            .starts_with("tiled_product at mode (1,0): 8:1: "),
        "{e}"
    );
    let e = zipped_product(&l("(4,8):(8,1)"), &t("<_,2>")).unwrap_err();
    assert_eq!(e.category(), "OutOfRange", "{e}");
    // `_` over a mode of rank 3.
    let e = zipped_divide(&l("((4,4,2),4):((1,4,64),16)"), &t("<_>")).unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch", "{e}");
    // The complement of 4:2 is (2,1):(1,8), which cannot be composed with 3:1: the message
    // names that step and writes its condition with A* for the complement.
    let e = logical_product(&l("4:2"), &t("3:1")).unwrap_err();
    assert_eq!(e.category(), "Divisibility");
    assert_eq!(
        e.to_string(),
        "logical_product 4:2 ⊗ 3:1: in the second mode A* ∘ B, A* = complement(A): \
         shape-divisibility condition (10) fails at mode 1 of the coalesced A*: ⌈S̄_1/d⌉ = 2 does \
         not divide the shape 3; decided exactly, no layout compatible with B computes A*∘B: along \
         leaf 0 of B, A*(B(c)) at c = 1·u is a progression for u < 2 but not at u = 2, so every \
         such layout has a mode boundary at c = 2, which does not divide the extent 3"
    );
    // A divide: leaf 1 of B★ = (B, B*) is the complement's, not B's.
    let e = logical_divide(&l("(2,6):(1,4)"), &t("2:3")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "logical_divide (2,6):(1,4) ⊘ 2:3: in A ∘ B★, B★ = (B, B*): no layout compatible with B★ \
         computes A∘B★ (decided exactly, where the distributivity check (12) refuses): along leaf 1 \
         of B★, A(B★(c)) at c = 1·u is a progression for u < 2 but not at u = 2, so every such \
         layout has a mode boundary at c = 2, which does not divide the extent 3"
    );
    // The complement's own condition names the layout it concerns.
    let e = logical_divide(&l("8:1"), &t("(2,2):(1,1)")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "logical_divide 8:1 ⊘ (2,2):(1,1): in B*, the complement of B onto Z_8: B is not \
         injective: indices 1 and 2 reach the same offset"
    );
    let e = logical_product(&l("(2,2):(1,1)"), &t("2:1")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "logical_product (2,2):(1,1) ⊗ 2:1: in A* = complement(A): A is not injective: indices 1 \
         and 2 reach the same offset"
    );
    // A divide whose composition is inadmissible (CuTe returns a wrong layout here).
    let e = zipped_divide(&l("(4,4):(4,1)"), &t("(4,4):(12,3)")).unwrap_err();
    assert_eq!(e.category(), "Divisibility");
    assert!(
        e.to_string().starts_with("zipped_divide (4,4):(4,1)"),
        "{e}"
    );
    // The mode that failed is named in a by-mode divide.
    let e = logical_divide(&l("(6,(12,16)):(1,(96,6))"), &t("<8:1,4:2>")).unwrap_err();
    assert_eq!(e.category(), "Divisibility");
    assert!(e.to_string().contains("(12,16):(96,6) ⊘ 4:2"), "{e}");
    // Non-injective tile in a product: the indices that meet are named.
    let e = logical_product(&l("(4,2):(2,4)"), &t("((4,2)):((1,2))")).unwrap_err();
    assert_eq!(e.category(), "NotInjective");
    assert!(
        e.to_string()
            .contains("indices 2 and 4 reach the same offset"),
        "{e}"
    );
    // (an injective tile whose strides interleave is no longer refused as "not injective")
    assert_eq!(
        logical_product(&l("(4,2):(3,2)"), &t("((4,2)):((1,2))"))
            .unwrap()
            .to_string(),
        "((4,2),((4,2))):((3,2),((12,24)))"
    );
}

#[test]
fn divide_and_product_are_const() {
    const A: Layout = match Layout::parse_const("(8,16):(20,1)") {
        Ok(l) => l,
        Err(_) => panic!(),
    };
    const T: Tiler = match Tiler::parse_const("<4:1,8:2>") {
        Ok(t) => t,
        Err(_) => panic!(),
    };
    const Z: Layout = match zipped_divide(&A, &T) {
        Ok(l) => l,
        Err(_) => panic!(),
    };
    const B: Layout = match blocked_product(&A, &A) {
        Ok(l) => l,
        Err(_) => panic!(),
    };
    assert_eq!(Z.to_string(), "((4,8),(2,2)):((20,2),(80,1))");
    assert_eq!(B, blocked_product(&A, &A).unwrap());
}

// ---------------------------------------------------------------------------------------------
// Property tests
// ---------------------------------------------------------------------------------------------

/// A random small layout: 1 to 3 leaves of shape 1..=4 (or 6, 8), strides either a compact
/// column-major order of a random permutation (with occasional gaps) or arbitrary in 0..=8, and a
/// random nesting.
fn arb_layout(max_leaves: usize) -> impl Strategy<Value = Lay> {
    (1..=max_leaves)
        .prop_flat_map(|n| {
            (
                proptest::collection::vec(prop_oneof![1..=4i64, Just(6), Just(8)], n),
                Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
                proptest::collection::vec(prop_oneof![Just(1i64), Just(1), Just(2)], n),
                proptest::collection::vec(0..=8i64, n),
                any::<bool>(),
                0..4u8,
            )
        })
        .prop_map(|(shape, order, gap, free, compact, nesting)| {
            let n = shape.len();
            let stride: Vec<i64> = if compact {
                let mut st = vec![0; n];
                let mut p = 1;
                for (k, &o) in order.iter().enumerate() {
                    p *= gap[k];
                    st[o] = p;
                    p *= shape[o];
                }
                st
            } else {
                free
            };
            Lay(build(&shape, &stride, nesting))
        })
}

/// A layout whose `Debug` is its CuTe notation, so that proptest reports are readable.
#[derive(Clone, Copy)]
struct Lay(Layout);
impl std::fmt::Debug for Lay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}
/// A tiler whose `Debug` is its notation.
#[derive(Clone, Copy)]
struct Til(Tiler);
impl std::fmt::Debug for Til {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// `shape:stride` with a nesting chosen by `nesting`: flat, integer (one leaf), or grouped.
fn build(shape: &[i64], stride: &[i64], nesting: u8) -> Layout {
    let flat = Layout::flat(shape, stride).unwrap();
    match (shape.len(), nesting) {
        (1, 0 | 1) => Layout::leaf(shape[0], stride[0]).unwrap(),
        (3, 1) => flat.group(0, 2).unwrap(),
        (3, 2) => flat.group(1, 3).unwrap(),
        (2, 2) => Layout::concat(&[flat]).unwrap(),
        _ => flat,
    }
}

/// A random tiler for a layout of rank `r`: a layout, or a by-mode tiler of at most `r` tiles
/// (layouts, integers, `_`).
fn arb_tiler() -> impl Strategy<Value = Til> {
    let tile = prop_oneof![
        arb_layout(2).prop_map(|l| l.0.to_string()),
        (1..=4i64).prop_map(|n| n.to_string()),
        Just("_".to_string()),
    ];
    prop_oneof![
        arb_layout(2).prop_map(|l| Til(Tiler::layout(l.0))),
        proptest::collection::vec(tile, 1..=3)
            .prop_map(|v| Til(format!("<{}>", v.join(",")).parse().unwrap())),
    ]
}

/// Every value of `r` on `0..|r|`.
fn values(r: &Layout) -> Vec<i64> {
    (0..r.size()).map(|i| r.eval(i).unwrap()).collect()
}

fn sorted(mut v: Vec<i64>) -> Vec<i64> {
    v.sort_unstable();
    v
}

fn is_injective(a: &Layout) -> bool {
    let v = values(a);
    let mut s = v.clone();
    s.sort_unstable();
    s.dedup();
    s.len() == v.len()
}

/// The modes of `t` as tilers, the tiler itself when it is a single tile.
fn tiler_modes(t: &Tiler) -> Vec<Tiler> {
    if t.is_single() {
        vec![*t]
    } else {
        (0..t.rank()).map(|k| t.mode(k).unwrap()).collect()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A ⊘ B = A ∘ (B, complement(B, shape(coalesce(A)))): evaluated pointwise against A and the
    /// completed tiler, and mode 0 is exactly A ∘ B.
    #[test]
    fn logical_divide_is_composition_with_completed_tiler(a in arb_layout(3), b in arb_layout(2)) {
        let (a, b) = (a.0, b.0);
        if let Ok(r) = logical_divide(&a, &Tiler::layout(b)) {
            let rest = complement_to(&b, &coalesce(&a).shape()).unwrap();
            let full = Layout::concat(&[b, rest]).unwrap();
            prop_assert_eq!(r.rank(), 2);
            prop_assert_eq!(r.size(), full.size());
            for i in 0..full.size() {
                prop_assert_eq!(r.eval(i).unwrap(), a.eval(full.eval(i).unwrap()).unwrap());
            }
            prop_assert_eq!(r.mode(0).unwrap(), composition(&a, &b).unwrap());
            prop_assert_eq!(r.mode(1).unwrap().size(), rest.size());
        }
    }

    /// By mode: mode k of A ⊘ <T_0, ...> is A_k ⊘ T_k, `_` keeps A_k, and extra modes are kept.
    #[test]
    fn logical_divide_by_mode(a in arb_layout(3), tiler in arb_tiler()) {
        let (a, tiler) = (a.0, tiler.0);
        let res = logical_divide(&a, &tiler);
        if tiler.is_single() || tiler.rank() > a.rank() {
            if !tiler.is_single() {
                prop_assert_eq!(res.unwrap_err().category(), "ProfileMismatch");
            }
            return Ok(());
        }
        let modes = tiler_modes(&tiler);
        let per: Vec<_> = (0..a.rank())
            .map(|k| {
                let m = a.mode(k).unwrap();
                match modes.get(k) {
                    Some(tk) => logical_divide(&m, tk),
                    None => Ok(m),
                }
            })
            .collect();
        match res {
            Ok(r) => {
                prop_assert_eq!(r.rank(), a.rank());
                for (k, p) in per.into_iter().enumerate() {
                    prop_assert_eq!(r.mode(k).unwrap(), p.unwrap());
                }
            }
            Err(e) => {
                prop_assert!(per.iter().any(|p| p.is_err()), "{}", e);
            }
        }
    }

    /// zipped/tiled/flat_divide are logical_divide regrouped: mode k of the divide is the pair
    /// (tile_k, rest_k) of the zipped form, tiled/flat have the zipped form's leaves in the same
    /// order (hence the same function on integers), mode 0 of zipped_divide is the by-mode composition
    /// with the tiler, and tiled/flat unpack the modes of the zipped form.
    #[test]
    fn divide_variants_regroup_logical_divide(a in arb_layout(3), tiler in arb_tiler()) {
        let (a, tiler) = (a.0, tiler.0);
        let ld = logical_divide(&a, &tiler);
        let z = zipped_divide(&a, &tiler);
        let td = tiled_divide(&a, &tiler);
        let fd = flat_divide(&a, &tiler);
        match (&ld, &z) {
            (Ok(ld), Ok(z)) => {
                prop_assert_eq!(z.rank(), 2);
                prop_assert_eq!(z.size(), ld.size());
                let td = td.unwrap();
                let fd = fd.unwrap();
                // zipping permutes the leaves (tiles first): the same values as a multiset; the
                // three regroupings of the zipped form are the same function.
                prop_assert_eq!(sorted(values(z)), sorted(values(ld)));
                prop_assert_eq!(values(&td), values(z));
                prop_assert_eq!(values(&fd), values(z));
                prop_assert_eq!(z.flatten(), td.flatten());
                prop_assert_eq!(z.flatten(), fd.flatten());
                let (m0, m1) = (z.mode(0).unwrap(), z.mode(1).unwrap());
                let r1 = if m1.rank() > 1 { m1.rank() } else { 1 };
                let r0 = if m0.rank() > 1 { m0.rank() } else { 1 };
                prop_assert_eq!(td.rank(), 1 + r1);
                prop_assert_eq!(fd.rank(), r0 + r1);
                prop_assert_eq!(td.mode(0).unwrap(), m0);
                if !tiler.tiles_whole() {
                    prop_assert_eq!(m0, composition_tiler(&a, &tiler).unwrap());
                }
                if tiler.is_single() {
                    prop_assert_eq!(z, ld);
                } else {
                    // mode k of the divide is (tile_k, rest_k) in the zipped form (for a single
                    // tile k; a nested tiler splits further)
                    for k in (0..tiler.rank()).filter(|&k| tiler.mode(k).unwrap().is_single()) {
                        let dk = ld.mode(k).unwrap();
                        let mk = m0.mode(k).unwrap();
                        prop_assert_eq!(dk.mode(0).unwrap(), mk);
                        prop_assert_eq!(dk.mode(1).unwrap(), m1.mode(k).unwrap());
                    }
                    for k in tiler.rank()..a.rank() {
                        prop_assert_eq!(
                            ld.mode(k).unwrap(),
                            m1.mode(k).unwrap()
                        );
                    }
                }
            }
            (Ok(_), Err(e)) => {
                // Only the unzipping can fail after a successful divide: a `_` over a mode that is
                // not a (tile, rest) pair.
                prop_assert!(
                    e.category() == "OutOfRange" || e.category() == "ProfileMismatch",
                    "{}", e
                );
                prop_assert!(td.is_err() && fd.is_err());
            }
            (Err(_), _) => prop_assert!(z.is_err() && td.is_err() && fd.is_err()),
        }
    }

    /// A ⊗ B = (A, A* ∘ B): mode 0 is A, mode 1 evaluates as the paper's complement composed with
    /// B on its extended domain (C++'s `complement(A, size(A)·cosize(B))` is the same function on
    /// its size, and drops a trailing size-1 mode that B may reach past), and for injective A and B
    /// the copies of A are disjoint.
    #[test]
    fn logical_product_definition(a in arb_layout(3), b in arb_layout(2)) {
        let (a, b) = (a.0, b.0);
        if let Ok(r) = logical_product(&a, &Tiler::layout(b)) {
            prop_assert_eq!(r.rank(), 2);
            prop_assert_eq!(r.mode(0).unwrap(), a);
            let c = complement(&a).unwrap();
            let g = r.mode(1).unwrap();
            prop_assert_eq!(g.size(), b.size());
            for j in 0..b.size() {
                prop_assert_eq!(g.eval(j).unwrap(), c.eval(b.eval(j).unwrap()).unwrap());
            }
            prop_assert_eq!(r.size(), a.size() * b.size());
            if is_injective(&a) && is_injective(&b) {
                prop_assert!(is_injective(&r), "{} is not injective", r);
            }
        }
    }

    /// A refused product or divide names the step that failed, and that step, taken alone, fails
    /// with the same condition: the complement `A* = complement(A)` (the paper's, which the
    /// product composes on its extended domain) or the composition `A* ∘ B` of a product, the
    /// complement `B*` or the composition `A ∘ (B, B*)` of a divide.
    #[test]
    fn refusals_name_the_step_that_failed(a in arb_layout(3), b in arb_layout(2)) {
        let (a, b) = (a.0, b.0);
        if let Err(e) = logical_product(&a, &Tiler::layout(b)) {
            let msg = e.to_string();
            let star = complement(&a);
            if msg.contains(": in A* = complement(A): ") {
                prop_assert_eq!(*star.unwrap_err().kind(), *e.kind(), "{}", msg);
            } else {
                prop_assert!(
                    msg.contains(": in the second mode A* ∘ B, A* = complement(A): "),
                    "{}", msg
                );
                let again = composition(&star.unwrap(), &b).unwrap_err();
                prop_assert_eq!(again.kind(), e.kind(), "{}", msg);
            }
        }
        if let Err(e) = logical_divide(&a, &Tiler::layout(b)) {
            let msg = e.to_string();
            let rest = complement_to(&b, &coalesce(&a).shape());
            if msg.contains(": in B*, the complement of B onto Z_") {
                prop_assert_eq!(*rest.unwrap_err().kind(), *e.kind(), "{}", msg);
            } else if msg.contains(": in A ∘ B★, B★ = (B, B*): ") {
                let full = Layout::concat(&[b, rest.unwrap()]).unwrap();
                let again = composition(&a, &full).unwrap_err();
                prop_assert_eq!(again.kind(), e.kind(), "{}", msg);
            } else {
                // the only other refusal: (B, B*) is not onto Z_|A|
                prop_assert!(msg.contains("is not onto Z_"), "{}", msg);
            }
        }
    }

    /// By mode, and the zipped/tiled/flat variants regroup the same leaves.
    #[test]
    fn logical_product_by_mode_and_variants(a in arb_layout(3), tiler in arb_tiler()) {
        let (a, tiler) = (a.0, tiler.0);
        let lp = logical_product(&a, &tiler);
        if !tiler.is_single() && tiler.rank() <= a.rank() {
            let modes = tiler_modes(&tiler);
            match &lp {
                Ok(r) => {
                    for k in 0..a.rank() {
                        let m = a.mode(k).unwrap();
                        let want = match modes.get(k) {
                            Some(tk) => logical_product(&m, tk).unwrap(),
                            None => m,
                        };
                        prop_assert_eq!(r.mode(k).unwrap(), want);
                    }
                }
                Err(_) => prop_assert!((0..modes.len())
                    .any(|k| logical_product(&a.mode(k).unwrap(), &modes[k]).is_err())),
            }
        }
        let z = zipped_product(&a, &tiler);
        if let (Ok(lp), Ok(z)) = (&lp, &z) {
            prop_assert_eq!(z.rank(), 2);
            prop_assert_eq!(sorted(values(z)), sorted(values(lp)));
            prop_assert_eq!(z.flatten(), tiled_product(&a, &tiler).unwrap().flatten());
            prop_assert_eq!(z.flatten(), flat_product(&a, &tiler).unwrap().flatten());
        } else if lp.is_err() {
            prop_assert!(z.is_err());
        }
    }

    /// blocked/raked products: A and B are padded to the larger rank, and the modes of the tile A
    /// and of the grid complement(A)∘B are zipped (blocked: (A_k, grid_k); raked: (grid_k, A_k)),
    /// so that R((a_k, b_k)_k) = A(a) + grid(b). The zip needs equal ranks (or an integer first
    /// operand, which gives the 1-tuple of the pair).
    #[test]
    fn blocked_and_raked_products(a in arb_layout(3), b in arb_layout(3)) {
        let (a, b) = (a.0, b.0);
        let r = a.rank().max(b.rank());
        let pa = a.pad_to_rank(r).unwrap();
        let pb = b.pad_to_rank(r).unwrap();
        let lp = logical_product(&pa, &Tiler::layout(pb));
        let bl = blocked_product(&a, &b);
        let rk = raked_product(&a, &b);
        let Ok(lp) = lp else {
            prop_assert!(bl.is_err() && rk.is_err());
            return Ok(());
        };
        let g = lp.mode(1).unwrap();
        let zips = |l0: &Layout, l1: &Layout| l0.is_leaf() || (!l1.is_leaf() && l1.rank() == l0.rank());
        prop_assert_eq!(bl.is_ok(), zips(&pa, &g));
        prop_assert_eq!(rk.is_ok(), zips(&g, &pa));
        if let Ok(bl) = bl {
            prop_assert_eq!(bl.rank(), r);
            check_zip(&bl, &pa, &g)?;
        }
        if let Ok(rk) = rk {
            prop_assert_eq!(rk.rank(), r);
            check_zip(&rk, &g, &pa)?;
        }
    }

    /// tile_to_shape: the result has the mode sizes of the target, each mode starts with the
    /// (padded) block, and it is the blocked product with the column-major grid of tiles. It is
    /// refused exactly when a block mode size does not divide the target's.
    #[test]
    fn tile_to_shape_definition(
        a in arb_layout(2),
        target in proptest::collection::vec(prop_oneof![Just(2i64), Just(4), Just(6), Just(8), Just(12)], 1..=3),
    ) {
        let a = a.0;
        let s = IntTuple::flat(&target).unwrap();
        let res = tile_to_shape(&a, &s);
        if a.rank() > s.rank() {
            prop_assert_eq!(res.unwrap_err().category(), "ProfileMismatch");
            return Ok(());
        }
        let pa = a.pad_to_rank(s.rank()).unwrap();
        let block: Vec<i64> = (0..s.rank()).map(|k| pa.mode(k).unwrap().size()).collect();
        let divides = block.iter().zip(&target).all(|(b, t)| t % b == 0);
        match res {
            Ok(r) => {
                prop_assert!(divides);
                prop_assert_eq!(r.rank(), s.rank());
                for (k, &tk) in target.iter().enumerate() {
                    let m = r.mode(k).unwrap();
                    prop_assert_eq!(m.size(), tk);
                    prop_assert_eq!(m.mode(0).unwrap(), pa.mode(k).unwrap());
                }
                let q: Vec<i64> = block.iter().zip(&target).map(|(b, t)| t / b).collect();
                let grid = compact_col_major(&IntTuple::flat(&q).unwrap()).unwrap();
                prop_assert_eq!(r, blocked_product(&pa, &grid).unwrap());
            }
            Err(e) => {
                if divides {
                    // then only the blocked product itself can fail
                    let q: Vec<i64> = block.iter().zip(&target).map(|(b, t)| t / b).collect();
                    let grid = compact_col_major(&IntTuple::flat(&q).unwrap()).unwrap();
                    prop_assert!(blocked_product(&pa, &grid).is_err(), "{}", e);
                } else {
                    prop_assert_eq!(e.category(), "Divisibility");
                }
            }
        }
    }
}

/// `r` is CuTe's `zip(l0, l1)`: mode k is `(l0_k, l1_k)` (the single pair `((l0, l1))` for an
/// integer `l0`), and `r((i_k, j_k)_k) = l0(i) + l1(j)` where `i_k`, `j_k` are the colexicographic
/// mode coordinates of the indices `i`, `j`.
fn check_zip(r: &Layout, l0: &Layout, l1: &Layout) -> Result<(), TestCaseError> {
    let pairs: Vec<(Layout, Layout)> = if l0.is_leaf() {
        vec![(*l0, *l1)]
    } else {
        (0..l0.rank())
            .map(|k| (l0.mode(k).unwrap(), l1.mode(k).unwrap()))
            .collect()
    };
    prop_assert_eq!(r.rank(), pairs.len());
    for (k, (x, y)) in pairs.iter().enumerate() {
        prop_assert_eq!(r.mode(k).unwrap().mode(0).unwrap(), *x);
        prop_assert_eq!(r.mode(k).unwrap().mode(1).unwrap(), *y);
    }
    let split = |mut i: i64, first: bool| -> Vec<i64> {
        pairs
            .iter()
            .map(|(x, y)| {
                let n = if first { x } else { y }.size();
                let c = i % n;
                i /= n;
                c
            })
            .collect()
    };
    // every pair of indices on small layouts, a diagonal sample on large ones
    let (n0, n1) = (l0.size(), l1.size());
    let step = if n0 * n1 > 2048 { 7 } else { 1 };
    for i in (0..n0).step_by(step) {
        for j in (0..n1).step_by(step) {
            let (ci, cj) = (split(i, true), split(j, false));
            let crd: Vec<IntTuple> = ci
                .iter()
                .zip(&cj)
                .map(|(&x, &y)| IntTuple::tuple(&[x.into(), y.into()]).unwrap())
                .collect();
            let crd = IntTuple::tuple(&crd).unwrap();
            prop_assert_eq!(
                r.eval_crd(&crd).unwrap(),
                l0.eval(i).unwrap() + l1.eval(j).unwrap()
            );
        }
    }
    Ok(())
}

/// Helpers on tilers used by the properties.
trait TilerExt {
    /// True when some tile (at any depth) is `_`.
    fn tiles_whole(&self) -> bool;
}
impl TilerExt for Tiler {
    fn tiles_whole(&self) -> bool {
        (0..self.tile_count()).any(|i| matches!(self.tile(i), cute::Tile::Whole))
    }
}

/// A product whose complement is not a divisible chain: `A* = complement((6,2):(7,2))` takes the
/// values `0, 1` and then `42` (its trailing mode), so `A* ∘ 3:1` would be `0, 1, 42`, which is no
/// layout. CuTe C++ drops the trailing size-1 mode of `complement(A, 36) = (2,1):(1,42)` and
/// returns `((6,2),3):((7,2),1)`, which is not injective (`A(0,1) + 0 = A(0,0) + 2`); here the
/// product is refused (found by the property test above).
#[test]
fn a_product_that_would_overlap_is_refused() {
    let a: Layout = "(6,2):(7,2)".parse().unwrap();
    let b: Layout = "3:1".parse().unwrap();
    let e = logical_product(&a, &Tiler::layout(b)).unwrap_err();
    assert_eq!(e.category(), "Divisibility");
    assert!(
        e.to_string().contains("shape-divisibility condition (10)"),
        "{e}"
    );
    // within the complement's size the product is still the usual one
    let b2: Layout = "2:1".parse().unwrap();
    let r = logical_product(&a, &Tiler::layout(b2)).unwrap();
    assert_eq!(r.to_string(), "((6,2),2):((7,2),1)");
}

/// An integer tile `n` is CuTe's `make_layout(n)`, whose mode of size 1 has the stride 0: the
/// results print as CuTe C++ and the CuTe DSL print them (`scripts/dsl_oracle.py` records the
/// DSL's), while PyCuTe's `tiler_to_layout` keeps `1:1` (its stride becomes `e_p`).
#[test]
fn an_integer_tile_is_make_layout() {
    let cases = [
        (logical_divide(&l("8:2"), &t("1")), "(1,8):(0,2)"),
        (logical_divide(&l("8:2"), &t("<1>")), "((1,8)):((0,2))"),
        (
            logical_divide(&l("(8,4):(2,16)"), &t("<1,2>")),
            "((1,8),(2,2)):((0,2),(16,32))",
        ),
        (
            zipped_divide(&l("(8,4):(2,16)"), &t("<1,2>")),
            "((1,2),(8,2)):((0,16),(2,32))",
        ),
        (
            composition_tiler(&l("(8,4):(2,16)"), &t("<1,2>")),
            "(1,2):(0,16)",
        ),
        (logical_product(&l("8:2"), &t("1")), "(8,1):(2,0)"),
    ];
    for (r, want) in cases {
        assert_eq!(r.unwrap().to_string(), want);
    }
    // a layout tile keeps its stride: 8:2 ∘ 1:1 = 1:2, as in CuTe
    assert_eq!(
        composition(&l("8:2"), &l("1:1")).unwrap().to_string(),
        "1:2"
    );
    assert_eq!(
        t("(8,1)").tiler_to_layout().unwrap().to_string(),
        "(8,1):(1@0,1@1)"
    );
    assert_eq!(t("1").tiler_to_layout().unwrap().to_string(), "1:1");
}
