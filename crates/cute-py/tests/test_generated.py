"""Every operation of the core's table (`cute ops --json`) is reachable from Python under its name
(`filter_`, `slice_` for those that would shadow a builtin) with the table's parameters, and gives
on the table's example the value the command line prints for it. The functions the generic
dispatcher makes (crates/cute-py/src/table.rs) have exactly the table's signature; the hand-kept
ones take the table's parameters first."""

import inspect
import json
import os
import pathlib
import subprocess

import pytest

import cute_algebra._native as N
from cute_algebra import ComposedLayout, Layout

ROOT = pathlib.Path(__file__).resolve().parents[3]
RENAMED = {"filter": "filter_", "slice": "slice_"}
# hand-kept functions whose parameters are not the table's (crates/cute-py/src/table.rs, HAND_KEPT)
OTHER_FORM = {
    "make_layout": "make_layout(shape, stride=None, *layouts): layouts also as arguments",
    "recast": "recast(layout, num, den=None): the scale as two ints",
}


def cute(*args):
    """The `cute` command line: $CUTE, else the release binary, else through cargo."""
    exe = os.environ.get("CUTE") or ROOT / "target" / "release" / "cute"
    cmd = [str(exe)] if pathlib.Path(exe).is_file() else [
        "cargo", "run", "-q", "--release", "-p", "cute-cli", "--bin", "cute", "--"]
    return subprocess.run(cmd + list(args), cwd=ROOT, capture_output=True, text=True)


@pytest.fixture(scope="module")
def table():
    r = cute("ops", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def split_top(s):
    depth, start, out = 0, 0, []
    for i, c in enumerate(s):
        if c in "(<":
            depth += 1
        elif c in ")>":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(s[start:i])
            start = i + 1
    out.append(s[start:])
    return out


def tuple_of(text):
    """An integer tuple or partial coordinate in CuTe notation as Python (`_` as None)."""
    if text.startswith("("):
        return tuple(tuple_of(x) for x in split_top(text[1:-1]))
    return None if text == "_" else int(text)


def tiler_of(text):
    if text.startswith("<"):
        return tuple(tiler_of(x) for x in split_top(text[1:-1]))
    if text == "_":
        return None
    return Layout.parse(text) if ":" in text else int(text)


def argument(kind, text):
    if kind in ("layout",):
        return Layout.parse(text)
    if kind == "tiler":
        return tiler_of(text)
    if kind == "profile":
        return tiler_of(text.replace("(", "<").replace(")", ">"))
    if kind in ("int_tuple", "coord"):
        return tuple_of(text)
    if kind in ("int", "mode"):
        return int(text)
    if kind == "composed":
        return ComposedLayout.parse(text)
    if kind in ("layout_or_tuple", "shape_or_layout"):
        return Layout.parse(text) if ":" in text else tuple_of(text)
    raise AssertionError(f"no Python form for kind {kind}")


def text(v):
    """A Python result in CuTe notation, as the command line prints it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return "(" + ",".join(text(x) for x in v) + ")"
    return str(v)


def printed(kind, v):
    if kind == "counting":
        return f"{{{v[1]}}} ∘ {v[0]}"
    if kind == "shape_and_layout":
        return f"{text(v[0])} {v[1]}"
    if kind == "set":
        return "{" + ",".join(map(str, v)) + "}"
    if kind == "values":
        return "(" + ",".join(text(x) for x in v) + ")"
    return text(v)


def test_the_table_is_listed(table):
    assert len(table) >= 60
    assert {"logical_divide", "complement", "slice"} <= {op["name"] for op in table}


def test_every_operation_has_the_tables_signature(table):
    for op in table:
        name = RENAMED.get(op["name"], op["name"])
        f = getattr(N, name)
        assert name in N.__all__, name
        if op["name"] in OTHER_FORM:
            continue
        params = list(inspect.signature(f).parameters.values())
        for p, q in zip(op["params"], params):
            assert p["name"] == q.name, (name, p, q)
            if p["arity"] in ("many", "any"):
                assert q.kind is inspect.Parameter.VAR_POSITIONAL, (name, q)
            elif p["arity"] == "optional":
                assert q.default is None, (name, q)
            else:
                assert q.default is inspect.Parameter.empty, (name, q)
        assert len(params) >= len(op["params"]), name
        # a generated function has exactly the table's parameters; a hand-kept one may add some
        extra = params[len(op["params"]):]
        assert all(q.default is None for q in extra), (name, extra)


def test_every_operation_gives_the_command_lines_value(table):
    for op in table:
        name = RENAMED.get(op["name"], op["name"])
        ex = op["example"]
        r = cute(op["name"], *ex["args"])
        assert r.returncode == 0, (op["name"], r.stderr)
        cli = r.stdout.rstrip("\n")
        assert cli == ex["value"], op["name"]
        if op["name"] == "recast":
            num, _, den = ex["args"][1].partition("/")
            args = [Layout.parse(ex["args"][0]), int(num), int(den or 1)]
        else:
            kinds = [p["kind"] for p in op["params"]]
            kinds += [kinds[-1]] * (len(ex["args"]) - len(kinds))
            args = [argument(k, a) for k, a in zip(kinds, ex["args"])]
        got = getattr(N, name)(*args)
        assert printed(op["result"], got) == cli, (op["name"], got, cli)


def test_generated_functions_refuse_as_the_hand_written_ones_did():
    with pytest.raises(TypeError, match="expected a tiler"):
        N.zipped_divide(Layout(8), "4")
    with pytest.raises(TypeError, match="missing required argument 'tiler'"):
        N.zipped_divide(Layout(8))
    with pytest.raises(TypeError, match="unexpected keyword argument 'x'"):
        N.with_shape(Layout(4, 2), (2, 2), x=1)
    with pytest.raises(TypeError, match="positional arguments but 3 were given"):
        N.with_shape(Layout(4, 2), (2, 2), 1)
    with pytest.raises(N.LayoutError) as e:
        N.composition_mode(Layout((4, 8)), 2, 4)
    assert e.value.op == "composition_mode"
    assert N.crd2idx((1, 2), (4, 8), stride=(8, 1)) == N.crd2idx((1, 2), (4, 8), (8, 1)) == 10
    assert N.crd2idx((1, 2), (4, 8), None) == N.crd2idx((1, 2), (4, 8)) == 9
    assert N.get((4, (2, 3)), 1, 0) == 2 and N.get((4, (2, 3))) == (4, (2, 3))
