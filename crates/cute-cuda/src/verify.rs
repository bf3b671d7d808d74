//! Atoms checked on the hardware: kernels that record which thread holds which element, compared
//! with the atoms' layouts.
//!
//! * **MMA** (`mma.sync`): each thread loads its A and B registers from the coordinates the
//!   atom's A and B layouts give it, executes the instruction, and stores its accumulators at the
//!   coordinates of the C layout. With exact small-integer operands the product must equal the
//!   reference exactly; a single wrong value of any of the three layouts moves an operand or a
//!   result and breaks the equality.
//! * **ldmatrix / stmatrix**: shared memory holds, in every 16-bit element, the index of the
//!   logical element the source layout says is there (each thread's row at a permuted address);
//!   after the instruction each thread writes out what it received, which must be the index the
//!   destination layout names.
//! * **cp.async**: each thread's 16 bytes must arrive in order.
//!
//! The kernels' tables are generated from the layouts; each check function's `perturb` flag exchanges two
//! values of one layout, and the run reports that the hardware then disagrees (the check can fail).

use crate::atom::{CopyAtom, DType, MmaAtom};
use crate::codegen::Code;
use crate::error::GpuError;

/// A check's name: the atom's, then, for the control run, which operand was perturbed
/// (`" (A perturbed)"`, or `" (perturbed)"` where `what` is empty).
fn check_name(atom: &str, perturb: bool, what: &str) -> String {
    match (perturb, what) {
        (false, _) => atom.to_string(),
        (true, "") => format!("{atom} (perturbed)"),
        (true, w) => format!("{atom} ({w} perturbed)"),
    }
}

/// An atom check: its name and the CUDA source of its kernel, with the expected output.
#[derive(Clone, Debug)]
pub struct AtomCheck {
    /// The atom's name.
    pub name: String,
    /// The kernel's source.
    pub source: String,
    /// Threads in the block.
    pub threads: u32,
    /// Inputs (32-bit words).
    pub input: Vec<u32>,
    /// Words the kernel writes.
    pub output_len: usize,
    /// The expected output (`None` entries are not compared).
    pub expected: Vec<Option<u32>>,
}

fn table(name: &str, xs: &[i64]) -> String {
    let items: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    format!(
        "__constant__ int {name}[{}] = {{{}}};",
        xs.len(),
        items.join(",")
    )
}

/// A small-integer operand value as bits of `t` (exact in every type used here: the MMA atoms'
/// f32, tf32, bf16 and f16; integer types hold the integer).
fn bits_of(t: DType, x: i32) -> u32 {
    let f = x as f32;
    match t {
        DType::F32 | DType::Tf32 => f.to_bits(),
        DType::F64 | DType::I8 | DType::U8 | DType::I16 | DType::I32 | DType::I64 => x as u32,
        DType::Bf16 => f.to_bits() >> 16,
        // small integers: exact in binary16 and in the 8-bit floats
        DType::F16 => small_float(x, 5, 10),
        DType::E4m3 => small_float(x, 4, 3),
        DType::E5m2 => small_float(x, 5, 2),
    }
}

/// The bits of the small integer `x` as a float of `exp` exponent and `man` mantissa bits (bias
/// `2^(exp-1) - 1`); exact when `|x| < 2^(man+1)`.
fn small_float(x: i32, exp: u32, man: u32) -> u32 {
    if x == 0 {
        return 0;
    }
    let sign = if x < 0 { 1u32 << (exp + man) } else { 0 };
    let a = x.unsigned_abs();
    let e = 31 - a.leading_zeros(); // floor(log2 a)
    let mant = ((a << man) >> e) & ((1 << man) - 1);
    sign | ((e + (1 << (exp - 1)) - 1) << man) | mant
}

/// `C(m, n) = Σ_k A(m, k)·B(n, k)` of small integers, exact in f32, as the bits each element of
/// C must have (`A` indexed `m + M·k`, `B` indexed `n + N·k`, C `m + M·n`).
fn exact_product(a: &[i32], b: &[i32], (m, n, k): (i64, i64, i64)) -> Vec<Option<u32>> {
    let mut c = vec![None; (m * n) as usize];
    for mm in 0..m {
        for nn in 0..n {
            let s: i64 = (0..k)
                .map(|kk| a[(mm + m * kk) as usize] as i64 * b[(nn + n * kk) as usize] as i64)
                .sum();
            c[(mm + m * nn) as usize] = Some((s as f32).to_bits());
        }
    }
    c
}

