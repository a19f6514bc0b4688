//! `binspec wiki lint`: tables that contradict themselves.
//!
//! Struct tables: rows whose cells do not fill the columns, sizes that do not fit their types, offsets that go
//! backwards or overlap the row before ("does not follow"), offsets that leave a gap the page does not explain
//! (padding and alignment are explanations), field names given twice, size expressions that name a field the page
//! does not have, bit rows (`0x6:a`, `6 bit`) that overlap or do not fit their type. Bit tables: bits that overlap
//! or exceed the integer the page gives them. Enum tables: a value listed twice with different names, a name
//! listed twice with different values. C-style structs: padding that does not end on the alignment its comment
//! names, and comments that give a field's offset or the struct's size that the types do not add up to.
//! `lint_values` has the checks of single cells: offsets that are not numbers, enum values that break their run,
//! magics that name another section; and names rows that have no name cell.
//!
//! Every check reads a table's rows once (with `lint_index` for what earlier rows said) and the page's other tables
//! once per page, so a page is linted in time about linear in its size.

use crate::layout::{self, Kind};
use crate::lint_index::{
    first_earlier, known_names, struct_widths, FirstCover, FirstOther, Known, Widths,
};
use crate::lint_values;
use crate::{number, tables, type_size, Revision, Table};

/// One finding of `wiki lint`.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The page's title.
    pub page: String,
    /// Where the table is on the page ([`Table::place`]).
    pub table: String,
    /// 1-based data row.
    pub row: usize,
    /// The row's field name (from its name cell, else from its other cells); empty when it has no text.
    pub field: String,
    /// What contradicts what.
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

/// Names that tables legitimately repeat: reserved and unknown fields, padding.
fn generic(name: &str) -> bool {
    let n = name.to_lowercase();
    n.is_empty()
        || [
            "unknown", "reserved", "padding", "unused", "align", "?", "todo",
        ]
        .iter()
        .any(|g| n.contains(g))
        || n.starts_with("unk")
        || n.starts_with("pad")
        || n.starts_with("dummy")
}

/// Enum-like tables (a Value column, no Offset): a value listed twice with different names, and a name listed
/// twice with different values.
fn lint_values(rev: &Revision, t: &Table, out: &mut Vec<Finding>) {
    let Some(vc) = t.column(&["Value", "Id", "ID"]) else {
        return;
    };
    let nc = t.column(&["Name", "Type", "Description"]);
    // The first earlier row of each value with another name, and of each name with another value.
    let mut by_value: FirstOther<u64, String> = FirstOther::default();
    let mut by_name: FirstOther<String, u64> = FirstOther::default();
    for (i, (_, cells)) in t.rows.iter().enumerate() {
        let Some(v) = cells.get(vc).and_then(|c| number(c)) else {
            continue;
        };
        let name = nc.and_then(|c| cells.get(c)).cloned().unwrap_or_default();
        let field: String = name.chars().take(40).collect();
        if let Some((other, row)) = by_value.check_and_add(v, name.clone(), i + 1) {
            out.push(Finding {
                page: rev.page.clone(),
                table: t.place(),
                row: i + 1,
                field: field.clone(),
                what: format!("value {v:#x} is also row {row} ({other})"),
            });
        }
        let key = name.trim();
        let same_name = by_name.check_and_add(key.to_string(), v, i + 1);
        if !generic(key) {
            if let Some((x, row)) = same_name {
                out.push(Finding {
                    page: rev.page.clone(),
                    table: t.place(),
                    row: i + 1,
                    field,
                    what: format!(
                        "name {key:?} is also row {row}, with the value {x:#x} (here {v:#x})"
                    ),
                });
            }
        }
    }
}

/// `N bit`/`N bits` in a size cell: a bit count.
fn bit_count(s: &str) -> Option<u64> {
    let s = s.trim().to_ascii_lowercase();
    let n = s
        .strip_suffix("bits")
        .or_else(|| s.strip_suffix("bit"))?
        .trim();
    number(n)
}

/// `0x6:a` in an offset cell: byte 6, bit 10 (the bit in hex, as the byte).
fn bit_offset(s: &str) -> Option<(u64, u64)> {
    let (byte, bit) = s.trim().split_once(':')?;
    let byte = number(byte)?;
    let bit = u64::from_str_radix(bit.trim().trim_start_matches("0x"), 16).ok()?;
    Some((byte, bit))
}

