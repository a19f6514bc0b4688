//! `binspec wiki import`: a draft `.ksy` from one wiki table (a struct table, an enum table, or a C-style struct
//! of a code block), to start a transcription from.
//!
//! A struct becomes the root type's `seq`, one attribute per row: the id from the row's name, the type from the
//! wiki's type (`u32` is `u4`, `char[4]` is a string or the magic the description quotes, `u8[N]` is `size: N`,
//! `u32[4]` repeats), the description as `doc`. Where a stated offset leaves a gap after the row before, the gap
//! becomes a `padding_N` attribute; where it overlaps, a YAML comment says so. An enum table becomes `enums`.
//! The draft names the table it came from in `-wiki` (or `-wiki-enums`), so `wiki drift` can compare them later.

use std::fmt::Write as _;

use binspec_codegen::ir::WikiRef;

use crate::layout::{self, FieldRow, Kind};
use crate::sources::{in_section, resolve};
use crate::{list_revisions, number, page_revisions, tables, type_size, Error, Revision, Table};

/// Which table to import.
#[derive(Debug, Clone, PartialEq)]
pub struct Want {
    /// The page's title (compared without case, `_` as a space).
    pub page: String,
    /// The table's nearest heading, or a path of headings (`A > B`); empty or `(top)` for a table above every
    /// heading.
    pub section: String,
    /// The table's caption, when the section has several tables.
    pub caption: Option<String>,
    /// Which of the tables that match (1-based), when the caption does not tell them apart.
    pub table: Option<usize>,
    /// Which revision of the page (0 is the newest).
    pub rev: usize,
}

/// A line describing a table, for lists in usage errors.
fn describe(t: &Table) -> String {
    format!(
        "{} ({}, {} rows, line {})",
        t.place(),
        layout::kind(t).name(),
        t.rows.len(),
        t.line
    )
}

/// The table `want` names, or a usage error that lists the candidates.
pub(crate) fn choose(page: &str, ts: &[Table], want: &Want) -> Result<usize, Error> {
    let in_sec: Vec<usize> = (0..ts.len())
        .filter(|&i| in_section(&ts[i], &want.section))
        .collect();
    if in_sec.is_empty() {
        let mut msg = format!(
            "{page} has no table under {:?}; its tables (section [caption]):",
            want.section
        );
        for t in ts {
            let _ = write!(msg, "\n  {}", describe(t));
        }
        if ts.is_empty() {
            msg.push_str("\n  (none)");
        }
        return Err(Error::Choice(msg));
    }
    let hits: Vec<usize> = in_sec
        .iter()
        .copied()
        .filter(|&i| {
            want.caption
                .as_ref()
                .is_none_or(|c| ts[i].caption.trim().eq_ignore_ascii_case(c.trim()))
        })
        .collect();
    let list = |ids: &[usize]| {
        let mut s = String::new();
        for (n, &i) in ids.iter().enumerate() {
            let _ = write!(s, "\n  --table {}: {}", n + 1, describe(&ts[i]));
        }
        s
    };
    if hits.is_empty() {
        return Err(Error::Choice(format!(
            "{page}: no table under {:?} has the caption {:?}; the section's tables:{}",
            want.section,
            want.caption.as_deref().unwrap_or(""),
            list(&in_sec)
        )));
    }
    match want.table {
        Some(n) => hits.get(n.wrapping_sub(1)).copied().ok_or_else(|| {
            Error::Choice(format!(
                "{page}: there is no table {n} under {:?} (1-based); the tables:{}",
                want.section,
                list(&hits)
            ))
        }),
        None if hits.len() == 1 => Ok(hits[0]),
        None => Err(Error::Choice(format!(
            "{page}: {} tables under {:?}; choose one with --caption or --table:{}",
            hits.len(),
            want.section,
            list(&hits)
        ))),
    }
}

