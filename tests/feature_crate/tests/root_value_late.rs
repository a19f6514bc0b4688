//! `tests/feature_schemas/root_value_late.ksy`: a root value instance that reads the field being read, named in
//! that field's record, makes the generated reader read the record again once it has the value (it compiles, and
//! agrees with the interpreter).

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::root_value_late::{RootValueLate, RootValueLateBody};

#[test]
fn the_record_is_read_again_with_the_value() {
    // ver 1; lim 3, ptr 2: the item at 2 (2 < 3).
    let file = [0x01, 0x03, 0x02];
    let m = agree::read::<RootValueLate>(&file).unwrap();
    let Some(RootValueLateBody::BodyA(b)) = &m.body else {
        panic!("{m:?}")
    };
    assert_eq!((b.lim, b.ptr, b.item), (3, 2, Some(2)));
    assert_eq!(m.to_binary_agreed().unwrap(), file);
    // lim 2: the item is not there (2 < 2 is false).
    let file = [0x01, 0x02, 0x02];
    let m = agree::read::<RootValueLate>(&file).unwrap();
    let Some(RootValueLateBody::BodyA(b)) = &m.body else {
        panic!("{m:?}")
    };
    assert_eq!(b.item, None);
    assert_eq!(m.to_binary_agreed().unwrap(), file);
}
