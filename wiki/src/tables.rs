//! Tables of a page text: `{| class="wikitable" ... |}` markup (rows, cells, `rowspan`s, multi-line cells) and
//! the C-style structs of its code blocks, under the section headings they sit in; and the numbers and type sizes
//! their cells write.

use std::fmt::Write as _;

use crate::Kind;

/// A `{| class="wikitable" ... |}` table, or a C-style struct of a code block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// The headings above the table, outermost first.
    pub sections: Vec<String>,
    /// The `|+` caption (a struct's name), or empty.
    pub caption: String,
    /// The `!` header cells, in column order.
    pub headers: Vec<String>,
    /// Rows of cells, and the 1-based line (in the revision's text) where each row starts. A cell that a
    /// `rowspan` above covers is repeated in each row it covers.
    pub rows: Vec<(usize, Vec<String>)>,
    /// For each row, which cells are such repeats.
    pub spanned: Vec<Vec<bool>>,
    /// The 1-based line (in the revision's text) where the table starts.
    pub line: usize,
    /// A C-style `struct` in a code block (HedgeDocs writes layouts so) rather than a `wikitable`: its headers are
    /// Type, Name and Description, and the caption is the struct's name.
    pub code: bool,
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
    /// What the table describes, from its headers.
    pub fn kind(&self) -> Kind {
        crate::layout::kind(self)
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

/// The tables of a page text, with the section headings they sit under: `wikitable`s, then the C-style structs of
/// its code blocks, each in page order.
pub fn tables(text: &str) -> Vec<Table> {
    let mut out = wikitables(text);
    out.extend(code_structs(text));
    out
}

/// The heading a line is, as (level, title).
fn heading(l: &str) -> Option<(usize, String)> {
    let level = l.chars().take_while(|&c| c == '=').count();
    (level >= 2 && l.ends_with(&"=".repeat(level)) && l.len() > 2 * level)
        .then(|| (level, clean_heading(&l[level..l.len() - level])))
}

/// A heading's text without markup (`<code>`, bold, a trailing colon).
fn clean_heading(s: &str) -> String {
    let mut t = s.trim().to_string();
    for tag in ["<code>", "</code>", "\'\'\'", "\'\'"] {
        t = t.replace(tag, "");
    }
    t.trim().trim_end_matches(':').trim().to_string()
}

/// C-style structs inside `<syntaxhighlight>`/`<pre>` blocks: `struct NAME { TYPE NAME; // comment ... };` and
/// `typedef struct { ... } NAME;`. Statements that are not declarations (calls, `local` variables, seeks) are
/// skipped; a declaration after an `if (...)` line gets the condition in its description.
fn code_structs(text: &str) -> Vec<Table> {
    let mut out: Vec<Table> = Vec::new();
    let mut sections: Vec<(usize, String)> = Vec::new();
    let mut in_code = false;
    let mut cur: Option<Table> = None;
    let mut cond: Option<String> = None;
    let mut depth = 0usize;
    let mut name_next = false;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let mut l = raw.trim().to_string();
        if !in_code {
            if let Some((level, title)) = heading(&l) {
                sections.retain(|(lv, _)| *lv < level);
                sections.push((level, title));
                continue;
            }
            let open = ["<syntaxhighlight", "<source", "<pre"]
                .iter()
                .filter_map(|t| l.find(t))
                .min();
            let Some(i) = open else { continue };
            let Some(gt) = l[i..].find('>') else { continue };
            l = l[i + gt + 1..].to_string();
            in_code = true;
            cur = None;
            depth = 0;
        }
        let close = ["</syntaxhighlight>", "</source>", "</pre>"]
            .iter()
            .filter_map(|t| l.find(t))
            .min();
        let ends_code = close.is_some();
        if let Some(c) = close {
            l.truncate(c);
        }
        let (code, comment) = match l.find("//") {
            Some(i) => (l[..i].trim().to_string(), l[i + 2..].trim().to_string()),
            None => (l.trim().to_string(), String::new()),
        };
        let code = code.as_str();
        // `}` then the typedef's name on a line of its own (`JiggleStruct<optimize=false>;`).
        if name_next && !code.is_empty() {
            name_next = false;
            let name: String = code
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let rest = code[name.len()..].trim_start();
            if !name.is_empty() && (rest.starts_with('<') || rest.starts_with(';')) {
                if let Some(t) = out.last_mut() {
                    t.caption = name;
                }
                if !ends_code {
                    continue;
                }
            }
        }
        if cur.is_none() {
            let st = code.strip_prefix("typedef ").unwrap_or(code);
            if let Some(rest) = st.strip_prefix("struct") {
                let name = rest
                    .trim()
                    .trim_end_matches('{')
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string();
                if !rest.trim_end().ends_with(';') {
                    cur = Some(Table {
                        sections: sections.iter().map(|(_, t)| t.clone()).collect(),
                        caption: name,
                        headers: vec!["Type".into(), "Name".into(), "Description".into()],
                        line: line_no,
                        code: true,
                        ..Table::default()
                    });
                    depth = code.matches('{').count();
                    cond = None;
                }
            }
        } else if let Some(t) = cur.as_mut() {
            let opens = code.matches('{').count();
            let closes = code.matches('}').count();
            let before = depth;
            depth = (depth + opens).saturating_sub(closes);
            if before > 0 && depth == 0 {
                // The end of the struct: `};`, `} NAME;`, `}NAME<attrs>;`.
                let after = code.trim_start_matches('}').trim();
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if t.caption.is_empty() {
                    t.caption = name;
                }
                if let Some(t) = cur.take() {
                    if !t.rows.is_empty() {
                        name_next = t.caption.is_empty();
                        out.push(t);
                    }
                }
            } else if before == 0 && opens == 0 && code.starts_with('}') {
                // `}` on a line before `{`: not a struct after all.
                cur = None;
            } else if let Some(c) = code
                .strip_prefix("if")
                .filter(|c| c.trim_start().starts_with('('))
            {
                cond = Some(format!("if {}", c.trim()));
            } else if let Some((ty, name)) = declaration(code) {
                let mut desc = comment.clone();
                if let Some(c) = cond.take() {
                    desc = if desc.is_empty() {
                        c
                    } else {
                        format!("{c}: {desc}")
                    };
                }
                t.rows.push((line_no, vec![ty, name, desc]));
                t.spanned.push(vec![false; 3]);
            } else if !code.is_empty() {
                cond = None;
            }
        }
        if ends_code {
            in_code = false;
            cur = None;
        }
    }
    out
}

