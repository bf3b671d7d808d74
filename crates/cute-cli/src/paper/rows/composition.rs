//! Coalesce, composition (identity, associativity, divisibility), partitioning and by-mode
//! composition with tilers.

use super::Tour;
use crate::paper::checks as c;
use crate::paper::{Row, Section};

pub(super) fn coalesce(t: &mut Tour) {
    t.section(Section::Coalesce);
    let by_mode = |id, a: &'static str, paper| {
        Row::op(id, "coalesce_profile", &[a, "(1,1)"], paper).what(format!("coalesce({a}, <*,*>)"))
    };
    t.op("S-COAL-1", "coalesce", &["(2,(1,6)):(1,(6,2))"], "12:1");
    t.push(by_mode("S-COAL-2", "(2,(1,6)):(1,(6,2))", "(2,6):(1,2)"));
    t.op("S-COAL-3", "coalesce", &["(1,6):(6,2)"], "6:2");
    t.op(
        "S-COAL-4",
        "coalesce",
        &["((4,3),5):((15,1),3)"],
        "(4,15):(15,1)",
    );
    t.push(by_mode(
        "S-COAL-5",
        "((4,3),5):((15,1),3)",
        "((4,3),5):((15,1),3)",
    ));
    t.op(
        "S-COAL-6",
        "coalesce",
        &["(4,(3,5)):(15,(1,3))"],
        "(4,15):(15,1)",
    );
    t.push(by_mode("S-COAL-7", "(4,(3,5)):(15,(1,3))", "(4,15):(15,1)"));
}

pub(super) fn composition(t: &mut Tour) {
    t.section(Section::Identity);
    for (id, l) in [
        ("S-ID-1", "24:1"),
        ("S-ID-2", "(4,6):(1,4)"),
        ("S-ID-3", "(3,(4,2)):(1,(3,12))"),
    ] {
        t.push(Row::check(
            id,
            "identity",
            &[l],
            format!("{l} as I_24"),
            "L(i) = i for i < 24",
            c::identity,
        ));
    }
    for (id, l) in [
        ("S-ID-4", "(4,6):(1@0,1@1)"),
        ("S-ID-5", "(4,(3,2)):(1@0,(1@1,3@1))"),
    ] {
        t.push(Row::check(
            id,
            "identity",
            &[l, "(4,6)"],
            format!("{l} as I_(4,6)"),
            "L(i,j) = (i,j) for (i,j) ∈ Z_(4,6)",
            c::coordinate_identity,
        ));
    }

    t.section(Section::Associativity);
    t.op("S-ASSOC-1", "composition", &["4:1", "2:5"], "2:5");
    t.op("S-ASSOC-2", "composition", &["(5,3):(1,7)", "2:5"], "2:7");
    t.op("S-ASSOC-3", "composition", &["(5,3):(1,7)", "4:1"], "4:1");
    t.push(Row::check(
        "S-ASSOC-4",
        "associativity",
        &["(5,3):(1,7)", "4:1", "2:5"],
        "(5,3):(1,7) ∘ [4:1 ∘ 2:5] vs [(5,3):(1,7) ∘ 4:1] ∘ 2:5",
        "2:7 ≠ 2:5",
        c::associativity,
    ));

    t.section(Section::Composition);
    t.op("S-COMP-1", "composition", &["7:11", "3:4"], "3:44");
    t.op(
        "S-COMP-2",
        "composition",
        &["7:11", "(3,5):(6,3)"],
        "(3,5):(66,33)",
    );
    t.op(
        "S-COMP-3",
        "composition",
        &["(4,6,8,10):(2,3,5,7)", "6:12"],
        "(2,3):(9,5)",
    );
    t.push(
        Row::op(
            "S-COMP-4",
            "composition",
            &["(1,2,8,10):(0,9,5,7)", "6:1"],
            "(2,3):(9,5)",
        )
        .what("composition((1,2,8,10):(X,9,5,7), 6:1)")
        .note("numeric stand-in X:=0 (the stride of a size-1 mode)"),
    );
    t.op(
        "S-COMP-5",
        "composition",
        &["(4,6,3):(2,3,5)", "6:12"],
        "(2,3):(9,5)",
    );
    t.push(Row::check(
        "S-COMP-6",
        "composition",
        &[
            "(4,6,8,10):(2,3,5,7)",
            "(1,2,8,10):(0,9,5,7)",
            "(4,6,3):(2,3,5)",
        ],
        "divide out the first 12 / keep the first 72 of (4,6,8,10):(2,3,5,7), then ∘ 6:12",
        "both routes = (2,3):(9,5)",
        c::composition_routes,
    ));
    let viol = |id, a: &'static str, b: &'static str, paper| {
        Row::op(id, "composition", &[a, b], paper).expect("ERROR Divisibility")
    };
    t.push(viol(
        "S-VIOL-1",
        "(4,6,8):(2,3,5)",
        "6:3",
        "inadmissible: stride divisibility (9)",
    ));
    t.push(viol(
        "S-VIOL-2",
        "(4,6,8):(2,3,5)",
        "6:1",
        "inadmissible: shape divisibility (10)",
    ));
    t.op(
        "S-APP-1",
        "composition",
        &["(4,2,8):(3,12,97)", "3:3"],
        "3:9",
    );
    t.op(
        "S-APP-2",
        "coalesce",
        &["(4,2,8):(3,12,97)"],
        "(8,8):(3,97)",
    );
    t.op("S-APP-3", "composition", &["(8,8):(3,97)", "3:3"], "3:9");
    t.op("S-APP-4", "composition", &["8:3", "3:3"], "3:9");
    t.push(viol(
        "S-VIOL-3",
        "(4,2,8):(3,12,97)",
        "4:3",
        "inadmissible: cannot be truncated enough",
    ));
    t.push(viol(
        "S-VIOL-4",
        "(4,2,8):(3,15,97)",
        "3:3",
        "inadmissible: cannot be coalesced",
    ));
}

