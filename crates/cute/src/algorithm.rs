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
use crate::geometry::{check_injective_exhaustive, mixed_radix_injective, refine, Odometer};
use crate::layout::Layout;
use crate::tensor::{Storage, StorageMut, Tensor};

/// `copy(src, dst)`: `dst(i) = src(i)` for every `i < |dst|` (the paper's COPY), by the fastest
/// loop nest the algebra finds ([`copy_plan`]): whole common contiguous runs moved as slices, the
/// other modes reordered for locality and blocked when source and destination are contiguous
/// along different modes (a transpose). The result is exactly that of [`copy_generic`]: when the
/// destination is not provably injective (so the order of writes could matter) the reference loop
/// runs. The domains must have the same size (`ProfileMismatch` otherwise).
///
/// ```
/// use cute::{copy, Layout, Tensor};
/// let src = Tensor::new([0, 1, 2, 3, 4, 5], "(2,3):(1,2)".parse::<Layout>().unwrap()).unwrap();
/// let mut dst = Tensor::new([0; 6], "(2,3):(3,1)".parse::<Layout>().unwrap()).unwrap(); // transpose
/// copy(&src, &mut dst).unwrap();
/// assert_eq!(dst.storage(), &[0, 2, 4, 1, 3, 5]);
/// let mut small = Tensor::new([0; 4], "4:1".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!(copy(&src, &mut small).unwrap_err().to_string(), "copy (2,3):(1,2), 4:1: copy needs source and destination domains of the same size (6 vs 4)");
/// ```
///
/// # Errors
///
/// As [`copy_plan`]: `ProfileMismatch` when the domains differ in size, and a refusal (category
/// `Unsupported`) when a layout does not have integer strides.
pub fn copy<S, D>(src: &Tensor<S>, dst: &mut Tensor<D>) -> Result<(), Error>
where
    S: Storage,
    D: StorageMut<Item = S::Item>,
    S::Item: Clone,
{
    // copy_plan checks the sizes (the precondition) too
    match copy_plan(src.layout(), dst.layout())? {
        Some(plan) => {
            let (s0, d0) = (src.base() as i64, dst.base() as i64);
            let s = src.storage().items();
            let d = dst.storage_mut().items_mut();
            plan.run(s, s0, d, d0);
            Ok(())
        }
        None => copy_generic(src, dst),
    }
}

/// The reference COPY of the paper: `for i < |dst|: dst(i) = src(i)`, in the order of `i`. A
/// destination that is not injective receives the last value written to each of its elements.
///
/// ```
/// use cute::{copy_generic, Layout, Tensor};
/// let src = Tensor::new([0, 1, 2, 3, 4, 5], "6:1".parse::<Layout>().unwrap()).unwrap();
/// // not injective: the two rows of the destination are the same 3 elements
/// let mut dst = Tensor::new([0; 3], "(2,3):(0,1)".parse::<Layout>().unwrap()).unwrap();
/// copy_generic(&src, &mut dst).unwrap();
/// assert_eq!(dst.storage(), &[1, 3, 5]); // the last value written wins
/// ```
///
/// # Errors
///
/// `ProfileMismatch` when the domains differ in size.
pub fn copy_generic<S, D>(src: &Tensor<S>, dst: &mut Tensor<D>) -> Result<(), Error>
where
    S: Storage,
    D: StorageMut<Item = S::Item>,
    S::Item: Clone,
{
    let nd = check_sizes(src.layout(), dst.layout())?;
    for i in 0..nd {
        // both in range: the sizes agree and every offset was checked when the tensors were made
        if let (Some(v), Some(slot)) = (src.get(i), dst.get_mut(i)) {
            *slot = v.clone();
        }
    }
    Ok(())
}

/// The common size of `src` and `dst`, or the copy's precondition error.
fn check_sizes(src: &Layout, dst: &Layout) -> Result<i64, Error> {
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
        .with(Operand::Layout(*src), Operand::Layout(*dst)));
    }
    Ok(nd)
}

