//! Hierarchical tuples, coordinates and layouts: the paper's definitions and worked examples
//! (EXAMPLES.md ids in the test names).

use cute::{
    compact_col_major, compact_row_major, crd2crd, crd2idx, idx2crd, make_ordered_layout, IntTuple,
    Layout,
};

fn t(s: &str) -> IntTuple {
    s.parse().unwrap()
}
fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

#[test]
fn htuple_rank_depth_size() {
    // paper: 31, (16,32), (3,-8,7), (2,(4,1),-1), ((4,6),(3,(2,2),8)) are HTuple(Z)
    let cases = [
        ("31", 1, 0),
        ("(16,32)", 2, 1),
        ("(3,-8,7)", 3, 1),
        ("(2,(4,1),-1)", 3, 2),
        ("((4,6),(3,(2,2),8))", 2, 3),
    ];
    for (s, rank, depth) in cases {
        assert_eq!((t(s).rank(), t(s).depth()), (rank, depth), "{s}");
    }
    assert_eq!(
        t("((4,6),(3,(2,2),8))").size().unwrap(),
        4 * 6 * 3 * 2 * 2 * 8
    );
    assert_eq!(t("(2,(3,4))").prefix_product().unwrap(), t("(1,(2,6))"));
    assert_eq!(t("(2,(3,4),5)").product_each().unwrap(), t("(2,12,5)"));
}

#[test]
fn s_cong_congruence() {
    assert!(t("(4,8)").congruent(&t("(5,7)"))); // S-CONG-1
    assert!(t("(4,(2,4))").congruent(&t("(7,(3,2))"))); // S-CONG-2
    assert!(t("(9,((1,3)))").congruent(&t("(0,((0,0)))"))); // S-CONG-3, v:=9, p:=1
    assert!(!t("(4,8)").congruent(&t("(4,(2,4))"))); // S-CONG-4
    assert!(!t("(4,(2,4))").congruent(&t("(0,((0,0)))"))); // S-CONG-5
}

#[test]
fn s_wcong_weak_congruence() {
    assert!(t("30").weakly_congruent(&t("(2,3)"))); // S-WCONG-1
    assert!(t("(2,3)").weakly_congruent(&t("(5,(0,7))"))); // S-WCONG-2
    assert!(t("30").weakly_congruent(&t("(2,3,5)"))); // S-WCONG-3
    assert!(t("(2,3,5)").weakly_congruent(&t("((0,0),0,0)"))); // S-WCONG-4
    assert!(
        !t("(2,3)").weakly_congruent(&t("(2,3,5)")) && !t("(2,3,5)").weakly_congruent(&t("(2,3)"))
    ); // S-WCONG-5
    let (a, b) = (t("(5,(0,7))"), t("((0,0),0)"));
    assert!(!a.weakly_congruent(&b) && !b.weakly_congruent(&a)); // S-WCONG-6
}

#[test]
fn s_compat_compatibility() {
    assert!(t("30").compatible(&t("(2,15)"))); // S-COMPAT-1
    assert!(t("(2,15)").compatible(&t("(2,(3,5))"))); // S-COMPAT-2
    assert!(t("30").compatible(&t("(6,5)"))); // S-COMPAT-3
    assert!(t("(6,5)").compatible(&t("((3,2),5)"))); // S-COMPAT-4
    let (a, b) = (t("(2,(3,5))"), t("((3,2),5)"));
    assert!(!a.compatible(&b) && !b.compatible(&a)); // S-COMPAT-5
    assert!(t("30").compatible(&a) && t("30").compatible(&b)); // S-COMPAT-6
    assert!(!t("31").compatible(&t("(2,15)")));
}

