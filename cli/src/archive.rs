//! `binspec extract` and `binspec pack`.

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use binspec_runtime::EntryKey;

use crate::args::CompressArgs;
use crate::doc::{compress_as_asked, load_binary, note_uncompressed};
use crate::{files, formats, CliError, Ctx};

/// The settings document that `extract` writes next to the files.
pub const SETTINGS_FILE: &str = ".binspec-archive.yaml";

/// The longest path component (in bytes) that file systems commonly allow (NAME_MAX).
pub const NAME_MAX: usize = 255;

/// The path under the output folder for a file name inside an archive, or why it is refused: names must be
/// relative, `/`-separated, with no empty, `.` or `..` components (nothing may be written outside the folder), and
/// no component longer than [`NAME_MAX`] bytes. `pack` runs the same check on the files it reads.
pub fn safe_relative_path(name: &str) -> Result<PathBuf, String> {
    name_problem(name)
        .map_err(|why| format!("refusing the file name {name:?} in the archive: {why}"))
}

/// [`safe_relative_path`], with only the reason when the name is refused.
fn name_problem(name: &str) -> Result<PathBuf, String> {
    let bad = |why: &str| Err(why.to_string());
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
        if part.len() > NAME_MAX {
            return bad(&format!(
                "a path component is too long ({} bytes; file systems allow {NAME_MAX})",
                part.len()
            ));
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

/// The extension `extract` gives the file of an entry stored without a name, from the magic of its data: the
/// known 4-byte ASCII magics (and BFLIM's `FLIM` header, which is at the end of the file), else `bin`.
pub fn guess_extension(data: &[u8]) -> &'static str {
    let head = data.get(..4).unwrap_or(data);
    match head {
        b"FLYT" => return "bflyt",
        b"FLAN" => return "bflan",
        b"SARC" => return "sarc",
        b"Yaz0" => return "szs",
        _ => {}
    }
    if head.starts_with(b"YB") || head.starts_with(b"BY") {
        return "byml";
    }
    // BFLIM: the image data, then a 0x14-byte `FLIM` header and a 0x14-byte `imag` block.
    if data.len() >= 0x28 && data[data.len() - 0x28..].starts_with(b"FLIM") {
        return "bflim";
    }
    "bin"
}

/// The file name of an entry stored without a name: its hash (`0x%08x`) and an extension guessed from its data.
pub fn hash_file_name(hash: u64, data: &[u8]) -> String {
    format!("{hash:#010x}.{}", guess_extension(data))
}

/// The hash in a file name that [`hash_file_name`] gives (any extension: `0x0badf00d.bin`, `0x0badf00d.bflyt`),
/// if the name is one. Whether the file is an unnamed entry's is for the archive's settings to say.
pub fn parse_hash_file_name(name: &str) -> Option<u64> {
    let (stem, ext) = name.split_once('.')?;
    if ext.is_empty() || !ext.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let digits = stem.strip_prefix("0x")?;
    if !digits
        .bytes()
        .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return None;
    }
    let h = u64::from_str_radix(digits, 16).ok()?;
    (format!("{h:#010x}") == stem).then_some(h)
}

/// The names `extract` writes an archive's entries under: a named entry's name, an unnamed one's
/// [`hash_file_name`]. An unnamed entry's name that another entry has is refused.
fn entry_file_names(entries: &[(EntryKey, Vec<u8>)]) -> Result<Vec<String>, String> {
    let names: Vec<String> = entries
        .iter()
        .map(|(k, d)| match k {
            EntryKey::Name(n) => n.clone(),
            EntryKey::Hash(h) => hash_file_name(*h, d),
        })
        .collect();
    let mut count: HashMap<&str, usize> = HashMap::new();
    for n in &names {
        *count.entry(n.as_str()).or_default() += 1;
    }
    for ((k, _), n) in entries.iter().zip(&names) {
        if let EntryKey::Hash(h) = k {
            if count[n.as_str()] > 1 {
                return Err(format!(
                    "the entry stored without a name whose hash is {h:#010x} would be extracted as {n:?}, which \
                     another entry of the archive is extracted as too"
                ));
            }
        }
    }
    Ok(names)
}

