//! `binspec wiki diff`: what changed in a page's tables between two revisions, and which schema types and enums
//! transcribe the tables that changed.
//!
//! Tables are matched by section path and caption (and their order among tables in the same place), then, for the
//! rest, by identical content under the same caption, by caption, by nearest heading and caption, and by section path with equal headers
//! (tables that moved under a new heading). Rows are matched by identical content, by offset (struct tables) or
//! value (enum tables) together with the name, by a name that occurs once on each side, by offset or value alone,
//! and at last by position between rows already matched.

use crate::layout::{self, Kind};
use crate::sources::{self, Source};
use crate::{list_revisions, number, tables, Error, Revision, Table};

/// A revision named by number (0 is the newest) or by the start of its timestamp (the newest that matches).
pub(crate) fn pick(revs: &[&Revision], spec: &str) -> Option<usize> {
    let spec = spec.trim();
    if spec.is_empty() {
        return None;
    }
    if spec.bytes().all(|b| b.is_ascii_digit()) {
        if let Some(n) = spec.parse::<usize>().ok().filter(|&n| n < revs.len()) {
            return Some(n);
        }
    }
    revs.iter().position(|r| r.timestamp.starts_with(spec))
}

/// What changed in one table.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDiff {
    /// The table in the older revision, if it was there.
    pub old: Option<usize>,
    /// The table in the newer revision, if it is there.
    pub new: Option<usize>,
    /// Where the table is (in the newer revision when it is there).
    pub place: String,
    /// One line per change.
    pub changes: Vec<String>,
    /// The schema items that transcribe the table (`sarc.ksy: type sarc`), when [`compare`] was given sources.
    pub touches: Vec<String>,
}

/// The tables of two revisions, matched: (older, newer) index pairs, with `None` on the side a table is missing
/// from, in the newer revision's order (a removed table where it was).
pub(crate) fn match_tables(old: &[Table], new: &[Table]) -> Vec<(Option<usize>, Option<usize>)> {
    let mut o_of_n: Vec<Option<usize>> = vec![None; new.len()];
    let mut n_of_o: Vec<Option<usize>> = vec![None; old.len()];
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let path = |t: &Table| norm(&t.sections.join(" > "));
    let last = |t: &Table| norm(t.sections.last().map_or("", |s| s.as_str()));
    let same_content = |a: &Table, b: &Table| {
        a.headers == b.headers && a.rows.iter().map(|r| &r.1).eq(b.rows.iter().map(|r| &r.1))
    };
    // Each pass pairs the tables still unpaired that share a key: identical ones first, the rest in order.
    let mut pass = |key: &dyn Fn(&Table) -> Option<String>, only_equal_headers: bool| {
        let mut groups: Vec<(String, Vec<usize>, Vec<usize>)> = Vec::new();
        for (i, t) in old.iter().enumerate() {
            if n_of_o[i].is_some() {
                continue;
            }
            let Some(k) = key(t) else { continue };
            match groups.iter_mut().find(|g| g.0 == k) {
                Some(g) => g.1.push(i),
                None => groups.push((k, vec![i], Vec::new())),
            }
        }
        for (j, t) in new.iter().enumerate() {
            if o_of_n[j].is_some() {
                continue;
            }
            let Some(k) = key(t) else { continue };
            if let Some(g) = groups.iter_mut().find(|g| g.0 == k) {
                g.2.push(j);
            }
        }
        for (_, os, ns) in groups {
            let mut used = vec![false; os.len()];
            let mut rest = Vec::new();
            for &j in &ns {
                match (0..os.len()).find(|&k| !used[k] && same_content(&old[os[k]], &new[j])) {
                    Some(k) => {
                        used[k] = true;
                        o_of_n[j] = Some(os[k]);
                        n_of_o[os[k]] = Some(j);
                    }
                    None => rest.push(j),
                }
            }
            let left: Vec<usize> = (0..os.len()).filter(|&k| !used[k]).map(|k| os[k]).collect();
            for (&i, &j) in left.iter().zip(&rest) {
                if only_equal_headers && old[i].headers != new[j].headers {
                    continue;
                }
                o_of_n[j] = Some(i);
                n_of_o[i] = Some(j);
            }
        }
    };
    pass(
        &|t| Some(format!("{}\u{1}{}", path(t), norm(&t.caption))),
        false,
    );
    pass(
        &|t| {
            let rows: Vec<String> = t.rows.iter().map(|r| r.1.join("\u{2}")).collect();
            Some(format!(
                "{}\u{1}{}\u{1}{}",
                norm(&t.caption),
                t.headers.join("\u{2}"),
                rows.join("\u{3}")
            ))
        },
        false,
    );
    pass(
        &|t| (!t.caption.trim().is_empty()).then(|| norm(&t.caption)),
        true,
    );
    pass(
        &|t| Some(format!("{}\u{1}{}", last(t), norm(&t.caption))),
        true,
    );
    pass(&|t| Some(path(t)), true);

    let mut out = Vec::new();
    let mut emitted = vec![false; old.len()];
    for (j, o) in o_of_n.iter().enumerate() {
        if let Some(i) = *o {
            for k in 0..i {
                if n_of_o[k].is_none() && !emitted[k] {
                    emitted[k] = true;
                    out.push((Some(k), None));
                }
            }
            emitted[i] = true;
        }
        out.push((*o, Some(j)));
    }
    for k in 0..old.len() {
        if n_of_o[k].is_none() && !emitted[k] {
            out.push((Some(k), None));
        }
    }
    out
}

