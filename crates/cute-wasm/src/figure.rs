//! Operands beside the result: the pictures of an operation's layout arguments next to the
//! picture of its value, with colours that link the cells of one to the cells of the other, and a
//! legend that says what the colours mean.
//!
//! Each cell of a panel carries three labels — its **value** (the layout's offset there, or its
//! F2 or coordinate value), its **index** (the colexicographic 1-D coordinate `i = r + rows·c`)
//! and its **coordinate** (the natural, hierarchical coordinate of `i` in the layout's shape) —
//! so that the page can switch what the cells show without asking again.
//!
//! The links are computed with the algebra itself, on *compact stand-ins* of the operands: the
//! compact column-major layout `C_A` of `A`'s shape maps each index to itself, so the value of
//! `op(C_A, B)` at result index `i` is the index of `A` that result cell `i` reads (for
//! composition and the divides: both are `A ∘ D` for a layout `D` that depends only on `A`'s
//! shape). For the products, `op(C_A, C_B)` at `i` is `a + size(A)·k`: cell `i` is a copy of
//! `A`'s cell `a` in tile `k`, which `B`'s cell `k` places. A link that does not check out (an
//! operation the stand-ins do not reproduce) falls back to CuTe's greys by value.
//!
//! | operation | colours |
//! |---|---|
//! | `composition(A, B)` | result cell `i`, `B`'s cell `i` and `A`'s cell `B(i)` share colour `i` |
//! | `logical/zipped/tiled/flat_divide(A, T)` | every cell by the tile it falls in, in `A` and in the result; cells of a partial tile past the end of `A` white and dashed |
//! | `logical/zipped/tiled/flat/blocked/raked_product(A, B)` | tile `k` of the result and `B`'s cell `k` share colour `k` |
//! | `right_inverse(A)` | result cell `i` and `A`'s cell `R(i)` share colour `i` |
//! | `left_inverse(A)` | `A`'s cell `i` and result cell `A(i)` share colour `i` |
//! | `slice(A, c)` | result cell `j` and the cell of `A` it comes from share colour `j`; the others white |
//! | `complement(A, M)` | `A` is copy 0 of the pattern; result cell `j` marks where copy `j` starts |
//! | anything else | CuTe's 8-level grey by value: equal offsets, equal greys |
//!
//! A swizzled argument `Sw<B,M,S> o off o L` is shown twice, before (`off + L`) and after the
//! swizzle, the cells the swizzle moved outlined.

use crate::cells::INLINE_SVG_CELLS;
use crate::links::link;
use crate::panel::GREYS;
pub use crate::panel::{
    link_colour, FigPanel, Figure, Legend, MARK_MOVED, MARK_NONE, MARK_OUTSIDE,
};
use cute::{ComposedLayout, IntTuple, Layout};

/// A layout argument as a picture: a plain layout, or a swizzled one before and after.
enum Operand {
    Plain(Layout),
    Swizzled(ComposedLayout),
}

fn operand(text: &str) -> Option<Operand> {
    if let Ok(l) = text.parse::<Layout>() {
        return Some(Operand::Plain(l));
    }
    text.parse::<ComposedLayout>().ok().map(Operand::Swizzled)
}

/// The panels `before` (`off + L`) and `after` (`Sw ∘ off ∘ L`) of a swizzled layout, the cells
/// whose value the swizzle changed marked [`MARK_MOVED`] in `after`.
///
/// ```
/// let c: cute::ComposedLayout = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse().unwrap();
/// let [b, a] = cute_wasm::figure::swizzle_panels(&c).unwrap();
/// assert_eq!(b.value, ["0", "1", "2", "3"]);
/// assert_eq!(a.value, ["0", "1", "3", "2"]);
/// assert_eq!(a.mark, [0, 0, 1, 1]);
/// ```
pub fn swizzle_panels(c: &ComposedLayout) -> Option<[FigPanel; 2]> {
    let mut before = FigPanel::of("before", &c.layout)?;
    let mut after = before.clone();
    after.role = "after";
    before.title = if c.offset == 0 {
        format!("before: {}", c.layout)
    } else {
        format!("before: {} + {}", c.offset, c.layout)
    };
    after.title = format!("after: {c}");
    for k in 0..before.index.len() {
        let i = before.index[k];
        let b = c.layout.eval(i).ok()?.checked_add(c.offset)?;
        let a = c.eval(i).ok()?;
        before.value[k] = b.to_string();
        before.fill[k] = cute_draw::pictures::grey(b);
        after.value[k] = a.to_string();
        after.fill[k] = cute_draw::pictures::grey(a);
        after.mark[k] = if a != b { MARK_MOVED } else { MARK_NONE };
    }
    Some([before, after])
}

