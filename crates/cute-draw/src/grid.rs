//! A layout seen as a grid of cells: the rows are mode 0, the columns the other modes (folded,
//! colexicographically), each cell holding the layout's value there. Every picture is drawn from
//! a [`Grid`].

use cute::Layout;

/// The longest side, in pixels, of a PNG the crate draws (`png::MAX_SIDE`).
pub const MAX_PNG_SIDE: u64 = 16_384;

/// Why a picture cannot be drawn.
///
/// The messages name the operands and the violated condition, never the operation: the caller
/// names that (`cute draw`, `cute show`, a Python function), so that it is not said twice.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DrawError {
    /// The layout algebra refused an evaluation (the error names the operation and operands).
    Layout(Box<cute::Error>),
    /// The picture would have more cells than [`MAX_CELLS`].
    TooLarge {
        /// The layout.
        layout: String,
        /// Its number of cells.
        cells: i64,
    },
    /// The panels of a picture would have more cells in all than [`MAX_CELLS`] (a picture of
    /// several panels: an MMA, a copy, the instructions of an access pattern).
    TooManyCells {
        /// What the picture is of.
        picture: String,
        /// The rows and columns of each panel.
        panels: Vec<(i64, i64)>,
    },
    /// The thread-value layouts of a picture map more `(thread, value)` pairs than
    /// [`MAX_OWNERS`] (each pair is visited, and listed in its cell's `data-owners`).
    TooManyOwners {
        /// The thread-value layout whose pairs passed the limit.
        layout: String,
        /// Its pairs.
        pairs: i64,
        /// The pairs of the picture's other layouts, visited before it.
        before: i64,
    },
    /// A thread-value layout maps `(thread, value)` index `index` to a coordinate outside the tile.
    OutsideTile {
        /// The thread-value layout.
        layout: String,
        /// The `(thread, value)` index.
        index: i64,
        /// The coordinate index it reaches.
        coordinate: i64,
        /// The cells of the tile.
        cells: i64,
    },
    /// The layout's strides are not integers (coordinate or F2 strides have no offsets to draw).
    NotIntegral(String),
    /// A PNG of the picture would have a side longer than [`MAX_PNG_SIDE`] pixels (a
    /// long, thin layout: the cell limit does not bound a side).
    ImageTooLarge {
        /// The picture's width in SVG units.
        width: i64,
        /// The picture's height in SVG units.
        height: i64,
        /// The PNG's width in pixels at [`crate::png::scale`].
        px_width: u64,
        /// The PNG's height in pixels.
        px_height: u64,
    },
    /// An argument of a picture is out of its range (the message names it and the condition).
    Argument(String),
    /// The image could not be rendered (the message says why).
    Render(String),
}

impl core::fmt::Display for DrawError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DrawError::Layout(e) => write!(f, "{e}"),
            DrawError::TooLarge { layout, cells } => write!(
                f,
                "{layout}: {cells} cells exceed the limit of {MAX_CELLS}"
            ),
            DrawError::TooManyCells { picture, panels } => {
                let total = panels
                    .iter()
                    .fold(0i64, |t, &(r, c)| t.saturating_add(r.saturating_mul(c)));
                let same = panels.windows(2).all(|w| w[0] == w[1]);
                match (panels.as_slice(), same) {
                    ([(r, c)], _) => write!(f, "{picture} of {r} x {c}")?,
                    ([(r, c), ..], true) => write!(
                        f,
                        "{picture}: {} panels of {r} x {c} cells",
                        panels.len()
                    )?,
                    _ => {
                        let each: Vec<String> =
                            panels.iter().map(|(r, c)| format!("{r} x {c}")).collect();
                        write!(f, "{picture}: panels of {} cells", each.join(" + "))?
                    }
                }
                write!(
                    f,
                    " = {total} cells, more than the limit of {MAX_CELLS} cells a picture draws"
                )
            }
            DrawError::TooManyOwners {
                layout,
                pairs,
                before,
            } => {
                write!(f, "{layout}: {pairs} (thread, value) pairs")?;
                if *before > 0 {
                    write!(f, " after {before} of the picture's other layouts")?;
                }
                write!(
                    f,
                    ", more than the limit of {MAX_OWNERS} pairs a picture visits"
                )
            }
            DrawError::OutsideTile {
                layout,
                index,
                coordinate,
                cells,
            } => write!(
                f,
                "{layout}: (thread, value) index {index} maps to coordinate {coordinate}, outside the tile of {cells} cells"
            ),
            DrawError::NotIntegral(l) => {
                write!(
                    f,
                    "{l}: this picture needs offsets, and only layouts with integer strides have them"
                )
            }
            DrawError::ImageTooLarge {
                width,
                height,
                px_width,
                px_height,
            } => write!(
                f,
                "a PNG of this picture ({width} x {height} units) would be {px_width} x {px_height} pixels, more than the limit of {} pixels a side: draw it as SVG, or draw a smaller layout",
                MAX_PNG_SIDE
            ),
            DrawError::Argument(m) => write!(f, "{m}"),
            DrawError::Render(m) => write!(f, "render: {m}"),
        }
    }
}

impl std::error::Error for DrawError {}

impl From<cute::Error> for DrawError {
    fn from(e: cute::Error) -> DrawError {
        DrawError::Layout(Box::new(e))
    }
}

/// The most cells a picture may have (a 512 × 512 tile; an SVG of that many cells is about 60 MB).
pub const MAX_CELLS: i64 = 1 << 18;

/// The most `(thread, value)` pairs the thread-value layouts of one picture may map, all its
/// panels together (32 per cell of a picture at [`MAX_CELLS`]): a TV layout in which many threads
/// hold each cell (a wgmma operand read from shared memory is held by every thread of the atom)
/// lists them all in its cells' `data-owners`.
pub const MAX_OWNERS: i64 = 32 * MAX_CELLS;

