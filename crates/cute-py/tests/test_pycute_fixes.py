"""Regressions of cute_algebra.pycute against legacy pycute (CUTLASS python/pycute): nested short
tilers, refused left operands of composition, None modes of product tilers, rank-1 blocked and
raked products, the rank-0 layout, size-1 right operands, idx2crd and the shifts.

The expected values are legacy pycute's where its answer is a valid layout of the operation;
`test_against_installed_legacy` compares them with the installed legacy module as well."""

import itertools
import random

import pytest

import cute_algebra.pycute as Q
from cute_algebra.pycute import E, Layout, LayoutError

L = Layout


def values(layout):
    return [layout(i) for i in range(Q.size(layout))]


# ---------------------------------------------------------------- 1. nested short tilers
def test_composition_pads_a_short_tiler_at_every_level():
    # legacy: the modes past a by-mode tiler's length are kept, in each mode it recurses into
    assert Q.composition(L(((2, 2), 4)), ((L(2, 1),), None)) == L(((2, 2), 4), ((1, 2), 4))
    assert Q.composition(L(((4, 4),), ((1, 8),)), ((1,),)) == L(((1, 4),), ((1, 8),))
    r = Q.composition(L(((2, 4, 2),), ((1, 2, 8),)), ((L((6,), (3,)),),))
    assert r == L((((6,), 4, 2),), (((3,), 2, 8),))
    r = Q.composition(L(((3, 6), 6, 2), ((2, 432), 36, 6)), ((L(1, 1),), None, None))
    assert r == L(((1, 6), 6, 2), ((2, 432), 36, 6))
    r = Q.composition(L(((3, 4), 4), ((12, 1), 2)), ((L((4, 8), (1, 4)),), L(((2,),), ((1,),))))
    assert r == L((((4, 8), 4), ((2,),)), (((12, 48), 1), ((2,),)))


# ---------------------------------------------------------------- 2. refused left operands
@pytest.mark.parametrize("A, why", [
    (L(0, 1), "positive"),
    (L((4, 4), (1,)), "congruent"),
    (L((2**32, 2**32)), "overflow"),
], ids=str)
def test_composition_names_a_refused_left_operand(A, why):
    # legacy answers with a zero extent, a non-congruent stride or a too-big extent: no layout
    with pytest.raises(LayoutError, match=rf"^composition: .* ∘ 2: the left operand is refused: .*{why}") as e:
        Q.composition(A, 2)
    assert e.value.op == "composition"


def test_composition_through_bases_still_refuses_a_bad_shape():
    # strides the core has no form for go through bases once; the shape is refused there
    with pytest.raises(LayoutError, match=r"^composition: \(0,\):\(ArithTuple\(1,1\),\) ∘ 2: "
                       r"the left operand is refused: .*positive"):
        Q.composition(L((0,), (E(0) + E(1),)), 2)
    A = L((4, 4), (E(0) + E(1), E(1)))
    R = Q.composition(A, L(2, 4))
    assert [R(i) for i in range(2)] == [A(0), A(4)] == [0 * E(0), E(1)]


# ---------------------------------------------------------------- 3. None modes of product tilers
def test_products_by_a_tiler_with_none_modes_are_legacy_pycutes():
    # legacy pycute's values: a None mode is the tile 1:0, its whole mode the rest
    assert Q.zipped_product(L((2, 2)), (L(2), None)) == L(((2, 1), (2, 2)), ((1, 0), (2, 2)))
    assert Q.tiled_product(L((2, 2)), (L(2), None)) == L(((2, 1), 2, 2), ((1, 0), 2, 2))
    assert Q.tiled_product(L(((4,),), ((2,),)), (None,)) == L(((1,), (4,)), ((0,), (2,)))
    r = Q.zipped_product(L(((2, 2), 4), ((8, 1), 2)), (None, L((4,), (1,))))
    assert r == L(((1, 4), ((2, 2), ((2, 2),))), ((0, 2), ((8, 1), ((1, 8),))))
    # a refused mode is the product's error, naming the operands
    with pytest.raises(LayoutError, match=r"^zipped_product: \(6, 4\):\(1, 6\), .*logical_product"):
        Q.zipped_product(L((6, 4), (1, 6)), (None, L(4, 2)))
    with pytest.raises(LayoutError, match=r"^tiled_product: "):
        Q.tiled_product(L((6, 4), (1, 6)), (None, L(4, 2)))


