//! Tensors (paper: 张量 “tensor”): an accessor composed with a layout, `T = A ∘ L`.
//!
//! A [`Tensor`] pairs storage (a borrowed slice, a mutable slice or an owned `Vec`) with a layout
//! with integer strides and the storage index of the layout's offset 0. Every offset the layout
//! reaches on its domain is checked to lie inside the storage once, when the tensor is made, so
//! element access never fails for a coordinate of the domain.
//!
//! | storage | reads | writes |
//! |---|---|---|
//! | `&[T]` | yes | no |
//! | `&mut [T]` | yes | yes |
//! | `Vec<T>` | yes | yes |
//! | `[T; N]` (CuTe's array engine: registers, a tile on the stack) | yes | yes |
//!
//! ```
//! use cute::{Layout, Tensor};
//! let data: Vec<i32> = (0..32).collect();
//! // the 4×8 row-major view of the data
//! let t = Tensor::new(&data[..], "(4,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
//! assert_eq!(t.get(1), Some(&8)); // coordinate (1,0)
//! assert_eq!(t.get_crd(&"(1,2)".parse().unwrap()), Some(&10));
//! // a layout that reaches past the data is refused when the tensor is made
//! assert!(Tensor::new(&data[..], "(4,8):(8,2)".parse::<Layout>().unwrap()).is_err());
//! ```

use crate::algebra::composition::composition;
use crate::error::{tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::partition::{local_partition, local_tile, tv_partition};
use crate::slice::{slice_and_offset, slice_and_value, PartialCoord};
use crate::stride::Value;
use crate::tiler::Tiler;

/// Storage a tensor reads from: a slice, a mutable slice, a `Vec` or an array.
pub trait Storage {
    /// The element type.
    type Item;
    /// The elements.
    fn items(&self) -> &[Self::Item];
}

/// Storage a tensor also writes to.
pub trait StorageMut: Storage {
    /// The elements, mutably.
    fn items_mut(&mut self) -> &mut [Self::Item];
}

impl<T> Storage for &[T] {
    type Item = T;
    fn items(&self) -> &[T] {
        self
    }
}

impl<T> Storage for &mut [T] {
    type Item = T;
    fn items(&self) -> &[T] {
        self
    }
}

impl<T> StorageMut for &mut [T] {
    fn items_mut(&mut self) -> &mut [T] {
        self
    }
}

impl<T, const N: usize> Storage for [T; N] {
    type Item = T;
    fn items(&self) -> &[T] {
        self
    }
}

impl<T, const N: usize> StorageMut for [T; N] {
    fn items_mut(&mut self) -> &mut [T] {
        self
    }
}

impl<T> Storage for Vec<T> {
    type Item = T;
    fn items(&self) -> &[T] {
        self
    }
}

impl<T> StorageMut for Vec<T> {
    fn items_mut(&mut self) -> &mut [T] {
        self
    }
}

/// `Tensor::new(&v, l)` for a `Vec` `v`, as for `&v[..]`.
impl<T> Storage for &Vec<T> {
    type Item = T;
    fn items(&self) -> &[T] {
        self
    }
}

impl<T> Storage for &mut Vec<T> {
    type Item = T;
    fn items(&self) -> &[T] {
        self
    }
}

impl<T> StorageMut for &mut Vec<T> {
    fn items_mut(&mut self) -> &mut [T] {
        self
    }
}

impl<T, const N: usize> Storage for &[T; N] {
    type Item = T;
    fn items(&self) -> &[T] {
        &self[..]
    }
}

impl<T, const N: usize> Storage for &mut [T; N] {
    type Item = T;
    fn items(&self) -> &[T] {
        &self[..]
    }
}

impl<T, const N: usize> StorageMut for &mut [T; N] {
    fn items_mut(&mut self) -> &mut [T] {
        &mut self[..]
    }
}

/// A tensor `A ∘ L`: storage, a layout with integer strides, and the storage index of offset 0.
///
/// Its `{:?}` is short whatever the storage's size: the layout, the element type, the storage's
/// length, the base and the first [`DEBUG_VALUES`] elements in index order.
///
/// ```
/// use cute::{Layout, Tensor};
/// let v: Vec<i32> = (0..1 << 20).collect();
/// let t = Tensor::new(&v, "(4,8):(8,1)".parse::<Layout>()?)?;
/// assert_eq!(
///     format!("{t:?}"),
///     "Tensor { layout: (4,8):(8,1), dtype: i32, storage_len: 1048576, base: 0, \
///      values: [0, 8, 16, 24, 1, 9, 17, 25, ..] }"
/// );
/// # Ok::<(), cute::Error>(())
/// ```
#[derive(Clone)]
pub struct Tensor<S> {
    storage: S,
    layout: Layout,
    base: usize,
}

/// How many elements `{:?}` of a [`Tensor`] shows.
pub const DEBUG_VALUES: usize = 8;

impl<S: Storage> std::fmt::Debug for Tensor<S>
where
    S::Item: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        /// The first values, then `..` when there are more.
        struct Head<'a, S: Storage>(&'a Tensor<S>);
        impl<S: Storage> std::fmt::Debug for Head<'_, S>
        where
            S::Item: std::fmt::Debug,
        {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let n = self.0.size();
                let mut l = f.debug_list();
                for i in 0..n.min(DEBUG_VALUES as i64) {
                    if let Some(x) = self.0.get(i) {
                        l.entry(x);
                    }
                }
                if n > DEBUG_VALUES as i64 {
                    l.entry(&format_args!(".."));
                }
                l.finish()
            }
        }
        f.debug_struct("Tensor")
            .field("layout", &format_args!("{}", self.layout))
            .field(
                "dtype",
                &format_args!("{}", std::any::type_name::<S::Item>()),
            )
            .field("storage_len", &self.storage.items().len())
            .field("base", &self.base)
            .field("values", &Head(self))
            .finish()
    }
}

