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

// The macros and `unwrap`: constants in CuTe notation, with every stride semimodule.
const TV2: Layout = cute::layout!("((4,8),2):((16,1),8)");
const COORD_INV: Layout = cute::unwrap(cute::right_inverse(&cute::layout!(
    "(4,(4,2)):(1@1,(1@0,6@1))"
)));
const SWIZZLED: Layout = cute::unwrap(composition(&cute::layout!("(8,8):(F1,F9)"), &TV2));
const DIVIDED: Layout = cute::unwrap(cute::logical_divide(
    &cute::layout!("(8,16):(20,1)"),
    &cute::tiler!("<4:1,8:2>"),
));
const SHAPE: cute::IntTuple = cute::int_tuple!("((4,8),(8,16))");
const MESSAGE: cute::Text =
    match composition(&cute::layout!("(4,6,8):(2,3,5)"), &cute::layout!("6:3")) {
        Ok(_) => cute::Text::new(),
        Err(e) => e.message(),
    };

#[test]
fn macros_and_every_semimodule_in_const_context() {
    assert_eq!(TV2, lay("((4,8),2):((16,1),8)"));
    assert_eq!(COORD_INV.to_string(), "(4,4):(4,1)"); // Table 5 row 10
    assert_eq!(SWIZZLED.to_string(), "((4,8),2):((F18,F1),F9)"); // Table 4, Swizzled
    assert_eq!(DIVIDED.to_string(), "((4,2),(8,2)):((20,80),(2,1))"); // Figure 12
    assert_eq!(SHAPE.size().unwrap(), 4096);
    // the message built by the compiler is the run-time message
    let runtime = composition(&lay("(4,6,8):(2,3,5)"), &lay("6:3")).unwrap_err();
    assert_eq!(MESSAGE.as_str(), runtime.to_string());
    assert!(MESSAGE
        .as_str()
        .starts_with("composition (4,6,8):(2,3,5) ∘ 6:3: stride-divisibility"));
}
