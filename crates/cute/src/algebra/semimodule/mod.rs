//! Complement, right and left inverse for layouts whose strides are coordinate bases (`Z^S`) or
//! binary (F2) values.
//!
//! A coordinate codomain is a tuple of axes (the layout's *coprofile*: the union of the basis paths
//! of its strides, `(4,(4,2)):(1@1,(1@0,6@1))` has axes `(_,_)`). The paper reduces each operation
//! to one integer problem per axis: the modes whose stride scales `e_i`, with the coefficients as
//! integer strides. The per-axis results are concatenated following the coprofile, as PyCuTe does.
//!
//! | `L` | operation | result |
//! |---|---|---|
//! | `(4,(4,2)):(1@1,(1@0,6@1))` | `right_inverse` | `(4,4):(4,1)` |
//! | `(4,(4,2)):(1@1,(1@0,6@1))` | `left_inverse` | `(4,(6,2)):(4,(1,16))` |
//! | `(4,(4,2)):(1@1,(1@0,12@1))` | `complement` | `(1,(3,1)):(4@0,(4@1,24@1))` |
//! | `(8,8):(F9,F1)` | `right_inverse` | `(8,8):(F8,F9)` |
//! | `(2,2):(3@0,2@0)` | `left_inverse` | `((2,3)):((-1,2))` |
//! | `(4,4):(F1,F5)` | `left_inverse` | `(4,4):(F1,F5)` |
//! | `(2,2):(F1,F4)` | `complement` | `(2,1):(F2,F8)` |
//!
//! * `complement`: per axis, the paper's form (gaps, then a trailing size-1 mode), its strides
//!   scaled by the axis's basis.
//! * `right_inverse`: per axis, the modes whose coefficient continues the chain `1, s_0, s_0·s_1, …`,
//!   each contributing its weight in the integer domain. Over F2 a mode may also carry a component
//!   already spanned by the chain (XOR permutes it), as long as it stays inside the covered range;
//!   then its weight is corrected by the domain index of that component (PyCuTe's rule).
//! * `left_inverse`: per axis, the gaps between the sorted coefficients become extents (PyCuTe's
//!   rule). Where they fail, a coordinate axis is the integer left inverse of its projection (the
//!   axis's coefficients, 0 on the other modes: exact, see `projection`), and a binary layout is
//!   decided by linear algebra over GF(2) (`f2_linear`) when its extents are powers of two; other
//!   binary layouts of at most 1024 indices are evaluated (a collision, or a candidate checked at
//!   every index), and the rest refused saying what was searched.
//! * `complement` of a binary layout: a basis completion over GF(2) (`f2_linear`).

mod projection;

use super::coalesce::{coalesce_z, Flat};
use crate::error::{mul, tri, Error, ErrorKind, Op, Operand};
use crate::int_tuple::IntTuple;
use crate::int_tuple::CAPACITY;
use crate::layout::Layout;
use crate::stride::ops::clmul;
use crate::stride::{decode_path, Code, Semimodule, BINARY};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    Complement,
    Right,
    Left,
}

/// `complement(L)` for coordinate strides (binary strides have no ordered complement).
pub(crate) const fn complement_semimodule(a: &Layout) -> Result<Layout, Error> {
    if matches!(a.semimodule(), Semimodule::Binary) {
        let r = match super::f2_linear::complement_f2(a, None) {
            Some(r) => r,
            None => match super::f2_linear::complement_small(a) {
                Some(r) => r,
                None => Err(Error::new(
                Op::Complement,
                ErrorKind::Unsupported {
                    what: "a complement of binary (F2) strides with an extent that is not a power \
                           of two (the layout is then not linear over GF(2), where the complement \
                           is a basis completion; layouts of at most 1024 indices get the \
                           trailing mode alone)",
                    },
                )),
            },
        };
        return with_operand(r, a);
    }
    with_operand(by_axes(a, Which::Complement, Op::Complement), a)
}

