//! The TMA copy atom: descriptor parameters derived from layouts against values established from
//! CUTLASS's `make_tma_copy` semantics (`cute/atom/copy_traits_sm90_tma.hpp`) and the driver's
//! `cuTensorMapEncodeTiled` contract; the model of a TMA load against the tiling's definition;
//! every refusal; the generated kernels compiled by NVRTC.

use cute::{ComposedLayout, Layout, Swizzle};
use cute_cuda::atom::{gmma_smem_atom, DType, GmmaSwizzle, Major};
use cute_cuda::compile::{cubin, ptx, ARCH};
use cute_cuda::tma::emit::{coord_exprs, tma_copy_kernel, tma_copy_kernel_perturbed};
use cute_cuda::tma::run::{encode, tile_reference, tma_cases};
use cute_cuda::tma::{make_tma_copy, TmaCopy, TmaSwizzle};
use cute_cuda::GpuError;

fn plain(l: &str) -> ComposedLayout {
    ComposedLayout::new(Swizzle::new(0, 4, 3).unwrap(), 0, l.parse().unwrap())
}

fn atom(major: Major, sw: GmmaSwizzle, t: DType, l: &str) -> ComposedLayout {
    let a = gmma_smem_atom(major, sw, t.bits()).unwrap();
    ComposedLayout::new(a.swizzle, 0, l.parse().unwrap())
}

fn tma(g: &str, tile: &[i64], smem: &ComposedLayout, t: DType) -> Result<TmaCopy, GpuError> {
    make_tma_copy(&g.parse::<Layout>().unwrap(), tile, smem, t)
}

/// One row: the request and the descriptor CUTLASS's semantics give.
struct Row {
    g: &'static str,
    tile: &'static [i64],
    smem: ComposedLayout,
    t: DType,
    dims: &'static [u64],
    strides: &'static [u64],
    boxes: &'static [u32],
    swizzle: TmaSwizzle,
    grid: &'static str,
}

