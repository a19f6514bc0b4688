//! `tests/feature_schemas/saved_positions.ksy`: value instances that capture the stream's position where they
//! are first named (`ofs_b: value: _io.pos`, named by an empty field's condition) hold that position in the
//! reader and the writer, not the position where they are named later.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::saved_positions::SavedPositions;

/// `a` = "xy", `b` = "hi" (3 bytes with its terminator), `tail` as long: "ABC".
const FILE: &[u8] = b"\x02xyhi\0ABC";

#[test]
fn the_positions_are_where_they_were_first_named() {
    let m = agree::read::<SavedPositions>(FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(&m.tail[..], b"ABC");
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
    // A longer `a` moves both positions.
    let mut moved = m.clone();
    moved.a = b"xyz".to_vec().into();
    assert_eq!(moved.to_binary_agreed().unwrap(), b"\x03xyzhi\0ABC");
    // A longer `b`: the tail must be as long.
    let mut longer = m.clone();
    longer.b = "hey".into();
    let e = longer.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("tail"), "{e}");
    longer.tail = b"ABCD".to_vec().into();
    assert_eq!(longer.to_binary_agreed().unwrap(), b"\x02xyhey\0ABCD");
}

/// Every cut of the file and every byte set to each of a few values: a model or an error, and a model that writes
/// reads back the same, never a panic.
#[test]
fn cut_and_mutated_files_write_what_reads_back() {
    let (inputs, decoded, written) =
        binspec_feature_schemas::cut_and_mutate::<SavedPositions>(FILE);
    // (As many as `binspec --schema` decodes and writes of the same inputs.)
    assert_eq!((inputs, decoded, written), (63, 44, 44));
}
