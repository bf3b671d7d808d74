"""A drop-in for NVIDIA's legacy ``pycute`` (from the ``nvidia-cutlass`` wheel), and for much of
the paper's PyCuTe (NVlabs/CuTe), whose algebra is computed by the exact Rust core of
``cute_algebra``. Change ``from pycute import *`` to ``from cute_algebra.pycute import *``.

From the paper's PyCuTe it has: the stride scalars ``F2``, ``ArithTuple``, ``ScaledBasis``, ``E``
(with ``basis_repr``, ``is_basis``, ``proj``, ``unit``); the HTuple helpers (``get``, ``lift``,
``select``, ``take``, ``wrap``, ``unwrap``, ``leaves``, ``unflatten``, ``repeat_like``,
``transform_leaf``, ``dice_``, ...); the by-mode form ``op[i](...)`` (``ModeOpDecorator``) of
``shape``, ``stride``, ``size``, ``rank``, ``depth``, ``coshape``, ``coprofile``, ``composition``,
``coalesce``, ``logical_divide`` and ``zipped_divide``; ``tiler_to_layout``, ``make_layout_like``,
``make_ordered_layout`` and the profile predicates. Where the two ``pycute``s disagree, COMPARE.md
says which convention this module follows.

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
from .atuple import *  # noqa: F401,F403
from .htuple import *  # noqa: F401,F403
from .layout import *  # noqa: F401,F403
from .layout_fns import *  # noqa: F401,F403
from .swizzle import *  # noqa: F401,F403
from .tensor import *  # noqa: F401,F403
from .typing import *  # noqa: F401,F403
from .typedefs import *  # noqa: F401,F403
from . import atuple as _at, htuple as _ht, int_tuple as _it, layout as _ly, layout_fns as _lf
from . import swizzle as _sw, tensor as _tn, typing as _ty, typedefs as _td
from . import alg  # noqa: F401  (pycute.alg: copy, ref.copy, ref.gemm)

__all__ = [n for m in (_it, _at, _ht, _ly, _lf, _sw, _tn, _ty, _td) for n in m.__all__]
