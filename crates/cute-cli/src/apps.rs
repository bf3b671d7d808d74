//! The questions kernels ask of layouts (paper, section 5 applications), as reports:
//!
//! * `cute partition DATA TV [--thread T]`: which elements each thread of a thread-value layout
//!   owns (`DATA ∘ TV`, sliced by thread);
//! * `cute vector-width SRC DST`: how many elements can move together (the maximal common vector,
//!   eq. (14)), at which coordinates, and the loop nest `copy` runs;
//! * `cute contains DATA INSTRUCTION`: whether a data layout holds every offset an instruction
//!   touches, and at which coordinates (the left inverse; `tmem_32x32b[.xN]` and
//!   `tmem_16x256b[.xN]` name the TMEM access layouts).

use crate::ops::tensor::{counting, instruction, plan_text};
use cute::{Error, Layout};

fn lay(s: &str) -> Result<Layout, String> {
    s.parse()
        .map_err(|e: Error| format!("error: argument {}: {e}", crate::ops::quote(s)))
}

fn fail(e: Error) -> String {
    format!("error: {e}")
}

fn offsets(l: &Layout, off: i64) -> Result<String, String> {
    let v: Result<Vec<String>, Error> = (0..l.size().map_err(fail)?)
        .map(|i| Ok((off + l.eval(i)?).to_string()))
        .collect();
    Ok(v.map_err(fail)?.join(","))
}

/// `cute partition`: `DATA ∘ TV`, then one line per thread (or the one asked for): the thread's
/// tensor `{offset} ∘ values` and its offsets in value order.
pub fn partition(data: &str, tv: &str, thread: Option<i64>) -> Result<String, String> {
    let (d, t) = (lay(data)?, lay(tv)?);
    let r = cute::composition(&d, &t).map_err(fail)?;
    let mut out = format!("{d} ∘ {t} = {r}\nthread  tensor  offsets\n");
    let threads = match thread {
        Some(x) => x..x + 1,
        None => 0..t.mode(0).and_then(|m| m.size()).map_err(fail)?,
    };
    for th in threads {
        let (vals, off) = cute::tv_partition(&d, &t, th).map_err(fail)?;
        out.push_str(&format!(
            "{th}  {}  {}\n",
            counting((vals, off)),
            offsets(&vals, off)?
        ));
    }
    out.pop();
    Ok(out)
}

/// `cute vector-width`: the maximal common vector of SRC and DST, its coordinates and the copy plan.
pub fn vector_width(src: &str, dst: &str) -> Result<String, String> {
    let (s, d) = (lay(src)?, lay(dst)?);
    let k = cute::max_common_vector(&s, &d).map_err(fail)?;
    let r = cute::max_common_layout(&s, &d).map_err(fail)?;
    let coords = offsets(&r, 0)?;
    let mut out =
        format!("max_common_vector = {k}\nmax_common_layout = {r} (coordinates {coords})\n");
    if k > 1 {
        let at = |l: &Layout| -> Result<String, String> {
            let v: Result<Vec<String>, Error> = (0..k)
                .map(|i| Ok(l.eval(r.eval(i)?)?.to_string()))
                .collect();
            Ok(v.map_err(fail)?.join(","))
        };
        out.push_str(&format!(
            "src offsets {}\ndst offsets {}\n",
            at(&s)?,
            at(&d)?
        ));
    }
    if s.size().map_err(fail)? != d.size().map_err(fail)? {
        out.push_str("copy: none (the sizes differ)");
        return Ok(out);
    }
    out.push_str(&match cute::copy_plan(&s, &d).map_err(fail)? {
        Some(p) => format!("copy: {}", plan_text(&p)),
        None => "copy: the reference loop (the destination is not provably injective, or the layouts share no leaf structure)".to_string(),
    });
    Ok(out)
}

/// `cute contains`: whether DATA holds every offset of INSTRUCTION, and where.
pub fn contains(data: &str, instr: &str) -> Result<String, String> {
    let a = lay(data)?;
    let t = instruction(instr)
        .map_err(|e| format!("error: argument {}: {e}", crate::ops::quote(instr)))?;
    let c = cute::contains(&a, &t).map_err(fail)?;
    let mut out = format!("instruction {t}\nleft inverse {}\n", c.left_inverse);
    match c.missing {
        Some((i, off)) => out.push_str(&format!(
            "contained: no — instruction coordinate {i} touches offset {off}, which {a} does not reach"
        )),
        None => {
            out.push_str("contained: yes\n");
            match c.layout {
                Some(l) => out.push_str(&format!("coordinates {l} (A† ∘ T)")),
                None => out.push_str(&format!(
                    "coordinates {}",
                    c.coords.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
                )),
            }
        }
    }
    Ok(out)
}
