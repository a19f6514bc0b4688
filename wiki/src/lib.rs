//! MediaWiki pages that document binary file formats, read as data: "User contributions" dumps and their
//! revisions, the `wikitable` tables (and C-style structs in code blocks) of a page, and what can be told from them:
//!
//! - [`lint`]: tables that contradict themselves (offsets that do not follow, sizes that do not fit their types,
//!   enum values listed twice, ...);
//! - [`coverage`]: which struct and enum tables of a page the schemas transcribe (their `-wiki` references);
//! - [`drift`]: a page's tables against the schema types and enums that transcribe them;
//! - [`diff`]: what changed in a page's tables between two revisions, and which schema items the changes touch;
//! - [`import`]: a draft `.ksy` type from one table, to start a transcription from.
//!
//! The library reads no files: it takes a dump's text and compiled schemas ([`sources::Schema`]). The `binspec
//! wiki` commands are its command line.
//!
//! A dump is a title line, then one block per revision: the page name, a blank line, an ISO timestamp, a blank
//! line, the editor's summary, then the page text, until the next block. A single page text (no timestamp after its
//! second line) is one revision of one page, named by the caller.
//!
//! ```
//! let dump = "Wiki - User contributions [en]\n\n\
//!     Sarc\n\n2026-01-02T03:04:05Z\n\nEd: header sizes\n\n\
//!     == Header ==\n{| class=\"wikitable\"\n!Offset\n!Size\n!Type\n!Description\n\
//!     |-\n|0x0\n|0x4\n|char[4]\n|Magic: \"SARC\"\n\
//!     |-\n|0x4\n|0x2\n|u32\n|Header size\n|}\n";
//! let revs = binspec_wiki::revisions(dump, "page");
//! let newest = binspec_wiki::chosen(&revs, 0);
//! assert_eq!(newest[0].page, "Sarc");
//!
//! let tables = binspec_wiki::tables(&newest[0].text);
//! assert_eq!(tables[0].place(), "Header");
//! assert_eq!(tables[0].kind(), binspec_wiki::Kind::Struct);
//!
//! let findings: Vec<String> = binspec_wiki::lint(newest[0]).iter().map(|f| f.to_string()).collect();
//! assert_eq!(
//!     findings,
//!     ["Sarc | Header | row 2 (Header size): size 0x2 does not fit the type u32 (0x4 bytes)"]
//! );
//!
//! // A draft schema for the table, whose `-wiki` reference names it.
//! let (ksy, _summary) = binspec_wiki::import::draft(newest[0], &tables, 0).unwrap();
//! assert!(ksy.contains("contents: \"SARC\""));
//! ```

#![warn(missing_docs)]

pub mod coverage;
pub mod diff;
pub mod drift;
pub mod import;
mod layout;
mod lint;
mod lint_index;
mod lint_values;
pub mod sources;
mod tables;

pub use layout::Kind;
pub use lint::{lint, Finding};
pub(crate) use tables::{number, type_size};
pub use tables::{tables, Table};

/// One revision of one page.
#[derive(Debug, Clone, PartialEq)]
pub struct Revision {
    /// The page's title.
    pub page: String,
    /// When it was saved (`2026-01-02T03:04:05Z`); empty for a page text that is not part of a dump.
    pub timestamp: String,
    /// 1-based line of the page text's first line in the input.
    pub first_line: usize,
    /// The page's MediaWiki text.
    pub text: String,
}

fn is_timestamp(l: &str) -> bool {
    let b = l.trim().as_bytes();
    b.len() == 20
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[19] == b'Z'
        && b.iter()
            .enumerate()
            .all(|(i, c)| matches!(i, 4 | 7 | 10 | 13 | 16 | 19) || c.is_ascii_digit())
}

/// The revisions in a dump, in the dump's order (newest first for each page), or the whole text as one revision of
/// `fallback_page` when it is not a dump.
pub fn revisions(input: &str, fallback_page: &str) -> Vec<Revision> {
    let lines: Vec<&str> = input.lines().collect();
    let starts: Vec<usize> = (0..lines.len().saturating_sub(2))
        .filter(|&i| {
            !lines[i].trim().is_empty()
                && lines[i + 1].trim().is_empty()
                && is_timestamp(lines[i + 2])
                && (i == 0 || lines[i - 1].trim().is_empty())
        })
        .collect();
    if starts.is_empty() {
        return vec![Revision {
            page: fallback_page.to_string(),
            timestamp: String::new(),
            first_line: 1,
            text: input.to_string(),
        }];
    }
    let mut out = Vec::new();
    for (k, &s) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(lines.len());
        // name, blank, timestamp, blank, summary, then the text
        let body = (s + 5).min(end);
        out.push(Revision {
            page: lines[s].trim().to_string(),
            timestamp: lines[s + 2].trim().to_string(),
            first_line: body + 1,
            text: lines[body..end].join("\n"),
        });
    }
    out
}

