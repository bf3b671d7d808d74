//! The swizzle classes: `Swizzle`, `ComposedLayout`, and the shared-memory bank analysis
//! results `BankReport` and `SwizzleSearch`.

use cute::{ComposedLayout, Swizzle};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::classes::{PyComposedLayout, PyLayout, PySwizzle};
use crate::conv::{self, int, OrRaise};
use crate::types::{hash_of, layout_repr, same_value};

/// `#[pymethods] impl $ty { … }` that begins with read-only integer properties forwarding to the
/// wrapped value's method of the same name (`name;`, each after its doc comment and example),
/// followed by the other methods as written.
macro_rules! pymethods_with_int_getters {
    ($ty:ident { $($(#[doc = $doc:literal])+ $name:ident;)+ } $($methods:tt)*) => {
        #[pymethods]
        impl $ty {
            $(
                $(#[doc = $doc])+
                #[getter]
                fn $name(&self) -> i64 {
                    self.0.$name()
                }
            )+
            $($methods)*
        }
    };
}

pymethods_with_int_getters! {
PySwizzle {
    /// `B`, the number of bits moved.
    ///
    /// >>> from cute_algebra import Swizzle
    /// >>> Swizzle(3, 4, 3).bits
    /// 3
    bits;

    /// `M`, the number of low bits kept.
    ///
    /// >>> from cute_algebra import Swizzle
    /// >>> Swizzle(3, 4, 3).base
    /// 4
    base;

    /// `S`, the distance the mask moves.
    ///
    /// >>> from cute_algebra import Swizzle
    /// >>> Swizzle(3, 4, 3).shift
    /// 3
    shift;

    /// The mask of the bits read (`yyy`).
    ///
    /// >>> from cute_algebra import Swizzle
    /// >>> bin(Swizzle(2, 1, 3).yyy_mask)
    /// '0b110000'
    yyy_mask;

    /// The mask of the bits changed (`zzz`).
    ///
    /// >>> from cute_algebra import Swizzle
    /// >>> bin(Swizzle(2, 1, 3).zzz_mask)
    /// '0b110'
    zzz_mask;
}

    #[new]
    fn new(
        bits: &Bound<'_, PyAny>,
        base: &Bound<'_, PyAny>,
        shift: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        Swizzle::new(
            int(bits, "Swizzle bits")?,
            int(base, "Swizzle base")?,
            int(shift, "Swizzle shift")?,
        )
        .py()
        .map(PySwizzle)
    }

    /// Reads `Sw<B,M,S>`.
    ///
    /// >>> from cute_algebra import Swizzle
    /// >>> Swizzle.parse("Sw<2,0,3>")
    /// Swizzle(2,0,3)
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        text.parse::<Swizzle>().py().map(PySwizzle)
    }

    /// The swizzle on `[0, 2^n)` as a layout with F2 strides.
    ///
    /// >>> from cute_algebra import Swizzle
    /// >>> print(Swizzle(3, 0, 3).to_f2_layout(6))
    /// (8,8):(F1,F9)
    fn to_f2_layout(&self, n: u32) -> PyResult<PyLayout> {
        self.0.to_f2_layout(n).py().map(PyLayout::wrap)
    }

    /// The cheapest swizzle equal to an F2-strided layout.
    ///
    /// >>> from cute_algebra import Swizzle, Layout
    /// >>> Swizzle.from_f2_layout(Layout.parse("(8,8):(F1,F9)"))
    /// Swizzle(3,0,3)
    #[staticmethod]
    fn from_f2_layout(l: &Bound<'_, PyAny>) -> PyResult<Self> {
        let l = conv::layout_arg(l, "Swizzle.from_f2_layout")?;
        Swizzle::from_f2_layout(&l).py().map(PySwizzle)
    }

    /// Applies the swizzle to an offset.
    fn __call__(&self, offset: &Bound<'_, PyAny>) -> PyResult<i64> {
        Ok(self.0.apply(int(offset, "Swizzle(offset)")?))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        same_value(other, &self.0, |o: &PySwizzle| &o.0)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.0)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(PyObject, (i64, i64, i64))> {
        let sw = slf.get().0;
        Ok((
            slf.py().get_type::<PySwizzle>().into_any().unbind(),
            (sw.bits(), sw.base(), sw.shift()),
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "Swizzle({},{},{})",
            self.0.bits(),
            self.0.base(),
            self.0.shift()
        )
    }
}

#[pymethods]
impl PyComposedLayout {
    #[new]
    fn new(
        swizzle: PySwizzle,
        offset: &Bound<'_, PyAny>,
        layout: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let o = int(offset, "ComposedLayout offset")?;
        let l = conv::layout_arg(layout, "ComposedLayout layout")?;
        Ok(PyComposedLayout::wrap(ComposedLayout::new(swizzle.0, o, l)))
    }

    /// Reads `Sw<B,M,S> o offset o layout`.
    ///
    /// >>> from cute_algebra import ComposedLayout
    /// >>> ComposedLayout.parse("Sw<3,0,3> o 0 o (8,8):(8,1)")
    /// ComposedLayout(Swizzle(3,0,3),0,Layout((8,8),(8,1)))
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        text.parse::<ComposedLayout>()
            .py()
            .map(PyComposedLayout::wrap)
    }

    /// The swizzle.
    ///
    /// >>> from cute_algebra import ComposedLayout
    /// >>> ComposedLayout.parse("Sw<3,0,3> o 0 o (8,8):(8,1)").swizzle
    /// Swizzle(3,0,3)
    #[getter]
    fn swizzle(&self) -> PySwizzle {
        PySwizzle(self.0.swizzle)
    }

    /// The offset added before the swizzle.
    ///
    /// >>> from cute_algebra import ComposedLayout
    /// >>> ComposedLayout.parse("Sw<3,0,3> o 4 o (8,8):(8,1)").offset
    /// 4
    #[getter]
    fn offset(&self) -> i64 {
        self.0.offset
    }

    /// The inner layout.
    ///
    /// >>> from cute_algebra import ComposedLayout
    /// >>> ComposedLayout.parse("Sw<3,0,3> o 0 o (8,8):(8,1)").layout
    /// Layout((8,8),(8,1))
    #[getter]
    fn layout(&self) -> PyLayout {
        PyLayout::wrap(self.0.layout)
    }

    /// The size of the domain.
    ///
    /// >>> from cute_algebra import ComposedLayout
    /// >>> ComposedLayout.parse("Sw<3,0,3> o 0 o (8,8):(8,1)").size()
    /// 64
    fn size(&self) -> i64 {
        self.0.size()
    }

    /// One past the largest offset.
    ///
    /// >>> from cute_algebra import ComposedLayout
    /// >>> ComposedLayout.parse("Sw<3,0,3> o 0 o (8,8):(8,1)").cosize()
    /// 64
    fn cosize(&self) -> PyResult<i64> {
        self.0.cosize().py()
    }

    /// The rank of the inner layout.
    ///
    /// >>> from cute_algebra import ComposedLayout
    /// >>> ComposedLayout.parse("Sw<3,0,3> o 0 o (8,8):(8,1)").rank()
    /// 2
    fn rank(&self) -> usize {
        self.0.layout.rank()
    }

    /// `Sw ∘ L` as one layout with F2 strides.
    ///
    /// >>> from cute_algebra import ComposedLayout
    /// >>> print(ComposedLayout.parse("Sw<3,0,3> o 0 o (8,8):(1,8)").to_f2_layout())
    /// (8,8):(F1,F9)
    fn to_f2_layout(&self) -> PyResult<PyLayout> {
        self.0.to_f2_layout().py().map(PyLayout::wrap)
    }

    /// Evaluates at an index or a coordinate.
    #[pyo3(signature = (*args))]
    fn __call__(&self, args: &Bound<'_, PyTuple>) -> PyResult<i64> {
        let arg = conv::call_arg(args, "ComposedLayout")?;
        if conv::seq(&arg).is_some() {
            let c = conv::tuple(&arg, "ComposedLayout coordinate")?;
            self.0.eval_crd(&c).py()
        } else {
            self.0.eval(int(&arg, "ComposedLayout index")?).py()
        }
    }

    fn __len__(&self) -> usize {
        self.0.layout.rank()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        same_value(other, &self.0, |o: &PyComposedLayout| &o.0)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&(self.0.swizzle, self.0.offset, self.0.layout))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(PyObject, (PySwizzle, i64, PyLayout))> {
        let c = *slf.get().0;
        Ok((
            slf.py().get_type::<PyComposedLayout>().into_any().unbind(),
            (PySwizzle(c.swizzle), c.offset, PyLayout::wrap(c.layout)),
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "ComposedLayout({},{},{})",
            PySwizzle(self.0.swizzle).__repr__(),
            self.0.offset,
            layout_repr(&self.0.layout)
        )
    }
}

/// The shared-memory wavefronts of one access pattern (see `bank_conflicts`); below, two
/// instructions that each read a column of a row-major 32×32 float tile (32-way conflicts).
///
/// >>> from cute_algebra import Layout, bank_conflicts
/// >>> r = bank_conflicts(Layout((32, 32), (32, 1)), Layout((32, 2), (1, 32)), 4)
/// >>> r
/// BankReport(instructions=2, total=64, ideal_total=2, conflict_free=False)
#[pyclass(frozen, module = "cute_algebra", name = "BankReport", get_all)]
pub struct PyBankReport {
    /// The number of instructions.
    ///
    /// >>> from cute_algebra import Layout, bank_conflicts
    /// >>> r = bank_conflicts(Layout((32, 32), (32, 1)), Layout((32, 2), (1, 32)), 4)
    /// >>> r.instructions
    /// 2
    pub instructions: usize,
    /// Wavefronts per instruction.
    ///
    /// >>> from cute_algebra import Layout, bank_conflicts
    /// >>> r = bank_conflicts(Layout((32, 32), (32, 1)), Layout((32, 2), (1, 32)), 4)
    /// >>> r.wavefronts
    /// [32, 32]
    pub wavefronts: Vec<u32>,
    /// The conflict-free number of wavefronts per instruction.
    ///
    /// >>> from cute_algebra import Layout, bank_conflicts
    /// >>> r = bank_conflicts(Layout((32, 32), (32, 1)), Layout((32, 2), (1, 32)), 4)
    /// >>> r.ideal
    /// [1, 1]
    pub ideal: Vec<u32>,
    /// The sum of the wavefronts.
    ///
    /// >>> from cute_algebra import Layout, bank_conflicts
    /// >>> r = bank_conflicts(Layout((32, 32), (32, 1)), Layout((32, 2), (1, 32)), 4)
    /// >>> r.total
    /// 64
    pub total: u64,
    /// The sum of the ideal wavefronts.
    ///
    /// >>> from cute_algebra import Layout, bank_conflicts
    /// >>> r = bank_conflicts(Layout((32, 32), (32, 1)), Layout((32, 2), (1, 32)), 4)
    /// >>> r.ideal_total
    /// 2
    pub ideal_total: u64,
    /// True when every instruction reaches its ideal.
    ///
    /// >>> from cute_algebra import Layout, bank_conflicts
    /// >>> r = bank_conflicts(Layout((32, 32), (32, 1)), Layout((32, 2), (1, 32)), 4)
    /// >>> r.conflict_free
    /// False
    pub conflict_free: bool,
}

impl From<&cute::BankReport> for PyBankReport {
    fn from(r: &cute::BankReport) -> Self {
        PyBankReport {
            instructions: r.instructions,
            wavefronts: r.wavefronts.clone(),
            ideal: r.ideal.clone(),
            total: r.total(),
            ideal_total: r.ideal_total(),
            conflict_free: r.is_conflict_free(),
        }
    }
}

#[pymethods]
impl PyBankReport {
    fn __repr__(&self) -> String {
        format!(
            "BankReport(instructions={}, total={}, ideal_total={}, conflict_free={})",
            self.instructions,
            self.total,
            self.ideal_total,
            if self.conflict_free { "True" } else { "False" }
        )
    }
}

/// The result of `swizzle_search`; below, the swizzle that makes a column read of a row-major
/// 32×32 float tile conflict-free.
///
/// >>> from cute_algebra import Layout, swizzle_search
/// >>> swizzle_search(Layout((32, 32), (32, 1)), Layout((32, 1), (1, 0)), 4)
/// SwizzleSearch(swizzle=Swizzle(5,0,5), conflict_free=True, tried=274)
#[pyclass(frozen, module = "cute_algebra", name = "SwizzleSearch", get_all)]
pub struct PySwizzleSearch {
    /// The swizzle chosen.
    ///
    /// >>> from cute_algebra import Layout, swizzle_search
    /// >>> s = swizzle_search(Layout((32, 32), (32, 1)), Layout((32, 1), (1, 0)), 4)
    /// >>> s.swizzle
    /// Swizzle(5,0,5)
    pub swizzle: PySwizzle,
    /// The swizzled layout.
    ///
    /// >>> from cute_algebra import Layout, swizzle_search
    /// >>> s = swizzle_search(Layout((32, 32), (32, 1)), Layout((32, 1), (1, 0)), 4)
    /// >>> print(s.layout)
    /// Sw<5,0,5> o 0 o (32,32):(32,1)
    pub layout: PyComposedLayout,
    /// One report per access pattern, under the chosen swizzle.
    ///
    /// >>> from cute_algebra import Layout, swizzle_search
    /// >>> s = swizzle_search(Layout((32, 32), (32, 1)), Layout((32, 1), (1, 0)), 4)
    /// >>> s.reports
    /// [BankReport(instructions=1, total=1, ideal_total=1, conflict_free=True)]
    pub reports: Vec<Py<PyBankReport>>,
    /// True when every pattern is conflict-free.
    ///
    /// >>> from cute_algebra import Layout, swizzle_search
    /// >>> s = swizzle_search(Layout((32, 32), (32, 1)), Layout((32, 1), (1, 0)), 4)
    /// >>> s.conflict_free
    /// True
    pub conflict_free: bool,
    /// How many candidate swizzles were tried.
    ///
    /// >>> from cute_algebra import Layout, swizzle_search
    /// >>> s = swizzle_search(Layout((32, 32), (32, 1)), Layout((32, 1), (1, 0)), 4)
    /// >>> s.tried
    /// 274
    pub tried: usize,
}

#[pymethods]
impl PySwizzleSearch {
    fn __repr__(&self) -> String {
        format!(
            "SwizzleSearch(swizzle={}, conflict_free={}, tried={})",
            self.swizzle.__repr__(),
            if self.conflict_free { "True" } else { "False" },
            self.tried
        )
    }
}
