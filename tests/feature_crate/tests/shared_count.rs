//! `tests/feature_schemas/shared_count.ksy`: a count that several repetitions name is derived from the first of
//! them present (the last one declared may be absent), and the others present must agree with it; where every
//! one may be absent and all are, the model keeps the file's nonzero count.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::shared_count::SharedCount;

#[rustfmt::skip]
const INTS: [u8; 10] = [
    0x00, 0x02, 0x05, 0x00, 0x06, 0x00, // kind 0: two u16
    0x01, 0x09, 0x00,                   // one name at 9, no indices
    0x0a,
];

#[rustfmt::skip]
const BYTES_NAMES: [u8; 9] = [
    0x01, 0x01, 0x07,                   // kind 1: one byte
    0x03, 0x06, 0x00,                   // three names at 6, no indices
    0x0a, 0x0b, 0x0c,
];

#[test]
fn the_count_comes_from_the_repetition_that_is_there() {
    let m = agree::read::<SharedCount>(&INTS).unwrap();
    assert_eq!(
        (m.count, m.ints.as_deref(), m.bytes.as_deref()),
        (None, Some(&[5, 6][..]), None)
    );
    assert_eq!(m.to_binary_agreed().unwrap(), INTS);
    let mut m = agree::read::<SharedCount>(&BYTES_NAMES).unwrap();
    assert_eq!(
        (&m.bytes, &m.names, &m.indices),
        (&Some(vec![7]), &vec![10, 11, 12], &None)
    );
    assert_eq!(m.to_binary_agreed().unwrap(), BYTES_NAMES);
    // One name less, and no indices: the count follows the names.
    m.names.pop();
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(out, [0x01, 0x01, 0x07, 0x02, 0x06, 0x00, 0x0a, 0x0b]);
    // Indices too, as many as the names: both are written, and counted once.
    m.indices = Some(vec![1, 0]);
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(&out[3..], &[0x02, 0x06, 0x08, 0x0a, 0x0b, 0x01, 0x00]);
    // One more byte: its count follows.
    m.bytes.as_mut().unwrap().push(8);
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(&out[..4], &[0x01, 0x02, 0x07, 0x08]);
}

/// Neither `ints` nor `bytes` (kind 2), and a count of 3: kept, not lost; 0 is what the writer derives, and is
/// not kept.
#[test]
fn a_count_of_repetitions_that_are_all_absent_is_kept() {
    let file = [0x02, 0x03, 0x00, 0x05, 0x00];
    let mut m = agree::read::<SharedCount>(&file).unwrap();
    assert_eq!((m.count, &m.ints, &m.bytes), (Some(3), &None, &None));
    assert_eq!(m.to_binary_agreed().unwrap(), file);
    let zero = [0x02, 0x00, 0x00, 0x05, 0x00];
    assert_eq!(agree::read::<SharedCount>(&zero).unwrap().count, None);
    // The user's override wins over a present repetition too (and must then agree with it).
    m.kind = 1;
    m.bytes = Some(vec![1, 2, 3]);
    assert_eq!(&m.to_binary_agreed().unwrap()[..5], &[0x01, 0x03, 1, 2, 3]);
}

#[test]
fn repetitions_that_disagree_with_their_count_are_refused() {
    let mut m = agree::read::<SharedCount>(&BYTES_NAMES).unwrap();
    m.indices = Some(vec![1]);
    let e = m.to_binary_agreed().unwrap_err().to_string();
    // (The count is the first present array's, the indices': the names disagree with it.)
    assert!(
        e.contains("names: 3 elements, but the count `pair_count` is 1"),
        "{e}"
    );
    let mut m = agree::read::<SharedCount>(&BYTES_NAMES).unwrap();
    m.count = Some(1);
    m.bytes.as_mut().unwrap().push(8);
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("2 elements, but the count `count` is 1"), "{e}");
}
