//! `TiledMMA`: an MMA atom tiled over an `(M, N, K)` layout of atoms, with a permutation of each
//! mode of the tile (CuTe's `make_tiled_mma(atom, atom_layout, permutation)`).
//!
//! With `V` the atom's threads and `(ThrM, ThrN, ThrK)` the atom layout's shape, the threads are
//! `thr_layout_vmnk = tiled_product(ThrID, atom_layout)`: `(V, ThrM, ThrN, ThrK) ↦ thread index`.
//! The tile is `permutation_mnk(i)` in each mode (the atom's extent times the atoms in that mode
//! when the permutation is `_`). `thrfrg_c(C)` rewrites an `(M, N)` data layout as
//! `((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))`: reorder by the permutation (`logical_divide`),
//! tile by the atom (`zipped_divide`), read the atom's tile through its C layout (composition), and
//! split the rest among the atoms (`zipped_divide`); A and B alike with `(M, K)` and `(N, K)`.

use super::{compose_mode0, frees, not_divisible};
use crate::algebra::composition::composition_tiler;
use crate::algebra::divide::{logical_divide, zipped_divide};
use crate::algebra::inverse::right_inverse;
use crate::algebra::product::tiled_product;
use crate::atom::MmaAtom;
use crate::error::{Error, ErrorKind, Op};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::slice::{slice_and_offset, PartialCoord};
use crate::tiler::{Tile, Tiler};

/// A tiled MMA: the atom, the threads `(V, ThrM, ThrN, ThrK) ↦ thread` and the permutation of
/// `(M, N, K)`. Built by [`make_tiled_mma`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledMma {
    atom: MmaAtom,
    thr_layout_vmnk: Layout,
    permutation: [Tile; 3],
}