/// One mode of a copy loop nest: `n` steps of `src_stride` in the source and `dst_stride` in the
/// destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyMode {
    /// The number of steps.
    pub n: i64,
    /// The source stride.
    pub src_stride: i64,
    /// The destination stride.
    pub dst_stride: i64,
}

/// The loop nest [`copy`] runs for two layouts: a common contiguous vector moved as one slice, and
/// the other modes, innermost first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyPlan {
    /// Elements per contiguous run common to source and destination (`1` when there is none): the
    /// paper's maximal common vector of the two layouts (eq. (14)).
    pub vector: i64,
    /// The loops around the runs, innermost first.
    pub modes: Vec<CopyMode>,
}

/// The block edge used to tile a transpose-like copy (elements).
pub const COPY_BLOCK: i64 = 32;

/// The joint modes of a copy from `src` into `dst` (integer strides, equal sizes: errors
/// otherwise): steps 1–3 of [`copy_plan`] without taking out the vector or blocking. The modes are
/// sorted by destination stride and jointly coalesced; `None` when the two layouts' leaves have no
/// common refinement or the destination is not provably injective. The GPU COPY of `cute-cuda`
/// plans its kernels from these modes.
///
/// ```
/// use cute::{copy_modes, CopyMode, Layout};
/// let src: Layout = "(8,3):(1,8)".parse().unwrap(); // column-major 8x3
/// let dst: Layout = "(8,3):(3,1)".parse().unwrap(); // row-major 8x3: a transpose
/// let m = copy_modes(&src, &dst).unwrap().unwrap();
/// assert_eq!(
///     m,
///     vec![
///         CopyMode { n: 3, src_stride: 8, dst_stride: 1 },
///         CopyMode { n: 8, src_stride: 1, dst_stride: 3 },
///     ]
/// );
/// ```
///
/// # Errors
///
/// A refusal (category `Unsupported`) when a layout does not have integer strides;
/// `ProfileMismatch` when the domains differ in size.
pub fn copy_modes(src: &Layout, dst: &Layout) -> Result<Option<Vec<CopyMode>>, Error> {
    src.require_integral(Op::Copy)?;
    dst.require_integral(Op::Copy)?;
    check_sizes(src, dst)?;
    // the leaves of each layout as (shapes, strides)
    let leaves =
        |l: &Layout| -> (Vec<i64>, Vec<i64>) { (0..l.leaf_count()).map(|k| l.leaf_at(k)).unzip() };
    let ((ss, sd), (ds, dd)) = (leaves(src), leaves(dst));
    let r = refine([&ss, &ds], [&sd, &dd]);
    if !r.is_complete() {
        return Ok(None);
    }
    let mut modes: Vec<CopyMode> = (0..r.len())
        .map(|k| {
            let [src_stride, dst_stride] = r.strides(k);
            CopyMode {
                n: r.extent(k),
                src_stride,
                dst_stride,
            }
        })
        .collect();
    let (extent, dst_stride): (Vec<i64>, Vec<i64>) =
        modes.iter().map(|m| (m.n, m.dst_stride)).unzip();
    if mixed_radix_injective(&extent, &dst_stride).is_err() {
        return Ok(None);
    }
    modes.sort_by_key(|m| (m.dst_stride.unsigned_abs(), m.src_stride.unsigned_abs()));
    let mut merged: Vec<CopyMode> = Vec::with_capacity(modes.len());
    for m in modes {
        if let Some(last) = merged.last_mut() {
            if last.src_stride.checked_mul(last.n) == Some(m.src_stride)
                && last.dst_stride.checked_mul(last.n) == Some(m.dst_stride)
            {
                last.n *= m.n;
                continue;
            }
        }
        merged.push(m);
    }
    Ok(Some(merged))
}

