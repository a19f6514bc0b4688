//! `binspec wiki drift` and `wiki coverage` over the seed dumps in ../shared/seeds (skipped with a message when
//! they are absent): the schemas in `schemas/` against the pages they transcribe, and made-up schemas that get
//! things wrong on purpose.

use binspec_tests::{repo, run, seed};

const EPD: &str = "002_611e4de14f4074d5.txt";
const HEDGEDOCS: &str = "004_40617077792eaab2.txt";

fn s(p: &std::path::Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

#[test]
fn the_schemas_differ_from_the_wiki_only_where_their_docs_say_so() {
    let Some(epd) = seed(EPD) else { return };
    let schemas = repo().join("schemas");
    let r = run(&["wiki", "drift", s(&epd), s(&schemas)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let lines: Vec<&str> = r.out.lines().collect();
    let drift: Vec<&&str> = lines
        .iter()
        .filter(|l| !l.starts_with("explained: "))
        .collect();
    assert!(drift.is_empty(), "unexplained drift:\n{}", r.out);
    // The known wiki mistakes each schema's doc describes are all found.
    for want in [
        "explained: Sarc | Header | sarc.ksy: type sarc | row 7 (Version): offset: wiki 0x14, schema 0x10 (`version`)",
        "explained: Sarc | Sfnt Section | sarc.ksy: type sfnt | row 1 (Magic): magic: wiki \"SFAT\", schema \"SFNT\" (`magic`)",
        "explained: Rsizetable | File Structure > Header (revision 2) | rsizetable.ksy: type restbl | row 1 (Magic): type: wiki u32 (u4), schema bytes 6 (`magic`)",
        "explained: Byaml | Dictionary (0xc1, 0xc4) > Byaml Dictionary Pair [Version 4-7] | byml.ksy: type dictionary_pair | row 1 (Key table index): size: wiki 0x3, schema 0x4 (`key_and_type`)",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(want)),
            "missing: {want}\nall:\n{}",
            r.out
        );
    }
    assert!(
        r.err
            .contains("(0 drift, 152 explained by the schemas' docs) in 118 tables"),
        "{}",
        r.err
    );
    insta::assert_snapshot!("drift_schemas_epd", r.out);
}

/// A schema that transcribes the SARC header and BYML node types with mistakes of its own.
const WRONG: &str = r#"meta:
  id: wrong
  endian: le
doc: |
  A schema with mistakes.
  * The wiki's "Alignment" u32 is not stored: alignment is a layout choice.
-wiki:
  page: Sarc
  section: Header
-wiki-enums:
  node_type:
    page: Byaml
    section: Node Data Types
seq:
  - id: magic
    contents: SARC
  - id: header_size
    type: u4
  - id: bom
    type: u2
    doc: Byte order mark (the wiki's "Endianess").
  - id: file_size
    type: u4
  - id: data_offset
    type: u4
    doc: The wiki's "File array offset".
  - id: version
    type: u2
  - id: flags
    type: u2
enums:
  node_type:
    0x20: hash_array
    0x30: hash_array_with_remap
    0xa0: string
    0xa1: binary
    0xa2: binary_with_alignment
    0xc0: array
    0xc1: dictionary
    0xc2: string_table
    0xc4: dictionary_with_remap
    0xc5: relocated_string_table
    0xc8: single_type_array
    0xd0: bool
    0xd1: int
    0xd2: float
    0xd3: uint
    0xd4: int64
    0xd5: uint64
    0xd6: double
    0xd7: extra
"#;

#[test]
fn drift_names_each_difference_and_what_explains_it() {
    let Some(epd) = seed(EPD) else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let ksy = dir.path().join("wrong.ksy");
    std::fs::write(&ksy, WRONG).expect("write schema");
    let r = run(&["wiki", "drift", s(&epd), s(&ksy)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let got: Vec<&str> = r.out.lines().collect();
    let head = "Sarc | Header | wrong.ksy: type wrong";
    for want in [
        format!("drift: {head} | row 2 (Size of header): size: wiki 0x2, schema 0x4 (`header_size`)"),
        format!("drift: {head} | row 3 (Endianess): offset: wiki 0x6, schema 0x8 (`bom`)"),
        format!("explained: {head} | row 6 (Alignment): the schema has no attribute for it at 0x10 (u32, 0x4 bytes)"),
        format!("drift: {head} | row 7 (Version): offset: wiki 0x14, schema 0x12 (`version`)"),
        format!("drift: {head} | row 8 (Reserved): the schema has no attribute for it at 0x16 (u16, 0x2 bytes)"),
        format!("drift: {head} | `flags`: the wiki's table has no row for this attribute at 0x14"),
    ] {
        assert!(
            got.iter().any(|l| l.starts_with(&want)),
            "missing: {want}\nall:\n{}",
            r.out
        );
    }
    let e = "Byaml | Node Data Types [Version 7] | wrong.ksy: enum node_type";
    for want in [
        format!("drift: {e} | row 11 (MonoTypedArray): name: wiki \"MonoTypedArray\", schema `single_type_array` (value 0xc8)"),
        format!("drift: {e} | `extra`: the wiki's table has no value 0xd7"),
    ] {
        assert!(
            got.iter().any(|l| *l == want),
            "missing: {want}\nall:\n{}",
            r.out
        );
    }
    // Names that say the same thing in other words are not differences.
    assert!(
        !r.out.contains("name: wiki \"Total file size\"")
            && !r.out.contains("name: wiki \"Endianess\"")
            && !r.out.contains("name: wiki \"File array offset\""),
        "{}",
        r.out
    );
}

#[test]
fn a_reference_to_a_missing_or_ambiguous_table_is_drift() {
    let Some(epd) = seed(EPD) else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let ksy = dir.path().join("refs.ksy");
    std::fs::write(
        &ksy,
        "meta:\n  id: refs\n  endian: le\n-wiki:\n  page: Sarc\n  section: No Such Section\ntypes:\n  a:\n    -wiki:\n      page: Byaml\n      section: Hash Array (0x20-0x2f)\n      table: 3\n    seq:\n      - id: x\n        type: u4\n  b:\n    -wiki:\n      page: Elsewhere\n      section: Header\n    seq:\n      - id: y\n        type: u4\nseq:\n  - id: a\n    type: a\n  - id: b\n    type: b\n",
    )
    .expect("write schema");
    let r = run(&["wiki", "drift", s(&epd), s(&ksy)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        r.out.lines().collect::<Vec<_>>(),
        [
            "drift: Sarc | No Such Section | refs.ksy: type refs: no such table on the page",
            "drift: Byaml | Hash Array (0x20-0x2f) | refs.ksy: type a: no such table on the page",
        ]
    );
    assert!(
        r.err
            .contains("note: refs.ksy: type b: page \"Elsewhere\" is not in the input"),
        "{}",
        r.err
    );
}

#[test]
fn a_bad_wiki_key_is_a_schema_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ksy = dir.path().join("bad.ksy");
    std::fs::write(
        &ksy,
        "meta:\n  id: bad\n-wiki:\n  page: Sarc\n  sectoin: Header\nseq:\n  - id: x\n    type: u1\n",
    )
    .expect("write schema");
    let r = run(&["wiki", "coverage", "/dev/null", "--schemas", s(&ksy)]);
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains("unknown key 'sectoin' in '-wiki'") && r.err.contains("section"),
        "{}",
        r.err
    );
}

#[test]
fn coverage_of_both_dumps() {
    let (Some(epd), Some(hd)) = (seed(EPD), seed(HEDGEDOCS)) else {
        return;
    };
    let schemas = repo().join("schemas");
    let r = run(&["wiki", "coverage", s(&epd), "--schemas", s(&schemas)]);
    assert_eq!(r.code, 0, "{}", r.err);
    for want in [
        "  Sarc: 4 of 4 layout tables transcribed (100.0%)",
        "  Rsizetable: 4 of 4 layout tables transcribed (100.0%)",
        "  Byaml: 13 of 13 layout tables transcribed (100.0%)",
        "  Bflyt: 0 of 39 layout tables transcribed (0.0%)",
        "  Bntx: 4 of 4 layout tables transcribed (100.0%)",
        "  Common nn::util: 9 of 9 layout tables transcribed (100.0%)",
        "  Common nn::gfx: 21 of 21 layout tables transcribed (100.0%)",
        "  Bfres: 19 of 19 layout tables transcribed (100.0%)",
        "  struct Header | sarc.ksy: type sarc",
        "  enum   Node Data Types [Version 7] | byml.ksy: enum node_type",
        "  not layouts, left out: Version Table (version list)",
    ] {
        assert!(
            r.out.lines().any(|l| l.starts_with(want)),
            "missing: {want}\nall:\n{}",
            r.out
        );
    }
    let overall = r.out.lines().last().unwrap_or_default();
    assert!(
        overall.starts_with("overall: 116 of 272 layout tables transcribed (42.6%) in 21 pages;"),
        "{overall}"
    );
    insta::assert_snapshot!("coverage_epd", r.out);
    let r = run(&["wiki", "coverage", s(&hd), "--schemas", s(&schemas)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out
            .contains("  struct .anm.pxd Structure > PXAN Header [Header] | not transcribed"),
        "{}",
        r.out
    );
    assert!(
        r.out
            .contains("not layouts, left out: (top) [List of known PBA file examples] (game list)"),
        "{}",
        r.out
    );
    insta::assert_snapshot!("coverage_hedgedocs", r.out);
}