/// A cell's text for a change line: whitespace collapsed, quoted when it is empty or holds spaces.
fn show(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.is_empty() || s.contains(char::is_whitespace) || s.contains('"') {
        format!("{s:?}")
    } else {
        s
    }
}

/// `a -> b` for two cell texts; long texts are cut to the words that differ, with a little context.
fn show_change(a: &str, b: &str) -> String {
    let wa: Vec<&str> = a.split_whitespace().collect();
    let wb: Vec<&str> = b.split_whitespace().collect();
    if a.len().max(b.len()) <= 80 {
        return format!("{} -> {}", show(a), show(b));
    }
    let pre = wa.iter().zip(&wb).take_while(|(x, y)| x == y).count();
    let max_suf = wa.len().min(wb.len()) - pre;
    let suf = wa
        .iter()
        .rev()
        .zip(wb.iter().rev())
        .take(max_suf)
        .take_while(|(x, y)| x == y)
        .count();
    const CONTEXT: usize = 3;
    let cut = |w: &[&str]| {
        let from = pre.saturating_sub(CONTEXT);
        let to = (w.len() - suf + CONTEXT).min(w.len());
        let mut s = String::new();
        if from > 0 {
            s.push_str("...");
        }
        s.push_str(&w[from..to].join(" "));
        if to < w.len() {
            s.push_str("...");
        }
        format!("{s:?}")
    };
    format!("{} -> {}", cut(&wa), cut(&wb))
}

/// A short text of a whole row, for rows added or removed: `offset 0x4, size 0x2, type u16, description "..."`.
fn show_row(headers: &[String], cells: &[String]) -> String {
    let mut parts = Vec::new();
    for (c, cell) in cells.iter().enumerate() {
        let cell = cell.split_whitespace().collect::<Vec<_>>().join(" ");
        if cell.is_empty() {
            continue;
        }
        let cell = if cell.chars().count() > 60 {
            format!("{}...", cell.chars().take(57).collect::<String>())
        } else {
            cell
        };
        parts.push(format!("{} {}", column_name(headers, c), show(&cell)));
    }
    if parts.is_empty() {
        "(empty)".into()
    } else {
        parts.join(", ")
    }
}

fn column_name(headers: &[String], c: usize) -> String {
    match headers
        .get(c)
        .map(|h| layout::strip_markup(h).to_lowercase())
    {
        Some(h) if !h.is_empty() => h,
        _ => format!("column {}", c + 1),
    }
}

/// The name a change line gives a row: the field's or enumerator's name, else its first non-empty cell.
fn row_names(t: &Table) -> Vec<String> {
    // At most 40 characters, cut at a word when the name is longer.
    let clip = |s: String| -> String {
        if s.chars().count() <= 40 {
            return s.trim().to_string();
        }
        let head: String = s.chars().take(40).collect();
        match head.rfind(' ') {
            Some(i) if i > 10 => head[..i].trim().to_string(),
            _ => head.trim().to_string(),
        }
    };
    match layout::kind(t) {
        Kind::Enum => layout::values(t)
            .into_iter()
            .map(|v| clip(v.name))
            .collect(),
        Kind::Struct | Kind::Bits => {
            let nc = t.column(&["Name", "Field", "Member"]);
            let dc = t.column(&["Description", "Notes", "Comment"]);
            t.rows
                .iter()
                .map(|(_, cells)| {
                    let get =
                        |c: Option<usize>| c.and_then(|c| cells.get(c)).map_or("", |s| s.as_str());
                    let n = layout::strip_markup(get(nc));
                    clip(if n.is_empty() {
                        layout::name_of(get(dc))
                    } else {
                        n
                    })
                })
                .collect()
        }
        Kind::Other(_) => t
            .rows
            .iter()
            .map(|(_, cells)| {
                clip(
                    cells
                        .iter()
                        .map(|c| layout::strip_markup(c))
                        .find(|c| !c.is_empty())
                        .unwrap_or_default(),
                )
            })
            .collect(),
    }
}

