#!/usr/bin/env python3
"""Compares `cute bench --json` with NVIDIA's legacy pycute on the same operands, in one run.

Usage:
    scripts/bench_pycute.py [CUTE_BINARY] [--wall] [--allow-missing] [--json OUT.json]

CUTE_BINARY defaults to $CARGO_TARGET_DIR/release/cute, then target/release/cute (build it with
`cargo build --release -p cute-cli`). The script runs `cute bench --json` (which times every
operation in-process, operands built once, median ns per call), then times the same operations
with pycute (operands built once, `timeit` with many repetitions, median), both on the calling
thread's CPU time by default (`time.thread_time` here, `CLOCK_THREAD_CPUTIME_ID` there), so that
a busy machine's preemptions count for neither; `--wall` uses the wall clock for both.

It prints a table with the ratio pycute/ours for each operation (target: at least 300) and the
evaluation ratios (targets: eval_index/eval_hand_index at most 0.5, eval_natural/eval_hand_loops
at most 1.2; static layouts against hand-written constant loops: static_eval_index at most 1.1,
static_eval_natural and static_copy at most 1.05). The exit status is 1 when a target is missed,
or when an operation has no figure (`null`: not in this build) unless --allow-missing is given;
2 on a usage or run error.

Legacy pycute has no blocked_product: it is timed as CuTe C++ defines it for operands of equal
rank, from pycute's own logical_product and make_layout (the zip of the two modes of the product).
"""

import json
import os
import statistics
import subprocess
import sys
import time
import timeit

import pycute
from pycute import Layout, coalesce, complement, composition, logical_divide, logical_product
from pycute import make_layout, right_inverse

OP_RATIO = 300.0  # pycute / ours, at least
EVAL_INDEX_RATIO = 0.5  # eval_index / eval_hand_index, at most
EVAL_NATURAL_RATIO = 1.2  # eval_natural / eval_hand_loops, at most
STATIC_INDEX_RATIO = 1.1  # static_eval_index / eval_hand_const_index, at most
STATIC_RATIO = 1.05  # static_eval_natural / eval_hand_const_loops, static_copy / copy_hand_const


def blocked_product(a, b):
    """CuTe C++'s blocked_product for layouts of equal rank, from pycute's primitives."""
    r = logical_product(a, b)
    return make_layout(*(make_layout(r[0][i], r[1][i]) for i in range(len(a))))


# The benchmark set: key -> (pycute statement, its operands, the `cute OP ARGS` that computes it).
OPS = {
    "composition_tv": (
        "composition(A, B)",
        {"A": Layout((8, 8), (8, 1)), "B": Layout(((4, 8), 2), ((16, 1), 8))},
        ["composition", "(8,8):(8,1)", "((4,8),2):((16,1),8)"],
    ),
    "composition_6_12": (
        "composition(A, B)",
        {"A": Layout((4, 6, 8, 10), (2, 3, 5, 7)), "B": Layout(6, 12)},
        ["composition", "(4,6,8,10):(2,3,5,7)", "6:12"],
    ),
    "logical_divide": (
        "logical_divide(A, T)",
        {"A": Layout((8, 16), (20, 1)), "T": (Layout(4, 1), Layout(8, 2))},
        ["logical_divide", "(8,16):(20,1)", "<4:1,8:2>"],
    ),
    "right_inverse": (
        "right_inverse(A)",
        {"A": Layout(((2, 2), (4, 2)), ((1, 8), (2, 16)))},
        ["right_inverse", "((2,2),(4,2)):((1,8),(2,16))"],
    ),
    "complement": (
        "complement(A, 64)",
        {"A": Layout((4, 8), (1, 8))},
        ["complement", "(4,8):(1,8)", "64"],
    ),
    "logical_product": (
        "logical_product(A, B)",
        {"A": Layout((3, 4), (4, 1)), "B": Layout((2, 5), (1, 2))},
        ["logical_product", "(3,4):(4,1)", "(2,5):(1,2)"],
    ),
    "blocked_product": (
        "blocked_product(A, B)",
        {"A": Layout((3, 4), (4, 1)), "B": Layout((2, 5), (1, 2))},
        ["blocked_product", "(3,4):(4,1)", "(2,5):(1,2)"],
    ),
    "coalesce": (
        "coalesce(A)",
        {"A": Layout(((2, (1, 4)), (3, 1)), ((1, (7, 2)), (8, 0)))},
        ["coalesce", "((2,(1,4)),(3,1)):((1,(7,2)),(8,0))"],
    ),
}

FUNCS = {
    "composition": composition,
    "logical_divide": logical_divide,
    "right_inverse": right_inverse,
    "complement": complement,
    "logical_product": logical_product,
    "blocked_product": blocked_product,
    "coalesce": coalesce,
}