impl<S: Storage> Tensor<S> {
    /// The tensor whose offset 0 is the first element of `storage`: a slice (`&v[..]`, `&mut
    /// v[..]`), a `Vec` by value or by reference (`&v`, `&mut v`), or an array (by value or by
    /// reference).
    ///
    /// ```
    /// use cute::{IntTuple, Layout, Tensor};
    /// let data: Vec<i64> = (0..32).collect();
    /// let t = Tensor::new(&data[..], "(4,8):(8,1)".parse::<Layout>().unwrap()).unwrap(); // row-major 4x8
    /// assert_eq!(*t.get_crd(&"(1,2)".parse::<IntTuple>().unwrap()).unwrap(), 10);
    /// let same = Tensor::new(&data, "(4,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(same.get(9), t.get(9));
    /// let e = Tensor::new(vec![0; 4], "8:1".parse::<Layout>().unwrap()).unwrap_err();
    /// assert_eq!(e.to_string(), "make_tensor 8:1, 0: the layout reaches storage indices 0 to 7, outside a storage of 4 elements");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Tensor::with_base`] with base 0.
    pub fn new(storage: S, layout: Layout) -> Result<Tensor<S>, Error> {
        Tensor::with_base(storage, 0, layout)
    }

    /// The tensor whose offset 0 is element `base` of `storage` (negative strides reach below it).
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let data: Vec<i64> = (0..8).collect();
    /// let rev = Tensor::with_base(&data[..], 7, "8:-1".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!((*rev.get(0).unwrap(), *rev.get(7).unwrap()), (7, 0));
    /// let e = Tensor::with_base(&data[..], 0, "8:-1".parse::<Layout>().unwrap()).unwrap_err();
    /// assert_eq!(e.to_string(), "make_tensor 8:-1, 0: the layout reaches storage indices -7 to 0, outside a storage of 8 elements");
    /// ```
    ///
    /// # Errors
    ///
    /// Fails unless every offset of `layout` on its domain lands inside the storage.
    pub fn with_base(storage: S, base: usize, layout: Layout) -> Result<Tensor<S>, Error> {
        layout.require_integral(Op::Tensor)?;
        let (lo, hi) = offset_range(&layout)?;
        check_storage(storage.items().len(), base, (lo, hi), &layout)?;
        Ok(Tensor {
            storage,
            layout,
            base,
        })
    }

    /// A tensor from parts already checked against each other (a static tensor's).
    pub(crate) fn from_checked_parts(storage: S, layout: Layout, base: usize) -> Tensor<S> {
        Tensor {
            storage,
            layout,
            base,
        }
    }

    /// The storage, the layout and the base, back.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let t = Tensor::with_base(vec![0; 9], 1, "(2,4):(1,2)".parse::<Layout>().unwrap()).unwrap();
    /// let (storage, layout, base) = t.into_parts();
    /// assert_eq!((storage.len(), layout.to_string(), base), (9, "(2,4):(1,2)".to_string(), 1));
    /// ```
    pub fn into_parts(self) -> (S, Layout, usize) {
        (self.storage, self.layout, self.base)
    }

    /// The layout `L`.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let t = Tensor::new(vec![0.0f32; 32], "(4,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.layout().to_string(), "(4,8):(8,1)");
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The storage index of offset 0 (where `L(0)` lands when `L(0) = 0`).
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let t = Tensor::with_base([0u8; 8], 7, "8:-1".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.base(), 7);
    /// ```
    pub fn base(&self) -> usize {
        self.base
    }

    /// The storage.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let t = Tensor::new(vec![1, 2, 3, 4, 5], "(2,2):(1,2)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.storage(), &vec![1, 2, 3, 4, 5]);
    /// ```
    pub fn storage(&self) -> &S {
        &self.storage
    }

