//! COPY plans: the kernel each case gets, the vector widths, the swizzle from the bank-conflict
//! search, refusals, and snapshots of generated source.

use cute::Layout;
use cute_cuda::atom::DType;
use cute_cuda::cases as run;
use cute_cuda::copy::{plan_copy, CopyKernel};
use cute_cuda::device::Gpu;
use cute_cuda::GpuError;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

#[test]
fn table2_plans() {
    let kinds: Vec<String> = run::table2_cases(DType::F32)
        .unwrap()
        .iter()
        .map(|c| {
            let p = plan_copy(&c.src, &c.dst, c.dtype).unwrap();
            format!(
                "{}: {:?} {}",
                c.name,
                p.kernel,
                cute_cuda::copy::modes_text(&p.modes)
            )
        })
        .collect();
    let expect = [
        "T2.1 1-D array f32: Direct { vector: 4 } [8:1/1]",
        "T2.1 1-D array f32 negated: Direct { vector: 1 } [8:-1/-1]",
        "T2.2 N-D array f32: Direct { vector: 4 } [8:1/1, 6:16/16]",
        "T2.2 N-D array f32 negated: Direct { vector: 1 } [8:-1/-1, 6:-16/-16]",
        "T2.3 gather f32: Direct { vector: 1 } [2:42/1, 3:1/2, 2:128/6]",
        "T2.3 gather f32 negated: Direct { vector: 1 } [2:-42/-1, 3:-1/-2, 2:-128/-6]",
        "T2.4 scatter f32: Direct { vector: 1 } [3:2/1, 2:1/42, 2:6/128]",
        "T2.4 scatter f32 negated: Direct { vector: 1 } [3:-2/-1, 2:-1/-42, 2:-6/-128]",
        "T2.5 broadcast f32: Direct { vector: 1 } [7:0/1]",
        "T2.5 broadcast f32 negated: Direct { vector: 1 } [7:0/-1]",
        "T2.6 constant f32: Generic []",
        "T2.6 constant f32 negated: Generic []",
    ];
    for (got, want) in kinds.iter().zip(expect) {
        assert_eq!(got, want);
    }
    // 8x3: too small a mode for a tile
    assert_eq!(
        kinds[12],
        "T2.7 transpose f32: Direct { vector: 1 } [3:8/1, 8:1/3]"
    );
    // stride 57 is not a multiple of a vector
    assert_eq!(
        kinds[14],
        "T2.8 tensor transpose f32: Direct { vector: 1 } [8:1/1, 3:57/8, 5:8/24]"
    );
}

#[test]
fn transposes_get_vectors_and_a_conflict_free_swizzle() {
    for (dtype, v) in [(DType::F32, 4), (DType::Bf16, 8), (DType::F16, 8)] {
        let p = plan_copy(
            &l("(4096,4096):(4096,1)"),
            &l("(4096,4096):(1,4096)"),
            dtype,
        )
        .unwrap();
        let CopyKernel::Transpose {
            tile,
            vector,
            swizzle,
            smem,
            tv_write,
            tv_read,
            ..
        } = &p.kernel
        else {
            panic!("{:?}", p.kernel)
        };
        assert_eq!((*tile, *vector), ((16 * v, 16 * v), v));
        assert!(
            !swizzle.is_identity(),
            "the transposed writes conflict without a swizzle"
        );
        // the chosen swizzle serves both patterns in their ideal wavefronts
        let sw = cute::ComposedLayout::new(*swizzle, 0, *smem);
        for tv in [tv_write, tv_read] {
            let r = cute::bank_conflicts(&sw, tv, dtype.bytes(), v).unwrap();
            assert!(r.is_conflict_free(), "{dtype} {tv}: {r:?}");
        }
    }
}

