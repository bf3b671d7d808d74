//! `TiledCopy`: a copy atom tiled over a thread-value layout of a tile (CuTe's
//! `make_tiled_copy(atom, thr_layout, val_layout)` and `make_tiled_copy_A/B/C(atom, mma)`).
//!
//! A tiled copy is a layout `(thread, value) ↦ coordinate of the tile` (`layout_tv`), the tile's
//! shape (the tiler) and the atom whose instruction each group of threads executes, with its
//! layouts in elements of `elem_bits` bits. The atom's *reference* side (the register side) is the
//! one `layout_tv` describes; the source and the destination sides are read through
//! `right_inverse(ref) ∘ src` and `right_inverse(ref) ∘ dst`.

use super::{compose_mode0, frees, not_divisible, TiledMma};
use crate::algebra::coalesce::coalesce;
use crate::algebra::composition::{composition, with_shape};
use crate::algebra::divide::zipped_divide;
use crate::algebra::inverse::right_inverse;
use crate::algebra::product::logical_product;
use crate::algebra::recast::upcast;
use crate::atom::CopyAtom;
use crate::error::Error;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::partition::make_layout_tv;
use crate::slice::{slice, slice_and_offset, PartialCoord};
use crate::tiler::Tiler;

/// A tiled copy: the atom, the element width, `(thread, value) ↦ tile coordinate` and the tile's
/// shape. Built by [`make_tiled_copy`] and [`make_tiled_copy_a`] (`b`, `c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TiledCopy {
    atom: CopyAtom,
    elem_bits: i64,
    src: Layout,
    dst: Layout,
    reference: Layout,
    layout_tv: Layout,
    tiler: IntTuple,
}

/// CuTe's `make_tiled_copy_impl`: checks that the atom moves whole elements and that its threads
/// and values divide those of `layout_tv`.
fn make(
    atom: &CopyAtom,
    elem_bits: i64,
    layout_tv: Layout,
    tiler: IntTuple,
) -> Result<TiledCopy, Error> {
    const OP: &str = "make_tiled_copy";
    // whole elements: each thread's bits on either side hold a whole number of them (CuTe's
    // upcast would round a 64-bit element moved 32 bits at a time up to one element)
    for l in [&atom.src, &atom.dst] {
        let bits = l.mode(1)?.size();
        if elem_bits <= 0 || bits % elem_bits != 0 {
            return Err(not_divisible(
                OP,
                "the atom moves whole elements: the bits each thread moves must be a multiple of the element's bits: bits per thread, element bits",
                bits,
                elem_bits,
            ));
        }
    }
    let (src, dst, reference) = (
        upcast(&atom.src, elem_bits)?,
        upcast(&atom.dst, elem_bits)?,
        upcast(&atom.reference, elem_bits)?,
    );
    for l in [&src, &dst, &reference] {
        if l.rank() != 2 || l.mode(0)?.size() != atom.threads() {
            return Err(not_divisible(
                OP,
                "the atom's layouts in elements keep one mode per thread (the element width must divide the bits each thread moves): threads, atom threads",
                l.mode(0)?.size(),
                atom.threads(),
            ));
        }
    }
    if layout_tv.rank() != 2 {
        return Err(not_divisible(
            OP,
            "a thread-value layout has rank 2",
            layout_tv.rank() as i64,
            2,
        ));
    }
    let (nt, nv) = (layout_tv.mode(0)?.size(), layout_tv.mode(1)?.size());
    let (at, av) = (reference.mode(0)?.size(), reference.mode(1)?.size());
    if nt % at != 0 {
        return Err(not_divisible(
            OP,
            "the tiled copy's threads must be a multiple of the atom's: threads, atom threads",
            nt,
            at,
        ));
    }
    if nv % av != 0 {
        return Err(not_divisible(OP, "the tiled copy's values per thread must be a multiple of the atom's: values, atom values", nv, av));
    }
    Ok(TiledCopy {
        atom: *atom,
        elem_bits,
        src,
        dst,
        reference,
        layout_tv,
        tiler,
    })
}

