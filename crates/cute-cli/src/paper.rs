//! `cute paper`: the tour of the worked examples of "CuTe Layout Representation and Algebra"
//! (Cris Cecka, arXiv:2603.02298).
//!
//! Every worked example of the paper in scope is one [`Row`] of a table ([`rows`]), identified by
//! where it stands in the paper (`Tt.r` = Table t row r, `S-TOPIC-n` = the n-th worked example of
//! a topic in the text, `Ff-n` = figure f; the numbering of arXiv:2603.02298). A row is either
//!
//! * an **operation row**: an operation name and its textual arguments, run through the same
//!   dispatcher as `cute OP ARG...` ([`crate::ops::run`]); the printed value must equal the paper's
//!   value (or the expected error category), or
//! * a **check row**: a closure over the row's arguments that does what the example describes with the
//!   core API (enumerate a loop, copy or multiply through layouts, test congruence...) and says whether
//!   the outcome agrees with the paper.
//!
//! A row whose paper value is a suspected erratum carries the correct value ([`Row::erratum`]): it
//! is reported with status [`Status::Erratum`] when the computed value equals the correct one.
//! Rows are grouped by the paper's sections ([`Section`]) and printed as an aligned table
//! ([`render_text`]) or as one JSON object per row ([`render_json`]).
//!
//! | id | what | paper | computed | status |
//! |---|---|---|---|---|
//! | S-EVAL-1 | `eval_int(((2,2),(4,2)):((1,8),(2,16)), 22)` | `26` | `26` | ✓ |
//! | S-COAL-2 | `coalesce((2,(1,6)):(1,(6,2)), <*,*>)` | `(2,6):(1,2)` | `(2,6):(1,2)` | ✓ |
//! | S-VIOL-1 | `composition((4,6,8):(2,3,5), 6:3)` | inadmissible (9) | `ERROR Divisibility` | ✓ |
//! | T3.6 | GETT `(M,(K1,K2)):((W,X),1)` | valid layouts | `ERROR ProfileMismatch` | erratum |
//! | T5.7 | `right_inverse(((2,2),(2,4)):((0,1),(0,2)))` | `(2,2):(4,8)` | `(2,4):(2,8)` | erratum |
//!
//! ```
//! use cute_cli::paper::{rows, Status};
//! let row = rows().into_iter().find(|r| r.id == "S-EVAL-1").unwrap();
//! let report = row.run();
//! assert_eq!(report.computed, "26");
//! assert_eq!(report.status, Status::Ok);
//! ```

mod apps;
mod checks;
pub mod gallery;
mod rows;

pub use rows::rows;

use crate::json::json;
use crate::ops::{self, Outcome};
use std::fmt::Write as _;

/// The sections of the paper, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Section {
    Loops,
    Folding,
    HTuple,
    Layouts,
    Completeness,
    Semilinearity,
    Slicing,
    CopyGemm,
    Concatenation,
    Coalesce,
    Identity,
    Associativity,
    Composition,
    Partitioning,
    Tilers,
    RightInverse,
    Vectorization,
    LeftInverse,
    Admissibility,
    Complement,
    Product,
    Divide,
}

impl Section {
    /// The heading, in English with the paper's (Chinese) title.
    pub const fn title(self) -> &'static str {
        match self {
            Section::Loops => "Canonical loops and loop transformations (规范循环与循环变换)",
            Section::Folding => "Tensors and folding, Figure 1 (张量与折叠)",
            Section::HTuple => {
                "HTuple, congruence, compatibility, coordinates (HTuple、同余、兼容性与坐标)"
            }
            Section::Layouts => "Layouts: evaluation example, Figure 3 (布局与布局示例)",
            Section::Completeness => "Completeness (完备性)",
            Section::Semilinearity => "Semilinearity, Table 1: linear forms (半线性，表 1)",
            Section::Slicing => "Tensors: slicing, Figure 5 (切片)",
            Section::CopyGemm => "Applications: COPY / GEMM, Tables 2-3 (应用：COPY 与 GEMM)",
            Section::Concatenation => "Concatenation (拼接)",
            Section::Coalesce => "Coalesce (合并)",
            Section::Identity => "Composition: identity layouts (复合：恒等布局)",
            Section::Associativity => {
                "Composition: associativity counterexample (复合：结合性反例)"
            }
            Section::Composition => {
                "Composition: intuition and divisibility (复合：直觉与可整除性)"
            }
            Section::Partitioning => {
                "Application: partitioning, Figure 6 / Table 4 (应用：分区示例，表 4)"
            }
            Section::Tilers => "By-mode composition and tilers, Figure 7 (按模式复合与 Tiler)",
            Section::RightInverse => "Right inverse, Table 5 (右逆，表 5)",
            Section::Vectorization => "Application: vectorization (应用：向量化示例)",
            Section::LeftInverse => "Left inverse, Table 6 (左逆，表 6)",
            Section::Admissibility => {
                "Application: admissibility, TMEM, Figure 9 (应用：可接收性示例)"
            }
            Section::Complement => "Complement, Table 7 (补集，表 7)",
            Section::Product => {
                "Logical product; blocked/raked product, Figures 10-11 (应用：逻辑乘积)"
            }
            Section::Divide => "Logical divide, zipped_divide, Figure 12 (应用：逻辑除法)",
        }
    }
}

