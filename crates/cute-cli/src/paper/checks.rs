//! The computations behind the check rows: canonical loops, folding, HTuple relations, coordinate
//! lists, evaluation, completeness, linear forms, the generic COPY and GEMM loops run through
//! layouts, identity layouts, associativity, the composition intuition and the tiler examples.
//!
//! Each function takes the row's arguments (CuTe notation) and the expected value and returns a
//! [`Checked`]; a bad literal or an unexpected refusal is an `Err` (the row fails with it).

use super::Checked;
use crate::ops::{self, Outcome};
use cute::{ErrorKind, IntTuple, Layout, Tiler};

/// Result of a check.
pub(super) type R<T> = Result<T, String>;

/// Converts a core error into the check's error.
pub(super) fn e<T>(r: Result<T, cute::Error>) -> R<T> {
    r.map_err(|e| e.to_string())
}

pub(super) fn lay(s: &str) -> R<Layout> {
    e(s.parse::<Layout>())
}

fn tup(s: &str) -> R<IntTuple> {
    e(s.parse::<IntTuple>())
}

fn int(s: &str) -> R<i64> {
    s.trim().parse::<i64>().map_err(|x| format!("{s}: {x}"))
}

/// `v[i]`, an error past the end.
fn get(v: &[i64], i: usize) -> R<i64> {
    v.get(i)
        .copied()
        .ok_or_else(|| format!("offset {i} is outside the array of {}", v.len()))
}

/// `&mut v[i]`, an error past the end.
fn slot(v: &mut [i64], i: usize) -> R<&mut i64> {
    let n = v.len();
    v.get_mut(i)
        .ok_or_else(|| format!("offset {i} is outside the array of {n}"))
}

/// `L(c)` at the 2-D coordinate `(i, j)`.
fn at2(l: &Layout, i: i64, j: i64) -> R<i64> {
    e(l.eval_crd(&e(IntTuple::flat(&[i, j]))?))
}

/// `size<k>(L)`.
fn size_of_mode(l: &Layout, k: usize) -> R<i64> {
    Ok(e(l.mode(k))?.size())
}

/// A deterministic pseudo-random generator (SplitMix64), so the tour prints the same every time.
pub(crate) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `lo..=hi`.
    pub(super) fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

// ---------------------------------------------------------------------------------------------
// Canonical loops

/// `for (m = lo; m <= hi (or < hi); m += step)`.
#[derive(Clone, Copy)]
pub(super) struct Loop {
    pub lo: i64,
    pub hi: i64,
    pub inclusive: bool,
    pub step: i64,
}

impl Loop {
    /// The trip count of the canonical loop `for (i = 0; i < trips; ++i)`.
    fn trips(&self) -> i64 {
        let span = if self.inclusive {
            self.hi - self.lo + 1
        } else {
            self.hi - self.lo
        };
        ((span + self.step - 1) / self.step).max(0)
    }

    /// The values the loop visits, by running it.
    fn values(&self) -> Vec<i64> {
        let mut v = Vec::new();
        let mut m = self.lo;
        while (self.inclusive && m <= self.hi) || (!self.inclusive && m < self.hi) {
            v.push(m);
            m += self.step;
        }
        v
    }
}

/// S-LOOP-1: `for m = 2..=50 step 3: A[m] = e(m)` in canonical form `(A + lo)[step·i]`, i < trips.
pub(super) fn loop_1d(lp: Loop, exp: &str) -> R<Checked> {
    let l = e(Layout::leaf(lp.trips(), lp.step))?;
    let canon = format!("A+{}, {l}", lp.lo);
    let visited = lp.values();
    let mut same = visited.len() as i64 == l.size();
    for (i, &m) in visited.iter().enumerate() {
        same &= m == lp.lo + e(l.eval(i as i64))?;
    }
    Ok(
        Checked::new(canon.clone(), same && canon == exp).note(format!(
            "running the loop visits m = {}, {}, {}, …, {} ({} values), each m = {} + ({l})(i): {}",
            visited[0],
            visited[1],
            visited[2],
            visited[visited.len() - 1],
            visited.len(),
            lp.lo,
            yes(same)
        )),
    )
}

