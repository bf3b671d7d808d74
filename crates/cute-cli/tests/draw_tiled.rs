//! `cute draw --tiled-mma` and `--tiled-copy`: the command draws the tiled value the core builds
//! from the same atom and layouts (its SVG is the picture of that value, byte for byte), and
//! refuses what does not make a tiled value with a message naming the flag and the condition.

mod in_process;

use cute::atom::{cp_async_16b, ldmatrix, mma_sm80_16x8x16, wgmma_64xnx16, DType};
use cute::tiled::{make_tiled_copy, make_tiled_copy_a, make_tiled_copy_b, make_tiled_mma};
use cute_draw::pictures;
use in_process::{cute, ok};

const SM80: &str = "SM80_16x8x16_F32F16F16F32_TN";

/// The command's output is the picture `want` (up to the final newline); on a difference, the
/// first differing line, not the whole picture.
fn same(got: &str, want: &str, what: &str) {
    let (g, w) = (got.trim_end(), want.trim_end());
    if g != w {
        let at = g.lines().zip(w.lines()).position(|(a, b)| a != b);
        let line = at.map(|i| (g.lines().nth(i), w.lines().nth(i)));
        panic!("{what}: the output differs from the picture at line {at:?}: {line:?}");
    }
}

fn fails(args: &[&str], wanted: &str) {
    let (code, out, err) = cute(args);
    assert_eq!((code, out.as_str()), (1, ""), "{args:?}: {err}");
    assert!(err.starts_with("error: draw: "), "{args:?}: {err}");
    assert!(err.contains(wanted), "{args:?}: {err}");
}

#[test]
fn tiled_mma_is_the_core_value_drawn() {
    let atom = mma_sm80_16x8x16(DType::F16).unwrap();
    let perm = "<32,(8,2,2):(1,16,8),16>";
    let t = make_tiled_mma(
        &atom,
        &"(2,2,1):(1,2,0)".parse().unwrap(),
        &perm.parse().unwrap(),
    )
    .unwrap();
    let want = pictures::tiled_mma(&t, Some(3)).unwrap().svg();
    // the atom layout as a shape, as a layout of rank 2 and of rank 3: the same tiled MMA
    for al in ["(2,2)", "(2,2):(1,2)", "(2,2,1):(1,2,0)"] {
        let got = ok(&[
            "draw",
            "--tiled-mma",
            SM80,
            "--atom-layout",
            al,
            "--permutation",
            perm,
            "--thread",
            "3",
        ]);
        same(&got, &want, al);
    }
    let w = make_tiled_mma(
        &wgmma_64xnx16(64, DType::F16).unwrap(),
        &"(2,1,1):(1,0,0)".parse().unwrap(),
        &"<_,_,_>".parse().unwrap(),
    )
    .unwrap();
    let got = ok(&[
        "draw",
        "--tiled-mma",
        "SM90_64x64x16_F32F16F16_SS",
        "--atom-layout",
        "(2,1)",
        "--format",
        "tikz",
    ]);
    let want = pictures::tiled_mma(&w, None).unwrap().tikz();
    same(&got, &want, "wgmma");
    assert!(
        got.contains("SM90_64x64x16_F32F16F16_SS"),
        "the title names N"
    );
}

