//! Shared-memory bank conflicts of a warp's accesses, and the search for a swizzle that removes
//! them.
//!
//! ## The model
//!
//! Shared memory has 32 banks of 4 bytes: the 4-byte word at byte address `a` lies in bank
//! `(a / 4) mod 32`. One instruction of a warp has each of its 32 threads access `W = V·B` bytes
//! (`V` values of `B` bytes each; `W` is 4, 8 or 16), contiguous and aligned to `W`. The hardware
//! serves the warp in phases:
//!
//! | width `W` | phases | threads per phase | ideal wavefronts |
//! |---|---|---|---|
//! | 4 bytes | 1 | 32 (threads 0–31) | 1 |
//! | 8 bytes | 2 | 16 (0–15, 16–31) | 2 |
//! | 16 bytes | 4 | 8 (0–7, 8–15, …) | 4 |
//!
//! Each phase touches 32 words. Its number of **wavefronts** is the largest number of *distinct*
//! words that fall in one bank (several threads reading the same word is a broadcast and counts
//! once), at least 1. An instruction costs the sum over its phases; the ideal is one per phase.
//!
//! On an NVIDIA H200 the model gives Nsight Compute's shared-load wavefronts exactly on 22 patterns
//! (4-, 8- and 16-byte accesses, with and without swizzles; BENCHMARKS.md,
//! `kernels/bank_conflicts/`). It is an upper bound when 16-byte accesses of different phases read
//! the same words: 32 threads reading the same 16 bytes cost 2 wavefronts there, not 4.
//!
//! ## The inputs
//!
//! * `SMEM` ([`SmemLayout`]) maps a tile coordinate (an integer index of its domain,
//!   colexicographic, as [`Layout::eval`]) to an **element** offset in shared memory: a
//!   [`Layout`] or a swizzled [`ComposedLayout`].
//! * `TV` (a [`Layout`]) maps `(thread, value)` to a tile coordinate index. Its first mode is the
//!   thread mode, of size 32 (one warp); the remaining modes are the value mode, walked
//!   colexicographically: `TV(t, v) = TV.eval(t + 32·v)`.
//! * Instruction `j` has thread `t` access the values `j·V … j·V+V-1`; their `V` elements must be
//!   consecutive in shared memory (`SMEM(TV(t, j·V+k)) = e + k`) with the byte offset `e·B` a
//!   multiple of `W`, or the access is not one vector access and the analysis is refused.
//!
//! ## Example: the 8×64 fp16 tile of CUTLASS's SM80 GEMMs
//!
//! Row-major `(8,64):(64,1)`; each thread reads 16 bytes (8 halves) of one row, and, as
//! `ldmatrix` does, threads 0–7 read the first 16-byte chunk of rows 0–7, threads 8–15 the second
//! chunk, and so on: `TV = ((8,4),(8,2)):((1,64),(8,256))`. Without a swizzle the 8 rows of a
//! phase share banks 0–3 (8 wavefronts per phase, 32 per instruction instead of 4); with
//! `Sw<3,3,3>` each row's chunk moves to its own banks.
//!
//! ```
//! use cute::banks::{bank_conflicts, swizzle_search};
//! use cute::{ComposedLayout, Layout};
//! let smem: Layout = "(8,64):(64,1)".parse().unwrap();
//! let ldm: Layout = "((8,4),(8,2)):((1,64),(8,256))".parse().unwrap();
//! let r = bank_conflicts(&smem, &ldm, 2, 8).unwrap();
//! assert_eq!((r.instructions, r.wavefronts.clone(), r.ideal.clone()), (2, vec![32, 32], vec![4, 4]));
//!
//! let sw: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse().unwrap();
//! assert_eq!(bank_conflicts(&sw, &ldm, 2, 8).unwrap().wavefronts, vec![4, 4]);
//!
//! // Row-wise 16-byte stores (thread t writes chunk t%8 of row t/8) and the ldmatrix reads:
//! let rows: Layout = "((8,4),(8,2)):((64,1),(8,4))".parse().unwrap();
//! let found = swizzle_search(&smem, &[rows, ldm], 2, 8).unwrap();
//! assert!(found.conflict_free);
//! assert_eq!(found.swizzle.to_string(), "Sw<3,3,3>");
//! assert_eq!(found.layout.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
//! ```