/// Why writing `rel` under `root` (an existing folder) is refused, if it is: every component that exists must be
/// a folder that is not a symbolic link, and the last, if it exists, a regular file.
fn existing_path_problem(root: &Path, rel: &Path) -> Option<String> {
    let n = rel.components().count();
    let mut p = root.to_path_buf();
    for (i, c) in rel.components().enumerate() {
        p.push(c);
        let m = match std::fs::symlink_metadata(&p) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => return Some(format!("cannot read {}: {e}", p.display())),
        };
        let ft = m.file_type();
        if ft.is_symlink() {
            return Some(format!(
                "{} is a symbolic link, and extract writes nothing through links (a link that leads outside the \
                 folder would have files written there)",
                p.display()
            ));
        }
        let last = i + 1 == n;
        if last && !ft.is_file() {
            return Some(format!("{} exists and is not a regular file", p.display()));
        }
        if !last && !ft.is_dir() {
            return Some(format!("{} exists and is not a folder", p.display()));
        }
    }
    None
}

/// `binspec extract ARCHIVE -o DIR`. Every entry is checked before anything is written: its name, and, in a
/// folder that exists, every path component on the way to its file; one refused entry refuses the archive.
pub fn extract(ctx: &mut Ctx<'_>, archive: &Path, dir: &Path, dds: bool) -> Result<(), CliError> {
    let (input, f) = load_binary(ctx, archive)?;
    if let Some(t) = crate::textures::extract_files(f.id(), &input.data, dds) {
        let t = t.map_err(|e| CliError::file(archive, e))?;
        let (names, data): (Vec<String>, Vec<Vec<u8>>) = t.files.into_iter().unzip();
        write_extracted(ctx, archive, dir, &names, &data, None)?;
        if !t.problems.is_empty() {
            return Err(CliError::file(
                archive,
                format!(
                    "{} textures were not extracted:\n  {}",
                    t.problems.len(),
                    t.problems.join("\n  ")
                ),
            ));
        }
        return Ok(());
    }
    let (entries, settings) = f
        .extract(&input.data)
        .map_err(|e| CliError::file(archive, e))?
        .ok_or_else(|| CliError::file(archive, format!("{} is not an archive format", f.id())))?;
    let names = entry_file_names(&entries).map_err(|e| CliError::file(archive, e))?;
    let data: Vec<Vec<u8>> = entries.into_iter().map(|(_, d)| d).collect();
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
    write_extracted(ctx, archive, dir, &names, &data, Some(text))
}

/// Writes the files of `archive` under `dir`, and its settings document where it has one. Every name and every
/// existing path on the way is checked before anything is written.
fn write_extracted(
    ctx: &mut Ctx<'_>,
    archive: &Path,
    dir: &Path,
    names: &[String],
    data: &[Vec<u8>],
    settings: Option<String>,
) -> Result<(), CliError> {
    let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let paths = plan_extract(&name_refs).map_err(|e| CliError::file(archive, e))?;

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
        let refuse = |name: &str, why: String| {
            CliError::file(
                archive,
                format!(
                    "refusing to extract the file {name:?} into {}: {why}",
                    dir.display()
                ),
            )
        };
        for (name, rel) in names.iter().zip(&paths) {
            if let Some(why) = existing_path_problem(dir, rel) {
                return Err(refuse(name, why));
            }
            if !ctx.force && files::same_file(&dir.join(rel), archive) {
                return Err(CliError::Usage(format!(
                    "refusing to overwrite the input file {} (pass --force to do it anyway)",
                    archive.display()
                )));
            }
        }
        if settings.is_some() {
            if let Some(why) = existing_path_problem(dir, Path::new(SETTINGS_FILE)) {
                return Err(refuse(SETTINGS_FILE, why));
            }
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| CliError::file(dir, e))?;
    let root = dir.canonicalize().map_err(|e| CliError::file(dir, e))?;

    let cannot = |name: &str, e: &dyn std::fmt::Display| {
        CliError::file(archive, format!("cannot extract the file {name:?}: {e}"))
    };
    let mut cleaned = HashSet::new();
    for ((name, data), rel) in names.iter().zip(data).zip(&paths) {
        let out = root.join(rel);
        let parent = out.parent().unwrap_or(&root);
        std::fs::create_dir_all(parent)
            .map_err(|e| cannot(name, &format!("cannot create {}: {e}", parent.display())))?;
        // Checked above; checked again in case the folder changed since.
        let real_parent = parent.canonicalize().map_err(|e| cannot(name, &e))?;
        if !real_parent.starts_with(&root) {
            return Err(cannot(
                name,
                &format!("{} leads outside {}", parent.display(), dir.display()),
            ));
        }
        if cleaned.insert(real_parent) {
            files::remove_stale_temporaries(parent);
        }
        files::replace_file(&out, data, false).map_err(|e| cannot(name, &e))?;
    }

    if let Some(text) = settings {
        files::replace_file(
            &root.join(SETTINGS_FILE),
            text.as_bytes(),
            !cleaned.contains(&root),
        )
        .map_err(|e| cannot(SETTINGS_FILE, &e))?;
    }
    let _ = writeln!(
        ctx.err,
        "extracted {} files to {}",
        names.len(),
        dir.display()
    );
    Ok(())
}

