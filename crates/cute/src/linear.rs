//! Linear forms (paper Table 1, 半线性 “semilinearity”): a layout as a matrix `D` with `L(c̃) = D·c̃`,
//! where `c̃` is the natural coordinate (one entry per leaf of the shape).
//!
//! * Integer strides: one row, the strides: `((2,2),(4,2)):((1,8),(2,16))` is `[1 8 2 16]`.
//! * Coordinate strides: one row per axis of the codomain (in the order of the basis paths), the
//!   coefficient of each leaf on its axis: `(4,(4,2)):(e1,(e0,6e1))` is `[[0 1 0];[1 0 6]]`.
//! * Binary strides: a matrix over F2 from the bits of `c̃` to the bits of the value. Every extent
//!   must be a power of two; a leaf of extent `2^k` gives `k` columns, the bit `j` of its
//!   coordinate contributing the stride shifted by `j`: `(4,4):(f1,f5)` is
//!   `[[1 0 1 0];[0 1 0 1];[0 0 1 0];[0 0 0 1]]`, the same form as
//!   `((2,2),(2,2)):((f1,f2),(f5,f10))`.
//!
//! ```
//! use cute::{linear_form, Layout};
//! let l: Layout = "(4,(4,2)):(1@1,(1@0,6@1))".parse().unwrap();
//! assert_eq!(linear_form(&l).unwrap().to_string(), "[[0 1 0];[1 0 6]]");
//! let f: Layout = "(4,4):(F1,F5)".parse().unwrap();
//! assert_eq!(linear_form(&f).unwrap().to_string(), "[[1 0 1 0];[0 1 0 1];[0 0 1 0];[0 0 0 1]]");
//! ```

use crate::error::{Error, ErrorKind, Op, Operand};
use crate::layout::Layout;
use crate::stride::{decode_path, Semimodule, Value};
use core::fmt;

/// The matrix `D` of a layout's linear form, over the integers or over F2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearForm {
    /// Over F2 (binary strides) rather than the integers.
    pub binary: bool,
    /// The rows of `D`.
    pub rows: Vec<Vec<i64>>,
    /// For coordinate strides, the basis path of each row (outermost first); empty otherwise.
    pub axes: Vec<Vec<usize>>,
}

/// The linear form of `L` (see the [module docs](self)).
///
/// ```
/// use cute::{linear_form, Layout};
/// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
/// let d = linear_form(&l).unwrap();
/// assert_eq!((d.binary, d.rows.clone()), (false, vec![vec![1, 8, 2, 16]])); // Table 1
/// let f: Layout = "(4,4):(F1,F5)".parse().unwrap();
/// assert!(linear_form(&f).unwrap().binary);
/// ```
///
/// # Errors
///
/// `Unsupported` for binary (F2) strides over an extent that is not a power of two (an F2 linear
/// form needs the coordinate bits).
pub fn linear_form(l: &Layout) -> Result<LinearForm, Error> {
    let n = l.leaf_count();
    match l.semimodule() {
        Semimodule::Integer => Ok(LinearForm {
            binary: false,
            rows: vec![(0..n).map(|i| l.leaf_at(i).1).collect()],
            axes: vec![],
        }),
        Semimodule::Coordinate => {
            let mut axes: Vec<(crate::stride::Code, Vec<usize>)> = Vec::new();
            for i in 0..n {
                let d = l.stride_at(i);
                if d.is_zero() {
                    continue;
                }
                let (p, k) = decode_path(d.code);
                if !axes.iter().any(|(c, _)| *c == d.code) {
                    axes.push((d.code, p[..k].to_vec()));
                }
            }
            axes.sort_by(|a, b| a.1.cmp(&b.1));
            let rows = axes
                .iter()
                .map(|(c, _)| {
                    (0..n)
                        .map(|i| {
                            let d = l.stride_at(i);
                            if !d.is_zero() && d.code == *c {
                                d.value()
                            } else {
                                0
                            }
                        })
                        .collect()
                })
                .collect();
            Ok(LinearForm {
                binary: false,
                rows,
                axes: axes.into_iter().map(|a| a.1).collect(),
            })
        }
        Semimodule::Binary => {
            let mut cols: Vec<u64> = Vec::new();
            for i in 0..n {
                let (s, d) = l.leaf_at(i);
                if s & (s - 1) != 0 {
                    return Err(Error::new(
                        Op::LinearForm,
                        ErrorKind::Unsupported {
                            what: "an F2 linear form needs power-of-two extents (the coordinate \
                                   bits are the columns)",
                        },
                    )
                    .with(Operand::Layout(*l), Operand::None));
                }
                for j in 0..s.trailing_zeros() {
                    let col = (d as u64).checked_shl(j).filter(|c| c >> j == d as u64);
                    match col {
                        Some(c) => cols.push(c),
                        None => {
                            return Err(Error::new(
                                Op::LinearForm,
                                ErrorKind::Overflow {
                                    what: "a shifted binary stride",
                                },
                            )
                            .with(Operand::Layout(*l), Operand::None))
                        }
                    }
                }
            }
            let bits = cols
                .iter()
                .map(|c| 64 - c.leading_zeros() as usize)
                .max()
                .unwrap_or(0)
                .max(1);
            let rows = (0..bits)
                .map(|r| cols.iter().map(|c| ((c >> r) & 1) as i64).collect())
                .collect();
            Ok(LinearForm {
                binary: true,
                rows,
                axes: vec![],
            })
        }
    }
}

