//! Regression tests for the bugs the fuzz targets (`fuzz/`) found: each was a panic (exit 101 from
//! the CLI) or a silently wrong value on some input; each must now give the right value or a
//! one-line error.

use cute::{
    complement, complement_to, composition, crd2crd, crd2idx_compact, idx2crd, ErrorKind, IntTuple,
    Layout,
};
use proptest::prelude::*;

fn t(s: &str) -> IntTuple {
    s.parse().unwrap()
}
fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

/// fuzz/ops: `idx2crd 9 (2,0,4,6)` divided by the shape entry 0 (panic). A shape entry below 1 is
/// now refused.
#[test]
fn idx2crd_refuses_non_positive_shape_entries() {
    for shape in ["(2,0,4,6)", "0", "(3,-2)", "((2,2),(0,1))"] {
        let e = idx2crd(&t("9"), &t(shape)).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::InvalidShape { .. }),
            "{shape}: {e}"
        );
        assert!(!e.to_string().contains('\n'));
    }
    let e = idx2crd(&t("-9223372036854775808"), &t("(-1,2)")).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::InvalidShape { value: -1 }),
        "{e}"
    );
    // crd2crd goes through idx2crd
    assert!(crd2crd(&t("5"), &t("(2,4)"), &t("(0,8)")).is_err());
}

/// fuzz/algebra: `crd2idx((0,-27), (6,1))` gave 0 instead of -162 (and `crd2idx((1,2), (6,1))`
/// gave 1 instead of 13): the two-argument crd2idx used compact_col_major, whose size-1 modes have
/// stride 0, so it did not invert idx2crd in the extended domain. CuTe C++ gives -162 and 13.
#[test]
fn crd2idx_of_shape_inverts_idx2crd_past_a_size_one_mode() {
    assert_eq!(crd2idx_compact(&t("(1,2)"), &t("(6,1)")).unwrap(), 13);
    assert_eq!(crd2idx_compact(&t("(0,-27)"), &t("(6,1)")).unwrap(), -162);
    assert_eq!(idx2crd(&t("-162"), &t("((6,1))")).unwrap(), t("((0,-27))"));
    assert_eq!(
        crd2idx_compact(&t("((0,-27))"), &t("((6,1))")).unwrap(),
        -162
    );
    assert_eq!(
        crd2idx_compact(&t("(1,(0,2))"), &t("(3,(1,1))")).unwrap(),
        7
    );
}

proptest! {
    /// `crd2idx(idx2crd(i, S), S) == i` for every integer `i`, in and out of the domain.
    #[test]
    fn idx2crd_crd2idx_round_trip(shape in prop::collection::vec(1i64..5, 1..5), i in -2000i64..2000) {
        let s = IntTuple::flat(&shape).unwrap();
        let c = idx2crd(&IntTuple::int(i), &s).unwrap();
        prop_assert_eq!(crd2idx_compact(&c, &s).unwrap(), i, "{} {}", s, c);
    }
}

/// 32 leaves whose sorted strides leave gaps of 1: the complement pushed 33 modes into a
/// 32-entry array (index out of bounds panic). Gaps of 1 are size-1 modes and are no longer stored.
#[test]
fn complement_of_a_layout_with_capacity_leaves() {
    let shape = vec![2i64; 32];
    let stride: Vec<i64> = (0..32).map(|k| 3i64.pow(k)).collect();
    let a = Layout::flat(&shape, &stride).unwrap();
    // each stride 3^k is past the extent 2·3^(k-1) covered before it: no gap, trailing 1:2·3^31
    assert_eq!(complement(&a).unwrap(), l("1:1235346792567894"));
    // a cotarget past the trailing stride: the rest repeats the block (C++ would stop short)
    let c = complement_to(&a, &IntTuple::int(100_000_000_000_000_000)).unwrap();
    assert_eq!(c, l("82:1235346792567894"));
    let reach = a.cosize().unwrap() - 1 + 81 * 1235346792567894;
    assert!(reach + 1 >= 100_000_000_000_000_000);
}

/// `complement 4:1 9223372036854775807` overflowed in `(c + r - 1) / r` (panic). The quotient is
/// now rounded up without overflow, and the reach check saturates. (CuTe C++ wraps around and
/// prints a negative shape here.)
#[test]
fn complement_to_near_i64_max() {
    let r = complement_to(&l("4:1"), &IntTuple::int(i64::MAX)).unwrap();
    assert_eq!(r, l("2305843009213693952:4"));
    // (4:1, r) reaches every offset below the cotarget: 4·2305843009213693952 > i64::MAX
    assert_eq!(r.eval(2305843009213693951).unwrap(), i64::MAX - 3);
}

/// A cotarget with a negative leaf (`(2,-3)`, size 6 by sign cancellation) was accepted.
#[test]
fn complement_to_refuses_non_positive_cotarget_leaves() {
    for cot in ["(2,-3)", "0", "(-1,-1)"] {
        let e = complement_to(&l("4:1"), &t(cot)).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::InvalidShape { .. }),
            "{cot}: {e}"
        );
    }
}

/// `(3,5):(1,7) ∘ 1:9223372036854775806`: `ceil_div(rest_stride, 3)` computed
/// `rest_stride + 3 - 1` and overflowed (panic). It is computed in i128 now; the result stride
/// does not fit in i64 and the composition is refused.
#[test]
fn composition_with_a_stride_near_i64_max() {
    let e = composition(&l("(3,5):(1,7)"), &l("1:9223372036854775806")).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Overflow { .. }), "{e}");
    // a stride that fits still composes
    let r = composition(&l("(3,5):(1,7)"), &l("1:30")).unwrap();
    assert_eq!((r.size(), r.eval(0).unwrap()), (1, 0));
}

