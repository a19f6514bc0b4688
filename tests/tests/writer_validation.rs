//! Writers check the model before they write, and the error names the field that is wrong: a value that does not
//! fit its field, a string a fixed-size field cannot hold, a reference to something that does not exist. Nothing is
//! written when the model is wrong.

use binspec_formats::ainb::{self, PlugName};
use binspec_formats::rsizetable::{self, Rsizetable};
use binspec_formats::sarc::Sarc;
use binspec_formats::{Archive, Format};
use binspec_tests::repo;

fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(repo().join("tests/fixtures").join(rel)).unwrap()
}

fn err<T: std::fmt::Debug, E: std::fmt::Display>(r: Result<T, E>) -> String {
    match r {
        Ok(v) => panic!("the writer accepted a model it cannot write: {v:?}"),
        Err(e) => {
            eprintln!("error: {e}");
            e.to_string()
        }
    }
}

#[test]
fn sarc_with_more_files_than_its_count_field_holds() {
    let mut s = Sarc::from_binary(&fixture("sarc/oead_le_new_min4.sarc")).unwrap();
    let files: Vec<(String, Vec<u8>)> = (0..65_536).map(|i| (format!("f{i}"), vec![1])).collect();
    s.set_files(files).unwrap();
    let e = err(s.to_binary().map(|b| b.len()));
    // The path names the field once (issue 19: `sarc.sfat.file_count.file_count`).
    assert_eq!(
        e,
        "sarc.sfat.file_count: value 65536 does not fit in `file_count` (u16)"
    );
}

