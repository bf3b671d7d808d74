"""The paper's PyCuTe layout functions that legacy pycute lacks: the by-mode queries (``shape``,
``stride``, ``rank``, ``depth``, ``coshape``, ``coprofile``), the profile predicates
(``congruent``, ``weakly_congruent``, ``compatible``), and the layout makers
``tiler_to_layout``, ``make_layout_like`` and ``make_ordered_layout``.

>>> from cute_algebra.pycute import Layout, E, shape, rank, coshape, tiler_to_layout
>>> A = Layout(((2, 3), 4), ((4, 8), 1))
>>> shape[0](A), rank(A), coshape(Layout((4, 8), (E(1), E(0))))
((2, 3), 2, ArithTuple(8,4))
>>> tiler_to_layout((4, 5)) == Layout((4, 5), (E(0), E(1)))
True
"""

import functools

from .atuple import F2, ArithTuple, E, _cmp, _is_zero
from .htuple import ModeOpDecorator, get, leaves, unflatten
from .int_tuple import _fail, is_int, is_tuple, product
from .layout import (
    Layout, LayoutBase, LayoutError, _at_mode, _by_mode, _from_native, _has_sympy, _native_of,
    _sym_compute, coalesce, composition, make_layout, size,
)
from .. import _native

__all__ = [
    "shape", "stride", "rank", "depth", "coshape", "coprofile", "congruent", "weakly_congruent",
    "compatible", "tiler_to_layout", "make_layout_like", "make_ordered_layout",
    "greatest_common_domain", "coalesce_z", "layout_add", "recast", "nullspace",
    "common_refinement", "common_coarsening",
]


def _at(x, mode):
    return get(x, mode=mode) if mode else x


def _shape_of(x):
    """The shape of a layout; a tuple of layouts and shapes as the tuple of their shapes."""
    if isinstance(x, LayoutBase):
        return x.shape
    if hasattr(x, "_layout_op"):
        return x.layout.shape  # a Tensor
    if isinstance(x, ArithTuple):
        return tuple(_shape_of(y) for y in x.data)
    if is_tuple(x):
        return tuple(_shape_of(y) for y in x)
    return x


@ModeOpDecorator
def shape(x, *, mode=()):
    """The shape of a layout (a shape is its own shape), of its mode ``mode``: ``shape[i](L)``.

    >>> shape(Layout((4, (2, 3)))), shape[1, 0](Layout((4, (2, 3)))), shape((4, 8))
    ((4, (2, 3)), 2, (4, 8))
    """
    return _shape_of(_at(x, mode))


@ModeOpDecorator
def stride(x, *, mode=()):
    """The stride of a layout, of its mode ``mode``: ``stride[i](L)``.

    >>> stride(Layout((4, 8))), stride[1](Layout((4, 8)))
    ((1, 4), 4)
    """
    x = _at(x, mode)
    if not isinstance(x, LayoutBase):
        raise TypeError(f"stride: expected a Layout, got {type(x).__name__}")
    return x.stride


def _rank(s):
    return len(s) if is_tuple(s) else 1


def _depth(s):
    if is_tuple(s):
        return 1 + max((_depth(y) for y in s), default=0)
    return 0


@ModeOpDecorator
def rank(x, *, mode=()):
    """The number of top-level modes (1 for an int), of the mode ``mode``: ``rank[i](L)``.

    >>> rank(Layout((4, (2, 3)))), rank[1](Layout((4, (2, 3)))), rank(7)
    (2, 2, 1)
    """
    return _rank(_shape_of(_at(x, mode)))


@ModeOpDecorator
def depth(x, *, mode=()):
    """The nesting depth (0 for an int), of the mode ``mode``: ``depth[i](L)``.

    >>> depth(Layout((4, (2, 3)))), depth[0](Layout((4, (2, 3))))
    (2, 0)
    """
    return _depth(_shape_of(_at(x, mode)))


def _plus_one(x):
    # an ArithTuple: a coordinate codomain of fewer axes than the next layer's is the same one
    # with zeros implicit
    if isinstance(x, ArithTuple):
        return ArithTuple._set(_plus_one(y) for y in x.data)
    return x + 1


