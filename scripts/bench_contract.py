#!/usr/bin/env python3
"""Times numpy.einsum(..., optimize=True) and cute_gemm::contract on the same shapes, in one run.

Usage (from the repository root): python3 scripts/bench_contract.py
Needs numpy (pip install numpy). The Rust side is
`cargo run --release -p cute-gemm --example bench_contract`.
"""
import subprocess
import sys
import time

import numpy as np


def best(reps, f):
    f()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    rng = np.random.default_rng(0)
    cases = {}
    n = 2048
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    cases["mk,kn->mn"] = (best(5, lambda: np.einsum("mk,kn->mn", a, b, optimize=True)), 2.0 * n**3)
    s, t, u, p, r, q = 16, 4, 64, 48, 32, 128
    a = rng.standard_normal((s, t, u, p, r), dtype=np.float32)
    b = rng.standard_normal((q, t, r, u), dtype=np.float32)
    cases["stupr,qtru->stqp"] = (
        best(3, lambda: np.einsum("stupr,qtru->stqp", a, b, optimize=True)),
        2.0 * s * t * u * p * r * q,
    )
    out = subprocess.run(
        ["cargo", "run", "--release", "-q", "-p", "cute-gemm", "--example", "bench_contract"],
        check=True, capture_output=True, text=True,
    ).stdout
    rust = {}
    for line in out.splitlines():
        if line.startswith("RESULT "):
            _, name, secs, gf = line.split()
            rust[name] = float(secs)
    blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    print(f"numpy {np.__version__}, BLAS {blas.get('name')} {blas.get('version')}")
    print(f"{'case':<20} {'numpy s':>10} {'rust s':>10} {'rust/numpy':>11} {'numpy GF/s':>11} {'rust GF/s':>10}")
    for name, (tn, flops) in cases.items():
        tr = rust[name]
        print(f"{name:<20} {tn:>10.4f} {tr:>10.4f} {tr / tn:>11.2f} {flops / tn / 1e9:>11.1f} {flops / tr / 1e9:>10.1f}")
    tr, tf = rust["reference-gemm-128"], rust["fast-gemm-128"]
    print(f"128^3 f32 GEMM: reference loop {tr * 1e3:.2f} ms, fast path {tf * 1e3:.3f} ms, speed-up {tr / tf:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
