"""Regression tests of API traps of the module: names that shadow Python's
builtins, `make_layout`'s signature, `None` tilers, messages that named the wrong thing, a Rust
panic reaching Python, spaces in `contract`'s spec, the size of `_repr_svg_`, layout equality and
the `left_inverse` contract. The last test drives every exported function with hostile arguments
systematically (every combination of a small pool, not a random sample)."""

import builtins
import itertools

import numpy as np
import pytest

import cute_algebra as C
from cute_algebra import E, F2, Layout, LayoutError


def test_star_import_keeps_the_builtins():
    assert set(C.__all__) & set(dir(builtins)) == set()
    ns = {}
    exec("from cute_algebra import *", ns)
    assert "slice" not in ns and "filter" not in ns
    assert ns["slice_"] is C.slice_ and ns["filter_"] is C.filter_
    assert C.filter_(Layout((4, 2, 3), (1, 0, 4))) == Layout(12, 1)
    assert C.slice_(Layout((4, 8), (1, 4)), (2, None)) == Layout((8,), (4,))


def test_version():
    assert isinstance(C.__version__, str) and C.__version__.count(".") == 2
    assert C.__version__ == C._native.__version__


def test_make_layout_shape_and_stride():
    assert str(C.make_layout((4, 8))) == "(4,8):(1,4)"  # compact column-major, as the CuTe DSL
    assert str(C.make_layout((4, 8), (8, 1))) == "(4,8):(8,1)"
    assert str(C.make_layout((4, 8), stride=(8, 1))) == "(4,8):(8,1)"
    assert str(C.make_layout(((2, 2), 3))) == "((2,2),3):((1,2),4)"
    assert str(C.make_layout(8)) == "8:1" and str(C.make_layout(8, 2)) == "8:2"
    assert C.make_layout((4, 8), (E(0), E(1))) == Layout((4, 8), (E(0), E(1)))
    # layouts: concatenated, as CuTe C++'s make_layout(layouts...)
    assert C.make_layout(Layout(4, 1), Layout(8, 4)) == Layout((4, 8), (1, 4))
    assert C.make_layout([Layout(4, 1), Layout(8, 4)]) == Layout((4, 8), (1, 4))
    for bad in [(), (1, 2, 3), ((4, 8), (1, 4), (1, 4)), (Layout(4, 1), 2)]:
        with pytest.raises(TypeError, match="make_layout"):
            C.make_layout(*bad)
    with pytest.raises(TypeError):
        C.make_layout(Layout(4, 1), stride=1)
    with pytest.raises(LayoutError):
        C.make_layout((4, 8), (1, 4, 2))


def test_none_tiler_everywhere():
    """`None` is CuTe's `_` wherever a tiler is taken, the whole tiler included; the core then
    answers as CuTe does (the zipped, tiled and flat forms refuse `_` inside a by-mode tiler, as
    C++'s `zip2_by` does)."""
    A = Layout((8, 16), (20, 1))
    for name in ["composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
                 "logical_product", "zipped_product", "tiled_product", "flat_product"]:
        f = getattr(C, name)
        assert f(A, None) == A, name
        if name in ("composition", "logical_divide", "logical_product"):
            assert f(A, (None, None)) == A, name
            assert f(A, (None, 4)) == f(A, (None, Layout(4, 1))), name
            assert f(A, (None, 4))[0] == A[0], name
        else:
            with pytest.raises(LayoutError):
                f(A, (None, 4))
    assert C.composition_mode(A, 1, None) == A


def test_int_tiler_zero_says_what_is_wrong():
    for n in [0, -4]:
        with pytest.raises(LayoutError) as e:
            C.logical_divide(Layout(8, 1), n)
        msg = str(e.value)
        assert f"the int {n} is not a layout" in msg and "at least 1" in msg, msg
        assert "got int" not in msg and e.value.category == "InvalidShape"
        assert e.value.op == "logical_divide"
    with pytest.raises(TypeError, match="expected a tiler"):
        C.logical_divide(Layout(8, 1), "4")


def test_tensor_out_of_range_names_the_users_layout():
    with pytest.raises(LayoutError) as e:
        C.Tensor(np.zeros(8), Layout(4, 4))
    msg = str(e.value)
    assert "4:4" in msg and "0..12" in msg and "8 elements" in msg, msg
    assert "1:0" not in msg
    with pytest.raises(LayoutError, match="offset 5"):
        C.Tensor(np.zeros(8), Layout(4, 1), 5)
    with pytest.raises(LayoutError, match="-1..2"):
        C.Tensor(np.zeros(8), Layout(4, 1), -1)
    assert C.Tensor(np.zeros(8), Layout(4, 2), 1)[3] == 0.0
    # negative strides of the array: its span lies below the data pointer
    a = np.arange(8.0)[::-1]
    t = C.Tensor(a, Layout(8, -1), 0)
    assert (t[0], t[7]) == (7.0, 0.0)
    with pytest.raises(LayoutError):
        C.Tensor(a, Layout(8, 1), 0)


def test_thread_coord_at_the_extremes_raises_no_panic():
    with pytest.raises(LayoutError) as e:
        C.thread_coord(Layout(2, -1), -2**63)
    assert e.value.category == "Overflow"
    assert C.thread_coord(Layout(2, -1), -2**63 + 1) in (0, 1)
    assert C.thread_coord(Layout(2, 1), -2**63) == 0


