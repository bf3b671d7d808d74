//! Error cases: the category and the message name the operation, operands and condition.

use cute::{Layout, Tensor};
use cute_gemm::{contract, conv2d, gemm, ConvParams};

fn lay(s: &str) -> Layout {
    s.parse().unwrap()
}

fn run_contract(spec: &str, la: &str, lb: &str, lc: &str) -> cute::Error {
    let (a, b, mut c) = (vec![0f32; 4096], vec![0f32; 4096], vec![0f32; 4096]);
    let ta = Tensor::new(&a[..], lay(la)).unwrap();
    let tb = Tensor::new(&b[..], lay(lb)).unwrap();
    let mut tc = Tensor::new(&mut c[..], lay(lc)).unwrap();
    contract(spec, &ta, &tb, &mut tc).unwrap_err()
}

#[test]
fn gemm_refuses_c_that_is_not_injective() {
    let (a, b) = (vec![1f32; 64], vec![1f32; 64]);
    let mut c = vec![0f32; 64];
    let ta = Tensor::new(&a[..], lay("(4,8):(1,4)")).unwrap();
    let tb = Tensor::new(&b[..], lay("(4,8):(1,4)")).unwrap();
    let mut tc = Tensor::new(&mut c[..], lay("(4,4):(1,2)")).unwrap();
    let e = gemm(&ta, &tb, &mut tc).unwrap_err();
    assert_eq!(e.category(), "NotInjective");
    assert_eq!(
        e.to_string(),
        "gemm (4,4):(1,2): the layout is not injective: indices 2 and 4 reach the same offset"
    );
    assert!(c.iter().all(|&x| x == 0.0), "C must be untouched");
    // an injective C that the quick test cannot prove: (3,2):(2,3) takes 0,2,4,3,5,7
    let mut tc = Tensor::new(&mut c[..], lay("(3,2):(2,3)")).unwrap();
    let ta = Tensor::new(&a[..], lay("(3,5):(1,3)")).unwrap();
    let tb = Tensor::new(&b[..], lay("(2,5):(1,2)")).unwrap();
    gemm(&ta, &tb, &mut tc).unwrap();
    assert_eq!(&c[..8], &[5.0, 0.0, 5.0, 5.0, 5.0, 5.0, 0.0, 5.0]);
}

#[test]
fn gemm_extent_mismatch() {
    let (a, b) = (vec![1f64; 64], vec![1f64; 64]);
    let mut c = vec![0f64; 64];
    let ta = Tensor::new(&a[..], lay("(4,8):(1,4)")).unwrap();
    let tb = Tensor::new(&b[..], lay("(4,7):(1,4)")).unwrap();
    let mut tc = Tensor::new(&mut c[..], lay("(4,4):(1,4)")).unwrap();
    let e = gemm(&ta, &tb, &mut tc).unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
    assert_eq!(
        e.to_string(),
        "gemm (4,8):(1,4), (4,7):(1,4): gemm precondition K: size<1>(A) == size<1>(B) (8 vs 7)"
    );
}

#[test]
fn contract_syntax() {
    let e = run_contract("mk,kn>mn", "(2,2):(1,2)", "(2,2):(1,2)", "(2,2):(1,2)");
    assert_eq!(e.category(), "Syntax");
    assert_eq!(
        e.to_string(),
        "contract: at byte 8: expected '->' followed by the output term (as in \"mk,kn->mn\")"
    );
    let e = run_contract("mk kn->mn", "(2,2):(1,2)", "(2,2):(1,2)", "(2,2):(1,2)");
    assert_eq!(
        e.to_string(),
        "contract: at byte 5: expected ',' between the two input terms"
    );
    let e = run_contract("mk,k1->mn", "(2,2):(1,2)", "(2,2):(1,2)", "(2,2):(1,2)");
    assert_eq!(e.category(), "Syntax");
    assert!(
        e.to_string()
            .starts_with("contract: at byte 4: expected an ASCII letter"),
        "{e}"
    );
}

