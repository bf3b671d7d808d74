//! `cute show` and `cute draw`: files by extension, formats, the atoms table, and the errors.

use cute_cli::atoms::{self, Atom};
use std::path::PathBuf;

mod binary;
mod stderr_shape;

use binary::{cute, ok};

/// Runs a failing call: exit 1, nothing on stdout, one `error: draw: …` line with every needle
/// (and, for a parse error, the argument with carets: `stderr_shape`).
fn fails(args: &[&str], needles: &[&str]) {
    let err = binary::fails(args, 1, needles);
    assert!(err.starts_with("error: draw"), "{err:?}");
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cute-draw-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn show_prints_cutes_print_layout() {
    // CuTe C++'s print_layout of (2,4):(4,1), character for character
    let want = "(2,4):(4,1)\n      0   1   2   3 \n    +---+---+---+---+\n 0  | 0 | 1 | 2 | 3 |\n    +---+---+---+---+\n 1  | 4 | 5 | 6 | 7 |\n    +---+---+---+---+\n";
    assert_eq!(ok(&["show", "(2,4):(4,1)"]), want);
}

#[test]
fn output_format_follows_the_extension() {
    let l = "(4,8):(1,4)";
    let stdout_svg = ok(&["draw", l]);
    let stdout_tex = ok(&["draw", l, "--format", "tikz"]);
    for (name, want) in [("a.svg", &stdout_svg), ("a.tex", &stdout_tex)] {
        let p = tmp(name);
        let said = ok(&["draw", l, "-o", p.to_str().unwrap()]);
        assert!(
            said.starts_with("wrote ") && said.contains("32 cells"),
            "{said}"
        );
        let got = std::fs::read_to_string(&p).unwrap();
        assert_eq!(got.trim_end(), want.trim_end());
    }
    // .png: decoded, the colour at the top of cell (1,0) is CuTe's grey of offset 1
    let p = tmp("a.png");
    ok(&["draw", l, "-o", p.to_str().unwrap()]);
    let bytes = std::fs::read(&p).unwrap();
    let mut d = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; d.output_buffer_size().unwrap()];
    let info = d.next_frame(&mut buf).unwrap();
    let s = cute_draw::pictures::layout(&l.parse().unwrap()).unwrap();
    let k = cute_draw::png::scale(&s);
    let (x, y) = s.cell_centre(0, 1, 0);
    let (px, py) = (((x - 12.0) * k) as u32, ((y - 16.0) * k) as u32);
    let i = ((py * info.width + px) * 4) as usize;
    assert_eq!(
        (buf[i], buf[i + 1], buf[i + 2]),
        cute_draw::pictures::grey(1)
    );
    // --format agreeing with the extension is fine
    ok(&["draw", l, "--format", "png", "-o", p.to_str().unwrap()]);
}

#[test]
fn format_and_output_errors() {
    let l = "(4,8):(1,4)";
    let jpg = tmp("a.jpg");
    fails(
        &["draw", l, "-o", jpg.to_str().unwrap()],
        &["-o", ".svg, .png or .tex"],
    );
    let svg = tmp("b.png");
    fails(
        &["draw", l, "--format", "svg", "-o", svg.to_str().unwrap()],
        &["--format svg", "png"],
    );
    fails(&["draw", l, "--format", "png"], &["-o FILE.png"]);
    fails(
        &["draw", l, "-o", "/nonexistent-dir/x.svg"],
        &["cannot write"],
    );
}

#[test]
fn option_combinations_are_checked() {
    let l = "(8,8):(8,1)";
    fails(&["draw"], &["give a LAYOUT"]);
    fails(&["draw", l, "--thread", "3"], &["--thread", "--tv"]);
    fails(&["draw", l, "--banks"], &["--banks needs --elem-bytes"]);
    fails(
        &["draw", l, "--banks", "--elem-bytes", "3"],
        &["--elem-bytes 3"],
    );
    fails(
        &["draw", l, "--elem-bytes", "4"],
        &["belong to --banks or --access"],
    );
    fails(
        &["draw", l, "--tv", "8", "8", "--banks"],
        &["--tv and --banks"],
    );
    fails(&["draw", l, "--with", "2:1"], &["--with", "--op"]);
    fails(&["draw", l, "--op", "blocked_product"], &["--with B"]);
    fails(
        &[
            "draw",
            "(2,2,2):(1,2,4)",
            "--op",
            "raked_product",
            "--with",
            "(2,2):(1,2)",
        ],
        &["rank-2"],
    );
    fails(&["draw", l, "--slice", "(9,_)"], &[]);
    fails(&["draw", l, "--slice", "(("], &["--slice"]);
    fails(
        &["draw", "--atom", "SM80_16x8x16_F32F16F16F32_TN", l],
        &["no LAYOUT"],
    );
    fails(
        &["draw", "--atom", "nope"],
        &["no such atom", "SM75_U32x4_LDSM_N"],
    );
    fails(
        &["draw", l, "--access", "(32,2):(2,1)", "--elem-bytes", "4"],
        &["--vector"],
    );
}

