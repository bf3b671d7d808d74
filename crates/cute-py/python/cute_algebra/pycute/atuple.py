"""The stride scalars of the paper's PyCuTe: ``F2`` values (binary polynomials: XOR addition,
carry-less multiplication) and ``ArithTuple`` values (elements of ``Z^S``: hierarchical tuples
added elementwise), with the scaled basis elements ``ScaledBasis(v, path)`` and ``E(*path)``.

These are plain Python values for evaluating layouts (``L(c)`` sums ``c_i * d_i``); the layout
algebra converts them to the Rust core's ``E`` and ``F2`` strides and back.

An ``ArithTuple`` compares as if extended by zeros: ``E(0) == ArithTuple(1, 0) == (1,)``, and an
all-zero one equals ``0``; a nonzero int is rank 0 and never equals one.

>>> from cute_algebra.pycute import E, F2, ArithTuple, ScaledBasis
>>> 3 * E(0) + 5 * E(1) == ArithTuple(3, 5), E(0) - E(0) == 0
(True, True)
>>> F2(3) + F2(1), 4 * F2(13), ScaledBasis(F2(1), (0,))
(F2(2), F2(52), ArithTuple(F2(1)))
"""

__all__ = [
    "F2", "ArithTuple", "ScaledBasis", "E", "is_stride_scalar", "basis_repr", "is_basis",
    "proj", "unit", "in_bounds",
]


def _clmul(a, b):
    """The carry-less product of two non-negative ints."""
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        b >>= 1
    return r


class F2:
    """A binary polynomial, written by its bits: ``+`` and ``-`` are XOR, ``*`` is the carry-less
    product (an int operand is read as its bits); ordered and hashed as its int value, and equal
    to the int of the same value. Adding a nonzero int is refused (a layout mixing an ``F2`` axis
    with an integer axis has no sum).

    >>> F2(5) + F2(3), F2(5) - F2(5) == 0, 3 * F2(3), int(F2(6)), F2(5) < F2(8)
    (F2(6), True, F2(5), 6, True)
    """

    __slots__ = {"value": "The bits, an int.\n\n>>> F2(6).value\n6"}

    def __init__(self, value=0):
        if isinstance(value, F2):
            value = value.value
        if type(value) is bool or not isinstance(value, int):
            raise TypeError(f"F2: expected a non-negative int, got {type(value).__name__}")
        if value < 0:
            raise ValueError(f"F2: expected a non-negative int, got {value} (a negative int has "
                             "no finite bit expansion)")
        self.value = value

    @staticmethod
    def _bits(x, op):
        """The bits of an operand of ``op``, or None when it is not an F2 or an int."""
        if isinstance(x, F2):
            return x.value
        if isinstance(x, int) and type(x) is not bool:
            if x < 0:
                raise ValueError(f"F2 {op}: {x} is negative (no finite bit expansion)")
            return x
        return None

    def __add__(self, other):
        if isinstance(other, F2):
            return F2(self.value ^ other.value)
        if isinstance(other, int) and type(other) is not bool:
            if other == 0:
                return self
            raise TypeError(f"F2 +: {self} and the int {other} are of different algebras "
                            "(XOR against integer addition)")
        return NotImplemented

    __radd__ = __add__
    __sub__ = __add__
    __rsub__ = __add__

    def __neg__(self):
        return self

    def __mul__(self, other):
        b = F2._bits(other, "*")
        if b is None:
            return NotImplemented
        return F2(_clmul(self.value, b))

    __rmul__ = __mul__

    def __int__(self):
        return self.value

    def __bool__(self):
        return self.value != 0

    def __eq__(self, other):
        if isinstance(other, F2):
            return self.value == other.value
        if isinstance(other, int):
            return self.value == other
        return NotImplemented

    def __hash__(self):
        return hash(self.value)

    def _cmp(self, other):
        if isinstance(other, (F2, int)):
            return self.value - int(other)
        return None

    def __lt__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is None else c < 0

    def __le__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is None else c <= 0

    def __gt__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is None else c > 0

    def __ge__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is None else c >= 0

    def _unit(self):
        """The multiplicative unit of this algebra."""
        return F2(1)

    def __str__(self):
        return f"F{self.value}"

    def __repr__(self):
        return f"F2({self.value})"


