//! Slicing with partial coordinates and partitioning: the table of `slice`/`dice`, the defining
//! law `L(c) = L(c') + slice(c, L)(c*)` on random layouts and coordinates, the paper's Table 4
//! partitions thread by thread, `make_layout_tv`'s law and CuTe DSL's example, `local_tile` and
//! `local_partition` against their index arithmetic, counting and identity tensors.

use super::gen::*;
use cute::tensor::CountingTensor;
use cute::{
    dice, local_partition, local_tile, make_layout_tv, slice, slice_and_offset, thread_coord,
    tv_partition, IntTuple, Layout, PartialCoord, Tensor, Tiler,
};
use proptest::prelude::*;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}
fn pc(s: &str) -> PartialCoord {
    s.parse().unwrap()
}

#[test]
fn slice_and_dice_table() {
    for (lay, c, free, off, fixed) in [
        ("(4,8):(1,4)", "(2,_)", "(8):(4)", 2, "(4):(1)"),
        ("(4,8):(1,4)", "(_,3)", "(4):(1)", 12, "(8):(4)"),
        (
            "((2,3),4):((1,2),6)",
            "((_,1),_)",
            "(2,4):(1,6)",
            2,
            "(3):(2)",
        ),
        (
            "((2,3),4):((1,2),6)",
            "(4,_)",
            "(4):(6)",
            4,
            "((2,3)):((1,2))",
        ),
        (
            "(6,(2,3,2)):(1,(6,15,100))",
            "(0,(0,_,_))",
            "(3,2):(15,100)",
            0,
            "(6,2):(1,6)",
        ),
        ("(4,8):(1,4)", "_", "(4,8):(1,4)", 0, "1:0"),
        ("(4,8):(1,4)", "(3,7)", "1:0", 31, "(4,8):(1,4)"),
        ("(4,8):(1,4)", "13", "1:0", 13, "(4,8):(1,4)"),
        ("(4,8):(-1,4)", "(3,_)", "(8):(4)", -3, "(4):(-1)"),
    ] {
        let (s, o) = slice_and_offset(&l(lay), &pc(c)).unwrap();
        assert_eq!(
            (s.to_string(), o),
            (free.to_string(), off),
            "slice {c} of {lay}"
        );
        assert_eq!(slice(&l(lay), &pc(c)).unwrap(), s);
        assert_eq!(
            dice(&l(lay), &pc(c)).unwrap().to_string(),
            fixed,
            "dice {c} of {lay}"
        );
    }
}

#[test]
fn partial_coordinates_print_and_parse() {
    for s in ["_", "3", "(2,_)", "((_,1),_)", "(0,(0,_,_))", "(-1,_)"] {
        assert_eq!(pc(s).to_string(), s);
    }
    assert!(pc("(2,_)").get(1).unwrap().is_free());
    assert!(!pc("(2,_)").is_fixed());
    assert!(pc("(2,3)").is_fixed());
    assert!("(2,".parse::<PartialCoord>().is_err());
}

#[test]
fn slice_errors_name_the_condition() {
    let e = slice(&l("(4,8):(1,4)"), &pc("(4,_)")).unwrap_err();
    assert_eq!(e.category(), "OutOfRange");
    assert_eq!(
        e.to_string(),
        "slice (4,8):(1,4), (4,_): coordinate 4 is outside the domain Z_4"
    );
    let e = slice(&l("(4,8):(1,4)"), &pc("((0,_),_)")).unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
    assert!(
        e.to_string().contains(
            "a tuple entry of the slicing coordinate meets a single mode, where an integer or `_` \
             goes (the entry's rank, the mode's depth) (2 vs 0)"
        ),
        "{e}"
    );
    let e = slice(&l("((2,2),8):((1,2),4)"), &pc("((0,_,1),_)")).unwrap_err();
    assert!(
        e.to_string()
            .contains("must meet a mode of the same rank (3 vs 2)"),
        "{e}"
    );
    let e = slice(&l("(4,8):(1,4)"), &pc("(0,_,1)")).unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
    // coordinate strides: the sub-layout keeps them; only the integer offset is refused
    // (slice_and_value gives the offset as an arithmetic tuple)
    assert_eq!(
        slice(&l("(4,8):(1@0,1@1)"), &pc("(1,_)"))
            .unwrap()
            .to_string(),
        "(8):(1@1)"
    );
    assert_eq!(
        cute::slice_offset(&l("(4,8):(1@0,1@1)"), &pc("(1,_)"))
            .unwrap_err()
            .category(),
        "Unsupported"
    );
}

