//! Which schema types and enums transcribe which wiki tables (`-wiki` and `-wiki-enums` in the schemas).

use std::path::{Path, PathBuf};

use binspec_codegen::ir::{Module, WikiRef};

use super::Table;
use crate::CliError;

/// A compiled schema.
#[derive(Debug)]
pub struct Schema {
    pub path: PathBuf,
    pub module: Module,
}

/// Compiles schemas: `.ksy` files, or every `.ksy` in a folder (sorted). An empty list means the `schemas` folder.
pub fn load(paths: &[PathBuf]) -> Result<Vec<Schema>, CliError> {
    let mut files = Vec::new();
    let default;
    let paths = if paths.is_empty() {
        default = [crate::schemas_dir().ok_or_else(|| {
            CliError::Usage(
                "no schemas given, and there is no schemas folder here; use --schemas".into(),
            )
        })?];
        &default[..]
    } else {
        paths
    };
    for p in paths {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| CliError::file(p, e))?
                .flatten()
                .map(|e| e.path())
                .filter(|x| x.extension().is_some_and(|e| e == "ksy"))
                .collect();
            v.sort();
            files.extend(v);
        } else {
            files.push(p.clone());
        }
    }
    let mut out = Vec::new();
    for f in files {
        out.push(Schema {
            module: compile(&f)?,
            path: f,
        });
    }
    Ok(out)
}

/// Compiles one schema; its diagnostics (file, YAML path, line:column) make the error.
pub fn compile(path: &Path) -> Result<Module, CliError> {
    match binspec_codegen::compile_file(path) {
        Ok(c) => Ok(c.module),
        Err(d) => {
            let text: Vec<String> = d.iter().map(|x| x.to_string()).collect();
            Err(CliError::file(path, text.join("\n")))
        }
    }
}

/// What a wiki reference belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    Type(usize),
    Enum(usize),
}

/// One `-wiki` reference of a schema.
#[derive(Debug, Clone)]
pub struct Source<'a> {
    pub schema: &'a Schema,
    pub item: Item,
    pub wiki: &'a WikiRef,
}

impl Source<'_> {
    /// `sarc.ksy: type sfat_entry`.
    pub fn label(&self) -> String {
        let file = self
            .schema
            .path
            .file_name()
            .map(|f| f.to_string_lossy().to_string())
            .unwrap_or_default();
        let m = &self.schema.module;
        match self.item {
            Item::Type(i) => format!("{file}: type {}", m.types[i].name),
            Item::Enum(i) => format!("{file}: enum {}", m.enums[i].name),
        }
    }
}

/// Every `-wiki` reference in the schemas, in schema order (each schema's own types and enums: not the ones it
/// imports, which the imported schema lists).
pub fn sources(schemas: &[Schema]) -> Vec<Source<'_>> {
    let mut out = Vec::new();
    for s in schemas {
        // Types an imported schema declares are that schema's own references, listed with it.
        let own = |t: &binspec_codegen::ir::TypeDef| t.path.first() == Some(&s.module.id);
        for (i, t) in s.module.types.iter().enumerate().filter(|(_, t)| own(t)) {
            for w in &t.wiki {
                out.push(Source {
                    schema: s,
                    item: Item::Type(i),
                    wiki: w,
                });
            }
        }
        for (i, e) in s
            .module
            .enums
            .iter()
            .enumerate()
            .filter(|(_, e)| own(&s.module.types[e.owner]))
        {
            for w in &e.wiki {
                out.push(Source {
                    schema: s,
                    item: Item::Enum(i),
                    wiki: w,
                });
            }
        }
    }
    out
}

/// Page titles compare without case and with `_` as a space.
pub fn same_page(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.trim().replace('_', " ").to_lowercase();
    norm(a) == norm(b)
}

/// Whether a table sits under `section`: its nearest heading, or a path of headings (`A > B`) that ends its
/// section path.
pub fn in_section(t: &Table, section: &str) -> bool {
    if section.trim().is_empty() || section.trim() == "(top)" {
        return t.sections.is_empty();
    }
    let want: Vec<String> = section
        .split(" > ")
        .map(|s| s.trim().to_lowercase())
        .collect();
    let have: Vec<String> = t.sections.iter().map(|s| s.trim().to_lowercase()).collect();
    have.len() >= want.len() && have[have.len() - want.len()..] == want[..]
}

/// The tables (indices into `tables`) that a reference names: those under its section with its caption, narrowed
/// to the `table`-th when given.
pub fn resolve(w: &WikiRef, tables: &[Table]) -> Vec<usize> {
    let hits: Vec<usize> = tables
        .iter()
        .enumerate()
        .filter(|(_, t)| in_section(t, &w.section))
        .filter(|(_, t)| {
            w.caption
                .as_ref()
                .is_none_or(|c| t.caption.trim().eq_ignore_ascii_case(c.trim()))
        })
        .map(|(i, _)| i)
        .collect();
    match w.table {
        Some(n) => hits.get(n - 1).copied().into_iter().collect(),
        None => hits,
    }
}

/// The sources that name table `idx` of page `page`.
pub fn touching<'s, 'a>(
    sources: &'s [Source<'a>],
    page: &str,
    tables: &[Table],
    idx: usize,
) -> Vec<&'s Source<'a>> {
    sources
        .iter()
        .filter(|s| same_page(&s.wiki.page, page) && resolve(s.wiki, tables).contains(&idx))
        .collect()
}
