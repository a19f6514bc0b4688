//! `tests/feature_schemas/r.ksy`: a format named `R` reads and writes through binrw's traits.

use binrw::{BinRead, BinWrite};
use binspec_feature_schemas::r::R;

#[test]
fn a_format_named_r_is_read_and_written_through_binrw() {
    let mut c = std::io::Cursor::new(vec![0x34, 0x12]);
    let m = R::read_le(&mut c).unwrap_or_else(|e| panic!("read: {e}"));
    assert_eq!(m.value, 0x1234);
    let mut out = std::io::Cursor::new(Vec::new());
    m.write_le(&mut out)
        .unwrap_or_else(|e| panic!("write: {e}"));
    assert_eq!(out.into_inner(), [0x34, 0x12]);
}
