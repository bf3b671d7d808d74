//! Layouts, coordinates, coalesce, composition and complement.

use super::{Args, Datum, Example, Kind, Operation, Param};
use crate::Error;

const LAYOUT: Param = Param::one("layout", "LAYOUT", Kind::Layout);
const SHAPE: Param = Param::one("shape", "SHAPE", Kind::IntTuple);

/// The operations of this area.
pub(super) const OPS: &[Operation] = &[
    Operation {
        name: "coalesce",
        params: &[LAYOUT],
        result: Kind::Layout,
        doc: "The shortest flat layout with the same function.",
        example: Example { args: &["(2,(1,6)):(1,(6,2))"], value: "12:1" },
        entry: |a| Ok(Datum::Layout(crate::coalesce(a.layout(0)?))),
    },
    Operation {
        name: "coalesce_profile",
        params: &[LAYOUT, Param::one("profile", "PROFILE", Kind::Profile)],
        result: Kind::Layout,
        doc: "Coalesce by mode: only the modes the profile names (`_` leaves a mode untouched).",
        example: Example { args: &["((2,2),(2,2)):((1,2),(4,8))", "(_,1)"], value: "((2,2),4):((1,2),4)" },
        entry: |a| Ok(Datum::Layout(crate::coalesce_profile(a.layout(0)?, a.tiler(1)?)?)),
    },
    Operation {
        name: "filter",
        params: &[LAYOUT],
        result: Kind::Layout,
        doc: "Coalesce after dropping stride-0 and size-1 modes.",
        example: Example { args: &["(4,2,3):(1,0,4)"], value: "12:1" },
        entry: |a| Ok(Datum::Layout(crate::filter(a.layout(0)?))),
    },
    Operation {
        name: "filter_zeros",
        params: &[LAYOUT],
        result: Kind::Layout,
        doc: "Replaces stride-0 modes by size 1, keeping the shape's profile.",
        example: Example { args: &["(4,2):(1,0)"], value: "(4,1):(1,0)" },
        entry: |a| Ok(Datum::Layout(crate::filter_zeros(a.layout(0)?))),
    },
    Operation {
        name: "composition",
        params: &[
            Param::one("a", "LAYOUT", Kind::Layout),
            Param::one("b", "TILER", Kind::Tiler),
        ],
        result: Kind::Layout,
        doc: "Functional composition A ∘ B (R(c) = A(B(c))), B a tiler.",
        example: Example { args: &["(6,2):(8,2)", "(4,3):(3,1)"], value: "((2,2),3):((24,2),8)" },
        entry: |a| Ok(Datum::Layout(crate::composition_tiler(a.layout(0)?, a.tiler(1)?)?)),
    },
    Operation {
        name: "with_shape",
        params: &[LAYOUT, SHAPE],
        result: Kind::Layout,
        doc: "The layout reshaped to `shape`: composition(A, make_layout(shape)).",
        example: Example { args: &["24:2", "(4,6)"], value: "(4,6):(2,8)" },
        entry: |a| Ok(Datum::Layout(crate::with_shape(a.layout(0)?, a.tuple(1)?)?)),
    },
    Operation {
        name: "complement",
        params: &[LAYOUT, Param::optional("cotarget", "COTARGET", Kind::IntTuple)],
        result: Kind::Layout,
        doc: "The layout of the offsets the layout does not reach, up to `cotarget` (by default its cosize).",
        example: Example { args: &["4:2", "24"], value: "(2,3):(1,8)" },
        entry: |a| {
            let l = a.layout(0)?;
            Ok(Datum::Layout(match a.opt(1) {
                None => crate::complement(l)?,
                Some(_) => crate::complement_to(l, a.tuple(1)?)?,
            }))
        },
    },
    Operation {
        name: "eval_all",
        params: &[LAYOUT],
        result: Kind::Values,
        doc: "Every value of the layout, in index order (at most 2^16 of them).",
        example: Example { args: &["(2,3):(3,1)"], value: "(0,3,1,4,2,5)" },
        entry: |a| {
            let l = a.layout(0)?;
            let n = l.size();
            if n > super::EVAL_ALL_LIMIT {
                return Err(Error::new(
                    crate::Op::Eval,
                    crate::ErrorKind::Capacity {
                        what: "the size of a layout whose offsets eval_all lists",
                        limit: super::EVAL_ALL_LIMIT as usize,
                    },
                )
                .with(crate::Operand::Layout(*l), crate::Operand::None));
            }
            let values = (0..n).map(|i| l.eval_value(i)).collect::<Result<_, _>>()?;
            Ok(Datum::Values(values))
        },
    },
    Operation {
        name: "eval_int",
        params: &[LAYOUT, Param::one("index", "INT", Kind::Int)],
        result: Kind::Value,
        doc: "The value of the layout at a linear index.",
        example: Example { args: &["(4,8):(1,5)", "9"], value: "11" },
        entry: |a| Ok(Datum::Value(a.layout(0)?.eval_value(a.int(1)?)?)),
    },
    Operation {
        name: "eval_crd",
        params: &[LAYOUT, Param::one("coord", "COORD", Kind::IntTuple)],
        result: Kind::Value,
        doc: "The value of the layout at a coordinate.",
        example: Example { args: &["(4,8):(1,5)", "(1,2)"], value: "11" },
        entry: |a| Ok(Datum::Value(a.layout(0)?.eval_crd_value(a.tuple(1)?)?)),
    },
    Operation {
        name: "tiler_to_layout",
        params: &[Param::one("tiler", "TILER", Kind::Tiler)],
        result: Kind::Layout,
        doc: "The tiler as one layout (its tiles as the modes).",
        example: Example { args: &["<4:1,8:2>"], value: "(4,8):(1@0,2@1)" },
        entry: |a| Ok(Datum::Layout(a.tiler(0)?.tiler_to_layout()?)),
    },
    Operation {
        name: "linear_form",
        params: &[LAYOUT],
        result: Kind::Text,
        doc: "The layout as a linear form of its coordinates.",
        example: Example { args: &["(4,8):(1,4)"], value: "[1 4]" },
        entry: |a| Ok(Datum::Text(crate::linear_form(a.layout(0)?)?.to_string())),
    },
    Operation {
        name: "make_identity_layout",
        params: &[SHAPE],
        result: Kind::Layout,
        doc: "The identity layout of a shape: (s0,s1,…):(E(0),E(1),…).",
        example: Example { args: &["(4,6)"], value: "(4,6):(1@0,1@1)" },
        entry: |a| Ok(Datum::Layout(crate::make_identity_layout(a.tuple(0)?)?)),
    },
    Operation {
        name: "f2_layout",
        params: &[Param::one("composed", "COMPOSED", Kind::Composed)],
        result: Kind::Layout,
        doc: "A swizzled layout as one layout with F2 strides.",
        example: Example { args: &["Sw<3,3,3> o 0 o (8,64):(64,1)"], value: "(8,64):(F72,F1)" },
        entry: |a| match a.opt(0) {
            Some(Datum::Composed(c)) => Ok(Datum::Layout(c.to_f2_layout()?)),
            _ => Err(super::kind::not_a("a swizzled layout")),
        },
    },
    Operation {
        name: "swizzle_of",
        params: &[LAYOUT],
        result: Kind::Swizzle,
        doc: "The swizzle whose F2 layout the layout is.",
        example: Example { args: &["(8,8):(F1,F9)"], value: "Sw<3,0,3>" },
        entry: |a| Ok(Datum::Swizzle(crate::Swizzle::from_f2_layout(a.layout(0)?)?)),
    },
    Operation {
        name: "idx2crd",
        params: &[Param::one("idx", "COORD", Kind::IntTuple), SHAPE],
        result: Kind::IntTuple,
        doc: "The coordinate of an index (or of a coarser coordinate) in a shape, colexicographic.",
        example: Example { args: &["9", "(4,8)"], value: "(1,2)" },
        entry: |a| Ok(Datum::Tuple(crate::idx2crd(a.tuple(0)?, a.tuple(1)?)?)),
    },
    Operation {
        name: "crd2idx",
        params: &[
            Param::one("crd", "COORD", Kind::IntTuple),
            SHAPE,
            Param::optional("stride", "STRIDE", Kind::IntTuple),
        ],
        result: Kind::Int,
        doc: "The index of a coordinate: with a stride the inner product, without it colexicographic in the shape.",
        example: Example { args: &["(1,2)", "(4,8)", "(8,1)"], value: "10" },
        entry: |a| {
            let (c, s) = (a.tuple(0)?, a.tuple(1)?);
            Ok(Datum::Int(match a.opt(2) {
                Some(_) => crate::crd2idx(c, s, a.tuple(2)?)?,
                None => crate::crd2idx_compact(c, s)?,
            }))
        },
    },
    Operation {
        name: "make_ordered_layout",
        params: &[SHAPE, Param::one("order", "ORDER", Kind::IntTuple)],
        result: Kind::Layout,
        doc: "The compact layout whose modes increase in stride in the given order.",
        example: Example { args: &["(4,8,2)", "(1,2,0)"], value: "(4,8,2):(2,8,1)" },
        entry: |a| Ok(Datum::Layout(crate::make_ordered_layout(a.tuple(0)?, a.tuple(1)?)?)),
    },
    Operation {
        name: "compact_col_major",
        params: &[SHAPE],
        result: Kind::Layout,
        doc: "The compact column-major layout of a shape.",
        example: Example { args: &["(4,(2,3))"], value: "(4,(2,3)):(1,(4,8))" },
        entry: |a| Ok(Datum::Layout(crate::compact_col_major(a.tuple(0)?)?)),
    },
    Operation {
        name: "compact_row_major",
        params: &[SHAPE],
        result: Kind::Layout,
        doc: "The compact row-major layout of a shape.",
        example: Example { args: &["(4,(2,3))"], value: "(4,(2,3)):(6,(3,1))" },
        entry: |a| Ok(Datum::Layout(crate::compact_row_major(a.tuple(0)?)?)),
    },
];
