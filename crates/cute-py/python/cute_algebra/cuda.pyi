"""Type stubs of cute_algebra.cuda: GPU kernels planned by the layout algebra."""

from typing import Any, Sequence, final

__all__ = [
    "CudaError",
    "DeviceArray",
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

@final
class DeviceArray:
    """Zeroed device memory of a row-major shape, shared through DLPack and
    ``__cuda_array_interface__``; the result type for frameworks without an allocator here."""

    def __new__(cls, shape: Sequence[int], dtype: str, device: int = 0) -> DeviceArray: ...
    @property
    def shape(self) -> list[int]: ...
    @property
    def dtype(self) -> str: ...
    @property
    def ptr(self) -> int: ...
    @property
    def __cuda_array_interface__(self) -> dict[str, Any]: ...
    def __dlpack__(
        self,
        *,
        stream: int | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

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
