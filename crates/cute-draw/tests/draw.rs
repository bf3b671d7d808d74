//! Tables, SVG and TikZ of layouts and thread-value layouts.

use cute::Layout;
use cute_draw::{svg, table, tikz, DrawError, Grid};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

/// CuTe's `print_layout` of `(4,3):(3,1)` (row-major 4×3; cosize 12, so cells 4 wide).
#[test]
fn print_layout_rank2() {
    let want = "\
(4,3):(3,1)
       0    1    2 
    +----+----+----+
 0  |  0 |  1 |  2 |
    +----+----+----+
 1  |  3 |  4 |  5 |
    +----+----+----+
 2  |  6 |  7 |  8 |
    +----+----+----+
 3  |  9 | 10 | 11 |
    +----+----+----+
";
    assert_eq!(table::print_layout(&l("(4,3):(3,1)")).unwrap(), want);
}

/// Every table of `data/print_layout_cpp.txt`, printed by CuTe C++'s own `print_layout`
/// (`data/print_layout.cpp`; hierarchical modes, zero and negative strides, 1×1, cosizes of one to
/// three digits), is ours byte for byte. A block starts at the line of the layout (the only one with
/// a `:`).
#[test]
fn print_layout_matches_cpp() {
    let data = include_str!("data/print_layout_cpp.txt");
    let mut blocks: Vec<String> = Vec::new();
    for line in data.lines() {
        if line.contains(':') {
            blocks.push(String::new());
        }
        let b = blocks
            .last_mut()
            .expect("the data starts with a layout line");
        b.push_str(line);
        b.push('\n');
    }
    assert_eq!(blocks.len(), 13, "layouts in the oracle data");
    for want in &blocks {
        let layout = want.lines().next().unwrap();
        assert_eq!(
            table::print_layout(&l(layout)).unwrap(),
            *want,
            "print_layout {layout}"
        );
    }
}

#[test]
fn print_layout_ranks_1_and_3() {
    let t = table::print_layout(&l("4:2")).unwrap();
    assert_eq!(t.lines().nth(3), Some(" 0  | 0 | 2 | 4 | 6 |"));
    assert_eq!(t.lines().count(), 5);
    let t = table::print_layout(&l("(2,2,2):(4,1,2)")).unwrap();
    assert_eq!(
        t.lines().nth(1),
        Some("(modes 1..2 folded into the columns, colexicographically)")
    );
    assert_eq!(t.lines().nth(4), Some(" 0  | 0 | 1 | 2 | 3 |"));
    assert_eq!(t.lines().nth(6), Some(" 1  | 4 | 5 | 6 | 7 |"));
}

#[test]
fn grid_refusals() {
    assert!(matches!(
        Grid::new(&l("(4,4):(1@0,1@1)")),
        Err(DrawError::NotIntegral(_))
    ));
    // the message names the operands and the condition; the caller names the operation
    let e = Grid::new(&l("(1024,1024):(1,1024)")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "(1024,1024):(1,1024): 1048576 cells exceed the limit of 262144"
    );
    let e = svg::tv_layout_svg(&l("(4,2):(2,1)"), 2, 2, None).unwrap_err();
    assert!(e.to_string().contains("outside the tile of 4 cells"), "{e}");
}

#[test]
fn svg_cells_and_colours() {
    let s = svg::layout_svg(&l("(8,8):(8,1)")).unwrap();
    assert_eq!(s.matches("class=\"cell\"").count(), 64);
    // cell (1, 2) holds offset 10: grey of 10 = black!20
    assert!(s.contains("data-row=\"1\" data-col=\"2\" x=\"120\" y=\"100\" width=\"40\" height=\"40\" fill=\"#cccccc\""), "{s}");
    // every thread of the mma.sync C layout owns 4 cells, each cell one owner
    let tv = l("((4,8),(2,2)):((32,1),(16,8))");
    let owners = svg::tv_owners(&tv, 16, 8).unwrap();
    assert!(owners.iter().all(|o| matches!(o, Some((_, _, false)))));
    for t in 0..32 {
        assert_eq!(owners.iter().filter(|o| o.unwrap().0 == t).count(), 4);
    }
}

