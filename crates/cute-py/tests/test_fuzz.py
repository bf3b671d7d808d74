"""The boundary under random and hostile arguments: every call returns a value or raises
TypeError / ValueError (LayoutError) / OverflowError / IndexError; never a panic (PyO3's
PanicException is not an Exception, so it fails the test) or a crash. Every exported callable of
cute_algebra is called (test_every_exported_callable_is_fuzzed checks the list), the methods of
its classes' instances, and the compat package's callables."""

import random

import pytest

import cute_algebra as C
from cute_algebra import E, F2, Layout

ALLOWED = (TypeError, ValueError, OverflowError, IndexError)

ATOMS = [0, 1, 2, 3, 4, 8, -1, -8, 2**31, 2**62, 2**63 - 1, 2**63, -(2**63), 2**64, 10**30,
         None, True, 1.5, "4", b"x", [], (), [2, 3], object(), E(0), 2 * E(1), F2(3),
         Layout(4, 1), Layout((2, 2), (1, 2)), C.Swizzle(1, 0, 1)]


def junk(rng, depth=0):
    r = rng.random()
    if depth > 3 or r < 0.5:
        return rng.choice(ATOMS)
    n = rng.randint(0, 4)
    items = [junk(rng, depth + 1) for _ in range(n)]
    return tuple(items) if rng.random() < 0.8 else items


def call(f, *args):
    try:
        f(*args)
    except ALLOWED:
        pass


def callables(module):
    """The exported names of a module that can be called (functions and classes)."""
    return sorted(n for n in module.__all__ if callable(getattr(module, n)))


# every exported callable of cute_algebra, with how many arguments it takes at the most
NATIVE = callables(C)
NOT_ARGS = {"Tensor", "make_tensor", "partition", "local_tile", "local_partition", "copy", "gemm",
            "contract", "tensor_get", "tensor_set", "tensor_copy", "tensor_gemm",
            "tensor_contract", "array_layout"}  # arrays: test_tensor_functions_under_junk


def test_every_exported_callable_is_fuzzed():
    import cute_algebra.pycute as P

    assert len(NATIVE) > 80 and {"composition", "Layout", "swizzle_search"} <= set(NATIVE)
    assert NOT_ARGS <= set(NATIVE)
    # the tensor test calls each of NOT_ARGS (its source names them)
    import inspect

    src = inspect.getsource(test_tensor_functions_under_junk)
    assert [n for n in NOT_ARGS if f"C.{n}," not in src] == []
    assert len(callables(P)) > 35


def test_functions_under_junk():
    """Every exported callable of cute_algebra (but the array ones) with 0 to 4 junk arguments,
    and with a layout first."""
    rng = random.Random(12)
    L = Layout((4, 8), (1, 4))
    for _ in range(300):
        for name in NATIVE:
            if name in NOT_ARGS:
                continue
            f = getattr(C, name)
            for n in range(5):
                call(f, *[junk(rng) for _ in range(n)])
            for n in range(4):
                call(f, L, *[junk(rng) for _ in range(n)])


def test_methods_under_junk():
    """Every public method and dunder of the classes' instances with junk arguments."""
    rng = random.Random(15)
    objects = [Layout((4, 8), (1, 4)), Layout(4, 2 * E(1)), Layout((2, 2), (F2(1), F2(2))), E(0, 1),
               F2(5), C.Swizzle(2, 1, 3), C.ComposedLayout(C.Swizzle(1, 0, 1), 2, Layout(4, 1)),
               C.bank_conflicts(Layout((32, 32), (32, 1)), Layout((32, 1), (1, 0)), 4)]
    names = ["__call__", "__getitem__", "__eq__", "__hash__", "__len__", "__iter__", "__mul__",
             "__rmul__", "__repr__", "__str__", "__reduce__", "_repr_svg_", "_repr_png_"]
    for _ in range(400):
        for obj in objects:
            for name in [n for n in dir(obj) if not n.startswith("_")] + names:
                f = getattr(obj, name, None)
                if callable(f):
                    for n in range(3):
                        call(f, *[junk(rng) for _ in range(n)])


