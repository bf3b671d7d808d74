//! The algebra evaluated by the compiler: the same `const fn`s as at run time.

use cute::{coalesce, complement, composition, Layout};

const fn lay(s: &str) -> Layout {
    match Layout::parse_const(s) {
        Ok(l) => l,
        Err(_) => panic!("bad layout literal"),
    }
}

const DATA: Layout = lay("(8,8):(8,1)");
const TV: Layout = lay("((4,8),2):((16,1),8)");
const R: Layout = match composition(&DATA, &TV) {
    Ok(r) => r,
    Err(_) => panic!("inadmissible composition"),
};
const C: Layout = match complement(&lay("(4,8):(1,8)")) {
    Ok(r) => r,
    Err(_) => panic!("no complement"),
};
const K: Layout = coalesce(&lay("(2,(1,6)):(1,(6,2))"));
const R22: i64 = match lay("((2,2),(4,2)):((1,8),(2,16))").eval(22) {
    Ok(v) => v,
    Err(_) => panic!(),
};

#[test]
fn const_results_equal_runtime_results() {
    assert_eq!(R.to_string(), "((4,8),2):((2,8),1)"); // Table 4 RowMajor
    assert_eq!(R, composition(&DATA, &TV).unwrap());
    assert_eq!(C.to_string(), "(2,1):(4,64)"); // Table 7 row 5
    assert_eq!(K.to_string(), "12:1"); // S-COAL-1
    assert_eq!(R22, 26); // S-EVAL-1
}
