//! Shared-memory banks: the colour of each bank, a layout coloured by bank, and the accesses of a
//! warp's instructions to a (swizzled) tile with the ones that wait for a bank conflict marked.

use super::{check_panels, grid_scene, noted, plain, title_of};
use crate::grid::{DrawError, Grid};
use crate::scene::{Cell, Mark, Panel, Rgb, Scene, GAP};
use cute::{ComposedLayout, Layout};

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
/// element wider than 4 bytes is given its first bank). A negative offset lies below the base:
/// its byte is in the word `floor(bytes / 4)`, so byte -2 is in word -1, bank 31.
///
/// ```
/// use cute_draw::pictures::bank_of;
/// assert_eq!(bank_of(9, 4), 9);
/// assert_eq!(bank_of(-1, 2), 31);
/// assert_eq!(bank_of(-3, 1), 31);
/// assert_eq!(bank_of(-5, 1), 30);
/// ```
pub fn bank_of(e: i64, elem_bytes: i64) -> i64 {
    e.saturating_mul(elem_bytes).div_euclid(4).rem_euclid(32)
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
    // a layout given without a swizzle is analysed (and named in an error) as itself
    let addrs = match plain(smem) {
        Some(l) => cute::banks::access_addresses(&l, tv, elem_bytes, vector)?,
        None => cute::banks::access_addresses(smem, tv, elem_bytes, vector)?,
    };
    // one panel per instruction, every one of the whole tile: refused before any is made
    check_panels(
        &format!("{} with {tv}, one panel per instruction", title_of(smem)),
        &vec![(g.rows, g.cols); addrs.len()],
    )?;
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
