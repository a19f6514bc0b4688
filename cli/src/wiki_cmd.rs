//! `binspec wiki lint|drift|coverage|diff|import`: the commands' glue around the `binspec-wiki` library. Reads the
//! dump and the schemas the user named, hands them to the library, prints what it gives back (results on standard
//! output, the summary and notes on standard error) and turns its errors into usage errors.

use std::path::{Path, PathBuf};

use binspec_wiki::sources::{self, Schema};
use binspec_wiki::{self as wiki, coverage, diff, drift, import, Revision};

use crate::{files, CliError, Ctx};

/// Reads a page text or a dump into its revisions (a page text is one revision, named after the file).
pub fn read_dump(file: &Path) -> Result<Vec<Revision>, CliError> {
    let raw = files::read(file)?;
    let text = String::from_utf8(raw).map_err(|_| CliError::file(file, "not UTF-8 text"))?;
    let name = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    Ok(wiki::revisions(&text, &name))
}

/// Compiles schemas: `.ksy` files, or every `.ksy` in a folder (sorted). An empty list means the `schemas` folder.
pub fn load_schemas(paths: &[PathBuf]) -> Result<Vec<Schema>, CliError> {
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
            module: files::compile_schema(&f)?,
            path: f,
        });
    }
    Ok(out)
}

/// A request the input `file` cannot satisfy, as a usage error (one about a page names the file).
fn usage(file: &Path, e: wiki::Error) -> CliError {
    match e {
        wiki::Error::NoPage { .. } => CliError::Usage(format!("{}: {e}", file.display())),
        e => CliError::Usage(e.to_string()),
    }
}

/// `binspec wiki lint FILE [--rev N]`.
pub fn lint(ctx: &mut Ctx<'_>, file: &Path, rev: usize) -> Result<(), CliError> {
    let revs = read_dump(file)?;
    let chosen = wiki::chosen(&revs, rev);
    let mut findings = 0usize;
    let mut tables = 0usize;
    for r in &chosen {
        tables += wiki::tables(&r.text).len();
        for f in wiki::lint(r) {
            findings += 1;
            writeln!(ctx.out, "{f}").map_err(CliError::out)?;
        }
    }
    let _ = writeln!(
        ctx.err,
        "{findings} findings in {tables} tables of {} pages (revision {rev} of each; {} revisions in the input)",
        chosen.len(),
        revs.len()
    );
    Ok(())
}

/// `binspec wiki drift FILE SCHEMA... [--rev N]`.
pub fn drift(
    ctx: &mut Ctx<'_>,
    file: &Path,
    schemas: &[PathBuf],
    rev: usize,
) -> Result<(), CliError> {
    let revs = read_dump(file)?;
    let schemas = load_schemas(schemas)?;
    let srcs = sources::sources(&schemas);
    let chosen = wiki::chosen(&revs, rev);
    let rep = drift::compare(&chosen, &srcs);
    for d in &rep.differences {
        writeln!(ctx.out, "{d}").map_err(CliError::out)?;
    }
    for n in &rep.notes {
        let _ = writeln!(ctx.err, "note: {n}");
    }
    let explained = rep.explained();
    let _ = writeln!(
        ctx.err,
        "{} differences ({} drift, {explained} explained by the schemas' docs) in {} tables ({} `-wiki` references in {} schemas)",
        rep.differences.len(),
        rep.differences.len() - explained,
        rep.tables,
        srcs.len(),
        schemas.len()
    );
    Ok(())
}

/// `binspec wiki coverage FILE [--schemas ...] [--rev N]`.
pub fn coverage(
    ctx: &mut Ctx<'_>,
    file: &Path,
    schemas: &[PathBuf],
    rev: usize,
) -> Result<(), CliError> {
    let revs = read_dump(file)?;
    let schemas = load_schemas(schemas)?;
    let srcs = sources::sources(&schemas);
    let pages: Vec<coverage::PageCoverage> = wiki::chosen(&revs, rev)
        .into_iter()
        .map(|r| coverage::page(r, &srcs))
        .collect();
    ctx.out
        .write_all(coverage::report(&pages).as_bytes())
        .map_err(CliError::out)
}

/// `binspec wiki diff FILE PAGE [REV_A [REV_B]] [--schemas ...]`.
pub fn diff(
    ctx: &mut Ctx<'_>,
    file: &Path,
    page: &str,
    rev_a: Option<&str>,
    rev_b: Option<&str>,
    schemas: &[PathBuf],
) -> Result<(), CliError> {
    let revs = read_dump(file)?;
    let mine = wiki::page_revisions(&revs, page).map_err(|e| usage(file, e))?;
    let title = &mine[0].page;
    let (a, b) = diff::choose(&mine, rev_a, rev_b).map_err(|e| usage(file, e))?;
    let (ra, rb) = (mine[a], mine[b]);
    let loaded = match load_schemas(schemas) {
        Ok(s) => Some(s),
        Err(e) => {
            let _ = writeln!(
                ctx.err,
                "note: not naming the schema types the changes touch: the schemas could not be loaded: {e}"
            );
            None
        }
    };
    let srcs: Vec<sources::Source<'_>> =
        loaded.as_deref().map(sources::sources).unwrap_or_default();
    let d = diff::compare(ra, rb, &srcs);
    ctx.out
        .write_all(d.report(title).as_bytes())
        .map_err(CliError::out)?;
    let stamp = |i: usize, r: &Revision| {
        if r.timestamp.is_empty() {
            format!("revision {i}")
        } else {
            format!("revision {i} ({})", r.timestamp)
        }
    };
    let _ = writeln!(
        ctx.err,
        "{title}: {} changes in {} tables (of {} and {}) from {} to {}; {} schema references touched",
        d.changes(),
        d.tables.len(),
        d.old_tables,
        d.new_tables,
        stamp(a, ra),
        stamp(b, rb),
        d.touched(),
    );
    Ok(())
}

/// `binspec wiki import FILE PAGE SECTION [--caption C] [--table N] [--rev N] [-o OUT]`.
pub fn import(
    ctx: &mut Ctx<'_>,
    file: &Path,
    want: &import::Want,
    output: Option<&Path>,
) -> Result<(), CliError> {
    let revs = read_dump(file)?;
    let (text, summary) = import::import(&revs, want).map_err(|e| usage(file, e))?;
    match output {
        Some(p) => {
            std::fs::write(p, &text).map_err(|e| CliError::file(p, e))?;
            let _ = writeln!(ctx.err, "{summary}; wrote {}", p.display());
        }
        None => {
            ctx.out.write_all(text.as_bytes()).map_err(CliError::out)?;
            let _ = writeln!(ctx.err, "{summary}");
        }
    }
    Ok(())
}
