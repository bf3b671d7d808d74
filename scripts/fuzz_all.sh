#!/usr/bin/env bash
# Runs every cargo-fuzz target of fuzz/ (`cargo fuzz list`: parse, ops, algebra, cli), or the
# TARGETs named, for SECONDS each (default 600), one after another, and exits non-zero if any of
# them found a crash (panic, overflow, abort) or a hang (an input slower than 10 s). See
# fuzz/README.md.
#
#   scripts/fuzz_all.sh [SECONDS [TARGET...]]
#
# Environment: FUZZ_TOOLCHAIN (e.g. `+nightly`, default: the default toolchain) and FUZZ_SANITIZER
# (default `none`, which works on stable Rust; `address` needs a nightly toolchain).
set -uo pipefail

secs="${1:-600}"
toolchain="${FUZZ_TOOLCHAIN:-}"
sanitizer="${FUZZ_SANITIZER:-none}"
cd "$(dirname "$0")/.."

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz_all: cargo-fuzz is missing; install it with: cargo install cargo-fuzz" >&2
    exit 2
fi

mkdir -p fuzz/logs
failed=()
summary=()
if [ "$#" -gt 1 ]; then
    shift
    targets="$*"
else
    # shellcheck disable=SC2086
    targets=$(cargo $toolchain fuzz list) || exit 2
fi
for t in $targets; do
    mkdir -p "fuzz/corpus/$t"
    echo "fuzz_all: $t for ${secs}s (sanitizer $sanitizer)" >&2
    # -a: debug assertions, so that an unchecked integer overflow panics instead of wrapping
    # shellcheck disable=SC2086
    cargo $toolchain fuzz run --sanitizer "$sanitizer" -a "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
        -timeout=10 -max_total_time="$secs" -print_final_stats=1 >"fuzz/logs/$t.log" 2>&1
    rc=$?
    runs=$(grep -E '^stat::number_of_executed_units' "fuzz/logs/$t.log" | awk '{print $2}')
    speed=$(grep -E '^stat::average_exec_per_sec' "fuzz/logs/$t.log" | awk '{print $2}')
    if [ "$rc" -ne 0 ]; then
        failed+=("$t")
        summary+=("$t: FAILED (exit $rc), see fuzz/logs/$t.log and fuzz/artifacts/$t/")
        grep -E -m1 -A3 'panicked at|ERROR: libFuzzer' "fuzz/logs/$t.log" >&2
    else
        summary+=("$t: ok, ${runs:-?} runs in ${secs}s, ${speed:-?} exec/s")
    fi
done

printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -ne 0 ]; then
    echo "fuzz_all: crashes or hangs in: ${failed[*]}" >&2
    exit 1
fi
