//! Sum of layouts (PyCuTe's `layout_add`) and the greatest common domain of two shapes (PyCuTe's
//! `greatest_common_domain`), the operations behind PyCuTe's composition with multi-term strides.
//!
//! `greatest_common_domain(S, T)` walks the leaves of the two shapes in order (size-1 leaves
//! skipped) and collects the factors they share *at the same offset*: a factor `g` found where both
//! walks have reached the offset `p` becomes the mode `g:p`. The result is a flat layout whose
//! strides are those offsets (`(1):(0)` when nothing is shared). When its size is the full size of
//! both shapes, it is a common refinement: every integer `i` below the size is
//! `Σ c_k·d_k` with `c_k < g_k`, and on that lattice every layout of either shape that has been
//! coalesced is linear.
//!
//! `layout_add(A, B)` is the layout `R` with `|R| = |A| = |B|` and `R(i) = A(i) + B(i)` for every
//! `i < |R|`. It exists here when the coalesced shapes of `A` and `B` have a common refinement `G`:
//! then `R = coalesce(shape(G) : (A(d_k) + B(d_k))_k)`.
//!
//! | call | result |
//! |---|---|
//! | `greatest_common_domain((10), (10))` | `(10):(1)` |
//! | `greatest_common_domain((16,3), (16,3))` | `(16,3):(1,16)` |
//! | `greatest_common_domain((5,3,4), (10,6))` | `(5,2):(1,30)` |
//! | `greatest_common_domain((6,35), (15,14))` | `(3,7):(1,30)` |
//! | `greatest_common_domain((5,3), (3,5))` | `(1):(0)` |
//! | `layout_add(12:1, 12:1)` | `12:2` |
//! | `layout_add(5:0, 5:1)` | `5:1` |
//! | `layout_add((4,3):(1,4), (4,3):(3,1))` | `(4,3):(4,5)` |
//! | `layout_add((5,3,4):(1,5,15), (10,6):(1,10))` | `60:2` |
//! | `layout_add(4:1, 8:1)` | error: the sizes differ |
//! | `layout_add((2,3):(1,10), (3,2):(1,10))` | error: no common refinement (the sums `0,2,12,21,31,33` are no layout) |
//!
//! ```
//! use cute::{greatest_common_domain, layout_add, IntTuple, Layout};
//! let t = |s: &str| s.parse::<IntTuple>().unwrap();
//! let g = greatest_common_domain(&t("(5,3,4)"), &t("(10,6)")).unwrap();
//! assert_eq!(g.to_string(), "(5,2):(1,30)");
//!
//! let a: Layout = "(4,3):(1,4)".parse().unwrap();
//! let b: Layout = "(4,3):(3,1)".parse().unwrap();
//! assert_eq!(layout_add(&a, &b).unwrap().to_string(), "(4,3):(4,5)");
//! ```