use crate::error::{Error, ErrorKind, Op, Operand};
use crate::layout::Layout;
use crate::swizzle::{ComposedLayout, Swizzle};

/// Threads in a warp.
pub const WARP: usize = 32;
/// Shared-memory banks.
pub const BANKS: i64 = 32;
/// Bytes per bank word.
pub const BANK_BYTES: i64 = 4;

/// The most values (`size(TV)`) one analysis walks.
pub const MAX_VALUES: i64 = 1 << 20;
/// The largest SMEM domain [`swizzle_search`] walks (to keep every swizzled offset inside the
/// memory the unswizzled layout spans).
pub const MAX_SMEM_SIZE: i64 = 1 << 22;

/// A shared-memory layout: tile coordinate index ↦ element offset.
///
/// Everything the analysis needs from it goes through [`SmemLayout::offset`], so that other
/// layouts (e.g. with F2 strides) can join by implementing this trait.
pub trait SmemLayout {
    /// The element offset of the tile coordinate with integer index `idx` (in `0..size`).
    fn offset(&self, idx: i64) -> Result<i64, Error>;
    /// The size of the domain (the number of tile coordinates).
    fn size(&self) -> i64;
    /// This layout as an operand of an error message.
    fn operand(&self) -> Operand;
    /// `sw ∘ self` as a composed layout: what [`swizzle_search`] proposes. Layouts that cannot be
    /// written so (an already swizzled layout) refuse.
    fn with_swizzle(&self, sw: Swizzle) -> Result<ComposedLayout, Error>;
}

impl SmemLayout for Layout {
    fn offset(&self, idx: i64) -> Result<i64, Error> {
        self.eval(idx)
    }
    fn size(&self) -> i64 {
        Layout::size(self)
    }
    fn operand(&self) -> Operand {
        Operand::Layout(*self)
    }
    fn with_swizzle(&self, sw: Swizzle) -> Result<ComposedLayout, Error> {
        Ok(ComposedLayout::new(sw, 0, *self))
    }
}

impl SmemLayout for ComposedLayout {
    fn offset(&self, idx: i64) -> Result<i64, Error> {
        self.eval(idx)
    }
    fn size(&self) -> i64 {
        ComposedLayout::size(self)
    }
    fn operand(&self) -> Operand {
        Operand::Composed(*self)
    }
    fn with_swizzle(&self, sw: Swizzle) -> Result<ComposedLayout, Error> {
        if self.swizzle.is_identity() {
            Ok(ComposedLayout::new(sw, self.offset, self.layout))
        } else {
            Err(Error::new(
                Op::SwizzleSearch,
                ErrorKind::Unsupported {
                    what: "the SMEM layout is already swizzled; search from its unswizzled layout",
                },
            )
            .with(Operand::Composed(*self), Operand::None))
        }
    }
}

/// A shared-memory layout as a command line or a text field gives it: a layout, or a swizzled
/// composed layout (`Sw<B,M,S> o OFFSET o LAYOUT`).
///
/// ```
/// use cute::banks::Smem;
/// assert!(matches!(Smem::parse("(8,64):(64,1)").unwrap(), Smem::Plain(_)));
/// let s = Smem::parse("Sw<3,3,3> o 0 o (8,64):(64,1)").unwrap();
/// assert_eq!(s.layout().to_string(), "(8,64):(64,1)");
/// ```
#[allow(clippy::large_enum_variant)] // both variants are layouts, held briefly
pub enum Smem {
    /// `(8,64):(64,1)`
    Plain(Layout),
    /// `Sw<3,3,3> o 0 o (8,64):(64,1)`
    Composed(ComposedLayout),
}

