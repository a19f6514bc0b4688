//! `binspec gen SCHEMA [-o FILE]`: the Rust that binspec generates for a schema, as `formats/build.rs` generates it
//! for the built-in formats, for people who want to read it, review it or check it in.

use std::path::Path;

use crate::error::CliError;
use crate::files::write_output;
use crate::Ctx;

/// Compiles `schema` (its imports from beside it) and prints the generated Rust, or writes it to `output`.
pub fn gen(ctx: &mut Ctx<'_>, schema: &Path, output: Option<&Path>) -> Result<(), CliError> {
    let compiled = binspec_codegen::compile_file(schema).map_err(|d| {
        let text: Vec<String> = d.iter().map(|x| x.to_string()).collect();
        CliError::Fail(text.join("\n"))
    })?;
    match output {
        Some(path) => write_output(ctx.out, path, compiled.rust.as_bytes()),
        None => ctx
            .out
            .write_all(compiled.rust.as_bytes())
            .map_err(CliError::out),
    }
}