/// CuTe's `make_tiled_mma(atom, atom_layout, permutation)`: the atom repeated over `atom_layout`
/// (`(ThrM, ThrN, ThrK) ↦ atom index`, padded to rank 3 with `1:0`) with each mode of the tile
/// reordered by `permutation` (a by-mode tiler of rank ≤ 3, padded with `_`; `_` keeps the mode in
/// order; a tile must be a permutation of `0..size`). The contract: each tile extent is a multiple of the atom's extent times the atoms in
/// that mode (CuTe does not check it and returns a layout that misses values).
///
/// ```
/// use cute::atom::{mma_sm80_16x8x16, DType};
/// use cute::tiled::make_tiled_mma;
/// let atom = mma_sm80_16x8x16(DType::F16)?;
/// let mma = make_tiled_mma(&atom, &"(2,2,1):(1,2,0)".parse()?, &"<32,(2,4,2):(1,4,2),16>".parse()?)?;
/// assert_eq!(mma.thr_layout_vmnk().to_string(), "(32,2,2,1):(1,32,64,0)");
/// assert_eq!(mma.tile_shape(), (32, 16, 16));
/// // (4,4):(1,8) is no permutation of 0..16
/// assert!(make_tiled_mma(&atom, &"(2,2,1):(1,2,0)".parse()?, &"<32,(4,4):(1,8),16>".parse()?).is_err());
/// // a 16-row tile cannot hold two 16-row atoms
/// assert!(make_tiled_mma(&atom, &"(2,1,1):(1,0,0)".parse()?, &"<16,_,_>".parse()?).is_err());
/// // (2,2):(1,1) gives two atoms the same threads
/// assert!(make_tiled_mma(&atom, &"(2,2,1):(1,1,0)".parse()?, &"<_,_,_>".parse()?).is_err());
/// # Ok::<(), cute::Error>(())
/// ```
///
/// # Errors
///
/// `Unsupported` when `atom_layout` has rank above 3 or does not number the atoms `0..size`
/// one-to-one, `permutation` is not a by-mode tiler of rank ≤ 3 with one tile per mode, one of its
/// tiles is not a permutation of `0..size`, or a tile divided into the atom's extent and the rest
/// among the atoms is no layout; `ProfileMismatch` when a tile extent is not a multiple of the
/// atom extent times the atoms in that mode; the errors of [`tiled_product`] and of the
/// thread-value layouts ([`TiledMma::get_layout_a_tv`]), which are built here once to check them.
pub fn make_tiled_mma(
    atom: &MmaAtom,
    atom_layout: &Layout,
    permutation: &Tiler,
) -> Result<TiledMma, Error> {
    const OP: Op = Op::Named("make_tiled_mma");
    if atom_layout.rank() > 3 {
        return Err(Error::new(
            OP,
            ErrorKind::Unsupported {
                what: "the atom layout has rank at most 3, (M, N, K)",
            },
        ));
    }
    if permutation.is_single() && !matches!(permutation.single(), Some(Tile::Whole)) {
        return Err(Error::new(
            OP,
            ErrorKind::Unsupported {
                what: "the permutation is a by-mode tiler <M, N, K> (each mode its own tile)",
            },
        ));
    }
    let ranked = if permutation.is_single() {
        0
    } else {
        permutation.rank()
    };
    // a by-mode tiler holds one tile per mode: more tiles than modes means a nested mode
    let nested = ranked > 0 && permutation.tile_count() != ranked;
    if ranked > 3 || nested {
        return Err(Error::new(
            OP,
            ErrorKind::Unsupported {
                what: "the permutation has at most 3 modes, one tile each (no nested tilers)",
            },
        ));
    }
    let mut perm = [Tile::Whole; 3];
    for (i, p) in perm.iter_mut().enumerate().take(ranked) {
        *p = permutation.tile(i);
        if let Some(l) = p.layout()? {
            if !is_permutation(&l)? {
                return Err(Error::new(
                    OP,
                    ErrorKind::Unsupported {
                        what: "each tile of the permutation must be a permutation of 0..size (a bijection onto its size); CuTe takes any layout and then places values outside the tile",
                    },
                )
                .with(crate::error::Operand::Layout(l), crate::error::Operand::None));
            }
        }
    }
    if !is_permutation(atom_layout)? {
        return Err(Error::new(
            OP,
            ErrorKind::Unsupported {
                what: "the atom layout must number the atoms 0..size one-to-one (a bijection onto 0..size); CuTe takes any layout and then gives two atoms one thread index, or none",
            },
        )
        .with(crate::error::Operand::Layout(*atom_layout), crate::error::Operand::None));
    }
    let thr = tiled_product(&atom.thr_id, &Tiler::layout(atom_layout.pad_to_rank(3)?))?;
    let mma = TiledMma {
        atom: *atom,
        thr_layout_vmnk: thr,
        permutation: perm,
    };
    let atom_mnk = [atom.shape_mnk.0, atom.shape_mnk.1, atom.shape_mnk.2];
    for (i, &a) in atom_mnk.iter().enumerate() {
        let core = a * thr.mode(i + 1)?.size();
        let tile = mma.tile_size(i)?;
        if tile % core != 0 {
            return Err(not_divisible(
                "make_tiled_mma",
                "a tile extent of the permutation must be a multiple of the atom extent times the atoms in that mode: tile, atom × atoms",
                tile,
                core,
            ));
        }
        // thrfrg divides the tile by the atom's extent and the rest among the atoms: both must
        // be layouts, else every thread-value layout and partition would fail later
        let p = mma.permutation_mnk(i)?;
        let by_atom = logical_divide(&Layout::leaf(tile, 1)?, &Tiler::tiles(&[Tile::Layout(p)])?)
            .and_then(|t| zipped_divide(&t, &Tiler::tiles(&[Tile::Int(a)])?));
        let by_thr = by_atom.and_then(|d| {
            zipped_divide(
                &d.mode(1)?,
                &Tiler::tiles(&[Tile::Int(thr.mode(i + 1)?.size())])?,
            )
        });
        if by_thr.is_err() {
            return Err(Error::new(
                OP,
                ErrorKind::Unsupported {
                    what: "a tile of the permutation, divided into the atom's extent and the rest among the atoms, must be a layout (each atom's values a layout of the tile); this one is not",
                },
            )
            .with(
                crate::error::Operand::Layout(p),
                crate::error::Operand::Int(a),
            ));
        }
    }
    // the thread-value layouts every later query reads
    for tv in [
        TiledMma::get_layout_a_tv,
        TiledMma::get_layout_b_tv,
        TiledMma::get_layout_c_tv,
    ] {
        if let Err(e) = tv(&mma) {
            return Err(Error::new(OP, *e.kind()).with(*e.lhs(), *e.rhs()));
        }
    }
    Ok(mma)
}

