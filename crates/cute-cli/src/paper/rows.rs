//! The table of worked examples. To add an example, push a [`Row`] in its section: an operation row
//! (`Row::op(id, op, args, paper value)`) for anything `cute OP ARG...` computes, a check row
//! (`Row::check(...)` with a closure from [`super::checks`]) for the rest; mark a suspected erratum
//! with `.erratum(correct value)`.

use super::apps;
use super::checks::{self as c, Loop, Rel};
use super::{Row, Section};

/// Collects rows, assigning each the current section.
struct Tour {
    rows: Vec<Row>,
    section: Section,
}

impl Tour {
    fn section(&mut self, s: Section) {
        self.section = s;
    }

    fn push(&mut self, r: Row) {
        let s = self.section;
        self.rows.push(r.section(s));
    }

    /// An operation row.
    fn op(&mut self, id: &'static str, op: &'static str, args: &[&str], paper: &'static str) {
        self.push(Row::op(id, op, args, paper));
    }
}

/// Every worked example in scope, grouped by section in the paper's order.
pub fn rows() -> Vec<Row> {
    let mut t = Tour {
        rows: Vec::new(),
        section: Section::Loops,
    };
    loops(&mut t);
    folding(&mut t);
    htuple(&mut t);
    layouts(&mut t);
    completeness(&mut t);
    semilinearity(&mut t);
    slicing(&mut t);
    copy_gemm(&mut t);
    coalesce(&mut t);
    composition(&mut t);
    partitioning(&mut t);
    tilers(&mut t);
    inverses(&mut t);
    admissibility(&mut t);
    complement(&mut t);
    products(&mut t);
    divides(&mut t);
    let mut rows = t.rows;
    rows.sort_by_key(|r| r.section);
    rows
}

