//! MediaWiki page texts and "User contributions" dumps: pages, revisions and `wikitable` tables, and
//! `binspec wiki lint`, which reports tables that contradict themselves.
//!
//! A dump is a title line, then one block per revision: the page name, a blank line, an ISO timestamp, a blank
//! line, the editor's summary, then the page text, until the next block. A single page text (no timestamp after its
//! second line) is one revision of one page, named after the file.

use std::fmt::Write as _;

/// One revision of one page.
#[derive(Debug, Clone, PartialEq)]
pub struct Revision {
    pub page: String,
    pub timestamp: String,
    /// 1-based line of the page text's first line in the input.
    pub first_line: usize,
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

/// A `{| class="wikitable" ... |}` table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// The headings above the table, outermost first.
    pub sections: Vec<String>,
    pub caption: String,
    pub headers: Vec<String>,
    /// Rows of cells, and the 1-based line (in the revision's text) where each row starts. A cell that a
    /// `rowspan` above covers is repeated in each row it covers.
    pub rows: Vec<(usize, Vec<String>)>,
    /// For each row, which cells are such repeats.
    pub spanned: Vec<Vec<bool>>,
    pub line: usize,
}

impl Table {
    /// Where the table is: its section path, and caption if any.
    pub fn place(&self) -> String {
        let mut s = self.sections.join(" > ");
        if s.is_empty() {
            s = "(top)".into();
        }
        if !self.caption.is_empty() {
            let _ = write!(s, " [{}]", self.caption);
        }
        s
    }
    /// The column whose header is one of `names` (case-insensitive).
    pub fn column(&self, names: &[&str]) -> Option<usize> {
        self.headers
            .iter()
            .position(|h| names.iter().any(|n| h.trim().eq_ignore_ascii_case(n)))
    }
}

/// Splits a `|a || b` or `!a !! b` line into cells, dropping cell attributes (`style="..." | text`).
fn cells(line: &str, sep: &str) -> Vec<String> {
    cells_with_span(line, sep)
        .into_iter()
        .map(|(c, _)| c)
        .collect()
}

/// As [`cells`], with each cell's `rowspan` (1 without one).
fn cells_with_span(line: &str, sep: &str) -> Vec<(String, usize)> {
    line.split(sep)
        .map(|c| {
            let c = c.trim();
            // An attribute part ends at a single `|` that is not inside [[...]].
            match attr_split(c) {
                Some(i) => {
                    let attrs = &c[..i];
                    let span = attrs
                        .split_once("rowspan=")
                        .and_then(|(_, r)| {
                            let r = r.trim_start_matches('"');
                            r[..r.find(|ch: char| !ch.is_ascii_digit()).unwrap_or(r.len())]
                                .parse::<usize>()
                                .ok()
                        })
                        .unwrap_or(1)
                        .clamp(1, 1000);
                    (c[i + 1..].trim().to_string(), span)
                }
                None => (c.to_string(), 1),
            }
        })
        .collect()
}

/// Adds a finished row to a table, filling in the cells that rowspans above it cover; `pending` holds, per
/// column, (text, rows still covered).
fn push_row(
    t: &mut Table,
    line: usize,
    own: Vec<(String, usize)>,
    pending: &mut Vec<Option<(String, usize)>>,
) {
    let mut row = Vec::new();
    let mut spanned = Vec::new();
    let mut own = own.into_iter();
    let mut col = 0;
    loop {
        let covered = pending
            .get_mut(col)
            .and_then(|p| p.as_mut())
            .filter(|p| p.1 > 0);
        if let Some(p) = covered {
            row.push(p.0.clone());
            spanned.push(true);
            p.1 -= 1;
        } else if let Some((text, span)) = own.next() {
            if pending.len() <= col {
                pending.resize(col + 1, None);
            }
            pending[col] = (span > 1).then(|| (text.clone(), span - 1));
            row.push(text);
            spanned.push(false);
        } else if pending
            .iter()
            .skip(col)
            .any(|p| p.as_ref().is_some_and(|p| p.1 > 0))
        {
            // a gap before a covered column further right
            row.push(String::new());
            spanned.push(false);
        } else {
            break;
        }
        col += 1;
    }
    if !row.is_empty() {
        t.rows.push((line, row));
        t.spanned.push(spanned);
    }
}

fn attr_split(c: &str) -> Option<usize> {
    let mut depth = 0i32;
    let b = c.as_bytes();
    for (i, &ch) in b.iter().enumerate() {
        match ch {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => depth -= 1,
            b'|' if depth == 0 => {
                let before = &c[..i];
                return (before.contains('=') && !before.contains(' ') || before.contains("=\""))
                    .then_some(i);
            }
            _ => {}
        }
    }
    None
}

