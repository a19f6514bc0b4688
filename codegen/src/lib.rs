//! binspec's code generator: Kaitai Struct-compatible `.ksy` schemas in, Rust readers/writers and markdown out.
//!
//! Three stages with their own types: [`syntax`] (YAML to a raw schema that keeps positions), [`ir`] (resolved and
//! checked by named passes), and the emitters ([`emit_rust`], [`emit_md`]), which never read YAML.

pub mod diag;
pub mod emit_md;
pub mod emit_rust;
pub mod expr;
pub mod ir;
pub mod syntax;

use std::path::Path;

use diag::{Diagnostic, Diags};

/// A schema compiled to Rust.
#[derive(Debug, Clone)]
pub struct Compiled {
    pub module: ir::Module,
    pub rust: String,
    pub warnings: Vec<Diagnostic>,
}

/// Compiles one schema's text. `file` names it in diagnostics.
pub fn compile_str(file: &str, text: &str) -> Result<Compiled, Vec<Diagnostic>> {
    let mut diags = Diags::new(file);
    let raw = syntax::parse_schema(file, text, &mut diags);
    let module = raw.and_then(|r| ir::build(&r, &mut diags));
    let Some(module) = module.filter(|_| !diags.has_errors()) else {
        diags.list.sort();
        return Err(diags.list);
    };
    let tokens = emit_rust::emit(&module).map_err(|e| {
        vec![Diagnostic {
            severity: diag::Severity::Error,
            file: file.to_string(),
            pos: diag::Pos::default(),
            yaml_path: e.path,
            message: e.message,
            help: None,
        }]
    })?;
    let rust = emit_rust::format_file(tokens, file).map_err(|m| {
        vec![Diagnostic {
            severity: diag::Severity::Error,
            file: file.to_string(),
            pos: diag::Pos::default(),
            yaml_path: "/".into(),
            message: m,
            help: None,
        }]
    })?;
    Ok(Compiled {
        module,
        rust,
        warnings: diags.list,
    })
}

/// Compiles a schema file.
pub fn compile_file(path: &Path) -> Result<Compiled, Vec<Diagnostic>> {
    let name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = std::fs::read_to_string(path).map_err(|e| {
        vec![Diagnostic {
            severity: diag::Severity::Error,
            file: name.clone(),
            pos: diag::Pos::default(),
            yaml_path: "/".into(),
            message: format!("cannot read: {e}"),
            help: None,
        }]
    })?;
    compile_str(&name, &text)
}
