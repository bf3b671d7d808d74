//! Admissibility through the left inverse (paper: 应用：可接收性示例 “application: an admissibility
//! example”): does a data layout contain every offset an instruction touches, and at which logical
//! coordinates?
//!
//! For a data layout `A` and an instruction layout `T` (instruction coordinate → physical offset),
//! every `T(i)` lies in the image of `A` exactly when `A(A†(T(i))) = T(i)`, with `A†` the left
//! inverse: `T(i)` inside the domain of `A†`, `A†(T(i))` inside the domain of `A` and mapped back to
//! `T(i)`. The coordinates are then `A† ∘ T`, a layout from instruction coordinates to data
//! coordinates that can drive a `zipped_divide` of `A` into per-instruction pieces.
//!
//! The Blackwell tensor memory (TMEM) example: TMEM is a grid of 128 lanes × 512 columns of 32-bit
//! cells; a step along the columns adds 1 to the address, a step along the lanes adds
//! [`TMEM_LANE_STRIDE`] (the paper's value). A `tcgen05.ld/st` instruction is issued by four warps,
//! warp `w` reaching lanes `32w..32w+32`. [`tmem_32x32b`] and [`tmem_16x256b`] are the offsets each
//! shape touches, as `(thread, value)` layouts:
//!
//! | data layout (`(rows, cols)` of a tile in TMEM) | instruction | contained |
//! |---|---|---|
//! | `(128,256):(16384,1)` (M=128: a row per lane) | `32x32b.x1` | yes, at coordinates `((32,4),1):((1,32),1)` |
//! | `(128,256):(16384,1)` | `16x256b.x1` | yes |
//! | `(64,256):(16384,1)` (M=64 in lanes 0..63) | `32x32b.x1` | no: lane 64 (thread 64) is outside |
//! | `((16,4),256):((16384,524288),1)` (M=64, 16 lanes per warp) | `16x256b.x1` | yes |
//! | `((16,4),256):((16384,524288),1)` | `32x32b.x1` | no: lane 16 |
//!
//! ```
//! use cute::admissibility::{contains, tmem_32x32b};
//! let acc: cute::Layout = "(128,256):(16384,1)".parse().unwrap();
//! let c = contains(&acc, &tmem_32x32b(1).unwrap()).unwrap();
//! assert!(c.contained());
//! assert_eq!(c.layout.unwrap().to_string(), "((32,4),1):((1,32),1)");
//!
//! let m64: cute::Layout = "(64,256):(16384,1)".parse().unwrap();
//! let c = contains(&m64, &tmem_32x32b(1).unwrap()).unwrap();
//! assert_eq!(c.missing, Some((64, 64 * 16384)));
//! ```

use crate::algebra::composition::composition;
use crate::algebra::inverse::left_inverse;
use crate::error::{Error, ErrorKind, Op, Operand};
use crate::layout::Layout;

/// The largest instruction layout [`contains`] checks (2^24 offsets; an instruction touches far
/// fewer).
pub const CONTAINS_LIMIT: i64 = 1 << 24;

/// TMEM address step from one lane to the next (the paper's value; the step along the 32-bit
/// columns is 1).
pub const TMEM_LANE_STRIDE: i64 = 16384;

/// The answer of [`contains`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Containment {
    /// `A†`, the left inverse of the data layout.
    pub left_inverse: Layout,
    /// `A†(T(i))` for every `i < |T|`: the data coordinate (integer, colexicographic) holding the
    /// instruction's `i`-th offset; meaningful up to the first missing offset.
    pub coords: Vec<i64>,
    /// The first `(i, T(i))` whose offset is not in the image of `A`, if any.
    pub missing: Option<(i64, i64)>,
    /// `A† ∘ T` as a layout, when every offset is contained and the composition is admissible.
    pub layout: Option<Layout>,
}

impl Containment {
    /// True when every offset of the instruction lies in the image of the data layout.
    ///
    /// ```
    /// use cute::{contains, tmem_32x32b, Layout, TMEM_LANE_STRIDE};
    /// let m64: Layout = "(64,256):(16384,1)".parse().unwrap(); // 64 rows in lanes 0..63
    /// let c = contains(&m64, &tmem_32x32b(1).unwrap()).unwrap();
    /// assert!(!c.contained());
    /// assert_eq!(c.missing, Some((64, 64 * TMEM_LANE_STRIDE))); // thread 64 reads lane 64
    /// ```
    pub fn contained(&self) -> bool {
        self.missing.is_none()
    }
}