/// Each row's key: its offset in a struct table, its value in an enum table, else nothing.
fn row_keys(t: &Table) -> Vec<Option<String>> {
    let col = match layout::kind(t) {
        Kind::Struct => t.column(&["Offset"]),
        Kind::Bits => t.column(&["Bits", "Bit"]),
        Kind::Enum => {
            let v = layout::values(t);
            return v
                .into_iter()
                .map(|v| {
                    Some(
                        v.value
                            .map_or(v.value_text.trim().to_string(), |n| n.to_string()),
                    )
                })
                .collect();
        }
        Kind::Other(_) => None,
    };
    t.rows
        .iter()
        .map(|(_, cells)| {
            let c = cells.get(col?)?.trim();
            Some(number(c).map_or(c.to_string(), |n| n.to_string()))
        })
        .collect()
}

/// The rows of two versions of a table, matched, in the newer table's order (a removed row where it was).
fn match_rows(
    old: &Table,
    new: &Table,
    cols: &[(usize, usize)],
) -> Vec<(Option<usize>, Option<usize>)> {
    let (on, nn) = (row_names(old), row_names(new));
    let (ok, nk) = (row_keys(old), row_keys(new));
    let mut o_of_n: Vec<Option<usize>> = vec![None; new.rows.len()];
    let mut n_of_o: Vec<Option<usize>> = vec![None; old.rows.len()];
    let same = |i: usize, j: usize| {
        cols.iter().all(|&(a, b)| {
            old.rows[i].1.get(a).map(|s| s.trim()) == new.rows[j].1.get(b).map(|s| s.trim())
        })
    };
    let link =
        |o_of_n: &mut Vec<Option<usize>>, n_of_o: &mut Vec<Option<usize>>, i: usize, j: usize| {
            o_of_n[j] = Some(i);
            n_of_o[i] = Some(j);
        };
    // Identical rows, in order.
    let mut from = 0;
    for j in 0..new.rows.len() {
        if let Some(i) = (from..old.rows.len()).find(|&i| n_of_o[i].is_none() && same(i, j)) {
            link(&mut o_of_n, &mut n_of_o, i, j);
            from = i + 1;
        }
    }
    let count = |v: &[String], s: &str| v.iter().filter(|x| x.as_str() == s).count();
    // The same key and name; a name found once on each side; the same key.
    for step in 0..3 {
        for j in 0..new.rows.len() {
            if o_of_n[j].is_some() {
                continue;
            }
            let hit = (0..old.rows.len()).find(|&i| {
                n_of_o[i].is_none()
                    && match step {
                        0 => nk[j].is_some() && ok[i] == nk[j] && on[i] == nn[j],
                        1 => {
                            !nn[j].is_empty()
                                && on[i] == nn[j]
                                && count(&on, &on[i]) == 1
                                && count(&nn, &nn[j]) == 1
                        }
                        _ => nk[j].is_some() && ok[i] == nk[j],
                    }
            });
            if let Some(i) = hit {
                link(&mut o_of_n, &mut n_of_o, i, j);
            }
        }
    }
    // By position, between rows already matched.
    let mut j = 0;
    while j < new.rows.len() {
        if o_of_n[j].is_some() {
            j += 1;
            continue;
        }
        let end = (j..new.rows.len())
            .find(|&k| o_of_n[k].is_some())
            .unwrap_or(new.rows.len());
        let lo = (0..j).rev().find_map(|k| o_of_n[k]).map_or(0, |i| i + 1);
        let hi = (end < new.rows.len())
            .then(|| o_of_n[end])
            .flatten()
            .unwrap_or(old.rows.len());
        let free: Vec<usize> = (lo..hi.max(lo)).filter(|&i| n_of_o[i].is_none()).collect();
        for (k, &i) in (j..end).zip(&free) {
            link(&mut o_of_n, &mut n_of_o, i, k);
        }
        j = end;
    }
    let mut out = Vec::new();
    let mut emitted = vec![false; old.rows.len()];
    for (j, o) in o_of_n.iter().enumerate() {
        if let Some(i) = *o {
            for k in 0..i {
                if n_of_o[k].is_none() && !emitted[k] {
                    emitted[k] = true;
                    out.push((Some(k), None));
                }
            }
            emitted[i] = true;
        }
        out.push((*o, Some(j)));
    }
    for k in 0..old.rows.len() {
        if n_of_o[k].is_none() && !emitted[k] {
            out.push((Some(k), None));
        }
    }
    out
}

