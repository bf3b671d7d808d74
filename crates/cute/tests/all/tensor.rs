//! Tensors (`A ∘ L`) and the generic COPY: construction checks the storage once, element access
//! follows the layout at every coordinate kind, and `copy` is `dst(i) = src(i)` for the rows of the
//! paper's Table 2 and for random layouts (against a loop written with the layouts' `eval`).

use super::gen::*;
use cute::{copy, IntTuple, Layout, Tensor};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

#[test]
fn storage_is_checked_once_when_the_tensor_is_made() {
    let data: Vec<i32> = (0..32).collect();
    assert!(Tensor::new(&data[..], l("(4,8):(8,1)")).is_ok());
    let e = Tensor::new(&data[..], l("(4,8):(8,2)")).unwrap_err();
    assert_eq!(e.category(), "OutOfRange");
    assert!(e.to_string().contains("outside a storage of 32"), "{e}");
    // negative strides reach below the base
    assert!(Tensor::new(&data[..], l("4:-1")).is_err());
    let t = Tensor::with_base(&data[..], 3, l("4:-1")).unwrap();
    assert_eq!(t.iter().copied().collect::<Vec<_>>(), vec![3, 2, 1, 0]);
    // coordinate strides are not offsets
    assert_eq!(
        Tensor::new(&data[..], l("(4,8):(1@0,1@1)"))
            .unwrap_err()
            .category(),
        "Unsupported"
    );
}

#[test]
fn element_access_at_every_coordinate_kind() {
    let data: Vec<i64> = (0..64).collect();
    let lay = l("((2,2),(4,2)):((1,8),(2,16))");
    let t = Tensor::new(&data[..], lay).unwrap();
    assert_eq!(t.get(22), Some(&26));
    for c in ["(2,5)", "((0,1),(1,1))", "22"] {
        assert_eq!(t.get_crd(&c.parse::<IntTuple>().unwrap()), Some(&26), "{c}");
    }
    // outside the domain: nothing
    assert_eq!(t.get(32), None);
    assert_eq!(t.get(-1), None);
    for c in ["(4,0)", "(0,8)", "((2,0),0)", "32", "(1,2,3)"] {
        assert_eq!(t.get_crd(&c.parse::<IntTuple>().unwrap()), None, "{c}");
    }
    // writes through a mutable view land where the layout says
    let mut buf = vec![0i64; 64];
    let mut m = Tensor::new(&mut buf[..], lay).unwrap();
    *m.get_mut(22).unwrap() = 7;
    assert_eq!(buf[26], 7);
}

/// The paper's Table 2 rows (COPY with different layouts), each against the reference loop.
#[test]
fn copy_table_2_rows() {
    for (src, dst) in [
        ("8:1", "8:1"),                   // 1-D array
        ("(4,8):(1,4)", "(4,8):(8,1)"),   // transpose
        ("8:3", "8:1"),                   // gather
        ("8:1", "8:3"),                   // scatter
        ("7:0", "7:1"),                   // broadcast
        ("(8,4):(4,1)", "(4,8):(1,4)"),   // reshape
        ("(4,8):(-8,1)", "(4,8):(1,4)"),  // negative strides (base below)
        ("((2,4),8):((1,16),2)", "64:1"), // hierarchical
    ] {
        let (ls, ld) = (l(src), l(dst));
        let base_s = if src.contains('-') { 24 } else { 0 };
        let a: Vec<i64> = (0..64).map(|k| 1000 + k).collect();
        let mut b = vec![-1i64; 64];
        let s = Tensor::with_base(&a[..], base_s, ls).unwrap();
        let mut d = Tensor::new(&mut b[..], ld).unwrap();
        copy(&s, &mut d).unwrap();
        let mut want = vec![-1i64; 64];
        for i in 0..ls.size().unwrap() {
            let from = (base_s as i64 + ls.eval(i).unwrap()) as usize;
            want[ld.eval(i).unwrap() as usize] = a[from];
        }
        assert_eq!(b, want, "{src} -> {dst}");
    }
    // the precondition: equal domain sizes
    let a = [0; 8];
    let mut b = [0; 8];
    let e = copy(
        &Tensor::new(&a[..], l("8:1")).unwrap(),
        &mut Tensor::new(&mut b[..], l("4:1")).unwrap(),
    )
    .unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
}

/// `copy` on random layouts of equal size (the destination made injective by a compact layout of
/// a shuffled shape): equals the reference loop, element for element.
#[test]
fn copy_random_layouts() {
    let ran = std::cell::Cell::new(0u32);
    run(256, (layout(), any_seed()), |(src, seed)| {
        let n = src.size().unwrap();
        if n > 4096 || src.cosize().unwrap() > 1 << 16 || src.image().unwrap()[0] < 0 {
            return Ok(());
        }
        let mut rng = Rng(seed);
        let mut modes: Vec<i64> = (0..src.leaf_count()).map(|k| src.leaf_at(k).0).collect();
        rng.shuffle(&mut modes);
        let dst = cute::compact_row_major(&IntTuple::flat(&modes).unwrap()).unwrap();
        let a: Vec<u32> = (0..src.cosize().unwrap() as u32)
            .map(|k| k * 7 + 1)
            .collect();
        let mut b = vec![0u32; n as usize];
        copy(
            &Tensor::new(&a[..], src).unwrap(),
            &mut Tensor::new(&mut b[..], dst).unwrap(),
        )
        .unwrap();
        for i in 0..n {
            let want = a[src.eval(i).unwrap() as usize];
            proptest::prop_assert_eq!(b[dst.eval(i).unwrap() as usize], want, "{} -> {}", src, dst);
        }
        ran.set(ran.get() + 1);
        Ok(())
    });
    assert!(ran.get() > 200, "only {} layouts copied", ran.get());
}

fn any_seed() -> impl proptest::strategy::Strategy<Value = u64> {
    proptest::prelude::any::<u64>()
}
