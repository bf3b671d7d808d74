"""Tensors over numpy arrays: views without copies, any strides, COPY, GEMM, contract."""

import threading

import numpy as np
import pytest

import cute_algebra as C
from cute_algebra import Layout, LayoutError, Tensor


def test_views_share_memory_any_strides():
    a = np.arange(24.0).reshape(4, 6)
    v = a[::-1, ::2]  # negative and non-unit strides
    t = Tensor(v)
    assert t.layout == Layout((4, 3), (-6, 2))
    for i in range(4):
        for j in range(3):
            assert t[i, j] == v[i, j]
    t[0, 0] = -1.0
    assert a[3, 0] == -1.0
    assert (t.to_numpy() == v).all()
    assert C.array_layout(np.zeros(5)) == Layout(5, 1)
    assert C.array_layout(np.zeros(())) == Layout(1, 0)


def test_slicing_partition_tiles():
    a = np.arange(64.0).reshape(8, 8)
    t = Tensor(a)
    row = t(3, None)
    assert row.to_numpy().tolist() == a[3].tolist()
    col = t[None, 5]
    assert col.to_numpy().tolist() == a[:, 5].tolist()
    tv = Layout(((4, 8), 2), ((16, 1), 8))
    for thread in range(32):
        p = C.partition(t, tv, thread)
        want = [C.composition(Layout((8, 8), (8, 1)), tv)((thread, v)) for v in range(2)]
        assert p.to_numpy().tolist() == [a.reshape(-1)[w] for w in want]
    tile = C.local_tile(t, (4, 4), (1, 1))
    assert (tile.to_numpy() == a[4:, 4:]).all()
    part = C.local_partition(t, Layout((2, 2), (2, 1)), 3)
    assert (part.to_numpy() == a[1::2, 1::2]).all()
    assert C.make_tensor(a, Layout(4, 9)).to_numpy().tolist() == [0.0, 9.0, 18.0, 27.0]
    assert C.make_tensor(a, Layout(8, 9)).to_numpy().tolist() == np.diag(a).tolist()
    assert Tensor(a).compose(Layout(8, 8)).to_numpy().tolist() == a[0].tolist()


def test_copy_between_layouts_and_overlap():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    b = np.zeros((4, 3), dtype=np.int32)
    C.copy(Tensor(a, Layout((3, 4), (4, 1))), Tensor(b, Layout((3, 4), (1, 3))))
    assert (b == a.T).all()
    x = np.arange(10.0)
    C.copy(Tensor(x, Layout(8, 1)), Tensor(x, Layout(8, 1), 2))  # overlapping shift
    assert x.tolist() == [0, 1, 0, 1, 2, 3, 4, 5, 6, 7]
    with pytest.raises(LayoutError) as e:
        C.copy(Tensor(a), Tensor(np.zeros(5, dtype=np.int32)))
    assert e.value.category == "ProfileMismatch"
    with pytest.raises(TypeError):
        C.copy(Tensor(a), Tensor(np.zeros(12)))
    ro = np.zeros(12, dtype=np.int32)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        C.copy(Tensor(a), Tensor(ro, Layout((3, 4), (4, 1))))


def test_out_of_memory_layouts_refused():
    a = np.zeros(8)
    with pytest.raises(LayoutError):
        Tensor(a, Layout(9, 1))
    with pytest.raises(LayoutError):
        Tensor(a, Layout(4, 1), 5)
    with pytest.raises(LayoutError):
        Tensor(a, Layout(4, -1))
    assert Tensor(a, Layout(4, -1), 3).to_numpy().tolist() == [0.0] * 4
    with pytest.raises(TypeError):
        Tensor([1, 2, 3])
    with pytest.raises(TypeError):
        Tensor(np.zeros(3, dtype=np.complex64))
    with pytest.raises(TypeError):
        Tensor(a, "4:1")
    unaligned = np.frombuffer(bytearray(72), dtype=np.float64, count=8, offset=1)
    with pytest.raises(ValueError) as e:
        Tensor(unaligned)
    assert "not aligned" in str(e.value)


def test_gemm():
    rng = np.random.default_rng(0)
    A, B = rng.standard_normal((5, 7)), rng.standard_normal((6, 7))
    Cm = rng.standard_normal((5, 6))
    want = Cm + A @ B.T
    C.gemm(Tensor(A), Tensor(B), Tensor(Cm))
    assert np.allclose(Cm, want)
    A32 = A.astype(np.float32)
    C32 = np.zeros((5, 5), dtype=np.float32)
    C.gemm(A32, A32, C32)
    assert np.allclose(C32, A32 @ A32.T, atol=1e-4)
    with pytest.raises(LayoutError) as e:  # C not injective
        C.gemm(Tensor(A), Tensor(B), Tensor(np.zeros(6), Layout((5, 6), (0, 1))))
    assert e.value.category == "NotInjective"


