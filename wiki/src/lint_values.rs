//! `binspec wiki lint`, the checks on single cells and their neighbours: offset cells that are not numbers (with
//! the number they evidently meant), enum values that break the consecutive run of their neighbours, and a
//! section's magic that is another section's code. Also the name a finding gives a row that has no name cell.

use crate::layout::{self, Kind};
use crate::lint::Finding;
use crate::{number, Revision, Table};

/// A row's name when its name cell is empty or missing: its description's name part, else its type, else its first
/// cell with text; empty only for a row without text.
pub(crate) fn fallback_name(t: &Table, cells: &[String]) -> String {
    let cell = |names: &[&str]| {
        t.column(names)
            .and_then(|c| cells.get(c))
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
    };
    let name = if let Some(d) = cell(&["Description", "Notes", "Comment"]) {
        // A C-style struct's conditional field: `if (x == 1): comment`.
        let d = match d.split_once("): ") {
            Some((c, rest)) if c.starts_with("if (") => rest,
            _ => d,
        };
        layout::name_of(d)
    } else if let Some(ty) = cell(&["Type", "Data Type"]) {
        layout::strip_markup(ty)
    } else {
        cells
            .iter()
            .map(|c| layout::strip_markup(c))
            .find(|c| !c.is_empty())
            .unwrap_or_default()
    };
    // At most 40 characters, in whole words when it has several.
    let mut out = String::new();
    for w in name.split_whitespace() {
        if out.chars().count() + 1 + w.chars().count() > 40 {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    if out.is_empty() {
        out = name.chars().take(40).collect();
    }
    out
}

/// Gives every finding that names no row a name from the row's other cells ([`fallback_name`]).
pub(crate) fn name_rows(t: &Table, out: &mut [Finding]) {
    for f in out.iter_mut().filter(|f| f.field.trim().is_empty()) {
        if let Some((_, cells)) = f.row.checked_sub(1).and_then(|i| t.rows.get(i)) {
            f.field = fallback_name(t, cells);
        }
    }
}

/// What an offset cell that is not a number may have meant: `0c8` is `0x8` with `c` typed for `x`, or `0xc8`
/// without its `x`; `0x1o` is `0x10`.
fn readings(s: &str) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    let mut add = |c: String| {
        if let Some(n) = number(&c) {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    };
    if let Some(rest) = s.strip_prefix('0') {
        // The `x` typed as another key, or left out.
        let mut chars = rest.chars();
        if chars.next().is_some_and(|c| c.is_ascii_alphabetic()) {
            add(format!("0x{}", chars.as_str()));
        }
        add(format!("0x{rest}"));
    }
    // Letters that look like digits.
    let swapped: String = s
        .chars()
        .enumerate()
        .map(|(i, c)| match c {
            'o' | 'O' => '0',
            'l' | 'I' => '1',
            'X' if i == 1 => 'x',
            c => c,
        })
        .collect();
    add(swapped);
    out
}

/// Whether an offset cell is a mistyped number rather than a note (`varies`, `0x10 + N`, `sizeof(B)`, `-`): one
/// word of letters and digits that starts with a digit.
fn mistyped_number(s: &str) -> bool {
    !s.is_empty()
        && s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric())
        && number(s).is_none()
}

/// Struct tables: an offset cell that is not a number, such as `0c8`; with the number it meant when one reading
/// of it is where the row before ends (or where the row after starts, less this row's size).
pub(crate) fn lint_offset_typos(rev: &Revision, t: &Table, out: &mut Vec<Finding>) {
    if t.code || layout::kind(t) != Kind::Struct {
        return;
    }
    let fields = layout::fields(t);
    for (k, f) in fields.iter().enumerate() {
        let text = layout::strip_markup(&f.offset_text);
        if !mistyped_number(&text) {
            continue;
        }
        let before = k
            .checked_sub(1)
            .and_then(|j| Some(fields[j].offset? + fields[j].size?));
        let after = fields
            .get(k + 1)
            .and_then(|g| g.offset?.checked_sub(f.size?));
        let meant = readings(&text)
            .into_iter()
            .find(|&n| Some(n) == before || Some(n) == after);
        let what = match meant {
            Some(n) if Some(n) == before => format!(
                "the offset {text:?} is not a number; {n:#x} is evident, where row {} ends",
                fields[k - 1].row
            ),
            Some(n) => format!(
                "the offset {text:?} is not a number; {n:#x} is evident, as row {} starts {:#x} bytes later",
                fields[k + 1].row,
                f.size.unwrap_or(0)
            ),
            None => format!("the offset {text:?} is not a number"),
        };
        out.push(Finding {
            page: rev.page.clone(),
            table: t.place(),
            row: f.row,
            field: f.name.chars().take(40).collect(),
            what,
        });
    }
}

/// Enum tables: a value between two neighbours that are two apart, in a run that continues past them, which is not
/// the value between them (`0, 1, 2, 7, 4, 5`): the one value that breaks an otherwise consecutive run. A run that
/// jumps to a new start and continues from there (`0, 1, 2, 10, 11`) is a deliberate gap.
pub(crate) fn lint_sequence(rev: &Revision, t: &Table, out: &mut Vec<Finding>) {
    if layout::kind(t) != Kind::Enum {
        return;
    }
    let rows = layout::values(t);
    let v: Vec<Option<i128>> = rows.iter().map(|r| r.value).collect();
    for i in 1..v.len().saturating_sub(1) {
        let (Some(a), Some(x), Some(b)) = (v[i - 1], v[i], v[i + 1]) else {
            continue;
        };
        let step = b - a;
        if step.abs() != 2 || x == a + step / 2 {
            continue;
        }
        let step = step / 2;
        // The run goes on past the neighbours on at least one side.
        let runs_on =
            (i >= 2 && v[i - 2] == Some(a - step)) || v.get(i + 2) == Some(&Some(b + step));
        if !runs_on {
            continue;
        }
        let r = &rows[i];
        let name = if r.name.is_empty() {
            layout::name_of(&r.description)
        } else {
            r.name.clone()
        };
        out.push(Finding {
            page: rev.page.clone(),
            table: t.place(),
            row: r.row,
            field: name.chars().take(40).collect(),
            what: format!(
                "value {} breaks the run of its neighbours (row {}: {}, row {}: {}); {} is expected",
                show(x),
                rows[i - 1].row,
                show(a),
                rows[i + 1].row,
                show(b),
                show(a + step)
            ),
        });
    }
}

fn show(v: i128) -> String {
    if v < 0 {
        format!("-{:#x}", -v)
    } else {
        format!("{v:#x}")
    }
}

/// A four-character section code in parentheses at the end of a heading: `Pane (pan1)` is `pan1`. Numbers
/// (`Array (0xc0)`) and `TODO` are not codes.
fn heading_code(heading: &str) -> Option<&str> {
    let inner = heading.trim().strip_suffix(')')?;
    let code = &inner[inner.rfind('(')? + 1..];
    let ok = code.chars().count() == 4
        && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && number(code).is_none()
        && !code.eq_ignore_ascii_case("todo");
    ok.then_some(code)
}

/// The four-character codes a cell quotes: `Magic: "pic1"` quotes `pic1`.
fn quoted_codes(cell: &str) -> Vec<String> {
    let mut out = Vec::new();
    for q in ['"', '\''] {
        let parts: Vec<&str> = cell.split(q).collect();
        for inside in parts.iter().skip(1).step_by(2).take(parts.len() / 2) {
            let inside = inside.trim_end();
            if inside.chars().count() == 4 && !inside.contains(char::is_whitespace) {
                out.push(inside.to_string());
            }
        }
    }
    out
}

/// Struct tables under a heading that ends in a section code (`TextBox Pane (txt1)`): a Magic row that quotes
/// another code; with the heading that code belongs to, when the page has one.
pub(crate) fn lint_magic(rev: &Revision, t: &Table, all: &[Table], out: &mut Vec<Finding>) {
    let Some(heading) = t.sections.last() else {
        return;
    };
    let Some(code) = heading_code(heading) else {
        return;
    };
    if layout::kind(t) != Kind::Struct {
        return;
    }
    for f in layout::fields(t) {
        let name = layout::strip_markup(&f.name).to_lowercase();
        if !(name.starts_with("magic") || name.starts_with("signature")) {
            continue;
        }
        let cells = &t.rows[f.row - 1].1;
        let codes: Vec<String> = cells.iter().flat_map(|c| quoted_codes(c)).collect();
        if codes.is_empty() || codes.iter().any(|c| c.eq_ignore_ascii_case(code)) {
            continue;
        }
        let said = &codes[0];
        let owner = all
            .iter()
            .filter_map(|o| o.sections.last())
            .find(|h| heading_code(h).is_some_and(|c| c.eq_ignore_ascii_case(said)));
        let whose = match owner {
            Some(h) => format!(", the code of the section {h:?}"),
            None => String::new(),
        };
        out.push(Finding {
            page: rev.page.clone(),
            table: t.place(),
            row: f.row,
            field: f.name.chars().take(40).collect(),
            what: format!(
                "the magic {said:?} is not the code {code:?} of its section's heading{whose}"
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::{lint, Revision};

    fn findings(text: &str) -> Vec<String> {
        let rev = Revision {
            page: "P".into(),
            timestamp: String::new(),
            first_line: 1,
            text: text.into(),
        };
        lint(&rev).iter().map(|f| f.to_string()).collect()
    }

    fn table(heading: &str, rows: &[[&str; 4]]) -> String {
        let mut s =
            format!("{heading}\n{{| class=\"wikitable\"\n!Offset\n!Size\n!Type\n!Description\n");
        for r in rows {
            s.push_str(&format!("|-\n|{}\n|{}\n|{}\n|{}\n", r[0], r[1], r[2], r[3]));
        }
        s.push_str("|}\n");
        s
    }

    /// Modelled on Common nn::util's nn::util::StringPool table, whose third offset is `0c8`.
    #[test]
    fn an_offset_that_is_not_a_number() {
        let f = findings(&table(
            "=== nn::util::StringPool ===",
            &[
                ["0x0", "0x4", "u32", "Magic (\"_STR\" in big-endian)"],
                ["0x4", "0x4", "u32", "Next offset"],
                ["0c8", "0x8", "void*", "Reserved"],
                ["0x10", "0x4", "u32", "String Count"],
            ],
        ));
        assert_eq!(
            f,
            ["P | nn::util::StringPool | row 3 (Reserved): the offset \"0c8\" is not a number; 0x8 is evident, where row 2 ends"]
        );
        // The row after tells what it meant when the row before cannot: `0xc8` with its `x` left out.
        let f = findings(&table(
            "== S ==",
            &[
                ["0x0", "varies", "u8[]", "Data"],
                ["0c8", "0x4", "u32", "Count"],
                ["0xcc", "0x4", "u32", "Offset"],
            ],
        ));
        assert_eq!(
            f,
            ["P | S | row 2 (Count): the offset \"0c8\" is not a number; 0xc8 is evident, as row 3 starts 0x4 bytes later"]
        );
        // No reading fits its neighbours: no guess.
        let f = findings(&table(
            "== S ==",
            &[["0x0", "0x4", "u32", "A"], ["0x1g", "0x4", "u32", "B"]],
        ));
        assert_eq!(
            f,
            ["P | S | row 2 (B): the offset \"0x1g\" is not a number"]
        );
        // Notes and expressions in offset cells are not numbers that went wrong.
        let f = findings(&table(
            "== S ==",
            &[
                ["0x0", "0x4", "u32", "A"],
                ["0x4", "0x4 * Count", "u32[]", "B"],
                ["varies", "0x4", "u32", "C"],
                ["0x4 + 0x4 * Count", "0x4", "u32", "D"],
                ["-", "0x4", "u32", "E"],
                ["0x6:a", "1 bit", "u16", "F"],
            ],
        ));
        assert!(!f.iter().any(|x| x.contains("is not a number")), "{f:?}");
    }

    /// Modelled on Bfres's header, whose fifth row (`void*[4]`) has no description; and on unnamed padding in a
    /// C-style struct.
    #[test]
    fn rows_without_names_are_named() {
        let f = findings(&table(
            "== H ==",
            &[
                ["0x0", "0x8", "u64", "Name"],
                ["0x8", "0x8", "void*[4]", ""],
                ["0x28", "0x8", "u64", "Next"],
            ],
        ));
        assert_eq!(
            f,
            ["P | H | row 2 (void*[4]): size 0x8 does not fit the type void*[4] (0x20 bytes)"]
        );
        // A Name column whose cell is empty: the description names the row.
        let f = findings(
            "== H ==\n{| class=\"wikitable\"\n!Offset\n!Size\n!Type\n!Name\n!Description\n|-\n|0x0\n|0x2\n|u32\n|\n|Flags of the node. See below\n|}\n",
        );
        assert_eq!(
            f,
            ["P | H | row 1 (Flags of the node): size 0x2 does not fit the type u32 (0x4 bytes)"]
        );
        let f = findings(
            "=== H ===\n<syntaxhighlight lang=\"c\">struct H { // size 0x10\nuint32_t a;\nchar[2];\n};</syntaxhighlight>\n",
        );
        assert_eq!(
            f,
            ["P | H [H] | row 2 (char[2]): the struct's comment gives its size as 0x10, but its fields add up to 0x6"]
        );
    }

    fn enum_table(heading: &str, rows: &[(&str, &str)]) -> String {
        let mut s = format!(
            "{heading}\n{{| class=\"wikitable\"\n!Name (Unofficial)\n!Value\n!Description\n"
        );
        for (n, v) in rows {
            s.push_str(&format!("|-\n|{n}\n|{v}\n|\n"));
        }
        s.push_str("|}\n");
        s
    }

    /// Modelled on Common nn::gfx's nn::gfx::ChannelFormat, where ASTC_10x6 is 0x26 between 0x35 and 0x37.
    #[test]
    fn a_value_out_of_sequence() {
        let f = findings(&enum_table(
            "=== nn::gfx::ChannelFormat ===",
            &[
                ("ASTC_10x5", "0x35"),
                ("ASTC_10x6", "0x26"),
                ("ASTC_10x8", "0x37"),
                ("ASTC_10x10", "0x38"),
            ],
        ));
        assert_eq!(
            f,
            ["P | nn::gfx::ChannelFormat | row 2 (ASTC_10x6): value 0x26 breaks the run of its neighbours (row 1: 0x35, row 3: 0x37); 0x36 is expected"]
        );
        // 0, 1, 2, 7, 4, 5 in decimal; a row without a name is named by its description.
        let f = findings(
            "{| class=\"wikitable\"\n!Name\n!Value\n!Description\n|-\n|A\n|0\n|\n|-\n|B\n|1\n|\n|-\n|C\n|2\n|\n|-\n|\n|7\n|Seventh kind. Rare\n|-\n|E\n|4\n|\n|-\n|F\n|5\n|\n|}\n",
        );
        assert_eq!(
            f,
            ["P | (top) | row 4 (Seventh kind): value 0x7 breaks the run of its neighbours (row 3: 0x2, row 5: 0x4); 0x3 is expected"]
        );
        // Deliberate gaps: a run that jumps to a new start and continues; one value skipped; flags.
        for values in [
            &["0", "1", "2", "10", "11", "12"][..],
            &["0", "1", "2", "4", "5", "6"],
            &["0", "1", "2", "3", "4", "6", "17", "18"],
            &["1", "2", "4", "8", "16"],
            &["0x0", "0x1", "0x2", "0x3"],
        ] {
            let rows: Vec<(String, &str)> = values
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("N{i}"), *v))
                .collect();
            let rows: Vec<(&str, &str)> = rows.iter().map(|(n, v)| (n.as_str(), *v)).collect();
            let f = findings(&enum_table("== E ==", &rows));
            assert!(f.is_empty(), "{values:?}: {f:?}");
        }
    }

    /// Modelled on Bflyt's TextBox Pane (txt1), whose magic is "pic1", the Picture Pane's.
    #[test]
    fn a_magic_that_names_another_section() {
        let pic = table(
            "=== Picture Pane (pic1) ===",
            &[["0x0", "0x4", "char[4]", "Magic: \"pic1\""]],
        );
        let txt = table(
            "=== TextBox Pane (txt1) ===",
            &[
                ["0x0", "0x4", "char[4]", "Magic: \"pic1\""],
                ["0x4", "0x4", "u32", "Section size"],
            ],
        );
        let f = findings(&format!("{pic}{txt}"));
        assert_eq!(
            f,
            ["P | TextBox Pane (txt1) | row 1 (Magic): the magic \"pic1\" is not the code \"txt1\" of its section's heading, the code of the section \"Picture Pane (pic1)\""]
        );
        // Without a section of that code on the page; the magic in a column of its own.
        let f = findings(
            "=== Header (FLYT) ===\n{| class=\"wikitable\"\n!Offset\n!Size\n!Name\n!Description\n|-\n|0x0\n|0x4\n|Magic\n|\"FLAN\"\n|}\n",
        );
        assert_eq!(
            f,
            ["P | Header (FLYT) | row 1 (Magic): the magic \"FLAN\" is not the code \"FLYT\" of its section's heading"]
        );
        // The heading's own code (in any case), TODO and numbers in headings, and magics of other lengths.
        for (heading, magic) in [
            ("=== Header (FLYT) ===", "Magic: \"flyt\""),
            ("=== Pane (TODO) ===", "Magic: \"pan1\""),
            ("==== Array (0xc0) ====", "Magic: \"ARRY\""),
            ("=== Pane (pan1) ===", "Magic: \"Yaz0\" or \"pan1\""),
            ("=== Header (FRES) ===", "Magic: \"BFRES\""),
        ] {
            let f = findings(&table(heading, &[["0x0", "0x4", "char[4]", magic]]));
            assert!(f.is_empty(), "{heading} {magic}: {f:?}");
        }
    }
}
