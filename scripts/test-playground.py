#!/usr/bin/env python3
"""The layout playground in a real headless browser (Chromium from the distribution's packages).

Starts `cute playground --port 0 --no-open`, drives Chromium through the DevTools protocol over
a pipe (`--remote-debugging-pipe`; Python's standard library only) and checks:

* the page loads from the server and the module answers;
* a layout typed into the page (through the URL's state, and through an input event) gives the
  expected value in CuTe notation and an SVG with the right number of cells and labels, each label
  computed here from the layout's definition;
* an invalid layout shows the error with the offending character marked, and a refusal of the
  algebra shows its message;
* the TV-layout and bank-conflict views draw what they should;
* the URL after typing reproduces the same state when loaded again;
* a screenshot (PNG, decoded here with zlib) has the expected colours at chosen cells;
* an operation and its redraw for a 64x64 layout end with 4096 cells drawn (the time it takes
  is printed as a figure, never checked: timings belong in the benchmarks).

The deadlines in the DevTools exchange (`timeout=` below) are watchdogs against a browser that
stopped answering, not speed limits: each is tens of seconds for steps that take milliseconds.

* an operation's operands stand beside its result with linking colours and a legend (composition,
  a divide that does not divide, a product), every colour recomputed here from the definition;
* the value / index / coordinate switch relabels the cells and stays in the URL;
* hovering a TV cell isolates its thread (every cell outlined, the others dimmed), a click keeps it
  in the URL; a swizzled operand is drawn before and after; the help panel is there;
* a TiledMMA's C cells are owned by the threads of its C TV layout, a thread isolated across its
  panels; a TiledCopy draws its two tiles; a refused permutation shows its condition.

Usage: scripts/test-playground.py [--cute PATH] [--chromium PATH] [--screenshot FILE] [--docs DIR]
Exit status 0 when every check passes; the last line is `N passed, M failed`.
"""

import argparse
import fcntl
import json
import os
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Failure(Exception):
    pass


class Browser:
    """Chromium, headless, driven through the DevTools protocol on file descriptors 3 and 4."""

    def __init__(self, exe):
        self.profile = tempfile.mkdtemp(prefix="cute-playground-chromium-")
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        # move the child's ends out of the way of 3 and 4 before dup2 in the child
        hi_r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
        hi_w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
        os.close(to_child_r)
        os.close(from_child_w)

        def child_fds():
            # dup2 makes 3 and 4 inheritable; every other descriptor of this process is not
            # (PEP 446), so close_fds=False passes exactly these (close_fds would close them
            # after this function runs)
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        args = [
            exe,
            "--headless=new",
            "--remote-debugging-pipe",
            "--no-sandbox",  # CI runs as root
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            # this machine's network is closed: no background connections to refuse
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--force-color-profile=srgb",
            "--window-size=1280,1000",
            "--user-data-dir=" + self.profile,
            "about:blank",
        ]
        self.proc = subprocess.Popen(
            args,
            close_fds=False,
            preexec_fn=child_fds,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(hi_r)
        os.close(hi_w)
        self.w, self.r = to_child_w, from_child_r
        self.buf = b""
        self.next_id = 0
        self.session = None

    def _message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("the browser did not answer in time")
            ready, _, _ = select.select([self.r], [], [], left)
            if ready:
                chunk = os.read(self.r, 1 << 20)
                if not chunk:
                    raise Failure("the browser closed the DevTools pipe")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, timeout=30, session=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            m = self._message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise Failure(f"{method}: {m['error']}")
                return m["result"]

    def open_page(self):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        self.session = self.send(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}, session=False
        )["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1280, "height": 1000, "deviceScaleFactor": 1, "mobile": False},
        )

    def js(self, expr, timeout=30):
        r = self.send(
            "Runtime.evaluate",
            {"expression": expr, "returnByValue": True, "awaitPromise": True},
            timeout=timeout,
        )
        if "exceptionDetails" in r:
            raise Failure(f"script failed: {r['exceptionDetails'].get('exception', r['exceptionDetails'])}")
        return r["result"].get("value")

    def load(self, url, timeout=30):
        """Loads `url` and waits until the page says it is ready (module loaded, first render)."""
        self.send("Page.navigate", {"url": url})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.js("document.readyState === 'complete' && document.body ? (document.body.dataset.ready || '') : ''")
            if state == "1":
                return
            if state == "failed":
                raise Failure("the page could not load its module: " + self.js("document.getElementById('error').textContent"))
            time.sleep(0.05)
        raise Failure(f"the page did not become ready within {timeout} s: {url}")

    def screenshot(self):
        r = self.send("Page.captureScreenshot", {"format": "png"})
        import base64

        return base64.b64decode(r["data"])

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.w)
        os.close(self.r)
        shutil.rmtree(self.profile, ignore_errors=True)


def decode_png(data):
    """(width, height, rows of RGB(A) bytes, bytes per pixel) of an 8-bit RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise Failure("the screenshot is not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = ihdr
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise Failure(f"unexpected PNG format: depth {depth}, colour type {colour}, interlace {interlace}")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
            elif f != 0:
                raise Failure(f"PNG filter {f} unknown")
        rows.append(line)
        prev = line
    return width, height, rows, bpp


def cute_grey(offset):
    """CuTe's 8-level grey (TikzColor_BWx8) for an offset."""
    percent = [0, 40, 20, 60, 10, 50, 30, 70][offset % 8]
    v = 255 * (100 - percent) // 100
    return (v, v, v)


