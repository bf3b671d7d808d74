//! `cute`: the CuTe layout algebra from the command line. Everything but the process lives in
//! [`cute_cli::cli`] (the subcommands, the exit status, the error lines), so that tests and
//! the fuzzer run exactly what this binary runs.
#![forbid(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    let console = cute_cli::cli::Console::detect();
    ExitCode::from(cute_cli::cli::run_with(
        std::env::args_os(),
        &mut out,
        &mut err,
        console,
    ))
}