/// `TYPE NAME;`, `TYPE NAME[N];`, `TYPE[N] NAME;` or `TYPE[N];` (unnamed padding) as (type with any array, name).
fn declaration(code: &str) -> Option<(String, String)> {
    let stmt = code.strip_suffix(';')?.trim();
    if stmt.is_empty()
        || stmt.contains('(')
        || stmt.contains('=')
        || stmt.starts_with("local ")
        || stmt.starts_with("return")
        || stmt.starts_with('#')
    {
        return None;
    }
    // Drop 010 Editor attributes: `<hidden=true>`, `<name="...">`.
    let stmt = match stmt.find('<') {
        Some(i) => stmt[..i].trim(),
        None => stmt,
    };
    let stmt = stmt
        .trim_start_matches("const ")
        .trim_start_matches("unsigned ")
        .trim();
    let (ty_part, name_part) = match stmt.rfind(|c: char| c.is_whitespace()) {
        Some(i) => (stmt[..i].trim(), stmt[i..].trim()),
        None => (stmt, ""),
    };
    let ident = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
    let ty_base = ty_part.split('[').next().unwrap_or("");
    if !ident(ty_base) {
        return None;
    }
    if name_part.is_empty() {
        // `char[6]`: unnamed.
        return ty_part
            .contains('[')
            .then(|| (ty_part.to_string(), String::new()));
    }
    // `TYPE NAME[N]` -> (`TYPE[N]`, NAME).
    let (name, arr) = match name_part.find('[') {
        Some(i) => (&name_part[..i], &name_part[i..]),
        None => (name_part, ""),
    };
    if !ident(name) {
        return None;
    }
    Some((format!("{ty_part}{arr}"), name.to_string()))
}

/// The `wikitable`s of a page text, with the section headings they sit under.
fn wikitables(text: &str) -> Vec<Table> {
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
            if let Some((level, title)) = heading(l) {
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
pub(crate) fn number(s: &str) -> Option<u64> {
    let s = s.trim();
    let mut words = s.split_whitespace();
    let first = words.next().unwrap_or("");
    // A number alone, or followed by a note in parentheses (`0x1C (28)`); not the start of an expression
    // (`0x4 * Texture Count`) or of a unit (`1 bit`).
    let rest = words.collect::<Vec<_>>().join(" ");
    if !rest.is_empty() && !rest.starts_with('(') {
        return None;
    }
    let s = first.trim_end_matches([',', ';', '.']);
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse().ok()
    } else {
        None
    }
}

/// The size in bytes of a type as the wiki names it (`u32`, `s16`, `float`, `uint8_t`, `u32[4]`), if known.
pub(crate) fn type_size(ty: &str) -> Option<u64> {
    let t = ty.trim();
    let t = t.trim_start_matches("const ").trim();
    // A pointer (`void*`, `Foo *`): 64-bit on the Switch.
    let base = t.split('[').next().unwrap_or("").trim();
    if base.ends_with('*') {
        let n = match t.find('[') {
            Some(open) => number(t[open + 1..].trim_end_matches(']'))?,
            None => 1,
        };
        return Some(8 * n);
    }
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
        | "f32" | "float" | "float32" | "dword" => 4,
        "u64" | "s64" | "i64" | "uint64" | "int64" | "uint64_t" | "int64_t" | "ulong" | "long"
        | "f64" | "double" | "float64" | "hkint64" | "hkuint64" => 8,
        "vec2f" | "vector2f" => 8,
        "vec3f" | "vector3f" => 12,
        "vec4f" | "vector4f" | "quatf" | "vector4" | "quaternion" => 16,
        "float16" => 2,
        "int24" | "uint24" => 3,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
