//! Swizzle ↔ F2-stride layout: the two forms agree at every point, the conversion round-trips,
//! and swizzles are bijections of their blocks.

use cute::{ComposedLayout, Layout, Swizzle};

/// Every `Sw<B,M,S>` with `B ≤ 3`, `M ≤ 3`, `B ≤ |S| ≤ 4`.
fn swizzles() -> Vec<Swizzle> {
    let mut out = vec![];
    for b in 0..=3 {
        for m in 0..=3 {
            for a in b.max(1)..=4 {
                for s in [a, -a] {
                    if let Ok(sw) = Swizzle::new(b, m, s) {
                        out.push(sw);
                    }
                }
            }
        }
    }
    out
}

#[test]
fn f2_layout_of_a_swizzle_agrees_at_every_point_and_round_trips() {
    let mut checked = 0;
    for sw in swizzles() {
        let nb = sw.block_bits() as u32;
        for n in nb..=nb + 2 {
            let l = sw.to_f2_layout(n).unwrap();
            assert_eq!(l.size(), 1 << n, "{sw} on {n} bits: {l}");
            for i in 0..1i64 << n {
                assert_eq!(l.eval(i).unwrap(), sw.apply(i), "{sw} = {l} at {i}");
            }
            // a bijection of [0, 2^n)
            let image = l.image().unwrap();
            assert_eq!(image, (0..1i64 << n).collect::<Vec<_>>(), "{sw} = {l}");
            let back = Swizzle::from_f2_layout(&l).unwrap();
            for i in 0..1i64 << n {
                assert_eq!(back.apply(i), sw.apply(i), "{sw} -> {l} -> {back} at {i}");
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} swizzles checked");
}

#[test]
fn paper_swizzle_is_sw_3_0_3() {
    let l: Layout = "(8,8):(F1,F9)".parse().unwrap();
    assert_eq!(
        Swizzle::from_f2_layout(&l).unwrap().to_string(),
        "Sw<3,0,3>"
    );
    let sw: Swizzle = "Sw<3,0,3>".parse().unwrap();
    assert_eq!(sw.to_f2_layout(6).unwrap(), l);
    // an F2 layout that no swizzle equals: bit 0 maps to 3 (two bits), bit 1 to 1
    let l: Layout = "(2,2):(F3,F1)".parse().unwrap();
    assert_eq!(
        Swizzle::from_f2_layout(&l).unwrap_err().category(),
        "Unsupported"
    );
}

#[test]
fn composed_layout_as_one_f2_layout() {
    for text in [
        "Sw<3,3,3> o 0 o (8,64):(64,1)",
        "Sw<2,2,3> o 0 o (16,32):(32,1)",
        "Sw<3,2,3> o 0 o ((8,4),(4,8)):((4,256),(1,32))",
    ] {
        let c: ComposedLayout = text.parse().unwrap();
        let l = c.to_f2_layout().unwrap();
        let n = c.size();
        assert_eq!(l.size(), n);
        for i in 0..n {
            assert_eq!(l.eval(i).unwrap(), c.eval(i).unwrap(), "{c} = {l} at {i}");
        }
    }
}

/// The bank-conflict model sees the same shared-memory offsets through a composed layout
/// `Sw ∘ L` and through its single F2-strided layout: equal reports for the fp16 tile's row stores
/// and ldmatrix-style reads, with and without a swizzle.
#[test]
fn bank_reports_agree_for_composed_and_f2_layouts() {
    use cute::banks::bank_conflicts;
    let tvs: [Layout; 2] = [
        "((8,4),(8,2)):((64,1),(8,4))".parse().unwrap(),
        "((8,4),(8,2)):((1,64),(8,256))".parse().unwrap(),
    ];
    for text in [
        "Sw<3,3,3> o 0 o (8,64):(64,1)",
        "Sw<2,3,3> o 0 o (8,64):(64,1)",
    ] {
        let c: ComposedLayout = text.parse().unwrap();
        let f = c.to_f2_layout().unwrap();
        for tv in &tvs {
            let a = bank_conflicts(&c, tv, 2, 8).unwrap();
            let b = bank_conflicts(&f, tv, 2, 8).unwrap();
            assert_eq!(a, b, "{c} vs {f} with {tv}");
        }
    }
}