/// The columns two versions of a table share, as (older, newer) pairs: by header, then the rest by position
/// when both have the same number of columns.
fn match_columns(old: &Table, new: &Table) -> Vec<(usize, usize)> {
    let norm = |h: &str| layout::strip_markup(h).to_lowercase();
    let width = |t: &Table| {
        t.headers
            .len()
            .max(t.rows.iter().map(|r| r.1.len()).max().unwrap_or(0))
    };
    let (wo, wn) = (width(old), width(new));
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for b in 0..wn {
        let Some(h) = new.headers.get(b).map(|h| norm(h)) else {
            continue;
        };
        if let Some(a) = (0..old.headers.len())
            .find(|&a| norm(&old.headers[a]) == h && !pairs.iter().any(|p| p.0 == a))
        {
            pairs.push((a, b));
        }
    }
    if wo == wn {
        for c in 0..wn {
            if !pairs.iter().any(|p| p.0 == c) && !pairs.iter().any(|p| p.1 == c) {
                pairs.push((c, c));
            }
        }
    }
    pairs.sort_by_key(|p| p.1);
    pairs
}

/// What changed between two versions of one table, as change lines (without the page and place).
pub(crate) fn diff_table(old: &Table, new: &Table) -> Vec<String> {
    let mut out = Vec::new();
    if old.sections != new.sections {
        out.push(format!("table moved from {}", show(&old.place())));
    } else if old.caption.trim() != new.caption.trim() {
        out.push(format!(
            "caption {}",
            show_change(&old.caption, &new.caption)
        ));
    }
    if old.headers != new.headers {
        out.push(format!(
            "headers {} -> {}",
            show(&old.headers.join(", ")),
            show(&new.headers.join(", "))
        ));
    }
    let cols = match_columns(old, new);
    let names_new = row_names(new);
    let names_old = row_names(old);
    let label = |names: &[String], i: usize| {
        if names[i].is_empty() {
            format!("row {}", i + 1)
        } else {
            format!("row {} ({})", i + 1, names[i])
        }
    };
    for (o, n) in match_rows(old, new, &cols) {
        match (o, n) {
            (Some(i), Some(j)) => {
                let (a, b) = (&old.rows[i].1, &new.rows[j].1);
                for &(ca, cb) in &cols {
                    let x = a.get(ca).map_or("", |s| s.as_str());
                    let y = b.get(cb).map_or("", |s| s.as_str());
                    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
                    if norm(x) != norm(y) {
                        out.push(format!(
                            "{}: {} {}",
                            label(&names_new, j),
                            column_name(&new.headers, cb),
                            show_change(x, y)
                        ));
                    }
                }
            }
            (None, Some(j)) => out.push(format!(
                "{}: added: {}",
                label(&names_new, j),
                show_row(&new.headers, &new.rows[j].1)
            )),
            (Some(i), None) => out.push(format!(
                "old {}: removed: {}",
                label(&names_old, i),
                show_row(&old.headers, &old.rows[i].1)
            )),
            (None, None) => {}
        }
    }
    out
}

/// What changed between the tables of two revisions' texts.
pub fn diff_tables(old: &[Table], new: &[Table]) -> Vec<TableDiff> {
    let mut out = Vec::new();
    for (o, n) in match_tables(old, new) {
        let changes = match (o, n) {
            (Some(i), Some(j)) => diff_table(&old[i], &new[j]),
            (None, Some(j)) => vec![format!(
                "table added ({}, {} rows)",
                layout::kind(&new[j]).name(),
                new[j].rows.len()
            )],
            (Some(i), None) => vec![format!(
                "table removed ({}, {} rows)",
                layout::kind(&old[i]).name(),
                old[i].rows.len()
            )],
            (None, None) => Vec::new(),
        };
        if changes.is_empty() {
            continue;
        }
        let place = match n {
            Some(j) => new[j].place(),
            None => old[o.expect("one side")].place(),
        };
        out.push(TableDiff {
            old: o,
            new: n,
            place,
            changes,
            touches: Vec::new(),
        });
    }
    out
}

