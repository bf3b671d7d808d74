#!/usr/bin/env python3
"""Turn the layout-algebra cases of CUTLASS's CuTe unit tests into conformance cases.

Usage:
    extract.py CUTLASS_CHECKOUT OUT_TSV -I INCLUDE_DIR [-I INCLUDE_DIR ...] [--work DIR]

CUTLASS_CHECKOUT is a checkout (or `git archive`) of github.com/NVIDIA/cutlass; its `include/` is
put first on the include path, so the oracle is the CuTe of that very commit. The other include
directories must supply what CuTe's headers include from the CUDA toolkit for a host-only g++
build: the CCCL headers (`cuda/std/...`, pip wheel nvidia-cuda-cccl, directory include/cccl), and
`cuda_runtime.h`, `cuda_fp16.h`, ... (pip wheels nvidia-cuda-runtime-cu12 and, for `crt/`,
nvidia-cuda-nvcc-cu12). This script fetches nothing.

Two stages, both compiled with g++ -std=c++17:
 1. Recording. For each test file, the bodies of its TEST(...) blocks are compiled with the
    file's `test_<op>(...)` helpers replaced by a recorder that prints the operation, the source
    line and the printed arguments (layouts, tilers, cotargets). The upstream helpers (which only
    assert properties) are not used; nothing of the test file is written into the repository.
 2. Oracle. Every recorded argument is rebuilt with all integers static (`Int<N>`), the operation
    is evaluated by static CuTe and its printed result is stored with the `_` markers removed.
Then every value is checked by brute force against the operation's defining property (C++
semantics: a layout at a negative index uses truncating division, as CuTe's evaluation does).
A value that fails is replaced by `ERROR Divisibility` with a `# cpp returns wrong layout` comment,
the policy of the conformance set (tests/data/README.md).
"""
import argparse
import os
import re
import subprocess
import sys

# test file -> (helper name, conformance op)
FILES = {
    "coalesce.cpp": [("test_coalesce", "coalesce")],
    "composition.cpp": [("test_composition", "composition")],
    "complement.cpp": [("test_complement", "complement")],
    "logical_divide.cpp": [("test_logical_divide", "logical_divide")],
    "logical_product.cpp": [("test_logical_product", "logical_product")],
    "inverse_left.cpp": [("test_left_inverse", "left_inverse")],
    "inverse_right.cpp": [("test_right_inverse", "right_inverse")],
    "nullspace.cpp": [("test_nullspace", "nullspace")],
    "domain_distribute.cpp": [("test_distribute", "domain_distribute")],
    # test_evenly_divides(a, b) divides make_layout(shape(a)) by b where evenly_divides(a, b) is
    # statically true
    "int_tuple.cpp": [("test_evenly_divides", "evenly_divides")],
    # not helpers: CuTe functions called inside assertions; recorded where called with a shape only
    "compact_xmajor.cpp": [("compact_col_major", "compact_col_major"),
                           ("compact_row_major", "compact_row_major")],
}
WRAPPED = {"compact_col_major", "compact_row_major"}

