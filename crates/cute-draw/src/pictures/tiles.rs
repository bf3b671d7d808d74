//! A layout coloured tile by tile: the pictures of the products and divides (which copy of the tile,
//! or which tile of the tiler, each cell belongs to).

use super::{noted, tile_colour};
use crate::grid::{DrawError, Grid, MAX_CELLS};
use crate::scene::{Cell, Panel, Scene};
use cute::{Layout, Tiler};

/// A layout coloured tile by tile: cell `(r, c)` of `l`'s grid labelled with its offset and filled
/// with [`tile_colour`] of `tile(r, c)` (the products' and divides' pictures: which copy of the
/// tile, or which tile of the tiler, a cell belongs to).
///
/// ```
/// // blocked_product((2,2):(1,2), (1,2):(0,1)) = ((2,1),(2,2)):((1,0),(2,4)): two tiles side by side
/// let l: cute::Layout = "((2,1),(2,2)):((1,0),(2,4))".parse().unwrap();
/// let s = cute_draw::pictures::tiles(&l.to_string(), &l, |_, c| c / 2).unwrap();
/// assert_eq!(s.panels[0].cell(0, 2).fill, cute_draw::pictures::tile_colour(1));
/// ```
pub fn tiles(title: &str, l: &Layout, tile: impl Fn(i64, i64) -> i64) -> Result<Scene, DrawError> {
    let g = Grid::latex(l)?;
    let title = noted(title.to_string(), l);
    Ok(Scene::single(Panel::new(title, g.rows, g.cols, |r, c| {
        Cell::text(tile_colour(tile(r, c)), g.at(r, c).to_string())
    })))
}

/// Which tile of a divide each cell of a layout falls in, as `zipped_divide` says: the tile of a
/// cell is the rest coordinate (mode 1, as an index) at which the divide reaches it.
///
/// A tiler that does not divide the shape gives partial tiles: the algebra pads each mode to a
/// multiple of its tile (`logical_divide(12:1, 5:1) = (5,3):(1,5)` reaches 15 indices of a mode
/// of 12), and the cells the padding would reach do not exist. They are left out here, so the
/// last tiles of such a mode hold fewer cells than [`DivideTiles::tile_size`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivideTiles {
    /// `tile[i]`: the tile of the cell of colexicographic index `i` (`m + rows·n` for rank 2).
    pub tile: Vec<i64>,
    /// The cells of a whole tile: the size of mode 0 of `zipped_divide`.
    pub tile_size: i64,
    /// `counts[k]`: the cells of tile `k` inside the layout (a whole tile has `tile_size`).
    pub counts: Vec<i64>,
}

impl DivideTiles {
    /// True when some tile is partial (the tiler does not divide the shape).
    pub fn partial(&self) -> bool {
        self.counts.iter().any(|&c| c < self.tile_size)
    }
}

/// The compact column-major strides of `l`'s shape (with `k`, every stride `s` written `s@k`), a
/// leaf of size 1 included (`compact_col_major` gives it stride 0, which would hide the padding a tile
/// adds to it).
fn basis_strides(l: &Layout, k: Option<usize>) -> String {
    let shape = l.shape().to_string();
    let mut out = String::with_capacity(2 * shape.len());
    let mut product = 1i64;
    let mut number = String::new();
    for ch in shape.chars().chain(std::iter::once(')')) {
        if ch.is_ascii_digit() {
            number.push(ch);
            continue;
        }
        if !number.is_empty() {
            match k {
                Some(k) => out.push_str(&format!("{product}@{k}")),
                None => out.push_str(&product.to_string()),
            }
            product = product.saturating_mul(number.parse::<i64>().unwrap_or(1));
            number.clear();
        }
        out.push(ch);
    }
    out.pop();
    out
}

