//! Tiled MMAs and tiled copies against the CuTe DSL: every case of tests/data/tiled_oracle.json
//! (written by scripts/tiled_oracle.py) is rebuilt from the same inputs and every recorded layout,
//! tile size, partition and retiled fragment compared as CuTe prints it.

use cute::atom::{
    cp_async_16b, ldmatrix, mma_sm80_16x8x16, mma_sm80_16x8x8_tf32, stmatrix, universal_copy,
    wgmma_64xnx16, CopyAtom, DType, MmaAtom,
};
use cute::tiled::{
    make_tiled_copy, make_tiled_copy_a, make_tiled_copy_b, make_tiled_copy_c, make_tiled_mma,
    TiledMma,
};
use cute::{Layout, Tiler};
use serde_json::Value;
use std::collections::HashMap;

fn oracle() -> Value {
    let text = include_str!("../data/tiled_oracle.json");
    serde_json::from_str(text).expect("the oracle file is JSON")
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or_else(|| panic!("field {k} of {v}"))
}

fn lay(t: &str) -> Layout {
    t.parse().unwrap_or_else(|e| panic!("{t}: {e}"))
}

fn dtype(name: &str) -> DType {
    DType::parse(name).expect("a dtype name")
}

fn mma_atom(v: &Value) -> MmaAtom {
    match v[0].as_str().unwrap() {
        "sm80_16x8x16" => mma_sm80_16x8x16(dtype(v[1].as_str().unwrap())).unwrap(),
        "sm80_16x8x8_tf32" => mma_sm80_16x8x8_tf32().unwrap(),
        "sm90_64xNx16" => {
            wgmma_64xnx16(v[1][1].as_i64().unwrap(), dtype(v[1][0].as_str().unwrap())).unwrap()
        }
        other => panic!("unknown MMA atom {other}"),
    }
}

fn copy_atom(v: &Value) -> CopyAtom {
    let n = v[1].as_i64().unwrap();
    match v[0].as_str().unwrap() {
        "ldmatrix" => ldmatrix(n, v[2].as_bool().unwrap()).unwrap(),
        "stmatrix" => stmatrix(n, v[2].as_bool().unwrap()).unwrap(),
        "cp_async" => {
            assert_eq!(n, 128, "the oracle's cp.async moves 16 bytes");
            cp_async_16b().unwrap()
        }
        "universal" => universal_copy(n).unwrap(),
        other => panic!("unknown copy atom {other}"),
    }
}

fn partition(p: (Layout, i64)) -> (String, i64) {
    (p.0.to_string(), p.1)
}

fn expected(v: &Value) -> (String, i64) {
    (s(v, "layout").to_string(), v["offset"].as_i64().unwrap())
}

fn build_mmas(o: &Value) -> HashMap<String, TiledMma> {
    let mut out = HashMap::new();
    for c in o["mma"].as_array().unwrap() {
        let perm: Tiler = s(c, "permutation").parse().unwrap();
        let mma = make_tiled_mma(&mma_atom(&c["atom"]), &lay(s(c, "atom_layout")), &perm)
            .unwrap_or_else(|e| panic!("{}: {e}", s(c, "name")));
        out.insert(s(c, "name").to_string(), mma);
    }
    out
}

#[test]
fn oracle_has_provenance_and_enough_cases() {
    let o = oracle();
    assert!(s(&o, "oracle").contains("CuTe DSL"));
    assert!(!s(&o, "version").is_empty() && !s(&o, "date").is_empty());
    let n = o["mma"].as_array().unwrap().len() + o["copy"].as_array().unwrap().len();
    assert!(n >= 20, "{n} tiled atoms");
}

