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
from typing import Any, Union

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


HTuple = Union[Any, tuple]
Profile = Union[Any, tuple]
IntTuple = Union[Integer, tuple]
Shape = Union[Integer, tuple]
Coord = Union[Integer, None, tuple]
Stride = Union[StrideScalar, tuple]
Tiler = Union[Integer, "Layout", tuple]
