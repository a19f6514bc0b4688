//! `tests/feature_schemas/given.ksy`: ranges whose base index and count are fields of a record inside the type that
//! holds the range (AINB's property entries). Hand-made files decoded, checked, written back byte for byte, and
//! edited to see what the writer derives.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::given::{Extra, Given, Node};

#[rustfmt::skip]
const FILE: [u8; 44] = [
    b'G', b'I', b'V', b'N',
    0x02,                   // node_count
    0x01,                   // extra_count
    0x18,                   // ints_ofs
    0x25,                   // shorts_ofs
    0x00, 0x00, 0x02, 0x00, 0x01, // node 0: ints at 0 (two), shorts at 0 (one)
    0x01, 0x02, 0x00, 0x01, 0x02, // node 1: no ints (based where the next range starts), shorts at 1 (two)
    0x00, 0x00, 0x02, 0x01, 0x03, 0x00, // extra 0 (flags 0): ints at 2 (one), no shorts (based at the end)
    0x03, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, // the int table
    0x03, 10, 0, 20, 0, 21, 0, // the short table
];

fn read(bytes: &[u8]) -> Given {
    agree::read::<Given>(bytes).unwrap_or_else(|e| panic!("decode: {e}"))
}

fn write(m: &Given) -> Vec<u8> {
    m.to_binary_agreed()
        .unwrap_or_else(|e| panic!("encode: {e}"))
}

#[test]
fn ranges_through_a_record_round_trip_with_every_base_and_count_derived() {
    let m = read(&FILE);
    let ints: Vec<&[u32]> = m.nodes.iter().map(|n| &n.int_values[..]).collect();
    assert_eq!(ints, [&[1, 2][..], &[]]);
    let shorts: Vec<&[u16]> = m.nodes.iter().map(|n| &n.short_values[..]).collect();
    assert_eq!(shorts, [&[10][..], &[20, 21]]);
    assert_eq!(m.extras[0].int_values, [3]);
    assert!(m.extras[0].short_values.is_empty());
    let entries = m
        .nodes
        .iter()
        .map(|n| &n.entries)
        .chain(m.extras.iter().map(|x| &x.entries));
    for e in entries {
        for r in [&e.ints, &e.shorts] {
            assert_eq!((r.base, r.count), (None, None), "derived, not kept: {e:?}");
        }
    }
    assert_eq!(write(&m), FILE);
    assert_eq!(read(&write(&m)), m);
}

#[test]
fn edited_values_move_the_bases_of_both_holders() {
    let mut m = read(&FILE);
    // One int more in node 0, one in node 1 and a new extra with a short: the bases after them move, in node 1
    // (after a field of one byte) and in the extras (after 12 bits, so two bytes), and the tables grow.
    m.nodes[0].int_values.push(9);
    m.nodes[1].int_values.push(7);
    m.extras.push(Extra {
        flags: 0x0102,
        short_values: vec![30],
        ..Extra::default()
    });
    let out = write(&m);
    #[rustfmt::skip]
    let want: Vec<u8> = vec![
        b'G', b'I', b'V', b'N', 0x02, 0x02, 0x1e, 0x33,
        0x00, 0x00, 0x03, 0x00, 0x01,
        0x01, 0x03, 0x01, 0x01, 0x02,
        0x00, 0x00, 0x04, 0x01, 0x03, 0x00,
        0x10, 0x20, 0x05, 0x00, 0x03, 0x01, // flags 0x102 in 12 bits (big-endian bit order), then 4 zero bits
        0x05, 1, 0, 0, 0, 2, 0, 0, 0, 9, 0, 0, 0, 7, 0, 0, 0, 3, 0, 0, 0,
        0x04, 10, 0, 20, 0, 21, 0, 30, 0,
    ];
    assert_eq!(out, want);
    let again = read(&out);
    assert_eq!(again.nodes[1].int_values, [7]);
    assert_eq!(again.extras[1].short_values, [30]);
    assert_eq!(again.extras[1].flags, 0x0102);
}

/// An empty range has no bytes, so its base can point anywhere: one elsewhere than where the writer would put it
/// is kept, as the file has it, until the range has values.
#[test]
fn an_empty_range_based_elsewhere_is_kept_until_it_has_values() {
    let mut bytes = FILE;
    bytes[14] = 0x00; // node 1: no ints, based at 0
    let mut m = read(&bytes);
    assert_eq!(m.nodes[1].entries.ints.base, Some(0));
    assert_eq!(m.nodes[0].entries.ints.base, None);
    assert_eq!(write(&m), bytes);
    m.nodes[1].int_values = vec![5];
    let out = write(&m);
    assert_eq!(&out[13..18], &[0x01, 0x02, 0x01, 0x01, 0x02]);
    assert_eq!(read(&out).nodes[1].entries.ints.base, None);
}

/// A count the model sets is an override, written as it is (as any derived field's): here one that disagrees
/// with the values, which the file then reads back with.
#[test]
fn a_count_override_is_written_as_it_is() {
    let mut m = read(&FILE);
    m.nodes[0].entries.shorts.count = Some(0);
    let out = write(&m);
    assert_eq!(out[12], 0x00);
    let again = read(&out);
    assert!(again.nodes[0].short_values.is_empty());
    // The new model holds no override: its count is what it holds.
    assert_eq!(again.nodes[0].entries.shorts.count, None);
}

/// A new model from nothing: every base and count comes from the values.
#[test]
fn a_new_model_is_laid_out_by_the_writer() {
    let m = Given {
        nodes: vec![
            Node {
                id: 4,
                int_values: vec![0xaabbccdd],
                short_values: vec![1, 2],
                ..Node::default()
            },
            Node {
                id: 5,
                short_values: vec![3],
                ..Node::default()
            },
        ],
        ..Given::default()
    };
    let out = write(&m);
    let again = read(&out);
    assert_eq!(again, m);
    // Node 1's shorts start after node 0's two.
    assert_eq!(&out[13..18], &[0x05, 0x01, 0x00, 0x02, 0x01]);
}
