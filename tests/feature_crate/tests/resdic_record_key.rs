//! `tests/feature_schemas/resdic_record_key.ksy`: a dictionary whose keys are a field of a record each node
//! points to. A file made from the runtime's builder (checked against every dictionary of the shared corpus in
//! `tests/tests/nn_util.rs`) reads with nothing but its keys in the model and writes back byte for byte; a node
//! without a key derives nothing, and a model that takes a key away without giving the values is refused.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::resdic_record_key::ResdicRecordKey;
use binspec_runtime::layout::resdic;
use binspec_runtime::Format as _;

/// A file with keys `a` and `b` (and the root's empty key), its nodes' values as `build` makes them, unless
/// `values` gives them.
fn file(values: Option<Vec<resdic::Node>>, second_key: bool) -> Vec<u8> {
    let nodes = values.unwrap_or_else(|| resdic::build(&["a", "b"]).unwrap());
    let mut out = b"RDK1".to_vec();
    out.extend_from_slice(&2i32.to_le_bytes());
    let names = 8 + 3 * 12;
    let key_ofs = [names, names + 1, if second_key { names + 3 } else { 0 }];
    for (n, k) in nodes.iter().zip(key_ofs) {
        out.extend_from_slice(&n.ref_bit.to_le_bytes());
        out.extend_from_slice(&n.left.to_le_bytes());
        out.extend_from_slice(&n.right.to_le_bytes());
        out.extend_from_slice(&(k as u32).to_le_bytes());
    }
    out.extend_from_slice(&[0, 1, b'a']);
    if second_key {
        out.extend_from_slice(&[1, b'b']);
    }
    out
}

#[test]
fn the_nodes_values_are_derived_from_the_records_keys() {
    let f = file(None, true);
    let m = agree::read::<ResdicRecordKey>(&f).unwrap();
    assert!(m
        .nodes
        .iter()
        .all(|n| n.ref_bit.is_none() && n.left.is_none() && n.right.is_none()));
    let keys: Vec<&str> = m
        .nodes
        .iter()
        .map(|n| &*n.key.as_ref().unwrap().text)
        .collect();
    assert_eq!(keys, ["", "a", "b"]);
    assert_eq!(m.to_binary_agreed().unwrap(), f);
    // A key renamed: the values follow it.
    let mut m = m;
    m.nodes[2].key.as_mut().unwrap().text = "c".into();
    let out = m.to_binary_agreed().unwrap();
    let built = resdic::build(&["a", "c"]).unwrap();
    assert_eq!(&out[8 + 24..8 + 24 + 4], &built[2].ref_bit.to_le_bytes());
}

#[test]
fn a_node_without_a_key_derives_nothing() {
    // The second node has no key (a null offset): the file's values are kept, whatever they are.
    let odd = vec![
        resdic::Node {
            ref_bit: 7,
            left: 1,
            right: 0,
        },
        resdic::Node {
            ref_bit: 0,
            left: 0,
            right: 1,
        },
        resdic::Node {
            ref_bit: 1,
            left: 2,
            right: 2,
        },
    ];
    let f = file(Some(odd), false);
    let m = agree::read::<ResdicRecordKey>(&f).unwrap();
    assert!(m.nodes[2].key.is_none());
    assert_eq!(m.nodes[0].ref_bit, Some(7));
    assert_eq!(m.to_binary_agreed().unwrap(), f);
}

#[test]
fn a_key_taken_away_without_the_values_is_refused() {
    let mut m = agree::read::<ResdicRecordKey>(&file(None, true)).unwrap();
    m.nodes[2].key = None;
    let e = m.to_binary().unwrap_err().to_string();
    assert!(e.contains("a dictionary node has no key"), "{e}");
}
