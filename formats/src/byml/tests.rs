//! Unit tests of the binary reader and writer on hand-made trees and bytes. Files from independent writers are
//! tested in `tests/tests/byml.rs`.

use super::*;

fn map(entries: &[(&str, Byml)]) -> Map {
    entries.iter().map(|(k, v)| (*k, v.clone())).collect()
}

fn every_scalar() -> Byml {
    Byml::Map(map(&[
        ("bool", Byml::Bool(true)),
        ("s32", Byml::I32(-5)),
        ("u32", Byml::U32(0xdead_beef)),
        ("f32", Byml::F32(-0.0)),
        ("s64", Byml::I64(-1 << 40)),
        ("u64", Byml::U64(u64::MAX)),
        ("f64", Byml::F64(f64::NAN)),
        ("null", Byml::Null),
        ("string", Byml::String("ヨッシー".into())),
        ("empty", Byml::String(Default::default())),
        ("binary", Byml::Binary(vec![1, 2, 3])),
        (
            "array",
            Byml::Array(vec![Byml::I32(1), Byml::Array(vec![])]),
        ),
        ("dict", Byml::Map(Map::default())),
    ]))
}

fn roundtrip(doc: &Document) -> Vec<u8> {
    let bytes = doc.to_binary().unwrap();
    let back = Document::from_binary(&bytes).unwrap();
    assert_eq!(back.root, doc.root, "tree differs after a round trip");
    assert_eq!((back.version, back.endian), (doc.version, doc.endian));
    assert_eq!(back.to_binary().unwrap(), bytes, "second write differs");
    bytes
}

#[test]
fn every_scalar_every_version_both_orders() {
    for version in 1..=10 {
        for endian in [Endian::Little, Endian::Big] {
            let doc = Document {
                version,
                endian,
                root: every_scalar(),
                layout: None,
            };
            let bytes = roundtrip(&doc);
            assert_eq!(
                &bytes[..2],
                if endian == Endian::Little {
                    b"YB"
                } else {
                    b"BY"
                }
            );
        }
    }
}

#[test]
fn version_7_containers() {
    let hash = HashArray {
        width: 2,
        remap: true,
        entries: vec![
            (vec![9, 1], Byml::String("late".into())),
            (vec![1, 7], Byml::Array(vec![Byml::U64(3)])),
            (vec![5, 0], Byml::I32(2)),
        ],
    };
    let root = Byml::Map(map(&[
        (
            "mono",
            Byml::MonoArray(vec![Byml::F32(1.0), Byml::F32(2.5)]),
        ),
        ("mono64", Byml::MonoArray(vec![Byml::U64(1), Byml::U64(1)])),
        ("empty mono", Byml::MonoArray(vec![])),
        (
            "remap",
            Byml::RemapMap(map(&[
                ("z", Byml::I32(1)),
                ("a", Byml::I32(2)),
                ("m", Byml::Null),
            ])),
        ),
        ("hash", Byml::HashArray(hash.clone())),
        (
            "plain hash",
            Byml::HashArray(HashArray {
                remap: false,
                width: 1,
                entries: vec![(vec![1], Byml::Bool(false)), (vec![2], Byml::Bool(true))],
            }),
        ),
        ("aligned", Byml::AlignedBinary(vec![7; 5], 0x20)),
    ]));
    for endian in [Endian::Little, Endian::Big] {
        let doc = Document {
            version: 7,
            endian,
            root: root.clone(),
            layout: None,
        };
        let bytes = roundtrip(&doc);
        // The aligned binary's data starts at a multiple of its alignment.
        let back = Document::from_binary(&bytes).unwrap();
        assert_eq!(back.root["aligned"], Byml::AlignedBinary(vec![7; 5], 0x20));
        let pos = bytes.windows(5).position(|w| w == [7; 5]).unwrap();
        assert_eq!(pos % 0x20, 0);
    }
    // The remap map keeps its order of insertion (z, a, m) while its pairs are sorted by key.
    let doc = Document {
        version: 7,
        endian: Endian::Little,
        root: root.clone(),
        layout: None,
    };
    let back = Document::from_binary(&doc.to_binary().unwrap()).unwrap();
    let keys: Vec<&str> = back.root["remap"]
        .as_map()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(keys, ["z", "a", "m"]);
    assert_eq!(back.root["hash"].as_hash_array().unwrap(), &hash);
}

#[test]
fn version_7_types_need_version_7() {
    let doc = Document {
        version: 4,
        endian: Endian::Little,
        root: Byml::Array(vec![Byml::MonoArray(vec![])]),
        layout: None,
    };
    let e = doc.to_binary().unwrap_err().to_string();
    assert!(e.contains("mono-typed array needs version 7"), "{e}");
}

