//! The types [`Swizzle`] and [`ComposedLayout`], below [`crate::error`] (an error records a composed
//! layout as an operand); their operations are in [`swizzle`](mod@crate::swizzle).

use crate::layout::repr::Layout;

/// CuTe's `Swizzle<B,M,S>`: `o ↦ o ^ ((o & yyy) >> S)` (see the [module](crate::swizzle) documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    pub(crate) b: u8,
    pub(crate) m: u8,
    pub(crate) s: i8,
}

/// A swizzle, an offset and a layout: CuTe's `ComposedLayout`, `x ↦ Sw(offset + L(x))`.
///
/// Its domain is the layout's; it prints as `Sw<B,M,S> o offset o L`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComposedLayout {
    /// The swizzle applied last.
    pub swizzle: Swizzle,
    /// The offset added to the layout's value before the swizzle.
    pub offset: i64,
    /// The layout applied first.
    pub layout: Layout,
}
