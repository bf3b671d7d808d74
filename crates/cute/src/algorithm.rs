//! The generic algorithms of the paper's section on tensors: one loop, any layouts.
//!
//! `copy(src, dst)` is the paper's COPY (Table 2): `dst(i) = src(i)` for every integer coordinate
//! `i` of the domain, whatever the two layouts are. The rows of Table 2 are this one loop with
//! different layouts:
//!
//! | application | src | dst |
//! |---|---|---|
//! | 1-D array | `8:1` | `8:1` |
//! | transpose (4×8, column- to row-major) | `(4,8):(1,4)` | `(4,8):(8,1)` |
//! | gather | `8:3` | `8:1` |
//! | broadcast | `7:0` | `7:1` |
//!
//! ```
//! use cute::{copy, Layout, Tensor};
//! let a: Vec<i32> = (0..32).collect();
//! let mut b = vec![0; 32];
//! let src = Tensor::new(&a[..], "(4,8):(1,4)".parse::<Layout>().unwrap()).unwrap();
//! let mut dst = Tensor::new(&mut b[..], "(4,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
//! copy(&src, &mut dst).unwrap();
//! assert_eq!(b[1], 4); // dst(0,1) = src(0,1) = a[4]
//! ```

use crate::error::{Error, ErrorKind, Op, Operand};
use crate::layout::Layout;
use crate::tensor::{Storage, StorageMut, Tensor};

/// `copy(src, dst)`: `dst(i) = src(i)` for every `i < |dst|` (the paper's COPY). The domains must
/// have the same size (`ProfileMismatch` otherwise). A destination that is not injective receives
/// the last value written to each of its elements, as the loop does.
pub fn copy<S, D>(src: &Tensor<S>, dst: &mut Tensor<D>) -> Result<(), Error>
where
    S: Storage,
    D: StorageMut<Item = S::Item>,
    S::Item: Clone,
{
    let (ns, nd) = (src.size(), dst.size());
    if ns != nd {
        return Err(Error::new(
            Op::Copy,
            ErrorKind::ProfileMismatch {
                what: "copy needs source and destination domains of the same size",
                left: ns,
                right: nd,
            },
        )
        .with(
            Operand::Layout(*src.layout()),
            Operand::Layout(*dst.layout()),
        ));
    }
    for i in 0..nd {
        // both in range: the sizes agree and every offset was checked when the tensors were made
        if let (Some(v), Some(slot)) = (src.get(i), dst.get_mut(i)) {
            *slot = v.clone();
        }
    }
    Ok(())
}

/// `gemm(A, B, C)`: `C(m,n,l) += Σ_k A(m,k,l)·B(n,k,l)` (the paper's GEMM, Table 3), the reference
/// loop through the layouts.
///
/// | tensor | modes |
/// |---|---|
/// | `A` | `(M,K)` or `(M,K,L)` |
/// | `B` | `(N,K)` or `(N,K,L)` |
/// | `C` | `(M,N)` or `(M,N,L)` |
///
/// Each mode may be hierarchical (a GETT folds several tensor modes into one, a CONV uses an
/// im2col layout); the loop visits the integer coordinates of each mode. The preconditions
/// `size<0>(A) == size<0>(C)` (M), `size<0>(B) == size<1>(C)` (N), `size<1>(A) == size<1>(B)` (K)
/// and, for the batched form, equal `L` are checked (`ProfileMismatch` otherwise). The three
/// tensors must have the same rank, 2 or 3.
///
/// ```
/// use cute::{gemm, Layout, Tensor};
/// // NT GEMM: A (M,K):(1,M), B (N,K):(1,N), C (M,N):(1,M) with M=2, N=2, K=3
/// let a = [1, 2, 3, 4, 5, 6];
/// let b = [1, 0, 0, 1, 1, 1];
/// let mut c = [0; 4];
/// let ta = Tensor::new(&a[..], "(2,3):(1,2)".parse::<Layout>().unwrap()).unwrap();
/// let tb = Tensor::new(&b[..], "(2,3):(1,2)".parse::<Layout>().unwrap()).unwrap();
/// let mut tc = Tensor::new(&mut c[..], "(2,2):(1,2)".parse::<Layout>().unwrap()).unwrap();
/// gemm(&ta, &tb, &mut tc).unwrap();
/// assert_eq!(c, [6, 8, 8, 10]);
/// ```
pub fn gemm<SA, SB, SC, P>(a: &Tensor<SA>, b: &Tensor<SB>, c: &mut Tensor<SC>) -> Result<(), Error>
where
    SA: Storage,
    SB: Storage,
    SC: StorageMut,
    SA::Item: Copy + core::ops::Mul<SB::Item, Output = P>,
    SB::Item: Copy,
    SC::Item: core::ops::AddAssign<P>,
{
    let modes = gemm_modes(a.layout(), b.layout(), c.layout())?;
    let [(am, ak, al), (bn, bk, bl), (cm, cn, cl)] = modes.layouts;
    let (m, n, k, l) = modes.extents;
    let (sa, sb) = (a.storage().items(), b.storage().items());
    let (ba, bb, bc) = (a.base() as i64, b.base() as i64, c.base() as i64);
    let sc = c.storage_mut().items_mut();
    // every offset is inside the storage: checked when the tensors were made
    let ev = |x: &Layout, i: i64| x.eval(i).unwrap_or(0);
    for ll in 0..l {
        let (oa, ob, oc) = (ev(&al, ll), ev(&bl, ll), ev(&cl, ll));
        for kk in 0..k {
            let (ka, kb) = (ba + oa + ev(&ak, kk), bb + ob + ev(&bk, kk));
            for nn in 0..n {
                let (nb, nc) = (kb + ev(&bn, nn), bc + oc + ev(&cn, nn));
                let vb = sb[nb as usize];
                for mm in 0..m {
                    let va = sa[(ka + ev(&am, mm)) as usize];
                    sc[(nc + ev(&cm, mm)) as usize] += va * vb;
                }
            }
        }
    }
    Ok(())
}

