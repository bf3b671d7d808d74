"""Type stubs of cute_algebra.pycute.typedefs."""

from abc import ABC
from typing import Any, TypeVar, Union

from .typing import Integer as Integer

__all__ = ["StrideScalar", "register_integer_type", "HTuple", "Profile", "IntTuple", "Shape",
           "Coord", "Stride", "Tiler"]

_T = TypeVar("_T", bound=type)

class StrideScalar(ABC):
    @classmethod
    def __subclasshook__(cls, c: object) -> Any: ...

def register_integer_type(cls: _T) -> _T: ...

HTuple = Union[Any, tuple]
Profile = Union[Any, tuple]
IntTuple = Union[Integer, tuple]
Shape = Union[Integer, tuple]
Coord = Union[Integer, None, tuple]
Stride = Union[StrideScalar, tuple]
Tiler = Union[Integer, Any, tuple]
