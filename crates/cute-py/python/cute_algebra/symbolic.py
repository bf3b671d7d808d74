"""Layouts with extents known only at run time (CuTe DSL's ``?{div=16}``, PyCuTe's sympy
symbols), as `cute_algebra.SymLayout`.

Every operation returns a layout that is right for every admissible value of the unknowns, or
raises `LayoutError` with category ``Condition`` naming the unknown and the run-time condition
the answer depends on. sympy is optional: where it is installed, `layout` also takes sympy
symbols and products of them (``N = sympy.Symbol("N", positive=True, integer=True)``; an
``even`` symbol is known to be divisible by 2).

>>> from cute_algebra.symbolic import layout, unknown, coalesce, right_inverse
>>> print(coalesce(layout((192, unknown(div=8)), (1, 192))))  # CUTLASS #3469
192*?{div=8}:1
>>> print(right_inverse(layout((16, "N"), (1, 16))))  # CUTLASS #3471
16*N:1
"""

from typing import Any, Optional, Union

from ._native import LayoutError, SymLayout

__all__ = [
    "SymLayout", "layout", "unknown", "coalesce", "composition", "complement", "right_inverse",
    "left_inverse", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product",
    "raked_product",
]


def unknown(name: Optional[str] = None, div: int = 1, min: int = 1) -> str:
    """An unknown extent in CuTe notation: ``?`` (anonymous) or a name, with what is known.

    >>> unknown(div=16), unknown("M", div=16, min=64), unknown("K")
    ('?{div=16}', 'M{div=16,min=64}', 'K')
    """
    facts = []
    if div > 1:
        facts.append(f"div={div}")
    if min > 1:
        facts.append(f"min={min}")
    text = name if name is not None else "?"
    return text + ("{" + ",".join(facts) + "}" if facts else "")


def _sympy_text(x: Any) -> Optional[str]:
    """The CuTe text of a sympy integer, symbol or product of them; ``None`` when ``x`` is not
    a sympy value (or sympy is not installed)."""
    try:
        import sympy
    except ImportError:
        return None
    if not isinstance(x, sympy.Basic):
        return None
    if x.is_Integer:
        return str(int(x))
    if x.is_Symbol:
        if x.is_positive is False or x.is_integer is False:
            raise LayoutError(f"layout: {x} is not a positive integer")
        return unknown(x.name, div=2 if x.is_even else 1)
    if x.is_Pow and x.exp.is_Integer and x.exp > 0:
        base = _sympy_text(x.base)
        return "*".join([base] * int(x.exp)) if base is not None else None
    if x.is_Mul:
        parts = [_sympy_text(f) for f in x.args]
        if all(p is not None for p in parts):
            return "*".join(p for p in parts if p is not None)
    raise LayoutError(f"layout: {x} is not a product of integers and symbols")


def _text(x: Any) -> str:
    if isinstance(x, tuple):
        return "(" + ",".join(_text(c) for c in x) + ")"
    if isinstance(x, bool):
        raise TypeError("layout: a bool is not an extent")
    if isinstance(x, int):
        return str(x)
    if isinstance(x, str):
        return x
    t = _sympy_text(x)
    if t is None:
        raise TypeError(f"layout: {x!r} is not an int, str, tuple or sympy value")
    return t


def layout(shape: Any, stride: Any = None) -> SymLayout:
    """A `SymLayout` from nested tuples of ints, unknowns in CuTe text (``"M{div=8}"``,
    `unknown`) and, where sympy is installed, sympy symbols and products; without a stride,
    column-major.

    >>> print(layout((4, "M{div=8}")))
    (4,M{div=8}):(1,4)
    >>> print(layout((16, "N"), (1, 16)))
    (16,N):(1,16)
    """
    text = _text(shape)
    if stride is not None:
        text += ":" + _text(stride)
    return SymLayout(text)


_Like = Union[SymLayout, str]


def _sym(x: _Like) -> SymLayout:
    return x if isinstance(x, SymLayout) else SymLayout(x)


def coalesce(a: _Like) -> SymLayout:
    """`SymLayout.coalesce`.

    >>> print(coalesce("(192,?):(1,192)"))
    192*?:1
    """
    return _sym(a).coalesce()


def composition(a: _Like, b: _Like) -> SymLayout:
    """`SymLayout.composition`.

    >>> print(composition("(8,M):(M,1)", "4:2"))
    4:2*M
    """
    return _sym(a).composition(_sym(b))


