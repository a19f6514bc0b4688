//! Hash functions that formats use for derived values.

/// The SARC file-name hash: `h = h * multiplier + c` over the name's bytes, each taken as a *signed* char (as
/// Nintendo's and oead's implementations do, which matters for UTF-8 names).
///
/// Four bytes at a time: `h * m^4 + c0 * m^3 + c1 * m^2 + c2 * m + c3` is the same sum (modulo 2^32) with one
/// multiplication in the chain from one step to the next instead of four.
#[inline]
pub fn sarc_name_hash(name: &[u8], multiplier: u32) -> u32 {
    let c = |b: u8| b as i8 as i32 as u32;
    let m = multiplier;
    let m2 = m.wrapping_mul(m);
    let m3 = m2.wrapping_mul(m);
    let m4 = m2.wrapping_mul(m2);
    let mut chunks = name.chunks_exact(4);
    let mut h = 0u32;
    for q in &mut chunks {
        h = h
            .wrapping_mul(m4)
            .wrapping_add(c(q[0]).wrapping_mul(m3))
            .wrapping_add(c(q[1]).wrapping_mul(m2))
            .wrapping_add(c(q[2]).wrapping_mul(m))
            .wrapping_add(c(q[3]));
    }
    chunks
        .remainder()
        .iter()
        .fold(h, |h, &b| h.wrapping_mul(m).wrapping_add(c(b)))
}

/// CRC-32 (the zlib/"crc32b" polynomial), as the resource size table hashes paths.
pub fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

/// MurmurHash3, x86 32-bit variant, with a seed: AINB's name and path hashes (seed 0).
pub fn murmur3_32(data: &[u8], seed: u32) -> u32 {
    murmur3::murmur3_32(&mut std::io::Cursor::new(data), seed)
        .expect("reading from memory cannot fail")
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
    fn sarc_hash_four_at_a_time_is_the_byte_by_byte_sum() {
        let one_by_one = |name: &[u8], m: u32| {
            name.iter().fold(0u32, |h, &c| {
                h.wrapping_mul(m).wrapping_add(c as i8 as i32 as u32)
            })
        };
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for len in 0..40 {
            let name: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                })
                .collect();
            for m in [0x65, 0x1f, 0xdead_beef, 0] {
                assert_eq!(
                    sarc_name_hash(&name, m),
                    one_by_one(&name, m),
                    "{name:02x?} {m:#x}"
                );
            }
        }
    }
    #[test]
    fn murmur3_known_values() {
        // The reference implementation's test vectors (SMHasher's x86_32 verification values).
        assert_eq!(murmur3_32(b"", 0), 0);
        assert_eq!(murmur3_32(b"", 1), 0x514e_28b7);
        assert_eq!(murmur3_32(b"Hello, world!", 1234), 0xfaf6_cdb3);
        assert_eq!(
            murmur3_32(b"The quick brown fox jumps over the lazy dog", 0),
            0x2e4f_f723
        );
    }

    #[test]
    fn crc32_check_value() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }
}
