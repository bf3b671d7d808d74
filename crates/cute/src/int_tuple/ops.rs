//! The operations of [`IntTuple`] that can fail: building tuples, products and sums, mode surgery,
//! and the relations built on them (weak congruence and compatibility, which compare sizes and
//! modes). The type and its accessors that cannot fail are in [`int_tuple`](mod@crate::int_tuple),
//! below the errors.

use super::build::{parts, Builder};
use super::{IntTuple, Parts, Tree, CAPACITY};
use crate::error::{add, mul, tri, Error, ErrorKind, Op, Operand};

/// The fallible operations of [`IntTuple`] (the type and its infallible accessors are in
/// [`int_tuple`](mod@crate::int_tuple), below the errors).
impl IntTuple {
    /// The flat tuple `(v0,v1,...)` of the given integers. A single integer gives the 1-tuple `(v0)`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!(IntTuple::flat(&[2, 3, 4]).unwrap().to_string(), "(2,3,4)");
    /// assert_eq!(IntTuple::flat(&[5]).unwrap().to_string(), "(5)");
    /// ```
    ///
    /// # Errors
    ///
    /// `Unsupported` for an empty slice (there is no empty tuple); `Capacity` for more than
    /// [`CAPACITY`] integers.
    pub const fn flat(vals: &[i64]) -> Result<IntTuple, Error> {
        if vals.is_empty() {
            return Err(Error::new(
                Op::MakeLayout,
                ErrorKind::Unsupported {
                    what: "empty tuples",
                },
            ));
        }
        if vals.len() > CAPACITY {
            return Err(Error::new(
                Op::MakeLayout,
                ErrorKind::Capacity {
                    what: "number of leaves",
                    limit: CAPACITY,
                },
            ));
        }
        let mut val = [0; CAPACITY];
        let mut i = 0;
        while i < vals.len() {
            val[i] = vals[i];
            i += 1;
        }
        Ok(IntTuple {
            tree: Tree::flat(vals.len(), true),
            val,
        })
    }

    /// The tuple of the given modes, `(m0,m1,...)`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let inner = IntTuple::flat(&[3, 4]).unwrap();
    /// let t = IntTuple::tuple(&[IntTuple::int(2), inner]).unwrap();
    /// assert_eq!(t.to_string(), "(2,(3,4))");
    /// ```
    ///
    /// # Errors
    ///
    /// `Unsupported` for no modes (there is no empty tuple); `Capacity` when the result would have
    /// more than [`CAPACITY`] leaves or nest deeper than
    /// [`MAX_DEPTH`](crate::MAX_DEPTH) levels.
    pub const fn tuple(modes: &[IntTuple]) -> Result<IntTuple, Error> {
        let mut b = Builder::new();
        tri!(b.open(Op::MakeLayout));
        let mut i = 0;
        while i < modes.len() {
            let m = &modes[i];
            tri!(b.push_node(
                Op::MakeLayout,
                &m.tree,
                &m.val,
                &m.val,
                0,
                m.tree.len(),
                (0, 0)
            ));
            i += 1;
        }
        tri!(b.close(Op::MakeLayout));
        let (tree, val, _) = tri!(b.finish(Op::MakeLayout));
        Ok(IntTuple { tree, val })
    }

    /// `|X|`: the product of all leaves (the size of a shape). Fails on overflow.
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!("((2,2),(4,2))".parse::<IntTuple>().unwrap().size().unwrap(), 32);
    /// let huge: IntTuple = "(4294967296,4294967296)".parse().unwrap();
    /// assert_eq!(huge.size().unwrap_err().to_string(), "size (4294967296,4294967296): integer overflow: a product does not fit in i64");
    /// ```
    ///
    /// # Errors
    ///
    /// `Overflow` when the product of the leaves does not fit in `i64`.
    pub const fn size(&self) -> Result<i64, Error> {
        let mut p: i64 = 1;
        let mut i = 0;
        while i < self.tree.len() {
            p = match mul(Op::Named("size"), p, self.val[i]) {
                Ok(v) => v,
                Err(e) => return Err(e.with(Operand::Tuple(*self), Operand::None)),
            };
            i += 1;
        }
        Ok(p)
    }

