//! Diagnostics: what is wrong, where (file, YAML path, line:column), and what was probably meant.

use std::fmt;

/// A position in a schema file (1-based line and column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One finding about a schema.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    pub pos: Pos,
    /// The YAML path, e.g. `/types/sfat/seq/3/type`.
    pub yaml_path: String,
    pub message: String,
    /// What was probably meant.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}:{}: {sev}: {}: {}",
            self.file, self.pos.line, self.pos.col, self.yaml_path, self.message
        )?;
        if let Some(h) = &self.help {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

/// Collects diagnostics for one file.
#[derive(Debug, Default)]
pub struct Diags {
    pub file: String,
    pub list: Vec<Diagnostic>,
}

impl Diags {
    pub fn new(file: impl Into<String>) -> Self {
        Diags {
            file: file.into(),
            list: Vec::new(),
        }
    }
    /// Runs `f` with diagnostics attributed to `file` (an imported schema's types), then back to this file.
    pub fn in_file<T>(&mut self, file: &str, f: impl FnOnce(&mut Diags) -> T) -> T {
        let main = std::mem::replace(&mut self.file, file.to_string());
        let out = f(self);
        self.file = main;
        out
    }
    pub fn error(
        &mut self,
        pos: Pos,
        yaml_path: &str,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        self.push(Severity::Error, pos, yaml_path, message.into(), help);
    }
    pub fn warning(
        &mut self,
        pos: Pos,
        yaml_path: &str,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        self.push(Severity::Warning, pos, yaml_path, message.into(), help);
    }
    fn push(
        &mut self,
        severity: Severity,
        pos: Pos,
        yaml_path: &str,
        message: String,
        help: Option<String>,
    ) {
        self.list.push(Diagnostic {
            severity,
            file: self.file.clone(),
            pos,
            yaml_path: yaml_path.to_string(),
            message,
            help,
        });
    }
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| d.is_error())
    }
}

/// The closest candidate, if any is close enough to be a likely typo (a small edit distance, or a high
/// Jaro-Winkler similarity for longer words).
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let mut best: Option<(usize, f64, &str)> = None;
    for c in candidates {
        if c == word {
            continue;
        }
        let dist = strsim::levenshtein(word, c);
        let sim = strsim::jaro_winkler(word, c);
        let close = dist <= (word.len().max(c.len()) / 3).max(1) || sim > 0.85;
        if close && best.is_none_or(|(d, s, _)| dist < d || (dist == d && sim > s)) {
            best = Some((dist, sim, c));
        }
    }
    best.map(|(_, _, c)| format!("did you mean '{c}'?"))
}
