"""GPU kernels planned by the layout algebra, on any framework's CUDA tensors, zero copy.

The COPY kernels move any two layouts of equal size (permutations of any rank, broadcasts,
strided and negative-stride views, every element width); contractions fold their modes into one
GEMM with no permuting copy (the paper's GETT). Each plan is compiled once per process (and kept
on disk for the next process, under ``$XDG_CACHE_HOME/cute-cuda`` or ``~/.cache/cute-cuda``;
``CUTE_CUDA_CACHE=off|memory|DIR`` changes that) and launched on the framework's current stream
with the GIL released, so it orders with the framework's own work without a synchronisation.

>>> import torch, cute_algebra.cuda as cc                        # doctest: +SKIP
>>> x = torch.randn(64, 128, 32, device="cuda")                  # doctest: +SKIP
>>> y = cc.permute(x, (2, 0, 1))                                  # doctest: +SKIP
>>> torch.equal(y, x.permute(2, 0, 1).contiguous())              # doctest: +SKIP
True
>>> a = torch.randn(256, 64, device="cuda", dtype=torch.bfloat16)  # doctest: +SKIP
>>> b = torch.randn(64, 128, device="cuda", dtype=torch.bfloat16)  # doctest: +SKIP
>>> c = cc.matmul(a, b)                                            # doctest: +SKIP

Tensors: PyTorch tensors are read directly; any other object through
``__cuda_array_interface__`` (CuPy, Numba, JAX on GPU) or ``__dlpack__``. Results are allocated
in the caller's framework (PyTorch, CuPy); for other frameworks pass ``out=``.

Errors: a request the library refuses raises ``ValueError`` naming the operation, the operands
and the violated condition (sizes, types, devices, overlapping input and output, a view that
reaches past its buffer); a layout the algebra refuses raises ``cute_algebra.LayoutError``; no
usable GPU, or a failing driver, raises :class:`CudaError`. ``import cute_algebra`` never needs a
GPU: :func:`available` says whether one can be used and :func:`why` why not.
"""

import operator

from ._native import _cuda as _n

CudaError = _n.CudaError
DeviceArray = _n.DeviceArray

__all__ = [
    "CudaError",
    "DeviceArray",
    "available",
    "why",
    "copy_",
    "permute",
    "contract",
    "matmul",
    "cache_stats",
    "clear_memory_caches",
]

_probe = {}

# Plans by the description of their operands. A call whose tensors are all PyTorch CUDA tensors
# of a description seen before (shapes, strides, element types, devices, address alignment) takes
# its plan from here and launches it with the tensors' addresses: no planning, no layout checks,
# a few hundred nanoseconds of Python. The first call of a description goes the checked way and
# leaves its plan here. Bounded: emptied when full.
_PLANS = {}
_PLANS_MAX = 4096
_TT = None  # torch.Tensor, once a torch tensor has been seen
_raw_stream = None  # torch's current raw stream of a device, without a Stream object
_empty = None  # torch.empty


def _remember(key, value):
    if key is not None:
        if len(_PLANS) >= _PLANS_MAX:
            _PLANS.clear()
        _PLANS[key] = value


def _torch_seen():
    """Looks torch up once, for the fast path of later calls."""
    global _TT, _raw_stream, _empty
    import torch

    _raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    _empty = torch.empty
    _TT = torch.Tensor if _raw_stream is not None else None


def available(device=0):
    """Whether GPU `device` (an ordinal) can be used: a CUDA driver, NVRTC and the device.

    >>> isinstance(available(), bool)
    True
    """
    r = _probe.get(device)
    if r is None:
        r = _probe[device] = _n.cuda_probe(int(device))
    return r[0]


def why(device=0):
    """Why GPU `device` cannot be used (or, when it can, its name and architecture).

    >>> isinstance(why(), str)
    True
    """
    available(device)
    return _probe[device][1]


# ---------------------------------------------------------------------------------------------
# describing tensors: (address of element 0, shape, strides in elements, dtype, device, buffer
# start, buffer bytes)