# ---------------------------------------------------------------- 4. rank-1 blocked/raked products
def test_rank1_blocked_and_raked_products_of_any_depths():
    A, B = L((4,), (1,)), L(2, 1)
    assert Q.blocked_product(A, B) == L((((4,), 2),), (((1,), 4),))
    assert Q.raked_product(A, B) == L(((2, (4,)),), ((4, (1,)),))
    A, B = L((3,), (2,)), L(4, 1)
    assert Q.blocked_product(A, B) == L((((3,), (2, 2)),), (((2,), (1, 6)),))
    assert Q.raked_product(A, B) == L((((2, 2), (3,)),), (((1, 6), (2,)),))
    # the core's answers kept: int against tuple, int against int, tuple against tuple
    assert Q.blocked_product(L(4, 1), L((2,), (1,))) == L(((4, (2,)),), ((1, (4,)),))
    assert Q.blocked_product(L(4, 3), L(2, 5)) == L(((4, 2),), ((3, 14),))
    assert Q.blocked_product(L((8,), (1,)), L((2,), (1,))) == L(((8, 2),), ((1, 8),))
    assert Q.raked_product(L(3, 2), L(4, 1)) == L((((2, 2), 3),), (((1, 6), 2),))
    # ranks still differ: refused (the paper's PyCuTe)
    with pytest.raises(LayoutError, match="ranks differ"):
        Q.blocked_product(L(4), L((2, 3)))
    with pytest.raises(LayoutError, match="^raked_product: 8:3, 3:2: logical_product"):
        Q.raked_product(L(8, 3), L(3, 2))


def test_rank1_products_are_the_definition():
    # R((a, b)) = A(a) + (A* o B)(b), A* o B the second mode of the logical product
    rng = random.Random(3)
    shapes = [2, 3, 4, (4,), (2,), ((2, 2),), ((3,),), (((2,),),)]
    checked = 0
    for _ in range(400):
        sa, sb = rng.choice(shapes), rng.choice(shapes)
        A = L(sa, rng.choice([1, 2, 3]) if isinstance(sa, int)
              else Q.prefix_product(sa, rng.choice([1, 2])))
        B = L(sb, rng.choice([1, 2]) if isinstance(sb, int) else Q.prefix_product(sb, 1))
        if len(A) != len(B):
            continue
        try:
            P = Q.logical_product(A, B)
        except LayoutError:
            with pytest.raises(LayoutError):
                Q.blocked_product(A, B)
            continue
        a_vals, c_vals = values(P[0]), values(P[1])
        want_blocked = [x + y for y in c_vals for x in a_vals]
        want_raked = [x + y for x in a_vals for y in c_vals]
        R, K = Q.blocked_product(A, B), Q.raked_product(A, B)
        assert len(R) == len(A) == len(K) == 1
        assert values(R) == want_blocked, (A, B, R)
        assert values(K) == want_raked, (A, B, K)
        checked += 1
    assert checked > 100


