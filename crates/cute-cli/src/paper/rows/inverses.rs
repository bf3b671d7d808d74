//! Right and left inverses (Tables 5-6, vectorization), admissibility (TMEM) and the complement
//! (Table 7).

use super::Tour;
use crate::paper::apps;
use crate::paper::checks as c;
use crate::paper::{Row, Section};

pub(super) fn inverses(t: &mut Tour) {
    t.section(Section::RightInverse);
    t.op("T5.1", "right_inverse", &["(4,8):(1,4)"], "32:1");
    t.op("T5.2", "right_inverse", &["(4,8):(8,1)"], "(8,4):(4,1)");
    t.op(
        "T5.3",
        "right_inverse",
        &["(3,7,5):(5,15,1)"],
        "(5,21):(21,1)",
    );
    t.op("T5.4", "right_inverse", &["(4,8):(1,5)"], "4:1");
    t.op(
        "T5.5",
        "right_inverse",
        &["(4,(4,2)):(4,(1,16))"],
        "(4,4,2):(4,1,16)",
    );
    t.op(
        "T5.6",
        "right_inverse",
        &["((2,2),(4,2)):((1,8),(2,16))"],
        "(2,4,2,2):(1,4,2,16)",
    );
    t.push(
        Row::op(
            "T5.7",
            "right_inverse",
            &["((2,2),(2,4)):((0,1),(0,2))"],
            "(2,2):(4,8)",
        )
        .erratum("(2,4):(2,8)")
        .note("with the paper's value R(1) = 4 and L(4) = 0 ≠ 1"),
    );
    t.op(
        "T5.8",
        "right_inverse",
        &["((2,2),(2,4)):((0,2),(0,4))"],
        "1:0",
    );
    t.op("T5.9", "right_inverse", &["(4,8):(1@0,1@1)"], "(4,8):(1,4)");
    t.op(
        "T5.10",
        "right_inverse",
        &["(4,(4,2)):(1@1,(1@0,6@1))"],
        "(4,4):(4,1)",
    );
    t.op(
        "T5.11",
        "right_inverse",
        &["(4,(4,3)):(F1,(F5,F16))"],
        "(4,4,3):(F1,F5,F16)",
    );

    t.section(Section::Vectorization);
    t.op("S-VEC-1", "right_inverse", &["(4,8):(1,4)"], "32:1");
    t.op("S-VEC-2", "right_inverse", &["(4,8):(8,1)"], "(8,4):(4,1)");
    for (id, src, dst, paper) in [
        (
            "F8-1",
            "(4,4):(1,4)",
            "((2,2),4):((1,8),2)",
            "width 2 at coordinates {0,1}",
        ),
        (
            "F8-2",
            "((2,2),(2,2)):((4,1),(8,2))",
            "((2,2),(2,2)):((8,1),(4,2))",
            "width 4 at coordinates {0,2,8,10}",
        ),
    ] {
        t.push(
            Row::check(
                id,
                "max_common_vector",
                &[src, dst],
                format!("common vector of {src} and {dst}"),
                paper,
                apps::vector_width,
            )
            .note("the figure's layouts are not in the translation: this pair is reconstructed from the stated offsets and coordinates"),
        );
    }

    t.section(Section::LeftInverse);
    t.op("T6.1", "left_inverse", &["(4,8):(1,4)"], "32:1");
    t.op("T6.2", "left_inverse", &["(4,8):(8,1)"], "(8,4):(4,1)");
    t.op(
        "T6.3",
        "left_inverse",
        &["(3,7,5):(5,15,1)"],
        "(5,21):(21,1)",
    );
    t.op("T6.4", "left_inverse", &["(4,8):(1,5)"], "(5,8):(1,4)");
    t.op(
        "T6.5",
        "left_inverse",
        &["(4,(4,2)):(4,(1,16))"],
        "(4,4,2):(4,1,16)",
    );
    t.op(
        "T6.6",
        "left_inverse",
        &["((2,2),(4,2)):((1,8),(2,16))"],
        "(2,4,2,2):(1,4,2,16)",
    );
    t.op(
        "T6.7",
        "left_inverse",
        &["((2,2),(2,4)):((0,2),(0,4))"],
        "(2,2,4):(0,2,8)",
    );
    t.push(
        Row::op(
            "T6.8",
            "left_inverse",
            &["((2,2),(2,4)):((0,1),(0,2))"],
            "(2,2):(4,8)",
        )
        .erratum("(2,4):(2,8)")
        .note("with the paper's value L(R(L(2))) = L(R(1)) = L(4) = 0 ≠ L(2) = 1"),
    );
    t.op("T6.9", "left_inverse", &["(4,8):(1@0,1@1)"], "(4,8):(1,4)");
    t.op(
        "T6.10",
        "left_inverse",
        &["(4,(4,2)):(1@1,(1@0,6@1))"],
        "(4,(6,2)):(4,(1,16))",
    );
    t.push(Row::check(
        "T6.11",
        "left_inverse",
        &["(4,(4,3)):(F1,(F5,F16))"],
        "left_inverse((4,(4,3)):(F1,(F5,F16))), a bijection onto Z_48",
        "(4,4,3):(F1,F5,F16)",
        c::binary_left_inverse,
    ));
}

