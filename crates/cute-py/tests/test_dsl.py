"""cute_algebra.dsl against the CuTe DSL itself: every case of tests/data/dsl_oracle.json (recorded
by scripts/dsl_oracle.py from nvidia-cutlass-dsl 4.8.1 inside @cute.jit; its provenance is in the
file) gives the value the DSL printed, and the signatures are the DSL's."""

import inspect
import json
import pathlib

import pytest

import cute_algebra as C
from cute_algebra import dsl

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "dsl_oracle.json").read_text())

# Where this crate answers and the DSL refuses (documented in COMPARE.md): the left inverse of a
# layout whose strides do not divide each other, which the mixed-radix construction gives.
EXTENSIONS = {("left_inverse", json.dumps([{"L": [[2, 5], [22, 7]]}]))}


def build(v):
    if isinstance(v, dict) and "L" in v:
        shape, stride = v["L"]
        return dsl.make_layout(build(shape), stride=None if stride is None else build(stride))
    if isinstance(v, list):
        return tuple(build(x) for x in v)
    return v


def ids(case):
    return f"{case['op']}{json.dumps(case['args'])}{json.dumps(case['kwargs']) if case['kwargs'] else ''}"


def test_provenance():
    p = DATA["provenance"]
    assert "nvidia-cutlass-dsl 4.8.1" in p["oracle"] and "@cute.jit" in p["oracle"]
    assert p["command"].startswith("cd scripts && python dsl_oracle.py")
    assert len(DATA["cases"]) >= 70
    assert {c["op"] for c in DATA["cases"]} == set(dsl.__all__)


@pytest.mark.parametrize("case", DATA["cases"], ids=ids)
def test_dsl_case(case):
    f = getattr(dsl, case["op"])
    args = [build(a) for a in case["args"]]
    kwargs = {k: build(v) for k, v in case["kwargs"].items()}
    key = (case["op"], json.dumps(case["args"]))
    if "error" in case:
        assert key in EXTENSIONS, f"the DSL refuses {ids(case)}"
        L = args[0]
        R = f(*args, **kwargs)
        assert [R(L(i)) for i in range(L.size())] == list(range(L.size()))
        return
    r = f(*args, **kwargs)
    assert str(r) == case["result"], ids(case)


def test_signatures_are_the_dsls():
    """The parameter names and kinds of the DSL's functions (recorded from 4.8.1's
    inspect.signature), `loc`/`ip` included."""
    expected = {
        "make_layout": "(shape, *, stride=None, loc=None, ip=None)",
        "composition": "(lhs, rhs, *, loc=None, ip=None)",
        "complement": "(input, cotarget, *, loc=None, ip=None)",
        "logical_divide": "(target, tiler, *, loc=None, ip=None)",
        "blocked_product": "(block, tiler, *, loc=None, ip=None)",
        "coalesce": "(input, *, target_profile=None, loc=None, ip=None)",
        "recast_layout": "(new_type_bits, old_type_bits, src_layout, *, loc=None, ip=None)",
        "size": "(obj, mode=(), **kwargs)",
        "shape": "(input, *, mode=None, loc=None, ip=None)",
        "group_modes": "(input, begin, end=None, *, loc=None, ip=None)",
        "append": "(input, elem, up_to_rank=None, *, loc=None, ip=None)",
    }
    for name, sig in expected.items():
        assert str(inspect.signature(getattr(dsl, name))) == sig, name


def test_dsl_values_are_the_modules():
    L = dsl.make_layout((8, 16), stride=(20, 1))
    assert isinstance(L, C.Layout) and L == C.Layout((8, 16), (20, 1))
    assert dsl.zipped_divide(L, (4, 8)) == C.zipped_divide(L, (4, 8))
    with pytest.raises(NotImplementedError):
        dsl.filter_zeros(L, target_profile=(1, 1))


def test_append_and_prepend_refuse_past_the_capacity_at_once():
    L = dsl.make_layout(4)
    assert str(dsl.append(L, dsl.make_layout(1, stride=0), up_to_rank=3)) == "(4,1,1):(1,0,0)"
    assert dsl.append((1, 2), 3, up_to_rank=4) == (1, 2, 3, 3)
    assert dsl.prepend((1, 2), 3) == (3, 1, 2)
    assert dsl.append((1, 2, 3), 4, up_to_rank=2) == (1, 2, 3)  # already that rank
    for f in (dsl.append, dsl.prepend):
        with pytest.raises(C.LayoutError, match=r"up_to_rank 4611686018427387904 exceeds the 32"):
            f(L, dsl.make_layout(1, stride=0), up_to_rank=2**62)
        with pytest.raises(TypeError, match="up_to_rank must be an integer, got float"):
            f(L, L, up_to_rank=2.0)
