//! `tests/feature_schemas/tail_placed.ksy`: a region to the end of the file, in a file with an instance written
//! where the file had it. A hand-made file decoded, written back byte for byte, and edited: a longer name grows
//! into the zeros before the placed footer.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::tail_placed::TailPlaced;

/// The name "ab" at 6, zeros, the footer at 0x10.
#[rustfmt::skip]
const FILE: [u8; 20] = [
    b'T', b'A', b'I', b'L',
    0x06, 0x10,
    b'a', b'b', 0x00,
    0, 0, 0, 0, 0, 0, 0,
    b'F', b'O', b'O', b'T',
];

#[test]
fn the_file_writes_back() {
    let m = agree::read::<TailPlaced>(&FILE).unwrap();
    assert_eq!(&*m.header.name, "ab");
    assert_eq!(&m.header.footer[..], b"FOOT");
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn a_longer_name_grows_into_the_room_before_the_placed_footer() {
    let mut m = agree::read::<TailPlaced>(&FILE).unwrap();
    m.header.name = "abcdefgh".into();
    let out = m.to_binary_agreed().unwrap();
    #[rustfmt::skip]
    assert_eq!(out, [
        b'T', b'A', b'I', b'L', 0x06, 0x10,
        b'a', b'b', b'c', b'd', b'e', b'f', b'g', b'h', 0x00,
        0,
        b'F', b'O', b'O', b'T',
    ]);
    assert_eq!(agree::read::<TailPlaced>(&out).unwrap(), m);
}
