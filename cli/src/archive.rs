//! `binspec extract` and `binspec pack`.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

use crate::args::CompressArgs;
use crate::doc::{compress_as_asked, load_binary};
use crate::{files, formats, CliError, Ctx};

/// The settings document that `extract` writes next to the files.
pub const SETTINGS_FILE: &str = ".binspec-archive.yaml";

/// The path under the output folder for a file name inside an archive, or why it is refused: names must be
/// relative, `/`-separated, with no empty, `.` or `..` components (nothing may be written outside the folder).
pub fn safe_relative_path(name: &str) -> Result<PathBuf, String> {
    let bad = |why: &str| {
        Err(format!(
            "refusing the file name {name:?} in the archive: {why}"
        ))
    };
    if name.is_empty() {
        return bad("it is empty");
    }
    if name.contains('\0') {
        return bad("it contains a NUL byte");
    }
    if name.contains('\\') {
        return bad("it contains a backslash");
    }
    if name.starts_with('/') {
        return bad("it is an absolute path");
    }
    let mut p = PathBuf::new();
    for part in name.split('/') {
        match part {
            "" => return bad("it has an empty path component"),
            "." | ".." => return bad("it has a `.` or `..` path component"),
            _ => {}
        }
        if cfg!(windows) && part.contains(':') {
            return bad("it contains a `:`");
        }
        let mut comps = Path::new(part).components();
        if !matches!(
            (comps.next(), comps.next()),
            (Some(Component::Normal(_)), None)
        ) {
            return bad("it is not a plain relative path");
        }
        p.push(part);
    }
    if name == SETTINGS_FILE {
        return bad("it is the name binspec keeps the archive's settings under");
    }
    Ok(p)
}

/// Checks every name before anything is written: safe, unique, and no name both a file and a folder.
pub fn plan_extract(names: &[&str]) -> Result<Vec<PathBuf>, String> {
    let mut paths = Vec::with_capacity(names.len());
    let mut seen = HashSet::new();
    let mut dirs = HashSet::new();
    for name in names {
        paths.push(safe_relative_path(name)?);
        if !seen.insert(*name) {
            return Err(format!("the archive has two files named {name:?}"));
        }
        let mut prefix = String::new();
        let parts: Vec<&str> = name.split('/').collect();
        for part in &parts[..parts.len() - 1] {
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(part);
            dirs.insert(prefix.clone());
        }
    }
    if let Some(n) = names.iter().find(|n| dirs.contains(**n)) {
        return Err(format!(
            "the archive has a file named {n:?} and other files under {n:?}/"
        ));
    }
    Ok(paths)
}

