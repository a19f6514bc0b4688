//! Struct, bitfield and enum tables: what kind of table a wikitable is, and its rows as fields or values.

use crate::{number, type_size, Table};

/// What a table describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A struct: rows of offset, size, type and description (or a C-style struct of type and name).
    Struct,
    /// Bits of an integer: rows of a bit range and a description.
    Bits,
    /// An enum: rows of a name and a value.
    Enum,
    /// Not a layout; the text says what it is instead ("version list", "game list", ...).
    Other(&'static str),
}

impl Kind {
    /// Whether the table is a layout (struct, bits or enum), which a schema may transcribe.
    pub fn is_layout(self) -> bool {
        !matches!(self, Kind::Other(_))
    }
    /// The kind as reports name it: `struct`, `bits`, `enum`, or what the table is instead (`version list`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Struct => "struct",
            Kind::Bits => "bits",
            Kind::Enum => "enum",
            Kind::Other(what) => what,
        }
    }
}

fn has(t: &Table, pred: impl Fn(&str) -> bool) -> bool {
    t.headers
        .iter()
        .any(|h| pred(&h.trim().to_ascii_lowercase()))
}

/// The column of the first header that `pred` accepts (headers compared in lower case).
fn col(t: &Table, pred: impl Fn(&str) -> bool) -> Option<usize> {
    t.headers
        .iter()
        .position(|h| pred(&h.trim().to_ascii_lowercase()))
}

/// What a table describes, from its headers.
pub(crate) fn kind(t: &Table) -> Kind {
    if t.code {
        return Kind::Struct;
    }
    if t.headers.is_empty() {
        return Kind::Other("table without a header row");
    }
    if has(t, |h| h == "offset") {
        return Kind::Struct;
    }
    if has(t, |h| {
        h == "bits" || h == "bit" || h.starts_with("bitfield")
    }) {
        return Kind::Bits;
    }
    if value_col(t).is_some() {
        return Kind::Enum;
    }
    if has(t, |h| h.starts_with("version")) {
        return Kind::Other("version list");
    }
    if has(t, |h| h.starts_with("game") || h == "applications") {
        return Kind::Other("game list");
    }
    if has(t, |h| h.contains("extension") || h == "tools") {
        return Kind::Other("format list");
    }
    if has(t, |h| h.contains("filename") || h.contains("file name")) {
        return Kind::Other("file list");
    }
    if has(t, |h| h.contains("function")) {
        return Kind::Other("function list");
    }
    if has(t, |h| h == "namespace") {
        return Kind::Other("namespace list");
    }
    if has(t, |h| h == "format") {
        return Kind::Other("format list");
    }
    Kind::Other("list without offsets or values")
}

/// The column holding an enum's values: `Value`, `Enum Value`, `Value (Hex)`, `Type Value`, `Magic`...
fn value_col(t: &Table) -> Option<usize> {
    col(t, |h| h == "value (hex)")
        .or_else(|| col(t, |h| h.contains("value") && !h.contains("dec")))
        .or_else(|| col(t, |h| h == "magic" || h == "id"))
}

/// One row of a struct table. Rows that a `rowspan`ned offset joins are one field.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FieldRow {
    /// 1-based data row of the table.
    pub row: usize,
    /// The offset: stated in the table, or (for C-style structs, which have none) summed from the sizes before.
    pub offset: Option<u64>,
    pub offset_text: String,
    /// Whether the offset was written in the table.
    pub offset_stated: bool,
    pub size: Option<u64>,
    pub size_text: String,
    pub ty: String,
    /// The field's name: the Name column, else the description up to its first full stop, colon or parenthesis.
    pub name: String,
    pub description: String,
}