/// The numeric stand-ins for the symbols `p` and `q` of the 2-D loop (row stride p, column stride q).
pub(super) const P: i64 = 1000;
pub(super) const Q: i64 = 1;

/// S-LOOP-2: the 2-D loop nest `n` outer, `m` inner, `A[p*m + q*n]`, as `(A + ...)[L(i,j)]`.
pub(super) fn loop_2d(m: Loop, n: Loop, exp: &str) -> R<Checked> {
    let (tm, tn) = (m.trips(), n.trips());
    let canon = format!(
        "A+{}p+{}q, ({tm},{tn}):({}p,{}q)",
        m.lo, n.lo, m.step, n.step
    );
    let l = e(Layout::flat(&[tm, tn], &[m.step * P, n.step * Q]))?;
    let base = m.lo * P + n.lo * Q;
    let mut offsets = Vec::new();
    for nv in n.values() {
        for mv in m.values() {
            offsets.push(P * mv + Q * nv);
        }
    }
    let mut same = offsets.len() as i64 == l.size();
    for (i, &o) in offsets.iter().enumerate() {
        same &= o == base + e(l.eval(i as i64))?;
    }
    Ok(
        Checked::new(canon.clone(), same && canon == exp).note(format!(
            "numeric stand-in p:={P}, q:={Q}: the {} offsets p·m+q·n of the loop nest equal {base} + ({l})(i) in order: {}",
            offsets.len(),
            yes(same)
        )),
    )
}

/// S-LOOP-3: the 1-D view `k ↦ (k%4, k/4)` of the `(4,20)` loop nest.
pub(super) fn loop_1d_view(exp: &str) -> R<Checked> {
    let l = e(Layout::flat(&[4, 20], &[5 * P, 2 * Q]))?;
    let shape = tup("(4,20)")?;
    let n = l.size();
    let mut same = true;
    for k in 0..n {
        let c = e(cute::idx2crd(&IntTuple::int(k), &shape))?;
        same &= c.leaves() == [k % 4, k / 4];
        same &= 5 * P * (k % 4) + 2 * Q * (k / 4) == e(l.eval(k))?;
    }
    let text = format!("(i,j) = (k%4,k/4), {n} elements");
    Ok(Checked::new(text.clone(), same && text == exp).note(format!(
        "idx2crd(k,(4,20)) = (k%4,k/4) and 5p(k%4)+2q(k/4) = L(k) for all k < {n} (p:={P}, q:={Q}): {}",
        yes(same)
    )))
}

fn yes(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "FALSE"
    }
}

// ---------------------------------------------------------------------------------------------
// Folding

/// F1-2: the by-mode coalesce of `(2,(2,2)):(2,(1,4))` keeps mode 1 nested, and mode 1's offsets are
/// not an arithmetic progression, so no integer stride represents it.
pub(super) fn fold_no_flat(a: &[String], exp: &str) -> R<Checked> {
    let folded = match ops::run("coalesce_profile", &[&a[0], "(1,1)"]) {
        Outcome::Value(v) => lay(&v)?,
        Outcome::Refused(x) | Outcome::BadArgument { error: x, .. } => return Err(x.to_string()),
        Outcome::Symbolic(x) => return Err(x.to_string()),
        Outcome::Usage(m) => return Err(m),
    };
    let m1 = e(folded.mode(1))?;
    let vals: Vec<i64> = (0..m1.size()).map(|i| e(m1.eval(i))).collect::<R<_>>()?;
    let arithmetic = vals.windows(2).all(|w| w[1] - w[0] == vals[1] - vals[0]);
    let text = if !m1.is_leaf() && !arithmetic {
        "no flat (integer-stride) representation".to_string()
    } else {
        format!("flat: {folded}")
    };
    Ok(Checked::new(text.clone(), text == exp).note(format!(
        "coalesce(…, <*,*>) = {folded}: mode 1 stays {m1}, its offsets {vals:?} are not an arithmetic progression"
    )))
}

// ---------------------------------------------------------------------------------------------
// HTuple relations and coordinates

/// The relations of the HTuple section.
#[derive(Clone, Copy)]
pub(super) enum Rel {
    /// `P ~ S`.
    Congruent,
    /// `P ≲ S`.
    Weakly,
    /// `P ⪯ S`.
    Compatible,
}

