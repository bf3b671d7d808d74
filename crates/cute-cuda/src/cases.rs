//! The cases the GPU checks and benchmarks run, as data: the paper's Table 2 copies, random
//! permutations of 2-D to 6-D tensors (ragged extents, negative strides), the ≥ 1 GiB bandwidth
//! permutations, BLAS-style GEMMs in every major and the paper's GETT; and the small random
//! generator the checks draw their data from. `cute gpu` runs them; the CPU tests compile their
//! kernels.
//!
//! ```
//! use cute_cuda::{atom::DType, cases};
//! let t2 = cases::table2_cases(DType::F32).unwrap();
//! assert_eq!(t2[0].name, "T2.1 1-D array f32");
//! let g = cases::gett_case(64, 16, 64, 64, 16, 256, DType::Bf16).unwrap();
//! assert_eq!(g.c.to_string(), "((64,64),256,16):((1,262144),1024,64)");
//! ```

use cute::Layout;

use crate::atom::DType;
use crate::error::GpuError;

/// A small deterministic generator (SplitMix64) for test data.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A value in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A nonzero integer in `-4..=4`.
    pub fn small_nonzero(&mut self) -> i32 {
        let x = (self.below(8) as i32) - 4;
        if x >= 0 {
            x + 1
        } else {
            x
        }
    }
}

/// One COPY case: a source and a destination layout and the element type.
#[derive(Clone, Debug)]
pub struct CopyCase {
    /// The case's name.
    pub name: String,
    /// Source layout.
    pub src: Layout,
    /// Destination layout.
    pub dst: Layout,
    /// Element type.
    pub dtype: DType,
    /// For permutations: the row-major shape and the permutation (`out = x.permute(perm)`), so
    /// that PyTorch can run the same case.
    pub permute: Option<(Vec<i64>, Vec<usize>)>,
}

/// The row-major (C order) layout of `shape`.
fn row_major(shape: &[i64]) -> Vec<i64> {
    let mut st = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        st[i] = st[i + 1] * shape[i + 1];
    }
    st
}

fn flat_layout(shape: &[i64], stride: &[i64]) -> Result<Layout, GpuError> {
    let s: Vec<String> = shape.iter().map(|x| x.to_string()).collect();
    let d: Vec<String> = stride.iter().map(|x| x.to_string()).collect();
    Ok(format!("({}):({})", s.join(","), d.join(",")).parse()?)
}

/// The case `out = x.permute(perm).contiguous()` for a row-major `x` of `shape`; `negate` reverses
/// the source's mode `i` (a negative stride) for each `i` in it.
pub fn permute_case(
    name: &str,
    shape: &[i64],
    perm: &[usize],
    dtype: DType,
    negate: &[usize],
) -> Result<CopyCase, GpuError> {
    let st = row_major(shape);
    let out_shape: Vec<i64> = perm.iter().map(|&p| shape[p]).collect();
    let mut src_st: Vec<i64> = perm.iter().map(|&p| st[p]).collect();
    for &i in negate {
        src_st[i] = -src_st[i];
    }
    Ok(CopyCase {
        name: name.to_string(),
        src: flat_layout(&out_shape, &src_st)?,
        dst: flat_layout(&out_shape, &row_major(&out_shape))?,
        dtype,
        permute: if negate.is_empty() {
            Some((shape.to_vec(), perm.to_vec()))
        } else {
            None
        },
    })
}

/// The rows of the paper's Table 2, and each with negated strides.
pub fn table2_cases(dtype: DType) -> Result<Vec<CopyCase>, GpuError> {
    let rows = [
        ("T2.1 1-D array", "8:1", "8:1"),
        ("T2.2 N-D array", "(8,2,3):(1,16,32)", "(8,2,3):(1,16,32)"),
        ("T2.3 gather", "(2,3,2):(42,1,128)", "12:1"),
        ("T2.4 scatter", "12:1", "(2,3,2):(42,1,128)"),
        ("T2.5 broadcast", "7:0", "7:1"),
        ("T2.6 constant", "7:0", "7:0"),
        ("T2.7 transpose", "(8,3):(1,8)", "(8,3):(3,1)"),
        (
            "T2.8 tensor transpose",
            "(8,(3,5)):(1,(57,8))",
            "(8,15):(1,8)",
        ),
    ];
    let mut v = Vec::new();
    for (name, s, d) in rows {
        let (src, dst): (Layout, Layout) = (s.parse()?, d.parse()?);
        v.push(CopyCase {
            name: format!("{name} {dtype}"),
            src,
            dst,
            dtype,
            permute: None,
        });
        v.push(CopyCase {
            name: format!("{name} {dtype} negated"),
            src: negated(&src)?,
            dst: negated(&dst)?,
            dtype,
            permute: None,
        });
    }
    Ok(v)
}

