#!/usr/bin/env python3
"""Records the CuTe DSL's TiledMMA and TiledCopy layouts: the oracle of
crates/cute/tests/all/tiled.rs.

Usage (in a throwaway virtual environment; CPU is enough, nothing runs on a GPU):

    python3 -m venv /tmp/tiledv && /tmp/tiledv/bin/pip install nvidia-cutlass-dsl==4.8.1
    CUTE_DSL_ARCH=sm_90a /tmp/tiledv/bin/python scripts/tiled_oracle.py \
        crates/cute/tests/data/tiled_oracle.json

Each case builds one tiled MMA (`cute.make_tiled_mma(op, atom_layout, permutation_mnk)`) or one
tiled copy (`cute.make_tiled_copy_tv(atom, thr, val)` or `cute.make_tiled_copy_A/B/C(atom, mma)`)
inside one `@cute.jit` function (traced, not run: static layouts are computed while tracing) and
records `str()` of what the DSL prints: the thread-value layouts of the tiled operands, the thread
layout and tile sizes, and the partitions of one thread of a row-major data tile (`partition_A/B/C`,
`partition_S/D`, as `offset o layout`) and `retile` of the thread's fragment. Inputs are written in
CuTe notation (`(2,2,1):(1,2,0)`, tilers `<32,(4,4):(1,8),_>`) so that the Rust test builds the
same values from the same text.
"""

import datetime
import json
import re
import sys

import cutlass
import cutlass.cute as cute
from cutlass.cute.nvgpu import OperandMajorMode, cpasync, warp, warpgroup

# (name, atom, atom_layout (shape, stride), permutation: None | [tile], tile: int | (shape, stride) | None)
MMAS = [
    ("sm80_f16_1x1", ("sm80_16x8x16", "f16"), ((1, 1, 1), (0, 0, 0)), None),
    ("sm80_f16_2x2", ("sm80_16x8x16", "f16"), ((2, 2, 1), (1, 2, 0)), None),
    ("sm80_bf16_2x2", ("sm80_16x8x16", "bf16"), ((2, 2, 1), (1, 2, 0)), None),
    ("sm80_f16_4x1", ("sm80_16x8x16", "f16"), ((4, 1, 1), (1, 0, 0)), None),
    ("sm80_bf16_1x4", ("sm80_16x8x16", "bf16"), ((1, 4, 1), (0, 1, 0)), None),
    ("sm80_f16_2x2_rowmajor", ("sm80_16x8x16", "f16"), ((2, 2, 1), (2, 1, 0)), None),
    ("sm80_f16_2x2_perm_32x32x16", ("sm80_16x8x16", "f16"), ((2, 2, 1), (1, 2, 0)), [32, 32, 16]),
    ("sm80_f16_2x2_perm_n_interleave", ("sm80_16x8x16", "f16"), ((2, 2, 1), (1, 2, 0)),
     [32, ((2, 4, 2), (1, 4, 2)), 16]),
    ("sm80_bf16_4x1_perm_64x16x16", ("sm80_16x8x16", "bf16"), ((4, 1, 1), (1, 0, 0)), [64, 16, 16]),
    ("sm80_f16_2x2_perm_m_interleave", ("sm80_16x8x16", "f16"), ((2, 2, 1), (1, 2, 0)),
     [((8, 2, 2), (1, 16, 8)), None, None]),
    ("sm80_f16_2x1x2_k_split", ("sm80_16x8x16", "f16"), ((2, 1, 2), (1, 0, 2)), None),
    ("sm80_tf32_2x2", ("sm80_16x8x8_tf32", None), ((2, 2, 1), (1, 2, 0)), None),
    ("sm80_tf32_4x1", ("sm80_16x8x8_tf32", None), ((4, 1, 1), (1, 0, 0)), None),
    ("sm80_tf32_2x2_perm_32x32x16", ("sm80_16x8x8_tf32", None), ((2, 2, 1), (1, 2, 0)), [32, 32, 16]),
    ("sm90_wgmma_64x128_f16_1x1", ("sm90_64xNx16", ("f16", 128)), ((1, 1, 1), (0, 0, 0)), None),
    ("sm90_wgmma_64x128_f16_2x1", ("sm90_64xNx16", ("f16", 128)), ((2, 1, 1), (1, 0, 0)), None),
    ("sm90_wgmma_64x64_bf16_4x1", ("sm90_64xNx16", ("bf16", 64)), ((4, 1, 1), (1, 0, 0)), None),
    ("sm90_wgmma_64x256_bf16_2x1", ("sm90_64xNx16", ("bf16", 256)), ((2, 1, 1), (1, 0, 0)), None),
    ("sm90_wgmma_64x64_f16_2x1_perm", ("sm90_64xNx16", ("f16", 64)), ((2, 1, 1), (1, 0, 0)),
     [128, 64, 32]),
]

