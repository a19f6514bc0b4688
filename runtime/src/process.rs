//! `process:` transformations, each with its inverse for writing.

#[cfg(feature = "compress")]
use crate::error::{Error, Result};

/// XOR with a repeating key (a one-byte key for an integer key).
pub fn xor(data: &[u8], key: &[u8]) -> Vec<u8> {
    if key.is_empty() {
        return data.to_vec();
    }
    data.iter()
        .zip(key.iter().cycle())
        .map(|(d, k)| d ^ k)
        .collect()
}

/// Rotates each byte left by `n` bits (`rol`); `rol(-n)` is `ror(n)`.
pub fn rol(data: &[u8], n: i128) -> Vec<u8> {
    let n = n.rem_euclid(8) as u32;
    data.iter().map(|b| b.rotate_left(n)).collect()
}

/// Inflates zlib data, refusing more than `limit` bytes of output.
#[cfg(feature = "compress")]
pub fn unzlib(data: &[u8], at: u64, limit: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(data)
        .take(limit + 1)
        .read_to_end(&mut out)
        .map_err(|e| Error::invalid(at, format!("zlib data is corrupt: {e}")))?;
    if out.len() as u64 > limit {
        return Err(Error::limit(
            at,
            format!("zlib data inflates to more than {limit:#x} bytes"),
        ));
    }
    Ok(out)
}

/// Deflates into zlib data (default level; other writers' choices of level are not recorded yet).
#[cfg(feature = "compress")]
pub fn zlib(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec cannot fail.
    let _ = e.write_all(data);
    e.finish().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn inverses() {
        let d = b"hello world".to_vec();
        assert_eq!(xor(&xor(&d, &[0x5a, 0x13]), &[0x5a, 0x13]), d);
        assert_eq!(rol(&rol(&d, 3), -3), d);
    }
    #[cfg(feature = "compress")]
    #[test]
    fn zlib_inverse_and_limit() {
        let d = b"hello world".to_vec();
        assert_eq!(unzlib(&zlib(&d), 0, 100).unwrap(), d);
        assert!(unzlib(&zlib(&d), 0, 4).is_err());
        assert!(unzlib(b"junk", 0, 100).is_err());
    }
}
