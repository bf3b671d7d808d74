//! The one place that calls the `gemm` crate, whose entry point is an `unsafe fn` on raw pointers.
//!
//! The safety argument rests on two facts established before any call:
//!
//! * every piece's extreme storage indices are computed here from the piece's origin, extents and
//!   strides and checked against the slices' lengths (`piece_in_bounds`), so the kernel reads and
//!   writes only inside the slices it was given;
//! * C is injective on its `(M,N,L)` domain ([`crate::plan_gemm`] refuses it otherwise), so no two
//!   `(m, n)` of one piece are the same element, and pieces that run on different threads differ in
//!   an M, N or L coordinate and so touch disjoint elements of C. A and B are only read; they
//!   cannot overlap C because the caller holds `&[T]` for them and `&mut [T]` for C.

use crate::plan::GemmPlan;

/// Element types the `gemm` crate multiplies (f32 and f64 here).
pub(crate) trait Kernel: Copy + PartialEq + Send + Sync + 'static {
    const ONE: Self;
    const ZERO: Self;
}

impl Kernel for f32 {
    const ONE: f32 = 1.0;
    const ZERO: f32 = 0.0;
}

impl Kernel for f64 {
    const ONE: f64 = 1.0;
    const ZERO: f64 = 0.0;
}

/// Below this many multiply-adds a piece runs single-threaded and the outer loop is split among
/// threads instead (the `gemm` crate's own threading threshold is 48·48·256).
const PIECE_THREADING: i64 = 48 * 48 * 256;

/// The smallest tile side `tile_grid` cuts C into.
const MIN_TILE: i64 = 64;

/// Tiles per thread in `tile_grid`: enough that work stealing evens out the threads.
const TILES_PER_THREAD: i64 = 4;

/// How a large kernel call is shared among `threads` threads: C's `m × n` is cut into a grid of
/// `gm × gn` tiles, each multiplied single-threaded by one task of rayon's pool (rows
/// `m·i/gm ..`, columns `n·j/gn ..`). The grid has up to [`TILES_PER_THREAD`] tiles per thread, as
/// many as tiles of at least [`MIN_TILE`] a side allow, and of those grids the one with the
/// squarest tiles (the least packing of A and B per tile). `(1, 1)`: leave the call to the `gemm`
/// crate's own threading (always so with one thread).
///
/// On 16 cores of the H200 machine, `mk,kn->mn` in f32 at 2048 and 4096 reached 690–1 100
/// GFLOP/s with the `gemm` crate's threading and 850–1 580 with one tile per thread (ragged: a
/// thread slowed by anything holds up the call), and 1 440–1 480 with four tiles per thread,
/// against 1 090–1 500 for OpenBLAS in the same runs (BENCHMARKS.md).
fn tile_grid(m: i64, n: i64, threads: i64) -> (i64, i64) {
    if threads <= 1 {
        return (1, 1);
    }
    let threads = threads * TILES_PER_THREAD;
    let mut best = (1, 1);
    let mut best_key = (1, m + n);
    for gm in 1..=threads.min(m / MIN_TILE).max(1) {
        let gn = (threads / gm).min(n / MIN_TILE).max(1);
        let key = (gm * gn, (m + gm - 1) / gm + (n + gn - 1) / gn);
        if key.0 > best_key.0 || (key.0 == best_key.0 && key.1 < best_key.1) {
            best = (gm, gn);
            best_key = key;
        }
    }
    best
}

/// A raw pointer to C that may cross to the scoped worker threads (see the module's safety
/// argument).
#[derive(Clone, Copy)]
struct SendPtr<T>(*mut T);

/// A raw pointer to A or B that may cross to the scoped worker threads (read only).
#[derive(Clone, Copy)]
struct SharedPtr<T>(*const T);
// SAFETY: the pointee is only read, and it outlives the scope the threads run in.
unsafe impl<T: Sync> Send for SharedPtr<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for SharedPtr<T> {}
// SAFETY: the threads that receive the pointer write disjoint elements of C (module docs) and
// the pointee outlives the scope they run in.
unsafe impl<T: Send> Send for SendPtr<T> {}
// SAFETY: as above; the pointer itself is only copied.
unsafe impl<T: Sync> Sync for SendPtr<T> {}

/// The number of threads to share the work among: that of rayon's pool (the CPU's threads, or
/// `RAYON_NUM_THREADS`, or the pool the caller runs in with `ThreadPool::install`).
fn threads() -> usize {
    rayon::current_num_threads()
}

/// Whether every index `origin + Σ i_j·stride_j` (`0 ≤ i_j < extent_j`) lies in `0..len`.
fn piece_in_bounds(origin: i64, dims: [(i64, i64); 3], len: usize) -> bool {
    let (mut lo, mut hi) = (origin, origin);
    for (e, d) in dims {
        let reach = (e - 1) * d;
        if reach < 0 {
            lo += reach;
        } else {
            hi += reach;
        }
    }
    lo >= 0 && hi < len as i64
}