impl Smem {
    /// Reads either form (a composed layout starts with `Sw`).
    ///
    /// ```
    /// use cute::banks::Smem;
    /// let s = Smem::parse("Sw<3,3,3> o 0 o (8,64):(64,1)").unwrap();
    /// assert!(matches!(s, Smem::Composed(_)));
    /// let e = Smem::parse("(8,64):(64,1").err().unwrap();
    /// assert_eq!(e.to_string(), "parse: at byte 12: expected ',' or ')'");
    /// ```
    ///
    /// # Errors
    ///
    /// The parse errors of [`ComposedLayout`] (text starting with `Sw`) or of [`Layout`].
    pub fn parse(text: &str) -> Result<Smem, Error> {
        if text.trim_start().starts_with("Sw") {
            text.parse().map(Smem::Composed)
        } else {
            text.parse().map(Smem::Plain)
        }
    }

    /// The layout as the bank model takes it.
    ///
    /// ```
    /// use cute::banks::{bank_conflicts, Smem};
    /// let ldm = "((8,4),(8,2)):((1,64),(8,256))".parse().unwrap();
    /// let plain = Smem::parse("(8,64):(64,1)").unwrap();
    /// let swizzled = Smem::parse("Sw<3,3,3> o 0 o (8,64):(64,1)").unwrap();
    /// assert_eq!(bank_conflicts(plain.as_dyn(), &ldm, 2, 8).unwrap().wavefronts, vec![32, 32]);
    /// assert_eq!(bank_conflicts(swizzled.as_dyn(), &ldm, 2, 8).unwrap().wavefronts, vec![4, 4]);
    /// ```
    pub fn as_dyn(&self) -> &dyn SmemLayout {
        match self {
            Smem::Plain(l) => l,
            Smem::Composed(c) => c,
        }
    }

    /// The layout whose modes give the element coordinates (the composed layout's inner layout).
    ///
    /// ```
    /// use cute::banks::Smem;
    /// let s = Smem::parse("(8,64):(64,1)").unwrap();
    /// assert_eq!(s.layout().to_string(), "(8,64):(64,1)");
    /// ```
    pub fn layout(&self) -> &Layout {
        match self {
            Smem::Plain(l) => l,
            Smem::Composed(c) => &c.layout,
        }
    }
}

/// The width of every access: `V` values of `B` bytes, `W = V·B` in {4, 8, 16}.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    elem_bytes: i64,
    vector: i64,
}