/// The shortest `-wiki` reference that names table `idx` alone: the nearest heading (else the section path),
/// the caption when the table has one, and a table number when these are not enough.
pub fn reference(page: &str, ts: &[Table], idx: usize) -> WikiRef {
    let t = &ts[idx];
    let caption = (!t.caption.trim().is_empty()).then(|| t.caption.trim().to_string());
    let mut sections = Vec::new();
    if let Some(last) = t.sections.last() {
        sections.push(last.clone());
    }
    if t.sections.len() > 1 {
        sections.push(t.sections.join(" > "));
    }
    let mk = |section: &str, table: Option<usize>| WikiRef {
        page: page.to_string(),
        section: section.to_string(),
        caption: caption.clone(),
        table,
        from: 0,
        pos: Default::default(),
        path: String::new(),
    };
    for s in &sections {
        let w = mk(s, None);
        if resolve(&w, ts) == [idx] {
            return w;
        }
    }
    let section = sections.first().cloned().unwrap_or_default();
    let hits = resolve(&mk(&section, None), ts);
    let n = hits.iter().position(|&i| i == idx).map(|p| p + 1);
    mk(&section, n)
}

/// A string as a YAML double-quoted scalar.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A text for a YAML comment: one line.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A name as a Kaitai identifier (lower snake case, starting with a letter), or `None` when nothing is left.
fn kaitai_id(name: &str) -> Option<String> {
    let id = layout::ident(name);
    if id.is_empty() {
        return None;
    }
    // Words that YAML reads as null or booleans.
    const YAML: &[&str] = &["null", "true", "false", "yes", "no", "on", "off", "y", "n"];
    Some(if id.starts_with('_') {
        format!("n{id}")
    } else if YAML.contains(&id.as_str()) {
        format!("{id}_value")
    } else {
        id
    })
}

/// Ids in one scope: `unknown`, `unknown_2`, ...
#[derive(Default)]
struct Ids(Vec<String>);

impl Ids {
    fn take(&mut self, base: &str) -> String {
        let mut id = base.to_string();
        let mut n = 2;
        while self.0.contains(&id) {
            id = format!("{base}_{n}");
            n += 1;
        }
        self.0.push(id.clone());
        id
    }
}

/// A Kaitai type for a wiki scalar type, and how many of it (`vec3f` is three `f4`).
fn scalar(ty: &str) -> Option<(&'static str, u64)> {
    let t = ty
        .trim()
        .trim_start_matches("const ")
        .trim()
        .to_ascii_lowercase();
    Some(match t.as_str() {
        "u8" | "uint8" | "uint8_t" | "byte" | "uchar" | "bool8" | "bool" => ("u1", 1),
        "s8" | "i8" | "int8" | "int8_t" | "sbyte" => ("s1", 1),
        "u16" | "uint16" | "uint16_t" | "ushort" | "hkuint16" => ("u2", 1),
        "s16" | "i16" | "int16" | "int16_t" | "short" | "hkint16" => ("s2", 1),
        "u32" | "uint32" | "uint32_t" | "uint" | "dword" | "hkuint32" => ("u4", 1),
        "s32" | "i32" | "int32" | "int32_t" | "int" | "hkint32" => ("s4", 1),
        "u64" | "uint64" | "uint64_t" | "ulong" | "hkuint64" | "hkulong" => ("u8", 1),
        "s64" | "i64" | "int64" | "int64_t" | "long" | "hkint64" => ("s8", 1),
        "f32" | "float" | "float32" | "hkreal" => ("f4", 1),
        "f64" | "double" | "float64" => ("f8", 1),
        "vec2f" | "vector2f" => ("f4", 2),
        "vec3f" | "vector3f" => ("f4", 3),
        "vec4f" | "vector4f" | "vector4" | "quatf" | "quaternion" => ("f4", 4),
        _ => return None,
    })
}

/// Whether a wiki type names single bytes (`u8[N]` is `size: N`).
fn is_byte(ty: &str) -> bool {
    matches!(
        ty.trim().to_ascii_lowercase().as_str(),
        "u8" | "uint8" | "uint8_t" | "byte" | "uchar" | "s8" | "int8" | "int8_t" | "sbyte"
    )
}

fn is_char(ty: &str) -> bool {
    matches!(
        ty.trim().to_ascii_lowercase().as_str(),
        "char" | "char8" | "char_t" | "char8_t"
    )
}

