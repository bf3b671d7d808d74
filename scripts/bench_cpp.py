#!/usr/bin/env python3
"""Times CuTe C++ with run-time integers against `cute bench --json` on the same operands, in one run.

Usage:
    scripts/bench_cpp.py -I CUTLASS_INCLUDE -I CCCL_INCLUDE [-I ...] [--cute CUTE_BINARY] [--json OUT]

It fetches nothing. The include folders are those of a host-only g++ build of CuTe:
    pip download --no-deps nvidia-cutlass nvidia-cuda-cccl nvidia-cuda-runtime-cu12 nvidia-cuda-nvcc-cu12
    # unzip each; then
    -I .../cutlass_library/source/include -I .../nvidia/cu13/include/cccl
    -I .../nvidia/cuda_runtime/include -I .../nvidia/cuda_nvcc/include

The script compiles scripts/bench_cpp/bench.cpp with `g++ -std=c++17 -O2` (operands built from
integers the optimiser cannot see, so every extent is a run-time `int`; where CuTe C++ refuses
run-time strides at compile time, the strides are static and the shapes run-time, as the source
says), runs it and `cute bench --json` one after the other (both median ns per call on the
thread's CPU clock, 41 samples of at least 0.5 ms), and checks with `cute` that each C++ result
is the same function as ours on our result's domain (`eval_all` of both, and equal sizes). A C++
result that is not is reported, with the reason, and takes no part in the comparison.

Exit status: 0 when it ran (the table is information, not a gate), 2 on a usage or build error.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# The `cute` command that computes each key's value (the operands of crates/cute-cli/src/bench.rs).
OURS = {
    "composition_tv": ["composition", "(8,8):(8,1)", "((4,8),2):((16,1),8)"],
    "composition_6_12": ["composition", "(4,6,8,10):(2,3,5,7)", "6:12"],
    "logical_divide": ["logical_divide", "(8,16):(20,1)", "<4:1,8:2>"],
    "right_inverse": ["right_inverse", "((2,2),(4,2)):((1,8),(2,16))"],
    "complement": ["complement", "(4,8):(1,8)", "64"],
    "logical_product": ["logical_product", "(3,4):(4,1)", "(2,5):(1,2)"],
    "blocked_product": ["blocked_product", "(3,4):(4,1)", "(2,5):(1,2)"],
    "coalesce": ["coalesce", "((2,(1,4)),(3,1)):((1,(7,2)),(8,0))"],
}


def find_binary(arg):
    candidates = [arg] if arg else []
    if os.environ.get("CARGO_TARGET_DIR"):
        candidates.append(os.path.join(os.environ["CARGO_TARGET_DIR"], "release", "cute"))
    candidates.append(os.path.join(ROOT, "target", "release", "cute"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    sys.exit("error: no cute binary (give --cute, or `cargo build --release -p cute-cli`)")


def cute(binary, *args):
    r = subprocess.run([binary, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"cute {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout.strip()


def same_function(binary, ours, theirs):
    """(True, '') when `theirs` (C++'s print, `_N` static integers) is `ours` as a function on
    ours's domain; else (False, why)."""
    theirs = theirs.replace("_", "")
    try:
        size_o = cute(binary, "size", ours)
        size_t = cute(binary, "size", theirs)
        if size_o != size_t:
            return False, f"size {size_t}, not {size_o}"
        if cute(binary, "eval_all", ours) != cute(binary, "eval_all", theirs):
            return False, "other offsets"
    except RuntimeError as e:
        return False, str(e)
    return True, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-I", dest="inc", action="append", default=[], help="include folder")
    ap.add_argument("--cute", default=None, help="the cute binary")
    ap.add_argument("--json", default=None, help="write the figures here")
    a = ap.parse_args()
    if not a.inc:
        ap.print_usage(sys.stderr)
        sys.exit(2)
    binary = find_binary(a.cute)
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "bench")
        cmd = ["g++", "-std=c++17", "-O2", "-w", *[f"-I{i}" for i in a.inc]]
        cmd += [os.path.join(HERE, "bench_cpp", "bench.cpp"), "-o", exe]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stderr[:4000])
            sys.exit(2)
        cpp_out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    ours_ns = json.loads(cute(binary, "bench", "--json"))
    cpp = {}  # in the order the C++ bench prints them
    for line in cpp_out.splitlines():
        key, ns, value = line.split(" ", 2)
        cpp[key] = (float(ns), value)
    rows = []
    print(f"cute: {binary}   C++: g++ -O2, run-time integers   clock: thread CPU time")
    print(f"{'operation':<18} {'C++ ns':>8} {'cute ns':>8} {'cute/C++':>9}  C++ result (same function?)")
    for key, (c_ns, c_val) in cpp.items():
        o_ns = ours_ns.get(key)
        ours_val = cute(binary, *OURS[key])
        same, why = same_function(binary, ours_val, c_val)
        if key == "coalesce" and same and ours_val != re.sub(r"_", "", c_val):
            same, why = False, "same offsets, but not coalesced"
        ratio = o_ns / c_ns if (same and o_ns) else None
        verdict = "same" if same else f"differs: {why}; ours {ours_val}"
        rs = f"{ratio:9.1f}" if ratio is not None else f"{'—':>9}"
        print(f"{key:<18} {c_ns:8.2f} {o_ns:8.2f} {rs}  {c_val} ({verdict})")
        rows.append({"key": key, "cpp_ns": c_ns, "cute_ns": o_ns, "ratio": ratio,
                     "cpp_value": c_val, "cute_value": ours_val, "same": same, "why": why})
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
