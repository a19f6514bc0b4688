//! `binspec docs`: the documentation pages, regenerated from the schemas.
//!
//! Markdown (the default): one page per format (`<id>.md`, from `binspec_codegen::emit_md`) and the index
//! (`README.md`), which lists every format with its status: how many of its fixtures (the files under
//! `tests/fixtures/<schema>/` that are of the format, by magic or extension) it reads, writes back, and writes back
//! byte for byte. A text format's page is made by its own module (from the schema's tables): it is listed in the
//! index, never written here. With `--wiki`: one MediaWiki page per format (`<id>.wiki`, from
//! `binspec_codegen::emit_wiki`). Everything is a pure function of the schemas and the fixtures ([`pages`]),
//! byte-identical run to run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use binspec_codegen::ir::Module;
use binspec_runtime::DynFormat;

use crate::check::{self, FileResult, Outcome};
use crate::{files, CliError, Ctx, Registry};

/// The index page's file name.
pub const INDEX: &str = "README.md";

/// A compiled schema and the name of its file without `.ksy` (which names its fixtures folder).
#[derive(Debug)]
pub struct Schema {
    pub stem: String,
    pub module: Module,
}

/// Compiles every `.ksy` in a folder, sorted by file name.
pub fn load_schemas(dir: &Path) -> Result<Vec<Schema>, CliError> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| CliError::file(dir, e))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ksy"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(CliError::file(dir, "no .ksy schemas in this folder"));
    }
    paths
        .iter()
        .map(|p| {
            Ok(Schema {
                stem: p
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                module: files::compile_schema(p)?,
            })
        })
        .collect()
}

/// The file name of a format's page: its schema id (a text format's own page is named after the schema file).
pub fn page_name(s: &Schema, ext: &str) -> String {
    if s.module.text_format.is_some() {
        format!("{}.{ext}", s.stem)
    } else {
        format!("{}.{ext}", s.module.id)
    }
}

/// What `binspec docs` writes, as (path relative to the output folder, text): with `wiki`, the `.wiki` pages;
/// else everything: the markdown pages, the `.wiki` pages in `wiki/` and the index, whose status columns come from checking every fixture under `fixtures`
/// (none when `None`).
pub fn pages(
    registry: Registry<'_>,
    schemas: &[Schema],
    fixtures: Option<&Path>,
    wiki: bool,
) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for s in schemas.iter().filter(|s| s.module.text_format.is_none()) {
        let text = if wiki {
            binspec_codegen::emit_wiki::emit(&s.module)
        } else {
            binspec_codegen::emit_md::emit(&s.module)
        };
        out.push((
            PathBuf::from(page_name(s, if wiki { "wiki" } else { "md" })),
            text,
        ));
    }
    if !wiki {
        out.push((PathBuf::from(INDEX), index(registry, schemas, fixtures)));
        // Everything: the MediaWiki pages too, in `wiki/`.
        for (rel, text) in pages(registry, schemas, None, true) {
            out.push((PathBuf::from("wiki").join(rel), text));
        }
    }
    out
}

/// How a format does on its fixtures.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Status {
    /// Files of the format.
    pub files: usize,
    pub reads: usize,
    pub writes: usize,
    pub round_trips: usize,
    /// One line per file that does not round-trip (`DIFF ...`, `FAIL ...`), paths relative to the fixtures folder's
    /// parent's parent (`tests/fixtures/...`).
    pub problems: Vec<String>,
}

/// Reads and writes back every file under `dir` that is of the format (by magic or extension, as `binspec check
/// --format ID DIR` chooses them).
pub fn status(
    registry: Registry<'_>,
    f: &'static dyn DynFormat,
    dir: &Path,
    shown_as: &Path,
) -> Status {
    let paths = files::walk(dir).unwrap_or_default();
    let results: Vec<(FileResult, bool)> = paths
        .par_iter()
        .map(|p| {
            let r = check::check_file(registry, Some(f), p, false);
            let reads = match &r.outcome {
                Outcome::Identical | Outcome::Differ { .. } => true,
                Outcome::Failed(_) => reads_file(f, p),
                Outcome::Skipped => false,
            };
            (r, reads)
        })
        .collect();
    let mut st = Status::default();
    let mut shown = Vec::new();
    for (mut r, reads) in results {
        if r.outcome == Outcome::Skipped {
            continue;
        }
        st.files += 1;
        st.reads += usize::from(reads);
        match r.outcome {
            Outcome::Identical => {
                st.writes += 1;
                st.round_trips += 1;
            }
            Outcome::Differ { .. } => st.writes += 1,
            _ => {}
        }
        // Relative paths: the page must not depend on where the repository is.
        if let Ok(rel) = r.path.strip_prefix(dir) {
            r.path = shown_as.join(rel);
        }
        shown.push(r);
    }
    st.problems = check::problem_lines(&shown);
    st
}

