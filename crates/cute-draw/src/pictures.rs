//! The pictures, as [`Scene`]s: a layout coloured by offset or by shared-memory bank, a
//! thread-value layout, an MMA atom (A, B and C around each other), a copy atom (source next to
//! destination), a swizzled tile with its conflicting accesses marked, a slice highlighted inside
//! its layout, and a layout coloured tile by tile (products and divides).
//!
//! Every function takes layouts: which instruction or operation they come from is the caller's
//! business (the `cute` command keeps a small table of atoms; the paper gallery computes products
//! and divides with the core crate).

use crate::grid::{DrawError, Grid, MAX_CELLS};
use crate::scene::{Cell, Mark, Panel, Rgb, Scene, GAP};
use cute::{ComposedLayout, Layout, PartialCoord, Tiler};

/// CuTe's 8-level grey for offset `i` (`TikzColor_BWx8`: `black!00`, `black!40`, `black!20`,
/// `black!60`, `black!10`, `black!50`, `black!30`, `black!70` by `i mod 8`), as an RGB value.
///
/// ```
/// assert_eq!(cute_draw::pictures::grey(0), (255, 255, 255));
/// assert_eq!(cute_draw::pictures::grey(3), (102, 102, 102));
/// assert_eq!(cute_draw::pictures::grey(8), (255, 255, 255));
/// ```
pub fn grey(i: i64) -> Rgb {
    const BLACK_PERCENT: [u32; 8] = [0, 40, 20, 60, 10, 50, 30, 70];
    let p = BLACK_PERCENT[i.rem_euclid(8) as usize];
    let v = (255 * (100 - p) / 100) as u8;
    (v, v, v)
}

/// CuTe's thread colours (`TikzColor_TV`, by thread mod 8), as RGB values.
///
/// ```
/// assert_eq!(cute_draw::pictures::thread_colour(0), (175, 175, 255));
/// assert_eq!(cute_draw::pictures::thread_colour(9), (175, 255, 175));
/// ```
pub fn thread_colour(t: i64) -> Rgb {
    const MAP: [Rgb; 8] = [
        (175, 175, 255),
        (175, 255, 175),
        (255, 255, 175),
        (255, 175, 175),
        (210, 210, 255),
        (210, 255, 210),
        (255, 255, 210),
        (255, 210, 210),
    ];
    MAP[t.rem_euclid(8) as usize]
}

/// The colour of tile `i` in pictures of products and divides: 12 distinct light colours, by
/// `i mod 12`.
///
/// ```
/// use cute_draw::pictures::tile_colour;
/// assert_ne!(tile_colour(0), tile_colour(1));
/// assert_eq!(tile_colour(12), tile_colour(0));
/// ```
pub fn tile_colour(i: i64) -> Rgb {
    const MAP: [Rgb; 12] = [
        (141, 211, 199),
        (255, 255, 179),
        (190, 186, 218),
        (251, 128, 114),
        (128, 177, 211),
        (253, 180, 98),
        (179, 222, 105),
        (252, 205, 229),
        (217, 217, 217),
        (188, 128, 189),
        (204, 235, 197),
        (255, 237, 111),
    ];
    MAP[i.rem_euclid(12) as usize]
}

/// The colour of shared-memory bank `b` (32 banks): light colours around the hue circle, with
/// neighbouring banks far apart (bank `b` takes hue step `7·b mod 32`).
///
/// ```
/// use cute_draw::pictures::bank_colour;
/// let all: std::collections::HashSet<_> = (0..32).map(bank_colour).collect();
/// assert_eq!(all.len(), 32);
/// assert_eq!(bank_colour(32), bank_colour(0));
/// ```
pub fn bank_colour(b: i64) -> Rgb {
    let step = (7 * b.rem_euclid(32)) % 32;
    let h = step as f64 * (360.0 / 32.0);
    // HSV with saturation 0.45 and value 1: pastel, labels stay readable
    let (s, v) = (0.45, 1.0);
    let c = v * s;
    let hp = h / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as i64 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    let q = |t: f64| ((t + m) * 255.0).round() as u8;
    (q(r), q(g), q(b))
}

