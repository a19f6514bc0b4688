//! Strings in files, in the encodings that schemas name (`encoding:`). Decoding and encoding are exact inverses
//! for every byte string a file can hold in single-byte encodings (ASCII and Latin-1 map each byte to one
//! character), so strings round-trip; UTF-8 and UTF-16 must be valid.

use crate::error::{Error, Result};

/// The encodings binspec knows, by the names schemas use (case-insensitive; `-`/`_` ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Enc {
    Utf8,
    /// ASCII and ISO-8859-1: one character per byte.
    Latin1,
    Utf16Le,
    Utf16Be,
    /// IBM code page 437 (the original PC character set).
    #[cfg(feature = "encodings")]
    Cp437,
    #[cfg(feature = "encodings")]
    Other(&'static encoding_rs::Encoding),
    /// An encoding other than UTF-8, UTF-16 and Latin-1, without the feature `encodings` that brings them.
    #[cfg(not(feature = "encodings"))]
    NotBuilt,
}

/// The encoding `name` names from encoding_rs's labels (Shift-JIS, Windows code pages, ...).
#[cfg(feature = "encodings")]
fn other(name: &str) -> Option<Enc> {
    Some(Enc::Other(encoding_rs::Encoding::for_label(
        name.as_bytes(),
    )?))
}

#[cfg(not(feature = "encodings"))]
fn other(_: &str) -> Option<Enc> {
    Some(Enc::NotBuilt)
}

/// The error for an encoding this build does not have.
#[cfg(not(feature = "encodings"))]
fn not_built(encoding: &str) -> String {
    format!(
        "the encoding '{encoding}' is not built in: binspec-runtime's feature `encodings` (encoding_rs) adds \
         Shift-JIS, code page 437 and the other encodings it knows"
    )
}

fn enc(name: &str) -> Option<Enc> {
    if name == "UTF-8" {
        return Some(Enc::Utf8);
    }
    // The name upper-cased without `-` and `_`, in a buffer on the stack (this runs for every string read or
    // written); names longer than any known one go to encoding_rs as they are.
    let mut buf = [0u8; 16];
    let mut n = 0;
    for b in name.bytes().filter(|b| !matches!(b, b'-' | b'_')) {
        if n == buf.len() {
            return other(name);
        }
        buf[n] = b.to_ascii_uppercase();
        n += 1;
    }
    Some(match &buf[..n] {
        b"UTF8" | b"" => Enc::Utf8,
        b"ASCII" | b"ISO88591" | b"LATIN1" => Enc::Latin1,
        b"UTF16LE" => Enc::Utf16Le,
        b"UTF16BE" => Enc::Utf16Be,
        #[cfg(feature = "encodings")]
        b"SJIS" | b"SHIFTJIS" => Enc::Other(encoding_rs::SHIFT_JIS),
        #[cfg(feature = "encodings")]
        b"IBM437" | b"CP437" => Enc::Cp437,
        _ => other(name)?,
    })
}

/// Whether the named encoding is UTF-8 (whose bytes are the string's own).
pub fn is_utf8(encoding: &str) -> bool {
    enc(encoding) == Some(Enc::Utf8)
}

/// Decodes UTF-8; `at` is the offset for the error.
pub fn decode(b: &[u8], at: u64) -> Result<String> {
    decode_as(b, "UTF-8", at)
}

/// Decodes bytes in the named encoding; `at` is the offset for the error.
pub fn decode_as(b: &[u8], encoding: &str, at: u64) -> Result<String> {
    let e = enc(encoding)
        .ok_or_else(|| Error::invalid(at, format!("unknown encoding '{encoding}'")))?;
    match e {
        Enc::Utf8 => String::from_utf8(b.to_vec())
            .map_err(|err| Error::invalid(at, format!("string is not valid UTF-8: {err}"))),
        Enc::Latin1 => Ok(b.iter().map(|&c| c as char).collect()),
        Enc::Utf16Le | Enc::Utf16Be => {
            if !b.len().is_multiple_of(2) {
                return Err(Error::invalid(
                    at,
                    "UTF-16 string has an odd number of bytes",
                ));
            }
            let units = b.chunks_exact(2).map(|c| {
                if e == Enc::Utf16Le {
                    u16::from_le_bytes([c[0], c[1]])
                } else {
                    u16::from_be_bytes([c[0], c[1]])
                }
            });
            char::decode_utf16(units)
                .collect::<std::result::Result<String, _>>()
                .map_err(|err| Error::invalid(at, format!("string is not valid UTF-16: {err}")))
        }
        #[cfg(feature = "encodings")]
        Enc::Cp437 => Ok(oem_cp::decode_string_complete_table(
            b,
            &oem_cp::code_table::DECODING_TABLE_CP437,
        )),
        #[cfg(not(feature = "encodings"))]
        Enc::NotBuilt => Err(Error::invalid(at, not_built(encoding))),
        #[cfg(feature = "encodings")]
        Enc::Other(enc) => {
            let (s, had_errors) = enc.decode_without_bom_handling(b);
            if had_errors {
                return Err(Error::invalid(
                    at,
                    format!("string is not valid {}", enc.name()),
                ));
            }
            Ok(s.into_owned())
        }
    }
}

/// Decodes for use in an expression: never fails (invalid sequences become U+FFFD).
pub fn decode_lossy(b: &[u8], encoding: &str) -> String {
    decode_as(b, encoding, 0).unwrap_or_else(|_| String::from_utf8_lossy(b).into_owned())
}

