//! `tests/feature_schemas/placed_item.ksy`: a pool item whose record places its value in its own stream, past
//! what it reads (nothing), its size measured by a field. Read by both readers, written back byte for byte, and
//! edited: the size is where the placed value ends, and what follows the item moves with it.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::placed_item::PlacedItem;

#[rustfmt::skip]
const FILE: [u8; 0x12] = [
    b'P', b'I', b'T', b'M',
    0x08,                   // block_ofs
    0x08,                   // block_size
    0x04,                   // value_ofs: the value, 4 bytes into the block
    0x10,                   // tail_ofs
    0, 0, 0, 0,             // 0x08: the block, its first four bytes zeros
    0x78, 0x56, 0x34, 0x12, // its value
    0xcd, 0xab,             // 0x10: the tail
];

#[test]
fn the_item_holds_what_its_record_places() {
    let m = agree::read::<PlacedItem>(&FILE).unwrap();
    assert_eq!(m.block.as_ref().unwrap().value, 0x1234_5678);
    assert_eq!(m.tail, 0xabcd);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn a_value_placed_further_makes_the_item_longer() {
    let mut m = agree::read::<PlacedItem>(&FILE).unwrap();
    m.value_ofs = 8;
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(out[5], 0x0c, "block_size: where the value ends");
    assert_eq!(out[7], 0x14, "tail_ofs: after the longer block");
    assert_eq!(&out[0x10..0x14], &0x1234_5678u32.to_le_bytes());
    assert_eq!(&out[0x14..], &[0xcd, 0xab]);
    let back = agree::read::<PlacedItem>(&out).unwrap();
    assert_eq!(
        (back.block.as_ref().unwrap().value, back.tail),
        (0x1234_5678, 0xabcd)
    );
}

#[test]
fn without_the_block() {
    let mut m = agree::read::<PlacedItem>(&FILE).unwrap();
    m.block = None;
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(&out[4..8], &[0, 0, 4, 8]);
    assert_eq!(&out[8..], &[0xcd, 0xab]);
}
