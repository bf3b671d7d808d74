//! `cute-gpu`: every GPU check and benchmark of `cute-cuda`, as a table (or JSON); `--plan` prints
//! the derived plans without a GPU.
//!
//! ```text
//! cute-gpu --plan                 atoms and COPY plans (tiles, TV layouts, smem layout, swizzle, vectors)
//! cute-gpu [--json FILE] [--no-bandwidth] [--per-rank N] [--seed S]
//! cute-gpu --torch-cases          the permutation cases as JSON, for scripts/gpu_torch.py
//! ```
//!
//! Exit status: 0 when every check passed; 1 when one failed; 3 when there is no usable GPU (the
//! message says why); 2 for a bad invocation.

use std::process::ExitCode;

use clap::Parser;
use cute_cuda::{device::Gpu, run};

#[derive(Parser)]
#[command(
    name = "cute-gpu",
    version,
    about = "GPU kernels planned by the CuTe layout algebra: checks and benchmarks"
)]
struct Args {
    /// Print the derived plans (atoms, COPY tiles, TV layouts, swizzles, vectors) and exit; needs
    /// no GPU.
    #[arg(long)]
    plan: bool,
    /// Write the PTX of the GEMM benchmark kernels (Hopper and portable) into this folder and exit
    /// (for `ptxas` and `cuobjdump -sass`); needs NVRTC, no GPU.
    #[arg(long)]
    emit_ptx: Option<std::path::PathBuf>,
    /// Print the permutation cases as JSON (for the PyTorch comparison script) and exit.
    #[arg(long)]
    torch_cases: bool,
    /// Also write the results as JSON to this file.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
    /// Skip the ≥ 1 GiB bandwidth cases.
    #[arg(long)]
    no_bandwidth: bool,
    /// Random permutation cases per rank and element type.
    #[arg(long, default_value_t = 4)]
    per_rank: usize,
    /// Seed of the random data.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Run only one group: atoms, copy, gemm, perf (GEMM rates) or bandwidth (COPY rates).
    #[arg(long, value_parser = ["atoms", "copy", "gemm", "perf", "bandwidth"])]
    only: Option<String>,
}

/// Prints a text produced without a GPU, or its error (exit 1).
fn report(r: Result<String, cute_cuda::GpuError>) -> ExitCode {
    match r {
        Ok(s) => {
            print!("{s}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.plan {
        return report(run::plan_report());
    }
    if let Some(dir) = &args.emit_ptx {
        return report(
            run::emit_ptx(dir)
                .map(|files| files.iter().map(|f| format!("{}\n", f.display())).collect()),
        );
    }
    if args.torch_cases {
        return report(run::torch_cases_json());
    }
    let gpu = match Gpu::open() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(3);
        }
    };
    println!(
        "device: {} ({} SMs, compute capability {}.{})",
        gpu.name, gpu.sm_count, gpu.capability.0, gpu.capability.1
    );
    let opts = run::Options {
        bandwidth: !args.no_bandwidth,
        per_rank: args.per_rank,
        seed: args.seed,
        only: args.only,
    };
    let rows = run::run_all(&gpu, &opts);
    print!("{}", run::table(&rows));
    if let Some(p) = args.json {
        if let Err(e) = std::fs::write(&p, run::json(&rows)) {
            eprintln!("error: writing {}: {e}", p.display());
            return ExitCode::from(1);
        }
    }
    if rows.iter().all(|r| r.status == "ok") {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
