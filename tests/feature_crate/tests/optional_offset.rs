//! `tests/feature_schemas/optional_offset.ksy`: an optional offset, derived where its item (with the same
//! condition) is there. Hand-made files decoded, written back byte for byte, and edited.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::optional_offset::OptionalOffset;

#[rustfmt::skip]
const FILE: [u8; 19] = [
    b'O', b'P', b'T', b'O',
    0x03,
    0x01, 0x0e,             // a name at 0x0e
    0x00, 0x07,             // no name: index 7
    0x02, 0x11,             // a name at 0x11
    0x01, 0x01, 0x09,       // extras: one
    b'a', b'b', 0,          // 0x0e
    b'c', 0,                // 0x11
];

#[test]
fn the_offset_is_derived_where_the_item_is_there() {
    let mut m = agree::read::<OptionalOffset>(&FILE).unwrap();
    let r = &m.records;
    assert_eq!((r[0].name.as_deref(), r[0].index), (Some("ab"), None));
    assert_eq!((r[1].name.as_deref(), r[1].index), (None, Some(7)));
    assert_eq!(r[2].name.as_deref(), Some("c"));
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
    // A longer first name moves the second, and its offset follows; the index stays.
    m.records[0].name = Some("abcd".into());
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(&out[5..11], &[0x01, 0x0e, 0x00, 0x07, 0x02, 0x13]);
    assert_eq!(&out[14..], b"abcd\0c\0");
    // One more extra: its count follows, and the names move.
    m.extras.as_mut().unwrap().push(8);
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(&out[11..15], &[0x01, 0x02, 0x09, 0x08]);
    assert_eq!(&out[5..11], &[0x01, 0x0f, 0x00, 0x07, 0x02, 0x14]);
    // No extras: no count.
    m.has_extras = 0;
    m.extras = None;
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(&out[11..], b"\x00abcd\0c\0");
}

#[test]
fn a_name_its_kind_does_not_have_is_refused() {
    let mut m = agree::read::<OptionalOffset>(&FILE).unwrap();
    m.records[1].name = Some("x".into());
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("records[1].name: present in the model"), "{e}");
    let mut m = agree::read::<OptionalOffset>(&FILE).unwrap();
    m.records[0].name = None;
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("records[0].name: absent in the model"), "{e}");
}
