//! The operations PyCuTe has and C++ lacks: coalesce_z, composition_mode, layout_add,
//! greatest_common_domain.

use super::{Args, Datum, Example, Kind, Operation, Param};

const LAYOUT: Param = Param::one("layout", "LAYOUT", Kind::Layout);

/// The operations of this area.
pub(super) const OPS: &[Operation] = &[
    Operation {
        name: "coalesce_z",
        params: &[LAYOUT],
        result: Kind::Layout,
        doc: "PyCuTe's coalesce that also drops stride-0 modes from the coalesced form.",
        example: Example {
            args: &["(2,1,6,1):(1,7,8,0)"],
            value: "(2,6,1):(1,8,0)",
        },
        entry: |a| Ok(Datum::Layout(crate::coalesce_z(a.layout(0)?))),
    },
    Operation {
        name: "composition_mode",
        params: &[
            LAYOUT,
            Param::one("mode", "MODE", Kind::Mode),
            Param::one("tiler", "TILER", Kind::Tiler),
        ],
        result: Kind::Layout,
        doc: "PyCuTe's composition of one mode: mode `mode` of the layout composed with the tiler.",
        example: Example {
            args: &["(4,8):(1,4)", "1", "4:2"],
            value: "(4,4):(1,8)",
        },
        entry: |a| {
            let mode = usize::try_from(a.int(1)?)
                .map_err(|_| super::kind::not_a("a non-negative mode index"))?;
            Ok(Datum::Layout(crate::composition_mode(
                a.layout(0)?,
                mode,
                a.tiler(2)?,
            )?))
        },
    },
    Operation {
        name: "layout_add",
        params: &[
            Param::one("a", "LAYOUT", Kind::Layout),
            Param::one("b", "LAYOUT", Kind::Layout),
        ],
        result: Kind::Layout,
        doc: "PyCuTe's layout sum: (A + B)(c) = A(c) + B(c) over a common domain.",
        example: Example {
            args: &["(4,8):(1,0)", "(4,8):(0,4)"],
            value: "32:1",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::layout_add(
                a.layout(0)?,
                a.layout(1)?,
            )?))
        },
    },
    Operation {
        name: "greatest_common_domain",
        params: &[
            Param::one("s", "SHAPE", Kind::ShapeOrLayout),
            Param::one("t", "SHAPE", Kind::ShapeOrLayout),
        ],
        result: Kind::Layout,
        doc: "PyCuTe's greatest common domain of two shapes (or layouts' shapes).",
        example: Example {
            args: &["(4,6)", "(8,3)"],
            value: "(4,2,3):(1,4,8)",
        },
        entry: |a| {
            Ok(Datum::Layout(crate::greatest_common_domain(
                a.tuple(0)?,
                a.tuple(1)?,
            )?))
        },
    },
];