/// Every stride negated.
fn negated(l: &Layout) -> Result<Layout, GpuError> {
    let s = l.to_string();
    let (shape, stride) = s.split_once(':').unwrap_or((&s, "1"));
    let mut out = String::new();
    let mut num = String::new();
    for ch in stride.chars() {
        if ch.is_ascii_digit() {
            num.push(ch);
        } else {
            if !num.is_empty() {
                if num != "0" {
                    out.push('-');
                }
                out.push_str(&num);
                num.clear();
            }
            if ch != '-' {
                out.push(ch);
            }
        }
    }
    if !num.is_empty() {
        if num != "0" {
            out.push('-');
        }
        out.push_str(&num);
    }
    Ok(format!("{shape}:{out}").parse()?)
}

/// Random permutations of 2-D to 6-D tensors with ragged extents, some with negative strides, in
/// f32, bf16 and f16.
pub fn permutation_cases(seed: u64, per_rank: usize) -> Result<Vec<CopyCase>, GpuError> {
    let mut rng = Rng::new(seed);
    let mut v = Vec::new();
    for dtype in [DType::F32, DType::Bf16, DType::F16] {
        for rank in 2..=6usize {
            for j in 0..per_rank {
                // about 2^20 elements, extents not multiples of the tile
                let target = 1i64 << 20;
                let mut shape = Vec::new();
                let mut left = target;
                for i in 0..rank {
                    let rem = (rank - i) as u32;
                    let base = (left as f64).powf(1.0 / rem as f64).round() as i64;
                    let e = (base + rng.below(7) as i64 - 3).max(2);
                    shape.push(e);
                    left = (left / e).max(2);
                }
                let mut perm: Vec<usize> = (0..rank).collect();
                for i in (1..rank).rev() {
                    let k = rng.below(i as u64 + 1) as usize;
                    perm.swap(i, k);
                }
                if perm.iter().enumerate().all(|(i, &p)| i == p) {
                    perm.swap(0, rank - 1);
                }
                let negate: Vec<usize> = if j % 2 == 1 {
                    vec![rng.below(rank as u64) as usize]
                } else {
                    vec![]
                };
                let name = format!(
                    "{rank}-D {shape:?} perm {perm:?}{} {dtype}",
                    if negate.is_empty() { "" } else { " negated" }
                );
                v.push(permute_case(&name, &shape, &perm, dtype, &negate)?);
            }
        }
    }
    Ok(v)
}

/// The bandwidth cases: ≥ 1 GiB 2-D transposes and 3-D to 6-D permutations, in f32 and bf16.
pub fn bandwidth_cases() -> Result<Vec<CopyCase>, GpuError> {
    let mut v = Vec::new();
    for dtype in [DType::F32, DType::Bf16] {
        let k = if dtype == DType::F32 { 1 } else { 2 }; // same bytes
        let cases: [(&str, Vec<i64>, Vec<usize>); 6] = [
            ("2-D transpose", vec![16384, 16384 * k], vec![1, 0]),
            ("3-D (0,2,1)", vec![256, 1024, 1024 * k], vec![0, 2, 1]),
            (
                "4-D (0,1,3,2)",
                vec![64, 64, 256, 256 * k],
                vec![0, 1, 3, 2],
            ),
            (
                "4-D (3,2,1,0)",
                vec![64, 64, 256, 256 * k],
                vec![3, 2, 1, 0],
            ),
            (
                "5-D (4,1,2,3,0)",
                vec![16, 32, 32, 64, 256 * k],
                vec![4, 1, 2, 3, 0],
            ),
            (
                "6-D (5,4,3,2,1,0)",
                vec![16, 16, 16, 16, 64, 64 * k],
                vec![5, 4, 3, 2, 1, 0],
            ),
        ];
        for (name, shape, perm) in cases {
            v.push(permute_case(
                &format!("{name} {shape:?} {dtype}"),
                &shape,
                &perm,
                dtype,
                &[],
            )?);
        }
    }
    Ok(v)
}

