#!/usr/bin/env python3
"""The module graph of a crate's sources, and its circles (the core's layering, DESIGN.md).

Usage: scripts/modgraph.py [SRC_DIR] [--allow a,b] [--edges]

SRC_DIR defaults to crates/cute/src. A module is a file (`algebra/divide/tile.rs` is
`algebra::divide::tile`, a `mod.rs` names its folder). Module M depends on module N when M's code
(comments, doc comments and the trailing `#[cfg(test)] mod tests` left out) names a path
`crate::N::...` or `super::...` that resolves to N (the longest prefix of the path that is a
module), or a name that lib.rs re-exports from N (`crate::Error`, `crate::{Error, Layout}`).
A module's own children do not count as a circle with it.

It prints every strongly connected component of more than one module with its internal edges,
and exits 1 when there is one other than the allowed set (default `error,layout`: errors carry
their operands, and a layout's constructors return errors; see DESIGN.md, "Layering").
`--edges` prints the whole graph, module by module.
"""

import collections
import os
import re
import sys


def strip(src):
    src = re.split(r"#\[cfg\(test\)\]\s*mod tests", src)[0]
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    return re.sub(r"//[^\n]*", "", src)


def expand(prefix, body):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e'] (prefix 'a', body 'b, c::{d, e}')."""
    out, depth, item = [], 0, ""
    for ch in body + ",":
        if ch == "," and depth == 0:
            item = item.strip()
            if item:
                m = re.match(r"^([\w:]*?)::\{(.*)\}$", item, re.S)
                if m:
                    out += expand(prefix + "::" + m.group(1), m.group(2))
                elif item.startswith("{") and item.endswith("}"):
                    out += expand(prefix, item[1:-1])
                else:
                    out.append(prefix + "::" + item.split(" as ")[0].strip())
            item = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        item += ch
    return out


def paths(src, root):
    """Every path that starts with `root::` (`crate` or `super`), brace groups expanded."""
    found = []
    for m in re.finditer(r"\b" + root + r"::", src):
        tail = re.match(r"[\w:]*", src[m.end():]).group(0)
        j = m.end() + len(tail)
        if j < len(src) and src[j] == "{" and (tail == "" or tail.endswith("::")):
            depth, k = 1, j + 1
            while depth and k < len(src):
                depth += {"{": 1, "}": -1}.get(src[k], 0)
                k += 1
            prefix = (root + "::" + tail).rstrip(":")
            found += [p[len(root) + 2:] for p in expand(prefix, src[j + 1:k - 1])]
        else:
            found.append(tail.rstrip(":"))
    return found


def main(argv):
    argv = list(argv)
    allow = {"error", "layout"}
    if "--allow" in argv:
        i = argv.index("--allow")
        allow = set(argv[i + 1].split(","))
        del argv[i:i + 2]
    args = [a for a in argv if not a.startswith("--")]
    src_dir = args[0] if args else "crates/cute/src"
    mods = {}
    for dp, _, files in os.walk(src_dir):
        for f in files:
            if f.endswith(".rs"):
                rel = os.path.relpath(os.path.join(dp, f), src_dir)[:-3]
                rel = rel[:-4] if rel.endswith("/mod") else rel
                if rel != "lib":
                    with open(os.path.join(dp, f)) as fh:
                        mods[rel.replace("/", "::")] = strip(fh.read())
    names = set(mods)

    def module_of(parts, base=()):
        for k in range(len(parts), 0, -1):
            cand = "::".join(list(base) + parts[:k])
            if cand in names:
                return cand
        return None

    reexported = {}
    with open(os.path.join(src_dir, "lib.rs")) as fh:
        lib = strip(fh.read())
    for p in paths(lib.replace("pub use ", "pub use crate::"), "crate"):
        parts = p.split("::")
        owner = module_of(parts[:-1])
        if owner:
            reexported[parts[-1]] = owner

    edges = collections.defaultdict(set)
    for m, src in mods.items():
        for p in paths(src, "crate"):
            parts = p.split("::")
            dep = module_of(parts) or reexported.get(parts[0])
            if dep and dep != m and not m.startswith(dep + "::"):
                edges[m].add(dep)
        parent = m.rsplit("::", 1)[0].split("::") if "::" in m else []
        for p in paths(src, "super"):
            dep = module_of(p.split("::"), parent)
            if dep and dep != m and not m.startswith(dep + "::"):
                edges[m].add(dep)

    if "--edges" in argv:
        for m in sorted(names):
            print(m, "->", ", ".join(sorted(edges[m])))

    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            sccs.append(sorted(comp))

    for v in sorted(names):
        if v not in index:
            visit(v)
    bad = False
    for comp in sccs:
        if len(comp) > 1:
            print(comp)
            for a in comp:
                print("   ", a, "->", sorted(x for x in edges[a] if x in comp))
            bad |= set(comp) != allow
    print(f"{len(names)} modules; circles other than {{{', '.join(sorted(allow))}}}: "
          f"{'yes' if bad else 'none'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