#[test]
fn tiled_mma_layouts_equal_the_dsl() {
    let o = oracle();
    let mmas = build_mmas(&o);
    for c in o["mma"].as_array().unwrap() {
        let name = s(c, "name");
        let mma = &mmas[name];
        assert_eq!(
            mma.thr_layout_vmnk().to_string(),
            s(c, "thr_layout_vmnk"),
            "{name}"
        );
        let t = mma.tile_shape();
        let tile: Vec<i64> = c["tile_size"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect();
        assert_eq!(vec![t.0, t.1, t.2], tile, "{name}");
        assert_eq!(
            mma.get_layout_a_tv().unwrap().to_string(),
            s(c, "layout_a_tv"),
            "{name} A"
        );
        assert_eq!(
            mma.get_layout_b_tv().unwrap().to_string(),
            s(c, "layout_b_tv"),
            "{name} B"
        );
        assert_eq!(
            mma.get_layout_c_tv().unwrap().to_string(),
            s(c, "layout_c_tv"),
            "{name} C"
        );
        let thr = mma.thr_slice(c["thread"].as_i64().unwrap()).unwrap();
        let pa = thr.partition_a(&lay(s(c, "data_a"))).unwrap();
        assert_eq!(
            partition(pa),
            expected(&c["partition_a"]),
            "{name} partition_A"
        );
        let pb = thr.partition_b(&lay(s(c, "data_b"))).unwrap();
        assert_eq!(
            partition(pb),
            expected(&c["partition_b"]),
            "{name} partition_B"
        );
        let pc = thr.partition_c(&lay(s(c, "data_c"))).unwrap();
        assert_eq!(
            partition(pc),
            expected(&c["partition_c"]),
            "{name} partition_C"
        );
    }
}

#[test]
fn tiled_copy_layouts_equal_the_dsl() {
    let o = oracle();
    let mmas = build_mmas(&o);
    let (mut checked, mut refused) = (0, 0);
    for c in o["copy"].as_array().unwrap() {
        let name = s(c, "name");
        let atom = copy_atom(&c["atom"]);
        let bits = c["elem_bits"].as_i64().unwrap();
        let (src, dst) = atom.in_elements(bits).unwrap();
        assert_eq!(
            (src.to_string(), dst.to_string()),
            (s(c, "atom_src_tv").into(), s(c, "atom_dst_tv").into()),
            "{name} atom"
        );
        let source = &c["source"];
        let built = if let Some(m) = source["mma"].as_str() {
            let mk = match s(source, "operand") {
                "A" => make_tiled_copy_a,
                "B" => make_tiled_copy_b,
                _ => make_tiled_copy_c,
            };
            mk(&atom, bits, &mmas[m])
        } else {
            make_tiled_copy(&atom, bits, &lay(s(source, "thr")), &lay(s(source, "val")))
        };
        // CuTe C++ refuses (static_assert "TiledCopy uses too few vals for selected CopyAtom") a
        // tiled copy whose values per thread are not a multiple of the atom's; the DSL builds one
        let tv = lay(s(c, "layout_tv"));
        let reference_vals = if atom.reference == atom.dst {
            lay(s(c, "atom_dst_tv"))
        } else {
            lay(s(c, "atom_src_tv"))
        }
        .mode(1)
        .unwrap()
        .size();
        if tv.mode(1).unwrap().size() % reference_vals != 0 {
            let e = built.expect_err(name);
            assert!(
                e.to_string()
                    .contains("values per thread must be a multiple"),
                "{name}: {e}"
            );
            refused += 1;
            continue;
        }
        let copy = built.unwrap_or_else(|e| panic!("{name}: {e}"));
        checked += 1;
        // the DSL prints the tiler as layouts n:1 of the tile's extents
        let tiler: Vec<String> = (0..copy.tiler().rank())
            .map(|k| format!("{}:1", copy.tiler().leaf(k)))
            .collect();
        let want: Vec<String> = c["tiler"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect();
        assert_eq!(tiler, want, "{name} tiler");
        // the DSL's layout_tv_tiled keeps CuTe's (1,1) rest modes; compare as functions and sizes
        assert_eq!(copy.layout_tv().size(), tv.size(), "{name} layout_tv");
        for i in 0..tv.size() {
            assert_eq!(
                copy.layout_tv().eval(i).unwrap(),
                tv.eval(i).unwrap(),
                "{name} layout_tv({i})"
            );
        }
        assert_eq!(
            copy.get_layout_s_tv().unwrap().to_string(),
            s(c, "layout_s_tv"),
            "{name} S"
        );
        assert_eq!(
            copy.get_layout_d_tv().unwrap().to_string(),
            s(c, "layout_d_tv"),
            "{name} D"
        );
        let thr = copy.thr_slice(c["thread"].as_i64().unwrap()).unwrap();
        let data = lay(s(c, "data"));
        assert_eq!(
            partition(thr.partition_s(&data).unwrap()),
            expected(&c["partition_s"]),
            "{name} partition_S"
        );
        assert_eq!(
            partition(thr.partition_d(&data).unwrap()),
            expected(&c["partition_d"]),
            "{name} partition_D"
        );
        // get_layoutS_MN and get_layoutD_MN invert the thread-value layouts on the tile
        for (side, tv) in [
            (
                copy.get_layout_s_mn().unwrap(),
                copy.get_layout_s_tv().unwrap(),
            ),
            (
                copy.get_layout_d_mn().unwrap(),
                copy.get_layout_d_tv().unwrap(),
            ),
        ] {
            let (mn, thr) = side;
            assert_eq!(
                mn.size(),
                copy.tiler().leaves().iter().product::<i64>(),
                "{name}"
            );
            for x in 0..mn.size() {
                let y = mn.eval(x).unwrap();
                let (t, v) = (thr.eval(y % thr.size()).unwrap(), y / thr.size());
                assert_eq!(tv.eval(t + copy.size() * v).unwrap(), x, "{name} MN at {x}");
            }
        }
        if let Some(frag) = c["retile_of"].as_str() {
            assert_eq!(
                copy.retile(&lay(frag)).unwrap().to_string(),
                s(c, "retile"),
                "{name} retile"
            );
        }
    }
    assert!(
        checked >= 13 && refused <= 3,
        "{checked} checked, {refused} refused"
    );
}

#[test]
fn bad_tiled_inputs_are_errors_that_say_why() {
    let atom = mma_sm80_16x8x16(DType::F16).unwrap();
    let e =
        make_tiled_mma(&atom, &lay("(2,1,1):(1,0,0)"), &"<16,_,_>".parse().unwrap()).unwrap_err();
    assert!(e.to_string().starts_with("make_tiled_mma"), "{e}");
    assert!(make_tiled_mma(&atom, &lay("(2,1,1,2):(1,0,0,2)"), &"<_>".parse().unwrap()).is_err());
    let mma = make_tiled_mma(&atom, &lay("(2,2,1):(1,2,0)"), &"<_,_,_>".parse().unwrap()).unwrap();
    assert!(mma.thr_slice(128).is_err() && mma.thr_slice(-1).is_err());
    // 64-bit elements: each destination register of ldmatrix holds 32 bits of one row, so a 64-bit
    // element would straddle two registers; the atom does not move whole 64-bit elements
    let e = make_tiled_copy_a(&ldmatrix(4, false).unwrap(), 64, &mma).unwrap_err();
    assert!(
        e.to_string().starts_with(
            "make_tiled_copy: the atom's layouts in elements keep one mode per thread"
        ),
        "{e}"
    );
    let e = make_tiled_copy(
        &cp_async_16b().unwrap(),
        16,
        &lay("(16,8):(8,1)"),
        &lay("(1,4):(0,1)"),
    )
    .unwrap_err();
    assert!(e.to_string().contains("values"), "{e}");
}

#[test]
fn inputs_the_dsl_tiles_wrongly_are_refused() {
    let o = oracle();
    let refused = o["refused_mma"].as_array().unwrap();
    assert!(!refused.is_empty());
    for c in refused {
        let name = s(c, "name");
        // the DSL's C layout sends two threads to one element or a value outside the M×N tile
        let dsl = lay(s(c, "dsl_layout_c_tv"));
        let tile: Vec<i64> = c["dsl_tile_size"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect();
        let mut seen = std::collections::HashSet::new();
        let bijective = (0..dsl.size()).all(|i| seen.insert(dsl.eval(i).unwrap()))
            && seen.iter().all(|&x| x < tile[0] * tile[1]);
        assert!(
            !bijective,
            "{name}: the DSL's layout is a bijection onto the tile after all"
        );
        let perm: Tiler = s(c, "permutation").parse().unwrap();
        let e =
            make_tiled_mma(&mma_atom(&c["atom"]), &lay(s(c, "atom_layout")), &perm).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("multiple of the atom extent") || msg.contains("permutation of 0..size"),
            "{name}: {e}"
        );
    }
}

/// What the CuTe DSL accepts and then answers wrongly (found by comparing ~2,000 tiled values with
/// it): atom layouts that do not number the atoms one-to-one, permutations whose tiles divided atom
/// by atom are no layout, partial tiles of data, atoms that move part of an element.
#[test]
fn tiled_values_that_would_answer_wrongly_are_refused() {
    let atom = mma_sm80_16x8x16(DType::F16).unwrap();
    let whole: Tiler = "<_,_,_>".parse().unwrap();
    // two atoms share thread indices (stride 1 twice), leave gaps (stride 2), or go negative
    for bad in [
        "(2,2,1):(1,1,0)",
        "(2,1,1):(2,0,0)",
        "(2,2,1):(-1,2,0)",
        "(4,1,1):(-1,0,0)",
    ] {
        let e = make_tiled_mma(&atom, &lay(bad), &whole)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(&format!("make_tiled_mma {bad}: ")), "{e}");
        assert!(e.contains("bijection onto 0..size"), "{e}");
    }
    // a permutation of 0..48 whose atom-sized pieces (16 rows) are no layout
    let perm: Tiler = "<(8,4,3):(12,3,1),_,_>".parse().unwrap();
    let e = make_tiled_mma(&atom, &lay("(3,2,1):(1,3,0)"), &perm)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("make_tiled_mma (8,4,3):(12,3,1), 16: "),
        "{e}"
    );
    assert!(e.contains("must be a layout"), "{e}");
    let wgmma = wgmma_64xnx16(48, DType::F16).unwrap();
    let perm: Tiler = "<_,(2,2,8,2,3):(96,3,12,6,1),32>".parse().unwrap();
    let e = make_tiled_mma(&wgmma, &lay("(1,2,2):(0,1,2)"), &perm)
        .unwrap_err()
        .to_string();
    assert!(e.contains("must be a layout"), "{e}");
    // data smaller than the tile, or not a whole number of tiles: refused, not extended past it
    let mma = make_tiled_mma(&atom, &lay("(2,1,1):(1,0,0)"), &whole).unwrap();
    assert_eq!(mma.tile_shape(), (32, 8, 16));
    for (data, extent) in [("(16,16):(16,1)", 16), ("(48,16):(16,1)", 48)] {
        let e = mma
            .thr_slice(63)
            .unwrap()
            .partition_a(&lay(data))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(&format!("thrfrg_A {data}: ")), "{e}");
        assert!(e.ends_with(&format!("({extent} vs 32)")), "{e}");
    }
    let e = mma
        .thr_slice(0)
        .unwrap()
        .partition_c(&lay("(32,12):(12,1)"))
        .unwrap_err();
    assert!(e.to_string().ends_with("(12 vs 8)"), "{e}");
    assert!(mma
        .thr_slice(63)
        .unwrap()
        .partition_a(&lay("(64,32):(32,1)"))
        .is_ok());
    let copy = make_tiled_copy(
        &cp_async_16b().unwrap(),
        16,
        &lay("(16,8):(8,1)"),
        &lay("(1,8):(0,1)"),
    )
    .unwrap();
    let e = copy
        .thr_slice(127)
        .unwrap()
        .partition_s(&lay("(8,64):(64,1)"))
        .unwrap_err();
    assert!(e.to_string().starts_with("tidfrg_S (8,64):(64,1): "), "{e}");
    assert!(copy
        .thr_slice(127)
        .unwrap()
        .partition_d(&lay("(32,128):(128,1)"))
        .is_ok());
    // a 32-bit atom cannot move 64-bit elements, nor 3-bit ones
    for bits in [64, 3, 0] {
        let e = make_tiled_copy(
            &universal_copy(32).unwrap(),
            bits,
            &lay("(32,4):(1,32)"),
            &lay("(1,1):(0,0)"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.ends_with(&format!("bits per thread, element bits (32 vs {bits})")),
            "{e}"
        );
    }
}

