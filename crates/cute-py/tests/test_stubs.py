"""The type stubs (_native.pyi) agree with the module (mypy's stubtest)."""

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("mypy", reason="mypy not installed")

PKG = pathlib.Path(__file__).resolve().parent.parent / "python"


def test_stubtest():
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "cute_algebra._native"],
                       capture_output=True, text=True, cwd=PKG)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Success" in r.stdout
