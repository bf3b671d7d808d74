//! Tensors (paper: 张量): an accessor composed with a layout, `T = A ∘ L`.
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

/// A tensor `A ∘ L`: storage, a layout with integer strides, and the storage index of offset 0.
#[derive(Clone, Debug)]
pub struct Tensor<S> {
    storage: S,
    layout: Layout,
    base: usize,
}

impl<S: Storage> Tensor<S> {
    /// The tensor whose offset 0 is the first element of `storage`.
    pub fn new(storage: S, layout: Layout) -> Result<Tensor<S>, Error> {
        Tensor::with_base(storage, 0, layout)
    }

    /// The tensor whose offset 0 is element `base` of `storage` (negative strides reach below it).
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
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The storage index of offset 0 (where `L(0)` lands when `L(0) = 0`).
    pub fn base(&self) -> usize {
        self.base
    }

    /// The storage.
    pub fn storage(&self) -> &S {
        &self.storage
    }

    /// `|L|`, the number of coordinates.
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
    pub fn get(&self, i: i64) -> Option<&S::Item> {
        let k = self.index(i)?;
        self.storage.items().get(k)
    }

    /// `T(c)` for a coordinate `c` of the domain in any admissible form (ND, natural, partially
    /// collapsed); `None` when `c` is not a coordinate of the domain.
    pub fn get_crd(&self, c: &IntTuple) -> Option<&S::Item> {
        if !in_domain(c, &self.layout.shape()) {
            return None;
        }
        let off = self.layout.eval_crd(c).ok()?;
        self.storage.items().get((self.base as i64 + off) as usize)
    }

    /// Every element in the order of the integer coordinates.
    pub fn iter(&self) -> impl Iterator<Item = &S::Item> + '_ {
        (0..self.size()).filter_map(move |i| self.get(i))
    }

    /// The same tensor, borrowing the storage.
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
    pub fn reshaped(&self, layout: Layout, off: i64) -> Result<Tensor<&[S::Item]>, Error> {
        Tensor::with_base(self.storage.items(), self.shifted(off)?, layout)
    }

    /// `T(c)` for a partial coordinate (paper: 切片): the sub-tensor of the free modes, its offset
    /// having absorbed `L(c')` of the fixed entries (see [`slice()`](crate::slice::slice)).
    pub fn slice(&self, c: &PartialCoord) -> Result<Tensor<&[S::Item]>, Error> {
        let (l, off) = slice_and_offset(&self.layout, c)?;
        self.reshaped(l, off)
    }

    /// `A ∘ (L ∘ B)`: the same elements seen through `composition(L, B)` (permute and reshape
    /// the coordinates, paper 5.3).
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
    pub fn partition_tv(&self, tv: &Layout, thread: i64) -> Result<Tensor<&[S::Item]>, Error> {
        let (l, off) = tv_partition(&self.layout, tv, thread)?;
        self.reshaped(l, off)
    }

    /// The tile at `coord` of `zipped_divide(L, tiler)` ([`local_tile`]).
    pub fn local_tile(
        &self,
        tiler: &Tiler,
        coord: &PartialCoord,
    ) -> Result<Tensor<&[S::Item]>, Error> {
        let (l, off) = local_tile(&self.layout, tiler, coord)?;
        self.reshaped(l, off)
    }

    /// Thread `index`'s elements of every tile of shape `shape(thr)` ([`local_partition`]).
    pub fn local_partition(&self, thr: &Layout, index: i64) -> Result<Tensor<&[S::Item]>, Error> {
        let (l, off) = local_partition(&self.layout, thr, index)?;
        self.reshaped(l, off)
    }
}

impl<S: StorageMut> Tensor<S> {
    /// The element at the integer coordinate `i < |L|`, mutably.
    pub fn get_mut(&mut self, i: i64) -> Option<&mut S::Item> {
        let k = self.index(i)?;
        self.storage.items_mut().get_mut(k)
    }

    /// The storage, mutably.
    pub fn storage_mut(&mut self) -> &mut S {
        &mut self.storage
    }

    /// The same tensor, borrowing the storage mutably.
    pub fn view_mut(&mut self) -> Tensor<&mut [S::Item]> {
        Tensor {
            storage: self.storage.items_mut(),
            layout: self.layout,
            base: self.base,
        }
    }

    /// A mutable view of the same storage through `layout`, offset by `off`.
    pub fn reshaped_mut(
        &mut self,
        layout: Layout,
        off: i64,
    ) -> Result<Tensor<&mut [S::Item]>, Error> {
        let base = self.shifted(off)?;
        Tensor::with_base(self.storage.items_mut(), base, layout)
    }