impl Access {
    /// `V = vector` values of `B = elem_bytes` bytes per thread and instruction.
    ///
    /// ```
    /// use cute::banks::Access;
    /// let a = Access::new(2, 8).unwrap(); // 8 halves: 16 bytes per thread
    /// assert_eq!((a.width(), a.phases(), a.threads_per_phase()), (16, 4, 8));
    /// assert_eq!(Access::new(2, 3).unwrap_err().to_string(), "bank_conflicts: the access width V·B = 3·2 = 6 bytes must be 4, 8 or 16 bytes");
    /// ```
    ///
    /// # Errors
    ///
    /// Fails with [`ErrorKind::AccessWidth`] unless both are positive and `V·B` is 4, 8 or 16.
    pub const fn new(elem_bytes: i64, vector: i64) -> Result<Access, Error> {
        let ok = elem_bytes > 0
            && vector > 0
            && elem_bytes <= 16
            && vector <= 16
            && matches!(elem_bytes * vector, 4 | 8 | 16);
        if !ok {
            return Err(Error::new(
                Op::BankConflicts,
                ErrorKind::AccessWidth { elem_bytes, vector },
            ));
        }
        Ok(Access { elem_bytes, vector })
    }
    /// `B`, bytes per element.
    ///
    /// ```
    /// use cute::banks::Access;
    /// assert_eq!(Access::new(2, 8).unwrap().elem_bytes(), 2);
    /// ```
    pub const fn elem_bytes(&self) -> i64 {
        self.elem_bytes
    }
    /// `V`, values per access.
    ///
    /// ```
    /// use cute::banks::Access;
    /// assert_eq!(Access::new(2, 8).unwrap().vector(), 8);
    /// ```
    pub const fn vector(&self) -> i64 {
        self.vector
    }
    /// `W = V·B`, bytes per access.
    ///
    /// ```
    /// use cute::banks::Access;
    /// assert_eq!(Access::new(4, 2).unwrap().width(), 8);
    /// ```
    pub const fn width(&self) -> i64 {
        self.elem_bytes * self.vector
    }
    /// Phases per instruction: 1, 2 or 4 (also the ideal number of wavefronts).
    ///
    /// ```
    /// use cute::banks::Access;
    /// assert_eq!(Access::new(4, 1).unwrap().phases(), 1);
    /// assert_eq!(Access::new(4, 2).unwrap().phases(), 2);
    /// assert_eq!(Access::new(4, 4).unwrap().phases(), 4);
    /// ```
    pub const fn phases(&self) -> usize {
        (self.width() / BANK_BYTES) as usize
    }
    /// Threads served per phase: 32, 16 or 8.
    ///
    /// ```
    /// use cute::banks::Access;
    /// assert_eq!(Access::new(4, 1).unwrap().threads_per_phase(), 32);
    /// assert_eq!(Access::new(8, 1).unwrap().threads_per_phase(), 16);
    /// ```
    pub const fn threads_per_phase(&self) -> usize {
        WARP / self.phases()
    }
}

/// The wavefronts of every instruction of one access pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankReport {
    /// The number of instructions (`size(value mode) / V`).
    pub instructions: usize,
    /// Wavefronts per instruction.
    pub wavefronts: Vec<u32>,
    /// The ideal (conflict-free) wavefronts per instruction: the number of phases.
    pub ideal: Vec<u32>,
}

impl BankReport {
    /// The sum of the wavefronts.
    ///
    /// ```
    /// use cute::{bank_conflicts, Layout};
    /// let smem: Layout = "(8,64):(64,1)".parse().unwrap();
    /// let ldm: Layout = "((8,4),(8,2)):((1,64),(8,256))".parse().unwrap();
    /// assert_eq!(bank_conflicts(&smem, &ldm, 2, 8).unwrap().total(), 64);
    /// ```
    pub fn total(&self) -> u64 {
        self.wavefronts.iter().map(|&w| w as u64).sum()
    }
    /// The sum of the ideal wavefronts.
    ///
    /// ```
    /// use cute::{bank_conflicts, Layout};
    /// let smem: Layout = "(8,64):(64,1)".parse().unwrap();
    /// let ldm: Layout = "((8,4),(8,2)):((1,64),(8,256))".parse().unwrap();
    /// assert_eq!(bank_conflicts(&smem, &ldm, 2, 8).unwrap().ideal_total(), 8);
    /// ```
    pub fn ideal_total(&self) -> u64 {
        self.ideal.iter().map(|&w| w as u64).sum()
    }
    /// True when every instruction reaches its ideal.
    ///
    /// ```
    /// use cute::{bank_conflicts, ComposedLayout, Layout};
    /// let ldm: Layout = "((8,4),(8,2)):((1,64),(8,256))".parse().unwrap();
    /// let smem: Layout = "(8,64):(64,1)".parse().unwrap();
    /// assert!(!bank_conflicts(&smem, &ldm, 2, 8).unwrap().is_conflict_free());
    /// let sw: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse().unwrap();
    /// assert!(bank_conflicts(&sw, &ldm, 2, 8).unwrap().is_conflict_free());
    /// ```
    pub fn is_conflict_free(&self) -> bool {
        self.wavefronts == self.ideal
    }
}

