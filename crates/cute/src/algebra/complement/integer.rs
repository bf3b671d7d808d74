//! The integer kernel of the complement: the gaps of `filter(L)` for an integral layout, in the
//! paper's form or CuTe's (with a cotarget). The construction is described in the
//! [parent module](super); interleaved strides are checked for two indices that meet by the exact
//! search of [`geometry`](crate::geometry) (`find_collision`). The complements over the other
//! semimodules (`algebra::semimodule`) apply this kernel per axis.

use crate::algebra::coalesce::{coalesce_into_int, set_coalesced_tree};
use crate::arith::{ceil_div, div_rem, gcd};
use crate::error::{add, attempt, mul, Error, ErrorKind, Op, Operand};
use crate::geometry::find_collision;
use crate::int_tuple::{IntTuple, CAPACITY};
use crate::layout::Layout;
use crate::layout::BLANK;

/// The gaps of a chain, in one pass: reads the `$count` modes `$src_s:$src_d` (from the last with
/// `$rev`), drops those of size 1 or stride 0 (`filter`), and writes the gaps to `$s`, `$d` (which
/// may be the source: each gap is written at or before the mode it comes from) while the strides
/// kept come in increasing order and form a chain (every stride at least the extent before it).
///
/// Each gap follows from the mode that starts it and the extent `e` of the modes before it
/// (`e = 1` before the first): a mode `s:d` with `d > e` has the gap `⌊d / e⌋ : e` before it,
/// written unless it is 1 (a size-1 mode, which the final coalesce would drop: leaving it out
/// keeps room for the trailing mode), and one with `d = e` has none (`coalesce` would merge it
/// into the mode before it, whose `s·d` is `e`); either way the extent becomes `s·d`. So the
/// source may be leaves not yet coalesced, and the result is the same as on the modes of
/// `filter(L)`: when the leaves pass, in either order, their strides increase strictly, and the
/// stable sort of `filter(L)` by stride is that order.
///
/// Evaluates to `Some` of [`gaps!`]'s value when every mode passes. A stride below the extent
/// (out of order, equal strides, interleaved, negative) or an overflow gives `None`, with the slots
/// written so far cleared; the caller then takes a more general way, which decides those cases
/// (and reports the overflow) from the start.
macro_rules! chain_pass {
    ($src_s:expr, $src_d:expr, $count:expr, $rev:expr, $s:expr, $d:expr) => {{
        let count: usize = $count;
        let mut i = 0;
        let (mut e, mut w, mut holes, mut min_stride) = (1i64, 0usize, 0i64, false);
        let done = loop {
            if i == count {
                break true;
            }
            let l = if $rev { count - 1 - i } else { i };
            let (si, di) = ($src_s[l], $src_d[l]);
            if si == 1 || di == 0 {
                min_stride |= di == i64::MIN;
            } else {
                if di != e {
                    if di < e {
                        break false;
                    }
                    let (gap, hole) = div_rem(di, e);
                    if gap > 1 {
                        $s[w] = gap;
                        $d[w] = e;
                        w += 1;
                    }
                    holes += hole;
                }
                e = match di.checked_mul(si) {
                    Some(v) => v,
                    None => break false,
                };
            }
            i += 1;
        };
        if done {
            Some((w, e, if min_stride { None } else { Some(e - holes) }))
        } else {
            // (the next way starts from zero slots)
            while w > 0 {
                w -= 1;
                $s[w] = 0;
                $d[w] = 0;
            }
            None
        }
    }};
}

