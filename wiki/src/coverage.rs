//! `binspec wiki coverage`: for each page, its struct and enum tables and whether a schema transcribes each.

use crate::layout::{self, Kind};
use crate::sources::{self, Source};
use crate::{tables, Revision};

/// One table's line in the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Where the table is on the page ([`Table::place`](crate::Table::place)).
    pub place: String,
    /// What the table describes.
    pub kind: Kind,
    /// The schema items that transcribe it (`sarc.ksy: type sfat`).
    pub by: Vec<String>,
}

/// The coverage of one page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageCoverage {
    /// The page's title.
    pub page: String,
    /// The revision's timestamp (empty for a page text that is not part of a dump).
    pub timestamp: String,
    /// Each of the page's tables, in page order.
    pub entries: Vec<Entry>,
}

impl PageCoverage {
    /// (covered layout tables, layout tables).
    pub fn figure(&self) -> (usize, usize) {
        let layouts = self.entries.iter().filter(|e| e.kind.is_layout());
        let total = layouts.clone().count();
        let covered = layouts.filter(|e| !e.by.is_empty()).count();
        (covered, total)
    }
}

/// The coverage of one revision of a page.
pub fn page(rev: &Revision, sources: &[Source<'_>]) -> PageCoverage {
    let ts = tables(&rev.text);
    let entries = ts
        .iter()
        .enumerate()
        .map(|(i, t)| Entry {
            place: t.place(),
            kind: layout::kind(t),
            by: sources::touching(sources, &rev.page, &ts, i)
                .iter()
                .map(|s| s.label())
                .collect(),
        })
        .collect();
    PageCoverage {
        page: rev.page.clone(),
        timestamp: rev.timestamp.clone(),
        entries,
    }
}

fn percent(a: usize, b: usize) -> String {
    if b == 0 {
        "-".into()
    } else {
        format!("{:.1}%", a as f64 * 100.0 / b as f64)
    }
}

/// The report: per page, each table and who transcribes it, then the page's figure; then the overall figure.
pub fn report(pages: &[PageCoverage]) -> String {
    let mut out = String::new();
    let (mut covered, mut total, mut others) = (0, 0, 0);
    for p in pages {
        let (c, t) = p.figure();
        covered += c;
        total += t;
        let when = if p.timestamp.is_empty() {
            String::new()
        } else {
            format!(" (revision {})", p.timestamp)
        };
        out.push_str(&format!("{}{when}\n", p.page));
        let mut left_out = Vec::new();
        for e in &p.entries {
            if !e.kind.is_layout() {
                left_out.push(format!("{} ({})", e.place, e.kind.name()));
                continue;
            }
            let by = if e.by.is_empty() {
                "not transcribed".to_string()
            } else {
                e.by.join(", ")
            };
            out.push_str(&format!("  {:<6} {} | {by}\n", e.kind.name(), e.place));
        }
        others += left_out.len();
        if !left_out.is_empty() {
            out.push_str(&format!(
                "  not layouts, left out: {}\n",
                left_out.join("; ")
            ));
        }
        if t == 0 {
            out.push_str(&format!("  {}: no layout tables\n", p.page));
        } else {
            out.push_str(&format!(
                "  {}: {c} of {t} layout tables transcribed ({})\n",
                p.page,
                percent(c, t)
            ));
        }
    }
    out.push_str(&format!(
        "overall: {covered} of {total} layout tables transcribed ({}) in {} pages; {others} tables that are not layouts left out\n",
        percent(covered, total),
        pages.len()
    ));
    out
}
