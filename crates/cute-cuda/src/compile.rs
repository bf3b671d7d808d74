//! NVRTC: CUDA C++ to PTX (for inspection and the CPU tests) and to a CUBIN for the device's
//! architecture (what the library loads, and what [`crate::cache`] keeps on disk).
//!
//! NVRTC is loaded at run time: on a machine without it every function here returns
//! [`GpuError::NoDriver`], never a panic.
//!
//! ```
//! use cute_cuda::compile::{arch_for, nvrtc_version};
//! assert_eq!(arch_for((9, 0)), "sm_90a"); // Hopper: wgmma and setmaxnreg need the `a` target
//! assert_eq!(arch_for((8, 6)), "sm_86");
//! match nvrtc_version() {
//!     Ok((major, minor)) => println!("NVRTC {major}.{minor}"),
//!     Err(e) => println!("{e}"), // no CUDA here
//! }
//! ```

use std::ffi::{c_char, CString};

use cudarc::nvrtc::{result, sys};

use crate::error::GpuError;

/// The architecture the CPU tests compile for: Hopper with its architecture-specific features
/// (`wgmma`, `setmaxnreg`).
pub const ARCH: &str = "sm_90a";

/// The NVRTC target for a device of compute capability `(major, minor)`: `sm_90a` on Hopper (the
/// architecture-specific features that `wgmma` needs), `sm_XY` elsewhere.
///
/// ```
/// assert_eq!(cute_cuda::compile::arch_for((8, 0)), "sm_80");
/// ```
pub fn arch_for(capability: (i32, i32)) -> String {
    match capability {
        (9, 0) => "sm_90a".to_string(),
        (major, minor) => format!("sm_{major}{minor}"),
    }
}

fn present() -> Result<(), GpuError> {
    // SAFETY: only loads the shared library (dlopen) to see whether it is there.
    if unsafe { sys::is_culib_present() } {
        Ok(())
    } else {
        Err(GpuError::NoDriver(
            "the NVRTC library (libnvrtc.so) was not found; add its folder to LD_LIBRARY_PATH"
                .into(),
        ))
    }
}

/// NVRTC's version `(major, minor)`; [`GpuError::NoDriver`] without NVRTC.
///
/// ```
/// if let Ok((major, _)) = cute_cuda::compile::nvrtc_version() {
///     assert!(major >= 12);
/// }
/// ```
pub fn nvrtc_version() -> Result<(i32, i32), GpuError> {
    present()?;
    let (mut major, mut minor) = (0, 0);
    // SAFETY: the library is present; the call writes two integers.
    unsafe { sys::nvrtcVersion(&mut major, &mut minor) }
        .result()
        .map_err(|e| GpuError::driver("nvrtcVersion", e))?;
    Ok((major, minor))
}

/// What NVRTC produces for one source.
enum Output {
    Ptx,
    Cubin,
}

/// An NVRTC program that is destroyed when dropped.
struct Program(sys::nvrtcProgram);

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: created by `create_program` and destroyed only here.
        let _ = unsafe { result::destroy_program(self.0) };
    }
}

fn run_nvrtc(source: &str, name: &str, arch: &str, out: Output) -> Result<Vec<u8>, GpuError> {
    present()?;
    let src = CString::new(source).map_err(|_| {
        GpuError::unsupported("nvrtc", format!("{name}: the source contains a NUL byte"))
    })?;
    let prog = Program(
        result::create_program(&src, None)
            .map_err(|e| GpuError::driver("nvrtcCreateProgram", e))?,
    );
    let opts = [
        format!("--gpu-architecture={arch}"),
        "-std=c++17".to_string(),
        "-default-device".to_string(),
    ];
    // SAFETY: `prog` is a live program.
    if let Err(e) = unsafe { result::compile_program(prog.0, &opts) } {
        // SAFETY: as above; the log exists after a failed compilation.
        let log = unsafe { result::get_program_log(prog.0) }
            .map(|v| {
                let bytes: Vec<u8> = v.iter().map(|&c| c as u8).collect();
                String::from_utf8_lossy(&bytes)
                    .trim_end_matches('\0')
                    .to_string()
            })
            .unwrap_or_default();
        return Err(GpuError::Driver {
            op: "nvrtcCompileProgram",
            message: format!("{name} for {arch}: {e}: {log}"),
        });
    }
    let (mut size, get_size, get): (usize, _, _) = match out {
        Output::Ptx => (
            0,
            sys::nvrtcGetPTXSize as unsafe fn(sys::nvrtcProgram, *mut usize) -> sys::nvrtcResult,
            sys::nvrtcGetPTX as unsafe fn(sys::nvrtcProgram, *mut c_char) -> sys::nvrtcResult,
        ),
        Output::Cubin => (0, sys::nvrtcGetCUBINSize as _, sys::nvrtcGetCUBIN as _),
    };
    // SAFETY: `prog` compiled; the size call writes one integer.
    unsafe { get_size(prog.0, &mut size) }
        .result()
        .map_err(|e| GpuError::driver("nvrtcGetCUBINSize", e))?;
    let mut buf = vec![0u8; size];
    // SAFETY: `buf` has the size NVRTC reported.
    unsafe { get(prog.0, buf.as_mut_ptr() as *mut c_char) }
        .result()
        .map_err(|e| GpuError::driver("nvrtcGetCUBIN", e))?;
    Ok(buf)
}

/// Compiles `source` to PTX text for `arch` (e.g. [`ARCH`]); needs NVRTC but no driver or device
/// (the CPU tests use it to check that every generated kernel compiles). A compilation error
/// carries NVRTC's log and names the kernel `name`.
///
/// ```
/// match cute_cuda::compile::ptx("extern \"C\" __global__ void k() {}", "k", "sm_90a") {
///     Ok(ptx) => assert!(ptx.contains(".entry k")),
///     Err(e) => println!("{e}"), // no NVRTC here
/// }
/// ```
pub fn ptx(source: &str, name: &str, arch: &str) -> Result<String, GpuError> {
    let bytes = run_nvrtc(source, name, arch, Output::Ptx)?;
    Ok(String::from_utf8_lossy(&bytes)
        .trim_end_matches('\0')
        .to_string())
}

/// Compiles `source` to a CUBIN (machine code) for `arch`, the image the driver loads without
/// a further JIT step.
///
/// ```
/// match cute_cuda::compile::cubin("extern \"C\" __global__ void k() {}", "k", "sm_90a") {
///     Ok(bin) => assert_eq!(&bin[..4], b"\x7fELF"),
///     Err(e) => println!("{e}"),
/// }
/// ```
pub fn cubin(source: &str, name: &str, arch: &str) -> Result<Vec<u8>, GpuError> {
    run_nvrtc(source, name, arch, Output::Cubin)
}
