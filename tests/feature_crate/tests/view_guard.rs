//! `tests/feature_schemas/view_guard.ksy`: a pool item guarded by what only reading sees (`-view`), so that the
//! writer leaves the guard unchecked: the name there gets a derived offset, an offset at no string is kept.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::view_guard::ViewGuard;

#[rustfmt::skip]
const FILE: [u8; 11] = [
    2,                // count
    7,                // entry 0's name: at 7
    1,                // entry 1's: at 1, entry 0's offset (7), whose "string" ends in 'b', not 0: no name
    4,                // the note: at 4 (its first byte, 1, is below 0x80: read)
    1, b'n', 0,       // the strings: the note "n" (the root's own item, first), then
    2, b'a', b'b', 0, // "ab"
];

#[test]
fn a_guard_only_reading_sees_is_not_checked_when_writing() {
    let m = agree::read::<ViewGuard>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    let names: Vec<Option<&str>> = m
        .entries
        .iter()
        .map(|e| e.name.as_ref().map(|n| &*n.text))
        .collect();
    assert_eq!(names, [Some("ab"), None]);
    assert_eq!(m.note.as_ref().map(|n| &*n.text), Some("n"));
    // The offset is kept where the name is absent, derived where it is there.
    let kept: Vec<Option<u8>> = m.entries.iter().map(|e| e.name_ofs).collect();
    assert_eq!(kept, [None, Some(1)]);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);

    // A longer name: the strings grow, the kept offset stays, and the second entry still has no name.
    let mut edited = m.clone();
    if let Some(n) = edited.entries[0].name.as_mut() {
        n.text = "abcd".into();
    }
    let out = edited.to_binary_agreed().unwrap();
    assert_eq!(out, [2, 7, 1, 4, 1, b'n', 0, 4, b'a', b'b', b'c', b'd', 0]);
    assert_eq!(agree::read::<ViewGuard>(&out).unwrap(), edited);
}