#[test]
fn pictures_from_the_command() {
    // --banks: 4-byte elements of a row-major 8×8: offset 9 is bank 9
    let svg = ok(&["draw", "(8,8):(8,1)", "--banks", "--elem-bytes", "4"]);
    assert!(svg.contains(">b9</text>"));
    assert_eq!(svg.matches("class=\"cell\"").count(), 64);
    // --access: the unswizzled ldmatrix pattern conflicts everywhere; Sw<3,3,3> removes them
    let tv = "((8,4),(8,2)):((1,64),(8,256))";
    let bad = ok(&[
        "draw",
        "(8,64):(64,1)",
        "--access",
        tv,
        "--elem-bytes",
        "2",
        "--vector",
        "8",
    ]);
    assert!(bad.contains("64 wavefronts, ideal 8"), "{}", &bad[..400]);
    // every access but the first of each bank's 8 waits: 7/8 of the 512 cells read
    assert_eq!(bad.matches("class=\"conflict\"").count(), 448);
    let good = ok(&[
        "draw",
        "Sw<3,3,3> o 0 o (8,64):(64,1)",
        "--access",
        tv,
        "--elem-bytes",
        "2",
        "--vector",
        "8",
    ]);
    assert!(good.contains("8 wavefronts, ideal 8"));
    assert_eq!(good.matches("class=\"conflict\"").count(), 0);
    // --slice: one row of 8 outlined
    let s = ok(&["draw", "(4,8):(1,4)", "--slice", "(2,_)"]);
    assert_eq!(s.matches("data-mark=\"outline\"").count(), 8);
    // --op: a divide and a product, one colour per tile
    let d = ok(&[
        "draw",
        "(8,16):(20,1)",
        "--op",
        "divide",
        "--with",
        "<4:1,8:2>",
    ]);
    assert_eq!(d.matches("class=\"cell\"").count(), 128);
    let p = ok(&[
        "draw",
        "(3,4):(4,1)",
        "--op",
        "blocked_product",
        "--with",
        "(2,5):(1,2)",
    ]);
    assert!(
        p.contains("= ((3,2),(4,5)):((4,12),(1,24))"),
        "{}",
        &p[..400]
    );
    // --atom: A, B and C; the highlighted thread owns 8 + 4 + 4 cells
    let m = ok(&[
        "draw",
        "--atom",
        "SM80_16x8x16_F32F16F16F32_TN",
        "--thread",
        "7",
    ]);
    assert_eq!(
        m.matches("class=\"cell\"").count(),
        16 * 16 + 8 * 16 + 16 * 8
    );
    assert_eq!(m.matches("data-mark=\"outline\"").count(), 16);
    let c = ok(&["draw", "--atom", "SM75_U32x4_LDSM_N", "--thread", "0"]);
    // source: thread 0 supplies row 0 (8 elements); destination: 8 elements in 4 registers
    assert_eq!(c.matches("data-mark=\"outline\"").count(), 16);
    let list = ok(&["draw", "--atom", "list"]);
    assert_eq!(list.lines().count(), atoms::NAMES.len() + 1);
}

/// The table of `--atom` holds the same layouts as `cute_cuda::atom`.
#[test]
fn atoms_table_matches_the_cuda_crate() {
    use cute_cuda::atom as cuda;
    let mmas = [
        (
            "SM80_16x8x16_F32F16F16F32_TN",
            cuda::mma_sm80_16x8x16(cuda::DType::F16).unwrap(),
        ),
        (
            "SM80_16x8x16_F32BF16BF16F32_TN",
            cuda::mma_sm80_16x8x16(cuda::DType::Bf16).unwrap(),
        ),
        (
            "SM80_16x8x8_F32TF32TF32F32_TN",
            cuda::mma_sm80_16x8x8_tf32().unwrap(),
        ),
        (
            "SM90_64x128x16_F32F16F16_SS",
            cuda::wgmma_64xnx16(128, cuda::DType::F16).unwrap(),
        ),
        (
            "SM90_64x8x16_F32BF16BF16_SS",
            cuda::wgmma_64xnx16(8, cuda::DType::Bf16).unwrap(),
        ),
        (
            "SM90_64x256x16_F32BF16BF16_SS",
            cuda::wgmma_64xnx16(256, cuda::DType::Bf16).unwrap(),
        ),
    ];
    for (name, want) in mmas {
        let Some(Atom::Mma(m)) = atoms::atom(name) else {
            panic!("{name} missing")
        };
        assert_eq!(
            (m.a, m.b, m.c, m.mnk),
            (want.a, want.b, want.c, want.shape_mnk),
            "{name}"
        );
    }
    let mut copies = Vec::new();
    for num in [1, 2, 4] {
        for trans in [false, true] {
            copies.push(cuda::ldmatrix(num, trans).unwrap());
            copies.push(cuda::stmatrix(num, trans).unwrap());
        }
    }
    copies.push(cuda::cp_async_16b().unwrap());
    for want in copies {
        let name = if want.name.starts_with("SM80_CP_ASYNC") {
            "SM80_CP_ASYNC_CACHEGLOBAL_16B"
        } else {
            want.name
        };
        let Some(Atom::Copy(c)) = atoms::atom(name) else {
            panic!("{name} missing")
        };
        assert_eq!((c.src_bits, c.dst_bits), (want.src, want.dst), "{name}");
        // every element of the moved data lands on a cell of the tile: on the side that holds
        // registers exactly once; ldmatrix's x1/x2 sources (stmatrix's destinations) repeat the
        // addresses of the first threads (stride 0) and cover each cell at least once
        let (s, d) = c.tile_layouts().unwrap();
        for (l, exact) in [
            (s, !name.contains("LDSM") || c.rows == 32),
            (d, !name.contains("STSM") || c.rows == 32),
        ] {
            let mut seen = vec![0; (c.rows * c.cols) as usize];
            for i in 0..l.size() {
                seen[l.eval(i).unwrap() as usize] += 1;
            }
            assert!(seen.iter().all(|&k| k >= 1), "{name}: {l}");
            if exact {
                assert!(seen.iter().all(|&k| k == 1), "{name}: {l}");
            }
        }
    }
    // every listed name resolves (N = 64 for wgmma)
    for n in atoms::NAMES {
        assert!(atoms::atom(&n.replace("xNx", "x64x")).is_some(), "{n}");
    }
    assert!(atoms::atom("SM90_64x0128x16_F32F16F16_SS").is_none());
    assert!(atoms::atom("SM90_64x264x16_F32F16F16_SS").is_none());
}

