//! Reading inputs (decompressing them, compiling schemas), writing outputs atomically, walking folders, and the
//! comment lines at the top of documents.

use std::io::Write;
use std::path::{Path, PathBuf};

use binspec_runtime::compress::{self, Compression};

use crate::CliError;

/// A file read from disk, decompressed.
#[derive(Debug)]
pub struct Input {
    pub path: PathBuf,
    /// The bytes, decompressed.
    pub data: Vec<u8>,
    /// How the file on disk was compressed.
    pub compression: Compression,
    /// The alignment in the Yaz0 header (0 otherwise).
    pub yaz0_alignment: u32,
    /// Size of the file on disk.
    pub disk_len: u64,
}

impl Input {
    /// The document comment that records the compression, if any (`# compression: yaz0, alignment 0x80`).
    pub fn compression_comment(&self) -> Option<String> {
        compression_comment(self.compression, self.yaz0_alignment)
    }
}

/// The most bytes read from one input by default (`--max-size` changes it): a bound for inputs with no end, such
/// as `/dev/zero`.
pub const MAX_READ: u64 = 512 << 20;

/// What `--max-size` says: the most bytes to read from one file and to decompress it to (`None`: [`MAX_READ`] and
/// [`compress::default_limit`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    pub max_size: Option<u64>,
}

impl Limits {
    fn read(self) -> u64 {
        self.max_size.unwrap_or(MAX_READ)
    }
    /// The most bytes `compressed_len` compressed bytes may decompress to.
    pub fn decompressed_limit(self, compressed_len: usize) -> u64 {
        self.max_size
            .unwrap_or_else(|| compress::default_limit(compressed_len))
    }
}

/// The hint added to a size limit's message.
const RAISE: &str = "pass --max-size BYTES to allow more";

/// Reads a file (at most [`MAX_READ`] bytes).
pub fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    read_limited(path, Limits::default())
}