def _is_num(x):
    """An int (not bool) or an F2: a leaf of an ArithTuple."""
    return isinstance(x, F2) or (isinstance(x, int) and type(x) is not bool) or _is_symbolic(x)


def _is_symbolic(x):
    """A sympy expression (duck-typed: sympy is not a dependency)."""
    return hasattr(x, "free_symbols") and hasattr(x, "subs")


def _is_zero(x):
    if isinstance(x, ArithTuple):
        return all(_is_zero(y) for y in x.data)
    return x == 0


def _lift(x):
    """A tuple or list as an ArithTuple (recursively); a scalar as it is."""
    if isinstance(x, (tuple, list)):
        return ArithTuple._set([_lift(y) for y in x])
    return x


def _data(x, op):
    """The entries of an operand of ``op`` that is an ArithTuple, a tuple or a list."""
    if isinstance(x, ArithTuple):
        return x.data
    if isinstance(x, (tuple, list)):
        return tuple(_lift(y) for y in x)
    return None


def _add(a, b):
    """Leaf addition with the ranks of ArithTuple entries checked."""
    if isinstance(a, ArithTuple) or isinstance(b, ArithTuple):
        if not isinstance(a, ArithTuple):
            a, b = b, a
        r = a.__add__(b)
        if r is NotImplemented:
            raise TypeError(f"ArithTuple +: cannot add {a!r} and {b!r}")
        return r
    return a + b


def _cmp(a, b):
    """Colexicographic comparison (the last entry most significant), zeros implicit: -1, 0, 1."""
    if isinstance(a, ArithTuple) or isinstance(b, ArithTuple):
        da = a.data if isinstance(a, ArithTuple) else ((a,) if not _is_zero(a) else ())
        db = b.data if isinstance(b, ArithTuple) else ((b,) if not _is_zero(b) else ())
        n = max(len(da), len(db))
        for k in range(n - 1, -1, -1):
            x = da[k] if k < len(da) else 0
            y = db[k] if k < len(db) else 0
            c = _cmp(x, y)
            if c:
                return c
        return 0
    if a < b:
        return -1
    if b < a:
        return 1
    return 0


