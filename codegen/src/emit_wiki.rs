//! Emitter: one MediaWiki page per format, from the IR alone, in the layout of the EPD Wiki's format pages, so that
//! a table corrected in a schema can be pasted back into the wiki.
//!
//! The page opens with the first paragraph of the format's doc. Each type with a `seq` gets a `== heading ==` (the
//! section of its `-wiki` reference, else its name), the first paragraph of its doc, and a `{| class="wikitable"`
//! with the wiki's four columns, `Offset`, `Size`, `Type` and `Description`, one cell per line. Offsets and sizes
//! are lower-case hex (`0x8`, `0xa`) where they are static; an offset that depends on the data is left empty, as
//! the wiki does, and a size that does is written as an expression (`0x8 * crc_count`, `sizeof(node)`) or
//! `varies`. Types are named as the wiki names them: `u8`..`u64`, `s8`..`s64`, `float`, `double`, `char[N]` for
//! sized text (`u8[N]` for sized bytes), a user type's name. Enums follow, as tables of `Name`, `Value` and `Description`. Output is
//! deterministic (IR order throughout).

use std::fmt::Write;

use crate::emit_md::{hex, hex_i};
use crate::ir::{ConstVal, Field, FieldTy, Module, Repeat, Role, WikiRef};

/// Renders the MediaWiki page of one format.
pub fn emit(m: &Module) -> String {
    let mut out = String::new();
    if let Some(doc) = &m.doc {
        let p = first_par(doc);
        if !p.is_empty() {
            let _ = writeln!(out, "{p}\n");
        }
    }
    let mut last_heading: Option<String> = None;
    for (ti, t) in m.types.iter().enumerate() {
        if t.seq.is_empty() {
            continue;
        }
        let wiki = t.wiki.first();
        let heading = heading_of(wiki, &t.name);
        if last_heading.as_deref() != Some(heading.as_str()) {
            let _ = writeln!(out, "== {heading} ==");
            // The root's doc is usually the format's, already at the top.
            if let Some(doc) = t
                .doc
                .as_ref()
                .filter(|d| ti != 0 || Some(*d) != m.doc.as_ref())
            {
                let p = first_par(doc);
                if !p.is_empty() {
                    let _ = writeln!(out, "{p}");
                }
            }
        }
        last_heading = Some(heading);
        table_start(wiki, &["Offset", "Size", "Type", "Description"], &mut out);
        let mut at: Option<u64> = Some(0);
        for f in &t.seq {
            let offset = at.map(hex).unwrap_or_default();
            row(
                &[offset, size_text(m, f), type_name(m, f), describe(f)],
                &mut out,
            );
            at = at.and_then(|n| m.static_advance(f).map(|s| n + s));
        }
        out.push_str("|}\n\n");
    }
    for e in &m.enums {
        let wiki = e.wiki.first();
        let heading = heading_of(wiki, &e.name);
        let _ = writeln!(out, "== {heading} ==");
        table_start(wiki, &["Name", "Value", "Description"], &mut out);
        for (v, name, doc) in &e.values {
            row(
                &[
                    name.clone(),
                    hex_i(*v),
                    doc.as_deref().map(first_par).unwrap_or_default(),
                ],
                &mut out,
            );
        }
        out.push_str("|}\n\n");
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// The heading of a table: the last heading of its wiki section, else the type's (or enum's) name.
fn heading_of(wiki: Option<&WikiRef>, name: &str) -> String {
    wiki.and_then(|w| w.section.rsplit(" > ").next())
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or(name)
        .to_string()
}

/// `{| class="wikitable"`, the caption of the wiki reference (`|+Version 4-7`), and the header cells.
fn table_start(wiki: Option<&WikiRef>, headers: &[&str], out: &mut String) {
    out.push_str("{| class=\"wikitable\"\n");
    if let Some(c) = wiki.and_then(|w| w.caption.as_deref()) {
        let _ = writeln!(out, "|+{}", inline(c));
    }
    for h in headers {
        let _ = writeln!(out, "!{h}");
    }
}

/// `|-`, then one cell per line.
fn row(cells: &[String], out: &mut String) {
    out.push_str("|-\n");
    for c in cells {
        let c = cell(c);
        if c.is_empty() {
            out.push_str("|\n");
        } else {
            let _ = writeln!(out, "|{c}");
        }
    }
}

/// A cell's text: `|` as an entity (it would end the cell), and a space before a leading `-`, `+` or `}` (which
/// would make `|-`, `|+` or `|}`).
fn cell(s: &str) -> String {
    let s = s.replace('|', "&#124;");
    if s.starts_with(['-', '+', '}']) {
        format!(" {s}")
    } else {
        s
    }
}

/// Text on one line.
fn inline(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first paragraph of a doc, on one line, with its code spans as `<code>`.
fn first_par(doc: &str) -> String {
    code_spans(&inline(doc.trim().split("\n\n").next().unwrap_or("")))
}

/// The numbers a text gives (`0x0100`, `20`), to tell whether it already states a constant.
fn numbers_in(s: &str) -> Vec<i128> {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|w| {
            let w = w.to_ascii_lowercase();
            match w.strip_prefix("0x") {
                Some(h) => i128::from_str_radix(h, 16).ok(),
                None => w.parse().ok(),
            }
        })
        .collect()
}

/// `` `code` `` as `<code>code</code>` (MediaWiki has no backtick markup); an unpaired backtick stays.
fn code_spans(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len() < 3 {
        return s.to_string();
    }
    let mut out = String::new();
    let pairs = (parts.len() - 1) / 2;
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            if i > pairs * 2 {
                out.push('`');
            } else if i % 2 == 1 {
                out.push_str("<code>");
            } else {
                out.push_str("</code>");
            }
        }
        out.push_str(p);
    }
    out
}

