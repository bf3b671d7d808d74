"""cute_algebra.pycute: legacy pycute's names and conventions, and the documented differences."""

import pytest

from cute_algebra import LayoutError
from cute_algebra import pycute as Q

legacy = pytest.importorskip("pycute", reason="legacy pycute (nvidia-cutlass, --no-deps) not installed")

LEGACY_ONLY_IMPORTS = {"reduce", "chain", "Union", "ABC"}  # helpers legacy pycute re-exports by accident


def test_exports_cover_legacy():
    names = {n for n in dir(legacy) if not n.startswith("_") and n not in LEGACY_ONLY_IMPORTS}
    names -= {"int_tuple", "layout", "swizzle", "typing"}  # submodules
    assert names - set(Q.__all__) == set()
    for name in Q.__all__:
        assert hasattr(Q, name)


def test_conventions():
    L = Q.Layout((2, 4))
    assert L.stride == (1, 2)
    assert str(L) == "(2, 4):(1, 2)" == str(legacy.Layout((2, 4)))
    assert repr(L) == repr(legacy.Layout((2, 4))) == "Layout((2, 4),(1, 2))"
    assert L(None, 1) == Q.Layout((2,), (1,))
    assert L(5) == legacy.Layout((2, 4))(5)
    assert L[1] == Q.Layout(4, 2) and len(L) == 2 and len(Q.Layout(8)) == 1
    assert Q.Layout(8)[0] == Q.Layout(8, 1)
    with pytest.raises(IndexError):
        Q.Layout(8)[1]
    assert Q.size(L) == 8 and Q.cosize(L) == 8 and Q.size((2, 3)) == 6
    assert Q.make_layout(Q.Layout(2, 1), Q.Layout(4, 2)) == L
    assert Q.make_layout([Q.Layout(2, 1), Q.Layout(4, 2)]) == L
    assert Q.is_layout(L) and not Q.is_layout(3)
    assert Q.slice_and_offset((None, 3), L) == legacy.slice_and_offset((None, 3), legacy.Layout((2, 4)))
    assert hash(L) == hash(Q.Layout((2, 4), (1, 2)))
    assert L != 3


def test_int_tuple_helpers_match_legacy():
    cases = [
        ("product", (((2, 3), 4),)), ("inner_product", (((2, 3), 4), ((2, 1), 2))),
        ("tuple_max", ((3, (7, 2)),)), ("elem_scale", ((2, 3), (4, (1, 5)))),
        ("shape_div", ((6, (3, 4)), 36)), ("prefix_product", (((2, 3), (2, 1, 2)),)),
        ("prefix_product", ((3, 2), 5)), ("idx2crd", (9, (4, 8))), ("idx2crd", (7, (2, (2, 2)))),
        ("crd2idx", ((1, 2), (4, 8))), ("crd2idx", (9, (4, 8), (8, 1))), ("crd2idx", (None, 4, 2)),
        ("crd2crd", (9, (4, 8))), ("crd2crd", ((1, 2), 32, (4, 8))), ("crd2crd", ((1, 2), (4, 8))),
        ("slice_", ((None, 2), (4, 8))), ("slice_", (((None, 1), None), ((2, 3), 4))),
        ("has_none", ((1, (None, 2)),)), ("flatten", (((1, 2), (3, (4,))),)), ("signum", (-3,)),
        ("is_int", (3,)), ("is_int", (True,)), ("is_tuple", ((1,),)),
    ]
    for name, args in cases:
        assert getattr(Q, name)(*args) == getattr(legacy, name)(*args), (name, args)


def test_legacy_asserts_become_clear_errors():
    with pytest.raises(LayoutError) as e:
        Q.shape_div(6, 4)
    assert "neither of 6 and 4 divides the other" in str(e.value) and e.value.category == "Divisibility"
    with pytest.raises(AssertionError):
        legacy.shape_div(6, 4)
    with pytest.raises(LayoutError):
        Q.inner_product((1, 2), (1, 2, 3))
    with pytest.raises(LayoutError):
        Q.crd2crd(9, 4)
    with pytest.raises(LayoutError):
        Q.crd2crd((1, 2), 32)
    with pytest.raises(LayoutError):
        Q.elem_scale((1, 2), 3)
    with pytest.raises(LayoutError):
        Q.Swizzle(3, 0, 2)
    with pytest.raises(LayoutError) as e:
        Q.coalesce(Q.Layout((2, 2)), (None, None, None))
    assert e.value.category == "ProfileMismatch" and e.value.op == "coalesce"
    with pytest.raises(LayoutError) as e:
        Q.hier_unzip(Q.logical_divide, Q.Layout(4), (Q.Layout(2), Q.Layout(2)))
    assert e.value.category == "ProfileMismatch"


def test_legacy_wrong_layouts_become_errors():
    # legacy composes (4,3):(3,3) with 6:1 into 4:3, of size 4, not the composition
    a, b = legacy.Layout((4, 3), (3, 3)), legacy.Layout(6, 1)
    r = legacy.composition(a, b)
    assert r.size() != b.size()
    with pytest.raises(LayoutError) as e:
        Q.composition(Q.Layout((4, 3), (3, 3)), Q.Layout(6, 1))
    assert e.value.category == "Divisibility"
    # and asserts on (4,6,8):(2,3,5) o 6:3, which is refused with the reason
    with pytest.raises(AssertionError):
        legacy.composition(legacy.Layout((4, 6, 8), (2, 3, 5)), legacy.Layout(6, 3))
    with pytest.raises(LayoutError) as e:
        Q.composition(Q.Layout((4, 6, 8), (2, 3, 5)), Q.Layout(6, 3))
    assert "stride-divisibility condition (9)" in str(e.value)


