#!/usr/bin/env python3
"""Records the CuTe DSL's answers for the layout functions that `cute_algebra.dsl` mirrors: the
oracle of crates/cute-py/tests/test_dsl.py.

Usage (in a throwaway virtual environment; CPU is enough, nothing runs on a GPU):

    python3 -m venv /tmp/dslv && /tmp/dslv/bin/pip install nvidia-cutlass-dsl==4.8.1
    cd scripts && /tmp/dslv/bin/python dsl_oracle.py ../crates/cute-py/tests/data/dsl_oracle.json

Each case calls one `cutlass.cute` function on static layouts and tuples inside one `@cute.jit`
function (traced, not run: static values are computed while tracing) and records `str()` of the
result as the DSL prints it, or the exception's type when the DSL refuses. Arguments are written
in JSON: a list is a tuple, `{"L": [shape, stride]}` is `make_layout(shape, stride=stride)`
(`stride` null: compact), `{"E": [i, ...]}` a scaled basis, `null` is None.
"""

import datetime
import json
import sys

CASES = [
    ("make_layout", [[4, 8]], {}),
    ("make_layout", [[4, 8]], {"stride": [8, 1]}),
    ("make_layout", [[[2, 2], 3]], {}),
    ("make_layout", [8], {}),
    ("make_layout", [8], {"stride": 2}),
    ("make_layout", [[4]], {}),
    ("make_ordered_layout", [[4, 8, 2], [1, 2, 0]], {}),
    ("make_ordered_layout", [[4, 8], [1, 0]], {}),
    ("make_identity_layout", [[4, 6]], {}),
    ("make_identity_layout", [[4, [3, 2]]], {}),
    ("composition", [{"L": [[6, 2], [8, 2]]}, {"L": [[4, 3], [3, 1]]}], {}),
    ("composition", [{"L": [[8, 16], [20, 1]]}, [{"L": [4, 1]}, {"L": [8, 2]}]], {}),
    ("composition", [{"L": [[8, 16], [20, 1]]}, [4, 8]], {}),
    ("composition", [{"L": [[8, 8], [8, 1]]}, {"L": [[[4, 8], 2], [[16, 1], 8]]}], {}),
    ("composition", [{"L": [1, 1]}, {"L": [1, 1]}], {}),
    ("complement", [{"L": [4, 2]}, 24], {}),
    ("complement", [{"L": [[4, 8], [1, 8]]}, 64], {}),
    ("complement", [{"L": [[2, 2], [1, 6]]}, 24], {}),
    ("complement", [{"L": [4, 2]}, [4, 6]], {}),
    ("logical_divide", [{"L": [[8, 16], [20, 1]]}, [{"L": [4, 1]}, {"L": [8, 2]}]], {}),
    ("logical_divide", [{"L": [16, 1]}, {"L": [4, 2]}], {}),
    ("logical_divide", [{"L": [[8, 16], [20, 1]]}, [4, 8]], {}),
    ("zipped_divide", [{"L": [[8, 16], [20, 1]]}, [{"L": [4, 1]}, {"L": [8, 2]}]], {}),
    ("zipped_divide", [{"L": [[8, 16], [16, 1]]}, [4, 8]], {}),
    ("tiled_divide", [{"L": [[8, 16], [20, 1]]}, [4, 8]], {}),
    ("flat_divide", [{"L": [[8, 16], [20, 1]]}, [4, 8]], {}),
    # an integer tile is `make_layout(n)`: `1:0` for 1
    ("logical_divide", [{"L": [8, 2]}, 1], {}),
    ("logical_divide", [{"L": [[8, 4], [2, 16]]}, [1, 2]], {}),
    ("zipped_divide", [{"L": [[8, 4], [2, 16]]}, [1, 2]], {}),
    ("composition", [{"L": [[8, 4], [2, 16]]}, [1, 2]], {}),
    ("logical_product", [{"L": [8, 2]}, {"L": [1, None]}], {}),
    ("logical_product", [{"L": [[2, 2], [4, 1]]}, {"L": [6, 1]}], {}),
    ("logical_product", [{"L": [[3, 4], [4, 1]]}, {"L": [[2, 5], [1, 2]]}], {}),
    ("zipped_product", [{"L": [[2, 5], [5, 1]]}, {"L": [[3, 4], [1, 3]]}], {}),
    ("tiled_product", [{"L": [[2, 5], [5, 1]]}, {"L": [[3, 4], [1, 3]]}], {}),
    ("flat_product", [{"L": [[2, 5], [5, 1]]}, {"L": [[3, 4], [1, 3]]}], {}),
    ("blocked_product", [{"L": [[2, 5], [5, 1]]}, {"L": [[3, 4], [1, 3]]}], {}),
    ("blocked_product", [{"L": [[3, 4], [4, 1]]}, {"L": [[2, 5], [1, 2]]}], {}),
    ("raked_product", [{"L": [[2, 5], [5, 1]]}, {"L": [[3, 4], [1, 3]]}], {}),
    ("right_inverse", [{"L": [[4, 8], [8, 1]]}], {}),
    ("right_inverse", [{"L": [[[2, 2], [4, 2]], [[1, 8], [2, 16]]]}], {}),
    ("right_inverse", [{"L": [[4, 2], [1, 0]]}], {}),
    ("left_inverse", [{"L": [[4, 8], [8, 1]]}], {}),
    ("left_inverse", [{"L": [[2, 5], [22, 7]]}], {}),
    ("coalesce", [{"L": [[2, [1, 6]], [1, [6, 2]]]}], {}),
    ("coalesce", [{"L": [1, 1]}], {}),
    ("coalesce", [{"L": [[[2, [1, 4]], [3, 1]], [[1, [7, 2]], [8, 0]]]}], {}),
    ("coalesce", [{"L": [[[2, 2], [2, 2]], [[1, 2], [4, 8]]]}], {"target_profile": [1, 1]}),
    ("filter_zeros", [{"L": [[4, 2], [1, 0]]}], {}),
    ("filter_zeros", [{"L": [[4, [2, 3]], [0, [1, 0]]]}], {}),
    ("recast_layout", [16, 8, {"L": [[4, 8], [1, 4]]}], {}),
    ("recast_layout", [8, 16, {"L": [[4, 8], [1, 4]]}], {}),
    ("recast_layout", [32, 16, {"L": [[4, 8], [8, 1]]}], {}),
    ("max_common_vector", [{"L": [[4, 8], [1, 4]]}, {"L": [[4, 8], [1, 8]]}], {}),
    ("max_common_vector", [{"L": [[4, 8], [8, 1]]}, {"L": [[4, 8], [1, 4]]}], {}),
    ("size", [{"L": [[4, [2, 3]], [1, [4, 8]]]}], {}),
    ("size", [{"L": [[4, [2, 3]], [1, [4, 8]]]}], {"mode": [1]}),
    ("size", [[2, [3, 4]]], {}),
    ("cosize", [{"L": [[4, 8], [1, 8]]}], {}),
    ("cosize", [{"L": [[4, 8], [1, 8]]}], {"mode": [1]}),
    ("rank", [{"L": [[4, [2, 3]], [1, [4, 8]]]}], {}),
    ("rank", [{"L": [[4, [2, 3]], [1, [4, 8]]]}], {"mode": [1]}),
    ("rank", [[1, 2, 3]], {}),
    ("depth", [{"L": [[4, [2, 3]], [1, [4, 8]]]}], {}),
    ("depth", [5], {}),
    ("shape", [{"L": [[4, [2, 3]], [1, [4, 8]]]}], {}),
    ("shape", [{"L": [[4, [2, 3]], [1, [4, 8]]]}], {"mode": 1}),
    ("get", [{"L": [[4, [2, 3]], [1, [4, 8]]]}], {"mode": [1]}),
    ("get", [{"L": [[4, [2, 3]], [1, [4, 8]]]}], {"mode": [1, 0]}),
    ("get", [[4, [2, 3]]], {"mode": [1]}),
    ("select", [{"L": [[4, 6, 8], [1, 4, 24]]}], {"mode": [2, 0]}),
    ("select", [[4, 6, 8]], {"mode": [1]}),
    ("group_modes", [{"L": [[4, 6, 8, 2], [1, 4, 24, 192]]}, 1, 3], {}),
    ("group_modes", [{"L": [[4, 6, 8], [1, 4, 24]]}, 0, 2], {}),
    ("append", [{"L": [[4, 6], [1, 4]]}, {"L": [8, 24]}], {}),
    ("append", [{"L": [4, 1]}, {"L": [1, 0]}], {"up_to_rank": 3}),
    ("prepend", [{"L": [[4, 6], [1, 4]]}, {"L": [8, 24]}], {}),
    ("prepend", [{"L": [4, 1]}, {"L": [1, 0]}], {"up_to_rank": 3}),
]