/// CuTe's `make_tiled_copy(atom, thr_layout, val_layout)` for elements of `elem_bits` bits:
/// `layout_mn = raked_product(thr, val)`, `layout_tv = right_inverse(layout_mn)` shaped
/// `(size(thr), size(val))`, tiler `product_each(shape(layout_mn))` ([`make_layout_tv`]).
///
/// ```
/// use cute::atom::cp_async_16b;
/// use cute::tiled::make_tiled_copy;
/// let c = make_tiled_copy(&cp_async_16b()?, 16, &"(16,8):(8,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
/// assert_eq!((c.layout_tv().to_string(), c.tiler().to_string()), ("((8,16),8):((128,1),16)".to_string(), "(16,64)".to_string()));
/// // 8 values per thread cannot be moved 16 bytes at a time in 32-bit elements
/// assert!(make_tiled_copy(&cp_async_16b()?, 32, &"(16,8):(8,1)".parse()?, &"(1,2):(0,1)".parse()?).is_err());
/// # Ok::<(), cute::Error>(())
/// ```
///
/// # Errors
///
/// The errors of [`make_layout_tv`] (a `raked_product(thr, val)` that is not a bijection);
/// `ProfileMismatch` when the atom does not move whole elements of `elem_bits` bits, or its threads
/// or values per thread do not divide those of the tiled copy.
pub fn make_tiled_copy(
    atom: &CopyAtom,
    elem_bits: i64,
    thr: &Layout,
    val: &Layout,
) -> Result<TiledCopy, Error> {
    let (tiler, tv) = make_layout_tv(thr, val)?;
    make(atom, elem_bits, tv, tiler)
}

/// CuTe's `make_tiled_copy_A(atom, mma)`: the copy whose threads and values are those of the MMA's
/// A operand ([`TiledMma::get_layout_a_tv`]) on the `(M, K)` tile.
///
/// ```
/// use cute::atom::{ldmatrix, mma_sm80_16x8x16, DType};
/// use cute::tiled::{make_tiled_copy_a, make_tiled_mma};
/// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
/// let c = make_tiled_copy_a(&ldmatrix(4, false)?, 16, &mma)?;
/// assert_eq!(c.tiler().to_string(), "(32,16)");
/// # Ok::<(), cute::Error>(())
/// ```
///
/// # Errors
///
/// As [`make_tiled_copy`].
pub fn make_tiled_copy_a(
    atom: &CopyAtom,
    elem_bits: i64,
    mma: &TiledMma,
) -> Result<TiledCopy, Error> {
    let tiler = IntTuple::flat(&[mma.tile_size(0)?, mma.tile_size(2)?])?;
    make(atom, elem_bits, mma.get_layout_a_tv()?, tiler)
}

/// CuTe's `make_tiled_copy_B(atom, mma)`: the MMA's B operand on the `(N, K)` tile.
///
/// ```
/// use cute::atom::{ldmatrix, mma_sm80_16x8x16, DType};
/// use cute::tiled::{make_tiled_copy_b, make_tiled_mma};
/// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
/// let c = make_tiled_copy_b(&ldmatrix(2, false)?, 16, &mma)?;
/// assert_eq!(c.get_layout_s_tv()?.to_string(), "((8,2,4,2),(8,1)):((1,128,0,8),(16,0))");
/// # Ok::<(), cute::Error>(())
/// ```
///
/// # Errors
///
/// As [`make_tiled_copy`].
pub fn make_tiled_copy_b(
    atom: &CopyAtom,
    elem_bits: i64,
    mma: &TiledMma,
) -> Result<TiledCopy, Error> {
    let tiler = IntTuple::flat(&[mma.tile_size(1)?, mma.tile_size(2)?])?;
    make(atom, elem_bits, mma.get_layout_b_tv()?, tiler)
}