# (name, atom, element bits, source): source is ("tv", thr, val) or ("mma", mma name, "A"|"B"|"C")
COPIES = [
    ("ldsm_x4_n_A_2x2", ("ldmatrix", 4, False), 16, ("mma", "sm80_f16_2x2", "A")),
    ("ldsm_x2_n_B_2x2", ("ldmatrix", 2, False), 16, ("mma", "sm80_f16_2x2", "B")),
    ("ldsm_x4_n_B_2x2", ("ldmatrix", 4, False), 16, ("mma", "sm80_f16_2x2", "B")),
    ("ldsm_x4_t_B_2x2", ("ldmatrix", 4, True), 16, ("mma", "sm80_f16_2x2", "B")),
    ("ldsm_x4_n_A_4x1", ("ldmatrix", 4, False), 16, ("mma", "sm80_f16_4x1", "A")),
    ("ldsm_x1_n_A_1x1", ("ldmatrix", 1, False), 16, ("mma", "sm80_f16_1x1", "A")),
    ("ldsm_x4_n_A_perm", ("ldmatrix", 4, False), 16, ("mma", "sm80_f16_2x2_perm_32x32x16", "A")),
    ("ldsm_x2_n_B_perm_interleave", ("ldmatrix", 2, False), 16,
     ("mma", "sm80_f16_2x2_perm_n_interleave", "B")),
    ("stsm_x4_n_C_2x2", ("stmatrix", 4, False), 16, ("mma", "sm80_f16_2x2", "C")),
    ("universal_f32_C_2x2", ("universal", 32), 32, ("mma", "sm80_f16_2x2", "C")),
    ("cp_async_16b_f16_16x8", ("cp_async", 128), 16, ("tv", ((16, 8), (8, 1)), ((1, 8), (0, 1)))),
    ("cp_async_16b_f16_32x4", ("cp_async", 128), 16, ("tv", ((32, 4), (4, 1)), ((1, 8), (0, 1)))),
    ("cp_async_16b_f32_colmajor", ("cp_async", 128), 32, ("tv", ((8, 16), (1, 8)), ((4, 1), (1, 0)))),
    ("cp_async_16b_bf16_8x16", ("cp_async", 128), 16, ("tv", ((8, 16), (16, 1)), ((1, 8), (0, 1)))),
    ("universal_f32_32x4_4x1", ("universal", 32), 32, ("tv", ((32, 4), (1, 32)), ((4, 1), (1, 0)))),
    ("universal_f16_vec_64b", ("universal", 64), 16, ("tv", ((16, 8), (8, 1)), ((1, 4), (0, 1)))),
]

# Inputs this crate refuses (COMPARE.md): the DSL's output is recorded to show why.
# A tile of 16 rows for two 16-row atoms: the DSL gives both atoms the same rows (stride 0).
# A "permutation" (4,4):(1,8) of 16 columns that is no permutation (its image reaches 28): the DSL's
# layouts send values outside the 32x16 tile.
REFUSED_MMAS = [
    ("sm80_f16_2x1_perm_m16", ("sm80_16x8x16", "f16"), ((2, 1, 1), (1, 0, 0)), [16, None, None]),
    ("sm80_f16_2x2_perm_n_not_bijective", ("sm80_16x8x16", "f16"), ((2, 2, 1), (1, 2, 0)),
     [32, ((4, 4), (1, 8)), 16]),
]