/// The bits `[lo, hi)` a contiguous mask covers.
fn bit_range(mask: i64) -> (u32, u32) {
    let lo = mask.trailing_zeros().min(63);
    (lo, lo + mask.count_ones())
}

/// The figure of `op` on `args` whose value is `result`, or `None` when the result is not a
/// layout of at most [`INLINE_SVG_CELLS`] cells.
///
/// ```
/// let f = cute_wasm::figure::figure("composition", &["(8,8):(8,1)", "(4,2):(2,1)"], "(4,2):(16,8)").unwrap();
/// let roles: Vec<&str> = f.panels.iter().map(|p| p.role).collect();
/// assert_eq!(roles, ["A", "B", "result"]);
/// // result cell 1 (index 1) and B's cell of index 1 share a colour
/// let (a, b, r) = (&f.panels[0], &f.panels[1], &f.panels[2]);
/// assert_eq!(r.fill[r.cell_of(1).unwrap()], b.fill[b.cell_of(1).unwrap()]);
/// // ... and so does A's cell at index B(1) = 2
/// assert_eq!(r.fill[r.cell_of(1).unwrap()], a.fill[a.cell_of(2).unwrap()]);
/// ```
pub fn figure(op: &str, args: &[&str], result: &str) -> Option<Figure> {
    let r: Layout = result.parse().ok()?;
    let mut res = FigPanel::of("result", &r)?;
    res.title = format!("result: {r}");
    let mut panels = Vec::new();
    let mut legend = Vec::new();
    // the layout arguments, A and B by position
    let mut plain: Vec<Option<FigPanel>> = Vec::new();
    for (k, text) in args.iter().enumerate() {
        // A, B, then C, D, ... for operations of more arguments (make_layout)
        const ROLES: [&str; 8] = ["A", "B", "C", "D", "E", "F", "G", "H"];
        let role = ROLES.get(k).copied().unwrap_or("arg");
        match operand(text) {
            Some(Operand::Plain(l)) => {
                let p = FigPanel::of(role, &l).map(|mut p| {
                    p.title = format!("{role}: {l}");
                    p
                });
                if p.is_none() && l.size() > INLINE_SVG_CELLS {
                    legend.push((
                        None,
                        format!(
                            "{role} ({} cells) is too large to draw beside the result",
                            l.size()
                        ),
                    ));
                }
                plain.push(p);
            }
            Some(Operand::Swizzled(c)) => {
                plain.push(None);
                if let Some([b, a]) = swizzle_panels(&c) {
                    panels.push(b);
                    panels.push(a);
                    legend.push((
                        None,
                        format!(
                            "{c}: the layout's offsets before the swizzle and after it; outlined: the offsets the swizzle moved (bits [{}, {}) XORed into bits [{}, {}))",
                            bit_range(c.swizzle.yyy_mask()).0,
                            bit_range(c.swizzle.yyy_mask()).1,
                            bit_range(c.swizzle.zzz_mask()).0,
                            bit_range(c.swizzle.zzz_mask()).1
                        ),
                    ));
                }
            }
            None => plain.push(None),
        }
    }
    let a_layout = args.first().and_then(|t| t.parse::<Layout>().ok());
    let linked = match (&a_layout, plain.first().cloned().flatten()) {
        (Some(a), Some(mut pa)) => link(
            op,
            args,
            a,
            &mut pa,
            plain.get(1).cloned().flatten(),
            &mut res,
        )
        .map(|(pb, text)| (pa, pb, text)),
        _ => None,
    };
    match linked {
        Some((pa, pb, text)) => {
            panels.push(pa);
            panels.extend(pb);
            legend.splice(0..0, text);
        }
        None => {
            panels.extend(plain.into_iter().flatten());
            legend.insert(0, (None, GREYS.to_string()));
        }
    }
    panels.push(res);
    Some(Figure { panels, legend })
}

