#!/usr/bin/env bash
# Regenerates patterns.txt from patterns.list with the `cute` command (run on a machine with the
# Rust toolchain; the GPU machine only reads patterns.txt):
#   cargo build --release -p cute-cli && kernels/bank_conflicts/gen_patterns.sh target/release/cute
# patterns.txt, per pattern: a header line
#   P <name> <width bytes> <instructions> <predicted wavefronts> <ideal wavefronts> <SMEM> | <TV>
# then one line per instruction with the 32 byte addresses (threads 0..31).
set -euo pipefail
cute=${1:?usage: gen_patterns.sh PATH/TO/cute}
here=$(cd "$(dirname "$0")" && pwd)
out="$here/patterns.txt"
: > "$out.tmp"
grep -v '^#' "$here/patterns.list" | grep -v '^[[:space:]]*$' | while IFS='|' read -r name smem tv b v; do
    trim() { sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' <<<"$1"; }
    name=$(trim "$name"); smem=$(trim "$smem"); tv=$(trim "$tv"); b=$(trim "$b"); v=$(trim "$v")
    json=$("$cute" banks "$smem" "$tv" --elem-bytes "$b" --vector "$v" --json --addresses)
    python3 - "$name" "$smem" "$tv" "$b" "$v" "$json" >> "$out.tmp" <<'PY'
import json, sys
name, smem, tv, b, v, text = sys.argv[1:]
r = json.loads(text)
print(f"P {name} {int(b) * int(v)} {r['instructions']} {sum(r['wavefronts'])} {sum(r['ideal'])} {smem} | {tv}")
for row in r["addresses"]:
    print(" ".join(map(str, row)))
PY
done
mv "$out.tmp" "$out"
grep -c '^P ' "$out"