/// `args[0] rel args[1]`, in the paper's words: `congruent` / `not congruent`, `holds` / `not weakly
/// congruent` / `not compatible` (neither direction) / `only the converse holds`.
pub(super) fn relation(rel: Rel, a: &[String], exp: &str) -> R<Checked> {
    let (x, y) = (tup(&a[0])?, tup(&a[1])?);
    let (fwd, bwd) = match rel {
        Rel::Congruent => (x.congruent(&y), y.congruent(&x)),
        Rel::Weakly => (x.weakly_congruent(&y), y.weakly_congruent(&x)),
        Rel::Compatible => (x.compatible(&y), y.compatible(&x)),
    };
    let text = match (rel, fwd, bwd) {
        (Rel::Congruent, true, _) => "congruent",
        (Rel::Congruent, false, _) => "not congruent",
        (_, true, _) => "holds",
        (_, false, true) => "only the converse holds",
        (Rel::Weakly, false, false) => "not weakly congruent",
        (Rel::Compatible, false, false) => "not compatible",
    };
    Ok(Checked::new(text, text == exp))
}

/// S-COMPAT-6: `30 ⪯ (2,(3,5))` and `30 ⪯ ((3,2),5)` although the two are incompatible.
pub(super) fn common_coarsening(a: &[String], exp: &str) -> R<Checked> {
    let (c, x, y) = (tup(&a[0])?, tup(&a[1])?, tup(&a[2])?);
    let both = c.compatible(&x) && c.compatible(&y);
    let apart = !x.compatible(&y) && !y.compatible(&x);
    let text = if both { "holds" } else { "does not hold" };
    Ok(
        Checked::new(text, both && apart && text == exp).note(format!(
            "{c} ⪯ {x}: {}, {c} ⪯ {y}: {}, while {x} and {y} are incompatible both ways: {}",
            yes(c.compatible(&x)),
            yes(c.compatible(&y)),
            yes(apart)
        )),
    )
}

/// S-CRD-*: the coordinate set `Z_S` in colexicographic order, `[idx2crd(i, S) for i < |S|]`,
/// checked against an odometer that increments the leftmost leaf first.
pub(super) fn coordinate_list(a: &[String], exp: &str) -> R<Checked> {
    let shape = tup(&a[0])?;
    let n = e(shape.size())?;
    let leaves = shape.leaves().to_vec();
    let mut odometer = vec![0i64; leaves.len()];
    let mut list = Vec::new();
    let mut colex = true;
    for i in 0..n {
        let c = e(cute::idx2crd(&IntTuple::int(i), &shape))?;
        colex &= c.leaves() == odometer.as_slice();
        list.push(c.to_string());
        let mut j = 0;
        while j < leaves.len() {
            odometer[j] += 1;
            if odometer[j] < leaves[j] {
                break;
            }
            odometer[j] = 0;
            j += 1;
        }
    }
    let text = format!("{{{}}}", list.join(","));
    Ok(
        Checked::new(text.clone(), colex && text == exp).note(format!(
            "{n} coordinates; idx2crd agrees with the colexicographic odometer: {}",
            yes(colex)
        )),
    )
}

// ---------------------------------------------------------------------------------------------
// Evaluation

/// S-EVAL-2/3: `c = idx2crd(i, S')` for `S'` = the sizes of the modes (`natural == false`) or the
/// shape itself (`natural == true`), then `L(c)`, which must equal `L(i)`.
pub(super) fn eval_via(natural: bool, a: &[String], exp: &str) -> R<Checked> {
    let l = lay(&a[0])?;
    let i = int(&a[1])?;
    let shape = if natural {
        l.shape()
    } else {
        e(l.shape().product_each())?
    };
    let c = e(cute::idx2crd(&IntTuple::int(i), &shape))?;
    let v = e(l.eval_crd(&c))?;
    let direct = e(l.eval(i))?;
    let text = format!("{c} ↦ {v}");
    Ok(
        Checked::new(text.clone(), v == direct && text == exp).note(format!(
            "idx2crd({i}, {shape}) = {c}; L{c} = {v}, L({i}) = {direct}"
        )),
    )
}

