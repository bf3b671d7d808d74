//! Slicing, partitioning and admissibility: slice, slice_offset, dice, tv_partition,
//! make_layout_tv, local_tile, local_partition, copy_plan (containment is the `cute contains`
//! report).
//!
//! A slice or partition prints as the paper writes a tensor over the counting accessor:
//! `{offset} ∘ layout`.

use super::{int, layout, Args, Datum, Example, Kind, Operation, Param};
use crate::{Error, Layout};

const LAYOUT: Param = Param::one("layout", "LAYOUT", Kind::Layout);
const COORD: Param = Param::one("coord", "COORD", Kind::Coord);

/// The operations of this area.
pub(super) const OPS: &[Operation] = &[
    Operation {
        name: "slice",
        params: &[LAYOUT, COORD],
        result: Kind::Layout,
        doc: "The sub-layout of the free (`_`) modes of a partial coordinate.",
        example: Example { args: &["(4,8):(1,4)", "(2,_)"], value: "(8):(4)" },
        entry: |a| Ok(Datum::Layout(crate::slice(a.layout(0)?, a.coord(1)?)?)),
    },
    Operation {
        name: "slice_offset",
        params: &[LAYOUT, COORD],
        result: Kind::Value,
        doc: "The value of the fixed part of a partial coordinate (the offset where the slice starts).",
        example: Example { args: &["(4,8):(1,4)", "(_,3)"], value: "12" },
        // the offset in the layout's semimodule (an arithmetic tuple for e_i strides)
        entry: |a| Ok(Datum::Value(crate::slice_and_value(a.layout(0)?, a.coord(1)?)?.1)),
    },
    Operation {
        name: "dice",
        params: &[LAYOUT, COORD],
        result: Kind::Layout,
        doc: "The sub-layout of the fixed modes of a partial coordinate (the complement of slice).",
        example: Example { args: &["(4,8):(1,4)", "(2,_)"], value: "(4):(1)" },
        entry: |a| Ok(Datum::Layout(crate::dice(a.layout(0)?, a.coord(1)?)?)),
    },
    Operation {
        name: "tv_partition",
        params: &[
            Param::one("data", "LAYOUT", Kind::Layout),
            Param::one("tv", "TV", Kind::Layout),
            Param::one("thread", "THREAD", Kind::Int),
        ],
        result: Kind::Counting,
        doc: "A thread's values of a data layout under a thread-value layout: layout and offset.",
        example: Example { args: &["(8,8):(8,1)", "((4,8),2):((16,1),8)", "1"], value: "{2} ∘ (2):(1)" },
        entry: |a| {
            let (l, off) = crate::tv_partition(a.layout(0)?, a.layout(1)?, a.int(2)?)?;
            Ok(Datum::Counting(l, off))
        },
    },
    Operation {
        name: "make_layout_tv",
        params: &[
            Param::one("thr", "THR", Kind::Layout),
            Param::one("val", "VAL", Kind::Layout),
        ],
        result: Kind::ShapeAndLayout,
        doc: "CuTe's make_layout_tv(thr, val): the tile shape and the thread-value layout.",
        example: Example { args: &["(4,8):(1,4)", "(2,1):(1,2)"], value: "(8,8) (32,2):(2,1)" },
        entry: |a| {
            let (tiler, tv) = crate::make_layout_tv(a.layout(0)?, a.layout(1)?)?;
            Ok(Datum::ShapeAndLayout(tiler, tv))
        },
    },
    Operation {
        name: "local_tile",
        params: &[LAYOUT, Param::one("tiler", "TILER", Kind::Tiler), COORD],
        result: Kind::Counting,
        doc: "The tile of zipped_divide(L, tiler) at a tile coordinate: layout and offset.",
        example: Example { args: &["(8,16):(16,1)", "<4,8>", "(1,1)"], value: "{72} ∘ (4,8):(16,1)" },
        entry: |a| {
            let (l, off) = crate::local_tile(a.layout(0)?, a.tiler(1)?, a.coord(2)?)?;
            Ok(Datum::Counting(l, off))
        },
    },
    Operation {
        name: "local_partition",
        params: &[
            LAYOUT,
            Param::one("thr", "THR", Kind::Layout),
            Param::one("index", "INDEX", Kind::Int),
        ],
        result: Kind::Counting,
        doc: "The elements a thread of a thread layout owns in every tile: layout and offset.",
        example: Example { args: &["(8,8):(1,8)", "(4,2):(1,4)", "5"], value: "{9} ∘ (2,4):(4,16)" },
        entry: |a| {
            let (l, off) = crate::local_partition(a.layout(0)?, a.layout(1)?, a.int(2)?)?;
            Ok(Datum::Counting(l, off))
        },
    },
    Operation {
        name: "copy_plan",
        params: &[
            Param::one("src", "SRC", Kind::Layout),
            Param::one("dst", "DST", Kind::Layout),
        ],
        result: Kind::Text,
        doc: "How a copy between two layouts vectorises: the vector width and the loops, or the reference loop.",
        example: Example { args: &["(4,8):(1,4)", "(4,8):(1,8)"], value: "vector 4, loops (8:4:8)" },
        entry: |a| {
            Ok(Datum::Text(match crate::copy_plan(a.layout(0)?, a.layout(1)?)? {
                None => "reference loop".to_string(),
                Some(p) => plan_text(&p),
            }))
        },
    },
];