/// Whether `l` maps `0..size(l)` one-to-one onto `0..size(l)`: with its extent-1 leaves dropped
/// and the rest ordered by stride, the strides are 1 and the running products of the extents
/// (a compact layout with its modes permuted). Decided from the leaves, with no enumeration (the
/// tiles of a permutation come from the caller and may be of any size).
fn is_permutation(l: &Layout) -> Result<bool, Error> {
    if !l.is_integral() {
        return Ok(false);
    }
    let mut leaves: Vec<(i64, i64)> = (0..l.leaf_count())
        .map(|j| l.leaf_at(j))
        .filter(|&(s, _)| s != 1)
        .collect();
    leaves.sort_by_key(|&(_, d)| d);
    let mut next = 1i64;
    for (s, d) in leaves {
        if d != next {
            return Ok(false);
        }
        next = match next.checked_mul(s) {
            Some(x) => x,
            None => return Ok(false),
        };
    }
    Ok(true)
}

impl TiledMma {
    /// The atom.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x8_tf32};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x8_tf32()?, &"1:0".parse()?, &"<_>".parse()?)?;
    /// assert_eq!(mma.atom().shape_mnk, (16, 8, 8));
    /// # Ok::<(), cute::Error>(())
    /// ```
    pub fn atom(&self) -> &MmaAtom {
        &self.atom
    }

    /// `(V, ThrM, ThrN, ThrK) ↦ thread index`: CuTe's `get_thr_layout_vmnk()`.
    ///
    /// ```
    /// use cute::atom::{wgmma_64xnx16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&wgmma_64xnx16(128, DType::F16)?, &"(2,1,1):(1,0,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// assert_eq!(mma.thr_layout_vmnk().to_string(), "(128,2,1,1):(1,128,0,0)");
    /// # Ok::<(), cute::Error>(())
    /// ```
    pub fn thr_layout_vmnk(&self) -> Layout {
        self.thr_layout_vmnk
    }

    /// Threads of the tiled MMA: `size(thr_layout_vmnk)`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(4,1,1):(1,0,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// assert_eq!(mma.size(), 128);
    /// # Ok::<(), cute::Error>(())
    /// ```
    pub fn size(&self) -> i64 {
        self.thr_layout_vmnk.size()
    }

    /// The permutation of mode `i` (0: M, 1: N, 2: K) as a layout: the given tile, or for `_`
    /// `(atom extent × atoms in the mode):1`. CuTe's `permutation_mnk<I>()`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,(2,4,2):(1,4,2)>".parse()?)?;
    /// assert_eq!(mma.permutation_mnk(0)?.to_string(), "32:1");
    /// assert_eq!(mma.permutation_mnk(1)?.to_string(), "(2,4,2):(1,4,2)");
    /// assert!(mma.permutation_mnk(3).is_err());
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// `NotInDomain` for `i` above 2.
    pub fn permutation_mnk(&self, i: usize) -> Result<Layout, Error> {
        if i > 2 {
            return Err(Error::new(
                Op::Named("permutation_mnk"),
                ErrorKind::NotInDomain {
                    coord: i as i64,
                    size: 3,
                },
            ));
        }
        match self.permutation[i].layout()? {
            Some(l) => Ok(l),
            None => {
                let a = [
                    self.atom.shape_mnk.0,
                    self.atom.shape_mnk.1,
                    self.atom.shape_mnk.2,
                ][i];
                Layout::leaf(a * self.thr_layout_vmnk.mode(i + 1)?.size(), 1)
            }
        }
    }

    /// The tile extent of mode `i`: `size(permutation_mnk(i))`. CuTe's `tile_size<I>(mma)`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,32,_>".parse()?)?;
    /// assert_eq!((mma.tile_size(0)?, mma.tile_size(1)?), (32, 32));
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// `NotInDomain` for `i` above 2.
    pub fn tile_size(&self, i: usize) -> Result<i64, Error> {
        Ok(self.permutation_mnk(i)?.size())
    }

