//! `tests/feature_schemas/relocations_data.ksy`: a relocation table derived from pointers the model holds as data.
//! A hand-made file decoded and written back byte for byte; edited pointers move between sections and groups; a
//! pointer marked `list-null` is listed while null; a table that lists a pointer the schema does not mark is kept.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::relocations_data::RelocationsData;

#[rustfmt::skip]
const FILE: [u8; 0x60] = [
    b'R', b'E', b'L', b'D',
    0x28, 0, 0, 0,                      // table_ofs
    0x28, 0, 0, 0, 0, 0, 0, 0,          // first (pointer at 0x08, into section 1)
    0x04, 0, 0, 0, 0, 0, 0, 0,          // second (pointer at 0x10, into section 0)
    0, 0, 0, 0, 0, 0, 0, 0,             // third: null, not listed
    0, 0, 0, 0, 0, 0, 0, 0,             // fourth: null, listed (list-null), in section 0
    b'_', b'R', b'L', b'T', 2, 0, 0, 0, // 0x28: the table, two sections
    0, 0, 0, 0, 0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,        // [0, 0x28): entry 0
    0x28, 0, 0, 0, 0xd8, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,     // [0x28, 0x100): entry 1
    0x10, 0, 0, 0, 2, 0, 1, 1,          // 0x50: the pointers at 0x10 and 0x20 (one, one skipped, twice)
    0x08, 0, 0, 0, 1, 0, 1, 0,          // 0x58: the pointer at 0x08
];

#[test]
fn the_table_is_derived_from_data_pointers() {
    let m = agree::read::<RelocationsData>(&FILE).unwrap();
    assert_eq!((m.first, m.second, m.third, m.fourth), (0x28, 0x04, 0, 0));
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
    assert_eq!(&out[0x58..], &[0x08, 0, 0, 0, 2, 0, 1, 1]);
    // The second one null: not listed; the fourth, null and marked list-null, is.
    m.second = 0;
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(
        &out[0x50..],
        &[0x20, 0, 0, 0, 1, 0, 1, 0, 0x08, 0, 0, 0, 2, 0, 1, 1]
    );
    let back = agree::read::<RelocationsData>(&out).unwrap();
    assert!(back.table.sections.iter().all(|s| s.entries.is_none()));
    assert_eq!(back.third, 0x30);
}

#[test]
fn a_table_listing_other_pointers_is_kept() {
    // Section 0 also lists 0x18, the third pointer, null and not marked list-null: (0x10, 3, 1, 0) instead of
    // (0x10, 2, 1, 1). The model keeps the file's entries of that section, and writes them back.
    let mut file = FILE.to_vec();
    file[0x50 + 4..0x50 + 8].copy_from_slice(&[3, 0, 1, 0]);
    let m = agree::read::<RelocationsData>(&file).unwrap();
    let kept = m.table.sections[0].entries.as_deref().unwrap();
    assert_eq!(
        (kept[0].position, kept[0].struct_count, kept[0].offset_count),
        (0x10, 3, 1)
    );
    assert!(m.table.sections[1].entries.is_none());
    assert_eq!(m.to_binary_agreed().unwrap(), file);
}
