//! Compile-time layouts and static tensors: a layout that is a constant of a type, so that
//! evaluation, iteration and COPY compile to the code of hand-written loops with constant extents.
//!
//! A [`StaticLayout`] is a type with an associated constant [`LAYOUT`](StaticLayout::LAYOUT); the
//! [`static_layout!`](crate::static_layout!) macro defines one from CuTe notation (a string that
//! does not parse is a compile error). Everything else is derived from that constant by `const fn`s:
//! the size, the leaf shapes and strides, the coalesced modes used for evaluation, the range of
//! offsets. Because all of it is known to the compiler, the evaluation functions, written as loops
//! over constant arrays and marked `#[inline(always)]`, unroll completely and fold every shape and
//! stride into the instruction stream:
//!
//! | operation | compiles to |
//! |---|---|
//! | [`StaticLayout::eval`] `L(i)` | per mode but the last, a mask and a shift (power-of-two extent) or a multiply-high (other extents), then a multiply or shift-add by the constant stride |
//! | [`StaticLayout::eval_natural`] `L(c)` | one multiply (or shift, or `lea`) by the constant stride per leaf and the additions |
//! | [`StaticLayout::for_each_offset`], [`StaticTensor::for_each`] | a nest of loops with constant trip counts (one per coalesced mode, up to 8, an odometer beyond) |
//! | [`static_copy`] | one such nest over the common refinement of the two layouts, computed at compile time |
//!
//! ```
//! use cute::{static_layout, StaticLayout, StaticTensor};
//! static_layout!(pub Tv = "((4,8),2):((16,1),8)");
//! assert_eq!(Tv::LAYOUT.to_string(), "((4,8),2):((16,1),8)");
//! assert_eq!((Tv::SIZE, Tv::LEAVES), (64, 3));
//! assert_eq!(Tv::eval(5), 17); // coordinate ((1,1),0)
//! assert_eq!(Tv::eval_natural([1, 1, 0]), 17);
//!
//! let data: Vec<i32> = (0..64).collect();
//! let t = StaticTensor::<Tv, _>::new(&data[..]).unwrap();
//! assert_eq!(t.get(5), Some(&17));
//! let mut seen = Vec::new();
//! t.for_each(|&x| seen.push(x)); // in the order of the integer coordinates
//! assert_eq!(seen[..6], [0, 16, 32, 48, 1, 17]);
//! ```
//!
//! ## The codegen check
//!
//! `scripts/check_codegen.sh` (run by CI after the tests) compiles
//! `crates/cute/examples/codegen.rs` with `--emit asm` and compares, instruction by instruction
//! after normalising labels and symbol names, the static evaluation of
//! `((4,8),(8,16)):((8,512),(1,32))` with the hand-written expression with constant extents, for
//! `L(c)` at a natural coordinate and for `L(i)` from a 1-D index (`i % 4`, `i / 4 % 8`, …). It
//! fails, printing both listings, if they differ.
//!
//! ## Scope
//!
//! Strides must be integers (as for [`Tensor`]). Coordinates are `usize`: a 1-D index `i` (past
//! the size, the last mode keeps counting, as in [`Layout::eval`]) or a natural coordinate given
//! as its leaves `[c0, c1, …]` in order. The arithmetic wraps, so it agrees with [`Layout::eval`]
//! whenever the true offset fits in an `i64`. Slicing keeps the layout static for one whole mode
//! fixed at a run-time index ([`StaticTensor::slice_mode`], [`StaticTensor::slice_last`]); other
//! partial coordinates, composition and partitioning go through [`StaticTensor::as_dynamic`].

use core::marker::PhantomData;

use crate::algebra::coalesce::coalesce_leaves;
use crate::error::{Error, Op};
use crate::geometry::{check_injective, refine, Odometer};
use crate::int_tuple::CAPACITY;
use crate::layout::Layout;
use crate::tensor::{Storage, StorageMut, Tensor};

