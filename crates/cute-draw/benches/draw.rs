//! Drawing a 256×256 layout (65536 cells): the targets are SVG < 1 s and PNG < 3 s.
//!
//! `cargo bench -p cute-draw --bench draw`. Each sample draws the whole picture once from the
//! layout (the grid's offsets, the scene, then the SVG text or the PNG file's bytes); the PNG is
//! 4096 × 4096 at most ([`cute_draw::png::MAX_PIXELS`]), its cells' labels left out below 6 pixels.

use cute::Layout;
use cute_draw::{pictures, png};
use divan::black_box;

fn main() {
    divan::main();
}

fn big() -> Layout {
    "(256,256):(256,1)".parse().expect("benchmark operand")
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn svg_256x256() -> usize {
    let l = big();
    pictures::layout(black_box(&l))
        .expect("drawable")
        .svg()
        .len()
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn png_256x256() -> usize {
    let l = big();
    let s = pictures::layout(black_box(&l)).expect("drawable");
    png::render(&s).expect("rendered").len()
}

/// A picture of everyday size: the 16×8 C layout of mma.sync m16n8k16, labels drawn.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn png_mma_c_16x8() -> usize {
    let tv: Layout = "((4,8),(2,2)):((32,1),(16,8))".parse().expect("operand");
    let s = pictures::tv_layout(black_box(&tv), 16, 8, Some(5)).expect("drawable");
    png::render(&s).expect("rendered").len()
}
