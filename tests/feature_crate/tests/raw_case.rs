//! `tests/feature_schemas/raw_case.ksy`: a sized switch reads a chunk of a kind no case names as its bytes, and
//! writes them back; the text form holds them as any bytes field (base64).

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::raw_case::{ChunkBody, Pair, RawCase};
use binspec_runtime::Format;

#[rustfmt::skip]
const FILE: [u8; 9] = [
    1, 2, 0x0a, 0x0b,       // a pair
    9, 3, 0xc0, 0xc1, 0xc2, // code 9: no case, three bytes as they are
];

#[test]
fn a_chunk_no_case_names_is_its_bytes() {
    let m = agree::read::<RawCase>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(m.chunks[0].body, ChunkBody::Pair(Pair { a: 0x0a, b: 0x0b }));
    assert_eq!(
        m.chunks[1].body,
        ChunkBody::Raw(vec![0xc0, 0xc1, 0xc2].into())
    );
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
    // The bytes are the model's: one more, and the size follows (derived by the writer).
    let mut m = m;
    m.chunks[1].body = ChunkBody::Raw(vec![0xc0, 0xc1, 0xc2, 0xc3].into());
    let bytes = m.to_binary_agreed().unwrap();
    assert_eq!(bytes[4..], [9, 4, 0xc0, 0xc1, 0xc2, 0xc3]);
    assert_eq!(agree::read::<RawCase>(&bytes).unwrap(), m);
    // A raw chunk under a code that a case names is refused: it would read back as that case.
    m.chunks[1].code = 1;
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("chunks[1]"), "{e}");
}

#[test]
fn raw_bytes_in_the_text_form() {
    let m = agree::read::<RawCase>(&FILE).unwrap();
    let text = m.to_text().unwrap();
    // (Bytes fields are base64 in the text form: c0 c1 c2.)
    assert!(text.contains("raw: wMHC"), "{text}");
    assert_eq!(RawCase::from_text(&text).unwrap(), m, "{text}");
}
