//! Thread-value layouts: which thread and value own each cell of a tile, a TV layout drawn over its
//! tile, an MMA atom (A, B and C around each other) and a copy atom (source beside destination).

use super::thread_colour;
use crate::grid::{DrawError, MAX_CELLS, MAX_OWNERS};
use crate::scene::{Cell, Mark, Panel, Scene, GAP};
use cute::Layout;

/// Who owns a cell of a thread-value layout's tile: the first `(thread, value)` that maps to it
/// (in `(thread, value)` order, as CuTe's `print_latex` draws it) and whether another does too;
/// `None` when no thread does.
pub type Owner = Option<(i64, i64, bool)>;

/// For each coordinate index of a tile of `cells` cells, its [`Owner`] under `tv` (the first of
/// [`tv_cell_owners`]).
pub fn tv_owners(tv: &Layout, cells: i64) -> Result<Vec<Owner>, DrawError> {
    Ok(tv_cell_owners(tv, cells)?
        .iter()
        .map(|o| o.first().map(|&(t, v)| (t, v, o.len() > 1)))
        .collect())
}

/// The threads and the values per thread of a thread-value layout: mode 0 and the rest; a
/// rank-1 layout is threads only, one value each (CuTe's `print_latex` appends a mode `1:0` to a
/// rank-1 layout, and `cute partition` counts its threads the same way).
///
/// ```
/// use cute_draw::pictures::tv_shape;
/// assert_eq!(tv_shape(&"8:1".parse().unwrap()).unwrap(), (8, 1));
/// assert_eq!(tv_shape(&"(4,(2,3)):(1,(4,8))".parse().unwrap()).unwrap(), (4, 6));
/// ```
pub fn tv_shape(tv: &Layout) -> Result<(i64, i64), DrawError> {
    let threads = if tv.rank() == 1 {
        tv.size()
    } else {
        tv.mode(0)?.size()
    };
    Ok((threads, if threads == 0 { 0 } else { tv.size() / threads }))
}

/// For each coordinate index of a tile of `cells` cells, every `(thread, value)` that `tv` maps
/// to it, in `(thread, value)` order (thread outer, value inner, as CuTe's `print_latex` visits
/// them: the first is the one it draws): a TV layout that is not injective (a broadcast, a stride
/// 0) maps several to one cell. Mode 0 holds the threads ([`tv_shape`]: a rank-1 layout is
/// threads only).
///
/// ```
/// // two threads read each cell of a 2-cell tile
/// let o = cute_draw::pictures::tv_cell_owners(&"(2,2):(0,1)".parse().unwrap(), 2).unwrap();
/// assert_eq!(o, vec![vec![(0, 0), (1, 0)], vec![(0, 1), (1, 1)]]);
/// // thread 0 holds cell 1 as its value 1, thread 1 as its value 0: thread 0 comes first
/// let o = cute_draw::pictures::tv_cell_owners(&"(2,2):(1,1)".parse().unwrap(), 3).unwrap();
/// assert_eq!(o[1], vec![(0, 1), (1, 0)]);
/// ```
pub fn tv_cell_owners(tv: &Layout, cells: i64) -> Result<Vec<Vec<(i64, i64)>>, DrawError> {
    owners_counted(tv, cells, &mut 0)
}

/// [`tv_cell_owners`], `visited` the pairs the picture's other layouts mapped before (all of them
/// together are bounded by [`MAX_OWNERS`]), counted up by `tv`'s.
fn owners_counted(
    tv: &Layout,
    cells: i64,
    visited: &mut i64,
) -> Result<Vec<Vec<(i64, i64)>>, DrawError> {
    if cells > MAX_CELLS {
        return Err(DrawError::TooLarge {
            layout: format!("the tile of {tv}"),
            cells,
        });
    }
    if !tv.is_integral() {
        return Err(DrawError::NotIntegral(tv.to_string()));
    }
    let (threads, values) = tv_shape(tv)?;
    let size = tv.size();
    // every (thread, value) is visited once and listed in its cell
    if size > MAX_OWNERS - *visited {
        return Err(DrawError::TooManyOwners {
            layout: tv.to_string(),
            pairs: size,
            before: *visited,
        });
    }
    *visited += size;
    let mut owners: Vec<Vec<(i64, i64)>> = vec![Vec::new(); cells.max(0) as usize];
    for t in 0..threads {
        for v in 0..values {
            let i = t + threads * v;
            let x = tv.eval(i)?;
            if !(0..cells).contains(&x) {
                return Err(DrawError::OutsideTile {
                    layout: tv.to_string(),
                    index: i,
                    coordinate: x,
                    cells,
                });
            }
            owners[x as usize].push((t, v));
        }
    }
    Ok(owners)
}

/// The cells of a `rows × cols` tile, which `what` names (`--tv 0 4`, `A 16 x 0`): refused
/// unless both are positive and their product an `i64` (the cell limit is checked by
/// [`check_panels`]).
fn tile_dims(what: &str, rows: i64, cols: i64) -> Result<i64, DrawError> {
    match rows.checked_mul(cols) {
        Some(n) if rows >= 1 && cols >= 1 => Ok(n),
        _ => Err(DrawError::Argument(format!(
            "{what}: the tile's rows and columns must be positive and their product an i64"
        ))),
    }
}

/// Refuses panels of more than [`MAX_CELLS`] cells in all, before any is drawn.
pub(crate) fn check_panels(picture: &str, panels: &[(i64, i64)]) -> Result<(), DrawError> {
    let total = panels
        .iter()
        .fold(0i64, |t, &(r, c)| t.saturating_add(r.saturating_mul(c)));
    if total > MAX_CELLS {
        return Err(DrawError::TooManyCells {
            picture: picture.to_string(),
            panels: panels.to_vec(),
        });
    }
    Ok(())
}

/// The cell of a TV picture owned by `owners` (every `(thread, value)` that maps to it): filled
/// with the colour of the highlighted thread when it is an owner, else of the first (in
/// `(thread, value)` order, the owner CuTe's `print_latex` draws); labelled `T<t>` and `V<v>` of
/// that owner (the thread's first value), with `+N` when N more threads (on the first line) or N
/// more values of the same thread (on the second) map there too; outlined when the highlighted
/// thread is an owner. `data-threads` lists the distinct threads, `data-owners` every `thread:value`.
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
    let n = tile_dims(&format!("--tv {rows} {cols}"), rows, cols)?;
    check_panels(&format!("--tv {rows} {cols}: the tile"), &[(rows, cols)])?;
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
    let mk = tile_dims(&format!("A {m} x {k}"), m, k)?;
    let nk = tile_dims(&format!("B {k} x {n}"), n, k)?;
    let mn = tile_dims(&format!("C {m} x {n}"), m, n)?;
    check_panels(&format!("{name}: B, A and C"), &[(k, n), (m, k), (m, n)])?;
    let mut visited = 0;
    let (oa, ob, oc) = (
        owners_counted(a, mk, &mut visited)?,
        owners_counted(b, nk, &mut visited)?,
        owners_counted(c, mn, &mut visited)?,
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
    let cells = tile_dims(&format!("the copy tile {rows} x {cols}"), rows, cols)?;
    check_panels(
        &format!("{name}: source and destination"),
        &[(rows, cols), (rows, cols)],
    )?;
    let mut visited = 0;
    let (os, od) = (
        owners_counted(src, cells, &mut visited)?,
        owners_counted(dst, cells, &mut visited)?,
    );
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
