//! `tests/feature_schemas/ordered_aligned.ksy`: items of a `keep-order` pool, each aligned to 4. Hand-made files
//! decoded, written back byte for byte, and laid out anew where a gap is not an alignment's padding.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::ordered_aligned::OrderedAligned;

/// Two entries: the second's 3 bytes at 0x0c, one byte of padding, then the first's 2 bytes at 0x10.
#[rustfmt::skip]
const FILE: [u8; 18] = [
    b'O', b'R', b'D', b'A',
    0x02,
    0x10, 0x02, // entry 0: 2 bytes at 0x10
    0x0c, 0x03, // entry 1: 3 bytes at 0x0c
    0x00, 0x00, 0x00, // padding to 0x0c
    0x07, 0x08, 0x09, 0x00,
    0x05, 0x06,
];

#[test]
fn padding_to_an_items_alignment_keeps_the_order() {
    let m = agree::read::<OrderedAligned>(&FILE).unwrap();
    assert_eq!(&m.entries[0].body[..], [5, 6]);
    assert_eq!(&m.entries[1].body[..], [7, 8, 9]);
    // Entry 1's bytes (the second met) come first in the file.
    assert_eq!(m.data_item_order, Some(vec![1, 0]));
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn another_gap_lays_the_file_out_anew() {
    // Entry 1's bytes at 0x0c, entry 0's at 0x14: four bytes between them that no alignment explains.
    #[rustfmt::skip]
    let file = [
        b'O', b'R', b'D', b'A', 0x02,
        0x14, 0x02,
        0x0c, 0x03,
        0x00, 0x00, 0x00,
        0x07, 0x08, 0x09, 0x00,
        0xee, 0xee, 0xee, 0xee,
        0x05, 0x06,
    ];
    let m = agree::read::<OrderedAligned>(&file).unwrap();
    assert_eq!(m.data_item_order, None);
    let out = m.to_binary_agreed().unwrap();
    // In the order met, each aligned to 4.
    #[rustfmt::skip]
    assert_eq!(out, [
        b'O', b'R', b'D', b'A', 0x02,
        0x0c, 0x02,
        0x10, 0x03,
        0x00, 0x00, 0x00,
        0x05, 0x06, 0x00, 0x00,
        0x07, 0x08, 0x09,
    ]);
    assert_eq!(agree::read::<OrderedAligned>(&out).unwrap(), m);
}

/// Entry 1's bytes at 0x20, where the content before them ends at 0x0f: padding that alignment 4 does not
/// explain, but 0x20 does, a layout choice kept for the item (`data_item_align`: its index, its alignment).
#[rustfmt::skip]
const FURTHER: [u8; 0x22] = [
    b'O', b'R', b'D', b'A', 0x02,
    0x0c, 0x03, // entry 0: 3 bytes at 0x0c
    0x20, 0x02, // entry 1: 2 bytes at 0x20
    0x00, 0x00, 0x00,
    0x01, 0x02, 0x03,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0x05, 0x06,
];

#[test]
fn an_item_at_another_alignment_keeps_it() {
    let m = agree::read::<OrderedAligned>(&FURTHER).unwrap();
    assert_eq!(m.data_item_order, None);
    assert_eq!(m.data_item_align, Some(vec![1, 0x20]));
    assert_eq!(m.to_binary_agreed().unwrap(), FURTHER);
    // Entry 0 grown past 0x20: entry 1 goes to the next multiple of 0x20.
    let mut m2 = m.clone();
    m2.entries[0].body = vec![9; 0x15].into();
    let out = m2.to_binary_agreed().unwrap();
    assert_eq!(out.len(), 0x42);
    assert_eq!(out[7], 0x40);
    assert_eq!(&out[0x40..], [5, 6]);
    // (Read back, 0x40 is the alignment the position tells: the same bytes again.)
    let back = agree::read::<OrderedAligned>(&out).unwrap();
    assert_eq!(back.entries, m2.entries);
    assert_eq!(back.data_item_align, Some(vec![1, 0x40]));
    assert_eq!(back.to_binary_agreed().unwrap(), out);
    // Without the choice, at alignment 4 after entry 0.
    let mut m3 = m;
    m3.data_item_align = None;
    let out = m3.to_binary_agreed().unwrap();
    assert_eq!(out.len(), 0x12);
    assert_eq!(out[7], 0x10);
}

#[test]
fn an_alignment_for_an_item_that_is_not_there_is_refused() {
    let mut m = agree::read::<OrderedAligned>(&FURTHER).unwrap();
    m.data_item_align = Some(vec![2, 0x20]);
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("the item alignments name item 2, of 2"), "{e}");
}
