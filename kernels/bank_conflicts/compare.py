#!/usr/bin/env python3
"""Joins the predictions of patterns.txt (cute banks) with Nsight Compute's counters (ncu.csv, the
raw page of the report, one row per launch of bank_probe in launch order) and the clock64 timings
of `probe --reps R` (timing.txt). Prints a Markdown table.

usage: compare.py patterns.txt ncu.csv timing.txt
"""
import csv
import sys

LD_WAVES = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
LD_CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
LD_INSTR = "smsp__sass_inst_executed_op_shared_ld.sum"
ST_WAVES = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
SASS_WAVES = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
SASS_CONFLICTS = "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"


def patterns(path):
    out = [dict(name="baseline", width=4, instr=0, predicted=0, ideal=0, what="no loads")]
    for line in open(path):
        if line.startswith("P "):
            f = line[2:].split(None, 5)
            out.append(dict(name=f[0], width=int(f[1]), instr=int(f[2]), predicted=int(f[3]),
                            ideal=int(f[4]), what=f[5].strip() if len(f) > 5 else ""))
    return out


def number(s):
    s = (s or "").replace(",", "").strip()
    try:
        return float(s)
    except ValueError:
        return None


def ncu_rows(path):
    try:
        text = open(path).read().splitlines()
    except OSError:
        return []
    # skip anything before the header line (warnings ncu may print)
    start = next((i for i, l in enumerate(text) if l.startswith('"ID"')), None)
    if start is None:
        return []
    rows = list(csv.DictReader(text[start:]))
    return [r for r in rows if (r.get("ID") or "").strip().isdigit()]


def timings(path):
    out = {}
    try:
        for line in open(path):
            f = line.split()
            if len(f) >= 8 and f[0].isdigit():
                out[f[1]] = f[6]
    except OSError:
        pass
    return out


def main():
    ps = patterns(sys.argv[1])
    rows = ncu_rows(sys.argv[2])
    cycles = timings(sys.argv[3]) if len(sys.argv) > 3 else {}
    if rows and len(rows) != len(ps):
        print(f"warning: {len(rows)} profiled launches for {len(ps)} patterns", file=sys.stderr)
    have = set(rows[0].keys()) if rows else set()
    get = lambda r, m: number(r.get(m)) if m in have else None
    base = get(rows[0], LD_WAVES) if rows else None
    base = base or 0
    print("| # | pattern | SMEM \\| TV | W | instr | predicted | ideal | ncu ld wavefronts | ncu bank conflicts "
          "| ncu LDS instr | sass wavefronts | sass conflicts | match | cycles/instr (clock64) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    matched = 0
    fmt = lambda v: "n/a" if v is None else str(int(v))
    for k, p in enumerate(ps):
        r = rows[k] if k < len(rows) else {}
        w = get(r, LD_WAVES) if r else None
        net = None if w is None else w - base
        ok = net is not None and int(net) == p["predicted"]
        matched += ok
        what = p["what"].replace("|", "\\|")
        print(f"| {k} | {p['name']} | `{what}` | {p['width']} | {p['instr']} | {p['predicted']} | {p['ideal']} "
              f"| {fmt(net)} | {fmt(get(r, LD_CONFLICTS) if r else None)} | {fmt(get(r, LD_INSTR) if r else None)} "
              f"| {fmt(get(r, SASS_WAVES) if r else None)} | {fmt(get(r, SASS_CONFLICTS) if r else None)} "
              f"| {'✓' if ok else ('✗' if net is not None else 'n/a')} | {cycles.get(p['name'], 'n/a')} |")
    if rows:
        st = get(rows[0], ST_WAVES)
        print(f"\nbaseline launch (no loads): {fmt(base)} load wavefronts, {fmt(st)} store wavefronts "
              f"(the fill); load wavefronts above are net of the baseline.")
    print(f"\n{matched} of {len(ps)} launches match the prediction exactly.")


if __name__ == "__main__":
    main()
