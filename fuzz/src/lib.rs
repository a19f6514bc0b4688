//! What every fuzz target does, for any format.

use binspec_formats::Format;

/// Decoding returns a value or an error; it never panics.
pub fn decode<F: Format>(data: &[u8]) {
    let _ = F::from_binary(data);
}

/// Whatever decodes encodes (or fails cleanly), and decode, encode, decode gives the same value and the same bytes
/// (`binspec_runtime::format::check_value_round_trip`).
pub fn round_trip<F: Format + PartialEq + std::fmt::Debug>(data: &[u8]) {
    if let Err(e) = binspec_runtime::format::check_value_round_trip::<F>(data) {
        panic!("{e}");
    }
}
