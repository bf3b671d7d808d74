#!/usr/bin/env python3
"""Runs the test suite of the paper's PyCuTe (NVlabs/CuTe) against cute_algebra.pycute.

Usage: scripts/pycute_suite.py CHECKOUT [pytest args...]

CHECKOUT is the folder of a checkout of NVlabs/CuTe (this script fetches nothing and copies
nothing from it). Its tests say `from pycute import *`; this script puts a one-line `pycute`
module first on the import path, which makes `import pycute` give `cute_algebra.pycute` (and
`import pycute.X` its submodule `cute_algebra.pycute.X`), and then
runs pytest on CHECKOUT/test (and on CHECKOUT/examples' `*_test.py`, when present) with an empty
configuration of its own, so that the checkout's own `pycute` package and its pytest settings
(which would put the checkout first on the path) stay out of the run. The checkout comes after
the shim on the path, so that its examples import their sibling modules.

Run it in the environment that has cute_algebra (scripts/test-python.sh makes target/pyenv);
the suite also needs pytest and sympy there. A test file that cannot be imported (a module this
package lacks) counts as one error and the other files still run. The last line is pytest's
count; the exit status is pytest's.
"""

import os
import pathlib
import subprocess
import sys
import tempfile

SHIM = '''"""`pycute` as cute_algebra.pycute (made by scripts/pycute_suite.py).

`import pycute` gives cute_algebra.pycute, and `import pycute.X` gives cute_algebra.pycute.X
(the same module object, not a second copy), when that submodule exists.
"""
import importlib
import importlib.abc
import importlib.util
import sys

import cute_algebra.pycute as _target


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        if not name.startswith("pycute."):
            return None
        try:
            found = importlib.util.find_spec("cute_algebra." + name)
        except ModuleNotFoundError:
            found = None
        return None if found is None else importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        return importlib.import_module("cute_algebra." + spec.name)

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _Alias())
sys.modules[__name__] = _target
'''


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    checkout = pathlib.Path(sys.argv[1]).resolve()
    tests = checkout / "test"
    if not tests.is_dir():
        print(f"error: {checkout} has no test/ folder (expected a checkout of NVlabs/CuTe)",
              file=sys.stderr)
        return 2
    targets = [str(tests)]
    examples = checkout / "examples"
    if examples.is_dir():
        targets += [str(p) for p in sorted(examples.glob("*_test.py"))]
    with tempfile.TemporaryDirectory(prefix="pycute-shim-") as tmp:
        shim = pathlib.Path(tmp)
        (shim / "pycute.py").write_text(SHIM)
        ini = shim / "pytest.ini"
        ini.write_text("[pytest]\n")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(shim), str(checkout)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-c", str(ini),
               "--rootdir", str(shim), "--import-mode=append", "--continue-on-collection-errors",
               *targets, *sys.argv[2:]]
        return subprocess.call(cmd, env=env, cwd=tmp)


if __name__ == "__main__":
    sys.exit(main())