/// The identity of `l`'s shape for the by-mode tiler `t`: every part of the shape that one tile
/// of `t` divides (and every mode `t` leaves whole) gets its own coordinate basis `e_k`, counted
/// in the shape's order, with compact column-major strides inside it; `sizes[k]` is that part's
/// size. Its value at a coordinate names the cell, and a value past `sizes[k]` is padding.
fn tiler_identity(
    l: &Layout,
    t: Option<&Tiler>,
    sizes: &mut Vec<i64>,
) -> Result<(String, String), DrawError> {
    let single = match t {
        None => true,
        Some(t) => t.is_single() || (l.rank() == 1 && l.shape().is_int() && t.rank() != 1),
    };
    if single {
        let strides = basis_strides(l, Some(sizes.len()));
        sizes.push(l.size());
        return Ok((l.shape().to_string(), strides));
    }
    let t = t.copied().unwrap_or(Tiler::layout(*l));
    if l.rank() == 1 && l.shape().is_int() {
        // a rank-1 tiler on a leaf mode: its one tile divides the mode
        return tiler_identity(l, Some(&t.mode(0)?), sizes);
    }
    let (mut shapes, mut strides) = (Vec::new(), Vec::new());
    for i in 0..l.rank() {
        let sub = if i < t.rank() { Some(t.mode(i)?) } else { None };
        let (s, d) = tiler_identity(&l.mode(i)?, sub.as_ref(), sizes)?;
        shapes.push(s);
        strides.push(d);
    }
    Ok((
        format!("({})", shapes.join(",")),
        format!("({})", strides.join(",")),
    ))
}

/// The next index of a colexicographic walk over leaves of sizes `leaves` after the index `j`,
/// past every index whose coordinate is at least `j`'s in each leaf (all of them past the cells
/// when `j` is, in a walk whose values only grow with each coordinate): with `i` the first leaf
/// where `j`'s coordinate is not 0, the next index at which the leaf after `i` moves on; the end
/// (`i64::MAX`) when `j` is 0.
///
/// ```ignore
/// // leaves (4, 3): index 6 is (2, 1); (2..4, 1) and beyond in leaf 1 is the rest of the walk
/// assert_eq!(skip(&[4, 3], 6), 8);
/// // index 4 is (0, 1): every index from it on
/// assert_eq!(skip(&[4, 3], 4), 12);
/// ```
fn skip(leaves: &[i64], j: i64) -> i64 {
    let mut below = 1i64;
    for &s in leaves {
        let next = below.saturating_mul(s);
        if (j / below) % s.max(1) != 0 {
            return (j - j % next).saturating_add(next);
        }
        below = next;
    }
    i64::MAX
}

/// The tiles of `zipped_divide(a, t)` over `a`'s cells (see [`DivideTiles`]).
///
/// The divide is taken of an index layout of `a`'s shape, so the tiles come from the algebra:
/// for a tiler that is one layout, the compact column-major layout (a bijection onto the cell
/// indices, modes of size 1 given their stride too; an index past the last cell is padding); for a by-mode tiler, an identity layout with
/// one coordinate basis per tiled part of the shape (`tiler_identity`), whose values are the
/// coordinates within each part, so that padding of one mode (a coordinate past its size) is
/// never confused with a cell of the next.
///
/// ```
/// use cute_draw::pictures::divide_tiles;
/// // 12 rows in tiles of 5: rows 0-4, 5-9 and the partial tile of rows 10-11
/// let d = divide_tiles(&"(12,32):(32,1)".parse().unwrap(), &"(5,8)".parse().unwrap()).unwrap();
/// assert_eq!((d.tile_size, d.counts.len()), (40, 12));
/// assert_eq!(d.tile[10], 2); // row 10, column 0
/// assert_eq!(d.tile[12], 0); // row 0, column 1
/// assert_eq!((d.counts[0], d.counts[2]), (40, 16));
/// assert!(d.partial());
/// ```
pub fn divide_tiles(a: &Layout, t: &Tiler) -> Result<DivideTiles, DrawError> {
    let n = a.size();
    if n > MAX_CELLS {
        return Err(DrawError::TooLarge {
            layout: a.to_string(),
            cells: n,
        });
    }
    // the divide of `a` itself first, so that a refusal names `a` and the tiler
    cute::zipped_divide(a, t)?;
    let single = t.is_single();
    let (index, sizes) = if single {
        let text = format!("{}:{}", a.shape(), basis_strides(a, None));
        (text.parse::<Layout>()?, vec![n])
    } else {
        let mut sizes = Vec::new();
        let (s, d) = tiler_identity(a, Some(t), &mut sizes)?;
        let text = format!("{s}:{d}");
        (text.parse::<Layout>()?, sizes)
    };
    let z = cute::zipped_divide(&index, t)?;
    let tile_size = z.mode(0)?.size().max(1);
    let total = z.size();
    let tiles = total / tile_size;
    if tiles > MAX_CELLS {
        return Err(DrawError::Argument(format!(
            "divide {a} by {t}: {tiles} tiles, more than the limit of {MAX_CELLS} a picture colours"
        )));
    }
    let inside = |j: i64| -> Result<Option<i64>, DrawError> {
        if single {
            let v = z.eval(j)?;
            return Ok((0..n).contains(&v).then_some(v));
        }
        Ok(match z.eval_value(j)? {
            cute::Value::Coord(x) => {
                let mut cell = 0;
                let mut inside = true;
                for (k, &s) in sizes.iter().enumerate().rev() {
                    let c = x.get(&[k]);
                    inside &= (0..s).contains(&c);
                    cell = cell * s + c;
                }
                inside.then_some(cell)
            }
            cute::Value::Int(v) if sizes.len() <= 1 => (0..n).contains(&v).then_some(v),
            _ => None,
        })
    };
    // The divide visits every (tile, rest) coordinate, padding included, unless its strides are
    // all non-negative integers or coordinates (an index layout divided by a tiler of such
    // strides): then a value past the cells stays past them as any coordinate grows, and the
    // walk skips what lies beyond (`skip`). The cells, not the padding, bound the work.
    let monotone = (0..z.leaf_count()).all(|i| {
        let d = z.stride_at(i);
        d.value() >= 0 && d.semimodule() != Some(cute::Semimodule::Binary)
    });
    let leaves: Vec<i64> = (0..z.leaf_count()).map(|i| z.leaf_at(i).0).collect();
    let budget = 8 * MAX_CELLS;
    let mut tile = vec![-1; n as usize];
    let mut counts = vec![0; tiles as usize];
    let (mut j, mut visits) = (0i64, 0i64);
    while j < total {
        visits += 1;
        if visits > budget {
            return Err(DrawError::Argument(format!(
                "divide {a} by {t}: finding the tiles of its {n} cells visits more than {budget} coordinates of the divide {z}"
            )));
        }
        match inside(j)? {
            Some(c) => {
                let k = j / tile_size;
                tile[c as usize] = k;
                counts[k as usize] += 1;
                j += 1;
            }
            None if monotone => j = skip(&leaves, j).min(total),
            None => j += 1,
        }
    }
    if let Some(missing) = tile.iter().position(|&k| k < 0) {
        return Err(DrawError::Argument(format!(
            "divide {a} by {t}: cell {missing} is in no tile"
        )));
    }
    Ok(DivideTiles {
        tile,
        tile_size,
        counts,
    })
}

