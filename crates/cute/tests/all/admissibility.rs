//! Vector width (the paper's Figure 8, reconstructed) and containment through the left inverse
//! (the TMEM example, with the tcgen05 access layouts reconstructed from the PTX ISA), each answer
//! checked against brute force over the layouts' values.

use super::gen::*;
use cute::{contains, max_common_layout, max_common_vector, tmem_16x256b, tmem_32x32b, Layout};
use proptest::prelude::any;
use std::collections::HashMap;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

/// Figure 8: the two pairs agree at the offsets k ∈ {0,1} (width 2) and k ∈ {0,1,2,3} at the
/// coordinates {0,2,8,10} (width 4). The figure's layouts are not in the translation; these pairs
/// are built from the values the text states.
#[test]
fn figure_8_vector_widths() {
    let (a, b) = (l("(4,4):(1,4)"), l("((2,2),4):((1,8),2)"));
    assert_eq!(max_common_vector(&a, &b).unwrap(), 2);
    assert_eq!(max_common_layout(&a, &b).unwrap().to_string(), "2:1");
    let (a, b) = (
        l("((2,2),(2,2)):((4,1),(8,2))"),
        l("((2,2),(2,2)):((8,1),(4,2))"),
    );
    assert_eq!(max_common_vector(&a, &b).unwrap(), 4);
    let r = max_common_layout(&a, &b).unwrap();
    assert_eq!(r.to_string(), "(2,2):(2,8)");
    let coords: Vec<i64> = (0..4).map(|k| r.eval(k).unwrap()).collect();
    assert_eq!(coords, [0, 2, 8, 10]);
    for (k, &c) in coords.iter().enumerate() {
        assert_eq!(
            (a.eval(c).unwrap(), b.eval(c).unwrap()),
            (k as i64, k as i64)
        );
    }
}

/// Brute force: the offsets of `t` that `a` reaches, and at which coordinate.
fn brute(a: &Layout, t: &Layout) -> (Option<(i64, i64)>, Vec<i64>) {
    let mut at: HashMap<i64, i64> = HashMap::new();
    for c in (0..a.size()).rev() {
        at.insert(a.eval(c).unwrap(), c);
    }
    let mut coords = Vec::new();
    for i in 0..t.size() {
        let off = t.eval(i).unwrap();
        match at.get(&off) {
            Some(&c) => coords.push(c),
            None => return (Some((i, off)), coords),
        }
    }
    (None, coords)
}

#[test]
fn tmem_containment() {
    let t32 = tmem_32x32b(1).unwrap();
    let t16 = tmem_16x256b(1).unwrap();
    assert_eq!(t32.size(), 128);
    assert_eq!(t16.size(), 512);
    for (data, instr, ok) in [
        ("(128,256):(16384,1)", &t32, true),
        ("(128,256):(16384,1)", &t16, true),
        ("(64,256):(16384,1)", &t32, false),
        ("((16,4),256):((16384,524288),1)", &t16, true),
        ("((16,4),256):((16384,524288),1)", &t32, false),
        ("(128,(2,128)):(16384,(1,4))", &t16, false),
        (
            "(128,(2,128)):(16384,(1,4))",
            &tmem_32x32b(2).unwrap(),
            true,
        ),
    ] {
        let a = l(data);
        let c = contains(&a, instr).unwrap();
        assert_eq!(c.contained(), ok, "{data} ⊇ {instr}");
        let (missing, coords) = brute(&a, instr);
        assert_eq!(c.missing, missing, "{data} ⊇ {instr}");
        assert_eq!(c.coords, coords, "{data} ⊇ {instr}");
        if let Some(m) = c.layout {
            for (i, &x) in coords.iter().enumerate() {
                assert_eq!(m.eval(i as i64).unwrap(), x);
            }
        }
    }
    let acc = l("(128,256):(16384,1)");
    assert_eq!(
        contains(&acc, &t32).unwrap().layout.unwrap().to_string(),
        "((32,4),1):((1,32),1)"
    );
}

/// Containment agrees with brute force on random pairs, half of them with an instruction layout
/// made of the data layout's own offsets (a mode of it, or its composition with a permutation).
#[test]
fn containment_matches_brute_force() {
    let (yes, no) = (std::cell::Cell::new(0u32), std::cell::Cell::new(0u32));
    run(600, (layout(), layout(), any::<bool>()), |(a, t, own)| {
        if a.cosize().unwrap() > 1 << 14 {
            return Ok(());
        }
        let t = if own {
            let m = if a.is_leaf() {
                a
            } else {
                a.mode(a.rank() - 1).unwrap()
            };
            cute::coalesce(&m)
        } else {
            t
        };
        let Ok(c) = contains(&a, &t) else {
            return Ok(());
        };
        let (missing, coords) = brute(&a, &t);
        proptest::prop_assert_eq!(c.missing.is_none(), missing.is_none(), "{} ⊇ {}", a, t);
        if missing.is_none() {
            // the left inverse may pick another coordinate of the same offset (a not injective)
            for (i, &x) in c.coords.iter().enumerate() {
                proptest::prop_assert_eq!(a.eval(x).unwrap(), t.eval(i as i64).unwrap());
            }
            proptest::prop_assert_eq!(c.coords.len(), coords.len());
            yes.set(yes.get() + 1);
        } else {
            no.set(no.get() + 1);
        }
        Ok(())
    });
    assert!(
        yes.get() > 50 && no.get() > 50,
        "{} contained, {} not",
        yes.get(),
        no.get()
    );
}
