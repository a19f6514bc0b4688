//! `tests/feature_schemas/ordered_ranks.ksy`: a `keep-order` pool's `order`, the order of a new file (the
//! entries' bytes after the trailer). Hand-made files in that order and in another, decoded and written back byte
//! for byte; a model without an order written in the pool's.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::ordered_ranks::OrderedRanks;

/// The trailer at 0x0a, then entry 0's 3 bytes at 0x0c and entry 1's 2 bytes at 0x10: the pool's order.
#[rustfmt::skip]
const RANKED: [u8; 18] = [
    b'O', b'R', b'D', b'O',
    0x0a,
    0x02,
    0x0c, 0x03,
    0x10, 0x02,
    0xee, 0xff,
    0x01, 0x02, 0x03, 0x00,
    0x07, 0x08,
];

#[test]
fn a_file_in_the_pools_order_keeps_none() {
    let m = agree::read::<OrderedRanks>(&RANKED).unwrap();
    assert_eq!(m.data_item_order, None);
    assert_eq!(m.to_binary_agreed().unwrap(), RANKED);
}

#[test]
fn a_file_in_another_order_keeps_its_own() {
    // The order the writer meets them: the entries' bytes, then the trailer.
    #[rustfmt::skip]
    let file = [
        b'O', b'R', b'D', b'O',
        0x10,
        0x02,
        0x0a, 0x03,
        0x0e, 0x02,
        0x01, 0x02, 0x03, 0x00,
        0x07, 0x08,
        0xee, 0xff,
    ];
    let m = agree::read::<OrderedRanks>(&file).unwrap();
    assert_eq!(m.data_item_order, Some(vec![0, 1, 2]));
    assert_eq!(m.to_binary_agreed().unwrap(), file);
    // Without it, the pool's order.
    let mut m = m;
    m.data_item_order = None;
    assert_eq!(m.to_binary_agreed().unwrap(), RANKED);
}
