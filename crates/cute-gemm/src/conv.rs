//! 2-D convolution as a GEMM over the im2col layout (the paper's Table 3, row CONV).
//!
//! With activations X `(N,C,H,W)`, filters W `(K,C,R,S)` and output Y `(N,K,P,Q)`,
//! `Y(n,k,p,q) += Σ_{c,r,s} W(k,c,r,s)·X(n, c, p·σ_h − π_h + r·δ_h, q·σ_w − π_w + s·δ_w)`
//! (stride σ, padding π, dilation δ) is the GEMM with
//!
//! | GEMM | layout |
//! |---|---|
//! | A `(K,(C,R,S))` | W's modes regrouped |
//! | B `((N,P,Q),(C,R,S))` | im2col: `((x_N, σ_h·x_h, σ_w·x_w),(x_C, δ_h·x_h, δ_w·x_w))` over X |
//! | C `(K,(N,P,Q))` | Y's modes regrouped |
//!
//! Without padding the im2col layout is an ordinary layout over X's storage: no element is copied.
//! With padding some coordinates of B fall outside X and read zero. [`conv2d`] splits the output
//! into the interior rectangle of `(p, q)`, where no tap falls outside (a GEMM over the im2col
//! layout restricted to it), and the border, where each tap is predicated: the coordinate layout
//! `((N,P,Q),(C,R,S)) : ((1@0, σ_h@2, σ_w@3),(1@1, δ_h@2, δ_w@3))` (CuTe's identity-layout
//! technique, evaluated with [`cute::Layout::eval_value`]) gives the padded coordinates
//! `(n, c, h+π_h, w+π_w)` of every element of B, and the tap reads X only when `0 ≤ h < H` and
//! `0 ≤ w < W`.

use crate::gemm::{gemm, Element};
use crate::CONV;
use cute::{
    coalesce, Error, ErrorKind, IntTuple, Layout, Operand, Storage, StorageMut, Stride, Tensor,
    Value,
};

/// Stride, padding and dilation of a 2-D convolution, each `[along H, along W]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvParams {
    /// σ: the step between output positions, at least 1.
    pub stride: [i64; 2],
    /// π: zeros added on both sides, at least 0.
    pub padding: [i64; 2],
    /// δ: the step between filter taps, at least 1.
    pub dilation: [i64; 2],
}

impl Default for ConvParams {
    /// Stride 1, no padding, dilation 1.
    fn default() -> ConvParams {
        ConvParams {
            stride: [1, 1],
            padding: [0, 0],
            dilation: [1, 1],
        }
    }
}

/// The im2col view of an input X `(N,C,H,W)` for a filter of `R×S` taps.
#[derive(Clone, Copy, Debug)]
pub struct Im2col {
    /// `((N,P,Q),(C,R,S))` with integer strides over X: element `(j, i)` is at X's offset
    /// `offset + layout(j, i)` (valid wherever the padded coordinate is inside X).
    pub layout: Layout,
    /// X's offset of B's coordinate 0: `−π_h·x_h − π_w·x_w` (0 without padding).
    pub offset: i64,
    /// `((N,P,Q),(C,R,S))` to the padded coordinate `(n, c, h+π_h, w+π_w)` of X (strides `1@i`).
    pub coords: Layout,
    /// The output extents `(P, Q)`.
    pub out: (i64, i64),
}

fn conv_err(kind: ErrorKind, l: Operand, r: Operand) -> Error {
    Error::new(CONV, kind).with(l, r)
}

/// The one stride of a mode that coalesces to a single leaf (`Unsupported` otherwise).
fn single_stride(t: &Layout, mode: usize, what: &'static str) -> Result<i64, Error> {
    let m = coalesce(&t.mode(mode)?);
    if m.leaf_count() != 1 {
        return Err(conv_err(
            ErrorKind::Unsupported { what },
            Operand::Layout(*t),
            Operand::Int(mode as i64),
        ));
    }
    Ok(m.leaf_at(0).1)
}

