//! The links between an operation's operands and its result ([`crate::figure`]): which cell of
//! `A` (and of `B`) each result cell comes from, computed with the algebra on stand-ins of the
//! operands, and the colours and legend that show it.

use crate::cells::INLINE_SVG_CELLS;
use crate::panel::{link_colour, FigPanel, Legend, MARK_OUTSIDE};
use cute::registry::{self, Outcome};
use cute::{IntTuple, Layout};
use std::collections::HashMap;

/// The value at each index of the layout that `op` gives on `args` (`None` when the operation
/// refuses or its value is not an integer layout).
fn values_of(op: &str, args: &[&str]) -> Option<Vec<i64>> {
    let Outcome::Value(v) = registry::run(op, args) else {
        return None;
    };
    let l: Layout = v.parse().ok()?;
    if !l.is_integral() || l.size() > INLINE_SVG_CELLS {
        return None;
    }
    (0..l.size()).map(|i| l.eval(i).ok()).collect()
}

fn compact(l: &Layout) -> Option<String> {
    Some(cute::compact_col_major(&l.shape()).ok()?.to_string())
}

/// A stand-in for `A` that tells which coordinate of `A` an operation's result reads, even past
/// the end of a mode: `A`'s shape with the strides `d_l = Π_{k<l} (s_k + room)` of its leaves
/// `s_l`, so that a coordinate up to `s_l + room − 1` (a partial tile's padding, which lands in
/// the last leaf of a mode) still decodes. `room` is at least the result's size.
struct Padded {
    sizes: Vec<i64>,
    strides: Vec<i64>,
    text: String,
}

impl Padded {
    fn new(a: &Layout, room: i64) -> Option<Padded> {
        let shape = a.shape();
        let sizes: Vec<i64> = shape.leaves().to_vec();
        let mut strides = Vec::with_capacity(sizes.len());
        let mut d: i64 = 1;
        for &s in &sizes {
            strides.push(d);
            d = d.checked_mul(s.checked_add(room)?)?;
        }
        let stride = IntTuple::flat(&strides).ok()?.unflatten(&shape).ok()?;
        let text = Layout::new(&shape, &stride).ok()?.to_string();
        Some(Padded {
            sizes,
            strides,
            text,
        })
    }

    /// The index of `A` that value `v` of the stand-in stands for; `None` past `A`'s end.
    fn decode(&self, v: i64) -> Option<i64> {
        let (mut index, mut scale) = (0, 1);
        let last = self.sizes.len().checked_sub(1)?;
        for (l, (&s, &d)) in self.sizes.iter().zip(&self.strides).enumerate() {
            let c = if l == last {
                v / d
            } else {
                (v / d) % self.strides[l + 1].checked_div(d)?
            };
            if c >= s || c < 0 {
                return None;
            }
            index += c * scale;
            scale *= s;
        }
        Some(index)
    }

    /// For each index of `op(stand-in, b)`, the index of `A` it reads (`None`: past `A`'s end).
    fn sources(&self, op: &str, b: &str) -> Option<Vec<Option<i64>>> {
        let v = values_of(op, &[&self.text, b])?;
        Some(v.into_iter().map(|x| self.decode(x)).collect())
    }
}

pub(crate) const DIVIDES: [&str; 4] = [
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
];
pub(crate) const PRODUCTS: [&str; 6] = [
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
];

