//! `cute gpu`: the GPU kernels planned by the algebra, from the command line.
//!
//! * `cute gpu` runs every check and benchmark: each atom on the hardware (with perturbed
//!   controls that must fail), COPY on fresh random data with poisoned outputs through the
//!   library's public path, GEMM and GETT against an fp64 reference, and the rates (COPY against
//!   a device-to-device copy, GEMM in TFLOP/s), as a table ending in `N passed, N failed`;
//! * `cute gpu --plan` prints the derived plans with no GPU; `--emit-ptx DIR` writes the GEMM
//!   kernels' CUDA source, PTX and CUBIN (NVRTC, no GPU); `--torch-cases` the cases for
//!   `scripts/gpu_torch.py`;
//! * `cute gpu copy SRC DST --dtype bf16` and `cute gpu contract SPEC --sizes s=64,t=16,...` run
//!   one user's request: plan, compile, verify against a reference, time (`--json`).
//!
//! Exit status: 0 when every check passed; 1 when one failed or a request was refused; 2 for a bad
//! invocation (an unknown flag or element type, flags that do not go together, a `--sizes` that is
//! not `LETTER=EXTENT,...` of the spec's letters); 3 when there is no usable GPU, or for
//! `--emit-ptx` no NVRTC (the message says why).

mod atoms;
mod copy;
mod gemm;
mod oneoff;

use std::path::PathBuf;
use std::sync::Arc;

use cute_cuda::atom::{self, DType};
use cute_cuda::cases::{
    bandwidth_cases, gemm_bench_cases, gemm_cases, permutation_cases, table2_cases,
};
use cute_cuda::copy::plan_copy;
use cute_cuda::{Gpu, GpuError};

pub use atoms::run_atoms;
pub use copy::run_copy;
pub use gemm::{run_gemm, GemmPath};

/// Exit status of `cute gpu` when no GPU can be used.
pub const NO_GPU: u8 = 3;

/// The flags of a run of the checks, which `--plan`, `--emit-ptx` and `--torch-cases` (no run)
/// refuse rather than ignore.
const RUN_FLAGS: [&str; 6] = [
    "json",
    "no_bandwidth",
    "per_rank",
    "seed",
    "only",
    "progress",
];

/// The SMs a plan made with no GPU is made for (an H100 or H200 SXM): the persistent GEMM's grid
/// and tile order depend on the count, so `--emit-ptx` and `cute gpu contract --plan` say so.
pub const PLAN_SMS: u32 = 132;

/// The arguments of `cute gpu`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct GpuArgs {
    /// A one-off run of the user's layouts; without one, every check and benchmark.
    #[command(subcommand)]
    pub cmd: Option<GpuCmd>,
    /// Print the derived plans (atoms, COPY tiles, TV layouts, swizzles, vectors) and exit; needs
    /// no GPU. Takes no other flag.
    #[arg(long, conflicts_with_all = RUN_FLAGS, conflicts_with_all = ["emit_ptx", "torch_cases"])]
    pub plan: bool,
    /// Write the CUDA source, PTX and CUBIN of the GEMM benchmark kernels (Hopper and portable) into
    /// this folder and exit (for `ptxas` and `cuobjdump -sass`); needs NVRTC, no GPU. The kernels
    /// are planned for 132 SMs (an H100 or H200 SXM: the persistent grid and the tile order
    /// depend on the count). Takes no other flag.
    #[arg(long, value_name = "DIR", conflicts_with_all = RUN_FLAGS, conflicts_with = "torch_cases")]
    pub emit_ptx: Option<PathBuf>,
    /// Print the permutation and GEMM benchmark cases as JSON (for scripts/gpu_torch.py) and exit.
    /// Takes no other flag.
    #[arg(long, conflicts_with_all = RUN_FLAGS)]
    pub torch_cases: bool,
    /// Also write the results as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Skip the ≥ 1 GiB bandwidth cases and the GEMM rates.
    #[arg(long)]
    pub no_bandwidth: bool,
    /// Random permutation cases per rank and element type.
    #[arg(long, default_value_t = 4)]
    pub per_rank: usize,
    /// Seed of the random data.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Run only one group: atoms, copy, gemm, perf (GEMM rates) or bandwidth (COPY rates).
    #[arg(long, value_parser = ["atoms", "copy", "gemm", "perf", "bandwidth"])]
    pub only: Option<String>,
    /// Also print each row to standard error as it finishes, with the seconds since the start
    /// (the table comes at the end: a run stopped early still shows how far it got).
    #[arg(long)]
    pub progress: bool,
}