    /// `|L|`, the number of coordinates (not the length of the storage: a broadcast or strided
    /// layout reads fewer or more elements than it has coordinates).
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let t = Tensor::new(vec![1, 2, 3, 4, 5], "(2,2):(1,2)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.size(), 4);
    /// let b = Tensor::new(vec![7], "(3,2):(0,0)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(b.size(), 6);
    /// ```
    pub fn size(&self) -> i64 {
        self.layout.size()
    }

    /// The storage index of `L(i)` for an integer coordinate `i` of the domain.
    fn index(&self, i: i64) -> Option<usize> {
        if i < 0 || i >= self.size() {
            return None;
        }
        let off = self.layout.eval(i).ok()?;
        Some((self.base as i64 + off) as usize)
    }

    /// `T(i) = A(L(i))` for an integer coordinate `i < |L|` (`None` outside the domain).
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let data: Vec<i64> = (0..32).collect();
    /// let t = Tensor::new(&data[..], "(4,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.get(5), Some(&9)); // index 5 is the coordinate (1,1)
    /// assert_eq!(t.get(32), None);
    /// ```
    pub fn get(&self, i: i64) -> Option<&S::Item> {
        let k = self.index(i)?;
        self.storage.items().get(k)
    }

    /// `T(c)` for a coordinate `c` of the domain in any admissible form (ND, natural, partially
    /// collapsed); `None` when `c` is not a coordinate of the domain.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let data: Vec<i64> = (0..32).collect();
    /// let t = Tensor::new(&data[..], "(4,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.get_crd(&"(1,2)".parse().unwrap()), Some(&10));
    /// assert_eq!(t.get_crd(&"(1,8)".parse().unwrap()), None);
    /// ```
    pub fn get_crd(&self, c: &IntTuple) -> Option<&S::Item> {
        if !in_domain(c, &self.layout.shape()) {
            return None;
        }
        let off = self.layout.eval_crd(c).ok()?;
        self.storage.items().get((self.base as i64 + off) as usize)
    }

    /// Every element in the order of the integer coordinates.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let t = Tensor::new([0, 1, 2, 3, 4, 5], "(2,3):(3,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.iter().copied().collect::<Vec<_>>(), vec![0, 3, 1, 4, 2, 5]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &S::Item> + '_ {
        (0..self.size()).filter_map(move |i| self.get(i))
    }

    /// The same tensor, borrowing the storage.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let t = Tensor::new(vec![0, 1, 2, 3, 4, 5], "(2,3):(3,1)".parse::<Layout>().unwrap()).unwrap();
    /// let v = t.view(); // a Tensor<&[i32]>
    /// assert_eq!((v.get(1), v.layout()), (Some(&3), t.layout()));
    /// ```
    pub fn view(&self) -> Tensor<&[S::Item]> {
        Tensor {
            storage: self.storage.items(),
            layout: self.layout,
            base: self.base,
        }
    }

    /// The storage index of offset `off` of this tensor's layout (`base + off`), checked.
    fn shifted(&self, off: i64) -> Result<usize, Error> {
        usize::try_from(self.base as i64 + off).map_err(|_| {
            Error::new(
                Op::Tensor,
                ErrorKind::OutOfStorage {
                    first: self.base as i64 + off,
                    last: self.base as i64 + off,
                    len: self.storage.items().len() as i64,
                },
            )
        })
    }

    /// A view of the same storage through `layout`, offset by `off` (checked against the storage).
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let data: Vec<i64> = (0..32).collect();
    /// let t = Tensor::new(&data[..], "32:1".parse::<Layout>().unwrap()).unwrap();
    /// let r = t.reshaped("(4,4):(1,4)".parse().unwrap(), 16).unwrap();
    /// assert_eq!(r.get(5), Some(&21));
    /// let e = t.reshaped("(4,4):(1,4)".parse().unwrap(), 30).unwrap_err();
    /// assert_eq!(e.to_string(), "make_tensor (4,4):(1,4), 30: the layout reaches storage indices 30 to 45, outside a storage of 32 elements");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfStorage` (category `OutOfRange`) when the moved base or an offset of `layout` falls
    /// outside the storage, and the errors of [`Tensor::with_base`].
    pub fn reshaped(&self, layout: Layout, off: i64) -> Result<Tensor<&[S::Item]>, Error> {
        Tensor::with_base(self.storage.items(), self.shifted(off)?, layout)
    }

