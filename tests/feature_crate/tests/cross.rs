//! `tests/feature_schemas/cross.ksy`: a table of offsets to arrays whose contents are ranges that records elsewhere
//! name, counting from the table's (derived) offsets. Hand-made files decoded, written back byte for byte, and
//! edited to see what the writer derives.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::cross::{Cross, Record};

#[rustfmt::skip]
const FILE: [u8; 25] = [
    b'C', b'R', b'S', b'S',
    0x02,                   // record_count
    0x0e,                   // table_ofs
    0x00, 0x02, 0x00, 0x01, // record 0: a at 0 (two), b at 0 (one)
    0x02, 0x01, 0x01, 0x02, // record 1: a at 2 (one), b at 1 (two)
    0x10, 0x16,             // the table: a_ofs, b_ofs
    0x11, 0x11, 0x22, 0x22, 0x33, 0x33, // the a array
    0x07, 0x08, 0x09,       // the b array
];

fn read(bytes: &[u8]) -> Cross {
    agree::read::<Cross>(bytes).unwrap_or_else(|e| panic!("decode: {e}"))
}

fn write(m: &Cross) -> Vec<u8> {
    m.to_binary_agreed()
        .unwrap_or_else(|e| panic!("encode: {e}"))
}

#[test]
fn ranges_counted_from_a_tables_derived_offsets_round_trip() {
    let m = read(&FILE);
    let a: Vec<&[u16]> = m.records.iter().map(|r| &r.a[..]).collect();
    assert_eq!(a, [&[0x1111, 0x2222][..], &[0x3333]]);
    let b: Vec<&[u8]> = m.records.iter().map(|r| &r.b[..]).collect();
    assert_eq!(b, [&[7][..], &[8, 9]]);
    assert!(m
        .records
        .iter()
        .all(|r| r.a_base.is_none() && r.b_base.is_none()));
    assert_eq!(write(&m), FILE);
}

#[test]
fn a_longer_first_array_moves_the_second_and_the_bases_that_count_from_it() {
    let mut m = read(&FILE);
    m.records[0].a.push(0x4444);
    m.records[1].b.push(0x0a);
    let out = write(&m);
    #[rustfmt::skip]
    let want: Vec<u8> = vec![
        b'C', b'R', b'S', b'S', 0x02, 0x0e,
        0x00, 0x03, 0x00, 0x01,
        0x03, 0x01, 0x01, 0x03,
        0x10, 0x18,
        0x11, 0x11, 0x22, 0x22, 0x44, 0x44, 0x33, 0x33,
        0x07, 0x08, 0x09, 0x0a,
    ];
    assert_eq!(out, want);
    let again = read(&out);
    assert_eq!(again.records[1].b, [8, 9, 0x0a]);
    assert_eq!(again.records[0].a, [0x1111, 0x2222, 0x4444]);
}

/// The table is where the file put it (its offset is data): records that would reach into it are refused, not
/// written over it.
#[test]
fn a_record_more_would_overlap_the_table_and_is_refused() {
    let mut m = read(&FILE);
    m.records.push(Record::default());
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("cross.table") && e.contains("overlap"), "{e}");
}
