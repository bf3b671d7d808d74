//! The bank-conflict view: a shared-memory layout's cells coloured by bank, the accesses of one
//! instruction of a warp marked on them (thread numbers, conflicting accesses outlined in red),
//! the wavefronts of every instruction from [`cute::bank_conflicts`] and the cheapest swizzle from
//! [`cute::swizzle_search`].
//!
//! The model is `cute::banks`: 32 banks of 4 bytes, the warp served in 1, 2 or 4 phases by the
//! access width; in a phase, a bank holding more than one distinct word is a conflict.

use crate::cells::{Cells, Outline};
use crate::{failure, json, layout_arg, required_int};
use cute::banks::access_addresses;
use cute::registry::quote;
use cute::{bank_conflicts, swizzle_search, Error};
use std::collections::HashMap;

/// The most cells the view draws.
pub const MAX_CELLS: i64 = 1 << 16;

pub use cute::banks::Smem;

/// The colour of bank `b` (of 32): light hues around the circle, neighbouring banks far apart.
///
/// ```
/// use cute_wasm::banks_view::bank_colour;
/// let all: std::collections::HashSet<_> = (0..32).map(bank_colour).collect();
/// assert_eq!(all.len(), 32);
/// assert_eq!(bank_colour(0), bank_colour(32));
/// ```
pub fn bank_colour(b: i64) -> (u8, u8, u8) {
    // hue steps of 11/32 of the circle (11 is prime to 32: every bank its own hue)
    let h = ((b.rem_euclid(32) * 11) % 32) as f64 / 32.0;
    let (s, l) = (0.75, 0.78);
    crate::colour::hsl(h, s, l)
}

/// One instruction's accesses: for every element offset a thread reads, the thread and whether
/// its access conflicts; and the wavefronts of the instruction by the model.
pub struct Accesses {
    /// Element offset → (thread, conflicting).
    pub by_offset: HashMap<i64, (usize, bool)>,
    /// The instruction's wavefronts (sum over its phases of the worst bank).
    pub wavefronts: u32,
    /// The threads whose access falls in a bank with another distinct word of their phase.
    pub conflicting: Vec<usize>,
}

/// The accesses of one instruction whose 32 threads access `elem_bytes · vector` bytes at the
/// byte addresses `addr` (as [`access_addresses`] gives them).
pub fn accesses(addr: &[i64; 32], elem_bytes: i64, vector: i64) -> Accesses {
    let width = elem_bytes * vector;
    let words = (width / 4).max(1);
    let per = (32 / words) as usize; // threads per phase
    let mut by_offset = HashMap::new();
    let mut conflicting = Vec::new();
    let mut wavefronts = 0;
    for phase in addr.chunks(per) {
        let mut banks: HashMap<i64, Vec<i64>> = HashMap::new();
        for &a in phase {
            for w in 0..words {
                let word = a / 4 + w;
                let list = banks.entry(word.rem_euclid(32)).or_default();
                if !list.contains(&word) {
                    list.push(word);
                }
            }
        }
        wavefronts += banks.values().map(Vec::len).max().unwrap_or(1).max(1) as u32;
    }
    for (t, &a) in addr.iter().enumerate() {
        let phase = t / per;
        let bad = (0..words).any(|w| {
            let word = a / 4 + w;
            addr[phase * per..(phase + 1) * per].iter().any(|&b| {
                (0..words).any(|v| {
                    let other = b / 4 + v;
                    other != word && other.rem_euclid(32) == word.rem_euclid(32)
                })
            })
        });
        if bad {
            conflicting.push(t);
        }
        for k in 0..vector {
            by_offset.entry(a / elem_bytes + k).or_insert((t, bad));
        }
    }
    Accesses {
        by_offset,
        wavefronts,
        conflicting,
    }
}