_TORCH = {}  # torch dtype -> our name, filled on first use


def _torch_names(torch):
    if not _TORCH:
        for name, ours in [
            ("float32", "f32"), ("float16", "f16"), ("bfloat16", "bf16"), ("float64", "f64"),
            ("int8", "i8"), ("uint8", "u8"), ("bool", "u8"), ("int16", "i16"), ("int32", "i32"),
            ("int64", "i64"), ("float8_e4m3fn", "u8"), ("float8_e5m2", "u8"),
        ]:
            t = getattr(torch, name, None)
            if t is not None:
                _TORCH[t] = ours
    return _TORCH


def _is_torch(x):
    return type(x).__module__.startswith("torch")


def _torch_desc(x, what):
    if not x.is_cuda:
        raise ValueError(f"cute_algebra.cuda: {what} is a torch tensor on {x.device}, not on a CUDA device")
    import torch

    names = _torch_names(torch)
    name = names.get(x.dtype)
    if name is None:
        raise ValueError(f"cute_algebra.cuda: {what} has dtype {x.dtype}, which the GPU kernels do not move")
    st = x.untyped_storage()
    return (x.data_ptr(), tuple(x.shape), tuple(x.stride()), name, x.device.index or 0,
            st.data_ptr(), st.nbytes())


_TYPESTR = {
    "<f4": "f32", "<f2": "f16", "<f8": "f64", "|i1": "i8", "|u1": "u8", "|b1": "u8", "<i2": "i16",
    "<i4": "i32", "<i8": "i64", "<V2": "bf16",
}


def _itemsize(name):
    return {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i8": 1, "u8": 1, "i16": 2, "i32": 4, "i64": 8,
            "e4m3": 1, "e5m2": 1}[name]


