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
    let e = Grid::new(&l("(1024,1024):(1,1024)")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "draw (1024,1024):(1,1024): 1048576 cells exceed the limit of 262144"
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
