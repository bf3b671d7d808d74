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


def test_malformed_requests_are_refused_before_any_gpu_work():
    # (each used to reach the GPU first, or fail with an unrelated Python error)
    import numpy as np

    a, b = FakeCAI((4, 8), "<f2"), FakeCAI((8, 5), "<f2")
    with pytest.raises(ValueError, match="letter 'm' repeats in term A"):
        cuda.contract("mm,mn->n", FakeCAI((4, 4), "<f2"), FakeCAI((4, 5), "<f2"))
    with pytest.raises(ValueError, match="letter 'x' of term A occurs in no other term"):
        cuda.contract("mkx,kn->mn", FakeCAI((4, 8, 2), "<f2"), b)
    with pytest.raises(ValueError, match="one '->'"):
        cuda.contract("mk,kn->mn->x", a, b)
    with pytest.raises(ValueError, match="'1' at position 1 of term B is not a letter"):
        cuda.contract("mk,k1->m", a, b)
    with pytest.raises(TypeError, match="the spec must be a str"):
        cuda.contract(5, a, b)
    with pytest.raises(TypeError, match="alpha must be a real number"):
        cuda.contract("mk,kn->mn", a, b, alpha="x")
    with pytest.raises(TypeError, match="dims must be a sequence of ints"):
        cuda.permute(FakeCAI((2, 3)), (1.5, 0))
    with pytest.raises(TypeError, match="dims must be a sequence of ints"):
        cuda.permute(FakeCAI((2, 3)), "10")
    # a host array is named as such, not reported as a missing GPU
    with pytest.raises(ValueError, match="not on a CUDA device"):
        cuda.permute(np.zeros((4, 4), np.float32), (1, 0))


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


# --- the fast path of matmul/contract (`_gemm_fast`), with stand-ins for torch -------------


class _Dtype:
    """Stands in for a `torch.dtype`."""

    def __init__(self, name):
        self.name = name


_BF16, _F32 = _Dtype("bf16"), _Dtype("f32")


class _Tensor:
    """Stands in for `torch.Tensor`: the five reads the fast path makes."""

    def __init__(self, shape, stride, dtype, ptr, device=0):
        self.shape, self._stride, self.dtype, self._ptr, self._dev = shape, stride, dtype, ptr, device

    def get_device(self):
        return self._dev

    def stride(self):
        return self._stride

    def data_ptr(self):
        if self._dev < 0:
            raise AssertionError("the address of a tensor not on a GPU was read")
        return self._ptr


class _Plan:
    def __init__(self):
        self.launches = []

    def gemm(self, a, b, c, alpha, beta, stream):
        self.launches.append((a, b, c, alpha, beta, stream))


@pytest.fixture
def fast(monkeypatch):
    """The fast path's torch hooks replaced by stand-ins; returns the allocations and the
    streams asked for."""
    made, streams = [], []

    def empty(shape, dtype, device):
        t = _Tensor(tuple(shape), (1, shape[0]), dtype, 0x7F0000900000 + 0x1000 * len(made))
        made.append((tuple(shape), dtype, device))
        return t

    def raw_stream(dev):
        streams.append(dev)
        return 0x5000 + dev

    monkeypatch.setattr(cuda, "_TT", _Tensor)
    monkeypatch.setattr(cuda, "_empty", empty)
    monkeypatch.setattr(cuda, "_raw_stream", raw_stream)
    monkeypatch.setattr(cuda, "_PLANS", {})
    return made, streams


def test_fast_path_launches_what_it_remembered(fast):
    _, streams = fast
    a = _Tensor((64, 32), (1, 64), _BF16, 0x7F0000100000)
    b = _Tensor((32, 48), (1, 32), _BF16, 0x7F0000200000)
    c = _Tensor((64, 48), (1, 64), _F32, 0x7F0000300000)
    spec = "mk,kn->mn"
    r, key = cuda._gemm_fast("contract", spec, a, b, c, 1.0, 0.0, None, None)
    assert r is None and key is not None  # nothing remembered yet
    plan = _Plan()
    cuda._remember(key, (plan, (64, 48), "cuda:0", _F32))
    # tensors of the same description at other addresses (same alignment): the plan, launched
    a2 = _Tensor((64, 32), (1, 64), _BF16, 0x7F0000500000)
    c2 = _Tensor((64, 48), (1, 64), _F32, 0x7F0000600010)
    r, _ = cuda._gemm_fast("contract", spec, a2, b, c2, 2, 0.5, None, None)
    assert r is c2
    assert plan.launches == [(0x7F0000500000, 0x7F0000200000, 0x7F0000600010, 2.0, 0.5, 0x5000)]
    assert streams == [0]
    # every part of the description is in the key: each change misses
    misses = [
        ("matmul", None, a, b, c),
        ("contract", "km,kn->mn", a, b, c),
        ("contract", spec, _Tensor((64, 32), (32, 1), _BF16, a._ptr), b, c),
        ("contract", spec, _Tensor((64, 32), (1, 64), _F32, a._ptr), b, c),
        ("contract", spec, _Tensor((64, 32), (1, 64), _BF16, a._ptr + 2), b, c),
        ("contract", spec, _Tensor((64, 32), (1, 64), _BF16, a._ptr, device=1), b, c),
        ("contract", spec, a, b, _Tensor((64, 48), (48, 1), _F32, c._ptr)),
        ("contract", spec, a, b, None),
    ]
    for op, s, x, y, z in misses:
        r, key = cuda._gemm_fast(op, s, x, y, z, 1.0, 0.0, None, None)
        assert r is None and key is not None, (op, s)
    assert len(plan.launches) == 1


