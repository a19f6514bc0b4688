//! A headerless resource size table has no byte-order mark: every entry's size votes for the byte order in which
//! it is smaller (`-hook: headerless_little_endian`), so the decision does not depend on which entry comes first
//! (issue 19, item 15: decided by the first entry's size, a table whose entries the writer sorted could read back
//! in the other byte order).

use binspec_formats::rsizetable::Rsizetable;
use binspec_runtime::{Endian, Format};

/// A headerless table of `(crc, size)` entries in the given byte order, in the given order.
fn table(entries: &[(u32, u32)], endian: Endian) -> Vec<u8> {
    let mut out = Vec::new();
    for &(crc, size) in entries {
        for v in [crc, size] {
            out.extend(match endian {
                Endian::Little => v.to_le_bytes(),
                Endian::Big => v.to_be_bytes(),
            });
        }
    }
    out
}

#[test]
fn headerless_byte_order_does_not_depend_on_the_entries_order() {
    // 0x10000 reads smaller in the other byte order (0x100): first, it made the old rule pick the wrong order.
    let entries = [
        (0x9a3c_1f7e, 0x0001_0000),
        (0x1b2d_4c6a, 0x40),
        (0x2e8f_5d3b, 0x1230),
        (0x7c6b_5a49, 0x8),
    ];
    for endian in [Endian::Little, Endian::Big] {
        for turn in 0..entries.len() {
            let mut order = entries.to_vec();
            order.rotate_left(turn);
            let bytes = table(&order, endian);
            let m = Rsizetable::from_binary(&bytes).unwrap();
            assert_eq!(m.endian, endian, "{endian:?}, rotation {turn}");
            // Written sorted by CRC, it reads back the same.
            let written = m.to_binary().unwrap();
            assert_eq!(
                Rsizetable::from_binary(&written).unwrap(),
                m,
                "{endian:?}, rotation {turn}"
            );
            assert_eq!(written, table(&sorted(&entries), endian));
        }
    }
    // A size of 0x01000000 reads as 1 in the other byte order: it is outvoted, in every order of the entries, and
    // the table writes back as it reads.
    let odd = [
        (0x9a3c_1f7e, 0x0100_0000),
        (0x1b2d_4c6a, 0x40),
        (0x2e8f_5d3b, 0x8),
    ];
    let mut seen = vec![Endian::Little];
    for turn in 0..odd.len() {
        let mut order = odd.to_vec();
        order.rotate_left(turn);
        let m = Rsizetable::from_binary(&table(&order, Endian::Little)).unwrap();
        let written = m.to_binary().unwrap();
        assert_eq!(Rsizetable::from_binary(&written).unwrap(), m);
        seen.push(m.endian);
    }
    assert!(seen.iter().all(|e| *e == seen[0]), "{seen:?}");
}

fn sorted(entries: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut v = entries.to_vec();
    v.sort();
    v
}
