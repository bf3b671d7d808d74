//! The functions whose machine code `scripts/check_codegen.sh` compares: each static evaluation
//! of `((4,8),(8,16)):((8,512),(1,32))` next to the expression a programmer writes by hand with
//! the same constant extents and strides. Each pair must compile to the same instructions.

use cute::{static_layout, StaticLayout};
use std::hint::black_box;

static_layout!(L = "((4,8),(8,16)):((8,512),(1,32))");

/// `L(c)` at a natural coordinate, through the static layout.
#[inline(never)]
#[no_mangle]
pub fn static_eval_natural(c: [usize; 4]) -> i64 {
    L::eval_natural(c)
}

/// `L(c)` at a natural coordinate, by hand.
#[inline(never)]
#[no_mangle]
pub fn hand_eval_natural(c: [usize; 4]) -> i64 {
    c[0] as i64 * 8 + c[1] as i64 * 512 + c[2] as i64 + c[3] as i64 * 32
}

/// `L(i)` from a 1-D index, through the static layout.
#[inline(never)]
#[no_mangle]
pub fn static_eval_index(i: usize) -> i64 {
    L::eval(i)
}

/// `L(i)` from a 1-D index, by hand (division and remainder by the constant extents).
#[inline(never)]
#[no_mangle]
pub fn hand_eval_index(i: usize) -> i64 {
    (i % 4) as i64 * 8 + (i / 4 % 8) as i64 * 512 + (i / 32 % 8) as i64 + (i / 256) as i64 * 32
}

fn main() {
    let c = black_box([3, 1, 2, 1]);
    let i = black_box(4095);
    assert_eq!(static_eval_natural(c), hand_eval_natural(c));
    assert_eq!(static_eval_index(i), hand_eval_index(i));
    println!("{} {}", static_eval_natural(c), static_eval_index(i));
}
