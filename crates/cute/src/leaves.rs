//! Hierarchical tuples and layouts from their leaves and their nesting, in one step, and the
//! nesting read back leaf by leaf: for bindings (the Python module) that walk a nested value once
//! and write each leaf where it goes, instead of building a tuple per level.
//!
//! The nesting of `n` leaves is two slices: `open[i]` parentheses open immediately before leaf
//! `i` and `close[i]` close immediately after it. A single leaf with no parentheses is an
//! integer; otherwise the parentheses must enclose everything, balance, and never close more than
//! they opened.

use crate::error::{tri, Error, ErrorKind, Op};
use crate::int_tuple::{IntTuple, Tree, CAPACITY, MAX_DEPTH};
use crate::layout::Layout;
use crate::stride::Semimodule;

const fn malformed() -> Error {
    Error::new(
        Op::Parse,
        ErrorKind::Unsupported {
            what: "leaves and parentheses that do not form one hierarchical tuple",
        },
    )
}

/// The tree of `n` leaves nested as `open`/`close` say, checked.
const fn tree_of(open: &[u8], close: &[u8], n: usize) -> Result<Tree, Error> {
    if n > CAPACITY {
        return Err(Error::new(
            Op::Parse,
            ErrorKind::Capacity {
                what: "leaves of a hierarchical tuple",
                limit: CAPACITY,
            },
        ));
    }
    if n == 0 || open.len() != n || close.len() != n {
        return Err(malformed());
    }
    let mut tree = Tree::EMPTY;
    let mut depth: usize = 0;
    let mut i = 0;
    while i < n {
        // every leaf after the first lies inside the outermost parentheses
        if i > 0 && depth == 0 {
            return Err(malformed());
        }
        depth += open[i] as usize;
        if depth > MAX_DEPTH {
            return Err(Error::new(
                Op::Parse,
                ErrorKind::Capacity {
                    what: "nesting depth of a hierarchical tuple",
                    limit: MAX_DEPTH,
                },
            ));
        }
        if (close[i] as usize) > depth {
            return Err(malformed());
        }
        depth -= close[i] as usize;
        tree.open[i] = open[i];
        tree.close[i] = close[i];
        i += 1;
    }
    if depth != 0 {
        return Err(malformed());
    }
    tree.n = n as u8;
    Ok(tree)
}

impl IntTuple {
    /// The hierarchical tuple whose leaves are `vals`, where `open[i]` parentheses open
    /// immediately before leaf `i` and `close[i]` close immediately after it (the three slices of
    /// one length). A single leaf with no parentheses is an integer; otherwise the parentheses
    /// must enclose everything, balance, and never close more than they opened.
    ///
    /// # Errors
    ///
    /// Every error names the operation `parse`. `Capacity` for more than [`CAPACITY`] leaves or
    /// nesting deeper than [`MAX_DEPTH`]; `Unsupported` for no leaves, slices of different lengths,
    /// or parentheses that do not form one tuple.
    ///
    /// ```
    /// use cute::IntTuple;
    /// // ((2,2),(4,2)): two parentheses before the first leaf, one after the second, ...
    /// let t = IntTuple::from_leaves(&[2, 0, 1, 0], &[0, 1, 0, 2], &[2, 2, 4, 2]).unwrap();
    /// assert_eq!(t.to_string(), "((2,2),(4,2))");
    /// assert_eq!(t.nesting(3), (0, 2));
    /// assert_eq!(IntTuple::from_leaves(&[0], &[0], &[7]).unwrap(), IntTuple::int(7));
    /// assert_eq!(IntTuple::from_leaves(&[1], &[1], &[7]).unwrap().to_string(), "(7)");
    /// assert!(IntTuple::from_leaves(&[0, 0], &[0, 0], &[1, 2]).is_err()); // 1,2: no tuple
    /// assert!(IntTuple::from_leaves(&[1, 0], &[1, 1], &[1, 2]).is_err()); // (1),2)
    /// ```
    pub const fn from_leaves(open: &[u8], close: &[u8], vals: &[i64]) -> Result<IntTuple, Error> {
        let tree = tri!(tree_of(open, close, vals.len()));
        let mut val = [0i64; CAPACITY];
        let mut i = 0;
        while i < vals.len() {
            val[i] = vals[i];
            i += 1;
        }
        Ok(IntTuple { tree, val })
    }

    /// The parentheses opened immediately before leaf `i` and closed immediately after it
    /// (`(0, 0)` past the last leaf).
    ///
    /// ```
    /// use cute::IntTuple;
    /// let t: IntTuple = "((2,2),4)".parse().unwrap();
    /// assert_eq!((t.nesting(0), t.nesting(1), t.nesting(2)), ((2, 0), (0, 1), (0, 1)));
    /// assert_eq!(IntTuple::int(3).nesting(0), (0, 0));
    /// ```
    pub const fn nesting(&self, i: usize) -> (u8, u8) {
        if i >= CAPACITY {
            return (0, 0);
        }
        (self.tree.open[i], self.tree.close[i])
    }
}