/// What a check closure found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The computed value, in words or CuTe notation.
    pub computed: String,
    /// Whether it agrees with the expected value (the paper's, or the erratum's correct value).
    pub agrees: bool,
    /// An explanation printed under the row (numeric stand-ins, counterexamples, reasons).
    pub note: Option<String>,
}

impl Checked {
    /// A result without a note.
    pub fn new(computed: impl Into<String>, agrees: bool) -> Checked {
        Checked {
            computed: computed.into(),
            agrees,
            note: None,
        }
    }

    /// Adds (or extends) the note.
    pub fn note(mut self, n: impl Into<String>) -> Checked {
        let n = n.into();
        self.note = Some(match self.note.take() {
            Some(old) => format!("{old}; {n}"),
            None => n,
        });
        self
    }
}

/// A check closure: given the row's arguments and the expected value (the erratum's correct value
/// if there is one, else the paper's), computes the example. `Err` (a bad literal, an unexpected
/// refusal) makes the row fail with that message.
pub type CheckFn = Box<dyn Fn(&[String], &str) -> Result<Checked, String>>;

/// How a row is computed.
pub enum Run {
    /// `ops::run(op, args)`; its printed value (or `ERROR <Category>`) must equal the expected text.
    Op,
    /// A closure over the arguments.
    Check(CheckFn),
}

/// One worked example.
pub struct Row {
    /// The example's id (`T2.3`, `S-COMP-2`, `F5-1`).
    pub id: &'static str,
    /// The paper's section.
    pub section: Section,
    /// What the example computes; for operation rows without one, `op(args...)`.
    pub what: Option<String>,
    /// The operation name (a dispatcher op for [`Run::Op`], a descriptive name for checks).
    pub op: &'static str,
    /// The arguments, in CuTe notation.
    pub args: Vec<String>,
    /// The paper's value as the paper states it.
    pub paper: &'static str,
    /// For operation rows: the expected output when it is not the paper's text verbatim, e.g.
    /// `ERROR Divisibility` for an example the paper marks inadmissible.
    pub expect: Option<&'static str>,
    /// The correct value when the paper's value is a suspected erratum.
    pub erratum: Option<&'static str>,
    /// A fixed explanation printed under the row.
    pub note: Option<&'static str>,
    /// How to compute it.
    pub run: Run,
}

impl Row {
    /// An operation row: `ops::run(op, args)` must print `paper`.
    pub fn op(id: &'static str, op: &'static str, args: &[&str], paper: &'static str) -> Row {
        Row {
            id,
            section: Section::Loops,
            what: None,
            op,
            args: args.iter().map(|s| s.to_string()).collect(),
            paper,
            expect: None,
            erratum: None,
            note: None,
            run: Run::Op,
        }
    }

    /// A check row: `f(args, expected)` computes the example.
    pub fn check(
        id: &'static str,
        op: &'static str,
        args: &[&str],
        what: impl Into<String>,
        paper: &'static str,
        f: impl Fn(&[String], &str) -> Result<Checked, String> + 'static,
    ) -> Row {
        Row {
            what: Some(what.into()),
            run: Run::Check(Box::new(f)),
            ..Row::op(id, op, args, paper)
        }
    }

    /// Sets the section.
    pub fn section(mut self, s: Section) -> Row {
        self.section = s;
        self
    }

    /// Sets the description.
    pub fn what(mut self, w: impl Into<String>) -> Row {
        self.what = Some(w.into());
        self
    }

    /// Sets the expected output of an operation row (e.g. `ERROR Divisibility`).
    pub fn expect(mut self, e: &'static str) -> Row {
        self.expect = Some(e);
        self
    }

    /// Marks the paper's value as an erratum whose correct value is `correct`.
    pub fn erratum(mut self, correct: &'static str) -> Row {
        self.erratum = Some(correct);
        self
    }

    /// Adds a fixed note.
    pub fn note(mut self, n: &'static str) -> Row {
        self.note = Some(n);
        self
    }

