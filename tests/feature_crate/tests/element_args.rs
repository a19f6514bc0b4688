//! `tests/feature_schemas/element_args.ksy`: arguments that name the element's index, read through an element
//! (`items[1].len`) and written for a repeated placed instance.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::element_args::ElementArgs;

/// lens 2 and 1; item data "\x0a\x0b" and "\x0c"; tail "\x0d".
const FILE: [u8; 6] = [2, 1, 0x0a, 0x0b, 0x0c, 0x0d];

#[test]
fn an_elements_argument_is_the_one_its_index_gave() {
    let m = agree::read::<ElementArgs>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(&m.tail[..], &[0x0d]);
    let heads: Vec<&[u8]> = m.heads.iter().map(|h| &h.b[..]).collect();
    assert_eq!(heads, [&[2u8, 1][..], &[0x0a][..]]);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn a_tail_follows_the_argument_when_written() {
    // The second item is given lens[1] = 1 byte: a longer tail is refused, not cut.
    let mut m = agree::read::<ElementArgs>(&FILE).unwrap();
    m.tail = vec![1, 2].into();
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("tail"), "{e}");
}

#[test]
fn a_placed_element_that_disagrees_with_the_bytes_under_it_is_an_error() {
    // The second head lies over the first item's first byte: writing another value there is refused.
    let mut m = agree::read::<ElementArgs>(&FILE).unwrap();
    m.heads[1].b = vec![0x0e].into();
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("heads"), "{e}");
}
