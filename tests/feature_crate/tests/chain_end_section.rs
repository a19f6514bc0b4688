//! `tests/feature_schemas/chain_end_section.ksy`: a block chain that ends at an item the writer places (the
//! trailer, a section after the blocks): its offset and the last block's size both follow where it goes.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::chain_end_section::ChainEndSection;

#[rustfmt::skip]
const FILE: [u8; 18] = [
    b'C', b'H', b'E', b'0',
    2,                      // count
    17,                     // the trailer's offset
    8, 12,                  // the blocks' offsets
    4, 4, 1, 0xaa,          // block 0: next 4, size 4
    0, 5, 2, 0xbb, 0xcc,    // block 1, the last: next 0, size 5 (to the trailer)
    0xee,                   // the trailer
];

fn read(bytes: &[u8]) -> ChainEndSection {
    agree::read::<ChainEndSection>(bytes).unwrap_or_else(|e| panic!("decode: {e}"))
}

fn write(m: &ChainEndSection) -> Vec<u8> {
    m.to_binary_agreed()
        .unwrap_or_else(|e| panic!("encode: {e}"))
}

#[test]
fn a_chain_as_the_writer_makes_it_keeps_no_value() {
    let m = read(&FILE);
    let kept: Vec<_> = m
        .ptrs
        .iter()
        .map(|p| (p.block.next, p.block.size))
        .collect();
    assert_eq!(kept, [(None, None), (None, None)]);
    assert_eq!(write(&m), FILE);
}

#[test]
fn a_longer_last_block_moves_the_trailer_and_its_size_reaches_it() {
    let mut m = read(&FILE);
    m.ptrs[1].block.body = vec![0xbb, 0xcc, 0xdd].into();
    let out = write(&m);
    assert_eq!(out[5], 18, "the trailer's offset");
    assert_eq!(&out[12..14], [0, 6], "the last block: next 0, size 6");
    assert_eq!(out[18], 0xee);
    assert_eq!(read(&out), m);
}