RECORDER = r'''
#include <cute/layout.hpp>
#include <cute/layout_composed.hpp>
#include <cute/swizzle.hpp>
#include <cute/swizzle_layout.hpp>
#include <iostream>
#include <sstream>
using namespace cute;
#define CUTLASS_TRACE_HOST(...) do {} while (0)
#define EXPECT_TRUE(...) do {} while (0)
#define EXPECT_EQ(...) do {} while (0)
#define ASSERT_EQ(...) do {} while (0)
#define ASSERT_TRUE(...) (void)(__VA_ARGS__)
#define CUTE_STATIC_ASSERT_V(...) (void)(__VA_ARGS__)
template <class T> bool rec_arg(std::ostream& os, T const& x) {
  if constexpr (is_layout<T>::value) {
    os << x; return true;
  } else if constexpr (is_integral<T>::value) {
    os << x; return true;
  } else if constexpr (is_tuple<T>::value) {
    // a tuple holding a layout is a by-mode tiler: printed <...>; otherwise a shape
    bool tiler = false, ok = true;
    for_each(x, [&](auto const& e) { if (is_layout<std::decay_t<decltype(e)>>::value) tiler = true; });
    os << (tiler ? "<" : "(");
    int k = 0;
    for_each(x, [&](auto const& e) { if (k++) os << ","; ok = ok && rec_arg(os, e); });
    os << (tiler ? ">" : ")");
    return ok;
  } else {
    return false;
  }
}
template <class... A> void rec(const char* op, int line, A const&... a) {
  std::ostringstream os; bool ok = true;
  ((os << "\t", ok = ok && rec_arg(os, a)), ...);
  if (ok) std::cout << "CASE\t" << line << "\t" << op << os.str() << "\n";
  else std::cout << "SKIP\t" << line << "\t" << op << "\n";
}
template <class F, class... A> auto rec_wrap(const char* op, int line, F f, A const&... a) {
  rec(op, line, a...);
  return f();
}
// a tiler: a tuple printed <...> at every depth, an integer n as n:1
template <class T> struct AsTiler { T t; };
template <class T> bool rec_arg(std::ostream& os, AsTiler<T> const& x) {
  if constexpr (is_tuple<T>::value) {
    bool ok = true; int k = 0;
    os << "<";
    for_each(x.t, [&](auto const& e) {
      if (k++) os << ",";
      using E = std::decay_t<decltype(e)>;
      if constexpr (is_tuple<E>::value && !is_layout<E>::value) ok = ok && rec_arg(os, AsTiler<E>{e});
      else ok = ok && rec_arg(os, e);
    });
    os << ">";
    return ok;
  } else if constexpr (is_integral<T>::value) {
    return rec_arg(os, make_layout(x.t));
  } else {
    return rec_arg(os, x.t);
  }
}
template <class A, class B> auto rec_evenly_divides(int line, A const& a, B const& b) {
  auto result = evenly_divides(a, b);
  if constexpr (is_constant<true, decltype(result)>::value) {
    rec("logical_divide", line, make_layout(shape(a)), AsTiler<B>{b});
  }
  return result;
}
// test_complement(L) is test_complement(L, cosize(L)) upstream: record that cotarget
template <class L> void rec_complement(int line, L const& l) { rec("complement", line, l, cosize(l)); }
template <class L, class C> void rec_complement(int line, L const& l, C const& c) { rec("complement", line, l, c); }
#define TEST(a, b) void a##_##b()
'''


def stage1(path, fname, helpers, incs, work):
    text = open(path).read()
    lines = text.split("\n")
    first = next(i for i, l in enumerate(lines) if l.startswith("TEST("))
    tests = re.findall(r"^TEST\((\w+),\s*(\w+)\)", text, re.M)
    src = [RECORDER]
    for h, op in helpers:
        if op in WRAPPED:
            src.append(f'#define {h}(...) rec_wrap("{op}", __LINE__, [&] {{ return cute::{h}(__VA_ARGS__); }}, __VA_ARGS__)')
        elif op == "evenly_divides":
            src.append(f"#define {h}(...) rec_evenly_divides(__LINE__, __VA_ARGS__)")
            src.append("#undef EXPECT_TRUE")
            src.append("#define EXPECT_TRUE(...) (void)(__VA_ARGS__)")
            src.append("#define EXPECT_FALSE(...) (void)(__VA_ARGS__)")
        elif op == "complement":
            src.append(f"#define {h}(...) rec_complement(__LINE__, __VA_ARGS__)")
        else:
            src.append(f'#define {h}(...) rec("{op}", __LINE__, __VA_ARGS__)')
    body = lines[first:]
    # a helper defined between the TESTs is dropped (blanked, so line numbers stay)
    names = [h for h, _ in helpers]
    k = 0
    while k < len(body):
        if body[k].startswith("template") and any(
                re.match(rf"^(\w+\s+)*{h}\(", x) for h in names for x in body[k + 1:k + 3]):
            while body[k] != "}":
                body[k] = ""
                k += 1
            body[k] = ""
        k += 1
    src.append(f'#line {first + 1} "{fname}"')
    src.extend(body)
    src.append("int main() {")
    src.extend(f"  {a}_{b}();" for a, b in tests)
    src.append("}")
    return run_cpp("\n".join(src), os.path.join(work, "rec_" + fname[:-4]), incs)


def run_cpp(src, stem, incs):
    with open(stem + ".cpp", "w") as f:
        f.write(src)
    cmd = ["g++", "-std=c++17", "-O0", "-w"] + [f"-I{i}" for i in incs] + [stem + ".cpp", "-o", stem]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"g++ failed for {stem}.cpp:\n{r.stderr[:4000]}")
    return subprocess.run([stem], capture_output=True, text=True, check=True).stdout


# ---- stage 2: static C++ from the printed text ----

def tokens(s):
    return re.findall(r"-?\d+(?:@\d+)*|[(),:<>]", s)


def parse_items(t, i, close, item):
    """The items, each read by `item`, of the bracketed list that starts at `t[i]` and ends at
    `close`: (the items, the position after `close`)."""
    i += 1
    items = []
    while t[i] != close:
        v, i = item(t, i)
        items.append(v)
        if t[i] == ",":
            i += 1
    return items, i + 1


