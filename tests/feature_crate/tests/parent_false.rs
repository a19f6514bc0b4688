//! `tests/feature_schemas/parent_false.ksy`: a record read with `parent: false` sees its types' defaults for what
//! it names of `_parent` (a string param did not compile before: `str` has no `Default`).

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::parent_false::ParentFalse;

#[test]
fn a_record_without_a_parent_sees_defaults() {
    // name "ab"; `a` takes 2 + 1 bytes, `c` (no parent: an empty name) 0 + 1.
    let file = *b"ab\0xyzq";
    let m = agree::read::<ParentFalse>(&file).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(&m.a.n[..], b"xyz");
    assert_eq!(&m.c.n[..], b"q");
    assert_eq!(m.to_binary_agreed().unwrap(), file);
}
