//! Generates `$OUT_DIR/riff.rs` from `schemas/riff.ksy` (a schema that is not one of binspec's formats), and a
//! second copy that reaches the runtime through this crate's re-export (`$OUT_DIR/rt/riff.rs`), to show
//! `runtime_path` (and `struct_attribute`: its structs also derive `Eq`).
fn main() {
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    if let Err(e) = binspec_build::Builder::new()
        .schema("schemas/riff.ksy")
        .compile()
    {
        panic!("{e}");
    }
    std::fs::create_dir_all(out.join("rt")).unwrap();
    if let Err(e) = binspec_build::Builder::new()
        .schema("schemas/riff.ksy")
        .out_dir(out.join("rt"))
        .runtime_path("crate::rt")
        .struct_attribute("#[derive(Eq)]")
        .compile()
    {
        panic!("{e}");
    }
}
