//! Evaluation of layouts with unknown extents (`symbolic::eval`, a sum of products), checked at
//! admissible values against the integer `eval_crd`, and regressions found by comparing the
//! symbolic operations with the integer library (read-back of printed results, refusals that
//! name the right reason, the rank products' zip).

use super::symbolic::{coord_text, facts, layout_text, values, Rng, LIMIT};
use cute::symbolic::{self, Sym, SymLayout};
use cute::Layout;

#[test]
fn eval_agrees_with_the_integer_library_at_admissible_values() {
    let mut r = Rng(0x0E7A_1CED);
    let (mut answered, mut refused, mut points) = (0, 0, 0);
    for _ in 0..3000 {
        let names = facts(&mut r);
        let text = layout_text(&mut r, &names);
        let a: SymLayout = text.parse().unwrap();
        let Ok(probe) = a.substitute(&values(0, &[&a])) else {
            continue;
        };
        // an index (past the size too: the last mode is not reduced), or a natural or partly
        // collapsed coordinate
        let ct = if r.below(2) == 0 {
            r.below(2 * probe.size().min(LIMIT) as usize + 1)
                .to_string()
        } else {
            coord_text(&mut r, &probe, true).replace('_', &r.below(7).to_string())
        };
        let c: cute::IntTuple = ct.parse().unwrap();
        let got = symbolic::eval(&a, &c);
        for seed in 0..6u64 {
            let v = values(seed.wrapping_mul(7919) + 1, &[&a]);
            let Ok(al) = a.substitute(&v) else { continue };
            let want = al.eval_crd(&c);
            match &got {
                Ok(o) => {
                    let want = want.unwrap_or_else(|e| {
                        panic!("eval {a} {c}: {o} at {al}, where the integer one refuses: {e}")
                    });
                    assert_eq!(o.substitute(&v), Some(want), "eval {a} {c} = {o} at {al}");
                    points += 1;
                }
                // a refusal for every value: the integer library refuses at each one
                Err(e) if e.category() == "Divisibility" => {
                    assert!(want.is_err(), "eval {a} {c}: {e}, but at {al}: {want:?}")
                }
                Err(e) => assert_eq!(e.category(), "Condition", "{e}"),
            }
        }
        match got {
            Ok(_) => answered += 1,
            Err(_) => refused += 1,
        }
    }
    eprintln!("eval: {answered} answered, {refused} refused, {points} points");
    assert!(answered > 1000 && refused > 100 && points > 5_000);
}

#[test]
fn eval_names_the_bound_an_index_needs() {
    let l: SymLayout = "(4,M{min=2},N):(1,4,4*M)".parse().unwrap();
    let c = |s: &str| s.parse::<cute::IntTuple>().unwrap();
    // 4*1 + 4*(2-1): (1,1) of the first two modes, through M >= 2
    assert_eq!(symbolic::eval(&l, &c("5")).unwrap().to_string(), "5");
    assert_eq!(
        symbolic::eval(&l, &c("(1,1,2)")).unwrap().to_string(),
        "5+8*M{min=2}"
    );
    let e = symbolic::eval(&l, &c("9")).unwrap_err();
    assert_eq!(e.category(), "Condition");
    assert!(e.to_string().contains("needs M{min=2} > 2"), "{e}");
    let e = symbolic::eval(&l, &c("(1,2)")).unwrap_err();
    assert!(e.to_string().contains("not weakly congruent"), "{e}");
    // like terms merge, and cancel
    let l: SymLayout = "(2,2):(M,-M)".parse().unwrap();
    assert_eq!(symbolic::eval(&l, &c("(1,1)")).unwrap().to_string(), "0");
    assert_eq!(symbolic::eval(&l, &c("(1,0)")).unwrap().to_string(), "M");
}

#[test]
fn printed_results_read_back_and_refusals_say_why() {
    let l = |s: &str| s.parse::<SymLayout>().unwrap();
    // a rest ⌈(N/2)/8⌉ prints without a division inside the ceiling, and reads back
    let r = symbolic::logical_divide(&l("N{div=2}/2:1"), &l("8:1")).unwrap();
    assert_eq!(r.to_string(), "(8,⌈N{div=2}/16⌉):(1,8)");
    assert_eq!(l(&r.to_string()), r);
    // a static stride-0 mode: not injective, said as such (no run-time condition)
    let e = symbolic::left_inverse(&l("(4,2,M):(1,0,4)")).unwrap_err();
    assert_eq!(e.category(), "Divisibility");
    assert!(e.to_string().contains("not injective"), "{e}");
    // a nested tiler is unsupported, not a syntax error
    let e = "<<4:1,2:1>,_>".parse::<symbolic::SymTiler>().unwrap_err();
    assert_eq!(e.category(), "Unsupported");
    // a fact given twice is refused
    let e = "M{div=4,div=8}:1".parse::<SymLayout>().unwrap_err();
    assert!(e.to_string().contains("`div` is given once"), "{e}");
    // a tuple entry against a single mode
    let e = symbolic::slice(&l("M:1"), &"(_)".parse().unwrap()).unwrap_err();
    assert!(e.to_string().contains("meets the single mode M:1"), "{e}");
    // a condition between integers that fails is no run-time condition
    let e = symbolic::composition(&l("(2,M):(4,16)"), &l("3:1")).unwrap_err();
    assert_eq!(e.category(), "Unsupported");
    assert!(
        e.to_string().contains("(2 and 3 divide neither way)"),
        "{e}"
    );
    // a composition by mode names the mode
    let t = "<_,3:1>".parse().unwrap();
    let e = symbolic::composition_by_mode(&l("(4,(2,M)):(1,(4,16))"), &t).unwrap_err();
    assert!(
        e.to_string().contains("at mode 1: (2,M):(4,16) ∘ 3:1: "),
        "{e}"
    );
    // negative strides over unknowns read and print
    assert_eq!(l("(M,4):(-M,-1)").to_string(), "(M,4):(-M,-1)");
}

#[test]
fn rank_products_zip_as_the_integer_library_does() {
    // CuTe's zip: a single-mode tile gives the 1-tuple ((A, grid)); a tuple against a single mode
    // is refused (C++ does not compile it), at every value as the integer library does
    let l = |s: &str| s.parse::<SymLayout>().unwrap();
    let cases = [
        ("M{min=2}:2", "4:1"),
        ("(M,2):(1,M)", "4:1"),
        ("M:1", "(2,3):(1,2)"),
    ];
    for (a, b) in cases {
        let (a, b) = (l(a), l(b));
        for (got, int_op) in [
            (
                symbolic::blocked_product(&a, &b),
                cute::blocked_product as fn(&Layout, &Layout) -> _,
            ),
            (symbolic::raked_product(&a, &b), cute::raked_product),
        ] {
            for m in [2, 4, 6] {
                let v = |_: &Sym| m;
                let (sa, sb) = (a.substitute(&v).unwrap(), b.substitute(&v).unwrap());
                match (&got, int_op(&sa, &sb)) {
                    (Ok(g), Ok(w)) => assert_eq!(g.substitute(&v).unwrap(), w, "{a} {b}"),
                    (Err(_), Err(_)) => {}
                    (g, w) => panic!("{a} {b} at {m}: {g:?} against {w:?}"),
                }
            }
        }
    }
}