/// The f32 bits of `exact` (small integers) as an accumulator of `c` holds them: f32 as they are,
/// f16 as binary16 bits (exact: the sums are small integers).
fn in_accumulator(exact: Vec<Option<u32>>, c: DType) -> Vec<Option<u32>> {
    exact
        .into_iter()
        .map(|e| {
            e.map(|bits| match c {
                DType::F16 => bits_of(DType::F16, f32::from_bits(bits) as i32),
                _ => bits,
            })
        })
        .collect()
}

/// The hardware check of an `mma.sync` atom, with operands drawn from `seed`. `perturb`
/// exchanges value 0 of thread 0 in the A layout's table with the first entry that holds a
/// different number (the check must then fail).
pub fn mma_check(atom: &MmaAtom, seed: u64, perturb: bool) -> Result<AtomCheck, GpuError> {
    let (m, n, k) = atom.shape_mnk;
    let (va, vb, vc) = atom.values();
    let threads = atom.threads();
    if threads != 32 {
        return Err(GpuError::unsupported(
            "mma check",
            format!(
                "{}: only warp-level mma.sync atoms are checked here",
                atom.name
            ),
        ));
    }
    let mut a_idx = Vec::new();
    let mut b_idx = Vec::new();
    let mut c_idx = Vec::new();
    for t in 0..32 {
        for v in 0..va {
            let (mm, kk) = atom.a_coord(t, v)?;
            a_idx.push(mm + m * kk);
        }
        for v in 0..vb {
            let (nn, kk) = atom.b_coord(t, v)?;
            b_idx.push(nn + n * kk);
        }
        for v in 0..vc {
            let (mm, nn) = atom.c_coord(t, v)?;
            c_idx.push(mm + m * nn);
        }
    }
    let mut rng = crate::cases::Rng::new(seed);
    let a: Vec<i32> = (0..m * k).map(|_| rng.small_nonzero()).collect();
    let b: Vec<i32> = (0..n * k).map(|_| rng.small_nonzero()).collect();
    if perturb {
        // exchange thread 0's value 0 with the first of its values that holds a different number,
        // so that the exchange changes what the instruction multiplies
        let v0 = a[a_idx[0] as usize];
        if let Some(j) = (1..a_idx.len()).find(|&j| a[a_idx[j] as usize] != v0) {
            a_idx.swap(0, j);
        }
    }
    let t = atom.ab_type;
    let mut input: Vec<u32> = a.iter().map(|&x| bits_of(t, x)).collect();
    input.extend(b.iter().map(|&x| bits_of(t, x)));
    // an f16 accumulator: two values a register, the sums (small integers) exact in f16
    let half = atom.c_type == DType::F16;
    let expected = in_accumulator(exact_product(&a, &b, (m, n, k)), atom.c_type);
    let wide = t.bits() == 32;
    let regs = |v: i64| if wide { v } else { v / 2 };
    let mut c = Code::new();
    c.line(format!("// hardware check of {} ({})", atom.name, atom.ptx));
    c.line(table("A_IDX", &a_idx));
    c.line(table("B_IDX", &b_idx));
    c.line(table("C_IDX", &c_idx));
    c.line("extern \"C\" __global__ void atom_check(const unsigned int* in, unsigned int* out) {");
    c.line("  const int t = threadIdx.x;");
    let (dregs, dty, dcon) = if half {
        (vc / 2, "unsigned int", "r")
    } else {
        (vc, "float", "f")
    };
    c.line(format!(
        "  unsigned int a[{}], b[{}]; {dty} d[{dregs}];",
        regs(va),
        regs(vb)
    ));
    for (name, vals, base) in [("a", va, 0), ("b", vb, m * k)] {
        let tab = if name == "a" { "A_IDX" } else { "B_IDX" };
        if wide {
            c.line(format!(
                "  for (int v = 0; v < {vals}; ++v) {name}[v] = in[{base} + {tab}[t * {vals} + v]];"
            ));
        } else {
            c.line(format!(
                "  for (int v = 0; v < {}; ++v) {name}[v] = in[{base} + {tab}[t * {vals} + 2 * v]] | (in[{base} + {tab}[t * {vals} + 2 * v + 1]] << 16);",
                vals / 2
            ));
        }
    }
    c.line(format!("  for (int v = 0; v < {dregs}; ++v) d[v] = 0;"));
    // the asm operand list: d (vc floats), a, b, c = d
    let mut ops = Vec::new();
    let mut idx = 0;
    let mut group = |cnt: i64| {
        let g: Vec<String> = (0..cnt).map(|i| format!("%{}", idx + i)).collect();
        idx += cnt;
        format!("{{{}}}", g.join(","))
    };
    let dg = group(dregs);
    let ag = group(regs(va));
    let bg = group(regs(vb));
    let cg = group(dregs);
    ops.push(format!("{} {dg}, {ag}, {bg}, {cg};", atom.ptx));
    let outs: Vec<String> = (0..dregs).map(|v| format!("\"={dcon}\"(d[{v}])")).collect();
    let mut ins: Vec<String> = (0..regs(va)).map(|v| format!("\"r\"(a[{v}])")).collect();
    ins.extend((0..regs(vb)).map(|v| format!("\"r\"(b[{v}])")));
    ins.extend((0..dregs).map(|v| format!("\"{dcon}\"(d[{v}])")));
    c.line(format!(
        "  asm volatile(\"{}\" : {} : {});",
        ops[0],
        outs.join(", "),
        ins.join(", ")
    ));
    if half {
        c.line(format!(
            "  for (int v = 0; v < {dregs}; ++v) {{ out[C_IDX[t * {vc} + 2 * v]] = d[v] & 0xFFFFu; out[C_IDX[t * {vc} + 2 * v + 1]] = d[v] >> 16; }}"
        ));
    } else {
        c.line(format!(
            "  for (int v = 0; v < {vc}; ++v) out[C_IDX[t * {vc} + v]] = __float_as_uint(d[v]);"
        ));
    }
    c.line("}");
    Ok(AtomCheck {
        name: check_name(atom.name, perturb, "A"),
        source: c.finish(),
        threads: 32,
        input,
        output_len: (m * n) as usize,
        expected,
    })
}

