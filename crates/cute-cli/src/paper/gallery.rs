//! `cute paper --gallery DIR`: the paper's figures reconstructed from the algebra.
//!
//! The translation keeps only the figures' captions and the text around them; every figure here
//! is computed with the core crate from the layouts the text names (Figures 3, 4, 6, 10, 11, 12,
//! and the tables that list the layouts of Figures 3 and 4), or, where the text gives only the
//! facts a figure shows, from layouts chosen to show exactly those facts (each [`Figure::note`]
//! says which). Each figure is written as SVG and PNG, and `index.html` shows each next to its
//! caption. The tests (`tests/gallery.rs`) recompute every figure's cells from the algebra.

use crate::draw::{divide_tiles, product_tile, TileOp};
use cute::{IntTuple, Layout, PartialCoord, Tiler};
use cute_draw::pictures::{self, grey, thread_colour, tile_colour};
use cute_draw::scene::{Cell, Mark, Panel, Scene, GAP};
use std::fmt::Write as _;
use std::path::Path;

/// One reconstructed figure.
#[derive(Clone, Debug)]
pub struct Figure {
    /// The paper's figure number.
    pub number: u32,
    /// The caption as the translation gives it, its TeX math written as plain text (`\(4 \times
    /// 8\)` as `4×8`).
    pub caption_zh: &'static str,
    /// The caption in English.
    pub caption_en: &'static str,
    /// How the figure was reconstructed (what the text names, what was chosen).
    pub note: &'static str,
    /// The picture.
    pub scene: Scene,
}

type R<T> = Result<T, String>;

fn e(err: impl std::fmt::Display) -> String {
    format!("error: paper --gallery: {err}")
}

fn lay(s: &str) -> R<Layout> {
    s.parse().map_err(e)
}

/// Places panels left to right, `per_row` to a row, [`GAP`] apart.
pub fn arrange(panels: Vec<Panel>, per_row: usize) -> Vec<Panel> {
    let mut out = Vec::with_capacity(panels.len());
    let (mut x, mut y, mut row_h) = (0, 0, 0);
    for (k, p) in panels.into_iter().enumerate() {
        if k > 0 && k % per_row.max(1) == 0 {
            x = 0;
            y += row_h + GAP;
            row_h = 0;
        }
        row_h = row_h.max(p.height());
        let w = p.width();
        out.push(p.at(x, y));
        x += w + GAP;
    }
    out
}

fn layout_panel(title: &str, l: &Layout) -> R<Panel> {
    let s = pictures::layout(l).map_err(e)?;
    let mut p = s
        .panels
        .into_iter()
        .next()
        .ok_or_else(|| e("empty picture"))?;
    p.title = title.to_string();
    Ok(p)
}

fn scene(title: &str, panels: Vec<Panel>, per_row: usize) -> Scene {
    Scene {
        title: title.to_string(),
        panels: arrange(panels, per_row),
    }
}

/// Figure 1's rank-3 tensor and its two folds.
pub const FIG1_TENSOR: &str = "(2,2,2):(2,1,4)";
/// Mode 2 folded into mode 0: a 4×2 matrix, whose flat representation is (4,2):(2,1).
pub const FIG1_FOLD_4X2: &str = "((2,2),2):((2,4),1)";
/// Mode 2 folded into mode 1: a 2×4 matrix, which has no flat representation.
pub const FIG1_FOLD_2X4: &str = "(2,(2,2)):(2,(1,4))";

