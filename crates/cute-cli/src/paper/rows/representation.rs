//! Layouts and tensors: canonical loops, folding, HTuples (congruence, compatibility,
//! coordinates), evaluation, completeness, semilinearity and slicing.

use super::Tour;
use crate::paper::apps;
use crate::paper::checks::{self as c, Loop, Rel};
use crate::paper::{Row, Section};

pub(super) fn loops(t: &mut Tour) {
    t.section(Section::Loops);
    t.push(Row::check(
        "S-LOOP-1",
        "canonical_loop",
        &["for (m = 2; m <= 50; m += 3) A[m] = e(m)"],
        "for m=2..=50 step 3: A[m] → accessor, shape:stride",
        "A+2, 17:3",
        |_, exp| {
            c::loop_1d(
                Loop {
                    lo: 2,
                    hi: 50,
                    inclusive: true,
                    step: 3,
                },
                exp,
            )
        },
    ));
    t.push(Row::check(
        "S-LOOP-2",
        "canonical_loop",
        &["for (n = 3; n < 43; n += 2) for (m = 4; m <= 22; m += 5) A[p*m + q*n] = e(m,n)"],
        "for n=3..<43 step 2, m=4..=22 step 5: A[p·m+q·n]",
        "A+4p+3q, (4,20):(5p,2q)",
        |_, exp| {
            let m = Loop {
                lo: 4,
                hi: 22,
                inclusive: true,
                step: 5,
            };
            let n = Loop {
                lo: 3,
                hi: 43,
                inclusive: false,
                step: 2,
            };
            c::loop_2d(m, n, exp)
        },
    ));
    t.push(Row::check(
        "S-LOOP-3",
        "canonical_loop",
        &["for (k = 0; k < 80; ++k) (A + 4*p + 3*q)[5*p*(k%4) + 2*q*(k/4)] = f(k)"],
        "1-D view of (4,20):(5p,2q): idx2crd(k,(4,20))",
        "(i,j) = (k%4,k/4), 80 elements",
        |_, exp| c::loop_1d_view(exp),
    ));
}

pub(super) fn folding(t: &mut Tour) {
    t.section(Section::Folding);
    t.push(
        Row::op(
            "F1-1",
            "coalesce_profile",
            &["((2,2),2):((2,4),1)", "(1,1)"],
            "(4,2):(2,1)",
        )
        .what("fold mode 2 into mode 0: coalesce(((2,2),2):((2,4),1), <*,*>)")
        .note("the 2×2×2 tensor's strides (2,1,4) are inferred from the stated fold (Figure 1's table is not in the translation)"),
    );
    t.push(Row::check(
        "F1-2",
        "coalesce_profile",
        &["(2,(2,2)):(2,(1,4))", "(1,1)"],
        "fold mode 2 into mode 1: coalesce((2,(2,2)):(2,(1,4)), <*,*>)",
        "no flat (integer-stride) representation",
        c::fold_no_flat,
    ));
    t.push(
        Row::check(
            "S-FOLD-1",
            "contract",
            &["stupr,qtru->stqp"],
            "C_stqp = A_stupr B_qtru: fold into (M,N,K,L) = ((s,p),q,(u,r),t), run the GEMM",
            "C = the loop nest",
            apps::gett,
        )
        .note("executed with cute_gemm::contract on random integers in strided layouts (A padded, B column-major, C row-major)"),
    );
}

