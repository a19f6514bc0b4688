//! `tests/feature_schemas/chain.ksy`: a block chain, each block's distance to the next derived from where the writer
//! puts the blocks, and kept where a file has another.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::chain::Chain;

#[rustfmt::skip]
const FILE: [u8; 17] = [
    b'C', b'H', b'N', b'0',
    3,                  // count
    8, 11, 15,          // the blocks' offsets
    3, 1, 0xaa,         // block 0: next 3, a body of 1 byte
    4, 2, 0xbb, 0xcc,   // block 1: next 4
    0, 0,               // block 2: the last, next 0
];

fn read(bytes: &[u8]) -> Chain {
    agree::read::<Chain>(bytes).unwrap_or_else(|e| panic!("decode: {e}"))
}

fn write(m: &Chain) -> Vec<u8> {
    m.to_binary_agreed()
        .unwrap_or_else(|e| panic!("encode: {e}"))
}

fn nexts(m: &Chain) -> Vec<Option<u8>> {
    m.ptrs.iter().map(|p| p.block.next).collect()
}

#[test]
fn a_chain_as_the_writer_makes_it_keeps_no_value() {
    let m = read(&FILE);
    assert_eq!(nexts(&m), [None, None, None]);
    assert_eq!(write(&m), FILE);
}

#[test]
fn a_longer_block_moves_the_next_distance() {
    let mut m = read(&FILE);
    m.ptrs[0].block.body = vec![1, 2].into();
    let out = write(&m);
    assert_eq!(
        out,
        [b'C', b'H', b'N', b'0', 3, 8, 12, 16, 4, 2, 1, 2, 4, 2, 0xbb, 0xcc, 0, 0]
    );
    assert_eq!(nexts(&read(&out)), [None, None, None]);
}

#[test]
fn a_distance_the_writer_would_not_derive_is_kept() {
    let mut file = FILE;
    file[11] = 9; // block 1 says the next block is 9 bytes on
    let m = read(&file);
    assert_eq!(nexts(&m), [None, Some(9), None]);
    assert_eq!(write(&m), file);
    // The last block's 0 is derived; another value there is kept too.
    let mut file = FILE;
    file[15] = 2;
    assert_eq!(nexts(&read(&file)), [None, None, Some(2)]);
}