/// The element offsets of one pattern: `offs[(j·32 + t)·V + k]` for value `k` of thread `t` in
/// instruction `j`, before any swizzle of the search.
struct Gathered {
    instructions: usize,
    offs: Vec<i64>,
}

/// Wraps an error of the analysis with its operation and operands.
fn tag(e: Error, op: Op, smem: Operand, tv: &Layout) -> Error {
    e.retag(op).with(smem, Operand::Layout(*tv))
}

const fn access_error(t: usize, j: usize, value: i64, what: &'static str) -> Error {
    Error::new(
        Op::BankConflicts,
        ErrorKind::VectorAccess {
            thread: t as i64,
            instruction: j as i64,
            value,
            what,
        },
    )
}

/// Checks the TV layout and evaluates SMEM at every value it names.
fn gather<S: SmemLayout + ?Sized>(smem: &S, tv: &Layout, acc: Access) -> Result<Gathered, Error> {
    if tv.rank() < 2 {
        return Err(Error::new(
            Op::BankConflicts,
            ErrorKind::ProfileMismatch {
                what: "the TV layout needs a thread mode and a value mode, rank at least 2",
                left: tv.rank() as i64,
                right: 2,
            },
        ));
    }
    let threads = tv.mode(0)?.size();
    if threads != WARP as i64 {
        return Err(Error::new(
            Op::BankConflicts,
            ErrorKind::ProfileMismatch {
                what: "the thread mode (mode 0) of the TV layout must have size 32, one warp",
                left: threads,
                right: WARP as i64,
            },
        ));
    }
    let total = tv.size();
    if total > MAX_VALUES {
        return Err(Error::new(
            Op::BankConflicts,
            ErrorKind::Capacity {
                what: "values of the TV layout in one bank analysis",
                limit: MAX_VALUES as usize,
            },
        ));
    }
    let values = total / WARP as i64;
    let v = acc.vector;
    if values % v != 0 {
        return Err(Error::new(
            Op::BankConflicts,
            ErrorKind::Divisibility {
                mode: 1,
                value: values,
                divisor: v,
                what: "the value mode of the TV layout splits into instructions of V values",
            },
        ));
    }
    let instructions = (values / v) as usize;
    let n = smem.size();
    let v = v as usize;
    let mut offs = Vec::with_capacity(total as usize);
    for j in 0..instructions {
        for t in 0..WARP {
            for k in 0..v {
                let idx = (t + WARP * (j * v + k)) as i64;
                let c = tv.eval(idx)?;
                if c < 0 || c >= n {
                    return Err(access_error(
                        t,
                        j,
                        c,
                        "the TV layout sends a value outside the SMEM domain, to the tile coordinate",
                    ));
                }
                offs.push(smem.offset(c)?);
            }
        }
    }
    Ok(Gathered { instructions, offs })
}

/// The byte address of every thread's vector in instruction `j`, the offsets mapped by `map`
/// (a swizzle of the search, or the identity). Refuses an access that is not one aligned vector.
fn addresses(
    g: &Gathered,
    acc: Access,
    j: usize,
    map: impl Fn(i64) -> i64,
) -> Result<[i64; WARP], Error> {
    let v = acc.vector as usize;
    let mut out = [0i64; WARP];
    for (t, slot) in out.iter_mut().enumerate() {
        let base = (j * WARP + t) * v;
        let e = map(g.offs[base]);
        for k in 1..v {
            let ek = map(g.offs[base + k]);
            if ek != e.wrapping_add(k as i64) {
                return Err(access_error(
                    t,
                    j,
                    ek,
                    "the V values of one access are not consecutive elements of shared memory: \
                     a later value is at element offset",
                ));
            }
        }
        if e < 0 {
            return Err(access_error(
                t,
                j,
                e,
                "the access starts at a negative element offset",
            ));
        }
        let a = match e.checked_mul(acc.elem_bytes) {
            Some(a) if a.checked_add(acc.width()).is_some() => a,
            _ => {
                return Err(Error::new(
                    Op::BankConflicts,
                    ErrorKind::Overflow {
                        what: "a byte address",
                    },
                ))
            }
        };
        if a % acc.width() != 0 {
            return Err(access_error(
                t,
                j,
                e,
                "the access is not aligned to its width V·B: it starts at element offset",
            ));
        }
        *slot = a;
    }
    Ok(out)
}

