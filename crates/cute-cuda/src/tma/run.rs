//! TMA on the device: the descriptor encoded by the driver (`cuTensorMapEncodeTiled`), the copy
//! kernel launched with the descriptors by value, and [`check_tma_copy`], which runs the
//! tile-by-tile copy on a handful of cases and checks every byte on the host.
//!
//! [`crate::kernel::Arg`] carries addresses and scalars only; a 128-byte descriptor passed by value
//! (a `__grid_constant__` parameter) is launched here through the driver directly
//! ([`launch_tma_copy`]) rather than through [`Gpu::launch`]. A later `Arg` variant holding a
//! [`TensorMap`] would let the general launch path carry it.
//!
//! ```
//! use cute_cuda::tma::run::{tma_cases, tile_reference};
//! let cases = tma_cases().unwrap();
//! assert!(cases.len() >= 6);
//! // tile 0 of every case starts at the tensor's first element
//! for c in &cases {
//!     assert_eq!(tile_reference(&c.copy, 0).unwrap()[0], Some(0));
//! }
//! ```

use cudarc::driver::sys::{
    self, CUtensorMap, CUtensorMapDataType, CUtensorMapFloatOOBfill, CUtensorMapInterleave,
    CUtensorMapL2promotion, CUtensorMapSwizzle,
};

use crate::atom::{gmma_smem_atom, DType, GmmaSwizzle, Major};
use crate::device::{Arg, Gpu};
use crate::error::GpuError;
use crate::tma::emit::{tma_copy_kernel, tma_copy_kernel_perturbed, TmaKernel};
use crate::tma::{make_tma_copy, TmaCopy, TmaSwizzle};

/// An encoded descriptor (`CUtensorMap`, 128 bytes, 128-byte aligned), for one global address.
#[derive(Clone, Copy, Debug)]
pub struct TensorMap(pub CUtensorMap);

fn data_type(t: DType) -> CUtensorMapDataType {
    use CUtensorMapDataType::*;
    match t {
        DType::F16 => CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        DType::Bf16 => CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        DType::F32 => CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        DType::Tf32 => CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
        DType::F64 => CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
        DType::I32 => CU_TENSOR_MAP_DATA_TYPE_INT32,
        DType::I64 => CU_TENSOR_MAP_DATA_TYPE_INT64,
        // TMA moves bits: the signed 8- and 16-bit types as their unsigned width
        DType::I8 | DType::U8 | DType::E4m3 | DType::E5m2 => CU_TENSOR_MAP_DATA_TYPE_UINT8,
        DType::I16 => CU_TENSOR_MAP_DATA_TYPE_UINT16,
    }
}

fn swizzle_code(s: TmaSwizzle) -> CUtensorMapSwizzle {
    match s {
        TmaSwizzle::None => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
        TmaSwizzle::B32 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_32B,
        TmaSwizzle::B64 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_64B,
        TmaSwizzle::B128 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
    }
}

