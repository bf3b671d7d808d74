//! Coalesce (paper: 合并 “merge”), filter and filter_zeros.
//!
//! `coalesce(A)` is a layout `R` with `|R| = |A|`, `depth(R) ≤ 1` and `R(i) = A(i)` for every
//! integer coordinate `i < |A|`, of minimal rank: adjacent modes `s0:d0, s1:d1` with `d1 = s0·d0`
//! merge into `s0·s1:d0`, and size-1 modes disappear (`1:0` if nothing is left).
//!
//! | call | result |
//! |---|---|
//! | `coalesce((2,(1,6)):(1,(6,2)))` | `12:1` |
//! | `coalesce((2,(1,6)):(1,(6,2)), (1,1))` (by mode) | `(2,6):(1,2)` |
//! | `coalesce(((4,3),5):((15,1),3))` | `(4,15):(15,1)` |
//! | `coalesce((4,2,8):(3,12,97))` | `(8,8):(3,97)` |
//! | `filter((4,2,3):(1,0,4))` | `12:1` |
//! | `coalesce_z((2,1,6,1):(1,7,8,0))` | `(2,6,1):(1,8,0)` (trailing size-1 mode kept) |
//! | `coalesce_z((5,(5,1)):(1,(5,1)))` | `(25,1):(1,1)` |
//! | `filter_zeros((4,2,3):(1,0,4))` | `(4,1,3):(1,0,4)` |
//!
//! ```
//! use cute::{coalesce, coalesce_profile, Layout, Tiler};
//! let a: Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
//! assert_eq!(coalesce(&a).to_string(), "12:1");
//! let p: Tiler = "<1,1>".parse().unwrap();
//! assert_eq!(coalesce_profile(&a, &p).unwrap().to_string(), "(2,6):(1,2)");
//! ```

use crate::error::{tri, Error, Op, Operand};
use crate::int_tuple::build::Builder;
use crate::int_tuple::{Tree, CAPACITY};
use crate::layout::{Layout, BLANK};
use crate::tiler::{Tile, Tiler};

/// A flat list of modes, the working form of the algebra.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flat {
    pub(crate) n: usize,
    pub(crate) s: [i64; CAPACITY],
    pub(crate) d: [i64; CAPACITY],
    /// The basis code of each stride (see [`crate::stride`]).
    pub(crate) b: [crate::stride::Code; CAPACITY],
}

impl Flat {
    pub(crate) const EMPTY: Flat = Flat {
        n: 0,
        s: [0; CAPACITY],
        d: [0; CAPACITY],
        b: [0; CAPACITY],
    };

    /// The leaves of `l` in order.
    #[inline]
    pub(crate) const fn of(l: &Layout) -> Flat {
        Flat {
            n: l.tree.len(),
            s: l.shape,
            d: l.stride,
            b: l.basis,
        }
    }

    /// Appends the integer mode `s:d`.
    #[inline]
    pub(crate) const fn push(&mut self, s: i64, d: i64) {
        self.s[self.n] = s;
        self.d[self.n] = d;
        self.b[self.n] = 0;
        self.n += 1;
    }

    /// Appends the mode `s:d` whose stride scales the basis with code `b`.
    #[inline]
    pub(crate) const fn push_basis(&mut self, s: i64, d: i64, b: crate::stride::Code) {
        self.s[self.n] = s;
        self.d[self.n] = d;
        self.b[self.n] = if d == 0 && b != crate::stride::BINARY {
            0
        } else {
            b
        };
        self.n += 1;
    }

    /// As a layout in CuTe's printed form: `1:0` when empty, `s:d` for one mode, else a flat tuple.
    pub(crate) const fn to_layout(self) -> Layout {
        match self.n {
            0 => Layout::TRIVIAL,
            1 => Layout {
                tree: Tree::LEAF,
                shape: self.s,
                stride: self.d,
                basis: self.b,
            },
            n => Layout {
                tree: Tree::flat(n, true),
                shape: self.s,
                stride: self.d,
                basis: self.b,
            },
        }
    }
}

