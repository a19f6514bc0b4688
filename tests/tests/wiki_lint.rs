//! `binspec wiki lint` on large generated pages (every check linear in the rows and tables it reads) and the
//! contradictions of single cells in the EPD seed dump (../shared/seeds; skipped with a message when absent).

use binspec_tests::repo;
use std::fmt::Write as _;

fn lint_text(text: &str) -> Vec<String> {
    binspec_tests::lint_page(text, "P")
}

const ROWS: usize = 200_000;

/// A struct table of 200,000 rows, a table of as many size expressions, an enum of as many values and a bits
/// table of as many bits, each with one or two planted contradictions. A check that compares each row with every
/// row before it does 2 * 10^10 comparisons here, hours of work; linear checks take a second or two.
#[test]
fn tables_of_200000_rows() {
    let mut page =
        String::from("== Struct ==\n{| class=\"wikitable\"\n!Offset\n!Size\n!Type\n!Description\n");
    let mut at = 0u64;
    for i in 0..ROWS {
        // A gap of four bytes before row 100,001; row 150,001 repeats the name of row 8.
        if i == 100_000 {
            at += 4;
        }
        let name = if i == 150_000 { 7 } else { i };
        let _ = write!(page, "|-\n|{at:#x}\n|0x4\n|u32\n|Count {name}\n");
        at += 4;
    }
    page.push_str(
        "|}\n== Arrays ==\n{| class=\"wikitable\"\n!Offset\n!Size\n!Type\n!Description\n",
    );
    for i in 0..ROWS {
        // Every size names a count of the struct table, but the last names one that no table has.
        let count = if i == ROWS - 1 {
            "Count Missing".to_string()
        } else {
            format!("Count {i}")
        };
        let _ = write!(page, "|-\n|varies\n|0x4 * {count}\n|u32[]\n|Array {i}\n");
    }
    page.push_str("|}\n== Enum ==\n{| class=\"wikitable\"\n!Name\n!Value\n!Description\n");
    for i in 0..ROWS {
        // Row 100,001 breaks the run; the last row repeats the name of row 6 with another value.
        let (name, value) = match i {
            100_000 => ("N100000".to_string(), 7),
            i if i == ROWS - 1 => ("N5".to_string(), i),
            i => (format!("N{i}"), i),
        };
        let _ = write!(page, "|-\n|{name}\n|{value}\n|\n");
    }
    page.push_str("|}\n== Flags ==\n{| class=\"wikitable\"\n!Bits\n!Description\n");
    for i in 0..ROWS {
        // The last row's range overlaps rows 6 and 7.
        let bits = if i == ROWS - 1 {
            "5-6".to_string()
        } else {
            i.to_string()
        };
        let _ = write!(page, "|-\n|{bits}\n|Bit {i}\n");
    }
    page.push_str("|}\n");
    let f = lint_text(&page);
    assert_eq!(
        f,
        [
            "P | Struct | row 100001 (Count 100000): offset 0x61a84 leaves a gap of 0x4 bytes after row 100000 (0x61a7c + 0x4 = 0x61a80)",
            "P | Struct | row 150001 (Count 7): the field name \"Count 7\" is also row 8",
            "P | Arrays | row 200000 (Array 199999): the size \"0x4 * Count Missing\" names \"Count Missing\", which is not a field of this table or page",
            "P | Enum | row 100001 (N100000): value 0x7 is also row 8 (N7)",
            "P | Enum | row 200000 (N5): name \"N5\" is also row 6, with the value 0x5 (here 0x30d3f)",
            "P | Enum | row 100001 (N100000): value 0x7 breaks the run of its neighbours (row 100000: 0x1869f, row 100002: 0x186a1); 0x186a0 is expected",
            "P | Flags | row 200000 (Bit 199999): bits 5..6 overlap row 6 (bits 5..5)",
        ]
    );
}

