//! Reading inputs (decompressing them), writing outputs atomically, walking folders, and the comment lines at
//! the top of documents.

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

/// Undoes Yaz0 or zstd compression of bytes read from `path`, with the default limit.
pub fn decompress(path: &Path, raw: Vec<u8>) -> Result<Input, CliError> {
    decompress_limited(path, raw, Limits::default())
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
                    let limited = matches!(e.kind, binspec_runtime::ErrorKind::Limit { .. });
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

/// Compresses output bytes as asked.
pub fn compress_output(
    data: Vec<u8>,
    c: Option<Compression>,
    yaz0_alignment: u32,
) -> Result<Vec<u8>, CliError> {
    let r = match c {
        None | Some(Compression::None) => return Ok(data),
        Some(Compression::Yaz0) => compress::compress_yaz0(&data, yaz0_alignment),
        Some(Compression::Zstd) => compress::compress(&data, Compression::Zstd),
    };
    r.map_err(|e| CliError::Fail(format!("cannot compress the output: {e}")))
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
    if force {
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

/// Writes `data` to `path` through a temporary file in the same folder, so that `path` is either left as it
/// was or holds all of `data`.
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), CliError> {
    let fail =
        |e: &dyn std::fmt::Display| CliError::Fail(format!("cannot write {}: {e}", path.display()));
    if path.is_dir() {
        return Err(fail(&"it is a folder"));
    }
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
    let mut b = tempfile::Builder::new();
    b.prefix(".binspec-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Like any new file (the umask applies), not the 0600 of a temporary file.
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = b.tempfile_in(dir).map_err(|e| fail(&e))?;
    tmp.write_all(data).map_err(|e| fail(&e))?;
    tmp.flush().map_err(|e| fail(&e))?;
    if let Ok(meta) = std::fs::metadata(path) {
        // Keep the permissions of a file being replaced.
        let _ = tmp.as_file().set_permissions(meta.permissions());
    }
    tmp.persist(path).map_err(|e| fail(&e.error))?;
    Ok(())
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
