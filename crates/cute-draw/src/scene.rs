//! What every picture is made of: a [`Scene`] of [`Panel`]s, each a grid of [`Cell`]s with row and
//! column headers and a title, placed at a pixel position. The scene renders to SVG
//! ([`Scene::svg`]), TikZ ([`Scene::tikz`]) and PNG ([`crate::png::render`]) from the same data, so
//! the three formats always show the same cells, labels and colours.
//!
//! Geometry (SVG units, 1 unit = 1 pixel at scale 1): a panel at `(x, y)` has a title band of
//! [`TITLE`] units for one line of title and [`TITLE_LINE`] more for each further line (a title
//! wider than its panel is wrapped, [`Panel::title_lines`]), then a header row of [`CELL`] units
//! and a header column of `cell_w` units; cell `(r, c)` has its top-left corner at
//! `(x + cell_w·(c+1), y + title_height + CELL·(r+1))` and is `cell_w × CELL`.

/// Cell height (and default width) in SVG units.
pub const CELL: i64 = 40;
/// Height of a panel's title band when the title is one line.
pub const TITLE: i64 = 20;
/// Height of each further line of a wrapped title.
pub const TITLE_LINE: i64 = 16;
/// The advance of a character of the font at size 12 (DejaVu Sans Mono: 0.602 em), rounded up.
pub const CHAR_W: f64 = 7.25;
/// Space between panels placed next to each other.
pub const GAP: i64 = 20;

/// Space right of and below the panels.
pub const MARGIN: i64 = 10;

/// An RGB colour.
pub type Rgb = (u8, u8, u8);

/// The colour of [`Mark::Outline`]: black, which stands out on every fill the pictures use
/// (the thread colours' pinks included, where a red outline all but disappears).
pub const OUTLINE: &str = "#000000";
/// The colour of [`Mark::Conflict`].
pub const CONFLICT: &str = "#d00000";

/// How a cell is marked beyond its fill (its SVG `rect` carries `data-mark`, and the mark is drawn
/// over the grid, inset in the cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// A thin black border.
    Plain,
    /// A thick ([`OUTLINE`], 4 units) border: the highlighted thread, slice or tile
    /// (`data-mark="outline"`, a `rect.outline`).
    Outline,
    /// A thick red border and a red diagonal: an access that waits for a later wavefront
    /// (`data-mark="conflict"`, a `rect.conflict-box` and a `path.conflict`).
    Conflict,
}

/// One cell: its fill, its label (one or two lines) and its mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The fill.
    pub fill: Rgb,
    /// The label, one entry per line (empty: no label).
    pub label: Vec<String>,
    /// The border.
    pub mark: Mark,
    /// What the cell shows, as data: each `(key, value)` is written as the attribute
    /// `data-key="value"` of the cell's SVG `rect` (the tile of a divide, the threads of a TV
    /// layout), so that a reader of the SVG (or a test) need not decode colours.
    pub attrs: Vec<(&'static str, String)>,
}

impl Cell {
    /// A plain cell with a one-line label.
    pub fn text(fill: Rgb, label: impl Into<String>) -> Cell {
        Cell {
            fill,
            label: vec![label.into()],
            mark: Mark::Plain,
            attrs: Vec::new(),
        }
    }

    /// An empty white cell.
    pub fn blank() -> Cell {
        Cell {
            fill: (255, 255, 255),
            label: Vec::new(),
            mark: Mark::Plain,
            attrs: Vec::new(),
        }
    }
}

/// A titled grid of cells at a position of its scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panel {
    /// The title, above the grid.
    pub title: String,
    /// Left edge (SVG units).
    pub x: i64,
    /// Top edge (SVG units).
    pub y: i64,
    /// Rows of cells.
    pub rows: i64,
    /// Columns of cells.
    pub cols: i64,
    /// Cell width (SVG units); the height is [`CELL`].
    pub cell_w: i64,
    /// The header of each row (the row index unless set otherwise).
    pub row_labels: Vec<String>,
    /// The header of each column (the column index unless set otherwise).
    pub col_labels: Vec<String>,
    /// `cells[r * cols + c]`.
    pub cells: Vec<Cell>,
    /// The fewest lines the title band holds (1 unless set; panels placed side by side set it
    /// to the same count so that their grids line up).
    pub title_lines_min: usize,
}