/// One cell of an SVG that `cute draw` wrote: its panel, row, column, fill, `data-*` attributes
/// and its label lines (the `text.label` elements that follow it).
#[derive(Debug, Clone)]
struct SvgCell {
    panel: i64,
    row: i64,
    col: i64,
    fill: String,
    data: std::collections::BTreeMap<String, String>,
    label: Vec<String>,
}

/// The value of attribute `name` in the element `el`.
fn attr(el: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let at = el.find(&key)? + key.len();
    let end = el[at..].find('"')? + at;
    Some(el[at..end].to_string())
}

/// Every `rect.cell` of `svg`, with its labels, in document order.
fn svg_cells(svg: &str) -> Vec<SvgCell> {
    let mut cells: Vec<SvgCell> = Vec::new();
    for line in svg.lines() {
        if line.starts_with("<rect class=\"cell") {
            let mut data = std::collections::BTreeMap::new();
            let mut rest = line;
            while let Some(at) = rest.find(" data-") {
                let tail = &rest[at + 6..];
                let eq = tail.find("=\"").unwrap();
                let key = tail[..eq].to_string();
                let end = tail[eq + 2..].find('"').unwrap();
                data.insert(key, tail[eq + 2..eq + 2 + end].to_string());
                rest = &tail[eq + 2 + end..];
            }
            let num = |k: &str| data.get(k).unwrap().parse::<i64>().unwrap();
            cells.push(SvgCell {
                panel: num("panel"),
                row: num("row"),
                col: num("col"),
                fill: attr(line, "fill").unwrap(),
                data,
                label: Vec::new(),
            });
        } else if line.starts_with("<text class=\"label\"") {
            let text = &line[line.find('>').unwrap() + 1..line.rfind("</text>").unwrap()];
            cells
                .last_mut()
                .unwrap()
                .label
                .push(text.replace("&amp;", "&"));
        }
    }
    cells
}

fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The texts of the panel titles of `svg`.
fn svg_titles(svg: &str) -> String {
    let mut t = String::new();
    for line in svg
        .lines()
        .filter(|l| l.starts_with("<text class=\"title\""))
    {
        t += &line[line.find('>').unwrap() + 1..line.rfind("</text>").unwrap()];
        t += " ";
    }
    t
}

