//! The library: COPY, GEMM and einsum-style contractions on any caller's device tensors, each
//! plan compiled once and launched on the caller's stream.
//!
//! Every operation takes [`DeviceTensor`]s (checked against their buffers when made), checks its
//! operands against each other (devices, element types, sizes, overlaps), finds its plan in the
//! device's plan cache — or plans it with the algebra ([`crate::copy`], [`crate::gemm`],
//! [`crate::wgmma`]) and compiles it through the kernel caches ([`crate::cache`]) — and launches
//! it on the given [`Stream`] without synchronising. A refused request is a [`GpuError`] naming
//! the operation, the operands and the violated condition, before anything is launched.
//!
//! ```no_run
//! use cute_cuda::{atom::DType, device::{Gpu, Stream}, tensor::{DeviceBuffer, DeviceTensor}};
//! let gpu = Gpu::shared(0)?;
//! let x: Vec<f32> = (0..64 * 32).map(|i| i as f32).collect();
//! let src_buf = DeviceBuffer::from_host(&gpu, &x)?;
//! let dst_buf = DeviceBuffer::zeroed(&gpu, x.len() * 4)?;
//! // a transpose: the source read row-major, the destination written column-major
//! let src = DeviceTensor::new(&src_buf, "(64,32):(32,1)".parse()?, DType::F32)?;
//! let dst = DeviceTensor::new(&dst_buf, "(64,32):(1,64)".parse()?, DType::F32)?;
//! gpu.copy(&src, &dst, Stream::OWN)?;
//! let y: Vec<f32> = dst_buf.read(&gpu)?;
//! assert_eq!(y[1], x[32]); // dst(1, 0) = src(1, 0)
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::{Arc, Mutex};

use crate::atom::DType;
use crate::copy::plan_copy_aligned;
use crate::device::{Arg, Gpu, Stream};
use crate::error::GpuError;
use crate::gemm::{plan_gemm_aligned, GemmKernel};
use crate::plans::{CopyKey, GemmKey, PlanKey, Planned, Prepared};
use crate::tensor::DeviceTensor;
use crate::tma::run::{c_store_args, encode, gemm_args};
use crate::tma_gemm::plan_gemm_tma;
use crate::wgmma::plan_gemm_wgmma_aligned;
use cute::Layout;

/// What a launch ran: the kernel's kind, registers, and whether its plan was cached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launched {
    /// `direct v4`, `transpose 64x64 v4`, `generic`, `wgmma 128x256x64`, `mma.sync 128x128x32`.
    pub kind: String,
    /// Registers per thread of the kernel.
    pub registers: i32,
    /// Whether the plan came from the plan cache.
    pub cached: bool,
}

fn check_device(gpu: &Gpu, op: &'static str, ts: &[(&str, &DeviceTensor)]) -> Result<(), GpuError> {
    for (name, t) in ts {
        if t.buffer().device() != gpu.ordinal {
            return Err(GpuError::invalid(
                op,
                format!(
                    "{name} {} lies on device {}, the operation runs on device {}",
                    t.layout(),
                    t.buffer().device(),
                    gpu.ordinal
                ),
            ));
        }
    }
    Ok(())
}

fn check_disjoint(
    op: &'static str,
    out: (&str, &DeviceTensor),
    ins: &[(&str, &DeviceTensor)],
) -> Result<(), GpuError> {
    let (o0, o1) = out.1.byte_span();
    for (name, t) in ins {
        let (i0, i1) = t.byte_span();
        if i0 < o1 && o0 < i1 {
            return Err(GpuError::invalid(
                op,
                format!(
                    "{} {} (bytes {o0:#x}..{o1:#x}) overlaps {name} {} (bytes {i0:#x}..{i1:#x}): \
                     a parallel kernel would read what it writes; use separate memory",
                    out.0,
                    out.1.layout(),
                    t.layout()
                ),
            ));
        }
    }
    Ok(())
}