/// The gaps of `filter(L)`, computed in the place arrays `$s`, `$d` (zero on entry): the modes
/// `(d_k / c, c)` before each stride in increasing order (stable: leftmost first on ties), the
/// slots past them zero. Evaluates to `Ok((count, c, chain))` with `c` the extent covered at the
/// end, or the error.
///
/// Each way is tried when the one before it does not apply: [`chain_pass!`] on the leaves in
/// their order, then from the last; the modes of `filter(L)`, stably sorted by stride, and
/// `chain_pass!` on them; the groups of the module docs ([`grouped_gaps`]).
///
/// `chain` is `Some(covered)` when the strides of `filter(L)` form a chain of single-mode groups
/// (every stride at least the extent before it) and no stride of `L` is `i64::MIN` (whose
/// magnitude `cosize(L)` fails on), with `covered = cosize(L) + Σ (g_k − 1)·c_k` over the gaps
/// `g_k : c_k` (`c_k` the extent before mode `k`, `g_k = ⌊d_k / c_k⌋`). Then `(L, gaps)` lies in
/// `[0, c)`, and what it leaves out of the interval is the sum of the remainders: with
/// `covered_0 = 1 = c_0`, each mode adds `(g_k − 1)·c_k + (s_k − 1)·d_k`, so
/// `c_{k+1} − covered_{k+1} = s_k·d_k − covered_k − g_k·c_k + c_k − s_k·d_k + d_k
/// = (c_k − covered_k) + (d_k mod c_k)`, and `covered = c − Σ (d_k mod c_k)`, without overflow.
/// No two result modes merge: a gap's extent `g_k·c_k ≤ d_k` is below the stride
/// `c_{k+1} = s_k·d_k` (`s_k ≥ 2`) of every later gap and of the trailing mode. `chain` is `None`
/// otherwise, and the callers take the general way.
///
/// A macro so that the result layout can be the place written (see
/// [`coalesce_into`](crate::algebra::coalesce::coalesce_into)).
macro_rules! gaps {
    ($a:expr, $s:expr, $d:expr) => {
        'gaps: {
            let a: &Layout = $a;
            // (integer strides: the callers check)
            // (never past `CAPACITY`; said so that the reads need no bounds checks)
            let leaves = if a.tree.len() < CAPACITY {
                a.tree.len()
            } else {
                CAPACITY
            };
            // The common cases first, a chain read straight from the leaves: its strides in
            // increasing order of the leaves (column-major), or in decreasing order (row-major,
            // read from the last leaf).
            let mut pass = chain_pass!(a.shape, a.stride, leaves, false, $s, $d);
            if pass.is_none() {
                pass = chain_pass!(a.shape, a.stride, leaves, true, $s, $d);
            }
            if let Some((w, e, chain)) = pass {
                if w >= CAPACITY {
                    break 'gaps Err(gaps_capacity());
                }
                break 'gaps Ok((w, e, chain));
            }
            // The modes of `filter(L)` (`coalesce_into_int` with `filter`), each inserted where
            // its stride sorts as it is made (stable: after equal strides). A merge changes only
            // the shape of the mode made last (held in `last_s`, `last_d`, at slot `last`), so
            // the order stays sorted and is the stable sort of `filter(L)` by stride. The larger
            // modes are shifted up one by one: swapping neighbours instead lets the compiler
            // swap two shapes with one 16-byte load, which cannot be forwarded from the two
            // 8-byte stores that just wrote them and waits for them to reach the cache.
            //
            // A dropped leaf whose stride is `i64::MIN` is noted: its magnitude does not fit, so
            // `cosize(L)` fails and the chain's `covered` is not taken. (A kept one is negative,
            // or merged into a negative mode: the groups' path.)
            let mut n = 0;
            let mut min_stride = false;
            // (before the first mode, `0·0` matches no stride: zero strides are dropped)
            let (mut last, mut last_s, mut last_d) = (0, 0i64, 0i64);
            let mut i = 0;
            while i < leaves {
                let (si, di) = (a.shape[i], a.stride[i]);
                if si == 1 || di == 0 {
                    min_stride |= di == i64::MIN;
                } else if matches!(last_s.checked_mul(last_d), Some(x) if x == di) {
                    last_s *= si;
                    $s[last] = last_s;
                } else {
                    let mut j = n;
                    if j > 0 && $d[j - 1] > di {
                        // (tested apart: the common case, strides already in order, stays
                        // out of the loop)
                        while j > 0 && $d[j - 1] > di {
                            $s[j] = $s[j - 1];
                            $d[j] = $d[j - 1];
                            j -= 1;
                        }
                    }
                    $s[j] = si;
                    $d[j] = di;
                    (last, last_s, last_d) = (j, si, di);
                    n += 1;
                }
                i += 1;
            }
            // The sorted modes, a chain (every stride at least the extent before it)? Read in
            // place: each gap is written at or before the mode it comes from.
            let n = if n < CAPACITY { n } else { CAPACITY }; // (as `leaves`)
            if let Some((w, e, chain)) = chain_pass!($s, $d, n, false, $s, $d) {
                let mut k = w;
                while k < n {
                    $s[k] = 0;
                    $d[k] = 0;
                    k += 1;
                }
                if w >= CAPACITY {
                    break 'gaps Err(gaps_capacity());
                }
                break 'gaps Ok((w, e, if min_stride { None } else { chain }));
            }
            // A negative stride, one inside the extent before it, or an overflow: the groups.
            // (Built in arrays of their own and copied: handing the result's fields to a
            // function would keep them in memory on the chain paths too.)
            let (mut gs, mut gd) = ([0i64; CAPACITY], [0i64; CAPACITY]);
            match grouped_gaps(a, &mut gs, &mut gd) {
                Ok((g, c)) => {
                    let mut i = 0;
                    while i < n {
                        $s[i] = gs[i];
                        $d[i] = gd[i];
                        i += 1;
                    }
                    Ok((g, c, None))
                }
                Err(e) => Err(e),
            }
        }
    };
}