/// Figure 1: eight elements seen as a rank-3 `2×2×2` tensor and folded into a `4×2` and a `2×4`
/// matrix.
fn fig1() -> R<Figure> {
    // the array as one row (the pictures draw a rank-1 layout as a column, as print_latex)
    let flat = lay("(1,8):(0,1)")?;
    let rank3 = lay(FIG1_TENSOR)?;
    let tall = lay(FIG1_FOLD_4X2)?;
    let wide = lay(FIG1_FOLD_2X4)?;
    let profile: Tiler = "<1,1>".parse().map_err(e)?;
    // folding is grouping modes; the flat representation is the fold coalesced mode by mode
    let tall_flat = cute::coalesce_profile(&tall, &profile).map_err(e)?;
    let wide_flat = cute::coalesce_profile(&wide, &profile).map_err(e)?;
    let flat_note = |l: &Layout| -> String {
        if l.shape().flatten().rank() == l.rank() {
            format!("flat {l}")
        } else {
            format!("no flat form: by mode it stays {l}")
        }
    };
    let panels = vec![
        layout_panel("the array: 8:1", &flat)?,
        layout_panel(
            &format!("rank 3: {rank3}, modes 1 and 2 in the columns"),
            &rank3,
        )?,
        // cells wide enough for the titles to break between their words
        layout_panel(
            &format!(
                "mode 2 into mode 0 (4x2): {tall}, {}",
                flat_note(&tall_flat)
            ),
            &tall,
        )?
        .with_cell_width(80),
        layout_panel(
            &format!(
                "mode 2 into mode 1 (2x4): {wide}, {}",
                flat_note(&wide_flat)
            ),
            &wide,
        )?
        .with_cell_width(60),
    ];
    Ok(Figure {
        number: 1,
        caption_zh: "一个包含 8 个元素的物理数组，被视为 rank-3 张量并折叠为两个矩阵。",
        caption_en: "A physical array of 8 elements seen as a rank-3 tensor and folded into two matrices: mode 2 into mode 0 gives a 4×2 matrix with the flat representation (4,2):(2,1); mode 2 into mode 1 gives a 2×4 matrix that no flat representation describes.",
        note: "The 2×2×2 tensor's strides (2,1,4) are inferred from the folded result the text states, (4,2):(2,1). Both folds group modes: ((2,2),2):((2,4),1) (4×2) and (2,(2,2)):(2,(1,4)) (2×4); the flat forms are the folds coalesced by mode, which merges the 4×2's row mode to (4,2):(2,1) and cannot merge the 2×4's column mode (strides 1 and 4 for extents 2). The rank-3 tensor is drawn with modes 1 and 2 folded into the columns.",
        scene: scene("Figure 1", panels, 2),
    })
}

/// The shapes of Figure 2.
pub const FIG2_SHAPES: [&str; 4] = ["8", "(4,2)", "(2,(2,2))", "((2,2),2)"];

/// Figure 2: the integer, 2-D and natural coordinates of shapes of 8 elements.
fn fig2() -> R<Figure> {
    let mut panels = Vec::new();
    for s in FIG2_SHAPES {
        let shape: IntTuple = s.parse().map_err(e)?;
        let n = shape.size().map_err(e)?;
        let s0 = if shape.is_int() {
            n
        } else {
            shape.get(0).map_err(e)?.size().map_err(e)?
        };
        let mut rows: Vec<(String, Vec<String>)> =
            vec![("1-D".into(), (0..n).map(|i| i.to_string()).collect())];
        if !shape.is_int() {
            rows.push((
                "2-D".into(),
                (0..n).map(|i| format!("({},{})", i % s0, i / s0)).collect(),
            ));
        }
        let mut nat = Vec::new();
        for i in 0..n {
            nat.push(
                cute::idx2crd(&IntTuple::int(i), &shape)
                    .map_err(e)?
                    .to_string(),
            );
        }
        rows.push(("natural".into(), nat));
        let mut p = Panel::new(format!("S = {s}"), rows.len() as i64, n, |r, c| {
            Cell::text(grey(c), rows[r as usize].1[c as usize].clone())
        })
        .with_cell_width(80);
        p.row_labels = rows.iter().map(|r| r.0.clone()).collect();
        panels.push(p);
    }
    Ok(Figure {
        number: 2,
        caption_zh: "不同形状 S 的坐标列表集合示例。",
        caption_en: "Coordinate lists of shapes S: the integer (1-D), 2-D and natural coordinates of each index, colexicographic.",
        note: "The shapes are not in the text; four shapes of 8 elements were chosen. The natural coordinates are idx2crd of the core crate, equation (1).",
        scene: scene("Figure 2", panels, 1),
    })
}

/// The layouts of Figure 3 (Tables 5 and 6 list them), all compatible with the shape (4,8).
pub const FIG3_LAYOUTS: [&str; 7] = [
    "(4,8):(1,4)",
    "(4,8):(8,1)",
    "(4,8):(1,5)",
    "(4,(4,2)):(4,(1,16))",
    "((2,2),(4,2)):((1,8),(2,16))",
    "((2,2),(2,4)):((0,1),(0,2))",
    "((2,2),(2,4)):((0,2),(0,4))",
];

