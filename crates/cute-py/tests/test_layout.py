"""Layout, E, F2, Swizzle, ComposedLayout: construction, queries, evaluation, printing."""

import pickle

import pytest

import cute_algebra as C
from cute_algebra import E, F2, ComposedLayout, Layout, LayoutError, Swizzle


def test_construct_and_query():
    L = Layout((4, (2, 3)), (1, (4, 8)))
    assert L.shape == (4, (2, 3))
    assert L.stride == (1, (4, 8))
    assert (L.size(), L.cosize(), L.rank(), L.depth(), len(L)) == (24, 24, 2, 2, 2)
    assert (C.size(L), C.cosize(L), C.rank(L), C.depth(L)) == (24, 24, 2, 2)
    assert C.shape(L) == (4, (2, 3)) and C.stride(L) == (1, (4, 8))
    assert Layout(8).stride == 1 and Layout(8).shape == 8
    assert Layout((2, 4)).stride == (1, 2)
    assert Layout([2, [3, 4]], [1, [2, 6]]) == Layout((2, (3, 4)), (1, (2, 6)))


def test_call_index_coordinate_and_slice():
    L = Layout((4, 8), (8, 1))
    assert [L(i) for i in range(5)] == [0, 8, 16, 24, 1]
    assert L((3, 2)) == 26 == L(3, 2)
    assert L(None) == L
    assert L(2, None) == Layout((8,), (1,))
    assert L((None, 5)) == Layout((4,), (8,))
    assert C.slice_(L, (None, 5)) == Layout((4,), (8,))
    assert C.dice(L, (None, 5)) == Layout((8,), (1,))
    assert C.slice_and_offset(L, (None, 5)) == (Layout((4,), (8,)), 5)


def test_modes_and_iteration():
    L = Layout((4, (2, 3)), (1, (4, 8)))
    assert L[0] == Layout(4, 1) and L[-1] == Layout((2, 3), (4, 8))
    assert L[1][1] == Layout(3, 8)
    assert L[0:1] == Layout((4,), (1,))
    assert list(L) == [L[0], L[1]]
    with pytest.raises(IndexError):
        L[2]
    with pytest.raises(IndexError):
        L[::2]


def test_eq_hash_str_repr_pickle():
    a = Layout((4, 8), (1, 4))
    b = Layout.parse("(4,8):(1,4)")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Layout((4, 8), (8, 1)) and a != "(4,8):(1,4)"
    assert str(a) == "(4,8):(1,4)"
    assert repr(a) == "Layout((4,8),(1,4))"
    for L in [a, Layout(((2, 2), 3), ((1, 8), 2)), Layout((5,), (3,)), Layout(7, 0),
              Layout((4, 6), (E(0), E(1))), Layout((8, 8), (F2(1), F2(9)))]:
        assert eval(repr(L), vars(C)) == L
        assert Layout.parse(str(L)) == L
        assert pickle.loads(pickle.dumps(L)) == L


def test_coordinate_strides():
    L = Layout((4, 6), (E(0), E(1)))
    assert str(L) == "(4,6):(1@0,1@1)"
    assert L(9) == (1, 2)
    assert L.stride == (E(0), E(1))
    assert C.make_identity_layout((4, 6)) == L
    assert str(2 * E(1)) == "2@1" and (E(1) * 2).value == 2
    assert E(0, 2).path == (0, 2) and repr(E(0, 2)) == "E(0,2)"
    assert pickle.loads(pickle.dumps(3 * E(0, 1))) == 3 * E(0, 1)
    assert pickle.loads(pickle.dumps(F2(5))) == F2(5)
    assert hash(E(1)) == hash(E(1)) and E(1) != E(0) and E(1) != 1
    with pytest.raises(TypeError):
        E()
    with pytest.raises(LayoutError):
        E(-1)
    with pytest.raises(LayoutError) as e:
        Layout((4, 6), (E(0), 1))  # mixed semimodules
    assert e.value.category == "Unsupported"


def test_f2_strides():
    L = Layout((8, 8), (F2(1), F2(9)))
    assert str(L) == "(8,8):(F1,F9)"
    assert L(9) == 1 ^ 9
    assert F2(9).bits == 9 and repr(F2(9)) == "F2(9)" and str(F2(9)) == "F9"
    assert F2(9) == F2(9) and F2(9) != F2(1) and hash(F2(9)) == hash(F2(9))
    with pytest.raises(LayoutError):
        F2(-1)