// ---------------------------------------------------------------------------------------------
// Completeness

/// S-COMPL-1: for random `f: Z_N → Z` with `f(0) = 0`, the chain
/// `(2,…,2):(f(1),…,f(N-1)) ∘ (3,1):(1,4) ∘ … ∘ (N-1,1):(1,2(N-2))`, evaluated on the extended
/// domain, maps `i ↦ 2^(i-1) ↦ f(i)`.
pub(super) fn completeness(a: &[String], _exp: &str) -> R<Checked> {
    let mut rng = Rng::new(0x00c0_ffee);
    let mut ok = true;
    let mut shown = None;
    let mut ns = Vec::new();
    for s in a {
        let n = int(s)?;
        ns.push(n.to_string());
        let f: Vec<i64> = (0..n)
            .map(|i| if i == 0 { 0 } else { rng.range(-50, 99) })
            .collect();
        let twos = vec![2; (n - 1) as usize];
        let left = e(Layout::flat(&twos, &f[1..]))?;
        let chain: Vec<Layout> = (3..n)
            .map(|k| e(Layout::flat(&[k, 1], &[1, 2 * (k - 1)])))
            .collect::<R<_>>()?;
        ok &= chain.len() as i64 == n - 3;
        for (i, &fi) in f.iter().enumerate() {
            let mut x = i as i64;
            for l in chain.iter().rev() {
                x = e(l.eval(x))?;
            }
            if i > 0 {
                ok &= x == 1 << (i - 1);
            }
            ok &= e(left.eval(x))? == fi;
        }
        if n == 6 {
            let c: Vec<String> = chain.iter().map(|l| l.to_string()).collect();
            shown = Some(format!(
                "e.g. N=6, f = {f:?}: f ≡ {left} ∘ {}",
                c.join(" ∘ ")
            ));
        }
    }
    let text = format!("chain ≡ f on Z_N, N ∈ {{{}}}", ns.join(","));
    let mut c = Checked::new(text, ok).note(format!(
        "random f with f(0)=0; the N-3 right layouts map i ↦ 2^(i-1), the leftmost 2^(i-1) ↦ f(i) (extended domain): {}",
        yes(ok)
    ));
    if let Some(s) = shown {
        c = c.note(s);
    }
    Ok(c)
}

// ---------------------------------------------------------------------------------------------
// Semilinearity

/// T1.1: the integer linear form `L(c̃) = D·c̃` on all natural coordinates, `D` = the flattened stride.
pub(super) fn linear_form(a: &[String], exp: &str) -> R<Checked> {
    let l = lay(&a[0])?;
    let d = e(cute::linear_form(&l))?;
    let shape: Vec<i64> = (0..l.leaf_count()).map(|k| l.leaf_at(k).0).collect();
    let n = l.size();
    let mut ok = true;
    for i in 0..n {
        // the natural coordinate: colexicographic digits of i over the leaves
        let mut rest = i;
        let c: Vec<i64> = shape
            .iter()
            .map(|s| {
                let x = rest % s;
                rest /= s;
                x
            })
            .collect();
        ok &= e(d.apply(&c, &shape))? == e(l.eval_value(i))?;
    }
    let text = if d.binary {
        format!("r = {d}·c̃ over F2")
    } else if d.rows.len() > 1 {
        let rs: Vec<String> = (0..d.rows.len()).map(|k| format!("r{k}")).collect();
        format!("[{}] = {d}·c̃", rs.join(";"))
    } else {
        format!("r = {d}·c̃")
    };
    Ok(Checked::new(text.clone(), ok && text == exp).note(format!(
        "L(c̃) = D·c̃ at all {n} natural coordinates: {}",
        yes(ok)
    )))
}

