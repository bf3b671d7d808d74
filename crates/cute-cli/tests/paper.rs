//! The paper tour (`cute paper`), run in-process through the library: every worked example in scope
//! agrees with the paper or is one of the paper's known errata; the machinery
//! (comparison, erratum handling, table, JSON, summary, exit code) is checked on its own.

use cute_cli::paper::{
    render_json, render_text, rows, run_all, summary, Checked, Report, Row, Section, Status,
};
use std::collections::{BTreeMap, BTreeSet};

mod json_reader;

use json_reader::{parse_json, J};

/// The paper's suspected errata (T7.8 is the coordinate-stride one).
const ERRATA: [&str; 5] = ["T3.6", "S-TILE-4", "T5.7", "T6.8", "T7.8"];

fn errata() -> BTreeSet<&'static str> {
    ERRATA.into_iter().collect()
}

/// The paper's worked examples in scope: integer strides and the coordinate and
/// binary rows of Tables 1, 4, 5, 6, 7 and the tiler section.
fn scope() -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut add = |prefix: &str, n: std::ops::RangeInclusive<u32>| {
        for i in n {
            ids.insert(format!("{prefix}{i}"));
        }
    };
    add("S-LOOP-", 1..=3);
    add("F1-", 1..=2);
    add("S-CONG-", 1..=5);
    add("S-WCONG-", 1..=6);
    add("S-COMPAT-", 1..=6);
    add("S-CRD-", 1..=3);
    add("S-EVAL-", 1..=3);
    add("S-COMPL-", 1..=1);
    add("T1.", 1..=3);
    add("T2.", 1..=8);
    add("T3.", 1..=7);
    add("S-COAL-", 1..=7);
    add("S-ID-", 1..=5);
    add("S-CAT-", 1..=1);
    add("S-ASSOC-", 1..=4);
    add("S-COMP-", 1..=6);
    add("S-VIOL-", 1..=4);
    add("S-APP-", 1..=4);
    add("F6-", 1..=1);
    add("T4.", 1..=6);
    add("S-TILE-", 1..=5);
    add("T5.", 1..=11);
    add("S-VEC-", 1..=2);
    add("T6.", 1..=11);
    add("T7.", 1..=9);
    add("S-LP-", 1..=6);
    add("S-LD-", 1..=11);
    // the applications run on tensors (figures reconstructed, see the rows' notes)
    add("F5-", 1..=5);
    add("F8-", 1..=2);
    add("F9-", 1..=4);
    ids.insert("S-FOLD-1".into());
    ids.insert("T3.7b".into());
    ids.insert("S-LP-1b".into());
    ids.insert("S-LP-3b".into());
    ids
}

fn line(r: &Report) -> String {
    format!(
        "{} {}: paper {} | computed {} | {}",
        r.id,
        r.what,
        r.paper,
        r.computed,
        r.note.as_deref().unwrap_or("")
    )
}

#[test]
fn every_example_agrees_with_the_paper_or_is_a_known_erratum() {
    let reports = run_all();
    let failed: Vec<String> = reports
        .iter()
        .filter(|r| r.status == Status::Fail)
        .map(line)
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} examples fail:\n{}",
        failed.len(),
        reports.len(),
        failed.join("\n")
    );
}

#[test]
fn the_errata_reported_are_exactly_the_known_errata() {
    let got: BTreeSet<&str> = run_all()
        .iter()
        .filter(|r| r.status == Status::Erratum)
        .map(|r| r.id)
        .collect();
    assert_eq!(got, errata());
}

#[test]
fn the_rows_marked_as_errata_are_exactly_the_known_errata() {
    let declared: BTreeSet<&str> = rows()
        .iter()
        .filter(|r| r.erratum.is_some())
        .map(|r| r.id)
        .collect();
    assert_eq!(declared, errata());
}

#[test]
fn every_example_in_scope_is_in_the_tour_once() {
    let all = rows();
    let mut seen = BTreeMap::new();
    for r in &all {
        *seen.entry(r.id.to_string()).or_insert(0) += 1;
    }
    let dup: Vec<_> = seen.iter().filter(|(_, n)| **n > 1).collect();
    assert!(dup.is_empty(), "duplicate ids: {dup:?}");
    let ids: BTreeSet<String> = seen.into_keys().collect();
    let missing: Vec<_> = scope().difference(&ids).cloned().collect();
    assert!(missing.is_empty(), "missing examples: {missing:?}");
}

