//! The atoms' layouts against CUTLASS's printed values (the facts are cited in `src/atom.rs`) and,
//! independently, against the fragment formulas of the PTX ISA ("Matrix fragments for mma.m16n8k16
//! / m16n8k8", "wgmma D fragment", "ldmatrix").

use cute_cuda::atom::*;

fn lane(t: i64) -> (i64, i64) {
    (t / 4, t % 4) // (groupID, threadID_in_group)
}

#[test]
fn m16n8k16_against_ptx_fragments() {
    for ty in [DType::F16, DType::Bf16] {
        let a = mma_sm80_16x8x16(ty).unwrap();
        assert_eq!(a.shape_mnk, (16, 8, 16));
        assert_eq!(a.values(), (8, 4, 4));
        for t in 0..32 {
            let (g, q) = lane(t);
            for i in 0..8 {
                let row = g + if i & 2 != 0 { 8 } else { 0 };
                let col = q * 2 + (i & 1) + if i >= 4 { 8 } else { 0 };
                assert_eq!(a.a_coord(t, i).unwrap(), (row, col), "A t{t} a{i}");
            }
            for i in 0..4 {
                let k = q * 2 + (i & 1) + if i >= 2 { 8 } else { 0 };
                assert_eq!(a.b_coord(t, i).unwrap(), (g, k), "B t{t} b{i}");
                let row = g + if i >= 2 { 8 } else { 0 };
                assert_eq!(
                    a.c_coord(t, i).unwrap(),
                    (row, q * 2 + (i & 1)),
                    "C t{t} c{i}"
                );
            }
        }
    }
    assert!(mma_sm80_16x8x16(DType::F32).is_err());
}

#[test]
fn m16n8k8_f16_against_ptx_fragments() {
    // PTX ISA, "Matrix fragments for mma.m16n8k8" (.f16/.bf16): a0..a3 at (groupID + 8·(i ≥ 2),
    // 2·threadID_in_group + i % 2), b0, b1 at k = 2·threadID_in_group + i, n = groupID; C as for
    // m16n8k16, for an f32 and an f16 accumulator alike
    for (ab, c) in [
        (DType::F16, DType::F32),
        (DType::Bf16, DType::F32),
        (DType::F16, DType::F16),
    ] {
        let a = mma_sm80(8, ab, c).unwrap();
        assert_eq!((a.shape_mnk, a.values()), ((16, 8, 8), (4, 2, 4)));
        for t in 0..32 {
            let (g, q) = lane(t);
            for i in 0..4 {
                let row = g + if i >= 2 { 8 } else { 0 };
                assert_eq!(
                    a.a_coord(t, i).unwrap(),
                    (row, 2 * q + (i & 1)),
                    "A t{t} a{i}"
                );
                let crow = g + if i >= 2 { 8 } else { 0 };
                assert_eq!(
                    a.c_coord(t, i).unwrap(),
                    (crow, 2 * q + (i & 1)),
                    "C t{t} c{i}"
                );
            }
            for i in 0..2 {
                assert_eq!(a.b_coord(t, i).unwrap(), (g, 2 * q + i), "B t{t} b{i}");
            }
        }
    }
    // the f16 accumulator of m16n8k16 holds C where the f32 one does
    let (h, f) = (
        mma_sm80(16, DType::F16, DType::F16).unwrap(),
        mma_sm80_16x8x16(DType::F16).unwrap(),
    );
    assert_eq!((h.a, h.b, h.c), (f.a, f.b, f.c));
}

#[test]
fn wgmma_register_a_is_the_accumulator_fragment() {
    // PTX ISA, "Register fragments and shared memory matrix layouts" of wgmma: A of 16-bit types
    // in registers is laid out as the m64nNk16 accumulator of N = 16 (CUTLASS writes
    // `ALayout_64x16 = CLayout_64x16`)
    for ab in [DType::F16, DType::Bf16] {
        let rs = cute::atom::wgmma(64, ab, ab, DType::F32, cute::atom::GmmaA::RS).unwrap();
        assert_eq!(rs.a, wgmma_64xnx16(16, ab).unwrap().c);
    }
}

#[test]
fn m16n8k8_tf32_against_ptx_fragments() {
    let a = mma_sm80_16x8x8_tf32().unwrap();
    assert_eq!(a.values(), (4, 2, 4));
    for t in 0..32 {
        let (g, q) = lane(t);
        for i in 0..4 {
            let row = g + if i & 1 != 0 { 8 } else { 0 };
            let col = q + if i >= 2 { 4 } else { 0 };
            assert_eq!(a.a_coord(t, i).unwrap(), (row, col), "A t{t} a{i}");
        }
        for i in 0..2 {
            assert_eq!(a.b_coord(t, i).unwrap(), (g, q + 4 * i), "B t{t} b{i}");
        }
    }
}