/// Whether a row's cells say it is padding or alignment.
fn says_padding(cells: &[String]) -> bool {
    cells.iter().any(|c| {
        let c = c.to_lowercase();
        c.contains("pad") || c.contains("align")
    })
}

/// The text between the heading above a table (or the table before it) and the table: notes such as "Unmarked
/// space is padding".
fn intro(lines: &[&str], line: usize) -> String {
    let mut out = Vec::new();
    for l in lines[..line.saturating_sub(1).min(lines.len())]
        .iter()
        .rev()
    {
        let l = l.trim();
        if l.starts_with("==") || l.starts_with("|}") {
            break;
        }
        out.push(l);
    }
    out.reverse();
    out.join(" ").to_lowercase()
}

/// Offsets, sizes and types of a table with Offset and Size columns.
fn lint_offsets(rev: &Revision, lines: &[&str], t: &Table, out: &mut Vec<Finding>) {
    let (Some(oc), Some(sc)) = (t.column(&["Offset"]), t.column(&["Size"])) else {
        return;
    };
    let tc = t.column(&["Type", "Data Type"]);
    let place = t.place();
    let padding_noted = intro(lines, t.line).contains("padding");
    // The row before: offset, size, row, and whether its size fits its type.
    let mut prev: Option<(u64, u64, usize, bool)> = None;
    // Where a row that went backwards should have ended (the row after it may follow from there).
    let mut corrected: Option<u64> = None;
    // Bits of one integer described row by row: (byte offset, next bit, width).
    let mut bits: Option<(u64, u64, u64)> = None;
    let span_of = |i: usize, c: usize| {
        1 + t.spanned[i + 1..]
            .iter()
            .take_while(|s| s.get(c).copied().unwrap_or(false))
            .count()
    };
    for (i, (_, cells)) in t.rows.iter().enumerate() {
        let rowno = i + 1;
        let continued = |c: usize| t.spanned[i].get(c).copied().unwrap_or(false);
        let field = field_name(t, cells);
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
        let ty = tc.and_then(|c| cells.get(c)).map_or("", |s| s.as_str());
        let size_text = cells.get(sc).map_or("", |s| s.as_str());
        let off_text = cells.get(oc).map_or("", |s| s.as_str());
        if number(size_text).is_none() && type_size(size_text).is_some() && number(ty).is_some() {
            find(format!(
                "the size {} is a type and the type {} a size: the two cells look swapped",
                size_text.trim(),
                ty.trim()
            ));
        }
        if let Some(n) = bit_count(size_text) {
            // A bit field: `0x6:a`, `6 bit`, in an integer of the row's type.
            let Some((byte, bit)) = bit_offset(off_text) else {
                prev = None;
                continue;
            };
            let width = type_size(ty).map(|s| s * 8);
            if let Some((b, next, _)) = bits.filter(|b| b.0 == byte) {
                if bit < next {
                    find(format!(
                        "bits {bit}..{} overlap the bits before (the next free bit is {next})",
                        bit + n.max(1) - 1
                    ));
                }
                let _ = b;
            }
            if let Some(w) = width {
                if bit + n > w {
                    find(format!(
                        "bits {bit}..{} do not fit the type {ty} ({w} bits)",
                        bit + n.max(1) - 1
                    ));
                }
            }
            bits = Some((byte, bit + n, width.unwrap_or(0)));
            prev = type_size(ty).map(|s| (byte, s, rowno, true));
            corrected = None;
            continue;
        }
        bits = None;
        let off = number(off_text);
        let size = number(size_text);
        // A size that spans rows holds the types of all of them.
        let n = span_of(i, sc);
        let types: Option<u64> = match tc {
            Some(tcol) if n > 1 => (i..i + n)
                .map(|r| t.rows[r].1.get(tcol).and_then(|x| type_size(x)))
                .sum(),
            _ => type_size(ty),
        };
        let mut fits = true;
        if let (Some(s), Some(ts)) = (size, types) {
            if s != ts {
                fits = false;
                let what = if n > 1 {
                    format!("the types of its {n} rows")
                } else {
                    format!("the type {ty}")
                };
                find(format!("size {s:#x} does not fit {what} ({ts:#x} bytes)"));
            }
        }
        let mut went_back = None;
        if let (Some(o), Some((po, ps, prow, pfits))) = (off, prev) {
            let want = po + ps;
            if o != want && o != po && Some(o) != corrected {
                let documented =
                    says_padding(cells) || says_padding(&t.rows[i - 1].1) || padding_noted;
                if o > want && pfits {
                    if !documented {
                        find(format!(
                            "offset {o:#x} leaves a gap of {:#x} bytes after row {prow} ({po:#x} + {ps:#x} = {want:#x})",
                            o - want
                        ));
                    }
                } else {
                    find(format!(
                        "offset {o:#x} does not follow from row {prow} ({po:#x} + {ps:#x} = {want:#x})"
                    ));
                    if o < want {
                        went_back = Some(want);
                    }
                }
            }
        }
        corrected = match (went_back, size) {
            (Some(w), Some(s)) => Some(w + s),
            _ => None,
        };
        // A size that contradicts its type: the next offset may follow from the type instead (then the size cell
        // is the mistake, and the next row is not one more).
        if !fits {
            if let (Some(o), Some(ts)) = (off, types) {
                corrected = Some(o + ts);
            }
        }
        prev = match (off, size) {
            (Some(o), Some(s)) => Some((o, s, rowno, fits)),
            _ => None,
        };
    }
}

