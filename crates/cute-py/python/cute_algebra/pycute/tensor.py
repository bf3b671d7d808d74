"""The paper's PyCuTe tensors: a ``Tensor`` is an accessor (``Ptr`` into typed memory, an owning
``Array``, or an ``ImplicitAccessor`` that returns its offsets) and a layout; ``T[c]`` is
``accessor[layout(c)]``, and a coordinate with ``None`` (or ``:``) entries is the sub-tensor of
those modes, sharing the memory.

>>> import ctypes
>>> from cute_algebra.pycute import Layout, make_tensor, identity_tensor
>>> T = make_tensor(Layout((4, 4), (4, 1)), dtype=ctypes.c_int)
>>> T[1, 2] = 42; T[1, 2], T[1, None].layout, T[1, None][2]
(42, Layout((4,),(1,)), 42)
>>> identity_tensor((3, 4))[2, 1] == (2, 1)
True
"""

import ctypes
from abc import ABC, abstractmethod

from .atuple import E
from .int_tuple import _fail, is_int, is_tuple
from .layout import Layout, LayoutBase

__all__ = ["Accessor", "MutableAccessor", "Ptr", "Array", "ImplicitAccessor", "Tensor",
           "make_tensor", "identity_tensor", "is_tensor"]

# array.array type codes -> ctypes types of the same size and kind
_TYPECODES = {
    "b": ctypes.c_byte, "B": ctypes.c_ubyte, "u": ctypes.c_wchar, "h": ctypes.c_short,
    "H": ctypes.c_ushort, "i": ctypes.c_int, "I": ctypes.c_uint, "l": ctypes.c_long,
    "L": ctypes.c_ulong, "q": ctypes.c_longlong, "Q": ctypes.c_ulonglong, "f": ctypes.c_float,
    "d": ctypes.c_double,
}


def _storage_of(obj):
    """(address, ctypes type) of an object's first element: an ``array.array`` or anything with
    a NumPy-style ``ctypes`` interface; None when it has no addressable storage."""
    info = getattr(obj, "buffer_info", None)
    code = getattr(obj, "typecode", None)
    if callable(info) and code in _TYPECODES:
        return info()[0], _TYPECODES[code]
    iface = getattr(obj, "__array_interface__", None)
    if iface is not None and hasattr(obj, "dtype"):
        import numpy
        return iface["data"][0], numpy.ctypeslib.as_ctypes_type(obj.dtype)
    return None


class Accessor(ABC):
    """What a tensor reads through: ``acc[offset]`` is the element at ``offset`` and ``acc + k``
    the accessor whose offset 0 is this one's ``k`` (the paper's PyCuTe names).

    >>> isinstance(ImplicitAccessor(0), Accessor), isinstance(Array(1), MutableAccessor)
    (True, True)
    """

    @abstractmethod
    def __getitem__(self, offset):
        """The element at ``offset``."""

    @abstractmethod
    def __add__(self, k):
        """This accessor moved by ``k`` elements."""


class MutableAccessor(Accessor):
    """An accessor that is also written through: ``acc[offset] = value``.

    >>> a = Array(2); a[1] = 3.0; a[1]
    3.0
    """

    @abstractmethod
    def __setitem__(self, offset, value):
        """Stores ``value`` at ``offset``."""