/// Whether the data layout `a` contains every offset of the instruction layout `t`, and where:
/// `a(a†(t(i))) = t(i)` for every `i` (paper, admissibility example). Both layouts need integer
/// strides; `a` must have a left inverse (errors of [`left_inverse`] otherwise, e.g. a layout that
/// is not injective on its domain in a way no left inverse can undo).
///
/// ```
/// use cute::{contains, tmem_32x32b, Layout};
/// let acc: Layout = "(128,256):(16384,1)".parse().unwrap(); // a row per lane
/// let c = contains(&acc, &tmem_32x32b(1).unwrap()).unwrap();
/// assert!(c.contained());
/// assert_eq!(&c.coords[..3], &[0, 1, 2]); // thread t reads row t, column 0
/// assert_eq!(c.layout.unwrap().to_string(), "((32,4),1):((1,32),1)");
/// ```
///
/// # Errors
///
/// A refusal (category `Unsupported`) when either layout does not have integer strides; the errors
/// of [`left_inverse`] of `a`; `Capacity` when `t` has more than [`CONTAINS_LIMIT`] offsets to
/// check.
pub fn contains(a: &Layout, t: &Layout) -> Result<Containment, Error> {
    a.require_integral(Op::Contains)?;
    t.require_integral(Op::Contains)?;
    let with = |e: Error| e.or_with(Operand::Layout(*a), Operand::Layout(*t));
    let inv = left_inverse(a).map_err(with)?;
    let (na, ninv) = (a.size(), inv.size());
    let n = t.size();
    if n > CONTAINS_LIMIT {
        return Err(Error::new(
            Op::Contains,
            ErrorKind::Capacity {
                what: "offsets of an instruction layout that contains checks one by one",
                limit: CONTAINS_LIMIT as usize,
            },
        )
        .with(Operand::Layout(*a), Operand::Layout(*t)));
    }
    // grown as offsets are found: a missing offset early costs no 2^24-entry allocation
    let mut coords = Vec::new();
    let mut missing = None;
    for i in 0..n {
        let off = t.eval(i)?;
        let found = if (0..ninv).contains(&off) {
            let c = inv.eval(off)?;
            ((0..na).contains(&c) && a.eval(c)? == off).then_some(c)
        } else {
            None
        };
        match found {
            Some(c) => coords.push(c),
            None => {
                missing = Some((i, off));
                break;
            }
        }
    }
    let layout = if missing.is_none() {
        composition(&inv, t).ok()
    } else {
        None
    };
    Ok(Containment {
        left_inverse: inv,
        coords,
        missing,
        layout,
    })
}

/// The TMEM offsets of `tcgen05.{ld,st}.32x32b.x{n}`: thread `t` of warp `w` reads lane `32w + t`,
/// `n` consecutive columns: `((32,4),n):((S,32·S),1)` with `S` = [`TMEM_LANE_STRIDE`]
/// (`(thread, value) → offset`; reconstructed from the PTX ISA's description of the shape).
///
/// ```
/// use cute::tmem_32x32b;
/// let t = tmem_32x32b(2).unwrap(); // TMEM_LANE_STRIDE = 16384
/// assert_eq!(t.to_string(), "((32,4),2):((16384,524288),1)");
/// assert_eq!(t.eval(33).unwrap(), 33 * 16384); // thread 33 (warp 1) reads lane 33, column 0
/// ```
///
/// # Errors
///
/// `InvalidShape` for `n < 1`, `Overflow` when the layout's size does not fit in `i64`.
pub fn tmem_32x32b(n: i64) -> Result<Layout, Error> {
    let s = TMEM_LANE_STRIDE;
    format!("((32,4),{n}):(({s},{}),1)", 32 * s).parse()
}

/// The TMEM offsets of `tcgen05.{ld,st}.16x256b.x{n}`: per warp a block of 16 lanes × 256 bits (8
/// columns), repeated `n` times along the columns; thread `t = t0 + 4·t1` holds columns
/// `2·t0, 2·t0+1` of lanes `t1` and `t1 + 8`: `(((4,8),4),(2,2,n)):(((2,S),32·S),(1,8·S,8))`
/// (reconstructed from the PTX ISA's fragment figure of the shape).
///
/// ```
/// use cute::tmem_16x256b;
/// let t = tmem_16x256b(1).unwrap();
/// assert_eq!(t.to_string(), "(((4,8),4),(2,2,1)):(((2,16384),524288),(1,131072,8))");
/// assert_eq!(t.eval(128 + 1).unwrap(), 3); // thread 1's second value: column 3 of lane 0
/// ```
///
/// # Errors
///
/// `InvalidShape` for `n < 1`, `Overflow` when the layout's size does not fit in `i64`.
pub fn tmem_16x256b(n: i64) -> Result<Layout, Error> {
    let s = TMEM_LANE_STRIDE;
    format!(
        "(((4,8),4),(2,2,{n})):(((2,{s}),{}),(1,{},8))",
        32 * s,
        8 * s
    )
    .parse()
}
