//! The bank-conflict model and the swizzle search: fixed examples (the fp16 GEMM tile of CUTLASS
//! and other standard tiles), a brute-force simulation of the model written independently (bytes
//! into per-bank sets of words) on random layouts, and the refusals.

use crate::gen::{self, eval_oracle};
use cute::banks::{access_addresses, search_candidates, Access};
use cute::{bank_conflicts, swizzle_search, BankReport, ComposedLayout, Layout, Swizzle};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn layout(s: &str) -> Layout {
    s.parse().unwrap()
}

fn composed(s: &str) -> ComposedLayout {
    s.parse().unwrap()
}

/// fp16 8×64 row-major tile; thread t writes the 16-byte chunk t%8 of row t/8 (two instructions:
/// rows 0-3, then rows 4-7).
const FP16_TILE: &str = "(8,64):(64,1)";
const FP16_ROWS: &str = "((8,4),(8,2)):((64,1),(8,4))";
/// ldmatrix-style reads: threads 8c..8c+7 read chunk c of rows 0-7 (chunks 0-3, then 4-7).
const FP16_LDMATRIX: &str = "((8,4),(8,2)):((1,64),(8,256))";

#[test]
fn fp16_tile_rows_and_ldmatrix() {
    let tile = layout(FP16_TILE);
    let rows = bank_conflicts(&tile, &layout(FP16_ROWS), 2, 8).unwrap();
    assert_eq!(rows.instructions, 2);
    assert_eq!(
        (rows.wavefronts.clone(), rows.ideal.clone()),
        (vec![4, 4], vec![4, 4])
    );
    assert!(rows.is_conflict_free());
    // 8 rows of 128 bytes: every row's chunk c lies in banks 4c..4c+3, 8 distinct words per bank
    let ldm = bank_conflicts(&tile, &layout(FP16_LDMATRIX), 2, 8).unwrap();
    assert_eq!(ldm.wavefronts, vec![32, 32]);
    assert_eq!((ldm.total(), ldm.ideal_total()), (64, 8));
    let sw = composed("Sw<3,3,3> o 0 o (8,64):(64,1)");
    for tv in [FP16_ROWS, FP16_LDMATRIX] {
        let r = bank_conflicts(&sw, &layout(tv), 2, 8).unwrap();
        assert_eq!(r.wavefronts, vec![4, 4], "{tv}");
    }
    // the same reads as 4-byte loads (a pair of halves per thread and instruction): instruction
    // i reads the pair i of chunk c in rows 0-7, i.e. the words 32r + 4c + i, 8 rows per bank;
    // with the swizzle the word is 32r + 4(c^r) + i: 8 banks of 4 words each
    let ldm4 = layout("((8,4),(2,8)):((1,64),(8,16))");
    assert_eq!(
        bank_conflicts(&tile, &ldm4, 2, 2).unwrap().wavefronts,
        vec![8; 8]
    );
    assert_eq!(
        bank_conflicts(&sw, &ldm4, 2, 2).unwrap().wavefronts,
        vec![4; 8]
    );
}

#[test]
fn addresses_of_the_row_stores() {
    let a = access_addresses(&layout(FP16_TILE), &layout(FP16_ROWS), 2, 8).unwrap();
    assert_eq!(a.len(), 2);
    for (j, instr) in a.iter().enumerate() {
        for (t, &addr) in instr.iter().enumerate() {
            let row = (t / 8 + 4 * j) as i64;
            assert_eq!(addr, row * 128 + (t % 8) as i64 * 16);
        }
    }
}

#[test]
fn broadcast_counts_once() {
    // all 32 threads read the same word: one wavefront
    let tv = layout("(32,4):(0,1)");
    let r = bank_conflicts(&layout("4:1"), &tv, 4, 1).unwrap();
    assert_eq!(r.wavefronts, vec![1; 4]);
    // pairs of threads read the same word, 16 words 32 apart: 16 distinct words in bank 0
    let r = bank_conflicts(&layout("16:32"), &layout("((2,16),1):((0,1),0)"), 4, 1).unwrap();
    assert_eq!(r.wavefronts, vec![16]);
    // 8-byte accesses: phase 0 (threads 0-15) and phase 1 each read 16 consecutive float2
    let r = bank_conflicts(&layout("64:1"), &layout("(32,2):(2,1)"), 4, 2).unwrap();
    assert_eq!((r.wavefronts.clone(), r.ideal.clone()), (vec![2], vec![2]));
}