/// The fields of a struct table.
pub(crate) fn fields(t: &Table) -> Vec<FieldRow> {
    let h = |names: &[&str]| t.column(names);
    let oc = h(&["Offset"]);
    let sc = h(&["Size"]);
    let tc = h(&["Type", "Data Type"]);
    let nc = h(&["Name", "Field", "Member"]);
    let dc = h(&["Description", "Notes", "Comment"]);
    let cell = |cells: &[String], c: Option<usize>| {
        c.and_then(|c| cells.get(c))
            .map_or(String::new(), |s| s.trim().to_string())
    };
    let mut out: Vec<FieldRow> = Vec::new();
    let mut at = Some(0u64);
    for (i, (_, cells)) in t.rows.iter().enumerate() {
        let continued = oc.is_some_and(|c| t.spanned[i].get(c).copied().unwrap_or(false));
        if continued {
            // A further row of a field that a rowspan joins: its description and type add to the field's.
            if let Some(f) = out.last_mut() {
                let d = cell(cells, dc);
                if !d.is_empty() {
                    f.description = format!("{}; {d}", f.description);
                }
                let ty = cell(cells, tc);
                if !ty.is_empty()
                    && tc.is_some_and(|c| !t.spanned[i].get(c).copied().unwrap_or(false))
                {
                    f.ty = format!("{} + {ty}", f.ty);
                }
            }
            continue;
        }
        let ty = cell(cells, tc);
        let size_text = cell(cells, sc);
        let size = if sc.is_some() {
            number(&size_text)
        } else {
            type_size(&ty)
        };
        let offset_text = cell(cells, oc);
        let stated = oc.is_some() && number(&offset_text).is_some();
        let offset = if oc.is_some() {
            number(&offset_text)
        } else {
            at
        };
        let description = cell(cells, dc);
        let name = match nc {
            Some(_) => cell(cells, nc),
            None => name_of(&description),
        };
        at = match (offset, size) {
            (Some(o), Some(s)) => Some(o + s),
            _ => None,
        };
        out.push(FieldRow {
            row: i + 1,
            offset,
            offset_text,
            offset_stated: stated,
            size,
            size_text,
            ty,
            name,
            description,
        });
    }
    out
}

/// The name part of a description cell: `Magic: "SARC"` is Magic, `Material Id. The ...` is Material Id.
pub(crate) fn name_of(description: &str) -> String {
    let s = strip_markup(description);
    let cut = s
        .find(['.', ':', ';', '(', ','])
        .filter(|&i| i > 0)
        .unwrap_or(s.len());
    let s = s[..cut].trim();
    // Long sentences: their first words.
    s.split_whitespace().take(8).collect::<Vec<_>>().join(" ")
}

/// Text without links, code and emphasis markup.
pub(crate) fn strip_markup(s: &str) -> String {
    let mut t = s.to_string();
    for tag in ["<code>", "</code>", "'''", "''", "<br>", "<br/>", "<br />"] {
        t = t.replace(tag, " ");
    }
    // [[Target|Label]] -> Label, [[Target]] -> Target
    while let Some(a) = t.find("[[") {
        let Some(b) = t[a..].find("]]").map(|b| a + b) else {
            break;
        };
        let inner = &t[a + 2..b];
        let label = inner.rsplit('|').next().unwrap_or(inner).to_string();
        t.replace_range(a..b + 2, &label);
    }
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A name as a schema identifier: `Header size` is `header_size`, `numNodes` is `num_nodes`.
pub(crate) fn ident(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in strip_markup(name).chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && prev_lower && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = c.is_ascii_lowercase();
        } else {
            if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            prev_lower = false;
        }
    }
    let out = out.trim_end_matches('_').to_string();
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{out}")
    } else {
        out
    }
}

/// One row of an enum table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ValueRow {
    pub row: usize,
    /// The value as a number, when it is one (magics such as `"FRES"` are not).
    pub value: Option<i128>,
    pub value_text: String,
    pub name: String,
    pub description: String,
}

