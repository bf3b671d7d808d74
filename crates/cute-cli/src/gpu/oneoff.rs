//! `cute gpu copy` and `cute gpu contract`: one user's request, planned, compiled, verified and
//! timed.

use std::collections::HashMap;

use cute::Layout;
use std::sync::Arc;

use cute_cuda::atom::DType;
use cute_cuda::cases::{CopyCase, GemmCase, Rng};
use cute_cuda::copy::plan_copy;
use cute_cuda::gemm::plan_gemm;
use cute_cuda::tma_gemm::plan_gemm_tma;
use cute_cuda::wgmma::plan_gemm_wgmma;
use cute_cuda::{DeviceBuffer, DeviceTensor, Gpu, GpuError, Stream};

use super::{open_gpu, run_copy, run_gemm, GemmPath, GpuCmd, Outcome, Row};

fn dtype(what: &str, name: &str) -> Result<DType, Outcome> {
    DType::parse(name).ok_or_else(|| {
        Outcome::error(
            format!(
                "{what}: unknown element type `{name}` (known: {})",
                DType::NAMES
            ),
            2,
        )
    })
}

fn layout(what: &str, k: usize, text: &str) -> Result<Layout, Outcome> {
    text.parse::<Layout>().map_err(|e| Outcome {
        out: String::new(),
        err: Some(crate::diag::bad_argument(what, k, text, &e)),
        code: 1,
    })
}

fn rows_json(plan: &str, rows: &[Row]) -> String {
    let r: serde_json::Value = serde_json::from_str(&super::json(rows)).unwrap_or_default();
    serde_json::json!({ "plan": plan, "runs": r }).to_string()
}

/// `--plan`: the plan alone, as text or (with `--json`) the object of a run without runs.
fn plan_only(plan: String, json: bool) -> Outcome {
    if json {
        Outcome::text(rows_json(&plan, &[]))
    } else {
        Outcome::text(plan)
    }
}

fn finish(plan: String, rows: Vec<Row>, json: bool) -> Outcome {
    let code = if rows.iter().all(|r| r.status == "ok") {
        0
    } else {
        1
    };
    let out = if json {
        rows_json(&plan, &rows)
    } else {
        format!("{plan}\n{}", super::table(&rows).trim_end())
    };
    Outcome {
        out,
        err: None,
        code,
    }
}

/// `s` as an error message quotes it: at most 60 characters, the rest elided.
fn clip(s: &str) -> String {
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// Parses `s=64,t=16` into the extents of the letters.
fn sizes(text: &str) -> Result<HashMap<char, i64>, String> {
    let mut m = HashMap::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("`{}` is not LETTER=EXTENT", clip(item)))?;
        let mut ks = k.trim().chars();
        let (Some(letter), None) = (ks.next(), ks.next()) else {
            return Err(format!("`{}` is not one letter", clip(k)));
        };
        if !letter.is_ascii_alphabetic() {
            return Err(format!("`{letter}` is not a letter (a-z, A-Z)"));
        }
        let n: i64 = v
            .trim()
            .parse()
            .map_err(|_| format!("`{}` is not an integer extent", clip(v)))?;
        if n < 1 {
            return Err(format!(
                "the extent of {letter} is {n}; extents are at least 1"
            ));
        }
        if m.insert(letter, n).is_some() {
            return Err(format!("{letter} is given twice"));
        }
    }
    Ok(m)
}

/// The column-major tensor of `term`'s letters (the first letter fastest); a term with no
/// letters is a scalar, the one-element layout `1:0`.
fn column_major(term: &str, ext: &HashMap<char, i64>) -> Result<Layout, String> {
    if term.is_empty() {
        return Ok(Layout::leaf(1, 0).expect("1:0 is a layout"));
    }
    let (mut shape, mut stride, mut st) = (Vec::new(), Vec::new(), 1i64);
    for ch in term.chars() {
        let n = *ext
            .get(&ch)
            .ok_or_else(|| format!("no extent for letter {ch} (add {ch}=N to --sizes)"))?;
        shape.push(n);
        stride.push(st);
        st = st
            .checked_mul(n)
            .ok_or_else(|| format!("the tensor {term} has more than 2^63 elements"))?;
    }
    Layout::flat(&shape, &stride).map_err(|e| format!("the tensor {}: {e}", clip(term)))
}