pub(super) fn partitioning(t: &mut Tour) {
    t.section(Section::Partitioning);
    const TV: &str = "((4,8),2):((16,1),8)";
    t.push(Row::check(
        "F6-1",
        "tv_layout",
        &[TV],
        format!("ThrValLayoutC = {TV}: (thread, value) ↦ 8×8 coordinate"),
        "bijective on Z_64, (32,2) ⪯ shape",
        c::tv_bijection,
    ));
    for (id, name, data, paper) in [
        ("T4.1", "ColMajor", "(8,8):(1,8)", "((4,8),2):((16,1),8)"),
        ("T4.2", "RowMajor", "(8,8):(8,1)", "((4,8),2):((2,8),1)"),
        ("T4.3", "Padded", "(8,8):(1,9)", "((4,8),2):((18,1),9)"),
        (
            "T4.4",
            "ColInterleaved",
            "((4,2),(2,4)):((2,16),(1,8))",
            "((4,(4,2)),2):((8,(2,16)),1)",
        ),
    ] {
        t.push(
            Row::op(id, "composition", &[data, TV], paper)
                .what(format!("{name}: {data} ∘ ThrValLayoutC")),
        );
    }
    for (id, name, data, paper) in [
        (
            "T4.5",
            "Swizzled",
            "(8,8):(F1,F9)",
            "((4,8),2):((F18,F1),F9)",
        ),
        (
            "T4.6",
            "Coordinate",
            "(8,8):(1@0,1@1)",
            "((4,8),2):((2@1,1@0),1@1)",
        ),
    ] {
        t.push(
            Row::op(id, "composition", &[data, TV], paper)
                .what(format!("{name}: {data} ∘ ThrValLayoutC")),
        );
    }
}

pub(super) fn tilers(t: &mut Tour) {
    t.section(Section::Tilers);
    const L: &str = "(8,16):(20,1)";
    t.push(
        Row::op("S-TILE-1", "composition", &[L, "<4:1,8:1>"], "(4,8):(20,1)")
            .note("L = (8,16):(20,1) stands for Figure 7's 8×16 layout (not in the translation)"),
    );
    t.push(
        Row::op("S-TILE-2", "composition", &[L, "(4,8)"], "(4,8):(20,1)")
            .what("composition((8,16):(20,1), (4,8)), the shape (4,8) as the tiler <4,8>"),
    );
    t.push(
        Row::op(
            "S-TILE-3",
            "composition",
            &[L, "(4,8):(1@0,1@1)"],
            "(4,8):(20,1)",
        )
        .what("composition((8,16):(20,1), (4,8):(e0,e1)), the coordinate layout as the tiler"),
    );
    t.push(
        Row::check(
            "S-TILE-4",
            "composition",
            &[L, "(4,8):(1,1)"],
            "L ∘ (4:1,8:1), the concatenation (4:1,8:1) = (4,8):(1,1)",
            "≡ <4:1,8:1>, i.e. (4,8):(20,1)",
            c::tile_concatenation,
        )
        .erratum("(4:1,8:1) ≢ <4:1,8:1>: L ∘ (4,8):(1,1) is inadmissible (12)"),
    );
    t.push(Row::check(
        "S-TILE-5",
        "composition",
        &[L, "<4:1,8:2>"],
        "L ∘ T with T = <4:1,8:2> (integer part of L∘T ≡ L∘(M,N):(e0,e1)∘T)",
        "(4,8):(20,2)",
        c::tiler_pointwise,
    ));
}