@ModeOpDecorator
def coshape(x, *, mode=()):
    """A bound on the image: one past the largest offset (``cosize``) for integer strides; for
    coordinate (``E``) strides, one past the largest coordinate in each axis.

    >>> coshape(Layout((4, 8), (8, 1))), coshape(Layout((4, 8), (E(0), E(1)))) == (4, 8)
    (32, True)
    """
    x = _at(x, mode)
    if not isinstance(x, Layout):
        raise TypeError(f"coshape: expected a Layout, got {type(x).__name__}")
    top = 0
    coordinate = False
    for s, d in zip(leaves(x.shape), leaves(x.stride)):
        if isinstance(d, ArithTuple):
            coordinate = True
            top = top + (s - 1) * d if s > 0 else top
    if not coordinate:
        if any(isinstance(d, F2) for d in leaves(x.stride)):
            # a power of two past every reachable value: c*d (c < s) has at most
            # bitlen(s-1) + bitlen(d) - 1 bits, and XOR adds none
            bits = max((((s - 1).bit_length() + int(d).bit_length() - 1) if s > 1 and d else 0)
                       for s, d in zip(leaves(x.shape), leaves(x.stride)))
            return 1 << bits
        return x.cosize()
    for s, d in zip(leaves(x.shape), leaves(x.stride)):
        if not isinstance(d, ArithTuple) and not _is_zero(d):
            raise _fail("coshape", "Unsupported", f"{x} mixes coordinate and integer strides")
    if not isinstance(top, ArithTuple):
        return 1
    return _plus_one(top)


@ModeOpDecorator
def coprofile(x, *, mode=()):
    """The profile of the codomain: that of ``coshape`` (an int for integer strides, a tuple of
    ints for coordinate strides).

    >>> coprofile(Layout((4, 8), (E(0), E(1))))
    ArithTuple(4,8)
    """
    return coshape(_at(x, mode))


def congruent(a, b):
    """True when ``a`` and ``b`` (shapes, or layouts' shapes) have the same nesting.

    >>> congruent((1, (2, 3)), (4, (5, 6))), congruent(1, (2,))
    (True, False)
    """
    a, b = _shape_of(a), _shape_of(b)
    if is_tuple(a) and is_tuple(b):
        return len(a) == len(b) and all(congruent(x, y) for x, y in zip(a, b))
    return not is_tuple(a) and not is_tuple(b)


def weakly_congruent(a, b):
    """True when ``a`` is coarser than ``b``: an int stands for any mode; a tuple needs a tuple
    of the same rank (an ``ArithTuple``, whose missing entries are zeros, of at most that rank).
    A layout ``a`` stands for the profile of its codomain (``coprofile``), as in the paper's
    PyCuTe; a layout ``b`` for its shape.

    >>> weakly_congruent(1, (2, 3)), weakly_congruent((1, 2), ((3, 4), 5)), weakly_congruent((1, 2), 3)
    (True, True, False)
    """
    if isinstance(a, Layout):
        a = coprofile(a)
    if isinstance(b, LayoutBase):
        b = b.shape
    if isinstance(a, ArithTuple):
        if not is_tuple(b) or len(a.data) > len(b):
            return False
        return all(weakly_congruent(x, y) for x, y in zip(a.data, b))
    if is_tuple(a):
        if isinstance(b, ArithTuple):
            # a coordinate profile: its missing entries are zeros
            b = b.data + (0,) * max(0, len(a) - len(b.data))
        if not is_tuple(b) or len(a) != len(b):
            return False
        return all(weakly_congruent(x, y) for x, y in zip(a, b))
    return True


def compatible(a, b):
    """True when every coordinate of ``a`` is one of ``b`` (shapes, or layouts' shapes): an int
    ``a`` needs ``size(b) == a``; a tuple needs a tuple of the same rank, compatible by mode.

    >>> compatible(12, (3, 4)), compatible((3, 4), 12), compatible((2, 6), ((2, 1), (3, 2)))
    (True, False, True)
    """
    a, b = _shape_of(a), _shape_of(b)
    if is_tuple(a):
        return is_tuple(b) and len(a) == len(b) and all(compatible(x, y) for x, y in zip(a, b))
    return a == product(b)


