//! `tests/feature_schemas/relocations.ksy`: pointers that a relocation table lists, the table derived by the
//! writer. A hand-made file decoded, written back byte for byte, and edited: the table follows the pointers.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::relocations::{Entry, Relocations};

#[rustfmt::skip]
const FILE: [u8; 0x81] = [
    b'R', b'E', b'L', b'O',
    0x45, 0, 0, 0,                      // table_ofs
    0x40, 0, 0, 0, 0, 0, 0, 0,          // name_ofs (pointer at 0x08)
    0x43, 0, 0, 0, 0, 0, 0, 0,          // note_ofs (pointer at 0x10)
    2, 0, 0, 0,                         // record_count
    0, 0, 0, 0,                         // reserved
    0x7d, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, // record 0: label_ofs (pointer at 0x20), value
    0x7f, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, // record 1: label_ofs (pointer at 0x30), value
    b'a', b'b', 0, b'n', 0,             // 0x40: name, note
    b'_', b'R', b'L', b'T', 2, 0, 0, 0, // 0x45: the table, two sections
    0, 0, 0, 0, 0x45, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,       // [0, 0x45): entries 0..1
    0x45, 0, 0, 0, 0, 0x10, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,    // [0x45, 0x1045): entries 1..2
    0x08, 0, 0, 0, 1, 0, 2, 0,          // 0x6d: the pointers at 0x08 and 0x10
    0x20, 0, 0, 0, 2, 0, 1, 1,          // 0x75: at 0x20 and 0x30 (one pointer, one skipped, twice)
    b'x', 0, b'y', 0,                   // 0x7d: labels
];

fn u32_at(d: &[u8], at: usize) -> usize {
    u32::from_le_bytes(d[at..at + 4].try_into().unwrap()) as usize
}

/// The table of a written file: per section, its entries as (position, struct count, offset count, padding).
fn table(d: &[u8]) -> Vec<Vec<(usize, u16, u8, u8)>> {
    let t = u32_at(d, 4);
    assert_eq!(&d[t..t + 4], b"_RLT");
    let n = u32_at(d, t + 4);
    let entries = t + 8 + n * 16;
    (0..n)
        .map(|s| {
            let at = t + 8 + s * 16;
            let (index, count) = (u32_at(d, at + 8), u32_at(d, at + 12));
            (index..index + count)
                .map(|i| {
                    let e = entries + i * 8;
                    (
                        u32_at(d, e),
                        u16::from_le_bytes([d[e + 4], d[e + 5]]),
                        d[e + 6],
                        d[e + 7],
                    )
                })
                .collect()
        })
        .collect()
}

#[test]
fn the_table_is_derived_from_the_pointers() {
    let m = agree::read::<Relocations>(&FILE).unwrap();
    assert_eq!(m.name, "ab");
    assert_eq!(m.note.as_deref(), Some("n"));
    let sections = &m.table.sections;
    assert_eq!(sections.len(), 2);
    assert!(sections.iter().all(|s| s.entries.is_none()), "{sections:?}");
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn the_table_follows_edits() {
    let mut m = agree::read::<Relocations>(&FILE).unwrap();
    // No note: its pointer is null, and not listed; everything after it moves back two bytes.
    m.note = None;
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(&out[0x10..0x18], &[0; 8]);
    assert_eq!(table(&out), [vec![(0x08, 1, 1, 0)], vec![(0x20, 2, 1, 1)]]);
    // A third record: its label pointer joins the repeated entry. The name is at 0x50 now, the table at 0x53:
    // the regions are data, so they follow by hand.
    m.records.push(m.records[0].clone());
    m.table.sections[0].region_size = 0x53;
    m.table.sections[1].region_ofs = 0x53;
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(u32_at(&out, 4), 0x53);
    assert_eq!(table(&out), [vec![(0x08, 1, 1, 0)], vec![(0x20, 3, 1, 1)]]);
    // One section for everything: every pointer in one list, grouped anew, as Nintendo's tools group them (the
    // pointer at 0x08 pairs with the next single pointer a whole number of pointers later, 0x20, and the two
    // left repeat at 0x30 and 0x40).
    m.table.sections.truncate(1);
    m.table.sections[0].region_size = 0x1000;
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(table(&out), [vec![(0x08, 2, 1, 2), (0x30, 2, 1, 1)]]);
    let back = agree::read::<Relocations>(&out).unwrap();
    assert_eq!(back.records.len(), 3);
    assert!(back.table.sections[0].entries.is_none());
}

#[test]
fn entries_grouped_otherwise_are_kept() {
    // The pointers at 0x20 and 0x30 as two entries of one pointer each.
    let mut file = FILE.to_vec();
    file[0x45 + 8 + 16 + 12] = 2; // the second section counts two entries
    file.splice(
        0x75..0x7d,
        [0x20, 0, 0, 0, 1, 0, 1, 0, 0x30, 0, 0, 0, 1, 0, 1, 0],
    );
    for p in [0x20, 0x30] {
        file[p] += 8; // the labels move by the entry added
    }
    let m = agree::read::<Relocations>(&file).unwrap();
    assert_eq!(
        m.table.sections[1].entries.as_deref(),
        Some(
            &[
                Entry {
                    position: 0x20,
                    struct_count: 1,
                    offset_count: 1,
                    padding_count: 0
                },
                Entry {
                    position: 0x30,
                    struct_count: 1,
                    offset_count: 1,
                    padding_count: 0
                }
            ][..]
        )
    );
    assert_eq!(m.to_binary_agreed().unwrap(), file);
    // Dropping them derives the table again.
    let mut m = m;
    m.table.sections[1].entries = None;
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn a_hostile_entry_is_kept_without_listing_its_pointers() {
    // The first entry claims 65,535 repetitions of 255 pointers: more than the file holds. Reading does not
    // list them (which would take gigabytes); it keeps the entry as the file has it, and writes it back.
    let mut file = FILE.to_vec();
    file[0x6d + 4..0x6d + 8].copy_from_slice(&[0xff, 0xff, 0xff, 0xff]);
    let m = agree::read::<Relocations>(&file).unwrap();
    let kept = m.table.sections[0].entries.as_deref().unwrap();
    assert_eq!(
        (
            kept[0].struct_count,
            kept[0].offset_count,
            kept[0].padding_count
        ),
        (0xffff, 0xff, 0xff)
    );
    assert_eq!(m.to_binary_agreed().unwrap(), file);
}
