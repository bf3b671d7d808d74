"""Legacy pycute's helpers on integer tuples (HTuples): ints and nested Python tuples.

They keep legacy pycute's conventions (``prefix_product(a, init)``, ``crd2idx`` that extends the
last mode, ``slice_`` keeping the entries paired with ``None``); where legacy pycute fails with a
bare ``assert``, these raise ``LayoutError`` (a ``ValueError``) naming the function, the operands
and the condition.

>>> from cute_algebra.pycute import prefix_product, shape_div, crd2idx, idx2crd
>>> prefix_product(((2, 3), 4)), shape_div((6, (3, 4)), 36)
(((1, 2), 6), (1, (1, 2)))
>>> crd2idx((1, 2), (4, 8)), idx2crd(9, (4, 8))
(9, (1, 2))
"""

from functools import reduce
from typing import Union

from .._native import LayoutError

__all__ = [
    "is_int", "is_tuple", "flatten", "signum", "product", "inner_product", "tuple_max",
    "elem_scale", "shape_div", "prefix_product", "idx2crd", "crd2idx", "crd2crd", "slice_",
    "has_none",
]


def _fail(op, category, message):
    e = LayoutError(f"{op}: {message}")
    e.category = category
    e.op = op
    return e


def _same_rank(op, a, b, what="ranks"):
    if len(a) != len(b):
        raise _fail(op, "ProfileMismatch", f"{a} and {b}: {what} differ ({len(a)} vs {len(b)})")


def is_int(x):
    """True for an integer (not ``bool``).

    >>> is_int(3), is_int((3,)), is_int(True)
    (True, False, False)
    """
    t = type(x)
    # as isinstance(x, Integer), without the ABC's slower check: int subclasses but bool
    return t is int or (t is not bool and isinstance(x, int))


def is_tuple(x):
    """True for a Python tuple or list (the paper's PyCuTe reads a list as a tuple).

    >>> is_tuple((1, 2)), is_tuple([1, 2]), is_tuple(1)
    (True, True, False)
    """
    return isinstance(x, (tuple, list))


def flatten(t):
    """The leaves of a nested tuple as a flat tuple (an int gives a 1-tuple).

    >>> flatten(((1, 2), (3, (4,)))), flatten(5)
    ((1, 2, 3, 4), (5,))
    """
    if not is_tuple(t):
        return (t,)
    out = []
    for x in t:
        out.extend(flatten(x))
    return tuple(out)


def signum(a):
    """-1, 0 or 1.

    >>> signum(-7), signum(0), signum(3)
    (-1, 0, 1)
    """
    return (a > 0) - (a < 0)


def product(a):
    """The product of the leaves.

    >>> product(((2, 3), 4)), product(5), product(())
    (24, 5, 1)
    """
    if is_tuple(a):
        return reduce(lambda acc, x: acc * product(x), a, 1)
    if isinstance(a, (str, bytes, bytearray)):
        # an int times a sequence repeats it: refused here rather than built
        raise TypeError(f"product: {a!r:.40} is a sequence, not an integer leaf")
    return a


def inner_product(a, b):
    """The sum of the products of corresponding leaves of two congruent tuples.

    >>> inner_product(((2, 3), 4), ((2, 1), 2))
    15
    """
    if is_tuple(a):
        if not is_tuple(b):
            raise _fail("inner_product", "ProfileMismatch", f"{a} and {b} are not congruent")
        _same_rank("inner_product", a, b)
        return sum(inner_product(x, y) for x, y in zip(a, b))
    if is_tuple(b):
        raise _fail("inner_product", "ProfileMismatch", f"{a} and {b} are not congruent")
    return a * b


def tuple_max(a):
    """The largest leaf.

    >>> tuple_max((3, (7, 2)))
    7
    """
    if is_tuple(a):
        return max(tuple_max(x) for x in a)
    return a


def elem_scale(a, b):
    """Leaf-wise product of ``a`` with ``b`` (an int of ``a`` takes the product of ``b``'s mode).

    >>> elem_scale((2, 3), (4, (1, 5)))
    (8, 15)
    """
    if is_tuple(a):
        if not is_tuple(b):
            raise _fail("elem_scale", "ProfileMismatch",
                        f"{a} and {b}: a tuple cannot be scaled by an int")
        _same_rank("elem_scale", a, b)
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    if is_tuple(b):
        return a * product(b)
    return a * b


