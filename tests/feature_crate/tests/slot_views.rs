//! `tests/feature_schemas/slot_views.ksy`: an entry's body read from the slot of a record that reads nothing
//! (`io: _parent.storage._io`), named from outside the entry (`first.body`), where the model keeps the slot's
//! bytes: the reader takes the payload's length from it, and the writer checks the payload against it.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::slot_views::SlotViews;

/// Entry 0: a u8 body at 0 (3); entry 1: a u16 body at 1 (7); the payload is 3 bytes.
const FILE: [u8; 13] = [2, 4, 1, 0, 2, 1, 3, 7, 0, 0, 0xaa, 0xbb, 0xcc];

#[test]
fn the_payload_is_as_long_as_the_body_says() {
    let m = agree::read::<SlotViews>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(&m.payload[..], [0xaa, 0xbb, 0xcc]);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
    // The first entry a u16 body at 1: the payload is 7 bytes.
    let mut file = FILE.to_vec();
    file[2] = 2;
    file[3] = 1;
    file.extend([1, 2, 3, 4]);
    let m = agree::read::<SlotViews>(&file).unwrap();
    assert_eq!(m.payload.len(), 7);
    assert_eq!(m.to_binary_agreed().unwrap(), file);
}

#[test]
fn the_writer_checks_the_payload_against_the_body() {
    let m = agree::read::<SlotViews>(&FILE).unwrap();
    let mut longer = m.clone();
    longer.payload = vec![1, 2, 3, 4].into();
    let e = longer.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("payload"), "{e}");
    // The storage's bytes say 4: now it is written.
    let mut edited = longer;
    edited.table.storage_filler = Some(vec![4, 7, 0, 0].into());
    let out = edited.to_binary_agreed().unwrap();
    assert_eq!(agree::read::<SlotViews>(&out).unwrap(), edited);
}

#[test]
fn a_body_of_no_case_is_an_error_naming_it() {
    // Kind 9 has no case: the body is absent, and the payload's length cannot be taken from it.
    let mut file = FILE;
    file[2] = 9;
    let e = agree::read::<SlotViews>(&file).unwrap_err().to_string();
    assert!(e.contains("body") && e.contains("absent"), "{e}");
}

#[test]
fn a_body_past_the_slot_is_an_error_naming_it() {
    let mut file = FILE;
    file[3] = 9;
    let e = agree::read::<SlotViews>(&file).unwrap_err().to_string();
    assert!(e.contains("body"), "{e}");
}

/// Every cut of the file and every byte set to each of a few values: a model or an error, and a model that writes
/// reads back the same, never a panic.
#[test]
fn cut_and_mutated_files_write_what_reads_back() {
    let (inputs, decoded, written) = binspec_feature_schemas::cut_and_mutate::<SlotViews>(&FILE);
    // (As many as `binspec --schema` decodes and writes of the same inputs.)
    assert_eq!((inputs, decoded, written), (91, 58, 58));
}
