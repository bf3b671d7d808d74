"""The algebra against NVIDIA's legacy pycute on thousands of random layouts.

Legacy pycute's answer is used only where it satisfies the operation's definition, checked by
evaluating every index (brute force); there `cute_algebra` must give an answer that satisfies the
definition too and agrees with it. Cases where legacy pycute is wrong or asserts are counted, and
`cute_algebra` must then either refuse with `LayoutError` or answer correctly.
"""

import random

import pytest

import cute_algebra as C
from randlayouts import rand_layout

P = pytest.importorskip("pycute", reason="legacy pycute (nvidia-cutlass, --no-deps) not installed")

N = 2000


def fn(layout, n=None):
    n = layout.size() if n is None else n
    return [layout(i) for i in range(n)]


def legacy(f, *args):
    """Legacy pycute's answer, or None where it asserts or fails."""
    try:
        return f(*args)
    except (AssertionError, ZeroDivisionError, IndexError, TypeError):
        return None


def small(s, d):
    """Keeps brute-force evaluation cheap: size at most 256, offsets below 2048."""
    n = C.Layout(s, d)
    return n.size() <= 256 and n.cosize() <= 2048


def pairs(seed, injective=False, max_rank=3):
    rng = random.Random(seed)
    done = 0
    while done < N:
        s, d = rand_layout(rng, injective=injective, max_rank=max_rank)
        if small(s, d):
            done += 1
            yield rng, s, d


def test_coalesce():
    agreed = 0
    for _, s, d in pairs(1):
        lp, ln = P.Layout(s, d), C.Layout(s, d)
        r = legacy(P.coalesce, lp)
        n = C.coalesce(ln)
        assert n.size() == ln.size() and fn(n) == fn(ln), (s, d)
        assert n.depth() <= 1
        if r is not None and r.size() == lp.size() and fn(r) == fn(lp):
            assert (n.shape, n.stride) == (r.shape, r.stride), (s, d)
            agreed += 1
    assert agreed > N * 0.9


def size_one_mode_with_stride(shape, stride):
    """True when a size-1 leaf has a nonzero stride (see the note in test_composition)."""
    from randlayouts import leaves

    return any(x == 1 and y != 0 for x, y in zip(leaves(shape), leaves(stride)))


def test_composition():
    agreed = legacy_wrong = refused = 0
    # Known: the core checks the stride-divisibility condition (9) also for a size-1 mode of B
    # (which contributes nothing), so it refuses a few compositions that legacy pycute gets right,
    # all with such a mode (COMPARE.md, "Python module"). They are counted, and must stay rare.
    size_one_refusals = 0
    for rng, s, d in pairs(2):
        s2, d2 = rand_layout(rng, max_rank=2)
        a, b = P.Layout(s, d), P.Layout(s2, d2)
        na, nb = C.Layout(s, d), C.Layout(s2, d2)
        want = [a(x) for x in fn(b)]
        in_domain = all(0 <= x < a.size() for x in fn(b))
        r = legacy(P.composition, a, b)
        try:
            n = C.composition(na, nb)
        except C.LayoutError as e:
            assert e.op == "composition" and str(e).startswith("composition")
            n = None
        if n is not None and in_domain:
            # every answer given is the composition
            assert n.size() == b.size() and fn(n) == want, (s, d, s2, d2)
        ok = r is not None and in_domain and r.size() == b.size() and fn(r) == want
        if ok and n is None:
            assert size_one_mode_with_stride(s2, d2), f"refused, legacy right: {s}:{d} o {s2}:{d2}"
            size_one_refusals += 1
        elif ok:
            agreed += 1
        elif r is not None:
            legacy_wrong += 1
            refused += n is None
    assert agreed > 500 and legacy_wrong > 0 and size_one_refusals < 10


def is_complement(layout_fn, size_l, r, cotarget):
    """Paper (15)-(17): R ordered, (L, R) injective, and covering the cotarget."""
    rv = fn(r)
    if any(rv[i] >= rv[i + 1] for i in range(len(rv) - 1)):
        return False
    seen = set()
    for y in rv:
        for x in layout_fn:
            if x + y in seen:
                return False
            seen.add(x + y)
    return size_l * r.size() >= cotarget


