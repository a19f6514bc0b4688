//! `binspec wiki drift`: a page's tables against the schema types and enums that transcribe them.
//!
//! Struct rows are paired with `seq` attributes by name first, then by offset; what is left on either side is a
//! missing or an extra field. Enum rows are paired by value. A difference is *explained* when one paragraph or
//! bullet of the attribute's, the type's or the schema's `doc` names it: the wiki row's name (or the attribute's)
//! together with the wiki's value for what differs (an offset, a size, a type, a name).

use binspec_codegen::ir::{const_int, EnumDef, Field, FieldTy, Module, Repeat, TypeDef};

use crate::layout::{self, FieldRow, Kind};
use crate::sources::{self, Item, Source};
use crate::{tables, Revision, Table};

/// One difference between a table and a schema item.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// The page's title.
    pub page: String,
    /// The table: its place on the page, or the section and caption the reference names when it names no one
    /// table.
    pub table: String,
    /// `sarc.ksy: type sarc`.
    pub item: String,
    /// `row 6 (Alignment)`, `value 0x3`, or empty for the table as a whole.
    pub at: String,
    /// What differs, wiki's side first.
    pub what: String,
    /// The doc text that explains it, shortened.
    pub explained: Option<String>,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let status = if self.explained.is_some() {
            "explained"
        } else {
            "drift"
        };
        write!(
            f,
            "{status}: {} | {} | {}",
            self.page, self.table, self.item
        )?;
        if !self.at.is_empty() {
            write!(f, " | {}", self.at)?;
        }
        write!(f, ": {}", self.what)?;
        if let Some(e) = &self.explained {
            write!(f, " (doc: \"{e}\")")?;
        }
        Ok(())
    }
}

/// A schema attribute as drift sees it.
struct SchemaField<'m> {
    f: &'m Field,
    offset: Option<u64>,
    size: Option<u64>,
    ty: Option<String>,
}

fn schema_fields<'m>(m: &'m Module, t: &'m TypeDef) -> Vec<SchemaField<'m>> {
    let mut at = Some(0u64);
    t.seq
        .iter()
        .map(|f| {
            let sf = SchemaField {
                f,
                offset: at,
                size: m.static_field_size(f),
                ty: schema_type(m, f),
            };
            at = at.and_then(|o| m.static_advance(f).map(|s| o + s));
            sf
        })
        .collect()
}

/// A canonical type text: `u4`, `s2`, `f4`, `bytes 4`, `u4 x 3`; `None` when there is nothing to compare
/// (user types, switches).
fn schema_type(m: &Module, f: &Field) -> Option<String> {
    let one = match &f.ty {
        _ if f.contents.is_some() || f.size.is_some() => {
            return m.static_field_size(f).map(|n| format!("bytes {n}"))
        }
        FieldTy::Int { bytes, signed, .. } => {
            format!("{}{bytes}", if *signed { 's' } else { 'u' })
        }
        FieldTy::Float { bytes, .. } => format!("f{bytes}"),
        _ => return None,
    };
    match &f.repeat {
        Repeat::None => Some(one),
        Repeat::Expr(x) => const_int(&x.expr).map(|n| format!("{one} x {n}")),
        _ => None,
    }
}

/// The wiki's type in the same canonical text.
pub(crate) fn wiki_type(ty: &str) -> Option<String> {
    let t = layout::strip_markup(ty).to_ascii_lowercase();
    let t = t.trim().trim_start_matches("const ").trim();
    if let Some(open) = t.find('[') {
        let close = t[open..].find(']')? + open;
        let n = crate::number(&t[open + 1..close])?;
        let base = t[..open].trim();
        if !t[close + 1..].trim().is_empty() {
            return None;
        }
        return Some(match base {
            "char" | "u8" | "uint8" | "uint8_t" | "byte" | "s8" | "int8" | "sbyte" => {
                format!("bytes {n}")
            }
            _ => format!("{} x {n}", wiki_type(base)?),
        });
    }
    Some(
        match t {
            "u8" | "uint8" | "uint8_t" | "byte" | "uchar" | "bool8" => "u1",
            "s8" | "i8" | "int8" | "int8_t" | "sbyte" => "s1",
            "u16" | "uint16" | "uint16_t" | "ushort" => "u2",
            "s16" | "i16" | "int16" | "int16_t" | "short" => "s2",
            "u24" | "uint24" => "u3",
            "s24" | "int24" => "s3",
            "u32" | "uint32" | "uint32_t" | "uint" | "dword" => "u4",
            "s32" | "i32" | "int32" | "int32_t" | "int" => "s4",
            "u64" | "uint64" | "uint64_t" | "ulong" | "hkuint64" => "u8",
            "s64" | "i64" | "int64" | "int64_t" | "long" | "hkint64" => "s8",
            "f32" | "float" | "float32" => "f4",
            "f64" | "double" | "float64" => "f8",
            _ => return None,
        }
        .to_string(),
    )
}

