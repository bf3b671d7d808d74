"""cute_algebra.pycute with sympy leaves (the paper's PyCuTe's symbolic shapes and strides),
computed by the symbolic core: the answers the paper's PyCuTe tests ask for, refusals that name
the unknown and the condition, and every answer checked at admissible values of the symbols
against the integer operation (the same function; for right_inverse, a right inverse)."""

import itertools

import pytest

sympy = pytest.importorskip("sympy")

from cute_algebra import LayoutError  # noqa: E402
from cute_algebra.pycute import (  # noqa: E402
    Integer, Layout, blocked_product, coalesce, coalesce_z, complement, composition, crd2idx,
    left_inverse, logical_divide, logical_product, make_layout_like, make_ordered_layout,
    right_inverse, size, zipped_divide,
)

N, M, X, Y = sympy.symbols("N M X Y", positive=True, integer=True)
SYMS = (N, M, X, Y)


def test_coalesce_keeps_static_extents_out_of_symbolic_products():
    assert coalesce(Layout((2, 4), (X, 2 * X))) == Layout(8, X)
    assert coalesce(Layout((2, 3, 4), (X, 2 * X, 6 * X))) == Layout(24, X)
    assert coalesce(Layout((2, 4), (X, 3 * X))) == Layout((2, 4), (X, 3 * X))
    for op in (coalesce, coalesce_z):
        assert op(Layout((4, N), (1, 4))) == Layout((4, N), (1, 4))
        assert op(Layout((N, 4), (1, N))) == Layout((N, 4), (1, N))
        assert op(Layout((N, M), (1, N))) == Layout(N * M, 1)
        assert op(Layout((1, N), (X, Y))) == Layout(N, Y)
    # the result holds the caller's symbols (it compares equal to expressions of them)
    r = coalesce(Layout((N, M), (1, N)))
    assert r.shape == M * N and r.shape.free_symbols == {M, N}


def test_right_inverse_is_an_inverse_for_every_value():
    assert right_inverse(Layout((4, N), (1, 4))) == Layout((4, N), (1, 4))
    assert right_inverse(Layout((N, 4), (1, N))) == Layout((N, 4), (1, N))
    assert right_inverse(Layout((N, M), (1, N))) == Layout(N * M, 1)
    # X may be 1 or not: only offset 0 maps back for every X
    assert right_inverse(Layout(N, X)) == Layout(1, 0)


def test_refusals_name_the_unknown_and_the_condition():
    with pytest.raises(LayoutError, match=r"needs N divisible by 4 or dividing 4"):
        composition(Layout((N, 8), (X, Y)), Layout(4, 1))
    with pytest.raises(LayoutError, match=r"needs N > 1"):
        complement(Layout(N, X))
    with pytest.raises(LayoutError, match=r"not a product"):
        coalesce(Layout((N + 1, 4)))
    with pytest.raises(LayoutError, match=r"two different sympy symbols are named N"):
        composition(Layout(N, 1), Layout(sympy.Symbol("N"), 1))


def test_make_layout_like_orders_symbolic_strides_last():
    assert make_layout_like(Layout((2, N, 4), (1, X, 2))) == Layout((2, N, 4), (1, 8, 2))
    assert make_layout_like(Layout((N, M), (X, Y))) == Layout((N, M), (1, N))
    assert make_ordered_layout((2, 3, 4, 5), (2, X, Y, 50)) == Layout((2, 3, 4, 5), (1, 10, 30, 2))


def test_integer_includes_sympy_expressions_but_not_fractions():
    x = sympy.Symbol("x")
    assert isinstance(x, Integer) and isinstance(4 * x, Integer)
    assert not isinstance(sympy.Float(1.5), Integer)
    assert not isinstance(sympy.Rational(1, 2), Integer)


def _value(x, env):
    if isinstance(x, tuple):
        return tuple(_value(y, env) for y in x)
    v = sympy.sympify(x).subs(env)
    assert v.is_Integer, (x, env)
    return int(v)


def _at(layout, env):
    return Layout(_value(layout.shape, env), _value(layout.stride, env))


