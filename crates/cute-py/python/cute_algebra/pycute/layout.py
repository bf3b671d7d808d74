"""Legacy pycute's ``Layout`` and layout algebra, computed by the exact Rust core.

``Layout`` keeps legacy pycute's conventions: plain ``shape``/``stride`` attributes, ``str`` as
``shape:stride`` of Python tuples, ``repr`` as ``Layout(shape,stride)``, a call with ``None``
entries slices, ``complement(layout, max_idx)``. The algebra (coalesce, filter, composition,
complement, inverses, divides, products) is the core crate's: where legacy pycute would return a
layout that is not the operation's result, or stop at a bare ``assert``, these raise
``LayoutError`` (a ``ValueError``) with the core's one-line reason.

>>> from cute_algebra.pycute import Layout, composition, complement
>>> A = Layout((4, 3), (3, 1))
>>> composition(A, Layout(6, 2))
Layout((2, 3),(6, 1))
>>> complement(Layout(4, 2), 24)
Layout((2, 3),(1, 8))
"""

from .. import _native
from .._native import LayoutError
from .int_tuple import _fail, crd2idx, has_none, is_int, is_tuple, prefix_product, product, slice_

__all__ = [
    "LayoutBase", "is_layout", "Layout", "make_layout", "size", "cosize", "coalesce", "filter",
    "composition", "complement", "right_inverse", "left_inverse", "logical_divide",
    "logical_product", "hier_unzip", "zipped_divide", "tiled_divide", "zipped_product",
    "tiled_product", "blocked_product", "raked_product", "slice_and_offset", "LayoutError",
]


class LayoutBase:
    """The common base of ``Layout`` and ``ComposedLayout``.

    >>> from cute_algebra.pycute import ComposedLayout, Swizzle
    >>> isinstance(Layout(4), LayoutBase)
    True
    >>> isinstance(ComposedLayout(Swizzle(1, 0, 1), 0, Layout(4)), LayoutBase)
    True
    """


def is_layout(x):
    """True for a ``Layout`` or ``ComposedLayout``.

    >>> is_layout(Layout(4)), is_layout(4)
    (True, False)
    """
    return isinstance(x, LayoutBase)


def _native_of(layout):
    """The Rust layout of a compat layout (ints become ``n:1``), made once: a compat layout keeps
    the Rust layout it was made from or converted to, until ``shape`` or ``stride`` is assigned."""
    if isinstance(layout, Layout):
        n = layout._native
        if n is None:
            n = layout._native = _n_Layout(layout.shape, layout.stride)
        return n
    if is_int(layout):
        return _native.Layout(layout, 1)
    raise TypeError(f"expected a pycute Layout, got {type(layout).__name__}")


def _from_native(n):
    """The compat layout of a Rust layout: its shape and stride are read from it when first
    asked for."""
    layout = _new_layout(_Layout)
    layout._shape = layout._stride = None
    layout._native = n
    return layout


_new_layout = object.__new__
# the native functions, looked up once
_n_Layout = _native.Layout
_n_coalesce = _native.coalesce
_n_filter_ = _native.filter_
_n_composition = _native.composition
_n_complement = _native.complement
_n_right_inverse = _native.right_inverse
_n_left_inverse = _native.left_inverse
_n_logical_divide = _native.logical_divide
_n_logical_product = _native.logical_product
_n_zipped_divide = _native.zipped_divide
_n_tiled_divide = _native.tiled_divide
_n_zipped_product = _native.zipped_product
_n_tiled_product = _native.tiled_product
_n_blocked_product = _native.blocked_product
_n_raked_product = _native.raked_product


def _tiler_of(t):
    """A tiler for the Rust core: layouts converted, ints and None kept, tuples by mode."""
    if type(t) is Layout:
        return _native_of(t)
    if t is None or is_int(t):
        return t
    if is_tuple(t):
        return tuple(_tiler_of(x) for x in t)
    return _native_of(t)


