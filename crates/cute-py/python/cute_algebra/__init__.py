"""The CuTe layout algebra (after "CuTe Layout Representation and Algebra", arXiv:2603.02298),
exact and eager, implemented in Rust.

>>> from cute_algebra import Layout, composition, logical_divide
>>> A = Layout((8, 16), (20, 1))
>>> print(logical_divide(A, (Layout(4, 1), Layout(8, 2))))
((4,2),(8,2)):((20,80),(2,1))

Every refused operation raises `LayoutError` (a `ValueError`) whose message names the operation,
the operands and the violated condition; wrong kinds of arguments raise `TypeError`.
`cute_algebra.pycute` is a drop-in for NVIDIA's legacy `pycute`.
"""

from . import _native
from ._native import *  # noqa: F401,F403
from .tensor import Tensor, contract, copy, gemm, local_partition, local_tile, make_tensor, partition
from . import tensor as _tensor
from . import cuda  # noqa: F401  (GPU kernels; importing needs no GPU)

__version__: str = _native.__version__

__all__ = sorted(set(_native.__all__) | set(_tensor.__all__))