/// The row each thread's address points at: a permutation, so that the addresses matter.
fn row_of(t: i64) -> i64 {
    (t * 5 + 3) % 32
}

fn ldst_tables(atom: &CopyAtom, perturb: bool) -> Result<(Vec<i64>, Vec<i64>), GpuError> {
    // source: logical 16-bit element index held by (thread, element); destination likewise
    let (sb, db) = atom.bits_per_thread();
    let mut src = Vec::new();
    let mut dst = Vec::new();
    for t in 0..32 {
        for e in 0..sb / 16 {
            src.push(atom.src_bit(t, 16 * e)? / 16);
        }
        for e in 0..db / 16 {
            dst.push(atom.dst_bit(t, 16 * e)? / 16);
        }
    }
    if perturb {
        dst.swap(0, 1);
    }
    Ok((src, dst))
}

/// The hardware check of an `ldmatrix` atom; `perturb` exchanges two values of its destination
/// layout.
pub fn ldmatrix_check(
    atom: &CopyAtom,
    num: i64,
    trans: bool,
    perturb: bool,
) -> Result<AtomCheck, GpuError> {
    let (src, dst) = ldst_tables(atom, perturb)?;
    // shared memory: row_of(t) holds thread t's 8 source elements
    let mut smem = vec![0u32; 32 * 8];
    for t in 0..32 {
        for e in 0..8 {
            smem[(row_of(t) * 8 + e) as usize] = src[(t * 8 + e) as usize] as u32;
        }
    }
    let regs = num;
    let expected: Vec<Option<u32>> = dst.iter().map(|&x| Some(x as u32)).collect();
    let mut c = Code::new();
    c.line(format!("// hardware check of {} ({})", atom.name, atom.ptx));
    c.line("extern \"C\" __global__ void atom_check(const unsigned int* in, unsigned int* out) {");
    c.line("  __shared__ __align__(16) unsigned short sm[256];");
    c.line("  const int t = threadIdx.x;");
    c.line("  for (int i = t; i < 256; i += 32) sm[i] = (unsigned short)in[i];");
    c.line("  __syncwarp();");
    c.line(
        "  unsigned int addr = (unsigned int)__cvta_generic_to_shared(sm + ((t * 5 + 3) % 32) * 8);",
    );
    c.line(format!("  unsigned int r[{regs}];"));
    let outs: Vec<String> = (0..regs).map(|j| format!("\"=r\"(r[{j}])")).collect();
    let regs_list: Vec<String> = (0..regs).map(|j| format!("%{j}")).collect();
    let _ = trans;
    c.line(format!(
        "  asm volatile(\"{} {{{}}}, [%{regs}];\" : {} : \"r\"(addr));",
        atom.ptx,
        regs_list.join(","),
        outs.join(", ")
    ));
    c.line(format!(
        "  for (int j = 0; j < {regs}; ++j) {{ out[t * {} + 2 * j] = r[j] & 0xFFFF; out[t * {} + 2 * j + 1] = r[j] >> 16; }}",
        2 * regs,
        2 * regs
    ));
    c.line("}");
    Ok(AtomCheck {
        name: check_name(atom.name, perturb, "dst"),
        source: c.finish(),
        threads: 32,
        input: smem,
        output_len: (32 * 2 * regs) as usize,
        expected,
    })
}