def parse_node(t, i):
    if t[i] == "(":
        items, i = parse_items(t, i, ")", parse_node)
        return tuple(items), i
    if "@" in t[i]:
        v, *path = t[i].split("@")
        return ("E", int(v), tuple(int(p) for p in reversed(path))), i + 1
    return int(t[i]), i + 1


def parse_value(t, i=0):
    """layout (shape, stride) | ('tiler', [items]) | int/tuple"""
    if t[i] == "<":
        items, i = parse_items(t, i, ">", parse_value)
        return ("tiler", items), i
    n, i = parse_node(t, i)
    if i < len(t) and t[i] == ":":
        d, i = parse_node(t, i + 1)
        return ("layout", n, d), i
    return ("shape", n), i


def is_tup(n):
    return isinstance(n, tuple) and not (len(n) == 3 and n[0] == "E")


def cpp_node(n, ctor):
    if not is_tup(n) and isinstance(n, tuple):
        return f"ScaledBasis<Int<{n[1]}>," + ",".join(map(str, n[2])) + ">{}"
    if is_tup(n):
        return f"{ctor}(" + ",".join(cpp_node(x, ctor) for x in n) + ")"
    return f"Int<{n}>{{}}"


def cpp_value(v):
    if v[0] == "layout":
        return f"make_layout({cpp_node(v[1], 'make_shape')},{cpp_node(v[2], 'make_stride')})"
    if v[0] == "tiler":
        return "make_tile(" + ",".join(cpp_value(x) for x in v[1]) + ")"
    return cpp_node(v[1], "make_shape")


CALL = {
    "coalesce": "coalesce({0})",
    "composition": "composition({0},{1})",
    "complement": "complement({0},{1})",
    "complement1": "complement({0})",
    "logical_divide": "logical_divide({0},{1})",
    "logical_product": "logical_product({0},{1})",
    "left_inverse": "left_inverse({0})",
    "right_inverse": "right_inverse({0})",
    "nullspace": "nullspace({0})",
    "domain_distribute": "domain_distribute({0},{1})",
    "compact_col_major": "make_layout({0},GenColMajor{{}})",
    "compact_row_major": "make_layout({0},GenRowMajor{{}})",
}


def strip(s):
    return re.sub(r"_(?=-?\d)", "", s)


# ---- brute force (C++ semantics) ----

def flat(n):
    return [x for y in n for x in flat(y)] if is_tup(n) else [n]


def size(n):
    p = 1
    for x in flat(n):
        p *= x
    return p


def tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def tmod(a, b):
    return a - b * tdiv(a, b)


def val(leaf):
    """a stride leaf as {path (outer first): coefficient}, zeros dropped"""
    if isinstance(leaf, tuple):
        return {leaf[2]: leaf[1]} if leaf[1] else {}
    return {(): leaf} if leaf else {}


def add(a, b, c=1):
    r = dict(a)
    for k, v in b.items():
        r[k] = r.get(k, 0) + c * v
    return {k: v for k, v in r.items() if v}


def ev_sub(shape, stride, i):
    """CuTe's layout(i): colexicographic, last mode not reduced, truncating division."""
    s, d = flat(shape), flat(stride)
    r = {}
    for k, (x, y) in enumerate(zip(s, d)):
        c = i if k == len(s) - 1 else tmod(i, x)
        i = tdiv(i, x)
        r = add(r, val(y), c)
    return r


def ev_crd(shape, stride, c):
    """layout at an ArithTuple coordinate {path: v}: a path indexes the modes, outer first"""
    if set(c) <= {()}:
        return ev_sub(shape, stride, c.get((), 0))
    r = {}
    for p in sorted({k[0] for k in c}):
        sub = {k[1:]: v for k, v in c.items() if k and k[0] == p}
        r = add(r, ev_crd(shape[p], stride[p], sub))
    return r


def ev(lay, i):
    """an int where the value is an int; a sorted tuple of (path, coefficient) otherwise"""
    r = ev_crd(lay[1], lay[2], i) if isinstance(i, dict) else ev_sub(lay[1], lay[2], i)
    if set(r) <= {()}:
        return r.get((), 0)
    return r


def as_crd(x):
    return x if isinstance(x, dict) else {(): x}


def cosize(lay):
    return ev(lay, size(lay[1]) - 1) + 1 if size(lay[1]) else 0


def image(lay):
    return [ev(lay, i) for i in range(size(lay[1]))]