/// The loop nest for copying through `src` into `dst` (integer strides, equal sizes: errors
/// otherwise), or `None` when the destination is not provably injective or the two layouts'
/// leaves have no common refinement (then only the reference loop is correct, or simplest).
///
/// 1. The flattened layouts are refined to a common leaf structure (each leaf split where the
///    other layout's leaf boundaries fall, which is composing both with the same layout of the
///    domain); size-1 leaves are dropped.
/// 2. The destination must be injective, shown by the mixed-radix criterion: sorted by absolute
///    stride, each stride exceeds the reach of the smaller ones. Then the order of the loops does
///    not change the result, and they are sorted by destination stride.
/// 3. Adjacent modes are coalesced when they merge in both layouts; a leading mode of stride 1 in
///    both is the common contiguous vector.
/// 4. Without a vector, when the source's and the destination's fastest modes differ, both are
///    divided into blocks of [`COPY_BLOCK`] (`logical_divide` by `COPY_BLOCK:1`) and the two
///    block-inner loops go innermost: a cache-blocked transpose.
///
/// ```
/// use cute::{copy_plan, CopyMode, Layout};
/// let src: Layout = "(4,8):(1,4)".parse().unwrap(); // compact 4x8
/// let dst: Layout = "(4,8):(1,8)".parse().unwrap(); // columns padded to 8
/// let plan = copy_plan(&src, &dst).unwrap().unwrap();
/// assert_eq!(plan.vector, 4);
/// assert_eq!(plan.modes, vec![CopyMode { n: 8, src_stride: 4, dst_stride: 8 }]);
/// let bcast: Layout = "(4,8):(1,0)".parse().unwrap(); // not injective: no plan
/// assert!(copy_plan(&src, &bcast).unwrap().is_none());
/// ```
///
/// # Errors
///
/// As [`copy_modes`].
pub fn copy_plan(src: &Layout, dst: &Layout) -> Result<Option<CopyPlan>, Error> {
    let Some(mut merged) = copy_modes(src, dst)? else {
        return Ok(None);
    };
    let mut vector = 1;
    if let Some(first) = merged.first() {
        if first.src_stride == 1 && first.dst_stride == 1 {
            vector = first.n;
            merged.remove(0);
        }
    }
    if vector == 1 {
        merged = blocked(merged);
    }
    Ok(Some(CopyPlan {
        vector,
        modes: merged,
    }))
}

/// Blocks a transpose-like nest (modes sorted by destination stride): the destination's fastest
/// mode and the source's fastest mode are each split into `COPY_BLOCK` × rest, and the two block
/// loops go innermost.
fn blocked(modes: Vec<CopyMode>) -> Vec<CopyMode> {
    if modes.len() < 2 {
        return modes;
    }
    let by_src = (0..modes.len())
        .min_by_key(|&k| (modes[k].src_stride.unsigned_abs(), k))
        .unwrap_or(0);
    // the destination's fastest mode is first; block only when the source is fastest elsewhere
    if by_src == 0 || modes[0].src_stride == 0 {
        return modes;
    }
    let (d, s) = (modes[0], modes[by_src]);
    if d.n % COPY_BLOCK != 0 || s.n % COPY_BLOCK != 0 || d.n == COPY_BLOCK && s.n == COPY_BLOCK {
        return modes;
    }
    let split = |m: CopyMode| {
        Some((
            CopyMode { n: COPY_BLOCK, ..m },
            CopyMode {
                n: m.n / COPY_BLOCK,
                src_stride: m.src_stride.checked_mul(COPY_BLOCK)?,
                dst_stride: m.dst_stride.checked_mul(COPY_BLOCK)?,
            },
        ))
    };
    let (Some((d_in, d_out)), Some((s_in, s_out))) = (split(d), split(s)) else {
        return modes;
    };
    let mut out = vec![d_in, s_in, d_out, s_out];
    out.extend(
        modes
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != 0 && k != by_src)
            .map(|(_, m)| *m),
    );
    out
}

