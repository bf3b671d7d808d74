"""`Integer`: the abstract integer type of legacy pycute (``int`` and its subclasses, not ``bool``).

>>> from cute_algebra.pycute import Integer
>>> isinstance(3, Integer), isinstance(True, Integer), isinstance(3.0, Integer)
(True, False, False)
"""

from abc import ABC

__all__ = ["Integer"]


class Integer(ABC):
    """Matches ``int`` and its subclasses except ``bool``, and any type given to
    ``register_integer_type`` (the paper's PyCuTe's hook for integer-like types).

    >>> issubclass(int, Integer), issubclass(bool, Integer)
    (True, False)
    """

    @classmethod
    def __subclasshook__(cls, c):
        if c is bool or not isinstance(c, type):
            return False
        if issubclass(c, int) and not issubclass(c, bool):
            return True
        return NotImplemented  # the registered types decide