    /// The value the computation must produce: the erratum's correct value, the explicit
    /// expectation, or the paper's value.
    pub fn expected(&self) -> &'static str {
        self.erratum.or(self.expect).unwrap_or(self.paper)
    }

    /// The description shown in the table.
    pub fn description(&self) -> String {
        match &self.what {
            Some(w) => w.clone(),
            None => format!("{}({})", self.op, self.args.join(", ")),
        }
    }

    /// Computes the row.
    pub fn run(&self) -> Report {
        let expected = self.expected();
        let checked = match &self.run {
            Run::Op => run_op(self.op, &self.args, expected),
            Run::Check(f) => match f(&self.args, expected) {
                Ok(c) => c,
                Err(m) => Checked::new(format!("error: {m}"), false),
            },
        };
        let status = match (checked.agrees, self.erratum.is_some()) {
            (false, _) => Status::Fail,
            (true, false) => Status::Ok,
            (true, true) => Status::Erratum,
        };
        let note = match (self.note, checked.note) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (Some(a), None) => Some(a.to_string()),
            (None, b) => b,
        };
        Report {
            id: self.id,
            section: self.section,
            what: self.description(),
            op: self.op.to_string(),
            args: self.args.clone(),
            paper: self.paper.to_string(),
            correct: self.erratum.map(str::to_string),
            computed: checked.computed,
            note,
            status,
        }
    }
}

/// Runs an operation row and compares its output with `expected` (whitespace ignored; an
/// `ERROR <Category>` expectation matches a refusal of that category).
fn run_op(op: &str, args: &[String], expected: &str) -> Checked {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let squash = |s: &str| s.split_whitespace().collect::<String>();
    match ops::run(op, &a) {
        Outcome::Value(v) => {
            let agrees = !expected.starts_with("ERROR") && squash(&v) == squash(expected);
            Checked::new(v, agrees)
        }
        Outcome::Refused(e) | Outcome::BadArgument { error: e, .. } => {
            let computed = format!("ERROR {}", e.category());
            Checked::new(computed.clone(), computed == expected).note(e.to_string())
        }
        Outcome::Symbolic(e) => {
            let computed = format!("ERROR {}", e.category());
            Checked::new(computed.clone(), computed == expected).note(e.to_string())
        }
        Outcome::Usage(m) => {
            let short = if m.starts_with("unknown operation") {
                "unknown operation"
            } else {
                "usage error"
            };
            Checked::new(short, false).note(m)
        }
    }
}

/// A row's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The computed value agrees with the paper.
    Ok,
    /// It does not (or the computation failed).
    Fail,
    /// The paper's value is a suspected erratum and the computed value is the correct one.
    Erratum,
}

impl Status {
    /// `ok`, `fail` or `erratum` (the JSON spelling).
    pub const fn word(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Fail => "fail",
            Status::Erratum => "erratum",
        }
    }

    /// `✓`, `✗` or `erratum` (the table's mark).
    pub const fn mark(self) -> &'static str {
        match self {
            Status::Ok => "✓",
            Status::Fail => "✗",
            Status::Erratum => "erratum",
        }
    }
}

/// The outcome of one row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The example's id (`T2.3`, `S-COMP-2`, `F5-1`).
    pub id: &'static str,
    /// The paper's section.
    pub section: Section,
    /// What it computes.
    pub what: String,
    /// The operation name.
    pub op: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The paper's value.
    pub paper: String,
    /// The correct value, for an erratum row.
    pub correct: Option<String>,
    /// The computed value (`ERROR <Category>` for a refusal).
    pub computed: String,
    /// Explanations: numeric stand-ins, the reason of a refusal, the evidence of an erratum.
    pub note: Option<String>,
    /// The verdict.
    pub status: Status,
}

/// Runs every row of [`rows`].
pub fn run_all() -> Vec<Report> {
    rows().iter().map(Row::run).collect()
}

/// `N examples: N ✓, M errata` (with `, K ✗` appended when some rows fail).
pub fn summary(reports: &[Report]) -> String {
    let count = |s: Status| reports.iter().filter(|r| r.status == s).count();
    let (ok, fail, errata) = (
        count(Status::Ok),
        count(Status::Fail),
        count(Status::Erratum),
    );
    let mut s = format!("{} examples: {ok} ✓, {errata} errata", reports.len());
    if fail > 0 {
        let _ = write!(s, ", {fail} ✗");
    }
    s
}

/// Column limits of the table (cells wrap beyond them).
const WHAT_W: usize = 50;
const PAPER_W: usize = 30;
const COMPUTED_W: usize = 30;