    /// `T(c)` for a partial coordinate (paper: 切片 “slicing”): the sub-tensor of the free modes, its
    /// offset having absorbed `L(c')` of the fixed entries (see [`slice()`](crate::slice::slice)).
    ///
    /// ```
    /// use cute::{Layout, PartialCoord, Tensor};
    /// let data: Vec<i64> = (0..32).collect();
    /// let t = Tensor::new(&data[..], "(4,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
    /// let row = t.slice(&"(2,_)".parse::<PartialCoord>().unwrap()).unwrap();
    /// assert_eq!(row.layout().to_string(), "(8):(1)");
    /// assert_eq!(row.get(3), Some(&19));
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`slice_and_offset`] for `c`, then of
    /// [`Tensor::reshaped`].
    pub fn slice(&self, c: &PartialCoord) -> Result<Tensor<&[S::Item]>, Error> {
        let (l, off) = slice_and_offset(&self.layout, c)?;
        self.reshaped(l, off)
    }

    /// `A ∘ (L ∘ B)`: the same elements seen through `composition(L, B)` (permute and reshape
    /// the coordinates, paper 5.3).
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let data: Vec<i64> = (0..32).collect();
    /// let t = Tensor::new(&data[..], "32:1".parse::<Layout>().unwrap()).unwrap();
    /// let rows = t.compose(&"(4,8):(8,1)".parse().unwrap()).unwrap();
    /// assert_eq!(rows.get_crd(&"(1,2)".parse().unwrap()), Some(&10));
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`composition`] of the tensor's layout with `b`, then of
    /// [`Tensor::reshaped`].
    pub fn compose(&self, b: &Layout) -> Result<Tensor<&[S::Item]>, Error> {
        self.reshaped(composition(&self.layout, b)?, 0)
    }

    /// Thread `thread`'s values under the thread-value layout `tv` ([`tv_partition`], whose errors
    /// it returns: a thread outside `size<0>(tv)` is an `OutOfRange` error of `tv_partition`).
    ///
    /// ```
    /// use cute::{Layout, Op, Tensor};
    /// let data: Vec<i64> = (0..64).collect();
    /// let t = Tensor::new(&data[..], "(8,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
    /// let tv: Layout = "((4,8),2):((16,1),8)".parse().unwrap();
    /// let part = t.partition_tv(&tv, 1).unwrap();
    /// assert_eq!((*part.get(0).unwrap(), *part.get(1).unwrap()), (2, 3));
    /// let e = t.partition_tv(&tv, 32).unwrap_err();
    /// assert_eq!((e.op(), e.category()), (Op::TvPartition, "OutOfRange"));
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`tv_partition`], then of [`Tensor::reshaped`].
    pub fn partition_tv(&self, tv: &Layout, thread: i64) -> Result<Tensor<&[S::Item]>, Error> {
        let (l, off) = tv_partition(&self.layout, tv, thread)?;
        self.reshaped(l, off)
    }

    /// The tile at `coord` of `zipped_divide(L, tiler)` ([`local_tile`]).
    ///
    /// ```
    /// use cute::{Layout, PartialCoord, Tensor, Tiler};
    /// let data: Vec<i64> = (0..160).collect();
    /// let t = Tensor::new(&data[..], "(8,16):(20,1)".parse::<Layout>().unwrap()).unwrap();
    /// let tiler: Tiler = "<4:1,8:2>".parse().unwrap();
    /// let tile = t.local_tile(&tiler, &"(1,0)".parse::<PartialCoord>().unwrap()).unwrap();
    /// assert_eq!(tile.layout().to_string(), "(4,8):(20,2)");
    /// assert_eq!((tile.get(0), tile.get(1)), (Some(&80), Some(&100)));
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`local_tile`], then of [`Tensor::reshaped`].
    pub fn local_tile(
        &self,
        tiler: &Tiler,
        coord: &PartialCoord,
    ) -> Result<Tensor<&[S::Item]>, Error> {
        let (l, off) = local_tile(&self.layout, tiler, coord)?;
        self.reshaped(l, off)
    }

    /// Thread `index`'s elements of every tile of shape `shape(thr)` ([`local_partition`]).
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let data: Vec<i64> = (0..64).collect();
    /// let t = Tensor::new(&data[..], "(8,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
    /// let thr: Layout = "(2,2):(1,2)".parse().unwrap(); // 2x2 threads
    /// let mine = t.local_partition(&thr, 3).unwrap(); // thread 3 is at (1,1) of every 2x2 tile
    /// assert_eq!(mine.layout().to_string(), "(4,4):(16,2)");
    /// assert_eq!((mine.get(0), mine.get(1)), (Some(&9), Some(&25)));
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`local_partition`], then of [`Tensor::reshaped`].
    pub fn local_partition(&self, thr: &Layout, index: i64) -> Result<Tensor<&[S::Item]>, Error> {
        let (l, off) = local_partition(&self.layout, thr, index)?;
        self.reshaped(l, off)
    }
}

