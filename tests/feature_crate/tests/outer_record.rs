//! `tests/feature_schemas/outer_record.ksy`: a count named through a value instance that is a record of another
//! type (`_parent.chosen.x`). Read by both readers, written back; the count follows the chosen record.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::outer_record::OuterRecord;

const FILE: [u8; 5] = [1, 5, 2, 7, 8];

#[test]
fn the_chosen_records_field_counts() {
    let m = agree::read::<OuterRecord>(&FILE).unwrap();
    assert_eq!(m.child.y, [7, 8]);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn another_choice_counts_otherwise() {
    let m = agree::read::<OuterRecord>(&[0, 1, 2, 7]).unwrap();
    assert_eq!(m.child.y, [7]);
    assert!(agree::read::<OuterRecord>(&[0, 3, 2, 7]).is_err());
}