DTYPES = {"f16": cutlass.Float16, "bf16": cutlass.BFloat16, "f32": cutlass.Float32}
ELEMS = {16: cutlass.Float16, 32: cutlass.Float32}


def tup(x):
    if isinstance(x, (tuple, list)):
        return "(" + ",".join(tup(y) for y in x) + ")"
    return str(x)


def lay_str(sd):
    return tup(sd[0]) + ":" + tup(sd[1])


def tile_str(t):
    if t is None:
        return "_"
    if isinstance(t, int):
        return str(t)
    return lay_str(t)


def to_dsl_tile(t):
    if t is None:
        return None
    if isinstance(t, int):
        return t
    return cute.make_layout(t[0], stride=t[1])


def mma_op(atom):
    kind, arg = atom
    if kind == "sm80_16x8x16":
        return warp.MmaF16BF16Op(DTYPES[arg], cutlass.Float32, (16, 8, 16))
    if kind == "sm80_16x8x8_tf32":
        return warp.MmaTF32Op((16, 8, 8))
    dt, n = arg
    return warpgroup.MmaF16BF16Op(DTYPES[dt], cutlass.Float32, (64, n, 16),
                                  warpgroup.OperandSource.SMEM, OperandMajorMode.K, OperandMajorMode.K)


def copy_op(atom):
    if atom[0] == "ldmatrix":
        return warp.LdMatrix8x8x16bOp(atom[2], atom[1]), {}
    if atom[0] == "stmatrix":
        return warp.StMatrix8x8x16bOp(atom[2], atom[1]), {}
    if atom[0] == "cp_async":
        return cpasync.CopyG2SOp(cache_mode=cpasync.LoadCacheMode.GLOBAL), {"num_bits_per_copy": atom[1]}
    return cute.nvgpu.CopyUniversalOp(), {"num_bits_per_copy": atom[1]}


TENSOR = re.compile(r"^tensor<(\d+) o (.*)>$")


def split_tensor(t):
    m = TENSOR.match(str(t))
    if not m:
        raise ValueError(f"unexpected tensor print {t}")
    return {"offset": int(m.group(1)), "layout": m.group(2)}


def row_major(m, n):
    return ((m, n), (n, 1))


OUT = {}


