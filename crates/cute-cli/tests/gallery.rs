//! The paper's figures (`cute paper --gallery`): every figure's cells recomputed here from the
//! definitions the paper gives (formulas written out per figure, not the drawing code), and the
//! files the command writes.

use cute_cli::paper::gallery::{figures, Figure};
use cute_draw::pictures::{thread_colour, tile_colour};
use cute_draw::scene::{Mark, Panel};

fn fig(n: u32) -> Figure {
    figures()
        .unwrap()
        .into_iter()
        .find(|f| f.number == n)
        .unwrap()
}

fn label(p: &Panel, r: i64, c: i64) -> String {
    p.cell(r, c).label.join(" ")
}

fn outlined(p: &Panel) -> Vec<(i64, i64)> {
    let mut v = Vec::new();
    for r in 0..p.rows {
        for c in 0..p.cols {
            if p.cell(r, c).mark == Mark::Outline {
                v.push((r, c));
            }
        }
    }
    v
}

/// Every cell of `p` has label `want(r, c)`.
fn labels_are(p: &Panel, want: impl Fn(i64, i64) -> String) {
    for r in 0..p.rows {
        for c in 0..p.cols {
            assert_eq!(label(p, r, c), want(r, c), "{}: cell ({r},{c})", p.title);
        }
    }
}

#[test]
fn the_gallery_has_every_figure_of_the_translation() {
    let numbers: Vec<u32> = figures().unwrap().iter().map(|f| f.number).collect();
    assert_eq!(numbers, (1..=12).collect::<Vec<_>>());
    for f in figures().unwrap() {
        assert!(!f.caption_zh.is_empty() && !f.caption_en.is_empty() && !f.note.is_empty());
        assert!(f.scene.cells() > 0);
    }
}

#[test]
fn fig1_folding() {
    let f = fig(1);
    let p = &f.scene.panels;
    labels_are(&p[0], |_, c| c.to_string());
    // (2,2,2):(2,1,4), modes 1 and 2 in the columns: column c = c1 + 2·c2
    labels_are(&p[1], |r, c| (2 * r + (c % 2) + 4 * (c / 2)).to_string());
    // mode 2 into mode 0: a 4x2 matrix, row r = r0 + 2 r2: the flat (4,2):(2,1)
    assert_eq!((p[2].rows, p[2].cols), (4, 2));
    labels_are(&p[2], |r, c| (2 * r + c).to_string());
    assert!(p[2].title.contains("flat (4,2):(2,1)"), "{}", p[2].title);
    // mode 2 into mode 1: a 2x4 matrix, column c = c1 + 2 c2: no integer stride walks the
    // columns (0, 1, 4, 5 in row 0), so no flat representation
    assert_eq!((p[3].rows, p[3].cols), (2, 4));
    labels_are(&p[3], |r, c| (2 * r + (c % 2) + 4 * (c / 2)).to_string());
    assert!(p[3].title.contains("(2,(2,2)):(2,(1,4))"), "{}", p[3].title);
    assert!(p[3].title.contains("no flat form"), "{}", p[3].title);
    // the two folds are different matrices
    assert_ne!((p[2].rows, p[2].cols), (p[3].rows, p[3].cols));
}

#[test]
fn fig2_coordinates() {
    let f = fig(2);
    for p in &f.scene.panels {
        let shape: cute::IntTuple = p.title.strip_prefix("S = ").unwrap().parse().unwrap();
        let natural = p.rows - 1;
        for i in 0..p.cols {
            assert_eq!(label(p, 0, i), i.to_string());
            // the natural coordinate maps back to i (equation (2), colexicographic)
            let crd: cute::IntTuple = label(p, natural, i).parse().unwrap();
            assert_eq!(
                cute::crd2idx_compact(&crd, &shape).unwrap(),
                i,
                "{}",
                p.title
            );
        }
    }
    // equation (1) for the flat shape (4,2): (i mod 4, i / 4)
    let p = &f.scene.panels[1];
    for i in 0..8 {
        assert_eq!(label(p, 2, i), format!("({},{})", i % 4, i / 4));
    }
    // (2,(2,2)): natural coordinates nest like the shape
    assert_eq!(label(&f.scene.panels[2], 2, 5), "(1,(0,1))");
}