#[test]
fn descriptor_parameters() {
    // Where each expected value comes from (CUTLASS `construct_tma_gbasis` / `make_tma_copy_desc`):
    // * dimension order: the shared-memory layout's modes fastest first (`right_inverse` of the
    //   non-swizzled part composed with the tile's identity), so dimension 0 is the mode with
    //   smem stride 1; it must have global stride 1 (`gmem_prob_stride[0] == 1`);
    // * globalDim: the whole extent of the global mode (`basis_get(ej, gmem_shape)`), not the tile;
    // * globalStrides: the global strides of dimensions 1.. times the element's bytes;
    // * boxDim: the tile's extent of that mode (`size<i>(tma_gbasis)`); global modes the tile does
    //   not cover follow with box 1 (`tile_gbasis_remaining_stride`);
    // * neighbouring modes contiguous in memory become one dimension (`coalesce_256`);
    // * swizzle: `Sw<B,4,3>` on bytes is SWIZZLE_{NONE,32B,64B,128B} for B = 0..3
    //   (`get_tma_swizzle_bits`); `gmma_smem_atom` writes it on element offsets, `Sw<B,4-log2(bytes),3>`;
    // * the grid: ceil(extent / tile) tiles per mode, tile step `tile` on that mode's dimension.
    let rows = [
        // column-major f32 matrix, ld 256: M contiguous -> dimension 0 = M, stride of N
        // 256 * 4 = 1024 B; 100 / 8 -> 13 tiles (the last partial)
        Row {
            g: "(256,100):(1,256)",
            tile: &[64, 8],
            smem: plain("(64,8):(1,64)"),
            t: DType::F32,
            dims: &[256, 100],
            strides: &[1024],
            boxes: &[64, 8],
            swizzle: TmaSwizzle::None,
            grid: "(4,13):(64@0,8@1)",
        },
        // K-major bf16 A of a GEMM (CUTLASS SM90 TN: A (M,K) with K contiguous) into the wgmma
        // K-major SW128 atom Sw<3,4,3> (bytes) = Sw<3,3,3> (bf16): dimension 0 = K (1000, box 64
        // = 128 B, the swizzle span), dimension 1 = M (300, stride 1000 * 2 = 2000 B)
        Row {
            g: "(300,1000):(1000,1)",
            tile: &[64, 64],
            smem: atom(Major::K, GmmaSwizzle::B128, DType::Bf16, "(64,64):(64,1)"),
            t: DType::Bf16,
            dims: &[1000, 300],
            strides: &[2000],
            boxes: &[64, 64],
            swizzle: TmaSwizzle::B128,
            grid: "(5,16):(64@1,64@0)",
        },
        // MN-major f16 with a batch mode L: the wgmma MN-major SW128 atom (64,8):(1,64) tiled to
        // (64,32); L is not tiled: a box-1 dimension of extent 3, stride 13600 * 2 = 27200 B
        Row {
            g: "(128,100,3):(1,136,13600)",
            tile: &[64, 32, 1],
            smem: atom(Major::MN, GmmaSwizzle::B128, DType::F16, "(64,32):(1,64)"),
            t: DType::F16,
            dims: &[128, 100, 3],
            strides: &[272, 27200],
            boxes: &[64, 32, 1],
            swizzle: TmaSwizzle::B128,
            grid: "(2,4,3):(64@0,32@1,1@2)",
        },
        // a hierarchical mode (8,16):(1,8) is contiguous: its two leaves coalesce into one
        // dimension of 128 with box 8 * 4 = 32; 40 rows of stride 136 * 4 = 544 B; batch of 2
        Row {
            g: "((8,16),40,2):((1,8),136,5440)",
            tile: &[32, 8, 1],
            smem: plain("(32,8):(1,32)"),
            t: DType::F32,
            dims: &[128, 40, 2],
            strides: &[544, 21760],
            boxes: &[32, 8, 1],
            swizzle: TmaSwizzle::None,
            grid: "(4,5,2):(32@0,8@1,1@2)",
        },
        // K-major bf16 with 64-byte rows: the SW64 atom Sw<2,4,3> (bytes) = Sw<2,3,3> (bf16),
        // box 32 x 16, rows padded to 104 elements = 208 B
        Row {
            g: "(40,96):(104,1)",
            tile: &[16, 32],
            smem: atom(Major::K, GmmaSwizzle::B64, DType::Bf16, "(16,32):(32,1)"),
            t: DType::Bf16,
            dims: &[96, 40],
            strides: &[208],
            boxes: &[32, 16],
            swizzle: TmaSwizzle::B64,
            grid: "(3,3):(16@1,32@0)",
        },
        // the SW32 atom for f32: Sw<1,4,3> (bytes) = Sw<1,2,3> (f32), rows of 8 floats = 32 B
        Row {
            g: "(64,64):(64,1)",
            tile: &[16, 8],
            smem: atom(Major::K, GmmaSwizzle::B32, DType::F32, "(16,8):(8,1)"),
            t: DType::F32,
            dims: &[64, 64],
            strides: &[256],
            boxes: &[8, 16],
            swizzle: TmaSwizzle::B32,
            grid: "(4,8):(16@1,8@0)",
        },
        // a row-major matrix tiled by whole rows: the box covers all of the contiguous mode
        // (64 of 64) and the rows follow contiguously (stride 64 = 64 * 1), so the two merge into
        // one dimension of 64 * 32 = 2048 with box 64 * 4 = 256 (the largest box); the grid
        // steps 256 elements on it
        Row {
            g: "(32,64):(64,1)",
            tile: &[4, 64],
            smem: plain("(4,64):(64,1)"),
            t: DType::F32,
            dims: &[2048],
            strides: &[],
            boxes: &[256],
            swizzle: TmaSwizzle::None,
            grid: "(8):(256@0)",
        },
        // a hierarchical mode (128,2):(1,4096) tiled by 64: the tile divides its first leaf, the
        // second leaf is not covered and follows as a box-1 dimension (extent 2, 4096 * 4 B);
        // the grid of mode 0 is hierarchical too, (2,2) with steps 64 on dimension 0 and 1 on
        // dimension 2: tile index g of that mode starts at 64 g = (64 g mod 128, 64 g / 128)
        Row {
            g: "((128,2),32):((1,4096),128)",
            tile: &[64, 8],
            smem: plain("(64,8):(1,64)"),
            t: DType::F32,
            dims: &[128, 32, 2],
            strides: &[512, 16384],
            boxes: &[64, 8, 1],
            swizzle: TmaSwizzle::None,
            grid: "(2,2,4):(64@0,1@2,8@1)",
        },
        // rank 5: padded strides keep every mode its own dimension
        Row {
            g: "(32,3,4,5,6):(1,40,128,640,3840)",
            tile: &[32, 2, 1, 1, 1],
            smem: plain("(32,2):(1,32)"),
            t: DType::F32,
            dims: &[32, 3, 4, 5, 6],
            strides: &[160, 512, 2560, 15360],
            boxes: &[32, 2, 1, 1, 1],
            swizzle: TmaSwizzle::None,
            grid: "(2,4,5,6):(2@1,1@2,1@3,1@4)",
        },
        // contiguous untiled modes merge (box 1 on both): (3, 4) of strides (1024, 3072) become
        // one dimension of 12 with stride 1024 elements; the coordinate is i + 3 j
        Row {
            g: "(256,3,4):(1,1024,3072)",
            tile: &[128, 1, 1],
            smem: plain("128:1"),
            t: DType::F32,
            dims: &[256, 12],
            strides: &[4096],
            boxes: &[128, 1],
            swizzle: TmaSwizzle::None,
            grid: "(2,3,4):(128@0,1@1,3@1)",
        },
    ];
    for r in rows {
        let c = tma(r.g, r.tile, &r.smem, r.t).unwrap_or_else(|e| panic!("{}: {e}", r.g));
        let what = c.describe();
        assert_eq!(c.rank(), r.dims.len(), "{what}");
        assert_eq!(c.global_dims(), r.dims, "{what}");
        assert_eq!(c.global_strides_bytes(), r.strides, "{what}");
        assert_eq!(c.box_dims(), r.boxes, "{what}");
        assert_eq!(c.element_strides(), vec![1; r.dims.len()], "{what}");
        assert_eq!(c.swizzle, r.swizzle, "{what}");
        assert_eq!(c.grid.to_string(), r.grid, "{what}");
        assert_eq!(c.box_bytes(), r.tile.iter().product::<i64>() * r.t.bytes());
    }
}

