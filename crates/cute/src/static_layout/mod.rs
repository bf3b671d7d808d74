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
//! Strides must be integers (as for [`Tensor`](crate::Tensor)). Coordinates are `usize`: a 1-D
//! index `i` (past the size, the last mode keeps counting, as in [`Layout::eval`]) or a natural
//! coordinate given as its leaves `[c0, c1, …]` in order. The arithmetic wraps, so it agrees with
//! [`Layout::eval`] whenever the true offset fits in an `i64`. Slicing keeps the layout static for
//! one whole mode fixed at a run-time index ([`StaticTensor::slice_mode`],
//! [`StaticTensor::slice_last`]); other partial coordinates, composition and partitioning go
//! through [`StaticTensor::as_dynamic`].

use core::marker::PhantomData;

use crate::algebra::coalesce::coalesce_leaves;
use crate::geometry::Odometer;
use crate::int_tuple::CAPACITY;
use crate::layout::Layout;

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

// The static tensor (`tensor.rs`) and COPY and GEMM over it (`algorithm.rs`), built on the
// layout constants and loop nests above.
mod algorithm;
mod tensor;

pub use algorithm::{static_copy, static_gemm};
pub use tensor::StaticTensor;
