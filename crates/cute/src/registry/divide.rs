//! Divides and products: logical/zipped/tiled/flat divide, logical/zipped/tiled/flat/blocked/raked product, tile_to_shape.

use super::{Args, Datum, Example, Kind, Operation, Param};

const LAYOUT: Param = Param::one("layout", "LAYOUT", Kind::Layout);
const TILER: Param = Param::one("tiler", "TILER", Kind::Tiler);

/// The operations of this area.
pub(super) const OPS: &[Operation] = &[
    Operation {
        name: "logical_divide",
        params: &[LAYOUT, TILER],
        result: Kind::Layout,
        doc: "Logical divide A ⊘ B = A ∘ (B, B*): each mode split into the tile and the rest.",
        example: Example {
            args: &["(8,16):(20,1)", "<4:1,8:2>"],
            value: "((4,2),(8,2)):((20,80),(2,1))",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::logical_divide(
                a.layout(0)?,
                a.tiler(1)?,
            )?))
        },
    },
    Operation {
        name: "zipped_divide",
        params: &[LAYOUT, TILER],
        result: Kind::Layout,
        doc: "Zipped divide: the tiles gathered in mode 0, the rest in mode 1.",
        example: Example {
            args: &["(8,16):(20,1)", "<4:1,8:2>"],
            value: "((4,8),(2,2)):((20,2),(80,1))",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::zipped_divide(
                a.layout(0)?,
                a.tiler(1)?,
            )?))
        },
    },
    Operation {
        name: "tiled_divide",
        params: &[LAYOUT, TILER],
        result: Kind::Layout,
        doc: "Tiled divide: the tile in mode 0, each rest mode a mode of its own.",
        example: Example {
            args: &["(8,16):(20,1)", "<4,8>"],
            value: "((4,8),2,2):((20,1),80,8)",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::tiled_divide(
                a.layout(0)?,
                a.tiler(1)?,
            )?))
        },
    },
    Operation {
        name: "flat_divide",
        params: &[LAYOUT, TILER],
        result: Kind::Layout,
        doc: "Flat divide: the tile's modes, then the rest's modes, all at the top level.",
        example: Example {
            args: &["(8,16):(20,1)", "<4,8>"],
            value: "(4,8,2,2):(20,1,80,8)",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::flat_divide(
                a.layout(0)?,
                a.tiler(1)?,
            )?))
        },
    },
    Operation {
        name: "logical_product",
        params: &[LAYOUT, TILER],
        result: Kind::Layout,
        doc: "Logical product A ⊗ B = (A, A* ∘ B): A repeated as B says.",
        example: Example {
            args: &["(2,2):(4,1)", "6:1"],
            value: "((2,2),(2,3)):((4,1),(2,8))",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::logical_product(
                a.layout(0)?,
                a.tiler(1)?,
            )?))
        },
    },
    Operation {
        name: "zipped_product",
        params: &[LAYOUT, TILER],
        result: Kind::Layout,
        doc: "Zipped product: A in mode 0, the repetition in mode 1 (by mode for a tuple tiler).",
        example: Example {
            args: &["(2,5):(5,1)", "<3:1,4:1>"],
            value: "((2,5),(3,4)):((5,1),(1,5))",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::zipped_product(
                a.layout(0)?,
                a.tiler(1)?,
            )?))
        },
    },
    Operation {
        name: "tiled_product",
        params: &[LAYOUT, TILER],
        result: Kind::Layout,
        doc: "Tiled product: A in mode 0, each repetition mode a mode of its own.",
        example: Example {
            args: &["(2,5):(5,1)", "<3:1,4:1>"],
            value: "((2,5),3,4):((5,1),1,5)",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::tiled_product(
                a.layout(0)?,
                a.tiler(1)?,
            )?))
        },
    },
    Operation {
        name: "flat_product",
        params: &[LAYOUT, TILER],
        result: Kind::Layout,
        doc: "Flat product: every mode of A and of the repetition at the top level.",
        example: Example {
            args: &["(2,5):(5,1)", "<3:1,4:1>"],
            value: "(2,5,3,4):(5,1,1,5)",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::flat_product(
                a.layout(0)?,
                a.tiler(1)?,
            )?))
        },
    },
    Operation {
        name: "blocked_product",
        params: &[
            Param::one("a", "LAYOUT", Kind::Layout),
            Param::one("b", "LAYOUT", Kind::Layout),
        ],
        result: Kind::Layout,
        doc: "Blocked product: A as the block, laid out as B says, mode by mode.",
        example: Example {
            args: &["(2,5):(5,1)", "(3,4):(1,3)"],
            value: "((2,3),(5,4)):((5,10),(1,30))",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::blocked_product(
                a.layout(0)?,
                a.layout(1)?,
            )?))
        },
    },
    Operation {
        name: "raked_product",
        params: &[
            Param::one("a", "LAYOUT", Kind::Layout),
            Param::one("b", "LAYOUT", Kind::Layout),
        ],
        result: Kind::Layout,
        doc: "Raked product: A's elements interleaved with the repetition, mode by mode.",
        example: Example {
            args: &["(2,5):(5,1)", "(3,4):(1,3)"],
            value: "((3,2),(4,5)):((10,5),(30,1))",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::raked_product(
                a.layout(0)?,
                a.layout(1)?,
            )?))
        },
    },
    Operation {
        name: "tile_to_shape",
        params: &[LAYOUT, Param::one("shape", "SHAPE", Kind::IntTuple)],
        result: Kind::Layout,
        doc: "A block layout repeated until it covers the shape.",
        example: Example {
            args: &["(2,2):(1,2)", "(4,6)"],
            value: "((2,2),(2,3)):((1,4),(2,8))",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::tile_to_shape(
                a.layout(0)?,
                a.tuple(1)?,
            )?))
        },
    },
];