#[test]
fn tile_coordinates() {
    // tile (m, k) = (1, 2) of the K-major bf16 case above: tile index 1 + 5 * 2 = 11 starts at
    // row 64, column 128: TMA coordinates (k, m) = (128, 64)
    let c = tma(
        "(300,1000):(1000,1)",
        &[64, 64],
        &atom(Major::K, GmmaSwizzle::B128, DType::Bf16, "(64,64):(64,1)"),
        DType::Bf16,
    )
    .unwrap();
    assert_eq!(c.coord(11).unwrap(), vec![128, 64]);
    assert_eq!(c.tiles(), 5 * 16);
    assert!(c.coord(80).is_err());
    // the kernel's coordinate expressions, written from the grid layout
    assert_eq!(
        coord_exprs(&c, "t").unwrap(),
        vec!["(((t) / 5) * 64)", "(((t) % 5) * 64)"]
    );
}

/// The model of a TMA load (from the descriptor) agrees with the tiling's definition (from the
/// global layout and the tile only) for every tile and every element, through the shared-memory
/// layout: what TMA puts at `smem(i)` is the global element of tile element `i`.
#[test]
fn simulated_loads_match_the_tiling() {
    let mut cases: Vec<TmaCopy> = tma_cases().unwrap().into_iter().map(|c| c.copy).collect();
    cases.push(
        tma(
            "(256,3,4):(1,1024,3072)",
            &[128, 1, 1],
            &plain("128:1"),
            DType::F32,
        )
        .unwrap(),
    );
    cases.push(
        tma(
            "(32,64):(64,1)",
            &[4, 64],
            &plain("(4,64):(64,1)"),
            DType::F32,
        )
        .unwrap(),
    );
    cases.push(
        tma(
            "((128,2),32):((1,4096),128)",
            &[64, 8],
            &plain("(64,8):(1,64)"),
            DType::F32,
        )
        .unwrap(),
    );
    cases.push(
        tma(
            "(64,64):(64,1)",
            &[16, 8],
            &atom(Major::K, GmmaSwizzle::B32, DType::F32, "(16,8):(8,1)"),
            DType::F32,
        )
        .unwrap(),
    );
    for c in &cases {
        let mut outside = 0;
        for t in 0..c.tiles() {
            let sim = c.simulate_load(t).unwrap();
            let reference = tile_reference(c, t).unwrap();
            for (i, want) in reference.iter().enumerate() {
                let s = c.smem.eval(i as i64).unwrap() as usize;
                assert_eq!(sim[s], *want, "tile {t} element {i}: {}", c.describe());
                outside += usize::from(want.is_none());
            }
        }
        // each partial case has elements outside the tensor, which TMA fills with zeros
        let exact = c
            .tile
            .iter()
            .enumerate()
            .all(|(i, &b)| c.global.mode(i).unwrap().size() % b == 0);
        assert_eq!(outside == 0, exact, "{}", c.describe());
    }
}