/// Colours `a`, `b` and `res` by the operation's link; `None` when there is none to draw (the
/// greys stay). Returns the `B` panel to show and the legend.
pub(crate) fn link(
    op: &str,
    args: &[&str],
    a: &Layout,
    pa: &mut FigPanel,
    pb: Option<FigPanel>,
    res: &mut FigPanel,
) -> Option<(Option<FigPanel>, Legend)> {
    let ca = compact(a)?;
    let n = res.index.len();
    let white = (255, 255, 255);
    if op == "composition" && args.len() == 2 {
        // result cell i reads A at index src[i]
        let src = Padded::new(a, n as i64)?.sources(op, args[1])?;
        if src.len() != n {
            return None;
        }
        pa.fill.iter_mut().for_each(|f| *f = white);
        let mut pb = pb;
        // B's cells are linked by index only when B is one layout (a tuple of tilers composes
        // mode by mode)
        if args[1]
            .parse::<cute::Tiler>()
            .ok()
            .is_some_and(|t| !t.is_single())
        {
            pb = None;
        }
        let mut outside = false;
        for (i, &s) in src.iter().enumerate() {
            let colour = link_colour(i as i64);
            let k = res.cell_of(i as i64)?;
            res.fill[k] = colour;
            if s.is_none() {
                res.mark[k] = MARK_OUTSIDE;
                outside = true;
            }
            if let Some(k) = s.and_then(|s| pa.cell_of(s)) {
                if pa.fill[k] == white {
                    pa.fill[k] = colour;
                }
            }
            if let Some(b) = pb.as_mut() {
                if b.index.len() == n {
                    let k = b.cell_of(i as i64)?;
                    b.fill[k] = colour;
                }
            }
        }
        let b_line = if pb.as_ref().is_some_and(|b| b.index.len() == n) {
            "colour i: the result's cell of index i, B's cell of index i and A's cell of index B(i): R(i) = A(B(i))"
        } else {
            "colour i: the result's cell of index i and the cell of A that it reads"
        };
        let mut legend = vec![
            (Some(link_colour(0)), b_line.to_string()),
            (
                Some(white),
                "white: a cell of A that the result does not read".to_string(),
            ),
        ];
        if outside {
            legend.push((
                None,
                "dashed: a result cell that reads past the end of A".to_string(),
            ));
        }
        return Some((pb, legend));
    }
    if DIVIDES.contains(&op) && args.len() == 2 {
        let pad = Padded::new(a, n as i64)?;
        let src = pad.sources(op, args[1])?;
        let Outcome::Value(z) = registry::run("zipped_divide", &[&pad.text, args[1]]) else {
            return None;
        };
        let z: Layout = z.parse().ok()?;
        let tile = z.mode(0).ok()?.size().max(1);
        let mut tile_of: HashMap<i64, i64> = HashMap::new();
        for j in 0..z.size() {
            if let Some(s) = pad.decode(z.eval(j).ok()?) {
                tile_of.entry(s).or_insert(j / tile);
            }
        }
        if src.len() != n {
            return None;
        }
        let mut partial = false;
        for k in 0..pa.index.len() {
            pa.fill[k] = link_colour(*tile_of.get(&pa.index[k])?);
        }
        for (i, &s) in src.iter().enumerate() {
            let k = res.cell_of(i as i64)?;
            match s {
                None => {
                    res.fill[k] = white;
                    res.mark[k] = MARK_OUTSIDE;
                    partial = true;
                }
                Some(s) => res.fill[k] = link_colour(*tile_of.get(&s)?),
            }
        }
        let mut legend = vec![(
            Some(link_colour(0)),
            format!(
                "colour k: tile k of the divide (tiles of {tile} cells, {} of them), in A and in the result",
                (z.size() / tile)
            ),
        )];
        if partial {
            legend.push((
                Some(white),
                "white, dashed: a cell of a partial tile past the end of A (the tiler does not divide A's shape)".to_string(),
            ));
        }
        if pb.is_some() {
            legend.push((
                None,
                "B: the tiler, one tile's shape, in CuTe's greys".to_string(),
            ));
        }
        return Some((pb, legend));
    }
    if PRODUCTS.contains(&op) && args.len() == 2 {
        let b: Layout = args[1].parse().ok()?;
        let cb = compact(&b)?;
        let v = values_of(op, &[&ca, &cb])?;
        let (sa, sb) = (a.size(), b.size());
        if v.len() != n || (n as i64) != sa.checked_mul(sb)? {
            return None;
        }
        // every (a, k) once: a bijection onto A × B
        let mut seen = vec![false; n];
        for &x in &v {
            if !(0..n as i64).contains(&x) || std::mem::replace(&mut seen[x as usize], true) {
                return None;
            }
        }
        for (i, &x) in v.iter().enumerate() {
            let k = res.cell_of(i as i64)?;
            res.fill[k] = link_colour(x / sa);
        }
        let mut pb = pb?;
        for k in 0..pb.index.len() {
            pb.fill[k] = link_colour(pb.index[k]);
        }
        let legend = vec![
            (
                Some(link_colour(0)),
                "colour k: tile k of the result, a copy of A placed by B's cell of index k"
                    .to_string(),
            ),
            (None, "A: the tile, in CuTe's greys".to_string()),
        ];
        return Some((Some(pb), legend));
    }
    if op == "slice" && args.len() == 2 {
        // result cell j is A's cell of index slice_offset(C_A, c) + slice(C_A, c)(j)
        let offset = |l: &str| match registry::run("slice_offset", &[l, args[1]]) {
            Outcome::Value(v) => v.parse::<i64>().ok(),
            _ => None,
        };
        let base = offset(&ca)?;
        let src = values_of(op, &[&ca, args[1]])?;
        if src.len() != n {
            return None;
        }
        pa.fill.iter_mut().for_each(|f| *f = white);
        for (j, &s) in src.iter().enumerate() {
            let colour = link_colour(j as i64);
            let k = res.cell_of(j as i64)?;
            res.fill[k] = colour;
            let c = pa.cell_of(base.checked_add(s)?)?;
            pa.fill[c] = colour;
        }
        let off = offset(args[0]).map_or(String::new(), |o| {
            format!(" (the result's offsets are relative to slice_offset = {o}, as CuTe's slice leaves it out)")
        });
        let legend = vec![
            (
                Some(link_colour(0)),
                format!("colour j: the result's cell of index j and the cell of A it comes from: the slice keeps A's modes marked _ at the given coordinate{off}"),
            ),
            (Some(white), "white: a cell of A outside the slice".to_string()),
        ];
        return Some((pb, legend));
    }
    if op == "right_inverse" && args.len() == 1 {
        // A(R(i)) = i: result cell i and A's cell of index R(i)
        pa.fill.iter_mut().for_each(|f| *f = white);
        for i in 0..n as i64 {
            let colour = link_colour(i);
            let k = res.cell_of(i)?;
            res.fill[k] = colour;
            let s = res.value[k].parse::<i64>().ok()?;
            let c = pa.cell_of(s)?;
            pa.fill[c] = colour;
        }
        let legend = vec![(
            Some(link_colour(0)),
            "colour i: the result's cell of index i and A's cell of index R(i), where A(R(i)) = i"
                .to_string(),
        )];
        return Some((pb, legend));
    }
    if op == "left_inverse" && args.len() == 1 {
        // L(A(i)) = i: A's cell i and the result's cell of index A(i)
        res.fill.iter_mut().for_each(|f| *f = white);
        for k in 0..pa.index.len() {
            let i = pa.index[k];
            let colour = link_colour(i);
            pa.fill[k] = colour;
            let o = pa.value[k].parse::<i64>().ok()?;
            if let Some(c) = res.cell_of(o) {
                res.fill[c] = colour;
            }
        }
        let legend = vec![
            (
                Some(link_colour(0)),
                "colour i: A's cell of index i and the result's cell of index A(i), where L(A(i)) = i".to_string(),
            ),
            (Some(white), "white: an index of the result that A does not reach".to_string()),
        ];
        return Some((pb, legend));
    }
    if op == "complement" {
        pa.fill.iter_mut().for_each(|f| *f = link_colour(0));
        for i in 0..n as i64 {
            let k = res.cell_of(i)?;
            res.fill[k] = link_colour(i);
        }
        let legend = vec![
            (
                Some(link_colour(0)),
                "colour j: the complement's cell of index j, the offset where copy j of A's pattern starts; A itself is copy 0".to_string(),
            ),
            (
                None,
                "(A, complement) is injective: the copies of A's offsets placed at the complement's offsets do not overlap".to_string(),
            ),
        ];
        return Some((pb, legend));
    }
    None
}
