//! `tests/feature_schemas/exact_slots.ksy`: a sized value without a terminator or padding fills its slot; a
//! shorter one is refused rather than padded into another value.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::exact_slots::ExactSlots;

const FILE: [u8; 15] = [
    b'a', b'b', b'c', b'd', 1, 2, 3, b'x', b' ', b' ', b' ', b'y', 0, 0, 0,
];

#[test]
fn padding_and_terminators_are_layout() {
    let mut m = agree::read::<ExactSlots>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!((&m.name[..], &m.padded[..], &m.zs[..]), ("abcd", "x", "y"));
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
    m.padded = "".into();
    m.zs = "".into();
    let out = m.to_binary_agreed().unwrap();
    let back = agree::read::<ExactSlots>(&out).unwrap();
    assert_eq!(back, m);
}

#[test]
fn a_shorter_value_of_a_slot_without_padding_is_refused() {
    let m = agree::read::<ExactSlots>(&FILE).unwrap();
    let mut short = m.clone();
    short.name = "abc".into();
    let e = short.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("name") && e.contains("3 bytes"), "{e}");
    let mut short = m;
    short.data = vec![1, 2].into();
    let e = short.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("data"), "{e}");
}
