//! Generates Rust readers and writers from your own `.ksy` schemas at build time, as `prost-build` does for
//! protobuf. Put it in `[build-dependencies]`, and `binspec-runtime`, `serde` (with `derive`) and `binrw` in
//! `[dependencies]` (the generated code uses them):
//!
//! ```no_run
//! // build.rs, in `fn main`:
//! binspec_build::Builder::new()
//!     .schema("schemas/riff.ksy")
//!     .compile()
//!     .unwrap();
//! ```
//!
//! ```ignore
//! // src/lib.rs: one module per schema, named by its `meta: id`
//! pub mod riff {
//!     include!(concat!(env!("OUT_DIR"), "/riff.rs"));
//! }
//! ```
//!
//! Each schema becomes `$OUT_DIR/<meta id>.rs`, its imports (beside it, or `/absolute` under a folder above it)
//! compiled into it. Cargo is told to run the build again when a schema or an import changes. A schema error
//! fails the build with the file, YAML path, line:column and what was probably meant; warnings are passed to Cargo.
//! To check the generated code in instead (and read it), `binspec gen SCHEMA -o FILE.rs` writes the same file.

use std::path::{Path, PathBuf};

/// What went wrong: the schemas' diagnostics (each names its file, YAML path and line:column), or a file that
/// could not be written.
#[derive(Debug)]
pub struct Error(String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// The schemas to compile and where to put the Rust.
#[derive(Debug, Default, Clone)]
pub struct Builder {
    schemas: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    cargo: bool,
    runtime: Option<String>,
    struct_attributes: Vec<String>,
    enum_attributes: Vec<String>,
}

impl Builder {
    /// A builder for a build script: it writes into `$OUT_DIR` and prints `cargo:` lines.
    pub fn new() -> Self {
        Builder {
            cargo: true,
            ..Builder::default()
        }
    }
    /// Adds a schema (`.ksy`).
    pub fn schema(mut self, path: impl AsRef<Path>) -> Self {
        self.schemas.push(path.as_ref().to_path_buf());
        self
    }
    /// Adds every `.ksy` of a folder (not its subfolders), in name order.
    ///
    /// # Errors
    /// A folder that cannot be read.
    pub fn schemas_in(mut self, dir: impl AsRef<Path>) -> Result<Self, Error> {
        let dir = dir.as_ref();
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| Error(format!("{}: {e}", dir.display())))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ksy"))
            .collect();
        found.sort();
        if self.cargo {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
        self.schemas.extend(found);
        Ok(self)
    }
    /// Writes the Rust into `dir` instead of `$OUT_DIR`.
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }
    /// The path the generated code reaches the runtime by, where the tool does not depend on `binspec-runtime`
    /// under that name (it renames it, or re-exports it from one of its own crates): `"::my_deps::binspec_runtime"`
    /// or `"crate::rt"`. The default is `::binspec_runtime`.
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.runtime = Some(path.into());
        self
    }
    /// An attribute for every generated struct (a model of a type), such as `#[derive(Eq, Hash)]` where every
    /// field allows it (each struct already derives `Debug`, `Clone`, `PartialEq` and serde's traits).
    pub fn struct_attribute(mut self, attr: impl Into<String>) -> Self {
        self.struct_attributes.push(attr.into());
        self
    }
    /// An attribute for every generated enum (the schema's enums, and the enum of each switch field); enums
    /// already derive `Debug`, `Clone`, `PartialEq` and serde's traits, and the schema's enums also `Copy`, `Eq`
    /// and `Hash`.
    pub fn enum_attribute(mut self, attr: impl Into<String>) -> Self {
        self.enum_attributes.push(attr.into());
        self
    }
    /// Whether to print `cargo:rerun-if-changed` and `cargo:warning` lines (on by default; off outside a build
    /// script).
    pub fn emit_cargo_lines(mut self, on: bool) -> Self {
        self.cargo = on;
        self
    }
    /// Compiles every schema into `<out dir>/<meta id>.rs`, and gives the files written. A file that already holds
    /// the same code is left alone, so that an unchanged schema does not rebuild the crate.
    ///
    /// # Errors
    /// A schema that does not compile (every schema's errors, together), no output folder (outside a build
    /// script, without [`Builder::out_dir`]), or a file that cannot be written.
    pub fn compile(self) -> Result<Vec<PathBuf>, Error> {
        let out = match &self.out_dir {
            Some(d) => d.clone(),
            None => PathBuf::from(std::env::var_os("OUT_DIR").ok_or_else(|| {
                Error(
                    "OUT_DIR is not set: call this from a build script, or give Builder::out_dir"
                        .into(),
                )
            })?),
        };
        let mut errors = Vec::new();
        let mut written = Vec::new();
        for path in &self.schemas {
            if self.cargo {
                println!("cargo:rerun-if-changed={}", path.display());
                for import in binspec_codegen::imports_of(path) {
                    println!("cargo:rerun-if-changed={}", import.display());
                }
            }
            match binspec_codegen::compile_file(path) {
                Ok(c) => {
                    if self.cargo {
                        for w in &c.warnings {
                            println!("cargo:warning={w}");
                        }
                    }
                    let id = c.module.types[0].name.clone();
                    let file = out.join(format!("{id}.rs"));
                    let rust = match &self.runtime {
                        // (The generated code names the runtime only by this absolute path, in code and in
                        // serde's `with` strings.)
                        Some(p) => c.rust.replace(
                            "::binspec_runtime::",
                            &format!("{}::", p.trim_end_matches("::")),
                        ),
                        None => c.rust,
                    };
                    let rust = self.with_attributes(rust);
                    if std::fs::read_to_string(&file).ok().as_deref() != Some(rust.as_str()) {
                        std::fs::write(&file, &rust)
                            .map_err(|e| Error(format!("{}: {e}", file.display())))?;
                    }
                    written.push(file);
                }
                Err(diags) => errors.extend(diags.iter().map(ToString::to_string)),
            }
        }
        if errors.is_empty() {
            Ok(written)
        } else {
            Err(Error(errors.join("\n")))
        }
    }
}

impl Builder {
    /// `rust` with the attributes asked for before each struct and enum it declares (items start a line of their
    /// own, unindented, in the generated code).
    fn with_attributes(&self, rust: String) -> String {
        if self.struct_attributes.is_empty() && self.enum_attributes.is_empty() {
            return rust;
        }
        let none = Vec::new();
        let mut out = String::with_capacity(rust.len());
        for line in rust.split_inclusive('\n') {
            let attrs = if line.starts_with("pub struct ") {
                &self.struct_attributes
            } else if line.starts_with("pub enum ") {
                &self.enum_attributes
            } else {
                &none
            };
            for a in attrs {
                out.push_str(a);
                out.push('\n');
            }
            out.push_str(line);
        }
        out
    }
}
