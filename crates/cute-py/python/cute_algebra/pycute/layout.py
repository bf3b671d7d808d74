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
from . import _sympy
from .atuple import F2 as _F2, ArithTuple as _ArithTuple, ScaledBasis as _ScaledBasis, basis_repr
from .htuple import ModeOpDecorator, get as _get, _path
from .int_tuple import _fail, crd2idx, has_none, is_int, is_tuple, prefix_product, product, slice_
from ._compose import (
    _compose_rank0, _compose_through_bases, _compose_with_coordinates, _coordinate_strided,
    _flat_strides,
    _needs_bases, _operand_error, _pad_tiler,
)

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
            try:
                n = _n_Layout(layout.shape, layout.stride)
            except TypeError:
                # strides of the paper's PyCuTe (ArithTuple, F2 values): the core's E and F2
                n = _n_Layout(layout.shape, _native_stride(layout.stride))
            layout._native = n
        return n
    if is_int(layout):
        return _native.Layout(layout, 1)
    raise TypeError(f"expected a pycute Layout, got {type(layout).__name__}")


def _native_stride(d):
    """A stride with the paper's stride scalars as the Rust core's: an ``F2`` value as its
    ``F2``, one scaled basis element ``v*E(path)`` (int ``v``) as ``v*E(path)``; a
    ``LayoutError`` for a sum of basis elements or an ``F2``-valued basis element, which the core
    has no stride for."""
    if type(d) is int:
        return d
    if isinstance(d, (tuple, list)):
        return tuple(_native_stride(x) for x in d)
    if isinstance(d, _F2):
        return _native.F2(d.value)
    if isinstance(d, _ArithTuple):
        rep = basis_repr(d)
        v, path = rep[0]
        if len(rep) == 1 and is_int(v):
            return v * _native.E(*path) if path else v
        raise _fail("Layout", "Unsupported", f"stride {d}: the Rust core's strides are ints, one "
                    "int-scaled basis element v*E(i,...) or F2 values, not a sum of basis "
                    "elements or an F2-valued one")
    return d


def _is_rank0(layout):
    """Whether ``layout`` is the rank-0 layout ``():()``: the function ``{0 -> 0}`` of size 1,
    which the core (no empty tuples) takes as ``1:0``."""
    return type(layout) is Layout and layout.shape == ()


def _rank_mismatch(op, a, b):
    # the paper's PyCuTe pairs the modes one to one (CuTe C++ pads the lower rank with 1:0)
    raise _fail(op, "ProfileMismatch",
                f"{a} and {b}: ranks differ ({len(a)} vs {len(b)}); give both the same rank")


def _expand_stride(shape, stride):
    """``stride`` with each scalar paired with a tuple of ``shape`` replaced by the compact
    column-major stride of that tuple from that base (the same object when there is none)."""
    if type(stride) is not tuple:
        return prefix_product(shape, stride) if type(shape) is tuple else stride
    if len(shape) != len(stride):
        return stride  # not congruent: the Rust core says so when the layout is used
    out = None
    for i, s in enumerate(shape):
        if type(s) is tuple:
            d = stride[i]
            e = _expand_stride(s, d)
            if e is not d:
                if out is None:
                    out = list(stride)
                out[i] = e
    return stride if out is None else tuple(out)


def _leaves(x):
    if type(x) is tuple:
        for y in x:
            yield from _leaves(y)
    else:
        yield x


def _zeros_like(s):
    return tuple(_zeros_like(x) for x in s) if type(s) is tuple else 0


def _py_stride(d):
    """A stride read from the Rust core with its ``E`` and ``F2`` leaves as the paper's values."""
    t = type(d)
    if t is int:
        return d
    if t is tuple:
        return tuple(_py_stride(x) for x in d)
    if t is _native.E:
        return _ScaledBasis(d.value, d.path)
    if t is _native.F2:
        return _F2(d.bits)
    return d


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
_n_rank = _native.rank


