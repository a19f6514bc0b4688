//! `tests/feature_schemas/nested_place.ksy`: an item of a record named from outside it (`info.blob._pos`,
//! `info.blob._len`), and a byte array's size that names a record's field, derived. A hand-made file decoded and
//! written back byte for byte; a longer blob moves what follows it and changes every derived value.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::nested_place::NestedPlace;

/// The blob's 3 bytes at 0x06, the record at 0x09 that says so, then the trailer at 0x0b: the blob ends at 0x09.
#[rustfmt::skip]
const FILE: [u8; 12] = [
    b'N', b'E', b'S', b'T',
    0x08, // info at 0x08
    0x0a, // the trailer at 0x0a
    b'a', b'b',
    0x06, 0x02, // info: the blob at 0x06, 2 bytes
    0x08, // the trailer: the blob ends at 0x08
    0x00,
];

#[test]
fn derived_from_where_an_item_of_a_record_is() {
    let m = agree::read::<NestedPlace>(&FILE[..11]).unwrap();
    assert_eq!(&m.info.blob[..], b"ab");
    // Nothing of the layout kept: every offset, the length and the end derived.
    assert_eq!(m.info.loc.ofs, None);
    assert_eq!(m.info.loc.len, None);
    assert_eq!(m.tail.blob_end, None);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE[..11]);
}

#[test]
fn a_longer_blob_moves_what_follows() {
    let mut m = agree::read::<NestedPlace>(&FILE[..11]).unwrap();
    m.info.blob = b"abcde".to_vec().into();
    let out = m.to_binary_agreed().unwrap();
    #[rustfmt::skip]
    assert_eq!(out, [
        b'N', b'E', b'S', b'T',
        0x0b,
        0x0d,
        b'a', b'b', b'c', b'd', b'e',
        0x06, 0x05,
        0x0b,
    ]);
    assert_eq!(agree::read::<NestedPlace>(&out).unwrap(), m);
}

#[test]
fn a_file_that_disagrees_keeps_its_value() {
    // The trailer says 0x09 where the blob ends at 0x08: kept, and written back.
    let mut file = FILE;
    file[10] = 0x09;
    let m = agree::read::<NestedPlace>(&file[..11]).unwrap();
    assert_eq!(m.tail.blob_end, Some(0x09));
    assert_eq!(m.to_binary_agreed().unwrap(), file[..11]);
}