class ArithTuple:
    """An element of ``Z^S`` (a coordinate): a hierarchical tuple of stride scalars, added
    elementwise (missing entries are zeros), scaled by a scalar, ordered colexicographically.

    ``ArithTuple(1, 2)`` and ``ArithTuple((1, 2))`` are the same value; ``ArithTuple(x)`` of one
    scalar ``x`` is ``x`` itself.

    >>> ArithTuple(1, 2, 3) + (7, 8, 9), 4 * ArithTuple(1, (2, 3))
    (ArithTuple(8,10,12), ArithTuple(4,(8,12)))
    >>> ArithTuple(1, 0) == ArithTuple((1,)) == (1,), ArithTuple(0, 0) == 0
    (True, True)
    """

    __slots__ = {"data": "The entries, a tuple of stride scalars and ArithTuples.\n\n"
                         ">>> ArithTuple(1, (2, 3)).data\n(1, ArithTuple(2,3))"}

    def __new__(cls, *args):
        if len(args) == 1:
            x = args[0]
            if isinstance(x, ArithTuple):
                return x
            if isinstance(x, (tuple, list)):
                args = tuple(x)
            elif _is_num(x):
                return x
            else:
                raise TypeError(f"ArithTuple: expected stride scalars or a tuple of them, got "
                                f"{type(x).__name__}")
        for a in args:
            if not (_is_num(a) or isinstance(a, (ArithTuple, tuple, list))):
                raise TypeError(f"ArithTuple: expected stride scalars or tuples of them, got "
                                f"{type(a).__name__}")
        self = object.__new__(cls)
        self.data = tuple(_lift(a) for a in args)
        return self

    @classmethod
    def _set(cls, data):
        """An ArithTuple holding ``data`` verbatim (its entries already scalars or ArithTuples)."""
        self = object.__new__(cls)
        self.data = tuple(data)
        return self

    def __add__(self, other):
        d = _data(other, "+")
        if d is None:
            if _is_num(other):
                if _is_zero(other):
                    return self
                raise TypeError(f"ArithTuple +: {self} and the scalar {other} differ in rank")
            return NotImplemented
        a, n = self.data, max(len(self.data), len(d))
        return ArithTuple._set(
            _add(a[k] if k < len(a) else 0, d[k] if k < len(d) else 0) for k in range(n))

    __radd__ = __add__

    def __neg__(self):
        return ArithTuple._set(-x for x in self.data)

    def __sub__(self, other):
        d = _data(other, "-")
        if d is None:
            if _is_num(other):
                if _is_zero(other):
                    return self
                raise TypeError(f"ArithTuple -: {self} and the scalar {other} differ in rank")
            return NotImplemented
        return self + (-ArithTuple._set(d))

    def __rsub__(self, other):
        d = _data(other, "-")
        if d is None:
            if _is_num(other):
                if _is_zero(other):
                    return -self
                raise TypeError(f"ArithTuple -: the scalar {other} and {self} differ in rank")
            return NotImplemented
        return ArithTuple._set(d) + (-self)

    def __mul__(self, other):
        if isinstance(other, ArithTuple) or not _is_num(other):
            if isinstance(other, ArithTuple):
                raise TypeError(f"ArithTuple *: {self} and {other}: only a scalar scales a "
                                "coordinate")
            return NotImplemented
        return ArithTuple._set(x * other for x in self.data)

    def __rmul__(self, other):
        if not _is_num(other):
            return NotImplemented
        return ArithTuple._set(other * x for x in self.data)

    def __eq__(self, other):
        if isinstance(other, ArithTuple) or isinstance(other, (tuple, list)):
            d = _data(other, "==")
            a = self.data
            for k in range(max(len(a), len(d))):
                x = a[k] if k < len(a) else 0
                y = d[k] if k < len(d) else 0
                if isinstance(x, ArithTuple) or isinstance(y, ArithTuple):
                    if isinstance(x, ArithTuple):
                        if not x.__eq__(y) is True:
                            return False
                    elif not y.__eq__(x) is True:
                        return False
                elif x != y:
                    return False
            return True
        if _is_num(other):
            return _is_zero(other) and _is_zero(self)
        return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __hash__(self):
        d = list(self.data)
        while d and _is_zero(d[-1]):
            d.pop()
        return hash(tuple(d)) if d else 0

    def __lt__(self, other):
        return _cmp(self, other) < 0

    def __le__(self, other):
        return _cmp(self, other) <= 0

    def __gt__(self, other):
        return _cmp(self, other) > 0

    def __ge__(self, other):
        return _cmp(self, other) >= 0

    def __iter__(self):
        return iter(self.data)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i]

    def __str__(self):
        rep = basis_repr(self)
        if len(rep) == 1 and rep[0][1]:
            v, path = rep[0]
            return str(v) + "".join(f"@{p}" for p in reversed(path))
        return "(" + ",".join(str(x) for x in self.data) + ")"

    def __repr__(self):
        return "ArithTuple(" + ",".join(_plain_repr(x) for x in self.data) + ")"


def _plain_repr(x):
    if isinstance(x, ArithTuple):
        return "(" + ",".join(_plain_repr(y) for y in x.data) + ")"
    return repr(x)


_MAX_MODE = 1 << 16  # the modes a basis element may name: far past any layout's rank


def ScaledBasis(value, path):
    """``value`` times the basis element at ``path`` (a sequence of indices): the ArithTuple with
    ``value`` at that path and zeros elsewhere; ``value`` itself for an empty path.

    >>> ScaledBasis(42, [1]) == (0, 42), ScaledBasis(42, []) , str(ScaledBasis(3, (1, 2)))
    (True, 42, '3@2@1')
    """
    path = tuple(path)
    x = value
    for p in reversed(path):
        if type(p) is not int or p < 0:
            raise TypeError(f"ScaledBasis: path {path} must hold non-negative ints")
        if p >= _MAX_MODE:
            raise ValueError(f"ScaledBasis: path {path} names mode {p}; a coordinate has at most "
                             f"{_MAX_MODE} modes")
        x = ArithTuple._set((0,) * p + (x,))
    return x


def E(*path):
    """The unit basis element at ``path`` (``1`` for the empty path).

    >>> E(1) == (0, 1), E() , 2 * E(0, 1) == ((0, 2),)
    (True, 1, True)
    """
    return ScaledBasis(1, path)


def is_stride_scalar(x):
    """True for a stride scalar: an int, an ``F2``, an ``ArithTuple`` (or a sympy expression).

    >>> is_stride_scalar(3), is_stride_scalar(E(1)), is_stride_scalar((1, 2))
    (True, True, False)
    """
    return _is_num(x) or isinstance(x, ArithTuple)


