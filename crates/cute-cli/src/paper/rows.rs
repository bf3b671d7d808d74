//! The table of worked examples. To add an example, push a [`Row`] in its section: an operation row
//! (`Row::op(id, op, args, paper value)`) for anything `cute OP ARG...` computes, a check row
//! (`Row::check(...)` with a closure from [`super::checks`]) for the rest; mark a suspected erratum
//! with `.erratum(correct value)`.

mod composition;
mod copy_gemm;
mod inverses;
mod products;
mod representation;

use super::{Row, Section};

/// Collects rows, assigning each the current section.
pub(super) struct Tour {
    rows: Vec<Row>,
    section: Section,
}

impl Tour {
    fn section(&mut self, s: Section) {
        self.section = s;
    }

    fn push(&mut self, r: Row) {
        let s = self.section;
        self.rows.push(r.section(s));
    }

    /// An operation row.
    fn op(&mut self, id: &'static str, op: &'static str, args: &[&str], paper: &'static str) {
        self.push(Row::op(id, op, args, paper));
    }
}

/// Every worked example in scope, grouped by section in the paper's order.
pub fn rows() -> Vec<Row> {
    let mut t = Tour {
        rows: Vec::new(),
        section: Section::Loops,
    };
    representation::loops(&mut t);
    representation::folding(&mut t);
    representation::htuple(&mut t);
    representation::layouts(&mut t);
    representation::completeness(&mut t);
    representation::semilinearity(&mut t);
    representation::slicing(&mut t);
    copy_gemm::copy_gemm(&mut t);
    composition::coalesce(&mut t);
    composition::composition(&mut t);
    composition::partitioning(&mut t);
    composition::tilers(&mut t);
    inverses::inverses(&mut t);
    inverses::admissibility(&mut t);
    inverses::complement(&mut t);
    products::products(&mut t);
    products::divides(&mut t);
    let mut rows = t.rows;
    rows.sort_by_key(|r| r.section);
    rows
}
