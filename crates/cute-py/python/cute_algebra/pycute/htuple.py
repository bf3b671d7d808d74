"""The paper's PyCuTe helpers on hierarchical tuples (HTuples), and its by-mode form of an
operation: ``op[i, j](x)`` applies ``op`` at the mode ``(i, j)`` of ``x``.

A mode is a path of indices into nested tuples (or layouts). ``ModeOpDecorator`` makes an
operation with a keyword-only ``mode`` parameter subscriptable: ``op[i][j](...)``,
``op[i, j](...)`` and ``op(..., mode=(i, j))`` are the same call.

>>> from cute_algebra.pycute import get, lift, select, take, dice_, repeat_like
>>> get[1, 0]((1, (2, 3))), lift[1](7), select[0, 2]((4, 5, 6)), take[1, 3]((4, 5, 6))
(2, (0, 7), (4, 6), (5, 6))
>>> dice_((None, 1), (4, 8)), repeat_like(0, ((1, 2), 3))
((8,), ((0, 0), 0))
"""

import functools

from .atuple import ArithTuple
from .int_tuple import _fail, is_tuple

__all__ = [
    "ModeOpDecorator", "wrap", "unwrap", "get", "lift", "select", "take", "transform_leaf",
    "transform_apply_leaf", "leaves", "unflatten", "repeat_like", "product_each", "dice_",
    "is_htuple", "profile", "zip_leaves",
]


def _path(mode):
    """A mode as a tuple path: an int is a path of one index; a list is a path too."""
    if isinstance(mode, (tuple, list)):
        return tuple(mode)
    return (mode,)


class _ModeOp:
    """``op`` at a fixed mode prefix: ``op[p](*a, mode=m)`` is ``op(*a, mode=p + m)``."""

    __slots__ = ("op", "prefix")

    def __init__(self, op, prefix):
        self.op = op
        self.prefix = prefix

    def __getitem__(self, mode):
        return _ModeOp(self.op, self.prefix + _path(mode))

    def __call__(self, *args, mode=(), **kwargs):
        return self.op(*args, mode=self.prefix + _path(mode), **kwargs)

    def __repr__(self):
        return f"{getattr(self.op, '__name__', self.op)}[{', '.join(map(str, self.prefix))}]"


class ModeOpDecorator(functools.partial):
    """Makes an operation ``op(*args, mode=(), ...)`` subscriptable by mode: ``op[i, j]`` is
    ``op`` with ``mode=(i, j)``, and subscripts accumulate (``op[i][j]``, ``op[i](..., mode=j)``).
    A plain call costs what calling ``op`` costs (a ``functools.partial`` without arguments).

    >>> @ModeOpDecorator
    ... def op(x, *, mode=()):
    ...     return (x, mode)
    >>> op(1), op[2](1), op[2][3](1), op[2](1, mode=4)
    ((1, ()), (1, (2,)), (1, (2, 3)), (1, (2, 4)))
    """

    def __new__(cls, func):
        self = super().__new__(cls, func)
        # the operation's own name, module and docstring (help(), doctest), on the instance
        self.__name__ = getattr(func, "__name__", repr(func))
        self.__qualname__ = getattr(func, "__qualname__", self.__name__)
        self.__module__ = getattr(func, "__module__", __name__)
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        return self

    def __getitem__(self, mode):
        return _ModeOp(self.func, _path(mode))

    def __repr__(self):
        return f"<operation {self.__name__} (op[mode] applies it at a mode)>"


def is_htuple(x):
    """True for a Python tuple or list (an HTuple node).

    >>> is_htuple([1, 2]), is_htuple(3)
    (True, False)
    """
    return isinstance(x, (tuple, list))


def wrap(x):
    """``x`` as a tuple: a tuple as it is, anything else as a 1-tuple.

    >>> wrap(7), wrap((7, 8))
    ((7,), (7, 8))
    """
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def unwrap(x):
    """``x`` with 1-tuples stripped, repeatedly.

    >>> unwrap(((42,),)), unwrap((1, 2))
    (42, (1, 2))
    """
    while isinstance(x, (tuple, list)) and len(x) == 1:
        x = x[0]
    return x


def _mode_of(x, i, path):
    try:
        if hasattr(x, "_mode_of"):
            return x._mode_of(i)
        if is_tuple(x) or isinstance(x, (list, ArithTuple)):
            return x[i]
    except IndexError:
        pass
    raise _fail("get", "ProfileMismatch", f"{x} has no mode {path}")


@ModeOpDecorator
def get(x, *, mode=()):
    """The mode of ``x`` (a nested tuple or a layout) at the path ``mode``.

    >>> get((1, (2, (3, 4))), mode=(1, 1, 0)), get[1]((5, 6)), get(7)
    (3, 6, 7)
    """
    for i in _path(mode):
        x = _mode_of(x, i, mode)
    return x


@ModeOpDecorator
def lift(x, *, mode=(), pad=0):
    """The tuple with ``x`` at the path ``mode`` and ``pad`` before it at every level (the
    inverse of ``get``).

    >>> lift[0, 2](42), lift[1, 0](42, pad=None)
    (((0, 0, 42),), (None, (42,)))
    """
    for i in reversed(_path(mode)):
        if type(i) is not int or i < 0:
            raise _fail("lift", "ProfileMismatch", f"mode {mode}: {i} is not a non-negative int")
        x = (pad,) * i + (x,)
    return x


def _modes(x):
    if hasattr(x, "_modes"):
        return x._modes()
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,)


