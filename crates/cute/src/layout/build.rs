//! Layouts written in place, mode by mode (see `algebra::coalesce::coalesce_into`): the size check
//! behind the invariant of [`Layout`], `push_layout!`, `check_size!`, the semimodule check of two
//! layouts that meet, and the builders of a mode and of a concatenation.

use super::repr::{Layout, BLANK};
use crate::error::{tri, Error, ErrorKind, Op};
use crate::int_tuple::build::{open_bracket, Builder};
use crate::int_tuple::CAPACITY;
use crate::stride::Semimodule;

/// The product of the shape leaves `shape[..n]` (each at least 1), or, when it does not fit in
/// `i64`, the [`ErrorKind::Overflow`] of `op` ("the size of the shape"): the check behind the
/// invariant of [`Layout`], for a builder that puts together leaves of valid layouts.
pub(crate) const fn checked_size(shape: &[i64; CAPACITY], n: usize, op: Op) -> Result<i64, Error> {
    let mut p: i64 = 1;
    let mut i = 0;
    while i < n {
        p = match p.checked_mul(shape[i]) {
            Some(x) => x,
            None => return Err(size_overflow(op)),
        };
        i += 1;
    }
    Ok(p)
}

/// The error of a layout whose size would not fit in `i64`.
#[cold]
pub(crate) const fn size_overflow(op: Op) -> Error {
    Error::new(
        op,
        ErrorKind::Overflow {
            what: "the size of the shape",
        },
    )
}

/// [`checked_size`] of the first `$n` leaves of a layout `$out` written in place: on overflow sets
/// `*$err` to the error of `$op` and returns `$out` from the enclosing function. A macro so that
/// `$out` is read through its fields, never borrowed (see `algebra::coalesce::coalesce_into`).
macro_rules! check_size {
    ($op:expr, $out:ident, $err:ident, $n:expr) => {{
        let n: usize = $n;
        let mut p: i64 = 1;
        let mut i = 0;
        while i < n {
            p = match p.checked_mul($out.shape[i]) {
                Some(x) => x,
                None => {
                    *$err = Err($crate::layout::size_overflow($op));
                    return $out;
                }
            };
            i += 1;
        }
    }};
}
pub(crate) use check_size;

/// [`Builder::push_node`] of a whole valid layout `$r` (or, with `mode lo..hi`,
/// [`Builder::push_mode`] of its top-level mode of leaves `[lo, hi)`, as
/// [`Tree::mode_end`](crate::int_tuple::Tree::mode_end) walks them) on a layout `$out` written in
/// place (counters `$n` leaves, `$pending` brackets, `$depth`), with the same checks and errors
/// (nesting depth, number of leaves, for `$op`); on failure sets `*$err` and returns `$out` from
/// the enclosing function. A macro so that `$out` is written through its fields, never borrowed
/// (see `algebra::coalesce::coalesce_into`).
macro_rules! push_layout {
    ($op:expr, $out:ident, $err:ident, $n:ident, $pending:ident, $depth:ident, $r:expr) => {{
        let r: &$crate::layout::Layout = $r;
        $crate::layout::push_layout!(
            @leaves $op, $out, $err, $n, $pending, $depth, r, 0, r.tree.len(), (0, 0)
        );
    }};
    ($op:expr, $out:ident, $err:ident, $n:ident, $pending:ident, $depth:ident, $r:expr, mode $lo:ident..$hi:ident) => {{
        let r: &$crate::layout::Layout = $r;
        let (lo, hi): (usize, usize) = ($lo, $hi);
        let adj = r.tree.mode_adjust(lo, hi);
        $crate::layout::push_layout!(
            @leaves $op, $out, $err, $n, $pending, $depth, r, lo, hi, adj
        );
    }};
    // Leaves `[lo, hi)` of `r` as one node, `adj.0` opening brackets of the first and `adj.1`
    // closing brackets of the last left out.
    (@leaves $op:expr, $out:ident, $err:ident, $n:ident, $pending:ident, $depth:ident,
     $r:ident, $lo:expr, $hi:expr, $adj:expr) => {{
        let (lo, hi, adj): (usize, usize, (u8, u8)) = ($lo, $hi, $adj);
        let mut i = lo;
        while i < hi {
            let opens = $r.tree.open[i] - if i == lo { adj.0 } else { 0 };
            let mut o = 0;
            while o < opens {
                if let Err(e) = $crate::int_tuple::build::open_bracket($op, &mut $pending, &mut $depth) {
                    *$err = Err(e);
                    return $out;
                }
                o += 1;
            }
            if $n >= $crate::int_tuple::CAPACITY {
                *$err = Err($crate::error::Error::new(
                    $op,
                    $crate::error::ErrorKind::Capacity {
                        what: "number of leaves",
                        limit: $crate::int_tuple::CAPACITY,
                    },
                ));
                return $out;
            }
            $out.tree.open[$n] = $pending;
            $pending = 0;
            $out.shape[$n] = $r.shape[i];
            $out.stride[$n] = $r.stride[i];
            $out.basis[$n] = $r.basis[i];
            $n += 1;
            let closes = $r.tree.close[i] - if i + 1 == hi { adj.1 } else { 0 };
            // `=`, not `+=`: the leaf is new, and its byte, which only the initial `memset` of
            // `$out` wrote, would be read back before that wide store has reached the cache
            // (a load it cannot be forwarded to, which waits).
            $out.tree.close[$n - 1] = closes;
            $depth -= closes as usize;
            i += 1;
        }
    }};
}
pub(crate) use push_layout;

