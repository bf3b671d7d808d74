"""`Integer`: the abstract integer type of legacy pycute (``int`` and its subclasses, not ``bool``),
and, as in the paper's PyCuTe, sympy expressions (symbolic extents) other than non-integer numbers.

>>> from cute_algebra.pycute import Integer
>>> isinstance(3, Integer), isinstance(True, Integer), isinstance(3.0, Integer)
(True, False, False)
>>> import sympy; N = sympy.Symbol("N")
>>> isinstance(N, Integer), isinstance(4 * N, Integer), isinstance(sympy.Float(1.5), Integer)
(True, True, False)
"""

from abc import ABC

__all__ = ["Integer"]


class Integer(ABC):
    """Matches ``int`` and its subclasses except ``bool``, sympy expression types except the
    non-integer numbers (``Float``, ``Rational``), and any type given to
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
        if c.__module__.startswith("sympy."):
            import sympy

            if issubclass(c, sympy.Expr):
                return not issubclass(c, sympy.Number) or issubclass(c, sympy.Integer)
        return NotImplemented  # the registered types decide
