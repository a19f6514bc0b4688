//! `tests/feature_schemas/align_at.ksy`: items aligned at an offset into them (BNTX's GPU region, whose block
//! header comes 0x10 bytes before an aligned address): the writer places them so, the reader keeps no choice for
//! a file laid out so, and one found elsewhere keeps an alignment that applies at the same offset.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::align_at::AlignAt;

#[rustfmt::skip]
const FILE: [u8; 96] = [
    b'A', b'A', b'T', b'0',
    16, 0, 0, 0,            // name_ofs
    56, 0, 0, 0,            // block_ofs: 56 + 8 is a multiple of 0x40
    92, 0, 0, 0,            // sub.blob_ofs: 92 + 4 is a multiple of 0x20
    b'h', b'i', 0,          // the name, at 16
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    b'B', b'L', b'K', b'0', 4, 0, 0, 0, // the block's header, at 56
    1, 2, 3, 4,             // its data, at 64
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    9, 8, 7, 6,             // the blob, at 92
];

fn read(bytes: &[u8]) -> AlignAt {
    agree::read::<AlignAt>(bytes).unwrap_or_else(|e| panic!("decode: {e}"))
}

fn write(m: &AlignAt) -> Vec<u8> {
    m.to_binary_agreed()
        .unwrap_or_else(|e| panic!("encode: {e}"))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn a_file_laid_out_so_keeps_no_choice() {
    let m = read(&FILE);
    assert_eq!(m.block_align, None);
    assert_eq!(m.block_gap, None);
    assert_eq!(m.heap_sub_blob_align, None);
    assert_eq!(write(&m), FILE);
}

#[test]
fn a_longer_name_moves_the_block_to_the_next_place_its_data_is_aligned() {
    let mut m = read(&FILE);
    m.name = "a name long enough to reach past 0x38".repeat(2).into();
    let out = write(&m);
    let name_end = 16 + m.name.len() + 1;
    let block = u32_at(&out, 8) as usize;
    assert!(block >= name_end);
    assert_eq!((block + 8) % 0x40, 0, "the block's data is aligned");
    assert!(block + 8 - 0x40 < name_end, "at the first such place");
    let blob = u32_at(&out, 12) as usize;
    assert_eq!((blob + 4) % 0x20, 0);
    assert_eq!(&out[block + 8..block + 12], [1, 2, 3, 4]);
    assert_eq!(read(&out), m);
}

#[test]
fn a_block_elsewhere_keeps_an_alignment_that_applies_at_its_data() {
    // The block at 0x78: its data (at 0x80) is aligned to 0x80, which the default 0x40 does not reproduce.
    let mut bytes = FILE[..56].to_vec();
    bytes[8] = 0x78;
    bytes.resize(0x78, 0);
    bytes.extend_from_slice(&FILE[56..68]);
    // The blob: 0x84 + 4 is a multiple of 0x20... and of 0x08 only after 0x84 + 4 = 0x88.
    let blob = 0x9c;
    bytes.resize(blob, 0);
    bytes.extend_from_slice(&[9, 8, 7, 6]);
    bytes[12] = blob as u8;
    let m = read(&bytes);
    assert_eq!(m.block_align, Some(0x80));
    assert_eq!(
        m.heap_sub_blob_align, None,
        "0x9c + 4 is where the default puts it"
    );
    assert_eq!(write(&m), bytes);
}
