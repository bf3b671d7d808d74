//! [`StaticTensor`]: an engine (storage) seen through a [`StaticLayout`], with its accesses,
//! iteration, slicing of a whole mode and conversion to and from [`Tensor`].

use core::marker::PhantomData;

use super::{Init, Last, Mode, Sliced, StaticLayout};
use crate::error::Error;
use crate::layout::Layout;
use crate::tensor::{Storage, StorageMut, Tensor};

/// A tensor whose layout is the compile-time constant `L::LAYOUT`: storage (`&[T]`, `&mut [T]`
/// or `Vec<T>`, as for [`Tensor`]) and the storage index of offset 0. Every offset of the layout is
/// checked to lie inside the storage once, when the tensor is made.
///
/// ```
/// use cute::{static_layout, StaticTensor};
/// static_layout!(ColMajor = "(4,8):(1,4)");
/// let mut t = StaticTensor::<ColMajor, _>::new(vec![0i32; 32]).unwrap();
/// *t.get_crd_mut([1, 2]).unwrap() = 7;
/// assert_eq!(t.storage()[9], 7);
/// assert_eq!(t.offset_natural([1, 2]), 9);
/// assert!(StaticTensor::<ColMajor, _>::new(vec![0i32; 31]).is_err()); // too small
/// ```
pub struct StaticTensor<L, S> {
    storage: S,
    base: usize,
    layout: PhantomData<fn() -> L>,
}

impl<L, S: Clone> Clone for StaticTensor<L, S> {
    fn clone(&self) -> Self {
        StaticTensor {
            storage: self.storage.clone(),
            base: self.base,
            layout: PhantomData,
        }
    }
}