#[test]
fn wgmma_against_ptx_fragments_and_cutlass() {
    for n in [8, 16, 64, 128, 256] {
        let a = wgmma_64xnx16(n, DType::Bf16).unwrap();
        assert_eq!(a.threads(), 128);
        assert_eq!(a.a.to_string(), "(128,(64,16)):(0,(1,64))");
        assert_eq!(a.b.to_string(), format!("(128,({n},16)):(0,(1,{n}))"));
        assert_eq!(
            a.c.to_string(),
            format!("((4,8,4),(2,2,{})):((128,1,16),(64,8,512))", n / 8)
        );
        for t in 0..128 {
            let (w, l) = (t / 32, t % 32);
            let (g, q) = lane(l);
            for i in 0..n / 2 {
                let row = 16 * w + g + 8 * ((i / 2) % 2);
                let col = q * 2 + (i % 2) + 8 * (i / 4);
                assert_eq!(a.c_coord(t, i).unwrap(), (row, col), "C n{n} t{t} d{i}");
            }
        }
    }
    for bad in [0, 4, 12, 264] {
        assert!(wgmma_64xnx16(bad, DType::F16).is_err(), "{bad}");
    }
}

#[test]
fn ldmatrix_against_ptx() {
    for num in [1, 2, 4] {
        for trans in [false, true] {
            let a = ldmatrix(num, trans).unwrap();
            assert_eq!(a.bits_per_thread(), (128, 32 * num));
            // source: thread s supplies row s (of 8 16-bit elements); rows of threads >= 8·num are
            // those of thread s % (8·num)
            for s in 0..32 {
                for e in 0..8 {
                    assert_eq!(a.src_bit(s, 16 * e).unwrap() / 16, 8 * (s % (8 * num)) + e);
                }
            }
            // destination: register j, half h of thread t
            for t in 0..32 {
                for j in 0..num {
                    for h in 0..2 {
                        let (g, q) = lane(t);
                        let elem = if trans {
                            8 * (8 * j + 2 * q + h) + g
                        } else {
                            8 * (8 * j + g) + 2 * q + h
                        };
                        assert_eq!(
                            a.dst_bit(t, 32 * j + 16 * h).unwrap() / 16,
                            elem,
                            "{} t{t} r{j}.{h}",
                            a.name
                        );
                    }
                }
            }
        }
    }
    assert!(ldmatrix(3, false).is_err());
}

#[test]
fn cutlass_values() {
    // The CuTe notation of each layout as CUTLASS defines it.
    let expect = [
        (
            ldmatrix(1, false).unwrap(),
            "((8,4),128):((128,0),1)",
            "(32,32):(32,1)",
        ),
        (
            ldmatrix(2, false).unwrap(),
            "((16,2),128):((128,0),1)",
            "(32,(32,2)):(32,(1,1024))",
        ),
        (
            ldmatrix(4, false).unwrap(),
            "(32,128):(128,1)",
            "(32,(32,4)):(32,(1,1024))",
        ),
        (
            ldmatrix(1, true).unwrap(),
            "((8,4),128):((128,0),1)",
            "((4,8),(16,2)):((256,16),(1,128))",
        ),
        (
            ldmatrix(2, true).unwrap(),
            "((16,2),128):((128,0),1)",
            "((4,8),(16,2,2)):((256,16),(1,128,1024))",
        ),
        (
            ldmatrix(4, true).unwrap(),
            "(32,128):(128,1)",
            "((4,8),(16,2,4)):((256,16),(1,128,1024))",
        ),
        (cp_async_16b().unwrap(), "(1,128):(0,1)", "(1,128):(0,1)"),
    ];
    for (a, s, d) in expect {
        assert_eq!(
            (a.src.to_string().as_str(), a.dst.to_string().as_str()),
            (s, d),
            "{}",
            a.name
        );
    }
    for num in [1, 2, 4] {
        for trans in [false, true] {
            let (l, s) = (ldmatrix(num, trans).unwrap(), stmatrix(num, trans).unwrap());
            assert_eq!((&s.src, &s.dst), (&l.dst, &l.src));
            assert!(s.ptx.starts_with("stmatrix") && s.name.starts_with("SM90_"));
        }
    }
    let m = mma_sm80_16x8x16(DType::Bf16).unwrap();
    assert_eq!(m.name, "SM80_16x8x16_F32BF16BF16F32_TN");
    assert_eq!(m.a.to_string(), "((4,8),(2,2,2)):((32,1),(16,8,128))");
    assert_eq!(m.b.to_string(), "((4,8),(2,2)):((16,1),(8,64))");
    let t = mma_sm80_16x8x8_tf32().unwrap();
    assert_eq!(t.a.to_string(), "((4,8),(2,2)):((16,1),(8,64))");
    assert_eq!(t.b.to_string(), "((4,8),2):((8,1),32)");
}

