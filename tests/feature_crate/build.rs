//! Compiles every `../feature_schemas/*.ksy` into `$OUT_DIR/<name>.rs`, as `formats/build.rs` compiles the real
//! formats; `src/lib.rs` includes each as a module of the same name.

use std::path::PathBuf;

fn main() {
    let dir =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../feature_schemas");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ksy"))
        .collect();
    schemas.sort();
    let mut failed = false;
    let mut names = Vec::new();
    for path in schemas {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        names.push(format!("{name:?}"));
        match binspec_codegen::compile_file(&path) {
            Ok(c) => std::fs::write(out.join(format!("{name}.rs")), c.rust).unwrap(),
            Err(diags) => {
                for d in diags {
                    println!("cargo:warning={d}");
                }
                failed = true;
            }
        }
    }
    std::fs::write(out.join("schemas.rs"), format!("&[{}]", names.join(", "))).unwrap();
    assert!(
        !failed,
        "feature schemas have errors (see the warnings above)"
    );
}
