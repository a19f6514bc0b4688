//! `tests/feature_schemas/pool_records.ksy`: pool items that are records and arrays, aligned in their region;
//! their offsets and the array's count derived by the writer. (The same edits through `binspec --schema` are in
//! `tests/tests/interp_cli.rs`.)

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::pool_records::PoolRecords;

/// Entry 0: info (1, "ab") at 0xc, vals [1, 2, 3] at 0x10; entry 1: info (2, "xyz") at 0x18, vals [7] at 0x20.
const FILE: [u8; 34] = [
    2, 12, 0, 16, 0, 3, 24, 0, 32, 0, 1, 0, 1, 97, 98, 0, 1, 0, 2, 0, 3, 0, 0, 0, 2, 120, 121, 122,
    0, 0, 0, 0, 7, 0,
];

/// The file after entry 0's name becomes "abcdef" and its values get a 4.
const EDITED: [u8; 38] = [
    2, 12, 0, 20, 0, 4, 28, 0, 36, 0, 1, 0, 1, 97, 98, 99, 100, 101, 102, 0, 1, 0, 2, 0, 3, 0, 4,
    0, 2, 120, 121, 122, 0, 0, 0, 0, 7, 0,
];

#[test]
fn records_and_arrays_in_a_pool() {
    let mut m = agree::read::<PoolRecords>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(
        (m.entries[1].info.kind, &m.entries[1].info.name[..]),
        (2, "xyz")
    );
    assert_eq!(m.entries[0].vals, [1, 2, 3]);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
    m.entries[0].info.name = "abcdef".into();
    m.entries[0].vals.push(4);
    assert_eq!(m.to_binary_agreed().unwrap(), EDITED);
}

/// Every cut of the file and every byte set to each of a few values: a model or an error, and a model that writes
/// reads back the same, never a panic.
#[test]
fn cut_and_mutated_files_write_what_reads_back() {
    let (inputs, decoded, written) = binspec_feature_schemas::cut_and_mutate::<PoolRecords>(&FILE);
    // (As many as `binspec --schema` decodes and writes of the same inputs.)
    assert_eq!((inputs, decoded, written), (238, 160, 160));
}