/// The checks of [`Gpu::copy`] that need no GPU: element widths, sizes, overlap.
///
/// ```
/// use cute_cuda::{api::check_copy, atom::DType, DeviceBuffer, DeviceTensor};
/// // SAFETY: the buffers are never dereferenced here
/// let (a, b) = unsafe { (DeviceBuffer::from_raw(0x10000, 256, 0), DeviceBuffer::from_raw(0x20000, 256, 0)) };
/// let src = DeviceTensor::new(&a, "(8,8):(8,1)".parse().unwrap(), DType::F32).unwrap();
/// let dst = DeviceTensor::new(&b, "(8,8):(1,8)".parse().unwrap(), DType::F32).unwrap();
/// assert!(check_copy(&src, &dst).is_ok());
/// let short = DeviceTensor::new(&b, "(8,7):(1,8)".parse().unwrap(), DType::F32).unwrap();
/// assert!(check_copy(&src, &short).unwrap_err().to_string().contains("COPY needs equal sizes"));
/// ```
pub fn check_copy(src: &DeviceTensor, dst: &DeviceTensor) -> Result<(), GpuError> {
    const OP: &str = "copy";
    if src.dtype().bytes() != dst.dtype().bytes() {
        return Err(GpuError::invalid(
            OP,
            format!(
                "source {} of {} and destination {} of {}: a COPY moves elements of one \
                     width; converting types is not a copy",
                src.layout(),
                src.dtype(),
                dst.layout(),
                dst.dtype()
            ),
        ));
    }
    if src.layout().size() != dst.layout().size() {
        return Err(GpuError::invalid(
            OP,
            format!(
                "source {} has {} elements, destination {} has {}: COPY needs equal sizes",
                src.layout(),
                src.layout().size(),
                dst.layout(),
                dst.layout().size()
            ),
        ));
    }
    check_disjoint(OP, ("destination", dst), &[("source", src)])?;
    Ok(())
}

/// The checks of [`Gpu::gemm`] that need no GPU: element types, overlap of C with A or B.
pub fn check_gemm(a: &DeviceTensor, b: &DeviceTensor, c: &DeviceTensor) -> Result<(), GpuError> {
    const OP: &str = "gemm";
    let ab = a.dtype();
    if b.dtype() != ab || !matches!(ab, DType::F16 | DType::Bf16) {
        return Err(GpuError::invalid(
            OP,
            format!(
                "A {} of {} and B {} of {}: A and B must both be f16 or both bf16",
                a.layout(),
                ab,
                b.layout(),
                b.dtype()
            ),
        ));
    }
    let ct = c.dtype();
    if ct != DType::F32 && ct != ab {
        return Err(GpuError::invalid(
            OP,
            format!(
                "C {} of {ct} with operands of {ab}: C must be f32 or {ab}",
                c.layout()
            ),
        ));
    }
    check_disjoint(OP, ("C", c), &[("A", a), ("B", b)])?;
    Ok(())
}

/// The kernel signature a plan launches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Signature {
    /// `(src, dst)`.
    Copy,
    /// `(a, b, c, alpha, beta)`.
    Gemm,
}

/// The GEMM arguments of a launch of `p` on operands at `bases`: [`gemm_args`], with the TMA
/// descriptors of the previous launch reused when A and B are where they were.
fn prepared_gemm_args(
    p: &Prepared,
    bases: [u64; 3],
    alpha: f32,
    beta: f32,
) -> Result<Vec<Arg>, GpuError> {
    let (ta, tb, tc) = match p.tma.as_slice() {
        [ta, tb] => (ta, tb, None),
        [ta, tb, tc] => (ta, tb, Some(tc)),
        _ => return gemm_args(&p.tma, bases, alpha, beta),
    };
    let mut last = p.maps.lock().unwrap_or_else(|e| e.into_inner());
    let maps = match *last {
        Some((at, maps)) if at == bases => maps,
        _ => {
            let c = tc.map(|tc| c_store_args(tc, bases[2])).transpose()?;
            let maps = (
                [
                    encode(ta, bases[0])?.0.opaque,
                    encode(tb, bases[1])?.0.opaque,
                ],
                c,
            );
            *last = Some((bases, maps));
            maps
        }
    };
    let mut args = vec![
        Arg::Map(maps.0[0]),
        Arg::Map(maps.0[1]),
        Arg::Ptr(bases[2]),
        Arg::F32(alpha),
        Arg::F32(beta),
    ];
    args.extend(maps.1.into_iter().flatten());
    Ok(args)
}