/// The wavefronts of one instruction whose threads access `W` bytes at the byte addresses `addr`.
fn wavefronts(addr: &[i64; WARP], acc: Access) -> u32 {
    let per = acc.threads_per_phase();
    let words_each = (acc.width() / BANK_BYTES) as usize;
    let mut total = 0;
    for phase in 0..acc.phases() {
        // every phase touches exactly 32 words
        let mut words = [0i64; WARP];
        let mut n = 0;
        for &a in &addr[phase * per..(phase + 1) * per] {
            for w in 0..words_each {
                words[n] = a / BANK_BYTES + w as i64;
                n += 1;
            }
        }
        words.sort_unstable();
        let mut count = [0u32; BANKS as usize];
        let mut worst = 1;
        for (i, &w) in words.iter().enumerate() {
            if i > 0 && words[i - 1] == w {
                continue; // a broadcast: the same word again
            }
            let b = w.rem_euclid(BANKS) as usize;
            count[b] += 1;
            worst = worst.max(count[b]);
        }
        total += worst;
    }
    total
}

/// The wavefronts of a gathered pattern under `map`; `Err` names the first access that is not one
/// aligned vector.
fn report(g: &Gathered, acc: Access, map: impl Fn(i64) -> i64 + Copy) -> Result<BankReport, Error> {
    let mut w = Vec::with_capacity(g.instructions);
    for j in 0..g.instructions {
        w.push(wavefronts(&addresses(g, acc, j, map)?, acc));
    }
    Ok(BankReport {
        instructions: g.instructions,
        wavefronts: w,
        ideal: vec![acc.phases() as u32; g.instructions],
    })
}

/// The wavefronts per instruction of the access pattern `tv` on the shared-memory layout `smem`,
/// with `vector` values of `elem_bytes` bytes per access (see the [module](self) documentation).
///
/// ```
/// use cute::{bank_conflicts, Layout};
/// let column: Layout = "(32,1):(1,0)".parse().unwrap(); // thread t reads row t, column 0
/// let smem: Layout = "(32,32):(32,1)".parse().unwrap(); // row-major 32x32 floats
/// assert_eq!(bank_conflicts(&smem, &column, 4, 1).unwrap().wavefronts, vec![32]);
/// let padded: Layout = "(32,32):(33,1)".parse().unwrap();
/// assert_eq!(bank_conflicts(&padded, &column, 4, 1).unwrap().wavefronts, vec![1]);
/// assert_eq!(bank_conflicts(&smem, &column, 4, 3).unwrap_err().to_string(), "bank_conflicts (32,32):(32,1), (32,1):(1,0): the access width V·B = 3·4 = 12 bytes must be 4, 8 or 16 bytes");
/// ```
///
/// # Errors
///
/// Fails (operation `bank_conflicts`, operands `smem` and `tv`) when `V·B` is not 4, 8 or 16, the
/// thread mode of `tv` is not 32, `V` does not divide the value mode, `tv` leaves the domain of
/// `smem`, or an access is not `V` consecutive elements aligned to `V·B` bytes (the error names the
/// thread and the instruction).
pub fn bank_conflicts<S: SmemLayout + ?Sized>(
    smem: &S,
    tv: &Layout,
    elem_bytes: i64,
    vector: i64,
) -> Result<BankReport, Error> {
    let op = Op::BankConflicts;
    let acc = Access::new(elem_bytes, vector).map_err(|e| tag(e, op, smem.operand(), tv))?;
    let g = gather(smem, tv, acc).map_err(|e| tag(e, op, smem.operand(), tv))?;
    report(&g, acc, |o| o).map_err(|e| tag(e, op, smem.operand(), tv))
}