/// Operand `what` of the GEMM form `(x, y, l)`, compact with the batch outermost: the second
/// mode contiguous (`(y,1,x·y)`, A and B K-major) or the first (`(1,x,x·y)`, C), or the refusal
/// of `contract` when a stride overflows `i64`.
fn gemm_form(spec: &str, what: &str, [x, y, l]: [i64; 3], first: bool) -> Result<Layout, Outcome> {
    let refuse = |e: String| {
        Outcome::error(
            format!("contract {}: {what} in GEMM form: {e}", clip(spec)),
            1,
        )
    };
    let batch = x
        .checked_mul(y)
        .ok_or_else(|| refuse(format!("{x}·{y} elements overflow i64")))?;
    let stride = if first { [1, x, batch] } else { [y, 1, batch] };
    Layout::flat(&[x, y, l], &stride).map_err(|e| refuse(e.to_string()))
}

/// The contraction through the library as a program calls it again and again: planned once
/// ([`Gpu::plan_contract`]) and launched per call ([`Gpu::launch_plan`]) on random operands,
/// timed as the other rows are (CUDA events around each call, median of 20), and also back to
/// back (20 calls between two events, median of 7) and by the host's time per call.
fn planned_row(
    gpu: &Arc<Gpu>,
    spec: &str,
    [a, b, c]: [Layout; 3],
    (ab, ct): (DType, DType),
    flops: f64,
) -> Row {
    let name = format!("contract {spec} {ab}->{ct}, library: planned once, launched per call");
    let run = || -> Result<(String, f64, f64, f64, f64), GpuError> {
        let mut rng = Rng::new(2028);
        let mut operand = |l: &Layout, t: DType| -> Result<DeviceBuffer, GpuError> {
            let n = l.cosize()?.max(1) as usize;
            // uniform values in [-1, 1) as bf16/f16 bits, or f32 (power depends on the data)
            let bits: Vec<u16> = (0..n)
                .map(|_| {
                    let x = (rng.next_u32() >> 8) as f32 / (1u32 << 23) as f32 - 1.0;
                    match t {
                        DType::F16 => f16_bits(x),
                        _ => (x.to_bits() >> 16) as u16,
                    }
                })
                .collect();
            match t {
                DType::F16 | DType::Bf16 => DeviceBuffer::from_host(gpu, &bits),
                _ => DeviceBuffer::zeroed(gpu, n * t.bytes() as usize),
            }
        };
        let (ba, bb, bc) = (operand(&a, ab)?, operand(&b, ab)?, operand(&c, ct)?);
        let ta = DeviceTensor::new(&ba, a, ab)?;
        let tb = DeviceTensor::new(&bb, b, ab)?;
        let tc = DeviceTensor::new(&bc, c, ct)?;
        let plan = gpu.plan_contract(spec, &ta, &tb, &tc)?;
        let launch = || {
            gpu.launch_plan(&plan, &[&ta, &tb, &tc], 1.0, 0.0, Stream::OWN)
                .map(|_| ())
        };
        let ms = gpu.time_ms(3, 20, launch)?;
        // back to back: 20 launches between two events (the rate a stream of calls reaches)
        let batch = 20;
        let b2b_ms = gpu.time_ms(1, 7, || (0..batch).try_for_each(|_| launch()))? / batch as f64;
        // the host's time per call: 200 launches queued (the kernels run behind them), not the
        // kernels' time
        let calls = 200;
        let t0 = std::time::Instant::now();
        for _ in 0..calls {
            launch()?;
        }
        let host_us = t0.elapsed().as_secs_f64() * 1e6 / calls as f64;
        gpu.sync()?;
        Ok((
            plan.kind().to_string(),
            ms,
            flops / ms / 1e9,
            host_us,
            flops / b2b_ms / 1e9,
        ))
    };
    let mut row = Row::new("gemm-perf", name, Ok(String::new()));
    match run() {
        Ok((kind, ms, tflops, host_us, b2b)) => {
            row.detail = format!(
                "{kind}: {tflops:.0} TFLOP/s ({b2b:.0} back to back), host {host_us:.1} us per call"
            );
            row.numbers = vec![
                ("ms", ms),
                ("tflops", tflops),
                ("host_us", host_us),
                ("b2b_tflops", b2b),
            ];
        }
        Err(e) => row.status = format!("FAIL: {e}"),
    }
    row
}