/// A layout known at compile time: the constant [`LAYOUT`](Self::LAYOUT), and constants and
/// functions derived from it.
///
/// Implement it with [`static_layout!`](crate::static_layout!), or by hand with only `LAYOUT`
/// (integer strides). The other constants have defaults computed from `LAYOUT`; do not override
/// them (an inconsistent override cannot reach outside a tensor's storage, every access is a
/// checked slice index, but it gives wrong offsets or panics).
///
/// ```
/// use cute::{Layout, StaticLayout};
/// struct RowMajor;
/// impl StaticLayout for RowMajor {
///     const LAYOUT: Layout = match Layout::parse_const("(4,8):(8,1)") {
///         Ok(l) => l,
///         Err(_) => panic!("not a layout"),
///     };
/// }
/// assert_eq!(RowMajor::eval(1), 8);
/// assert_eq!(RowMajor::eval_natural([1, 2]), 10);
/// assert_eq!(RowMajor::COSIZE, 32);
/// ```
pub trait StaticLayout {
    /// The layout.
    const LAYOUT: Layout;

    /// `|L|`, the number of coordinates.
    const SIZE: usize = size_of(&Self::LAYOUT);
    /// The number of leaves of the shape (the length of a natural coordinate).
    const LEAVES: usize = Self::LAYOUT.leaf_count();
    /// The shape of each leaf, in order (zero past [`LEAVES`](Self::LEAVES)).
    const SHAPES: [usize; CAPACITY] = leaf_shapes(&Self::LAYOUT);
    /// The stride of each leaf, in order (zero past [`LEAVES`](Self::LEAVES)).
    const STRIDES: [i64; CAPACITY] = leaf_strides(&Self::LAYOUT);
    /// The smallest offset on the domain (negative strides reach below 0).
    const MIN_OFFSET: i64 = offset_bounds(&Self::LAYOUT).0;
    /// The largest offset on the domain.
    const MAX_OFFSET: i64 = offset_bounds(&Self::LAYOUT).1;
    /// `MAX_OFFSET - MIN_OFFSET + 1`: the elements of storage a tensor of this layout spans
    /// (CuTe's cosize when no stride is negative).
    const COSIZE: usize = (Self::MAX_OFFSET - Self::MIN_OFFSET + 1) as usize;
    /// The modes evaluated by [`eval`](Self::eval): the coalesced layout whose last mode is
    /// unbounded (the same function on every integer).
    const INDEX_MODES: Modes = Modes::of(&Self::LAYOUT, true);
    /// The modes iterated by [`for_each_offset`](Self::for_each_offset): the coalesced layout.
    const ITER_MODES: Modes = Modes::of(&Self::LAYOUT, false);

    /// `L(i)` for a 1-D index `i` (colexicographic; past [`SIZE`](Self::SIZE) the last mode keeps
    /// counting, as in [`Layout::eval`]). With the constant modes the divisions become shifts and
    /// multiplies; the whole function is the hand-written expression.
    ///
    /// ```
    /// use cute::{static_layout, StaticLayout};
    /// static_layout!(L = "((4,8),(8,16)):((8,512),(1,32))");
    /// assert_eq!(L::eval(32), 1);
    /// assert_eq!(L::eval(4095), L::LAYOUT.eval(4095).unwrap());
    /// ```
    #[inline(always)]
    fn eval(i: usize) -> i64 {
        // c_k = i / P_k % S_k with the constant prefix products P_k: the form written by hand.
        // Up to eight modes the sum is written out (one arm of the `match` survives), so that the
        // optimiser sees the same expression as in hand-written code from the start, and
        // reassociates it the same way.
        let m = &Self::INDEX_MODES;
        match m.n {
            1 => index_sum!(i, m; ; 0),
            2 => index_sum!(i, m; 0; 1),
            3 => index_sum!(i, m; 0, 1; 2),
            4 => index_sum!(i, m; 0, 1, 2; 3),
            5 => index_sum!(i, m; 0, 1, 2, 3; 4),
            6 => index_sum!(i, m; 0, 1, 2, 3, 4; 5),
            7 => index_sum!(i, m; 0, 1, 2, 3, 4, 5; 6),
            8 => index_sum!(i, m; 0, 1, 2, 3, 4, 5, 6; 7),
            _ => eval_modes(m, i),
        }
    }

