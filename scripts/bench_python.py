#!/usr/bin/env python3
"""Times the Python module cute_algebra, and its drop-in cute_algebra.pycute, against NVIDIA's
legacy pycute on the same operands.

Usage: scripts/bench_python.py [--wall] [--no-contract] [--json OUT.json]

Run it in the environment scripts/test-python.sh makes (target/pyenv: cute_algebra built with
`maturin develop --release`, legacy pycute from nvidia-cutlass). Every side gets its operands
built once, before timing. The sides are timed interleaved: in each of 25 rounds, one sample of
each statement (legacy, cute_algebra, cute_algebra.pycute) in turn, a sample being enough calls
for about 1 ms; each figure is the minimum over the rounds of the time per call, on the thread's
CPU time (`time.thread_time`; `--wall`: `time.perf_counter`). Interleaving gives the sides the
same load of a shared machine; the minimum is the figure least disturbed by it.

The operations are `cute bench`'s algebra set (the operands of scripts/bench_pycute.py); legacy
pycute has no blocked_product, so there it is built from its logical_product and make_layout as
CuTe C++ defines it for operands of equal rank (cute_algebra.pycute adds CuTe's blocked_product
to legacy's names). Separately: building
a Layout from nested tuples (constant tuples, which the constructor remembers by identity, and
tuples made anew by each call), reading `L.shape`, and evaluating `L(i)` and `L((1,1),(3,1))`.

Then (unless --no-contract) `contract` on the GEMM-shaped case (`mk,kn->mn`, 2048x2048 float32) and
the paper's 5-mode case (`stupr,qtru->stqp`, the shapes of scripts/bench_contract.py) against
`numpy.einsum(..., optimize=True)` on the same arrays, wall clock: the best of 10 runs of each,
in blocks of 5 taken in turn (so that both see the same load of a shared machine), each block
after a 0.5 s pause (so that neither library's idle worker threads still spin during the other's
block).

Targets: every operation at least 20x faster than legacy pycute, the median at least 40x;
complement and coalesce at least 30x; cute_algebra.pycute at least 10x legacy on every
operation; building `Layout(((2,2),(4,2)),((1,8),(2,32)))` at least 2x faster than legacy;
`L.shape` at most 100 ns; contract at least as fast as numpy.einsum.
The exit status is 1 when a target is missed.
"""

import json
import statistics
import sys
import time
import timeit

import pycute as P

import cute_algebra as C
import cute_algebra.pycute as Q

OP_MIN, MEDIAN_MIN, SMALL_MIN, COMPAT_MIN, BUILD_MIN, SHAPE_MAX_NS = 20.0, 40.0, 30.0, 10.0, 2.0, 100.0
REPS = 5  # contract: runs of each side per block (two blocks each)
ROUNDS = 25


def blocked_product_of(mod):
    def blocked_product(a, b):
        r = mod.logical_product(a, b)
        return mod.make_layout(*(mod.make_layout(r[0][i], r[1][i]) for i in range(len(a))))
    return blocked_product


# key -> (statement, shapes/strides of the operands: name -> (shape, stride) or a tiler tuple)
OPS = {
    "composition_tv": ("composition(A, B)", {"A": ((8, 8), (8, 1)), "B": (((4, 8), 2), ((16, 1), 8))}),
    "composition_6_12": ("composition(A, B)", {"A": ((4, 6, 8, 10), (2, 3, 5, 7)), "B": (6, 12)}),
    "logical_divide": ("logical_divide(A, T)", {"A": ((8, 16), (20, 1)), "T": [(4, 1), (8, 2)]}),
    "right_inverse": ("right_inverse(A)", {"A": (((2, 2), (4, 2)), ((1, 8), (2, 16)))}),
    "complement": ("complement(A, 64)", {"A": ((4, 8), (1, 8))}),
    "logical_product": ("logical_product(A, B)", {"A": ((3, 4), (4, 1)), "B": ((2, 5), (1, 2))}),
    "blocked_product": ("blocked_product(A, B)", {"A": ((3, 4), (4, 1)), "B": ((2, 5), (1, 2))}),
    "coalesce": ("coalesce(A)", {"A": (((2, (1, 4)), (3, 1)), ((1, (7, 2)), (8, 0)))}),
}
SMALL = ("complement", "coalesce")
NAMES = ("composition", "logical_divide", "right_inverse", "complement", "logical_product",
         "coalesce", "Layout")


