//! `tests/feature_schemas/imported_root_io.ksy`: in an imported schema's types, `_root._io` is the stream of that
//! schema's top-level record; an absent optional string has no filler.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::imported_root_io::ImportedRootIo;

#[rustfmt::skip]
const FILE: [u8; 9] = [
    3, 6,       // the object: at 3, 6 bytes
    0,          // no name
    4, 2,       // the object's data: at 4 in the object, 2 bytes
    0, 0,       // (the object's slot, padded)
    b'h', b'i', // the data, at 3 + 4
];

#[test]
fn an_imported_records_root_stream_is_its_own() {
    let m = agree::read::<ImportedRootIo>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    // (Read in the file's stream, the data would be the bytes at 4: 2, 0.)
    assert_eq!(&m.object.data[..], b"hi");
    assert_eq!((m.name.as_deref(), m.name_filler.as_deref()), (None, None));
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
    // Edited data is written in the object's slot, where its offset says.
    let mut m = m;
    m.object.data = b"yo".to_vec().into();
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(&out[7..], b"yo");
    assert_eq!(agree::read::<ImportedRootIo>(&out).unwrap(), m);
}

#[test]
fn data_that_leaves_its_records_slot_is_an_error() {
    // Three bytes at 4 end past the object's 6-byte slot.
    let mut m = agree::read::<ImportedRootIo>(&FILE).unwrap();
    m.object.data = b"xyz".to_vec().into();
    m.object.len_data = 3;
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(
        e.contains("object.data") && e.contains("would not read back"),
        "{e}"
    );
}