/// The error of a complement with no room for its trailing mode. Out of line (see
/// [`product_overflow`]).
#[cold]
#[inline(never)]
const fn gaps_capacity() -> Error {
    Error::new(
        Op::Complement,
        ErrorKind::Capacity {
            what: "number of modes of a complement",
            limit: CAPACITY,
        },
    )
}

/// The error of [`mul`] in the complement (`Op::Complement`, a product overflows). Out of line, so
/// that the loops that may fail with it keep nothing for it.
#[cold]
#[inline(never)]
const fn product_overflow() -> Error {
    Error::new(Op::Complement, ErrorKind::Overflow { what: "a product" })
}

/// [`gaps!`] for strides that interleave or are negative: the groups of the module docs, written
/// to `s`, `d` (recomputed from `a`). Evaluates to the number of gaps and the last extent.
const fn grouped_gaps(
    a: &Layout,
    s: &mut [i64; CAPACITY],
    d: &mut [i64; CAPACITY],
) -> Result<(usize, i64), Error> {
    'gaps: {
        let n = coalesce_into_int!(a.tree.len(), a.shape, a.stride, false, true, s, d);
        // A mode `s:-d` reaches the offsets of `s:d` shifted by `-(s-1)·d`, and a shift of
        // `L` changes neither (16) nor the injectivity of `(L, L*)`: the strides count by
        // their magnitude.
        let mut i = 0;
        while i < n {
            if d[i] < 0 {
                if d[i] == i64::MIN {
                    break 'gaps Err(Error::new(
                        Op::Complement,
                        ErrorKind::Overflow {
                            what: "the magnitude of a stride",
                        },
                    ));
                }
                d[i] = -d[i];
            }
            i += 1;
        }
        // Stable insertion sort by stride. The mode being inserted is held in registers and
        // the larger ones are shifted up one by one: swapping neighbours instead lets the
        // compiler swap two shapes with one 16-byte load, which cannot be forwarded from
        // the two 8-byte stores that just wrote them and waits for them to reach the cache.
        let mut i = 1;
        while i < n {
            let (si, di) = (s[i], d[i]);
            let mut j = i;
            while j > 0 && d[j - 1] > di {
                s[j] = s[j - 1];
                d[j] = d[j - 1];
                j -= 1;
            }
            if j < i {
                s[j] = si;
                d[j] = di;
            }
            i += 1;
        }
        // The groups (see the module docs), a stack: `gg` the gcd of a group's strides, `gs`
        // the largest offset its modes reach (`Σ (s-1)·d`), `ge` its extent `gs + gg`.
        let (mut gg, mut gs, mut ge) = ([0i64; CAPACITY], [0i64; CAPACITY], [0i64; CAPACITY]);
        let mut top = 0usize;
        let mut interleaved = false;
        let mut k = 0;
        while k < n {
            let (sk, dk) = (s[k], d[k]);
            let reach = match mul(Op::Complement, sk - 1, dk) {
                Ok(v) => v,
                Err(e) => break 'gaps Err(e),
            };
            if top > 0 && dk < ge[top - 1] {
                // The stride falls inside the extent of the group before it: the modes
                // interleave and join one group.
                interleaved = true;
                let t = top - 1;
                gg[t] = gcd(gg[t], dk);
                gs[t] = match add(Op::Complement, gs[t], reach) {
                    Ok(v) => v,
                    Err(e) => break 'gaps Err(e),
                };
                ge[t] = match add(Op::Complement, gs[t], gg[t]) {
                    Ok(v) => v,
                    Err(e) => break 'gaps Err(e),
                };
                // A group whose gcd falls below the extent of the group before it takes
                // that group in too.
                while top >= 2 && gg[top - 1] < ge[top - 2] {
                    let (b, t) = (top - 2, top - 1);
                    gg[b] = gcd(gg[b], gg[t]);
                    gs[b] = match add(Op::Complement, gs[b], gs[t]) {
                        Ok(v) => v,
                        Err(e) => break 'gaps Err(e),
                    };
                    ge[b] = match add(Op::Complement, gs[b], gg[b]) {
                        Ok(v) => v,
                        Err(e) => break 'gaps Err(e),
                    };
                    top -= 1;
                }
            } else {
                gg[top] = dk;
                gs[top] = reach;
                ge[top] = match mul(Op::Complement, dk, sk) {
                    Ok(v) => v,
                    Err(e) => break 'gaps Err(e),
                };
                top += 1;
            }
            k += 1;
        }
        // The construction needs `filter(L)` injective, which a chain of groups of one mode
        // each is; interleaved modes are searched for two indices that meet.
        if interleaved {
            match find_collision(a, Op::Complement) {
                Ok(None) => {}
                Ok(Some((first, second))) => {
                    break 'gaps Err(Error::new(
                        Op::Complement,
                        ErrorKind::Collision { first, second },
                    ))
                }
                Err(e) => break 'gaps Err(e),
            }
        }
        // The gap before group `t`: `⌊g_t / e_{t-1}⌋ : e_{t-1}` (`e_{-1} = 1`). A gap of 1 is a
        // size-1 mode, which the final coalesce drops: leaving it out keeps room for the
        // trailing mode.
        let mut cur: i64 = 1;
        let mut w = 0;
        let mut t = 0;
        while t < top {
            let gap = div_rem(gg[t], cur).0;
            if gap > 1 {
                s[w] = gap;
                d[w] = cur;
                w += 1;
            }
            cur = ge[t];
            t += 1;
        }
        let g = w;
        while w < n {
            s[w] = 0;
            d[w] = 0;
            w += 1;
        }
        if g >= CAPACITY {
            break 'gaps Err(gaps_capacity());
        }
        Ok((g, cur))
    }
}

