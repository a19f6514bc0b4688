//! Finding the format of a file: `--format`, magic bytes, file extensions.

use std::path::Path;

use binspec_runtime::DynFormat;

use crate::{CliError, Registry};

/// The known format ids, for messages.
pub fn known(registry: Registry<'_>) -> String {
    if registry.is_empty() {
        "(none: this binspec was built without formats)".into()
    } else {
        registry
            .iter()
            .map(|f| f.id())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The format with this id (`--format`).
pub fn by_id(registry: Registry<'_>, id: &str) -> Result<&'static dyn DynFormat, CliError> {
    registry
        .iter()
        .copied()
        .find(|f| f.id().eq_ignore_ascii_case(id))
        .ok_or_else(|| {
            CliError::Usage(format!(
                "unknown format `{id}` (known formats: {})",
                known(registry)
            ))
        })
}

/// The first format whose magic matches.
pub fn sniff(registry: Registry<'_>, data: &[u8]) -> Option<&'static dyn DynFormat> {
    registry.iter().copied().find(|f| f.sniff(data))
}

/// The format whose extensions include the file's (`x.pack.zs`: `zs` first, then `pack`), when exactly one
/// format uses that extension ([`with_extension`] gives them all).
pub fn by_extension(registry: Registry<'_>, path: &Path) -> Option<&'static dyn DynFormat> {
    match with_extension(registry, path).1[..] {
        [f] => Some(f),
        _ => None,
    }
}

/// Every format whose extensions include the file's (`x.pack.zs`: `zs` first, then `pack`); more than one where
/// formats share an extension (`.panim`), which then says nothing about the format. With the extension matched.
pub fn with_extension<'p>(
    registry: Registry<'_>,
    path: &'p Path,
) -> (&'p str, Vec<&'static dyn DynFormat>) {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return ("", Vec::new());
    };
    let mut parts = name.split('.').skip(1).collect::<Vec<_>>();
    parts.reverse();
    for (i, ext) in parts.iter().enumerate() {
        let found: Vec<_> = registry
            .iter()
            .copied()
            .filter(|f| f.extensions().iter().any(|e| e.eq_ignore_ascii_case(ext)))
            .collect();
        if !found.is_empty() {
            return (ext, found);
        }
        // Look past a compression extension only.
        if !(i == 0 && is_compression_extension(ext)) {
            break;
        }
    }
    ("", Vec::new())
}

/// `zs`, `zst`, `zstd`, `yaz0`.
fn is_compression_extension(ext: &str) -> bool {
    matches!(
        ext.to_ascii_lowercase().as_str(),
        "zs" | "zst" | "zstd" | "yaz0"
    )
}

/// The format of a binary file: `--format`, else its magic bytes.
pub fn of_binary(
    registry: Registry<'_>,
    forced: Option<&str>,
    path: &Path,
    data: &[u8],
) -> Result<&'static dyn DynFormat, CliError> {
    if let Some(id) = forced {
        return by_id(registry, id);
    }
    sniff(registry, data).ok_or_else(|| {
        CliError::file(
            path,
            format!(
                "not a known format (starts with {}); known formats: {}; pass --format ID to choose one",
                describe_magic(data),
                known(registry)
            ),
        )
    })
}

/// The first bytes of a file, for messages: `"SARC" (53 41 52 43)`.
pub fn describe_magic(data: &[u8]) -> String {
    if data.is_empty() {
        return "nothing: the file is empty".into();
    }
    let head = &data[..data.len().min(4)];
    let hex = head
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ");
    let text: String = head
        .iter()
        .map(|&b| if b.is_ascii_graphic() { b as char } else { '.' })
        .collect();
    format!("{text:?} ({hex})")
}
