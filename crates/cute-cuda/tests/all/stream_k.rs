//! The stream-K schedule as the kernel computes it: the device functions of a plan's source,
//! compiled for the host by the system's C++ compiler, against `StreamK::portions` and
//! `StreamK::first_unit` for every unit and tile (skipped where there is no `c++`).

use cute_cuda::atom::DType;
use cute_cuda::tma_gemm::{plan_gemm_tma, StreamK};

/// The schedule's two device functions, cut from a kernel's source.
fn schedule_functions(src: &str) -> String {
    let start = src
        .find("__device__ __forceinline__ bool cute_sk_portion")
        .expect("a stream-K kernel emits cute_sk_portion");
    let first = src[start..]
        .find("__device__ __forceinline__ int cute_sk_first")
        .expect("and cute_sk_first")
        + start;
    let end = src[first..].find('\n').map_or(src.len(), |e| first + e);
    src[start..end].to_string()
}

/// What the compiled functions print: `u which ok w k0 k1` per unit and part, then `j first`.
fn run_host(functions: &str, units: i64, tiles: i64) -> Option<String> {
    let dir = std::env::temp_dir().join(format!("cute-sk-{}-{units}-{tiles}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let src = dir.join("sk.cpp");
    let exe = dir.join("sk");
    let program = format!(
        "#include <cstdio>\n#define __device__\n#define __forceinline__ inline\n{functions}\nint main() {{\n  for (int u = 0; u < {units}; ++u)\n    for (int which = 0; which < 2; ++which) {{\n      int w = -1, k0 = -1, k1 = -1;\n      bool ok = cute_sk_portion(u, which, w, k0, k1);\n      if (ok) std::printf(\"%d %d %d %d %d\\n\", u, which, w, k0, k1);\n    }}\n  for (int j = 0; j < {tiles}; ++j) std::printf(\"first %d %d\\n\", j, cute_sk_first(j));\n}}\n"
    );
    std::fs::write(&src, program).ok()?;
    let built = std::process::Command::new("c++")
        .arg("-O1")
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .ok()?;
    assert!(
        built.status.success(),
        "c++ failed: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    let out = std::process::Command::new(&exe).output().ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    Some(String::from_utf8(out.stdout).unwrap())
}

fn expected(s: &StreamK) -> String {
    let mut out = String::new();
    for u in 0..s.units {
        for (which, p) in s.portions(u).into_iter().enumerate() {
            if let Some(p) = p {
                out += &format!("{u} {which} {} {} {}\n", p.tile, p.k.0, p.k.1);
            }
        }
    }
    for j in 0..s.tiles {
        out += &format!("first {j} {}\n", s.first_unit(j));
    }
    out
}

#[test]
fn emitted_schedule_matches_the_planner() {
    if std::process::Command::new("c++")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: no c++ compiler to run the emitted schedule on the host");
        return;
    }
    // 8192³ (15 waves and 68 tiles, 128 k-blocks), the GEMM form of the paper's GETT at q = 1024
    // (16 batches of 4096 × 1024 × 1024: 2048 tiles of 16 k-blocks),
    // 8000³ (36 tiles of 125 k-blocks), and one partial wave split into many parts
    let shapes: [(&str, &str, &str); 4] = [
        (
            "(8192,8192):(8192,1)",
            "(8192,8192):(1,8192)",
            "(8192,8192):(8192,1)",
        ),
        (
            "(4096,1024,16):(1,4096,4194304)",
            "(1024,1024,16):(1,1024,1048576)",
            "(4096,1024,16):(1,4096,4194304)",
        ),
        (
            "(8000,8000):(8000,1)",
            "(8000,8000):(1,8000)",
            "(8000,8000):(8000,1)",
        ),
        (
            "(768,1024):(1,768)",
            "(1536,1024):(1,1536)",
            "(768,1536):(1,768)",
        ),
    ];
    let mut checked = 0;
    for (a, b, c) in shapes {
        let (a, b, c) = (a.parse().unwrap(), b.parse().unwrap(), c.parse().unwrap());
        // split where the model would not (the GETT's 16 k-blocks, the partial wave) too
        let p = plan_gemm_tma(&a, &b, &c, DType::Bf16, DType::Bf16, [8, 8], 132)
            .unwrap()
            .split_last_wave(132)
            .unwrap();
        let s = p
            .stream_k
            .unwrap_or_else(|| panic!("no stream-K for {a} {b} {c}"));
        let got = run_host(&schedule_functions(&p.kernel.source), s.units, s.tiles)
            .expect("the host program runs");
        assert_eq!(got, expected(&s), "{s:?}");
        checked += got.lines().count();
    }
    assert!(checked > 500, "{checked} lines compared");
}