/// Struct tables: a row that states the size of the header it belongs to (`Size of header (0x14)`) while the
/// table's rows, all with stated offsets and sizes, end elsewhere.
fn lint_stated_size(rev: &Revision, t: &Table, out: &mut Vec<Finding>) {
    let fields = layout::fields(t);
    if fields.is_empty() || t.code {
        return;
    }
    let Some(end) = fields
        .iter()
        .map(|f| Some(f.offset? + f.size?).filter(|_| f.offset_stated))
        .collect::<Option<Vec<u64>>>()
        .and_then(|ends| ends.into_iter().max())
    else {
        return;
    };
    const SAYS: &[&str] = &[
        "size of header",
        "size of this header",
        "size of the header",
        "header size",
        "size of this structure",
        "size of this struct",
    ];
    for f in &fields {
        let d = f.description.to_lowercase();
        let Some(at) = SAYS.iter().find_map(|p| d.find(p).map(|i| i + p.len())) else {
            continue;
        };
        let rest = d[at..].trim_start();
        let Some(inner) = rest.strip_prefix('(').and_then(|r| r.split(')').next()) else {
            continue;
        };
        let Some(stated) = number(inner) else {
            continue;
        };
        if stated != end {
            out.push(Finding {
                page: rev.page.clone(),
                table: t.place(),
                row: f.row,
                field: f.name.chars().take(40).collect(),
                what: format!(
                    "says the header is {stated:#x} bytes, but the table's rows end at {end:#x}"
                ),
            });
        }
    }
}

/// Struct tables: a field name given twice.
fn lint_duplicates(rev: &Revision, t: &Table, out: &mut Vec<Finding>) {
    let fields = layout::fields(t);
    // Names taken from descriptions repeat where the types tell the rows apart (`Property Array` of s32, of
    // bool, ...): those count only with the same type.
    let named = t.code || t.column(&["Name", "Field", "Member"]).is_some();
    let names: Vec<String> = fields
        .iter()
        .map(|f| layout::strip_markup(&f.name))
        .collect();
    let firsts = first_earlier(fields.len(), |k| {
        let f = &fields[k];
        let ty = if named { "" } else { f.ty.trim() };
        (!generic(&names[k])).then(|| (names[k].to_lowercase(), ty))
    });
    for ((f, name), first) in fields.iter().zip(&names).zip(firsts) {
        if let Some(first) = first.map(|k| &fields[k]) {
            out.push(Finding {
                page: rev.page.clone(),
                table: t.place(),
                row: f.row,
                field: name.chars().take(40).collect(),
                what: format!("the field name {name:?} is also row {}", first.row),
            });
        }
    }
}

