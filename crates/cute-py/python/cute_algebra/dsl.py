"""The CuTe DSL's layout functions (``cutlass.cute``) under their names and signatures, eager:
each returns its value at once (a ``Layout``, an int or a tuple), printed as the DSL prints the
static value inside ``@cute.jit``. Write ``from cute_algebra import dsl as cute`` and call
``cute.make_layout(...)``, ``cute.logical_divide(...)`` as in a kernel, outside one.

The ``loc`` and ``ip`` keywords (MLIR locations and insertion points) are accepted and ignored.
Expected values in the tests come from CuTe DSL 4.8.1 itself (tests/data/dsl_oracle.json,
recorded by scripts/dsl_oracle.py).

>>> from cute_algebra import dsl as cute
>>> L = cute.make_layout((8, 16), stride=(20, 1))
>>> print(L, cute.make_layout((4, 8)), cute.size(L), cute.shape(L, mode=1))
(8,16):(20,1) (4,8):(1,4) 128 16
>>> print(cute.zipped_divide(L, (4, 8)), cute.group_modes(cute.make_layout((4, 6, 8)), 0, 2))
((4,8),(2,2)):((20,1),(80,8)) ((4,6),8):((1,4),24)
"""

import operator

from . import _native
from ._native import Layout

__all__ = [
    "make_layout", "make_ordered_layout", "make_identity_layout", "composition", "complement",
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
    "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product",
    "right_inverse", "left_inverse", "coalesce", "filter_zeros", "recast_layout",
    "max_common_vector", "size", "cosize", "rank", "depth", "shape", "get", "select",
    "group_modes", "append", "prepend",
]


def _is_layout(x):
    return isinstance(x, Layout)


def make_layout(shape, *, stride=None, loc=None, ip=None):
    """``cute.make_layout(shape, *, stride=None)``: the layout ``shape:stride``, compact
    column-major without a stride; given layouts instead of a shape, their concatenation.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.make_layout((4, 8)), cute.make_layout(8, stride=2), cute.make_layout((4,)))
    (4,8):(1,4) 8:2 (4):(1)
    >>> print(cute.make_layout((cute.make_layout(4), cute.make_layout(8, stride=4))))
    (4,8):(1,4)
    """
    if stride is None and isinstance(shape, (tuple, list)) and shape and all(
            _is_layout(x) for x in shape):
        return _native.make_layout(*shape)
    return Layout(shape, stride)


def make_ordered_layout(shape, order, *, loc=None, ip=None):
    """The compact layout whose modes take increasing strides in ``order``.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.make_ordered_layout((4, 8, 2), (1, 2, 0)))
    (4,8,2):(2,8,1)
    """
    return _native.make_ordered_layout(shape, order)


def make_identity_layout(shape, *, loc=None, ip=None):
    """The identity layout of a shape: coordinates to themselves (strides ``1@i``).

    >>> from cute_algebra import dsl as cute
    >>> print(cute.make_identity_layout((4, (3, 2))))
    (4,(3,2)):(1@0,(1@0@1,1@1@1))
    """
    return _native.make_identity_layout(shape)


def composition(lhs, rhs, *, loc=None, ip=None):
    """``lhs ∘ rhs``; ``rhs`` a layout, a shape or a tuple of tiles by mode (``None``: the mode
    whole).

    >>> from cute_algebra import dsl as cute
    >>> print(cute.composition(cute.make_layout((8, 16), stride=(20, 1)), (4, 8)))
    (4,8):(20,1)
    """
    return _native.composition(lhs, rhs)


def complement(input, cotarget, *, loc=None, ip=None):
    """The layout of the offsets below ``cotarget`` (an int or a shape) that ``input`` misses.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.complement(cute.make_layout(4, stride=2), 24))
    (2,3):(1,8)
    """
    return _native.complement(input, cotarget)


def _by_tiler(name, doc):
    f = getattr(_native, name)

    def op(target, tiler, *, loc=None, ip=None):
        return f(target, tiler)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


_T = "cute.make_layout((8, 16), stride=(20, 1))"
logical_divide = _by_tiler("logical_divide", f"""Each mode split into the tile and the rest.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.logical_divide({_T}, (4, 8)))
    ((4,2),(8,2)):((20,80),(1,8))
    """)
zipped_divide = _by_tiler("zipped_divide", f"""The tiles in mode 0, the rest in mode 1.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.zipped_divide({_T}, (4, 8)))
    ((4,8),(2,2)):((20,1),(80,8))
    """)
tiled_divide = _by_tiler("tiled_divide", f"""The tile in mode 0, each rest mode its own mode.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.tiled_divide({_T}, (4, 8)))
    ((4,8),2,2):((20,1),80,8)
    """)