impl<L: StaticLayout, S> core::fmt::Debug for StaticTensor<L, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StaticTensor")
            .field("layout", &format_args!("{}", L::LAYOUT))
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl<L: StaticLayout, S: Storage> StaticTensor<L, S> {
    /// The tensor whose offset 0 is the first element of `storage`.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "8:2");
    /// let data = [0u8; 15];
    /// assert!(StaticTensor::<L, _>::new(&data[..]).is_ok());
    /// assert!(StaticTensor::<L, _>::new(&data[..14]).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// As [`StaticTensor::with_base`] with base 0.
    pub fn new(storage: S) -> Result<Self, Error> {
        Self::with_base(storage, 0)
    }

    /// The tensor whose offset 0 is element `base` of `storage` (negative strides reach below it).
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(Reversed = "8:-1");
    /// let data: Vec<i32> = (0..8).collect();
    /// let t = StaticTensor::<Reversed, _>::with_base(&data[..], 7).unwrap();
    /// assert_eq!(t.get(0), Some(&7));
    /// assert!(StaticTensor::<Reversed, _>::with_base(&data[..], 6).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// Fails unless every offset of `L` on its domain lands inside the storage.
    pub fn with_base(storage: S, base: usize) -> Result<Self, Error> {
        crate::tensor::check_storage(
            storage.items().len(),
            base,
            (L::MIN_OFFSET, L::MAX_OFFSET),
            &L::LAYOUT,
        )?;
        Ok(StaticTensor {
            storage,
            base,
            layout: PhantomData,
        })
    }

    /// The layout `L::LAYOUT`.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(2,3):(3,1)");
    /// let t = StaticTensor::<L, _>::new(vec![0; 6]).unwrap();
    /// assert_eq!(t.layout().to_string(), "(2,3):(3,1)");
    /// ```
    pub const fn layout(&self) -> Layout {
        L::LAYOUT
    }

    /// `|L|`, the number of coordinates.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(2,3):(3,1)");
    /// assert_eq!(StaticTensor::<L, _>::new(vec![0; 6]).unwrap().size(), 6);
    /// ```
    pub const fn size(&self) -> usize {
        L::SIZE
    }

    /// The storage index of offset 0.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "4:1");
    /// assert_eq!(StaticTensor::<L, _>::with_base(vec![0; 9], 5).unwrap().base(), 5);
    /// ```
    pub const fn base(&self) -> usize {
        self.base
    }

    /// The storage.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "4:1");
    /// assert_eq!(StaticTensor::<L, _>::new(vec![1, 2, 3, 4]).unwrap().storage().len(), 4);
    /// ```
    pub fn storage(&self) -> &S {
        &self.storage
    }

    /// The storage back.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "4:1");
    /// let t = StaticTensor::<L, _>::new(vec![1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.into_storage(), [1, 2, 3, 4]);
    /// ```
    pub fn into_storage(self) -> S {
        self.storage
    }

    /// The storage index of `L(i)` relative to offset 0: `L::eval(i)`, for a 1-D index.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(4,8):(8,1)");
    /// assert_eq!(StaticTensor::<L, _>::new(vec![0; 32]).unwrap().offset(5), 9);
    /// ```
    #[inline(always)]
    pub fn offset(&self, i: usize) -> i64 {
        L::eval(i)
    }

    /// `L(c)` at the natural coordinate with leaves `c`: `L::eval_natural(c)`.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(4,(2,4)):(8,(1,2))");
    /// assert_eq!(StaticTensor::<L, _>::new(vec![0; 32]).unwrap().offset_natural([1, 1, 3]), 15);
    /// ```
    #[inline(always)]
    pub fn offset_natural<const N: usize>(&self, c: [usize; N]) -> i64 {
        L::eval_natural(c)
    }

    /// The storage the layout spans: `COSIZE` elements from the one at offset `MIN_OFFSET`.
    /// Slicing once gives the optimiser a constant length, against which the constant offsets
    /// are checked (and the checks removed).
    #[inline(always)]
    pub(super) fn window(&self) -> &[S::Item] {
        let lo = (self.base as i64 + L::MIN_OFFSET) as usize;
        &self.storage.items()[lo..lo + L::COSIZE]
    }

    /// `T(i) = A(L(i))` for a 1-D index `i < |L|` (`None` outside the domain).
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(4,8):(8,1)");
    /// let data: Vec<i32> = (0..32).collect();
    /// let t = StaticTensor::<L, _>::new(&data[..]).unwrap();
    /// assert_eq!((t.get(1), t.get(4), t.get(32)), (Some(&8), Some(&1), None));
    /// ```
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<&S::Item> {
        if i >= L::SIZE {
            return None;
        }
        self.window().get((L::eval(i) - L::MIN_OFFSET) as usize)
    }

    /// `T(c)` at the natural coordinate with leaves `c` (`None` outside the domain).
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(4,(2,4)):(8,(1,2))");
    /// let data: Vec<i32> = (0..32).collect();
    /// let t = StaticTensor::<L, _>::new(&data[..]).unwrap();
    /// assert_eq!((t.get_crd([1, 1, 3]), t.get_crd([1, 2, 0])), (Some(&15), None));
    /// ```
    #[inline(always)]
    pub fn get_crd<const N: usize>(&self, c: [usize; N]) -> Option<&S::Item> {
        if !L::contains(c) {
            return None;
        }
        self.window()
            .get((L::eval_natural(c) - L::MIN_OFFSET) as usize)
    }

    /// Calls `f` with every element in the order of the 1-D coordinates (natural-coordinate
    /// iteration: constant loops, no division).
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(2,3):(3,1)");
    /// let data: Vec<i32> = (0..6).collect();
    /// let mut v = Vec::new();
    /// StaticTensor::<L, _>::new(&data[..]).unwrap().for_each(|&x| v.push(x));
    /// assert_eq!(v, [0, 3, 1, 4, 2, 5]);
    /// ```
    #[inline(always)]
    pub fn for_each(&self, mut f: impl FnMut(&S::Item)) {
        let w = self.window();
        L::for_each_offset(|o| f(&w[(o - L::MIN_OFFSET) as usize]));
    }

    /// The same tensor, borrowing the storage.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "4:1");
    /// let t = StaticTensor::<L, _>::new(vec![1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.view().get(3), Some(&4));
    /// ```
    pub fn view(&self) -> StaticTensor<L, &[S::Item]> {
        StaticTensor {
            storage: self.storage.items(),
            base: self.base,
            layout: PhantomData,
        }
    }

    /// The dynamic [`Tensor`] of the same storage and layout, borrowing the storage (for the
    /// operations that change the layout at run time: partial slices, composition, partitions).
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(4,8):(8,1)");
    /// let data: Vec<i32> = (0..32).collect();
    /// let t = StaticTensor::<L, _>::new(&data[..]).unwrap();
    /// let d = t.as_dynamic();
    /// let col = d.slice(&"(_,2)".parse().unwrap()).unwrap();
    /// assert_eq!(col.get(1), Some(&10));
    /// ```
    pub fn as_dynamic(&self) -> Tensor<&[S::Item]> {
        Tensor::from_checked_parts(self.storage.items(), L::LAYOUT, self.base)
    }

    /// The dynamic [`Tensor`] of the same storage and layout.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(4,8):(8,1)");
    /// let t = StaticTensor::<L, _>::new(vec![0; 32]).unwrap().into_dynamic();
    /// assert_eq!(t.layout().to_string(), "(4,8):(8,1)");
    /// ```
    pub fn into_dynamic(self) -> Tensor<S> {
        Tensor::from_checked_parts(self.storage, L::LAYOUT, self.base)
    }

    /// The static tensor of a dynamic one whose layout is `L::LAYOUT` (equal as layouts: same
    /// shape, same stride); the dynamic tensor back otherwise.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor, Tensor};
    /// static_layout!(L = "(4,8):(8,1)");
    /// let t = Tensor::new(vec![0; 32], "(4,8):(8,1)".parse().unwrap()).unwrap();
    /// let s = StaticTensor::<L, _>::from_dynamic(t).unwrap();
    /// let u = Tensor::new(vec![0; 32], "(4,8):(1,4)".parse().unwrap()).unwrap();
    /// assert!(StaticTensor::<L, _>::from_dynamic(u).is_err());
    /// # let _ = s;
    /// ```
    ///
    /// # Errors
    ///
    /// The dynamic tensor, unchanged, when its layout is not `L::LAYOUT`.
    pub fn from_dynamic(t: Tensor<S>) -> Result<Self, Tensor<S>> {
        if *t.layout() != L::LAYOUT {
            return Err(t);
        }
        let (storage, _, base) = t.into_parts();
        // The dynamic tensor checked the same offsets against the same storage.
        Ok(StaticTensor {
            storage,
            base,
            layout: PhantomData,
        })
    }

    /// `T(_, …, _, j)`: the sub-tensor of the other modes at index `j` of mode `K` (a 1-D index
    /// of that mode), with the static layout [`Sliced<L, K>`] (`None` when `j` is outside the
    /// mode). `L` must have at least two modes and `K` be one of them (else a compile error).
    ///
    /// ```
    /// use cute::{static_layout, StaticLayout, StaticTensor};
    /// static_layout!(L = "(4,(2,4)):(8,(1,2))");
    /// let data: Vec<i32> = (0..32).collect();
    /// let t = StaticTensor::<L, _>::new(&data[..]).unwrap();
    /// let row = t.slice_mode::<0>(3).unwrap(); // T(3, _)
    /// assert_eq!(row.layout().to_string(), "((2,4)):((1,2))");
    /// assert_eq!(row.get(5), Some(&(24 + 1 + 4)));
    /// assert!(t.slice_mode::<0>(4).is_none());
    /// ```
    pub fn slice_mode<const K: usize>(
        &self,
        j: usize,
    ) -> Option<StaticTensor<Sliced<L, K>, &[S::Item]>> {
        let base = self.sliced_base::<Mode<L, K>>(j)?;
        Some(StaticTensor {
            storage: self.storage.items(),
            base,
            layout: PhantomData,
        })
    }

    /// `T(_, …, _, j)` for the last mode: the sub-tensor with the static layout
    /// [`Init<L>`] of the other modes (`None` when `j` is outside the last mode). `L` must have at
    /// least two modes (else a compile error).
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "((4,8),(8,16)):((8,512),(1,32))");
    /// let data: Vec<i32> = (0..4096).collect();
    /// let t = StaticTensor::<L, _>::new(&data[..]).unwrap();
    /// let s = t.slice_last(9).unwrap(); // the last mode (8,16):(1,32) at 9 = (1,1)
    /// assert_eq!(s.layout().to_string(), "((4,8)):((8,512))");
    /// assert_eq!(s.get(1), Some(&(1 + 32 + 8)));
    /// ```
    pub fn slice_last(&self, j: usize) -> Option<StaticTensor<Init<L>, &[S::Item]>> {
        let base = self.sliced_base::<Last<L>>(j)?;
        Some(StaticTensor {
            storage: self.storage.items(),
            base,
            layout: PhantomData,
        })
    }

    /// The base of the slice at index `j` of the mode `M` (`None` past it). The sub-tensor's
    /// offsets are `M(j) + R(c)` for the other modes `R`: offsets of `L`, inside the storage.
    fn sliced_base<M: StaticLayout>(&self, j: usize) -> Option<usize> {
        if j >= M::SIZE {
            return None;
        }
        Some((self.base as i64 + M::eval(j)) as usize)
    }
}

