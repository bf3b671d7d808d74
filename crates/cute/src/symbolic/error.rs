//! Why a symbolic operation gave no layout: the answer depends on a run-time value (and on
//! which condition), the case is not handled symbolically, the text is not symbolic CuTe
//! notation, or the algebra refuses every admissible value.

use core::fmt;

/// A refusal of a symbolic operation. Its `Display` is one line: the operation, the operands,
/// and the reason, e.g. `coalesce …: needs M divisible by 8`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymError {
    /// The operation, by its CuTe name (`parse` for unreadable text, or the operation whose
    /// argument it was when the registry reads it).
    pub op: &'static str,
    /// The operands as printed (empty for the reader).
    pub operands: String,
    /// Why.
    pub reason: Reason,
}

/// Why a symbolic operation gave no layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The answer depends on the run-time value of `unknown`: it exists (or has this form) only
    /// when `condition` holds, e.g. unknown `M`, condition `M divisible by 8`.
    Needs {
        /// The unknown as printed (`M`, `?{div=8}`).
        unknown: String,
        /// The run-time condition, in words.
        condition: String,
    },
    /// Not handled for unknown extents (in words); the operation refuses instead of guessing.
    Unsupported(String),
    /// Not symbolic CuTe notation: byte `pos` and what was expected there.
    Syntax {
        /// The byte where reading stopped.
        pos: usize,
        /// What was expected there.
        expected: String,
    },
    /// The integer algebra refuses (the message of its error), for every admissible value.
    Static(String),
    /// An intermediate product does not fit in 64 bits.
    Overflow,
}

impl SymError {
    pub(crate) fn new(op: &'static str, operands: String, reason: Reason) -> SymError {
        SymError {
            op,
            operands,
            reason,
        }
    }

    /// The conformance category: `Condition` (depends on a run-time value), `Unsupported`,
    /// `Syntax`, `Overflow`, or `Divisibility` for a refusal of the integer algebra.
    ///
    /// ```
    /// use cute::symbolic::SymLayout;
    /// let e = "(4,8):(1,?".parse::<SymLayout>().unwrap_err();
    /// assert_eq!(e.category(), "Syntax");
    /// ```
    pub fn category(&self) -> &'static str {
        match self.reason {
            Reason::Needs { .. } => "Condition",
            Reason::Unsupported(_) => "Unsupported",
            Reason::Syntax { .. } => "Syntax",
            Reason::Static(_) => "Divisibility",
            Reason::Overflow => "Overflow",
        }
    }
}

impl fmt::Display for SymError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.op)?;
        if !self.operands.is_empty() {
            write!(f, " {}", self.operands)?;
        }
        match &self.reason {
            Reason::Needs { unknown, condition } => {
                write!(
                    f,
                    ": the answer depends on the run-time value of {unknown}: needs {condition}"
                )?;
                if !condition.contains("declare") {
                    write!(
                        f,
                        " (declare what is known, e.g. {}, to decide it now)",
                        example_fact(condition)
                    )?;
                }
                Ok(())
            }
            Reason::Unsupported(what) => write!(f, ": unsupported for unknown extents: {what}"),
            Reason::Syntax { pos, expected } => {
                write!(f, ": expected {expected} at byte {pos}")
            }
            Reason::Static(m) => write!(f, ": {m}"),
            Reason::Overflow => write!(f, ": a product of the extents does not fit in 64 bits"),
        }
    }
}

/// A fact that can decide `condition`: a divisor where it is about divisibility, a lower bound
/// where it compares (`M > 3`: `{min=4}`), else either kind.
fn example_fact(condition: &str) -> String {
    if condition.contains("divisib") || condition.contains("divid") {
        return "{div=8}".into();
    }
    if let Some((_, v)) = condition.split_once(" > ") {
        let digits: String = v.chars().take_while(char::is_ascii_digit).collect();
        if let Some(n) = digits.parse::<i64>().ok().and_then(|n| n.checked_add(1)) {
            return format!("{{min={n}}}");
        }
    }
    "{div=8} or {min=2}".into()
}

impl std::error::Error for SymError {}