fn refused(g: &str, tile: &[i64], smem: &ComposedLayout, t: DType, words: &[&str]) {
    match tma(g, tile, smem, t) {
        Err(e @ GpuError::Unsupported { .. }) => {
            let m = e.to_string();
            assert!(m.starts_with("tma copy: "), "{m}");
            for w in words {
                assert!(m.contains(w), "{g} {tile:?} {smem}: `{m}` lacks `{w}`");
            }
        }
        other => panic!("{g} {tile:?} {smem}: expected a refusal, got {other:?}"),
    }
}

#[test]
fn refusals() {
    let s64x8 = plain("(64,8):(1,64)");
    // coordinate strides in the global layout
    refused(
        "(64,8):(1@0,1@1)",
        &[64, 8],
        &s64x8,
        DType::F32,
        &["integer strides"],
    );
    // one extent per top mode, each >= 1
    refused(
        "(256,100):(1,256)",
        &[64],
        &s64x8,
        DType::F32,
        &["[64]", "2 top modes"],
    );
    refused(
        "(256,100):(1,256)",
        &[0, 8],
        &s64x8,
        DType::F32,
        &["extent >= 1"],
    );
    // a tile that would straddle two leaves of a hierarchical mode
    refused(
        "((6,16),8):((1,6),96)",
        &[4, 8],
        &plain("(4,8):(1,4)"),
        DType::F32,
        &["does not fit its leaf 6:1", "straddle"],
    );
    // shared-memory layout of the wrong size, with an offset, not a bijection onto 0..n
    refused(
        "(256,100):(1,256)",
        &[64, 4],
        &s64x8,
        DType::F32,
        &["has 512 elements", "256"],
    );
    let shifted = ComposedLayout::new(
        Swizzle::new(0, 4, 3).unwrap(),
        64,
        "(64,8):(1,64)".parse().unwrap(),
    );
    refused(
        "(256,100):(1,256)",
        &[64, 8],
        &shifted,
        DType::F32,
        &["offset 64"],
    );
    refused(
        "(256,100):(1,256)",
        &[64, 8],
        &plain("(64,8):(1,128)"),
        DType::F32,
        &["not a bijection onto 0..512"],
    );
    // the smem layout visits mode 0 in two pieces (the wgmma MN-major atom tiled over 128 rows):
    // one box cannot write it
    refused(
        "(256,64):(1,256)",
        &[128, 8],
        &plain("((64,2),8):((1,512),64)"),
        DType::F32,
        &["not one whole tile leaf", "one TMA box"],
    );
    // the smem's fastest mode (N) is not contiguous in global memory
    refused(
        "(256,100):(1,256)",
        &[64, 8],
        &plain("(64,8):(8,1)"),
        DType::F32,
        &["innermost box dimension", "not contiguous", "stride 1"],
    );
    // strides not multiples of 16 bytes: ld 130 floats = 520 B; ld 1001 bf16 = 2002 B
    refused(
        "(128,96):(1,130)",
        &[32, 8],
        &plain("(32,8):(1,32)"),
        DType::F32,
        &["520 bytes", "multiples of 16 bytes"],
    );
    refused(
        "(300,1000):(1001,1)",
        &[64, 64],
        &atom(Major::K, GmmaSwizzle::B128, DType::Bf16, "(64,64):(64,1)"),
        DType::Bf16,
        &["2002 bytes"],
    );
    // a negative stride
    refused(
        "(64,8):(1,-64)",
        &[64, 8],
        &s64x8,
        DType::F32,
        &["positive multiples of 16 bytes"],
    );
    // a box over 256
    refused(
        "(1024,4):(1,1024)",
        &[512, 1],
        &plain("(512,1):(1,512)"),
        DType::F32,
        &["extent 512 over TMA's 256"],
    );
    // rank 6
    refused(
        "(32,3,4,5,6,7):(1,40,128,640,3840,26880)",
        &[32, 1, 1, 1, 1, 1],
        &plain("(32,1,1,1,1,1):(1,0,0,0,0,0)"),
        DType::F32,
        &["6 TMA dimensions", "at most 5"],
    );
    // a swizzle TMA does not have: Sw<3,4,3> on bf16 offsets is Sw<3,5,3> on bytes
    let wrong = ComposedLayout::new(
        Swizzle::new(3, 4, 3).unwrap(),
        0,
        "(64,64):(64,1)".parse().unwrap(),
    );
    refused(
        "(300,1000):(1000,1)",
        &[64, 64],
        &wrong,
        DType::Bf16,
        &["Sw<3,5,3>", "Sw<3,4,3>"],
    );
    // an unswizzled innermost box of 8 bytes
    refused(
        "(100,64):(1,100)",
        &[2, 8],
        &plain("(2,8):(1,2)"),
        DType::F32,
        &["8 bytes", "multiple of 16 bytes"],
    );
    // a swizzled innermost box of 8 bytes (the SW32 f32 atom over a 2-column tile)
    refused(
        "(64,64):(64,1)",
        &[8, 2],
        &ComposedLayout::new(
            Swizzle::new(1, 2, 3).unwrap(),
            0,
            "(8,2):(2,1)".parse().unwrap(),
        ),
        DType::F32,
        &["8 bytes", "multiple of 16 bytes"],
    );
    // a 128B-swizzled innermost box of 256 bytes
    refused(
        "(64,256):(256,1)",
        &[8, 128],
        &atom(Major::K, GmmaSwizzle::B128, DType::Bf16, "(8,128):(128,1)"),
        DType::Bf16,
        &["256 bytes", "over the 128 bytes"],
    );
    // a one-element tile
    refused(
        "(256,100):(1,256)",
        &[1, 1],
        &plain("1:1"),
        DType::F32,
        &["one element"],
    );
    // a global extent past the 32-bit coordinates
    refused(
        "(64,4294967296):(1,64)",
        &[64, 1],
        &plain("(64,1):(1,64)"),
        DType::F32,
        &["32-bit signed coordinates"],
    );
}

