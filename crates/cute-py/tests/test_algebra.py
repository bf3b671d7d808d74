"""The algebra under CuTe's names: values from the paper and CuTe's documentation, each checked
against the operation's definition by evaluation where that is short."""

import pytest

import cute_algebra as C
from cute_algebra import Layout, LayoutError


def fn(L):
    return [L(i) for i in range(L.size())]


def test_coalesce_filter():
    L = Layout((2, (1, 6)), (1, (6, 2)))
    assert C.coalesce(L) == Layout(12, 1) and fn(C.coalesce(L)) == fn(L)
    P = Layout(((2, 2), (2, 2)), ((1, 2), (4, 8)))
    assert C.coalesce(P, (None, 1)) == Layout(((2, 2), 4), ((1, 2), 4))
    assert C.filter_(Layout((4, 2, 3), (1, 0, 4))) == Layout(12, 1)
    assert C.filter_(Layout((4, 2), (1, 0)), (None, 1)) is not None
    assert C.filter_zeros(Layout((4, 2), (1, 0))) == Layout((4, 1), (1, 0))
    assert C.coalesce_z(Layout((2, 1, 6, 1), (1, 7, 8, 0))) == Layout((2, 6, 1), (1, 8, 0))


def test_composition():
    A, B = Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1))
    R = C.composition(A, B)
    assert R == Layout(((2, 2), 3), ((24, 2), 8))
    assert fn(R) == [A(B(i)) for i in range(B.size())]
    T = Layout((8, 16), (20, 1))
    assert C.composition(T, (Layout(4, 1), Layout(8, 2))) == Layout((4, 8), (20, 2))
    assert C.composition(T, (4, 8)) == Layout((4, 8), (20, 1))
    assert C.composition(T, (None, Layout(8, 2))) == Layout((8, 8), (20, 2))
    assert C.composition(T, None) == T
    assert C.with_shape(Layout(24, 2), (4, 6)) == Layout((4, 6), (2, 8))
    assert C.composition_mode(Layout((4, 8), (1, 4)), 1, Layout(4, 2)) == Layout((4, 4), (1, 8))


def test_composition_refused():
    with pytest.raises(LayoutError) as e:
        C.composition(Layout((4, 6, 8), (2, 3, 5)), Layout(6, 3))
    assert e.value.category == "Divisibility" and e.value.op == "composition"
    assert str(e.value) == (
        "composition (4,6,8):(2,3,5) ∘ 6:3: stride-divisibility condition (9) fails at mode 1 of "
        "the coalesced left operand: stride 3 and prefix product 4 divide neither way; decided "
        "exactly, no layout compatible with the right operand computes A∘B: along leaf 0 of B, "
        "A(B(c)) at c = 2·u is a progression for u < 2 but not at u = 2, so every such layout has "
        "a mode boundary at c = 4, which does not divide the extent 6")
    assert isinstance(e.value, ValueError)


def test_complement_and_inverses():
    assert C.complement(Layout(4, 2), 24) == Layout((2, 3), (1, 8))
    assert C.complement(Layout((2, 2), (1, 6)), (4, 6)) is not None
    assert C.complement(Layout(4, 2)) == Layout((2, 1), (1, 8))  # C++: (_2,_1):(_1,_8)
    L = Layout((4, 8), (8, 1))
    R = C.right_inverse(L)
    assert R == Layout((8, 4), (4, 1)) and all(L(R(i)) == i for i in range(R.size()))
    Li = C.left_inverse(L)
    assert all(Li(L(i)) == i for i in range(L.size()))
    with pytest.raises(LayoutError) as e:
        C.complement(Layout((2, 2), (1, 1)))
    assert e.value.category == "NotInjective"


def test_divides():
    A = Layout((8, 16), (20, 1))
    t = (Layout(4, 1), Layout(8, 2))
    assert C.logical_divide(A, t) == Layout(((4, 2), (8, 2)), ((20, 80), (2, 1)))
    assert C.zipped_divide(A, t) == Layout(((4, 8), (2, 2)), ((20, 2), (80, 1)))
    assert C.tiled_divide(A, (4, 8)) == Layout(((4, 8), 2, 2), ((20, 1), 80, 8))
    assert C.flat_divide(A, (4, 8)) == Layout((4, 8, 2, 2), (20, 1, 80, 8))
    assert C.logical_divide(Layout(16, 1), Layout(4, 2)) == Layout((4, (2, 2)), (2, (1, 8)))
    assert C.logical_divide(Layout(16, 1), 4) == Layout((4, 4), (1, 4))
    with pytest.raises(LayoutError) as e:
        C.logical_divide(Layout((4, 6, 8), (2, 3, 5)), Layout(6, 3))
    assert e.value.category == "Divisibility" and e.value.op == "logical_divide"


