//! Generates the format modules from the repository's `schemas/` (through the link `formats/schemas`) at build
//! time: edit a schema, `cargo build`, done.
//!
//! Every `schemas/*.ksy` is a format or part of one, and nothing here names one: each schema's `meta` says where
//! it goes (`binspec_codegen::read_head`: the format id, cargo feature, module and registered types of
//! `-binspec`, see docs/schema-language.md). Each schema whose cargo feature is on is compiled into
//! `$OUT_DIR/<format id>.rs`. `$OUT_DIR/formats.rs`, which `src/lib.rs` includes, declares each schema's module
//! of its own (`format_module!`, documented by the schema's title and doc) and `registry()`, in the order of the
//! schema files. `$OUT_DIR/schema_features.rs` lists each schema with its feature, for `tests/cargo_features.rs`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    // `formats/schemas` is a link to the repository's `schemas/`, so that `cargo package` puts the schemas into
    // the crate it packs (a packed crate cannot reach outside itself).
    let schemas = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("schemas");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed={}", schemas.display());
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&schemas)
        .unwrap_or_else(|e| panic!("{}: {e}", schemas.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ksy"))
        .collect();
    paths.sort();

    let mut failed = false;
    let mut heads = Vec::new();
    for path in &paths {
        println!("cargo:rerun-if-changed={}", path.display());
        match binspec_codegen::read_head(path) {
            Ok(h) => heads.push((path.as_path(), h)),
            Err(diags) => failed |= report(diags),
        }
    }
    assert!(!failed, "schemas have errors (see the warnings above)");
    check_unique(&heads);

    for (path, h) in &heads {
        let spec = &h.crate_spec;
        if h.text_format || !feature_on(&spec.feature) {
            continue;
        }
        // An import is compiled into the importing schema's file.
        for import in &h.imports {
            let p = path.parent().unwrap().join(format!("{import}.ksy"));
            println!("cargo:rerun-if-changed={}", p.display());
        }
        match binspec_codegen::compile_file(path) {
            Ok(c) => write(&out.join(format!("{}.rs", spec.format_id)), &c.rust),
            Err(diags) => failed |= report(diags),
        }
    }
    assert!(!failed, "schemas have errors (see the warnings above)");

    write(&out.join("formats.rs"), &formats_rs(&heads));
    let list: Vec<String> = heads
        .iter()
        .map(|(p, h)| format!("({:?}, {:?})", file_name(p), h.crate_spec.feature))
        .collect();
    write(
        &out.join("schema_features.rs"),
        &format!("&[{}]\n", list.join(", ")),
    );
}

/// Prints the diagnostics as cargo warnings; whether there was an error.
fn report(diags: Vec<binspec_codegen::diag::Diagnostic>) -> bool {
    for d in &diags {
        println!("cargo:warning={d}");
    }
    diags.iter().any(|d| d.is_error())
}

fn feature_on(feature: &str) -> bool {
    let var = format!("CARGO_FEATURE_{}", feature.to_uppercase().replace('-', "_"));
    std::env::var_os(var).is_some()
}

fn file_name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

/// Writes a file unless it already holds `text` (so that an unchanged file does not rebuild the crate).
fn write(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// Two schemas may share a feature (a schema that is part of another's format), but not a generated file, a
/// module or a registered type.
fn check_unique(heads: &[(&Path, binspec_codegen::Head)]) {
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut clash = |what: &str, value: &str, p: &Path| {
        let key = format!("{what} `{value}`");
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
            panic!(
                "schemas/{first} and schemas/{} both give the {key}: change one's `-binspec` (see \
                 docs/schema-language.md)",
                file_name(p)
            );
        }
        seen.push((key, file_name(p)));
    };
    for (p, h) in heads {
        let spec = &h.crate_spec;
        if !h.text_format {
            clash("generated file", &format!("{}.rs", spec.format_id), p);
        }
        if let Some(m) = &spec.module {
            clash("module", m, p);
        }
        for r in &spec.register {
            clash("registered type", r, p);
        }
    }
}

/// `$OUT_DIR/formats.rs`: the modules of their own and `registry()`.
fn formats_rs(heads: &[(&Path, binspec_codegen::Head)]) -> String {
    let mut s = String::from(
        "// @generated by formats/build.rs from schemas/*.ksy (their `meta: -binspec`). Do not edit: edit the \
         schemas.\n",
    );
    for (p, h) in heads {
        let spec = &h.crate_spec;
        let file = file_name(p);
        let Some(module) = &spec.module else {
            continue;
        };
        writeln!(s).unwrap();
        if let Some((layer, name)) = module.split_once("::") {
            // The hand-written layer declares the module (it includes the generated file with `format_module!`):
            // this fails to compile when it does not (naming its root type, so that nothing goes unused).
            writeln!(
                s,
                "// schemas/{file}: `{module}`, declared by the hand-written module `{layer}`.\n\
                 #[cfg(feature = {:?})]\nconst _: Option<crate::{layer}::{name}::{root}> = None;",
                spec.feature,
                root = h.root
            )
            .unwrap();
            continue;
        }
        writeln!(s, "format_module!(").unwrap();
        let title = h.title.as_deref().unwrap_or(&spec.format_id);
        writeln!(
            s,
            "    /// {title}, read and written by [`{root}`](crate::{module}::{root}) (generated from `schemas/{file}`).",
            root = h.root
        )
        .unwrap();
        // The doc's first paragraph.
        let para: Vec<&str> = h
            .doc
            .as_deref()
            .unwrap_or("")
            .lines()
            .map(str::trim)
            .skip_while(|l| l.is_empty())
            .take_while(|l| !l.is_empty())
            .collect();
        if !para.is_empty() {
            writeln!(s, "    ///").unwrap();
            for l in para {
                writeln!(s, "    /// {l}").unwrap();
            }
        }
        writeln!(
            s,
            "    {:?},\n    {:?} => {module}\n);",
            spec.feature, spec.format_id
        )
        .unwrap();
    }
    s.push_str(
        "\n/// Every format compiled into this crate (by cargo feature), in the order of their schema files (the \
         types each\n/// schema's `-binspec: register` names, or its generated root type).\n\
         pub fn registry() -> Vec<&'static dyn binspec_runtime::DynFormat> {\n    \
         vec![\n",
    );
    for (p, h) in heads {
        let spec = &h.crate_spec;
        for r in &spec.register {
            writeln!(
                s,
                "        // schemas/{}\n        #[cfg(feature = {:?})]\n        {{\n            \
                 static H: binspec_runtime::FormatHandle<crate::{r}> = binspec_runtime::FormatHandle::new();\n            \
                 &H as &'static dyn binspec_runtime::DynFormat\n        }},",
                file_name(p),
                spec.feature
            )
            .unwrap();
        }
    }
    s.push_str("    ]\n}\n");
    s
}
