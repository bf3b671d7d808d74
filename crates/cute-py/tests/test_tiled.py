"""TiledMMA and TiledCopy from Python against the CuTe DSL: every case of the core's oracle file
(crates/cute/tests/data/tiled_oracle.json, written by scripts/tiled_oracle.py with the CuTe DSL)
rebuilt through `make_tiled_mma` / `make_tiled_copy[_A/B/C]` from the atoms' CUTLASS names, and
each recorded layout, tile and partition compared as CuTe prints it; the refused cases refused;
the pictures' cells are the TV layouts' owners; bad names and threads raise clear errors."""

import ast
import json
import pathlib
import re

import pytest

import cute_algebra as ca
from cute_algebra import (Layout, LayoutError, make_tiled_copy, make_tiled_copy_A,
                          make_tiled_copy_B, make_tiled_copy_C, make_tiled_mma)

ORACLE = json.loads((pathlib.Path(__file__).resolve().parents[2] / "cute" / "tests" / "data"
                     / "tiled_oracle.json").read_text())


def tup(text):
    """A CuTe tuple `(2,(3,4))` as Python's `(2, (3, 4))` (one-element parentheses as tuples)."""
    return ast.literal_eval(re.sub(r"\(([^(),]+)\)", r"(\1,)", text))


def L(text):
    """A layout written in CuTe notation."""
    shape, stride = text.split(":")
    return Layout(tup(shape), tup(stride))


def tiler(text):
    """A by-mode tiler `<32,(2,4,2):(1,4,2),_>` as a tuple of ints, Layouts and None."""
    modes, depth, cur = [], 0, ""
    for ch in text.strip("<>"):
        if ch == "," and depth == 0:
            modes.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    modes.append(cur)
    return tuple(None if m == "_" else L(m) if ":" in m else int(m) for m in modes)


def mma_name(atom):
    kind, arg = atom
    if kind == "sm80_16x8x16":
        return {"f16": "SM80_16x8x16_F32F16F16F32_TN", "bf16": "SM80_16x8x16_F32BF16BF16F32_TN"}[arg]
    if kind == "sm80_16x8x8_tf32":
        return "SM80_16x8x8_F32TF32TF32F32_TN"
    ab, n = arg
    return f"SM90_64x{n}x16_F32{ab.upper()}{ab.upper()}_SS"


def copy_name(atom):
    kind, n = atom[0], atom[1]
    if kind in ("ldmatrix", "stmatrix"):
        trans = atom[2]
        op = "SM75" if kind == "ldmatrix" else "SM90"
        suffix = "LDSM" if kind == "ldmatrix" else "STSM"
        return f"{op}_U16x{2 * n}_{suffix}_T" if trans else f"{op}_U32x{n}_{suffix}_N"
    if kind == "cp_async":
        return "SM80_CP_ASYNC_CACHEGLOBAL_16B"
    return f"UniversalCopy<uint{n}_t>"


def mmas():
    return {c["name"]: make_tiled_mma(mma_name(c["atom"]), L(c["atom_layout"]),
                                      tiler(c["permutation"]))
            for c in ORACLE["mma"]}


def test_tiled_mma_layouts_equal_the_dsl():
    made = mmas()
    assert len(made) >= 19
    for c in ORACLE["mma"]:
        m = made[c["name"]]
        assert str(m.thr_layout_vmnk) == c["thr_layout_vmnk"], c["name"]
        assert list(m.tile_shape) == c["tile_size"], c["name"]
        assert str(m.get_layoutA_TV()) == c["layout_a_tv"], c["name"]
        assert str(m.get_layoutB_TV()) == c["layout_b_tv"], c["name"]
        assert str(m.get_layoutC_TV()) == c["layout_c_tv"], c["name"]
        t = c["thread"]
        for op, part in (("a", m.partition_A), ("b", m.partition_B), ("c", m.partition_C)):
            lay, off = part(t, L(c[f"data_{op}"]))
            want = c[f"partition_{op}"]
            assert (str(lay), off) == (want["layout"], want["offset"]), (c["name"], op)


def test_refused_mmas_are_refused_with_the_reason():
    # where the DSL returns a layout that misses values: a tile too small for its atoms, or a
    # permutation that is no bijection
    assert ORACLE["refused_mma"]
    for c in ORACLE["refused_mma"]:
        with pytest.raises(LayoutError) as e:
            make_tiled_mma(mma_name(c["atom"]), L(c["atom_layout"]), tiler(c["permutation"]))
        reason = ("permutation of 0..size" if "not_bijective" in c["name"]
                  else "multiple of the atom extent")
        assert str(e.value).startswith("make_tiled_mma") and reason in str(e.value), c["name"]


