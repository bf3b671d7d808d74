"""Type stubs of cute_algebra.pycute.alg."""

from typing import Any

from . import ref as ref

__all__ = ["copy", "ref"]

def copy(src: Any, dst: Any) -> None: ...
