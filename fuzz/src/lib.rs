//! What every fuzz target does, for any format.

use binspec_formats::Format;

/// Decoding returns a value or an error; it never panics.
pub fn decode<F: Format>(data: &[u8]) {
    let _ = F::from_binary(data);
}

/// Whatever decodes encodes (or fails cleanly), and what it encodes to decodes to the same value (compared through
/// `Debug`, so that NaN equals NaN) and encodes to the same bytes again.
pub fn round_trip<F: Format + std::fmt::Debug>(data: &[u8]) {
    let Ok(a) = F::from_binary(data) else { return };
    let Ok(bytes) = a.to_binary() else { return };
    let b = match F::from_binary(&bytes) {
        Ok(b) => b,
        Err(e) => panic!("our own output does not decode: {e}"),
    };
    assert_eq!(format!("{a:?}"), format!("{b:?}"), "decode, encode, decode changed the value");
    let again = b.to_binary().expect("a value that encoded once encodes again");
    assert!(again == bytes, "the second encoding differs from the first");
}