/// A layout's values on its (rows × columns) grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// The layout drawn.
    pub layout: Layout,
    /// Rows: the size of mode 0 (1 for a rank-1 layout, drawn as one row).
    pub rows: i64,
    /// Columns: the product of the sizes of the other modes.
    pub cols: i64,
    /// `values[r * cols + c]`: the layout at row `r`, column `c`.
    pub values: Vec<i64>,
}

impl Grid {
    /// The grid of `l` (integer strides) as `print_layout` tables show it: rank 1 as one row,
    /// rank 2 as rows × columns, higher ranks with modes 1.. folded into the columns (column `c`
    /// is the colexicographic index of modes 1..).
    ///
    /// ```
    /// let g = cute_draw::Grid::new(&"(2,(2,2)):(1,(4,2))".parse().unwrap()).unwrap();
    /// assert_eq!((g.rows, g.cols), (2, 4));
    /// assert_eq!(g.values, vec![0, 4, 2, 6, 1, 5, 3, 7]);
    /// let g = cute_draw::Grid::new(&"8:1".parse().unwrap()).unwrap();
    /// assert_eq!((g.rows, g.cols), (1, 8));
    /// ```
    pub fn new(l: &Layout) -> Result<Grid, DrawError> {
        Grid::build(l, false)
    }

    /// The grid of `l` as the pictures draw it, like CuTe's `print_latex` (which appends a mode
    /// `1:0` to a rank-1 layout): rank 1 as one column, otherwise as [`Grid::new`].
    ///
    /// ```
    /// let g = cute_draw::Grid::latex(&"8:1".parse().unwrap()).unwrap();
    /// assert_eq!((g.rows, g.cols), (8, 1));
    /// assert_eq!(g.at(3, 0), 3);
    /// ```
    pub fn latex(l: &Layout) -> Result<Grid, DrawError> {
        Grid::build(l, true)
    }

    fn build(l: &Layout, column: bool) -> Result<Grid, DrawError> {
        if !l.is_integral() {
            return Err(DrawError::NotIntegral(l.to_string()));
        }
        let n = l.size();
        if n > MAX_CELLS {
            return Err(DrawError::TooLarge {
                layout: l.to_string(),
                cells: n,
            });
        }
        let rows = match (l.rank(), column) {
            (1, true) => n,
            (1, false) => 1,
            _ => l.mode(0)?.size(),
        };
        let cols = n / rows.max(1);
        let mut values = vec![0; n as usize];
        for r in 0..rows {
            for c in 0..cols {
                // the colexicographic index of (r, c): r + rows·c
                values[(r * cols + c) as usize] = l.eval(r + rows * c)?;
            }
        }
        Ok(Grid {
            layout: *l,
            rows,
            cols,
            values,
        })
    }

    /// The grid of a swizzled layout `Sw ∘ offset ∘ L`: the rows and columns of `L` (as
    /// [`Grid::new`]), each cell the composed layout's value there; [`Grid::layout`] is `L`.
    ///
    /// ```
    /// let c: cute::ComposedLayout = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse().unwrap();
    /// let g = cute_draw::Grid::composed(&c).unwrap();
    /// assert_eq!(g.values, vec![0, 1, 3, 2]);
    /// ```
    pub fn composed(c: &cute::ComposedLayout) -> Result<Grid, DrawError> {
        Grid::swizzled(c, Grid::new(&c.layout)?)
    }

    /// [`Grid::composed`] as the pictures draw it (rank 1 as a column, [`Grid::latex`]).
    pub fn composed_latex(c: &cute::ComposedLayout) -> Result<Grid, DrawError> {
        Grid::swizzled(c, Grid::latex(&c.layout)?)
    }

    fn swizzled(c: &cute::ComposedLayout, mut g: Grid) -> Result<Grid, DrawError> {
        for r in 0..g.rows {
            for k in 0..g.cols {
                g.values[(r * g.cols + k) as usize] = c.eval(r + g.rows * k)?;
            }
        }
        Ok(g)
    }

    /// The note a picture or table of `l` carries when its modes 1.. are folded into the columns
    /// (rank 3 and more), as `cute show` prints it; `None` for ranks 1 and 2.
    ///
    /// ```
    /// let l: cute::Layout = "(2,2,2):(1,2,4)".parse().unwrap();
    /// assert_eq!(cute_draw::Grid::fold_note(&l).unwrap(), "modes 1..2 folded into the columns, colexicographically");
    /// ```
    pub fn fold_note(l: &Layout) -> Option<String> {
        (l.rank() > 2).then(|| {
            format!(
                "modes 1..{} folded into the columns, colexicographically",
                l.rank() - 1
            )
        })
    }

    /// The value at row `r`, column `c`.
    pub fn at(&self, r: i64, c: i64) -> i64 {
        self.values[(r * self.cols + c) as usize]
    }

    /// `cosize`: one past the largest value (what CuTe's `print_layout` sizes its cells by),
    /// saturating at `i64::MAX` when the largest value is `i64::MAX` (which has as many digits as
    /// 2^63, so a cell sized by it is as wide).
    ///
    /// ```
    /// let g = cute_draw::Grid::new(&"(2,2):(1,2)".parse().unwrap()).unwrap();
    /// assert_eq!(g.cosize(), 4);
    /// let g = cute_draw::Grid::new(&"(2,2):(9223372036854775807,0)".parse().unwrap()).unwrap();
    /// assert_eq!(g.cosize(), i64::MAX);
    /// ```
    pub fn cosize(&self) -> i64 {
        self.values
            .iter()
            .copied()
            .max()
            .map_or(0, |m| m.saturating_add(1))
    }
}