def find_binary(arg):
    candidates = [arg] if arg else []
    if os.environ.get("CARGO_TARGET_DIR"):
        candidates.append(os.path.join(os.environ["CARGO_TARGET_DIR"], "release", "cute"))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    candidates.append(os.path.join(root, "target", "release", "cute"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    sys.exit("error: no cute binary (give its path, or `cargo build --release -p cute-cli`)")


def time_pycute(stmt, operands, timer, samples=31, min_sample_s=0.002):
    """Median seconds per evaluation of `stmt`, operands built once."""
    t = timeit.Timer(stmt, timer=timer, globals={**FUNCS, **operands})
    number = 1
    while t.timeit(number) < min_sample_s:
        number *= 2
    return statistics.median(t.repeat(repeat=samples, number=number)) / number


def cli_result(binary, args):
    """What `cute OP ARGS` prints, or None when the operation is not available."""
    r = subprocess.run([binary, *args], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def main():
    argv = sys.argv[1:]
    wall = "--wall" in argv
    allow_missing = "--allow-missing" in argv
    json_out = None
    if "--json" in argv:
        json_out = argv[argv.index("--json") + 1]
        argv.remove(json_out)
    positional = [a for a in argv if not a.startswith("--")]
    binary = find_binary(positional[0] if positional else None)

    cmd = [binary, "bench", "--json"] + (["--wall"] if wall else [])
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stderr)
        sys.exit(2)
    ours = json.loads(run.stdout)
    timer = time.perf_counter if wall else time.thread_time

    clock = "wall clock" if wall else "thread CPU time"
    print(f"cute: {binary}   pycute: {pycute.__file__}   clock: {clock}")
    print(f"{'operation':<18} {'pycute ns':>11} {'cute ns':>9} {'ratio':>8}  {'target':<8} "
          f"{'ok':<4} result (pycute | cute)")
    failed = []
    report = {"ops": {}, "eval": {}}
    for key, (stmt, operands, cli) in OPS.items():
        py_ns = time_pycute(stmt, operands, timer) * 1e9
        value = eval(stmt, {**FUNCS, **operands})  # noqa: S307 - a fixed statement of this file
        py_text = str(value).replace(" ", "")
        rs = cli_result(binary, cli)
        same = "" if rs is None else (" (same)" if rs == py_text else " (differs)")
        our = ours.get(key)
        if our is None:
            ratio, ok = None, "n/a"
            if not allow_missing:
                failed.append(key)
        else:
            ratio = py_ns / our
            ok = "yes" if ratio >= OP_RATIO else "NO"
            if ratio < OP_RATIO:
                failed.append(key)
        our_text = "null" if our is None else f"{our:9.1f}"
        ratio_text = "" if ratio is None else f"{ratio:8.0f}"
        print(f"{key:<18} {py_ns:11.0f} {our_text:>9} {ratio_text:>8}  {'>= ' + format(OP_RATIO, '.0f'):<8} {ok:<4} "
              f"{py_text} | {rs if rs is not None else '-'}{same}")
        report["ops"][key] = {"pycute_ns": py_ns, "cute_ns": our, "ratio": ratio}

    print()
    print(f"{'evaluation (per element)':<40} {'ns':>8}   {'ratio':>6}  {'target':<8} ok")
    for fast, base, limit in (
        ("eval_index", "eval_hand_index", EVAL_INDEX_RATIO),
        ("eval_natural", "eval_hand_loops", EVAL_NATURAL_RATIO),
        ("static_eval_index", "eval_hand_const_index", STATIC_INDEX_RATIO),
        ("static_eval_natural", "eval_hand_const_loops", STATIC_RATIO),
        ("static_copy", "copy_hand_const", STATIC_RATIO),
    ):
        a, b = ours.get(fast), ours.get(base)
        if a is None or b is None:
            failed.append(fast)
            print(f"{fast}: missing")
            continue
        ratio = a / b
        ok = ratio <= limit
        if not ok:
            failed.append(fast)
        print(f"{fast + ' / ' + base:<40} {a:8.3f}   {ratio:6.2f}  {'<= ' + str(limit):<8} "
              f"{'yes' if ok else 'NO'}")
        print(f"{'  ' + base:<40} {b:8.3f}")
        report["eval"][fast] = {"ns": a, "baseline": base, "baseline_ns": b, "ratio": ratio}

    print()
    if failed:
        print("targets missed: " + ", ".join(failed))
    else:
        print("all targets met")
    if json_out:
        report["cute"] = ours
        report["missed"] = failed
        with open(json_out, "w") as f:
            json.dump(report, f, indent=1)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
