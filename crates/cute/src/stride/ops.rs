//! Stride arithmetic that can fail: it names the operation in its error, so it sits above the
//! errors; the stride types and their parts that cannot fail are in [`stride`](mod@crate::stride),
//! below them.

use super::{
    clmul_checked, is_prefix, path_code, ArithTuple, Code, PathLimit, Stride, Value, BINARY,
    MAX_BASIS_INDEX, MAX_PATH,
};
use crate::error::{tri, Error, ErrorKind, Op};
use crate::int_tuple::CAPACITY;

/// [`path_code`]: packs a basis path (outermost first) into a positive code, failing past the
/// capacity of a code.
pub(crate) const fn encode_path(path: &[usize]) -> Result<Code, Error> {
    match path_code(path) {
        Ok(code) => Ok(code),
        Err(PathLimit::Depth) => Err(Error::new(
            Op::Parse,
            ErrorKind::Capacity {
                what: "depth of a basis path E(p_1,…,p_k)",
                limit: MAX_PATH,
            },
        )),
        Err(PathLimit::Index) => Err(Error::new(
            Op::Parse,
            ErrorKind::Capacity {
                what: "index of a basis element e_i",
                limit: MAX_BASIS_INDEX,
            },
        )),
    }
}

/// Carry-less product of two polynomials over F2 ([`clmul_checked`]), failing when the degree
/// reaches 63.
pub(crate) const fn clmul(op: Op, a: u64, b: u64) -> Result<u64, Error> {
    match clmul_checked(a, b) {
        Some(r) => Ok(r),
        None => Err(Error::new(
            op,
            ErrorKind::Overflow {
                what: "a carry-less (F2) product",
            },
        )),
    }
}

impl Stride {
    /// The binary stride `f_bits` (`F<bits>`): the polynomial over F2 whose coefficients are the
    /// bits of `bits`. Fails for `bits >= 2^63`.
    ///
    /// ```
    /// use cute::Stride;
    /// assert_eq!(Stride::f2(9).unwrap().to_string(), "F9");
    /// assert_eq!(Stride::f2(1 << 63).unwrap_err().to_string(), "make_layout: integer overflow: a binary stride does not fit in i64");
    /// ```
    ///
    /// # Errors
    ///
    /// `Overflow` for `bits >= 2^63` (a stride is stored in an `i64`).
    pub const fn f2(bits: u64) -> Result<Stride, Error> {
        if bits > i64::MAX as u64 {
            return Err(Error::new(
                Op::MakeLayout,
                ErrorKind::Overflow {
                    what: "a binary stride",
                },
            ));
        }
        Ok(Stride::from_code(bits as i64, BINARY))
    }

    /// The scaled basis `v·E(path)` (`path` outermost first; `v@path[k-1]@…@path[0]` in print).
    ///
    /// ```
    /// use cute::Stride;
    /// assert_eq!(Stride::basis(3, &[1]).unwrap().to_string(), "3@1");
    /// assert_eq!(Stride::basis(1, &[0, 1]).unwrap().to_string(), "1@1@0"); // CuTe's E<0,1>
    /// ```
    ///
    /// # Errors
    ///
    /// `Capacity` when the path is deeper than a basis stride can name or one of its indices is
    /// past the largest basis index.
    pub const fn basis(v: i64, path: &[usize]) -> Result<Stride, Error> {
        let code = tri!(encode_path(path));
        Ok(Stride::from_code(v, code))
    }

    /// `c · d`: scaling by an integer coordinate (carry-less for binary strides).
    ///
    /// ```
    /// use cute::{Op, Stride};
    /// assert_eq!(Stride::int(4).scale(3, Op::Eval).unwrap(), Stride::int(12));
    /// // carry-less: (x + 1)·(x + 1) = x^2 + 1 over F2
    /// assert_eq!(Stride::f2(3).unwrap().scale(3, Op::Eval).unwrap().to_string(), "F5");
    /// ```
    ///
    /// # Errors
    ///
    /// `Overflow` when the product does not fit in `i64`; for a binary stride, `Unsupported` for a
    /// negative `c` and `Overflow` when the carry-less product does not fit in 63 bits.
    pub const fn scale(self, c: i64, op: Op) -> Result<Stride, Error> {
        if self.code == BINARY {
            if c < 0 {
                return Err(Error::new(
                    op,
                    ErrorKind::Unsupported {
                        what: "a negative coordinate times a binary (F2) stride",
                    },
                ));
            }
            let v = tri!(clmul(op, self.value as u64, c as u64));
            return Ok(Stride::from_code(v as i64, BINARY));
        }
        match self.value.checked_mul(c) {
            Some(v) => Ok(Stride::from_code(v, self.code)),
            None => Err(Error::new(
                op,
                ErrorKind::Overflow {
                    what: "a scaled stride",
                },
            )),
        }
    }
}