flat_divide = _by_tiler("flat_divide", f"""The tile's modes and the rest's, all at the top.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.flat_divide({_T}, (4, 8)))
    (4,8,2,2):(20,1,80,8)
    """)

_B = "cute.make_layout((2, 5), stride=(5, 1)), cute.make_layout((3, 4), stride=(1, 3))"


def _product(name, doc):
    f = getattr(_native, name)

    def op(block, tiler, *, loc=None, ip=None):
        return f(block, tiler)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


logical_product = _product("logical_product", f"""``block`` repeated as ``tiler`` says.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.logical_product({_B}))
    ((2,5),(3,4)):((5,1),(10,30))
    """)
zipped_product = _product("zipped_product", f"""``block`` in mode 0, the repetition in mode 1.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.zipped_product({_B}))
    ((2,5),(3,4)):((5,1),(10,30))
    """)
tiled_product = _product("tiled_product", f"""``block`` in mode 0, each repetition mode its own.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.tiled_product({_B}))
    ((2,5),3,4):((5,1),10,30)
    """)
flat_product = _product("flat_product", f"""Every mode of ``block`` and of the repetition.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.flat_product({_B}))
    (2,5,3,4):(5,1,10,30)
    """)
blocked_product = _product("blocked_product", f"""``block`` as the block, laid out by ``tiler``.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.blocked_product({_B}))
    ((2,3),(5,4)):((5,10),(1,30))
    """)
raked_product = _product("raked_product", f"""``block``'s elements interleaved with ``tiler``.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.raked_product({_B}))
    ((3,2),(4,5)):((10,5),(30,1))
    """)


def right_inverse(input, *, loc=None, ip=None):
    """``R`` with ``input(R(i)) == i`` on the largest prefix of indices.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.right_inverse(cute.make_layout((4, 8), stride=(8, 1))))
    (8,4):(4,1)
    """
    return _native.right_inverse(input)


def left_inverse(input, *, loc=None, ip=None):
    """``R`` with ``input(R(input(i))) == input(i)`` (``R(input(i)) == i`` for an injective one).

    >>> from cute_algebra import dsl as cute
    >>> print(cute.left_inverse(cute.make_layout((4, 8), stride=(8, 1))))
    (8,4):(4,1)
    """
    return _native.left_inverse(input)


def coalesce(input, *, target_profile=None, loc=None, ip=None):
    """The shortest layout with the same function (by mode where ``target_profile`` says).

    >>> from cute_algebra import dsl as cute
    >>> print(cute.coalesce(cute.make_layout((2, (1, 6)), stride=(1, (6, 2)))))
    12:1
    """
    return _native.coalesce(input, target_profile)


def filter_zeros(input, *, target_profile=None, loc=None, ip=None):
    """Stride-0 modes replaced by size 1, the profile kept (``target_profile`` other than
    ``None`` is refused: ``NotImplementedError``).

    >>> from cute_algebra import dsl as cute
    >>> print(cute.filter_zeros(cute.make_layout((4, 2), stride=(1, 0))))
    (4,1):(1,0)
    """
    if target_profile is not None:
        raise NotImplementedError("filter_zeros: a target_profile is not supported here")
    return _native.filter_zeros(input)


def recast_layout(new_type_bits, old_type_bits, src_layout, *, loc=None, ip=None):
    """The layout of the same memory in elements of ``new_type_bits`` instead of
    ``old_type_bits``.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.recast_layout(16, 8, cute.make_layout((4, 8))))
    (2,8):(1,2)
    """
    return _native.recast(src_layout, new_type_bits, old_type_bits)


def max_common_vector(a, b, *, loc=None, ip=None):
    """How many elements both layouts map contiguously.

    >>> from cute_algebra import dsl as cute
    >>> cute.max_common_vector(cute.make_layout((4, 8)), cute.make_layout((4, 8), stride=(1, 8)))
    4
    """
    return _native.max_common_vector(a, b)


def _modes(mode):
    if mode is None:
        return ()
    if isinstance(mode, int):
        return (mode,)
    return tuple(mode)


def get(obj, mode=(), **kwargs):
    """The sub-layout (or sub-tuple) at the path ``mode`` (an int or a sequence of ints).

    >>> from cute_algebra import dsl as cute
    >>> L = cute.make_layout((4, (2, 3)), stride=(1, (4, 8)))
    >>> print(cute.get(L, mode=[1]), cute.get(L, mode=[1, 0]), cute.get((4, (2, 3)), mode=[1]))
    (2,3):(4,8) 2:4 (2, 3)
    """
    for k in _modes(mode):
        if _is_layout(obj):
            obj = obj[k]
        elif isinstance(obj, tuple):
            obj = obj[k]
        elif k in (0, -1):
            pass
        else:
            raise IndexError(f"get: mode {k} out of range for {obj!r}")
    return obj


