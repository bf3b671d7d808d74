//! Swizzles and composed layouts: the values of CuTe C++ (a table computed with the CUTLASS
//! headers), bijection and involution on random swizzles against a bit-by-bit oracle, printing and
//! parsing, and the refusals.

use crate::gen::{self, eval_oracle};
use cute::{ComposedLayout, Layout, Swizzle};
use proptest::prelude::*;

fn sw(b: i64, m: i64, s: i64) -> Swizzle {
    Swizzle::new(b, m, s).unwrap()
}

/// The offsets of the C++ table.
const OFFS: [i64; 13] = [
    0, 1, 7, 8, 63, 64, 100, 511, 1000, 4095, 12345, 65535, 100000,
];

/// `Swizzle<B,M,S>{}(o)` for `o` in `OFFS`, printed by a C++ program compiled against the CUTLASS
/// headers (include/cute/swizzle.hpp).
const CPP: [(i64, i64, i64, [i64; 13]); 19] = [
    (
        0,
        0,
        0,
        [
            0, 1, 7, 8, 63, 64, 100, 511, 1000, 4095, 12345, 65535, 100000,
        ],
    ),
    (
        0,
        4,
        3,
        [
            0, 1, 7, 8, 63, 64, 100, 511, 1000, 4095, 12345, 65535, 100000,
        ],
    ),
    (
        1,
        0,
        1,
        [
            0, 1, 6, 8, 62, 64, 100, 510, 1000, 4094, 12345, 65534, 100000,
        ],
    ),
    (
        1,
        2,
        3,
        [
            0, 1, 7, 8, 59, 64, 96, 507, 1004, 4091, 12349, 65531, 100004,
        ],
    ),
    (
        2,
        0,
        2,
        [
            0, 1, 6, 10, 60, 64, 101, 508, 1002, 4092, 12347, 65532, 100000,
        ],
    ),
    (
        2,
        1,
        3,
        [
            0, 1, 7, 8, 57, 64, 96, 505, 1004, 4089, 12351, 65529, 100004,
        ],
    ),
    (
        2,
        3,
        5,
        [
            0, 1, 7, 8, 63, 64, 100, 503, 1008, 4071, 12345, 65511, 100016,
        ],
    ),
    (
        3,
        0,
        3,
        [
            0, 1, 7, 9, 56, 64, 96, 504, 1005, 4088, 12350, 65528, 100004,
        ],
    ),
    (
        3,
        2,
        3,
        [
            0, 1, 7, 8, 59, 72, 104, 483, 1012, 4067, 12349, 65507, 100020,
        ],
    ),
    (
        3,
        3,
        3,
        [
            0, 1, 7, 8, 63, 72, 108, 455, 976, 4039, 12345, 65479, 100016,
        ],
    ),
    (
        3,
        4,
        3,
        [
            0, 1, 7, 8, 63, 64, 100, 463, 920, 3983, 12345, 65423, 100080,
        ],
    ),
    (
        3,
        3,
        4,
        [0, 1, 7, 8, 63, 64, 100, 487, 976, 4039, 12345, 65479, 99976],
    ),
    (
        4,
        2,
        4,
        [0, 1, 7, 8, 63, 68, 96, 483, 980, 4035, 12345, 65475, 99976],
    ),
    (
        5,
        0,
        5,
        [
            0, 1, 7, 8, 62, 66, 103, 496, 1015, 4064, 12344, 65504, 100021,
        ],
    ),
    (
        5,
        2,
        5,
        [
            0, 1, 7, 8, 63, 64, 100, 499, 1012, 3971, 12345, 65411, 99988,
        ],
    ),
    (
        2,
        4,
        -3,
        [
            0, 1, 7, 8, 447, 64, 356, 127, 744, 3711, 12729, 65151, 100256,
        ],
    ),
    (
        3,
        0,
        -4,
        [
            0, 17, 119, 8, 79, 64, 36, 399, 1000, 3983, 12329, 65423, 100000,
        ],
    ),
    (
        1,
        5,
        -2,
        [
            0, 1, 7, 8, 191, 64, 228, 383, 872, 3967, 12473, 65407, 99872,
        ],
    ),
    (
        4,
        3,
        6,
        [
            0, 1, 7, 8, 63, 64, 100, 511, 992, 4039, 12409, 65415, 100024,
        ],
    ),
];

