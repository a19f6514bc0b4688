//! `tests/feature_schemas/ordered_own.ksy`: a `keep-order` pool one of whose items the region's own type declares
//! (the trailer, as BFRES's relocation table would be). Hand-made files decoded, written back byte for byte with
//! the trailer where the file had it, and an edited entry moving the trailer, whose offset follows.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::ordered_own::OrderedOwn;

/// Two entries and the trailer: entry 1's 2 bytes at 0x0a, the trailer at 0x0c, entry 0's 3 bytes at 0x0e.
#[rustfmt::skip]
const FILE: [u8; 17] = [
    b'O', b'R', b'D', b'O',
    0x0c,       // trailer at 0x0c
    0x02,
    0x0e, 0x03, // entry 0: 3 bytes at 0x0e
    0x0a, 0x02, // entry 1: 2 bytes at 0x0a
    0x07, 0x08, // entry 1's
    0xee, 0xff, // the trailer
    0x01, 0x02, 0x03,
];

#[test]
fn the_trailer_keeps_its_place_among_the_items() {
    let m = agree::read::<OrderedOwn>(&FILE).unwrap();
    assert_eq!(&m.trailer[..], [0xee, 0xff]);
    assert_eq!(&m.entries[0].body[..], [1, 2, 3]);
    assert_eq!(&m.entries[1].body[..], [7, 8]);
    // Met: entry 0's bytes, entry 1's, the trailer; in the file: entry 1's, the trailer, entry 0's.
    assert_eq!(m.data_item_order, Some(vec![1, 2, 0]));
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn a_longer_entry_moves_the_trailer_after_it() {
    let mut m = agree::read::<OrderedOwn>(&FILE).unwrap();
    m.entries[1].body = vec![7, 8, 9, 10].into();
    let out = m.to_binary_agreed().unwrap();
    #[rustfmt::skip]
    assert_eq!(out, [
        b'O', b'R', b'D', b'O',
        0x0e,
        0x02,
        0x10, 0x03,
        0x0a, 0x04,
        0x07, 0x08, 0x09, 0x0a,
        0xee, 0xff,
        0x01, 0x02, 0x03,
    ]);
    assert_eq!(agree::read::<OrderedOwn>(&out).unwrap(), m);
}

#[test]
fn a_new_file_puts_the_trailer_after_the_entries() {
    let mut m = agree::read::<OrderedOwn>(&FILE).unwrap();
    m.data_item_order = None;
    let out = m.to_binary_agreed().unwrap();
    #[rustfmt::skip]
    assert_eq!(out, [
        b'O', b'R', b'D', b'O',
        0x10,
        0x02,
        0x0a, 0x03,
        0x0e, 0x02,
        0x01, 0x02, 0x03, 0x00,
        0x07, 0x08,
        0xee, 0xff,
    ]);
    assert_eq!(agree::read::<OrderedOwn>(&out).unwrap(), m);
}