/// `{offset} ∘ layout`, a tensor over the counting accessor.
///
/// ```
/// use cute::registry::tensor::counting;
/// assert_eq!(counting(("(4,8):(1,4)".parse().unwrap(), 5)), "{5} ∘ (4,8):(1,4)");
/// ```
pub fn counting((l, off): (Layout, i64)) -> String {
    format!("{{{off}}} ∘ {l}")
}

/// An instruction's access layout: a layout, or a TMEM instruction name `tmem_32x32b[.xN]`,
/// `tmem_16x256b[.xN]`.
///
/// ```
/// use cute::registry::tensor::instruction;
/// use cute::tmem_32x32b;
/// assert_eq!(instruction("tmem_32x32b.x2").unwrap(), tmem_32x32b(2).unwrap());
/// assert_eq!(instruction("(32,4):(1,32)").unwrap().to_string(), "(32,4):(1,32)");
/// ```
///
/// # Errors
///
/// The parse errors of a layout, or for a TMEM name a suffix that is not `.xN` with `N` an integer,
/// and the errors of [`tmem_32x32b`](crate::tmem_32x32b) and [`tmem_16x256b`](crate::tmem_16x256b)
/// for `N`.
pub fn instruction(s: &str) -> Result<Layout, Error> {
    for (name, f) in [
        (
            "tmem_32x32b",
            crate::tmem_32x32b as fn(i64) -> Result<Layout, Error>,
        ),
        ("tmem_16x256b", crate::tmem_16x256b),
    ] {
        if let Some(rest) = s.strip_prefix(name) {
            let n = match rest.strip_prefix(".x") {
                Some(n) => int(n).map_err(|e| super::shifted(e, name.len() + 2))?,
                None if rest.is_empty() => 1,
                None => break,
            };
            return f(n);
        }
    }
    layout(s)
}

/// `vector V, loops (n:src_stride:dst_stride, ...)`, innermost first.
///
/// ```
/// use cute::{copy_plan, registry::tensor::plan_text, Layout};
/// let src: Layout = "(4,8):(1,4)".parse().unwrap();
/// let dst: Layout = "(4,8):(1,8)".parse().unwrap();
/// let plan = copy_plan(&src, &dst).unwrap().unwrap();
/// assert_eq!(plan_text(&plan), "vector 4, loops (8:4:8)");
/// ```
pub fn plan_text(p: &crate::CopyPlan) -> String {
    let loops: Vec<String> = p
        .modes
        .iter()
        .map(|m| format!("{}:{}:{}", m.n, m.src_stride, m.dst_stride))
        .collect();
    format!("vector {}, loops ({})", p.vector, loops.join(","))
}
