"""The fast paths at the Python boundary give the general paths' answers: building a layout from
plain tuples in one walk (and keeping those tuples as its shape and stride), the shape and stride
made once for results, evaluation at a full coordinate without building a tuple, the pooled
boxes, and the drop-in's cached Rust layouts (scripts/bench_python.py times them)."""

import random

import pytest

import cute_algebra as C
import cute_algebra.pycute as Q
from cute_algebra import Layout, LayoutError

from randlayouts import rand_shape


def rand_stride(rng, shape):
    if isinstance(shape, tuple):
        return tuple(rand_stride(rng, s) for s in shape)
    return rng.choice([0, 1, 2, 3, 5, 8, -1, -4, 16, 64])


def as_list(t):
    return [as_list(x) for x in t] if isinstance(t, tuple) else t


def coords(shape):
    """Every full coordinate of a shape (nested as the shape), colexicographic."""
    if not isinstance(shape, tuple):
        return [c for c in range(shape)]
    out = [()]
    for s in shape:
        out = [c + (x,) for x in coords(s) for c in out]
    return out


def test_built_layout_keeps_the_callers_tuples():
    s, d = ((2, 2), (4, 2)), ((1, 8), (2, 32))
    L = Layout(s, d)
    assert L.shape is s and L.stride is d and C.shape(L) is s
    # lists (mutable) are converted, never kept
    s2, d2 = [[2, 2], [4, 2]], [[1, 8], [2, 32]]
    M = Layout(s2, d2)
    assert M == L and M.shape == s and M.shape is not s2 and M.stride == d
    s2[0][0] = 7
    assert M.shape == s
    # an int subclass or a bool takes the general path, with its answer or its error
    with pytest.raises(TypeError):
        Layout((2, True), (1, 2))


def test_layouts_built_from_the_same_tuple_objects_are_remembered():
    # the very same tuple objects give the very same (immutable) layout back
    s, d = ((2, 2), (4, 2)), ((1, 8), (2, 32))
    a = Layout(s, d)
    assert Layout(s, d) is a
    # equal tuples made anew give an equal layout, built from them
    s2, d2 = tuple(list(s)), tuple(list(d))
    assert s2 is not s and Layout(s2, d2) == a and Layout(s2, d2).shape is s2
    # a table slot taken over by other tuples still gives each its own layout
    many = [((k + 1, 2), (1, k + 1)) for k in range(200)]
    built = [Layout(x, y) for x, y in many]
    for (x, y), lay in zip(many, built):
        assert Layout(x, y) == lay and lay.shape == x and lay.stride == y
        assert [lay(i) for i in range(lay.size())] == [C.Layout.parse(str(lay))(i)
                                                         for i in range(lay.size())]
    # a list inside a tuple is mutable: never remembered, read again each time
    inner = [4, 2]
    t, d = (inner, 3), ((1, 4), 8)
    first = Layout(t, d)
    inner[0] = 2
    second = Layout(t, d)
    assert (first.size(), second.size()) == (24, 12) and second is not first


def test_fast_build_agrees_with_parse_and_general_path():
    rng = random.Random(7)
    for _ in range(2000):
        shape = rand_shape(rng)
        stride = rand_stride(rng, shape)
        L = Layout(shape, stride)
        text = str(L)
        assert Layout.parse(text) == L
        assert L.shape == shape and L.stride == stride
        # the general path (lists) builds the same layout
        assert Layout(as_list(shape), as_list(stride)) == L


def test_result_shape_and_stride_are_made_once_and_right():
    rng = random.Random(8)
    for _ in range(500):
        shape = rand_shape(rng)
        A = Layout(shape, rand_stride(rng, shape))
        R = C.coalesce(A)
        assert R.shape is R.shape and R.stride is R.stride  # cached
        assert str(Layout(R.shape, R.stride)) == str(R)
        F = C.flatten(A)
        assert Layout(F.shape, F.stride) == F and str(F) == str(Layout.parse(str(F)))
    assert C.coalesce(Layout((4,), (1,))).shape == 4
    assert Layout.parse("(4):(1)").shape == (4,)
    assert Layout.parse("((2,(3)),4):((1,(2)),6)").stride == ((1, (2,)), 6)
    assert Layout.parse("(4,6):(1@0,1@1)").stride == (C.E(0), C.E(1))