    /// `(M, N, K)` of the tile: CuTe's `tile_shape(mma)`.
    ///
    /// ```
    /// use cute::atom::{wgmma_64xnx16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&wgmma_64xnx16(64, DType::Bf16)?, &"(4,1,1):(1,0,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// assert_eq!(mma.tile_shape(), (256, 64, 16));
    /// # Ok::<(), cute::Error>(())
    /// ```
    pub fn tile_shape(&self) -> (i64, i64, i64) {
        // the three modes exist by construction
        let t = |i| self.tile_size(i).unwrap_or(0);
        (t(0), t(1), t(2))
    }

    /// The shared steps of `thrfrg_a/b/c`: `data` tiled by the permutations of modes `i` and `j`,
    /// by the atom's extents in them, read through the atom's `tv`, and split among the atoms
    /// of modes `i` and `j`.
    fn thrfrg(&self, data: &Layout, i: usize, j: usize, tv: &Layout) -> Result<Layout, Error> {
        if data.rank() < 2 {
            return Err(Error::new(
                Op::Named("thrfrg"),
                ErrorKind::ProfileMismatch {
                    what: "the data layout of a tiled MMA partition has rank at least 2; rank",
                    left: data.rank() as i64,
                    right: 2,
                },
            )
            .with(
                crate::error::Operand::Layout(*data),
                crate::error::Operand::None,
            ));
        }
        let op = ["thrfrg_A", "thrfrg_B", "thrfrg_C"][if j == 1 { 2 } else { i }];
        super::check_covered(op, data, &[self.tile_size(i)?, self.tile_size(j)?])?;
        let atom = [
            self.atom.shape_mnk.0,
            self.atom.shape_mnk.1,
            self.atom.shape_mnk.2,
        ];
        let perm = Tiler::tiles(&[
            Tile::Layout(self.permutation_mnk(i)?),
            Tile::Layout(self.permutation_mnk(j)?),
        ])?;
        let t = logical_divide(data, &perm)?;
        let a = zipped_divide(
            &t,
            &Tiler::tiles(&[Tile::Int(atom[i]), Tile::Int(atom[j])])?,
        )?;
        let tvt = compose_mode0(&a, tv)?; // ((ThrV,FrgV),(RestI,RestJ,...))
        let thr = Tiler::tiles(&[
            Tile::Int(self.thr_layout_vmnk.mode(i + 1)?.size()),
            Tile::Int(self.thr_layout_vmnk.mode(j + 1)?.size()),
        ])?;
        let rest = zipped_divide(&tvt.mode(1)?, &thr)?; // ((ThrI,ThrJ),(RestI',RestJ',...))
        let m0 = tvt.mode(0)?;
        Layout::concat(&[
            Layout::concat(&[m0.mode(0)?, rest.mode(0)?])?,
            Layout::concat(&[m0.mode(1)?, rest.mode(1)?])?,
        ])
    }

    /// CuTe's `thrfrg_A`: the `(M, K, ...)` layout `a` as `((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK,...)))`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// let f = mma.thrfrg_a(&"(32,16):(1,32)".parse()?)?;
    /// assert_eq!(f.shape().to_string(), "(((4,8),(2,1)),((2,2,2),(1,1)))");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// `ProfileMismatch` for a layout of rank below 2 or a data extent that is not a multiple of
    /// the tile's (a partial tile); the errors of the divisions and compositions.
    pub fn thrfrg_a(&self, a: &Layout) -> Result<Layout, Error> {
        self.thrfrg(a, 0, 2, &self.atom.a)
    }