#[test]
fn fig3_layouts_compatible_with_4x8() {
    let f = fig(3);
    let p = &f.scene.panels;
    labels_are(&p[0], |r, c| (r + 4 * c).to_string());
    labels_are(&p[1], |r, c| (8 * r + c).to_string());
    labels_are(&p[2], |r, c| (r + 5 * c).to_string());
    labels_are(&p[3], |r, c| (4 * r + (c % 4) + 16 * (c / 4)).to_string());
    labels_are(&p[4], |r, c| {
        (r % 2 + 8 * (r / 2) + 2 * (c % 4) + 16 * (c / 4)).to_string()
    });
    labels_are(&p[5], |r, c| ((r / 2) + 2 * (c / 2)).to_string());
    labels_are(&p[6], |r, c| (2 * (r / 2) + 4 * (c / 2)).to_string());
    // the text's evaluation example: L(22) = 26 with 22 = 2 + 4·5
    assert_eq!(label(&p[4], 2, 5), "26");
}

/// Carry-less (F2 polynomial) product.
fn clmul(a: i64, b: i64) -> i64 {
    (0..20)
        .filter(|k| a >> k & 1 == 1)
        .fold(0, |acc, k| acc ^ (b << k))
}

#[test]
fn fig4_coordinate_and_f2_layouts() {
    let f = fig(4);
    let p = &f.scene.panels;
    labels_are(&p[0], |r, c| format!("({r},{c})"));
    // (4,(4,2)):(1@1,(1@0,6@1)): (i,(j0,j1)) -> (j0, i + 6·j1)
    labels_are(&p[1], |r, c| format!("({},{})", c % 4, r + 6 * (c / 4)));
    // (4,(4,3)):(F1,(F5,F16)): i·1 xor j0·5 xor j1·16 over F2
    labels_are(&p[2], |r, c| {
        (r ^ clmul(c % 4, 5) ^ clmul(c / 4, 16)).to_string()
    });
    // coloured by value: a coordinate (a, b) by its index a + A·b in the box of the values
    // (A = 4 for both), an F2 value by CuTe's grey of it; not by the cell's position
    for r in 0..4 {
        for c in 0..8 {
            assert_eq!(p[0].cell(r, c).fill, tile_colour(r + 4 * c));
            let (a, b) = (c % 4, r + 6 * (c / 4));
            assert_eq!(p[1].cell(r, c).fill, tile_colour(a + 4 * b), "({r},{c})");
        }
        for c in 0..12 {
            let v = r ^ clmul(c % 4, 5) ^ clmul(c / 4, 16);
            assert_eq!(p[2].cell(r, c).fill, cute_draw::pictures::grey(v));
        }
    }
    // equal values, equal colours: in panel 1 the value (1,6) appears once, and every cell
    // of value (a, b) with the same index shares its colour
    assert_ne!(p[1].cell(0, 1).fill, p[1].cell(1, 0).fill);
}

#[test]
fn fig5_slices() {
    let f = fig(5);
    let p = &f.scene.panels;
    // column-major 6×12, rows r = r0 + 3·r1, columns c = c0 + 4·c1
    for q in p {
        labels_are(q, |r, c| (r + 6 * c).to_string());
    }
    let want = |sel: &dyn Fn(i64, i64) -> bool| -> Vec<(i64, i64)> {
        let mut v = Vec::new();
        for r in 0..6 {
            for c in 0..12 {
                if sel(r, c) {
                    v.push((r, c));
                }
            }
        }
        v
    };
    assert_eq!(outlined(&p[0]), want(&|r, _| r == 2));
    assert_eq!(outlined(&p[1]), want(&|_, c| c == 5));
    assert_eq!(outlined(&p[2]), want(&|r, c| r / 3 == 1 && c / 4 == 2));
    assert_eq!(outlined(&p[3]), want(&|r, c| r % 3 == 1 && c % 4 == 2));
    assert!(p[0].title.contains("= {2} ∘ "), "{}", p[0].title);
}