/// Whether a wiki name and a schema name are the same name: equal as identifiers, one inside the other, the
/// attribute's `doc` naming the wiki's name, or the attribute's name being the initials (`bom`).
fn same_name(wiki: &str, f: &Field) -> bool {
    let w = layout::ident(wiki);
    if w.is_empty() {
        return true;
    }
    let s = f.name.trim_start_matches('_');
    if w == s || w.contains(s) && s.len() >= 3 || s.contains(&w) && w.len() >= 3 {
        return true;
    }
    let initials: String = w.split('_').filter_map(|p| p.chars().next()).collect();
    if initials.len() >= 2 && initials == s {
        return true;
    }
    // Every word of the attribute's name is a word of the wiki's (`header_size`, "Size of header").
    if words_cover(&w, s) {
        return true;
    }
    let wl = layout::strip_markup(wiki).to_lowercase();
    f.doc
        .as_deref()
        .is_some_and(|d| wl.len() >= 3 && d.to_lowercase().contains(&wl))
}

/// Whether every word of identifier `ours` is a word of identifier `theirs` (plurals and common abbreviations
/// aside): `header_size` and `size_of_header`, `key_table_ofs` and `key_table_offset`.
fn words_cover(theirs: &str, ours: &str) -> bool {
    let stem = |p: &str| {
        let p = match p {
            "ofs" | "off" => "offset",
            "idx" => "index",
            "cnt" | "num" => "count",
            "len" => "length",
            "str" => "string",
            p => p,
        };
        p.strip_suffix('s')
            .filter(|x| x.len() >= 3)
            .unwrap_or(p)
            .to_string()
    };
    let words: Vec<String> = theirs.split('_').map(stem).collect();
    ours.split('_')
        .all(|p| !p.is_empty() && words.contains(&stem(p)))
}

/// The docs that may explain a difference of `f` in type `t` of `m`, split into paragraphs and bullets.
fn doc_chunks(
    m: &Module,
    t: Option<&TypeDef>,
    f: Option<&Field>,
    e: Option<&EnumDef>,
) -> Vec<String> {
    let mut out = f.map(doc_chunks_of).unwrap_or_default();
    let mut docs: Vec<&str> = Vec::new();
    if let Some(e) = e {
        docs.extend(e.values.iter().filter_map(|v| v.2.as_deref()));
    }
    if let Some(d) = t.and_then(|t| t.doc.as_deref()) {
        docs.push(d);
    }
    if let Some(d) = m.doc.as_deref() {
        docs.push(d);
    }
    for d in docs {
        out.extend(split_chunks(d, None));
    }
    out
}

/// A doc's paragraphs and bullets, each on one line; with `about`, each starts with that attribute's name.
fn split_chunks(doc: &str, about: Option<&str>) -> Vec<String> {
    let start = about.map_or(String::new(), |n| format!("`{n}`: "));
    let mut out = Vec::new();
    let mut cur = start.clone();
    for line in doc.lines() {
        let l = line.trim();
        if (l.is_empty() || l.starts_with("* ") || l.starts_with("- ")) && cur.len() > start.len() {
            out.push(std::mem::replace(&mut cur, start.clone()));
        }
        if !l.is_empty() {
            cur.push_str(l);
            cur.push(' ');
        }
    }
    if cur.len() > start.len() {
        out.push(cur);
    }
    out
}

/// An attribute's own doc, split as [`doc_chunks`] does, each chunk naming the attribute (its doc speaks of it,
/// named or not).
fn doc_chunks_of(f: &Field) -> Vec<String> {
    f.doc
        .as_deref()
        .map(|d| split_chunks(d, Some(&f.name)))
        .unwrap_or_default()
}