/// The names a size expression uses: `0x4 * Texture Count` uses `Texture Count`.
fn expression_names(s: &str) -> Vec<String> {
    let s = layout::strip_markup(s);
    if !s.contains(['*', '+']) || s.contains(['<', '[', '&']) {
        return Vec::new();
    }
    // `(Color4u8) 0x4 * Color Count`: what is in parentheses is a note.
    let mut plain = String::new();
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let s = plain;
    // Runs of words between operators and numbers: `0x4 * Color Count 0xc * Color Count` names `Color Count`.
    let mut names = Vec::new();
    for part in s.split(['*', '+', '-', '/']) {
        let mut run: Vec<&str> = Vec::new();
        for w in part.split_whitespace().chain([""]) {
            if w.is_empty() || number(w).is_some() || w.starts_with("0x") {
                if !run.is_empty() {
                    names.push(run.join(" "));
                    run.clear();
                }
            } else {
                run.push(w);
            }
        }
    }
    let mut seen = Vec::new();
    names.retain(|n| {
        let new = !seen.contains(n);
        seen.push(n.clone());
        new
    });
    names
}

/// Size cells whose expression names a field that neither the table nor the rest of the page has (`known`, from
/// [`known_names`]).
fn lint_size_names(rev: &Revision, t: &Table, known: &Known, out: &mut Vec<Finding>) {
    let Some(sc) = t.column(&["Size"]) else {
        return;
    };
    for (i, (_, cells)) in t.rows.iter().enumerate() {
        if t.spanned[i].get(sc).copied().unwrap_or(false) {
            continue;
        }
        let Some(text) = cells.get(sc) else { continue };
        for name in expression_names(text) {
            let lower = name.to_lowercase();
            // Only names of counts and lengths: others (`Range`, `N`) may be quantities the page derives.
            let counts = ["count", "length", "num", "size", "number"];
            if !counts
                .iter()
                .any(|c| lower.split_whitespace().any(|w| w.starts_with(c)))
            {
                continue;
            }
            if known.has(&lower) {
                continue;
            }
            out.push(Finding {
                page: rev.page.clone(),
                table: t.place(),
                row: i + 1,
                field: field_name(t, cells),
                what: format!(
                    "the size {:?} names {name:?}, which is not a field of this table or page",
                    layout::strip_markup(text)
                ),
            });
        }
    }
}

/// The integer width of a bits table, from its caption or headings (`u16`, `32-bit`), else from a struct row of
/// the page whose type or name is the table's caption or heading (`widths`, from [`struct_widths`]); with where
/// it was found.
fn bits_width(t: &Table, widths: &Widths) -> Option<(u64, String)> {
    let mut texts: Vec<&str> = vec![t.caption.as_str()];
    if let Some(s) = t.sections.last() {
        texts.push(s);
    }
    for text in &texts {
        let lower = text.to_lowercase();
        for w in lower.split(|c: char| !c.is_alphanumeric() && c != '-') {
            let bits = match w {
                "u8" | "s8" | "uint8" | "uint8_t" | "8-bit" => 8,
                "u16" | "s16" | "uint16" | "uint16_t" | "16-bit" => 16,
                "u32" | "s32" | "uint32" | "uint32_t" | "32-bit" => 32,
                "u64" | "s64" | "uint64" | "uint64_t" | "64-bit" => 64,
                _ => continue,
            };
            return Some((bits, format!("{w} in {:?}", text.trim())));
        }
    }
    texts
        .iter()
        .map(|s| layout::strip_markup(s).to_lowercase())
        .filter(|s| !s.is_empty())
        .filter_map(|n| widths.get(&n))
        .min_by_key(|w| w.0)
        .map(|(_, s, from)| (s * 8, from.clone()))
}

/// A bit range: `0-3`, `3-0`, `4`, `0..3`, `[0:3]`, `bit 4`.
fn bit_range(s: &str) -> Option<(u64, u64)> {
    let s = layout::strip_markup(s).to_lowercase();
    let s = s
        .trim_start_matches("bits")
        .trim_start_matches("bit")
        .trim();
    let s = s.trim_matches(['[', ']']).trim();
    let parts: Vec<&str> = s
        .split(['-', ':', '–'])
        .flat_map(|p| p.split(".."))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let n: Vec<u64> = parts.iter().map(|p| number(p)).collect::<Option<_>>()?;
    match n[..] {
        [a] => Some((a, a)),
        [a, b] => Some((a.min(b), a.max(b))),
        _ => None,
    }
}

