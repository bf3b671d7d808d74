//! Queries and rearrangements of tuples and layouts (paper §4): size, cosize, rank, depth, shape,
//! stride, modes, flatten, image, concatenation, and the relations between shapes (congruence, weak
//! congruence, compatibility) and `crd2crd`.

use super::{Args, Datum, Example, Kind, Operation, Param};
use crate::{Error, Layout};

const LAYOUT: Param = Param::one("layout", "LAYOUT", Kind::Layout);
const X: Param = Param::one("x", "LAYOUT|TUPLE", Kind::LayoutOrTuple);
const A: Param = Param::one("a", "TUPLE", Kind::IntTuple);
const B: Param = Param::one("b", "TUPLE", Kind::IntTuple);
const NESTED: &str = "(4,(2,3)):(1,(4,8))";

/// Applies `on_layout` or `on_tuple` to argument 0, whichever it is.
fn either(
    a: &[Datum],
    on_layout: impl FnOnce(&Layout) -> Result<Datum, Error>,
    on_tuple: impl FnOnce(&crate::IntTuple) -> Result<Datum, Error>,
) -> Result<Datum, Error> {
    match a.opt(0) {
        Some(Datum::Layout(l)) => on_layout(l),
        _ => on_tuple(a.tuple(0)?),
    }
}

