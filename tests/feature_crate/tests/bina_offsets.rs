//! `tests/feature_schemas/bina_offsets.ksy`: a BINA offset table, derived by the writer from the pointers it
//! lists. A hand-made file decoded, written back byte for byte, and edited: the table and its length follow.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::bina_offsets::BinaOffsets;

#[rustfmt::skip]
const FILE: [u8; 0x51] = [
    b'B', b'I', b'N', b'A',
    4, 0, 0, 0,                         // offsets_size
    0x48, 0, 0, 0, 0, 0, 0, 0,          // name_ofs (pointer at 0x08)
    0x4b, 0, 0, 0, 0, 0, 0, 0,          // note_ofs (pointer at 0x10)
    4, 0, 0, 0,                         // blob_len
    2, 0, 0, 0,                         // record_count
    b'z', b'z', b'z', b'z',             // 0x20: blob
    0x4d, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, // 0x24: record 0 (pointer at 0x24)
    0x4f, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, // 0x34: record 1 (pointer at 0x34)
    0x42, 0x42, 0x45, 0x44,             // 0x44: offsets: 0x08, +8, +0x14, +0x10 (in units of 4)
    b'a', b'b', 0, b'n', 0, b'x', 0, b'y', 0, // 0x48: name, note, labels
];

fn u32_at(d: &[u8], at: usize) -> usize {
    u32::from_le_bytes(d[at..at + 4].try_into().unwrap()) as usize
}

/// The offset table of a written file, and the pointers it lists.
fn offsets(d: &[u8]) -> (Vec<u8>, Vec<u32>) {
    let (size, blob, records) = (u32_at(d, 4), u32_at(d, 0x18), u32_at(d, 0x1c));
    let at = 0x20 + blob + records * 16;
    let t = d[at..at + size].to_vec();
    let ps = binspec_runtime::layout::reloc::bina_decode(&t).unwrap();
    (t, ps)
}

#[test]
fn the_offset_table_is_derived() {
    let m = agree::read::<BinaOffsets>(&FILE).unwrap();
    assert_eq!(m.offsets, None);
    assert_eq!((&m.name[..], m.note.as_deref()), ("ab", Some("n")));
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}

#[test]
fn the_offset_table_follows_edits() {
    let mut m = agree::read::<BinaOffsets>(&FILE).unwrap();
    // A long blob: the first label is 0x410 bytes after the note, a distance of two bytes; the table grows to
    // 5 bytes and is padded to 8, and its length follows.
    m.blob = vec![b'z'; 0x400].into();
    let out = m.to_binary_agreed().unwrap();
    let (t, ps) = offsets(&out);
    assert_eq!(t, [0x42, 0x42, 0x81, 0x04, 0x44, 0, 0, 0]);
    assert_eq!(ps, [0x08, 0x10, 0x420, 0x430]);
    assert_eq!(u32_at(&out, 4), 8);
    // No note: its pointer is null and not listed.
    m.note = None;
    let out = m.to_binary_agreed().unwrap();
    assert_eq!(&out[0x10..0x18], &[0; 8]);
    assert_eq!(offsets(&out).1, [0x08, 0x420, 0x430]);
    let back = agree::read::<BinaOffsets>(&out).unwrap();
    assert_eq!(
        (back.offsets, back.note, back.records.len()),
        (None, None, 2)
    );
}

#[test]
fn a_table_written_otherwise_is_kept() {
    // The same four pointers, with a word of zeros more than the writer pads with.
    let mut file = FILE.to_vec();
    file[4] = 8;
    file.splice(0x48..0x48, [0; 4]);
    for p in [0x08, 0x10, 0x24, 0x34] {
        file[p] += 4; // the strings move by the word added
    }
    let m = agree::read::<BinaOffsets>(&file).unwrap();
    assert_eq!(
        m.offsets.as_deref(),
        Some(&[0x42, 0x42, 0x45, 0x44, 0, 0, 0, 0][..])
    );
    assert_eq!(m.to_binary_agreed().unwrap(), file);
    let mut m = m;
    m.offsets = None;
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);
}
