//! The COPY and GEMM applications (Tables 2-3): copies and products written as layouts, checked
//! element by element.

use super::Tour;
use crate::paper::apps;
use crate::paper::checks as c;
use crate::paper::{Row, Section};

pub(super) fn copy_gemm(t: &mut Tour) {
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