/// CuTe's `make_tiled_copy_C(atom, mma)`: the MMA's C operand on the `(M, N)` tile.
///
/// ```
/// use cute::atom::{mma_sm80_16x8x16, universal_copy, DType};
/// use cute::tiled::{make_tiled_copy_c, make_tiled_mma};
/// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
/// let c = make_tiled_copy_c(&universal_copy(32)?, 32, &mma)?;
/// assert_eq!(c.get_layout_d_tv()?.to_string(), "((4,8,2,2),(1,(2,2))):((64,1,16,256),(0,(32,8)))");
/// # Ok::<(), cute::Error>(())
/// ```
///
/// # Errors
///
/// As [`make_tiled_copy`]; and `ProfileMismatch` when the MMA has more than one atom along K: its
/// threads there hold partial sums of the same cells of C, to be reduced before a copy. (CuTe
/// builds the copy from `get_layoutC_TV()`, whose threads past the first atom along K map past
/// the tile.)
///
/// ```
/// use cute::atom::{mma_sm80_16x8x16, universal_copy, DType};
/// use cute::tiled::{make_tiled_copy_c, make_tiled_mma};
/// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,2):(1,2,4)".parse()?, &"<_,_,_>".parse()?)?;
/// let e = make_tiled_copy_c(&universal_copy(32)?, 32, &mma).unwrap_err().to_string();
/// assert!(e.contains("atoms along K"), "{e}");
/// # Ok::<(), cute::Error>(())
/// ```
pub fn make_tiled_copy_c(
    atom: &CopyAtom,
    elem_bits: i64,
    mma: &TiledMma,
) -> Result<TiledCopy, Error> {
    let k = mma.thr_layout_vmnk().mode(3)?.size();
    if k != 1 {
        return Err(not_divisible(
            "make_tiled_copy_C",
            "a copy of C needs the tiled MMA's threads to hold distinct cells of C, but its atoms along K hold partial sums of the same cells (reduce them first): atoms along K, allowed",
            k,
            1,
        )
        .with(
            crate::error::Operand::Layout(mma.thr_layout_vmnk()),
            crate::error::Operand::None,
        ));
    }
    let tiler = IntTuple::flat(&[mma.tile_size(0)?, mma.tile_size(1)?])?;
    make(atom, elem_bits, mma.get_layout_c_tv()?, tiler)
}

impl TiledCopy {
    /// The atom (its layouts in bits).
    ///
    /// ```
    /// use cute::atom::cp_async_16b;
    /// use cute::tiled::make_tiled_copy;
    /// let c = make_tiled_copy(&cp_async_16b()?, 16, &"(32,4):(4,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
    /// assert_eq!(c.atom().name, "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>");
    /// # Ok::<(), cute::Error>(())
    /// ```
    pub fn atom(&self) -> &CopyAtom {
        &self.atom
    }

    /// The width of the elements the copy moves, in bits (CuTe's `sizeof_bits<ValType>`).
    ///
    /// ```
    /// use cute::atom::cp_async_16b;
    /// use cute::tiled::make_tiled_copy;
    /// let c = make_tiled_copy(&cp_async_16b()?, 32, &"(32,4):(4,1)".parse()?, &"(1,4):(0,1)".parse()?)?;
    /// assert_eq!(c.elem_bits(), 32);
    /// # Ok::<(), cute::Error>(())
    /// ```
    pub fn elem_bits(&self) -> i64 {
        self.elem_bits
    }

    /// `(thread, value) ↦ coordinate of the tile` (colexicographic index): CuTe's `TiledLayout_TV`.
    ///
    /// ```
    /// use cute::atom::universal_copy;
    /// use cute::tiled::make_tiled_copy;
    /// let c = make_tiled_copy(&universal_copy(32)?, 32, &"(32,4):(1,32)".parse()?, &"(4,1):(1,0)".parse()?)?;
    /// assert_eq!(c.layout_tv().to_string(), "(128,4):(4,1)");
    /// # Ok::<(), cute::Error>(())
    /// ```
    pub fn layout_tv(&self) -> Layout {
        self.layout_tv
    }

    /// The tile's shape: CuTe's `Tiler_MN`.
    ///
    /// ```
    /// use cute::atom::universal_copy;
    /// use cute::tiled::make_tiled_copy;
    /// let c = make_tiled_copy(&universal_copy(32)?, 32, &"(32,4):(1,32)".parse()?, &"(4,1):(1,0)".parse()?)?;
    /// assert_eq!(c.tiler().to_string(), "(128,4)");
    /// # Ok::<(), cute::Error>(())
    /// ```
    pub fn tiler(&self) -> IntTuple {
        self.tiler
    }

    /// Threads of the tiled copy: `size<0>(layout_tv)`.
    ///
    /// ```
    /// use cute::atom::cp_async_16b;
    /// use cute::tiled::make_tiled_copy;
    /// let c = make_tiled_copy(&cp_async_16b()?, 16, &"(32,4):(4,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
    /// assert_eq!(c.size(), 128);
    /// # Ok::<(), cute::Error>(())
    /// ```
    pub fn size(&self) -> i64 {
        self.layout_tv.mode(0).map(|m| m.size()).unwrap_or(0)
    }

    /// `right_inverse(ref) ∘ side`: the atom's `(side thread, side value) ↦ (ref thread, ref value)`.
    fn ref2trg(&self, side: &Layout) -> Result<Layout, Error> {
        composition(&right_inverse(&self.reference)?, side)
    }