fn fig3() -> R<Figure> {
    let mut panels = Vec::new();
    for s in FIG3_LAYOUTS {
        panels.push(layout_panel(s, &lay(s)?)?);
    }
    Ok(Figure {
        number: 3,
        caption_zh: "与形状 (4,8) 兼容的布局示例，绘制为 4×8 矩阵。这些布局使用整数步长与层次化形状来定义对数据张量有用的函数，浅色线条表示布局偏移的一般顺序。",
        caption_en: "Layouts compatible with the shape (4,8), drawn as 4×8 matrices: integer strides and hierarchical shapes define functions useful for data tensors.",
        note: "The layouts are those of Tables 5 and 6 that are compatible with (4,8) (the text's evaluation example ((2,2),(4,2)):((1,8),(2,16)) among them); each cell holds the offset, filled with CuTe's grey of it. The light lines of the original (the order of the offsets) are not drawn.",
        scene: scene("Figure 3", panels, 2),
    })
}

/// A value of a Figure 4 layout as the figure shows it: a coordinate of `Z^2` as `(a,b)` (the
/// algebra writes `k@i` for a single term and `0` for zero), an F2 value as its integer.
///
/// ```
/// use cute_cli::paper::gallery::value_label;
/// assert_eq!(value_label("3@1"), "(0,3)");
/// assert_eq!(value_label("2@0"), "(2,0)");
/// assert_eq!(value_label("(1,6)"), "(1,6)");
/// assert_eq!(value_label("F21"), "21");
/// ```
pub fn value_label(v: &str) -> String {
    if let Some(bits) = v.strip_prefix('F') {
        return bits.to_string();
    }
    if v == "0" {
        return "(0,0)".to_string();
    }
    match v.split_once('@') {
        Some((k, "0")) => format!("({k},0)"),
        Some((k, "1")) => format!("(0,{k})"),
        _ => v.to_string(),
    }
}

/// The layouts of Figure 4 (Tables 5 and 6 list them): coordinate and F2 (swizzle) strides.
pub const FIG4_LAYOUTS: [&str; 3] = [
    "(4,8):(1@0,1@1)",
    "(4,(4,2)):(1@1,(1@0,6@1))",
    "(4,(4,3)):(F1,(F5,F16))",
];

fn fig4() -> R<Figure> {
    let mut panels = Vec::new();
    for s in FIG4_LAYOUTS {
        // drawn as `cute draw` draws them: each cell its value, coloured by the value
        panels.push(layout_panel(s, &lay(s)?)?);
    }
    Ok(Figure {
        number: 4,
        caption_zh: "用二维坐标绘制的布局示例。这些布局使用来自整数半模的步长来定义可用于跟踪坐标与在非仿射模式下“swizzling”偏移的函数。",
        caption_en: "Layouts drawn with 2-D coordinates: strides from integer semimodules define functions that track coordinates and swizzle offsets in non-affine patterns.",
        note: "The layouts are those of Tables 5 and 6 with coordinate strides (1@0, 1@1) and F2 strides (F<k>: XOR); each cell holds the layout's value and is coloured by it: a coordinate by its index in the box of the values, an F2 value (an offset) by CuTe's grey of it.",
        scene: scene("Figure 4", panels, 1),
    })
}

/// The data layout and slices of Figure 5.
pub const FIG5_LAYOUT: &str = "((3,2),(4,3)):((1,3),(6,24))";
/// The slices of Figure 5 (partial coordinates of [`FIG5_LAYOUT`]).
pub const FIG5_SLICES: [&str; 4] = ["(2,_)", "(_,5)", "((_,1),(_,2))", "((1,_),(2,_))"];

fn fig5() -> R<Figure> {
    let l = lay(FIG5_LAYOUT)?;
    let mut panels = Vec::new();
    for c in FIG5_SLICES {
        let pc: PartialCoord = c.parse().map_err(e)?;
        let s = pictures::slice(&l, &pc).map_err(e)?;
        let mut p = s
            .panels
            .into_iter()
            .next()
            .ok_or_else(|| e("empty picture"))?;
        let (sl, off) = cute::slice_and_offset(&l, &pc).map_err(e)?;
        p.title = format!("A{c} = {{{off}}} ∘ {sl}");
        panels.push(p);
    }
    Ok(Figure {
        number: 5,
        caption_zh: "一个 6×12 张量沿逻辑子边界切片以提取子张量。",
        caption_en: "A 6×12 tensor sliced along logical sub-boundaries to extract sub-tensors.",
        note: "The tensor's layout is only in the figure; a column-major 6×12 layout with the hierarchical shape ((3,2),(4,3)) was chosen, and four slices: a row, a column, a sub-matrix and a strided sub-tensor (a hierarchical coordinate). Each title gives the slice as {offset} ∘ layout, as the text writes A(0,0:2:12) = {0} ∘ (3,2):(15,100).",
        scene: scene("Figure 5", panels, 2),
    })
}