/// The modes of a GEMM's operands, `(M,K,L)`, `(N,K,L)`, `(M,N,L)` (with `L = 1:0` when the tensors
/// have rank 2), and the extents `(M, N, K, L)`, after checking the preconditions.
#[derive(Clone, Copy, Debug)]
pub struct GemmModes {
    /// `[(A_M, A_K, A_L), (B_N, B_K, B_L), (C_M, C_N, C_L)]`.
    pub layouts: [(Layout, Layout, Layout); 3],
    /// `(M, N, K, L)`.
    pub extents: (i64, i64, i64, i64),
}

/// Splits the layouts of a GEMM's `A (M,K[,L])`, `B (N,K[,L])`, `C (M,N[,L])` into their modes and
/// checks the GEMM preconditions (equal ranks of 2 or 3, matching extents).
pub fn gemm_modes(a: &Layout, b: &Layout, c: &Layout) -> Result<GemmModes, Error> {
    let r = a.rank();
    let bad_rank = |x: &Layout| {
        Error::new(
            Op::Gemm,
            ErrorKind::ProfileMismatch {
                what: "gemm needs A, B and C of the same rank, 2 (M,K)/(N,K)/(M,N) or 3 with a batch mode L",
                left: r as i64,
                right: x.rank() as i64,
            },
        )
        .with(Operand::Layout(*a), Operand::Layout(*x))
    };
    if !(2..=3).contains(&r) {
        return Err(bad_rank(a));
    }
    for x in [b, c] {
        if x.rank() != r {
            return Err(bad_rank(x));
        }
    }
    let split = |x: &Layout| -> Result<(Layout, Layout, Layout), Error> {
        let l = if r == 3 {
            x.mode(2)?
        } else {
            Layout::leaf(1, 0)?
        };
        Ok((x.mode(0)?, x.mode(1)?, l))
    };
    let (la, lb, lc) = (split(a)?, split(b)?, split(c)?);
    let size = |x: &Layout| x.size();
    let checks = [
        (
            "gemm precondition M: size<0>(A) == size<0>(C)",
            size(&la.0)?,
            size(&lc.0)?,
            a,
            c,
        ),
        (
            "gemm precondition N: size<0>(B) == size<1>(C)",
            size(&lb.0)?,
            size(&lc.1)?,
            b,
            c,
        ),
        (
            "gemm precondition K: size<1>(A) == size<1>(B)",
            size(&la.1)?,
            size(&lb.1)?,
            a,
            b,
        ),
        (
            "gemm precondition L: size<2>(A) == size<2>(C)",
            size(&la.2)?,
            size(&lc.2)?,
            a,
            c,
        ),
        (
            "gemm precondition L: size<2>(B) == size<2>(C)",
            size(&lb.2)?,
            size(&lc.2)?,
            b,
            c,
        ),
    ];
    for (what, left, right, x, y) in checks {
        if left != right {
            return Err(
                Error::new(Op::Gemm, ErrorKind::ProfileMismatch { what, left, right })
                    .with(Operand::Layout(*x), Operand::Layout(*y)),
            );
        }
    }
    Ok(GemmModes {
        extents: (size(&la.0)?, size(&lb.0)?, size(&la.1)?, size(&la.2)?),
        layouts: [la, lb, lc],
    })
}
