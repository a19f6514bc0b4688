//! The BINA offset table encoding (`binspec_runtime::layout::reloc::bina_encode`/`bina_decode`) against the real
//! PXD files of the shared corpus (Sonic Frontiers, BINA version 2.1, little endian): each file's table, at the
//! end of its DATA node, decodes to pointers into its data, and encodes back to its bytes, except where its
//! padding holds something other than zeros (which a reader keeps, `bina_kept`).
//!
//! Skips, with a message, when the corpus is absent.

use binspec_runtime::layout::reloc::{bina_decode, bina_encode, bina_kept};
use binspec_tests::{files_under, repo};

fn u32_at(d: &[u8], at: usize) -> usize {
    u32::from_le_bytes(d[at..at + 4].try_into().unwrap()) as usize
}

#[test]
fn real_offset_tables_decode_and_encode_back() {
    let dir = repo().join("../shared/corpus/real/pxd");
    if !dir.is_dir() {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    }
    let (mut files, mut same, mut pointers) = (0, 0, 0);
    for path in files_under(&dir) {
        let d = std::fs::read(&path).unwrap();
        let name = path.display();
        assert_eq!(&d[..8], b"BINA210L", "{name}");
        assert_eq!(&d[0x10..0x14], b"DATA", "{name}");
        // The DATA node: its size, then the string table's offset and size and the offset table's size; its
        // data starts 0x30 after it, where every offset counts from.
        let (node, size, table_size) = (0x10, u32_at(&d, 0x14), u32_at(&d, 0x20));
        let table = &d[node + size - table_size..node + size];
        let data = 0x40;
        let ps = bina_decode(table).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!ps.is_empty(), "{name}");
        for &p in &ps {
            let at = data + p as usize;
            assert!(
                at + 8 <= node + size - table_size,
                "{name}: a pointer at {at:#x} past the data"
            );
        }
        let again = bina_encode(&ps).unwrap();
        if again == table {
            same += 1;
            assert!(!bina_kept(table), "{name}");
        } else {
            // Only the padding differs: the entries are the same bytes.
            let n = again.iter().position(|&b| b == 0).unwrap_or(again.len());
            assert_eq!(&table[..n], &again[..n], "{name}");
            assert_eq!(table.len(), again.len(), "{name}");
            assert!(bina_kept(table), "{name}");
            eprintln!("{name}: padding {:02x?} kept", &table[n..]);
        }
        files += 1;
        pointers += ps.len();
    }
    eprintln!("{files} BINA files, {pointers} pointers; {same} tables encode back byte for byte");
    assert!(files > 0);
}
