#!/usr/bin/env bash
# One device session of the GPU checks and benchmarks (BENCHMARKS.md, "GPU library"): run on the
# device machine from the repository root, with the stripped `cute` binary and the cute_algebra
# wheel built here and carried in .dev/ (the device has no cargo):
#
#   cargo build --release -p cute-cli --bin cute && (cd crates/cute-py && maturin build --release --out ../../target/wheels)
#   mkdir -p .dev && cp target/release/cute .dev/ && strip .dev/cute && cp target/wheels/cute_algebra-*.whl .dev/
#   (device) bash scripts/gpu_device_run.sh [steps...]     # steps: py checks perf ab gemm sass ncu ncu-gett sanitizer sanitizer-gemm contract-ab build-ab gemm-checks (default: all but ncu, ncu-gett, ab, build-ab, sanitizer-gemm, contract-ab and gemm-checks)
#
# Writes each step's output into $OUT (or /tmp/gpu-out) and prints the tails.
set -u
OUT="${OUT:-/tmp/gpu-out}"
mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONUNBUFFERED=1 CUTE_CUDA_CACHE=/tmp/cute-cuda-cache
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .dev/cute_algebra-*.whl || exit 1
export PYTHONPATH=/tmp/site
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
steps="${*:-py checks perf gemm sass sanitizer}"
for s in $steps; do
  case $s in
    py) timeout 300 python3 scripts/gpu_python_check.py --json "$OUT/py.json" > "$OUT/py.txt" 2>&1
        echo "== py (exit $?)"; grep -v "^FAIL copy\|^FAIL contract" "$OUT/py.txt" | tail -45
        grep -c "^FAIL" "$OUT/py.txt" ;;
    checks) timeout 240 .dev/cute gpu --no-bandwidth --json "$OUT/checks.json" > "$OUT/checks.txt" 2>&1
        echo "== cute gpu checks (exit $?)"; grep -v "^\(atom\|copy\|gemm\) .* ok " "$OUT/checks.txt" | tail -15 ;;
    perf) timeout 70 .dev/cute gpu --only perf --json "$OUT/perf.json" > "$OUT/perf.txt" 2>&1
        echo "== cute gpu perf (exit $?)"; tail -6 "$OUT/perf.txt" ;;
    ab) # A/B of two builds on one machine: .dev/cute (A) and .dev/cute-b (B, e.g. a branch's),
        # `cute gpu --only perf` alternately, three rounds each (the GPU's clock drifts: compare
        # within a round, and the best of each)
        for r in 1 2 3; do
          for v in a b; do
            exe=.dev/cute; [ $v = b ] && exe=.dev/cute-b
            timeout 70 $exe gpu --only perf > "$OUT/perf_${v}_$r.txt" 2>&1
            grep "gemm-perf" "$OUT/perf_${v}_$r.txt" | sed -e "s/^gemm-perf /$v$r /" -e 's/ (.*//' -e 's/  */ /g'
          done
        done ;;
    bandwidth) timeout 120 .dev/cute gpu --only bandwidth --json "$OUT/bandwidth.json" > "$OUT/bandwidth.txt" 2>&1
        echo "== cute gpu bandwidth (exit $?)"; tail -14 "$OUT/bandwidth.txt" ;;
    gemm) timeout 300 python3 scripts/gpu_gemm_bench.py --json "$OUT/gemm.json" > "$OUT/gemm.txt" 2>&1
        echo "== GEMM/GETT against torch (exit $?)"; tail -16 "$OUT/gemm.txt" ;;
    gemm-quick) timeout 120 python3 scripts/gpu_gemm_bench.py --quick --json "$OUT/gemm.json" > "$OUT/gemm.txt" 2>&1
        echo "== GEMM/GETT against torch, 8192^3 and one GETT (exit $?)"; tail -8 "$OUT/gemm.txt" ;;
    sass) rm -rf /tmp/ptx; timeout 120 .dev/cute gpu --emit-ptx /tmp/ptx > /dev/null 2>&1
        echo "== SASS of the GEMM benchmark kernels (instruction counts)"
        for f in /tmp/ptx/*.cubin; do
          cuobjdump -sass "$f" > "${f%.cubin}.sass" 2>&1
          printf '%-24s HGMMA %4s UTMALDG %3s UTMASTG %3s STSM %3s LDGSTS %4s LDL %3s STL %3s %s\n' "$(basename "$f")" \
            "$(grep -c HGMMA "${f%.cubin}.sass")" "$(grep -c UTMALDG "${f%.cubin}.sass")" \
            "$(grep -c UTMASTG "${f%.cubin}.sass")" "$(grep -c STSM "${f%.cubin}.sass")" \
            "$(grep -c LDGSTS "${f%.cubin}.sass")" "$(grep -c 'LDL' "${f%.cubin}.sass")" \
            "$(grep -c 'STL' "${f%.cubin}.sass")" "$(cuobjdump -res-usage "$f" 2>&1 | grep -o 'REG:[0-9]*' | head -1)"
        done ;;
    ncu) cat > /tmp/ncu_gemm.py <<'PY'
import torch, cute_algebra.cuda as cc
a = torch.randn(8192, 8192, dtype=torch.bfloat16, device="cuda")
b = torch.randn(8192, 8192, dtype=torch.bfloat16, device="cuda")
c = torch.empty(8192, 8192, dtype=torch.bfloat16, device="cuda")
for _ in range(2):
    cc.matmul(a, b, out=c); torch.matmul(a, b, out=c)
torch.cuda.synchronize()
PY
        # the TMA GEMM and cuBLAS's kernel on the same 8192^3 bf16 operands, one launch each
        timeout 240 ncu --launch-skip 2 --launch-count 2 --set full -o "$OUT/gemm" -f python3 /tmp/ncu_gemm.py > "$OUT/ncu_run.txt" 2>&1
        echo "== ncu (exit $?)"; tail -3 "$OUT/ncu_run.txt"
        ncu --import "$OUT/gemm.ncu-rep" --page details > "$OUT/ncu.txt" 2>&1
        grep -E "^  [a-z_0-9]+.*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|L2 Hit Rate|DRAM Throughput|Registers Per|Cluster Size|Grid Size|Block Size|Stall|Warp Cycles Per Issued|Issued Ipc|SM Frequency|Dynamic Shared|Achieved Occupancy" "$OUT/ncu.txt" | head -70 ;;
    ncu-gett) cat > /tmp/ncu_gett.py <<'PY'
import torch, cute_algebra.cuda as cc
s, t, u, p, r, q = 64, 16, 64, 64, 16, 1024
g = torch.Generator(device="cuda").manual_seed(1)
# column-major in the letters' order (as `cute gpu contract` lays them out)
A = torch.rand((r, p, u, t, s), generator=g, device="cuda").to(torch.bfloat16).permute(4, 3, 2, 1, 0)
B = torch.rand((u, r, t, q), generator=g, device="cuda").to(torch.bfloat16).permute(3, 2, 1, 0)
C = torch.empty((p, q, t, s), dtype=torch.bfloat16, device="cuda").permute(3, 2, 1, 0)
# the same flop count in GEMM form for torch.bmm: (t, s*p, u*r) x (t, u*r, q)
a = torch.rand((t, s * p, u * r), generator=g, device="cuda").to(torch.bfloat16)
b = torch.rand((t, u * r, q), generator=g, device="cuda").to(torch.bfloat16)
for _ in range(3):
    cc.contract("stupr,qtru->stqp", A, B, C); torch.bmm(a, b)
torch.cuda.synchronize()
torch.cuda.profiler.start()
cc.contract("stupr,qtru->stqp", A, B, C); torch.bmm(a, b)
torch.cuda.synchronize()
torch.cuda.profiler.stop()
PY
        # the q1024 GETT's kernel and cuBLAS's bmm on the same flop count, one launch each: where
        # the GETT's time goes (DRAM, L2, stalls) against 8192^3's (the ncu step)
        timeout 240 ncu --profile-from-start off --set full -o "$OUT/gett" -f python3 /tmp/ncu_gett.py > "$OUT/ncu_gett_run.txt" 2>&1
        echo "== ncu GETT q1024 (exit $?)"; tail -3 "$OUT/ncu_gett_run.txt"
        ncu --import "$OUT/gett.ncu-rep" --page details > "$OUT/ncu_gett.txt" 2>&1
        grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|L2 Hit Rate|DRAM Throughput|L1/TEX Hit|Registers Per|Grid Size|Block Size|Stall|Warp Cycles Per Issued|Issued Ipc|SM Frequency|Dynamic Shared|Achieved Occupancy" "$OUT/ncu_gett.txt" | head -70 ;;
    sanitizer) timeout 110 compute-sanitizer --tool memcheck --print-limit 10 python3 scripts/gpu_python_check.py --quick > "$OUT/sanitizer.txt" 2>&1
        echo "== compute-sanitizer memcheck, quick sample (exit $?)"; tail -4 "$OUT/sanitizer.txt" ;;
    contract-ab) # one-off contractions (bf16 C), each in one process, timing beside the plan's kernel
        # its alternative, every tile whole where the plan splits its last wave along K (stream-K):
        # the paper's GETT at q256, q1024 and s128 p128 q1024, 8192^3 and 8000^3
        for spec in "stupr,qtru->stqp s=64,t=16,u=64,p=64,r=16,q=256" "stupr,qtru->stqp s=64,t=16,u=64,p=64,r=16,q=1024" \
                    "stupr,qtru->stqp s=128,t=16,u=64,p=128,r=16,q=1024" "mk,kn->mn m=8192,n=8192,k=8192" "mk,kn->mn m=8000,n=8000,k=8000"; do
          set -- $spec
          timeout 60 .dev/cute gpu contract "$1" --sizes "$2" --out-dtype bf16 > "$OUT/ab_${2//[=,]/_}.txt" 2>&1
          echo "== $1 $2 (exit $?)"; grep "gemm-perf" "$OUT/ab_${2//[=,]/_}.txt" | grep -v "GEMM form" | cut -c1-200
        done ;;
    build-ab) # the plan's kernel from two builds, .dev/cute (a) and .dev/cute-b (b), alternately in two
        # rounds (the GPU's clock drifts: compare within a round): the GETT at q256 and q1024, 8192^3
        for r in 1 2; do
          for spec in "stupr,qtru->stqp s=64,t=16,u=64,p=64,r=16,q=256" "stupr,qtru->stqp s=64,t=16,u=64,p=64,r=16,q=1024" \
                      "mk,kn->mn m=8192,n=8192,k=8192"; do
            set -- $spec
            for v in a b; do
              exe=.dev/cute; [ $v = b ] && exe=.dev/cute-b
              timeout 60 $exe gpu contract "$1" --sizes "$2" --out-dtype bf16 > "$OUT/bab_$v${r}_${2//[=,]/_}.txt" 2>&1
              echo "$v$r $2: $(grep "^gemm-perf wgmma-tma " "$OUT/bab_$v${r}_${2//[=,]/_}.txt" | grep -o 'ok *[0-9]* TFLOP/s ([0-9.]* ms)')"
            done
          done
        done ;;
    gemm-checks) # every GEMM check, rows to stderr as they finish (seconds since the start)
        timeout 300 .dev/cute gpu --only gemm --progress --json "$OUT/gemm_checks.json" > "$OUT/gemm_checks.txt" 2> "$OUT/gemm_progress.txt"
        echo "== GEMM checks (exit $?): $(grep -c ' ok ' "$OUT/gemm_checks.txt") ok, $(grep -c 'stream-K' "$OUT/gemm_checks.txt") split"
        grep -i "fail" "$OUT/gemm_checks.txt" | cut -c1-200 | head -8; tail -3 "$OUT/gemm_progress.txt" | cut -c1-200 ;;
    sanitizer-gemm) # every GEMM check (each TMA width, clusters of two, cp.async wgmma, mma.sync) under memcheck
        # (rows to stderr as they finish, so that a run stopped by its time limit shows how far it got)
        timeout "${SAN_LIMIT:-280}" compute-sanitizer --tool memcheck --print-limit 10 .dev/cute gpu --only gemm --progress \
          > "$OUT/sanitizer_gemm.txt" 2> "$OUT/sanitizer_gemm_progress.txt"
        echo "== compute-sanitizer memcheck, cute gpu --only gemm (exit $?): $(grep -c ' ok ' "$OUT/sanitizer_gemm.txt") ok, $(grep -c 'stream-K' "$OUT/sanitizer_gemm.txt") split"
        grep -i "fail" "$OUT/sanitizer_gemm.txt" | cut -c1-200 | head -8; tail -4 "$OUT/sanitizer_gemm.txt"; tail -2 "$OUT/sanitizer_gemm_progress.txt" | cut -c1-200 ;;
  esac
done
