//! COPY and GEMM over static tensors: [`static_copy`] and [`static_gemm`] (the paper's Tables 2
//! and 3 with every extent and stride a constant).

use core::marker::PhantomData;

use super::tensor::StaticTensor;
use super::{walk, Mode, Modes, StaticLayout};
use crate::error::Op;
use crate::geometry::{check_injective, refine};
use crate::int_tuple::CAPACITY;
use crate::tensor::{Storage, StorageMut};

/// The loop nest of a static COPY: the common refinement of the two coalesced layouts (modes
/// `n: src_stride, dst_stride`, innermost first, adjacent modes merged), or `ok = false` when the
/// two have no common refinement (then the copy evaluates both layouts at each index).
#[derive(Clone, Copy, Debug)]
struct CopyNest {
    ok: bool,
    n: usize,
    shape: [usize; CAPACITY],
    stride: [[i64; CAPACITY]; 2],
}

const fn copy_nest(a: &Modes, b: &Modes) -> CopyNest {
    let mut out = CopyNest {
        ok: false,
        n: 0,
        shape: [0; CAPACITY],
        stride: [[0; CAPACITY]; 2],
    };
    let (mut sa, mut sb) = ([0i64; CAPACITY], [0i64; CAPACITY]);
    let mut i = 0;
    while i < a.n {
        sa[i] = a.shape[i] as i64;
        i += 1;
    }
    let mut i = 0;
    while i < b.n {
        sb[i] = b.shape[i] as i64;
        i += 1;
    }
    let r = refine(
        [sa.split_at(a.n).0, sb.split_at(b.n).0],
        [a.stride.split_at(a.n).0, b.stride.split_at(b.n).0],
    );
    if !r.is_complete() {
        return out;
    }
    // adjacent joint modes merged where both strides continue the mode before
    let mut k = 0;
    while k < r.len() {
        let (g, [da, db]) = (r.extent(k), r.strides(k));
        let m = out.n;
        if m > 0
            && out.stride[0][m - 1] * out.shape[m - 1] as i64 == da
            && out.stride[1][m - 1] * out.shape[m - 1] as i64 == db
        {
            out.shape[m - 1] *= g as usize;
        } else {
            if m == CAPACITY {
                return out;
            }
            out.shape[m] = g as usize;
            out.stride[0][m] = da;
            out.stride[1][m] = db;
            out.n += 1;
        }
        k += 1;
    }
    out.ok = true;
    out
}

/// The compile-time facts of a copy from `A` to `B`.
struct CopyFacts<A, B>(PhantomData<fn() -> (A, B)>);

impl<A: StaticLayout, B: StaticLayout> CopyFacts<A, B> {
    const SAME_SIZE: () = assert!(
        A::SIZE == B::SIZE,
        "static_copy needs source and destination layouts of the same size"
    );
    const NEST: CopyNest = copy_nest(&A::ITER_MODES, &B::ITER_MODES);
}

/// The paper's COPY with both layouts static: `dst(i) = src(i)` for every `i < |dst|`, in the
/// order of `i` (so the result is that of [`copy_generic`](crate::copy_generic), a destination
/// that is not injective included). Layouts of different sizes do not compile. The loop nest is
/// the common refinement of the two coalesced layouts, computed at compile time: constant trip
/// counts and strides (when the two have no common refinement, both layouts are evaluated at each
/// index, with constant divisions).
///
/// ```
/// use cute::{static_copy, static_layout, StaticTensor};
/// static_layout!(ColMajor = "(4,8):(1,4)"; RowMajor = "(4,8):(8,1)");
/// let a: Vec<i32> = (0..32).collect();
/// let mut b = vec![0; 32];
/// let src = StaticTensor::<ColMajor, _>::new(&a[..]).unwrap();
/// let mut dst = StaticTensor::<RowMajor, _>::new(&mut b[..]).unwrap();
/// static_copy(&src, &mut dst);
/// assert_eq!(b[1], 4); // dst(0,1) = src(0,1) = a[4]
/// ```
///
/// ```compile_fail
/// use cute::{static_copy, static_layout, StaticTensor};
/// static_layout!(A = "(4,8):(1,4)"; B = "(4,4):(4,1)");
/// let src = StaticTensor::<A, _>::new(vec![0; 32]).unwrap();
/// let mut dst = StaticTensor::<B, _>::new(vec![0; 16]).unwrap();
/// static_copy(&src, &mut dst); // 32 elements into 16: a compile error
/// ```
#[inline(always)]
pub fn static_copy<A, B, S, D>(src: &StaticTensor<A, S>, dst: &mut StaticTensor<B, D>)
where
    A: StaticLayout,
    B: StaticLayout,
    S: Storage,
    D: StorageMut<Item = S::Item>,
    S::Item: Clone,
{
    let () = CopyFacts::<A, B>::SAME_SIZE;
    let s = src.window();
    let d = dst.window_mut();
    let nest = &CopyFacts::<A, B>::NEST;
    if nest.ok {
        walk(nest.n, &nest.shape, &nest.stride, |[os, od]| {
            d[(od - B::MIN_OFFSET) as usize] = s[(os - A::MIN_OFFSET) as usize].clone();
        });
    } else {
        for i in 0..B::SIZE {
            d[(B::eval(i) - B::MIN_OFFSET) as usize] =
                s[(A::eval(i) - A::MIN_OFFSET) as usize].clone();
        }
    }
}

