//! The `tiled` request: a `TiledMMA` or `TiledCopy` of the core ([`cute::tiled`]) made from an
//! atom's CUTLASS name and two layouts, drawn as CuTe's `print_latex` draws it
//! ([`cute_draw::pictures::tiled_mma`], [`cute_draw::pictures::tiled_copy`]), one thread
//! outlined.
//!
//! `tiled`, `mma`, ATOM, ATOM_LAYOUT, PERMUTATION, (unused), THREAD: the atom repeated over the
//! atom layout (a layout, or a shape for its column-major layout; empty: one atom), each mode of
//! the tile permuted by the by-mode tiler (empty: `<_,_,_>`).
//!
//! `tiled`, `copy`, ATOM, THR, VAL, BITS, THREAD: the copy atom over threads laid out by THR,
//! each thread's values by VAL, in elements of BITS bits (empty: 16).
//!
//! The answer is `{"svg", "title", "threads"}`; every cell of the picture carries its owners in
//! `data-threads`, which the page uses to isolate a thread.
//!
//! ```
//! let a = cute_wasm::handle("tiled\nmma\nSM80_16x8x16_F32F16F16F32_TN\n(2,2)\n\n\n5");
//! assert!(a.contains(r#""threads":128"#) && a.contains("data-threads"));
//! let e = cute_wasm::handle("tiled\nmma\nSM80_bogus\n\n\n\n");
//! assert!(e.contains("no MMA atom is called") && e.contains(r#""arg":1"#));
//! ```

use cute::atom::{copy_atom_named, mma_atom_named, COPY_ATOM_NAMES, MMA_ATOM_NAMES};
use cute::tiled::{make_tiled_copy, make_tiled_mma};
use cute::{IntTuple, Layout, Tiler};

use crate::json::json;
use crate::{failure, int_arg, layout_arg};

/// Argument `k` as a layout, or a shape (no `:`) for its column-major layout; `empty` when the
/// field is blank.
fn layout_or_shape(a: &[&str], k: usize, empty: &str) -> Result<Layout, String> {
    let text = a.get(k).copied().unwrap_or("").trim();
    if text.is_empty() {
        return layout_arg("tiled", &[empty], 0);
    }
    if text.contains(':') {
        return layout_arg("tiled", a, k);
    }
    let bad = |e: cute::Error| {
        failure(
            format!("error: tiled: argument {} `{text}`: {e}", k + 1),
            Some((k, text)),
            Some(&e),
        )
    };
    let shape: IntTuple = text.parse().map_err(bad)?;
    cute::compact_col_major(&shape).map_err(bad)
}

/// Answers `tiled` (see the module documentation).
pub fn tiled(a: &[&str]) -> String {
    let r = (|| {
        let kind = a.first().copied().unwrap_or("");
        let name = a.get(1).copied().unwrap_or("").trim();
        let fail = |e: cute::Error| failure(format!("error: tiled: {e}"), None, Some(&e));
        let draw_fail = |e: cute_draw::DrawError| failure(format!("error: tiled: {e}"), None, None);
        let (scene, threads) = match kind {
            "mma" => {
                let atom = mma_atom_named(name).ok_or_else(|| {
                    failure(
                        format!(
                            "error: tiled: no MMA atom is called `{name}`; the MMA atoms are {MMA_ATOM_NAMES}"
                        ),
                        Some((1, name)),
                        None,
                    )
                })?;
                let atoms = layout_or_shape(a, 2, "1:0")?;
                let ptext = a.get(3).copied().unwrap_or("").trim();
                let ptext = if ptext.is_empty() { "<_,_,_>" } else { ptext };
                let perm: Tiler = ptext.parse().map_err(|e| {
                    failure(
                        format!("error: tiled: argument 4 `{ptext}`: {e}"),
                        Some((3, ptext)),
                        Some(&e),
                    )
                })?;
                let t = make_tiled_mma(&atom, &atoms, &perm).map_err(fail)?;
                let thread = int_arg("tiled", a, 5, "the highlighted thread", (0, t.size() - 1))?;
                (
                    cute_draw::pictures::tiled_mma(&t, thread).map_err(draw_fail)?,
                    t.size(),
                )
            }
            "copy" => {
                let atom = copy_atom_named(name).ok_or_else(|| {
                    failure(
                        format!(
                            "error: tiled: no copy atom is called `{name}`; the copy atoms are {COPY_ATOM_NAMES}"
                        ),
                        Some((1, name)),
                        None,
                    )
                })?;
                let thr = layout_or_shape(a, 2, "1:0")?;
                let val = layout_or_shape(a, 3, "1:0")?;
                let bits = int_arg("tiled", a, 4, "the element size in bits", (1, 1024))?;
                let t = make_tiled_copy(&atom, bits.unwrap_or(16), &thr, &val).map_err(fail)?;
                let thread = int_arg("tiled", a, 5, "the highlighted thread", (0, t.size() - 1))?;
                (
                    cute_draw::pictures::tiled_copy(&t, thread).map_err(draw_fail)?,
                    t.size(),
                )
            }
            _ => {
                return Err(failure(
                    format!("error: tiled: argument 1 `{kind}`: mma or copy"),
                    Some((0, kind)),
                    None,
                ))
            }
        };
        Ok(json!({
            "svg": scene.svg(),
            "title": scene.title.clone(),
            "threads": threads,
        }))
    })();
    match r {
        Ok(v) => v.to_string(),
        Err(e) => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mma_and_copy_pictures_and_their_refusals() {
        let a = tiled(&[
            "mma",
            "SM80_16x8x16_F32F16F16F32_TN",
            "(2,2):(1,2)",
            "",
            "",
            "37",
        ]);
        assert!(a.contains("\"threads\":128"), "{a}");
        assert!(a.contains("data-mark=\\\"outline\\\""), "{a}");
        let c = tiled(&[
            "copy",
            "SM80_CP_ASYNC_CACHEGLOBAL_16B",
            "(16,8):(8,1)",
            "(1,8)",
            "16",
            "",
        ]);
        assert!(c.contains("\"threads\":128"), "{c}");
        let e = tiled(&[
            "mma",
            "SM80_16x8x16_F32F16F16F32_TN",
            "(2,2)",
            "<16,_,_>",
            "",
            "",
        ]);
        assert!(e.contains("multiple of the atom extent"), "{e}");
        let e = tiled(&[
            "mma",
            "SM80_16x8x16_F32F16F16F32_TN",
            "(2,2)",
            "",
            "",
            "128",
        ]);
        assert!(
            e.contains("from 0 to 127") && e.contains("\"arg\":5"),
            "{e}"
        );
        let e = tiled(&["mma", "SM80_16x8x16_F32F16F16F32_TN", "(2,2", "", "", ""]);
        assert!(e.contains("\"arg\":2"), "{e}");
        let e = tiled(&["nope"]);
        assert!(e.contains("mma or copy"), "{e}");
    }
}
