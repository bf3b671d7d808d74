//! The generic algorithms of the paper's section on tensors: one loop, any layouts.
//!
//! `copy(src, dst)` is the paper's COPY (Table 2): `dst(i) = src(i)` for every integer coordinate
//! `i` of the domain, whatever the two layouts are. The rows of Table 2 are this one loop with
//! different layouts:
//!
//! | application | src | dst |
//! |---|---|---|
//! | 1-D array | `8:1` | `8:1` |
//! | transpose (4×8, column- to row-major) | `(4,8):(1,4)` | `(4,8):(8,1)` |
//! | gather | `8:3` | `8:1` |
//! | broadcast | `7:0` | `7:1` |
//!
//! ```
//! use cute::{copy, Layout, Tensor};
//! let a: Vec<i32> = (0..32).collect();
//! let mut b = vec![0; 32];
//! let src = Tensor::new(&a[..], "(4,8):(1,4)".parse::<Layout>().unwrap()).unwrap();
//! let mut dst = Tensor::new(&mut b[..], "(4,8):(8,1)".parse::<Layout>().unwrap()).unwrap();
//! copy(&src, &mut dst).unwrap();
//! assert_eq!(b[1], 4); // dst(0,1) = src(0,1) = a[4]
//! ```

use crate::error::{Error, ErrorKind, Op, Operand};
use crate::tensor::{Storage, StorageMut, Tensor};

/// `copy(src, dst)`: `dst(i) = src(i)` for every `i < |dst|` (the paper's COPY). The domains must
/// have the same size (`ProfileMismatch` otherwise). A destination that is not injective receives
/// the last value written to each of its elements, as the loop does.
pub fn copy<S, D>(src: &Tensor<S>, dst: &mut Tensor<D>) -> Result<(), Error>
where
    S: Storage,
    D: StorageMut<Item = S::Item>,
    S::Item: Clone,
{
    let (ns, nd) = (src.size(), dst.size());
    if ns != nd {
        return Err(Error::new(
            Op::Copy,
            ErrorKind::ProfileMismatch {
                what: "copy needs source and destination domains of the same size",
                left: ns,
                right: nd,
            },
        )
        .with(
            Operand::Layout(*src.layout()),
            Operand::Layout(*dst.layout()),
        ));
    }
    for i in 0..nd {
        // both in range: the sizes agree and every offset was checked when the tensors were made
        if let (Some(v), Some(slot)) = (src.get(i), dst.get_mut(i)) {
            *slot = v.clone();
        }
    }
    Ok(())
}