/// `BASE[COUNT]` as (base, count text).
fn array(ty: &str) -> Option<(String, String)> {
    let t = ty.trim();
    let open = t.find('[')?;
    let close = t.rfind(']')?;
    (close == t.len() - 1 && close > open).then(|| {
        (
            t[..open].trim().to_string(),
            t[open + 1..close].trim().to_string(),
        )
    })
}

/// The magic a description quotes (`Magic: "SARC"`, `Magic - “EXB “`) when it has exactly `len` characters and
/// is the only quoted text of that length.
fn magic(description: &str, name: &str, len: u64) -> Option<String> {
    let d = layout::strip_markup(description).replace(['“', '”'], "\"");
    let lower = format!("{} {}", d, name).to_lowercase();
    if !lower.contains("magic") && !lower.contains("signature") {
        return None;
    }
    let quoted: Vec<&str> = d.split('"').skip(1).step_by(2).collect();
    // An unpaired quote leaves an odd piece: only take pieces closed by a quote.
    let closed = d.matches('"').count() / 2;
    let fits: Vec<&str> = quoted
        .into_iter()
        .take(closed)
        .filter(|q| q.len() as u64 == len && q.chars().all(|c| c.is_ascii_graphic() || c == ' '))
        .collect();
    (fits.len() == 1).then(|| fits[0].to_string())
}

