//! Generates `$OUT_DIR/riff.rs` from `schemas/riff.ksy` (a schema that is not one of binspec's formats).
fn main() {
    if let Err(e) = binspec_build::Builder::new()
        .schema("schemas/riff.ksy")
        .compile()
    {
        panic!("{e}");
    }
}