#[test]
fn tiled_copy_is_the_core_value_drawn() {
    let mma = make_tiled_mma(
        &mma_sm80_16x8x16(DType::F16).unwrap(),
        &"(2,2,1):(1,2,0)".parse().unwrap(),
        &"<_,_,_>".parse().unwrap(),
    )
    .unwrap();
    let a = make_tiled_copy_a(&ldmatrix(4, false).unwrap(), 16, &mma).unwrap();
    let got = ok(&[
        "draw",
        "--tiled-copy",
        "SM75_U32x4_LDSM_N",
        "--operand",
        "a",
        "--tiled-mma",
        SM80,
        "--atom-layout",
        "(2,2)",
        "--thread",
        "65",
    ]);
    let want = pictures::tiled_copy(&a, Some(65)).unwrap().svg();
    same(&got, &want, "ldmatrix A");
    let b = make_tiled_copy_b(&ldmatrix(2, true).unwrap(), 16, &mma).unwrap();
    let got = ok(&[
        "draw",
        "--tiled-copy",
        "SM75_U16x4_LDSM_T",
        "--operand",
        "b",
        "--tiled-mma",
        SM80,
        "--atom-layout",
        "(2,2)",
    ]);
    same(&got, &pictures::tiled_copy(&b, None).unwrap().svg(), "b");
    // 4-byte elements: cp.async's 16 bytes are 4 values
    let c = make_tiled_copy(
        &cp_async_16b().unwrap(),
        32,
        &"(16,8):(8,1)".parse().unwrap(),
        &"(1,4):(1,1)".parse().unwrap(),
    )
    .unwrap();
    let got = ok(&[
        "draw",
        "--tiled-copy",
        "SM80_CP_ASYNC_CACHEGLOBAL_16B",
        "--thr",
        "(16,8):(8,1)",
        "--val",
        "(1,4)",
        "--elem-bytes",
        "4",
    ]);
    same(&got, &pictures::tiled_copy(&c, None).unwrap().svg(), "c");
}

#[test]
fn bad_tiled_arguments_are_refused_by_name() {
    fails(
        &["draw", "--tiled-mma", "SM80_16x8x32"],
        "--tiled-mma `SM80_16x8x32`: no such MMA atom",
    );
    fails(
        &["draw", "--tiled-mma", "SM90_64x12x16_F32F16F16_SS"],
        "no such MMA atom",
    );
    fails(
        &["draw", "--tiled-mma", SM80, "--atom-layout", "(2,2,2,2)"],
        "the atom layout has rank at most 3",
    );
    fails(
        &["draw", "--tiled-mma", SM80, "--atom-layout", "(2,1)", "--permutation", "<16,_,_>"],
        "a tile extent of the permutation must be a multiple of the atom extent times the atoms in that mode",
    );
    fails(
        &[
            "draw",
            "--tiled-mma",
            SM80,
            "--permutation",
            "<32,(4,4):(1,8),16>",
            "--atom-layout",
            "(2,2)",
        ],
        "must be a permutation of 0..size",
    );
    fails(
        &[
            "draw",
            "--tiled-mma",
            SM80,
            "--permutation",
            "<4294967296,_,_>",
        ],
        "--permutation <4294967296,_,_>: the tile 4294967296:1 has 4294967296 elements",
    );
    fails(
        &["draw", "--tiled-mma", SM80, "--thread", "32"],
        "--thread 32: the tiled MMA of SM80_16x8x16_F32F16F16F32_TN over (32,1,1,1):(1,0,0,0) has 32 threads, 0 to 31",
    );
    fails(
        &[
            "draw",
            "--tiled-copy",
            "SM75_U32x8_LDSM_N",
            "--thr",
            "32",
            "--val",
            "8",
        ],
        "no such copy atom",
    );
    fails(
        &[
            "draw",
            "--tiled-copy",
            "SM75_U32x4_LDSM_N",
            "--thr",
            "(32,1)",
            "--val",
            "(1,3)",
        ],
        "values per thread must be a multiple of the atom's",
    );
    fails(
        &[
            "draw",
            "--tiled-copy",
            "SM75_U32x4_LDSM_N",
            "--thr",
            "(32,1)",
        ],
        "--tiled-copy needs --thr LAYOUT and --val LAYOUT",
    );
    fails(
        &[
            "draw",
            "--tiled-copy",
            "SM75_U32x4_LDSM_N",
            "--operand",
            "a",
        ],
        "--operand tiles the copy over an operand of a tiled MMA: it needs --tiled-mma",
    );
    fails(
        &[
            "draw",
            "--tiled-copy",
            "SM75_U32x4_LDSM_N",
            "--tiled-mma",
            SM80,
        ],
        "needs --operand a, b or c",
    );
    fails(
        &[
            "draw",
            "--tiled-copy",
            "SM75_U32x4_LDSM_N",
            "--thr",
            "(32,1)",
            "--val",
            "(1,8)",
            "--elem-bytes",
            "0",
        ],
        "--elem-bytes 0: an element of a tiled copy has 1 to 16 bytes",
    );
    fails(
        &["draw", "--atom-layout", "(2,2)"],
        "--atom-layout belongs to --tiled-mma ATOM",
    );
    fails(
        &["draw", "(4,4):(1,4)", "--thr", "(2,2)"],
        "--thr belongs to --tiled-copy ATOM",
    );
    fails(
        &["draw", "(4,4):(1,4)", "--tiled-mma", SM80],
        "give no LAYOUT with it",
    );
    fails(
        &["draw", "--tiled-mma", SM80, "--atom", SM80],
        "--atom does not belong to --tiled-mma",
    );
    fails(
        &["draw", "--tiled-mma", SM80, "--elem-bytes", "2"],
        "--elem-bytes does not belong to --tiled-mma",
    );
    fails(
        &["draw", "--tiled-mma", SM80, "--atom-layout", "(2,2"],
        "--atom-layout `(2,2`: parse",
    );
}