/// The bank of element offset `e` for elements of `elem_bytes` bytes (32 banks of 4 bytes; an
/// element wider than 4 bytes is given its first bank).
pub fn bank_of(e: i64, elem_bytes: i64) -> i64 {
    (e.saturating_mul(elem_bytes) / 4).rem_euclid(32)
}

fn title_of(c: &ComposedLayout) -> String {
    if c.swizzle.is_identity() && c.offset == 0 {
        c.layout.to_string()
    } else {
        c.to_string()
    }
}

/// A layout: each cell labelled with its offset and filled with [`grey`].
///
/// ```
/// let s = cute_draw::pictures::layout(&"(4,8):(1,4)".parse().unwrap()).unwrap();
/// assert_eq!(s.panels[0].cell(1, 2).label, vec!["9".to_string()]);
/// ```
///
/// A layout with F2 strides (a swizzle written as a layout) is drawn by its values, which are
/// offsets too (XOR-linear): each cell labelled with the value as an integer and filled with
/// [`grey`] of it. A layout with coordinate strides (`1@0`, an identity tensor's layout) is drawn
/// with the coordinate in each cell, `(1,3)` as CuTe prints an identity tensor, filled with
/// [`tile_colour`] of the coordinate's colexicographic index in the box of all its values (equal
/// values, equal colours).
///
/// ```
/// let s = cute_draw::pictures::layout(&"(4,8):(F1,F5)".parse().unwrap()).unwrap();
/// assert_eq!(s.panels[0].cell(1, 1).label, vec!["4".to_string()]); // 1 xor 5
/// let s = cute_draw::pictures::layout(&"(4,8):(1@0,1@1)".parse().unwrap()).unwrap();
/// assert_eq!(s.panels[0].cell(1, 3).label, vec!["(1,3)".to_string()]);
/// ```
pub fn layout(l: &Layout) -> Result<Scene, DrawError> {
    if !l.is_integral() {
        return value_layout(l);
    }
    let g = Grid::latex(l)?;
    Ok(grid_scene(&noted(l.to_string(), l), &g, |v| {
        Cell::text(grey(v), v.to_string())
    }))
}

/// A layout whose values are not integers (F2 or coordinate strides), as [`layout`] says.
fn value_layout(l: &Layout) -> Result<Scene, DrawError> {
    let n = l.size();
    if n > MAX_CELLS {
        return Err(DrawError::TooLarge {
            layout: l.to_string(),
            cells: n,
        });
    }
    let rows = if l.rank() == 1 { n } else { l.mode(0)?.size() };
    let cols = n / rows.max(1);
    let mut values = Vec::with_capacity(n as usize);
    for i in 0..n {
        values.push(l.eval_value(i)?);
    }
    // coordinates: the positions (flat paths) they span and the extent of each
    let mut extent: Vec<i64> = Vec::new();
    let mut flat = true;
    for v in &values {
        if let cute::Value::Coord(t) = v {
            for k in 0..t.terms() {
                let (c, path, depth) = t.term(k);
                if depth != 1 {
                    flat = false;
                    continue;
                }
                if extent.len() <= path[0] {
                    extent.resize(path[0] + 1, 1);
                }
                extent[path[0]] = extent[path[0]].max(c.saturating_add(1));
            }
        }
    }
    let cell = |v: &cute::Value| -> Cell {
        match v {
            cute::Value::Int(x) => Cell::text(grey(*x), x.to_string()),
            cute::Value::F2(bits) => {
                let x = *bits as i64;
                Cell::text(grey(x), x.to_string())
            }
            cute::Value::Coord(t) if flat => {
                let parts: Vec<i64> = (0..extent.len()).map(|k| t.get(&[k])).collect();
                let mut index = 0i64;
                for (k, &x) in parts.iter().enumerate().rev() {
                    index = index.saturating_mul(extent[k]).saturating_add(x);
                }
                let text: Vec<String> = parts.iter().map(i64::to_string).collect();
                let label = if parts.len() == 1 {
                    text[0].clone()
                } else {
                    format!("({})", text.join(","))
                };
                Cell::text(tile_colour(index), label)
            }
            other => Cell::text((255, 255, 255), other.to_string()),
        }
    };
    let longest = values
        .iter()
        .map(|v| cell(v).label[0].chars().count() as i64)
        .max()
        .unwrap_or(1);
    let panel = Panel::new(noted(l.to_string(), l), rows, cols, |r, c| {
        cell(&values[(r + rows * c) as usize])
    });
    let w = panel.cell_w.max(8 * longest + 8);
    Ok(Scene::single(panel.with_cell_width(w)))
}