/// Figure 6's thread-value layout.
pub const FIG6_TV: &str = "((4,8),2):((16,1),8)";

fn fig6() -> R<Figure> {
    let tv = lay(FIG6_TV)?;
    let s = pictures::tv_layout(&tv, 8, 8, None).map_err(e)?;
    Ok(Figure {
        number: 6,
        caption_zh: "Ampere FP64 Tensor Core 所需的 8×8 C 矩阵的线程-值分区。",
        caption_en: "The thread-value partition of the 8×8 C matrix of the Ampere FP64 tensor core.",
        note: "ThrValLayoutC = ((4,8),2):((16,1),8) as the text gives it; as in the paper, the inverse is drawn: each cell of the 8×8 matrix holds the (thread, value) that owns it.",
        scene: s,
    })
}

/// Figure 7's layout and tilers.
pub const FIG7_LAYOUT: &str = "(8,16):(20,1)";
/// The tilers of Figure 7.
pub const FIG7_TILERS: [&str; 3] = ["<4:1,8:1>", "<4:2,8:2>", "<(2,2):(1,4),(4,2):(1,8)>"];

/// The cells of `l` (indices `m + rows·n`) that `l ∘ t` takes, in the order of `l ∘ t`'s domain:
/// the tiler applied to `l`'s compact column-major index layout (a bijection onto the cells).
pub fn tiler_cells(l: &Layout, t: &Tiler) -> Result<Vec<i64>, cute::Error> {
    let index = cute::compact_col_major(&l.shape())?;
    let r = cute::composition_tiler(&index, t)?;
    (0..r.size()).map(|k| r.eval(k)).collect()
}

fn fig7() -> R<Figure> {
    let l = lay(FIG7_LAYOUT)?;
    let g = cute_draw::Grid::latex(&l).map_err(e)?;
    let mut panels = Vec::new();
    for ts in FIG7_TILERS {
        let t: Tiler = ts.parse().map_err(e)?;
        let cells = tiler_cells(&l, &t).map_err(e)?;
        let r = cute::composition_tiler(&l, &t).map_err(e)?;
        let mut pos = vec![None; (g.rows * g.cols) as usize];
        for (k, &c) in cells.iter().enumerate() {
            pos[c as usize] = Some(k);
        }
        panels.push(Panel::new(
            format!("L ∘ {ts} = {r}"),
            g.rows,
            g.cols,
            |m, n| {
                let v = g.at(m, n);
                match pos[(m + g.rows * n) as usize] {
                    Some(_) => Cell {
                        fill: tile_colour(1),
                        label: vec![v.to_string()],
                        mark: Mark::Outline,
                        attrs: Vec::new(),
                    },
                    None => Cell::text(grey(v), v.to_string()),
                }
            },
        ));
        panels.push(layout_panel(&format!("the sublayout {r}"), &r)?);
    }
    Ok(Figure {
        number: 7,
        caption_zh: "通过 L ∘ T 从任意 8×16 布局 L 中提取 4×8 子布局的 Tiler 示例。",
        caption_en: "Tilers extracting a 4×8 sublayout from an arbitrary 8×16 layout L by L ∘ T.",
        note: "L = (8,16):(20,1) (the layout of the worked examples S-TILE and S-LD); the tiler <4:1,8:1> is the text's, the other two were chosen (every other row and column; a hierarchical one). Left: L with the cells the tiler takes outlined; right: the 4×8 sublayout L ∘ T.",
        scene: scene("Figure 7", panels, 2),
    })
}

/// Figure 8's layout pairs (source, destination).
pub const FIG8_PAIRS: [(&str, &str); 2] = [
    ("(4,4):(1,4)", "((2,2),4):((1,8),2)"),
    ("((2,2),(2,2)):((4,1),(8,2))", "((2,2),(2,2)):((8,1),(4,2))"),
];