#[test]
fn encode_without_a_driver_or_aligned_address() {
    let c = &tma_cases().unwrap()[0].copy;
    assert!(matches!(encode(c, 8), Err(GpuError::Invalid { .. })));
    match encode(c, 1 << 20) {
        // no driver here: an error that says so; with a driver the parameters are accepted
        Err(GpuError::NoDriver(_)) | Ok(_) => {}
        Err(e) => panic!("{e}"),
    }
}

fn nvrtc_present() -> bool {
    match ptx("extern \"C\" __global__ void k() {}", "k", ARCH) {
        Ok(_) => true,
        Err(GpuError::NoDriver(m)) => {
            eprintln!("NVRTC not present, TMA kernels not compiled: {m}");
            if std::env::var_os("CUTE_REQUIRE_NVRTC").is_some() {
                panic!("CUTE_REQUIRE_NVRTC is set but NVRTC is missing: {m}");
            }
            false
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn tma_kernels_compile() {
    if !nvrtc_present() {
        return;
    }
    for case in tma_cases().unwrap() {
        let k = tma_copy_kernel(&case.copy).unwrap();
        let p = ptx(&k.source, &k.name, ARCH).unwrap_or_else(|e| panic!("{e}\n{}", k.source));
        let r = case.copy.rank();
        for needle in [
            format!(
                "cp.async.bulk.tensor.{r}d.shared::cluster.global.mbarrier::complete_tx::bytes"
            ),
            format!("cp.async.bulk.tensor.{r}d.global.shared::cta.bulk_group"),
            "mbarrier.try_wait.parity.shared::cta.b64".to_string(),
            "mbarrier.arrive.expect_tx.shared::cta.b64".to_string(),
            "fence.proxy.async.shared::cta".to_string(),
            "cp.async.bulk.wait_group.read 0".to_string(),
        ] {
            assert!(
                p.contains(&needle),
                "{}: no `{needle}` in the PTX",
                case.name
            );
        }
        assert!(p.contains(".entry tma_copy"), "{}", case.name);
        // and through ptxas (the inline PTX is only checked there) to machine code
        let bin = cubin(&k.source, &k.name, ARCH).unwrap_or_else(|e| panic!("{e}\n{}", k.source));
        assert_eq!(&bin[..4], b"\x7fELF", "{}", case.name);
        // the negative control's kernel, too
        let kp = tma_copy_kernel_perturbed(&case.copy).unwrap();
        assert_ne!(kp.source, k.source);
        cubin(&kp.source, &kp.name, ARCH).unwrap_or_else(|e| panic!("{e}\n{}", kp.source));
    }
}