/// 20,000 sections, each with a struct table and a bits table whose width a row of that struct gives: checks that
/// look through every table of the page for each table must not do so again for each.
#[test]
fn pages_of_20000_tables() {
    const TABLES: usize = 20_000;
    let mut page = String::new();
    for i in 0..TABLES {
        let _ = write!(
            page,
            "== Block {i} ==\nNotes on block {i}.\n{{| class=\"wikitable\"\n!Offset\n!Size\n!Type\n!Description\n\
             |-\n|0x0\n|0x4\n|u32\n|Count {i}\n|-\n|0x4\n|0x1\n|Flags {i}\n|Flags\n|-\n|0x5\n|0x4 * Count {i}\n|u32[]\n|Items\n|}}\n\
             === Flags {i} ===\n{{| class=\"wikitable\"\n!Bits\n!Description\n|-\n|0-3\n|Kind\n|-\n|4-{}\n|Mode\n|}}\n",
            // The last block's flags take nine bits of the byte its struct gives them.
            if i == TABLES - 1 { 8 } else { 7 }
        );
    }
    let f = lint_text(&page);
    assert_eq!(
        f,
        ["P | Block 19999 > Flags 19999 | row 2 (Mode): bits 4..8 exceed the 8 bits of the integer (size 0x1 of row 2 of Block 19999)"]
    );
}

fn seed(name: &str) -> Option<String> {
    let p = repo().join("../shared/seeds").join(name);
    match std::fs::read_to_string(&p) {
        Ok(t) => Some(t),
        Err(e) => {
            eprintln!("skipped: {} ({e})", p.display());
            None
        }
    }
}

/// One instance of each kind of contradiction in single cells, where the EPD dump has it (revision 0 of each page).
#[test]
fn epd_dump_cells() {
    let Some(text) = seed("002_611e4de14f4074d5.txt") else {
        return;
    };
    let f = lint_text(&text);
    for want in [
        // Common nn::util, StringPool > nn::util::StringPool: the third offset is `0c8`; the row before ends at 0x8.
        "Common nn::util | StringPool > nn::util::StringPool | row 3 (Reserved): the offset \"0c8\" is not a number; 0x8 is evident, where row 2 ends",
        // Common nn::gfx, nn::gfx::ChannelFormat: ASTC_10x6 is 0x26 between ASTC_10x5 (0x35) and ASTC_10x8 (0x37).
        "Common nn::gfx | nn::gfx::ChannelFormat | row 39 (ASTC_10x6): value 0x26 breaks the run of its neighbours (row 38: 0x35, row 40: 0x37); 0x36 is expected",
        // Bphsh, hknpShapeType::Enum: USER_5 is 27 after USER_4's 25, and USER_6 is 27 too.
        "Bphsh | Structures (Havok Physics) > hknpMeshShape > hknpShapeType::Enum | row 27 (USER_5): value 0x1b breaks the run of its neighbours (row 26: 0x19, row 28: 0x1b); 0x1a is expected",
        // Bflyt, TextBox Pane (txt1): its magic is "pic1", the Picture Pane's.
        "Bflyt | TextBox Pane (txt1) | row 1 (Magic): the magic \"pic1\" is not the code \"txt1\" of its section's heading, the code of the section \"Picture Pane (pic1)\"",
        // Bfres, Header (nn::g3d2::ResFile): row 5 has no description; its type names it.
        "Bfres | Header (nn::g3d2::ResFile) | row 5 (void*[4]): size 0x8 does not fit the type void*[4] (0x20 bytes)",
    ] {
        assert!(f.iter().any(|x| x == want), "missing: {want}\nall:\n{}", f.join("\n"));
    }
    // Every finding names its row.
    for x in &f {
        let row = x.split(" | ").nth(2).unwrap_or("");
        let (head, _) = row.split_once(": ").unwrap_or(("", ""));
        assert!(
            head.starts_with("row ") && head.ends_with(')') && !head.ends_with("()"),
            "{x}"
        );
    }
}