#[test]
fn short_modes_get_rectangular_tiles() {
    // out = x.permute(4,1,2,3,0) of a [16,32,32,64,512] bf16 tensor: the destination's fastest
    // mode has extent 16; the mode that continues it in the destination joins the tile's rows,
    // so the tile stays 128x128
    let c = run::permute_case(
        "t",
        &[16, 32, 32, 64, 512],
        &[4, 1, 2, 3, 0],
        DType::Bf16,
        &[],
    )
    .unwrap();
    let p = plan_copy(&c.src, &c.dst, c.dtype).unwrap();
    let CopyKernel::Transpose {
        tile,
        vector,
        swizzle,
        smem,
        tv_write,
        tv_read,
        ..
    } = &p.kernel
    else {
        panic!("{}", p.describe())
    };
    assert_eq!((*tile, *vector), ((128, 128), 8), "{}", p.describe());
    assert!(
        p.source
            .contains("tile rows: joint modes [0, 1], source layout (16,65536):(33554432,512)"),
        "{}",
        p.source
    );
    let sw = cute::ComposedLayout::new(*swizzle, 0, *smem);
    for tv in [tv_write, tv_read] {
        let r = cute::bank_conflicts(&sw, tv, 2, 8).unwrap();
        assert!(r.is_conflict_free(), "{tv}: {r:?}");
    }
    // no mode continues a short one: the tile narrows to it, the block to what mode k needs
    let p = plan_copy(
        &l("(16,512,3):(1536,1,512)"),
        &l("(16,512,3):(1,16,8192)"),
        DType::Bf16,
    )
    .unwrap();
    assert!(
        matches!(
            p.kernel,
            CopyKernel::Transpose {
                tile: (16, 1024),
                ..
            }
        ),
        "{}",
        p.describe()
    );
    assert_eq!(p.block, 256);
    // and a short mode k gets a smaller block of threads
    let p = plan_copy(
        &l("(16,64,9):(576,1,64)"),
        &l("(16,64,9):(1,16,65536)"),
        DType::Bf16,
    )
    .unwrap();
    // (one warp at least: the tile is 16x128 for a 64-element mode)
    assert!(
        matches!(
            p.kernel,
            CopyKernel::Transpose {
                tile: (16, 128),
                ..
            }
        ),
        "{}",
        p.describe()
    );
    assert_eq!(p.block, 32);
    // a short source mode widens the tile along mode 0
    let p = plan_copy(&l("(4096,16):(16,1)"), &l("(4096,16):(1,4096)"), DType::F32).unwrap();
    assert!(
        matches!(
            p.kernel,
            CopyKernel::Transpose {
                tile: (256, 16),
                ..
            }
        ),
        "{}",
        p.describe()
    );
}

#[test]
fn ragged_and_negative_permutations_plan() {
    let c = run::permute_case("t", &[37, 1000, 30], &[2, 0, 1], DType::Bf16, &[1]).unwrap();
    let p = plan_copy(&c.src, &c.dst, c.dtype).unwrap();
    assert_eq!(c.src.to_string(), "(30,37,1000):(1,-30000,30)");
    assert!(
        matches!(
            p.kernel,
            CopyKernel::Transpose {
                src_mode: 2,
                vector: 2,
                ..
            }
        ),
        "{}",
        p.describe()
    );
    assert_eq!(p.src_range, (-1080000, 29999));
    // the source's fastest mode has extent 3: too small for a tile, a direct kernel
    let c = run::permute_case("t", &[37, 1000, 3], &[2, 0, 1], DType::Bf16, &[1]).unwrap();
    let p = plan_copy(&c.src, &c.dst, c.dtype).unwrap();
    assert!(
        matches!(p.kernel, CopyKernel::Direct { vector: 1 }),
        "{}",
        p.describe()
    );
    // a ragged extent limits the vector: 37 and 1000 are not multiples of 8
    let q = plan_copy(&l("(36,1000):(1000,1)"), &l("(36,1000):(1,36)"), DType::F32).unwrap();
    assert!(
        matches!(q.kernel, CopyKernel::Transpose { vector: 4, .. }),
        "{}",
        q.describe()
    );
    let r = plan_copy(&l("(37,1000):(1000,1)"), &l("(37,1000):(1,37)"), DType::F32).unwrap();
    assert!(
        matches!(r.kernel, CopyKernel::Transpose { vector: 1, .. }),
        "{}",
        r.describe()
    );
}

