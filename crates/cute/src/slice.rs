//! Slicing with partial coordinates (paper: 切片 “slicing”): `L(c' + c*) = L(c') + L(c*)`.
//!
//! A [`PartialCoord`] is a coordinate some of whose entries are the free marker `_`. Slicing a
//! layout `L` with it splits `L`'s evaluation in two: the fixed entries `c'` are evaluated now and
//! give an offset, and the free entries `c*` select the sub-layouts that stay unevaluated. A tensor
//! slice `T(c)` is then the tensor whose offset has absorbed `L(c')` and whose layout is the
//! sub-layout of the free modes.
//!
//! | layout | coordinate | `slice` (free part) | `slice_offset` (`L(c')`) | `dice` (fixed part) |
//! |---|---|---|---|---|
//! | `(4,8):(1,4)` | `(2,_)` | `(8):(4)` | `2` | `(4):(1)` |
//! | `(4,8):(1,4)` | `(_,3)` | `(4):(1)` | `12` | `(8):(4)` |
//! | `((2,3),4):((1,2),6)` | `((_,1),_)` | `(2,4):(1,6)` | `2` | `(3):(2)` |
//! | `((2,3),4):((1,2),6)` | `(4,_)` | `(4):(6)` | `4` | `((2,3)):((1,2))` |
//! | `(6,(2,3,2)):(1,(6,15,100))` | `(0,(0,_,_))` | `(3,2):(15,100)` | `0` | `(6,2):(1,6)` |
//!
//! The result of `slice` is the concatenation of the free sub-layouts in order, each kept whole
//! (CuTe's `slice`: nesting of the coordinate does not nest the result, and a single free mode is
//! a rank-1 tuple, printed `(8):(4)` as static CuTe C++ prints `(_8):(_4)`). A bare `_` returns
//! the layout itself. A coordinate with no `_`
//! leaves nothing free: `slice` then returns `1:0`, the layout of a single element (CuTe returns an
//! empty tuple, which this crate does not represent). An integer entry that stands for a whole
//! sub-shape is an integer coordinate of that sub-layout, and must lie in its domain.
//!
//! ```
//! use cute::{slice, slice_offset, Layout, PartialCoord};
//! let a: Layout = "(6,(2,3,2)):(1,(6,15,100))".parse().unwrap();
//! let c: PartialCoord = "(0,(0,_,_))".parse().unwrap();
//! assert_eq!(slice(&a, &c).unwrap().to_string(), "(3,2):(15,100)");
//! assert_eq!(slice_offset(&a, &c).unwrap(), 0);
//! // every other row cannot be sliced from a flat mode of 6: the coordinate must follow the layout
//! assert!(slice(&a, &"((0,_),0)".parse().unwrap()).is_err());
//! ```

use crate::error::{Error, ErrorKind, Op, Operand};
pub use crate::int_tuple::partial::PartialCoord;
use crate::int_tuple::{IntTuple, CAPACITY};
use crate::layout::Layout;
use crate::stride::Value;
use core::fmt;
use core::str::FromStr;

impl PartialCoord {
    /// A coordinate with no free entry.
    ///
    /// ```
    /// use cute::{IntTuple, PartialCoord};
    /// let c = PartialCoord::fixed(&"(1,2)".parse::<IntTuple>().unwrap());
    /// assert!(c.is_fixed());
    /// assert_eq!(c, "(1,2)".parse().unwrap());
    /// ```
    pub const fn fixed(c: &IntTuple) -> PartialCoord {
        PartialCoord { tuple: *c, free: 0 }
    }

    /// `_`: every entry free.
    pub const FREE: PartialCoord = PartialCoord {
        tuple: IntTuple::int(0),
        free: 1,
    };

    /// The coordinate `(c_0, c_1, ...)` of the given modes.
    ///
    /// ```
    /// use cute::PartialCoord;
    /// let row: PartialCoord = "2".parse().unwrap();
    /// let all: PartialCoord = "_".parse().unwrap();
    /// let c = PartialCoord::tuple(&[row, all]).unwrap();
    /// assert_eq!(c, "(2,_)".parse().unwrap());
    /// ```
    ///
    /// # Errors
    ///
    /// `Capacity` when the modes together have more leaves than a tuple holds.
    pub fn tuple(modes: &[PartialCoord]) -> Result<PartialCoord, Error> {
        let tuples: Vec<IntTuple> = modes.iter().map(|m| m.tuple).collect();
        let tuple = IntTuple::tuple(&tuples)?;
        let (mut free, mut at) = (0u32, 0usize);
        for m in modes {
            free |= m.free << at;
            at += m.tuple.leaf_count();
        }
        Ok(PartialCoord { tuple, free })
    }