/// The numbers a text mentions (`0x14`, `20`).
fn numbers_in(s: &str) -> Vec<u64> {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(crate::number)
        .collect()
}

/// A term a doc must mention: a number (compared by value) or a word (compared without case).
enum Term {
    Num(u64),
    Text(String),
}

fn mentions(chunk: &str, term: &Term) -> bool {
    match term {
        Term::Num(n) => numbers_in(chunk).contains(n),
        Term::Text(t) => {
            let t = t.trim().to_lowercase();
            !t.is_empty() && chunk.to_lowercase().contains(&t)
        }
    }
}

/// The first chunk that mentions one of the subjects and every term.
fn explain(chunks: &[String], subjects: &[&str], terms: &[Term]) -> Option<String> {
    explain_either(chunks, subjects, terms, &[])
}

/// The chunk that mentions one of the subjects and either every term (what the wiki says) or, if it also speaks
/// of the wiki ("page", "wiki"), every one of `ours` (what the schema does instead); of several, the one that
/// names the most subjects. Shown as its sentence that names the most terms.
fn explain_either(
    chunks: &[String],
    subjects: &[&str],
    terms: &[Term],
    ours: &[Term],
) -> Option<String> {
    let named = |c: &str| {
        subjects
            .iter()
            .filter(|s| mentions(c, &Term::Text(s.to_string())))
            .count()
    };
    let (chunk, used) = chunks
        .iter()
        .filter(|c| named(c) > 0)
        .filter_map(|c| {
            let l = c.to_lowercase();
            if terms.iter().all(|t| mentions(c, t)) {
                Some((c, terms))
            } else if !ours.is_empty()
                && (l.contains("wiki") || l.contains("page"))
                && ours.iter().all(|t| mentions(c, t))
            {
                Some((c, ours))
            } else {
                None
            }
        })
        .max_by_key(|(c, _)| (named(c), std::cmp::Reverse(c.len())))?;
    let sentence = chunk
        .split(". ")
        .max_by_key(|s| {
            (
                used.iter().filter(|t| mentions(s, t)).count(),
                named(s),
                std::cmp::Reverse(s.len()),
            )
        })
        .unwrap_or(chunk)
        .trim()
        .trim_start_matches("* ")
        .trim_start_matches("- ");
    Some(if sentence.chars().count() > 100 {
        format!("{}...", sentence.chars().take(97).collect::<String>())
    } else {
        sentence.to_string()
    })
}

fn hex(n: u64) -> String {
    format!("{n:#x}")
}

/// Records differences of one table and one schema item: `push(at, what, explained)`.
fn recorder<'o>(
    rev: &Revision,
    t: &Table,
    src: &Source<'_>,
    out: &'o mut Vec<Difference>,
) -> impl FnMut(String, String, Option<String>) + 'o {
    let (page, table, item) = (rev.page.clone(), t.place(), src.label());
    move |at, what, explained| {
        out.push(Difference {
            page: page.clone(),
            table: table.clone(),
            item: item.clone(),
            at,
            what,
            explained,
        })
    }
}