/// The coordinate indices where source and destination agree on offsets `0..K`, `K` the maximal
/// common vector: `max_common_layout(src, dst)` evaluated on its domain.
pub fn common_cells(src: &Layout, dst: &Layout) -> Result<Vec<i64>, cute::Error> {
    let r = cute::max_common_layout(src, dst)?;
    (0..r.size()).map(|k| r.eval(k)).collect()
}

fn fig8() -> R<Figure> {
    let mut panels = Vec::new();
    for (s, d) in FIG8_PAIRS {
        let (src, dst) = (lay(s)?, lay(d)?);
        let cells = common_cells(&src, &dst).map_err(e)?;
        for (name, l) in [("source", &src), ("destination", &dst)] {
            let g = cute_draw::Grid::latex(l).map_err(e)?;
            let w = cells.len();
            panels.push(Panel::new(
                format!("{name} {l} (common vector {w})"),
                g.rows,
                g.cols,
                |m, n| {
                    let v = g.at(m, n);
                    if cells.contains(&(m + g.rows * n)) {
                        Cell {
                            fill: tile_colour(3),
                            label: vec![v.to_string()],
                            mark: Mark::Outline,
                            attrs: Vec::new(),
                        }
                    } else {
                        Cell::text(grey(v), v.to_string())
                    }
                },
            ));
        }
    }
    Ok(Figure {
        number: 8,
        caption_zh: "布局之间公共子向量的示例。",
        caption_en: "Common sub-vectors of layouts: left, source and destination agree on offsets {0,1} (copy width 2); right, on offsets {0,1,2,3} at the coordinates {0,2,8,10} (width 4).",
        note: "The layout pairs are only in the figure; pairs were chosen that show the facts the text states (width 2 at offsets {0,1}; width 4 at the coordinates {0,2,8,10}). The outlined cells are max_common_layout(source, destination).",
        scene: scene("Figure 8", panels, 2),
    })
}

/// Figure 9: the TMEM offsets of `tcgen05.ld.32x32b.x4` and `16x256b.x1` for one warp.
fn fig9() -> R<Figure> {
    let s = cute::TMEM_LANE_STRIDE;
    let mut panels = Vec::new();
    for (name, l, threads) in [
        ("32x32b.x4", cute::tmem_32x32b(4).map_err(e)?, 128i64),
        ("16x256b.x1", cute::tmem_16x256b(1).map_err(e)?, 128),
    ] {
        let values = l.size() / threads;
        // warp 0: lanes 0..32, the columns the instruction touches
        let mut cells: Vec<(i64, i64, i64, i64)> = Vec::new();
        for v in 0..values {
            for t in 0..32 {
                let o = l.eval(t + threads * v).map_err(e)?;
                cells.push((o / s, o % s, t, v));
            }
        }
        let lanes = cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
        let cols = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
        let mut own = vec![None; (lanes * cols) as usize];
        for &(lane, col, t, v) in &cells {
            own[(lane * cols + col) as usize] = Some((t, v));
        }
        panels.push(Panel::new(
            format!("tcgen05.ld.{name}: {l}"),
            lanes,
            cols,
            |r, c| match own[(r * cols + c) as usize] {
                Some((t, v)) => Cell {
                    fill: thread_colour(t),
                    label: vec![format!("T{t}"), format!("V{v}")],
                    mark: Mark::Plain,
                    attrs: Vec::new(),
                },
                None => Cell::blank(),
            },
        ));
    }
    Ok(Figure {
        number: 9,
        caption_zh: "TMEM load/store 指令访问特定偏移并将数据分配到线程本地寄存器。",
        caption_en: "TMEM load/store instructions access specific offsets and distribute the data to thread-local registers.",
        note: "The instruction layouts are missing from the translation; they are the core crate's tmem_32x32b and tmem_16x256b (reconstructed from the PTX ISA with the addressing the text states: a column step adds 1, a lane step 16384). Rows are TMEM lanes, columns TMEM columns, for the first warp.",
        scene: scene("Figure 9", panels, 2),
    })
}

/// The tile and tiling of Figures 10 and 11.
pub const FIG10_TILE: &str = "(3,4):(4,1)";
/// The tiling of Figures 10 and 11.
pub const FIG10_TILING: &str = "(2,5):(1,2)";