class Layout(LayoutBase):
    """A layout ``shape:stride`` with legacy pycute's interface; ``stride`` defaults to the
    compact column-major stride.

    >>> L = Layout((4, 8), (1, 4))
    >>> L(9), L((1, 2)), L(1, 2), L(None, 2)
    (9, 9, 9, Layout((4,),(1,)))
    >>> str(L), L, len(L), L[1], L.size(), L.cosize()
    ('(4, 8):(1, 4)', Layout((4, 8),(1, 4)), 2, Layout(8,4), 32, 32)
    """

    # _shape, _stride: the two values, or None until read from _native (a layout made from a
    # Rust result); _native: the Rust layout of the two, or None until needed. LayoutBase gives
    # the __dict__ for any other attribute, as legacy's.
    __slots__ = ("_shape", "_stride", "_native")

    def __init__(self, _shape, _stride=None):
        self._shape = _shape
        self._stride = prefix_product(_shape) if _stride is None else _stride
        self._native = None

    @property
    def shape(self):
        """The shape: an int or a nested tuple of ints (assignable, as in legacy pycute; assign a
        new value rather than changing a list in place).

        >>> L = Layout((4, 8), (1, 4)); L.shape
        (4, 8)
        >>> L.shape = (8, 4); L
        Layout((8, 4),(1, 4))
        """
        s = self._shape
        if s is None:
            s = self._shape = self._native.shape
        return s

    @shape.setter
    def shape(self, value):
        self._stride = self.stride
        self._shape = value
        self._native = None

    @property
    def stride(self):
        """The stride, nested as the shape (assignable, as ``shape``).

        >>> L = Layout((4, 8)); L.stride
        (1, 4)
        >>> L.stride = (8, 1); L(1, 1)
        9
        """
        d = self._stride
        if d is None:
            d = self._stride = self._native.stride
        return d

    @stride.setter
    def stride(self, value):
        self._shape = self.shape
        self._stride = value
        self._native = None

    def __eq__(self, other):
        if not isinstance(other, Layout):
            return NotImplemented
        return self.shape == other.shape and self.stride == other.stride

    def __hash__(self):
        return hash((self.shape, self.stride))

    def __len__(self):
        return len(self.shape) if is_tuple(self.shape) else 1

    def __call__(self, *args):
        crd = args[0] if len(args) == 1 else args
        if has_none(crd):
            return Layout(slice_(crd, self.shape), slice_(crd, self.stride))
        return crd2idx(crd, self.shape, self.stride)

    def __getitem__(self, i):
        shape = self.shape
        if type(shape) is tuple or is_tuple(shape):
            mode = _new_layout(_Layout)
            mode._shape, mode._stride, mode._native = shape[i], self.stride[i], None
            return mode
        if i not in (0, -1):
            raise IndexError(f"Layout[{i}]: mode index out of range for rank 1 ({self})")
        return Layout(self.shape, self.stride)

    def size(self):
        """The size of the domain.

        >>> Layout((4, (2, 3)), (1, (8, 16))).size()
        24
        """
        return product(self.shape)

    def cosize(self):
        """One past the largest offset (exact for any strides, unlike ``L(size-1)+1``).

        >>> Layout((4, 2), (2, 1)).cosize(), Layout((4, 2), (2, 1))(7) + 1
        (8, 8)
        >>> Layout((2, 2), (-1, 4)).cosize()
        6
        """
        return _native_of(self).cosize()

    def __str__(self):
        return f"{self.shape}:{self.stride}"

    def __repr__(self):
        return f"Layout({self.shape},{self.stride})"


_Layout = Layout


def make_layout(*layouts):
    """The layout whose modes are the given layouts (or the layouts of one iterable).

    >>> make_layout(Layout(4, 1), Layout((2, 3), (4, 8)))
    Layout((4, (2, 3)),(1, (4, 8)))
    """
    if len(layouts) == 1 and not is_layout(layouts[0]):
        layouts = tuple(layouts[0])
    shapes, strides = [], []
    for l in layouts:
        shapes.append(l.shape)
        strides.append(l.stride)
    return Layout(tuple(shapes), tuple(strides))