#[test]
fn rows_come_in_the_order_of_the_paper_sections() {
    let all = rows();
    assert!(all.windows(2).all(|w| w[0].section <= w[1].section));
    assert_eq!(all.first().map(|r| r.section), Some(Section::Loops));
}

#[test]
fn inadmissible_compositions_show_the_category_and_a_one_line_reason() {
    let reports = run_all();
    let viol: Vec<&Report> = reports
        .iter()
        .filter(|r| r.id.starts_with("S-VIOL-"))
        .collect();
    assert_eq!(viol.len(), 4);
    for r in viol {
        assert_eq!(r.computed, "ERROR Divisibility", "{}", line(r));
        assert_eq!(r.status, Status::Ok);
        let note = r.note.as_deref().expect("the reason");
        assert!(!note.contains('\n'));
        assert!(
            note.starts_with("composition ") && note.contains("condition (")
                || note.contains("cannot"),
            "{note}"
        );
    }
}

#[test]
fn the_constant_copy_is_reported_as_non_injective() {
    let r = rows()
        .into_iter()
        .find(|r| r.id == "T2.6")
        .expect("T2.6")
        .run();
    assert_eq!(r.status, Status::Ok);
    assert!(r.computed.contains("not injective"), "{}", r.computed);
    // The other copies have injective destinations.
    for r in run_all()
        .iter()
        .filter(|r| r.id.starts_with("T2.") && r.id != "T2.6")
    {
        assert!(r.computed.ends_with("dst = expected"), "{}", line(r));
    }
}