/// A layout divided by a tiler, each cell filled with [`tile_colour`] of its tile
/// ([`divide_tiles`]) and labelled with its offset; when the tiler does not divide the shape the
/// title says that the tiles are partial and how many cells they hold.
///
/// ```
/// let s = cute_draw::pictures::divide(&"(4,8):(1,4)".parse().unwrap(), &"(3,3)".parse().unwrap()).unwrap();
/// assert!(s.panels[0].title.contains("partial tiles"));
/// // row 3 is in the second row-tile, with row 4 and 5 of the padding
/// assert_eq!(s.panels[0].cell(3, 0).fill, cute_draw::pictures::tile_colour(1));
/// ```
pub fn divide(a: &Layout, t: &Tiler) -> Result<Scene, DrawError> {
    let d = divide_tiles(a, t)?;
    let g = Grid::latex(a)?;
    let mut title = noted(format!("{a} divided by {t}"), a);
    if d.partial() {
        let mut sizes: Vec<i64> = d.counts.iter().copied().filter(|&c| c > 0).collect();
        sizes.sort_unstable_by(|x, y| y.cmp(x));
        sizes.dedup();
        let sizes: Vec<String> = sizes.iter().map(i64::to_string).collect();
        title += &format!(
            ": partial tiles (the tiler does not divide the shape): tiles of {} cells, a whole tile {}",
            sizes.join(", "),
            d.tile_size
        );
    }
    Ok(Scene::single(Panel::new(title, g.rows, g.cols, |r, c| {
        let k = d.tile[(r + g.rows * c) as usize];
        let mut cell = Cell::text(tile_colour(k), g.at(r, c).to_string());
        cell.attrs.push(("tile", k.to_string()));
        cell
    })))
}

#[cfg(test)]
mod tests {
    use super::skip;

    #[test]
    fn skip_moves_past_the_coordinates_that_are_at_least_as_large() {
        // leaves (4, 3): index 6 is (2, 1): (2..4, 1) is passed, (0, 2) is next
        assert_eq!(skip(&[4, 3], 6), 8);
        // index 4 is (0, 1): every index from it on is at least as large
        assert_eq!(skip(&[4, 3], 4), 12);
        // a leaf of size 1 never holds the first nonzero coordinate
        assert_eq!(skip(&[1, 4, 3], 5), 8);
        assert_eq!(skip(&[4, 3], 0), i64::MAX);
    }
}
