//! Pictures of tiled MMAs and tiled copies, read back from their SVG: every cell's `T`/`V` label,
//! fill colour, owner list and outline recomputed here from the core's thread-value layouts
//! (`get_layoutA_TV` etc.: the `(thread, value)` pairs that reach the cell, found by walking the
//! layout's whole domain), and the labels of the MMA's C, A and B checked once more against CuTe's
//! other view, the `(m, n) ↦ (thread, value)` layouts (`get_layoutC_MN` etc.), which the older
//! `print_latex` drew from.

use cute::atom::{cp_async_16b, ldmatrix, mma_sm80_16x8x16, wgmma_64xnx16, DType};
use cute::tiled::{make_tiled_copy, make_tiled_copy_a, make_tiled_mma, TiledCopy, TiledMma};
use cute::{IntTuple, Layout, Tiler};
use cute_draw::pictures::{self, thread_colour};
use cute_draw::scene::hex;
use std::collections::BTreeMap;

/// One `rect.cell` of the SVG: its panel, row, column, fill, `data-*` and label lines.
#[derive(Debug)]
struct SvgCell {
    panel: usize,
    row: i64,
    col: i64,
    fill: String,
    data: BTreeMap<String, String>,
    label: Vec<String>,
}

fn attr<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!(" {key}=\""))? + key.len() + 3;
    let end = line[at..].find('"')?;
    Some(&line[at..at + end])
}

/// Every cell of an SVG that `Scene::svg` wrote, read from the text alone.
fn cells(svg: &str) -> Vec<SvgCell> {
    let mut out: Vec<SvgCell> = Vec::new();
    for line in svg.lines() {
        if line.starts_with("<rect class=\"cell\"") {
            let mut data = BTreeMap::new();
            for key in ["threads", "owners", "mark"] {
                if let Some(v) = attr(line, &format!("data-{key}")) {
                    data.insert(key.to_string(), v.to_string());
                }
            }
            let num = |k: &str| attr(line, k).unwrap().parse::<i64>().unwrap();
            out.push(SvgCell {
                panel: num("data-panel") as usize,
                row: num("data-row"),
                col: num("data-col"),
                fill: attr(line, "fill").unwrap().to_string(),
                data,
                label: Vec::new(),
            });
        } else if line.starts_with("<text class=\"label\"") {
            let text = &line[line.find('>').unwrap() + 1..line.rfind("</text>").unwrap()];
            out.last_mut().unwrap().label.push(text.to_string());
        }
    }
    out
}

/// For each coordinate index of a tile of `n` cells, every `(thread, value)` of `tv` that reaches
/// it, in `(thread, value)` order (print_latex's loops: thread outer, value inner).
fn preimages(tv: &Layout, n: i64) -> Vec<Vec<(i64, i64)>> {
    let threads = tv.mode(0).unwrap().size();
    let mut out = vec![Vec::new(); n as usize];
    for i in 0..tv.size() {
        let x = tv.eval(i).unwrap();
        assert!((0..n).contains(&x), "{tv} maps {i} to {x}, outside {n}");
        out[x as usize].push((i % threads, i / threads));
    }
    for o in &mut out {
        o.sort_unstable();
    }
    out
}

/// Checks one panel of the SVG: each cell `(r, c)` is coordinate `index(r, c)` of `tv`; its label,
/// fill, owners and outline are what the preimages say. Returns, per cell, the thread and value
/// shown.
fn check_panel(
    all: &[SvgCell],
    panel: usize,
    (rows, cols): (i64, i64),
    tv: &Layout,
    index: impl Fn(i64, i64) -> i64,
    highlight: Option<i64>,
) -> BTreeMap<(i64, i64), (i64, i64)> {
    let pre = preimages(tv, rows * cols);
    let mine: Vec<&SvgCell> = all.iter().filter(|c| c.panel == panel).collect();
    assert_eq!(mine.len() as i64, rows * cols, "panel {panel} of {tv}");
    let mut shown = BTreeMap::new();
    for cell in mine {
        let owners = &pre[index(cell.row, cell.col) as usize];
        assert!(
            !owners.is_empty(),
            "{tv}: cell ({}, {}) of panel {panel} has no owner (a tiled atom covers its tile)",
            cell.row,
            cell.col
        );
        let (t, v) = owners
            .iter()
            .copied()
            .find(|&(t, _)| Some(t) == highlight)
            .unwrap_or(owners[0]);
        let mut threads: Vec<i64> = owners.iter().map(|o| o.0).collect();
        threads.sort_unstable();
        threads.dedup();
        let plus = |n: usize| {
            if n == 0 {
                String::new()
            } else {
                format!("+{n}")
            }
        };
        let same = owners.iter().filter(|o| o.0 == t).count() - 1;
        assert_eq!(
            cell.label,
            vec![
                format!("T{t}{}", plus(threads.len() - 1)),
                format!("V{v}{}", plus(same))
            ],
            "{tv}: panel {panel} cell ({}, {})",
            cell.row,
            cell.col
        );
        assert_eq!(cell.fill, hex(thread_colour(t)), "{tv}: colour of {cell:?}");
        let listed: Vec<String> = threads.iter().map(i64::to_string).collect();
        assert_eq!(cell.data["threads"], listed.join(" "));
        let outlined = highlight.is_some_and(|h| threads.contains(&h));
        assert_eq!(
            cell.data.get("mark").map(String::as_str),
            outlined.then_some("outline"),
            "{tv}: outline of {cell:?}"
        );
        shown.insert((cell.row, cell.col), (t, v));
    }
    shown
}