/// `complement(L, M)` for coordinate strides: the cotarget `M` is a tuple with a mode per axis
/// (at least as many as the layout's codomain has); axis `i` is CuTe's integer complement of the
/// axis's modes with cotarget `M_i`, its strides on `e_i`; a mode of `M` beyond the codomain's axes
/// is the compact layout `M_i : e_i` (PyCuTe's `complement(A, extend)`). Nested axes (`e_(i,j)`)
/// and binary strides are refused.
pub(crate) const fn complement_to_semimodule(a: &Layout, m: &IntTuple) -> Result<Layout, Error> {
    let op = Op::Complement;
    if matches!(a.semimodule(), Semimodule::Binary) {
        let Some(to) = m.as_int() else {
            return Err(unsupported(
                a,
                m,
                "a shape as the cotarget of binary (F2) strides (their codomain is one number: \
                 give an integer)",
            ));
        };
        let r = match super::f2_linear::complement_f2(a, Some(to)) {
            Some(r) => r,
            None => Err(Error::new(
                Op::Complement,
                ErrorKind::Unsupported {
                    what: "a complement of binary (F2) strides with an extent that is not a power \
                           of two (the layout is then not linear over GF(2), where the complement \
                           is a basis completion)",
                },
            )),
        };
        return match r {
            Ok(l) => Ok(l),
            Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::Tuple(*m))),
        };
    }
    if m.is_int() {
        return Err(unsupported(
            a,
            m,
            "an integer cotarget for a coordinate codomain: give a shape with a mode per axis",
        ));
    }
    // the axes: the top-level basis indices of the strides (paths of one entry only)
    let mut axes = 0usize;
    let mut i = 0;
    while i < a.tree.len() {
        if a.stride[i] != 0 {
            if code_len(a.basis[i]) != 1 {
                return Err(unsupported(
                    a,
                    m,
                    "a complement with a cotarget for nested coordinate strides e_(i,j)",
                ));
            }
            let k = code_at(a.basis[i], 0) + 1;
            if k > axes {
                axes = k;
            }
        }
        i += 1;
    }
    let r = m.rank();
    if r < axes {
        return Err(Error::new(
            op,
            ErrorKind::ProfileMismatch {
                what: "the cotarget has fewer modes than the codomain has axes",
                left: r as i64,
                right: axes as i64,
            },
        )
        .with(Operand::Layout(*a), Operand::Tuple(*m)));
    }
    let mut acc = Layout::TRIVIAL;
    let mut k = 0;
    while k < r {
        let mk = tri!(m.get(k));
        let code = (k + 1) as Code;
        // the axis's modes as an integer layout (`1:0` when none)
        let mut f = super::coalesce::Flat::EMPTY;
        let mut w = [0i64; CAPACITY];
        let mut pp: i64 = 1;
        let mut i = 0;
        while i < a.tree.len() {
            if a.stride[i] != 0 && a.basis[i] == code {
                w[f.n] = pp;
                f.push(a.shape[i], a.stride[i]);
            }
            pp = pp.saturating_mul(a.shape[i]);
            i += 1;
        }
        let part = if k < axes {
            match super::complement::integer::complement_to_integral(&f.to_layout(), &mk) {
                Ok(p) => p,
                Err(e) => {
                    return Err(remap_collision(e, &f.s, &w, f.n)
                        .with(Operand::Layout(*a), Operand::Tuple(*m)))
                }
            }
        } else {
            tri!(crate::layout::compact_col_major(&mk))
        };
        // onto e_k
        let mut l = part;
        let mut j = 0;
        while j < l.tree.len() {
            if l.stride[j] != 0 {
                l.basis[j] = code;
            }
            j += 1;
        }
        acc = tri!(with_mode(&acc, k, &l));
        k += 1;
    }
    Ok(acc)
}

/// `acc` with `l` as its mode `k`: the 1-tuple `(l)` for `k = 0`, else `l` appended.
const fn with_mode(acc: &Layout, k: usize, l: &Layout) -> Result<Layout, Error> {
    if k == 0 {
        Layout::concat(&[*l])
    } else {
        acc.append(l)
    }
}

const fn unsupported(a: &Layout, m: &IntTuple, what: &'static str) -> Error {
    Error::new(Op::Complement, ErrorKind::Unsupported { what })
        .with(Operand::Layout(*a), Operand::Tuple(*m))
}