def test_logical_product_with_int_is_a_product():
    A = Q.Layout((2, 2), (1, 2))
    assert Q.logical_product(A, 3) == Q.logical_product(A, Q.Layout(3, 1))
    assert Q.size(Q.logical_product(A, 3)) == 12
    # legacy divides instead
    assert legacy.logical_product(legacy.Layout((2, 2), (1, 2)), 3) == \
        legacy.logical_divide(legacy.Layout((2, 2), (1, 2)), legacy.Layout(3))


def test_cosize_exact():
    L = Q.Layout((4, 2), (1, 0))
    assert Q.cosize(L) == 4
    M = Q.Layout((2, 2), (2, -1))
    assert M.cosize() == 4  # offsets -1, 0, 1, 2: the span max - min + 1
    assert legacy.Layout((2, 2), (2, -1)).cosize() == 2  # legacy: L(size-1) + 1


def test_algebra_shapes_match_legacy_where_correct():
    A = Q.Layout((8, 16), (16, 1))
    t = (Q.Layout(4, 1), Q.Layout(8, 1))
    la = legacy.Layout((8, 16), (16, 1))
    lt = (legacy.Layout(4, 1), legacy.Layout(8, 1))
    for name in ["logical_divide", "zipped_divide", "tiled_divide", "logical_product",
                 "zipped_product", "tiled_product"]:
        assert getattr(Q, name)(A, t) == getattr(legacy, name)(la, lt), name
    assert Q.hier_unzip(Q.logical_divide, A, t) == legacy.hier_unzip(legacy.logical_divide, la, lt)
    assert Q.hier_unzip(Q.logical_divide, A, None) == Q.make_layout(Q.Layout(1, 0), A)
    assert Q.composition(A, None) is A and Q.logical_divide(A, None) is A
    assert Q.logical_product(A, None) is A
    assert Q.right_inverse(None) is None and Q.left_inverse(None) is None
    assert Q.complement(Q.Layout(4, 2), 24) == legacy.complement(legacy.Layout(4, 2), 24)
    assert Q.coalesce(Q.Layout(((2, 2), (2, 2)), ((1, 2), (4, 8))), (1, 1)) == \
        legacy.coalesce(legacy.Layout(((2, 2), (2, 2)), ((1, 2), (4, 8))), (1, 1))
    # a None entry of the profile keeps its mode, as in the paper's PyCuTe (legacy pycute
    # coalesces that mode too: COMPARE.md)
    L = Q.Layout(((2, 2), (2, 2)), ((1, 2), (4, 8)))
    assert Q.coalesce(L, (1, None)) == Q.Layout((4, (2, 2)), (1, (4, 8)))
    assert Q.coalesce(L, (1, None)) == Q.make_layout(Q.coalesce(L[0]), L[1])
    assert Q.filter(Q.Layout((4, 2), (1, 0)), (1, 1)) == \
        legacy.filter(legacy.Layout((4, 2), (1, 0)), (1, 1))


def test_swizzle_and_composed_match_legacy():
    for b, m, s in [(3, 4, 3), (2, 0, -3), (1, 2, 5), (1, 0, 1)]:
        q, l = Q.Swizzle(b, m, s), legacy.Swizzle(b, m, s)
        assert (str(q), repr(q), q.size(), q.cosize()) == (str(l), repr(l), l.size(), l.cosize())
        assert (q.yyy_msk, q.zzz_msk) == (l.yyy_msk, l.zzz_msk)
        assert [q(i) for i in range(1 << 10)] == [l(i) for i in range(1 << 10)]
    # legacy's shiftr/shiftl call each other forever for a shift of 0 (so Swizzle(0,0,0) fails)
    assert [Q.Swizzle(0, 0, 0)(i) for i in range(8)] == list(range(8))
    assert Q.shiftr(5, 0) == 5 == Q.shiftl(5, 0)
    with pytest.raises(RecursionError):
        legacy.shiftr(5, 0)
    assert Q.shiftr(16, 2) == legacy.shiftr(16, 2) and Q.shiftl(1, -3) == legacy.shiftl(1, -3)
    cq = Q.ComposedLayout(Q.Swizzle(3, 0, 3), 1, Q.Layout((8, 8), (8, 1)))
    cl = legacy.ComposedLayout(legacy.Swizzle(3, 0, 3), 1, legacy.Layout((8, 8), (8, 1)))
    assert (str(cq), repr(cq), len(cq), cq.size()) == (str(cl), repr(cl), len(cl), cl.size())
    assert [cq(i) for i in range(64)] == [cl(i) for i in range(64)]
    assert cq[1](3) == cl[1](3) and cq == Q.ComposedLayout(Q.Swizzle(3, 0, 3), 1, Q.Layout((8, 8), (8, 1)))
    assert hash(cq) == hash(Q.ComposedLayout(Q.Swizzle(3, 0, 3), 1, Q.Layout((8, 8), (8, 1))))


def test_typing():
    assert isinstance(3, Q.Integer) and not isinstance(True, Q.Integer)
    assert not issubclass(float, Q.Integer) and not issubclass(str, Q.Integer)