/// Appends the mode `$s0:$d0` after the `$n` gaps in `$out` and coalesces the `$n + 1` modes in
/// place (each result mode is written at or before the modes it is read from), zeroing the slots
/// freed; sets the tree (CuTe's printed form). Evaluates to the number of modes.
///
/// `$chain` is the third value of [`gaps!`]: when it is `Some`, no two modes merge (see there),
/// and the coalesce reduces to dropping a trailing mode of size 1 without `$keep_last`.
macro_rules! finish_gaps {
    ($out:ident, $n:expr, $s0:expr, $d0:expr, $keep_last:expr, $chain:expr) => {{
        let n: usize = $n;
        let (s0, d0): (i64, i64) = ($s0, $d0);
        let m = if $chain.is_some() {
            if s0 != 1 || $keep_last {
                $out.shape[n] = s0;
                $out.stride[n] = d0;
                n + 1
            } else {
                n
            }
        } else {
            $out.shape[n] = s0;
            $out.stride[n] = d0;
            let m = coalesce_into_int!(
                n + 1,
                $out.shape,
                $out.stride,
                $keep_last,
                false,
                $out.shape,
                $out.stride
            );
            let mut k = m;
            while k <= n {
                $out.shape[k] = 0;
                $out.stride[k] = 0;
                k += 1;
            }
            m
        };
        set_coalesced_tree!($out, m);
        // The zero bracket counts are written too: a complement is often read right away (a
        // divide concatenates it), and a byte that only the initial `memset` wrote cannot be
        // forwarded to that read, which then waits for the whole `memset` to reach the cache.
        let leaves = $out.tree.len();
        if leaves == 1 {
            $out.tree.open[0] = 0;
            $out.tree.close[0] = 0;
        }
        let mut k = 1;
        while k < leaves {
            $out.tree.open[k] = 0;
            $out.tree.close[k - 1] = 0;
            k += 1;
        }
        m
    }};
}