    /// `L(c)` at the natural coordinate whose leaves are `c` (`N` must be
    /// [`LEAVES`](Self::LEAVES), or the call does not compile): `Σ c_k·d_k`.
    ///
    /// ```
    /// use cute::{static_layout, StaticLayout};
    /// static_layout!(L = "((4,8),(8,16)):((8,512),(1,32))");
    /// assert_eq!(L::eval_natural([3, 1, 2, 1]), 3 * 8 + 512 + 2 + 32);
    /// ```
    ///
    /// ```compile_fail
    /// use cute::{static_layout, StaticLayout};
    /// static_layout!(L = "((4,8),(8,16)):((8,512),(1,32))");
    /// L::eval_natural([3, 1, 2]); // three leaves for four
    /// ```
    #[inline(always)]
    fn eval_natural<const N: usize>(c: [usize; N]) -> i64 {
        const {
            assert!(
                N == Self::LEAVES,
                "a natural coordinate has one entry per leaf"
            )
        };
        let d = &Self::STRIDES;
        let mut acc: i64 = 0;
        let mut k = 0;
        while k < N {
            acc = acc.wrapping_add((c[k] as i64).wrapping_mul(d[k]));
            k += 1;
        }
        acc
    }

    /// True when `c` (one entry per leaf) is a coordinate of the domain.
    ///
    /// ```
    /// use cute::{static_layout, StaticLayout};
    /// static_layout!(L = "(4,8):(8,1)");
    /// assert!(L::contains([3, 7]) && !L::contains([4, 0]));
    /// ```
    #[inline(always)]
    fn contains<const N: usize>(c: [usize; N]) -> bool {
        const {
            assert!(
                N == Self::LEAVES,
                "a natural coordinate has one entry per leaf"
            )
        };
        let s = &Self::SHAPES;
        let mut k = 0;
        while k < N {
            if c[k] >= s[k] {
                return false;
            }
            k += 1;
        }
        true
    }

    /// Calls `f` with `L(0), L(1), …, L(|L|-1)` in order: a nest of loops with constant trip
    /// counts over the coalesced modes (no division).
    ///
    /// ```
    /// use cute::{static_layout, StaticLayout};
    /// static_layout!(L = "(2,(2,2)):(4,(1,2))");
    /// let mut v = Vec::new();
    /// L::for_each_offset(|o| v.push(o));
    /// assert_eq!(v, [0, 4, 1, 5, 2, 6, 3, 7]);
    /// ```
    #[inline(always)]
    fn for_each_offset(mut f: impl FnMut(i64)) {
        let m = &Self::ITER_MODES;
        walk(m.n, &m.shape, &[m.stride], |[o]| f(o));
    }
}

/// `Σ (i / P_k % S_k)·d_k` over the listed modes, plus `(i / P_last)·d_last`.
macro_rules! index_sum {
    ($i:ident, $m:ident; $($k:literal),*; $last:literal) => {
        0i64 $(.wrapping_add(
            (($i / $m.prefix[$k] % $m.shape[$k]) as i64).wrapping_mul($m.stride[$k])
        ))*
        .wrapping_add((($i / $m.prefix[$last]) as i64).wrapping_mul($m.stride[$last]))
    };
}
use index_sum;

/// [`StaticLayout::eval`] for more than eight modes: the same sum as a loop.
#[inline(always)]
fn eval_modes(m: &Modes, i: usize) -> i64 {
    let mut acc: i64 = 0;
    let mut k = 0;
    while k + 1 < m.n {
        let c = i / m.prefix[k] % m.shape[k];
        acc = acc.wrapping_add((c as i64).wrapping_mul(m.stride[k]));
        k += 1;
    }
    let last = (i / m.prefix[m.n - 1]) as i64;
    acc.wrapping_add(last.wrapping_mul(m.stride[m.n - 1]))
}