def tiler_to_layout(tiler):
    """The layout that acts as ``tiler`` does in a composition: an int ``n`` is ``n:1``, a layout
    itself, a tuple the layout whose mode ``i`` is its entry ``i`` in the axis ``E(i)``.

    >>> tiler_to_layout(3), tiler_to_layout((4, 5)) == Layout((4, 5), (E(0), E(1)))
    (Layout(3,1), True)
    """
    if isinstance(tiler, LayoutBase):
        return tiler
    if is_int(tiler):
        return Layout(tiler, 1)
    if not is_tuple(tiler):
        raise TypeError(f"tiler_to_layout: expected an int, a Layout or a tuple, got "
                        f"{type(tiler).__name__}")
    modes = []
    for i, t in enumerate(tiler):
        if t is None:
            raise _fail("tiler_to_layout", "ProfileMismatch",
                        f"tiler {tiler}: mode {i} is None (no extent to lay out)")
        mode = tiler_to_layout(t)
        basis = E(i)
        modes.append(Layout(mode.shape, _scale(mode.stride, basis)))
    return make_layout(modes)


def _scale(d, basis):
    if is_tuple(d):
        return tuple(_scale(x, basis) for x in d)
    if isinstance(d, ArithTuple):
        raise _fail("tiler_to_layout", "Unsupported",
                    f"a mode with the coordinate stride {d} in a tuple tiler")
    return d * basis


def _is_dynamic(x):
    """True for a sympy value that is not a number: a value known only at run time, which CuTe
    orders after every static one (left to right among themselves)."""
    return type(x).__module__.startswith("sympy.") and not getattr(x, "is_Number", False)


def _stride_order(x, y):
    """The order of two nonzero strides for make_layout_like: ints by value, coordinate strides
    colexicographically (the basis position first, then the scale), ints before coordinates;
    a symbolic (sympy) stride after every static one, ties left to right."""
    xs, ys = _is_dynamic(x), _is_dynamic(y)
    if xs or ys:
        return xs - ys
    xa, ya = isinstance(x, ArithTuple), isinstance(y, ArithTuple)
    if xa != ya:
        return 1 if xa else -1
    if xa:
        return _cmp(x, y)
    return (x > y) - (x < y)


def make_layout_like(layout):
    """The compact layout of ``layout``'s shape whose strides increase in the order of
    ``layout``'s (ties left to right); stride-0 modes stay stride 0. A symbolic (sympy) stride
    cannot be ordered by magnitude: as CuTe does with dynamic strides, it counts as larger than
    every static one, and symbolic strides keep their order.

    >>> make_layout_like(Layout((4, 8), (100, 1))), make_layout_like(Layout((8, 4), (0, 2)))
    (Layout((4, 8),(8, 1)), Layout((8, 4),(0, 1)))
    >>> import sympy; X = sympy.Symbol("X", positive=True, integer=True)
    >>> make_layout_like(Layout((2, 3, 4), (1, X, 2)))
    Layout((2, 3, 4),(1, 8, 2))
    """
    if not isinstance(layout, Layout):
        raise TypeError(f"make_layout_like: expected a Layout, got {type(layout).__name__}")
    shp = list(leaves(layout.shape))
    src = list(leaves(layout.stride))
    for d in src:
        if not (is_int(d) or isinstance(d, ArithTuple) or _is_dynamic(d)):
            raise _fail("make_layout_like", "Unsupported",
                        f"stride {d} of {layout} cannot be ordered")
    live = [k for k in range(len(src)) if _is_dynamic(src[k]) or not _is_zero(src[k])]
    live.sort(key=functools.cmp_to_key(lambda i, j: _stride_order(src[i], src[j]) or (i - j)))
    dst = [0] * len(src)
    current = 1
    for k in live:
        dst[k] = current
        current *= shp[k]
    return Layout(layout.shape, unflatten(iter(dst), layout.shape))


