#!/usr/bin/env python3
"""GEMM and GETT speed against PyTorch on the device (BENCHMARKS.md, "GEMM against cuBLAS"):
`cute_algebra.cuda.matmul` / `contract` and `torch.matmul` (cuBLAS) / `torch.bmm` / `torch.einsum`
on the same operands, timed the same way in one run: CUDA events around each call, the median
of 20 after 3 warm-up calls, outputs preallocated on both sides. Each result is checked against
an f32 reference (relative Frobenius error). Prints a table and writes JSON (--json FILE).

    python3 scripts/gpu_gemm_bench.py [--json out.json] [--quick]
"""

import argparse
import json
import sys

import torch

import cute_algebra.cuda as cc
from gpu_python_check import median_ms  # the same timing as the library checks


def last_kind():
    """How the most recently planned call runs (the plan the fast path remembered last)."""
    plans = list(cc._PLANS.values())
    return plans[-1][0].kind if plans else "?"


def rel_err(x, ref):
    return ((x.float() - ref).norm() / ref.norm()).item()


def operands(m, n, k, a_major, b_major, dt, g):
    """A (m,k) and B (k,n) as torch views: A K- or M-contiguous, B N- or K-contiguous."""
    a = torch.randn(m, k, dtype=dt, device="cuda", generator=g) if a_major == "K" else \
        torch.randn(k, m, dtype=dt, device="cuda", generator=g).t()
    b = torch.randn(k, n, dtype=dt, device="cuda", generator=g) if b_major == "N" else \
        torch.randn(n, k, dtype=dt, device="cuda", generator=g).t()
    return a, b


def gemm_row(name, m, n, k, a_major, b_major, dt, g, target):
    a, b = operands(m, n, k, a_major, b_major, dt, g)
    c = torch.empty(m, n, dtype=dt, device="cuda")
    c_t = torch.empty(m, n, dtype=dt, device="cuda")
    cc.matmul(a, b, out=c)
    cc.matmul(a, b, out=c)  # the second call takes (and so shows) the remembered plan
    kind = last_kind()
    t_ours = median_ms(lambda: cc.matmul(a, b, out=c))
    t_torch = median_ms(lambda: torch.matmul(a, b, out=c_t))
    # the two interleaved once more (clocks drift with power): the better of each
    t_ours = min(t_ours, median_ms(lambda: cc.matmul(a, b, out=c)))
    t_torch = min(t_torch, median_ms(lambda: torch.matmul(a, b, out=c_t)))
    fl = 2.0 * m * n * k
    ref = torch.matmul(a.float(), b.float())
    err = rel_err(c, ref)
    ours, theirs = fl / t_ours / 1e9, fl / t_torch / 1e9
    ratio = ours / theirs
    ok = err < 1e-2 and (target is None or ratio >= target)
    del a, b, c, c_t, ref
    torch.cuda.empty_cache()
    return dict(name=name, ours_tflops=ours, torch_tflops=theirs, ratio=ratio, target=target,
                rel_err=err, kind=kind, ok=ok)


