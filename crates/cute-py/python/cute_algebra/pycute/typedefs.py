"""The paper's PyCuTe type vocabulary (its ``pycute.typedefs``): the scalar classes ``Integer``
(an int, or a type given to ``register_integer_type``) and ``StrideScalar`` (what a stride leaf
may be: an ``Integer``, an ``F2`` value or an ``ArithTuple``/scaled basis element), and the
hierarchical-tuple aliases ``HTuple``, ``Profile``, ``IntTuple``, ``Shape``, ``Coord`` (leaves
may be ``None``: a slice), ``Stride`` and ``Tiler`` (leaves may be layouts). The aliases are
hints for annotations, not checked at run time.

>>> import typing
>>> Integer in typing.get_args(Shape), type(None) in typing.get_args(Coord)
(True, True)
>>> isinstance(3, StrideScalar), isinstance(F2(3), StrideScalar), isinstance(3.0, StrideScalar)
(True, True, False)
"""

from abc import ABC
from typing import Any, Tuple, Union

from .atuple import F2, ArithTuple
from .typing import Integer

__all__ = ["StrideScalar", "register_integer_type", "HTuple", "Profile", "IntTuple", "Shape",
           "Coord", "Stride", "Tiler"]


class StrideScalar(ABC):
    """What a leaf of a stride may be: an ``Integer``, an ``F2`` value or an element of
    ``Z^S`` (``ArithTuple``, ``E(...)``).

    >>> issubclass(F2, StrideScalar), issubclass(str, StrideScalar)
    (True, False)
    """

    @classmethod
    def __subclasshook__(cls, c):
        if not isinstance(c, type):
            return False
        if issubclass(c, (Integer, F2, ArithTuple)):
            return True
        return NotImplemented


def register_integer_type(cls):
    """Makes ``cls`` an ``Integer`` (``isinstance(x, Integer)`` holds for its instances) and
    returns it, so that it can decorate a class.

    >>> class Opaque: pass
    >>> isinstance(Opaque(), Integer), isinstance(register_integer_type(Opaque)(), Integer)
    (False, True)
    """
    if not isinstance(cls, type):
        raise TypeError(f"register_integer_type: expected a class, got {type(cls).__name__}")
    Integer.register(cls)
    return cls


HTuple = Union[Any, Tuple["HTuple", ...]]
Profile = Union[None, Tuple["Profile", ...]]
IntTuple = Union[Integer, Tuple["IntTuple", ...]]
Shape = Union[Integer, Tuple["Shape", ...]]
Coord = Union[Integer, None, Tuple["Coord", ...]]
Stride = Union[StrideScalar, Tuple["Stride", ...]]
Tiler = Union[Integer, "Layout", Tuple["Tiler", ...]]


def _document(alias, text):
    alias.__doc__ = text
    return alias


_document(HTuple, """A hierarchical tuple: a leaf (anything not a tuple) or a tuple of HTuples.

>>> import typing; len(typing.get_args(HTuple))
2
""")
_document(Profile, """The hierarchy of an HTuple with its leaves ignored (``profile`` computes it).

>>> import typing; type(None) in typing.get_args(Profile)
True
""")
_document(IntTuple, """An HTuple of ``Integer`` leaves.

>>> import typing; Integer in typing.get_args(IntTuple)
True
""")
_document(Shape, """A layout's shape: an ``IntTuple`` of positive extents.

>>> import typing; Integer in typing.get_args(Shape), type(None) in typing.get_args(Shape)
(True, False)
""")
_document(Coord, """A coordinate: an ``IntTuple`` whose leaves may be ``None`` (a slice).

>>> import typing; type(None) in typing.get_args(Coord)
True
""")
_document(Stride, """A layout's stride: an HTuple of ``StrideScalar`` leaves.

>>> import typing; StrideScalar in typing.get_args(Stride)
True
""")
_document(Tiler, """A tiler: an HTuple whose leaves are ``Integer`` extents or layouts.

>>> import typing; [getattr(a, "__forward_arg__", a) for a in typing.get_args(Tiler)][1]
'Layout'
""")