impl Panel {
    /// A panel of `rows × cols` cells made by `cell(r, c)`, at `(0, 0)`, headers the indices.
    pub fn new(
        title: impl Into<String>,
        rows: i64,
        cols: i64,
        mut cell: impl FnMut(i64, i64) -> Cell,
    ) -> Panel {
        let mut cells = Vec::with_capacity((rows * cols).max(0) as usize);
        for r in 0..rows {
            for c in 0..cols {
                cells.push(cell(r, c));
            }
        }
        Panel {
            title: title.into(),
            x: 0,
            y: 0,
            rows,
            cols,
            cell_w: CELL,
            row_labels: (0..rows).map(|r| r.to_string()).collect(),
            col_labels: (0..cols).map(|c| c.to_string()).collect(),
            cells,
            title_lines_min: 1,
        }
    }

    /// The same panel moved to `(x, y)`.
    pub fn at(mut self, x: i64, y: i64) -> Panel {
        self.x = x;
        self.y = y;
        self
    }

    /// The same panel with cells `w` units wide (for long labels).
    pub fn with_cell_width(mut self, w: i64) -> Panel {
        self.cell_w = w;
        self
    }

    /// Width in SVG units (header column included).
    pub fn width(&self) -> i64 {
        (self.cols + 1) * self.cell_w
    }

    /// Height in SVG units (title band and header row included).
    pub fn height(&self) -> i64 {
        (self.rows + 1) * CELL + self.title_height()
    }

    /// The title as the lines it is drawn in: wrapped to the panel's width (after a space or a
    /// comma where there is one, else anywhere), so that no title is clipped or runs over its
    /// neighbour.
    ///
    /// ```
    /// use cute_draw::scene::{Cell, Panel};
    /// let p = Panel::new("a title far longer than two cells", 1, 1, |_, _| Cell::blank());
    /// let lines = p.title_lines();
    /// assert!(lines.len() > 1);
    /// assert_eq!(lines.join(" "), "a title far longer than two cells");
    /// ```
    pub fn title_lines(&self) -> Vec<String> {
        wrap(
            &self.title,
            ((self.width() - 8) as f64 / CHAR_W).floor().max(4.0) as usize,
        )
    }

    /// Height of the title band: [`TITLE`] for one line, [`TITLE_LINE`] more per further line.
    pub fn title_height(&self) -> i64 {
        let n = self.title_lines().len().max(self.title_lines_min).max(1) as i64;
        TITLE + TITLE_LINE * (n - 1)
    }

    /// The cell at row `r`, column `c`.
    pub fn cell(&self, r: i64, c: i64) -> &Cell {
        &self.cells[(r * self.cols + c) as usize]
    }

    /// The top-left corner of cell `(r, c)` in SVG units.
    pub fn cell_origin(&self, r: i64, c: i64) -> (i64, i64) {
        (
            self.x + self.cell_w * (c + 1),
            self.y + self.title_height() + CELL * (r + 1),
        )
    }
}

/// Pictures of layouts: panels and a title.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    /// The title (the SVG `<title>`, the TikZ comment).
    pub title: String,
    /// The panels, each at its own position.
    pub panels: Vec<Panel>,
}

impl Scene {
    /// A scene of one panel, titled like it.
    pub fn single(p: Panel) -> Scene {
        Scene {
            title: p.title.clone(),
            panels: vec![p],
        }
    }

    /// Width in SVG units (the panels and a margin of [`MARGIN`] on the right).
    pub fn width(&self) -> i64 {
        self.panels
            .iter()
            .map(|p| p.x + p.width())
            .max()
            .unwrap_or(0)
            + MARGIN
    }

    /// Height in SVG units (the panels and a margin of [`MARGIN`] below).
    pub fn height(&self) -> i64 {
        self.panels
            .iter()
            .map(|p| p.y + p.height())
            .max()
            .unwrap_or(0)
            + MARGIN
    }

    /// The number of cells of all panels.
    pub fn cells(&self) -> i64 {
        self.panels.iter().map(|p| p.rows * p.cols).sum()
    }