def main():
    import cutlass
    import cutlass.cute as cute

    out = sys.argv[1] if len(sys.argv) > 1 else "dsl_oracle.json"
    records = []

    def build(v):
        if isinstance(v, dict) and "L" in v:
            shape, stride = v["L"]
            return cute.make_layout(build(shape), stride=None if stride is None else build(stride))
        if isinstance(v, dict) and "E" in v:
            return cute.E(tuple(v["E"]) if len(v["E"]) > 1 else v["E"][0])
        if isinstance(v, list):
            return tuple(build(x) for x in v)
        return v

    def run_all():
        for name, args, kwargs in CASES:
            rec = {"op": name, "args": args, "kwargs": kwargs}
            try:
                r = getattr(cute, name)(*[build(a) for a in args],
                                        **{k: build(v) for k, v in kwargs.items()})
                rec["result"] = str(r)
            except Exception as e:  # the DSL refuses: record the kind
                rec["error"] = type(e).__name__
            records.append(rec)

    @cute.jit
    def trace():
        run_all()

    trace()
    data = {
        "provenance": {
            "oracle": f"CuTe DSL (nvidia-cutlass-dsl {cutlass.__version__}) inside @cute.jit, "
                      "static layouts, CPU (traced, not run)",
            "generated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "command": "cd scripts && python dsl_oracle.py ../crates/cute-py/tests/data/dsl_oracle.json",
        },
        "cases": records,
    }
    with open(out, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"{len(records)} cases, {sum('error' in r for r in records)} refused, written to {out}")


if __name__ == "__main__":
    main()