/// Encodes the descriptor of `copy` for the tensor at device address `base` with
/// `cuTensorMapEncodeTiled`: `copy`'s rank, `globalDim`, `globalStrides`, `boxDim`,
/// `elementStrides` and swizzle, interleave none, L2 promotion 128 B (CUTLASS's choice), and no
/// out-of-bounds fill but zeros.
///
/// # Errors
///
/// [`GpuError::NoDriver`] without the CUDA driver; [`GpuError::Invalid`] when `base` is not
/// 16-byte aligned; [`GpuError::Driver`] with the parameters when the driver refuses them.
pub fn encode(copy: &TmaCopy, base: u64) -> Result<TensorMap, GpuError> {
    if !base.is_multiple_of(16) {
        return Err(GpuError::invalid(
            "tma encode",
            format!("the global address {base:#x} is not 16-byte aligned"),
        ));
    }
    // SAFETY: only loads the shared library (dlopen) to see whether it is there.
    if !unsafe { sys::is_culib_present() } {
        return Err(GpuError::NoDriver(
            "the CUDA driver library (libcuda.so) was not found".into(),
        ));
    }
    let dims = copy.global_dims();
    let strides = copy.global_strides_bytes();
    let boxes = copy.box_dims();
    let estr = copy.element_strides();
    let mut map = std::mem::MaybeUninit::<CUtensorMap>::zeroed();
    // SAFETY: every array holds `rank` entries (`strides` rank - 1), as the call reads them;
    // `map` is a writable, aligned `CUtensorMap`. The driver only reads `base` as a number here.
    let r = unsafe {
        sys::cuTensorMapEncodeTiled(
            map.as_mut_ptr(),
            data_type(copy.dtype),
            copy.rank() as u32,
            base as usize as *mut core::ffi::c_void,
            dims.as_ptr(),
            strides.as_ptr(),
            boxes.as_ptr(),
            estr.as_ptr(),
            CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
            swizzle_code(copy.swizzle),
            CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    r.result().map_err(|e| {
        GpuError::driver(
            "cuTensorMapEncodeTiled",
            format!("{e}: {}", copy.describe()),
        )
    })?;
    // SAFETY: the driver wrote the descriptor (and it was zeroed before).
    Ok(TensorMap(unsafe { map.assume_init() }))
}

/// The arguments of a GEMM kernel for operands whose lowest reached elements lie at `bases`
/// (A, B, C): `(A, B, C, alpha, beta)`, with A and B as the descriptors of `tma` encoded at their
/// addresses when the kernel takes descriptors (`tma` not empty; its operands reach no negative
/// offset, so the lowest element is element 0), else as addresses.
///
/// # Errors
///
/// Those of [`encode`] (no driver, an address not 16-byte aligned, parameters the driver
/// refuses).
pub fn gemm_args(
    tma: &[TmaCopy],
    bases: [u64; 3],
    alpha: f32,
    beta: f32,
) -> Result<Vec<Arg>, GpuError> {
    let (a, b) = match tma {
        [] => (Arg::Ptr(bases[0]), Arg::Ptr(bases[1])),
        [ta, tb] | [ta, tb, _] => (
            Arg::Map(encode(ta, bases[0])?.0.opaque),
            Arg::Map(encode(tb, bases[1])?.0.opaque),
        ),
        _ => {
            return Err(GpuError::invalid(
                "gemm launch",
                format!("{} TMA copies for two or three operands", tma.len()),
            ))
        }
    };
    let mut args = vec![a, b, Arg::Ptr(bases[2]), Arg::F32(alpha), Arg::F32(beta)];
    if let [_, _, tc] = tma {
        args.extend(c_store_args(tc, bases[2])?);
    }
    Ok(args)
}

/// The kernel's last two arguments where it stores C by TMA ([`crate::tma_gemm::TmaGemmPlan`]'s
/// `c_store`): C's descriptor and the flag `c_tma` = 1, or, where C's address is not 16-byte
/// aligned (TMA's condition), a zeroed descriptor and 0, which sends every tile to the epilogue
/// that stores from registers.
///
/// # Errors
///
/// Those of [`encode`] other than the alignment.
pub fn c_store_args(tc: &TmaCopy, base: u64) -> Result<[Arg; 2], GpuError> {
    Ok(if base.is_multiple_of(16) {
        [Arg::Map(encode(tc, base)?.0.opaque), Arg::I32(1)]
    } else {
        [Arg::Map([0; 16]), Arg::I32(0)]
    })
}

/// Launches the copy kernel `k` (compiled from [`tma_copy_kernel`] of the same copy) with the
/// descriptors of the source and destination tensors and the probe buffer's address, on the
/// [`Gpu`]'s own stream, through `cuLaunchKernel` with the descriptors by value.
///
/// The caller guarantees that `src` and `dst` were encoded from the copy `k` was generated from,
/// over live buffers, and that `probe` holds `tiles · box` elements.
pub fn launch_tma_copy(
    gpu: &Gpu,
    k: &TmaKernel,
    src: &TensorMap,
    dst: &TensorMap,
    probe: u64,
) -> Result<(), GpuError> {
    let kernel = gpu.compile(&k.source, &k.name)?;
    gpu.bind()?;
    if k.smem_bytes > 48 * 1024 {
        kernel
            .func
            .set_attribute(
                sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                k.smem_bytes as i32,
            )
            .map_err(|e| GpuError::driver("cuFuncSetAttribute", e))?;
    }
    let (mut a, mut b, mut p) = (src.0, dst.0, probe);
    let mut params: [*mut core::ffi::c_void; 3] = [
        &mut a as *mut CUtensorMap as *mut _,
        &mut b as *mut CUtensorMap as *mut _,
        &mut p as *mut u64 as *mut _,
    ];
    // SAFETY: the parameters are the kernel's (two descriptors by value, one pointer), alive for
    // the call (the driver copies them); see the contract above for what the kernel reads and
    // writes.
    unsafe {
        cudarc::driver::result::launch_kernel(
            kernel.func.cu_function(),
            (k.grid, 1, 1),
            (k.threads, 1, 1),
            k.smem_bytes,
            gpu.raw_stream(crate::device::Stream::Own),
            &mut params,
        )
    }
    .map_err(|e| GpuError::driver("cuLaunchKernel", e))
}

/// One case of [`check_tma_copy`].
#[derive(Clone, Debug)]
pub struct TmaCase {
    /// What it exercises.
    pub name: String,
    /// The copy.
    pub copy: TmaCopy,
}

fn unswizzled(l: &str) -> Result<cute::ComposedLayout, GpuError> {
    Ok(cute::ComposedLayout::new(
        cute::Swizzle::new(0, 4, 3)?,
        0,
        l.parse()?,
    ))
}

fn swizzled(
    major: Major,
    sw: GmmaSwizzle,
    t: DType,
    l: &str,
) -> Result<cute::ComposedLayout, GpuError> {
    let atom = gmma_smem_atom(major, sw, t.bits())?;
    Ok(cute::ComposedLayout::new(atom.swizzle, 0, l.parse()?))
}

/// The cases [`check_tma_copy`] runs: f32, f16 and bf16; no swizzle, 64-byte and 128-byte
/// swizzles from the canonical `wgmma` atoms (K- and MN-major); 2-D to 5-D; hierarchical modes
/// (one folded into a dimension, one whose grid is hierarchical); partial last tiles in most.
///
/// # Errors
///
/// Only if one of the fixed cases were refused (a bug).
pub fn tma_cases() -> Result<Vec<TmaCase>, GpuError> {
    let mut v = Vec::new();
    let mut add = |name: &str, g: &str, tile: &[i64], smem, t| -> Result<(), GpuError> {
        let copy = make_tma_copy(&g.parse()?, tile, &smem, t)?;
        v.push(TmaCase {
            name: name.to_string(),
            copy,
        });
        Ok(())
    };
    add(
        "f32 2-D column-major, no swizzle, partial tiles in N",
        "(256,100):(1,256)",
        &[64, 8],
        unswizzled("(64,8):(1,64)")?,
        DType::F32,
    )?;
    add(
        "bf16 2-D K-major, 128B swizzle (wgmma K-major atom), partial tiles in M and K",
        "(300,1000):(1000,1)",
        &[64, 64],
        swizzled(Major::K, GmmaSwizzle::B128, DType::Bf16, "(64,64):(64,1)")?,
        DType::Bf16,
    )?;
    add(
        "f16 3-D MN-major with batch, 128B swizzle (wgmma MN-major atom), partial tiles in N",
        "(128,100,3):(1,136,13600)",
        &[64, 32, 1],
        swizzled(Major::MN, GmmaSwizzle::B128, DType::F16, "(64,32):(1,64)")?,
        DType::F16,
    )?;
    add(
        "f32 3-D with a hierarchical mode folded into one dimension, no swizzle",
        "((8,16),40,2):((1,8),136,5440)",
        &[32, 8, 1],
        unswizzled("(32,8):(1,32)")?,
        DType::F32,
    )?;
    add(
        "f32 3-D from a hierarchical mode whose second leaf the tile does not cover (a \
         hierarchical grid)",
        "((128,2),32):((1,4096),128)",
        &[64, 8],
        unswizzled("(64,8):(1,64)")?,
        DType::F32,
    )?;
    add(
        "bf16 2-D K-major, 64B swizzle, padded rows, partial tiles in M",
        "(40,96):(104,1)",
        &[16, 32],
        swizzled(Major::K, GmmaSwizzle::B64, DType::Bf16, "(16,32):(32,1)")?,
        DType::Bf16,
    )?;
    add(
        "f32 2-D K-major, 128B swizzle (32-bit atom), exact tiles",
        "(64,64):(64,1)",
        &[32, 32],
        swizzled(Major::K, GmmaSwizzle::B128, DType::F32, "(32,32):(32,1)")?,
        DType::F32,
    )?;
    add(
        "f32 5-D, padded strides (no merging), partial tiles in mode 1",
        "(32,3,4,5,6):(1,40,128,640,3840)",
        &[32, 2, 1, 1, 1],
        unswizzled("(32,2):(1,32)")?,
        DType::F32,
    )?;
    Ok(v)
}

/// The reference of tile `t`, from the tiling's definition only (not from the descriptor): the
/// tiles of each top mode `i` of the global layout are the `tile[i]` consecutive coordinates
/// `g·tile[i] ..`, tile indices colexicographic over the modes with `⌈size_i / tile_i⌉` tiles
/// each, tile elements colexicographic over `tile`; entry `e` is the global offset of tile element
/// `e`, or `None` outside the tensor.
///
/// # Errors
///
/// `t` outside the grid.
pub fn tile_reference(copy: &TmaCopy, t: i64) -> Result<Vec<Option<i64>>, GpuError> {
    let g = &copy.global;
    let mut modes = Vec::with_capacity(g.rank());
    for i in 0..g.rank() {
        modes.push(g.mode(i)?);
    }
    let counts: Vec<i64> = modes
        .iter()
        .zip(&copy.tile)
        .map(|(m, &b)| crate::codegen::ceil_div(m.size(), b))
        .collect();
    if t < 0 || t >= counts.iter().product() {
        return Err(GpuError::invalid(
            "tma reference",
            format!("tile {t} outside the {counts:?} tiles of {g}"),
        ));
    }
    let n: i64 = copy.tile.iter().product();
    let mut out = Vec::with_capacity(n as usize);
    for e in 0..n {
        let (mut rt, mut re, mut off, mut inside) = (t, e, 0i64, true);
        for (i, m) in modes.iter().enumerate() {
            let x = (rt % counts[i]) * copy.tile[i] + re % copy.tile[i];
            rt /= counts[i];
            re /= copy.tile[i];
            if x < m.size() {
                off += m.eval(x)?;
            } else {
                inside = false;
            }
        }
        out.push(if inside { Some(off) } else { None });
    }
    Ok(out)
}

fn byte_pattern(i: usize) -> u8 {
    // never zero, so that TMA's zero fill is told apart from data
    ((i.wrapping_mul(2_654_435_761) >> 7) as u8) | 1
}

/// Runs the tile-by-tile TMA copy of every case of [`tma_cases`] on `gpu` and checks on the host,
/// byte by byte: the destination equals the source on the global layout's image and keeps its
/// poison elsewhere; the probe (each tile read through its shared-memory layout) holds every tile
/// element of the reference ([`tile_reference`]), zeros outside the tensor. Returns one line per
/// case.
///
/// With `perturb`, the negative control: every case runs the kernel of
/// [`tma_copy_kernel_perturbed`] (two tile elements exchanged), and each must be caught as a
/// mismatch; the report names what was caught.
///
/// ```
/// match cute_cuda::Gpu::open() {
///     Ok(gpu) => {
///         print!("{}", cute_cuda::tma::run::check_tma_copy(&gpu, false).unwrap());
///         print!("{}", cute_cuda::tma::run::check_tma_copy(&gpu, true).unwrap());
///     }
///     Err(e) => println!("{e}"), // no GPU here
/// }
/// ```
///
/// # Errors
///
/// [`GpuError::Mismatch`] at the first wrong byte (without `perturb`), or naming the perturbed
/// case that was not caught (with it); the driver's and NVRTC's errors.
pub fn check_tma_copy(gpu: &Gpu, perturb: bool) -> Result<String, GpuError> {
    let mut report = String::new();
    for case in tma_cases()? {
        if !perturb {
            report.push_str(&run_case(gpu, &case, false)?);
            continue;
        }
        match run_case(gpu, &case, true) {
            Err(GpuError::Mismatch { detail, .. }) => {
                report.push_str(&format!("ok  control {}: caught: {detail}\n", case.name));
            }
            Err(e) => return Err(e),
            Ok(_) => {
                return Err(GpuError::Mismatch {
                    check: format!("tma copy control: {}", case.name),
                    detail: "the perturbed kernel (tile elements 0 and 1 exchanged) passed the \
                             check: the check does not see the probe"
                        .into(),
                })
            }
        }
    }
    Ok(report)
}

fn run_case(gpu: &Gpu, case: &TmaCase, perturb: bool) -> Result<String, GpuError> {
    let c = &case.copy;
    let e = c.dtype.bytes() as usize;
    let cosize = c.global.cosize()? as usize;
    let host: Vec<u8> = (0..cosize * e).map(byte_pattern).collect();
    let src = gpu.upload(&host)?;
    let dst = gpu.upload(&vec![0xA5u8; cosize * e])?;
    let n = c.box_elems() as usize;
    let tiles = c.tiles() as usize;
    let probe = gpu.upload(&vec![0x5Au8; tiles * n * e])?;
    let k = if perturb {
        tma_copy_kernel_perturbed(c)?
    } else {
        tma_copy_kernel(c)?
    };
    let (sm, dm) = (encode(c, gpu.ptr(&src, 0))?, encode(c, gpu.ptr(&dst, 0))?);
    launch_tma_copy(gpu, &k, &sm, &dm, gpu.ptr(&probe, 0))?;
    gpu.sync()?;
    let out = gpu.download(&dst)?;
    let pr = gpu.download(&probe)?;
    let mismatch = |detail: String| GpuError::Mismatch {
        check: format!("tma copy: {}", case.name),
        detail: format!("{detail} ({})", c.describe()),
    };
    let mut image = vec![false; cosize];
    for o in c.global.image()? {
        image[o as usize] = true;
    }
    for (o, &inside) in image.iter().enumerate() {
        let want: &[u8] = if inside {
            &host[o * e..(o + 1) * e]
        } else {
            &[0xA5; 8][..e]
        };
        if out[o * e..(o + 1) * e] != *want {
            return Err(mismatch(format!(
                "destination element at offset {o}: {:?}, expected {want:?}",
                &out[o * e..(o + 1) * e]
            )));
        }
    }
    for t in 0..tiles {
        let r = tile_reference(c, t as i64)?;
        for (i, g) in r.iter().enumerate() {
            let at = (t * n + i) * e;
            let want: &[u8] = match g {
                Some(o) => &host[*o as usize * e..(*o as usize + 1) * e],
                None => &[0; 8][..e],
            };
            if pr[at..at + e] != *want {
                return Err(mismatch(format!(
                    "tile {t} element {i} read through the shared-memory layout: {:?}, \
                     expected {want:?} (global offset {g:?})",
                    &pr[at..at + e]
                )));
            }
        }
    }
    let kernel = gpu.compile(&k.source, &k.name)?;
    Ok(format!(
        "ok  {}: {tiles} tiles, {} registers, {} B local; {}\n",
        case.name,
        kernel.registers,
        kernel.local_bytes,
        c.describe()
    ))
}