#[test]
fn s_crd_coordinate_sets_are_colexicographic() {
    // S-CRD-2: Z_(3,4) = {(0,0),(1,0),(2,0),(0,1),...,(2,3)}
    let s = t("(3,4)");
    let got: Vec<IntTuple> = (0..12)
        .map(|i| idx2crd(&IntTuple::int(i), &s).unwrap())
        .collect();
    let want: Vec<IntTuple> = (0..4)
        .flat_map(|j| (0..3).map(move |i| t(&format!("({i},{j})"))))
        .collect();
    assert_eq!(got, want);
    // S-CRD-3: Z_((2,1),3)
    let s = t("((2,1),3)");
    let got: Vec<String> = (0..6)
        .map(|i| idx2crd(&IntTuple::int(i), &s).unwrap().to_string())
        .collect();
    assert_eq!(
        got,
        [
            "((0,0),0)",
            "((1,0),0)",
            "((0,0),1)",
            "((1,0),1)",
            "((0,0),2)",
            "((1,0),2)"
        ]
    );
}

#[test]
fn idx2crd_crd2idx_are_inverse_in_bounds_and_extend_the_last_mode() {
    let s = t("((2,3),(4,5))");
    let d = s.prefix_product().unwrap();
    for i in 0..120 {
        let c = idx2crd(&IntTuple::int(i), &s).unwrap();
        assert!(c.congruent(&s));
        assert_eq!(crd2idx(&c, &s, &d).unwrap(), i);
    }
    // out of bounds: the last mode is not reduced (conformance: idx2crd 36 (5,4) -> (1,7))
    assert_eq!(idx2crd(&t("36"), &t("(5,4)")).unwrap(), t("(1,7)"));
    assert_eq!(idx2crd(&t("130"), &s).unwrap(), t("((0,2),(1,5))"));
    // partially collapsed coordinates: (i,(j,k)) against ((2,3),(4,5))
    assert_eq!(idx2crd(&t("(4,(1,2))"), &s).unwrap(), t("((0,2),(1,2))"));
    // crd2crd between compatible shapes
    assert_eq!(
        crd2crd(&t("(2,5)"), &t("(4,8)"), &t("((2,2),(4,2))")).unwrap(),
        t("((0,1),(1,1))")
    );
}

#[test]
fn s_eval_layout_evaluation() {
    // S-EVAL-1..3: L(22) = L(2,5) = L((0,1),(1,1)) = 26
    let a = l("((2,2),(4,2)):((1,8),(2,16))");
    assert_eq!(a.eval(22).unwrap(), 26);
    assert_eq!(idx2crd(&t("22"), &t("(4,8)")).unwrap(), t("(2,5)"));
    assert_eq!(a.eval_crd(&t("(2,5)")).unwrap(), 26);
    assert_eq!(idx2crd(&t("22"), &a.shape()).unwrap(), t("((0,1),(1,1))"));
    assert_eq!(a.eval_crd(&t("((0,1),(1,1))")).unwrap(), 26);
    // integer, ND and natural coordinates agree everywhere
    let shp = a.shape();
    let nd = t("(4,8)");
    for i in 0..32 {
        let natural = idx2crd(&IntTuple::int(i), &shp).unwrap();
        let two_d = idx2crd(&IntTuple::int(i), &nd).unwrap();
        assert_eq!(a.eval(i).unwrap(), a.eval_crd(&natural).unwrap());
        assert_eq!(a.eval(i).unwrap(), a.eval_crd(&two_d).unwrap());
    }
    // a coordinate that is not weakly congruent is refused
    assert_eq!(
        a.eval_crd(&t("(1,2,3)")).unwrap_err().category(),
        "ProfileMismatch"
    );
}

#[test]
fn s_id_identity_layouts() {
    for s in ["24:1", "(4,6):(1,4)", "(3,(4,2)):(1,(3,12))"] {
        let a = l(s);
        assert!((0..24).all(|i| a.eval(i).unwrap() == i), "{s} is I_24");
    }
}