use super::coalesce::{coalesce, coalesce_flat, Flat};
use crate::arith::gcd;
use crate::error::{add, mul, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::{IntTuple, Tree, CAPACITY};
use crate::layout::Layout;

/// `greatest_common_domain(S, T)`: the in-order common factorisation of the shapes `S` and `T`, as
/// a flat layout `(g_0,g_1,...):(p_0,p_1,...)` (see the module docs), `(1):(0)` when they share no
/// factor at a common offset. Symmetric in `S` and `T`; its size divides `gcd(|S|, |T|)`.
///
/// ```
/// use cute::{greatest_common_domain, IntTuple};
/// let t = |s: &str| s.parse::<IntTuple>().unwrap();
/// let g = greatest_common_domain(&t("(6,35)"), &t("(15,14)")).unwrap();
/// assert_eq!(g.to_string(), "(3,7):(1,30)");
/// let g = greatest_common_domain(&t("(5,3)"), &t("(3,5)")).unwrap();
/// assert_eq!(g.to_string(), "(1):(0)"); // no factor shared at a common offset
/// ```
///
/// # Errors
///
/// `InvalidShape` for a leaf below 1, `Overflow` when an offset does not fit in `i64`.
pub const fn greatest_common_domain(s: &IntTuple, t: &IntTuple) -> Result<Layout, Error> {
    match common_domain(&s.val, s.tree.len(), &t.val, t.tree.len()) {
        Ok(f) => Ok(flat_tuple(&f)),
        Err(e) => Err(e.or_with(Operand::Tuple(*s), Operand::Tuple(*t))),
    }
}

/// The flat tuple layout of `f`, always parenthesised; `(1):(0)` when `f` is empty.
const fn flat_tuple(f: &Flat) -> Layout {
    if f.n == 0 {
        let mut shape = [0; CAPACITY];
        shape[0] = 1;
        return Layout::from_valid((Tree::flat(1, true), shape, [0; CAPACITY]));
    }
    Layout::from_valid((Tree::flat(f.n, true), f.s, f.d))
}

/// The walk of [`greatest_common_domain`] over the leaves `a[..na]` and `b[..nb]`.
///
/// State: `i`, `j` are the current leaves, `a_rest`/`b_rest` the part of them not yet matched, and
/// `pa`/`pb` the offsets (products of everything before) at which those remaining parts start.
const fn common_domain(
    a: &[i64; CAPACITY],
    na: usize,
    b: &[i64; CAPACITY],
    nb: usize,
) -> Result<Flat, Error> {
    const OP: Op = Op::GreatestCommonDomain;
    let mut k = 0;
    while k < na || k < nb {
        let bad = if k < na && a[k] < 1 {
            a[k]
        } else if k < nb && b[k] < 1 {
            b[k]
        } else {
            1
        };
        if bad < 1 {
            return Err(Error::new(OP, ErrorKind::InvalidShape { value: bad }));
        }
        k += 1;
    }
    let mut out = Flat::EMPTY;
    let (mut i, mut j) = (0, 0);
    let (mut pa, mut pb): (i64, i64) = (1, 1);
    let mut a_rest = if na > 0 { a[0] } else { 1 };
    let mut b_rest = if nb > 0 { b[0] } else { 1 };
    while i < na && j < nb {
        if a_rest == 1 {
            i += 1;
            if i < na {
                a_rest = a[i];
            }
            continue;
        }
        if b_rest == 1 {
            j += 1;
            if j < nb {
                b_rest = b[j];
            }
            continue;
        }
        // The first offset both walks can reach from where they stand: lcm(pa, pb).
        let l = tri!(mul(OP, pa / gcd(pa, pb), pb));
        let (ra, rb) = (l / pa, l / pb);
        if a_rest % ra == 0 && b_rest % rb == 0 {
            let g = gcd(a_rest / ra, b_rest / rb);
            if g != 1 {
                // The common refinement can have more modes than either operand.
                if out.n == CAPACITY {
                    return Err(Error::new(
                        OP,
                        ErrorKind::Capacity {
                            what: "number of modes of the common domain",
                            limit: CAPACITY,
                        },
                    ));
                }
                out.push(g, l);
                a_rest /= ra * g;
                b_rest /= rb * g;
                pa = tri!(mul(OP, l, g));
                pb = pa;
                continue;
            }
        }
        // Nothing shared here: move past the leaf that ends first (both if neither end divides
        // the other, or if they end together).
        let ea = tri!(mul(OP, pa, a_rest));
        let eb = tri!(mul(OP, pb, b_rest));
        let a_first = eb % ea == 0;
        let b_first = ea % eb == 0;
        if a_first || !b_first {
            pa = ea;
            i += 1;
            if i < na {
                a_rest = a[i];
            }
        }
        if b_first || !a_first {
            pb = eb;
            j += 1;
            if j < nb {
                b_rest = b[j];
            }
        }
    }
    Ok(out)
}

/// `layout_add(A, B)`: the layout `R` with `|R| = |A|` and `R(i) = A(i) + B(i)` for every
/// `i < |R|`, built on the greatest common domain of the coalesced operands and coalesced (see the
/// module docs). Symmetric in `A` and `B`.
///
/// ```
/// use cute::{layout_add, Layout};
/// let a: Layout = "(5,3,4):(1,5,15)".parse().unwrap();
/// let b: Layout = "(10,6):(1,10)".parse().unwrap();
/// assert_eq!(layout_add(&a, &b).unwrap().to_string(), "60:2");
/// let e = layout_add(&"4:1".parse().unwrap(), &"8:1".parse().unwrap()).unwrap_err();
/// assert_eq!(e.to_string(), "layout_add 4:1, 8:1: the sizes differ (4 vs 8)");
/// ```
///
/// # Errors
///
/// `ProfileMismatch` when `|A| ≠ |B|`; a divisibility error ([`ErrorKind::NoCommonRefinement`])
/// when the coalesced shapes of `A` and `B` have no common refinement (their greatest common domain
/// is smaller than `|A|`); `Overflow`.
pub const fn layout_add(a: &Layout, b: &Layout) -> Result<Layout, Error> {
    if let Err(e) = a.require_integral(crate::error::Op::LayoutAdd) {
        return Err(e);
    }
    if let Err(e) = b.require_integral(crate::error::Op::LayoutAdd) {
        return Err(e);
    }

    match add_impl(a, b) {
        Ok(r) => Ok(r),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::Layout(*b))),
    }
}

const fn add_impl(a: &Layout, b: &Layout) -> Result<Layout, Error> {
    const OP: Op = Op::LayoutAdd;
    let size = a.size();
    let size_b = b.size();
    if size != size_b {
        return Err(Error::new(
            OP,
            ErrorKind::ProfileMismatch {
                what: "the sizes differ",
                left: size,
                right: size_b,
            },
        ));
    }
    let ac = coalesce(a);
    let bc = coalesce(b);
    let g = match common_domain(&ac.shape, ac.tree.len(), &bc.shape, bc.tree.len()) {
        Ok(g) => g,
        Err(e) => return Err(e.retag(OP)),
    };
    let mut common: i64 = 1;
    let mut k = 0;
    while k < g.n {
        common *= g.s[k]; // divides |A|: cannot overflow
        k += 1;
    }
    if common != size {
        return Err(Error::new(
            OP,
            ErrorKind::NoCommonRefinement { common, size },
        ));
    }
    let mut r = Flat::EMPTY;
    let mut k = 0;
    while k < g.n {
        let va = match ac.eval(g.d[k]) {
            Ok(v) => v,
            Err(e) => return Err(e.retag(OP)),
        };
        let vb = match bc.eval(g.d[k]) {
            Ok(v) => v,
            Err(e) => return Err(e.retag(OP)),
        };
        r.push(g.s[k], tri!(add(OP, va, vb)));
        k += 1;
    }
    Ok(coalesce_flat(&r, false).to_layout())
}
