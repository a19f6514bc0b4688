//! Which schema types and enums transcribe which wiki tables (`-wiki` and `-wiki-enums` in the schemas).

use std::path::PathBuf;

use binspec_codegen::ir::{Module, WikiRef};

use crate::Table;

/// A compiled schema: where it was read from (its file name labels its items) and its module.
#[derive(Debug)]
pub struct Schema {
    /// The `.ksy` file.
    pub path: PathBuf,
    /// The compiled schema, whose types and enums carry the `-wiki` references.
    pub module: Module,
}

/// What a wiki reference belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// A type: its index in the module's `types`.
    Type(usize),
    /// An enum: its index in the module's `enums`.
    Enum(usize),
}

/// One `-wiki` reference of a schema.
#[derive(Debug, Clone)]
pub struct Source<'a> {
    /// The schema that has the reference.
    pub schema: &'a Schema,
    /// The type or enum that transcribes the table.
    pub item: Item,
    /// The reference: page, section, caption, table number.
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
pub(crate) fn same_page(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.trim().replace('_', " ").to_lowercase();
    norm(a) == norm(b)
}

/// Whether a table sits under `section`: its nearest heading, or a path of headings (`A > B`) that ends its
/// section path.
pub(crate) fn in_section(t: &Table, section: &str) -> bool {
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
pub(crate) fn touching<'s, 'a>(
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