#[test]
fn contract_rank_and_extent_mismatch() {
    let e = run_contract("mk,kn->mn", "(2,3,4):(1,2,6)", "(3,5):(1,3)", "(2,5):(1,2)");
    assert_eq!(e.category(), "ProfileMismatch");
    assert_eq!(
        e.to_string(),
        "contract (2,3,4):(1,2,6): tensor A needs one top-level mode per letter of the first term \
         (rank vs letters) (3 vs 2)"
    );
    let e = run_contract("mk,kn->mn", "(2,3):(1,2)", "(4,5):(1,4)", "(2,5):(1,2)");
    assert_eq!(e.category(), "ProfileMismatch");
    assert_eq!(
        e.to_string(),
        "contract (2,3):(1,2), (4,5):(1,4): letter 'k' names a mode of size 3 in A and a mode of \
         size 4 in B"
    );
}

#[test]
fn contract_unsupported_letters() {
    // a letter in one term only
    let e = run_contract(
        "mkx,kn->mn",
        "(2,3,2):(1,2,6)",
        "(3,5):(1,3)",
        "(2,5):(1,2)",
    );
    assert_eq!(e.category(), "Unsupported");
    assert_eq!(
        e.to_string(),
        "contract (2,3,2):(1,2,6): unsupported: letter 'x' at position 2 of term A: it occurs in \
         no other term; a GETT letter is a row (A and C), column (B and C), reduction (A and B) or \
         batch (all three) mode"
    );
    // a repeated letter (diagonal)
    let e = run_contract("mm,mn->mn", "(2,2):(1,2)", "(2,5):(1,2)", "(2,5):(1,2)");
    assert_eq!(e.category(), "Unsupported");
    assert_eq!(
        e.to_string(),
        "contract (2,2):(1,2): unsupported: letter 'm' at position 1 of term A: it repeats an \
         earlier letter of the same term (a diagonal), which is not a GETT mode"
    );
    // a letter in the output only (a broadcast), named with its term
    let e = run_contract(
        "mk,kn->mnq",
        "(2,3):(1,2)",
        "(3,4):(1,3)",
        "(2,4,2):(1,2,8)",
    );
    assert!(
        matches!(
            e.kind(),
            cute::ErrorKind::ContractLetter {
                letter: b'q',
                term: 2,
                position: 2,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("of term C (the output)"), "{e}");
    // C not injective, reported as contract
    let e = run_contract("mk,kn->mn", "(2,3):(1,2)", "(3,4):(1,3)", "(2,4):(0,1)");
    assert_eq!(e.category(), "NotInjective");
    assert_eq!(
        e.to_string(),
        "contract (2,4):(0,1): the layout is not injective: indices 0 and 1 reach the same offset"
    );
    // C's modes in another order than its folded view ((m),(n)): the indices are C's own
    // (leaf m of stride 0 weighs 4 in C = (n,m); it would weigh 1 in the view (2,4):(0,1))
    let e = run_contract("mk,kn->nm", "(2,3):(1,2)", "(3,4):(1,3)", "(4,2):(1,0)");
    assert_eq!(
        e.to_string(),
        "contract (4,2):(1,0): the layout is not injective: indices 0 and 4 reach the same offset"
    );
}

#[test]
fn conv_mismatches() {
    let x = vec![0f32; 2 * 3 * 8 * 8];
    let wv = vec![0f32; 4 * 3 * 3 * 3];
    let mut y = vec![0f32; 2 * 4 * 8 * 8];
    let tx = Tensor::new(&x[..], lay("(2,3,8,8):(192,64,8,1)")).unwrap();
    let tw = Tensor::new(&wv[..], lay("(4,3,3,3):(27,9,3,1)")).unwrap();
    // without padding the output is 6×6, Y says 8×8
    let mut ty = Tensor::new(&mut y[..], lay("(2,4,8,8):(256,64,8,1)")).unwrap();
    let e = conv2d(&tx, &tw, &mut ty, &ConvParams::default()).unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
    assert_eq!(
        e.to_string(),
        "conv (2,3,8,8):(192,64,8,1), (2,4,8,8):(256,64,8,1): conv: the output size P from H, R, \
         stride, padding, dilation differs from mode 2 of Y (6 vs 8)"
    );
    let bad = ConvParams {
        stride: [0, 1],
        ..ConvParams::default()
    };
    let e = conv2d(&tx, &tw, &mut ty, &bad).unwrap_err();
    assert_eq!(e.category(), "InvalidShape");
    assert_eq!(
        e.to_string(),
        "conv (2,3,8,8):(192,64,8,1): shape entries must be positive integers, found 0"
    );
}
