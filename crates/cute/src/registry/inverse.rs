//! Right and left inverse, nullspace, max common vector/layout, domain_distribute,
//! upcast/downcast/recast.

use super::{Args, Datum, Example, Kind, Operation, Param};

const LAYOUT: Param = Param::one("layout", "LAYOUT", Kind::Layout);
const A: Param = Param::one("a", "LAYOUT", Kind::Layout);
const B: Param = Param::one("b", "LAYOUT", Kind::Layout);
const N: Param = Param::one("n", "INT", Kind::Int);

/// The operations of this area.
pub(super) const OPS: &[Operation] = &[
    Operation {
        name: "right_inverse",
        params: &[LAYOUT],
        result: Kind::Layout,
        doc: "The right inverse R with L(R(i)) = i of the largest size.",
        example: Example {
            args: &["(4,8):(8,1)"],
            value: "(8,4):(4,1)",
        },
        entry: |a| Ok(Datum::Layout(crate::right_inverse(a.layout(0)?)?)),
    },
    Operation {
        name: "left_inverse",
        params: &[LAYOUT],
        result: Kind::Layout,
        doc: "The left inverse R: L(R(L(i))) = L(i) for every i < size(L), so R(L(i)) = i exactly when L is injective.",
        example: Example {
            args: &["(4,8):(8,1)"],
            value: "(8,4):(4,1)",
        },
        entry: |a| Ok(Datum::Layout(crate::left_inverse(a.layout(0)?)?)),
    },
    Operation {
        name: "nullspace",
        params: &[LAYOUT],
        result: Kind::Layout,
        doc: "The kernel of a layout: the coordinates it maps to 0, as a layout into its domain.",
        example: Example {
            args: &["(4,2,3):(1,0,4)"],
            value: "2:4",
        },
        entry: |a| Ok(Datum::Layout(crate::nullspace(a.layout(0)?)?)),
    },
    Operation {
        name: "max_common_layout",
        params: &[A, B],
        result: Kind::Layout,
        doc: "The layout of the largest common contiguous part of two layouts' coordinates.",
        example: Example {
            args: &["(4,8):(1,4)", "(4,8):(1,8)"],
            value: "4:1",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::max_common_layout(
                a.layout(0)?,
                a.layout(1)?,
            )?))
        },
    },
    Operation {
        name: "max_common_vector",
        params: &[A, B],
        result: Kind::Int,
        doc: "The number of elements both layouts map contiguously (the vector width).",
        example: Example {
            args: &["(4,8):(1,4)", "(4,8):(1,8)"],
            value: "4",
        },
        entry: |a| {
            Ok(Datum::Int(crate::max_common_vector(
                a.layout(0)?,
                a.layout(1)?,
            )?))
        },
    },
    Operation {
        name: "domain_distribute",
        params: &[Param::one("shape", "SHAPE", Kind::IntTuple), N],
        result: Kind::Layout,
        doc: "Distributes n elements over a shape from the left.",
        example: Example {
            args: &["(4,8)", "8"],
            value: "8:1",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::domain_distribute(
                a.tuple(0)?,
                a.int(1)?,
            )?))
        },
    },
    Operation {
        name: "upcast",
        params: &[LAYOUT, N],
        result: Kind::Layout,
        doc: "The layout for elements n times wider.",
        example: Example {
            args: &["(4,8):(1,4)", "2"],
            value: "(2,8):(1,2)",
        },
        entry: |a| Ok(Datum::Layout(crate::upcast(a.layout(0)?, a.int(1)?)?)),
    },
    Operation {
        name: "downcast",
        params: &[LAYOUT, N],
        result: Kind::Layout,
        doc: "The layout for elements n times narrower.",
        example: Example {
            args: &["(4,8):(1,4)", "2"],
            value: "(8,8):(1,8)",
        },
        entry: |a| Ok(Datum::Layout(crate::downcast(a.layout(0)?, a.int(1)?)?)),
    },
    Operation {
        name: "recast",
        params: &[LAYOUT, Param::one("scale", "SCALE", Kind::Scale)],
        result: Kind::Layout,
        doc: "The layout for a change of element size by num/den (new size / old size).",
        example: Example {
            args: &["(4,8):(1,4)", "1/2"],
            value: "(8,8):(1,8)",
        },
        entry: |a| match a.opt(1) {
            Some(Datum::Scale(num, den)) => {
                Ok(Datum::Layout(crate::recast(a.layout(0)?, *num, *den)?))
            }
            _ => Err(super::kind::not_a("a scale")),
        },
    },
];