/// The tables of a page text, with the section headings they sit under.
pub fn tables(text: &str) -> Vec<Table> {
    let mut out = Vec::new();
    let mut sections: Vec<(usize, String)> = Vec::new();
    let mut cur: Option<Table> = None;
    let mut row: Option<(usize, Vec<(String, usize)>)> = None;
    let mut pending: Vec<Option<(String, usize)>> = Vec::new();
    let mut in_header = false;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let l = raw.trim();
        if cur.is_none() {
            let level = l.chars().take_while(|&c| c == '=').count();
            if level >= 2 && l.ends_with(&"=".repeat(level)) && l.len() > 2 * level {
                let title = l[level..l.len() - level].trim().to_string();
                sections.retain(|(lv, _)| *lv < level);
                sections.push((level, title));
                continue;
            }
            if l.starts_with("{|") {
                cur = Some(Table {
                    sections: sections.iter().map(|(_, t)| t.clone()).collect(),
                    line: line_no,
                    ..Table::default()
                });
                row = None;
                pending.clear();
                in_header = false;
            }
            continue;
        }
        let t = cur.as_mut().expect("inside a table");
        if l.starts_with("|}") {
            if let Some(r) = row.take() {
                if !r.1.is_empty() {
                    push_row(t, r.0, r.1, &mut pending);
                }
            }
            out.push(cur.take().expect("inside a table"));
            continue;
        }
        if let Some(c) = l.strip_prefix("|+") {
            t.caption = c.trim().to_string();
            continue;
        }
        if l.starts_with("|-") {
            if let Some(r) = row.take() {
                if !r.1.is_empty() {
                    push_row(t, r.0, r.1, &mut pending);
                }
            }
            row = Some((line_no + 1, Vec::new()));
            in_header = false;
            continue;
        }
        if let Some(h) = l.strip_prefix('!') {
            if row.as_ref().is_some_and(|r| !r.1.is_empty()) {
                // a header cell in a data row: keep it as a cell (row headings)
                row.as_mut()
                    .expect("row")
                    .1
                    .extend(cells_with_span(h, "!!"));
            } else {
                t.headers.extend(cells(h, "!!"));
                in_header = true;
            }
            continue;
        }
        if let Some(c) = l.strip_prefix('|') {
            let r = row.get_or_insert_with(|| (line_no, Vec::new()));
            r.1.extend(cells_with_span(c, "||"));
            in_header = false;
            continue;
        }
        // A continuation of the previous cell (multi-line cell text).
        if !l.is_empty() {
            if in_header {
                if let Some(h) = t.headers.last_mut() {
                    h.push(' ');
                    h.push_str(l);
                }
            } else if let Some(c) = row.as_mut().and_then(|r| r.1.last_mut()) {
                c.0.push(' ');
                c.0.push_str(l);
            }
        }
    }
    out
}

/// A number as the wiki writes offsets and sizes: `0x1C`, `28`, `0x1C (28)`; `None` for anything else
/// (`sizeof(B)`, `varies`, empty).
pub fn number(s: &str) -> Option<u64> {
    let s = s.trim();
    let s = s.split_whitespace().next().unwrap_or("");
    let s = s.trim_end_matches([',', ';', '.']);
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse().ok()
    } else {
        None
    }
}

/// The size in bytes of a type as the wiki names it (`u32`, `s16`, `float`, `uint8_t`, `u32[4]`), if known.
pub fn type_size(ty: &str) -> Option<u64> {
    let t = ty.trim();
    let t = t.trim_start_matches("const ").trim();
    if let Some(open) = t.find('[') {
        let close = t[open..].find(']')? + open;
        let n = number(&t[open + 1..close])?;
        let base = t[..open].trim();
        let rest = t[close + 1..].trim();
        if !rest.is_empty() {
            return None;
        }
        return Some(n * type_size(base)?);
    }
    let lower = t.to_ascii_lowercase();
    Some(match lower.as_str() {
        "u8" | "s8" | "i8" | "uint8" | "int8" | "uint8_t" | "int8_t" | "byte" | "sbyte"
        | "char" | "bool8" => 1,
        "u16" | "s16" | "i16" | "uint16" | "int16" | "uint16_t" | "int16_t" | "ushort"
        | "short" | "f16" | "half" => 2,
        "u24" | "s24" => 3,
        "u32" | "s32" | "i32" | "uint32" | "int32" | "uint32_t" | "int32_t" | "uint" | "int"
        | "f32" | "float" | "float32" => 4,
        "u64" | "s64" | "i64" | "uint64" | "int64" | "uint64_t" | "int64_t" | "ulong" | "long"
        | "f64" | "double" | "float64" | "hkint64" | "hkuint64" => 8,
        "vec2f" | "vector2f" => 8,
        "vec3f" | "vector3f" => 12,
        "vec4f" | "vector4f" | "quatf" => 16,
        _ => return None,
    })
}

/// One finding of `wiki lint`.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub page: String,
    pub table: String,
    /// 1-based data row, and the field name if the table has one.
    pub row: usize,
    pub field: String,
    pub what: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} | {} | row {}", self.page, self.table, self.row)?;
        if !self.field.is_empty() {
            write!(f, " ({})", self.field)?;
        }
        write!(f, ": {}", self.what)
    }
}

