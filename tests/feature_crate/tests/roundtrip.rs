//! One small hand-made file per feature schema (`tests/feature_schemas/`): decoded with the generated reader, a few
//! values checked, written back with the generated writer and compared byte for byte. Some tests also edit the
//! model and check what the writer derives (counts, offsets, sizes, sort order, byte order).

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas as fs;
use binspec_runtime::{Bytes, Endian, Format};

/// `bytes` as hex, 16 to a line, for failure messages.
fn hex(bytes: &[u8]) -> String {
    bytes
        .chunks(16)
        .enumerate()
        .map(|(i, c)| {
            let line: Vec<String> = c.iter().map(|b| format!("{b:02x}")).collect();
            format!("{:04x}: {}", i * 16, line.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_bytes(got: &[u8], want: &[u8]) {
    assert!(
        got == want,
        "bytes differ\n got ({} bytes):\n{}\nwant ({} bytes):\n{}",
        got.len(),
        hex(got),
        want.len(),
        hex(want)
    );
}

/// Decodes `bytes`, writes the model back and checks that the bytes are the same, and that they decode to the same
/// model again.
fn round_trip<F: Format + PartialEq + std::fmt::Debug + serde::Serialize>(bytes: &[u8]) -> F {
    let m = F::from_binary(bytes).unwrap_or_else(|e| panic!("{}: decode: {e}", F::ID));
    agree::decoded(bytes, &m);
    let out = m.to_binary();
    agree::written(&m, &out);
    let out = out.unwrap_or_else(|e| panic!("{}: encode: {e}", F::ID));
    assert_bytes(&out, bytes);
    assert_eq!(F::from_binary(&out).unwrap(), m);
    m
}

/// Writes a model, then checks that the result decodes to the same model.
fn write<F: Format + PartialEq + std::fmt::Debug + serde::Serialize>(m: &F) -> Vec<u8> {
    let out = m.to_binary();
    agree::written(m, &out);
    let out = out.unwrap_or_else(|e| panic!("{}: encode: {e}", F::ID));
    let again = F::from_binary(&out).unwrap_or_else(|e| panic!("{}: decode: {e}", F::ID));
    assert_eq!(&again, m, "{}: written model reads back different", F::ID);
    out
}

#[test]
fn every_schema_has_a_module() {
    assert_eq!(fs::SCHEMAS, fs::MODULES, "lib.rs lists a module per schema");
}

#[test]
fn switch() {
    use fs::switch::{Point, Record, RecordValue, Switch, SwitchBody};
    #[rustfmt::skip]
    let bytes = [
        0x01,                   // kind: 1, a point
        0xfe, 0xff,             // point.x: -2
        0x2c, 0x01,             // point.y: 300
        0x03,                   // count: 3 records
        0x01, 0x7f,             // record 0: width 1, u1 0x7f
        0x02, 0x34, 0x12,       // record 1: width 2, u2 0x1234
        0x09, 0x05,             // record 2: width 9 (the default case, u1), 5
    ];
    let m: Switch = round_trip(&bytes);
    assert_eq!(m.body, SwitchBody::Point(Point { x: -2, y: 300 }));
    assert_eq!(m.records[0].value, RecordValue::U1(0x7f));
    assert_eq!(m.records[1].value, RecordValue::U2(0x1234));
    assert_eq!(m.records[2].value, RecordValue::U1(5));

    #[rustfmt::skip]
    let name = [
        0x02,                   // kind: 2, a name
        b'h', b'i', 0x00,       // name.text: "hi"
        0x00,                   // count: no records
    ];
    let m: Switch = round_trip(&name);
    assert!(matches!(&m.body, SwitchBody::Name(n) if &*n.text == "hi"));
    #[rustfmt::skip]
    let raw = [
        0x07,                   // kind: 7, not a case: the default, raw
        0xaa, 0xbb,             // raw.bytes
        0x00,                   // count: no records
    ];
    let mut m: Switch = round_trip(&raw);
    assert!(matches!(&m.body, SwitchBody::Raw(r) if r.bytes[..] == [0xaa, 0xbb]));

    // A record added to the model: the count follows.
    m.records.push(Record {
        width: 4,
        value: RecordValue::U4(0xdead_beef),
    });
    assert_bytes(
        &write(&m),
        &[0x07, 0xaa, 0xbb, 0x01, 0x04, 0xef, 0xbe, 0xad, 0xde],
    );
}

#[test]
fn pool() {
    use fs::pool::Pool;
    #[rustfmt::skip]
    let bytes = [
        b'P', b'O', b'O', b'L', // magic
        0x02, 0x00,             // count: 2 entries
        0x00, 0x00,             // reserved
        0x20, 0x00, 0x00, 0x00, // entry 0: name_ofs 0x20
        0x24, 0x00, 0x00, 0x00, //          data_ofs 0x24
        0x03, 0x00, 0x00, 0x00, //          data_size 3
        0x28, 0x00, 0x00, 0x00, // entry 1: name_ofs 0x28
        0x2c, 0x00, 0x00, 0x00, //          data_ofs 0x2c
        0x05, 0x00, 0x00, 0x00, //          data_size 5
        b'a', b'b', 0x00,       // 0x20: heap: entry 0's name "ab"
        0x00,                   //       padding to 4
        b'x', b'y', b'z',       // 0x24: entry 0's data
        0x00,                   //       padding to 4
        b'c', b'd', 0x00,       // 0x28: entry 1's name "cd"
        0x00,                   //       padding to 4
        b'h', b'e', b'l', b'l', b'o', // 0x2c: entry 1's data
    ];
    let mut m: Pool = round_trip(&bytes);
    assert_eq!(m.entries.len(), 2);
    assert_eq!(&*m.entries[1].name, "cd");
    assert_eq!(&m.entries[1].data[..], b"hello");
    // The heap starts at 0x20, which is aligned to 0x20.
    assert_eq!(m.heap_align, 0x20);

    // A longer name moves everything after it: offsets and sizes are derived.
    m.entries[0].name = "longer".into();
    m.entries[1].data = Bytes::from_static(b"hi");
    #[rustfmt::skip]
    let want = [
        b'P', b'O', b'O', b'L', 0x02, 0x00, 0x00, 0x00,
        0x20, 0x00, 0x00, 0x00, // entry 0: name at 0x20
        0x28, 0x00, 0x00, 0x00, //          data at 0x28 ("longer\0" ends at 0x27)
        0x03, 0x00, 0x00, 0x00,
        0x2c, 0x00, 0x00, 0x00, // entry 1: name at 0x2c
        0x30, 0x00, 0x00, 0x00, //          data at 0x30
        0x02, 0x00, 0x00, 0x00, //          data_size 2
        b'l', b'o', b'n', b'g', b'e', b'r', 0x00, 0x00,
        b'x', b'y', b'z', 0x00,
        b'c', b'd', 0x00, 0x00,
        b'h', b'i',
    ];
    assert_bytes(&write(&m), &want);
}

#[test]
fn derive() {
    use fs::derive::Derive;
    #[rustfmt::skip]
    let bytes = [
        b'D', b'R', b'V', b'1', // magic
        0x15, 0x00, 0x00, 0x00, // file_size: 0x15 (derived: _io.size)
        0x11, 0x00,             // body_ofs: 0x11 (derived: body._pos)
        0x01,                   // has_extra: 1 (derived: extra._present)
        0x03,                   // version: 3
        0xef, 0xbe, 0xad, 0xde, // extra: 0xdeadbeef, present since has_extra != 0
        0x04,                   // body_len: 4 (a length, from body's size)
        b'a', b'b', b'c', b'd', // body
    ];
    let mut m: Derive = round_trip(&bytes);
    // Derived values that agree with the file are not kept.
    assert_eq!((m.file_size, m.body_ofs, m.has_extra), (None, None, None));
    assert_eq!(m.extra, Some(0xdead_beef));
    assert_eq!(&m.body[..], b"abcd");

    // Without `extra` and with a longer body, every derived field changes.
    m.extra = None;
    m.body = Bytes::from_static(b"hello world");
    #[rustfmt::skip]
    let want = [
        b'D', b'R', b'V', b'1',
        0x18, 0x00, 0x00, 0x00, // file_size: 0x18
        0x0d, 0x00,             // body_ofs: 0x0d
        0x00,                   // has_extra: 0
        0x03,                   // version
        0x0b,                   // body_len: 11
        b'h', b'e', b'l', b'l', b'o', b' ', b'w', b'o', b'r', b'l', b'd',
    ];
    assert_bytes(&write(&m), &want);

    // A file whose derived value disagrees keeps it as an override.
    let mut odd = bytes;
    odd[4] = 0x99;
    let m: Derive = round_trip(&odd);
    assert_eq!(m.file_size, Some(0x99));

    // `-default` gives a new model's version, and its optional `extra`, which the file then has.
    let d = Derive::default();
    assert_eq!((d.version, d.extra), (3, Some(0x1234_5678)));
    assert_bytes(
        &write(&d)[8..16],
        &[0x11, 0x00, 0x01, 0x03, 0x78, 0x56, 0x34, 0x12],
    );
}

#[test]
fn sort_by() {
    use fs::sort_by::{Entry, SortBy, Tag};
    #[rustfmt::skip]
    let bytes = [
        0x00, 0x00, 0x00, 0x65, // multiplier: 0x65
        0x02,                   // count: 2 entries, in hash order
        0x00, 0x00, 0x00, 0x62, // entry 0: name_hash of "b" (0x62)
        b'b', 0x00,             //          name "b"
        0x00, 0x00, 0x26, 0xa7, // entry 1: name_hash of "ab" (0x61 * 0x65 + 0x62)
        b'a', b'b', 0x00,       //          name "ab"
        0x02,                   // tag_count: 2 tags, in text order
        b'a', b'a', b'a', 0x00, // tag 0: "aaa" in a 4-byte slot
        b'z', b'z', 0x00, 0x00, // tag 1: "zz"
    ];
    let mut m: SortBy = round_trip(&bytes);
    assert_eq!(&*m.entries[1].name, "ab");
    assert_eq!(m.entries[1].name_hash, None);

    // New elements go where their keys put them; the hash is derived.
    m.entries.push(Entry {
        name_hash: None,
        name: "c".into(),
    });
    m.tags.insert(
        0,
        Tag {
            text: "b".into(),
            ..Default::default()
        },
    );
    #[rustfmt::skip]
    let want = [
        0x00, 0x00, 0x00, 0x65,
        0x03,
        0x00, 0x00, 0x00, 0x62, b'b', 0x00,
        0x00, 0x00, 0x00, 0x63, b'c', 0x00,
        0x00, 0x00, 0x26, 0xa7, b'a', b'b', 0x00,
        0x03,
        b'a', b'a', b'a', 0x00,
        b'b', 0x00, 0x00, 0x00,
        b'z', b'z', 0x00, 0x00,
    ];
    let out = m.to_binary_agreed().unwrap();
    assert_bytes(&out, &want);

    // A file out of order reads as the file the writer makes of it.
    #[rustfmt::skip]
    let swapped = [
        0x00, 0x00, 0x00, 0x65, // multiplier
        0x02,                   // count
        0x00, 0x00, 0x26, 0xa7, // entry 0: "ab" first
        b'a', b'b', 0x00,
        0x00, 0x00, 0x00, 0x62, // entry 1: "b"
        b'b', 0x00,
        0x02,                   // tag_count
        b'z', b'z', 0x00, 0x00, // tag 0: "zz" first
        b'a', b'a', b'a', 0x00, // tag 1: "aaa"
    ];
    let m: SortBy = SortBy::from_binary(&swapped).unwrap();
    assert_eq!(&*m.entries[0].name, "b");
    assert_bytes(&m.to_binary_agreed().unwrap(), &bytes);
}

#[test]
fn scan() {
    use fs::scan::Scan;
    #[rustfmt::skip]
    let bytes = [
        b'S', b'C', b'A', b'N', // magic
        0x00, 0x01,             // words[0]: 1
        0xff, 0xfe,             // words[1]: -2
        0x12, 0x34,             // words[2]: 0x1234
        b'M', b'I', b'D', b'!', // the tag that ends `words` (at an even offset from their start)
        0x01, 0x02, 0x03,       // tail: 1, 2, 3
        b'E', b'N', b'D', 0x07, // trailer: the tag "END" that ends `tail`, and a byte
    ];
    let mut m: Scan = round_trip(&bytes);
    assert_eq!(m.words, [1, -2, 0x1234]);
    assert_eq!(m.tail, [1, 2, 3]);
    assert_eq!(m.trailer.as_deref(), Some(&b"END\x07"[..]));

    // `tail` may also end at the end of the file.
    let m2: Scan = round_trip(&bytes[..17]);
    assert_eq!((m2.tail.len(), m2.trailer), (3, None));

    // Words that hold the tag where the reader looks for it cannot be written: the file would read back shorter.
    m.words = vec![0x4d49, 0x4421];
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("words"), "{e}");
    // At an odd offset the reader does not look, so it is fine.
    m.words = vec![0x004d, 0x4944, 0x2100];
    write(&m);
}

#[test]
fn bits() {
    use fs::bits::Bits;
    #[rustfmt::skip]
    let bytes = [
        0xab,                   // version 0xa (4 bits), flags 0b101 (3), enabled 1 (1): most significant first
        0x12, 0x34,             // wide 0x123 (12 bits), spare 0x4 (4)
        0xb3,                   // low_first, least significant first: low 0b011 (3 bits), high 0b10110 (5)
        0xc5, 0xe6,             // mid 0x2c5 (10 bits: 0xc5 and the low 2 bits of 0xe6), rest 0b111001 (6)
        0xca, 0xfe, 0xba, 0xbe, // after: 0xcafebabe, big-endian
    ];
    let mut m: Bits = round_trip(&bytes);
    assert_eq!((m.version, m.flags, m.enabled), (0xa, 0b101, true));
    assert_eq!((m.wide, m.spare), (0x123, 4));
    let l = &m.low_first;
    assert_eq!((l.low, l.high, l.mid, l.rest), (3, 22, 0x2c5, 57));
    assert_eq!(m.after, 0xcafe_babe);

    m.enabled = false;
    m.low_first.mid = 0x3ff;
    let out = write(&m);
    assert_bytes(&out[..6], &[0xaa, 0x12, 0x34, 0xb3, 0xff, 0xe7]);
}

#[test]
fn process() {
    use fs::process::{Point, Process};
    #[rustfmt::skip]
    let bytes = [
        0x5a,                   // key
        0x03,                   // secret_len: 3
        0x3b, 0x38, 0x39,       // secret: "abc" XOR 0x5a
        0x0e, 0xf2, 0x0c, 0xf4, // masked: 01 02 03 04 XOR 0f f0 0f f0
        0x20, 0x00, 0x40, 0x00, // rotated: point (1, 2) rotated right by 3 bits (the reader rotates left)
        0x11, 0x00,             // packed_len: 17
        // packed: zlib of "hello hello hello!" (level 6)
        0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x57, 0xc8, 0x40, 0x90, 0x8a, 0x00, 0x40, 0xcc, 0x06,
        0x9e,
    ];
    let mut m: Process = round_trip(&bytes);
    assert_eq!(&m.secret[..], b"abc");
    assert_eq!(&m.masked[..], [1, 2, 3, 4]);
    assert_eq!(m.rotated, Point { x: 1, y: 2 });
    assert_eq!(&m.packed[..], b"hello hello hello!");

    // A new key: the secret is stored XORed with it.
    m.key = 0xff;
    m.secret = Bytes::from_static(b"\x00\x0f");
    let out = write(&m);
    assert_bytes(&out[..4], &[0xff, 0x02, 0xff, 0xf0]);
}

#[test]
fn eager() {
    use fs::eager::Eager;
    #[rustfmt::skip]
    let bytes = [
        b'T', b'R', b'E', b'E', // magic
        0x08, 0x00, 0x00, 0x00, // root_ofs: 0x08
        0x01, 0x00,             // 0x08 node A: value 1
        0x02, 0x00,             //              child_count 2
        0x14, 0x00, 0x00, 0x00, //              child 0 at 0x14
        0x18, 0x00, 0x00, 0x00, //              child 1 at 0x18
        0x02, 0x00, 0x00, 0x00, // 0x14 node B: value 2, no children
        0x03, 0x00, 0x01, 0x00, // 0x18 node C: value 3, one child
        0x20, 0x00, 0x00, 0x00, //              child 0 at 0x20
        0x04, 0x00, 0x00, 0x00, // 0x20 node D: value 4, no children
    ];
    let mut m: Eager = round_trip(&bytes);
    let c = &m.root.children[1].target;
    assert_eq!(c.value, 3);
    assert_eq!(c.children[0].target.value, 4);
    assert!(m.root.children[0].target.children.is_empty());

    // A node deep in the tree is written back at its offset.
    m.root.children[1].target.children[0].target.value = 0x0404;
    let out = write(&m);
    assert_bytes(&out[0x20..], &[0x04, 0x04, 0x00, 0x00]);
    assert_bytes(&out[..0x20], &bytes[..0x20]);
}

#[test]
fn data() {
    use fs::data::Data;
    #[rustfmt::skip]
    let bytes = [
        0x03,                   // count: 3 items
        0x03, 0x20,             // item 0: packed 0x2003: priority 2, payload length 3
        b'a', b'b', b'c',       //         payload
        0x00, 0xf0,             // item 1: packed 0xf000: priority 15, empty payload
        0x02, 0x10,             // item 2: packed 0x1002: priority 1, payload length 2
        b'h', b'i',             //         payload
    ];
    let mut m: Data = round_trip(&bytes);
    let prio: Vec<u8> = m.items.iter().map(|i| i.priority).collect();
    assert_eq!(prio, [2, 15, 1]);
    assert!(m.items.iter().all(|i| i.packed.is_none()));

    // `packed` is derived from the kept priority and the payload's length.
    m.items[0].priority = 5;
    m.items[0].payload = Bytes::from_static(b"abcdef");
    let out = write(&m);
    assert_bytes(&out[..3], &[0x03, 0x06, 0x50]);
    // Priority 1 is the default: not written to a document.
    assert!(!m.to_text().unwrap().contains("priority: 1\n"));
}

#[test]
fn layout() {
    use fs::layout::Layout;
    #[rustfmt::skip]
    let bytes = [
        b'L', b'A', b'Y',       // magic
        0x20, 0x00, 0x00, 0x00, // second_ofs: 0x20 (derived: second_region._pos)
        0x11, 0x00, 0x00, 0x00, // header.first_ofs: 0x11 (derived)
        0x05, 0x00,             // header.first_len: 5 (derived)
        0x00, 0x00,             // header.second_rel: 0 (derived)
        0x06, 0x00,             // header.second_len: 6 (derived)
        b'h', b'e', b'l', b'l', b'o', // 0x11: the first region, its one item
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // padding: the second region starts aligned to 0x20
        b'w', b'o', b'r', b'l', b'd', b'!', // 0x20: the second region, its one item
    ];
    let mut m: Layout = round_trip(&bytes);
    // Inferred: the first region starts at 0x11 (alignment 1, where the default is 4), the second at 0x20.
    assert_eq!((m.first_align, m.second_align), (1, 0x20));
    assert_eq!(
        (m.header.head_blob_align, m.header.tail_blob_align),
        (None, None)
    );
    assert_eq!(&m.header.tail_blob[..], b"world!");

    // Another alignment moves the second region, and the offset follows.
    m.second_align = 8;
    #[rustfmt::skip]
    let want = [
        b'L', b'A', b'Y',
        0x18, 0x00, 0x00, 0x00, // second_ofs: 0x18 ("hello" ends at 0x16)
        0x11, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x06, 0x00,
        b'h', b'e', b'l', b'l', b'o',
        0, 0,                   // padding to 8
        b'w', b'o', b'r', b'l', b'd', b'!',
    ];
    assert_bytes(&write(&m), &want);
    // A new model gets the defaults.
    let d = Layout::default();
    assert_eq!((d.first_align, d.second_align), (4, 16));
}

/// The first region follows plain seq fields, so the padding that `first_align` puts before it is read as part of
/// the region's field: its alignment was inferred from where the header ends (0x11: 1), and a file written with
/// `first_align: 4` was read as the file the writer makes with alignment 1. Its items are read before it (the
/// header points into it), so the alignment is read off where the first item is.
#[test]
fn layout_first_region_alignment_is_inferred_from_its_items() {
    use fs::layout::Layout;
    let m = Layout {
        first_align: 4,
        ..Layout::default()
    };
    let out = m.to_binary_agreed().unwrap();
    let again = Layout::from_binary(&out).unwrap();
    assert_eq!(again.first_align, 4);
    assert_bytes(&again.to_binary_agreed().unwrap(), &out);

    // With an item: "hello" after three bytes of padding, at 0x14.
    let mut m = Layout {
        first_align: 4,
        ..Layout::default()
    };
    m.header.head_blob = Bytes::from_static(b"hello");
    let out = m.to_binary_agreed().unwrap();
    assert_bytes(&out[0x07..0x0b], &[0x14, 0, 0, 0]);
    let again: Layout = round_trip(&out);
    assert_eq!(
        (again.first_align, &again.header.head_blob[..]),
        (4, &b"hello"[..])
    );
}

/// A base index into a shared table: each group's values are a range of one table. The model holds the values per
/// group; the table, its count, the bases and the counts are derived.
#[test]
fn ranges() {
    use fs::ranges::{Group, Ranges};
    #[rustfmt::skip]
    let bytes = [
        b'R', b'N', b'G', b'S',
        0x03,                   // group_count
        0x0c,                   // values_ofs
        0x00, 0x02,             // group 0: base 0, two values
        0x02, 0x00,             // group 1: none, based where the next starts
        0x02, 0x01,             // group 2: base 2, one value
        0x03,                   // the table: three values
        0x01, 0x00, 0x02, 0x00, 0x03, 0x00,
    ];
    let mut m: Ranges = round_trip(&bytes);
    let members: Vec<&[u16]> = m.groups.iter().map(|g| &g.members[..]).collect();
    assert_eq!(members, [&[1, 2][..], &[], &[3]]);
    assert!(
        m.groups.iter().all(|g| g.base.is_none()),
        "every base derived"
    );
    // A value more in the first group moves the others' bases; a new group goes at the end of the table.
    m.groups[0].members.push(9);
    m.groups.push(Group {
        members: vec![7, 8],
        ..Group::default()
    });
    let out = write(&m);
    #[rustfmt::skip]
    assert_bytes(&out, &[
        b'R', b'N', b'G', b'S',
        0x04, 0x0e,
        0x00, 0x03,
        0x03, 0x00,
        0x03, 0x01,
        0x04, 0x02,
        0x06,
        0x01, 0x00, 0x02, 0x00, 0x09, 0x00, 0x03, 0x00, 0x07, 0x00, 0x08, 0x00,
    ]);
}

/// An empty range has no bytes, so its base index can point anywhere: one that is not where the next range starts
/// (AINB's elements with no queries have 0) is kept in the model, and the file round-trips.
#[test]
fn ranges_empty_range_elsewhere() {
    use fs::ranges::Ranges;
    #[rustfmt::skip]
    let bytes = [
        b'R', b'N', b'G', b'S', 0x03, 0x0c,
        0x00, 0x02,
        0x00, 0x00,             // no values, base 0
        0x02, 0x01,
        0x03, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00,
    ];
    let mut m: Ranges = round_trip(&bytes);
    assert_eq!(
        m.groups.iter().map(|g| g.base).collect::<Vec<_>>(),
        [None, Some(0), None]
    );
    // Once the range has values, its base is derived again (the kept one would point at other values).
    // The model read back has no override any more.
    m.groups[1].members = vec![5];
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(&out[6..12], &[0x00, 0x02, 0x02, 0x01, 0x03, 0x01]);
    let again = Ranges::from_binary(&out).unwrap();
    assert_eq!(again.groups[1].base, None);
    assert_eq!(again.groups[1].members, [5]);
}

/// A section that is a stream of its own (EXB inside AINB): its size is derived from what the writer puts in it, and
/// the offsets inside it are relative to its start.
#[test]
fn nested_section() {
    use fs::nested::Nested;
    #[rustfmt::skip]
    let bytes = [
        b'N', b'E', b'S', b'T',
        0x10, 0, 0, 0,          // inner_ofs
        0x0e, 0, 0, 0,          // inner_size
        0x1e, 0, 0, 0,          // tail_ofs
        b'I', b'N', b'N', b'R',
        0x08, 0, 0, 0,          // name_ofs, from the start of the inner section
        b'a', b'b', b'c', b'd', b'e', 0,
        b't', b'a', b'i', b'l', 0,
    ];
    let mut m: Nested = round_trip(&bytes);
    assert_eq!(m.inner.name, "abcde");
    // A longer name grows the section and moves what follows it; the inner offset stays relative.
    m.inner.name = "a longer name".into();
    let out = write(&m);
    assert_eq!(&out[4..16], &[0x10, 0, 0, 0, 0x16, 0, 0, 0, 0x26, 0, 0, 0]);
    assert_eq!(&out[0x14..0x18], &[0x08, 0, 0, 0]);
    assert_eq!(&out[0x26..], b"tail\0");
}

/// Sections in another order than their declaration (AINB's files differ in where some sections go): the order is
/// a layout choice, read off their positions and kept, so the file is written back as it was; a new model, or one
/// whose order is taken away, gets the declared order.
#[test]
fn sections_out_of_declared_order() {
    use fs::nested::Nested;
    #[rustfmt::skip]
    let bytes = [
        b'N', b'E', b'S', b'T',
        0x15, 0, 0, 0,          // inner_ofs: after the tail
        0x0e, 0, 0, 0,          // inner_size
        0x10, 0, 0, 0,          // tail_ofs: first
        b't', b'a', b'i', b'l', 0,
        b'I', b'N', b'N', b'R',
        0x08, 0, 0, 0,
        b'a', b'b', b'c', b'd', b'e', 0,
    ];
    let mut m: Nested = round_trip(&bytes);
    assert_eq!(
        m.sections_order.as_deref(),
        Some(&["tail".to_string(), "inner".to_string()][..])
    );
    assert_eq!((&*m.tail, &*m.inner.name), ("tail", "abcde"));
    // A longer tail moves the inner section, which still comes after it.
    m.tail = "a longer tail".into();
    let out = write(&m);
    assert_eq!(&out[4..16], &[0x1e, 0, 0, 0, 0x0e, 0, 0, 0, 0x10, 0, 0, 0]);
    // Without the order, the declared one.
    m.sections_order = None;
    let out = write(&m);
    assert_eq!(&out[4..16], &[0x10, 0, 0, 0, 0x0e, 0, 0, 0, 0x1e, 0, 0, 0]);
    // An order that names no section of the type is refused, naming the field.
    m.sections_order = Some(vec!["tail".into(), "nope".into()]);
    let e = m.to_binary_agreed().unwrap_err();
    assert!(e.to_string().contains("sections_order"), "{e}");
    assert!(e.to_string().contains("nope"), "{e}");
    // So is a section named twice.
    m.sections_order = Some(vec!["tail".into(), "tail".into()]);
    assert!(m.to_binary_agreed().is_err());
}

#[test]
fn enums() {
    use fs::enums::{Color, Enums, Kind, Level};
    #[rustfmt::skip]
    let bytes = [
        0x02,                   // kind: big
        0x00, 0x04,             // color: blue (0x400)
        0x70,                   // level: high (7, 4 bits), unused 0 (4 bits)
        0x44, 0x33, 0x22, 0x11, // big_only: present since kind == big
        // tail: `extra` is absent since kind is not small
        0x01, 0x02, 0x09,       // history: small, big, 9 (a value the enum does not name)
    ];
    let mut m: Enums = round_trip(&bytes);
    assert_eq!(
        (m.kind, m.color, m.level),
        (Kind::Big, Color::Blue, Level::High)
    );
    assert_eq!(m.big_only, Some(0x1122_3344));
    assert_eq!(m.tail.extra, None);
    assert_eq!(m.history, [Kind::Small, Kind::Big, Kind::Unknown(9)]);

    #[rustfmt::skip]
    let small = [
        0x01,                   // kind: small
        0x99, 0x00,             // color: 0x99, not named: kept
        0x35,                   // level: 3, not named; unused: 5
        0x42,                   // tail.extra: present since kind == small
        0x02, 0x02, 0x02,       // history
    ];
    let mut s: Enums = round_trip(&small);
    assert_eq!(
        (s.color, s.level, s.unused),
        (Color::Unknown(0x99), Level::UnknownValue(3), 5)
    );
    assert_eq!(s.tail.extra, Some(0x42));
    // A value the schema names `unknown` is a variant of its own.
    let mut named = small;
    named[3] = 0xf5;
    let n: Enums = round_trip(&named);
    assert_eq!(n.level, Level::Unknown);
    // Each value's name as the schema (and the text form) has it; none for a value it does not name.
    assert_eq!(
        (
            n.level.name(),
            Level::High.name(),
            s.level.name(),
            s.color.name()
        ),
        (Some("unknown"), Some("high"), None, None)
    );
    assert_eq!(Kind::Big.name(), Some("big"));
    assert_eq!(n.level.value(), 0xf);

    // A model whose presence contradicts the condition is refused.
    s.big_only = Some(1);
    assert!(s.to_binary_agreed().is_err());
    m.color = Color::Red;
    assert_bytes(&write(&m)[..3], &[0x02, 0x10, 0x00]);
    // `-default` on an enum field names a value of the enum.
    assert_eq!(Enums::default().color, Color::Green);
}

#[test]
fn repeat() {
    use fs::repeat::Repeat;
    #[rustfmt::skip]
    let bytes = [
        0x01, 0x00, 0x02, 0x00, 0x03, 0x00, // fixed: 3 u2 (repeat-expr: 3)
        0x02,                   // count: 2
        0x0a, 0x0b,             // counted: 2 u1
        0x05, 0x06, 0x00,       // until_zero: up to and with the 0
        b'a', b'b', 0x00,       // names: "ab",
        b'e', b'n', b'd', 0x00, //        "end" (the last)
        0x01, 0x01, 0x00,       // chunks: value 0x101, last 0
        0x02, 0x00, 0x01,       //         value 2, last 1 (the last)
        0x07, 0xff,             // rest (to the end of the file): a 7, b -1
        0x08, 0x80,             //                                a 8, b -128
    ];
    let mut m: Repeat = round_trip(&bytes);
    assert_eq!(m.fixed, [1, 2, 3]);
    assert_eq!(m.until_zero, [5, 6, 0]);
    assert_eq!(m.names.len(), 2);
    assert_eq!(m.chunks[0].value, 0x101);
    assert_eq!((m.rest[1].a, m.rest[1].b), (8, -128));

    // The count follows `counted`.
    m.counted.push(0x0c);
    let out = write(&m);
    assert_bytes(&out[6..10], &[0x03, 0x0a, 0x0b, 0x0c]);
    // A constant count is checked.
    m.fixed.push(4);
    assert!(m.to_binary_agreed().is_err());
}

#[test]
fn endian_switch() {
    use fs::endian_switch::EndianSwitch;
    #[rustfmt::skip]
    let be = [
        b'B', b'O',             // magic
        0xfe, 0xff,             // bom: big-endian
        0x00, 0x02,             // header.count: 2
        0xff, 0xff, 0xff, 0xfe, // header.values[0]: -2
        0x00, 0x00, 0x01, 0x00, // header.values[1]: 256
        0x01, 0x02, 0x03, 0x04, // fixed_be.value: always big-endian
        0x0d, 0x0c, 0x0b, 0x0a, // always_le: always little-endian
    ];
    #[rustfmt::skip]
    let le = [
        b'B', b'O',
        0xff, 0xfe,             // bom: little-endian
        0x02, 0x00,
        0xfe, 0xff, 0xff, 0xff,
        0x00, 0x01, 0x00, 0x00,
        0x01, 0x02, 0x03, 0x04,
        0x0d, 0x0c, 0x0b, 0x0a,
    ];
    let mut m: EndianSwitch = round_trip(&be);
    assert_eq!(m.endian, Endian::Big);
    assert_eq!(m.header.values, [-2, 256]);
    assert_eq!((m.fixed_be.value, m.always_le), (0x0102_0304, 0x0a0b_0c0d));
    let l: EndianSwitch = round_trip(&le);
    assert_eq!(l.endian, Endian::Little);

    // The model's byte order decides the file's.
    m.endian = Endian::Little;
    assert_eq!(m, l);
    assert_bytes(&write(&m), &le);
}

#[test]
fn instances() {
    use fs::instances::Instances;
    #[rustfmt::skip]
    let bytes = [
        0x04, 0x00,             // width: 4
        0x04, 0x00,             // height: 4
        0x08, 0x00,             // table_ofs: 8
        0x03,                   // table_len: 3
        0x00,                   // gap
        b'x', b'y', b'z',       // 0x08: table
        0xef, 0xbe,             // 0x0b: footer, right after the table
    ];
    let mut m: Instances = round_trip(&bytes);
    assert_eq!(&m.table[..], b"xyz");
    assert_eq!(m.footer, 0xbeef);

    // Positioned instances are written where the model's offsets say; the gap is zeros.
    m.table_ofs = 10;
    m.footer = 0x1234;
    #[rustfmt::skip]
    let want = [
        0x04, 0x00, 0x04, 0x00, 0x0a, 0x00, 0x03,
        0x00, 0x00, 0x00,
        b'x', b'y', b'z',
        0x34, 0x12,
    ];
    assert_bytes(&write(&m), &want);
}

/// Models whose file would read back as another model (or not at all) are refused, as a count that disagrees with
/// its array or an optional field that contradicts its condition is, with an error that names the field's path; the
/// writer wrote them without an error before. Next to each, valid models of the same kind are still written.
mod writes_what_does_not_read_back {
    use super::*;

    /// A value too wide for its bits is refused, as a value too wide for a byte-sized integer is (`fit`): the writer
    /// kept the low bits, so `flags = 8` in a `b3` was written as 0. The error names the field.
    #[test]
    fn bits_too_wide_are_refused() {
        let m = fs::bits::Bits {
            flags: 8,
            ..Default::default()
        };
        let e = m.to_binary_agreed().unwrap_err();
        assert_eq!(e.path(), "bits.flags", "{e}");
        // In a nested type, with the other bit order, too.
        let mut m = fs::bits::Bits::default();
        m.low_first.mid = 0x400;
        let e = m.to_binary_agreed().unwrap_err();
        assert_eq!(e.path(), "bits.low_first.mid", "{e}");
    }

    /// The widest value of each bit field is written as it is.
    #[test]
    fn bits_at_their_widest_are_written() {
        let m = fs::bits::Bits {
            version: 0xf,
            flags: 7,
            enabled: true,
            wide: 0xfff,
            spare: 0xf,
            low_first: fs::bits::LeBits {
                low: 7,
                high: 0x1f,
                mid: 0x3ff,
                rest: 0x3f,
            },
            after: 0,
        };
        assert_bytes(&write(&m)[..6], &[0xff; 6]);
    }

    /// A `switch-on` tag that is a data field must choose the case the model holds: the writer wrote the tag as the
    /// model held it, whatever the case, and the file did not decode.
    #[test]
    fn switch_tag_and_variant_disagree() {
        let mut m = fs::switch::Switch::from_binary(&[0x07, 0xaa, 0xbb, 0x00]).unwrap();
        m.kind = 1; // a point, but the body is still raw: the file does not decode
        let e = m.to_binary_agreed().unwrap_err();
        assert_eq!(e.path(), "switch.body", "{e}");
        assert!(e.to_string().contains("holds a raw"), "{e}");
        // A tag inside each element of a repetition, choosing between built-in types.
        let mut m = fs::switch::Switch::from_binary(&[0x07, 0xaa, 0xbb, 0x01, 0x01, 0x05]).unwrap();
        m.records[0].width = 2; // a u2, but the value is still a u1
        let e = m.to_binary_agreed().unwrap_err();
        assert_eq!(e.path(), "switch.records[0].value", "{e}");
    }

    /// Tags that choose the case the model holds are written, the default case's among them.
    #[test]
    fn switch_tags_that_choose_the_case_held() {
        use fs::switch::{Point, Record, RecordValue, Switch, SwitchBody};
        let mut m = Switch::from_binary(&[0x07, 0xaa, 0xbb, 0x00]).unwrap();
        m.kind = 0xee; // another tag the default case (raw) reads
        write(&m);
        m.kind = 1;
        m.body = SwitchBody::Point(Point { x: 1, y: 2 });
        m.records = vec![
            Record {
                width: 9, // the default case, a u1, as `1` is
                value: RecordValue::U1(3),
            },
            Record {
                width: 2,
                value: RecordValue::U2(0x1234),
            },
        ];
        write(&m);
    }

    /// `repeat-until` must stop at the last element and at no earlier one: here the stop value came before the last
    /// element, and the file read back shorter.
    #[test]
    fn repeat_until_stops_early() {
        #[rustfmt::skip]
        let bytes = [
            1, 0, 2, 0, 3, 0,       // fixed
            0x00,                   // count: 0
            0x00,                   // until_zero: [0]
            b'e', b'n', b'd', 0x00, // names: ["end"]
            0x00, 0x00, 0x01,       // chunks: one, the last
        ];
        let mut m = fs::repeat::Repeat::from_binary(&bytes).unwrap();
        m.until_zero = vec![5, 0, 6, 0]; // reads back as [5, 0]
        let e = m.to_binary_agreed().unwrap_err();
        assert_eq!(e.path(), "repeat.until_zero[1]", "{e}");
        // Without the stop value at the end, the reader would go on past the last element.
        m.until_zero = vec![5, 6];
        let e = m.to_binary_agreed().unwrap_err();
        assert_eq!(e.path(), "repeat.until_zero[1]", "{e}");
        // A reader reads at least one element.
        m.until_zero = vec![];
        let e = m.to_binary_agreed().unwrap_err();
        assert_eq!(e.path(), "repeat.until_zero", "{e}");
        // Strings and user types: `_` is each element.
        m.until_zero = vec![0];
        m.names = vec!["end".into(), "x".into(), "end".into()];
        let e = m.to_binary_agreed().unwrap_err();
        assert_eq!(e.path(), "repeat.names[0]", "{e}");
        m.names = vec!["end".into()];
        m.chunks[0].last = 0;
        let e = m.to_binary_agreed().unwrap_err();
        assert_eq!(e.path(), "repeat.chunks[0]", "{e}");
    }

    /// Elements that stop where the model ends are written.
    #[test]
    fn repeat_until_stops_at_the_last() {
        use fs::repeat::Chunk;
        let mut m = fs::repeat::Repeat {
            fixed: vec![1, 2, 3],
            until_zero: vec![1, 2, 0],
            names: vec!["a".into(), "end".into()],
            ..Default::default()
        };
        m.chunks = vec![Chunk { value: 1, last: 0 }, Chunk { value: 2, last: 7 }];
        write(&m);
    }

    /// Placed instances must not overlap each other with different bytes: a node that grew overwrote its neighbour.
    #[test]
    fn eager_nodes_overlap() {
        #[rustfmt::skip]
        let bytes = [
            b'T', b'R', b'E', b'E', 0x08, 0x00, 0x00, 0x00,
            0x01, 0x00, 0x02, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, // A, children at 0x14, 0x18
            0x02, 0x00, 0x00, 0x00,                                                 // B at 0x14
            0x03, 0x00, 0x00, 0x00,                                                 // C at 0x18
        ];
        let mut m = fs::eager::Eager::from_binary(&bytes).unwrap();
        let c = m.root.children[1].clone();
        m.root.children[0].target.children.push(c); // B grows to 8 bytes, over C
        let e = m.to_binary_agreed().unwrap_err();
        assert_eq!(e.path(), "eager.root.children[0].target", "{e}");
        assert!(e.to_string().contains("0x14..0x1c"), "{e}");
        // Nor overlap what is written in sequence: a root placed over the header.
        let mut m = fs::eager::Eager::from_binary(&bytes).unwrap();
        m.root_ofs = 4;
        let e = m.to_binary_agreed().unwrap_err();
        assert_eq!(e.path(), "eager.root", "{e}");
    }

    /// A node that two references share is placed twice with the same bytes, and a node that grows is written
    /// once what follows it has moved.
    #[test]
    fn eager_nodes_shared_or_moved() {
        #[rustfmt::skip]
        let shared = [
            b'T', b'R', b'E', b'E', 0x08, 0x00, 0x00, 0x00,
            0x01, 0x00, 0x02, 0x00, 0x14, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, // A, both children at 0x14
            0x02, 0x00, 0x00, 0x00,                                                 // B at 0x14
        ];
        let m: fs::eager::Eager = round_trip(&shared);
        assert_eq!(m.root.children[0], m.root.children[1]);

        #[rustfmt::skip]
        let bytes = [
            b'T', b'R', b'E', b'E', 0x08, 0x00, 0x00, 0x00,
            0x01, 0x00, 0x02, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, // A, children at 0x14, 0x18
            0x02, 0x00, 0x00, 0x00,                                                 // B at 0x14
            0x03, 0x00, 0x00, 0x00,                                                 // C at 0x18
        ];
        let mut m = fs::eager::Eager::from_binary(&bytes).unwrap();
        // B gets C as a child and grows to 8 bytes; C moves to 0x1c, where both references find it.
        m.root.children[1].ofs = 0x1c;
        let c = m.root.children[1].clone();
        m.root.children[0].target.children.push(c);
        let out = write(&m);
        assert_eq!(out.len(), 0x20);
    }
}

#[test]
fn hashes() {
    use fs::hashes::Hashes;
    #[rustfmt::skip]
    let bytes = [
        0xfa, 0x93, 0xdd, 0xb3, // murmur: murmur3_x86_32("abc", seed 0), 0xb3dd93fa
        0xc2, 0x41, 0x24, 0x35, // crc: CRC-32("abc"), 0x352441c2
        0x00, 0x00, 0x00, 0x00, // seed: 0
        b'a', b'b', b'c', 0,    // name
    ];
    let mut m: Hashes = round_trip(&bytes);
    assert!(
        m.murmur.is_none() && m.crc.is_none(),
        "both agree with their derivation"
    );
    // A new name gets both hashes again; a seed changes murmur3 only. The check values are the reference ones:
    // murmur3_x86_32("", 1) = 0x514e28b7; CRC-32("") = 0.
    m.name = "".into();
    m.seed = 1;
    let out = write(&m);
    assert_bytes(&out, &[0xb7, 0x28, 0x4e, 0x51, 0, 0, 0, 0, 1, 0, 0, 0, 0]);
}

/// A region's sections and the items other types put in it (the records' blobs) in an order files choose: the
/// order, the blobs' place among the sections included, is read off their positions and kept.
#[test]
fn sections_and_items_of_other_types_in_file_order() {
    use fs::sections::Sections;
    #[rustfmt::skip]
    let bytes = [
        b'S', b'E', b'C', b'T',
        0x02, 0, 0, 0,          // record_count
        0x24, 0, 0, 0,          // table_ofs: first section
        0x3c, 0, 0, 0,          // ids_ofs: after the blobs
        0x40, 0, 0, 0,          // name_ofs: after the ids (2 of them)
        0x38, 0, 0, 0, 0x03, 0, 0, 0, // record 0: blob at 0x38, 3 bytes
        0x3b, 0, 0, 0, 0x01, 0, 0, 0, // record 1: blob at 0x3b, 1 byte
        0x02, 0, 0, 0, 0x0a, 0, 0, 0, 0x0b, 0, 0, 0, // 0x24: table, 2 values,
        0x3c, 0, 0, 0, 0x3c, 0, 0, 0, //       small and big: empty, where the ids start
        b'a', b'b', b'c', b'd', // 0x38: the blobs
        0x07, 0, 0x08, 0,       // 0x3c: ids
        b'n', b'a', b'm', b'e', 0, // 0x40: name
    ];
    let mut m: Sections = round_trip(&bytes);
    assert_eq!(m.ids, vec![7, 8]);
    assert_eq!(&m.records[1].blob[..], b"d");
    assert_eq!(
        m.sections_order.as_deref(),
        Some(
            &[
                "table",
                "record.blob",
                "table.small",
                "table.big",
                "ids",
                "name"
            ]
            .map(String::from)[..]
        )
    );
    // One more id: the name moves, and the ids' length is where it starts.
    m.ids.push(9);
    let out = write(&m);
    assert_eq!(&out[12..20], &[0x3c, 0, 0, 0, 0x42, 0, 0, 0]);
    // No table: its offset is 0, and what came after it moves up. (The order still names it; read back, it names
    // what the file holds.)
    m.table = None;
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(&out[8..20], &[0, 0, 0, 0, 0x28, 0, 0, 0, 0x2e, 0, 0, 0]);
    assert_eq!(&out[0x14..0x18], &[0x24, 0, 0, 0]);
    let again = Sections::from_binary(&out).unwrap();
    assert_eq!(
        again.sections_order.as_deref(),
        Some(&["record.blob", "ids", "name"].map(String::from)[..])
    );
    assert_eq!((again.table, &again.ids), (None, &m.ids));
    // An order that puts something between the ids and the name would make the ids read back otherwise: refused.
    m.sections_order = Some(["ids", "record.blob", "name"].map(String::from).to_vec());
    let e = m.to_binary_agreed().unwrap_err();
    assert!(e.to_string().contains("ids"), "{e}");
}

/// The same file with its blobs moved to the end by the kept order: laid out in that order, every offset derived
/// (the interpreter writes the same bytes: `agree`, and `binspec --schema` in `tests/tests/interp_cli.rs`).
#[test]
fn sections_moved_by_their_kept_order() {
    use fs::sections::Sections;
    #[rustfmt::skip]
    let bytes = [
        b'S', b'E', b'C', b'T', 2, 0, 0, 0,
        0x24, 0, 0, 0, 0x3c, 0, 0, 0, 0x40, 0, 0, 0,
        0x38, 0, 0, 0, 3, 0, 0, 0, 0x3b, 0, 0, 0, 1, 0, 0, 0,
        2, 0, 0, 0, 0x0a, 0, 0, 0, 0x0b, 0, 0, 0, 0x3c, 0, 0, 0, 0x3c, 0, 0, 0,
        b'a', b'b', b'c', b'd', 7, 0, 8, 0, b'n', b'a', b'm', b'e', 0,
    ];
    let mut m: Sections = round_trip(&bytes);
    m.sections_order = Some(
        [
            "table",
            "table.small",
            "table.big",
            "ids",
            "name",
            "record.blob",
        ]
        .map(String::from)
        .to_vec(),
    );
    let out = write(&m);
    assert_eq!(&out[8..20], &[0x24, 0, 0, 0, 0x38, 0, 0, 0, 0x3c, 0, 0, 0]);
    assert_eq!((out[0x14], out[0x1c]), (0x41, 0x44));
    assert_eq!(&out[0x38..], b"\x07\x00\x08\x00name\x00abcd");
}

/// Items that a section declares (the table's arrays, as AINB's property table's) are members of the region too, and
/// the last one's length is where a section of the root starts (`_root.ids_ofs`): derived offsets named through
/// `_root`, and checked lengths.
#[test]
fn a_sections_own_items_end_where_the_next_section_starts() {
    use fs::sections::Sections;
    #[rustfmt::skip]
    let bytes = [
        b'S', b'E', b'C', b'T',
        0x01, 0, 0, 0,          // record_count
        0x1c, 0, 0, 0,          // table_ofs
        0x33, 0, 0, 0,          // ids_ofs
        0x35, 0, 0, 0,          // name_ofs
        0x37, 0, 0, 0, 0x02, 0, 0, 0, // record 0: blob at 0x37, 2 bytes
        0, 0, 0, 0, 0x28, 0, 0, 0, 0x2b, 0, 0, 0, // 0x1c: table: no values, small at 0x28, big at 0x2b
        1, 2, 3,                // 0x28: small
        4, 0, 0, 0, 5, 0, 0, 0, // 0x2b: big, up to the ids
        0x07, 0,                // 0x33: ids
        b'n', 0,                // 0x35: name
        b'x', b'y',             // 0x37: blob
    ];
    let mut m: Sections = round_trip(&bytes);
    let t = m.table.as_ref().unwrap();
    assert_eq!((&t.small[..], &t.big[..]), (&[1, 2, 3][..], &[4, 5][..]));
    assert_eq!(
        m.sections_order.as_deref(),
        Some(
            &[
                "table",
                "table.small",
                "table.big",
                "ids",
                "name",
                "record.blob"
            ]
            .map(String::from)[..]
        )
    );
    // One more big value: the ids, name and blob move; the lengths still read back.
    m.table.as_mut().unwrap().big.push(6);
    let out = write(&m);
    assert_eq!(&out[12..20], &[0x37, 0, 0, 0, 0x39, 0, 0, 0]);
    // The name and the blob (four bytes) between the big values and the ids would make the big values read back
    // longer: refused. (Fewer than four bytes would not change the count, and are written.)
    m.sections_order = Some(
        [
            "table",
            "table.small",
            "table.big",
            "name",
            "record.blob",
            "ids",
        ]
        .map(String::from)
        .to_vec(),
    );
    let e = m.to_binary_agreed().unwrap_err();
    assert!(e.to_string().contains("big"), "{e}");
}

/// An `nn::util` dictionary (`-resdic`): the nodes' reference bits and indices are derived from the keys, so a new
/// key needs no arithmetic; a file whose values differ from the ones the keys give keeps them.
#[test]
fn dictionary_nodes_are_derived_from_their_keys() {
    use binspec_runtime::layout::resdic::{build, lookup, ROOT_REF_BIT};
    use fs::resdic::{Node, Resdic};
    #[rustfmt::skip]
    let mut bytes = vec![
        b'_', b'D', b'I', b'C',
        0x03, 0, 0, 0,                                        // count: 3 keys
        0xff, 0xff, 0xff, 0xff, 0x01, 0x00, 0x00, 0x00, 0x38, 0, 0, 0, // root: all ones, left 1, right 0, ""
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x03, 0x00, 0x39, 0, 0, 0, // "a": bit 0, 2, 3
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x3b, 0, 0, 0, // "b": bit 1, 0, 2
        0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x03, 0x00, 0x3d, 0, 0, 0, // "c": bit 1, 1, 3
        0, b'a', 0, b'b', 0, b'c', 0,                         // 0x38: the keys
    ];
    let mut m: Resdic = round_trip(&bytes);
    // Every value is the one the keys give: none is kept.
    assert!(
        m.nodes
            .iter()
            .all(|n| n.ref_bit.is_none() && n.left.is_none() && n.right.is_none()),
        "{m:?}"
    );
    // A new key: the node by hand; its count (`count + 1` nodes) and the tree by the writer.
    m.nodes.push(Node {
        key: "d".into(),
        ..Default::default()
    });
    let out = write(&m);
    assert_eq!(&out[4..8], &[4, 0, 0, 0]);
    let keys = ["a", "b", "c", "d"];
    let want = build(&keys).unwrap();
    for (i, n) in want.iter().enumerate() {
        let at = 8 + 12 * i;
        assert_eq!(
            u32::from_le_bytes(out[at..at + 4].try_into().unwrap()),
            n.ref_bit,
            "node {i}"
        );
        assert_eq!(
            u16::from_le_bytes(out[at + 4..at + 6].try_into().unwrap()),
            n.left,
            "node {i}"
        );
        assert_eq!(
            u16::from_le_bytes(out[at + 6..at + 8].try_into().unwrap()),
            n.right,
            "node {i}"
        );
    }
    assert_eq!(want[0].ref_bit, ROOT_REF_BIT);
    assert_eq!(lookup(&want, &keys, b"d"), Some(3));
    // A root whose reference bit is not all ones (files rewritten by another tool) keeps it.
    bytes[8..12].copy_from_slice(&0xffffu32.to_le_bytes());
    let m: Resdic = round_trip(&bytes);
    assert_eq!(m.nodes[0].ref_bit, Some(0xffff));
    assert!(m.nodes[1..].iter().all(|n| n.ref_bit.is_none()));
    // Two equal keys make no dictionary: refused, naming the array.
    let mut m: Resdic = round_trip(&bytes);
    m.nodes[2].key = "a".into();
    let e = m.to_binary_agreed().unwrap_err();
    assert!(e.to_string().contains("nodes"), "{e}");
    // A file whose keys make no dictionary (two equal: crafted, or from a broken tool) keeps every node's values,
    // and is written back as it was; taking one away leaves nothing to derive it from: refused.
    let mut dup = bytes.clone();
    dup[0x3b] = b'a'; // "b" -> "a"
    let mut m: Resdic = round_trip(&dup);
    assert!(m
        .nodes
        .iter()
        .all(|n| n.ref_bit.is_some() && n.left.is_some() && n.right.is_some()));
    m.nodes[1].left = None;
    let e = m.to_binary_agreed().unwrap_err();
    assert!(e.to_string().contains("nodes"), "{e}");
}

/// Crafted: two sections at one offset (the tail is the inner section's name). The file is laid out anew: each
/// section gets bytes of its own, and what is written reads back as the same model.
#[test]
fn sections_sharing_bytes_are_laid_out_apart() {
    use fs::nested::Nested;
    #[rustfmt::skip]
    let bytes = [
        b'N', b'E', b'S', b'T',
        0x10, 0, 0, 0,          // inner_ofs
        0x0e, 0, 0, 0,          // inner_size
        0x18, 0, 0, 0,          // tail_ofs: inside the inner section, at its name
        b'I', b'N', b'N', b'R',
        0x08, 0, 0, 0,
        b'a', b'b', b'c', b'd', b'e', 0,
    ];
    let m = Nested::from_binary(&bytes).unwrap();
    assert_eq!((&*m.tail, &*m.inner.name), ("abcde", "abcde"));
    let out = write(&m);
    assert_ne!(&out[..], &bytes[..]);
    assert_eq!(
        &out[12..16],
        &[0x1e, 0, 0, 0],
        "the tail after the inner section"
    );
}

/// Bytes between sections that nothing describes (crafted, or a tool's padding that is not zeros) are kept with
/// the section after them, so the file is written back as it was instead of being laid out anew without them.
#[test]
fn bytes_between_sections_are_kept() {
    use fs::nested::Nested;
    #[rustfmt::skip]
    let bytes = [
        b'N', b'E', b'S', b'T',
        0x10, 0, 0, 0,          // inner_ofs
        0x0e, 0, 0, 0,          // inner_size
        0x21, 0, 0, 0,          // tail_ofs: after 3 bytes nothing describes
        b'I', b'N', b'N', b'R',
        0x08, 0, 0, 0,
        b'a', b'b', b'c', b'd', b'e', 0,
        b'X', b'Y', b'Z',       // 0x1e: not described
        b't', b'a', b'i', b'l', 0, // 0x21
    ];
    let mut m: Nested = round_trip(&bytes);
    assert_eq!(m.tail_gap.as_deref(), Some(&b"XYZ"[..]));
    // Zeros an alignment explains stay an alignment.
    let mut zeros = bytes;
    zeros[0x1e..0x21].fill(0);
    zeros[12] = 0x20;
    zeros[0x20..0x24].copy_from_slice(b"tail");
    zeros[0x24] = 0;
    let z: Nested = round_trip(&zeros[..0x25]);
    assert_eq!((z.tail_gap.as_deref(), z.tail_align), (None, Some(0x20)));
    // The kept bytes move with the tail when the inner section grows.
    m.inner.name = "abcdefgh".into();
    let out = write(&m);
    assert_eq!(&out[0x21..], b"XYZtail\0");
}

/// Bytes between two items of one group (the records' blobs) that nothing describes are kept with the item after
/// them, as bytes between sections are.
#[test]
fn bytes_between_items_of_a_group_are_kept() {
    use fs::sections::Sections;
    #[rustfmt::skip]
    let bytes = [
        b'S', b'E', b'C', b'T',
        0x02, 0, 0, 0,          // record_count
        0, 0, 0, 0,             // table_ofs: none
        0x2a, 0, 0, 0,          // ids_ofs
        0x2a, 0, 0, 0,          // name_ofs: no ids
        0x24, 0, 0, 0, 0x02, 0, 0, 0, // record 0: blob at 0x24, 2 bytes
        0x28, 0, 0, 0, 0x02, 0, 0, 0, // record 1: blob at 0x28, after 2 bytes nothing describes
        b'a', b'b', b'?', b'!', b'c', b'd', // 0x24
        b'n', 0,                // 0x2a: name
    ];
    let m: Sections = round_trip(&bytes);
    assert_eq!(m.records[1].blob_gap.as_deref(), Some(&b"?!"[..]));
    assert_eq!(m.records[0].blob_gap, None);
}