/// The bits of the f16 nearest below `x` in magnitude (values under 2^-14 become zero): test
/// data, where only the spread of values matters.
fn f16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let e = ((b >> 23) & 0xff) as i32 - 127 + 15;
    if e <= 0 {
        return sign;
    }
    if e >= 31 {
        return sign | 0x7bff;
    }
    sign | ((e as u16) << 10) | ((b >> 13) & 0x3ff) as u16
}

/// Runs a one-off `cute gpu` subcommand.
pub fn run(cmd: &GpuCmd) -> Outcome {
    match one(cmd) {
        Ok(o) | Err(o) => o,
    }
}

fn one(cmd: &GpuCmd) -> Result<Outcome, Outcome> {
    match cmd {
        GpuCmd::Copy {
            src,
            dst,
            dtype: t,
            plan,
            json,
        } => {
            let t = dtype("gpu copy", t)?;
            let (s, d) = (layout("gpu copy", 1, src)?, layout("gpu copy", 2, dst)?);
            let p = plan_copy(&s, &d, t).map_err(|e| Outcome::error(e, 1))?;
            if *plan {
                return Ok(plan_only(p.describe(), *json));
            }
            let gpu = open_gpu()?;
            let case = CopyCase {
                name: format!("copy {s} -> {d} {t}"),
                src: s,
                dst: d,
                dtype: t,
                permute: None,
            };
            let row = run_copy(&gpu, &case, 2026, true);
            Ok(finish(p.describe(), vec![row], *json))
        }
        GpuCmd::Contract {
            spec,
            sizes: sz,
            dtype: t,
            out_dtype,
            plan,
            json,
        } => {
            let (ab, ct) = (dtype("gpu contract", t)?, dtype("gpu contract", out_dtype)?);
            let spec: String = spec.chars().filter(|c| !c.is_whitespace()).collect();
            let ext =
                sizes(sz).map_err(|e| Outcome::error(format!("contract: --sizes: {e}"), 2))?;
            let (lhs, out) = spec.split_once("->").ok_or_else(|| {
                Outcome::error(
                    format!(
                        "contract {}: expected `A,B->C` (e.g. stupr,qtru->stqp)",
                        clip(&spec)
                    ),
                    1,
                )
            })?;
            let (ta, tb) = lhs.split_once(',').ok_or_else(|| {
                Outcome::error(
                    format!("contract {}: expected two input terms `A,B`", clip(&spec)),
                    1,
                )
            })?;
            // a term is letters: a third input or a stray character is named here, not as a
            // letter without an extent
            for (name, term) in [("A", ta), ("B", tb), ("C", out)] {
                if let Some(ch) = term.chars().find(|c| !c.is_ascii_alphabetic()) {
                    let hint = if ch == ',' || ch == '-' || ch == '>' {
                        "a spec has two input terms and one output, `A,B->C`"
                    } else {
                        "a term's modes are letters (a-z, A-Z)"
                    };
                    return Err(Outcome::error(
                        format!(
                            "contract {}: `{}` in term {name} `{}`: {hint}",
                            clip(&spec),
                            ch.escape_debug(),
                            clip(term)
                        ),
                        1,
                    ));
                }
            }
            let lay = |term: &str| -> Result<Layout, Outcome> {
                column_major(term, &ext)
                    .map_err(|e| Outcome::error(format!("contract {}: {e}", clip(&spec)), 1))
            };
            let (a, b, c) = (lay(ta)?, lay(tb)?, lay(out)?);
            // a size for no letter of the spec is a typo, not a default
            let mut unused: Vec<char> =
                ext.keys().copied().filter(|&l| !spec.contains(l)).collect();
            if !unused.is_empty() {
                unused.sort_unstable();
                let names: Vec<String> = unused.iter().map(char::to_string).collect();
                let (noun, verb) = if names.len() == 1 {
                    ("letter", "is")
                } else {
                    ("letters", "are")
                };
                return Err(Outcome::error(
                    format!(
                        "contract: --sizes: {noun} {} {verb} not in {}",
                        names.join(", "),
                        clip(&spec)
                    ),
                    2,
                ));
            }
            let modes =
                cute_gemm::contract_modes(&spec, &a, &b, &c).map_err(|e| Outcome::error(e, 1))?;
            let case = GemmCase {
                name: format!("contract {spec} {ab}->{ct}"),
                a: modes.a,
                b: modes.b,
                c: modes.c,
                ab,
                c_type: ct,
            };
            let tma_plan =
                plan_gemm_tma(&case.a, &case.b, &case.c, ab, ct, [8, 8], super::PLAN_SMS);
            let hopper_plan = plan_gemm_wgmma(&case.a, &case.b, &case.c, ab, ct);
            let describe = match (&tma_plan, &hopper_plan) {
                (Ok(p), _) => format!(
                    "{}\n  (planned for {} SMs, an H100 or H200; a run plans for its GPU's)",
                    p.describe(),
                    super::PLAN_SMS
                ),
                (_, Ok(p)) => p.describe(),
                (_, Err(e)) => format!(
                    "(no Hopper plan: {e})\n{}",
                    plan_gemm(&case.a, &case.b, &case.c, ab, ct)
                        .map_err(|e| Outcome::error(e, 1))?
                        .describe()
                ),
            };
            let folded = format!(
                "A {} B {} C {}\nrows {:?} cols {:?} reduction {:?} batch {:?}\n{describe}",
                case.a, case.b, case.c, modes.rows, modes.cols, modes.reduction, modes.batch
            );
            if *plan {
                return Ok(plan_only(folded, *json));
            }
            let gpu = open_gpu()?;
            let sms = gpu.sm_count.max(1) as u32;
            let path_of = |c: &GemmCase| match GemmPath::best_hopper(c, sms) {
                Some(p) if gpu.capability == (9, 0) => p,
                _ => GemmPath::MmaSync,
            };
            let path = path_of(&case);
            let mut rows = vec![run_gemm(&gpu, &case, 2026, Some(2048), true, path)];
            // where the plan splits its last wave along K (stream-K), the kernel with every tile
            // whole timed beside it: what the split gains
            if path == GemmPath::Tma
                && super::gemm::gemm_launch(&case, path, sms).is_ok_and(|k| k.workspace > 0)
            {
                rows.push(run_gemm(
                    &gpu,
                    &case,
                    2026,
                    Some(2048),
                    true,
                    GemmPath::TmaDataParallel,
                ));
            }
            // the same flop count in GEMM form (M, N, K, L column-major) for comparison
            let (m, n, k, l) = (
                case.c.mode(0).map(|x| x.size()).unwrap_or(1),
                case.c.mode(1).map(|x| x.size()).unwrap_or(1),
                case.a.mode(1).map(|x| x.size()).unwrap_or(1),
                if case.c.rank() > 2 {
                    case.c.mode(2).map(|x| x.size()).unwrap_or(1)
                } else {
                    1
                },
            );
            let flat = GemmCase {
                name: format!("GEMM form M{m} N{n} K{k} L{l} {ab}->{ct}"),
                a: gemm_form(&spec, "A", [m, k, l], false)?,
                b: gemm_form(&spec, "B", [n, k, l], false)?,
                c: gemm_form(&spec, "C", [m, n, l], true)?,
                ab,
                c_type: ct,
            };
            rows.push(run_gemm(
                &gpu,
                &flat,
                2027,
                Some(2048),
                true,
                path_of(&flat),
            ));
            // every letter's extent once, a multiply and an add each
            let flops = 2.0
                * ext
                    .iter()
                    .filter(|(ch, _)| spec.contains(**ch))
                    .map(|(_, &n)| n as f64)
                    .product::<f64>();
            rows.push(planned_row(&gpu, &spec, [a, b, c], (ab, ct), flops));
            Ok(finish(folded, rows, *json))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_refuse() {
        let m = sizes("s=64, t=16").unwrap();
        assert_eq!((m[&'s'], m[&'t']), (64, 16));
        assert!(sizes("s=0").unwrap_err().contains("at least 1"));
        assert!(sizes("st=4").unwrap_err().contains("one letter"));
        assert!(sizes("s=4,s=5").unwrap_err().contains("twice"));
        assert!(sizes("s").unwrap_err().contains("LETTER=EXTENT"));
        assert!(sizes("-=4").unwrap_err().contains("not a letter"));
    }

    #[test]
    fn column_major_terms() {
        let m = sizes("s=4,t=3,u=2").unwrap();
        assert_eq!(
            column_major("stu", &m).unwrap().to_string(),
            "(4,3,2):(1,4,12)"
        );
        assert!(column_major("sx", &m).unwrap_err().contains("letter x"));
    }
}
