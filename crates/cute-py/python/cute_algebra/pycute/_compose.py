"""Composition's cases beyond the core's operands, for :mod:`cute_algebra.pycute.layout`: tilers
padded at every level, left operands whose strides the core has no form for (composed through
basis elements), right operands of coordinates, the rank-0 layout, and the core's refusal of an
operand named as composition's. (``layout`` imports these; they import ``Layout`` and
``composition`` from it when called.)"""

from .._native import LayoutError
from .atuple import ArithTuple as _ArithTuple, ScaledBasis as _ScaledBasis, basis_repr
from .int_tuple import _fail, is_int, is_tuple

__all__: list = []

def _pad_tiler(shape, t):
    """The tuple tiler ``t`` with each tuple shorter than its mode of ``A`` (of shape ``shape``)
    padded with ``None`` (keep the mode), at every level: legacy pycute keeps the modes past a
    by-mode tiler's length, in each mode it recurses into."""
    if type(t) is not tuple or not is_tuple(shape):  # noqa: E721
        return t
    n = len(shape)
    out = [_pad_tiler(shape[i], x) if i < n else x for i, x in enumerate(t)]
    if len(out) < n:
        out.extend([None] * (n - len(out)))
    return tuple(out)


def _needs_bases(stride):
    """Whether ``stride`` has a leaf that the core has no stride for (a sum of basis elements,
    an ``F2``-valued basis element): a layout that composes through bases."""
    for d in _flat_strides(stride):
        if isinstance(d, _ArithTuple):
            rep = basis_repr(d)
            if len(rep) != 1 or not is_int(rep[0][0]):
                return True
    return False


def _operand_error(op, a, b, which, e):
    """The core's refusal of an operand of ``op`` (``which``: "left" or "right"), as a
    ``LayoutError`` of ``op`` naming both operands."""
    return _fail(op, getattr(e, "category", "Unsupported"),
                 f"{a} ∘ {b}: the {which} operand is refused: {e}")


def _compose_rank0(A, B):
    """``A o B`` for the rank-0 layout ``A``: the function ``{0 -> 0}`` of size 1, which is
    ``1:0`` (legacy pycute coalesces it to that); a by-mode tiler has more modes than it."""
    from .layout import Layout, composition
    if type(B) is tuple:  # noqa: E721
        if len(B) == 0:
            return A
        raise _fail("composition", "ProfileMismatch", f"{A} ∘ {B}: the tiler has more modes "
                    f"({len(B)}) than the rank-0 layout")
    return composition(Layout(1, 0), B)


def _flat_strides(d):
    if is_tuple(d):
        for x in d:
            yield from _flat_strides(x)
    else:
        yield d


def _rebuild(d, leaves):
    if is_tuple(d):
        return tuple(_rebuild(x, leaves) for x in d)
    return next(leaves)


def _compose_through_bases(A, B):
    """``A o B`` for an ``A`` whose strides the core has no form for (sums of basis elements,
    ``F2``-valued basis elements): ``A`` is ``phi o A'`` with ``A'`` of the same shape and the
    stride ``E(k)`` at its leaf ``k``, and ``phi`` the linear map ``E(k) -> A``'s stride ``k``;
    so ``A o B = phi o (A' o B)``: the core composes ``A'``, and each stride of the result (an
    element of ``Z^S``) is mapped by ``phi``."""
    from .layout import Layout, _native_of, composition
    strides = list(_flat_strides(A.stride))
    bases = [_ScaledBasis(1, (k,)) for k in range(len(strides))]
    A1 = Layout(A.shape, _rebuild(A.stride, iter(bases)))
    try:
        _native_of(A1)
    except LayoutError as e:  # its shape: named with A as given
        raise _operand_error("composition", A, B, "left", e) from None
    R = composition(A1, B)

    def phi(d):
        if is_tuple(d):
            return tuple(phi(x) for x in d)
        out = 0
        for c, path in basis_repr(d):
            if c == 0:
                continue
            if len(path) != 1:
                raise _fail("composition", "Unsupported",
                            f"{A} o {B}: stride {d} of the composed bases has no image")
            out = out + c * strides[path[0]]
        return out

    return Layout(R.shape, phi(R.stride))


def _coordinate_strided(B):
    """Whether every stride of ``B`` is 0 or an element of ``Z^S`` (no int offsets)."""
    return all(d == 0 or isinstance(d, _ArithTuple) for d in _flat_strides(B.stride))


def _compose_with_coordinates(A, B):
    """``A o B`` for a ``B`` whose strides are coordinates of ``A`` (elements of ``Z^S``, sums of
    basis elements included): ``A`` is linear on natural coordinates, so the result has ``B``'s
    shape and the strides ``A(d)``."""
    from .layout import Layout

    def image(d):
        if is_tuple(d):
            return tuple(image(x) for x in d)
        return 0 if d == 0 else A(d)
    return Layout(B.shape, image(B.stride))