/// The differences between a struct table and a type.
fn drift_struct(rev: &Revision, t: &Table, src: &Source<'_>, ti: usize, out: &mut Vec<Difference>) {
    let m = &src.schema.module;
    let ty = &m.types[ti];
    // Rows before `from` belong to another type; the rest are moved to this type's offsets.
    let from = src.wiki.from;
    let rows: Vec<FieldRow> = layout::fields(t)
        .into_iter()
        .filter(|r| from == 0 || r.offset.is_none_or(|o| o >= from))
        .map(|mut r| {
            r.offset = r.offset.map(|o| o - from);
            r
        })
        .collect();
    let fields = schema_fields(m, ty);
    let mut pair: Vec<Option<usize>> = vec![None; rows.len()];
    let mut taken = vec![false; fields.len()];
    // Pass 1: the same name (as identifiers, or the attribute's doc quoting the wiki's name).
    let exact = |r: &FieldRow, f: &Field| {
        let w = layout::ident(&r.name);
        w == f.name.trim_start_matches('_')
            || f.doc.as_deref().is_some_and(|d| {
                r.name.len() >= 3
                    && d.to_lowercase()
                        .contains(&format!("\"{}\"", r.name.to_lowercase()))
            })
    };
    for (ri, r) in rows.iter().enumerate() {
        if r.name.is_empty() {
            continue;
        }
        if let Some(fi) = (0..fields.len()).find(|&fi| !taken[fi] && exact(r, fields[fi].f)) {
            pair[ri] = Some(fi);
            taken[fi] = true;
        }
    }
    // Pass 2: the same offset.
    for (ri, r) in rows.iter().enumerate() {
        if pair[ri].is_some() {
            continue;
        }
        if let Some(o) = r.offset {
            if let Some(fi) =
                (0..fields.len()).find(|&fi| !taken[fi] && fields[fi].offset == Some(o))
            {
                pair[ri] = Some(fi);
                taken[fi] = true;
            }
        }
    }
    // Pass 3: a name alike (words in common, initials).
    for (ri, r) in rows.iter().enumerate() {
        if pair[ri].is_some() || r.name.is_empty() {
            continue;
        }
        if let Some(fi) =
            (0..fields.len()).find(|&fi| !taken[fi] && same_name(&r.name, fields[fi].f))
        {
            pair[ri] = Some(fi);
            taken[fi] = true;
        }
    }
    let mut push = recorder(rev, t, src, out);
    for (ri, r) in rows.iter().enumerate() {
        let at = if r.name.is_empty() {
            format!("row {}", r.row)
        } else {
            format!("row {} ({})", r.row, r.name)
        };
        let Some(fi) = pair[ri] else {
            // Any doc of the type may say where the row went.
            let mut chunks = doc_chunks(m, Some(ty), None, None);
            for f in &ty.seq {
                chunks.extend(doc_chunks_of(f));
            }
            let mut terms = Vec::new();
            if r.name.is_empty() {
                if let Some(o) = r.offset {
                    terms.push(Term::Num(o));
                }
            }
            let subject = if r.name.is_empty() {
                "padding"
            } else {
                r.name.as_str()
            };
            let where_ = match (r.offset, r.offset_stated) {
                (Some(o), true) => format!(" at {}", hex(o)),
                (Some(o), false) => format!(" (at {} by the sizes before it)", hex(o)),
                _ => String::new(),
            };
            push(
                at,
                format!(
                    "the schema has no attribute for it{where_} ({})",
                    describe_row(r)
                ),
                explain(&chunks, &[subject], &terms),
            );
            continue;
        };
        let sf = &fields[fi];
        let chunks = doc_chunks(m, Some(ty), Some(sf.f), None);
        let spaced = ty.name.replace('_', " ");
        let subjects = [r.name.as_str(), sf.f.name.as_str(), spaced.as_str()];
        let fname = &sf.f.name;
        if let (Some(wo), Some(so)) = (r.offset, sf.offset) {
            if wo != so {
                push(
                    at.clone(),
                    format!("offset: wiki {}, schema {} (`{fname}`)", hex(wo), hex(so)),
                    explain_either(&chunks, &subjects, &[Term::Num(wo)], &[Term::Num(so)]),
                );
            }
        }
        if let (Some(ws), Some(ss)) = (r.size, sf.size) {
            if ws != ss {
                push(
                    at.clone(),
                    format!("size: wiki {}, schema {} (`{fname}`)", hex(ws), hex(ss)),
                    explain(&chunks, &subjects, &[Term::Num(ws)])
                        .or_else(|| explain(&chunks, &subjects, &[Term::Text(r.ty.clone())])),
                );
            }
        }
        // A magic: the text the wiki quotes against the schema's `contents`.
        if let (Some(c), Some(q)) = (&sf.f.contents, quoted(&r.description)) {
            if q.len() == c.len() && q.as_bytes() != c.as_slice() {
                push(
                    at.clone(),
                    format!(
                        "magic: wiki \"{q}\", schema \"{}\" (`{fname}`)",
                        String::from_utf8_lossy(c)
                    ),
                    explain(&chunks, &subjects, &[Term::Text(q.clone())]),
                );
            }
        }
        if let (Some(wt), Some(st)) = (wiki_type(&r.ty), sf.ty.as_ref()) {
            // A size difference already says what a byte-count difference would; a magic may be written as an
            // integer of its size.
            let sizes_differ = matches!((r.size, sf.size), (Some(a), Some(b)) if a != b);
            let magic_as_int =
                sf.f.contents.is_some() && r.size == sf.size && crate::type_size(&r.ty) == r.size;
            if &wt != st && !sizes_differ && !magic_as_int {
                push(
                    at.clone(),
                    format!("type: wiki {} ({wt}), schema {st} (`{fname}`)", r.ty),
                    explain(&chunks, &subjects, &[Term::Text(r.ty.clone())]),
                );
            }
        }
        if !r.name.is_empty() && !same_name(&r.name, sf.f) {
            push(
                at.clone(),
                format!("name: wiki \"{}\", schema `{fname}`", r.name),
                explain(&chunks, &[fname.as_str()], &[Term::Text(r.name.clone())]),
            );
        }
    }
    // Where the table ends: attributes after it are described by other tables (a header table, then sections).
    // (A row whose size the table does not give, such as `0x4 * count`, may reach anywhere.)
    let table_end = rows
        .iter()
        .filter_map(|r| r.offset.map(|o| r.size.map_or(u64::MAX, |z| o + z)))
        .max()
        .unwrap_or(0);
    let last_paired = (0..fields.len()).rev().find(|&fi| taken[fi]);
    for (fi, sf) in fields.iter().enumerate() {
        if taken[fi] {
            continue;
        }
        // Past the table: at or after its end, or a section (a user type, a repeated or open-ended field) after
        // the last attribute the table describes.
        let after_last = last_paired.is_none_or(|l| fi > l);
        let section = !matches!(sf.f.repeat, Repeat::None)
            || sf.f.size_eos
            || matches!(sf.f.ty, FieldTy::User { .. } | FieldTy::Switch { .. });
        let past_end = sf.offset.is_some_and(|o| o >= table_end)
            || after_last && (section || sf.offset.is_none());
        if past_end {
            continue;
        }
        // Attributes that are not bytes of this table's layout: the rest of the file after a fixed header.
        let chunks = doc_chunks(m, Some(ty), Some(sf.f), None);
        let where_ = sf
            .offset
            .map(|o| format!(" at {}", hex(o)))
            .unwrap_or_default();
        push(
            format!("`{}`", sf.f.name),
            format!("the wiki's table has no row for this attribute{where_}"),
            explain(&chunks, &[sf.f.name.as_str()], &[Term::Text("wiki".into())]),
        );
    }
}