#[test]
fn layout_accessors_and_sublayouts() {
    let a = l("((2,2),(4,2)):((1,8),(2,16))");
    assert_eq!(
        (a.rank(), a.depth(), a.size(), a.cosize().unwrap()),
        (2, 2, 32, 32)
    );
    assert_eq!(a.mode(1).unwrap(), l("(4,2):(2,16)"));
    assert_eq!(a.get(&[0, 1]).unwrap(), l("2:8"));
    assert_eq!(a.shape(), t("((2,2),(4,2))"));
    assert_eq!(a.stride(), t("((1,8),(2,16))"));
    assert_eq!(a.flatten(), l("(2,2,4,2):(1,8,2,16)"));
    assert_eq!(a.flatten().unflatten(&a.shape()).unwrap(), a);
    assert_eq!(a.reverse().unwrap(), l("((4,2),(2,2)):((2,16),(1,8))"));
    assert_eq!(a.take(1, 2).unwrap(), l("((4,2)):((2,16))"));
    assert_eq!(
        a.select(&[1, 0]).unwrap(),
        l("((4,2),(2,2)):((2,16),(1,8))")
    );
    assert_eq!(
        l("(2,3,4):(1,2,6)").group(0, 2).unwrap(),
        l("((2,3),4):((1,2),6)")
    );
    assert_eq!(
        l("(2,3):(1,2)").append(&l("4:6")).unwrap(),
        l("(2,3,4):(1,2,6)")
    );
    assert_eq!(l("8:1").append(&l("4:8")).unwrap(), l("(8,4):(1,8)"));
    assert_eq!(
        l("(2,3):(1,2)").prepend(&l("4:6")).unwrap(),
        l("(4,2,3):(6,1,2)")
    );
    assert_eq!(
        l("(2,3):(1,2)").replace(1, &l("(3,1):(2,0)")).unwrap(),
        l("(2,(3,1)):(1,(2,0))")
    );
    assert_eq!(
        l("(2,3):(1,2)").pad_to_rank(4).unwrap(),
        l("(2,3,1,1):(1,2,0,0)")
    );
    assert_eq!(a.mode(2).unwrap_err().category(), "OutOfRange");
    assert_eq!(l("(4,8):(1,5)").image().unwrap().len(), 32);
    assert_eq!(
        l("(4,8):(0,1)").image().unwrap(),
        (0..8).collect::<Vec<_>>()
    );
    // concatenation (paper eq. (4)): L(c) = L0(c0) + L1(c1)
    let cat = Layout::concat(&[l("(2,2):(1,8)"), l("(4,2):(2,16)")]).unwrap();
    assert_eq!(cat, a);
}

#[test]
fn compact_and_ordered_layouts() {
    assert_eq!(
        compact_col_major(&t("((4,3),4)")).unwrap(),
        l("((4,3),4):((1,4),12)")
    );
    assert_eq!(
        compact_row_major(&t("((4,3),4)")).unwrap(),
        l("((4,3),4):((12,4),1)")
    );
    assert_eq!(
        compact_col_major(&t("(1,(4,1),3)")).unwrap(),
        l("(1,(4,1),3):(0,(1,0),4)")
    );
    assert_eq!(
        make_ordered_layout(&t("(2,2,2,2)"), &t("(0,2,3,1)")).unwrap(),
        l("(2,2,2,2):(1,4,8,2)")
    );
    assert_eq!(
        make_ordered_layout(&t("(3,4,4)"), &t("(2,1,0)")).unwrap(),
        l("(3,4,4):(16,4,1)")
    );
}

#[test]
fn construction_refuses_bad_layouts() {
    let cat = |s: &str| s.parse::<Layout>().unwrap_err().category();
    assert_eq!(cat("(4,8):(1)"), "ProfileMismatch"); // S ~ D fails
    assert_eq!(cat("(4,0):(1,4)"), "InvalidShape");
    assert_eq!(cat("(4,-2):(1,4)"), "InvalidShape");
    assert_eq!(cat("(4294967296,4294967296):(1,1)"), "Overflow");
    assert_eq!(cat("99999999999999999999:1"), "Overflow");
    assert_eq!(cat("(4,8)"), "Syntax");
    assert_eq!(cat("(4,8):(1,4"), "Syntax");
    assert_eq!(cat("():()"), "Unsupported");
    let deep = format!(
        "{}1{}:{}1{}",
        "(".repeat(1000),
        ")".repeat(1000),
        "(".repeat(1000),
        ")".repeat(1000)
    );
    assert_eq!(cat(&deep), "Capacity");
    let wide = format!(
        "({}):({})",
        vec!["2"; 40].join(","),
        vec!["1"; 40].join(",")
    );
    assert_eq!(cat(&wide), "Capacity");
}

