"""Tensors over numpy arrays: a layout and an offset over an array's memory, no copies.

A ``Tensor(array, layout, offset)`` holds the element at coordinate ``c`` ``offset + layout(c)``
elements from the array's data pointer; without a layout it is the array's own layout (its shape
with its strides in elements, any strides, negative included). Slicing, partitioning and tiling
make new tensors over the same memory; ``copy``, ``gemm`` and ``contract`` run in Rust with the
GIL released. Every access is checked against the array's memory.

Element types: float32, float64, float16, bfloat16 (``ml_dtypes.bfloat16``, when ml_dtypes is
installed), int64, int32, int16, int8, uint8, in native byte order. Every one can be read,
written and copied; ``gemm`` and ``contract`` multiply float32, float64 and the integer types
(float16 and bfloat16 are refused with a ``TypeError``: convert with ``astype(numpy.float32)``).

>>> import numpy as np
>>> from cute_algebra import Tensor, Layout
>>> a = np.arange(12.0).reshape(3, 4)
>>> t = Tensor(a)
>>> t.layout, t[2, 1], t(None, 1).to_numpy().tolist()
(Layout((3,4),(4,1)), 9.0, [1.0, 5.0, 9.0])
"""

import re

from . import _native
from ._native import Layout, LayoutError, array_layout


def _fail(message):
    e = LayoutError(f"contract: {message}")
    e.category = "ProfileMismatch"
    e.op = "contract"
    return e

__all__ = ["Tensor", "make_tensor", "partition", "local_tile", "local_partition", "copy", "gemm",
           "contract"]


def _has_none(c):
    if c is None:
        return True
    if isinstance(c, (tuple, list)):
        return any(_has_none(x) for x in c)
    return False


class Tensor:
    """A layout (and an offset, in elements) over the memory of a numpy array.

    >>> import numpy as np
    >>> from cute_algebra import Tensor, Layout
    >>> a = np.zeros(8, dtype=np.float32)
    >>> t = Tensor(a, Layout((2, 4), (4, 1)))
    >>> t[1, 2] = 7; a.tolist()
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0, 0.0]
    """

    __slots__ = {
        "array": """The numpy array whose memory the tensor views.

        >>> import numpy as np
        >>> from cute_algebra import Tensor
        >>> Tensor(np.arange(4.0)).array.tolist()
        [0.0, 1.0, 2.0, 3.0]
        """,
        "layout": """The layout: coordinate to element offset (from ``offset``).

        >>> import numpy as np
        >>> from cute_algebra import Tensor
        >>> Tensor(np.zeros((2, 3))).layout
        Layout((2,3),(3,1))
        """,
        "offset": """The element offset, from the array's data pointer, of coordinate 0.

        >>> import numpy as np
        >>> from cute_algebra import Tensor, Layout
        >>> Tensor(np.zeros(8), Layout(4, 1), 2).offset
        2
        """,
    }

    def __init__(self, array, layout=None, offset=0):
        if isinstance(array, Tensor):
            raise TypeError("Tensor(array, ...): expected a numpy array, got a Tensor")
        self.array = array
        self.layout = array_layout(array) if layout is None else layout
        if not isinstance(self.layout, Layout):
            raise TypeError(f"Tensor layout: expected a Layout, got {type(self.layout).__name__}")
        self.offset = int(offset)
        # check every offset against the array's memory now, naming the caller's layout
        lo, hi = self.offset + self._lowest(), self.offset + self._highest()
        span = _span(array)
        if span is not None and not (span[0] <= lo and hi <= span[1]):
            e = LayoutError(
                f"Tensor: layout {self.layout} at offset {self.offset} reaches the element offsets "
                f"{lo}..{hi}, outside the array's {array.size} elements (offsets {span[0]}..{span[1]} "
                f"from its data pointer)")
            e.category, e.op = "OutOfRange", "tensor"
            raise e
        if span is None:
            for o in (lo, hi):
                _native.tensor_get((array, Layout(1, 0), o), 0)
        # the array's kind and element type
        _native.tensor_get((array, self.layout, self.offset), 0)

    def _parts(self):
        """The tensor as the native functions take it: ``(array, layout, offset)``."""
        return (self.array, self.layout, self.offset)

    def _lowest(self):
        return sum(min(0, (s - 1) * d) for s, d in _leaves(self.layout))

    def _highest(self):
        return sum(max(0, (s - 1) * d) for s, d in _leaves(self.layout))

    @property
    def dtype(self):
        """The element type of the array.

        >>> import numpy as np
        >>> from cute_algebra import Tensor
        >>> Tensor(np.zeros(4, dtype=np.float32)).dtype
        dtype('float32')
        """
        return self.array.dtype

    @property
    def shape(self):
        """The layout's shape.

        >>> import numpy as np
        >>> from cute_algebra import Tensor
        >>> Tensor(np.zeros((2, 3))).shape
        (2, 3)
        """
        return self.layout.shape

    def size(self):
        """The number of elements of the tensor's domain.

        >>> import numpy as np
        >>> from cute_algebra import Tensor, Layout
        >>> Tensor(np.zeros(16), Layout((2, 3), (1, 4))).size()
        6
        """
        return self.layout.size()

    def __len__(self):
        return self.layout.rank()

    def __call__(self, *coord):
        c = coord[0] if len(coord) == 1 else coord
        if _has_none(c):
            lay, off = _native.slice_and_offset(self.layout, c)
            return Tensor(self.array, lay, self.offset + off)
        return _native.tensor_get(self._parts(), c)

    def __getitem__(self, coord):
        return self(coord)

    def __setitem__(self, coord, value):
        _native.tensor_set(self._parts(), coord, value)

    def compose(self, layout):
        """The tensor ``T o L``: the same memory through ``composition(self.layout, layout)``.

        >>> import numpy as np
        >>> from cute_algebra import Tensor, Layout
        >>> Tensor(np.arange(8.0)).compose(Layout(4, 2)).to_numpy().tolist()
        [0.0, 2.0, 4.0, 6.0]
        """
        return Tensor(self.array, _native.composition(self.layout, layout), self.offset)

    def to_numpy(self):
        """A new array with the tensor's elements, in the layout's (colexicographic) order, shaped
        by the product of each top-level mode (column-major).

        >>> import numpy as np
        >>> from cute_algebra import Tensor, Layout
        >>> Tensor(np.arange(6.0), Layout((2, 3), (3, 1))).to_numpy().tolist()
        [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
        """
        import numpy as np

        n = self.size()
        out = np.empty(n, dtype=self.array.dtype)
        _native.tensor_copy(self._parts(), (out, Layout(n, 1), 0))
        shape = _native.product_each(self.layout.shape)
        if isinstance(shape, tuple) and len(shape) > 1:
            return out.reshape(shape, order="F")
        return out

    def __repr__(self):
        return f"Tensor({self.layout}, offset={self.offset}, dtype={self.array.dtype})"


