//! Errors that name the field path and the byte offset.
//!
//! The path is built innermost-first while an error travels up through the generated readers (each level adds its
//! own segment with [`ResultExt::at`] or [`ResultExt::at_index`]), so the success path pays nothing for it.

use std::fmt;

/// One step of a field path, as [`Error::segments`] gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Seg {
    /// A field or instance, by its schema id (`sfat`).
    Field(&'static str),
    /// An element of a repeated field (`[3]`).
    Index(usize),
    /// An entry of a map-like model, by its key (`["name"]`).
    Key(String),
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A read of `need` bytes at `at` runs past the end of a stream of `size` bytes.
    Eof {
        /// Where the read starts, from the file's start.
        at: u64,
        /// How many bytes it needs.
        need: u64,
        /// Where the stream ends, from the file's start (the file's size, for the whole file).
        size: u64,
        /// Whether the stream is the whole file (or else a substream).
        root: bool,
    },
    /// A position (from `pos`, an offset field, a seek) lies past the end of the stream.
    PastEnd {
        /// The position, from the file's start.
        at: u64,
        /// Where the stream ends, from the file's start (the file's size, for the whole file).
        size: u64,
        /// Whether the stream is the whole file (or else a substream).
        root: bool,
    },
    /// Fixed bytes (`contents`) differ.
    Contents {
        /// The bytes the schema fixes.
        expected: Vec<u8>,
        /// The bytes in the file.
        found: Vec<u8>,
    },
    /// A `valid` check failed.
    Invalid {
        /// What is wrong, without path or offset.
        message: String,
    },
    /// A limit that protects against hostile input (nesting depth, element counts).
    Limit {
        /// Which limit, without path or offset.
        message: String,
    },
    /// The model cannot be written as it is.
    Write {
        /// Why, without the path.
        message: String,
    },
    /// Text (YAML/JSON) that does not describe a model.
    Text {
        /// Why, with the line and column where known.
        message: String,
    },
    /// Writing the output failed ([`Format::write_to`](crate::Format::write_to)).
    Io {
        /// What the output said.
        message: String,
        /// Its kind.
        kind: std::io::ErrorKind,
    },
    /// Anything else.
    Other {
        /// What happened.
        message: String,
    },
}

/// An error with the path of the field where it happened and, for reads, the byte offset: read them with
/// [`kind`](Error::kind), [`offset`](Error::offset), [`path`](Error::path) and [`segments`](Error::segments).
/// Its `Display` is `path: message`. The error itself is one pointer, so that a `Result` that readers pass up
/// costs no more than its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(Box<ErrorInner>);

/// What an [`Error`] holds.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ErrorInner {
    /// Innermost segment first.
    rev_path: Vec<Seg>,
    root: Option<&'static str>,
    /// Absolute byte offset in the file, where one applies.
    offset: Option<u64>,
    kind: ErrorKind,
}