/// A stride that leaves its shape's structure is refused where it leaves it: the byte of the
/// stride's first token that differs, and what differs, in the message (and in the error, for the
/// front ends' carets); the reader of unknown extents points at the same byte.
#[test]
fn incongruent_strides_are_blamed_where_they_leave_the_shape() {
    use cute::symbolic::SymLayout;
    use cute::ErrorKind;
    for (text, pos, what) in [
        (
            "(2,3):(1,2,3)",
            10,
            "the stride's tuple has more modes than the shape's",
        ),
        (
            "(2,3,4):(1,2)",
            12,
            "the stride's tuple has fewer modes than the shape's",
        ),
        (
            "(4,8):(1,(4,2))",
            9,
            "the stride has a tuple where the shape has an integer",
        ),
        (
            "(2,(3,4)):(1,2)",
            13,
            "the stride has an integer where the shape has a tuple",
        ),
        (
            "8:(1,2)",
            2,
            "the stride has a tuple where the shape has an integer",
        ),
        (
            "(8,2):4",
            6,
            "the stride has an integer where the shape has a tuple",
        ),
        (
            "( 2 , (3,4) ) : ( 1 , ( 2 , 3 , 4 ) )",
            30,
            "the stride's tuple has more modes than the shape's",
        ),
        (
            "((2,3)):(1,2)",
            9,
            "the stride has an integer where the shape has a tuple",
        ),
    ] {
        let e = text.parse::<Layout>().unwrap_err();
        assert_eq!(e.category(), "ProfileMismatch", "{text}");
        assert_eq!(
            *e.kind(),
            ErrorKind::NotCongruent {
                at: Some((pos, what))
            },
            "{text}"
        );
        assert!(
            e.to_string()
                .ends_with(&format!("(S ~ D fails): at byte {pos}, {what}")),
            "{e}"
        );
        // the same text with an unknown extent for the shape's first 2
        let first_two = text.find('2').unwrap();
        if first_two > text.find(':').unwrap() {
            continue;
        }
        let sym = text.replacen('2', "N{div=2,min=4}", 1);
        let at = pos + sym.len() - text.len();
        let e = sym.parse::<SymLayout>().unwrap_err().to_string();
        let want = format!("expected a stride congruent with the shape: {what} at byte {at}");
        assert!(e.contains(&want), "{sym}: {e}");
    }
    // a layout built from two tuples has no text to point into
    let e = Layout::new(&"(2,3)".parse().unwrap(), &"(1,2,3)".parse().unwrap()).unwrap_err();
    assert_eq!(*e.kind(), ErrorKind::NotCongruent { at: None });
}

#[test]
fn print_parse_round_trip_examples() {
    for s in [
        "12:1",
        "(8):(1)",
        "((8)):((1))",
        "((2,2),(4,2)):((1,8),(2,16))",
        "(2,(4,1),3):(0,(1,-3),7)",
    ] {
        assert_eq!(l(s).to_string(), s);
    }
    assert_eq!(l(" ( 4 , 8 ) :\t( 1 , 4 ) ").to_string(), "(4,8):(1,4)");
    assert_eq!(l("(_4,_8):(_1,_4)").to_string(), "(4,8):(1,4)");
    for s in ["<4:1,8:2>", "<2,_>", "<<2,3>,4:2>", "(4,8):(1,4)"] {
        assert_eq!(s.parse::<cute::Tiler>().unwrap().to_string(), s);
    }
    // a shape used as a tiler is the by-mode tiler of its entries
    assert_eq!(
        "(4,(2,3))".parse::<cute::Tiler>().unwrap().to_string(),
        "<4,<2,3>>"
    );
}