/// Reads a file, refusing one of more bytes than the limit (a regular file before reading it; anything else, such
/// as `/dev/zero` or a pipe, once that many bytes have come).
pub fn read_limited(path: &Path, limits: Limits) -> Result<Vec<u8>, CliError> {
    use std::io::Read as _;
    let limit = limits.read();
    let file = std::fs::File::open(path).map_err(|e| CliError::file(path, e))?;
    let meta = file.metadata().map_err(|e| CliError::file(path, e))?;
    if meta.is_dir() {
        return Err(CliError::file(path, "it is a folder, not a file"));
    }
    if meta.is_file() && meta.len() > limit {
        return Err(CliError::file(
            path,
            format!(
                "the file has {} bytes, more than the limit of {limit}; {RAISE}",
                meta.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(if meta.is_file() {
        meta.len() as usize
    } else {
        0
    });
    file.take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| CliError::file(path, e))?;
    if out.len() as u64 > limit {
        return Err(CliError::file(
            path,
            format!("more than {limit} bytes came from it (an input with no end?); {RAISE}"),
        ));
    }
    Ok(out)
}

/// Reads a file and undoes Yaz0 or zstd compression, with the default limits.
pub fn load(path: &Path) -> Result<Input, CliError> {
    load_limited(path, Limits::default())
}

/// Reads a file and undoes Yaz0 or zstd compression, within `limits`.
pub fn load_limited(path: &Path, limits: Limits) -> Result<Input, CliError> {
    let raw = read_limited(path, limits)?;
    decompress_limited(path, raw, limits)
}

/// Undoes Yaz0 or zstd compression of bytes read from `path`, within `limits`.
pub fn decompress_limited(path: &Path, raw: Vec<u8>, limits: Limits) -> Result<Input, CliError> {
    let disk_len = raw.len() as u64;
    let compression = compress::detect(&raw);
    let yaz0_alignment = compress::yaz0_header(&raw).map_or(0, |h| h.alignment);
    let data = match compression {
        Compression::None => raw,
        _ => {
            compress::decompress_limited(&raw, limits.decompressed_limit(raw.len()))
                .map_err(|e| {
                    let limited = matches!(e.kind(), binspec_runtime::ErrorKind::Limit { .. });
                    let msg = e.to_string();
                    CliError::file(
                        path,
                        if limited {
                            format!("{msg}; {RAISE}")
                        } else {
                            msg
                        },
                    )
                })?
                .0
        }
    };
    Ok(Input {
        path: path.to_path_buf(),
        data,
        compression,
        yaz0_alignment,
        disk_len,
    })
}

/// Compiles one schema; its diagnostics (file, YAML path, line:column) make the error.
pub fn compile_schema(path: &Path) -> Result<binspec_codegen::ir::Module, CliError> {
    compile_schema_fully(path).map(|c| c.module)
}

/// Compiles a schema file to its IR and generated Rust, or the error listing its diagnostics.
pub fn compile_schema_fully(path: &Path) -> Result<binspec_codegen::Compiled, CliError> {
    binspec_codegen::compile_file(path).map_err(|d| {
        let text: Vec<String> = d.iter().map(|x| x.to_string()).collect();
        CliError::file(path, text.join("\n"))
    })
}

/// Compresses output bytes as asked.
pub fn compress_output(
    data: Vec<u8>,
    c: Option<Compression>,
    yaz0_alignment: u32,
) -> Result<Vec<u8>, CliError> {
    let packing = match c {
        None | Some(Compression::None) => return Ok(data),
        Some(Compression::Yaz0) => binspec_runtime::Packing::Yaz0 {
            alignment: yaz0_alignment,
        },
        Some(Compression::Zstd) => binspec_runtime::Packing::Zstd {
            level: compress::ZSTD_LEVEL,
        },
    };
    packing
        .pack(&data)
        .map_err(|e| CliError::Fail(format!("cannot compress the output: {e}")))
}

/// Whether two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Refuses to write `output` over one of `inputs` unless `force`.
pub fn guard_overwrite(output: &Path, inputs: &[&Path], force: bool) -> Result<(), CliError> {
    if force || is_stdout(output) {
        return Ok(());
    }
    if let Some(i) = inputs.iter().find(|i| same_file(output, i)) {
        return Err(CliError::Usage(format!(
            "refusing to overwrite the input file {} (pass --force to do it anyway)",
            i.display()
        )));
    }
    Ok(())
}

/// Whether an output path is `-`, standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How messages name an output: its path, or "standard output" for `-`.
pub fn output_name(path: &Path) -> String {
    if is_stdout(path) {
        "standard output".into()
    } else {
        path.display().to_string()
    }
}

/// Why writing an output's bytes stopped: the output failed, or what makes the bytes did.
pub enum WriteFail {
    /// The output (a file, standard output) failed.
    Io(std::io::Error),
    /// What makes the bytes failed, before they were whole.
    Cli(CliError),
}

impl WriteFail {
    /// A failure of writing a model made from `input`: the output's, or the model's (named with `input`).
    pub fn of_model(e: binspec_runtime::Error, input: &Path) -> Self {
        match e.to_io() {
            Some(io) => WriteFail::Io(io),
            None => WriteFail::Cli(CliError::file(input, e)),
        }
    }
}

/// What writes an output's bytes to where they go.
pub type WriteBytes<'a> = dyn FnMut(&mut dyn Write) -> Result<(), WriteFail> + 'a;

/// The [`WriteBytes`] of bytes made already.
fn all_of(data: &[u8]) -> impl FnMut(&mut dyn Write) -> Result<(), WriteFail> + '_ {
    |w| w.write_all(data).map_err(WriteFail::Io)
}

/// Writes an output: `-` to `out` (standard output), anything else as [`write_atomic`] does.
pub fn write_output(out: &mut dyn Write, path: &Path, data: &[u8]) -> Result<(), CliError> {
    write_output_with(out, path, &mut all_of(data))
}

/// [`write_output`] of the bytes that `write` writes: to standard output as they come, to a file through a
/// temporary file that replaces it only once `write` succeeded (so that an output written as it is made, an
/// archive's files streamed from the model, is never left half-written).
pub fn write_output_with(
    out: &mut dyn Write,
    path: &Path,
    write: &mut WriteBytes<'_>,
) -> Result<(), CliError> {
    if is_stdout(path) {
        write(out).map_err(|e| match e {
            WriteFail::Io(e) => CliError::out(e),
            WriteFail::Cli(e) => e,
        })?;
        return out.flush().map_err(CliError::out);
    }
    write_atomic_with(path, write)
}

/// Writes `data` to `path`, never replacing anything but a regular file:
/// - a regular file (or a missing one) is replaced through a temporary file in the same folder, so that it is
///   either left as it was or holds all of `data`;
/// - a symbolic link to a regular file is followed: its target is replaced so (the temporary file is made in the
///   target's folder) and the link stays a link;
/// - a link to nothing is refused (binspec creates no file through a link);
/// - anything else (a FIFO, a device such as /dev/null, /dev/stdout and /proc/self/fd/N) is written to in place,
///   and a regular file reached through /dev/stdout, /dev/stderr, /dev/fd/N or /proc/PID/fd/N is appended to
///   (it is an open file of the shell's, as in `binspec decode x -o /dev/stdout >> log`).
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), CliError> {
    write_atomic_with(path, &mut all_of(data))
}

/// [`write_atomic`] of the bytes that `write` writes.
pub fn write_atomic_with(path: &Path, write: &mut WriteBytes<'_>) -> Result<(), CliError> {
    let fail =
        |e: &dyn std::fmt::Display| CliError::Fail(format!("cannot write {}: {e}", path.display()));
    let is_link = match std::fs::symlink_metadata(path) {
        Ok(m) => m.file_type().is_symlink(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return replace_file_with(path, write, true);
        }
        Err(e) => return Err(fail(&e)),
    };
    let target = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if is_link && e.kind() == std::io::ErrorKind::NotFound => {
            let to = std::fs::read_link(path).unwrap_or_default();
            return Err(fail(&format!(
                "it is a symbolic link to {}, which does not exist (binspec creates no file through a link: \
                 remove the link, or create what it points to first)",
                to.display()
            )));
        }
        Err(e) => return Err(fail(&e)),
    };
    if target.is_dir() {
        return Err(fail(&"it is a folder"));
    }
    let open_file = reached_through_open_file(path);
    if target.is_file() && !open_file {
        let real = if is_link {
            path.canonicalize().map_err(|e| fail(&e))?
        } else {
            path.to_path_buf()
        };
        return replace_file_with(&real, write, true);
    }
    let f = std::fs::OpenOptions::new()
        .write(true)
        .append(target.is_file())
        .open(path)
        .map_err(|e| fail(&e))?;
    let mut w = std::io::BufWriter::new(f);
    write(&mut w).map_err(|e| write_fail(e, &fail))?;
    w.flush().map_err(|e| fail(&e))
}