/// Which two revisions of a page (newest first) to compare, as (older, newer) indices: `a` and `b` name them by
/// number (0 is the newest) or by the start of a timestamp; `b` is the newest when only `a` is given, and with
/// neither the newest is compared with the one before it.
pub fn choose(
    revs: &[&Revision],
    a: Option<&str>,
    b: Option<&str>,
) -> Result<(usize, usize), Error> {
    let Some(first) = revs.first() else {
        return Err(Error::Choice("no revisions to compare".into()));
    };
    let title = &first.page;
    let which = |spec: &str| {
        pick(revs, spec).ok_or_else(|| {
            Error::Choice(format!(
                "{title} has no revision {spec:?} (a number, 0 the newest, or the start of a timestamp); its revisions:{}",
                list_revisions(revs)
            ))
        })
    };
    match (a, b) {
        (Some(x), Some(y)) => Ok((which(x)?, which(y)?)),
        (Some(x), None) => Ok((which(x)?, 0)),
        _ => {
            if revs.len() < 2 {
                return Err(Error::Choice(format!(
                    "{title} has only one revision; name two to compare:{}",
                    list_revisions(revs)
                )));
            }
            Ok((1, 0))
        }
    }
}

/// What changed between two revisions of a page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageDiff {
    /// The tables that changed, in the newer revision's order (a removed table where it was).
    pub tables: Vec<TableDiff>,
    /// How many tables the older revision has.
    pub old_tables: usize,
    /// How many tables the newer revision has.
    pub new_tables: usize,
}

impl PageDiff {
    /// The change lines as `binspec wiki diff` prints them: `PAGE | PLACE | CHANGE`, each table's followed by the
    /// schema items it touches (`  touches: sarc.ksy: type sarc`).
    pub fn report(&self, page: &str) -> String {
        let mut out = String::new();
        for d in &self.tables {
            for c in &d.changes {
                out.push_str(&format!("{page} | {} | {c}\n", d.place));
            }
            for l in &d.touches {
                out.push_str(&format!("  touches: {l}\n"));
            }
        }
        out
    }

    /// How many change lines there are.
    pub fn changes(&self) -> usize {
        self.tables.iter().map(|d| d.changes.len()).sum()
    }

    /// How many schema items the changes touch (an item is counted once per table).
    pub fn touched(&self) -> usize {
        self.tables.iter().map(|d| d.touches.len()).sum()
    }
}

