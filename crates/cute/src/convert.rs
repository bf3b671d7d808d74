//! Conversions into [`IntTuple`], [`Layout`] and [`Tiler`] from Rust values, and the tiling
//! operations as methods that take anything convertible into a [`Tiler`].
//!
//! * an [`IntTuple`] from an integer (`i64`, `i32`), a tuple (up to 8 elements) or an array of
//!   such values, nested at will: `IntTuple::try_from((4, (2, 3)))` is `(4,(2,3))`;
//! * a [`Layout`] from a pair `(shape, stride)` of such values:
//!   `Layout::try_from(((4, 8), (1, 4)))` is `(4,8):(1,4)`;
//! * all three from text with `TryFrom<&str>` (the same as [`str::parse`]);
//! * a [`Tiler`] from a [`Layout`] (`From`, also by reference) or from a shape (`TryFrom<IntTuple>`,
//!   CuTe's `(4,8) ≡ <4,8>`).
//!
//! The conversions that build a tuple can fail (more leaves or nesting than this build holds, an
//! empty tuple, a shape that is no layout's), so they are `TryFrom`, with the crate's [`Error`].
//!
//! ```
//! use cute::{IntTuple, Layout, Tiler};
//! let a = Layout::try_from(((4, 8), (1, 4)))?;
//! assert_eq!(a, "(4,8):(1,4)".parse::<Layout>()?);
//! let s = IntTuple::try_from([2, 3, 4])?;
//! assert_eq!(s.to_string(), "(2,3,4)");
//! let b = Layout::try_from("2:1")?;
//! assert_eq!(a.logical_divide(b)?.to_string(), "(2,16):(1,2)");
//! let t = Tiler::try_from(IntTuple::try_from((2, 4))?)?;
//! assert_eq!(a.zipped_divide(t)?.to_string(), "((2,4),(2,2)):((1,4),(2,16))");
//! # Ok::<(), cute::Error>(())
//! ```

use crate::error::{Error, ErrorKind, Op};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;

/// A value that converts into an [`IntTuple`]: `i64`, `i32`, an [`IntTuple`], a tuple of up to 8
/// such values or an array of them.
///
/// ```
/// use cute::{IntoIntTuple, IntTuple};
/// assert_eq!(((2, 3), 4).into_int_tuple()?.to_string(), "((2,3),4)");
/// assert_eq!([[1, 2], [3, 4]].into_int_tuple()?.to_string(), "((1,2),(3,4))");
/// assert_eq!(7i64.into_int_tuple()?, IntTuple::int(7));
/// # Ok::<(), cute::Error>(())
/// ```
pub trait IntoIntTuple {
    /// The tuple, or the error of [`IntTuple::tuple`] (capacity, nesting depth).
    fn into_int_tuple(self) -> Result<IntTuple, Error>;
}

impl IntoIntTuple for i64 {
    fn into_int_tuple(self) -> Result<IntTuple, Error> {
        Ok(IntTuple::int(self))
    }
}

impl IntoIntTuple for i32 {
    fn into_int_tuple(self) -> Result<IntTuple, Error> {
        Ok(IntTuple::int(self.into()))
    }
}

impl IntoIntTuple for IntTuple {
    fn into_int_tuple(self) -> Result<IntTuple, Error> {
        Ok(self)
    }
}

impl IntoIntTuple for &IntTuple {
    fn into_int_tuple(self) -> Result<IntTuple, Error> {
        Ok(*self)
    }
}

impl<T: IntoIntTuple, const N: usize> IntoIntTuple for [T; N] {
    fn into_int_tuple(self) -> Result<IntTuple, Error> {
        if N == 0 {
            return Err(Error::new(
                Op::MakeLayout,
                ErrorKind::Unsupported {
                    what: "empty tuples",
                },
            ));
        }
        let modes = self
            .into_iter()
            .map(IntoIntTuple::into_int_tuple)
            .collect::<Result<Vec<_>, _>>()?;
        IntTuple::tuple(&modes)
    }
}

impl<T: IntoIntTuple, const N: usize> TryFrom<[T; N]> for IntTuple {
    type Error = Error;
    /// The tuple of the array's elements.
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!(IntTuple::try_from([4, 8])?.to_string(), "(4,8)");
    /// # Ok::<(), cute::Error>(())
    /// ```
    fn try_from(v: [T; N]) -> Result<IntTuple, Error> {
        v.into_int_tuple()
    }
}

macro_rules! tuple_conversions {
    ($(($($t:ident $v:ident),+)),+ $(,)?) => {$(
        impl<$($t: IntoIntTuple),+> IntoIntTuple for ($($t,)+) {
            fn into_int_tuple(self) -> Result<IntTuple, Error> {
                let ($($v,)+) = self;
                IntTuple::tuple(&[$($v.into_int_tuple()?),+])
            }
        }

        impl<$($t: IntoIntTuple),+> TryFrom<($($t,)+)> for IntTuple {
            type Error = Error;
            /// The tuple of the elements (see [`IntoIntTuple`]).
            fn try_from(v: ($($t,)+)) -> Result<IntTuple, Error> {
                v.into_int_tuple()
            }
        }
    )+};
}