/// The merge rule of [`coalesce_flat`] on places: reads the modes `$s[i]:$d[i]` for `i < $n`
/// (with `$filter`, of [`filter_zeros`] of them: a stride-0 mode counts as size 1), writes the
/// result modes to the front of `$os`, `$od` (untouched past them) and evaluates to their count.
///
/// A chain `s0:d0, s1:d1, …` with `d_{k+1} = s_k·d_k` merges the same whichever end it is walked
/// from, so this walks forward and writes each result mode once. It is a macro so that a result can
/// be written through its own fields (`out.shape`), never borrowed: a borrowed local is not built
/// in the return place and is copied there afterwards, which costs more than the whole operation.
macro_rules! coalesce_into {
    ($n:expr, $s:expr, $d:expr, $b:expr, $keep_last:expr, $filter:expr, $os:expr, $od:expr, $ob:expr) => {{
        let n: usize = $n;
        let mut m: usize = 0;
        let mut i = 0;
        while i < n {
            let di = $d[i];
            let bi = $b[i];
            let si = if $filter && di == 0 { 1 } else { $s[i] };
            // A size-1 mode disappears, except the unbounded last one with `keep_last`.
            if si != 1 || ($keep_last && i + 1 == n) {
                // Merge into the previous result mode when its extent is exactly this stride (the
                // previous mode's shape·stride is its last merged leaf's, so the test is CuTe's),
                // in the strides' semimodule.
                if m > 0 && $crate::stride::merges($os[m - 1], $od[m - 1], $ob[m - 1], di, bi) {
                    $os[m - 1] *= si;
                } else {
                    $os[m] = si;
                    $od[m] = di;
                    $ob[m] = bi;
                    m += 1;
                }
            }
            i += 1;
        }
        m
    }};
}

/// [`coalesce_into`] for modes known to have integer strides (every basis code zero): the merge
/// test is CuTe's `s0·d0 = d1` alone, and the result's codes are left as they are (zero). Used by
/// the integer-only operations after their check, where it is measurably faster.
macro_rules! coalesce_into_int {
    ($n:expr, $s:expr, $d:expr, $keep_last:expr, $filter:expr, $os:expr, $od:expr) => {{
        let n: usize = $n;
        let mut m: usize = 0;
        let mut i = 0;
        while i < n {
            let di = $d[i];
            let si = if $filter && di == 0 { 1 } else { $s[i] };
            if si != 1 || ($keep_last && i + 1 == n) {
                if m > 0 && matches!($os[m - 1].checked_mul($od[m - 1]), Some(x) if x == di) {
                    $os[m - 1] *= si;
                } else {
                    $os[m] = si;
                    $od[m] = di;
                    m += 1;
                }
            }
            i += 1;
        }
        m
    }};
}
pub(crate) use coalesce_into_int;

/// Merges the modes of `f` (CuTe's rule): size-1 modes are skipped, `s0:d0` merges with the
/// following `s1:d1` when `s0·d0 = d1`. With `keep_last` the last mode is never dropped and its
/// shape is treated as unbounded (extended-domain semantics, CuTe's `coalesce_x`): the result then
/// evaluates like `f` at every integer, not only below the size.
pub(crate) const fn coalesce_flat(f: &Flat, keep_last: bool) -> Flat {
    let mut out = Flat::EMPTY;
    out.n = coalesce_modes(f, keep_last, false, &mut out);
    out
}

/// [`coalesce_flat`] of the leaves of `l`, without copying them into a [`Flat`] first.
#[inline]
pub(crate) const fn coalesce_leaves(l: &Layout, keep_last: bool) -> Flat {
    let mut out = Flat::EMPTY;
    out.n = coalesce_into!(
        l.tree.len(),
        l.shape,
        l.stride,
        l.basis,
        keep_last,
        false,
        out.s,
        out.d,
        out.b
    );
    out
}

/// [`coalesce_into`] on arrays.
#[inline]
pub(crate) const fn coalesce_modes(
    f: &Flat,
    keep_last: bool,
    filter: bool,
    out: &mut Flat,
) -> usize {
    coalesce_into!(f.n, f.s, f.d, f.b, keep_last, filter, out.s, out.d, out.b)
}