def make_ordered_layout(shp, order):
    """The compact layout of ``shp`` whose leaves take the prefix products in increasing
    ``order`` (congruent to ``shp``; ties left to right). A symbolic (sympy) order value counts
    as larger than every static one, symbolic ones left to right (CuTe's rule for dynamic
    orders).

    >>> make_ordered_layout((4, 8, 2), (1, 2, 0)), make_ordered_layout((4, 8), (5, 5))
    (Layout((4, 8, 2),(2, 8, 1)), Layout((4, 8),(1, 4)))
    >>> import sympy; P = sympy.Symbol("P", positive=True, integer=True)
    >>> make_ordered_layout((4, 8), (P, 1))
    Layout((4, 8),(8, 1))
    """
    if not congruent(shp, order):
        raise _fail("make_ordered_layout", "ProfileMismatch",
                    f"order {order} is not congruent to the shape {shp}")
    s = list(leaves(shp))
    o = list(leaves(order))
    for v in o:
        if not (is_int(v) or _is_dynamic(v)):
            raise _fail("make_ordered_layout", "Unsupported", f"order {order}: {v} is not an int")
    dst = [0] * len(s)
    current = 1
    for k in sorted(range(len(s)), key=lambda k: (1, 0, k) if _is_dynamic(o[k]) else (0, o[k], k)):
        dst[k] = current
        current *= s[k]
    return Layout(shp, unflatten(iter(dst), shp))


def greatest_common_domain(a, b):
    """The largest layout whose shape refines both shapes (of ``a`` and ``b``, shapes or
    layouts; strides do not matter): the longest common prefix of their refinements, as a
    compact layout of rank at least 1.

    >>> greatest_common_domain((4, 6), (8, 3)), greatest_common_domain(Layout((5, 3)), 10)
    (Layout((4, 2, 3),(1, 4, 8)), Layout((5,),(1,)))
    """
    a, b = (x.layout if hasattr(x, "_layout_op") else x for x in (a, b))  # tensors
    sa = a.shape if isinstance(a, LayoutBase) else a
    sb = b.shape if isinstance(b, LayoutBase) else b
    return _from_native(_native.greatest_common_domain(sa, sb))


def _coalesce_z_mode(layout, profile):
    return layout if profile is None else coalesce_z(layout, profile)


def _coalesce_z_plain(layout, profile=None):
    return coalesce_z(layout, profile)


_coalesce_z_plain.__name__ = "coalesce_z"


@ModeOpDecorator
def coalesce_z(layout, profile=None, *, mode=()):
    """The paper's coalesce that keeps the function on the extended domain (past the size): a
    trailing size-1 mode that carries the step past the last element stays (by mode for a tuple
    profile, whose ``None`` entries keep their modes; ``coalesce_z[i](L)``: the mode ``i`` only).

    >>> coalesce_z(Layout((2, 1, 6, 1), (1, 7, 8, 0)))
    Layout((2, 6, 1),(1, 8, 0))
    """
    if mode:
        return _at_mode(_coalesce_z_plain, layout, mode, profile)
    if profile is not None and is_tuple(profile):
        return _by_mode("coalesce_z", _coalesce_z_mode, layout, profile)
    if _has_sympy(layout):
        # the paper's PyCuTe's form: a static extent is not folded into a symbolic product
        return _sym_compute("coalesce_z", lambda s: s.layout(layout).coalesce(
            static_apart=True, keep_last=True))
    return _from_native(_native.coalesce_z(_native_of(layout)))


def _int_strides(layout):
    return all(type(d) is int for d in leaves(layout.stride))


def layout_add(a, b):
    """The layout ``R`` with ``R(i) == a(i) + b(i)`` for every ``i`` (both of one size): both
    composed with the greatest common domain of their shapes, the strides added leaf by leaf (in
    the strides' own algebra: ints, coordinates, XOR for ``F2``), then coalesced.

    >>> layout_add(Layout((4, 3), (1, 4)), Layout((4, 3), (3, 1)))
    Layout((4, 3),(4, 5))
    >>> layout_add(Layout(8, F2(1)), Layout(8, F2(2))) == Layout(8, F2(3))
    True
    """
    if not isinstance(a, Layout) or not isinstance(b, Layout):
        raise TypeError(f"layout_add: expected two Layouts, got {type(a).__name__} and "
                        f"{type(b).__name__}")
    if size(a) != size(b):
        raise _fail("layout_add", "SizeMismatch",
                    f"{a} and {b}: sizes differ ({size(a)} vs {size(b)})")
    if _int_strides(a) and _int_strides(b):
        return _from_native(_native.layout_add(_native_of(a), _native_of(b)))
    g = greatest_common_domain(a, b)
    if size(g) != size(a):
        raise _fail("layout_add", "Divisibility",
                    f"{a} and {b}: the shapes have no common refinement of the whole size "
                    f"(greatest common domain {g})")
    ca, cb = composition(a, g), composition(b, g)
    if list(leaves(ca.shape)) != list(leaves(cb.shape)):
        raise _fail("layout_add", "Divisibility",
                    f"{a} and {b}: composed with {g} they take different shapes "
                    f"({ca.shape} and {cb.shape})")
    sums = [x + y for x, y in zip(leaves(ca.stride), leaves(cb.stride))]
    r = Layout(ca.shape, unflatten(iter(sums), ca.shape))
    try:
        return coalesce(r)
    except LayoutError:
        # a sum of basis elements as a stride: exact, but not a stride of the Rust core
        return r


