//! `tests/feature_schemas/len_of_instance.ksy`: `x._len`, the bytes an instance takes, as reading found it and as
//! the writer wrote it: a size derived from it follows an edited record, and a file that disagrees keeps its value.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::len_of_instance::LenOfInstance;

#[rustfmt::skip]
const FILE: [u8; 18] = [
    12, 0, 0, 0,        // table_ofs
    6, 0, 0, 0,         // table_size
    7, 0, 0, 0,         // tag, and 3 bytes nothing reads
    2, b'a', b'b', 0, b'c', 0, // the table: two names
];

#[test]
fn a_size_follows_the_record() {
    let m = agree::read::<LenOfInstance>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(m.table.names, ["ab", "c"]);
    assert_eq!(m.table_size, None);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);

    // A longer name: the size follows it.
    let mut edited = m.clone();
    edited.table.names[0] = "abcdef".into();
    let out = edited.to_binary_agreed().unwrap();
    assert_eq!(&out[4..8], &[10, 0, 0, 0]);
    assert_eq!(&out[12..], b"\x02abcdef\0c\0");
}

#[test]
fn a_file_that_disagrees_keeps_its_size() {
    let mut file = FILE;
    file[4] = 9;
    let m = agree::read::<LenOfInstance>(&file).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(m.table_size, Some(9));
    assert_eq!(m.to_binary_agreed().unwrap(), file);
}