    /// The centre of cell `(r, c)` of panel `panel` in SVG units (for checking rendered images).
    pub fn cell_centre(&self, panel: usize, r: i64, c: i64) -> (f64, f64) {
        let p = &self.panels[panel];
        let (x, y) = p.cell_origin(r, c);
        (
            x as f64 + p.cell_w as f64 / 2.0,
            y as f64 + CELL as f64 / 2.0,
        )
    }

    /// The scene as an SVG document. Cells are `<rect class="cell">` with `data-panel`,
    /// `data-row` and `data-col`; labels `<text class="label">`; a conflict mark is a
    /// `<path class="conflict">`.
    ///
    /// ```
    /// use cute_draw::scene::{Cell, Panel, Scene};
    /// let s = Scene::single(Panel::new("t", 1, 2, |_, c| Cell::text((255, 255, 255), c.to_string())));
    /// let svg = s.svg();
    /// assert_eq!(svg.matches("class=\"cell\"").count(), 2);
    /// assert!(svg.contains("<text class=\"label\" x=\"100\" y=\"80\">1</text>"));
    /// ```
    pub fn svg(&self) -> String {
        self.svg_with(true)
    }

    /// The SVG document, with or without the cells' labels (titles and headers are always drawn):
    /// [`crate::png::render`] leaves them out where they would be too small to read.
    pub fn svg_with(&self, labels: bool) -> String {
        self.svg_doc(labels, true)
    }

    /// The elements of [`Scene::svg_with`]`(labels)` (each `<text>` counted twice, for the text
    /// it holds): what a renderer parses, known before the document is written.
    ///
    /// ```
    /// use cute_draw::scene::{Cell, Panel, Scene};
    /// let s = Scene::single(Panel::new("t", 1, 2, |_, c| Cell::text((255, 255, 255), c.to_string())));
    /// // svg, title, background; the title line, 2 column and 1 row labels; 2 cells with a label
    /// assert_eq!(s.svg_nodes(true), 3 + 2 * 4 + 2 * (1 + 2));
    /// assert_eq!(s.svg_nodes(false), 3 + 2 * 4 + 2);
    /// ```
    pub fn svg_nodes(&self, labels: bool) -> i64 {
        let mut n = 3i64;
        for p in &self.panels {
            let texts = p.title_lines().len() + p.col_labels.len() + p.row_labels.len();
            n = n.saturating_add(2 * texts as i64);
            for cell in &p.cells {
                let marks = match cell.mark {
                    Mark::Plain => 0,
                    Mark::Outline => 1,
                    Mark::Conflict => 2,
                };
                let label = if labels {
                    2 * cell.label.len() as i64
                } else {
                    0
                };
                n = n.saturating_add(1 + marks + label);
            }
        }
        n
    }

