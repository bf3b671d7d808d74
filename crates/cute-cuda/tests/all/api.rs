//! The library's checks that need no GPU: device tensors against their buffers, the operands of
//! COPY and GEMM against each other, and the plans' vector widths under the buffers' alignment.

use cute::Layout;
use cute_cuda::api::{check_copy, check_gemm};
use cute_cuda::atom::DType;
use cute_cuda::copy::{plan_copy_aligned, CopyKernel};
use cute_cuda::{DeviceBuffer, DeviceTensor, GpuError};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

/// A borrowed buffer that is never dereferenced (these tests launch nothing).
fn buf(ptr: u64, bytes: usize) -> DeviceBuffer {
    // SAFETY: no memory is read or written through it.
    unsafe { DeviceBuffer::from_raw(ptr, bytes, 0) }
}

fn invalid(e: GpuError) -> String {
    match e {
        GpuError::Invalid { what, .. } => what,
        other => panic!("expected an invalid-request error, got {other}"),
    }
}

#[test]
fn tensors_must_lie_in_their_buffers() {
    let b = buf(0x10000, 32 * 4);
    assert!(DeviceTensor::new(&b, l("(4,8):(8,1)"), DType::F32).is_ok());
    let e = invalid(DeviceTensor::new(&b, l("(4,9):(9,1)"), DType::F32).unwrap_err());
    assert!(
        e.contains("reaches elements 0..=35 of a buffer of 32 f32"),
        "{e}"
    );
    // negative strides reach below offset 0: the offset must make room
    let e = invalid(DeviceTensor::new(&b, l("8:-1"), DType::F32).unwrap_err());
    assert!(e.contains("-7..=0"), "{e}");
    assert!(DeviceTensor::with_offset(&b, 7, l("8:-1"), DType::F32).is_ok());
    assert!(DeviceTensor::with_offset(&b, 31, l("(4,8):(-8,-1)"), DType::F32).is_ok());
    assert!(DeviceTensor::with_offset(&b, 30, l("(4,8):(-8,-1)"), DType::F32).is_err());
    // broadcast: stride 0 reaches one element
    assert!(DeviceTensor::new(&buf(0x10000, 2), l("(1000,1000):(0,0)"), DType::Bf16).is_ok());
    // the same bytes hold twice as many bf16 elements
    assert!(DeviceTensor::new(&b, l("64:1"), DType::Bf16).is_ok());
    assert!(DeviceTensor::new(&b, l("65:1"), DType::Bf16).is_err());
    // offsets that overflow i64, coordinate strides, misaligned addresses
    let e = invalid(
        DeviceTensor::new(
            &b,
            l("(2,2):(4611686018427387904,4611686018427387904)"),
            DType::F32,
        )
        .unwrap_err(),
    );
    assert!(e.contains("overflow"), "{e}");
    let e = invalid(DeviceTensor::new(&b, l("(2,2):(1@0,1@1)"), DType::F32).unwrap_err());
    assert!(e.contains("integer strides"), "{e}");
    let e = invalid(DeviceTensor::new(&buf(0x10002, 64), l("4:1"), DType::F32).unwrap_err());
    assert!(
        e.contains("not a multiple of the f32 element size 4"),
        "{e}"
    );
    let e = invalid(DeviceTensor::with_offset(&b, i64::MAX, l("2:1"), DType::F32).unwrap_err());
    assert!(e.contains("every offset must lie in the buffer"), "{e}");
}