/// The first text in double quotes (a magic: `Magic ("SARC" in big endian)`).
fn quoted(s: &str) -> Option<String> {
    let a = s.find('"')?;
    let b = s[a + 1..].find('"')? + a + 1;
    let q = &s[a + 1..b];
    (!q.is_empty() && q.len() <= 8).then(|| q.to_string())
}

fn describe_row(r: &FieldRow) -> String {
    let mut parts = Vec::new();
    if !r.ty.is_empty() {
        parts.push(r.ty.clone());
    }
    if let Some(s) = r.size {
        parts.push(format!("{} bytes", hex(s)));
    }
    if parts.is_empty() {
        "no size".into()
    } else {
        parts.join(", ")
    }
}

/// The differences between an enum table and an enum.
fn drift_enum(rev: &Revision, t: &Table, src: &Source<'_>, ei: usize, out: &mut Vec<Difference>) {
    let m = &src.schema.module;
    let e = &m.enums[ei];
    let rows = layout::values(t);
    let chunks = doc_chunks(m, Some(&m.types[e.owner]), None, Some(e));
    let mut push = recorder(rev, t, src, out);
    for r in &rows {
        let at = format!("row {} ({})", r.row, r.name);
        let Some(v) = r.value else {
            // A table that names values without giving them (nn::gfx's ImageFormat): the schema's value of that
            // name, which its doc explains by naming the enum and saying how the values were found.
            let by_name = e.values.iter().find(|x| layout::ident(&r.name) == x.1);
            match (by_name, r.value_text.trim().is_empty()) {
                (Some(x), true) => push(
                    at,
                    format!(
                        "value: the wiki gives none, schema {} (`{}`)",
                        hex_i(x.0),
                        x.1
                    ),
                    explain(
                        &chunks,
                        &[e.name.as_str()],
                        &[Term::Text("without values".into())],
                    ),
                ),
                (None, true) => push(
                    at,
                    "value: the wiki gives none, and the schema's enum has no value of that name"
                        .into(),
                    explain(&chunks, &[r.name.as_str()], &[]),
                ),
                _ => push(
                    at,
                    format!("value `{}` is not a number", r.value_text),
                    None,
                ),
            }
            continue;
        };
        match e.values.iter().find(|x| x.0 == v) {
            None => {
                let by_name = e.values.iter().find(|x| layout::ident(&r.name) == x.1);
                match by_name {
                    Some(x) => push(
                        at,
                        format!(
                            "value: wiki {}, schema {} (`{}`)",
                            hex_i(v),
                            hex_i(x.0),
                            x.1
                        ),
                        explain(
                            &chunks,
                            &[r.name.as_str(), x.1.as_str()],
                            &[Term::Text(r.value_text.clone())],
                        ),
                    ),
                    None => push(
                        at,
                        format!("the schema's enum has no value {}", hex_i(v)),
                        explain(&chunks, &[r.name.as_str()], &[]),
                    ),
                }
            }
            Some(x) => {
                let w = layout::ident(&r.name);
                let named = w == x.1
                    || words_cover(&w, &x.1)
                    || x.2.as_deref().is_some_and(|d| {
                        !r.name.is_empty() && d.to_lowercase().contains(&r.name.to_lowercase())
                    });
                if !named && !w.is_empty() {
                    push(
                        at,
                        format!(
                            "name: wiki \"{}\", schema `{}` (value {})",
                            r.name,
                            x.1,
                            hex_i(v)
                        ),
                        explain(&chunks, &[x.1.as_str()], &[Term::Text(r.name.clone())]),
                    );
                }
            }
        }
    }
    for x in &e.values {
        // (A row without a value that names it was reported above.)
        if rows
            .iter()
            .any(|r| r.value == Some(x.0) || (r.value.is_none() && layout::ident(&r.name) == x.1))
        {
            continue;
        }
        push(
            format!("`{}`", x.1),
            format!("the wiki's table has no value {}", hex_i(x.0)),
            explain(&chunks, &[x.1.as_str()], &[Term::Text("wiki".into())]),
        );
    }
}