class Ptr(MutableAccessor):
    """A typed pointer: ``p[i]`` reads (and assigns) the ``i``-th element of type ``dtype`` from
    ``address``; ``p + k`` steps ``k`` elements. Made from an address (with ``dtype``) or from an
    object with storage (``array.array``, a NumPy array), whose type it takes and which it keeps
    alive (``owner``); ``base`` is the object whose storage it points into. Equal when the
    address and the type are.

    >>> import array, ctypes
    >>> data = array.array('i', [0, 1, 2, 3])
    >>> p = Ptr(data); (p + 2)[0], p.dtype is ctypes.c_int, (p + 2).base is data
    (2, True, True)
    """

    def __init__(self, obj, dtype=None, *, owner=None, base=None):
        if is_int(obj):
            if dtype is None:
                raise ValueError("Ptr: a bare address needs its dtype (a ctypes type)")
            address = obj
        else:
            found = _storage_of(obj)
            if found is None:
                raise TypeError(f"Ptr: {type(obj).__name__} has no addressable storage "
                                "(give an address and a dtype, an array.array or a NumPy array)")
            address, own = found
            dtype = dtype or own
            owner = obj if owner is None else owner
            base = obj if base is None else base
        self.address = address
        self.dtype = dtype
        self.owner = owner
        self.base = self if base is None else base
        self.ptr = ctypes.cast(ctypes.c_void_p(address), ctypes.POINTER(dtype))

    def __getitem__(self, i):
        return self.ptr[i]

    def __setitem__(self, i, value):
        self.ptr[i] = value

    def __add__(self, k):
        if not is_int(k):
            return NotImplemented
        return Ptr(self.address + k * ctypes.sizeof(self.dtype), self.dtype, owner=self.owner,
                   base=self.base)

    def __eq__(self, other):
        if not isinstance(other, Ptr):
            return False
        return self.address == other.address and self.dtype is other.dtype

    def __hash__(self):
        return hash((self.address, self.dtype))

    def __repr__(self):
        return f"Ptr({self.address:#018x}, {self.dtype.__name__})"


_MAX_ARRAY_BYTES = 1 << 30  # the pure-Python tensors here are for exposition, not for big data


class Array(Ptr):
    """``n`` elements of ``dtype`` (a ctypes type), zeroed, owned by the pointer itself.

    >>> import ctypes
    >>> a = Array(4, dtype=ctypes.c_int); a[2] = 7; (a + 2)[0], (a + 1).base is a
    (7, True)
    """

    def __init__(self, n, dtype=ctypes.c_double):
        if not is_int(n) or n < 0:
            raise _fail("Array", "OutOfRange", f"size {n} is not a non-negative int")
        if n * ctypes.sizeof(dtype) > _MAX_ARRAY_BYTES:
            raise _fail("Array", "OutOfRange",
                        f"{n} elements of {ctypes.sizeof(dtype)} bytes exceed the "
                        f"{_MAX_ARRAY_BYTES >> 30} GiB that a host Array of this module holds")
        storage = (dtype * max(n, 1))()
        super().__init__(ctypes.addressof(storage), dtype, owner=storage)
        self.base = self
        self.size = n


class ImplicitAccessor(Accessor):
    """An accessor that returns its offsets (from ``origin``) instead of reading memory: the
    accessor of an identity tensor.

    >>> ImplicitAccessor(3)[4], (ImplicitAccessor(0) + 3)[2]
    (7, 5)
    """

    def __init__(self, origin=0):
        self.origin = origin

    def __getitem__(self, offset):
        return self.origin + offset

    def __add__(self, k):
        return ImplicitAccessor(self.origin + k)

    def __eq__(self, other):
        return isinstance(other, ImplicitAccessor) and self.origin == other.origin

    def __hash__(self):
        return hash(("ImplicitAccessor", self.origin))

    def __repr__(self):
        return f"ImplicitAccessor({self.origin!r})"


def _coordinate(key):
    """A subscript as a coordinate: ``:`` (``slice(None)``) is ``None``, tuples recursively."""
    if isinstance(key, slice):
        if key != slice(None):
            raise _fail("Tensor", "Unsupported", f"subscript {key}: only `:` selects a mode")
        return None
    if isinstance(key, tuple):
        return tuple(_coordinate(k) for k in key)
    return key


def _has_none(c):
    if is_tuple(c):
        return any(_has_none(x) for x in c)
    return c is None


