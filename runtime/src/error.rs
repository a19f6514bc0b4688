//! Errors that name the field path and the byte offset.
//!
//! The path is built innermost-first while an error travels up through the generated readers (each level adds its
//! own segment with [`ResultExt::at`] or [`ResultExt::at_index`]), so the success path pays nothing for it.

use std::fmt;

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Field(&'static str),
    Index(usize),
    Key(String),
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// A read of `need` bytes at `at` runs past the end of a stream of `size` bytes.
    Eof {
        at: u64,
        need: u64,
        size: u64,
        root: bool,
    },
    /// A position (from `pos`, an offset field, a seek) lies past the end of the stream.
    PastEnd { at: u64, size: u64, root: bool },
    /// Fixed bytes (`contents`) differ.
    Contents { expected: Vec<u8>, found: Vec<u8> },
    /// A `valid` check failed.
    Invalid { message: String },
    /// A limit that protects against hostile input (nesting depth, element counts).
    Limit { message: String },
    /// The model cannot be written as it is.
    Write { message: String },
    /// Text (YAML/JSON) that does not describe a model.
    Text { message: String },
    /// Anything else.
    Other { message: String },
}

/// An error with the path of the field where it happened and, for reads, the byte offset. Its parts are in
/// [`ErrorInner`] (`e.offset`, `e.kind`); the error itself is one pointer, so that a `Result` that readers pass up
/// costs no more than its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(Box<ErrorInner>);

/// What an [`Error`] holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorInner {
    /// Innermost segment first.
    rev_path: Vec<Seg>,
    root: Option<&'static str>,
    /// Absolute byte offset in the file, where one applies.
    pub offset: Option<u64>,
    pub kind: ErrorKind,
}

impl std::ops::Deref for Error {
    type Target = ErrorInner;
    fn deref(&self) -> &ErrorInner {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut ErrorInner {
        &mut self.0
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    #[cold]
    pub fn new(kind: ErrorKind, offset: Option<u64>) -> Self {
        Error(Box::new(ErrorInner {
            rev_path: Vec::new(),
            root: None,
            offset,
            kind,
        }))
    }
    pub fn invalid(offset: u64, message: impl Into<String>) -> Self {
        Self::new(
            ErrorKind::Invalid {
                message: message.into(),
            },
            Some(offset),
        )
    }
    pub fn limit(offset: u64, message: impl Into<String>) -> Self {
        Self::new(
            ErrorKind::Limit {
                message: message.into(),
            },
            Some(offset),
        )
    }
    pub fn write(message: impl Into<String>) -> Self {
        Self::new(
            ErrorKind::Write {
                message: message.into(),
            },
            None,
        )
    }
    pub fn text(message: impl Into<String>) -> Self {
        Self::new(
            ErrorKind::Text {
                message: message.into(),
            },
            None,
        )
    }
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
        self.rev_path.push(Seg::Field(field));
        self
    }
    /// Adds an outer index segment.
    pub fn at_index(mut self, index: usize) -> Self {
        self.rev_path.push(Seg::Index(index));
        self
    }
    /// Adds an outer key segment (`["name"]`).
    pub fn at_key(mut self, key: impl Into<String>) -> Self {
        self.rev_path.push(Seg::Key(key.into()));
        self
    }
    /// Names the format the path starts from (`sarc`), once.
    pub fn in_format(mut self, id: &'static str) -> Self {
        if self.root.is_none() {
            self.root = Some(id);
        }
        self
    }
    /// The field path, outermost first, e.g. `sarc.sfat.entries[3].data_end`.
    pub fn path(&self) -> String {
        let mut s = String::new();
        if let Some(r) = self.root {
            s.push_str(r);
        }
        for seg in self.rev_path.iter().rev() {
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
        let where_ = |root: bool| if root { "the file" } else { "its substream" };
        match &self.kind {
            ErrorKind::Eof {
                at,
                need,
                size,
                root,
            } => {
                if *at > *size {
                    format!(
                        "offset {at:#x} is past the end of {} ({size:#x} bytes)",
                        where_(*root)
                    )
                } else {
                    format!(
                        "needs {need:#x} bytes at offset {at:#x}, past the end of {} ({size:#x} bytes)",
                        where_(*root)
                    )
                }
            }
            ErrorKind::PastEnd { at, size, root } => {
                format!(
                    "offset {at:#x} is past the end of {} ({size:#x} bytes)",
                    where_(*root)
                )
            }
            ErrorKind::Contents { expected, found } => format!(
                "expected bytes {} ({}), found {}{}",
                hex(expected),
                printable(expected),
                hex(found),
                self.offset
                    .map(|o| format!(" at offset {o:#x}"))
                    .unwrap_or_default()
            ),
            ErrorKind::Invalid { message } | ErrorKind::Limit { message } => {
                format!(
                    "{message}{}",
                    self.offset
                        .map(|o| format!(" (at offset {o:#x})"))
                        .unwrap_or_default()
                )
            }
            ErrorKind::Write { message }
            | ErrorKind::Text { message }
            | ErrorKind::Other { message } => message.clone(),
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
    fn at(self, field: &'static str) -> Result<T>;
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
