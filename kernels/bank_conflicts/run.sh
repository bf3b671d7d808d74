#!/usr/bin/env bash
# Runs on the GPU machine, from any directory: builds probe for sm_90, checks every pattern's
# loaded values, times them with clock64 (a fallback without counters), profiles every launch
# of bank_probe with Nsight Compute and prints the comparison table (compare.py). The table, the
# counters, the report and the main logs go to $OUT (default ./out; at most 8 files there), the
# rest to ./logs.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
OUT=${OUT:-$here/out}
LOG=$here/logs
mkdir -p "$OUT" "$LOG"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$LOG/gpu.txt"
nvcc --version | tail -2
ncu --version | tail -1
nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o probe probe.cu 2>&1 | tee "$LOG/build.log"
[ -x probe ] || { echo "build failed"; exit 1; }
echo "== SASS shared loads (count by width) =="
cuobjdump -sass probe | grep -oE "LDS(\.[A-Z0-9]+)*" | sort | uniq -c
echo "== correctness (reps 1) =="
./probe patterns.txt --reps 1 | tee "$OUT/probe.txt" || { echo "probe failed"; exit 1; }
echo "== clock64 timing (reps 1000, after a warm-up launch) =="
./probe patterns.txt --reps 1000 --warmup > "$OUT/timing.txt" 2>&1 || echo "timing run failed"
# the metrics this ncu knows
ncu --query-metrics > "$OUT/metrics.txt" 2>&1 || true
want="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld
      smsp__sass_inst_executed_op_shared_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
      smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld
      smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld"
grep -E "mem_shared_op_ld|op_shared_ld" "$OUT/metrics.txt" | head -12
metrics=""
for m in $want; do
    if grep -qE "^[[:space:]]*$m([[:space:]]|$)" "$OUT/metrics.txt"; then metrics="$metrics,$m.sum"; fi
done
metrics=${metrics#,}
core=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
[ -n "$metrics" ] || metrics=$core
echo "== ncu metrics: $metrics =="
n=$(( $(grep -c '^P ' patterns.txt) + 1 ))
profile() {
    ncu --clock-control none --kernel-name regex:bank_probe --launch-count "$n" --metrics "$1" \
        -f -o "$OUT/probe" ./probe patterns.txt --reps 1 > "$OUT/ncu_run.log" 2>&1
}
if ! profile "$metrics"; then
    echo "ncu failed with the full metric list; retrying with $core"
    tail -5 "$OUT/ncu_run.log"
    profile "$core" || { echo "ncu failed:"; tail -20 "$OUT/ncu_run.log"; }
fi
grep -E "==PROF==|==ERROR==|==WARNING==" "$OUT/ncu_run.log" | head -5
ncu --import "$OUT/probe.ncu-rep" --csv --page raw > "$OUT/ncu.csv" 2> "$LOG/ncu_import.log" || cat "$LOG/ncu_import.log"
echo "== clock64 timing =="
cat "$OUT/timing.txt"
echo "== comparison =="
python3 compare.py patterns.txt "$OUT/ncu.csv" "$OUT/timing.txt" | tee "$OUT/table.md"