def run_all():
    """Builds every case; called inside `trace` (a plain function, so that the DSL's rewriting of
    `if` and `for` in jit functions leaves this Python control flow alone)."""
    mmas = {}
    for name, atom, al, perm in MMAS:
        kw = {}
        if perm is not None:
            kw["permutation_mnk"] = tuple(to_dsl_tile(t) for t in perm)
        t = cute.make_tiled_mma(mma_op(atom), cute.make_layout(al[0], stride=al[1]), **kw)
        mmas[name] = t
        tm, tn, tk = (t.get_tile_size(i) for i in range(3))
        thr = t.size // 2 + 1 if t.size > 1 else 0
        data_a, data_b, data_c = row_major(2 * tm, 2 * tk), row_major(2 * tn, 2 * tk), row_major(2 * tm, 2 * tn)
        s = t.get_slice(thr)
        OUT.setdefault("mma", []).append({
            "name": name,
            "atom": [atom[0], atom[1] if not isinstance(atom[1], tuple) else list(atom[1])],
            "atom_layout": lay_str(al),
            "permutation": "<" + ",".join(tile_str(x) for x in (perm or [None] * 3)) + ">",
            "thr_layout_vmnk": str(t.thr_layout_vmnk),
            "tile_size": [int(tm), int(tn), int(tk)],
            "layout_a_tv": str(t.tv_layout_A_tiled),
            "layout_b_tv": str(t.tv_layout_B_tiled),
            "layout_c_tv": str(t.tv_layout_C_tiled),
            "thread": thr,
            "data_a": lay_str(data_a),
            "data_b": lay_str(data_b),
            "data_c": lay_str(data_c),
            "partition_a": split_tensor(s.partition_A(cute.make_tensor(0, cute.make_layout(*data_a[:1], stride=data_a[1])))),
            "partition_b": split_tensor(s.partition_B(cute.make_tensor(0, cute.make_layout(*data_b[:1], stride=data_b[1])))),
            "partition_c": split_tensor(s.partition_C(cute.make_tensor(0, cute.make_layout(*data_c[:1], stride=data_c[1])))),
        })
    for name, atom, al, perm in REFUSED_MMAS:
        t = cute.make_tiled_mma(mma_op(atom), cute.make_layout(al[0], stride=al[1]),
                                permutation_mnk=tuple(to_dsl_tile(x) for x in perm))
        OUT.setdefault("refused_mma", []).append({
            "name": name,
            "atom": [atom[0], atom[1]],
            "atom_layout": lay_str(al),
            "permutation": "<" + ",".join(tile_str(x) for x in perm) + ">",
            "dsl_layout_c_tv": str(t.tv_layout_C_tiled),
            "dsl_tile_size": [int(t.get_tile_size(i)) for i in range(3)],
        })
    for name, atom, bits, src in COPIES:
        op, kw = copy_op(atom)
        ca = cute.make_copy_atom(op, ELEMS[bits], **kw)
        if src[0] == "tv":
            tc = cute.make_tiled_copy_tv(ca, cute.make_layout(src[1][0], stride=src[1][1]),
                                         cute.make_layout(src[2][0], stride=src[2][1]))
            source = {"thr": lay_str(src[1]), "val": lay_str(src[2])}
        else:
            mk = {"A": cute.make_tiled_copy_A, "B": cute.make_tiled_copy_B, "C": cute.make_tiled_copy_C}[src[2]]
            tc = mk(ca, mmas[src[1]])
            source = {"mma": src[1], "operand": src[2]}
        tiler = [str(x) for x in tc.tiler_mn] if isinstance(tc.tiler_mn, tuple) else [str(tc.tiler_mn)]
        sizes = [cute.size(x) for x in tc.tiler_mn]
        data = row_major(2 * sizes[0], 2 * sizes[1])
        thr = cute.size(tc.layout_tv_tiled, mode=[0]) // 2 + 1
        sl = tc.get_slice(thr)
        dl = cute.make_layout(data[0], stride=data[1])
        ps = split_tensor(sl.partition_S(cute.make_tensor(0, dl)))
        pd = split_tensor(sl.partition_D(cute.make_tensor(0, dl)))
        entry = {
            "name": name,
            "atom": list(atom),
            "elem_bits": bits,
            "source": source,
            "atom_src_tv": str(ca.layout_src_tv),
            "atom_dst_tv": str(ca.layout_dst_tv),
            "layout_tv": str(tc.layout_tv_tiled),
            "tiler": tiler,
            "layout_s_tv": str(tc.layout_src_tv_tiled),
            "layout_d_tv": str(tc.layout_dst_tv_tiled),
            "thread": thr,
            "data": lay_str(data),
            "partition_s": ps,
            "partition_d": pd,
        }
        if src[0] == "mma":
            # the fragment of the MMA's operand that the copy's destination retiles
            t = mmas[src[1]]
            tile = [t.get_tile_size(0), t.get_tile_size(1), t.get_tile_size(2)]
            mn = {"A": (tile[0], tile[2]), "B": (tile[1], tile[2]), "C": (tile[0], tile[1])}[src[2]]
            part = {"A": "partition_A", "B": "partition_B", "C": "partition_C"}[src[2]]
            fr = getattr(t.get_slice(thr), part)(cute.make_tensor(0, cute.make_layout((2 * mn[0], 2 * mn[1]))))
            frag = cute.make_layout(fr.layout.shape)
            entry["retile_of"] = str(frag)
            entry["retile"] = split_tensor(tc.retile(cute.make_tensor(0, frag)))["layout"]
        OUT.setdefault("copy", []).append(entry)


@cute.jit
def trace():
    run_all()


def main():
    trace()
    doc = {
        "oracle": "CuTe DSL (nvidia-cutlass-dsl) traced on the CPU, CUTE_DSL_ARCH=sm_90a",
        "version": getattr(cutlass, "__version__", "unknown"),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "script": "scripts/tiled_oracle.py",
        **OUT,
    }
    text = json.dumps(doc, indent=1) + "\n"
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