def shape_div(a, b):
    """Divides shape ``a`` by ``b`` from the left (inclusive prefix ceiling division); each step
    needs one of the two to divide the other.

    >>> shape_div((3, 4), 6), shape_div(((3, 4), 6), 36)
    ((1, 2), ((1, 1), 2))
    """
    if is_tuple(a):
        if is_tuple(b):
            _same_rank("shape_div", a, b)
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        out = []
        for x in a:
            out.append(shape_div(x, b))
            b = shape_div(b, product(x))
        return tuple(out)
    if is_tuple(b):
        return shape_div(a, product(b))
    if b == 0 or (a % b != 0 and b % a != 0):
        raise _fail("shape_div", "Divisibility",
                    f"{a} / {b}: neither of {a} and {b} divides the other")
    return -(-a // b)


def prefix_product(a, init=1):
    """Exclusive prefix products of the leaves, congruent to ``a`` (starting from ``init``).

    >>> prefix_product((3, 2, 4)), prefix_product(((2, 3), 4))
    ((1, 3, 6), ((1, 2), 6))
    """
    if is_tuple(a):
        if is_tuple(init):
            _same_rank("prefix_product", a, init)
            return tuple(prefix_product(x, i) for x, i in zip(a, init))
        out = []
        for x in a:
            out.append(prefix_product(x, init))
            init = init * product(x)
        return tuple(out)
    if is_tuple(init):
        raise _fail("prefix_product", "ProfileMismatch",
                    f"{a} and {init}: an int cannot start from a tuple")
    return init


def _modes(op, what, x, shape, stride):
    """The triples ``(x_i, shape_i, stride_i)`` of a tuple ``x`` (an index or a coordinate) over a
    shape and a stride of its rank; a ``LayoutError`` of ``op`` otherwise."""
    if not is_tuple(shape):
        raise _fail(op, "ProfileMismatch", f"{what} {x} is a tuple but shape {shape} is not")
    _same_rank(op, x, shape)
    _same_rank(op, shape, stride)
    return zip(x, shape, stride)


def idx2crd(idx, shape, stride=None):
    """The coordinate of an index in a shape (colexicographic, or by ``stride``).

    >>> idx2crd(9, (4, 8)), idx2crd(5, (2, (2, 2)))
    ((1, 2), (1, (0, 1)))
    """
    if stride is None:
        return _idx2crd(idx, shape)
    if is_tuple(idx):
        return tuple(idx2crd(i, s, d) for i, s, d in _modes("idx2crd", "index", idx, shape, stride))
    if is_tuple(shape):
        _same_rank("idx2crd", shape, stride)
        return tuple(idx2crd(idx, s, d) for s, d in zip(shape, stride))
    if stride == 0 or shape == 0:
        # legacy pycute divides by zero here
        what = f"stride {stride}" if stride == 0 else f"shape {shape}"
        raise _fail("idx2crd", "Divisibility" if stride == 0 else "InvalidShape",
                    f"index {idx} in shape {shape} with stride {stride}: a mode of {what} has no "
                    "coordinate for an index (it divides by zero)")
    return (idx // stride) % shape


def _idx2crd(idx, shape):
    """CuTe's idx2crd: colexicographic, the last mode of each tuple taking what remains (so an
    index past the size is kept, not wrapped); a tuple index (or an ArithTuple, zeros implicit)
    goes mode by mode."""
    if is_tuple(shape):
        if hasattr(idx, "data") and not isinstance(idx, (tuple, list)):
            d = idx.data
            if len(d) > len(shape):
                raise _fail("idx2crd", "ProfileMismatch", f"index {idx} has more modes than "
                            f"the shape {shape}")
            idx = tuple(d) + (0,) * (len(shape) - len(d))
        if is_tuple(idx):
            _same_rank("idx2crd", idx, shape)
            return tuple(_idx2crd(i, s) for i, s in zip(idx, shape))
        out = []
        for s in shape[:-1]:
            n = product(s)
            out.append(_idx2crd(idx % n, s))
            idx //= n
        if shape:
            out.append(_idx2crd(idx, shape[-1]))
        return tuple(out)
    if is_tuple(idx):
        raise _fail("idx2crd", "ProfileMismatch", f"index {idx} is a tuple but shape {shape} "
                    "is not")
    return idx


def _coord(crd, shape):
    """A coordinate of the paper's PyCuTe as a plain one: an ``ArithTuple`` (a point of a
    coordinate codomain, zeros implicit) as the tuple of its entries padded to the rank of
    ``shape``; an ``F2`` value as its int."""
    data = getattr(crd, "data", None)
    if type(data) is tuple:
        if not is_tuple(shape):
            if all(x == 0 for x in data[1:]):
                return data[0] if data else 0
            raise _fail("crd2idx", "ProfileMismatch", f"coordinate {crd} has more modes than "
                        f"the shape {shape}")
        if len(data) > len(shape):
            raise _fail("crd2idx", "ProfileMismatch", f"coordinate {crd} has more modes than "
                        f"the shape {shape}")
        return tuple(data) + (0,) * (len(shape) - len(data))
    value = getattr(crd, "value", None)
    if type(value) is int and type(crd).__name__ == "F2":
        return value
    return crd


def crd2idx(crd, shape, stride=None):
    """The index (or offset, with ``stride``) of a coordinate; an int coordinate of a tuple mode
    is split colexicographically, the last mode taking the remainder; ``None`` counts as 0.

    >>> crd2idx((1, 2), (4, 8)), crd2idx(9, (4, 8), (8, 1)), crd2idx(None, 4, 2)
    (9, 10, 0)
    """
    if stride is None:
        stride = prefix_product(shape)
    if is_tuple(crd):
        return sum(crd2idx(c, s, d) for c, s, d in _modes("crd2idx", "coordinate", crd, shape, stride))
    if crd is None:
        crd = 0
    elif type(crd) is not int:
        crd = _coord(crd, shape)
        if is_tuple(crd):
            return crd2idx(crd, shape, stride)
    if is_tuple(shape):
        _same_rank("crd2idx", shape, stride)
        if len(shape) == 0:
            return 0
        total = 0
        for s, d in zip(shape[:-1], stride[:-1]):
            n = product(s)
            total += crd2idx(crd % n, s, d)
            crd //= n
        return total + crd2idx(crd, shape[-1], stride[-1])
    return crd * stride


def crd2crd(crd, dst_shape, src_shape=None):
    """A coordinate re-expressed in ``dst_shape`` (a tuple coordinate of an int target needs
    ``src_shape``).

    >>> crd2crd(9, (4, 8)), crd2crd((1, 2), 32, (4, 8))
    ((1, 2), 9)
    """
    if is_tuple(crd):
        if is_tuple(dst_shape):
            _same_rank("crd2crd", crd, dst_shape)
            return tuple(crd2crd(x, y) for x, y in zip(crd, dst_shape))
        if src_shape is None:
            raise _fail("crd2crd", "ProfileMismatch",
                        f"coordinate {crd} into {dst_shape}: a tuple coordinate of an int "
                        "target needs src_shape")
        return crd2idx(crd, src_shape)
    if is_tuple(dst_shape):
        return idx2crd(crd, dst_shape)
    if crd >= dst_shape:
        raise _fail("crd2crd", "OutOfRange",
                    f"coordinate {crd} is outside the shape {dst_shape}")
    return crd


def slice_(crd: Union[None, tuple, int], trg: Union[tuple, int]):
    """The entries of ``trg`` paired with ``None`` in ``crd``, as a flat tuple of whole modes.

    >>> slice_((None, 2), (4, 8)), slice_(((None, 1), None), ((2, 3), 4))
    ((4,), (2, 4))
    """
    if is_tuple(crd):
        if not is_tuple(trg):
            raise _fail("slice_", "ProfileMismatch",
                        f"coordinate {crd} is a tuple but {trg} is not")
        _same_rank("slice_", crd, trg)
        out = []
        for c, t in zip(crd, trg):
            out.extend(slice_(c, t))
        return tuple(out)
    if crd is None:
        return (trg,)
    return ()


def has_none(a: Union[None, tuple, int]):
    """True when ``None`` is one of the leaves.

    >>> has_none((1, (None, 2))), has_none((1, 2))
    (True, False)
    """
    if is_tuple(a):
        return any(has_none(x) for x in a)
    return a is None
