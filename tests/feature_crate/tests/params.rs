//! `tests/feature_schemas/params.ksy`: a type's params of each kind (an integer array, a string array, a record, a
//! record of any type, a boolean, an element's index). A hand-made file decoded, checked, written back byte for
//! byte, and edited: the writer passes the same arguments the reader did, from the model.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::params::Params;

#[rustfmt::skip]
const FILE: [u8; 19] = [
    b'P', b'A', b'R', b'M',
    2, 1,                   // lens: the chunk's `sizes`
    b'a', b'b', 0, b'c', 0, // names: its `labels`
    1,                      // header.flag: its `head`, and (as any record) its `any`
    0xa0, 0xa1,             // chunk.first (sizes[0] bytes)
    0xb0,                   // chunk.second (sizes[1] bytes)
    0x07,                   // chunk.tail, there as any.as<header>.flag == 1
    0x09,                   // flagged.extra, there as header.flag != 0
    0, 5,                   // items: each v at least its own index
];

fn read(bytes: &[u8]) -> Params {
    agree::read::<Params>(bytes).unwrap_or_else(|e| panic!("decode: {e}"))
}

#[test]
fn every_kind_of_param_reads_and_writes_back() {
    let m = read(&FILE);
    assert_eq!(m.lens, [2, 1]);
    assert_eq!(&m.chunk.first[..], [0xa0, 0xa1]);
    assert_eq!(&m.chunk.second[..], [0xb0]);
    assert_eq!(m.chunk.tail, Some(7));
    assert_eq!(m.flagged.extra, Some(9));
    assert_eq!(
        m.items.iter().map(|i| i.v).collect::<Vec<_>>(),
        [0, 5],
        "{m:?}"
    );
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn the_writer_takes_the_arguments_from_the_edited_model() {
    let mut m = read(&FILE);
    // The record passed as `head` and as `any` now says no tail and no extra.
    m.header.flag = 0;
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("chunk.tail"), "{e}");
    m.chunk.tail = None;
    m.flagged.extra = None;
    // The sizes passed as an array: the second chunk part grows with them.
    m.lens[1] = 3;
    m.chunk.second = vec![0xb0, 0xb1, 0xb2].into();
    let bytes = m.to_binary_agreed().unwrap();
    assert_eq!(
        bytes,
        [
            &FILE[..5],
            &[3],
            &FILE[6..11],
            &[0, 0xa0, 0xa1, 0xb0, 0xb1, 0xb2, 0, 5]
        ]
        .concat()
    );
    assert_eq!(read(&bytes), m);
}

#[test]
fn an_argument_the_model_breaks_is_an_error() {
    let mut m = read(&FILE);
    // More bytes than the size passed in.
    m.chunk.first = vec![1, 2, 3].into();
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("chunk.first"), "{e}");
    // An element below the index it is passed.
    let mut m = read(&FILE);
    m.items[1].v = 0;
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("items"), "{e}");
}