def _offsets(layout, n):
    return [crd2idx(i, layout.shape, layout.stride) for i in range(n)]


# operands with symbolic extents and strides (a symbol in a stride only where it is a stride)
A_CASES = [
    Layout((4, N), (1, 4)), Layout((N, 4), (1, N)), Layout((N, M), (1, N)),
    Layout((2, 4), (X, 2 * X)), Layout((12, N), (X, Y)), Layout((8, N), (1, 8)),
    Layout((N, (2, M)), (1, (N, 2 * N))), Layout((4, N), (N, 1)), Layout(N, X),
    Layout((2, N, 4), (1, 2, 2 * N)), Layout((N, 1), (1, 7)),
]
B_CASES = [Layout(4, 1), Layout((2, 2), (2, 1)), Layout(6, 4), Layout(2, 1), Layout(8, 1)]
VALUES = [1, 2, 3, 4, 8]


def _envs(layouts):
    names = sorted({s for l in layouts for s in sympy.sympify(
        sympy.Tuple(*_flat(l.shape), *_flat(l.stride))).free_symbols}, key=str)
    for vals in itertools.product(VALUES, repeat=len(names)):
        yield dict(zip(names, vals))


def _flat(x):
    return [y for z in x for y in _flat(z)] if isinstance(x, tuple) else [x]


def _same_function(got, want, what):
    assert size(got) == size(want), what
    n = min(size(want), 256)
    assert _offsets(got, n) == _offsets(want, n), what


def test_answers_agree_with_the_integer_operations_at_admissible_values():
    checked = 0
    unary = [("coalesce", coalesce), ("coalesce_z", coalesce_z), ("complement", complement),
             ("left_inverse", left_inverse)]
    for a in A_CASES:
        for name, op in unary:
            try:
                r = op(a)
            except LayoutError as e:
                assert e.category in ("Condition", "Unsupported"), (name, a, e)
                continue
            for env in _envs([a]):
                sa, sr = _at(a, env), _at(r, env)
                _same_function(sr, op(sa), (name, a, r, env))
                checked += 1
        try:
            r = right_inverse(a)
        except LayoutError:
            r = None
        if r is not None:
            for env in _envs([a]):
                sa, sr = _at(a, env), _at(r, env)
                assert size(sr) <= size(right_inverse(sa))
                for i in range(min(size(sr), 256)):
                    assert sa(sr(i)) == i, (a, r, env, i)
                checked += 1
        for b in B_CASES:
            for name, op in [("composition", composition), ("logical_divide", logical_divide),
                             ("logical_product", logical_product)]:
                try:
                    r = op(a, b)
                except LayoutError as e:
                    assert e.category in ("Condition", "Unsupported"), (name, a, b, e)
                    continue
                for env in _envs([a]):
                    sa, sr = _at(a, env), _at(r, env)
                    _same_function(sr, op(sa, b), (name, a, b, r, env))
                    checked += 1
    assert checked > 500, checked


def test_products_with_symbolic_operands():
    r = blocked_product(Layout((2, 2), (1, 2)), Layout((M, N), (1, M)))
    assert r == Layout(((2, M), (2, N)), ((1, 4), (2, 4 * M)))
    with pytest.raises(LayoutError, match="ranks differ"):
        blocked_product(Layout((2, 2), (1, 2)), Layout(N, 1))


def test_a_divide_that_does_not_divide_pads_as_cute_does():
    # the paper's PyCuTe's test_layout_with_sympy_2: ⌈M/128⌉ tiles, the last partly outside M
    t = zipped_divide(Layout((M, N), (X, Y)), (128, 512))
    assert t.shape == ((128, 512), ((128 + M - 1) // 128, (512 + N - 1) // 512))
    assert t.stride == ((X, Y), (128 * X, 512 * Y))
    r = zipped_divide(Layout(M, 1), Layout(8, 1))
    for m in range(1, 40):
        got, want = _at(r, {M: m}), zipped_divide(Layout(m, 1), Layout(8, 1))
        assert [size(got[i]) for i in range(2)] == [size(want[i]) for i in range(2)], m
        _same_function(got, want, m)
