//! `tests/feature_schemas/record_lengths.ksy`: a record in a slot sized by a field of its holder. The writer
//! derives that field from what it writes of the record (a switch's case, or its raw bytes, alike), and keeps the
//! slot's bytes after what the record reads.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::record_lengths::{Chunk, ChunkBody, RecordLengths};

#[rustfmt::skip]
const FILE: [u8; 38] = [
    4, 1, 0, 2, 0,                       // header: 4 bytes, a point (1, 2)
    7, b'a', b'b', b'c',                 // fixed: 4 bytes, one read (7), three not
    1, 4, 0, 3, 0, 4, 0,                 // chunk: tag 1, len 4, a point (3, 4)
    2, 6, 0, b'a', b'b', 0, b'x', b'y', b'z', // tag 2, len 6: a name "ab", then 3 bytes it does not read
    9, 2, 0, b'h', b'i',                 // tag 9 (no case), len 2: raw bytes
    1, 5, 0, 5, 0, 6, 0, 0,              // tag 1, len 5: a point (5, 6) and a zero it does not read
];

#[test]
fn lengths_of_records_are_derived() {
    let m = agree::read::<RecordLengths>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!((m.header.x, m.header.y), (1, 2));
    assert_eq!(
        (m.fixed.v, m.fixed_filler.as_deref()),
        (7, Some(&b"abc"[..]))
    );
    assert_eq!(m.chunks.len(), 4);
    let ChunkBody::Name(n) = &m.chunks[1].body else {
        panic!("{:?}", m.chunks[1].body)
    };
    assert_eq!(n.text, "ab");
    assert_eq!(m.chunks[1].body_filler.as_deref(), Some(&b"xyz"[..]));
    assert_eq!(m.chunks[0].body_filler, None);
    assert_eq!(m.chunks[3].body_filler.as_deref(), Some(&[0u8][..]));
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);

    // A longer name moves the slot's end: its length is derived, the bytes after the record follow it.
    let mut edited = m.clone();
    if let ChunkBody::Name(n) = &mut edited.chunks[1].body {
        n.text = "abcdef".into();
    }
    edited.chunks[2].body = ChunkBody::Raw(b"hello".to_vec().into());
    edited.chunks.push(Chunk {
        tag: 1,
        body: ChunkBody::Point(binspec_feature_schemas::record_lengths::Point { x: 7, y: 8 }),
        body_filler: None,
    });
    let out = edited.to_binary_agreed().unwrap();
    #[rustfmt::skip]
    let want: Vec<u8> = [
        &[4, 1, 0, 2, 0][..],
        &[7], b"abc",
        &[1, 4, 0, 3, 0, 4, 0],
        &[2, 10, 0], b"abcdef\0xyz",
        &[9, 5, 0], b"hello",
        &[1, 5, 0, 5, 0, 6, 0, 0],
        &[1, 4, 0, 7, 0, 8, 0],
    ]
    .concat();
    assert_eq!(out, want);
    assert_eq!(agree::read::<RecordLengths>(&out).unwrap(), edited);

    // Zeros after what a fixed-size record reads are the writer's padding: nothing is kept.
    let mut zeros = FILE;
    zeros[6..9].copy_from_slice(&[0, 0, 0]);
    let m = agree::read::<RecordLengths>(&zeros).unwrap();
    assert_eq!(m.fixed_filler, None);
    assert_eq!(m.to_binary_agreed().unwrap(), zeros);
}

/// Every cut of the file and every byte set to each of a few values: decoding gives a model or an error, and a
/// model that writes gives bytes that read back as the same model (the derived sizes and the kept bytes agree with
/// the reader), never a panic.
#[test]
fn cut_and_mutated_files_write_what_reads_back() {
    let (inputs, decoded, written) =
        binspec_feature_schemas::cut_and_mutate::<RecordLengths>(&FILE);
    // (Most mutations still decode: the check is not vacuous.)
    assert!(
        decoded > inputs / 2 && written > decoded / 2,
        "{decoded} {written}"
    );
}
