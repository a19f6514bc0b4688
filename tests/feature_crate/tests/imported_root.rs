//! `tests/feature_schemas/imported_root.ksy`: an imported schema's `_root` is its own top-level type, not the
//! importer's (which has a field of the same name).

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::imported_root::ImportedRoot;

#[rustfmt::skip]
const FILE: [u8; 4] = [
    1,          // the importer's `big`
    0,          // the imported schema's `big`: its body's value is 2 bytes
    0xaa, 0xbb, // child.body.value
];

#[test]
fn an_imported_schema_reads_its_own_root() {
    let m = agree::read::<ImportedRoot>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!((m.big, m.child.big), (1, 0));
    assert_eq!(&m.child.body.value[..], [0xaa, 0xbb]);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
    // The importer's own `big` changes nothing in the child; the child's changes its body's size.
    let mut m = m;
    m.big = 0;
    assert_eq!(m.to_binary_agreed().unwrap(), [0, 0, 0xaa, 0xbb]);
    m.child.big = 1;
    m.child.body.value = vec![1, 2, 3, 4].into();
    let bytes = m.to_binary_agreed().unwrap();
    assert_eq!(bytes, [0, 1, 1, 2, 3, 4]);
    assert_eq!(agree::read::<ImportedRoot>(&bytes).unwrap(), m);
}
