//! The public conformance set (tests/data/cases.tsv, provenance in tests/data/README.md), run
//! through the same dispatcher as `cute conformance`, compared with the rules of the set's
//! `conformance_diff.py`: exact text after normalisation, errors by category, the stride of a
//! size-1 mode not compared except in the paper-form complement cases.

use cute_cli::conformance::compute;
use std::collections::BTreeMap;

mod support;

use support::{parse_cases, same};

fn cases() -> Vec<support::Case> {
    parse_cases(include_str!("data/cases.tsv"))
}

/// Brute-force check that `wrong` is NOT `mode(A, i) ∘ B` for a `composition_mode A i B` case.
fn composition_mode_value_is_wrong(args: &[String], wrong: &str) -> bool {
    let a: cute::Layout = args[0].parse().unwrap();
    let i: usize = args[1].parse().unwrap();
    let b: cute::Layout = args[2].parse().unwrap();
    let r: cute::Layout = wrong.parse().unwrap();
    let (ai, ri) = (a.mode(i).unwrap(), r.mode(i).unwrap());
    (0..b.size()).any(|k| ri.eval(k).unwrap() != ai.eval(b.eval(k).unwrap()).unwrap())
}

/// The oracle values that the set overturned (`# pycute returns wrong layout X (reason)` above a
/// `composition_mode` case that expects the refusal) are wrong by brute force, not on trust.
#[test]
fn overturned_oracle_values_are_wrong() {
    let text = include_str!("data/cases.tsv");
    let lines: Vec<&str> = text.lines().collect();
    let mut checked = 0;
    for (n, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("# pycute returns wrong layout ") else {
            continue;
        };
        let f: Vec<&str> = lines[n + 1].split('\t').collect();
        if f[0] != "composition_mode" {
            continue;
        }
        let wrong = rest.split(' ').next().unwrap();
        let k = f.iter().position(|x| *x == "=>").unwrap();
        let args: Vec<String> = f[1..k].iter().map(|s| s.to_string()).collect();
        assert!(f[k + 1].starts_with("ERROR"), "line {}", n + 2);
        assert!(
            composition_mode_value_is_wrong(&args, wrong),
            "line {}: the oracle value {wrong} is right after all",
            n + 2
        );
        checked += 1;
    }
    assert!(checked >= 1, "the set overturns a composition_mode value");
}

#[test]
fn every_case_matches() {
    let all = cases();
    assert!(
        all.len() > 3000,
        "the public set has 3799 cases, read {}",
        all.len()
    );
    let mut per: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = vec![];
    for c in &all {
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let got = compute(&c.op, &args);
        let ok = same(&c.expected, &got, c.strict);
        let e = per.entry(c.op.clone()).or_default();
        if ok {
            e.0 += 1;
        } else {
            e.1 += 1;
            failures.push(format!(
                "line {}: {} {}\n    expected: {}\n    actual:   {}",
                c.line,
                c.op,
                c.args.join(" "),
                c.expected,
                got
            ));
        }
    }
    let passed: usize = per.values().map(|p| p.0).sum();
    let total: usize = per.values().map(|p| p.0 + p.1).sum();
    if !failures.is_empty() {
        let table: Vec<String> = per
            .iter()
            .filter(|(_, p)| p.1 > 0)
            .map(|(op, p)| format!("{op}: {} pass, {} fail", p.0, p.1))
            .collect();
        panic!(
            "{passed}/{total} integer-stride cases match\n{}\nfirst failures:\n{}",
            table.join("\n"),
            failures
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    // (3801 before the two left_inverse cases C++ refuses, now answered, became `# removed` lines)
    assert_eq!(total, 3799, "the public set has 3799 cases");
}

#[test]
fn comparison_rules_follow_conformance_diff() {
    // size-1 strides are not compared, except in strict (paper-form complement) cases
    assert!(same("((4,4),1):((4,1),0)", "((4,4),1):((4,1),16)", false));
    assert!(!same("(2,1):(4,64)", "(2,1):(4,0)", true));
    // static markers and whitespace are ignored
    assert!(same("(_4,_8):(_1,_4)", "(4, 8):(1, 4)", false));
    // errors compare by category only
    assert!(same(
        "ERROR Divisibility",
        "ERROR Divisibility composition ...",
        false
    ));
    assert!(!same("ERROR Divisibility", "ERROR NotInjective", false));
    assert!(!same("ERROR Divisibility", "2:4", false));
    // shapes are compared exactly
    assert!(!same("(4,8):(1,4)", "((4),8):((1),4)", false));
}