/// Whether the format reads a file (that it could not write back or that failed otherwise).
fn reads_file(f: &'static dyn DynFormat, path: &Path) -> bool {
    let Ok(input) = files::load(path) else {
        return false;
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f.info(&input.data).is_ok()))
        .unwrap_or(false)
}

/// One row of the index: a format of the registry (or a schema none of whose formats is built).
struct Row<'a> {
    schema: &'a Schema,
    format: Option<&'static dyn DynFormat>,
}

/// The registry's formats for each schema: the one with the schema's format id, and any other whose id no schema
/// has and whose extensions are all the schema's (`panim-pretarget`, read by the same module as `panim-perro`).
fn rows<'a>(registry: Registry<'_>, schemas: &'a [Schema]) -> Vec<Row<'a>> {
    let mut out = Vec::new();
    for s in schemas {
        let mut mine: Vec<&'static dyn DynFormat> = registry
            .iter()
            .copied()
            .filter(|f| f.id() == s.module.format_id)
            .collect();
        for f in registry.iter().copied() {
            let claimed = schemas.iter().any(|o| o.module.format_id == f.id());
            let exts_mine = !f.extensions().is_empty()
                && f.extensions().iter().all(|e| {
                    s.module
                        .extensions
                        .iter()
                        .any(|x| x.eq_ignore_ascii_case(e))
                });
            if !claimed && exts_mine && !mine.iter().any(|m| m.id() == f.id()) {
                mine.push(f);
            }
        }
        if mine.is_empty() {
            out.push(Row {
                schema: s,
                format: None,
            });
        }
        out.extend(mine.into_iter().map(|f| Row {
            schema: s,
            format: Some(f),
        }));
    }
    out
}