def complement(a: _Like, cotarget: Optional[_Like] = None) -> SymLayout:
    """`SymLayout.complement` (the cotarget's size is used).

    >>> print(complement("(4,M):(1,4)"))
    1:4*M
    """
    return _sym(a).complement(None if cotarget is None else _sym(cotarget))


def right_inverse(a: _Like) -> SymLayout:
    """`SymLayout.right_inverse`.

    >>> print(right_inverse("(16,N):(1,16)"))
    16*N:1
    """
    return _sym(a).right_inverse()


def left_inverse(a: _Like) -> SymLayout:
    """`SymLayout.left_inverse`.

    >>> print(left_inverse("(4,M{min=2}):(M,1)"))
    (M{min=2},4):(4,1)
    """
    return _sym(a).left_inverse()


def _divisor(b: Any) -> Union[SymLayout, str]:
    """A divide's right operand: a tuple (a tiler by mode, ``None`` for ``_``) as tiler text."""
    if isinstance(b, tuple):
        items = ["_" if x is None else str(_sym(x)) for x in b]
        return "<" + ",".join(items) + ">"
    return b if isinstance(b, (SymLayout, str)) else _sym(b)


def logical_divide(a: _Like, b: Any) -> SymLayout:
    """`SymLayout.logical_divide`.

    >>> print(logical_divide("(M{div=16},N):(1,2*M)", "16:1"))
    (16,(M{div=16}/16,N)):(1,(16,2*M))
    """
    return _sym(a).logical_divide(_divisor(b))


def zipped_divide(a: _Like, b: Any) -> SymLayout:
    """`SymLayout.zipped_divide`.

    >>> print(zipped_divide("M{div=8}:1", "8:1"))
    (8,M{div=8}/8):(1,8)
    >>> print(zipped_divide("(M{div=128},N{div=64}):(1,M)", ("128:1", "64:1")))  # by mode
    ((128,64),(M{div=128}/128,N{div=64}/64)):((1,M),(128,64*M))
    """
    return _sym(a).zipped_divide(_divisor(b))


def tiled_divide(a: _Like, b: Any) -> SymLayout:
    """`SymLayout.tiled_divide`.

    >>> print(tiled_divide("(M{div=8},N):(1,2*M)", "8:1"))
    (8,M{div=8}/8,N):(1,8,2*M)
    """
    return _sym(a).tiled_divide(_divisor(b))


def flat_divide(a: _Like, b: Any) -> SymLayout:
    """`SymLayout.flat_divide`.

    >>> print(flat_divide("(M{div=8},N):(1,2*M)", "(2,4):(1,2)"))
    (2,4,M{div=8}/8,N):(1,2,8,2*M)
    """
    return _sym(a).flat_divide(_divisor(b))


def logical_product(a: _Like, b: _Like) -> SymLayout:
    """`SymLayout.logical_product`.

    >>> print(logical_product("(2,2):(1,2)", "N:1"))
    ((2,2),N):((1,2),4)
    """
    return _sym(a).logical_product(_sym(b))


def zipped_product(a: _Like, b: _Like) -> SymLayout:
    """`SymLayout.zipped_product`.

    >>> print(zipped_product("(2,2):(1,2)", "(3,N):(1,3)"))
    ((2,2),(3,N)):((1,2),(4,12))
    """
    return _sym(a).zipped_product(_sym(b))


def tiled_product(a: _Like, b: _Like) -> SymLayout:
    """`SymLayout.tiled_product`.

    >>> print(tiled_product("(2,2):(1,2)", "(3,N):(1,3)"))
    ((2,2),3,N):((1,2),4,12)
    """
    return _sym(a).tiled_product(_sym(b))


def flat_product(a: _Like, b: _Like) -> SymLayout:
    """`SymLayout.flat_product`.

    >>> print(flat_product("(2,2):(1,2)", "(3,N):(1,3)"))
    (2,2,3,N):(1,2,4,12)
    """
    return _sym(a).flat_product(_sym(b))


def blocked_product(a: _Like, b: _Like) -> SymLayout:
    """`SymLayout.blocked_product`.

    >>> print(blocked_product("(2,2):(1,2)", "(M,N):(1,M)"))
    ((2,M),(2,N)):((1,4),(2,4*M))
    """
    return _sym(a).blocked_product(_sym(b))


def raked_product(a: _Like, b: _Like) -> SymLayout:
    """`SymLayout.raked_product`.

    >>> print(raked_product("(2,2):(1,2)", "(M,N):(1,M)"))
    ((M,2),(N,2)):((4,1),(4*M,2))
    """
    return _sym(a).raked_product(_sym(b))
