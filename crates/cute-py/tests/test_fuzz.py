"""The boundary under random and hostile arguments: every call returns a value or raises
TypeError / ValueError (LayoutError) / OverflowError / IndexError; never a panic or a crash."""

import random

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


FUNCS_1 = ["size", "cosize", "rank", "depth", "shape", "stride", "flatten", "coalesce", "filter",
           "filter_zeros", "coalesce_z", "complement", "right_inverse", "left_inverse", "nullspace",
           "make_identity_layout", "compact_col_major", "compact_row_major", "product",
           "product_each", "prefix_product", "image", "make_layout"]
FUNCS_2 = ["composition", "with_shape", "complement", "logical_divide", "zipped_divide",
           "tiled_divide", "flat_divide", "logical_product", "zipped_product", "tiled_product",
           "flat_product", "blocked_product", "raked_product", "tile_to_shape",
           "max_common_vector", "max_common_layout", "domain_distribute", "upcast", "downcast",
           "recast", "layout_add", "greatest_common_domain", "make_ordered_layout", "idx2crd",
           "crd2idx", "congruent", "weakly_congruent", "compatible", "slice", "dice",
           "slice_and_offset", "coalesce", "filter", "make_layout", "thread_coord"]
FUNCS_3 = ["crd2idx", "crd2crd", "local_tile", "local_partition", "tv_partition",
           "composition_mode", "bank_conflicts", "swizzle_search", "recast"]


def test_constructors_under_junk():
    rng = random.Random(11)
    for _ in range(4000):
        call(Layout, junk(rng))
        call(Layout, junk(rng), junk(rng))
        call(Layout.parse, str(junk(rng)))
        call(E, *[junk(rng) for _ in range(rng.randint(0, 3))])
        call(F2, junk(rng))
        call(C.Swizzle, junk(rng), junk(rng), junk(rng))
        call(C.ComposedLayout, junk(rng), junk(rng), junk(rng))


def test_functions_under_junk():
    rng = random.Random(12)
    L = Layout((4, 8), (1, 4))
    for _ in range(1500):
        for name in FUNCS_1:
            call(getattr(C, name), junk(rng))
        for name in FUNCS_2:
            call(getattr(C, name), rng.choice([L, junk(rng)]), junk(rng))
        for name in FUNCS_3:
            call(getattr(C, name), rng.choice([L, junk(rng)]), junk(rng), junk(rng))
        call(L, junk(rng))
        call(L.__getitem__, junk(rng))


def test_tensor_functions_under_junk():
    import numpy as np

    rng = random.Random(14)
    arrays = [np.zeros(8), np.zeros((3, 4), dtype=np.float32)[:, ::-1], np.zeros(0),
              np.zeros(4, dtype=np.int8), "array", None, 3]
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


def test_huge_values_refused_cleanly():
    import pytest

    for shape in [(2**62, 4), (2**40, 2**40)]:
        with pytest.raises(C.LayoutError) as e:
            Layout(shape)
        assert e.value.category == "Overflow"
    assert Layout(2**63 - 1).size() == 2**63 - 1
    with pytest.raises(OverflowError):
        Layout(2**64)
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