#[test]
fn a_divide_by_a_tiler_that_does_not_divide_shows_partial_tiles() {
    // (12,32) in tiles of (5,8): row tiles 0-4, 5-9 and 10-11 (partial), 4 column tiles; tile
    // (x, y) is number x + 3y (zipped_divide's rest (3,4))
    let svg = ok(&[
        "draw",
        "(12,32):(32,1)",
        "--op",
        "divide",
        "--with",
        "(5,8)",
    ]);
    let cells = svg_cells(&svg);
    assert_eq!(cells.len(), 384);
    let mut counts = std::collections::BTreeMap::new();
    for c in &cells {
        let tile = c.row / 5 + 3 * (c.col / 8);
        assert_eq!(c.data["tile"], tile.to_string(), "{c:?}");
        assert_eq!(c.fill, hex(cute_draw::pictures::tile_colour(tile)), "{c:?}");
        assert_eq!(c.label, [(32 * c.row + c.col).to_string()]);
        *counts.entry(tile).or_insert(0) += 1;
    }
    for (tile, n) in counts {
        assert_eq!(n, if tile % 3 == 2 { 16 } else { 40 }, "tile {tile}");
    }
    assert!(
        svg_titles(&svg).contains("partial tiles"),
        "{}",
        svg_titles(&svg)
    );
    // (4,8) in tiles of (3,3): rows 0-2 and 3; columns 0-2, 3-5, 6-7
    let svg = ok(&["draw", "(4,8):(1,4)", "--op", "divide", "--with", "(3,3)"]);
    for c in svg_cells(&svg) {
        let tile = c.row / 3 + 2 * (c.col / 3);
        assert_eq!(c.data["tile"], tile.to_string(), "{c:?}");
        assert_eq!(c.fill, hex(cute_draw::pictures::tile_colour(tile)));
    }
    // a strided tile that does not divide: <5:2,8> on 12 rows takes rows 0,2,..,8 (tile 0),
    // 1,3,..,9 (tile 1), then 10 (tile 2) and 11 (tile 3) of the padded rest (2,2):(1,10)
    let svg = ok(&[
        "draw",
        "(12,32):(32,1)",
        "--op",
        "divide",
        "--with",
        "<5:2,8>",
    ]);
    for c in svg_cells(&svg) {
        let rest0 = if c.row < 10 { c.row % 2 } else { c.row - 8 };
        let tile = rest0 + 4 * (c.col / 8);
        assert_eq!(c.data["tile"], tile.to_string(), "{c:?}");
    }
    // a tiler that divides says nothing about partial tiles
    let svg = ok(&[
        "draw",
        "(8,16):(20,1)",
        "--op",
        "divide",
        "--with",
        "<4:1,8:2>",
    ]);
    assert!(!svg_titles(&svg).contains("partial"));
}

#[test]
fn a_tv_layout_that_is_not_injective_outlines_every_cell_of_the_thread() {
    // ((4,8),(2,2)):((32,1),(16,4)): (t0 + 4 t1, v0 + 2 v1) -> 32 t0 + t1 + 16 v0 + 4 v1 over a
    // 16 x 8 tile (cell m + 16 n): the value strides overlap, so cells hold several threads
    let svg = ok(&[
        "draw",
        "((4,8),(2,2)):((32,1),(16,4))",
        "--tv",
        "16",
        "8",
        "--thread",
        "5",
    ]);
    let mut threads = vec![std::collections::BTreeSet::new(); 128];
    for t0 in 0..4 {
        for t1 in 0..8 {
            for v in 0..4 {
                let cell = 32 * t0 + t1 + 16 * (v % 2) + 4 * (v / 2);
                threads[cell as usize].insert(t0 + 4 * t1);
            }
        }
    }
    let cells = svg_cells(&svg);
    assert_eq!(cells.len(), 128);
    let mut outlined = 0;
    for c in &cells {
        let want = &threads[(c.row + 16 * c.col) as usize];
        let got: std::collections::BTreeSet<i64> = c.data["threads"]
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(&got, want, "{c:?}");
        if want.is_empty() {
            assert!(c.label.is_empty() && c.fill == "#ffffff", "{c:?}");
            continue;
        }
        // the label names one thread and how many others
        let first = &c.label[0];
        let shown: i64 = first[1..].split('+').next().unwrap().parse().unwrap();
        assert!(want.contains(&shown), "{c:?}");
        if want.len() > 1 {
            assert!(first.ends_with(&format!("+{}", want.len() - 1)), "{c:?}");
        }
        let on = c.data.get("mark").map(String::as_str) == Some("outline");
        assert_eq!(on, want.contains(&5), "{c:?}");
        if on {
            outlined += 1;
            assert_eq!(shown, 5, "the highlighted thread is the one named: {c:?}");
        }
    }
    // thread 5 = (1, 1) reaches 33, 49, 37 and 53: all four outlined
    assert_eq!(outlined, 4);
}

/// Carry-less product: `k·F<b>` of the F2 semimodule (the polynomial product over F2).
fn clmul(a: i64, b: i64) -> i64 {
    (0..20)
        .filter(|k| a >> k & 1 == 1)
        .fold(0, |acc, k| acc ^ (b << k))
}

#[test]
fn f2_and_coordinate_layouts_are_drawn_by_their_values() {
    // (4,8):(F1,F5): (r, c) -> r xor c·5 over F2, an offset: labelled and greyed by it
    let svg = ok(&["draw", "(4,8):(F1,F5)"]);
    let cells = svg_cells(&svg);
    assert_eq!(cells.len(), 32);
    for c in &cells {
        let v = c.row ^ clmul(c.col, 5);
        assert_eq!(c.label, [v.to_string()], "{c:?}");
        assert_eq!(c.fill, hex(cute_draw::pictures::grey(v)), "{c:?}");
    }
    // (4,8):(1@0,1@1): the identity, each cell its coordinate
    let svg = ok(&["draw", "(4,8):(1@0,1@1)"]);
    let cells = svg_cells(&svg);
    assert_eq!(cells.len(), 32);
    for c in &cells {
        assert_eq!(c.label, [format!("({},{})", c.row, c.col)], "{c:?}");
    }
    // a coordinate layout that is not the identity: (i, (j0, j1)) -> (j0, i + 6 j1)
    let svg = ok(&["draw", "(4,(4,2)):(1@1,(1@0,6@1))"]);
    for c in svg_cells(&svg) {
        let want = format!("({},{})", c.col % 4, c.row + 6 * (c.col / 4));
        assert_eq!(c.label, [want], "{c:?}");
    }
    // PNG and TikZ too
    let p = tmp("f2.png");
    ok(&["draw", "(4,8):(F1,F5)", "-o", p.to_str().unwrap()]);
    assert!(ok(&["draw", "(4,8):(1@0,1@1)", "--format", "tikz"]).contains("{(1,3)}"));
}

