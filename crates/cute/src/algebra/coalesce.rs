//! Coalesce (paper: 合并), filter and filter_zeros.
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
use crate::int_tuple::{Builder, Tree, CAPACITY};
use crate::layout::Layout;
use crate::tiler::{Tile, Tiler};

/// A flat list of modes, the working form of the algebra.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flat {
    pub(crate) n: usize,
    pub(crate) s: [i64; CAPACITY],
    pub(crate) d: [i64; CAPACITY],
}

impl Flat {
    pub(crate) const EMPTY: Flat = Flat {
        n: 0,
        s: [0; CAPACITY],
        d: [0; CAPACITY],
    };

    /// The leaves of `l` in order.
    #[inline]
    pub(crate) const fn of(l: &Layout) -> Flat {
        Flat {
            n: l.tree.len(),
            s: l.shape,
            d: l.stride,
        }
    }

    #[inline]
    pub(crate) const fn push(&mut self, s: i64, d: i64) {
        self.s[self.n] = s;
        self.d[self.n] = d;
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
            },
            n => Layout {
                tree: Tree::flat(n, true),
                shape: self.s,
                stride: self.d,
            },
        }
    }
}

/// Merges the modes of `f` from the back (CuTe's rule): size-1 modes are skipped, `s0:d0` merges
/// into the following `s1:d1` when `s0·d0 = d1`. With `keep_last` the last mode is never dropped
/// and its shape is treated as unbounded (extended-domain semantics, CuTe's `coalesce_x`): the
/// result then evaluates like `f` at every integer, not only below the size.
pub(crate) const fn coalesce_flat(f: &Flat, keep_last: bool) -> Flat {
    let n = f.n;
    // Build backwards into `rev`.
    if n == 0 {
        return Flat::EMPTY;
    }
    // A stack whose front is rs[m-1], rd[m-1].
    let mut rs = [0i64; CAPACITY];
    let mut rd = [0i64; CAPACITY];
    rs[0] = f.s[n - 1];
    rd[0] = f.d[n - 1];
    let mut m: usize = 1;
    let mut front_is_one = rs[0] == 1 && !keep_last;
    let mut i = n - 1;
    while i > 0 {
        i -= 1;
        let (s, d) = (f.s[i], f.d[i]);
        if s == 1 {
            continue;
        }
        if front_is_one {
            rs[m - 1] = s;
            rd[m - 1] = d;
            front_is_one = false;
        } else if matches!(s.checked_mul(d), Some(x) if x == rd[m - 1]) {
            rs[m - 1] = s * rs[m - 1];
            rd[m - 1] = d;
        } else {
            rs[m] = s;
            rd[m] = d;
            m += 1;
        }
    }
    let mut out = Flat::EMPTY;
    if front_is_one {
        return out;
    }
    let mut k = m;
    while k > 0 {
        k -= 1;
        out.push(rs[k], rd[k]);
    }
    out
}

/// `coalesce(A)`: the equivalent layout of least rank on the integers `0..|A|` (see the module docs).
pub const fn coalesce(a: &Layout) -> Layout {
    coalesce_flat(&Flat::of(a), false).to_layout()
}

/// `coalesce(A, profile)`: by-mode coalesce. The profile is a tiler-like tuple: where it has a tile
/// (an integer such as `1`), that (sub-)layout is coalesced whole; where it has `_`, the mode is left
/// untouched; where it is a tuple, the modes are treated one by one (modes of `A` beyond the
/// profile's rank are kept as they are). C++ writes the profile `Step<_1,_1>`, PyCuTe `(1, 1)` with
/// `None` for `_`; here `<1,1>`, `<_,1>`.
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
        tri!(b.push_node(
            Op::Coalesce,
            &r.tree,
            &r.shape,
            &r.stride,
            0,
            r.tree.len(),
            (0, 0)
        ));
        k += 1;
    }
    tri!(b.close(Op::Coalesce));
    Ok(Layout::from_valid(tri!(b.finish(Op::Coalesce))))
}

/// `filter_zeros(A)`: every stride-0 leaf gets shape 1; the profile is kept.
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
pub const fn filter(a: &Layout) -> Layout {
    coalesce(&filter_zeros(a))
}

/// `filter(A, profile)`: by-mode filter (the profile as in [`coalesce_profile`]).
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
        let (s, d) = (f.s[i], f.d[i]);
        // A size-1 mode followed by another mode contributes nothing, even past the size.
        while out.n > 0 && out.s[out.n - 1] == 1 {
            out.n -= 1;
            out.s[out.n] = 0;
            out.d[out.n] = 0;
        }
        let merges = out.n > 0
            && matches!(out.s[out.n - 1].checked_mul(out.d[out.n - 1]), Some(x) if x == d);
        if merges {
            // Cannot overflow: the product of all shapes of `a` fits (checked at construction).
            out.s[out.n - 1] *= s;
        } else {
            out.push(s, d);
        }
        i += 1;
    }
    out.to_layout()
}