/// The values of an enum table.
pub(crate) fn values(t: &Table) -> Vec<ValueRow> {
    let Some(vc) = value_col(t) else {
        return Vec::new();
    };
    let hex_only = t.headers[vc].to_ascii_lowercase().contains("hex");
    // The name: a Name column, else the first column that is neither a value nor the description.
    let nc = col(t, |h| h.starts_with("name")).or_else(|| {
        (0..t.headers.len()).find(|&c| {
            let h = t.headers[c].to_ascii_lowercase();
            c != vc && !h.contains("value") && !h.contains("description")
        })
    });
    let dc = col(t, |h| h.contains("description"));
    let mut out = Vec::new();
    for (i, (_, cells)) in t.rows.iter().enumerate() {
        let cell = |c: Option<usize>| {
            c.and_then(|c| cells.get(c))
                .map_or(String::new(), |s| strip_markup(s))
        };
        let value_text = cell(Some(vc));
        let v = value_text.trim();
        // A range (`0x20-0x2f`) stands for its first value.
        let v = match v.split_once('-') {
            Some((a, b)) if !a.is_empty() && number(b.trim()).is_some() => a.trim(),
            _ => v,
        };
        let value = if hex_only && !v.starts_with("0x") {
            i128::from_str_radix(v, 16).ok()
        } else {
            let neg = v.starts_with('-');
            number(v.trim_start_matches('-'))
                .map(|n| if neg { -i128::from(n) } else { i128::from(n) })
        };
        out.push(ValueRow {
            row: i + 1,
            value,
            value_text: value_text.clone(),
            name: cell(nc),
            description: cell(dc),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables;

    #[test]
    fn kinds() {
        let page = "== A ==\n{| class=\"wikitable\"\n!Offset\n!Size\n!Type\n!Description\n|-\n|0x0\n|0x4\n|u32\n|Magic: \"ABCD\"\n|}\n\
            {| class=\"wikitable\"\n!Name (Unofficial)\n!Value\n!Description\n|-\n|NONE\n|0x0\n|Nothing\n|-\n|SOME\n| -1\n|\n|}\n\
            {| class=\"wikitable\"\n!Version\n!Applications\n!Differences From Previous\n|-\n|1\n|BotW\n|\n|}\n\
            {| class=\"wikitable\"\n!Value (Hex)\n!Value (Dec)\n!Node Type\n|-\n|A0\n|160\n|String\n|}\n\
            {| class=\"wikitable\"\n!Bits\n!Description\n|-\n|0-3\n|Kind\n|}\n\
            === Data ===\n<syntaxhighlight lang=\"c++\">struct Header {\nchar[4] magic; // 'NAXP'\nuint32_t version;\nchar[6]; // pad\nif (x == 1)\nuint64_t off[2]; // where\n};</syntaxhighlight>\n";
        let ts = tables(page);
        let kinds: Vec<Kind> = ts.iter().map(kind).collect();
        assert_eq!(
            kinds,
            [
                Kind::Struct,
                Kind::Enum,
                Kind::Other("version list"),
                Kind::Enum,
                Kind::Bits,
                Kind::Struct
            ]
        );
        let f = fields(&ts[0]);
        assert_eq!(
            (f[0].offset, f[0].size, f[0].name.as_str()),
            (Some(0), Some(4), "Magic")
        );
        let v = values(&ts[1]);
        assert_eq!((v[1].value, v[1].name.as_str()), (Some(-1), "SOME"));
        let v = values(&ts[3]);
        assert_eq!((v[0].value, v[0].name.as_str()), (Some(0xa0), "String"));
        let c = &ts[5];
        assert_eq!(c.caption, "Header");
        assert_eq!(c.sections, ["A", "Data"]);
        let f = fields(c);
        let got: Vec<(Option<u64>, Option<u64>, &str, &str)> = f
            .iter()
            .map(|f| (f.offset, f.size, f.ty.as_str(), f.name.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (Some(0), Some(4), "char[4]", "magic"),
                (Some(4), Some(4), "uint32_t", "version"),
                (Some(8), Some(6), "char[6]", ""),
                (Some(14), Some(16), "uint64_t[2]", "off"),
            ]
        );
        assert_eq!(f[3].description, "if (x == 1): where");
    }

    #[test]
    fn names() {
        assert_eq!(ident("Header size"), "header_size");
        assert_eq!(ident("numNodes"), "num_nodes");
        assert_eq!(ident("[[Foo|Bar]] count"), "bar_count");
        assert_eq!(ident("2D flag"), "_2d_flag");
        assert_eq!(name_of("Material Id. The PhiveConfig byaml"), "Material Id");
        assert_eq!(name_of("Magic: \"txl1\""), "Magic");
    }
}