/// [`complement`](super::complement) of an integral layout (the caller checks `a.is_integral()`).
#[inline]
pub(crate) const fn complement_integral(a: &Layout) -> Result<Layout, Error> {
    // `r` is the only value returned and is never borrowed, so it is the return place, and the
    // layout is built straight into it (see `coalesce_into`).
    let mut err = Ok(());
    let mut r = Ok(complement_build(a, &mut err));
    if let Err(e) = err {
        r = Err(e.or_with(Operand::Layout(*a), Operand::None));
    }
    r
}

/// `complement(L)`, or on failure the error in `err`: the gaps, then `1:c`, coalesced. The result
/// is written only through the fields of `out` (see `coalesce_into`).
const fn complement_build(a: &Layout, err: &mut Result<(), Error>) -> Layout {
    let mut out = BLANK;
    let (n, cur, chain) = attempt!(err, out, gaps!(a, out.shape, out.stride));
    finish_gaps!(out, n, 1, cur, true, chain);
    out
}

/// [`complement_to`](super::complement_to) of an integral layout (the caller checks
/// `a.is_integral()`).
#[inline]
pub(crate) const fn complement_to_integral(
    a: &Layout,
    cotarget: &IntTuple,
) -> Result<Layout, Error> {
    let mut err = Ok(());
    let leaves = cotarget.val.split_at(cotarget.tree.len()).0;
    let mut r = Ok(integral_complement_to_build::<false>(
        a, leaves, false, &mut false, &mut err,
    ));
    if let Err(e) = &err {
        r = with_operands(e, a, cotarget);
    }
    r
}

/// The error `e` of [`complement_to_integral`] with its operands. Out of line, so that the
/// success path keeps no registers for it.
#[cold]
#[inline(never)]
const fn with_operands(e: &Error, a: &Layout, cotarget: &IntTuple) -> Result<Layout, Error> {
    Err(e.or_with(Operand::Layout(*a), Operand::Tuple(*cotarget)))
}

/// `complement(L, M)`, or on failure the error in `err` (see [`complement_build`]), for the
/// cotarget given by its leaves (a shape's leaves, or one integer): only they matter.
///
/// `tiles` is set when `(L, L*)` is known to be onto `[0, |L|·|L*|)` without a walk: the strides
/// of `L` form a chain of divisible strides (see [`gaps!`]: no holes), so that `(L, gaps)` tiles
/// `[0, cur)` and the rest's translates tile the rest. It is left alone otherwise (the answer is
/// then open, not no).
pub(crate) const fn complement_to_build(
    a: &Layout,
    cotarget: &[i64],
    extended: bool,
    tiles: &mut bool,
    err: &mut Result<(), Error>,
) -> Layout {
    if !a.is_integral() {
        *err = Err(a.needs_integer_strides(Op::Complement));
        return BLANK;
    }
    integral_complement_to_build::<true>(a, cotarget, extended, tiles, err)
}