def parse_layout(text):
    """(shape, stride) of a layout in CuTe notation with integer strides, as nested tuples."""
    import ast

    shape, stride = text.split(":")
    to_tuple = lambda t: ast.literal_eval(t.replace(")", ",)").replace(",,", ","))
    return to_tuple(shape), to_tuple(stride)


def leaves(t):
    return [x for m in t for x in leaves(m)] if isinstance(t, tuple) else [t]


def size_of(t):
    n = 1
    for x in leaves(t):
        n *= x
    return n


def tvl_size(layout):
    return size_of(layout[0])


def eval_layout(layout, i):
    """The layout at index i: the colexicographic coordinate over its flattened shape, dotted with its strides."""
    total = 0
    for s, d in zip(leaves(layout[0]), leaves(layout[1])):
        total += (i % s) * d
        i //= s
    return total


def panel_fills(browser):
    """{role: [fill by index]} of the figure's panels (fills as 0xRRGGBB numbers)."""
    got = browser.js(
        "Array.from(document.querySelectorAll('#picture svg[data-role]')).map(s => [s.dataset.role,"
        " Array.from(s.querySelectorAll('rect.cell')).map(r => [+r.dataset.index, +r.dataset.fill])])"
    )
    out = {}
    for role, cells in got:
        v = [None] * len(cells)
        for i, f in cells:
            v[i] = f
        out[role] = v
    return out


def text_value(browser, id_):
    return browser.js(f"document.getElementById({json.dumps(id_)}).value")


def docs_screenshots(browser, load, folder):
    """The pictures of the documentation (docs/playground/*.png): each view clipped to its content."""
    os.makedirs(folder, exist_ok=True)
    shots = [
        ("composition.png", {"view": "op", "op": "composition", "a0": "(8,8):(8,1)", "a1": "(4,2):(2,1)", "show": "value"}, None),
        ("divide.png", {"view": "op", "op": "logical_divide", "a0": "(6,8):(8,1)", "a1": "(4,3)", "show": "value"}, None),
        ("product.png", {"view": "op", "op": "blocked_product", "a0": "(2,2):(1,2)", "a1": "(2,3):(3,1)", "show": "index"}, None),
        ("swizzle.png", {"view": "op", "op": "f2_layout", "a0": "Sw<2,0,2> o 0 o (4,4):(4,1)", "show": "value"}, None),
        ("make-layout-tv.png", {"view": "op", "op": "make_layout_tv", "a0": "(4,8):(8,1)", "a1": "(2,2):(2,1)", "show": "value", "thread": "7"}, None),
        ("tv-thread.png", {"view": "tv", "tv": "((4,8),(2,2)):((32,1),(16,8))", "rows": "16", "cols": "8", "thread": "5"}, "9"),
        ("tiled-mma.png", {"view": "tiled", "kind": "mma", "atom": "SM80_16x8x16_F32F16F16F32_TN", "l1": "(2,2)", "thread": "37"}, None),
    ]
    for name, state, hover in shots + [("help.png", {"view": "op"}, None)]:
        load(state)
        if name == "help.png":
            box = browser.js(
                "(() => { const h = document.getElementById('help'); h.open = true; const b = h.getBoundingClientRect();"
                " return [b.x, b.y, b.width, b.height]; })()"
            )
            shoot(browser, box, os.path.join(folder, name))
            continue
        if hover is not None:
            browser.js(
                "(() => { const c = Array.from(document.querySelectorAll('#picture rect.cell')).find(c => c.dataset.threads.split(' ')[0] === "
                + json.dumps(hover) + "); c.dispatchEvent(new MouseEvent('mouseover', {bubbles: true})); })()"
            )
        box = browser.js(
            "(() => { const b = document.body.getBoundingClientRect(); const l = document.getElementById('legend');"
            " const p = document.getElementById('picture').getBoundingClientRect();"
            " const bottom = Math.max(p.bottom, l.hidden ? 0 : l.getBoundingClientRect().bottom);"
            " return [0, 0, Math.min(1280, b.width + 40), bottom + 8]; })()"
        )
        shoot(browser, box, os.path.join(folder, name))