impl<L: StaticLayout, S: StorageMut> StaticTensor<L, S> {
    /// The storage, mutably.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "4:1");
    /// let mut t = StaticTensor::<L, _>::new(vec![0; 4]).unwrap();
    /// t.storage_mut()[2] = 5;
    /// assert_eq!(t.get(2), Some(&5));
    /// ```
    pub fn storage_mut(&mut self) -> &mut S {
        &mut self.storage
    }

    #[inline(always)]
    pub(super) fn window_mut(&mut self) -> &mut [S::Item] {
        let lo = (self.base as i64 + L::MIN_OFFSET) as usize;
        &mut self.storage.items_mut()[lo..lo + L::COSIZE]
    }

    /// The element at the 1-D index `i < |L|`, mutably.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(4,8):(8,1)");
    /// let mut t = StaticTensor::<L, _>::new(vec![0; 32]).unwrap();
    /// *t.get_mut(1).unwrap() = 3;
    /// assert_eq!(t.storage()[8], 3);
    /// ```
    #[inline(always)]
    pub fn get_mut(&mut self, i: usize) -> Option<&mut S::Item> {
        if i >= L::SIZE {
            return None;
        }
        self.window_mut()
            .get_mut((L::eval(i) - L::MIN_OFFSET) as usize)
    }