#[test]
fn a_tiled_mma_of_one_atom_draws_as_the_atom() {
    // `--tiled-mma NAME` without an atom layout is the atom itself: the same cells as `--atom NAME`
    // (the command's table of atoms and the core's atoms agree, cell by cell)
    let mut compared = 0;
    for name in cute_cli::atoms::NAMES {
        let name = name.replace("64xNx", "64x64x");
        let Some(cute_cli::atoms::Atom::Mma(m)) = cute_cli::atoms::atom(&name) else {
            continue;
        };
        let atom = pictures::mma(&m.name, &m.a, &m.b, &m.c, m.mnk, Some(1)).unwrap();
        let t = cute_cli::draw_tiled::tiled_mma(&name, None, None).unwrap();
        assert_eq!(t.size(), m.c.mode(0).unwrap().size(), "{name}");
        let tiled = pictures::tiled_mma(&t, Some(1)).unwrap();
        assert_eq!(atom.panels.len(), tiled.panels.len());
        for (k, (p, q)) in atom.panels.iter().zip(&tiled.panels).enumerate() {
            assert_eq!((p.rows, p.cols), (q.rows, q.cols), "{name} panel {k}");
            assert!(p.cells == q.cells, "{name} panel {k}: the cells differ");
        }
        compared += 1;
    }
    // the 31 MMA atoms of `cute draw --atom list`
    assert_eq!(compared, 31);
}

/// Regression: the cell limit applies to the panels drawn (a wgmma tiled 8 x 1 is 512 x 256 +
/// 512 x 16 + 16 x 256 cells, within it), not to the (thread, value) pairs of a layout (B's: every
/// one of the 1024 threads holds every cell); a picture past the limit is refused naming the
/// flags given and every panel.
#[test]
fn the_cell_limit_applies_to_the_panels_drawn() {
    let dir = std::env::temp_dir().join(format!("cute-draw-tiled-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("wgmma_8x1.svg");
    let args = [
        "draw",
        "--tiled-mma",
        "SM90_64x256x16_F32F16F16_SS",
        "--atom-layout",
        "(8,1)",
        "-o",
        p.to_str().unwrap(),
    ];
    let said = ok(&args);
    assert!(said.contains("(svg, 143360 cells, "), "{said}");
    let svg = std::fs::read_to_string(&p).unwrap();
    assert_eq!(svg.matches("<rect class=\"cell\"").count(), 143360);
    // B(0, 0) is held by all 1024 threads, each as its value 0: thread 0 is shown
    let b00 = svg
        .lines()
        .find(|l| l.contains("data-panel=\"0\" data-row=\"0\" data-col=\"0\""))
        .unwrap();
    assert!(b00.contains("data-threads=\"0 1 2 "), "{}", &b00[..200]);
    std::fs::remove_file(&p).unwrap();
    let (code, out, err) = cute(&[
        "draw",
        "--tiled-mma",
        "SM90_64x256x16_F32F16F16_SS",
        "--atom-layout",
        "(8,2)",
    ]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "error: draw: --tiled-mma SM90_64x256x16_F32F16F16_SS --atom-layout (8,2): TiledMMA of SM90_64x256x16_F32F16F16_SS over threads (128,8,2,1):(1,128,1024,0): B, A and C: panels of 16 x 512 + 512 x 16 + 512 x 512 cells = 278528 cells, more than the limit of 262144 cells a picture draws\n"
    );
}
