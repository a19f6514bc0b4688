//! Hooks of `schemas/ainb.ksy`.

/// The blackboard's `file_reference_end`: the first element's parameter offset (0 without elements), where the
/// file reference array ends. The schema's expression says the same (`_root.elements[0].element_param`); the
/// generated model derives that offset, so it holds no value to read it from. `data` is the whole file (the
/// blackboard is read in the root stream). The header gives the version (0x4), the command count (0xc) and the
/// element count (0x10); the element array follows the 0x74-byte header and the 0x18-byte commands, and the
/// parameter offset is at 0x14 of an element (0x10 in version 0x404, which has no name hash). Bytes the file
/// does not have read as 0 (the reader reports the short file where it reads the elements).
pub fn file_reference_end(data: &[u8]) -> i128 {
    let word = |at: u64| -> u64 {
        usize::try_from(at)
            .ok()
            .and_then(|at| data.get(at..at.checked_add(4)?))
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64)
    };
    if word(0x10) == 0 {
        return 0;
    }
    let version = word(4) as u32;
    let first = crate::ainb::element_at(version, word(0xc), 0);
    word(first + crate::ainb::element_field(version, 0x14)) as i128
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(version: u32, commands: u32, elements: u32) -> Vec<u8> {
        let mut d = vec![0u8; 0x74 + 0x18 * commands as usize + 0x3c * elements as usize];
        d[4..8].copy_from_slice(&version.to_le_bytes());
        d[0xc..0x10].copy_from_slice(&commands.to_le_bytes());
        d[0x10..0x14].copy_from_slice(&elements.to_le_bytes());
        d
    }

    #[test]
    fn the_first_elements_parameter_offset() {
        let mut d = header(0x407, 2, 1);
        let e = 0x74 + 0x30;
        d[e + 0x14..e + 0x18].copy_from_slice(&0x1234u32.to_le_bytes());
        assert_eq!(file_reference_end(&d), 0x1234);
        let mut d = header(0x404, 1, 3);
        let e = 0x74 + 0x18;
        d[e + 0x10..e + 0x14].copy_from_slice(&0x99u32.to_le_bytes());
        assert_eq!(file_reference_end(&d), 0x99);
    }

    #[test]
    fn no_elements_or_a_short_file_give_zero() {
        assert_eq!(file_reference_end(&header(0x407, 0, 0)), 0);
        assert_eq!(file_reference_end(&[]), 0);
        let mut d = header(0x407, 0, 1);
        d.truncate(0x74 + 0x10);
        assert_eq!(file_reference_end(&d), 0);
        // A command count that puts the element array past the end of the file (and past usize on 32 bits).
        let mut d = header(0x407, 0, 1);
        d[0xc..0x10].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(file_reference_end(&d), 0);
    }
}
