//! Divides and products: logical/zipped/tiled/flat divide, logical/zipped/tiled/flat/blocked/raked product, tile_to_shape.

use super::{arg, layout, tiler, tuple, Answer, Fail};
use crate::{Error, Layout, Tiler};

/// The operations of this area and their arguments.
pub(super) const OPS: &[(&str, &str)] = &[
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
pub(super) fn run(op: &str, a: &[&str]) -> Option<Answer> {
    let with_tiler: Option<ByTiler> = match op {
        "logical_divide" => Some(crate::logical_divide),
        "zipped_divide" => Some(crate::zipped_divide),
        "tiled_divide" => Some(crate::tiled_divide),
        "flat_divide" => Some(crate::flat_divide),
        "logical_product" => Some(crate::logical_product),
        "zipped_product" => Some(crate::zipped_product),
        "tiled_product" => Some(crate::tiled_product),
        "flat_product" => Some(crate::flat_product),
        _ => None,
    };
    let with_layout: Option<ByLayout> = match op {
        "blocked_product" => Some(crate::blocked_product),
        "raked_product" => Some(crate::raked_product),
        _ => None,
    };
    let r: Result<String, Fail> = if let Some(f) = with_tiler {
        (|| Ok(f(&arg(a, 0, layout)?, &arg(a, 1, tiler)?)?.to_string()))()
    } else if let Some(f) = with_layout {
        (|| Ok(f(&arg(a, 0, layout)?, &arg(a, 1, layout)?)?.to_string()))()
    } else if op == "tile_to_shape" {
        (|| Ok(crate::tile_to_shape(&arg(a, 0, layout)?, &arg(a, 1, tuple)?)?.to_string()))()
    } else {
        return None;
    };
    Some(Ok(r))
}