def size(obj, mode=(), **kwargs):
    """The size of a layout or a shape (of its sub-mode at ``mode``).

    >>> from cute_algebra import dsl as cute
    >>> cute.size(cute.make_layout((4, (2, 3)))), cute.size(cute.make_layout((4, (2, 3))), mode=[1])
    (24, 6)
    """
    return _native.size(get(obj, mode))


def cosize(obj, mode=(), **kwargs):
    """One past the largest offset of a layout (of its sub-mode at ``mode``).

    >>> from cute_algebra import dsl as cute
    >>> cute.cosize(cute.make_layout((4, 8), stride=(1, 8)), mode=[1])
    57
    """
    return _native.cosize(get(obj, mode))


def rank(obj, mode=(), **kwargs):
    """The number of top-level modes (of the sub-mode at ``mode``).

    >>> from cute_algebra import dsl as cute
    >>> cute.rank(cute.make_layout((4, (2, 3)))), cute.rank((1, 2, 3))
    (2, 3)
    """
    return _native.rank(get(obj, mode))


def depth(a):
    """The nesting depth of a layout's shape or of a tuple (0 for an int).

    >>> from cute_algebra import dsl as cute
    >>> cute.depth(cute.make_layout((4, (2, 3)))), cute.depth(5)
    (2, 0)
    """
    return _native.depth(a)


def shape(input, *, mode=None, loc=None, ip=None):
    """The shape of a layout (of its top-level mode ``mode``), or a shape itself.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.shape(cute.make_layout((4, (2, 3)))), cute.shape(cute.make_layout((4, (2, 3))), mode=1))
    (4, (2, 3)) (2, 3)
    """
    s = input.shape if _is_layout(input) else input
    return s if mode is None else get(s, mode)


def select(obj, mode=(), **kwargs):
    """The modes ``mode`` (in that order) of a layout or a tuple.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.select(cute.make_layout((4, 6, 8)), mode=[2, 0]), cute.select((4, 6, 8), mode=[1]))
    (8,4):(24,1) (6,)
    """
    ks = _modes(mode)
    if _is_layout(obj):
        return _native.make_layout(*[obj[k] for k in ks])
    return tuple(obj[k] for k in ks)


def group_modes(input, begin, end=None, *, loc=None, ip=None):
    """Modes ``begin`` to ``end`` (exclusive; the last by default) gathered into one mode.

    >>> from cute_algebra import dsl as cute
    >>> print(cute.group_modes(cute.make_layout((4, 6, 8, 2)), 1, 3))
    (4,(6,8),2):(1,(4,24),192)
    """
    n = _native.rank(input)
    end = n if end is None else end
    if _is_layout(input):
        modes = [input[k] for k in range(n)]
        return _native.make_layout(*modes[:begin], _native.make_layout(*modes[begin:end]),
                                   *modes[end:])
    t = input if isinstance(input, tuple) else (input,)
    return t[:begin] + (t[begin:end],) + t[end:]


_MAX_MODES = 32  # the leaves a layout or an integer tuple holds (the core's capacity)


def _extend(input, elem, up_to_rank, front):
    name = "prepend" if front else "append"
    if _is_layout(input):
        modes = [input[k] for k in range(input.rank())]
    else:
        modes = list(input) if isinstance(input, tuple) else [input]
    try:
        want = len(modes) + 1 if up_to_rank is None else operator.index(up_to_rank)
    except TypeError:
        raise TypeError(
            f"{name}: up_to_rank must be an integer, got {type(up_to_rank).__name__}"
        ) from None
    if want > _MAX_MODES:
        raise _native.LayoutError(
            f"{name}: up_to_rank {want} exceeds the {_MAX_MODES} modes a layout or tuple holds"
        )
    more = [elem] * max(0, want - len(modes))
    modes = more + modes if front else modes + more
    if _is_layout(input):
        return _native.make_layout(*modes)
    return tuple(modes)


def append(input, elem, up_to_rank=None, *, loc=None, ip=None):
    """``input`` with ``elem`` added as a last mode (up to rank ``up_to_rank``).

    >>> from cute_algebra import dsl as cute
    >>> print(cute.append(cute.make_layout(4), cute.make_layout(1, stride=0), up_to_rank=3))
    (4,1,1):(1,0,0)
    """
    return _extend(input, elem, up_to_rank, False)


def prepend(input, elem, up_to_rank=None, *, loc=None, ip=None):
    """``input`` with ``elem`` added as a first mode (up to rank ``up_to_rank``).

    >>> from cute_algebra import dsl as cute
    >>> print(cute.prepend(cute.make_layout((4, 6)), cute.make_layout(8, stride=24)))
    (8,4,6):(24,1,4)
    """
    return _extend(input, elem, up_to_rank, True)