#[test]
fn refusals() {
    // a destination that would receive two different source elements
    let e = plan_copy(&l("(2,3):(1,2)"), &l("(2,3):(0,1)"), DType::F32).unwrap_err();
    assert!(e.to_string().contains("receives source offsets"), "{e}");
    // sizes differ: the algebra's error
    let e = plan_copy(&l("8:1"), &l("4:1"), DType::F32).unwrap_err();
    assert!(matches!(e, GpuError::Layout(_)), "{e}");
    // coordinate strides are not offsets
    assert!(plan_copy(&l("(4,4):(1@0,1@1)"), &l("(4,4):(1,4)"), DType::F32).is_err());
}

/// Found by a hunt that ran the generated kernels in a host emulator with sanitizers: each fix
/// is pinned on the plan and its source.
#[test]
fn index_types_shared_memory_and_large_injective_destinations() {
    // a reversed view of a 10.8 GB f32 tensor (CuPy `x[::-1, :, :15000]`): each end of the
    // source's offsets fits in an `int`, but the kernel indexes from the lowest, up to 2.7e9
    let p = plan_copy(
        &l("(3,30000,15000):(-900000000,30000,1)"),
        &l("(3,30000,15000):(450000000,15000,1)"),
        DType::F32,
    )
    .unwrap();
    assert!(p.source.contains("typedef long long idx;"), "{}", p.source);
    // 1-byte transposes: a 16-wide vector would need 64 KiB of static shared memory
    let p = plan_copy(
        &l("(1024,1024):(1024,1)"),
        &l("(1024,1024):(1,1024)"),
        DType::U8,
    )
    .unwrap();
    let CopyKernel::Transpose { tile, vector, .. } = &p.kernel else {
        panic!("{:?}", p.kernel)
    };
    assert_eq!((*tile, *vector), ((128, 128), 8));
    assert!(p.source.contains("sm[16384]"), "{}", p.source);
    // a reshaping copy whose leaves have no common refinement, into a compact (injective)
    // destination too large to enumerate
    let p = plan_copy(
        &l("(3000,3000):(1,3000)"),
        &l("(2000,4500):(1,2000)"),
        DType::F32,
    )
    .unwrap();
    assert!(matches!(p.kernel, CopyKernel::Generic), "{:?}", p.kernel);
    // a non-injective destination that large is still refused
    let e = plan_copy(
        &l("(3000,3000):(1,3000)"),
        &l("(2000,4500):(1,1000)"),
        DType::F32,
    )
    .unwrap_err();
    assert!(e.to_string().contains("not shown injective"), "{e}");
}

#[test]
fn no_driver_is_an_error_not_a_panic() {
    match Gpu::open() {
        Ok(g) => assert!(!g.name.is_empty()),
        Err(e) => {
            assert!(matches!(e, GpuError::NoDriver(_)), "{e}");
            assert!(e.to_string().starts_with("no CUDA device: "), "{e}");
        }
    }
}

/// The generated source of representative plans, compared with the files in `snapshots/`
/// (`UPDATE_SNAPSHOTS=1` rewrites them).
#[test]
fn source_snapshots() {
    let cases = [
        (
            "transpose_f32",
            "(1000,4096):(4096,1)",
            "(1000,4096):(1,1000)",
            DType::F32,
        ),
        (
            "permute3_bf16",
            "(64,96,128):(1,8192,64)",
            "(64,96,128):(12288,128,1)",
            DType::Bf16,
        ),
        (
            "direct_f16",
            "(64,(8,2)):(1,(128,64))",
            "(64,16):(1,64)",
            DType::F16,
        ),
        ("generic_f32", "(4,6):(1,4)", "(6,4):(4,1)", DType::F32),
    ];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/all/snapshots");
    for (name, s, d, t) in cases {
        let p = plan_copy(&l(s), &l(d), t).unwrap();
        let text = format!("{}\n---\n{}", p.describe(), p.source);
        let file = dir.join(format!("{name}.cu"));
        if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
            std::fs::write(&file, &text).unwrap();
        }
        let want = std::fs::read_to_string(&file).unwrap_or_default();
        assert_eq!(
            text, want,
            "snapshot {name} (UPDATE_SNAPSHOTS=1 to rewrite)"
        );
    }
}