/// The hardware check of a `stmatrix` atom; `perturb` exchanges two values of its destination
/// layout.
pub fn stmatrix_check(atom: &CopyAtom, num: i64, perturb: bool) -> Result<AtomCheck, GpuError> {
    let (src, dst) = ldst_tables(atom, perturb)?;
    let regs = num;
    // each thread's registers: its source elements
    let input: Vec<u32> = src.iter().map(|&x| x as u32).collect();
    // rows written: those of the first 8·num threads
    let mut expected = vec![None; 256];
    for t in 0..8 * num {
        for e in 0..8 {
            expected[(row_of(t) * 8 + e) as usize] = Some(dst[(t * 8 + e) as usize] as u32);
        }
    }
    let mut c = Code::new();
    c.line(format!("// hardware check of {} ({})", atom.name, atom.ptx));
    c.line("extern \"C\" __global__ void atom_check(const unsigned int* in, unsigned int* out) {");
    c.line("  __shared__ __align__(16) unsigned short sm[256];");
    c.line("  const int t = threadIdx.x;");
    c.line("  for (int i = t; i < 256; i += 32) sm[i] = 0xFFFF;");
    c.line("  __syncwarp();");
    c.line(format!("  unsigned int r[{regs}];"));
    c.line(format!(
        "  for (int j = 0; j < {regs}; ++j) r[j] = in[t * {} + 2 * j] | (in[t * {} + 2 * j + 1] << 16);",
        2 * regs,
        2 * regs
    ));
    c.line("  unsigned int addr = (unsigned int)__cvta_generic_to_shared(sm + ((t * 5 + 3) % 32) * 8);");
    let ins: Vec<String> = (0..regs).map(|j| format!("\"r\"(r[{j}])")).collect();
    let regs_list: Vec<String> = (1..=regs).map(|j| format!("%{j}")).collect();
    c.line(format!(
        "  asm volatile(\"{} [%0], {{{}}};\" :: \"r\"(addr), {} : \"memory\");",
        atom.ptx,
        regs_list.join(","),
        ins.join(", ")
    ));
    c.line("  __syncwarp();");
    c.line("  for (int i = t; i < 256; i += 32) out[i] = sm[i];");
    c.line("}");
    Ok(AtomCheck {
        name: check_name(atom.name, perturb, "dst"),
        source: c.finish(),
        threads: 32,
        input,
        output_len: 256,
        expected,
    })
}