/// The im2col layout of X (layout `x`, modes `(N,C,H,W)`; N and C may be hierarchical, H and W
/// must coalesce to one stride each) for an `R×S` filter and `params`.
///
/// Errors (operation `conv`): X not of rank 4 or non-integer strides (`ProfileMismatch`,
/// `Unsupported`), stride or dilation below 1 or negative padding (`InvalidShape`), a dilated
/// filter larger than the padded input (`ProfileMismatch`).
pub fn im2col(x: &Layout, filter: (i64, i64), params: &ConvParams) -> Result<Im2col, Error> {
    if x.rank() != 4 {
        return Err(conv_err(
            ErrorKind::ProfileMismatch {
                what: "the input X must have the four modes (N,C,H,W) (rank vs 4)",
                left: x.rank() as i64,
                right: 4,
            },
            Operand::Layout(*x),
            Operand::None,
        ));
    }
    if !x.is_integral() {
        return Err(conv_err(
            ErrorKind::Unsupported {
                what: "the input X needs integer strides",
            },
            Operand::Layout(*x),
            Operand::None,
        ));
    }
    for v in params.stride.into_iter().chain(params.dilation) {
        if v < 1 {
            return Err(conv_err(
                ErrorKind::InvalidShape { value: v },
                Operand::Layout(*x),
                Operand::None,
            ));
        }
    }
    for v in params.padding {
        if v < 0 {
            return Err(conv_err(
                ErrorKind::InvalidShape { value: v },
                Operand::Layout(*x),
                Operand::None,
            ));
        }
    }
    for v in [filter.0, filter.1] {
        if v < 1 {
            return Err(conv_err(
                ErrorKind::InvalidShape { value: v },
                Operand::Layout(*x),
                Operand::None,
            ));
        }
    }
    let xh = single_stride(
        x,
        2,
        "the input's H mode (mode 2) must coalesce to one stride",
    )?;
    let xw = single_stride(
        x,
        3,
        "the input's W mode (mode 3) must coalesce to one stride",
    )?;
    let (h, w) = (x.mode(2)?.size(), x.mode(3)?.size());
    let [sh, sw] = params.stride;
    let [ph, pw] = params.padding;
    let [dh, dw] = params.dilation;
    let (r, s) = filter;
    let span_h = h + 2 * ph - dh * (r - 1);
    let span_w = w + 2 * pw - dw * (s - 1);
    if span_h < 1 || span_w < 1 {
        return Err(conv_err(
            ErrorKind::ProfileMismatch {
                what: "the dilated filter δ·(R−1)+1 must fit in the padded input H+2π (filter vs input)",
                left: if span_h < 1 { dh * (r - 1) + 1 } else { dw * (s - 1) + 1 },
                right: if span_h < 1 { h + 2 * ph } else { w + 2 * pw },
            },
            Operand::Layout(*x),
            Operand::None,
        ));
    }
    let (p, q) = ((span_h - 1) / sh + 1, (span_w - 1) / sw + 1);
    let (xn, xc) = (x.mode(0)?, x.mode(1)?);
    let npq = Layout::concat(&[xn, Layout::leaf(p, sh * xh)?, Layout::leaf(q, sw * xw)?])?;
    let crs = Layout::concat(&[xc, Layout::leaf(r, dh * xh)?, Layout::leaf(s, dw * xw)?])?;
    let layout = Layout::concat(&[npq, crs])?;
    let (n, c) = (xn.size(), xc.size());
    let shape = IntTuple::parse_const(&format!("(({n},{p},{q}),({c},{r},{s}))"))?;
    let e = |v: i64, i: usize| Stride::basis(v, &[i]);
    let coords = Layout::from_strides(
        &shape,
        &[
            e(1, 0)?,
            e(sh, 2)?,
            e(sw, 3)?,
            e(1, 1)?,
            e(dh, 2)?,
            e(dw, 3)?,
        ],
    )?;
    Ok(Im2col {
        layout,
        offset: -ph * xh - pw * xw,
        coords,
        out: (p, q),
    })
}

/// The four entries of a coordinate value `(n, c, h, w)`.
fn coord4(v: Value) -> [i64; 4] {
    match v {
        Value::Coord(t) => [t.get(&[0]), t.get(&[1]), t.get(&[2]), t.get(&[3])],
        Value::Int(i) => [i, 0, 0, 0],
        Value::F2(_) => [0; 4],
    }
}