/// The partition of a thread and the thread-value layout agree: value `v` of thread `t` in the
/// first tile of `partition_C(data)` is `data(layout_c_tv(t, v))`, for every thread and value.
#[test]
fn partitions_agree_with_the_thread_value_layouts() {
    let o = oracle();
    let mmas = build_mmas(&o);
    for c in o["mma"].as_array().unwrap() {
        let name = s(c, "name");
        let mma = &mmas[name];
        let (tm, tn, _) = mma.tile_shape();
        let data = Layout::flat(&[tm, tn], &[tn, 1]).unwrap(); // one row-major tile
        let tv = mma.get_layout_c_tv().unwrap();
        let threads = tv.mode(0).unwrap().size();
        assert_eq!(threads, mma.size(), "{name}");
        let values = tv.mode(1).unwrap().size();
        let mut covered = vec![false; (tm * tn) as usize];
        for t in 0..threads {
            let (frag, off) = mma.thr_slice(t).unwrap().partition_c(&data).unwrap();
            assert_eq!(frag.size(), values, "{name} thread {t}");
            for v in 0..values {
                let x = tv.eval(t + threads * v).unwrap();
                let want = data.eval(x).unwrap();
                assert_eq!(
                    off + frag.eval(v).unwrap(),
                    want,
                    "{name} thread {t} value {v}"
                );
                covered[x as usize] = true;
            }
        }
        assert!(covered.iter().all(|&b| b), "{name}: C is not covered");
    }
}

