//! Static layouts and tensors: evaluation of a compile-time layout equals `Layout::eval` and
//! `eval_crd` at every coordinate, natural iteration visits the offsets in order, `static_copy`
//! equals `copy_generic`, construction checks the storage, slicing agrees with the dynamic slice,
//! and the macro's layouts print as written.

use cute::static_layout::{Init, Last, Mode, Sliced};
use cute::{
    copy_generic, idx2crd, static_copy, static_layout, IntTuple, Layout, PartialCoord,
    StaticLayout, StaticTensor, Tensor,
};

static_layout! {
    Eval = "((4,8),(8,16)):((8,512),(1,32))";
    Fig3 = "((2,2),(4,2)):((1,8),(2,16))";
    Negative = "(4,(3,2)):(-1,(5,-20))";
    SizeOne = "((2,1),(1,3)):((1,7),(0,2))";
    AllOne = "(1,(1,1)):(0,(5,0))";
    OneLeaf = "7:3";
    Eight = "(2,3,2,3,2,3,2,3):(1,648,2,216,6,72,18,24)";
    Nine = "(2,2,2,2,2,2,2,2,2):(1,4,2,16,8,64,32,256,128)";
    NonPow2 = "(3,(5,7)):(35,(1,5))";
    Broadcast = "(4,3):(0,1)";
    Compact = "((4,8),(8,16)):((1,4),(32,256))";
    RowMajor = "(3,2):(2,1)";
    ColMajor = "(2,3):(1,2)";
    Transposed = "(2,3):(3,1)";
    Gather = "6:5";
    Flat6 = "6:1";
    Scatter = "(3,2):(1,0)";
}

/// Every check of one static layout whose natural coordinates have `N` leaves.
fn check<L: StaticLayout, const N: usize>(text: &str) {
    let l: Layout = text.parse().unwrap();
    assert_eq!(L::LAYOUT, l, "{text}");
    assert_eq!(L::LAYOUT.to_string(), text, "prints as written");
    let size = l.size() as usize;
    assert_eq!((L::SIZE, L::LEAVES), (size, N), "{text}");
    // 1-D index, domain and extended domain
    for i in 0..2 * size {
        assert_eq!(L::eval(i), l.eval(i as i64).unwrap(), "{text} at {i}");
    }
    // natural coordinates
    let shape = l.shape();
    for i in 0..size {
        let crd = idx2crd(&IntTuple::int(i as i64), &shape).unwrap();
        let leaves: [usize; N] = core::array::from_fn(|k| crd.leaf(k) as usize);
        assert!(L::contains(leaves));
        assert_eq!(
            L::eval_natural(leaves),
            l.eval_crd(&crd).unwrap(),
            "{text} at {crd}"
        );
    }
    // natural iteration
    let mut seen = Vec::new();
    L::for_each_offset(|o| seen.push(o));
    let expected: Vec<i64> = (0..size as i64).map(|i| l.eval(i).unwrap()).collect();
    assert_eq!(seen, expected, "{text}");
    // offset range
    assert_eq!(L::MIN_OFFSET, *expected.iter().min().unwrap(), "{text}");
    assert_eq!(L::MAX_OFFSET, *expected.iter().max().unwrap(), "{text}");
    // a tensor over exactly the storage the layout spans
    let data: Vec<i64> = (0..L::COSIZE as i64).collect();
    let base = (-L::MIN_OFFSET) as usize;
    let t = StaticTensor::<L, _>::with_base(&data[..], base).unwrap();
    let dynamic = Tensor::with_base(&data[..], base, l).unwrap();
    for i in 0..size {
        assert_eq!(t.get(i), dynamic.get(i as i64), "{text} at {i}");
        assert_eq!(t.offset(i), l.eval(i as i64).unwrap());
    }
    assert_eq!(t.get(size), None);
    let mut elems = Vec::new();
    t.for_each(|&x| elems.push(x));
    assert_eq!(elems, dynamic.iter().copied().collect::<Vec<_>>(), "{text}");
    // one element less, on either side, is refused
    assert!(StaticTensor::<L, _>::with_base(&data[..data.len() - 1], base).is_err());
    if base > 0 {
        assert!(StaticTensor::<L, _>::with_base(&data[..], base - 1).is_err());
    } else {
        assert!(StaticTensor::<L, _>::with_base(&data[..], base + 1).is_err());
    }
}

