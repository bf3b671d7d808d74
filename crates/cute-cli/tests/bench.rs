//! `cute bench`: the report has every key of the benchmark set, in order, and figures where the
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
    let n = l.size() as usize;
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
    // the compile-time layout and the baselines with constant extents
    use cute::StaticLayout;
    assert_eq!(bench::EvalStatic::LAYOUT, l);
    bench::fill_static_index(&mut buf);
    assert_eq!(buf, reference);
    bench::fill_hand_const_index(&mut buf);
    assert_eq!(buf, reference);
    bench::fill_static_natural(&mut buf);
    assert_eq!(buf, reference);
    bench::fill_hand_const_loops(&mut buf);
    assert_eq!(buf, reference);
    // the copies: dst(i) = src(i) with the compact destination, so dst[i] = src[L(i)]
    let src: Vec<f32> = (0..n).map(|x| x as f32).collect();
    let expected: Vec<f32> = reference.iter().map(|&o| src[o as usize]).collect();
    let mut out = vec![0f32; n];
    bench::copy_hand_const(&src, &mut out);
    assert_eq!(out, expected);
    let mut out = vec![0f32; n];
    {
        let s = cute::StaticTensor::<bench::EvalStatic, _>::new(&src[..]).unwrap();
        let mut d = cute::StaticTensor::<bench::CopyDst, _>::new(&mut out[..]).unwrap();
        bench::copy_static(&s, &mut d);
    }
    assert_eq!(out, expected);
}

#[test]
fn table_reports_the_static_ratios() {
    let figures: Vec<(&str, Option<f64>)> = KEYS.iter().map(|&k| (k, Some(1.0))).collect();
    let table = bench::to_table(&figures);
    for (a, b, _) in bench::RATIOS {
        assert!(table.contains(&format!("{a} / {b}")), "{table}");
    }
}