impl<S: StorageMut> Tensor<S> {
    /// The element at the integer coordinate `i < |L|`, mutably.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let mut t = Tensor::new(vec![0; 8], "(2,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// *t.get_mut(1).unwrap() = 5; // the coordinate (1,0), offset 4
    /// assert_eq!(t.storage(), &vec![0, 0, 0, 0, 5, 0, 0, 0]);
    /// ```
    pub fn get_mut(&mut self, i: i64) -> Option<&mut S::Item> {
        let k = self.index(i)?;
        self.storage.items_mut().get_mut(k)
    }

    /// The storage, mutably.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let mut t = Tensor::new(vec![0; 4], "(2,2):(2,1)".parse::<Layout>().unwrap()).unwrap();
    /// t.storage_mut()[1] = 7;
    /// assert_eq!(t.get(2), Some(&7));
    /// ```
    pub fn storage_mut(&mut self) -> &mut S {
        &mut self.storage
    }

    /// The same tensor, borrowing the storage mutably.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let mut t = Tensor::new(vec![0; 4], "(2,2):(2,1)".parse::<Layout>().unwrap()).unwrap();
    /// let mut v = t.view_mut(); // a Tensor<&mut [i32]>
    /// *v.get_mut(3).unwrap() = 1;
    /// assert_eq!(t.storage(), &vec![0, 0, 0, 1]);
    /// ```
    pub fn view_mut(&mut self) -> Tensor<&mut [S::Item]> {
        Tensor {
            storage: self.storage.items_mut(),
            layout: self.layout,
            base: self.base,
        }
    }

    /// A mutable view of the same storage through `layout`, offset by `off`.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let mut t = Tensor::new(vec![0; 8], "8:1".parse::<Layout>().unwrap()).unwrap();
    /// let mut odd = t.reshaped_mut("4:2".parse().unwrap(), 1).unwrap();
    /// for i in 0..4 {
    ///     *odd.get_mut(i).unwrap() = 1;
    /// }
    /// assert_eq!(t.storage(), &vec![0, 1, 0, 1, 0, 1, 0, 1]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Tensor::reshaped`].
    pub fn reshaped_mut(
        &mut self,
        layout: Layout,
        off: i64,
    ) -> Result<Tensor<&mut [S::Item]>, Error> {
        let base = self.shifted(off)?;
        Tensor::with_base(self.storage.items_mut(), base, layout)
    }

    /// [`Tensor::slice`], mutably.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let mut t = Tensor::new(vec![0; 8], "(2,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// let mut row = t.slice_mut(&"(1,_)".parse().unwrap()).unwrap();
    /// for i in 0..4 {
    ///     *row.get_mut(i).unwrap() = 1;
    /// }
    /// assert_eq!(t.storage(), &vec![0, 0, 0, 0, 1, 1, 1, 1]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Tensor::slice`].
    pub fn slice_mut(&mut self, c: &PartialCoord) -> Result<Tensor<&mut [S::Item]>, Error> {
        let (l, off) = slice_and_offset(&self.layout, c)?;
        self.reshaped_mut(l, off)
    }

    /// [`Tensor::compose`], mutably.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let mut t = Tensor::new(vec![0; 8], "8:1".parse::<Layout>().unwrap()).unwrap();
    /// let mut even = t.compose_mut(&"4:2".parse().unwrap()).unwrap();
    /// *even.get_mut(3).unwrap() = 1;
    /// assert_eq!(t.storage(), &vec![0, 0, 0, 0, 0, 0, 1, 0]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Tensor::compose`].
    pub fn compose_mut(&mut self, b: &Layout) -> Result<Tensor<&mut [S::Item]>, Error> {
        let l = composition(&self.layout, b)?;
        self.reshaped_mut(l, 0)
    }

    /// [`Tensor::partition_tv`], mutably.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let mut t = Tensor::new(vec![0; 64], "(8,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
    /// let tv: Layout = "((4,8),2):((16,1),8)".parse().unwrap();
    /// let mut part = t.partition_tv_mut(&tv, 1).unwrap(); // thread 1 owns the offsets 2 and 3
    /// *part.get_mut(0).unwrap() = 1;
    /// *part.get_mut(1).unwrap() = 1;
    /// assert_eq!(&t.storage()[..5], &[0, 0, 1, 1, 0]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Tensor::partition_tv`].
    pub fn partition_tv_mut(
        &mut self,
        tv: &Layout,
        thread: i64,
    ) -> Result<Tensor<&mut [S::Item]>, Error> {
        let (l, off) = tv_partition(&self.layout, tv, thread)?;
        self.reshaped_mut(l, off)
    }

