//! Generates the format modules from `../schemas` at build time: edit a schema, `cargo build`, done.

use std::path::PathBuf;

fn main() {
    let schemas = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../schemas");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed={}", schemas.display());
    println!(
        "cargo:rerun-if-changed={}",
        schemas.join("exb.ksy").display()
    );
    // `byml` is the transcription of the wiki page (`byml::raw`); the registered BYML format is hand-written.
    // `ainb` is the transcription of the wiki page (`ainb::raw`); it imports `exb.ksy`, whose types are generated
    // into the same file.
    // `exb` is also generated on its own (`ainb::exb_raw`), so that an EXB section reads and writes as a file.
    // (schema file, cargo feature, generated file name).
    for (id, feature, file) in [
        ("sarc", "sarc", "sarc"),
        ("rsizetable", "rsizetable", "rsizetable"),
        ("byml", "byml", "byml"),
        ("panim_pluto", "panim-pluto", "panim-pluto"),
        ("ainb", "ainb", "ainb"),
        ("exb", "ainb", "exb"),
    ] {
        let path = schemas.join(format!("{id}.ksy"));
        println!("cargo:rerun-if-changed={}", path.display());
        let var = format!("CARGO_FEATURE_{}", feature.to_uppercase().replace('-', "_"));
        if std::env::var(var).is_err() {
            continue;
        }
        match binspec_codegen::compile_file(&path) {
            Ok(c) => std::fs::write(out.join(format!("{file}.rs")), c.rust).unwrap(),
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
