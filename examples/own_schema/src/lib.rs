//! A tool with its own schema: `schemas/riff.ksy` is compiled by `binspec-build` in `build.rs`, and the module
//! below is the generated reader and writer (`Riff::from_binary`, `to_binary`, serde, binrw).

/// RIFF files, generated from `schemas/riff.ksy`.
pub mod riff {
    include!(concat!(env!("OUT_DIR"), "/riff.rs"));
}

/// The same, generated with `runtime_path("crate::rt")`: it reaches the runtime through [`rt`], as a tool does
/// that re-exports its dependencies from one place.
pub mod riff_through_rt {
    include!(concat!(env!("OUT_DIR"), "/rt/riff.rs"));
}

/// The runtime, re-exported for [`riff_through_rt`].
pub use binspec_runtime as rt;
pub use binspec_runtime::Format;