/// One GEMM case.
#[derive(Clone, Debug)]
pub struct GemmCase {
    /// The case's name.
    pub name: String,
    /// `A (M,K[,L])`.
    pub a: Layout,
    /// `B (N,K[,L])`.
    pub b: Layout,
    /// `C (M,N[,L])`.
    pub c: Layout,
    /// Operand type.
    pub ab: DType,
    /// Output type.
    pub c_type: DType,
}

/// BLAS-style GEMM layouts: `ta`/`tb` are `N` or `T` (A `M×K`, B `K×N`, column-major when `N`),
/// C column-major.
pub fn blas_case(
    m: i64,
    n: i64,
    k: i64,
    ta: char,
    tb: char,
    ab: DType,
    c_type: DType,
) -> Result<GemmCase, GpuError> {
    let a = if ta == 'N' {
        format!("({m},{k}):(1,{m})")
    } else {
        format!("({m},{k}):({k},1)")
    };
    let b = if tb == 'N' {
        format!("({n},{k}):({k},1)")
    } else {
        format!("({n},{k}):(1,{n})")
    };
    Ok(GemmCase {
        name: format!("{ta}{tb} {m}x{n}x{k} {ab}->{c_type}"),
        a: a.parse()?,
        b: b.parse()?,
        c: format!("({m},{n}):(1,{m})").parse()?,
        ab,
        c_type,
    })
}

/// The paper's GETT `C_stqp = A_stupr B_qtru`, every tensor column-major in its index order,
/// folded to `(M,N,K,L) = ((s,p), q, (u,r), t)`.
pub fn gett_case(
    s: i64,
    t: i64,
    u: i64,
    p: i64,
    r: i64,
    q: i64,
    ab: DType,
) -> Result<GemmCase, GpuError> {
    let (a1, a2, a3, a4) = (s, s * t, s * t * u, s * t * u * p); // strides of t, u, p, r in A
    let (b1, b2, b3) = (q, q * t, q * t * r); // t, r, u in B
    let (c1, c2, c3) = (s, s * t, s * t * q); // t, q, p in C
    Ok(GemmCase {
        name: format!("GETT stupr,qtru->stqp s{s} t{t} u{u} p{p} r{r} q{q} {ab}"),
        a: format!("(({s},{p}),({u},{r}),{t}):((1,{a3}),({a2},{a4}),{a1})").parse()?,
        b: format!("({q},({u},{r}),{t}):(1,({b3},{b2}),{b1})").parse()?,
        c: format!("(({s},{p}),{q},{t}):((1,{c3}),{c2},{c1})").parse()?,
        ab,
        c_type: ab,
    })
}