/// The TMEM example: the tcgen05 32x32b and 16x256b access layouts (reconstructed from the PTX
/// ISA's description, with the paper's lane step 16384) against accumulator tiles in TMEM.
pub(super) fn admissibility(t: &mut Tour) {
    t.section(Section::Admissibility);
    const NOTE: &str = "the instruction layouts are reconstructed from the PTX ISA (the translation omits them); the data layouts are example accumulator tiles";
    for (id, data, instr, what, paper) in [
        (
            "F9-1",
            "(128,256):(16384,1)",
            "tmem_32x32b",
            "M=128 tile (a row per lane) ⊇ 32x32b.x1",
            "contained at A† ∘ T = ((32,4),1):((1,32),1)",
        ),
        (
            "F9-2",
            "(128,256):(16384,1)",
            "tmem_16x256b",
            "M=128 tile ⊇ 16x256b.x1",
            "contained at A† ∘ T = (((4,8),4),(2,2,1)):(((256,1),32),(128,8,1))",
        ),
        (
            "F9-3",
            "((16,4),256):((16384,524288),1)",
            "tmem_32x32b",
            "M=64 tile in 16 lanes per warp ⊇ 32x32b.x1",
            "not contained: coordinate 16 (offset 262144)",
        ),
        (
            "F9-4",
            "((16,4),256):((16384,524288),1)",
            "tmem_16x256b",
            "M=64 tile in 16 lanes per warp ⊇ 16x256b.x1",
            "contained at A† ∘ T = (((4,8),4),(2,2,1)):(((128,1),16),(64,8,16))",
        ),
    ] {
        t.push(Row::check(id, "contains", &[data, instr], what, paper, apps::tmem).note(NOTE));
    }
}

pub(super) fn complement(t: &mut Tour) {
    t.section(Section::Complement);
    t.push(
        Row::op("T7.1", "complement", &["(4,8):(1,4)"], "1:32").note(
            "the row's remark \"L(i) > max_j L(j)\" is about the complement: L*(i) = 32·i > 31",
        ),
    );
    t.op("T7.2", "complement", &["(4,8):(8,1)"], "1:32");
    t.op("T7.3", "complement", &["(4,(4,2)):(4,(1,16))"], "1:32");
    t.op("T7.4", "complement", &["(4,8):(1,5)"], "1:40");
    t.op("T7.5", "complement", &["(4,8):(1,8)"], "(2,1):(4,64)");
    t.op(
        "T7.6",
        "complement",
        &["((2,2),(2,4)):((0,1),(0,2))"],
        "1:8",
    );
    t.op(
        "T7.7",
        "complement",
        &["((2,2),(2,4)):((0,2),(0,4))"],
        "(2,1):(1,16)",
    );
    t.push(
        Row::op(
            "T7.8",
            "complement",
            &["(4,8):(1@0,1@1)"],
            "(1,1):(4@0,4@1)",
        )
        .erratum("(1,1):(4@0,8@1)")
        .note("with the paper's 4@1, L*(1) = (0,4) lies in the image of L, violating (16)"),
    );
    t.op(
        "T7.9",
        "complement",
        &["(4,(4,2)):(1@1,(1@0,12@1))"],
        "(1,(3,1)):(4@0,(4@1,24@1))",
    );
}
