//! `tests/feature_schemas/own_elements.ksy`: a variable-length integer whose groups are passed arguments computed
//! from the group before them (its params), as Kaitai's `vlq_base128_le` reads them. Hand-made files decoded,
//! written back byte for byte, and edited: the writer passes each group the arguments the reader did.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::own_elements::OwnElements;

/// 300 = 44 + 2 * 128: two groups, no marker, then the tail.
const SMALL: [u8; 3] = [0xac, 0x02, 0x07];
/// 2092 = 44 + 16 * 128: the second group's marker (the value is over 1000), then the tail of two bytes.
const LARGE: [u8; 5] = [0xac, 0x10, 0x55, 0x07, 0x08];

fn read(bytes: &[u8]) -> OwnElements {
    agree::read::<OwnElements>(bytes).unwrap_or_else(|e| panic!("decode: {e}"))
}

#[test]
fn groups_read_with_the_values_of_the_groups_before_them() {
    let small = read(&SMALL);
    let groups: Vec<(bool, u64, Option<u8>)> = small
        .groups
        .iter()
        .map(|g| (g.has_next, g.value, g.marker))
        .collect();
    assert_eq!(groups, [(true, 44, None), (false, 2, None)]);
    assert_eq!(&small.tail[..], [7]);
    assert_eq!(small.to_binary_agreed().unwrap(), SMALL);
    // The second group's marker is there because 44 (the first group's value, passed on) + 16 * 128 (its
    // multiplier, the first group's times 128) is over 1000.
    let large = read(&LARGE);
    assert_eq!(large.groups[1].marker, Some(0x55));
    assert_eq!(&large.tail[..], [7, 8]);
    assert_eq!(large.to_binary_agreed().unwrap(), LARGE);
}

#[test]
fn the_writer_passes_each_group_what_the_groups_before_it_give() {
    let mut m = read(&LARGE);
    // 44 + 2 * 128 = 300: the marker must go.
    m.groups[1].value = 2;
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("groups[1].marker"), "{e}");
    m.groups[1].marker = None;
    // The tail's size follows the whole value (from the last group's params, computed from the groups).
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("tail"), "{e}");
    m.tail = vec![7].into();
    assert_eq!(m.to_binary_agreed().unwrap(), SMALL);
    // The first group grows the whole value over 1000 with the second's multiplier: 127 + 8 * 128 = 1151.
    let mut m = read(&SMALL);
    m.groups[0].value = 127;
    m.groups[1].value = 8;
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("absent in the model"), "{e}");
    m.groups[1].marker = Some(1);
    m.tail = vec![7, 9].into();
    let bytes = m.to_binary_agreed().unwrap();
    assert_eq!(bytes, [0xff, 0x08, 0x01, 0x07, 0x09]);
    assert_eq!(read(&bytes), m);
}

#[test]
fn a_tenth_group_that_goes_on_is_refused() {
    // Ten groups that each say another follows: the tenth may not (its index, passed in, is 9).
    let mut bytes = vec![0x80u8; 10];
    bytes.extend([0x00, 0x07, 0x08]);
    let e = agree::read::<OwnElements>(&bytes).unwrap_err().to_string();
    assert!(e.contains("groups[9].has_next"), "{e}");
}