def gett_row(s, t, u, p, r, q, g):
    dt = torch.bfloat16
    A = torch.randn(s, t, u, p, r, dtype=dt, device="cuda", generator=g)
    B = torch.randn(q, t, r, u, dtype=dt, device="cuda", generator=g)
    # column-major in the letters' order (the layouts of the Rust benchmark)
    A = A.permute(4, 3, 2, 1, 0).contiguous().permute(4, 3, 2, 1, 0)
    B = B.permute(3, 2, 1, 0).contiguous().permute(3, 2, 1, 0)
    C = torch.empty((p, q, t, s), dtype=dt, device="cuda").permute(3, 2, 1, 0)
    spec = "stupr,qtru->stqp"
    cc.contract(spec, A, B, C)
    cc.contract(spec, A, B, C)
    kind = last_kind()
    fl = 2.0 * s * t * u * p * r * q
    t_ours = median_ms(lambda: cc.contract(spec, A, B, C))
    t_ein = median_ms(lambda: torch.einsum(spec, A, B))
    # the roofline of the shape: the same flops as a batched GEMM with operands in GEMM form
    X = torch.randn(t, s * p, u * r, dtype=dt, device="cuda", generator=g)
    Y = torch.randn(t, u * r, q, dtype=dt, device="cuda", generator=g)
    Z = torch.empty(t, s * p, q, dtype=dt, device="cuda")
    t_bmm = median_ms(lambda: torch.bmm(X, Y, out=Z))
    t_ours = min(t_ours, median_ms(lambda: cc.contract(spec, A, B, C)))
    ref = torch.einsum(spec, A.float(), B.float())
    err = rel_err(C, ref)
    ours = fl / t_ours / 1e9
    row = dict(name=f"GETT {spec} s{s} t{t} u{u} p{p} r{r} q{q} bf16", ours_tflops=ours,
               bmm_tflops=fl / t_bmm / 1e9, einsum_tflops=fl / t_ein / 1e9,
               ratio_bmm=t_bmm / t_ours, ratio_einsum=t_ein / t_ours, rel_err=err, kind=kind)
    row["ok"] = err < 1e-2 and row["ratio_bmm"] >= 0.95 and row["ratio_einsum"] >= 4.0
    del A, B, C, X, Y, Z, ref
    torch.cuda.empty_cache()
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--quick", action="store_true", help="8192^3 majors and one GETT only")
    ap.add_argument("--match", default="",
                    help="only the cases whose name contains one of these comma-separated words "
                         "(e.g. '8000^3,q1024')")
    args = ap.parse_args()
    if not cc.available():
        print("no GPU:", cc.why())
        return 2
    print(f"cute_algebra.cuda: {cc.why()}; torch {torch.__version__}", flush=True)
    g = torch.Generator(device="cuda")
    g.manual_seed(2026)
    bf, f16 = torch.bfloat16, torch.float16
    cases = [(f"bf16 8192^3 A {am}-major B {bm}-major", 8192, 8192, 8192, am, bm, bf, 1.0)
             for am in ("K", "M") for bm in ("N", "K")]
    if not args.quick:
        cases += [
            ("bf16 4096^3", 4096, 4096, 4096, "K", "N", bf, 1.0),
            ("bf16 2048^3", 2048, 2048, 2048, "K", "N", bf, 0.9),
            ("bf16 8000^3", 8000, 8000, 8000, "K", "N", bf, 0.95),
            ("bf16 16384^3", 16384, 16384, 16384, "K", "N", bf, 1.0),
            ("f16 8192^3", 8192, 8192, 8192, "K", "N", f16, 1.0),
            ("bf16 ragged 4097x4095x4096 (A and B K-major: strides of 4096 elements)", 4097,
             4095, 4096, "K", "K", bf, None),
            ("bf16 ragged 4097x4095x4096 (row-major: strides of 4095 elements)", 4097, 4095,
             4096, "K", "N", bf, None),
            # narrow N: the tile's width chosen per problem (reported, no target)
            ("bf16 16384x128x8192", 16384, 128, 8192, "K", "N", bf, None),
            ("bf16 8192x64x8192", 8192, 64, 8192, "K", "N", bf, None),
            ("bf16 1024x768x512", 1024, 768, 512, "K", "N", bf, None),
        ]
    words = [w for w in args.match.split(",") if w]

    def chosen(name):
        return not words or any(w in name for w in words)

    cases = [c for c in cases if chosen(c[0])]
    rows = []
    for name, m, n, k, am, bm, dt, target in cases:
        r = gemm_row(name, m, n, k, am, bm, dt, g, target)
        rows.append(r)
        print(f"{'ok  ' if r['ok'] else 'SHORT'} {name}: {r['ours_tflops']:.0f} TFLOP/s, "
              f"torch.matmul {r['torch_tflops']:.0f} ({r['ratio']:.3f}x, target "
              f"{r['target']}), rel {r['rel_err']:.1e}; {r['kind']}", flush=True)
    gett = [(64, 16, 64, 64, 16, 256)]
    if not args.quick:
        gett += [(64, 16, 64, 64, 16, 1024), (128, 16, 64, 128, 16, 1024)]
    gett = [x for x in gett if chosen("GETT s{} t{} u{} p{} r{} q{}".format(*x))]
    for x in gett:
        r = gett_row(*x, g)
        rows.append(r)
        print(f"{'ok  ' if r['ok'] else 'SHORT'} {r['name']}: {r['ours_tflops']:.0f} TFLOP/s, "
              f"torch.bmm (GEMM form) {r['bmm_tflops']:.0f} ({r['ratio_bmm']:.3f}x, target 0.95), "
              f"torch.einsum {r['einsum_tflops']:.0f} ({r['ratio_einsum']:.1f}x, target 4), "
              f"rel {r['rel_err']:.1e}; {r['kind']}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(device=cc.why(), torch=torch.__version__, rows=rows), f, indent=1)
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