/// Every TV layout of an MMA atom is a bijection of (threads × values) onto its tile (or, for
/// wgmma's shared-memory operands, every thread sees the whole tile).
#[test]
fn mma_layouts_cover_their_tiles() {
    let atoms = [
        mma_sm80_16x8x16(DType::F16).unwrap(),
        mma_sm80_16x8x8_tf32().unwrap(),
        wgmma_64xnx16(64, DType::F16).unwrap(),
    ];
    for a in atoms {
        let (m, n, k) = a.shape_mnk;
        for (l, size) in [(&a.a, m * k), (&a.b, n * k), (&a.c, m * n)] {
            let mut img = l.image().unwrap();
            img.sort_unstable();
            img.dedup();
            assert_eq!(img, (0..size).collect::<Vec<_>>(), "{} {l}", a.name);
        }
    }
}

#[test]
fn gmma_smem_atoms() {
    // CUTLASS: GMMA::Layout_K_SW128_Atom<half_t> = Sw<3,4,3> o smem_ptr[16b] o (8,64):(64,1); in
    // element offsets the byte swizzle Sw<3,4,3> is Sw<3,3,3>.
    let cases = [
        (
            Major::K,
            GmmaSwizzle::None,
            16,
            "Sw<0,3,3> o 0 o (8,8):(8,1)",
        ),
        (
            Major::K,
            GmmaSwizzle::B32,
            16,
            "Sw<1,3,3> o 0 o (8,16):(16,1)",
        ),
        (
            Major::K,
            GmmaSwizzle::B64,
            16,
            "Sw<2,3,3> o 0 o (8,32):(32,1)",
        ),
        (
            Major::K,
            GmmaSwizzle::B128,
            16,
            "Sw<3,3,3> o 0 o (8,64):(64,1)",
        ),
        (
            Major::MN,
            GmmaSwizzle::B128,
            16,
            "Sw<3,3,3> o 0 o (64,8):(1,64)",
        ),
        (
            Major::K,
            GmmaSwizzle::B128,
            32,
            "Sw<3,2,3> o 0 o (8,32):(32,1)",
        ),
        (
            Major::K,
            GmmaSwizzle::B128,
            8,
            "Sw<3,4,3> o 0 o (8,128):(128,1)",
        ),
        (
            Major::MN,
            GmmaSwizzle::B32,
            32,
            "Sw<1,2,3> o 0 o (8,8):(1,8)",
        ),
    ];
    for (major, sw, bits, s) in cases {
        assert_eq!(gmma_smem_atom(major, sw, bits).unwrap().to_string(), s);
    }
    // the element swizzle equals the byte swizzle on every byte of every element
    for sw in GmmaSwizzle::ALL {
        for bits in [8, 16, 32] {
            let e = gmma_smem_atom(Major::K, sw, bits).unwrap();
            let (bsw, _) = gmma_smem_atom_bits(Major::K, sw).unwrap();
            let bytes = bits / 8;
            for i in 0..e.size() {
                let plain = e.layout.eval(i).unwrap();
                let elem = e.eval(i).unwrap();
                assert_eq!(elem * bytes, bsw.apply(plain * bytes), "{sw:?} {bits} {i}");
            }
        }
    }
    assert!(gmma_smem_atom(Major::K, GmmaSwizzle::B128, 64).is_err());
}

/// The tiles the wgmma hardware check stores A and B in start with the canonical atom: the first
/// 8 rows (and, without a swizzle, the first 8 columns) are `gmma_smem_atom`'s layout.
#[test]
fn wgmma_check_tiles_are_the_atoms() {
    for sw in GmmaSwizzle::ALL {
        let (tile, swz, _, _, _) = cute_cuda::verify::wgmma_k_major_tile(64, sw).unwrap();
        let atom = gmma_smem_atom(Major::K, sw, 16).unwrap();
        assert_eq!(swz, atom.swizzle);
        let w = atom.layout.mode(1).unwrap().size().min(16);
        for r in 0..8 {
            for k in 0..w {
                assert_eq!(
                    tile.eval(r + 64 * k).unwrap(),
                    atom.layout.eval(r + 8 * k).unwrap(),
                    "{sw:?} ({r},{k})"
                );
            }
        }
    }
}