/// Bits tables: ranges that overlap or exceed the integer; for tables of bit counts (`Bitfield Size`), a total
/// that exceeds it.
fn lint_bits(rev: &Revision, t: &Table, widths: &Widths, out: &mut Vec<Finding>) {
    if layout::kind(t) != Kind::Bits {
        return;
    }
    let Some(bc) = t.headers.iter().position(|h| {
        let h = h.trim().to_lowercase();
        h == "bits" || h == "bit" || h.starts_with("bitfield")
    }) else {
        return;
    };
    let width = bits_width(t, widths);
    let dc = t.column(&["Description", "Name", "Notes"]);
    let texts: Vec<&str> = t
        .rows
        .iter()
        .map(|(_, c)| c.get(bc).map_or("", |s| s.as_str()))
        .collect();
    // A table of ranges when any cell is one (`0-3`), or the header says so; else a table of counts.
    let header = t.headers[bc].to_lowercase();
    let ranges = !header.contains("size")
        && (texts
            .iter()
            .any(|s| s.contains(['-', ':', '–']) || s.contains(".."))
            || header == "bit");
    let name_of = |i: usize| {
        dc.and_then(|c| t.rows[i].1.get(c))
            .map_or(String::new(), |s| {
                layout::name_of(s).chars().take(40).collect()
            })
    };
    let mut find = |row: usize, what: String| {
        out.push(Finding {
            page: rev.page.clone(),
            table: t.place(),
            row: row + 1,
            field: name_of(row),
            what,
        })
    };
    if ranges {
        let parsed: Vec<Option<(u64, u64)>> = texts.iter().map(|s| bit_range(s)).collect();
        let all: Vec<(u64, u64)> = parsed.iter().flatten().copied().collect();
        // The first earlier row that overlaps each row.
        let mut seen = FirstCover::new(&all);
        for (i, range) in parsed.iter().enumerate() {
            let Some((lo, hi)) = *range else {
                continue;
            };
            if let Some(r) = seen.first_overlap(lo, hi) {
                let (a, b) = parsed[r].unwrap_or_default();
                find(
                    i,
                    format!("bits {lo}..{hi} overlap row {} (bits {a}..{b})", r + 1),
                );
            }
            if let Some((w, from)) = &width {
                if hi >= *w {
                    find(
                        i,
                        format!("bits {lo}..{hi} exceed the {w} bits of the integer ({from})"),
                    );
                }
            }
            seen.add(lo, hi, i);
        }
    } else if let Some((w, from)) = &width {
        let mut at = 0u64;
        for (i, s) in texts.iter().enumerate() {
            let Some(n) = number(s) else { continue };
            if at + n > *w && n > 0 {
                find(
                    i,
                    format!(
                        "bits {at}..{} exceed the {w} bits of the integer ({from})",
                        at + n - 1
                    ),
                );
                break;
            }
            at += n;
        }
    }
}

/// `align to 8 bytes`, `alignment to 0x10`: the alignment a comment names.
fn alignment(comment: &str) -> Option<u64> {
    let c = comment.to_lowercase();
    let i = c.find("align")?;
    let rest = &c[i..];
    let to = rest.find(" to ")?;
    let n = rest[to + 4..].split_whitespace().next()?;
    number(n).filter(|&n| n > 1)
}

/// A comment that is an offset: `0x10`, `0x10:`, `0x10 -`, `offset 0x10`.
fn stated_offset(comment: &str) -> Option<u64> {
    let c = comment.trim();
    let c = c
        .strip_prefix("offset ")
        .or_else(|| c.strip_prefix("Offset "))
        .or_else(|| c.strip_prefix("@ "))
        .unwrap_or(c);
    let mut words = c.splitn(2, char::is_whitespace);
    let first = words.next()?.trim_end_matches(':');
    let rest = words.next().unwrap_or("").trim();
    if !first.to_ascii_lowercase().starts_with("0x") {
        return None;
    }
    let n = number(first)?;
    let ok =
        (rest.is_empty() || rest.starts_with('-') || c.split_whitespace().next()?.ends_with(':'))
            && !rest.starts_with("if");
    ok.then_some(n)
}

/// A comment that gives the struct's size: `size 0x38`, `size: 0x38`, `sizeof = 56`.
fn stated_size(comment: &str) -> Option<u64> {
    let c = comment.to_lowercase();
    let i = c.find("size")?;
    let rest = c[i..]
        .trim_start_matches("sizeof")
        .trim_start_matches("size");
    let rest = rest
        .trim_start()
        .trim_start_matches([':', '='])
        .trim_start();
    let rest = rest.strip_prefix("is ").unwrap_or(rest);
    number(rest.split_whitespace().next()?)
}