/// `title`, and for a layout of rank 3 or more the note that its modes 1.. are folded into the
/// columns ([`Grid::fold_note`]).
fn noted(title: String, l: &Layout) -> String {
    match Grid::fold_note(l) {
        Some(note) => format!("{title} ({note})"),
        None => title,
    }
}

fn grid_scene(title: &str, g: &Grid, cell: impl Fn(i64) -> Cell) -> Scene {
    Scene::single(Panel::new(title, g.rows, g.cols, |r, c| cell(g.at(r, c))))
}

/// A swizzled layout `Sw<B,M,S> o OFF o L` by offset: the rows and columns of `L`, each cell
/// the composed layout's offset there, filled with [`grey`] of it (as [`layout`] draws `L`).
///
/// ```
/// let c: cute::ComposedLayout = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse().unwrap();
/// let s = cute_draw::pictures::composed(&c).unwrap();
/// assert_eq!(s.panels[0].cell(1, 0).label, vec!["3".to_string()]);
/// ```
pub fn composed(c: &ComposedLayout) -> Result<Scene, DrawError> {
    let g = Grid::composed_latex(c)?;
    Ok(grid_scene(&noted(title_of(c), &c.layout), &g, |v| {
        Cell::text(grey(v), v.to_string())
    }))
}

fn check_elem_bytes(elem_bytes: i64) -> Result<(), DrawError> {
    if !matches!(elem_bytes, 1 | 2 | 4 | 8 | 16) {
        return Err(DrawError::Argument(format!(
            "--elem-bytes {elem_bytes}: an element is 1, 2, 4, 8 or 16 bytes"
        )));
    }
    Ok(())
}

/// A shared-memory layout (a layout or a swizzled layout) coloured by bank: each cell labelled
/// with its element offset and its bank (`b#`) for elements of `elem_bytes` bytes, filled with
/// [`bank_colour`].
///
/// ```
/// let c: cute::ComposedLayout = "Sw<0,0,0> o 0 o (8,8):(8,1)".parse().unwrap();
/// let s = cute_draw::pictures::banks(&c, 4).unwrap();
/// assert_eq!(s.panels[0].cell(1, 0).label, vec!["8".to_string(), "b8".to_string()]);
/// ```
pub fn banks(smem: &ComposedLayout, elem_bytes: i64) -> Result<Scene, DrawError> {
    check_elem_bytes(elem_bytes)?;
    let g = Grid::composed_latex(smem)?;
    let title = noted(
        format!("{} ({elem_bytes}-byte elements, by bank)", title_of(smem)),
        &smem.layout,
    );
    Ok(grid_scene(&title, &g, |v| {
        let b = bank_of(v, elem_bytes);
        Cell {
            fill: bank_colour(b),
            label: vec![v.to_string(), format!("b{b}")],
            mark: Mark::Plain,
            attrs: Vec::new(),
        }
    }))
}

/// What [`swizzle_conflicts`] found: the picture and, per instruction, the wavefronts of each of
/// its phases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictPicture {
    /// One panel per instruction: the tile coloured by bank where the instruction reads it, each
    /// cell read labelled with the thread that reads it and the wavefront that serves it; the
    /// accesses served after the first wavefront of their phase marked ([`Mark::Conflict`]).
    pub scene: Scene,
    /// `phases[j][p]`: the wavefronts of phase `p` of instruction `j`.
    pub phases: Vec<Vec<u32>>,
}

/// One access of an instruction as the picture shows it: the first thread that reads the cell,
/// how many other threads read it too, and the wavefront (counted over the instruction's phases)
/// that serves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Read {
    thread: i64,
    others: i64,
    wavefront: u32,
    waits: bool,
}

