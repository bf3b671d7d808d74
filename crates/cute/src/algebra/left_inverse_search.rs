//! The exhaustive search for a left inverse of an injective integer layout `L`, entered where
//! CuTe's chain and the carry-free mixed radix (see [`left_inverse`](crate::left_inverse)) both
//! fail: a layout `R` with `R(L(k)) = k` for every `k < |L|`.
//!
//! Every layout `R` (on its extended domain, the last mode unbounded) is a mixed radix
//! `ρ_1, ρ_2, …` with digit strides: writing `Π_i = ρ_1·…·ρ_i` (a chain of divisors), it is
//! `R(x) = α·x + Σ_i β_i·⌊x/Π_i⌋`, with `α = e_0` and `β_i = e_i − ρ_i·e_{i−1}` for the strides `e`.
//! Over the offsets `x ≤ X` of `L` the terms with `Π_i > X` vanish, and refining the chain only
//! adds columns to the linear system `R(L(k)) = k`, so some layout exists exactly when the system
//! is solvable over the integers for some **maximal** chain of divisors up to `X` (each ratio a
//! prime, the last `Π` above `X/2`). The search walks those chains (smallest primes first) and
//! solves each system exactly, row by row: the solutions form `y + K·t` with `K` a lattice basis,
//! and each equation `a·y = k` cuts it by one linear Diophantine equation (a gcd over `a·K`).
//!
//! The search is bounded ([`CHAINS`] chains, [`POINTS`] points, offsets up to [`OFFSETS`]); within
//! its bounds a refusal means that no layout `R` has `R(L(k)) = k` for every `k`.

use super::coalesce::{coalesce_flat, Flat};
use crate::layout::Layout;

/// The most maximal chains the search solves a system for.
pub(crate) const CHAINS: u32 = 1 << 12;
/// The largest `|L|` searched.
pub(crate) const POINTS: i64 = 1 << 9;
/// The largest offset of `L` searched.
pub(crate) const OFFSETS: i64 = 1 << 16;

/// What the search ended with.
#[allow(clippy::large_enum_variant)] // layouts are stored inline: no heap
pub(crate) enum Search {
    /// A left inverse.
    Found(Layout),
    /// Every maximal chain was tried: no layout `R` has `R(L(k)) = k` for every `k`.
    None,
    /// Past a bound (or an entry past `i128`): not decided.
    Bounded,
}

/// The deepest chain: `Π` at least doubles, and offsets stay below `2^16`.
const DEPTH: usize = 17;

/// The search for the coalesced layout `c` (strides non-negative, `L` injective).
pub(crate) const fn search(c: &Flat) -> Search {
    // |L| and the largest offset
    let mut size: i64 = 1;
    let mut top: i64 = 0;
    let mut i = 0;
    while i < c.n {
        size = size.saturating_mul(c.s[i]);
        top = top.saturating_add((c.s[i] - 1).saturating_mul(c.d[i]));
        i += 1;
    }
    if size > POINTS || top > OFFSETS {
        return Search::Bounded;
    }
    // the chain: pi[0] = 1, pi[1..=depth]; prime[k] the ratio pi[k]/pi[k-1]
    let mut pi = [1i64; DEPTH + 1];
    let mut prime = [1i64; DEPTH + 1];
    let mut depth = 0;
    let mut chains: u32 = 0;
    let mut bounded = false;
    loop {
        // extend to a maximal chain by the smallest primes
        while depth < DEPTH && pi[depth] * 2 <= top {
            depth += 1;
            prime[depth] = 2;
            pi[depth] = pi[depth - 1] * 2;
        }
        chains += 1;
        if chains > CHAINS {
            return Search::Bounded;
        }
        match solve(c, size, &pi, depth) {
            Solved::Yes(e) => match build(&e, &pi, depth, top) {
                Some(r) => {
                    if law(c, size, &r) {
                        return Search::Found(r);
                    }
                    bounded = true;
                }
                None => bounded = true,
            },
            Solved::No => {}
            Solved::Overflow => bounded = true,
        }
        // the next chain: the deepest level with a larger prime that fits
        loop {
            if depth == 0 {
                return if bounded {
                    Search::Bounded
                } else {
                    Search::None
                };
            }
            let limit = top / pi[depth - 1];
            let mut p = prime[depth] + 1;
            while p <= limit && !is_prime(p) {
                p += 1;
            }
            if p <= limit {
                prime[depth] = p;
                pi[depth] = pi[depth - 1] * p;
                break;
            }
            depth -= 1;
        }
    }
}

const fn is_prime(p: i64) -> bool {
    if p < 2 {
        return false;
    }
    let mut q = 2;
    while q * q <= p {
        if p % q == 0 {
            return false;
        }
        q += 1;
    }
    true
}

/// `L(k)` for the coalesced `c`.
const fn offset(c: &Flat, k: i64) -> i64 {
    let mut k = k;
    let mut x = 0;
    let mut i = 0;
    while i < c.n {
        x += (k % c.s[i]) * c.d[i];
        k /= c.s[i];
        i += 1;
    }
    x
}

/// A solution `(α, β_1, …, β_depth)`, none, or an entry past `i128`.
#[allow(clippy::large_enum_variant)] // no heap in `const fn`
enum Solved {
    Yes([i128; DEPTH + 1]),
    No,
    Overflow,
}