#[test]
fn fig6_fp64_c_partition() {
    let f = fig(6);
    let p = &f.scene.panels[0];
    // ((4,8),2):((16,1),8): (t0 + 4·t1, v) -> t1 + 8·(2·t0 + v), so cell (m, n) is thread
    // n/2 + 4m, value n mod 2
    labels_are(p, |m, n| format!("T{} V{}", n / 2 + 4 * m, n % 2));
    for m in 0..8 {
        for n in 0..8 {
            assert_eq!(p.cell(m, n).fill, thread_colour(n / 2 + 4 * m));
        }
    }
}

#[test]
fn fig7_tilers() {
    let f = fig(7);
    let p = &f.scene.panels;
    let rows_cols: [(Vec<i64>, Vec<i64>); 3] = [
        ((0..4).collect(), (0..8).collect()),
        (
            (0..4).map(|i| 2 * i).collect(),
            (0..8).map(|j| 2 * j).collect(),
        ),
        (vec![0, 1, 4, 5], vec![0, 1, 2, 3, 8, 9, 10, 11]),
    ];
    for (k, (rs, cs)) in rows_cols.iter().enumerate() {
        let whole = &p[2 * k];
        labels_are(whole, |r, c| (20 * r + c).to_string());
        let mut want = Vec::new();
        for r in 0..8 {
            for c in 0..16 {
                if rs.contains(&r) && cs.contains(&c) {
                    want.push((r, c));
                }
            }
        }
        assert_eq!(outlined(whole), want, "{}", whole.title);
        // the sublayout: L(rows[i], cols[j])
        let sub = &p[2 * k + 1];
        assert_eq!((sub.rows, sub.cols), (4, 8));
        labels_are(sub, |i, j| {
            (20 * rs[i as usize] + cs[j as usize]).to_string()
        });
    }
}

#[test]
fn fig8_common_vectors() {
    let f = fig(8);
    let p = &f.scene.panels;
    // left pair: offsets {0,1} agree (coordinates 0 and 1); right: coordinates {0,2,8,10}
    assert_eq!(outlined(&p[0]), vec![(0, 0), (1, 0)]);
    assert_eq!(outlined(&p[1]), vec![(0, 0), (1, 0)]);
    assert!(p[0].title.ends_with("(common vector 2)"));
    let right = vec![(0, 0), (0, 2), (2, 0), (2, 2)];
    assert_eq!(outlined(&p[2]), right);
    assert_eq!(outlined(&p[3]), right);
    assert!(p[2].title.ends_with("(common vector 4)"));
    // and there source and destination hold the offsets 0, 1, 2, 3
    for q in &p[2..4] {
        let got: Vec<String> = right.iter().map(|&(r, c)| label(q, r, c)).collect();
        assert_eq!(got, ["0", "2", "1", "3"]);
    }
}

#[test]
fn fig9_tmem() {
    let f = fig(9);
    let p = &f.scene.panels;
    // 32x32b.x4: thread t reads lane t, value v column v
    assert_eq!((p[0].rows, p[0].cols), (32, 4));
    labels_are(&p[0], |r, c| format!("T{r} V{c}"));
    // 16x256b: thread t0 + 4·t1 holds columns 2·t0, 2·t0+1 of lanes t1 and t1 + 8
    assert_eq!((p[1].rows, p[1].cols), (16, 8));
    for lane in 0..16 {
        for col in 0..8 {
            let t = col / 2 + 4 * (lane % 8);
            assert!(label(&p[1], lane, col).starts_with(&format!("T{t} ")));
        }
    }
}

#[test]
fn fig10_and_fig11_products() {
    // A(i,j) = 4i + j (row-major 3×4), B(x,y) = x + 2y (column-major 2×5); the product places the
    // copy of A for tiling coordinate (x,y) at offset 12·B(x,y)
    let a = |i: i64, j: i64| 4 * i + j;
    let b = |x: i64, y: i64| x + 2 * y;
    let blocked = fig(10);
    let p = &blocked.scene.panels[2];
    assert_eq!((p.rows, p.cols), (6, 20));
    labels_are(p, |r, c| {
        (a(r % 3, c % 4) + 12 * b(r / 3, c / 4)).to_string()
    });
    for r in 0..6 {
        for c in 0..20 {
            assert_eq!(p.cell(r, c).fill, tile_colour(r / 3 + 2 * (c / 4)));
        }
    }
    let raked = fig(11);
    let p = &raked.scene.panels[2];
    assert_eq!((p.rows, p.cols), (6, 20));
    labels_are(p, |r, c| {
        (a(r / 2, c / 5) + 12 * b(r % 2, c % 5)).to_string()
    });
    for r in 0..6 {
        for c in 0..20 {
            assert_eq!(p.cell(r, c).fill, tile_colour(r % 2 + 2 * (c % 5)));
        }
    }
}