/// Defines unit structs implementing [`StaticLayout`] from CuTe notation:
/// `static_layout!(pub Name = "shape:stride");` (attributes and a visibility may precede the
/// name; several definitions may be separated by `;`). The text is parsed at compile time: a text
/// that is not a layout, or a layout without integer strides, does not compile.
///
/// ```
/// cute::static_layout! {
///     /// The paper's thread-value layout.
///     pub Tv = "((4,8),2):((16,1),8)";
///     RowMajor = "(4,8):(8,1)";
/// }
/// use cute::StaticLayout;
/// assert_eq!(Tv::LAYOUT.to_string(), "((4,8),2):((16,1),8)");
/// assert_eq!(RowMajor::SIZE, 32);
/// ```
///
/// ```compile_fail
/// cute::static_layout!(Bad = "(4,8):(8,1"); // unbalanced parenthesis: a compile error
/// ```
///
/// ```compile_fail
/// cute::static_layout!(Coords = "(4,8):(1@0,1@1)"); // not integer strides: a compile error
/// ```
#[macro_export]
macro_rules! static_layout {
    ($($(#[$meta:meta])* $vis:vis $name:ident = $text:literal);+ $(;)?) => {
        $(
            #[doc = concat!("The static layout `", $text, "`.")]
            $(#[$meta])*
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            $vis struct $name;

            impl $crate::StaticLayout for $name {
                const LAYOUT: $crate::Layout = $crate::static_layout::parse_static(
                    $text,
                    concat!("static_layout!: `", $text, "` is not a layout with integer strides"),
                );
            }

            // Free constants are always evaluated: a bad text fails the build here even when the
            // type is never used.
            const _: () = {
                let _ = <$name as $crate::StaticLayout>::LAYOUT;
                let _ = <$name as $crate::StaticLayout>::COSIZE;
            };
        )+
    };
}

/// The layout written `text` (CuTe notation), for [`static_layout!`](crate::static_layout!):
/// panics with `message`, in `const` context a compile error, when `text` is not a layout with
/// integer strides.
///
/// ```
/// use cute::static_layout::parse_static;
/// const L: cute::Layout = parse_static("(4,8):(1,4)", "bad layout");
/// assert_eq!(L.eval(5), Ok(5));
/// ```
pub const fn parse_static(text: &str, message: &'static str) -> Layout {
    match Layout::parse_const(text) {
        Ok(l) if l.is_integral() => l,
        Ok(_) => panic!("{}", message),
        // the parser's reason, with the literal quoted
        Err(e) => crate::text::literal_panic("static_layout", text, &e),
    }
}

/// Flat modes `shape:stride` of a static layout (the coalesced forms evaluated and iterated by
/// [`StaticLayout`]).
///
/// ```
/// use cute::{static_layout, StaticLayout};
/// static_layout!(L = "((4,8),(8,16)):((1,4),(32,256))");
/// assert_eq!(L::ITER_MODES.n, 1); // coalesced: 4096:1
/// assert_eq!((L::ITER_MODES.shape[0], L::ITER_MODES.stride[0]), (4096, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modes {
    /// The number of modes (`0` for a layout whose every mode has size 1, when not keeping the
    /// last).
    pub n: usize,
    /// The extent of each mode.
    pub shape: [usize; CAPACITY],
    /// The stride of each mode.
    pub stride: [i64; CAPACITY],
    /// The product of the extents of the modes before each mode (`1` for mode 0): mode `k` of the
    /// 1-D index `i` is `i / prefix[k] % shape[k]`.
    pub prefix: [usize; CAPACITY],
}

impl Modes {
    /// The coalesced modes of `l` (integer strides; panics otherwise); with `keep_last`, the last
    /// mode is kept even when its size is 1 (the form that evaluates `l` on every integer).
    ///
    /// ```
    /// use cute::static_layout::Modes;
    /// use cute::Layout;
    /// let m = Modes::of(&"(2,(1,4)):(4,(7,1))".parse::<Layout>().unwrap(), true);
    /// assert_eq!(m.n, 2);
    /// assert_eq!((m.shape[0], m.shape[1], m.stride[0], m.stride[1]), (2, 4, 4, 1));
    /// ```
    pub const fn of(l: &Layout, keep_last: bool) -> Modes {
        assert!(l.is_integral(), "a static layout has integer strides");
        let f = coalesce_leaves(l, keep_last);
        let mut m = Modes {
            n: f.n,
            shape: [0; CAPACITY],
            stride: [0; CAPACITY],
            prefix: [0; CAPACITY],
        };
        let mut p = 1usize;
        let mut k = 0;
        while k < f.n {
            m.shape[k] = f.s[k] as usize;
            m.stride[k] = f.d[k];
            m.prefix[k] = p;
            // below the size of the layout, which fits in an i64
            p *= f.s[k] as usize;
            k += 1;
        }
        m
    }
}

const fn size_of(l: &Layout) -> usize {
    l.size() as usize
}

const fn leaf_shapes(l: &Layout) -> [usize; CAPACITY] {
    let mut out = [0; CAPACITY];
    let mut k = 0;
    while k < l.leaf_count() {
        out[k] = l.leaf_at(k).0 as usize;
        k += 1;
    }
    out
}

const fn leaf_strides(l: &Layout) -> [i64; CAPACITY] {
    assert!(l.is_integral(), "a static layout has integer strides");
    let mut out = [0; CAPACITY];
    let mut k = 0;
    while k < l.leaf_count() {
        out[k] = l.leaf_at(k).1;
        k += 1;
    }
    out
}

/// The smallest and largest offset of `l` on its domain.
const fn offset_bounds(l: &Layout) -> (i64, i64) {
    assert!(l.is_integral(), "a static layout has integer strides");
    match crate::tensor::offset_range(l) {
        Ok((lo, hi)) if hi.checked_sub(lo).is_some() => (lo, hi),
        _ => panic!("the offsets of a static layout fit in an i64"),
    }
}

/// Nested loops over `n` modes, outermost first in the index list, each level adding its
/// coordinate times its stride to every one of the `M` running offsets.
macro_rules! nest {
    ($s:ident, $d:ident, $f:ident, $o:expr; ) => {
        $f($o)
    };
    ($s:ident, $d:ident, $f:ident, $o:expr; $k:literal $(, $rest:literal)*) => {{
        let base: [i64; M] = $o;
        let mut c = 0;
        while c < $s[$k] {
            let o: [i64; M] =
                core::array::from_fn(|m| base[m].wrapping_add((c as i64).wrapping_mul($d[m][$k])));
            nest!($s, $d, $f, o; $($rest),*);
            c += 1;
        }
    }};
}

/// Calls `f` with the `M` offsets `Σ c_k·d[m][k]` for every coordinate `c` of the modes `s[..n]`,
/// mode 0 fastest. With `n`, `s` and `d` constants (after inlining), the `match` folds to one
/// arm and every loop has a constant trip count.
#[inline(always)]
fn walk<const M: usize>(
    n: usize,
    s: &[usize; CAPACITY],
    d: &[[i64; CAPACITY]; M],
    mut f: impl FnMut([i64; M]),
) {
    match n {
        0 => f([0; M]),
        1 => nest!(s, d, f, [0; M]; 0),
        2 => nest!(s, d, f, [0; M]; 1, 0),
        3 => nest!(s, d, f, [0; M]; 2, 1, 0),
        4 => nest!(s, d, f, [0; M]; 3, 2, 1, 0),
        5 => nest!(s, d, f, [0; M]; 4, 3, 2, 1, 0),
        6 => nest!(s, d, f, [0; M]; 5, 4, 3, 2, 1, 0),
        7 => nest!(s, d, f, [0; M]; 6, 5, 4, 3, 2, 1, 0),
        8 => nest!(s, d, f, [0; M]; 7, 6, 5, 4, 3, 2, 1, 0),
        _ => odometer(n, s, d, f),
    }
}

/// [`walk`] for more than eight modes: the walker of [`crate::geometry`].
fn odometer<const M: usize>(
    n: usize,
    s: &[usize; CAPACITY],
    d: &[[i64; CAPACITY]; M],
    mut f: impl FnMut([i64; M]),
) {
    let mut extent = [0i64; CAPACITY];
    for (e, &x) in extent.iter_mut().zip(&s[..n]) {
        *e = x as i64;
    }
    let mut w = Odometer::new(&extent[..n], core::array::from_fn(|m| &d[m][..n]));
    loop {
        f(w.offsets());
        if !w.step() {
            return;
        }
    }
}

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
    fn window(&self) -> &[S::Item] {
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
    fn window_mut(&mut self) -> &mut [S::Item] {
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

/// The static layout of mode `K` of `L` (a compile error unless `K < rank(L)`).
///
/// ```
/// use cute::{static_layout, static_layout::Mode, StaticLayout};
/// static_layout!(L = "(4,(2,4)):(8,(1,2))");
/// assert_eq!(<Mode<L, 1>>::LAYOUT.to_string(), "(2,4):(1,2)");
/// ```
pub struct Mode<L, const K: usize>(PhantomData<fn() -> L>);

impl<L: StaticLayout, const K: usize> StaticLayout for Mode<L, K> {
    const LAYOUT: Layout = match L::LAYOUT.mode(K) {
        Ok(m) => m,
        Err(_) => panic!("Mode<L, K> needs K < rank(L)"),
    };
}

/// The static layout of `L` without its mode `K`: the layout of a slice at mode `K` (a compile
/// error unless `rank(L) ≥ 2` and `K < rank(L)`).
///
/// ```
/// use cute::{static_layout, static_layout::Sliced, StaticLayout};
/// static_layout!(L = "(4,(2,4),3):(8,(1,2),32)");
/// assert_eq!(<Sliced<L, 1>>::LAYOUT.to_string(), "(4,3):(8,32)");
/// ```
pub struct Sliced<L, const K: usize>(PhantomData<fn() -> L>);

impl<L: StaticLayout, const K: usize> StaticLayout for Sliced<L, K> {
    const LAYOUT: Layout = without_mode(&L::LAYOUT, K);
}

/// The static layout of the last mode of `L`.
///
/// ```
/// use cute::{static_layout, static_layout::Last, StaticLayout};
/// static_layout!(L = "(4,(2,4)):(8,(1,2))");
/// assert_eq!(<Last<L>>::LAYOUT.to_string(), "(2,4):(1,2)");
/// ```
pub struct Last<L>(PhantomData<fn() -> L>);

impl<L: StaticLayout> StaticLayout for Last<L> {
    const LAYOUT: Layout = match L::LAYOUT.mode(L::LAYOUT.rank() - 1) {
        Ok(m) => m,
        Err(_) => panic!("every layout has a last mode"),
    };
}

/// The static layout of `L` without its last mode (a compile error unless `rank(L) ≥ 2`).
///
/// ```
/// use cute::{static_layout, static_layout::Init, StaticLayout};
/// static_layout!(L = "(4,(2,4)):(8,(1,2))");
/// assert_eq!(<Init<L>>::LAYOUT.to_string(), "(4):(8)");
/// ```
pub struct Init<L>(PhantomData<fn() -> L>);

impl<L: StaticLayout> StaticLayout for Init<L> {
    const LAYOUT: Layout = without_mode(&L::LAYOUT, L::LAYOUT.rank() - 1);
}

/// `l` without its mode `k`.
const fn without_mode(l: &Layout, k: usize) -> Layout {
    let r = l.rank();
    assert!(
        r >= 2 && k < r,
        "slicing a static layout needs two modes or more, and the mode to slice"
    );
    let mut idx = [0usize; CAPACITY];
    let mut n = 0;
    let mut m = 0;
    while m < r {
        if m != k {
            idx[n] = m;
            n += 1;
        }
        m += 1;
    }
    match l.select(idx.split_at(n).0) {
        Ok(s) => s,
        Err(_) => panic!("the other modes of a layout form a layout"),
    }
}

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
