//! # cute — CuTe layouts and the layout algebra in Rust
//!
//! A Rust implementation of **CuTe**, the hierarchical layout representation and layout algebra
//! behind NVIDIA CUTLASS 3/4 and the CuTe DSL, following the whitepaper "CuTe Layout Representation
//! and Algebra" (Cris Cecka, arXiv:2603.02298; equation, table and figure numbers in these docs are
//! that edition's). Results are exactly those of static CuTe C++ (the printed form included) wherever
//! C++ is correct; where C++ silently returns a wrong layout, this crate returns an [`Error`] that
//! names the violated condition of the paper.
//!
//! ## Overview
//!
//! | paper | here |
//! |---|---|
//! | HTuple, shape, congruence, compatibility | [`IntTuple`] ([`int_tuple`](mod@int_tuple)) |
//! | coordinates, `idx2crd`/`crd2idx` (1)–(2) | [`idx2crd`], [`crd2idx`] ([`coord`]) |
//! | layout `L = D ∘ S` | [`Layout`] ([`layout`](mod@layout)) |
//! | tiler `⟨B, C⟩` | [`Tiler`] ([`tiler`](mod@tiler)) |
//! | coalesce | [`coalesce`], [`coalesce_profile`], [`filter`] |
//! | composition (6)–(12) | [`composition`], [`composition_tiler`], [`with_shape`] |
//! | complement (15)–(17) | [`complement`], [`complement_to`] |
//! | PyCuTe's extras | [`coalesce_z`], [`composition_mode`], [`layout_add`], [`greatest_common_domain`] |
//! | right/left inverse (13) | [`right_inverse`], [`left_inverse`] |
//! | vectorization (14) | [`max_common_vector`], [`max_common_layout`] |
//! | kernel, distribution | [`nullspace`], [`domain_distribute`] |
//! | element-size changes | [`upcast`], [`downcast`], [`recast`] |
//! | logical product `⊗`, blocked/raked product | [`logical_product`], [`zipped_product`], [`tiled_product`], [`flat_product`], [`blocked_product`], [`raked_product`], [`tile_to_shape`] |
//! | logical divide `⊘` | [`logical_divide`], [`zipped_divide`], [`tiled_divide`], [`flat_divide`] |
//! | swizzles `Sw<B,M,S>`, `Sw o offset o L` | [`Swizzle`], [`ComposedLayout`] ([`swizzle`]) |
//! | shared-memory bank conflicts, swizzle search | [`bank_conflicts`], [`swizzle_search`] ([`banks`]) |
//! | fast evaluation (run time) | [`IndexEvaluator`], [`Offsets`] ([`eval`](mod@eval)) |
//! | tensors `A ∘ L`, counting and identity tensors | [`Tensor`], [`tensor::CountingTensor`] ([`tensor`]) |
//! | compile-time layouts, static tensors, static COPY | [`StaticLayout`], [`static_layout!`], [`StaticTensor`], [`static_copy`] ([`static_layout`](mod@static_layout)) |
//! | slicing `c = c' + c*` (Figure 5) | [`slice`](fn@slice), [`dice`], [`slice_and_offset`], [`PartialCoord`] ([`slice`](mod@slice)) |
//! | partitioning (Table 4), tiles | [`tv_partition`], [`make_layout_tv`], [`local_tile`], [`local_partition`] ([`partition`]) |
//! | COPY and GEMM (Tables 2, 3) | [`copy`], [`copy_generic`], [`copy_plan`], [`gemm`] ([`algorithm`]); fast GEMM, GETT, CONV in `cute-gemm` |
//! | admissibility via `L†` (TMEM) | [`contains`], [`tmem_32x32b`], [`tmem_16x256b`] ([`admissibility`]) |
//!
//! ## Features
//!
//! * **Exact.** Every admissibility condition of the paper is checked; arithmetic is overflow-checked.
//! * **No heap, `const`.** Layouts of up to [`CAPACITY`] leaves are `Copy` values; every operation is
//!   a `const fn`, so the same code runs at compile time and at run time.
//! * **CuTe notation.** `Display` and `FromStr` print and parse `((2,2),(4,2)):((1,8),(2,16))`,
//!   `12:1` and tilers `<4:1,_>`, and round-trip.
//!
//! ## Examples
//!
//! Partitioning a data layout by a thread-value layout (the paper's Table 4) and splitting a layout
//! into tiles (Figure 12):
//!
//! ```
//! use cute::{composition, logical_divide, zipped_divide, Layout, Tiler};
//! let data: Layout = "(8,8):(8,1)".parse().unwrap();        // row-major 8×8
//! let tv: Layout = "((4,8),2):((16,1),8)".parse().unwrap(); // (thread, value) -> coordinate
//! assert_eq!(composition(&data, &tv).unwrap().to_string(), "((4,8),2):((2,8),1)");
//!
//! let a: Layout = "(8,16):(20,1)".parse().unwrap();
//! let t: Tiler = "<4:1,8:2>".parse().unwrap();
//! assert_eq!(logical_divide(&a, &t).unwrap().to_string(), "((4,2),(8,2)):((20,80),(2,1))");
//! assert_eq!(zipped_divide(&a, &t).unwrap().to_string(), "((4,8),(2,2)):((20,2),(80,1))");
//! ```
//!
//! Inadmissible operations are errors that say why:
//!
//! ```
//! use cute::{composition, Layout};
//! let a: Layout = "(4,6,8):(2,3,5)".parse().unwrap();
//! let b: Layout = "6:3".parse().unwrap();
//! let e = composition(&a, &b).unwrap_err();
//! assert_eq!(e.category(), "Divisibility");
//! assert_eq!(
//!     e.to_string(),
//!     "composition (4,6,8):(2,3,5) ∘ 6:3: stride-divisibility condition (9) fails at mode 1 of the \
//!      coalesced left operand: stride 3 and prefix product 4 divide neither way; decided exactly, \
//!      no layout compatible with the right operand computes A∘B: along leaf 0 of B, A(B(c)) at \
//!      c = 2·u is a progression for u < 2 but not at u = 2, so every such layout has a mode \
//!      boundary at c = 4, which does not divide the extent 6"
//! );
//! ```
//!
//! The same functions run in `const` context:
//!
//! ```
//! use cute::{right_inverse, Layout};
//! const L: Layout = match Layout::parse_const("(4,8):(8,1)") {
//!     Ok(l) => l,
//!     Err(_) => panic!("not a layout"),
//! };
//! const R: Layout = match right_inverse(&L) {
//!     Ok(r) => r,
//!     Err(_) => panic!("no right inverse"),
//! };
//! assert_eq!(R.to_string(), "(8,4):(4,1)"); // Table 5
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// Errors are plain `Copy` values that carry the operands (no heap), so that `const fn`s can return
// them; their size is the price of naming the operands in every message.
#![allow(clippy::result_large_err)]

