//! Planning a GEMM over hierarchical layouts: the joint refinement and joint coalescing of the
//! modes that two (or three) operands share, the choice of the micro-kernel's `m`, `n`, `k`
//! extents, and the loop over the remaining sub-modes.
//!
//! A GEMM `C(m,n,l) += Σ_k A(m,k,l)·B(n,k,l)` is invariant under any renumbering of the
//! coordinates of a mode, as long as every operand that carries the mode is renumbered the same
//! way. So each mode (M is shared by A and C, N by B and C, K by A and B, L by all three) is taken
//! apart into *joint sub-modes*: an extent and one stride per operand, such that the mode's
//! offsets in each operand are the sum over the joint sub-modes. These come from
//!
//! 1. [`cute::coalesce`] of the mode in each operand on its own (fewer, longer leaves),
//! 2. the common refinement of the operands' leaf sequences (a leaf `s:d` splits into
//!    `(t, s/t):(d, t·d)` where the other operand's leaf boundary `t` falls inside it),
//! 3. joint coalescing: the joint sub-modes are sorted by stride and merged where the merged
//!    sub-mode is one stride in *every* operand (`(s0,s1):(d0,s0·d0)` in each).
//!
//! When the leaf boundaries of the operands do not divide each other (say `(2,3)` against `(3,2)`)
//! the refinement stops and the rest of the mode is kept as one *opaque* sub-mode whose offsets
//! are tabulated from each operand's layout.
//!
//! One joint sub-mode of each of M, N and K becomes the micro-kernel's extent; every other sub-mode
//! (and the batch mode L) is an outer loop, each iteration one call of the GEMM kernel on a
//! strided `m×k` times `k×n` piece, accumulating into an `m×n` piece of C.

use cute::{coalesce, geometry, Error, ErrorKind, Layout, Op, Operand};

/// Operand indices.
const A: usize = 0;
const B: usize = 1;
const C: usize = 2;

/// One of the four modes of a GEMM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Rows: A and C.
    M,
    /// Columns: B and C.
    N,
    /// Reduction: A and B.
    K,
    /// Batch: A, B and C.
    L,
}

impl Mode {
    /// The operands (0 = A, 1 = B, 2 = C) that carry the mode.
    fn operands(self) -> &'static [usize] {
        match self {
            Mode::M => &[A, C],
            Mode::N => &[B, C],
            Mode::K => &[A, B],
            Mode::L => &[A, B, C],
        }
    }
}

/// A joint sub-mode: an extent and one stride per operand (zero for an operand that lacks the mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Joint {
    /// The extent.
    pub extent: i64,
    /// The strides in A, B and C.
    pub stride: [i64; 3],
}

/// An outer loop of the plan: the offsets in A, B and C of each of its coordinates.
#[derive(Clone, Debug)]
pub(crate) struct Outer {
    pub(crate) mode: Mode,
    pub(crate) offsets: Vec<[i64; 3]>,
}

/// How a GEMM over hierarchical layouts is run: one micro-kernel shape and the outer loops.
///
/// Made by [`plan_gemm`]; [`crate::gemm`] runs it.
#[derive(Clone, Debug)]
pub struct GemmPlan {
    pub(crate) m: Joint,
    pub(crate) n: Joint,
    pub(crate) k: Joint,
    pub(crate) outer: Vec<Outer>,
}

impl GemmPlan {
    /// The kernel's `(m, n, k)` extents.
    pub fn kernel(&self) -> (i64, i64, i64) {
        (self.m.extent, self.n.extent, self.k.extent)
    }

    /// The kernel's joint sub-modes `(m, n, k)`, each with its strides in A, B and C.
    pub fn kernel_modes(&self) -> (Joint, Joint, Joint) {
        (self.m, self.n, self.k)
    }

    /// How many kernel calls the plan makes (the product of the outer loops' extents).
    pub fn calls(&self) -> i64 {
        self.outer.iter().map(|o| o.offsets.len() as i64).product()
    }

    /// The extents of the outer loops, each with the mode it belongs to.
    pub fn outer_loops(&self) -> Vec<(Mode, i64)> {
        self.outer
            .iter()
            .map(|o| (o.mode, o.offsets.len() as i64))
            .collect()
    }

