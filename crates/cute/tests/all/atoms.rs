//! The atom catalogue against CUTLASS's traits: each layout below is copied (as data) from the
//! CUTLASS header named beside it, CUTLASS 4.x (`include/cute/atom/...`), and the laws every atom
//! must satisfy are checked on all of them: the register side of an MMA operand is a bijection
//! onto its tile, a shared-memory or tensor-memory side shows every thread the whole tile, a copy
//! reaches the same bits on both sides.

use cute::atom::{
    copy_atom_named, cp_async, mma_atom_named, mma_sm80, tma, tmem_copy, umma, wgmma, CopyAtom,
    CpAsyncCache, DType, GmmaA, MmaAtom, TmemShape, UmmaA,
};
use cute::Layout;

/// `(name, A, B, C)` of CUTLASS's `MMA_Traits` (`mma_traits_sm80.hpp`).
const SM80: [(&str, &str, &str, &str); 7] = [
    (
        "SM80_16x8x16_F32F16F16F32_TN",
        "((4,8),(2,2,2)):((32,1),(16,8,128))",
        "((4,8),(2,2)):((16,1),(8,64))",
        "((4,8),(2,2)):((32,1),(16,8))",
    ),
    (
        "SM80_16x8x16_F32BF16BF16F32_TN",
        "((4,8),(2,2,2)):((32,1),(16,8,128))",
        "((4,8),(2,2)):((16,1),(8,64))",
        "((4,8),(2,2)):((32,1),(16,8))",
    ),
    (
        "SM80_16x8x16_F16F16F16F16_TN",
        "((4,8),(2,2,2)):((32,1),(16,8,128))",
        "((4,8),(2,2)):((16,1),(8,64))",
        "((4,8),(2,2)):((32,1),(16,8))",
    ),
    // SM80_16x8_Row, SM80_8x8_Row, SM80_16x8_Row
    (
        "SM80_16x8x8_F32F16F16F32_TN",
        "((4,8),(2,2)):((32,1),(16,8))",
        "((4,8),2):((16,1),8)",
        "((4,8),(2,2)):((32,1),(16,8))",
    ),
    (
        "SM80_16x8x8_F32BF16BF16F32_TN",
        "((4,8),(2,2)):((32,1),(16,8))",
        "((4,8),2):((16,1),8)",
        "((4,8),(2,2)):((32,1),(16,8))",
    ),
    (
        "SM80_16x8x8_F16F16F16F16_TN",
        "((4,8),(2,2)):((32,1),(16,8))",
        "((4,8),2):((16,1),8)",
        "((4,8),(2,2)):((32,1),(16,8))",
    ),
    (
        "SM80_16x8x8_F32TF32TF32F32_TN",
        "((4,8),(2,2)):((16,1),(8,64))",
        "((4,8),2):((8,1),32)",
        "((4,8),(2,2)):((32,1),(16,8))",
    ),
];