#[test]
fn eval_and_show_read_swizzled_layouts_as_draw_does() {
    // Sw<3,0,3> o 0 o (8,8):(8,1): bits 3-5 (the row) xor into bits 0-2: (r, c) -> 8r + (c xor r)
    let sw = "Sw<3,0,3> o 0 o (8,8):(8,1)";
    let want = |r: i64, c: i64| 8 * r + (c ^ r);
    let all = ok(&["eval", sw]);
    let mut listed = Vec::new();
    for i in 0..64 {
        listed.push(want(i % 8, i / 8).to_string());
    }
    assert_eq!(all.trim_end(), format!("({})", listed.join(",")));
    assert_eq!(
        ok(&["eval", sw, "(3,5)"]).trim_end(),
        want(3, 5).to_string()
    );
    assert_eq!(ok(&["eval", sw, "29"]).trim_end(), want(5, 3).to_string());
    let j = ok(&["eval", sw, "(3,5)", "--json"]);
    assert!(j.contains(&format!("\"value\": {}", want(3, 5))), "{j}");
    let table = ok(&["show", sw]);
    let mut lines = table.lines();
    assert_eq!(lines.next(), Some(sw));
    for r in 0..8 {
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("{r:>2}  |")))
            .unwrap();
        let got: Vec<i64> = row[4..]
            .split('|')
            .filter(|x| !x.trim().is_empty())
            .map(|x| x.trim().parse().unwrap())
            .collect();
        assert_eq!(got, (0..8).map(|c| want(r, c)).collect::<Vec<_>>());
    }
    let j = ok(&["show", sw, "--json"]);
    assert!(!j.contains("[8, 9, 10, 11, 12, 13, 14, 15]"));
    assert!(
        j.contains(&format!("[{}, {}, ", want(1, 0), want(1, 1))),
        "{j}"
    );
    // a typo in the swizzle is a parse error pointing at it, from eval and show alike
    for cmd in ["eval", "show"] {
        let o = cute(&[cmd, "Sw<3,0,3 o 0 o (8,8):(8,1)"]);
        assert_eq!(o.status.code(), Some(1));
        let e = String::from_utf8(o.stderr).unwrap();
        assert!(e.starts_with(&format!("error: {cmd}: argument 1")), "{e}");
        assert!(e.contains("expected `>`"), "{e}");
    }
}

/// Every title line of `svg` fits the picture's width at the font's advance, and the lines of
/// each panel say its whole title.
fn titles_fit(svg: &str, args: &[&str]) {
    let width: f64 = attr(svg.lines().next().unwrap(), "width")
        .unwrap()
        .parse()
        .unwrap();
    for line in svg
        .lines()
        .filter(|l| l.starts_with("<text class=\"title\""))
    {
        let text = &line[line.find('>').unwrap() + 1..line.rfind("</text>").unwrap()];
        let x: f64 = attr(line, "x").unwrap().parse().unwrap();
        let half = text.chars().count() as f64 * cute_draw::scene::CHAR_W / 2.0;
        assert!(
            x - half >= 0.0 && x + half <= width,
            "{args:?}: title line {text:?} at {x} runs out of 0..{width}"
        );
    }
}

#[test]
fn titles_fit_their_pictures() {
    let long = [
        "draw",
        "(3,4):(4,1)",
        "--op",
        "logical_product",
        "--with",
        "(2,5):(1,2)",
    ];
    let svg = ok(&long);
    titles_fit(&svg, &long);
    // wrapped, the title still says the whole product
    assert_eq!(
        svg_titles(&svg).replace(' ', ""),
        "logical_product((3,4):(4,1),(2,5):(1,2))=((3,4),(2,5)):((4,1),(12,24))"
    );
    // and the cells sit below the title band
    let title_bottom = svg
        .lines()
        .filter(|l| l.starts_with("<text class=\"title\""))
        .map(|l| attr(l, "y").unwrap().parse::<i64>().unwrap())
        .max()
        .unwrap();
    let first_cell = svg
        .lines()
        .find(|l| l.starts_with("<rect class=\"cell"))
        .unwrap();
    let cell_top: i64 = attr(first_cell, "y").unwrap().parse().unwrap();
    assert!(title_bottom + 8 < cell_top - cute_draw::scene::CELL);
    for args in [
        &["draw", "(4,8):(1,4)", "--op", "divide", "--with", "(3,3)"][..],
        &["draw", "8:1"],
        &["draw", "((2,2),(2,2)):((1,4),(2,8))"],
        &["draw", "(2,2):(1,2)", "--slice", "(1,_)"],
        &["draw", "(4,2):(2,1)", "--tv", "2", "4"],
        &["draw", "(2,2):(1,2)", "--banks", "--elem-bytes", "4"],
        &["draw", "--atom", "SM80_16x8x8_F32TF32TF32F32_TN"],
        &["draw", "--atom", "SM75_U32x1_LDSM_N"],
        &[
            "draw",
            "(8,8):(8,1)",
            "--access",
            "(32,2):(2,1)",
            "--elem-bytes",
            "4",
            "--vector",
            "1",
        ],
    ] {
        titles_fit(&ok(args), args);
    }
}

