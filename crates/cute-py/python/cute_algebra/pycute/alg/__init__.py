"""Algorithms of the paper's PyCuTe (``pycute.alg``) on tensors: ``copy`` is the copy with layout
analysis, whose result is always that of the reference loop ``pycute.alg.ref.copy`` but which
(1) refuses a write-after-write, two source addresses sent to one destination address,
(2) writes each destination address once when the source is constant where the destination
repeats, and (3) inside the greatest common domain of the two layouts (the part of the index
space where the two agree on a tiling) walks the destination in memory order, so that a
scattered destination is written as ascending runs.

>>> from cute_algebra.pycute import Layout, make_tensor
>>> src = make_tensor(Layout(6, 1))
>>> for i in range(6): src[i] = i
>>> dst = make_tensor(Layout((2, 3), (4, 1))); copy(src, dst); [dst[i] for i in range(6)]
[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
"""

from .. import LayoutError, greatest_common_domain, logical_divide, size
from . import ref

__all__ = ["copy", "ref"]


def _tile_and_rest(src, dst):
    """The (tile, rest) split of both layouts by their greatest common domain; None when the
    domain is trivial or cannot be found."""
    try:
        common = greatest_common_domain(src, dst)
        if size(common) <= 1:
            return None
        return logical_divide(src, common), logical_divide(dst, common)
    except (LayoutError, TypeError, ValueError):
        return None


def _order(src, dst):
    """The (source offset, destination offset) pairs of every index, in the order written."""
    n = size(dst)
    split = _tile_and_rest(src, dst)
    if split is None:
        return [(src(i), dst(i)) for i in range(n)]
    s, d = split
    tile, rest = size(d[0]), size(d[1])
    pairs = []
    for r in range(rest):
        run = [(s(t, r), d(t, r)) for t in range(tile)]
        run.sort(key=lambda p: p[1])
        pairs.extend(run)
    return pairs


def copy(src, dst):
    """``dst[i] = src[i]`` for every index, as ``ref.copy`` does, after the layout analysis
    described in this module: raises ``ValueError`` when the sizes differ or on a
    write-after-write (two indices that ``dst`` sends to one address read two addresses of
    ``src``); each destination address is written once.

    >>> from cute_algebra.pycute import Layout, make_tensor
    >>> src = make_tensor(Layout(4, 1))
    >>> copy(src, make_tensor(Layout(4, 0)))
    Traceback (most recent call last):
    ...
    ValueError: copy: write-after-write: indices 0 and 1 both write destination offset 0, from source offsets 0 and 1
    """
    n, m = size(src.layout), size(dst.layout)
    if n != m:
        raise ValueError(f"copy: the source has {n} elements and the destination {m}; "
                         "a copy needs equal sizes")
    first = {}
    for i in range(m):
        s, d = src.layout(i), dst.layout(i)
        if d in first and first[d][1] != s:
            j = first[d][0]
            raise ValueError(f"copy: write-after-write: indices {j} and {i} both write "
                             f"destination offset {d}, from source offsets {first[d][1]} and {s}")
        first.setdefault(d, (i, s))
    written = set()
    for s, d in _order(src.layout, dst.layout):
        if d in written:
            continue
        written.add(d)
        dst.accessor[d] = src.accessor[s]