    /// [`Tensor::local_tile`], mutably.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let mut t = Tensor::new(vec![0; 16], "(4,4):(1,4)".parse::<Layout>().unwrap()).unwrap();
    /// let mut tile = t.local_tile_mut(&"<2:1,2:1>".parse().unwrap(), &"(1,1)".parse().unwrap()).unwrap();
    /// for i in 0..4 {
    ///     *tile.get_mut(i).unwrap() = 1; // the offsets 10, 11, 14, 15
    /// }
    /// assert_eq!(t.storage().iter().sum::<i32>(), 4);
    /// assert_eq!((t.storage()[10], t.storage()[15]), (1, 1));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Tensor::local_tile`].
    pub fn local_tile_mut(
        &mut self,
        tiler: &Tiler,
        coord: &PartialCoord,
    ) -> Result<Tensor<&mut [S::Item]>, Error> {
        let (l, off) = local_tile(&self.layout, tiler, coord)?;
        self.reshaped_mut(l, off)
    }

    /// [`Tensor::local_partition`], mutably.
    ///
    /// ```
    /// use cute::{Layout, Tensor};
    /// let mut t = Tensor::new(vec![0; 16], "(4,4):(1,4)".parse::<Layout>().unwrap()).unwrap();
    /// let thr: Layout = "(2,2):(1,2)".parse().unwrap();
    /// let mut mine = t.local_partition_mut(&thr, 0).unwrap();
    /// for i in 0..4 {
    ///     *mine.get_mut(i).unwrap() = 1; // the offsets 0, 2, 8, 10
    /// }
    /// let ones: Vec<usize> = (0..16).filter(|&k| t.storage()[k] == 1).collect();
    /// assert_eq!(ones, vec![0, 2, 8, 10]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Tensor::local_partition`].
    pub fn local_partition_mut(
        &mut self,
        thr: &Layout,
        index: i64,
    ) -> Result<Tensor<&mut [S::Item]>, Error> {
        let (l, off) = local_partition(&self.layout, thr, index)?;
        self.reshaped_mut(l, off)
    }
}

/// A tensor with the counting accessor `{a}` (paper: 计数迭代器 “counting iterator”): its element at `c`
/// is the value `a + L(c)` itself, in the layout's semimodule. With integer strides the elements
/// are offsets (the paper's Figure 5 draws slices this way); with the coordinate strides of
/// [`make_identity_layout`](crate::make_identity_layout) they are coordinates, and the tensor is
/// CuTe's identity tensor (used for predication: compare an element with the bounds of the data).
///
/// ```
/// use cute::tensor::CountingTensor;
/// use cute::{IntTuple, PartialCoord};
/// let id = CountingTensor::identity(&"(4,6)".parse::<IntTuple>().unwrap()).unwrap();
/// assert_eq!(id.get(9).unwrap().to_string(), "(1,2)");
/// let col = id.slice(&"(_,3)".parse::<PartialCoord>().unwrap()).unwrap();
/// assert_eq!(col.get(2).unwrap().to_string(), "(2,3)");
/// ```
///
/// A value of the coordinate semimodule prints sparsely, as the paper's `e_i` sums and PyCuTe do
/// (`0`, `1@0`, `(1,1)`); [`coord`](Self::coord) gives an identity tensor's element in one form,
/// the coordinate congruent to the shape, as CuTe C++ prints an identity tensor:
///
/// ```
/// use cute::tensor::CountingTensor;
/// let id = CountingTensor::identity(&"(4,6)".parse().unwrap()).unwrap();
/// let sparse: Vec<String> = (0..3).map(|i| id.get(i).unwrap().to_string()).collect();
/// assert_eq!(sparse, ["0", "1@0", "2@0"]);
/// let dense: Vec<String> = (0..3).map(|i| id.coord(i).unwrap().to_string()).collect();
/// assert_eq!(dense, ["(0,0)", "(1,0)", "(2,0)"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountingTensor {
    origin: Value,
    layout: Layout,
    /// The shape of an identity tensor (its values are coordinates of it), else `None`.
    codomain: Option<IntTuple>,
}

impl CountingTensor {
    /// `{origin} ∘ L`.
    ///
    /// ```
    /// use cute::tensor::CountingTensor;
    /// let t = CountingTensor::new(5, "(2,3):(1,2)".parse().unwrap());
    /// assert_eq!(t.get(3).unwrap().to_string(), "8"); // 5 + 1·1 + 1·2
    /// ```
    pub fn new(origin: i64, layout: Layout) -> CountingTensor {
        CountingTensor {
            origin: Value::Int(origin),
            layout,
            codomain: None,
        }
    }

