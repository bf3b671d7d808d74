//! Snapshot tests: the SVG and TikZ text of chosen pictures, compared with the files in
//! `tests/snapshots/`. After an intended change, `UPDATE_SNAPSHOTS=1 cargo test -p cute-draw --test
//! snapshots` rewrites them (then read the diff).

use cute::{ComposedLayout, Layout};
use cute_draw::pictures;
use std::path::PathBuf;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn check(name: &str, got: &str) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&p, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_SNAPSHOTS=1 writes it)", p.display()));
    if want != got {
        let line = want
            .lines()
            .zip(got.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(want.lines().count().min(got.lines().count()));
        panic!(
            "{name} differs from its snapshot at line {}:\n want: {:?}\n  got: {:?}",
            line + 1,
            want.lines().nth(line),
            got.lines().nth(line)
        );
    }
}

#[test]
fn layout_svg_and_tikz() {
    let s = pictures::layout(&l("(4,8):(1,4)")).unwrap();
    check("layout_4x8.svg", &s.svg());
    check("layout_4x8.tex", &s.tikz());
    let s = pictures::layout(&l("((2,2),(4,2)):((1,8),(2,16))")).unwrap();
    check("layout_paper_eval.svg", &s.svg());
}

#[test]
fn tv_svg_and_tikz() {
    let s = pictures::tv_layout(&l("((4,8),2):((16,1),8)"), 8, 8, Some(9)).unwrap();
    check("tv_fp64_c.svg", &s.svg());
    check("tv_fp64_c.tex", &s.tikz());
}

#[test]
fn atoms_svg_and_tikz() {
    let s = pictures::mma(
        "SM80_16x8x8_F32TF32TF32F32_TN",
        &l("((4,8),(2,2)):((16,1),(8,64))"),
        &l("((4,8),2):((8,1),32)"),
        &l("((4,8),(2,2)):((32,1),(16,8))"),
        (16, 8, 8),
        Some(0),
    )
    .unwrap();
    check("mma_16x8x8.tex", &s.tikz());
    let s = pictures::copy(
        "cp.async 16 B",
        &l("(1,8):(0,1)"),
        &l("(1,8):(0,1)"),
        1,
        8,
        Some(0),
    )
    .unwrap();
    check("copy_cp_async.svg", &s.svg());
}

#[test]
fn banks_conflicts_slices_tiles() {
    // 4-byte elements, row-major 4×32; thread t reads row t mod 4, column t / 4: 4-way conflicts
    let smem: ComposedLayout = "Sw<0,0,0> o 0 o (4,32):(32,1)".parse().unwrap();
    let tv = l("(32,1):(1,0)");
    let p = pictures::swizzle_conflicts(&smem, &tv, 4, 1).unwrap();
    assert_eq!(p.phases, vec![vec![4]]);
    check("conflicts_4x32.svg", &p.scene.svg());
    // Sw<2,3,2> moves row r to banks c xor 8r: conflict-free
    let sw: ComposedLayout = "Sw<2,3,2> o 0 o (4,32):(32,1)".parse().unwrap();
    let p = pictures::swizzle_conflicts(&sw, &tv, 4, 1).unwrap();
    assert_eq!(p.phases, vec![vec![1]]);
    check("banks_sw232.tex", &pictures::banks(&sw, 4).unwrap().tikz());
    let s = pictures::slice(&l("(4,6):(6,1)"), &"(_,2)".parse().unwrap()).unwrap();
    check("slice_col2.svg", &s.svg());
    let r = l("((3,2),(4,5)):((4,12),(1,24))");
    let s = pictures::tiles("blocked", &r, |i, j| i / 3 + 2 * (j / 4)).unwrap();
    check("tiles_blocked.tex", &s.tikz());
}