/// The comment on a line of a revision's text (1-based, in its `lines`), if any.
fn line_comment(lines: &[&str], line: usize) -> String {
    let l = line
        .checked_sub(1)
        .and_then(|i| lines.get(i))
        .copied()
        .unwrap_or("");
    l.find("//")
        .map_or(String::new(), |i| l[i + 2..].trim().to_string())
}

/// C-style structs: padding that does not end on the alignment its comment names; comments that give a field's
/// offset or the struct's size which the types before do not add up to.
fn lint_code(rev: &Revision, lines: &[&str], t: &Table, out: &mut Vec<Finding>) {
    let fields = layout::fields(t);
    let mut find = |row: usize, field: &str, what: String| {
        out.push(Finding {
            page: rev.page.clone(),
            table: t.place(),
            row,
            field: field.chars().take(40).collect(),
            what,
        })
    };
    // Offsets are only sums while no field before is conditional.
    let mut certain = true;
    for f in &fields {
        let conditional = f.description.starts_with("if ");
        let comment = match f.description.split_once("): ") {
            Some((c, rest)) if conditional && c.starts_with("if (") => rest,
            _ if conditional => "",
            _ => f.description.as_str(),
        };
        if let (true, Some(o)) = (certain, f.offset) {
            let name_l = f.name.to_lowercase();
            let padding = f.name.is_empty() || name_l.contains("pad") || name_l.contains("align");
            if let (true, Some(n), Some(s)) = (padding, alignment(comment), f.size) {
                let end = o + s;
                if end % n != 0 {
                    find(
                        f.row,
                        &f.name,
                        format!(
                            "padding ends at {end:#x} ({o:#x} + {s:#x}), not on the multiple of {n:#x} its comment aligns to"
                        ),
                    );
                }
            }
            if let Some(x) = stated_offset(comment) {
                if x != o {
                    find(
                        f.row,
                        &f.name,
                        format!("its comment gives the offset {x:#x}, but the fields before it add up to {o:#x}"),
                    );
                }
            }
        }
        if conditional {
            certain = false;
        }
    }
    // The struct's size, from a comment on its first or last line.
    let Some(last) = fields.last() else { return };
    let end_line = t.rows.last().map_or(t.line, |r| r.0 + 1);
    let stated = [t.line, end_line]
        .iter()
        .find_map(|&l| stated_size(&line_comment(lines, l)));
    if let (Some(x), Some(o), Some(s), true) = (stated, last.offset, last.size, certain) {
        if x != o + s {
            find(
                last.row,
                &last.name,
                format!(
                    "the struct's comment gives its size as {x:#x}, but its fields add up to {:#x}",
                    o + s
                ),
            );
        }
    }
}

