//! Logical divide (paper: 逻辑除法 “logical division”) and its regroupings `zipped_divide`,
//! `tiled_divide`, `flat_divide`.
//!
//! `A ⊘ B = A ∘ (B, B*)` with `B* = complement(B, shape(coalesce(A)))`: the rank-2 layout whose first
//! mode ("tile") is `A ∘ B`, the elements of `A` that `B` points to, and whose second mode ("rest")
//! is `A ∘ B*`, the repetitions of that tile over the rest of `A`. Both modes are evaluated through
//! the composition, so every admissibility condition of [`composition`] and [`complement_to`]
//! applies, and the division is refused when they fail.
//!
//! The paper also requires `(B, B*)` onto `Z_|A|` (every element of `A` lands in the tile or
//! the rest), which CuTe C++ does not check: a tiler whose translates collide leaves holes no
//! complement fills (`(8,7):(1,2) ⊘ (2,3):(24,32)`: `B` shifted by 8 meets itself at 32, so the
//! offset 8 is in neither mode), and the division is refused (`NotOnto`, naming the smallest
//! offset missed) where C++ returns a layout that drops those elements. A tiler with negative
//! strides reaches below 0, so its complement is asked to cover `|A|` plus that reach (the paper's
//! "extend `B*`"): `8:1 ⊘ (2,2):(-1,4)` is `((2,2),(2,2)):((-1,4),(2,8))`, onto `Z_8`, where
//! C++'s `((2,2),2):((-1,4),2)` misses the offset 7.
//!
//! A by-mode [`Tiler`] divides mode `k` of `A` by tile `k` (`_` keeps the mode, an integer `n` is
//! `n:1`, a nested tiler recurses); the modes of `A` beyond the tiler's rank are kept. A tiler with
//! more modes than `A` is refused.
//!
//! The variants regroup the same function (CuTe's `tile_unzip`, a `zip2_by` guided by the tiler):
//! `zipped_divide` gathers the tile modes into mode 0 and the rest modes (followed by the modes of
//! `A` the tiler does not reach) into mode 1; `tiled_divide` then unpacks mode 1, and
//! `flat_divide` unpacks both. Because the regrouping splits each divided mode into its two
//! halves, a `_` tile over a mode of `A` that is an integer has nothing to split and is refused
//! (`OutOfRange`, as in CuTe).
//!
//! | `A` | tiler | operation | result |
//! |---|---|---|---|
//! | `24:3` | `8:3` | `logical_divide` | `(8,3):(9,3)` (S-LD-4) |
//! | `(6,2,2):(2,1,20)` | `8:3` | `logical_divide` | `((2,2,2),3):((6,1,20),2)` (S-LD-6) |
//! | `(8,16):(20,1)` | `<4:1,8:2>` | `logical_divide` | `((4,2),(8,2)):((20,80),(2,1))` (S-LD-10) |
//! | `(8,16):(20,1)` | `<4:1,8:2>` | `zipped_divide` | `((4,8),(2,2)):((20,2),(80,1))` (S-LD-11) |
//! | `(8,16):(20,1)` | `<4:1,8:2>` | `tiled_divide` | `((4,8),2,2):((20,2),80,1)` |
//! | `(8,16):(20,1)` | `<4:1,8:2>` | `flat_divide` | `(4,8,2,2):(20,2,80,1)` |
//! | `(16,8):(1,16)` | `<_,2:1>` | `logical_divide` | `(16,(2,4)):(1,(16,32))` |
//! | `(4,8):(8,1)` | `<_,8>` | `zipped_divide` | error: `_` over the integer mode `4:8` |
//! | `8:1` | `(2,2):(-1,4)` | `logical_divide` | `((2,2),(2,2)):((-1,4),(2,8))` |
//! | `(8,7):(1,2)` | `(2,3):(24,32)` | `logical_divide` | error: `(B, B*)` misses the offset 8 |
//!
//! ```
//! use cute::{logical_divide, zipped_divide, Layout, Tiler};
//! let a: Layout = "(8,16):(20,1)".parse().unwrap();
//! let t: Tiler = "<4:1,8:2>".parse().unwrap();
//! assert_eq!(logical_divide(&a, &t).unwrap().to_string(), "((4,2),(8,2)):((20,80),(2,1))");
//! assert_eq!(zipped_divide(&a, &t).unwrap().to_string(), "((4,8),(2,2)):((20,2),(80,1))");
//!
//! let a: Layout = "24:3".parse().unwrap();
//! let b: Layout = "8:3".parse().unwrap();
//! assert_eq!(logical_divide(&a, &Tiler::layout(b)).unwrap().to_string(), "(8,3):(9,3)");
//!
//! // (B, B*) must be onto Z_|A|
//! let a: Layout = "8:1".parse().unwrap();
//! let b: Layout = "(2,2):(-1,4)".parse().unwrap();
//! let r = logical_divide(&a, &Tiler::layout(b)).unwrap();
//! assert_eq!(r.to_string(), "((2,2),(2,2)):((-1,4),(2,8))");
//! let a: Layout = "(8,7):(1,2)".parse().unwrap();
//! let b: Layout = "(2,3):(24,32)".parse().unwrap();
//! let e = logical_divide(&a, &Tiler::layout(b)).unwrap_err();
//! assert!(e.to_string().ends_with("no coordinate reaches the offset 8"), "{e}");
//! ```
//!
//! [`composition`]: crate::composition
//! [`complement_to`]: crate::complement_to