/// The first of `search_candidates` that makes every pattern ideal (and keeps the tile inside its
/// memory), found through the public analysis of `Sw o 0 o smem`: an independent check of
/// `swizzle_search`.
fn first_conflict_free(smem: &Layout, tvs: &[Layout], b: i64, v: i64) -> Option<Swizzle> {
    let image: Vec<i64> = (0..smem.size()).map(|i| smem.eval(i).unwrap()).collect();
    let (lo, hi) = (*image.iter().min()?, *image.iter().max()?);
    search_candidates().find(|sw| {
        let c = sw.compose(smem);
        tvs.iter()
            .all(|tv| bank_conflicts(&c, tv, b, v).is_ok_and(|r| r.is_conflict_free()))
            && image.iter().all(|&o| (lo..=hi).contains(&sw.apply(o)))
    })
}

fn search(smem: &str, tvs: &[&str], b: i64, v: i64, want: &str) {
    let smem = layout(smem);
    let tvs: Vec<Layout> = tvs.iter().map(|t| layout(t)).collect();
    let found = swizzle_search(&smem, &tvs, b, v).unwrap();
    assert!(found.conflict_free, "{smem}: {found:?}");
    assert_eq!(found.swizzle.to_string(), want, "{smem}");
    assert_eq!(found.layout, found.swizzle.compose(&smem));
    assert_eq!(Some(found.swizzle), first_conflict_free(&smem, &tvs, b, v));
    for (tv, r) in tvs.iter().zip(&found.reports) {
        assert_eq!(r, &bank_conflicts(&found.layout, tv, b, v).unwrap());
        assert!(r.is_conflict_free());
    }
    // without a swizzle at least one pattern conflicts
    assert!(tvs
        .iter()
        .any(|tv| !bank_conflicts(&smem, tv, b, v).unwrap().is_conflict_free()));
}

#[test]
fn search_fp16_gemm_tile() {
    // (a) CUTLASS's SM80 fp16 K-major tile: Swizzle<3,3,3> o (8,64):(64,1)
    search(FP16_TILE, &[FP16_ROWS, FP16_LDMATRIX], 2, 8, "Sw<3,3,3>");
}

#[test]
fn search_fp32_tiles() {
    // (b) fp32, 128-byte rows: 16-byte row stores (thread t writes floats 4(t%8).. of row t/8)
    // and 16-byte ldmatrix-style reads (threads 8c..8c+7 read chunk c of rows 0-7); CUTLASS's
    // tf32 tile is Swizzle<3,2,3> o (8,32):(32,1)
    search(
        "(8,32):(32,1)",
        &[
            "((8,4),(4,2)):((32,1),(8,4))",
            "((8,4),(4,2)):((1,32),(8,128))",
        ],
        4,
        4,
        "Sw<3,2,3>",
    );
    // a 32×32 fp32 transpose through shared memory: 4-byte row stores and column loads
    search(
        "(32,32):(32,1)",
        &["(32,32):(32,1)", "(32,32):(1,32)"],
        4,
        1,
        "Sw<5,0,5>",
    );
}

#[test]
fn search_int8_tiles() {
    // (c) int8, 128-byte rows: 16-byte row stores and ldmatrix-style 16-byte reads;
    // CUTLASS's int8 tile is Swizzle<3,4,3> o (8,128):(128,1)
    search(
        "(8,128):(128,1)",
        &[
            "((8,4),(16,2)):((128,1),(8,4))",
            "((8,4),(16,2)):((1,128),(8,512))",
        ],
        1,
        16,
        "Sw<3,4,3>",
    );
    // 32 rows of 128 int8: 4-byte row stores, and column reads of 4 bytes per thread
    search(
        "(32,128):(128,1)",
        &["(32,(4,32)):(128,(32,1))", "(32,(4,32)):(1,(32,128))"],
        1,
        4,
        "Sw<5,2,5>",
    );
}