/// `crc_count` → `Crc count`.
fn humanise(name: &str) -> String {
    let words = name
        .split('_')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let mut c = words.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The Size cell: hex when static; else the count or size expression, `sizeof(TYPE)` for a user type whose size
/// depends on its data, or `varies`.
fn size_text(m: &Module, f: &Field) -> String {
    if let Some(n) = m.static_field_size(f) {
        return hex(n);
    }
    let one = match m.static_elem_size(f) {
        Some(n) => hex(n),
        None => match (&f.size, &f.ty) {
            (Some(s), _) => inline(&s.text),
            (None, FieldTy::User { ty, .. }) => format!("sizeof({})", m.types[*ty].name),
            (None, FieldTy::Bits { n, .. }) if f.repeat == Repeat::None => format!("{n} bits"),
            _ if f.size_eos => "to end of file".into(),
            _ => "varies".into(),
        },
    };
    // An expression as a factor: parenthesised unless it is a single word.
    let factor = |s: &str| {
        if s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '(' || c == ')')
        {
            s.to_string()
        } else {
            format!("({s})")
        }
    };
    match &f.repeat {
        Repeat::None => one,
        _ if one == "varies" => one,
        Repeat::Expr(x) => format!("{} * {}", factor(&one), factor(&inline(&x.text))),
        Repeat::Eos => match &f.scan {
            Some(sc) => {
                let tags: Vec<String> = sc
                    .tags
                    .iter()
                    .map(|t| format!("\"{}\"", String::from_utf8_lossy(t)))
                    .collect();
                format!(
                    "{one} each, up to the tag {}{}",
                    tags.join(" or "),
                    if sc.or_eos { " or the end of file" } else { "" }
                )
            }
            None => format!("{one} each, to end of file"),
        },
        Repeat::Until(x) => format!("{} each, until {}", one, inline(&x.text)),
    }
}

/// The Type cell: the element type as the wiki names it, with its enum.
fn type_name(m: &Module, f: &Field) -> String {
    let mut s = match (&f.contents, &f.ty) {
        (Some(c), _) if c.iter().all(|b| b.is_ascii_graphic() || *b == b' ') => {
            format!("char[{}]", c.len())
        }
        (Some(c), _) => format!("u8[{}]", c.len()),
        (None, ty) => prim_name(m, f, ty),
    };
    if let Some(ei) = f.enum_ {
        let _ = write!(s, " ({} enum)", m.enums[ei].name);
    }
    s
}

