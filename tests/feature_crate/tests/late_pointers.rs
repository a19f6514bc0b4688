//! `tests/feature_schemas/late_pointers.ksy`: a relocation table read before a pointer it lists, which an
//! instance of a record holds. Both readers (the generated one and the interpreter, `agree::read`) judge the table
//! against that pointer too: its entries are derived, and the file is written back byte for byte.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::late_pointers::LatePointers;

#[rustfmt::skip]
const FILE: [u8; 0x3b] = [
    b'L', b'A', b'T', b'E',
    0x1b, 0, 0, 0,                      // table_ofs
    0x18, 0, 0, 0, 0, 0, 0, 0,          // name_ofs (pointer at 0x08)
    0x19, 0, 0, 0, 0, 0, 0, 0,          // holder.values: holder.value.ofs (pointer at 0x10)
    b'a', 0, 0,                         // 0x18: name, then the byte 0x19 points to, kept as a gap
    b'_', b'R', b'L', b'T', 1, 0, 0, 0, // 0x1b: the table, one section
    0, 0, 0, 0, 0x3b, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,       // [0, 0x3b): entry 0
    0x08, 0, 0, 0, 1, 0, 2, 0,          // 0x33: the pointers at 0x08 and 0x10
];

#[test]
fn a_pointer_read_after_the_table_is_listed() {
    let m = agree::read::<LatePointers>(&FILE).unwrap();
    assert_eq!(m.name, "a");
    assert_eq!(m.holder.value.ofs, 0x19);
    assert!(
        m.table.sections[0].entries.is_none(),
        "{:?}",
        m.table.sections
    );
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}