/// With atoms along K, every thread's partition of C is what `get_layout_c_tv_every_k` gives it:
/// the cells of its partner in the first atom along K, whose thread-value layout
/// `get_layout_c_tv` reads as CuTe's does.
#[test]
fn threads_of_atoms_along_k_partition_the_cells_of_the_first() {
    let atom = mma_sm80_16x8x16(DType::F16).unwrap();
    for atoms in ["(2,2,2):(1,2,4)", "(2,1,2):(2,0,1)", "(1,1,4):(0,0,1)"] {
        let mma = make_tiled_mma(&atom, &lay(atoms), &"<_,_,_>".parse().unwrap()).unwrap();
        let (tm, tn, _) = mma.tile_shape();
        let data = Layout::flat(&[tm, tn], &[tn, 1]).unwrap();
        let (every, first) = (
            mma.get_layout_c_tv_every_k().unwrap(),
            mma.get_layout_c_tv().unwrap(),
        );
        let threads = mma.size();
        assert_eq!(every.mode(0).unwrap().size(), threads, "{atoms}");
        let values = every.mode(1).unwrap().size();
        let thr = mma.thr_layout_vmnk();
        for t in 0..threads {
            let [v, m, n, _] = mma.thr_slice(t).unwrap().vmnk();
            let crd: cute::IntTuple = format!("({v},{m},{n},0)").parse().unwrap();
            let partner = thr.eval_crd(&crd).unwrap();
            let (frag, off) = mma.thr_slice(t).unwrap().partition_c(&data).unwrap();
            for x in 0..values {
                let cell = every.eval(t + threads * x).unwrap();
                assert!(cell < tm * tn, "{atoms} thread {t} value {x}");
                assert_eq!(
                    cell,
                    first.eval(partner + threads * x).unwrap(),
                    "{atoms} thread {t}"
                );
                assert_eq!(
                    off + frag.eval(x).unwrap(),
                    data.eval(cell).unwrap(),
                    "{atoms} thread {t}"
                );
            }
        }
    }
}

