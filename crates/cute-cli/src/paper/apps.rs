//! The computations behind the tour's rows for the applications of section 4-5 that run tensors:
//! slicing a counting tensor (Figure 5), the common vector of two layouts (Figure 8), containment
//! of an instruction's offsets (the TMEM example, Figure 9), the paper's GETT
//! `C_stqp = A_stupr B_qtru` through `contract`, and a convolution through the im2col layout.
//!
//! The figures' layouts are not in the translation; each row says what was reconstructed and from
//! which stated values, and every computed answer is also checked by brute force here.

use super::checks::{e, lay, Rng, R};
use super::Checked;
use cute::tensor::CountingTensor;
use cute::{Layout, PartialCoord, Tensor};
use std::collections::HashMap;

/// Figure 5: the slice of the counting tensor `{0} ∘ A` at a partial coordinate, printed
/// `{offset} ∘ layout`; brute force: every completion of the free entries evaluates to
/// `offset + layout(j)` in order.
pub(super) fn slice_counting(a: &[String], exp: &str) -> R<Checked> {
    let (l, c) = (lay(&a[0])?, e(a[1].parse::<PartialCoord>())?);
    let t = CountingTensor::new(0, l);
    let s = e(t.slice(&c))?;
    let computed = format!("{{{}}} ∘ {}", s.origin(), s.layout());
    let values: Vec<String> = e(s.values())?.iter().map(|v| v.to_string()).collect();
    // brute force: the elements of A whose coordinate matches c at the fixed entries, in order
    let (sub, off) = e(cute::slice_and_offset(&l, &c))?;
    let agrees_law = (0..sub.size()).all(
        |j| matches!((sub.eval(j), s.get(j)), (Ok(v), Some(cute::Value::Int(w))) if off + v == w),
    );
    Ok(
        Checked::new(computed.clone(), computed == exp && agrees_law)
            .note(format!("offsets {}", values.join(","))),
    )
}

/// Figure 8: the width and the coordinates of the maximal common vector of two layouts, checked
/// against both layouts' offsets and against the copy plan's vector.
pub(super) fn vector_width(a: &[String], exp: &str) -> R<Checked> {
    let (s, d) = (lay(&a[0])?, lay(&a[1])?);
    let k = e(cute::max_common_vector(&s, &d))?;
    let r = e(cute::max_common_layout(&s, &d))?;
    let coords: Vec<i64> = (0..k)
        .map(|i| r.eval(i))
        .collect::<Result<_, _>>()
        .map_err(|x| x.to_string())?;
    let both = coords.iter().enumerate().all(|(i, &c)| {
        matches!((s.eval(c), d.eval(c)), (Ok(x), Ok(y)) if x == i as i64 && y == i as i64)
    });
    // the next offset does not agree (so the width is maximal), when there is one
    let maximal = k >= s.size() || {
        let inv = e(cute::right_inverse(&d))?;
        k >= inv.size() || s.eval(e(inv.eval(k))?).ok() != Some(k)
    };
    let plan = e(cute::copy_plan(&s, &d))?.map(|p| p.vector);
    let list: Vec<String> = coords.iter().map(i64::to_string).collect();
    let computed = format!("width {k} at coordinates {{{}}}", list.join(","));
    Ok(Checked::new(
        computed.clone(),
        computed == exp && both && maximal && plan == Some(k),
    )
    .note(format!(
        "max_common_layout = {r}; copy plan vector = {plan:?}"
    )))
}

/// The TMEM example: does the data layout contain every offset of the instruction, and where
/// (`A† ∘ T`); checked against a brute-force search of A's image.
pub(super) fn tmem(a: &[String], exp: &str) -> R<Checked> {
    let data = lay(&a[0])?;
    let instr = match a[1].as_str() {
        "tmem_32x32b" => e(cute::tmem_32x32b(1))?,
        "tmem_16x256b" => e(cute::tmem_16x256b(1))?,
        other => lay(other)?,
    };
    let c = e(cute::contains(&data, &instr))?;
    let mut at: HashMap<i64, i64> = HashMap::new();
    for x in 0..data.size() {
        at.entry(e(data.eval(x))?).or_insert(x);
    }
    let brute_missing = (0..instr.size()).find_map(|i| {
        instr
            .eval(i)
            .ok()
            .filter(|o| !at.contains_key(o))
            .map(|o| (i, o))
    });
    let computed = match (c.missing, &c.layout) {
        (Some((i, o)), _) => format!("not contained: coordinate {i} (offset {o})"),
        (None, Some(l)) => format!("contained at A† ∘ T = {l}"),
        (None, None) => "contained".to_string(),
    };
    let coords_ok =
        c.coords.iter().enumerate().all(
            |(i, &x)| matches!((data.eval(x), instr.eval(i as i64)), (Ok(p), Ok(q)) if p == q),
        );
    Ok(Checked::new(
        computed.clone(),
        computed == exp && brute_missing == c.missing && coords_ok,
    )
    .note(format!("instruction {instr}; A† = {}", c.left_inverse)))
}

