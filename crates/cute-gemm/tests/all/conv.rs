//! `conv2d` against the direct 7-loop convolution, NCHW / NHWC / negative-stride inputs, several
//! strides, paddings and dilations.

use crate::util::*;
use cute::{Layout, Tensor};
use cute_gemm::{conv2d, ConvParams};

/// Packed layout of extents `e` with the modes laid out in memory in `order` (innermost first),
/// the modes listed in `neg` reversed.
fn packed(e: [i64; 4], order: [usize; 4], neg: &[usize]) -> Layout {
    let mut d = [0i64; 4];
    let mut next = 1;
    for m in order {
        d[m] = next;
        next *= e[m];
    }
    for &m in neg {
        d[m] = -d[m];
    }
    Layout::flat(&e, &d).unwrap()
}

#[allow(clippy::too_many_arguments)]
fn check(
    n: i64,
    c: i64,
    h: i64,
    w: i64,
    k: i64,
    r: i64,
    s: i64,
    p: ConvParams,
    x_order: [usize; 4],
    x_neg: &[usize],
    seed: u64,
) {
    let [sh, sw] = p.stride;
    let [ph, pw] = p.padding;
    let [dh, dw] = p.dilation;
    let pp = (h + 2 * ph - dh * (r - 1) - 1) / sh + 1;
    let qq = (w + 2 * pw - dw * (s - 1) - 1) / sw + 1;
    let lx = packed([n, c, h, w], x_order, x_neg);
    let lw = packed([k, c, r, s], [3, 2, 1, 0], &[]);
    let ly = packed([n, k, pp, qq], [1, 3, 2, 0], &[]); // NPQK-ish: K innermost
    let mut rng = Rng::new(seed);
    let ((bx, nx), (bw, nw), (by, ny)) = (extent(&lx, 0), extent(&lw, 0), extent(&ly, 0));
    let (xv, wv, y0) = (
        random_vec(&mut rng, nx),
        random_vec(&mut rng, nw),
        random_vec(&mut rng, ny),
    );
    // the direct convolution: 7 loops
    let mut want = y0.clone();
    let at = |l: &Layout, base: usize, i: [i64; 4]| -> usize {
        (base as i64
            + (0..4)
                .map(|m| l.mode(m).unwrap().eval(i[m]).unwrap())
                .sum::<i64>()) as usize
    };
    for ni in 0..n {
        for ki in 0..k {
            for pi in 0..pp {
                for qi in 0..qq {
                    for ci in 0..c {
                        for ri in 0..r {
                            for si in 0..s {
                                let hi = pi * sh - ph + ri * dh;
                                let wi = qi * sw - pw + si * dw;
                                if (0..h).contains(&hi) && (0..w).contains(&wi) {
                                    want[at(&ly, by, [ni, ki, pi, qi])] += wv
                                        [at(&lw, bw, [ki, ci, ri, si])]
                                        * xv[at(&lx, bx, [ni, ci, hi, wi])];
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    let what = format!("X {lx} W {lw} Y {ly} {p:?}");
    let mut y = y0.clone();
    {
        let tx = Tensor::with_base(&xv[..], bx, lx).unwrap();
        let tw = Tensor::with_base(&wv[..], bw, lw).unwrap();
        let mut ty = Tensor::with_base(&mut y[..], by, ly).unwrap();
        conv2d(&tx, &tw, &mut ty, &p).unwrap();
    }
    assert_close(&y, &want, tol_f64(c * r * s), &format!("f64 {what}"));
    let f = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<f32>>();
    let (x32, w32, mut y32) = (f(&xv), f(&wv), f(&y0));
    {
        let tx = Tensor::with_base(&x32[..], bx, lx).unwrap();
        let tw = Tensor::with_base(&w32[..], bw, lw).unwrap();
        let mut ty = Tensor::with_base(&mut y32[..], by, ly).unwrap();
        conv2d(&tx, &tw, &mut ty, &p).unwrap();
    }
    let got: Vec<f64> = y32.iter().map(|&x| x as f64).collect();
    assert_close(&got, &want, tol_f32(c * r * s), &format!("f32 {what}"));
}

const NCHW: [usize; 4] = [3, 2, 1, 0];
const NHWC: [usize; 4] = [1, 3, 2, 0];

fn params(stride: [i64; 2], padding: [i64; 2], dilation: [i64; 2]) -> ConvParams {
    ConvParams {
        stride,
        padding,
        dilation,
    }
}

#[test]
fn no_padding_is_one_gemm() {
    check(2, 3, 9, 10, 4, 3, 3, ConvParams::default(), NCHW, &[], 1);
    check(
        2,
        3,
        9,
        10,
        4,
        3,
        2,
        params([2, 1], [0, 0], [1, 2]),
        NHWC,
        &[],
        2,
    );
}

#[test]
fn padding_stride_dilation() {
    let mut seed = 10;
    for stride in [[1, 1], [2, 2], [3, 1]] {
        for padding in [[1, 1], [2, 0], [0, 3]] {
            for dilation in [[1, 1], [2, 1]] {
                let p = params(stride, padding, dilation);
                check(2, 3, 8, 7, 5, 3, 3, p, NCHW, &[], seed);
                check(1, 4, 7, 9, 3, 2, 3, p, NHWC, &[2], seed + 1);
                seed += 2;
            }
        }
    }
}

#[test]
fn negative_and_permuted_inputs() {
    check(
        2,
        3,
        8,
        8,
        4,
        3,
        3,
        params([1, 1], [1, 1], [1, 1]),
        [2, 0, 3, 1],
        &[0, 3],
        50,
    );
    check(
        3,
        2,
        6,
        11,
        2,
        2,
        4,
        params([2, 3], [1, 2], [2, 1]),
        NHWC,
        &[1, 2, 3],
        51,
    );
    // a filter larger than the input with padding: only border positions
    check(
        1,
        2,
        3,
        3,
        2,
        5,
        5,
        params([1, 1], [2, 2], [1, 1]),
        NCHW,
        &[],
        52,
    );
}

#[test]
fn im2col_layout_without_padding_is_the_table_row() {
    // X (N,C,H,W) = (2,3,5,6) packed NCHW, a 2×3 filter, stride 1: B ((N,P,Q),(C,R,S))
    let x = packed([2, 3, 5, 6], NCHW, &[]);
    let im = cute_gemm::im2col(&x, (2, 3), &ConvParams::default()).unwrap();
    assert_eq!(im.out, (4, 4));
    assert_eq!(im.offset, 0);
    assert_eq!(
        im.layout.to_string(),
        "((2,4,4),(3,2,3)):((90,6,1),(30,6,1))"
    );
    assert_eq!(
        im.coords.to_string(),
        "((2,4,4),(3,2,3)):((1@0,1@2,1@3),(1@1,1@2,1@3))"
    );
}
