"""cute_algebra.cuda without a GPU (as CI runs it): importing works, `available()` is False and
`why()` says why, and every entry point refuses what it cannot take with a clear exception before
touching a GPU. On a machine with a GPU and PyTorch, the module's results are checked against
PyTorch by scripts/gpu_python_check.py (BENCHMARKS.md)."""

import pytest

import cute_algebra
from cute_algebra import cuda


def test_import_needs_no_gpu():
    assert cute_algebra.cuda is cuda
    assert isinstance(cuda.available(), bool)
    assert isinstance(cuda.why(), str) and cuda.why()
    assert issubclass(cuda.CudaError, RuntimeError)
    # nothing of the GPU module leaks into the top-level namespace
    assert not any(n.startswith("cuda_") for n in dir(cute_algebra))
    assert set(cuda.__all__) <= set(dir(cuda))


@pytest.mark.skipif(cuda.available(), reason="a GPU is present")
def test_without_a_gpu_why_says_so():
    assert "no CUDA device" in cuda.why()
    with pytest.raises(cuda.CudaError, match="no CUDA device"):
        cuda.cache_stats()


class FakeCAI:
    """An object with only __cuda_array_interface__ (as CuPy or Numba give it)."""

    def __init__(self, shape, typestr="<f4", strides=None, ptr=0x7F0000000000):
        self.shape = shape
        self.dtype = typestr
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": typestr, "data": (ptr, False), "strides": strides,
            "version": 3,
        }


def test_refusals_before_any_gpu_work():
    with pytest.raises(TypeError, match="not a CUDA tensor"):
        cuda.copy_(object(), object())
    with pytest.raises(ValueError, match="does not convert types"):
        cuda.copy_(FakeCAI((4,), "<f4"), FakeCAI((4,), "<f2"))
    with pytest.raises(ValueError, match="not a permutation"):
        cuda.permute(FakeCAI((2, 3)), (0, 0), out=FakeCAI((2, 2)))
    with pytest.raises(ValueError, match="out has shape"):
        cuda.permute(FakeCAI((2, 3)), (1, 0), out=FakeCAI((2, 3)))
    with pytest.raises(TypeError, match="pass out="):
        cuda.permute(FakeCAI((2, 3)), (1, 0))
    with pytest.raises(ValueError, match="does not broadcast"):
        cuda.copy_(FakeCAI((4, 3)), FakeCAI((2, 3)))
    with pytest.raises(ValueError, match="element type <c8"):
        cuda.copy_(FakeCAI((4,), "<c8"), FakeCAI((4,), "<c8"))
    with pytest.raises(ValueError, match="whole f32 elements"):
        cuda.copy_(FakeCAI((4,), strides=(6,)), FakeCAI((4,), strides=(6,)))


def test_contract_and_matmul_check_their_shapes():
    a, b = FakeCAI((4, 8), "<f2"), FakeCAI((8, 5), "<f2")
    with pytest.raises(ValueError, match="'->'"):
        cuda.contract("mk,kn", a, b)
    with pytest.raises(ValueError, match="letter k"):
        cuda.contract("mk, kn -> mn", a, FakeCAI((7, 5), "<f2"))
    with pytest.raises(ValueError, match="needs out="):
        cuda.contract("mk,kn->mn", a, b, beta=1.0)
    with pytest.raises(ValueError, match="columns of A"):
        cuda.matmul(a, FakeCAI((7, 5), "<f2"))
    with pytest.raises(ValueError, match="do not broadcast"):
        cuda.matmul(FakeCAI((2, 4, 8), "<f2"), FakeCAI((3, 8, 5), "<f2"))
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        cuda.matmul(FakeCAI((8,), "<f2"), b)


@pytest.mark.skipif(cuda.available(), reason="a GPU is present")
def test_well_formed_requests_reach_the_driver_check():
    # everything checked on the Python side passes; the native side reports the missing GPU
    with pytest.raises(cuda.CudaError, match="no CUDA device"):
        cuda.copy_(FakeCAI((4, 3)), FakeCAI((4, 3), ptr=0x7F0000100000))
    with pytest.raises(cuda.CudaError, match="no CUDA device"):
        cuda.matmul(FakeCAI((4, 8), "<f2"), FakeCAI((8, 5), "<f2", ptr=0x7F0000100000),
                    out=FakeCAI((4, 5), "<f4", ptr=0x7F0000200000))


def test_device_array_checks_before_the_gpu():
    with pytest.raises(ValueError, match="negative extent -2"):
        cuda.DeviceArray([3, -2], "f32")
    with pytest.raises(ValueError, match="element type c64"):
        cuda.DeviceArray([3], "c64")
    with pytest.raises(ValueError, match="overflows"):
        cuda.DeviceArray([1 << 40, 1 << 40], "f32")


@pytest.mark.skipif(cuda.available(), reason="a GPU is present")
def test_results_for_other_frameworks_are_device_arrays():
    # a framework this module cannot allocate for (a dtype named as NumPy names it) gets a
    # DeviceArray, which needs the GPU; without one, the driver check says so
    with pytest.raises(cuda.CudaError, match="no CUDA device"):
        cuda.DeviceArray([4], "bf16")
    x = FakeCAI((2, 3))
    x.dtype = "float32"
    with pytest.raises(cuda.CudaError, match="no CUDA device"):
        cuda.permute(x, (1, 0))


class _FakeNative:
    """Stands in for the native GPU entry points (`cuda_copy`, `cuda_contract`): records what the
    Python side hands over and returns a plan-like object, so that everything after the native
    call (remembering plans, choosing the result) runs on a machine with no GPU."""

    def __init__(self, real):
        self.real, self.calls = real, []

    def __getattr__(self, name):
        return getattr(self.real, name)

    def cuda_copy(self, src, dst, stream):
        self.calls.append(("copy", src, dst, stream))
        return object()

    def cuda_contract(self, spec, a, b, c, alpha, beta, stream):
        self.calls.append(("contract", spec, a, b, c, alpha, beta, stream))
        return object()


def test_every_entry_point_runs_past_the_native_call(monkeypatch):
    fake = _FakeNative(cuda._n)
    monkeypatch.setattr(cuda, "_n", fake)
    f2 = lambda shape, ptr: FakeCAI(shape, "<f2", ptr=ptr)  # noqa: E731
    out = FakeCAI((3, 2), ptr=0x7F0000300000)
    assert cuda.permute(FakeCAI((2, 3)), (1, 0), out=out) is out
    assert cuda.copy_(out, FakeCAI((3, 2), ptr=0x7F0000400000)) is out
    c = FakeCAI((4, 5), "<f4", ptr=0x7F0000500000)
    assert cuda.contract("mk,kn->mn", f2((4, 8), 0x7F0000100000), f2((8, 5), 0x7F0000200000),
                         out=c, alpha=2.0) is c
    assert cuda.matmul(f2((4, 8), 0x7F0000100000), f2((8, 5), 0x7F0000200000), out=c) is c
    kinds = [call[0] for call in fake.calls]
    assert kinds == ["copy", "copy", "contract", "contract"]
    # the permuted source: the input's strides in the new order, the output's own
    _, src, dst, _ = fake.calls[0]
    assert (src[1], src[2]) == ((3, 2), (1, 3)) and (dst[1], dst[2]) == ((3, 2), (2, 1))
    # contract hands over alpha and beta as given, and the shapes as the spec names them
    _, spec, a, b, cd, alpha, beta, _ = fake.calls[2]
    assert (spec, a[1], b[1], cd[1], alpha, beta) == ("mk,kn->mn", (4, 8), (8, 5), (4, 5), 2.0, 0.0)
