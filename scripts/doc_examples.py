#!/usr/bin/env python3
"""List the public functions of the core crate `cute` whose doc comment has no example.

Usage: scripts/doc_examples.py [--allow N] [--errors M] [--all] [--src DIR]

Prints `path:line name` for every public function without an example of its own, then a summary
line, and exits 1 when more than N (default 0) are missing. With `--errors M`, it also prints
`path:line name (no # Errors)` for every such function that returns a `Result` (its header names
`Result<` after `->`) and whose doc comment has no `# Errors` heading, and exits 1 when more than M
are missing. `--all` also lists the functions
that do have an example (marked `ok`). Python 3, standard library only.

Which functions count (the crate's public API, read from the source without compiling it):

* A free `pub fn` (also `pub const fn`, `pub unsafe fn`, `pub async fn`) at module level counts
  when every module on its path is `pub mod` (the crate root `lib.rs` is public), or when its
  name is re-exported by some `pub use` of the crate (a function of a private module that the
  crate re-exports).
* A `pub fn` inside an inherent `impl Type { .. }` (no `for`) counts when `Type` is public: declared
  `pub struct/enum/union/type/trait` in a public module, or named by a `pub use`. This holds
  wherever the impl block is written (a private module may add methods to a public type).
* Not counted: `pub(crate)`, `pub(super)` and `pub(in ..)` items; functions in trait impls
  (`impl Display for Layout`, `impl FromStr ..`: their doc is the trait's); the methods declared in
  trait definitions; functions nested in function bodies or inside `macro_rules!`; `#[cfg(test)]`
  modules and `mod tests`; items marked `#[doc(hidden)]`.

A function has an example when its own doc comment (the `///` lines right above it, attributes
in between allowed) contains a fenced code block: a line whose text after `///` starts with three
backticks. A module's or type's example does not count for its functions.
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SRC = os.path.join(ROOT, "crates", "cute", "src")


def blank_literals(text):
    """Return `text` with comments, strings and char literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif re.match(r'(b?r#*")', text[i:i + 40]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'b?r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'":
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'\n])'", text[i:])
            if m:
                out.append(" " * m.end())
                i += m.end()
            else:  # a lifetime or a label
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def module_files(src):
    """Map each source file to whether its module path is public, following `mod` declarations."""
    public = {}

    def visit(path, is_public):
        public[path] = is_public
        with open(path, encoding="utf-8") as f:
            text = blank_literals(f.read())
        base = os.path.dirname(path)
        if os.path.basename(path) not in ("lib.rs", "mod.rs"):
            base = os.path.join(base, os.path.basename(path)[:-3])
        for m in re.finditer(r"(?m)^\s*(pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text):
            vis, name = m.group(1), m.group(2)
            child_public = is_public and vis is not None and "(" not in vis
            for cand in (os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs")):
                if os.path.exists(cand):
                    visit(cand, child_public)
                    break

    visit(os.path.join(src, "lib.rs"), True)
    return public


def reexports(texts):
    """Names made public by `pub use` anywhere in the crate."""
    names = set()
    for text in texts.values():
        for m in re.finditer(r"(?s)\bpub\s+use\s+([^;]*);", text):
            body = m.group(1)
            for part in re.split(r"[{},]", body):
                part = part.strip()
                if not part or part.endswith("::"):
                    continue
                am = re.search(r"\bas\s+(\w+)$", part)
                names.add(am.group(1) if am else part.split("::")[-1].strip())
    return names


def doc_lines_above(lines, idx):
    """The `///` lines right above line `idx` (0-based), skipping attributes; None if hidden."""
    docs = []
    j = idx - 1
    hidden = False
    while j >= 0:
        s = lines[j].strip()
        if s.startswith("///"):
            docs.append(s[3:])
        elif s.startswith("#["):
            hidden = hidden or "doc(hidden)" in s
        else:
            break
        j -= 1
    return None if hidden else list(reversed(docs))


HEADER_FN = re.compile(r"\bfn\s+(\w+)")


def scan(path, text, file_public, reexported, public_types):
    """Yield (line, name, has_example, fallible, has_errors) for the counted functions of one file."""
    clean = blank_literals(text)
    lines = text.split("\n")
    # Context stack: each entry is (kind, info). kinds: module(public), impl(type), trait_impl,
    # skip (fn bodies, macros, tests, trait definitions, everything else).
    stack = [("module", file_public)]
    header_start = 0
    i, n = 0, len(clean)
    while i < n:
        c = clean[i]
        if c in ";{}":
            header = clean[header_start:i]
            top = stack[-1]
            if c == ";" or c == "{":
                # A function (with a body, or a declaration) directly in a module or inherent impl.
                fm = HEADER_FN.search(header)
                if fm and top[0] in ("module", "impl"):
                    pre = header[:fm.start()]
                    vis = re.search(r"\bpub\b(\s*\([^)]*\))?", pre)
                    attrs = header[:fm.start()]
                    line = clean.count("\n", 0, header_start + fm.start())
                    name = fm.group(1)
                    counted = False
                    if vis and not vis.group(1) and "cfg(test)" not in attrs:
                        if top[0] == "module":
                            counted = top[1] or name in reexported
                        else:
                            counted = top[1] in public_types
                    if counted:
                        docs = doc_lines_above(lines, line)
                        if docs is not None:
                            has = any(d.strip().startswith("```") for d in docs)
                            ret = header[fm.end():].split("->", 1)
                            fallible = len(ret) == 2 and re.search(r"\bResult\s*<", ret[1]) is not None
                            errors = any(d.strip() == "# Errors" for d in docs)
                            yield line + 1, name, has, fallible, errors
            if c == "{":
                stripped = re.sub(r"#\s*!?\s*\[[^\]]*\]", " ", header)
                if HEADER_FN.search(header) or "macro_rules" in header:
                    stack.append(("skip", None))
                elif re.search(r"\bmod\s+\w+\s*$", stripped):
                    mm = re.search(r"(\bpub(?:\([^)]*\))?\s+)?\bmod\s+(\w+)\s*$", stripped)
                    vis = mm.group(1)
                    is_test = mm.group(2) == "tests" or "cfg(test)" in header
                    pub = top[0] == "module" and top[1] and vis is not None and "(" not in vis
                    stack.append(("skip", None) if is_test else ("module", pub))
                elif re.search(r"\bimpl\b", stripped) and top[0] == "module":
                    body = re.sub(r"^.*?\bimpl\b", "", stripped, flags=re.S)
                    body = re.sub(r"\bwhere\b.*$", "", body, flags=re.S)
                    if re.search(r"\bfor\b", body):
                        stack.append(("trait_impl", None))
                    else:
                        # strip leading generics `<...>` then take the type's last path segment
                        body = body.strip()
                        if body.startswith("<"):
                            depth = 0
                            for k, ch in enumerate(body):
                                depth += (ch == "<") - (ch == ">")
                                if depth == 0:
                                    body = body[k + 1:]
                                    break
                        tm = re.match(r"\s*([\w:]+)", body)
                        tname = tm.group(1).split("::")[-1] if tm else ""
                        stack.append(("impl", tname))
                else:
                    stack.append(("skip", None))
            elif c == "}":
                if len(stack) > 1:
                    stack.pop()
            header_start = i + 1
        i += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--allow", type=int, default=0, help="tolerate up to N functions without an example")
    ap.add_argument("--errors", type=int, default=None, metavar="M",
                    help="also check the # Errors section of fallible functions, tolerating up to M missing")
    ap.add_argument("--all", action="store_true", help="also list the functions that have one")
    ap.add_argument("--src", default=DEFAULT_SRC, help="the crate's src directory")
    args = ap.parse_args()

    files = module_files(args.src)
    texts = {}
    for p in files:
        with open(p, encoding="utf-8") as f:
            texts[p] = f.read()
    clean = {p: blank_literals(t) for p, t in texts.items()}
    reexported = reexports(clean)
    public_types = set(reexported)
    for p, t in clean.items():
        if files[p]:
            public_types.update(re.findall(r"(?m)^\s*pub\s+(?:struct|enum|union|type|trait)\s+(\w+)", t))

    total = missing = fallible = no_errors = 0
    rel = os.path.relpath
    for p in sorted(files):
        for line, name, has, may_fail, errors in scan(p, texts[p], files[p], reexported, public_types):
            total += 1
            if not has:
                missing += 1
                print(f"{rel(p, ROOT)}:{line} {name}")
            elif args.all:
                print(f"{rel(p, ROOT)}:{line} {name} ok")
            if args.errors is not None and may_fail:
                fallible += 1
                if not errors:
                    no_errors += 1
                    print(f"{rel(p, ROOT)}:{line} {name} (no # Errors)")
    print(f"{total} public functions, {total - missing} with an example, {missing} without (allowed: {args.allow})")
    if args.errors is not None:
        print(f"{fallible} return a Result, {fallible - no_errors} with an # Errors section, "
              f"{no_errors} without (allowed: {args.errors})")
    return 1 if missing > args.allow or (args.errors is not None and no_errors > args.errors) else 0


if __name__ == "__main__":
    sys.exit(main())
