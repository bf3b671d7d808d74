//! CUDA C++ text from layouts: every index expression a kernel uses is written here from a
//! layout's shape and strides (or a swizzle's masks) as constants, so that NVRTC folds them (a
//! division by a constant becomes a multiplication).

use cute::{Layout, Swizzle};

use crate::error::GpuError;

/// A source text built line by line.
#[derive(Debug, Default)]
pub struct Code {
    text: String,
}

impl Code {
    /// An empty text.
    pub fn new() -> Code {
        Code::default()
    }

    /// Appends one line.
    pub fn line(&mut self, l: impl AsRef<str>) {
        self.text.push_str(l.as_ref());
        self.text.push('\n');
    }

    /// The text.
    pub fn finish(self) -> String {
        self.text
    }
}

/// The CUDA type that moves `bytes` bytes in one access (2, 4, 8 or 16).
///
/// ```
/// assert_eq!(cute_cuda::codegen::vector_type(16).unwrap(), "uint4");
/// assert!(cute_cuda::codegen::vector_type(12).is_err());
/// ```
pub fn vector_type(bytes: i64) -> Result<&'static str, GpuError> {
    Ok(match bytes {
        1 => "unsigned char",
        2 => "unsigned short",
        4 => "unsigned int",
        8 => "uint2",
        16 => "uint4",
        _ => {
            return Err(GpuError::unsupported(
                "codegen",
                format!("no single access moves {bytes} bytes"),
            ))
        }
    })
}

/// `Sw(o)` for the integer expression `o`, with the swizzle's masks as constants; `o` itself for
/// the identity swizzle.
///
/// ```
/// use cute::Swizzle;
/// let sw = Swizzle::new(3, 3, 3).unwrap();
/// assert_eq!(cute_cuda::codegen::swizzle_expr(&sw, "o"), "((o) ^ (((o) & 448) >> 3))");
/// ```
pub fn swizzle_expr(sw: &Swizzle, o: &str) -> String {
    if sw.is_identity() {
        return format!("({o})");
    }
    let (y, s) = (sw.yyy_mask(), sw.shift());
    if s >= 0 {
        format!("(({o}) ^ ((({o}) & {y}) >> {s}))")
    } else {
        format!("(({o}) ^ ((({o}) & {y}) << {}))", -s)
    }
}

/// `L(i)` for the integer expression `i` (in `0..size(L)`), from the flattened leaves of `L`
/// (integer strides): `Σ ((i / P_k) % s_k) · d_k`, with size-1 and stride-0 leaves left out and
/// the last leaf not reduced (the extended domain, as [`Layout::eval`]).
///
/// ```
/// let l: cute::Layout = "(4,(2,3)):(2,(1,8))".parse().unwrap();
/// assert_eq!(
///     cute_cuda::codegen::layout_eval_expr(&l, "i"),
///     "(((i) % 4) * 2 + ((i) / 4 % 2) * 1 + ((i) / 8) * 8)"
/// );
/// ```
pub fn layout_eval_expr(l: &Layout, i: &str) -> String {
    let leaves: Vec<(i64, i64)> = (0..l.leaf_count()).map(|k| l.leaf_at(k)).collect();
    let last = leaves.iter().rposition(|&(s, _)| s > 1);
    let mut terms = Vec::new();
    let mut p: i64 = 1;
    for (k, &(s, d)) in leaves.iter().enumerate() {
        if s > 1 && d != 0 {
            let q = if p == 1 {
                format!("({i})")
            } else {
                format!("({i}) / {p}")
            };
            let t = if Some(k) == last {
                format!("({q}) * {d}")
            } else if p == 1 {
                format!("(({i}) % {s}) * {d}")
            } else {
                format!("({q} % {s}) * {d}")
            };
            terms.push(t);
        }
        p = p.saturating_mul(s);
    }
    if terms.is_empty() {
        "0".to_string()
    } else {
        format!("({})", terms.join(" + "))
    }
}

/// The largest power of two `v ≤ max` that divides every value of `xs` (0 is divisible by every
/// `v`): the widest vector whose accesses all start aligned.
///
/// ```
/// assert_eq!(cute_cuda::codegen::pow2_dividing(8, &[64, 24, 0]), 8);
/// assert_eq!(cute_cuda::codegen::pow2_dividing(8, &[64, 12]), 4);
/// assert_eq!(cute_cuda::codegen::pow2_dividing(8, &[57]), 1);
/// ```
pub fn pow2_dividing(max: i64, xs: &[i64]) -> i64 {
    let mut v = max.max(1);
    while v > 1 && xs.iter().any(|&x| x % v != 0) {
        v /= 2;
    }
    v
}

