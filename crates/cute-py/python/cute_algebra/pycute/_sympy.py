"""Layouts with sympy leaves (the paper's PyCuTe's symbolic shapes and strides), computed by the
symbolic core of ``cute_algebra`` (`SymLayout`): every answer is right for every admissible value
of the unknowns (each symbol a positive integer; an ``even`` one a multiple of 2), or the
operation raises ``LayoutError`` naming the unknown and the run-time condition it depends on.

A sympy symbol is an unknown of that name; a product of symbols and integers is a product of
unknowns. The results hold the caller's own symbol objects (so that they compare equal to
expressions of them), and plain ints where no unknown is left. The forms follow the paper's
PyCuTe: a static extent above 1 is not folded into a product with unknowns (`coalesce` keeps
``(4,N):(1,4)``), and ``right_inverse`` is the largest inverse that is one for every admissible
value at once (``right_inverse(N:X)`` is ``1:0``, whether or not ``X`` is 1).

>>> import sympy
>>> from cute_algebra.pycute import Layout, coalesce, right_inverse
>>> N, X = sympy.symbols("N X", positive=True, integer=True)
>>> coalesce(Layout((2, 4), (X, 2*X))), coalesce(Layout((N, 4), (1, N)))
(Layout(8,X), Layout((N, 4),(1, N)))
>>> right_inverse(Layout((4, N), (1, 4))), right_inverse(Layout(N, X))
(Layout((4, N),(1, 4)), Layout(1,0))
>>> from cute_algebra.pycute import zipped_divide
>>> zipped_divide(Layout(N, X), 128)
Layout((128, floor(N/128 + 127/128)),(X, 128*X))
"""

import re

from .._native import LayoutError, SymLayout
from ..symbolic import _text
from .int_tuple import _fail

__all__ = []

LAYOUT = [None]  # the pycute Layout class (set by .layout, which imports this module)


def _is_sympy(x):
    return type(x).__module__.startswith("sympy.")


def has_sympy(*xs):
    """True when a leaf of one of ``xs`` (layouts, tuples, scalars) is a sympy value.

    >>> has_sympy((4, 8), 3), has_sympy(sympy_symbol("N"))
    (False, True)
    """
    for x in xs:
        if isinstance(x, (tuple, list)):
            if has_sympy(*x):
                return True
        elif type(x) is LAYOUT[0]:
            if x._native is None and has_sympy(x.shape, x.stride):
                return True
        elif _is_sympy(x):
            return True
    return False


def sympy_symbol(name):
    """A positive integer sympy symbol (for examples).

    >>> sympy_symbol("N").is_positive
    True
    """
    import sympy

    return sympy.Symbol(name, positive=True, integer=True)


class Symbols:
    """The sympy symbols of an operation's operands, by name (one name, one symbol).

    >>> s = Symbols("op"); s.text((sympy_symbol("N"), 4)); sorted(s.names)
    '(N,4)'
    ['N']
    """

    def __init__(self, op):
        self.op = op
        self.names = {}

    def _collect(self, x):
        if isinstance(x, (tuple, list)):
            for y in x:
                self._collect(y)
        elif _is_sympy(x):
            for s in x.free_symbols:
                known = self.names.setdefault(s.name, s)
                if known != s:
                    raise _fail(self.op, "Unsupported",
                                f"two different sympy symbols are named {s.name} ({known!r} "
                                f"with assumptions {known.assumptions0}, and {s!r} with "
                                f"{s.assumptions0})")

    def text(self, x):
        """The CuTe text of a shape or stride (tuples, ints, sympy values)."""
        self._collect(x)
        if isinstance(x, list):
            x = _tuple(x)
        try:
            return _text(x)
        except TypeError as e:
            raise _fail(self.op, "Unsupported", f"{x!r}: {e}") from None
        except LayoutError as e:
            raise _fail(self.op, "Unsupported", str(e).removeprefix("layout: ")) from None

    def layout(self, layout):
        """The `SymLayout` of a pycute layout (or an int ``n``: ``n:1``)."""
        if type(layout) is not LAYOUT[0]:
            if isinstance(layout, int) or _is_sympy(layout):
                return SymLayout(self.text(layout) + ":1")
            raise _fail(self.op, "Unsupported",
                        f"{layout!r}: only layouts and extents have sympy leaves here")
        for d in _leaves(layout.stride):
            if not (isinstance(d, int) or _is_sympy(d)):
                raise _fail(self.op, "Unsupported",
                            f"{layout}: stride {d!r} beside sympy leaves (the symbolic core's "
                            "strides are products of integers and unknowns)")
        return SymLayout(self.text(layout.shape) + ":" + self.text(layout.stride))

    def tiler(self, b):
        """A divide's right operand: a layout, an extent, or a tuple of those and ``None``."""
        if isinstance(b, (tuple, list)):
            items = ["_" if x is None else str(self.layout(x)) for x in b]
            return "<" + ",".join(items) + ">"
        return self.layout(b)

    def result(self, sym):
        """The pycute ``Layout`` of a `SymLayout`, with these symbols."""
        shape_text, stride_text = _split_top(str(sym))
        shape, stride = _Reader(shape_text, self), _Reader(stride_text, self)
        return LAYOUT[0](shape.tree(), stride.tree())