#[test]
fn search_needs_nothing_for_row_accesses() {
    let found = swizzle_search(&layout(FP16_TILE), &[layout(FP16_ROWS)], 2, 8).unwrap();
    assert!(found.conflict_free);
    assert_eq!((found.swizzle, found.tried), (Swizzle::IDENTITY, 1));
    assert_eq!(found.layout.to_string(), "Sw<0,0,0> o 0 o (8,64):(64,1)");
    // a composed layout with no swizzle keeps its offset
    let c = composed("Sw<0,4,3> o 64 o (8,64):(64,1)");
    let found = swizzle_search(&c, &[layout(FP16_LDMATRIX)], 2, 8).unwrap();
    assert_eq!(found.layout.to_string(), "Sw<3,3,3> o 64 o (8,64):(64,1)");
}

#[test]
fn search_reports_when_none_exists() {
    // fp32 tile of 64 rows of 128 bytes, 16-byte reads of one chunk column: pattern A reads rows
    // 0-7 (a phase needs row bits 0-2 XORed into the chunk bits), pattern B rows 0, 8, ..., 56
    // (row bits 3-5): one Sw<B,M,S> XORs one contiguous field, so no candidate serves both
    let smem = layout("(64,32):(32,1)");
    let a = layout("((8,4),(4,2)):((1,256),(64,1024))");
    let b = layout("((8,4),(4,2)):((8,256),(64,1024))");
    assert_eq!(
        swizzle_search(&smem, &[a], 4, 4)
            .unwrap()
            .swizzle
            .to_string(),
        "Sw<3,2,3>"
    );
    assert_eq!(
        swizzle_search(&smem, &[b], 4, 4)
            .unwrap()
            .swizzle
            .to_string(),
        "Sw<3,2,6>"
    );
    let found = swizzle_search(&smem, &[a, b], 4, 4).unwrap();
    assert!(!found.conflict_free);
    assert_eq!(found.tried, search_candidates().count());
    assert_eq!(found.tried, 321);
    let total = |r: &[BankReport]| r.iter().map(BankReport::total).sum::<u64>();
    // the best by brute force over the candidates, through the public analysis
    let image: Vec<i64> = (0..2048).map(|i| smem.eval(i).unwrap()).collect();
    let best = search_candidates()
        .filter(|sw| image.iter().all(|&o| (0..2048).contains(&sw.apply(o))))
        .filter_map(|sw| {
            let c = sw.compose(&smem);
            let ra = bank_conflicts(&c, &a, 4, 4).ok()?;
            let rb = bank_conflicts(&c, &b, 4, 4).ok()?;
            assert!(!(ra.is_conflict_free() && rb.is_conflict_free()), "{sw}");
            Some((ra.total() + rb.total(), sw))
        })
        .min_by_key(|&(t, _)| t)
        .unwrap();
    assert_eq!((total(&found.reports), found.swizzle), best);
    assert_eq!(found.swizzle.to_string(), "Sw<3,2,4>");
    assert_eq!(found.reports[0].wavefronts, vec![8, 8]);
    assert_eq!(found.reports[1].wavefronts, vec![16, 16]);
}

/// `Sw<b,m,s>(o)` bit by bit (independent of `Swizzle::apply`).
fn swizzle_oracle((b, m, s): (i64, i64, i64), o: i64) -> i64 {
    let mut r = o;
    for i in 0..b {
        if (o >> (m + s.max(0) + i)) & 1 == 1 {
            r ^= 1 << (m - s.min(0) + i);
        }
    }
    r
}