def operands(mod, spec):
    out = {}
    for name, v in spec.items():
        if isinstance(v, list):
            out[name] = tuple(mod.Layout(s, d) for s, d in v)
        else:
            out[name] = mod.Layout(*v)
    return out


def calibrated(stmt, env, timer, min_sample_s=0.001):
    t = timeit.Timer(stmt, timer=timer, globals=env)
    number = 1
    while t.timeit(number) < min_sample_s:
        number *= 2
    return t, number


def interleaved_min(cases, timer):
    """The minimum time per call of each (statement, globals) case, sampled in turn."""
    timers = [calibrated(stmt, env, timer) for stmt, env in cases]
    best = [float("inf")] * len(cases)
    for _ in range(ROUNDS):
        for k, (t, number) in enumerate(timers):
            best[k] = min(best[k], t.timeit(number) / number)
    return best


def main():
    wall = "--wall" in sys.argv
    timer = time.perf_counter if wall else time.thread_time
    envs = {}
    for key, mod in (("p", P), ("c", C), ("q", Q)):
        envs[key] = {n: getattr(mod, n) for n in NAMES}
    envs["p"]["blocked_product"] = blocked_product_of(P)
    envs["c"]["blocked_product"] = C.blocked_product
    envs["q"]["blocked_product"] = Q.blocked_product  # CuTe's, which the drop-in adds
    mods = {"p": P, "c": C, "q": Q}
    rows, report, ok = [], {}, True
    for key, (stmt, spec) in OPS.items():
        cases = [(stmt, {**envs[k], **operands(mods[k], spec)}) for k in ("p", "c", "q")]
        tp, tc, tq = interleaved_min(cases, timer)
        # every side computes the same function
        values = []
        for (st, env), k in zip(cases, "pcq"):
            r = eval(st, env)
            size = P.size(r) if k == "p" else (Q.size(r) if k == "q" else r.size())
            values.append([r(i) for i in range(size)])
        assert values[0] == values[1] == values[2], key
        ratio, cratio = tp / tc, tp / tq
        ok &= ratio >= (SMALL_MIN if key in SMALL else OP_MIN) and cratio >= COMPAT_MIN
        rows.append((key, tp, tc, ratio, tq, cratio))
        report[key] = {"pycute_ns": tp * 1e9, "cute_algebra_ns": tc * 1e9, "ratio": ratio,
                       "compat_ns": tq * 1e9, "compat_ratio": cratio}
    med = statistics.median(r[3] for r in rows)
    ok &= med >= MEDIAN_MIN
    extra = {
        "build Layout(((2,2),(4,2)),((1,8),(2,32)))": "Layout(((2, 2), (4, 2)), ((1, 8), (2, 32)))",
        "build Layout((8,8),(8,1))": "Layout((8, 8), (8, 1))",
        # the tuples made anew by each call (`two` is a variable): no constructor can know them
        "build from new tuples (not remembered)": "Layout(((two, 2), (4, 2)), ((1, 8), (2, 32)))",
        "L.shape": "L.shape",
        "evaluate L(37)": "L(37)",
        "evaluate L((1,1),(3,1))": "L((1, 1), (3, 1))",
    }
    ext_rows = []
    for name, stmt in extra.items():
        lp = P.Layout(((2, 2), (4, 2)), ((1, 8), (2, 32)))
        lc = C.Layout(((2, 2), (4, 2)), ((1, 8), (2, 32)))
        tp, tc = interleaved_min([(stmt, {"Layout": P.Layout, "L": lp, "two": 2}),
                                  (stmt, {"Layout": C.Layout, "L": lc, "two": 2})], timer)
        if name.startswith("build Layout(((2"):
            ok &= tp / tc >= BUILD_MIN
        if name == "L.shape":
            ok &= tc * 1e9 <= SHAPE_MAX_NS
        ext_rows.append((name, tp, tc, tp / tc))
        report[name] = {"pycute_ns": tp * 1e9, "cute_algebra_ns": tc * 1e9, "ratio": tp / tc}
    clock = "wall clock" if wall else "thread CPU time"
    print(f"cute_algebra and cute_algebra.pycute against legacy pycute ({clock}, "
          f"minimum ns per call over {ROUNDS} interleaved rounds)")
    print(f"{'operation':<46} {'pycute':>9} {'cute_algebra':>13} {'ratio':>8} {'.pycute':>9} {'ratio':>8}")
    for key, tp, tc, r, tq, rq in rows:
        print(f"{key:<46} {tp * 1e9:>9.0f} {tc * 1e9:>13.0f} {r:>7.1f}x {tq * 1e9:>9.0f} {rq:>7.1f}x")
    print(f"{'median ratio (target >= 40x, each >= 20x)':<46} {'':>9} {'':>13} {med:>7.1f}x")
    for key, tp, tc, r in ext_rows:
        print(f"{key:<46} {tp * 1e9:>9.0f} {tc * 1e9:>13.0f} {r:>7.1f}x")
    report["median_ratio"] = med
    if "--no-contract" in sys.argv:
        return finish(report, ok)
    import numpy as np

    def best_in_blocks(reps, f, g, pause=0.5):
        """The best wall-clock time of each of f and g: `reps` runs of f, then `reps` of g, twice
        (f f f.. g g g.. f f f.. g g g..), after one warm-up run of each, with `pause` seconds of
        sleep before each block. Blocks taken in turn see the same load of a shared machine; the
        pause lets the other library's worker threads go to sleep first (OpenBLAS's spin for a
        while after each call, and would take cores from the next block)."""
        f()
        g()
        tf, tg = [], []
        for _ in range(2):
            for fn, times in ((f, tf), (g, tg)):
                time.sleep(pause)
                for _ in range(reps):
                    t0 = time.perf_counter()
                    fn()
                    times.append(time.perf_counter() - t0)
        return min(tf), min(tg)

    rng = np.random.default_rng(0)
    n = 2048
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    out = np.empty((n, n), dtype=np.float32)
    cases = [("mk,kn->mn", a, b, out, 2.0 * n**3)]
    s_, t_, u_, p_, r_, q_ = 16, 4, 64, 48, 32, 128
    a5 = rng.standard_normal((s_, t_, u_, p_, r_), dtype=np.float32)
    b5 = rng.standard_normal((q_, t_, r_, u_), dtype=np.float32)
    out5 = np.empty((s_, t_, q_, p_), dtype=np.float32)
    cases.append(("stupr,qtru->stqp", a5, b5, out5, 2.0 * s_ * t_ * u_ * p_ * r_ * q_))
    print(f"{'contract (wall clock, best of 2 blocks of 5)':<46} {'einsum ms':>10} {'cute ms':>13} {'ratio':>8}")
    for spec, x, y, o, flops in cases:
        te, tc = best_in_blocks(REPS, lambda: np.einsum(spec, x, y, optimize=True),
                                  lambda: C.contract(spec, x, y, out=o))
        ref = np.einsum(spec, x, y, optimize=True)
        assert np.allclose(o, ref, rtol=1e-3, atol=1e-2), spec
        ok &= tc <= te
        print(f"{spec:<46} {te * 1e3:>10.1f} {tc * 1e3:>13.1f} {te / tc:>7.2f}x"
              f"   ({flops / tc / 1e9:.0f} GFLOP/s)")
        report["contract " + spec] = {"einsum_s": te, "cute_algebra_s": tc, "ratio": te / tc}
    return finish(report, ok)


def finish(report, ok):
    if "--json" in sys.argv:
        with open(sys.argv[sys.argv.index("--json") + 1], "w") as f:
            json.dump(report, f, indent=1)
    print("all targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
