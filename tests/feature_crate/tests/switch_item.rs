//! `tests/feature_schemas/switch_item.ksy`: pool items whose type is a switch. A hand-made file decoded, written
//! back byte for byte, and edited: a value added to the first entry moves the second's, and both offsets and
//! counts are derived.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::switch_item::{EntryValues, SwitchItem};

/// Two entries: two 16-bit values at 0x0d (after the header, aligned to 4 at 0x10), then one 32-bit value.
#[rustfmt::skip]
const FILE: [u8; 24] = [
    b'S', b'W', b'I', b'T',
    0x02,
    0x01, 0x02, 0x10, 0x00, // kind 1, 2 values at 0x10
    0x02, 0x01, 0x14, 0x00, // kind 2, 1 value at 0x14
    0x00, 0x00, 0x00,
    0x01, 0x00, 0x02, 0x00,
    0x78, 0x56, 0x34, 0x12,
];

#[test]
fn switch_items_read_and_write_back() {
    let m = agree::read::<SwitchItem>(&FILE).unwrap();
    assert_eq!(
        m.entries[0].values,
        [EntryValues::U2(1), EntryValues::U2(2)]
    );
    assert_eq!(m.entries[1].values, [EntryValues::U4(0x1234_5678)]);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn a_value_added_moves_the_next_item() {
    let mut m = agree::read::<SwitchItem>(&FILE).unwrap();
    m.entries[0].values.push(EntryValues::U2(3));
    let out = m.to_binary_agreed().unwrap();
    #[rustfmt::skip]
    assert_eq!(out, [
        b'S', b'W', b'I', b'T', 0x02,
        0x01, 0x03, 0x10, 0x00,
        0x02, 0x01, 0x18, 0x00, // after the six bytes of the first, aligned to 4
        0x00, 0x00, 0x00,
        0x01, 0x00, 0x02, 0x00, 0x03, 0x00,
        0x00, 0x00,
        0x78, 0x56, 0x34, 0x12,
    ]);
    assert_eq!(agree::read::<SwitchItem>(&out).unwrap(), m);
}