/// What changed in the tables between two revisions of a page (`old`, then `new`), each changed table with the
/// schema items among `sources` that transcribe it (in the newer revision, or the older one for a removed table).
pub fn compare(old: &Revision, new: &Revision, sources: &[Source<'_>]) -> PageDiff {
    let (ta, tb) = (tables(&old.text), tables(&new.text));
    let mut diffs = diff_tables(&ta, &tb);
    for d in &mut diffs {
        let hits = match (d.old, d.new) {
            (_, Some(j)) => sources::touching(sources, &new.page, &tb, j),
            (Some(i), None) => sources::touching(sources, &old.page, &ta, i),
            (None, None) => Vec::new(),
        };
        let mut labels: Vec<String> = hits.iter().map(|s| s.label()).collect();
        labels.dedup();
        d.touches = labels;
    }
    PageDiff {
        tables: diffs,
        old_tables: ta.len(),
        new_tables: tb.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(rows: &str) -> String {
        format!("== Header ==\n{{| class=\"wikitable\"\n|+ Pane\n!Offset\n!Size\n!Type\n!Description\n{rows}|}}\n")
    }

    fn row(o: &str, s: &str, t: &str, d: &str) -> String {
        format!("|-\n|{o}\n|{s}\n|{t}\n|{d}\n")
    }

    #[test]
    fn rows_changed_added_removed() {
        let old = page(
            &[
                row("0x0", "0x4", "u32", "Magic"),
                row("0x4", "0x2", "u16", "Count"),
                row("0x6", "0x2", "u16", "Old"),
            ]
            .concat(),
        );
        let new = page(
            &[
                row("0x0", "0x4", "u32", "Magic"),
                row("0x4", "0x4", "u32", "Count"),
                row("0x8", "0x4", "u32", "Flags"),
                row("0xc", "0x4", "u32", "New field"),
            ]
            .concat(),
        );
        let d = diff_tables(&tables(&old), &tables(&new));
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].place, "Header [Pane]");
        assert_eq!(
            d[0].changes,
            [
                "row 2 (Count): size 0x2 -> 0x4",
                "row 2 (Count): type u16 -> u32",
                "row 3 (Flags): offset 0x6 -> 0x8",
                "row 3 (Flags): size 0x2 -> 0x4",
                "row 3 (Flags): type u16 -> u32",
                "row 3 (Flags): description Old -> Flags",
                "row 4 (New field): added: offset 0xc, size 0x4, type u32, description \"New field\"",
            ]
        );
    }

    #[test]
    fn an_inserted_row_shifts_the_rest_by_name() {
        let old = page(
            &[
                row("0x0", "0x4", "u32", "Magic"),
                row("0x4", "0x4", "u32", "Size"),
                row("0x8", "0x4", "u32", "Count"),
            ]
            .concat(),
        );
        let new = page(
            &[
                row("0x0", "0x4", "u32", "Magic"),
                row("0x4", "0x4", "u32", "Version"),
                row("0x8", "0x4", "u32", "Size"),
                row("0xc", "0x4", "u32", "Count"),
            ]
            .concat(),
        );
        let d = diff_tables(&tables(&old), &tables(&new));
        assert_eq!(
            d[0].changes,
            [
                "row 2 (Version): added: offset 0x4, size 0x4, type u32, description Version",
                "row 3 (Size): offset 0x4 -> 0x8",
                "row 4 (Count): offset 0x8 -> 0xc",
            ]
        );
        // And back: the row is removed.
        let d = diff_tables(&tables(&new), &tables(&old));
        assert_eq!(
            d[0].changes[0],
            "old row 2 (Version): removed: offset 0x4, size 0x4, type u32, description Version"
        );
    }

    #[test]
    fn tables_added_removed_and_moved() {
        let t = |sec: &str, cap: &str, rows: &str| {
            format!("== {sec} ==\n{{| class=\"wikitable\"\n|+ {cap}\n!Offset\n!Size\n!Type\n!Description\n{rows}|}}\n")
        };
        let r = row("0x0", "0x4", "u32", "Magic");
        let old = [t("A", "One", &r), t("B", "Two", &r)].concat();
        let new = [
            "== Top ==\n".to_string(),
            t("A", "One", &r).replace("== A ==", "=== A ==="),
            t("C", "Three", &r),
        ]
        .concat();
        let d = diff_tables(&tables(&old), &tables(&new));
        let lines: Vec<String> = d
            .iter()
            .flat_map(|d| d.changes.iter().map(move |c| format!("{} | {c}", d.place)))
            .collect();
        assert_eq!(
            lines,
            [
                "Top > A [One] | table moved from \"A [One]\"",
                "C [Three] | table added (struct, 1 rows)",
                "B [Two] | table removed (struct, 1 rows)",
            ]
        );
    }

    #[test]
    fn enums_match_by_value_and_long_texts_are_cut() {
        let e = |rows: &str| {
            format!("{{| class=\"wikitable\"\n!Name\n!Value\n!Description\n{rows}|}}\n")
        };
        let long = "The PhiveConfig byaml stores an application's layers under SubLayerEntityCollection for entity rigid bodies.";
        let old = e(&format!("|-\n|A\n|0\n|x\n|-\n|B\n|1\n|{long}\n"));
        let new = e(&format!(
            "|-\n|A\n|0\n|x\n|-\n|Bee\n|1\n|{}\n",
            long.replace("application's layers", "application's sub layers")
        ));
        let d = diff_tables(&tables(&old), &tables(&new));
        assert_eq!(
            d[0].changes,
            [
                "row 2 (Bee): name B -> Bee",
                "row 2 (Bee): description \"...stores an application's layers under SubLayerEntityCollection...\" -> \"...stores an application's sub layers under SubLayerEntityCollection...\"",
            ]
        );
    }

    #[test]
    fn revisions_by_number_and_timestamp() {
        let r = |ts: &str| Revision {
            page: "P".into(),
            timestamp: ts.into(),
            first_line: 1,
            text: String::new(),
        };
        let revs = [
            r("2026-02-20T12:02:51Z"),
            r("2026-01-13T10:50:02Z"),
            r("2025-05-01T00:00:00Z"),
        ];
        let refs: Vec<&Revision> = revs.iter().collect();
        assert_eq!(pick(&refs, "1"), Some(1));
        assert_eq!(pick(&refs, "3"), None);
        assert_eq!(pick(&refs, "2026-01"), Some(1));
        assert_eq!(pick(&refs, "2026"), Some(0));
        assert_eq!(pick(&refs, "2024"), None);
    }
}
