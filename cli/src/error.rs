//! What a command can fail with, and the exit status it gives.

use std::fmt;
use std::path::Path;

/// A failed command.
#[derive(Debug)]
pub enum CliError {
    /// Bad usage: exit status 2.
    Usage(String),
    /// Bad input, a failed check, a file that cannot be read or written: exit status 1.
    Fail(String),
    /// Standard output was closed (`binspec decode x | head`): not an error.
    BrokenPipe,
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Fail(_) => 1,
            CliError::BrokenPipe => 0,
        }
    }

    /// The text after `error: `, if anything is to be printed.
    pub fn message(&self) -> Option<&str> {
        match self {
            CliError::Usage(m) | CliError::Fail(m) => Some(m),
            CliError::BrokenPipe => None,
        }
    }

    /// A failure about a file: `path: message`.
    pub fn file(path: &Path, e: impl fmt::Display) -> Self {
        let msg = e.to_string();
        // Some parsers' messages start with their own `error: `; one is enough.
        let msg = msg.strip_prefix("error: ").unwrap_or(&msg);
        // Text formats name a position as `LINE:COLUMN: what`: print it as `file:LINE:COLUMN: what`.
        let sep = if starts_with_line_col(msg) { ":" } else { ": " };
        CliError::Fail(format!("{}{sep}{msg}", path.display()))
    }

    /// A failed write to standard output.
    pub fn out(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Fail(format!("cannot write to standard output: {e}"))
        }
    }
}

/// Whether a message starts with `LINE:COLUMN: `.
pub(crate) fn starts_with_line_col(msg: &str) -> bool {
    let mut parts = msg.splitn(3, ':');
    let num =
        |s: Option<&str>| s.is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
    num(parts.next()) && num(parts.next()) && parts.next().is_some_and(|r| r.starts_with(' '))
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message().unwrap_or("broken pipe"))
    }
}

impl std::error::Error for CliError {}