impl Layout {
    /// The layout `shape:stride` with integer strides, both nested as `open`/`close` say (as in
    /// [`IntTuple::from_leaves`]; the four slices of one length): [`Layout::new`] without
    /// building the two tuples first.
    ///
    /// # Errors
    ///
    /// Those of [`IntTuple::from_leaves`], and of [`Layout::new`] (`InvalidShape` for a
    /// shape entry below 1, `Overflow` for a size past `i64`).
    ///
    /// ```
    /// use cute::Layout;
    /// let l = Layout::from_leaves(&[2, 0, 1, 0], &[0, 1, 0, 2], &[2, 2, 4, 2], &[1, 8, 2, 32]);
    /// assert_eq!(l.unwrap().to_string(), "((2,2),(4,2)):((1,8),(2,32))");
    /// assert!(Layout::from_leaves(&[1, 0], &[0, 1], &[0, 2], &[1, 1]).is_err());
    /// ```
    pub const fn from_leaves(
        open: &[u8],
        close: &[u8],
        shape: &[i64],
        stride: &[i64],
    ) -> Result<Layout, Error> {
        if stride.len() != shape.len() {
            return Err(malformed());
        }
        let tree = tri!(tree_of(open, close, shape.len()));
        let mut s = [0i64; CAPACITY];
        let mut d = [0i64; CAPACITY];
        let mut i = 0;
        while i < shape.len() {
            s[i] = shape[i];
            d[i] = stride[i];
            i += 1;
        }
        Layout::from_parts((tree, s, d), Op::MakeLayout)
    }

    /// Makes `self` the layout `shape:stride` with integer strides, both nested as
    /// `open`/`close` say: [`Layout::from_leaves`] written in place (no layout is returned or
    /// moved; a binding fills a layout it already holds). On an error `self` is left unchanged.
    ///
    /// ```
    /// use cute::Layout;
    /// let mut l: Layout = "1:0".parse().unwrap();
    /// l.assign_leaves(&[1, 0], &[0, 1], &[4, 8], &[8, 1]).unwrap();
    /// assert_eq!(l, "(4,8):(8,1)".parse().unwrap());
    /// assert!(l.assign_leaves(&[1, 0], &[0, 1], &[4, 0], &[8, 1]).is_err());
    /// assert!(l.assign_leaves(&[1, 0], &[0, 1], &[1 << 32, 1 << 32], &[1, 1]).is_err());
    /// assert_eq!(l.to_string(), "(4,8):(8,1)");
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`Layout::from_leaves`]; on an error `self` is left unchanged.
    pub const fn assign_leaves(
        &mut self,
        open: &[u8],
        close: &[u8],
        shape: &[i64],
        stride: &[i64],
    ) -> Result<(), Error> {
        let n = shape.len();
        if stride.len() != n {
            return Err(malformed());
        }
        let tree = tri!(tree_of(open, close, n));
        let mut size: i64 = 1;
        let mut i = 0;
        while i < n {
            if shape[i] < 1 {
                return Err(Error::new(
                    Op::MakeLayout,
                    ErrorKind::InvalidShape { value: shape[i] },
                ));
            }
            size = match size.checked_mul(shape[i]) {
                Some(p) => p,
                None => {
                    return Err(Error::new(
                        Op::MakeLayout,
                        ErrorKind::Overflow {
                            what: "the size of the shape",
                        },
                    ))
                }
            };
            i += 1;
        }
        self.tree = tree;
        let mut i = 0;
        while i < CAPACITY {
            let inside = i < n;
            self.shape[i] = if inside { shape[i] } else { 0 };
            self.stride[i] = if inside { stride[i] } else { 0 };
            self.basis[i] = 0;
            i += 1;
        }
        Ok(())
    }

    /// The parentheses of the shape opened immediately before leaf `i` and closed immediately
    /// after it (`(0, 0)` past the last leaf).
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),4):((1,2),4)".parse().unwrap();
    /// assert_eq!((l.nesting(0), l.nesting(1), l.nesting(2)), ((2, 0), (0, 1), (0, 1)));
    /// ```
    pub const fn nesting(&self, i: usize) -> (u8, u8) {
        if i >= CAPACITY {
            return (0, 0);
        }
        (self.tree.open[i], self.tree.close[i])
    }

    /// `L(c)` for a coordinate `c` given by its leaves, nested exactly as the shape, when the
    /// strides are integers and every leaf lies in its mode (`0 <= c_i < s_i`); `None` for every
    /// other case (another nesting, a leaf out of range, other strides, an overflow), which
    /// [`Layout::eval_crd_value`] answers or refuses.
    ///
    /// ```
    /// use cute::Layout;
    /// let l: Layout = "((2,2),(4,2)):((1,8),(2,32))".parse().unwrap();
    /// assert_eq!(l.eval_leaves(&[2, 0, 1, 0], &[0, 1, 0, 2], &[1, 1, 3, 1]), Some(47));
    /// assert_eq!(l.eval_leaves(&[2, 0, 1, 0], &[0, 1, 0, 2], &[1, 1, 4, 1]), None);
    /// assert_eq!(l.eval_leaves(&[1, 0], &[0, 1], &[1, 5]), None); // coarser: not handled here
    /// ```
    pub const fn eval_leaves(&self, open: &[u8], close: &[u8], crd: &[i64]) -> Option<i64> {
        let n = self.tree.len();
        if crd.len() != n || open.len() != n || close.len() != n {
            return None;
        }
        if !matches!(self.semimodule(), Semimodule::Integer) {
            return None;
        }
        let mut acc: i64 = 0;
        let mut i = 0;
        while i < n {
            if open[i] != self.tree.open[i] || close[i] != self.tree.close[i] {
                return None;
            }
            let c = crd[i];
            if c < 0 || c >= self.shape[i] {
                return None;
            }
            acc = match c.checked_mul(self.stride[i]) {
                Some(t) => match acc.checked_add(t) {
                    Some(a) => a,
                    None => return None,
                },
                None => return None,
            };
            i += 1;
        }
        Some(acc)
    }
}