impl CopyPlan {
    /// Runs the nest: `dst[d0 + ...] = src[s0 + ...]`. The caller guarantees every offset is inside
    /// the storages (the tensors checked it).
    fn run<T: Clone>(&self, src: &[T], s0: i64, dst: &mut [T], d0: i64) {
        let v = self.vector as usize;
        // the innermost loops: a run of `v`, or the first two modes as a 2-D strided kernel
        let unit = CopyMode {
            n: 1,
            src_stride: 0,
            dst_stride: 0,
        };
        let (inner, outer) = match (v > 1, &self.modes[..]) {
            (true, m) | (false, m @ []) => (None, m),
            (false, [a]) => (Some((*a, unit)), &[][..]),
            (false, [a, b, rest @ ..]) => (Some((*a, *b)), rest),
        };
        let extent: Vec<i64> = outer.iter().map(|m| m.n).collect();
        let src_stride: Vec<i64> = outer.iter().map(|m| m.src_stride).collect();
        let dst_stride: Vec<i64> = outer.iter().map(|m| m.dst_stride).collect();
        // the outer modes, by a walker over their coordinate
        let mut walk = Odometer::new(&extent, [&src_stride, &dst_stride]);
        loop {
            let [so, d_o] = walk.offsets();
            let (s, d) = (s0 + so, d0 + d_o);
            match inner {
                None => {
                    let (s, d) = (s as usize, d as usize);
                    dst[d..d + v].clone_from_slice(&src[s..s + v]);
                }
                Some((a, b)) => {
                    for j in 0..b.n {
                        let (sj, dj) = (s + j * b.src_stride, d + j * b.dst_stride);
                        strided(src, sj, a.src_stride, dst, dj, a.dst_stride, a.n);
                    }
                }
            }
            if !walk.step() {
                return;
            }
        }
    }
}

