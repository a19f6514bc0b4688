//! `tests/feature_schemas/ordered_ranges.ksy`: ranges of a shared table whose order in the file is a layout choice
//! (`keep-order`). Hand-made files decoded, written back byte for byte, and edited.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::ordered_ranges::OrderedRanges;

/// Three groups: the first has two values at index 1, the second none (base 0), the third one at index 0: the
/// third group's range comes first in the table.
#[rustfmt::skip]
const FILE: [u8; 18] = [
    b'O', b'R', b'D', b'R',
    0x03,
    0x01, 0x02, // group 0: two values at 1
    0x00, 0x00, // group 1: none, at 0
    0x00, 0x01, // group 2: one value at 0
    0x03,
    0x09, 0x00, 0x01, 0x00, 0x02, 0x00,
];

#[test]
fn ranges_out_of_group_order_keep_their_order() {
    let m = agree::read::<OrderedRanges>(&FILE).unwrap();
    assert_eq!(m.groups[0].members, [1, 2]);
    assert!(m.groups[1].members.is_empty());
    assert_eq!(m.groups[2].members, [9]);
    // Non-empty ranges in the file: group 2's (the second met), then group 0's (the first met).
    assert_eq!(m.values_item_order, Some(vec![1, 0]));
    // The empty range is not where the range before it (group 0's) ends: its base is kept.
    assert_eq!(
        m.groups.iter().map(|g| g.base).collect::<Vec<_>>(),
        [None, Some(0), None]
    );
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn without_a_kept_order_ranges_go_in_group_order() {
    let mut m = agree::read::<OrderedRanges>(&FILE).unwrap();
    m.values_item_order = None;
    let out = m.to_binary_agreed().unwrap();
    #[rustfmt::skip]
    assert_eq!(out, [
        b'O', b'R', b'D', b'R', 0x03,
        0x00, 0x02, // group 0 first
        0x00, 0x00, // group 1 empty, its base kept
        0x02, 0x01,
        0x03, 0x01, 0x00, 0x02, 0x00, 0x09, 0x00,
    ]);
    assert_eq!(agree::read::<OrderedRanges>(&out).unwrap(), m);
}

#[test]
fn an_order_that_does_not_name_each_range_once_is_refused() {
    let mut m = agree::read::<OrderedRanges>(&FILE).unwrap();
    m.values_item_order = Some(vec![1, 1]);
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("values_item_order"), "{e}");
}

/// An empty range where the range before it ends is derived; written in a kept order, it follows that range.
#[test]
fn an_empty_range_follows_the_range_before_it() {
    #[rustfmt::skip]
    let file = [
        b'O', b'R', b'D', b'R', 0x03,
        0x01, 0x02, // group 0: two values at 1
        0x03, 0x00, // group 1: none, where group 0's end
        0x00, 0x01, // group 2: one value at 0
        0x03, 0x09, 0x00, 0x01, 0x00, 0x02, 0x00,
    ];
    let m = agree::read::<OrderedRanges>(&file).unwrap();
    assert!(m.groups.iter().all(|g| g.base.is_none()));
    assert_eq!(m.values_item_order, Some(vec![1, 0]));
    assert_eq!(m.to_binary_agreed().unwrap(), file);
}
