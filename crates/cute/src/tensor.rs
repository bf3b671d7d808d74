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

use crate::error::{Error, ErrorKind, Op, Operand};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// Storage a tensor reads from: a slice, a mutable slice or a `Vec`.
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
        let len = storage.items().len() as i128;
        let (first, last) = (base as i128 + lo as i128, base as i128 + hi as i128);
        if first < 0 || last >= len {
            return Err(Error::new(
                Op::Tensor,
                ErrorKind::OutOfStorage {
                    first: first as i64,
                    last: last.min(i64::MAX as i128) as i64,
                    len: len as i64,
                },
            )
            .with(Operand::Layout(layout), Operand::Int(base as i64)));
        }
        Ok(Tensor {
            storage,
            layout,
            base,
        })
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
        // checked when the layout was made
        self.layout.size().unwrap_or(0)
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

/// The smallest and largest offset `L` takes on its domain (integer strides).
fn offset_range(l: &Layout) -> Result<(i64, i64), Error> {
    let (mut lo, mut hi) = (0i64, 0i64);
    for k in 0..l.leaf_count() {
        let (s, d) = l.leaf_at(k);
        let reach = crate::error::mul(Op::Tensor, s - 1, d)?;
        if reach < 0 {
            lo = crate::error::add(Op::Tensor, lo, reach)?;
        } else {
            hi = crate::error::add(Op::Tensor, hi, reach)?;
        }
    }
    Ok((lo, hi))
}
