//! Divides and products: logical/zipped/tiled/flat divide, logical/zipped/tiled/flat/blocked/raked product, tile_to_shape.

use super::{arg, arity, layout, tiler, tuple, Answer, Fail};
use cute::{Error, Layout, Tiler};

/// The operations of this area and their arguments.
pub(crate) const OPS: &[(&str, &str)] = &[
    ("logical_divide", "LAYOUT TILER"),
    ("zipped_divide", "LAYOUT TILER"),
    ("tiled_divide", "LAYOUT TILER"),
    ("flat_divide", "LAYOUT TILER"),
    ("logical_product", "LAYOUT TILER"),
    ("zipped_product", "LAYOUT TILER"),
    ("tiled_product", "LAYOUT TILER"),
    ("flat_product", "LAYOUT TILER"),
    ("blocked_product", "LAYOUT LAYOUT"),
    ("raked_product", "LAYOUT LAYOUT"),
    ("tile_to_shape", "LAYOUT SHAPE"),
];

/// An operation taking a layout and a tiler.
type ByTiler = fn(&Layout, &Tiler) -> Result<Layout, Error>;
/// An operation taking two layouts.
type ByLayout = fn(&Layout, &Layout) -> Result<Layout, Error>;

/// Runs `op` if it belongs to this area.
pub(crate) fn run(op: &str, a: &[&str]) -> Option<Answer> {
    let with_tiler: Option<ByTiler> = match op {
        "logical_divide" => Some(cute::logical_divide),
        "zipped_divide" => Some(cute::zipped_divide),
        "tiled_divide" => Some(cute::tiled_divide),
        "flat_divide" => Some(cute::flat_divide),
        "logical_product" => Some(cute::logical_product),
        "zipped_product" => Some(cute::zipped_product),
        "tiled_product" => Some(cute::tiled_product),
        "flat_product" => Some(cute::flat_product),
        _ => None,
    };
    let with_layout: Option<ByLayout> = match op {
        "blocked_product" => Some(cute::blocked_product),
        "raked_product" => Some(cute::raked_product),
        _ => None,
    };
    let r: Result<String, Fail> = if let Some(f) = with_tiler {
        if let Err(u) = arity(a, 2, 2, op) {
            return Some(Err(u));
        }
        (|| Ok(f(&arg(a, 0, layout)?, &arg(a, 1, tiler)?)?.to_string()))()
    } else if let Some(f) = with_layout {
        if let Err(u) = arity(a, 2, 2, op) {
            return Some(Err(u));
        }
        (|| Ok(f(&arg(a, 0, layout)?, &arg(a, 1, layout)?)?.to_string()))()
    } else if op == "tile_to_shape" {
        if let Err(u) = arity(a, 2, 2, op) {
            return Some(Err(u));
        }
        (|| Ok(cute::tile_to_shape(&arg(a, 0, layout)?, &arg(a, 1, tuple)?)?.to_string()))()
    } else {
        return None;
    };
    Some(Ok(r))
}
