//! The atom checks of `cute gpu`: each MMA and copy atom runs on the hardware in a kernel that
//! records which thread holds which element, compared with the atom's layouts; each check is run
//! again with a perturbed layout, which must be detected.

use cute_cuda::atom::{self, DType};
use cute_cuda::device::{Arg, Gpu};
use cute_cuda::{verify, GpuError};

use super::Row;

/// Runs every atom check on the hardware, and each perturbed check, which must fail.
pub fn run_atoms(gpu: &Gpu) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut checks: Vec<(Result<verify::AtomCheck, GpuError>, bool)> = Vec::new();
    for perturb in [false, true] {
        for t in [DType::F16, DType::Bf16] {
            checks.push((
                atom::mma_sm80_16x8x16(t).and_then(|a| verify::mma_check(&a, 7, perturb)),
                perturb,
            ));
        }
        checks.push((
            atom::mma_sm80_16x8x8_tf32().and_then(|a| verify::mma_check(&a, 8, perturb)),
            perturb,
        ));
        // m16n8k8 of f16 and bf16, and the f16 accumulators
        for (k, ab, c) in [
            (8, DType::F16, DType::F32),
            (8, DType::Bf16, DType::F32),
            (8, DType::F16, DType::F16),
            (16, DType::F16, DType::F16),
        ] {
            checks.push((
                atom::mma_sm80(k, ab, c).and_then(|a| verify::mma_check(&a, 11, perturb)),
                perturb,
            ));
        }
        for (t, sw) in [
            (DType::F16, atom::GmmaSwizzle::B128),
            (DType::Bf16, atom::GmmaSwizzle::B128),
            (DType::Bf16, atom::GmmaSwizzle::B64),
            (DType::Bf16, atom::GmmaSwizzle::B32),
            (DType::Bf16, atom::GmmaSwizzle::None),
        ] {
            checks.push((
                atom::wgmma_64xnx16(64, t).and_then(|a| verify::wgmma_check(&a, sw, 10, perturb)),
                perturb,
            ));
        }
        // A from registers, the f16 accumulators, tf32 and the 8-bit floats
        use cute::atom::GmmaA::{RS, SS};
        for (ab, b, c, src) in [
            (DType::F16, DType::F16, DType::F32, RS),
            (DType::Bf16, DType::Bf16, DType::F32, RS),
            (DType::F16, DType::F16, DType::F16, SS),
            (DType::F16, DType::F16, DType::F16, RS),
            (DType::Tf32, DType::Tf32, DType::F32, SS),
            (DType::Tf32, DType::Tf32, DType::F32, RS),
            (DType::E4m3, DType::E4m3, DType::F32, SS),
            (DType::E4m3, DType::E5m2, DType::F32, RS),
            (DType::E5m2, DType::E4m3, DType::F16, SS),
            (DType::E5m2, DType::E5m2, DType::F16, RS),
        ] {
            checks.push((
                cute::atom::wgmma(64, ab, b, c, src)
                    .map_err(GpuError::from)
                    .and_then(|a| verify::wgmma_check(&a, atom::GmmaSwizzle::B128, 13, perturb)),
                perturb,
            ));
        }
        for num in [1, 2, 4] {
            for trans in [false, true] {
                checks.push((
                    atom::ldmatrix(num, trans)
                        .and_then(|a| verify::ldmatrix_check(&a, num, trans, perturb)),
                    perturb,
                ));
                checks.push((
                    atom::stmatrix(num, trans)
                        .and_then(|a| verify::stmatrix_check(&a, num, perturb)),
                    perturb,
                ));
            }
        }
        checks.push((
            atom::cp_async_16b().and_then(|a| verify::cp_async_check(&a, 9, perturb)),
            perturb,
        ));
        // cp.async.ca of 4, 8 and 16 bytes, and the zero-fill variants (half the threads' sources
        // of size 0)
        for (cache, bytes, zfill) in [
            (atom::CpAsyncCache::Always, 4, false),
            (atom::CpAsyncCache::Always, 8, false),
            (atom::CpAsyncCache::Always, 16, false),
            (atom::CpAsyncCache::Always, 16, true),
            (atom::CpAsyncCache::Global, 16, true),
        ] {
            checks.push((
                atom::cp_async(cache, bytes, zfill)
                    .and_then(|a| verify::cp_async_check(&a, 12, perturb)),
                perturb,
            ));
        }
    }
    for (check, perturbed) in checks {
        let row = match check {
            Err(e) => Row::new("atom", "?", Err(e)),
            Ok(c) => {
                let r = run_check(gpu, &c);
                let status = match (r, perturbed) {
                    (Ok((n, None)), false) => Ok(format!("{n} values agree with the layouts")),
                    (Ok((_, Some(d))), false) => Err(GpuError::Mismatch {
                        check: c.name.clone(),
                        detail: d,
                    }),
                    (Ok((_, Some(d))), true) => Ok(format!("detected as expected ({d})")),
                    (Ok((n, None)), true) => Err(GpuError::Mismatch {
                        check: c.name.clone(),
                        detail: format!("a perturbed layout still agreed on all {n} values"),
                    }),
                    (Err(e), _) => Err(e),
                };
                Row::new("atom", c.name.clone(), status)
            }
        };
        rows.push(row);
    }
    // the TMA: tiles loaded and stored by cp.async.bulk.tensor with descriptors derived from the
    // layouts, every byte checked; and its control (two tile elements exchanged) must be caught
    rows.push(Row::new(
        "atom",
        "TMA copy (cp.async.bulk.tensor load and store, 8 cases)",
        cute_cuda::tma::run::check_tma_copy(gpu, false),
    ));
    rows.push(Row::new(
        "atom",
        "TMA copy control (two tile elements exchanged, must be caught)",
        cute_cuda::tma::run::check_tma_copy(gpu, true),
    ));
    rows
}

fn run_check(gpu: &Gpu, c: &verify::AtomCheck) -> Result<(usize, Option<String>), GpuError> {
    let k = gpu.compile(&c.source, "atom_check")?;
    let input = gpu.upload(&c.input)?;
    let out = gpu.upload(&vec![0xDEAD_BEEFu32; c.output_len])?;
    gpu.launch(
        &k,
        1,
        c.threads,
        0,
        &[Arg::Ptr(gpu.ptr(&input, 0)), Arg::Ptr(gpu.ptr(&out, 0))],
    )?;
    gpu.sync()?;
    let host = gpu.download(&out)?;
    Ok(c.compare(&host))
}