/// Whether the strides of `x` and `y` may meet in one layout: the same semimodule, or one side all
/// zero (F2's zero `F0` also meets coordinate strides, as in PyCuTe, but not integer ones).
#[inline(always)]
pub(crate) const fn compatible(x: &Layout, y: &Layout) -> Result<(), Error> {
    if x.is_integral() && y.is_integral() {
        return Ok(());
    }
    compatible_semimodules(x, y)
}

/// [`compatible`] for layouts of which one has a stride that is not an integer.
#[cold]
const fn compatible_semimodules(x: &Layout, y: &Layout) -> Result<(), Error> {
    let (kx, ky) = (x.semimodule(), y.semimodule());
    let (zx, zy) = (!has_nonzero(x), !has_nonzero(y));
    let ok = match (kx, ky) {
        (Semimodule::Integer, Semimodule::Integer)
        | (Semimodule::Binary, Semimodule::Binary)
        | (Semimodule::Coordinate, Semimodule::Coordinate) => true,
        // an all-zero integer side meets anything
        (Semimodule::Integer, _) => zx,
        (_, Semimodule::Integer) => zy,
        // F2's zero meets coordinate strides
        (Semimodule::Binary, Semimodule::Coordinate) => zx,
        (Semimodule::Coordinate, Semimodule::Binary) => zy,
    };
    if ok {
        Ok(())
    } else {
        Err(Error::new(
            Op::Concatenation,
            ErrorKind::MixedSemimodules {
                left: kx,
                right: ky,
            },
        ))
    }
}

