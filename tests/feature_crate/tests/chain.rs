//! `tests/feature_schemas/chain.ksy`: a block chain, each block's distance to the next and its size derived from
//! where the writer puts the blocks (the last one's size from where the chain ends), and kept where a file has
//! others.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::chain::Chain;

#[rustfmt::skip]
const FILE: [u8; 25] = [
    b'C', b'H', b'N', b'0',
    3,                      // count
    24,                     // the trailer's offset: where the chain ends
    9, 13, 18,              // the blocks' offsets
    4, 4, 1, 0xaa,          // block 0: next 4, size 4, a body of 1 byte
    5, 5, 2, 0xbb, 0xcc,    // block 1: next 5, size 5
    0, 6, 0,                // block 2: the last, next 0, size 6 (to the trailer)
    0, 0, 0,                // (the last block's padding)
    0xee,                   // the trailer
];

fn read(bytes: &[u8]) -> Chain {
    agree::read::<Chain>(bytes).unwrap_or_else(|e| panic!("decode: {e}"))
}

fn write(m: &Chain) -> Vec<u8> {
    m.to_binary_agreed()
        .unwrap_or_else(|e| panic!("encode: {e}"))
}

/// Each block's kept next distance and size.
fn kept(m: &Chain) -> Vec<(Option<u8>, Option<u8>)> {
    m.ptrs
        .iter()
        .map(|p| (p.block.next, p.block.size))
        .collect()
}

#[test]
fn a_chain_as_the_writer_makes_it_keeps_no_value() {
    let m = read(&FILE);
    assert_eq!(kept(&m), [(None, None); 3]);
    assert_eq!(write(&m), FILE);
}

#[test]
fn a_longer_block_moves_the_distances_and_the_last_size() {
    let mut m = read(&FILE);
    m.ptrs[0].block.body = vec![1, 2].into();
    let out = write(&m);
    #[rustfmt::skip]
    let want = [
        b'C', b'H', b'N', b'0', 3, 24, 9, 14, 19,
        5, 5, 2, 1, 2,
        5, 5, 2, 0xbb, 0xcc,
        0, 5, 0,
        0, 0,
        0xee,
    ];
    assert_eq!(out, want);
    assert_eq!(kept(&read(&out)), [(None, None); 3]);
}

#[test]
fn distances_the_writer_would_not_derive_are_kept() {
    let mut file = FILE;
    file[13] = 9; // block 1 says the next block is 9 bytes on
    let m = read(&file);
    assert_eq!(kept(&m), [(None, None), (Some(9), None), (None, None)]);
    assert_eq!(write(&m), file);
    // The last block's 0 and its size to the trailer are derived; other values there are kept too.
    let mut file = FILE;
    file[18] = 2;
    file[19] = 3;
    assert_eq!(
        kept(&read(&file)),
        [(None, None), (None, None), (Some(2), Some(3))]
    );
}