/// `binspec extract ARCHIVE -o DIR`.
pub fn extract(ctx: &mut Ctx<'_>, archive: &Path, dir: &Path) -> Result<(), CliError> {
    let (input, f) = load_binary(ctx, archive)?;
    let (entries, settings) = f
        .extract(&input.data)
        .map_err(|e| CliError::file(archive, e))?
        .ok_or_else(|| CliError::file(archive, format!("{} is not an archive format", f.id())))?;
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    let paths = plan_extract(&names).map_err(|e| CliError::file(archive, e))?;

    if dir.exists() {
        if !dir.is_dir() {
            return Err(CliError::Fail(format!(
                "{} exists and is not a folder",
                dir.display()
            )));
        }
        let non_empty = std::fs::read_dir(dir)
            .map_err(|e| CliError::file(dir, e))?
            .next()
            .is_some();
        if non_empty && !ctx.force {
            return Err(CliError::Usage(format!(
                "{} is not empty: files from an earlier extract would be packed too (pass --force to extract \
                 into it anyway)",
                dir.display()
            )));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| CliError::file(dir, e))?;
    let root = dir.canonicalize().map_err(|e| CliError::file(dir, e))?;

    for ((name, data), rel) in entries.iter().zip(&paths) {
        let out = root.join(rel);
        let parent = out.parent().unwrap_or(&root);
        std::fs::create_dir_all(parent).map_err(|e| CliError::file(parent, e))?;
        // A symbolic link already in the folder must not lead outside it.
        let real_parent = parent
            .canonicalize()
            .map_err(|e| CliError::file(parent, e))?;
        if !real_parent.starts_with(&root) {
            return Err(CliError::Fail(format!(
                "refusing to write {name:?}: {} leads outside {}",
                parent.display(),
                dir.display()
            )));
        }
        if !ctx.force && files::same_file(&out, archive) {
            return Err(CliError::Usage(format!(
                "refusing to overwrite the input file {} (pass --force to do it anyway)",
                archive.display()
            )));
        }
        files::write_atomic(&out, data)?;
    }

    let mut text = files::format_comment(f.id());
    text.push('\n');
    if let Some(c) = input.compression_comment() {
        text.push_str(&c);
        text.push('\n');
    }
    text.push_str(&settings);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    files::write_atomic(&root.join(SETTINGS_FILE), text.as_bytes())?;
    let _ = writeln!(
        ctx.err,
        "extracted {} files to {}",
        entries.len(),
        dir.display()
    );
    Ok(())
}

/// The files under `dir` (without the settings file at its top) as `/`-separated names, sorted.
pub fn collect_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, CliError> {
    let list = files::walk(dir).map_err(|e| CliError::file(dir, e))?;
    let mut out = Vec::with_capacity(list.len());
    for path in list {
        let rel = path
            .strip_prefix(dir)
            .map_err(|e| CliError::file(&path, e))?;
        let mut parts = Vec::new();
        for c in rel.components() {
            match c {
                Component::Normal(s) => parts.push(
                    s.to_str()
                        .ok_or_else(|| CliError::file(&path, "the file name is not UTF-8"))?
                        .to_string(),
                ),
                _ => return Err(CliError::file(&path, "not a plain path under the folder")),
            }
        }
        let name = parts.join("/");
        if name != SETTINGS_FILE {
            out.push((name, path));
        }
    }
    out.sort();
    Ok(out)
}

/// `binspec pack DIR -o ARCHIVE`.
pub fn pack(
    ctx: &mut Ctx<'_>,
    dir: &Path,
    output: &Path,
    compress: &CompressArgs,
) -> Result<(), CliError> {
    if !dir.is_dir() {
        return Err(CliError::Fail(format!("{} is not a folder", dir.display())));
    }
    let settings_path = dir.join(SETTINGS_FILE);
    if !settings_path.is_file() {
        return Err(CliError::Fail(format!(
            "{} has no {SETTINGS_FILE}: pack a folder that `binspec extract` wrote",
            dir.display()
        )));
    }
    if !ctx.force {
        if let (Ok(d), Some(parent)) = (dir.canonicalize(), output.parent()) {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            if parent.canonicalize().is_ok_and(|p| p.starts_with(&d)) {
                return Err(CliError::Usage(format!(
                    "the output {} is inside the folder being packed (pass --force to write it there anyway)",
                    output.display()
                )));
            }
        }
    }
    let raw = files::read(&settings_path)?;
    let settings =
        String::from_utf8(raw).map_err(|_| CliError::file(&settings_path, "not UTF-8 text"))?;
    let header = files::doc_header(&settings);
    let f = match (&ctx.format, &header.format) {
        (Some(id), _) | (None, Some(id)) => formats::by_id(ctx.registry, id)?,
        (None, None) => {
            return Err(CliError::Usage(format!(
                "{} has no `# binspec: ID` first line; pass --format ID (known formats: {})",
                settings_path.display(),
                formats::known(ctx.registry)
            )))
        }
    };
    let mut list = Vec::new();
    for (name, path) in collect_files(dir)? {
        let data = files::read(&path)?;
        list.push((name, data));
    }
    let n = list.len();
    let bytes = f
        .pack(&settings, list)
        .map_err(|e| CliError::file(dir, e))?;
    let bytes = compress_as_asked(ctx, &settings_path, bytes, compress, &header)?;
    files::write_atomic(output, &bytes)?;
    let _ = writeln!(ctx.err, "packed {n} files into {}", output.display());
    Ok(())
}