/// The table: a heading per section, one aligned line (or several, when cells wrap) per row, a note
/// line under rows that have one, and the [`summary`] line.
pub fn render_text(reports: &[Report]) -> String {
    let width = |f: &dyn Fn(&Report) -> usize, cap: usize| {
        reports.iter().map(f).max().unwrap_or(0).clamp(8, cap)
    };
    let wid = width(&|r| r.id.chars().count(), 12);
    let wwhat = width(&|r| r.what.chars().count(), WHAT_W);
    let wpaper = width(&|r| r.paper.chars().count(), PAPER_W);
    let wcomp = width(&|r| r.computed.chars().count(), COMPUTED_W);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "CuTe Layout Representation and Algebra (arXiv:2603.02298): the worked examples (Tt.r = Table t row r, S-… = text, Ff-n = Figure f)"
    );
    let header = [
        ("id", wid),
        ("what", wwhat),
        ("paper", wpaper),
        ("computed", wcomp),
    ];
    let mut current = None;
    for r in reports {
        if current != Some(r.section) {
            current = Some(r.section);
            let _ = writeln!(out, "\n── {} ──", r.section.title());
            let mut line = String::from("  ");
            for (h, w) in header {
                line.push_str(&pad(h, w));
                line.push_str("  ");
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        let cells = [
            wrap(r.id, wid),
            wrap(&r.what, wwhat),
            wrap(&r.paper, wpaper),
            wrap(&r.computed, wcomp),
        ];
        let height = cells.iter().map(Vec::len).max().unwrap_or(1);
        for k in 0..height {
            let mut line = String::from("  ");
            for (cell, (_, w)) in cells.iter().zip(header) {
                line.push_str(&pad(cell.get(k).map_or("", String::as_str), w));
                line.push_str("  ");
            }
            if k == 0 {
                line.push_str(r.status.mark());
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        let mut notes = Vec::new();
        if let Some(c) = &r.correct {
            notes.push(format!(
                "paper erratum: the paper states {}, the correct value is {c}",
                r.paper
            ));
        }
        if let Some(n) = &r.note {
            notes.push(n.clone());
        }
        let indent = 2 + wid + 2;
        for n in notes {
            for (k, piece) in wrap(&n, wwhat + wpaper + wcomp + 4).iter().enumerate() {
                let lead = if k == 0 { "↳ " } else { "  " };
                let _ = writeln!(out, "{}{lead}{piece}", " ".repeat(indent));
            }
        }
    }
    let _ = writeln!(out, "\n{}", summary(reports));
    out
}

/// `s` padded with spaces to `w` characters.
fn pad(s: &str, w: usize) -> String {
    let n = s.chars().count();
    format!("{s}{}", " ".repeat(w.saturating_sub(n)))
}

/// Splits `s` into pieces of at most `w` characters, breaking after a space where it can, else after
/// a comma.
fn wrap(s: &str, w: usize) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut start = 0;
    while chars.len() - start > w {
        let after = |c: char| {
            (start + w / 3 + 1..=start + w)
                .rev()
                .find(|&j| chars[j - 1] == c)
        };
        let cut = after(' ').or_else(|| after(',')).unwrap_or(start + w);
        out.push(
            chars[start..cut]
                .iter()
                .collect::<String>()
                .trim_end()
                .to_string(),
        );
        start = cut;
        while start < chars.len() && chars[start] == ' ' {
            start += 1;
        }
    }
    out.push(chars[start..].iter().collect());
    out
}

/// One JSON object per line and per row: `id`, `section`, `op`, `args`, `paper`, `computed`,
/// `status` (`ok`, `fail` or `erratum`), plus `what`, `correct` (erratum rows) and `note` where present.
pub fn render_json(reports: &[Report]) -> String {
    let mut out = String::new();
    for r in reports {
        let mut v = json!({
            "id": r.id,
            "section": r.section.title(),
            "what": r.what,
            "op": r.op,
            "args": r.args,
            "paper": r.paper,
            "computed": r.computed,
            "status": r.status.word(),
        });
        if let Some(c) = &r.correct {
            v["correct"] = json!(c);
        }
        if let Some(n) = &r.note {
            v["note"] = json!(n);
        }
        out.push_str(&crate::json::compact(&v));
        out.push('\n');
    }
    out
}

/// `cute paper [--json]`: the text for stdout, the summary line for stderr (JSON form only) and
/// the exit status (1 if any example disagrees).
pub fn report(json: bool) -> (String, Option<String>, u8) {
    let reports = run_all();
    let code = u8::from(reports.iter().any(|r| r.status == Status::Fail));
    if json {
        (render_json(&reports), Some(summary(&reports)), code)
    } else {
        (render_text(&reports), None, code)
    }
}
