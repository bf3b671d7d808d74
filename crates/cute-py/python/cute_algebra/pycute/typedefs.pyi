"""Type stubs of cute_algebra.pycute.typedefs."""

from abc import ABC
from typing import Any, Tuple, TypeVar, Union

from .typing import Integer as Integer

__all__ = ["StrideScalar", "register_integer_type", "HTuple", "Profile", "IntTuple", "Shape",
           "Coord", "Stride", "Tiler"]

_T = TypeVar("_T", bound=type)

class StrideScalar(ABC):
    @classmethod
    def __subclasshook__(cls, c: object) -> Any: ...

def register_integer_type(cls: _T) -> _T: ...

HTuple = Union[Any, Tuple["HTuple", ...]]
Profile = Union[None, Tuple["Profile", ...]]
IntTuple = Union[Integer, Tuple["IntTuple", ...]]
Shape = Union[Integer, Tuple["Shape", ...]]
Coord = Union[Integer, None, Tuple["Coord", ...]]
Stride = Union[StrideScalar, Tuple["Stride", ...]]
Tiler = Union[Integer, Any, Tuple["Tiler", ...]]