tuple_conversions!(
    (A a),
    (A a, B b),
    (A a, B b, C c),
    (A a, B b, C c, D d),
    (A a, B b, C c, D d, E e),
    (A a, B b, C c, D d, E e, F f),
    (A a, B b, C c, D d, E e, F f, G g),
    (A a, B b, C c, D d, E e, F f, G g, H h),
);

impl From<i32> for IntTuple {
    /// The integer `v` (rank 1, depth 0).
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!(IntTuple::from(4), IntTuple::int(4));
    /// ```
    fn from(v: i32) -> IntTuple {
        IntTuple::int(v.into())
    }
}

impl<S: IntoIntTuple, D: IntoIntTuple> TryFrom<(S, D)> for Layout {
    type Error = Error;
    /// The layout `shape:stride` from the pair `(shape, stride)`, checked as [`Layout::new`] checks
    /// it (congruence, positive shapes, a size that fits in `i64`).
    ///
    /// ```
    /// use cute::Layout;
    /// assert_eq!(Layout::try_from(((4, 8), (1, 4)))?.to_string(), "(4,8):(1,4)");
    /// assert_eq!(Layout::try_from((8, 2))?.to_string(), "8:2");
    /// assert_eq!(Layout::try_from(([2, 2], [1, 2]))?.to_string(), "(2,2):(1,2)");
    /// assert_eq!(Layout::try_from(((4, 8), 1)).unwrap_err().category(), "ProfileMismatch");
    /// # Ok::<(), cute::Error>(())
    /// ```
    fn try_from((shape, stride): (S, D)) -> Result<Layout, Error> {
        Layout::new(&shape.into_int_tuple()?, &stride.into_int_tuple()?)
    }
}

impl TryFrom<&str> for IntTuple {
    type Error = Error;
    /// Parses the text, as [`str::parse`] does.
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!(IntTuple::try_from("(4,(2,3))")?, IntTuple::try_from((4, (2, 3)))?);
    /// # Ok::<(), cute::Error>(())
    /// ```
    fn try_from(s: &str) -> Result<IntTuple, Error> {
        s.parse()
    }
}

impl TryFrom<&str> for Layout {
    type Error = Error;
    /// Parses the text, as [`str::parse`] does.
    ///
    /// ```
    /// use cute::Layout;
    /// assert_eq!(Layout::try_from("(4,8):(1,4)")?, Layout::try_from(((4, 8), (1, 4)))?);
    /// assert_eq!(Layout::try_from("(4,8):(1,4").unwrap_err().category(), "Syntax");
    /// # Ok::<(), cute::Error>(())
    /// ```
    fn try_from(s: &str) -> Result<Layout, Error> {
        s.parse()
    }
}

impl TryFrom<&str> for Tiler {
    type Error = Error;
    /// Parses the text, as [`str::parse`] does.
    ///
    /// ```
    /// use cute::Tiler;
    /// assert_eq!(Tiler::try_from("<2,4>")?.to_string(), "<2,4>");
    /// # Ok::<(), cute::Error>(())
    /// ```
    fn try_from(s: &str) -> Result<Tiler, Error> {
        s.parse()
    }
}

impl TryFrom<IntTuple> for Tiler {
    type Error = Error;
    /// A shape as a tiler, as [`Tiler::from_shape`] (CuTe's `(4,8) ≡ <4,8>`).
    ///
    /// ```
    /// use cute::{IntTuple, Tiler};
    /// let t = Tiler::try_from(IntTuple::try_from((4, 8))?)?;
    /// assert_eq!(t, Tiler::try_from("<4,8>")?);
    /// # Ok::<(), cute::Error>(())
    /// ```
    fn try_from(shape: IntTuple) -> Result<Tiler, Error> {
        Tiler::from_shape(&shape)
    }
}

impl From<&Layout> for Tiler {
    /// The tiler that is the single layout `l` (as [`Tiler::layout`]).
    ///
    /// ```
    /// use cute::{Layout, Tiler};
    /// let l = Layout::try_from((4, 2))?;
    /// assert_eq!(Tiler::from(&l), Tiler::layout(l));
    /// # Ok::<(), cute::Error>(())
    /// ```
    fn from(l: &Layout) -> Tiler {
        Tiler::layout(*l)
    }
}

/// The tiling operations as methods: each takes a [`Tiler`] or anything that converts into one (a
/// [`Layout`] or a [`Tiler`], by value or by reference), and is the free function of the same
/// name. The free functions are `const fn` and so take fixed types: `&Layout` and `&Tiler`.
impl Layout {
    /// [`logical_divide`](crate::logical_divide)`(self, t)`.
    ///
    /// ```
    /// use cute::Layout;
    /// let a = Layout::try_from(((4, 8), (1, 4)))?;
    /// assert_eq!(a.logical_divide(Layout::try_from((2, 1))?)?.to_string(), "(2,16):(1,2)");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`logical_divide`](crate::logical_divide).
    pub fn logical_divide(&self, t: impl Into<Tiler>) -> Result<Layout, Error> {
        crate::algebra::divide::logical_divide(self, &t.into())
    }

