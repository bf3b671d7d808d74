//! Conversions between Python values and the core crate's values, and the mapping of the core's
//! errors onto Python exceptions.

use cute::{
    ArithTuple, Error, ErrorKind, IntTuple, Layout, Op, Operand, PartialCoord, Semimodule, Stride,
    Tile, Tiler, Value,
};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyString, PyTuple};

use crate::classes::{PyComposedLayout, PyE, PyF2, PyLayout};

pyo3::create_exception!(
    cute_algebra,
    LayoutError,
    PyValueError,
    "An inadmissible operation of the layout algebra.\n\n\
     The message is the core crate's one-line message: it names the operation, the operands and \
     the violated condition. `category` is the conformance category (`Divisibility`, \
     `NotInjective`, `OutOfRange`, `ProfileMismatch`, `Unsupported`, `InvalidShape`, `Overflow`, \
     `Capacity` or `Syntax`) and `op` the name of the operation that refused.\n\n\
     >>> from cute_algebra import Layout, composition, LayoutError\n\
     >>> try:\n\
     ...     composition(Layout((4, 6, 8), (2, 3, 5)), Layout(6, 3))\n\
     ... except LayoutError as e:\n\
     ...     print(e.category, e.op)\n\
     Divisibility composition"
);

/// The Python exception for a core error: a [`LayoutError`] carrying the message, the category
/// and the operation's name.
pub fn err(e: Error) -> PyErr {
    layout_error(e.to_string(), e.category(), e.op().name())
}

/// A [`LayoutError`] raised by the bindings themselves (not by the core): `message` is the whole
/// one-line message, `op` the operation's name.
pub fn layout_error(message: String, category: &str, op: &str) -> PyErr {
    Python::with_gil(|py| {
        let ty = py.get_type::<LayoutError>();
        match ty.call1((message,)) {
            Ok(inst) => {
                if let Err(x) = inst.setattr("category", category) {
                    return x;
                }
                if let Err(x) = inst.setattr("op", op) {
                    return x;
                }
                PyErr::from_value(inst)
            }
            Err(x) => x,
        }
    })
}

/// `Result<T, Error>` to `PyResult<T>`.
pub trait OrRaise<T> {
    /// Maps the core's error to a [`LayoutError`].
    fn py(self) -> PyResult<T>;
}

impl<T> OrRaise<T> for Result<T, Error> {
    fn py(self) -> PyResult<T> {
        self.map_err(err)
    }
}

/// A short description of a Python value's type for messages.
pub fn kind_of(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// An integer (anything with `__index__`, but not `bool`).
pub fn int(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected an integer, got bool"
        )));
    }
    match obj.extract::<i64>() {
        Ok(v) => Ok(v),
        Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => Err(PyTypeError::new_err(format!(
            "{what}: expected an integer, got {}",
            kind_of(obj)
        ))),
        // (PyO3 says "Python int too large to convert to C long", naming neither)
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            let v = obj
                .str()
                .map_or_else(|_| "the value".into(), |s| s.to_string());
            let n = v.chars().count();
            let v = if n > 40 {
                format!("{}… ({n} digits)", v.chars().take(20).collect::<String>())
            } else {
                v
            };
            Err(PyOverflowError::new_err(format!(
                "{what}: {v} does not fit in a signed 64-bit integer"
            )))
        }
        Err(e) => Err(e),
    }
}

/// The one argument of a call `X(...)`: a single argument as it is, several as the tuple of them
/// (`L(1, 2)` is `L((1, 2))`); none is a `TypeError` naming `class`.
pub fn call_arg<'py>(args: &Bound<'py, PyTuple>, class: &str) -> PyResult<Bound<'py, PyAny>> {
    match args.len() {
        0 => Err(PyTypeError::new_err(format!(
            "{class}(...): expected an index or a coordinate, got no argument"
        ))),
        1 => args.get_item(0),
        _ => Ok(args.clone().into_any()),
    }
}

/// The elements of a tuple or list, or `None` for any other value.
pub fn seq<'py>(obj: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
    if let Ok(t) = obj.downcast::<PyTuple>() {
        Some(t.iter().collect())
    } else if let Ok(l) = obj.downcast::<PyList>() {
        Some(l.iter().collect())
    } else {
        None
    }
}