/// The hardware check of a `cp.async` atom (4, 8 or 16 bytes, `.ca` or `.cg`, with or without
/// zero fill): 32 threads each move their bytes to a permuted slot; the bytes must arrive in the
/// order the atom's layouts give (bit `b` to bit `b`). A zero-fill atom is run with its predicate
/// false on the odd threads, whose slots must then hold zeros (the slots start poisoned).
/// `perturb` exchanges thread 0's first two words (the first two bytes for a 4-byte copy),
/// which the check must catch.
pub fn cp_async_check(atom: &CopyAtom, seed: u64, perturb: bool) -> Result<AtomCheck, GpuError> {
    let bits = atom.bits_per_thread().0;
    if atom.threads() != 1 || !matches!(bits, 32 | 64 | 128) {
        return Err(GpuError::unsupported(
            "cp.async check",
            format!("{}: a one-thread copy of 4, 8 or 16 bytes", atom.name),
        ));
    }
    let bytes = bits / 8;
    let words = bytes / 4;
    let zfill = atom.name.contains("ZFILL");
    let mut rng = crate::cases::Rng::new(seed);
    let input: Vec<u32> = (0..32 * words).map(|_| rng.next_u32()).collect();
    // expected: word w of thread t's bytes is the word the layouts map it from; a 4-byte copy is
    // checked by its bytes' order through the word's value
    let mut expected = vec![None; (32 * words) as usize];
    for t in 0..32i64 {
        for w in 0..words {
            let value = if zfill && t % 2 == 1 {
                0
            } else if words == 1 {
                let word = input[t as usize];
                let mut out = 0u32;
                for byte in 0..4i64 {
                    let mut b = atom.dst_bit(0, 8 * byte)?;
                    if perturb && t == 0 && byte < 2 {
                        b = atom.dst_bit(0, 8 * (1 - byte))?;
                    }
                    let from = atom.src_bit(0, b)? / 8;
                    out |= ((word >> (8 * from)) & 0xFF) << (8 * byte);
                }
                out
            } else {
                let mut b = atom.dst_bit(0, 32 * w)?;
                if perturb && t == 0 && w < 2 {
                    b = atom.dst_bit(0, 32 * (1 - w))?;
                }
                let from = atom.src_bit(0, b)? / 32;
                input[(t * words + from) as usize]
            };
            expected[(t * words + w) as usize] = Some(value);
        }
    }
    let mut c = Code::new();
    c.line(format!("// hardware check of {} ({})", atom.name, atom.ptx));
    c.line("extern \"C\" __global__ void atom_check(const unsigned int* in, unsigned int* out) {");
    c.line(format!(
        "  __shared__ __align__(16) unsigned int sm[{}];",
        32 * words
    ));
    c.line("  const int t = threadIdx.x;");
    c.line(format!(
        "  for (int i = t; i < {}; i += 32) sm[i] = 0xDEADBEEFu;",
        32 * words
    ));
    c.line("  __syncwarp();");
    c.line("  const int slot = (t * 5 + 3) % 32;");
    c.line(format!(
        "  unsigned int d = (unsigned int)__cvta_generic_to_shared(sm + slot * {words});"
    ));
    if zfill {
        // the source size: all the bytes, or none (the destination zero-filled)
        c.line(format!("  int src_size = (t % 2 == 0) ? {bytes} : 0;"));
        c.line(format!(
            "  asm volatile(\"{} [%0], [%1], {bytes}, %2;\" :: \"r\"(d), \"l\"(in + t * {words}), \"r\"(src_size) : \"memory\");",
            atom.ptx
        ));
    } else {
        c.line(format!(
            "  asm volatile(\"{} [%0], [%1], {bytes};\" :: \"r\"(d), \"l\"(in + t * {words}) : \"memory\");",
            atom.ptx
        ));
    }
    c.line("  asm volatile(\"cp.async.commit_group;\" ::: \"memory\");");
    c.line("  asm volatile(\"cp.async.wait_group 0;\" ::: \"memory\");");
    c.line("  __syncwarp();");
    c.line(format!(
        "  for (int w = 0; w < {words}; ++w) out[t * {words} + w] = sm[slot * {words} + w];"
    ));
    c.line("}");
    Ok(AtomCheck {
        name: check_name(atom.name, perturb, ""),
        source: c.finish(),
        threads: 32,
        input,
        output_len: (32 * words) as usize,
        expected,
    })
}

