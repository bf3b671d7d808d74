"""Type stubs of cute_algebra.cuda: GPU kernels planned by the layout algebra."""

from typing import Any, Sequence

__all__ = [
    "CudaError",
    "available",
    "why",
    "copy_",
    "permute",
    "contract",
    "matmul",
    "cache_stats",
    "clear_memory_caches",
]

class CudaError(RuntimeError): ...

def available(device: int = 0) -> bool: ...
def why(device: int = 0) -> str: ...
def copy_(dst: Any, src: Any, *, stream: Any = None) -> Any: ...
def permute(x: Any, dims: Sequence[int], out: Any = None, *, stream: Any = None) -> Any: ...
def contract(
    spec: str,
    a: Any,
    b: Any,
    out: Any = None,
    alpha: float = 1.0,
    beta: float = 0.0,
    *,
    out_dtype: Any = None,
    stream: Any = None,
) -> Any: ...
def matmul(a: Any, b: Any, out: Any = None, *, out_dtype: Any = None, stream: Any = None) -> Any: ...
def cache_stats(device: int = 0) -> dict[str, Any]: ...
def clear_memory_caches(device: int = 0) -> None: ...