/// Runs `plan` on the storages: `c[base_c + …] = beta·c[base_c + …] + Σ a[base_a + …]·b[base_b + …]`
/// for every piece. β applies once per element of C: in the first kernel call of each piece of C
/// (its reduction loops at coordinate 0; the kernel's own `alpha`, and with `β = 0` the kernel
/// does not read C, so NaNs there do not propagate); the piece's later calls accumulate. So
/// `β = 1` is `C += A·B` and `β = 0` overwrites, with no separate pass over C.
///
/// Panics (an internal error, never expected) if a piece would reach outside a slice.
pub(crate) fn execute<T: Kernel>(
    plan: &GemmPlan,
    a: (&[T], usize),
    b: (&[T], usize),
    c: (&mut [T], usize),
    beta: T,
) {
    let mut plan = plan.clone();
    let (m, n, k) = (plan.m, plan.n, plan.k);
    let flops = m.extent * n.extent * k.extent;
    let threads = threads();
    let (len_a, len_b, len_c) = (a.0.len(), b.0.len(), c.0.len());
    let (pa, pb, pc) = (
        SharedPtr(a.0.as_ptr()),
        SharedPtr(b.0.as_ptr()),
        SendPtr(c.0.as_mut_ptr()),
    );
    // one kernel call on the tile `rows × cols` (ranges of the M and N extents) of the piece at
    // `off`; the whole piece is `(0, m.extent) × (0, n.extent)`
    let run_tile = |off: [i64; 3],
                    first: bool,
                    par: gemm::Parallelism,
                    (r0, rows): (i64, i64),
                    (c0, cols): (i64, i64)| {
        let (read_c, scale_c) = match first {
            true => (beta != T::ZERO, beta),
            false => (true, T::ONE),
        };
        let (oa, ob, oc) = (
            a.1 as i64 + off[0] + r0 * m.stride[0],
            b.1 as i64 + off[1] + c0 * n.stride[1],
            c.1 as i64 + off[2] + r0 * m.stride[2] + c0 * n.stride[2],
        );
        assert!(
            piece_in_bounds(
                oa,
                [(rows, m.stride[0]), (k.extent, k.stride[0]), (1, 0)],
                len_a
            ) && piece_in_bounds(
                ob,
                [(cols, n.stride[1]), (k.extent, k.stride[1]), (1, 0)],
                len_b
            ) && piece_in_bounds(
                oc,
                [(rows, m.stride[2]), (cols, n.stride[2]), (1, 0)],
                len_c
            ),
            "cute-gemm internal error: a GEMM piece reaches outside its storage"
        );
        let (pa, pb, pc) = (pa, pb, pc);
        // SAFETY: the three pointers plus every index the kernel forms from the extents and
        // strides stay inside their slices (just asserted); A and B are read-only and disjoint from
        // C (shared vs exclusive borrows); C's elements of this piece are distinct (C injective)
        // and no other thread touches them (module docs).
        unsafe {
            gemm::gemm(
                rows as usize,
                cols as usize,
                k.extent as usize,
                pc.0.wrapping_offset(oc as isize),
                n.stride[2] as isize,
                m.stride[2] as isize,
                read_c,
                pa.0.wrapping_offset(oa as isize),
                k.stride[0] as isize,
                m.stride[0] as isize,
                pb.0.wrapping_offset(ob as isize),
                n.stride[1] as isize,
                k.stride[1] as isize,
                scale_c,
                T::ONE,
                false,
                false,
                false,
                par,
            );
        }
    };
    let run = |off: [i64; 3], first: bool, par: gemm::Parallelism| {
        run_tile(off, first, par, (0, m.extent), (0, n.extent))
    };
    let split = if flops < PIECE_THREADING && threads > 1 && plan.calls() > 1 {
        plan.hoist_parallel_loop().filter(|&e| e > 1)
    } else {
        None
    };
    match split {
        None => {
            let (gm, gn) = tile_grid(m.extent, n.extent, threads as i64);
            plan.for_each_piece(0..usize::MAX, |off, first| {
                if gm * gn == 1 {
                    return run(off, first, gemm::Parallelism::Rayon(0));
                }
                let run_tile = &run_tile;
                rayon::scope(|s| {
                    for i in 0..gm {
                        let rows = (m.extent * i / gm, m.extent * (i + 1) / gm);
                        for j in 0..gn {
                            let cols = (n.extent * j / gn, n.extent * (j + 1) / gn);
                            s.spawn(move |_| {
                                let none = gemm::Parallelism::None;
                                run_tile(
                                    off,
                                    first,
                                    none,
                                    (rows.0, rows.1 - rows.0),
                                    (cols.0, cols.1 - cols.0),
                                )
                            });
                        }
                    }
                });
            })
        }
        Some(extent) => {
            let t = threads.min(extent);
            let plan = &plan;
            let run = &run;
            std::thread::scope(|s| {
                for w in 0..t {
                    let range = extent * w / t..extent * (w + 1) / t;
                    s.spawn(move || {
                        plan.for_each_piece(range, |off, first| {
                            run(off, first, gemm::Parallelism::None)
                        })
                    });
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::tile_grid;

    #[test]
    fn tile_grids() {
        assert_eq!(tile_grid(2048, 2048, 16), (8, 8));
        assert_eq!(tile_grid(2048, 2048, 1), (1, 1));
        assert_eq!(tile_grid(4096, 64, 16), (64, 1));
        assert_eq!(tile_grid(64, 4096, 16), (1, 64));
        assert_eq!(tile_grid(100, 100, 16), (1, 1));
        assert_eq!(tile_grid(2048, 512, 16), (16, 4));
        assert_eq!(tile_grid(1000, 1000, 3), (3, 4));
        assert_eq!(tile_grid(256, 256, 16), (4, 4));
    }
}