#[test]
fn version_10_scalar_root() {
    for root in [
        Byml::I32(-3),
        Byml::String("only".into()),
        Byml::U64(1 << 60),
        Byml::Binary(vec![0; 3]),
    ] {
        let doc = Document {
            version: 10,
            endian: Endian::Big,
            root: root.clone(),
            layout: None,
        };
        roundtrip(&doc);
        let old = Document { version: 9, ..doc };
        let e = old.to_binary().unwrap_err().to_string();
        assert!(
            e.contains("byml.root: the root of a version 9 file must be"),
            "{e}"
        );
    }
}

#[test]
fn no_root_is_a_bare_header() {
    let doc = Document {
        version: 3,
        endian: Endian::Little,
        root: Byml::Null,
        layout: None,
    };
    assert_eq!(
        doc.to_binary().unwrap(),
        b"YB\x03\0\0\0\0\0\0\0\0\0\0\0\0\0"
    );
    roundtrip(&doc);
}

#[test]
fn shared_and_unshared_layouts() {
    let sub = Byml::Array(vec![Byml::I32(1), Byml::I32(2)]);
    let root = Byml::Map(map(&[
        ("a", sub.clone()),
        ("b", sub.clone()),
        ("x", Byml::U64(7)),
        ("y", Byml::U64(7)),
    ]));
    let mut sizes = Vec::new();
    for (share, values) in [
        (true, ValuePlacement::Inline),
        (false, ValuePlacement::Inline),
        (false, ValuePlacement::BeforeRoot),
        (false, ValuePlacement::AfterContainers),
        (true, ValuePlacement::BeforeRoot),
        (true, ValuePlacement::AfterContainers),
    ] {
        let layout = Layout { share, values };
        let doc = Document {
            version: 2,
            endian: Endian::Little,
            root: root.clone(),
            layout: Some(layout),
        };
        let bytes = roundtrip(&doc);
        // Reading infers the sharing back (this tree has equal containers and values, so it is observable). Where
        // the values go may be ambiguous (here, inline and after-containers give the same bytes); `roundtrip`
        // checked that the inferred choice writes the same bytes.
        let back = Document::from_binary(&bytes).unwrap();
        assert_eq!(back.effective_layout().share, share, "layout {layout:?}");
        if values == ValuePlacement::BeforeRoot {
            assert_eq!(back.effective_layout().values, values);
        }
        sizes.push((share, bytes.len()));
    }
    // Sharing writes the sub-array and the u64 once.
    assert!(sizes[0].1 + 12 + 8 <= sizes[1].1, "{sizes:?}");
}

#[test]
fn map_order_is_placement_order() {
    // Containers placed in the map's order (not key order), as Nintendo's version 7 files do.
    let root = Byml::Map(map(&[
        ("zeta", Byml::Array(vec![Byml::I32(1)])),
        ("alpha", Byml::Array(vec![Byml::I32(2)])),
        ("mid", Byml::I32(0)),
    ]));
    let doc = Document {
        version: 7,
        endian: Endian::Little,
        root,
        layout: None,
    };
    let back = Document::from_binary(&roundtrip(&doc)).unwrap();
    // Where the inline value sits among them is not recorded anywhere (and changes no byte).
    let keys: Vec<&str> = back
        .root
        .as_map()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .filter(|k| *k != "mid")
        .collect();
    assert_eq!(keys, ["zeta", "alpha"]);
}

#[test]
fn map_order_with_values_after_the_containers() {
    // Two containers placed against key order and two 64-bit values, with the values in a block after all the
    // containers (as in Vss_Kaisou04.bcett). Each class keeps its own order and its own places among the keys:
    // reading the block as if values and containers were placed together would give c, a, b, d. (The map is
    // used twice, so that no inline placement could give the same bytes: the first copy's values come after the
    // second copy's containers.)
    let inner = Byml::Map(map(&[
        ("c", Byml::Array(vec![Byml::I32(2)])),
        ("b", Byml::U64(1 << 40)),
        ("a", Byml::Array(vec![Byml::I32(1)])),
        ("d", Byml::I64(-1)),
    ]));
    let doc = Document {
        version: 7,
        endian: Endian::Little,
        root: Byml::Array(vec![Byml::Map(map(&[("x", inner.clone())])), inner]),
        layout: Some(Layout {
            share: false,
            values: ValuePlacement::AfterContainers,
        }),
    };
    let back = Document::from_binary(&roundtrip(&doc)).unwrap();
    assert_eq!(back.layout, doc.layout);
    for m in [&back.root[0]["x"], &back.root[1]] {
        let keys: Vec<&str> = m.as_map().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(keys, ["c", "b", "a", "d"]);
    }
}