#[test]
fn tikz_documents() {
    let t = tikz::layout_tikz(&l("(2,3):(3,1)")).unwrap();
    assert!(t.starts_with("% Layout: (2,3):(3,1)\n\\documentclass[convert]{standalone}"));
    assert_eq!(t.matches("\\node[fill=").count(), 6);
    assert!(t.ends_with("\\end{tikzpicture}\n\\end{document}\n"));
}

/// Regression: a negative offset lies in the word below the base (floor division): byte -2 of
/// 2-byte element -1 is in word -1, bank 31, not bank 0.
#[test]
fn negative_offsets_take_the_bank_below_the_base() {
    use cute_draw::pictures::{bank_of, banks};
    let want = [0, 31, 31, 30, 30, 29, 29, 28];
    for (r, &b) in want.iter().enumerate() {
        assert_eq!(bank_of(-(r as i64), 2), b, "offset -{r}");
    }
    assert_eq!(bank_of(-1, 4), 31);
    assert_eq!(bank_of(-1, 8), 30);
    assert_eq!(bank_of(-33, 4), 31);
    let c: cute::ComposedLayout = "Sw<0,0,0> o 0 o (8,1):(-1,0)".parse().unwrap();
    let s = banks(&c, 2).unwrap();
    for (r, &b) in want.iter().enumerate() {
        assert_eq!(
            s.panels[0].cell(r as i64, 0).label,
            vec![format!("-{r}").replace("-0", "0"), format!("b{b}")]
        );
    }
}

/// Regression: a cell of several owners shows the first in `(thread, value)` order, the one
/// CuTe's `print_latex` draws (its loops run thread outer, value inner, and it draws a cell once):
/// `(2,2):(1,1)` maps (0,1) and (1,0) to cell 1, and thread 0 comes first.
#[test]
fn the_owner_shown_is_the_first_in_thread_value_order() {
    let s = cute_draw::pictures::tv_layout(&l("(2,2):(1,1)"), 1, 3, None).unwrap();
    let labels: Vec<Vec<String>> = (0..3)
        .map(|c| s.panels[0].cell(0, c).label.clone())
        .collect();
    assert_eq!(labels, [["T0", "V0"], ["T0+1", "V1"], ["T1", "V1"]]);
    assert_eq!(
        s.panels[0].cell(0, 1).attrs[1],
        ("owners", "0:1 1:0".to_string())
    );
    // the highlighted thread is shown where it is an owner, with its first value
    let s = cute_draw::pictures::tv_layout(&l("(2,2):(1,1)"), 1, 3, Some(1)).unwrap();
    assert_eq!(s.panels[0].cell(0, 1).label, ["T1+1", "V0"]);
    // (t, (a, b, c)) -> 3t + 3c, value a + 4c: cell 3 is (1, 0..3) and (0, 4..7)
    let s = cute_draw::pictures::tv_layout(&l("(4,4,1,2):(3,0,32,3)"), 4, 4, None).unwrap();
    let p = &s.panels[0];
    assert_eq!(p.cell(0, 0).label, ["T0", "V0+3"]);
    assert_eq!(p.cell(3, 0).label, ["T0+1", "V4+3"]);
    assert_eq!(p.cell(2, 1).label, ["T1+1", "V4+3"]);
    assert_eq!(p.cell(1, 2).label, ["T2+1", "V4+3"]);
    assert_eq!(p.cell(0, 3).label, ["T3", "V4+3"]);
    assert_eq!(p.cell(1, 0).label, Vec::<String>::new());
}

/// Regression: a rank-1 TV layout is threads of one value each (print_latex appends `1:0`), as
/// `--thread` counts them: `8:1` over 2 x 4 puts thread i in cell i.
#[test]
fn a_rank_1_tv_layout_is_threads() {
    assert_eq!(cute_draw::pictures::tv_shape(&l("8:1")).unwrap(), (8, 1));
    let s = cute_draw::pictures::tv_layout(&l("8:1"), 2, 4, Some(5)).unwrap();
    let p = &s.panels[0];
    for r in 0..2 {
        for c in 0..4 {
            let t = r + 2 * c;
            assert_eq!(p.cell(r, c).label, [format!("T{t}"), "V0".to_string()]);
            let on = p.cell(r, c).mark == cute_draw::Mark::Outline;
            assert_eq!(on, t == 5, "({r}, {c})");
        }
    }
}

