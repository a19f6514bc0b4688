//! `tests/feature_schemas/given_relocate.ksy`: a relocated pointer in a record that each element of a repetition
//! holds, derived by the element (its name's offset): the relocation table lists every element's pointer, not
//! only one of them.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::given_relocate::{Entry, GivenRelocate, Info};

#[rustfmt::skip]
const FILE: [u8; 0x4e] = [
    b'G', b'R', b'E', b'L',
    0x42, 0, 0, 0,                                      // table_ofs
    3, 0, 0, 0,                                         // entry_count
    0x3c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, // 0x0c: entry 0 (its name's pointer, flags, value)
    0x3e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, // 0x1c: entry 1
    0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, // 0x2c: entry 2
    b'a', 0, b'b', 0, b'c', 0,                          // 0x3c: the names
    1, 0, 0, 0,                                         // 0x42: the table, one entry:
    0x0c, 0, 0, 0, 3, 0, 1, 1,                          // 3 pointers from 0x0c, one in every two
];

fn u32_at(d: &[u8], at: usize) -> usize {
    u32::from_le_bytes(d[at..at + 4].try_into().unwrap()) as usize
}

#[test]
fn every_elements_pointer_is_listed() {
    let m = agree::read::<GivenRelocate>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    let names: Vec<Option<&str>> = m.entries.iter().map(|e| e.name.as_deref()).collect();
    assert_eq!(names, [Some("a"), Some("b"), Some("c")]);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);

    // A fourth entry, after the others: its pointer at 0x3c joins the group (4 pointers from 0x0c).
    let mut edited = m.clone();
    edited.entries.push(Entry {
        info: Info {
            flags: 0,
            ..Info::default()
        },
        value: 4,
        name: Some("d".into()),
        ..Entry::default()
    });
    let out = edited.to_binary_agreed().unwrap();
    let table = u32_at(&out, 4);
    assert_eq!(
        &out[table..table + 12],
        &[1, 0, 0, 0, 0x0c, 0, 0, 0, 4, 0, 1, 1]
    );
    let back = agree::read::<GivenRelocate>(&out).unwrap();
    assert_eq!(back.entries[3].name.as_deref(), Some("d"));
}
