#!/usr/bin/env bash
# Builds the playground's WebAssembly module (crates/cute-wasm) and copies it next to the page in
# crates/cute-cli/assets/playground/, where `cute playground` embeds it (include_bytes!).
#
#   scripts/build-playground.sh           rebuild and copy
#   scripts/build-playground.sh --check   rebuild and fail if the committed module differs
#
# Needs the wasm32-unknown-unknown target (`rustup target add wasm32-unknown-unknown`); no other
# tool: the page talks to the module through its three exports, no generated glue.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-target}"
cargo build --quiet -p cute-wasm --lib --target wasm32-unknown-unknown --profile wasm
built="$target_dir/wasm32-unknown-unknown/wasm/cute_wasm.wasm"
dest=crates/cute-cli/assets/playground/cute.wasm
if [ "${1:-}" = "--check" ]; then
  if ! cmp -s "$built" "$dest"; then
    echo "error: $dest is not the module that crates/cute-wasm builds: run scripts/build-playground.sh and commit it" >&2
    exit 1
  fi
  echo "playground module up to date ($(wc -c <"$dest") bytes)"
else
  mkdir -p "$(dirname "$dest")"
  cp "$built" "$dest"
  echo "wrote $dest ($(wc -c <"$dest") bytes)"
fi