/// The output range `[lo, hi)` along one axis where every tap lands inside `0..extent`.
fn interior(out: i64, extent: i64, stride: i64, pad: i64, dil: i64, taps: i64) -> (i64, i64) {
    let lo = (pad + stride - 1) / stride;
    let last = extent - 1 + pad - (taps - 1) * dil; // p·σ ≤ last
    let hi = if last < 0 { 0 } else { last / stride + 1 };
    let lo = lo.min(out);
    (lo, hi.clamp(lo, out))
}

/// `conv2d(X, W, Y, params)`: `Y(n,k,p,q) += Σ_{c,r,s} W(k,c,r,s)·X(n,c,p·σ_h−π_h+r·δ_h,
/// q·σ_w−π_w+s·δ_w)`, reading zero outside X (zero padding). Y is **accumulated into**, like
/// [`gemm()`](crate::gemm()). X is `(N,C,H,W)`, W `(K,C,R,S)`, Y `(N,K,P,Q)`, each with any integer strides
/// (NCHW, NHWC, negative, sliced…); H, W of X and P, Q of Y must each coalesce to one stride.
///
/// The interior of the output (every tap inside X) is one [`gemm()`](crate::gemm()) with A = W as `(K,(C,R,S))`,
/// B = the [`im2col`] layout restricted to the interior `(p, q)` rectangle, C = Y as
/// `(K,(N,P,Q))` restricted the same way; the border (present only with padding or when the
/// stride skips past the edge) is a loop predicated by the coordinate layout (module docs).
///
/// Errors (operation `conv`): those of [`im2col`], ranks other than 4, and extents that do not
/// match (`ProfileMismatch`: N of X and Y, C of X and W, K of W and Y, P and Q of Y against the
/// computed output size); and those of [`gemm()`](crate::gemm()) (Y not injective).
pub fn conv2d<T, SX, SW, SY>(
    x: &Tensor<SX>,
    w: &Tensor<SW>,
    y: &mut Tensor<SY>,
    params: &ConvParams,
) -> Result<(), Error>
where
    T: Element,
    SX: Storage<Item = T>,
    SW: Storage<Item = T>,
    SY: StorageMut<Item = T>,
{
    let (xl, wl, yl) = (*x.layout(), *w.layout(), *y.layout());
    for (t, what) in [
        (
            &wl,
            "the filter W must have the four modes (K,C,R,S) (rank vs 4)",
        ),
        (
            &yl,
            "the output Y must have the four modes (N,K,P,Q) (rank vs 4)",
        ),
    ] {
        if t.rank() != 4 {
            return Err(conv_err(
                ErrorKind::ProfileMismatch {
                    what,
                    left: t.rank() as i64,
                    right: 4,
                },
                Operand::Layout(*t),
                Operand::None,
            ));
        }
    }
    let size = |l: &Layout, k: usize| -> Result<i64, Error> { Ok(l.mode(k)?.size()) };
    let (r, s) = (size(&wl, 2)?, size(&wl, 3)?);
    let im = im2col(&xl, (r, s), params)?;
    let (p, q) = im.out;
    let checks = [
        (
            "conv: N of X (mode 0) and N of Y (mode 0) differ",
            size(&xl, 0)?,
            size(&yl, 0)?,
            &xl,
            &yl,
        ),
        (
            "conv: C of X (mode 1) and C of W (mode 1) differ",
            size(&xl, 1)?,
            size(&wl, 1)?,
            &xl,
            &wl,
        ),
        (
            "conv: K of W (mode 0) and K of Y (mode 1) differ",
            size(&wl, 0)?,
            size(&yl, 1)?,
            &wl,
            &yl,
        ),
        (
            "conv: the output size P from H, R, stride, padding, dilation differs from mode 2 of Y",
            p,
            size(&yl, 2)?,
            &xl,
            &yl,
        ),
        (
            "conv: the output size Q from W, S, stride, padding, dilation differs from mode 3 of Y",
            q,
            size(&yl, 3)?,
            &xl,
            &yl,
        ),
    ];
    for (what, left, right, l, rr) in checks {
        if left != right {
            return Err(conv_err(
                ErrorKind::ProfileMismatch { what, left, right },
                Operand::Layout(*l),
                Operand::Layout(*rr),
            ));
        }
    }
    let yp = single_stride(
        &yl,
        2,
        "the output's P mode (mode 2) must coalesce to one stride",
    )?;
    let yq = single_stride(
        &yl,
        3,
        "the output's Q mode (mode 3) must coalesce to one stride",
    )?;
    let xh = single_stride(
        &xl,
        2,
        "the input's H mode (mode 2) must coalesce to one stride",
    )?;
    let xw = single_stride(
        &xl,
        3,
        "the input's W mode (mode 3) must coalesce to one stride",
    )?;
    let (h, wd) = (size(&xl, 2)?, size(&xl, 3)?);
    let [sh, sw] = params.stride;
    let [ph, pw] = params.padding;
    let [dh, dw] = params.dilation;
    // A = W as (K,(C,R,S))
    let a = Layout::concat(&[
        wl.mode(0)?,
        Layout::concat(&[wl.mode(1)?, wl.mode(2)?, wl.mode(3)?])?,
    ])?;
    let (p0, p1) = interior(p, h, sh, ph, dh, r);
    let (q0, q1) = interior(q, wd, sw, pw, dw, s);
    if p1 > p0 && q1 > q0 {
        let xn = xl.mode(0)?;
        let b = Layout::concat(&[
            Layout::concat(&[
                xn,
                Layout::leaf(p1 - p0, sh * xh)?,
                Layout::leaf(q1 - q0, sw * xw)?,
            ])?,
            im.layout.mode(1)?,
        ])?;
        let base_b = x.base() as i64 + im.offset + p0 * sh * xh + q0 * sw * xw;
        let c = Layout::concat(&[
            yl.mode(1)?,
            Layout::concat(&[
                yl.mode(0)?,
                Layout::leaf(p1 - p0, yp)?,
                Layout::leaf(q1 - q0, yq)?,
            ])?,
        ])?;
        let base_c = y.base() as i64 + p0 * yp + q0 * yq;
        let ta = Tensor::with_base(w.storage().items(), w.base(), a)?;
        let tb = Tensor::with_base(x.storage().items(), base_b as usize, b)?;
        let base_y = base_c as usize;
        let mut tc = Tensor::with_base(y.storage_mut().items_mut(), base_y, c)?;
        gemm(&ta, &tb, &mut tc)
            .map_err(|e| Error::new(CONV, *e.kind()).with(*e.lhs(), *e.rhs()))?;
    }
    if p0 == 0 && p1 == p && q0 == 0 && q1 == q {
        return Ok(());
    }
    // the border: predicated taps through the coordinate layout
    let (k, crs) = (size(&wl, 0)?, im.coords.mode(1)?);
    let ncrs = crs.size();
    let npq = im.coords.mode(0)?;
    let (xn, xc) = (xl.mode(0)?, xl.mode(1)?);
    let (yn, yk) = (yl.mode(0)?, yl.mode(1)?);
    // per tap: (x offset of c, r·δ_h, s·δ_w)
    let taps: Vec<(i64, i64, i64)> = (0..ncrs)
        .map(|j| {
            let [_, c, hh, ww] = coord4(crs.eval_value(j)?);
            Ok((xc.eval(c)?, hh, ww))
        })
        .collect::<Result<_, Error>>()?;
    let (sx, sw_, sy) = (x.storage().items(), w.storage().items(), x.base() as i64);
    let wbase = w.base() as i64;
    let ybase = y.base() as i64;
    let ys = y.storage_mut().items_mut();
    for j in 0..npq.size() {
        let [n, _, hp, wp] = coord4(npq.eval_value(j)?);
        let (pp, qq) = (hp / sh, wp / sw);
        if (p0..p1).contains(&pp) && (q0..q1).contains(&qq) {
            continue;
        }
        let xo = sy + xn.eval(n)?;
        let yo = ybase + yn.eval(n)? + pp * yp + qq * yq;
        for kk in 0..k {
            let slot = (yo + yk.eval(kk)?) as usize;
            for (t, &(xco, rh, sw2)) in taps.iter().enumerate() {
                let (hh, ww) = (hp + rh - ph, wp + sw2 - pw);
                if (0..h).contains(&hh) && (0..wd).contains(&ww) {
                    let xv = sx[(xo + xco + hh * xh + ww * xw) as usize];
                    let wv = sw_[(wbase + a.eval(kk + k * t as i64)?) as usize];
                    ys[slot] += wv * xv;
                }
            }
        }
    }
    Ok(())
}