/// The defining law of slicing on random layouts: fixing some top-level modes at random integer
/// coordinates and leaving the others free, `L(c) = L(c') + slice(c, L)(c*)` for every completion.
#[test]
fn slicing_law_on_random_layouts() {
    run(300, (layout(), any::<u64>()), |(lay, seed)| {
        let mut rng = Rng(seed);
        let r = lay.rank();
        if lay.is_leaf() {
            return Ok(());
        }
        let modes: Vec<Layout> = (0..r).map(|k| lay.mode(k).unwrap()).collect();
        let mut entries = Vec::new();
        let mut fixed = Vec::new();
        for m in &modes {
            let n = m.size();
            if rng.below(2) == 0 {
                let v = rng.below(n as usize) as i64;
                entries.push(PartialCoord::fixed(&IntTuple::int(v)));
                fixed.push(Some(v));
            } else {
                entries.push(PartialCoord::FREE);
                fixed.push(None);
            }
        }
        let c = PartialCoord::tuple(&entries).unwrap();
        let (sub, off) = slice_and_offset(&lay, &c).unwrap();
        let free_sizes: Vec<i64> = modes
            .iter()
            .zip(&fixed)
            .filter(|(_, f)| f.is_none())
            .map(|(m, _)| m.size())
            .collect();
        prop_assert_eq!(sub.size(), free_sizes.iter().product::<i64>());
        for j in 0..sub.size() {
            let d = digits(&free_sizes, j);
            let mut it = d.iter();
            let full: Vec<IntTuple> = fixed
                .iter()
                .map(|f| IntTuple::int(f.unwrap_or_else(|| *it.next().unwrap())))
                .collect();
            let full = IntTuple::tuple(&full).unwrap();
            prop_assert_eq!(
                lay.eval_crd(&full).unwrap(),
                off + sub.eval(j).unwrap(),
                "{} at {} (slice {} → {} + {})",
                lay,
                full,
                c,
                sub,
                off
            );
        }
        Ok(())
    });
}

/// The paper's Table 4: the thread-value layout `((4,8),2):((16,1),8)` of the Ampere FP64 MMA on
/// four 8×8 data layouts, partitioned thread by thread: thread t's value v is data(tv(t, v)).
#[test]
fn table_4_partitions_thread_by_thread() {
    let tv = l("((4,8),2):((16,1),8)");
    for (data, composed) in [
        ("(8,8):(1,8)", "((4,8),2):((16,1),8)"),
        ("(8,8):(8,1)", "((4,8),2):((2,8),1)"),
        ("(8,8):(1,9)", "((4,8),2):((18,1),9)"),
        (
            "((4,2),(2,4)):((2,16),(1,8))",
            "((4,(4,2)),2):((8,(2,16)),1)",
        ),
    ] {
        let d = l(data);
        assert_eq!(cute::composition(&d, &tv).unwrap().to_string(), composed);
        let storage: Vec<i64> = (0..d.cosize().unwrap()).map(|k| 1000 + k).collect();
        let t = Tensor::new(&storage[..], d).unwrap();
        for thread in 0..32 {
            let (vals, off) = tv_partition(&d, &tv, thread).unwrap();
            assert_eq!(vals.size(), 2);
            let part = t.partition_tv(&tv, thread).unwrap();
            for v in 0..2 {
                let want = d.eval(tv.eval(thread + 32 * v).unwrap()).unwrap();
                assert_eq!(off + vals.eval(v).unwrap(), want, "{data} t={thread} v={v}");
                assert_eq!(*part.get(v).unwrap(), 1000 + want);
            }
        }
    }
    // the thread index must lie in the thread mode
    let e = tv_partition(&l("(8,8):(8,1)"), &tv, 32).unwrap_err();
    assert_eq!(e.category(), "OutOfRange");
}

