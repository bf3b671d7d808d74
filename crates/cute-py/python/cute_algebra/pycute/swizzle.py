"""Legacy pycute's ``Swizzle`` and ``ComposedLayout``.

>>> from cute_algebra.pycute import Swizzle, ComposedLayout, Layout
>>> sw = Swizzle(3, 4, 3)
>>> str(sw), sw, sw(0b1010000000), sw.size()
('SW_3_4_3', Swizzle(3,4,3), 720, 1024)
>>> C = ComposedLayout(Swizzle(3, 0, 3), 0, Layout((8, 8), (8, 1)))
>>> C(9), len(C), C.size()
(8, 2, 64)
"""

from .. import _native
from .atuple import F2  # noqa: F401  (`from pycute.swizzle import F2`, as in the paper's PyCuTe)
from .layout import LayoutBase, cosize, size

__all__ = ["shiftr", "shiftl", "Swizzle", "ComposedLayout"]


# the largest shift either way (a shift left by more would build an int of that many bits; a
# shift right has the same bound, so that shiftr(a, s) == shiftl(a, -s) for every s)
_MAX_SHIFT = 1 << 16


def shiftr(a, s):
    """``a >> s``, or ``a << -s`` for a negative ``s``.

    >>> shiftr(16, 2), shiftr(1, -3)
    (4, 8)
    """
    if abs(s) > _MAX_SHIFT:
        raise ValueError(f"shiftr: a shift by {s} bits; at most {_MAX_SHIFT} either way")
    return a >> s if s > 0 else a << -s


def shiftl(a, s):
    """``a << s``, or ``a >> -s`` for a negative ``s``.

    >>> shiftl(1, 3), shiftl(16, -2)
    (8, 4)
    """
    if abs(s) > _MAX_SHIFT:
        raise ValueError(f"shiftl: a shift by {s} bits; at most {_MAX_SHIFT} either way")
    return a << s if s > 0 else a >> -s


class Swizzle:
    """``Sw<bits,base,shift>``: XORs ``bits`` bits at ``base + max(0, shift)`` into the bits at
    ``base - min(0, shift)``. Invalid parameters raise ``LayoutError`` (legacy: ``assert``).

    >>> Swizzle(2, 0, -3)(0b0000110)
    22
    """

    def __init__(self, bits, base, shift):
        self._sw = _native.Swizzle(bits, base, shift)
        self.bits = bits
        self.base = base
        self.shift = shift
        self.yyy_msk = self._sw.yyy_mask
        self.zzz_msk = self._sw.zzz_mask

    def __call__(self, offset):
        return offset ^ shiftr(offset & self.yyy_msk, self.shift)

    def __eq__(self, other):
        if not isinstance(other, Swizzle):
            return NotImplemented
        return (self.bits, self.base, self.shift) == (other.bits, other.base, other.shift)

    def __hash__(self):
        return hash((self.bits, self.base, self.shift))

    def size(self):
        """The size of the domain, ``2^(bits + base + |shift|)``.

        >>> Swizzle(3, 4, 3).size()
        1024
        """
        return 1 << (self.bits + self.base + abs(self.shift))

    def cosize(self):
        """The size of the codomain (equal to the domain's).

        >>> Swizzle(2, 0, -3).cosize()
        32
        """
        return self.size()

    def __str__(self):
        return f"SW_{self.bits}_{self.base}_{self.shift}"

    def __repr__(self):
        return f"Swizzle({self.bits},{self.base},{self.shift})"


class ComposedLayout(LayoutBase):
    """``layoutB o offset o layoutA``: ``C(c) = layoutB(offset + layoutA(c))``.

    >>> from cute_algebra.pycute import Layout
    >>> print(ComposedLayout(Swizzle(1, 0, 1), 2, Layout(4, 1)))
    SW_1_0_1 o 2 o 4:1
    """

    def __init__(self, layoutB, offset, layoutA):
        self.layoutB = layoutB
        self.offset = offset
        self.layoutA = layoutA

    def __eq__(self, other):
        if not isinstance(other, ComposedLayout):
            return NotImplemented
        return (self.layoutB == other.layoutB and self.offset == other.offset
                and self.layoutA == other.layoutA)

    def __hash__(self):
        return hash((self.layoutB, self.offset, self.layoutA))

    def __len__(self):
        return len(self.layoutA)

    def __call__(self, *args):
        return self.layoutB(self.offset + self.layoutA(*args))

    def __getitem__(self, i):
        return ComposedLayout(self.layoutB, self.offset, self.layoutA[i])

    def size(self):
        """The size of the inner layout's domain.

        >>> from cute_algebra.pycute import Layout
        >>> ComposedLayout(Swizzle(3, 0, 3), 0, Layout((8, 4), (8, 1))).size()
        32
        """
        return size(self.layoutA)

    def cosize(self):
        """The size of the outer function's codomain.

        >>> from cute_algebra.pycute import Layout
        >>> ComposedLayout(Swizzle(3, 0, 3), 0, Layout((8, 4), (8, 1))).cosize()
        64
        """
        return cosize(self.layoutB)

    def __str__(self):
        return f"{self.layoutB} o {self.offset} o {self.layoutA}"

    def __repr__(self):
        return f"ComposedLayout({self.layoutB!r},{self.offset!r},{self.layoutA!r})"