/// True when some stride of `l` is not zero.
const fn has_nonzero(l: &Layout) -> bool {
    let mut i = 0;
    while i < l.tree.len() {
        if l.stride[i] != 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// Mode `k` of `l` (what `parts::get` builds: the leaves of the mode with its own outer brackets
/// removed), or the error in `err`. Written only through the fields of `out`.
pub(crate) const fn mode_build(l: &Layout, k: usize, err: &mut Result<(), Error>) -> Layout {
    match l.tree.mode_range(k) {
        Some((lo, hi)) => mode_of_leaves(l, lo, hi),
        None => {
            *err = Err(Error::new(
                Op::Get,
                ErrorKind::OutOfRange {
                    index: k,
                    rank: l.tree.rank(),
                },
            ));
            BLANK
        }
    }
}

/// The top-level mode of `l` whose leaves are `[lo, hi)`, as [`Tree::mode_end`] walks them (a
/// caller walking the modes in order has the range already): [`mode_build`] without the search.
pub(crate) const fn mode_of_leaves(l: &Layout, lo: usize, hi: usize) -> Layout {
    let mut out = BLANK;
    out.tree = l.tree.mode_tree(lo, hi);
    let mut i = lo;
    while i < hi {
        out.shape[i - lo] = l.shape[i];
        out.stride[i - lo] = l.stride[i];
        out.basis[i - lo] = l.basis[i];
        i += 1;
    }
    out
}

/// `(L0, L1, ...)`, or the error in `err`, with the checks and errors of building it through
/// the `Builder`. Written only through the fields of `out`.
pub(super) const fn concat_build(modes: &[Layout], err: &mut Result<(), Error>) -> Layout {
    let mut out = BLANK;
    let (mut n, mut pending, mut depth): (usize, u8, usize) = (0, 0, 0);
    if let Err(e) = open_bracket(Op::Concatenation, &mut pending, &mut depth) {
        *err = Err(e);
        return out;
    }
    let mut k = 0;
    while k < modes.len() {
        push_layout!(Op::Concatenation, out, err, n, pending, depth, &modes[k]);
        k += 1;
    }
    if pending > 0 || n == 0 {
        *err = Err(Error::new(
            Op::Concatenation,
            ErrorKind::Unsupported {
                what: "empty tuples",
            },
        ));
        return out;
    }
    out.tree.close[n - 1] += 1;
    out.tree.n = n as u8;
    // the sizes of the modes multiply
    check_size!(Op::Concatenation, out, err, n);
    // (checked on the operands: borrowing `out` would keep it from being built in place)
    let mut k = 1;
    while k < modes.len() {
        let mut j = 0;
        while j < k {
            if let Err(e) = compatible(&modes[j], &modes[k]) {
                *err = Err(e);
                return out;
            }
            j += 1;
        }
        k += 1;
    }
    out
}

/// `(x, y)`, [`Layout::concat`] of two layouts without first copying them into an array, or the
/// error in `err` (the same checks and errors as [`concat_build`]). Written only through the
/// fields of `out`.
pub(crate) const fn concat_pair_build(
    x: &Layout,
    y: &Layout,
    err: &mut Result<(), Error>,
) -> Layout {
    let mut out = BLANK;
    let (mut n, mut pending, mut depth): (usize, u8, usize) = (0, 0, 0);
    if let Err(e) = open_bracket(Op::Concatenation, &mut pending, &mut depth) {
        *err = Err(e);
        return out;
    }
    push_layout!(Op::Concatenation, out, err, n, pending, depth, x);
    push_layout!(Op::Concatenation, out, err, n, pending, depth, y);
    // Never empty, nothing pending: a layout has at least one leaf.
    out.tree.close[n - 1] += 1;
    out.tree.n = n as u8;
    // `|x|·|y|`
    check_size!(Op::Concatenation, out, err, n);
    // (checked on the operands: borrowing `out` would keep it from being built in place)
    if let Err(e) = compatible(x, y) {
        *err = Err(e);
    }
    out
}

/// The layout-building methods of the tuple builder.
impl Builder {
    /// Appends the whole layout `l` (shape, stride and basis codes) as one node.
    pub(crate) const fn push_layout_node(&mut self, op: Op, l: &Layout) -> Result<(), Error> {
        let first = self.tree.n as usize;
        tri!(self.push_node(op, &l.tree, &l.shape, &l.stride, 0, l.tree.len(), (0, 0)));
        let mut i = 0;
        while i < l.tree.len() {
            self.c[first + i] = l.basis[i];
            i += 1;
        }
        Ok(())
    }

    /// The layout built: shapes `a`, strides `b`, basis codes `c` (checked to lie in one
    /// semimodule).
    pub(crate) const fn finish_layout(self, op: Op) -> Result<Layout, Error> {
        let c = self.c;
        let p = tri!(self.finish(op));
        // the leaves come from valid layouts: only their product (the nodes' sizes multiply) and
        // the codes need a look
        tri!(checked_size(&p.1, p.0.len(), op));
        let mut l = Layout::from_valid(p);
        let mut i = 0;
        while i < l.tree.len() {
            if c[i] != 0 {
                l.basis = c;
                tri!(l.normalize_basis(op));
                break;
            }
            i += 1;
        }
        Ok(l)
    }
}