def test_contract_accepts_spaces():
    a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    for spec in ["mk, kn -> mn", " mk,kn->mn ", "m k , k n->m n"]:
        assert (C.contract(spec, a, b) == a @ b).all(), spec
    c = np.zeros((2, 4))
    C.tensor_contract("mk, kn -> mn", C.Tensor(a)._parts(), C.Tensor(b)._parts(),
                      C.Tensor(c)._parts(), 0.0)
    assert (c == a @ b).all()


def test_repr_svg_is_capped():
    small = Layout((64, 64), (1, 64))._repr_svg_()
    assert small.count('class="cell"') == 4096
    big = Layout((64, 64, 64))._repr_svg_()
    assert big.startswith("<svg") and len(big) < 2000
    assert "(64,64,64):(1,64,4096)" in big and "262144 cells" in big
    assert C.layout_svg(Layout((8, 8, 8))).count('class="cell"') == 512


def test_equality_is_equality_of_functions():
    # coalesce of 1:1 is 1:0, as CuTe C++ prints it (_1:_0); composition gives 1:1
    c, k = C.coalesce(Layout(1, 1)), C.composition(Layout(1, 1), Layout(1, 1))
    assert (str(c), str(k)) == ("1:0", "1:1")
    assert c == k and hash(c) == hash(k)
    assert Layout((4, 1), (1, 0)) == Layout((4, 1), (1, 7))
    assert hash(Layout((4, 1), (1, 0))) == hash(Layout((4, 1), (1, 7)))
    assert Layout((1, 1), (F2(1), F2(2))) == Layout((1, 1), (F2(4), F2(8)))
    # different shapes (another domain) or a different value somewhere: unequal
    assert Layout(4, 1) != Layout((4,), (1,))
    assert Layout(4, 1) != Layout(4, 2)
    assert Layout((4, 2), (1, 4)) != Layout((4, 2), (1, 5))
    assert len({Layout(1, 0), Layout(1, 1), Layout(1, 5)}) == 1


def test_left_inverse_contract():
    L = Layout((4, 2), (1, 0))  # not injective
    R = C.left_inverse(L)
    assert all(L(R(L(i))) == L(i) for i in range(L.size()))
    assert [R(L(i)) for i in range(8)] != list(range(8))
    doc = C.left_inverse.__doc__
    assert "L(R(L(i))) = L(i)" in doc and "injective" in doc
    for L in [Layout((4, 8), (8, 1)), Layout((2, 5), (22, 7)), Layout(((2, 2), 3), ((1, 12), 4))]:
        R = C.left_inverse(L)
        assert [R(L(i)) for i in range(L.size())] == list(range(L.size()))


# ---- every exported function under hostile arguments --------------------------------------

def _deep(n, leaf=2):
    x = leaf
    for _ in range(n):
        x = (x,)
    return x


HOSTILE = [
    -2**63, 2**63 - 1, -1, 0, 2**64, None, "x", 1.5, True,
    (None, None), (2**63 - 1, 2), (-2**63, -1), _deep(70), _deep(10, None), [4, (2, None)],
    Layout(2, -1), Layout((4, 8), (1, 4)), Layout((2, 2), (F2(1), F2(2))), Layout(4, E(1)),
    (Layout(2, 1), None),
]
CHEAP = HOSTILE[:7] + [None, (None, None), _deep(70), Layout(2, -1), Layout((4, 8), (1, 4))]
ARRAY_FUNCS = {"Tensor", "make_tensor", "partition", "local_tile", "local_partition", "copy",
               "gemm", "contract", "tensor_get", "tensor_set", "tensor_copy", "tensor_gemm",
               "tensor_contract", "array_layout"}


def _only_exceptions(f, args):
    try:
        f(*args)
    except Exception:
        pass
    except BaseException as e:  # a Rust panic (PanicException) or anything that is no Exception
        pytest.fail(f"{f.__name__}{args!r} raised {type(e).__name__}: {e}")


@pytest.mark.parametrize("name", sorted(n for n in C.__all__ if callable(getattr(C, n))))
def test_every_function_raises_only_exceptions(name):
    """Every combination of hostile values for one and two arguments, and of a smaller pool for
    three; only `Exception` subclasses may come out (PyO3's PanicException is a BaseException)."""
    f = getattr(C, name)
    _only_exceptions(f, ())
    for x in HOSTILE:
        _only_exceptions(f, (x,))
    for x, y in itertools.product(HOSTILE, repeat=2):
        _only_exceptions(f, (x, y))
    for args in itertools.product(CHEAP, repeat=3):
        _only_exceptions(f, args)
    if name in ARRAY_FUNCS:
        arrays = [np.zeros(8), np.zeros((3, 4), dtype=np.float32)[:, ::-1], np.zeros(0)]
        for arr in arrays:
            for lay, off in itertools.product(HOSTILE[:4] + [Layout(4, -1), Layout(2, 2**62)],
                                              [0, -2**63, 2**63 - 1]):
                t = (arr, lay, off)
                for args in [(arr,), (arr, lay, off), (t, 0), (t, -2**63), (t, t),
                             (t, t, t), ("mk,kn->mn", t, t, t, None), (t, 0, 1.0)]:
                    _only_exceptions(f, args)