/// A shared-memory tile read by the warp pattern `tv` ((thread, value) ↦ tile coordinate, 32
/// threads; `vector` values of `elem_bytes` bytes per access), one panel per instruction, with the
/// bank model of the core crate ([`cute::banks`]): the threads of a phase are served in
/// wavefronts, one per distinct 4-byte word of the busiest bank; the `i`-th distinct word of a
/// bank (in thread order) is served in the phase's wavefront `i`, and an access in the last
/// wavefront of its words.
///
/// In panel `j`, each cell that instruction `j` reads is filled with [`bank_colour`] of its bank
/// and labelled `T<thread>` (`+N` when N more threads read it) and `w<wavefront>` (counted from 0
/// over the instruction's phases); an access served after its phase's first wavefront (it waits
/// for a bank conflict) is marked ([`Mark::Conflict`]). Cells the instruction does not read are
/// white with their offset. `data-thread`, `data-wavefront` and `data-bank` carry the same.
///
/// ```
/// let smem: cute::ComposedLayout = "Sw<0,0,0> o 0 o (8,64):(64,1)".parse().unwrap();
/// let ldm: cute::Layout = "((8,4),(8,2)):((1,64),(8,256))".parse().unwrap();
/// let p = cute_draw::pictures::swizzle_conflicts(&smem, &ldm, 2, 8).unwrap();
/// assert_eq!(p.phases, vec![vec![8, 8, 8, 8], vec![8, 8, 8, 8]]);
/// assert_eq!(p.scene.panels.len(), 2);
/// // thread 1 reads row 1 in the 2nd wavefront of phase 0: 8 rows of 64 halves share the banks
/// assert_eq!(p.scene.panels[0].cell(1, 0).label, vec!["T1".to_string(), "w1".to_string()]);
/// let sw: cute::ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse().unwrap();
/// let p = cute_draw::pictures::swizzle_conflicts(&sw, &ldm, 2, 8).unwrap();
/// assert_eq!(p.phases, vec![vec![1, 1, 1, 1], vec![1, 1, 1, 1]]);
/// ```
pub fn swizzle_conflicts(
    smem: &ComposedLayout,
    tv: &Layout,
    elem_bytes: i64,
    vector: i64,
) -> Result<ConflictPicture, DrawError> {
    check_elem_bytes(elem_bytes)?;
    let g = Grid::composed_latex(smem)?;
    let addrs = cute::banks::access_addresses(smem, tv, elem_bytes, vector)?;
    let access = cute::banks::Access::new(elem_bytes, vector)?;
    let (width, tpp) = (access.width(), access.threads_per_phase());
    let cells = (g.rows * g.cols) as usize;
    let mut phases = Vec::with_capacity(addrs.len());
    let mut reads: Vec<Vec<Option<Read>>> = Vec::with_capacity(addrs.len());
    for (j, a) in addrs.iter().enumerate() {
        let mut per = Vec::new();
        let mut read: Vec<Option<Read>> = vec![None; cells];
        let mut before = 0u32;
        for p in 0..access.phases() {
            let threads = p * tpp..(p + 1) * tpp;
            // the distinct words of each bank in this phase, in thread order
            let mut words: Vec<Vec<i64>> = vec![Vec::new(); 32];
            for t in threads.clone() {
                for w in 0..width / 4 {
                    let word = a[t] / 4 + w;
                    let bank = word.rem_euclid(32) as usize;
                    if !words[bank].contains(&word) {
                        words[bank].push(word);
                    }
                }
            }
            let wavefronts = words.iter().map(Vec::len).max().unwrap_or(0).max(1) as u32;
            for t in threads {
                let wave = (0..width / 4)
                    .map(|w| {
                        let word = a[t] / 4 + w;
                        let bank = &words[word.rem_euclid(32) as usize];
                        bank.iter().position(|&x| x == word).unwrap_or(0) as u32
                    })
                    .max()
                    .unwrap_or(0);
                for k in 0..vector {
                    let idx = tv.eval(t as i64 + 32 * (j as i64 * vector + k))?;
                    let Some(slot) = read.get_mut(idx as usize) else {
                        continue;
                    };
                    match slot {
                        Some(r) => r.others += 1,
                        None => {
                            *slot = Some(Read {
                                thread: t as i64,
                                others: 0,
                                wavefront: before + wave,
                                waits: wave > 0,
                            })
                        }
                    }
                }
            }
            per.push(wavefronts);
            before += wavefronts;
        }
        phases.push(per);
        reads.push(read);
    }
    let total: u32 = phases.iter().flatten().sum();
    let ideal = (addrs.len() * access.phases()) as u32;
    let summary = noted(
        format!(
            "{} with {tv} ({vector}x{elem_bytes} B): {total} wavefronts, ideal {ideal}",
            title_of(smem)
        ),
        &smem.layout,
    );
    let mut panels = Vec::with_capacity(reads.len());
    let mut y = 0;
    for (j, read) in reads.iter().enumerate() {
        let per: Vec<String> = phases[j].iter().map(u32::to_string).collect();
        let mut title = format!(
            "instruction {j}: {} wavefronts (phases {}), ideal {}",
            phases[j].iter().sum::<u32>(),
            per.join("+"),
            per.len()
        );
        if j == 0 {
            title = format!("{summary}; {title}");
        }
        let panel = Panel::new(title, g.rows, g.cols, |r, c| {
            let v = g.at(r, c);
            let b = bank_of(v, elem_bytes);
            match read[(r + g.rows * c) as usize] {
                Some(x) => Cell {
                    fill: bank_colour(b),
                    label: vec![
                        if x.others > 0 {
                            format!("T{}+{}", x.thread, x.others)
                        } else {
                            format!("T{}", x.thread)
                        },
                        format!("w{}", x.wavefront),
                    ],
                    mark: if x.waits { Mark::Conflict } else { Mark::Plain },
                    attrs: vec![
                        ("thread", x.thread.to_string()),
                        ("wavefront", x.wavefront.to_string()),
                        ("bank", b.to_string()),
                    ],
                },
                None => Cell::text((255, 255, 255), v.to_string()),
            }
        })
        .at(0, y);
        y += panel.height() + GAP;
        panels.push(panel);
    }
    Ok(ConflictPicture {
        scene: Scene {
            title: summary,
            panels,
        },
        phases,
    })
}