/// T6.11: the left inverse of a binary (F2) layout that is a bijection onto `Z_n`. `left_inverse`
/// follows PyCuTe's chain rule, which refuses it; the paper's `R` is checked by brute force
/// (`L(R(L(k))) = L(k)` for every `k`) and compared with `right_inverse(L)`, which for a bijection
/// is two-sided.
pub(super) fn binary_left_inverse(a: &[String], exp: &str) -> R<Checked> {
    let l = lay(&a[0])?;
    let paper = lay(exp)?;
    let n = l.size();
    let mut ok = true;
    for k in 0..n {
        let v = e(l.eval(k))?;
        ok &= e(l.eval(e(paper.eval(v))?))? == v;
    }
    let image = e(l.image())?;
    let bijective = image.len() as i64 == n && image.last() == Some(&(n - 1));
    let r = e(cute::right_inverse(&l))?;
    let refusal = match cute::left_inverse(&l) {
        Ok(x) => format!("left_inverse gives {x}"),
        Err(err) => format!("our left_inverse refuses, as PyCuTe does ({err})"),
    };
    Ok(Checked::new(r.to_string(), ok && bijective && r == paper).note(format!(
        "L(R(L(k))) = L(k) for all {n} k with the paper's R: {}; L is a bijection onto Z_{n}: {}, so \
         right_inverse(L) = {r} is two-sided; {refusal}",
        yes(ok),
        yes(bijective)
    )))
}

// ---------------------------------------------------------------------------------------------
// COPY

/// T2.*: the generic copy `for i < size(dst): dst(i) = src(i)` run on arrays through the layouts,
/// against `expected`: the `(dst offset, src offset)` assignments of the application written out
/// with explicit index arithmetic. `injective` says whether the destination is expected to be
/// injective (only the Constant application is not).
pub(super) fn copy(
    a: &[String],
    injective: bool,
    expected: fn() -> Vec<(usize, usize)>,
) -> R<Checked> {
    let (src, dst) = (lay(&a[0])?, lay(&a[1])?);
    let (ns, nd) = (src.size(), dst.size());
    if ns != nd {
        return Ok(Checked::new(
            format!("precondition fails: {ns} ≠ {nd}"),
            false,
        ));
    }
    let src_data: Vec<i64> = (0..e(src.cosize())?).map(|k| 100 + k).collect();
    // the library's COPY, planned (`copy`) and the reference loop (`copy_generic`)
    let mut out = vec![-1i64; e(dst.cosize())? as usize];
    let mut reference = out.clone();
    let ts = e(cute::Tensor::new(&src_data[..], src))?;
    e(cute::copy(
        &ts,
        &mut e(cute::Tensor::new(&mut out[..], dst))?,
    ))?;
    e(cute::copy_generic(
        &ts,
        &mut e(cute::Tensor::new(&mut reference[..], dst))?,
    ))?;
    let plan = match e(cute::copy_plan(&src, &dst))? {
        Some(p) => format!("copy moves runs of {} element(s)", p.vector),
        None => "copy runs the reference loop".to_string(),
    };
    let mut want = vec![-1i64; out.len()];
    for (d, s) in expected() {
        *slot(&mut want, d)? = get(&src_data, s)?;
    }
    let image = e(dst.image())?.len() as i64;
    let is_injective = image == nd;
    let same = out == want && reference == want;
    let text = if is_injective {
        format!("{ns} == {nd}; dst = expected")
    } else {
        format!("{ns} == {nd}; dst not injective")
    };
    let mut c = Checked::new(text, same && is_injective == injective).note(plan);
    if !is_injective {
        c = c.note(format!(
            "the destination {dst} is not injective: {nd} writes go to {image} offset(s), so the copy is only well defined because every write stores the same value"
        ));
    }
    Ok(c)
}

// ---------------------------------------------------------------------------------------------
// GEMM

/// An offset function `(row, col) ↦ offset` written out with explicit index arithmetic.
pub(super) type Off = fn(i64, i64) -> i64;

