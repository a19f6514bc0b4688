//! The text forms of a [`Document`]: oead/roead's YAML dialect, and JSON.
//!
//! # YAML
//!
//! [`Document::to_text`] writes, and [`Document::from_text`] reads, the YAML that oead (`oead.byml.to_text`) and
//! roead (`Byml::to_text`) write and read. Files written by either load unchanged, and what is written here loads
//! in both (with the exceptions listed under *Differences*).
//!
//! ## Header
//!
//! The first line is a comment that records what the tree does not hold:
//!
//! ```text
//! # byml: version 7, big endian, layout: share=false values=before-root
//! ```
//!
//! The `layout` part is there only when [`Document::layout`] is set; `values` is `inline`, `before-root` or
//! `after-containers`. The parts are separated by commas, in any order. oead and roead see a comment. The line may
//! stand anywhere among the comment lines that open the document (`binspec decode` writes `# binspec: byml` and
//! `# compression: ...` lines too, in any order); a second `# byml:` line there is an error. Text without one is
//! version 2, little endian, default layout.
//!
//! ## Values
//!
//! | Node            | Written as                                   | Also read                                  |
//! |-----------------|----------------------------------------------|--------------------------------------------|
//! | null            | `null`                                       | `!!null` with anything                     |
//! | bool            | `true`, `false`                              | `!!bool True`...                           |
//! | s32             | `-5`                                         | `0x10`, `-0x10`, `012` (octal), `!!int 5`  |
//! | u32             | `!u 0x0000002a`                              | `!u 42`                                    |
//! | f32             | `1.0`, `1.5e-7`, `.inf`, `-.inf`, `.nan`     | `1.`, `.5`, `.Inf`, `!f32 1`, `!!float 1`  |
//! | s64             | `!l -5`                                      | `!l 0x10`                                  |
//! | u64             | `!ul 5`                                      | `!ul 0x5`                                  |
//! | f64             | `!f64 0.1`, `!f64 .inf`                      | `!f64 1e5`, `!f64 nan`                     |
//! | f32 or f64 NaN other than the canonical one (0x7fc00000, 0x7ff8000000000000) | `!f32bits 0xffc00000`, `!f64bits 0x7ff8000000000001` | |
//! | string          | `Name`, `'1.0'`, `'true'`, `"a\nb"`          | `"\x41\u00e9"`, block scalars `\|` and `>` |
//! | binary          | `!!binary AAFoZWxsbw==`                      | unpadded base64, white space inside        |
//! | aligned binary  | `!binary_align16 AAE=`, `!!file AAE=` when aligned to 0x1000 (roead's "file data") | |
//! | array           | `[1, 2]`, or a block sequence                | `!!seq`                                    |
//! | mono-typed array| `!mono [1, 2]`                               |                                            |
//! | dictionary      | `{a: 1}`, or a block mapping                 | `!!map`                                    |
//! | dictionary with remap | `!remap {a: 1}`                        |                                            |
//! | hash array (width W) | `!hash1 {0x0000abcd: 1}`, with remap `!hash1_remap {...}`; a hash of several words is one key `0x00000001_0000abcd` (each word 8 hex digits, joined with `_`), of none `''` | |
//!
//! The tags that are not oead's (`!mono`, `!remap`, `!hash*`, `!binary_align*`, `!f32`, `!f32bits`, `!f64bits`) are
//! this library's; oead and roead ignore the tags of containers (a `!remap` dictionary reads there as a plain one).
//! roead's `!h`/`!vh` hash maps (its reading of nodes 0x20 and 0x21, with decimal keys) are rejected with an
//! error, as is any unknown tag.
//!
//! Untagged plain scalars resolve as oead resolves them, in this order: `true` and `false` are booleans; a scalar
//! with a `.` that is a decimal number (optional sign, digits, fraction, optional exponent, or `.inf`, `.Inf`,
//! `.INF`, `+.inf`, `-.inf`, `.nan`, `.NaN`, `.NAN`) is an f32, rounded through an f64 as oead does; an integer as C's
//! `strtoull(s, 0)` reads it (decimal, `0x` hex, `0` octal, optional sign) is an s32; `null` is null. Everything else is a string: `~`, `Null`, `NULL`, `yes`, `on`, `1e5`,
//! `0o17`, `1_000`, `inf`, and an empty value (`key:` with nothing after it). Quoted scalars are strings. Keys are
//! always strings, taken as written.
//!
//! Strings are written plain when that reads back as the same string here, in oead and in YAML 1.1/1.2 readers;
//! else in single quotes; strings with control characters or characters that YAML cannot print (C1 controls,
//! U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF) in double quotes with escapes. Floats are written with the fewest digits
//! that read back to the same bits (through an f64 for f32, as oead reads them), always with a `.`.
//!
//! Dictionaries keep their order of insertion (oead sorts keys; this library writes and reads them in order).
//!
//! ## Layout
//!
//! As oead writes it: two-space indentation; a sequence under a key at the key's indentation; containers of at
//! most 10 scalars in flow style on one line (`{a: 1, b: 2}`, `[1, 2]`), others in block style; a tagged block
//! container has its tag after its key or `- ` and its entries on the following lines. A root that is not a
//! container is written as a document of one scalar (`null` for a file with no root).
//!
//! ## YAML accepted
//!
//! Block mappings and sequences (including `- - a` and `- key: value` compact forms), explicit keys (`? key` then
//! `: value`, which roead writes for keys with line breaks), flow mappings and sequences over any number of lines
//! (`{a, b}` is two keys with empty values, `[a: 1]` a one-entry dictionary), plain scalars over several lines,
//! single- and double-quoted scalars with all YAML escapes and line folding, literal and folded block scalars with
//! chomping and indentation indicators, comments, `%YAML` directives, `---` and `...`, a byte order mark, CRLF line
//! ends, tags in any position (`!<tag:yaml.org,2002:binary>` too), anchors and aliases (`&a`, `*a`; an alias
//! copies the node).
//!
//! Rejected with an error that names the line and column (`3:5: ...`): containers and aliases as keys, duplicate
//! keys, several documents, `%TAG`, tabs as indentation, unknown tags, nesting deeper than 512 containers (the
//! reader keeps its containers on a heap stack, so deep text is an error, never a stack overflow), aliases that
//! expand to more than about 16 nodes per byte of text.
//!
//! ## Differences
//!
//! - oead wraps integers that do not fit their node (`2147483648` reads as -2147483648, `!u -1` as 0xffffffff,
//!   `0xFFFFFFFF` as -1); here they are errors at their line and column. Tag a wider type (`!u`, `!l`, `!ul`).
//! - Strings and keys with a NUL character cannot be stored (the file ends each at its first NUL); the writer
//!   refuses them, naming their path in the tree.
//! - oead reads a quoted `'true'`, `'false'` or `'null'` as a boolean or null (it checks those words before
//!   quotes), although it writes strings with those texts quoted; here a quoted scalar is always a string.
//! - roead reads a plain `~` and `NULL` as null, and `012` as 12; oead (and this library) as strings and 10.
//! - oead keeps the first of duplicate keys silently; this library reports them.
//! - An explicit `!!str`, `!!int`, `!!float`, `!!bool` or `!!null` tag is obeyed here; oead ignores it.
//! - oead writes non-finite f32 as `inf.0`, `-inf.0`, `nan.0` (which it reads back as strings); they are read as
//!   floats here. roead writes them as `inf` and `NaN`, which roead, oead and this library read as strings.
//!
//! # JSON
//!
//! Through serde ([`Document`] implements `Serialize` and `Deserialize`), for example with `serde_json`:
//!
//! ```json
//! {"version": 7, "endian": "big", "layout": {"share": false, "values": "before-root"}, "root": {"a": [1, 1.5]}}
//! ```
//!
//! `layout` is left out when [`Document::layout`] is `None`; `version` (default 2) and `endian` (default
//! `"little"`) may be left out when reading. The tree maps naturally: null, booleans, strings, arrays and objects;
//! an s32 is an integer and an f32 a number with a fraction or an exponent (`1.0`). Every other node is an object
//! with one key, the YAML tag: `{"!u": 42}`, `{"!l": -1}`, `{"!ul": 1}`, `{"!f64": 0.1}`, `{"!!binary": "AAE="}`,
//! `{"!binary_align16": "AAE="}`, `{"!!file": "AAE="}`, `{"!mono": [1, 2]}`, `{"!remap": {"a": 1}}`,
//! `{"!hash1": {"0x0000abcd": 1}}`, `{"!hash1_remap": {...}}`. Non-finite floats are `{"!f32": ".inf"}`,
//! `{"!f32": "-.inf"}`, `{"!f32": ".nan"}` (`!f64` likewise; both also take a number), other NaNs
//! `{"!f32bits": "0xffc00000"}` and `{"!f64bits": "0x..."}`. An object whose first key starts with `!` is a
//! tagged value (and must have no other key): a dictionary whose first key starts with `!` is written as
//! `{"!!map": {...}}`. Integers out of the range of s32 must be tagged. Floats read back bit for bit (this crate
//! enables serde_json's `float_roundtrip`). serde_json's reader stops at 128 levels of nesting unless its
//! recursion limit is disabled; both directions stop at 512 here.