/// The picture's cells: SMEM's cells (rows: mode 0 of its layout, columns: the other modes,
/// colexicographically) coloured by the bank of their element, labelled with the bank (`b#`) and,
/// where instruction `j`'s threads access them, the thread (`T#`); accessed cells are outlined,
/// in red when the access conflicts.
pub fn cells(smem: &Smem, elem_bytes: i64, acc: &Accesses, title: &str) -> Result<Cells, String> {
    let fail = |e: Error| format!("error: banks: {e}");
    let s = smem.as_dyn();
    let n = s.size();
    if n > MAX_CELLS {
        return Err(format!(
            "error: banks: the SMEM layout has {n} cells, more than the {MAX_CELLS} this view draws"
        ));
    }
    let l = smem.layout();
    let rows = if l.rank() == 1 {
        1
    } else {
        l.mode(0).map_err(fail)?.size()
    };
    let cols = n / rows;
    let mut out = Cells {
        title: title.to_string(),
        rows,
        cols,
        fill: Vec::with_capacity(n as usize),
        label: Vec::with_capacity(n as usize),
        outline: Vec::with_capacity(n as usize),
    };
    for r in 0..rows {
        for c in 0..cols {
            let o = s.offset(r + rows * c).map_err(fail)?;
            let bank = o
                .checked_mul(elem_bytes)
                .map(|b| (b / 4).rem_euclid(32))
                .ok_or_else(|| "error: banks: a byte address overflows i64".to_string())?;
            out.fill.push(bank_colour(bank));
            match acc.by_offset.get(&o) {
                Some(&(t, bad)) => {
                    out.label.push(format!("T{t}\nb{bank}"));
                    out.outline
                        .push(if bad { Outline::Red } else { Outline::Strong });
                }
                None => {
                    out.label.push(format!("b{bank}"));
                    out.outline.push(Outline::Plain);
                }
            }
        }
    }
    Ok(out)
}

/// `banks`, SMEM, TV, B, V, J: the report of every instruction, the swizzle search, and the
/// picture of instruction `J` (from 0).
pub fn banks(a: &[&str], force_svg: bool) -> String {
    match answer(a, force_svg) {
        Ok(s) | Err(s) => s,
    }
}