    /// Alias of [`size`](IntTuple::size): CuTe's `product`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!("(2,(3,4))".parse::<IntTuple>().unwrap().product().unwrap(), 24);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`size`](IntTuple::size): `Overflow` when the product does not fit in `i64`.
    pub const fn product(&self) -> Result<i64, Error> {
        self.size()
    }

    /// The sum of all leaves (CuTe's `sum`).
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!("(2,(3,4))".parse::<IntTuple>().unwrap().sum().unwrap(), 9);
    /// ```
    ///
    /// # Errors
    ///
    /// `Overflow` when the sum of the leaves does not fit in `i64`.
    pub const fn sum(&self) -> Result<i64, Error> {
        let mut s: i64 = 0;
        let mut i = 0;
        while i < self.tree.len() {
            s = tri!(add(Op::MakeLayout, s, self.val[i]));
            i += 1;
        }
        Ok(s)
    }

    /// CuTe's `product_each`: the size of every top-level mode, as a flat tuple (an integer for an
    /// integer).
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert_eq!(x.product_each().unwrap().to_string(), "(4,8)");
    /// assert_eq!(IntTuple::int(8).product_each().unwrap().to_string(), "8");
    /// ```
    ///
    /// # Errors
    ///
    /// `Overflow` when the size of a mode does not fit in `i64`.
    pub const fn product_each(&self) -> Result<IntTuple, Error> {
        if self.is_int() {
            return Ok(*self);
        }
        let r = self.rank();
        let mut out = IntTuple {
            tree: Tree::flat(r, true),
            val: [0; CAPACITY],
        };
        let mut k = 0;
        while k < r {
            out.val[k] = tri!(tri!(self.get(k)).size());
            k += 1;
        }
        Ok(out)
    }

    /// `prefix_product(X)`: the exclusive prefix product over the leaves, with X's profile. This is the
    /// compact column-major stride of the shape X: `(2,(3,4))` gives `(1,(2,6))`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(x.prefix_product().unwrap().to_string(), "(1,(2,6))");
    /// ```
    ///
    /// # Errors
    ///
    /// `Overflow` when a product of the leaves (up to the whole size) does not fit in `i64`.
    pub const fn prefix_product(&self) -> Result<IntTuple, Error> {
        let mut out = *self;
        let mut p: i64 = 1;
        let mut i = 0;
        while i < self.tree.len() {
            out.val[i] = p;
            p = tri!(mul(Op::MakeLayout, p, self.val[i]));
            i += 1;
        }
        Ok(out)
    }

    /// `P ≲ S`: `P` is an integer, or both are tuples of equal rank with weakly congruent entries.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let s: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert!("(1,2)".parse::<IntTuple>().unwrap().weakly_congruent(&s));
    /// assert!(IntTuple::int(8).weakly_congruent(&s));
    /// assert!(!"(1,2,3)".parse::<IntTuple>().unwrap().weakly_congruent(&s));
    /// ```
    pub const fn weakly_congruent(&self, other: &IntTuple) -> bool {
        self.relates(other, false)
    }

    /// `P ⪯ S` (compatibility): `P` is an integer equal to `|S|`, or both are tuples of equal rank with
    /// compatible entries.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let s: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert!("(4,8)".parse::<IntTuple>().unwrap().compatible(&s));
    /// assert!(IntTuple::int(32).compatible(&s));
    /// assert!(!"(8,4)".parse::<IntTuple>().unwrap().compatible(&s));
    /// ```
    pub const fn compatible(&self, other: &IntTuple) -> bool {
        self.relates(other, true)
    }

