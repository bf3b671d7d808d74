//! The linear form of a layout (paper Table 1) reproduces its evaluation: `L(c̃) = D·c̃` at every
//! natural coordinate, for integer, coordinate (E) and binary (F2) strides; and the paper's rows.

use super::gen::*;
use cute::{linear_form, IntTuple, Layout, Stride};
use proptest::prelude::*;

/// Every natural coordinate of `shape` (leaves), colexicographic.
fn naturals(shape: &[i64]) -> Vec<Vec<i64>> {
    let n: i64 = shape.iter().product();
    (0..n).map(|i| digits(shape, i)).collect()
}

fn check(l: &Layout) -> Result<(), TestCaseError> {
    let d = linear_form(l).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let shape: Vec<i64> = (0..l.leaf_count()).map(|k| l.leaf_at(k).0).collect();
    for (i, c) in naturals(&shape).into_iter().enumerate() {
        let expect = l.eval_value(i as i64).unwrap();
        prop_assert_eq!(
            d.apply(&c, &shape).unwrap(),
            expect,
            "{} at {:?}: D = {}",
            l,
            c,
            d
        );
    }
    Ok(())
}

/// A random layout of `g`'s profile and shapes whose strides are scaled bases `v@path` (paths of
/// `0`, `1` or `(2,j)`, drawn from the seed) or, with `binary`, F2 values (shapes made powers of two).
fn restride(g: &GenLayout, seed: u64, binary: bool) -> Layout {
    let mut x = seed;
    let mut next = || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        x >> 33
    };
    let shape: Vec<i64> = if binary {
        g.shape.iter().map(|&s| 1 << (s % 4)).collect()
    } else {
        g.shape.clone()
    };
    let strides: Vec<Stride> = g
        .stride
        .iter()
        .map(|&v| {
            if binary {
                Stride::f2(v as u64).unwrap()
            } else if next() % 2 == 0 {
                Stride::basis(v, &[(next() % 2) as usize]).unwrap()
            } else {
                Stride::basis(v, &[2, (next() % 2) as usize]).unwrap()
            }
        })
        .collect();
    let s: IntTuple = g.prof.build(&shape);
    Layout::from_strides(&s, &strides).unwrap()
}

#[test]
fn paper_table_1() {
    for (l, d) in [
        ("((2,2),(4,2)):((1,8),(2,16))", "[1 8 2 16]"),
        ("(4,(4,2)):(1@1,(1@0,6@1))", "[[0 1 0];[1 0 6]]"),
        ("(4,4):(F1,F5)", "[[1 0 1 0];[0 1 0 1];[0 0 1 0];[0 0 0 1]]"),
        (
            "((2,2),(2,2)):((F1,F2),(F5,F10))",
            "[[1 0 1 0];[0 1 0 1];[0 0 1 0];[0 0 0 1]]",
        ),
    ] {
        let l: Layout = l.parse().unwrap();
        assert_eq!(linear_form(&l).unwrap().to_string(), d, "{l}");
    }
    // an F2 form needs power-of-two extents
    let l: Layout = "(3,4):(F1,F5)".parse().unwrap();
    assert_eq!(linear_form(&l).unwrap_err().category(), "Unsupported");
}

#[test]
fn linear_form_reproduces_evaluation_integer() {
    run(256, layout(), |l| check(&l));
}

#[test]
fn linear_form_reproduces_evaluation_coordinate() {
    run(256, (gen_layout(), any::<u64>()), |(g, seed)| {
        check(&restride(&g, seed, false))
    });
}

#[test]
fn linear_form_reproduces_evaluation_binary() {
    run(256, (gen_layout(), any::<u64>()), |(g, seed)| {
        check(&restride(&g, seed, true))
    });
}