#[test]
fn fig12_divide() {
    let f = fig(12);
    let p = &f.scene.panels;
    labels_are(&p[0], |m, n| (20 * m + n).to_string());
    for m in 0..8 {
        for n in 0..16 {
            // <4:1,8:2>: tile (m/4, n mod 2)
            assert_eq!(p[0].cell(m, n).fill, tile_colour(m / 4 + 2 * (n % 2)));
        }
    }
    // zipped_divide = ((4,8),(2,2)):((20,2),(80,1)) (S-LD-11) as a 2x2 grid of 4x8 tiles
    assert!(
        p[1].title.contains("((4,8),(2,2)):((20,2),(80,1))"),
        "{}",
        p[1].title
    );
    assert_eq!(p.len(), 5);
    for r0 in 0..2 {
        for r1 in 0..2 {
            let q = &p[1 + (2 * r0 + r1) as usize];
            assert_eq!((q.rows, q.cols), (4, 8));
            assert!(
                q.title.ends_with(&format!("tile ({r0},{r1})")),
                "{}",
                q.title
            );
            labels_are(q, |i, j| (20 * i + 2 * j + 80 * r0 + r1).to_string());
            // placed at block row r0, block column r1
            assert_eq!(q.x, p[1].x + r1 * (p[1].width() + cute_draw::scene::GAP));
            assert_eq!(q.y, p[1].y + r0 * (p[1].height() + cute_draw::scene::GAP));
            // each value sits in the same tile on both sides
            for i in 0..4 {
                for j in 0..8 {
                    let v: i64 = label(q, i, j).parse().unwrap();
                    assert_eq!(q.cell(i, j).fill, p[0].cell(v / 20, v % 20).fill);
                    assert_eq!(q.cell(i, j).fill, tile_colour(r0 + 2 * r1));
                }
            }
        }
    }
}

#[test]
fn captions_are_plain_text_and_titles_fit() {
    for f in figures().unwrap() {
        for c in [f.caption_zh, f.caption_en, f.note] {
            assert!(!c.contains('\\'), "Figure {}: {c}", f.number);
        }
        let ps = &f.scene.panels;
        for p in ps {
            for l in p.title_lines() {
                assert!(
                    l.chars().count() as f64 * cute_draw::scene::CHAR_W <= (p.width() - 4) as f64,
                    "Figure {}: {l:?} is wider than its panel",
                    f.number
                );
            }
        }
        // no two panels overlap (a title runs into no neighbour)
        for (i, a) in ps.iter().enumerate() {
            for b in &ps[i + 1..] {
                let apart = a.x + a.width() <= b.x
                    || b.x + b.width() <= a.x
                    || a.y + a.height() <= b.y
                    || b.y + b.height() <= a.y;
                assert!(
                    apart,
                    "Figure {}: {:?} and {:?} overlap",
                    f.number, a.title, b.title
                );
            }
        }
    }
}

#[test]
fn cute_paper_gallery_writes_svg_png_and_index() {
    let dir = std::env::temp_dir().join(format!("cute-gallery-{}", std::process::id()));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(["paper", "--gallery"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stderr.is_empty());
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    for f in figures().unwrap() {
        let stem = format!("fig{:02}", f.number);
        let svg = std::fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
        assert_eq!(svg, f.scene.svg());
        let png = std::fs::read(dir.join(format!("{stem}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert!(index.contains(&format!("<img src=\"{stem}.svg\"")));
        assert!(index.contains(&format!("<b>Figure {}.</b>", f.number)));
    }
    // the stated count is right
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.ends_with("index.html: 12 figures\n"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
