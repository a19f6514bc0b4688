//! `tests/feature_schemas/before_value.ksy`: `x._before` (where the content before an aligned section ends) and
//! `-value` (binspec's expression for a value instance), passed to a record whose fields derive from them, as
//! BNTX passes its relocation table the regions of the file.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::before_value::BeforeValue;

#[rustfmt::skip]
const FILE: [u8; 24] = [
    b'B', b'E', b'F', b'0',
    10, 0,                  // name_ofs
    16, 0,                  // block_ofs: aligned to 0x10
    20, 0,                  // table_ofs
    b'a', b'b', b'c', 0,    // the name, at 10, ends at 14
    0, 0,                   // padding to 16
    1, 2, 3, 4,             // the block, at 16
    14, 0,                  // the table: the content before the block ends at 14 ...
    16, 0,                  // ... and the block starts at 16
];

fn read(bytes: &[u8]) -> BeforeValue {
    agree::read::<BeforeValue>(bytes).unwrap_or_else(|e| panic!("decode: {e}"))
}

fn write(m: &BeforeValue) -> Vec<u8> {
    m.to_binary_agreed()
        .unwrap_or_else(|e| panic!("encode: {e}"))
}

#[test]
fn a_table_that_says_where_things_are_keeps_nothing() {
    let m = read(&FILE);
    assert_eq!((m.table.content_end, m.table.block_start), (None, None));
    assert_eq!(write(&m), FILE);
}

#[test]
fn a_longer_name_moves_the_block_and_the_table_follows() {
    let mut m = read(&FILE);
    m.name = "abcdefg".into();
    let out = write(&m);
    // The name ends at 18; the block goes to 32; the table says so.
    assert_eq!(&out[6..8], [32, 0], "block_ofs");
    assert_eq!(&out[36..40], [18, 0, 32, 0], "the table");
    assert_eq!(read(&out), m);
}

#[test]
fn a_table_that_says_otherwise_is_kept() {
    let mut bytes = FILE.to_vec();
    bytes[20] = 15;
    let m = read(&bytes);
    assert_eq!(m.table.content_end, Some(15));
    assert_eq!(write(&m), bytes);
}

/// Padding before the block that is not zeros (found by fuzzing BNTX, whose relocation table's first region ends
/// where the content before the GPU region ends): the model keeps it as the block's gap, and the content before the
/// block still ends where the name does. The writer put the gap first and then took where the content ends, so it
/// derived 16 where the reader had 14: the file came back with another table, which read back as an override.
#[test]
fn bytes_in_the_padding_are_a_gap_not_content() {
    let mut bytes = FILE.to_vec();
    bytes[14] = 0xaa;
    let m = read(&bytes);
    assert_eq!(m.block_gap.as_deref(), Some(&[0xaa, 0][..]));
    assert_eq!((m.table.content_end, m.table.block_start), (None, None));
    assert_eq!(write(&m), bytes);
    assert_eq!(read(&write(&m)), m);
}

/// Bytes after the last item, the table, which the root reads after its region (found by fuzzing BNTX, whose
/// relocation table is such an item): kept as the region's trailing bytes, after every item, and written back.
#[test]
fn bytes_after_the_root_s_own_last_item_are_kept() {
    let mut bytes = FILE.to_vec();
    bytes.extend_from_slice(&[7, 7]);
    let m = read(&bytes);
    assert_eq!(m.heap_trailing.as_deref(), Some(&[7u8, 7][..]));
    assert_eq!(write(&m), bytes);
    assert_eq!(read(&write(&m)), m);
}
