//! `cute draw --thread T` outlines a thread that exists: with `--tv` a thread of the TV layout's
//! mode 0, with `--atom` a thread of the atom; any other is refused with one line naming the
//! option, the layout and the range, as `cute partition --thread` refuses it.

use std::process::Command;

mod stderr_shape;

/// Exit status and stderr of `cute args`; stdout must be empty on failure.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(args)
        .output()
        .expect("run cute");
    let err = String::from_utf8(o.stderr).unwrap();
    if o.status.code() != Some(0) {
        assert!(o.stdout.is_empty(), "{args:?}: stdout on failure");
        if let Err(why) = stderr_shape::check(&err) {
            panic!("{args:?}: {why}");
        }
    } else {
        assert!(!o.stdout.is_empty(), "{args:?}: no picture");
    }
    (o.status.code(), err)
}

const TV: &str = "((4,8),(2,2)):((32,1),(16,8))";

#[test]
fn a_thread_outside_the_tv_layout_is_refused() {
    for t in ["99", "32", "-1"] {
        let (code, err) = run(&["draw", TV, "--tv", "16", "8", &format!("--thread={t}")]);
        assert_eq!(code, Some(1), "{t}: {err}");
        assert_eq!(
            err,
            format!("error: draw: --thread {t}: the TV layout {TV} has 32 threads, 0 to 31\n")
        );
    }
    for t in ["0", "31"] {
        assert_eq!(
            run(&["draw", TV, "--tv", "16", "8", "--thread", t]).0,
            Some(0),
            "{t}"
        );
    }
    // the same thread is refused by partition
    let (code, err) = run(&["partition", "(16,8):(1,16)", TV, "--thread", "99"]);
    assert_eq!(code, Some(1), "{err}");
}

#[test]
fn a_thread_outside_the_atom_is_refused() {
    let (code, err) = run(&[
        "draw",
        "--atom",
        "SM80_16x8x16_F32F16F16F32_TN",
        "--thread",
        "32",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.starts_with(
            "error: draw: --thread 32: the atom SM80_16x8x16_F32F16F16F32_TN, whose C layout "
        ) && err.ends_with(" has 32 threads, 0 to 31\n"),
        "{err}"
    );
    assert_eq!(
        run(&[
            "draw",
            "--atom",
            "SM80_16x8x16_F32F16F16F32_TN",
            "--thread",
            "31"
        ])
        .0,
        Some(0)
    );
    let (code, err) = run(&["draw", "--atom", "SM75_U32x4_LDSM_N", "--thread", "32"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("whose source layout") && err.contains("has 32 threads"),
        "{err}"
    );
}

/// The cells of a TV picture's SVG: `(row, col, label lines, outlined)`, in document order.
fn tv_cells(svg: &str) -> Vec<(i64, i64, Vec<String>, bool)> {
    let attr = |line: &str, key: &str| -> Option<String> {
        let k = format!(" {key}=\"");
        let at = line.find(&k)? + k.len();
        Some(line[at..at + line[at..].find('"')?].to_string())
    };
    let mut cells: Vec<(i64, i64, Vec<String>, bool)> = Vec::new();
    for line in svg.lines() {
        if line.starts_with("<rect class=\"cell\"") {
            let num = |k: &str| attr(line, k).unwrap().parse::<i64>().unwrap();
            let on = attr(line, "data-mark").as_deref() == Some("outline");
            cells.push((num("data-row"), num("data-col"), Vec::new(), on));
        } else if line.starts_with("<text class=\"label\"") {
            let text = &line[line.find('>').unwrap() + 1..line.rfind("</text>").unwrap()];
            cells.last_mut().unwrap().2.push(text.to_string());
        }
    }
    cells
}

fn picture(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(args)
        .output()
        .expect("run cute");
    assert_eq!(o.status.code(), Some(0), "{args:?}: {o:?}");
    String::from_utf8(o.stdout).unwrap()
}

/// Regression: a rank-1 TV layout is threads of one value each, in the picture as for
/// `--thread` (CuTe's print_latex appends `1:0`): `8:1 --tv 2 4 --thread 5` outlines cell (1, 2),
/// thread 5's, where it used to outline nothing (the picture drew one thread of 8 values).
#[test]
fn a_rank_1_tv_layout_is_threads_in_the_picture_and_for_thread() {
    let cells = tv_cells(&picture(&[
        "draw", "8:1", "--tv", "2", "4", "--thread", "5",
    ]));
    assert_eq!(cells.len(), 8);
    for (r, c, label, on) in &cells {
        let t = r + 2 * c;
        assert_eq!(label, &[format!("T{t}"), "V0".to_string()], "({r}, {c})");
        assert_eq!(*on, t == 5, "({r}, {c})");
    }
    let (code, err) = run(&["draw", "8:1", "--tv", "2", "4", "--thread", "8"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        err,
        "error: draw: --thread 8: the TV layout 8:1 has 8 threads, 0 to 7\n"
    );
    let cells = tv_cells(&picture(&[
        "draw", "5:1", "--tv", "1", "5", "--thread", "1",
    ]));
    let outlined: Vec<(i64, i64)> = cells.iter().filter(|c| c.3).map(|c| (c.0, c.1)).collect();
    assert_eq!(outlined, [(0, 1)]);
}

/// Regression: a cell of several owners names the first in (thread, value) order, the owner
/// CuTe's print_latex draws (thread outer, value inner; a cell drawn once), not the first in the
/// layout's domain order (thread fastest).
#[test]
fn a_shared_cell_names_its_first_owner_in_thread_value_order() {
    // (t, v) -> t + v: cell 1 is (0, 1) and (1, 0)
    let cells = tv_cells(&picture(&["draw", "(2,2):(1,1)", "--tv", "1", "3"]));
    let labels: Vec<Vec<String>> = cells.into_iter().map(|c| c.2).collect();
    assert_eq!(labels, [["T0", "V0"], ["T0+1", "V1"], ["T1", "V1"]]);
    let tex = picture(&["draw", "(2,2):(1,1)", "--tv", "1", "3", "--format", "tikz"]);
    assert!(
        tex.contains("at (0,1) {\\shortstack{T0+1 \\\\ V1}};"),
        "{tex}"
    );
    // (t, (a, b, c)) -> 3t + 3c with value a + 4c: cell 3 (row 3, column 0) is thread 1's values
    // 0..3 and thread 0's values 4..7
    let cells = tv_cells(&picture(&[
        "draw",
        "(4,4,1,2):(3,0,32,3)",
        "--tv",
        "4",
        "4",
    ]));
    let at = |r: i64, c: i64| {
        cells
            .iter()
            .find(|x| (x.0, x.1) == (r, c))
            .map(|x| x.2.clone())
            .unwrap()
    };
    assert_eq!(at(0, 0), ["T0", "V0+3"]);
    assert_eq!(at(3, 0), ["T0+1", "V4+3"]);
    assert_eq!(at(2, 1), ["T1+1", "V4+3"]);
    assert_eq!(at(1, 2), ["T2+1", "V4+3"]);
    assert_eq!(at(0, 3), ["T3", "V4+3"]);
    assert!(at(1, 0).is_empty());
}