/// `ALayout_64x8`, `ALayout_64x16`, `ALayout_64x32` (`mma_traits_sm90_gmma.hpp`): A in registers
/// for 32-, 16- and 8-bit types.
const GMMA_RS_A: [(i64, &str); 3] = [
    (32, "((4,8,4),(2,2)):((64,1,16),(8,256))"),
    (16, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"),
    (8, "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))"),
];

/// Each index of `l`'s domain, `l` evaluated: `(thread, value)` in CuTe's order.
fn images(l: &Layout) -> Vec<i64> {
    (0..l.size()).map(|i| l.eval(i).unwrap()).collect()
}

/// `l` is a bijection of its domain onto `[0, n)`.
fn bijective_onto(l: &Layout, n: i64) -> bool {
    let mut seen = vec![false; n as usize];
    l.size() == n
        && images(l)
            .into_iter()
            .all(|x| (0..n).contains(&x) && !std::mem::replace(&mut seen[x as usize], true))
}

/// Every thread of `l` (`(threads, tile)`, thread mode of stride 0) sees the whole tile once.
fn every_thread_sees_the_tile(l: &Layout, tile: i64) -> bool {
    let t = l.mode(0).unwrap();
    t.leaf_count() >= 1
        && (0..t.leaf_count()).all(|k| t.leaf_at(k).1 == 0)
        && bijective_onto(&l.mode(1).unwrap(), tile)
}

/// The laws of an MMA atom whose operands are all in registers (mma.sync): A, B and C bijections
/// of `(thread, value)` onto `M·K`, `N·K` and `M·N`.
fn register_laws(a: &MmaAtom) {
    let (m, n, k) = a.shape_mnk;
    assert!(bijective_onto(&a.a, m * k), "{} A {}", a.name, a.a);
    assert!(bijective_onto(&a.b, n * k), "{} B {}", a.name, a.b);
    assert!(bijective_onto(&a.c, m * n), "{} C {}", a.name, a.c);
    assert_eq!(a.a.mode(0).unwrap().size(), a.threads(), "{}", a.name);
}

#[test]
fn mma_sync_atoms_are_cutlass_traits() {
    use DType::{Bf16, Tf32, F16, F32};
    let built = [
        mma_sm80(16, F16, F32),
        mma_sm80(16, Bf16, F32),
        mma_sm80(16, F16, F16),
        mma_sm80(8, F16, F32),
        mma_sm80(8, Bf16, F32),
        mma_sm80(8, F16, F16),
        mma_sm80(8, Tf32, F32),
    ];
    for ((name, a, b, c), atom) in SM80.iter().zip(built) {
        let atom = atom.unwrap();
        assert_eq!(
            (
                atom.name,
                atom.a.to_string(),
                atom.b.to_string(),
                atom.c.to_string()
            ),
            (*name, a.to_string(), b.to_string(), c.to_string())
        );
        assert_eq!(mma_atom_named(name), Some(atom));
        register_laws(&atom);
        let (m, n, k) = atom.shape_mnk;
        assert_eq!(
            atom.ptx,
            format!(
                "mma.sync.aligned.m{m}n{n}k{k}.row.col.{}.{}.{}.{}",
                atom.c_type, atom.ab_type, atom.b_type, atom.c_type
            )
        );
    }
    // what CUTLASS has not: a bf16 or tf32 accumulator, K = 16 of tf32, K = 4
    for (k, ab, c) in [
        (16, Bf16, Bf16),
        (8, Tf32, Tf32),
        (16, Tf32, F32),
        (4, F16, F32),
    ] {
        let e = mma_sm80(k, ab, c).unwrap_err();
        assert!(e.to_string().contains("mma_sm80"), "{e}");
    }
}

#[test]
fn wgmma_atoms_are_cutlass_traits() {
    use DType::{Bf16, E4m3, E5m2, Tf32, F16, F32};
    let combos = [
        (F32, F16, F16),
        (F16, F16, F16),
        (F32, Bf16, Bf16),
        (F32, Tf32, Tf32),
        (F32, E4m3, E4m3),
        (F32, E4m3, E5m2),
        (F32, E5m2, E4m3),
        (F32, E5m2, E5m2),
        (F16, E4m3, E4m3),
        (F16, E4m3, E5m2),
        (F16, E5m2, E4m3),
        (F16, E5m2, E5m2),
    ];
    let mut names = std::collections::HashSet::new();
    for (c, a, b) in combos {
        for src in [GmmaA::SS, GmmaA::RS] {
            for n in [8, 64, 136, 256] {
                let atom = wgmma(n, a, b, c, src).unwrap();
                let k = 256 / a.bits();
                assert_eq!(atom.shape_mnk, (64, n, k), "{}", atom.name);
                assert_eq!((atom.ab_type, atom.b_type, atom.c_type), (a, b, c));
                // CLayout_64xN, for an f32 and an f16 accumulator alike
                assert_eq!(
                    atom.c.to_string(),
                    format!("((4,8,4),(2,2,{})):((128,1,16),(64,8,512))", n / 8)
                );
                assert!(bijective_onto(&atom.c, 64 * n), "{}", atom.name);
                // B: ABLayout<N,K>
                assert_eq!(atom.b.to_string(), format!("(128,({n},{k})):(0,(1,{n}))"));
                assert!(every_thread_sees_the_tile(&atom.b, n * k));
                match src {
                    GmmaA::SS => {
                        assert_eq!(atom.a.to_string(), format!("(128,(64,{k})):(0,(1,64))"));
                        assert!(every_thread_sees_the_tile(&atom.a, 64 * k));
                    }
                    GmmaA::RS => {
                        let want = GMMA_RS_A.iter().find(|r| r.0 == a.bits()).unwrap().1;
                        assert_eq!(atom.a.to_string(), want, "{}", atom.name);
                        assert!(bijective_onto(&atom.a, 64 * k), "{}", atom.name);
                    }
                }
                // the name with N written out finds the atom again
                let named = atom.name.replace("64xNx", &format!("64x{n}x"));
                assert_eq!(mma_atom_named(&named), Some(atom), "{named}");
                let suffix = if matches!(a, Tf32 | E4m3 | E5m2) {
                    "_TN"
                } else {
                    ""
                };
                assert!(
                    atom.name.ends_with(&format!("_{src:?}{suffix}")),
                    "{}",
                    atom.name
                );
                names.insert(atom.name);
            }
        }
    }
    assert_eq!(names.len(), 24);
    // CUTLASS has no bf16 accumulator, no mixed f16 x bf16, no N outside 8..=256
    assert!(wgmma(64, Bf16, Bf16, F16, GmmaA::SS).is_err());
    assert!(wgmma(64, F16, Bf16, F32, GmmaA::SS).is_err());
    assert!(wgmma(64, Tf32, Tf32, F16, GmmaA::RS).is_err());
    assert!(wgmma(264, F16, F16, F32, GmmaA::SS).is_err());
    assert!(mma_atom_named("SM90_64x64x16_F32TF32TF32_SS_TN").is_none()); // K is 8 for tf32
}

#[test]
fn umma_atoms_show_the_whole_tile_to_one_thread() {
    use DType::{Bf16, E4m3, E5m2, Tf32, F16, F32};
    for (a, b, c, name) in [
        (F16, F16, F32, "SM100_MMA_F16BF16"),
        (Bf16, Bf16, F16, "SM100_MMA_F16BF16"),
        (Tf32, Tf32, F32, "SM100_MMA_TF32"),
        (E4m3, E5m2, F32, "SM100_MMA_F8F6F4"),
        (E5m2, E5m2, F16, "SM100_MMA_F8F6F4"),
    ] {
        for (m, n) in [(64, 8), (64, 256), (128, 16), (128, 256)] {
            for src in [UmmaA::SS, UmmaA::TS] {
                let atom = umma(m, n, a, b, c, src).unwrap();
                let k = 256 / a.bits();
                assert_eq!(atom.name, format!("{name}_{src:?}"));
                assert_eq!(atom.shape_mnk, (m, n, k));
                assert_eq!(atom.threads(), 1);
                // mma_traits_sm100.hpp: (_1,(M,K)):(_0,(_1,M)) and likewise for B and C
                for (l, r, s) in [(&atom.a, m, k), (&atom.b, n, k), (&atom.c, m, n)] {
                    assert_eq!(l.to_string(), format!("(1,({r},{s})):(0,(1,{r}))"));
                    assert!(every_thread_sees_the_tile(l, r * s));
                }
            }
        }
    }
    assert!(umma(128, 8, F16, F16, F32, UmmaA::SS).is_err()); // N a multiple of 16
    assert!(umma(256, 64, F16, F16, F32, UmmaA::SS).is_err()); // two CTAs' M
    assert!(umma(64, 64, F16, Bf16, F32, UmmaA::SS).is_err()); // mixed 16-bit types
    assert!(umma(64, 64, Tf32, Tf32, F16, UmmaA::SS).is_err());
}

/// A copy moves what it receives: source and destination reach the same bits (a side that one
/// address serves, such as TMEM's or `ldmatrix`'s source, shows them to several threads).
fn copy_laws(a: &CopyAtom) {
    let bits = |l: &Layout| {
        images(l)
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
    };
    assert_eq!(bits(&a.src), bits(&a.dst), "{}", a.name);
    assert!(a.reference == a.src || a.reference == a.dst, "{}", a.name);
    assert_eq!(a.src.mode(0).unwrap().size(), a.threads(), "{}", a.name);
    assert_eq!(a.dst.mode(0).unwrap().size(), a.threads(), "{}", a.name);
}

#[test]
fn cp_async_and_tma_atoms_are_cutlass_traits() {
    use CpAsyncCache::{Always, Global};
    // copy_traits_sm80.hpp: ThrID _1, SrcLayout = DstLayout = RefLayout = (_1, sizeof_bits<T>)
    for (cache, bytes, zfill, name) in [
        (Always, 4, false, "SM80_CP_ASYNC_CACHEALWAYS<uint32_t>"),
        (Always, 16, false, "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>"),
        (Always, 8, true, "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint64_t>"),
        (Global, 16, false, "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>"),
        (
            Global,
            16,
            true,
            "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>",
        ),
    ] {
        let a = cp_async(cache, bytes, zfill).unwrap();
        assert_eq!(a.name, name);
        let one = format!("(1,{}):(0,1)", 8 * bytes);
        assert_eq!((a.src.to_string(), a.dst.to_string()), (one.clone(), one));
        assert_eq!(a.reference, a.src);
        assert_eq!(copy_atom_named(name), Some(a));
        copy_laws(&a);
    }
    assert!(cp_async(Always, 2, false).is_err());
    assert!(cp_async(Global, 4, true).is_err());
    // copy_traits_sm90_tma.hpp: ThrID _1, (_1, NumBitsPerTMA) on both sides, RefLayout the source
    for store in [false, true] {
        let a = tma(store, 128 * 64 * 16).unwrap();
        assert_eq!(a.src.to_string(), "(1,131072):(0,1)");
        assert_eq!((a.dst, a.reference), (a.src, a.src));
        copy_laws(&a);
    }
    assert!(tma(false, 0).is_err() && tma(true, 120).is_err());
}

#[test]
fn tmem_copies_are_cutlass_traits() {
    // copy_traits_sm100.hpp, as CUTLASS writes them
    for (name, src, dst) in [
        (
            "SM100_TMEM_LOAD_32dp32b1x",
            "(32,1024):(0,1)",
            "(32,32):(32,1)",
        ),
        (
            "SM100_TMEM_LOAD_32dp32b2x",
            "(32,2048):(0,1)",
            "(32,64):(64,1)",
        ),
        (
            "SM100_TMEM_LOAD_32dp32b128x",
            "(32,131072):(0,1)",
            "(32,4096):(4096,1)",
        ),
        (
            "SM100_TMEM_LOAD_16dp256b1x",
            "(32,4096):(0,1)",
            "((4,8),(64,2)):((64,256),(1,2048))",
        ),
        (
            "SM100_TMEM_LOAD_16dp256b4x",
            "(32,16384):(0,1)",
            "((4,8),(64,2,4)):((64,1024),(1,8192,256))",
        ),
        (
            "SM100_TMEM_LOAD_16dp256b8x",
            "(32,32768):(0,1)",
            "((4,8),(64,2,8)):((64,2048),(1,16384,256))",
        ),
    ] {
        let a = copy_atom_named(name).unwrap();
        assert_eq!(
            (a.src.to_string(), a.dst.to_string()),
            (src.to_string(), dst.to_string())
        );
        assert_eq!(a.reference, a.src, "{name}");
        // the store: the sides exchanged, the TMEM side still the reference
        let st = copy_atom_named(&name.replace("LOAD", "STORE")).unwrap();
        assert_eq!((st.src, st.dst, st.reference), (a.dst, a.src, a.src));
    }
    for (shape, max) in [(TmemShape::Dp32b32, 128), (TmemShape::Dp16b256, 32)] {
        let mut num = 1;
        while num <= max {
            let a = tmem_copy(shape, num, false).unwrap();
            copy_laws(&a);
            // the registers: every bit of the warp's data held once
            assert!(
                bijective_onto(&a.dst, a.src.mode(1).unwrap().size()),
                "{}",
                a.name
            );
            assert_eq!(copy_atom_named(a.name), Some(a));
            num *= 2;
        }
        assert!(tmem_copy(shape, 3, false).is_err());
        assert!(tmem_copy(shape, 2 * max, true).is_err());
    }
}
