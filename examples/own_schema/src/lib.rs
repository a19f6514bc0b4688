//! A tool with its own schema: `schemas/riff.ksy` is compiled by `binspec-build` in `build.rs`, and the module
//! below is the generated reader and writer (`Riff::from_binary`, `to_binary`, serde, binrw).

/// RIFF files, generated from `schemas/riff.ksy`.
pub mod riff {
    include!(concat!(env!("OUT_DIR"), "/riff.rs"));
}

pub use binspec_runtime::Format;
