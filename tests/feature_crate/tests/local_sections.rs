//! `tests/feature_schemas/local_sections.ksy`: a region in a repeated record, whose sections are the record's own
//! ranges. Hand-made files decoded, written back byte for byte, and edited.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::local_sections::LocalSections;

#[rustfmt::skip]
const FILE: [u8; 29] = [
    b'L', b'O', b'C', b'S',
    0x02,
    0x01, 0x00, 0x02, 0x01, 0x01, 0x01, 0x02, 0x02, 0x03, 0x03, 0x00, 0x00, // a: one at 0, b: two at 1
    0x00, 0x00, 0x01, 0x00, 0x04, 0x04, 0, 0, 0, 0, 0, 0, // a: none, b: one at 0
];

#[test]
fn each_records_region_starts_anew() {
    let m = agree::read::<LocalSections>(&FILE).unwrap();
    assert_eq!(m.records[0].a_values, [0x0101]);
    assert_eq!(m.records[0].b_values, [0x0202, 0x0303]);
    assert!(m.records[1].a_values.is_empty());
    assert_eq!(m.records[1].b_values, [0x0404]);
    // Nothing between the sections of the second record is taken for bytes nothing describes.
    assert!(m
        .records
        .iter()
        .all(|r| r.a_values_gap.is_none() && r.b_values_gap.is_none()));
    assert!(m.records.iter().all(|r| r.values_order.is_none()));
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn an_edited_kind_moves_the_next_within_its_record() {
    let mut m = agree::read::<LocalSections>(&FILE).unwrap();
    m.records[1].a_values.push(0x0505);
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(
        &out[17..25],
        &[0x01, 0x00, 0x01, 0x01, 0x05, 0x05, 0x04, 0x04]
    );
    assert_eq!(agree::read::<LocalSections>(&out).unwrap(), m);
}
