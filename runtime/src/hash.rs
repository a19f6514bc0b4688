//! Hash functions that formats use for derived values.

/// The SARC file-name hash: `h = h * multiplier + c` over the name's bytes, each taken as a *signed* char (as
/// Nintendo's and oead's implementations do, which matters for UTF-8 names).
pub fn sarc_name_hash(name: &[u8], multiplier: u32) -> u32 {
    name.iter().fold(0u32, |h, &c| {
        h.wrapping_mul(multiplier)
            .wrapping_add(c as i8 as i32 as u32)
    })
}

/// CRC-32 (the zlib/"crc32b" polynomial), as the resource size table hashes paths.
pub fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn sarc_hash_known_values() {
        // Worked by hand: "a" = 0x61; "ab" = 0x61*0x65 + 0x62.
        assert_eq!(sarc_name_hash(b"a", 0x65), 0x61);
        assert_eq!(sarc_name_hash(b"ab", 0x65), 0x61 * 0x65 + 0x62);
        // Bytes >= 0x80 count as negative.
        assert_eq!(sarc_name_hash(&[0xff], 0x65), 0xffff_ffff);
    }
    #[test]
    fn crc32_check_value() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }
}
