//! Generates the format modules from `../schemas` at build time: edit a schema, `cargo build`, done.

use std::path::PathBuf;

fn main() {
    let schemas = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../schemas");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed={}", schemas.display());
    // `byml` is the transcription of the wiki page (`byml::raw`); the registered BYML format is hand-written.
    for id in ["sarc", "rsizetable", "byml"] {
        let path = schemas.join(format!("{id}.ksy"));
        println!("cargo:rerun-if-changed={}", path.display());
        if std::env::var(format!("CARGO_FEATURE_{}", id.to_uppercase())).is_err() {
            continue;
        }
        match binspec_codegen::compile_file(&path) {
            Ok(c) => std::fs::write(out.join(format!("{id}.rs")), c.rust).unwrap(),
            Err(diags) => {
                for d in diags {
                    println!("cargo:warning={d}");
                }
                panic!(
                    "schema {} has errors (see the warnings above)",
                    path.display()
                );
            }
        }
    }
}