/// The kernel's index type: `int` when the extent and every offset range `[lo, hi]` fit in 31 bits,
/// the range also when shifted to start at 0 (the kernels index a buffer from its lowest offset,
/// `o - lo`, which reaches `hi - lo`), else `long long`.
///
/// ```
/// assert_eq!(cute_cuda::codegen::index_type(1 << 28, &[(-4, 1 << 29)]), "int");
/// assert_eq!(cute_cuda::codegen::index_type(1 << 28, &[(0, 1 << 31)]), "long long");
/// // each end fits, but `hi - lo` does not (a reversed view of a 10 GB tensor)
/// assert_eq!(cute_cuda::codegen::index_type(1 << 28, &[(-1_800_000_000, 900_000_000)]), "long long");
/// ```
pub fn index_type(extent: i64, ranges: &[(i64, i64)]) -> &'static str {
    let fits = fits_31_bits(extent)
        && ranges.iter().all(|&(lo, hi)| {
            lo > -(1 << 31) && fits_31_bits(hi) && hi.checked_sub(lo).is_some_and(fits_31_bits)
        });
    if fits {
        "int"
    } else {
        "long long"
    }
}

/// Whether every index below `extent` fits in 31 bits (a non-negative `int`).
fn fits_31_bits(extent: i64) -> bool {
    extent < (1 << 31)
}

/// The C type and literal suffix of an index into a tile grid of `extents` (boxes along each of
/// its modes): `unsigned` where every index fits in 31 bits, so that each division of the index by
/// the grid's constants is a multiply-high, else `long long`.
pub(crate) fn grid_index_type(extents: &[i64]) -> (&'static str, &'static str) {
    let total = extents
        .iter()
        .try_fold(1i64, |acc, &e| acc.checked_mul(e.max(1)));
    if total.is_some_and(fits_31_bits) {
        ("unsigned", "u")
    } else {
        ("long long", "LL")
    }
}

/// Declares `m0` and `n0`, the first row and column of this block's `bm × bn` tile of a
/// `tm × tn` grid of tiles, visiting the tiles in groups of 8 tile rows so that blocks running
/// together share operand tiles in L2.
pub fn emit_tile_order(c: &mut Code, tm: i64, tn: i64, bm: i64, bn: i64) {
    c.line("  const int tile = blockIdx.x, group = 8;");
    c.line(format!("  const int per_group = group * {tn};"));
    c.line("  const int first_m = (tile / per_group) * group;");
    c.line(format!("  const int rows_g = min({tm} - first_m, group);"));
    c.line("  const int tm = first_m + (tile % per_group) % rows_g;");
    c.line("  const int tn = (tile % per_group) / rows_g;");
    c.line(format!(
        "  const idx m0 = (idx)tm * {bm}, n0 = (idx)tn * {bn};"
    ));
}

/// The coordinates that the layout `l` with coordinate strides (`v@k`, i.e. `v·e_k`) gives the
/// index expression `var`, one expression per axis `k < rank`: axis `k` is `l` with every stride
/// `v@k` read as `v` and every other stride as 0.
///
/// ```
/// let l: cute::Layout = "((2,3),4):((1@0,1@1),2@0)".parse().unwrap();
/// let e = cute_cuda::codegen::coordinate_exprs(&l, 2, "w").unwrap();
/// assert_eq!(e[1], "(((w) / 2 % 3) * 1)");
/// ```
///
/// # Errors
///
/// A layout error of `l`'s shape (none for a well-formed layout).
pub fn coordinate_exprs(l: &Layout, rank: usize, var: &str) -> Result<Vec<String>, GpuError> {
    let shape: Vec<i64> = (0..l.leaf_count()).map(|i| l.leaf_at(i).0).collect();
    (0..rank)
        .map(|k| {
            let strides: Vec<i64> = (0..l.leaf_count())
                .map(|i| {
                    let s = l.stride_at(i);
                    let (path, depth) = s.path();
                    if depth == 1 && path[0] == k {
                        s.value()
                    } else {
                        0
                    }
                })
                .collect();
            let axis = Layout::flat(&shape, &strides)?;
            Ok(layout_eval_expr(&axis, var))
        })
        .collect()
}

/// `⌈a / b⌉` for `a >= 0` and `b > 0`, without the overflow of `(a + b - 1) / b` near `i64::MAX`.
pub(crate) fn ceil_div(a: i64, b: i64) -> i64 {
    a / b + i64::from(a % b != 0)
}
