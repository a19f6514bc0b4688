//! `tests/feature_schemas/relocations_data.ksy`: a relocation table derived from pointers the model holds as data.
//! A hand-made file decoded and written back byte for byte; edited pointers move between sections and groups.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::relocations_data::RelocationsData;

#[rustfmt::skip]
const FILE: [u8; 0x58] = [
    b'R', b'E', b'L', b'D',
    0x20, 0, 0, 0,                      // table_ofs
    0x20, 0, 0, 0, 0, 0, 0, 0,          // first (pointer at 0x08, into section 1)
    0x04, 0, 0, 0, 0, 0, 0, 0,          // second (pointer at 0x10, into section 0)
    0, 0, 0, 0, 0, 0, 0, 0,             // third: null, not listed
    b'_', b'R', b'L', b'T', 2, 0, 0, 0, // 0x20: the table, two sections
    0, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,        // [0, 0x20): entry 0
    0x20, 0, 0, 0, 0xe0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,     // [0x20, 0x100): entry 1
    0x10, 0, 0, 0, 1, 0, 1, 0,          // 0x48: the pointer at 0x10
    0x08, 0, 0, 0, 1, 0, 1, 0,          // 0x50: the pointer at 0x08
];

#[test]
fn the_table_is_derived_from_data_pointers() {
    let m = agree::read::<RelocationsData>(&FILE).unwrap();
    assert_eq!((m.first, m.second, m.third), (0x20, 0x04, 0));
    assert!(
        m.table.sections.iter().all(|s| s.entries.is_none()),
        "{:?}",
        m.table.sections
    );
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn the_table_follows_edited_pointers() {
    let mut m = agree::read::<RelocationsData>(&FILE).unwrap();
    // The third pointer set, into section 1: it groups with the first (one pointer, one skipped, twice).
    m.third = 0x30;
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(
        &out[0x48..],
        &[0x10, 0, 0, 0, 1, 0, 1, 0, 0x08, 0, 0, 0, 2, 0, 1, 1]
    );
    // The second one null: section 0 lists nothing, and the entries move up.
    m.second = 0;
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(
        &out[0x28 + 12..0x28 + 16],
        &[0, 0, 0, 0],
        "section 0's count"
    );
    assert_eq!(
        &out[0x38 + 8..0x38 + 16],
        &[0, 0, 0, 0, 1, 0, 0, 0],
        "section 1's index and count"
    );
    assert_eq!(&out[0x48..], &[0x08, 0, 0, 0, 2, 0, 1, 1]);
    let back = agree::read::<RelocationsData>(&out).unwrap();
    assert!(back.table.sections.iter().all(|s| s.entries.is_none()));
    assert_eq!(back.third, 0x30);
}
