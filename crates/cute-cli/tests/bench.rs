//! `cute bench`: the report has every key of the issue, in order, and figures where the
//! operation is built (the measurement itself checks that the four evaluations agree).

use cute_cli::bench::{self, Clock, KEYS};

#[test]
fn report_has_every_key() {
    let figures = bench::measure(Clock::ThreadCpu);
    let keys: Vec<&str> = figures.iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, KEYS);
    for (k, v) in &figures {
        let built = !matches!(
            *k,
            "logical_divide" | "right_inverse" | "logical_product" | "blocked_product"
        );
        if built {
            assert!(v.is_some_and(|ns| ns > 0.0), "{k}: {v:?}");
        }
    }
    let json = bench::to_json(&figures);
    assert!(json.starts_with('{') && json.ends_with('}'));
    for k in KEYS {
        assert!(
            json.contains(&format!("\"{k}\": ")),
            "{k} missing from {json}"
        );
    }
}

#[test]
fn baselines_agree_with_the_layout() {
    let l: cute::Layout = bench::EVAL_LAYOUT.parse().unwrap();
    let n = l.size().unwrap() as usize;
    let reference: Vec<i64> = (0..n as i64).map(|i| l.eval(i).unwrap()).collect();
    let (s, d) = ([4i64, 8, 8, 16], [8i64, 512, 1, 32]);
    let mut buf = vec![0; n];
    bench::fill_hand_index(&mut buf, &s.map(|x| x as u64), &d);
    assert_eq!(buf, reference);
    bench::fill_hand_loops(&mut buf, &s, &d);
    assert_eq!(buf, reference);
    bench::fill_eval_index(&mut buf, &l.evaluator().unwrap());
    assert_eq!(buf, reference);
    bench::fill_eval_natural(&mut buf, &l);
    assert_eq!(buf, reference);
}
