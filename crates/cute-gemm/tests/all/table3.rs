//! Every row of the paper's Table 3 through `cute::gemm` (f64, i64) and `cute_gemm::gemm` (f32,
//! f64, i64) against the naive loop, with the table's layouts and with non-contiguous and
//! negative-stride variants.

use crate::util::*;
use cute::{Layout, Tensor};

fn lay(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Runs A·B into C for the three layouts on random data through every path and compares.
pub fn check(la: &str, lb: &str, lc: &str, seed: u64) {
    let (la, lb, lc) = (lay(la), lay(lb), lay(lc));
    let mut rng = Rng::new(seed);
    let (ba, na) = extent(&la, 3);
    let (bb, nb) = extent(&lb, 2);
    let (bc, nc) = extent(&lc, 1);
    let a = random_vec(&mut rng, na);
    let b = random_vec(&mut rng, nb);
    let c0 = random_vec(&mut rng, nc);
    let k = la.mode(1).unwrap().size();
    let what = format!("A {la}, B {lb}, C {lc}");

    let mut want = c0.clone();
    naive_gemm(&a, ba, &la, &b, bb, &lb, &mut want, bc, &lc);

    // the reference loop, f64
    let mut c = c0.clone();
    {
        let ta = Tensor::with_base(&a[..], ba, la).unwrap();
        let tb = Tensor::with_base(&b[..], bb, lb).unwrap();
        let mut tc = Tensor::with_base(&mut c[..], bc, lc).unwrap();
        cute::gemm(&ta, &tb, &mut tc).unwrap();
    }
    assert_close(&c, &want, tol_f64(k), &format!("cute::gemm f64 {what}"));

    // the fast path, f64
    let mut c = c0.clone();
    {
        let ta = Tensor::with_base(&a[..], ba, la).unwrap();
        let tb = Tensor::with_base(&b[..], bb, lb).unwrap();
        let mut tc = Tensor::with_base(&mut c[..], bc, lc).unwrap();
        cute_gemm::gemm(&ta, &tb, &mut tc).unwrap();
    }
    assert_close(
        &c,
        &want,
        tol_f64(k),
        &format!("cute_gemm::gemm f64 {what}"),
    );

    // the fast path, f32
    let f = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<f32>>();
    let (a32, b32, mut c32) = (f(&a), f(&b), f(&c0));
    {
        let ta = Tensor::with_base(&a32[..], ba, la).unwrap();
        let tb = Tensor::with_base(&b32[..], bb, lb).unwrap();
        let mut tc = Tensor::with_base(&mut c32[..], bc, lc).unwrap();
        cute_gemm::gemm(&ta, &tb, &mut tc).unwrap();
    }
    let got: Vec<f64> = c32.iter().map(|&x| x as f64).collect();
    assert_close(
        &got,
        &want,
        tol_f32(k),
        &format!("cute_gemm::gemm f32 {what}"),
    );

    // integers: cute::gemm on i64 is the exact reference for cute_gemm::gemm on i64 (fallback)
    let (ai, bi, ci) = (
        random_ints(&mut rng, na),
        random_ints(&mut rng, nb),
        random_ints(&mut rng, nc),
    );
    let run_i = |fast: bool| {
        let mut c = ci.clone();
        let ta = Tensor::with_base(&ai[..], ba, la).unwrap();
        let tb = Tensor::with_base(&bi[..], bb, lb).unwrap();
        let mut tc = Tensor::with_base(&mut c[..], bc, lc).unwrap();
        if fast {
            cute_gemm::gemm(&ta, &tb, &mut tc).unwrap();
        } else {
            cute::gemm(&ta, &tb, &mut tc).unwrap();
        }
        c
    };
    let want_i = run_i(false);
    assert_ne!(want_i, ci, "{what}: the integer GEMM changed nothing");
    assert_eq!(run_i(true), want_i, "i64 {what}");
    // and the integer reference agrees with the naive loop exactly (small integers in f64)
    let to_f = |v: &[i64]| v.iter().map(|&x| x as f64).collect::<Vec<f64>>();
    let mut want_f = to_f(&ci);
    naive_gemm(
        &to_f(&ai),
        ba,
        &la,
        &to_f(&bi),
        bb,
        &lb,
        &mut want_f,
        bc,
        &lc,
    );
    assert_eq!(to_f(&want_i), want_f, "i64 reference vs naive {what}");
}

#[test]
fn nt_gemm() {
    // (M,K):(1,lda) (N,K):(1,ldb) (M,N):(1,ldc), with padded leading dimensions
    check("(37,29):(1,40)", "(23,29):(1,25)", "(37,23):(1,39)", 1);
    check("(64,48):(1,64)", "(40,48):(1,40)", "(64,40):(1,64)", 2);
}

#[test]
fn tn_gemm() {
    check("(37,29):(31,1)", "(23,29):(30,1)", "(37,23):(1,37)", 3);
    check("(100,70):(70,1)", "(90,70):(70,1)", "(100,90):(1,100)", 4);
}

#[test]
fn ntt_gemm() {
    // the roles swapped: A is (N,K), B (M,K), C (N,M)
    check("(23,29):(1,25)", "(37,29):(1,40)", "(23,37):(1,23)", 5);
}

#[test]
fn blis_gemm() {
    // general strides in every operand, including row- and column-major C
    check("(19,17):(3,60)", "(13,17):(40,2)", "(19,13):(13,1)", 6);
    check("(19,17):(17,1)", "(13,17):(1,13)", "(19,13):(2,40)", 7);
}

#[test]
fn gett_folded_rows() {
    // ((M1,M2),K):((1,W),X), (N,K):(K,1), ((M1,M2),N):((1,Y),Z)
    check(
        "((6,5),20):((1,8),40)",
        "(11,20):(20,1)",
        "((6,5),11):((1,7),35)",
        8,
    );
    // W = M1: the M sub-modes merge in A but not in C
    check(
        "((6,5),20):((1,6),30)",
        "(11,20):(20,1)",
        "((6,5),11):((1,7),35)",
        9,
    );
}

#[test]
fn gett_folded_reduction() {
    // the table's (M,(K1,K2)):((W,X),1), (N,(K1,K2)):((Y,Z),1), (M,N):(1,M), read with the
    // unit stride on M and N (the printed strides are not congruent with the shapes)
    check(
        "(9,(4,7)):(1,(9,40))",
        "(10,(4,7)):(1,(10,40))",
        "(9,10):(1,9)",
        10,
    );
    check(
        "(9,(4,7)):(1,(9,36))",
        "(10,(4,7)):(1,(10,40))",
        "(9,10):(1,9)",
        24,
    );
}

#[test]
fn conv_as_gemm_table_row() {
    // (K,(C,T,R,S)), ((N,Z,P,Q),(C,T,R,S)), (K,(N,Z,P,Q)): a 3-D convolution, stride 1, no
    // padding, on a packed X (N,C,D,H,W) = (2,3,4,5,6) with a (T,R,S) = (2,2,3) filter, so
    // (Z,P,Q) = (3,4,4). X strides: W 1, H 6, D 30, C 120, N 360.
    let b = "((2,3,4,4),(3,2,2,3)):((360,30,6,1),(120,30,6,1))";
    let a = "(5,(3,2,2,3)):(36,(12,6,3,1))"; // filters K×(C,T,R,S), packed
    let c = "(5,(2,3,4,4)):(1,(240,80,20,5))"; // output (N,K,Z,P,Q) packed
    check(a, b, c, 11);
    // the same with an NDHWC input (C stride 1)
    let b = "((2,3,4,4),(3,2,2,3)):((360,90,18,3),(1,90,18,3))";
    check(a, b, c, 12);
}

#[test]
fn negative_strides() {
    check("(37,29):(-1,40)", "(23,29):(1,-25)", "(37,23):(1,39)", 13);
    check(
        "(20,30):(-30,-1)",
        "(10,30):(-1,-10)",
        "(20,10):(-10,-1)",
        14,
    );
    check(
        "((4,5),(3,6)):((-1,4),(-20,60))",
        "(7,(3,6)):(18,(-6,-1))",
        "((4,5),7):((-1,-4),-20)",
        15,
    );
}

#[test]
fn broadcast_strides() {
    // zero strides in A and B: broadcast rows, columns and reduction terms
    check("(16,12):(0,1)", "(8,12):(12,1)", "(16,8):(1,16)", 16);
    check("(16,12):(1,16)", "(8,12):(1,0)", "(16,8):(8,1)", 17);
    check(
        "((4,3),12):((0,1),3)",
        "(8,(3,4)):(1,(0,8))",
        "((4,3),8):((1,4),12)",
        18,
    );
}

#[test]
fn batched() {
    check(
        "(8,9,3):(1,8,72)",
        "(7,9,3):(9,1,63)",
        "(8,7,3):(7,1,56)",
        19,
    );
    // batch with negative and hierarchical strides, and a broadcast A over the batch
    check(
        "(8,9,(2,2)):(1,8,(0,72))",
        "(7,9,(2,2)):(9,1,(-63,126))",
        "(8,7,(2,2)):(1,8,(56,112))",
        20,
    );
}

#[test]
fn refinement_without_common_boundaries() {
    // M is (2,3) in A and (3,2) in C: no common refinement, the rest is an opaque sub-mode
    check(
        "((2,3),5):((1,2),6)",
        "(4,5):(1,4)",
        "((3,2),4):((1,3),6)",
        21,
    );
}

/// Large kernel calls cut into tiles of C, one task each (`kernel::tile_grid`), in pools of 1, 3, 7
/// and 16 threads (grids 1×1 up to 4×16): every tile's origin is shifted along M and N, so
/// negative strides, broadcasts, transposed C and an L loop around the calls are all checked
/// against the naive loop.
#[test]
fn tiles_of_c_in_pools_of_any_size() {
    for threads in [1, 3, 7, 16] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            check(
                "(300,200):(-1,300)",
                "(260,200):(200,-1)",
                "(300,260):(1,300)",
                40,
            );
            check(
                "(257,130):(130,1)",
                "(129,130):(0,1)",
                "(257,129):(129,1)",
                41,
            );
            check(
                "(200,(10,13),2):(1,(200,2000),-26000)",
                "(190,(10,13),2):(130,(13,1),0)",
                "(200,190,2):(190,1,38000)",
                42,
            );
        });
    }
}

