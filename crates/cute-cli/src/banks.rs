//! `cute banks` and `cute swizzle-search`: shared-memory bank conflicts of a warp's access
//! patterns, and the cheapest swizzle that removes them (the model is `cute::banks`).
//!
//! Both print a readable table, or with `--json` one JSON object whose keys are a stable contract:
//!
//! ```text
//! cute banks SMEM TV --elem-bytes B --vector V --json
//! {"instructions": 2, "wavefronts": [32, 32], "ideal": [4, 4]}
//! cute swizzle-search SMEM TV [TV ...] --elem-bytes B --vector V --json
//! {"swizzle": "Sw<3,3,3>", "layout": "Sw<3,3,3> o 0 o (8,64):(64,1)", "wavefronts": [[4, 4], [4, 4]], "conflict_free": true}
//! ```
//!
//! `cute banks --addresses` adds `"addresses"`: the byte address in shared memory of every thread's
//! access, per instruction (the table a kernel needs to replay the pattern on a GPU).
//!
//! Failures return the one-line message for stderr, `error: …`, naming the operation, the
//! operands and the violated condition.

use cute::banks::{access_addresses, Access};
use cute::{bank_conflicts, swizzle_search, BankReport, Layout};
use std::fmt::Write;

pub use cute::banks::Smem;

use crate::diag::bad_argument;
use crate::json::{json, line, text};

/// `[a, b, ...]`, as the text reports print a list.
fn list(v: &[u32]) -> String {
    let items: Vec<String> = v.iter().map(u32::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// `cute banks`: the wavefronts per instruction of `tv` on `smem`.
pub fn banks(
    smem: &str,
    tv: &str,
    elem_bytes: i64,
    vector: i64,
    json: bool,
    addresses: bool,
) -> Result<String, String> {
    let s = Smem::parse(smem).map_err(|e| bad_argument("banks", 1, smem, &e))?;
    let t: Layout = tv.parse().map_err(|e| bad_argument("banks", 2, tv, &e))?;
    let r = bank_conflicts(s.as_dyn(), &t, elem_bytes, vector)
        .map_err(|e| format!("error: banks: {e}"))?;
    let table = if addresses {
        Some(
            access_addresses(s.as_dyn(), &t, elem_bytes, vector)
                .map_err(|e| format!("error: banks: {e}"))?,
        )
    } else {
        None
    };
    if json {
        let mut v = json!({
            "instructions": r.instructions,
            "wavefronts": r.wavefronts,
            "ideal": r.ideal,
        });
        if let Some(table) = table {
            v["addresses"] = json!(table);
        }
        return Ok(line(&v));
    }
    // valid, or bank_conflicts would have refused
    let acc = Access::new(elem_bytes, vector).map_err(|e| format!("error: banks: {e}"))?;
    let mut out = String::new();
    let _ = writeln!(out, "SMEM  {smem}");
    let _ = writeln!(out, "TV    {t}");
    let _ = writeln!(
        out,
        "access: {vector} × {elem_bytes} bytes = {} bytes per thread, {} phase{} of {} threads",
        acc.width(),
        acc.phases(),
        if acc.phases() == 1 { "" } else { "s" },
        acc.threads_per_phase()
    );
    out.push_str(&report_table(&r));
    if let Some(table) = table {
        for (j, row) in table.iter().enumerate() {
            let a: Vec<String> = row.iter().map(i64::to_string).collect();
            let _ = writeln!(out, "addresses of instruction {j}: {}", a.join(" "));
        }
    }
    Ok(out.trim_end().to_string())
}

/// The per-instruction table and a verdict line.
fn report_table(r: &BankReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>11}  {:>10}  {:>5}  {:>6}",
        "instruction", "wavefronts", "ideal", "ratio"
    );
    let ratio = |w: u64, i: u64| w as f64 / i.max(1) as f64;
    for (j, (&w, &i)) in r.wavefronts.iter().zip(&r.ideal).enumerate() {
        let _ = writeln!(
            out,
            "{j:>11}  {w:>10}  {i:>5}  {:>5.2}×",
            ratio(w as u64, i as u64)
        );
    }
    let (w, i) = (r.total(), r.ideal_total());
    let _ = writeln!(
        out,
        "{:>11}  {w:>10}  {i:>5}  {:>5.2}×",
        "total",
        ratio(w, i)
    );
    if w == i {
        out.push_str("conflict-free: every instruction reaches the ideal\n");
    } else {
        let _ = writeln!(
            out,
            "bank conflicts: {} wavefronts more than the ideal {i}",
            w - i
        );
    }
    out
}

/// `cute swizzle-search`: the cheapest swizzle of `smem` that makes every pattern conflict-free.
pub fn search(
    smem: &str,
    tvs: &[String],
    elem_bytes: i64,
    vector: i64,
    json: bool,
) -> Result<String, String> {
    let s = Smem::parse(smem).map_err(|e| bad_argument("swizzle-search", 1, smem, &e))?;
    let mut patterns = Vec::with_capacity(tvs.len());
    for (k, tv) in tvs.iter().enumerate() {
        let t: Layout = tv
            .parse()
            .map_err(|e| bad_argument("swizzle-search", k + 2, tv, &e))?;
        patterns.push(t);
    }
    let found = swizzle_search(s.as_dyn(), &patterns, elem_bytes, vector)
        .map_err(|e| format!("error: swizzle-search: {e}"))?;
    if json {
        let w: Vec<&[u32]> = found.reports.iter().map(|r| &r.wavefronts[..]).collect();
        return Ok(line(&json!({
            "swizzle": text(&found.swizzle),
            "layout": text(&found.layout),
            "wavefronts": w,
            "conflict_free": found.conflict_free,
        })));
    }
    let mut out = String::new();
    let _ = writeln!(out, "swizzle  {}", found.swizzle);
    let _ = writeln!(out, "layout   {}", found.layout);
    if found.conflict_free {
        let _ = writeln!(
            out,
            "conflict-free: every pattern reaches the ideal (the cheapest of {} candidates tried)",
            found.tried
        );
    } else {
        let total: u64 = found.reports.iter().map(BankReport::total).sum();
        let ideal: u64 = found.reports.iter().map(BankReport::ideal_total).sum();
        let _ = writeln!(
            out,
            "none exists: no swizzle Sw<B,M,S> with B ≤ 5, M ≤ 7, B ≤ S ≤ 10 makes every pattern \
             conflict-free ({} candidates tried); the best found, {}, needs {total} wavefronts \
             against the ideal {ideal}",
            found.tried, found.swizzle
        );
    }
    for (k, (t, r)) in patterns.iter().zip(&found.reports).enumerate() {
        let _ = writeln!(
            out,
            "pattern {}  {t}: wavefronts {} ideal {}",
            k + 1,
            list(&r.wavefronts),
            list(&r.ideal)
        );
    }
    Ok(out.trim_end().to_string())
}