def size(layout):
    """The size of a layout or of a shape.

    >>> size(Layout((4, 8))), size((2, 3))
    (32, 6)
    """
    if is_layout(layout):
        return layout.size()
    return product(layout)


def cosize(layout):
    """One past the largest offset of a layout.

    >>> cosize(Layout((4, 8), (1, 8)))
    60
    """
    return layout.cosize()


def _by_mode(op, f, layout, profile):
    if len(layout) < len(profile):
        raise _fail(op, "ProfileMismatch", f"profile {profile} has more modes "
                    f"({len(profile)}) than {layout} ({len(layout)})")
    n = len(profile)
    return make_layout([f(layout[i], profile[i]) for i in range(n)]
                       + [layout[i] for i in range(n, len(layout))])


def coalesce(layout, profile=None):
    """The shortest layout with the same function (by mode for a tuple profile).

    >>> coalesce(Layout((2, (1, 6)), (1, (6, 2))))
    Layout(12,1)
    """
    if is_tuple(profile):
        return _by_mode("coalesce", coalesce, layout, profile)
    return _from_native(_n_coalesce(_native_of(layout)))


def filter(layout, profile=None):
    """Coalesce after dropping stride-0 and size-1 modes (by mode for a tuple profile).

    >>> filter(Layout((4, 2, 3), (1, 0, 4)))
    Layout(12,1)
    """
    if is_tuple(profile):
        return _by_mode("filter", filter, layout, profile)
    return _from_native(_n_filter_(_native_of(layout)))


def composition(layoutA, layoutB):
    """``A o B``: ``R(c) = A(B(c))``; ``B`` may be a layout, an int, ``None`` or a tuple of
    those (by mode).

    >>> composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))
    Layout(((2, 2), 3),((24, 2), 8))
    """
    if layoutB is None:
        return layoutA
    return _from_native(_n_composition(_native_of(layoutA), _tiler_of(layoutB)))


def complement(layout, max_idx=1):
    """The layout of the offsets in ``[0, max_idx)`` (at least the span of ``layout``) that
    ``layout`` does not reach.

    >>> complement(Layout(4, 2)), complement(Layout(4, 2), 24)
    (Layout(2,1), Layout((2, 3),(1, 8)))
    """
    return _from_native(_n_complement(_native_of(layout), max_idx))


def right_inverse(layout):
    """``R`` with ``layout(R(i)) == i`` on the largest prefix ``[0, size(R))``.

    >>> right_inverse(Layout((4, 8), (8, 1)))
    Layout((8, 4),(4, 1))
    """
    if layout is None:
        return None
    return _from_native(_n_right_inverse(_native_of(layout)))


def left_inverse(layout):
    """``R`` with ``R(layout(i)) == i`` for every ``i < size(layout)`` (an injective layout).

    >>> left_inverse(Layout((4, 8), (8, 1)))
    Layout((8, 4),(4, 1))
    """
    if layout is None:
        return None
    return _from_native(_n_left_inverse(_native_of(layout)))


def logical_divide(layoutA, layoutB):
    """``A / B``: each mode split into the tile ``B`` and the rest.

    >>> logical_divide(Layout(16, 1), Layout(4, 2))
    Layout((4, (2, 2)),(2, (1, 8)))
    """
    if layoutB is None:
        return layoutA
    return _from_native(_n_logical_divide(_native_of(layoutA), _tiler_of(layoutB)))


def logical_product(layoutA, layoutB):
    """``A x B``: ``A`` repeated as ``B`` says (for an int ``B``: ``B:1`` -- legacy pycute
    divides there).

    >>> logical_product(Layout((2, 2), (4, 1)), Layout(6, 1))
    Layout(((2, 2), (2, 3)),((4, 1), (2, 8)))
    """
    if layoutB is None:
        return layoutA
    return _from_native(_n_logical_product(_native_of(layoutA), _tiler_of(layoutB)))