    /// [`zipped_divide`](crate::zipped_divide)`(self, t)`.
    ///
    /// ```
    /// use cute::{Layout, Tiler};
    /// let a = Layout::try_from(((4, 8), (1, 4)))?;
    /// let t = Tiler::try_from("<2,4>")?;
    /// assert_eq!(a.zipped_divide(t)?.to_string(), "((2,4),(2,2)):((1,4),(2,16))");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`zipped_divide`](crate::zipped_divide).
    pub fn zipped_divide(&self, t: impl Into<Tiler>) -> Result<Layout, Error> {
        crate::algebra::divide::zipped_divide(self, &t.into())
    }

    /// [`tiled_divide`](crate::tiled_divide)`(self, t)`.
    ///
    /// ```
    /// use cute::{Layout, Tiler};
    /// let a = Layout::try_from(((4, 8), (1, 4)))?;
    /// let t = Tiler::try_from("<2,4>")?;
    /// assert_eq!(a.tiled_divide(t)?.to_string(), "((2,4),2,2):((1,4),2,16)");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`tiled_divide`](crate::tiled_divide).
    pub fn tiled_divide(&self, t: impl Into<Tiler>) -> Result<Layout, Error> {
        crate::algebra::divide::tiled_divide(self, &t.into())
    }

    /// [`flat_divide`](crate::flat_divide)`(self, t)`.
    ///
    /// ```
    /// use cute::{Layout, Tiler};
    /// let a = Layout::try_from(((4, 8), (1, 4)))?;
    /// let t = Tiler::try_from("<2,4>")?;
    /// assert_eq!(a.flat_divide(t)?.to_string(), "(2,4,2,2):(1,4,2,16)");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`flat_divide`](crate::flat_divide).
    pub fn flat_divide(&self, t: impl Into<Tiler>) -> Result<Layout, Error> {
        crate::algebra::divide::flat_divide(self, &t.into())
    }

    /// [`logical_product`](crate::logical_product)`(self, t)`.
    ///
    /// ```
    /// use cute::Layout;
    /// let a = Layout::try_from(((2, 2), (1, 2)))?;
    /// let b = Layout::try_from((3, 1))?;
    /// assert_eq!(a.logical_product(&b)?.to_string(), "((2,2),3):((1,2),4)");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`logical_product`](crate::logical_product).
    pub fn logical_product(&self, t: impl Into<Tiler>) -> Result<Layout, Error> {
        crate::algebra::product::logical_product(self, &t.into())
    }

    /// [`zipped_product`](crate::zipped_product)`(self, t)`.
    ///
    /// ```
    /// use cute::{Layout, Tiler};
    /// let a = Layout::try_from(((2, 2), (2, 1)))?;
    /// let t = Tiler::try_from("<2:1,3:1>")?;
    /// assert_eq!(a.zipped_product(t)?.to_string(), "((2,2),(2,3)):((2,1),(1,2))");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`zipped_product`](crate::zipped_product).
    pub fn zipped_product(&self, t: impl Into<Tiler>) -> Result<Layout, Error> {
        crate::algebra::product::zipped_product(self, &t.into())
    }

    /// [`tiled_product`](crate::tiled_product)`(self, t)`.
    ///
    /// ```
    /// use cute::Layout;
    /// let a = Layout::try_from(((2, 2), (1, 2)))?;
    /// let b = Layout::try_from((3, 1))?;
    /// assert_eq!(a.tiled_product(b)?.to_string(), "((2,2),3):((1,2),4)");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`tiled_product`](crate::tiled_product).
    pub fn tiled_product(&self, t: impl Into<Tiler>) -> Result<Layout, Error> {
        crate::algebra::product::tiled_product(self, &t.into())
    }

    /// [`flat_product`](crate::flat_product)`(self, t)`.
    ///
    /// ```
    /// use cute::Layout;
    /// let a = Layout::try_from(((2, 2), (1, 2)))?;
    /// let b = Layout::try_from((3, 1))?;
    /// assert_eq!(a.flat_product(b)?.to_string(), "(2,2,3):(1,2,4)");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`flat_product`](crate::flat_product).
    pub fn flat_product(&self, t: impl Into<Tiler>) -> Result<Layout, Error> {
        crate::algebra::product::flat_product(self, &t.into())
    }

    /// [`composition_tiler`](crate::composition_tiler)`(self, t)`: `self ∘ t`, by mode for a
    /// tuple of tiles.
    ///
    /// ```
    /// use cute::{Layout, Tiler};
    /// let a = Layout::try_from(((8, 16), (20, 1)))?;
    /// assert_eq!(a.compose(Tiler::try_from("<4:1,8:2>")?)?.to_string(), "(4,8):(20,2)");
    /// let b = Layout::try_from(((2, 4), (1, 2)))?;
    /// assert_eq!(Layout::try_from(((4, 8), (1, 4)))?.compose(b)?.to_string(), "(2,4):(1,2)");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`composition_tiler`](crate::composition_tiler).
    pub fn compose(&self, t: impl Into<Tiler>) -> Result<Layout, Error> {
        crate::algebra::composition::composition_tiler(self, &t.into())
    }
}
