//! `--schema FILE.ksy`: the CLI's `decode`, `encode`, `check` and `info` with a schema interpreted at once
//! (binspec-interp), end to end as a user types them, on good, edited and hostile input. The interpreter's
//! differential test against the generated code runs in the conformance crate (every passing Kaitai test).

use std::path::{Path, PathBuf};

use binspec_tests::run;

fn schema(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("feature_schemas")
        .join(name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Writes `text` as the schema `NAME.ksy` in `dir`: its path.
fn schema_in(dir: &Path, name: &str, text: &str) -> PathBuf {
    let sch = dir.join(format!("{name}.ksy"));
    std::fs::write(&sch, text).unwrap();
    sch
}

/// `switch.ksy`: kind 1 (a point), then two records of width 1 and 2.
const SWITCH_FILE: &[u8] = b"\x01\x01\x00\xfe\xff\x02\x01\x7f\x02\x34\x12";

/// `switch.ksy`'s file, decoded with `--schema` into a document beside it.
struct Decoded {
    sch: PathBuf,
    bin: PathBuf,
    doc: PathBuf,
    out: PathBuf,
    text: String,
}

fn decoded_switch(d: &Path) -> Decoded {
    let (bin, doc, out) = (d.join("a.bin"), d.join("a.yaml"), d.join("b.bin"));
    std::fs::write(&bin, SWITCH_FILE).unwrap();
    let sch = schema("switch.ksy");
    let r = run(&["--schema", s(&sch), "decode", s(&bin), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let text = std::fs::read_to_string(&doc).unwrap();
    Decoded {
        sch,
        bin,
        doc,
        out,
        text,
    }
}

/// A file of a feature schema decoded with `--schema`, and encoded back to the same bytes: the document's text,
/// for edits that [`Loop::encode`] writes back.
struct Loop {
    _dir: tempfile::TempDir,
    sch: PathBuf,
    doc: PathBuf,
    out: PathBuf,
    text: String,
}

/// Decodes `file` with feature schema `name`, encodes the document and checks that the bytes are the same.
fn round_trip(name: &str, file: &[u8]) -> Loop {
    let d = tempfile::tempdir().unwrap();
    let (bin, doc, out) = (
        d.path().join("a.bin"),
        d.path().join("a.yaml"),
        d.path().join("b.bin"),
    );
    let sch = schema(name);
    std::fs::write(&bin, file).unwrap();
    let r = run(&["--schema", s(&sch), "decode", s(&bin), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(&out).unwrap(), file, "{name}: encoded back");
    std::fs::remove_file(&out).unwrap();
    let text = std::fs::read_to_string(&doc).unwrap();
    Loop {
        _dir: d,
        sch,
        doc,
        out,
        text,
    }
}

impl Loop {
    /// Encodes `text` as the document: the bytes written, or the error.
    fn encode(&self, text: &str) -> Result<Vec<u8>, String> {
        std::fs::write(&self.doc, text).unwrap();
        let r = run(&[
            "--schema",
            s(&self.sch),
            "encode",
            s(&self.doc),
            "-o",
            s(&self.out),
        ]);
        match r.code {
            0 => {
                let b = std::fs::read(&self.out).unwrap();
                std::fs::remove_file(&self.out).unwrap();
                Ok(b)
            }
            1 => {
                assert!(!self.out.exists(), "a refused encode leaves no file");
                Err(r.err)
            }
            c => panic!("exit code {c}: {}", r.err),
        }
    }

    /// Encodes `text`, which must be refused with an error that says each of `says`.
    fn refused(&self, text: &str, says: &[&str]) {
        let e = self.encode(text).expect_err("refused");
        assert!(says.iter().all(|w| e.contains(w)), "{e}");
    }
}

#[test]
fn decode_edit_encode_with_a_schema() {
    let d = tempfile::tempdir().unwrap();
    let Decoded {
        sch,
        bin,
        doc,
        out,
        text,
    } = decoded_switch(d.path());
    assert!(text.starts_with("# binspec-schema: "), "{text}");
    assert!(
        text.contains("point:") && text.contains("u2: 4660"),
        "{text}"
    );
    // Unedited, the document writes the file back.
    let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(&out).unwrap(), SWITCH_FILE);
    // Edited: a third record; the count is derived.
    let edited = text.replace(
        "    u2: 4660\n",
        "    u2: 4660\n- width: 4\n  value:\n    u4: 305419896\n",
    );
    assert_ne!(edited, text);
    std::fs::write(&doc, &edited).unwrap();
    let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let mut want = SWITCH_FILE.to_vec();
    want[5] = 3;
    want.extend_from_slice(b"\x04\x78\x56\x34\x12");
    assert_eq!(std::fs::read(&out).unwrap(), want);
    // JSON too.
    let json = d.path().join("a.json");
    let r = run(&[
        "--schema",
        s(&sch),
        "decode",
        s(&bin),
        "--json",
        "-o",
        s(&json),
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let r = run(&["--schema", s(&sch), "encode", s(&json), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(&out).unwrap(), SWITCH_FILE);
    // check and info.
    let r = run(&["--schema", s(&sch), "check", s(&bin)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("1 identical"), "{}", r.out);
    let r = run(&["--schema", s(&sch), "info", s(&bin)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("format: switch"), "{}", r.out);
}

#[test]
fn a_case_that_does_not_match_its_tag_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let Decoded {
        sch,
        bin: _,
        doc,
        out,
        text,
    } = decoded_switch(d.path());
    // Width 2 with a u4 value: the writer does not guess which one the user meant.
    std::fs::write(&doc, text.replace("u2: 4660", "u4: 4660")).unwrap();
    let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains("records[1].value") && r.err.contains("chooses case 'u2'"),
        "{}",
        r.err
    );
    assert!(!out.exists(), "a failed encode leaves no file");
    // A value that does not fit its field.
    std::fs::write(&doc, text.replace("u2: 4660", "u2: 70000")).unwrap();
    let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("70000 does not fit"), "{}", r.err);
    // An unknown field, with the fields there are.
    std::fs::write(&doc, text.replace("kind: 1", "kind: 1\nkindd: 2")).unwrap();
    let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("unknown field 'kindd'"), "{}", r.err);
}

#[test]
fn bad_input_names_the_field_the_offset_and_the_schema_position() {
    let d = tempfile::tempdir().unwrap();
    let bin = d.path().join("a.bin");
    let sch = schema("switch.ksy");
    // Truncated in the second record's value.
    std::fs::write(&bin, &SWITCH_FILE[..10]).unwrap();
    let r = run(&["--schema", s(&sch), "decode", s(&bin)]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("records[1].value"), "{}", r.err);
    assert!(r.err.contains("0x9"), "{}", r.err);
    assert!(r.err.contains("switch.ksy:46:"), "{}", r.err);
    // A huge count allocates nothing: the input cannot hold it.
    std::fs::write(&bin, b"\x02abc\x00\xff").unwrap();
    let r = run(&["--schema", s(&sch), "decode", s(&bin)]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("records"), "{}", r.err);
    // Every truncation of the file is an error, never a panic.
    for n in 0..SWITCH_FILE.len() {
        std::fs::write(&bin, &SWITCH_FILE[..n]).unwrap();
        let r = run(&["--schema", s(&sch), "decode", s(&bin)]);
        assert_eq!(r.code, 1, "{n} bytes: {}", r.err);
    }
}

/// An instance's error names it once (`entries[1].body`, not `entries[1].body.body`); and the late reads of
/// `late_reads.ksy` (an entry's body ends at the next entry's offset) decode, edit and encode with `--schema`.
#[test]
fn instances_read_late_by_the_cli() {
    let d = tempfile::tempdir().unwrap();
    let (bin, doc, out) = (
        d.path().join("a.bin"),
        d.path().join("a.yaml"),
        d.path().join("b.bin"),
    );
    let sch = schema("late_reads.ksy");
    std::fs::write(&bin, [0x2a, 2, 5, 7, 10, b'a', b'b', b'c', b'd', b'e']).unwrap();
    let r = run(&["--schema", s(&sch), "decode", s(&bin), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let text = std::fs::read_to_string(&doc).unwrap();
    // The second body, "cde", becomes "xyz" (same length: the offsets are data).
    assert!(text.contains("Y2Rl"), "{text}");
    std::fs::write(&doc, text.replace("Y2Rl", "eHl6")).unwrap();
    let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        [0x2a, 2, 5, 7, 10, b'a', b'b', b'x', b'y', b'z']
    );
    // Offsets out of order: the second body would end before it starts.
    std::fs::write(&bin, [0x2a, 2, 5, 7, 6, b'a', b'b', b'c', b'd', b'e']).unwrap();
    let r = run(&["--schema", s(&sch), "decode", s(&bin)]);
    assert_eq!(r.code, 1);
    assert!(
        r.err
            .contains("entries[1].body: at offset 0x7: negative size"),
        "{}",
        r.err
    );
}

/// `outer_args.ksy` (a record's body is as long as an argument of its parent's other record, `_parent.chunks[i].len`,
/// and a value instance of it) decodes, edits and encodes with `--schema`, and a body that no longer fits is an error.
#[test]
fn outer_records_arguments_by_the_cli() {
    let file = [
        1, 2, 3, 1, 0xa0, 0xb0, 0xb1, 0xb2, 0xc0, 0xc1, 0xd0, 0xd1, 0xd2, 0xd3, 2, 0x10, 0x11,
        0x20, 0x21,
    ];
    let l = round_trip("outer_args.ksy", &file);
    // user 1's `more` (lens[2] + bias = 4 bytes) "\xd0\xd1\xd2\xd3" becomes "abcd".
    assert!(l.text.contains("more: 0NHS0w=="), "{}", l.text);
    let mut want = file;
    want[10..14].copy_from_slice(b"abcd");
    assert_eq!(
        l.encode(&l.text.replace("0NHS0w==", "YWJjZA==")).unwrap(),
        want
    );
    // Kind 1 passes `has_addend: false` to the relocations (a parameter of their parent): their addends would not
    // read back.
    l.refused(&l.text.replace("kind: 2", "kind: 1"), &["addend"]);
    // Five bytes do not fit.
    l.refused(&l.text.replace("0NHS0w==", "YWJjZGU="), &["users[1].more"]);
}

/// `exact_slots.ksy`: a sized string without a terminator or padding, edited shorter in the text, is refused by
/// `encode --schema` (it would read back padded), naming the field; one with padding is written.
#[test]
fn a_shorter_value_of_an_exact_slot_is_refused_by_the_cli() {
    let l = round_trip("exact_slots.ksy", b"abcd\x01\x02\x03x   y\0\0\0");
    assert!(l.text.contains("name: abcd"), "{}", l.text);
    l.refused(
        &l.text.replace("name: abcd", "name: abc"),
        &["name", "3 bytes"],
    );
    assert_eq!(
        l.encode(&l.text.replace("padded: x", "padded: ''"))
            .unwrap(),
        b"abcd\x01\x02\x03    y\0\0\0"
    );
}

/// `param_io.ksy`: a record read from the bytes of a parameter (`io: header_with_io._io`) decodes and encodes
/// with `--schema`; an item more than the header's count, or a tail of the other width, is refused (the writer
/// reads the header again from the parameter), and so is an element more than a constant count.
#[test]
fn counts_are_checked_by_the_cli_even_where_a_parameters_bytes_give_them() {
    let l = round_trip("param_io.ksy", &[2, 0x80, 10, 11, 1, 2]);
    l.refused(&l.text.replace("- 11", "- 11\n  - 12"), &["body.items"]);
    l.refused(&l.text.replace("u2: 513", "u1: 5"), &["body.tail"]);
    // A constant count (`repeat: expr` with `repeat-expr: 3`): a fourth element is refused.
    let file = b"\x01\x00\x02\x00\x03\x00\x01\x07\x05\x00end\x00\x09\x00\x01\x04\xfc";
    let l = round_trip("repeat.ksy", file);
    assert!(l.text.contains("fixed:\n- 1\n- 2\n- 3\n"), "{}", l.text);
    l.refused(
        &l.text.replace("- 3\n", "- 3\n- 4\n"),
        &["fixed", "4 elements"],
    );
}

/// `slot_views.ksy`: an entry's body read from a slot the model keeps (`io: _parent.storage._io`) gives the
/// payload's length, with `--schema`: the file encodes back the same, a longer payload is refused, and an edit of
/// the slot's bytes that makes the body say so lets it be written.
#[test]
fn a_view_of_a_kept_slot_by_the_cli() {
    let l = round_trip(
        "slot_views.ksy",
        &[2, 4, 1, 0, 2, 1, 3, 7, 0, 0, 0xaa, 0xbb, 0xcc],
    );
    assert!(
        l.text.contains("storage_filler: AwcAAA==") && l.text.contains("payload: qrvM"),
        "{}",
        l.text
    );
    let longer = l.text.replace("payload: qrvM", "payload: qrvMzA==");
    l.refused(&longer, &["payload"]);
    // The slot's first byte 4: the body says 4 bytes.
    assert_eq!(
        l.encode(&longer.replace("AwcAAA==", "BAcAAA==")).unwrap(),
        [2, 4, 1, 0, 2, 1, 4, 7, 0, 0, 0xaa, 0xbb, 0xcc, 0xcc]
    );
}

/// `saved_positions.ksy`: value instances that capture the stream's position where first named (Kaitai's
/// `size: 0`, `if: ofs_b < 0` idiom) hold it in `encode --schema` too: the file encodes back the same, a longer
/// `b` needs a longer tail, and a longer `a` moves the positions.
#[test]
fn saved_positions_by_the_cli() {
    let l = round_trip("saved_positions.ksy", b"\x02xyhi\0ABC");
    assert!(
        l.text.contains("b: hi") && l.text.contains("tail: QUJD"),
        "{}",
        l.text
    );
    l.refused(&l.text.replace("b: hi", "b: hey"), &["tail"]);
    // "xyz" is eHl6; "ABCD" is QUJDRA==.
    let edited = l
        .text
        .replace("b: hi", "b: hey")
        .replace("QUJD", "QUJDRA==")
        .replace("a: eHk=", "a: eHl6");
    assert_eq!(l.encode(&edited).unwrap(), b"\x03xyzhey\0ABCD");
}

/// `pool_records.ksy`: pool items that are records and arrays decode and encode with `--schema`, and an edit
/// that makes a name and an array longer moves the items, their offsets and the array's count as the generated
/// writer does (the same bytes as `tests/feature_crate/tests/pool_records.rs`).
#[test]
fn records_and_arrays_in_a_pool_by_the_cli() {
    let l = round_trip(
        "pool_records.ksy",
        &[
            2, 12, 0, 16, 0, 3, 24, 0, 32, 0, 1, 0, 1, 97, 98, 0, 1, 0, 2, 0, 3, 0, 0, 0, 2, 120,
            121, 122, 0, 0, 0, 0, 7, 0,
        ],
    );
    let edited = l
        .text
        .replace("name: ab\n", "name: abcdef\n")
        .replace("  - 3\n", "  - 3\n  - 4\n");
    assert_ne!(edited, l.text);
    assert_eq!(
        l.encode(&edited).unwrap(),
        [
            2, 12, 0, 20, 0, 4, 28, 0, 36, 0, 1, 0, 1, 97, 98, 99, 100, 101, 102, 0, 1, 0, 2, 0, 3,
            0, 4, 0, 2, 120, 121, 122, 0, 0, 0, 0, 7, 0,
        ]
    );
    // Entry 0's info at offset 0, in the header: the file is laid out anew when written, so it is read as what the
    // writer makes of it, as the generated reader reads it (no `vals_align: 16` from where the values were).
    let bin = l._dir.path().join("relaid.bin");
    let file = [
        2, 0, 0, 16, 0, 3, 24, 0, 32, 0, 1, 0, 1, 97, 98, 0, 1, 0, 2, 0, 3, 0, 0, 0, 2, 120, 121,
        122, 0, 0, 0, 0, 7, 0,
    ];
    std::fs::write(&bin, file).unwrap();
    let r = run(&["--schema", s(&l.sch), "decode", s(&bin)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("name: ''") || r.out.contains("name: \"\""),
        "{}",
        r.out
    );
    assert!(!r.out.contains("align"), "{}", r.out);
}

/// An `nn::util` dictionary through `binspec --schema`: its reference bits and indices are not in the text (the
/// keys give them); a key added in the text is written with the tree the runtime builds, and found by a walk.
#[test]
fn a_dictionary_edited_by_the_cli() {
    use binspec_runtime::layout::resdic::{build, lookup, Node};
    #[rustfmt::skip]
    let file = [
        b'_', b'D', b'I', b'C', 3, 0, 0, 0,
        0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0, 0x38, 0, 0, 0,
        0, 0, 0, 0, 2, 0, 3, 0, 0x39, 0, 0, 0,
        1, 0, 0, 0, 0, 0, 2, 0, 0x3b, 0, 0, 0,
        1, 0, 0, 0, 1, 0, 3, 0, 0x3d, 0, 0, 0,
        0, b'a', 0, b'b', 0, b'c', 0,
    ];
    let l = round_trip("resdic.ksy", &file);
    assert_eq!(
        l.text
            .lines()
            .filter(|x| !x.starts_with('#'))
            .collect::<Vec<_>>(),
        ["nodes:", "- key: \"\"", "- key: a", "- key: b", "- key: c"]
    );
    // (The nodes are the document's only field.)
    let edited = format!("{}- key: d\n", l.text);
    let out = l.encode(&edited).unwrap();
    assert_eq!(&out[4..8], &[4, 0, 0, 0]);
    let keys = ["a", "b", "c", "d"];
    let nodes: Vec<Node> = (0..5)
        .map(|i| {
            let b = &out[8 + 12 * i..];
            Node {
                ref_bit: u32::from_le_bytes(b[..4].try_into().unwrap()),
                left: u16::from_le_bytes(b[4..6].try_into().unwrap()),
                right: u16::from_le_bytes(b[6..8].try_into().unwrap()),
            }
        })
        .collect();
    assert_eq!(nodes, build(&keys).unwrap());
    for (k, key) in keys.iter().enumerate() {
        assert_eq!(lookup(&nodes, &keys, key.as_bytes()), Some(k), "{key}");
    }
}

/// A region's sections in the file's order (not the declared one), with items of another type among them: the
/// order is kept in the text; edited there, the file is laid out in the new order with every offset derived; an
/// order that would make a length read back otherwise is refused.
#[test]
fn sections_in_the_files_order_by_the_cli() {
    #[rustfmt::skip]
    let file = [
        b'S', b'E', b'C', b'T', 2, 0, 0, 0,
        0x24, 0, 0, 0, 0x3c, 0, 0, 0, 0x40, 0, 0, 0, // table, ids and name offsets
        0x38, 0, 0, 0, 3, 0, 0, 0, 0x3b, 0, 0, 0, 1, 0, 0, 0, // the records' blobs
        2, 0, 0, 0, 0x0a, 0, 0, 0, 0x0b, 0, 0, 0, 0x3c, 0, 0, 0, 0x3c, 0, 0, 0, // the table
        b'a', b'b', b'c', b'd', 7, 0, 8, 0, b'n', b'a', b'm', b'e', 0,
    ];
    let l = round_trip("sections.ksy", &file);
    let order =
        "sections_order:\n- table\n- record.blob\n- table.small\n- table.big\n- ids\n- name\n";
    assert!(l.text.contains(order), "{}", l.text);
    // The blobs moved to the end: table at 0x24 (0x14 bytes), its empty arrays and the ids at 0x38, the name at
    // 0x3c, the blobs at 0x41 and 0x44.
    let moved =
        "sections_order:\n- table\n- table.small\n- table.big\n- ids\n- name\n- record.blob\n";
    let out = l.encode(&l.text.replace(order, moved)).unwrap();
    assert_eq!(&out[8..20], &[0x24, 0, 0, 0, 0x38, 0, 0, 0, 0x3c, 0, 0, 0]);
    assert_eq!(&out[0x14..0x18], &[0x41, 0, 0, 0]);
    assert_eq!(&out[0x1c..0x20], &[0x44, 0, 0, 0]);
    assert_eq!(&out[0x30..0x38], &[0x38, 0, 0, 0, 0x38, 0, 0, 0]);
    assert_eq!(&out[0x38..], b"\x07\x00\x08\x00name\x00abcd");
    // The ids' length is where the name starts: a blob between them would make it read back otherwise.
    let bad =
        "sections_order:\n- table\n- table.small\n- table.big\n- ids\n- record.blob\n- name\n";
    l.refused(
        &l.text.replace(order, bad),
        &["ids", "the file would read back otherwise"],
    );
    // A name that is no member.
    let unknown = order.replace("- name\n", "- nmae\n");
    l.refused(
        &l.text.replace(order, &unknown),
        &["sections_order", "'nmae' is not a section"],
    );
}

/// Ranges of a shared table out of their groups' order (`keep-order`): the order is kept in the text; taken out
/// there, the ranges go in group order; an order that does not name each range once is refused.
#[test]
fn ranges_in_a_kept_order_by_the_cli() {
    #[rustfmt::skip]
    let file = [
        b'O', b'R', b'D', b'R', 3,
        1, 2, 0, 0, 0, 1, // groups: two values at 1, none at 0, one at 0
        3, 9, 0, 1, 0, 2, 0,
    ];
    let l = round_trip("ordered_ranges.ksy", &file);
    let kept = "values_item_order:\n- 1\n- 0\n";
    assert!(l.text.contains(kept), "{}", l.text);
    let out = l.encode(&l.text.replace(kept, "")).unwrap();
    assert_eq!(
        out,
        [b'O', b'R', b'D', b'R', 3, 0, 2, 0, 0, 2, 1, 3, 1, 0, 2, 0, 9, 0]
    );
    l.refused(
        &l.text.replace(kept, "values_item_order:\n- 1\n- 1\n"),
        &[
            "values_item_order",
            "does not name each of the 2 non-empty items once",
        ],
    );
    // Hostile orders: an index past every item, a negative one, and something that is not a list are refused
    // with the field's name, never a panic.
    for (bad, says) in [
        (
            "values_item_order:\n- 4294967295\n- 0\n",
            "does not name each",
        ),
        ("values_item_order:\n- -1\n- 0\n", "out of range"),
        ("values_item_order: 7\n", "expected a list"),
    ] {
        l.refused(&l.text.replace(kept, bad), &["values_item_order", says]);
    }
}

/// AINB through `binspec --schema schemas/ainb.ksy`: a new file name, edited in the text, is added to the string
/// pool once and every offset moves with it; the generated writer makes the same bytes of the same edit.
#[test]
fn an_ainb_edited_by_the_cli_as_the_generated_writer_writes_it() {
    use binspec_formats::Format;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (sch, file) = (
        root.join("schemas/ainb.ksy"),
        root.join("tests/fixtures/ainb/patrol_v407.ainb"),
    );
    let d = tempfile::tempdir().unwrap();
    let (doc, out) = (d.path().join("a.yaml"), d.path().join("b.ainb"));
    let r = run(&["--schema", s(&sch), "decode", s(&file), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let text = std::fs::read_to_string(&doc).unwrap();
    let edited = text.replacen(
        "file_name: patrol_v407\n",
        "file_name: patrol_renamed_by_binspec\n",
        1,
    );
    assert_ne!(edited, text);
    std::fs::write(&doc, edited).unwrap();
    let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let written = std::fs::read(&out).unwrap();
    let back = binspec_formats::ainb::raw::Ainb::from_binary(&written).unwrap();
    assert_eq!(back.file_name, "patrol_renamed_by_binspec");
    let mut m =
        binspec_formats::ainb::raw::Ainb::from_binary(&std::fs::read(&file).unwrap()).unwrap();
    m.file_name = "patrol_renamed_by_binspec".into();
    assert!(
        m.to_binary().unwrap() == written,
        "the generated writer writes the edit otherwise"
    );
}

#[test]
fn schema_errors_and_usage() {
    let d = tempfile::tempdir().unwrap();
    let bin = d.path().join("a.bin");
    std::fs::write(&bin, SWITCH_FILE).unwrap();
    let bad = d.path().join("bad.ksy");
    std::fs::write(&bad, "meta:\n  id: bad\nseq:\n  - id: x\n    type: u9\n").unwrap();
    let r = run(&["--schema", s(&bad), "decode", s(&bin)]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("bad.ksy:5:"), "{}", r.err);
    let sch = schema("switch.ksy");
    let r = run(&["--schema", s(&sch), "--format", "sarc", "decode", s(&bin)]);
    assert_eq!(r.code, 2, "{}", r.err);
    let r = run(&["--schema", s(&sch), "formats"]);
    assert_eq!(r.code, 2, "{}", r.err);
    // What the interpreter does not do (a custom process, hand-written Rust) is named, with where the schema
    // asks for it.
    let custom = d.path().join("custom.ksy");
    std::fs::write(
        &custom,
        "meta:\n  id: custom\nseq:\n  - id: x\n    size: 2\n    process: my_proc(3)\n",
    )
    .unwrap();
    let r = run(&["--schema", s(&custom), "decode", s(&bin)]);
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains("does not support custom processes") && r.err.contains("custom.ksy:4:5"),
        "{}",
        r.err
    );
}

/// Every feature schema whose features the interpreter has: a file the generated code would read (made by
/// encoding the document the interpreter reads from zeros) round-trips through the CLI.
#[test]
fn enums_bits_and_repetitions() {
    let d = tempfile::tempdir().unwrap();
    let bin = d.path().join("e.bin");
    let (doc, out) = (d.path().join("e.yaml"), d.path().join("f.bin"));
    // enums.ksy: kind 2 (big: big_only present), color 0x20, level 7 / unused 0, big_only, tail, history.
    let file = b"\x02\x20\x00\x70\x01\x00\x00\x00\x01\x02\x09";
    std::fs::write(&bin, file).unwrap();
    let sch = schema("enums.ksy");
    let r = run(&["--schema", s(&sch), "decode", s(&bin), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let text = std::fs::read_to_string(&doc).unwrap();
    assert!(
        text.contains("kind: big") && text.contains("color: green") && text.contains("- 9"),
        "{text}"
    );
    let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(&out).unwrap(), file);
}

/// The loop a user runs with a built-in format's schema, on every fixture of the formats the interpreter has:
/// `--schema S decode F -o D`, `--schema S encode D -o G`, G equal to F (YAML and JSON documents).
#[test]
fn built_in_schemas_decode_and_encode_every_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let d = tempfile::tempdir().unwrap();
    let mut n = 0;
    for (id, dir) in [
        ("sarc", "sarc"),
        ("byml", "byml"),
        ("rsizetable", "rsizetable"),
        ("panim_pluto", "panim_pluto"),
        ("ainb", "ainb"),
    ] {
        let sch = root.join("schemas").join(format!("{id}.ksy"));
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("tests/fixtures").join(dir))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy().to_string();
                !name.ends_with(".yml") && !name.ends_with(".json") && !name.ends_with(".md")
            })
            .collect();
        files.sort();
        for f in files {
            for json in [false, true] {
                let doc = d.path().join(if json { "d.json" } else { "d.yaml" });
                let out = d.path().join("out.bin");
                let mut args = vec![
                    "--schema",
                    s(&sch),
                    "decode",
                    s(&f),
                    "-o",
                    s(&doc),
                    "--force",
                ];
                if json {
                    args.push("--json");
                }
                let r = run(&args);
                assert_eq!(r.code, 0, "{}: {}", f.display(), r.err);
                let r = run(&[
                    "--schema",
                    s(&sch),
                    "encode",
                    s(&doc),
                    "-o",
                    s(&out),
                    "--force",
                ]);
                assert_eq!(r.code, 0, "{}: {}", f.display(), r.err);
                // A compressed fixture is read decompressed and written as it is.
                let (want, _) =
                    binspec_runtime::Packing::unpack(&std::fs::read(&f).unwrap()).unwrap();
                assert!(
                    std::fs::read(&out).unwrap() == want,
                    "{} ({})",
                    f.display(),
                    if json { "JSON" } else { "YAML" }
                );
                n += 1;
            }
        }
    }
    assert!(n > 100, "{n} runs");
}

/// A string pool's strings, edited in the text of an AINB file: one that holds the pool's terminator is refused
/// with its index (it would read back cut short), and a pool that is not a list of strings is refused.
#[test]
fn a_string_pool_edited_badly_is_refused_by_the_cli() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let sch = root.join("schemas/ainb.ksy");
    let d = tempfile::tempdir().unwrap();
    let (bin, doc, out) = (
        root.join("tests/fixtures/ainb/patrol_v407.ainb"),
        d.path().join("a.yaml"),
        d.path().join("b.ainb"),
    );
    let r = run(&["--schema", s(&sch), "decode", s(&bin), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let text = std::fs::read_to_string(&doc).unwrap();
    let encode = |t: &str| {
        std::fs::write(&doc, t).unwrap();
        let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
        assert!(!out.exists(), "a refused encode leaves no file");
        r
    };
    let first = "string_pool:\n  strings:\n  - patrol_v407\n";
    assert!(text.contains(first), "{text}");
    let r = encode(&text.replace(first, "string_pool:\n  strings:\n  - \"patrol\\0v407\"\n"));
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains("strings") && r.err.contains("terminator"),
        "{}",
        r.err
    );
    // The whole list replaced by a number.
    let at = text.find(first).unwrap();
    let rest: Vec<&str> = text[at + "string_pool:\n  strings:\n".len()..]
        .lines()
        .skip_while(|x| x.starts_with("  - "))
        .collect();
    let r = encode(&format!(
        "{}string_pool:\n  strings: 3\n{}\n",
        &text[..at],
        rest.join("\n")
    ));
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.contains("strings") && r.err.contains("expected a list of strings"),
        "{}",
        r.err
    );
}

/// The AINB files of the shared corpus (Nintendo's and ones another writer made) through `binspec --schema
/// schemas/ainb.ksy`: decoded to text and encoded back byte for byte. Skipped with a message without the corpus.
#[test]
fn corpus_ainb_files_decode_and_encode_by_the_cli() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let corpus = root.join("../shared/corpus");
    if !corpus.is_dir() {
        eprintln!("skipped: ../shared/corpus is absent");
        return;
    }
    let sch = root.join("schemas/ainb.ksy");
    let d = tempfile::tempdir().unwrap();
    let (doc, out) = (d.path().join("d.yaml"), d.path().join("out.ainb"));
    let mut n = 0;
    for dir in ["real/ainb", "oracle/ainb"] {
        for f in binspec_tests::files_under(&corpus.join(dir)) {
            if f.extension().is_none_or(|x| x != "ainb") {
                continue;
            }
            let r = run(&[
                "--schema",
                s(&sch),
                "decode",
                s(&f),
                "-o",
                s(&doc),
                "--force",
            ]);
            assert_eq!(r.code, 0, "{}: {}", f.display(), r.err);
            let r = run(&[
                "--schema",
                s(&sch),
                "encode",
                s(&doc),
                "-o",
                s(&out),
                "--force",
            ]);
            assert_eq!(r.code, 0, "{}: {}", f.display(), r.err);
            assert!(
                std::fs::read(&out).unwrap() == std::fs::read(&f).unwrap(),
                "{}: encoded back otherwise",
                f.display()
            );
            n += 1;
        }
    }
    eprintln!("{n} corpus AINB files decoded and encoded back by binspec --schema");
    assert!(n > 0, "no AINB file in the corpus");
}

/// Hostile nesting: a record that holds itself, nested 100,000 deep, is an error naming the limit, not a stack
/// overflow; nested 200 deep it reads and writes back (the interpreter's frames are large in a debug build, so it
/// runs on a stack of its own).
#[test]
fn deep_nesting_is_bounded() {
    let mut ok = vec![1u8; 200];
    ok.push(0);
    refuses_then_reads(
        "deep",
        "meta:\n  id: deep\nseq:\n  - id: root\n    type: node\ntypes:\n  node:\n    seq:\n      - id: more\n        \
         type: u1\n      - id: child\n        type: node\n        if: more != 0\n",
        &[1u8; 100_000],
        "deeper than",
        &ok,
    );
}

/// Hostile counts: 268 million records of no bytes each are refused before they take memory out of proportion
/// to the 4-byte input (they once exhausted the memory); a few are fine.
#[test]
fn records_of_no_bytes_are_bounded() {
    refuses_then_reads(
        "zero",
        "meta:\n  id: zero\n  endian: le\nseq:\n  - id: n\n    type: u4\n  - id: items\n    type: empty\n    \
         repeat: expr\n    repeat-expr: n\ntypes:\n  empty: {}\n",
        &0x0fff_ffffu32.to_le_bytes(),
        "more than",
        &3u32.to_le_bytes(),
    );
}

/// A number written as text that is not one, or a division by zero, is an error naming it, not a made-up 0
/// (Kaitai's `ConversionError` and `ZeroDivisionError`).
#[test]
fn failing_expressions_are_errors() {
    refuses_then_reads(
        "texts",
        "meta:\n  id: texts\nseq:\n  - id: n\n    type: str\n    size: 2\n    encoding: ASCII\n  - id: data\n    \
         size: n.to_i(16)\n",
        b"x1ab",
        "\"x1\" is not an integer in base 16",
        b"02ab",
    );
    refuses_then_reads(
        "quotient",
        "meta:\n  id: quotient\nseq:\n  - id: n\n    type: u1\n  - id: data\n    size: 12 / n\n",
        b"\x00abc",
        "12 / 0: division by zero",
        b"\x04abc",
    );
}

/// A schema written to a file of its own, and what `--schema S decode` says of `bad` (refused, the message holding
/// `says`) and `--schema S check` of `good` (read and written back).
fn refuses_then_reads(name: &str, schema: &str, bad: &[u8], says: &str, good: &[u8]) {
    let d = tempfile::tempdir().unwrap();
    let sch = schema_in(d.path(), name, schema);
    let bin = d.path().join("f.bin");
    std::fs::write(&bin, bad).unwrap();
    let r = run(&["--schema", s(&sch), "decode", s(&bin)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.err.contains(says), "{}", r.err);
    std::fs::write(&bin, good).unwrap();
    let r = run(&["--schema", s(&sch), "check", s(&bin)]);
    assert_eq!(r.code, 0, "{}", r.err);
}

/// A hostile document: an instance placed 4 GiB into the file is refused, not written as gigabytes of zeros.
#[test]
fn far_positions_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let sch = schema_in(
        d.path(),
        "far",
        "meta:\n  id: far\n  endian: le\nseq:\n  - id: ofs\n    type: u4\ninstances:\n  body:\n    pos: ofs\n    \
         type: u1\n",
    );
    let doc = d.path().join("far.yaml");
    let out = d.path().join("far.bin");
    std::fs::write(&doc, "ofs: 4294967295\nbody: 7\n").unwrap();
    let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.contains("bytes past what is written before it"),
        "{}",
        r.err
    );
    assert!(!out.exists());
    std::fs::write(&doc, "ofs: 8\nbody: 7\n").unwrap();
    let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(&out).unwrap(), [8, 0, 0, 0, 0, 0, 0, 0, 7]);
}

/// A record read with `parent: false` has no parent, but still the file's root (as in Kaitai, and in the
/// generated code, which passes `_root` values down whatever the parent).
#[test]
fn parent_false_keeps_the_root() {
    let d = tempfile::tempdir().unwrap();
    let sch = schema_in(
        d.path(),
        "rootp",
        "meta:\n  id: rootp\nseq:\n  - id: n\n    type: u1\n  - id: c\n    type: child\n    parent: false\n\
         types:\n  child:\n    seq:\n      - id: data\n        size: _root.n\n",
    );
    let bin = d.path().join("r.bin");
    std::fs::write(&bin, b"\x02ab").unwrap();
    let r = run(&["--schema", s(&sch), "decode", s(&bin), "--json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("\"data\": \"YWI=\""), "{}", r.out);
    let r = run(&["--schema", s(&sch), "check", s(&bin)]);
    assert_eq!(r.code, 0, "{}", r.err);
}

/// `record_lengths.ksy`: a record's slot size is derived from what is written of it, and the bytes after what it
/// reads are kept (`body_filler`), by the interpreter as by the generated code (`feature_crate/tests`).
#[test]
fn record_lengths_are_derived() {
    let d = tempfile::tempdir().unwrap();
    let sch = schema("record_lengths.ksy");
    let (bin, doc, out) = (
        d.path().join("r.bin"),
        d.path().join("r.yaml"),
        d.path().join("o.bin"),
    );
    let file = [
        &[4, 1, 0, 2, 0, 7, 0, 0, 9, 2, 6, 0][..],
        b"ab\0xyz",
        &[9, 2, 0],
        b"hi",
    ]
    .concat();
    std::fs::write(&bin, &file).unwrap();
    let r = run(&["--schema", s(&sch), "decode", s(&bin), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let text = std::fs::read_to_string(&doc).unwrap();
    assert!(
        text.contains("body_filler: eHl6") && !text.contains("len:"),
        "{text}"
    );
    // (A fixed-size record keeps what it does not read where it is not zeros: 00 00 09.)
    assert!(text.contains("fixed_filler: AAAJ"), "{text}");
    std::fs::write(&doc, text.replace("text: ab\n", "text: abcdef\n")).unwrap();
    let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let want = [
        &[4, 1, 0, 2, 0, 7, 0, 0, 9, 2, 10, 0][..],
        b"abcdef\0xyz",
        &[9, 2, 0],
        b"hi",
    ]
    .concat();
    assert_eq!(std::fs::read(&out).unwrap(), want);
}

/// `check --schema` on a folder: only the files with the schema's extension; one whose bytes differ but read back
/// as the same document (zlib data compressed again otherwise) is told apart from one that fails, and either makes
/// the command fail.
#[test]
fn check_tells_a_file_that_reads_back_the_same_from_a_failure() {
    let d = tempfile::tempdir().unwrap();
    let sch = schema_in(
        d.path(),
        "z",
        "meta:\n  id: z\n  file-extension: z\nseq:\n  - id: body\n    size-eos: true\n    process: zlib\n",
    );
    let files = d.path().join("files");
    std::fs::create_dir(&files).unwrap();
    // "hello hello hello", zlib level 0 (a stored block): binspec compresses it otherwise.
    #[rustfmt::skip]
    let stored: &[u8] = &[
        0x78, 0x01, 0x01, 0x11, 0x00, 0xee, 0xff, b'h', b'e', b'l', b'l', b'o', b' ', b'h', b'e', b'l', b'l', b'o',
        b' ', b'h', b'e', b'l', b'l', b'o', 0x3a, 0x2e, 0x06, 0x7d,
    ];
    std::fs::write(files.join("a.z"), stored).unwrap();
    std::fs::write(files.join("b.z"), b"not zlib").unwrap();
    std::fs::write(files.join("notes.txt"), b"not checked").unwrap();
    let r = run(&["--schema", s(&sch), "check", s(&files)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.out.contains("a.z: differs at offset")
            && r.out.contains("reads back as the same document"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("FAILED") && r.out.contains("b.z: decode"),
        "{}",
        r.out
    );
    assert!(!r.out.contains("notes.txt"), "{}", r.out);
    assert!(
        r.out.contains(
            "2 files: 0 identical, 1 differ (reading back as the same document), 1 failed; 1 skipped in folders (not .z)"
        ),
        "{}",
        r.out
    );
    // Named on the command line, a file is checked whatever its name.
    let r = run(&["--schema", s(&sch), "check", s(&files.join("notes.txt"))]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.out.contains("notes.txt: decode"), "{}", r.out);
}

/// Bytes after what the schema reads are not in the document: `decode` writes it and warns that encoding it gives
/// another file, and where; a file it holds whole gets no warning.
#[test]
fn decode_warns_of_bytes_the_document_does_not_hold() {
    let d = tempfile::tempdir().unwrap();
    let sch = schema("switch.ksy");
    let bin = d.path().join("long.bin");
    let mut bytes = SWITCH_FILE.to_vec();
    bytes.extend_from_slice(b"\xaa\xbb");
    std::fs::write(&bin, &bytes).unwrap();
    let r = run(&["--schema", s(&sch), "decode", s(&bin)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let at = format!("{:#x}", SWITCH_FILE.len());
    assert!(
        r.err.contains("warning:")
            && r.err.contains("does not hold every byte")
            && r.err.contains(&at),
        "{}",
        r.err
    );
    std::fs::write(&bin, SWITCH_FILE).unwrap();
    let r = run(&["--schema", s(&sch), "decode", s(&bin)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(!r.err.contains("warning"), "{}", r.err);
}

/// A NaN with a sign or payload that YAML's (and the interpreter's JSON's) `.nan` would not give back: decoding it
/// with `--schema` is refused, naming the field, and writes no document; a plain NaN and the infinities decode and
/// encode back to the same bytes, in YAML and in JSON.
#[test]
fn floats_a_text_cannot_give_back_by_the_cli() {
    let d = tempfile::tempdir().unwrap();
    let sch = schema_in(
        d.path(),
        "floats",
        "meta:\n  id: floats\n  endian: le\nseq:\n  - id: a\n    type: f4\n  - id: b\n    type: f8\n",
    );
    let file = |a: u32, b: u64| [a.to_le_bytes().as_slice(), &b.to_le_bytes()].concat();
    // `--schema S decode BIN -o DOC`, with `--json` or not: what the CLI says.
    let decode = |bin: &Path, bytes: &[u8], doc: &Path, json: bool| {
        std::fs::write(bin, bytes).unwrap();
        let mut args = vec!["--schema", s(&sch), "decode", s(bin), "-o", s(doc)];
        if json {
            args.push("--json");
        }
        run(&args)
    };
    let plain = [
        file(f32::NAN.to_bits(), f64::INFINITY.to_bits()),
        file(f32::NEG_INFINITY.to_bits(), f64::NAN.to_bits()),
    ];
    for (i, bytes) in plain.iter().enumerate() {
        for json in [false, true] {
            let (bin, doc, out) = (
                d.path().join(format!("p{i}.bin")),
                d.path()
                    .join(format!("p{i}.{}", if json { "json" } else { "yaml" })),
                d.path().join(format!("p{i}-{json}.out")),
            );
            let r = decode(&bin, bytes, &doc, json);
            assert_eq!(r.code, 0, "{}", r.err);
            let r = run(&["--schema", s(&sch), "encode", s(&doc), "-o", s(&out)]);
            assert_eq!(r.code, 0, "{}", r.err);
            assert_eq!(
                &std::fs::read(&out).unwrap(),
                bytes,
                "file {i}, json {json}"
            );
        }
    }
    // A quiet NaN with a payload in the f4, and a negative NaN in the f8.
    let odd = [
        (file(0x7fc0_0001, 0), "a"),
        (file(0, 0xfff8_0000_0000_0000), "b"),
    ];
    for (i, (bytes, field)) in odd.iter().enumerate() {
        for json in [false, true] {
            let (bin, doc) = (
                d.path().join(format!("o{i}.bin")),
                d.path().join(format!("o{i}-{json}.doc")),
            );
            let r = decode(&bin, bytes, &doc, json);
            assert_eq!(r.code, 1, "file {i}, json {json}: {}", r.err);
            assert!(
                r.err.contains(&format!("error: {field}: NaN")) && r.err.contains("payload"),
                "file {i}, json {json}: {}",
                r.err
            );
            assert!(
                !doc.exists(),
                "file {i}, json {json}: a document was written"
            );
        }
    }
}