/// A [`WriteFail`] as the error of writing to a path (`fail` words an output's error).
fn write_fail(e: WriteFail, fail: &dyn Fn(&dyn std::fmt::Display) -> CliError) -> CliError {
    match e {
        WriteFail::Io(e) => fail(&e),
        WriteFail::Cli(e) => e,
    }
}

/// Whether `path`, or a link on the way from it, names a file that a process has open (/dev/stdout, /dev/stderr,
/// /dev/fd/N, /proc/PID/fd/N): such a path is written to in place.
fn reached_through_open_file(path: &Path) -> bool {
    if !cfg!(unix) {
        return false;
    }
    let Ok(cwd) = std::env::current_dir() else {
        return false;
    };
    let mut p = cwd.join(path);
    for _ in 0..40 {
        let s = p.to_string_lossy();
        let parts: Vec<&str> = s.split('/').collect();
        if s == "/dev/stdout"
            || s == "/dev/stderr"
            || s.starts_with("/dev/fd/")
            || (parts.len() >= 5 && parts[1] == "proc" && parts[3] == "fd")
        {
            return true;
        }
        match std::fs::read_link(&p) {
            Ok(to) => p = p.parent().unwrap_or(Path::new("/")).join(to),
            Err(_) => return false,
        }
    }
    false
}

/// Replaces the regular file `path` (a link at `path` is itself replaced, not followed) through a temporary
/// file in its folder, after removing stale temporary files there when `clean`.
pub fn replace_file(path: &Path, data: &[u8], clean: bool) -> Result<(), CliError> {
    replace_file_with(path, &mut all_of(data), clean)
}

/// [`replace_file`] with the bytes that `write` writes: the temporary file is removed if it fails.
pub fn replace_file_with(
    path: &Path,
    write: &mut WriteBytes<'_>,
    clean: bool,
) -> Result<(), CliError> {
    let fail =
        |e: &dyn std::fmt::Display| CliError::Fail(format!("cannot write {}: {e}", path.display()));
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(fail(&format!(
            "the folder {} does not exist",
            dir.display()
        )));
    }
    if clean {
        remove_stale_temporaries(dir);
    }
    let mut b = tempfile::Builder::new();
    // The writer's pid in the name tells a later write whether the file is still being written.
    let prefix = format!("{TEMP_PREFIX}{}-", std::process::id());
    b.prefix(&prefix).suffix(TEMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Like any new file (the umask applies), not the 0600 of a temporary file.
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = b.tempfile_in(dir).map_err(|e| fail(&e))?;
    {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        write(&mut w).map_err(|e| write_fail(e, &fail))?;
        w.flush().map_err(|e| fail(&e))?;
    }
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if meta.is_file() {
            // Keep the permissions of a file being replaced.
            let _ = tmp.as_file().set_permissions(meta.permissions());
        }
    }
    tmp.persist(path).map_err(|e| fail(&e.error))?;
    Ok(())
}

/// Temporary files are `.binspec-PID-RANDOM.tmp` (older binspecs: `.binspec-RANDOM.tmp`).
const TEMP_PREFIX: &str = ".binspec-";
const TEMP_SUFFIX: &str = ".tmp";