/// `right_inverse(L)` for coordinate or binary strides.
pub(crate) const fn right_inverse_semimodule(a: &Layout) -> Result<Layout, Error> {
    let r = match a.semimodule() {
        Semimodule::Binary => right_inverse_binary(a),
        _ => by_axes(a, Which::Right, Op::RightInverse),
    };
    with_operand(r, a)
}

/// `left_inverse(L)` for coordinate or binary strides.
pub(crate) const fn left_inverse_semimodule(a: &Layout) -> Result<Layout, Error> {
    let r = match a.semimodule() {
        Semimodule::Binary => {
            let mut all = tri!(binary_axis(a));
            match left_axis(&mut all, true) {
                Ok(r) => Ok(r),
                // PyCuTe's gaps fail: decided exactly over GF(2) where the layout is linear
                Err(e) => match super::f2_linear::left_inverse_f2(a) {
                    Some(r) => r,
                    None => match super::f2_linear::left_inverse_small(a) {
                        Some(r) => r,
                        // a bijection's right inverse is two-sided
                        None => match right_inverse_binary(a) {
                            Ok(r) if super::f2_linear::satisfies_left_law(a, &r) => Ok(r),
                            _ => Err(not_linear(e)),
                        },
                    },
                },
            }
        }
        _ => match by_axes(a, Which::Left, Op::LeftInverse) {
            Ok(l) => Ok(l),
            Err(e) => Err(projection::name_leaf(e, a)),
        },
    };
    with_operand(r, a)
}

/// The refusal of a binary left inverse that is not linear over GF(2): what was searched.
const fn not_linear(e: Error) -> Error {
    match e.kind() {
        ErrorKind::Collision { .. } => e,
        _ => Error::new(
            Op::LeftInverse,
            ErrorKind::Unsupported {
                what:
                    "a left inverse of binary (F2) strides with an extent that is not a power of \
                       two (the layout is not linear over GF(2), where the question is decided \
                       exactly); searched: PyCuTe's gap construction, and for layouts of at most \
                       1024 indices a collision, the integer left inverse of the strides read as \
                       integers and the right inverse, each checked at every index; none applies",
            },
        ),
    }
}

const fn with_operand(r: Result<Layout, Error>, a: &Layout) -> Result<Layout, Error> {
    match r {
        Ok(l) => Ok(l),
        Err(e) => Err(e.or_with(Operand::Layout(*a), Operand::None)),
    }
}

/// The leaves of a layout with their codes and integer-domain weights (prefix products).
#[derive(Clone, Copy)]
struct Leaves {
    n: usize,
    s: [i64; CAPACITY],
    d: [i64; CAPACITY],
    b: [Code; CAPACITY],
    p: [i64; CAPACITY],
}

const fn leaves_of(l: &Layout) -> Result<Leaves, Error> {
    let mut out = Leaves {
        n: l.tree.len(),
        s: l.shape,
        d: l.stride,
        b: l.basis,
        p: [0; CAPACITY],
    };
    let mut p: i64 = 1;
    let mut i = 0;
    while i < out.n {
        out.p[i] = p;
        p = tri!(mul(Op::Eval, p, out.s[i]));
        i += 1;
    }
    Ok(out)
}

/// PyCuTe's `_coalesce_z` of the leaves (same function on the whole extended domain).
const fn coalesce_z_flat(a: &Layout) -> Result<Layout, Error> {
    Ok(coalesce_z(&a.flatten()))
}

/// The modes of one axis: shape, coefficient, weight.
#[derive(Clone, Copy)]
struct Axis {
    n: usize,
    s: [i64; CAPACITY],
    d: [i64; CAPACITY],
    p: [i64; CAPACITY],
}

impl Axis {
    const EMPTY: Axis = Axis {
        n: 0,
        s: [0; CAPACITY],
        d: [0; CAPACITY],
        p: [0; CAPACITY],
    };

    const fn push(&mut self, s: i64, d: i64, p: i64) {
        self.s[self.n] = s;
        self.d[self.n] = d;
        self.p[self.n] = p;
        self.n += 1;
    }