    /// The number of top-level entries.
    ///
    /// ```
    /// use cute::PartialCoord;
    /// assert_eq!("((_,1),_)".parse::<PartialCoord>().unwrap().rank(), 2);
    /// assert_eq!("_".parse::<PartialCoord>().unwrap().rank(), 1);
    /// ```
    pub const fn rank(&self) -> usize {
        self.tuple.rank()
    }

    /// True when the coordinate is a single entry (an integer or `_`).
    ///
    /// ```
    /// use cute::PartialCoord;
    /// assert!("_".parse::<PartialCoord>().unwrap().is_leaf());
    /// assert!("3".parse::<PartialCoord>().unwrap().is_leaf());
    /// assert!(!"(3,_)".parse::<PartialCoord>().unwrap().is_leaf());
    /// ```
    pub const fn is_leaf(&self) -> bool {
        self.tuple.is_int()
    }

    /// True when the coordinate is the single free marker `_`.
    ///
    /// ```
    /// use cute::PartialCoord;
    /// assert!("_".parse::<PartialCoord>().unwrap().is_free());
    /// assert!(!"(_,_)".parse::<PartialCoord>().unwrap().is_free());
    /// ```
    pub const fn is_free(&self) -> bool {
        self.tuple.is_int() && self.free & 1 == 1
    }

    /// True when no entry is `_` (the coordinate is an ordinary coordinate).
    ///
    /// ```
    /// use cute::PartialCoord;
    /// assert!("(1,(2,3))".parse::<PartialCoord>().unwrap().is_fixed());
    /// assert!(!"(1,(_,3))".parse::<PartialCoord>().unwrap().is_fixed());
    /// ```
    pub const fn is_fixed(&self) -> bool {
        self.free == 0
    }

    /// The coordinate with `0` in place of every `_`.
    ///
    /// ```
    /// use cute::PartialCoord;
    /// let c: PartialCoord = "((_,1),_)".parse().unwrap();
    /// assert_eq!(c.zeroed().to_string(), "((0,1),0)");
    /// ```
    pub const fn zeroed(&self) -> IntTuple {
        self.tuple
    }

    /// Entry `k` of the top level.
    ///
    /// ```
    /// use cute::PartialCoord;
    /// let c: PartialCoord = "((_,1),_)".parse().unwrap();
    /// assert_eq!(c.get(0).unwrap(), "(_,1)".parse().unwrap());
    /// assert!(c.get(1).unwrap().is_free());
    /// assert_eq!(c.get(2).unwrap_err().to_string(), "get ((0,1),0): mode index 2 is out of range for rank 2");
    /// ```
    ///
    /// # Errors
    ///
    /// `OutOfRange` when `k` is not below the rank.
    pub fn get(&self, k: usize) -> Result<PartialCoord, Error> {
        let tuple = self.tuple.get(k)?;
        let at: usize = (0..k)
            .map(|j| self.tuple.get(j).map(|t| t.leaf_count()).unwrap_or(0))
            .sum();
        let mask = if tuple.leaf_count() >= 32 {
            u32::MAX
        } else {
            (1u32 << tuple.leaf_count()) - 1
        };
        Ok(PartialCoord {
            tuple,
            free: (self.free >> at) & mask,
        })
    }
}

impl From<IntTuple> for PartialCoord {
    fn from(c: IntTuple) -> PartialCoord {
        PartialCoord::fixed(&c)
    }
}

impl FromStr for PartialCoord {
    type Err = Error;