def basis_repr(x):
    """The nonzero terms ``(value, path)`` of ``x`` (an int is the one term ``(x, ())``; a zero
    ArithTuple is ``[(0, ())]``), in order of their paths.

    >>> basis_repr(3 * E(0) + 5 * E(1, 2)), basis_repr(7), basis_repr(0 * E(2))
    ([(3, (0,)), (5, (1, 2))], [(7, ())], [(0, ())])
    """
    if not isinstance(x, ArithTuple):
        if not _is_num(x):
            raise TypeError(f"basis_repr: expected an int, F2 or ArithTuple, got "
                            f"{type(x).__name__}")
        return [(x, ())]
    out = []

    def walk(y, path):
        if isinstance(y, ArithTuple):
            for k, z in enumerate(y.data):
                walk(z, path + (k,))
        elif not _is_zero(y):
            out.append((y, path))

    walk(x, ())
    return out or [(0, ())]


def is_basis(x):
    """True when ``x`` is one scaled basis element (every int is, at the empty path).

    >>> is_basis(5 * E(1, 2)), is_basis(7), is_basis(E(0) + E(1))
    (True, True, False)
    """
    return len(basis_repr(x)) == 1


def _path_of(profile, op):
    rep = basis_repr(profile)
    if len(rep) != 1:
        raise TypeError(f"{op}: the profile {profile} is a sum of {len(rep)} basis elements, "
                        "not one")
    return rep[0]


def proj(x, profile):
    """The entry of ``x`` at the path of the basis element ``profile`` (zero where ``x`` has
    none).

    >>> proj(ArithTuple(7, (8, 9)), E(1, 0)), proj(ArithTuple(7, 8), E())
    (8, ArithTuple(7,8))
    """
    _, path = _path_of(profile, "proj")
    for p in path:
        if isinstance(x, ArithTuple):
            x = x.data[p] if p < len(x.data) else 0
        elif _is_zero(x):
            return 0
        else:
            raise TypeError(f"proj: {x} has no entry at the path {path}")
    return x


def unit(profile):
    """The unit basis element at the path of ``profile``, in the algebra of its value (``F2``
    values give ``F2(1)``).

    >>> unit(5 * E(1, 2)) == E(1, 2), unit(E()), unit(ScaledBasis(F2(4), (0,)))
    (True, 1, ArithTuple(F2(1)))
    """
    v, path = _path_of(profile, "unit")
    one = v._unit() if hasattr(v, "_unit") else 1
    return ScaledBasis(one, path)


def _crd_tuple(c):
    """A coordinate as nested tuples: an ``ArithTuple``'s entries, a tuple's recursively."""
    if isinstance(c, ArithTuple):
        c = c.data
    if isinstance(c, (tuple, list)):
        return tuple(_crd_tuple(x) for x in c)
    return c


def _in_bounds(c, s):
    if isinstance(s, (tuple, list)):
        if isinstance(c, tuple):
            if len(c) > len(s):
                return all(x == 0 for x in c[len(s):]) and _in_bounds(c[:len(s)], s)
            c = c + (0,) * (len(s) - len(c))  # missing entries of a coordinate are zeros
            return all(_in_bounds(x, y) for x, y in zip(c, s))
        total = 1
        for x in s:
            total *= _size_of(x)
        return 0 <= c < total
    if isinstance(c, tuple):
        return False
    return 0 <= c < s


def _size_of(s):
    if isinstance(s, (tuple, list)):
        total = 1
        for x in s:
            total *= _size_of(x)
        return total
    return s


def in_bounds(crd, shape):
    """True when the coordinate ``crd`` (an int, a tuple or an ``ArithTuple``, missing entries
    being zeros) lies inside ``shape``: every entry ``c`` of a mode of extent ``s`` has
    ``0 <= c < s``, and an int entry against a tuple mode is below that mode's size.

    >>> in_bounds((1, 2), (2, 3)), in_bounds((1, -1), (2, 3)), in_bounds(ArithTuple(1), (2, 3))
    (True, False, True)
    >>> in_bounds(5, (2, 3)), in_bounds(6, (2, 3))
    (True, False)
    """
    if hasattr(shape, "shape") and not isinstance(shape, (tuple, list)):
        shape = shape.shape  # a layout
    return _in_bounds(_crd_tuple(crd), shape)
