//! `tests/feature_schemas/null_switch.ksy`: an unsized switch without `_` reads nothing for a tag no case names
//! (Kaitai's null: the model's field is absent), and writes nothing for it; `-no-case: error` keeps such a tag a
//! read error.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::null_switch::{NullSwitch, NullSwitchBody};

#[test]
fn a_tag_no_case_names_reads_nothing() {
    // Tag 2: a u2 body; strict tag 1: a u1.
    let file = [2, 0x34, 0x12, 1, 7];
    let m = agree::read::<NullSwitch>(&file).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(m.body, Some(NullSwitchBody::U2(0x1234)));
    assert_eq!(m.to_binary_agreed().unwrap(), file);
    // Tag 9: no case, no body; the strict tag follows at once.
    let file = [9, 1, 7];
    let m = agree::read::<NullSwitch>(&file).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(m.body, None);
    assert_eq!(m.to_binary_agreed().unwrap(), file);
    // The writer checks the tag against the body: a body under tag 9, or none under tag 1, is refused.
    let mut bad = m.clone();
    bad.body = Some(NullSwitchBody::U1(3));
    let e = bad.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("body"), "{e}");
    let mut bad = m;
    bad.tag = 1;
    let e = bad.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("body"), "{e}");
}

#[test]
fn no_case_error_is_a_read_error() {
    let e = agree::read::<NullSwitch>(&[9, 5, 7])
        .unwrap_err()
        .to_string();
    assert!(e.contains("strict") && e.contains("no case for 5"), "{e}");
}