fn hex_i(v: i128) -> String {
    if v < 0 {
        format!("-{:#x}", -v)
    } else {
        format!("{v:#x}")
    }
}

/// The result of comparing a dump with schemas.
#[derive(Debug, Default)]
pub struct Report {
    /// The differences, reference by reference in the order of the sources.
    pub differences: Vec<Difference>,
    /// Tables compared.
    pub tables: usize,
    /// Notes: sources whose page the dump does not have.
    pub notes: Vec<String>,
}

impl Report {
    /// How many of the differences a schema's doc explains.
    pub fn explained(&self) -> usize {
        self.differences
            .iter()
            .filter(|d| d.explained.is_some())
            .count()
    }
}

/// Compares the chosen revisions' tables with every source that names one of their pages.
pub fn compare(revs: &[&Revision], srcs: &[Source<'_>]) -> Report {
    let mut rep = Report::default();
    for src in srcs {
        let Some(rev) = revs
            .iter()
            .find(|r| sources::same_page(&r.page, &src.wiki.page))
        else {
            rep.notes.push(format!(
                "{}: page \"{}\" is not in the input",
                src.label(),
                src.wiki.page
            ));
            continue;
        };
        let ts = tables(&rev.text);
        let hits = sources::resolve(src.wiki, &ts);
        let mut table_name = src.wiki.section.clone();
        if let Some(c) = &src.wiki.caption {
            table_name = format!("{table_name} [{c}]");
        }
        let problem = match hits.len() {
            0 => Some("no such table on the page".to_string()),
            1 => None,
            n => Some(format!(
                "{n} tables match; give the caption or the table number in `-wiki`"
            )),
        };
        if let Some(what) = problem {
            rep.differences.push(Difference {
                page: rev.page.clone(),
                table: table_name,
                item: src.label(),
                at: String::new(),
                what,
                explained: None,
            });
            continue;
        }
        let t = &ts[hits[0]];
        rep.tables += 1;
        match (src.item, layout::kind(t)) {
            (Item::Type(ti), Kind::Struct) => drift_struct(rev, t, src, ti, &mut rep.differences),
            (Item::Enum(ei), Kind::Enum) => drift_enum(rev, t, src, ei, &mut rep.differences),
            (_, k) => rep.differences.push(Difference {
                page: rev.page.clone(),
                table: t.place(),
                item: src.label(),
                at: String::new(),
                what: format!(
                    "the table is a {} table, which this item cannot be compared with",
                    k.name()
                ),
                explained: None,
            }),
        }
    }
    rep
}