def check(op, args, res):
    """None if the result satisfies the op's defining property, else the reason."""
    if res[0] != "layout":
        return "result is not a layout"
    R = res
    n = size(R[1])
    if op in ("compact_col_major", "compact_row_major"):
        shp = args[0][1]
        fs = flat(shp)
        order = range(len(fs)) if op == "compact_col_major" else reversed(range(len(fs)))
        want, cur = [0] * len(fs), 1
        for k in order:
            want[k] = cur if fs[k] != 1 else 0
            cur *= fs[k]
        if R[1] != shp or [x for x in flat(R[2])] != want:
            return f"strides {flat(R[2])}, compact {want}"
        return None
    if op == "domain_distribute":
        n = size(R[1])
        img = image(R)
        if any(img[i] >= img[i + 1] for i in range(n - 1)):
            return "not ordered"
        if size(args[1][1]) % n or size(args[0][1]) % n:
            return "size(R) does not divide both sizes"
        return None
    if op == "coalesce":
        A = args[0]
        if n != size(A[1]) or image(A) != image(R):
            return "not the same function"
        if any(is_tup(x) for x in (R[1] if is_tup(R[1]) else ())):
            return "depth > 1"
        return None
    if op == "composition":
        A, B = args
        if B[0] == "tiler":
            return check_by_mode(A, B, R)
        if size(B[1]) != n:
            return "size(R) != size(B)"
        for i in range(n):
            if ev(R, i) != ev(A, as_crd(ev(B, i))):
                return f"R({i}) = {ev(R, i)} but A(B({i})) = {ev(A, as_crd(ev(B, i)))}"
        return None
    if op == "complement":
        A = args[0]
        cot = size(args[1][1]) if len(args) > 1 else cosize(A)
        img = set(image(A))
        ri = image(R)
        if any(ri[i - 1] >= ri[i] for i in range(1, len(ri))):
            return "not ordered"
        if len(ri) > 1 and any(x in img for x in ri[1:]):
            return "not disjoint"
        full = sorted(a + r for a in img for r in ri)
        if len(set(full)) != len(full):
            return "(A,R) not injective"
        if cosize(("layout", (A[1], R[1]), (A[2], R[2]))) < cot:
            return "(A,R) does not cover the cotarget"
        return None
    if op == "right_inverse":
        A = args[0]
        for i in range(n):
            if ev(A, ev(R, i)) != i:
                return f"A(R({i})) = {ev(A, ev(R, i))}"
        return None
    if op == "left_inverse":
        A = args[0]
        for i in range(size(A[1])):
            if ev(A, ev(R, ev(A, i))) != ev(A, i):
                return f"A(R(A({i}))) != A({i})"
        return None
    if op == "nullspace":
        A = args[0]
        zeros = size(A[1]) // size_nonzero(A)
        if n != zeros and not (zeros == 1 and n == 1):
            return f"size {n}, expected {zeros}"
        if any(ev(A, k) != 0 for k in image(R)):
            return "A(K(i)) != 0"
        if len(set(image(R))) != n:
            return "K not injective"
        return None
    if op == "logical_divide":
        A, B = args
        if B[0] == "tiler":
            return check_modes("logical_divide", A, B, R)
        # R = A o (B, B*), B* = complement(B, size(A)): R's first mode is A o B, R covers A's
        # domain (rounded up to a multiple of size(B), A's last mode extended), and where (B, B*)
        # is a bijection of [0, size(A)) R takes A's values, each as often as A does
        if size(R[1]) < size(A[1]) or size(R[1]) % max(size(B[1]), 1):
            return "size(R) does not cover size(A) in tiles of size(B)"
        why = check("composition", [A, B], mode(R, 0))
        if why:
            return f"mode 0: {why}"
        if size(R[1]) == size(A[1]) and sorted(map(key, image(R))) != sorted(map(key, image(A))):
            return "R is not A after a permutation of its domain"
        return None
    if op == "logical_product":
        A, B = args
        if B[0] == "tiler":
            return check_modes("logical_product", A, B, R)
        # R = (A, A* o B): its first mode is A, its size size(A) size(B), and it is injective
        # where A and B are
        if size(R[1]) != size(A[1]) * size(B[1]):
            return "size(R) != size(A) size(B)"
        if image(mode(R, 0)) != image(A):
            return "mode 0 is not A"
        inj = lambda L: len(set(map(key, image(L)))) == size(L[1])
        if inj(A) and inj(B) and not inj(R):
            return "A and B injective but R is not"
        return None
    return "no check"


