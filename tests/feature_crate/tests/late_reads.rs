//! `tests/feature_schemas/late_reads.ksy`: instances that use a value their holder reads only later (an entry's
//! body ends at the next entry's offset; the header looks at the entries after it) are read, and written back.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::late_reads::LateReads;

/// Magic 0x2a, 2 bodies: offsets 5, 7 and 10 (the end), then "ab" and "cde".
const FILE: [u8; 10] = [0x2a, 2, 5, 7, 10, b'a', b'b', b'c', b'd', b'e'];

#[test]
fn instances_see_values_read_after_their_record() {
    let m = agree::read::<LateReads>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    let bodies: Vec<Option<&[u8]>> = m.entries.iter().map(|e| e.body.as_deref()).collect();
    assert_eq!(bodies, [Some(&b"ab"[..]), Some(&b"cde"[..]), None]);
    assert_eq!(m.header.first_byte, b'a');
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn an_edited_body_is_written_where_its_entry_says() {
    let mut m = agree::read::<LateReads>(&FILE).unwrap();
    m.entries[1].body = Some(b"xyz".to_vec().into());
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(
        &out[..],
        &[0x2a, 2, 5, 7, 10, b'a', b'b', b'x', b'y', b'z'][..]
    );
    let back = agree::read::<LateReads>(&out).unwrap();
    assert_eq!(back.entries[1].body.as_deref(), Some(&b"xyz"[..]));
}

#[test]
fn offsets_out_of_order_are_an_error_naming_the_body() {
    // The second body would end before it starts (offset 7, next 6).
    let mut file = FILE;
    file[4] = 6;
    let e = agree::read::<LateReads>(&file).unwrap_err().to_string();
    assert!(
        e.contains("entries") && e.contains("body") && e.contains("negative size"),
        "{e}"
    );
}