    /// CuTe's `tile2thrfrg`: the `((tile), (rest...))` layout `tensor` with its tile mode read
    /// through the threads and values of the copy on the side `ref2trg`:
    /// `(thread, (atom value, rest value), (rest...))`.
    fn tile2thrfrg(&self, tensor: &Layout, ref2trg: &Layout) -> Result<Layout, Error> {
        let (at, av) = (
            self.reference.mode(0)?.size(),
            self.reference.mode(1)?.size(),
        );
        let atom_tv = zipped_divide(
            &self.layout_tv,
            &Tiler::from_shape(&IntTuple::flat(&[at, av])?)?,
        )?;
        let trg = compose_mode0(&atom_tv, ref2trg)?; // ((trg_t,trg_v),(rest_t,rest_v))
        let (a, r) = (trg.mode(0)?, trg.mode(1)?);
        // zip and coalesce with the profile (1,(1,1)): (thread, (atom value, rest value))
        let thr = coalesce(&Layout::concat(&[a.mode(0)?, r.mode(0)?])?);
        let val = Layout::concat(&[coalesce(&a.mode(1)?), coalesce(&r.mode(1)?)])?;
        let thrval = Layout::concat(&[thr, val])?;
        let tv = compose_mode0(tensor, &thrval)?;
        let m0 = tv.mode(0)?;
        Layout::concat(&[m0.mode(0)?, m0.mode(1)?, tv.mode(1)?])
    }

    /// The size of each mode of the tiler.
    fn tiler_extents(&self) -> Result<Vec<i64>, Error> {
        let each = self.tiler.product_each()?;
        (0..each.rank().max(1))
            .map(|k| {
                if each.is_int() {
                    each.size()
                } else {
                    each.get(k)?.size()
                }
            })
            .collect()
    }

    /// CuTe's `tidfrg_S`: the data layout `s` as `(thread, value, (rest...))` on the source side.
    ///
    /// ```
    /// use cute::atom::cp_async_16b;
    /// use cute::tiled::make_tiled_copy;
    /// let c = make_tiled_copy(&cp_async_16b()?, 16, &"(16,8):(8,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
    /// assert_eq!(c.tidfrg_s(&"(16,64):(64,1)".parse()?)?.shape().to_string(), "((8,16),(8,1),(1,1))");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// `ProfileMismatch` when a mode of `s` is not a multiple of the tiler's extent in it (a
    /// partial tile); the errors of `zipped_divide(s, tiler)` and of the compositions.
    pub fn tidfrg_s(&self, s: &Layout) -> Result<Layout, Error> {
        super::check_covered("tidfrg_S", s, &self.tiler_extents()?)?;
        let t = zipped_divide(s, &Tiler::from_shape(&self.tiler)?)?;
        self.tile2thrfrg(&t, &self.ref2trg(&self.src)?)
    }

    /// CuTe's `tidfrg_D`: the data layout `d` as `(thread, value, (rest...))` on the destination side.
    ///
    /// ```
    /// use cute::atom::cp_async_16b;
    /// use cute::tiled::make_tiled_copy;
    /// let c = make_tiled_copy(&cp_async_16b()?, 16, &"(16,8):(8,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
    /// assert_eq!(c.tidfrg_d(&"(32,64):(64,1)".parse()?)?.size(), 2048);
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TiledCopy::tidfrg_s`].
    pub fn tidfrg_d(&self, d: &Layout) -> Result<Layout, Error> {
        super::check_covered("tidfrg_D", d, &self.tiler_extents()?)?;
        let t = zipped_divide(d, &Tiler::from_shape(&self.tiler)?)?;
        self.tile2thrfrg(&t, &self.ref2trg(&self.dst)?)
    }

    fn layout_side_tv(&self, side: &Layout) -> Result<Layout, Error> {
        let shape = IntTuple::tuple(&[self.tiler, IntTuple::int(1)])?;
        let r = crate::layout::compact_col_major(&shape)?;
        let f = self.tile2thrfrg(&r, &self.ref2trg(side)?)?;
        Layout::concat(&[f.mode(0)?, f.mode(1)?])
    }

    /// CuTe's `get_layoutS_TV()`: `(thread, value) ↦ tile coordinate` on the source side.
    ///
    /// ```
    /// use cute::atom::{ldmatrix, mma_sm80_16x8x16, DType};
    /// use cute::tiled::{make_tiled_copy_a, make_tiled_mma};
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// let c = make_tiled_copy_a(&ldmatrix(4, false)?, 16, &mma)?;
    /// assert_eq!(c.get_layout_s_tv()?.to_string(), "((16,2,2,2),(8,1)):((1,256,16,0),(32,0))");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of the compositions (none for a value of the constructors).
    pub fn get_layout_s_tv(&self) -> Result<Layout, Error> {
        self.layout_side_tv(&self.src)
    }