def shoot(browser, box, path):
    """A PNG of the page's rectangle `box` ([x, y, width, height] in CSS pixels), at 3/4 size."""
    import base64

    r = browser.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                  "clip": {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 0.75}})
    with open(path, "wb") as f:
        f.write(base64.b64decode(r["data"]))
    print(f"wrote {path}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    ap.add_argument("--cute", default=os.path.join(target, "release", "cute"))
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    ap.add_argument("--screenshot", default=os.path.join(tempfile.gettempdir(), "cute-playground.png"))
    ap.add_argument("--docs", metavar="DIR", help="also write the documentation's screenshots (docs/playground) into DIR")
    opts = ap.parse_args()

    results = []

    def check(name, ok, detail=""):
        results.append(ok)
        print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": {detail}"), flush=True)

    if not os.access(opts.cute, os.X_OK):
        print(f"FAIL no `cute` binary at {opts.cute} (cargo build --release -p cute-cli, or --cute PATH)")
        print("0 passed, 1 failed")
        return 1
    server = subprocess.Popen(
        [opts.cute, "playground", "--port", "0", "--no-open"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    browser = None
    try:
        line = server.stdout.readline()
        if "http://127.0.0.1:" not in line:
            raise Failure(f"`cute playground` printed {line!r}, not its address")
        base = line.split("serving ", 1)[1].split()[0]
        check("cute playground serves on " + base, base.startswith("http://127.0.0.1:"), line)
        browser = Browser(opts.chromium)
        browser.open_page()
        case = [0]

        def load(state):
            case[0] += 1
            browser.load(f"{base}?case={case[0]}#" + urllib.parse.urlencode(state))

        def text(id_):
            return browser.js(f"document.getElementById({json.dumps(id_)}).textContent")

        # 1. a composition typed through the URL: value, table, cells and labels
        a, b = "(8,8):(8,1)", "((4,8),2):((16,1),8)"
        load({"view": "op", "op": "composition", "a0": a, "a1": b})
        value = text("value")
        check("composition gives ((4,8),2):((2,8),1)", value == "((4,8),2):((2,8),1)", repr(value))
        check("the print_layout table heads the value", text("table").startswith("((4,8),2):((2,8),1)\n"), text("table")[:80])
        cells = browser.js(
            "Array.from(document.querySelectorAll('#picture svg[data-role=result] rect.cell')).map(r => "
            "[+r.dataset.row, +r.dataset.col, r.nextElementSibling.textContent])"
        )
        check("the result's SVG has 64 cells (32 rows x 2 columns)", len(cells) == 64, f"{len(cells)} cells")
        # ((4,8),2):((2,8),1) at row r = i + 4j, column k: 2i + 8j + k
        want = {(i + 4 * j, k): 2 * i + 8 * j + k for i in range(4) for j in range(8) for k in range(2)}
        got = {(r, c): lab for r, c, lab in cells}
        bad = [(rc, got.get(rc), str(v)) for rc, v in want.items() if got.get(rc) != str(v)]
        check("every cell is labelled with its offset", not bad, f"{bad[:5]}")
        labels = browser.js("document.querySelectorAll('#picture svg[data-role=result] text.label').length")
        check("one label per cell", labels == 64, f"{labels} labels")

        # 2. typing into the second field (an input event): new value, state in the URL
        browser.js(
            "(() => { const f = document.getElementById('arg1'); f.value = '(4,2):(2,1)';"
            " f.dispatchEvent(new Event('input')); })()"
        )
        value = text("value")
        # (8,8):(8,1) sends x = 2i + j < 8 to 8x: (4,2):(16,8)
        check("typing (4,2):(2,1) recomputes the composition", value == "(4,2):(16,8)", repr(value))
        href = browser.js("location.href")
        check("the URL holds the typed state", "a1=%284%2C2%29%3A%282%2C1%29" in href, href)
        browser.load(href.replace("case=", "case=reload-"))
        check("loading the URL reproduces the state", text("value") == "(4,2):(16,8)", text("value"))

        # 3. an invalid layout: the error, the offending character marked, no picture
        load({"view": "op", "op": "coalesce", "a0": "(4,8):(1,4x"})
        err = text("error")
        check("an invalid layout shows the error", err.startswith("error: coalesce: argument 1 `(4,8):(1,4x`: ") and "byte 10" in err, repr(err))
        mark = browser.js("(() => { const m = document.querySelector('#view-op .where mark'); return m ? m.textContent : null; })()")
        check("the offending character is marked", mark == "x", repr(mark))
        bad_field = browser.js("document.getElementById('arg0').classList.contains('bad')")
        check("the offending field is flagged", bad_field is True, repr(bad_field))
        check("no picture for an error", browser.js("document.querySelectorAll('#picture svg').length") == 0)
        load({"view": "op", "op": "coalesce", "a0": "(4,8):(1,4"})
        mark = browser.js("(() => { const m = document.querySelector('#view-op .where mark'); return m ? m.className : null; })()")
        check("a layout that ends too soon is marked at its end", mark == "end", repr(mark))
        load({"view": "op", "op": "composition", "a0": "(4,6,8):(2,3,5)", "a1": "6:3"})
        err = text("error")
        check("a refusal of the algebra shows its condition", "stride-divisibility condition (9)" in err, repr(err))

        # 4. the TV-layout view: the C layout of mma.sync m16n8k16, thread 5 highlighted
        load({"view": "tv", "tv": "((4,8),(2,2)):((32,1),(16,8))", "rows": "16", "cols": "8", "thread": "5"})
        n = browser.js("document.querySelectorAll('#picture rect.cell').length")
        red = browser.js("document.querySelectorAll('#picture rect.outline').length")
        t5 = browser.js("Array.from(document.querySelectorAll('#picture text.label')).filter(t => t.textContent === 'T5').length")
        check("the TV view draws 16x8 cells, thread 5's four outlined", (n, red, t5) == (128, 4, 4), f"{n} cells, {red} outlined, {t5} T5")

        # 5. the bank-conflict view: an unswizzled 8x64 fp16 tile read as ldmatrix does
        tv = "((8,4),(8,2)):((1,64),(8,256))"
        load({"view": "banks", "smem": "(8,64):(64,1)", "tv": tv, "b": "2", "v": "8", "j": "0"})
        summary = text("value")
        check("the bank view reports 32 wavefronts (ideal 4)", "instruction 0: 32 wavefronts (ideal 4)" in summary, repr(summary))
        check("the bank view proposes Sw<3,3,3>", "conflict-free with Sw<3,3,3> o 0 o (8,64):(64,1)" in summary, repr(summary))
        counts = browser.js("[document.querySelectorAll('#picture rect.cell').length, document.querySelectorAll('#picture rect.conflict').length]")
        check("512 cells, 256 accessed with conflicts", counts == [512, 256], repr(counts))
        load({"view": "banks", "smem": "Sw<3,3,3> o 0 o (8,64):(64,1)", "tv": tv, "b": "2", "v": "8", "j": "1"})
        counts = browser.js("[document.querySelectorAll('#picture rect.access').length, document.querySelectorAll('#picture rect.conflict').length]")
        check("swizzled: 256 accessed, none in conflict", counts == [256, 0], repr(counts) + " " + text("value"))

        # 6. a screenshot: CuTe's greys by offset, thread colours in the TV view
        load({"view": "op", "op": "coalesce", "a0": "(4,8):(8,1)"})
        rects = browser.js(
            "Array.from(document.querySelectorAll('#picture svg[data-role=result] rect.cell')).map(r => { const b = r.getBoundingClientRect();"
            " return [+r.dataset.row, +r.dataset.col, b.x, b.y, b.width]; })"
        )
        png = browser.screenshot()
        with open(opts.screenshot, "wb") as f:
            f.write(png)
        width, height, rows, bpp = decode_png(png)
        chosen = [(0, 0), (1, 0), (2, 1), (3, 1), (0, 2), (1, 3), (3, 7), (2, 5)]
        wrong = []
        for r, c, x, y, w in rects:
            if (r, c) not in chosen:
                continue
            px, py = int(x + w / 5), int(y + w / 5)  # inside the cell, clear of border and label
            if not (0 <= px < width and 0 <= py < height):
                wrong.append(((r, c), "outside the screenshot"))
                continue
            pixel = tuple(rows[py][px * bpp : px * bpp + 3])
            want = cute_grey(8 * r + c)  # (4,8):(8,1) does not coalesce: offset 8r + c
            if max(abs(p - q) for p, q in zip(pixel, want)) > 3:
                wrong.append(((r, c), pixel, want))
        check(f"screenshot ({width}x{height}): CuTe's grey at {len(chosen)} chosen cells", not wrong and len(rects) == 32, repr(wrong))
        load({"view": "tv", "tv": "((4,8),(2,2)):((32,1),(16,8))", "rows": "16", "cols": "8"})
        rects = browser.js(
            "Array.from(document.querySelectorAll('#picture rect.cell')).filter(r => +r.dataset.col < 4 && +r.dataset.row < 4)"
            ".map(r => { const b = r.getBoundingClientRect(); return [+r.dataset.row, +r.dataset.col, b.x, b.y, b.width]; })"
        )
        width, height, rows, bpp = decode_png(browser.screenshot())
        thread_rgb = [(175, 175, 255), (175, 255, 175), (255, 255, 175), (255, 175, 175),
                      (210, 210, 255), (210, 255, 210), (255, 255, 210), (255, 210, 210)]
        wrong = []
        for r, c, x, y, w in rects:
            # C of m16n8k16: thread (t0 + 4 t1) owns column 2 t0 + v0 of row t1 (+8 for v1)
            t = (c // 2) + 4 * (r % 8)
            px, py = int(x + w / 5), int(y + w / 5)
            pixel = tuple(rows[py][px * bpp : px * bpp + 3])
            if max(abs(p - q) for p, q in zip(pixel, thread_rgb[t % 8])) > 3:
                wrong.append(((r, c), t, pixel))
        check(f"screenshot: thread colours at {len(rects)} TV cells", len(rects) == 16 and not wrong, repr(wrong))

        # 8. operands beside the result, linked by colour: composition R = A o B
        load({"view": "op", "op": "composition", "a0": "(8,8):(8,1)", "a1": "(4,2):(2,1)"})
        roles = browser.js("Array.from(document.querySelectorAll('#picture figure')).map(f => f.dataset.role)")
        check("composition shows A and B beside the result", roles == ["A", "B", "result"], repr(roles))
        fills = panel_fills(browser)
        # B = (4,2):(2,1): B(i) = 2 (i mod 4) + i div 4
        wrong = [i for i in range(8) if not (fills["result"][i] == fills["B"][i] == fills["A"][2 * (i % 4) + i // 4])]
        check("result cell i, B's cell i and A's cell B(i) share a colour", not wrong, f"indices {wrong}: {fills}")
        check("eight indices, eight colours", len({fills["result"][i] for i in range(8)}) == 8, repr(fills["result"]))
        unread = [j for j in range(64) if j not in {2 * (i % 4) + i // 4 for i in range(8)}]
        check("A's cells the result does not read stay white", all(fills["A"][j] == 0xFFFFFF for j in unread), repr(fills["A"]))
        legend = browser.js("Array.from(document.querySelectorAll('#legend li')).map(l => [!!l.querySelector('.swatch'), l.textContent])")
        check("the legend says what the colours mean", bool(legend) and legend[0][0] and "B(i)" in legend[0][1], repr(legend))
        linked = browser.js(
            "(() => { const c = document.querySelector('#picture svg[data-role=result] rect.cell[data-index=\"5\"]');"
            " c.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));"
            " return Array.from(document.querySelectorAll('#picture .linked')).map(r => r.closest('svg').dataset.role); })()"
        )
        check("hovering result cell 5 outlines its linked cells in A, B and the result", sorted(linked) == ["A", "B", "result"], repr(linked))
        # on the screen: the pixels of result cell i and of B's cell i are the same colour
        width, height, rows, bpp = decode_png(browser.screenshot())
        boxes = browser.js(
            "Array.from(document.querySelectorAll('#picture svg rect.cell')).map(r => { const b = r.getBoundingClientRect();"
            " return [r.closest('svg').dataset.role, +r.dataset.index, b.x, b.y, b.width]; })"
        )
        seen = {}
        for role, i, x, y, w in boxes:
            px, py = int(x + w / 5), int(y + w / 5)
            if role in ("B", "result") and 0 <= px < width and 0 <= py < height:
                seen[(role, i)] = tuple(rows[py][px * bpp : px * bpp + 3])
        same = [i for i in range(8) if ("B", i) in seen and seen[("B", i)] == seen.get(("result", i))]
        check("screenshot: result cell i is painted as B's cell i", len(same) == 8, repr(seen))

        # 9. a divide that does not divide: (12,32):(32,1) by (5,8), every cell coloured by its tile
        load({"view": "op", "op": "logical_divide", "a0": "(12,32):(32,1)", "a1": "(5,8)"})
        fills = panel_fills(browser)
        classes = {}
        for i, f in enumerate(fills["A"]):
            m, n = i % 12, i // 12
            classes.setdefault(f, set()).add((m // 5, n // 8))
        check("A's cells: one colour per tile (m div 5, n div 8), 12 tiles", len(classes) == 12 and all(len(t) == 1 for t in classes.values()), repr(classes)[:300])
        sizes = sorted(sum(1 for f2 in fills["A"] if f2 == f) for f in classes)
        check("tiles of 40 cells, and 16 in the partial third row of tiles", sizes == [16] * 4 + [40] * 8, repr(sizes))
        res = browser.js(
            "Array.from(document.querySelectorAll('#picture svg[data-role=result] rect.cell')).map(r =>"
            " [+r.dataset.fill, r.classList.contains('outside'), r.nextElementSibling.textContent])"
        )
        a_by_offset = {32 * (i % 12) + i // 12: f for i, f in enumerate(fills["A"])}  # A(m, n) = 32m + n
        outside = sum(1 for _, o, _ in res if o)
        wrong = [(f, lab) for f, o, lab in res if not o and a_by_offset.get(int(lab)) != f]
        check("the result (15x32: 3 row-tiles of 5) has the 96 padding cells marked outside A", len(res) == 480 and outside == 96, f"{len(res)} cells, {outside} outside")
        check("every other result cell has the colour of A's cell with its offset", not wrong, repr(wrong[:5]))

        # 10. a product: tile k of the result coloured as the tiler B's cell k
        load({"view": "op", "op": "blocked_product", "a0": "(2,2):(1,2)", "a1": "(2,3):(3,1)"})
        fills = panel_fills(browser)
        groups = {f: sum(1 for g in fills["result"] if g == f) for f in set(fills["result"])}
        check("blocked_product: six tiles of four cells, each B's cell colour", sorted(fills["B"]) == sorted(groups) and set(groups.values()) == {4}, repr(groups))

        # 10b. a slice: the cells of A it keeps, coloured as the result's cells
        load({"view": "op", "op": "slice", "a0": "(4,8):(1,4)", "a1": "(_,2)"})
        fills = panel_fills(browser)
        kept = {i for i, f in enumerate(fills["A"]) if f != 0xFFFFFF}
        check("slice (_,2): A's column 2 coloured as the result's cells, the rest white",
              kept == {r + 4 * 2 for r in range(4)} and all(fills["A"][r + 8] == fills["result"][r] for r in range(4)),
              f"{sorted(kept)} {fills}")

        # 11. the value / index / coordinate switch, kept in the URL
        load({"view": "op", "op": "composition", "a0": "(8,8):(8,1)", "a1": "((4,8),2):((16,1),8)"})
        browser.js("document.querySelector('input[name=show][value=coord]').click()")
        labels = browser.js(
            "Array.from(document.querySelectorAll('#picture svg[data-role=result] rect.cell')).map(r => [+r.dataset.index, r.nextElementSibling.textContent])"
        )
        # natural coordinates of i in ((4,8),2): ((i mod 4, (i div 4) mod 8), i div 32)
        wrong = [(i, lab) for i, lab in labels if lab != f"(({i % 4},{(i // 4) % 8}),{i // 32})"]
        check("cells show coordinates", len(labels) == 64 and not wrong, repr(wrong[:5]))
        check("the URL records show=coord", "show=coord" in browser.js("location.href"), browser.js("location.href"))
        browser.js("document.querySelector('input[name=show][value=index]').click()")
        labels = browser.js(
            "Array.from(document.querySelectorAll('#picture svg[data-role=result] rect.cell')).map(r => [+r.dataset.row, +r.dataset.col, r.nextElementSibling.textContent])"
        )
        wrong = [(r, c, lab) for r, c, lab in labels if lab != str(r + 32 * c)]
        check("cells show indices (row + 32 column)", len(labels) == 64 and not wrong, repr(wrong[:5]))
        browser.load(browser.js("location.href").replace("case=", "case=reload-"))
        shown = browser.js("[document.querySelector('input[name=show]:checked').value, document.querySelector('#picture svg[data-role=A]').dataset.show]")
        check("loading the URL keeps the switch", shown == ["index", "index"], repr(shown))

        # 12. isolate a thread of the TV view: hover shows it, a click keeps it in the URL
        tv = "((4,8),(2,2)):((32,1),(16,4))"  # not injective: threads share cells
        load({"view": "tv", "tv": tv, "rows": "16", "cols": "8", "thread": "5"})

        def thread_cells(t):
            # (t0 + 4 t1, v0 + 2 v1) -> 32 t0 + t1 + 16 v0 + 4 v1, the cell (x mod 16, x div 16)
            out = set()
            for v in range(4):
                x = 32 * (t % 4) + t // 4 + 16 * (v % 2) + 4 * (v // 2)
                out.add((x % 16, x // 16))
            return out

        def isolated():
            return browser.js(
                "(() => { const s = Array.from(document.querySelectorAll('#picture svg')).find(s => s.querySelector('rect.cell[data-threads]')); const cells = Array.from(s.querySelectorAll('rect.cell'));"
                " const iso = Array.from(s.querySelectorAll('rect.iso')).map(o => { const c = cells.find(c => +c.getAttribute('x') === +o.getAttribute('x') - 2 && +c.getAttribute('y') === +o.getAttribute('y') - 2);"
                " return [+c.dataset.row, +c.dataset.col]; });"
                " return [s.dataset.isolated || null, iso, s.querySelectorAll('rect.dimmer').length, cells.length]; })()"
            )

        t, iso, dim, n = isolated()
        want = thread_cells(5)
        check("the kept thread 5 is isolated: all its cells outlined, the others dimmed",
              t == "5" and {tuple(x) for x in iso} == want and dim == n - len(want), f"{t} {iso} {dim}/{n} want {sorted(want)}")
        hover = browser.js(
            "(() => { const c = Array.from(document.querySelectorAll('#picture rect.cell')).find(c => c.dataset.threads.split(' ')[0] === '9');"
            " c.dispatchEvent(new MouseEvent('mouseover', {bubbles: true})); return location.href; })()"
        )
        t, iso, dim, n = isolated()
        check("hovering a cell of thread 9 isolates thread 9, the URL unchanged",
              t == "9" and {tuple(x) for x in iso} == thread_cells(9) and "thread=5" in hover, f"{t} {iso} {hover}")
        browser.js("document.querySelector('#picture svg').dispatchEvent(new MouseEvent('mouseleave'))")
        check("leaving the picture returns to the kept thread", isolated()[0] == "5", repr(isolated()[0]))
        browser.js(
            "(() => { const c = Array.from(document.querySelectorAll('#picture rect.cell')).find(c => c.dataset.threads.split(' ')[0] === '9');"
            " c.dispatchEvent(new MouseEvent('click', {bubbles: true})); })()"
        )
        t, iso, dim, n = isolated()
        outlined = browser.js("document.querySelectorAll('#picture rect.outline').length")
        href = browser.js("location.href")
        check("a click keeps thread 9: in the URL, the field and the module's outline",
              t == "9" and "thread=9" in href and text_value(browser, "tv-thread") == "9" and outlined == len(thread_cells(9)),
              f"{t} {href} {outlined}")

        # 12a. the switch in the TV view: the tile's coordinate index or coordinate instead of T/V
        load({"view": "tv", "tv": "((4,8),(2,2)):((32,1),(16,8))", "rows": "16", "cols": "8", "thread": "5", "show": "index"})

        def tv_labels():
            return browser.js(
                "(() => { const s = document.querySelector('#picture svg'); const alt = Array.from(s.querySelectorAll('text.alt-label')).map(t => t.textContent);"
                " const shown = Array.from(s.querySelectorAll('text.label')).filter(t => getComputedStyle(t).display !== 'none').length;"
                " const cells = Array.from(s.querySelectorAll('rect.cell')).map(c => [+c.dataset.row, +c.dataset.col]); return [alt, shown, cells]; })()"
            )

        alt, shown, cells = tv_labels()
        check("TV view, cells show index: m + 16 n in every cell, the T/V labels hidden",
              shown == 0 and len(alt) == 128 and alt == [str(r + 16 * c) for r, c in cells], f"{shown} shown, {alt[:6]}")
        browser.js("document.querySelector('input[name=show][value=coord]').click()")
        alt, shown, cells = tv_labels()
        check("TV view, cells show coordinate: (m,n)", shown == 0 and alt == [f"({r},{c})" for r, c in cells] and "show=coord" in browser.js("location.href"), repr(alt[:4]))
        browser.js("document.querySelector('input[name=show][value=value]').click()")
        alt, shown, cells = tv_labels()
        check("TV view, cells show value: the thread and value labels back", alt == [] and shown == 256, f"{len(alt)} {shown}")

        # 12b. a TV-shaped result: make_layout_tv's picture beside thr and val, a thread isolated by a click
        load({"view": "op", "op": "make_layout_tv", "a0": "(4,8):(8,1)", "a1": "(2,2):(2,1)"})
        value = text("value")
        tile, tv_text = value.split(" ", 1)
        rows_, cols_ = (int(x) for x in tile.strip("()").split(","))
        roles = browser.js("Array.from(document.querySelectorAll('#picture figure')).map(f => f.dataset.role)")
        check("make_layout_tv shows thr and val beside its TV picture", roles == ["thr", "val", "tv"], repr(roles))
        browser.js(
            "(() => { const c = Array.from(document.querySelectorAll('#picture figure[data-role=tv] rect.cell')).find(c => c.dataset.threads === '7');"
            " c.dispatchEvent(new MouseEvent('click', {bubbles: true})); })()"
        )
        t, iso, dim, n = isolated()
        tvl = parse_layout(tv_text)
        threads = size_of(tvl[0][0])
        want = {(x % rows_, x // rows_) for v in range(tvl_size(tvl) // threads) for x in [eval_layout(tvl, 7 + threads * v)]}
        check("a click on a cell of thread 7 isolates exactly the cells the printed TV layout gives thread 7",
              t == "7" and {tuple(x) for x in iso} == want and dim == n - len(want) and "thread=7" in browser.js("location.href"),
              f"{t} {sorted(tuple(x) for x in iso)} want {sorted(want)}")
        browser.load(browser.js("location.href").replace("case=", "case=reload-"))
        check("loading the URL isolates thread 7 again", isolated()[0] == "7", repr(isolated()[0]))

        # 12c. a TiledMMA (2x2 atoms of mma.sync m16n8k16): C, A and B panels, every cell of C owned
        # by the thread its TV layout says, one thread isolated by a hover; then a TiledCopy
        load({"view": "tiled", "kind": "mma", "atom": "SM80_16x8x16_F32F16F16F32_TN", "l1": "(2,2)", "thread": "37"})
        panels = browser.js(
            "(() => { const s = Array.from(document.querySelectorAll('#picture svg')).find(s => s.querySelector('rect.cell[data-threads]'));"
            " return Array.from(s.querySelectorAll('rect.cell')).map(c => [+c.dataset.panel, +c.dataset.row, +c.dataset.col, c.dataset.threads]); })()"
        )
        count = {}
        for p, _, _, _ in panels:
            count[p] = count.get(p, 0) + 1
        check("the TiledMMA view draws B 16x16, A 32x16 and C 32x16 cells",
              count == {0: 256, 1: 512, 2: 512}, repr(count))
        # get_layoutC_TV of the tiled MMA (the CuTe DSL's value, tests/data/tiled_oracle.json)
        ctv = parse_layout("((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))")
        want = {}
        for t in range(128):
            for v in range(4):
                x = eval_layout(ctv, t + 128 * v)
                want.setdefault((x % 32, x // 32), set()).add(str(t))
        got = {(r, c): set(th.split(" ")) for p, r, c, th in panels if p == 2}
        check("every C cell is owned by the thread of get_layoutC_TV", got == want,
              f"{[(k, got.get(k), w) for k, w in want.items() if got.get(k) != w][:4]}")
        title = text("value")
        check("the TiledMMA view names the atom and its 128 threads",
              "SM80_16x8x16_F32F16F16F32_TN" in title and "(128 threads)" in title, repr(title))
        t, iso, dim, n = isolated()
        check("the kept thread 37 is isolated in all three panels (4 of C, 8 of A, 4 of B)",
              t == "37" and len(iso) == 16 and dim == n - 16, f"{t} {len(iso)} {dim}/{n}")
        browser.js(
            "(() => { const c = Array.from(document.querySelectorAll('#picture rect.cell')).find(c => c.dataset.panel === '2' && c.dataset.threads === '9');"
            " c.dispatchEvent(new MouseEvent('click', {bubbles: true})); })()"
        )
        check("a click keeps thread 9 in the URL and the field",
              "thread=9" in browser.js("location.href") and text_value(browser, "tiled-thread") == "9",
              browser.js("location.href"))
        load({"view": "tiled", "kind": "mma", "atom": "SM80_16x8x16_F32F16F16F32_TN", "l1": "(2,2)", "l2": "<16,_,_>"})
        err = text("error")
        check("a permutation too small for the atoms is refused with the condition",
              "multiple of the atom extent" in err, repr(err))
        load({"view": "tiled", "kind": "copy", "atom": "SM80_CP_ASYNC_CACHEGLOBAL_16B", "l1": "(16,8):(8,1)", "l2": "(1,8)", "bits": "16"})
        title = text("value")
        cells = browser.js("document.querySelectorAll('#picture rect.cell').length")
        check("a TiledCopy of cp.async: source and destination tiles of 16x64",
              "(128 threads)" in title and cells == 2 * 16 * 64, f"{title!r} {cells} cells")

        # 13. a swizzle before and after: Sw<3,3,3> o 0 o (8,64):(64,1)
        load({"view": "op", "op": "f2_layout", "a0": "Sw<3,3,3> o 0 o (8,64):(64,1)"})
        cells = browser.js(
            "['before', 'after'].map(role => Array.from(document.querySelectorAll(`#picture svg[data-role=${role}] rect.cell`)).map(r =>"
            " [+r.dataset.row, +r.dataset.col, r.nextElementSibling.textContent, r.classList.contains('moved')]))"
        )
        before = {(r, c): int(v) for r, c, v, _ in cells[0]}
        after = {(r, c): (int(v), m) for r, c, v, m in cells[1]}
        wrong = []
        for r in range(8):
            for c in range(64):
                o = 64 * r + c
                sw = o ^ (((o >> 6) & 7) << 3)  # Sw<3,3,3>: bits 6..8 XORed into bits 3..5
                if before.get((r, c)) != o or after.get((r, c)) != (sw, sw != o):
                    wrong.append((r, c, before.get((r, c)), after.get((r, c)), sw))
        check("the swizzle's operand is drawn before (L) and after (Sw o L), moved offsets outlined", len(before) == 512 and not wrong, repr(wrong[:4]))
        check("the swizzle's legend names it", "Sw<3,3,3>" in text("legend"), text("legend"))

        # 14. the help panel: the views, the notation and the paper's terms
        help_text = browser.js("document.getElementById('help').textContent")
        links = browser.js("Array.from(document.querySelectorAll('#help a')).map(a => a.href)")
        check("a help panel explains the views, the switch and the notation",
              all(w in help_text for w in ["Operation", "TV layout", "Bank conflicts", "coordinate", "Sw<B,M,S>", "F5", "1@0"]), help_text[:200])
        check("the help links the paper's terms", len(links) >= 8 and all("arxiv.org/abs/2603.02298" in h for h in links), repr(links))

        if opts.docs:
            docs_screenshots(browser, load, opts.docs)

        # 7. speed: an operation and its redraw for a 64x64 layout, through an input event. A picture
        # of more than 1024 cells is painted on a canvas from its cells (crates/cute-wasm/src/cells.rs)
        load({"view": "op", "op": "composition", "a0": "(64,64):(64,1)", "a1": "(64,64):(1,64)"})
        # A(B(i, j)) = A(i + 64j) = 64i + j
        check("the 64x64 composition gives (64,64):(64,1)", text("value") == "(64,64):(64,1)", text("value"))
        dims = browser.js("(() => { const c = document.querySelector('#picture canvas'); return c ? [+c.dataset.rows, +c.dataset.cols] : null; })()")
        check("the 64x64 picture has 64 x 64 cells", dims == [64, 64], repr(dims))
        hover = browser.js(
            "(() => { const c = document.querySelector('#picture canvas'); const u = +c.dataset.unit;"
            " c.dispatchEvent(new MouseEvent('mousemove', {clientX: c.getBoundingClientRect().x + (40 + 40 * 5 + 20) * u,"
            " clientY: c.getBoundingClientRect().y + (60 + 40 * 3 + 20) * u})); return c.title; })()"
        )
        check("hovering cell (3, 5) of the 64x64 picture shows its offset", hover == "row 3, column 5: 197", repr(hover))
        box = browser.js(
            "(() => { const c = document.querySelector('#picture canvas'); const b = c.getBoundingClientRect();"
            " return [b.x, b.y, +c.dataset.unit]; })()"
        )
        width, height, rows, bpp = decode_png(browser.screenshot())
        wrong, seen = [], 0
        for r, c in [(0, 0), (1, 0), (2, 3), (3, 5), (4, 1), (5, 2), (6, 6), (7, 4), (9, 9), (14, 20)]:
            s = box[2]  # screen pixels per SVG unit
            px, py = int(box[0] + (40 + 40 * c + 10) * s), int(box[1] + (60 + 40 * r + 10) * s)
            if not (0 <= px < width and 0 <= py < height):
                continue
            seen += 1
            pixel = tuple(rows[py][px * bpp : px * bpp + 3])
            want = cute_grey(64 * r + c)  # (64,64):(64,1)
            if max(abs(p - q) for p, q in zip(pixel, want)) > 3:
                wrong.append(((r, c), pixel, want))
        check(f"screenshot: CuTe's grey at {seen} cells of the 64x64 canvas", seen >= 8 and not wrong, repr(wrong))
        sync, frame = [], []
        for k in range(15):
            rhs = "(64,64):(1,64)" if k % 2 else "(64,64):(64,1)"
            ms = browser.js(
                "(async () => { const f = document.getElementById('arg1'); const t0 = performance.now();"
                f" f.value = {json.dumps(rhs)}; f.dispatchEvent(new Event('input'));"
                " const drawn = performance.now() - t0;"
                " await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));"
                " const c = document.querySelector('#picture canvas');"
                " return [drawn, performance.now() - t0, c ? c.dataset.rows * c.dataset.cols : 0]; })()"
            )
            if ms[2] != 4096:
                raise Failure(f"the redraw has {ms[2]} cells, not 4096")
            sync.append(ms[0])
            frame.append(ms[1])
        med, med_frame = statistics.median(sync), statistics.median(frame)
        print(f"figure: 64x64 composition + redraw: median {med:.1f} ms (min {min(sync):.1f}, max {max(sync):.1f}); "
              f"until the next frame is painted: median {med_frame:.1f} ms (min {min(frame):.1f}, max {max(frame):.1f})", flush=True)
    except Exception as e:  # a Failure, or a page that answered something unexpected
        check("the playground test ran to its end", False, f"{type(e).__name__}: {e}")
    finally:
        if browser:
            browser.close()
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    passed = sum(results)
    failed = len(results) - passed
    print(f"screenshot: {opts.screenshot}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
