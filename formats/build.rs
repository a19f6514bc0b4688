//! Where the generated modules come from. With the `codegen` feature (the workspace's CLI and tests turn it on),
//! they are generated from the repository's `schemas/` (through the link `formats/schemas`) at build time, into
//! Cargo's `OUT_DIR`: edit a schema, `cargo build`, done. Without it (a tool that depends on this crate), the
//! crate builds the same files checked in under `generated/rust/` (through the link `formats/generated`), and
//! does not compile the generator.
//!
//! `binspec_codegen::crate_files` makes the files: a `<format id>.rs` per schema whose cargo feature is on,
//! `formats.rs` (which `src/lib.rs` includes: a module per schema that has one of its own, and `registry()`) and
//! `schema_features.rs` (each schema with its feature, for `tests/cargo_features.rs`). This script only says which
//! folder `src/lib.rs` includes them from (`BINSPEC_GENERATED`).

fn main() {
    let manifest = std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    #[cfg(feature = "codegen")]
    let dir = generate(&manifest);
    #[cfg(not(feature = "codegen"))]
    let dir = manifest.join("generated");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-env=BINSPEC_GENERATED={}", dir.display());
    link_cpp_runtime();
}

/// The `textures` feature's BCn encoder (`intel_tex_2`, through `image_dds`) ships prebuilt kernels, one of them
/// compiled from C++ whose exception tables name the C++ runtime's personality routine; nothing in its chain
/// links that runtime, so Rust's default linker (lld) fails with "undefined symbol: __gxx_personality_v0".
/// Link it here, where it is: libstdc++ on Linux, libc++ on Apple's systems (MSVC links its own).
fn link_cpp_runtime() {
    if std::env::var_os("CARGO_FEATURE_TEXTURES").is_none() {
        return;
    }
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    match (os.as_str(), env.as_str()) {
        ("linux", "gnu") | ("android", _) => println!("cargo:rustc-link-lib=dylib=stdc++"),
        ("macos" | "ios", _) => println!("cargo:rustc-link-lib=dylib=c++"),
        _ => {}
    }
}

/// Generates the files of every schema whose feature is on into `OUT_DIR`, and warns when the checked-in copies
/// differ from them (a schema edited since they were refreshed).
#[cfg(feature = "codegen")]
fn generate(manifest: &std::path::Path) -> std::path::PathBuf {
    use std::path::Path;
    let schemas = manifest.join("schemas");
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed={}", schemas.display());
    let feature_on = |feature: &str| {
        let var = format!("CARGO_FEATURE_{}", feature.to_uppercase().replace('-', "_"));
        std::env::var_os(var).is_some()
    };
    let made = binspec_codegen::crate_files::crate_files(&schemas, &feature_on);
    for p in &made.inputs {
        println!("cargo:rerun-if-changed={}", p.display());
    }
    for e in &made.errors {
        println!("cargo:warning={e}");
    }
    assert!(
        made.errors.is_empty(),
        "schemas have errors (see the warnings above)"
    );
    let checked_in = manifest.join("generated");
    let mut stale = Vec::new();
    for (name, text) in &made.files {
        write(&out.join(name), text);
        if std::fs::read_to_string(checked_in.join(name))
            .ok()
            .as_deref()
            != Some(text.as_str())
        {
            stale.push(name.as_str());
        }
    }
    if !stale.is_empty() {
        println!(
            "cargo:warning=generated/rust/ differs from the schemas ({}): this build uses the schemas; refresh \
             the checked-in copies with `BINSPEC_UPDATE_GENERATED=1 cargo test -p binspec-tests --test \
             generated_rust`",
            stale.join(", ")
        );
    }
    /// Writes a file unless it already holds `text` (so that an unchanged file does not rebuild the crate).
    fn write(path: &Path, text: &str) {
        if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
            std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
    out
}