/// The stem and the extension of a path's file name (after its last `/`), split at the last `.` that is not
/// one of the leading dots of the name (as Python's `os.path.splitext`): `a/b.c.gyml` gives `b.c` and `gyml`;
/// `a/.hidden` and `a/name` have no extension (`""`). Schemas' `s.path_stem()` and `s.path_extension()`.
pub fn path_split(s: &str) -> (&str, &str) {
    let name = s.rsplit('/').next().unwrap_or(s);
    let lead = name.len() - name.trim_start_matches('.').len();
    match name[lead..].rfind('.') {
        Some(d) => (&name[..lead + d], &name[lead + d + 1..]),
        None => (name, ""),
    }
}

/// Encodes a string in the named encoding.
pub fn encode(s: &str, encoding: &str) -> Result<Vec<u8>> {
    let e = enc(encoding).ok_or_else(|| Error::write(format!("unknown encoding '{encoding}'")))?;
    match e {
        Enc::Utf8 => Ok(s.as_bytes().to_vec()),
        Enc::Latin1 => s
            .chars()
            .map(|c| {
                u8::try_from(c as u32)
                    .map_err(|_| Error::write(format!("'{c}' cannot be written in {encoding}")))
            })
            .collect(),
        Enc::Utf16Le => Ok(s.encode_utf16().flat_map(|u| u.to_le_bytes()).collect()),
        Enc::Utf16Be => Ok(s.encode_utf16().flat_map(|u| u.to_be_bytes()).collect()),
        #[cfg(feature = "encodings")]
        Enc::Cp437 => oem_cp::encode_string_checked(s, &oem_cp::code_table::ENCODING_TABLE_CP437)
            .ok_or_else(|| Error::write(format!("the string cannot be written in {encoding}"))),
        #[cfg(not(feature = "encodings"))]
        Enc::NotBuilt => Err(Error::write(not_built(encoding))),
        #[cfg(feature = "encodings")]
        Enc::Other(enc) => {
            let (b, _, had_errors) = enc.encode(s);
            if had_errors {
                return Err(Error::write(format!(
                    "the string cannot be written in {}",
                    enc.name()
                )));
            }
            Ok(b.into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_at_the_last_dot_after_the_leading_ones() {
        let cases = [
            (
                "Work/A/NpcCommon.engine__component__BlackboardParamTable.gyml",
                ("NpcCommon.engine__component__BlackboardParamTable", "gyml"),
            ),
            ("name", ("name", "")),
            ("dir.d/name", ("name", "")),
            (".hidden", (".hidden", "")),
            ("..two.txt", ("..two", "txt")),
            ("trailing.", ("trailing", "")),
            ("", ("", "")),
            ("a/", ("", "")),
        ];
        for (path, want) in cases {
            assert_eq!(path_split(path), want, "{path}");
        }
    }

    #[test]
    #[cfg(feature = "encodings")]
    fn round_trips() {
        for (enc, bytes) in [
            ("UTF-8", "héllo".as_bytes().to_vec()),
            ("ASCII", vec![0x41, 0xff, 0x80]),
            ("UTF-16LE", vec![0x41, 0x00, 0xe9, 0x00]),
            ("UTF-16BE", vec![0x00, 0x41]),
            ("SJIS", vec![0x82, 0xa0]),
            ("IBM437", vec![0x41, 0xe3, 0xb0]),
        ] {
            let s = decode_as(&bytes, enc, 0).unwrap();
            assert_eq!(encode(&s, enc).unwrap(), bytes, "{enc}");
        }
        assert_eq!(decode_as(&[0x82, 0xa0], "SJIS", 0).unwrap(), "あ");
        assert!(decode_as(&[0xff], "UTF-8", 3)
            .unwrap_err()
            .to_string()
            .contains("0x3"));
        assert!(decode_as(b"x", "KLINGON", 0).is_err());
        assert!(is_utf8("utf_8") && is_utf8("UTF-8") && !is_utf8("UTF-16LE"));
        // Labels that only encoding_rs knows, short and long.
        assert_eq!(decode_as(&[0xe9], "windows-1252", 0).unwrap(), "é");
        assert_eq!(
            decode_as(&[0xe9], "iso-ir-100-and-more-letters", 0).ok(),
            None
        );
    }

    /// Without the feature, an encoding it would bring is an error that says which feature to turn on; the
    /// built-in ones still round-trip.
    #[test]
    #[cfg(not(feature = "encodings"))]
    fn encodings_without_the_feature() {
        let e = decode_as(&[0x82, 0xa0], "SJIS", 7).unwrap_err().to_string();
        assert!(e.contains("`encodings`") && e.contains("0x7"), "{e}");
        assert!(encode("a", "IBM437")
            .unwrap_err()
            .to_string()
            .contains("`encodings`"));
        for (enc, bytes) in [
            ("UTF-8", "héllo".as_bytes().to_vec()),
            ("ASCII", vec![0x41, 0xff, 0x80]),
            ("UTF-16LE", vec![0x41, 0x00, 0xe9, 0x00]),
        ] {
            let s = decode_as(&bytes, enc, 0).unwrap();
            assert_eq!(encode(&s, enc).unwrap(), bytes, "{enc}");
        }
    }
}