    /// Stable insertion sort by coefficient (with `full`, by `(d, s, p)` as PyCuTe's tuple sort).
    const fn sort(&mut self, full: bool) {
        let mut i = 1;
        while i < self.n {
            let (s, d, p) = (self.s[i], self.d[i], self.p[i]);
            let mut j = i;
            while j > 0 && after(self.d[j - 1], self.s[j - 1], self.p[j - 1], d, s, p, full) {
                self.s[j] = self.s[j - 1];
                self.d[j] = self.d[j - 1];
                self.p[j] = self.p[j - 1];
                j -= 1;
            }
            self.s[j] = s;
            self.d[j] = d;
            self.p[j] = p;
            i += 1;
        }
    }
}

/// `(d0, s0, p0) > (d1, s1, p1)` (only `d` unless `full`).
#[allow(clippy::too_many_arguments)]
const fn after(d0: i64, s0: i64, p0: i64, d1: i64, s1: i64, p1: i64, full: bool) -> bool {
    if d0 != d1 || !full {
        return d0 > d1;
    }
    if s0 != s1 {
        return s0 > s1;
    }
    p0 > p1
}

/// The number of entries of a path code.
const fn code_len(code: Code) -> usize {
    decode_path(code).1
}

/// The first `depth` entries of a path code.
const fn code_prefix(code: Code, depth: usize) -> Code {
    if depth == 0 {
        0
    } else {
        code & ((1 << (6 * depth)) - 1)
    }
}

/// Entry `j` of a path code.
const fn code_at(code: Code, j: usize) -> usize {
    (((code >> (6 * j)) & 63) - 1) as usize
}

/// The operation on each axis of the coprofile of `a`, concatenated following the coprofile.
const fn by_axes(a: &Layout, which: Which, op: Op) -> Result<Layout, Error> {
    if matches!(a.semimodule(), Semimodule::Binary) {
        return Err(Error::new(
            op,
            ErrorKind::NeedsIntegerStrides {
                found: Semimodule::Binary,
            },
        ));
    }
    // complement reads the leaves as they are; the inverses read PyCuTe's coalesced form
    let l = if matches!(which, Which::Complement) {
        a.flatten()
    } else {
        tri!(coalesce_z_flat(a))
    };
    let f = tri!(leaves_of(&l));
    // the axes are those of `a` itself (PyCuTe's coprofile), even where coalescing removed a
    // size-1 mode: that axis then has no modes
    let st = tri!(leaves_of(&a.flatten()));
    node(&st, &f, 0, 0, which, op)
}

/// The result at the coprofile node `prefix` (a path of `depth` entries).
const fn node(
    st: &Leaves,
    f: &Leaves,
    prefix: Code,
    depth: usize,
    which: Which,
    op: Op,
) -> Result<Layout, Error> {
    let mut exact = false;
    let mut rank = 0usize;
    let mut i = 0;
    while i < st.n {
        if st.d[i] != 0 && st.b[i] > 0 && code_prefix(st.b[i], depth) == prefix {
            let len = code_len(st.b[i]);
            if len == depth {
                exact = true;
            } else {
                let j = code_at(st.b[i], depth) + 1;
                if j > rank {
                    rank = j;
                }
            }
        }
        i += 1;
    }
    if exact && rank > 0 {
        return Err(Error::new(
            op,
            ErrorKind::Unsupported {
                what: "strides e_i and e_(i,j) in one layout (a codomain axis both a number and a tuple)",
            },
        ));
    }
    if rank == 0 {
        return axis(f, prefix, which);
    }
    let mut acc = Layout::TRIVIAL;
    let mut j = 0;
    while j < rank {
        let child = tri!(node(
            st,
            f,
            prefix | ((j as Code + 1) << (6 * depth)),
            depth + 1,
            which,
            op
        ));
        acc = tri!(with_mode(&acc, j, &child));
        j += 1;
    }
    Ok(acc)
}

/// The operation on the axis with basis code `code` (`0` for an integer codomain).
const fn axis(f: &Leaves, code: Code, which: Which) -> Result<Layout, Error> {
    let mut ax = Axis::EMPTY;
    let mut i = 0;
    while i < f.n {
        if f.d[i] != 0 && f.b[i] == code {
            ax.push(f.s[i], f.d[i], f.p[i]);
        }
        i += 1;
    }
    match which {
        Which::Complement => complement_axis(&mut ax, code),
        Which::Right => right_axis(&mut ax),
        Which::Left => match left_axis(&mut ax, false) {
            Ok(r) => Ok(r),
            Err(e) => projection::left_axis_integer(&ax, e),
        },
    }
}

