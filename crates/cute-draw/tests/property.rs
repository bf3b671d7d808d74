//! Property test: for random layouts, TV layouts and divides (tilers that divide the shape and
//! tilers that do not), the cells of the SVG that `cute-draw` writes — read back from the SVG
//! text: `rect.cell` with `data-row`, `data-col` and `data-*`, the `text.label`s after each — hold
//! the labels, colours, owners and tiles that the definitions say, computed here independently
//! (colexicographic coordinates, the TV layout's preimages by brute force, the tile of a divide
//! from the complement's formula). And every title line fits its panel.

use cute::{Layout, Tiler};
use cute_draw::pictures::{self, grey, thread_colour, tile_colour};
use cute_draw::scene::{hex, Scene, CHAR_W};
use std::collections::BTreeMap;

/// xorshift64*: a small deterministic generator (the test needs no crate for randomness).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `lo..=hi`.
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

#[derive(Debug)]
struct SvgCell {
    panel: i64,
    row: i64,
    col: i64,
    fill: String,
    data: BTreeMap<String, String>,
    label: Vec<String>,
}

/// Every `rect.cell` of an SVG of [`Scene::svg`], with its `data-*` attributes and labels.
fn cells(svg: &str) -> Vec<SvgCell> {
    let mut out: Vec<SvgCell> = Vec::new();
    for line in svg.lines() {
        if line.starts_with("<rect class=\"cell\"") {
            let mut data = BTreeMap::new();
            let mut rest = line;
            while let Some(at) = rest.find(" data-") {
                let tail = &rest[at + 6..];
                let eq = tail.find("=\"").unwrap();
                let end = tail[eq + 2..].find('"').unwrap();
                data.insert(
                    tail[..eq].to_string(),
                    tail[eq + 2..eq + 2 + end].to_string(),
                );
                rest = &tail[eq + 2 + end..];
            }
            let fill_at = line.find(" fill=\"").unwrap() + 7;
            let num = |k: &str| data[k].parse::<i64>().unwrap();
            out.push(SvgCell {
                panel: num("panel"),
                row: num("row"),
                col: num("col"),
                fill: line[fill_at..fill_at + 7].to_string(),
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

/// Every title line of every panel fits the panel's width, and the lines say the whole title.
fn titles_fit(s: &Scene) {
    for p in &s.panels {
        let lines = p.title_lines();
        for l in &lines {
            assert!(
                l.chars().count() as f64 * CHAR_W <= (p.width() - 4) as f64,
                "{:?} is wider than its panel ({} units)",
                l,
                p.width()
            );
        }
        assert_eq!(lines.concat().replace(' ', ""), p.title.replace(' ', ""));
    }
}

/// A random flat layout: `(shape, stride)` of 1 to 4 leaves, grouped into modes as the text
/// says (`((a,b),c)` etc.); returns the layout and its leaves.
fn random_layout(rng: &mut Rng, max_leaf: i64) -> (Layout, Vec<(i64, i64)>, usize) {
    let leaves = rng.int(1, 4) as usize;
    let v: Vec<(i64, i64)> = (0..leaves)
        .map(|_| (rng.int(1, max_leaf), rng.int(0, 12)))
        .collect();
    // the first mode takes 1 or 2 leaves (when a mode follows), the rest one mode each
    let first = if leaves >= 3 && rng.int(0, 1) == 1 {
        2
    } else {
        1
    };
    let mode = |r: &[(i64, i64)]| -> (String, String) {
        if r.len() == 1 {
            (r[0].0.to_string(), r[0].1.to_string())
        } else {
            let s: Vec<String> = r.iter().map(|x| x.0.to_string()).collect();
            let d: Vec<String> = r.iter().map(|x| x.1.to_string()).collect();
            (format!("({})", s.join(",")), format!("({})", d.join(",")))
        }
    };
    let mut modes = vec![mode(&v[..first])];
    for k in first..leaves {
        modes.push(mode(&v[k..k + 1]));
    }
    let text = if modes.len() == 1 {
        format!("{}:{}", modes[0].0, modes[0].1)
    } else {
        let s: Vec<&str> = modes.iter().map(|m| m.0.as_str()).collect();
        let d: Vec<&str> = modes.iter().map(|m| m.1.as_str()).collect();
        format!("({}):({})", s.join(","), d.join(","))
    };
    (text.parse().unwrap(), v, first)
}

/// The value at colexicographic index `i`: the coordinate of `i` over the leaves, dotted with the
/// strides.
fn value(leaves: &[(i64, i64)], mut i: i64) -> i64 {
    let mut v = 0;
    for &(s, d) in leaves {
        v += (i % s) * d;
        i /= s;
    }
    v
}

#[test]
fn random_layouts_are_drawn_with_their_values() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..300 {
        let (l, leaves, first) = random_layout(&mut rng, 5);
        let s = pictures::layout(&l).unwrap();
        titles_fit(&s);
        let n: i64 = leaves.iter().map(|x| x.0).product();
        // rows: mode 0 (a rank-1 layout is one column, as print_latex draws it)
        let rows = if l.rank() == 1 {
            n
        } else {
            leaves[..first].iter().map(|x| x.0).product()
        };
        let got = cells(&s.svg());
        assert_eq!(got.len() as i64, n, "{l}");
        for c in &got {
            assert!(
                c.panel == 0 && c.row < rows && c.col < n / rows,
                "{l}: {c:?}"
            );
            let v = value(&leaves, c.row + rows * c.col);
            assert_eq!(c.label, [v.to_string()], "{l}: {c:?}");
            assert_eq!(c.fill, hex(grey(v)), "{l}: {c:?}");
        }
    }
}

#[test]
fn random_tv_layouts_show_every_owner() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut drawn = 0;
    for _ in 0..300 {
        // (thread, value) -> coordinate, thread and value modes of one leaf each
        let (t, v) = (rng.int(1, 8), rng.int(1, 4));
        let (dt, dv) = (rng.int(0, 6), rng.int(0, 9));
        let tv: Layout = format!("({t},{v}):({dt},{dv})").parse().unwrap();
        let cosize = (t - 1) * dt + (v - 1) * dv + 1;
        let rows = rng.int(1, 6);
        let cols = (cosize + rows - 1) / rows;
        let highlight = rng.int(0, t - 1);
        let s = pictures::tv_layout(&tv, rows, cols, Some(highlight)).unwrap();
        titles_fit(&s);
        // every owner of each cell in (thread, value) order: print_latex's loops, thread outer
        let mut owners = vec![Vec::new(); (rows * cols) as usize];
        for i in 0..t {
            for j in 0..v {
                owners[(i * dt + j * dv) as usize].push((i, j));
            }
        }
        for c in cells(&s.svg()) {
            let o = &owners[(c.row + rows * c.col) as usize];
            let mut threads: Vec<i64> = o.iter().map(|x| x.0).collect();
            threads.sort_unstable();
            threads.dedup();
            let listed: Vec<i64> = c.data["threads"]
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            assert_eq!(listed, threads, "{tv}: {c:?}");
            let outlined = c.data.get("mark").map(String::as_str) == Some("outline");
            assert_eq!(outlined, threads.contains(&highlight), "{tv}: {c:?}");
            if o.is_empty() {
                assert!(c.label.is_empty() && c.fill == "#ffffff", "{tv}: {c:?}");
                continue;
            }
            // the named owner: the highlighted thread when it owns the cell, else the first
            let (nt, nv) = *o.iter().find(|x| x.0 == highlight).unwrap_or(&o[0]);
            let more = |k: usize| {
                if k > 0 {
                    format!("+{k}")
                } else {
                    String::new()
                }
            };
            let same = o.iter().filter(|x| x.0 == nt).count() - 1;
            assert_eq!(
                c.label,
                [
                    format!("T{nt}{}", more(threads.len() - 1)),
                    format!("V{nv}{}", more(same))
                ],
                "{tv}: {c:?}"
            );
            assert_eq!(c.fill, hex(thread_colour(nt)), "{tv}: {c:?}");
            drawn += 1;
        }
    }
    assert!(drawn > 1000, "{drawn}");
}

/// The rest index of coordinate `x` of a mode of size `n` divided by the tile `k:d`: the divide
/// is `(k:d, complement(k:d, n))` (`1:d` taken as `1:1`) with `complement = (d, ⌈n/kd⌉):(1, kd)`, so `x = a·d + b + c·kd`
/// (`a < k`, `b < d`) has rest `b + d·c`; the rest has `d·⌈n/kd⌉` indices.
fn rest(x: i64, n: i64, k: i64, d: i64) -> (i64, i64) {
    // a tile of one element is the point 0 whatever its stride: `1:d` is `1:0`, and the
    // complement of it is the whole mode
    let d = if k == 1 { 1 } else { d };
    let (c, b) = (x / (k * d), x % d);
    (b + d * c, d * ((n + k * d - 1) / (k * d)))
}

#[test]
fn random_divides_colour_each_cell_by_its_tile() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let (mut drawn, mut partial) = (0, 0);
    for _ in 0..300 {
        let (m, n) = (rng.int(1, 12), rng.int(1, 12));
        let (dm, dn) = if rng.int(0, 1) == 0 { (1, m) } else { (n, 1) };
        let a: Layout = format!("({m},{n}):({dm},{dn})").parse().unwrap();
        let (k0, d0, k1, d1) = (rng.int(1, 6), rng.int(1, 3), rng.int(1, 6), rng.int(1, 3));
        // a by-mode tiler, or (one time in three) one layout tiling the whole layout as 1-D
        let whole = rng.int(0, 2) == 0;
        let t: Tiler = if whole {
            format!("{k0}:{d0}").parse().unwrap()
        } else {
            format!("<{k0}:{d0},{k1}:{d1}>").parse().unwrap()
        };
        let s = match pictures::divide(&a, &t) {
            Ok(s) => s,
            Err(e) => {
                // only where the algebra itself refuses the divide
                assert!(cute::zipped_divide(&a, &t).is_err(), "{a} / {t}: {e}");
                continue;
            }
        };
        titles_fit(&s);
        let mut sizes = BTreeMap::new();
        for c in cells(&s.svg()) {
            let tile = if whole {
                rest(c.row + m * c.col, m * n, k0, d0).0
            } else {
                let (r0, big0) = rest(c.row, m, k0, d0);
                let (r1, _) = rest(c.col, n, k1, d1);
                r0 + big0 * r1
            };
            assert_eq!(c.data["tile"], tile.to_string(), "{a} / {t}: {c:?}");
            assert_eq!(c.fill, hex(tile_colour(tile)), "{a} / {t}: {c:?}");
            assert_eq!(c.label, [(dm * c.row + dn * c.col).to_string()]);
            *sizes.entry(tile).or_insert(0) += 1;
        }
        let whole_tile = if whole { k0 } else { k0 * k1 };
        let is_partial = sizes.values().any(|&x| x < whole_tile);
        assert_eq!(
            s.panels[0].title.contains("partial tiles"),
            is_partial,
            "{a} / {t}: {}",
            s.panels[0].title
        );
        drawn += 1;
        partial += i32::from(is_partial);
    }
    // most random tilers divide something and many do not divide the shape
    assert!(
        drawn > 200 && partial > 50,
        "{drawn} drawn, {partial} partial"
    );
}