def test_pycute_under_junk():
    """The compat package's callables: pure Python, so a wrong argument may raise any Exception
    (as legacy pycute's would) but never crash the interpreter."""
    import cute_algebra.pycute as P

    rng = random.Random(16)
    L = P.Layout((4, 8), (1, 4))
    for _ in range(200):
        for name in callables(P):
            f = getattr(P, name)
            for args in ([junk(rng) for _ in range(rng.randint(0, 3))],
                         [L] + [junk(rng) for _ in range(rng.randint(0, 2))]):
                try:
                    f(*args)
                except Exception:
                    pass


def test_tensor_functions_under_junk():
    import numpy as np

    rng = random.Random(14)
    arrays = [np.zeros(8), np.zeros((3, 4), dtype=np.float32)[:, ::-1], np.zeros(0),
              np.zeros(4, dtype=np.int8), "array", None, 3]
    tensors = [C.Tensor(np.zeros((4, 4))), C.Tensor(np.zeros(8, dtype=np.float32), Layout(4, -2), 7),
               C.Tensor(np.zeros((2, 3), dtype=np.int64)[:, ::-1])]
    for _ in range(3000):
        arr = rng.choice(arrays)
        lay = rng.choice([Layout(4, 1), Layout(4, -1), Layout((2, 2), (1, 4)), junk(rng)])
        off = rng.choice([0, 1, -1, 3, 2**62, -(2**63)])
        t = (arr, lay, off)
        call(C.tensor_get, t, junk(rng))
        call(C.tensor_set, t, junk(rng), rng.choice([1.0, "x", None]))
        call(C.tensor_copy, t, (rng.choice(arrays), lay, off))
        call(C.tensor_contract, rng.choice(["mk,kn->mn", "a,a->", "", "->"]), t, t,
             (rng.choice(arrays), lay, off), None)
        call(C.tensor_gemm, t, t, (rng.choice(arrays), lay, off))
        call(C.array_layout, arr)
        call(C.contract, rng.choice(["mk,kn->mn", "x"]), arr, rng.choice(arrays))
        call(C.Tensor, arr, rng.choice([None, lay]), off)
        call(C.make_tensor, arr, rng.choice([None, lay, junk(rng)]), rng.choice([off, junk(rng)]))
        x = rng.choice([arr, junk(rng)] + tensors)
        call(C.partition, x, rng.choice([lay, junk(rng)]), junk(rng))
        call(C.local_tile, x, junk(rng), junk(rng))
        call(C.local_partition, x, rng.choice([lay, junk(rng)]), junk(rng))
        call(C.copy, x, rng.choice([arr, junk(rng)] + tensors))
        call(C.gemm, x, rng.choice(tensors + [arr]), rng.choice(tensors + [junk(rng)]))
        call(C.contract, rng.choice(["mk,kn->mn", "m,m->", junk(rng)]), x,
             rng.choice(tensors + [arr]), rng.choice([None, arr, junk(rng)]),
             rng.choice([False, True, junk(rng)]))
        for tensor in tensors:
            call(tensor, junk(rng))
            call(tensor.__getitem__, junk(rng))
            call(tensor.__setitem__, junk(rng), rng.choice([2.0, junk(rng)]))
            call(tensor.compose, junk(rng))
            call(tensor.to_numpy)


def test_tuple_arguments_are_blamed_on_their_operation():
    import pytest

    with pytest.raises(C.LayoutError, match=r"^size \(1099511627776,1099511627776\): integer overflow") as e:
        C.size((2**40, 2**40))
    assert (e.value.op, e.value.category) == ("size", "Overflow")
    with pytest.raises(C.LayoutError, match=r"^idx2crd shape: unsupported: empty tuples$") as e:
        C.idx2crd(5, ())
    assert (e.value.op, e.value.category) == ("idx2crd", "Unsupported")
    with pytest.raises(C.LayoutError, match=r"^crd2idx shape: unsupported: empty tuples$"):
        C.crd2idx(1, ((2, ()),))
    # a stride that leaves its shape's structure, blamed where it leaves it
    with pytest.raises(C.LayoutError, match=r"at byte 10, the stride's tuple has more modes than the shape's$") as e:
        C.Layout.parse("(2,3):(1,2,3)")
    assert e.value.category == "ProfileMismatch"