impl AtomCheck {
    /// Compares a kernel's output with the expectation: the number of compared words and the
    /// first disagreement.
    pub fn compare(&self, out: &[u32]) -> (usize, Option<String>) {
        let mut compared = 0;
        for (i, (e, &o)) in self.expected.iter().zip(out).enumerate() {
            if let Some(e) = e {
                compared += 1;
                if *e != o {
                    return (
                        compared,
                        Some(format!("word {i}: hardware {o:#x}, layout {e:#x}")),
                    );
                }
            }
        }
        (compared, None)
    }
}

/// The shared-memory tile of `rows × 16` K-major 16-bit elements in the canonical layout of
/// `sw`, as `wgmma` reads it: coordinate `(r, k)` (index `r + rows·k`) ↦ element offset before the
/// swizzle, the swizzle, the elements the tile spans, and the descriptor's LBO and SBO in bytes.
///
/// * swizzled modes: rows of the swizzle's width `W` (16, 32 or 64 elements), `(rows,16):(W,1)`,
///   8-row groups `8·W·2` bytes apart (SBO);
/// * no swizzle: 8×8 core matrices of 128 contiguous bytes, `((8,rows/8),(8,2)):((8,128),(1,64))`:
///   8-row groups 256 bytes apart (SBO), the two k halves 128 bytes apart (LBO).
pub fn wgmma_k_major_tile(
    rows: i64,
    sw: crate::atom::GmmaSwizzle,
) -> Result<(cute::Layout, cute::Swizzle, i64, i64, i64), GpuError> {
    use crate::atom::{gmma_smem_atom, GmmaSwizzle, Major};
    let atom = gmma_smem_atom(Major::K, sw, 16)?;
    Ok(match sw {
        GmmaSwizzle::None => (
            format!("((8,{}),(8,2)):((8,128),(1,64))", rows / 8).parse()?,
            atom.swizzle,
            rows * 16,
            128,
            256,
        ),
        _ => {
            let w = sw.row_bytes() / 2;
            (
                format!("({rows},16):({w},1)").parse()?,
                atom.swizzle,
                rows * w,
                16,
                8 * w * 2,
            )
        }
    })
}