class Tensor:
    """An accessor and a layout: ``T[c] == T.accessor[T.layout(c)]``; ``T[c]`` with ``None`` or
    ``:`` entries is the sub-tensor of those modes (a view of the same memory). The layout
    functions of this module (``coalesce``, ``logical_divide``, ``zipped_divide``, ``size``,
    ``rank``, ...) take a tensor and act on its layout, keeping the accessor.

    >>> import ctypes
    >>> T = Tensor(Array(8, ctypes.c_int), Layout((2, 4))); T[1, 3] = 5; T[7]
    5
    """

    def __init__(self, accessor, layout):
        if not isinstance(layout, LayoutBase):
            raise TypeError(f"Tensor: expected a Layout, got {type(layout).__name__}")
        self.accessor = accessor
        self.layout = layout

    def _offset_and_rest(self, key):
        crd = _coordinate(key)
        if _has_none(crd):
            offset, sub = self.layout._offset_and_slice(crd)
            return offset, sub
        return self.layout(crd), None

    def __getitem__(self, key):
        offset, sub = self._offset_and_rest(key)
        if sub is None:
            return self.accessor[offset]
        return Tensor(self.accessor + offset, sub)

    def __setitem__(self, key, value):
        offset, sub = self._offset_and_rest(key)
        if sub is not None:
            raise _fail("Tensor", "ProfileMismatch",
                        f"assignment at {key}: a complete coordinate is needed, not a slice")
        self.accessor[offset] = value

    def __call__(self, *args):
        return self[args[0] if len(args) == 1 else args]

    def __eq__(self, other):
        return (isinstance(other, Tensor) and self.accessor == other.accessor
                and self.layout == other.layout)

    def __hash__(self):
        return hash((self.accessor, self.layout))

    def __len__(self):
        return len(self.layout)

    def _mode_of(self, i):
        """The tensor of the layout's mode ``i``, with the same accessor (``get[i](T)``, and so
        ``size[i](T)``, ``shape[i](T)``, ...)."""
        return Tensor(self.accessor, self.layout._mode_of(i))

    def _layout_op(self, f, *args, **kwargs):
        """The tensor of ``f`` applied to the layout, with the same accessor."""
        return Tensor(self.accessor, f(self.layout, *args, **kwargs))

    def __repr__(self):
        return f"Tensor({self.accessor!r}, {self.layout!r})"


def is_tensor(x):
    """True for a ``Tensor``.

    >>> is_tensor(make_tensor(4)), is_tensor(Layout(4))
    (True, False)
    """
    return isinstance(x, Tensor)


def make_tensor(layout, dtype=ctypes.c_double):
    """A tensor owning zeroed memory for the layout (an int or a tuple is the compact
    column-major layout of that shape): as many elements as one past its largest offset.

    >>> make_tensor((3, 5)).layout
    Layout((3, 5),(1, 3))
    """
    if not isinstance(layout, Layout):
        if is_int(layout) or is_tuple(layout):
            layout = Layout(layout)
        else:
            raise TypeError(f"make_tensor: expected a Layout, an int or a tuple, got "
                            f"{type(layout).__name__}")
    n = layout.cosize() if layout.size() > 0 else 0
    return Tensor(Array(n, dtype), layout)


def _identity_strides(shape, path):
    if is_tuple(shape):
        return tuple(_identity_strides(s, path + (k,)) for k, s in enumerate(shape))
    return E(*path) if path else 1


def identity_tensor(shape):
    """The tensor whose value at each coordinate is that coordinate (an ``ArithTuple``), for
    predication and partitioning of coordinates.

    >>> I = identity_tensor((2, (3, 4))); I[1, (2, 3)] == (1, (2, 3))
    True
    """
    if isinstance(shape, LayoutBase):
        shape = shape.shape
    if not (is_int(shape) or is_tuple(shape)):
        raise TypeError(f"identity_tensor: expected a shape, got {type(shape).__name__}")
    return Tensor(ImplicitAccessor(0), Layout(shape, _identity_strides(shape, ())))