/// Who owns a cell of a thread-value layout's tile: the first `(thread, value)` that maps to it
/// and whether another does too; `None` when no thread does.
pub type Owner = Option<(i64, i64, bool)>;

/// For each coordinate index of a tile of `cells` cells, its [`Owner`] under `tv` (the first of
/// [`tv_cell_owners`]).
pub fn tv_owners(tv: &Layout, cells: i64) -> Result<Vec<Owner>, DrawError> {
    Ok(tv_cell_owners(tv, cells)?
        .iter()
        .map(|o| o.first().map(|&(t, v)| (t, v, o.len() > 1)))
        .collect())
}

/// For each coordinate index of a tile of `cells` cells, every `(thread, value)` that `tv` maps
/// to it, in the order of `tv`'s domain (thread fastest): a TV layout that is not injective (a
/// broadcast, a stride 0) maps several to one cell.
///
/// ```
/// // two threads read each cell of a 2-cell tile
/// let o = cute_draw::pictures::tv_cell_owners(&"(2,2):(0,1)".parse().unwrap(), 2).unwrap();
/// assert_eq!(o, vec![vec![(0, 0), (1, 0)], vec![(0, 1), (1, 1)]]);
/// ```
pub fn tv_cell_owners(tv: &Layout, cells: i64) -> Result<Vec<Vec<(i64, i64)>>, DrawError> {
    if cells > MAX_CELLS {
        return Err(DrawError::TooLarge {
            layout: tv.to_string(),
            cells,
        });
    }
    if !tv.is_integral() {
        return Err(DrawError::NotIntegral(tv.to_string()));
    }
    let threads = if tv.rank() == 1 {
        1
    } else {
        tv.mode(0)?.size()
    };
    let size = tv.size();
    // every (thread, value) is visited once: bounded like the cells (a tile's TV layout may
    // repeat each cell a few times, not without bound)
    if size > 8 * MAX_CELLS {
        return Err(DrawError::TooLarge {
            layout: tv.to_string(),
            cells: size,
        });
    }
    let mut owners: Vec<Vec<(i64, i64)>> = vec![Vec::new(); cells.max(0) as usize];
    for i in 0..size {
        let x = tv.eval(i)?;
        if !(0..cells).contains(&x) {
            return Err(DrawError::OutsideTile {
                layout: tv.to_string(),
                index: i,
                coordinate: x,
                cells,
            });
        }
        owners[x as usize].push((i % threads, i / threads));
    }
    Ok(owners)
}