/// A flat layout from parts, `1:0` when empty; the [`ErrorKind::Overflow`] of `op` when the
/// product of the shapes `s[..n]` does not fit in `i64` (the invariant of [`Layout`]: a left
/// inverse's gaps times its last extent can pass it, as in the integer `left_inverse`).
const fn flat(
    n: usize,
    s: &[i64; CAPACITY],
    d: &[i64; CAPACITY],
    code: Code,
    op: Op,
) -> Result<Layout, Error> {
    tri!(crate::layout::checked_size(s, n, op));
    let mut f = Flat::EMPTY;
    let mut i = 0;
    while i < n {
        f.push_basis(s[i], d[i], code);
        i += 1;
    }
    Ok(f.to_layout())
}

const fn capacity(op: Op) -> Error {
    Error::new(
        op,
        ErrorKind::Capacity {
            what: "number of modes of the result",
            limit: CAPACITY,
        },
    )
}

/// Appends the mode `s:d` to the `n` modes `rs`, `rd` of a result; the `Capacity` of `op` when
/// they are full.
const fn push_mode(
    rs: &mut [i64; CAPACITY],
    rd: &mut [i64; CAPACITY],
    n: &mut usize,
    s: i64,
    d: i64,
    op: Op,
) -> Result<(), Error> {
    if *n >= CAPACITY {
        return Err(capacity(op));
    }
    rs[*n] = s;
    rd[*n] = d;
    *n += 1;
    Ok(())
}

/// The paper's complement of one axis: gaps, then the trailing size-1 mode, coalesced
/// (size-1-preserving), strides on the axis's basis.
const fn complement_axis(ax: &mut Axis, code: Code) -> Result<Layout, Error> {
    let op = Op::Complement;
    ax.sort(false);
    let mut rs = [0i64; CAPACITY];
    let mut rd = [0i64; CAPACITY];
    let mut n = 0usize;
    let mut cur: i64 = 1;
    let mut k = 0;
    while k < ax.n {
        let (s, d) = (ax.s[k], ax.d[k]);
        if s != 1 {
            if d < cur {
                // interleaved (or negative) coefficients: the integer construction, which
                // groups them (see `complement`)
                return complement_axis_general(ax, code);
            }
            if n + 1 >= CAPACITY {
                return Err(capacity(op));
            }
            rs[n] = d / cur;
            rd[n] = cur;
            n += 1;
            cur = tri!(mul(op, d, s));
        }
        k += 1;
    }
    rs[n] = 1;
    rd[n] = cur;
    let l = tri!(flat(n + 1, &rs, &rd, code, op));
    Ok(coalesce_z(&l))
}

/// [`complement_axis`] for coefficients that interleave or are negative: the integer complement of
/// the axis's modes, onto the axis's basis. A collision names indices of the axis's layout, which
/// are mapped back to indices of the whole layout (its other coordinates 0).
const fn complement_axis_general(ax: &Axis, code: Code) -> Result<Layout, Error> {
    let mut f = Flat::EMPTY;
    let mut w = [0i64; CAPACITY];
    let mut i = 0;
    while i < ax.n {
        if ax.s[i] != 1 {
            w[f.n] = ax.p[i];
            f.push(ax.s[i], ax.d[i]);
        }
        i += 1;
    }
    let r = match super::complement::integer::complement_integral(&f.to_layout()) {
        Ok(r) => r,
        Err(e) => return Err(remap_collision(e, &f.s, &w, f.n)),
    };
    let mut l = r;
    let mut j = 0;
    while j < l.tree.len() {
        if l.stride[j] != 0 {
            l.basis[j] = code;
        }
        j += 1;
    }
    Ok(coalesce_z(&l))
}