#[test]
fn access_and_edits() {
    let mut doc = Document::new(every_scalar());
    assert_eq!(doc.root["u32"].as_u32(), Some(0xdead_beef));
    assert_eq!(doc.root["array"][0].as_i32(), Some(1));
    assert!(doc.root["missing"][3].is_null());
    doc.root["array"][0] = Byml::U64(9);
    doc.root["new"] = Byml::from("text");
    doc.root.as_map_mut().unwrap().shift_remove("dict");
    let back = Document::from_binary(&doc.to_binary().unwrap()).unwrap();
    assert_eq!(back.root["array"][0], Byml::U64(9));
    assert_eq!(back.root["new"].as_str(), Some("text"));
    assert!(back.root.get("dict").is_none());
    assert_eq!(back.root.count_nodes(), doc.root.count_nodes());
}

fn le_file(body: &[u32], root: u32) -> Vec<u8> {
    let mut v = b"YB\x02\0".to_vec();
    for w in [0, 0, root] {
        v.extend_from_slice(&u32::to_le_bytes(w));
    }
    for w in body {
        v.extend_from_slice(&w.to_le_bytes());
    }
    v
}

#[test]
fn bad_input_errors_name_path_and_offset() {
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            b"YB".to_vec(),
            "byml.header: a BYML file starts with a 16-byte header",
        ),
        (b"XX\x02\0".to_vec(), "byml.magic: expected the magic"),
        (le_file(&[], 0x40), "byml.root: offset 0x40 is past the end"),
        // An array of 0xffffff elements in a 24-byte file.
        (
            le_file(&[0xffff_ffc0], 0x10),
            "byml.root: 16777215 array elements need",
        ),
        // An array whose element 0 is the array itself.
        (
            le_file(&[0x1c0, 0xc0, 0x10], 0x10),
            "byml.root[0]: offset cycle: the container at 0x10 contains itself",
        ),
        // A string index with no string table.
        (
            le_file(&[0x1c0, 0xa0, 0], 0x10),
            "byml.root[0]: string index 0 is past the end of the string table (0 strings)",
        ),
        (
            le_file(&[0x1c0, 0x77, 0], 0x10),
            "byml.root[0]: unknown node type 0x77",
        ),
    ];
    for (bytes, want) in cases {
        let e = Document::from_binary(&bytes).unwrap_err().to_string();
        assert!(e.starts_with(want), "got {e:?}, want {want:?}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    // 10,000 arrays, each holding the next.
    let n = 10_000u32;
    let mut body = Vec::new();
    for i in 0..n {
        let at = 0x10 + 12 * i;
        body.extend([0x1c0, 0xc0, at + 12]);
    }
    body.extend([0xc0, 0, 0]);
    let e = Document::from_binary(&le_file(&body, 0x10))
        .unwrap_err()
        .to_string();
    assert!(e.contains("containers nest deeper than 64"), "{e}");
    assert!(e.starts_with("byml.root[0][0][0]"), "{e}");
}

#[test]
fn shared_containers_cannot_explode() {
    // 40 levels of arrays whose two elements are the same next level: 2^40 nodes if expanded.
    let mut body = Vec::new();
    for i in 0..40u32 {
        let at = 0x10 + 16 * i;
        body.extend([0x2c0, 0xc0c0, at + 16, at + 16]);
    }
    body.extend([0xc0, 0, 0, 0]);
    let e = Document::from_binary(&le_file(&body, 0x10))
        .unwrap_err()
        .to_string();
    assert!(e.contains("the tree expands to more than"), "{e}");
}

/// A string or key with a NUL character would be cut at it in the file (issue 19: `"a\0b"` came back as `"a"`, and
/// keys `"a\0x"` and `"a\0y"` made a file that did not decode): the writer refuses it, naming its path.
#[test]
fn strings_and_keys_with_a_nul_are_refused_with_their_path() {
    let cases = [
        (
            Byml::Array(vec![Byml::I32(1), Byml::String("a\0b".into())]),
            "byml.root[1]: the string \"a\\0b\" holds a NUL character",
        ),
        (
            Byml::Map(map(&[("a\0x", Byml::I32(1)), ("a\0y", Byml::I32(2))])),
            "byml.root[\"a\\0x\"]: the key \"a\\0x\" holds a NUL character",
        ),
        (
            Byml::Map(map(&[(
                "list",
                Byml::Array(vec![Byml::Map(map(&[("name", Byml::String("\0".into()))]))]),
            )])),
            "byml.root[\"list\"][0][\"name\"]: the string \"\\0\" holds",
        ),
    ];
    for (root, want) in cases {
        let e = Document::new(root).to_binary().unwrap_err().to_string();
        assert!(e.starts_with(want), "{e}");
    }
}

#[test]
fn a_key_that_repeats_is_an_error() {
    let doc = Document::new(Byml::Map(map(&[("a", Byml::I32(1)), ("b", Byml::I32(2))])));
    let good = doc.to_binary().unwrap();
    // Key table: at its offset, 0xc2 header, 3 offsets, then "a\0b\0".
    let keys = u32::from_le_bytes(good[4..8].try_into().unwrap()) as usize;
    let root = u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    // The same key index twice: the pairs' key indices no longer ascend.
    let mut same_index = good.clone();
    same_index[root + 12] = 0;
    // Two key indices whose keys are equal: the key table is not sorted without repeats.
    let mut same_text = good.clone();
    let b = keys + 16 + 2;
    assert_eq!(same_text[b], b'b');
    same_text[b] = b'a';
    for bytes in [same_index, same_text] {
        let e = Document::from_binary(&bytes).unwrap_err().to_string();
        assert!(e.contains(r#"the key "a" appears twice"#), "{e}");
    }
}

#[test]
fn a_nan_is_never_shared() {
    // oead compares floats with `==`: a NaN equals nothing, so neither a NaN f64 nor a container that holds a NaN
    // is written once for two uses. Other equal values are.
    let doc = |x: f32, y: f64| {
        Document::new(Byml::Map(map(&[
            ("a", Byml::Array(vec![Byml::F32(x)])),
            ("b", Byml::Array(vec![Byml::F32(x)])),
            ("c", Byml::F64(y)),
            ("d", Byml::F64(y)),
        ])))
    };
    let plain = doc(1.0, 1.0).to_binary().unwrap();
    let nan = doc(f32::NAN, f64::NAN).to_binary().unwrap();
    // One more array (header, one type byte padded to 4, one value) and one more f64.
    assert_eq!(nan.len(), plain.len() + 12 + 8);
    assert_eq!(
        Document::from_binary(&nan).unwrap().to_binary().unwrap(),
        nan
    );
}

#[test]
fn after_containers_that_may_read_as_inline() {
    let values = |v: u64| Byml::Map(map(&[("x", Byml::I32(1)), ("e", Byml::U64(v))]));
    let empty = || Byml::Map(map(&[]));
    // (tree, share, whether the walk may answer "reads back as inline")
    let cases = [
        // Only the root holds values: nothing can come after them.
        (Byml::Map(map(&[("e", Byml::U64(1))])), false, true),
        // One container, after which come its values.
        (Byml::Map(map(&[("a", values(1))])), false, true),
        // Two equal containers (the fuzz finding): shared, the second is no new container after the values.
        (
            Byml::Map(map(&[("a", values(1)), ("b", values(1))])),
            true,
            true,
        ),
        // Not shared, the second is a new container after the first one's values.
        (
            Byml::Map(map(&[("a", values(1)), ("b", values(1))])),
            false,
            false,
        ),
        // Unequal: new either way.
        (
            Byml::Map(map(&[("a", values(1)), ("b", values(2))])),
            true,
            false,
        ),
        // A dictionary's containers are read before its values, so the empty one comes before the root's value.
        (
            Byml::Map(map(&[("e", Byml::U64(1)), ("z", empty())])),
            false,
            true,
        ),
        // In an array the reader keeps the order (value first), which the walk does not model: it says "may".
        (Byml::Array(vec![Byml::U64(1), empty()]), false, true),
        // A container after values that are deeper in an earlier sibling.
        (
            Byml::Array(vec![Byml::Array(vec![values(1)]), empty()]),
            false,
            false,
        ),
    ];
    for (i, (root, share, may)) in cases.into_iter().enumerate() {
        assert_eq!(
            super::write::after_containers_may_read_as_inline(&root, share),
            may,
            "case {i}"
        );
        // Whatever the walk says, a document read back is read as what it writes: reading it again gives the
        // same layout and tree.
        let doc = Document {
            version: 2,
            endian: Endian::Little,
            root,
            layout: Some(Layout {
                share,
                values: ValuePlacement::AfterContainers,
            }),
        };
        let back = Document::from_binary(&doc.to_binary().unwrap()).unwrap();
        let again = Document::from_binary(&back.to_binary().unwrap()).unwrap();
        assert_eq!(again.layout, back.layout, "case {i}");
        assert_eq!(again.root, back.root, "case {i}");
        if !may {
            assert_eq!(
                back.effective_layout().values,
                ValuePlacement::AfterContainers,
                "case {i}"
            );
        }
    }
}