/// The byte address in shared memory of every thread's access, per instruction (`[j][t]`): the
/// table a kernel needs to replay the pattern.
///
/// ```
/// use cute::{banks::access_addresses, Layout};
/// let column: Layout = "(32,1):(1,0)".parse().unwrap();
/// let smem: Layout = "(32,32):(32,1)".parse().unwrap();
/// let a = access_addresses(&smem, &column, 4, 1).unwrap();
/// assert_eq!((a.len(), a[0][1], a[0][31]), (1, 128, 31 * 128));
/// ```
///
/// # Errors
///
/// Fails as [`bank_conflicts`].
pub fn access_addresses<S: SmemLayout + ?Sized>(
    smem: &S,
    tv: &Layout,
    elem_bytes: i64,
    vector: i64,
) -> Result<Vec<[i64; WARP]>, Error> {
    let op = Op::BankConflicts;
    let acc = Access::new(elem_bytes, vector).map_err(|e| tag(e, op, smem.operand(), tv))?;
    let g = gather(smem, tv, acc).map_err(|e| tag(e, op, smem.operand(), tv))?;
    (0..g.instructions)
        .map(|j| addresses(&g, acc, j, |o| o).map_err(|e| tag(e, op, smem.operand(), tv)))
        .collect()
}

/// The candidates of [`swizzle_search`], cheapest first: the identity `Sw<0,0,0>`, then
/// `Sw<B,M,S>` for `B` in 1..=5, `M` in 0..=7, `S` in `B..=10`, ordered by `B`, then `M`, then `S`.
///
/// ```
/// use cute::banks::search_candidates;
/// let c: Vec<String> = search_candidates().map(|s| s.to_string()).collect();
/// assert_eq!(&c[..3], &["Sw<0,0,0>", "Sw<1,0,1>", "Sw<1,0,2>"]);
/// assert_eq!(c.len(), 1 + 8 * (10 + 9 + 8 + 7 + 6));
/// ```
pub fn search_candidates() -> impl Iterator<Item = Swizzle> {
    let rest = (1..=5i64).flat_map(|b| {
        (0..=7i64).flat_map(move |m| (b..=10i64).filter_map(move |s| Swizzle::new(b, m, s).ok()))
    });
    core::iter::once(Swizzle::IDENTITY).chain(rest)
}

/// What [`swizzle_search`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwizzleSearch {
    /// The cheapest swizzle that makes every pattern conflict-free, or (when none does) the one
    /// with the fewest wavefronts in total.
    pub swizzle: Swizzle,
    /// `swizzle ∘ SMEM`.
    pub layout: ComposedLayout,
    /// The analysis of every pattern with `swizzle`, in the order given.
    pub reports: Vec<BankReport>,
    /// True when every instruction of every pattern reaches its ideal with `swizzle`; false when
    /// no candidate does (then `swizzle` is the best found).
    pub conflict_free: bool,
    /// The number of candidates analysed.
    pub tried: usize,
}