/// A [`ErrorKind::Collision`] between indices of the flat layout with shapes `s` (`n` modes),
/// mapped to the indices of the layout whose leaves they are, with index weights `w` (its other
/// coordinates 0); any other error as it is. The operands are cleared (they named the part).
pub(crate) const fn remap_collision(
    e: Error,
    s: &[i64; CAPACITY],
    w: &[i64; CAPACITY],
    n: usize,
) -> Error {
    let ErrorKind::Collision { first, second } = *e.kind() else {
        return e;
    };
    let (mut a, mut b) = (0i64, 0i64);
    let (mut x, mut y) = (first, second);
    let mut k = 0;
    while k < n {
        // the last mode absorbs the rest (indices are below the size)
        a += (x % s[k]) * w[k];
        b += (y % s[k]) * w[k];
        x /= s[k];
        y /= s[k];
        k += 1;
    }
    let (first, second) = if a < b { (a, b) } else { (b, a) };
    Error::new(e.op(), ErrorKind::Collision { first, second })
}

/// The chained right inverse of one axis (integer coefficients).
const fn right_axis(ax: &mut Axis) -> Result<Layout, Error> {
    ax.sort(false);
    let mut rs = [0i64; CAPACITY];
    let mut rd = [0i64; CAPACITY];
    let mut n = 0usize;
    let mut cur: i64 = 1;
    let mut k = 0;
    while k < ax.n {
        let (s, d) = (ax.s[k], ax.d[k]);
        if s != 1 && d == cur {
            rs[n] = s;
            rd[n] = ax.p[k];
            n += 1;
            cur = tri!(mul(Op::RightInverse, s, cur));
        }
        k += 1;
    }
    Ok(super::coalesce::coalesce(&tri!(flat(
        n,
        &rs,
        &rd,
        0,
        Op::RightInverse
    ))))
}

/// PyCuTe's left inverse of one axis: the gaps between the sorted coefficients become extents.
/// With `binary`, quotients are carry-less and only unit gaps are representable.
const fn left_axis(ax: &mut Axis, binary: bool) -> Result<Layout, Error> {
    let op = Op::LeftInverse;
    ax.sort(true);
    let mut rs = [0i64; CAPACITY];
    let mut rd = [0i64; CAPACITY];
    rs[0] = 1;
    rd[0] = 0;
    let mut n = 1usize;
    let mut cur: i64 = 1;
    let mut f2_gap = false;
    let mut k = 0;
    while k < ax.n {
        let (s, d) = (ax.s[k], ax.d[k]);
        if s != 1 {
            let (gap, rem) = if binary {
                f2_divmod(d as u64, cur as u64)
            } else {
                (d.div_euclid(cur), d.rem_euclid(cur))
            };
            if rem != 0 {
                return Err(Error::new(
                    op,
                    ErrorKind::Divisibility {
                        mode: k,
                        value: d,
                        divisor: cur,
                        what: "left inverse: the sorted strides do not form an ordered chain",
                    },
                ));
            }
            if gap < rs[n - 1] {
                return Err(Error::new(
                    op,
                    ErrorKind::NotInjective {
                        stride: d,
                        covered: tri!(mul(op, cur, rs[n - 1])),
                    },
                ));
            }
            if binary && gap != 1 {
                f2_gap = true;
            }
            rs[n - 1] = gap;
            cur = if binary {
                tri!(clmul(op, cur as u64, gap as u64)) as i64
            } else {
                tri!(mul(op, cur, gap))
            };
            tri!(push_mode(&mut rs, &mut rd, &mut n, s, ax.p[k], op));
        }
        k += 1;
    }
    if f2_gap {
        return Err(Error::new(
            op,
            ErrorKind::Unsupported {
                what: "a left inverse of binary (F2) strides whose carry-less gaps are not 1 (the gap \
                       would be an F2 extent)",
            },
        ));
    }
    Ok(coalesce_z(&tri!(flat(n, &rs, &rd, 0, op))))
}

/// Euclidean division of polynomials over F2: `(q, r)` with `a = q ⊗ b ⊕ r`, `deg r < deg b`.
const fn f2_divmod(a: u64, b: u64) -> (i64, i64) {
    if b == 0 {
        return (0, a as i64);
    }
    let db = 63 - b.leading_zeros();
    let mut q: u64 = 0;
    let mut r = a;
    while r != 0 && 63 - r.leading_zeros() >= db {
        let shift = (63 - r.leading_zeros()) - db;
        q ^= 1 << shift;
        r ^= b << shift;
    }
    (q as i64, r as i64)
}