fn product_fig(op: TileOp) -> R<Figure> {
    let (a, b) = (lay(FIG10_TILE)?, lay(FIG10_TILING)?);
    let (r, number, name) = match op {
        TileOp::BlockedProduct => (cute::blocked_product(&a, &b), 10, "blocked_product"),
        _ => (cute::raked_product(&a, &b), 11, "raked_product"),
    };
    let r = r.map_err(e)?;
    let tiles = pictures::tiles(&format!("{name}({a}, {b}) = {r}"), &r, |i, j| {
        product_tile(op, (3, 4), (2, 5), i, j)
    })
    .map_err(e)?;
    let panels = vec![
        layout_panel(&format!("tile {a}"), &a)?,
        layout_panel(&format!("tiling {b}"), &b)?,
    ];
    let mut all = arrange(panels, 2);
    let y = all.iter().map(|p| p.y + p.height()).max().unwrap_or(0) + GAP;
    all.extend(tiles.panels.into_iter().map(|p| p.at(0, y)));
    Ok(Figure {
        number,
        caption_zh: if number == 10 {
            "行主序 (3,4):(4,1) tile 与列主序 (2,5):(1,2) tiling 的 blocked_product。"
        } else {
            "行主序 (3,4):(4,1) tile 与列主序 (2,5):(1,2) tiling 的 raked_product。"
        },
        caption_en: if number == 10 {
            "The blocked_product of the row-major tile (3,4):(4,1) and the column-major tiling (2,5):(1,2): each 3×4 block is a translated copy of the tile."
        } else {
            "The raked_product of the row-major tile (3,4):(4,1) and the column-major tiling (2,5):(1,2): the tile's copies are interleaved (raked) across the result."
        },
        note: "Computed with the core crate's product; each cell is coloured by the copy of the tile it belongs to (the tiling's coordinate), as the paper colours each 3×4 tile.",
        scene: Scene {
            title: format!("Figure {number}"),
            panels: all,
        },
    })
}

/// Figure 12's layout and tiler.
pub const FIG12_LAYOUT: &str = "(8,16):(20,1)";
/// Figure 12's tiler.
pub const FIG12_TILER: &str = "<4:1,8:2>";

fn fig12() -> R<Figure> {
    let l = lay(FIG12_LAYOUT)?;
    let t: Tiler = FIG12_TILER.parse().map_err(e)?;
    let tiles = divide_tiles(&l, &t).map_err(e)?;
    let z = cute::zipped_divide(&l, &t).map_err(e)?;
    let rows = 8;
    let left = pictures::tiles(&format!("L = {l}, tiler {t}"), &l, |r, c| {
        tiles[(r + rows * c) as usize]
    })
    .map_err(e)?
    .panels
    .into_iter()
    .next()
    .ok_or_else(|| e("empty picture"))?;
    // the result as its 2x2 tiling: tile (r0, r1) of the rest mode at block row r0, block column
    // r1, each the 4x8 tile mode 0 at that rest coordinate, in its tile's colour
    let tile = z.mode(0).map_err(e)?;
    let rest = z.mode(1).map_err(e)?;
    let (tm, tn) = (
        tile.mode(0).map_err(e)?.size(),
        tile.mode(1).map_err(e)?.size(),
    );
    let (rm, rn) = (
        rest.mode(0).map_err(e)?.size(),
        rest.mode(1).map_err(e)?.size(),
    );
    let mut grid = Vec::new();
    for r0 in 0..rm {
        for r1 in 0..rn {
            let k = r0 + rm * r1;
            let base = rest.eval(k).map_err(e)?;
            let mut values = Vec::with_capacity((tm * tn) as usize);
            for j in 0..tm * tn {
                values.push(base + tile.eval(j).map_err(e)?);
            }
            let title = if k == 0 {
                format!("zipped_divide(L, {t}) = {z}: tile ({r0},{r1})")
            } else {
                format!("tile ({r0},{r1})")
            };
            let p = Panel::new(title, tm, tn, |i, jj| {
                Cell::text(tile_colour(k), values[(i + tm * jj) as usize].to_string())
            });
            grid.push((r0, r1, p));
        }
    }
    let mut tiles_panels: Vec<Panel> = grid.into_iter().map(|x| x.2).collect();
    {
        let mut refs: Vec<&mut Panel> = tiles_panels.iter_mut().collect();
        pictures::align_titles(&mut refs);
    }
    let (w, h) = (tiles_panels[0].width(), tiles_panels[0].height());
    let x0 = left.width() + 2 * GAP;
    let mut panels = vec![left];
    for (n, p) in tiles_panels.into_iter().enumerate() {
        let (r0, r1) = (n as i64 / rn, n as i64 % rn);
        panels.push(p.at(x0 + r1 * (w + GAP), r0 * (h + GAP)));
    }
    Ok(Figure {
        number: 12,
        caption_zh: "将 8×16 布局划分为 4×8 tile 并形成 2×2 tiling 的示例。",
        caption_en: "An 8×16 layout divided into 4×8 tiles forming a 2×2 tiling.",
        note: "L = (8,16):(20,1) and the tiler <4:1,8:2> of the worked example S-LD-11; left: L coloured by tile; right: zipped_divide(L, T) = ((4,8),(2,2)):((20,2),(80,1)) as its 2×2 tiling: the 4×8 tile (mode 0) at each rest coordinate (r0,r1) (mode 1), placed at block row r0 and block column r1, in the same colours.",
        scene: Scene {
            title: "Figure 12".to_string(),
            panels,
        },
    })
}