/// The field name of a row: the Name or Field column, else the start of the Description.
fn field_name(t: &Table, cells: &[String]) -> String {
    let col = t
        .column(&["Name", "Field", "Member"])
        .or_else(|| t.column(&["Description", "Notes"]));
    let s = col.and_then(|c| cells.get(c)).map_or("", |s| s.as_str());
    let s = s.split(['.', ';', '(']).next().unwrap_or("").trim();
    s.chars().take(40).collect()
}

/// Enum-like tables (a Value column, no Offset): a value listed twice with different names.
fn lint_values(rev: &Revision, t: &Table, out: &mut Vec<Finding>) {
    let Some(vc) = t.column(&["Value", "Id", "ID"]) else {
        return;
    };
    let nc = t.column(&["Name", "Type", "Description"]);
    let mut seen: Vec<(u64, String, usize)> = Vec::new();
    for (i, (_, cells)) in t.rows.iter().enumerate() {
        let Some(v) = cells.get(vc).and_then(|c| number(c)) else {
            continue;
        };
        let name = nc.and_then(|c| cells.get(c)).cloned().unwrap_or_default();
        if let Some((_, other, row)) = seen.iter().find(|(x, n, _)| *x == v && *n != name) {
            out.push(Finding {
                page: rev.page.clone(),
                table: t.place(),
                row: i + 1,
                field: name.chars().take(40).collect(),
                what: format!("value {v:#x} is also row {row} ({other})"),
            });
        }
        seen.push((v, name, i + 1));
    }
}

/// Self-contradictions in the tables of one revision.
pub fn lint(rev: &Revision) -> Vec<Finding> {
    let mut out = Vec::new();
    for t in tables(&rev.text) {
        if t.column(&["Offset"]).is_none() {
            lint_values(rev, &t, &mut out);
        }
        let (Some(oc), Some(sc)) = (t.column(&["Offset"]), t.column(&["Size"])) else {
            continue;
        };
        let tc = t.column(&["Type", "Data Type"]);
        let place = t.place();
        let mut prev: Option<(u64, u64, usize)> = None;
        let span_of = |i: usize, c: usize| {
            1 + t.spanned[i + 1..]
                .iter()
                .take_while(|s| s.get(c).copied().unwrap_or(false))
                .count()
        };
        for (i, (_, cells)) in t.rows.iter().enumerate() {
            let rowno = i + 1;
            let continued = |c: usize| t.spanned[i].get(c).copied().unwrap_or(false);
            let field = field_name(&t, cells);
            let mut find = |what: String| {
                out.push(Finding {
                    page: rev.page.clone(),
                    table: place.clone(),
                    row: rowno,
                    field: field.clone(),
                    what,
                })
            };
            if cells.len() != t.headers.len() && !t.headers.is_empty() && !continued(oc) {
                find(format!(
                    "{} cells for {} columns",
                    cells.len(),
                    t.headers.len()
                ));
            }
            if continued(oc) {
                // Part of a field that rows above and below describe together (a rowspan).
                continue;
            }
            let off = cells.get(oc).and_then(|c| number(c));
            let size = cells.get(sc).and_then(|c| number(c));
            let ty = tc.and_then(|c| cells.get(c)).map_or("", |s| s.as_str());
            // A size that spans rows holds the types of all of them.
            let n = span_of(i, sc);
            let types: Option<u64> = match tc {
                Some(tcol) if n > 1 => (i..i + n)
                    .map(|r| t.rows[r].1.get(tcol).and_then(|x| type_size(x)))
                    .sum(),
                _ => type_size(ty),
            };
            if let (Some(s), Some(ts)) = (size, types) {
                if s != ts {
                    let what = if n > 1 {
                        format!("the types of its {n} rows")
                    } else {
                        format!("the type {ty}")
                    };
                    find(format!("size {s:#x} does not fit {what} ({ts:#x} bytes)"));
                }
            }
            if let (Some(o), Some((po, ps, prow))) = (off, prev) {
                let want = po + ps;
                if o != want && o != po {
                    find(format!(
                        "offset {o:#x} does not follow from row {prow} ({po:#x} + {ps:#x} = {want:#x})"
                    ));
                }
            }
            prev = match (off, size) {
                (Some(o), Some(s)) => Some((o, s, rowno)),
                _ => None,
            };
        }
    }
    out
}

/// The revisions `wiki lint` reads: each page's newest (the first in a dump), or the `rev`-th (0 = newest).
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
        assert_eq!(
            f,
            [
                "Sarc | Header [SARC header] | row 2 (Header size): size 0x2 does not fit the type u32 (0x4 bytes)",
                "Sarc | Header [SARC header] | row 3 (File size spanning two lines): offset 0x8 does not follow from row 2 (0x4 + 0x2 = 0x6)",
            ]
        );
    }

    #[test]
    fn numbers_and_types() {
        assert_eq!(number("0x1C"), Some(0x1c));
        assert_eq!(number("28 (0x1C)"), Some(28));
        assert_eq!(number("sizeof(B)"), None);
        assert_eq!(type_size("u32[4]"), Some(16));
        assert_eq!(type_size("char[4]"), Some(4));
        assert_eq!(type_size("float"), Some(4));
        assert_eq!(type_size("Vector3f"), Some(12));
        assert_eq!(type_size("MyStruct"), None);
    }
}
