//! Errors: what went wrong, at which field of the data (a path like `sfat.entries[3].name`) and byte offset, and
//! where in the schema.

use std::fmt;

use binspec_codegen::diag::Pos;

/// A decode or encode error.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// The field path, outermost first (`entries`, `[3]`, `name`).
    pub path: Vec<String>,
    /// The byte offset in the file (decode), where known.
    pub offset: Option<u64>,
    /// The schema file, line:column and YAML path of the field or expression.
    pub schema: Option<Box<(String, Pos, String)>>,
    pub message: String,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            path: Vec::new(),
            offset: None,
            schema: None,
            message: message.into(),
        }
    }
    pub fn at(offset: u64, message: impl Into<String>) -> Error {
        Error {
            offset: Some(offset),
            ..Error::new(message)
        }
    }
    /// Inside field `name` (the innermost context is added first).
    pub fn in_field(mut self, name: &str) -> Error {
        self.path.insert(0, name.to_string());
        self
    }
    pub fn in_index(mut self, i: usize) -> Error {
        self.path.insert(0, format!("[{i}]"));
        self
    }
    /// Where in the schema, unless a more precise place is known already.
    pub fn in_schema(mut self, file: &str, pos: Pos, yaml_path: &str) -> Error {
        if self.schema.is_none() {
            self.schema = Some(Box::new((file.to_string(), pos, yaml_path.to_string())));
        }
        self
    }
    /// The field path as text (`entries[3].name`).
    pub fn path_text(&self) -> String {
        let mut s = String::new();
        for p in &self.path {
            if !s.is_empty() && !p.starts_with('[') {
                s.push('.');
            }
            s.push_str(p);
        }
        s
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path_text();
        if !path.is_empty() {
            write!(f, "{path}: ")?;
        }
        if let Some(o) = self.offset {
            write!(f, "at offset {o:#x}: ")?;
        }
        f.write_str(&self.message)?;
        if let Some(b) = &self.schema {
            let (file, pos, yp) = &**b;
            write!(f, " (schema {file}:{}:{}, {yp})", pos.line, pos.col)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

impl From<binspec_runtime::Error> for Error {
    fn from(e: binspec_runtime::Error) -> Error {
        Error {
            offset: e.offset(),
            ..Error::new(e.message())
        }
    }
}