def _generic_desc(x, what):
    """A description through `__cuda_array_interface__` or `__dlpack__`; the buffer is the extent
    the view reaches (the protocols say nothing of the allocation around it)."""
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is not None:
        name = _TYPESTR.get(cai["typestr"])
        if name is None and str(getattr(x, "dtype", "")) == "bfloat16":
            name = "bf16"
        if name is None:
            raise ValueError(f"cute_algebra.cuda: {what} has element type {cai['typestr']}, which the GPU kernels do not move")
        e = _itemsize(name)
        shape = tuple(int(s) for s in cai["shape"])
        if cai.get("strides") is None:
            strides, acc = [], 1
            for s in reversed(shape):
                strides.append(acc)
                acc *= s
            strides = tuple(reversed(strides))
        else:
            bs = cai["strides"]
            if any(b % e for b in bs):
                raise ValueError(f"cute_algebra.cuda: {what} has byte strides {bs} that are not whole {name} elements")
            strides = tuple(b // e for b in bs)
        ptr = int(cai["data"][0])
        dev = _device_of(x)
    elif hasattr(x, "__dlpack__"):
        ptr, shape, strides, name, dev = _n.dlpack_desc(x.__dlpack__())
        e = _itemsize(name)
    else:
        raise TypeError(
            f"cute_algebra.cuda: {what} is a {type(x).__name__}, not a CUDA tensor "
            "(a torch tensor, or an object with __cuda_array_interface__ or __dlpack__)")
    if any(s < 0 for s in shape):
        raise ValueError(f"cute_algebra.cuda: {what} has shape {tuple(shape)}: an extent is negative")
    if not isinstance(dev, int) or dev < 0:
        raise ValueError(f"cute_algebra.cuda: {what} names device {dev!r}, not a CUDA device number (0 or more)")
    if not 0 <= ptr < 2**64:
        raise ValueError(f"cute_algebra.cuda: {what} has the address {ptr:#x}, not a 64-bit device address")
    lo = hi = 0
    for s, d in zip(shape, strides):
        if s == 0:
            lo = hi = 0
            break
        r = (s - 1) * d
        if r < 0:
            lo += r
        else:
            hi += r
    base, nbytes = ptr + lo * e, (hi - lo + 1) * e
    if not (0 <= base and base + nbytes <= 2**64 and nbytes < 2**63):
        raise ValueError(
            f"cute_algebra.cuda: {what} of shape {tuple(shape)} and strides {tuple(strides)} at "
            f"{ptr:#x} reaches elements {lo} to {hi}: {nbytes} bytes from {base:#x}, outside a 64-bit address space")
    return (ptr, tuple(shape), tuple(strides), name, dev, base, nbytes)


def _type_of(x, desc):
    """`x`'s element type as its framework names it (its ``dtype``), else as the description does."""
    t = getattr(x, "dtype", None)
    return desc[3] if t is None else t


def _same_type(x, y, dx, dy):
    """Whether `x` and `y` hold the same element type: by their frameworks' ``dtype`` when both
    come from one framework (PyTorch tells ``bool`` from ``uint8``), else by the descriptions'
    names (a PyTorch tensor and a CuPy array of f32 agree)."""
    tx, ty = getattr(x, "dtype", None), getattr(y, "dtype", None)
    if tx is not None and type(tx) is type(ty) and not isinstance(tx, str):
        return tx == ty
    return dx[3] == dy[3]


def _device_of(x):
    dev = getattr(x, "device", None)
    if dev is None:
        return 0
    for attr in ("id", "index"):
        v = getattr(dev, attr, None)
        if isinstance(v, int):
            return v
    if callable(getattr(x, "devices", None)):  # JAX
        try:
            return next(iter(x.devices())).id
        except Exception:  # noqa: BLE001 - any failure means "not a JAX array on one device"
            return 0
    return 0


def _desc(x, what):
    if _is_torch(x):
        if _TT is None and _empty is None:
            _torch_seen()
        return _torch_desc(x, what)
    return _generic_desc(x, what)


def _stream(x, stream):
    """The stream to launch on: the caller's, else the framework's current one, else 0."""
    if stream is not None:
        return int(getattr(stream, "cuda_stream", getattr(stream, "ptr", stream)))
    mod = type(x).__module__
    if mod.startswith("torch"):
        import torch

        # the raw handle without building a Stream object (what Triton uses), else the public way
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        if raw is not None:
            return raw(x.device.index or 0)
        return torch.cuda.current_stream(x.device).cuda_stream
    if mod.startswith("cupy"):
        import cupy

        return cupy.cuda.get_current_stream().ptr
    return 0


_NAMES = {
    "float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64", "int8": "i8",
    "uint8": "u8", "int16": "i16", "int32": "i32", "int64": "i64",
}


def _empty_like(x, shape, dtype=None):
    """A new tensor of `shape` in `x`'s framework, on its device: PyTorch's and CuPy's own; for
    any other framework a :class:`DeviceArray`, handed over by :func:`_result` when written."""
    mod = type(x).__module__
    if mod.startswith("torch"):
        import torch

        return torch.empty(shape, dtype=dtype or x.dtype, device=x.device)
    if mod.startswith("cupy"):
        import cupy

        with x.device:
            return cupy.empty(shape, dtype=dtype or x.dtype)
    t = dtype if dtype is not None else getattr(x, "dtype", None)
    name = _NAMES.get(str(getattr(t, "name", t)))
    if name is None:
        raise TypeError(
            f"cute_algebra.cuda: cannot allocate a result of element type {t} for a "
            f"{type(x).__name__}; pass out=")
    return DeviceArray(list(shape), name, _device_of(x))


def _result(x, out):
    """`out`, which this module wrote, in `x`'s framework: a :class:`DeviceArray` made for a JAX
    caller becomes a JAX array through DLPack (zero copy); for other frameworks it is returned as
    it is (it has ``__dlpack__`` and ``__cuda_array_interface__``)."""
    if type(out) is DeviceArray and type(x).__module__.startswith(("jax", "jaxlib")):
        import jax.numpy as jnp

        return jnp.from_dlpack(out)
    return out


def _shape(x):
    shape = getattr(x, "shape", None)
    if shape is None:
        raise TypeError(
            f"cute_algebra.cuda: a {type(x).__name__} is not a CUDA tensor "
            "(a torch tensor, or an object with __cuda_array_interface__ or __dlpack__)")
    return tuple(int(s) for s in shape)


# ---------------------------------------------------------------------------------------------
# the operations


def copy_(dst, src, *, stream=None):
    """``dst[...] = src`` elementwise for any two views of equal shape (or `src` broadcast to
    `dst`'s shape by NumPy's rules), of the same element type; returns `dst`.

    The views may be strided, permuted, negative-strided, sub-tensors of larger buffers; the
    algebra plans the kernel (vectors, shared-memory transposes, swizzles) from the two layouts.
    `dst` must not overlap `src`.
    """
    key = None
    if type(dst) is _TT and type(src) is _TT and stream is None and dst.is_cuda and src.is_cuda:
        ps, pd = src.data_ptr(), dst.data_ptr()
        key = ("copy", src.shape, src.stride(), src.dtype, src.get_device(), ps & 15,
               dst.shape, dst.stride(), dst.dtype, dst.get_device(), pd & 15)
        plan = _PLANS.get(key)
        if plan is not None:
            plan.copy(ps, pd, _raw_stream(dst.get_device()))
            return dst
    ds, ss = _shape(dst), _shape(src)
    sd = _desc(src, "the source")
    dd = _desc(dst, "the destination")
    if not _same_type(src, dst, sd, dd):
        raise ValueError(
            f"copy_: source of {_type_of(src, sd)} and destination of {_type_of(dst, dd)}: "
            "copy_ moves elements, it does not convert types")
    if _numel(ds) == 0:
        return dst
    if ss != ds:
        sd = _broadcast(sd, ss, ds)
    _remember(key, _n.cuda_copy(sd, dd, _stream(dst, stream)))
    return dst


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _broadcast(desc, src_shape, dst_shape):
    ptr, shape, strides, name, dev, base, nbytes = desc
    if len(src_shape) > len(dst_shape):
        raise ValueError(f"copy_: the source of shape {src_shape} does not broadcast to {dst_shape}")
    pad = len(dst_shape) - len(src_shape)
    shape = (1,) * pad + tuple(shape)
    strides = (0,) * pad + tuple(strides)
    out_st = []
    for s, d, t in zip(shape, strides, dst_shape):
        if s == t:
            out_st.append(d)
        elif s == 1:
            out_st.append(0)
        else:
            raise ValueError(f"copy_: the source of shape {src_shape} does not broadcast to {dst_shape}")
    return (ptr, tuple(dst_shape), tuple(out_st), name, dev, base, nbytes)


def permute(x, dims, out=None, *, stream=None):
    """``x.permute(dims)`` made contiguous (row-major) in one kernel: the same values as
    ``x.permute(dims).contiguous()``; into `out` when given (any strides, the permuted shape).
    """
    key = None
    if (type(x) is _TT and stream is None and x.is_cuda and type(dims) in (tuple, list)
            and (out is None or type(out) is _TT and out.is_cuda)):
        p = x.data_ptr()
        dev = x.get_device()
        if out is None:
            key = ("permute", x.shape, x.stride(), x.dtype, dev, tuple(dims), p & 15)
            hit = _PLANS.get(key)
            if hit is not None:
                plan, out_shape, device = hit
                out = _empty(out_shape, dtype=x.dtype, device=device)
                po = out.data_ptr()
                if not po & 15:
                    plan.copy(p, po, _raw_stream(dev))
                    return out
                key = None
        else:
            po = out.data_ptr()
            key = ("permute", x.shape, x.stride(), x.dtype, dev, tuple(dims), p & 15,
                   out.shape, out.stride(), out.dtype, out.get_device(), po & 15)
            hit = _PLANS.get(key)
            if hit is not None:
                hit[0].copy(p, po, _raw_stream(dev))
                return out
    shape = _shape(x)
    n = len(shape)
    if isinstance(dims, (str, bytes)):
        raise TypeError(f"permute: dims must be a sequence of ints, got {type(dims).__name__} {dims!r}")
    try:
        dims = tuple(operator.index(d) for d in dims)
    except TypeError:
        raise TypeError(f"permute: dims must be a sequence of ints, got {dims!r}") from None
    norm = tuple(d + n if d < 0 else d for d in dims)
    if sorted(norm) != list(range(n)):
        raise ValueError(f"permute: dims {dims} are not a permutation of the {n} dimensions of a tensor of shape {shape}")
    out_shape = tuple(shape[d] for d in norm)
    # the input is checked (its device, its type) before anything is allocated for the result
    ptr, _, strides, name, dev, base, nbytes = _desc(x, "the input")
    if out is None:
        out = _empty_like(x, out_shape)
    elif _shape(out) != out_shape:
        raise ValueError(f"permute: out has shape {_shape(out)}, the permuted shape is {out_shape}")
    xd = (ptr, out_shape, tuple(strides[d] for d in norm), name, dev, base, nbytes)
    od = _desc(out, "out")
    if not _same_type(x, out, xd, od):
        raise ValueError(
            f"permute: out of {_type_of(out, od)} for a tensor of {_type_of(x, xd)}: "
            "permute does not convert types")
    if _numel(out_shape) == 0:
        return _result(x, out)
    plan = _n.cuda_copy(xd, od, _stream(x, stream))
    if key is not None:  # a torch tensor (the fast path's key); a DeviceArray has no .device
        _remember(key, (plan, out_shape, out.device))
    return _result(x, out)


def _gemm_fast(op, spec, a, b, out, alpha, beta, out_dtype, stream):
    """The fast path of a GEMM-like call on PyTorch tensors: `(result, key)`, where the call's
    description has a remembered plan the plan launched and `result` the output, else `result`
    None and `key` the description to remember the plan under (None: no fast path).

    A tensor not on a GPU (device -1: on the CPU, or without storage) takes the checked path and
    its error; its address is never read here.
    """
    if type(a) is not _TT or type(b) is not _TT or stream is not None:
        return None, None
    dev, db = a.get_device(), b.get_device()
    if dev < 0 or db < 0:
        return None, None
    if out is None:
        if beta != 0:
            return None, None
        pc, okey = 0, out_dtype
    elif type(out) is _TT:
        dc = out.get_device()
        if dc < 0:
            return None, None
        pc = out.data_ptr()
        okey = (out.shape, out.stride(), out.dtype, dc, pc & 15)
    else:
        return None, None
    pa, pb = a.data_ptr(), b.data_ptr()
    key = (op, spec, a.shape, a.stride(), a.dtype, dev, pa & 15,
           b.shape, b.stride(), b.dtype, db, pb & 15, okey)
    hit = _PLANS.get(key)
    if hit is None:
        return None, key
    plan, out_shape, device, dtype = hit
    if out is None:
        out = _empty(out_shape, dtype=dtype, device=device)
        pc = out.data_ptr()
        if pc & 15:
            return None, key
    plan.gemm(pa, pb, pc, float(alpha), float(beta), _raw_stream(dev))
    return out, key


def _parse_spec(spec):
    """The spec without spaces and its three terms, checked as the planner checks them (so that
    a malformed request is refused before anything touches a GPU)."""
    if type(spec) is not str:
        raise TypeError(f"contract: the spec must be a str such as 'mk,kn->mn', got {type(spec).__name__}")
    s = "".join(spec.split())
    if s.count("->") != 1:
        raise ValueError(f"contract: spec {spec!r} needs one '->' and an output term, as in 'mk,kn->mn'")
    lhs, rhs = s.split("->", 1)
    if lhs.count(",") != 1:
        raise ValueError(f"contract: spec {spec!r} needs exactly two input terms, as in 'mk,kn->mn'")
    ta, tb = lhs.split(",")
    terms = (("A", ta), ("B", tb), ("C (the output)", rhs))
    for term, letters in terms:
        for i, ch in enumerate(letters):
            if not ("a" <= ch <= "z" or "A" <= ch <= "Z"):
                raise ValueError(f"contract: spec {spec!r}: {ch!r} at position {i} of term {term} is not a letter")
            if letters.index(ch) != i:
                raise ValueError(f"contract: spec {spec!r}: letter {ch!r} repeats in term {term} "
                                 "(a diagonal), which no GEMM mode expresses")
    for term, letters in terms[:2]:
        for ch in letters:
            if sum(ch in t for _, t in terms) < 2:
                raise ValueError(f"contract: spec {spec!r}: letter {ch!r} of term {term} occurs in "
                                 "no other term (a sum over one tensor), which no GEMM mode expresses")
    return s, ta, tb, rhs


def _real(what, x):
    """`x` as a float, or a TypeError naming the argument."""
    try:
        return float(x)
    except (TypeError, ValueError):
        raise TypeError(f"contract: {what} must be a real number, got {type(x).__name__} {x!r}") from None


def contract(spec, a, b, out=None, alpha=1.0, beta=0.0, *, out_dtype=None, stream=None):
    """The einsum-style contraction ``out = alpha * einsum(spec, a, b) + beta * out`` of two
    f16 or bf16 tensors, accumulated in f32, written in `out`'s type (f32, or the operands' type;
    a new tensor of `out_dtype`, default the operands' type, when `out` is None).

    Every letter of `spec` names one dimension; letters in A and C are rows, in B and C columns, in
    A and B only summed, in all three batched. A term with no letters is a 0-d tensor (a scalar,
    as in ``"k,k->"``). The algebra folds the modes into one GEMM over
    hierarchical modes with no permuting copy, on any strides. Spaces in `spec` are ignored.
    With ``beta == 0`` `out` is not read (it may hold anything, NaN included).
    """
    if type(spec) is str:
        r, key = _gemm_fast("contract", spec, a, b, out, alpha, beta, out_dtype, stream)
        if r is not None:
            return r
    else:
        key = None
    s, ta, tb, tc = _parse_spec(spec)
    alpha, beta = _real("alpha", alpha), _real("beta", beta)
    sa, sb = _shape(a), _shape(b)
    if len(ta) != len(sa) or len(tb) != len(sb):
        raise ValueError(f"contract: {spec!r} names {len(ta)} and {len(tb)} dimensions; the tensors have shapes {sa} and {sb}")
    ext = {}
    for term, shape in ((ta, sa), (tb, sb)):
        for ch, n in zip(term, shape):
            if ext.setdefault(ch, n) != n:
                raise ValueError(f"contract: letter {ch} of {spec!r} has extents {ext[ch]} and {n}")
    missing = [ch for ch in tc if ch not in ext]
    if missing:
        raise ValueError(f"contract: output letters {missing} of {spec!r} are in neither input")
    out_shape = tuple(ext[ch] for ch in tc)
    # the operands are checked (devices, types) before anything is allocated for the result
    da, db = _desc(a, "A"), _desc(b, "B")
    if out is None:
        if beta != 0:
            raise ValueError("contract: beta != 0 needs out= (there is no C to scale)")
        out = _empty_like(a, out_shape, out_dtype)
    elif _shape(out) != out_shape:
        raise ValueError(f"contract: out has shape {_shape(out)}, {spec!r} gives {out_shape}")
    if _numel(out_shape) == 0:
        return _result(a, out)
    summed = 1
    for ch in ta:
        if ch in tb and ch not in tc:
            summed *= ext[ch]
    if summed == 0 or _numel(sa) == 0 or _numel(sb) == 0:
        # an empty sum: out = beta * out
        _scale(out, beta)
        return _result(a, out)
    plan = _n.cuda_contract(s, da, db, _desc(out, "out"), alpha, beta, _stream(out, stream))
    if key is not None:  # torch tensors (a DeviceArray or a CuPy array has no .device)
        _remember(key, (plan, out_shape, out.device, out.dtype))
    return _result(a, out)


_LETTERS = "abcdefghijlopqrstuvwxyz"  # k, m, n are the GEMM's own


def matmul(a, b, out=None, *, out_dtype=None, stream=None):
    """``a @ b`` for f16/bf16 tensors of at least 2 dimensions (batch dimensions broadcast as in
    ``torch.matmul``; a broadcast operand is read through stride 0, never copied), accumulated in
    f32, the result in `out`'s type or `out_dtype` (default the operands' type).
    """
    r, key = _gemm_fast("matmul", None, a, b, out, 1.0, 0.0, out_dtype, stream)
    if r is not None:
        return r
    sa, sb = _shape(a), _shape(b)
    if len(sa) < 2 or len(sb) < 2:
        raise ValueError(f"matmul: operands of shapes {sa} and {sb}; both need at least 2 dimensions")
    if sa[-1] != sb[-2]:
        raise ValueError(f"matmul: shapes {sa} and {sb}: {sa[-1]} columns of A against {sb[-2]} rows of B")
    ba, bb = sa[:-2], sb[:-2]
    nb = max(len(ba), len(bb))
    if nb > len(_LETTERS):
        raise ValueError(f"matmul: {nb} batch dimensions; at most {len(_LETTERS)}")
    ba = (1,) * (nb - len(ba)) + ba
    bb = (1,) * (nb - len(bb)) + bb
    batch = []
    for x, y in zip(ba, bb):
        if x != y and 1 not in (x, y):
            raise ValueError(f"matmul: batch dimensions {sa[:-2]} and {sb[:-2]} do not broadcast")
        batch.append(max(x, y))
    batch = tuple(batch)
    letters = _LETTERS[:nb]
    spec = f"{letters}mk,{letters}kn->{letters}mn"
    da = _expand(_desc(a, "A"), batch + sa[-2:])
    db = _expand(_desc(b, "B"), batch + sb[-2:])
    out_shape = batch + (sa[-2], sb[-1])
    if out is None:
        out = _empty_like(a, out_shape, out_dtype)
    elif _shape(out) != out_shape:
        raise ValueError(f"matmul: out has shape {_shape(out)}, the product is {out_shape}")
    if _numel(out_shape) == 0:
        return _result(a, out)
    if sa[-1] == 0:
        _scale(out, 0.0)
        return _result(a, out)
    plan = _n.cuda_contract(spec, da, db, _desc(out, "out"), 1.0, 0.0, _stream(out, stream))
    if key is not None:  # torch tensors (a DeviceArray or a CuPy array has no .device)
        _remember(key, (plan, out_shape, out.device, out.dtype))
    return _result(a, out)


def _scale(out, beta):
    """`out *= beta` in `out`'s framework (zeros when beta is 0, whatever `out` held)."""
    if type(out) is DeviceArray:
        return  # made here, zeroed, and only when beta is 0
    if beta == 0:
        if hasattr(out, "zero_"):
            out.zero_()
        else:
            out.fill(0)
    else:
        out *= beta


def _expand(desc, shape):
    """`desc` broadcast to `shape` (leading dimensions added, extents 1 read with stride 0)."""
    ptr, s, d, name, dev, base, nbytes = desc
    pad = len(shape) - len(s)
    s = (1,) * pad + tuple(s)
    d = (0,) * pad + tuple(d)
    d = tuple(0 if (x == 1 and y != 1) else st for x, y, st in zip(s, shape, d))
    return (ptr, tuple(shape), d, name, dev, base, nbytes)


def cache_stats(device=0):
    """What the kernel and plan caches of `device` did in this process: ``memory_hits``,
    ``disk_hits``, ``compiles``, ``compile_ms``, ``last_compile_ms``, ``plan_hits``, ``plans``,
    ``disk_dir``."""
    return _n.cuda_stats(int(device))


def clear_memory_caches(device=0):
    """Forget the plans and kernels `device` holds in memory (the disk cache stays), and the
    plans this module keeps by their operands' description."""
    _PLANS.clear()
    _n.cuda_clear_memory_caches(int(device))
