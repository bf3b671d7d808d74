//! Logical, blocked and raked products (Figures 10-11) and the divides (Figure 12).

use super::Tour;
use crate::paper::{Row, Section};

pub(super) fn products(t: &mut Tour) {
    t.section(Section::Product);
    t.op("S-LP-1", "complement", &["(3,4):(4,1)"], "1:12");
    t.push(
        Row::op(
            "S-LP-1b",
            "composition",
            &["1:12", "(2,5):(1,2)"],
            "(2,5):(12,24)",
        )
        .note("A* ∘ B, the second mode of the product; uses A* past its size: A*(2) = 24"),
    );
    t.op(
        "S-LP-2",
        "logical_product",
        &["(3,4):(4,1)", "(2,5):(1,2)"],
        "((3,4),(2,5)):((4,1),(12,24))",
    );
    t.op("S-LP-3", "complement", &["(4,8):(20,2)"], "(2,1):(1,80)");
    t.push(
        Row::op(
            "S-LP-3b",
            "composition",
            &["(2,1):(1,80)", "(3,2):(2,1)"],
            "(3,2):(80,1)",
        )
        .note("A* ∘ B; needs A*(2) = 80 on the extended domain (the trailing size-1 mode of A*)"),
    );
    t.op(
        "S-LP-4",
        "logical_product",
        &["(4,8):(20,2)", "(3,2):(2,1)"],
        "((4,8),(3,2)):((20,2),(80,1))",
    );
    t.op(
        "S-LP-5",
        "blocked_product",
        &["(3,4):(4,1)", "(2,5):(1,2)"],
        "((3,2),(4,5)):((4,12),(1,24))",
    );
    t.op(
        "S-LP-6",
        "raked_product",
        &["(3,4):(4,1)", "(2,5):(1,2)"],
        "((2,3),(5,4)):((12,4),(24,1))",
    );
}

pub(super) fn divides(t: &mut Tour) {
    t.section(Section::Divide);
    t.op("S-LD-1", "composition", &["24:3", "8:3"], "8:9");
    t.op(
        "S-LD-2",
        "composition",
        &["(6,2,2):(2,1,20)", "8:3"],
        "(2,2,2):(6,1,20)",
    );
    t.op("S-LD-3", "complement", &["8:3", "24"], "3:1");
    t.op("S-LD-4", "logical_divide", &["24:3", "8:3"], "(8,3):(9,3)");
    t.op(
        "S-LD-5",
        "composition",
        &["24:3", "(8,3):(3,1)"],
        "(8,3):(9,3)",
    );
    t.op(
        "S-LD-6",
        "logical_divide",
        &["(6,2,2):(2,1,20)", "8:3"],
        "((2,2,2),3):((6,1,20),2)",
    );
    t.op(
        "S-LD-7",
        "composition",
        &["(6,2,2):(2,1,20)", "(8,3):(3,1)"],
        "((2,2,2),3):((6,1,20),2)",
    );
    t.push(
        Row::op("S-LD-8", "complement", &["4:1", "8"], "2:4")
            .note("implicit in S-LD-10: the completed tiler (4,2):(1,4)"),
    );
    t.push(
        Row::op("S-LD-9", "complement", &["8:2", "16"], "2:1")
            .note("implicit in S-LD-10: the completed tiler (8,2):(2,1)"),
    );
    t.op(
        "S-LD-10",
        "logical_divide",
        &["(8,16):(20,1)", "<4:1,8:2>"],
        "((4,2),(8,2)):((20,80),(2,1))",
    );
    t.op(
        "S-LD-11",
        "zipped_divide",
        &["(8,16):(20,1)", "<4:1,8:2>"],
        "((4,8),(2,2)):((20,2),(80,1))",
    );
}