/// The right inverse over F2: PyCuTe's answer where it satisfies the law (checked point by point,
/// up to [`VERIFY_LIMIT`] points), else [`right_inverse_binary_exact`], which is exact by
/// construction. PyCuTe's rule can be right by coincidence where the exact construction stops
/// early (`(5,6,6):(F3,F1,F1)` gives `6:F5`: `L(R(5)) = L(17) = 5` although `17 ≠ 5·5`), so both
/// are needed to agree with it wherever it is right.
const fn right_inverse_binary(a: &Layout) -> Result<Layout, Error> {
    let mut ax = tri!(binary_axis(a));
    ax.sort(false);
    if let Ok(r) = right_inverse_binary_pycute(&ax) {
        if satisfies_right_law(a, &r) {
            return Ok(r);
        }
    }
    right_inverse_binary_exact(&ax)
}

/// The modes of a binary layout with a nonzero stride, from its size-1-preserving coalesced form
/// (PyCuTe's `_coalesce_z`), each with its weight in the integer domain: the one axis of an F2
/// codomain.
const fn binary_axis(a: &Layout) -> Result<Axis, Error> {
    let f = tri!(leaves_of(&tri!(coalesce_z_flat(a))));
    let mut ax = Axis::EMPTY;
    let mut i = 0;
    while i < f.n {
        if f.d[i] != 0 {
            ax.push(f.s[i], f.d[i], f.p[i]);
        }
        i += 1;
    }
    Ok(ax)
}

/// The most points [`right_inverse_binary`] checks PyCuTe's answer on.
const VERIFY_LIMIT: i64 = 1 << 20;

/// `L(R(k)) = k` for every `k < |R|` (false past [`VERIFY_LIMIT`] points or on any error).
const fn satisfies_right_law(l: &Layout, r: &Layout) -> bool {
    let n = r.size();
    if n > VERIFY_LIMIT {
        return false;
    }
    let mut k = 0;
    while k < n {
        let i = match r.eval(k) {
            Ok(i) => i,
            Err(_) => return false,
        };
        match l.eval(i) {
            Ok(v) if v == k => {}
            _ => return false,
        }
        k += 1;
    }
    true
}

/// PyCuTe's F2 right inverse (see the module docs): a stride `d` continues the chain at the
/// covered value `cur` when `r = cur ⊕ d` stays inside the covered range over the whole mode
/// (`(s-1) ⊗ r < cur`), with the weight `S̄ ⊕ idx(r)` scaled carry-lessly. Not always a right
/// inverse: [`right_inverse_binary`] checks it.
/// `ax`: the sorted [`binary_axis`] of the layout.
const fn right_inverse_binary_pycute(ax: &Axis) -> Result<Layout, Error> {
    let op = Op::RightInverse;
    let mut rs = [0i64; CAPACITY];
    let mut rd = [0i64; CAPACITY];
    let mut n = 0usize;
    let mut cur: u64 = 1;
    let mut k = 0;
    while k < ax.n {
        let (s, d) = (ax.s[k], ax.d[k]);
        if d != 0 && s != 1 {
            let r = cur ^ d as u64;
            let reach = tri!(clmul(op, (s - 1) as u64, r));
            if reach < cur {
                let mut w = ax.p[k] as u64;
                if r != 0 {
                    // the domain index of `r` in the chain so far: its carry-less digits
                    let mut idx = r;
                    let mut pps: i64 = 1;
                    let mut j = 0;
                    while j < n {
                        let digit = if j + 1 < n {
                            let sj = rs[j] as u64;
                            let prod = tri!(clmul(op, pps as u64, sj));
                            if prod != (pps as u64).wrapping_mul(sj) {
                                return Err(Error::new(
                                    op,
                                    ErrorKind::Unsupported {
                                        what: "an extent of the chain carries in F2, so its \
                                               carry-less and integer decompositions differ",
                                    },
                                ));
                            }
                            pps = tri!(mul(op, pps, rs[j]));
                            let (q, rem) = f2_divmod(idx, sj);
                            idx = q as u64;
                            rem as u64
                        } else {
                            idx
                        };
                        w ^= tri!(clmul(op, digit, rd[j] as u64));
                        j += 1;
                    }
                }
                tri!(push_mode(&mut rs, &mut rd, &mut n, s, w as i64, op));
                cur = tri!(clmul(op, s as u64, cur));
            }
        }
        k += 1;
    }
    Ok(super::coalesce::coalesce(&tri!(flat(
        n, &rs, &rd, BINARY, op
    ))))
}