#[test]
fn rank_1_layouts_are_columns_and_folded_ranks_are_noted() {
    // CuTe's print_latex appends a mode 1:0 to a rank-1 layout: 8:1 is 8 rows of 1 column
    let svg = ok(&["draw", "8:1"]);
    let cells = svg_cells(&svg);
    assert_eq!(cells.len(), 8);
    for c in &cells {
        assert_eq!(c.col, 0);
        assert_eq!(c.label, [c.row.to_string()]);
    }
    assert!(ok(&["draw", "8:2", "--format", "tikz"]).contains("at (7,0) {14};"));
    // a rank-1 layout's slice, tiles and swizzle too
    let svg = ok(&["draw", "Sw<1,0,1> o 0 o 4:1"]);
    let got: Vec<(i64, i64, String)> = svg_cells(&svg)
        .into_iter()
        .map(|c| (c.row, c.col, c.label[0].clone()))
        .collect();
    assert_eq!(
        got,
        [(0, 0, "0"), (1, 0, "1"), (2, 0, "3"), (3, 0, "2")].map(|(r, c, l)| (r, c, l.to_string()))
    );
    let svg = ok(&["draw", "12:1", "--op", "divide", "--with", "5"]);
    for c in svg_cells(&svg) {
        assert_eq!((c.col, &c.data["tile"]), (0, &(c.row / 5).to_string()));
    }
    // rank 3: modes 1 and 2 in the columns, and the picture says so (as `cute show` does)
    let svg = ok(&["draw", "(2,2,2):(1,2,4)"]);
    assert!(
        svg_titles(&svg).contains("modes 1..2 folded into the columns"),
        "{}",
        svg_titles(&svg)
    );
    for c in svg_cells(&svg) {
        assert_eq!(c.label, [(c.row + 2 * c.col).to_string()]);
    }
    assert!(ok(&["show", "(2,2,2):(1,2,4)"]).contains("modes 1..2 folded into the columns"));
    assert!(!svg_titles(&ok(&["draw", "(2,4):(1,2)"])).contains("folded"));
}

#[test]
fn a_png_too_long_to_draw_is_refused_before_drawing() {
    // 262144 cells are within the cell limit, but in one column the PNG would be 1.4 million
    // pixels high: refused with the sizes, and nothing written
    let p = tmp("long.png");
    let _ = std::fs::remove_file(&p);
    fails(
        &["draw", "262144:1", "-o", p.to_str().unwrap()],
        &["1398106 pixels", "16384 pixels a side", "SVG"],
    );
    assert!(!p.exists());
    fails(
        &["draw", "(2,8192):(8192,1)", "-o", p.to_str().unwrap()],
        &["pixels a side"],
    );
    // a square is drawn
    let p = tmp("square.png");
    let said = ok(&["draw", "(16,16):(16,1)", "-o", p.to_str().unwrap()]);
    assert!(said.contains("256 cells"), "{said}");
}

#[test]
fn the_access_picture_shows_each_instructions_threads_and_wavefronts() {
    // ldmatrix's pattern on a row-major 8x64 tile of halves, 16-byte accesses (4 phases of 8
    // threads): thread t0 + 8 t1 reads row t0, columns 8 t1 + 32 j .. + 7 in instruction j. The
    // 8 rows are 128 bytes apart, the same banks: in phase t1 the rows are served one per
    // wavefront, row m in wavefront 8 t1 + m of the instruction
    let args = |smem: &'static str| {
        [
            "draw",
            smem,
            "--access",
            "((8,4),(8,2)):((1,64),(8,256))",
            "--elem-bytes",
            "2",
            "--vector",
            "8",
        ]
    };
    for (smem, swizzled) in [
        ("(8,64):(64,1)", false),
        ("Sw<3,3,3> o 0 o (8,64):(64,1)", true),
    ] {
        let a = args(smem);
        let svg = ok(&a);
        titles_fit(&svg, &a);
        let cells = svg_cells(&svg);
        assert_eq!(cells.len(), 2 * 512, "one panel per instruction");
        for c in &cells {
            let j = c.panel;
            let reads = c.col / 32 == j;
            if !reads {
                assert!(!c.data.contains_key("thread"), "{c:?}");
                assert_eq!(c.fill, "#ffffff");
                continue;
            }
            let t1 = (c.col % 32) / 8;
            let t = c.row + 8 * t1;
            let wave = if swizzled { t1 } else { 8 * t1 + c.row };
            assert_eq!(
                c.label,
                [format!("T{t}"), format!("w{wave}")],
                "{smem}: {c:?}"
            );
            assert_eq!(c.data["thread"], t.to_string());
            let waits = !swizzled && c.row > 0;
            assert_eq!(c.data.contains_key("mark"), waits, "{smem}: {c:?}");
            // the bank of the (swizzled) offset: 2-byte elements, 4-byte banks
            let off = 64 * c.row + c.col;
            let off = if swizzled {
                off ^ ((off >> 6 & 7) << 3)
            } else {
                off
            };
            assert_eq!(c.data["bank"], (off / 2 % 32).to_string(), "{c:?}");
        }
        let t = svg_titles(&svg);
        let per = if swizzled {
            "4 wavefronts (phases 1+1+1+1)"
        } else {
            "32 wavefronts (phases 8+8+8+8)"
        };
        assert!(t.contains(&format!("instruction 0: {per}")), "{t}");
        assert!(t.contains(&format!("instruction 1: {per}")), "{t}");
    }
}