    /// Parses CuTe notation with `_` for free entries: `(2,_)`, `((_,1),_)`, `_`, `3`.
    fn from_str(s: &str) -> Result<PartialCoord, Error> {
        // the leaves are the maximal runs of digits (with a sign) and the `_` marks, in order
        let bytes = s.as_bytes();
        let (mut text, mut free, mut leaf) = (String::with_capacity(s.len()), 0u32, 0usize);
        let mut p = 0;
        while p < bytes.len() {
            let b = bytes[p];
            if b == b'_' {
                // `_` stands alone between delimiters
                let before = bytes[..p].iter().rev().find(|c| !c.is_ascii_whitespace());
                let after = bytes[p + 1..].iter().find(|c| !c.is_ascii_whitespace());
                let alone = matches!(before, None | Some(b'(') | Some(b','))
                    && matches!(after, None | Some(b')') | Some(b','));
                if !alone {
                    return Err(Error::new(
                        Op::Parse,
                        ErrorKind::Syntax {
                            pos: p,
                            expected: "`_` alone between `(`, `,` and `)`",
                        },
                    ));
                }
                if leaf >= CAPACITY {
                    return Err(Error::new(
                        Op::Parse,
                        ErrorKind::Capacity {
                            what: "leaves of a coordinate",
                            limit: CAPACITY,
                        },
                    ));
                }
                free |= 1 << leaf;
                leaf += 1;
                text.push('0');
                p += 1;
                continue;
            }
            if b.is_ascii_digit() {
                leaf += 1;
                while p < bytes.len() && bytes[p].is_ascii_digit() {
                    text.push(bytes[p] as char);
                    p += 1;
                }
                continue;
            }
            text.push(b as char);
            p += 1;
        }
        let tuple: IntTuple = text.parse()?;
        Ok(PartialCoord { tuple, free })
    }
}

impl fmt::Debug for PartialCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Walks `c` over `l`, calling `free(sub)` for each free sub-layout in order and accumulating the
/// offset of the fixed entries.
fn walk(
    l: &Layout,
    c: &PartialCoord,
    op: Op,
    free: &mut impl FnMut(Layout),
    fixed: &mut impl FnMut(Layout),
    offset: &mut Option<Value>,
) -> Result<(), Error> {
    if c.is_leaf() {
        if c.is_free() {
            free(*l);
            return Ok(());
        }
        let v = c.tuple.as_int().unwrap_or(0);
        let n = l.size();
        if !(0..n).contains(&v) {
            return Err(Error::new(op, ErrorKind::NotInDomain { coord: v, size: n }));
        }
        fixed(*l);
        if let Some(o) = offset {
            *o = o.add(l.eval_value(v)?, op)?;
        }
        return Ok(());
    }
    if l.is_leaf() {
        return Err(Error::new(
            op,
            ErrorKind::ProfileMismatch {
                what: "a tuple entry of the slicing coordinate meets a single mode, where an \
                       integer or `_` goes (the entry's rank, the mode's depth)",
                left: c.rank() as i64,
                right: 0,
            },
        ));
    }
    if l.rank() != c.rank() {
        return Err(Error::new(
            op,
            ErrorKind::ProfileMismatch {
                what: "a tuple entry of the slicing coordinate must meet a mode of the same rank",
                left: c.rank() as i64,
                right: l.rank() as i64,
            },
        ));
    }
    for k in 0..c.rank() {
        walk(&l.mode(k)?, &c.get(k)?, op, free, fixed, offset)?;
    }
    Ok(())
}

/// The parts of `L` that `c` leaves free and fixes, and `L(c')`.
fn split(
    l: &Layout,
    c: &PartialCoord,
    op: Op,
    with_offset: bool,
) -> Result<(Layout, Layout, Value), Error> {
    let (mut keep, mut drop) = (Vec::new(), Vec::new());
    let mut off = with_offset.then_some(Value::Int(0));
    let r = walk(
        l,
        c,
        op,
        &mut |x| keep.push(x),
        &mut |x| drop.push(x),
        &mut off,
    );
    let with = |e: Error| e.or_with(Operand::Layout(*l), Operand::Coord(*c));
    r.map_err(with)?;
    // a top-level `_` or integer keeps or fixes the whole layout, not a 1-tuple of it
    let top = c.is_leaf();
    let join = |v: &[Layout]| match v {
        [] => Layout::leaf(1, 0),
        [x] if top => Ok(*x),
        _ => Layout::concat(v),
    };
    Ok((
        join(&keep).map_err(with)?,
        join(&drop).map_err(with)?,
        off.unwrap_or(Value::Int(0)),
    ))
}

/// `slice(c, L)`: the sub-layout of the modes where `c` is `_`, concatenated in order (`L(c*)`
/// as a function of the free entries). `1:0` when nothing is free. Strides of every semimodule
/// (integer, coordinate `e_i`, binary F2): the sub-layout keeps them; the offset of the fixed part
/// is [`slice_and_offset`] (integers) or [`slice_and_value`] (any semimodule).
///
/// ```
/// use cute::{slice, Layout, PartialCoord};
/// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
/// let c: PartialCoord = "(1,_)".parse().unwrap();
/// assert_eq!(slice(&l, &c).unwrap().to_string(), "((4,2)):((2,16))"); // CuTe keeps the 1-tuple
/// let c: PartialCoord = "((_,1),(_,0))".parse().unwrap();
/// assert_eq!(slice(&l, &c).unwrap().to_string(), "(2,4):(1,2)");
/// let id: Layout = "(4,8):(1@0,1@1)".parse().unwrap();
/// assert_eq!(slice(&id, &"(_,3)".parse().unwrap()).unwrap().to_string(), "(4):(1@0)");
/// ```
///
/// # Errors
///
/// As [`slice_and_value`].
pub fn slice(l: &Layout, c: &PartialCoord) -> Result<Layout, Error> {
    Ok(split(l, c, Op::Slice, true)?.0)
}

