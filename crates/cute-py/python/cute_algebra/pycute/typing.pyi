"""Type stubs of cute_algebra.pycute.typing."""

from abc import ABC

__all__ = ["Integer"]

class Integer(ABC):
    @classmethod
    def __subclasshook__(cls, c: object) -> bool: ...