    /// Calls `f` with the offsets `[a, b, c]` of every outer iteration whose first outer loop
    /// (if any) has its coordinate in `range` (the whole loop nest when `range` covers it), and
    /// whether the iteration is the first of its piece of C: every reduction (K) loop at its
    /// coordinate 0. For each piece of C that iteration comes before the piece's other ones (the
    /// loops run as an odometer, so with the M, N and L coordinates fixed the K coordinates
    /// increase lexicographically from all zeros).
    pub(crate) fn for_each_piece(
        &self,
        range: core::ops::Range<usize>,
        mut f: impl FnMut([i64; 3], bool),
    ) {
        let d = self.outer.len();
        if d == 0 {
            if range.start == 0 && !range.is_empty() {
                f([0; 3], true);
            }
            return;
        }
        let mut idx = vec![0usize; d];
        idx[0] = range.start;
        if range.start >= range.end.min(self.outer[0].offsets.len()) {
            return;
        }
        loop {
            let mut off = [0i64; 3];
            let mut first = true;
            for (o, &i) in self.outer.iter().zip(&idx) {
                let t = o.offsets[i];
                for (x, y) in off.iter_mut().zip(t) {
                    *x += y;
                }
                first &= o.mode != Mode::K || i == 0;
            }
            f(off, first);
            // odometer, the last loop fastest, the first restricted to `range`
            let mut j = d;
            loop {
                if j == 0 {
                    return;
                }
                j -= 1;
                idx[j] += 1;
                let end = if j == 0 {
                    range.end.min(self.outer[0].offsets.len())
                } else {
                    self.outer[j].offsets.len()
                };
                if idx[j] < end {
                    break;
                }
                if j == 0 {
                    return;
                }
                idx[j] = 0;
            }
        }
    }

    /// The index of the first outer loop that is not a reduction (K) loop, after moving it first;
    /// pieces that differ in its coordinate write disjoint elements of an injective C.
    pub(crate) fn hoist_parallel_loop(&mut self) -> Option<usize> {
        let j = self.outer.iter().position(|o| o.mode != Mode::K)?;
        let o = self.outer.remove(j);
        self.outer.insert(0, o);
        Some(self.outer[0].offsets.len())
    }
}

/// The rest of a mode that the operands' leaf boundaries do not let refine further: the same
/// colexicographic index in each operand's remaining layout.
struct Opaque {
    extent: i64,
    layouts: [Option<Layout>; 3],
}

/// The joint sub-modes of one mode carried by `parts` (operand index, the operand's layout of the
/// mode): the common refinement of the coalesced layouts ([`cute::geometry::refine`]), and where it
/// stops, the rest of each layout as one opaque sub-mode.
fn refine(parts: &[(usize, Layout)]) -> Result<(Vec<Joint>, Option<Opaque>), Error> {
    match parts.len() {
        1 => refine_k::<1>(parts),
        2 => refine_k::<2>(parts),
        _ => refine_k::<3>(parts),
    }
}

/// [`refine`] for `K` operands (`parts.len() == K`).
fn refine_k<const K: usize>(
    parts: &[(usize, Layout)],
) -> Result<(Vec<Joint>, Option<Opaque>), Error> {
    let flat: Vec<(Vec<i64>, Vec<i64>)> = parts
        .iter()
        .map(|(_, l)| {
            let c = coalesce(l);
            (0..c.leaf_count()).map(|i| c.leaf_at(i)).unzip()
        })
        .collect();
    let r = geometry::refine::<K>(
        core::array::from_fn(|k| &flat[k].0[..]),
        core::array::from_fn(|k| &flat[k].1[..]),
    );
    let joints = (0..r.len())
        .map(|j| {
            let mut stride = [0i64; 3];
            for (k, (op, _)) in parts.iter().enumerate() {
                stride[*op] = r.strides(j)[k];
            }
            Joint {
                extent: r.extent(j),
                stride,
            }
        })
        .collect();
    if r.is_complete() {
        return Ok((joints, None));
    }
    let mut layouts = [None, None, None];
    let mut extent = 1;
    for (k, (op, _)) in parts.iter().enumerate() {
        let (shape, stride) = &flat[k];
        let at = r.rest()[k];
        let (mut s, mut d) = (Vec::new(), Vec::new());
        if at.extent > 1 {
            s.push(at.extent);
            d.push(at.stride);
        }
        for i in at.leaf + 1..shape.len() {
            if shape[i] != 1 {
                s.push(shape[i]);
                d.push(stride[i]);
            }
        }
        layouts[*op] = Some(Layout::flat(&s, &d)?);
        extent = s.iter().product();
    }
    Ok((joints, Some(Opaque { extent, layouts })))
}

/// Sorts the joint sub-modes by the absolute stride in operand `key` and merges neighbours that
/// are one stride in every operand.
fn joint_coalesce(mut joints: Vec<Joint>, key: usize) -> Vec<Joint> {
    joints.sort_by_key(|j| (j.stride[key].unsigned_abs(), j.extent));
    let mut out: Vec<Joint> = Vec::with_capacity(joints.len());
    for j in joints {
        if let Some(last) = out.last_mut() {
            if (0..3).all(|o| j.stride[o] == last.extent * last.stride[o]) {
                last.extent *= j.extent;
                continue;
            }
        }
        out.push(j);
    }
    out
}