#[test]
fn large_enough_to_thread() {
    // kernel pieces large enough for the gemm crate's own threading, and small pieces with a
    // split outer loop
    check(
        "(300,200):(1,300)",
        "(250,200):(200,1)",
        "(300,250):(250,1)",
        22,
    );
    check(
        "((16,40),(8,3)):((1,16),(640,5120))",
        "(12,(8,3)):(24,(3,1))",
        "((16,40),12):((12,192),1)",
        23,
    );
}

#[test]
fn plan_merges_contiguous_modes() {
    // row-major mk,kn->mn in the paper's convention: A (M,K):(K,1), B (N,K):(1,N), C (M,N):(N,1)
    let plan = cute_gemm::plan_gemm(
        &lay("((4,8),(2,16)):((256,32),(16,1))"),
        &lay("(64,(2,16)):(1,(1024,64))"),
        &lay("((4,8),64):((512,64),1)"),
    )
    .unwrap();
    assert_eq!(plan.kernel(), (32, 64, 32));
    assert_eq!(plan.calls(), 1);
    // the paper's GETT: (M1,M2) do not merge in C, one outer loop of M2
    let plan = cute_gemm::plan_gemm(
        &lay("((6,5),20):((1,8),40)"),
        &lay("(11,20):(20,1)"),
        &lay("((6,5),11):((1,7),35)"),
    )
    .unwrap();
    assert_eq!(plan.kernel(), (6, 11, 20));
    assert_eq!(plan.outer_loops(), vec![(cute_gemm::Mode::M, 5)]);
}