def test_integer_arguments_past_i64_name_themselves():
    import pytest

    from cute_algebra import Layout
    m = C.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    big = 2**64
    for call, name in [
        (lambda: m.partition_C(big, Layout((32, 16))), "thread"),
        (lambda: C.make_tiled_copy_A("SM75_U32x4_LDSM_N", m, big), "elem_bits"),
        (lambda: m.svg(highlight=big), "highlight"),
        (lambda: Layout((big,), (1,)), "Layout shape"),
        (lambda: Layout((4,), (big,)), "Layout stride"),
        (lambda: C.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2), (big, None, None)),
         "make_tiled_mma permutation"),
        (lambda: C.thread_coord(Layout((4, 8), (8, 1)), big), "index"),
        (lambda: C.tmem_32x32b(big), "n"),
        (lambda: C.bank_conflicts(Layout((32, 32), (32, 1)), Layout((32, 1), (1, 0)), 4, big), "vector"),
    ]:
        with pytest.raises(OverflowError, match=rf"^{name}: {big} does not fit in a signed 64-bit integer$"):
            call()
    # other wrong types keep PyO3's TypeError, which names the argument
    with pytest.raises(TypeError, match="argument 'thread'"):
        m.partition_C("x", Layout((32, 16)))
    assert C.make_tiled_copy_A("SM75_U32x4_LDSM_N", m).tiler == (32, 16)


def test_huge_values_refused_cleanly():
    import pytest

    for shape in [(2**62, 4), (2**40, 2**40)]:
        with pytest.raises(C.LayoutError) as e:
            Layout(shape)
        assert e.value.category == "Overflow"
    assert Layout(2**63 - 1).size() == 2**63 - 1
    fits = "does not fit in a signed 64-bit integer"
    with pytest.raises(OverflowError, match=rf"^Layout shape: 18446744073709551616 {fits}$"):
        Layout(2**64)
    with pytest.raises(OverflowError, match=rf"^Layout stride: 16069380442589902755… \(61 digits\) {fits}$"):
        Layout(4, 2**200)
    with pytest.raises(C.LayoutError) as e:
        Layout((2**32, 2**32), (1, 2**32))
    assert e.value.category == "Overflow"
    with pytest.raises(C.LayoutError) as e:
        Layout(4, 2**62)(3)
    assert e.value.category == "Overflow"
    deep = 1
    for _ in range(200):
        deep = (deep,)
    with pytest.raises(C.LayoutError) as e:
        Layout(deep)
    assert e.value.category == "Capacity"


CATEGORIES = {"Divisibility", "NotInjective", "OutOfRange", "ProfileMismatch", "Unsupported",
              "InvalidShape", "Overflow", "Capacity", "Syntax"}


def test_parse_garbage():
    rng = random.Random(13)
    alphabet = "()<>,:_@F0123456789- xSw"
    parsed = 0
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        for parse in (Layout.parse, C.Swizzle.parse, C.ComposedLayout.parse):
            try:
                v = parse(text)
                assert type(v).parse(str(v)) == v
                parsed += 1
            except C.LayoutError as e:
                assert e.category in CATEGORIES and "\n" not in str(e)
    assert parsed > 0


def test_pycute_refuses_what_would_fill_memory():
    # each of these once built gigabytes before failing (an int times a byte string repeats it,
    # a basis element of a huge mode index is a tuple of that many zeros)
    import cute_algebra.pycute as P

    with pytest.raises(TypeError, match="is a sequence"):
        P.product([2147483648, (), b"x"])
    with pytest.raises(ValueError, match="names mode 2147483648"):
        P.E(2147483648)
    with pytest.raises(ValueError, match="at most 65536"):
        P.shiftl(1, 2147483648)
    with pytest.raises(Exception, match="exceed the 1 GiB"):
        P.tensor.Array(1 << 31)
    assert P.product([2, (3, 4)]) == 24 and P.E(2) == (0, 0, 1) and P.shiftl(1, 3) == 8