/// The model simulated byte by byte: every byte a thread touches puts its 4-byte word into the set
/// of its bank; a phase costs its largest set. `None` where the model refuses the pattern (an
/// access that is not `v` consecutive elements aligned to `v·b` bytes, or a coordinate outside
/// `0..size`). Returns the wavefronts and the byte addresses per instruction.
fn simulate(
    smem: &dyn Fn(i64) -> i64,
    size: i64,
    tv: &Layout,
    b: i64,
    v: i64,
) -> Option<(Vec<u32>, Vec<Vec<i64>>)> {
    let width = b * v;
    if ![4, 8, 16].contains(&width) {
        return None;
    }
    let per_phase = 128 / width as usize; // threads whose 32 words fill the 32 banks once
    let values = tv.size() / 32;
    if values % v != 0 {
        return None;
    }
    let mut waves = Vec::new();
    let mut addrs = Vec::new();
    for j in 0..values / v {
        let mut start = Vec::new();
        for t in 0..32 {
            let mut elems = Vec::new();
            for k in 0..v {
                let c = eval_oracle(tv, t + 32 * (j * v + k));
                if !(0..size).contains(&c) {
                    return None;
                }
                elems.push(smem(c));
            }
            let contiguous = elems.windows(2).all(|p| p[1] == p[0] + 1);
            if !contiguous || elems[0] < 0 || (elems[0] * b) % width != 0 {
                return None;
            }
            start.push(elems[0] * b);
        }
        let mut total = 0;
        for phase in start.chunks(per_phase) {
            let mut banks: Vec<BTreeSet<i64>> = vec![BTreeSet::new(); 32];
            for &a in phase {
                for byte in a..a + width {
                    banks[((byte / 4) % 32) as usize].insert(byte / 4);
                }
            }
            total += banks.iter().map(BTreeSet::len).max().unwrap().max(1) as u32;
        }
        waves.push(total);
        addrs.push(start);
    }
    Some((waves, addrs))
}

/// `(B, V)` with `V·B` in {4, 8, 16}.
const WIDTHS: [(i64, i64); 12] = [
    (4, 1),
    (8, 1),
    (16, 1),
    (2, 2),
    (1, 4),
    (4, 2),
    (2, 4),
    (1, 8),
    (8, 2),
    (4, 4),
    (2, 8),
    (1, 16),
];

/// A random pattern: an SMEM layout (sometimes swizzled), a TV layout with a 32-thread mode, the
/// element size and the vector width, as texts.
#[derive(Clone, Debug)]
struct Case {
    smem: String,
    tv: String,
    b: i64,
    v: i64,
}