    /// CuTe's `get_layoutD_TV()`: `(thread, value) ↦ tile coordinate` on the destination side.
    ///
    /// ```
    /// use cute::atom::{ldmatrix, mma_sm80_16x8x16, DType};
    /// use cute::tiled::{make_tiled_copy_a, make_tiled_mma};
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// let c = make_tiled_copy_a(&ldmatrix(4, false)?, 16, &mma)?;
    /// assert_eq!(c.get_layout_d_tv()?.to_string(), "((4,8,2,2),((2,2,2),1)):((64,1,16,0),((32,8,256),0))");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TiledCopy::get_layout_s_tv`].
    pub fn get_layout_d_tv(&self) -> Result<Layout, Error> {
        self.layout_side_tv(&self.dst)
    }

    /// CuTe's `get_layoutS_MN()`, what `print_latex` draws: `(m, n) ↦ thread + threads·value` on
    /// the source side, and `thread ↦ thread index` (the identity of the copy's threads).
    ///
    /// ```
    /// use cute::atom::cp_async_16b;
    /// use cute::tiled::make_tiled_copy;
    /// let c = make_tiled_copy(&cp_async_16b()?, 16, &"(16,8):(8,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
    /// let (mn, thr) = c.get_layout_s_mn()?;
    /// // element (1, 9) of the 16×64 tile: thread 9 (row 1, column group 1), value 1
    /// let x = mn.eval_crd(&"(1,9)".parse()?)?;
    /// assert_eq!((thr.eval(x % thr.size())?, x / thr.size()), (9, 1));
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`right_inverse`] and [`with_shape`] (none for a value of the constructors).
    pub fn get_layout_s_mn(&self) -> Result<(Layout, Layout), Error> {
        self.layout_mn(&self.get_layout_s_tv()?)
    }

    /// CuTe's `get_layoutD_MN()`: `(m, n) ↦ thread + threads·value` on the destination side.
    ///
    /// ```
    /// use cute::atom::{ldmatrix, mma_sm80_16x8x16, DType};
    /// use cute::tiled::{make_tiled_copy_a, make_tiled_mma};
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// let (mn, thr) = make_tiled_copy_a(&ldmatrix(4, false)?, 16, &mma)?.get_layout_d_mn()?;
    /// assert_eq!((mn.size(), thr.size()), (512, 128));
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TiledCopy::get_layout_s_mn`].
    pub fn get_layout_d_mn(&self) -> Result<(Layout, Layout), Error> {
        self.layout_mn(&self.get_layout_d_tv()?)
    }

    fn layout_mn(&self, tv: &Layout) -> Result<(Layout, Layout), Error> {
        let mn = with_shape(&right_inverse(tv)?, &self.tiler)?;
        Ok((mn, Layout::leaf(self.size(), 1)?))
    }

    /// CuTe's `retile`: the fragment layout `frag` (`(V, rest...)`, V values of one thread in the
    /// order of the MMA's layout) reordered into the copy's values: `((atom values, rest), rest...)`.
    ///
    /// ```
    /// use cute::atom::{ldmatrix, mma_sm80_16x8x16, DType};
    /// use cute::tiled::{make_tiled_copy_a, make_tiled_mma};
    /// let mma = make_tiled_mma(&mma_sm80_16x8x16(DType::F16)?, &"(2,2,1):(1,2,0)".parse()?, &"<_,_,_>".parse()?)?;
    /// let c = make_tiled_copy_a(&ldmatrix(4, false)?, 16, &mma)?;
    /// let f = c.retile(&"((2,2,2),2,2):((1,2,4),8,16)".parse()?)?;
    /// assert_eq!(f.to_string(), "((8,1),2,2):((1,0),8,16)");
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of the divisions and compositions (a fragment whose modes the copy's tile does
    /// not divide).
    pub fn retile(&self, frag: &Layout) -> Result<Layout, Error> {
        let v = frag.mode(0)?.size();
        let inv = with_shape(&right_inverse(&self.layout_tv)?, &self.tiler)?;
        let frg_mn = upcast(&inv, self.size() * v)?;
        let av = self.reference.mode(1)?.size();
        let prod = logical_product(
            &Layout::leaf(v, 1)?,
            &Tiler::layout(right_inverse(&frg_mn)?),
        )?;
        let frg_v = zipped_divide(&prod, &Tiler::layout(Layout::leaf(av, 1)?))?;
        let mut tile = vec![IntTuple::int(v)];
        let pe = frg_mn.shape().product_each()?;
        for k in 0..pe.rank() {
            tile.push(IntTuple::int(pe.leaf(k)));
        }
        let t = zipped_divide(frag, &Tiler::from_shape(&IntTuple::tuple(&tile)?)?)?;
        let vt = compose_mode0(&t, &frg_v)?;
        let r = frag.rank();
        let mut rest = vec![PartialCoord::fixed(&IntTuple::int(0))];
        rest.extend(std::iter::repeat_n(PartialCoord::FREE, r - 1));
        slice(
            &vt,
            &PartialCoord::tuple(&[PartialCoord::FREE, PartialCoord::tuple(&rest)?])?,
        )
    }

    /// CuTe's `get_slice(thr_idx)`: one thread of the copy, for its partitions.
    ///
    /// ```
    /// use cute::atom::cp_async_16b;
    /// use cute::tiled::make_tiled_copy;
    /// let c = make_tiled_copy(&cp_async_16b()?, 16, &"(16,8):(8,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
    /// assert_eq!(c.thr_slice(65)?.thread(), 65);
    /// assert!(c.thr_slice(128).is_err());
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// `NotInDomain` when `thread` is not in `0..size()`.
    pub fn thr_slice(&self, thread: i64) -> Result<ThrCopy, Error> {
        super::check_thread(thread, self.size(), &self.layout_tv)?;
        Ok(ThrCopy {
            copy: *self,
            thread,
        })
    }
}

