"""cute_algebra.pycute.alg (copy with layout analysis, the reference copy and gemm), typedefs and
the compositions computed through bases: the doctests of the modules tests/test_docs.py does
not list, and the properties that define each function."""

import doctest
import itertools

import pytest

from cute_algebra import pycute
from cute_algebra.pycute import (ArithTuple, E, F2, Layout, LayoutError, ScaledBasis, Tensor,
                                  composition, make_tensor, size)
from cute_algebra.pycute import alg, typedefs
from cute_algebra.pycute.alg import ref


@pytest.mark.parametrize("module", [alg, ref, typedefs], ids=lambda m: m.__name__)
def test_doctests(module):
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0


class _Log:
    """An accessor over an Array that records the offset of every store."""

    def __init__(self, inner, log=None, base=0):
        self.inner, self.log, self.base = inner, [] if log is None else log, base

    def __getitem__(self, i):
        return self.inner[i]

    def __setitem__(self, i, v):
        self.log.append(self.base + i)
        self.inner[i] = v

    def __add__(self, k):
        return _Log(self.inner + k, self.log, self.base + k)


PAIRS = [
    (Layout(8, 1), Layout(8, 1)),
    (Layout((4, 8), (8, 1)), Layout((4, 8), (1, 4))),
    (Layout((2, 3), (4, 1)), Layout(6, 1)),
    (Layout(6, 1), Layout((2, 3), (4, 1))),
    (Layout(7, 0), Layout(7, 1)),
    (Layout(7, 0), Layout(7, 0)),
    (Layout((4, (2, 3)), (1, (4, 12))), Layout((4, 6), (1, 4))),
    (Layout((4, 3, 5), (1, 7, 42)), Layout((6, 10), (1, 9))),
    (Layout((5, 7), (7, 1)), Layout((7, 5), (5, 1))),
    (Layout((5, 4), (0, 1)), Layout((5, 4), (4, 1))),
]


def _run(copy, s_layout, d_layout):
    src = make_tensor(s_layout)
    for i in range(size(s_layout)):
        src[i] = float(i)
    dst = Tensor(_Log(pycute.Array(d_layout.cosize())), d_layout)
    copy(src, dst)
    memory = [dst.accessor[k] for k in range(d_layout.cosize())]
    return dst.accessor.log, memory


@pytest.mark.parametrize("s_layout, d_layout", PAIRS, ids=str)
def test_copy_is_the_reference_copy(s_layout, d_layout):
    ref_log, ref_mem = _run(ref.copy, s_layout, d_layout)
    opt_log, opt_mem = _run(alg.copy, s_layout, d_layout)
    assert opt_mem == ref_mem                      # the same memory, byte for byte
    assert sorted(set(opt_log)) == sorted(set(ref_log)) and len(opt_log) == len(set(opt_log))


def test_copy_refuses_a_write_after_write_and_a_size_mismatch():
    src = make_tensor(Layout(4, 1))
    with pytest.raises(ValueError, match="write-after-write"):
        alg.copy(src, make_tensor(Layout(4, 0)))
    for copy in (alg.copy, ref.copy):
        with pytest.raises(ValueError, match="equal sizes"):
            copy(src, make_tensor(Layout(8, 1)))


def test_copy_writes_a_scattered_destination_in_ascending_runs():
    log, _ = _run(alg.copy, Layout(6, 1), Layout((2, 3), (4, 1)))
    assert log == [0, 1, 2, 4, 5, 6]


@pytest.mark.parametrize("M, N, K, L", [(3, 4, 5, 1), (2, 3, 4, 2), (1, 1, 1, 1)])
def test_gemm_against_the_definition(M, N, K, L):
    A, B, C = make_tensor((M, K, L)), make_tensor(Layout((N, K, L), (K, 1, N * K))), \
        make_tensor((M, N, L))
    for i in range(M * K * L):
        A[i] = i % 7 - 3
    for i in range(N * K * L):
        B[i] = i % 5 - 2
    ref.gemm(A, B, C)
    for m, n, l in itertools.product(range(M), range(N), range(L)):
        assert C[m, n, l] == sum(A[m, k, l] * B[n, k, l] for k in range(K))
    with pytest.raises(ValueError, match="reduction K"):
        ref.gemm(A, make_tensor((N, K + 1, L)), C)


@pytest.mark.parametrize("A, B", [
    (Layout((4, 4), (ArithTuple(1, 1), ArithTuple(3, 1))), Layout((4, 2), (2, 1))),
    (Layout((8, 8), (ScaledBasis(F2(1), (0,)), E(1))), Layout((4, 4), (1, 16))),
    (Layout((3, 5, 7, 11), (E(0), E(1), E(2), E(3))), Layout(3, 4 * E(2) + 2 * E(3))),
    (Layout((4, 8), (3, 42)), Layout(4, ArithTuple(1, 2))),
], ids=str)
def test_composition_through_bases_is_the_composition(A, B):
    R = composition(A, B)
    assert pycute.compatible(B.shape, R.shape)
    for i in range(size(B)):
        assert R(i) == A(B(i))


def test_register_integer_type():
    class Opaque:
        pass
    assert not isinstance(Opaque(), pycute.Integer)
    assert typedefs.register_integer_type(Opaque) is Opaque
    assert isinstance(Opaque(), pycute.Integer) and not isinstance(F2(3), pycute.Integer)
    with pytest.raises(TypeError):
        typedefs.register_integer_type(3)


def test_divides_by_a_tiler_with_none_modes_are_legacy_pycutes():
    # legacy pycute's values (nvidia-cutlass 4.x): a None mode is the tile 1:0, its whole mode the rest
    A = Layout((8, 8), (1, 8))
    assert str(pycute.zipped_divide(A, (None, Layout(2, 1)))) == "((1, 2), (8, 4)):((0, 8), (1, 16))"
    assert str(pycute.tiled_divide(A, (None, Layout(2, 1)))) == "((1, 2), 8, 4):((0, 8), 1, 16)"
    A2 = Layout((4, (6, 2)), (3, (8, 8)))
    z = pycute.zipped_divide(A2, (Layout((4, 2), (12, 4)), None))
    assert str(z) == "(((4, 2), 1), (4, (6, 2))):(((36, 12), 0), (3, (8, 8)))"
    assert z == pycute.hier_unzip(pycute.logical_divide, A2, (Layout((4, 2), (12, 4)), None))
    B = Layout((8, 16), (16, 1))
    assert str(pycute.tiled_divide(B, (None, 4))) == "((1, 4), 8, 4):((0, 1), 16, 4)"
    assert str(pycute.zipped_divide(B, (None, None))) == "((1, 1), (8, 16)):((0, 0), (16, 1))"
    # a tiler the core refuses, without coordinate strides: the core's error, not a logical divide
    with pytest.raises(LayoutError, match=r"^zipped_divide .*not injective"):
        pycute.zipped_divide(Layout((4, 6), (1, 4)), Layout((2, 2), (1, 1)))