/// CuTe DSL's `make_layout_tv`: the law `layout_mn(tv(t, v)) = t + size(thr)·v` with
/// `layout_mn = raked_product(thr, val)`, and the tile it covers.
#[test]
fn make_layout_tv_law_and_example() {
    // CuTe DSL's elementwise example: 4×32 threads (row-major), 4×4 values each (row-major)
    let (tiler, tv) = make_layout_tv(&l("(4,32):(32,1)"), &l("(4,4):(4,1)")).unwrap();
    assert_eq!(tiler.to_string(), "(16,128)");
    assert_eq!(tv.to_string(), "((32,4),(4,4)):((64,4),(16,1))");
    for (thr, val) in [
        ("(4,32):(32,1)", "(4,4):(4,1)"),
        ("(8,4):(1,8)", "(2,2):(1,2)"),
        ("(2,(2,4)):(8,(1,2))", "(3,1):(1,3)"),
        ("32:1", "4:1"),
    ] {
        let (thr, val) = (l(thr), l(val));
        let (tiler, tv) = make_layout_tv(&thr, &val).unwrap();
        let mn = cute::raked_product(&thr, &val).unwrap();
        let (nt, nv) = (thr.size(), val.size());
        assert_eq!(tiler.size().unwrap(), nt * nv);
        for t in 0..nt {
            for v in 0..nv {
                assert_eq!(mn.eval(tv.eval(t + nt * v).unwrap()).unwrap(), t + nt * v);
            }
        }
    }
    // a thread layout that is not compact has no such tile
    let e = make_layout_tv(&l("4:0"), &l("2:1")).unwrap_err();
    assert!(e.to_string().contains("must be a bijection"), "{e}");
}

#[test]
fn local_tile_is_the_tile_at_a_block_coordinate() {
    // a 64×128 column-major matrix in 32×64 tiles
    let data = l("(64,128):(1,64)");
    let tiler = Tiler::from_shape(&"(32,64)".parse().unwrap()).unwrap();
    for (bx, by) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        let c = PartialCoord::fixed(&IntTuple::flat(&[bx, by]).unwrap());
        let (tile, off) = local_tile(&data, &tiler, &c).unwrap();
        assert_eq!(tile.to_string(), "(32,64):(1,64)");
        for i in 0..32 {
            for j in 0..64 {
                let crd = IntTuple::flat(&[i, j]).unwrap();
                let want = data
                    .eval_crd(&IntTuple::flat(&[32 * bx + i, 64 * by + j]).unwrap())
                    .unwrap();
                assert_eq!(off + tile.eval_crd(&crd).unwrap(), want);
            }
        }
    }
    // a free block coordinate keeps the tiles: (32,64,2) for all tiles of column-block 1
    let (tiles, off) = local_tile(&data, &tiler, &pc("(_,1)")).unwrap();
    assert_eq!(
        (tiles.to_string(), off),
        ("(32,64,2):(1,64,32)".to_string(), 4096)
    );
}

#[test]
fn local_partition_gives_each_thread_its_elements_of_every_tile() {
    // CuTe's comment example: a (16,64) tensor over a (2,16) thread layout gives (8,4) per thread
    let data = l("(16,64):(1,16)");
    for thr in ["(2,16):(1,2)", "(2,16):(16,1)"] {
        let thr = l(thr);
        for t in 0..32 {
            let (part, off) = local_partition(&data, &thr, t).unwrap();
            assert_eq!(part.shape().to_string(), "(8,4)");
            let c = thread_coord(&thr, t).unwrap();
            let (t0, t1) = (
                c.get(0).unwrap().as_int().unwrap(),
                c.get(1).unwrap().as_int().unwrap(),
            );
            // the thread's coordinate is where the thread layout takes the value t
            assert_eq!(thr.eval_crd(&c).unwrap(), t);
            for i in 0..8 {
                for j in 0..4 {
                    let want = data
                        .eval_crd(&IntTuple::flat(&[t0 + 2 * i, t1 + 16 * j]).unwrap())
                        .unwrap();
                    let got = off + part.eval_crd(&IntTuple::flat(&[i, j]).unwrap()).unwrap();
                    assert_eq!(got, want, "thread {t}");
                }
            }
        }
    }
    assert_eq!(
        local_partition(&data, &l("(2,16):(1,2)"), 32)
            .unwrap_err()
            .category(),
        "OutOfRange"
    );
}

/// The paper's Figure 5, reconstructed: a 6×12 tensor with the counting accessor `{a}`, sliced to
/// a row, a column and sub-matrices; `A(0,0:2:12)` is the partial-coordinate slice `(0,(0,_,_))`.
#[test]
fn figure_5_slices_of_a_counting_tensor() {
    let a = CountingTensor::new(0, l("(6,(2,3,2)):(1,(6,15,100))"));
    let offs = |t: &CountingTensor| -> Vec<String> {
        t.values().unwrap().iter().map(|v| v.to_string()).collect()
    };
    let every_other = a.slice(&pc("(0,(0,_,_))")).unwrap();
    assert_eq!(every_other.layout().to_string(), "(3,2):(15,100)");
    assert_eq!(every_other.origin().to_string(), "0");
    assert_eq!(offs(&every_other), ["0", "15", "30", "100", "115", "130"]);
    let row = a.slice(&pc("(2,_)")).unwrap();
    assert_eq!(row.layout().to_string(), "((2,3,2)):((6,15,100))");
    assert_eq!(row.get(1).unwrap().to_string(), "8");
    let col = a.slice(&pc("(_,5)")).unwrap();
    assert_eq!(
        (col.layout().to_string(), col.origin().to_string()),
        ("(6):(1)".into(), "36".into())
    );
    let sub = a.slice(&pc("(_,(1,_,1))")).unwrap();
    assert_eq!(sub.layout().to_string(), "(6,3):(1,15)");
    assert_eq!(sub.origin().to_string(), "106");
    // every other row cannot be taken from the flat row mode
    assert!(a.slice(&pc("((0,_),0)")).is_err());
}

