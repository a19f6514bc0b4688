//! `tests/feature_schemas/item_offsets.ksy`: pointers into an item the writer places (BNTX's mip level pointers
//! into a texture's data). The model keeps each level's offset into the data, not the pointer; the writer derives
//! the pointers from where it puts the data, so data that moves takes its pointers along.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::item_offsets::{ItemOffsets, LevelPtr};

#[rustfmt::skip]
const FILE: [u8; 42] = [
    b'I', b'O', b'F', b'0',
    3, 0,                   // levels
    0, 0,                   // reserved
    16, 0, 0, 0,            // table_ofs
    10, 0, 0, 0,            // data_size
    32, 0, 0, 0,            // the table, at 16: the levels' pointers into the data
    36, 0, 0, 0,
    40, 0, 0, 0,
    0, 0, 0, 0,             // (padding to 16)
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, // the data, at 32
];

fn read(bytes: &[u8]) -> ItemOffsets {
    agree::read::<ItemOffsets>(bytes).unwrap_or_else(|e| panic!("decode: {e}"))
}

fn write(m: &ItemOffsets) -> Vec<u8> {
    m.to_binary_agreed()
        .unwrap_or_else(|e| panic!("encode: {e}"))
}

#[test]
fn the_model_keeps_offsets_into_the_data_and_no_pointer() {
    let m = read(&FILE);
    let kept: Vec<(Option<u32>, u32)> = m.table.iter().map(|l| (l.ptr, l.offset)).collect();
    assert_eq!(kept, [(None, 0), (None, 4), (None, 8)]);
    assert_eq!(&m.data[..], &FILE[32..]);
    assert_eq!(write(&m), FILE);
}

#[test]
fn a_longer_table_moves_the_data_and_its_pointers_follow() {
    let mut m = read(&FILE);
    for offset in [9, 9] {
        m.table.push(LevelPtr { ptr: None, offset });
    }
    let out = write(&m);
    // Five pointers (20 bytes from 16) push the data to the next multiple of 16: 48.
    assert_eq!(out.len(), 48 + 10);
    assert_eq!(out[4], 5, "the level count");
    let ptrs: Vec<u32> = out[16..36]
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(ptrs, [48, 52, 56, 57, 57]);
    assert_eq!(&out[48..], &FILE[32..]);
    let back = read(&out);
    assert_eq!(back, m);
}

#[test]
fn data_first_in_the_file_is_a_layout_choice_and_the_pointers_follow_it() {
    let mut m = read(&FILE);
    m.heap_order = Some(vec!["data".into(), "table".into()]);
    let out = write(&m);
    // The data at 16 (16 to 26), the table at 32.
    assert_eq!(&out[8..12], &32u32.to_le_bytes(), "table_ofs");
    assert_eq!(&out[16..26], &FILE[32..]);
    let ptrs: Vec<u32> = out[32..44]
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(ptrs, [16, 20, 24]);
    assert_eq!(read(&out), m);
}