/// The files under `dir` (without the settings file at its top) as `/`-separated names, sorted. A symbolic link,
/// anything that is not a file or a folder, and a name that `extract` would refuse are errors that name the file.
pub fn collect_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, CliError> {
    let list = files::walk_regular(dir)?;
    let refuse = |path: &Path, why: &str| {
        CliError::Fail(format!(
            "refusing to pack {}: the file {} has a name that extract would refuse: {why}",
            dir.display(),
            path.display()
        ))
    };
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
                        .ok_or_else(|| refuse(&path, "it is not UTF-8"))?
                        .to_string(),
                ),
                _ => return Err(refuse(&path, "it is not a plain path under the folder")),
            }
        }
        let name = parts.join("/");
        if name != SETTINGS_FILE {
            name_problem(&name).map_err(|why| refuse(&path, &why))?;
            out.push((name, path));
        }
    }
    out.sort();
    Ok(out)
}

/// The key of each file for `pack`: an entry of the settings named as the file is that entry; else a file named
/// as `extract` names an entry stored without a name (`0x%08x.EXT`, at the top of the folder), whose hash such an
/// entry of the settings has, is that entry; else the file is a new named entry. A named entry is never taken for
/// an unnamed one: its name is in the settings.
fn pack_keys(
    dir: &Path,
    settings_keys: &[EntryKey],
    files: Vec<(String, PathBuf)>,
) -> Result<Vec<(EntryKey, PathBuf)>, CliError> {
    let named: HashSet<&str> = settings_keys
        .iter()
        .filter_map(|k| match k {
            EntryKey::Name(n) => Some(n.as_str()),
            EntryKey::Hash(_) => None,
        })
        .collect();
    let unnamed: HashSet<u64> = settings_keys
        .iter()
        .filter_map(|k| match k {
            EntryKey::Hash(h) => Some(*h),
            EntryKey::Name(_) => None,
        })
        .collect();
    let mut taken: HashMap<u64, PathBuf> = HashMap::new();
    let mut out = Vec::with_capacity(files.len());
    for (name, path) in files {
        let hash = parse_hash_file_name(&name).filter(|h| unnamed.contains(h));
        let key = match hash {
            Some(h) if !named.contains(name.as_str()) => {
                if let Some(prev) = taken.insert(h, path.clone()) {
                    return Err(CliError::Fail(format!(
                        "cannot pack {}: {} and {} are both the file of the entry stored without a name whose \
                         hash is {h:#010x} (keep one)",
                        dir.display(),
                        prev.display(),
                        path.display()
                    )));
                }
                EntryKey::Hash(h)
            }
            _ => EntryKey::Name(name),
        };
        out.push((key, path));
    }
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
    if !ctx.force && !files::is_stdout(output) {
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
    // First the folder's files: a link (the settings file too) is refused before anything is read.
    let listed = collect_files(dir)?;
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
    let settings_keys = f
        .archive_keys(&settings)
        .map_err(|e| CliError::file(&settings_path, e))?
        .ok_or_else(|| CliError::file(dir, format!("{} is not an archive format", f.id())))?;
    let mut list = Vec::new();
    for (key, path) in pack_keys(dir, &settings_keys, listed)? {
        let data = files::read(&path)?;
        list.push((key, data));
    }
    let n = list.len();
    if compress.compress.is_none() {
        // Written as it is made: the files go to the output from the model, with no copy of the whole archive in
        // memory (a failure of the model comes before any byte, and a file is replaced only once it is whole).
        note_uncompressed(ctx, &settings_path, &header);
        let mut list = Some(list);
        files::write_output_with(ctx.out, output, &mut |w| {
            let files = list.take().unwrap_or_default();
            f.pack_to(&settings, files, w)
                .map_err(|e| files::WriteFail::of_model(e, dir))
        })?;
    } else {
        let bytes = f
            .pack(&settings, list)
            .map_err(|e| CliError::file(dir, e))?;
        let bytes = compress_as_asked(ctx, &settings_path, bytes, compress, &header)?;
        files::write_output(ctx.out, output, &bytes)?;
    }
    let _ = writeln!(
        ctx.err,
        "packed {n} files into {}",
        files::output_name(output)
    );
    Ok(())
}