def test_contract_against_einsum():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 4, 5, 6, 2))  # s t u p r
    b = rng.standard_normal((7, 4, 2, 5))  # q t r u
    want = np.einsum("stupr,qtru->stqp", a, b)
    out = np.full((3, 4, 7, 6), np.nan)
    r = C.contract("stupr,qtru->stqp", a, b, out=out)
    assert r is out and np.allclose(out, want)
    assert np.allclose(C.contract("stupr,qtru->stqp", a, b), want)
    acc = np.ones((3, 4, 7, 6))
    C.contract("stupr,qtru->stqp", a, b, out=acc, accumulate=True)
    assert np.allclose(acc, want + 1)
    # strided and reversed views, no copies
    x = rng.standard_normal((8, 10))[::2, ::-1]
    y = rng.standard_normal((10, 3))
    assert np.allclose(C.contract("mk,kn->mn", x, y), x @ y)
    with pytest.raises(LayoutError) as e:
        C.contract("mk,kn", x, y)
    assert e.value.category == "ProfileMismatch" and e.value.op == "contract"
    with pytest.raises(LayoutError):
        C.contract("mkz,kn->mn", x, y)
    with pytest.raises(LayoutError):
        C.contract("mk,kn->mz", x, y)


def test_contract_scalar_terms():
    # a term with no letters is a scalar (a 0-d array), as in numpy.einsum
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal(37), rng.standard_normal(37)[::-1]
    r = C.contract("k,k->", x, y)
    assert r.shape == () and np.isclose(r, np.dot(x, y))
    m, n = rng.standard_normal((6, 9)), rng.standard_normal((9, 6)).T
    assert np.isclose(C.contract("ij,ij->", m, n), np.einsum("ij,ij->", m, n))
    s = np.array(2.5)
    assert np.allclose(C.contract(",i->i", s, x), 2.5 * x)
    assert np.allclose(C.contract("i,->i", x, s), 2.5 * x)
    assert np.isclose(C.contract(",->", s, np.array(-2.0)), -5.0)
    out = np.array(np.nan)
    assert C.contract("k,k->", x, y, out=out) is out and np.isclose(out, np.dot(x, y))
    # a scalar's term with a vector behind it: the kernel's check, naming the tensor
    with pytest.raises(LayoutError) as e:
        C.contract("k,k->", x, y, out=np.zeros(2))
    assert e.value.category == "ProfileMismatch" and "scalar" in str(e.value)
    with pytest.raises(LayoutError) as e:
        C.contract(",k->k", x, y)
    assert e.value.category == "ProfileMismatch" and "scalar" in str(e.value)


def test_gil_released_during_contract():
    a = np.ones((400, 400))
    done = []

    def work():
        for _ in range(5):
            C.contract("mk,kn->mn", a, a)
        done.append(1)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert done == [1, 1]


def _dtypes():
    out = [np.float16, np.int8, np.uint8, np.int16]
    try:
        import ml_dtypes
    except ImportError:
        return out
    return out + [ml_dtypes.bfloat16]


@pytest.mark.parametrize("dtype", _dtypes(), ids=lambda t: np.dtype(t).name)
def test_narrow_element_types(dtype):
    """float16, bfloat16 (ml_dtypes), int8, uint8, int16: read, write, copy between layouts (a
    transpose), any strides; products for the integer types, a clear refusal for the floats."""
    a = np.arange(12).astype(dtype).reshape(3, 4)
    t = C.Tensor(a)
    assert t.layout == Layout((3, 4), (4, 1)) and t.dtype == np.dtype(dtype)
    assert t[2, 1] == 9 and type(t[2, 1]) is (float if np.dtype(dtype).kind in "fV" else int)
    t[0, 3] = 7
    assert a[0, 3] == 7
    b = np.zeros((4, 3), dtype=dtype)
    C.copy(t, C.Tensor(b, Layout((3, 4), (1, 3))))  # b = a transposed
    assert (b.astype(np.float64) == a.T.astype(np.float64)).all()
    r = np.zeros(4, dtype=dtype)
    C.copy(C.Tensor(a[:, ::-1])(0, None), C.Tensor(r))
    assert r.astype(np.float64).tolist() == a[0, ::-1].astype(np.float64).tolist()
    x, y = np.ones((2, 3), dtype=dtype), np.full((3, 2), 2, dtype=dtype)
    if np.dtype(dtype).kind in "iu":
        assert (C.contract("mk,kn->mn", x, y) == x.astype(np.int64) @ y.astype(np.int64)).all()
    else:
        with pytest.raises(TypeError, match="not multiplied"):
            C.contract("mk,kn->mn", x, y)
    with pytest.raises(TypeError, match="element types differ"):
        C.copy(t, C.Tensor(np.zeros((3, 4), dtype=np.float32)))


def test_float16_rounding_and_bfloat16_skip():
    a = np.zeros(2, dtype=np.float16)
    t = C.Tensor(a)
    t[0] = 1.0 / 3.0
    assert a[0] == np.float16(1.0 / 3.0) and t[0] == float(np.float16(1.0 / 3.0))
    t[1] = 70000.0  # past float16's range: inf, as numpy converts
    assert np.isinf(a[1]) and np.isinf(t[1])
    ml_dtypes = pytest.importorskip("ml_dtypes")
    b = np.zeros(1, dtype=ml_dtypes.bfloat16)
    C.Tensor(b)[0] = 1.0 / 3.0
    assert b[0] == ml_dtypes.bfloat16(1.0 / 3.0)
    # another 2-byte void type is not taken for bfloat16
    with pytest.raises(TypeError, match="unsupported element type"):
        C.Tensor(np.zeros(2, dtype="V2"))