/// The figure and the TV picture of `make_layout_tv(thr, val)`, whose value is `TILE TV`: the
/// thread and value layouts beside the TV layout drawn over its tile (`cute_draw`'s TV picture,
/// whose cells list their threads for the page to isolate one). `None` when the value is not of
/// that form or the tile has more than [`INLINE_SVG_CELLS`] cells.
///
/// ```
/// let (f, svg) = cute_wasm::figure::tv_figure(&["(4,8):(8,1)", "(2,2):(2,1)"], "(8,16) ((8,4),(2,2)):((16,2),(8,1))").unwrap();
/// let roles: Vec<&str> = f.panels.iter().map(|p| p.role).collect();
/// assert_eq!(roles, ["thr", "val"]);
/// assert_eq!(svg.matches("class=\"cell\"").count(), 128);
/// ```
pub fn tv_figure(args: &[&str], value: &str) -> Option<(Figure, String)> {
    let (tile, tv) = value.split_once(' ')?;
    let tile: IntTuple = tile.parse().ok()?;
    let tv: Layout = tv.parse().ok()?;
    if tile.rank() != 2 {
        return None;
    }
    let (rows, cols) = (
        tile.get(0).ok()?.size().ok()?,
        tile.get(1).ok()?.size().ok()?,
    );
    if rows.checked_mul(cols)? > INLINE_SVG_CELLS {
        return None;
    }
    let svg = cute_draw::svg::tv_layout_svg(&tv, rows, cols, None).ok()?;
    let mut panels = Vec::new();
    for (role, text) in ["thr", "val"].into_iter().zip(args) {
        if let Ok(l) = text.parse::<Layout>() {
            if let Some(mut p) = FigPanel::of(role, &l) {
                p.title = format!("{role}: {l}");
                panels.push(p);
            }
        }
    }
    let legend = vec![
        (None, GREYS.to_string()),
        (
            Some(cute_draw::pictures::thread_colour(0)),
            format!("the TV layout {tv} over its {rows}x{cols} tile: each cell holds the thread T and value V that own it, coloured by thread (CuTe's colours); hover a cell to isolate its thread, click to keep it"),
        ),
    ];
    Some((Figure { panels, legend }, svg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::{DIVIDES, PRODUCTS};
    use cute::registry::{self, Outcome};
    use std::collections::HashMap;

    fn fill_at(p: &FigPanel, i: i64) -> (u8, u8, u8) {
        p.fill[p.cell_of(i).unwrap()]
    }

    /// Composition: for every index i of the result, R(i) = A(B(i)) and the three cells share
    /// a colour, different from the colour of any other index (up to the palette's period).
    #[test]
    fn composition_links_result_b_and_a() {
        let (a, b) = ("(8,8):(8,1)", "((4,8),2):((16,1),8)");
        let f = figure("composition", &[a, b], "((4,8),2):((2,8),1)").unwrap();
        let (pa, pb, pr) = (&f.panels[0], &f.panels[1], &f.panels[2]);
        let al: Layout = a.parse().unwrap();
        let bl: Layout = b.parse().unwrap();
        let rl: Layout = "((4,8),2):((2,8),1)".parse().unwrap();
        for i in 0..rl.size() {
            let bi = bl.eval(i).unwrap();
            assert_eq!(rl.eval(i).unwrap(), al.eval(bi).unwrap());
            assert_eq!(fill_at(pr, i), link_colour(i));
            assert_eq!(fill_at(pb, i), link_colour(i));
            assert_eq!(fill_at(pa, bi), link_colour(i));
        }
    }

    /// A divide that does not divide: `(12,32):(32,1)` by `(5,8)`, whose last tiles overhang A. Every
    /// tile has 40 cells of A or of padding, every cell of A has the colour of its tile in both
    /// pictures, and padded cells are marked outside.
    #[test]
    fn divides_colour_by_tile_with_partial_tiles() {
        let (a, t) = ("(12,32):(32,1)", "(5,8)");
        for op in DIVIDES {
            let Outcome::Value(v) = registry::run(op, &[a, t]) else {
                panic!("{op}")
            };
            let f = figure(op, &[a, t], &v).unwrap();
            let pa = &f.panels[0];
            let pr = f.panels.last().unwrap();
            let al: Layout = a.parse().unwrap();
            // tile of A's cell (m, n): (m / 5) + 3 (n / 8) — zipped_divide's rest is colex
            for m in 0..12 {
                for n in 0..32 {
                    let i = m + 12 * n;
                    assert_eq!(
                        fill_at(pa, i),
                        link_colour(m / 5 + 3 * (n / 8)),
                        "{op} A({m},{n})"
                    );
                }
            }
            // every result cell inside A has the tile colour of the A cell with its offset
            let by_offset: HashMap<i64, (u8, u8, u8)> = (0..al.size())
                .map(|i| (al.eval(i).unwrap(), fill_at(pa, i)))
                .collect();
            let outside = pr.mark.iter().filter(|&&m| m == MARK_OUTSIDE).count();
            // 3 row-tiles of 5 (15 rows) x 4 column-tiles of 8: 15·32 − 12·32 = 96 padded cells
            assert_eq!(outside, 96, "{op}");
            for k in 0..pr.value.len() {
                if pr.mark[k] != MARK_OUTSIDE {
                    let o: i64 = pr.value[k].parse().unwrap();
                    assert_eq!(pr.fill[k], by_offset[&o], "{op} cell {k}");
                }
            }
            assert!(f.legend.iter().any(|(_, t)| t.contains("partial tile")));
        }
    }

    /// Products: tile k of the result is coloured as B's cell k, and holds A's offsets shifted.
    #[test]
    fn products_colour_tiles_as_b() {
        let (a, b) = ("(2,2):(1,2)", "(2,3):(3,1)");
        for op in PRODUCTS {
            let Outcome::Value(v) = registry::run(op, &[a, b]) else {
                panic!("{op}")
            };
            let f = figure(op, &[a, b], &v).unwrap();
            let (pb, pr) = (&f.panels[1], &f.panels[2]);
            assert_eq!(pb.role, "B");
            for k in 0..6 {
                assert_eq!(fill_at(pb, k), link_colour(k));
                // tile k holds 4 cells
                let count = pr.fill.iter().filter(|&&c| c == link_colour(k)).count();
                assert_eq!(count, 4, "{op} tile {k}");
            }
        }
        // logical_product: result index a + 4k is tile k
        let f = figure("logical_product", &[a, b], "((2,2),(2,3)):((1,2),(12,4))").unwrap();
        let pr = &f.panels[2];
        for i in 0..24 {
            assert_eq!(fill_at(pr, i), link_colour(i / 4));
        }
    }

    #[test]
    fn inverses_link_through_the_definition() {
        let a = "(4,8):(8,1)";
        let Outcome::Value(r) = registry::run("right_inverse", &[a]) else {
            panic!()
        };
        let f = figure("right_inverse", &[a], &r).unwrap();
        let (pa, pr) = (&f.panels[0], &f.panels[1]);
        let al: Layout = a.parse().unwrap();
        let rl: Layout = r.parse().unwrap();
        for i in 0..rl.size() {
            let s = rl.eval(i).unwrap();
            assert_eq!(al.eval(s).unwrap(), i);
            assert_eq!(fill_at(pa, s), fill_at(pr, i));
            assert_eq!(fill_at(pr, i), link_colour(i));
        }
        let Outcome::Value(l) = registry::run("left_inverse", &[a]) else {
            panic!()
        };
        let f = figure("left_inverse", &[a], &l).unwrap();
        let (pa, pr) = (&f.panels[0], &f.panels[1]);
        for i in 0..al.size() {
            assert_eq!(fill_at(pa, i), link_colour(i));
            assert_eq!(fill_at(pr, al.eval(i).unwrap()), link_colour(i));
        }
    }

    /// For every rank-2 `A` of shape `(m, n)` (m, n ≤ 7, column- and row-major) and tiler
    /// `(t0, t1)` (≤ 4, dividing or not), recomputed from the definition of a by-mode divide:
    /// A's cell `(r, c)` is in tile `r / t0 + ⌈m / t0⌉ · (c / t1)`, and the result has
    /// `⌈m/t0⌉·t0 · ⌈n/t1⌉·t1 − m·n` cells of padding.
    #[test]
    fn divides_by_mode_agree_with_the_definition() {
        for (m, n) in (1..=7).flat_map(|m| (1..=7).map(move |n| (m, n))) {
            for (t0, t1) in (1..=4).flat_map(|a| (1..=4).map(move |b| (a, b))) {
                for a in [format!("({m},{n}):(1,{m})"), format!("({m},{n}):({n},1)")] {
                    let t = format!("({t0},{t1})");
                    let Outcome::Value(v) = registry::run("logical_divide", &[&a, &t]) else {
                        panic!("{a} / {t}")
                    };
                    let Some(f) = figure("logical_divide", &[&a, &t], &v) else {
                        continue; // a result of more than INLINE_SVG_CELLS cells
                    };
                    let pa = &f.panels[0];
                    let pr = f.panels.last().unwrap();
                    let rows = (m + t0 - 1) / t0;
                    for r in 0..m {
                        for c in 0..n {
                            let tile = r / t0 + rows * (c / t1);
                            assert_eq!(
                                fill_at(pa, r + m * c),
                                link_colour(tile),
                                "{a} / {t} at ({r},{c})"
                            );
                        }
                    }
                    let padding = rows * t0 * ((n + t1 - 1) / t1) * t1 - m * n;
                    let outside = pr.mark.iter().filter(|&&k| k == MARK_OUTSIDE).count() as i64;
                    assert_eq!(outside, padding, "{a} / {t}");
                    assert_eq!(pr.index.len() as i64 - outside, m * n, "{a} / {t}");
                }
            }
        }
    }

    /// Every operation on a few operands of every kind answers without a panic, and a figure's
    /// panels have as many labels of each kind as cells.
    #[test]
    fn every_operation_answers_with_a_well_formed_figure() {
        let args = [
            "(4,8):(1,4)",
            "(3,5):(5,1)",
            "((2,2),3):((1,6),2)",
            "8:2",
            "(5,8)",
            "(4,4):(F1,F5)",
            "(4,8):(1@0,1@1)",
            "Sw<2,0,2> o 0 o (4,4):(4,1)",
            "(2,2):(0,1)",
            "4",
        ];
        for op in registry::operations() {
            let (lo, hi) = op.arity();
            if lo > 2 {
                continue;
            }
            for x in args {
                for y in args {
                    let a: Vec<&str> = if lo <= 1 && hi >= 1 && y == args[0] {
                        vec![x]
                    } else if hi >= 2 {
                        vec![x, y]
                    } else {
                        continue;
                    };
                    let mut request = format!("run\n{}", op.name);
                    for t in &a {
                        request.push('\n');
                        request.push_str(t);
                    }
                    let answer: serde_json::Value = serde_json::from_str(&crate::handle(&request))
                        .unwrap_or_else(|e| panic!("{request:?}: {e}"));
                    for p in answer["figure"]["panels"].as_array().into_iter().flatten() {
                        let cells =
                            (p["rows"].as_i64().unwrap() * p["cols"].as_i64().unwrap()) as usize;
                        for key in ["value", "index", "coord", "fill", "mark"] {
                            assert_eq!(
                                p[key].as_array().unwrap().len(),
                                cells,
                                "{request:?} {key}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn slices_colour_the_cells_of_a_they_keep() {
        let (a, c) = ("((2,2),8):((1,16),2)", "((1,_),_)");
        let Outcome::Value(r) = registry::run("slice", &[a, c]) else {
            panic!()
        };
        let f = figure("slice", &[a, c], &r).unwrap();
        let (pa, pr) = (&f.panels[0], &f.panels[1]);
        // the slice ((1,_),_): A's cells of mode-0 coordinate (1, m) and column n, i.e. index
        // 1 + 2m + 4n, are result cell m + 2n
        for m in 0..2 {
            for n in 0..8 {
                assert_eq!(fill_at(pa, 1 + 2 * m + 4 * n), link_colour(m + 2 * n));
                assert_eq!(fill_at(pr, m + 2 * n), link_colour(m + 2 * n));
                assert_eq!(fill_at(pa, 2 * m + 4 * n), (255, 255, 255));
            }
        }
        assert!(f.legend[0].1.contains("slice_offset = 1"), "{:?}", f.legend);
    }

    #[test]
    fn complement_colours_each_copy_of_a() {
        let a = "(2,2):(1,6)";
        let Outcome::Value(r) = registry::run("complement", &[a, "24"]) else {
            panic!()
        };
        let f = figure("complement", &[a, "24"], &r).unwrap();
        let (pa, pr) = (&f.panels[0], &f.panels[1]);
        assert!(pa.fill.iter().all(|&c| c == link_colour(0)));
        let al: Layout = a.parse().unwrap();
        let rl: Layout = r.parse().unwrap();
        let mut seen = std::collections::HashSet::new();
        for j in 0..rl.size() {
            assert_eq!(fill_at(pr, j), link_colour(j));
            // copy j of A's offsets, at R(j), overlaps no other copy
            for i in 0..al.size() {
                assert!(seen.insert(al.eval(i).unwrap() + rl.eval(j).unwrap()));
            }
        }
    }

    #[test]
    fn other_operations_keep_the_greys_and_swizzles_show_before_and_after() {
        let f = figure("coalesce", &["(4,8):(8,1)"], "(4,8):(8,1)").unwrap();
        assert_eq!(f.panels.len(), 2);
        assert_eq!(f.panels[1].fill[1], cute_draw::pictures::grey(1));
        assert!(f.legend[0].1.contains("grey"));
        let sw = "Sw<3,3,3> o 0 o (8,64):(64,1)";
        let Outcome::Value(v) = registry::run("f2_layout", &[sw]) else {
            panic!()
        };
        let f = figure("f2_layout", &[sw], &v).unwrap();
        let roles: Vec<&str> = f.panels.iter().map(|p| p.role).collect();
        assert_eq!(roles, ["before", "after", "result"]);
        assert!(
            f.legend
                .iter()
                .any(|(_, t)| t.contains("bits [6, 9) XORed into bits [3, 6)")),
            "{:?}",
            f.legend
        );
        let c: ComposedLayout = sw.parse().unwrap();
        let (b, a) = (&f.panels[0], &f.panels[1]);
        for k in 0..512 {
            let i = b.index[k];
            assert_eq!(b.value[k], c.layout.eval(i).unwrap().to_string());
            assert_eq!(a.value[k], c.eval(i).unwrap().to_string());
            assert_eq!(a.mark[k] == MARK_MOVED, a.value[k] != b.value[k]);
        }
        // row 0 is not moved (its row bits are 0); row 1's 8-element chunks are XORed with 1
        assert_eq!(a.value[64..72].join(","), "72,73,74,75,76,77,78,79");
        // a result too large for the figure gives none; a value that is not a layout neither
        assert!(figure("coalesce", &["(64,64):(64,1)"], "(64,64):(64,1)").is_none());
        assert!(figure("size", &["(4,8):(1,4)"], "32").is_none());
        let f = figure("make_layout", &["4:1", "2:4", "3:8"], "(4,2,3):(1,4,8)").unwrap();
        let roles: Vec<&str> = f.panels.iter().map(|p| p.role).collect();
        assert_eq!(roles, ["A", "B", "C", "result"]);
    }
}
