//! Compression wrappers that game files come in (placeholder: detection only; see the compress task).

/// How a file is compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Yaz0,
    Zstd,
}

/// Looks at the magic bytes.
pub fn detect(data: &[u8]) -> Compression {
    if data.starts_with(b"Yaz0") {
        Compression::Yaz0
    } else if data.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Compression::Zstd
    } else {
        Compression::None
    }
}
