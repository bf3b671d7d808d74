#!/usr/bin/env python3
"""PyTorch's side of the GPU COPY comparison, run in the same device session as `cute gpu`.

Reads the permutation cases that `cute gpu --torch-cases` prints (shape, permutation, dtype) and
times `x.permute(perm).contiguous()` and a device-to-device copy of the same bytes with CUDA
events: median of 20 runs after 3 warm-ups, on random data. Prints JSON: one object per case with
GB/s counting bytes read plus written.

    cute gpu --torch-cases > cases.json && python3 scripts/gpu_torch.py cases.json > torch.json
"""
import json
import sys

import torch


def median_ms(fn, warmup=3, reps=20):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    return times[len(times) // 2]


def main():
    cases = json.load(open(sys.argv[1]))
    dtypes = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
    out = []
    for c in cases:
        if c["kind"] == "matmul":
            n = 8192
            a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
            t = median_ms(lambda: torch.matmul(a, b))
            out.append({"name": c["name"], "torch_ms": t, "torch_tflops": 2 * n**3 / t / 1e9})
            del a, b
            torch.cuda.empty_cache()
            continue
        if c["kind"] == "gett":
            d = {w[0]: int(w[1:]) for w in c["name"].split() if w[0] in "stuprq" and w[1:].isdigit()}
            s_, t_, u_, p_, r_, q_ = (d[x] for x in "stuprq")
            # column-major in index order, as the Rust side lays them out
            A = torch.randn(r_, p_, u_, t_, s_, device="cuda", dtype=torch.bfloat16).permute(4, 3, 2, 1, 0)
            B = torch.randn(u_, r_, t_, q_, device="cuda", dtype=torch.bfloat16).permute(3, 2, 1, 0)
            t = median_ms(lambda: torch.einsum("stupr,qtru->stqp", A, B))
            flops = 2 * s_ * t_ * u_ * p_ * r_ * q_
            out.append({"name": c["name"], "torch_ms": t, "torch_tflops": flops / t / 1e9})
            del A, B
            torch.cuda.empty_cache()
            continue
        dt = dtypes[c["dtype"]]
        x = torch.randn(c["shape"], device="cuda", dtype=torch.float32).to(dt)
        perm = c["perm"]
        y = x.permute(perm).contiguous()
        # correctness of the reference itself, on a slice
        assert y.shape == tuple(c["shape"][p] for p in perm)
        nbytes = 2 * x.numel() * x.element_size()
        t = median_ms(lambda: x.permute(perm).contiguous())
        z = torch.empty_like(x)
        t_copy = median_ms(lambda: z.copy_(x))
        out.append({
            "name": c["name"],
            "torch_ms": t,
            "torch_gbs": nbytes / t / 1e6,
            "torch_d2d_gbs": nbytes / t_copy / 1e6,
        })
        del x, y, z
        torch.cuda.empty_cache()
    json.dump(out, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