#[test]
fn static_evaluation_equals_the_layout_everywhere() {
    check::<Eval, 4>("((4,8),(8,16)):((8,512),(1,32))");
    check::<Fig3, 4>("((2,2),(4,2)):((1,8),(2,16))");
    check::<Negative, 3>("(4,(3,2)):(-1,(5,-20))");
    check::<SizeOne, 4>("((2,1),(1,3)):((1,7),(0,2))");
    check::<AllOne, 3>("(1,(1,1)):(0,(5,0))");
    check::<OneLeaf, 1>("7:3");
    check::<Eight, 8>("(2,3,2,3,2,3,2,3):(1,648,2,216,6,72,18,24)");
    check::<Nine, 9>("(2,2,2,2,2,2,2,2,2):(1,4,2,16,8,64,32,256,128)");
    check::<NonPow2, 3>("(3,(5,7)):(35,(1,5))");
    check::<Broadcast, 2>("(4,3):(0,1)");
    check::<Compact, 4>("((4,8),(8,16)):((1,4),(32,256))");
}

#[test]
fn the_eight_and_nine_leaf_layouts_are_not_coalesced_away() {
    assert_eq!((Eight::ITER_MODES.n, Eight::INDEX_MODES.n), (8, 8));
    assert_eq!((Nine::ITER_MODES.n, Nine::INDEX_MODES.n), (9, 9));
    assert_eq!(Compact::ITER_MODES.n, 1);
    assert_eq!(AllOne::ITER_MODES.n, 0);
}

/// `static_copy` from `A` to `B` against `copy_generic` on the dynamic tensors.
fn copy_check<A: StaticLayout, B: StaticLayout>() {
    let src: Vec<i64> = (0..A::COSIZE as i64).map(|x| 1000 + x).collect();
    let (sb, db) = ((-A::MIN_OFFSET) as usize, (-B::MIN_OFFSET) as usize);
    let mut ours = vec![-1i64; B::COSIZE];
    let mut theirs = ours.clone();
    let s = StaticTensor::<A, _>::with_base(&src[..], sb).unwrap();
    let mut d = StaticTensor::<B, _>::with_base(&mut ours[..], db).unwrap();
    static_copy(&s, &mut d);
    let sd = Tensor::with_base(&src[..], sb, A::LAYOUT).unwrap();
    let mut dd = Tensor::with_base(&mut theirs[..], db, B::LAYOUT).unwrap();
    copy_generic(&sd, &mut dd).unwrap();
    assert_eq!(ours, theirs, "{} -> {}", A::LAYOUT, B::LAYOUT);
}

#[test]
fn static_copy_equals_copy_generic() {
    copy_check::<Eval, Compact>();
    copy_check::<Compact, Eval>();
    copy_check::<Eval, Eval>();
    copy_check::<RowMajor, ColMajor>();
    copy_check::<ColMajor, RowMajor>();
    // no common refinement: (2,3):(3,1) against (3,2):(2,1)
    copy_check::<Transposed, RowMajor>();
    copy_check::<Gather, Flat6>();
    copy_check::<Flat6, Gather>();
    // a destination that is not injective: the last write wins, as in copy_generic
    copy_check::<Flat6, Scatter>();
    copy_check::<Negative, Eval3x8>();
    copy_check::<Fig3, Eval32>();
    copy_check::<Nine, Nine512>();
    copy_check::<AllOne, OneElement>();
}