mod emit;
pub(crate) mod json;
mod parse;
mod scalar;
#[cfg(test)]
mod tests;

use binspec_runtime::Result;

use super::{text_error, Document, Endian, Layout, ValuePlacement, DEFAULT_VERSION};

/// The start of the header comment.
const HEADER: &str = "# byml:";

pub(crate) fn from_text(text: &str) -> Result<Document> {
    let mut doc = Document::new(super::Byml::Null);
    let mut header_line = None;
    for (number, start, line) in leading_comment_lines(text) {
        let Some(rest) = line.trim_start().strip_prefix(HEADER) else {
            continue;
        };
        if let Some(first) = header_line {
            return Err(text_error(
                number,
                line.len() - line.trim_start().len() + 1,
                format!("a second `{HEADER}` header line (the first is line {first}); give the version, byte order and layout once"),
            ));
        }
        header_line = Some(number);
        let indent = start + line.len() - line.trim_start().len();
        parse_header(rest, number, indent, &mut doc)?;
    }
    doc.root = parse::parse_yaml(text)?;
    Ok(doc)
}

/// The comment lines before a document's first line that is neither blank nor a comment (where `binspec decode`
/// writes its `# binspec:` and `# compression:` lines, and this module its `# byml:` line, in any order): each
/// with its line number (from 1), the byte offset of its start within its line (a byte order mark on the first
/// line) and its text without the line break.
fn leading_comment_lines(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    text.split('\n')
        .enumerate()
        .map(|(i, raw)| {
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            match (i, line.strip_prefix('\u{feff}')) {
                (0, Some(rest)) => (1, line.len() - rest.len(), rest),
                _ => (i + 1, 0, line),
            }
        })
        .take_while(|(_, _, line)| {
            let t = line.trim();
            t.is_empty() || t.starts_with('#')
        })
        .filter(|(_, _, line)| !line.trim().is_empty())
}

