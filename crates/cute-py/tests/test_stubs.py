"""The type stubs (.pyi) agree with the modules: every module of the package has one (the native
extension included), mypy's stubtest finds no difference, and the stubs themselves pass
``mypy --strict`` (every parameter and return annotated). A stub that misses a name or mistakes
a signature makes stubtest fail, which the last test checks on a damaged copy of the package."""

import pathlib
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("mypy", reason="mypy not installed")

PKG = pathlib.Path(__file__).resolve().parent.parent / "python"
ROOT = PKG / "cute_algebra"


def modules(root=ROOT):
    """The dotted names of the package's modules: every .py file and the native extension."""
    names = ["cute_algebra._native"]
    for f in sorted(root.rglob("*.py")):
        parts = f.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


def stubtest(cwd, names):
    return subprocess.run([sys.executable, "-m", "mypy.stubtest", *names],
                          capture_output=True, text=True, cwd=cwd)


def test_every_module_has_a_stub():
    names = modules()
    assert {"cute_algebra", "cute_algebra.tensor", "cute_algebra.pycute",
            "cute_algebra.pycute.layout"} <= set(names)
    missing = []
    for name in names:
        rel = pathlib.Path(*name.split("."))
        stub = PKG / rel / "__init__.pyi" if (PKG / rel).is_dir() else PKG / rel.with_suffix(".pyi")
        if not stub.is_file():
            missing.append(name)
    assert missing == []


def test_stubtest():
    names = modules()
    r = stubtest(PKG, ["cute_algebra"])  # the package and, recursively, every submodule
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"Success: no issues found in {len(names)} modules" in r.stdout, r.stdout


def test_stubs_are_fully_annotated():
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                        "-p", "cute_algebra"], capture_output=True, text=True, cwd=PKG)
    assert r.returncode == 0, r.stdout + r.stderr


def test_stubtest_catches_a_missing_name_and_a_wrong_signature(tmp_path):
    copy = tmp_path / "cute_algebra"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("__pycache__", ".mypy_cache"))
    swizzle = copy / "pycute" / "swizzle.pyi"
    text = swizzle.read_text()
    line = "    def cosize(self) -> int: ...\n"
    assert text.count(line) == 2
    swizzle.write_text(text.replace(line, "", 1))  # Swizzle.cosize
    tensor = copy / "tensor.pyi"
    text = tensor.read_text()
    assert "def copy(src: _TensorLike, dst: _TensorLike) -> None: ..." in text
    tensor.write_text(text.replace("def copy(src: _TensorLike, dst: _TensorLike)",
                                   "def copy(src: _TensorLike, target: _TensorLike)"))
    r = stubtest(tmp_path, ["cute_algebra.pycute.swizzle", "cute_algebra.tensor"])
    assert r.returncode != 0
    assert "cute_algebra.pycute.swizzle.Swizzle.cosize is not present in stub" in r.stdout, r.stdout
    assert "cute_algebra.tensor.copy" in r.stdout, r.stdout
