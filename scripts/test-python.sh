#!/usr/bin/env bash
# Builds the Python module cute_algebra (crates/cute-py) and runs its pytest suite.
# Needs only Rust and Python 3: it makes its own virtual environment under target/pyenv and
# installs maturin, pytest, numpy, ml_dtypes (bfloat16 arrays; its tests skip without it), mypy (for stubtest)
# and sympy (symbolic extents in cute_algebra.symbolic and cute_algebra.pycute, and their examples)
# there, and legacy pycute (the nvidia-cutlass wheel, without its dependencies) for the comparison
# tests. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
VENV="$CARGO_TARGET_DIR/pyenv"
PY="${PYTHON:-python3}"

if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
export VIRTUAL_ENV="$VENV"
export PATH="$VENV/bin:$PATH"
if ! [ -x "$VENV/bin/maturin" ] || ! python -c "import pytest, numpy, ml_dtypes, mypy, sympy, pycute" >/dev/null 2>&1; then
  python -m pip install --quiet --upgrade pip
  python -m pip install --quiet "maturin>=1.5,<2" pytest numpy ml_dtypes mypy sympy
  python -m pip install --quiet --no-deps nvidia-cutlass
fi

(cd crates/cute-py && maturin develop --release --quiet)
python -m pytest -q -p no:cacheprovider crates/cute-py/tests "$@"