    /// The SVG document; the cells' `data-*` attributes only when `data` (a PNG has no use for
    /// them, and they are most of the text of a picture of many owners).
    pub(crate) fn svg_doc(&self, labels: bool, data: bool) -> String {
        use std::fmt::Write as _;
        let (w, h) = (self.width(), self.height());
        let mut s = String::with_capacity(200 + 200 * self.cells() as usize);
        let _ = writeln!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"12\" text-anchor=\"middle\" dominant-baseline=\"central\">"
        );
        let _ = writeln!(s, "<title>{}</title>", escape(&self.title));
        let _ = writeln!(
            s,
            "<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>"
        );
        for (k, p) in self.panels.iter().enumerate() {
            let cw = p.cell_w;
            for (i, line) in p.title_lines().iter().enumerate() {
                let _ = writeln!(
                    s,
                    "<text class=\"title\" x=\"{}\" y=\"{}\">{}</text>",
                    p.x + p.width() / 2,
                    p.y + TITLE / 2 + TITLE_LINE * i as i64,
                    escape(line)
                );
            }
            let origin = p.cell_origin(0, 0);
            for (c, l) in p.col_labels.iter().enumerate() {
                let (x, y) = (origin.0 + cw * c as i64, origin.1);
                let _ = writeln!(
                    s,
                    "<text class=\"col\" x=\"{}\" y=\"{}\">{}</text>",
                    x + cw / 2,
                    y - CELL / 2,
                    escape(l)
                );
            }
            for r in 0..p.rows {
                if let Some(l) = p.row_labels.get(r as usize) {
                    let (x, y) = (origin.0, origin.1 + CELL * r);
                    let _ = writeln!(
                        s,
                        "<text class=\"row\" x=\"{}\" y=\"{}\">{}</text>",
                        x - cw / 2,
                        y + CELL / 2,
                        escape(l)
                    );
                }
                for c in 0..p.cols {
                    let cell = p.cell(r, c);
                    let (x, y) = (origin.0 + cw * c, origin.1 + CELL * r);
                    let mut attrs = match cell.mark {
                        Mark::Plain => String::new(),
                        Mark::Outline => " data-mark=\"outline\"".to_string(),
                        Mark::Conflict => " data-mark=\"conflict\"".to_string(),
                    };
                    for (key, v) in cell.attrs.iter().filter(|_| data) {
                        let _ = write!(attrs, " data-{key}=\"{}\"", escape(v));
                    }
                    let _ = writeln!(
                        s,
                        "<rect class=\"cell\" data-panel=\"{k}\" data-row=\"{r}\" data-col=\"{c}\"{attrs} x=\"{x}\" y=\"{y}\" width=\"{cw}\" height=\"{CELL}\" fill=\"{}\" stroke=\"#000000\" stroke-width=\"1\"/>",
                        hex(cell.fill)
                    );
                    if cell.mark == Mark::Conflict {
                        let _ = writeln!(
                            s,
                            "<path class=\"conflict\" d=\"M{} {} L{} {}\" stroke=\"#d00000\" stroke-width=\"2\"/>",
                            x + 3,
                            y + CELL - 3,
                            x + 12,
                            y + CELL - 12
                        );
                    }
                    let n = cell.label.len() as i64;
                    for (i, line) in cell.label.iter().enumerate().filter(|_| labels) {
                        let dy = (2 * i as i64 - (n - 1)) * 7;
                        // a line wider than the cell is drawn smaller, to fit
                        let chars = line.chars().count().max(1) as f64;
                        let fit = ((cw - 4) as f64 / (chars * CHAR_W / 12.0)).floor();
                        let size = if fit < 12.0 {
                            format!(" font-size=\"{}\"", fit.max(4.0))
                        } else {
                            String::new()
                        };
                        let _ = writeln!(
                            s,
                            "<text class=\"label\" x=\"{}\" y=\"{}\"{size}>{}</text>",
                            x + cw / 2,
                            y + CELL / 2 + dy,
                            escape(line)
                        );
                    }
                }
            }
            // the marks last, over every cell's border, inset so that no neighbour hides them
            for r in 0..p.rows {
                for c in 0..p.cols {
                    let (x, y) = (origin.0 + cw * c, origin.1 + CELL * r);
                    let (class, colour, width) = match p.cell(r, c).mark {
                        Mark::Plain => continue,
                        Mark::Outline => ("outline", OUTLINE, 4),
                        Mark::Conflict => ("conflict-box", CONFLICT, 3),
                    };
                    let _ = writeln!(
                        s,
                        "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{width}\"/>",
                        x + 2,
                        y + 2,
                        cw - 4,
                        CELL - 4
                    );
                }
            }
        }
        s.push_str("</svg>\n");
        s
    }

    /// The scene as a standalone TikZ document in the form of CuTe's `print_latex`
    /// (`x={(0cm,-1cm)}, y={(1cm,0cm)}`: a node at `(row, column)`, 1 cm per cell), each panel in
    /// a `scope` shifted to its place (one cell = 1 cm; a panel at the origin has no scope).
    ///
    /// ```
    /// use cute_draw::scene::{Cell, Panel, Scene};
    /// let s = Scene::single(Panel::new("t", 1, 2, |_, c| Cell::text((255, 255, 255), c.to_string())));
    /// assert!(s.tikz().contains("\\node[fill={rgb,255:red,255;green,255;blue,255}] at (0,1) {1};"));
    /// ```
    pub fn tikz(&self) -> String {
        use std::fmt::Write as _;
        let mut s = format!("% Layout: {}\n", self.title.replace('\n', " "));
        s.push_str("\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\\usetikzlibrary{shapes.misc}\n\n\\begin{document}\n\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n");
        for p in &self.panels {
            let scoped = p.x != 0 || p.y != 0;
            if scoped {
                let _ = writeln!(s, "\\begin{{scope}}[shift={{({},{})}}]", cm(p.y), cm(p.x));
            }
            let _ = writeln!(
                s,
                "\\node[anchor=west] at (-1.5,-0.5) {{\\texttt{{{}}}}};",
                tex_escape(&p.title)
            );
            for r in 0..p.rows {
                for c in 0..p.cols {
                    let cell = p.cell(r, c);
                    let label = match cell.label.len() {
                        0 => String::new(),
                        1 => tex_escape(&cell.label[0]),
                        _ => format!(
                            "\\shortstack{{{}}}",
                            cell.label
                                .iter()
                                .map(|l| tex_escape(l))
                                .collect::<Vec<_>>()
                                .join(" \\\\ ")
                        ),
                    };
                    let style = match cell.mark {
                        Mark::Plain => String::new(),
                        Mark::Outline => ",draw=black,line width=2pt".to_string(),
                        Mark::Conflict => ",draw=red,very thick,cross out".to_string(),
                    };
                    let _ = writeln!(
                        s,
                        "\\node[fill={}{style}] at ({r},{c}) {{{label}}};",
                        rgb(cell.fill)
                    );
                }
            }
            let _ = writeln!(
                s,
                "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({},{});\n",
                p.rows, p.cols
            );
            for (r, l) in p.row_labels.iter().enumerate() {
                let _ = writeln!(s, "\\node at ({r},-1) {{\\texttt{{{}}}}};", tex_escape(l));
            }
            for (c, l) in p.col_labels.iter().enumerate() {
                let _ = writeln!(s, "\\node at (-1,{c}) {{\\texttt{{{}}}}};", tex_escape(l));
            }
            if scoped {
                s.push_str("\\end{scope}\n");
            }
        }
        s.push_str("\\end{tikzpicture}\n\\end{document}\n");
        s
    }
}