/// `get_layoutC_MN` (and A, B), what `print_latex` draws, inverts the thread-value layouts: the
/// thread and value it names for `(m, n)` hold `(m, n)` in `get_layoutC_TV`.
#[test]
fn mn_layouts_invert_the_thread_value_layouts() {
    let o = oracle();
    let mmas = build_mmas(&o);
    for c in o["mma"].as_array().unwrap() {
        let name = s(c, "name");
        let mma = &mmas[name];
        let (tm, tn, tk) = mma.tile_shape();
        let cases = [
            (
                mma.get_layout_a_mk().unwrap(),
                mma.get_layout_a_tv().unwrap(),
                tm,
                tk,
                "A",
            ),
            (
                mma.get_layout_b_nk().unwrap(),
                mma.get_layout_b_tv().unwrap(),
                tn,
                tk,
                "B",
            ),
            (
                mma.get_layout_c_mn().unwrap(),
                mma.get_layout_c_tv().unwrap(),
                tm,
                tn,
                "C",
            ),
        ];
        for ((mn, thr), tv, rows, cols, op) in cases {
            assert_eq!(mn.size(), rows * cols, "{name} {op}");
            let threads = tv.mode(0).unwrap().size();
            for x in 0..rows * cols {
                let y = mn.eval(x).unwrap();
                let (t, v) = (thr.eval(y % thr.size()).unwrap(), y / thr.size());
                assert_eq!(tv.eval(t + threads * v).unwrap(), x, "{name} {op} at {x}");
            }
        }
    }
}