/// The paper's `C_stqp = A_stupr B_qtru` through `contract` (modes folded into row, column,
/// reduction and batch groups) on random data in permuted, strided layouts, against the loop nest.
pub(super) fn gett(a: &[String], exp: &str) -> R<Checked> {
    let spec = a[0].as_str();
    // extents s, t, u, p, r, q
    let (s, t, u, p, r, q) = (4i64, 3, 5, 2, 3, 4);
    // A_stupr with a permuted, padded layout; B_qtru column-major; C_stqp row-major
    let la = lay(&format!(
        "({s},{t},{u},{p},{r}):({},{},1,{},{})",
        u * 2,
        u * 2 * s,
        u * 2 * s * t,
        u * 2 * s * t * p
    ))?;
    let lb = e(cute::compact_col_major(&e(cute::IntTuple::flat(&[
        q, t, r, u,
    ]))?))?;
    let lc = e(cute::compact_row_major(&e(cute::IntTuple::flat(&[
        s, t, q, p,
    ]))?))?;
    let mut rng = Rng::new(0x5e77);
    let av: Vec<f64> = (0..e(la.cosize())?)
        .map(|_| rng.range(-5, 5) as f64)
        .collect();
    let bv: Vec<f64> = (0..e(lb.cosize())?)
        .map(|_| rng.range(-5, 5) as f64)
        .collect();
    let mut cv = vec![0.0f64; e(lc.cosize())? as usize];
    {
        let ta = e(Tensor::new(&av[..], la))?;
        let tb = e(Tensor::new(&bv[..], lb))?;
        let mut tc = e(Tensor::new(&mut cv[..], lc))?;
        e(cute_gemm::contract(spec, &ta, &tb, &mut tc))?;
    }
    let modes = e(cute_gemm::contract_modes(spec, &la, &lb, &lc))?;
    let ev = |l: &Layout, c: &[i64]| -> R<usize> {
        Ok(e(l.eval_crd(&e(cute::IntTuple::flat(c))?))? as usize)
    };
    let mut worst = 0.0f64;
    for si in 0..s {
        for ti in 0..t {
            for qi in 0..q {
                for pi in 0..p {
                    let mut sum = 0.0;
                    for ui in 0..u {
                        for ri in 0..r {
                            sum += av[ev(&la, &[si, ti, ui, pi, ri])?]
                                * bv[ev(&lb, &[qi, ti, ri, ui])?];
                        }
                    }
                    worst = worst.max((cv[ev(&lc, &[si, ti, qi, pi])?] - sum).abs());
                }
            }
        }
    }
    let computed = if worst == 0.0 {
        "C = the loop nest".to_string()
    } else {
        format!("C differs from the loop nest by {worst}")
    };
    let group = |v: &[char]| v.iter().collect::<String>();
    Ok(Checked::new(computed.clone(), computed == exp).note(format!(
        "A {la}, B {lb}, C {lc} (s,t,u,p,r,q = {s},{t},{u},{p},{r},{q}); rows {}, columns {}, reduction {}, batch {}",
        group(&modes.rows),
        group(&modes.cols),
        group(&modes.reduction),
        group(&modes.batch)
    )))
}

/// A 2-D convolution with stride, padding and dilation through the im2col layout (`conv2d`),
/// against the direct convolution.
pub(super) fn conv(_a: &[String], exp: &str) -> R<Checked> {
    let (n, ch, h, w, k, rr, ss) = (2i64, 3, 7, 6, 4, 3, 2);
    let params = cute_gemm::ConvParams {
        stride: [2, 1],
        padding: [1, 1],
        dilation: [1, 2],
    };
    // NHWC activations, KCRS filters, NKPQ output
    let lx = lay(&format!(
        "({n},{ch},{h},{w}):({},1,{},{ch})",
        h * w * ch,
        w * ch
    ))?;
    let lw = e(cute::compact_row_major(&e(cute::IntTuple::flat(&[
        k, ch, rr, ss,
    ]))?))?;
    let im = e(cute_gemm::im2col(&lx, (rr, ss), &params))?;
    let (p, q) = im.out;
    let ly = e(cute::compact_row_major(&e(cute::IntTuple::flat(&[
        n, k, p, q,
    ]))?))?;
    let mut rng = Rng::new(0xc0e1);
    let xv: Vec<f64> = (0..e(lx.cosize())?)
        .map(|_| rng.range(-4, 4) as f64)
        .collect();
    let wv: Vec<f64> = (0..e(lw.cosize())?)
        .map(|_| rng.range(-4, 4) as f64)
        .collect();
    let mut yv = vec![0.0f64; e(ly.cosize())? as usize];
    {
        let tx = e(Tensor::new(&xv[..], lx))?;
        let tw = e(Tensor::new(&wv[..], lw))?;
        let mut ty = e(Tensor::new(&mut yv[..], ly))?;
        e(cute_gemm::conv2d(&tx, &tw, &mut ty, &params))?;
    }
    let ev = |l: &Layout, c: [i64; 4]| -> R<usize> {
        Ok(e(l.eval_crd(&e(cute::IntTuple::flat(&c))?))? as usize)
    };
    let mut worst = 0.0f64;
    for ni in 0..n {
        for ki in 0..k {
            for pi in 0..p {
                for qi in 0..q {
                    let mut sum = 0.0;
                    for ci in 0..ch {
                        for ri in 0..rr {
                            for si in 0..ss {
                                let hh = pi * 2 - 1 + ri;
                                let ww = qi - 1 + si * 2;
                                if (0..h).contains(&hh) && (0..w).contains(&ww) {
                                    sum += wv[ev(&lw, [ki, ci, ri, si])?]
                                        * xv[ev(&lx, [ni, ci, hh, ww])?];
                                }
                            }
                        }
                    }
                    worst = worst.max((yv[ev(&ly, [ni, ki, pi, qi])?] - sum).abs());
                }
            }
        }
    }
    let computed = if worst == 0.0 {
        "Y = the direct convolution".to_string()
    } else {
        format!("Y differs from the direct convolution by {worst}")
    };
    Ok(Checked::new(computed.clone(), computed == exp).note(format!(
        "X (N,C,H,W) NHWC {lx}, W {lw}, stride (2,1), padding (1,1), dilation (1,2); B = im2col {} from offset {}, P×Q = {p}×{q}",
        im.layout, im.offset
    )))
}
