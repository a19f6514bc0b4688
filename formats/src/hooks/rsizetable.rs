//! Hooks of `schemas/rsizetable.ksy`.

/// Whether a headerless table (pairs of u32: CRC-32, size; no header) is little-endian: sizes are small numbers,
/// and a small number read in the other byte order is large, so each entry whose size is smaller read
/// little-endian votes little, and each whose size is smaller read big-endian votes big. Ties (and an empty table)
/// are little-endian, the byte order of the Switch. Every entry votes, so the answer does not depend on the order
/// of the entries: a table its writer sorts reads back in the same byte order (issue 19; deciding by the first
/// entry's size did not, and deciding by the smallest word let one CRC-32 with zero low bytes decide).
pub fn headerless_little_endian(data: &[u8]) -> bool {
    let (mut little, mut big) = (0u64, 0u64);
    for pair in data.chunks_exact(8) {
        let size = [pair[4], pair[5], pair[6], pair[7]];
        let (le, be) = (u32::from_le_bytes(size), u32::from_be_bytes(size));
        if le < be {
            little += 1;
        } else if be < le {
            big += 1;
        }
    }
    little >= big
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(entries: &[(u32, u32)], little: bool) -> Vec<u8> {
        let word = |v: u32| {
            if little {
                v.to_le_bytes()
            } else {
                v.to_be_bytes()
            }
        };
        entries
            .iter()
            .flat_map(|&(c, s)| [word(c), word(s)])
            .flatten()
            .collect()
    }

    #[test]
    fn the_entries_vote() {
        // One size (0x01000000) reads smaller the other way; two CRCs with zero low bytes do not vote.
        let entries = [
            (0x1000_0000, 0x0100_0000),
            (0x2000_0000, 0x40),
            (0x9a3c_1f7e, 0x1230),
        ];
        for little in [true, false] {
            assert_eq!(headerless_little_endian(&table(&entries, little)), little);
        }
        assert!(headerless_little_endian(&[]));
        // A tie (one vote each) is little-endian.
        assert!(headerless_little_endian(&table(
            &[(1, 0x40), (2, 0x0100_0000)],
            true
        )));
        // Sizes that read the same both ways (0, 0x01000001) do not vote.
        assert!(!headerless_little_endian(&table(
            &[(1, 0), (2, 0x0100_0001), (3, 0x40)],
            false
        )));
    }
}