fn tile_dims(what: &str, rows: i64, cols: i64) -> Result<i64, DrawError> {
    match rows.checked_mul(cols) {
        Some(n) if rows >= 1 && cols >= 1 => Ok(n),
        _ => Err(DrawError::Argument(format!(
            "{what} {rows} x {cols}: the tile's rows and columns must be positive and their product an i64"
        ))),
    }
}

/// The cell of a TV picture owned by `owners` (every `(thread, value)` that maps to it): filled
/// with the colour of the highlighted thread when it is an owner, else of the first; labelled
/// `T<t>` and `V<v>` of that owner, with `+N` when N more threads (on the first line) or N more
/// values of the same thread (on the second) map there too; outlined when the highlighted thread
/// is an owner. `data-threads` lists the distinct threads, `data-owners` every `thread:value`.
fn owner_cell(owners: &[(i64, i64)], highlight: Option<i64>) -> Cell {
    let Some(&first) = owners.first() else {
        let mut c = Cell::blank();
        c.attrs = vec![("threads", String::new()), ("owners", String::new())];
        return c;
    };
    let (t, v) = owners
        .iter()
        .copied()
        .find(|&(t, _)| Some(t) == highlight)
        .unwrap_or(first);
    let mut threads: Vec<i64> = owners.iter().map(|o| o.0).collect();
    threads.sort_unstable();
    threads.dedup();
    let more = |n: usize| {
        if n > 0 {
            format!("+{n}")
        } else {
            String::new()
        }
    };
    let same = owners.iter().filter(|o| o.0 == t).count() - 1;
    Cell {
        fill: thread_colour(t),
        label: vec![
            format!("T{t}{}", more(threads.len() - 1)),
            format!("V{v}{}", more(same)),
        ],
        mark: if highlight.is_some_and(|h| threads.contains(&h)) {
            Mark::Outline
        } else {
            Mark::Plain
        },
        attrs: vec![
            (
                "threads",
                threads
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            (
                "owners",
                owners
                    .iter()
                    .map(|(t, v)| format!("{t}:{v}"))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
        ],
    }
}

/// A thread-value layout `tv: (thread, value) ↦ coordinate` of a `rows × cols` tile (coordinate
/// index `m + rows·n`): each cell holds the thread and value that own it, coloured by
/// [`thread_colour`]; every cell that thread `highlight` owns is outlined. A cell owned by no
/// thread stays white; a cell owned by several shows the highlighted thread (else the first) and
/// `+N` for the N other threads (`data-threads` lists them all).
///
/// ```
/// let tv: cute::Layout = "((4,8),(2,2)):((32,1),(16,8))".parse().unwrap();
/// let s = cute_draw::pictures::tv_layout(&tv, 16, 8, Some(5)).unwrap();
/// assert_eq!(s.panels[0].cell(0, 2).label, vec!["T1".to_string(), "V0".to_string()]);
/// ```
pub fn tv_layout(
    tv: &Layout,
    rows: i64,
    cols: i64,
    highlight: Option<i64>,
) -> Result<Scene, DrawError> {
    let n = tile_dims("--tv", rows, cols)?;
    let owners = tv_cell_owners(tv, n)?;
    let title = format!("{tv} over {rows}x{cols}");
    Ok(Scene::single(Panel::new(title, rows, cols, |r, c| {
        owner_cell(&owners[(r + rows * c) as usize], highlight)
    })))
}

/// An MMA atom `D = A·B + C` of shape `(M, N, K)` as CuTe's `print_latex` draws a `TiledMMA`: C
/// (`M × N`) at the bottom right, A (`M × K`) to its left, B transposed (`K × N`) above it, every
/// cell holding the thread and value that own it; `a`, `b` and `c` map (thread, value) to the
/// coordinate indices `m + M·k`, `n + N·k` and `m + M·n`. Thread `highlight` is outlined in all
/// three. Panels: 0 = B, 1 = A, 2 = C.
///
/// ```
/// // mma.sync m16n8k16: thread 0 holds A(0,0), B(0,0) and C(0,0)
/// let l = |s: &str| s.parse::<cute::Layout>().unwrap();
/// let s = cute_draw::pictures::mma(
///     "SM80_16x8x16_F32F16F16F32_TN", &l("((4,8),(2,2,2)):((32,1),(16,8,128))"),
///     &l("((4,8),(2,2)):((16,1),(8,64))"), &l("((4,8),(2,2)):((32,1),(16,8))"), (16, 8, 16), Some(0),
/// ).unwrap();
/// assert_eq!(s.panels.len(), 3);
/// assert_eq!(s.panels[2].cell(0, 0).label[0], "T0");
/// ```
pub fn mma(
    name: &str,
    a: &Layout,
    b: &Layout,
    c: &Layout,
    (m, n, k): (i64, i64, i64),
    highlight: Option<i64>,
) -> Result<Scene, DrawError> {
    let mk = tile_dims("A", m, k)?;
    let nk = tile_dims("B", n, k)?;
    let mn = tile_dims("C", m, n)?;
    let (oa, ob, oc) = (
        tv_cell_owners(a, mk)?,
        tv_cell_owners(b, nk)?,
        tv_cell_owners(c, mn)?,
    );
    let pb = Panel::new(format!("B {b}"), k, n, |r, col| {
        owner_cell(&ob[(col + n * r) as usize], highlight)
    });
    let pa = Panel::new(format!("A {a}"), m, k, |r, col| {
        owner_cell(&oa[(r + m * col) as usize], highlight)
    });
    let pc = Panel::new(format!("C {c}"), m, n, |r, col| {
        owner_cell(&oc[(r + m * col) as usize], highlight)
    });
    let (mut pa, mut pc) = (pa, pc);
    align_titles(&mut [&mut pa, &mut pc]);
    let (x, y) = (pa.width() + GAP, pb.height() + GAP);
    Ok(Scene {
        title: format!("{name} (M,N,K) = ({m},{n},{k})"),
        panels: vec![pb.at(x, 0), pa.at(0, y), pc.at(x, y)],
    })
}

/// A copy atom as CuTe's `print_latex` draws a `TiledCopy`: the source tile next to the
/// destination tile (both `rows × cols`), each cell holding the source (resp. destination) thread
/// and value that own it; thread `highlight` is outlined on both sides. Panels: 0 = source,
/// 1 = destination.
///
/// ```
/// let l = |s: &str| s.parse::<cute::Layout>().unwrap();
/// // one thread moving 8 elements in a row
/// let s = cute_draw::pictures::copy("v8", &l("(1,8):(0,1)"), &l("(1,8):(0,1)"), 1, 8, None).unwrap();
/// assert_eq!(s.panels[1].cell(0, 7).label, vec!["T0".to_string(), "V7".to_string()]);
/// ```
pub fn copy(
    name: &str,
    src: &Layout,
    dst: &Layout,
    rows: i64,
    cols: i64,
    highlight: Option<i64>,
) -> Result<Scene, DrawError> {
    let cells = tile_dims("the copy tile", rows, cols)?;
    let (os, od) = (tv_cell_owners(src, cells)?, tv_cell_owners(dst, cells)?);
    let ps = Panel::new(format!("source {src}"), rows, cols, |r, c| {
        owner_cell(&os[(r + rows * c) as usize], highlight)
    });
    let pd = Panel::new(format!("destination {dst}"), rows, cols, |r, c| {
        owner_cell(&od[(r + rows * c) as usize], highlight)
    });
    let (mut ps, mut pd) = (ps, pd);
    align_titles(&mut [&mut ps, &mut pd]);
    let x = ps.width() + GAP;
    Ok(Scene {
        title: name.to_string(),
        panels: vec![ps, pd.at(x, 0)],
    })
}

/// Gives panels placed side by side title bands of the same height, so that their rows line up.
pub fn align_titles(panels: &mut [&mut Panel]) {
    let n = panels
        .iter()
        .map(|p| p.title_lines().len())
        .max()
        .unwrap_or(1);
    for p in panels.iter_mut() {
        p.title_lines_min = n;
    }
}

/// The coordinate indices (colexicographic, `m + rows·n` for rank 2) of the cells of `l` that the
/// partial coordinate `c` selects: the image of the slice of `l`'s compact column-major layout
/// (a bijection from coordinates to indices), so the answer comes from the algebra's `slice`.
///
/// ```
/// let l: cute::Layout = "(4,3):(3,1)".parse().unwrap();
/// let cells = cute_draw::pictures::slice_cells(&l, &"(_,1)".parse().unwrap()).unwrap();
/// assert_eq!(cells, vec![4, 5, 6, 7]);
/// ```
pub fn slice_cells(l: &Layout, c: &PartialCoord) -> Result<Vec<i64>, DrawError> {
    let index = cute::compact_col_major(&l.shape())?;
    let (s, off) = cute::slice_and_offset(&index, c)?;
    let n = s.size();
    if n > MAX_CELLS {
        return Err(DrawError::TooLarge {
            layout: s.to_string(),
            cells: n,
        });
    }
    let mut v = Vec::with_capacity(n as usize);
    for j in 0..n {
        v.push(off + s.eval(j)?);
    }
    v.sort_unstable();
    Ok(v)
}

/// A layout with the cells of a slice outlined: `l` as in [`layout`], the cells that `c` selects
/// ([`slice_cells`]) outlined; the title names the slice's layout and offset.
///
/// ```
/// let l: cute::Layout = "(4,3):(3,1)".parse().unwrap();
/// let s = cute_draw::pictures::slice(&l, &"(2,_)".parse().unwrap()).unwrap();
/// assert_eq!(s.panels[0].cells.iter().filter(|c| c.mark == cute_draw::scene::Mark::Outline).count(), 3);
/// ```
pub fn slice(l: &Layout, c: &PartialCoord) -> Result<Scene, DrawError> {
    let g = Grid::latex(l)?;
    // the slice of `l` itself first, so that a refusal names `l` (not its index layout)
    let (s, off) = cute::slice_and_offset(l, c)?;
    let cells = slice_cells(l, c)?;
    let mut on = vec![false; (g.rows * g.cols) as usize];
    for &i in &cells {
        on[i as usize] = true;
    }
    let title = noted(format!("{l} sliced at {c}: {off} + {s}"), l);
    Ok(Scene::single(Panel::new(
        title,
        g.rows,
        g.cols,
        |r, col| {
            let v = g.at(r, col);
            Cell {
                fill: if on[(r + g.rows * col) as usize] {
                    (255, 210, 160)
                } else {
                    grey(v)
                },
                label: vec![v.to_string()],
                mark: if on[(r + g.rows * col) as usize] {
                    Mark::Outline
                } else {
                    Mark::Plain
                },
                attrs: Vec::new(),
            }
        },
    )))
}

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
    // every (tile, rest) coordinate is visited once; padding makes the divide larger than the
    // layout, by at most the tiles' sizes per mode: bounded like a TV layout's walk
    if total > 8 * MAX_CELLS {
        return Err(DrawError::TooLarge {
            layout: z.to_string(),
            cells: total,
        });
    }
    let mut tile = vec![-1; n as usize];
    let mut counts = vec![0; (total / tile_size) as usize];
    for j in 0..total {
        let cell = if single {
            let v = z.eval(j)?;
            (0..n).contains(&v).then_some(v)
        } else {
            match z.eval_value(j)? {
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
            }
        };
        if let Some(c) = cell {
            let k = j / tile_size;
            tile[c as usize] = k;
            counts[k as usize] += 1;
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