/// Picks the kernel's sub-mode among `joints` (removing it): the longest one with a unit stride in
/// one of the operands `units` (C for M and N, A or B for K) whose extent is at least 8 (one SIMD
/// vector) or the largest anyway; otherwise the largest.
fn pick_kernel(joints: &mut Vec<Joint>, units: &[usize]) -> Joint {
    let Some(largest) = (0..joints.len()).max_by_key(|&i| joints[i].extent) else {
        return Joint {
            extent: 1,
            stride: [0; 3],
        };
    };
    let max = joints[largest].extent;
    let unit = (0..joints.len())
        .filter(|&i| {
            units.iter().any(|&o| joints[i].stride[o].abs() == 1)
                && (joints[i].extent >= 8 || joints[i].extent == max)
        })
        .max_by_key(|&i| joints[i].extent);
    joints.remove(unit.unwrap_or(largest))
}

/// The offsets of each coordinate of an outer loop.
fn table_joint(mode: Mode, j: &Joint) -> Outer {
    Outer {
        mode,
        offsets: (0..j.extent)
            .map(|i| [i * j.stride[0], i * j.stride[1], i * j.stride[2]])
            .collect(),
    }
}

fn table_opaque(mode: Mode, o: &Opaque) -> Result<Outer, Error> {
    let mut offsets = Vec::with_capacity(o.extent as usize);
    for i in 0..o.extent {
        let mut t = [0i64; 3];
        for (x, l) in t.iter_mut().zip(&o.layouts) {
            if let Some(l) = l {
                *x = l.eval(i)?;
            }
        }
        offsets.push(t);
    }
    Ok(Outer { mode, offsets })
}

/// Plans `C(m,n,l) += Σ_k A(m,k,l)·B(n,k,l)` for the layouts of A `(M,K[,L])`, B `(N,K[,L])` and
/// C `(M,N[,L])` (integer strides, hierarchical modes allowed).
///
/// Fails, naming `gemm` and the operands, when
/// * the ranks or extents do not fit ([`cute::gemm_modes`]'s preconditions, `ProfileMismatch`),
/// * a layout has non-integer strides (`Unsupported`),
/// * C is not injective on its `(M,N,L)` domain ([`ErrorKind::Collision`], category
///   `NotInjective`, naming two indices of C that meet; the test is
///   [`cute::geometry::check_injective_exhaustive`], the one [`cute::gemm`] applies): two
///   coordinates of C would accumulate into one element, which the blocked kernel does not do the
///   way the reference loop does (it would lose one of the two updates).
pub fn plan_gemm(a: &Layout, b: &Layout, c: &Layout) -> Result<GemmPlan, Error> {
    for x in [a, b, c] {
        if !x.is_integral() {
            return Err(Error::new(
                Op::Gemm,
                ErrorKind::Unsupported {
                    what: "the fast gemm needs layouts with integer strides",
                },
            )
            .with(Operand::Layout(*x), Operand::None));
        }
    }
    let modes = cute::gemm_modes(a, b, c)?;
    geometry::check_injective_exhaustive(c, Op::Gemm)?;
    let [(am, ak, al), (bn, bk, bl), (cm, cn, cl)] = modes.layouts;
    let groups = [
        (Mode::M, vec![(A, am), (C, cm)], C, vec![C, A]),
        (Mode::N, vec![(B, bn), (C, cn)], C, vec![C, B]),
        (Mode::K, vec![(A, ak), (B, bk)], A, vec![A, B]),
        (Mode::L, vec![(A, al), (B, bl), (C, cl)], C, vec![]),
    ];
    let mut kernel = [Joint {
        extent: 1,
        stride: [0; 3],
    }; 3];
    let mut outer = Vec::new();
    for (gi, (mode, parts, key, units)) in groups.into_iter().enumerate() {
        debug_assert_eq!(
            parts.iter().map(|p| p.0).collect::<Vec<_>>(),
            mode.operands()
        );
        let (joints, opaque) = refine(&parts)?;
        let mut joints = joint_coalesce(joints, key);
        if mode != Mode::L {
            kernel[gi] = pick_kernel(&mut joints, &units);
        }
        // the largest outer loops first: the first non-K one is split among threads
        joints.sort_by_key(|j| std::cmp::Reverse(j.extent));
        outer.extend(joints.iter().map(|j| table_joint(mode, j)));
        if let Some(o) = opaque {
            outer.push(table_opaque(mode, &o)?);
        }
    }
    let [m, n, k] = kernel;
    Ok(GemmPlan { m, n, k, outer })
}