/// The GEMM correctness cases: NT, TN, NN, TT in bf16 and f16, multiples of the tile and ragged,
/// a 16-bit C with tiles partial in both modes, the paper's GETT at two sizes, the folds of a dot,
/// a matrix-vector and an outer product, and two 4-D batched cases.
pub fn gemm_cases() -> Result<Vec<GemmCase>, GpuError> {
    let mut v = Vec::new();
    for ab in [DType::Bf16, DType::F16] {
        for (m, n, k) in [
            (256, 384, 128),
            (301, 203, 77),
            (300, 200, 100),
            (296, 200, 136),
        ] {
            for ta in ['N', 'T'] {
                for tb in ['N', 'T'] {
                    let ct = if (m + ta as i64) % 2 == 0 {
                        DType::F32
                    } else {
                        ab
                    };
                    v.push(blas_case(m, n, k, ta, tb, ab, ct)?);
                }
            }
        }
        // a 16-bit C through the TMA kernel's stmatrix staging and TMA stores, tiles partial
        // in M (8 rows of the last 64-row box) and N (8 columns of the last column box)
        for ta in ['N', 'T'] {
            for tb in ['N', 'T'] {
                v.push(blas_case(264, 328, 72, ta, tb, ab, ab)?);
            }
        }
        v.push(gett_case(16, 4, 32, 8, 8, 48, ab)?);
        // a GETT the TMA kernel plans whose operands interleave their 4 batches (A's t between
        // its s and u, 128 bytes apart), C's columns ragged at widths 128 and 256
        v.push(gett_case(64, 4, 64, 4, 2, 192, ab)?);
    }
    // for the last wave split along K (`cute gpu` splits every case's partial last wave by
    // force, `wgmma-tma-sk`): 36 tiles of 128 x 256 (one partial wave on 132 SMs) or, 64 wide,
    // 144 (a whole wave and 12 split), 16 k-blocks each: with a bf16 C (its epilogue
    // overlapped; one box per tile at 64 wide), ragged with an f32 C, and batched
    v.push(blas_case(
        768,
        1536,
        1024,
        'N',
        'T',
        DType::Bf16,
        DType::Bf16,
    )?);
    v.push(blas_case(
        700,
        1500,
        1000,
        'T',
        'N',
        DType::Bf16,
        DType::F32,
    )?);
    let (m, n, k, l) = (256i64, 512i64, 1024i64, 9i64);
    v.push(GemmCase {
        name: format!("batched m{m} n{n} k{k} l{l} bf16"),
        a: format!("({m},{k},{l}):(1,{m},{})", m * k).parse()?,
        b: format!("({n},{k},{l}):({k},1,{})", n * k).parse()?,
        c: format!("({m},{n},{l}):(1,{m},{})", m * n).parse()?,
        ab: DType::Bf16,
        c_type: DType::Bf16,
    });
    // degenerate folds of `contract`: a dot product (`k,k->`, M = N = 1, the scalar's modes of
    // stride 0), a matrix-vector product (`mk,k->m`, N = 1) and an outer product (`m,n->mn`,
    // K = 1)
    for (name, a, b, c) in [
        (
            "dot k,k-> k4096 bf16",
            "(1,4096):(0,1)",
            "(1,4096):(0,1)",
            "(1,1):(0,0)",
        ),
        (
            "gemv mk,k->m m300 k136 bf16",
            "(300,136):(136,1)",
            "(1,136):(0,1)",
            "(300,1):(1,0)",
        ),
        (
            "outer m,n->mn m264 n328 bf16",
            "(264,1):(1,0)",
            "(328,1):(1,0)",
            "(264,328):(1,264)",
        ),
    ] {
        v.push(GemmCase {
            name: name.to_string(),
            a: a.parse()?,
            b: b.parse()?,
            c: c.parse()?,
            ab: DType::Bf16,
            c_type: DType::F32,
        });
    }
    // 4-D batched: C_mnbh = Σ_k A_mkbh B_nkbh with the batch (b,h) folded into L; with an f32 C,
    // and with a bf16 C (columns contiguous: stmatrix without .trans) on partial tiles
    let (k, b, h) = (96i64, 3i64, 5i64);
    for (m, n, c_type, suffix) in [
        (192i64, 160i64, DType::F32, ""),
        (200, 168, DType::Bf16, "->bf16"),
    ] {
        v.push(GemmCase {
            name: format!("batched 4-D m{m} n{n} k{k} (b,h)=({b},{h}) bf16{suffix}"),
            a: format!("({m},{k},({b},{h})):({k},1,({},{}))", m * k, m * k * b).parse()?,
            b: format!("({n},{k},({b},{h})):(1,{n},({},{}))", n * k, n * k * b).parse()?,
            c: format!("({m},{n},({b},{h})):({n},1,({},{}))", m * n, m * n * b).parse()?,
            ab: DType::Bf16,
            c_type,
        });
    }
    Ok(v)
}

/// The GEMM performance cases: 8192³ bf16 (A row-major, B row-major `K×N`, as `torch.matmul`),
/// the paper's GETT at 3.4·10¹⁰ flops, and a skinny 16384 × 128 × 8192.
pub fn gemm_bench_cases() -> Result<Vec<GemmCase>, GpuError> {
    let n = 8192;
    Ok(vec![
        GemmCase {
            name: format!("matmul {n}^3 bf16"),
            a: format!("({n},{n}):({n},1)").parse()?,
            b: format!("({n},{n}):(1,{n})").parse()?,
            c: format!("({n},{n}):({n},1)").parse()?,
            ab: DType::Bf16,
            c_type: DType::Bf16,
        },
        gett_case(64, 16, 64, 64, 16, 256, DType::Bf16)?,
        // a skinny GEMM: one wave of 128-wide tiles, two of 64-wide ones, 256-wide ones half
        // padding (the tile width chosen per problem: 128)
        GemmCase {
            name: format!("matmul 16384x128x{n} bf16"),
            a: format!("(16384,{n}):({n},1)").parse()?,
            b: format!("(128,{n}):(1,128)").parse()?,
            c: "(16384,128):(128,1)".parse()?,
            ab: DType::Bf16,
            c_type: DType::Bf16,
        },
    ])
}