pub(crate) fn to_text(doc: &Document) -> Result<String> {
    let mut out = String::with_capacity(4096);
    push_header(doc, &mut out);
    emit::emit_root(&doc.root, &mut out)?;
    Ok(out)
}

fn placement_name(v: ValuePlacement) -> &'static str {
    match v {
        ValuePlacement::Inline => "inline",
        ValuePlacement::BeforeRoot => "before-root",
        ValuePlacement::AfterContainers => "after-containers",
    }
}

fn push_header(doc: &Document, out: &mut String) {
    out.push_str(HEADER);
    out.push_str(" version ");
    out.push_str(itoa::Buffer::new().format(doc.version));
    out.push_str(", ");
    out.push_str(doc.endian.name());
    out.push_str(" endian");
    if let Some(l) = doc.layout {
        out.push_str(", layout: share=");
        out.push_str(if l.share { "true" } else { "false" });
        out.push_str(" values=");
        out.push_str(placement_name(l.values));
    }
    out.push('\n');
}

/// Reads the rest of a header line (after `# byml:`) on line `number`, where `# byml:` starts at byte `offset`
/// of the line.
fn parse_header(line: &str, number: usize, offset: usize, doc: &mut Document) -> Result<()> {
    let col =
        |part: &str| offset + HEADER.len() + (part.as_ptr() as usize - line.as_ptr() as usize) + 1;
    let bad = |part: &str, what: &str| {
        Err(text_error(
            number,
            col(part),
            format!(
                "malformed header comment: {what} (expected `# byml: version 7, big endian` and optionally \
                 `, layout: share=false values=before-root`)"
            ),
        ))
    };
    let (mut version, mut endian) = (None, None);
    for raw in line.split(',') {
        let part = raw.trim();
        let p = part;
        if p.is_empty() {
            return bad(raw, "an empty part");
        }
        if let Some(v) = p.strip_prefix("version") {
            match v.trim().parse::<u16>() {
                Ok(v) if version.is_none() => version = Some(v),
                _ => return bad(part, "the version is a number from 0 to 65535, given once"),
            }
        } else if let Some(e) = p.strip_suffix("endian") {
            match e.trim() {
                "little" if endian.is_none() => endian = Some(Endian::Little),
                "big" if endian.is_none() => endian = Some(Endian::Big),
                _ => {
                    return bad(
                        part,
                        "the byte order is `little endian` or `big endian`, given once",
                    )
                }
            }
        } else if let Some(l) = p.strip_prefix("layout:") {
            let (mut share, mut values) = (None, None);
            for w in l.split_whitespace() {
                match w.split_once('=') {
                    Some(("share", "true")) if share.is_none() => share = Some(true),
                    Some(("share", "false")) if share.is_none() => share = Some(false),
                    Some(("values", v)) if values.is_none() => {
                        values = Some(match v {
                            "inline" => ValuePlacement::Inline,
                            "before-root" => ValuePlacement::BeforeRoot,
                            "after-containers" => ValuePlacement::AfterContainers,
                            _ => {
                                return bad(
                                    part,
                                    "values= is inline, before-root or after-containers",
                                );
                            }
                        })
                    }
                    _ => return bad(part, "the layout is `share=true|false values=...`"),
                }
            }
            match (share, values, doc.layout) {
                (Some(share), Some(values), None) => doc.layout = Some(Layout { share, values }),
                _ => return bad(part, "the layout needs share= and values=, given once"),
            }
        } else {
            return bad(part, "unknown part");
        }
    }
    doc.version = version.unwrap_or(DEFAULT_VERSION);
    doc.endian = endian.unwrap_or(Endian::Little);
    Ok(())
}