/// A magic that is not BYML's is shown as text and hex, not as a list of numbers (issue 19: `[53, 41]`).
#[test]
fn a_wrong_magic_is_shown_as_text() {
    let e = binspec_formats::byml::Document::from_binary(b"SARC\x14\x00\xff\xfe")
        .unwrap_err()
        .to_string();
    assert!(e.ends_with(r#"found "SA" (53 41) (at offset 0x0)"#), "{e}");
}

/// A named file whose collision count is 0 and whose name the writer puts first in the name table would get a
/// `name_attrs` of 0, which reads as a file without a name: the writer refuses it and names the field.
#[test]
fn sarc_name_that_would_read_back_absent() {
    let mut s = Sarc::from_binary(&fixture("sarc/oead_le_new_min4.sarc")).unwrap();
    for e in &mut s.sfat.entries {
        e.collision_count = 0;
    }
    let e = err(s.to_binary().map(|b| b.len()));
    assert!(e.contains("sfat.entries[") && e.contains("].name"), "{e}");
    assert!(e.contains("name_attrs != 0"), "{e}");
    assert!(e.contains("would not have it"), "{e}");
    // With a count of 1 (the default), the same model writes.
    for e in &mut s.sfat.entries {
        e.collision_count = 1;
    }
    assert!(s.to_binary().is_ok());
}

#[test]
fn rstb_name_longer_than_its_fixed_field() {
    let data = fixture("rsizetable/rstb_le.rsizetable");
    let mut t = Rsizetable::from_binary(&data).unwrap();
    let rsizetable::RsizetableTable::Rstb(r) = &mut t.table else {
        panic!("not an RSTB fixture")
    };
    r.name_entries[0].name = "x".repeat(200).into();
    let e = err(t.to_binary().map(|b| b.len()));
    assert!(e.contains("name"), "{e}");
}

#[test]
fn ainb_references_that_do_not_exist_are_named() {
    let data = fixture("ainb/patrol_v407.ainb");
    let doc = ainb::Document::from_binary(&data).unwrap();

    let mut d = doc.clone();
    d.elements[1].attachments = vec![7];
    let e = err(d.to_binary().map(|b| b.len()));
    assert!(
        e.contains("elements[1].attachments") && e.contains("attachment 7"),
        "{e}"
    );

    let mut d = doc.clone();
    d.commands[0].main_element = 99;
    let e = err(d.to_binary().map(|b| b.len()));
    assert!(e.contains("commands[0].main_element"), "{e}");

    let mut d = doc.clone();
    d.elements[0].plugs[0].name = PlugName::Index(3);
    let e = err(d.to_binary().map(|b| b.len()));
    assert!(e.contains("elements[0].plugs[0].name"), "{e}");

    let mut d = doc.clone();
    d.blackboard.u32.push(ainb::BlackboardParam {
        name: "x".into(),
        notes: Default::default(),
        flags: 0,
        default: 1,
    });
    let e = err(d.to_binary().map(|b| b.len()));
    assert!(e.contains("blackboard.u32") && e.contains("0x408"), "{e}");

    let mut d = doc.clone();
    d.elements[0].name = "bad\0name".into();
    let e = err(d.to_binary().map(|b| b.len()));
    // The raw model's writer refuses it, naming its own field for the element's name.
    assert!(
        e.contains("elements[0].type_name_text") && e.contains("holds its terminator"),
        "{e}"
    );

    let mut d = doc;
    d.layout.query_order = vec![0, 0];
    let e = err(d.to_binary().map(|b| b.len()));
    assert!(e.contains("layout.query_order"), "{e}");
}

#[test]
fn a_byte_order_the_written_bytes_would_not_give_is_refused() {
    // A headerless table is little-endian when most of its sizes are smaller read so. A model that says
    // little-endian but whose sizes all read smaller big-endian (0x01000000 reads as 1) would read back
    // big-endian: the writer refuses it.
    let entry = |crc: u32| rsizetable::CrcEntry {
        crc,
        size: 0x0100_0000,
    };
    let t = Rsizetable {
        endian: binspec_formats::Endian::Little,
        table: rsizetable::RsizetableTable::Headerless(rsizetable::Headerless {
            crc_entries: vec![entry(0x1234_5678), entry(0x9abc_def0)],
        }),
    };
    let e = err(t.to_binary().map(|b| b.len()));
    assert!(
        e.contains("endian") && e.contains("read back as big-endian, not little-endian"),
        "{e}"
    );
    // The fuzzer's table whose byte order flipped when its first entry changed now writes and reads back the same
    // (every entry votes).
    let data = std::fs::read(
        repo().join("tests/fuzz_regressions/round_trip_rsizetable/headerless_byte_order_flips"),
    )
    .unwrap();
    let t = Rsizetable::from_binary(&data).unwrap();
    let written = t.to_binary().unwrap();
    assert_eq!(Rsizetable::from_binary(&written).unwrap(), t);
    // Every fixture still writes (the check finds the byte order it wrote).
    for f in [
        "rsizetable/headerless_le.rsizetable",
        "rsizetable/headerless_be.rsizetable",
        "rsizetable/rstb_be.rsizetable",
    ] {
        let d = fixture(f);
        assert_eq!(
            Rsizetable::from_binary(&d).unwrap().to_binary().unwrap(),
            d,
            "{f}"
        );
    }
}

#[test]
fn a_revision_the_written_bytes_would_not_choose_is_refused() {
    // A headerless table has no magic; the reader calls a file "RSTB" when its first four bytes spell it. A
    // headerless table whose first CRC (after sorting) is b"RSTB" read little-endian would read back as an "RSTB"
    // table, so the writer refuses it and names the field whose type would change.
    let entry = |crc: u32| rsizetable::CrcEntry { crc, size: 0x100 };
    let t = Rsizetable {
        endian: binspec_formats::Endian::Little,
        table: rsizetable::RsizetableTable::Headerless(rsizetable::Headerless {
            crc_entries: vec![entry(0x9000_0000), entry(u32::from_le_bytes(*b"RSTB"))],
        }),
    };
    let e = err(t.to_binary().map(|b| b.len()));
    assert!(
        e.contains("table") && e.contains("read back as `rstb`, not `headerless`"),
        "{e}"
    );
    // Found by the fuzzer: three entries read from a file, one of which sorts first and spells the magic.
    let data = std::fs::read(
        repo()
            .join("tests/fuzz_regressions/round_trip_rsizetable/headerless_table_spelling_a_magic"),
    )
    .unwrap();
    let t = Rsizetable::from_binary(&data).unwrap();
    let e = err(t.to_binary().map(|b| b.len()));
    assert!(e.contains("read back as `rstb`, not `headerless`"), "{e}");
    // Another first CRC writes, and reads back as the same headerless table.
    let ok = Rsizetable {
        endian: binspec_formats::Endian::Little,
        table: rsizetable::RsizetableTable::Headerless(rsizetable::Headerless {
            crc_entries: vec![entry(0x1000_0000), entry(0x9000_0000)],
        }),
    };
    let bin = ok.to_binary().unwrap();
    assert_eq!(Rsizetable::from_binary(&bin).unwrap(), ok);
}

/// A string that holds its terminator would read back cut short: the generated writers refuse it, for strings of
/// a pool (SARC's names) and for fixed-size string fields (RSTB's names), and name the field.
#[test]
fn strings_holding_their_terminator_are_refused() {
    let mut s = Sarc::from_binary(&fixture("sarc/oead_le_new_min4.sarc")).unwrap();
    s.set_files(vec![("a\0b.txt".to_string(), vec![1u8])])
        .unwrap();
    let e = err(s.to_binary().map(|b| b.len()));
    assert!(
        e.contains("name") && e.contains("holds its terminator"),
        "{e}"
    );

    let data = fixture("rsizetable/rstb_le.rsizetable");
    let mut t = Rsizetable::from_binary(&data).unwrap();
    let rsizetable::RsizetableTable::Rstb(r) = &mut t.table else {
        panic!("not an RSTB fixture")
    };
    r.name_entries[0].name = "ab\0cd".into();
    let e = err(t.to_binary().map(|b| b.len()));
    assert!(
        e.contains("name") && e.contains("holds its terminator"),
        "{e}"
    );
}
