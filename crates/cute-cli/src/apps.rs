//! The questions kernels ask of layouts (paper, section 5 applications), as reports:
//!
//! * `cute partition DATA TV [--thread T]`: which elements each thread of a thread-value layout
//!   owns (`DATA ∘ TV`, sliced by thread);
//! * `cute vector-width SRC DST`: how many elements can move together (the maximal common vector,
//!   eq. (14)), at which coordinates, and the loop nest `copy` runs;
//! * `cute contains DATA INSTRUCTION`: whether a data layout holds every offset an instruction
//!   touches, and at which coordinates (the left inverse; `tmem_32x32b[.xN]` and
//!   `tmem_16x256b[.xN]` name the TMEM access layouts).

use crate::json::{json, line, text, Value};
use crate::ops::tensor::{counting, instruction, plan_text};
use crate::ops::EVAL_ALL_LIMIT as LIST_LIMIT;
use cute::{Error, ErrorKind, Layout, Op, Operand};

/// Argument `k` (from 1) of `cmd`, a layout.
pub(crate) fn lay(cmd: &str, k: usize, s: &str) -> Result<Layout, String> {
    s.parse()
        .map_err(|e: Error| crate::diag::bad_argument(cmd, k, s, &e))
}

/// The one-line message of a refusal of the algebra inside `cmd` (named first unless the error
/// names it already).
fn fail(cmd: &str) -> impl Fn(Error) -> String + '_ {
    move |e| {
        if e.op().name() == cmd {
            format!("error: {e}")
        } else {
            format!("error: {cmd}: {e}")
        }
    }
}

/// `off + l(i)` for every `i < |l|`; at most [`LIST_LIMIT`] of them (a `Capacity` error of `op`
/// otherwise).
fn offsets(cmd: &str, op: Op, l: &Layout, off: i64) -> Result<Vec<i64>, String> {
    let n = l.size();
    if n > LIST_LIMIT {
        return Err(fail(cmd)(
            Error::new(
                op,
                ErrorKind::Capacity {
                    what: "the offsets listed for one layout",
                    limit: LIST_LIMIT as usize,
                },
            )
            .with(Operand::Layout(*l), Operand::None),
        ));
    }
    let v: Result<Vec<i64>, Error> = (0..n)
        .map(|i| {
            l.eval(i)?.checked_add(off).ok_or(Error::new(
                op,
                ErrorKind::Overflow {
                    what: "an offset plus the slice's offset",
                },
            ))
        })
        .collect();
    v.map_err(fail(cmd))
}