impl Value {
    /// `self + other` in their semimodule: integer addition (overflow-checked), XOR for F2 values,
    /// term-wise addition for arithmetic tuples. The integer `0` is the zero of every semimodule;
    /// other mixes are refused (`Unsupported`).
    ///
    /// ```
    /// use cute::{Op, Value};
    /// assert_eq!(Value::Int(2).add(Value::Int(3), Op::Eval).unwrap(), Value::Int(5));
    /// assert_eq!(Value::F2(5).add(Value::F2(3), Op::Eval).unwrap(), Value::F2(6)); // XOR
    /// let e = Value::Int(1).add(Value::F2(1), Op::Eval).unwrap_err();
    /// assert_eq!(e.to_string(), "eval: unsupported: adding values of different semimodules");
    /// ```
    ///
    /// # Errors
    ///
    /// `Overflow` when an integer sum does not fit in `i64`; `Unsupported` for values of different
    /// semimodules (other than the integer `0`); for arithmetic tuples, `Overflow` when a coordinate
    /// does not fit in `i64`, `Unsupported` for bases of different depths at one position and
    /// `Capacity` past [`CAPACITY`] terms.
    pub const fn add(self, other: Value, op: Op) -> Result<Value, Error> {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => match a.checked_add(b) {
                Some(v) => Ok(Value::Int(v)),
                None => Err(Error::new(op, ErrorKind::Overflow { what: "an offset" })),
            },
            (Value::F2(a), Value::F2(b)) => Ok(Value::F2(a ^ b)),
            (Value::Coord(mut a), Value::Coord(b)) => {
                let mut i = 0;
                while i < b.n as usize {
                    a = match a.add_term(b.val[i], b.code[i], op) {
                        Ok(t) => t,
                        Err(e) => return Err(e),
                    };
                    i += 1;
                }
                Ok(Value::Coord(a))
            }
            (Value::Int(0), v) | (v, Value::Int(0)) => Ok(v),
            _ => Err(Error::new(
                op,
                ErrorKind::Unsupported {
                    what: "adding values of different semimodules",
                },
            )),
        }
    }
}

impl ArithTuple {
    /// Adds `v·E(code)`.
    pub(crate) const fn add_term(
        mut self,
        v: i64,
        code: Code,
        op: Op,
    ) -> Result<ArithTuple, Error> {
        let n = self.n as usize;
        let mut i = 0;
        while i < n && self.code[i] < code {
            i += 1;
        }
        if i < n && self.code[i] == code {
            let s = match self.val[i].checked_add(v) {
                Some(s) => s,
                None => {
                    return Err(Error::new(
                        op,
                        ErrorKind::Overflow {
                            what: "a coordinate of an arithmetic tuple",
                        },
                    ))
                }
            };
            self.val[i] = s;
            return Ok(self);
        }
        // a basis and a basis below it (`e_0` and `e_(0,0)`) cannot be added: the coordinates
        // have different depths
        let mut k = 0;
        while k < n {
            if is_prefix(self.code[k], code) || is_prefix(code, self.code[k]) {
                return Err(Error::new(
                    op,
                    ErrorKind::Unsupported {
                        what: "adding coordinate bases of different depths at one position",
                    },
                ));
            }
            k += 1;
        }
        if n >= CAPACITY {
            return Err(Error::new(
                op,
                ErrorKind::Capacity {
                    what: "terms of an arithmetic tuple",
                    limit: CAPACITY,
                },
            ));
        }
        let mut k = n;
        while k > i {
            self.code[k] = self.code[k - 1];
            self.val[k] = self.val[k - 1];
            k -= 1;
        }
        self.code[i] = code;
        self.val[i] = v;
        self.n += 1;
        Ok(self)
    }
}