/// How deep a Python value may nest before it is refused (the core's own limit is far lower).
const MAX_NEST: usize = 64;

fn too_deep(_what: &str) -> PyErr {
    err(Error::new(
        Op::Parse,
        ErrorKind::Capacity {
            what: "nesting depth of a Python tuple",
            limit: MAX_NEST,
        },
    ))
}

/// True for a Python `int` (exactly, not `bool`).
fn is_plain_int(x: &Bound<'_, PyAny>) -> bool {
    x.is_exact_instance_of::<PyInt>()
}

/// An HTuple (an int or a nested tuple/list of ints).
pub fn tuple(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<IntTuple> {
    tuple_at(obj, what, 0)
}

/// An `i64` argument named `name`, as PyO3 reads it (PyO3 names the argument of a `TypeError`),
/// except that an integer past `i64` raises an `OverflowError` naming the argument and the value
/// ([`int`]), not PyO3's "Python int too large to convert to C long".
fn i64_named(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<i64> {
    match obj.extract::<i64>() {
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => int(obj, name),
        r => r,
    }
}

/// `#[pyo3(from_py_with = "...")]` readers of the integer arguments, each by its name.
pub mod arg {
    use super::i64_named;
    use pyo3::prelude::*;

    /// `thread`.
    pub fn thread(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        i64_named(obj, "thread")
    }
    /// `elem_bits`.
    pub fn elem_bits(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        i64_named(obj, "elem_bits")
    }
    /// `elem_bytes`.
    pub fn elem_bytes(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        i64_named(obj, "elem_bytes")
    }
    /// `vector`.
    pub fn vector(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        i64_named(obj, "vector")
    }
    /// `index`.
    pub fn index(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        i64_named(obj, "index")
    }
    /// `n`.
    pub fn n(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        i64_named(obj, "n")
    }
    /// `highlight` (`None` for none).
    pub fn highlight(obj: &Bound<'_, PyAny>) -> PyResult<Option<i64>> {
        if obj.is_none() {
            return Ok(None);
        }
        i64_named(obj, "highlight").map(Some)
    }
}

/// The core's error in reading a tuple argument (no empty tuple, too many integers), named by the
/// argument `what` (e.g. `idx2crd shape`, whose first word is the operation) rather than by the
/// core's constructor.
fn tuple_error(e: Error, what: &str) -> PyErr {
    let text = e.to_string();
    let prefix = format!("{}: ", e.op().name());
    let op = what.split_whitespace().next().unwrap_or(what);
    match text.strip_prefix(&prefix) {
        Some(rest) => layout_error(format!("{what}: {rest}"), e.category(), op),
        None => err(e),
    }
}

fn tuple_at(obj: &Bound<'_, PyAny>, what: &str, depth: usize) -> PyResult<IntTuple> {
    if depth > MAX_NEST {
        return Err(too_deep(what));
    }
    match seq(obj) {
        Some(items) => {
            // a flat tuple of ints (the common case) in one step
            if !items.is_empty() && items.len() <= cute::CAPACITY && items.iter().all(is_plain_int)
            {
                let vals = items
                    .iter()
                    .map(|x| i64_named(x, what))
                    .collect::<PyResult<Vec<_>>>()?;
                return IntTuple::flat(&vals).map_err(|e| tuple_error(e, what));
            }
            let modes = items
                .iter()
                .map(|x| tuple_at(x, what, depth + 1))
                .collect::<PyResult<Vec<_>>>()?;
            IntTuple::tuple(&modes).map_err(|e| tuple_error(e, what))
        }
        None => int_leaf(obj, what, "an integer or a tuple of integers").map(IntTuple::int),
    }
}

/// An HTuple as a Python int or nested tuple.
pub fn tuple_py(py: Python<'_>, t: &IntTuple) -> PyResult<PyObject> {
    if let Some(v) = t.as_int() {
        return Ok(v.into_pyobject(py)?.into_any().unbind());
    }
    nested_py(
        py,
        t.leaf_count(),
        |i| t.nesting(i),
        |py, i| Ok(t.leaf(i).into_pyobject(py)?.into_any().unbind()),
    )
}

/// The nested Python tuple of `n` leaves (`leaf(i)`), nested as `nesting(i)` (parentheses opened
/// before leaf `i`, closed after it) says: one pass, a stack of open tuples.
pub fn nested_py(
    py: Python<'_>,
    n: usize,
    nesting: impl Fn(usize) -> (u8, u8),
    mut leaf: impl FnMut(Python<'_>, usize) -> PyResult<PyObject>,
) -> PyResult<PyObject> {
    let mut stack: Vec<Vec<PyObject>> = Vec::with_capacity(8);
    let mut done: Option<PyObject> = None;
    for i in 0..n {
        let (open, close) = nesting(i);
        for _ in 0..open {
            stack.push(Vec::with_capacity(4));
        }
        let mut x = leaf(py, i)?;
        for _ in 0..close {
            let Some(mut items) = stack.pop() else {
                return Err(PyValueError::new_err("unbalanced nesting"));
            };
            items.push(x);
            x = PyTuple::new(py, items)?.into_any().unbind();
        }
        match stack.last_mut() {
            Some(top) => top.push(x),
            None => done = Some(x),
        }
    }
    done.ok_or_else(|| PyValueError::new_err("unbalanced nesting"))
}

/// One stride: an int, an `E` basis or an `F2` polynomial.
fn stride_leaf(obj: &Bound<'_, PyAny>) -> PyResult<Stride> {
    if let Ok(e) = obj.downcast::<PyE>() {
        return Ok(e.get().0);
    }
    if let Ok(f) = obj.downcast::<PyF2>() {
        return Ok(f.get().0);
    }
    int_leaf(obj, "Layout stride", "an integer, E(...) or F2(...)").map(Stride::int)
}

/// An integer leaf of a tree argument: a wrong kind (None included) is a `TypeError` that says
/// what the leaf may be (`expected`); an integer out of range stays an `OverflowError`.
fn int_leaf(obj: &Bound<'_, PyAny>, what: &str, expected: &str) -> PyResult<i64> {
    let wrong = || {
        let got = if obj.is_none() {
            "None".to_string()
        } else {
            kind_of(obj)
        };
        PyTypeError::new_err(format!("{what}: expected {expected}, got {got}"))
    };
    if obj.is_none() {
        return Err(wrong());
    }
    int(obj, what).map_err(|e| {
        if e.is_instance_of::<PyTypeError>(obj.py()) {
            wrong()
        } else {
            e
        }
    })
}

/// The tuple of the trees `f` reads from `items`.
fn tuple_of<'py>(
    items: &[Bound<'py, PyAny>],
    f: impl FnMut(&Bound<'py, PyAny>) -> PyResult<IntTuple>,
) -> PyResult<IntTuple> {
    let modes = items.iter().map(f).collect::<PyResult<Vec<_>>>()?;
    IntTuple::tuple(&modes).py()
}

/// A stride tree: its shape (each leaf replaced by its value, for congruence) and its leaves.
fn strides(obj: &Bound<'_, PyAny>, out: &mut Vec<Stride>, depth: usize) -> PyResult<IntTuple> {
    if depth > MAX_NEST {
        return Err(too_deep("Layout stride"));
    }
    match seq(obj) {
        Some(items) => tuple_of(&items, |x| strides(x, out, depth + 1)),
        None => {
            let s = stride_leaf(obj)?;
            out.push(s);
            Ok(IntTuple::int(s.value()))
        }
    }
}

/// `Layout(shape, stride)` from Python values; `stride=None` is the compact column-major stride.
pub fn make_layout(
    shape: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
) -> PyResult<Layout> {
    let Some(stride) = stride else {
        return cute::compact_col_major(&tuple(shape, "Layout shape")?).py();
    };
    // flat shape and flat integer stride (the common case) in one step
    if let (Some(ss), Some(ds)) = (seq(shape), seq(stride)) {
        if !ss.is_empty()
            && ss.len() == ds.len()
            && ss.len() <= cute::CAPACITY
            && ss.iter().chain(ds.iter()).all(is_plain_int)
        {
            let sv = ss
                .iter()
                .map(|x| i64_named(x, "Layout shape"))
                .collect::<PyResult<Vec<_>>>()?;
            let dv = ds
                .iter()
                .map(|x| i64_named(x, "Layout stride"))
                .collect::<PyResult<Vec<_>>>()?;
            return Layout::flat(&sv, &dv).py();
        }
    }
    let s = tuple(shape, "Layout shape")?;
    let mut leaves = Vec::new();
    let d = strides(stride, &mut leaves, 0)?;
    if !s.congruent(&d) {
        return Err(err(Error::new(
            Op::MakeLayout,
            ErrorKind::NotCongruent { at: None },
        )
        .with(Operand::Tuple(s), Operand::Tuple(d))));
    }
    if leaves
        .iter()
        .all(|x| matches!(x.semimodule(), None | Some(Semimodule::Integer)))
    {
        return Layout::new(&s, &d).py();
    }
    Layout::from_strides(&s, &leaves).py()
}

/// One stride as a Python value.
pub fn stride_py(py: Python<'_>, s: Stride) -> PyResult<PyObject> {
    Ok(match s.semimodule() {
        None | Some(Semimodule::Integer) => s.value().into_pyobject(py)?.into_any().unbind(),
        Some(Semimodule::Coordinate) => Py::new(py, PyE(s))?.into_any(),
        Some(Semimodule::Binary) => Py::new(py, PyF2(s))?.into_any(),
    })
}

/// The strides of `l`, nested as its shape.
pub fn layout_stride_py(py: Python<'_>, l: &Layout) -> PyResult<PyObject> {
    if l.is_leaf() {
        return stride_py(py, l.stride_at(0));
    }
    nested_py(
        py,
        l.leaf_count(),
        |i| l.nesting(i),
        |py, i| stride_py(py, l.stride_at(i)),
    )
}

/// The shape of `l` as a Python int or nested tuple.
pub fn layout_shape_py(py: Python<'_>, l: &Layout) -> PyResult<PyObject> {
    if l.is_leaf() {
        return Ok(l.leaf_at(0).0.into_pyobject(py)?.into_any().unbind());
    }
    nested_py(
        py,
        l.leaf_count(),
        |i| l.nesting(i),
        |py, i| Ok(l.leaf_at(i).0.into_pyobject(py)?.into_any().unbind()),
    )
}

/// A value of a layout as a Python value: an int (integer or F2 bits) or, for coordinate strides,
/// a nested tuple of ints.
pub fn value_py(py: Python<'_>, v: &Value) -> PyResult<PyObject> {
    match v {
        Value::Int(x) => Ok(x.into_pyobject(py)?.into_any().unbind()),
        Value::F2(b) => Ok(b.into_pyobject(py)?.into_any().unbind()),
        Value::Coord(a) => arith_py(py, a),
    }
}

/// A nested accumulator for the terms of an arithmetic tuple.
enum Acc {
    Int(i64),
    Tup(Vec<Acc>),
}

impl Acc {
    fn add(&mut self, path: &[usize], v: i64) {
        match path.split_first() {
            None => match self {
                Acc::Int(x) => *x += v,
                Acc::Tup(items) => {
                    // a scalar added to a tuple goes to its first leaf
                    if let Some(first) = items.first_mut() {
                        first.add(&[], v)
                    }
                }
            },
            Some((&i, rest)) => {
                if let Acc::Int(x) = self {
                    let x = *x;
                    *self = Acc::Tup(vec![Acc::Int(x)]);
                }
                if let Acc::Tup(items) = self {
                    while items.len() <= i {
                        items.push(Acc::Int(0));
                    }
                    items[i].add(rest, v);
                }
            }
        }
    }

    fn py(&self, py: Python<'_>) -> PyResult<PyObject> {
        match self {
            Acc::Int(x) => Ok(x.into_pyobject(py)?.into_any().unbind()),
            Acc::Tup(items) => {
                let v = items
                    .iter()
                    .map(|a| a.py(py))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(PyTuple::new(py, v)?.into_any().unbind())
            }
        }
    }
}

fn arith_py(py: Python<'_>, a: &ArithTuple) -> PyResult<PyObject> {
    let mut acc = Acc::Tup(Vec::new());
    for i in 0..a.terms() {
        let (v, path, n) = a.term(i);
        acc.add(&path[..n], v);
    }
    if let Acc::Tup(items) = &acc {
        if items.is_empty() {
            return Ok(0i64.into_pyobject(py)?.into_any().unbind());
        }
    }
    acc.py(py)
}

/// The operation's name in a `what` (its first word: `"logical_divide"`, `"complement cotarget"`).
fn op_name(what: &str) -> &str {
    what.split([' ', '(', '[']).next().unwrap_or(what)
}

/// A layout argument: a `Layout`, or an int `n` (at least 1) for `n:1`.
pub fn layout_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Layout> {
    if let Ok(l) = obj.downcast::<PyLayout>() {
        return Ok(*l.get().0);
    }
    if seq(obj).is_none() && !obj.is_none() && !obj.is_instance_of::<PyString>() {
        if let Ok(n) = int(obj, what) {
            if n < 1 {
                return Err(layout_error(
                    format!(
                        "{what}: the int {n} is not a layout: an int n stands for the layout n:1, \
                         and n must be at least 1"
                    ),
                    "InvalidShape",
                    op_name(what),
                ));
            }
            return Layout::leaf(n, 1).py();
        }
    }
    Err(PyTypeError::new_err(format!(
        "{what}: expected a Layout, got {}",
        kind_of(obj)
    )))
}

/// A tiler: a `Layout`, an int `n` (CuTe's `make_layout(n)`: `n:1`, and `1:0` for 1), or a tuple
/// (by mode) of tilers and `None` (keep the mode whole).
pub fn tiler_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Tiler> {
    if let Ok(l) = obj.downcast::<PyLayout>() {
        return Ok(Tiler::layout(*l.get().0));
    }
    if is_plain_int(obj) {
        let n = i64_named(obj, what)?;
        if n >= 1 {
            return Tiler::from_shape(&IntTuple::int(n)).py();
        }
        // (below 1: the layout reader's error)
    }
    if obj.is_none() {
        // CuTe's `_` as the whole tiler: the layout kept whole
        return "_".parse::<Tiler>().py();
    }
    if let Some(items) = seq(obj) {
        if !items.is_empty() && items.len() <= cute::MAX_TILES {
            let mut tiles = Vec::with_capacity(items.len());
            for x in &items {
                if x.is_none() {
                    tiles.push(Tile::Whole);
                } else if let Ok(l) = x.downcast::<PyLayout>() {
                    tiles.push(Tile::Layout(*l.get().0));
                } else if is_plain_int(x) {
                    tiles.push(Tile::Int(i64_named(x, what)?));
                } else {
                    break;
                }
            }
            if tiles.len() == items.len() {
                return Tiler::tiles(&tiles).py();
            }
        }
        let mut text = String::new();
        tiler_text(obj, what, &mut text, 0)?;
        return text.parse::<Tiler>().py();
    }
    Ok(Tiler::layout(layout_arg(obj, what).map_err(|e| {
        if e.is_instance_of::<PyTypeError>(obj.py()) {
            PyTypeError::new_err(format!(
                "{what}: expected a tiler (a Layout, an int, None, or a tuple of those), got {}",
                kind_of(obj)
            ))
        } else {
            e
        }
    })?))
}

fn tiler_text(obj: &Bound<'_, PyAny>, what: &str, out: &mut String, depth: usize) -> PyResult<()> {
    if depth > MAX_NEST {
        return Err(too_deep(what));
    }
    if obj.is_none() {
        out.push('_');
        return Ok(());
    }
    if let Some(items) = seq(obj) {
        if items.is_empty() {
            return Err(PyTypeError::new_err(format!(
                "{what}: an empty tuple is not a tiler"
            )));
        }
        out.push('<');
        for (k, x) in items.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            tiler_text(x, what, out, depth + 1)?;
        }
        out.push('>');
        return Ok(());
    }
    if let Ok(l) = obj.downcast::<PyLayout>() {
        out.push_str(&l.get().0.to_string());
        return Ok(());
    }
    match int(obj, what) {
        Ok(n) => {
            out.push_str(&n.to_string());
            Ok(())
        }
        Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => Err(PyTypeError::new_err(format!(
            "{what}: a tile must be a Layout, an int or None, got {}",
            kind_of(obj)
        ))),
        Err(e) => Err(e),
    }
}

/// A partial coordinate: ints, `None` for a free entry (CuTe's `_`), nested tuples.
pub fn partial_coord(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<PartialCoord> {
    partial_at(obj, what, 0)
}

fn partial_at(obj: &Bound<'_, PyAny>, what: &str, depth: usize) -> PyResult<PartialCoord> {
    if depth > MAX_NEST {
        return Err(too_deep(what));
    }
    if obj.is_none() {
        return Ok(PartialCoord::FREE);
    }
    match seq(obj) {
        Some(items) => {
            let modes = items
                .iter()
                .map(|x| partial_at(x, what, depth + 1))
                .collect::<PyResult<Vec<_>>>()?;
            PartialCoord::tuple(&modes).py()
        }
        None => Ok(PartialCoord::fixed(&IntTuple::int(int(obj, what)?))),
    }
}

/// True when `obj` is `None` or a (nested) tuple/list containing `None`.
pub fn has_none(obj: &Bound<'_, PyAny>) -> bool {
    fn walk(obj: &Bound<'_, PyAny>, depth: usize) -> bool {
        if obj.is_none() {
            return true;
        }
        if depth > MAX_NEST {
            return false;
        }
        match seq(obj) {
            Some(items) => items.iter().any(|x| walk(x, depth + 1)),
            None => false,
        }
    }
    walk(obj, 0)
}

/// A shared-memory layout argument: a `Layout` or a `ComposedLayout` (the core's
/// [`cute::banks::Smem`], as the CLI and the playground read it from text).
pub fn smem_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<cute::banks::Smem> {
    if let Ok(c) = obj.downcast::<PyComposedLayout>() {
        return Ok(cute::banks::Smem::Composed(*c.get().0));
    }
    if let Ok(l) = obj.downcast::<PyLayout>() {
        return Ok(cute::banks::Smem::Plain(*l.get().0));
    }
    Err(PyTypeError::new_err(format!(
        "{what}: expected a Layout or a ComposedLayout, got {}",
        kind_of(obj)
    )))
}

/// The leaves of a nested tuple of plain ints, with its nesting (`open`/`close` as in
/// [`IntTuple::from_leaves`]), gathered in one walk without allocating.
pub struct Leaves {
    pub n: usize,
    pub open: [u8; cute::CAPACITY],
    pub close: [u8; cute::CAPACITY],
    pub val: [i64; cute::CAPACITY],
    pending: u8,
}

impl Leaves {
    pub fn new() -> Leaves {
        Leaves {
            n: 0,
            open: [0; cute::CAPACITY],
            close: [0; cute::CAPACITY],
            val: [0; cute::CAPACITY],
            pending: 0,
        }
    }

    /// Walks `obj`: only exact `tuple`s (non-empty) and exact `int`s that fit in an `i64`, at most
    /// `CAPACITY` leaves and `MAX_NEST` levels. `false` for anything else (a list, `None`, a
    /// subclass, a huge int, ...): the caller then takes the general path, which raises the
    /// right error or handles the value.
    pub fn walk(&mut self, obj: &Bound<'_, PyAny>, depth: usize) -> bool {
        if let Ok(t) = obj.downcast_exact::<PyTuple>() {
            let len = t.len();
            if len == 0 || depth >= MAX_NEST || self.pending == u8::MAX {
                return false;
            }
            self.pending += 1;
            for k in 0..len {
                let Ok(x) = t.get_borrowed_item(k) else {
                    return false;
                };
                if !self.walk(&x, depth + 1) {
                    return false;
                }
            }
            // the tuple's last leaf closes it (non-empty: a leaf was written)
            let last = self.n - 1;
            if self.close[last] == u8::MAX {
                return false;
            }
            self.close[last] += 1;
            return true;
        }
        if obj.is_exact_instance_of::<PyInt>() {
            if self.n == cute::CAPACITY {
                return false;
            }
            let Ok(v) = obj.extract::<i64>() else {
                return false;
            };
            self.open[self.n] = self.pending;
            self.pending = 0;
            self.val[self.n] = v;
            self.n += 1;
            return true;
        }
        false
    }

    /// The walked value as an `IntTuple` (its checks: a well-formed nesting).
    pub fn tuple(&self) -> Result<IntTuple, Error> {
        IntTuple::from_leaves(
            &self.open[..self.n],
            &self.close[..self.n],
            &self.val[..self.n],
        )
    }

    /// True when `self` and `o` have the same nesting (congruent).
    pub fn same_nesting(&self, o: &Leaves) -> bool {
        self.n == o.n
            && self.open[..self.n] == o.open[..o.n]
            && self.close[..self.n] == o.close[..o.n]
    }
}