#[test]
fn hardware_checks_of_the_new_atoms_expect_what_the_layouts_say() {
    use cute_cuda::verify;
    // an f16 accumulator: the expected words are binary16 bits of the exact sums
    let h = verify::mma_check(&mma_sm80(8, DType::F16, DType::F16).unwrap(), 3, false).unwrap();
    assert!(h.expected.iter().all(|e| e.is_some_and(|b| b <= 0xFFFF)));
    assert!(h.source.contains("\"=r\"(d[0])") && h.source.contains(".f16.f16.f16.f16"));
    // the same product in f32: the values agree
    let f = verify::mma_check(&mma_sm80(8, DType::F16, DType::F32).unwrap(), 3, false).unwrap();
    for (a, b) in h.expected.iter().zip(&f.expected) {
        let v = f32::from_bits(b.unwrap());
        let half = a.unwrap();
        let sign = if half & 0x8000 != 0 { -1.0 } else { 1.0 };
        let (e, m) = ((half >> 10) & 0x1F, half & 0x3FF);
        let x = if e == 0 {
            sign * m as f32 * 2f32.powi(-24)
        } else {
            sign * (1.0 + m as f32 / 1024.0) * 2f32.powi(e as i32 - 15)
        };
        assert_eq!(x, v);
    }
    // zero fill: the odd threads' words are expected to be zeros, the even ones' the input's
    let z = cp_async(CpAsyncCache::Always, 8, true).unwrap();
    let c = verify::cp_async_check(&z, 5, false).unwrap();
    assert!(c.source.contains("src_size") && c.source.contains("cp.async.ca.shared.global"));
    for t in 0..32usize {
        for w in 0..2 {
            let e = c.expected[2 * t + w].unwrap();
            if t % 2 == 1 {
                assert_eq!(e, 0);
            } else {
                assert_eq!(e, c.input[2 * t + w]);
            }
        }
    }
    // a 4-byte copy: the control exchanges two bytes of thread 0 only
    let four = cp_async(CpAsyncCache::Always, 4, false).unwrap();
    let (plain, control) = (
        verify::cp_async_check(&four, 5, false).unwrap(),
        verify::cp_async_check(&four, 5, true).unwrap(),
    );
    let w = plain.input[0];
    let swapped = (w & 0xFFFF_0000) | ((w & 0xFF) << 8) | ((w >> 8) & 0xFF);
    assert_eq!(
        (plain.expected[0], control.expected[0]),
        (Some(w), Some(swapped))
    );
    assert_eq!(plain.expected[1..], control.expected[1..]);
    // wgmma with A in registers: each thread loads its A values by the atom's A layout; the
    // control exchanges two of thread 0's values, not the C table
    let rs = cute::atom::wgmma(
        64,
        DType::Bf16,
        DType::Bf16,
        DType::F32,
        cute::atom::GmmaA::RS,
    )
    .unwrap();
    let (p, q) = (
        verify::wgmma_check(&rs, GmmaSwizzle::B128, 2, false).unwrap(),
        verify::wgmma_check(&rs, GmmaSwizzle::B128, 2, true).unwrap(),
    );
    assert!(p.source.contains("A_IDX") && p.source.contains("ra[3]"));
    assert_eq!(p.expected, q.expected);
    assert_ne!(p.source, q.source);
    // tf32 and fp8: the tiles of 32 bytes of K in 16-bit units, the instruction of K = 8 or 32
    // without the transpose immediates
    for (ab, b, c, k) in [
        (DType::Tf32, DType::Tf32, DType::F32, 8),
        (DType::E4m3, DType::E5m2, DType::F16, 32),
    ] {
        for src in [cute::atom::GmmaA::SS, cute::atom::GmmaA::RS] {
            let atom = cute::atom::wgmma(64, ab, b, c, src).unwrap();
            let chk = verify::wgmma_check(&atom, GmmaSwizzle::B128, 2, false).unwrap();
            let op = format!("m64n64k{k}.{c}.{ab}.{b}");
            assert!(chk.source.contains(&op), "{op}");
            assert!(chk.source.contains(", p, 1, 1;"), "{}", atom.name);
        }
    }
    // an mma.sync atom is no wgmma: refused with the reason
    let e = verify::wgmma_check(
        &mma_sm80_16x8x16(DType::F16).unwrap(),
        GmmaSwizzle::B128,
        2,
        false,
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("wgmma atoms of 32 bytes of K"),
        "{e}"
    );
}