def test_tiled_copy_layouts_equal_the_dsl():
    made = mmas()
    checked = 0
    for c in ORACLE["copy"]:
        name, bits, src = copy_name(c["atom"]), c["elem_bits"], c["source"]
        if "mma" in src:
            mk = {"A": make_tiled_copy_A, "B": make_tiled_copy_B, "C": make_tiled_copy_C}
            build = lambda: mk[src["operand"]](name, made[src["mma"]], bits)  # noqa: E731
        else:
            build = lambda: make_tiled_copy(name, L(src["thr"]), L(src["val"]), bits)  # noqa: E731
        try:
            cp = build()
        except LayoutError as e:
            # CuTe C++ refuses a copy whose values per thread are no multiple of the atom's
            assert "values per thread must be a multiple" in str(e), c["name"]
            continue
        checked += 1
        # the atom keeps CUTLASS's type name; `_16B` is the CLI's name for cp.async of 16 bytes
        assert cp.atom == name.replace("_16B", "<uint128_t>"), c["name"]
        assert str(cp.layout_tv) == c["layout_tv"], c["name"]
        assert [f"{x}:1" for x in cp.tiler] == c["tiler"], c["name"]
        assert str(cp.get_layoutS_TV()) == c["layout_s_tv"], c["name"]
        assert str(cp.get_layoutD_TV()) == c["layout_d_tv"], c["name"]
        t, data = c["thread"], L(c["data"])
        for which, part in (("s", cp.partition_S), ("d", cp.partition_D)):
            lay, off = part(t, data)
            assert (str(lay), off) == (c[f"partition_{which}"]["layout"],
                                       c[f"partition_{which}"]["offset"]), (c["name"], which)
        if "retile_of" in c:
            assert str(cp.retile(L(c["retile_of"]))) == c["retile"], c["name"]
    assert checked >= 12


def owners(svg):
    """(label text per cell) of a picture: the `T.. V..` text drawn in each cell, in order."""
    return re.findall(r">(T\d+(?:\+\d+)?)</text>", svg)


def test_pictures_show_the_owners_of_the_tv_layouts():
    m = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    svg = m._repr_svg_()
    assert svg is not None and svg.startswith("<svg")
    # C is 32 x 16 with 128 threads: every thread appears in C
    threads = {int(x.split("+")[0][1:]) for x in owners(svg)}
    assert threads == set(range(128))
    assert m._repr_png_()[1:4] == b"PNG"
    marked = m.svg(highlight=37)
    # thread 37 holds 4 values of C, 8 of A (shared along N) and 4 of B: all outlined
    assert marked.count('data-mark="outline"') >= 4
    c = make_tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL_16B", Layout((16, 8), (8, 1)), (1, 8), 16)
    assert c._repr_svg_().startswith("<svg") and c._repr_png_()[1:4] == b"PNG"
    assert "TiledCopy(" in repr(c) and "TiledMMA(" in repr(m)


def test_atoms_along_k_draw_and_refuse_a_copy_of_c():
    # 2 atoms along K: C's cells are held by a thread of each (partial sums); CuTe's
    # get_layoutC_TV sends the second atom's threads past the tile
    m = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", Layout((2, 2, 2), (1, 2, 4)))
    assert m.get_layoutC_TV()(128) == 512
    svg = m.svg(highlight=128)
    held = [t.split() for t in re.findall(r'data-threads="([^"]*)"', svg)]
    assert {int(t) for ts in held for t in ts} == set(range(256))
    # C's 512 cells, each held by one thread of each atom along K
    assert sum(1 for ts in held if len(ts) == 2 and int(ts[1]) == int(ts[0]) + 128) == 512
    assert 'data-threads="0 128"' in svg
    with pytest.raises(LayoutError, match="make_tiled_copy_C.*atoms along K"):
        make_tiled_copy_C("UniversalCopy<uint32_t>", m, 32)
    assert make_tiled_copy_A("UniversalCopy<uint32_t>", m, 16).get_layoutS_TV().size() == 256 * 8


def test_large_pictures_are_capped():
    big = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (4, 4), (128, 128, None))
    assert big._repr_svg_() is None and big._repr_png_() is None
    assert big.svg().startswith("<svg")  # drawn in full when asked


def test_bad_input_raises_clear_errors():
    with pytest.raises(ValueError, match="no MMA atom is called \"SM80_bogus\".*SM90_64xNx16"):
        make_tiled_mma("SM80_bogus")
    with pytest.raises(ValueError, match="no copy atom is called"):
        make_tiled_copy("nope", (4, 8), (1, 1))
    m = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2))
    with pytest.raises(ValueError, match="thread 128 is not one of its 128 threads"):
        m.svg(highlight=128)
    with pytest.raises(LayoutError):
        m.partition_C(128, Layout((32, 16)))
    with pytest.raises(TypeError):
        make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", "(2,2)")
    assert ca.tv_layout_svg(m.get_layoutC_TV(), (32, 16)).count('class="cell"') == 512
