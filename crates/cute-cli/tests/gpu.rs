//! `cute gpu` without a GPU: the plans it prints, the cases it hands to PyTorch, its refusals, and
//! exit status 3 (with the reason) when no GPU can be used. On a machine with a GPU the checks
//! themselves run (`cute gpu`); these tests need none.

mod binary;
mod stderr_shape;

use binary::cute;

fn stdout_of(args: &[&str]) -> String {
    let o = cute(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn plan_report_needs_no_gpu() {
    let r = stdout_of(&["gpu", "--plan"]);
    assert!(r.contains("SM80_16x8x16_F32BF16BF16F32_TN"));
    assert!(r.contains("smem atom K-major B128 bf16: Sw<3,3,3> o 0 o (8,64):(64,1)"));
    assert!(r.contains("kernel transpose of modes 0 and 1, tile 64x64, vector 4"));
}

#[test]
fn one_off_plans_need_no_gpu() {
    let r = stdout_of(&[
        "gpu",
        "copy",
        "(4096,4096):(4096,1)",
        "(4096,4096):(1,4096)",
        "--dtype",
        "bf16",
        "--plan",
    ]);
    assert!(r.contains("kernel transpose of modes 0 and 1"), "{r}");
    assert!(r.contains("(bf16)"), "{r}");
    let r = stdout_of(&[
        "gpu",
        "contract",
        "stupr, qtru -> stqp",
        "--sizes",
        "s=64,t=16,u=64,p=64,r=16,q=256",
        "--plan",
    ]);
    // the paper's GETT folded: rows (s,p), columns q, reduction (u,r), batch t
    assert!(
        r.contains("rows ['s', 'p'] cols ['q'] reduction ['u', 'r'] batch ['t']"),
        "{r}"
    );
    assert!(r.contains("gemm (Hopper"), "{r}");
    // a dot product: the output term is empty, a scalar
    let r = stdout_of(&["gpu", "contract", "k,k->", "--sizes", "k=4096", "--plan"]);
    assert!(
        r.contains("rows [] cols [] reduction ['k'] batch []"),
        "{r}"
    );
    assert!(r.contains("(M,N,K,L) = (1, 1, 4096, 1)"), "{r}");
}

#[test]
fn torch_cases_are_json() {
    let r = stdout_of(&["gpu", "--torch-cases"]);
    assert!(r.trim_start().starts_with('['), "{r}");
    assert!(
        r.contains("\"kind\": \"permute\"") && r.contains("\"kind\": \"gett\""),
        "{r}"
    );
}

#[test]
fn refusals_name_the_problem() {
    let o = cute(&[
        "gpu",
        "copy",
        "8:1",
        "8:1",
        "--dtype",
        "complex64",
        "--plan",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("unknown element type `complex64`"), "{err}");
    let o = cute(&["gpu", "copy", "8:1", "9:1", "--plan"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.starts_with("error: gpu:") && err.contains("8"), "{err}");
    let o = cute(&["gpu", "copy", "(8,8", "8:1", "--plan"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8(o.stderr).unwrap().contains("^"));
    let o = cute(&[
        "gpu",
        "contract",
        "mk,kn->mn",
        "--sizes",
        "m=4,k=0",
        "--plan",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = cute(&[
        "gpu",
        "contract",
        "mk,kn->mn",
        "--sizes",
        "m=4,k=4",
        "--plan",
    ]);
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("no extent for letter n"), "{err}");
    // a size of no letter of the spec: a typo, refused
    let o = cute(&[
        "gpu",
        "contract",
        "mk,kn->mn",
        "--sizes",
        "m=4,n=4,k=4,z=3",
        "--plan",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("--sizes: letter z is not in mk,kn->mn"),
        "{err}"
    );
    // a third input term, a digit in a term: named with the term
    for (spec, says) in [
        (
            "mk,nk,pk->mn",
            "`,` in term B `nk,pk`: a spec has two input terms",
        ),
        (
            "mk,n1->mn",
            "`1` in term B `n1`: a term's modes are letters",
        ),
    ] {
        let o = cute(&[
            "gpu",
            "contract",
            spec,
            "--sizes",
            "m=4,n=4,k=4,p=2",
            "--plan",
        ]);
        assert_eq!(o.status.code(), Some(1), "{spec}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains(says), "{spec}: {err}");
    }
}

#[test]
fn plan_with_json_prints_one_object() {
    let copy: &[&str] = &[
        "gpu",
        "copy",
        "(4,8):(1,4)",
        "(8,4):(1,8)",
        "--plan",
        "--json",
    ];
    let contract: &[&str] = &[
        "gpu",
        "contract",
        "mk,kn->mn",
        "--sizes",
        "m=4,n=4,k=4",
        "--plan",
        "--json",
    ];
    for (args, plan_has) in [
        (copy, "copy (4,8):(1,4) -> (8,4):(1,8)"),
        (contract, "rows ['m'] cols ['n']"),
    ] {
        let o = cute(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(v["plan"].as_str().unwrap().contains(plan_has), "{v}");
        assert_eq!(v["runs"], serde_json::json!([]), "{args:?}");
    }
}

#[test]
fn without_a_gpu_the_status_is_3_and_says_why() {
    let o = cute(&["gpu", "--only", "atoms"]);
    match o.status.code() {
        Some(3) => {
            let err = String::from_utf8(o.stderr).unwrap();
            assert!(err.contains("no CUDA device"), "{err}");
        }
        // a machine with a GPU ran the atom checks
        Some(0) => assert!(String::from_utf8(o.stdout)
            .unwrap()
            .contains("passed, 0 failed")),
        other => panic!("exit {other:?}: {}", String::from_utf8_lossy(&o.stderr)),
    }
}

#[test]
fn early_exits_refuse_the_flags_of_a_run() {
    // --plan, --emit-ptx and --torch-cases run nothing: a run's flags beside them are refused
    for args in [
        &["gpu", "--plan", "--json", "plan.json"][..],
        &["gpu", "--plan", "--only", "copy"],
        &["gpu", "--emit-ptx", "/nonexistent/ptx", "--seed", "3"],
        &["gpu", "--torch-cases", "--no-bandwidth"],
        &["gpu", "--plan", "--torch-cases"],
    ] {
        let o = cute(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains("cannot be used with"), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn emit_ptx_without_nvrtc_is_status_3() {
    let dir = std::env::temp_dir().join(format!("cute-emit-ptx-{}", std::process::id()));
    let o = cute(&["gpu", "--emit-ptx", dir.to_str().unwrap()]);
    let err = String::from_utf8(o.stderr).unwrap();
    match o.status.code() {
        // a machine with NVRTC wrote the kernels
        Some(0) => assert!(String::from_utf8(o.stdout).unwrap().contains(".cubin")),
        Some(3) => assert!(
            err.contains("--emit-ptx needs NVRTC (not a GPU): the NVRTC library"),
            "{err}"
        ),
        other => panic!("exit {other:?}: {err}"),
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn contract_errors_name_the_term_and_plans_their_sms() {
    // 36 letters: more modes than a layout of this build holds, said of the term (not of an
    // internal argument)
    let letters = "abcdefghijlopqrstuvwxyzABCDEFGHIJKLM";
    let spec = format!("{letters},k->k");
    let sizes: Vec<String> = letters
        .chars()
        .chain(['k'])
        .map(|c| format!("{c}=1"))
        .collect();
    let o = cute(&[
        "gpu",
        "contract",
        &spec,
        "--sizes",
        &sizes.join(","),
        "--plan",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.starts_with("error: gpu: contract abcdefghij") && err.contains("the tensor abcdefghij"),
        "{err}"
    );
    assert!(
        err.contains("at most 32") && !err.contains("argument 1"),
        "{err}"
    );
    let r = stdout_of(&[
        "gpu",
        "contract",
        "mk,kn->mn",
        "--sizes",
        "m=512,n=512,k=512",
        "--plan",
    ]);
    assert!(r.contains("(planned for 132 SMs, an H100 or H200"), "{r}");
}
