//! `tests/feature_schemas/section_order.ksy`: a region whose members' default order (`order` on the region) is not
//! the declared one. Hand-made files decoded, written back byte for byte, and edited.

use binspec_feature_schemas::section_order::SectionOrder;
use binspec_runtime::Format;

/// The default order: the blobs, the tail, the head.
#[rustfmt::skip]
const DEFAULT: [u8; 18] = [
    b'O', b'R', b'D', b'R',
    0x02, 0x10, 0x0d,
    0x0b, 0x01,             // record 0: blob at 0x0b, 1 byte
    0x0c, 0x01,             // record 1: blob at 0x0c, 1 byte
    b'x', b'y',             // 0x0b: blobs
    b't', b'a', 0,          // 0x0d: tail
    0x05, 0x06,             // 0x10: head
];

#[test]
fn a_file_in_the_default_order_keeps_no_order() {
    let m = SectionOrder::from_binary(&DEFAULT).unwrap();
    assert_eq!(m.sections_order, None);
    assert_eq!((m.head.as_slice(), &*m.tail), (&[5u8, 6][..], "ta"));
    assert_eq!(m.to_binary().unwrap(), DEFAULT);
}

#[test]
fn a_file_in_another_order_keeps_it() {
    // The declared order: head, tail, then the blobs.
    #[rustfmt::skip]
    let bytes = [
        b'O', b'R', b'D', b'R',
        0x02, 0x0b, 0x0d,
        0x10, 0x01,
        0x11, 0x01,
        0x05, 0x06,
        b't', b'a', 0,
        b'x', b'y',
    ];
    let mut m = SectionOrder::from_binary(&bytes).unwrap();
    assert_eq!(
        m.sections_order.as_deref(),
        Some(&["head", "tail", "record.blob"].map(String::from)[..])
    );
    assert_eq!(m.to_binary().unwrap(), bytes);
    // Without the kept order, the default one: the file above.
    m.sections_order = None;
    assert_eq!(m.to_binary().unwrap(), DEFAULT);
}

#[test]
fn an_order_naming_some_members_puts_the_rest_in_the_default_order() {
    let mut m = SectionOrder::from_binary(&DEFAULT).unwrap();
    m.sections_order = Some(vec!["head".into()]);
    let out = m.to_binary().unwrap();
    // The head first, then the blobs and the tail, as the default has them.
    assert_eq!(&out[4..11], &[0x02, 0x0b, 0x0f, 0x0d, 0x01, 0x0e, 0x01]);
    assert_eq!(&out[11..], &[5, 6, b'x', b'y', b't', b'a', 0]);
    let back = SectionOrder::from_binary(&out).unwrap();
    assert_eq!(
        back.sections_order.as_deref(),
        Some(&["head", "record.blob", "tail"].map(String::from)[..])
    );
}