def hier_unzip(splitter, layoutA, layoutB):
    """Applies ``splitter`` (a rank-2 result) by mode and gathers the first modes and the second
    modes: the shape ``((A,B,...),(a,b,...,rest))``.

    >>> hier_unzip(logical_divide, Layout((8, 16), (16, 1)), (Layout(4, 1), Layout(8, 1)))
    Layout(((4, 8), (2, 2)),((16, 1), (64, 8)))
    """
    if layoutB is None:
        return make_layout(Layout(1, 0), layoutA)
    if is_tuple(layoutB):
        if len(layoutA) < len(layoutB):
            raise _fail("hier_unzip", "ProfileMismatch", f"tiler {layoutB} has more modes "
                        f"({len(layoutB)}) than {layoutA} ({len(layoutA)})")
        n = len(layoutB)
        split = [hier_unzip(splitter, layoutA[i], layoutB[i]) for i in range(n)]
        return make_layout(make_layout([s[0] for s in split]),
                           make_layout([s[1] for s in split]
                                       + [layoutA[i] for i in range(n, len(layoutA))]))
    return splitter(layoutA, layoutB)


def zipped_divide(layoutA, layoutB):
    """Logical divide with the tiles gathered in mode 0 and the rest in mode 1.

    >>> zipped_divide(Layout((8, 16), (16, 1)), (Layout(4, 1), Layout(8, 1)))
    Layout(((4, 8), (2, 2)),((16, 1), (64, 8)))
    """
    return _from_native(_n_zipped_divide(_native_of(layoutA), _tiler_of(layoutB)))


def tiled_divide(layoutA, layoutB):
    """Zipped divide with each rest mode a mode of its own.

    >>> tiled_divide(Layout((8, 16), (16, 1)), (Layout(4, 1), Layout(8, 1)))
    Layout(((4, 8), 2, 2),((16, 1), 64, 8))
    """
    return _from_native(_n_tiled_divide(_native_of(layoutA), _tiler_of(layoutB)))


def zipped_product(layoutA, layoutB):
    """Logical product with ``A`` in mode 0 and the repetition in mode 1.

    >>> zipped_product(Layout((2, 2), (1, 2)), (Layout(3, 1), Layout(2, 1)))
    Layout(((2, 2), (3, 2)),((1, 2), (2, 1)))
    """
    return _from_native(_n_zipped_product(_native_of(layoutA), _tiler_of(layoutB)))


def tiled_product(layoutA, layoutB):
    """Zipped product with each repetition mode a mode of its own.

    >>> tiled_product(Layout((2, 2), (1, 2)), (Layout(3, 1), Layout(2, 1)))
    Layout(((2, 2), 3, 2),((1, 2), 2, 1))
    """
    return _from_native(_n_tiled_product(_native_of(layoutA), _tiler_of(layoutB)))


def blocked_product(layoutA, layoutB):
    """CuTe's blocked product (not in legacy pycute, which builds it from ``logical_product``):
    ``A`` as the block, laid out as ``B`` says, mode by mode.

    >>> blocked_product(Layout((2, 5), (5, 1)), Layout((3, 4), (1, 3)))
    Layout(((2, 3), (5, 4)),((5, 10), (1, 30)))
    """
    return _from_native(_n_blocked_product(_native_of(layoutA), _native_of(layoutB)))


def raked_product(layoutA, layoutB):
    """CuTe's raked product (not in legacy pycute): ``A``'s elements interleaved with the
    repetition ``B``, mode by mode.

    >>> raked_product(Layout((2, 5), (5, 1)), Layout((3, 4), (1, 3)))
    Layout(((3, 2), (4, 5)),((10, 5), (30, 1)))
    """
    return _from_native(_n_raked_product(_native_of(layoutA), _native_of(layoutB)))


def slice_and_offset(crd: tuple, layout: Layout):
    """The sub-layout of the ``None`` entries of ``crd`` and the offset of its other entries.

    >>> slice_and_offset((None, 3), Layout((4, 8), (1, 4)))
    (Layout((4,),(1,)), 12)
    """
    return (Layout(slice_(crd, layout.shape), slice_(crd, layout.stride)),
            crd2idx(crd, layout.shape, layout.stride))