/// Sets the tree of `$out` (a [`BLANK`] whose first `$m` modes were written) to CuTe's printed
/// form of a coalesced result: `s:d` for one mode, a flat tuple for several, and for none the
/// layout `1:0`. A macro for the reason given at [`coalesce_into`].
macro_rules! set_coalesced_tree {
    ($out:ident, $m:expr) => {{
        let m: usize = $m;
        if m == 0 {
            $out.shape[0] = 1; // `1:0`
            $out.tree.n = 1;
        } else {
            $out.tree.n = m as u8;
            if m > 1 {
                $out.tree.open[0] = 1;
                $out.tree.close[m - 1] = 1;
            }
        }
    }};
}
pub(crate) use set_coalesced_tree;

/// `coalesce(A)`: the equivalent layout of least rank on the integers `0..|A|` (see the module docs).
///
/// ```
/// use cute::{coalesce, Layout};
/// let a: Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
/// assert_eq!(coalesce(&a).to_string(), "12:1");
/// let a: Layout = "((4,3),5):((15,1),3)".parse().unwrap();
/// assert_eq!(coalesce(&a).to_string(), "(4,15):(15,1)");
/// ```
pub const fn coalesce(a: &Layout) -> Layout {
    let mut out = BLANK;
    let m = coalesce_into!(
        a.tree.len(),
        a.shape,
        a.stride,
        a.basis,
        false,
        false,
        out.shape,
        out.stride,
        out.basis
    );
    set_coalesced_tree!(out, m);
    out
}

/// `coalesce(A, profile)`: by-mode coalesce. The profile is a tiler-like tuple: where it has a tile
/// (an integer such as `1`), that (sub-)layout is coalesced whole; where it has `_`, the mode is left
/// untouched; where it is a tuple, the modes are treated one by one (modes of `A` beyond the
/// profile's rank are kept as they are). C++ writes the profile `Step<_1,_1>`, PyCuTe `(1, 1)` with
/// `None` for `_`; here `<1,1>`, `<_,1>`.
///
/// ```
/// use cute::{coalesce_profile, Layout, Tiler};
/// let a: Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
/// let by_mode: Tiler = "<1,1>".parse().unwrap();
/// assert_eq!(coalesce_profile(&a, &by_mode).unwrap().to_string(), "(2,6):(1,2)");
/// let second: Tiler = "<_,1>".parse().unwrap();
/// let a: Layout = "((2,2),(1,6)):((1,2),(6,2))".parse().unwrap();
/// assert_eq!(coalesce_profile(&a, &second).unwrap().to_string(), "((2,2),6):((1,2),2)");
/// ```
///
/// # Errors
///
/// `ProfileMismatch` when the profile (a tuple) has more modes than `A`, or `A` is a single leaf; a
/// capacity error when the result would have more leaves than a layout holds.
pub const fn coalesce_profile(a: &Layout, profile: &Tiler) -> Result<Layout, Error> {
    match by_profile(a, profile, false) {
        Ok(l) => Ok(l),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::None)),
    }
}

/// Applies coalesce (or, with `filter`, filter) at the leaves of `profile`.
const fn by_profile(a: &Layout, profile: &Tiler, filter_too: bool) -> Result<Layout, Error> {
    if let Some(t) = profile.single() {
        return Ok(match t {
            Tile::Whole => *a,
            _ if filter_too => filter(a),
            _ => coalesce(a),
        });
    }
    let pr = profile.rank();
    let ar = a.rank();
    if pr > ar || a.is_leaf() {
        return Err(Error::new(
            Op::Coalesce,
            crate::error::ErrorKind::ProfileMismatch {
                what: "the profile has more modes than the layout",
                left: pr as i64,
                right: ar as i64,
            },
        ));
    }
    let mut b = Builder::new();
    tri!(b.open(Op::Coalesce));
    let mut k = 0;
    while k < ar {
        let m = tri!(a.mode(k));
        let r = if k < pr {
            tri!(by_profile(&m, &tri!(profile.mode(k)), filter_too))
        } else {
            m
        };
        tri!(b.push_layout_node(Op::Coalesce, &r));
        k += 1;
    }
    tri!(b.close(Op::Coalesce));
    b.finish_layout(Op::Coalesce)
}

