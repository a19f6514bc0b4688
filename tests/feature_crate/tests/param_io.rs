//! `tests/feature_schemas/param_io.ksy`: a record read from the bytes of a parameter (`io: header_with_io._io`).
//! The model does not hold it; the writer reads it again from the parameter, so the counts and switches that name
//! it are checked against it.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::param_io::ParamIo;

/// Header `count: 2, wide: true`, two items, a u2 tail.
const FILE: [u8; 6] = [2, 0x80, 10, 11, 1, 2];

#[test]
fn reads_the_parameters_bytes_and_writes_back() {
    let m = agree::read::<ParamIo>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(m.body.items, [10, 11]);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
    // A narrow header: the tail is one byte.
    let narrow = [1, 0, 10, 7];
    let m = agree::read::<ParamIo>(&narrow).unwrap();
    assert_eq!(m.body.items, [10]);
    assert_eq!(m.to_binary_agreed().unwrap(), narrow);
}

#[test]
fn counts_and_switches_are_checked_against_the_parameter() {
    let m = agree::read::<ParamIo>(&FILE).unwrap();
    let mut more = m.clone();
    more.body.items.push(12);
    let e = more.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("items") && e.contains("header.count"), "{e}");
    // The header says 3 items: now they are written.
    more.header_raw.data = vec![3, 0x80].into();
    let out = more.to_binary_agreed().unwrap();
    assert_eq!(agree::read::<ParamIo>(&out).unwrap(), more);
    // A narrow header, and a wide tail.
    let mut narrow = m;
    narrow.header_raw.data = vec![2, 0].into();
    let e = narrow.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("tail"), "{e}");
}

#[test]
fn a_count_beyond_the_file_is_an_error_naming_the_field() {
    let e = agree::read::<ParamIo>(&[9, 0, 10, 11])
        .unwrap_err()
        .to_string();
    assert!(e.contains("body.items") && e.contains("offset 0x2"), "{e}");
}

/// Every cut of the file and every byte set to each of a few values: a model or an error, and a model that writes
/// reads back the same, never a panic.
#[test]
fn cut_and_mutated_files_write_what_reads_back() {
    let (inputs, decoded, written) = binspec_feature_schemas::cut_and_mutate::<ParamIo>(&FILE);
    // (As many as `binspec --schema` decodes and writes of the same inputs.)
    assert_eq!((inputs, decoded, written), (42, 33, 33));
}