/// `text` in lines of at most `width` characters: each line ends after the last space that keeps
/// it within `width` (or after the last comma, when that space would leave less than a third of
/// a line; a line with neither is cut at `width`); the spaces at a break are dropped.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut rest: Vec<char> = text.chars().collect();
    while rest.len() > width {
        // after the last space if it leaves a third of the line or more, else after the last
        // comma, else anywhere
        let last = |c: char| (1..=width).rev().find(|&k| rest[k - 1] == c);
        let cut = match (last(' '), last(',')) {
            (Some(k), _) if 3 * k >= width => k,
            (_, Some(k)) => k,
            (Some(k), None) => k,
            (None, None) => width,
        };
        let line: String = rest[..cut].iter().collect();
        lines.push(line.trim_end().to_string());
        rest.drain(..cut);
        while rest.first() == Some(&' ') {
            rest.remove(0);
        }
    }
    if !rest.is_empty() || lines.is_empty() {
        lines.push(rest.iter().collect());
    }
    lines
}

/// SVG units as TikZ centimetres (one cell height = 1 cm).
fn cm(units: i64) -> String {
    let v = units as f64 / CELL as f64;
    let t = format!("{v:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `#rrggbb`.
pub fn hex((r, g, b): Rgb) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn rgb((r, g, b): Rgb) -> String {
    format!("{{rgb,255:red,{r};green,{g};blue,{b}}}")
}

/// Escapes text for SVG.
pub fn escape(t: &str) -> String {
    let mut s = String::with_capacity(t.len());
    for ch in t.chars() {
        match ch {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            c if c.is_control() => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// Escapes text for LaTeX.
fn tex_escape(t: &str) -> String {
    let mut s = String::with_capacity(t.len());
    for ch in t.chars() {
        match ch {
            '\\' => s.push_str("\\textbackslash{}"),
            '{' | '}' | '_' | '#' | '%' | '&' | '$' => {
                s.push('\\');
                s.push(ch);
            }
            '^' => s.push_str("\\^{}"),
            '~' => s.push_str("\\~{}"),
            '<' => s.push_str("\\textless{}"),
            '>' => s.push_str("\\textgreater{}"),
            c if c.is_control() => s.push(' '),
            c => s.push(c),
        }
    }
    s
}
