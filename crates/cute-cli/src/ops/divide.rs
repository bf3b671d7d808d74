//! Divides and products: logical/zipped/tiled/flat divide, logical/zipped/tiled/flat/blocked/raked product, tile_to_shape.

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