pub(super) fn htuple(t: &mut Tour) {
    t.section(Section::HTuple);
    let rel = |id, r: Rel, a: &'static str, b: &'static str, what: &str, paper, note| {
        let op = match r {
            Rel::Congruent => "congruent",
            Rel::Weakly => "weakly_congruent",
            Rel::Compatible => "compatible",
        };
        let row = Row::check(id, op, &[a, b], what, paper, move |args, exp| {
            c::relation(r, args, exp)
        });
        match note {
            Some(n) => row.note(n),
            None => row,
        }
    };
    let rows = [
        rel(
            "S-CONG-1",
            Rel::Congruent,
            "(4,8)",
            "(5,7)",
            "(4,8) ~ (5,7)",
            "congruent",
            None,
        ),
        rel(
            "S-CONG-2",
            Rel::Congruent,
            "(4,(2,4))",
            "(7,(3,2))",
            "(4,(2,4)) ~ (7,(3,2))",
            "congruent",
            None,
        ),
        rel(
            "S-CONG-3",
            Rel::Congruent,
            "(5,((2,3)))",
            "(0,((0,0)))",
            "(v,((p,3))) ~ (0,((0,0)))",
            "congruent",
            Some("numeric stand-in v:=5, p:=2"),
        ),
        rel(
            "S-CONG-4",
            Rel::Congruent,
            "(4,8)",
            "(4,(2,4))",
            "(4,8) vs (4,(2,4))",
            "not congruent",
            None,
        ),
        rel(
            "S-CONG-5",
            Rel::Congruent,
            "(4,(2,4))",
            "(0,((0,0)))",
            "(4,(2,4)) vs (0,((0,0)))",
            "not congruent",
            None,
        ),
        rel(
            "S-WCONG-1",
            Rel::Weakly,
            "30",
            "(5,6)",
            "30 ≲ (a,b)",
            "holds",
            Some("numeric stand-in a:=5, b:=6"),
        ),
        rel(
            "S-WCONG-2",
            Rel::Weakly,
            "(5,6)",
            "(9,(0,7))",
            "(a,b) ≲ (v,(0,α))",
            "holds",
            Some("numeric stand-in a:=5, b:=6, v:=9, α:=7"),
        ),
        rel(
            "S-WCONG-3",
            Rel::Weakly,
            "30",
            "(2,3,5)",
            "30 ≲ (a,b,c)",
            "holds",
            Some("numeric stand-in a:=2, b:=3, c:=5"),
        ),
        rel(
            "S-WCONG-4",
            Rel::Weakly,
            "(2,3,5)",
            "((0,0),0,0)",
            "(a,b,c) ≲ ((0,0),0,0)",
            "holds",
            Some("numeric stand-in a:=2, b:=3, c:=5"),
        ),
        rel(
            "S-WCONG-5",
            Rel::Weakly,
            "(5,6)",
            "(2,3,5)",
            "(a,b) vs (a,b,c), either way",
            "not weakly congruent",
            Some("numeric stand-in (a,b):=(5,6), (a,b,c):=(2,3,5)"),
        ),
        rel(
            "S-WCONG-6",
            Rel::Weakly,
            "(9,(0,7))",
            "((0,0),0)",
            "(v,(0,α)) vs ((0,0),0), either way",
            "not weakly congruent",
            Some("numeric stand-in v:=9, α:=7"),
        ),
        rel(
            "S-COMPAT-1",
            Rel::Compatible,
            "30",
            "(2,15)",
            "30 ⪯ (2,15)",
            "holds",
            None,
        ),
        rel(
            "S-COMPAT-2",
            Rel::Compatible,
            "(2,15)",
            "(2,(3,5))",
            "(2,15) ⪯ (2,(3,5))",
            "holds",
            None,
        ),
        rel(
            "S-COMPAT-3",
            Rel::Compatible,
            "30",
            "(6,5)",
            "30 ⪯ (6,5)",
            "holds",
            None,
        ),
        rel(
            "S-COMPAT-4",
            Rel::Compatible,
            "(6,5)",
            "((3,2),5)",
            "(6,5) ⪯ ((3,2),5)",
            "holds",
            None,
        ),
        rel(
            "S-COMPAT-5",
            Rel::Compatible,
            "(2,(3,5))",
            "((3,2),5)",
            "(2,(3,5)) vs ((3,2),5), either way",
            "not compatible",
            None,
        ),
    ];
    for r in rows {
        t.push(r);
    }
    t.push(Row::check(
        "S-COMPAT-6",
        "compatible",
        &["30", "(2,(3,5))", "((3,2),5)"],
        "30 ⪯ (2,(3,5)) and 30 ⪯ ((3,2),5): common coarsening",
        "holds",
        c::common_coarsening,
    ));
    t.push(Row::check(
        "S-CRD-1",
        "idx2crd",
        &["6"],
        "Z_6",
        "{0,1,2,3,4,5}",
        c::coordinate_list,
    ));
    t.push(Row::check(
        "S-CRD-2",
        "idx2crd",
        &["(3,4)"],
        "Z_(3,4) in colex order: idx2crd(i,(3,4)), i < 12",
        "{(0,0),(1,0),(2,0),(0,1),(1,1),(2,1),(0,2),(1,2),(2,2),(0,3),(1,3),(2,3)}",
        c::coordinate_list,
    ));
    t.push(Row::check(
        "S-CRD-3",
        "idx2crd",
        &["((2,1),3)"],
        "Z_((2,1),3) in colex order: idx2crd(i,((2,1),3)), i < 6",
        "{((0,0),0),((1,0),0),((0,0),1),((1,0),1),((0,0),2),((1,0),2)}",
        c::coordinate_list,
    ));
}