/// `cosize(2:i64::MIN)` took `unsigned_abs() as i64`, which is i64::MIN again, and returned the
/// negative cosize `i64::MIN + 1`. It is an overflow now, and so is the image.
#[test]
fn cosize_with_stride_i64_min() {
    let a = l("2:-9223372036854775808");
    let e = a.cosize().unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Overflow { .. }), "{e}");
    assert!(a.image().is_err());
    assert!(l("2:-9223372036854775807").cosize().is_err()); // 1 + (2-1)·|d| = 2^63
    let b = l("2:-9223372036854775806");
    assert_eq!(b.cosize().unwrap(), i64::MAX);
    assert_eq!(b.image().unwrap(), vec![-(i64::MAX - 1), 0]);
}

/// Fuzz (`ops`, `get` with a negative index read as `usize::MAX`): looking up mode `usize::MAX`
/// overflowed `k + 1` in the mode search; it is an out-of-range error.
#[test]
fn mode_index_usize_max_is_out_of_range() {
    let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
    assert_eq!(l.mode(usize::MAX).unwrap_err().category(), "OutOfRange");
    assert_eq!(
        l.get(&[1, usize::MAX]).unwrap_err().category(),
        "OutOfRange"
    );
    let t: cute::IntTuple = "(2,(3,4))".parse().unwrap();
    assert_eq!(t.get(usize::MAX).unwrap_err().category(), "OutOfRange");
}

/// Fuzz (`algebra`, upcast by 1 of a stride `i64::MIN`): the magnitude 2^63 was negated as an
/// `i64` and overflowed; upcast by 1 is the identity.
#[test]
fn upcast_by_one_of_the_most_negative_stride() {
    let l = Layout::leaf(4, i64::MIN).unwrap();
    assert_eq!(cute::upcast(&l, 1).unwrap(), l);
    let l2 = Layout::leaf(4, i64::MIN).unwrap();
    assert_eq!(
        cute::upcast(&l2, 2).unwrap().to_string(),
        format!("4:{}", i64::MIN / 2)
    );
}

/// Fuzz (`algebra`, layout_add): the common refinement of two shapes can have more modes than
/// either (`(6,6,…)` against `(2,6,…,6,3)` refines to `(2,3,2,3,…)`); past the capacity it is a
/// `Capacity` error, not an index out of bounds.
#[test]
fn common_domain_past_the_capacity() {
    let alternate =
        |n: usize| -> Vec<i64> { (0..n).map(|i| if i % 2 == 0 { 1 } else { 100 }).collect() };
    let s: Vec<i64> = vec![6; 20];
    let mut t: Vec<i64> = vec![2];
    t.extend(vec![6; 19]);
    t.push(3);
    let a = Layout::flat(&s, &alternate(20)).unwrap();
    let b = Layout::flat(&t, &alternate(21)).unwrap();
    assert_eq!(a.size(), b.size());
    assert_eq!(cute::layout_add(&a, &b).unwrap_err().category(), "Capacity");
    let (ts, tt) = (a.shape(), b.shape());
    assert_eq!(
        cute::greatest_common_domain(&ts, &tt)
            .unwrap_err()
            .category(),
        "Capacity"
    );
    // well inside the capacity the same shapes work
    let a = Layout::flat(&[6, 6, 6], &[1, 100, 1]).unwrap();
    let b = Layout::flat(&[2, 6, 6, 3], &[1, 100, 1, 100]).unwrap();
    assert_eq!(cute::layout_add(&a, &b).unwrap().size(), 216);
}

#[test]
fn tile_to_shape_names_a_non_positive_target_entry_as_written() {
    // the quotient -4 / 2 = -2 was reported ("found -2"), a value the user never wrote
    let e = cute::tile_to_shape(&l("(2,2):(1,2)"), &t("(-4,4)")).unwrap_err();
    assert_eq!(e.category(), "InvalidShape");
    assert!(e.to_string().ends_with("found -4"), "{e}");
    let e = cute::tile_to_shape(&l("(2,2):(1,2)"), &t("(4,(2,0))")).unwrap_err();
    assert!(e.to_string().ends_with("found 0"), "{e}");
}

#[test]
fn zipped_divide_by_an_underscore_over_an_integer_mode_says_why() {
    // a `_` keeps the mode 8:1 whole: no tile and rest to unzip ("mode index 1 is out of range
    // for rank 1" before); the conformance category stays CuTe's OutOfRange
    // (the message names the mode kept whole and where it is)
    for (a, tiler, mode, size) in [("8:1", "<_>", "8:1", 8), ("(4,8):(8,1)", "<_,8>", "4:8", 4)] {
        let tiler: cute::Tiler = tiler.parse().unwrap();
        let e = cute::zipped_divide(&l(a), &tiler).unwrap_err();
        assert_eq!(e.category(), "OutOfRange", "{e}");
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("zipped_divide at mode 0: {mode}:"))
                && text.contains(&format!("keeps a mode of size {size} whole")),
            "{text}"
        );
        // the tiled form refuses the same way
        let e = cute::tiled_divide(&l(a), &tiler).unwrap_err();
        assert!(e.to_string().contains("no tile and rest to unzip"), "{e}");
    }
}
