//! `tests/feature_schemas/parent_later.ksy`: an instance whose type names a later instance of its parent reads it
//! first (the generated reader compiles, and agrees with the interpreter).

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::parent_later::ParentLater;

#[test]
fn the_parents_later_instance_is_read_first() {
    // firsts at 2 (idx 0), seconds at 3: [1, 2]; `more` is `picked` = 1 byte at 0.
    let file = [0x02, 0x03, 0x00, 0x01, 0x02];
    let m = agree::read::<ParentLater>(&file).unwrap();
    assert_eq!(m.seconds, vec![1, 2]);
    assert_eq!(m.firsts.idx, 0);
    assert_eq!(m.firsts.more, vec![0x02]);
    assert_eq!(m.to_binary_agreed().unwrap(), file);
}