#[test]
fn nested_or_oversized_permutations_are_refused() {
    let atom = mma_sm80_16x8x16(DType::F16).unwrap();
    let al = lay("(2,2,1):(1,2,0)");
    for p in ["<_,<8,2>,_>", "<32,16,16,8>", "32:1"] {
        let e = make_tiled_mma(&atom, &al, &p.parse().unwrap()).unwrap_err();
        assert!(e.to_string().contains("permutation"), "{p}: {e}");
    }
}

#[test]
fn permutation_tiles_are_decided_from_their_leaves() {
    let atom = cute::atom::mma_sm80_16x8x16(cute::atom::DType::F16).unwrap();
    let one: Layout = "1:0".parse().unwrap();
    let t = |s: &str| -> Tiler { s.parse().unwrap() };
    // a tile of 2^32 elements is decided without enumerating it (it once allocated 4 GiB)
    let big = make_tiled_mma(&atom, &one, &t("<4294967296:1,_,_>")).unwrap();
    assert_eq!(big.tile_size(0).unwrap(), 1 << 32);
    // modes permuted: a bijection of 0..16
    assert!(make_tiled_mma(&atom, &one, &t("<(4,4):(4,1),_,_>")).is_ok());
    assert!(make_tiled_mma(&atom, &one, &t("<(2,8):(8,1),_,_>")).is_ok());
    // gaps, repeats and negative strides are not permutations
    for bad in [
        "<(4,4):(1,8),_,_>",
        "<(4,4):(1,2),_,_>",
        "<(4,4):(0,1),_,_>",
        "<(16):(-1),_,_>",
    ] {
        let e = make_tiled_mma(&atom, &one, &t(bad))
            .unwrap_err()
            .to_string();
        assert!(e.contains("permutation of 0..size"), "{bad}: {e}");
    }
}