fn loops(t: &mut Tour) {
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

fn folding(t: &mut Tour) {
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

/// Figure 5: slices of a 6×12 tensor with the counting accessor. The figure's layout is not in the
/// translation; `(6,(2,3,2)):(1,(6,15,100))` is reconstructed so that the stated slice
/// `A(0,0:2:12) = {0} ∘ (3,2):(15,100)` is a partial-coordinate slice, and the stated
/// non-representable `A(0:2:6,0)` fails at the flat row mode.
fn slicing(t: &mut Tour) {
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

fn htuple(t: &mut Tour) {
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

fn layouts(t: &mut Tour) {
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

fn completeness(t: &mut Tour) {
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

fn semilinearity(t: &mut Tour) {
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

fn copy_gemm(t: &mut Tour) {
    t.section(Section::CopyGemm);
    type Gen = fn() -> Vec<(usize, usize)>;
    let copy = |id, name: &str, src: &'static str, dst: &'static str, inj: bool, gen: Gen| {
        Row::check(
            id,
            "copy",
            &[src, dst],
            format!("{name}: copy {src} → {dst}"),
            "size(src) == size(dst)",
            move |a, _| c::copy(a, inj, gen),
        )
    };
    t.push(copy("T2.1", "1-D array", "8:1", "8:1", true, || {
        (0..8).map(|i| (i, i)).collect()
    }));
    t.push(copy(
        "T2.2",
        "N-D array",
        "(8,2,3):(1,16,32)",
        "(8,2,3):(1,16,32)",
        true,
        || {
            let mut v = Vec::new();
            for z in 0..3 {
                for y in 0..2 {
                    for x in 0..8 {
                        v.push((x + 16 * y + 32 * z, x + 16 * y + 32 * z));
                    }
                }
            }
            v
        },
    ));
    t.push(copy(
        "T2.3",
        "Gather",
        "(2,3,2):(42,1,128)",
        "12:1",
        true,
        || {
            (0..12)
                .map(|i| (i, 42 * (i % 2) + (i / 2) % 3 + 128 * (i / 6)))
                .collect()
        },
    ));
    t.push(copy(
        "T2.4",
        "Scatter",
        "12:1",
        "(2,3,2):(42,1,128)",
        true,
        || {
            (0..12)
                .map(|i| (42 * (i % 2) + (i / 2) % 3 + 128 * (i / 6), i))
                .collect()
        },
    ));
    t.push(copy("T2.5", "Broadcast", "7:0", "7:1", true, || {
        (0..7).map(|i| (i, 0)).collect()
    }));
    t.push(copy("T2.6", "Constant", "7:0", "7:0", false, || {
        vec![(0, 0)]
    }));
    t.push(copy(
        "T2.7",
        "Transpose",
        "(8,3):(1,8)",
        "(8,3):(3,1)",
        true,
        || {
            let mut v = Vec::new();
            for col in 0..3 {
                for row in 0..8 {
                    v.push((3 * row + col, row + 8 * col));
                }
            }
            v
        },
    ));
    t.push(copy(
        "T2.8",
        "Tensor transpose",
        "(8,(3,5)):(1,(57,8))",
        "(8,15):(1,8)",
        true,
        || {
            let mut v = Vec::new();
            for k in 0..5 {
                for j in 0..3 {
                    for i in 0..8 {
                        v.push((i + 8 * (j + 3 * k), i + 57 * j + 8 * k));
                    }
                }
            }
            v
        },
    ));

    let gemm = |id, what: &str, abc: [&'static str; 3], offs: [c::Off; 3]| {
        Row::check(
            id,
            "gemm",
            &abc,
            what,
            "valid layouts, GEMM preconditions hold",
            move |a, _| c::gemm(a, offs),
        )
    };
    t.push(gemm(
        "T3.1",
        "NT GEMM: A (M,K):(1,lda), B (N,K):(1,ldb), C (M,N):(1,ldc)",
        ["(3,4):(1,4)", "(5,4):(1,6)", "(3,5):(1,3)"],
        [|m, k| m + 4 * k, |n, k| n + 6 * k, |m, n| m + 3 * n],
    ));
    t.push(gemm(
        "T3.2",
        "TN GEMM: A (M,K):(lda,1), B (N,K):(ldb,1), C (M,N):(1,ldc)",
        ["(3,4):(5,1)", "(5,4):(4,1)", "(3,5):(1,3)"],
        [|m, k| 5 * m + k, |n, k| 4 * n + k, |m, n| m + 3 * n],
    ));
    t.push(gemm(
        "T3.3",
        "NTT GEMM: A (N,K):(1,ldb), B (M,K):(1,lda), C (N,M):(1,ldc)",
        ["(5,4):(1,5)", "(3,4):(1,3)", "(5,3):(1,5)"],
        [|n, k| n + 5 * k, |m, k| m + 3 * k, |n, m| n + 5 * m],
    ));
    t.push(gemm(
        "T3.4",
        "BLIS GEMM: A (M,K):(dma,dka), B (N,K):(dnb,dkb), C (M,N):(dmc,dnc)",
        ["(3,4):(2,7)", "(5,4):(3,16)", "(3,5):(5,1)"],
        [
            |m, k| 2 * m + 7 * k,
            |n, k| 3 * n + 16 * k,
            |m, n| 5 * m + n,
        ],
    ));
    t.push(gemm(
        "T3.5",
        "GETT: A ((M1,M2),K):((1,W),X), B (N,K):(K,1), C ((M1,M2),N):((1,Y),Z)",
        ["((2,3),4):((1,3),9)", "(5,4):(4,1)", "((2,3),5):((1,2),7)"],
        [
            |m, k| m % 2 + 3 * (m / 2) + 9 * k,
            |n, k| 4 * n + k,
            |m, n| m % 2 + 2 * (m / 2) + 7 * n,
        ],
    ));
    t.push(
        Row::check(
            "T3.6",
            "gemm",
            &["(7,(2,3)):((5,6),1)", "(5,(2,3)):((8,9),1)", "(7,5):(1,7)"],
            "GETT: A (M,(K1,K2)):((W,X),1), B (N,(K1,K2)):((Y,Z),1), C (M,N):(1,M)",
            "valid layouts, GEMM preconditions hold",
            c::gemm_not_layouts,
        )
        .erratum("not layouts: S ≁ D (ERROR ProfileMismatch)"),
    );
    // CONV as an implicit GEMM: K=2 filters, (C,T,R,S) = (2,1,2,2), (N,Z,P,Q) = (2,1,2,3); the
    // activation X (N, Z+T-1, P+R-1, Q+S-1, C) = (2,1,3,4,2) has strides (24,24,8,2,1), so B is the
    // im2col layout ((n,z,p,q),(c,t,r,s)) ↦ X[n, z+t, p+r, q+s, c]; the reference is the direct
    // convolution written out.
    t.push(gemm(
        "T3.7",
        "CONV: A (K,(C,T,R,S)):D_A, B ((N,Z,P,Q),(C,T,R,S)):D_B, C (K,(N,Z,P,Q)):D_C",
        [
            "(2,(2,1,2,2)):(1,(2,4,4,8))",
            "((2,1,2,3),(2,1,2,2)):((24,24,8,2),(1,24,8,2))",
            "(2,(2,1,2,3)):(1,(2,4,4,8))",
        ],
        [
            |k, crs| {
                let (ch, r, s) = (crs % 2, (crs / 2) % 2, crs / 4);
                k + 2 * ch + 4 * r + 8 * s
            },
            |nzpq, crs| {
                let (n, p, q) = (nzpq % 2, (nzpq / 2) % 2, nzpq / 4);
                let (ch, r, s) = (crs % 2, (crs / 2) % 2, crs / 4);
                24 * n + 8 * (p + r) + 2 * (q + s) + ch
            },
            |k, nzpq| k + 2 * nzpq,
        ],
    ));
    t.push(
        Row::check(
            "T3.7b",
            "conv2d",
            &["(2,3,7,6) NHWC * (4,3,3,2)"],
            "CONV with stride (2,1), padding (1,1), dilation (1,2): GEMM over the im2col layout",
            "Y = the direct convolution",
            apps::conv,
        )
        .note("executed with cute_gemm::conv2d: the interior as one GEMM over the im2col layout, the padded border predicated by the coordinate layout"),
    );
}

fn coalesce(t: &mut Tour) {
    t.section(Section::Coalesce);
    let by_mode = |id, a: &'static str, paper| {
        Row::op(id, "coalesce_profile", &[a, "(1,1)"], paper).what(format!("coalesce({a}, <*,*>)"))
    };
    t.op("S-COAL-1", "coalesce", &["(2,(1,6)):(1,(6,2))"], "12:1");
    t.push(by_mode("S-COAL-2", "(2,(1,6)):(1,(6,2))", "(2,6):(1,2)"));
    t.op("S-COAL-3", "coalesce", &["(1,6):(6,2)"], "6:2");
    t.op(
        "S-COAL-4",
        "coalesce",
        &["((4,3),5):((15,1),3)"],
        "(4,15):(15,1)",
    );
    t.push(by_mode(
        "S-COAL-5",
        "((4,3),5):((15,1),3)",
        "((4,3),5):((15,1),3)",
    ));
    t.op(
        "S-COAL-6",
        "coalesce",
        &["(4,(3,5)):(15,(1,3))"],
        "(4,15):(15,1)",
    );
    t.push(by_mode("S-COAL-7", "(4,(3,5)):(15,(1,3))", "(4,15):(15,1)"));
}

fn composition(t: &mut Tour) {
    t.section(Section::Identity);
    for (id, l) in [
        ("S-ID-1", "24:1"),
        ("S-ID-2", "(4,6):(1,4)"),
        ("S-ID-3", "(3,(4,2)):(1,(3,12))"),
    ] {
        t.push(Row::check(
            id,
            "identity",
            &[l],
            format!("{l} as I_24"),
            "L(i) = i for i < 24",
            c::identity,
        ));
    }
    for (id, l) in [
        ("S-ID-4", "(4,6):(1@0,1@1)"),
        ("S-ID-5", "(4,(3,2)):(1@0,(1@1,3@1))"),
    ] {
        t.push(Row::check(
            id,
            "identity",
            &[l, "(4,6)"],
            format!("{l} as I_(4,6)"),
            "L(i,j) = (i,j) for (i,j) ∈ Z_(4,6)",
            c::coordinate_identity,
        ));
    }

    t.section(Section::Associativity);
    t.op("S-ASSOC-1", "composition", &["4:1", "2:5"], "2:5");
    t.op("S-ASSOC-2", "composition", &["(5,3):(1,7)", "2:5"], "2:7");
    t.op("S-ASSOC-3", "composition", &["(5,3):(1,7)", "4:1"], "4:1");
    t.push(Row::check(
        "S-ASSOC-4",
        "associativity",
        &["(5,3):(1,7)", "4:1", "2:5"],
        "(5,3):(1,7) ∘ [4:1 ∘ 2:5] vs [(5,3):(1,7) ∘ 4:1] ∘ 2:5",
        "2:7 ≠ 2:5",
        c::associativity,
    ));

    t.section(Section::Composition);
    t.op("S-COMP-1", "composition", &["7:11", "3:4"], "3:44");
    t.op(
        "S-COMP-2",
        "composition",
        &["7:11", "(3,5):(6,3)"],
        "(3,5):(66,33)",
    );
    t.op(
        "S-COMP-3",
        "composition",
        &["(4,6,8,10):(2,3,5,7)", "6:12"],
        "(2,3):(9,5)",
    );
    t.push(
        Row::op(
            "S-COMP-4",
            "composition",
            &["(1,2,8,10):(0,9,5,7)", "6:1"],
            "(2,3):(9,5)",
        )
        .what("composition((1,2,8,10):(X,9,5,7), 6:1)")
        .note("numeric stand-in X:=0 (the stride of a size-1 mode)"),
    );
    t.op(
        "S-COMP-5",
        "composition",
        &["(4,6,3):(2,3,5)", "6:12"],
        "(2,3):(9,5)",
    );
    t.push(Row::check(
        "S-COMP-6",
        "composition",
        &[
            "(4,6,8,10):(2,3,5,7)",
            "(1,2,8,10):(0,9,5,7)",
            "(4,6,3):(2,3,5)",
        ],
        "divide out the first 12 / keep the first 72 of (4,6,8,10):(2,3,5,7), then ∘ 6:12",
        "both routes = (2,3):(9,5)",
        c::composition_routes,
    ));
    let viol = |id, a: &'static str, b: &'static str, paper| {
        Row::op(id, "composition", &[a, b], paper).expect("ERROR Divisibility")
    };
    t.push(viol(
        "S-VIOL-1",
        "(4,6,8):(2,3,5)",
        "6:3",
        "inadmissible: stride divisibility (9)",
    ));
    t.push(viol(
        "S-VIOL-2",
        "(4,6,8):(2,3,5)",
        "6:1",
        "inadmissible: shape divisibility (10)",
    ));
    t.op(
        "S-APP-1",
        "composition",
        &["(4,2,8):(3,12,97)", "3:3"],
        "3:9",
    );
    t.op(
        "S-APP-2",
        "coalesce",
        &["(4,2,8):(3,12,97)"],
        "(8,8):(3,97)",
    );
    t.op("S-APP-3", "composition", &["(8,8):(3,97)", "3:3"], "3:9");
    t.op("S-APP-4", "composition", &["8:3", "3:3"], "3:9");
    t.push(viol(
        "S-VIOL-3",
        "(4,2,8):(3,12,97)",
        "4:3",
        "inadmissible: cannot be truncated enough",
    ));
    t.push(viol(
        "S-VIOL-4",
        "(4,2,8):(3,15,97)",
        "3:3",
        "inadmissible: cannot be coalesced",
    ));
}

/// The TMEM example: the tcgen05 32x32b and 16x256b access layouts (reconstructed from the PTX
/// ISA's description, with the paper's lane step 16384) against accumulator tiles in TMEM.
fn admissibility(t: &mut Tour) {
    t.section(Section::Admissibility);
    const NOTE: &str = "the instruction layouts are reconstructed from the PTX ISA (the translation omits them); the data layouts are example accumulator tiles";
    for (id, data, instr, what, paper) in [
        (
            "F9-1",
            "(128,256):(16384,1)",
            "tmem_32x32b",
            "M=128 tile (a row per lane) ⊇ 32x32b.x1",
            "contained at A† ∘ T = ((32,4),1):((1,32),1)",
        ),
        (
            "F9-2",
            "(128,256):(16384,1)",
            "tmem_16x256b",
            "M=128 tile ⊇ 16x256b.x1",
            "contained at A† ∘ T = (((4,8),4),(2,2,1)):(((256,1),32),(128,8,1))",
        ),
        (
            "F9-3",
            "((16,4),256):((16384,524288),1)",
            "tmem_32x32b",
            "M=64 tile in 16 lanes per warp ⊇ 32x32b.x1",
            "not contained: coordinate 16 (offset 262144)",
        ),
        (
            "F9-4",
            "((16,4),256):((16384,524288),1)",
            "tmem_16x256b",
            "M=64 tile in 16 lanes per warp ⊇ 16x256b.x1",
            "contained at A† ∘ T = (((4,8),4),(2,2,1)):(((128,1),16),(64,8,16))",
        ),
    ] {
        t.push(Row::check(id, "contains", &[data, instr], what, paper, apps::tmem).note(NOTE));
    }
}

fn partitioning(t: &mut Tour) {
    t.section(Section::Partitioning);
    const TV: &str = "((4,8),2):((16,1),8)";
    t.push(Row::check(
        "F6-1",
        "tv_layout",
        &[TV],
        format!("ThrValLayoutC = {TV}: (thread, value) ↦ 8×8 coordinate"),
        "bijective on Z_64, (32,2) ⪯ shape",
        c::tv_bijection,
    ));
    for (id, name, data, paper) in [
        ("T4.1", "ColMajor", "(8,8):(1,8)", "((4,8),2):((16,1),8)"),
        ("T4.2", "RowMajor", "(8,8):(8,1)", "((4,8),2):((2,8),1)"),
        ("T4.3", "Padded", "(8,8):(1,9)", "((4,8),2):((18,1),9)"),
        (
            "T4.4",
            "ColInterleaved",
            "((4,2),(2,4)):((2,16),(1,8))",
            "((4,(4,2)),2):((8,(2,16)),1)",
        ),
    ] {
        t.push(
            Row::op(id, "composition", &[data, TV], paper)
                .what(format!("{name}: {data} ∘ ThrValLayoutC")),
        );
    }
    for (id, name, data, paper) in [
        (
            "T4.5",
            "Swizzled",
            "(8,8):(F1,F9)",
            "((4,8),2):((F18,F1),F9)",
        ),
        (
            "T4.6",
            "Coordinate",
            "(8,8):(1@0,1@1)",
            "((4,8),2):((2@1,1@0),1@1)",
        ),
    ] {
        t.push(
            Row::op(id, "composition", &[data, TV], paper)
                .what(format!("{name}: {data} ∘ ThrValLayoutC")),
        );
    }
}

fn tilers(t: &mut Tour) {
    t.section(Section::Tilers);
    const L: &str = "(8,16):(20,1)";
    t.push(
        Row::op("S-TILE-1", "composition", &[L, "<4:1,8:1>"], "(4,8):(20,1)")
            .note("L = (8,16):(20,1) stands for Figure 7's 8×16 layout (not in the translation)"),
    );
    t.push(
        Row::op("S-TILE-2", "composition", &[L, "(4,8)"], "(4,8):(20,1)")
            .what("composition((8,16):(20,1), (4,8)), the shape (4,8) as the tiler <4,8>"),
    );
    t.push(
        Row::op(
            "S-TILE-3",
            "composition",
            &[L, "(4,8):(1@0,1@1)"],
            "(4,8):(20,1)",
        )
        .what("composition((8,16):(20,1), (4,8):(e0,e1)), the coordinate layout as the tiler"),
    );
    t.push(
        Row::check(
            "S-TILE-4",
            "composition",
            &[L, "(4,8):(1,1)"],
            "L ∘ (4:1,8:1), the concatenation (4:1,8:1) = (4,8):(1,1)",
            "≡ <4:1,8:1>, i.e. (4,8):(20,1)",
            c::tile_concatenation,
        )
        .erratum("(4:1,8:1) ≢ <4:1,8:1>: L ∘ (4,8):(1,1) is inadmissible (12)"),
    );
    t.push(Row::check(
        "S-TILE-5",
        "composition",
        &[L, "<4:1,8:2>"],
        "L ∘ T with T = <4:1,8:2> (integer part of L∘T ≡ L∘(M,N):(e0,e1)∘T)",
        "(4,8):(20,2)",
        c::tiler_pointwise,
    ));
}

fn inverses(t: &mut Tour) {
    t.section(Section::RightInverse);
    t.op("T5.1", "right_inverse", &["(4,8):(1,4)"], "32:1");
    t.op("T5.2", "right_inverse", &["(4,8):(8,1)"], "(8,4):(4,1)");
    t.op(
        "T5.3",
        "right_inverse",
        &["(3,7,5):(5,15,1)"],
        "(5,21):(21,1)",
    );
    t.op("T5.4", "right_inverse", &["(4,8):(1,5)"], "4:1");
    t.op(
        "T5.5",
        "right_inverse",
        &["(4,(4,2)):(4,(1,16))"],
        "(4,4,2):(4,1,16)",
    );
    t.op(
        "T5.6",
        "right_inverse",
        &["((2,2),(4,2)):((1,8),(2,16))"],
        "(2,4,2,2):(1,4,2,16)",
    );
    t.push(
        Row::op(
            "T5.7",
            "right_inverse",
            &["((2,2),(2,4)):((0,1),(0,2))"],
            "(2,2):(4,8)",
        )
        .erratum("(2,4):(2,8)")
        .note("with the paper's value R(1) = 4 and L(4) = 0 ≠ 1"),
    );
    t.op(
        "T5.8",
        "right_inverse",
        &["((2,2),(2,4)):((0,2),(0,4))"],
        "1:0",
    );
    t.op("T5.9", "right_inverse", &["(4,8):(1@0,1@1)"], "(4,8):(1,4)");
    t.op(
        "T5.10",
        "right_inverse",
        &["(4,(4,2)):(1@1,(1@0,6@1))"],
        "(4,4):(4,1)",
    );
    t.op(
        "T5.11",
        "right_inverse",
        &["(4,(4,3)):(F1,(F5,F16))"],
        "(4,4,3):(F1,F5,F16)",
    );

    t.section(Section::Vectorization);
    t.op("S-VEC-1", "right_inverse", &["(4,8):(1,4)"], "32:1");
    t.op("S-VEC-2", "right_inverse", &["(4,8):(8,1)"], "(8,4):(4,1)");
    for (id, src, dst, paper) in [
        (
            "F8-1",
            "(4,4):(1,4)",
            "((2,2),4):((1,8),2)",
            "width 2 at coordinates {0,1}",
        ),
        (
            "F8-2",
            "((2,2),(2,2)):((4,1),(8,2))",
            "((2,2),(2,2)):((8,1),(4,2))",
            "width 4 at coordinates {0,2,8,10}",
        ),
    ] {
        t.push(
            Row::check(
                id,
                "max_common_vector",
                &[src, dst],
                format!("common vector of {src} and {dst}"),
                paper,
                apps::vector_width,
            )
            .note("the figure's layouts are not in the translation: this pair is reconstructed from the stated offsets and coordinates"),
        );
    }

    t.section(Section::LeftInverse);
    t.op("T6.1", "left_inverse", &["(4,8):(1,4)"], "32:1");
    t.op("T6.2", "left_inverse", &["(4,8):(8,1)"], "(8,4):(4,1)");
    t.op(
        "T6.3",
        "left_inverse",
        &["(3,7,5):(5,15,1)"],
        "(5,21):(21,1)",
    );
    t.op("T6.4", "left_inverse", &["(4,8):(1,5)"], "(5,8):(1,4)");
    t.op(
        "T6.5",
        "left_inverse",
        &["(4,(4,2)):(4,(1,16))"],
        "(4,4,2):(4,1,16)",
    );
    t.op(
        "T6.6",
        "left_inverse",
        &["((2,2),(4,2)):((1,8),(2,16))"],
        "(2,4,2,2):(1,4,2,16)",
    );
    t.op(
        "T6.7",
        "left_inverse",
        &["((2,2),(2,4)):((0,2),(0,4))"],
        "(2,2,4):(0,2,8)",
    );
    t.push(
        Row::op(
            "T6.8",
            "left_inverse",
            &["((2,2),(2,4)):((0,1),(0,2))"],
            "(2,2):(4,8)",
        )
        .erratum("(2,4):(2,8)")
        .note("with the paper's value L(R(L(2))) = L(R(1)) = L(4) = 0 ≠ L(2) = 1"),
    );
    t.op("T6.9", "left_inverse", &["(4,8):(1@0,1@1)"], "(4,8):(1,4)");
    t.op(
        "T6.10",
        "left_inverse",
        &["(4,(4,2)):(1@1,(1@0,6@1))"],
        "(4,(6,2)):(4,(1,16))",
    );
    t.push(Row::check(
        "T6.11",
        "left_inverse",
        &["(4,(4,3)):(F1,(F5,F16))"],
        "left_inverse((4,(4,3)):(F1,(F5,F16))), a bijection onto Z_48",
        "(4,4,3):(F1,F5,F16)",
        c::binary_left_inverse,
    ));
}

fn complement(t: &mut Tour) {
    t.section(Section::Complement);
    t.push(
        Row::op("T7.1", "complement", &["(4,8):(1,4)"], "1:32").note(
            "the row's remark \"L(i) > max_j L(j)\" is about the complement: L*(i) = 32·i > 31",
        ),
    );
    t.op("T7.2", "complement", &["(4,8):(8,1)"], "1:32");
    t.op("T7.3", "complement", &["(4,(4,2)):(4,(1,16))"], "1:32");
    t.op("T7.4", "complement", &["(4,8):(1,5)"], "1:40");
    t.op("T7.5", "complement", &["(4,8):(1,8)"], "(2,1):(4,64)");
    t.op(
        "T7.6",
        "complement",
        &["((2,2),(2,4)):((0,1),(0,2))"],
        "1:8",
    );
    t.op(
        "T7.7",
        "complement",
        &["((2,2),(2,4)):((0,2),(0,4))"],
        "(2,1):(1,16)",
    );
    t.push(
        Row::op(
            "T7.8",
            "complement",
            &["(4,8):(1@0,1@1)"],
            "(1,1):(4@0,4@1)",
        )
        .erratum("(1,1):(4@0,8@1)")
        .note("with the paper's 4@1, L*(1) = (0,4) lies in the image of L, violating (16)"),
    );
    t.op(
        "T7.9",
        "complement",
        &["(4,(4,2)):(1@1,(1@0,12@1))"],
        "(1,(3,1)):(4@0,(4@1,24@1))",
    );
}

fn products(t: &mut Tour) {
    t.section(Section::Product);
    t.op("S-LP-1", "complement", &["(3,4):(4,1)"], "1:12");
    t.push(
        Row::op(
            "S-LP-1b",
            "composition",
            &["1:12", "(2,5):(1,2)"],
            "(2,5):(12,24)",
        )
        .note("A* ∘ B, the second mode of the product; uses A* past its size: A*(2) = 24"),
    );
    t.op(
        "S-LP-2",
        "logical_product",
        &["(3,4):(4,1)", "(2,5):(1,2)"],
        "((3,4),(2,5)):((4,1),(12,24))",
    );
    t.op("S-LP-3", "complement", &["(4,8):(20,2)"], "(2,1):(1,80)");
    t.push(
        Row::op(
            "S-LP-3b",
            "composition",
            &["(2,1):(1,80)", "(3,2):(2,1)"],
            "(3,2):(80,1)",
        )
        .note("A* ∘ B; needs A*(2) = 80 on the extended domain (the trailing size-1 mode of A*)"),
    );
    t.op(
        "S-LP-4",
        "logical_product",
        &["(4,8):(20,2)", "(3,2):(2,1)"],
        "((4,8),(3,2)):((20,2),(80,1))",
    );
    t.op(
        "S-LP-5",
        "blocked_product",
        &["(3,4):(4,1)", "(2,5):(1,2)"],
        "((3,2),(4,5)):((4,12),(1,24))",
    );
    t.op(
        "S-LP-6",
        "raked_product",
        &["(3,4):(4,1)", "(2,5):(1,2)"],
        "((2,3),(5,4)):((12,4),(24,1))",
    );
}

fn divides(t: &mut Tour) {
    t.section(Section::Divide);
    t.op("S-LD-1", "composition", &["24:3", "8:3"], "8:9");
    t.op(
        "S-LD-2",
        "composition",
        &["(6,2,2):(2,1,20)", "8:3"],
        "(2,2,2):(6,1,20)",
    );
    t.op("S-LD-3", "complement", &["8:3", "24"], "3:1");
    t.op("S-LD-4", "logical_divide", &["24:3", "8:3"], "(8,3):(9,3)");
    t.op(
        "S-LD-5",
        "composition",
        &["24:3", "(8,3):(3,1)"],
        "(8,3):(9,3)",
    );
    t.op(
        "S-LD-6",
        "logical_divide",
        &["(6,2,2):(2,1,20)", "8:3"],
        "((2,2,2),3):((6,1,20),2)",
    );
    t.op(
        "S-LD-7",
        "composition",
        &["(6,2,2):(2,1,20)", "(8,3):(3,1)"],
        "((2,2,2),3):((6,1,20),2)",
    );
    t.push(
        Row::op("S-LD-8", "complement", &["4:1", "8"], "2:4")
            .note("implicit in S-LD-10: the completed tiler (4,2):(1,4)"),
    );
    t.push(
        Row::op("S-LD-9", "complement", &["8:2", "16"], "2:1")
            .note("implicit in S-LD-10: the completed tiler (8,2):(2,1)"),
    );
    t.op(
        "S-LD-10",
        "logical_divide",
        &["(8,16):(20,1)", "<4:1,8:2>"],
        "((4,2),(8,2)):((20,80),(2,1))",
    );
    t.op(
        "S-LD-11",
        "zipped_divide",
        &["(8,16):(20,1)", "<4:1,8:2>"],
        "((4,8),(2,2)):((20,2),(80,1))",
    );
}