/// Runs a failing `cute draw`/`show` and checks its whole stderr.
fn refused(args: &[&str], want: &str) {
    let err = binary::fails(args, 1, &[]);
    assert_eq!(err, format!("{want}\n"), "{args:?}");
}

/// Regression: an access pattern of many instructions drew one whole-tile panel each, checking
/// one panel against the cell limit, and aborted allocating 6.7 GB; all its panels are counted up
/// front now, and nothing is drawn or written past the limit.
#[test]
fn every_panel_of_an_access_picture_counts_against_the_limit() {
    refused(
        &[
            "draw", "(64,64):(64,1)", "--access", "(32,8192):(1,0)", "--elem-bytes", "4",
            "--vector", "1",
        ],
        "error: draw: --access: (64,64):(64,1) with (32,8192):(1,0), one panel per instruction: 8192 panels of 64 x 64 cells = 33554432 cells, more than the limit of 262144 cells a picture draws; `cute banks` counts the wavefronts without a picture",
    );
    let p = tmp("many.png");
    refused(
        &[
            "draw", "(512,512):(512,1)", "--access", "(32,8):(1,32)", "--elem-bytes", "4",
            "--vector", "1", "-o", p.to_str().unwrap(),
        ],
        "error: draw: --access: (512,512):(512,1) with (32,8):(1,32), one panel per instruction: 8 panels of 512 x 512 cells = 2097152 cells, more than the limit of 262144 cells a picture draws; `cute banks` counts the wavefronts without a picture",
    );
    assert!(!p.exists());
    // within the limit: 64 instructions of a 64 x 64 tile
    let svg = ok(&[
        "draw",
        "(64,64):(64,1)",
        "--access",
        "(32,64):(1,32)",
        "--elem-bytes",
        "4",
        "--vector",
        "1",
    ]);
    assert_eq!(svg.matches("<rect class=\"cell\"").count(), 262144);
}

/// Regression: the size check of a divide is on the picture (16 cells), not on the divide with
/// its padding (2^34 coordinates of `<4294967296,2>`).
#[test]
fn a_divide_by_a_huge_tiler_draws_the_layouts_cells() {
    let svg = ok(&[
        "draw",
        "(4,4):(1,4)",
        "--op",
        "divide",
        "--with",
        "<4294967296,2>",
    ]);
    let cells = svg_cells(&svg);
    assert_eq!(cells.len(), 16);
    for c in &cells {
        assert_eq!(c.data["tile"], (c.col / 2).to_string(), "{c:?}");
    }
    assert!(svg_titles(&svg).contains("tiles of 8 cells, a whole tile 8589934592"));
}

/// Regression: a negative offset's bank uses floor division: byte -2 is in word -1, bank 31.
#[test]
fn banks_of_negative_offsets_are_below_the_base() {
    let svg = ok(&["draw", "(8,1):(-1,0)", "--banks", "--elem-bytes", "2"]);
    let got: Vec<Vec<String>> = svg_cells(&svg).into_iter().map(|c| c.label).collect();
    let want = [
        (0, 0),
        (-1, 31),
        (-2, 31),
        (-3, 30),
        (-4, 30),
        (-5, 29),
        (-6, 29),
        (-7, 28),
    ];
    let want: Vec<Vec<String>> = want
        .iter()
        .map(|(o, b)| vec![o.to_string(), format!("b{b}")])
        .collect();
    assert_eq!(got, want);
}

/// Regression: `--tv`, `--slice` and `--op` take a plain layout, and say so for a swizzled one
/// (they gave a parse error at byte 0).
#[test]
fn a_swizzled_layout_is_refused_by_the_flags_that_take_a_plain_one() {
    let sw = "Sw<1,0,1> o 0 o (4,4):(4,1)";
    for (flag, more) in [
        ("--tv", &["4", "4"][..]),
        ("--slice", &["(_,1)"]),
        ("--op", &["divide", "--with", "2"]),
    ] {
        let mut args = vec!["draw", sw, flag];
        args.extend_from_slice(more);
        let want = format!(
            "error: draw: {flag} takes a layout, not the swizzled layout `{sw}`: a swizzled layout is drawn alone, with --banks or with --access"
        );
        refused(&args, &want);
    }
    assert!(ok(&["draw", "--help"]).contains("--tv, --slice and --op take a plain layout"));
}

