"""Type stubs of cute_algebra.pycute.typing."""

from abc import ABC
from typing import Any

__all__ = ["Integer"]

class Integer(ABC):
    @classmethod
    def __subclasshook__(cls, c: object) -> Any: ...
