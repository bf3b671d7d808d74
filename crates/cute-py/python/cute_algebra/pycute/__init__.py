"""A drop-in for NVIDIA's legacy ``pycute`` (from the ``nvidia-cutlass`` wheel) whose algebra is
computed by the exact Rust core of ``cute_algebra``. Change ``from pycute import *`` to
``from cute_algebra.pycute import *``.

Differences from legacy pycute (see COMPARE.md): operations whose legacy result is not the
operation's result, or that stop at a bare ``assert``, raise ``LayoutError`` (a ``ValueError``)
naming the operation, the operands and the violated condition; ``logical_product(A, n)`` with an
int ``n`` is a product (legacy divides); ``cosize`` is exact for any strides; layouts and swizzles
are hashable.

>>> from cute_algebra.pycute import Layout, coalesce
>>> coalesce(Layout((2, 4), (1, 2)))
Layout(8,1)
"""

from .int_tuple import *  # noqa: F401,F403
from .layout import *  # noqa: F401,F403
from .swizzle import *  # noqa: F401,F403
from .typing import *  # noqa: F401,F403
from . import int_tuple as _it, layout as _ly, swizzle as _sw, typing as _ty

__all__ = list(_it.__all__) + list(_ly.__all__) + list(_sw.__all__) + list(_ty.__all__)