def _span(array):
    """The element offsets, from the data pointer, of an array's lowest and highest elements
    (``None`` when the array does not tell its shape, strides and item size; (0, -1) when it is
    empty)."""
    try:
        shape, strides, isz = tuple(array.shape), tuple(array.strides), int(array.itemsize)
    except (AttributeError, TypeError):
        return None
    if any(n == 0 for n in shape):
        return (0, -1)
    lo = sum(min(0, (n - 1) * d) for n, d in zip(shape, strides))
    hi = sum(max(0, (n - 1) * d) for n, d in zip(shape, strides))
    return (lo // isz, hi // isz)


def _leaves(layout):
    shape, stride = _native.flatten(layout.shape), _native.flatten(layout.stride)
    if not isinstance(shape, tuple):
        shape, stride = (shape,), (stride,)
    return zip(shape, stride)


def make_tensor(array, layout=None, offset=0):
    """``Tensor(array, layout, offset)``.

    >>> import numpy as np
    >>> from cute_algebra import make_tensor, Layout
    >>> make_tensor(np.arange(4.0), Layout((2, 2), (1, 2)))[1, 1]
    3.0
    """
    return Tensor(array, layout, offset)


def _tensor(x, what):
    if isinstance(x, Tensor):
        return x
    if hasattr(x, "__array_interface__"):
        return Tensor(x)
    raise TypeError(f"{what}: expected a Tensor or a numpy array, got {type(x).__name__}")


def partition(tensor, tv, thread):
    """Thread ``thread``'s values of a tensor under a thread-value layout ``tv`` (the paper's
    Table 4): ``(tensor o tv)(thread, _)``.

    >>> import numpy as np
    >>> from cute_algebra import Tensor, Layout, partition
    >>> t = Tensor(np.arange(64.0).reshape(8, 8))
    >>> partition(t, Layout(((4, 8), 2), ((16, 1), 8)), 1).to_numpy().tolist()
    [2.0, 3.0]
    """
    t = _tensor(tensor, "partition")
    lay, off = _native.tv_partition(t.layout, tv, thread)
    return Tensor(t.array, lay, t.offset + off)


def local_tile(x, tiler, coord):
    """The tile at ``coord`` of ``zipped_divide(x, tiler)``: for a tensor (or array), the tile as a
    tensor; for a layout, ``(layout, offset)``.

    >>> import numpy as np
    >>> from cute_algebra import Tensor, Layout, local_tile
    >>> t = Tensor(np.arange(16.0).reshape(4, 4))
    >>> local_tile(t, (2, 2), (1, 0)).to_numpy().tolist()
    [[8.0, 9.0], [12.0, 13.0]]
    >>> local_tile(Layout((8, 16), (16, 1)), (4, 8), (1, 1))
    (Layout((4,8),(16,1)), 72)
    """
    if isinstance(x, Layout):
        return _native.local_tile(x, tiler, coord)
    t = _tensor(x, "local_tile")
    lay, off = _native.local_tile(t.layout, tiler, coord)
    return Tensor(t.array, lay, t.offset + off)


def local_partition(x, thr, index):
    """The elements thread ``index`` of the thread layout ``thr`` owns in every tile: for a tensor
    (or array), a tensor; for a layout, ``(layout, offset)``.

    >>> import numpy as np
    >>> from cute_algebra import Tensor, Layout, local_partition
    >>> t = Tensor(np.arange(16.0).reshape(4, 4))
    >>> local_partition(t, Layout((2, 2), (2, 1)), 1).to_numpy().tolist()
    [[1.0, 3.0], [9.0, 11.0]]
    """
    if isinstance(x, Layout):
        return _native.local_partition(x, thr, index)
    t = _tensor(x, "local_partition")
    lay, off = _native.local_partition(t.layout, thr, index)
    return Tensor(t.array, lay, t.offset + off)


def copy(src, dst):
    """COPY: ``dst(i) = src(i)`` for every index ``i`` of ``dst`` (tensors or arrays), in Rust
    with the GIL released; overlapping memory is read before it is written.

    >>> import numpy as np
    >>> from cute_algebra import Tensor, Layout, copy
    >>> a, b = np.arange(6.0).reshape(2, 3), np.zeros((3, 2))
    >>> copy(Tensor(a), Tensor(b, Layout((2, 3), (1, 2)))); b.tolist()
    [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    """
    s, d = _tensor(src, "copy source"), _tensor(dst, "copy destination")
    _native.tensor_copy(s._parts(), d._parts())


def gemm(a, b, c):
    """``C(m,n,l) += sum_k A(m,k,l) B(n,k,l)`` (the paper's Table 3: A is (M,K), B is (N,K), C is
    (M,N), each mode possibly hierarchical), by cute-gemm's kernel with the GIL released.

    >>> import numpy as np
    >>> from cute_algebra import Tensor, gemm
    >>> A, B, C = np.arange(6.0).reshape(2, 3), np.ones((4, 3)), np.zeros((2, 4))
    >>> gemm(Tensor(A), Tensor(B), Tensor(C)); C.tolist()[0]
    [3.0, 3.0, 3.0, 3.0]
    """
    ta, tb, tc = _tensor(a, "gemm A"), _tensor(b, "gemm B"), _tensor(c, "gemm C")
    _native.tensor_gemm(ta._parts(), tb._parts(), tc._parts())


_SPEC = re.compile(r"^\s*([A-Za-z]*)\s*,\s*([A-Za-z]*)\s*->\s*([A-Za-z]*)\s*$")


def contract(spec, a, b, out=None, accumulate=False):
    """The einsum-style GETT, e.g. ``contract("stupr,qtru->stqp", a, b, out=c)``: ``out`` is
    overwritten as by ``numpy.einsum`` (``accumulate=True`` adds to it). Arguments are arrays or
    tensors; each letter names one top-level mode; spaces are ignored; a term with no letters is
    a scalar (a 0-d array, as in ``contract("k,k->", x, y)``). Without ``out`` a C-order array is
    made.
    Runs cute-gemm's folding into one GEMM and its kernel, with the GIL released.

    >>> import numpy as np
    >>> from cute_algebra import contract
    >>> a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    >>> bool((contract("mk,kn->mn", a, b) == a @ b).all())
    True
    """
    import numpy as np

    if not isinstance(spec, str):
        raise TypeError(f"contract: expected the spec as a str, got {type(spec).__name__}")
    spec = "".join(spec.split())  # spaces are allowed anywhere, as numpy.einsum allows them
    m = _SPEC.match(spec)
    if not m:
        raise _fail(f"{spec!r} is not of the form 'ab,bc->ac'")
    ta, tb = _tensor(a, "contract A"), _tensor(b, "contract B")
    if out is None:
        extents = {}
        for letters, t in ((m.group(1), ta), (m.group(2), tb)):
            # a term with no letters names a scalar (a 0-d array, layout 1:0): the kernel checks it
            if letters and len(letters) != t.layout.rank():
                raise _fail(f"{spec!r}: {letters!r} names {len(letters)} modes, "
                            f"the operand has {t.layout.rank()}")
            for k, ch in enumerate(letters):
                extents.setdefault(ch, t.layout[k].size())
        missing = [ch for ch in m.group(3) if ch not in extents]
        if missing:
            raise _fail(f"{spec!r}: output letters {missing} are in neither operand")
        out = np.empty(tuple(extents[ch] for ch in m.group(3)), dtype=ta.dtype)
        accumulate = False  # beta = 0: the kernel writes every element without reading it
    tc = _tensor(out, "contract out")
    _native.tensor_contract(spec, ta._parts(), tb._parts(), tc._parts(),
                            None if accumulate else 0.0)
    return out