fn prim_name(m: &Module, f: &Field, ty: &FieldTy) -> String {
    let fixed = || m.static_elem_size(f);
    match ty {
        FieldTy::Int { bytes, signed, .. } => {
            format!(
                "{}{}",
                if *signed { 's' } else { 'u' },
                u32::from(*bytes) * 8
            )
        }
        FieldTy::Float { bytes: 4, .. } => "float".into(),
        FieldTy::Float { bytes: 8, .. } => "double".into(),
        FieldTy::Float { bytes, .. } => format!("f{}", u32::from(*bytes) * 8),
        FieldTy::Bits { n: 1, .. } => "bool".into(),
        FieldTy::Bits { n, .. } => format!("u{n}"),
        FieldTy::Bytes => match (fixed(), &f.size) {
            (Some(n), _) => format!("u8[{n}]"),
            (None, Some(x)) => format!("u8[{}]", inline(&x.text)),
            (None, None) => "u8[]".into(),
        },
        FieldTy::Str { .. } => match (fixed(), &f.size) {
            (Some(n), _) => format!("char[{n}]"),
            (None, Some(x)) => format!("char[{}]", inline(&x.text)),
            (None, None) => "string".into(),
        },
        FieldTy::User { ty, .. } => m.types[*ty].name.clone(),
        FieldTy::Switch { cases, .. } => {
            let mut names: Vec<String> = Vec::new();
            for c in cases {
                let n = match (c.user(), &c.prim) {
                    (Some(u), _) => m.types[u].name.clone(),
                    (None, Some(p)) => prim_name(m, f, p),
                    (None, None) => c.variant.to_lowercase(),
                };
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            names.join(", ")
        }
        FieldTy::Value => "value".into(),
    }
}

/// The Description cell: the doc's first paragraph (else the name, humanised), the constant when the doc does not
/// give it, and the condition.
fn describe(f: &Field) -> String {
    let mut d = f
        .doc
        .as_deref()
        .map(first_par)
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| humanise(&f.name));
    match &f.role {
        Role::Const(ConstVal::Bytes(b)) if b.iter().all(|c| c.is_ascii_graphic() || *c == b' ') => {
            let text = format!("\"{}\"", String::from_utf8_lossy(b));
            if !d.contains(&text) {
                let _ = write!(d, " ({text})");
            }
        }
        Role::Const(ConstVal::Int(v)) if !numbers_in(&d).contains(v) => {
            let _ = write!(d, " (always {})", hex_i(*v));
        }
        _ => {}
    }
    if let Some(c) = &f.cond {
        let _ = write!(d, " (if {})", inline(&c.text));
    }
    d
}

#[cfg(test)]
mod tests {
    fn page(schema: &str) -> String {
        let c = crate::compile_str("t.ksy", schema).expect("compiles");
        super::emit(&c.module)
    }

    const TINY: &str = "meta:
  id: tiny
  endian: le
doc: |
  A tiny test format.

  A second paragraph, not on the wiki page.
seq:
  - id: magic
    contents: TINY
  - id: count
    type: u4
    doc: Number of items.
  - id: flags
    type: u2
    doc: Some | flags.
  - id: kind
    type: u1
    enum: kind
  - id: items
    type: item
    repeat: expr
    repeat-expr: count
  - id: tail
    type: f4
types:
  item:
    doc: One item.
    seq:
      - id: a_value
        type: s2
      - id: b
        type: f8
enums:
  kind:
    0: none
    0x10:
      id: some
      doc: Something.
";

    /// The whole page of a small format: header cells one per line, `|-` between rows, lower-case hex offsets, an
    /// empty offset after a variable-sized field, `0x4 * count`, wiki type names, enums.
    #[test]
    fn tiny_page() {
        let want = r#"A tiny test format.

== tiny ==
{| class="wikitable"
!Offset
!Size
!Type
!Description
|-
|0x0
|0x4
|char[4]
|Magic ("TINY")
|-
|0x4
|0x4
|u32
|Number of items.
|-
|0x8
|0x2
|u16
|Some &#124; flags.
|-
|0xa
|0x1
|u8 (kind enum)
|Kind
|-
|0xb
|0xa * count
|item
|Items
|-
|
|0x4
|float
|Tail
|}

== item ==
One item.
{| class="wikitable"
!Offset
!Size
!Type
!Description
|-
|0x0
|0x2
|s16
|A value
|-
|0x2
|0x8
|double
|B
|}

== kind ==
{| class="wikitable"
!Name
!Value
!Description
|-
|none
|0x0
|
|-
|some
|0x10
|Something.
|}
"#;
        assert_eq!(page(TINY), want);
    }

