"""Layouts with run-time extents (cute_algebra.SymLayout, cute_algebra.symbolic): the CUTLASS
issues #3469-#3471, refusals that name the run-time condition, substitution, and sympy symbols
(PyCuTe's way of writing unknowns) where sympy is installed."""

import pickle
import random

import pytest

import cute_algebra as ca
from cute_algebra import LayoutError, SymLayout
from cute_algebra import symbolic as sym


def test_cutlass_3469_coalesce():
    assert str(sym.coalesce("(192,?):(1,192)")) == "192*?:1"
    c = sym.coalesce(sym.layout((192, sym.unknown(div=192)), (1, 192)))
    assert str(c) == "192*?{div=192}:1"
    assert str(sym.composition(c, "(256,192):(1,256)")) == "(256,192):(1,256)"


def test_cutlass_3470_composition_with_basis_strides():
    a = SymLayout("(4096,8192):(1,4096)")
    b = SymLayout("(32,?{div=8},8,128):(1@0,8@1,1@1,32@0)")
    assert str(a.composition(b)) == "(32,?{div=8},8,128):(1,32768,4096,32)"


def test_cutlass_3471_right_inverse():
    assert str(sym.right_inverse("(16,N):(1,16)")) == "16*N:1"


def test_refusal_names_the_condition():
    with pytest.raises(LayoutError) as e:
        sym.composition("(M,4):(1,2*M)", "2:8")
    assert e.value.category == "Condition"
    assert e.value.op == "composition"
    assert "needs M divisible by 8 or dividing 8" in str(e.value)
    # the same with the fact declared: answered
    assert str(sym.composition("(M{div=16},4):(1,2*M)", "2:8")) == "2:8"


def test_syntax_errors_are_layout_errors():
    with pytest.raises(LayoutError) as e:
        SymLayout("(4,?):(1,")
    assert e.value.category == "Syntax"


def test_round_trip_and_pickle():
    for text in ["(192,?{div=8}):(1,192)", "(M{div=16,min=64},8):(8,1)", "16*N:1"]:
        l = SymLayout(text)
        assert str(SymLayout(str(l))) == str(l) == text
        assert pickle.loads(pickle.dumps(l)) == l


def test_substitution_agrees_with_the_integer_library():
    rnd = random.Random(7)
    for _ in range(200):
        m = rnd.choice([8, 16, 24, 32])
        n = rnd.choice([1, 2, 3, 5])
        a = SymLayout("(M{div=8},N):(1,2*M)")
        d = a.logical_divide(SymLayout("8:1"))
        want = ca.logical_divide(ca.Layout((m, n), (1, 2 * m)), ca.Layout(8, 1))
        got = d.substitute({"M": m, "N": n})
        assert [got(i) for i in range(got.size())] == [want(i) for i in range(want.size())]


def _at(offset, name, value):
    """The value of an offset `k+c*name` (as SymLayout's call prints it) at `name = value`."""
    if isinstance(offset, int):
        return offset
    total = 0
    for term in offset.replace("-", "+-").split("+"):
        if term.endswith(name):
            coeff = term[: -len(name)].rstrip("*")
            total += int(coeff + "1" if coeff in ("", "-") else coeff) * value
        elif term:
            total += int(term)
    return total


def test_evaluation_is_a_sum_of_products_right_at_every_value():
    a = SymLayout("(4,(M{div=2},2)):(1,(4,4*M))")
    assert a((1, (2, 1))) == a(1, (2, 1)) == "9+4*M{div=2}"
    assert a(5) == 5  # (1,1,0): below M for every value (M >= 2)
    rnd = random.Random(11)
    for _ in range(200):
        m = rnd.choice([2, 4, 6, 8])
        c = (rnd.randrange(4), (rnd.randrange(m), rnd.randrange(2)))
        want = ca.Layout((4, (m, 2)), (1, (4, 4 * m)))(c)
        got = a(c)
        assert _at(got, "M{div=2}", m) == want, (c, m, got)
    with pytest.raises(LayoutError) as e:
        a(9)  # (1,2,0) only where M > 2
    assert e.value.category == "Condition"
    assert "needs M{div=2} > 2" in str(e.value)
    with pytest.raises(LayoutError, match="not weakly congruent"):
        a((1, 2, 3))
    with pytest.raises(TypeError, match="SymLayout coordinate"):
        a("x")


def test_sympy_symbols():
    sympy = pytest.importorskip("sympy")
    n = sympy.Symbol("N", positive=True, integer=True)
    # PyCuTe's example from CUTLASS #3471
    assert str(sym.right_inverse(sym.layout((16, n), (1, 16)))) == "16*N:1"
    k = sympy.Symbol("K", positive=True, integer=True, even=True)
    assert str(sym.layout((4, k), (1, 4))) == "(4,K{div=2}):(1,4)"
    assert str(sym.layout((2 * k,), (1,))) == "(2*K{div=2}):(1)"
    with pytest.raises(LayoutError):
        sym.layout((sympy.Symbol("x") + 1,), (1,))


def test_divides_by_mode():
    a = sym.layout(("M{div=128}", "N{div=64}"), (1, "M"))
    z = sym.zipped_divide(a, ("128:1", "64:1"))
    assert str(z) == "((128,64),(M{div=128}/128,N{div=64}/64)):((1,M),(128,64*M))"
    l = sym.logical_divide(a, ("128:1", None))
    assert str(l) == "((128,M{div=128}/128),N{div=64}):((1,128),M)"
    got = z.substitute({"M": 256, "N": 128})
    want = ca.zipped_divide(ca.Layout((256, 128), (1, 256)), (ca.Layout(128, 1), ca.Layout(64, 1)))
    assert [got(i) for i in range(got.size())] == [want(i) for i in range(want.size())]
    # a rest that does not divide is padded as CuTe pads it: ⌈M/128⌉ tiles
    p = sym.zipped_divide("(M,N):(1,M)", ("128:1", "64:1"))
    assert str(p) == "((128,64),(⌈M/128⌉,⌈N/64⌉)):((1,M),(128,64*M))"
    got = p.substitute({"M": 200, "N": 70})
    want = ca.zipped_divide(ca.Layout((200, 70), (1, 200)), (ca.Layout(128, 1), ca.Layout(64, 1)))
    assert [got(i) for i in range(got.size())] == [want(i) for i in range(want.size())]
    with pytest.raises(LayoutError) as e:
        sym.logical_divide("((M,4),N):((1,2*M),8*M)", ("2:8", None))
    assert e.value.category == "Condition" and "needs M divisible by 8" in str(e.value)
