//! Layouts: functions from coordinates to offsets, `L = D ∘ S` (paper: 布局 “layout”).
//!
//! A [`Layout`] is a shape `S` (positive integers) and a congruent stride `D`. It maps every
//! coordinate compatible with the shape (integer, ND, natural, or partially collapsed) to the inner
//! product of its natural coordinate with the stride. Integer coordinates use the colexicographic
//! order of the paper's formula (1); past the size, the last mode is not reduced (the extended domain).
//!
//! | notation | meaning |
//! |---|---|
//! | `12:1` | 12 consecutive offsets |
//! | `(4,8):(1,4)` | 4×8 column-major |
//! | `(4,8):(8,1)` | 4×8 row-major |
//! | `((2,2),(4,2)):((1,8),(2,16))` | the paper's Figure 3 layout: `L(22) = L(2,5) = L((0,1),(1,1)) = 26` |
//!
//! ```
//! use cute::{IntTuple, Layout};
//! let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
//! assert_eq!(l.eval(22).unwrap(), 26);
//! assert_eq!(l.eval_crd(&"(2,5)".parse().unwrap()).unwrap(), 26);
//! assert_eq!(l.eval_crd(&"((0,1),(1,1))".parse().unwrap()).unwrap(), 26);
//! assert_eq!((l.size(), l.cosize().unwrap(), l.rank(), l.depth()), (32, 32, 2, 2));
//! ```
//!
//! The module is split by concept, bottom to top: `repr` (the type and the accessors that cannot
//! fail; below [`crate::error`], which records layouts as operands), then, above the errors,
//! `make` (the constructors), `build` (layouts written in place, mode by mode), `modes` (mode
//! surgery) and `eval` (evaluation, cosize, image).

mod build;
mod eval;
mod make;
mod modes;
pub(crate) mod repr;

pub(crate) use build::{
    check_size, checked_size, concat_pair_build, mode_of_leaves, push_layout, size_overflow,
};
pub(crate) use eval::check_walk;
pub use eval::{for_each_offset, WALK_LIMIT};
pub(crate) use make::leaf_paths;
pub use make::{
    compact_col_major, compact_row_major, make_identity_layout, make_layout, make_ordered_layout,
};
pub(crate) use modes::narrow;
pub use repr::Layout;
pub(crate) use repr::BLANK;
