//! `tests/feature_schemas/expr_errors.ksy`: a division by zero and a string that is no integer are errors when
//! reading and when writing, never a made-up value or a panic (Kaitai throws `ZeroDivisionError` and
//! `ConversionError`), and so is an index out of range (`IndexOutOfBounds`).

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::expr_errors::ExprErrors;

#[test]
fn failing_expressions_are_errors() {
    // n = 4: a head of 12 / 4 bytes; digits "02": a body of 2; two items, multiples of 4; item 1 (4) gives the
    // tail's size.
    let file = [
        4, b'0', b'2', 1, 2, 3, 9, 9, 8, 4, 1, b'w', b'x', b'y', b'z',
    ];
    let m = agree::read::<ExprErrors>(&file).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(
        (m.head.len(), m.body.len(), &m.items[..], m.tail.len()),
        (3, 2, &[8, 4][..], 4)
    );
    assert_eq!(m.to_binary_agreed().unwrap(), file);

    let mut zero = file;
    zero[0] = 0;
    let e = agree::read::<ExprErrors>(&zero).unwrap_err().to_string();
    assert!(e.contains("12 / 0: division by zero"), "{e}");
    assert!(e.contains("(at offset 0x3)"), "{e}");
    let mut bad = m.clone();
    bad.n = 0;
    let e = bad.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("division by zero"), "{e}");

    let mut text = file;
    text[1] = b'z';
    let e = agree::read::<ExprErrors>(&text).unwrap_err().to_string();
    assert!(e.contains("\"z2\" is not an integer in base 16"), "{e}");
    assert!(
        e.starts_with("expr_errors.body: ") && e.contains("(at offset 0x6)"),
        "{e}"
    );
    let mut bad = m;
    bad.digits = "0x".into();
    let e = bad.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("\"0x\" is not an integer in base 16"), "{e}");

    let mut past = file;
    past[10] = 2;
    let e = agree::read::<ExprErrors>(&past).unwrap_err().to_string();
    assert!(
        e.starts_with("expr_errors.tail: ")
            && e.contains("index 2 is out of range (the array has 2)"),
        "{e}"
    );
    let mut bad = agree::read::<ExprErrors>(&file).unwrap();
    bad.pick = 7;
    let e = bad.to_binary_agreed().unwrap_err().to_string();
    assert!(e.contains("index 7 is out of range"), "{e}");
}