/// Self-contradictions in the tables of one revision.
pub fn lint(rev: &Revision) -> Vec<Finding> {
    let mut out = Vec::new();
    let all = tables(&rev.text);
    // What the checks look up in the whole page, read once.
    let lines: Vec<&str> = rev.text.lines().collect();
    let known = known_names(&all);
    let widths = struct_widths(&all);
    for t in &all {
        let from = out.len();
        if t.column(&["Offset"]).is_none() {
            lint_values(rev, t, &mut out);
            lint_values::lint_sequence(rev, t, &mut out);
        }
        lint_values::lint_offset_typos(rev, t, &mut out);
        lint_offsets(rev, &lines, t, &mut out);
        if layout::kind(t) == Kind::Struct {
            lint_stated_size(rev, t, &mut out);
            lint_duplicates(rev, t, &mut out);
            lint_size_names(rev, t, &known, &mut out);
            lint_values::lint_magic(rev, t, &all, &mut out);
        }
        lint_bits(rev, t, &widths, &mut out);
        if t.code {
            lint_code(rev, &lines, t, &mut out);
        }
        lint_values::name_rows(t, &mut out[from..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stated_header_size_that_the_rows_do_not_add_up_to() {
        let page = "== H ==\n{| class=\"wikitable\"\n!Offset\n!Size\n!Type\n!Description\n|-\n|0x0\n|0x4\n|u32\n|Magic\n|-\n|0x4\n|0x2\n|u16\n|Size of header (0x14)\n|-\n|0x6\n|0x2\n|u16\n|Count\n|}\n== G ==\n{| class=\"wikitable\"\n!Offset\n!Size\n!Type\n!Description\n|-\n|0x0\n|0x4\n|u32\n|Magic\n|-\n|0x4\n|0x4\n|u32\n|Header size (0x8)\n|}\n";
        let f: Vec<String> = lint(&rev(page)).iter().map(|f| f.to_string()).collect();
        assert_eq!(
            f,
            ["P | H | row 2 (Size of header): says the header is 0x14 bytes, but the table's rows end at 0x8"]
        );
    }

    fn rev(text: &str) -> Revision {
        Revision {
            page: "P".into(),
            timestamp: String::new(),
            first_line: 1,
            text: text.into(),
        }
    }

    fn findings(text: &str) -> Vec<String> {
        lint(&rev(text)).iter().map(|f| f.to_string()).collect()
    }

    fn table(rows: &[[&str; 4]]) -> String {
        let mut s =
            "== S ==\n{| class=\"wikitable\"\n!Offset\n!Size\n!Type\n!Description\n".to_string();
        for r in rows {
            s.push_str(&format!("|-\n|{}\n|{}\n|{}\n|{}\n", r[0], r[1], r[2], r[3]));
        }
        s.push_str("|}\n");
        s
    }

    #[test]
    fn gaps_and_overlaps() {
        let f = findings(&table(&[
            ["0x0", "0x4", "u32", "A"],
            ["0x8", "0x4", "u32", "B"],
            ["0xa", "0x2", "u16", "C"],
            ["0x10", "0x4", "u32", "D"],
            ["0x14", "0x1", "u8", "E"],
            ["0x18", "0x4", "u32", "F"],
        ]));
        assert_eq!(
            f,
            [
                "P | S | row 2 (B): offset 0x8 leaves a gap of 0x4 bytes after row 1 (0x0 + 0x4 = 0x4)",
                "P | S | row 3 (C): offset 0xa does not follow from row 2 (0x8 + 0x4 = 0xc)",
                "P | S | row 4 (D): offset 0x10 leaves a gap of 0x4 bytes after row 3 (0xa + 0x2 = 0xc)",
                "P | S | row 6 (F): offset 0x18 leaves a gap of 0x3 bytes after row 5 (0x14 + 0x1 = 0x15)",
            ]
        );
        // Padding that the next row, the row before or the page's note explains is not a gap.
        let f = findings(&table(&[
            ["0x0", "0x1", "u8", "A"],
            ["0x4", "0x4", "u32", "B (aligned to 4)"],
            ["0x8", "0x1", "u8", "C, then padding"],
            ["0xc", "0x4", "u32", "D"],
        ]));
        assert!(f.is_empty(), "{f:?}");
        let f = findings(
            &table(&[["0x0", "0x1", "u8", "A"], ["0x4", "0x4", "u32", "B"]])
                .replace("== S ==\n", "== S ==\nUnmarked space is padding.\n"),
        );
        assert!(f.is_empty(), "{f:?}");
        // A row that went back: the row after it follows from where it should have been.
        let f = findings(&table(&[
            ["0x2c", "0xc", "Vector3f", "Translation"],
            ["0x28", "0xc", "Vector3f", "Rotation"],
            ["0x44", "0x8", "Vector2f", "Scale"],
        ]));
        assert_eq!(f, ["P | S | row 2 (Rotation): offset 0x28 does not follow from row 1 (0x2c + 0xc = 0x38)"]);
    }

    #[test]
    fn duplicate_field_names() {
        let f = findings(&table(&[
            ["0x0", "0x4", "u32", "Count"],
            ["0x4", "0x4", "u32", "Reserved"],
            ["0x8", "0x4", "u32", "Reserved"],
            ["0xc", "0x4", "u32", "count. Again"],
            ["0x10", "0x4", "float", "Count"],
        ]));
        assert_eq!(
            f,
            ["P | S | row 4 (count): the field name \"count\" is also row 1"]
        );
    }

    #[test]
    fn size_expressions_name_fields() {
        let f = findings(&table(&[
            ["0x0", "0x4", "u32", "Texture Count"],
            ["0x4", "0x4 * Texture Count", "u32", "Offsets"],
            ["0x4", "0x4 * String Count", "u32", "Names"],
            ["0x4", "0xc + N", "Plugs", "Plugs"],
            ["0x4", "(Color4f) 0xc * Range", "Color", "Colors"],
            ["0x0", "u64", "0x8", "Vtable"],
        ]));
        assert_eq!(
            f,
            [
                "P | S | row 6 (Vtable): the size u64 is a type and the type 0x8 a size: the two cells look swapped",
                "P | S | row 3 (Names): the size \"0x4 * String Count\" names \"String Count\", which is not a field of this table or page",
            ]
        );
    }

    #[test]
    fn bits() {
        // Rows of bits in a struct table: sizes in bits are not bytes.
        let f = findings(&table(&[
            ["0x6:0", "2 bit", "u16", "MipMap filter"],
            ["0x6:2", "2 bit", "u16", "Mag filter"],
            ["0x6:3", "1 bit", "u16", "Overlapping"],
            ["0x6:a", "7 bit", "u16", "Reserved"],
            ["0x8", "0x4", "Float", "Lod"],
        ]));
        assert_eq!(
            f,
            [
                "P | S | row 3 (Overlapping): bits 3..3 overlap the bits before (the next free bit is 4)",
                "P | S | row 4 (Reserved): bits 10..16 do not fit the type u16 (16 bits)",
            ]
        );
        // A bits table of ranges, in a u16 its caption names.
        let f = findings("{| class=\"wikitable\"\n|+ Flags (u16)\n!Bits\n!Description\n|-\n|0-3\n|Kind\n|-\n|3-5\n|Mode\n|-\n|15-16\n|Top\n|}\n");
        assert_eq!(
            f,
            [
                "P | (top) [Flags (u16)] | row 2 (Mode): bits 3..5 overlap row 1 (bits 0..3)",
                "P | (top) [Flags (u16)] | row 3 (Top): bits 15..16 exceed the 16 bits of the integer (u16 in \"Flags (u16)\")",
            ]
        );
        // A table of bit counts whose width a struct row gives: 2 + 2 + 5 bits in one byte.
        let f = findings(&format!(
            "{}=== UV Options ===\n{{| class=\"wikitable\"\n!Bitfield Size\n!Description\n|-\n|0x2\n|Wrap\n|-\n|0x2\n|Filter\n|-\n|0x5\n|Rest\n|}}\n",
            table(&[["0x0", "0x1", "UV Options", "U"]])
        ));
        assert_eq!(
            f,
            ["P | S > UV Options | row 3 (Rest): bits 4..8 exceed the 8 bits of the integer (size 0x1 of row 1 of S)"]
        );
    }

    #[test]
    fn enum_names_twice() {
        let f = findings("{| class=\"wikitable\"\n!Name\n!Value\n|-\n|A\n|0\n|-\n|B\n|1\n|-\n|A\n|2\n|-\n|Reserved\n|3\n|-\n|Reserved\n|4\n|}\n");
        assert_eq!(
            f,
            ["P | (top) | row 3 (A): name \"A\" is also row 1, with the value 0x0 (here 0x2)"]
        );
    }

    #[test]
    fn c_structs() {
        let text = "=== H ===\n<syntaxhighlight lang=\"c++\">struct Header { // size 0x20\n\
            char[4] magic;\n\
            uint8_t a;\n\
            char[2]; // Null alignment to 8 bytes\n\
            uint32_t b; // 0x7\n\
            uint32_t c; // 0x10\n\
            uint64_t d; // Offset to metadata, always 0x18\n\
            char[2]; // alignment to 0x10\n\
            };</syntaxhighlight>\n";
        let f = findings(text);
        assert_eq!(
            f,
            [
                "P | H [Header] | row 3 (Null alignment to 8 bytes): padding ends at 0x7 (0x5 + 0x2), not on the multiple of 0x8 its comment aligns to",
                "P | H [Header] | row 5 (c): its comment gives the offset 0x10, but the fields before it add up to 0xb",
                "P | H [Header] | row 7 (alignment to 0x10): padding ends at 0x19 (0x17 + 0x2), not on the multiple of 0x10 its comment aligns to",
                "P | H [Header] | row 7 (alignment to 0x10): the struct's comment gives its size as 0x20, but its fields add up to 0x19",
            ]
        );
    }
}