/// One operand of a [`Plan`]: what it was planned for.
#[derive(Clone, Copy, Debug)]
struct Operand {
    name: &'static str,
    layout: Layout,
    dtype: DType,
    /// The smallest and largest offset the layout reaches.
    range: (i64, i64),
    /// The alignment (in elements) of the smallest reached address that the kernel assumes.
    align: i64,
}

impl Operand {
    fn of(name: &'static str, t: &DeviceTensor) -> Operand {
        Operand {
            name,
            layout: t.layout(),
            dtype: t.dtype(),
            range: t.range(),
            align: t.align_elems(),
        }
    }

    /// The byte range `[start, end)` the operand reaches when its offset 0 is at `origin`.
    fn span(&self, origin: u64) -> (u64, u64) {
        let e = self.dtype.bytes();
        let start = origin.wrapping_add_signed(self.range.0 * e);
        (
            start,
            start + ((self.range.1 - self.range.0 + 1) * e) as u64,
        )
    }
}

/// A planned operation: its kernel compiled and its operands' layouts, element types and
/// alignments fixed, ready to launch again and again on other memory of the same description
/// with no planning and no layout checks ([`Gpu::launch_plan`], [`Gpu::launch_plan_raw`]). Made by
/// [`Gpu::plan_copy`], [`Gpu::plan_gemm`] and [`Gpu::plan_contract`]; the operands are, in
/// order, `(source, destination)` for a COPY and `(A, B, C)` for a GEMM or contraction.
#[derive(Clone)]
pub struct Plan {
    prepared: Arc<Prepared>,
    op: &'static str,
    signature: Signature,
    device: usize,
    operands: Vec<Operand>,
    cached: bool,
}

impl core::fmt::Debug for Plan {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "Plan {{ {} on device {}: {}",
            self.op, self.device, self.prepared.kind
        )?;
        for o in &self.operands {
            write!(f, ", {} {} of {}", o.name, o.layout, o.dtype)?;
        }
        write!(f, " }}")
    }
}

impl Plan {
    /// How the plan runs: `direct v4`, `transpose 64x64 v4`, `generic`, `wgmma 128x256x64`,
    /// `mma.sync 128x128x32`.
    pub fn kind(&self) -> &str {
        &self.prepared.kind
    }

    /// Whether the plan came from the device's plan cache.
    pub fn cached(&self) -> bool {
        self.cached
    }

    /// Registers per thread of the plan's kernel.
    pub fn registers(&self) -> i32 {
        self.prepared.kernel.registers
    }

    /// The number of operands a launch takes (2 for a COPY, 3 for a GEMM or contraction).
    pub fn operands(&self) -> usize {
        self.operands.len()
    }

    /// The alignment in bytes that the plan assumes of operand `i`'s smallest reached address.
    pub fn align_bytes(&self, i: usize) -> Option<u64> {
        let o = self.operands.get(i)?;
        Some((o.align * o.dtype.bytes()) as u64)
    }

    fn launched(&self) -> Launched {
        Launched {
            kind: self.prepared.kind.clone(),
            registers: self.prepared.kernel.registers,
            cached: self.cached,
        }
    }
}

