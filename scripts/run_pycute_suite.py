#!/usr/bin/env python3
"""Runs CUTLASS's legacy pycute test suite against cute_algebra.pycute.

Usage: scripts/run_pycute_suite.py SUITE_DIR [pytest args...]

SUITE_DIR is a folder holding CUTLASS's test/python/pycute/test_*.py (this script fetches
nothing). Each file is copied into a temporary folder with only its import line changed, from
`from pycute import *` to `from cute_algebra.pycute import *`, and pytest runs the copies.
The exit status is pytest's.
"""

import pathlib
import re
import subprocess
import sys
import tempfile

IMPORT = re.compile(r"^(\s*)from pycute import \*\s*$", re.M)


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    suite = pathlib.Path(sys.argv[1])
    files = sorted(suite.glob("test_*.py"))
    if not files:
        print(f"error: no test_*.py in {suite}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="pycute-suite-") as tmp:
        for f in files:
            text = f.read_text()
            new, n = IMPORT.subn(r"\1from cute_algebra.pycute import *", text)
            if n != 1:
                print(f"error: {f.name}: expected one `from pycute import *` line, found {n}",
                      file=sys.stderr)
                return 2
            (pathlib.Path(tmp) / f.name).write_text(new)
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", tmp, *sys.argv[2:]]
        return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())
