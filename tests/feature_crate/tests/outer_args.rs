//! `tests/feature_schemas/outer_args.ksy`: a parameter, and a value instance computed from one, of a record reached
//! through an outer value (`_parent.chunks[index].len`).

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::outer_args::{OuterArgs, OuterArgsRel};

/// lens 1, 2, 3 and bias 1; user 0: body lens[0] = 1 byte, more lens[1] + bias = 3; user 1: body 2, more 4; kind
/// 2 (relocations with addends): (0x10, 0x11), (0x20, 0x21).
const FILE: [u8; 19] = [
    1, 2, 3, 1, 0xa0, 0xb0, 0xb1, 0xb2, 0xc0, 0xc1, 0xd0, 0xd1, 0xd2, 0xd3, 2, 0x10, 0x11, 0x20,
    0x21,
];

/// The same with kind 1: relocations without addends.
const NO_ADDENDS: [u8; 17] = [
    1, 2, 3, 1, 0xa0, 0xb0, 0xb1, 0xb2, 0xc0, 0xc1, 0xd0, 0xd1, 0xd2, 0xd3, 1, 0x10, 0x20,
];

fn addends(m: &OuterArgs) -> Vec<Option<u8>> {
    let Some(OuterArgsRel::Relocs(r)) = &m.rel else {
        panic!("{:?}", m.rel)
    };
    r.entries.iter().map(|e| e.addend).collect()
}

#[test]
fn an_outer_records_parameter_is_the_argument_it_was_passed() {
    let m = agree::read::<OuterArgs>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    let bodies: Vec<&[u8]> = m.users.iter().map(|u| &u.body[..]).collect();
    assert_eq!(bodies, [&[0xa0u8][..], &[0xc0, 0xc1][..]]);
    let more: Vec<&[u8]> = m.users.iter().map(|u| &u.more[..]).collect();
    assert_eq!(
        more,
        [&[0xb0u8, 0xb1, 0xb2][..], &[0xd0, 0xd1, 0xd2, 0xd3][..]]
    );
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn a_body_that_disagrees_with_the_outer_argument_is_an_error() {
    // user 1's `more` is lens[2] + bias = 4 bytes long: 5 are refused, naming the field.
    let mut m = agree::read::<OuterArgs>(&FILE).unwrap();
    m.users[1].more = vec![1, 2, 3, 4, 5].into();
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("more"), "{e}");
    // A bias of 10 is followed when reading: user 0's `more` is then 12 bytes, more than the file has.
    let mut short = FILE;
    short[3] = 10;
    let e = agree::read::<OuterArgs>(&short).unwrap_err().to_string();
    assert!(e.contains("more"), "{e}");
}

#[test]
fn a_parents_parameter_is_passed_down_and_each_case_writes_with_its_own_arguments() {
    let m = agree::read::<OuterArgs>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(addends(&m), [Some(0x11), Some(0x21)]);
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
    let m = agree::read::<OuterArgs>(&NO_ADDENDS).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(addends(&m), [None, None]);
    assert_eq!(m.to_binary_agreed().unwrap(), NO_ADDENDS);
    // Kind 1 passes `has_addend: false`: addends in the model would not read back, and are refused.
    let mut m = agree::read::<OuterArgs>(&FILE).unwrap();
    m.kind = 1;
    let e = m.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("addend"), "{e}");
}