#[test]
fn identity_tensors_give_coordinates() {
    let id = CountingTensor::identity(&"(4,(2,3))".parse().unwrap()).unwrap();
    assert_eq!(id.get(0).unwrap().to_string(), "0");
    assert_eq!(id.get(5).unwrap().to_string(), "(1,(1,0))");
    assert_eq!(
        id.get_crd(&"(3,5)".parse().unwrap()).unwrap().to_string(),
        "(3,(1,2))"
    );
    assert_eq!(id.get(24), None);
    // a tile of an identity tensor: the coordinates of the tile's elements in the whole tensor
    let t = id.compose(&l("(2,6):(1,4)")).unwrap();
    assert_eq!(t.get(7).unwrap().to_string(), "(1,(1,1))");
    let s = id.slice(&pc("(2,_)")).unwrap();
    assert_eq!(s.origin().to_string(), "2@0");
    assert_eq!(s.get(3).unwrap().to_string(), "(2,(1,1))");
}

/// `coord` prints every element of an identity tensor in one form: the coordinate congruent to
/// the shape, equal to `idx2crd(i, shape)` (zero and one-term values included), also after
/// slicing and composing; `None` past the domain and for an integer counting tensor.
#[test]
fn identity_tensor_coordinates_in_one_form() {
    for shape in [
        "4",
        "(3)",
        "(4,6)",
        "((2,2),3)",
        "(1,(2,1),3)",
        "((2,(3,2)),(1,4))",
    ] {
        let shape: cute::IntTuple = shape.parse().unwrap();
        let id = CountingTensor::identity(&shape).unwrap();
        let n = shape.size().unwrap();
        for i in 0..n {
            let want = cute::idx2crd(&cute::IntTuple::int(i), &shape).unwrap();
            assert_eq!(id.coord(i), Some(want), "{shape} at {i}");
        }
        assert_eq!(id.coord(n), None);
    }
    let id = CountingTensor::identity(&"(4,(2,3))".parse().unwrap()).unwrap();
    let s = id.slice(&pc("(_,(1,_))")).unwrap();
    let got: Vec<String> = (0..12).map(|i| s.coord(i).unwrap().to_string()).collect();
    assert_eq!(got[0], "(0,(1,0))");
    assert_eq!(got[5], "(1,(1,1))");
    let t = id.compose(&l("(2,6):(1,4)")).unwrap();
    assert_eq!(t.coord(0).unwrap().to_string(), "(0,(0,0))");
    assert_eq!(t.coord(7).unwrap().to_string(), "(1,(1,1))");
    assert_eq!(CountingTensor::new(0, l("4:1")).coord(1), None);
}

#[test]
fn tensor_slices_write_through() {
    let mut buf = [0i32; 32];
    let mut t = Tensor::new(&mut buf[..], l("(4,8):(8,1)")).unwrap();
    {
        let mut col = t.slice_mut(&pc("(_,5)")).unwrap();
        for i in 0..4 {
            *col.get_mut(i).unwrap() = 1 + i as i32;
        }
    }
    let row = t.slice(&pc("(2,_)")).unwrap();
    assert_eq!(
        row.iter().copied().collect::<Vec<_>>(),
        [0, 0, 0, 0, 0, 3, 0, 0]
    );
    assert_eq!(buf[5], 1);
    assert_eq!(buf[3 * 8 + 5], 4);
}

#[test]
fn partial_coordinates_refuse_malformed_text() {
    for bad in ["_3", "(1_,2)", "(__)", "(2,_ 3)", "3_"] {
        let e = bad.parse::<PartialCoord>().unwrap_err();
        assert_eq!(e.category(), "Syntax", "{bad}");
    }
    assert_eq!(pc("( _ , 2 )").to_string(), "(_,2)");
}