#[test]
fn agrees_with_cute_cpp() {
    for (b, m, s, want) in CPP {
        let w = sw(b, m, s);
        let got: Vec<i64> = OFFS.iter().map(|&o| w.apply(o)).collect();
        assert_eq!(got, want, "Sw<{b},{m},{s}>");
        assert_eq!(w.to_string(), format!("Sw<{b},{m},{s}>"));
    }
}

#[test]
fn composed_layouts_agree_with_cute_cpp() {
    // print(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})) and its values
    // at 0, 37, 74, ... (C++, static integers printed with `_`).
    let c: ComposedLayout = "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)".parse().unwrap();
    assert_eq!(c.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
    let want = [
        0, 364, 153, 501, 306, 95, 427, 248, 37, 321, 190, 458, 279, 116,
    ];
    let got: Vec<i64> = (0..512).step_by(37).map(|i| c.eval(i).unwrap()).collect();
    assert_eq!(got, want);
    assert_eq!(c, sw(3, 3, 3).compose(&"(8,64):(64,1)".parse().unwrap()));
    // make_composed_layout(Swizzle<2,1,-2>{}, 3, ((2,3),4):((5,1),12)) with run-time integers
    let d: ComposedLayout = "Sw<2,1,-2> o 3 o ((2,3),4):((5,1),12)".parse().unwrap();
    assert_eq!(d.to_string(), "Sw<2,1,-2> o 3 o ((2,3),4):((5,1),12)");
    let want = [
        11, 8, 20, 9, 21, 2, 23, 4, 16, 5, 17, 14, 19, 32, 12, 33, 13, 42, 63, 60, 40, 61, 41, 54,
    ];
    assert_eq!(d.values().unwrap(), want);
    assert_eq!(d.size(), 24);
    assert_eq!(d.cosize().unwrap(), 64);
    assert_eq!(
        d.eval_crd(&"((1,2),3)".parse().unwrap()).unwrap(),
        d.eval(1 + 2 * 2 + 3 * 6).unwrap()
    );
}

#[test]
fn swizzled_tile_covers_its_memory() {
    // Sw<3,3,3> permutes the 512 halves of the 8x64 tile
    let c: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse().unwrap();
    assert_eq!(c.image().unwrap(), (0..512).collect::<Vec<_>>());
    assert_eq!(c.cosize().unwrap(), 512);
}

/// `((4,8),2):((F<18>,F<1>),F<9>)` of the paper's Table 4 (row T4.5): F2 strides, values combined
/// by XOR, a coordinate `c` scaling the stride `d` by carry-less multiplication.
fn f2_table4(i: i64) -> i64 {
    let clmul = |c: i64, d: i64| {
        (0..8)
            .filter(|k| c >> k & 1 == 1)
            .fold(0, |a, k| a ^ (d << k))
    };
    let (a, b, c) = (i % 4, (i / 4) % 8, i / 32);
    clmul(a, 18) ^ clmul(b, 1) ^ clmul(c, 9)
}

#[test]
fn paper_table_4_swizzled_row() {
    // EXAMPLES.md T4.5: C++ computes the swizzled row as Sw<3,0,3> o 0 o ((4,8),2):((16,1),8);
    // its 64 values equal the paper's F2 layout.
    let c: ComposedLayout = "Sw<3,0,3> o 0 o ((4,8),2):((16,1),8)".parse().unwrap();
    for i in 0..64 {
        assert_eq!(c.eval(i).unwrap(), f2_table4(i), "at {i}");
    }
}

/// An independent swizzle: bit `i` of the read field flips bit `i` of the written field.
fn bit_oracle(b: i64, m: i64, s: i64, o: i64) -> i64 {
    let read = m + s.max(0);
    let write = m - s.min(0);
    let mut r = o;
    for i in 0..b {
        if (o >> (read + i)) & 1 == 1 {
            r ^= 1 << (write + i);
        }
    }
    r
}

/// Valid `(B, M, S)` with `B ≤ 5`, `M ≤ 7`, `B ≤ |S| ≤ 10`, either sign.
fn params() -> impl Strategy<Value = (i64, i64, i64)> {
    (0..=5i64, 0..=7i64, 0..=10i64, any::<bool>()).prop_map(|(b, m, s, neg)| {
        let s = s.max(b);
        (b, m, if neg { -s } else { s })
    })
}

#[test]
fn bit_oracle_and_involution() {
    let offsets = prop_oneof![0..1i64 << 20, any::<i64>()];
    gen::run(2000, (params(), offsets), |((b, m, s), o)| {
        let w = sw(b, m, s);
        prop_assert_eq!(
            w.apply(o),
            bit_oracle(b, m, s, o),
            "Sw<{},{},{}>({})",
            b,
            m,
            s,
            o
        );
        // |S| ≥ B: the read and written fields are disjoint, so applying twice gives back o
        prop_assert_eq!(w.apply(w.apply(o)), o);
        // only the bits below M + B + |S| change
        let n = w.block_bits();
        prop_assert_eq!(w.apply(o) >> n, o >> n);
        // the masks are the fields the oracle reads and writes
        let field = |at: i64| ((1i64 << b) - 1) << at;
        prop_assert_eq!(
            (w.yyy_mask(), w.zzz_mask()),
            (field(m + s.max(0)), field(m - s.min(0)))
        );
        Ok(())
    });
}

#[test]
fn bijection_on_blocks() {
    // smaller parameters, so that a whole block 2^(M+B+|S|) is enumerated
    let small = (0..=3i64, 0..=4i64, 0..=5i64, any::<bool>(), 0..64i64);
    gen::run(300, small, |(b, m, s, neg, k)| {
        let s = s.max(b);
        let w = sw(b, m, if neg { -s } else { s });
        let n = 1i64 << w.block_bits();
        let mut hit = vec![false; n as usize];
        for o in k * n..(k + 1) * n {
            let x = w.apply(o);
            prop_assert!(
                k * n <= x && x < (k + 1) * n,
                "{} moves {} out of its block",
                w,
                o
            );
            prop_assert!(
                !hit[(x - k * n) as usize],
                "{} is not injective at {}",
                w,
                o
            );
            hit[(x - k * n) as usize] = true;
        }
        Ok(())
    });
}

/// `text` with a static marker `_` before every integer (`-3` becomes `_-3`).
fn static_markers(text: &str) -> String {
    let mut out = String::new();
    let mut prev = ' ';
    for c in text.chars() {
        let starts = (c == '-' || c.is_ascii_digit()) && !prev.is_ascii_digit() && prev != '-';
        if starts {
            out.push('_');
        }
        out.push(c);
        prev = c;
    }
    out
}

#[test]
fn composed_layout_round_trip_and_values() {
    let strat = (
        params(),
        -100..=100i64,
        gen::gen_layout_with(4, 3, 1..=6, 0..=40),
    );
    gen::run(500, strat, |((b, m, s), off, g)| {
        let l = g.layout();
        let text = format!("Sw<{b},{m},{s}> o {off} o {}", g.text());
        let c: ComposedLayout = text
            .parse()
            .map_err(|e| TestCaseError::fail(format!("{e}")))?;
        prop_assert_eq!(c.to_string(), text.clone());
        prop_assert_eq!(c, ComposedLayout::new(sw(b, m, s), off, l));
        // CuTe's printing of static values (`_` before every integer after the swizzle) parses to
        // the same value
        let (head, tail) = text.split_once("> o ").unwrap();
        let marked = format!("{head}> o {}", static_markers(tail));
        let c2: ComposedLayout = marked
            .parse()
            .map_err(|e| TestCaseError::fail(format!("{marked}: {e}")))?;
        prop_assert_eq!(c2, c);
        let size = l.size();
        for i in 0..size {
            prop_assert_eq!(
                c.eval(i).unwrap(),
                bit_oracle(b, m, s, off + eval_oracle(&l, i))
            );
        }
        prop_assert_eq!(c.values().unwrap().len() as i64, size);
        Ok(())
    });
}

#[test]
fn refusals() {
    for (b, m, s) in [
        (3, 0, 2),
        (-1, 0, 3),
        (1, -1, 1),
        (2, 1, -1),
        (20, 20, 30),
        (0, 64, 0),
    ] {
        let e = Swizzle::new(b, m, s).unwrap_err();
        assert_eq!(e.category(), "InvalidShape");
        assert_eq!(e.op(), cute::Op::Swizzle);
        assert!(e.to_string().contains(&format!("Sw<{b},{m},{s}>")), "{e}");
        assert!(e.to_string().starts_with("swizzle: "), "{e}");
    }
    assert!("Sw<3,3,2>".parse::<Swizzle>().is_err());
    for (text, pos) in [
        ("Sw<3,3>", 6),
        ("Sw<3,3,3", 8),
        ("Swz<3,3,3>", 0),
        ("Sw<3,3,3> x", 10),
        ("Sw<3,3,3> o 0 (8,64):(64,1)", 14),
        ("Sw<3,3,3> o 0 o (8,64):(64,1) o 2", 30),
        ("(8,64):(64,1)", 0),
        ("Sw<3,3,3> o o (8,64):(64,1)", 12),
    ] {
        let r = if text.contains(" o ") || text.starts_with('(') {
            text.parse::<ComposedLayout>().map(|_| ())
        } else {
            text.parse::<Swizzle>().map(|_| ())
        };
        let e = r.unwrap_err();
        assert_eq!(e.category(), "Syntax", "{text}: {e}");
        assert!(
            e.to_string().contains(&format!("at byte {pos}:")),
            "{text}: {e}"
        );
    }
    // the inner layout's own errors come through
    let e = "Sw<3,3,3> o 0 o (8,64):(64,1,2)"
        .parse::<ComposedLayout>()
        .unwrap_err();
    assert_eq!(e.category(), "ProfileMismatch");
    // an offset past i64 is an overflow, not a wrapped value
    let c: ComposedLayout = "Sw<0,0,0> o 9223372036854775807 o 4:1".parse().unwrap();
    assert_eq!(c.eval(0).unwrap(), i64::MAX);
    let e = c.eval(1).unwrap_err();
    assert_eq!(e.category(), "Overflow");
    assert!(
        e.to_string()
            .contains("Sw<0,0,0> o 9223372036854775807 o 4:1"),
        "{e}"
    );
    assert_eq!(c.values().unwrap_err().category(), "Overflow");
    assert_eq!(c.cosize().unwrap_err().category(), "Overflow");
}

#[test]
fn identity_and_accessors() {
    let l: Layout = "(4,8):(8,1)".parse().unwrap();
    let c = Swizzle::IDENTITY.compose(&l);
    for i in 0..32 {
        assert_eq!(c.eval(i).unwrap(), l.eval(i).unwrap());
    }
    let w = sw(2, 4, -3);
    assert_eq!(
        (w.bits(), w.base(), w.shift(), w.block_bits()),
        (2, 4, -3, 9)
    );
    assert_eq!((w.yyy_mask(), w.zzz_mask()), (0b11 << 4, 0b11 << 7));
    assert!(sw(0, 4, 3).is_identity() && !w.is_identity());
}