/// `L(c')`: the offset of the fixed entries of `c` (the `_` entries count as 0).
///
/// ```
/// use cute::{slice_offset, Layout, PartialCoord};
/// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
/// let c: PartialCoord = "((_,1),(_,1))".parse().unwrap();
/// assert_eq!(slice_offset(&l, &c).unwrap(), 24); // 8 + 16
/// ```
///
/// # Errors
///
/// As [`slice_and_offset`].
pub fn slice_offset(l: &Layout, c: &PartialCoord) -> Result<i64, Error> {
    Ok(slice_and_offset(l, c)?.1)
}

/// `(slice(c, L), L(c'))` in one walk: the free sub-layout and the offset of the fixed entries.
///
/// ```
/// use cute::{slice_and_offset, Layout, PartialCoord};
/// let l: Layout = "(4,8):(8,1)".parse().unwrap();
/// let (row, off) = slice_and_offset(&l, &"(2,_)".parse::<PartialCoord>().unwrap()).unwrap();
/// assert_eq!((row.to_string(), off), ("(8):(1)".to_string(), 16));
/// let e = slice_and_offset(&l, &"(4,_)".parse::<PartialCoord>().unwrap()).unwrap_err();
/// assert_eq!(e.to_string(), "slice (4,8):(8,1), (4,_): coordinate 4 is outside the domain Z_4");
/// ```
///
/// # Errors
///
/// An integer entry outside its sub-layout's domain (`OutOfRange`), a tuple entry that meets a mode
/// of another rank (`ProfileMismatch`), non-integer strides (`Unsupported`).
pub fn slice_and_offset(l: &Layout, c: &PartialCoord) -> Result<(Layout, i64), Error> {
    l.require_integral(Op::Slice)?;
    let (keep, _, off) = split(l, c, Op::Slice, true)?;
    match off {
        Value::Int(v) => Ok((keep, v)),
        // integer strides give integer offsets
        _ => Ok((keep, 0)),
    }
}

/// `(slice(c, L), L(c'))` for a layout with strides in any semimodule: the offset of the fixed
/// entries is a [`Value`] (an arithmetic tuple for coordinate strides, as in a slice of an identity
/// tensor).
///
/// ```
/// use cute::{make_identity_layout, slice_and_value, PartialCoord};
/// let id = make_identity_layout(&"(4,6)".parse().unwrap()).unwrap();
/// let (col, at) = slice_and_value(&id, &"(_,3)".parse::<PartialCoord>().unwrap()).unwrap();
/// assert_eq!((col.to_string(), at.to_string()), ("(4):(1@0)".to_string(), "3@1".to_string()));
/// ```
///
/// # Errors
///
/// As [`slice_and_offset`], but strides of every semimodule are accepted.
pub fn slice_and_value(l: &Layout, c: &PartialCoord) -> Result<(Layout, Value), Error> {
    let (keep, _, off) = split(l, c, Op::Slice, true)?;
    Ok((keep, off))
}

/// `dice(c, L)`: the complement of [`slice()`]: the sub-layouts of the modes where `c` is an integer
/// (whole sub-layouts, in order), `1:0` when every entry is free. CuTe uses it to project a tiler
/// or a coordinate onto chosen modes (`local_tile` with a projection).
///
/// ```
/// use cute::{dice, Layout, PartialCoord};
/// let l: Layout = "(4,8,2):(1,4,32)".parse().unwrap();
/// let c: PartialCoord = "(1,_,0)".parse().unwrap();
/// assert_eq!(dice(&l, &c).unwrap().to_string(), "(4,2):(1,32)");
/// ```
///
/// # Errors
///
/// As [`slice_and_value`].
pub fn dice(l: &Layout, c: &PartialCoord) -> Result<Layout, Error> {
    // the fixed entries' values only matter for the offset, which dice does not compute
    Ok(split(l, c, Op::Slice, false)?.1)
}