/// T3.*: checks the GEMM preconditions of A `(M,K)`, B `(N,K)`, C `(M,N)`, then runs the reference
/// loop `C(m,n) += A(m,k)·B(n,k)` through the layouts on arrays and compares C with the naive product
/// `Σ_k a[a_off(m,k)]·b[b_off(n,k)]` stored at `c_off(m,n)`.
pub(super) fn gemm(a: &[String], offs: [Off; 3]) -> R<Checked> {
    let (la, lb, lc) = (lay(&a[0])?, lay(&a[1])?, lay(&a[2])?);
    for l in [&la, &lb, &lc] {
        if l.rank() != 2 {
            return Ok(Checked::new(format!("{l} is not rank 2"), false));
        }
    }
    let (m, k, n) = (
        size_of_mode(&la, 0)?,
        size_of_mode(&la, 1)?,
        size_of_mode(&lb, 0)?,
    );
    let pre = [
        ("M", m, size_of_mode(&lc, 0)?),
        ("N", n, size_of_mode(&lc, 1)?),
        ("K", k, size_of_mode(&lb, 1)?),
    ];
    if let Some((what, x, y)) = pre.iter().find(|p| p.1 != p.2) {
        return Ok(Checked::new(
            format!("precondition {what} fails: {x} ≠ {y}"),
            false,
        ));
    }
    if (e(lc.image())?.len() as i64) < m * n {
        return Ok(Checked::new(format!("C = {lc} is not injective"), false));
    }
    let mut rng = Rng::new(0x6e33);
    let av: Vec<i64> = (0..e(la.cosize())?).map(|_| rng.range(-9, 9)).collect();
    let bv: Vec<i64> = (0..e(lb.cosize())?).map(|_| rng.range(-9, 9)).collect();
    // the library's GEMM: the reference loop `cute::gemm` on integers and the fast path
    // `cute_gemm::gemm` on doubles (exact here: small integers)
    let mut cv = vec![0i64; e(lc.cosize())? as usize];
    e(cute::gemm(
        &e(cute::Tensor::new(&av[..], la))?,
        &e(cute::Tensor::new(&bv[..], lb))?,
        &mut e(cute::Tensor::new(&mut cv[..], lc))?,
    ))?;
    let (af, bf): (Vec<f64>, Vec<f64>) = (
        av.iter().map(|&x| x as f64).collect(),
        bv.iter().map(|&x| x as f64).collect(),
    );
    let mut cf = vec![0.0f64; cv.len()];
    e(cute_gemm::gemm(
        &e(cute::Tensor::new(&af[..], la))?,
        &e(cute::Tensor::new(&bf[..], lb))?,
        &mut e(cute::Tensor::new(&mut cf[..], lc))?,
    ))?;
    let idx = |o: i64| usize::try_from(o).map_err(|_| format!("negative offset {o}"));
    let [a_off, b_off, c_off] = offs;
    let mut same = true;
    for mm in 0..m {
        for nn in 0..n {
            let mut s = 0;
            for kk in 0..k {
                s += get(&av, idx(a_off(mm, kk))?)? * get(&bv, idx(b_off(nn, kk))?)?;
            }
            let ic = idx(c_off(mm, nn))?;
            same &= get(&cv, ic)? == s && cf.get(ic) == Some(&(s as f64));
        }
    }
    let text = if same {
        format!(
            "M={m},N={n},K={k}: preconditions hold, C = naive product (reference and fast GEMM)"
        )
    } else {
        format!("M={m},N={n},K={k}: C ≠ naive product")
    };
    Ok(Checked::new(text, same).note(format!("numeric instance A = {la}, B = {lb}, C = {lc}")))
}

/// T3.6: the second GETT row's A and B have strides not congruent with their shapes, so they are not
/// layouts; checked on numeric stand-ins (C must still be a valid layout).
pub(super) fn gemm_not_layouts(a: &[String], _exp: &str) -> R<Checked> {
    let mut reasons = Vec::new();
    let mut all = true;
    for s in &a[..2] {
        match s.parse::<Layout>() {
            Err(x) if matches!(x.kind(), ErrorKind::NotCongruent { .. }) => {
                reasons.push(format!("{s}: {x}"));
            }
            Err(x) => return Err(x.to_string()),
            Ok(l) => {
                all = false;
                reasons.push(format!("{l} is a layout"));
            }
        }
    }
    all &= lay(&a[2]).is_ok();
    let text = if all {
        "not layouts: S ≁ D (ERROR ProfileMismatch)".to_string()
    } else {
        "layouts".to_string()
    };
    Ok(Checked::new(text, all).note(format!(
        "numeric stand-ins M=7, K1=2, K2=3, W=5, X=6, N=5, Y=8, Z=9: {}; a congruent form would be e.g. (M,(K1,K2)):(1,(W,X))",
        reasons.join("; ")
    )))
}

// ---------------------------------------------------------------------------------------------
// Composition