fn answer(a: &[&str], force_svg: bool) -> Result<String, String> {
    let text = a.first().copied().unwrap_or("");
    let smem = Smem::parse(text).map_err(|e| {
        failure(
            format!("error: banks: argument 1 {}: {e}", quote(text)),
            Some((0, text)),
            Some(&e),
        )
    })?;
    let tv = layout_arg("banks", a, 1)?;
    let elem_bytes = required_int("banks", a, 2, "the element size in bytes", (1, 16))?;
    let vector = required_int("banks", a, 3, "the values per access", (1, 16))?;
    let j = crate::int_arg("banks", a, 4, "the instruction", (0, i64::MAX))?.unwrap_or(0);
    let refused = |e: Error| failure(format!("error: banks: {e}"), None, Some(&e));
    let report = bank_conflicts(smem.as_dyn(), &tv, elem_bytes, vector).map_err(refused)?;
    let table = access_addresses(smem.as_dyn(), &tv, elem_bytes, vector).map_err(refused)?;
    let Some(addr) = table.get(j as usize) else {
        return Err(failure(
            format!(
                "error: banks: argument 5 `{j}`: there are {} instructions, numbered from 0",
                report.instructions
            ),
            Some((4, a.get(4).copied().unwrap_or(""))),
            None,
        ));
    };
    let acc = accesses(addr, elem_bytes, vector);
    let title = format!(
        "{text}: instruction {j} of TV {tv}, {} wavefronts (ideal {})",
        report.wavefronts[j as usize], report.ideal[j as usize]
    );
    let picture = cells(&smem, elem_bytes, &acc, &title).map_err(|m| failure(m, None, None))?;
    let search = match swizzle_search(smem.as_dyn(), &[tv], elem_bytes, vector) {
        Ok(found) => json::json!({
            "swizzle": found.swizzle.to_string(),
            "layout": found.layout.to_string(),
            "conflict_free": found.conflict_free,
            "wavefronts": found.reports.first().map_or(&[][..], |r| &r.wavefronts[..]),
            "tried": found.tried,
        }),
        Err(e) => json::json!({ "error": e.to_string() }),
    };
    Ok(json::object(vec![
        ("instructions", json::json!(report.instructions)),
        ("wavefronts", json::json!(report.wavefronts)),
        ("ideal", json::json!(report.ideal)),
        ("conflicting", json::json!(acc.conflicting)),
        ("search", search),
        crate::picture_field(&picture, force_svg),
    ])
    .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use cute::Layout;

    /// The picture's model agrees with the core's wavefront count, instruction by instruction.
    #[test]
    fn view_model_agrees_with_the_core() {
        let cases = [
            ("(8,64):(64,1)", "((8,4),(8,2)):((1,64),(8,256))", 2, 8),
            (
                "Sw<3,3,3> o 0 o (8,64):(64,1)",
                "((8,4),(8,2)):((1,64),(8,256))",
                2,
                8,
            ),
            ("(32,32):(32,1)", "(32,32):(32,1)", 4, 1),
            ("(32,32):(1,32)", "(32,32):(32,1)", 4, 1),
            ("(32,64):(64,1)", "(32,(2,32)):(1,(32,64))", 4, 2),
            ("(32,64):(66,1)", "(32,(2,32)):(1,(32,64))", 4, 2),
        ];
        for (smem, tv, b, v) in cases {
            let s = Smem::parse(smem).unwrap();
            let tv: Layout = tv.parse().unwrap();
            let r = bank_conflicts(s.as_dyn(), &tv, b, v).unwrap();
            let table = access_addresses(s.as_dyn(), &tv, b, v).unwrap();
            assert_eq!(table.len(), r.instructions);
            for (j, addr) in table.iter().enumerate() {
                let acc = accesses(addr, b, v);
                assert_eq!(
                    acc.wavefronts, r.wavefronts[j],
                    "{smem} {tv} instruction {j}"
                );
                assert_eq!(acc.conflicting.is_empty(), r.wavefronts[j] == r.ideal[j]);
            }
        }
    }

    #[test]
    fn conflicts_are_outlined_in_red() {
        let a = banks(
            &[
                "(8,64):(64,1)",
                "((8,4),(8,2)):((1,64),(8,256))",
                "2",
                "8",
                "0",
            ],
            true,
        );
        assert!(
            a.starts_with(r#"{"instructions":2,"wavefronts":[32,32],"ideal":[4,4]"#),
            "{a}"
        );
        assert!(a.contains(r#""swizzle":"Sw<3,3,3>""#), "{a}");
        // 32 threads of 8 halves each: 256 cells accessed, all conflicting
        assert_eq!(a.matches("cell conflict").count(), 256);
        assert_eq!(a.matches("class=\\\"cell").count(), 512);
        let b = banks(
            &[
                "Sw<3,3,3> o 0 o (8,64):(64,1)",
                "((8,4),(8,2)):((1,64),(8,256))",
                "2",
                "8",
                "1",
            ],
            true,
        );
        assert!(b.contains(r#""wavefronts":[4,4]"#), "{b}");
        assert_eq!(b.matches("cell access").count(), 256);
        assert_eq!(b.matches("cell conflict").count(), 0);
    }

    #[test]
    fn bad_fields_name_their_argument() {
        let a = banks(
            &[
                "(8,64):(64,1",
                "((8,4),(8,2)):((1,64),(8,256))",
                "2",
                "8",
                "",
            ],
            false,
        );
        assert!(a.contains(r#""arg":0,"start":12,"end":12"#), "{a}");
        let a = banks(
            &[
                "(8,64):(64,1)",
                "((8,4),(8,2)):((1,64),(8,256))",
                "two",
                "8",
                "",
            ],
            false,
        );
        assert!(a.contains(r#""arg":2,"start":0,"end":3"#), "{a}");
        let a = banks(
            &[
                "(8,64):(64,1)",
                "((8,4),(8,2)):((1,64),(8,256))",
                "2",
                "8",
                "2",
            ],
            false,
        );
        assert!(a.contains("there are 2 instructions"), "{a}");
        let a = banks(
            &[
                "(8,64):(64,1)",
                "((8,4),(8,2)):((1,64),(8,256))",
                "2",
                "3",
                "",
            ],
            false,
        );
        assert!(a.contains(r#""category":"Unsupported""#), "{a}");
    }
}