/// A temporary file not written to for this long is left over from a write that was killed.
pub const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes the temporary files that killed writes left in `dir`: those whose writing process is gone (where the
/// system tells: Linux), and those not written to for [`STALE_AFTER`]. Errors are ignored.
pub fn remove_stale_temporaries(dir: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name();
        let Some(middle) = name
            .to_str()
            .and_then(|n| n.strip_prefix(TEMP_PREFIX))
            .and_then(|n| n.strip_suffix(TEMP_SUFFIX))
        else {
            continue;
        };
        // Regular files only (the type of the entry itself: links are not followed).
        if !e.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let pid = middle
            .split_once('-')
            .and_then(|(p, _)| p.parse::<u32>().ok());
        let writer_gone = pid.is_some_and(process_gone);
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_AFTER);
        if writer_gone || old {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Whether process `pid` is known to have exited (false where the system does not tell).
fn process_gone(pid: u32) -> bool {
    if !cfg!(target_os = "linux") || pid == std::process::id() {
        return false;
    }
    Path::new("/proc").is_dir() && !Path::new("/proc").join(pid.to_string()).exists()
}

/// The files under `dir`, recursively, sorted. Symbolic links to files are followed; to folders, not.
pub fn walk(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    walk_into(dir, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk_into(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries = std::fs::read_dir(dir)?.collect::<std::io::Result<Vec<_>>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let ft = e.file_type()?;
        if ft.is_dir() {
            walk_into(&path, out)?;
        } else if ft.is_file() || (ft.is_symlink() && path.is_file()) {
            out.push(path);
        }
    }
    Ok(())
}

/// The regular files under `dir`, recursively, sorted, for `pack`: a symbolic link (to anything, or to nothing)
/// or anything else that is neither a file nor a folder is an error that names it and `dir`. (`dir` itself may be
/// a link: the user named it.)
pub fn walk_regular(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    let io = |p: &Path, e: std::io::Error| {
        CliError::Fail(format!(
            "cannot pack {}: cannot read {}: {e}",
            dir.display(),
            p.display()
        ))
    };
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).map_err(|e| io(&d, e))? {
            let e = e.map_err(|e| io(&d, e))?;
            let path = e.path();
            let ft = e.file_type().map_err(|e| io(&path, e))?;
            if ft.is_dir() {
                stack.push(path);
            } else if ft.is_file() {
                out.push(path);
            } else if ft.is_symlink() {
                let to = std::fs::read_link(&path).unwrap_or_default();
                return Err(CliError::Fail(format!(
                    "refusing to pack {}: {} is a symbolic link (to {}); pack reads only the files and folders \
                     in the folder (put a copy of what the link points to in its place)",
                    dir.display(),
                    path.display(),
                    to.display()
                )));
            } else {
                return Err(CliError::Fail(format!(
                    "refusing to pack {}: {} is neither a file nor a folder",
                    dir.display(),
                    path.display()
                )));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The first line of a YAML document.
pub fn format_comment(id: &str) -> String {
    format!("# binspec: {id}")
}

/// A comment line that records how the original file was compressed.
pub fn compression_comment(c: Compression, yaz0_alignment: u32) -> Option<String> {
    match c {
        Compression::None => None,
        Compression::Yaz0 => Some(format!(
            "# compression: yaz0, alignment {yaz0_alignment:#x} (encode with --compress yaz0 to compress again)"
        )),
        Compression::Zstd => Some("# compression: zstd (encode with --compress zstd to compress again)".into()),
    }
}

/// What the comment lines at the top of a document say.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct DocHeader {
    /// `# binspec: ID`.
    pub format: Option<String>,
    /// `# compression: KIND[, alignment N]`.
    pub compression: Option<Compression>,
    pub yaz0_alignment: Option<u32>,
}

/// Reads the comment lines before the first line that is not a comment (blank lines are skipped).
pub fn doc_header(text: &str) -> DocHeader {
    let mut h = DocHeader::default();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some(c) = line.strip_prefix('#') else {
            break;
        };
        let c = c.trim();
        if let Some(id) = c.strip_prefix("binspec:") {
            let id = id.trim();
            if !id.is_empty() && h.format.is_none() {
                h.format = Some(id.to_string());
            }
        } else if let Some(rest) = c.strip_prefix("compression:") {
            let mut words = rest
                .split(|ch: char| ch == ',' || ch.is_whitespace())
                .filter(|w| !w.is_empty());
            h.compression = match words.next() {
                Some("yaz0") => Some(Compression::Yaz0),
                Some("zstd") => Some(Compression::Zstd),
                _ => None,
            };
            if let Some(pos) = rest.find("alignment") {
                let n = rest[pos + "alignment".len()..]
                    .split_whitespace()
                    .next()
                    .unwrap_or("");
                h.yaz0_alignment = crate::args::parse_u32(n).ok();
            }
        }
    }
    h
}

/// Whether a document is JSON: its name ends in .json or its first character is `{`.
pub fn is_json_doc(path: &Path, text: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        || text.trim_start().starts_with('{')
}