/// `v` comma-separated, as the text reports print offsets.
fn joined(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// `cute partition`: `DATA ∘ TV`, then one line per thread (or the one asked for): the thread's
/// tensor `{offset} ∘ values` and its offsets in value order. Without `--thread` at most
/// [`LIST_LIMIT`] elements (all threads' values) are listed, with `--thread` at most that many
/// values of the thread: beyond, a `Capacity` error. With `json`, one object (see
/// [`crate::cli`]).
pub fn partition(data: &str, tv: &str, thread: Option<i64>, json: bool) -> Result<String, String> {
    let cmd = "partition";
    let (d, t) = (lay(cmd, 1, data)?, lay(cmd, 2, tv)?);
    let r = cute::composition(&d, &t).map_err(fail(cmd))?;
    let mut out = format!("{d} ∘ {t} = {r}\nthread  tensor  offsets\n");
    let mut rows = Vec::new();
    let threads: Box<dyn Iterator<Item = i64>> = match thread {
        Some(x) => Box::new(std::iter::once(x)),
        None => {
            if t.size() > LIST_LIMIT {
                return Err(fail(cmd)(
                    Error::new(
                        Op::Partition,
                        ErrorKind::Capacity {
                            what: "the elements listed for all threads of TV; pick one thread with --thread",
                            limit: LIST_LIMIT as usize,
                        },
                    )
                    .with(Operand::Layout(d), Operand::Layout(t)),
                ));
            }
            Box::new(0..t.mode(0).map_err(fail(cmd))?.size())
        }
    };
    for th in threads {
        let (vals, off) = cute::tv_partition(&d, &t, th).map_err(fail(cmd))?;
        let tensor = counting((vals, off));
        let o = offsets(cmd, Op::Partition, &vals, off)?;
        if json {
            rows.push(json!({
                "thread": th,
                "tensor": tensor,
                "offset": off,
                "values": vals.to_string(),
                "offsets": o,
            }));
        } else {
            out.push_str(&format!("{th}  {tensor}  {}\n", joined(&o)));
        }
    }
    if json {
        return Ok(line(&json!({
            "data": text(&d),
            "tv": text(&t),
            "composition": text(&r),
            "threads": rows,
        })));
    }
    out.pop();
    Ok(out)
}

/// `cute vector-width`: the maximal common vector of SRC and DST, its coordinates and the copy plan.
/// The coordinates and offsets are listed up to [`LIST_LIMIT`] of them (beyond, the output says
/// that they are not listed). With `json`, one object (see [`crate::cli`]).
pub fn vector_width(src: &str, dst: &str, json: bool) -> Result<String, String> {
    let cmd = "vector-width";
    let (s, d) = (lay(cmd, 1, src)?, lay(cmd, 2, dst)?);
    let k = cute::max_common_vector(&s, &d).map_err(fail(cmd))?;
    let r = cute::max_common_layout(&s, &d).map_err(fail(cmd))?;
    let not_listed = format!("not listed: more than {LIST_LIMIT}");
    let coords = if r.size() > LIST_LIMIT {
        None
    } else {
        Some(offsets(cmd, Op::MaxCommonLayout, &r, 0)?)
    };
    // the offsets of the common vector in SRC and DST
    let at = |l: &Layout| -> Result<Option<Vec<i64>>, String> {
        if k > LIST_LIMIT {
            return Ok(None);
        }
        let v: Result<Vec<i64>, Error> = (0..k).map(|i| l.eval(r.eval(i)?)).collect();
        Ok(Some(v.map_err(fail(cmd))?))
    };
    let (so, dso) = (at(&s)?, at(&d)?);
    let (plan, note) = if s.size() != d.size() {
        (None, "none (the sizes differ)")
    } else {
        match cute::copy_plan(&s, &d).map_err(fail(cmd))? {
            Some(p) => (Some(plan_text(&p)), ""),
            None => (None, "the reference loop (the destination is not provably injective, or the layouts share no leaf structure)"),
        }
    };
    if json {
        return Ok(line(&json!({
            "src": text(&s),
            "dst": text(&d),
            "max_common_vector": k,
            "max_common_layout": text(&r),
            "coordinates": coords,
            "src_offsets": so,
            "dst_offsets": dso,
            "copy": plan,
            "copy_note": plan.is_none().then_some(note),
        })));
    }
    let coords = coords.map_or(not_listed.clone(), |c| joined(&c));
    let mut out =
        format!("max_common_vector = {k}\nmax_common_layout = {r} (coordinates {coords})\n");
    if k > LIST_LIMIT {
        out.push_str(&format!(
            "src offsets {not_listed}\ndst offsets {not_listed}\n"
        ));
    } else if k > 1 {
        let show = |v: Option<Vec<i64>>| v.map_or(String::new(), |v| joined(&v));
        out.push_str(&format!(
            "src offsets {}\ndst offsets {}\n",
            show(so),
            show(dso)
        ));
    }
    match plan {
        Some(p) => out.push_str(&format!("copy: {p}")),
        None => out.push_str(&format!("copy: {note}")),
    }
    Ok(out)
}

/// `cute contains`: whether DATA holds every offset of INSTRUCTION, and where (the coordinates
/// listed up to [`LIST_LIMIT`] of them when they form no layout). With `json`, one object (see
/// [`crate::cli`]).
pub fn contains(data: &str, instr: &str, json: bool) -> Result<String, String> {
    let cmd = "contains";
    let a = lay(cmd, 1, data)?;
    let t = instruction(instr).map_err(|e| crate::diag::bad_argument(cmd, 2, instr, &e))?;
    let c = cute::contains(&a, &t).map_err(fail(cmd))?;
    if json {
        let missing = c
            .missing
            .map(|(i, off)| json!({"coordinate": i, "offset": off}));
        let (lay, coords) = match (&c.missing, &c.layout) {
            (Some(_), _) => (Value::Null, Value::Null),
            (None, Some(l)) => (text(l), Value::Null),
            (None, None) if c.coords.len() as i64 > LIST_LIMIT => (Value::Null, Value::Null),
            (None, None) => (Value::Null, json!(c.coords)),
        };
        return Ok(line(&json!({
            "data": text(&a),
            "instruction": text(&t),
            "left_inverse": text(&c.left_inverse),
            "contained": c.missing.is_none(),
            "missing": missing,
            "coordinates_layout": lay,
            "coordinates": coords,
        })));
    }
    let mut out = format!("instruction {t}\nleft inverse {}\n", c.left_inverse);
    match c.missing {
        Some((i, off)) => out.push_str(&format!(
            "contained: no — instruction coordinate {i} touches offset {off}, which {a} does not reach"
        )),
        None => {
            out.push_str("contained: yes\n");
            match c.layout {
                Some(l) => out.push_str(&format!("coordinates {l} (A† ∘ T)")),
                None if c.coords.len() as i64 > LIST_LIMIT => out.push_str(&format!(
                    "coordinates not listed: more than {LIST_LIMIT}"
                )),
                None => out.push_str(&format!(
                    "coordinates {}",
                    c.coords.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
                )),
            }
        }
    }
    Ok(out)
}