pub mod admissibility;
pub mod algebra;
pub mod algorithm;
mod arith;
pub mod atom;
pub mod banks;
mod convert;
pub mod coord;
pub mod error;
pub mod eval;
mod fmt;
pub mod geometry;
pub mod int_tuple;
pub mod layout;
mod leaves;
pub mod linear;
mod parse;
pub mod partition;
pub mod registry;
pub mod slice;
pub mod static_layout;
pub mod stride;
pub mod swizzle;
pub mod symbolic;
pub mod tensor;
pub mod text;
pub mod tiled;
pub mod tiler;

pub use admissibility::{
    contains, tmem_16x256b, tmem_32x32b, Containment, CONTAINS_LIMIT, TMEM_LANE_STRIDE,
};
pub use algebra::coalesce::coalesce_z;
pub use algebra::coalesce::{coalesce, coalesce_profile, filter, filter_profile, filter_zeros};
pub use algebra::common::{max_common_layout, max_common_vector};
pub use algebra::complement::{complement, complement_to};
pub use algebra::composition::{composition, composition_tiler, with_shape};
pub use algebra::composition_mode::composition_mode;
pub use algebra::distribute::domain_distribute;
pub use algebra::divide::{flat_divide, logical_divide, tiled_divide, zipped_divide};
pub use algebra::inverse::{left_inverse, right_inverse};
pub use algebra::layout_add::{greatest_common_domain, layout_add};
pub use algebra::nullspace::nullspace;
pub use algebra::product::{
    blocked_product, flat_product, logical_product, raked_product, tile_to_shape, tiled_product,
    zipped_product,
};
pub use algebra::recast::{downcast, recast, upcast};
pub use algorithm::{
    copy, copy_generic, copy_modes, copy_plan, gemm, gemm_modes, CopyMode, CopyPlan, GemmModes,
};
pub use banks::{bank_conflicts, swizzle_search, BankReport, SmemLayout};
pub use convert::IntoIntTuple;
pub use coord::{crd2crd, crd2idx, crd2idx_compact, idx2crd};
pub use error::{unwrap, CompositionWitness, Error, ErrorKind, Op, Operand};
pub use eval::{IndexEvaluator, Offsets};
pub use int_tuple::{IntTuple, CAPACITY, MAX_DEPTH};
pub use layout::{
    compact_col_major, compact_row_major, make_identity_layout, make_layout, make_ordered_layout,
    Layout, WALK_LIMIT,
};
pub use linear::{linear_form, LinearForm};
pub use partition::{local_partition, local_tile, make_layout_tv, thread_coord, tv_partition};
pub use slice::{dice, slice, slice_and_offset, slice_and_value, slice_offset, PartialCoord};
pub use static_layout::{static_copy, static_gemm, StaticLayout, StaticTensor};
pub use stride::{ArithTuple, Semimodule, Stride, Value};
pub use swizzle::{ComposedLayout, Swizzle};
pub use tensor::{Storage, StorageMut, Tensor};
pub use text::{Text, TEXT_CAPACITY};
pub use tiler::{Tile, Tiler, MAX_TILES};
