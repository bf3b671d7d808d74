//! The operations PyCuTe has and C++ lacks: coalesce_z, composition_mode, layout_add, greatest_common_domain, domain_distribute.

use super::Answer;

/// The operations of this area and their arguments.
pub(crate) const OPS: &[(&str, &str)] = &[];

/// Runs `op` if it belongs to this area.
pub(crate) fn run(op: &str, a: &[&str]) -> Option<Answer> {
    let _ = a;
    match op {
        _ => None,
    }
}