impl Gpu {
    fn prepared(
        &self,
        key: PlanKey,
        make: impl FnOnce() -> Result<Planned, GpuError>,
    ) -> Result<(Arc<Prepared>, bool), GpuError> {
        if let Some(p) = self
            .plans
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            let p = p.clone();
            self.count(|s| s.plan_hits += 1);
            return Ok((p, true));
        }
        let made = make()?;
        let kernel = self.compile(&made.source, &made.name)?;
        let grid = self.resident_grid(&kernel, made.grid, made.block, made.smem, made.cluster)?;
        let p = Arc::new(Prepared {
            kernel,
            grid,
            block: made.block,
            smem: made.smem,
            kind: made.kind,
            tma: made.tma,
            maps: Mutex::new(None),
            workspace: made.workspace,
        });
        self.count(|s| s.plans += 1);
        self.plans
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, p.clone());
        Ok((p, false))
    }

    /// The plan of [`Gpu::copy`] for tensors of `src`'s and `dst`'s description (layouts,
    /// element types, alignments), made once per description and device and then taken from
    /// the plan cache.
    ///
    /// # Errors
    ///
    /// As [`Gpu::copy`].
    pub fn plan_copy(&self, src: &DeviceTensor, dst: &DeviceTensor) -> Result<Plan, GpuError> {
        const OP: &str = "copy";
        check_device(self, OP, &[("source", src), ("destination", dst)])?;
        check_copy(src, dst)?;
        let align = (src.align_elems(), dst.align_elems());
        let key = PlanKey::Copy(Box::new(CopyKey {
            src: src.layout(),
            dst: dst.layout(),
            dtype: dst.dtype(),
            align,
        }));
        let (prepared, cached) = self.prepared(key, || {
            let plan = plan_copy_aligned(&src.layout(), &dst.layout(), dst.dtype(), align)
                .map_err(|e| match e {
                    GpuError::Unsupported { what, .. } => GpuError::invalid(OP, what),
                    other => other,
                })?;
            let kind = match &plan.kernel {
                crate::copy::CopyKernel::Direct { vector } => format!("direct v{vector}"),
                crate::copy::CopyKernel::Transpose { tile, vector, .. } => {
                    format!("transpose {}x{} v{vector}", tile.0, tile.1)
                }
                crate::copy::CopyKernel::Generic => "generic".to_string(),
            };
            Ok(Planned {
                source: plan.source,
                name: plan.name,
                grid: (plan.grid, 1),
                block: plan.block,
                smem: plan.smem_bytes,
                kind,
                tma: Vec::new(),
                cluster: 1,
                workspace: 0,
            })
        })?;
        Ok(Plan {
            prepared,
            op: OP,
            signature: Signature::Copy,
            device: self.ordinal,
            operands: vec![Operand::of("source", src), Operand::of("destination", dst)],
            cached,
        })
    }

    /// The plan of [`Gpu::gemm`] for tensors of `a`'s, `b`'s and `c`'s description.
    ///
    /// # Errors
    ///
    /// As [`Gpu::gemm`].
    pub fn plan_gemm(
        &self,
        a: &DeviceTensor,
        b: &DeviceTensor,
        c: &DeviceTensor,
    ) -> Result<Plan, GpuError> {
        self.plan_gemm_as("gemm", a, b, c, [a.layout(), b.layout(), c.layout()])
    }

    /// The plan of `a`, `b`, `c` (the folded modes of a contraction, or a GEMM's own), recorded
    /// against `given`, the layouts the caller's tensors have.
    fn plan_gemm_as(
        &self,
        op: &'static str,
        a: &DeviceTensor,
        b: &DeviceTensor,
        c: &DeviceTensor,
        given: [Layout; 3],
    ) -> Result<Plan, GpuError> {
        const OP: &str = "gemm";
        check_device(self, OP, &[("A", a), ("B", b), ("C", c)])?;
        if self.capability.0 < 8 {
            return Err(GpuError::unsupported(
                OP,
                format!(
                    "device {} is sm_{}{}: the GEMM kernels need sm_80 or newer (mma.sync)",
                    self.name, self.capability.0, self.capability.1
                ),
            ));
        }
        check_gemm(a, b, c)?;
        let (ab, ct) = (a.dtype(), c.dtype());
        let align = [a.align_elems(), b.align_elems()];
        let hopper = self.capability == (9, 0);
        let key = PlanKey::Gemm(Box::new(GemmKey {
            a: a.layout(),
            b: b.layout(),
            c: c.layout(),
            ab,
            c_type: ct,
            align,
        }));
        let (al, bl, cl) = (a.layout(), b.layout(), c.layout());
        let (prepared, cached) = self.prepared(key, || {
            let invalid = |e: GpuError| match e {
                GpuError::Layout(le) => GpuError::invalid(OP, le.to_string()),
                other => other,
            };
            // on Hopper the TMA kernel where the operands are TMA tensors, else the one that
            // loads by cp.async where they allow 16-byte loads; the portable kernel elsewhere
            let sms = self.sm_count.max(1) as u32;
            let hopper_plan = || -> Option<(GemmKernel, String)> {
                if !hopper {
                    return None;
                }
                if let Ok(p) = plan_gemm_tma(&al, &bl, &cl, ab, ct, align, sms) {
                    let (bm, bn, bk) = p.tile;
                    let sk = p.stream_k.map_or(String::new(), |s| {
                        format!(", stream-K over the last {} tiles", s.tiles)
                    });
                    let kind = format!(
                        "wgmma {bm}x{bn}x{bk}, {} stages, TMA, warp-specialised{sk}",
                        p.stages
                    );
                    return Some((p.kernel, kind));
                }
                let p = plan_gemm_wgmma_aligned(&al, &bl, &cl, ab, ct, align).ok()?;
                Some((p.kernel, "wgmma 128x256x64".into()))
            };
            let (k, kind): (GemmKernel, String) = match hopper_plan() {
                Some(x) => x,
                None => (
                    plan_gemm_aligned(&al, &bl, &cl, ab, ct, align)
                        .map_err(invalid)?
                        .kernel,
                    "mma.sync 128x128x32".to_string(),
                ),
            };
            Ok(Planned {
                source: k.source,
                name: k.name,
                grid: k.grid,
                block: k.block,
                smem: k.smem_bytes,
                kind,
                tma: k.tma,
                cluster: k.cluster,
                workspace: k.workspace,
            })
        })?;
        let mut operands = vec![
            Operand::of("A", a),
            Operand::of("B", b),
            Operand::of("C", c),
        ];
        for (o, l) in operands.iter_mut().zip(given) {
            o.layout = l;
        }
        Ok(Plan {
            prepared,
            op,
            signature: Signature::Gemm,
            device: self.ordinal,
            operands,
            cached,
        })
    }

    /// The plan of [`Gpu::contract`] for tensors of `a`'s, `b`'s and `c`'s description: the
    /// modes folded by the algebra once, here.
    ///
    /// # Errors
    ///
    /// As [`Gpu::contract`].
    pub fn plan_contract(
        &self,
        spec: &str,
        a: &DeviceTensor,
        b: &DeviceTensor,
        c: &DeviceTensor,
    ) -> Result<Plan, GpuError> {
        let spec: String = spec.chars().filter(|ch| !ch.is_whitespace()).collect();
        let modes = cute_gemm::contract_modes(&spec, &a.layout(), &b.layout(), &c.layout())
            .map_err(|e| GpuError::invalid("contract", e.to_string()))?;
        let (fa, fb, fc) = (
            a.relayout(modes.a)?,
            b.relayout(modes.b)?,
            c.relayout(modes.c)?,
        );
        self.plan_gemm_as(
            "contract",
            &fa,
            &fb,
            &fc,
            [a.layout(), b.layout(), c.layout()],
        )
    }

    /// Launches `plan` on `tensors` (in the plan's operand order), which must have the layouts
    /// and element types the plan was made for and addresses at least as aligned; `alpha` and
    /// `beta` scale a GEMM's product and C (a COPY ignores them).
    ///
    /// # Errors
    ///
    /// [`GpuError::Invalid`] for another number of tensors, another device, a layout or element
    /// type other than the plan's, a less aligned address, or an output that overlaps an input;
    /// driver errors.
    pub fn launch_plan(
        &self,
        plan: &Plan,
        tensors: &[&DeviceTensor],
        alpha: f32,
        beta: f32,
        stream: Stream,
    ) -> Result<Launched, GpuError> {
        if tensors.len() != plan.operands.len() {
            return Err(GpuError::invalid(
                plan.op,
                format!(
                    "the plan takes {} tensors, {} were given",
                    plan.operands.len(),
                    tensors.len()
                ),
            ));
        }
        let mut origins = [0u64; 3];
        for (i, (o, t)) in plan.operands.iter().zip(tensors).enumerate() {
            if t.buffer().device() != plan.device {
                return Err(GpuError::invalid(
                    plan.op,
                    format!(
                        "{} {} lies on device {}, the plan is for device {}",
                        o.name,
                        t.layout(),
                        t.buffer().device(),
                        plan.device
                    ),
                ));
            }
            if t.layout() != o.layout || t.dtype() != o.dtype {
                return Err(GpuError::invalid(
                    plan.op,
                    format!(
                        "{} {} of {} given to a plan made for {} of {}",
                        o.name,
                        t.layout(),
                        t.dtype(),
                        o.layout,
                        o.dtype
                    ),
                ));
            }
            origins[i] = t
                .buffer()
                .ptr()
                .wrapping_add_signed(t.offset() * t.dtype().bytes());
        }
        // SAFETY: each tensor was checked against its buffer when made (every offset its layout
        // reaches lies in the buffer), and has the layout the plan was made for.
        unsafe { self.launch_plan_raw(plan, &origins[..tensors.len()], alpha, beta, stream) }
    }

    /// Launches `plan` on memory given by the address of each operand's offset 0 (its element
    /// 0: `data_ptr()` of a PyTorch tensor), in the plan's operand order, after checking the
    /// device, each address's alignment against the plan's and that the output overlaps no input.
    ///
    /// # Errors
    ///
    /// [`GpuError::Invalid`] for another number of addresses, another device, an address less
    /// aligned than the plan assumes, or an output that overlaps an input; driver errors.
    ///
    /// # Safety
    ///
    /// For each operand, every offset its planned layout reaches, from its address, must lie in
    /// live device memory of the plan's device, kept alive while the launch is queued on
    /// `stream`, which must be a stream of that device's primary context.
    pub unsafe fn launch_plan_raw(
        &self,
        plan: &Plan,
        origins: &[u64],
        alpha: f32,
        beta: f32,
        stream: Stream,
    ) -> Result<Launched, GpuError> {
        let n = plan.operands.len();
        if origins.len() != n {
            return Err(GpuError::invalid(
                plan.op,
                format!("the plan takes {n} addresses, {} were given", origins.len()),
            ));
        }
        if plan.device != self.ordinal {
            return Err(GpuError::invalid(
                plan.op,
                format!(
                    "a plan for device {} launched on device {}",
                    plan.device, self.ordinal
                ),
            ));
        }
        let mut bases = [0u64; 3];
        for (i, (o, &origin)) in plan.operands.iter().zip(origins).enumerate() {
            let (start, _) = o.span(origin);
            let want = (o.align * o.dtype.bytes()) as u64;
            if !start.is_multiple_of(want) {
                return Err(GpuError::invalid(
                    plan.op,
                    format!(
                        "{} {} starts at {start:#x}, which is not a multiple of the {want} bytes \
                         its plan assumes; plan again for this address",
                        o.name, o.layout
                    ),
                ));
            }
            bases[i] = start;
        }
        let out = &plan.operands[n - 1];
        let (o0, o1) = out.span(origins[n - 1]);
        for (o, &origin) in plan.operands[..n - 1].iter().zip(origins) {
            let (i0, i1) = o.span(origin);
            if i0 < o1 && o0 < i1 {
                return Err(GpuError::invalid(
                    plan.op,
                    format!(
                        "{} {} (bytes {o0:#x}..{o1:#x}) overlaps {} {} (bytes {i0:#x}..{i1:#x}): \
                         a parallel kernel would read what it writes; use separate memory",
                        out.name, out.layout, o.name, o.layout
                    ),
                ));
            }
        }
        let p = &plan.prepared;
        let (copy_args, gemm_args);
        let args: &[Arg] = match plan.signature {
            Signature::Copy => {
                copy_args = [Arg::Ptr(bases[0]), Arg::Ptr(bases[1])];
                &copy_args
            }
            Signature::Gemm => {
                let mut args = prepared_gemm_args(p, bases, alpha, beta)?;
                args.extend(self.workspace_args(stream, p.workspace)?);
                gemm_args = args;
                &gemm_args
            }
        };
        self.launch_on(stream, &p.kernel, p.grid, p.block, p.smem, args)?;
        Ok(plan.launched())
    }

    /// COPY: `dst(c) = src(c)` for every coordinate `c`, on `stream`. The layouts may differ in
    /// every way (any rank, hierarchy, strides; broadcast sources with stride 0; negative
    /// strides); they need equal sizes. The element types need equal widths (a COPY moves bits:
    /// `bf16` into `f16` is a conversion, not a copy).
    ///
    /// # Errors
    ///
    /// [`GpuError::Invalid`] for tensors on another device, element types of different widths,
    /// sizes that differ, a destination whose bytes overlap the source's, or a destination that
    /// is not injective where its repeated offsets receive different source elements;
    /// [`GpuError::Unsupported`] for a plan beyond one launch; driver and NVRTC errors.
    pub fn copy(
        &self,
        src: &DeviceTensor,
        dst: &DeviceTensor,
        stream: Stream,
    ) -> Result<Launched, GpuError> {
        let plan = self.plan_copy(src, dst)?;
        self.launch_plan(&plan, &[src, dst], 1.0, 0.0, stream)
    }

    /// GEMM: `C = α·A·B + β·C` for `A (M,K[,L])`, `B (N,K[,L])` and `C (M,N[,L])` — CuTe's
    /// convention, B given as `(N,K)` — whose modes may be hierarchical (a folded tensor
    /// contraction) and whose batch mode `L` may broadcast A or B (stride 0). A and B of `f16`
    /// or `bf16`, C of `f32` or of A's type; products accumulated in `f32`; with `β = 0`, C is
    /// not read. On Hopper the `wgmma` kernel runs where its operands allow 16-byte loads, else
    /// the portable `mma.sync` kernel (any architecture from `sm_80`).
    ///
    /// # Errors
    ///
    /// [`GpuError::Invalid`] for tensors on another device, unsupported element types, layouts
    /// that do not form a GEMM (extents that disagree; the algebra's message), a C that is not
    /// injective or overlaps A or B; [`GpuError::Unsupported`] for a device older than `sm_80` or
    /// a batch over 65535; driver and NVRTC errors.
    pub fn gemm(
        &self,
        a: &DeviceTensor,
        b: &DeviceTensor,
        c: &DeviceTensor,
        alpha: f32,
        beta: f32,
        stream: Stream,
    ) -> Result<Launched, GpuError> {
        let plan = self.plan_gemm(a, b, c)?;
        self.launch_plan(&plan, &[a, b, c], alpha, beta, stream)
    }

    /// The einsum-style contraction `C = α·Σ A·B + β·C` of `spec` (e.g. `"stupr,qtru->stqp"`, the
    /// paper's GETT; spaces are ignored): the letters classified and the tensors folded by the
    /// algebra ([`cute_gemm::contract_modes`]) into one GEMM over hierarchical modes — rows M (in
    /// A and C), columns N (B and C), reduction K (A and B), batch L (all three) — with no
    /// permuting copy, then [`Gpu::gemm`]. A term with no letters is a scalar, a tensor of the
    /// one-element layout `1:d` (a dot product is `"k,k->"`).
    ///
    /// # Errors
    ///
    /// [`GpuError::Invalid`] for a spec the tensors do not fit (the algebra's message: ranks,
    /// letters, sizes), and those of [`Gpu::gemm`].
    #[allow(clippy::too_many_arguments)]
    pub fn contract(
        &self,
        spec: &str,
        a: &DeviceTensor,
        b: &DeviceTensor,
        c: &DeviceTensor,
        alpha: f32,
        beta: f32,
        stream: Stream,
    ) -> Result<Launched, GpuError> {
        let plan = self.plan_contract(spec, a, b, c)?;
        self.launch_plan(&plan, &[a, b, c], alpha, beta, stream)
    }
}