# ---------------------------------------------------------------- 5. the rank-0 layout
def test_rank0_layout_is_the_function_zero_of_size_one():
    Z = L((), ())
    assert Q.coalesce(Z) == L(1, 0) and Q.filter(Z) == L(1, 0)
    assert Q.right_inverse(Z) == L(1, 0) and Q.left_inverse(Z) == L(1, 0)
    assert Q.complement(Z, 5) == L(5, 1) and Q.complement(Z, 1) == L(1, 0)
    assert Q.complement(Z) == Q.complement(L(1, 0)) == L(1, 1)  # the paper's, 1:0 on [0, 1)
    assert Q.composition(Z, 2) == L(2, 0)  # legacy's: A extended as 1:0 is
    assert Q.composition(Z, L((2, 3))) == L((2, 3), (0, 0))
    assert Q.composition(L(4, 2), Z) == Z
    with pytest.raises(LayoutError, match=r"^composition: .*more modes"):
        Q.composition(Z, (2,))


# ---------------------------------------------------------------- 6. minor
def test_an_int_shaped_size_one_right_operand_gives_stride_zero():
    A = L((8, 1), (4, 2))
    assert Q.composition(A, L(1, 1)) == L(1, 0)
    assert Q.composition(A, 1) == L(1, 0)
    # a tuple-shaped B of size 1 keeps its shape, as legacy does; its strides are never used
    for B in (L((1,), (1,)), L((1, 1), (1, 1))):
        R = Q.composition(A, B)
        assert R.shape == B.shape and Q.size(R) == 1 and R(0) == 0


def test_idx2crd_with_a_zero_stride_or_extent_is_a_layout_error():
    with pytest.raises(LayoutError, match=r"^idx2crd: .*stride 0") as e:
        Q.idx2crd(3, (4, 4), (0, 1))
    assert e.value.op == "idx2crd"
    with pytest.raises(LayoutError, match=r"^idx2crd: .*shape 0"):
        Q.idx2crd(3, (4, 0), (1, 4))
    assert Q.idx2crd(9, (4, 8), (1, 4)) == (1, 2)


def test_shifts_are_capped_alike():
    for f in (Q.shiftl, Q.shiftr):
        for s in (1 << 17, -(1 << 17), 2147483648):
            with pytest.raises(ValueError, match="at most 65536"):
                f(1, s)
    assert Q.shiftr(1 << 20, 1 << 16) == 0 and Q.shiftl(1, -(1 << 16)) == 0
    assert Q.shiftr(16, 2) == 4 == Q.shiftl(1, 2) and Q.shiftr(1, -3) == 8


# ---------------------------------------------------------------- against legacy pycute itself
def test_against_installed_legacy():
    P = pytest.importorskip("pycute", reason="legacy pycute not installed")
    if P is Q:
        pytest.skip("pycute maps to this module")

    def same(q, p):
        assert (q.shape, q.stride) == (p.shape, p.stride), (q, p)

    cases = [
        lambda M: M.composition(M.Layout(((2, 2), 4)), ((M.Layout(2, 1),), None)),
        lambda M: M.composition(M.Layout(((4, 4),), ((1, 8),)), ((1,),)),
        lambda M: M.zipped_product(M.Layout((2, 2)), (M.Layout(2), None)),
        lambda M: M.tiled_product(M.Layout(((4,),), ((2,),)), (None,)),
        lambda M: M.zipped_product(M.Layout(((2, 2), 4), ((8, 1), 2)), (None, M.Layout((4,), (1,)))),
        lambda M: M.coalesce(M.Layout((), ())),
        lambda M: M.filter(M.Layout((), ())),
        lambda M: M.right_inverse(M.Layout((), ())),
        lambda M: M.left_inverse(M.Layout((), ())),
        lambda M: M.complement(M.Layout((), ()), 5),
        lambda M: M.composition(M.Layout((), ()), 2),
    ]
    for f in cases:
        same(f(Q), f(P))
    # the rank-1 blocked product is legacy's logical product with its two modes as one mode
    for a, b in itertools.product([((4,), (1,)), (4, 1), ((3,), (2,)), (3, 2)], [(2, 1), (4, 1)]):
        p = P.logical_product(P.Layout(*a), P.Layout(*b))
        same(Q.blocked_product(Q.Layout(*a), Q.Layout(*b)),
             P.make_layout(P.make_layout(p[0], p[1])))
