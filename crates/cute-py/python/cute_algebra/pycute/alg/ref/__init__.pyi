"""Type stubs of cute_algebra.pycute.alg.ref."""

from typing import Any

__all__ = ["copy", "gemm"]

def copy(src: Any, dst: Any) -> None: ...
def gemm(A: Any, B: Any, C: Any) -> None: ...