/// The GEMM preconditions of three static layouts `A (M,K)`, `B (N,K)`, `C (M,N)`, checked by the
/// compiler when [`static_gemm`] is instantiated.
struct GemmFacts<A, B, C>(PhantomData<GemmOperands<A, B, C>>);

/// The three layouts of a [`GemmFacts`], as a type.
type GemmOperands<A, B, C> = fn() -> (A, B, C);

impl<A: StaticLayout, B: StaticLayout, C: StaticLayout> GemmFacts<A, B, C> {
    const CHECKED: () = {
        assert!(
            A::LAYOUT.rank() == 2 && B::LAYOUT.rank() == 2 && C::LAYOUT.rank() == 2,
            "static_gemm: A (M,K), B (N,K) and C (M,N) must have rank 2"
        );
        assert!(
            <Mode<A, 0>>::SIZE == <Mode<C, 0>>::SIZE,
            "static_gemm: precondition M fails: size<0>(A) != size<0>(C)"
        );
        assert!(
            <Mode<B, 0>>::SIZE == <Mode<C, 1>>::SIZE,
            "static_gemm: precondition N fails: size<0>(B) != size<1>(C)"
        );
        assert!(
            <Mode<A, 1>>::SIZE == <Mode<B, 1>>::SIZE,
            "static_gemm: precondition K fails: size<1>(A) != size<1>(B)"
        );
        // (a search past its bound counts as not injective: the layout does not compile)
        assert!(
            check_injective(&C::LAYOUT, Op::Gemm).is_ok(),
            "static_gemm: C must be injective: two coordinates of C would accumulate into one \
             element (gemm refuses it too)"
        );
    };
}

/// The paper's GEMM over static tensors: `C(m,n) += Σ_k A(m,k)·B(n,k)` for `A (M,K)`, `B (N,K)`,
/// `C (M,N)`, the reference loop with every extent and stride a constant (each mode evaluated by
/// its own static layout, [`Mode`]). The preconditions, an injective `C` among them, are checked by
/// the compiler; the result is that of [`gemm`](crate::gemm) on the same layouts.
///
/// ```
/// use cute::{static_gemm, static_layout, StaticTensor};
/// static_layout!(A = "(2,3):(1,2)"; B = "(2,3):(1,2)"; C = "(2,2):(1,2)");
/// let a = StaticTensor::<A, _>::new([1, 2, 3, 4, 5, 6]).unwrap();
/// let b = StaticTensor::<B, _>::new([1, 0, 0, 1, 1, 1]).unwrap();
/// let mut c = StaticTensor::<C, _>::new([0; 4]).unwrap();
/// static_gemm(&a, &b, &mut c);
/// assert_eq!(c.into_storage(), [6, 8, 8, 10]);
/// ```
///
/// ```compile_fail
/// use cute::{static_gemm, static_layout, StaticTensor};
/// static_layout!(A = "(2,3):(1,2)"; B = "(2,4):(1,2)"; C = "(2,2):(1,2)");
/// let a = StaticTensor::<A, _>::new([0; 6]).unwrap();
/// let b = StaticTensor::<B, _>::new([0; 8]).unwrap();
/// let mut c = StaticTensor::<C, _>::new([0; 4]).unwrap();
/// static_gemm(&a, &b, &mut c); // K: 3 against 4, a compile error
/// ```
///
/// ```compile_fail
/// use cute::{static_gemm, static_layout, StaticTensor};
/// static_layout!(A = "(2,3):(1,2)"; B = "(2,3):(1,2)"; C = "(2,2):(1,0)");
/// let a = StaticTensor::<A, _>::new([0; 6]).unwrap();
/// let b = StaticTensor::<B, _>::new([0; 6]).unwrap();
/// let mut c = StaticTensor::<C, _>::new([0; 2]).unwrap();
/// static_gemm(&a, &b, &mut c); // C's two columns share their elements: a compile error
/// ```
#[inline(always)]
pub fn static_gemm<LA, LB, LC, SA, SB, SC, P>(
    a: &StaticTensor<LA, SA>,
    b: &StaticTensor<LB, SB>,
    c: &mut StaticTensor<LC, SC>,
) where
    LA: StaticLayout,
    LB: StaticLayout,
    LC: StaticLayout,
    SA: Storage,
    SB: Storage,
    SC: StorageMut,
    SA::Item: Copy + core::ops::Mul<SB::Item, Output = P>,
    SB::Item: Copy,
    SC::Item: core::ops::AddAssign<P>,
{
    let () = GemmFacts::<LA, LB, LC>::CHECKED;
    let (wa, wb) = (a.window(), b.window());
    let wc = c.window_mut();
    for k in 0..<Mode<LA, 1>>::SIZE {
        let (ka, kb) = (<Mode<LA, 1>>::eval(k), <Mode<LB, 1>>::eval(k));
        for n in 0..<Mode<LB, 0>>::SIZE {
            let vb = wb[(kb + <Mode<LB, 0>>::eval(n) - LB::MIN_OFFSET) as usize];
            let nc = <Mode<LC, 1>>::eval(n) - LC::MIN_OFFSET;
            for m in 0..<Mode<LA, 0>>::SIZE {
                let va = wa[(ka + <Mode<LA, 0>>::eval(m) - LA::MIN_OFFSET) as usize];
                wc[(nc + <Mode<LC, 0>>::eval(m)) as usize] += va * vb;
            }
        }
    }
}