pub(crate) mod tile;

use super::apply_tiler::{apply_tiler_build, entry_error, zipped_entry, Apply};
use crate::error::{Error, Op};
use crate::layout::Layout;
use crate::tiler::Tiler;

/// `A ⊘ B` for a layout `A` and a tiler (see the [module docs](self)): `A ∘ (B, complement(B,
/// shape(coalesce(A))))` for a layout tile, applied by mode for a by-mode tiler (`_` keeps the mode,
/// `n` means `make_layout(n)`, modes of `A` beyond the tiler are kept).
///
/// A `const fn`, so it takes a `&Tiler` (a layout `b` as `&Tiler::layout(b)`); the method
/// [`Layout::logical_divide`] takes a `Layout`, a `&Layout`, a `Tiler` or a `&Tiler`.
///
/// ```
/// use cute::{logical_divide, Layout, Tiler};
/// let a: Layout = "(6,2,2):(2,1,20)".parse().unwrap();
/// let t: Tiler = "8:3".parse().unwrap();
/// assert_eq!(logical_divide(&a, &t).unwrap().to_string(), "((2,2,2),3):((6,1,20),2)");
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1,8:2>".parse().unwrap();
/// assert_eq!(logical_divide(&a, &t).unwrap().to_string(), "((4,2),(8,2)):((20,80),(2,1))");
/// ```
///
/// # Errors
///
/// Fails when a composition or complement condition fails or `(B, B*)` is not onto `Z_|A|`
/// (`Divisibility`), or when the tiler has more modes than `A` (`ProfileMismatch`).
pub const fn logical_divide(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    // Built in the return place (see `coalesce_into`).
    let mut err = Ok(());
    let mut r = Ok(apply_tiler_build(a, t, Apply::Divide, &mut err));
    if let Err(e) = err {
        r = Err(entry_error(e, Op::LogicalDivide, a, t));
    }
    r
}

/// `zipped_divide(A, T)`: [`logical_divide`] regrouped as `((tiles...), (rests..., extra modes...))`,
/// always of rank 2. Mode 0 is `A ∘ T` (by mode), mode 1 iterates over the tiles.
///
/// A `const fn`, so it takes a `&Tiler` (a layout `b` as `&Tiler::layout(b)`); the method
/// [`Layout::zipped_divide`] takes a `Layout`, a `&Layout`, a `Tiler` or a `&Tiler`.
///
/// ```
/// use cute::{zipped_divide, Layout, Tiler};
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1,8:2>".parse().unwrap();
/// // a 2x2 grid of 4x8 tiles (Figure 12): mode 0 is a tile, mode 1 picks the tile
/// assert_eq!(zipped_divide(&a, &t).unwrap().to_string(), "((4,8),(2,2)):((20,2),(80,1))");
/// ```
///
/// # Errors
///
/// Fails as [`logical_divide`] does, and with `OutOfRange` when a `_` of the tiler stands over a
/// mode of `A` that is an integer (there is no tile/rest pair to split), or `ProfileMismatch` when
/// it stands over a mode of rank other than 2.
pub const fn zipped_divide(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    zipped_entry(a, t, Apply::Divide, None, Op::ZippedDivide)
}

/// `tiled_divide(A, T)`: [`zipped_divide`] with its second mode unpacked, `((tiles...), rest...)`.
/// A second mode of rank 1 is kept as it is.
///
/// A `const fn`, so it takes a `&Tiler` (a layout `b` as `&Tiler::layout(b)`); the method
/// [`Layout::tiled_divide`] takes a `Layout`, a `&Layout`, a `Tiler` or a `&Tiler`.
///
/// ```
/// use cute::{tiled_divide, Layout, Tiler};
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1,8:2>".parse().unwrap();
/// assert_eq!(tiled_divide(&a, &t).unwrap().to_string(), "((4,8),2,2):((20,2),80,1)");
/// ```
///
/// # Errors
///
/// As [`zipped_divide`].
pub const fn tiled_divide(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    zipped_entry(a, t, Apply::Divide, Some(false), Op::TiledDivide)
}

/// `flat_divide(A, T)`: [`zipped_divide`] with both modes unpacked, `(tiles..., rest...)`. A mode
/// of rank 1 is kept as it is.
///
/// A `const fn`, so it takes a `&Tiler` (a layout `b` as `&Tiler::layout(b)`); the method
/// [`Layout::flat_divide`] takes a `Layout`, a `&Layout`, a `Tiler` or a `&Tiler`.
///
/// ```
/// use cute::{flat_divide, Layout, Tiler};
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1,8:2>".parse().unwrap();
/// assert_eq!(flat_divide(&a, &t).unwrap().to_string(), "(4,8,2,2):(20,2,80,1)");
/// ```
///
/// # Errors
///
/// As [`zipped_divide`].
pub const fn flat_divide(a: &Layout, t: &Tiler) -> Result<Layout, Error> {
    zipped_entry(a, t, Apply::Divide, Some(true), Op::FlatDivide)
}