#[test]
fn copy_operands_are_checked_against_each_other() {
    let (a, b) = (buf(0x10000, 1024), buf(0x20000, 1024));
    let src = DeviceTensor::new(&a, l("(8,8):(8,1)"), DType::F32).unwrap();
    let dst = DeviceTensor::new(&b, l("(8,8):(1,8)"), DType::F32).unwrap();
    check_copy(&src, &dst).unwrap();
    // i32 and f32 have one width: a copy of bits
    let dst_i = DeviceTensor::new(&b, l("(8,8):(1,8)"), DType::I32).unwrap();
    check_copy(&src, &dst_i).unwrap();
    let dst_h = DeviceTensor::new(&b, l("(8,8):(1,8)"), DType::Bf16).unwrap();
    assert!(invalid(check_copy(&src, &dst_h).unwrap_err()).contains("converting types"));
    let small = DeviceTensor::new(&b, l("(8,7):(1,8)"), DType::F32).unwrap();
    assert!(invalid(check_copy(&src, &small).unwrap_err()).contains("64 elements"));
    // overlapping source and destination in one buffer
    let first = DeviceTensor::new(&a, l("32:1"), DType::F32).unwrap();
    let second = DeviceTensor::with_offset(&a, 16, l("32:1"), DType::F32).unwrap();
    assert!(invalid(check_copy(&first, &second).unwrap_err()).contains("overlaps source"));
    let apart = DeviceTensor::with_offset(&a, 32, l("32:1"), DType::F32).unwrap();
    check_copy(&first, &apart).unwrap();
}

#[test]
fn gemm_operands_are_checked() {
    let (a, b, c) = (
        buf(0x10000, 1 << 16),
        buf(0x20000, 1 << 16),
        buf(0x30000, 1 << 16),
    );
    let ta = DeviceTensor::new(&a, l("(64,32):(32,1)"), DType::Bf16).unwrap();
    let tb = DeviceTensor::new(&b, l("(16,32):(32,1)"), DType::Bf16).unwrap();
    let tc = DeviceTensor::new(&c, l("(64,16):(1,64)"), DType::F32).unwrap();
    check_gemm(&ta, &tb, &tc).unwrap();
    let tb16 = DeviceTensor::new(&b, l("(16,32):(32,1)"), DType::F16).unwrap();
    assert!(invalid(check_gemm(&ta, &tb16, &tc).unwrap_err()).contains("both bf16"));
    let a32 = DeviceTensor::new(&a, l("(64,32):(32,1)"), DType::F32).unwrap();
    assert!(invalid(check_gemm(&a32, &a32, &tc).unwrap_err()).contains("f16 or both bf16"));
    let c16 = DeviceTensor::new(&c, l("(64,16):(1,64)"), DType::F16).unwrap();
    assert!(invalid(check_gemm(&ta, &tb, &c16).unwrap_err()).contains("C must be f32 or bf16"));
    let c_on_a = DeviceTensor::new(&a, l("(64,16):(1,64)"), DType::F32).unwrap();
    assert!(invalid(check_gemm(&ta, &tb, &c_on_a).unwrap_err()).contains("overlaps A"));
}

#[test]
fn vectors_follow_the_alignment_of_the_buffers() {
    let t = l("(4096,64):(1,4096)");
    for (align, v) in [((4, 4), 4), ((2, 4), 2), ((4, 1), 1), ((8, 8), 4)] {
        let p = plan_copy_aligned(&t, &t, DType::F32, align).unwrap();
        assert_eq!(p.kernel, CopyKernel::Direct { vector: v }, "{align:?}");
    }
    // the transpose's vectors too
    let (src, dst) = (l("(256,256):(256,1)"), l("(256,256):(1,256)"));
    let p = plan_copy_aligned(&src, &dst, DType::Bf16, (8, 2)).unwrap();
    assert!(
        matches!(p.kernel, CopyKernel::Transpose { vector: 2, .. }),
        "{:?}",
        p.kernel
    );
    // 1- and 8-byte elements
    let p = plan_copy_aligned(&t, &t, DType::I8, (16, 16)).unwrap();
    assert_eq!(p.kernel, CopyKernel::Direct { vector: 16 });
    let p = plan_copy_aligned(&src, &dst, DType::F64, (2, 2)).unwrap();
    assert!(
        matches!(p.kernel, CopyKernel::Transpose { vector: 2, .. }),
        "{:?}",
        p.kernel
    );
}
