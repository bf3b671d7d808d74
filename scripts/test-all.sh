#!/usr/bin/env bash
# Every test of the project, on a fresh machine with a Rust toolchain and Python 3 (the README's
# test command): the Rust tests (unit, integration, conformance, property, doc), the Python
# module's pytest suite (in its own virtual environment under target/), and the playground in
# headless Chromium (installed from the distribution's packages when missing and we are root).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Rust: cargo test --workspace --release"
cargo test --workspace --release

echo "== Python: the module cute_algebra, built by maturin, and its pytest suite"
scripts/test-python.sh

echo "== Python stubs: the operation table's block of the stubs is current (and mypy's stubtest)"
CUTE=target/release/cute "${CARGO_TARGET_DIR:-target}/pyenv/bin/python" scripts/gen_native_stub.py --check

echo "== browser: cute playground in headless Chromium"
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "error: the browser test needs Chromium (apt-get install chromium)" >&2
    exit 1
  fi
fi
cargo build --release -p cute-cli --bin cute
python3 scripts/test-playground.py --screenshot "${TMPDIR:-/tmp}/cute-playground.png"
