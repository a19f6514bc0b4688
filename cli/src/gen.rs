//! `binspec gen SCHEMA [-o FILE]`: the Rust that binspec generates for a schema, as `formats/build.rs` generates it
//! for the built-in formats, for people who want to read it, review it or check it in.

use std::path::Path;

use crate::error::CliError;
use crate::files::{compile_schema_fully, write_output};
use crate::Ctx;

/// Compiles `schema` (its imports from beside it) and prints the generated Rust, or writes it to `output`.
pub fn gen(ctx: &mut Ctx<'_>, schema: &Path, output: Option<&Path>) -> Result<(), CliError> {
    let compiled = compile_schema_fully(schema)?;
    match output {
        Some(path) => write_output(ctx.out, path, compiled.rust.as_bytes()),
        None => ctx
            .out
            .write_all(compiled.rust.as_bytes())
            .map_err(CliError::out),
    }
}