/// `filter_zeros(A)`: every stride-0 leaf gets shape 1; the profile is kept.
///
/// ```
/// use cute::{filter_zeros, Layout};
/// let a: Layout = "(4,(2,3)):(1,(0,4))".parse().unwrap();
/// assert_eq!(filter_zeros(&a).to_string(), "(4,(1,3)):(1,(0,4))");
/// ```
pub const fn filter_zeros(a: &Layout) -> Layout {
    let mut out = *a;
    let mut i = 0;
    while i < out.tree.len() {
        if out.stride[i] == 0 {
            out.shape[i] = 1;
        }
        i += 1;
    }
    out
}

/// `filter(A) = coalesce(filter_zeros(A))`: drops stride-0 and size-1 modes, then coalesces.
///
/// ```
/// use cute::{filter, Layout};
/// let a: Layout = "(4,2,3):(1,0,4)".parse().unwrap();
/// assert_eq!(filter(&a).to_string(), "12:1");
/// let a: Layout = "(2,1,3):(3,5,0)".parse().unwrap();
/// assert_eq!(filter(&a).to_string(), "2:3");
/// ```
pub const fn filter(a: &Layout) -> Layout {
    coalesce(&filter_zeros(a))
}

/// `filter(A, profile)`: by-mode filter (the profile as in [`coalesce_profile`]).
///
/// ```
/// use cute::{filter_profile, Layout, Tiler};
/// let a: Layout = "((4,2),(2,3)):((1,0),(0,4))".parse().unwrap();
/// let by_mode: Tiler = "<1,1>".parse().unwrap();
/// assert_eq!(filter_profile(&a, &by_mode).unwrap().to_string(), "(4,3):(1,4)");
/// ```
///
/// # Errors
///
/// As [`coalesce_profile`].
pub const fn filter_profile(a: &Layout, profile: &Tiler) -> Result<Layout, Error> {
    match by_profile(a, profile, true) {
        Ok(l) => Ok(l),
        Err(e) => Err(e
            .retag(Op::Filter)
            .or_with(Operand::Layout(*a), Operand::None)),
    }
}

/// `coalesce_z(A)` (PyCuTe's size-1-preserving coalesce): like [`coalesce`], but a size-1 *last*
/// mode that does not merge is kept, with its stride, so that the result evaluates like `A` on the
/// whole extended domain (every integer `i ≥ 0`, the last mode not reduced), not only below `|A|`.
///
/// Contract: `|R| = |A|`, `depth(R) ≤ 1`, `R(i) = A(i)` for every integer `i ≥ 0`. The modes are
/// folded from the front: a size-1 mode is dropped as soon as another mode follows it, and a mode
/// `s1:d1` merges into the preceding `s0:d0` when `s0·d0 = d1`. One mode prints as `s:d`.
///
/// ```
/// use cute::{algebra::coalesce::coalesce_z, Layout};
/// let a: Layout = "(2,1,6,1):(1,7,8,0)".parse().unwrap();
/// assert_eq!(coalesce_z(&a).to_string(), "(2,6,1):(1,8,0)");
/// let a: Layout = "(8,1):(1,8)".parse().unwrap(); // the size-1 mode continues the first: merged
/// assert_eq!(coalesce_z(&a).to_string(), "8:1");
/// ```
pub const fn coalesce_z(a: &Layout) -> Layout {
    let f = Flat::of(a);
    let mut out = Flat::EMPTY;
    let mut i = 0;
    while i < f.n {
        let (s, d, b) = (f.s[i], f.d[i], f.b[i]);
        // A size-1 mode followed by another mode contributes nothing, even past the size.
        while out.n > 0 && out.s[out.n - 1] == 1 {
            out.n -= 1;
            out.s[out.n] = 0;
            out.d[out.n] = 0;
            out.b[out.n] = 0;
        }
        let merges = out.n > 0
            && crate::stride::merges(out.s[out.n - 1], out.d[out.n - 1], out.b[out.n - 1], d, b);
        if merges {
            // Cannot overflow: the product of all shapes of `a` fits (checked at construction).
            out.s[out.n - 1] *= s;
        } else {
            out.push_basis(s, d, b);
        }
        i += 1;
    }
    out.to_layout()
}