/// Regression: the errors name the operation once, the flag whose value is wrong, and what was
/// given.
#[test]
fn errors_name_the_right_operation_flag_and_operand() {
    let l = "(4,4):(1,4)";
    refused(
        &["draw", l, "--banks", "--elem-bytes", "0"],
        "error: draw: --elem-bytes 0: an element is 1, 2, 4, 8 or 16 bytes",
    );
    refused(
        &["draw", l, "--tv", "0", "4"],
        "error: draw: --tv 0 4: the tile's rows and columns must be positive and their product an i64",
    );
    refused(
        &["draw", "4:1", "--tv", "1", "262145"],
        "error: draw: --tv 1 262145: the tile of 1 x 262145 = 262145 cells, more than the limit of 262144 cells a picture draws",
    );
    refused(
        &["show", "(1024,1024):(1,1024)"],
        "error: show: (1024,1024):(1,1024): 1048576 cells exceed the limit of 262144",
    );
    refused(
        &["show", "Sw<3,3,3> o 0 o (8,8):(F1,F8)"],
        "error: show: Sw<3,3,3> o 0 o (8,8):(F1,F8): a swizzle acts on offsets: its layout (8,8):(F1,F8) must have integer strides",
    );
    // a layout given without a swizzle is named as given
    refused(
        &[
            "draw", "(16,32):(32,1)", "--access", "((8,4),(4,1)):((32,1),(8,256))", "--elem-bytes",
            "2", "--vector", "4",
        ],
        "error: draw: bank_conflicts (16,32):(32,1), ((8,4),(4,1)):((32,1),(8,256)): thread 0, instruction 0: the V values of one access are not consecutive elements of shared memory: a later value is at element offset (256)",
    );
    // flag values are named by their flag, with the pointer under the text
    for (flag, text) in [("--with", "(2,2"), ("--access", "(32,2):(2,1")] {
        let args = if flag == "--with" {
            vec!["draw", l, "--op", "blocked_product", flag, text]
        } else {
            vec!["draw", l, flag, text, "--elem-bytes", "4", "--vector", "1"]
        };
        let err = binary::fails(&args, 1, &[]);
        let first = err.lines().next().unwrap();
        assert!(
            first.starts_with(&format!("error: draw: {flag} `{text}`: parse: ")),
            "{err}"
        );
    }
    refused(
        &["draw", "(4,3):(1@0,1@1)", "--op", "divide", "--with", "2"],
        "error: draw: --op divide: (4,3):(1@0,1@1): this picture needs offsets, and only layouts with integer strides have them",
    );
    // a slice of a layout with coordinate strides is drawn, labelled by its coordinates
    let svg = ok(&["draw", "(4,3):(1@0,1@1)", "--slice", "(_,1)"]);
    assert!(svg.contains("<title>(4,3):(1@0,1@1) sliced at (_,1): 1@1 + (4):(1@0)</title>"));
    for c in svg_cells(&svg) {
        assert_eq!(c.label, [format!("({},{})", c.row, c.col)]);
        assert_eq!(c.data.contains_key("mark"), c.col == 1, "{c:?}");
    }
}

/// Regression: flags a picture does not take are refused, not ignored.
#[test]
fn flags_a_picture_does_not_take_are_refused() {
    let p = tmp("list.png");
    let _ = std::fs::remove_file(&p);
    refused(
        &["draw", "--atom", "list", "-o", p.to_str().unwrap()],
        "error: draw: --atom list prints the names of the atoms: it takes no other flag, not -o",
    );
    assert!(!p.exists());
    refused(
        &["draw", "8:1", "--atom", "list"],
        "error: draw: --atom list prints the names of the atoms: it takes no other flag, not LAYOUT",
    );
    refused(
        &["draw", "--atom", "list", "--tv", "2", "4"],
        "error: draw: --atom list prints the names of the atoms: it takes no other flag, not --tv",
    );
    refused(
        &[
            "draw", "(8,8):(8,1)", "--access", "(32,2):(2,1)", "--banks", "--elem-bytes", "4",
            "--vector", "1",
        ],
        "error: draw: --access colours its cells by bank already: give --access or --banks, not both",
    );
    let ldsm = "SM75_U32x4_LDSM_N";
    for (flag, v) in [("--elem-bytes", "2"), ("--vector", "4"), ("--with", "2:1")] {
        refused(
            &["draw", "--atom", ldsm, flag, v],
            &format!("error: draw: {flag} does not belong to --atom: give one picture's flags"),
        );
    }
    refused(
        &[
            "draw",
            "(8,8):(8,1)",
            "--banks",
            "--elem-bytes",
            "4",
            "--vector",
            "2",
        ],
        "error: draw: --vector does not belong to --banks: give one picture's flags",
    );
}