/// The bits that `c·p` may set for `c < s`, or `None` when some such product carries (then the
/// carry-less `c ⊗ p` is not the index `c·p`): two copies of `p` shifted by `t` overlap for a `t`
/// with `1 + 2^t < s`.
const fn index_span(p: i64, s: i64) -> Option<u64> {
    let p = p as u64;
    let mut span = 0u64;
    let mut t = 0;
    while t < 63 && (1i64 << t) < s {
        if t >= 1 && (1i64 << t) + 1 < s && p & (p << t) != 0 {
            return None;
        }
        if p.leading_zeros() < t + 1 {
            return None;
        }
        span |= p << t;
        t += 1;
    }
    Some(span)
}

/// The right inverse over F2. The chain is PyCuTe's: in stride order, a mode `s:d` continues the
/// chain at the covered value `cur` (a power of two) when `r = cur ⊕ d` stays inside the covered
/// range over the whole mode (`(s-1) ⊗ r < cur`), and then `cur ← s·cur`.
///
/// The result is built one index bit at a time, which is exact where PyCuTe's per-mode weight
/// `w = S̄ ⊕ idx(r)` is not (it scales `w` by `c` carry-lessly, but the index of `c ⊗ r` is not
/// `c ⊗ idx(r)` once `c ≥ 2`): bit `t` of a chained mode with weight `S̄` maps to the index
/// `(S̄·2^t) ⊕ R(r·2^t)`, where `R` of a covered value is the XOR of the columns of its bits. Where
/// PyCuTe's weights are right, the columns coalesce back to its modes. Index arithmetic is XOR
/// only while the modes' index contributions `c·S̄` have no carries and no common bits (always so
/// for power-of-two weights and extents); the chain stops at the first mode where that fails, and
/// a non-power-of-two extent can only end the chain (when `r = 0`): the result is then a smaller
/// right inverse, never a wrong one.
/// `ax`: the sorted [`binary_axis`] of the layout.
const fn right_inverse_binary_exact(ax: &Axis) -> Result<Layout, Error> {
    let op = Op::RightInverse;
    // one column per index bit of the covered range, then possibly one last whole mode
    let mut rs = [0i64; CAPACITY];
    let mut rd = [0i64; CAPACITY];
    let mut n = 0usize;
    let mut cur: u64 = 1;
    let mut spans: u64 = 0;
    let mut k = 0;
    while k < ax.n {
        let (s, d, p) = (ax.s[k], ax.d[k], ax.p[k]);
        k += 1;
        if d == 0 || s == 1 {
            continue;
        }
        let r = cur ^ d as u64;
        let reach = tri!(clmul(op, (s - 1) as u64, r));
        if reach >= cur {
            continue;
        }
        // The index of the coordinate `c` of this mode is `c·p`; XOR-ing it with the other modes'
        // is their sum only if `c·p` has no carries and its bits are disjoint from theirs.
        let span = match index_span(p, s) {
            Some(x) if x & spans == 0 => x,
            _ => break,
        };
        spans |= span;
        if s & (s - 1) != 0 {
            if r == 0 {
                tri!(push_mode(&mut rs, &mut rd, &mut n, s, p, op));
            }
            break;
        }
        let bits = s.trailing_zeros();
        if n + bits as usize > CAPACITY {
            return Err(capacity(op));
        }
        let base = n;
        let mut t = 0;
        while t < bits {
            // the index of 2^t in this mode, corrected by the index of the covered part r·2^t
            let mut col = (p as u64) << t;
            let x = r << t;
            let mut b = 0;
            while b < base {
                if (x >> b) & 1 == 1 {
                    col ^= rd[b] as u64;
                }
                b += 1;
            }
            rs[n] = 2;
            rd[n] = col as i64;
            n += 1;
            t += 1;
        }
        cur = tri!(clmul(op, s as u64, cur));
    }
    Ok(super::coalesce::coalesce(&tri!(flat(
        n, &rs, &rd, BINARY, op
    ))))
}