    /// The two partial orders share their recursion; they differ only where `P` is an integer: weak
    /// congruence accepts any integer, compatibility one equal to `|S|`.
    const fn relates(&self, other: &IntTuple, sizes_equal: bool) -> bool {
        if self.is_int() {
            return !sizes_equal
                || match other.size() {
                    Ok(s) => s == self.val[0],
                    Err(_) => false,
                };
        }
        if other.is_int() {
            return false;
        }
        let r = self.rank();
        if r != other.rank() {
            return false;
        }
        let mut k = 0;
        while k < r {
            match (self.get(k), other.get(k)) {
                (Ok(a), Ok(b)) => {
                    if !a.relates(&b, sizes_equal) {
                        return false;
                    }
                }
                _ => return false,
            }
            k += 1;
        }
        true
    }

    /// `get<k>(X)`: the `k`-th top-level entry. `get<0>` of an integer is the integer itself.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert_eq!(x.get(1).unwrap().to_string(), "(4,2)");
    /// assert_eq!(x.get(2).unwrap_err().to_string(), "get ((2,2),(4,2)): mode index 2 is out of range for rank 2");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` when `k` is not below the rank (an integer has rank 1).
    pub const fn get(&self, k: usize) -> Result<IntTuple, Error> {
        Self::wrap(parts::get(&self.tree, &self.val, &self.val, k), self)
    }

    /// Follows a path of mode indices: `get_path(&[i, j])` is `get<j>(get<i>(X))`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "((2,2),(4,2))".parse().unwrap();
    /// assert_eq!(x.get_path(&[1, 0]).unwrap().to_string(), "4");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` when an index of the path is not below the rank of the entry it indexes.
    pub const fn get_path(&self, path: &[usize]) -> Result<IntTuple, Error> {
        let mut cur = *self;
        let mut i = 0;
        while i < path.len() {
            cur = tri!(cur.get(path[i]));
            i += 1;
        }
        Ok(cur)
    }

    /// `unflatten(flat, profile)`: gives the leaves of `self` (which must have as many leaves as
    /// `profile`) the nesting of `profile`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(2,2,4,2)".parse().unwrap();
    /// let profile: IntTuple = "((0,0),(0,0))".parse().unwrap();
    /// assert_eq!(x.unflatten(&profile).unwrap().to_string(), "((2,2),(4,2))");
    /// let e = "(2,3)".parse::<IntTuple>().unwrap().unflatten(&profile).unwrap_err();
    /// assert_eq!(e.to_string(), "unflatten (2,3), ((0,0),(0,0)): unflatten needs as many leaves as the profile (2 vs 4)");
    /// ```
    ///
    /// # Errors
    ///
    /// `ProfileMismatch` when `self` and `profile` have different numbers of leaves.
    pub const fn unflatten(&self, profile: &IntTuple) -> Result<IntTuple, Error> {
        if self.tree.len() != profile.tree.len() {
            return Err(Error::new(
                Op::Unflatten,
                ErrorKind::ProfileMismatch {
                    what: "unflatten needs as many leaves as the profile",
                    left: self.tree.len() as i64,
                    right: profile.tree.len() as i64,
                },
            )
            .with(Operand::Tuple(*self), Operand::Tuple(*profile)));
        }
        Ok(IntTuple {
            tree: profile.tree,
            val: self.val,
        })
    }

    /// `take<b,e>(X)`: the tuple of entries `[b, e)`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(4,8,2)".parse().unwrap();
    /// assert_eq!(x.take(1, 3).unwrap().to_string(), "(8,2)");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` unless `b < e <= rank`.
    pub const fn take(&self, b: usize, e: usize) -> Result<IntTuple, Error> {
        Self::wrap(parts::take(&self.tree, &self.val, &self.val, b, e), self)
    }

    /// `select<i...>(X)`: the tuple of the listed entries.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(4,8,2)".parse().unwrap();
    /// assert_eq!(x.select(&[2, 0]).unwrap().to_string(), "(2,4)");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` when an index is not below the rank; `Unsupported` for an empty list (there is
    /// no empty tuple); `Capacity` when the selected entries (one may be taken twice) have more
    /// than [`CAPACITY`] leaves.
    pub const fn select(&self, idx: &[usize]) -> Result<IntTuple, Error> {
        Self::wrap(parts::select(&self.tree, &self.val, &self.val, idx), self)
    }