fn join(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// Structured cases put each vector on `V` consecutive, aligned elements (the model accepts them,
/// unless the TV leaves the domain); the others use arbitrary strides (mostly refused for `V > 1`,
/// accepted for `V = 1`).
fn case() -> impl Strategy<Value = Case> {
    (
        (0..WIDTHS.len(), 0..=5u32, 0..=5u32),
        proptest::collection::vec(0..=12i64, 3),
        proptest::collection::vec((1..=4i64, 0..=12i64), 1..=2),
        gen::gen_layout_with(3, 2, 1..=6, 0..=40),
        (0..=40i64, 0..=12i64, 0..8u8, any::<bool>()),
        proptest::option::of((1..=4i64, 0..=5i64, 0..=6i64, 0..=3i64)),
    )
        .prop_map(|((w, c0, c1), ts, vals, g, (ext_d, v_d, kind, neg), sw)| {
            let (b, v) = WIDTHS[w];
            let (lo, hi) = (c0.min(c1), c0.max(c1));
            let exps: Vec<u32> = [lo, hi - lo, 5 - hi]
                .into_iter()
                .filter(|&e| e > 0)
                .collect();
            let thr: Vec<i64> = exps.iter().map(|&e| 1 << e).collect();
            let ts = &ts[..thr.len()];
            let structured = kind < 5;
            let scale = if structured { v } else { 1 };
            let val_shape: Vec<i64> = vals.iter().map(|p| p.0).collect();
            let val_stride: Vec<i64> = vals.iter().map(|p| p.1 * scale).collect();
            let thr_stride: Vec<i64> = ts.iter().map(|d| d * scale).collect();
            let tv = format!(
                "(({}),({v},{})):(({}),({},{}))",
                join(&thr),
                join(&val_shape),
                join(&thr_stride),
                if structured { 1 } else { v_d },
                join(&val_stride)
            );
            // the largest tile coordinate the TV reaches
            let reach: i64 = thr
                .iter()
                .zip(&thr_stride)
                .chain(val_shape.iter().zip(&val_stride))
                .map(|(s, d)| (s - 1) * d)
                .sum::<i64>()
                + (v - 1) * if structured { 1 } else { v_d };
            let inner = g.layout().size();
            let need = if structured { reach / v + 1 } else { reach + 1 };
            // kind 7: no extension, the TV may leave the domain
            let ext = if kind == 7 {
                1
            } else {
                (need + inner - 1) / inner
            };
            let (gs, gd) = g
                .text()
                .split_once(':')
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .unwrap();
            let smem = if structured {
                let gd = g
                    .prof
                    .text(&g.stride.iter().map(|d| d * v).collect::<Vec<_>>());
                let l = format!("({v},{gs},{ext}):(1,{gd},{})", ext_d * v);
                match sw {
                    // M ≥ log2(V) keeps the vectors whole; the offset keeps them aligned
                    Some((sb, sm, ss, off)) => {
                        let sm = sm.max(v.trailing_zeros() as i64);
                        let ss = ss.max(sb);
                        let ss = if neg { -ss } else { ss };
                        format!("Sw<{sb},{sm},{ss}> o {} o {l}", off * v)
                    }
                    None => l,
                }
            } else {
                format!("({gs},{ext}):({gd},{ext_d})")
            };
            Case { smem, tv, b, v }
        })
}

#[test]
fn analysis_matches_brute_force_simulation() {
    let accepted = std::cell::Cell::new(0);
    let refused = std::cell::Cell::new(0);
    let conflicted = std::cell::Cell::new(0);
    gen::run(1500, case(), |c| {
        let tv: Layout = c.tv.parse().unwrap();
        prop_assert_eq!(tv.mode(0).unwrap().size(), 32);
        let (lib, addrs, sim) = if c.smem.starts_with("Sw") {
            let s: ComposedLayout = c.smem.parse().unwrap();
            let (b, m, sh) = (s.swizzle.bits(), s.swizzle.base(), s.swizzle.shift());
            let f = |i: i64| swizzle_oracle((b, m, sh), s.offset + eval_oracle(&s.layout, i));
            (
                bank_conflicts(&s, &tv, c.b, c.v),
                access_addresses(&s, &tv, c.b, c.v),
                simulate(&f, s.size(), &tv, c.b, c.v),
            )
        } else {
            let s: Layout = c.smem.parse().unwrap();
            let f = |i: i64| eval_oracle(&s, i);
            (
                bank_conflicts(&s, &tv, c.b, c.v),
                access_addresses(&s, &tv, c.b, c.v),
                simulate(&f, s.size(), &tv, c.b, c.v),
            )
        };
        match (lib, sim) {
            (Ok(r), Some((w, a))) => {
                let phases = (c.b * c.v / 4) as u32;
                prop_assert_eq!(&r.wavefronts, &w);
                prop_assert_eq!(r.instructions, w.len());
                prop_assert_eq!(r.ideal, vec![phases; w.len()]);
                let got: Vec<Vec<i64>> = addrs.unwrap().iter().map(|x| x.to_vec()).collect();
                prop_assert_eq!(got, a);
                accepted.set(accepted.get() + 1);
                if w.iter().any(|&x| x > phases) {
                    conflicted.set(conflicted.get() + 1);
                }
            }
            (Err(e), None) => {
                prop_assert_eq!(e.op(), cute::Op::BankConflicts);
                prop_assert_eq!(addrs.unwrap_err(), e);
                refused.set(refused.get() + 1);
            }
            (lib, sim) => prop_assert!(false, "library {:?}, simulation {:?}", lib, sim),
        }
        Ok(())
    });
    // both outcomes, and real conflicts, are exercised
    assert!(accepted.get() > 900, "{} accepted", accepted.get());
    assert!(refused.get() > 300, "{} refused", refused.get());
    assert!(
        conflicted.get() > 700,
        "{} with conflicts",
        conflicted.get()
    );
}

#[test]
fn refusals_name_the_problem() {
    let tile = layout(FP16_TILE);
    let msg = |r: Result<BankReport, cute::Error>| {
        let e = r.unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("bank_conflicts (8,64):(64,1), "), "{text}");
        assert!(!text.contains('\n'));
        (e.category(), text)
    };
    // a 16-thread "warp"
    let (cat, text) = msg(bank_conflicts(&tile, &layout("(16,8):(1,64)"), 2, 8));
    assert_eq!(cat, "ProfileMismatch");
    assert!(
        text.contains("size 32") && text.contains("(16 vs 32)"),
        "{text}"
    );
    // no value mode
    let (_, text) = msg(bank_conflicts(&tile, &layout("32:1"), 4, 1));
    assert!(text.contains("rank at least 2"), "{text}");
    // 6-byte and 32-byte accesses, zero or negative widths
    for (b, v) in [(2, 3), (4, 8), (0, 4), (-4, -1), (3, 1)] {
        let (cat, text) = msg(bank_conflicts(&tile, &layout(FP16_ROWS), b, v));
        assert_eq!(cat, "Unsupported");
        // the product is stated only for positive factors (-4·-1 = 4 bytes is no 4-byte access)
        let why = if b > 0 && v > 0 {
            format!("V·B = {v}·{b} = {} bytes must be 4, 8 or 16 bytes", v * b)
        } else {
            format!("the element size B = {b} bytes and the vector length V = {v} must be positive")
        };
        assert!(text.contains(&why), "{text}");
    }
    // 16 values per thread do not split into instructions of 5... use V = 8 with 12 values
    let (cat, text) = msg(bank_conflicts(&tile, &layout("(32,12):(1,32)"), 1, 8));
    assert_eq!(cat, "Divisibility");
    assert!(text.contains("8 does not divide 12"), "{text}");
    // column-wise vectors are not contiguous: thread 0's second value is 64 elements further
    let (cat, text) = msg(bank_conflicts(
        &tile,
        &layout("(32,(8,2)):(8,(1,256))"),
        2,
        8,
    ));
    assert_eq!(cat, "Unsupported");
    assert!(
        text.contains("thread 0, instruction 0") && text.contains("not consecutive"),
        "{text}"
    );
    assert!(text.ends_with("(64)"), "{text}");
    // threads 0-7 read the 8 columns of row 0-7 of the first chunk (aligned), thread 8 starts at
    // element 1
    let (_, text) = msg(bank_conflicts(
        &tile,
        &layout("(32,(8,2)):(1,(8,256))"),
        2,
        8,
    ));
    assert!(
        text.contains("thread 8, instruction 0: the access is not aligned"),
        "{text}"
    );
    // one element off: every 16-byte vector is misaligned
    let shifted = layout("((8,4),(8,2)):((64,1),(8,4))");
    let off = composed("Sw<0,0,0> o 1 o (8,64):(64,1)");
    assert!(bank_conflicts(&off, &shifted, 2, 8)
        .unwrap_err()
        .to_string()
        .contains("thread 0, instruction 0: the access is not aligned"));
    // outside the tile: thread 31 reaches coordinate 512 in instruction 1
    let (_, text) = msg(bank_conflicts(
        &tile,
        &layout("(32,(8,2)):(8,(1,257))"),
        2,
        8,
    ));
    assert!(text.contains("outside the SMEM domain"), "{text}");
    // the search names its own operation, and refuses an already swizzled tile
    let e = swizzle_search(&tile, &[], 2, 8).unwrap_err();
    assert!(
        e.to_string().starts_with("swizzle_search (8,64):(64,1): "),
        "{e}"
    );
    let sw = composed("Sw<3,3,3> o 0 o (8,64):(64,1)");
    let e = swizzle_search(&sw, &[layout(FP16_ROWS)], 2, 8).unwrap_err();
    assert!(e.to_string().contains("already swizzled"), "{e}");
    let e = swizzle_search(&tile, &[layout("(16,8):(1,64)")], 2, 8).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("swizzle_search (8,64):(64,1), (16,8):(1,64): "),
        "{e}"
    );
    // widths through Access
    assert_eq!(Access::new(2, 8).unwrap().phases(), 4);
    assert_eq!(Access::new(4, 2).unwrap().threads_per_phase(), 16);
    assert!(Access::new(1, 2).is_err());
}