    /// The element at the natural coordinate with leaves `c`, mutably.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(4,8):(8,1)");
    /// let mut t = StaticTensor::<L, _>::new(vec![0; 32]).unwrap();
    /// *t.get_crd_mut([1, 2]).unwrap() = 3;
    /// assert_eq!(t.storage()[10], 3);
    /// ```
    #[inline(always)]
    pub fn get_crd_mut<const N: usize>(&mut self, c: [usize; N]) -> Option<&mut S::Item> {
        if !L::contains(c) {
            return None;
        }
        self.window_mut()
            .get_mut((L::eval_natural(c) - L::MIN_OFFSET) as usize)
    }

    /// Calls `f` with every element, mutably, in the order of the 1-D coordinates.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(2,3):(3,1)");
    /// let mut t = StaticTensor::<L, _>::new(vec![0; 6]).unwrap();
    /// let mut k = 0;
    /// t.for_each_mut(|x| { *x = k; k += 1 });
    /// assert_eq!(t.storage(), &[0, 2, 4, 1, 3, 5]);
    /// ```
    #[inline(always)]
    pub fn for_each_mut(&mut self, mut f: impl FnMut(&mut S::Item)) {
        let w = self.window_mut();
        L::for_each_offset(|o| f(&mut w[(o - L::MIN_OFFSET) as usize]));
    }