    /// `group<b,e>(X)`: replaces entries `[b, e)` by one entry holding them as a tuple.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(4,8,2)".parse().unwrap();
    /// assert_eq!(x.group(0, 2).unwrap().to_string(), "((4,8),2)");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` unless `b < e <= rank`; `Capacity` when the new level of parentheses would nest
    /// deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    pub const fn group(&self, b: usize, e: usize) -> Result<IntTuple, Error> {
        Self::wrap(parts::group(&self.tree, &self.val, &self.val, b, e), self)
    }

    /// `append(X, x)`: `X` with `x` as a new last entry (an integer `X` becomes `(X, x)`).
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(4,8)".parse().unwrap();
    /// assert_eq!(x.append(&IntTuple::int(2)).unwrap().to_string(), "(4,8,2)");
    /// assert_eq!(IntTuple::int(8).append(&IntTuple::int(2)).unwrap().to_string(), "(8,2)");
    /// ```
    ///
    /// # Errors
    ///
    /// `Capacity` when the result would have more than [`CAPACITY`] leaves or nest
    /// deeper than [`MAX_DEPTH`](crate::MAX_DEPTH) levels.
    pub const fn append(&self, x: &IntTuple) -> Result<IntTuple, Error> {
        let p = parts::insert(
            &self.tree,
            &self.val,
            &self.val,
            self.rank(),
            &x.tree,
            &x.val,
            &x.val,
        );
        Self::wrap(p, self)
    }

    /// `prepend(X, x)`: `X` with `x` as a new first entry.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(4,8)".parse().unwrap();
    /// assert_eq!(x.prepend(&IntTuple::int(2)).unwrap().to_string(), "(2,4,8)");
    /// ```
    ///
    /// # Errors
    ///
    /// `Capacity` when the result would have more than [`CAPACITY`] leaves or nest
    /// deeper than [`MAX_DEPTH`](crate::MAX_DEPTH) levels.
    pub const fn prepend(&self, x: &IntTuple) -> Result<IntTuple, Error> {
        Self::wrap(
            parts::insert(&self.tree, &self.val, &self.val, 0, &x.tree, &x.val, &x.val),
            self,
        )
    }

    /// `replace<k>(X, x)`: `X` with entry `k` replaced by `x`.
    ///
    /// ```
    /// use cute::IntTuple;
    /// let x: IntTuple = "(4,8)".parse().unwrap();
    /// let y: IntTuple = "(2,2)".parse().unwrap();
    /// assert_eq!(x.replace(0, &y).unwrap().to_string(), "((2,2),8)");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` when `k` is not below the rank; `Capacity` when the result would have more than
    /// [`CAPACITY`] leaves or nest deeper than [`MAX_DEPTH`](crate::MAX_DEPTH)
    /// levels.
    pub const fn replace(&self, k: usize, x: &IntTuple) -> Result<IntTuple, Error> {
        Self::wrap(
            parts::replace(&self.tree, &self.val, &self.val, k, &x.tree, &x.val, &x.val),
            self,
        )
    }

    /// `reverse(X)`: the top-level entries in reverse order (an integer is its own reverse).
    ///
    /// ```
    /// use cute::IntTuple;
    /// assert_eq!("(4,8,2)".parse::<IntTuple>().unwrap().reverse().unwrap().to_string(), "(2,8,4)");
    /// assert_eq!(IntTuple::int(8).reverse().unwrap().to_string(), "8");
    /// ```
    ///
    /// # Errors
    ///
    /// None for a valid tuple: the result has the same leaves and the same depth (the `Result` is
    /// that of the tuple rebuilder that the other mode operations share).
    pub const fn reverse(&self) -> Result<IntTuple, Error> {
        Self::wrap(parts::reverse(&self.tree, &self.val, &self.val), self)
    }

    const fn wrap(p: Result<Parts, Error>, arg: &IntTuple) -> Result<IntTuple, Error> {
        match p {
            Ok((tree, val, _)) => Ok(IntTuple { tree, val }),
            Err(e) => Err(e.or_with(Operand::Tuple(*arg), Operand::None)),
        }
    }
}