/// One revision of each page, in the order the pages first appear: its `rev`-th (0 is the newest, the first in a
/// dump). A page with fewer revisions is left out.
pub fn chosen(revs: &[Revision], rev: usize) -> Vec<&Revision> {
    let mut pages: Vec<&str> = Vec::new();
    for r in revs {
        if !pages.contains(&r.page.as_str()) {
            pages.push(&r.page);
        }
    }
    pages
        .iter()
        .filter_map(|p| revs.iter().filter(|r| r.page == *p).nth(rev))
        .collect()
}

/// The revisions of `page` (newest first), or [`Error::NoPage`] with the pages there are.
pub fn page_revisions<'a>(revs: &'a [Revision], page: &str) -> Result<Vec<&'a Revision>, Error> {
    let mine: Vec<&Revision> = revs
        .iter()
        .filter(|r| sources::same_page(&r.page, page))
        .collect();
    if !mine.is_empty() {
        return Ok(mine);
    }
    let mut pages: Vec<(String, usize)> = Vec::new();
    for r in revs {
        match pages.iter_mut().find(|(p, _)| *p == r.page) {
            Some(p) => p.1 += 1,
            None => pages.push((r.page.clone(), 1)),
        }
    }
    Err(Error::NoPage {
        page: page.to_string(),
        pages,
    })
}

/// The revisions of a page as a list for an error.
pub(crate) fn list_revisions(revs: &[&Revision]) -> String {
    let mut s = String::new();
    for (i, r) in revs.iter().enumerate() {
        let ts = if r.timestamp.is_empty() {
            "(no timestamp)"
        } else {
            &r.timestamp
        };
        s.push_str(&format!("\n  {i} {ts}"));
    }
    s
}

/// A page, revision or table that a request names and the input does not have, or has several of. Its text lists
/// what there is to choose from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The input has no page of the title asked for.
    NoPage {
        /// The title asked for.
        page: String,
        /// The input's pages in its order, each with how many revisions the input has of it.
        pages: Vec<(String, usize)>,
    },
    /// The page has no revision or table that the request names, several tables that match it, or the table is
    /// of a kind the request cannot use; the text says which, and lists the choices.
    Choice(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::NoPage { page, pages } => {
                write!(f, "no page {page:?}; its pages (and revisions):")?;
                for (p, n) in pages {
                    write!(f, "\n  {p} ({n})")?;
                }
                Ok(())
            }
            Error::Choice(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "Wiki - User contributions [en]\n\nSarc\n\n2026-01-02T03:04:05Z\n\nEd: fix\n\n== Header ==\n{| class=\"wikitable\"\n|+ SARC header\n!Offset\n!Size\n!Type\n!Description\n|-\n|0x0\n|0x4\n|char[4]\n|Magic\n|-\n|0x4\n|0x2\n|u32\n|Header size\n|-\n|0x8\n|0x4\n|u32\n|File size\nspanning two lines\n|}\n\nSarc\n\n2025-01-01T00:00:00Z\n\nEd: older\n\ntext\n";

    #[test]
    fn dump_pages_tables_and_findings() {
        let revs = revisions(PAGE, "x");
        assert_eq!(revs.len(), 2);
        assert_eq!(revs[0].page, "Sarc");
        assert_eq!(revs[0].timestamp, "2026-01-02T03:04:05Z");
        assert_eq!(chosen(&revs, 0).len(), 1);
        assert_eq!(chosen(&revs, 1)[0].timestamp, "2025-01-01T00:00:00Z");
        let t = tables(&revs[0].text);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].caption, "SARC header");
        assert_eq!(t[0].sections, ["Header"]);
        assert_eq!(t[0].rows.len(), 3);
        assert_eq!(t[0].rows[2].1[3], "File size spanning two lines");
        let f: Vec<String> = lint(&revs[0]).iter().map(|f| f.to_string()).collect();
        // Row 3's offset follows from row 2's type (0x4 + 4), so the size cell is the one mistake.
        assert_eq!(
            f,
            ["Sarc | Header [SARC header] | row 2 (Header size): size 0x2 does not fit the type u32 (0x4 bytes)"]
        );
    }
}