    /// [`Tensor::slice`], mutably.
    pub fn slice_mut(&mut self, c: &PartialCoord) -> Result<Tensor<&mut [S::Item]>, Error> {
        let (l, off) = slice_and_offset(&self.layout, c)?;
        self.reshaped_mut(l, off)
    }

    /// [`Tensor::compose`], mutably.
    pub fn compose_mut(&mut self, b: &Layout) -> Result<Tensor<&mut [S::Item]>, Error> {
        let l = composition(&self.layout, b)?;
        self.reshaped_mut(l, 0)
    }

    /// [`Tensor::partition_tv`], mutably.
    pub fn partition_tv_mut(
        &mut self,
        tv: &Layout,
        thread: i64,
    ) -> Result<Tensor<&mut [S::Item]>, Error> {
        let (l, off) = tv_partition(&self.layout, tv, thread)?;
        self.reshaped_mut(l, off)
    }

    /// [`Tensor::local_tile`], mutably.
    pub fn local_tile_mut(
        &mut self,
        tiler: &Tiler,
        coord: &PartialCoord,
    ) -> Result<Tensor<&mut [S::Item]>, Error> {
        let (l, off) = local_tile(&self.layout, tiler, coord)?;
        self.reshaped_mut(l, off)
    }

    /// [`Tensor::local_partition`], mutably.
    pub fn local_partition_mut(
        &mut self,
        thr: &Layout,
        index: i64,
    ) -> Result<Tensor<&mut [S::Item]>, Error> {
        let (l, off) = local_partition(&self.layout, thr, index)?;
        self.reshaped_mut(l, off)
    }
}

/// A tensor with the counting accessor `{a}` (paper: 计数迭代器): its element at `c` is the value
/// `a + L(c)` itself, in the layout's semimodule. With integer strides the elements are offsets
/// (the paper's Figure 5 draws slices this way); with the coordinate strides of
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountingTensor {
    origin: Value,
    layout: Layout,
}

impl CountingTensor {
    /// `{origin} ∘ L`.
    pub fn new(origin: i64, layout: Layout) -> CountingTensor {
        CountingTensor {
            origin: Value::Int(origin),
            layout,
        }
    }

    /// CuTe's `make_identity_tensor(shape)`: `{0} ∘ make_identity_layout(shape)`, whose element at
    /// each coordinate is that coordinate (as an arithmetic tuple).
    pub fn identity(shape: &IntTuple) -> Result<CountingTensor, Error> {
        Ok(CountingTensor {
            origin: Value::Int(0),
            layout: crate::layout::make_identity_layout(shape)?,
        })
    }

    /// The layout `L`.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The value of the counting accessor's origin `a` (after slicing: `a + L(c')`).
    pub fn origin(&self) -> Value {
        self.origin
    }

    /// `a + L(i)` for an integer coordinate `i` of the domain (`None` outside it).
    pub fn get(&self, i: i64) -> Option<Value> {
        if !(0..self.layout.size()).contains(&i) {
            return None;
        }
        self.origin
            .add(self.layout.eval_value(i).ok()?, Op::Tensor)
            .ok()
    }

    /// `a + L(c)` for a coordinate `c` of the domain in any admissible form.
    pub fn get_crd(&self, c: &IntTuple) -> Option<Value> {
        if !in_domain(c, &self.layout.shape()) {
            return None;
        }
        self.origin
            .add(self.layout.eval_crd_value(c).ok()?, Op::Tensor)
            .ok()
    }

    /// The slice at a partial coordinate: origin `a + L(c')`, layout of the free modes.
    pub fn slice(&self, c: &PartialCoord) -> Result<CountingTensor, Error> {
        let (layout, off) = slice_and_value(&self.layout, c)?;
        Ok(CountingTensor {
            origin: self.origin.add(off, Op::Slice)?,
            layout,
        })
    }

    /// `{a} ∘ (L ∘ B)`.
    pub fn compose(&self, b: &Layout) -> Result<CountingTensor, Error> {
        Ok(CountingTensor {
            origin: self.origin,
            layout: composition(&self.layout, b)?,
        })
    }

    /// Every element in the order of the integer coordinates.
    pub fn values(&self) -> Result<Vec<Value>, Error> {
        (0..self.layout.size())
            .map(|i| self.origin.add(self.layout.eval_value(i)?, Op::Tensor))
            .collect()
    }
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
