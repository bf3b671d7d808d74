//! The canonical shared-memory layout atoms of `wgmma` and TMA.

use super::{lay, unsupported, Major};
use crate::algebra::recast::upcast;
use crate::error::Error;
use crate::layout::Layout;
use crate::swizzle::{ComposedLayout, Swizzle};

/// The swizzle modes of the `wgmma` shared-memory descriptor and of TMA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GmmaSwizzle {
    /// No swizzle ("interleave"): 16-byte rows of 8-row core matrices.
    None,
    /// 32-byte swizzle.
    B32,
    /// 64-byte swizzle.
    B64,
    /// 128-byte swizzle.
    B128,
}

impl GmmaSwizzle {
    /// Bytes per swizzled row (16 for no swizzle).
    ///
    /// ```
    /// use cute::atom::GmmaSwizzle;
    /// assert_eq!(GmmaSwizzle::B64.row_bytes(), 64);
    /// ```
    pub const fn row_bytes(self) -> i64 {
        match self {
            GmmaSwizzle::None => 16,
            GmmaSwizzle::B32 => 32,
            GmmaSwizzle::B64 => 64,
            GmmaSwizzle::B128 => 128,
        }
    }

    /// The XOR bits `B` of the swizzle `Sw<B,4,3>` on byte addresses.
    ///
    /// ```
    /// use cute::atom::GmmaSwizzle;
    /// assert_eq!(GmmaSwizzle::B128.bits(), 3);
    /// ```
    pub const fn bits(self) -> i64 {
        match self {
            GmmaSwizzle::None => 0,
            GmmaSwizzle::B32 => 1,
            GmmaSwizzle::B64 => 2,
            GmmaSwizzle::B128 => 3,
        }
    }

    /// The `layout_type` field of the `wgmma` matrix descriptor (bits 62–63).
    ///
    /// ```
    /// use cute::atom::GmmaSwizzle;
    /// assert_eq!(GmmaSwizzle::B128.descriptor_code(), 1);
    /// ```
    pub const fn descriptor_code(self) -> u64 {
        match self {
            GmmaSwizzle::None => 0,
            GmmaSwizzle::B128 => 1,
            GmmaSwizzle::B64 => 2,
            GmmaSwizzle::B32 => 3,
        }
    }

    /// Every mode, smallest first.
    pub const ALL: [GmmaSwizzle; 4] = [
        GmmaSwizzle::None,
        GmmaSwizzle::B32,
        GmmaSwizzle::B64,
        GmmaSwizzle::B128,
    ];
}

/// The canonical shared-memory layout atom of `wgmma` and TMA, in **bits**, as CUTLASS writes it
/// (`GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom_Bits`, `cute/atom/mma_traits_sm90_gmma.hpp`):
/// K-major `Sw<B,4,3> ∘ (8, W):(W, 1)` and MN-major `Sw<B,4,3> ∘ (W, 8):(1, W)` with `W` the row
/// width in bits, where the swizzle acts on the **byte** address (CUTLASS applies it to the
/// pointer; the layout of bits is the row-major `8 × W` or column-major `W × 8` tile).
///
/// Returns the swizzle (on byte addresses) and the layout in bits.
///
/// ```
/// use cute::atom::{gmma_smem_atom_bits, GmmaSwizzle, Major};
/// let (sw, l) = gmma_smem_atom_bits(Major::K, GmmaSwizzle::B32).unwrap();
/// assert_eq!((sw.to_string(), l.to_string()), ("Sw<1,4,3>".to_string(), "(8,256):(256,1)".to_string()));
/// ```
///
/// # Errors
///
/// None in practice: the layouts are built from constants.
pub fn gmma_smem_atom_bits(major: Major, sw: GmmaSwizzle) -> Result<(Swizzle, Layout), Error> {
    let w = sw.row_bytes() * 8;
    let l = match major {
        Major::K => lay(&format!("(8,{w}):({w},1)"))?,
        Major::MN => lay(&format!("({w},8):(1,{w})"))?,
    };
    Ok((Swizzle::new(sw.bits(), 4, 3)?, l))
}

/// The canonical shared-memory layout atom of `wgmma` and TMA in **elements** of `elem_bits` bits:
/// `upcast` of [`gmma_smem_atom_bits`]'s layout, with the byte swizzle `Sw<B,4,3>` rewritten on
/// element offsets as `Sw<B, 4 - log2(bytes), 3>` (the same XOR of byte-address bits 4–6 with bits
/// 7–9). For 16-bit elements and 128-byte rows, K-major: `Sw<3,3,3> o 0 o (8,64):(64,1)`.
///
/// # Errors
///
/// `Unsupported` for element sizes other than 8, 16 and 32 bits.
///
/// ```
/// use cute::atom::{gmma_smem_atom, GmmaSwizzle, Major};
/// let a = gmma_smem_atom(Major::K, GmmaSwizzle::B128, 16).unwrap();
/// assert_eq!(a.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
/// let m = gmma_smem_atom(Major::MN, GmmaSwizzle::B64, 32).unwrap();
/// assert_eq!(m.to_string(), "Sw<2,2,3> o 0 o (16,8):(1,16)");
/// ```
pub fn gmma_smem_atom(
    major: Major,
    sw: GmmaSwizzle,
    elem_bits: i64,
) -> Result<ComposedLayout, Error> {
    let log_bytes = match elem_bits {
        8 => 0,
        16 => 1,
        32 => 2,
        _ => {
            return Err(unsupported(
                "gmma_smem_atom",
                "wgmma shared-memory atoms take 8-, 16- or 32-bit elements",
            ))
        }
    };
    let (_, bits) = gmma_smem_atom_bits(major, sw)?;
    let l = upcast(&bits, elem_bits)?;
    Ok(ComposedLayout::new(
        Swizzle::new(sw.bits(), 4 - log_bytes, 3)?,
        0,
        l,
    ))
}