def mode(L, k):
    if not is_tup(L[1]):
        assert k == 0
        return L  # an integer-shaped layout is its own mode 0, as in CuTe
    return ("layout", L[1][k], L[2][k])


def key(v):
    return tuple(sorted(v.items())) if isinstance(v, dict) else v


def size_nonzero(A):
    return size(tuple(s for s, d in zip(flat(A[1]), flat(A[2])) if d != 0))


def check_by_mode(A, T, R):
    if not (isinstance(A[1], tuple) and isinstance(R[1], tuple)):
        return "by-mode tiler needs modes"
    return check_modes("composition", A, T, R)


def check_modes(op, A, T, R):
    """`op` applied by mode: mode k of R is `op` of mode k of A and tile k of the tiler T (a shape
    tile `n` read as the layout `n:1`)."""
    for k, t in enumerate(T[1]):
        if t[0] == "shape":
            t = ("layout", t[1], 1)
        why = check(op, [mode(A, k), t], mode(R, k))
        if why:
            return f"mode {k}: {why}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cutlass")
    ap.add_argument("out")
    ap.add_argument("-I", dest="incs", action="append", default=[])
    ap.add_argument("--work", default="/tmp/cutlass_cases")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    incs = [os.path.join(a.cutlass, "include")] + a.incs
    core = os.path.join(a.cutlass, "test/unit/cute/core")
    commit = subprocess.run(["git", "-C", a.cutlass, "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or os.environ.get("CUTLASS_COMMIT", "unknown")
    recs, skipped, per_file = [], [], {}
    for fname, helpers in FILES.items():
        out = stage1(os.path.join(core, fname), fname, helpers, incs, a.work)
        seen = set()
        for line in out.splitlines():
            f = line.split("\t")
            if f[0] == "SKIP":
                skipped.append((fname, f[1], f[2]))
                continue
            if any("Sw<" in x or " o " in x for x in f[3:]):
                skipped.append((fname, f[1], f[2]))
                continue
            if f[2] in WRAPPED and len(f) != 4:
                continue  # with a current stride: no conformance op
            key = (f[2], tuple(strip(x) for x in f[3:]))
            if key in seen:
                continue
            seen.add(key)
            recs.append((fname, int(f[1]), f[2], [strip(x) for x in f[3:]]))
        per_file[fname] = sum(1 for r in recs if r[0] == fname)
    # stage 2
    body = []
    for k, (fname, line, op, args) in enumerate(recs):
        vals = [parse_value(tokens(x))[0] for x in args]
        key = op + ("1" if op == "complement" and len(args) == 1 else "")
        call = CALL[key].format(*[cpp_value(v) for v in vals])
        body.append(f'  {{ auto r = {call}; std::cout << "{k}\\t" << r << "\\n"; }}')
    src = "#include <cute/layout.hpp>\n#include <cute/numeric/arithmetic_tuple.hpp>\n#include <iostream>\nusing namespace cute;\nint main() {\n"
    src += "\n".join(body) + "\n}\n"
    out = run_cpp(src, os.path.join(a.work, "oracle"), incs)
    results = {}
    for line in out.splitlines():
        k, v = line.split("\t")
        results[int(k)] = strip(v)
    lines = [
        "# CUTLASS's own CuTe unit tests (test/unit/cute/core/*.cpp), as conformance cases.",
        f"# CUTLASS commit {commit}. Generated by scripts/cutlass_cases/extract.py; do not edit by hand.",
        "# Arguments: as recorded from each test's helper call; expected: static CuTe C++ of that",
        "# commit (all integers Int<N>, `_` markers removed), checked by brute force (C++ semantics).",
        "# source column: cpp:<file>:<line of the helper call in that file>. Upstream's one-argument",
        "# test_complement(L) calls complement(L, cosize(L)): recorded with that cotarget.",
        "# cases per file: " + ", ".join(f"{f} {n}" for f, n in per_file.items()),
    ]
    if skipped:
        lines.append("# not layouts (swizzled/composed), skipped: "
                     + ", ".join(f"{f}:{l}" for f, l, _ in skipped))
    bad = 0
    for k, (fname, line, op, args) in enumerate(recs):
        vals = [parse_value(tokens(x))[0] for x in args]
        res = results[k]
        why = check(op, vals, parse_value(tokens(res))[0])
        expected = res
        if why:
            bad += 1
            lines.append(f"# cpp returns wrong layout {res} ({why})")
            expected = "ERROR Divisibility"
        lines.append("\t".join([op] + args + ["=>", expected, f"cpp:{fname}:{line}"]))
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(recs)} cases ({bad} overturned), per file {per_file}, skipped {len(skipped)}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