@ModeOpDecorator
def select(x, *, mode=()):
    """The top-level modes of ``x`` at the indices ``mode``, as a tuple.

    >>> select((1, 2, 3, 4), mode=(0, 2)), select[3]((1, 2, 3, 4))
    ((1, 3), (4,))
    """
    m = _modes(x)
    try:
        return tuple(m[i] for i in _path(mode))
    except IndexError:
        raise _fail("select", "ProfileMismatch", f"{x} has no modes {mode}") from None


@ModeOpDecorator
def take(x, *, mode=()):
    """The top-level modes ``[begin, end)`` of ``x`` (``mode=(begin, end)``), as a tuple.

    >>> take((1, 2, 3, 4), mode=(1, 3)), take[1, 1]((1, 2))
    ((2, 3), ())
    """
    path = _path(mode)
    if len(path) != 2:
        raise _fail("take", "ProfileMismatch", f"mode {mode}: expected (begin, end)")
    b, e = path
    m = _modes(x)
    if not 0 <= b <= e <= len(m):
        raise _fail("take", "ProfileMismatch",
                    f"range [{b}, {e}) is not within the {len(m)} modes of {x}")
    return tuple(m[b:e])


def transform_leaf(f, *xs):
    """``f`` applied leaf by leaf to congruent nested tuples, the result nested as they are.

    >>> transform_leaf(lambda a, b: a + b, (1, (2, 3)), (10, (20, 30)))
    (11, (22, 33))
    """
    return transform_apply_leaf(tuple, f, *xs)


def transform_apply_leaf(g, f, *xs):
    """``f`` applied leaf by leaf, and ``g`` applied to the results of each tuple level.

    >>> transform_apply_leaf(sum, lambda a: a, ((1, 2), (3, 4)))
    10
    """
    if isinstance(xs[0], (tuple, list)):
        n = len(xs[0])
        for x in xs[1:]:
            if not isinstance(x, (tuple, list)) or len(x) != n:
                raise _fail("transform_leaf", "ProfileMismatch",
                            f"{xs[0]} and {x} are not congruent")
        return g(transform_apply_leaf(g, f, *(x[k] for x in xs)) for k in range(n))
    return f(*xs)


def leaves(x):
    """The leaves of a nested tuple, in order (an iterator).

    >>> list(leaves(((1, (2, 3)), 4)))
    [1, 2, 3, 4]
    """
    if isinstance(x, (tuple, list)):
        for y in x:
            yield from leaves(y)
    else:
        yield x


def unflatten(it, profile):
    """The values of the iterator ``it`` nested as ``profile``.

    >>> unflatten(iter([10, 20, 30]), ((1, 2), 3))
    ((10, 20), 30)
    """
    if isinstance(profile, (tuple, list)):
        return tuple(unflatten(it, p) for p in profile)
    try:
        return next(it)
    except StopIteration:
        raise _fail("unflatten", "ProfileMismatch",
                    "the iterator ran out before the profile's leaves") from None


def repeat_like(v, profile):
    """``profile`` with every leaf replaced by ``v``.

    >>> repeat_like(0, ((1, (2, 3)), 4)), repeat_like(7, 1)
    (((0, (0, 0)), 0), 7)
    """
    if isinstance(profile, (tuple, list)):
        return tuple(repeat_like(v, p) for p in profile)
    return v


def product_each(x):
    """The product of each top-level mode (an int is its own product).

    >>> product_each(((2, 3), 4)), product_each(5)
    ((6, 4), 5)
    """
    from .int_tuple import product
    if isinstance(x, (tuple, list)):
        return tuple(product(m) for m in x)
    return product(x)


def dice_(crd, trg):
    """The entries of ``trg`` paired with the ints of ``crd`` (the complement of ``slice_``), as a
    flat tuple of whole modes.

    >>> dice_((None, 1), (4, 8)), dice_(0, (4, 8)), dice_(None, (4, 8))
    ((8,), ((4, 8),), ())
    """
    if isinstance(crd, (tuple, list)):
        if not isinstance(trg, (tuple, list)) or len(crd) != len(trg):
            raise _fail("dice_", "ProfileMismatch", f"coordinate {crd} does not match {trg}")
        out = []
        for c, t in zip(crd, trg):
            out.extend(dice_(c, t))
        return tuple(out)
    if crd is None:
        return ()
    return (trg,)


def profile(x):
    """The profile of ``x``: its hierarchy with every leaf ``None``. A layout's is its shape's;
    inside a tuple a layout (a tiler's) is a leaf, as is anything that is not a tuple.

    >>> profile(((2, 3), 5)), profile((None, "m")), profile(7)
    (((None, None), None), (None, None), None)
    """
    if hasattr(x, "_mode_of") and hasattr(x, "shape") and not isinstance(x, (tuple, list)):
        x = x.shape  # a layout
    return _profile(x)


def _profile(x):
    if isinstance(x, (tuple, list)):
        return tuple(_profile(e) for e in x)
    return None


def zip_leaves(tree, x):
    """``(leaf, part)`` for each leaf of ``tree`` and the part of ``x`` (a nested tuple or a
    layout) at the same position: the pairing of names with modes.

    >>> list(zip_leaves(("a", ("b", "c")), (4, (5, 6))))
    [('a', 4), ('b', 5), ('c', 6)]
    """
    if isinstance(tree, (tuple, list)):
        for k, t in enumerate(tree):
            yield from zip_leaves(t, _mode_of(x, k, (k,)))
    else:
        yield tree, x