    /// CuTe's `thrfrg_B`: the `(N, K, ...)` layout `b` as `((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK,...)))`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// assert_eq!(mma.thrfrg_b(&"(16,16):(1,16)".parse()?)?.size(), 256);
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TiledMma::thrfrg_a`].
    pub fn thrfrg_b(&self, b: &Layout) -> Result<Layout, Error> {
        self.thrfrg(b, 1, 2, &self.atom.b)
    }

    /// CuTe's `thrfrg_C`: the `(M, N, ...)` layout `c` as `((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,...)))`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// assert_eq!(mma.thrfrg_c(&"(32,16):(1,32)".parse()?)?.to_string(),
    ///            "(((4,8),(2,2)),((2,2),(1,1))):(((64,1),(16,256)),((32,8),(0,0)))");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TiledMma::thrfrg_a`].
    pub fn thrfrg_c(&self, c: &Layout) -> Result<Layout, Error> {
        self.thrfrg(c, 0, 1, &self.atom.c)
    }

    /// `thrfrg` of the compact `(M, K)` reference tile with its thread mode read through the
    /// threads of the tiled MMA: `thr_mode` turns `(ThrV,(ThrI,ThrJ))` into the thread index.
    fn layout_tv(
        &self,
        i: usize,
        j: usize,
        tv: &Layout,
        spread: Option<&Tiler>,
    ) -> Result<Layout, Error> {
        let r = Layout::flat(
            &[self.tile_size(i)?, self.tile_size(j)?],
            &[1, self.tile_size(i)?],
        )?;
        let mut l = self.thrfrg(&r, i, j, tv)?;
        if let Some(s) = spread {
            // (ThrV,(ThrI,ThrJ)) -> (ThrV,(ThrM,ThrN,ThrK)) up to nesting: the thread mode of one
            // operand is read through every thread of the mode it lacks (stride 0 there)
            let m0 = l.mode(0)?;
            let inner = composition_tiler(&m0.mode(1)?, s)?;
            l = Layout::concat(&[Layout::concat(&[m0.mode(0)?, inner])?, l.mode(1)?])?;
        }
        compose_mode0(&l, &right_inverse(&self.thr_layout_vmnk)?)
    }

    /// CuTe's `get_layoutA_TV()`: `(thread index, value) ↦ m + M·k` in the `(M, K)` tile.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// assert_eq!(mma.get_layout_a_tv()?.to_string(), "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of the divisions and compositions (none for a value of [`make_tiled_mma`]).
    pub fn get_layout_a_tv(&self) -> Result<Layout, Error> {
        let (m, n) = (
            self.thr_layout_vmnk.mode(1)?.size(),
            self.thr_layout_vmnk.mode(2)?.size(),
        );
        let s = Layout::flat(&[m, n], &[1, 0])?;
        self.layout_tv(
            0,
            2,
            &self.atom.a,
            Some(&Tiler::tiles(&[Tile::Layout(s), Tile::Whole])?),
        )
    }

    /// CuTe's `get_layoutB_TV()`: `(thread index, value) ↦ n + N·k` in the `(N, K)` tile.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// assert_eq!(mma.get_layout_b_tv()?.to_string(), "((4,8,2,2),((2,2),(1,1))):((32,1,0,8),((16,128),(0,0)))");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TiledMma::get_layout_a_tv`].
    pub fn get_layout_b_tv(&self) -> Result<Layout, Error> {
        let (m, n) = (
            self.thr_layout_vmnk.mode(1)?.size(),
            self.thr_layout_vmnk.mode(2)?.size(),
        );
        let s = Layout::flat(&[m, n], &[0, 1])?;
        self.layout_tv(
            1,
            2,
            &self.atom.b,
            Some(&Tiler::tiles(&[Tile::Layout(s), Tile::Whole])?),
        )
    }

    /// CuTe's `get_layoutC_TV()`: `(thread index, value) ↦ m + M·n` in the `(M, N)` tile.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// assert_eq!(mma.get_layout_c_tv()?.to_string(), "((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TiledMma::get_layout_a_tv`].
    pub fn get_layout_c_tv(&self) -> Result<Layout, Error> {
        self.layout_tv(0, 1, &self.atom.c, None)
    }

    /// [`TiledMma::get_layout_c_tv`] with every thread in the tile: `(thread index, value) ↦
    /// m + M·n`, a thread of the `k`-th atom along K holding the cells of its partner in the
    /// first (the partial sums a reduction over K adds), as [`TiledMma::get_layout_a_tv`] gives
    /// the threads of every atom along N the cells of A. Without atoms along K the two are the
    /// same. (CuTe's `get_layoutC_TV()` reads only the threads of the first atom along K: the
    /// others map past the tile, at `M·N` and above.) What pictures of C draw.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,2):(1,2,4)".parse()?, &"<_,_,_>".parse()?)?;
    /// let (c, every) = (mma.get_layout_c_tv()?, mma.get_layout_c_tv_every_k()?);
    /// // thread 128 is thread 0 of the second atom along K: the same C cells as thread 0
    /// assert_eq!(c.eval(128)?, 512);
    /// assert_eq!((every.eval(0)?, every.eval(128)?), (0, 0));
    /// assert_eq!(every.to_string(), "((4,8,2,2,2),((2,2),(1,1))):((64,1,16,256,0),((32,8),(0,0)))");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TiledMma::get_layout_a_tv`].
    pub fn get_layout_c_tv_every_k(&self) -> Result<Layout, Error> {
        let (n, k) = (
            self.thr_layout_vmnk.mode(2)?.size(),
            self.thr_layout_vmnk.mode(3)?.size(),
        );
        let s = Layout::flat(&[n, k], &[1, 0])?;
        self.layout_tv(
            0,
            1,
            &self.atom.c,
            Some(&Tiler::tiles(&[Tile::Whole, Tile::Layout(s)])?),
        )
    }

    /// The inverse view of an operand for pictures: `(I, J) ↦ (operand thread, value)` as the
    /// index `thread + threads·value`, and `operand thread ↦ thread index` (the thread layout with
    /// the other operand's mode fixed at 0).
    fn layout_mn(
        &self,
        i: usize,
        j: usize,
        tv: &Layout,
        fixed: usize,
    ) -> Result<(Layout, Layout), Error> {
        let (ti, tj) = (self.tile_size(i)?, self.tile_size(j)?);
        let r = Layout::flat(&[ti, tj], &[1, ti])?;
        let f = self.thrfrg(&r, i, j, tv)?;
        let shape = IntTuple::flat(&[ti, tj])?;
        let mn = crate::algebra::composition::with_shape(&right_inverse(&f)?, &shape)?;
        let mut c = vec![PartialCoord::FREE; 4];
        c[fixed] = PartialCoord::fixed(&IntTuple::int(0));
        let thr = crate::slice::slice(&self.thr_layout_vmnk, &PartialCoord::tuple(&c)?)?;
        Ok((mn, thr))
    }

    /// CuTe's `get_layoutC_MN()`, what `print_latex` draws: `(m, n) ↦ t + T·v` (thread `t` of the C
    /// threads and value `v`, `T = size` of the second layout) and `C thread ↦ thread index`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// let (mn, thr) = mma.get_layout_c_mn()?;
    /// let x = mn.eval_crd(&"(9,2)".parse()?)?;
    /// let (t, v) = (thr.eval(x % thr.size())?, x / thr.size());
    /// assert_eq!(mma.get_layout_c_tv()?.eval(t + mma.size() * v)?, 9 + 32 * 2);
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TiledMma::get_layout_a_tv`].
    pub fn get_layout_c_mn(&self) -> Result<(Layout, Layout), Error> {
        self.layout_mn(0, 1, &self.atom.c, 3)
    }

    /// CuTe's `get_layoutA_MK()`: `(m, k) ↦ t + T·v` and `A thread ↦ thread index`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// let (mk, thr) = mma.get_layout_a_mk()?;
    /// assert_eq!((mk.size(), thr.to_string().as_str()), (512, "(32,2,1):(1,32,0)"));
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TiledMma::get_layout_a_tv`].
    pub fn get_layout_a_mk(&self) -> Result<(Layout, Layout), Error> {
        self.layout_mn(0, 2, &self.atom.a, 2)
    }

    /// CuTe's `get_layoutB_NK()`: `(n, k) ↦ t + T·v` and `B thread ↦ thread index`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// let (nk, thr) = mma.get_layout_b_nk()?;
    /// assert_eq!((nk.size(), thr.to_string().as_str()), (256, "(32,2,1):(1,64,0)"));
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TiledMma::get_layout_a_tv`].
    pub fn get_layout_b_nk(&self) -> Result<(Layout, Layout), Error> {
        self.layout_mn(1, 2, &self.atom.b, 1)
    }

    /// CuTe's `get_slice(thr_idx)` (`get_thread_slice`): the thread's coordinate
    /// `(v, m, n, k)` in `thr_layout_vmnk`'s shape, for its partitions.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// assert_eq!(mma.thr_slice(65)?.vmnk(), [1, 0, 1, 0]);
    /// assert!(mma.thr_slice(128).is_err());
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// `NotInDomain` when `thread` is not in `0..size()`.
    pub fn thr_slice(&self, thread: i64) -> Result<ThrMma, Error> {
        super::check_thread(thread, self.size(), &self.thr_layout_vmnk)?;
        // CuTe's get_flat_coord: the coordinate that thr_layout_vmnk maps to `thread` (idx2crd by
        // the strides), one index per mode (colexicographic within a nested mode)
        let mut vmnk = [0i64; 4];
        for (k, x) in vmnk.iter_mut().enumerate() {
            let m = self.thr_layout_vmnk.mode(k)?;
            let (mut idx, mut prefix) = (0, 1);
            for i in 0..m.leaf_count() {
                let (s, d) = m.leaf_at(i);
                if d != 0 {
                    idx += (thread / d) % s * prefix;
                }
                prefix *= s;
            }
            *x = idx;
        }
        Ok(ThrMma {
            mma: self.clone(),
            vmnk,
        })
    }
}

/// One thread of a [`TiledMma`]: CuTe's `ThrMMA`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThrMma {
    mma: TiledMma,
    vmnk: [i64; 4],
}

impl ThrMma {
    /// The thread's coordinate `(v, m, n, k)` in `thr_layout_vmnk`'s shape.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// assert_eq!(mma.thr_slice(37)?.vmnk(), [5, 1, 0, 0]);
    /// # Ok::<(), cute::Error>(())
    /// ```
    pub fn vmnk(&self) -> [i64; 4] {
        self.vmnk
    }

    fn partition(&self, f: &Layout, i: usize, j: usize) -> Result<(Layout, i64), Error> {
        let fixed = |x: i64| PartialCoord::fixed(&IntTuple::int(x));
        let thr = PartialCoord::tuple(&[
            fixed(self.vmnk[0]),
            PartialCoord::tuple(&[fixed(self.vmnk[i]), fixed(self.vmnk[j])])?,
        ])?;
        let rest = PartialCoord::tuple(&[PartialCoord::FREE, frees(f.mode(1)?.mode(1)?.rank())?])?;
        slice_and_offset(f, &PartialCoord::tuple(&[thr, rest])?)
    }

    /// CuTe's `partition_A`: this thread's values of the `(M, K, ...)` data layout `a`, as
    /// `(FrgV, RestM, RestK, ...)` and the offset of its first value.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// let (l, off) = mma.thr_slice(37)?.partition_a(&"(64,64):(64,1)".parse()?)?;
    /// assert_eq!((l.to_string(), off), ("((2,2,2),2,4):((1,512,8),2048,16)".to_string(), 1090));
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`TiledMma::thrfrg_a`].
    pub fn partition_a(&self, a: &Layout) -> Result<(Layout, i64), Error> {
        self.partition(&self.mma.thrfrg_a(a)?, 1, 3)
    }

    /// CuTe's `partition_B`: this thread's values of the `(N, K, ...)` data layout `b`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// let (l, off) = mma.thr_slice(65)?.partition_b(&"(32,32):(32,1)".parse()?)?;
    /// assert_eq!((l.to_string(), off), ("((2,2),2,2):((1,8),512,16)".to_string(), 258));
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`TiledMma::thrfrg_b`].
    pub fn partition_b(&self, b: &Layout) -> Result<(Layout, i64), Error> {
        self.partition(&self.mma.thrfrg_b(b)?, 2, 3)
    }

    /// CuTe's `partition_C`: this thread's values of the `(M, N, ...)` data layout `c`.
    ///
    /// ```
    /// use cute::atom::{mma_sm80_16x8x16, DType};
    /// use cute::tiled::make_tiled_mma;
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// let (l, off) = mma.thr_slice(37)?.partition_c(&"(64,64):(64,1)".parse()?)?;
    /// assert_eq!((l.to_string(), off), ("((2,2),2,4):((1,512),2048,16)".to_string(), 1090));
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`TiledMma::thrfrg_c`].
    pub fn partition_c(&self, c: &Layout) -> Result<(Layout, i64), Error> {
        self.partition(&self.mma.thrfrg_c(c)?, 1, 2)
    }
}