    /// CuTe's `make_identity_tensor(shape)`: `{0} ∘ make_identity_layout(shape)`, whose element at
    /// each coordinate is that coordinate (as an arithmetic tuple; [`coord`](Self::coord) gives it
    /// congruent to `shape`).
    ///
    /// ```
    /// use cute::tensor::CountingTensor;
    /// let id = CountingTensor::identity(&"((2,2),3)".parse().unwrap()).unwrap();
    /// assert_eq!(id.layout().to_string(), "((2,2),3):((1@0@0,1@1@0),1@1)");
    /// assert_eq!(id.coord(7).unwrap().to_string(), "((1,1),1)");
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`make_identity_layout`](crate::make_identity_layout) for `shape` (an entry
    /// below 1, more leaves than a layout holds).
    pub fn identity(shape: &IntTuple) -> Result<CountingTensor, Error> {
        Ok(CountingTensor {
            origin: Value::Int(0),
            layout: crate::layout::make_identity_layout(shape)?,
            codomain: Some(*shape),
        })
    }

    /// For an identity tensor (and its slices and compositions), the element at the integer
    /// coordinate `i` as the coordinate of the identity's shape that it is, congruent to that
    /// shape: `(0,0)`, `(1,0)`, … where [`get`](Self::get) prints `0`, `1@0`, …. `None` outside the
    /// domain, or for a tensor made by [`new`](Self::new) (its elements are integers: use `get`).
    ///
    /// ```
    /// use cute::tensor::CountingTensor;
    /// use cute::PartialCoord;
    /// let id = CountingTensor::identity(&"(4,6)".parse().unwrap()).unwrap();
    /// let row = id.slice(&"(2,_)".parse::<PartialCoord>().unwrap()).unwrap();
    /// assert_eq!(row.coord(0).unwrap().to_string(), "(2,0)");
    /// assert_eq!(row.coord(5).unwrap().to_string(), "(2,5)");
    /// assert_eq!(row.coord(6), None);
    /// ```
    pub fn coord(&self, i: i64) -> Option<IntTuple> {
        let shape = self.codomain.as_ref()?;
        let t = match self.get(i)? {
            Value::Coord(t) => t,
            // (the identity layout of an integer shape `n` is `n:1`)
            Value::Int(v) if shape.is_int() => return Some(IntTuple::int(v)),
            Value::Int(0) => return Some(zeros(shape)),
            _ => return None,
        };
        let paths = crate::layout::leaf_paths(&shape.tree, Op::Tensor).ok()?;
        let mut leaves = [0i64; crate::int_tuple::CAPACITY];
        for (k, leaf) in leaves.iter_mut().enumerate().take(shape.leaf_count()) {
            let (p, n) = crate::stride::decode_path(paths[k]);
            *leaf = t.get(&p[..n]);
        }
        IntTuple::flat(&leaves[..shape.leaf_count()])
            .and_then(|f| f.unflatten(shape))
            .ok()
    }

    /// The layout `L`.
    ///
    /// ```
    /// use cute::{tensor::CountingTensor, Layout};
    /// let c = CountingTensor::new(0, "(4,8):(8,1)".parse::<Layout>().unwrap());
    /// assert_eq!(c.layout().to_string(), "(4,8):(8,1)");
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The value of the counting accessor's origin `a` (after slicing: `a + L(c')`).
    ///
    /// ```
    /// use cute::{tensor::CountingTensor, Layout, Value};
    /// let c = CountingTensor::new(5, "(4,8):(8,1)".parse::<Layout>().unwrap());
    /// assert_eq!(c.origin(), Value::Int(5));
    /// let row = c.slice(&"(2,_)".parse().unwrap()).unwrap();
    /// assert_eq!(row.origin(), Value::Int(21));
    /// ```
    pub fn origin(&self) -> Value {
        self.origin
    }

    /// `a + L(i)` for an integer coordinate `i` of the domain (`None` outside it).
    ///
    /// ```
    /// use cute::{tensor::CountingTensor, Layout, Value};
    /// let c = CountingTensor::new(5, "(2,3):(3,1)".parse::<Layout>().unwrap());
    /// assert_eq!(c.get(1), Some(Value::Int(8)));
    /// assert_eq!(c.get(6), None);
    /// ```
    pub fn get(&self, i: i64) -> Option<Value> {
        if !(0..self.layout.size()).contains(&i) {
            return None;
        }
        self.origin
            .add(self.layout.eval_value(i).ok()?, Op::Tensor)
            .ok()
    }

    /// `a + L(c)` for a coordinate `c` of the domain in any admissible form.
    ///
    /// ```
    /// use cute::{tensor::CountingTensor, Layout, Value};
    /// let c = CountingTensor::new(5, "(2,3):(3,1)".parse::<Layout>().unwrap());
    /// assert_eq!(c.get_crd(&"(1,2)".parse().unwrap()), Some(Value::Int(10)));
    /// ```
    pub fn get_crd(&self, c: &IntTuple) -> Option<Value> {
        if !in_domain(c, &self.layout.shape()) {
            return None;
        }
        self.origin
            .add(self.layout.eval_crd_value(c).ok()?, Op::Tensor)
            .ok()
    }

    /// The slice at a partial coordinate: origin `a + L(c')`, layout of the free modes.
    ///
    /// ```
    /// use cute::{tensor::CountingTensor, Layout, Value};
    /// let c = CountingTensor::new(0, "(4,8):(8,1)".parse::<Layout>().unwrap());
    /// let row = c.slice(&"(2,_)".parse().unwrap()).unwrap();
    /// assert_eq!((row.origin(), row.get(3)), (Value::Int(16), Some(Value::Int(19))));
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`slice_and_value`] for `c`, and `Overflow` when the
    /// origin moved by the fixed entries does not fit.
    pub fn slice(&self, c: &PartialCoord) -> Result<CountingTensor, Error> {
        let (layout, off) = slice_and_value(&self.layout, c)?;
        Ok(CountingTensor {
            origin: self.origin.add(off, Op::Slice)?,
            layout,
            codomain: self.codomain,
        })
    }

    /// `{a} ∘ (L ∘ B)`.
    ///
    /// ```
    /// use cute::{tensor::CountingTensor, Layout, Value};
    /// let c = CountingTensor::new(0, "(8,8):(8,1)".parse::<Layout>().unwrap());
    /// let tv = c.compose(&"((4,8),2):((16,1),8)".parse().unwrap()).unwrap();
    /// assert_eq!(tv.get(1), Some(Value::Int(2))); // thread 1's first value is at offset 2
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`composition`] of the tensor's layout with `b`.
    pub fn compose(&self, b: &Layout) -> Result<CountingTensor, Error> {
        Ok(CountingTensor {
            origin: self.origin,
            layout: composition(&self.layout, b)?,
            codomain: self.codomain,
        })
    }

    /// Every element in the order of the integer coordinates.
    ///
    /// ```
    /// use cute::{tensor::CountingTensor, Layout, Value};
    /// let c = CountingTensor::new(0, "(2,3):(3,1)".parse::<Layout>().unwrap());
    /// let v: Vec<Value> = [0, 3, 1, 4, 2, 5].map(Value::Int).to_vec();
    /// assert_eq!(c.values().unwrap(), v);
    /// ```
    ///
    /// # Errors
    ///
    /// `Overflow` when an element (the origin plus an offset) does not fit in `i64`, or a stride
    /// error of the layout's semimodule.
    pub fn values(&self) -> Result<Vec<Value>, Error> {
        (0..self.layout.size())
            .map(|i| self.origin.add(self.layout.eval_value(i)?, Op::Tensor))
            .collect()
    }
}