def test_swizzle_and_composed():
    sw = Swizzle(3, 4, 3)
    assert (sw.bits, sw.base, sw.shift) == (3, 4, 3)
    assert str(sw) == "Sw<3,4,3>" and repr(sw) == "Swizzle(3,4,3)"
    assert Swizzle.parse("Sw<3,4,3>") == sw and hash(sw) == hash(Swizzle(3, 4, 3))
    assert pickle.loads(pickle.dumps(sw)) == sw
    assert sw(0b1010000000) == 0b1010000000 ^ 0b0001010000
    assert sw.yyy_mask == 0b1110000000 and sw.zzz_mask == 0b0001110000
    assert Swizzle(3, 0, 3).to_f2_layout(6) == Layout.parse("(8,8):(F1,F9)")
    assert Swizzle.from_f2_layout(Layout.parse("(8,8):(F1,F9)")) == Swizzle(3, 0, 3)
    with pytest.raises(LayoutError) as e:
        Swizzle(3, 0, 2)  # |shift| < bits
    assert e.value.category == "InvalidShape"

    c = ComposedLayout(Swizzle(3, 0, 3), 0, Layout((8, 8), (8, 1)))
    assert str(c) == "Sw<3,0,3> o 0 o (8,8):(8,1)"
    assert eval(repr(c), vars(C)) == c
    assert ComposedLayout.parse(str(c)) == c and hash(c) == hash(ComposedLayout.parse(str(c)))
    assert pickle.loads(pickle.dumps(c)) == c
    assert (c.size(), c.cosize(), c.rank(), len(c)) == (64, 64, 2, 2)
    assert c.swizzle == Swizzle(3, 0, 3) and c.offset == 0 and c.layout == Layout((8, 8), (8, 1))
    assert sorted(c(i) for i in range(64)) == list(range(64))
    assert c(9) == c((1, 1)) == c(1, 1) == Swizzle(3, 0, 3)(9)
    assert C.composition(Swizzle(3, 0, 3), Layout((8, 8), (8, 1))) == c
    assert C.composition(c, Layout(8, 8)).layout == Layout(8, 1)
    assert C.size(c) == 64 and C.cosize(c) == 64
    f2 = ComposedLayout.parse("Sw<3,0,3> o 0 o (8,8):(1,8)").to_f2_layout()
    assert str(f2) == "(8,8):(F1,F9)"


def test_shape_helpers():
    assert C.product(((2, 3), 4)) == 24 and C.product(5) == 5
    assert C.product_each(((2, 3), 4)) == (6, 4)
    assert C.prefix_product(((2, 3), 4)) == ((1, 2), 6)
    assert C.flatten(((1, 2), (3, (4,)))) == (1, 2, 3, 4)
    assert C.flatten(Layout((4, (2, 3)))) == Layout((4, 2, 3), (1, 4, 8))
    assert C.size((2, (3, 4))) == 24 and C.rank((1, 2, 3)) == 3 and C.depth(((1,),)) == 2
    assert C.congruent((1, (2, 3)), (4, (5, 6))) and not C.congruent((1, 2), 3)
    assert C.weakly_congruent(1, (2, 3)) and not C.weakly_congruent((1, 2), 3)
    assert C.compatible(24, (4, 6)) and not C.compatible((4, 6), 24)
    assert C.idx2crd(9, (4, 8)) == (1, 2)
    assert C.crd2idx((1, 2), (4, 8)) == 9 and C.crd2idx((1, 2), (4, 8), (8, 1)) == 10
    assert C.crd2crd((1, 2), (4, 8), 32) == 9
    assert C.compact_col_major((4, (2, 3))) == Layout((4, (2, 3)), (1, (4, 8)))
    assert C.compact_row_major((4, (2, 3))) == Layout((4, (2, 3)), (6, (3, 1)))
    assert C.make_ordered_layout((4, 8, 2), (1, 2, 0)) == Layout((4, 8, 2), (2, 8, 1))
    assert C.make_layout(Layout(4, 1), Layout(8, 4)) == Layout((4, 8), (1, 4))
    assert C.make_layout([Layout(4, 1), Layout(8, 4)]) == Layout((4, 8), (1, 4))
    assert C.image(Layout((2, 3), (3, 0))) == [0, 3]


def test_drawing():
    L = Layout((2, 2), (1, 2))
    table = C.print_layout(L)
    assert table.splitlines()[0] == "(2,2):(1,2)" and "| 0 | 2 |" in table and "| 1 | 3 |" in table
    svg = C.layout_svg(Layout((4, 8), (1, 4)))
    assert svg.startswith("<svg") and svg.count('class="cell"') == 32
    assert L._repr_svg_().count('class="cell"') == 4
    huge = Layout((1 << 20, 1 << 20))
    # past the cap, a summary picture (test_traps.test_repr_svg_is_capped)
    assert "1099511627776 cells" in huge._repr_svg_()
    # the PNG: a real image of the 2x2 picture (signature, IHDR width and height), none past the cap
    png = L._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert 0 < w < 2000 and 0 < h < 2000
    big = Layout((64, 64))._repr_png_()
    assert huge._repr_png_() is None and Layout((64, 65))._repr_png_() is None and big is not None
    with pytest.raises(ValueError):
        C.layout_svg(huge)
    with pytest.raises(TypeError):
        C.print_layout("2:1")