#[test]
fn symbolic_rows_name_their_numeric_stand_ins() {
    let reports = run_all();
    for id in [
        "S-CONG-3",
        "S-WCONG-1",
        "S-WCONG-2",
        "S-LOOP-2",
        "S-COMP-4",
        "T3.1",
        "T3.6",
    ] {
        let r = reports.iter().find(|r| r.id == id).expect(id);
        let note = r.note.as_deref().unwrap_or("");
        assert!(
            note.contains("stand-in") || note.contains("numeric instance"),
            "{id}: {note}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The machinery, on rows made up for the purpose.

#[test]
fn a_wrong_paper_value_fails() {
    let r = Row::op("X-1", "coalesce", &["(2,(1,6)):(1,(6,2))"], "13:1").run();
    assert_eq!(r.status, Status::Fail);
    assert_eq!(r.computed, "12:1");
    let r = Row::op("X-2", "coalesce", &["(2,(1,6)):(1,(6,2))"], "12:1").run();
    assert_eq!(r.status, Status::Ok);
    // Whitespace is not significant.
    let r = Row::op("X-3", "coalesce", &["(2,(1,6)):(1,(6,2))"], " 12 : 1 ").run();
    assert_eq!(r.status, Status::Ok);
}

#[test]
fn expected_errors_match_by_category_only() {
    let row = |e| {
        Row::op(
            "X",
            "composition",
            &["(4,6,8):(2,3,5)", "6:3"],
            "inadmissible",
        )
        .expect(e)
    };
    assert_eq!(row("ERROR Divisibility").run().status, Status::Ok);
    assert_eq!(row("ERROR NotInjective").run().status, Status::Fail);
    // An error where a value is expected fails, and a value where an error is expected fails.
    let r = Row::op(
        "X",
        "composition",
        &["(4,6,8):(2,3,5)", "6:3"],
        "(2,3):(6,3)",
    )
    .run();
    assert_eq!(r.status, Status::Fail);
    let r = Row::op("X", "composition", &["7:11", "3:4"], "x")
        .expect("ERROR Divisibility")
        .run();
    assert_eq!(r.status, Status::Fail);
}

#[test]
fn an_erratum_row_needs_the_correct_value() {
    let row = || Row::op("X", "coalesce", &["(2,(1,6)):(1,(6,2))"], "6:2");
    let r = row().erratum("12:1").run();
    assert_eq!(r.status, Status::Erratum);
    assert_eq!(r.correct.as_deref(), Some("12:1"));
    // Computing the paper's (wrong) value, or anything but the correct value, fails.
    assert_eq!(row().erratum("13:1").run().status, Status::Fail);
    let same_as_paper = Row::op("X", "coalesce", &["(1,6):(6,2)"], "6:2").erratum("12:1");
    assert_eq!(same_as_paper.run().status, Status::Fail);
}

#[test]
fn unknown_operations_and_failing_checks_fail() {
    let r = Row::op("X", "no_such_op", &["1:1"], "1:1").run();
    assert_eq!(r.status, Status::Fail);
    assert_eq!(r.computed, "unknown operation");
    let r = Row::check("X", "check", &["1:1"], "a check", "v", |_, _| {
        Err("bad literal".into())
    })
    .run();
    assert_eq!(r.status, Status::Fail);
    assert!(r.computed.contains("bad literal"));
    let r = Row::check("X", "check", &[], "a check", "v", |_, exp| {
        Ok(Checked::new("w", "w" == exp))
    })
    .run();
    assert_eq!(r.status, Status::Fail);
    let r = Row::check("X", "check", &[], "a check", "v", |_, exp| {
        Ok(Checked::new("v", "v" == exp))
    })
    .run();
    assert_eq!(r.status, Status::Ok);
}

fn sample() -> Vec<Report> {
    vec![
        Row::op("X-1", "coalesce", &["(2,(1,6)):(1,(6,2))"], "12:1").run(),
        Row::op("X-2", "coalesce", &["(1,6):(6,2)"], "6:3")
            .section(Section::Coalesce)
            .run(),
        Row::op("X-3", "coalesce", &["(1,6):(6,2)"], "6:3")
            .erratum("6:2")
            .section(Section::Coalesce)
            .run(),
    ]
}

#[test]
fn the_summary_line_counts_each_status() {
    let s = sample();
    assert_eq!(summary(&s), "3 examples: 1 ✓, 1 errata, 1 ✗");
    assert_eq!(summary(&s[..1]), "1 examples: 1 ✓, 0 errata");
    let all = run_all();
    let ok = all.iter().filter(|r| r.status == Status::Ok).count();
    assert!(summary(&all).starts_with(&format!("{} examples: {ok} ✓, ", all.len())));
}

#[test]
fn the_table_has_section_headings_aligned_rows_and_the_summary() {
    let s = sample();
    let text = render_text(&s);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(*lines.last().unwrap(), summary(&s));
    assert!(text.contains(&format!("── {} ──", Section::Loops.title())));
    assert!(text.contains(&format!("── {} ──", Section::Coalesce.title())));
    assert!(!text.contains(Section::Divide.title()));
    // The status marks (the last column) start at the same position on every row line.
    let marks: BTreeSet<usize> = lines
        .iter()
        .filter(|l| l.starts_with("  X-"))
        .map(|l| {
            let mark = ["✓", "✗", "erratum"]
                .into_iter()
                .find(|m| l.ends_with(m))
                .expect("a status mark");
            l.chars().count() - mark.chars().count()
        })
        .collect();
    assert_eq!(marks.len(), 1, "{text}");
    let x3 = lines.iter().find(|l| l.starts_with("  X-3")).unwrap();
    assert!(x3.ends_with("erratum"));
    // The erratum note (it may wrap) gives the paper's and the correct value.
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("the paper states 6:3, the correct value is 6:2"),
        "{text}"
    );
}

#[test]
fn the_json_has_one_object_per_row_with_the_fields() {
    let reports = run_all();
    let json = render_json(&reports);
    let lines: Vec<&str> = json.lines().collect();
    assert_eq!(lines.len(), reports.len());
    for (l, r) in lines.iter().zip(&reports) {
        let v = parse_json(l).unwrap_or_else(|e| panic!("{e}: {l}"));
        let J::Obj(obj) = &v else {
            panic!("not an object: {l}")
        };
        let field = |k: &str| obj.iter().find(|(x, _)| x == k).map(|(_, v)| v);
        let s = |k: &str| field(k).map(|v| v.s().to_string());
        assert_eq!(s("id").as_deref(), Some(r.id));
        assert_eq!(s("section").as_deref(), Some(r.section.title()));
        assert_eq!(s("op"), Some(r.op.clone()));
        assert_eq!(s("paper"), Some(r.paper.clone()));
        assert_eq!(s("computed"), Some(r.computed.clone()));
        assert_eq!(s("status").as_deref(), Some(r.status.word()));
        assert!(["ok", "fail", "erratum"].contains(&r.status.word()));
        let args: Vec<String> = v
            .get("args")
            .arr()
            .iter()
            .map(|a| a.s().to_string())
            .collect();
        assert_eq!(args, r.args);
        assert_eq!(s("correct"), r.correct);
        assert_eq!(s("note"), r.note);
    }
}

#[test]
fn the_command_exits_with_failure_exactly_when_a_row_fails() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(["paper", "--json"])
        .output()
        .expect("run cute paper");
    let reports = run_all();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout, render_json(&reports));
    let any_fail = reports.iter().any(|r| r.status == Status::Fail);
    assert_eq!(out.status.success(), !any_fail);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.trim_end(), summary(&reports));
}