def _tuple(x):
    return tuple(_tuple(y) for y in x) if isinstance(x, (tuple, list)) else x


def _leaves(x):
    if isinstance(x, (tuple, list)):
        for y in x:
            yield from _leaves(y)
    else:
        yield x


def _split_top(text):
    depth = 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == ":" and depth == 0:
            return text[:i], text[i + 1:]
    raise ValueError(f"no stride in {text!r}")


_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)(\{[^}]*\})?|(\S))")


class _Reader:
    """Reads a shape or stride printed by the symbolic core back into ints and sympy values."""

    def __init__(self, text, symbols):
        self.tokens = [m.groups() for m in _TOKEN.finditer(text) if m.group(0).strip()]
        self.pos = 0
        self.symbols = symbols

    def _peek(self):
        return self.tokens[self.pos][3] if self.pos < len(self.tokens) else None

    def tree(self):
        if self._peek() == "(":
            self.pos += 1
            items = [self.tree()]
            while self._peek() == ",":
                self.pos += 1
                items.append(self.tree())
            self.pos += 1  # ")"
            return tuple(items)
        return self._product()

    def _product(self):
        value = self._factor()
        while self._peek() == "*":
            self.pos += 1
            value = value * self._factor()
        if self._peek() == "/":
            self.pos += 1
            den = int(self.tokens[self.pos][0])
            self.pos += 1
            import sympy

            value = sympy.Integer(value) / den if isinstance(value, int) else value / den
        if self._peek() == "@":
            raise _fail(self.symbols.op, "Unsupported", "a basis stride in a symbolic result")
        return value

    def _factor(self):
        num, name, _facts, other = self.tokens[self.pos]
        self.pos += 1
        if num is not None:
            return int(num)
        if other == "-":
            return -self._factor()
        if other == "⌈":
            # ⌈m/c⌉ (the padded rest of a divide): floor((m + c - 1)/c), as PyCuTe writes it
            m = self._factor()
            while self._peek() == "*":
                self.pos += 1
                m = m * self._factor()
            self.pos += 1  # "/"
            c = int(self.tokens[self.pos][0])
            self.pos += 2  # c, "⌉"
            return (m + c - 1) // c
        if name is None:
            raise _fail(self.symbols.op, "Unsupported", f"an anonymous unknown ({other}) in a "
                        "symbolic result")
        s = self.symbols.names.get(name)
        return s if s is not None else sympy_symbol(name)


def compute(op, run):
    """The pycute ``Layout`` of the `SymLayout` that ``run(symbols)`` returns, where ``symbols``
    (a `Symbols` of ``op``) converts the operands; the core's refusals pass as they are."""
    symbols = Symbols(op)
    return symbols.result(run(symbols))