/// S-ID-*: `L(i) = i` for every `i < |L|`.
pub(super) fn identity(a: &[String], exp: &str) -> R<Checked> {
    let l = lay(&a[0])?;
    let n = l.size();
    let mut ok = true;
    for i in 0..n {
        ok &= e(l.eval(i))? == i;
    }
    let text = if ok {
        format!("L(i) = i for i < {n}")
    } else {
        format!("not the identity on Z_{n}")
    };
    Ok(Checked::new(text.clone(), text == exp))
}

/// S-ID-4, S-ID-5: a coordinate layout as the identity of the shape `a[1]` (rank 2): `L(i,j)` is
/// the arithmetic tuple `(i,j)` for every `(i,j)`, evaluated at the 2-D coordinate (partially
/// collapsed where `L`'s modes are tuples).
pub(super) fn coordinate_identity(a: &[String], exp: &str) -> R<Checked> {
    let l = lay(&a[0])?;
    let s = tup(&a[1])?;
    let (m, n) = (e(e(s.get(0))?.size())?, e(e(s.get(1))?.size())?);
    let mut ok = true;
    for j in 0..n {
        for i in 0..m {
            let v = e(l.eval_crd_value(&e(IntTuple::flat(&[i, j]))?))?;
            ok &= match v {
                cute::Value::Coord(t) => t.get(&[0]) == i && t.get(&[1]) == j,
                _ => false,
            };
        }
    }
    let text = if ok {
        format!("L(i,j) = (i,j) for (i,j) ∈ Z_{s}")
    } else {
        format!("not the identity of Z_{s}")
    };
    Ok(Checked::new(text.clone(), text == exp))
}

/// S-ASSOC-4: `A ∘ (B ∘ C)` vs `(A ∘ B) ∘ C`, both by the algebra and pointwise.
pub(super) fn associativity(a: &[String], exp: &str) -> R<Checked> {
    let (la, lb, lc) = (lay(&a[0])?, lay(&a[1])?, lay(&a[2])?);
    let right = e(cute::composition(&la, &e(cute::composition(&lb, &lc))?))?;
    let ab = e(cute::composition(&la, &lb))?;
    let left = e(cute::composition(&ab, &lc))?;
    let n = lc.size();
    let mut ok = right != left;
    let (mut chain_r, mut chain_l) = (Vec::new(), Vec::new());
    for i in 0..n {
        let r = e(la.eval(e(lb.eval(e(lc.eval(i))?))?))?;
        let l = e(ab.eval(e(lc.eval(i))?))?;
        ok &= e(right.eval(i))? == r && e(left.eval(i))? == l;
        chain_r.push(r);
        chain_l.push(l);
    }
    let text = format!("{right} ≠ {left}");
    Ok(Checked::new(text.clone(), ok && text == exp).note(format!(
        "A∘(B∘C) pointwise {chain_r:?}; (A∘B) = {ab}, then ∘ C pointwise {chain_l:?}: image(C) ⊄ Z_|B|"
    )))
}

/// S-COMP-6: the two intuitive routes of `(4,6,8,10):(2,3,5,7) ∘ 6:12`: "divide out the first 12"
/// (`A(12i) = (1,2,8,10):(X,9,5,7)(i)`) then keep 6, or "keep the first 72"
/// (`A(i) = (4,6,3):(2,3,5)(i)`) then compose with `6:12`.
pub(super) fn composition_routes(a: &[String], exp: &str) -> R<Checked> {
    let la = lay(&a[0])?;
    let divided = lay(&a[1])?;
    let kept = lay(&a[2])?;
    let mut ok = true;
    for i in 0..divided.size() {
        ok &= e(la.eval(12 * i))? == e(divided.eval(i))?;
    }
    for i in 0..kept.size() {
        ok &= e(la.eval(i))? == e(kept.eval(i))?;
    }
    let r1 = e(cute::composition(&divided, &lay("6:1")?))?;
    let r2 = e(cute::composition(&kept, &lay("6:12")?))?;
    let r = e(cute::composition(&la, &lay("6:12")?))?;
    ok &= r1 == r && r2 == r;
    let text = format!("both routes = {r}");
    Ok(Checked::new(text.clone(), ok && text == exp).note(format!(
        "X:=0; A(12i) = {divided}(i) for i < {}, A(i) = {kept}(i) for i < {}: {}; {divided} ∘ 6:1 = {r1}, {kept} ∘ 6:12 = {r2}",
        divided.size(),
        kept.size(),
        yes(ok)
    )))
}