    /// A type's `-wiki` reference gives its heading and caption; conditions, switches, sized strings and
    /// parameters' sizes read as the wiki writes them; a cell that starts with `-` cannot end the row.
    #[test]
    fn wiki_refs_conditions_and_sizes() {
        let p = page(
            "meta:
  id: w
  endian: be
seq:
  - id: version
    type: u2
  - id: name
    type: str
    size: 4
    encoding: ASCII
  - id: extra
    type: u4
    if: version >= 4
    doc: -1 when unset.
  - id: body
    type:
      switch-on: version
      cases:
        1: old
        2: new
  - id: blob
    size: version * 2
  - id: bom
    type: u2
    valid: 0xfeff
  - id: ver
    type: u2
    valid: 0x100
    doc: Version (0x0100), see `ver`.
types:
  old:
    -wiki:
      page: W
      section: Structures > Old Header
      caption: Version 1
    seq:
      - id: x
        type: u1
  new:
    seq:
      - id: names
        type: strz
        encoding: UTF-8
        repeat: eos
      - id: words
        type: u2
        repeat: eos
        -scan:
          tags: [AB, CD]
          step: 2
          or-eos: true
",
        );
        let lines: Vec<&str> = p.lines().collect();
        let after = |cell: &str| -> Vec<&str> {
            let i = lines
                .iter()
                .position(|l| *l == cell)
                .unwrap_or_else(|| panic!("no line {cell:?} in\n{p}"));
            lines[i..(i + 4).min(lines.len())].to_vec()
        };
        assert_eq!(
            after("|char[4]"),
            ["|char[4]", "|Name", "|-", "|0x6"],
            "{p}"
        );
        assert_eq!(
            after("|0x6"),
            ["|0x6", "|0x4", "|u32", "| -1 when unset. (if version >= 4)"],
            "{p}"
        );
        // (A switch without `_` reads nothing for a value no case names, as Kaitai reads it.)
        assert_eq!(
            after("|old, new"),
            [
                "|old, new",
                "|Body (if version is one of the cases)",
                "|-",
                "|"
            ],
            "{p}"
        );
        assert_eq!(
            after("|version * 2"),
            ["|version * 2", "|u8[version * 2]", "|Blob", "|-"],
            "{p}"
        );
        assert!(p.contains("\n|u16\n|Bom (always 0xfeff)\n"), "{p}");
        assert!(
            p.contains("\n|u16\n|Version (0x0100), see <code>ver</code>.\n|}\n"),
            "{p}"
        );
        assert!(
            p.contains("== Old Header ==\n{| class=\"wikitable\"\n|+Version 1\n!Offset\n"),
            "{p}"
        );
        assert!(p.contains("|varies\n|string\n|Names\n"), "{p}");
        assert!(
            p.contains(
                "|0x2 each, up to the tag \"AB\" or \"CD\" or the end of file\n|u16\n|Words\n"
            ),
            "{p}"
        );
        assert!(!p.contains("== old =="), "{p}");
    }

    #[test]
    fn code_spans_and_numbers() {
        for (text, want) in [
            ("a `b` c `d`", "a <code>b</code> c <code>d</code>"),
            ("no code", "no code"),
            ("one ` tick", "one ` tick"),
            ("`x` and ` tail", "<code>x</code> and ` tail"),
        ] {
            assert_eq!(super::code_spans(text), want, "{text}");
        }
        assert_eq!(
            super::numbers_in("Version (0x0100), 20 or 0X1f."),
            [0x100, 20, 0x1f]
        );
    }

    #[test]
    fn deterministic() {
        assert_eq!(page(TINY), page(TINY));
    }
}