def test_evaluation_at_full_coordinates():
    rng = random.Random(9)
    for _ in range(300):
        shape = rand_shape(rng)
        L = Layout(shape, rand_stride(rng, shape))
        cs = coords(shape)
        assert [L(c) for c in cs] == [L(i) for i in range(L.size())]
        if isinstance(shape, tuple) and len(shape) > 1:
            assert [L(*c) for c in cs] == [L(i) for i in range(L.size())]
    L = Layout(((2, 2), (4, 2)), ((1, 8), (2, 32)))
    assert L((1, 1), (3, 1)) == L(((1, 1), (3, 1))) == 47
    # a leaf out of its mode (the inner product, as CuTe evaluates it): the general path's answer
    for c in [((2, 0), (0, 0)), ((-1, 0), (0, 3)), ((0, 5), (9, 0))]:
        assert L(c) == L(*c) == L([list(m) for m in c]) == sum(
            x * d for x, d in zip([*c[0], *c[1]], [1, 8, 2, 32]))
    with pytest.raises(LayoutError):
        L((2, 0), (0, 0, 0))
    # coarser coordinates and slices still work
    assert L(1, 5) == L((1, 5)) == L(1 + 4 * 5)
    assert L((1, 1), None) == Layout(((4, 2),), ((2, 32),))
    # other strides
    assert Layout((4, 6), (C.E(0), C.E(1)))((1, 2)) == (1, 2)
    assert Layout((2, 2), (C.F2(1), C.F2(3)))((1, 1)) == 2


def test_many_layouts_through_the_pool():
    """Boxes go back to the pool when layouts die and are reused: values stay each layout's."""
    keep = [(i, Layout((i % 7 + 1, 3), (1, i % 7 + 1))) for i in range(1000)]
    del keep[::2]
    expected = [str(C.composition(Layout((8, 8), (8, 1)), Layout(k + 1, 1))) for k in range(8)]
    assert expected[1:] == [f"{k}:8" for k in range(2, 9)]
    more = [C.composition(Layout((8, 8), (8, 1)), Layout(i % 8 + 1, 1)) for i in range(1000)]
    assert all(str(L) == f"({i % 7 + 1},3):(1,{i % 7 + 1})" for i, L in keep)
    assert all(str(M) == expected[i % 8] for i, M in enumerate(more))


def test_dropin_cache_follows_assignment():
    L = Q.Layout((4, 8))
    assert Q.coalesce(L) == Q.Layout(32, 1)
    L.shape = (4, 4)  # the stride (1, 4) kept
    assert Q.coalesce(L) == Q.Layout(16, 1)
    L.stride = (4, 1)
    assert Q.coalesce(L) == Q.Layout((4, 4), (4, 1))
    R = Q.complement(Q.Layout(4, 2), 24)
    assert (R.shape, R.stride) == ((2, 3), (1, 8))
    R.stride = (1, 4)
    assert R == Q.Layout((2, 3), (1, 4)) and Q.cosize(R) == 10
    assert Q.blocked_product(Q.Layout((2, 5), (5, 1)), Q.Layout((3, 4), (1, 3))) == \
        Q.Layout(((2, 3), (5, 4)), ((5, 10), (1, 30)))
    assert Q.raked_product(Q.Layout((2, 5), (5, 1)), Q.Layout((3, 4), (1, 3))) == \
        Q.Layout(((3, 2), (4, 5)), ((10, 5), (30, 1)))
    import copy
    import pickle

    for M in (copy.copy(R), copy.deepcopy(R), pickle.loads(pickle.dumps(R))):
        assert M == R and Q.cosize(M) == 10
