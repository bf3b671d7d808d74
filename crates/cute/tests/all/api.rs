//! The Rust API's conveniences: the tiling methods take what the free functions take (and more),
//! `composition` and `composition_tiler` side by side, tensors over `&Vec`, and a short `{:?}`
//! of a tensor.

use cute::{
    composition, composition_tiler, flat_divide, flat_product, logical_divide, logical_product,
    tiled_divide, tiled_product, zipped_divide, zipped_product, Layout, Tensor, Tiler,
};

/// A tiling operation with the free functions' signature.
type TilingFn = fn(&Layout, &Tiler) -> Result<Layout, cute::Error>;

#[test]
// the borrows are what is tested: the methods take `&Layout` and `&Tiler` as well
#[allow(clippy::needless_borrows_for_generic_args)]
fn methods_take_a_layout_or_a_tiler_by_value_or_reference() {
    let a: Layout = "(8,16):(20,1)".parse().unwrap();
    let b: Layout = "(2,4):(1,2)".parse().unwrap();
    let t: Tiler = "<4:1,8:2>".parse().unwrap();
    let pairs: [(TilingFn, TilingFn); 8] = [
        (logical_divide, |a, t| a.logical_divide(t)),
        (zipped_divide, |a, t| a.zipped_divide(t)),
        (tiled_divide, |a, t| a.tiled_divide(t)),
        (flat_divide, |a, t| a.flat_divide(t)),
        (logical_product, |a, t| a.logical_product(t)),
        (zipped_product, |a, t| a.zipped_product(t)),
        (tiled_product, |a, t| a.tiled_product(t)),
        (flat_product, |a, t| a.flat_product(t)),
    ];
    for (free, method) in pairs {
        for tiler in [t, Tiler::layout(b)] {
            assert_eq!(free(&a, &tiler), method(&a, &tiler), "{tiler:?}");
        }
    }
    // every form of argument gives the free function's answer
    let want = logical_divide(&a, &Tiler::layout(b)).unwrap();
    assert_eq!(a.logical_divide(b).unwrap(), want);
    assert_eq!(a.logical_divide(&b).unwrap(), want);
    assert_eq!(a.logical_divide(Tiler::layout(b)).unwrap(), want);
    assert_eq!(a.logical_divide(&Tiler::layout(b)).unwrap(), want);
    assert_eq!(
        a.logical_divide(&t).unwrap(),
        logical_divide(&a, &t).unwrap()
    );
}

#[test]
#[allow(clippy::needless_borrows_for_generic_args)] // `&Tiler` accepted, as the free function takes it
fn composition_of_a_layout_and_of_a_tiler() {
    let a: Layout = "(8,16):(20,1)".parse().unwrap();
    let b: Layout = "(4,2):(1,8)".parse().unwrap();
    let t: Tiler = "<4:1,8:2>".parse().unwrap();
    assert_eq!(composition(&a, &b).unwrap().to_string(), "(4,2):(20,1)");
    assert_eq!(
        composition_tiler(&a, &t).unwrap().to_string(),
        "(4,8):(20,2)"
    );
    // a layout as a tiler composes as the layout
    assert_eq!(
        composition_tiler(&a, &Tiler::layout(b)).unwrap(),
        composition(&a, &b).unwrap()
    );
    assert_eq!(a.compose(b).unwrap(), composition(&a, &b).unwrap());
    assert_eq!(a.compose(&t).unwrap(), composition_tiler(&a, &t).unwrap());
}

#[test]
fn tensors_over_a_vec_by_reference() {
    let l: Layout = "(4,8):(8,1)".parse().unwrap();
    let v: Vec<i32> = (0..32).collect();
    let by_ref = Tensor::new(&v, l).unwrap();
    let by_slice = Tensor::new(&v[..], l).unwrap();
    for i in 0..32 {
        assert_eq!(by_ref.get(i), by_slice.get(i));
    }
    let mut w = vec![0i32; 32];
    {
        let mut t = Tensor::new(&mut w, l).unwrap();
        *t.get_mut(1).unwrap() = 7; // coordinate (1,0): storage index 8
    }
    assert_eq!(w[8], 7);
    let arr = [1.5f32; 32];
    assert_eq!(Tensor::new(&arr, l).unwrap().get(31), Some(&1.5));
    // still checked against the storage
    let short: Vec<i32> = vec![0; 31];
    assert!(Tensor::new(&short, l).is_err());
}

#[test]
fn debug_of_a_tensor_is_short() {
    let v: Vec<u8> = vec![0; 1 << 20];
    let t = Tensor::new(&v, "(4,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
    let d = format!("{t:?}");
    assert_eq!(
        d,
        "Tensor { layout: (4,8):(8,1), dtype: u8, storage_len: 1048576, base: 0, values: [0, 0, 0, 0, 0, 0, 0, 0, ..] }"
    );
    let small = Tensor::new(vec![3i64, 4], "2:1".parse::<Layout>().unwrap()).unwrap();
    assert_eq!(
        format!("{small:?}"),
        "Tensor { layout: 2:1, dtype: i64, storage_len: 2, base: 0, values: [3, 4] }"
    );
}