/// The hardware check of a `wgmma m64nNk16` atom with A and B in shared memory in the canonical
/// K-major layout of `sw` ([`wgmma_k_major_tile`]; its first 8 rows are
/// [`crate::atom::gmma_smem_atom`]): one instruction reads them through descriptors, and each of
/// the 128 threads stores its accumulators at the coordinates of the atom's C layout (an f16
/// accumulator two to a register). With exact small-integer operands the result must equal the
/// product; `perturb` exchanges values 0 and 1 of thread 0 in the C layout's table. An `RS` atom
/// (A in registers) loads each thread's A values at the coordinates of its A layout instead, and
/// `perturb` exchanges two of thread 0's A values that differ.
pub fn wgmma_check(
    atom: &MmaAtom,
    sw: crate::atom::GmmaSwizzle,
    seed: u64,
    perturb: bool,
) -> Result<AtomCheck, GpuError> {
    let (m, n, k) = atom.shape_mnk;
    let (ta, tb) = (atom.ab_type, atom.b_type);
    let bits = ta.bits();
    if atom.threads() != 128 || k * bits != 256 || tb.bits() != bits {
        return Err(GpuError::unsupported(
            "wgmma check",
            format!("{}: the check runs wgmma atoms of 32 bytes of K", atom.name),
        ));
    }
    // the tiles in shared memory are those of a 16-bit K = 16 tile (rows of 32 bytes): a tf32
    // element is two of its 16-bit units, two fp8 elements share one; unit `i` is row `i % rows`,
    // unit column `i / rows`
    let unit = |base: i64, rows: i64| -> String {
        let (r, ku) = (format!("(i % {rows})"), format!("(i / {rows})"));
        match bits {
            16 => format!("(unsigned short)in[{base} + i]"),
            32 => format!(
                "(unsigned short)(in[{base} + {r} + {rows} * ({ku} / 2)] >> (16 * ({ku} % 2)))"
            ),
            _ => format!(
                "(unsigned short)((in[{base} + {r} + {rows} * (2 * {ku})] & 0xFFu) | ((in[{base} + {r} + {rows} * (2 * {ku} + 1)] & 0xFFu) << 8))"
            ),
        }
    };
    // A from registers: the atom's A layout says which element each thread holds as each value
    let rs = atom.a.mode(0)?.leaf_count() > 1 || atom.a.mode(0)?.leaf_at(0).1 != 0;
    let half = atom.c_type == DType::F16;
    let vals = m * n / 128;
    let mut c_idx = Vec::new();
    for t in 0..128 {
        for v in 0..vals {
            let (mm, nn) = atom.c_coord(t, v)?;
            c_idx.push(mm + m * nn);
        }
    }
    let va = atom.a.size() / 128;
    let mut a_idx = Vec::new();
    if rs {
        for t in 0..128 {
            for v in 0..va {
                let (mm, kk) = atom.a_coord(t, v)?;
                a_idx.push(mm + m * kk);
            }
        }
    }
    let mut rng = crate::cases::Rng::new(seed);
    let a: Vec<i32> = (0..m * k).map(|_| rng.small_nonzero()).collect();
    let b: Vec<i32> = (0..n * k).map(|_| rng.small_nonzero()).collect();
    if perturb {
        if rs {
            // thread 0's value 0 exchanged with the first of its values that holds another
            // number: what the instruction multiplies changes
            let v0 = a[a_idx[0] as usize];
            if let Some(j) = (1..a_idx.len()).find(|&j| a[a_idx[j] as usize] != v0) {
                a_idx.swap(0, j);
            }
        } else {
            c_idx.swap(0, 1);
        }
    }
    let mut input: Vec<u32> = a.iter().map(|&x| bits_of(ta, x)).collect();
    input.extend(b.iter().map(|&x| bits_of(tb, x)));
    let expected = in_accumulator(exact_product(&a, &b, (m, n, k)), atom.c_type);
    let (la, swa, na, lbo, sbo) = wgmma_k_major_tile(m, sw)?;
    let (lb, swb, nb, _, _) = wgmma_k_major_tile(n, sw)?;
    let mut c = Code::new();
    c.line(format!(
        "// hardware check of {} m64n{n}k{k} ({}), K-major {sw:?}: A {}, B {swb} o {lb} (16-bit units)",
        atom.name,
        atom.ptx,
        if rs {
            format!("in registers {}", atom.a)
        } else {
            format!("{swa} o {la}")
        }
    ));
    c.line(table("C_IDX", &c_idx));
    if rs {
        c.line(table("A_IDX", &a_idx));
    }
    c.line("extern \"C\" __global__ void atom_check(const unsigned int* in, unsigned int* out) {");
    c.line(format!(
        "  __shared__ __align__(1024) unsigned short sa[{na}], sb[{nb}];"
    ));
    c.line("  const int t = threadIdx.x;");
    c.line(format!("  for (int i = t; i < {na}; i += 128) sa[i] = 0;"));
    c.line(format!("  for (int i = t; i < {nb}; i += 128) sb[i] = 0;"));
    c.line("  __syncthreads();");
    for (name, rows, base, l, swz) in [("sa", m, 0, &la, &swa), ("sb", n, m * k, &lb, &swb)] {
        if rs && name == "sa" {
            continue;
        }
        c.line(format!("  for (int i = t; i < {}; i += 128) {{", rows * 16));
        c.line(format!(
            "    const int o = {};",
            crate::codegen::layout_eval_expr(l, "i")
        ));
        c.line(format!(
            "    {name}[{}] = {};",
            crate::codegen::swizzle_expr(swz, "o"),
            unit(base, rows)
        ));
        c.line("  }");
    }
    // 32 / bits values a register, the first in the lowest bits
    let per = 32 / bits;
    let nra = va / per;
    if rs {
        c.line(format!("  unsigned int ra[{nra}];"));
        c.line(format!("  for (int j = 0; j < {nra}; ++j) {{"));
        c.line("    unsigned int r = 0;");
        c.line(format!(
            "    for (int q = 0; q < {per}; ++q) r |= (in[A_IDX[t * {va} + {per} * j + q]] & {:#x}u) << ({bits} * q);",
            (1u64 << bits) - 1
        ));
        c.line("    ra[j] = r;");
        c.line("  }");
    }
    c.line("  asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");");
    c.line("  __syncthreads();");
    let desc = |arr: &str| {
        format!(
            "((unsigned long long)(((unsigned)__cvta_generic_to_shared({arr}) & 0x3FFFF) >> 4) | ({}ull << 16) | ({}ull << 32) | ({}ull << 62))",
            lbo >> 4,
            sbo >> 4,
            sw.descriptor_code()
        )
    };
    c.line(format!(
        "  const unsigned long long da = {}, db = {};",
        desc("sa"),
        desc("sb")
    ));
    let (dregs, dty, dcon) = if half {
        (vals / 2, "unsigned int", "+r")
    } else {
        (vals, "float", "+f")
    };
    c.line(format!("  {dty} d[{dregs}];"));
    c.line(format!("  for (int v = 0; v < {dregs}; ++v) d[v] = 0;"));
    let regs: Vec<String> = (0..dregs).map(|i| format!("%{i}")).collect();
    let outs: Vec<String> = (0..dregs).map(|i| format!("\"{dcon}\"(d[{i}])")).collect();
    let cty = atom.c_type.ptx();
    c.line("  asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");");
    // the immediates after the predicate: scale-a, scale-b, and for 16-bit types the transposes
    // (of A and B; of B only with A in registers)
    let imm = match (bits, rs) {
        (16, false) => "1, 1, 0, 0",
        (16, true) => "1, 1, 0",
        _ => "1, 1",
    };
    let op = format!(
        "wgmma.mma_async.sync.aligned.m64n{n}k{k}.{cty}.{}.{}",
        ta.ptx(),
        tb.ptx()
    );
    if rs {
        let aregs: Vec<String> = (0..nra).map(|i| format!("%{}", dregs + i)).collect();
        let ains: Vec<String> = (0..nra).map(|i| format!("\"r\"(ra[{i}])")).collect();
        c.line(format!(
            "  asm volatile(\"{{\\n.reg .pred p;\\nsetp.ne.b32 p, 1, 0;\\n{op} {{{}}}, {{{}}}, %{}, p, {imm};\\n}}\" : {} : {}, \"l\"(db));",
            regs.join(","),
            aregs.join(","),
            dregs + nra,
            outs.join(", "),
            ains.join(", ")
        ));
    } else {
        c.line(format!(
            "  asm volatile(\"{{\\n.reg .pred p;\\nsetp.ne.b32 p, 1, 0;\\n{op} {{{}}}, %{}, %{}, p, {imm};\\n}}\" : {} : \"l\"(da), \"l\"(db));",
            regs.join(","),
            dregs,
            dregs + 1,
            outs.join(", ")
        ));
    }
    c.line("  asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");");
    c.line("  asm volatile(\"wgmma.wait_group.sync.aligned 0;\" ::: \"memory\");");
    if half {
        c.line(format!(
            "  for (int v = 0; v < {dregs}; ++v) {{ out[C_IDX[t * {vals} + 2 * v]] = d[v] & 0xFFFFu; out[C_IDX[t * {vals} + 2 * v + 1]] = d[v] >> 16; }}"
        ));
    } else {
        c.line(format!(
            "  for (int v = 0; v < {vals}; ++v) out[C_IDX[t * {vals} + v]] = __float_as_uint(d[v]);"
        ));
    }
    c.line("}");
    Ok(AtomCheck {
        name: check_name(
            &format!("{} N={n} smem K-major {sw:?}", atom.name),
            perturb,
            if rs { "A" } else { "C" },
        ),
        source: c.finish(),
        threads: 128,
        input,
        output_len: (m * n) as usize,
        expected,
    })
}