/// An array count or size expression over earlier attributes (`acl_chunk_size - 0x1C`), as a Kaitai expression.
fn expression(text: &str, ids: &[(String, String)]) -> Option<String> {
    let mut out = String::new();
    let mut chars = text.trim().chars().peekable();
    let mut any_name = false;
    while let Some(&c) = chars.peek() {
        if c.is_ascii_alphabetic() || c == '_' {
            let mut w = String::new();
            while let Some(&c) = chars
                .peek()
                .filter(|c| c.is_ascii_alphanumeric() || **c == '_')
            {
                w.push(c);
                chars.next();
            }
            let id = ids
                .iter()
                .find(|(name, _)| *name == w)
                .map(|(_, id)| id.clone())?;
            out.push_str(&id);
            any_name = true;
        } else if c.is_ascii_digit() {
            let mut w = String::new();
            while let Some(&c) = chars.peek().filter(|c| c.is_ascii_alphanumeric()) {
                w.push(c);
                chars.next();
            }
            let n = number(&w)?;
            if w.to_ascii_lowercase().starts_with("0x") {
                let _ = write!(out, "{n:#x}");
            } else {
                let _ = write!(out, "{n}");
            }
        } else if "+-*/()=!<> ".contains(c) {
            out.push(c);
            chars.next();
        } else {
            return None;
        }
    }
    any_name.then(|| out.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// An `if (NAME OP VALUE)` condition (C structs) as a Kaitai `if`, when NAME is an earlier attribute.
fn condition(description: &str, ids: &[(String, String)]) -> Option<(String, String)> {
    let rest = description
        .strip_prefix("if")?
        .trim_start()
        .strip_prefix('(')?;
    let mut depth = 1;
    let end = rest.char_indices().find_map(|(i, c)| {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(i)
    })?;
    let cond = &rest[..end];
    let after = rest[end + 1..]
        .trim_start()
        .trim_start_matches(':')
        .trim()
        .to_string();
    let ok = ["==", "!=", "<=", ">=", "<", ">"]
        .iter()
        .any(|op| cond.contains(op))
        && !cond.contains("&&")
        && !cond.contains("||");
    if !ok {
        return None;
    }
    Some((expression(cond, ids)?, after))
}

/// One attribute of the draft: comments before it and its keys.
struct Attr {
    comments: Vec<String>,
    keys: Vec<String>,
}

/// Counts for the summary line.
#[derive(Default)]
struct Tally {
    attrs: usize,
    todo: usize,
    notes: usize,
}

fn struct_seq(t: &Table, out: &mut String, tally: &mut Tally) {
    let mut ids = Ids::default();
    // Wiki names (as the code writes them) and the ids they became, for expressions.
    let mut named: Vec<(String, String)> = Vec::new();
    let mut attrs: Vec<Attr> = Vec::new();
    let mut at: Option<u64> = Some(0);
    let mut prev_row: Option<(usize, u64, u64)> = None;
    let mut pads = 0usize;
    for f in layout::fields(t) {
        let mut a = Attr {
            comments: Vec::new(),
            keys: Vec::new(),
        };
        let label = if f.name.is_empty() {
            format!("row {}", f.row)
        } else {
            format!("row {} ({})", f.row, one_line(&f.name))
        };
        // Where the row starts against where the row before ended.
        if f.offset_stated {
            if let (Some(o), Some(end)) = (f.offset, at) {
                if o > end {
                    pads += 1;
                    attrs.push(Attr {
                        comments: Vec::new(),
                        keys: vec![
                            format!("id: {}", ids.take(&format!("padding_{pads}"))),
                            format!("size: {:#x}", o - end),
                            format!(
                                "doc: {}",
                                quote(&format!(
                                    "Not in the wiki's table: a gap from {end:#x} to {o:#x}."
                                ))
                            ),
                        ],
                    });
                    tally.attrs += 1;
                }
            }
            // Against the row before as the wiki places it.
            if let (Some(o), Some((prow, po, ps))) = (f.offset, prev_row) {
                if o < po + ps && o != po {
                    a.comments.push(format!(
                        "wiki: offset {o:#x} does not follow from row {prow} ({po:#x} + {ps:#x} = {:#x})",
                        po + ps
                    ));
                    tally.notes += 1;
                }
            }
        }
        // Attributes are read one after another: an overlapping row is read where the row before ended, a row
        // after a gap where the padding ends.
        let start = match at {
            Some(end) if f.offset_stated => f.offset.map(|o| o.max(end)),
            Some(end) => Some(end),
            None => f.offset,
        };
        let size = attribute(&f, &named, &mut ids, &mut pads, &mut a, tally);
        let id_line = a.keys.first().cloned();
        let placed = if f.offset_stated { f.offset } else { start };
        at = match size {
            Some(s) => start.map(|o| o + s),
            None => None,
        };
        prev_row = match (placed, f.size.or(size)) {
            (Some(o), Some(s)) => Some((f.row, o, s)),
            _ => None,
        };
        if a.keys.is_empty() {
            tally.todo += 1;
            a.comments.push(format!(
                "TODO {label}: type {}, size {}: write this attribute by hand",
                if f.ty.is_empty() {
                    "(none)".to_string()
                } else {
                    one_line(&f.ty)
                },
                if f.size_text.is_empty() {
                    "(none)".to_string()
                } else {
                    one_line(&f.size_text)
                }
            ));
        } else {
            tally.attrs += 1;
        }
        if let Some(id) = id_line.and_then(|l| l.strip_prefix("id: ").map(str::to_string)) {
            if !f.name.is_empty() {
                named.push((f.name.clone(), id.clone()));
            }
            named.push((id.clone(), id));
        }
        attrs.push(a);
    }
    out.push_str("seq:\n");
    if attrs.is_empty() {
        out.push_str("  []\n");
    }
    for a in attrs {
        for c in &a.comments {
            let _ = writeln!(out, "  # {c}");
        }
        for (i, k) in a.keys.iter().enumerate() {
            let _ = writeln!(out, "  {} {k}", if i == 0 { "-" } else { " " });
        }
    }
}

/// Writes one row's keys into `a` (none when the row cannot be written); returns the bytes it reads if known.
fn attribute(
    f: &FieldRow,
    named: &[(String, String)],
    ids: &mut Ids,
    pads: &mut usize,
    a: &mut Attr,
    tally: &mut Tally,
) -> Option<u64> {
    let ty = layout::strip_markup(&f.ty);
    let desc = layout::strip_markup(&f.description);
    let (cond, desc) = match condition(&desc, named) {
        Some((c, rest)) => (Some(c), rest),
        None => (None, desc),
    };
    if cond.is_none() && desc.starts_with("if (") {
        a.comments.push(format!(
            "TODO: read only {}",
            desc.split(':').next().unwrap_or("")
        ));
        tally.todo += 1;
    }
    let base_name = f.name.trim();
    let id = match kaitai_id(base_name) {
        Some(id) => ids.take(&id),
        None if f.offset.is_some() || !ty.is_empty() => {
            if base_name.is_empty() && t_is_padding(&ty, &desc) {
                *pads += 1;
                ids.take(&format!("padding_{pads}"))
            } else {
                ids.take("unknown")
            }
        }
        None => ids.take("unknown"),
    };
    let is_pad = id.starts_with("padding_");
    let stated = f.size;
    let by_type = type_size(&ty);
    let mut keys: Vec<String> = vec![format!("id: {id}")];
    let mut size: Option<u64>;
    if let (Some(s), Some(ts)) = (stated, by_type) {
        if s != ts {
            a.comments.push(format!(
                "wiki: size {s:#x} does not fit the type {} ({ts:#x} bytes); read as {s:#x} bytes",
                one_line(&ty)
            ));
            tally.notes += 1;
        }
    }
    let fits = match (stated, by_type) {
        (Some(s), Some(ts)) => s == ts,
        _ => true,
    };
    if let (true, Some((kt, n))) = (fits, scalar(&ty)) {
        keys.push(format!("type: {kt}"));
        if n > 1 {
            keys.push("repeat: expr".into());
            keys.push(format!("repeat-expr: {n}"));
        }
        size = type_size(&ty).or(stated);
    } else if let (true, Some((base, count))) = (fits, array(&ty)) {
        let n = number(&count);
        let count_expr = n
            .map(|n| n.to_string())
            .or_else(|| expression(&count, named));
        let elem = type_size(&base);
        size = match (n, elem) {
            (Some(n), Some(e)) => Some(n * e),
            _ => None,
        };
        match count_expr {
            Some(c) if is_char(&base) || is_byte(&base) => {
                let m = n.and_then(|n| magic(&desc, base_name, n));
                if let Some(m) = m {
                    keys.push(format!("contents: {}", quote(&m)));
                } else {
                    keys.push(format!("size: {c}"));
                    if is_char(&base) && !is_pad {
                        keys.push("type: str".into());
                        keys.push("encoding: ASCII".into());
                    }
                }
            }
            Some(c) => match scalar(&base) {
                Some((kt, per)) => {
                    keys.push(format!("type: {kt}"));
                    keys.push("repeat: expr".into());
                    keys.push(format!(
                        "repeat-expr: {}",
                        if per > 1 { format!("({c}) * {per}") } else { c }
                    ));
                }
                None => match size {
                    Some(s) => keys.push(format!("size: {s:#x}")),
                    None => keys.clear(),
                },
            },
            None => match stated {
                Some(s) => {
                    keys.push(format!("size: {s:#x}"));
                    size = Some(s);
                }
                None => keys.clear(),
            },
        }
    } else {
        match stated.or(by_type) {
            Some(s) => {
                let m = magic(&desc, base_name, s);
                match m {
                    Some(m) => keys.push(format!("contents: {}", quote(&m))),
                    None => keys.push(format!("size: {s:#x}")),
                }
                size = Some(s);
            }
            None => {
                keys.clear();
                size = None;
            }
        }
    }
    if keys.is_empty() {
        return None;
    }
    if let Some(c) = cond {
        keys.push(format!("if: {c}"));
        // A conditional attribute does not always take its bytes.
        size = None;
    }
    let mut doc = desc.trim().to_string();
    let plain = scalar(&ty).is_some()
        || array(&ty).is_some_and(|(b, _)| scalar(&b).is_some() || is_char(&b));
    if !ty.is_empty() && !plain {
        doc = if doc.is_empty() {
            format!("Wiki type: {}.", one_line(&ty))
        } else {
            format!("{doc} (wiki type: {})", one_line(&ty))
        };
    }
    if !doc.is_empty() {
        keys.push(format!("doc: {}", quote(&one_line(&doc))));
    }
    a.keys = keys;
    size
}

/// Whether an unnamed row is padding (C's `char[6];`, or a row the description calls padding or alignment).
fn t_is_padding(ty: &str, desc: &str) -> bool {
    let d = desc.to_lowercase();
    array(ty).is_some() || d.contains("padding") || d.contains("align") || d.is_empty()
}

fn enum_body(t: &Table, name: &str, out: &mut String, tally: &mut Tally) {
    let mut ids = Ids::default();
    let mut seen: Vec<(i128, usize)> = Vec::new();
    let _ = writeln!(out, "enums:\n  {name}:");
    let mut any = false;
    for v in layout::values(t) {
        let label = if v.name.is_empty() {
            format!("row {}", v.row)
        } else {
            format!("row {} ({})", v.row, one_line(&v.name))
        };
        let Some(value) = v.value else {
            tally.todo += 1;
            let _ = writeln!(
                out,
                "    # TODO {label}: the value {} is not a number",
                quote(&one_line(&v.value_text))
            );
            continue;
        };
        if let Some((_, row)) = seen.iter().find(|(x, _)| *x == value) {
            tally.notes += 1;
            let _ = writeln!(
                out,
                "    # wiki: {label} has the value of row {row} ({value:#x}): left out"
            );
            continue;
        }
        seen.push((value, v.row));
        let id = ids.take(&kaitai_id(&v.name).unwrap_or_else(|| "unknown".into()));
        let key = if value < 0 {
            value.to_string()
        } else {
            format!("{value:#x}")
        };
        let _ = writeln!(out, "    {key}:\n      id: {id}");
        let doc = one_line(&v.description);
        if !doc.is_empty() {
            let _ = writeln!(out, "      doc: {}", quote(&doc));
        }
        tally.attrs += 1;
        any = true;
    }
    if !any {
        let _ = writeln!(out, "    {{}}");
    }
}

fn wiki_yaml(w: &WikiRef, indent: &str) -> String {
    let mut s = format!(
        "{indent}page: {}\n{indent}section: {}\n",
        quote(&w.page),
        quote(&w.section)
    );
    if let Some(c) = &w.caption {
        let _ = writeln!(s, "{indent}caption: {}", quote(c));
    }
    if let Some(n) = w.table {
        let _ = writeln!(s, "{indent}table: {n}");
    }
    s
}

/// The draft `.ksy` for table `idx` of a revision, and a one-line summary.
pub fn draft(rev: &Revision, ts: &[Table], idx: usize) -> Result<(String, String), Error> {
    let t = &ts[idx];
    let kind = layout::kind(t);
    if !matches!(kind, Kind::Struct | Kind::Enum) {
        return Err(Error::Choice(format!(
            "{}: {} is a {}, not a struct or enum table",
            rev.page,
            t.place(),
            if kind == Kind::Bits {
                "table of bits"
            } else {
                kind.name()
            }
        )));
    }
    let w = reference(&rev.page, ts, idx);
    let base = if t.caption.trim().is_empty() {
        t.sections.last().cloned().unwrap_or_default()
    } else {
        // `hknpShape : hkReferencedObject`: the type, not its base.
        t.caption.split(" : ").next().unwrap_or("").to_string()
    };
    let id = kaitai_id(&base).unwrap_or_else(|| "draft".into());
    let mut out = String::new();
    let when = if rev.timestamp.is_empty() {
        String::new()
    } else {
        format!(", revision {}", rev.timestamp)
    };
    let _ = writeln!(
        out,
        "# A draft by `binspec wiki import` from the {} table {} (line {}) of the page {}{when}.",
        kind.name(),
        quote(&t.place()),
        t.line,
        quote(&rev.page)
    );
    out.push_str("# Check every name, type and size against the page; the page may not state the byte order.\n");
    let _ = writeln!(out, "meta:\n  id: {id}\n  endian: le");
    let mut doc = one_line(&layout::strip_markup(&t.place()));
    if !doc.ends_with('.') {
        doc.push('.');
    }
    let _ = writeln!(out, "doc: {}", quote(&format!("{}: {doc}", rev.page)));
    let mut tally = Tally::default();
    match kind {
        Kind::Enum => {
            let _ = write!(out, "-wiki-enums:\n  {id}:\n{}", wiki_yaml(&w, "    "));
            enum_body(t, &id, &mut out, &mut tally);
        }
        _ => {
            let _ = write!(out, "-wiki:\n{}", wiki_yaml(&w, "  "));
            struct_seq(t, &mut out, &mut tally);
        }
    }
    let what = if kind == Kind::Enum {
        "values"
    } else {
        "attributes"
    };
    let summary = format!(
        "{}: {} [{}]: {} {what}, {} TODO, {} notes on the table",
        rev.page,
        t.place(),
        kind.name(),
        tally.attrs,
        tally.todo,
        tally.notes
    );
    Ok((out, summary))
}

/// The draft `.ksy` for the table `want` names among a dump's revisions, and a one-line summary (as [`draft`]).
pub fn import(revs: &[Revision], want: &Want) -> Result<(String, String), Error> {
    let mine = page_revisions(revs, &want.page)?;
    let Some(rev) = mine.get(want.rev) else {
        return Err(Error::Choice(format!(
            "{} has no revision {}; its revisions:{}",
            mine[0].page,
            want.rev,
            list_revisions(&mine)
        )));
    };
    let ts = tables(&rev.text);
    let idx = choose(&rev.page, &ts, want)?;
    draft(rev, &ts, idx)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rev(text: &str) -> Revision {
        Revision {
            page: "Sarc".into(),
            timestamp: "2026-01-02T03:04:05Z".into(),
            first_line: 1,
            text: text.into(),
        }
    }

    fn compiles(ksy: &str) {
        let dir = std::env::temp_dir().join(format!("binspec-import-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let id = ksy
            .lines()
            .find_map(|l| l.strip_prefix("  id: "))
            .unwrap()
            .to_string();
        let p = dir.join(format!("{id}.ksy"));
        std::fs::write(&p, ksy).unwrap();
        if let Err(d) = binspec_codegen::compile_file(&p) {
            panic!(
                "{ksy}\n{}",
                d.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
    }

    const STRUCT: &str = "== Header ==\n{| class=\"wikitable\"\n|+ SARC header\n!Offset\n!Size\n!Type\n!Description\n\
        |-\n|0x0\n|0x4\n|char[4]\n|Magic: \"SARC\"\n\
        |-\n|0x4\n|0x2\n|u16\n|Unknown\n\
        |-\n|0x8\n|0x10\n|u32[4]\n|Hashes\n\
        |-\n|0x18\n|0x4\n|float\n|Unknown\n\
        |-\n|0x10\n|0x8\n|ResThing *\n|Pointer to a thing\n\
        |-\n|0x18\n|varies\n|Thing\n|Data\n|}\n";

    #[test]
    fn a_struct_table() {
        let r = rev(STRUCT);
        let ts = tables(&r.text);
        let (ksy, summary) = draft(&r, &ts, 0).unwrap();
        let want = "meta:\n  id: sarc_header\n  endian: le\ndoc: \"Sarc: Header [SARC header].\"\n-wiki:\n  page: \"Sarc\"\n  section: \"Header\"\n  caption: \"SARC header\"\nseq:\n\
            \x20 - id: magic\n    contents: \"SARC\"\n    doc: \"Magic: \\\"SARC\\\"\"\n\
            \x20 - id: unknown\n    type: u2\n    doc: \"Unknown\"\n\
            \x20 - id: padding_1\n    size: 0x2\n    doc: \"Not in the wiki's table: a gap from 0x6 to 0x8.\"\n\
            \x20 - id: hashes\n    type: u4\n    repeat: expr\n    repeat-expr: 4\n    doc: \"Hashes\"\n\
            \x20 - id: unknown_2\n    type: f4\n    doc: \"Unknown\"\n\
            \x20 # wiki: offset 0x10 does not follow from row 4 (0x18 + 0x4 = 0x1c)\n\
            \x20 - id: pointer_to_a_thing\n    size: 0x8\n    doc: \"Pointer to a thing (wiki type: ResThing *)\"\n\
            \x20 # TODO row 6 (Data): type Thing, size varies: write this attribute by hand\n";
        assert!(ksy.ends_with(want), "{ksy}");
        assert_eq!(
            summary,
            "Sarc: Header [SARC header] [struct]: 6 attributes, 1 TODO, 1 notes on the table"
        );
        compiles(&ksy);
    }

    #[test]
    fn an_enum_table() {
        let r = rev("== Types ==\n{| class=\"wikitable\"\n!Name\n!Value\n!Description\n|-\n|NONE\n|0x0\n|Nothing\n|-\n|Some Thing\n| -1\n|\n|-\n|AGAIN\n|0x0\n|\n|-\n|Magic\n|\"FRES\"\n|\n|}\n");
        let ts = tables(&r.text);
        let (ksy, _) = draft(&r, &ts, 0).unwrap();
        assert!(
            ksy.ends_with(
                "-wiki-enums:\n  types:\n    page: \"Sarc\"\n    section: \"Types\"\nenums:\n  types:\n    0x0:\n      id: none\n      doc: \"Nothing\"\n    -1:\n      id: some_thing\n    # wiki: row 3 (AGAIN) has the value of row 1 (0x0): left out\n    # TODO row 4 (Magic): the value \"\\\"FRES\\\"\" is not a number\n"
            ),
            "{ksy}"
        );
        compiles(&ksy);
    }

    #[test]
    fn a_c_struct() {
        let r = rev("=== PXAN Header ===\n<syntaxhighlight lang=\"c++\">struct Header {\nchar[4] magic; // 'NAXP'\nuint32_t version;\nuint8_t compressed;\nchar[3]; // pad\nuint32_t size;\nif (compressed == 0x08)\nchar[8]; // Null alignment\nchar[size - 0x1C] data; // rest\nStringOffset name;\n};</syntaxhighlight>\n");
        let ts = tables(&r.text);
        let (ksy, _) = draft(&r, &ts, 0).unwrap();
        assert!(
            ksy.ends_with(
                "seq:\n  - id: magic\n    size: 4\n    type: str\n    encoding: ASCII\n    doc: \"'NAXP'\"\n  - id: version\n    type: u4\n  - id: compressed\n    type: u1\n  - id: padding_1\n    size: 3\n    doc: \"pad\"\n  - id: size\n    type: u4\n  - id: padding_2\n    size: 8\n    if: compressed == 0x8\n    doc: \"Null alignment\"\n  - id: data\n    size: size - 0x1c\n    type: str\n    encoding: ASCII\n    doc: \"rest\"\n  # TODO row 8 (name): type StringOffset, size (none): write this attribute by hand\n"
            ),
            "{ksy}"
        );
        compiles(&ksy);
    }

    #[test]
    fn choosing_a_table() {
        let two = format!(
            "{STRUCT}{}",
            STRUCT
                .replace("== Header ==\n", "")
                .replace("SARC header", "Other")
        );
        let ts = tables(&two);
        let want = |caption: Option<&str>, table: Option<usize>, section: &str| Want {
            page: "Sarc".into(),
            section: section.into(),
            caption: caption.map(str::to_string),
            table,
            rev: 0,
        };
        let err = choose("Sarc", &ts, &want(None, None, "Header")).unwrap_err();
        assert!(matches!(err, Error::Choice(_)), "{err:?}");
        let msg = err.to_string();
        assert!(
            msg.contains("--table 1: Header [SARC header] (struct, 6 rows, line 2)"),
            "{msg}"
        );
        assert!(msg.contains("--table 2: Header [Other]"), "{msg}");
        assert_eq!(
            choose("Sarc", &ts, &want(Some("other"), None, "Header")).unwrap(),
            1
        );
        assert_eq!(
            choose("Sarc", &ts, &want(None, Some(2), "Header")).unwrap(),
            1
        );
        let err = choose("Sarc", &ts, &want(None, None, "Nope")).unwrap_err();
        assert!(
            err.to_string()
                .contains("its tables (section [caption]):\n  Header [SARC header]"),
            "{err}"
        );
        // The reference names the caption, so it resolves to this table alone.
        let w = reference("Sarc", &ts, 1);
        assert_eq!(
            (w.section.as_str(), w.caption.as_deref(), w.table),
            ("Header", Some("Other"), None)
        );
    }
}
