//! `binspec`: info, decode, encode, check, extract and pack game files. The commands live in the library
//! (`binspec_cli`); this only hands them the formats compiled into `binspec_formats`.

use std::io::IsTerminal;
use std::process::ExitCode;

fn main() -> ExitCode {
    let registry = binspec_formats::registry();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut err = std::io::stderr();
    let progress = std::io::stderr().is_terminal();
    ExitCode::from(binspec_cli::run_from(
        std::env::args_os(),
        &registry,
        &mut out,
        &mut err,
        progress,
    ))
}