pub(super) fn layouts(t: &mut Tour) {
    t.section(Section::Layouts);
    const L: &str = "((2,2),(4,2)):((1,8),(2,16))";
    t.push(Row::op("S-EVAL-1", "eval_int", &[L, "22"], "26").what(format!("L(22), L = {L}")));
    t.push(Row::check(
        "S-EVAL-2",
        "idx2crd_eval",
        &[L, "22"],
        "idx2crd(22,(4,8)) and L(2,5)",
        "(2,5) ↦ 26",
        |a, exp| c::eval_via(false, a, exp),
    ));
    t.push(Row::check(
        "S-EVAL-3",
        "idx2crd_eval",
        &[L, "22"],
        "idx2crd(22,((2,2),(4,2))) and L((0,1),(1,1))",
        "((0,1),(1,1)) ↦ 26",
        |a, exp| c::eval_via(true, a, exp),
    ));
    t.push(
        Row::op(
            "S-CAT-1",
            "make_layout",
            &["4:2", "3:1@0"],
            "inadmissible: codomains Z and Z^(*,*) differ",
        )
        .what("(4:2, 3:e_0), the concatenation of 4:2 and 3:e_0")
        .expect("ERROR Unsupported"),
    );
}

pub(super) fn completeness(t: &mut Tour) {
    t.section(Section::Completeness);
    t.push(Row::check(
        "S-COMPL-1",
        "completeness",
        &["4", "5", "6", "8", "10", "13"],
        "f ≡ (2,2,…):(f(1),f(2),…) ∘ (3,1):(1,4) ∘ … ∘ (N-1,1):(1,2(N-2))",
        "f(0)=0 ⇒ f is a chain of layouts",
        c::completeness,
    ));
}

pub(super) fn semilinearity(t: &mut Tour) {
    t.section(Section::Semilinearity);
    t.push(Row::check(
        "T1.1",
        "linear_form",
        &["((2,2),(4,2)):((1,8),(2,16))"],
        "linear form of ((2,2),(4,2)):((1,8),(2,16))",
        "r = [1 8 2 16]·c̃",
        c::linear_form,
    ));
    t.push(Row::check(
        "T1.2",
        "linear_form",
        &["(4,(4,2)):(1@1,(1@0,6@1))"],
        "linear form of (4,(4,2)):(e1,(e0,6e1)) (coordinate strides)",
        "[r0;r1] = [[0 1 0];[1 0 6]]·c̃",
        c::linear_form,
    ));
    for (id, l) in [
        ("T1.3", "(4,4):(F1,F5)"),
        ("T1.3b", "((2,2),(2,2)):((F1,F2),(F5,F10))"),
    ] {
        t.push(Row::check(
            id,
            "linear_form",
            &[l],
            format!("linear form of {l} (binary strides)"),
            "r = [[1 0 1 0];[0 1 0 1];[0 0 1 0];[0 0 0 1]]·c̃ over F2",
            c::linear_form,
        ));
    }
}

/// Figure 5: slices of a 6×12 tensor with the counting accessor. The figure's layout is not in the
/// translation; `(6,(2,3,2)):(1,(6,15,100))` is reconstructed so that the stated slice
/// `A(0,0:2:12) = {0} ∘ (3,2):(15,100)` is a partial-coordinate slice, and the stated
/// non-representable `A(0:2:6,0)` fails at the flat row mode.
pub(super) fn slicing(t: &mut Tour) {
    t.section(Section::Slicing);
    const A: &str = "(6,(2,3,2)):(1,(6,15,100))";
    const NOTE: &str = "A = {0} ∘ (6,(2,3,2)):(1,(6,15,100)) is reconstructed from the stated slice (Figure 5's layout is not in the translation)";
    let slice = |id, what: &str, crd: &'static str, paper: &'static str| {
        Row::check(
            id,
            "slice",
            &[A, crd],
            format!("{what}: A{crd}"),
            paper,
            apps::slice_counting,
        )
        .note(NOTE)
    };
    t.push(slice(
        "F5-1",
        "A(0,0:2:12), every other column of row 0",
        "(0,(0,_,_))",
        "{0} ∘ (3,2):(15,100)",
    ));
    t.push(slice(
        "F5-2",
        "row 2",
        "(2,_)",
        "{2} ∘ ((2,3,2)):((6,15,100))",
    ));
    t.push(slice(
        "F5-3",
        "column 5 = (1,2,0)",
        "(_,5)",
        "{36} ∘ (6):(1)",
    ));
    t.push(slice(
        "F5-4",
        "sub-matrix: columns (1,_,1)",
        "(_,(1,_,1))",
        "{106} ∘ (6,3):(1,15)",
    ));
    t.push(
        Row::op(
            "F5-5",
            "slice",
            &[A, "((0,_),0)"],
            "A(0:2:6,0) cannot be represented",
        )
        .what("A(0:2:6,0), every other row: a partial coordinate cannot split the flat row mode")
        .expect("ERROR ProfileMismatch")
        .note(NOTE),
    );
}