/// `dst[d + i·dd] = src[s + i·ds]` for `i < n`.
fn strided<T: Clone>(src: &[T], s: i64, ds: i64, dst: &mut [T], d: i64, dd: i64, n: i64) {
    if n <= 0 {
        return;
    }
    let last = |o: i64, st: i64| o + st * (n - 1);
    if ds > 0 && dd > 0 {
        let (s, d) = (s as usize, d as usize);
        let (se, de) = (last(s as i64, ds) as usize, last(d as i64, dd) as usize);
        let from = src[s..=se].iter().step_by(ds as usize);
        let to = dst[d..=de].iter_mut().step_by(dd as usize);
        for (x, y) in to.zip(from) {
            *x = y.clone();
        }
    } else if ds == 0 && dd > 0 {
        let (d, de) = (d as usize, last(d, dd) as usize);
        let v = &src[s as usize];
        for x in dst[d..=de].iter_mut().step_by(dd as usize) {
            *x = v.clone();
        }
    } else {
        for i in 0..n {
            dst[(d + i * dd) as usize] = src[(s + i * ds) as usize].clone();
        }
    }
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
/// tensors must have the same rank, 2 or 3. `C` must be injective on its `(M,N[,L])` domain: two
/// coordinates of `C` at one element would accumulate into it, which `cute_gemm::gemm` refuses too;
/// both refuse it with the same test
/// ([`geometry::check_injective_exhaustive`](crate::geometry::check_injective_exhaustive)): a
/// [`ErrorKind::Collision`] naming two indices of `C` that meet (category `NotInjective`), before
/// `C` is touched.
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
/// // a C whose two columns share their elements (stride 0) is refused, and left untouched
/// let mut tc = Tensor::new(&mut c[..], "(2,2):(1,0)".parse::<Layout>().unwrap()).unwrap();
/// let e = gemm(&ta, &tb, &mut tc).unwrap_err();
/// assert_eq!(e.category(), "NotInjective");
/// assert_eq!(e.to_string(), "gemm (2,2):(1,0): the layout is not injective: indices 0 and 2 reach the same offset");
/// assert_eq!(c, [6, 8, 8, 10]);
/// ```
///
/// # Errors
///
/// `ProfileMismatch` as [`gemm_modes`] (ranks other than 2 or 3, extents that do not match);
/// [`ErrorKind::Collision`] (category `NotInjective`) when `C` is not injective on its domain,
/// before `C` is touched.
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
    check_injective_exhaustive(c.layout(), Op::Gemm)?;
    let [(am, ak, al), (bn, bk, bl), (cm, cn, cl)] = modes.layouts;
    // each mode's offsets, once (in range: the tensors checked every offset of their layouts)
    let table = |x: &Layout| -> Result<Vec<usize>, Error> {
        (0..x.size()).map(|i| Ok(x.eval(i)? as usize)).collect()
    };
    let (am, ak, al) = (table(&am)?, table(&ak)?, table(&al)?);
    let (bn, bk, bl) = (table(&bn)?, table(&bk)?, table(&bl)?);
    let (cm, cn, cl) = (table(&cm)?, table(&cn)?, table(&cl)?);
    let (sa, sb) = (a.storage().items(), b.storage().items());
    let (ba, bb, bc) = (a.base(), b.base(), c.base());
    let sc = c.storage_mut().items_mut();
    // offsets are signed: base + offset, computed with wrapping arithmetic on usize (the sum is a
    // valid index, checked when the tensors were made)
    let at = |base: usize, offs: &[usize]| offs.iter().fold(base, |x, &o| x.wrapping_add(o));
    for l in 0..al.len() {
        for k in 0..ak.len() {
            let (ka, kb) = (at(ba, &[al[l], ak[k]]), at(bb, &[bl[l], bk[k]]));
            for n in 0..bn.len() {
                let vb = sb[kb.wrapping_add(bn[n])];
                let nc = at(bc, &[cl[l], cn[n]]);
                for m in 0..am.len() {
                    sc[nc.wrapping_add(cm[m])] += sa[ka.wrapping_add(am[m])] * vb;
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
///
/// ```
/// use cute::{gemm_modes, Layout};
/// let a: Layout = "(2,3):(1,2)".parse().unwrap(); // (M,K)
/// let b: Layout = "(4,3):(1,4)".parse().unwrap(); // (N,K)
/// let c: Layout = "(2,4):(1,2)".parse().unwrap(); // (M,N)
/// assert_eq!(gemm_modes(&a, &b, &c).unwrap().extents, (2, 4, 3, 1));
/// let e = gemm_modes(&a, &b, &"(2,5):(1,2)".parse().unwrap()).unwrap_err();
/// assert_eq!(e.to_string(), "gemm (4,3):(1,4), (2,5):(1,2): gemm precondition N: size<0>(B) == size<1>(C) (4 vs 5)");
/// ```
///
/// # Errors
///
/// `ProfileMismatch` when the ranks are not all 2 or all 3, or when the extents M, N, K (and L) do
/// not match.
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
    let checks = [
        (
            "gemm precondition M: size<0>(A) == size<0>(C)",
            la.0.size(),
            lc.0.size(),
            a,
            c,
        ),
        (
            "gemm precondition N: size<0>(B) == size<1>(C)",
            lb.0.size(),
            lc.1.size(),
            b,
            c,
        ),
        (
            "gemm precondition K: size<1>(A) == size<1>(B)",
            la.1.size(),
            lb.1.size(),
            a,
            b,
        ),
        (
            "gemm precondition L: size<2>(A) == size<2>(C)",
            la.2.size(),
            lc.2.size(),
            a,
            c,
        ),
        (
            "gemm precondition L: size<2>(B) == size<2>(C)",
            lb.2.size(),
            lc.2.size(),
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
        extents: (la.0.size(), lb.0.size(), la.1.size(), la.2.size()),
        layouts: [la, lb, lc],
    })
}
