//! `tests/feature_schemas/absent_offset.ksy`: an optional item's derived offset, kept where the item is absent and
//! the file's offset is not the 0 the writer writes there.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::absent_offset::{AbsentOffset, Entry};

#[rustfmt::skip]
const FILE: [u8; 12] = [
    b'A', b'B', b'S', b'O',
    3,                  // count
    8, 2, 10,           // the offsets: entry 1's points into the header (no value)
    0x11, 0x11,         // entry 0's value
    0x22, 0x22,         // entry 2's value
];

fn read(bytes: &[u8]) -> AbsentOffset {
    agree::read::<AbsentOffset>(bytes).unwrap_or_else(|e| panic!("decode: {e}"))
}

fn write(m: &AbsentOffset) -> Vec<u8> {
    m.to_binary_agreed()
        .unwrap_or_else(|e| panic!("encode: {e}"))
}

#[test]
fn an_absent_items_offset_is_kept_where_it_is_not_zero() {
    let m = read(&FILE);
    let values: Vec<Option<u16>> = m.entries.iter().map(|e| e.value).collect();
    assert_eq!(values, [Some(0x1111), None, Some(0x2222)]);
    // Only the absent item's offset is in the model.
    let kept: Vec<Option<u8>> = m.entries.iter().map(|e| e.ofs).collect();
    assert_eq!(kept, [None, Some(2), None]);
    assert_eq!(write(&m), FILE);
}

#[test]
fn an_item_removed_gets_offset_zero_and_the_others_move() {
    let mut m = read(&FILE);
    m.entries[0].value = None;
    m.entries.push(Entry {
        value: Some(0x3333),
        ..Entry::default()
    });
    let out = write(&m);
    assert_eq!(
        out,
        [b'A', b'B', b'S', b'O', 4, 0, 2, 9, 11, 0x22, 0x22, 0x33, 0x33]
    );
    let back = read(&out);
    let values: Vec<Option<u16>> = back.entries.iter().map(|e| e.value).collect();
    assert_eq!(values, [None, None, Some(0x2222), Some(0x3333)]);
}