/// Every figure the translation describes, in order.
pub fn figures() -> R<Vec<Figure>> {
    Ok(vec![
        fig1()?,
        fig2()?,
        fig3()?,
        fig4()?,
        fig5()?,
        fig6()?,
        fig7()?,
        fig8()?,
        fig9()?,
        product_fig(TileOp::BlockedProduct)?,
        product_fig(TileOp::RakedProduct)?,
        fig12()?,
    ])
}

fn html_escape(s: &str) -> String {
    cute_draw::scene::escape(s)
}

/// Writes every figure to `dir` (`figNN.svg`, `figNN.png`) and `index.html`; returns one line per
/// file written.
pub fn write(dir: &Path) -> R<String> {
    std::fs::create_dir_all(dir).map_err(|err| {
        e(format!(
            "cannot create {}: {err}",
            crate::ops::quote(&dir.to_string_lossy())
        ))
    })?;
    let figs = figures()?;
    let mut html = String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>CuTe Layout Representation and Algebra: the figures, reconstructed</title>\n<style>body{font-family:sans-serif;max-width:1400px;margin:auto}figure{border-top:1px solid #ccc;padding:1em 0;margin:0}figure img{max-width:100%;height:auto}figcaption p{margin:.3em 0}.note{color:#555;font-size:90%}</style>\n</head>\n<body>\n<h1>The figures of “CuTe Layout Representation and Algebra” (arXiv:2603.02298), reconstructed from the algebra</h1>\n<p>Each figure is computed by this project's layout algebra (<code>cute paper --gallery</code>); the notes say which layouts the text names and which were chosen.</p>\n");
    let mut lines = Vec::new();
    let write_file = |name: &str, bytes: &[u8]| -> R<()> {
        let p = dir.join(name);
        std::fs::write(&p, bytes).map_err(|err| {
            e(format!(
                "cannot write {}: {err}",
                crate::ops::quote(&p.to_string_lossy())
            ))
        })
    };
    for f in &figs {
        let stem = format!("fig{:02}", f.number);
        let svg = f.scene.svg();
        write_file(&format!("{stem}.svg"), svg.as_bytes())?;
        let png = cute_draw::png::render(&f.scene).map_err(e)?;
        write_file(&format!("{stem}.png"), &png)?;
        let _ = write!(
            html,
            "<figure id=\"{stem}\">\n<img src=\"{stem}.svg\" alt=\"Figure {n}\">\n<figcaption>\n<p><b>Figure {n}.</b> {en}</p>\n<p lang=\"zh\">图 {n}: {zh}</p>\n<p class=\"note\">{note} PNG: <a href=\"{stem}.png\">{stem}.png</a>.</p>\n</figcaption>\n</figure>\n",
            n = f.number,
            en = html_escape(f.caption_en),
            zh = html_escape(f.caption_zh),
            note = html_escape(f.note),
        );
        lines.push(format!(
            "{stem}.svg {stem}.png: Figure {}, {} cells",
            f.number,
            f.scene.cells()
        ));
    }
    html.push_str("</body>\n</html>\n");
    write_file("index.html", html.as_bytes())?;
    lines.push(format!("index.html: {} figures", figs.len()));
    Ok(lines.join("\n"))
}