    /// The same tensor, borrowing the storage mutably.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "4:1");
    /// let mut t = StaticTensor::<L, _>::new(vec![0; 4]).unwrap();
    /// *t.view_mut().get_mut(0).unwrap() = 1;
    /// assert_eq!(t.get(0), Some(&1));
    /// ```
    pub fn view_mut(&mut self) -> StaticTensor<L, &mut [S::Item]> {
        StaticTensor {
            storage: self.storage.items_mut(),
            base: self.base,
            layout: PhantomData,
        }
    }

    /// The dynamic [`Tensor`] of the same storage and layout, borrowing the storage mutably.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(4,8):(8,1)");
    /// let mut t = StaticTensor::<L, _>::new(vec![0; 32]).unwrap();
    /// *t.as_dynamic_mut().get_mut(1).unwrap() = 2;
    /// assert_eq!(t.get(1), Some(&2));
    /// ```
    pub fn as_dynamic_mut(&mut self) -> Tensor<&mut [S::Item]> {
        Tensor::from_checked_parts(self.storage.items_mut(), L::LAYOUT, self.base)
    }

    /// [`slice_mode`](Self::slice_mode), mutably.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(4,8):(8,1)");
    /// let mut t = StaticTensor::<L, _>::new(vec![0; 32]).unwrap();
    /// t.slice_mode_mut::<1>(2).unwrap().for_each_mut(|x| *x = 1); // column 2
    /// assert_eq!(t.storage().iter().filter(|&&x| x == 1).count(), 4);
    /// assert_eq!(t.storage()[8 + 2], 1);
    /// ```
    pub fn slice_mode_mut<const K: usize>(
        &mut self,
        j: usize,
    ) -> Option<StaticTensor<Sliced<L, K>, &mut [S::Item]>> {
        let base = self.sliced_base::<Mode<L, K>>(j)?;
        Some(StaticTensor {
            storage: self.storage.items_mut(),
            base,
            layout: PhantomData,
        })
    }

    /// [`slice_last`](Self::slice_last), mutably.
    ///
    /// ```
    /// use cute::{static_layout, StaticTensor};
    /// static_layout!(L = "(4,8):(1,4)");
    /// let mut t = StaticTensor::<L, _>::new(vec![0; 32]).unwrap();
    /// t.slice_last_mut(7).unwrap().for_each_mut(|x| *x = 1); // the last column
    /// assert_eq!(t.storage()[28..], [1, 1, 1, 1]);
    /// ```
    pub fn slice_last_mut(&mut self, j: usize) -> Option<StaticTensor<Init<L>, &mut [S::Item]>> {
        let base = self.sliced_base::<Last<L>>(j)?;
        Some(StaticTensor {
            storage: self.storage.items_mut(),
            base,
            layout: PhantomData,
        })
    }
}

impl<L: StaticLayout, S: Storage> TryFrom<Tensor<S>> for StaticTensor<L, S> {
    type Error = Tensor<S>;

    /// [`StaticTensor::from_dynamic`].
    fn try_from(t: Tensor<S>) -> Result<Self, Tensor<S>> {
        StaticTensor::from_dynamic(t)
    }
}

impl<L: StaticLayout, S: Storage> From<StaticTensor<L, S>> for Tensor<S> {
    /// [`StaticTensor::into_dynamic`].
    fn from(t: StaticTensor<L, S>) -> Tensor<S> {
        t.into_dynamic()
    }
}