/// The one-off runs of `cute gpu`.
#[derive(clap::Subcommand, Debug)]
pub enum GpuCmd {
    /// COPY the elements of SRC's layout into DST's layout (equal sizes): plan, compile, verify
    /// against a reference kernel and the host, time against a device-to-device copy.
    #[command(after_help = "Examples:
  cute gpu copy '(4096,4096):(4096,1)' '(4096,4096):(1,4096)' --dtype bf16
  cute gpu copy '(8,(3,5)):(1,(57,8))' '(8,15):(1,8)' --plan")]
    Copy {
        /// The source layout (offsets in elements), e.g. `(4096,4096):(4096,1)`.
        #[arg(allow_negative_numbers = true)]
        src: String,
        /// The destination layout, e.g. `(4096,4096):(1,4096)`.
        #[arg(allow_negative_numbers = true)]
        dst: String,
        /// Element type: f32, f16, bf16, f64, i8, u8, i16, i32, i64.
        #[arg(long, default_value = "f32")]
        dtype: String,
        /// Print the plan and exit (no GPU).
        #[arg(long)]
        plan: bool,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The einsum-style contraction SPEC on column-major tensors of the given extents, folded by
    /// the algebra into one GEMM: plan, compile, verify against an fp64 reference on sampled
    /// elements, time against a GEMM of the same size in GEMM form.
    #[command(after_help = "Examples:
  cute gpu contract 'stupr,qtru->stqp' --sizes s=64,t=16,u=64,p=64,r=16,q=256
  cute gpu contract 'mk,nk->mn' --sizes m=4096,n=4096,k=4096 --plan")]
    Contract {
        /// The contraction, e.g. `stupr,qtru->stqp` (letters name modes; spaces are ignored).
        spec: String,
        /// Every letter's extent, e.g. `s=64,t=16,u=64`.
        #[arg(long)]
        sizes: String,
        /// Element type of A and B: bf16 or f16.
        #[arg(long, default_value = "bf16")]
        dtype: String,
        /// Element type of C: f32 or the operands' type.
        #[arg(long, default_value = "f32")]
        out_dtype: String,
        /// Print the plan and exit (no GPU).
        #[arg(long)]
        plan: bool,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// What `cute gpu` prints: stdout, an optional line for stderr, the exit status.
pub struct Outcome {
    /// The text for stdout.
    pub out: String,
    /// A line for stderr (an error).
    pub err: Option<String>,
    /// The exit status.
    pub code: u8,
}

impl Outcome {
    fn text(out: String) -> Outcome {
        Outcome {
            out,
            err: None,
            code: 0,
        }
    }

    fn error(e: impl std::fmt::Display, code: u8) -> Outcome {
        Outcome {
            out: String::new(),
            err: Some(format!("error: gpu: {e}")),
            code,
        }
    }
}

fn open_gpu() -> Result<Arc<Gpu>, Outcome> {
    Gpu::shared(0).map_err(|e| {
        let code = if matches!(e, GpuError::NoDriver(_)) {
            NO_GPU
        } else {
            1
        };
        Outcome::error(e, code)
    })
}

/// Runs `cute gpu` with `args`.
pub fn run(args: &GpuArgs) -> Outcome {
    if let Some(cmd) = &args.cmd {
        return oneoff::run(cmd);
    }
    let done = |r: Result<String, GpuError>| match r {
        Ok(s) => Outcome::text(s),
        Err(e @ GpuError::NoDriver(_)) => Outcome::error(e, NO_GPU),
        Err(e) => Outcome::error(e, 1),
    };
    if args.plan {
        return done(plan_report());
    }
    if let Some(dir) = &args.emit_ptx {
        if let Err(GpuError::NoDriver(m)) = cute_cuda::compile::nvrtc_version() {
            return Outcome::error(format!("--emit-ptx needs NVRTC (not a GPU): {m}"), NO_GPU);
        }
        return done(emit_ptx(dir).map(|files| {
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join("\n")
        }));
    }
    if args.torch_cases {
        return done(torch_cases_json());
    }
    let gpu = match open_gpu() {
        Ok(g) => g,
        Err(o) => return o,
    };
    let opts = Options {
        bandwidth: !args.no_bandwidth,
        per_rank: args.per_rank,
        seed: args.seed,
        only: args.only.clone(),
        progress: args.progress,
    };
    let rows = run_all(&gpu, &opts);
    let mut out = format!(
        "device: {} ({} SMs, compute capability {}.{}, {})\n",
        gpu.name, gpu.sm_count, gpu.capability.0, gpu.capability.1, gpu.arch
    );
    out += &table(&rows);
    let out = out.trim_end().to_string();
    if let Some(p) = &args.json {
        if let Err(e) = std::fs::write(p, json(&rows)) {
            return Outcome {
                out,
                err: Some(format!("error: gpu: writing {}: {e}", p.display())),
                code: 1,
            };
        }
    }
    let code = if rows.iter().all(|r| r.status == "ok") {
        0
    } else {
        1
    };
    Outcome {
        out,
        err: None,
        code,
    }
}

/// One line of the result table.
#[derive(Clone, Debug)]
pub struct Row {
    /// `atom`, `copy`, `gemm`, `bandwidth`, `gemm-perf`.
    pub group: &'static str,
    /// What was run.
    pub name: String,
    /// `ok`, or `FAIL: …`.
    pub status: String,
    /// Further figures (`GB/s`, ratios, kernel kind).
    pub detail: String,
    /// Numbers for the JSON output.
    pub numbers: Vec<(&'static str, f64)>,
}

impl Row {
    fn new(group: &'static str, name: impl Into<String>, status: Result<String, GpuError>) -> Row {
        let (status, detail) = match status {
            Ok(d) => ("ok".to_string(), d),
            Err(e) => (format!("FAIL: {e}"), String::new()),
        };
        Row {
            group,
            name: name.into(),
            status,
            detail,
            numbers: Vec::new(),
        }
    }
}

/// What `cute gpu` runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Run the ≥ 1 GiB bandwidth cases and the GEMM rates.
    pub bandwidth: bool,
    /// Random permutation cases per rank and type.
    pub per_rank: usize,
    /// Seed of the random data.
    pub seed: u64,
    /// Run only this group (`atoms`, `copy`, `gemm`, `perf`, `bandwidth`); all when `None`.
    pub only: Option<String>,
    /// Each row to standard error as it finishes, with the seconds since the start.
    pub progress: bool,
}

/// Every check and benchmark: atoms, Table 2, permutations, bandwidth.
pub fn run_all(gpu: &Arc<Gpu>, opts: &Options) -> Vec<Row> {
    let want = |g: &str| opts.only.as_deref().is_none_or(|o| o == g);
    let start = std::time::Instant::now();
    let mut done = Vec::new();
    let mut rows = |r: Row| {
        if opts.progress {
            eprintln!(
                "[{:7.1} s] {:<9} {} {}",
                start.elapsed().as_secs_f64(),
                r.group,
                r.name,
                r.status
            );
        }
        done.push(r);
    };
    if want("atoms") {
        run_atoms(gpu).into_iter().for_each(&mut rows);
    }
    let mut cases = Vec::new();
    for t in [DType::F32, DType::Bf16, DType::F16] {
        match table2_cases(t) {
            Ok(c) => cases.extend(c),
            Err(e) => rows(Row::new("copy", "Table 2", Err(e))),
        }
    }
    match permutation_cases(opts.seed, opts.per_rank) {
        Ok(c) => cases.extend(c),
        Err(e) => rows(Row::new("copy", "permutations", Err(e))),
    }
    for (i, c) in cases.iter().enumerate() {
        if want("copy") {
            rows(run_copy(gpu, c, opts.seed + i as u64, false));
        }
    }
    match gemm_cases().map(|c| if want("gemm") { c } else { Vec::new() }) {
        Ok(cs) => {
            let sms = gpu.sm_count.max(1) as u32;
            precompile(gpu, &cs, &GemmPath::CHECKED, sms);
            for (i, c) in cs.iter().enumerate() {
                // every path that plans the case (the portable one always must)
                for (j, path) in GemmPath::CHECKED.into_iter().enumerate() {
                    if path == GemmPath::MmaSync || gemm::gemm_launch(c, path, sms).is_ok() {
                        let seed = opts.seed + 500 + 100 * j as u64 + i as u64;
                        rows(run_gemm(gpu, c, seed, None, false, path));
                    }
                }
            }
        }
        Err(e) => rows(Row::new("gemm", "cases", Err(e))),
    }
    if opts.bandwidth && want("perf") {
        match gemm_bench_cases() {
            Ok(cs) => {
                precompile(gpu, &cs, &GemmPath::TIMED, gpu.sm_count.max(1) as u32);
                for (i, c) in cs.iter().enumerate() {
                    for path in GemmPath::TIMED {
                        let seed = opts.seed + 900 + i as u64;
                        rows(run_gemm(gpu, c, seed, Some(2048), true, path));
                    }
                }
            }
            Err(e) => rows(Row::new("gemm-perf", "cases", Err(e))),
        }
    }
    if opts.bandwidth && want("bandwidth") {
        match bandwidth_cases() {
            Ok(cs) => {
                for (i, c) in cs.iter().enumerate() {
                    rows(run_copy(gpu, c, opts.seed + 1000 + i as u64, true));
                }
            }
            Err(e) => rows(Row::new("bandwidth", "cases", Err(e))),
        }
    }
    done
}

/// The kernels of `paths` on `cases` compiled on every core at once (NVRTC dominates a first
/// run); one that fails is left for its check to report.
fn precompile(gpu: &Gpu, cases: &[cute_cuda::cases::GemmCase], paths: &[GemmPath], sms: u32) {
    let kernels: Vec<(String, String)> = cases
        .iter()
        .flat_map(|c| paths.iter().map(move |&p| gemm::gemm_launch(c, p, sms)))
        .filter_map(|k| k.ok().map(|k| (k.source, k.name)))
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // a kernel that cannot be loaded fails its own check
    let _ = gpu.precompile(&kernels, threads);
}

/// The plans `cute gpu --plan` prints: the atoms and the COPY plans of the benchmark cases, with
/// no GPU.
pub fn plan_report() -> Result<String, GpuError> {
    let mut s = String::new();
    s += "# atoms\n";
    let mmas = [
        atom::mma_sm80_16x8x16(DType::F16)?,
        atom::mma_sm80_16x8x16(DType::Bf16)?,
        atom::mma_sm80_16x8x8_tf32()?,
        atom::wgmma_64xnx16(128, DType::Bf16)?,
    ];
    for a in &mmas {
        s += &format!(
            "{} ({}) MNK {:?}\n  ThrID {}\n  A {}\n  B {}\n  C {}\n",
            a.name, a.ptx, a.shape_mnk, a.thr_id, a.a, a.b, a.c
        );
    }
    for num in [1, 2, 4] {
        for trans in [false, true] {
            for a in [atom::ldmatrix(num, trans)?, atom::stmatrix(num, trans)?] {
                s += &format!("{} ({})\n  src {}\n  dst {}\n", a.name, a.ptx, a.src, a.dst);
            }
        }
    }
    let cp = atom::cp_async_16b()?;
    s += &format!(
        "{} ({})\n  src {}\n  dst {}\n",
        cp.name, cp.ptx, cp.src, cp.dst
    );
    for major in [atom::Major::K, atom::Major::MN] {
        for sw in atom::GmmaSwizzle::ALL {
            s += &format!(
                "smem atom {major:?}-major {sw:?} bf16: {}\n",
                atom::gmma_smem_atom(major, sw, 16)?
            );
        }
    }
    s += "\n# COPY plans\n";
    for t in [DType::F32] {
        for c in table2_cases(t)?.iter().step_by(2) {
            s += &plan_copy(&c.src, &c.dst, c.dtype)?.describe();
            s += "\n";
        }
    }
    for c in bandwidth_cases()? {
        s += &format!("{}\n", c.name);
        s += &plan_copy(&c.src, &c.dst, c.dtype)?.describe();
        s += "\n";
    }
    Ok(s)
}

/// The rows as a text table.
pub fn table(rows: &[Row]) -> String {
    let mut s = String::new();
    let w = rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(4)
        .min(60);
    for r in rows {
        s += &format!(
            "{:<9} {:<w$} {:<6} {}\n",
            r.group,
            r.name,
            if r.status == "ok" { "ok" } else { &r.status },
            r.detail
        );
    }
    let bad = rows.iter().filter(|r| r.status != "ok").count();
    s += &format!("{} passed, {} failed\n", rows.len() - bad, bad);
    s
}

/// The rows as JSON: an array of objects `{"group", "name", "status", "detail", <numbers>...}`.
///
/// ```
/// let rows = vec![];
/// assert_eq!(cute_cli::gpu::json(&rows).trim(), "[]");
/// ```
pub fn json(rows: &[Row]) -> String {
    let items: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let mut o = serde_json::Map::new();
            o.insert("group".into(), r.group.into());
            o.insert("name".into(), r.name.clone().into());
            o.insert("status".into(), r.status.clone().into());
            o.insert("detail".into(), r.detail.clone().into());
            for (k, v) in &r.numbers {
                o.insert((*k).into(), serde_json::json!(v));
            }
            serde_json::Value::Object(o)
        })
        .collect();
    serde_json::to_string_pretty(&items).unwrap_or_default() + "\n"
}

/// The permutation and GEMM benchmark cases as JSON for `scripts/gpu_torch.py`:
/// `[{"kind": "permute", "name", "shape", "perm", "dtype"}, {"kind": "matmul"|"gett", "name", "a",
/// "b", "c"}]`.
pub fn torch_cases_json() -> Result<String, GpuError> {
    let mut items: Vec<serde_json::Value> = bandwidth_cases()?
        .iter()
        .filter_map(|c| {
            c.permute.as_ref().map(|(shape, perm)| {
                serde_json::json!({
                    "kind": "permute", "name": c.name, "shape": shape, "perm": perm,
                    "dtype": c.dtype.to_string(),
                })
            })
        })
        .collect();
    for c in gemm_bench_cases()? {
        items.push(serde_json::json!({
            "kind": if c.name.starts_with("GETT") { "gett" } else { "matmul" },
            "name": c.name, "a": c.a.to_string(), "b": c.b.to_string(), "c": c.c.to_string(),
        }));
    }
    Ok(serde_json::to_string_pretty(&items).unwrap_or_default())
}

/// Writes the CUDA source, the PTX and the CUBIN of the GEMM benchmark kernels (`wgmma_tma_*`,
/// `wgmma_*`, `mma_sync_*`) into `dir`.
pub fn emit_ptx(dir: &std::path::Path) -> Result<Vec<PathBuf>, GpuError> {
    std::fs::create_dir_all(dir).map_err(|e| GpuError::driver("create_dir_all", e))?;
    let mut out = Vec::new();
    for (i, c) in gemm_bench_cases()?.iter().enumerate() {
        for path in GemmPath::ALL {
            let p = gemm::gemm_launch(c, path, PLAN_SMS)?;
            let ptx = cute_cuda::compile::ptx(&p.source, &p.name, cute_cuda::compile::ARCH)?;
            let stem = format!("{}_{i}", path.name().replace(['.', '-'], "_"));
            let cubin = cute_cuda::compile::cubin(&p.source, &p.name, cute_cuda::compile::ARCH)?;
            let f = dir.join(format!("{stem}.cubin"));
            std::fs::write(&f, cubin).map_err(|e| GpuError::driver("write", e))?;
            out.push(f);
            let f = dir.join(format!("{stem}.ptx"));
            std::fs::write(&f, ptx).map_err(|e| GpuError::driver("write", e))?;
            out.push(f);
            let f = dir.join(format!("{stem}.cu"));
            std::fs::write(&f, &p.source).map_err(|e| GpuError::driver("write", e))?;
            out.push(f);
        }
    }
    Ok(out)
}