/// The cheapest `Sw<B,M,S>` such that `Sw ∘ smem` (the swizzle applied to the element offsets of
/// `smem`) serves every pattern of `patterns` in its ideal number of wavefronts.
///
/// Cheapest means the first of [`search_candidates`]: no swizzle if none is needed, then the
/// fewest bits `B`, then the smallest `M`, then the smallest `S`. A candidate is rejected when it
/// breaks one of the vector accesses (the `V` elements of an access must stay consecutive and
/// aligned) or moves an offset of `smem` outside the range of offsets `smem` spans (the swizzled
/// tile must fit in the same memory). When no candidate is conflict-free the result is the one
/// with the fewest wavefronts over all patterns (the cheapest among equals), with
/// `conflict_free = false`.
///
/// ```
/// use cute::{swizzle_search, Layout};
/// let column: Layout = "(32,1):(1,0)".parse().unwrap();
/// let smem: Layout = "(32,32):(32,1)".parse().unwrap();
/// let found = swizzle_search(&smem, &[column], 4, 1).unwrap();
/// assert!(found.conflict_free);
/// assert_eq!(found.swizzle.to_string(), "Sw<5,0,5>"); // row t's words XORed into banks t
/// assert_eq!(found.reports[0].wavefronts, vec![1]);
/// ```
///
/// # Errors
///
/// Fails (operation `swizzle_search`) as [`bank_conflicts`] on any pattern without a swizzle, when
/// `patterns` is empty, when `smem` is already swizzled, or when its domain exceeds
/// [`MAX_SMEM_SIZE`].
pub fn swizzle_search<S: SmemLayout + ?Sized>(
    smem: &S,
    patterns: &[Layout],
    elem_bytes: i64,
    vector: i64,
) -> Result<SwizzleSearch, Error> {
    let op = Op::SwizzleSearch;
    let whole = |e: Error| e.retag(op).with(smem.operand(), Operand::None);
    if patterns.is_empty() {
        return Err(whole(Error::new(
            op,
            ErrorKind::Unsupported {
                what: "swizzle_search needs at least one access pattern",
            },
        )));
    }
    let base = smem.with_swizzle(Swizzle::IDENTITY).map_err(whole)?;
    let acc = Access::new(elem_bytes, vector).map_err(whole)?;
    let mut gathered = Vec::with_capacity(patterns.len());
    let mut plain = Vec::with_capacity(patterns.len());
    for tv in patterns {
        let g = gather(smem, tv, acc).map_err(|e| tag(e, op, smem.operand(), tv))?;
        // the patterns must be vector accesses as given
        plain.push(report(&g, acc, |o| o).map_err(|e| tag(e, op, smem.operand(), tv))?);
        gathered.push(g);
    }
    let result =
        |sw: Swizzle, reports: Vec<BankReport>, conflict_free: bool, tried: usize| SwizzleSearch {
            swizzle: sw,
            layout: ComposedLayout::new(sw, base.offset, base.layout),
            reports,
            conflict_free,
            tried,
        };
    let total = |reports: &[BankReport]| reports.iter().map(BankReport::total).sum::<u64>();
    let free = |reports: &[BankReport]| reports.iter().all(BankReport::is_conflict_free);
    // the first candidate: no swizzle
    if free(&plain) {
        return Ok(result(Swizzle::IDENTITY, plain, true, 1));
    }
    // the offsets smem reaches, and their range
    let n = smem.size();
    if n > MAX_SMEM_SIZE {
        return Err(whole(Error::new(
            op,
            ErrorKind::Capacity {
                what: "elements of the SMEM layout in a swizzle search",
                limit: MAX_SMEM_SIZE as usize,
            },
        )));
    }
    let mut image = Vec::with_capacity(n as usize);
    for i in 0..n {
        image.push(smem.offset(i).map_err(whole)?);
    }
    image.sort_unstable();
    image.dedup();
    let (lo, hi) = (image[0], image[image.len() - 1]);
    let fits = |sw: &Swizzle| {
        image.iter().all(|&o| {
            let x = sw.apply(o);
            lo <= x && x <= hi
        })
    };

    let mut best = (total(&plain), Swizzle::IDENTITY, plain);
    let mut tried = 1;
    for sw in search_candidates().skip(1) {
        tried += 1;
        let map = move |o: i64| sw.apply(o);
        let Some(reports) = gathered
            .iter()
            .map(|g| report(g, acc, map).ok())
            .collect::<Option<Vec<BankReport>>>()
        else {
            continue; // a vector access broken
        };
        let (t, f) = (total(&reports), free(&reports));
        if !(f || t < best.0) || !fits(&sw) {
            continue;
        }
        if f {
            return Ok(result(sw, reports, true, tried));
        }
        best = (t, sw, reports);
    }
    Ok(result(best.1, best.2, false, tried))
}