/// The operations of this area.
pub(super) const OPS: &[Operation] = &[
    Operation {
        name: "size",
        params: &[X],
        result: Kind::Int,
        doc: "The size of a layout's domain, or the product of a tuple's leaves.",
        example: Example {
            args: &["(4,8):(1,4)"],
            value: "32",
        },
        entry: |a| {
            either(
                a,
                |l| Ok(Datum::Int(l.size())),
                |t| Ok(Datum::Int(t.size()?)),
            )
        },
    },
    Operation {
        name: "cosize",
        params: &[Param::one("x", "LAYOUT", Kind::Layout)],
        result: Kind::Int,
        doc: "The size of a layout's codomain: its largest offset plus one.",
        example: Example {
            args: &["(4,8):(1,8)"],
            value: "60",
        },
        entry: |a| Ok(Datum::Int(a.layout(0)?.cosize()?)),
    },
    Operation {
        name: "rank",
        params: &[X],
        result: Kind::Int,
        doc: "The number of top-level modes of a layout or a tuple.",
        example: Example {
            args: &[NESTED],
            value: "2",
        },
        entry: |a| {
            either(
                a,
                |l| Ok(Datum::Int(l.rank() as i64)),
                |t| Ok(Datum::Int(t.rank() as i64)),
            )
        },
    },
    Operation {
        name: "depth",
        params: &[X],
        result: Kind::Int,
        doc: "The nesting depth of a layout's shape or of a tuple.",
        example: Example {
            args: &[NESTED],
            value: "2",
        },
        entry: |a| {
            either(
                a,
                |l| Ok(Datum::Int(l.depth() as i64)),
                |t| Ok(Datum::Int(t.depth() as i64)),
            )
        },
    },
    Operation {
        name: "shape",
        params: &[Param::one("l", "LAYOUT", Kind::Layout)],
        result: Kind::IntTuple,
        doc: "The shape of a layout.",
        example: Example {
            args: &[NESTED],
            value: "(4,(2,3))",
        },
        entry: |a| Ok(Datum::Tuple(a.layout(0)?.shape())),
    },
    Operation {
        name: "stride",
        params: &[Param::one("l", "LAYOUT", Kind::Layout)],
        result: Kind::IntTuple,
        doc: "The stride of a layout.",
        example: Example {
            args: &[NESTED],
            value: "(1,(4,8))",
        },
        entry: |a| Ok(Datum::Tuple(a.layout(0)?.stride())),
    },
    Operation {
        name: "flatten",
        params: &[X],
        result: Kind::LayoutOrTuple,
        doc: "A layout or a tuple flattened: every leaf its own mode.",
        example: Example {
            args: &[NESTED],
            value: "(4,2,3):(1,4,8)",
        },
        entry: |a| {
            either(
                a,
                |l| Ok(Datum::Layout(l.flatten())),
                |t| Ok(Datum::Tuple(t.flatten())),
            )
        },
    },
    Operation {
        name: "get",
        params: &[X, Param::any("index", "INDEX", Kind::Int)],
        result: Kind::LayoutOrTuple,
        doc: "The mode of a layout or a tuple at a path of mode indices.",
        example: Example {
            args: &[NESTED, "1", "0"],
            value: "2:4",
        },
        entry: |a| {
            let path: Vec<usize> = (1..a.len())
                .map(|k| a.int(k).map(|v| usize::try_from(v).unwrap_or(usize::MAX)))
                .collect::<Result<_, _>>()?;
            either(
                a,
                |l| Ok(Datum::Layout(l.get(&path)?)),
                |t| Ok(Datum::Tuple(t.get_path(&path)?)),
            )
        },
    },
    Operation {
        name: "image",
        params: &[LAYOUT],
        result: Kind::Set,
        doc: "The set of offsets a layout reaches, sorted (layouts of at most 2^16 elements).",
        example: Example {
            args: &["(2,3):(3,0)"],
            value: "{0,3}",
        },
        entry: |a| {
            let l = a.layout(0)?;
            if l.size() > super::EVAL_ALL_LIMIT {
                return Err(Error::new(
                    crate::Op::Image,
                    crate::ErrorKind::Capacity {
                        what: "the size of a layout whose image is listed",
                        limit: super::EVAL_ALL_LIMIT as usize,
                    },
                )
                .with(crate::Operand::Layout(*l), crate::Operand::None));
            }
            Ok(Datum::Set(l.image()?))
        },
    },
    Operation {
        name: "make_layout",
        params: &[Param::many("layouts", "LAYOUT", Kind::Layout)],
        result: Kind::Layout,
        doc: "The concatenation of layouts, each one mode of the result.",
        example: Example {
            args: &["4:1", "(2,3):(4,8)"],
            value: "(4,(2,3)):(1,(4,8))",
        },
        entry: |a| {
            let ls: Vec<Layout> = (0..a.len())
                .map(|k| a.layout(k).copied())
                .collect::<Result<_, _>>()?;
            Ok(Datum::Layout(Layout::concat(&ls)?))
        },
    },
    Operation {
        name: "congruent",
        params: &[A, B],
        result: Kind::Bool,
        doc: "True when two tuples have the same profile.",
        example: Example {
            args: &["(1,(2,3))", "(4,(5,6))"],
            value: "true",
        },
        entry: |a| Ok(Datum::Bool(a.tuple(0)?.congruent(a.tuple(1)?))),
    },
    Operation {
        name: "weakly_congruent",
        params: &[A, B],
        result: Kind::Bool,
        doc: "True when a's profile is a coarsening of b's (an int matches anything).",
        example: Example {
            args: &["1", "(2,3)"],
            value: "true",
        },
        entry: |a| Ok(Datum::Bool(a.tuple(0)?.weakly_congruent(a.tuple(1)?))),
    },
    Operation {
        name: "compatible",
        params: &[A, B],
        result: Kind::Bool,
        doc: "True when every coordinate of shape a is a coordinate of shape b.",
        example: Example {
            args: &["24", "(4,6)"],
            value: "true",
        },
        entry: |a| Ok(Datum::Bool(a.tuple(0)?.compatible(a.tuple(1)?))),
    },
    Operation {
        name: "crd2crd",
        params: &[
            Param::one("crd", "COORD", Kind::IntTuple),
            Param::one("src", "SHAPE", Kind::IntTuple),
            Param::one("dst", "SHAPE", Kind::IntTuple),
        ],
        result: Kind::IntTuple,
        doc: "A coordinate of shape src as a coordinate of the compatible shape dst.",
        example: Example {
            args: &["(1,2)", "(4,8)", "32"],
            value: "9",
        },
        entry: |a| {
            Ok(Datum::Tuple(crate::crd2crd(
                a.tuple(0)?,
                a.tuple(1)?,
                a.tuple(2)?,
            )?))
        },
    },
];