/// A table cell: on one line, `|` escaped.
fn cell(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

fn of(n: usize, total: usize) -> String {
    format!(
        "{n} of {total} {}",
        if total == 1 { "file" } else { "files" }
    )
}

/// The index page.
pub fn index(registry: Registry<'_>, schemas: &[Schema], fixtures: Option<&Path>) -> String {
    let mut out = String::new();
    out.push_str("# Formats\n\n");
    out.push_str(
        "Generated by `binspec docs` from `schemas/` and the fixtures; do not edit. Refresh with `binspec docs` (it\n\
         writes the MediaWiki pages in `wiki/` too), or with\n\
         `BINSPEC_UPDATE_DOCS=1 cargo test -p binspec-tests --test docs`.\n\n",
    );
    out.push_str(
        "Each format's page opens with a diagram of how its types point to each other, then a table per type. A text\n\
         format's page is made by its own module. The status columns count the format's fixtures, the files under\n\
         `tests/fixtures/<schema>/` that are of the format (by magic or extension): how many it reads, how many it\n\
         writes back, and how many it writes back byte for byte. \"Not a format yet\": the schema is transcribed (and\n\
         may have a generated raw reader, such as `ainb::raw`), but `binspec` does not read or write such files.\n\n",
    );
    out.push_str(
        "| Format | Title | Page | Extensions | Wiki source | Reads | Writes | Round-trips |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|\n");
    let mut problems = Vec::new();
    for r in rows(registry, schemas) {
        let m = &r.schema.module;
        let id = r.format.map(|f| f.id()).unwrap_or(&m.format_id);
        let title = match r.format {
            Some(f) if f.id() != m.format_id => f.title().to_string(),
            _ => m.title.clone().unwrap_or_else(|| m.id.clone()),
        };
        let name = page_name(r.schema, "md");
        let mut page = format!("[{name}]({name})");
        if m.text_format.is_some() {
            page.push_str(" (text format)");
        } else {
            let w = page_name(r.schema, "wiki");
            let _ = write!(page, ", [{w}](wiki/{w})");
        }
        let exts: Vec<String> = match r.format {
            Some(f) => f.extensions().iter().map(|e| format!("`.{e}`")).collect(),
            None => m.extensions.iter().map(|e| format!("`.{e}`")).collect(),
        };
        let mut wiki_pages: Vec<&str> = Vec::new();
        for w in m
            .types
            .iter()
            .flat_map(|t| t.wiki.iter())
            .chain(m.enums.iter().flat_map(|e| e.wiki.iter()))
        {
            if !wiki_pages.contains(&w.page.as_str()) {
                wiki_pages.push(&w.page);
            }
        }
        let source = match (&m.source, wiki_pages.is_empty()) {
            (Some(s), _) => s.clone(),
            (None, false) => format!("pages {}", wiki_pages.join(", ")),
            (None, true) => "-".into(),
        };
        let status = match (r.format, fixtures) {
            (None, _) => ["not a format yet".to_string(), "-".into(), "-".into()],
            (Some(_), None) => ["no fixtures".to_string(), "-".into(), "-".into()],
            (Some(f), Some(fx)) => {
                let dir = fx.join(&r.schema.stem);
                let shown = Path::new("tests/fixtures").join(&r.schema.stem);
                let st = status(registry, f, &dir, &shown);
                problems.extend(st.problems.iter().cloned());
                if st.files == 0 {
                    ["no fixtures".to_string(), "-".into(), "-".into()]
                } else {
                    [
                        of(st.reads, st.files),
                        of(st.writes, st.files),
                        of(st.round_trips, st.files),
                    ]
                }
            }
        };
        let _ = writeln!(
            out,
            "| `{id}` | {} | {page} | {} | {} | {} | {} | {} |",
            cell(&title),
            exts.join(", "),
            cell(&source),
            status[0],
            status[1],
            status[2]
        );
    }
    if !problems.is_empty() {
        out.push_str("\nFixtures that do not round-trip:\n\n");
        for p in problems {
            let _ = writeln!(out, "- {}", cell(&p));
        }
    }
    out
}

/// Where the pages go by default: `generated/docs` beside the schemas folder (`wiki` in it for `--wiki`).
pub fn default_output(schemas: &Path, wiki: bool) -> PathBuf {
    let base = match schemas.parent() {
        Some(p) => p.join("generated").join("docs"),
        None => PathBuf::from("generated").join("docs"),
    };
    if wiki {
        base.join("wiki")
    } else {
        base
    }
}

/// The fixtures folder: `tests/fixtures` beside the schemas folder, else the bundled one.
fn fixtures_for(schemas: &Path) -> Option<PathBuf> {
    let beside = schemas
        .parent()
        .map(|p| p.join("tests").join("fixtures"))
        .filter(|p| p.is_dir());
    beside.or_else(crate::fixtures_dir)
}

/// `binspec docs [--schemas DIR] [-o DIR] [--wiki] [--check]`.
pub fn docs(
    ctx: &mut Ctx<'_>,
    schemas: Option<&Path>,
    output: Option<&Path>,
    wiki: bool,
    check: bool,
) -> Result<(), CliError> {
    let schemas_dir = match schemas {
        Some(d) => d.to_path_buf(),
        None => crate::schemas_dir().ok_or_else(|| {
            CliError::Usage(
                "there is no schemas folder here or in the source tree; pass --schemas DIR".into(),
            )
        })?,
    };
    let loaded = load_schemas(&schemas_dir)?;
    let fixtures = if wiki {
        None
    } else {
        fixtures_for(&schemas_dir)
    };
    let out_dir = output
        .map(Path::to_path_buf)
        .unwrap_or_else(|| default_output(&schemas_dir, wiki));
    let list = pages(ctx.registry, &loaded, fixtures.as_deref(), wiki);
    let mut stale = 0usize;
    let mut written = 0usize;
    for (rel, text) in &list {
        let path = out_dir.join(rel);
        let old = std::fs::read(&path).ok();
        if old.as_deref() == Some(text.as_bytes()) {
            continue;
        }
        if check {
            stale += 1;
            let what = if old.is_some() { "stale" } else { "missing" };
            writeln!(ctx.out, "{what}: {}", path.display()).map_err(CliError::out)?;
        } else {
            let dir = path.parent().unwrap_or(&out_dir);
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::Fail(format!("cannot create {}: {e}", dir.display())))?;
            files::write_atomic(&path, text.as_bytes())?;
            written += 1;
            writeln!(ctx.out, "wrote {}", path.display()).map_err(CliError::out)?;
        }
    }
    if check && stale > 0 {
        return Err(CliError::Fail(format!(
            "{stale} of {} pages in {} are out of date; run `binspec docs{}`",
            list.len(),
            out_dir.display(),
            if wiki { " --wiki" } else { "" }
        )));
    }
    let _ = writeln!(
        ctx.err,
        "{} pages in {}: {} {}, {} unchanged",
        list.len(),
        out_dir.display(),
        if check { stale } else { written },
        if check { "stale" } else { "written" },
        list.len() - if check { stale } else { written }
    );
    Ok(())
}