/// One thread of a [`TiledCopy`]: CuTe's `ThrCopy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThrCopy {
    copy: TiledCopy,
    thread: i64,
}

impl ThrCopy {
    /// The thread index.
    ///
    /// ```
    /// use cute::atom::cp_async_16b;
    /// use cute::tiled::make_tiled_copy;
    /// let c = make_tiled_copy(&cp_async_16b()?, 16, &"(16,8):(8,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
    /// assert_eq!(c.thr_slice(3)?.thread(), 3);
    /// # Ok::<(), cute::Error>(())
    /// ```
    pub fn thread(&self) -> i64 {
        self.thread
    }

    fn partition(&self, f: &Layout, rank: usize) -> Result<(Layout, i64), Error> {
        let c = PartialCoord::tuple(&[
            PartialCoord::fixed(&IntTuple::int(self.thread)),
            PartialCoord::FREE,
            frees(rank)?,
        ])?;
        slice_and_offset(f, &c)
    }

    /// CuTe's `partition_S`: this thread's values of the source data layout `s`, as
    /// `(values, rest...)`, and the offset of its first value.
    ///
    /// ```
    /// use cute::atom::cp_async_16b;
    /// use cute::tiled::make_tiled_copy;
    /// let c = make_tiled_copy(&cp_async_16b()?, 16, &"(16,8):(8,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
    /// let (l, off) = c.thr_slice(65)?.partition_s(&"(32,128):(128,1)".parse()?)?;
    /// assert_eq!((l.to_string(), off), ("((8,1),2,2):((1,0),2048,64)".to_string(), 1032));
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`TiledCopy::tidfrg_s`].
    pub fn partition_s(&self, s: &Layout) -> Result<(Layout, i64), Error> {
        self.partition(&self.copy.tidfrg_s(s)?, s.rank())
    }

    /// CuTe's `partition_D`: this thread's values of the destination data layout `d`.
    ///
    /// ```
    /// use cute::atom::cp_async_16b;
    /// use cute::tiled::make_tiled_copy;
    /// let c = make_tiled_copy(&cp_async_16b()?, 16, &"(16,8):(8,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
    /// let (l, off) = c.thr_slice(65)?.partition_d(&"(32,128):(128,1)".parse()?)?;
    /// assert_eq!((l.to_string(), off), ("((8,1),2,2):((1,0),2048,64)".to_string(), 1032));
    /// # Ok::<(), cute::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`TiledCopy::tidfrg_d`].
    pub fn partition_d(&self, d: &Layout) -> Result<(Layout, i64), Error> {
        self.partition(&self.copy.tidfrg_d(d)?, d.rank())
    }
}