/// Solves `α·x_k + Σ_i β_i·⌊x_k/Π_i⌋ = k` for every `k < size` over the integers.
const fn solve(c: &Flat, size: i64, pi: &[i64; DEPTH + 1], depth: usize) -> Solved {
    let u = depth + 1; // unknowns
    let mut y = [0i128; DEPTH + 1];
    // the lattice of solutions of the equations so far: y + K·t, K's columns k[0..r]
    let mut kern = [[0i128; DEPTH + 1]; DEPTH + 1]; // kern[col][row]
    let mut j = 0;
    while j < u {
        kern[j][j] = 1;
        j += 1;
    }
    let mut r = u;
    let mut k: i64 = 0;
    while k < size {
        let x = offset(c, k);
        let mut a = [0i128; DEPTH + 1];
        a[0] = x as i128;
        let mut i = 1;
        while i < u {
            a[i] = (x / pi[i]) as i128;
            i += 1;
        }
        let rhs = match dot(&a, &y, u) {
            Some(v) => k as i128 - v,
            None => return Solved::Overflow,
        };
        // a·K, column by column
        let mut ak = [0i128; DEPTH + 1];
        let mut j = 0;
        while j < r {
            ak[j] = match dot(&a, &kern[j], u) {
                Some(v) => v,
                None => return Solved::Overflow,
            };
            j += 1;
        }
        // bring a nonzero entry to column 0, then fold every other column into it by gcd steps
        let mut nz = 0;
        while nz < r && ak[nz] == 0 {
            nz += 1;
        }
        if nz == r {
            if rhs != 0 {
                return Solved::No;
            }
            k += 1;
            continue;
        }
        let (t0, t1) = (kern[0], kern[nz]);
        kern[0] = t1;
        kern[nz] = t0;
        let (s0, s1) = (ak[0], ak[nz]);
        ak[0] = s1;
        ak[nz] = s0;
        let mut j = 1;
        while j < r {
            if ak[j] != 0 {
                let (g, p, q) = ext_gcd(ak[0], ak[j]);
                let (bg, ag) = (ak[j] / g, ak[0] / g);
                // (col0, colj) ← (p·col0 + q·colj, −bg·col0 + ag·colj): determinant 1
                let mut row = 0;
                while row < u {
                    let (v0, vj) = (kern[0][row], kern[j][row]);
                    match (lin(p, v0, q, vj), lin(-bg, v0, ag, vj)) {
                        (Some(n0), Some(nj)) => {
                            kern[0][row] = n0;
                            kern[j][row] = nj;
                        }
                        _ => return Solved::Overflow,
                    }
                    row += 1;
                }
                ak[0] = g;
                ak[j] = 0;
            }
            j += 1;
        }
        if rhs % ak[0] != 0 {
            return Solved::No;
        }
        let t = rhs / ak[0];
        let mut row = 0;
        while row < u {
            y[row] = match lin(1, y[row], t, kern[0][row]) {
                Some(v) => v,
                None => return Solved::Overflow,
            };
            row += 1;
        }
        // column 0 is used up
        let mut j = 0;
        while j + 1 < r {
            kern[j] = kern[j + 1];
            j += 1;
        }
        r -= 1;
        k += 1;
    }
    Solved::Yes(y)
}

const fn dot(a: &[i128; DEPTH + 1], b: &[i128; DEPTH + 1], u: usize) -> Option<i128> {
    let mut s: i128 = 0;
    let mut i = 0;
    while i < u {
        s = match lin(1, s, a[i], b[i]) {
            Some(v) => v,
            None => return None,
        };
        i += 1;
    }
    Some(s)
}

/// `a·x + b·y`, or `None` past `i128`.
const fn lin(a: i128, x: i128, b: i128, y: i128) -> Option<i128> {
    match (a.checked_mul(x), b.checked_mul(y)) {
        (Some(p), Some(q)) => p.checked_add(q),
        _ => None,
    }
}

/// `(g, x, y)` with `g = gcd(a, b) > 0` and `a·x + b·y = g`, for `(a, b) ≠ (0, 0)`.
pub(crate) const fn ext_gcd(a: i128, b: i128) -> (i128, i128, i128) {
    let (mut r0, mut r1) = (a, b);
    let (mut x0, mut x1) = (1i128, 0i128);
    let (mut y0, mut y1) = (0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (x0, x1) = (x1, x0 - q * x1);
        (y0, y1) = (y1, y0 - q * y1);
    }
    if r0 < 0 {
        (-r0, -x0, -y0)
    } else {
        (r0, x0, y0)
    }
}

/// The layout `(ρ_1, …, ρ_depth, T):(e_0, …, e_depth)` of the solution (`T` covers the largest
/// offset), coalesced; `None` where a stride does not fit in `i64`.
const fn build(
    y: &[i128; DEPTH + 1],
    pi: &[i64; DEPTH + 1],
    depth: usize,
    top: i64,
) -> Option<Layout> {
    let mut out = Flat::EMPTY;
    let mut e = y[0];
    let mut i = 0;
    while i <= depth {
        if e as i64 as i128 != e {
            return None;
        }
        let extent = if i < depth {
            pi[i + 1] / pi[i]
        } else {
            top / pi[depth] + 1
        };
        out.push(extent, e as i64);
        if i < depth {
            let rho = (pi[i + 1] / pi[i]) as i128;
            e = match lin(1, y[i + 1], rho, e) {
                Some(v) => v,
                None => return None,
            };
        }
        i += 1;
    }
    Some(coalesce_flat(&out, false).to_layout())
}

/// `R(L(k)) = k` for every `k` (a check of the construction, never expected to fail).
const fn law(c: &Flat, size: i64, r: &Layout) -> bool {
    let mut k = 0;
    while k < size {
        match r.eval(offset(c, k)) {
            Ok(v) if v == k => {}
            _ => return false,
        }
        k += 1;
    }
    true
}
