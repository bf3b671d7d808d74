//! The fast GEMM over CuTe tensors.

use crate::kernel;
use crate::plan::plan_gemm;
use cute::{Error, Storage, StorageMut, Tensor};

mod sealed {
    pub trait Sealed {}
}

/// Element types of [`gemm()`](crate::gemm()): `f32` and `f64` run through the `gemm` crate's blocked, SIMD,
/// multithreaded kernel; the integer types run [`cute::gemm`]'s reference loop (exact, wrapping
/// never: overflow panics in debug builds as the reference loop does).
pub trait Element:
    sealed::Sealed + Copy + PartialEq + core::ops::Mul<Output = Self> + core::ops::AddAssign + 'static
{
    /// The multiplicative identity.
    const ONE: Self;
    /// The additive identity.
    const ZERO: Self;

    /// Runs `C = β·C + A·B` on the storages; `false` (C untouched) when the type has no fast
    /// kernel.
    #[doc(hidden)]
    fn fast(
        plan: &crate::GemmPlan,
        a: (&[Self], usize),
        b: (&[Self], usize),
        c: (&mut [Self], usize),
        beta: Self,
    ) -> bool;
}

/// Implements [`Element`] for each type: `fast` ones run the blocked kernel, `reference` ones have
/// none (`Element::fast` returns `false` and the reference loop runs).
macro_rules! element {
    (@fast fast, $plan:ident, $a:ident, $b:ident, $c:ident, $beta:ident) => {{
        kernel::execute($plan, $a, $b, $c, $beta);
        true
    }};
    (@fast reference, $plan:ident, $a:ident, $b:ident, $c:ident, $beta:ident) => {{
        let _ = ($plan, $a, $b, $c, $beta);
        false
    }};
    ($kind:ident: $($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const ONE: $t = 1 as $t;
            const ZERO: $t = 0 as $t;
            fn fast(
                plan: &crate::GemmPlan,
                a: (&[Self], usize),
                b: (&[Self], usize),
                c: (&mut [Self], usize),
                beta: Self,
            ) -> bool {
                element!(@fast $kind, plan, a, b, c, beta)
            }
        }
    )*};
}

element!(fast: f32, f64);
element!(reference: i8, i16, i32, i64, i128, u8, u16, u32, u64, u128);

/// `gemm(A, B, C)`: `C(m,n,l) += Σ_k A(m,k,l)·B(n,k,l)`, the contract of [`cute::gemm`] (the
/// paper's convention: A is `(M,K[,L])`, B is `(N,K[,L])`, C is `(M,N[,L])`, every mode may be
/// hierarchical, C is accumulated into, not overwritten), run by the blocked kernel of the `gemm`
/// crate for `f32` and `f64`.
///
/// The layouts are planned by [`crate::plan_gemm`]: each mode is coalesced jointly across the two
/// operands that carry it, one joint sub-mode of each of M, N, K becomes the kernel's extent, and
/// the other sub-modes (and L) are loops around kernel calls that accumulate (`beta = 1`).
/// Negative strides and zero strides in A and B (broadcasts) are allowed. When the kernel pieces
/// are small and there are several, the outer loop over an M, N or L sub-mode is split among the
/// CPU's threads; otherwise the kernel itself is multithreaded.
///
/// Errors (all naming `gemm` and the operands' layouts): the preconditions of [`cute::gemm_modes`]
/// (`ProfileMismatch`), non-integer strides (`Unsupported`), and a C that is not injective on its
/// `(M,N,L)` domain ([`cute::ErrorKind::Collision`], category `NotInjective`, naming two indices
/// of C that meet) — refused for every element type, also those that run the reference loop, so
/// that the result never depends on the element type.
///
/// ```
/// use cute::{Layout, Tensor};
/// // A (2,3) column-major, B (2,3) column-major (so B is N×K), C (2,2) column-major
/// let a = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
/// let b = [1.0f32, 0.0, 0.0, 1.0, 1.0, 1.0];
/// let mut c = [0.0f32; 4];
/// let ta = Tensor::new(&a[..], "(2,3):(1,2)".parse::<Layout>().unwrap()).unwrap();
/// let tb = Tensor::new(&b[..], "(2,3):(1,2)".parse::<Layout>().unwrap()).unwrap();
/// let mut tc = Tensor::new(&mut c[..], "(2,2):(1,2)".parse::<Layout>().unwrap()).unwrap();
/// cute_gemm::gemm(&ta, &tb, &mut tc).unwrap();
/// assert_eq!(c, [6.0, 8.0, 8.0, 10.0]);
/// ```
pub fn gemm<T, SA, SB, SC>(a: &Tensor<SA>, b: &Tensor<SB>, c: &mut Tensor<SC>) -> Result<(), Error>
where
    T: Element,
    SA: Storage<Item = T>,
    SB: Storage<Item = T>,
    SC: StorageMut<Item = T>,
{
    gemm_beta(a, b, T::ONE, c)
}

/// [`gemm()`] with BLAS's β: `C = β·C + A·B`. The fast kernel applies β in its first call for
/// each piece of C (with `β = 0` it does not read C); the reference loop's types scale C first.
/// Every refusal happens before C is touched.
pub(crate) fn gemm_beta<T, SA, SB, SC>(
    a: &Tensor<SA>,
    b: &Tensor<SB>,
    beta: T,
    c: &mut Tensor<SC>,
) -> Result<(), Error>
where
    T: Element,
    SA: Storage<Item = T>,
    SB: Storage<Item = T>,
    SC: StorageMut<Item = T>,
{
    let plan = plan_gemm(a.layout(), b.layout(), c.layout())?;
    let base_c = c.base();
    let done = T::fast(
        &plan,
        (a.storage().items(), a.base()),
        (b.storage().items(), b.base()),
        (c.storage_mut().items_mut(), base_c),
        beta,
    );
    if !done {
        if beta != T::ONE {
            for i in 0..c.size() {
                if let Some(x) = c.get_mut(i) {
                    *x = if beta == T::ZERO { T::ZERO } else { *x * beta };
                }
            }
        }
        cute::gemm(a, b, c)?;
    }
    Ok(())
}