def recast(layout, scale):
    """The layout for elements ``scale`` times as large (an int, or a ``Fraction`` below 1 for
    smaller elements): offsets in units of the new element.

    >>> from fractions import Fraction
    >>> recast(Layout(24, 1), 8), recast(Layout(24, 2), Fraction(1, 2))
    (Layout(3,1), Layout(24,4))
    """
    num = getattr(scale, "numerator", None)
    den = getattr(scale, "denominator", None)
    if type(scale) is bool or not (is_int(num) and is_int(den)):
        raise TypeError(f"recast: expected an int or a Fraction scale, got "
                        f"{type(scale).__name__}")
    return _from_native(_native.recast(_native_of(layout), num, den))


def nullspace(layout):
    """The layout of the indices of ``layout``'s domain that it sends to 0 (its stride-0
    modes): ``layout(nullspace(layout)(i)) == 0``.

    >>> N = nullspace(Layout((2, 4, 6), (1, 0, 2))); N, [Layout((2, 4, 6), (1, 0, 2))(N(i)) for i in range(4)]
    (Layout(4,2), [0, 0, 0, 0])
    """
    return _from_native(_native.nullspace(_native_of(layout)))


def _size_of(x):
    return product(x)


def common_refinement(a, b):
    """The coarsest shape that both ``a`` and ``b`` (shapes, or layouts' shapes) are compatible
    with (the join of the compatibility order); a ``LayoutError`` when there is none.

    >>> common_refinement((4, (3, 5)), ((2, 2), 15)), common_refinement(10, (2, 5))
    (((2, 2), (3, 5)), (2, 5))
    """
    a, b = _shape_of(a), _shape_of(b)
    if not is_tuple(a) and not is_tuple(b):
        if a != b:
            raise _fail("common_refinement", "ProfileMismatch", f"{a} and {b} differ")
        return a
    if not is_tuple(a) or not is_tuple(b):
        t, n = (b, a) if is_tuple(b) else (a, b)
        if _size_of(t) != n:
            raise _fail("common_refinement", "ProfileMismatch",
                        f"{a} and {b}: sizes differ ({_size_of(a)} vs {_size_of(b)})")
        return tuple(t)
    if len(a) != len(b):
        raise _fail("common_refinement", "ProfileMismatch",
                    f"{a} and {b}: ranks differ ({len(a)} vs {len(b)})")
    return tuple(common_refinement(x, y) for x, y in zip(a, b))


def _meet(a, b):
    """The common coarsening of two shapes of one size."""
    if not is_tuple(a) or not is_tuple(b) or len(a) != len(b):
        return _size_of(a)
    if any(_size_of(x) != _size_of(y) for x, y in zip(a, b)):
        return _size_of(a)
    return tuple(_meet(x, y) for x, y in zip(a, b))


def common_coarsening(a, b):
    """The finest shape compatible with both ``a`` and ``b`` (shapes, or layouts' shapes; the
    meet of the compatibility order): mode by mode where the modes' sizes agree, otherwise their
    size; a ``LayoutError`` when the sizes differ.

    >>> common_coarsening((4, (3, 5)), ((2, 2), 15)), common_coarsening((6, 5), (2, 15))
    ((4, 15), 30)
    """
    a, b = _shape_of(a), _shape_of(b)
    if _size_of(a) != _size_of(b):
        raise _fail("common_coarsening", "ProfileMismatch",
                    f"{a} and {b}: sizes differ ({_size_of(a)} vs {_size_of(b)})")
    return _meet(a, b)
