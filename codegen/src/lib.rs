//! binspec's code generator: Kaitai Struct-compatible `.ksy` schemas in, Rust readers/writers and markdown out.
//!
//! Three stages with their own types: [`syntax`] (YAML to a raw schema that keeps positions), [`ir`] (resolved and
//! checked by named passes), and the emitters ([`emit_rust`], [`emit_md`]), which never read YAML.

pub mod check;
pub mod crate_files;
pub mod diag;
pub mod doc_text;
pub mod emit_md;
pub mod emit_rust;
pub mod emit_wiki;
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
    compile_with_imports(file, text, &|_| None)
}

/// The checked IR of one schema's text, with its warnings, without generating code (what `binspec-interp` runs);
/// `load` as for [`compile_with_imports`].
pub fn module_with_imports(
    file: &str,
    text: &str,
    load: &dyn Fn(&str) -> Option<(String, String)>,
) -> Result<(ir::Module, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut diags = Diags::new(file);
    let raw = syntax::parse_schema(file, text, &mut diags);
    // Imports, transitively, each once.
    let mut imports: Vec<syntax::RawSchema> = Vec::new();
    if let Some(r) = &raw {
        let mut queue: Vec<(String, diag::Pos)> =
            r.root.meta.iter().flat_map(|m| m.imports.clone()).collect();
        // `ks-opaque-types: true`: a type the schema names but does not define is a schema of that name, found
        // as an import is (Kaitai leaves it to the target language; here it is read and written like any other).
        if r.root.meta.as_ref().is_some_and(|m| m.opaque_types) {
            queue.extend(syntax::opaque_type_names(&r.root));
        }
        let mut seen = std::collections::BTreeSet::new();
        while let Some((name, pos)) = queue.pop() {
            if !seen.insert(name.clone()) || seen.len() > 64 {
                continue;
            }
            match load(&name) {
                Some((ifile, itext)) => {
                    let mut idiags = Diags::new(&ifile);
                    if let Some(ir) = syntax::parse_schema(&ifile, &itext, &mut idiags) {
                        // (An import's own relative imports are beside it, not beside this schema.)
                        queue.extend(
                            ir.root
                                .meta
                                .iter()
                                .flat_map(|m| m.imports.clone())
                                .map(|(n, p)| (join_import(&name, &n), p)),
                        );
                        if ir.root.name != r.root.name
                            && !imports.iter().any(|x| x.root.name == ir.root.name)
                        {
                            imports.push(ir);
                        }
                    }
                    diags.list.extend(idiags.list);
                }
                None => diags.error(
                    pos,
                    "/meta/imports",
                    format!("cannot find imported schema '{name}'"),
                    None,
                ),
            }
        }
    }
    let module = raw.and_then(|r| ir::build(&r, &imports, &mut diags));
    let Some(module) = module.filter(|_| !diags.has_errors()) else {
        diags.list.sort();
        return Err(diags.list);
    };
    Ok((module, diags.list))
}