/// `(mn, thr)` of CuTe's `get_layout*_MN`: cell `(i, j)` ↦ `(thr(x mod T), x / T)`.
fn mn_view(mn: &Layout, thr: &Layout, i: i64, j: i64) -> (i64, i64) {
    let crd: IntTuple = format!("({i},{j})").parse().unwrap();
    let x = mn.eval_crd(&crd).unwrap();
    let t = thr.size();
    (thr.eval(x % t).unwrap(), x / t)
}

fn check_mma(t: &TiledMma, highlight: Option<i64>) {
    let svg = pictures::tiled_mma(t, highlight).unwrap().svg();
    let all = cells(&svg);
    let (m, n, k) = t.tile_shape();
    let (a, b, c) = (
        t.get_layout_a_tv().unwrap(),
        t.get_layout_b_tv().unwrap(),
        t.get_layout_c_tv_every_k().unwrap(),
    );
    // panel 0: B drawn K x N (row k, column n); 1: A, M x K; 2: C, M x N
    let sb = check_panel(&all, 0, (k, n), &b, |r, col| col + n * r, highlight);
    let sa = check_panel(&all, 1, (m, k), &a, |r, col| r + m * col, highlight);
    let sc = check_panel(&all, 2, (m, n), &c, |r, col| r + m * col, highlight);
    assert_eq!(all.len() as i64, k * n + m * k + m * n);
    // the (m, n) ↦ (thread, value) views agree with the picture where the cell has one owner, and
    // name one of its owners where it has several
    let (cmn, cthr) = t.get_layout_c_mn().unwrap();
    let (amk, athr) = t.get_layout_a_mk().unwrap();
    let (bnk, bthr) = t.get_layout_b_nk().unwrap();
    let pc = preimages(&c, m * n);
    for (&(r, col), &tv) in &sc {
        let owner = mn_view(&cmn, &cthr, r, col);
        assert!(pc[(r + m * col) as usize].contains(&owner), "C({r}, {col})");
        if highlight.is_none() && t.thr_layout_vmnk().mode(3).unwrap().size() == 1 {
            assert_eq!(owner, tv, "C({r}, {col})");
        }
    }
    let pa = preimages(&a, m * k);
    for &(r, col) in sa.keys() {
        let (th, v) = mn_view(&amk, &athr, r, col);
        assert!(
            pa[(r + m * col) as usize].contains(&(th, v)),
            "A({r}, {col})"
        );
    }
    let pb = preimages(&b, n * k);
    for &(kk, nn) in sb.keys() {
        let (th, v) = mn_view(&bnk, &bthr, nn, kk);
        assert!(
            pb[(nn + n * kk) as usize].contains(&(th, v)),
            "B({nn}, {kk})"
        );
    }
}

fn check_copy(t: &TiledCopy, highlight: Option<i64>) {
    let svg = pictures::tiled_copy(t, highlight).unwrap().svg();
    let all = cells(&svg);
    let (rows, cols) = pictures::copy_tile(t).unwrap();
    let tiler: Vec<i64> = (0..2)
        .map(|i| t.tiler().get(i).unwrap().size().unwrap())
        .collect();
    assert_eq!((rows, cols), (tiler[0], tiler[1]));
    let (s, d) = (t.get_layout_s_tv().unwrap(), t.get_layout_d_tv().unwrap());
    let ss = check_panel(&all, 0, (rows, cols), &s, |r, c| r + rows * c, highlight);
    let sd = check_panel(&all, 1, (rows, cols), &d, |r, c| r + rows * c, highlight);
    assert_eq!(all.len() as i64, 2 * rows * cols);
    let (smn, sthr) = t.get_layout_s_mn().unwrap();
    let (dmn, dthr) = t.get_layout_d_mn().unwrap();
    let ps = preimages(&s, rows * cols);
    let pd = preimages(&d, rows * cols);
    for &(r, c) in ss.keys() {
        assert!(ps[(r + rows * c) as usize].contains(&mn_view(&smn, &sthr, r, c)));
    }
    for &(r, c) in sd.keys() {
        assert!(pd[(r + rows * c) as usize].contains(&mn_view(&dmn, &dthr, r, c)));
    }
}