/// F6-1: the TV layout is a bijection of `Z_64` compatible with `(32,2)`.
pub(super) fn tv_bijection(a: &[String], exp: &str) -> R<Checked> {
    let l = lay(&a[0])?;
    let n = l.size();
    let image = e(l.image())?;
    let bijective = image == (0..n).collect::<Vec<_>>();
    let compatible = tup("(32,2)")?.compatible(&l.shape());
    let text = if bijective && compatible {
        format!("bijective on Z_{n}, (32,2) ⪯ shape")
    } else {
        format!("not a bijection of Z_{n} compatible with (32,2)")
    };
    Ok(Checked::new(text.clone(), text == exp))
}

/// S-TILE-4: the literal concatenation `(4:1,8:1)` is the layout `(4,8):(1,1)`, not the tiler
/// `<4:1,8:1>`: composing with it must be refused (its modes' images overlap, condition (12)), and
/// the value the C++/PyCuTe oracles print, `(4,8):(20,20)`, is not `L ∘ B`.
pub(super) fn tile_concatenation(a: &[String], _exp: &str) -> R<Checked> {
    let l = lay(&a[0])?;
    let b = lay(&a[1])?;
    let (computed, refused, reason) = match ops::run("composition", &[&a[0], &a[1]]) {
        Outcome::Refused(x) | Outcome::BadArgument { error: x, .. } => (
            format!("ERROR {}", x.category()),
            x.category() == "Divisibility",
            x.to_string(),
        ),
        Outcome::Value(v) => (v.clone(), false, format!("accepted as {v}")),
        Outcome::Symbolic(x) => (format!("ERROR {}", x.category()), false, x.to_string()),
        Outcome::Usage(m) => return Err(m),
    };
    let tiler: Tiler = e("<4:1,8:1>".parse())?;
    let by_mode = e(cute::composition_tiler(&l, &tiler))?;
    let oracle = lay("(4,8):(20,20)")?;
    let mut witness = None;
    for i in 0..b.size() {
        let (x, y) = (e(oracle.eval(i))?, e(l.eval(e(b.eval(i))?))?);
        if x != y {
            witness = Some((i, x, y));
            break;
        }
    }
    let ok = refused && by_mode.to_string() == "(4,8):(20,1)" && witness.is_some();
    let mut c = Checked::new(computed, ok).note(reason).note(format!(
        "L ∘ <4:1,8:1> = {by_mode}, but (4:1,8:1) is the layout {b}"
    ));
    if let Some((i, x, y)) = witness {
        c = c.note(format!(
            "the oracles' (4,8):(20,20) is not L∘B: at i={i} it gives {x}, L(B(i)) = {y}"
        ));
    }
    Ok(c)
}

/// S-TILE-5 (integer part): `L ∘ <4:1,8:2>` equals `L(B0(i), B1(j))` on `Z_(4,8)`.
pub(super) fn tiler_pointwise(a: &[String], exp: &str) -> R<Checked> {
    let l = lay(&a[0])?;
    let t: Tiler = e(a[1].parse())?;
    let r = e(cute::composition_tiler(&l, &t))?;
    let (b0, b1) = (e(e(t.mode(0))?.to_layout())?, e(e(t.mode(1))?.to_layout())?);
    let (n0, n1) = (b0.size(), b1.size());
    let mut ok = r.size() == n0 * n1;
    for j in 0..n1 {
        for i in 0..n0 {
            ok &= at2(&r, i, j)? == at2(&l, e(b0.eval(i))?, e(b1.eval(j))?)?;
        }
    }
    let text = r.to_string();
    Ok(Checked::new(text.clone(), ok && text == exp).note(format!(
        "R(i,j) = L({b0}(i), {b1}(j)) on Z_({n0},{n1}): {}; the (M,N):(e0,e1) side of the identity needs E strides",
        yes(ok)
    )))
}