/// Regression: the cell limit bounds every panel of a picture together, before any is made: one
/// panel per instruction of an access pattern, and the panels of an MMA; the (thread, value)
/// pairs of a picture are bounded too.
#[test]
fn the_cell_limit_counts_every_panel() {
    use cute_draw::pictures::{mma, swizzle_conflicts};
    let smem: cute::ComposedLayout = "Sw<0,0,0> o 0 o (8,8):(8,1)".parse().unwrap();
    // 4096 instructions of the 64-cell tile: 262144 cells, the limit
    let p = swizzle_conflicts(&smem, &l("(32,4096):(1,0)"), 4, 1).unwrap();
    assert_eq!((p.scene.panels.len(), p.scene.cells()), (4096, 262144));
    let e = swizzle_conflicts(&smem, &l("(32,4097):(1,0)"), 4, 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "(8,8):(8,1) with (32,4097):(1,0), one panel per instruction: 4097 panels of 8 x 8 cells = 262208 cells, more than the limit of 262144 cells a picture draws"
    );
    // an MMA of panels 16 x 512, 512 x 16 and 512 x 512
    let e = mma(
        "m",
        &l("(1,8192):(0,1)"),
        &l("(1,8192):(0,1)"),
        &l("(1,262144):(0,1)"),
        (512, 512, 16),
        None,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "m: B, A and C: panels of 16 x 512 + 512 x 16 + 512 x 512 cells = 278528 cells, more than the limit of 262144 cells a picture draws"
    );
    let e = svg::tv_layout_svg(&l("(4,2):(2,1)"), 1, 262145, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "--tv 1 262145: the tile of 1 x 262145 = 262145 cells, more than the limit of 262144 cells a picture draws"
    );
    // pairs: 8388608 in all at most, the picture's layouts together
    let e = svg::tv_layout_svg(&l("(1,8388609):(0,0)"), 1, 1, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "(1,8388609):(0,0): 8388609 (thread, value) pairs, more than the limit of 8388608 pairs a picture visits"
    );
    let e = mma(
        "m",
        &l("(1,4194304):(0,0)"),
        &l("(1,4194305):(0,0)"),
        &l("(1,1):(0,0)"),
        (1, 1, 1),
        None,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "(1,4194305):(0,0): 4194305 (thread, value) pairs after 4194304 of the picture's other layouts, more than the limit of 8388608 pairs a picture visits"
    );
}

/// Regression: a PNG whose SVG would pass the renderer's element limit is refused up front
/// with the count, rather than failing in the renderer ("nodes limit reached").
#[test]
fn a_png_of_too_many_svg_elements_is_refused() {
    use cute_draw::scene::{Cell, Mark, Panel, Scene};
    let s = Scene::single(Panel::new("t", 640, 640, |_, _| Cell {
        fill: (255, 255, 255),
        label: vec!["x".to_string()],
        mark: Mark::Conflict,
        attrs: Vec::new(),
    }));
    assert!(!cute_draw::png::shows_labels(&s));
    assert_eq!(s.svg_nodes(false), 3 + 2 * (1 + 640 + 640) + 3 * 409600);
    let e = cute_draw::png::render(&s).unwrap_err();
    assert_eq!(
        e.to_string(),
        "render: a PNG of this picture parses 1231365 SVG elements, more than the 1000000 the renderer reads: draw it as SVG, or draw fewer cells"
    );
}

/// Regression: a divide by a tiler far larger than the layout colours the layout's cells without
/// walking the padding: `<4294967296,2>` on (4,4) is one row tile and two column tiles of 8 cells.
#[test]
fn a_huge_tiler_divides_by_the_cells_it_reaches() {
    let t: cute::Tiler = "<4294967296,2>".parse().unwrap();
    let d = cute_draw::pictures::divide_tiles(&l("(4,4):(1,4)"), &t).unwrap();
    let want: Vec<i64> = (0..16).map(|i| (i / 4) / 2).collect();
    assert_eq!(d.tile, want);
    assert_eq!((d.tile_size, d.counts.clone()), (8589934592, vec![8, 8]));
    // a single tiler as large: every cell in tile 0
    let t: cute::Tiler = "4294967296".parse().unwrap();
    let d = cute_draw::pictures::divide_tiles(&l("(4,4):(1,4)"), &t).unwrap();
    assert_eq!((d.tile, d.counts), (vec![0; 16], vec![16]));
}