def _tiler_of(t):
    """A tiler for the Rust core: layouts converted, ints and None kept, tuples by mode. The int
    1 is legacy pycute's ``Layout(1)``, ``1:1`` (the core reads an int as CuTe's
    ``make_layout(n)``, ``1:0`` for 1)."""
    if type(t) is Layout:
        return _native_of(t)
    if t is None or is_int(t):
        return _native_of(Layout(1, 1)) if t == 1 else t
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
        if _stride is None:
            _stride = prefix_product(_shape)
        elif type(_shape) is tuple:
            # the paper's PyCuTe: a scalar stride of a tuple (sub)shape is the base of the
            # compact column-major stride there (legacy pycute kept such a stride as given,
            # not congruent)
            _stride = _expand_stride(_shape, _stride)
        self._stride = _stride
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
            d = self._stride = _py_stride(self._native.stride)
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

    def _offset_and_slice(self, crd):
        """The offset of the fixed entries of ``crd`` and the layout of its ``None`` entries.

        >>> Layout((4, 4), (4, 1))._offset_and_slice((1, None))
        (4, Layout((4,),(1,)))
        """
        return (crd2idx(crd, self.shape, self.stride),
                Layout(slice_(crd, self.shape), slice_(crd, self.stride)))

    def _coalesce(self):
        """``coalesce(self)`` (the paper's PyCuTe spells the method so).

        >>> Layout((2, 4), (1, 2))._coalesce()
        Layout(8,1)
        """
        return coalesce(self)

    def _mode_of(self, i):
        """Mode ``i`` (for ``get``): an ``IndexError`` past the rank."""
        if type(i) is not int:
            raise IndexError(i)
        return self[i]

    def _modes(self):
        """The top-level modes, as a tuple of layouts."""
        return tuple(self[i] for i in range(len(self)))

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
        >>> Layout((), ()).cosize()  # the rank-0 layout: the one index 0 at offset 0
        1
        """
        if self.shape == ():
            return 1
        return _native_of(self).cosize()

    def __str__(self):
        return f"{self.shape}:{self.stride}"

    def __repr__(self):
        return f"Layout({self.shape},{self.stride})"


_Layout = Layout
_sympy.LAYOUT[0] = Layout
_has_sympy = _sympy.has_sympy
_sym_compute = _sympy.compute


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


@ModeOpDecorator
def size(layout, *, mode=()):
    """The size of a layout or of a shape (of its mode ``mode``: ``size[i](L)``).

    >>> size(Layout((4, 8))), size((2, 3)), size[1](Layout((4, 8)))
    (32, 6, 8)
    """
    if mode:
        layout = _get(layout, mode=mode)
    if is_layout(layout):
        return layout.size()
    if hasattr(layout, "_layout_op"):
        layout = layout.layout  # a Tensor
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


def _at_mode(f, layout, mode, *rest):
    """``layout`` with its mode at the path ``mode`` replaced by ``f(that mode, *rest)``; a
    ``LayoutError`` of ``f`` when ``layout`` has no such mode."""
    path = _path(mode)
    if not path:
        return f(layout, *rest)
    modes = list(_promote(layout)._modes())
    i = path[0]
    if type(i) is not int or not -len(modes) <= i < len(modes):
        raise _fail(getattr(f, "__name__", "mode"), "ProfileMismatch",
                    f"{layout} has no mode {mode}")
    modes[i] = _at_mode(f, modes[i], path[1:], *rest)
    return make_layout(modes)


def _promote(x):
    """A layout from the paper's other spellings of one: an int ``n`` is ``n:1``, a tuple is
    its ``tiler_to_layout``."""
    if isinstance(x, LayoutBase):
        return x
    if is_int(x):
        return Layout(x, 1)
    if is_tuple(x):
        from .layout_fns import tiler_to_layout
        return tiler_to_layout(x)
    raise TypeError(f"expected a Layout, an int or a tuple, got {type(x).__name__}")


def _coalesce_mode(layout, profile):
    # the paper's PyCuTe: a None entry of the profile leaves its mode as it is
    return layout if profile is None else coalesce(layout, profile)


@ModeOpDecorator
def coalesce(layout, profile=None, *, mode=()):
    """The shortest layout with the same function (by mode for a tuple profile, whose ``None``
    entries leave their modes alone; of the mode ``mode`` only: ``coalesce[i](L)``).

    >>> coalesce(Layout((2, (1, 6)), (1, (6, 2))))
    Layout(12,1)
    >>> coalesce[1](Layout((4, (2, 3)), (1, (1, 2))))
    Layout((4, 6),(1, 1))
    """
    if type(layout) is not Layout and hasattr(layout, "_layout_op"):
        return layout._layout_op(coalesce, profile, mode=mode)  # a Tensor: its layout
    if mode:
        return _at_mode(_coalesce_plain, layout, mode, profile)
    if profile is not None and is_tuple(profile):
        return _by_mode("coalesce", _coalesce_mode, layout, profile)
    if _has_sympy(layout):
        # the paper's PyCuTe's form: a static extent is not folded into a symbolic product
        return _sym_compute("coalesce", lambda s: s.layout(layout).coalesce(static_apart=True))
    if _is_rank0(layout):
        return Layout(1, 0)  # legacy pycute's: the one index 0 at offset 0
    return _from_native(_n_coalesce(_native_of(layout)))


def filter(layout, profile=None):
    """Coalesce after dropping stride-0 and size-1 modes (by mode for a tuple profile).

    >>> filter(Layout((4, 2, 3), (1, 0, 4)))
    Layout(12,1)
    """
    if is_tuple(profile):
        return _by_mode("filter", filter, layout, profile)
    if _is_rank0(layout):
        return Layout(1, 0)  # legacy pycute's: no mode kept
    return _from_native(_n_filter_(_native_of(layout)))


@ModeOpDecorator
def composition(layoutA, layoutB, *, mode=()):
    """``A o B``: ``R(c) = A(B(c))``; ``B`` may be a layout, an int, ``None`` or a tuple of
    those (by mode); ``composition[i](A, B)`` composes the mode ``i`` of ``A`` only.

    >>> composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))
    Layout(((2, 2), 3),((24, 2), 8))
    """
    if mode:
        return _at_mode(_composition_plain, layoutA, mode, layoutB)
    if type(layoutA) is not Layout and not is_int(layoutA):
        layoutA = _promote(layoutA)
    if layoutB is None:
        return layoutA
    if type(layoutB) is tuple:  # noqa: E721
        # a shorter tiler leaves A's remaining modes as they are, at every level
        if type(layoutA) is Layout:
            layoutB = _pad_tiler(layoutA.shape, layoutB)
        elif not is_int(layoutA) and len(layoutB) < len(layoutA):
            layoutB = layoutB + (None,) * (len(layoutA) - len(layoutB))
    if _has_sympy(layoutA, layoutB):
        return _sym_compute("composition",
                            lambda s: s.layout(layoutA).composition(s.layout(layoutB)))
    if _is_rank0(layoutA):
        return _compose_rank0(layoutA, layoutB)
    try:
        nA = _native_of(layoutA)
    except LayoutError as e:
        if _needs_bases(layoutA.stride):
            return _compose_through_bases(layoutA, layoutB)
        raise _operand_error("composition", layoutA, layoutB, "left", e) from None
    try:
        tiler = _tiler_of(layoutB)
    except LayoutError as e:
        if isinstance(layoutB, Layout) and _coordinate_strided(layoutB):
            return _compose_with_coordinates(layoutA, layoutB)
        if _is_rank0(layoutB):
            # the rank-0 B: the one index 0, sent to A(0) = 0, on B's (empty) shape
            return Layout((), ())
        raise _operand_error("composition", layoutA, layoutB, "right", e) from None
    r = _n_composition(nA, tiler)
    tb = type(layoutB)
    if tb is Layout:
        s = layoutB._shape  # None while a result's shape is still in its Rust layout
        one = s == 1 if type(s) is int else s is None and r.size() == 1
    else:
        one = tb is int and layoutB == 1
    if one:
        # one element (the result has B's size): the offset of coordinate 0, whatever the
        # stride; the paper's PyCuTe writes it 1:0, as coalesce does, for an int-shaped B of
        # size 1 (a tuple-shaped B keeps the core's strides, as legacy pycute's do:
        # composition((8,1):(4,2), (1,):(1,)) is (1,):(2,))
        return Layout(r.shape, _zeros_like(r.shape))
    return _from_native(r)


def complement(layout, max_idx=None):
    """The layout of the offsets that ``layout`` does not reach, ordered: in ``[0, max_idx)``
    (at least the span of ``layout``), or without ``max_idx`` the paper's complement on the
    extended domain, whose last mode steps past the span (on ``[0, size)`` it is legacy pycute's
    ``complement(layout)``, which takes ``max_idx=1``).

    >>> complement(Layout(4, 2)), complement(Layout(4, 2), 1), complement(Layout(4, 2), 24)
    (Layout((2, 1),(1, 8)), Layout(2,1), Layout((2, 3),(1, 8)))
    """
    if _has_sympy(layout, max_idx):
        return _sym_compute("complement", lambda s: s.layout(layout).complement(
            None if max_idx is None else s.layout(max_idx)))
    if _is_rank0(layout):
        layout = Layout(1, 0)  # its function: complement(():(), n) is n:1, legacy's
    return _from_native(_n_complement(_native_of(layout), max_idx))


def _symbolic(op, a, b):
    """``op(a, b)`` of the symbolic core, for operands with sympy leaves (a divide's ``b`` may be
    a tuple tiler, a product's a layout)."""
    if op.endswith("divide"):
        return _sym_compute(op, lambda s: getattr(s.layout(a), op)(s.tiler(b)))
    return _sym_compute(op, lambda s: getattr(s.layout(a), op)(s.layout(b)))


def right_inverse(layout):
    """``R`` with ``layout(R(i)) == i`` on the largest prefix ``[0, size(R))``.

    >>> right_inverse(Layout((4, 8), (8, 1)))
    Layout((8, 4),(4, 1))
    """
    if layout is None:
        return None
    if _has_sympy(layout):
        # the largest inverse for every value of the unknowns at once (the paper's PyCuTe's)
        return _sym_compute("right_inverse", lambda s: s.layout(layout).right_inverse(
            static_apart=True, uniform=True))
    if _is_rank0(layout):
        return Layout(1, 0)  # legacy pycute's; L(R(0)) = L(0) = 0
    return _from_native(_n_right_inverse(_native_of(layout)))


def left_inverse(layout):
    """``R`` with ``R(layout(i)) == i`` for every ``i < size(layout)`` (an injective layout).

    >>> left_inverse(Layout((4, 8), (8, 1)))
    Layout((8, 4),(4, 1))
    """
    if layout is None:
        return None
    if _has_sympy(layout):
        return _sym_compute("left_inverse", lambda s: s.layout(layout).left_inverse())
    if _is_rank0(layout):
        return Layout(1, 0)  # legacy pycute's; R(L(0)) = R(0) = 0
    return _from_native(_n_left_inverse(_native_of(layout)))


def _axis_tiler(tiler):
    """A layout tiler whose top-level mode ``k`` steps along the axis ``E(k)`` only (as
    ``tiler_to_layout`` makes them) as the tuple of integer layouts it stands for; None for any
    other tiler."""
    if type(tiler) is not Layout:
        return None
    d = tiler.stride
    if not isinstance(d, (tuple, _ArithTuple)) or isinstance(d, _ArithTuple):
        d, s = (d,), (tiler.shape,)
    else:
        s = tiler.shape
    modes = []
    for k, (sk, dk) in enumerate(zip(s, d)):
        ints = _on_axis(dk, k)
        if ints is None:
            return None
        modes.append(Layout(sk, ints))
    return tuple(modes)


def _on_axis(d, k):
    if type(d) is tuple:
        out = tuple(_on_axis(x, k) for x in d)
        return None if None in out else out
    if is_int(d):
        return d if d == 0 else None
    if isinstance(d, _ArithTuple):
        rep = basis_repr(d)
        v, path = rep[0]
        if len(rep) == 1 and path == (k,) and is_int(v):
            return v
    return None


def _has_none(tiler):
    """Whether the tuple ``tiler`` has a None mode (at any depth)."""
    return is_tuple(tiler) and any(t is None or _has_none(t) for t in tiler)


def _by_coordinates(b):
    """Whether ``b`` is a layout with coordinate strides (see `_divide_by_coordinates`)."""
    return type(b) is Layout and any(isinstance(d, _ArithTuple) for d in _leaves(b.stride))


def _divide_by_coordinates(a, b):
    """``A / B`` for a layout ``B`` with coordinate strides (points of ``A``'s domain, which the
    core's divides do not take): ``A o (B, complement(B, shape(A)))``, the tile and the rest; the
    core's error again when ``B`` is not such a layout."""
    if not _by_coordinates(b):
        return _from_native(_n_logical_divide(_native_of(a), _tiler_of(b)))  # raises its error
    nb = _native_of(b)
    rest = _n_complement(nb, _promote(a).shape)
    return _from_native(_n_composition(_native_of(a), _native.make_layout(nb, rest)))


def _identity_for(op, tiler):
    """The layout a ``None`` first operand of ``op`` stands for: the identity on what the tiler
    reaches (``cosize(B):1`` for a layout, ``tiler_to_layout`` of a tuple)."""
    if isinstance(tiler, Layout):
        return Layout(tiler.cosize(), 1)
    if is_int(tiler):
        return Layout(tiler, 1)
    if is_tuple(tiler):
        from .layout_fns import tiler_to_layout
        return tiler_to_layout(tuple(size(t) if isinstance(t, Layout) else t for t in tiler))
    raise TypeError(f"{op}: expected a tiler (a Layout, an int or a tuple), got "
                    f"{type(tiler).__name__}")


def _identity_divisible(tiler):
    """Whether ``tiler`` is a layout with int strides, or a tuple of ints and such layouts."""
    def ok(t):
        return is_int(t) or (isinstance(t, Layout)
                             and all(is_int(d) for d in _flat_strides(t.stride)))
    return ok(tiler) and not is_int(tiler) or (is_tuple(tiler) and all(ok(t) for t in tiler))


def _scaled(layout, e):
    """``layout`` with every stride ``d`` replaced by ``d*e`` (``e`` a basis element)."""
    def scale(d):
        return tuple(scale(x) for x in d) if is_tuple(d) else (d * e if d != 0 else 0)
    return Layout(layout.shape, scale(layout.stride))


def _identity_divide(tiler, zipped):
    """``None / B``, the identity divided by ``B``: ``(B, complement(B))`` with the paper's
    complement on the extended domain (its trailing size-1 mode steps past the span of ``B``);
    for a tuple ``B``, mode ``i`` is that of ``B[i]`` with its strides along ``E(i)``."""
    if isinstance(tiler, Layout):
        return make_layout(tiler, complement(tiler))
    modes = []
    for i, t in enumerate(tiler):
        t = Layout(t, 1) if is_int(t) else t
        e = _ScaledBasis(1, (i,))
        modes.append((_scaled(t, e), _scaled(complement(t), e)))
    if zipped:
        return make_layout(make_layout([m[0] for m in modes]), make_layout([m[1] for m in modes]))
    return make_layout([make_layout(a, b) for a, b in modes])


@ModeOpDecorator
def logical_divide(layoutA, layoutB, *, mode=()):
    """``A / B``: each mode split into the tile ``B`` and the rest (``logical_divide[i](A, B)``:
    the mode ``i`` of ``A`` only; ``A`` may be an int, a tuple (its ``tiler_to_layout``) or
    ``None``, the identity on what ``B`` reaches).

    >>> logical_divide(Layout(16, 1), Layout(4, 2))
    Layout((4, (2, 2)),(2, (1, 8)))
    >>> logical_divide(None, Layout(2, 1))
    Layout((2, 1),(1, 2))
    """
    if type(layoutA) is not Layout and hasattr(layoutA, "_layout_op"):
        return layoutA._layout_op(logical_divide, layoutB, mode=mode)  # a Tensor: its layout
    if mode:
        return _at_mode(_logical_divide_plain, layoutA, mode, layoutB)
    if layoutA is None and _identity_divisible(layoutB):
        return _identity_divide(layoutB, zipped=False)
    if layoutA is None:
        layoutA = _identity_for("logical_divide", layoutB)
    elif type(layoutA) is not Layout and not is_int(layoutA):
        layoutA = _promote(layoutA)
    if layoutB is None:
        return layoutA
    if _has_sympy(layoutA, layoutB):
        return _symbolic("logical_divide", layoutA, layoutB)
    try:
        return _from_native(_n_logical_divide(_native_of(layoutA), _tiler_of(layoutB)))
    except LayoutError:
        axes = _axis_tiler(layoutB)
        if axes is None:
            return _divide_by_coordinates(layoutA, layoutB)
    # a tiler along the axes of A's modes (coordinate strides, which the core does not divide
    # by): the paper's logical_divide by such a layout is the zipped divide by its modes
    return zipped_divide(layoutA, axes)


@ModeOpDecorator
def logical_product(layoutA, layoutB, *, mode=()):
    """``A x B``: ``A`` repeated as ``B`` says (for an int ``B``: ``B:1`` -- legacy pycute
    divides there); ``logical_product[i](A, B)`` reproduces the mode ``i`` of ``A`` only; ``A``
    may be an int or a tuple (its ``tiler_to_layout``).

    >>> logical_product(Layout((2, 2), (4, 1)), Layout(6, 1))
    Layout(((2, 2), (2, 3)),((4, 1), (2, 8)))
    """
    if mode:
        return _at_mode(_logical_product_plain, layoutA, mode, layoutB)
    if type(layoutA) is not Layout and not is_int(layoutA):
        layoutA = _promote(layoutA)
    if layoutB is None:
        return layoutA
    if _has_sympy(layoutA, layoutB):
        return _symbolic("logical_product", layoutA, layoutB)
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


@ModeOpDecorator
def zipped_divide(layoutA, layoutB, *, mode=()):
    """Logical divide with the tiles gathered in mode 0 and the rest in mode 1
    (``zipped_divide[i](A, B)``: of the mode ``i`` of ``A`` only).

    >>> zipped_divide(Layout((8, 16), (16, 1)), (Layout(4, 1), Layout(8, 1)))
    Layout(((4, 8), (2, 2)),((16, 1), (64, 8)))
    """
    if type(layoutA) is not Layout and hasattr(layoutA, "_layout_op"):
        return layoutA._layout_op(zipped_divide, layoutB, mode=mode)  # a Tensor: its layout
    if mode:
        return _at_mode(_zipped_divide_plain, layoutA, mode, layoutB)
    if layoutA is None and _identity_divisible(layoutB):
        return _identity_divide(layoutB, zipped=True)
    if layoutA is None:
        layoutA = _identity_for("zipped_divide", layoutB)
    elif type(layoutA) is not Layout and not is_int(layoutA):
        layoutA = _promote(layoutA)
    if _has_none(layoutB):
        # legacy pycute: a None mode of the tiler is the tile 1:0 and the whole mode the rest
        return _unzip_none("zipped_divide", logical_divide, layoutA, layoutB)
    if _has_sympy(layoutA, layoutB):
        return _symbolic("zipped_divide", layoutA, layoutB)
    try:
        return _from_native(_n_zipped_divide(_native_of(layoutA), _tiler_of(layoutB)))
    except LayoutError:
        axes = _axis_tiler(layoutB)
        if axes is None:
            if not _by_coordinates(layoutB):
                raise
            return _divide_by_coordinates(layoutA, layoutB)  # (tile, rest): zipped already
    # a tiler along the axes of A's modes: the zipped divide by the tuple of its modes
    return _from_native(_n_zipped_divide(_native_of(layoutA), _tiler_of(axes)))


def _unzip_none(op, splitter, layoutA, layoutB):
    """``op`` by a tuple tiler with ``None`` modes, legacy pycute's way: `hier_unzip` of
    ``splitter`` (a ``None`` mode is the tile ``1:0`` and the whole mode the rest); a refusal of a
    mode is ``op``'s, naming the operands."""
    if type(layoutA) is not Layout:
        layoutA = _promote(layoutA)
    try:
        return hier_unzip(splitter, layoutA, layoutB)
    except LayoutError as e:
        if getattr(e, "op", None) == op:
            raise
        raise _fail(op, getattr(e, "category", "Unsupported"),
                    f"{layoutA}, {layoutB}: {e}") from None


def tiled_divide(layoutA, layoutB):
    """Zipped divide with each rest mode a mode of its own.

    >>> tiled_divide(Layout((8, 16), (16, 1)), (Layout(4, 1), Layout(8, 1)))
    Layout(((4, 8), 2, 2),((16, 1), 64, 8))
    """
    if _has_none(layoutB):
        # legacy pycute: the zipped divide (a None mode: tile 1:0), its rest modes spread out
        if layoutA is None or (type(layoutA) is not Layout and not is_int(layoutA)):
            z = zipped_divide(layoutA, layoutB)
        else:
            z = _unzip_none("tiled_divide", logical_divide, layoutA, layoutB)
        return make_layout([z[0]] + [z[1][i] for i in range(len(z[1]))])
    if _has_sympy(layoutA, layoutB):
        return _symbolic("tiled_divide", layoutA, layoutB)
    return _from_native(_n_tiled_divide(_native_of(layoutA), _tiler_of(layoutB)))


def zipped_product(layoutA, layoutB):
    """Logical product with ``A`` in mode 0 and the repetition in mode 1.

    >>> zipped_product(Layout((2, 2), (1, 2)), (Layout(3, 1), Layout(2, 1)))
    Layout(((2, 2), (3, 2)),((1, 2), (2, 1)))
    >>> zipped_product(Layout((2, 2)), (Layout(2), None))  # a None mode: tile 1:0, the mode rest
    Layout(((2, 1), (2, 2)),((1, 0), (2, 2)))
    """
    if _has_none(layoutB):
        # legacy pycute (as zipped_divide): a None mode of the tiler is the tile 1:0 and the
        # whole mode the rest
        return _unzip_none("zipped_product", logical_product, layoutA, layoutB)
    if _has_sympy(layoutA, layoutB):
        return _symbolic("zipped_product", layoutA, layoutB)
    return _from_native(_n_zipped_product(_native_of(layoutA), _tiler_of(layoutB)))


def tiled_product(layoutA, layoutB):
    """Zipped product with each repetition mode a mode of its own.

    >>> tiled_product(Layout((2, 2), (1, 2)), (Layout(3, 1), Layout(2, 1)))
    Layout(((2, 2), 3, 2),((1, 2), 2, 1))
    """
    if _has_none(layoutB):
        # legacy pycute: the zipped product (a None mode: tile 1:0), its rest modes spread out
        z = _unzip_none("tiled_product", logical_product, layoutA, layoutB)
        return make_layout([z[0]] + [z[1][i] for i in range(len(z[1]))])
    if _has_sympy(layoutA, layoutB):
        return _symbolic("tiled_product", layoutA, layoutB)
    return _from_native(_n_tiled_product(_native_of(layoutA), _tiler_of(layoutB)))


def blocked_product(layoutA, layoutB):
    """CuTe's blocked product (not in legacy pycute, which builds it from ``logical_product``):
    ``A`` as the block, laid out as ``B`` says, mode by mode: ``R((a_k, b_k)_k) = A(a) +
    (A* o B)(b)`` for operands of one rank (an int-shaped layout is one mode: at rank 1 with an
    int-shaped operand the one mode is ``(A, A* o B)``).

    >>> blocked_product(Layout((2, 5), (5, 1)), Layout((3, 4), (1, 3)))
    Layout(((2, 3), (5, 4)),((5, 10), (1, 30)))
    >>> blocked_product(Layout((4,), (1,)), Layout(2, 1))
    Layout((((4,), 2),),(((1,), 4),))
    """
    return _zip_product("blocked_product", _n_blocked_product, layoutA, layoutB, False)


def raked_product(layoutA, layoutB):
    """CuTe's raked product (not in legacy pycute): ``A``'s elements interleaved with the
    repetition ``B``, mode by mode (the modes of `blocked_product` each in reverse order).

    >>> raked_product(Layout((2, 5), (5, 1)), Layout((3, 4), (1, 3)))
    Layout(((3, 2), (4, 5)),((10, 5), (30, 1)))
    >>> raked_product(Layout((3,), (2,)), Layout(4, 1))
    Layout((((2, 2), (3,)),),(((1, 6), (2,)),))
    """
    return _zip_product("raked_product", _n_raked_product, layoutA, layoutB, True)


def _zip_product(op, core, layoutA, layoutB, raked):
    """`blocked_product` (``raked``: `raked_product`): the paper's PyCuTe's, which refuses
    operands of different ranks (C++ pads the lower rank with ``1:0``)."""
    if _has_sympy(layoutA, layoutB):
        if len(layoutA) != len(layoutB):
            _rank_mismatch(op, layoutA, layoutB)
        return _symbolic(op, layoutA, layoutB)
    na, nb = _native_of(layoutA), _native_of(layoutB)
    rank = _n_rank(na)
    if rank != _n_rank(nb):
        _rank_mismatch(op, layoutA, layoutB)
    if rank == 1 and (is_int(na.shape) or is_int(nb.shape)):
        # one mode each, and one of them an int-shaped layout, which is its own one mode: the
        # mode of the result is (A, A* o B) whole, of any depths (the paper's definition zipped
        # by mode, and legacy pycute's blocked product from its logical_product); C++'s zip
        # pairs a tuple's modes with an int
        try:
            p = _from_native(_n_logical_product(na, nb))
        except LayoutError as e:
            raise _fail(op, getattr(e, "category", "Unsupported"),
                        f"{layoutA}, {layoutB}: {e}") from None
        shape, stride = p.shape, p.stride
        if raked:
            shape, stride = (shape[1], shape[0]), (stride[1], stride[0])
        return Layout((shape,), (stride,))
    return _from_native(core(na, nb))


def slice_and_offset(crd: tuple, layout: Layout):
    """The sub-layout of the ``None`` entries of ``crd`` and the offset of its other entries.

    >>> slice_and_offset((None, 3), Layout((4, 8), (1, 4)))
    (Layout((4,),(1,)), 12)
    """
    return (Layout(slice_(crd, layout.shape), slice_(crd, layout.stride)),
            crd2idx(crd, layout.shape, layout.stride))


def _coalesce_plain(layout, profile=None):
    return coalesce(layout, profile)


def _composition_plain(a, b):
    return composition(a, b)


def _logical_divide_plain(a, b):
    return logical_divide(a, b)


def _zipped_divide_plain(a, b):
    return zipped_divide(a, b)


def _logical_product_plain(a, b):
    return logical_product(a, b)


_coalesce_plain.__name__ = "coalesce"
_composition_plain.__name__ = "composition"
_logical_divide_plain.__name__ = "logical_divide"
_zipped_divide_plain.__name__ = "zipped_divide"
_logical_product_plain.__name__ = "logical_product"