def test_fast_path_allocates_the_remembered_output(fast):
    made, _ = fast
    a = _Tensor((64, 32), (1, 64), _BF16, 0x7F0000100000)
    b = _Tensor((32, 48), (1, 32), _BF16, 0x7F0000200000)
    plan = _Plan()
    _, key = cuda._gemm_fast("matmul", None, a, b, None, 1.0, 0.0, None, None)
    cuda._remember(key, (plan, (64, 48), "cuda:0", _BF16))
    out, _ = cuda._gemm_fast("matmul", None, a, b, None, 1.0, 0.0, None, None)
    assert isinstance(out, _Tensor) and out.shape == (64, 48)
    assert made == [((64, 48), _BF16, "cuda:0")]
    assert plan.launches[0][2] == out._ptr
    # another output type asked for is another description
    r, key = cuda._gemm_fast("matmul", None, a, b, None, 1.0, 0.0, _F32, None)
    assert r is None and key is not None
    assert len(plan.launches) == 1


def test_fast_path_refuses_what_it_cannot_describe(fast):
    a = _Tensor((4, 4), (1, 4), _BF16, 0x7F0000100000)
    cpu = _Tensor((4, 4), (1, 4), _BF16, 0, device=-1)  # its address must not be read
    _, key = cuda._gemm_fast("matmul", None, a, a, a, 1.0, 0.0, None, None)
    cuda._remember(key, (_Plan(), (4, 4), "cuda:0", _BF16))
    # not of the tensor type, not on a GPU, beta without an output, a stream given: no fast path
    # and no key (the checked path takes the call and says what is wrong)
    for args in [(FakeCAI((4, 4)), a, a, 1.0, 0.0, None, None),
                 (cpu, a, a, 1.0, 0.0, None, None),
                 (a, a, cpu, 1.0, 0.0, None, None),
                 (a, a, None, 1.0, 1.0, None, None),
                 (a, a, a, 1.0, 0.0, None, 7)]:
        assert cuda._gemm_fast("matmul", None, *args) == (None, None)


class _CaiOnly:
    """Only a shape and __cuda_array_interface__: no ``dtype`` (Numba's arrays have one, a
    hand-made wrapper need not)."""

    def __init__(self, shape, typestr="<f4", ptr=0x7F0000000000):
        self.shape = shape
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": typestr, "data": (ptr, False), "version": 3}


def _dlpack_capsule(shape, device_id=0, keep=[]):  # noqa: B006 - keeps the structures alive
    """A DLPack capsule of a CUDA f32 tensor at 0x7F0000000000 (never dereferenced here)."""
    import ctypes

    class Device(ctypes.Structure):
        _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]

    class DType(ctypes.Structure):
        _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]

    class Tensor(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("device", Device), ("ndim", ctypes.c_int32),
                    ("dtype", DType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                    ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]

    class Managed(ctypes.Structure):
        _fields_ = [("dl_tensor", Tensor), ("manager_ctx", ctypes.c_void_p),
                    ("deleter", ctypes.c_void_p)]

    sh = (ctypes.c_int64 * max(1, len(shape)))(*shape)
    m = Managed()
    m.dl_tensor.data = 0x7F0000000000
    m.dl_tensor.device = Device(2, device_id)
    m.dl_tensor.ndim = len(shape)
    m.dl_tensor.dtype = DType(2, 32, 1)
    m.dl_tensor.shape = ctypes.cast(sh, ctypes.POINTER(ctypes.c_int64))
    keep.extend([sh, m])
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(ctypes.addressof(m), b"dltensor", None)


class _Dl:
    def __init__(self, shape, device_id=0):
        self.shape, self.device_id = shape, device_id

    def __dlpack__(self, **_):
        return _dlpack_capsule(self.shape, self.device_id)


def test_descriptions_are_checked_before_the_gpu():
    # an object with no dtype is read by its interface's type, and a mismatch named by it
    with pytest.raises(ValueError, match="source of f32 and destination of f16"):
        cuda.copy_(_CaiOnly((4,), "<f2"), _CaiOnly((4,)))
    with pytest.raises(ValueError, match="out of f16 for a tensor of f32"):
        cuda.permute(_CaiOnly((2, 3)), (1, 0), out=_CaiOnly((3, 2), "<f2"))
    # a DLPack device number below 0 is refused, not read as device 0
    with pytest.raises(ValueError, match="names CUDA device -3"):
        cuda.copy_(_Dl((4,), device_id=-3), _Dl((4,)))
    with pytest.raises(ValueError, match=r"shape \(-4, 4\): an extent is negative"):
        cuda.copy_(_Dl((-4, 4)), _Dl((-4, 4)))
    with pytest.raises(ValueError, match="outside a 64-bit address space"):
        cuda.copy_(_Dl((2**62, 2**62)), _Dl((2**62, 2**62)))
    with pytest.raises(ValueError, match="not a CUDA device number"):
        x = FakeCAI((4,))
        x.device = type("Dev", (), {"id": -1})()
        cuda.copy_(x, FakeCAI((4,), ptr=0x7F0000100000))


@pytest.mark.skipif(cuda.available(), reason="a GPU is present")
def test_same_types_of_different_frameworks_agree():
    # a DeviceArray-like dtype "f32" and an interface's "<f4" are both f32: the request passes
    # every check on the Python side and reaches the driver's
    x = _CaiOnly((4,))
    with pytest.raises(cuda.CudaError, match="no CUDA device"):
        cuda.copy_(x, FakeCAI((4,), ptr=0x7F0000100000))
