#!/usr/bin/env python3
"""Joins `cute gpu --json` and `scripts/gpu_torch.py` output (same device session) into the
bandwidth table of BENCHMARKS.md.

    python3 scripts/gpu_table.py gpu.json torch.json
"""
import json
import sys

rows = json.load(open(sys.argv[1]))
torch = {r["name"]: r for r in json.load(open(sys.argv[2]))}
print("| case | cute GB/s | D2D GB/s | % of D2D | torch permute().contiguous() GB/s | cute / torch |")
print("|---|---|---|---|---|---|")
for r in rows:
    if r["group"] != "bandwidth":
        continue
    t = torch.get(r["name"])
    if "gbs" not in r:
        print(f"| {r['name']} | {r['status']} | | | | |")
        continue
    tg = t["torch_gbs"] if t else float("nan")
    print(f"| {r['name']} | {r['gbs']:.0f} | {r['d2d_gbs']:.0f} | {100 * r['ratio_d2d']:.1f}% | {tg:.0f} | {r['gbs'] / tg:.2f}x |")

print()
print("| kernel and case | cute TFLOP/s | torch TFLOP/s (matmul / einsum) | cute / torch |")
print("|---|---|---|---|")
for r in rows:
    if r["group"] != "gemm-perf":
        continue
    t = torch.get(r["name"].split(" ", 1)[1])  # "wgmma matmul ..." -> "matmul ..."
    if "tflops" not in r:
        print(f"| {r['name']} | {r['status']} | | |")
        continue
    tt = t["torch_tflops"] if t else float("nan")
    print(f"| {r['name']} | {r['tflops']:.0f} | {tt:.0f} | {r['tflops'] / tt:.2f}x |")