/// [`complement_to_build`] for a layout the caller knows to be integral; `tiles` is written only
/// with `TILES` (a caller that does not ask pays nothing for it). Never inlined: inlined into
/// [`complement_to_integral`], its result was built in a local and copied out.
#[inline(never)]
const fn integral_complement_to_build<const TILES: bool>(
    a: &Layout,
    cotarget: &[i64],
    extended: bool,
    tiles: &mut bool,
    err: &mut Result<(), Error>,
) -> Layout {
    let mut out = BLANK;
    let gaps = gaps!(a, out.shape, out.stride);
    let cur = match &gaps {
        Ok((_, c, _)) => *c,
        Err(_) => 1, // (the error is reported below, after the cotarget's)
    };
    // One pass over the cotarget's leaves: each is checked, multiplied into the cotarget's size
    // `target` (`IntTuple::size`), and into `rest = ceil_div(cotarget, cur)` (CuTe's fold over
    // the leaves). The errors are reported in the order of the steps they belong to: a leaf
    // below 1, an overflow of the size, the gaps' error, an overflow of the rest.
    let (mut target, mut rest_shape, mut r) = (1i64, 1i64, cur);
    let (mut target_overflow, mut rest_overflow) = (false, false);
    let mut i = 0;
    while i < cotarget.len() {
        let c = cotarget[i];
        if c < 1 {
            *err = Err(Error::new(
                Op::Complement,
                ErrorKind::InvalidShape { value: c },
            ));
            return out;
        }
        match target.checked_mul(c) {
            Some(t) => target = t,
            None => target_overflow = true,
        }
        match rest_shape.checked_mul(ceil_div(c, r)) {
            Some(t) => rest_shape = t,
            None => rest_overflow = true,
        }
        i += 1;
        if i < cotarget.len() {
            r = ceil_div(r, c); // (not needed after the last leaf)
        }
    }
    if target_overflow {
        *err = Err(Error::new(
            Op::MakeLayout,
            ErrorKind::Overflow { what: "a product" },
        ));
        return out;
    }
    let (n, cur, chain) = attempt!(err, out, gaps);
    if rest_overflow {
        *err = Err(product_overflow());
        return out;
    }
    // The concatenation (L, L*) must reach the cotarget: `cosize(L) + Σ (g_k − 1)·c_k` with the
    // gaps, plus `(rest − 1)·cur`. A chain of divisible strides always reaches it with CuTe's
    // rest; otherwise the rest takes as many more steps of `cur` as the cotarget needs (each
    // step is a translate of the block `(L, gaps)`, disjoint from the others).
    let mut covered = match chain {
        Some(c) => {
            // (summed by `gaps!`; `c = cur` when there are no holes)
            if TILES && c == cur {
                *tiles = true;
            }
            c
        }
        None => {
            let mut covered = attempt!(err, out, a.integral_cosize());
            let mut k = 0;
            while k < n {
                let t = attempt!(
                    err,
                    out,
                    mul(Op::Complement, out.shape[k] - 1, out.stride[k])
                );
                covered = attempt!(err, out, add(Op::Complement, covered, t));
                k += 1;
            }
            covered
        }
    };
    let t = match (rest_shape - 1).checked_mul(cur) {
        Some(t) => t,
        None => {
            *err = Err(product_overflow());
            return out;
        }
    };
    // (`covered`, `t ≥ 0`: past i64::MAX certainly reaches the cotarget)
    let short = match covered.checked_add(t) {
        Some(c) if c < target => {
            covered = c;
            true
        }
        _ => false,
    };
    if short {
        rest_shape = attempt!(
            err,
            out,
            add(Op::Complement, rest_shape, ceil_div(target - covered, cur))
        );
        // (the rest's last offset, `(rest − 1)·cur`, must fit)
        attempt!(err, out, mul(Op::Complement, rest_shape - 1, cur));
    }
    // With `extended`, a rest of size 1 keeps its stride `cur` (the paper's trailing mode): the
    // complement is then also right past its size, where a composition (a product's `A* ∘ B`)
    // evaluates it. C++'s form drops it, which only agrees on `Z_|L*|`.
    let rest_stride = if rest_shape == 1 && !extended { 0 } else { cur };
    finish_gaps!(out, n, rest_shape, rest_stride, extended, chain);
    out
}