def test_complement():
    agreed = 0
    for rng, s, d in pairs(3, injective=True):
        a = P.Layout(s, d)
        fa = fn(a)
        cot = rng.choice([1, a.cosize(), 2 * a.cosize(), a.size() * 4])
        r = legacy(P.complement, a, cot)
        try:
            n = C.complement(C.Layout(s, d), cot)
        except C.LayoutError:
            n = None
        if r is not None and is_complement(fa, a.size(), r, min(cot, a.cosize())):
            assert n is not None, (s, d, cot)
            assert n.size() == r.size() and fn(n) == fn(r), (s, d, cot)
            agreed += 1
    assert agreed > N * 0.5


def test_right_inverse():
    agreed = 0
    for _, s, d in pairs(4):
        a = P.Layout(s, d)
        r = legacy(P.right_inverse, a)
        n = C.right_inverse(C.Layout(s, d))
        # our answer always satisfies the definition
        assert all(a(n(i)) == i for i in range(n.size())), (s, d)
        if r is not None and all(0 <= r(i) < a.size() and a(r(i)) == i for i in range(r.size())):
            assert n.size() >= r.size(), (s, d)
            agreed += 1
    assert agreed > N * 0.9


def test_left_inverse():
    agreed = 0
    for _, s, d in pairs(5, injective=True):
        a = P.Layout(s, d)
        r = legacy(P.left_inverse, a)
        try:
            n = C.left_inverse(C.Layout(s, d))
        except C.LayoutError:
            n = None
        if n is not None:
            assert all(n(a(i)) == i for i in range(a.size())), (s, d)
        if r is not None and all(0 <= a(i) < r.size() and r(a(i)) == i for i in range(a.size())):
            assert n is not None, (s, d)
            agreed += 1
    assert agreed > N * 0.5


def agreement_on_pairs(seed, op, satisfies, **pair_args):
    """``op`` of both modules on random pairs (a random layout, an injective second operand of
    rank at most 2): where legacy pycute's answer satisfies the operation's definition
    (``satisfies(a, b, r)``), ours is the same function, or refused for the size-1-mode reason of
    test_composition. Returns the numbers of agreements and of such refusals."""
    agreed = size_one_refusals = 0
    for rng, s, d in pairs(seed, **pair_args):
        a = P.Layout(s, d)
        s2, d2 = rand_layout(rng, injective=True, max_rank=2)
        b = P.Layout(s2, d2)
        r = legacy(getattr(P, op), a, b)
        try:
            n = getattr(C, op)(C.Layout(s, d), C.Layout(s2, d2))
        except C.LayoutError:
            n = None
        if r is None or not satisfies(a, b, r):
            continue
        if n is None:
            assert size_one_mode_with_stride(s2, d2), (s, d, s2, d2)
            size_one_refusals += 1
            continue
        assert fn(n) == fn(r), (s, d, s2, d2)
        agreed += 1
    return agreed, size_one_refusals


def test_logical_divide():
    def is_divide(a, b, r):
        # a permutation of A's offsets whose first mode is A o B
        fb = fn(b)
        return (r.size() == a.size() and sorted(fn(r)) == sorted(fn(a))
                and all(0 <= x < a.size() for x in fb) and fn(r[0]) == [a(x) for x in fb])

    agreed, size_one_refusals = agreement_on_pairs(6, "logical_divide", is_divide)
    assert agreed > 200 and size_one_refusals < N // 20


def test_logical_product():
    def is_product(a, b, r):
        # size |A|·|B|, first mode A, injective (products of small operands only)
        fr = fn(r) if a.size() * b.size() <= 1024 else []
        return (r.size() == a.size() * b.size() <= 1024 and fn(r[0]) == fn(a)
                and len(set(fr)) == len(fr))

    agreed, size_one_refusals = agreement_on_pairs(7, "logical_product", is_product,
                                                   injective=True, max_rank=2)
    assert agreed > 200 and size_one_refusals < N // 20


def test_compat_matches_native():
    """The compat module's algebra is the native algebra, in legacy pycute's clothes."""
    from cute_algebra import pycute as Q

    rng = random.Random(8)
    for _ in range(500):
        s, d = rand_layout(rng)
        q, n = Q.Layout(s, d), C.Layout(s, d)
        c = Q.coalesce(q)
        assert (c.shape, c.stride) == (C.coalesce(n).shape, C.coalesce(n).stride)
        ri = Q.right_inverse(q)
        assert (ri.shape, ri.stride) == (C.right_inverse(n).shape, C.right_inverse(n).stride)
        assert fn(q) == fn(n)