fn lay(s: &str) -> Layout {
    s.parse().unwrap()
}

fn tiler(s: &str) -> Tiler {
    s.parse().unwrap()
}

fn sm80(atoms: &str, perm: &str) -> TiledMma {
    make_tiled_mma(
        &mma_sm80_16x8x16(DType::F16).unwrap(),
        &lay(atoms),
        &tiler(perm),
    )
    .unwrap()
}

#[test]
fn sm80_2x2_cells_are_the_tv_layouts() {
    let t = sm80("(2,2,1):(1,2,0)", "<_,_,_>");
    assert_eq!(t.tile_shape(), (32, 16, 16));
    check_mma(&t, None);
    check_mma(&t, Some(70));
}

#[test]
fn sm80_2x2_with_a_permutation() {
    // CUTLASS's usual 32x32x16 permutation: N reordered so each thread's values along N are
    // adjacent
    let t = sm80("(2,2,1):(1,2,0)", "<32,(8,2,2):(1,16,8),16>");
    assert_eq!(t.tile_shape(), (32, 32, 16));
    check_mma(&t, None);
    check_mma(&t, Some(3));
}

#[test]
fn sm80_4x1_cells_are_the_tv_layouts() {
    let t = sm80("(4,1,1):(1,0,0)", "<_,_,_>");
    assert_eq!(t.tile_shape(), (64, 8, 16));
    check_mma(&t, None);
    check_mma(&t, Some(127));
}

#[test]
fn atoms_along_k_share_the_cells_of_c() {
    // CuTe's print_latex draws C from the threads of the first atom along K; here every thread
    // of the K atoms is among a cell's owners (each holds a partial sum of it)
    for (atoms, tile, first) in [
        ("(2,2,2):(1,2,4)", (32, 16, 32), 128),
        ("(2,1,2):(2,0,1)", (32, 8, 32), 32),
    ] {
        let t = sm80(atoms, "<_,_,_>");
        assert_eq!(t.tile_shape(), tile, "{atoms}");
        check_mma(&t, None);
        check_mma(&t, Some(first));
        let s = pictures::tiled_mma(&t, None).unwrap();
        assert_eq!(
            s.panels[2].cell(0, 0).attrs[0].1,
            format!("0 {first}"),
            "{atoms}: C(0, 0)"
        );
    }
}

#[test]
fn wgmma_2x1_cells_are_the_tv_layouts() {
    let atom = wgmma_64xnx16(16, DType::F16).unwrap();
    let t = make_tiled_mma(&atom, &lay("(2,1,1):(1,0,0)"), &tiler("<_,_,_>")).unwrap();
    assert_eq!(t.tile_shape(), (128, 16, 16));
    check_mma(&t, None);
    check_mma(&t, Some(200));
}

#[test]
fn ldmatrix_tiled_copies_are_the_tv_layouts() {
    let m = sm80("(2,2,1):(1,2,0)", "<_,_,_>");
    let a = make_tiled_copy_a(&ldmatrix(4, false).unwrap(), 16, &m).unwrap();
    check_copy(&a, None);
    check_copy(&a, Some(65));
    let t = make_tiled_copy(
        &ldmatrix(2, true).unwrap(),
        16,
        &lay("(32,1):(1,0)"),
        &lay("(1,4):(0,1)"),
    )
    .unwrap();
    check_copy(&t, None);
}

#[test]
fn cp_async_tiled_copy_is_the_tv_layouts() {
    let t = make_tiled_copy(
        &cp_async_16b().unwrap(),
        16,
        &lay("(16,8):(8,1)"),
        &lay("(1,8):(0,1)"),
    )
    .unwrap();
    check_copy(&t, Some(9));
}

#[test]
fn a_thread_outside_the_tiled_value_is_refused() {
    let t = sm80("(2,2,1):(1,2,0)", "<_,_,_>");
    let e = pictures::tiled_mma(&t, Some(128)).unwrap_err().to_string();
    assert!(
        e.contains("thread 128 is not one of its 128 threads, 0 to 127"),
        "{e}"
    );
    let c = make_tiled_copy_a(&ldmatrix(4, false).unwrap(), 16, &t).unwrap();
    let e = pictures::tiled_copy(&c, Some(-1)).unwrap_err().to_string();
    assert!(e.contains("thread -1 is not one of its 128 threads"), "{e}");
}