impl LinearForm {
    /// `D·c̃` for a natural coordinate `c̃` (one entry per leaf of the layout): the value `L(c̃)`.
    ///
    /// ```
    /// use cute::{linear_form, Layout};
    /// let l: Layout = "(4,(4,2)):(1@1,(1@0,6@1))".parse().unwrap();
    /// let d = linear_form(&l).unwrap(); // [[0 1 0];[1 0 6]]
    /// let v = d.apply(&[3, 2, 1], &[4, 4, 2]).unwrap();
    /// assert_eq!(v.to_string(), "(2,9)");
    /// assert_eq!(v, l.eval_crd_value(&"(3,(2,1))".parse().unwrap()).unwrap());
    /// ```
    ///
    /// # Errors
    ///
    /// `Overflow` when a product or a sum does not fit in `i64`.
    pub fn apply(&self, crd: &[i64], shape: &[i64]) -> Result<Value, Error> {
        if self.binary {
            // expand every coordinate into its bits
            let mut bits = Vec::new();
            for (c, s) in crd.iter().zip(shape) {
                for j in 0..s.trailing_zeros() {
                    bits.push((c >> j) & 1);
                }
            }
            let mut v: u64 = 0;
            for (r, row) in self.rows.iter().enumerate() {
                let x = row.iter().zip(&bits).fold(0, |acc, (a, b)| acc ^ (a & b));
                v |= (x as u64) << r;
            }
            return Ok(Value::F2(v));
        }
        let dot = |row: &Vec<i64>| -> Result<i64, Error> {
            row.iter().zip(crd).try_fold(0i64, |acc, (a, b)| {
                let p = crate::error::mul(Op::LinearForm, *a, *b)?;
                crate::error::add(Op::LinearForm, acc, p)
            })
        };
        if self.axes.is_empty() {
            return Ok(Value::Int(match self.rows.first() {
                Some(r) => dot(r)?,
                None => 0,
            }));
        }
        let mut t = crate::stride::ArithTuple::ZERO;
        for (row, axis) in self.rows.iter().zip(&self.axes) {
            let code = crate::stride::ops::encode_path(axis)?;
            t = t.add_term(dot(row)?, code, Op::LinearForm)?;
        }
        Ok(Value::Coord(t))
    }
}

impl fmt::Display for LinearForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |r: &Vec<i64>| {
            r.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        if self.rows.len() == 1 {
            return write!(f, "[{}]", row(&self.rows[0]));
        }
        let rows: Vec<String> = self.rows.iter().map(|r| format!("[{}]", row(r))).collect();
        write!(f, "[{}]", rows.join(";"))
    }
}