/// Compiles one schema's text; `load` gives the file name and text of an imported schema (`meta: imports:` names
/// it as written, e.g. `common` or `../common/header`).
pub fn compile_with_imports(
    file: &str,
    text: &str,
    load: &dyn Fn(&str) -> Option<(String, String)>,
) -> Result<Compiled, Vec<Diagnostic>> {
    let (module, warnings) = module_with_imports(file, text, load)?;
    let tokens = emit_rust::emit(&module).map_err(|e| {
        vec![Diagnostic {
            severity: diag::Severity::Error,
            file: file.to_string(),
            pos: position_of(&module, &e.path),
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
        warnings,
    })
}

/// The import `child`, named by the schema imported as `parent`, as the top schema would name it: an absolute
/// import as it is, a relative one from `parent`'s folder (`a/b` importing `../c` is `c`; `/x/y` importing `z` is
/// `/x/z`).
fn join_import(parent: &str, child: &str) -> String {
    if child.starts_with('/') {
        return child.to_string();
    }
    let abs = parent.starts_with('/');
    let mut parts: Vec<&str> = parent.split('/').filter(|p| !p.is_empty()).collect();
    parts.pop();
    for c in child.split('/') {
        match c {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            // (Above the top schema's folder, or above an import root: kept for the loader to resolve.)
            ".." if !abs => parts.push(".."),
            ".." => {}
            c => parts.push(c),
        }
    }
    let joined = parts.join("/");
    if abs {
        format!("/{joined}")
    } else {
        joined
    }
}

/// Compiles a schema file.
///
/// An import is read from beside the schema (`header`, `../common/header`). An absolute import (`/common/header`,
/// as the schemas of Kaitai's format gallery write them) names a file under a root of schemas: the nearest folder
/// above the schema that holds it, as Kaitai's compiler finds it under the import path it is given.
pub fn compile_file(path: &Path) -> Result<Compiled, Vec<Diagnostic>> {
    compile_file_in(path, &[])
}

/// [`compile_file`], with folders an absolute import is also looked for in, after the folders above the schema
/// (Kaitai's compiler's `--import-path`).
pub fn compile_file_in(
    path: &Path,
    import_paths: &[std::path::PathBuf],
) -> Result<Compiled, Vec<Diagnostic>> {
    let (name, text) = read_schema(path)?;
    let load = import_loader(path, import_paths);
    compile_with_imports(&name, &text, &load)
}

/// The checked IR of a schema file and its warnings, without generating code; imports as for [`compile_file_in`].
pub fn module_file_in(
    path: &Path,
    import_paths: &[std::path::PathBuf],
) -> Result<(ir::Module, Vec<Diagnostic>), Vec<Diagnostic>> {
    let (name, text) = read_schema(path)?;
    let load = import_loader(path, import_paths);
    module_with_imports(&name, &text, &load)
}

/// Finds and reads the schemas a schema at `path` imports (see [`compile_file`]).
fn import_loader(
    path: &Path,
    import_paths: &[std::path::PathBuf],
) -> impl Fn(&str) -> Option<(String, String)> {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let roots = import_paths.to_vec();
    move |import: &str| -> Option<(String, String)> {
        let p = import_path(&dir, import).or_else(|| {
            let rel = import.strip_prefix('/')?;
            roots
                .iter()
                .map(|r| r.join(format!("{rel}.ksy")))
                .find(|p| p.is_file())
        })?;
        let text = std::fs::read_to_string(&p).ok()?;
        Some((p.file_name()?.to_string_lossy().into_owned(), text))
    }
}

/// The files a schema imports, transitively, where they are found (each import beside the schema that names
/// it), for a build that reruns when one changes.
pub fn imports_of(path: &Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<std::path::PathBuf> = Vec::new();
    let mut queue = vec![path.to_path_buf()];
    while let Some(p) = queue.pop() {
        let Ok(head) = read_head(&p) else {
            continue;
        };
        let dir = p.parent().map(Path::to_path_buf).unwrap_or_default();
        for import in &head.imports {
            if let Some(found) = import_path(&dir, import) {
                if !out.contains(&found) && out.len() < 256 {
                    out.push(found.clone());
                    queue.push(found);
                }
            }
        }
    }
    out
}

/// Where the import `import` of a schema in `dir` is: beside it, or for an absolute import, under the nearest
/// folder above it (itself first) that holds it.
fn import_path(dir: &Path, import: &str) -> Option<std::path::PathBuf> {
    match import.strip_prefix('/') {
        None => Some(dir.join(format!("{import}.ksy"))),
        Some(rel) => dir
            .ancestors()
            .map(|a| a.join(format!("{rel}.ksy")))
            .find(|p| p.is_file()),
    }
}

/// What `formats/build.rs` needs of a schema before it decides whether to compile it, read without compiling
/// (imports are not loaded, types not resolved): its title, doc and imports, and its place in the crate.
#[derive(Debug, Clone, PartialEq)]
pub struct Head {
    /// `meta: title`.
    pub title: Option<String>,
    /// The schema's `doc`.
    pub doc: Option<String>,
    /// `meta: imports`, as written (`exb`, `../common/header`).
    pub imports: Vec<String>,
    /// The Rust name of the root type (`Sarc`), which a generated module's `Format` is implemented for.
    pub root: String,
    /// Whether the schema is a text format (`-binspec: text-format`), whose code is hand-written.
    pub text_format: bool,
    /// Where `binspec-formats` builds the schema (`-binspec: id, feature, module, register`).
    pub crate_spec: ir::CrateSpec,
}

/// Reads a schema's [`Head`]: its syntax and `meta` are checked (an error in `-binspec` is reported as
/// [`compile_file`] reports it), the rest is left to the compiler.
pub fn read_head(path: &Path) -> Result<Head, Vec<Diagnostic>> {
    let (name, text) = read_schema(path)?;
    let mut diags = Diags::new(&name);
    let head = syntax::parse_schema(&name, &text, &mut diags).map(|raw| Head {
        title: raw.root.meta.as_ref().and_then(|m| m.title.clone()),
        doc: raw.root.doc.clone(),
        imports: raw
            .root
            .meta
            .iter()
            .flat_map(|m| m.imports.iter().map(|(i, _)| i.clone()))
            .collect(),
        root: ir::camel(&raw.root.name),
        text_format: raw
            .root
            .meta
            .as_ref()
            .and_then(|m| m.ext.iter().find(|(k, _)| k == "-binspec"))
            .is_some_and(|(_, b)| b.get("text-format").is_some()),
        crate_spec: ir::crate_spec(&raw, &mut diags),
    });
    match head {
        Some(h) if !diags.has_errors() => Ok(h),
        _ => {
            diags.list.sort();
            Err(diags
                .list
                .into_iter()
                .filter(Diagnostic::is_error)
                .collect())
        }
    }
}

/// A schema file's name (for diagnostics) and text.
fn read_schema(path: &Path) -> Result<(String, String), Vec<Diagnostic>> {
    let name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match std::fs::read_to_string(path) {
        Ok(text) => Ok((name, text)),
        Err(e) => Err(vec![Diagnostic {
            severity: diag::Severity::Error,
            file: name,
            pos: diag::Pos::default(),
            yaml_path: "/".into(),
            message: format!("cannot read: {e}"),
            help: None,
        }]),
    }
}

/// The position of the schema element at a YAML path (the longest path prefix that names a field or expression),
/// for diagnostics raised after the IR is built.
fn position_of(m: &ir::Module, path: &str) -> diag::Pos {
    let mut best: Option<(usize, diag::Pos)> = None;
    let mut consider = |p: &str, pos: diag::Pos| {
        if path.starts_with(p) && best.is_none_or(|(l, _)| p.len() > l) {
            best = Some((p.len(), pos));
        }
    };
    for t in &m.types {
        // The type itself, at the YAML path its fields' paths start with.
        if let Some(at) = t
            .seq
            .first()
            .and_then(|f| f.path.rfind("/seq/").map(|i| &f.path[..i]))
        {
            consider(at, t.pos);
        }
        for f in t.seq.iter().chain(t.instances.iter()) {
            consider(&f.path, f.pos);
            let exprs = [
                f.size.as_ref(),
                f.cond.as_ref(),
                f.pos_expr(),
                f.value(),
                f.io(),
                f.sort_by.as_ref(),
                f.default.as_ref(),
            ];
            for x in exprs.into_iter().flatten() {
                consider(&x.path, x.pos);
            }
            match &f.repeat {
                ir::Repeat::Expr(x) | ir::Repeat::Until(x) => consider(&x.path, x.pos),
                _ => {}
            }
            if let ir::Role::Derive(x) = &f.role {
                consider(&x.path, x.pos);
            }
        }
    }
    // The `info` expressions of `-binspec`.
    for x in m
        .info
        .version
        .iter()
        .chain(m.info.summary.iter().map(|(_, x)| x))
    {
        consider(&x.path, x.pos);
    }
    best.map(|(_, p)| p).unwrap_or_default()
}

#[cfg(test)]
mod import_tests {
    use super::join_import;

    #[test]
    fn imports_of_imports_are_named_from_the_importing_schema() {
        for (parent, child, want) in [
            ("header", "footer", "footer"),
            ("common/header", "bits", "common/bits"),
            ("common/header", "../other", "other"),
            ("../common/header", "x", "../common/x"),
            ("a", "../up", "../up"),
            ("/for_abs/imported", "../root", "/root"),
            ("/for_abs/imported", "sibling", "/for_abs/sibling"),
            ("/top", "../../beyond", "/beyond"),
            ("anything", "/abs/path", "/abs/path"),
        ] {
            assert_eq!(join_import(parent, child), want, "{parent} + {child}");
        }
    }
}