static_layout! {
    Eval3x8 = "(3,8):(8,1)";
    Eval32 = "(8,4):(1,8)";
    Nine512 = "(8,64):(64,1)";
    OneElement = "1:0";
}

#[test]
fn storage_is_checked_once_when_the_tensor_is_made() {
    let data: Vec<f32> = vec![0.0; 4096];
    assert!(StaticTensor::<Eval, _>::new(&data[..]).is_ok());
    let e = StaticTensor::<Eval, _>::new(&data[..4095]).unwrap_err();
    assert_eq!(e.category(), "OutOfRange");
    assert!(e.to_string().contains("outside a storage of 4095"), "{e}");
    // the same error as the dynamic tensor's
    let d = Tensor::new(&data[..4095], Eval::LAYOUT).unwrap_err();
    assert_eq!(e, d);
    // negative strides reach below the base
    let small: Vec<i32> = (0..64).collect();
    assert!(StaticTensor::<Negative, _>::new(&small[..]).is_err());
    assert!(StaticTensor::<Negative, _>::with_base(&small[..], 23).is_ok());
    assert!(StaticTensor::<Negative, _>::with_base(&small[..], 22).is_err());
}

#[test]
fn conversions_to_and_from_the_dynamic_tensor() {
    let data: Vec<i32> = (0..32).collect();
    let t = StaticTensor::<Fig3, _>::new(data.clone()).unwrap();
    let d: Tensor<Vec<i32>> = t.clone().into();
    assert_eq!(d.layout(), &Fig3::LAYOUT);
    assert_eq!(t.as_dynamic().get(22), Some(&26));
    let back = StaticTensor::<Fig3, _>::try_from(d).unwrap();
    assert_eq!(back.get(22), Some(&26));
    // another layout gives the tensor back
    let other = Tensor::new(data, "(4,8):(1,4)".parse().unwrap()).unwrap();
    let other = StaticTensor::<Fig3, _>::from_dynamic(other).unwrap_err();
    assert_eq!(other.layout().to_string(), "(4,8):(1,4)");
}

#[test]
fn natural_coordinates_are_checked() {
    let data: Vec<i64> = (0..32).collect();
    let t = StaticTensor::<Fig3, _>::new(&data[..]).unwrap();
    assert_eq!(t.get_crd([0, 1, 1, 1]), Some(&26));
    assert_eq!(t.get_crd([2, 0, 0, 0]), None);
    assert_eq!(t.get_crd([0, 0, 0, 2]), None);
    let mut v = vec![0i64; 32];
    let mut m = StaticTensor::<Fig3, _>::new(&mut v[..]).unwrap();
    *m.get_crd_mut([0, 1, 1, 1]).unwrap() = 7;
    *m.get_mut(0).unwrap() = 5;
    assert!(m.get_mut(32).is_none());
    assert_eq!((v[26], v[0]), (7, 5));
}

#[test]
fn slices_agree_with_the_dynamic_slice() {
    let data: Vec<i64> = (0..4096).collect();
    let t = StaticTensor::<Eval, _>::new(&data[..]).unwrap();
    let d = t.as_dynamic();
    for j in 0..128 {
        let s = t.slice_last(j).unwrap();
        let ds = d
            .slice(&format!("(_,{j})").parse::<PartialCoord>().unwrap())
            .unwrap();
        assert_eq!(s.layout(), *ds.layout());
        let mut a = Vec::new();
        s.for_each(|&x| a.push(x));
        assert_eq!(a, ds.iter().copied().collect::<Vec<_>>(), "slice_last({j})");
    }
    assert!(t.slice_last(128).is_none());
    for j in 0..32 {
        let s = t.slice_mode::<0>(j).unwrap();
        let ds = d
            .slice(&format!("({j},_)").parse::<PartialCoord>().unwrap())
            .unwrap();
        let mut a = Vec::new();
        s.for_each(|&x| a.push(x));
        assert_eq!(
            a,
            ds.iter().copied().collect::<Vec<_>>(),
            "slice_mode::<0>({j})"
        );
    }
    assert_eq!(<Mode<Eval, 1>>::LAYOUT.to_string(), "(8,16):(1,32)");
    assert_eq!(<Last<Eval>>::LAYOUT.to_string(), "(8,16):(1,32)");
    assert_eq!(<Sliced<Eval, 1>>::LAYOUT, <Init<Eval>>::LAYOUT);
    // writing through a mutable slice
    let mut v = vec![0i64; 4096];
    let mut m = StaticTensor::<Eval, _>::new(&mut v[..]).unwrap();
    m.slice_last_mut(3).unwrap().for_each_mut(|x| *x = 1);
    let ones: Vec<usize> = (0..4096).filter(|&k| v[k] == 1).collect();
    let expect: Vec<usize> = {
        let mut e: Vec<usize> = (0..32).map(|i| (Eval::eval(i + 32 * 3)) as usize).collect();
        e.sort_unstable();
        e
    };
    assert_eq!(ones, expect);
}