/// `Result` with binspec's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error of `kind`, at `offset` in the file where one applies, with an empty path.
    #[cold]
    pub fn new(kind: ErrorKind, offset: Option<u64>) -> Self {
        Error(Box::new(ErrorInner {
            rev_path: Vec::new(),
            root: None,
            offset,
            kind,
        }))
    }
    /// A failed check ([`ErrorKind::Invalid`]) of the bytes at `offset`.
    pub fn invalid(offset: u64, message: impl Into<String>) -> Self {
        Self::new(
            ErrorKind::Invalid {
                message: message.into(),
            },
            Some(offset),
        )
    }
    /// A failure of the output being written to ([`ErrorKind::Io`]).
    #[cold]
    pub fn io(e: std::io::Error) -> Self {
        Self::new(
            ErrorKind::Io {
                message: e.to_string(),
                kind: e.kind(),
            },
            None,
        )
    }
    /// The [`std::io::Error`] of an [`ErrorKind::Io`] (its kind and message), for code that passes output errors
    /// on as such; `None` for any other kind.
    pub fn to_io(&self) -> Option<std::io::Error> {
        match self.kind() {
            ErrorKind::Io { message, kind } => Some(std::io::Error::new(*kind, message.clone())),
            _ => None,
        }
    }
    /// A limit against hostile input ([`ErrorKind::Limit`]) reached at `offset`.
    pub fn limit(offset: u64, message: impl Into<String>) -> Self {
        Self::new(
            ErrorKind::Limit {
                message: message.into(),
            },
            Some(offset),
        )
    }
    /// A model that cannot be written ([`ErrorKind::Write`]).
    pub fn write(message: impl Into<String>) -> Self {
        Self::new(
            ErrorKind::Write {
                message: message.into(),
            },
            None,
        )
    }
    /// Text that does not describe a model ([`ErrorKind::Text`]).
    pub fn text(message: impl Into<String>) -> Self {
        Self::new(
            ErrorKind::Text {
                message: message.into(),
            },
            None,
        )
    }
    /// Any other failure ([`ErrorKind::Other`]).
    pub fn other(message: impl Into<String>) -> Self {
        Self::new(
            ErrorKind::Other {
                message: message.into(),
            },
            None,
        )
    }
    /// Adds an outer field segment.
    pub fn at(mut self, field: &'static str) -> Self {
        self.0.rev_path.push(Seg::Field(field));
        self
    }
    /// Adds an outer index segment.
    pub fn at_index(mut self, index: usize) -> Self {
        self.0.rev_path.push(Seg::Index(index));
        self
    }
    /// Adds an outer key segment (`["name"]`).
    pub fn at_key(mut self, key: impl Into<String>) -> Self {
        self.0.rev_path.push(Seg::Key(key.into()));
        self
    }
    /// The byte offset where reading was when it went wrong, unless the error has one already (an expression
    /// that failed while reading: a division by zero).
    #[doc(hidden)]
    pub fn or_offset(mut self, offset: u64) -> Self {
        self.0.offset.get_or_insert(offset);
        self
    }
    /// Names the format the path starts from (`sarc`), once.
    pub fn in_format(mut self, id: &'static str) -> Self {
        if self.0.root.is_none() {
            self.0.root = Some(id);
        }
        self
    }
    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }
    /// The absolute byte offset in the file where it went wrong, for errors of reading.
    pub fn offset(&self) -> Option<u64> {
        self.0.offset
    }
    /// The id of the format the path starts from (`sarc`), if one was named.
    pub fn format(&self) -> Option<&'static str> {
        self.0.root
    }
    /// The segments of the field path after the format, outermost first (`sfat`, `entries`, `[3]`, `data_end`).
    pub fn segments(&self) -> impl DoubleEndedIterator<Item = &Seg> + ExactSizeIterator {
        self.0.rev_path.iter().rev()
    }
    /// The field path, outermost first, e.g. `sarc.sfat.entries[3].data_end`; empty when the error has none.
    pub fn path(&self) -> String {
        let mut s = String::new();
        if let Some(r) = self.0.root {
            s.push_str(r);
        }
        for seg in self.segments() {
            match seg {
                Seg::Field(f) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(f);
                }
                Seg::Index(i) => {
                    s.push_str(&format!("[{i}]"));
                }
                Seg::Key(k) => s.push_str(&format!("[{k:?}]")),
            }
        }
        s
    }
    /// The message without the path.
    pub fn message(&self) -> String {
        // (Positions are from the file's start: a substream is named by where it ends, not by a size that
        // would read as the file's.)
        let end = |root: bool, size: u64| {
            if root {
                format!("the file ({size:#x} bytes)")
            } else {
                format!("its substream, which ends at {size:#x}")
            }
        };
        match self.kind() {
            ErrorKind::Eof {
                at,
                need,
                size,
                root,
            } => {
                if *at > *size {
                    format!("offset {at:#x} is past the end of {}", end(*root, *size))
                } else {
                    format!(
                        "needs {need:#x} bytes at offset {at:#x}, past the end of {}",
                        end(*root, *size)
                    )
                }
            }
            ErrorKind::PastEnd { at, size, root } => {
                format!("offset {at:#x} is past the end of {}", end(*root, *size))
            }
            ErrorKind::Contents { expected, found } => format!(
                "expected bytes {} ({}), found {}{}",
                hex(expected),
                printable(expected),
                hex(found),
                self.offset()
                    .map(|o| format!(" at offset {o:#x}"))
                    .unwrap_or_default()
            ),
            ErrorKind::Invalid { message }
            | ErrorKind::Limit { message }
            | ErrorKind::Other { message } => {
                format!(
                    "{message}{}",
                    self.offset()
                        .map(|o| format!(" (at offset {o:#x})"))
                        .unwrap_or_default()
                )
            }
            ErrorKind::Write { message }
            | ErrorKind::Text { message }
            | ErrorKind::Io { message, .. } => message.clone(),
        }
    }
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn printable(b: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(b))
}

/// Bytes for a message, as text and in hex: `"SA" (53 41)`.
// For the messages of the runtime and binspec-formats, not part of the user-facing API.
#[doc(hidden)]
pub fn describe_bytes(b: &[u8]) -> String {
    format!("{} ({})", printable(b), hex(b))
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path();
        if path.is_empty() {
            write!(f, "{}", self.message())
        } else {
            write!(f, "{path}: {}", self.message())
        }
    }
}

impl std::error::Error for Error {}

/// Adds path segments to the error of a `Result` on its way out.
pub trait ResultExt<T> {
    /// [`Error::at`] on the error, if any.
    fn at(self, field: &'static str) -> Result<T>;
    /// [`Error::at_index`] on the error, if any.
    fn at_index(self, index: usize) -> Result<T>;
}

impl<T> ResultExt<T> for Result<T> {
    #[inline]
    fn at(self, field: &'static str) -> Result<T> {
        self.map_err(|e| e.at(field))
    }
    #[inline]
    fn at_index(self, index: usize) -> Result<T> {
        self.map_err(|e| e.at_index(index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accessors_and_display() {
        let e = Error::invalid(0x18, "bad header size")
            .at("header_size")
            .at_index(3)
            .at("entries")
            .at_key("a.bin")
            .in_format("sarc")
            .in_format("ignored");
        assert_eq!(
            e.kind(),
            &ErrorKind::Invalid {
                message: "bad header size".into()
            }
        );
        assert_eq!(e.offset(), Some(0x18));
        assert_eq!(e.format(), Some("sarc"));
        let segs: Vec<&Seg> = e.segments().collect();
        assert_eq!(
            segs,
            [
                &Seg::Key("a.bin".into()),
                &Seg::Field("entries"),
                &Seg::Index(3),
                &Seg::Field("header_size")
            ]
        );
        assert_eq!(e.path(), r#"sarc["a.bin"].entries[3].header_size"#);
        assert_eq!(
            e.to_string(),
            r#"sarc["a.bin"].entries[3].header_size: bad header size (at offset 0x18)"#
        );
        let w = Error::write("too big");
        assert_eq!(
            (w.offset(), w.format(), w.segments().len()),
            (None, None, 0)
        );
        assert_eq!(w.to_string(), "too big");
    }
}
