//! A small deterministic RNG, storage for a layout, and the naive GEMM loop.

use cute::Layout;

/// xorshift64*.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Uniform in `[-1, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// `(base, len)`: a storage length and base that hold every offset of `l`, with `pad` extra
/// elements on each side.
pub fn extent(l: &Layout, pad: usize) -> (usize, usize) {
    let (mut lo, mut hi) = (0i64, 0i64);
    for k in 0..l.leaf_count() {
        let (s, d) = l.leaf_at(k);
        let r = (s - 1) * d;
        if r < 0 {
            lo += r;
        } else {
            hi += r;
        }
    }
    let base = (-lo) as usize + pad;
    (base, base + hi as usize + 1 + pad)
}

/// Random values in `[-1, 1)`.
pub fn random_vec(rng: &mut Rng, n: usize) -> Vec<f64> {
    (0..n).map(|_| rng.unit()).collect()
}

/// Random small integers.
pub fn random_ints(rng: &mut Rng, n: usize) -> Vec<i64> {
    (0..n).map(|_| rng.below(19) as i64 - 9).collect()
}

/// The modes `(X0, X1, X2)` of a GEMM operand (`X2 = 1:0` for rank 2).
fn split(l: &Layout) -> [Layout; 3] {
    let third = if l.rank() == 3 {
        l.mode(2).unwrap()
    } else {
        Layout::leaf(1, 0).unwrap()
    };
    [l.mode(0).unwrap(), l.mode(1).unwrap(), third]
}

/// The naive loop `C(m,n,l) += Σ_k A(m,k,l)·B(n,k,l)` on storages with bases, in f64.
#[allow(clippy::too_many_arguments)]
pub fn naive_gemm(
    a: &[f64],
    ba: usize,
    la: &Layout,
    b: &[f64],
    bb: usize,
    lb: &Layout,
    c: &mut [f64],
    bc: usize,
    lc: &Layout,
) {
    let [am, ak, al] = split(la);
    let [bn, bk, bl] = split(lb);
    let [cm, cn, cl] = split(lc);
    let s = |x: &Layout| x.size();
    for l in 0..s(&al) {
        for m in 0..s(&am) {
            for n in 0..s(&bn) {
                let mut acc = 0.0;
                for k in 0..s(&ak) {
                    let ia =
                        ba as i64 + am.eval(m).unwrap() + ak.eval(k).unwrap() + al.eval(l).unwrap();
                    let ib =
                        bb as i64 + bn.eval(n).unwrap() + bk.eval(k).unwrap() + bl.eval(l).unwrap();
                    acc += a[ia as usize] * b[ib as usize];
                }
                let ic =
                    bc as i64 + cm.eval(m).unwrap() + cn.eval(n).unwrap() + cl.eval(l).unwrap();
                c[ic as usize] += acc;
            }
        }
    }
}

/// Asserts `|x - y| ≤ tol` elementwise and that the comparison covered something.
pub fn assert_close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    assert!(!got.is_empty(), "{what}: nothing compared");
    for (i, (x, y)) in got.iter().zip(want).enumerate() {
        assert!(
            (x - y).abs() <= tol,
            "{what}: element {i}: {x} vs {y} (tol {tol})"
        );
    }
}

/// The tolerance for sums of `k` products of values in `[-1, 1)`: a few ulps per term.
pub fn tol_f32(k: i64) -> f64 {
    4.0 * k as f64 * f32::EPSILON as f64 + 1e-6
}

pub fn tol_f64(k: i64) -> f64 {
    4.0 * k as f64 * f64::EPSILON + 1e-12
}