#[test]
fn static_layouts_are_usable_in_const_context() {
    const S: usize = Eval::SIZE;
    const C: usize = Compact::COSIZE;
    const ROW: [usize; 3] = [
        Negative::SHAPES[0],
        Negative::SHAPES[1],
        Negative::SHAPES[2],
    ];
    assert_eq!((S, C, ROW), (4096, 4096, [4, 3, 2]));
    assert_eq!(Negative::STRIDES[..3], [-1, 5, -20]);
}

/// `static_gemm` is the reference GEMM with constant layouts: equal to `cute::gemm` on the same
/// layouts (Table 3 shapes: NT, TN, hierarchical GETT-style modes, a negative stride).
#[test]
fn static_gemm_equals_the_dynamic_reference() {
    use cute::{static_gemm, static_layout, StaticLayout, StaticTensor, Tensor};
    fn check<A: StaticLayout, B: StaticLayout, C: StaticLayout>() {
        let (na, nb, nc) = (A::COSIZE, B::COSIZE, C::COSIZE);
        let av: Vec<i64> = (0..na as i64).map(|x| (x * 7 + 3) % 11 - 5).collect();
        let bv: Vec<i64> = (0..nb as i64).map(|x| (x * 5 + 1) % 13 - 6).collect();
        let (ba, bb, bc) = (
            (-A::MIN_OFFSET) as usize,
            (-B::MIN_OFFSET) as usize,
            (-C::MIN_OFFSET) as usize,
        );
        let mut want = vec![1i64; nc];
        let mut got = want.clone();
        cute::gemm(
            &Tensor::with_base(&av[..], ba, A::LAYOUT).unwrap(),
            &Tensor::with_base(&bv[..], bb, B::LAYOUT).unwrap(),
            &mut Tensor::with_base(&mut want[..], bc, C::LAYOUT).unwrap(),
        )
        .unwrap();
        static_gemm(
            &StaticTensor::<A, _>::with_base(&av[..], ba).unwrap(),
            &StaticTensor::<B, _>::with_base(&bv[..], bb).unwrap(),
            &mut StaticTensor::<C, _>::with_base(&mut got[..], bc).unwrap(),
        );
        assert_eq!(got, want, "{} {} {}", A::LAYOUT, B::LAYOUT, C::LAYOUT);
    }
    static_layout!(
        NtA = "(3,4):(1,3)"; NtB = "(5,4):(1,5)"; NtC = "(3,5):(1,3)";
        TnA = "(3,4):(4,1)"; TnB = "(5,4):(4,1)";
        GA = "((2,3),4):((1,2),6)"; GB = "(5,4):(4,1)"; GC = "((2,3),5):((1,2),6)";
        NegA = "(3,4):(-1,3)"
    );
    check::<NtA, NtB, NtC>();
    check::<TnA, TnB, NtC>();
    check::<GA, GB, GC>();
    check::<NegA, NtB, NtC>();
}