/// The tuple congruent to `s` with every leaf 0.
fn zeros(s: &IntTuple) -> IntTuple {
    let mut z = *s;
    z.val = [0; crate::int_tuple::CAPACITY];
    z
}

/// True when `c` is a coordinate of the shape `s`: weakly congruent, and each integer entry below
/// the size of the sub-shape it stands for.
fn in_domain(c: &IntTuple, s: &IntTuple) -> bool {
    if let Some(v) = c.as_int() {
        return matches!(s.size(), Ok(n) if (0..n).contains(&v));
    }
    if s.is_int() || c.rank() != s.rank() {
        return false;
    }
    (0..c.rank()).all(|k| match (c.get(k), s.get(k)) {
        (Ok(ck), Ok(sk)) => in_domain(&ck, &sk),
        _ => false,
    })
}

/// Checks that the offsets `base + lo ..= base + hi` of `layout` lie in a storage of `len`
/// elements (`OutOfStorage` otherwise).
pub(crate) fn check_storage(
    len: usize,
    base: usize,
    (lo, hi): (i64, i64),
    layout: &Layout,
) -> Result<(), Error> {
    let (first, last) = (base as i128 + lo as i128, base as i128 + hi as i128);
    if first < 0 || last >= len as i128 {
        return Err(Error::new(
            Op::Tensor,
            ErrorKind::OutOfStorage {
                first: first as i64,
                last: last.min(i64::MAX as i128) as i64,
                len: len as i64,
            },
        )
        .with(Operand::Layout(*layout), Operand::Int(base as i64)));
    }
    Ok(())
}

/// The smallest and largest offset `L` takes on its domain (integer strides).
pub(crate) const fn offset_range(l: &Layout) -> Result<(i64, i64), Error> {
    let (mut lo, mut hi) = (0i64, 0i64);
    let mut k = 0;
    while k < l.leaf_count() {
        let (s, d) = l.leaf_at(k);
        let reach = tri!(crate::error::mul(Op::Tensor, s - 1, d));
        if reach < 0 {
            lo = tri!(crate::error::add(Op::Tensor, lo, reach));
        } else {
            hi = tri!(crate::error::add(Op::Tensor, hi, reach));
        }
        k += 1;
    }
    Ok((lo, hi))
}