def test_products():
    A = Layout((2, 2), (4, 1))
    assert C.logical_product(A, Layout(6, 1)) == Layout(((2, 2), (2, 3)), ((4, 1), (2, 8)))
    a, b = Layout((2, 5), (5, 1)), Layout((3, 4), (1, 3))
    bp = C.blocked_product(a, b)
    rp = C.raked_product(a, b)
    assert bp == Layout(((2, 3), (5, 4)), ((5, 10), (1, 30)))
    assert rp == Layout(((3, 2), (4, 5)), ((10, 5), (30, 1)))
    assert sorted(fn(bp)) == list(range(120)) == sorted(fn(rp))
    t = (Layout(3, 1), Layout(4, 1))
    assert C.zipped_product(a, t) == Layout(((2, 5), (3, 4)), ((5, 1), (1, 5)))
    assert C.tiled_product(a, t) == Layout(((2, 5), 3, 4), ((5, 1), 1, 5))
    assert C.flat_product(a, t) == Layout((2, 5, 3, 4), (5, 1, 1, 5))
    assert C.tile_to_shape(Layout((2, 2), (1, 2)), (4, 6)) == \
        Layout(((2, 2), (2, 3)), ((1, 4), (2, 8)))
    with pytest.raises(LayoutError):
        C.tile_to_shape(Layout((2, 2), (1, 2)), (3, 6))


def test_vectors_kernels_casts():
    assert C.max_common_vector(Layout((4, 8), (1, 4)), Layout((4, 8), (1, 8))) == 4
    assert C.max_common_layout(Layout((4, 8), (1, 4)), Layout((4, 8), (1, 8))) == Layout(4, 1)
    K = C.nullspace(Layout((4, 2, 3), (1, 0, 4)))
    L = Layout((4, 2, 3), (1, 0, 4))
    assert all(L(K(i)) == 0 for i in range(K.size()))
    assert C.domain_distribute((4, 8), 8) == Layout(8, 1)
    assert C.upcast(Layout((4, 8), (1, 4)), 2) == Layout((2, 8), (1, 2))
    assert C.downcast(Layout((4, 8), (1, 4)), 2) == Layout((8, 8), (1, 8))
    assert C.recast(Layout((4, 8), (1, 4)), 1, 2) == Layout((8, 8), (1, 8))
    assert C.recast(Layout((4, 8), (1, 4)), 2) == Layout((2, 8), (1, 2))
    assert C.layout_add(Layout((4, 8), (1, 0)), Layout((4, 8), (0, 4))) == Layout(32, 1)
    assert C.greatest_common_domain((4, 6), (8, 3)).size() == 24
    with pytest.raises(LayoutError):
        C.upcast(Layout((3, 8), (1, 3)), 2)


def test_partitions():
    assert C.local_tile(Layout((8, 16), (16, 1)), (4, 8), (1, 1)) == (Layout((4, 8), (16, 1)), 72)
    lay, off = C.local_partition(Layout((8, 8), (1, 8)), Layout((4, 2), (1, 4)), 5)
    assert (lay, off) == (Layout((2, 4), (4, 16)), 9)
    data, tv = Layout((8, 8), (8, 1)), Layout(((4, 8), 2), ((16, 1), 8))
    lay, off = C.tv_partition(data, tv, 1)
    assert off == C.composition(data, tv)((1, 0))
    shape, tvl = C.make_layout_tv(Layout((4, 8), (1, 4)), Layout((2, 1)))
    assert shape == (8, 8) and tvl.size() == 64
    assert C.thread_coord(Layout((4, 8), (8, 1)), 9) == (1, 1)
    with pytest.raises(LayoutError) as e:
        C.local_partition(Layout((8, 8)), Layout((4, 2)), 8)
    assert e.value.category == "OutOfRange"


def test_banks_and_swizzle_search():
    smem = Layout((32, 32), (32, 1))
    col = Layout((32, 1), (1, 0))
    r = C.bank_conflicts(smem, col, 4)
    assert (r.instructions, r.total, r.ideal_total, r.conflict_free) == (1, 32, 1, False)
    assert r.wavefronts == [32] and r.ideal == [1] and "BankReport" in repr(r)
    row = Layout((32, 1), (32, 0))
    assert C.bank_conflicts(smem, row, 4).conflict_free
    s = C.swizzle_search(smem, [col, row], 4)
    assert s.conflict_free and s.tried >= 1 and "SwizzleSearch" in repr(s)
    assert all(rep.conflict_free for rep in s.reports)
    assert C.bank_conflicts(s.layout, col, 4).conflict_free
    assert C.swizzle_search(smem, col, 4).conflict_free
    with pytest.raises(LayoutError) as e:
        C.bank_conflicts(smem, Layout((16, 1)), 4)
    assert e.value.category == "ProfileMismatch"
    with pytest.raises(LayoutError):
        C.bank_conflicts(smem, col, 3)
    with pytest.raises(TypeError):
        C.bank_conflicts("smem", col, 4)
    with pytest.raises(LayoutError):
        C.swizzle_search(smem, [], 4)


def test_tmem():
    assert C.tmem_32x32b(4).size() == 512
    assert C.tmem_16x256b(1).size() > 0
    with pytest.raises(LayoutError):
        C.tmem_32x32b(0)
